"""A vectorised 64-bit hash of strings, shared by the label encoding and the TREC engine.

Hashing millions of ids or labels one at a time in Python is slow; here they are hashed in
numpy, a few machine words at a time. Equal strings get equal hashes; unequal ones share a
hash rarely, and every caller confirms matches on the strings themselves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__: list[str] = []


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
