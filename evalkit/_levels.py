"""Ranks of numbers among a few sorted levels, through a hash table: no sort of the numbers.

The levels are few and known (a column's distinct scores, a sample's distinct query ids);
the numbers are many. Each number's bits, multiplied by a fixed odd constant, name a slot of a
small table that holds the rank of the level in it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._hashing import _GOLDEN

__all__ = ["level_ranker", "level_ranks"]


def level_ranks(values: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """The rank of each value (numbers) among the sorted distinct ``levels``, through a hash
    table (:func:`evalkit.correlation.kendall_tau` ranks tied data with it), int64.

    Multiplicative hashing of the values' bits into a table of 16 slots per level: a few
    passes over the values instead of an argsort and a scatter. The levels that share a slot
    with another (about 1 in 32) are marked, and the values that land in a marked slot are
    searched among the levels instead. :func:`level_ranker` makes the table once for many
    chunks of values.
    """
    return level_ranker(levels, np.int64)(values)


def level_ranker(levels: np.ndarray, dtype: type = np.int32
                 ) -> Callable[..., np.ndarray]:
    """:func:`level_ranks` against ``levels``, as a function ``ranks(values, out=None)`` of
    values of their kind (floats or integers), into ``out`` (of ``dtype``, made when None):
    the table is made once, and each call ranks a chunk of values while its temporaries stay
    in cache."""
    floats = levels.dtype.kind == "f"
    slot_bits = max(4, (16 * len(levels)).bit_length())
    shift = np.uint64(64 - slot_bits)
    slots = (_bits(levels, floats) * _GOLDEN) >> shift
    shared = np.bincount(slots.astype(np.int64), minlength=1 << slot_bits)[slots] > 1
    table = np.full(1 << slot_bits, -1, dtype=dtype)
    table[slots[~shared]] = np.flatnonzero(~shared)

    def ranks(values: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        keys = _bits(values, floats)
        if np.may_share_memory(keys, values):  # the caller's int64 values: not changed
            keys = keys * _GOLDEN
        else:
            keys *= _GOLDEN
        keys >>= shift
        # Below 2**slot_bits: exact as intp, and each names a slot (mode="clip" need not
        # check it, and writes straight to ``out``).
        out = np.take(table, keys.view(np.intp), out=out, mode="clip")
        unresolved = np.flatnonzero(out < 0)
        if len(unresolved):
            out[unresolved] = np.searchsorted(levels, values[unresolved])
        return out

    return ranks


def _bits(values: np.ndarray, floats: bool) -> np.ndarray:
    """Numbers as uint64 words that equal numbers share: floats as float64 (+ 0.0 turns -0.0
    into 0.0), others as int64."""
    if floats:
        return np.add(values, 0.0, dtype=np.float64).view(np.uint64)
    return values.astype(np.int64, copy=False).view(np.uint64)
