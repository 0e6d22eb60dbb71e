r"""trec_eval's further measures: counts, set measures, infAP, Bpref, the gain measures after
nDCG, rank-biased precision, and the unjudged and judged shares of a ranking.

The measures of ``all_trec`` (trec_eval 9.0.8 and 10.0) beyond the ones every course uses
(AP, P, R, RR, Rprec, IPrec and nDCG, in :mod:`evalkit.trec._measures`), each a vectorised
kernel over a :class:`~evalkit.trec._measures.JudgedRun` with the notation and conventions
stated there. Each docstring gives the definition and the trec_eval file (``m_*.c``) it
reproduces (or, for Judged, ir_measures' definition). Their records (names, parameters, help
lines) are in :mod:`evalkit.trec._registry`.
"""

from __future__ import annotations

import numpy as np

from .._ranking_core import is_relevant, within_cutoff
from ._measures import (
    JudgedRun,
    _gain_of,
    _gains,
    _ideal_at,
    _ideal_codes,
    block_starts,
    group_cumsum,
)

__all__ = ["INFAP_EPSILON", "bpref", "num_retrieved", "num_relevant", "num_relevant_retrieved",
           "num_nonrelevant_judged_retrieved", "success", "set_precision", "set_recall",
           "set_f", "r_precision_multiple", "inferred_average_precision",
           "set_average_precision", "set_relative_precision", "relative_precision", "utility",
           "binary_g", "normalized_gain", "ndcg_relevant", "r_ndcg", "rank_biased_precision",
           "rbp_residual", "unjudged", "judged", "relevance_string"]


def bpref(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""Bpref, trec_eval ``bpref`` (Buckley & Voorhees 2004).

    :math:`\frac{1}{R}\sum_{\text{relevant retrieved } r}
    \left(1 - \frac{\min(n_r, R)}{\min(N, R)}\right)`, with :math:`n_r` the judged
    non-relevant documents ranked above r; unjudged (and negative) documents are skipped.
    """
    judged = run.judged_grade >= 0
    codes, grades = run.judged_query[judged], run.judged_grade[judged]
    if codes.size == 0:
        return np.zeros(run.n_queries)
    nonrelevant = (~is_relevant(grades, run.relevance_level)).astype(np.int64)
    running = np.cumsum(nonrelevant)
    starts = block_starts(codes)
    before = np.repeat(running[starts] - nonrelevant[starts], np.diff(np.r_[starts, codes.size]))
    above = (running - before)[nonrelevant == 0]  # judged non-relevant above each relevant
    codes = codes[nonrelevant == 0]
    n_rel = run.n_relevant[codes]
    smaller = np.minimum(run.n_nonrelevant[codes], n_rel)
    penalty = np.divide(np.minimum(above, n_rel), smaller, out=np.zeros(codes.size),
                        where=smaller > 0)
    return run.over_r(run.per_query(codes, np.where(above > 0, 1.0 - penalty, 1.0)))


def num_retrieved(run: JudgedRun, k: float | None) -> np.ndarray:
    """NumRet, trec_eval ``num_ret``: documents retrieved."""
    return run.n_retrieved


def num_relevant(run: JudgedRun, k: float | None) -> np.ndarray:
    """NumRel, trec_eval ``num_rel``: R, the relevant documents in the qrels."""
    return run.n_relevant


def num_relevant_retrieved(run: JudgedRun, k: float | None) -> np.ndarray:
    """NumRelRet, trec_eval ``num_rel_ret``: relevant documents retrieved."""
    return np.bincount(run.relevant_query, minlength=run.n_queries)


def num_nonrelevant_judged_retrieved(run: JudgedRun, k: float | None) -> np.ndarray:
    """NumNonRelJudgedRet, trec_eval ``num_nonrel_judged_ret``: judged (grade >= 0)
    documents retrieved that are not relevant."""
    judged = run.judged_grade >= 0
    nonrelevant = judged & ~is_relevant(run.judged_grade, run.relevance_level)
    return run.per_query(run.judged_query[nonrelevant])


def success(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""Success@k, trec_eval ``success.k``: 1 when a relevant document is in the top k."""
    top = within_cutoff(run.relevant_rank, k)
    return (run.per_query(run.relevant_query[top]) > 0).astype(np.float64)


def set_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""SetP, trec_eval ``set_P``: relevant retrieved / retrieved (the whole list)."""
    found = run.per_query(run.relevant_query)
    retrieved = run.n_retrieved
    return np.divide(found, retrieved, out=np.zeros(run.n_queries), where=retrieved > 0)


def set_recall(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""SetR, trec_eval ``set_recall``: relevant retrieved / R (the whole list)."""
    return run.over_r(run.per_query(run.relevant_query))


def set_f(run: JudgedRun, beta: float | None) -> np.ndarray:
    r"""SetF, trec_eval ``set_F`` (``SetF@b``: trec_eval ``set_F.b``, default b = 1).

    :math:`(b + 1) P R / (b P + R)` with P = SetP and R = SetR, as trec_eval writes it
    (b weighs recall, not squared); 0 when nothing relevant was retrieved.
    """
    b = 1.0 if beta is None else float(beta)
    p, r = set_precision(run, None), set_recall(run, None)
    found = run.per_query(run.relevant_query) > 0
    denominator = b * p + r
    return np.divide((b + 1.0) * p * r, denominator, out=np.zeros(run.n_queries),
                     where=found & (denominator > 0))


def r_precision_multiple(run: JudgedRun, multiple: float | None) -> np.ndarray:
    r"""Precision at a multiple m of R, trec_eval ``Rprec_mult.m``.

    Precision at rank :math:`c = (\text{long})(mR + 0.9)` (trec_eval's rule; the list counts
    as padded with non-relevant documents), 0 when c = 0.
    """
    cut = (multiple * run.n_relevant + 0.9).astype(np.int64)
    top = run.relevant_rank <= cut[run.relevant_query]
    found = run.per_query(run.relevant_query[top])
    return np.divide(found, cut, out=np.zeros(run.n_queries), where=cut > 0)


#: trec_eval's ``INFAP_EPSILON`` (trec_eval.h).
INFAP_EPSILON = 0.00001


def _powers(p: float, n: int) -> np.ndarray:
    """``powers[r] = p**(r - 1)`` for ranks r = 1 … n (``powers[0]`` unused), multiplied one
    rank at a time from 1.0 as ``m_rbp.c`` does (``np.power`` may differ in the last bit)."""
    powers = np.empty(n + 2)
    powers[0], powers[1] = 0.0, 1.0
    powers[2:] = np.cumprod(np.full(n, float(p)))
    return powers


def inferred_average_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""Inferred AP, trec_eval ``infAP`` (Yilmaz & Aslam 2006), ``m_infap.c``.

    For each relevant document retrieved at rank :math:`j + 1` (:math:`j \ge 1`), with
    :math:`r, n, u` the relevant, judged non-relevant and negative-graded ("pooled but
    unjudged") documents above it:
    :math:`\frac{1}{j+1} + \frac{j}{j+1} \cdot \frac{r + n + u}{j} \cdot
    \frac{r + \epsilon}{r + n + 2\epsilon}` (1 at rank 1), :math:`\epsilon = 10^{-5}`;
    summed and divided by R. Documents absent from the qrels ("not in the pool") count only
    through j.

    References: Yilmaz, E. and Aslam, J. A. (2006). Estimating average precision with
    incomplete and imperfect judgments. CIKM 2006, 102–111.
    """
    codes, grades, ranks = run.judged_query, run.judged_grade, run.judged_rank
    relevant = is_relevant(grades, run.relevance_level)
    nonrelevant = (grades >= 0) & ~relevant
    unjudged = grades < 0
    # Counts above each row (the row itself excluded), per query.
    above_rel = group_cumsum(codes, relevant) - relevant
    above_non = group_cumsum(codes, nonrelevant) - nonrelevant
    above_unj = group_cumsum(codes, unjudged) - unjudged
    r, n, u = above_rel[relevant], above_non[relevant], above_unj[relevant]
    j = ranks[relevant].astype(np.float64) - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = (1.0 / (j + 1.0) + (j / (j + 1.0)) * ((r + n + u) / j)
                 * ((r + INFAP_EPSILON) / (r + n + 2 * INFAP_EPSILON)))
    terms = np.where(j == 0, 1.0, terms)
    return run.over_r(run.per_query(codes[relevant], terms))


def set_average_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""SetAP, trec_eval ``set_map`` (``m_set_map.c``): unranked AP,
    :math:`\frac{\text{relret}^2}{\text{ret} \cdot R}` = SetP × SetR; 0 when nothing was
    retrieved or R = 0."""
    found = run.per_query(run.relevant_query)
    denominator = run.n_retrieved.astype(np.float64) * run.n_relevant
    return np.divide(found * found, denominator, out=np.zeros(run.n_queries),
                     where=denominator > 0)


def set_relative_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""SetRelP, trec_eval ``set_relative_P`` (``m_set_rel_P.c``): relevant retrieved divided
    by the most a list of that length could hold, :math:`\text{relret} / \min(\text{ret}, R)`;
    0 when nothing was retrieved or R = 0."""
    found = run.per_query(run.relevant_query)
    most = np.minimum(run.n_retrieved, run.n_relevant)
    return np.divide(found, most, out=np.zeros(run.n_queries), where=most > 0)


def relative_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""RelP@k, trec_eval ``relative_P.k`` (``m_rel_P.c``): relevant documents in the top k
    divided by :math:`\min(k, R)` — P@k up to R, R@k beyond; 0 when R = 0."""
    top = within_cutoff(run.relevant_rank, k)
    found = run.per_query(run.relevant_query[top])
    most = np.minimum(k, run.n_relevant)
    return np.divide(found, most, out=np.zeros(run.n_queries), where=most > 0)


def utility(run: JudgedRun, k: float | None, a: float = 1.0, b: float = -1.0, c: float = 0.0,
            d: float = 0.0, n_docs: int = 0) -> np.ndarray:
    r"""Utility, trec_eval ``utility.a,b,c,d`` (``m_utility.c``; default 1, -1, 0, 0).

    The linear set utility of the contingency table,
    :math:`a\,\text{relret} + b\,(\text{ret} - \text{relret}) + c\,(R - \text{relret})
    + d\,(N_\text{coll} + \text{relret} - \text{ret} - R)`, with :math:`N_\text{coll}`
    (``n_docs``, trec_eval ``-N``) the documents in the collection, 0 unless given (as
    trec_eval, whose files do not hold it). trec_eval averages it over queries; a query the
    run misses scores 0 (``missing_queries="zero"``, trec_eval 9.0.8's ``-c``).

    References: Lewis, D. D. (1995). Evaluating and optimizing autonomous text classification
    systems. SIGIR 1995, 246–254.
    """
    found = run.per_query(run.relevant_query)
    retrieved = run.n_retrieved.astype(np.float64)
    n_rel = run.n_relevant.astype(np.float64)
    value = (a * found + b * (retrieved - found) + c * (n_rel - found)
             + d * (n_docs + found - retrieved - n_rel))
    return np.where(retrieved > 0, value, 0.0)  # a query the run misses scores 0 (-c)


def binary_g(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""BinG, trec_eval ``binG`` (``m_binG.c``, experimental): for each relevant document
    retrieved, :math:`1 / \log_2(2 + \text{documents above it that are not relevant})`
    (unjudged ones included), summed and divided by R."""
    nonrelevant_above = run.relevant_rank - run.relevant_found
    terms = 1.0 / np.log2((2 + nonrelevant_above).astype(np.float64))
    return run.over_r(run.per_query(run.relevant_query, terms))


def normalized_gain(run: JudgedRun, k: float | None,
                    gains: dict[int, float] | None = None) -> np.ndarray:
    r"""G, trec_eval ``G`` (``m_G.c``, experimental): normalised gain.

    Each document retrieved at rank i with gain :math:`g_i \ne 0` adds
    :math:`g_i / \log_2(2 + C_i - S_i)`, with :math:`S_i` the gain of the top i and
    :math:`C_i = \sum_{j \le i} \max(g^*_j, 1)` (:math:`g^*_j` the ideal ranking's gain at j,
    counted 1 past its end); the sum is divided by the ideal ranking's total gain. Gains are
    the grades unless ``gains`` maps a grade to another (trec_eval ``G.1=3.5,2=9``).
    """
    table = _gains(run, gains)
    codes, ranks, row_gain = run.judged_query, run.judged_rank, table.row_gain
    ideal_codes, _ = _ideal_codes(run, table)
    cost_running = group_cumsum(ideal_codes, np.maximum(table.ideal_gain, 1.0))
    ideal_total = run.per_query(ideal_codes, table.ideal_gain)
    nonzero = row_gain != 0
    results_running = group_cumsum(codes, row_gain)[nonzero]
    codes, ranks = codes[nonzero], ranks[nonzero]
    m = table.ideal_count[codes]
    cost = _ideal_at(table, codes, ranks, cost_running) + np.maximum(ranks - m, 0)
    with np.errstate(divide="ignore"):  # log2(1) = 0: inf, as in trec_eval
        terms = row_gain[nonzero] / np.log2(2.0 + cost - results_running)
    total = run.per_query(codes, terms)
    return np.divide(total, ideal_total, out=np.zeros(run.n_queries), where=ideal_total > 0)


def ndcg_relevant(run: JudgedRun, k: float | None,
                  gains: dict[int, float] | None = None) -> np.ndarray:
    r"""nDCGRel, trec_eval ``ndcg_rel`` (``m_ndcg_rel.c``, experimental): nDCG averaged over
    the documents with a positive gain.

    With m the query's judged documents of positive gain: each one retrieved at rank i adds
    :math:`\mathrm{DCG@}i / \mathrm{IDCG@}\min(i, m)`; each one not retrieved adds the final
    :math:`\mathrm{DCG} / \mathrm{IDCG}`; the sum is divided by m (0 when it is not positive).
    """
    table = _gains(run, gains)
    codes, ranks, row_gain = run.judged_query, run.judged_rank, table.row_gain
    dcg_running = group_cumsum(codes, row_gain / np.log2(ranks + 1.0))
    ideal_codes, ideal_ranks = _ideal_codes(run, table)
    ideal_running = group_cumsum(ideal_codes, table.ideal_gain / np.log2(ideal_ranks + 1.0))
    positive = row_gain > 0
    p_codes = codes[positive]
    best = _ideal_at(table, p_codes, ranks[positive], ideal_running)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = run.per_query(p_codes, dcg_running[positive] / best)
    m = table.ideal_count
    final_dcg = run.per_query(codes, row_gain / np.log2(ranks + 1.0))
    final_best = _ideal_at(table, np.arange(run.n_queries), m, ideal_running)
    missing = (m - np.bincount(p_codes, minlength=run.n_queries)).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = total + missing * final_dcg / final_best
    return np.divide(total, m, out=np.zeros(run.n_queries), where=total > 0)


def r_ndcg(run: JudgedRun, k: float | None, gains: dict[int, float] | None = None) -> np.ndarray:
    r"""RnDCG, trec_eval ``Rndcg`` (``m_Rndcg.c``, experimental): nDCG averaged at the "R
    levels", the depths where the ideal ranking's gain changes.

    With the ideal gains :math:`g^*_1 \ge \dots \ge g^*_m > 0` (then 0), each depth d with
    :math:`g^*_{d+1} \ne g^*_d` (1 ≤ d ≤ m) adds :math:`\mathrm{DCG@}\min(d, n) /
    \mathrm{IDCG@}d`, and when more than m + 1 documents were retrieved the whole list adds
    :math:`\mathrm{DCG@}n / \mathrm{IDCG@}m`; the mean of these. 0 when R = 0 (R at the
    relevance level); NaN, as trec_eval's 0 / 0, when no gain is positive.
    """
    table = _gains(run, gains)
    codes, ranks, row_gain = run.judged_query, run.judged_rank, table.row_gain
    dcg_running = group_cumsum(codes, row_gain / np.log2(ranks + 1.0))
    ideal_codes, ideal_ranks = _ideal_codes(run, table)
    ideal_running = group_cumsum(ideal_codes, table.ideal_gain / np.log2(ideal_ranks + 1.0))
    # The depths d where the ideal gain changes (d = m always: the gain drops to <= 0).
    g = table.ideal_gain
    changes = np.ones(g.size, dtype=bool)
    if g.size:
        changes[:-1] = (g[1:] != g[:-1]) | (ideal_codes[1:] != ideal_codes[:-1])
    d_codes, depth = ideal_codes[changes], ideal_ranks[changes]
    n = run.n_retrieved
    # DCG@min(d, n): the running DCG at the last judged row ranked <= min(d, n).
    at_dcg = _running_at(codes, ranks, dcg_running, d_codes, np.minimum(depth, n[d_codes]),
                         run.n_queries)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = run.per_query(d_codes, at_dcg / ideal_running[changes])
    count = np.bincount(d_codes, minlength=run.n_queries).astype(np.float64)
    m = table.ideal_count
    tail = (n > m + 1) & (m > 0)
    all_queries = np.arange(run.n_queries)
    final_dcg = run.per_query(codes, row_gain / np.log2(ranks + 1.0))
    final_best = _ideal_at(table, all_queries, m, ideal_running)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = np.where(tail, total + final_dcg / final_best, total)
        value = total / (count + tail)
    return np.where((run.n_relevant > 0) & run.evaluated, value, 0.0)


def _running_at(codes: np.ndarray, ranks: np.ndarray, running: np.ndarray,
                at_codes: np.ndarray, at_ranks: np.ndarray, n_queries: int) -> np.ndarray:
    """For each (query, depth) asked: ``running`` (a running sum over each query's judged
    rows) at the query's last row ranked <= depth; 0 when there is none."""
    out = np.zeros(at_codes.size)
    if codes.size == 0 or at_codes.size == 0:
        return out
    # Number the blocks of rows in row order, so that (block, rank) keys increase.
    starts = block_starts(codes)
    row_block = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, codes.size]))
    block_of_query = np.full(n_queries, -1, dtype=np.int64)
    block_of_query[codes[starts]] = np.arange(starts.size)
    width = np.int64(max(int(ranks.max()), int(at_ranks.max())) + 1)
    blocks = block_of_query[at_codes]
    at = np.searchsorted(row_block * width + ranks, blocks * width + at_ranks, side="right") - 1
    hit = (blocks >= 0) & (at >= 0)
    hit[hit] = row_block[at[hit]] == blocks[hit]
    out[hit] = running[at[hit]]
    return out


def _rbp_gains(run: JudgedRun, gains: dict[int, float] | None) -> np.ndarray:
    """Each judged row's gain for RBP: trec_eval's gains (``gain_init.c``), rescaled per
    query to [0, 1] by (gain - min) / (max - min) when some gain of the query's levels lies
    outside [0, 1], with min <= 0 <= max. A query's levels are 0 up to its highest grade and
    every level that ``gains`` names; rows graded negative gain 0, not rescaled."""
    gains = gains or {}
    top = np.full(run.n_queries, -1, dtype=np.int64)
    graded = run.qrels_grade >= 0
    np.maximum.at(top, run.qrels_query[graded], run.qrels_grade[graded].astype(np.int64))
    # m_rbp.c leaves min and max uninitialised; they start at 0 in the builds we compared
    # with (see rank_biased_precision).
    named = np.array(list(gains.values()), dtype=np.float64)
    low = np.full(run.n_queries, named.min(initial=0.0))
    high = np.full(run.n_queries, named.max(initial=0.0))
    # The levels 0 … top that gains does not name gain their own value.
    lowest = min(set(range(len(gains) + 1)) - set(gains))
    low = np.where(lowest <= top, np.minimum(low, lowest), low)
    highest = top.copy()
    for _ in gains:
        highest = np.where(np.isin(highest, list(gains)), highest - 1, highest)
    high = np.where(highest >= 0, np.maximum(high, highest), high)
    rescale = ((low < 0) | (high > 1))[run.judged_query] & (run.judged_grade >= 0)
    row_gain = _gain_of(run.judged_grade, gains)
    q = run.judged_query[rescale]
    row_gain[rescale] = (row_gain[rescale] - low[q]) / (high[q] - low[q])
    return row_gain


def rank_biased_precision(run: JudgedRun, k: float | None, p: float = 0.9,
                          gains: dict[int, float] | None = None) -> np.ndarray:
    r"""RBP, trec_eval 10.0 ``rbp`` (``m_rbp.c``): rank-biased precision,
    :math:`(1 - p) \sum_i g_i\, p^{i-1}` with persistence p (default 0.9, trec_eval's).

    Gains are trec_eval's (the grades, or ``gains``: trec_eval ``rbp.p=0.8,2=3``), rescaled
    per query to [0, 1] as (g - min) / (max - min) when some gain of the query's levels (0 to
    its highest grade, and every level ``gains`` names) lies outside [0, 1]: with grades 0–3,
    grade 3 gains 1 and grade 1 gains 1/3. The relevance level plays no part; unjudged
    documents and negative grades gain 0.

    ``m_rbp.c`` never initialises that min and max: the binaries we compared with start both
    at 0 (so min <= 0 <= max: gains 0.5 to 7.5 rescale as g / 7.5) when rbp is asked for
    alone or in ``all_trec``, but what an earlier measure leaves on the stack can change them
    (``-m dcg -m rbp`` may print other values). evalkit starts them at 0. ir_measures' RBP
    defaults to p = 0.8 and binary gains.

    References: Moffat, A. and Zobel, J. (2008). Rank-biased precision for measurement of
    retrieval effectiveness. ACM TOIS 27(1), article 2.
    """
    row_gain = _rbp_gains(run, gains)
    powers = _powers(p, int(run.n_retrieved.max(initial=0)))
    total = run.per_query(run.judged_query, row_gain * powers[run.judged_rank])
    return (1.0 - p) * total


def _unjudged_rows(run: JudgedRun) -> tuple[np.ndarray, np.ndarray]:
    """Query and rank of every retrieved document that is absent from the qrels or graded
    negative (trec_eval's RELVALUE_NONPOOL and RELVALUE_UNJUDGED), in rank order."""
    n = run.n_retrieved.astype(np.int64)
    offset = np.r_[0, np.cumsum(n)[:-1]]
    judged = np.zeros(int(n.sum()), dtype=bool)
    keep = run.judged_grade >= 0
    judged[offset[run.judged_query[keep]] + run.judged_rank[keep] - 1] = True
    rows = np.flatnonzero(~judged)
    codes = np.repeat(np.arange(run.n_queries), n)[rows]
    return codes, rows - offset[codes] + 1


def rbp_residual(run: JudgedRun, k: float | None, p: float = 0.9) -> np.ndarray:
    r"""RBPResid, trec_eval 10.0 ``rbp_resid`` (``m_rbp_resid.c``): how much RBP could still
    rise, :math:`p^n + (1 - p) \sum_{\text{unjudged } i} p^{i-1}` (n retrieved; the most the
    unjudged documents and those past the list could add with gain 1); 0 when every
    retrieved document is judged (grade >= 0)."""
    powers = _powers(p, int(run.n_retrieved.max(initial=0)))
    codes, ranks = _unjudged_rows(run)
    total = run.per_query(codes, powers[ranks])
    count = np.bincount(codes, minlength=run.n_queries)
    beyond = powers[run.n_retrieved + 1]
    return np.where(count > 0, beyond + (1.0 - p) * total, 0.0)


def unjudged(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""Unjudged@k, trec_eval 10.0 ``unj.k`` (``m_unjudged.c``; all_trec prints unj_5,
    unj_10, unj_20): the share of the top k that is absent from the qrels or graded negative;
    a list shorter than k counts as padded with judged documents."""
    judged = (run.judged_grade >= 0) & within_cutoff(run.judged_rank, k)
    shown = np.minimum(run.n_retrieved, k)
    return (shown - run.per_query(run.judged_query[judged])) / k


def judged(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""Judged@k, ir_measures' ``Judged`` (trec_eval has no such measure): the share of the
    top k that is judged, :math:`\#\{i \le k : \text{judged}\} / \min(k, n)`, with n
    the documents retrieved; without ``@k`` the share of the whole ranking (k = n).

    A document is judged when the qrels grade it 0 or more. A negative grade is trec_eval's
    "in the pool but not judged" (``RELVALUE_UNJUDGED``), so it does not count as judged,
    as in trec_eval's ``unj``; ir_measures counts any qrels line, so the two differ only on
    qrels with negative grades.

    The divisor follows ir_measures (``judged_provider.py`` since ir_measures 0.3.1): a query
    that retrieved fewer than k documents is divided by the n it retrieved, not by k (its
    list is not padded), so Judged@k is 1 when every retrieved document is judged. A query
    with nothing retrieved (``missing_queries="zero"``) scores 0. Unjudged@k (trec_eval's
    ``unj``) divides by k instead, counting the ranks a short list lacks as judged; so
    Judged@k + Unjudged@k = 1 when n >= k, not otherwise.

    The top k is trec_eval's ranking (ties broken by doc_id descending); ir_measures breaks
    ties by doc_id ascending, which matters only for tied scores across rank k.
    """
    top = (run.judged_grade >= 0) & within_cutoff(run.judged_rank, k)
    count = run.per_query(run.judged_query[top])
    shown = run.n_retrieved if k is None else np.minimum(run.n_retrieved, k)
    return np.divide(count, shown, out=np.zeros(run.n_queries), where=shown > 0)


def relevance_string(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""RelString, trec_eval ``relstring.k`` (``m_relstring.c``; default k = 10): the grades
    of the top k as one string, a character per document: the grade 0–9, ``>`` above 9,
    ``-`` absent from the qrels ("not in the pool"), ``.`` graded negative ("pooled but
    unjudged"). trec_eval prints it per query only (``-q``), between single quotes; the
    value here is the string without them (an object array)."""
    length = 10 if k is None else max(int(k), 0)
    n = np.minimum(run.n_retrieved, length).astype(np.int64)
    width = max(int(n.max(initial=0)), 1)
    chars = np.zeros((run.n_queries, width), dtype=np.uint8)
    chars[np.arange(width) < n[:, None]] = ord("-")
    shown = run.judged_rank <= n[run.judged_query]
    grades = run.judged_grade[shown]
    code = np.where(grades > 9, ord(">"), np.where(grades >= 0, ord("0") + np.clip(grades, 0, 9),
                                                  ord(".")))
    chars[run.judged_query[shown], run.judged_rank[shown] - 1] = code
    return chars.view(f"S{width}").ravel().astype(object).astype(str).astype(object)

