"""Threshold curves: ROC and precision-recall, with the operating point."""

from __future__ import annotations

from typing import Any

from .._validation import keyword_only
from ._common import OKABE_ITO, _axes, _curve_arrays, _operating_point

__all__ = ["plot_roc_curve", "plot_pr_curve"]


def _finish_rate_axes(ax: Any, point: tuple[float, float] | None, xlabel: str, ylabel: str,
                      title: str, legend: str) -> Any:
    """Mark the operating point and label a plot whose axes are both rates in [0, 1]."""
    if point is not None:
        ax.plot(*point, marker="o", markersize=9, color=OKABE_ITO["vermillion"], linestyle="none",
                label="operating point")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc=legend, fontsize=8)
    return ax


@keyword_only
def plot_roc_curve(
    fpr: Any,
    tpr: Any,
    *,
    auc: float | None = None,
    operating_point: Any = None,
    label: str | None = None,
    title: str | None = None,
    ax: Any = None,
) -> Any:
    r"""Draw a ROC curve, the chance diagonal and, optionally, the current operating point.

    .. math::

        \bigl(\mathrm{FPR}(t), \mathrm{TPR}(t)\bigr) = \Bigl(\frac{FP(t)}{N}, \frac{TP(t)}{P}\Bigr)

    Call it again with the same ``ax`` to compare classifiers.

    Parameters
    ----------
    fpr, tpr : array-like
        The curve, as returned by :func:`evalkit.roc_curve`.
    auc : float, optional
        Written in the legend.
    operating_point : (fpr, tpr), optional
        The point of the chosen threshold, drawn as a large dot.
    label : str, optional
        Legend entry of the curve; default "ROC curve".
    title : str, optional
        Default: "ROC curve".
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8),
    861–874.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_roc_curve([0, 0, 0.5, 1], [0, 0.5, 1, 1], auc=0.875, operating_point=(0.5, 1))
    >>> [line.get_label() for line in ax.lines]
    ['ROC curve (AUC 0.875)', 'chance (AUC 0.5)', 'operating point']
    """
    fpr, tpr = _curve_arrays(fpr, tpr, "fpr", "tpr")
    point = _operating_point(operating_point, "operating_point")
    ax = _axes(ax, (4.6, 4.2))
    name = label or "ROC curve"
    if auc is not None:
        name += f" (AUC {auc:.3g})"
    ax.plot(fpr, tpr, linewidth=1.8, label=name)
    if not any(line.get_label().startswith("chance") for line in ax.lines):
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1, label="chance (AUC 0.5)")
    ax.set_aspect("equal")
    return _finish_rate_axes(ax, point, "false-positive rate (share of negatives flagged)",
                             "true-positive rate (recall)", title or "ROC curve", "lower right")


@keyword_only
def plot_pr_curve(
    precision: Any,
    recall: Any,
    *,
    prevalence: float | None = None,
    operating_point: Any = None,
    label: str | None = None,
    title: str | None = None,
    ax: Any = None,
) -> Any:
    r"""Draw a precision-recall curve, the no-skill line and, optionally, the operating point.

    .. math::

        \bigl(R(t), P(t)\bigr) = \Bigl(\frac{TP(t)}{P}, \frac{TP(t)}{TP(t) + FP(t)}\Bigr)

    The curve is drawn as steps (precision held to the next threshold), as scikit-learn's
    ``PrecisionRecallDisplay`` draws it. A classifier that guesses has precision equal to the
    share of positives (``prevalence``) at every recall: unlike the ROC diagonal, this line
    moves with the class balance.

    Parameters
    ----------
    precision, recall : array-like
        The curve, as returned by :func:`evalkit.precision_recall_curve`.
    prevalence : float, optional
        Share of positives; draws the no-skill line.
    operating_point : (recall, precision), optional
        The point of the chosen threshold.
    label : str, optional
        Legend entry of the curve; default "precision-recall curve".
    title : str, optional
        Default: "Precision-recall curve".
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC
    curves. ICML 2006, 233–240.
    Saito, T. and Rehmsmeier, M. (2015). The precision-recall plot is more informative than
    the ROC plot when evaluating binary classifiers on imbalanced datasets. PLoS ONE 10(3).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_pr_curve([0.5, 0.67, 1, 1], [1, 1, 0.5, 0], prevalence=0.5)
    >>> [line.get_label() for line in ax.lines]
    ['precision-recall curve', 'no skill (precision 0.5)']
    """
    precision, recall = _curve_arrays(precision, recall, "precision", "recall")
    point = _operating_point(operating_point, "operating_point")
    ax = _axes(ax, (4.6, 4.2))
    ax.step(recall, precision, where="post", linewidth=1.8,
            label=label or "precision-recall curve")
    if prevalence is not None:
        if not 0 <= prevalence <= 1:
            raise ValueError(f"prevalence must be a share between 0 and 1; got {prevalence!r}")
        ax.plot([0, 1], [prevalence, prevalence], color="grey", linestyle=":", linewidth=1,
                label=f"no skill (precision {prevalence:.3g})")
    return _finish_rate_axes(ax, point, "recall (true-positive rate)", "precision",
                             title or "Precision-recall curve", "lower left")
