"""Notebook helpers: one line that says whether an exercise's answer is right.

An exercise in the notebooks has a prompt, a solution cell (tagged ``solution``) and a check
cell. In the student edition (``make student``) the solution cell becomes a stub such as
``answer_1 = ...``, and the check cell must still run: :func:`check` never raises, and reads
``...`` (or ``NotImplemented``, or a ``NotImplementedError``) as "not answered yet". The
student edition's check cells compare with an :class:`AnswerDigest` (a salted hash of the
answer) instead of the expected value, so the answers are not in what students receive.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import secrets
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from .._validation import keyword_only
from ._answers import _compare, _is_placeholder, _numeric, _show

__all__ = ["check", "AnswerDigest"]  # AnswerDigest: ek.checks.AnswerDigest

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
    expected : object or AnswerDigest
        The right answer, computed in the check cell (with evalkit, or by hand); in the
        student edition an :class:`AnswerDigest`, which carries its own tolerance (``tol``
        is then not used) and never shows the answer.
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
    >>> check("answer_1", 0.55, AnswerDigest.of(0.5, tol=0.01), hint="TP / (TP + FP)")
    ✗ answer_1: 0.55 is not the expected answer — TP / (TP + FP)
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
        if isinstance(expected, AnswerDigest):
            if expected.kind == "hidden":
                print(f"… {label}: answered; this exercise has no self-check (your "
                      "lecturer's grader marks it)")
                return
            problem = expected.problem(value)
        else:
            problem = _compare(value, expected, float(tol))
    except Exception as error:  # never let a check cell fail in front of a class
        print(f"✗ {label}: could not compare the answer ({type(error).__name__}: {error})")
        return
    if problem is None:
        print(f"✓ {label}")
    else:
        print(f"✗ {label}: {problem}" + (f" — {hint}" if hint else ""))


# --- answers the student edition may carry: a salted hash, never the value ---------------------

_DIGEST_PREFIX = "ekd1:"
_ITERATIONS = 20_000  # PBKDF2-SHA256 rounds per entry: ~4 ms, so each guess costs that much
_MIN_ITERATIONS = 2_000  # long arrays: fewer rounds per entry, the same total cost
_STEPS_PER_TOL = 4  # numbers are rounded to a grid of tol / 4 before they are hashed


def _canonical(value: Any) -> str:
    """A text for a non-numeric answer that is equal exactly when the values are (``==``)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool | int | float) and not isinstance(value, str):
        return "n:" + float(value).hex()  # 1 == 1.0 == True, as == says
    if isinstance(value, str):
        return "s:" + repr(value)
    if value is None:
        return "None"
    if isinstance(value, tuple | list):
        kind = "t" if isinstance(value, tuple) else "l"
        return kind + "[" + ",".join(_canonical(part) for part in value) + "]"
    if isinstance(value, set | frozenset):
        return "S{" + ",".join(sorted(_canonical(part) for part in value)) + "}"
    if isinstance(value, Mapping):
        items = sorted(_canonical(k) + ":" + _canonical(v) for k, v in value.items())
        return "D{" + ",".join(items) + "}"
    if isinstance(value, np.ndarray):
        return _canonical(value.tolist())
    raise TypeError(f"a {type(value).__name__} cannot be hashed as an answer")


class AnswerDigest:
    """An exercise's expected answer as a salted hash: what the student edition checks against.

    The student edition of a notebook must not contain the answers, nor code that computes
    them, yet its check cells should still say ✓ or ✗ for self-study. ``make student``
    therefore replaces each check cell's expected value by ``AnswerDigest.of(expected,
    tol=...)``, written into the cell as text (``ek.checks.AnswerDigest("ekd1:...")``), and
    :func:`check` compares an answer with it by hashing the answer the same way (as
    otter-grader's hashed tests do).

    How. A number is rounded to a grid of step ``tol / 4`` and each grid point is hashed with
    PBKDF2-SHA256 (a random salt, :data:`_ITERATIONS` rounds), one hash per entry of an array
    or tuple. An answer ``v`` matches when a grid point within ``tol`` of ``v`` has the
    expected hash, so answers within ``0.875 tol`` of the expected value always match and
    answers more than ``1.125 tol`` away never do (in between the grid decides; the grader
    applies the exact rule, ``|v - e| <= tol``). Anything else (text, True/False, sets,
    tuples of text) is hashed whole from a canonical text and must be equal.

    What it protects. The value cannot be read off the notebook, and each guess costs a few
    milliseconds. It cannot stop a search over a small answer space (a whole number below a
    thousand is found in seconds): such an exercise, when marked, should be "hidden"
    (:meth:`hidden`: no self-check, only the grader's verdict). Marks never depend on it:
    the grader computes the expected values itself.

    Parameters
    ----------
    text : str
        The digest as written by :meth:`of` (``str(digest)``).

    Examples
    --------
    >>> digest = AnswerDigest.of(0.25, tol=1e-3)
    >>> digest.matches(0.2504), digest.matches(0.26)
    (True, False)
    >>> AnswerDigest(str(digest)).matches(1 / 4)
    True
    >>> "0.25" in str(digest)
    False
    """

    def __init__(self, text: str) -> None:
        if not isinstance(text, str) or not text.startswith(_DIGEST_PREFIX):
            raise ValueError(f"text: expected an answer digest starting with "
                             f"{_DIGEST_PREFIX!r}; got {str(text)[:40]!r}")
        try:
            data = json.loads(base64.urlsafe_b64decode(text[len(_DIGEST_PREFIX):]))
            self.kind: str = data["k"]
            self.salt: str = data.get("s", "")
            self.iterations: int = int(data.get("i", _ITERATIONS))
            self.shape: tuple[int, ...] | None = (tuple(data["shape"]) if "shape" in data
                                                  else None)
            self.tol: float = float(data.get("tol", 0.0))
            self.hashes: list[str] = list(data.get("h", []))
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"text: not a readable answer digest ({error})") from None
        if self.kind not in ("numbers", "exact", "hidden"):
            raise ValueError(f"text: unknown answer digest kind {self.kind!r}")
        self._text = text

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def of(cls, expected: Any, *, tol: float = 1e-9, salt: str | None = None) -> AnswerDigest:
        """The digest of ``expected``, checked within ``tol`` (as :func:`check` would)."""
        if not (isinstance(tol, int | float) and not isinstance(tol, bool)
                and math.isfinite(tol) and tol >= 0):
            raise ValueError(f"tol: expected a number >= 0; got {tol!r}")
        salt = secrets.token_hex(8) if salt is None else str(salt)
        array = _numeric(expected)
        if array is not None:
            flat = array.ravel()
            iterations = max(_MIN_ITERATIONS, _ITERATIONS // max(flat.size, 1))
            hashes = [_entry_hash(salt, iterations, index, _grid_point(x, tol))
                      for index, x in enumerate(flat.tolist())]
            data = {"k": "numbers", "s": salt, "i": iterations, "shape": list(array.shape),
                    "tol": float(tol), "h": hashes}
        else:
            data = {"k": "exact", "s": salt, "i": _ITERATIONS,
                    "h": [_entry_hash(salt, _ITERATIONS, -1, _canonical(expected))]}
        return cls(_encode_digest(data))

    @classmethod
    def hidden(cls) -> AnswerDigest:
        """A check with no self-check: only the grader says whether the answer is right."""
        return cls(_encode_digest({"k": "hidden"}))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"AnswerDigest({self._text!r})"

    # -- checking ---------------------------------------------------------------------------

    def matches(self, value: Any) -> bool | None:
        """Whether ``value`` is the hashed answer (None for a hidden one)."""
        if self.kind == "hidden":
            return None
        if self.kind == "exact":
            try:
                text = _canonical(value)
            except TypeError:
                return False
            return hmac.compare_digest(_entry_hash(self.salt, self.iterations, -1, text),
                                       self.hashes[0])
        array = _numeric(value)
        if array is None or array.shape != self.shape:
            return False
        for index, x in enumerate(array.ravel().tolist()):
            if not any(hmac.compare_digest(_entry_hash(self.salt, self.iterations, index, p),
                                           self.hashes[index])
                       for p in _grid_points_near(x, self.tol)):
                return False
        return True

    def problem(self, value: Any) -> str | None:
        """None when ``value`` matches; otherwise why not, without revealing the answer."""
        if self.kind == "numbers":
            array = _numeric(value)
            if array is None:
                return f"expected a number, got {_show(value)}"
            if array.shape != self.shape:
                size = math.prod(self.shape or ())
                want = ("a single number" if self.shape == () else
                        f"{size} number{'' if size == 1 else 's'}")
                return f"expected {want}, got {_show(value)}"
        if self.matches(value):
            return None
        return f"{_show(value)} is not the expected answer"


def _encode_digest(data: dict) -> str:
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("ascii")
    return _DIGEST_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii")


def _entry_hash(salt: str, iterations: int, index: int, text: str) -> str:
    message = f"{index}|{text}".encode()
    return hashlib.pbkdf2_hmac("sha256", message, salt.encode(), iterations)[:12].hex()


def _grid_point(x: float, tol: float) -> str:
    """The grid point nearest ``x`` (step ``tol / 4``; exact bits when ``tol`` is 0)."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x) or tol == 0:
        return float(x).hex()
    return str(round(Fraction(x) / (Fraction(tol) / _STEPS_PER_TOL)))


def _grid_points_near(x: float, tol: float) -> list[str]:
    """Every grid point within ``tol`` of ``x``: those an answer ``x`` may match."""
    if math.isnan(x) or math.isinf(x) or tol == 0:
        return [_grid_point(x, tol)]
    step = Fraction(tol) / _STEPS_PER_TOL
    low = math.ceil((Fraction(x) - Fraction(tol)) / step)
    high = math.floor((Fraction(x) + Fraction(tol)) / step)
    return [str(k) for k in range(low, high + 1)]
