"""Rank correlation: two rankings side by side, every crossing a discordant pair."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import keyword_only
from ._common import OKABE_ITO, _axes

__all__ = ["plot_rank_crossings"]


@keyword_only
def plot_rank_crossings(
    left: Any,
    right: Any,
    *,
    labels: Any = None,
    highlight: str | None = None,
    left_title: str = "reference",
    right_title: str = "second ranking",
    ax: Any = None,
) -> Any:
    r"""Two rankings side by side, one line per item: every crossing is a discordant pair.

    Item *i* is drawn from its place in the left ranking to its place in the right one (1 at
    the top; tied items share the average of their places). Two lines cross exactly when
    the pair is discordant, :math:`(l_i - l_j)(r_i - r_j) < 0`, so the red dots count *D*;
    a pair tied on one side starts (or ends) at one point and never crosses. The title gives
    *C*, *D* and Kendall's :math:`\tau_b` from :func:`evalkit.concordant_discordant` and
    :func:`evalkit.kendall_tau`.

    Parameters
    ----------
    left, right : array-like of numbers, shape (n_items,)
        Each item's place in the two rankings (lower = higher up); ties allowed.
    labels : sequence of str, optional
        Item names, in the same order; default 1, 2, ..., n.
    highlight : str, optional
        The label of an item whose line is drawn thick and in colour.
    left_title, right_title : str
        Names of the two rankings, written under the columns.
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Kendall, M. G. (1938). A new measure of rank correlation. Biometrika 30(1/2), 81–93.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_rank_crossings([1, 2, 3, 4, 5], [2, 1, 4, 5, 3])
    >>> ax.get_title()
    'C = 7, D = 3 crossings, τ-b = 0.40'
    >>> len(ax.collections[0].get_offsets())  # one red dot per crossing
    3
    """
    from scipy.stats import rankdata

    from ..correlation import concordant_discordant, kendall_tau

    counts = concordant_discordant(left, right)  # validates both
    left_rank = rankdata(np.asarray(left, dtype=float))
    right_rank = rankdata(np.asarray(right, dtype=float))
    n = len(left_rank)
    labels = [str(i) for i in range(1, n + 1)] if labels is None else [str(v) for v in labels]
    if len(labels) != n:
        raise ValueError(f"labels and left have different lengths ({len(labels)} != {n})")
    if highlight is not None and str(highlight) not in labels:
        raise ValueError(f"highlight must be one of the labels; got {highlight!r}")
    ax = _axes(ax, (3.6, 0.45 * n + 1.4))
    for i in range(n):  # one line per item: a handful of items, not samples
        chosen = labels[i] == str(highlight)
        ax.plot([0, 1], [left_rank[i], right_rank[i]],
                color=OKABE_ITO["vermillion"] if chosen else OKABE_ITO["blue"],
                linewidth=3 if chosen else 1.4, marker="o", markersize=4, zorder=3 if chosen else 2)
    for side, ranks, align in ((-0.06, left_rank, "right"), (1.06, right_rank, "left")):
        for name, y in zip(labels, ranks, strict=True):
            ax.text(side, y, name, ha=align, va="center", fontsize=9)
    # Where discordant lines cross: l_i + (r_i - l_i) t = l_j + (r_j - l_j) t.
    i, j = np.triu_indices(n, k=1)
    crossing = (left_rank[i] - left_rank[j]) * (right_rank[i] - right_rank[j]) < 0
    i, j = i[crossing], j[crossing]
    t = (left_rank[j] - left_rank[i]) / ((right_rank[i] - left_rank[i])
                                         - (right_rank[j] - left_rank[j]))
    ax.scatter(t, left_rank[i] + (right_rank[i] - left_rank[i]) * t, s=28,
               color=OKABE_ITO["vermillion"],
               zorder=4, label=f"crossings (discordant pairs): {len(t)}")
    ax.set_xlim(-0.35, 1.35)
    ax.set_ylim(n + 0.6, 0.4)
    ax.set_xticks([0, 1], [left_title, right_title])
    ax.set_yticks([])
    ax.set_ylabel("place (1 = top)")
    for spine in ax.spines.values():
        spine.set_visible(False)
    tau = kendall_tau(left, right)
    ax.set_title(f"C = {counts.concordant}, D = {counts.discordant} crossings, "
                 f"τ-b = {tau:.2f}")
    return ax
