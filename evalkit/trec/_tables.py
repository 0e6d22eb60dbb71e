"""The qrels and run tables: their columns checked and turned into numpy arrays, once.

What the files (:mod:`evalkit.trec._files`) and :func:`evalkit.trec.evaluate` (scoring a run,
which takes a file path as well as a table) share: a table, or a file path read into one,
whose columns are checked (names, missing ids, whole-number grades, finite scores) and given
as arrays: ids as str, grades as int64, scores as float64.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from .._arrow_strings import VIEW_BYTES, view_lengths
from .._arrow_strings import string_views as _views
from .._factorize import factorize
from .._hashing import _MULTIPLIERS, borrowable, take_objects
from .._threads import _both, _chunk_rows, _for_each, _threads
from ._measures import block_starts
from ._ordering import _names_at

__all__ = ["QRELS_COLUMNS", "RUN_COLUMNS", "ArrowIds", "CodedIds", "ReorderedIds",
           "arrow_rows_in"]

QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RUN_COLUMNS = ("query_id", "doc_id", "score")
# Grades may be negative (trec_eval: -1 is pooled but not judged), so check_counts, which
# wants non-negative numbers, does not fit them; the message follows its grammar.
_GRADES = "grades; a negative one is unjudged"
# _arrow_blocks tells a grouped query column from an interleaved one on this many first rows.
_BLOCKS_SAMPLE = 1 << 14
# _coded_ids: a column this long or longer, judged on its first this many rows.
_REPEATS_SAMPLE = 1 << 16
# arrow_rows_in numbers ids from their string views against at most _VIEW_NAMES names of
# at most VIEW_BYTES bytes (in a table of 2**20 slots, 8 MB, at most), a chunk of
# _VIEW_CHUNK ids at a time (see _short_rows_in); on one thread _VIEW_CHUNK_ALONE, whose
# views and temporaries stay in a core's L2: at 10^6 rows of 1,000 query ids, best of 25
# (Intel Xeon), 7.1 ms against 9.8 with the chunk of two threads, on which 2**16 is best
# (5.3 ms against 7.0 at 2**14).
_VIEW_NAMES = 1 << 11
_VIEW_CHUNK = 1 << 16
_VIEW_CHUNK_ALONE = 1 << 14


def _table(value: Any, name: str) -> pd.DataFrame:
    if not isinstance(value, pd.DataFrame):
        raise TypeError(
            f"{name} must be a pandas DataFrame (e.g. from ek.read_{name}) or a file path; "
            f"got {type(value).__name__}"
        )
    return value


def _as_table(value: Any, name: str, reader: Any) -> pd.DataFrame:
    if isinstance(value, str | os.PathLike):
        return reader(value)
    return _table(value, name)


def _columns(table: pd.DataFrame, name: str, columns: Iterable[str]) -> None:
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(
            f"{name} lacks the column(s) {', '.join(map(repr, missing))}; it has "
            f"{', '.join(map(repr, map(str, table.columns)))}"
        )


def _ids(column: pd.Series, label: str) -> np.ndarray:
    """Identifiers as an object array of str (ints in a DataFrame become '1', '2', ...)."""
    values = column.to_numpy()
    if values.dtype == object and pd.api.types.infer_dtype(values, skipna=False) == "string":
        return values
    missing = column.isna().to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise ValueError(f"{label} is missing (NaN or None) in row {row}")
    if values.dtype.kind == "f":
        fractional = values != np.round(values)
        if fractional.any():
            row = int(np.flatnonzero(fractional)[0])
            raise ValueError(f"{label} must hold strings or whole numbers (identifiers); got "
                             f"{values[row].item()!r} in row {row}")
        values = values.astype(np.int64)
    return pd.Series(values).astype(str).to_numpy(dtype=object)


def _id_blocks(column: pd.Series, label: str, changed: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """The ids as :func:`_ids` gives them, and where each block of equal neighbouring ids
    starts (a run lists its queries in blocks). ``changed``: where the column's object
    references differ from the next row's, when the caller has compared them (see
    :func:`_coded_ids`).

    Only the first id of each block has its type checked: the others equal it, so they are
    strings too. That saves a pass over a long column, as do the comparisons: equal
    references are one object, hence equal ids, and a file read by pandas holds one object
    per repeated string; ids are compared only where the references differ.
    """
    values = column.to_numpy()
    if values.dtype == object and values.size and values.flags.c_contiguous:
        if changed is None:
            references = np.frombuffer(values, dtype=np.intp)  # the array's own buffer
            changed = references[1:] != references[:-1]
        moved = np.flatnonzero(changed)
        try:
            if 4 * moved.size > values.size:
                # Mostly distinct objects (e.g. a str column turned to objects): comparing
                # the columns' neighbours in place beats gathering the moved ones (4x).
                moved = np.flatnonzero(np.asarray(values[1:] != values[:-1], dtype=bool))
            else:
                moved = moved[np.asarray(values[moved + 1] != values[moved], dtype=bool)]
        except (TypeError, ValueError):  # e.g. pd.NA, whose comparisons are not booleans
            moved = None
        if moved is not None:
            starts = np.r_[0, moved + 1]
            if pd.api.types.infer_dtype(values[starts], skipna=False) == "string":
                return values, starts
    values = _ids(column, label)
    return values, block_starts(values)


def _grades(qrels: pd.DataFrame) -> np.ndarray:
    """The qrels' grades as int64, checked to be whole numbers."""
    _columns(qrels, "qrels", QRELS_COLUMNS)
    relevance = qrels["relevance"]
    if not pd.api.types.is_numeric_dtype(relevance) or pd.api.types.is_bool_dtype(relevance):
        raise ValueError(f"qrels['relevance'] must hold whole numbers ({_GRADES}); got dtype "
                         f"{relevance.dtype}")
    dtype = relevance.dtype
    if isinstance(dtype, np.dtype) and (dtype == np.int64 or dtype.kind in "iu"
                                        and dtype.itemsize < 8):
        return relevance.to_numpy().astype(np.int64)  # whole numbers already (a copy)
    grades = relevance.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(grades) | (grades != np.round(grades))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"qrels['relevance'] must hold whole numbers ({_GRADES}); got "
                         f"{grades[row].item()!r} in row {row}")
    return grades.astype(np.int64)


def _qrels_arrays(qrels: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    grades = _grades(qrels)
    return (
        _ids(qrels["query_id"], "qrels['query_id']"),
        _ids(qrels["doc_id"], "qrels['doc_id']"),
        grades,
    )


def _qrels_columns(qrels: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """As :func:`_run_columns` for the qrels: the query id of each block of equal
    neighbouring query ids (qrels list each query's judgements together) and where the
    blocks start, the doc_ids and the grades, checked as in :func:`_qrels_arrays`.

    The doc_ids of an object column are not checked here: the caller hashes them, which
    checks that each is a str, and calls :func:`_ids` on the column if one is not. A
    pyarrow-backed column of strings without nulls stays in arrow (:class:`ArrowIds`), as
    the run's does; such a query column's neighbours are compared in arrow."""
    grades = _grades(qrels)
    query_arrow = _arrow_strings(qrels["query_id"])
    if query_arrow is not None and len(query_arrow):  # compared in arrow: a str per block
        block_arrow, starts = _arrow_block_ids(query_arrow,
                                               _moves(query_arrow, len(query_arrow)))
        block_ids = block_arrow.to_numpy(zero_copy_only=False)
    else:
        query_id, starts = _id_blocks(qrels["query_id"], "qrels['query_id']")
        block_ids = query_id[starts]
    arrow = _arrow_strings(qrels["doc_id"])
    if arrow is not None:
        return block_ids, starts, ArrowIds(arrow), grades
    doc_id = qrels["doc_id"].to_numpy()
    if doc_id.dtype != object:
        doc_id = _ids(qrels["doc_id"], "qrels['doc_id']")
    return block_ids, starts, doc_id, grades


def _run_arrays(run: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    _columns(run, "run", RUN_COLUMNS)
    score = _scores(run["score"])
    return _ids(run["query_id"], "run['query_id']"), _ids(run["doc_id"], "run['doc_id']"), score


def _scores(column: pd.Series) -> np.ndarray:
    if not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
        raise ValueError(f"run['score'] must hold numbers; got dtype {column.dtype}")
    if column.dtype == np.float64:
        score = column.to_numpy()  # no copy: scores are only read
    else:
        score = column.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(score)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"run['score'] contains {score[row]} in row {row}; scores must be finite numbers"
        )
    return score


def _run_columns(run: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, Any, np.ndarray]:
    """The query id of each block of equal neighbouring query ids and where the blocks
    start (see :func:`_id_blocks`), the doc_ids and the scores, checked as in
    :func:`_run_arrays`.

    The doc_ids of an object column are not checked here: the caller hashes them, which
    checks that each is a str (see :func:`~evalkit._hashing.string_hashes`), and calls
    :func:`_ids` on the column if one is not. A pyarrow-backed column of strings without
    nulls stays in arrow (:class:`ArrowIds`): no Python str is made for its rows."""
    _columns(run, "run", RUN_COLUMNS)
    score = _scores(run["score"])
    arrow = _arrow_strings(run["query_id"])
    coded, changed = _coded_ids(run["query_id"]) if arrow is None else (None, None)
    if coded is not None:
        block_ids, starts = coded, None
    elif arrow is None:
        query_id, starts = _id_blocks(run["query_id"], "run['query_id']", changed)
        block_ids: Any = query_id[starts]
    else:
        block_ids, starts = _arrow_blocks(arrow)
    arrow = _arrow_strings(run["doc_id"])
    if arrow is not None:
        return block_ids, starts, ArrowIds(arrow), score
    doc_id = run["doc_id"].to_numpy()
    if doc_id.dtype != object:
        doc_id = _ids(run["doc_id"], "run['doc_id']")
    return block_ids, starts, doc_id, score


class CodedIds:
    """Ids as the distinct objects of a column (``ids``) and each row's number among them
    (``codes``); equal ids may be distinct objects."""

    def __init__(self, ids: np.ndarray, codes: np.ndarray) -> None:
        self.ids, self.codes = ids, codes


def _coded_ids(column: pd.Series) -> tuple[CodedIds | None, np.ndarray | None]:
    """The ids of an object column whose rows change object often (queries interleaved)
    while its objects recur (each query's id one object), numbered by object: no string
    is compared or hashed per row. None for other columns, or when some id is not a str.
    Whether the objects recur (``ROWS_AN_OBJECT`` rows an object or more) is judged on
    the first ``_REPEATS_SAMPLE`` rows, then confirmed on the numbering of all: a column of
    a few objects shows it at once, and the sample (0.15 ms) costs a fifth of one of the
    whole column (:func:`~evalkit._hashing.repeats_objects`, 0.74 ms at 10^6 rows). The
    rows are numbered as holding the sample's objects
    (:func:`~evalkit._hashing._known_object_codes`, about 2 ms at 10^6 rows, a third of
    :func:`~evalkit._hashing._object_codes` for query ids spread over the heap), or, when
    some row holds another, as holding any. A column whose objects do not recur (one a
    row) is numbered by its strings when its queries are interleaved (:func:`_short_ids`, else
    :func:`_factorized_ids`).

    Also where the column's object references differ from the next row's, when compared
    (an object column's), for :func:`_id_blocks`."""
    from .._hashing import ROWS_AN_OBJECT, _known_object_codes, _object_codes

    values = column.to_numpy()
    if values.dtype != object or not values.flags.c_contiguous:
        return None, None
    references = np.frombuffer(values, dtype=np.intp)
    changed = references[1:] != references[:-1]
    if np.count_nonzero(changed) < values.size // 16:
        return None, changed  # few blocks: _id_blocks is faster (and the check is not needed)
    if values.size < _REPEATS_SAMPLE:
        return None, changed
    sampled = pd.unique(references[:_REPEATS_SAMPLE])
    if sampled.size * ROWS_AN_OBJECT >= _REPEATS_SAMPLE:  # an object a row, or nearly
        short = _short_ids(values)  # False: grouped, told on short ids, not told again
        return (_factorized_ids(values) if short is None else short or None), changed
    # Most often the first rows hold every object: numbered as those, else as any.
    coded = _known_object_codes(values, sampled)
    codes, objects = _object_codes(values) if coded is None else coded
    if objects.size * ROWS_AN_OBJECT >= values.size:
        return None, changed
    ids = np.array(objects, dtype=object)  # references of its own: kept in CodedIds
    if pd.api.types.infer_dtype(ids, skipna=False) != "string":
        return None, changed
    return CodedIds(ids, codes), None


def _short_ids(values: np.ndarray) -> CodedIds | bool | None:
    """:func:`_factorized_ids` for ids of at most 7 ASCII characters (query ids most often:
    TREC's "301", MS MARCO's "1048585"), each read in place as a number
    (:func:`~evalkit._str_memory.short_keys`, one pass over its object where hashing reads
    it twice) and ranked among the numbers of the first ``_REPEATS_SAMPLE`` rows through a
    hash table (:func:`~evalkit._levels.level_ranker`), each row's number then checked
    against the one its rank stands for: a chunk of rows at a time (in the threads of
    ``_for_each``), read, ranked and checked while in cache. At 10^6 rows of 1,000 ids (one
    str object a row), 21 ms on one thread and 17 on two against 26-27 for ``pd.factorize``
    (an Intel Xeon, 2 vCPUs); against the column read whole, then ranked and checked whole,
    ``evaluate`` on such a run (bench_ranking's object copies, interleaved) was as fast on
    one thread and 3% faster on two (paired A/B). The ids first seen after the first rows
    are added, and all rows ranked again. False for a grouped column, told on the first
    rows' numbers as :func:`_factorized_ids` tells it on their strings (0.8 against 1.7 ms
    at 10^6 rows); None for other columns (longer, non-ASCII or not str ids)."""
    from .._levels import level_ranker, level_ranks
    from .._str_memory import _SHORT_CHUNK, _SHORT_CHUNK_ALONE, short_keys, short_keys_here

    head = short_keys(values[:_REPEATS_SAMPLE])
    if head is None:
        return None
    # Keys below 2**59 (the length's top byte): ranked as int64, in the order of uint64.
    known = np.sort(pd.unique(head)).view(np.int64)
    if not _interleaved(np.count_nonzero(head[1:] != head[:-1]), known.size):
        return False
    n = values.size
    keys = np.empty(n, dtype=np.int64)
    codes = np.empty(n, dtype=np.int32)
    rank = level_ranker(known)
    chunk = _chunk_rows(_SHORT_CHUNK, _SHORT_CHUNK_ALONE)
    refused: list[int] = []  # chunks holding an id not read as a number
    unknown: list[int] = []  # chunks holding an id not among ``known``

    def one_chunk(start: int) -> None:
        if refused:  # the column is not numbered this way: the chunks left need not be
            return
        stop = min(start + chunk, n)
        key = keys[start:stop]
        held = min(max(head.size - start, 0), stop - start)  # rows read with the head
        key[:held] = head[start : start + held]
        if held < key.size and not short_keys_here(values[start + held : stop],
                                                   key[held:].view(np.uint64)):
            refused.append(start)
            return
        code = rank(key, codes[start:stop])
        if not np.array_equal(np.take(known, code, mode="clip"), key):
            unknown.append(start)

    _for_each(one_chunk, range(0, n, chunk))
    if refused:
        return None
    seen = head.size  # the first rows, in which each id of ``known`` is seen
    if unknown:  # ids first seen later: ranked again among all
        known = np.union1d(known, keys[np.take(known, codes, mode="clip") != keys])
        codes, seen = level_ranks(keys, known).astype(np.int32), n
    first = np.empty(known.size, dtype=np.intp)  # the first row of each id
    first[codes[:seen][::-1]] = np.arange(seen - 1, -1, -1, dtype=np.intp)
    return CodedIds(values[first], codes)


def _interleaved(moves: int, distinct: int) -> bool:
    """Whether a query column's first rows are interleaved, told from how often the id
    changes from one row to the next (``moves``) and how many distinct ids they hold: at
    least 4 changes a distinct id (a grouped column changes about once each)."""
    return moves >= 4 * distinct


def _factorized_ids(values: np.ndarray) -> CodedIds | None:
    """The ids of an object column of str whose queries are interleaved but whose objects
    do not recur (one object a row, as ``astype(object)`` of a str column makes), numbered
    by ``pd.factorize``: one hash of each row's id, where listing the blocks of equal
    neighbours (each row its own block) compared each row with the next, checked each
    block's type and then hashed each block's id (18 against 48 ms at 10^6 rows of 1,000
    ids). Told on the first ``_REPEATS_SAMPLE`` rows: more blocks than 4 a distinct id.
    None for other columns (grouped ones, or ones holding a missing id or not only str)."""
    head = values[:_REPEATS_SAMPLE]
    try:
        moves = np.count_nonzero(np.asarray(head[1:] != head[:-1], dtype=bool))
    except (TypeError, ValueError):  # e.g. pd.NA, whose comparisons are not booleans
        return None
    if not _interleaved(moves, len(pd.unique(head))):
        return None
    codes, ids = factorize(values)  # a missing id is numbered -1
    ids = np.asarray(ids, dtype=object)
    if codes.min(initial=0) < 0 or pd.api.types.infer_dtype(ids, skipna=False) != "string":
        return None
    return CodedIds(ids, codes.astype(np.int32))


def _arrow_strings(column: pd.Series) -> Any:
    """The column as one pyarrow ``string`` or ``large_string`` array when it is stored in
    arrow (pandas' ``str`` with pyarrow installed, ``string[pyarrow]``, ``ArrowDtype``) and
    has no nulls; else None. pyarrow is imported only for such a column."""
    dtype = column.dtype
    if getattr(dtype, "storage", None) != "pyarrow" and type(dtype).__name__ != "ArrowDtype":
        return None
    import pyarrow as pa

    data = column.array.__arrow_array__()
    if data.type not in (pa.string(), pa.large_string()) or data.null_count:
        return None
    if isinstance(data, pa.ChunkedArray):
        data = data.combine_chunks() if data.num_chunks != 1 else data.chunk(0)
    return data


def _moves(ids: Any, n: int) -> np.ndarray:
    """The rows among the first ``n`` of an arrow string array whose id differs from the
    next one's."""
    import pyarrow.compute as pc

    return np.flatnonzero(pc.not_equal(ids.slice(1, n - 1), ids.slice(0, n - 1))
                          .to_numpy(zero_copy_only=False))


def _arrow_blocks(ids: Any) -> tuple[Any, np.ndarray | None]:
    """The id of each block of equal neighbouring ids of an arrow string array (as
    :class:`ArrowIds`), and where the blocks start: compared in arrow, no Python str made
    per row. When the blocks are many (queries interleaved), every row's id instead (the
    array itself, as :class:`ArrowIds`, with no starts): each row is then looked up in one
    pass (see :func:`arrow_rows_in`), no block gathered. Which is told from the first rows
    first, so that an interleaved column is read once."""
    n = len(ids)
    if n == 0:
        return np.zeros(0, dtype=object), np.zeros(0, dtype=np.intp)
    moves = None
    if _moves(ids, min(n, _BLOCKS_SAMPLE)).size * 16 <= min(n, _BLOCKS_SAMPLE):
        moves = _moves(ids, n)  # few blocks in the first rows: a run grouped by query
    if moves is None or 16 * moves.size > n:
        return ArrowIds(ids), None
    block_ids, starts = _arrow_block_ids(ids, moves)
    return ArrowIds(block_ids), starts


def _arrow_block_ids(ids: Any, moves: np.ndarray) -> tuple[Any, np.ndarray]:
    """The id of each block of equal neighbouring ids of an arrow string array (an arrow
    array) and where the blocks start, from the rows whose id differs from the next one's
    (:func:`_moves`)."""
    starts = np.r_[0, moves + 1]
    return ids.take(starts), starts


def arrow_rows_in(ids: Any, names: np.ndarray) -> np.ndarray:
    """The row of ``names`` (an object array of distinct str) holding each id of an arrow
    string array without nulls, -1 where none does (int32), looked up in arrow
    (``index_in``: its bytes against theirs, which is str equality): no Python str made per
    row. With several threads (see ``_for_each``), a quarter of the ids at a time in them
    (arrow lets go of the GIL). A name that arrow cannot hold (a lone surrogate) equals no
    id: it is looked up as a null."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        value_set = pa.array(names.tolist(), type=ids.type)
    except (pa.ArrowException, UnicodeError):
        value_set = pa.array([name if _encodable(name) else None for name in names.tolist()],
                             type=ids.type)
    n = len(ids)
    rows = _short_rows_in(ids, value_set)
    if rows is not None:
        return rows
    pieces = 4 if _threads() > 1 and n >= 4 * _BLOCKS_SAMPLE else 1
    bounds = [n * i // pieces for i in range(pieces + 1)]
    rows = np.empty(n, dtype=np.int32)

    def look_up(i: int) -> None:
        found = pc.index_in(ids.slice(bounds[i], bounds[i + 1] - bounds[i]),
                            value_set=value_set)
        rows[bounds[i] : bounds[i + 1]] = pc.fill_null(found, -1).to_numpy()

    _for_each(look_up, range(pieces))
    return rows


def _short(strings: Any) -> bool:
    """Whether every string of an arrow string array is at most 12 bytes long (``VIEW_BYTES``):
    held whole in its ``string_view``."""
    import pyarrow.compute as pc

    return len(strings) > 0 and pc.max(pc.binary_length(strings)).as_py() <= VIEW_BYTES


def _short_rows_in(ids: Any, value_set: Any) -> np.ndarray | None:
    """:func:`arrow_rows_in` for ids of at most 12 bytes each, from their views (see
    :func:`_views`): 0.6 of the time of ``index_in`` (10.4 against 17.0 ms at 10^6 rows of
    1,000 ids, one thread). The names' views get slots of
    a table (about 1,000 a name, 2**20 at most), told apart by a multiplicative hash of
    their two words (a few multipliers are tried), and each id is the name its view's slot
    holds when its view equals that name's, else -1 (no other name can equal it: equal
    views share a slot). None when an id and a name are longer, the names are too many (over
    ``_VIEW_NAMES``) or no multiplier sets them apart. A chunk of ids at a time, whose
    temporaries stay in cache; on several threads, half the ids in each of two (cast to
    views and looked up there: 4.4 ms against 5.4 with one cast, at 10^6 rows)."""
    import pyarrow.compute as pc

    if len(value_set) > _VIEW_NAMES:
        return None
    # A name longer than 12 bytes, or null (one arrow cannot hold), is left out of the
    # table. Its equal can only be an id as long, whose view does not hold it whole: then
    # the ids are looked up by index_in. Otherwise an id longer than 12 bytes needs no
    # check (0.8 ms at 10^6 rows): it equals no name in the table, and its view none of
    # theirs, whose first word holds a length of at most 12.
    short = pc.fill_null(pc.less_equal(pc.binary_length(value_set), VIEW_BYTES), False)
    named = np.flatnonzero(short.to_numpy(zero_copy_only=False))
    if named.size < len(value_set) and not _short(ids):
        return None
    if not named.size:
        return np.full(len(ids), -1, dtype=np.int32)
    name_words = _views(value_set.filter(short))
    if name_words is None:
        return None
    bits = min(int(named.size).bit_length() + 10, 20)
    shift = np.uint64(64 - bits)
    for first, second in zip(_MULTIPLIERS[0:16:2], _MULTIPLIERS[1:16:2], strict=True):
        # Below 2**20 after the shift: exact as intp (numpy 2.0 takes no uint64 indices).
        slots = ((name_words[:, 0] * first + name_words[:, 1] * second) >> shift).view(np.intp)
        if np.unique(slots).size == slots.size:
            break
    else:
        return None
    # Each slot's name as 1 + its row in value_set (0: an empty slot; zeros cost no page
    # until touched), and the words of row r - 1 in row r of ``words``, side by side (read
    # by one gather of 16 bytes a row): row 0's and those of names left out are a length
    # over 12, which no id's view has.
    row_at = np.zeros(1 << bits, dtype=np.int32)
    row_at[slots] = named + 1
    words = np.zeros((len(value_set) + 1, 2), dtype=np.uint64)
    words[:, 0] = 2**32 - 1
    words[named + 1] = name_words
    n = len(ids)
    rows = np.empty(n, dtype=np.int32)
    chunk = _chunk_rows(_VIEW_CHUNK, _VIEW_CHUNK_ALONE)

    def one_part(part: tuple[int, int]) -> None:
        begin, end = part
        id_words = _views(ids.slice(begin, end - begin))
        for start in range(0, end - begin, chunk):
            view = id_words[start : start + chunk]
            slot = view[:, 0] * first
            slot += view[:, 1] * second
            slot >>= shift
            out = rows[begin + start : begin + start + len(view)]
            np.take(row_at, slot.view(np.intp), out=out, mode="clip")  # "raise" buffers
            # Both words equal: the pair of booleans read as one uint16 is 0x0101.
            same = (np.take(words, out, axis=0) == view).view(np.uint16).ravel() == 0x0101
            out -= 1
            np.copyto(out, -1, where=~same)

    if _threads() > 1 and n >= 2 * _VIEW_CHUNK:
        _both(lambda: one_part((0, n // 2)), lambda: one_part((n // 2, n)), size=n)
    else:
        one_part((0, n))
    return rows


def _encodable(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class ArrowIds:
    """Ids held in a pyarrow string array, indexed as an object array of str is: a slice
    gives another ``ArrowIds`` (no copy), an array of row numbers an object array of those
    rows' ids (made then), a row number its id. Their string views, once made (to hash
    them, or to confirm a match), are kept: matches are confirmed on them."""

    def __init__(self, data: Any, views: np.ndarray | None = None) -> None:
        self.data = data
        self.size = len(data)
        self._views = views

    def views(self) -> np.ndarray | None:
        """The ids' string views (see :func:`~evalkit._arrow_strings.string_views`), made
        once and kept (a slice of this array keeps its part of them); None when this pyarrow
        has none."""
        if self._views is None and self.size:
            self._views = _views(self.data)
        return self._views

    def keep_views(self, views: np.ndarray) -> None:
        """Keep ``views``, the ids' string views made elsewhere (those of the column they
        were taken from, less the rows dropped)."""
        self._views = views

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, rows: Any) -> Any:
        if isinstance(rows, slice):
            start, stop, step = rows.indices(self.size)
            if step == 1:
                stop = max(stop, start)
                views = None if self._views is None else self._views[start:stop]
                return ArrowIds(self.data.slice(start, stop - start), views)
            rows = np.arange(start, stop, step)
        if np.ndim(rows) == 0:
            return self.data[int(rows)].as_py()
        rows = np.asarray(rows)
        if rows.dtype == bool:  # a mask: the rows kept, still in arrow
            return ArrowIds(self.data.filter(rows))
        if rows.size == 0:
            return np.zeros(0, dtype=object)
        return self.data.take(rows).to_numpy(zero_copy_only=False)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.data.to_numpy(zero_copy_only=False)

    def hashes(self) -> np.ndarray:
        """:func:`~evalkit._hashing.string_hashes` of the ids, from the arrow buffers."""
        from .._hashing import string_hashes

        return string_hashes(self.data, views=self.views())


class ReorderedIds:
    """``ids[order]``, made lazily: indexed as :class:`ArrowIds` is, each look-up gathers
    only the rows asked for (a run sorted by query moves its numbers, not its ids)."""

    def __init__(self, ids: Any, order: np.ndarray) -> None:
        self.ids, self.order = ids, order
        self.size = order.size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, rows: Any) -> Any:
        if isinstance(rows, slice):
            return ReorderedIds(self.ids, self.order[rows])
        if isinstance(self.ids, np.ndarray) and np.ndim(rows):  # read and let go by the caller
            return take_objects(self.ids, self.order[rows])
        return self.ids[self.order[rows]]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.ids[self.order], dtype=object)


def _equal_ids(ids: Any, rows: np.ndarray, other_ids: Any, other_rows: np.ndarray) -> np.ndarray:
    """``ids[rows] == other_ids[other_rows]``, as bool. Object arrays (or ids read through
    an order from one, :class:`ReorderedIds`) are compared on their references first: the
    same object is the same id (as when the qrels and the run were made from one list of
    ids), and only the rows holding two objects compare strings.
    Arrow ids are compared on their string views (:meth:`ArrowIds.views`, kept from their
    hashing): the same length and first 4 bytes, and within 12 bytes the same next 8, is
    the same id; two longer ids alike so far are compared in arrow. Taking the ids from
    arrow to compare them took 5.2 ms of a grouped run and 7.1 ms of an interleaved one
    (whose rows it read in an order jumping through the run), against 1.1 and 1.9 ms on
    the views (pyarrow, 10^6 rows, one thread)."""
    objects, other_objects = _object_rows(ids, rows), _object_rows(other_ids, other_rows)
    if objects is not None and other_objects is not None:
        (ids, rows), (other_ids, other_rows) = objects, other_objects
        equal = (np.frombuffer(ids, dtype=np.intp)[rows]
                 == np.frombuffer(other_ids, dtype=np.intp)[other_rows])
        two = np.flatnonzero(~equal)
        if two.size:
            equal[two] = np.asarray(_names_at(ids, rows[two])
                                    == _names_at(other_ids, other_rows[two]), dtype=bool)
        return equal
    arrow, other_arrow = _arrow_rows(ids, rows), _arrow_rows(other_ids, other_rows)
    if arrow is not None and other_arrow is not None:  # compared in arrow: no str made
        views, other_views = arrow[0].views(), other_arrow[0].views()
        if views is None or other_views is None:  # a pyarrow without string_view
            return _arrow_equal(arrow[0].data, arrow[1], other_arrow[0].data, other_arrow[1])
        left = np.take(views, arrow[1], axis=0)
        right = np.take(other_views, other_arrow[1], axis=0)
        equal = left[:, 0] == right[:, 0]  # the same length and first 4 bytes
        # Within 12 bytes, the same string when the second words are equal too.
        whole = view_lengths(left) <= VIEW_BYTES
        equal &= (left[:, 1] == right[:, 1]) | ~whole
        longer = np.flatnonzero(equal & ~whole)
        if longer.size:
            equal[longer] = _arrow_equal(arrow[0].data, arrow[1][longer],
                                         other_arrow[0].data, other_arrow[1][longer])
        return equal
    return np.asarray(_names_at(ids, rows) == _names_at(other_ids, other_rows), dtype=bool)


def _arrow_equal(data: Any, rows: np.ndarray, other_data: Any, other_rows: np.ndarray
                 ) -> np.ndarray:
    import pyarrow as pa
    import pyarrow.compute as pc

    left, right = data.take(rows), other_data.take(other_rows)
    if left.type != right.type:
        left, right = left.cast(pa.large_string()), right.cast(pa.large_string())
    return pc.equal(left, right).to_numpy(zero_copy_only=False)


def _object_rows(ids: Any, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The object array (:func:`~evalkit._hashing.borrowable`) holding ``ids[rows]`` and
    their rows in it, or None when the ids are not held in one."""
    if isinstance(ids, ReorderedIds) and borrowable(ids.ids):
        return ids.ids, ids.order[rows]
    if borrowable(ids):
        return ids, rows
    return None


def _arrow_rows(ids: Any, rows: np.ndarray) -> tuple[Any, np.ndarray] | None:
    """The :class:`ArrowIds` holding ``ids[rows]`` and their rows in it, or None when the
    ids are not stored in arrow."""
    if isinstance(ids, ReorderedIds) and isinstance(ids.ids, ArrowIds):
        return ids.ids, ids.order[rows]
    if isinstance(ids, ArrowIds):
        return ids, rows
    return None
