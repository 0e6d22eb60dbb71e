"""Notebook helpers: one line that says whether an exercise's answer is right.

An exercise in the notebooks has a prompt, a solution cell (tagged ``solution``) and a check
cell. In the student edition (``make student``) the solution cell becomes a stub such as
``answer_1 = ...``, and the check cell must still run: :func:`check` never raises, and reads
``...`` (or ``NotImplemented``, or a ``NotImplementedError``) as "not answered yet".
"""

from __future__ import annotations

import math
from typing import Any

from ._answers import _compare, _is_placeholder
from ._validation import keyword_only

__all__ = ["check"]

@keyword_only
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
