"""(query, document) pairs: a 64-bit key for each, and the check that none occurs twice.

trec_eval refuses a qrels or run that lists a document twice for a query. The pairs are
hashed to 64-bit keys (the query number in the top bits, the document's hash in the rest),
checked a piece at a time, and only equal keys are confirmed on the ids themselves, so that a
hash collision never counts as a duplicate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the functions that need it
    import pandas as pd

from .._factorize import factorize
from .._hashing import repeats_objects, string_hashes
from .._threads import _for_each, _pieces_between
from ._measures import block_starts
from ._ordering import _all_distinct

__all__: list[str] = []

# Ids hashed at a time: bounds the joined text (~12 bytes an id) and the arrays beside it,
# and lets threads take turns (see _for_each).
_HASH_CHUNK = 1 << 17
# Keys checked for repeats in one hash table: its ~0.5 MB stay in a CPU's L2 cache.
_TABLE_KEYS = 1 << 15


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
    """The readers' check: the same hashed, verified test as :func:`~evalkit.trec.evaluate`
    uses."""
    _check_no_duplicate_pairs(table["query_id"].to_numpy(), table["doc_id"].to_numpy(),
                              what, verb)


def _check_no_duplicate_pairs(query_id: np.ndarray, doc_id: np.ndarray, what: str,
                              verb: str) -> None:
    """:func:`_check_no_duplicates` on the columns as object arrays of str: a reader checks
    the ids it parsed before they go into a table (pandas 3 then stores them in arrow, which
    a check of the table would turn back into objects, a copy of every id)."""
    code, queries = factorize(query_id)
    _check_pair_duplicates(code, doc_id, np.asarray(queries, dtype=object), what, verb)


def _check_pair_duplicates(
    code: np.ndarray, doc: np.ndarray, queries: np.ndarray, what: str, verb: str,
    keys: np.ndarray | None = None,
) -> bool:
    """Raise when a (query, document) pair occurs twice; hashing first keeps it fast.

    Returns whether the keys themselves are unique (False only after a hash collision).
    """
    keys = _pair_keys(code, _doc_hashes(doc)) if keys is None else keys
    # A pair's rows share a query, so when each query's rows are together the keys can be
    # checked a small piece at a time, cut between queries.
    repeated = [_repeated_keys(keys[start:stop]) for start, stop in _query_pieces(code)]
    return _confirm_duplicates(code, doc, queries, what, verb, keys, np.concatenate(repeated))


def _repeated_keys(keys: np.ndarray) -> np.ndarray:
    """The keys that occur more than once (each at least once).

    Up to ``_TABLE_KEYS`` keys go into a hash table (pandas'), which then stays in the CPU's
    cache: a few ns a key. More are sorted: a hash table that outgrows the cache is slower
    than numpy's sort. (numpy's sort of 64-bit keys takes 6 ns a key on Intel CPUs with
    AVX-512, but 30-60 on AMD Zen 4, where the AVX-512 store it relies on is slow; the
    table is as fast on both.)
    """
    import pandas as pd

    if keys.size <= _TABLE_KEYS:
        index = pd.Index(keys, copy=False)
        return keys[:0] if index.is_unique else keys[index.duplicated()]
    return _sorted_repeats(np.sort(keys))


def _sorted_repeats(ordered: np.ndarray) -> np.ndarray:
    """The keys that occur more than once in sorted keys (each at least once)."""
    return ordered[1:][ordered[1:] == ordered[:-1]]


def _confirm_duplicates(
    code: np.ndarray, doc: np.ndarray, queries: np.ndarray, what: str, verb: str,
    keys: np.ndarray, repeated: np.ndarray,
) -> bool:
    """The end of :func:`_check_pair_duplicates`, given the ``keys`` that occur more than
    once (``repeated``): raise when two of their rows are one pair; False when some are
    not (a hash collision), True when there were none."""
    import pandas as pd

    if repeated.size == 0:
        return True
    # kind="sort": numpy 2.0.0's table method overflows on uint64 keys above 2**63.
    suspects = np.flatnonzero(np.isin(keys, repeated, kind="sort"))
    docs = doc[suspects]
    if isinstance(docs, np.ndarray):  # numbered first: pandas 2 cut str at a NUL
        docs = factorize(docs)[0]
    dup = pd.DataFrame({"q": code[suspects], "d": docs}).duplicated().to_numpy()
    if dup.any():  # a true duplicate, not a hash collision
        _report_duplicates(queries[code], doc, suspects[dup], what, verb)
    return False


def _query_pieces(code: np.ndarray) -> list[tuple[int, int]]:
    """Row ranges of about half ``_TABLE_KEYS`` rows, cut between queries, that hold each
    query's rows whole; one range when the rows of some query are not all together."""
    n = code.size
    if n <= _TABLE_KEYS:
        return [(0, n)]
    starts = block_starts(code)
    if not _all_distinct(code[starts]):  # some query comes back later
        return [(0, n)]
    return _pieces_between(starts, n, _TABLE_KEYS // 2)


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
    """:func:`~evalkit._hashing.string_hashes` of each id (str), a chunk at a time; chunks
    in parallel threads (see :func:`~evalkit._threads._for_each`)."""
    if hasattr(doc_id, "hashes"):  # ids in arrow (_tables.ArrowIds): from its buffers
        return doc_id.hashes()
    if isinstance(doc_id, np.ndarray) and repeats_objects(doc_id):
        return string_hashes(doc_id, repeated=True)  # each distinct object once, all first
    hashes = np.empty(doc_id.size, dtype=np.uint64)
    # Checked once for the whole column: the chunks are hashed row by row.
    repeated = False if isinstance(doc_id, np.ndarray) else None

    def hash_chunk(start: int) -> None:
        hashes[start : start + _HASH_CHUNK] = string_hashes(doc_id[start : start + _HASH_CHUNK],
                                                            repeated=repeated)

    _for_each(hash_chunk, range(0, doc_id.size, _HASH_CHUNK))
    return hashes
