r"""The measures of :func:`evalkit.trec.evaluate`: one small function per measure, in a registry.

Each measure reads a :class:`JudgedRun` (a run already ranked as trec_eval ranks it and joined
with its qrels) and returns one value per query, computed for all queries at once: it picks
rows, applies the conventions of :mod:`evalkit._ranking_core` (the same ones the single-list
functions of :mod:`evalkit.ranking` use) and adds them up per query with ``np.bincount``.

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
from typing import NamedTuple

import numpy as np

from ._ranking_core import (
    ELEVEN_POINTS,
    discounted_gain,
    is_relevant,
    precision_at_relevant,
    relevant_needed,
    within_cutoff,
)

__all__ = ["JudgedRun", "Measure", "MEASURES", "block_starts", "group_positions"]


def block_starts(codes: np.ndarray) -> np.ndarray:
    """Where each block of equal neighbouring codes starts (rows grouped by code); empty for
    no rows. Compares neighbours: no copy of ``codes`` (np.diff with prepend would make two
    of int64)."""
    if codes.size == 0:
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])


def group_positions(codes: np.ndarray) -> np.ndarray:
    """1-based position of each row within its block of equal codes (rows grouped by code)."""
    n = codes.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = block_starts(codes)
    return np.arange(n) - np.repeat(starts, np.diff(np.r_[starts, n])) + 1


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

    def per_query(self, codes: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Sum ``weights`` (or count rows) per query number."""
        return np.bincount(codes, weights=weights, minlength=self.n_queries).astype(np.float64)

    def over_r(self, values: np.ndarray) -> np.ndarray:
        """``values / R`` per query, 0 where R = 0."""
        n_rel = self.n_relevant
        return np.divide(values, n_rel, out=np.zeros(self.n_queries), where=n_rel > 0)

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
        """nDCG's ideal ranking from the qrels: per positive grade its query, its discounted
        gain at its ideal rank, and that rank (grades sorted high to low within each query)."""
        positive = self.qrels_grade > 0
        codes, grades = self.qrels_query[positive], self.qrels_grade[positive]
        order = np.lexsort((-grades, codes))
        codes, grades = codes[order], grades[order]
        ranks = group_positions(codes)
        return codes, discounted_gain(grades, ranks, "trec"), ranks


class Measure(NamedTuple):
    """A registered measure: its function and whether it takes ``@k`` ("optional",
    "required" or "none")."""

    function: Callable[[JudgedRun, float | None], np.ndarray]
    cutoff: str


#: ir_measures name -> :class:`Measure`, in the order :func:`evalkit.trec.evaluate` lists them.
MEASURES: dict[str, Measure] = {}


def _measure(name: str, cutoff: str) -> Callable[[Callable], Callable]:
    def register(function: Callable) -> Callable:
        MEASURES[name] = Measure(function, cutoff)
        return function

    return register


@_measure("AP", cutoff="optional")
def average_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""AP, trec_eval ``map`` (``map_cut.k`` for AP@k).

    :math:`\frac{1}{R}\sum_{i \le k,\ \text{relevant}} \frac{\#\{\text{relevant in top } i\}}{i}`:
    the precision at the rank of each retrieved relevant document (in the top k), summed, and
    divided by R, so a relevant document never retrieved adds 0.
    """
    top = within_cutoff(run.relevant_rank, k)
    terms = precision_at_relevant(run.relevant_found[top], run.relevant_rank[top])
    return run.over_r(run.per_query(run.relevant_query[top], terms))


@_measure("P", cutoff="required")
def precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""P@k, trec_eval ``P.k``: relevant documents in the top k, divided by k.

    A run with fewer than k documents counts as padded with non-relevant ones.
    """
    top = within_cutoff(run.relevant_rank, k)
    return run.per_query(run.relevant_query[top]) / k


@_measure("R", cutoff="required")
def recall(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""R@k, trec_eval ``recall.k``: relevant documents in the top k, divided by R."""
    top = within_cutoff(run.relevant_rank, k)
    return run.over_r(run.per_query(run.relevant_query[top]))


@_measure("RR", cutoff="optional")
def reciprocal_rank(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""RR, trec_eval ``recip_rank``: 1 / the rank of the first relevant document, 0 when
    none was retrieved (with ``@k``: none in the top k)."""
    first = (run.relevant_found == 1) & within_cutoff(run.relevant_rank, k)
    return run.per_query(run.relevant_query[first], 1.0 / run.relevant_rank[first])


@_measure("nDCG", cutoff="optional")
def ndcg(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""nDCG, trec_eval ``ndcg`` (``ndcg_cut.k`` for nDCG@k).

    :math:`\sum_{i \le k} g_i / \log_2(i + 1)` divided by the same sum over the query's judged
    grades sorted high to low (the ideal ranking comes from the qrels, retrieved or not).
    Gains are the grades whatever the relevance level; negative grades gain nothing.
    """
    top = within_cutoff(run.judged_rank, k)
    gains = discounted_gain(run.judged_grade[top], run.judged_rank[top], "trec")
    dcg = run.per_query(run.judged_query[top], gains)
    ideal_query, ideal_gain, ideal_rank = run.ideal
    ideal_top = within_cutoff(ideal_rank, k)
    best = run.per_query(ideal_query[ideal_top], ideal_gain[ideal_top])
    return np.divide(dcg, best, out=np.zeros(run.n_queries), where=best > 0)


@_measure("Rprec", cutoff="none")
def r_precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""R-precision, trec_eval ``Rprec``: relevant documents in the top R, divided by R."""
    top = within_cutoff(run.relevant_rank, run.n_relevant[run.relevant_query])
    return run.over_r(run.per_query(run.relevant_query[top]))


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


@_measure("IPrec", cutoff="required")
def interpolated_precision(run: JudgedRun, level: float | None) -> np.ndarray:
    r"""Interpolated precision at recall level r, trec_eval 9 ``iprec_at_recall.r``.

    The best precision at or below the rank of the c-th relevant document, with
    :math:`c = \max(1, (\text{long})(rR + 0.9))` (trec_eval 9's rule, which pytrec_eval
    bundles); 0 when fewer than c relevant documents were retrieved.
    """
    needed = relevant_needed(level, run.n_relevant, "trec_eval")
    after = run.relevant_found >= needed[run.relevant_query]
    codes = run.relevant_query[after]
    precisions = precision_at_relevant(run.relevant_found, run.relevant_rank)[after]
    value = np.zeros(run.n_queries)
    if codes.size:
        # Rows past the c-th relevant document are a contiguous tail of each query's block.
        starts = block_starts(codes)
        value[codes[starts]] = np.maximum.reduceat(precisions, starts)
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


@_measure("IPrecAvg", cutoff="none")
def eleven_point_average(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""IPrecAvg, trec_eval ``11pt_avg``: the mean of interpolated precision (IPrec) at the
    recall levels 0.0, 0.1, …, 1.0."""
    return np.mean([interpolated_precision(run, level) for level in ELEVEN_POINTS], axis=0)
