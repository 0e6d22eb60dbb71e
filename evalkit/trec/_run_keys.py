"""The (query, document) keys of a run's rows, from its doc_ids' hashes, and the order in
which to hash them: reading each id's object is fastest in the order the objects lie in
memory (see :func:`~evalkit.trec._evaluate._judged_run`)."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from .._hashing import borrowable, repeats_objects, string_hashes
from ._ordering import ChunkMade, _made_whole
from ._pairs import _pair_keys
from ._tables import ArrowIds

__all__: list[str] = []


def _closer_in(doc: Any, order: np.ndarray) -> bool:
    """Whether the objects of an object array lie closer together in memory taken in
    ``order`` than as stored, judged on the first rows (arrow ids: never)."""
    if not borrowable(doc):
        return False
    return _near_pairs(doc, order, 1 << 15) > _near_pairs(doc, None, 1 << 15)


def _in_rank_order(ids: np.ndarray, ranked: np.ndarray, stored: np.ndarray | None) -> bool:
    """Whether the objects of ``ids[ranked]`` lie closer together in memory than those of
    ``ids[stored]`` (``ids`` itself when None), judged on the first rows: a run whose rows
    were shuffled after its ids were made in rank order reads them faster ranked."""
    return _near_pairs(ids, ranked, 1 << 12) > _near_pairs(ids, stored, 1 << 12)


def _near_pairs(ids: np.ndarray, rows: np.ndarray | None, sample: int) -> int:
    """Of the first ``sample`` objects of ``ids[rows]`` (``ids`` when None), how many lie
    within 4 kB of the one before them in memory."""
    references = np.frombuffer(ids, dtype=np.intp)
    references = references[:sample] if rows is None else references[rows[:sample]]
    return int(np.count_nonzero(np.abs(np.diff(references)) < 4096))


def _repeated_run_keys(code: np.ndarray, doc: np.ndarray, n_queries: int) -> np.ndarray:
    """The (query, document) key of each run row (see :func:`_pair_keys`) of an object
    column that holds its objects many times over
    (:func:`~evalkit._hashing.repeats_objects`), each distinct id hashed once;
    :class:`_NotStrings` when an id is not a str."""
    try:
        return _pair_keys(code, string_hashes(doc, repeated=True), n_queries)
    except TypeError:
        raise _NotStrings from None


def _chunk_keys(code: np.ndarray, doc: Any, n_queries: int, start: int,
                stop: int) -> np.ndarray:
    """The (query, document) key of each of the run rows ``start:stop`` (see
    :func:`_pair_keys`), from their doc_ids' hashes (:func:`string_hashes`, or from the arrow
    buffers: see :func:`_with_views`); :class:`_NotStrings` when an id is not a str."""
    return _pair_keys(code[start:stop], _chunk_hashes(doc, start, stop), n_queries)


def _chunk_hashes(doc: Any, start: int, stop: int) -> np.ndarray:
    """The hashes of the doc_ids of the run rows ``start:stop`` (see :func:`_chunk_keys`)."""
    ids = doc[start:stop]
    try:
        return ids.hashes() if isinstance(ids, ArrowIds) else string_hashes(ids, repeated=False)
    except TypeError:
        raise _NotStrings from None


def _ids_read_as_stored(doc: Any) -> tuple[np.ndarray, np.ndarray | None] | None:
    """The hashes of a run's doc_ids as stored, and an arrow run's string views (else None),
    made a chunk at a time (in the threads of ``_for_each``); None when an id is not a str."""
    views = _with_views(doc)
    made = ChunkMade(partial(_chunk_hashes, doc), np.dtype(np.uint64))
    try:
        return _made_whole(made, doc.size), views
    except _NotStrings:
        return None


def _with_views(doc: Any) -> np.ndarray | None:
    """An arrow run's string views (see :meth:`ArrowIds.views`), made whole and kept by
    ``doc`` before its ids are hashed a chunk at a time (each chunk then hashed from its part
    of them), or None (other ids, or a pyarrow with no ``string_view``). Its matches are
    confirmed on them in query order, where reading the ids again would jump through the
    whole run. Cast whole rather than a chunk at a time and copied into one array: at 10^6
    doc_ids, the keys made in 10.9 against 14.2 ms (Intel Xeon, one thread)."""
    return doc.views() if isinstance(doc, ArrowIds) else None


def _read_as_stored(doc: Any) -> bool:
    """Whether a run's doc_ids are hashed in their stored order whatever the rows' order:
    ids not in an object array, or objects that do not recur and lie near each other in
    memory as stored (at least 3 of 4 of the first rows within 4 kB of the one before, as
    ids read row by row from a file most often are; see :func:`_near_pairs`)."""
    if not borrowable(doc):
        return True
    near = _near_pairs(doc, None, 1 << 15)
    return 4 * near >= 3 * min(doc.size - 1, 1 << 15) and not repeats_objects(doc)


class _NotStrings(Exception):
    """Some doc_id of the run is not a str (see
    :func:`~evalkit.trec._evaluate._judged_run`)."""
