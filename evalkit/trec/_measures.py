r"""The kernels of :func:`evalkit.trec.evaluate`'s core measures, over a judged run.

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

Here: the judged run, AP, P, R, RR, nDCG, Rprec, IPrec and the 11-point average, and trec_eval's
gains and ideal rankings with DCG and IdealDCG; trec_eval's further measures are in
:mod:`evalkit.trec._measures_extra`. What a tool must know about each measure (names,
parameters, help lines) is its record in :mod:`evalkit.trec._registry`.
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
    gain,
    is_relevant,
    precision_at_relevant,
    relevant_needed,
    within_cutoff,
)

__all__ = ["JudgedRun", "MIN_GEO_MEAN", "TREC_EVAL_VERSIONS", "block_starts", "group_cumsum",
           "group_positions", "tie_blocks", "average_precision", "precision", "recall",
           "reciprocal_rank", "ndcg", "r_precision", "interpolated_precision",
           "eleven_point_average", "dcg", "ideal_dcg"]


def block_starts(codes: np.ndarray, most: int | None = None) -> np.ndarray | None:
    """Where each block of equal neighbouring codes starts (rows grouped by code); empty for
    no rows. Compares neighbours: no copy of ``codes`` (np.diff with prepend would make two
    of int64).

    With ``most``: None when there are more than ``most`` blocks (rows not grouped by code
    when ``most`` is the number of codes), told by counting the changes, without listing them.
    """
    if codes.size == 0:
        return np.zeros(0, dtype=np.intp)
    changed = np.empty(codes.size, dtype=bool)  # (np.r_ costs more than the work, for a short list)
    changed[0] = True
    np.not_equal(codes[1:], codes[:-1], out=changed[1:])
    if most is not None and np.count_nonzero(changed) > most:
        return None
    return np.flatnonzero(changed)


def group_positions(codes: np.ndarray) -> np.ndarray:
    """1-based position of each row within its block of equal codes (rows grouped by code)."""
    n = codes.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if codes[0] == codes[-1]:  # grouped rows: one block (one query, as a single list is)
        return np.arange(1, n + 1, dtype=np.int64)
    starts = block_starts(codes)
    lengths = np.empty(starts.size, dtype=np.intp)
    np.subtract(starts[1:], starts[:-1], out=lengths[:-1])
    lengths[-1] = n - starts[-1]
    return np.arange(n) - np.repeat(starts, lengths) + 1


def tie_blocks(codes: np.ndarray, scores: np.ndarray, rows: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """For rows ranked within their query (grouped by code, scores non-increasing): the
    0-based position where the block of tied rows (one query, one score) of each of ``rows``
    starts, and the block's size."""
    n = scores.size
    changed = np.empty(n, dtype=bool)
    if n:
        changed[0] = True
        np.not_equal(scores[1:], scores[:-1], out=changed[1:])
        changed[1:] |= codes[1:] != codes[:-1]
    starts = np.flatnonzero(changed)
    block = np.searchsorted(starts, rows, side="right") - 1
    return starts[block], np.diff(np.r_[starts, n])[block]


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
    tie_first, tie_size : ndarray, optional
        For each judged retrieved document, the first rank and the size of its block of
        documents with equal score (unjudged ones included; size 1 when untied): what
        ``ties="average"`` reads. None when the scores were not kept.
    """

    def __init__(
        self, n_queries: int, relevance_level: float, qrels_query: np.ndarray,
        qrels_grade: np.ndarray, n_retrieved: np.ndarray, judged_query: np.ndarray,
        judged_rank: np.ndarray, judged_grade: np.ndarray,
        tie_first: np.ndarray | None = None, tie_size: np.ndarray | None = None,
    ) -> None:
        self.n_queries = n_queries
        self.tie_first, self.tie_size = tie_first, tie_size
        self.relevance_level = relevance_level
        self.qrels_query, self.qrels_grade = qrels_query, qrels_grade
        self.n_retrieved = n_retrieved
        self.judged_query, self.judged_rank = judged_query, judged_rank
        self.judged_grade = judged_grade
        #: Whether unjudged documents were removed (:meth:`condensed`, trec_eval -J), and
        #: the queries that retrieved something before (what trec_eval evaluates).
        self.is_condensed = False
        self.evaluated = n_retrieved > 0
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
                    n_relevant: int | None = None,
                    scores: np.ndarray | None = None) -> JudgedRun:
        """A batch of one query from one ranked list, every document judged: what the
        single-list functions of :mod:`evalkit.ranking` hand to the measures below.

        ``grades`` are the list's grades in rank order (validated floats); the query's
        judgements are ``ideal_grades`` (nDCG's ideal ranking; default: ``grades``) and R is
        ``n_relevant`` (default: the relevant documents among those judgements). ``scores``
        (non-increasing, one per grade) tell which documents tie.
        """
        judged = grades if ideal_grades is None else ideal_grades
        size = grades.size
        codes, ranks = np.zeros(size, dtype=np.intp), np.arange(1, size + 1)
        tie_first = tie_size = None
        if scores is not None:
            tie_first, tie_size = tie_blocks(codes, scores, ranks - 1)
            tie_first += 1
        run = cls(1, relevance_level, np.zeros(judged.size, dtype=np.intp), judged,
                  np.array([size]), codes, ranks, grades, tie_first, tie_size)
        if n_relevant is not None:
            run.n_relevant = np.array([n_relevant])
        return run

    def condensed(self) -> JudgedRun:
        """The run with its unjudged documents removed and the judged ones moved up (a
        condensed list, Sakai 2007; trec_eval ``-J``, ``form_res_rels.c``): documents absent
        from the qrels or graded negative are dropped, the rest keep their order and are
        ranked 1, 2, ... and the documents retrieved become the judged ones retrieved."""
        keep = self.judged_grade >= 0
        query = self.judged_query[keep]
        run = JudgedRun(self.n_queries, self.relevance_level, self.qrels_query,
                        self.qrels_grade, self.per_query(query).astype(np.intp), query,
                        group_positions(query), self.judged_grade[keep])
        run.is_condensed, run.evaluated = True, self.evaluated
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
    def grade_counts(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The judgements counted per query and grade, when the grades are integers of a
        small range (as usual): the grades from high to low, and an (n_queries, grades)
        table of counts, from one pass over the qrels. None otherwise."""
        grades = self.qrels_grade
        if grades.dtype.kind not in "iu" or grades.size == 0:
            return None
        top, low = int(grades.max()), int(grades.min())
        span = top - low + 1
        if self.n_queries * span > 4 * grades.size + (1 << 16):
            return None
        keys = self.qrels_query.astype(np.int64)
        keys *= span
        keys += top
        keys -= grades  # the query's row, then the grade's column (high grades first)
        counts = np.bincount(keys, minlength=self.n_queries * span)
        return np.arange(top, low - 1, -1), counts.reshape(self.n_queries, span)

    def _count_where(self, wanted: Callable[[np.ndarray], np.ndarray]
                     ) -> np.ndarray | None:
        """Judgements per query whose grade is ``wanted`` (a mask of the grades), from
        :attr:`grade_counts`; None without that table."""
        table = self.grade_counts
        if table is None:
            return None
        grades, counts = table
        return counts[:, wanted(grades)].sum(axis=1)

    @cached_property
    def n_relevant(self) -> np.ndarray:
        """R per query: the judgements that count as relevant."""
        level = self.relevance_level
        counted = self._count_where(lambda grades: is_relevant(grades, level))
        if counted is not None:
            return counted
        relevant = is_relevant(self.qrels_grade, level)
        return np.bincount(self.qrels_query[relevant], minlength=self.n_queries)

    @cached_property
    def n_nonrelevant(self) -> np.ndarray:
        """N per query: the judged documents (grade >= 0) that are not relevant."""
        level = self.relevance_level
        counted = self._count_where(
            lambda grades: (grades >= 0) & ~is_relevant(grades, level))
        if counted is not None:
            return counted
        grades = self.qrels_grade
        nonrelevant = (grades >= 0) & ~is_relevant(grades, level)
        return np.bincount(self.qrels_query[nonrelevant], minlength=self.n_queries)

    @cached_property
    def ideal(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """nDCG's ideal ranking from the qrels: per positive grade its query, the grade, and
        its ideal rank (grades sorted high to low within each query)."""
        if self.n_queries > 1 and self.grade_counts is not None:
            # Few grades (as usual): a counting sort on (query, grade from the top), read
            # from the table of counts.
            values, counts = self.grade_counts
            positive = values > 0
            values, counts = values[positive], counts[:, positive]
            codes = np.repeat(np.arange(self.n_queries, dtype=self.qrels_query.dtype),
                              counts.sum(axis=1))
            grades = np.repeat(np.tile(values.astype(self.qrels_grade.dtype), self.n_queries),
                               counts.ravel())
            return codes, grades, group_positions(codes)
        positive = self.qrels_grade > 0
        codes, grades = self.qrels_query[positive], self.qrels_grade[positive]
        if self.n_queries == 1:  # one query (a single list): the grades sorted, high to low
            grades = np.sort(grades)[::-1]
            return codes, grades, np.arange(1, grades.size + 1, dtype=np.int64)
        order = np.lexsort((-grades, codes))
        codes, grades = codes[order], grades[order]
        return codes, grades, group_positions(codes)


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


def precision(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""P@k, trec_eval ``P.k``: relevant documents in the top k, divided by k.

    A run with fewer than k documents counts as padded with non-relevant ones.
    """
    top = within_cutoff(run.relevant_rank, k)
    return run.per_query(run.relevant_query[top]) / k


def recall(run: JudgedRun, k: float | None, zero_division: Any = 0.0) -> np.ndarray:
    r"""R@k, trec_eval ``recall.k``: relevant documents in the top k, divided by R
    (``zero_division`` when R = 0, see :meth:`JudgedRun.ratio`)."""
    top = within_cutoff(run.relevant_rank, k)
    return run.over_r(run.per_query(run.relevant_query[top]), zero_division, "recall_at_k")


def reciprocal_rank(run: JudgedRun, k: float | None) -> np.ndarray:
    r"""RR, trec_eval ``recip_rank``: 1 / the rank of the first relevant document, 0 when
    none was retrieved (with ``@k``: none in the top k)."""
    first = (run.relevant_found == 1) & within_cutoff(run.relevant_rank, k)
    return run.per_query(run.relevant_query[first], 1.0 / run.relevant_rank[first])


def ndcg(run: JudgedRun, k: float | None, gains: dict[int, float] | None = None,
         variant: str = "trec", zero_division: Any = 0.0, ties: str = "trec_eval"
         ) -> np.ndarray:
    r"""nDCG, trec_eval ``ndcg`` (``ndcg_cut.k`` for nDCG@k).

    :math:`\sum_{i \le k} g_i / \log_2(i + 1)` divided by the same sum over the query's judged
    grades sorted high to low (the ideal ranking comes from the qrels, retrieved or not).
    Gains are the grades whatever the relevance level; negative grades gain nothing.
    ``gains`` maps grades to other gains (trec_eval ``ndcg.1=3.5,2=9``; a gain may be 0 or
    negative, and the ideal ranking holds the documents of positive gain, highest first).
    ``variant`` is the gain and discount of :func:`evalkit.dcg` (see :func:`dcg`);
    ``zero_division`` the value when the ideal DCG is 0 (see :meth:`JudgedRun.ratio`);
    ``ties`` how documents of equal score share ranks in the run's DCG (see :func:`dcg`;
    the ideal DCG is the same either way).
    """
    found = _dcg_of_run(run, gains, k, variant, ties)
    best = _dcg_of_ideal(run, gains, k, variant)
    return run.ratio(found, best, zero_division, "ndcg",
                     "the ideal DCG is 0 (no document with a positive grade)")


def r_precision(run: JudgedRun, k: float | None, zero_division: Any = 0.0) -> np.ndarray:
    r"""R-precision, trec_eval ``Rprec``: relevant documents in the top R, divided by R
    (``zero_division`` when R = 0, see :meth:`JudgedRun.ratio`)."""
    top = within_cutoff(run.relevant_rank, run.n_relevant[run.relevant_query])
    return run.over_r(run.per_query(run.relevant_query[top]), zero_division, "r_precision")


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

    On condensed lists (trec_eval ``-J``) a query left with no document makes trec_eval
    divide 0 by 0 (``m_iprec_at_recall.c`` starts from num_rel_ret / num_ret): a level whose
    count c before the floor at 1 is 0 is NaN there, as trec_eval prints it (``-nan``).
    """
    if convention is None:
        convention = "trec_eval_10" if version == "10.0" else "trec_eval"
    levels = np.asarray(level, dtype=np.float64)
    needed = relevant_needed(levels[..., None], run.n_relevant, convention)
    value = np.zeros(needed.shape)
    if run.is_condensed and convention != "textbook":
        scaled = levels[..., None] * run.n_relevant
        uncounted = scaled + 0.9 < 1 if convention == "trec_eval" else scaled < 0.5
        # C's 0.0 / 0.0 has its sign bit set: trec_eval prints -nan.
        value[uncounted & (run.n_retrieved == 0) & run.evaluated] = -np.nan
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


def eleven_point_average(run: JudgedRun, k: float | None, version: str = "9.0.8",
                         convention: str | None = None) -> np.ndarray:
    r"""IPrecAvg, trec_eval ``11pt_avg``: the mean of interpolated precision (IPrec) at the
    recall levels 0.0, 0.1, …, 1.0 (``m_11pt_avg.c``; the level becomes a count of relevant
    documents by truncation in 9.0.8 and by rounding in 10.0, as for IPrec, or by
    ``convention``).

    The 11 values are added one level at a time from 1.0 down to 0.0, as trec_eval adds
    them, then divided by 11: the same bits for a query however many others are scored with
    it (``np.mean`` over the levels would add them in another order for one query).
    """
    levels = interpolated_precision(run, ELEVEN_POINTS, version, convention)
    total = np.zeros(levels.shape[1])
    for row in levels[::-1]:  # 11 passes over the queries
        total += row
    return total / len(ELEVEN_POINTS)


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
    step_table = np.zeros((tops.size, int(tops.max(initial=0)) + 1), dtype=np.int64)
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


def _dcg_parts(run: JudgedRun, gains: dict[int, float] | None, k: float | None,
               variant: str = "trec") -> tuple[np.ndarray, np.ndarray]:
    """DCG of the run and of the ideal ranking per query (top k when k is given)."""
    return _dcg_of_run(run, gains, k, variant), _dcg_of_ideal(run, gains, k, variant)


def _dcg_of_run(run: JudgedRun, gains: dict[int, float] | None, k: float | None,
                variant: str = "trec", ties: str = "trec_eval") -> np.ndarray:
    """DCG per query of the documents retrieved (top k when k is given).

    Without ``gains`` each grade's term is :func:`evalkit._ranking_core.discounted_gain`
    under ``variant``; with ``gains`` (trec_eval's ``ndcg.1=3.5,2=9``) the gains are
    trec_eval's (:func:`_gains`), taken as they are (a gain may be negative), over the
    discount of ``variant``. With ``ties="average"`` a document in a block of tied ones
    takes the block's share of the discounts instead (:func:`_tie_shares`); an untied one
    keeps its term, so a run without ties gets the same sums, bit for bit.
    """
    average = ties == "average"
    # Averaged, a tied block counts when it starts in the top k, though it may end below.
    top = within_cutoff(run.tie_first if average else run.judged_rank, k)
    ranks = run.judged_rank[top]
    if gains is None:
        terms = discounted_gain(run.judged_grade[top], ranks, variant)
    else:
        terms = _gains(run, gains).row_gain[top] / discount(ranks, variant)
    if average:
        tied = np.flatnonzero(run.tie_size[top] > 1)
        if tied.size:
            row_gain = (gain(run.judged_grade[top][tied], variant) if gains is None
                        else _gains(run, gains).row_gain[top][tied])
            terms[tied] = row_gain * _tie_shares(
                run.judged_query[top][tied], run.tie_first[top][tied],
                run.tie_size[top][tied], k, variant)
    return run.per_query(run.judged_query[top], terms)


def _tie_shares(codes: np.ndarray, first: np.ndarray, size: np.ndarray, k: float | None,
                variant: str) -> np.ndarray:
    r"""Each tied document's share of its block's discounts (McSherry & Najork 2008): over
    every order of a block of s documents at ranks f … f + s - 1, a document stands at each
    rank equally often, so its expected term is its gain times
    :math:`\frac{1}{s}\sum_{i=f}^{\min(f+s-1,\,k)} 1/\mathrm{discount}(i)`; a block that
    straddles the cutoff k shares only the discounts of its ranks within it.

    Rows of one block (same query and first rank) are neighbours; each block's sum is taken
    once, rank by rank.
    """
    new = np.r_[True, (codes[1:] != codes[:-1]) | (first[1:] != first[:-1])]
    blocks = np.flatnonzero(new)
    low, last = first[blocks], first[blocks] + size[blocks] - 1
    high = last if k is None else np.minimum(last, int(k))
    counts = high - low + 1
    offsets = np.cumsum(counts) - counts
    ranks = np.repeat(low - offsets, counts) + np.arange(int(counts.sum()))
    sums = np.add.reduceat(1.0 / discount(ranks, variant), offsets)
    return np.repeat(sums / size[blocks], np.diff(np.r_[blocks, codes.size]))


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


def dcg(run: JudgedRun, k: float | None, gains: dict[int, float] | None = None,
        variant: str = "trec", ties: str = "trec_eval") -> np.ndarray:
    r"""DCG, trec_eval 10.0 ``dcg`` (``m_ndcg.c``): :math:`\sum_i g_i / \log_2(i + 1)` over
    the retrieved documents (the top k with ``@k``), gains the grades unless ``gains`` maps
    them (trec_eval ``dcg.1=3.5,2=9``).

    ``variant`` (:func:`evalkit.dcg`): ``"trec"`` as above, ``"exponential"`` with gain
    :math:`2^{g_i} - 1` (Burges et al. 2005), ``"jarvelin"`` with discount
    :math:`\log_2 \max(i, 2)` (Järvelin & Kekäläinen 2002); see
    :func:`evalkit._ranking_core.gain` and :func:`evalkit._ranking_core.discount`.

    ``ties`` (:data:`evalkit._ranking_core.TIES`): ``"trec_eval"`` ranks documents of equal
    score as trec_eval does (doc_id descending); ``"average"`` (McSherry & Najork 2008) gives
    the expected DCG over every order of each block of equal scores: each tied document's
    gain times the mean of the discounts of the block's ranks, those below k counting 0 with
    ``@k`` (:func:`_tie_shares`). The run must carry its tie blocks (``tie_first``).

    References: McSherry, F. and Najork, M. (2008). Computing information retrieval
    performance measures efficiently in the presence of tied scores. ECIR 2008, 414–421.
    """
    return _dcg_of_run(run, gains, k, variant, ties)


def ideal_dcg(run: JudgedRun, k: float | None,
              gains: dict[int, float] | None = None) -> np.ndarray:
    r"""IdealDCG, trec_eval 10.0 ``ideal_dcg`` (``m_ndcg.c``): the DCG of the query's judged
    documents with a positive gain, highest gain first (retrieved or not); 0 for a query the
    run misses (``missing_queries="zero"``), as every measure.

    A query whose judgements are all negative has no ideal ranking: 0 here. trec_eval's
    ``form_res_rels.c`` then leaves the grade counts of the last query evaluated before it
    with a grade >= 0 in place (its loop over grades 0 … max runs for no grade), so trec_eval
    prints that query's ideal DCG again; ``evalkit trec_eval`` prints what 10.0 prints. Every
    other measure is 0 either way (nothing retrieved gains). On condensed lists a query
    whose retrieved documents were all unjudged keeps its ideal DCG, as in trec_eval -J."""
    return np.where(run.evaluated, _dcg_parts(run, gains, k)[1], 0.0)

