"""How an exercise's answer is judged: what counts as "not answered yet" (a student-edition
stub), and whether a value matches the expected one within a tolerance. Shared by
:func:`evalkit.check`, which prints the verdict in the student's kernel, and
:mod:`evalkit.course.grading`, which marks the same answers outside it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

#: What a student-edition stub assigns before the exercise is done.
_PLACEHOLDERS = (Ellipsis, NotImplemented, NotImplementedError)
_MAX_SHOWN = 60  # characters of a value shown in a "✗" line


def _is_placeholder(value: Any) -> bool:
    if any(value is placeholder for placeholder in _PLACEHOLDERS):
        return True
    if isinstance(value, NotImplementedError):
        return True
    # A stub for a pair, e.g. ``answer_1 = (..., ...)``, is not answered while any part is.
    if isinstance(value, tuple | list):
        return any(_is_placeholder(part) for part in value)
    return False


def _show(value: Any, precise: bool = False) -> str:
    """A short one-line view of ``value``; ``precise`` shows every digit of its numbers."""
    array = _numeric(value) if isinstance(value, np.ndarray | tuple | list) else None
    if isinstance(value, float | np.floating):
        text = repr(float(value)) if precise else f"{float(value):.6g}"
    elif array is not None:
        text = np.array2string(array, precision=None if precise else 6, separator=", ",
                               threshold=8, floatmode="unique" if precise else "maxprec")
        if isinstance(value, tuple):
            text = "(" + text[1:-1] + ")"
    else:
        text = repr(value)
    text = " ".join(text.split())  # one line, whatever the value's repr does
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


def _numeric(value: Any) -> np.ndarray | None:
    """``value`` as a float array, or None when it is not numbers (text, None, objects)."""
    if isinstance(value, str | bytes | Mapping) or value is None:
        return None
    try:
        array = np.asarray(value)
    except Exception:
        return None
    if array.dtype == object or not (np.issubdtype(array.dtype, np.number)
                                     or array.dtype == bool):
        return None
    return array.astype(np.float64)


def _compare(value: Any, expected: Any, tol: float) -> str | None:
    """None when ``value`` matches ``expected``; otherwise why not, in a few words."""
    want, got = _numeric(expected), _numeric(value)
    if want is not None:
        if got is None:
            return f"expected {_show(expected)}, got {_show(value)} (not a number)"
        if got.shape != want.shape:
            shape = "a single number" if want.ndim == 0 else f"{want.size} numbers"
            return f"expected {shape} like {_show(expected)}, got {_show(value)}"
        if np.allclose(got, want, rtol=0.0, atol=tol, equal_nan=True):
            return None
        precise = _show(expected) == _show(value)  # then show the digits where they differ
        return f"expected {_show(expected, precise)}, got {_show(value, precise)}"
    try:
        same = bool(value == expected)
    except Exception:  # e.g. arrays of objects that cannot be compared as a whole
        same = False
    return None if same else f"expected {_show(expected)}, got {_show(value)}"
