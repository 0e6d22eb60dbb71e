r"""Ranked retrieval: evaluating whole runs with trec_eval's measures, vectorised.

:func:`evaluate` scores a run (one system's ranked results, ``query_id``, ``doc_id``,
``score``) against the qrels (the relevance judgements, ``query_id``, ``doc_id``,
``relevance``; see :mod:`evalkit.trec` for the files) with exactly trec_eval's semantics, for
all queries at once: the rows are ordered once, joined with the qrels once, and every measure
is a few ``np.bincount`` calls over the retrieved-and-judged rows. There is no Python loop
over queries.

trec_eval's rules, which :func:`evaluate` follows (``trec_eval.c``, ``form_res_rels.c``):

- documents are ranked by score, highest first; equal scores are broken by doc_id in
  *descending* byte order; the run's own rank column is ignored;
- a document absent from the qrels counts as not relevant; a negative grade (-1: in the pool
  but not judged) is neither relevant nor judged non-relevant;
- a query of the run that has no judgements is left out; a judged query without relevant
  documents is kept and scores 0; a judged query missing from the run is left out unless
  ``missing_queries="zero"`` (trec_eval ``-c``);
- ``relevance_level`` (trec_eval ``-l``) decides which grades are relevant for the binary
  measures; nDCG always uses the grades themselves as gains, and its ideal ranking comes from
  all the judged documents of the query, retrieved or not.

Speed: the ids are hashed in numpy (from their UTF-8 bytes) and every step is a pass over
arrays. On a long run, evaluate uses a few threads (as many as the process has CPUs, at most
4; the environment variable ``EVALKIT_THREADS`` sets the number, 1 for none): numpy's loops
release the GIL, so threads overlap them. The results do not depend on the number.

Undefined values follow trec_eval, with no ``zero_division`` and no warning: a measure whose
denominator is 0 for a query (AP, R@k, Rprec, nDCG, ... of a judged query without relevant
documents) is 0, as trec_eval reports it, so that the table and its means are trec_eval's;
the ``NumRel`` column shows which queries those are. (The single-list functions of
:mod:`evalkit.ranking` take a ``zero_division`` and warn by default.)
"""

from __future__ import annotations

import os
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from .._docs import fill_doc
from .._factorize import factorize
from .._hashing import (
    borrowable,
    object_hashes_and_prefixes,
    objects_at,
    repeats_objects,
    string_hashes_at,
)
from .._hashing import string_hashes as _id_hashes
from .._sorting import argsort_numbers
from .._threads import _both, _both_in_parallel, _for_each, _pieces_between
from .._validation import check_bool, check_option, check_scalar, keyword_only
from . import _streaming
from ._dask import _evaluate_dask, _uses_dask
from ._measures import TREC_EVAL_VERSIONS, JudgedRun, block_starts, tie_blocks
from ._metric_names import (  # the names evaluate takes (light: the command reads them too)
    _FLOAT_CUTOFFS,  # noqa: F401 (read by the tests here)
    METRICS,
    TREC_EVAL_FAMILIES,
    TREC_EVAL_NAMES,
    TREC_EVAL_PARAMETERS,  # noqa: F401
    _Metric,  # noqa: F401
    _parse_metrics,
)
from ._ordering import (
    ChunkMade,
    QueryOrder,
    _all_distinct,
    _argsort_in_blocks,
    _in_query_order,
    _interleaved_order,
    _looked_up,
    _query_order,
    _score_order,
    _trec_ranking,
    _whole_rankable,
)
from ._pairs import (
    _check_pair_duplicates,
    _confirm_duplicates,
    _doc_hashes,
    _pair_keys,
    _sorted_repeats,
)
from ._parsing import _read_qrels, _read_run, _run_pieces
from ._registry import MEASURES, measure_list
from ._run_keys import (
    _chunk_keys,
    _closer_in,
    _ids_read_as_stored,
    _in_rank_order,
    _NotStrings,
    _read_as_stored,
    _repeated_run_keys,
    _with_views,
)
from ._tables import (
    ArrowIds,
    CodedIds,
    ReorderedIds,
    _as_table,
    _equal_ids,
    _ids,
    _qrels_columns,
    _run_columns,
    arrow_rows_in,
)

__all__ = ["evaluate", "METRICS", "TREC_EVAL_NAMES", "TREC_EVAL_FAMILIES", "MISSING_QUERIES"]

# Rows of the run checked, joined and ranked at a time (whole queries), in threads.
_PIECE = 1 << 17
# A piece whose tied pairs are more than one row in this many keeps its ids' first bytes
# from their hashing (see object_hashes_and_prefixes) to order its tied ids.
_PREFIX_TIES = 16
# Ties are few when their rows number less than one in this many of a piece's: their grades
# are then looked up on their own, not made for every row of the piece first.
_TIE_FEW = 8
MISSING_QUERIES = ("ignore", "zero")


# ---------------------------------------------------------------------------------------------
# The vectorised core
# ---------------------------------------------------------------------------------------------


class _Join:
    """Finds the qrels row of each run row's (query, document), or -1 when unjudged, from
    their 64-bit keys (see ``_pair_keys``), a piece of the run at a time."""

    def __init__(self, qrels_code: np.ndarray, qrels_doc: np.ndarray, qrels_keys: np.ndarray,
                 names: np.ndarray, starts: np.ndarray) -> None:
        """Also the qrels' duplicate check (ValueError naming a pair judged twice), made on
        the sorted keys that the join searches. ``starts``: where the qrels' blocks of
        equal query ids start."""
        self.qrels_code, self.qrels_doc = qrels_code, qrels_doc
        self.by_key = _argsort_qrels_keys(qrels_code, qrels_keys, starts)
        self.sorted_keys = qrels_keys[self.by_key]
        ordered = self.sorted_keys
        unique_keys = _confirm_duplicates(qrels_code, qrels_doc, names, "qrels", "judged twice",
                                          qrels_keys, _sorted_repeats(ordered))
        # With keys that are not unique (a hash collision in the qrels), an exact join of the
        # whole run instead (see exact).
        self.by_keys = unique_keys and qrels_keys.size > 0
        if not self.by_keys:
            return
        # Most retrieved documents are unjudged: a bitmap of the qrels' keys (about 1 bit in
        # 16 set) rules most of them out with one look-up each, before any search.
        bits = int(min(max(np.ceil(np.log2(qrels_keys.size * 16)), 16), 30))
        self.shift = np.uint64(64 - bits)
        self.bitmap = np.zeros(1 << bits, dtype=bool)
        self.bitmap[qrels_keys >> self.shift] = True  # then a binary search in the sorted keys

    def rows(self, run_code: np.ndarray, run_doc: np.ndarray, run_keys: np.ndarray,
             found: np.ndarray) -> None:
        """Set ``found`` (-1 where unjudged) to the qrels row of each of these run rows."""
        candidates = np.flatnonzero(self.bitmap[run_keys >> self.shift])
        wanted = run_keys[candidates]
        # Searched among the keys between the least and the greatest wanted: a piece's few
        # queries' keys (the query is a key's top bits), which stay in the CPU's cache.
        # Looked up in a hash table of those keys (unique: see __init__), which costs a
        # fifth of a binary search per key (15 against 80 ns).
        ordered = self.sorted_keys
        low = int(np.searchsorted(ordered, wanted.min(initial=np.uint64(2**64 - 1))))
        high = int(np.searchsorted(ordered, wanted.max(initial=np.uint64(0)), side="right"))
        at = pd.Index(ordered[low:high], copy=False).get_indexer(wanted)
        hit = at >= 0
        rows, match = candidates[hit], self.by_key[at[hit] + low]
        # Hashes can collide: each match is confirmed on the ids themselves. A run row whose
        # key is a judged pair's but whose ids differ is unjudged, since no other qrels row
        # has that key.
        same = self.qrels_code[match] == run_code[rows]
        same &= _equal_ids(self.qrels_doc, match, run_doc, rows)
        found[rows[same]] = match[same]

    def exact(self, run_code: np.ndarray, run_doc: np.ndarray) -> np.ndarray:
        """The qrels row of every run row, on the ids themselves (slower)."""
        doc_code, doc_names = factorize(np.concatenate([self.qrels_doc, run_doc]))
        width = np.int64(max(len(doc_names), 1))
        exact = pd.Index(self.qrels_code.astype(np.int64) * width
                         + doc_code[: self.qrels_doc.size])
        found = exact.get_indexer(run_code.astype(np.int64) * width
                                  + doc_code[self.qrels_doc.size :])
        return found.astype(np.int32)


def _argsort_qrels_keys(code: np.ndarray, keys: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """An order that sorts the qrels' pair keys: a query at a time when the qrels list each
    query's judgements together in query order (the queries are numbered so), whose keys,
    with the query in their top bits, then lie above those before them; else one sort.
    ``starts``: where the blocks of equal query numbers start."""
    if code.size > 1:
        if starts.size > 1 and bool(np.all(np.diff(code[starts]) > 0)):
            order = _argsort_in_blocks(keys, starts)
            if order is not None:
                return order
    return argsort_numbers(keys)


def _run_query_codes(block_ids: Any, starts: np.ndarray | None, n: int,
                     queries: pd.Index) -> np.ndarray:
    """The number of each of ``n`` run rows' query in the qrels (-1 if unjudged), from the
    query id of each block of equal query ids (``block_ids``, starting at ``starts``): runs
    list their queries in blocks, so this hashes few strings. With no ``starts``, a number
    or id per row (queries interleaved: see :class:`CodedIds` and :func:`arrow_rows_in`)."""
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    names = np.asarray(queries, dtype=object)
    if isinstance(block_ids, ArrowIds):  # looked up in arrow: no str made per block or row
        block_code = arrow_rows_in(block_ids.data, names)
    else:
        lookup = pd.Index(names, dtype=object)
        if isinstance(block_ids, CodedIds):  # a number per row already: each distinct id once
            return _looked_up(lookup.get_indexer(block_ids.ids), block_ids.codes)
        if block_ids.size > 4 * len(queries):  # interleaved: few distinct ids, many blocks
            block_id, distinct = factorize(block_ids)
            block_code = lookup.get_indexer(distinct).astype(np.int32)[block_id]
        else:
            block_code = lookup.get_indexer(block_ids).astype(np.int32)
    if block_code.size == n:
        return block_code
    return np.repeat(block_code, np.diff(np.r_[starts, n]))


def _tie_grades(parsed: list[Any], q_grade: np.ndarray, level: float,
                judged_only: bool) -> np.ndarray | None:
    """The grade by which each qrels row's document is told from the rows it ties with
    (see :func:`_judged_run`), or None when that is its grade: judged documents that none
    of the measures ``parsed`` tells from an unjudged one (see the registry's
    ``Measure.nonrelevant_as_unjudged``) get the unjudged rows' grade, so that trec_eval's
    doc_id order among tied rows is worked out only for those that matter. Not with
    ``judged_only``, whose condensed lists keep every judged row."""
    measures = [MEASURES[m.name] for m in parsed]
    if judged_only or any(m.options for m in parsed) or not all(
            measure.nonrelevant_as_unjudged for measure in measures):
        return None
    blind = q_grade < level
    if any(measure.gains_are_grades for measure in measures):
        blind &= q_grade <= 0
    if not blind.any():
        return None
    return np.where(blind, q_grade.min(initial=0) - 1, q_grade)


def _judged_run(
    level: float, q_code: np.ndarray, q_doc: np.ndarray, q_grade: np.ndarray,
    join: _Join, names: np.ndarray,
    run_codes: list[np.ndarray], r_doc: Any, r_score: np.ndarray, ties: bool = False,
    tie_grade: np.ndarray | None = None,
    orders: list[QueryOrder | None] | None = None,
    hashed: list[tuple[np.ndarray, np.ndarray | None] | None] | None = None,
) -> JudgedRun:
    """The run checked for duplicates, joined with the qrels and ranked as trec_eval ranks
    it: what the measures read; with ``ties``, the blocks of equal scores too (for
    ``ties="average"``: the scores are then ranked along, in a copy). ``tie_grade``: each
    qrels row's grade as the measures to be read see it when it ties (see
    :func:`_tie_grades`); by default its grade.

    Each step needs one query's rows at a time, so the run is worked through in pieces of
    whole queries, on the threads of ``_for_each``: each piece's rows are put in order of
    query and score (no id needed), its doc_ids are hashed (which raises _NotStrings if one
    is not a str), as stored or in that order, whichever reads their objects nearer together
    in memory, then the piece is checked, joined and its ties broken in place.

    ``run_codes``: a list holding the number of each run row's query (-1: not judged, the
    row dropped), which is taken out of it, so that the caller keeps no reference to it:
    the numbers are reordered in place, or let go of once the rows are counted by query.
    ``orders``: a list holding the rows' order by query (a :class:`QueryOrder`) or None
    (see :func:`_interleaved_order`), taken out of it as ``run_codes`` is: given when the
    caller worked it out beside the qrels' join (all rows judged, queries interleaved).
    ``hashed``: a list holding the hashes of the run's doc_ids as stored and an arrow run's
    string views, or None (see :func:`~evalkit.trec._run_keys._ids_read_as_stored`), taken out of
    it likewise: given when the caller made them while an interleaved run's rows were ranked.
    """
    n_queries = names.size
    r_code = run_codes.pop()
    # Runs list each query's rows together; if one does not, a sort makes it so (the
    # measures see only each query's ranking): one sort of the whole run by query and score
    # where numpy's long sorts are fast (_ranked_whole), else a stable count by query, after
    # which each piece ranks its own queries a block at a time (short sorts: one long sort
    # is several times slower on CPUs where numpy's long sorts are slow, see
    # _sort_in_blocks). Only numbers are moved: an object array's references (borrowed, see
    # take_objects), other ids when they are looked at (to confirm a match, break a tie).
    order = orders.pop() if orders else None
    doc_hashes = hashed.pop() if hashed else None
    if order is not None:  # sorted by the caller: every row judged, queries interleaved
        starts, grouped = None, False
    else:
        keep = r_code >= 0
        if not keep.all():
            r_code, r_doc, r_score = r_code[keep], r_doc[keep], r_score[keep]
            if doc_hashes is not None:
                doc_hashes = tuple(None if made is None else made[keep] for made in doc_hashes)
        del keep
        # More blocks than queries (queries interleaved) are told by counting, not listed.
        starts = block_starts(r_code, most=n_queries)
        grouped = starts is not None and _all_distinct(r_code[starts])
        order = None if grouped else _query_order(r_code, r_score, n_queries)
    # Ranked whole (tied_at not None), the rows need no sort by score in the pieces below,
    # and their scores are read only to average ties.
    by_query, per_query, tied_at = (None, None, None) if order is None else order
    del order
    run_keys: np.ndarray | None = None
    # Hashed by the caller, the ids' objects do not recur (see _read_as_stored): not asked
    # again (1.1 ms at 10^6 rows).
    repeated = doc_hashes is None and isinstance(r_doc, np.ndarray) and repeats_objects(r_doc)
    # Hashing reads each id's object: fastest in the order the objects lie in memory, which
    # is the stored order for a file read row by row, but the query order for a grouped
    # table whose rows were shuffled. A long column whose objects recur (the ids of a
    # vocabulary) is hashed once per object, in memory order, all first (once the rows are
    # in query order: its keys are then made in that order, not gathered). Keys made in
    # stored order are put in query order with the scores (see _in_query_order).
    stored_keys = views = None
    if doc_hashes is not None and not grouped:  # made by the caller, as stored
        stored_keys, views = _pair_keys(r_code, doc_hashes[0], n_queries), doc_hashes[1]
    elif not repeated and not grouped and not _closer_in(r_doc, by_query):
        _with_views(r_doc)  # an arrow run's, kept by it: its chunks are hashed from them
        stored_keys = ChunkMade(partial(_chunk_keys, r_code, r_doc, n_queries),
                                np.dtype(np.uint64))
    del doc_hashes
    if by_query is not None:
        del r_code  # in query order, they are counted below rather than gathered
        # An object array's references, when its ids are hashed in query order, are put
        # in that order at once with the scores, as numbers, no object touched (borrowed,
        # see take_objects); other ids (arrow ones, or objects whose keys were made as
        # stored: then only the few a piece looks at) are read through by_query, then kept.
        objects = borrowable(r_doc)
        columns = {"score": r_score if tied_at is None or ties else None, "keys": stored_keys,
                   "doc": (np.frombuffer(r_doc, dtype=np.intp)
                           if objects and stored_keys is None else None)}
        del stored_keys
        # Ranked whole, an arrow run's keys are gathered too (see _in_query_order).
        gathered = _in_query_order(by_query, columns, scatter=not objects and tied_at is None)
        r_score, run_keys = gathered["score"], gathered["keys"]
        if views is not None:  # the caller's (its rows dropped above, if any)
            r_doc.keep_views(views)
            del views
        r_doc = (ReorderedIds(r_doc, by_query) if gathered["doc"] is None
                 else objects_at(gathered["doc"], r_doc))
        # What was gathered from is let go of now, not at the end (held the while, it
        # would be memory the pieces below cannot reuse).
        del columns, gathered, by_query
        # The codes in query order are the sorted codes (all >= 0: unjudged queries' rows
        # are gone).
        r_code = np.repeat(np.arange(n_queries, dtype=np.int32), per_query)
        starts = (np.cumsum(per_query) - per_query)[per_query > 0]  # each query's first row
    if repeated:
        run_keys = _repeated_run_keys(r_code, r_doc, n_queries)
    if ties:
        r_score = np.array(r_score, dtype=np.float64)  # ranked in place below: not the caller's
    qrels_row = (np.full(r_code.size, -1, dtype=np.int32) if join.by_keys
                 else join.exact(r_code, np.asarray(r_doc, dtype=object)))
    # A measure sees only the grade at each rank, so tied rows of one grade (or all unjudged)
    # need not be put in doc_id order among themselves.
    unjudged = q_grade.min(initial=0) - 1
    class_of = q_grade if tie_grade is None else tie_grade

    def grade_or_unjudged(at: np.ndarray) -> np.ndarray:  # at: qrels rows, -1 if unjudged
        return np.where(at >= 0, class_of[at], unjudged)

    def check_join_and_rank(piece: tuple[int, int]) -> None:
        start, stop = piece
        code, doc = r_code[start:stop], r_doc[start:stop]
        score = None if r_score is None else r_score[start:stop]
        found = qrels_row[start:stop]  # views: this piece's part of the whole
        # The rows by query and score: needs no id, and gives an order in which to hash them.
        if tied_at is not None:  # ranked already (a piece holds whole queries, and ties)
            first, last = np.searchsorted(tied_at, (start, stop))
            ranked = (None, tied_at[first:last] - start)
        else:
            ranked = _score_order(code, score)
        prefix = None
        if run_keys is not None:
            keys = run_keys[start:stop]
        else:
            ids, stored = (doc.ids, doc.order) if isinstance(doc, ReorderedIds) else (doc, None)
            in_rank_order = None
            if ranked[0] is not None and borrowable(ids):
                in_rank_order = ranked[0] if stored is None else stored[ranked[0]]
                if not _in_rank_order(ids, in_rank_order, stored):
                    in_rank_order = None
            # Many ties: each id's first bytes, as numbers, are kept from its hashing, to
            # order tied ids without comparing their strings.
            with_prefix = ranked[1].size * _PREFIX_TIES > code.size and borrowable(ids)
            try:  # reordered: gathered (borrowed) a chunk at a time as it is hashed
                if in_rank_order is not None:
                    hashes = np.empty(code.size, dtype=np.uint64)
                    if with_prefix:
                        hashes[ranked[0]], ranked_prefix = object_hashes_and_prefixes(
                            ids, in_rank_order)
                        prefix = np.empty_like(ranked_prefix)
                        prefix[:, ranked[0]] = ranked_prefix
                    else:
                        hashes[ranked[0]] = string_hashes_at(ids, in_rank_order)
                elif with_prefix:
                    hashes, prefix = object_hashes_and_prefixes(ids, stored)
                else:
                    hashes = (string_hashes_at(ids, stored) if stored is not None
                              else doc.hashes() if isinstance(doc, ArrowIds)
                              else _id_hashes(doc, repeated=False))  # checked whole, above
            except TypeError:
                raise _NotStrings from None
            keys = _pair_keys(code, hashes, n_queries)
        _check_pair_duplicates(code, doc, names, "run", "retrieved twice", keys)
        if join.by_keys:
            join.rows(code, doc, keys, found)
        piece_classes: list[np.ndarray] = []  # each row's grade, once many rows are asked

        def tie_class(rows: np.ndarray) -> np.ndarray:
            if not piece_classes:
                if _TIE_FEW * rows.size < found.size:  # a few ties: only their rows' grades
                    return grade_or_unjudged(found[rows])
                piece_classes.append(grade_or_unjudged(found))
            return piece_classes[0][rows]

        order, positions, rows = _trec_ranking(code, score, doc, tie_class, ranked, prefix)
        if order is None:  # ranked already; ties only move rows within their query
            found[positions] = found[rows]  # the right side is a copy: safe in place
        else:
            order[positions] = rows
            found[:] = found[order]
            code[:] = code[order]
            if ties:
                score[:] = score[order]

    _for_each(check_join_and_rank, _pieces_between(starts, r_code.size, _PIECE))
    # Each query's rows are one block in that order: a judged row's rank is its position
    # less its block's start.
    starts = block_starts(r_code)
    query_start = np.zeros(n_queries, dtype=np.intp)
    query_start[r_code[starts]] = starts
    n_retrieved = np.zeros(n_queries, dtype=np.intp)
    n_retrieved[r_code[starts]] = np.diff(np.r_[starts, r_code.size])
    judged_at = np.flatnonzero(qrels_row >= 0)
    judged_code = r_code[judged_at]
    tie_first = tie_size = None
    if ties:
        tie_start, tie_size = tie_blocks(r_code, r_score, judged_at)
        tie_first = tie_start - query_start[judged_code] + 1
    return JudgedRun(
        n_queries, level, q_code, q_grade, n_retrieved, judged_code,
        judged_at - query_start[judged_code] + 1, q_grade[qrels_row[judged_at]],
        tie_first, tie_size,
    )


@keyword_only
@fill_doc(measures=measure_list())
def evaluate(
    qrels: Any,
    run: Any,
    metrics: Any,
    *,
    relevance_level: float = 1,
    missing_queries: str = "ignore",
    trec_eval_version: str = "9.0.8",
    judged_only: bool = False,
) -> pd.DataFrame:
    r"""Score a run against the qrels, query by query, exactly as trec_eval does.

    For a query with grades :math:`g_i` at ranks :math:`i = 1 \ldots n`, R relevant
    documents (grade :math:`\ge \ell`) and all its judged grades :math:`g^*` sorted from high
    to low:

    .. math::

        \mathrm{P@k} = \tfrac{1}{k}\textstyle\sum_{i \le k} [g_i \ge \ell], \quad
        \mathrm{AP} = \tfrac{1}{R}\textstyle\sum_{i} [g_i \ge \ell]\,\mathrm{P@i}, \quad
        \mathrm{nDCG@k} = \dfrac{\sum_{i \le k} g_i / \log_2(i+1)}
                                {\sum_{i \le k} g^*_i / \log_2(i+1)}

    Metric names follow ir_measures; trec_eval's own names are taken too, with the cutoff
    after ``_`` or ``.``: ``"map"``, ``"P_10"``, ``"ndcg_cut.10"``, ``"recip_rank"``,
    ``"iprec_at_recall_0.10"``, … (``"map"`` and ``"AP"`` give the same numbers; each column
    is labelled as asked). The measures, each with its trec_eval names (all_trec of 9.0.8 and
    10.0; definitions and references in the docstrings of their kernels,
    :mod:`evalkit.trec._measures` and :mod:`evalkit.trec._measures_extra`):

    {{measures}}

    gm_map and gm_bpref are only summaries over queries: ask for ``AP`` or ``Bpref`` and take
    :math:`\exp(\mathrm{mean}(\log\max(v, 10^{-5})))` (with ``missing_queries="zero"``, each
    missing query adds :math:`\log 10^{-5}`).

    Options other than a cutoff go in brackets, ir_measures-style, or after a dot in
    trec_eval's own syntax: ``"RBP(p=0.8)"`` or ``"rbp.p=0.8"`` (default p = 0.9,
    trec_eval's), ``"nDCG(gains={1:1,2:3})"`` or ``"ndcg.1=1,2=3"`` (gains per grade, also
    for ``G``, ``nDCGRel``, ``RnDCG``, ``DCG``, ``IdealDCG``, ``RBP``),
    ``"Utility(a=1,b=-1,c=0,d=0,n_docs=0)"`` or ``"utility.1,-1,0,0"`` (trec_eval's
    coefficients p1-p4; ``n_docs`` is its ``-N``), ``"relstring.20"``.
    ``"nDCG(ties=average)@10"`` (also ``DCG``) averages each block of documents with equal
    score over every order of the block (McSherry & Najork 2008): each tied document gains
    the mean discount of the block's ranks (within k), and the ideal DCG is unchanged; the
    default, ``ties=trec_eval``, ranks ties by doc_id descending. The rules trec_eval
    applies (ranking by score with ties broken by doc_id descending, unjudged = not
    relevant, the ideal ranking from the qrels, which queries are kept) are listed in the
    documentation of :mod:`evalkit.trec`.

    Parameters
    ----------
    qrels : pandas.DataFrame or path
        Columns ``query_id``, ``doc_id``, ``relevance`` (see :func:`read_qrels`); a path is
        read with :func:`read_qrels`.
    run : pandas.DataFrame, dask.dataframe.DataFrame or path
        Columns ``query_id``, ``doc_id``, ``score``; other columns (``rank``, ``run_id``) are
        ignored. A path (plain or gzip-compressed) is streamed: read as :func:`read_run`
        reads it (the same rules and errors), a block of whole queries at a time, each block
        scored on its own, so that memory follows the largest query, not the file; the
        result is the in-memory one. The file must be grouped by query (each query's lines
        together, as TREC runs are written): a query whose lines come back after another
        query's raises a ValueError naming the file and line; sort such a file by query, or
        read it with :func:`read_run` and pass the table. A dask DataFrame (partitions cut
        anywhere; ``pip install "evalkit[dask]"``) is shuffled by ``query_id`` and scored per
        query group on the active dask scheduler: the same result as for the pandas run.
    metrics : list of str
        The measures, e.g. ``["AP", "nDCG@10", "P@10"]``; the columns come in this order.
    relevance_level : float, default 1
        Grades at or above this are relevant for the binary measures (trec_eval ``-l``). Any
        real number; on whole-number grades a level of 1.5 acts as 2.
    missing_queries : {"ignore", "zero"}, default "ignore"
        "zero" adds the judged queries that the run lacks, with every measure 0 and
        NumRel = R (trec_eval ``-c``). Use it to compare systems: a system should not gain
        by skipping hard queries.
    trec_eval_version : {"9.0.8", "10.0"}, default "9.0.8"
        The release whose rules to follow where they differ: 9.0.8 (which pytrec_eval
        bundles) turns a recall level r into a count of relevant documents as
        ``(long)(r R + 0.9)``, 10.0 as ``lround(r R)``: this changes ``IPrec@r``
        (``iprec_at_recall``) and ``IPrecAvg`` (``11pt_avg``) and nothing else
        (``RprecMult`` truncates in both). Every measure is available with either.
    judged_only : bool, default False
        Score condensed lists (Sakai 2007; trec_eval ``-J``): each query's ranking without
        the documents the qrels do not judge (absent, or graded negative), the judged ones
        moved up to fill the gaps in their order. A query whose retrieved documents are all
        unjudged is kept and scores 0, as in trec_eval. Not with ``ties="average"``.

    Returns
    -------
    pandas.DataFrame
        One row per query (index ``query_id``, in the qrels' order of first appearance), one
        column per metric labelled exactly as asked. ``.mean()`` gives the system's scores
        (MAP, mean nDCG@10, MRR, ...).

    Raises
    ------
    ValueError
        For an unknown metric, missing columns, NaN scores, non-integer grades, or a
        document listed twice for one query in the run or in the qrels.

    References
    ----------
    Voorhees, E. M. and Harman, D. K., eds. (2005). TREC: Experiment and Evaluation in
    Information Retrieval, chapter 3. MIT Press.
    MacAvaney, S., Yates, A., Feldman, S., Downey, D., Cohan, A. and Goharian, N. (2022).
    Streamlining evaluation with ir-measures. Proceedings of ECIR 2022, 305–310.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": ["1", "1", "1", "2"],
    ...                       "doc_id": ["a", "b", "c", "a"], "relevance": [2, 0, 1, 1]})
    >>> run = pd.DataFrame({"query_id": ["1", "1", "1", "2", "2"],
    ...                     "doc_id": ["b", "a", "x", "x", "a"],
    ...                     "score": [3.0, 2.0, 1.0, 5.0, 4.0]})
    >>> scores = evaluate(qrels, run, ["AP", "P@2", "RR", "NumRel"])
    >>> scores.round(4)  # doctest: +NORMALIZE_WHITESPACE
                AP  P@2   RR  NumRel
    query_id
    1         0.25  0.5  0.5       2
    2         0.50  0.5  0.5       1
    """
    parsed = _parse_metrics(metrics)
    missing_queries = check_option(missing_queries, "missing_queries", MISSING_QUERIES)
    version = check_option(trec_eval_version, "trec_eval_version", TREC_EVAL_VERSIONS)
    level = check_scalar(relevance_level, "relevance_level", kind="real")
    if _uses_dask(qrels, run):  # a dask DataFrame: scored per query group by dask
        return _evaluate_dask(evaluate, qrels, run, metrics, relevance_level=relevance_level,
                              missing_queries=missing_queries, trec_eval_version=version,
                              judged_only=judged_only)
    qrels = _as_table(qrels, "qrels", _read_qrels)
    if isinstance(run, str | os.PathLike):  # a file: read query block by query block
        return _streaming.evaluate_file(evaluate, _run_pieces, qrels, run, metrics,
                                        relevance_level=level, trec_eval_version=version,
                                        missing_queries=missing_queries,
                                        judged_only=judged_only)
    run = _as_table(run, "run", _read_run)
    q_blocks, q_starts, q_doc, q_grade = _qrels_columns(qrels)
    r_blocks, r_starts, r_doc, r_score = _run_columns(run)

    # Queries are numbered in the qrels' order; run queries without judgements are dropped.
    # The qrels list each query's judgements together: only each block's id is looked up.
    block_code, queries = factorize(q_blocks)
    q_code = np.repeat(block_code, np.diff(np.r_[q_starts, q_grade.size]))
    queries = pd.Index(queries)
    n_queries = len(queries)
    names = np.asarray(queries, dtype=object)
    n_rows = len(r_score)

    def qrels_join() -> _Join:
        doc = q_doc
        try:
            q_hashes = _doc_hashes(doc)
        except TypeError:  # some doc_id is not a str: whole numbers become one, others fail
            doc = _ids(qrels["doc_id"], "qrels['doc_id']")
            q_hashes = _doc_hashes(doc)
        q_keys = _pair_keys(q_code, q_hashes, n_queries)
        return _Join(q_code, doc, q_keys, names, q_starts)  # raises if a pair is judged twice

    # The qrels' pairs are hashed and tabled while the run's rows' queries are numbered
    # (side by side on two threads when there are several CPUs: an interleaved run's
    # numbering is one pass that no piece shares); the qrels' error, if any, is raised first.
    # The run's query numbers are handed over in a list that _judged_run empties, and the
    # numbers of an interleaved run's query ids are let go of: ranking such a run needs
    # several of its columns in memory at once, and memory let go of is used again.
    # On two threads, an interleaved run's rows are counted by query there too, while the
    # other thread joins the qrels (object query ids are numbered on one thread: the
    # counting sort fills its wait; arrow ones are numbered on two, and counted after).
    # Rows in at most as many blocks of equal query ids as there are queries are not
    # interleaved: not looked at. (Some interleaved runs are ranked ahead instead: below.)
    early = _both_in_parallel(n_rows) and not isinstance(r_blocks, ArrowIds)

    def run_codes_and_order() -> tuple[list[np.ndarray], list[Any]]:
        code = _run_query_codes(r_blocks, r_starts, n_rows, queries)
        grouped = r_starts is not None and r_starts.size <= n_queries
        return [code], [_interleaved_order(code, n_queries) if early and not grouped else None]

    # An interleaved run (its query ids numbered per row: no blocks) whose rows fit one sort
    # and whose doc_ids are hashed as stored whatever the order (arrow ids; objects made in
    # stored order), on two threads: one thread numbers its queries (arrow ones first, on
    # both threads) and ranks the rows (_ranked_whole) while the other joins the qrels and
    # hashes the doc_ids as stored, a chunk at a time, which the first thread then takes
    # too. On the Xeon (2 vCPUs), paired A/B against numbering beside the join and ranking
    # after: an interleaved run of pyarrow ids 0.892 of the time, of object copies 0.960.
    ahead = (_both_in_parallel(n_rows) and r_starts is None
             and _whole_rankable(n_rows, n_queries) and _read_as_stored(r_doc))
    hashed: list[Any] | None = None
    if ahead:
        # Object query ids (numbered already, CodedIds) are looked up by the thread that
        # ranks, whose leg is the shorter: 1-2 ms less before both start.
        code = (None if isinstance(r_blocks, CodedIds)
                else _run_query_codes(r_blocks, r_starts, n_rows, queries))

        def codes_and_order() -> tuple[np.ndarray, QueryOrder | None]:
            numbers = (_run_query_codes(r_blocks, r_starts, n_rows, queries) if code is None
                       else code)
            return numbers, _interleaved_order(numbers, n_queries, r_score)

        def join_and_read_ids() -> tuple[_Join, list[Any]]:
            return qrels_join(), [_ids_read_as_stored(r_doc)]

        (code, order), (join, hashed) = _both(codes_and_order, join_and_read_ids,
                                              size=n_rows)
        r_code, orders = [code], [order]
        del code, order
    else:
        (r_code, orders), join = _both(run_codes_and_order, qrels_join, size=n_rows)
    del r_blocks
    q_doc = join.qrels_doc
    ties = any(m.options.get("ties") == "average" for m in parsed)
    judged_only = check_bool(judged_only, "judged_only")
    if ties and judged_only:
        raise ValueError("judged_only: ties=average is not defined on condensed lists; "
                         "ask for one or the other")
    tie_grade = None if ties else _tie_grades(parsed, q_grade, level, judged_only)
    try:
        ranked = _judged_run(level, q_code, q_doc, q_grade, join, names,
                             r_code, r_doc, r_score, ties, tie_grade, orders, hashed)
    except _NotStrings:  # some doc_id is not a str: whole numbers become one, others fail
        r_blocks, r_starts, _, _ = _run_columns(run)  # read again: not kept above
        r_code = [_run_query_codes(r_blocks, r_starts, n_rows, queries)]
        ranked = _judged_run(level, q_code, q_doc, q_grade, join, names,
                             r_code, _ids(run["doc_id"], "run['doc_id']"), r_score, ties,
                             tie_grade)
    retrieved = ranked.n_retrieved > 0
    if judged_only:
        ranked = ranked.condensed()
    columns = {}
    for m in parsed:
        measure = MEASURES[m.name]
        extra = {"version": version} if measure.versioned else {}
        columns[m.label] = measure.function(ranked, m.cutoff, **m.options, **extra)
    result = pd.DataFrame(columns, index=pd.Index(queries, name="query_id"))
    if missing_queries == "zero":
        return result
    return result[retrieved]
