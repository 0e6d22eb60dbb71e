"""The qrels and run tables: reading them, their checks, and trec_eval's ranking order.

What the files (:mod:`evalkit.trec._files`) and :func:`evalkit.trec.evaluate` (scoring a run, which
takes a file path as well as a table) share: parsing a qrels or run file, a table's columns
checked and turned into numpy arrays once, the (query, document) pairs hashed to find a
document listed twice, and trec_eval's order of a run's rows (by query, score descending,
then doc_id descending).
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ._measures import block_starts
from ._text_files import read_text as _read_text
from ._text_files import source_name as _source_name

__all__ = ["QRELS_COLUMNS", "RUN_COLUMNS"]

QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RUN_COLUMNS = ("query_id", "doc_id", "score")
# Grades may be negative (trec_eval: -1 is pooled but not judged), so check_counts, which
# wants non-negative numbers, does not fit them; the message follows its grammar.
_GRADES = "grades; a negative one is unjudged"
# Rows per chunk where ids are walked in Python (bounds the temporary lists).
_CHUNK = 1 << 20


# ---------------------------------------------------------------------------------------------
# Parsing TREC files
# ---------------------------------------------------------------------------------------------


def _numbered_lines(text: str) -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if fields:
            yield number, fields


def _first_bad_qrels_line(text: str, name: str) -> None:
    """Raise for the first malformed qrels line (the slow path, run only when parsing failed)."""
    for number, fields in _numbered_lines(text):
        where = f"{name}, line {number}"
        if len(fields) != 4:
            raise ValueError(
                f"{where}: expected 4 fields 'query_id iteration doc_id relevance', "
                f"got {len(fields)}: {' '.join(fields)!r}"
            )
        try:
            int(fields[3])
        except ValueError:
            raise ValueError(
                f"{where}: relevance must be a whole number (e.g. 0, 1, 2, or -1 for unjudged); "
                f"got {fields[3]!r}"
            ) from None


def _first_bad_run_line(text: str, name: str) -> None:
    """Raise for the first malformed run line (the slow path, run only when parsing failed)."""
    for number, fields in _numbered_lines(text):
        where = f"{name}, line {number}"
        if len(fields) < 6:
            raise ValueError(
                f"{where}: expected 6 fields 'query_id Q0 doc_id rank score run_id', "
                f"got {len(fields)}: {' '.join(fields)!r}"
            )
        try:
            score = float(fields[4])
        except ValueError:
            raise ValueError(f"{where}: score must be a number; got {fields[4]!r}") from None
        if not np.isfinite(score):
            raise ValueError(f"{where}: score must be a finite number; got {fields[4]!r}")


def _parse_table(text: str, n_fields: int, *, extra_fields: bool) -> pd.DataFrame | None:
    """Fast C parse of white-space separated fields (all kept as str).

    Returns None when the text is not well formed: the caller then walks the lines itself to
    name the first bad one. A missing field shows up as "" in the last column.
    """
    columns = range(n_fields)
    if not text.strip():
        return pd.DataFrame({i: pd.Series(dtype=object) for i in columns})
    with warnings.catch_warnings():
        # Too many fields on the first line only warns (and drops them): make it an error.
        warnings.simplefilter("error", pd.errors.ParserWarning)
        try:
            return pd.read_csv(
                io.StringIO(text),
                sep=r"\s+",
                header=None,
                names=columns,
                usecols=columns if extra_fields else None,
                index_col=False,
                dtype=str,
                keep_default_na=False,
                na_values=[],
                engine="c",
                quoting=3,  # csv.QUOTE_NONE: quotes are ordinary characters in TREC files
            )
        except (pd.errors.ParserError, pd.errors.ParserWarning, ValueError):
            return None

def _read_qrels(path_or_buffer: Any) -> pd.DataFrame:
    """The body of :func:`evalkit.read_qrels`."""
    text = _read_text(path_or_buffer)
    name = _source_name(path_or_buffer)
    table = _parse_table(text, 4, extra_fields=False)
    relevance = None
    if table is not None and not (table[3] == "").any():
        relevance = pd.to_numeric(table[3], errors="coerce").to_numpy(dtype=np.float64)
        if not (np.isfinite(relevance).all() and np.all(relevance == np.round(relevance))):
            relevance = None
    if relevance is None:
        _first_bad_qrels_line(text, name)
        raise ValueError(f"{name}: could not read it as TREC qrels")  # pragma: no cover
    qrels = pd.DataFrame(
        {
            "query_id": table[0].to_numpy(dtype=object),
            "doc_id": table[2].to_numpy(dtype=object),
            "relevance": relevance.astype(np.int64),
        }
    )
    _check_no_duplicates(qrels, f"{name}: the qrels", "judged twice")
    return qrels


def _read_run(path_or_buffer: Any) -> pd.DataFrame:
    """The body of :func:`evalkit.read_run`."""
    text = _read_text(path_or_buffer)
    name = _source_name(path_or_buffer)
    table = _parse_table(text, 6, extra_fields=True)
    score = None
    if table is not None and not (table[5] == "").any():
        score = pd.to_numeric(table[4], errors="coerce").to_numpy(dtype=np.float64)
        if not np.isfinite(score).all():
            score = None
    if score is None:
        _first_bad_run_line(text, name)
        raise ValueError(f"{name}: could not read it as a TREC run")  # pragma: no cover
    run = pd.DataFrame(
        {
            "query_id": table[0].to_numpy(dtype=object),
            "doc_id": table[2].to_numpy(dtype=object),
            "score": score,
            "run_id": table[5].to_numpy(dtype=object),
            "rank": table[3].to_numpy(dtype=object),
        }
    )
    _check_no_duplicates(run, f"{name}: the run", "retrieved twice")
    return run


# ---------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------


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


def _id_blocks(column: pd.Series, label: str) -> tuple[np.ndarray, np.ndarray]:
    """The ids as :func:`_ids` gives them, and where each block of equal neighbouring ids
    starts (a run lists its queries in blocks).

    Only the first id of each block has its type checked: the others equal it, so they are
    strings too. That saves a pass over a long column, as do the comparisons: equal
    references are one object, hence equal ids, and a file read by pandas holds one object
    per repeated string; ids are compared only where the references differ.
    """
    values = column.to_numpy()
    if values.dtype == object and values.size and values.flags.c_contiguous:
        references = np.frombuffer(values, dtype=np.intp)  # the array's own buffer, no copy
        moved = np.flatnonzero(references[1:] != references[:-1])
        try:
            moved = moved[np.asarray(values[moved + 1] != values[moved], dtype=bool)]
        except (TypeError, ValueError):  # e.g. pd.NA, whose comparisons are not booleans
            moved = None
        if moved is not None:
            starts = np.r_[0, moved + 1]
            if pd.api.types.infer_dtype(values[starts], skipna=False) == "string":
                return values, starts
    values = _ids(column, label)
    return values, block_starts(values)


def _qrels_arrays(qrels: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    _columns(qrels, "qrels", QRELS_COLUMNS)
    relevance = qrels["relevance"]
    if not pd.api.types.is_numeric_dtype(relevance) or pd.api.types.is_bool_dtype(relevance):
        raise ValueError(f"qrels['relevance'] must hold whole numbers ({_GRADES}); got dtype "
                         f"{relevance.dtype}")
    grades = relevance.to_numpy(dtype=np.float64, na_value=np.nan)
    bad = ~np.isfinite(grades) | (grades != np.round(grades))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"qrels['relevance'] must hold whole numbers ({_GRADES}); got "
                         f"{grades[row].item()!r} in row {row}")
    return (
        _ids(qrels["query_id"], "qrels['query_id']"),
        _ids(qrels["doc_id"], "qrels['doc_id']"),
        grades.astype(np.int64),
    )


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


def _run_columns(run: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """As :func:`_run_arrays`, with the starts of the query blocks (see :func:`_id_blocks`)
    after the query ids. The doc_ids of an object column are not checked here: the caller
    hashes them, which checks that each is a str (see :func:`_id_hashes`), and calls
    :func:`_ids` on the column if one is not."""
    _columns(run, "run", RUN_COLUMNS)
    score = _scores(run["score"])
    query_id, starts = _id_blocks(run["query_id"], "run['query_id']")
    doc_id = run["doc_id"].to_numpy()
    if doc_id.dtype != object:
        doc_id = _ids(run["doc_id"], "run['doc_id']")
    return query_id, starts, doc_id, score


def _report_duplicates(
    query_id: np.ndarray, doc_id: np.ndarray, rows: np.ndarray, what: str, verb: str
) -> None:
    pairs = sorted({(str(query_id[r]), str(doc_id[r])) for r in rows[:1000]})
    shown = "; ".join(f"query {q}: {d}" for q, d in pairs[:5])
    more = f" (and {len(pairs) - 5} more)" if len(pairs) > 5 else ""
    raise ValueError(
        f"{what} lists a document more than once for a query ({verb}): {shown}{more}. "
        "trec_eval refuses such input; keep one row per query and document."
    )


def _check_no_duplicates(table: pd.DataFrame, what: str, verb: str) -> None:
    """The readers' check: the same hashed, verified test as :func:`evaluate` uses."""
    code, queries = pd.factorize(table["query_id"].to_numpy())
    _check_pair_duplicates(code, table["doc_id"].to_numpy(), np.asarray(queries, dtype=object),
                           what, verb)


def _check_pair_duplicates(
    code: np.ndarray, doc: np.ndarray, queries: np.ndarray, what: str, verb: str,
    keys: np.ndarray | None = None,
) -> bool:
    """Raise when a (query, document) pair occurs twice; hashing first keeps it fast.

    Returns whether the keys themselves are unique (False only after a hash collision).
    """
    keys = _pair_keys(code, _doc_hashes(doc)) if keys is None else keys
    # Sorting random 64-bit keys is several times faster than a hash table of them. A pair's
    # rows share a query, so when each query's rows are together the keys can be sorted a
    # piece at a time, cut between queries: no copy of all of them.
    repeated = []
    for start, stop in _query_pieces(code):
        ordered = np.sort(keys[start:stop])
        repeated.append(ordered[1:][ordered[1:] == ordered[:-1]])
    repeated = np.concatenate(repeated)
    if repeated.size == 0:
        return True
    # kind="sort": numpy 2.0.0's table method overflows on uint64 keys above 2**63.
    suspects = np.flatnonzero(np.isin(keys, repeated, kind="sort"))
    dup = pd.DataFrame({"q": code[suspects], "d": doc[suspects]}).duplicated().to_numpy()
    if dup.any():  # a true duplicate, not a hash collision
        _report_duplicates(queries[code], doc, suspects[dup], what, verb)
    return False


def _query_pieces(code: np.ndarray) -> list[tuple[int, int]]:
    """Row ranges of about ``_CHUNK`` rows, cut between queries, that hold each query's rows
    whole; one range when the rows of some query are not all together."""
    n = code.size
    if n <= _CHUNK:
        return [(0, n)]
    starts = block_starts(code)
    if np.unique(code[starts]).size != starts.size:  # some query comes back later
        return [(0, n)]
    return _pieces_between(starts, n, _CHUNK)


def _pieces_between(starts: np.ndarray, n: int, size: int) -> list[tuple[int, int]]:
    """Row ranges of about ``size`` of ``n`` rows, each cut at one of ``starts`` (where the
    blocks of one query's rows start)."""
    if n <= size:
        return [(0, n)]
    at = np.searchsorted(starts, np.arange(size, n, size))
    bounds = np.unique(np.r_[0, starts[at[at < starts.size]], n]).tolist()
    return list(zip(bounds[:-1], bounds[1:], strict=True))


# ---------------------------------------------------------------------------------------------
# trec_eval's order of a run's rows, and the (query, document) keys
# ---------------------------------------------------------------------------------------------


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
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """trec_eval's order of the rows (see :func:`_trec_order`) as ``order, positions, rows``:
    the rows ordered by query and score (``None`` when they already are, as in most run
    files), then the rows that ties put at some positions of that order.

    Ties only move rows within their query, so with ``order`` None each row keeps its query's
    place and a caller can skip a gather over the whole run.
    """
    n = score.size
    none = np.zeros(0, dtype=np.intp)
    if n == 0:
        return None, none, none
    same_query = query_code[1:] == query_code[:-1]
    starts = np.flatnonzero(np.r_[True, ~same_query])
    grouped = np.unique(query_code[starts]).size == starts.size
    if grouped and not np.any(same_query & (score[1:] > score[:-1])):
        # Already ranked, as most run files are: only ties may need reordering.
        order = None
        pairs = np.flatnonzero(same_query & (score[1:] == score[:-1]))
    else:
        # Equal scores are ordered by doc_id below, so the score sort need not be stable.
        order = np.argsort(-score)
        codes = query_code[order]
        if codes.max(initial=0) < 2**16:
            codes = codes.astype(np.uint16)  # numpy radix-sorts 16-bit keys
        order = order[np.argsort(codes, kind="stable")]
        ranked_score, ranked_code = score[order], query_code[order]
        pairs = np.flatnonzero((ranked_code[1:] == ranked_code[:-1])
                               & (ranked_score[1:] == ranked_score[:-1]))
    if tie_class is not None and pairs.size:
        pairs = _mixed_blocks(pairs, order, tie_class)
    if pairs.size == 0:
        return order, none, none
    return (order, *_break_ties(order, pairs, doc_id))


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
    names = doc_id[rows]
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


def _pair_keys(
    query_code: np.ndarray, hashes: np.ndarray, n_codes: int | None = None
) -> np.ndarray:
    """A 64-bit key per (query, document) pair, made from the documents' ``hashes`` (from
    :func:`_doc_hashes`) in place; equal pairs get equal keys.

    The query number fills the top bits and the hash the rest, so keys sort grouped by query
    (searches in query order stay in cache). ``n_codes`` (more than the largest query number)
    must be the same for keys that are compared with each other.
    """
    if n_codes is None:
        n_codes = int(query_code.max(initial=0)) + 1
    query_bits = np.uint64(max(int(n_codes - 1).bit_length(), 1))
    hashes >>= query_bits
    for start in range(0, hashes.size, _HASH_CHUNK):  # no temporary as long as the run
        stop = start + _HASH_CHUNK
        hashes[start:stop] |= (query_code[start:stop].astype(np.uint64)
                               << (np.uint64(64) - query_bits))
    return hashes


def _doc_hashes(doc_id: np.ndarray) -> np.ndarray:
    """:func:`_id_hashes` of each id (str), a chunk at a time; chunks in parallel threads
    (see :func:`_for_each`)."""
    hashes = np.empty(doc_id.size, dtype=np.uint64)

    def hash_chunk(start: int) -> None:
        hashes[start : start + _HASH_CHUNK] = _id_hashes(doc_id[start : start + _HASH_CHUNK])

    _for_each(hash_chunk, range(0, doc_id.size, _HASH_CHUNK))
    return hashes


def _threads() -> int:
    """Threads for work split in chunks: ``EVALKIT_THREADS`` if set, else the CPUs this
    process may use, at most 4 (the part that holds the GIL, joining ids, would keep more
    waiting)."""
    setting = os.environ.get("EVALKIT_THREADS", "").strip()
    if setting:
        if not setting.isdigit() or int(setting) < 1:
            raise ValueError(f"the environment variable EVALKIT_THREADS must be a whole number "
                             f">= 1 (threads evalkit may use); got {setting!r}")
        return int(setting)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, cpus or 1))


def _for_each(function: Callable[[Any], None], items: Sequence[Any]) -> None:
    """``function(item)`` for each item; in parallel threads when there are several CPUs and
    at least 4 items. The items must touch disjoint data. numpy releases the GIL in most of
    its loops, so threads overlap those with the parts that need it."""
    threads = _threads()
    if threads == 1 or len(items) < 4:
        for item in items:
            function(item)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for _ in pool.map(function, items):  # re-raises the first error
            pass


# Ids hashed at a time: bounds the joined text (~12 bytes an id) and the arrays beside it,
# and lets threads take turns (see _for_each).
_HASH_CHUNK = 1 << 17


def _splitmix64(x: np.ndarray) -> np.ndarray:
    """Steele, Lea and Flood's SplitMix64 finaliser: every output bit depends on every input
    bit, so the top bits of a hash are as good as the others."""
    x = x ^ (x >> np.uint64(30))
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


def _odd_multipliers(count: int) -> np.ndarray:
    """``count`` fixed, well-mixed odd 64-bit numbers (SplitMix64 of 1, 2, ...)."""
    return _splitmix64(np.arange(1, count + 1, dtype=np.uint64)
                       * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)


# One odd multiplier for the length and one for each 8 bytes of an id (more made on demand).
_MULTIPLIERS = _odd_multipliers(33)
_BYTE_MASKS = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [2**64 - 1], dtype=np.uint64)


def _id_hashes(ids: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each id (a str), equal for equal ids, from their UTF-8 bytes.

    The ids are joined into one bytes object, a single pass in C (``str.join`` also checks
    that each is a str: TypeError if not), and every id is then read 8 bytes at a time in
    numpy: its length and its words, each times its own odd multiplier, summed and mixed.
    Unequal ids can share a hash, rarely; the callers confirm matches on the ids themselves.
    Python's ``hash`` would touch every id from Python, which takes longer for long runs.
    """
    part = ids.tolist()
    if not part:
        return np.zeros(0, dtype=np.uint64)
    text = "\0".join(part).encode("utf-8", "surrogatepass")
    data = np.frombuffer(text, dtype=np.uint8)
    ends = np.flatnonzero(data == 0)  # where each id ends; or a NUL inside an id
    if ends.size == len(part) - 1:
        first = np.r_[0, ends + 1]
        length = np.r_[ends, data.size] - first
    else:  # some id holds a NUL: measure each one (rare)
        length = np.array([len(i.encode("utf-8", "surrogatepass")) for i in part], dtype=np.intp)
        text = "".join(part).encode("utf-8", "surrogatepass")
        first = np.cumsum(length) - length
    return _hash_bytes(text + bytes(8), first, length)


def _hash_bytes(text: bytes, first: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The hash of each byte string ``text[first:first + length]`` (``text`` padded with 8
    zero bytes at its end)."""
    # The 8 bytes from each offset of text, as one (unaligned) integer: a view, no copy.
    words = np.ndarray((len(text) - 7,), dtype=np.uint64, buffer=text, strides=(1,))
    hashed = length.astype(np.uint64) * _MULTIPLIERS[0]
    n_words = (int(length.max(initial=0)) + 7) // 8
    multipliers = _MULTIPLIERS if n_words < _MULTIPLIERS.size else _odd_multipliers(n_words + 1)
    for j in range(n_words):
        # Bytes 8j to 8j + 7 of each id (all of them: a shorter id's are masked to 0), or of
        # just the ids this long when they are few.
        rows: Any = slice(None)
        if j and np.count_nonzero(length > 8 * j) < length.size // 4:
            rows = np.flatnonzero(length > 8 * j)
        at = first[rows] + 8 * j
        if j:  # a short id near the end would read past it: its bytes are masked anyway
            np.minimum(at, words.size - 1, out=at)
        word = words[at]
        remaining = np.clip(length[rows] - 8 * j, 0, 8)
        word &= _BYTE_MASKS[remaining]  # drops the bytes of the next id
        word *= multipliers[j + 1]
        hashed[rows] += word
    # The top bits of a sum of products depend on every byte; fold them into the low bits.
    hashed ^= hashed >> np.uint64(29)
    return hashed
