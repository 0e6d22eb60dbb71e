"""Many systems on many data sets: Demšar's critical-difference diagram."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import keyword_only
from ..stats import nemenyi_test
from ._common import NEUTRALS, OKABE_ITO, _axes

__all__ = ["plot_critical_difference"]


@keyword_only
def plot_critical_difference(scores: Any, *, alpha: float = 0.05, ax: Any = None) -> Any:
    r"""Demšar's critical-difference diagram: average ranks, and which of them are not
    significantly different.

    The systems' average ranks (1 = best, from :func:`evalkit.nemenyi_test`) are marked on
    an axis from 1 to k, the better half labelled on the left, the other on the right. A
    thick bar joins each maximal group of systems whose average ranks differ by less than
    Nemenyi's critical difference

    .. math::

        CD = q_\alpha \sqrt{\frac{k (k + 1)}{6 N}},

    drawn as a scale bar above the axis. Two systems not joined by a bar differ
    significantly at ``alpha`` (family-wise, over all pairs); two joined by a bar have not
    been shown to differ, which is not evidence that they are equal.

    What is drawn, for tests and readers: the markers (gid ``"systems"``) sit at x = the
    average ranks, in the order of the columns of ``scores``; each bar (gid ``"group"``)
    runs from the lowest to the highest rank of one group of
    ``nemenyi_test(scores, alpha=alpha).groups``, in that order; the scale bar (gid
    ``"critical_difference"``) runs from 1 to 1 + CD.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        One row per data set or topic, one column per system (named by its column), higher
        is better, as :func:`evalkit.friedman_test`.
    alpha : float, default 0.05
        Family-wise significance level of Nemenyi's test, in (0, 1).
    ax : matplotlib Axes, optional
        Where to draw; default a new figure.

    Returns
    -------
    matplotlib.axes.Axes

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    Journal of Machine Learning Research 7, 1–30 (section 3.2.4, Figures 1 and 2).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> scores = pd.DataFrame({
    ...     "bm25":  [0.31, 0.42, 0.28, 0.55, 0.47, 0.39, 0.36, 0.50],
    ...     "rm3":   [0.35, 0.44, 0.30, 0.58, 0.45, 0.43, 0.37, 0.49],
    ...     "dense": [0.40, 0.49, 0.27, 0.63, 0.52, 0.46, 0.44, 0.57],
    ... })
    >>> ax = plot_critical_difference(scores)
    >>> [line.get_gid() for line in ax.lines].count("group")
    2
    >>> ax.get_title()
    'Nemenyi, alpha = 0.05: CD = 1.172 (k = 3 systems, N = 8 data sets)'
    """
    result = nemenyi_test(scores, alpha=alpha)
    ranks = np.asarray(result.ranks, dtype=np.float64)
    names = list(result.pvalues.index)
    k, cd = result.n_systems, result.critical_difference
    order = np.argsort(ranks, kind="stable")
    n_left = (k + 1) // 2
    row_step = 0.35
    ax = _axes(ax, (7.0, 1.4 + row_step * n_left + 0.25 * len(result.groups)))

    # the rank axis, 1 on the left
    ax.plot([1, k], [0, 0], color="black", linewidth=1, gid="rank_axis")
    for tick in range(1, k + 1):
        ax.plot([tick, tick], [0, 0.08], color="black", linewidth=1)
        ax.text(tick, 0.14, str(tick), ha="center", va="bottom", fontsize=9)
    # the critical difference as a scale bar above the axis
    ax.plot([1, 1 + cd], [0.62, 0.62], color=OKABE_ITO["vermillion"], linewidth=2,
            solid_capstyle="butt", gid="critical_difference")
    for end in (1, 1 + cd):
        ax.plot([end, end], [0.55, 0.69], color=OKABE_ITO["vermillion"], linewidth=1)
    ax.text(1 + cd / 2, 0.74, f"CD = {cd:.3f}", ha="center", va="bottom", fontsize=9,
            color=OKABE_ITO["vermillion"])

    # the groups of systems not significantly different, as thick bars below the axis
    bar_y = [-0.18 - 0.14 * j for j in range(len(result.groups))]
    position = {name: i for i, name in enumerate(names)}
    for y, group in zip(bar_y, result.groups, strict=True):
        members = ranks[[position[name] for name in group]]
        ax.plot([members.min(), members.max()], [y, y], color=NEUTRALS["dark grey"], linewidth=4,
                solid_capstyle="round", gid="group")
    lowest = min(bar_y, default=0.0) - 0.2

    # each system: a marker at its rank, an elbow line to its label at the side
    ax.plot(ranks, np.zeros(k), "o", color=OKABE_ITO["blue"], markersize=5, zorder=3, gid="systems")
    for place, system in enumerate(order):
        left = place < n_left
        row = place if left else k - 1 - place
        y = lowest - row_step * row
        side = 1 - 0.35 if left else k + 0.35
        ax.plot([ranks[system], ranks[system], side], [0, y, y], color=OKABE_ITO["blue"],
                linewidth=0.8, gid="label_line")
        ax.text(side - 0.05 if left else side + 0.05, y,
                f"{names[system]} ({ranks[system]:.2f})", ha="right" if left else "left",
                va="center", fontsize=9)

    ax.set_xlim(1 - 0.35 - 0.2 * k, k + 0.35 + 0.2 * k)
    ax.set_ylim(lowest - row_step * (n_left - 1) - 0.25, 1.0)
    ax.set_axis_off()
    ax.set_title(f"Nemenyi, alpha = {result.alpha:g}: CD = {cd:.3f} "
                 f"(k = {k} systems, N = {result.n_datasets} data sets)", fontsize=10)
    return ax
