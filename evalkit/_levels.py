"""Ranks of numbers among a few sorted levels, through a hash table: no sort of the numbers.

The levels are few and known (a column's distinct scores, a sample's distinct query ids);
the numbers are many. Each number's bits, multiplied by a fixed odd constant, name a slot of a
small table that holds the rank of the level in it.
"""

from __future__ import annotations

import numpy as np

from ._hashing import _GOLDEN

__all__ = ["level_ranks"]


def level_ranks(values: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """The rank of each value (numbers) among the sorted distinct ``levels``, through a hash
    table (:func:`evalkit.correlation.kendall_tau` ranks tied data with it).

    Multiplicative hashing of the values' bits into a table of 16 slots per level: a few
    passes over the values instead of an argsort and a scatter. The levels that share a slot
    with another (about 1 in 32) are marked, and the values that land in a marked slot are
    searched among the levels instead.
    """
    if values.dtype.kind == "f":  # + 0.0 turns -0.0 into 0.0: equal values, equal bits
        keys, level_keys = (np.add(v, 0.0, dtype=np.float64).view(np.uint64)
                            for v in (values, levels))
    else:
        keys, level_keys = (v.astype(np.int64).view(np.uint64) for v in (values, levels))
    slot_bits = max(4, (16 * len(levels)).bit_length())
    shift = np.uint64(64 - slot_bits)
    slots = (level_keys * _GOLDEN) >> shift
    shared = np.bincount(slots.astype(np.int64), minlength=1 << slot_bits)[slots] > 1
    table = np.full(1 << slot_bits, -1, dtype=np.int64)
    table[slots[~shared]] = np.flatnonzero(~shared)
    keys *= _GOLDEN
    keys >>= shift
    ranks = table[keys]
    unresolved = np.flatnonzero(ranks < 0)
    if len(unresolved):
        ranks[unresolved] = np.searchsorted(levels, values[unresolved])
    return ranks
