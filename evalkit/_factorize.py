r"""Numbering ids with pandas' hash tables, exact for ids that hold a NUL character.

``pd.factorize`` and ``pd.unique`` number an object array of str in a table of C strings
(pandas' ``StringHashTable``). Before pandas 3.0 that table hashed and compared each string
only up to its first NUL character, so that ids which differ only after one were numbered as
one: ``pd.factorize(["a\0b", "a\0c"])`` gives a single code on pandas 2.2.2 and 2.3.3, and two
queries of a run were scored as one query, without a word. pandas 3 compares whole strings.

Where this pandas cuts at NUL (tried once, on two ids, not told from its version), the arrays
that hold a NUL are numbered in pandas' table of Python objects instead, which compares whole
strings (two to three times as slow); finding whether one does costs a pass over the text
(``str.join``, a chunk at a time). Elsewhere, and for every other array, these are
``pd.factorize`` and ``pd.unique`` themselves.

Class labels given as Python strings become numpy strings (:func:`string_labels`), which
drop trailing NULs: a label ending in one is refused rather than merged with its neighbour.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

__all__ = ["factorize", "string_labels", "unique"]

# Ids joined at a time to look for a NUL: the joined text stays small.
_CHUNK = 1 << 16
# Appended to an array of str, it makes pandas number the array in its table of objects.
_NOT_A_STRING = object()


@functools.cache
def _cuts_at_nul() -> bool:
    """Whether this pandas numbers str as C strings, cut at their first NUL."""
    import pandas as pd

    return len(pd.factorize(np.array(["a\0b", "a\0c"], dtype=object))[1]) == 1


def _text_with_nul(values: Any) -> np.ndarray | None:
    """``values`` as an object array when this pandas would number them wrongly (str holding
    a NUL, numbered by pandas as C strings), else None."""
    if not _cuts_at_nul():
        return None
    if isinstance(values, np.ndarray):
        if values.dtype != object:
            return None  # numpy's own strings and numbers: not numbered as C strings
        array = values
    else:  # a Series, an Index or a pandas array: arrow strings are hashed whole by arrow
        dtype = getattr(values, "dtype", None)
        storage = getattr(dtype, "storage", None)
        if not (isinstance(dtype, np.dtype) and dtype.kind == "O" or storage == "python"):
            return None
        array = np.asarray(values, dtype=object)
    for start in range(0, array.size, _CHUNK):
        try:
            if "\0" in "".join(array[start:start + _CHUNK]):
                return array
        except TypeError:  # not only str: pandas numbers them in its table of objects
            return None
    return None


def factorize(values: Any) -> tuple[np.ndarray, Any]:
    """``pd.factorize(values)``: each value's code and the distinct values in order of first
    appearance (missing values coded -1), equal codes only for equal strings. Where pandas
    would merge ids that differ after a NUL, the distinct values come as an object array."""
    import pandas as pd

    array = _text_with_nul(values)
    if array is None:
        return pd.factorize(values)
    codes, uniques = pd.factorize(np.append(array, _NOT_A_STRING))
    return codes[:-1], uniques[:-1]


def unique(values: Any) -> Any:
    """``pd.unique(values)``: the distinct values in order of first appearance, strings told
    apart whole (see :func:`factorize`)."""
    import pandas as pd

    array = _text_with_nul(values)
    if array is None:
        return pd.unique(values)
    return pd.unique(np.append(array, _NOT_A_STRING))[:-1]


# Labels looked at first to tell class labels (few distinct) from ids (mostly distinct).
_LABELS_SAMPLE = 1 << 12


def string_labels(array: np.ndarray, name: str) -> np.ndarray:
    """An object array of str (or bytes) labels as a numpy string array, refusing a label
    that ends in a NUL character: numpy's strings drop trailing NULs, so ``"a\\0"`` would
    become ``"a"`` and two classes one (scikit-learn, which keeps objects, tells them apart).

    Class labels (few distinct values, judged on the first rows) are numbered, each
    distinct label converted and checked once, and the rows take theirs by number: at 10^6
    rows of 20 classes, 54 ms against 124 for converting every row. Mostly distinct
    labels are converted row by row, and looked through for a NUL (``str.join``) first.
    """
    sample = array[:_LABELS_SAMPLE]
    if array.size > sample.size and 4 * len(factorize(sample)[1]) > sample.size:
        _refuse_trailing_nul(name, _ending_in_nul(array))
        return array.astype(str)
    codes, distinct = factorize(array)  # whole strings, NULs included, on every pandas
    distinct = np.asarray(distinct, dtype=object)
    _refuse_trailing_nul(name, [label for label in distinct if label[-1:] in ("\0", b"\0")])
    if codes.size and codes.min() < 0:  # a missing value: refused before, kept as numpy would
        return array.astype(str)
    return distinct.astype(str)[codes]


def _ending_in_nul(array: np.ndarray) -> list[Any]:
    """The labels of an object array of str or bytes that end in a NUL: each chunk is
    joined and searched for a NUL (one character, which CPython finds with ``memchr``; a
    search for two characters reads every one: 8.2 against 0.1 ms over 10^6 joined
    labels), and only a chunk that holds one is looked through label by label."""
    for start in range(0, array.size, 1 << 16):
        chunk = array[start : start + (1 << 16)]
        nul = b"\0" if isinstance(chunk[0], bytes) else "\0"
        if nul in nul[:0].join(chunk):  # a NUL somewhere in the chunk's labels (rare)
            ending = [label for label in chunk if label[-1:] == nul]
            if ending:
                return ending
    return []


def _refuse_trailing_nul(name: str, labels: list[Any]) -> None:
    if labels:
        label = labels[0]
        raise ValueError(
            f"{name} holds the label {label!r}, which ends in a NUL character; numpy "
            f"strings drop trailing NULs, so it could not be told from "
            f"{label.rstrip(label[-1:])!r}. Rename the label (e.g. without the NUL)"
        )
