r"""Label encoding and confusion counting, vectorised: shared by the metrics of classes.

Turning two label arrays into a confusion matrix is where the time goes for large inputs, so
this module takes care to do it in few passes: integer labels that span few values are
counted chunk by chunk into a small grid (no array as long as the input), other integers
through a lookup table, and string labels are hashed from their raw code points and checked
against one representative per hash slot (exact, with a fallback to ``np.unique``).
:mod:`evalkit.classification` and :mod:`evalkit.probabilistic` both encode labels here.
"""

from __future__ import annotations

import numpy as np

from ._hashing import string_hashes

__all__ = ["count_correct", "count_matrix", "encode", "factorize_strings", "full_confusion"]

# Integer labels spanning at most this many values are counted with a lookup table instead of
# a sort (np.unique); the table costs 8 bytes per value in the range.
_MAX_DENSE_RANGE = 1 << 22


# --------------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------------


def encode(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Map both label arrays to codes 0..k-1 over the union of their labels.

    The classes come sorted, except for string labels, which come in order of first
    appearance (sorting k classes later is cheaper than renumbering n codes).
    """
    if y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu":
        low = min(int(y_true.min()), int(y_pred.min()))
        high = max(int(y_true.max()), int(y_pred.max()))
        span = high - low + 1
        if span <= _MAX_DENSE_RANGE:
            # Shift in int64: in a small dtype (int16, ...) the subtraction could overflow.
            shifted_true = y_true.astype(np.int64, copy=False) - low
            shifted_pred = y_pred.astype(np.int64, copy=False) - low
            present = (np.bincount(shifted_true, minlength=span) > 0) | (
                np.bincount(shifted_pred, minlength=span) > 0
            )
            classes = np.flatnonzero(present) + low
            if len(classes) == span:  # labels are contiguous: the shift is the code
                return classes, shifted_true, shifted_pred
            lookup = np.cumsum(present) - 1
            return classes, lookup[shifted_true], lookup[shifted_pred]
    if y_true.dtype.kind == "U" and y_pred.dtype.kind == "U":
        factorized = factorize_strings(y_true, y_pred, sort=False)
        if factorized is not None:
            classes, (true_codes, pred_codes) = factorized
            return classes, true_codes, pred_codes
    both = np.concatenate([y_true, y_pred])
    classes, codes = np.unique(both, return_inverse=True)
    codes = codes.reshape(-1)
    return classes, codes[: len(y_true)], codes[len(y_true) :]


_BUCKETS = 1 << 20
_CHUNK = 1 << 15  # rows hashed or checked at a time: keeps each pass in the CPU cache


def _words(values: np.ndarray, itemsize: int) -> np.ndarray:
    """The raw code points of fixed-width strings, as one row of machine words per string."""
    word = np.dtype(np.uint64 if itemsize % 8 == 0 else np.uint32)
    return np.ascontiguousarray(values).view(word).reshape(len(values), itemsize // word.itemsize)


def _hash_block(block: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The hash bucket of each row of code-point words, written to ``out`` (uint64): the top
    bits of the row's :func:`~evalkit._hashing.string_hashes`, which depend on every bit."""
    string_hashes(block, out=out)
    out >>= np.uint64(65 - _BUCKETS.bit_length())
    return out.astype(np.intp)


def factorize_strings(
    *arrays: np.ndarray, sort: bool = True
) -> tuple[np.ndarray, tuple[np.ndarray, ...]] | None:
    """Sorted distinct strings of the arrays together, and each array's codes, by hashing.

    Sorting millions of strings (np.unique) is slow. Here each fixed-width string is hashed
    from its raw code points and its hash bucket gets a slot the first time it is seen, with
    that string as the slot's representative. Every string is then compared, word by word,
    with its slot's representative: if two distinct strings share a bucket the check fails
    and None sends the caller back to np.unique, so the result is always exact. The data are
    processed in chunks that fit the CPU cache (a loop over chunks, not samples).

    With ``sort=False`` the classes come in order of first appearance (saving a pass over
    the codes when only counts are needed).
    """
    itemsize = max(a.dtype.itemsize for a in arrays)
    if itemsize > 256 or itemsize == 0:  # labels over 64 characters: hashing costs more
        return None
    dtype = np.dtype(f"<U{itemsize // 4}")
    words = [_words(a.astype(dtype) if a.dtype != dtype else a, itemsize) for a in arrays]
    n_words, word = words[0].shape[1], words[0].dtype
    slot_of_bucket = np.zeros(_BUCKETS, dtype=np.intp)  # slot + 1; 0 = bucket not seen yet
    representatives = np.empty((64, n_words), dtype=word)
    n_slots = 0
    hashed = np.empty(_CHUNK, dtype=np.uint64)
    slots_per_array = []
    for rows in words:
        slots = np.empty(len(rows), dtype=np.intp)
        for start in range(0, len(rows), _CHUNK):
            block = rows[start : start + _CHUNK]
            bucket = _hash_block(block, hashed[: len(block)])
            slot = slot_of_bucket[bucket]
            new = slot == 0
            if new.any():
                fresh, first = np.unique(bucket[new], return_index=True)
                by_appearance = np.argsort(first)  # slots in order of first appearance,
                fresh, first = fresh[by_appearance], first[by_appearance]  # not of hash
                if n_slots + len(fresh) > len(representatives):
                    grown = np.empty((2 * (n_slots + len(fresh)), n_words), dtype=word)
                    grown[:n_slots] = representatives[:n_slots]
                    representatives = grown
                representatives[n_slots : n_slots + len(fresh)] = block[np.flatnonzero(new)[first]]
                slot_of_bucket[fresh] = np.arange(n_slots + 1, n_slots + len(fresh) + 1)
                n_slots += len(fresh)
                slot = slot_of_bucket[bucket]
            slot -= 1
            if not np.array_equal(representatives[slot], block):
                return None  # two distinct strings share a bucket
            slots[start : start + _CHUNK] = slot
        slots_per_array.append(slots)
    classes = np.ascontiguousarray(representatives[:n_slots]).view(dtype).reshape(n_slots)
    if not sort:
        return classes, tuple(slots_per_array)
    order = np.argsort(classes)
    rank = np.empty(n_slots, dtype=np.intp)
    rank[order] = np.arange(n_slots)
    return classes[order], tuple(rank[slots] for slots in slots_per_array)


def count_correct(y_true: np.ndarray, y_pred: np.ndarray) -> int:
    """The number of rows whose two labels are equal: the trace of their confusion matrix,
    counted without building it (one comparison pass)."""
    return int(np.count_nonzero(y_true == y_pred))


def count_matrix(true_codes: np.ndarray, pred_codes: np.ndarray, n_classes: int) -> np.ndarray:
    flat = true_codes.astype(np.int64, copy=False) * n_classes + pred_codes
    return np.bincount(flat, minlength=n_classes * n_classes).reshape(n_classes, n_classes)


_SMALL_GRID = 1 << 16  # integer labels spanning at most 256 values: count chunk by chunk


def _small_integer_confusion(
    y_true: np.ndarray, y_pred: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Counts of integer labels spanning few values, without any array as long as the input.

    Every (true, predicted) pair of the span is a cell of a small grid; chunks that fit the
    CPU cache are counted into it, and the classes are the rows and columns that are used.
    """
    low = min(int(y_true.min()), int(y_pred.min()))
    high = max(int(y_true.max()), int(y_pred.max()))
    span = high - low + 1
    if span * span > _SMALL_GRID or max(abs(low), abs(high)) > 1 << 50:  # keep t * span exact
        return None
    grid = np.zeros(span * span, dtype=np.int64)
    cell = np.empty(min(len(y_true), _CHUNK), dtype=np.int64)
    for start in range(0, len(y_true), _CHUNK):  # a loop over chunks, not samples
        stop = min(start + _CHUNK, len(y_true))
        out = cell[: stop - start]
        out[:] = y_true[start:stop]  # to int64 first: small dtypes would overflow below
        out *= span
        out += y_pred[start:stop]
        if low:
            out -= low * (span + 1)
        grid += np.bincount(out, minlength=span * span)
    grid = grid.reshape(span, span)
    used = (grid.sum(axis=1) > 0) | (grid.sum(axis=0) > 0)
    return np.flatnonzero(used) + low, grid[np.ix_(used, used)]


def full_confusion(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Confusion matrix over every label seen in the data, sorted, and those labels."""
    if y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu":
        small = _small_integer_confusion(y_true, y_pred)
        if small is not None:
            return small
    classes, true_codes, pred_codes = encode(y_true, y_pred)
    matrix = count_matrix(true_codes, pred_codes, len(classes))
    order = np.argsort(classes, kind="stable")
    if (order != np.arange(len(classes))).any():
        classes, matrix = classes[order], matrix[np.ix_(order, order)]
    return classes, matrix
