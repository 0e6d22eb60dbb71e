r"""The measures of :func:`evalkit.trec.evaluate`: one small function per measure, in a registry.

Each measure reads a :class:`JudgedRun` (a run already ranked as trec_eval ranks it and joined
with its qrels) and returns one value per query, computed for all queries at once: it picks
rows, applies the conventions of :mod:`evalkit._ranking_core` and adds them up per query with
``np.bincount``. AP, P, R, Rprec, RR, IPrec, IPrecAvg, DCG and nDCG are also the one home of
the single-list functions of :mod:`evalkit.ranking`, which call them on a run of one query
(:meth:`JudgedRun.from_grades`) with the options trec_eval lacks (keywords after its own).

Like trec_eval's ``m_*.c`` files and ranx's ``metrics/``, every function's docstring states
its definition and the trec_eval measure it reproduces. Notation, per query: rank i = 1, 2, …
by score (ties by doc_id descending), :math:`g_i` the grade of the document at rank i (0 when
unjudged), relevant means :math:`g_i \ge \ell` and :math:`g_i \ge 0`, R the relevant documents
in the qrels, N the judged non-relevant ones (grade >= 0), n the documents retrieved. A query
with R = 0 scores 0 on every measure that divides by R (trec_eval since 8.0).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from .._averaging import safe_divide
from .._ranking_core import (
    ELEVEN_POINTS,
    discount,
    discounted_gain,
    is_relevant,
    precision_at_relevant,
    relevant_needed,
    within_cutoff,
)

__all__ = ["INFAP_EPSILON", "JudgedRun", "MIN_GEO_MEAN", "Measure", "MEASURES",
           "TREC_EVAL_VERSIONS", "block_starts", "group_cumsum", "group_positions",
           # the kernels evalkit.ranking's single-list functions call
           "average_precision", "dcg", "eleven_point_average", "interpolated_precision", "ndcg",
           "precision", "r_precision", "recall", "reciprocal_rank"]


def block_starts(codes: np.ndarray) -> np.ndarray:
    """Where each block of equal neighbouring codes starts (rows grouped by code); empty for
    no rows. Compares neighbours: no copy of ``codes`` (np.diff with prepend would make two
    of int64)."""
    if codes.size == 0:
        return np.zeros(0, dtype=np.intp)
    changed = np.empty(codes.size, dtype=bool)  # (np.r_ costs more than the work, for a short list)
    changed[0] = True
    np.not_equal(codes[1:], codes[:-1], out=changed[1:])
    return np.flatnonzero(changed)


def group_positions(codes: np.ndarray) -> np.ndarray:
    """1-based position of each row within its block of equal codes (rows grouped by code)."""
    n = codes.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = block_starts(codes)
    lengths = np.empty(starts.size, dtype=np.intp)
    np.subtract(starts[1:], starts[:-1], out=lengths[:-1])
    lengths[-1] = n - starts[-1]
    return np.arange(n) - np.repeat(starts, lengths) + 1


class JudgedRun:
    """A run ranked as trec_eval ranks it, joined with the qrels: what every measure reads.

    Parameters
    ----------
    n_queries : int
        Queries are numbered 0 … n_queries - 1 (the qrels' order).
    relevance_level : float
        Grades at or above it (and not negative) are relevant.
    qrels_query, qrels_grade : ndarray
        Every judgement: its query number and grade.
    n_retrieved : ndarray
        Documents retrieved per query.
    judged_query, judged_rank, judged_grade : ndarray
        The retrieved documents that are judged, grouped by query in rank order (1-based).
    """

    def __init__(
        self, n_queries: int, relevance_level: float, qrels_query: np.ndarray,
        qrels_grade: np.ndarray, n_retrieved: np.ndarray, judged_query: np.ndarray,
        judged_rank: np.ndarray, judged_grade: np.ndarray,
    ) -> None:
        self.n_queries = n_queries
        self.relevance_level = relevance_level
        self.qrels_query, self.qrels_grade = qrels_query, qrels_grade
        self.n_retrieved = n_retrieved
        self.judged_query, self.judged_rank = judged_query, judged_rank
        self.judged_grade = judged_grade
        relevant = is_relevant(judged_grade, relevance_level)
        #: The retrieved relevant documents: query, rank, and how many relevant ones so far.
        self.relevant_query = judged_query[relevant]
        self.relevant_rank = judged_rank[relevant]
        self.relevant_found = group_positions(self.relevant_query)
        #: Gain tables already built, by gains (see _gains): G, nDCGRel, … share one.
        self.gain_tables: dict[tuple, Any] = {}

    @classmethod
    def from_grades(cls, grades: np.ndarray, relevance_level: float,
                    ideal_grades: np.ndarray | None = None,
                    n_relevant: int | None = None) -> JudgedRun:
        """A batch of one query from one ranked list, every document judged: what the
        single-list functions of :mod:`evalkit.ranking` hand to the measures below.

        ``grades`` are the list's grades in rank order (validated floats); the query's
        judgements are ``ideal_grades`` (nDCG's ideal ranking; default: ``grades``) and R is
        ``n_relevant`` (default: the relevant documents among those judgements).
        """
        judged = grades if ideal_grades is None else ideal_grades
        size = grades.size
        run = cls(1, relevance_level, np.zeros(judged.size, dtype=np.intp), judged,
                  np.array([size]), np.zeros(size, dtype=np.intp), np.arange(1, size + 1),
                  grades)
        if n_relevant is not None:
            run.n_relevant = np.array([n_relevant])
        return run

    def per_query(self, codes: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Sum ``weights`` (or count rows) per query number."""
        return np.bincount(codes, weights=weights, minlength=self.n_queries).astype(np.float64)

    def ratio(self, values: np.ndarray, denominators: np.ndarray, zero_division: Any = 0.0,
              metric: str = "", reason: str = "") -> np.ndarray:
        """``values / denominators`` per query, and ``zero_division`` where a denominator is 0:
        trec_eval's 0, or the policy of a single-list function (1.0, NaN, or "warn": 0.0 with
        an :class:`~evalkit.exceptions.UndefinedMetricWarning` naming ``metric`` and
        ``reason``)."""
        if zero_division == 0:
            return np.divide(values, denominators, out=np.zeros(self.n_queries),
                             where=denominators > 0)
        return safe_divide(values, denominators, zero_division, metric=metric, reason=reason)

    def over_r(self, values: np.ndarray, zero_division: Any = 0.0,
               metric: str = "") -> np.ndarray:
        """``values / R`` per query, ``zero_division`` (trec_eval: 0) where R = 0."""
        return self.ratio(values, self.n_relevant, zero_division, metric,
                          "the query has no relevant documents (n_relevant = 0)")

    @cached_property
    def n_relevant(self) -> np.ndarray:
        """R per query: the judgements that count as relevant."""
        relevant = is_relevant(self.qrels_grade, self.relevance_level)
        return np.bincount(self.qrels_query[relevant], minlength=self.n_queries)

    @cached_property
    def n_nonrelevant(self) -> np.ndarray:
        """N per query: the judged documents (grade >= 0) that are not relevant."""
        grades = self.qrels_grade
        nonrelevant = (grades >= 0) & ~is_relevant(grades, self.relevance_level)
        return np.bincount(self.qrels_query[nonrelevant], minlength=self.n_queries)

    @cached_property
    def ideal(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """nDCG's ideal ranking from the qrels: per positive grade its query, the grade, and
        its ideal rank (grades sorted high to low within each query)."""
        positive = self.qrels_grade > 0
        codes, grades = self.qrels_query[positive], self.qrels_grade[positive]
        order = np.lexsort((-grades, codes))
        codes, grades = codes[order], grades[order]
        return codes, grades, group_positions(codes)


class Measure(NamedTuple):
    """A registered measure: its function, whether it takes ``@k`` ("optional", "required"
    or "none"), the options it takes as keywords (``RBP(p=0.8)``) and whether its value
    depends on the trec_eval release (then it takes ``version``, "9.0.8" or "10.0")."""

    function: Callable[..., np.ndarray]
    cutoff: str
    options: tuple[str, ...] = ()
    versioned: bool = False


#: ir_measures name -> :class:`Measure`, in the order :func:`evalkit.trec.evaluate` lists them.
MEASURES: dict[str, Measure] = {}


def _measure(name: str, cutoff: str, options: tuple[str, ...] = (),
             versioned: bool = False) -> Callable[[Callable], Callable]:
    def register(function: Callable) -> Callable:
        MEASURES[name] = Measure(function, cutoff, options, versioned)
        return function

    return register


@_measure("AP", cutoff="optional")
def average_precision(run: JudgedRun, k: float | None, denominator: str = "n_relevant",
                      zero_division: Any = 0.0) -> np.ndarray:
    r"""AP, trec_eval ``map`` (``map_cut.k`` for AP@k).

    :math:`\frac{1}{R}\sum_{i \le k,\ \text{relevant}} \frac{\#\{\text{relevant in top } i\}}{i}`:
    the precision at the rank of each retrieved relevant document (in the top k), summed, and
    divided by R, so a relevant document never retrieved adds 0.
    ``denominator="retrieved_relevant"`` divides by the relevant documents in the (top k of
    the) run instead (:func:`evalkit.average_precision`); ``zero_division`` is the value when
    the denominator is 0 (see :meth:`JudgedRun.ratio`).
    """
    top = within_cutoff(run.relevant_rank, k)
    codes = run.relevant_query[top]
    summed = run.per_query(codes, precision_at_relevant(run.relevant_found[top],
                                                        run.relevant_rank[top]))
    if denominator == "retrieved_relevant":
        return run.ratio(summed, run.per_query(codes), zero_division, "average_precision",
                         "the query has no relevant documents (n_relevant = 0)")
    return run.over_r(summed, zero_division, "average_precision")


@_measure("P", cutoff="required")
def precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""P@k, trec_eval ``P.k``: relevant documents in the top k, divided by k.

    A run with fewer than k documents counts as padded with non-relevant ones.
    """
    top = within_cutoff(run.relevant_rank, k)
    return run.per_query(run.relevant_query[top]) / k


@_measure("R", cutoff="required")
def recall(run: JudgedRun, k: float | None, zero_division: Any = 0.0) -> np.ndarray:
    r"""R@k, trec_eval ``recall.k``: relevant documents in the top k, divided by R
    (``zero_division`` when R = 0, see :meth:`JudgedRun.ratio`)."""
    top = within_cutoff(run.relevant_rank, k)
    return run.over_r(run.per_query(run.relevant_query[top]), zero_division, "recall_at_k")


@_measure("RR", cutoff="optional")
def reciprocal_rank(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""RR, trec_eval ``recip_rank``: 1 / the rank of the first relevant document, 0 when
    none was retrieved (with ``@k``: none in the top k)."""
    first = (run.relevant_found == 1) & within_cutoff(run.relevant_rank, k)
    return run.per_query(run.relevant_query[first], 1.0 / run.relevant_rank[first])


@_measure("nDCG", cutoff="optional", options=("gains",))
def ndcg(run: JudgedRun, k: float | None, gains: dict[int, float] | None = None,
         variant: str = "trec", zero_division: Any = 0.0) -> np.ndarray:
    r"""nDCG, trec_eval ``ndcg`` (``ndcg_cut.k`` for nDCG@k).

    :math:`\sum_{i \le k} g_i / \log_2(i + 1)` divided by the same sum over the query's judged
    grades sorted high to low (the ideal ranking comes from the qrels, retrieved or not).
    Gains are the grades whatever the relevance level; negative grades gain nothing.
    ``gains`` maps grades to other gains (trec_eval ``ndcg.1=3.5,2=9``; a gain may be 0 or
    negative, and the ideal ranking holds the documents of positive gain, highest first).
    ``variant`` is the gain and discount of :func:`evalkit.dcg` (see :func:`dcg`);
    ``zero_division`` the value when the ideal DCG is 0 (see :meth:`JudgedRun.ratio`).
    """
    found, best = _dcg_parts(run, gains, k, variant)
    return run.ratio(found, best, zero_division, "ndcg",
                     "the ideal DCG is 0 (no document with a positive grade)")


@_measure("Rprec", cutoff="none")
def r_precision(run: JudgedRun, k: float | None, zero_division: Any = 0.0) -> np.ndarray:
    r"""R-precision, trec_eval ``Rprec``: relevant documents in the top R, divided by R
    (``zero_division`` when R = 0, see :meth:`JudgedRun.ratio`)."""
    top = within_cutoff(run.relevant_rank, run.n_relevant[run.relevant_query])
    return run.over_r(run.per_query(run.relevant_query[top]), zero_division, "r_precision")


@_measure("Bpref", cutoff="none")
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


@_measure("IPrec", cutoff="required", versioned=True)
def interpolated_precision(run: JudgedRun, level: Any, version: str = "9.0.8",
                           convention: str | None = None) -> np.ndarray:
    r"""Interpolated precision at recall level r, trec_eval ``iprec_at_recall.r``.

    The best precision at or below the rank of the c-th relevant document; 0 when fewer than
    c relevant documents were retrieved. The level becomes the count c as each release of
    ``m_iprec_at_recall.c`` computes it: trec_eval 9.0.8 (which pytrec_eval bundles)
    :math:`c = \max(1, (\text{long})(rR + 0.9))`, trec_eval 10.0
    :math:`c = \max(1, \text{lround}(rR))`. They differ when the fraction of rR is in
    [0.1, 0.5): level 0.4 of R = 3 (1.2) needs 2 relevant documents in 9.0.8 and 1 in 10.0
    (see :func:`evalkit._ranking_core.relevant_needed`). ``convention`` names the rule
    instead of the release (``"textbook"``, ``"trec_eval"``, ``"trec_eval_10"``).

    ``level`` may be an array of levels: the result then has one row per level.
    """
    if convention is None:
        convention = "trec_eval_10" if version == "10.0" else "trec_eval"
    levels = np.asarray(level, dtype=np.float64)
    needed = relevant_needed(levels[..., None], run.n_relevant, convention)
    value = np.zeros(needed.shape)
    codes = run.relevant_query
    if codes.size == 0:
        return value
    # Each query's relevant rows are one block; the rows from its c-th relevant document to
    # the block's end are those at or below that document's rank.
    starts = block_starts(codes)
    first = np.zeros(run.n_queries, dtype=np.intp)
    count = np.zeros(run.n_queries, dtype=np.intp)
    first[codes[starts]] = starts
    count[codes[starts]] = np.diff(np.r_[starts, codes.size])
    reached = needed <= count
    query = np.broadcast_to(np.arange(run.n_queries), needed.shape)[reached]
    # One maximum per (level, query) over rows [from, to): reduceat over the pairs, every
    # other result kept; a 0 after the last row keeps the index `to` in bounds.
    bounds = np.empty(2 * query.size, dtype=np.intp)
    bounds[0::2] = first[query] + needed[reached] - 1
    bounds[1::2] = first[query] + count[query]
    precisions = np.append(precision_at_relevant(run.relevant_found, run.relevant_rank), 0.0)
    value[reached] = np.maximum.reduceat(precisions, bounds)[0::2]
    return value


@_measure("NumRet", cutoff="none")
def num_retrieved(run: JudgedRun, k: float | None) -> np.ndarray:
    """NumRet, trec_eval ``num_ret``: documents retrieved."""
    return run.n_retrieved


@_measure("NumRel", cutoff="none")
def num_relevant(run: JudgedRun, k: float | None) -> np.ndarray:
    """NumRel, trec_eval ``num_rel``: R, the relevant documents in the qrels."""
    return run.n_relevant


@_measure("NumRelRet", cutoff="none")
def num_relevant_retrieved(run: JudgedRun, k: float | None) -> np.ndarray:
    """NumRelRet, trec_eval ``num_rel_ret``: relevant documents retrieved."""
    return np.bincount(run.relevant_query, minlength=run.n_queries)


@_measure("NumNonRelJudgedRet", cutoff="none")
def num_nonrelevant_judged_retrieved(run: JudgedRun, k: float | None) -> np.ndarray:
    """NumNonRelJudgedRet, trec_eval ``num_nonrel_judged_ret``: judged (grade >= 0)
    documents retrieved that are not relevant."""
    judged = run.judged_grade >= 0
    nonrelevant = judged & ~is_relevant(run.judged_grade, run.relevance_level)
    return run.per_query(run.judged_query[nonrelevant])


@_measure("Success", cutoff="required")
def success(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""Success@k, trec_eval ``success.k``: 1 when a relevant document is in the top k."""
    top = within_cutoff(run.relevant_rank, k)
    return (run.per_query(run.relevant_query[top]) > 0).astype(np.float64)


@_measure("SetP", cutoff="none")
def set_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""SetP, trec_eval ``set_P``: relevant retrieved / retrieved (the whole list)."""
    found = run.per_query(run.relevant_query)
    retrieved = run.n_retrieved
    return np.divide(found, retrieved, out=np.zeros(run.n_queries), where=retrieved > 0)


@_measure("SetR", cutoff="none")
def set_recall(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""SetR, trec_eval ``set_recall``: relevant retrieved / R (the whole list)."""
    return run.over_r(run.per_query(run.relevant_query))


@_measure("SetF", cutoff="optional")
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


@_measure("RprecMult", cutoff="required")
def r_precision_multiple(run: JudgedRun, multiple: float | None) -> np.ndarray:
    r"""Precision at a multiple m of R, trec_eval ``Rprec_mult.m``.

    Precision at rank :math:`c = (\text{long})(mR + 0.9)` (trec_eval's rule; the list counts
    as padded with non-relevant documents), 0 when c = 0.
    """
    cut = (multiple * run.n_relevant + 0.9).astype(np.int64)
    top = run.relevant_rank <= cut[run.relevant_query]
    found = run.per_query(run.relevant_query[top])
    return np.divide(found, cut, out=np.zeros(run.n_queries), where=cut > 0)


@_measure("IPrecAvg", cutoff="none", versioned=True)
def eleven_point_average(run: JudgedRun, k: float | None, version: str = "9.0.8",
                         convention: str | None = None) -> np.ndarray:
    r"""IPrecAvg, trec_eval ``11pt_avg``: the mean of interpolated precision (IPrec) at the
    recall levels 0.0, 0.1, …, 1.0 (``m_11pt_avg.c``; the level becomes a count of relevant
    documents by truncation in 9.0.8 and by rounding in 10.0, as for IPrec, or by
    ``convention``)."""
    return np.mean(interpolated_precision(run, ELEVEN_POINTS, version, convention), axis=0)


# ---------------------------------------------------------------------------------------------
# The rest of trec_eval's measures (all_trec of 9.0.8 and 10.0)
# ---------------------------------------------------------------------------------------------

#: trec_eval's ``INFAP_EPSILON`` (trec_eval.h).
INFAP_EPSILON = 0.00001
#: trec_eval's ``MIN_GEO_MEAN`` (trec_eval.h): gm_map and gm_bpref floor each value at it.
MIN_GEO_MEAN = 0.00001
#: The releases of trec_eval whose differences evaluate follows.
TREC_EVAL_VERSIONS = ("9.0.8", "10.0")


def group_cumsum(codes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The running sum of ``values`` within each block of equal ``codes`` (rows grouped by
    code), added one after the other from 0 in each block, as trec_eval's loops add them.

    ``np.cumsum`` over all rows less each block's offset would differ in the last bits; here a
    slot before each block holds minus the previous block's own running total (from
    ``np.bincount``, which adds in row order too), so the running sum is exactly 0 there.
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return values.copy()
    starts = block_starts(codes)
    block = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, values.size]))
    totals = np.bincount(block, weights=values, minlength=starts.size)
    spread = np.insert(values, starts[1:], -totals[:-1])
    running = np.cumsum(spread)
    keep = np.ones(spread.size, dtype=bool)
    keep[starts[1:] + np.arange(starts.size - 1)] = False
    return running[keep]


def _powers(p: float, n: int) -> np.ndarray:
    """``powers[r] = p**(r - 1)`` for ranks r = 1 … n (``powers[0]`` unused), multiplied one
    rank at a time from 1.0 as ``m_rbp.c`` does (``np.power`` may differ in the last bit)."""
    powers = np.empty(n + 2)
    powers[0], powers[1] = 0.0, 1.0
    powers[2:] = np.cumprod(np.full(n, float(p)))
    return powers


class _Gains(NamedTuple):
    """trec_eval's gains for one judged run (``gain_init.c``, 10.0; each ``m_*ndcg*.c`` and
    ``m_G.c`` in 9.0.8): the gain of each judged retrieved row, and the ideal ranking of each
    query — its judged documents with a positive gain, highest first."""

    row_gain: np.ndarray
    ideal_count: np.ndarray  # m per query: judged documents with a positive gain
    ideal_start: np.ndarray  # where each query's ideal gains start in ideal_gain
    ideal_gain: np.ndarray  # the ideal gains, query by query (query order), high to low


def _gain_of(grades: np.ndarray, gains: dict[int, float] | None) -> np.ndarray:
    """The gain of each judged grade: the grade itself unless ``gains`` maps it; a negative
    grade (trec_eval's "in the pool but unjudged") gains 0."""
    out = np.where(grades >= 0, grades, 0).astype(np.float64)
    for level, value in (gains or {}).items():
        out[grades == level] = value
    return out


def _merge_sort(items: list, compare: Callable[[Any, Any], int]) -> list:
    """glibc's ``qsort`` on a small array (``msort.c``): a top-down merge sort that takes the
    left item while ``compare(left, right) <= 0``. Its order matters only for a comparison
    that is not a true order, as trec_eval's ``comp_rel_gain``."""
    if len(items) <= 1:
        return list(items)
    half = len(items) // 2
    left, right = _merge_sort(items[:half], compare), _merge_sort(items[half:], compare)
    merged, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if compare(left[i], right[j]) <= 0:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    return merged + left[i:] + right[j:]


def _level_walk(top: int, gains: dict[int, float]) -> dict[int, int]:
    """The order in which trec_eval's ideal ranking takes the levels 0 … top of a query (and
    those ``gains`` names): level -> step (0 first). ``setup_gains`` lists the levels
    ``gains`` names, in order, then the others, and sorts them with ``comp_rel_gain``, which
    compares the difference of two gains cast to a whole number (so 3.5 and 3 count as
    equal); the walk goes from the end."""
    levels = list(gains) + [level for level in range(top + 1) if level not in gains]

    def gain_of(level: int) -> float:
        return gains.get(level, float(level))

    ordered = _merge_sort(levels, lambda a, b: int(gain_of(a) - gain_of(b)))
    return {level: step for step, level in enumerate(reversed(ordered))}


def _ideal_order(codes: np.ndarray, grades: np.ndarray, gain: np.ndarray,
                 gains: dict[int, float] | None, n_queries: int) -> np.ndarray:
    """The judgements (grade >= 0) of trec_eval's ideal ranking, query by query in its order:
    highest gain first, up to the first level whose gain is <= 0.

    With whole gains that is a sort by gain. Otherwise trec_eval's order of the levels is not
    one by gain (see :func:`_level_walk`) and is followed: its loops walk down the sorted
    levels, skip those the query lacks, and stop at the first level whose gain is <= 0 —
    or at once when the first level of the walk has one, present in the query or not."""
    if not gains or all(float(value).is_integer() for value in gains.values()):
        # Whole gains: comp_rel_gain is a true order, and the walk sorts by gain.
        keep = np.flatnonzero(gain > 0)
        return keep[np.lexsort((-gain[keep], codes[keep]))]
    top = np.full(n_queries, -1, dtype=np.int64)
    np.maximum.at(top, codes, grades)
    tops = np.unique(top[codes])
    step_table = np.zeros((tops.size, int(tops.max()) + 1), dtype=np.int64)
    first_gain = np.zeros(tops.size)
    for row, level_top in enumerate(tops):  # one small sort per highest grade, not per query
        walk = _level_walk(int(level_top), gains)
        for level, step in walk.items():
            if level <= level_top:
                step_table[row, level] = step
            if step == 0:
                first_gain[row] = gains.get(level, float(level))
    row_of = np.searchsorted(tops, top[codes])
    step = step_table[row_of, grades]
    # The walk stops at the first level present whose gain is <= 0, or at once when the first
    # level of all has a gain <= 0, present or not (the loops test its gain before moving on).
    stop = np.full(n_queries, np.iinfo(np.int64).max)
    np.minimum.at(stop, codes[gain <= 0], step[gain <= 0])
    stop[codes[first_gain[row_of] <= 0]] = 0
    keep = np.flatnonzero(step < stop[codes])
    return keep[np.lexsort((step[keep], codes[keep]))]


def _gains(run: JudgedRun, gains: dict[int, float] | None) -> _Gains:
    key = tuple((gains or {}).items())  # in order: the order can matter (_level_walk)
    if key not in run.gain_tables:
        run.gain_tables[key] = _gain_table(run, gains)
    return run.gain_tables[key]


def _gain_table(run: JudgedRun, gains: dict[int, float] | None) -> _Gains:
    graded = run.qrels_grade >= 0
    codes = run.qrels_query[graded]
    grades = run.qrels_grade[graded].astype(np.int64)
    gain = _gain_of(grades, gains)
    order = _ideal_order(codes, grades, gain, gains, run.n_queries)
    count = np.bincount(codes[order], minlength=run.n_queries)
    start = np.r_[0, np.cumsum(count)[:-1]].astype(np.intp)
    return _Gains(_gain_of(run.judged_grade, gains), count, start, gain[order])


def _ideal_at(gains: _Gains, query: np.ndarray, depth: np.ndarray,
              ideal_running: np.ndarray) -> np.ndarray:
    """A running sum over the ideal ranking at ``depth`` (0 at depth 0) for each query."""
    at = np.minimum(depth, gains.ideal_count[query])
    index = gains.ideal_start[query] + at - 1
    if ideal_running.size == 0:
        return np.zeros(query.size)
    return np.where(at > 0, ideal_running[np.maximum(index, 0)], 0.0)


def _ideal_codes(run: JudgedRun, gains: _Gains) -> tuple[np.ndarray, np.ndarray]:
    """Query and 1-based position of each ideal gain."""
    codes = np.repeat(np.arange(run.n_queries), gains.ideal_count)
    return codes, group_positions(codes)


@_measure("infAP", cutoff="none")
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


@_measure("SetAP", cutoff="none")
def set_average_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""SetAP, trec_eval ``set_map`` (``m_set_map.c``): unranked AP,
    :math:`\frac{\text{relret}^2}{\text{ret} \cdot R}` = SetP × SetR; 0 when nothing was
    retrieved or R = 0."""
    found = run.per_query(run.relevant_query)
    denominator = run.n_retrieved.astype(np.float64) * run.n_relevant
    return np.divide(found * found, denominator, out=np.zeros(run.n_queries),
                     where=denominator > 0)


@_measure("SetRelP", cutoff="none")
def set_relative_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""SetRelP, trec_eval ``set_relative_P`` (``m_set_rel_P.c``): relevant retrieved divided
    by the most a list of that length could hold, :math:`\text{relret} / \min(\text{ret}, R)`;
    0 when nothing was retrieved or R = 0."""
    found = run.per_query(run.relevant_query)
    most = np.minimum(run.n_retrieved, run.n_relevant)
    return np.divide(found, most, out=np.zeros(run.n_queries), where=most > 0)


@_measure("RelP", cutoff="required")
def relative_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""RelP@k, trec_eval ``relative_P.k`` (``m_rel_P.c``): relevant documents in the top k
    divided by :math:`\min(k, R)` — P@k up to R, R@k beyond; 0 when R = 0."""
    top = within_cutoff(run.relevant_rank, k)
    found = run.per_query(run.relevant_query[top])
    most = np.minimum(k, run.n_relevant)
    return np.divide(found, most, out=np.zeros(run.n_queries), where=most > 0)


@_measure("Utility", cutoff="none", options=("a", "b", "c", "d", "n_docs"))
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


@_measure("BinG", cutoff="none")
def binary_g(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""BinG, trec_eval ``binG`` (``m_binG.c``, experimental): for each relevant document
    retrieved, :math:`1 / \log_2(2 + \text{documents above it that are not relevant})`
    (unjudged ones included), summed and divided by R."""
    nonrelevant_above = run.relevant_rank - run.relevant_found
    terms = 1.0 / np.log2((2 + nonrelevant_above).astype(np.float64))
    return run.over_r(run.per_query(run.relevant_query, terms))


@_measure("G", cutoff="none", options=("gains",))
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


def _dcg_parts(run: JudgedRun, gains: dict[int, float] | None, k: float | None,
               variant: str = "trec") -> tuple[np.ndarray, np.ndarray]:
    """DCG of the run and of the ideal ranking per query (top k when k is given)."""
    return _dcg_of_run(run, gains, k, variant), _dcg_of_ideal(run, gains, k, variant)


def _dcg_of_run(run: JudgedRun, gains: dict[int, float] | None, k: float | None,
                variant: str = "trec") -> np.ndarray:
    """DCG per query of the documents retrieved (top k when k is given).

    Without ``gains`` each grade's term is :func:`evalkit._ranking_core.discounted_gain`
    under ``variant``; with ``gains`` (trec_eval's ``ndcg.1=3.5,2=9``) the gains are
    trec_eval's (:func:`_gains`), taken as they are (a gain may be negative), over the
    discount of ``variant``.
    """
    top = within_cutoff(run.judged_rank, k)
    ranks = run.judged_rank[top]
    if gains is None:
        terms = discounted_gain(run.judged_grade[top], ranks, variant)
    else:
        terms = _gains(run, gains).row_gain[top] / discount(ranks, variant)
    return run.per_query(run.judged_query[top], terms)


def _dcg_of_ideal(run: JudgedRun, gains: dict[int, float] | None, k: float | None,
                  variant: str = "trec") -> np.ndarray:
    """DCG per query of the ideal ranking (:attr:`JudgedRun.ideal`, or trec_eval's with
    ``gains``), top k when k is given; terms as in :func:`_dcg_of_run`."""
    if gains is None:
        codes, grades, ranks = run.ideal
        top = within_cutoff(ranks, k)
        terms = discounted_gain(grades[top], ranks[top], variant)
    else:
        table = _gains(run, gains)
        codes, ranks = _ideal_codes(run, table)
        top = within_cutoff(ranks, k)
        terms = table.ideal_gain[top] / discount(ranks[top], variant)
    return run.per_query(codes[top], terms)


@_measure("DCG", cutoff="optional", options=("gains",))
def dcg(run: JudgedRun, k: float | None, gains: dict[int, float] | None = None,
        variant: str = "trec") -> np.ndarray:
    r"""DCG, trec_eval 10.0 ``dcg`` (``m_ndcg.c``): :math:`\sum_i g_i / \log_2(i + 1)` over
    the retrieved documents (the top k with ``@k``), gains the grades unless ``gains`` maps
    them (trec_eval ``dcg.1=3.5,2=9``).

    ``variant`` (:func:`evalkit.dcg`): ``"trec"`` as above, ``"exponential"`` with gain
    :math:`2^{g_i} - 1` (Burges et al. 2005), ``"jarvelin"`` with discount
    :math:`\log_2 \max(i, 2)` (Järvelin & Kekäläinen 2002); see
    :func:`evalkit._ranking_core.gain` and :func:`evalkit._ranking_core.discount`.
    """
    return _dcg_of_run(run, gains, k, variant)


@_measure("IdealDCG", cutoff="optional", options=("gains",))
def ideal_dcg(run: JudgedRun, k: float | None,
              gains: dict[int, float] | None = None) -> np.ndarray:
    r"""IdealDCG, trec_eval 10.0 ``ideal_dcg`` (``m_ndcg.c``): the DCG of the query's judged
    documents with a positive gain, highest gain first (retrieved or not); 0 for a query the
    run misses (``missing_queries="zero"``), as every measure.

    A query whose judgements are all negative has no ideal ranking: 0 here. trec_eval's
    ``form_res_rels.c`` then leaves the grade counts of the last query evaluated before it
    with a grade >= 0 in place (its loop over grades 0 … max runs for no grade), so trec_eval
    prints that query's ideal DCG again; ``evalkit trec_eval`` prints what 10.0 prints. Every
    other measure is 0 either way (nothing retrieved gains)."""
    return np.where(run.n_retrieved > 0, _dcg_parts(run, gains, k)[1], 0.0)


@_measure("nDCGRel", cutoff="none", options=("gains",))
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


@_measure("RnDCG", cutoff="none", options=("gains",))
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
    return np.where((run.n_relevant > 0) & (n > 0), value, 0.0)


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


@_measure("RBP", cutoff="none", options=("p", "gains"))
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


@_measure("RBPResid", cutoff="none", options=("p",))
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


@_measure("Unjudged", cutoff="required")
def unjudged(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""Unjudged@k, trec_eval 10.0 ``unj.k`` (``m_unjudged.c``; all_trec prints unj_5,
    unj_10, unj_20): the share of the top k that is absent from the qrels or graded negative;
    a list shorter than k counts as padded with judged documents."""
    judged = (run.judged_grade >= 0) & within_cutoff(run.judged_rank, k)
    shown = np.minimum(run.n_retrieved, k)
    return (shown - run.per_query(run.judged_query[judged])) / k


@_measure("RelString", cutoff="optional")
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
