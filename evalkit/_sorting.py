"""Sorts whose fastest numpy spelling depends on the CPU, chosen by measuring once.

numpy's default sort runs SIMD code where the CPU has it (x86-simd-sort's AVX-512 quicksort).
On Intel cores that is numpy's fastest sort. On AMD Zen 4 the same code is several times
slower, because its partition step stores with ``vpcompressq``, which Zen 4 runs in microcode
(x86-simd-sort issue #6): a sort of 10^6 random uint64 takes about 6 ms on an Intel Xeon and
50-70 ms on an AMD EPYC of that generation. Two numpy sorts do not use that code:

- the stable argsort of 16-bit keys is a radix sort, so four of them (``np.lexsort`` of a
  64-bit key's four 16-bit digits) put 10^6 floats in order in about 37 ms on either CPU;
- the stable sort of wider integers is timsort, which merges two sorted runs in one linear
  pass (about 4 ms per 10^6 int32, whatever their length).

Which spelling is faster on the running CPU is measured the first time a caller needs to know,
on a few thousand items, and kept for the process. Only speed depends on it: the
callers' results are the same either way (:func:`argsort_numbers` may order tied values
differently, and its callers use the order only through ranks that tied values share, or on
untied values).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

import numpy as np

__all__ = ["argsort_numbers", "sort_codes", "takes_radix", "simd_sort_is_slow", "merge_kind",
           "best_time", "RADIX_MIN", "RADIX_MAX"]

# Each spelling is timed on this many items, best of _PROBE_ROUNDS: about 1 ms (argsorts) and
# 2 ms (merges) on the Zen 4 above, so that a short job does not pay much for the choice.
_PROBE_ITEMS = 1 << 13
_MERGE_PROBE_ITEMS = 1 << 15
_PROBE_ROUNDS = 3
_MERGE_WIDTH = 4096  # the probe's merges: runs this long, as in a late level of a merge sort
# Shorter arrays are argsorted by numpy's default sort, without probing. On the Zen 4 above the
# radix sort is 1.7x as fast from 2^12 items (0.06 against 0.11 ms), 2x at 2^13 and above.
RADIX_MIN = 1 << 12
# Longer arrays too: the radix sort's passes then scatter over more memory than the CPU's cache
# holds. Zen 4, 10^7 (query, doc) keys grouped by query: numpy's argsort 0.79 s (it gains from
# the order the keys are partly in), the radix sort 1.05 s; at 10^6, 74 against 47 ms.
RADIX_MAX = 1 << 21
_SIGN = np.uint64(1 << 63)


def best_time(function: Callable[[np.ndarray], object], data: np.ndarray) -> float:
    """The shortest of _PROBE_ROUNDS calls, each on its own copy of data (made untimed)."""
    best = float("inf")
    for _ in range(_PROBE_ROUNDS):
        copy = data.copy()
        start = time.perf_counter()
        function(copy)
        best = min(best, time.perf_counter() - start)
    return best


def _radix_argsort(values: np.ndarray) -> np.ndarray:
    """A stable argsort of float64, int64 or uint64 values, by four radix passes over 16-bit
    digits.

    The values become unsigned keys in the same order: an int64's sign bit flipped; a
    float64's sign bit set when it is positive, and every bit flipped when it is negative.
    -0.0 gets a key below 0.0's, so the two (equal values) are not interleaved; any order of
    tied values is an order that sorts them.
    """
    bits = np.ascontiguousarray(values).view(np.uint64)
    if values.dtype.kind == "f":
        keys = (bits.view(np.int64) >> 63).view(np.uint64)  # all ones where negative
        keys |= _SIGN
        keys ^= bits
    elif values.dtype.kind == "i":
        keys = bits ^ _SIGN
    else:  # uint64: the keys themselves
        keys = bits
    return _lexsort_digits(keys, 4)


def _lexsort_digits(keys: np.ndarray, used: int) -> np.ndarray:
    """A stable argsort of uint64 or int64 keys by their ``used`` low 16-bit digits (one radix
    pass each; the higher digits must not matter)."""
    digits = np.ascontiguousarray(keys).view(np.uint16).reshape(-1, 4).T
    if not np.little_endian:  # pragma: no cover - no big-endian CI machine
        digits = digits[::-1]
    return np.lexsort(digits[:used])  # np.lexsort sorts by its last key, the top digit, first


@functools.cache
def _radix_wins() -> bool:
    values = np.random.default_rng(0).random(_PROBE_ITEMS)
    return best_time(_radix_argsort, values) < best_time(np.argsort, values)


def simd_sort_is_slow(values: np.ndarray) -> bool:
    """Whether numpy's default sort of these values is the slow choice on this CPU.

    True for float64, int64 or uint64 arrays of at least ``RADIX_MIN`` items when numpy's
    argsort lost to the radix sort in the probe: :func:`argsort_numbers` then takes the radix
    sort, and callers with another way round a sort (hashing few distinct values) take theirs.
    """
    return (len(values) >= RADIX_MIN and values.dtype in (np.float64, np.int64, np.uint64)
            and _radix_wins())


def takes_radix(values: np.ndarray) -> bool:
    """Whether :func:`argsort_numbers` and :func:`sort_codes` take the radix sort: numpy's sort
    is the slow choice here, and the array has at most ``RADIX_MAX`` items."""
    return len(values) <= RADIX_MAX and simd_sort_is_slow(values)


def argsort_numbers(values: np.ndarray) -> np.ndarray:
    """An order that sorts float64, int64 or uint64 values ascending (ties in any order).

    By numpy's default argsort, or by a radix sort where that is faster on this CPU and the
    array has ``RADIX_MIN`` to ``RADIX_MAX`` items. Other dtypes: numpy's default argsort.
    """
    return _radix_argsort(values) if takes_radix(values) else np.argsort(values)


def sort_codes(codes: np.ndarray, bits: int) -> np.ndarray:
    """Non-negative int64 codes below ``2**bits``, sorted ascending (a new array).

    By numpy's default sort, or where the radix sort is faster on this CPU, by a radix sort
    of only the codes' ``ceil(bits / 16)`` low 16-bit digits and a gather.
    """
    if not takes_radix(codes):
        return np.sort(codes)
    return codes[_lexsort_digits(codes, max(1, -(-bits // 16)))]


@functools.cache
def merge_kind() -> str | None:
    """The ``kind`` of ``ndarray.sort`` that merges rows of two sorted int32 runs the faster.

    None (numpy's default sort) or "stable" (timsort). For runs of 256 items or fewer the
    default sort's sorting networks are fast on both CPUs above; callers ask only for longer
    runs.
    """
    rng = np.random.default_rng(0)
    table = rng.integers(0, 1 << 29, _MERGE_PROBE_ITEMS,
                         dtype=np.int32).reshape(-1, 2 * _MERGE_WIDTH)
    table[:, :_MERGE_WIDTH].sort(axis=1)
    table[:, _MERGE_WIDTH:].sort(axis=1)
    default = best_time(lambda rows: rows.sort(axis=1), table)
    stable = best_time(lambda rows: rows.sort(axis=1, kind="stable"), table)
    return "stable" if stable < default else None
