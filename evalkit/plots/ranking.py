"""Ranked retrieval: DCG's gains and discounts, and the precision-recall points of one list."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_1d, check_grades, check_scalar, keyword_only
from ._common import OKABE_ITO, _axes

__all__ = ["plot_dcg_gains", "plot_precision_recall"]


@keyword_only
def plot_dcg_gains(
    gains: Any,
    *,
    k: int | None = None,
    variant: str = "trec",
    doc_ids: Any = None,
    highlight: int | None = None,
    ax: Any = None,
) -> Any:
    r"""Bar chart of each rank's gain and what is left of it after the discount.

    For every rank :math:`i` two bars share one slot: the gain :math:`G_i` (light) and the
    discounted gain :math:`G_i / D_i` (dark), where

    .. math::

        (G_i, D_i) =
        \begin{cases}
        (g_i,\; \log_2(i + 1)) & \texttt{"trec"} \\
        (2^{g_i} - 1,\; \log_2(i + 1)) & \texttt{"exponential"} \\
        (g_i,\; \max(1, \log_2 i)) & \texttt{"jarvelin"}
        \end{cases}

    as in :func:`evalkit.dcg`. The dark bars of the top k ranks add up to DCG@k, shown in the
    title; ranks below the cutoff are drawn faint.

    Parameters
    ----------
    gains : array-like of numbers
        Graded relevance in rank order, top first.
    k : int, optional
        The cutoff; default: the whole list.
    variant : {"trec", "exponential", "jarvelin"}, default "trec"
        The gain and discount convention.
    doc_ids : list of str, optional
        Document names, printed under the rank numbers.
    highlight : int, optional
        A rank (from 1) to outline, e.g. the document selected in an explorer.
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation of IR techniques.
    ACM Transactions on Information Systems 20(4), 422–446.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_dcg_gains([2, 1, 0, 2, 0], variant="jarvelin")
    >>> ax.get_title()
    'DCG@5 = 4.00 (jarvelin)'
    """
    from matplotlib.colors import to_rgba

    from .._ranking_core import discounted_gain
    from .._ranking_core import gain as dcg_gain
    from .._validation import check_option
    from ..ranking import DCG_VARIANTS, dcg

    grades = check_grades(gains, "gains")
    variant = check_option(variant, "variant", DCG_VARIANTS)
    n = grades.size
    k = n if k is None else min(check_scalar(k, "k", kind="int", low=1), n)
    ranks = np.arange(1, n + 1, dtype=np.float64)
    # The one definition of DCG's terms, the one dcg() adds up.
    gain = dcg_gain(grades, variant)
    discounted = discounted_gain(grades, ranks, variant)
    if doc_ids is None:
        labels = [str(i) for i in range(1, n + 1)]
    else:
        names = [str(d) for d in doc_ids]
        if len(names) != n:
            raise ValueError(f"doc_ids and gains have different lengths ({len(names)} != {n})")
        labels = [f"{i}\n{name}" for i, name in enumerate(names, start=1)]

    ax = _axes(ax, (6.0, 3.4))
    faint = np.where(ranks <= k, 1.0, 0.3)  # ranks below the cutoff add nothing to DCG@k
    ax.bar(ranks, gain, width=0.8, color=[to_rgba(OKABE_ITO["sky blue"], a) for a in faint],
           zorder=1,
           label="gain")
    ax.bar(ranks, discounted, width=0.45, color=[to_rgba(OKABE_ITO["blue"], a) for a in faint],
           zorder=2, label="discounted gain (adds up to DCG)")
    if k < n:
        ax.axvline(k + 0.5, color=OKABE_ITO["vermillion"], linestyle="--", linewidth=1.5,
                   label=f"cutoff k = {k}")
    if highlight is not None:
        rank = check_scalar(highlight, "highlight", kind="int", low=1)
        if rank > n:
            raise ValueError(f"highlight must be a rank between 1 and {n}; got {highlight}")
        top = max(float(gain[rank - 1]), 0.2)
        ax.bar(rank, top, width=0.9, fill=False, edgecolor=OKABE_ITO["vermillion"], linewidth=2.5,
               zorder=3,
               label="selected document")
    ax.set_xticks(ranks)
    ax.set_xticklabels(labels)
    ax.set_xlim(0.4, n + 0.6)
    ax.set_ylim(0, max(float(gain.max()), 1.0) * 1.6)  # headroom for the legend
    ax.set_xlabel("rank" if doc_ids is None else "rank and document")
    ax.set_ylabel("gain" + (" (2^grade − 1)" if variant == "exponential" else " (grade)"))
    ax.set_title(f"DCG@{k} = {dcg(grades, k=k, variant=variant):.2f} ({variant})")
    ax.legend(loc="upper center", ncol=2, fontsize=8, frameon=False)
    return ax


@keyword_only
def plot_precision_recall(
    points: Any,
    *,
    interpolated: Any = None,
    recall_levels: Any = None,
    label: str | None = None,
    title: str | None = None,
    ax: Any = None,
) -> Any:
    r"""Draw the precision-recall points of a ranking and, optionally, its interpolated curve.

    The raw curve joins the points :math:`(R@i, P@i)` of ranks :math:`i = 1, 2, \ldots` in rank
    order, so it is a saw-tooth: a non-relevant document lowers precision at the same recall, a
    relevant one moves right and up. Relevant ranks are filled dots. The interpolated curve
    (squares) is

    .. math::

        P_{\mathrm{interp}}(r) = \max_{i \,:\, R@i \,\ge\, r} P@i

    at each recall level, as returned by :func:`evalkit.interpolated_precision`.

    Parameters
    ----------
    points : pandas.DataFrame
        Columns ``recall`` and ``precision`` (and optionally ``relevant``), one row per rank,
        as returned by :func:`evalkit.precision_recall_points`.
    interpolated : array-like of floats, optional
        Interpolated precision at ``recall_levels``; not drawn when omitted.
    recall_levels : array-like of floats, optional
        The recall levels of ``interpolated``; default 0.0, 0.1, …, 1.0 (11 points).
    label : str, optional
        Prefix for the legend entries, e.g. the system's name.
    title : str, optional
        Default: "Precision-recall curve of a ranking".
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.4. Cambridge University Press.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from evalkit.ranking import interpolated_precision, precision_recall_points
    >>> ranking = [1, 0, 1, 0, 0, 0, 0, 0, 1, 1]
    >>> ax = plot_precision_recall(precision_recall_points(ranking),
    ...                            interpolated=interpolated_precision(ranking))
    >>> ax.get_xlabel()
    'recall (share of the R relevant documents found)'
    >>> [line.get_label() for line in ax.lines]
    ['precision after each rank', 'relevant document', 'interpolated precision']
    """
    from ..ranking import ELEVEN_POINTS

    missing = [c for c in ("recall", "precision") if c not in getattr(points, "columns", ())]
    if missing:
        raise ValueError(
            f"points must be a DataFrame with columns 'recall' and 'precision' (as from "
            f"precision_recall_points); missing {missing}"
        )
    recall = np.asarray(points["recall"], dtype=np.float64)
    precision = np.asarray(points["precision"], dtype=np.float64)
    if "relevant" in points.columns:
        relevant = np.asarray(points["relevant"], dtype=bool)
    else:  # a relevant document is where recall rises
        relevant = np.diff(np.concatenate([[0.0], np.nan_to_num(recall)])) > 0
    prefix = f"{label}: " if label else ""

    ax = _axes(ax, (5.5, 4.0))
    raw = ax.plot(recall, precision, color=OKABE_ITO["blue"], linewidth=1.2, marker="o",
                  markersize=4, markerfacecolor="white", label=f"{prefix}precision after each rank")
    ax.plot(recall[relevant], precision[relevant], linestyle="none", marker="o", markersize=6,
            color=raw[0].get_color(), label=f"{prefix}relevant document")
    if interpolated is not None:
        levels = ELEVEN_POINTS if recall_levels is None else check_1d(
            recall_levels, "recall_levels").astype(np.float64)
        values = check_1d(interpolated, "interpolated").astype(np.float64)
        if values.size != levels.size:
            raise ValueError(
                f"interpolated and recall_levels have different lengths "
                f"({values.size} != {levels.size})"
            )
        ax.plot(levels, values, color=OKABE_ITO["vermillion"], linewidth=1.8, linestyle="--",
                marker="s",
                markersize=5, label=f"{prefix}interpolated precision")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("recall (share of the R relevant documents found)")
    ax.set_ylabel("precision (share of the top i that is relevant)")
    ax.set_title(title or "Precision-recall curve of a ranking")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    return ax
