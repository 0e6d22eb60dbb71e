"""Shared argument checks and the ``zero_division`` policy.

Every public function validates its arguments here, once, at the boundary. A check either
returns a clean numpy array or raises ``ValueError`` (``TypeError`` for the wrong kind of
object) with a message that names the argument and says what was expected. Internal helpers
trust what these functions return.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import reprlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ._averaging import choose_labels
from ._factorize import string_labels

__all__ = [
    "as_array",
    "check_1d",
    "check_bool",
    "check_counts",
    "check_consistent_length",
    "check_label_choice",
    "check_label_list",
    "check_labels",
    "check_label_pair",
    "check_option",
    "check_zero_division",
    "select_labels",
    "check_finite_scores",
    "check_grades",
    "check_ranked_scores",
    "check_scalar",
    "check_seed",
    "check_same_label_kind",
    "check_square_matrix",
    "keyword_only",
]


def _describe(values: Iterable[Any]) -> str:
    return ", ".join(repr(v) for v in values)


def check_option(value: Any, name: str, allowed: Sequence[Any]) -> Any:
    """Return ``value`` if it is one of ``allowed``; otherwise raise a ValueError naming ``name``.

    One policy for every option name in evalkit: a string matches whatever its case
    (``"Wilson"``, scipy's ``"BCa"``) and the allowed spelling is returned.

    >>> check_option("macro", "average", [None, "binary", "macro"])
    'macro'
    >>> check_option("BCa", "method", ["percentile", "basic", "bca"])
    'bca'
    >>> check_option("mcaro", "average", [None, "binary", "macro"])
    Traceback (most recent call last):
    ...
    ValueError: average must be one of None, 'binary', 'macro'; got 'mcaro'
    """
    try:
        if value in allowed:
            return value
    except TypeError:  # unhashable or uncomparable value
        pass
    if isinstance(value, str):
        folded = [option for option in allowed
                  if isinstance(option, str) and option.casefold() == value.casefold()]
        if len(folded) == 1:
            return folded[0]
    raise ValueError(f"{name} must be one of {_describe(allowed)}; got {value!r}")


def _to_array(values: Any, name: str) -> np.ndarray:
    if values is None:
        raise TypeError(
            f"{name} must be an array-like (list, numpy array or pandas Series); got None"
        )
    if isinstance(values, (str, bytes)):
        raise TypeError(
            f"{name} must be an array-like (list, numpy array or pandas Series); "
            f"got the string {values!r}"
        )
    if isinstance(values, (dict, set, frozenset)):
        raise TypeError(
            f"{name} must be an ordered array-like (list, numpy array or pandas Series); "
            f"got a {type(values).__name__}"
        )
    if isinstance(values, pd.DataFrame):
        if values.shape[1] != 1:
            raise ValueError(
                f"{name} must be 1-D; got a DataFrame with {values.shape[1]} columns "
                "(select one column)"
            )
        values = values.iloc[:, 0]
    try:
        return np.asarray(values)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(
            f"{name} must be a flat 1-D array-like; could not read it ({exc})"
        ) from None


def as_array(values: Any, name: str) -> np.ndarray:
    """Any array-like (list, ndarray, Series, one-column DataFrame) as an ndarray, of any shape.

    The wrong kind of object (None, a string, a dict or set) is a ``TypeError`` naming
    ``name``.

    >>> as_array([[0.2, 0.8]], "y_proba").shape
    (1, 2)
    """
    return _to_array(values, name)


def check_1d(values: Any, name: str, *, allow_empty: bool = False) -> np.ndarray:
    """Return ``values`` as a 1-D numpy array, or raise naming ``name``.

    A column vector of shape (n, 1) is accepted and flattened, as scikit-learn does.

    >>> check_1d([1, 0, 1], "y_true")
    array([1, 0, 1])
    >>> check_1d([[1, 0], [0, 1]], "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true must be 1-D; got an array of shape (2, 2)
    """
    array = _to_array(values, name)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim != 1:
        if array.ndim == 0:
            raise ValueError(f"{name} must be 1-D; got a single value {array.item()!r}")
        raise ValueError(f"{name} must be 1-D; got an array of shape {array.shape}")
    if not allow_empty and array.size == 0:
        raise ValueError(f"{name} is empty; expected at least one value")
    return array


def check_consistent_length(**arrays: np.ndarray) -> None:
    """Raise if the named arrays differ in length.

    >>> check_consistent_length(y_true=[1, 0, 1], y_pred=[1, 0])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred have different lengths (3 != 2)
    """
    names = list(arrays)
    lengths = [len(a) for a in arrays.values()]
    if len(set(lengths)) > 1:
        raise ValueError(
            f"{' and '.join(names)} have different lengths ({' != '.join(map(str, lengths))})"
        )


def _label_kind(array: np.ndarray) -> str:
    """'number' or 'string' for a label array; object arrays are inspected once, in C."""
    kind = array.dtype.kind
    if kind in "biuf":
        return "number"
    if kind in "US":
        return "string"
    if kind == "O":
        inferred = pd.api.types.infer_dtype(array, skipna=False)
        if inferred in ("string", "unicode", "bytes"):
            return "string"
        if inferred in ("integer", "floating", "mixed-integer-float", "boolean", "decimal"):
            return "number"
        return "mixed"
    return "other"


def check_labels(values: Any, name: str, *, allow_empty: bool = False) -> np.ndarray:
    """Return class labels as a 1-D array of numbers or strings.

    Booleans become 0/1; lists and object arrays of strings become unicode arrays. Raises
    when the labels mix strings and numbers, contain NaN or None, are not 1-D, or hold a
    string ending in a NUL character (which numpy's strings would drop, merging two labels).

    >>> check_labels(["cat", "dog"], "y_true")
    array(['cat', 'dog'], dtype='<U3')
    >>> check_labels([1, "dog"], "y_pred")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: y_pred mixes strings and numbers (or holds None); labels must be ...
    """
    if isinstance(values, (list, tuple)) and values and isinstance(values[0], (str, bytes)):
        # Read as objects, not as numpy strings, which would drop a trailing NUL unseen (and
        # turn a number among them into a str): numbered below, then made numpy strings.
        values = np.array(values, dtype=object)
    array = check_1d(values, name, allow_empty=allow_empty)
    kind = _label_kind(array)
    if kind == "string" and isinstance(values, (list, tuple)):
        # np.asarray(["a", 1]) silently turns the 1 into "1": look at the list itself.
        if pd.api.types.infer_dtype(values, skipna=False) not in ("string", "unicode", "bytes"):
            kind = "mixed"
    if kind == "mixed":
        raise ValueError(
            f"{name} mixes strings and numbers (or holds None); "
            "labels must be all strings or all numbers"
        )
    if kind == "other":
        raise ValueError(f"{name} must hold numbers or strings; got dtype {array.dtype}")
    if kind == "string":
        if array.dtype.kind == "O":
            return string_labels(array, name)
        return array if array.dtype.kind == "U" else array.astype(str)
    if array.dtype.kind == "O":
        array = array.astype(np.float64)
    if array.dtype.kind == "b":
        return array.astype(np.int64)
    if array.dtype.kind == "f":
        if np.isnan(array).any():
            raise ValueError(f"{name} contains NaN; every sample needs a label")
        if np.all(array == np.round(array)) and np.all(np.abs(array) < 2**53):
            return array.astype(np.int64)
    return array


def check_same_label_kind(**arrays: np.ndarray) -> None:
    """Raise when one label array holds strings and another numbers."""
    kinds = {name: ("string" if a.dtype.kind == "U" else "number") for name, a in arrays.items()}
    if len(set(kinds.values())) > 1:
        described = ", ".join(f"{name} holds {kind}s" for name, kind in kinds.items())
        raise ValueError(f"labels must be all strings or all numbers, but {described}")


def check_label_pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """``y_true`` and ``y_pred`` checked as labels of the same items: each a 1-D label array,
    the same length, both strings or both numbers."""
    y_true = check_labels(y_true, "y_true")
    y_pred = check_labels(y_pred, "y_pred")
    check_consistent_length(y_true=y_true, y_pred=y_pred)
    check_same_label_kind(y_true=y_true, y_pred=y_pred)
    return y_true, y_pred


def check_label_list(labels: Any, y_true: np.ndarray, name: str = "labels") -> np.ndarray:
    """Return a list of classes (``labels``, ``exclude``) of the same kind as ``y_true``,
    without repeats.

    >>> check_label_list(["a", "a"], np.array(["a", "b"]))
    Traceback (most recent call last):
    ...
    ValueError: labels must not repeat a label; got ['a', 'a']
    """
    labels = check_labels(labels, name)
    check_same_label_kind(y_true=y_true, **{name: labels})
    if len(np.unique(labels)) != len(labels):
        raise ValueError(f"{name} must not repeat a label; got {labels.tolist()}")
    return labels


class LabelChoice(NamedTuple):
    """The checked label options of a metric over classes (see :func:`check_label_choice`)."""

    labels: np.ndarray | None
    exclude: np.ndarray | None
    positive: np.ndarray | None
    pos_label: Any
    #: Why ``pos_label`` is not a label (raised once the classes show that binary averaging
    #: itself is possible, so that a multi-class ``y_true`` hears about ``average`` first).
    pos_label_error: str | None = None


def check_label_choice(y_true: np.ndarray, average: str | None, labels: Any, exclude: Any,
                       pos_label: Any) -> LabelChoice:
    """Check the ``labels``, ``exclude`` and ``pos_label`` of a metric averaged as ``average``
    against the checked ``y_true``, before any counting.

    With ``average="binary"`` only ``pos_label`` matters (``labels`` is ignored, ``exclude``
    is refused); otherwise ``pos_label`` is ignored. What needs the classes of the data
    (is ``pos_label`` one of them?) is decided with them, by
    :func:`evalkit._averaging.choose_labels`.

    >>> check_label_choice(np.array([0, 1]), "binary", None, [0], 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: exclude leaves classes out of an average over classes; it has no meaning ...
    """
    if average == "binary":
        if exclude is not None:
            raise ValueError(
                "exclude leaves classes out of an average over classes; it has no meaning with "
                "average='binary' (use average='micro', 'macro', ... instead)"
            )
        try:
            positive = check_labels([pos_label], "pos_label")
        except ValueError as error:
            return LabelChoice(None, None, None, pos_label, str(error))
        return LabelChoice(None, None, positive, pos_label)
    chosen = None if labels is None else check_label_list(labels, y_true)
    excluded = None
    if exclude is not None:
        excluded = check_labels(exclude, "exclude", allow_empty=True)
        if len(excluded):
            check_same_label_kind(y_true=y_true, exclude=excluded)
    return LabelChoice(chosen, excluded, None, pos_label)


def select_labels(y_true: np.ndarray, average: str | None, labels: Any, exclude: Any,
                  pos_label: Any, present: np.ndarray) -> np.ndarray | None:
    """:func:`check_label_choice`, then :func:`evalkit._averaging.choose_labels` among the
    sorted ``present`` classes: for callers that know the classes before they count (the
    metrics of predicted probabilities)."""
    choice = check_label_choice(y_true, average, labels, exclude, pos_label)
    return choose_labels(present, average, choice)


def check_finite_scores(values: Any, name: str) -> np.ndarray:
    """Return real-valued scores as a float array; NaN or infinite scores raise.

    >>> check_finite_scores([0.2, float("nan")], "y_score")
    Traceback (most recent call last):
    ...
    ValueError: y_score contains NaN at position 1; scores must be finite numbers
    """
    array = check_1d(values, name)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers; got dtype {array.dtype}")
    array = array.astype(np.float64, copy=False)
    bad = ~np.isfinite(array)
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        what = "NaN" if np.isnan(array[position]) else "an infinite value"
        raise ValueError(
            f"{name} contains {what} at position {position}; scores must be finite numbers"
        )
    return array


def check_ranked_scores(values: Any, name: str, **ranked: np.ndarray) -> np.ndarray:
    """Scores of a ranked list as a float array: finite, one per item of the list named in
    ``ranked``, and never increasing down the ranking.

    >>> check_ranked_scores([0.9, 0.5, 0.7], "scores", gains=np.zeros(3))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: scores must not increase down the ranking (...); got 0.5 at rank 2, then 0.7
    """
    array = check_finite_scores(values, name)
    ((listed, items),) = ranked.items()
    check_consistent_length(**{listed: items, name: array})
    rises = np.flatnonzero(array[1:] > array[:-1])
    if rises.size:
        i = int(rises[0])
        raise ValueError(f"{name} must not increase down the ranking ({listed} are in rank "
                         f"order); got {array[i]} at rank {i + 1}, then {array[i + 1]}")
    return array


def check_grades(values: Any, name: str = "relevance") -> np.ndarray:
    """Relevance grades as a float array: 1-D, non-empty, numeric, no NaN or infinity.

    >>> check_grades([2, 0, 1])
    array([2., 0., 1.])
    >>> check_grades([1, float("nan")], "gains")
    Traceback (most recent call last):
    ...
    ValueError: gains contains nan at rank 2; grades must be finite numbers
    """
    array = check_1d(values, name)
    if array.dtype.kind == "O":
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name} must hold numeric relevance grades (0 = not relevant); "
                f"got {array[:3].tolist()!r}..."
            ) from None
    if array.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} must hold numeric relevance grades (0 = not relevant); got dtype {array.dtype}"
        )
    array = array.astype(np.float64)
    bad = ~np.isfinite(array)
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name} contains {array[position]} at rank {position + 1}; "
            "grades must be finite numbers"
        )
    return array


def check_square_matrix(matrix: Any, name: str, *, counts: bool = False) -> np.ndarray:
    """Return a non-empty (k, k) matrix of finite numbers as floats, or raise naming ``name``.

    With ``counts=True`` the entries must also be non-negative (a confusion or agreement
    table).

    >>> check_square_matrix([[1, 2, 3]], "confusion")
    Traceback (most recent call last):
    ...
    ValueError: confusion must be a square (k, k) matrix; got shape (1, 3)
    >>> check_square_matrix(None, "table", counts=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: table must be a square (k, k) matrix of counts (...); got None
    """
    what = "counts" if counts else "numbers"
    if matrix is None or isinstance(matrix, (str, bytes, dict, set, frozenset)):
        # The wrong kind of object, as for a vector (see _to_array): a TypeError.
        shown = "None" if matrix is None else (
            f"the string {matrix!r}" if isinstance(matrix, (str, bytes))
            else f"a {type(matrix).__name__}")
        raise TypeError(f"{name} must be a square (k, k) matrix of {what} (nested list, numpy "
                        f"array or pandas DataFrame); got {shown}")
    if isinstance(matrix, pd.DataFrame):
        matrix = matrix.to_numpy()
    try:
        raw = np.asarray(matrix)
    except ValueError:  # ragged nested lists
        raise ValueError(f"{name} must be a square (k, k) matrix of {what}; could not read "
                         "it (rows of different lengths?)") from None
    if raw.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a square (k, k) matrix of {what}; got dtype "
                        f"{raw.dtype}")
    array = raw.astype(np.float64)
    if array.ndim != 2 or array.shape[0] != array.shape[1] or array.shape[0] == 0:
        raise ValueError(f"{name} must be a square (k, k) matrix; got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} must hold finite {what}; it contains NaN or inf")
    if counts and (array < 0).any():
        raise ValueError(f"{name} must hold non-negative finite counts")
    return array


SCALAR_KINDS = ("int", "real")


def _bounds_text(low: float | None, high: float | None, low_inclusive: bool,
                 high_inclusive: bool) -> str:
    if low is not None and high is not None:
        left, right = "[" if low_inclusive else "(", "]" if high_inclusive else ")"
        return f" in {left}{low:g}, {high:g}{right}"
    if low is not None:
        return f" {'>=' if low_inclusive else '>'} {low:g}"
    if high is not None:
        return f" {'<=' if high_inclusive else '<'} {high:g}"
    return ""


def check_scalar(
    value: Any,
    name: str,
    *,
    kind: str = "real",
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
    allow_inf: bool = False,
    allow_none: bool = False,
) -> Any:
    """Return a numeric option as an ``int`` or ``float``, or raise naming ``name``.

    Every numeric option of evalkit (``k``, ``beta``, ``relevance_level``, ``n_bins``,
    ``confidence``, a cost, a slider value, ...) goes through here, so that one mistake gets
    one kind of error and one message everywhere:

    - the wrong kind of object (``True``, ``"3"``, ``None``, a list) is a ``TypeError``;
    - a number of the right kind outside its range, ``NaN``, an infinity (unless
      ``allow_inf``), or a fraction where a whole number is meant (``1.5`` for ``k``) is a
      ``ValueError``.

    ``kind="int"`` accepts integers and whole floats (``5.0``) and returns an ``int``;
    ``kind="real"`` accepts any real number and returns a ``float``. With ``allow_none``,
    ``None`` passes through unchanged.

    >>> check_scalar(5, "k", kind="int", low=1)
    5
    >>> check_scalar(True, "k", kind="int", low=1)
    Traceback (most recent call last):
    ...
    TypeError: k must be a whole number >= 1; got True (a bool)
    >>> check_scalar(1.5, "k", kind="int", low=1)
    Traceback (most recent call last):
    ...
    ValueError: k must be a whole number >= 1; got 1.5
    >>> check_scalar(1.2, "confidence", low=0, high=1, low_inclusive=False, high_inclusive=False)
    Traceback (most recent call last):
    ...
    ValueError: confidence must be a real number in (0, 1); got 1.2
    """
    kind = check_option(kind, "kind", SCALAR_KINDS)
    if value is None and allow_none:
        return None
    what = ("a whole number" if kind == "int" else "a real number") + _bounds_text(
        low, high, low_inclusive, high_inclusive)
    if allow_none:
        what += " (or None)"
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be {what}; got {bool(value)!r} (a bool)")
    if not isinstance(value, numbers.Real):
        shown = f"the string {value!r}" if isinstance(value, str) else (
            f"{value!r} (a {type(value).__name__})")
        raise TypeError(f"{name} must be {what}; got {shown}")
    if isinstance(value, numbers.Integral):
        number: Any = int(value)
    else:
        number = float(value)
        if np.isnan(number):
            raise ValueError(f"{name} must be {what}; got nan")
        if np.isinf(number) and not allow_inf:
            raise ValueError(f"{name} must be {what} (finite); got {number!r}")
        if kind == "int":
            if not number.is_integer():
                raise ValueError(f"{name} must be {what}; got {value!r}")
            number = int(number)
    if kind == "real":
        number = float(number)
    too_low = low is not None and (number < low if low_inclusive else number <= low)
    too_high = high is not None and (number > high if high_inclusive else number >= high)
    if too_low or too_high:
        raise ValueError(f"{name} must be {what}; got {value!r}")
    return number


def check_seed(seed: Any, name: str = "seed") -> np.random.Generator:
    """A numpy random Generator from ``seed``: None (fresh entropy), a whole number >= 0, or a
    ``numpy.random.Generator`` (used as it is, so its stream continues), as
    ``np.random.default_rng`` takes them.

    >>> int(check_seed(7).integers(10)) == int(np.random.default_rng(7).integers(10))
    True
    >>> check_seed(True)
    Traceback (most recent call last):
    ...
    TypeError: seed must be None, a whole number >= 0 or a numpy.random.Generator; got True (a bool)
    """
    what = "None, a whole number >= 0 or a numpy.random.Generator"
    if seed is None or isinstance(seed, (np.random.Generator, np.random.BitGenerator,
                                         np.random.SeedSequence)):
        return np.random.default_rng(seed)
    if isinstance(seed, (bool, np.bool_)):
        raise TypeError(f"{name} must be {what}; got {bool(seed)!r} (a bool)")
    if not isinstance(seed, numbers.Integral):
        raise TypeError(f"{name} must be {what}; got {seed!r} (a {type(seed).__name__})")
    if seed < 0:
        raise ValueError(f"{name} must be {what}; got {seed!r}")
    return np.random.default_rng(int(seed))


def check_bool(value: Any, name: str) -> bool:
    """Return a flag as a Python ``bool``; anything but True or False is a ``TypeError``.

    Every on/off option of evalkit (``paired``, ``drop_intermediate``, ``leave_one_out``,
    ...) goes through here, so a mistaken flag gets one exception class and one message.

    >>> check_bool(np.True_, "paired")
    True
    >>> check_bool(1, "paired")
    Traceback (most recent call last):
    ...
    TypeError: paired must be True or False; got 1 (a int)
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True or False; got {value!r} (a {type(value).__name__})")


def check_counts(values: Any, name: str, *, what: str = "counts") -> np.ndarray:
    """Return an array of non-negative whole numbers (as int64), or raise naming ``name``.

    Numbers of items, of judges or of successes go through here: whole floats (``3.0``) are
    accepted, as numpy and scipy accept them; a fraction, a negative number, NaN, an infinity
    or a bool is a ``ValueError`` (a string or another non-numeric object a ``TypeError``).
    Shape checks are the caller's.

    >>> check_counts([[3, 0.0], [1, 2]], "counts")
    array([[3, 0],
           [1, 2]])
    >>> check_counts([1.5, 2], "successes")
    Traceback (most recent call last):
    ...
    ValueError: successes must hold non-negative whole numbers (counts); got 1.5
    """
    try:
        array = np.asarray(values)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of non-negative whole numbers ({what}); "
                        f"got {type(values).__name__}") from None
    if array.dtype.kind == "b":
        raise ValueError(f"{name} must hold non-negative whole numbers ({what}), not booleans")
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold non-negative whole numbers ({what}); "
                        f"got dtype {array.dtype}")
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array) | (array != np.floor(np.where(np.isfinite(array), array, 0)))
        if bad.any():
            raise ValueError(f"{name} must hold non-negative whole numbers ({what}); "
                             f"got {array[bad].flat[0].item()!r}")
    if (array < 0).any():
        raise ValueError(f"{name} must hold non-negative whole numbers ({what}); "
                         f"got {array[array < 0].flat[0].item()!r}")
    return array.astype(np.int64)


_SHOW = reprlib.Repr()
_SHOW.maxlist = _SHOW.maxtuple = 4
_SHOW.maxstring = 30
_SHOW.maxother = 30


def keyword_only(function: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a public function whose options are keyword-only (after ``*``).

    Python's own error for a positional option only counts arguments; this one shows the
    call to write instead (scikit-learn's rule since 0.23: data positional, options by
    keyword), so that ``average_precision(x, 2)`` cannot silently mean R where
    ``recall_at_k(x, 2)`` means k. The extra positional values are matched to the options in
    the order the signature lists them.

    >>> @keyword_only
    ... def recall_at_k(relevance, *, k, n_relevant=None):
    ...     return k
    >>> recall_at_k([1, 0], 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: recall_at_k() takes its data (relevance) ... write recall_at_k(relevance, k=2)

    There is no grace period for a positional option: a call that used to mean something
    else must stop, not warn (``average_precision(x, 2)`` was R, ``recall_at_k(x, 2)`` was k).
    """
    parameters = inspect.signature(function).parameters.values()
    data = [p.name for p in parameters
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    options = [p.name for p in parameters if p.kind == p.KEYWORD_ONLY]
    if any(p.kind == p.VAR_POSITIONAL for p in parameters) or not options:
        raise TypeError(f"keyword_only: {function.__qualname__} needs keyword-only options "
                        "and no *args")
    n_data = len(data)
    name = function.__name__

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if len(args) > n_data:
            extra = args[n_data:]
            shown = [f"{option}={_SHOW.repr(value)}" for option, value in
                     zip(options, extra, strict=False)]
            if len(extra) > len(options):
                shown.append("...")
            call = ", ".join(data + shown)
            listed = ", ".join(data) if data else "none"
            raise TypeError(f"{name}() takes its data ({listed}) by position and every "
                            f"option by keyword; write {name}({call})")
        return function(*args, **kwargs)

    return wrapper


_ZERO_DIVISION_HELP = "zero_division must be 'warn', 0.0, 1.0 or np.nan"


def check_zero_division(zero_division: Any) -> Any:
    """Validate a ``zero_division`` policy and return it.

    >>> check_zero_division(2)
    Traceback (most recent call last):
    ...
    ValueError: zero_division must be 'warn', 0.0, 1.0 or np.nan; got 2
    """
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return zero_division
    elif isinstance(zero_division, numbers.Real) and not isinstance(zero_division, bool):
        if np.isnan(zero_division) or zero_division in (0, 1):
            return float(zero_division)
    raise ValueError(f"{_ZERO_DIVISION_HELP}; got {zero_division!r}")
