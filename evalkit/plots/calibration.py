"""Calibration: the reliability diagram, with an optional consistency band."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_scalar, keyword_only
from ..calibration import consistency_band, reliability_curve
from ._common import OKABE_ITO, _axes

__all__ = ["plot_reliability_diagram"]


@keyword_only
def plot_reliability_diagram(
    y_true: Any,
    y_proba: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    n_resamples: int = 0,
    seed: Any = 0,
    label: str | None = None,
    ax: Any = None,
) -> Any:
    r"""Accuracy against confidence, bin by bin, with the diagonal of perfect calibration.

    Each point is one non-empty bin of :func:`evalkit.reliability_curve` (top-label
    confidence: the largest probability), drawn at its mean confidence; the bars at the foot
    show how many samples each bin holds, so a reader sees which points rest on few samples.
    With ``n_resamples > 0`` a grey band shows, for each bin, where the accuracy of a
    *calibrated* model with the same confidences would fall 95% of the time
    (:func:`evalkit.probabilistic.consistency_band`, Bröcker & Smith 2007).

    .. math::

        \mathrm{acc}(b) \text{ against } \mathrm{conf}(b), \qquad
        \text{perfect calibration: } \mathrm{acc}(b) = \mathrm{conf}(b)

    Parameters
    ----------
    y_true, y_proba, n_bins, strategy
        As :func:`evalkit.reliability_curve`.
    n_resamples : int, default 0
        Resamples for the consistency band; 0 draws no band.
    seed : int, default 0
        Seed of the band's resampling.
    label : str, optional
        Legend label of the curve (default: the ECE).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y. and Weinberger, K. Q. (2017). On calibration of modern
    neural networks. Proceedings of ICML 2017, 1321–1330.
    Bröcker, J. and Smith, L. A. (2007). Increasing the reliability of reliability diagrams.
    Weather and Forecasting 22(3), 651–661.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_reliability_diagram([0, 1, 1, 0, 1], [0.2, 0.7, 0.9, 0.6, 0.8], n_bins=5,
    ...                               n_resamples=50)
    >>> ax.get_xlabel()
    'confidence (largest probability)'
    """
    from ..calibration import expected_calibration_error

    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=0)
    curve = reliability_curve(y_true, y_proba, n_bins=n_bins, strategy=strategy)
    ece = expected_calibration_error(y_true, y_proba, n_bins=n_bins, strategy=strategy)
    ax = _axes(ax, (5.0, 5.0))
    if n_resamples:
        band = consistency_band(y_true, y_proba, n_bins=n_bins, strategy=strategy,
                                n_resamples=n_resamples, seed=seed)
        # Plain float arrays: matplotlib < 3.9 cannot mask pandas' nullable columns.
        ax.fill_between(*(band[column].to_numpy(dtype=float)
                          for column in ("confidence", "low", "high")), color="0.8",
                        alpha=0.7, step=None, label="95% band of a calibrated model")
    ax.plot([0, 1], [0, 1], linestyle="--", color="0.4", linewidth=1, label="calibrated")
    ax.plot(curve["confidence"], curve["accuracy"], "o-", color=OKABE_ITO["vermillion"],
            label=label or f"model (ECE {ece:.3f})")
    share = curve["count"].to_numpy() / curve["count"].sum()
    width = np.minimum(curve["bin_high"] - curve["bin_low"], 0.05).to_numpy()
    ax.bar(curve["confidence"], share * 0.25, width=width * 0.8, bottom=0.0,
           color=OKABE_ITO["sky blue"],
           alpha=0.8, label="share of samples (× 0.25)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("confidence (largest probability)")
    ax.set_ylabel("accuracy")
    ax.set_title(f"Reliability diagram ({len(curve)} non-empty {strategy} bins)")
    # Below the axes: inside, every corner covers a series (the bars at the foot, the band, or
    # the points of an over- or under-confident model).
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, fontsize=8)
    return ax
