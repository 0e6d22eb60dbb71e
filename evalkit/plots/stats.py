"""Uncertainty of a measured score: the spread of accuracies over many test sets."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_1d, keyword_only
from ._common import OKABE_ITO, _axes

__all__ = ["plot_accuracy_spread"]


@keyword_only
def plot_accuracy_spread(
    measured: Any,
    true_accuracy: float,
    *,
    interval: tuple[float, float] | None = None,
    ax: Any = None,
) -> Any:
    """Histogram of accuracies measured on many test sets, with the true accuracy marked.

    ``interval`` (low, high), if given, is shaded: e.g. the confidence interval from one
    test set.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_accuracy_spread([0.7, 0.8, 0.8, 0.9], 0.8, interval=(0.72, 0.88))
    >>> ax.get_xlabel()
    'measured accuracy'
    """
    measured = check_1d(measured, "measured").astype(np.float64)
    ax = _axes(ax, (6.5, 3.5))
    low, high = float(measured.min()), float(measured.max())
    values = np.unique(measured)
    if len(values) <= 60:
        # Accuracy on n items takes only the values k/n: one bar per value shows that.
        step = np.min(np.diff(values)) if len(values) > 1 else 0.01
        edges = np.concatenate([values - step / 2, [values[-1] + step / 2]])
    else:
        edges = np.linspace(low, high, 41)
    ax.hist(measured, bins=edges, color=OKABE_ITO["sky blue"], edgecolor="white",
            weights=np.full(len(measured), 100.0 / len(measured)))
    if interval is not None:
        ax.axvspan(interval[0], interval[1], color=OKABE_ITO["orange"], alpha=0.3,
                   label=f"interval {interval[0]:.3f} – {interval[1]:.3f}")
    ax.axvline(true_accuracy, color=OKABE_ITO["vermillion"], linewidth=2,
               label=f"true accuracy {true_accuracy:.2f}")
    ax.set_xlabel("measured accuracy")
    ax.set_ylabel("share of test sets (%)")
    ax.set_title(f"Accuracy measured on {len(measured)} simulated test sets")
    ax.legend(loc="upper left", fontsize=8)
    return ax
