"""Shared plumbing of the plots: a fresh Axes when none is given, and argument checks
that more than one plot file needs."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_1d


def _axes(ax: Any, figsize: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


def _operating_point(point: Any, name: str) -> tuple[float, float] | None:
    if point is None:
        return None
    values = np.asarray(point, dtype=np.float64)
    if values.shape != (2,):
        raise ValueError(f"{name} must be a pair of numbers (x, y); got {point!r}")
    return float(values[0]), float(values[1])


def _curve_arrays(x: Any, y: Any, x_name: str, y_name: str) -> tuple[np.ndarray, np.ndarray]:
    x = check_1d(x, x_name).astype(np.float64)
    y = check_1d(y, y_name).astype(np.float64)
    if len(x) != len(y):
        raise ValueError(f"{x_name} and {y_name} have different lengths ({len(x)} != {len(y)})")
    return x, y
