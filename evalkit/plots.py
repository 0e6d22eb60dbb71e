"""Plots for the notebooks. Each function takes data and an optional ``ax`` and returns the Axes.

matplotlib is imported inside each function, so ``import evalkit`` stays light and the maths
modules never depend on it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import check_1d, check_count

__all__ = [
    "plot_retrieval_sets",
    "plot_accuracy_spread",
    "plot_f_beta",
    "plot_dcg_gains",
    "plot_precision_recall",
]

# One colour per cell of the contingency table, used wherever the four cells are drawn.
CELL_COLOURS = {"TP": "#2a9d8f", "FP": "#e76f51", "FN": "#f4a261", "TN": "#d9d9d9"}


def _axes(ax: Any, figsize: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


def plot_retrieval_sets(tp: int, fp: int, fn: int, tn: int, *, ax: Any = None) -> Any:
    """Draw a collection as a unit square split into the four cells, areas proportional.

    The left column is the relevant documents (TP + FN), the right the non-relevant ones
    (FP + TN); the lower part of each column is what was retrieved. So the relevant set is a
    column, the retrieved set is the lower band, and their overlap is TP. Recall is the
    height of TP within its column; precision is TP's share of the retrieved band's area.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_retrieval_sets(30, 0, 10, 60)
    >>> ax.get_title()
    'Collection of 100 documents'
    """
    from matplotlib.patches import Rectangle

    counts = {name: check_count(value, name.lower()) for name, value in
              (("TP", tp), ("FP", fp), ("FN", fn), ("TN", tn))}
    total = sum(counts.values())
    if total == 0:
        raise ValueError("tp + fp + fn + tn must be at least 1")
    ax = _axes(ax, (5.5, 4.5))
    relevant = counts["TP"] + counts["FN"]
    width_relevant = relevant / total
    columns = ((0.0, width_relevant, "TP", "FN"), (width_relevant, 1 - width_relevant, "FP", "TN"))
    for left, width, retrieved_cell, missed_cell in columns:
        column_total = counts[retrieved_cell] + counts[missed_cell]
        height = counts[retrieved_cell] / column_total if column_total else 0.0
        for bottom, cell_height, cell in ((0.0, height, retrieved_cell),
                                          (height, 1 - height, missed_cell)):
            if width <= 0 or cell_height <= 0:
                continue
            ax.add_patch(Rectangle((left, bottom), width, cell_height,
                                   facecolor=CELL_COLOURS[cell], edgecolor="white", linewidth=1))
            if width * cell_height > 0.004:
                ax.text(left + width / 2, bottom + cell_height / 2, f"{cell}\n{counts[cell]}",
                        ha="center", va="center", fontsize=9)
    retrieved_share = (counts["TP"] + counts["FP"]) / total
    # Outline the two sets the reader reasons about.
    if width_relevant > 0:
        ax.add_patch(Rectangle((0, 0), width_relevant, 1, fill=False, edgecolor="black",
                               linewidth=2.5, label="relevant"))
    tp_height = counts["TP"] / relevant if relevant else 0.0
    fp_height = counts["FP"] / (total - relevant) if total > relevant else 0.0
    if retrieved_share > 0:
        steps_x = [0, width_relevant, width_relevant, 1]
        steps_y = [tp_height, tp_height, fp_height, fp_height]
        ax.step(steps_x, steps_y, where="post", color="navy", linewidth=2.5, linestyle="--",
                label="retrieved (below the dashed line)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("share of the collection: relevant (left) | not relevant (right)")
    ax.set_ylabel("share of each column that was retrieved")
    ax.set_title(f"Collection of {total} documents")
    if ax.get_legend_handles_labels()[0]:
        # Below the axes, so that it never hides a cell, however small.
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8,
                  frameon=False)
    return ax


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
    ax.hist(measured, bins=edges, color="#8ecae6", edgecolor="white",
            weights=np.full(len(measured), 100.0 / len(measured)))
    if interval is not None:
        ax.axvspan(interval[0], interval[1], color="#ffb703", alpha=0.3,
                   label=f"interval {interval[0]:.3f} – {interval[1]:.3f}")
    ax.axvline(true_accuracy, color="#d62828", linewidth=2,
               label=f"true accuracy {true_accuracy:.2f}")
    ax.set_xlabel("measured accuracy")
    ax.set_ylabel("share of test sets (%)")
    ax.set_title(f"Accuracy measured on {len(measured)} simulated test sets")
    ax.legend(loc="upper left", fontsize=8)
    return ax


def plot_f_beta(precision: float, recall: float, *, betas: Any = None, ax: Any = None) -> Any:
    r"""F-beta of one (precision, recall) pair as β varies on a log scale.

    At β = 1 F is the harmonic mean; as β → 0 it tends to precision and as β → ∞ to recall.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_f_beta(0.7, 0.4)
    >>> ax.get_xscale()
    'log'
    """
    for name, value in (("precision", precision), ("recall", recall)):
        if not isinstance(value, (int, float, np.floating)) or not 0 <= value <= 1:
            raise ValueError(f"{name} must be a number between 0 and 1; got {value!r}")
    betas = np.logspace(-2, 2, 201) if betas is None else check_1d(betas, "betas").astype(float)
    if np.any(betas <= 0):
        raise ValueError("betas must be positive (the plot uses a log scale)")
    beta2 = betas**2
    denominator = beta2 * precision + recall
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(denominator > 0, (1 + beta2) * precision * recall / denominator, 0.0)
    ax = _axes(ax, (6.5, 3.5))
    ax.plot(betas, f, color="#264653", linewidth=2, label=r"$F_\beta$")
    ax.axhline(precision, color="#e76f51", linestyle="--", label=f"precision {precision:.2f}")
    ax.axhline(recall, color="#2a9d8f", linestyle=":", label=f"recall {recall:.2f}")
    ax.axvline(1.0, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(r"$\beta$ (log scale): below 1 favours precision, above 1 recall")
    ax.set_ylabel(r"$F_\beta$")
    ax.set_ylim(0, 1.02)
    ax.set_title(r"$F_\beta$ moves from precision to recall as $\beta$ grows")
    ax.legend(loc="best", fontsize=8)
    return ax


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

    from ._validation import check_option
    from .ranking import DCG_VARIANTS, _cutoff, _grades, dcg

    grades = np.maximum(_grades(gains, "gains"), 0.0)  # negative grades carry no gain
    check_option(variant, "variant", DCG_VARIANTS)
    n = grades.size
    k = n if k is None else min(_cutoff(k), n)
    ranks = np.arange(1, n + 1, dtype=np.float64)
    if variant == "jarvelin":
        gain, discount = grades, np.maximum(np.log2(ranks), 1.0)
    else:
        gain = 2.0**grades - 1.0 if variant == "exponential" else grades
        discount = np.log2(ranks + 1.0)
    discounted = gain / discount
    if doc_ids is None:
        labels = [str(i) for i in range(1, n + 1)]
    else:
        names = [str(d) for d in doc_ids]
        if len(names) != n:
            raise ValueError(f"doc_ids and gains have different lengths ({len(names)} != {n})")
        labels = [f"{i}\n{name}" for i, name in enumerate(names, start=1)]

    ax = _axes(ax, (6.0, 3.4))
    faint = np.where(ranks <= k, 1.0, 0.3)  # ranks below the cutoff add nothing to DCG@k
    ax.bar(ranks, gain, width=0.8, color=[to_rgba("#a8dadc", a) for a in faint], zorder=1,
           label="gain")
    ax.bar(ranks, discounted, width=0.45, color=[to_rgba("#1d3557", a) for a in faint],
           zorder=2, label="discounted gain (adds up to DCG)")
    if k < n:
        ax.axvline(k + 0.5, color="#e63946", linestyle="--", linewidth=1.5, label=f"cutoff k = {k}")
    if highlight is not None:
        rank = _cutoff(highlight, "highlight")
        if rank > n:
            raise ValueError(f"highlight must be a rank between 1 and {n}; got {highlight}")
        top = max(float(gain[rank - 1]), 0.2)
        ax.bar(rank, top, width=0.9, fill=False, edgecolor="#e76f51", linewidth=2.5, zorder=3,
               label="selected document")
    ax.set_xticks(ranks)
    ax.set_xticklabels(labels)
    ax.set_xlim(0.4, n + 0.6)
    ax.set_ylim(0, max(float(gain.max()), 1.0) * 1.6)  # headroom for the legend
    ax.set_xlabel("rank" if doc_ids is None else "rank and document")
    ax.set_ylabel("gain" + (" (2^grade − 1)" if variant == "exponential" else " (grade)"))
    ax.set_title(f"DCG@{k} = {dcg(grades, k, variant):.2f} ({variant})")
    ax.legend(loc="upper center", ncol=2, fontsize=8, frameon=False)
    return ax


def plot_precision_recall(
    points: Any,
    interpolated: Any = None,
    *,
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
    ...                            interpolated_precision(ranking))
    >>> ax.get_xlabel()
    'recall (share of the R relevant documents found)'
    >>> [line.get_label() for line in ax.lines]
    ['precision after each rank', 'relevant document', 'interpolated precision']
    """
    from .ranking import ELEVEN_POINTS

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
    raw = ax.plot(recall, precision, color="#457b9d", linewidth=1.2, marker="o",
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
        ax.plot(levels, values, color="#e63946", linewidth=1.8, linestyle="--", marker="s",
                markersize=5, label=f"{prefix}interpolated precision")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("recall (share of the R relevant documents found)")
    ax.set_ylabel("precision (share of the top i that is relevant)")
    ax.set_title(title or "Precision-recall curve of a ranking")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    return ax
