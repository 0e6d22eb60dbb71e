"""Notebook helpers: one line that says whether an exercise's answer is right.

An exercise in the notebooks has a prompt, a solution cell (tagged ``solution``) and a check
cell. In the student edition (``make student``) the solution cell becomes a stub such as
``answer_1 = ...``, and the check cell must still run: :func:`check` never raises, and reads
``...`` (or ``NotImplemented``, or a ``NotImplementedError``) as "not answered yet".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["check"]

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


def check(name: str, value: Any, expected: Any, *, tol: float = 1e-9,
          hint: str | None = None) -> None:
    r"""Print whether an exercise's answer is right: "✓ name" or "✗ name: expected …, got …".

    Numbers (a scalar, a tuple, a list or an array) match when every entry is within ``tol``
    of the expected one, :math:`|v - e| \le` ``tol`` (NaN matches NaN), and the shapes agree;
    anything else (text, True/False, a set) must be equal (``==``). The answer ``...``,
    ``NotImplemented`` or a ``NotImplementedError`` (what a student-edition stub assigns)
    prints "not answered yet". The function never raises, so a check cell always runs; it
    prints one line and returns None.

    Parameters
    ----------
    name : str
        What is checked, as shown in the line (usually the answer's variable name).
    value : object
        The reader's answer.
    expected : object
        The right answer, computed in the check cell (with evalkit, or by hand).
    tol : float, default 1e-9
        Largest accepted absolute difference for numbers; raise it when the exercise asks
        for a rounded value (``tol=5e-4`` for three decimals).
    hint : str, optional
        A short tip printed after a wrong answer.

    Returns
    -------
    None
        The verdict is printed, not returned, so a check cell shows one line and no echo.

    Examples
    --------
    >>> check("answer_1", 0.5, 1 / 2)
    ✓ answer_1
    >>> check("answer_1", 0.55, 1 / 2, tol=0.01, hint="precision is TP / (TP + FP)")
    ✗ answer_1: expected 0.5, got 0.55 — precision is TP / (TP + FP)
    >>> check("answer_2", ..., (0.8, 0.5))
    … answer_2: not answered yet (replace the ... with your answer)
    >>> check("answer_3", "macro", "micro")
    ✗ answer_3: expected 'micro', got 'macro'
    """
    label = str(name)
    try:
        if _is_placeholder(value):
            print(f"… {label}: not answered yet (replace the ... with your answer)")
            return
        if not (isinstance(tol, int | float) and not isinstance(tol, bool)
                and math.isfinite(tol) and tol >= 0):
            print(f"✗ {label}: cannot check: tol must be a number >= 0; got {tol!r}")
            return
        problem = _compare(value, expected, float(tol))
    except Exception as error:  # never let a check cell fail in front of a class
        print(f"✗ {label}: could not compare the answer ({type(error).__name__}: {error})")
        return
    if problem is None:
        print(f"✓ {label}")
    else:
        print(f"✗ {label}: {problem}" + (f" — {hint}" if hint else ""))
