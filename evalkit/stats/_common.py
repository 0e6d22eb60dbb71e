"""What several modules of :mod:`evalkit.stats` check alike: two paired score arrays, at
least two values, a flag that may also be None, and rescaling differences before a ratio of
mean to spread; and what resampling a metric needs alike (:mod:`.bootstrap`,
:mod:`.classifiers`): one number per call, no NaN among the resampled values, each warning
passed on once.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from .._validation import (
    check_bool,
    check_consistent_length,
    check_finite_scores,
)


def _paired_scores(scores_a: Any, scores_b: Any) -> tuple[np.ndarray, np.ndarray]:
    a = check_finite_scores(scores_a, "scores_a")
    b = check_finite_scores(scores_b, "scores_b")
    check_consistent_length(scores_a=a, scores_b=b)
    _check_at_least_two(a, "scores_a")
    return a, b


def _check_at_least_two(values: np.ndarray, name: str) -> None:
    if len(values) < 2:
        raise ValueError(f"{name} holds 1 value; a test or an effect size needs at least 2 "
                         "(one per query or run)")


def _unit_scale(values: np.ndarray) -> np.ndarray:
    """``values`` divided by their largest magnitude (unchanged when all are 0): ratios of a
    mean to an SD stay the same, and differences of 1e-200 no longer square to 0."""
    largest = np.max(np.abs(values)) if values.size else 0.0
    return values / largest if largest > 0 else values


def _check_flag_or_none(value: Any, name: str) -> bool | None:
    """None (decide for me), or a flag through ``check_bool``; the message lists None too."""
    if value is None:
        return None
    try:
        return check_bool(value, name)
    except TypeError:
        raise TypeError(f"{name} must be None, True or False; got {value!r} "
                        f"(a {type(value).__name__})") from None


def _one_number(value: Any, where: str) -> float:
    """The metric's value as a float; anything but one real number is a TypeError."""
    array = np.asarray(value)
    if array.ndim != 0 or array.dtype.kind not in "biuf":
        shown = f"an array of shape {array.shape}" if array.ndim else repr(value)
        raise TypeError(f"metric must return a single number; got {shown} on {where} "
                        "(for per-class scores, bootstrap one class at a time, e.g. with "
                        "labels=[c] and average='macro')")
    return float(array)


def _check_distribution(values: np.ndarray, what: str) -> np.ndarray:
    bad = np.isnan(values)
    if bad.any():
        raise ValueError(
            f"metric returned NaN on {int(bad.sum())} of {len(values)} {what} (a ratio with "
            "a zero denominator under zero_division=np.nan?); give zero_division a number "
            "or use more data")
    return values


@contextlib.contextmanager
def _each_warning_once(prefix: str) -> Iterator[None]:
    """Re-emit each distinct warning of a block once (a metric called a thousand times
    would otherwise repeat itself), prefixed to say where it came from."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    seen = set()
    for warning in caught:
        key = (warning.category, str(warning.message))
        if key not in seen:
            seen.add(key)
            warnings.warn(f"{prefix}{warning.message}", warning.category, stacklevel=4)
