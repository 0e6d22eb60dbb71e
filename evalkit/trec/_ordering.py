"""trec_eval's order of a run's rows: by query, score descending, then doc_id descending.

trec_eval sorts each query's rows by score and breaks ties by comparing doc_ids with
``strcmp``, the later name first. The rows are ranked here with numpy sorts, and ties broken
only in the blocks of tied rows where the order can change a measure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .._hashing import take_objects
from .._sorting import simd_sort_is_slow
from .._threads import _both, _chunk_rows, _for_each, _threads
from ._measures import block_starts

__all__ = ["ChunkMade", "QueryOrder"]

# _looked_up gathers, and _in_query_order scatters, this many rows at a time; _made_whole
# makes a column this many, on one thread _MADE_CHUNK_ALONE, whose temporaries stay in a
# core's L2 (an arrow run's keys from its string views, 10^6 rows, best of 21, Intel Xeon:
# 8.5 ms against 9.7 at 2**16; objects' keys, hashed a smaller chunk at a time, the same).
_LOOKUP_CHUNK = 1 << 16
_MADE_CHUNK_ALONE = 1 << 14
# _ranked_whole makes its keys, and reads them back, this many rows at a time: their
# temporaries stay in cache.
_KEY_CHUNK = 1 << 15


def _trec_order(
    query_code: np.ndarray, score: np.ndarray, doc_id: np.ndarray,
    tie_class: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """Row order: grouped by query, then score descending, then doc_id descending.

    With ``tie_class`` (given row numbers, their classes), a block of tied rows is put in
    doc_id order only when its rows' classes differ: the order within a block of one class is
    left as it is. :func:`~evalkit.evaluate` gives each row's grade (another value when
    unjudged), since a measure sees only the grade at each rank; most tied rows are unjudged
    ones, whose names it then need not compare.
    """
    order, positions, rows = _trec_ranking(query_code, score, doc_id, tie_class)
    if order is None:
        order = np.arange(score.size, dtype=np.int32 if score.size < 2**31 else np.intp)
    order[positions] = rows
    return order


def _trec_ranking(
    query_code: np.ndarray, score: np.ndarray, doc_id: np.ndarray,
    tie_class: Callable[[np.ndarray], np.ndarray] | None = None,
    ranked: tuple[np.ndarray | None, np.ndarray] | None = None,
    prefix: np.ndarray | None = None,
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """trec_eval's order of the rows (see :func:`_trec_order`) as ``order, positions, rows``:
    the rows ordered by query and score (``None`` when they already are, as in most run
    files), then the rows that ties put at some positions of that order. ``ranked``: the
    first part, :func:`_score_order`, when the caller has it already. ``prefix``: each
    doc_id's first 16 bytes as two numbers, when the caller has them (see
    :func:`~evalkit._hashing.object_hashes_and_prefixes`), which then decide most
    comparisons of tied names.

    Ties only move rows within their query, so with ``order`` None each row keeps its query's
    place and a caller can skip a gather over the whole run.
    """
    order, pairs = _score_order(query_code, score) if ranked is None else ranked
    none = np.zeros(0, dtype=np.intp)
    if tie_class is not None and pairs.size:
        pairs = _mixed_blocks(pairs, order, tie_class)
    if pairs.size == 0:
        return order, none, none
    if tie_class is not None:
        placed = _place_classes(order, pairs, doc_id, tie_class, prefix)
        if placed is not None:
            return (order, *placed)
    return (order, *_break_ties(order, pairs, doc_id))


def _score_order(query_code: np.ndarray,
                 score: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """The first step of :func:`_trec_ranking`, which needs no doc_id: the rows by query,
    then by score descending, as ``order`` (None when they already are) and the positions
    ``i`` of that order whose rows ``i`` and ``i + 1`` tie (same query and score)."""
    n = score.size
    if n == 0:
        return None, np.zeros(0, dtype=np.intp)
    same_query = query_code[1:] == query_code[:-1]
    starts = np.flatnonzero(np.r_[True, ~same_query])
    grouped = (starts.size <= query_code.max() + 1
               and _all_distinct(query_code[starts]))
    if grouped and not np.any(same_query & (score[1:] > score[:-1])):
        # Already ranked, as most run files are: only ties may need reordering.
        order = None
        pairs = np.flatnonzero(same_query & (score[1:] == score[:-1]))
    else:
        # Equal scores are ordered by doc_id below, so the score sort need not be stable.
        keyed = _by_query_and_score(query_code, score, starts if grouped else None)
        if keyed is not None:
            order, pairs = keyed
        else:  # two sorts: by score, then (stably) by query
            order = np.argsort(-score)
            codes = query_code[order]
            if codes.max(initial=0) >= 2**16 and int(codes.max()) - int(codes.min()) < 2**16:
                codes = codes - codes.min()  # a piece of a run: a few neighbouring queries
            if codes.max(initial=0) < 2**16:
                codes = codes.astype(np.uint16)  # numpy radix-sorts 16-bit keys
            order = order[np.argsort(codes, kind="stable")]
            ranked_score, ranked_code = score[order], query_code[order]
            pairs = np.flatnonzero((ranked_code[1:] == ranked_code[:-1])
                                   & (ranked_score[1:] == ranked_score[:-1]))
    return order, pairs


_SIGN = np.uint64(1 << 63)
# A key of query, score and row keeps at least this many of a score's top bits (the sign,
# the exponent and 20 bits of the fraction); with fewer the rows are ranked another way.
_SCORE_BITS = 32


def _by_query_and_score(
    query_code: np.ndarray, score: np.ndarray, starts: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows by query, then by score descending (equal scores in any order), and the
    positions ``i`` of that order whose rows ``i`` and ``i + 1`` tie (same query and score),
    from one sort of 64-bit keys; None when the queries are spread too wide for a key.
    ``starts``, when given, are where the blocks of one query's rows start: each query's rows
    are then together, and the keys are sorted a block at a time (:func:`_sort_in_blocks`).

    A key holds the query (less the first) in its top ``b`` bits, the row number in its low
    ``r`` bits and, between them, the top ``64 - b - r`` bits of the score's: a float's bits,
    its sign bit set when positive and all flipped when negative, sort as the floats do, and
    flipped again high to low. Sorting the keys themselves (no argsort) ranks the rows, and
    their low bits say which row is where. Two scores of a query that differ only in the
    bits left out share a key's top and may come out of order: the few runs of rows with
    one such top that hold two scores are then sorted again by score.
    """
    n = score.size
    low = int(query_code.min())
    bits = max((int(query_code.max()) - low).bit_length(), 1)
    row_bits = max((n - 1).bit_length(), 1)
    if bits + row_bits > 64 - _SCORE_BITS:
        return None
    ordered = (score + 0.0).view(np.uint64)  # + 0.0 turns -0.0 into 0.0, which it equals
    key = np.where(ordered & _SIGN, ordered, ~(ordered | _SIGN))  # high scores first
    key >>= np.uint64(bits + row_bits)
    key <<= np.uint64(row_bits)
    key |= (query_code - low).astype(np.uint64) << np.uint64(64 - bits)
    key |= np.arange(n, dtype=np.uint64)
    if starts is not None and starts.size > 1 and bool(np.all(np.diff(query_code[starts]) > 0)):
        _sort_in_blocks(key, starts)  # the blocks in query order: the same as one sort
    else:
        key.sort()
    order = (key & np.uint64((1 << row_bits) - 1)).astype(np.intp)
    key >>= np.uint64(row_bits)  # query and score: equal for the rows of a tie
    return order, _tied_in_order(order, np.flatnonzero(key[1:] == key[:-1]), score)


def _tied_in_order(order: np.ndarray, shared: np.ndarray, score: np.ndarray) -> np.ndarray:
    """The positions ``i`` of ``order`` (rows sorted by keys of query and a score's top bits,
    see :func:`_by_query_and_score`) whose rows ``i`` and ``i + 1`` tie, from the positions
    ``shared`` whose keys do: a run of rows sharing a key that holds two scores is first
    sorted by score, in place in ``order``."""
    if shared.size == 0:
        return shared
    tied = score[order[shared]] == score[order[shared + 1]]
    if not tied.all():  # a run sharing a key's top holds two scores: sort it by score
        run_start = np.r_[True, shared[1:] != shared[:-1] + 1]  # a run of tied positions
        run = np.cumsum(run_start) - 1  # the run of each
        split = np.zeros(run[-1] + 1, dtype=bool)
        split[run[~tied]] = True
        first = np.flatnonzero(run_start)
        last = np.r_[first[1:], shared.size] - 1
        runs = np.flatnonzero(split)
        size = shared[last[runs]] - shared[first[runs]] + 2
        at = np.repeat(shared[first[runs]], size) + (
            np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size))
        rows = order[at]
        order[at] = rows[np.lexsort((-score[rows], np.repeat(runs, size)))]
        tied = score[order[shared]] == score[order[shared + 1]]
    return shared[tied]


def _sort_in_blocks(key: np.ndarray, starts: np.ndarray) -> None:
    """Sort ``key`` in place within each block of rows (from each of ``starts`` to the next),
    whose keys must lie above those of the blocks before it (as keys with the query in their
    top bits do for blocks in query order): one sort of all of them is then the same.

    The blocks become the rows of a table, sorted along its rows: numpy's sort costs less a
    key on short arrays (on AMD Zen 4, whose AVX-512 store numpy's sort of long arrays leans
    on is slow, 13 ns a key for rows of 1,000 against 50 for one sort of 10^6). Blocks of
    unequal lengths are padded with the largest key, which sorts last; when padding would
    more than double the table, the whole array is sorted instead.
    """
    n = key.size
    size = np.diff(np.r_[starts, n])
    width = int(size.max())
    if starts.size * width == n:  # blocks of one length, as a run cut at one depth gives
        key.reshape(starts.size, width).sort(axis=1)
        return
    if starts.size * width > 2 * n:
        key.sort()
        return
    # Block i's j-th key goes to row i, column j: at i * width + j of the flat table.
    at = np.arange(n, dtype=np.intp)
    at += np.repeat(np.arange(starts.size, dtype=np.intp) * width - starts, size)
    table = np.full(starts.size * width, np.iinfo(np.uint64).max, dtype=np.uint64)
    table[at] = key
    table.reshape(starts.size, width).sort(axis=1)
    key[:] = table[at]  # each row's first size[i] keys: its block's, sorted


def _argsort_in_blocks(key: np.ndarray, starts: np.ndarray) -> np.ndarray | None:
    """An order that sorts ``key`` (ties in any order), made a block at a time as
    :func:`_sort_in_blocks` sorts, whose rule the keys must follow (each block's keys above
    those of the blocks before it); None when padding would more than double the table.

    Short argsorts along the rows of a table: about 6 ns a key for blocks of 100 (the
    judgements of a query), against 45 for the radix argsort of 500,000 keys.
    """
    n = key.size
    size = np.diff(np.r_[starts, n])
    width = int(size.max(initial=0))
    if n == 0 or starts.size * width > 2 * n:
        return None
    if starts.size * width == n:  # blocks of one length
        order = np.argsort(key.reshape(starts.size, width), axis=1)
        order += starts[:, None]
        return order.reshape(n)
    # Block i's j-th key goes to row i, column j: at i * width + j of the flat table.
    at = np.arange(n, dtype=np.intp)
    at += np.repeat(np.arange(starts.size, dtype=np.intp) * width - starts, size)
    table = np.full(starts.size * width, np.iinfo(np.uint64).max, dtype=np.uint64)
    table[at] = key
    column = np.argsort(table.reshape(starts.size, width), axis=1)
    # A padding key equals the largest key a block may hold, and may come before it: the
    # block's own places are those whose column is within its size, in order.
    column += starts[:, None]
    inside = column < (starts + size)[:, None]
    return column[inside]


def _all_distinct(codes: np.ndarray) -> bool:
    """Whether no query number (>= 0) comes twice: counted in a table when their range is
    not much wider than their number (as for the first row of each block), else sorted."""
    if codes.size < 2:
        return True
    low = int(codes.min())
    if int(codes.max()) - low <= 4 * codes.size + 1024:
        return int(np.bincount(codes - low).max()) == 1
    return np.unique(codes).size == codes.size


def _by_query(code: np.ndarray, n_queries: int) -> tuple[np.ndarray, np.ndarray]:
    """A stable order of the rows by query number (each in ``range(n_queries)``), and the
    rows of each query (``n_queries`` counts).

    A counting sort (pandas' ``groupsort_indexer``, which pandas' groupby uses): two passes,
    about 3 times as fast as numpy's radix sort of 16-bit keys, and its counts come with it.
    Without it (a pandas that moved it), numpy: 16-bit keys, so wider numbers are sorted by
    their low 16 bits, then (stably) by the high ones.
    """
    counting_sort = _counting_sort()
    if counting_sort is not None and code.size:
        order, counts = counting_sort(code.astype(np.intp, copy=False), n_queries)
        return order, counts[1:]  # counts[0]: the rows numbered -1 (none)
    counts = np.bincount(code, minlength=n_queries)
    if code.max(initial=0) < 2**16:
        return np.argsort(code.astype(np.uint16), kind="stable"), counts
    order = np.argsort((code & 0xFFFF).astype(np.uint16), kind="stable")
    return order[np.argsort((code[order] >> 16).astype(np.uint16), kind="stable")], counts


class QueryOrder(NamedTuple):
    """An order of a run's rows that puts each query's rows together, the queries in order
    (see :func:`_query_order`): ``rows`` in that order, the number of rows of each query
    (``per_query``) and, when each query's rows are ranked in it (by score descending),
    the positions ``i`` whose rows ``i`` and ``i + 1`` tie (``tied``, else None)."""

    rows: np.ndarray
    per_query: np.ndarray
    tied: np.ndarray | None


def _query_order(code: np.ndarray, score: np.ndarray, n_queries: int) -> QueryOrder:
    """The rows of a run whose query numbers ``code`` (each in ``range(n_queries)``) are not
    together: ranked by query and score at once (:func:`_ranked_whole`) where its keys fit
    and numpy's long sorts are fast on this CPU, else in a stable order by query
    (:func:`_by_query`), each query's rows then ranked a piece at a time."""
    ranked = _ranked_whole(code, score, n_queries)
    return ranked if ranked is not None else QueryOrder(*_by_query(code, n_queries), None)


def _ranked_whole(code: np.ndarray, score: np.ndarray, n_queries: int) -> QueryOrder | None:
    """The rows by query number ``code`` (each in ``range(n_queries)``), then by score
    descending, from one sort of the whole run's keys of query, score and row (those of
    :func:`_by_query_and_score`, made and read back a chunk at a time); None when they do
    not fit in 64 bits or numpy's sort of long arrays is slow on this CPU (see
    :mod:`evalkit._sorting`: each query's rows are then sorted apart, a table of them at a
    time).

    An interleaved run's rows must be put in query order anyway, and those of each query by
    score: on an Intel Xeon (numpy's AVX-512 sort) one sort of 10^6 keys does both in about
    7 ms, where counting the rows by query and then sorting each query's keys take about 3
    and 13 ms, and the scores, once ranked, need not be moved (only the tied rows are read).
    """
    n = score.size
    if not _whole_rankable(n, n_queries):
        return None
    bits = max((n_queries - 1).bit_length(), 1)
    row_bits = max((n - 1).bit_length(), 1)
    key = np.empty(n, dtype=np.uint64)
    score_shift, row_shift = np.uint64(bits + row_bits), np.uint64(row_bits)
    query_shift = np.uint64(64 - bits)
    for start in range(0, n, _KEY_CHUNK):
        stop = min(start + _KEY_CHUNK, n)
        part = key[start:stop]
        ordered = np.add(score[start:stop], 0.0).view(np.uint64)  # -0.0 becomes 0.0
        # A float's bits with the sign bit set when positive, all flipped when negative,
        # sort as the floats do; all flipped again, high to low: a negative float's bits as
        # they are, a positive one's all but the sign bit flipped.
        flip = (ordered.view(np.int64) >> 63).view(np.uint64)  # all ones where negative
        np.invert(flip, out=flip)
        flip >>= np.uint64(1)
        np.bitwise_xor(ordered, flip, out=part)
        part >>= score_shift
        part <<= row_shift
        part |= code[start:stop].astype(np.uint64) << query_shift
        part |= np.arange(start, stop, dtype=np.uint64)
    key.sort()
    order = np.empty(n, dtype=np.intp)
    low = np.uint64((1 << row_bits) - 1)
    shared = []
    for start in range(0, n, _KEY_CHUNK):
        stop = min(start + _KEY_CHUNK, n)
        np.bitwise_and(key[start:stop], low, out=order[start:stop].view(np.uint64))
        top = key[start : stop + 1] >> row_shift  # query and score: equal for tied rows
        shared.append(np.flatnonzero(top[1:] == top[:-1]) + start)
    # Each query's rows start where the keys reach its number in their top bits.
    bounds = np.arange(1, n_queries, dtype=np.uint64) << query_shift
    first = np.r_[0, np.searchsorted(key, bounds), n]
    del key
    return QueryOrder(order, np.diff(first), _tied_in_order(order, np.concatenate(shared), score))


def _whole_rankable(n: int, n_queries: int) -> bool:
    """Whether :func:`_ranked_whole` ranks ``n`` rows of ``n_queries`` queries: two rows or
    more, whose keys of query, score and row fit in 64 bits, on a CPU where numpy's sort of
    long arrays is fast."""
    bits = max((n_queries - 1).bit_length(), 1)
    row_bits = max((n - 1).bit_length(), 1)
    return (n >= 2 and bits + row_bits <= 64 - _SCORE_BITS
            and not simd_sort_is_slow(np.empty(n, dtype=np.uint64)))


def _interleaved_order(code: np.ndarray, n_queries: int, score: np.ndarray | None = None
                       ) -> QueryOrder | None:
    """:func:`_by_query` of run rows whose query numbers ``code`` are all >= 0 (every row's
    query judged) and fall in more blocks of equal numbers than there are queries
    (:func:`~evalkit.trec._measures.block_starts` gives none: interleaved, which only a sort
    groups), as :func:`~evalkit.trec._evaluate._judged_run` tells them; None for other rows,
    which are ordered, if need be, once the rows of unjudged queries are dropped. With
    ``score``, :func:`_query_order` instead: the rows ranked whole where they fit one sort
    (as evaluate ranks some interleaved runs on two threads while their doc_ids are hashed).

    Counted beside the qrels' join on two threads, where each query's rows are then ranked
    a piece at a time on both: ranked whole (:func:`_ranked_whole`) in place of the count,
    the thread that counts took about 9 ms longer than the join at 10^6 rows, and the
    interleaved run 3-11% longer (Intel Xeon, 2 vCPUs, object ids)."""
    if code.size == 0 or int(code.min()) < 0 or block_starts(code, most=n_queries) is not None:
        return None
    if score is not None:
        return _query_order(code, score, n_queries)
    return QueryOrder(*_by_query(code, n_queries), None)


class ChunkMade(NamedTuple):
    """A column of ``dtype`` made a chunk of rows at a time, as :func:`_in_query_order`
    puts it in query order (scattered chunk by chunk, or made whole, then gathered):
    ``make(start, stop)`` gives its rows ``start:stop``."""

    make: Callable[[int, int], np.ndarray]
    dtype: np.dtype


def _in_query_order(by_query: np.ndarray, columns: dict[str, Any], *,
                    scatter: bool = False) -> dict[str, np.ndarray | None]:
    """``column[by_query]`` for each column (None stays None), a column being an array or
    :class:`ChunkMade` (made a chunk at a time).

    Two ways, measured on two CPUs that rank them differently:

    - Gathered, half a column at a time in the threads of ``_for_each`` (a made column made
      whole first, a chunk at a time in those threads): an object array's run (``scatter``
      False), whose columns are its scores and either its references (ids hashed in query
      order) or its keys (ids hashed as stored, read through ``by_query`` where a piece
      looks at them). On an Intel Xeon (AVX-512, 2 vCPUs), against the scatter below, the
      interleaved run's time over the grouped one's, median of 4 processes each, default
      threads / one thread: shared ids 1.21x / 1.31x -> 1.13x / 1.22x, python str 1.28x /
      1.36x -> 1.19x / 1.31x, queries interleaved 1.26x / 1.30x -> 1.22x / 1.26x, object
      copies 1.40x / 1.43x -> 1.38x / 1.37x. The references of object copies then left out
      of the columns (their keys made as stored): the interleaved run 1-2% faster on
      default threads, 2.2-3.0% on one (old and new taken in turn, 15 rounds in each of 3
      processes, the median of the paired ratios).
    - Scattered, for an arrow run (``scatter``), whose ids the caller reads through
      ``by_query``, where gathering a made column whole measured slower on the same Xeon
      (pyarrow, default threads, 1.47x -> 1.54x the grouped run's time, median of 3): each
      row's place in query order (the inverse of ``by_query``, :func:`_places`) is worked
      out once, then each column is read in its stored order and written to those places, a
      chunk of places at a time, whose intp copy stays in cache, and a made column is made
      and scattered a chunk at a time, while in cache, with no column of it in stored order
      (pyarrow, default threads, on an AMD EPYC: 1.33x -> 1.30x). On several threads the
      rows are split between two, at a chunk's end, each thread scattering every column of
      its half: the order by query is stable, so the rows of one query from the first half
      take the places before those from the second. With no made column and several
      threads, gathered as above (AMD EPYC, pyarrow: 1.30x against 1.35x).

    The caller scatters only rows counted by query (:func:`_by_query`), each query's rows
    in their stored order. Rows ranked whole (:func:`_ranked_whole`), each query's rows by
    score, gather faster on the Xeon: an arrow run's, interleaved, paired A/B against the
    scatter (5 processes, best of 7 each), 0.939 of the time on one thread, 0.969 on two.
    """
    n = by_query.size
    out = {name: None if column is None else np.empty(n, dtype=column.dtype)
           for name, column in columns.items()}
    names = [name for name, column in columns.items() if column is not None]
    made = any(isinstance(column, ChunkMade) for column in columns.values())
    if not scatter:  # an object array's run: all gathered
        columns = {name: _made_whole(column, n) if isinstance(column, ChunkMade) else column
                   for name, column in columns.items()}
        _gather(by_query, columns, out, names)
        return out
    if _threads() == 1 or made:  # an arrow run's columns
        place = _places(by_query)

        def scatter(begin: int, end: int) -> None:
            for start in range(begin, end, _LOOKUP_CHUNK):
                stop = min(start + _LOOKUP_CHUNK, end)
                at = place[start:stop].astype(np.intp)
                for name in names:
                    column = columns[name]
                    out[name][at] = (column.make(start, stop) if isinstance(column, ChunkMade)
                                     else column[start:stop])

        middle = (n // 2) // _LOOKUP_CHUNK * _LOOKUP_CHUNK
        _both(lambda: scatter(0, middle), lambda: scatter(middle, n), size=n)
        return out
    _gather(by_query, columns, out, names)
    return out


def _gather(by_query: np.ndarray, columns: dict[str, Any], out: dict[str, Any],
            names: list[str]) -> None:
    """``out[name][:] = columns[name][by_query]`` for each of ``names``, half a column at a
    time in the threads of ``_for_each``."""
    n = by_query.size
    halves = [(name, start, stop) for name in names for start, stop in ((0, n // 2), (n // 2, n))]

    def gather(half: tuple[str, int, int]) -> None:
        name, start, stop = half
        # mode="clip": the rows are valid, and "raise" would gather into a buffer first.
        np.take(columns[name], by_query[start:stop], out=out[name][start:stop], mode="clip")

    _for_each(gather, halves)


def _made_whole(column: ChunkMade, n: int) -> np.ndarray:
    """The ``n`` rows of a :class:`ChunkMade` column, made a chunk at a time in the
    threads of ``_for_each``."""
    whole = np.empty(n, dtype=column.dtype)
    chunk = _chunk_rows(_LOOKUP_CHUNK, _MADE_CHUNK_ALONE)

    def one_chunk(start: int) -> None:
        stop = min(start + chunk, n)
        whole[start:stop] = column.make(start, stop)

    _for_each(one_chunk, range(0, n, chunk))
    return whole


def _places(by_query: np.ndarray) -> np.ndarray:
    """Each row's place in ``by_query`` (its inverse), int32 when that holds them, made a
    chunk at a time: no temporary the length of the run."""
    n = by_query.size
    place = np.empty(n, dtype=np.int32 if n < 2**31 else np.intp)
    for start in range(0, n, _LOOKUP_CHUNK):
        stop = min(start + _LOOKUP_CHUNK, n)
        place[by_query[start:stop]] = np.arange(start, stop, dtype=place.dtype)
    return place


def _looked_up(table: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``table[codes]`` (intp, as :func:`_by_query` takes it) for int32 ``codes``, a chunk
    at a time (in the threads of ``_for_each``): numpy's gather first copies int32 indices
    to intp, and a chunk's copy stays in cache (at 10^6 rows, 0.9 ms against 1.8 on one
    thread)."""
    out = np.empty(codes.size, dtype=np.intp)

    def one_chunk(start: int) -> None:
        stop = start + _LOOKUP_CHUNK
        # mode="clip": each code names a row of ``table`` (as the callers make them), and
        # the gather then writes straight to ``out`` (0.77 against 1.31 ms at 10^6 rows).
        np.take(table, codes[start:stop], out=out[start:stop], mode="clip")

    _for_each(one_chunk, range(0, codes.size, _LOOKUP_CHUNK))
    return out


def _counting_sort() -> Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]] | None:
    """pandas' stable counting sort of numbers in ``range(n)``, ``(order, counts)``; None if
    this pandas does not have it where pandas 2.2-3.x keep it."""
    try:
        from pandas._libs.algos import groupsort_indexer
    except ImportError:
        return None
    return groupsort_indexer


def _rows_at(order: np.ndarray | None, positions: np.ndarray) -> np.ndarray:
    return positions if order is None else order[positions]


def _mixed_blocks(
    pairs: np.ndarray, order: np.ndarray | None, tie_class: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """The tied pairs in blocks whose classes are not all equal.

    ``pairs`` (ascending): the positions i of ``order`` (None: the identity) whose rows tie
    with the row at i + 1; a block is a run of consecutive positions. Classes are looked up
    for the tied pairs only.
    """
    differs = tie_class(_rows_at(order, pairs)) != tie_class(_rows_at(order, pairs + 1))
    if not differs.any():
        return pairs[:0]
    first = np.flatnonzero(np.r_[True, pairs[1:] != pairs[:-1] + 1])  # each block's first
    mixed = np.logical_or.reduceat(differs, first)
    return pairs[np.repeat(mixed, np.diff(np.r_[first, pairs.size]))]


def _break_ties(
    order: np.ndarray | None, pairs: np.ndarray, doc_id: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Order each block of equal (query, score) rows by doc_id descending (trec_eval: strcmp).

    ``pairs`` as in :func:`_mixed_blocks`. Returns the tied positions and the rows that go
    there. Python compares str by code point, which is the byte order of UTF-8, so this is
    strcmp's order. Most ties are pairs: one comparison each decides them.
    """
    first_pair = np.flatnonzero(np.r_[True, pairs[1:] != pairs[:-1] + 1])
    size = np.diff(np.r_[first_pair, pairs.size]) + 1  # rows in each block
    first = np.cumsum(size) - size  # each block's first row, in ``positions``
    positions = np.repeat(pairs[first_pair] - first, size) + np.arange(int(size.sum()))
    rows = _rows_at(order, positions)
    names = _names_at(doc_id, rows)
    inner = np.arange(positions.size)
    pair = first[size == 2]
    swap = pair[names[pair] < names[pair + 1]]
    inner[swap], inner[swap + 1] = swap + 1, swap
    if (size > 2).any():
        big = np.flatnonzero(np.repeat(size > 2, size))
        block = np.repeat(np.arange(first.size), size)[big]
        # Descending names within each block, in one sort on integer keys.
        inner[big] = big[np.lexsort((*_descending_name_keys(names[big]), block))]
    return positions, rows[inner]


def _place_classes(
    order: np.ndarray | None, pairs: np.ndarray, doc_id: np.ndarray,
    tie_class: Callable[[np.ndarray], np.ndarray], prefix: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """As :func:`_break_ties`, when only each row's class matters (see :func:`_trec_order`):
    the rows of the commonest class fill whatever places the others leave, so only the
    others are placed, each at the number of its block's names above its own (strcmp
    descending). None when that takes many more comparisons than sorting the blocks (a
    block of many rows of several classes). ``prefix`` as in :func:`_trec_ranking`."""
    first_pair = np.flatnonzero(np.r_[True, pairs[1:] != pairs[:-1] + 1])
    size = np.diff(np.r_[first_pair, pairs.size]) + 1  # rows in each block
    first = np.cumsum(size) - size  # each block's first row, in ``positions``
    positions = np.repeat(pairs[first_pair] - first, size) + np.arange(int(size.sum()))
    rows = _rows_at(order, positions)
    classes = tie_class(rows)
    movers = np.flatnonzero(classes != _commonest(classes))
    block = np.repeat(np.arange(first.size), size)
    compared = size[block[movers]]
    if int(compared.sum()) > 4 * positions.size:
        return None
    # Each mover against every row of its block (itself included: not above itself).
    mover_of = np.repeat(np.arange(movers.size), compared)
    within = np.arange(mover_of.size) - np.repeat(np.cumsum(compared) - compared, compared)
    other = np.repeat(first[block[movers]], compared) + within
    # Only the names compared are gathered: each mover's, and its block's rows'.
    above = _names_above(doc_id, rows[other], rows[movers][mover_of], prefix)
    place = first[block[movers]] + np.bincount(mover_of[above], minlength=movers.size)
    inner = np.empty(positions.size, dtype=np.intp)
    inner[place] = movers
    free = np.ones(positions.size, dtype=bool)
    free[place] = False
    fillers = np.ones(positions.size, dtype=bool)
    fillers[movers] = False
    inner[free] = np.flatnonzero(fillers)  # block by block, as many places as fillers
    return positions, rows[inner]


def _names_above(doc_id: Any, rows: np.ndarray, other: np.ndarray,
                 prefix: np.ndarray | None) -> np.ndarray:
    """Whether the name of each of ``rows`` is above (strcmp: after) that of ``other`` at
    the same place: on the ``prefix`` numbers where they differ, else on the names."""
    if prefix is None:
        return np.asarray(_names_at(doc_id, rows) > _names_at(doc_id, other), dtype=bool)
    first, first_other = prefix[0, rows], prefix[0, other]
    above = first > first_other
    same = np.flatnonzero(first == first_other)
    second, second_other = prefix[1, rows[same]], prefix[1, other[same]]
    above[same] = second > second_other
    same = same[second == second_other]
    same = same[rows[same] != other[same]]  # a row is not above itself
    if same.size:
        above[same] = np.asarray(_names_at(doc_id, rows[same]) > _names_at(doc_id, other[same]),
                                 dtype=bool)
    return above


def _commonest(values: np.ndarray) -> Any:
    """The value that occurs most often (the least of those that tie): counted in a table
    for whole numbers of a narrow range (grades), else sorted."""
    if values.dtype.kind in "iu" and values.size:
        low = values.min()
        if int(values.max()) - int(low) < 1 << 16:
            return values.dtype.type(np.argmax(np.bincount(values.astype(np.intp) - int(low)))
                                     + int(low))
    distinct, counts = np.unique(values, return_counts=True)
    return distinct[np.argmax(counts)]


def _names_at(doc_id: Any, rows: np.ndarray) -> Any:
    """``doc_id[rows]``, to be read at once: an object array's ids are borrowed, not copied
    (:func:`~evalkit._hashing.take_objects`)."""
    return take_objects(doc_id, rows) if isinstance(doc_id, np.ndarray) else doc_id[rows]


def _descending_name_keys(names: np.ndarray) -> list[np.ndarray]:
    """Integer sort keys, least significant first, that order ``names`` by strcmp descending.

    The UTF-8 bytes, zero-padded to a multiple of 8, read as big-endian 64-bit words: word by
    word they compare as the bytes do (a shorter name, padded with zeros, comes first).
    """
    try:
        encoded = names.astype(bytes)  # ASCII ids
    except UnicodeEncodeError:
        encoded = np.array([name.encode() for name in names], dtype=bytes)
    width = -(-max(encoded.dtype.itemsize, 1) // 8) * 8
    words = encoded.astype(f"S{width}").view(">u8").reshape(len(names), width // 8)
    return [~words[:, i].astype(np.uint64) for i in range(width // 8 - 1, -1, -1)]
