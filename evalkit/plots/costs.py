"""Costs: the cost of every threshold, and Drummond & Holte's cost curve."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_scalar, keyword_only
from ._common import NEUTRALS, OKABE_ITO, _axes, _curve_arrays, _operating_point

__all__ = ["plot_cost_curve", "plot_normalized_cost_curve"]


@keyword_only
def plot_cost_curve(
    thresholds: Any,
    costs: Any,
    *,
    optimum: Any = None,
    current: float | None = None,
    ylabel: str = "total cost",
    title: str | None = None,
    ax: Any = None,
) -> Any:
    r"""Draw the cost of deciding "positive when score >= t" against the threshold t.

    .. math::

        \mathrm{cost}(t) = TN(t)\,C_{00} + FP(t)\,C_{01} + FN(t)\,C_{10} + TP(t)\,C_{11}

    The cost is a step function of t (it changes only where t passes a sample's score), so it
    is drawn as steps. The +inf threshold (nothing predicted positive) is not drawn, but is in
    the ``optimum`` when it is cheapest.

    Parameters
    ----------
    thresholds, costs : array-like
        As in the ``threshold`` and ``cost`` (or ``expected_cost``) columns of
        :func:`evalkit.costs.costs_by_threshold`.
    optimum : (threshold, cost), optional
        The cheapest threshold, e.g. from :func:`evalkit.cost_optimal_threshold`; marked.
    current : float, optional
        A threshold the reader chose; drawn as a vertical line.
    ylabel : str, default "total cost"
        The y-axis label (say "expected cost per case" when plotting that column).
    title : str, optional
        Default: "Cost of each decision threshold".
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_cost_curve([float("inf"), 0.8, 0.4, 0.35, 0.1], [10, 5, 6, 1, 2],
    ...                      optimum=(0.35, 1.0))
    >>> ax.get_xlabel()
    'threshold (predict positive when score >= threshold)'
    """
    thresholds, costs = _curve_arrays(thresholds, costs, "thresholds", "costs")
    finite = np.isfinite(thresholds)
    ax = _axes(ax, (5.5, 3.8))
    order = np.argsort(thresholds[finite])
    ax.step(thresholds[finite][order], costs[finite][order], where="post", linewidth=1.6,
            label=ylabel)
    best = _operating_point(optimum, "optimum")
    if best is not None:
        x = best[0] if np.isfinite(best[0]) else np.nanmax(thresholds[finite], initial=1.0)
        ax.plot(x, best[1], marker="*", markersize=13, color=OKABE_ITO["vermillion"],
                linestyle="none",
                label=f"cheapest: t = {best[0]:.3g}, cost {best[1]:.4g}")
    if current is not None:
        ax.axvline(current, color=OKABE_ITO["black"], linestyle="--", linewidth=1,
                   label=f"chosen t = {current:.3g}")
    ax.set_xlabel("threshold (predict positive when score >= threshold)")
    ax.set_ylabel(ylabel)
    ax.set_title(title or "Cost of each decision threshold")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    return ax


@keyword_only
def plot_normalized_cost_curve(
    fpr: Any,
    tpr: Any,
    *,
    probability_cost: float | None = None,
    label: str = "lower envelope (best threshold)",
    show_lines: bool = True,
    n_grid: int = 501,
    title: str | None = None,
    ax: Any = None,
) -> Any:
    r"""Drummond & Holte's cost curve: every threshold's expected cost under every condition.

    Each operating point (one threshold: its FPR and TPR) becomes a straight line of
    *normalised expected cost* against the *probability cost* :math:`PC(+)`, which folds the
    class prior :math:`\pi` and the costs into one number between 0 and 1:

    .. math::

        PC(+) = \frac{\pi\,(C_{FN} - C_{TP})}{\pi\,(C_{FN} - C_{TP}) + (1 - \pi)\,(C_{FP} -
        C_{TN})},
        \qquad
        NEC(PC) = (1 - TPR)\,PC + FPR\,(1 - PC)

    The lines come from :func:`evalkit.costs.normalized_expected_cost`. Their lower envelope
    is the classifier's cost curve: for each condition, the cost of its best threshold.
    Dashed: the trivial classifiers, "always negative" (:math:`NEC = PC`) and "always
    positive" (:math:`NEC = 1 - PC`). Multiply NEC by :math:`\pi\,(C_{FN} - C_{TP}) + (1 -
    \pi)\,(C_{FP} - C_{TN})` and add :math:`\pi\,C_{TP} + (1 - \pi)\,C_{TN}` to get the
    expected cost per case.

    Parameters
    ----------
    fpr, tpr : array-like
        Operating points, e.g. from :func:`evalkit.roc_curve`; each is drawn as a line.
    probability_cost : float, optional
        One condition :math:`PC(+)` in [0, 1] to mark, with the envelope's value there.
    label : str, default "lower envelope (best threshold)"
        Legend label of the envelope.
    show_lines : bool, default True
        Draw each operating point's line (thin, grey) under the envelope.
    n_grid : int, default 501
        Points of :math:`PC` at which the envelope is evaluated (the marked one is exact).
    title : str, optional
        Default: "Cost curve (Drummond & Holte)".
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Drummond, C. and Holte, R. C. (2006). Cost curves: an improved method for visualizing
    classifier performance. Machine Learning 65(1), 95–130.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_normalized_cost_curve([0.0, 0.1, 1.0], [0.0, 0.7, 1.0], probability_cost=0.5)
    >>> ax.get_xlabel()
    'probability cost PC(+)'
    >>> [line.get_label() for line in ax.get_lines()][-1]  # (0.3 * 0.5 + 0.1 * 0.5)
    'at PC(+) = 0.5: NEC = 0.2'
    """
    from ..costs import normalized_expected_cost

    n_grid = check_scalar(n_grid, "n_grid", kind="int", low=2)
    pc = np.linspace(0.0, 1.0, n_grid)
    lines = normalized_expected_cost(fpr, tpr, pc)  # validates fpr and tpr
    envelope = lines.min(axis=0)
    marked = None
    if probability_cost is not None:
        marked = float(normalized_expected_cost(fpr, tpr, probability_cost).min())

    ax = _axes(ax, (5.6, 4.2))
    if show_lines:
        ax.plot(pc, lines.T, color=NEUTRALS["light grey"], linewidth=0.6, alpha=0.6)
    ax.plot(pc, pc, color=NEUTRALS["dark grey"], linestyle="--", linewidth=1,
            label="always negative")
    ax.plot(pc, 1.0 - pc, color=NEUTRALS["dark grey"], linestyle="-.", linewidth=1,
            label="always positive")
    ax.plot(pc, envelope, color=OKABE_ITO["blue"], linewidth=2.2, label=label)
    if probability_cost is not None:
        x, y = float(probability_cost), marked
        ax.axvline(x, color=OKABE_ITO["vermillion"], linestyle=":", linewidth=1)
        ax.plot(x, y, marker="o", color=OKABE_ITO["vermillion"], linestyle="none",
                label=f"at PC(+) = {x:.3g}: NEC = {y:.3g}")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, max(0.55, float(envelope.max()) * 1.1))
    ax.set_xlabel("probability cost PC(+)")
    ax.set_ylabel("normalised expected cost")
    ax.set_title(title or "Cost curve (Drummond & Holte)")
    ax.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    keep = [i for i, text in enumerate(labels) if not text.startswith("_")]
    ax.legend([handles[i] for i in keep], [labels[i] for i in keep], loc="upper right",
              fontsize=8)
    return ax
