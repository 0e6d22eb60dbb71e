"""What several modules of :mod:`evalkit.stats` check alike: two paired score arrays, at
least two values, a flag that may also be None, and rescaling differences before a ratio of
mean to spread.
"""

from __future__ import annotations

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
