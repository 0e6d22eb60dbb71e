"""Reading pyarrow string arrays from their buffers, for the hashing and the TREC tables.

pyarrow is imported only by these functions, which are called only on arrow arrays (pandas'
``str`` columns when pyarrow is installed, ``string[pyarrow]``, ``ArrowDtype``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["VIEW_BYTES", "string_views", "view_lengths"]

#: The longest string an arrow ``string_view`` holds whole (see :func:`string_views`).
VIEW_BYTES = 12


def string_views(strings: Any) -> np.ndarray | None:
    """Each string of an arrow string array without nulls as its ``string_view``: two
    uint64 words, its length and first 4 bytes, then, for a string of at most 12 bytes
    (``VIEW_BYTES``), its bytes 4 to 11, zero-padded (equal views of such strings are
    equal strings); for a longer one, where its bytes lie. None when this pyarrow has no
    ``string_view``.

    A slice is cast as an array of its own (its offsets from where it starts, the same
    bytes): pyarrow's cast of a slice takes longer the further in it starts (a slice of
    131,072 ids 4 million ids in: 1.0 ms, as its own array 0.2)."""
    import pyarrow as pa

    n = len(strings)
    if strings.offset:
        _, offsets, data = strings.buffers()
        width = 8 if strings.type.id == _large_string_id() else 4
        offsets = offsets.slice(strings.offset * width, (n + 1) * width)
        strings = pa.Array.from_buffers(strings.type, n, [None, offsets, data])
    try:
        views = strings.cast(pa.string_view())
    except (AttributeError, pa.ArrowNotImplementedError):  # pyarrow before 16
        return None
    words = np.frombuffer(views.buffers()[1], dtype=np.uint64)
    return words[2 * views.offset : 2 * (views.offset + n)].reshape(n, 2)


def view_lengths(words: np.ndarray) -> np.ndarray:
    """The byte length of each string from its view (:func:`string_views`): the low 32
    bits of its first word (uint64, a new array)."""
    return words[:, 0] & np.uint64(2**32 - 1)


def _large_string_id() -> int:
    import pyarrow as pa  # only called on an arrow array: pyarrow is there

    return pa.large_string().id
