"""Plots for the notebooks. Each function takes data and an optional ``ax`` and returns the Axes.

matplotlib is imported inside each function, so ``import evalkit`` stays light and the maths
modules never depend on it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import check_1d, check_count, check_square_matrix

__all__ = [
    "plot_retrieval_sets",
    "plot_accuracy_spread",
    "plot_f_beta",
    "plot_dcg_gains",
    "plot_precision_recall",
    "plot_class_weights",
    "plot_averages",
    "plot_confusion_matrix",
    "plot_roc_curve",
    "plot_pr_curve",
    "plot_cost_curve",
    "plot_normalized_cost_curve",
    "plot_rank_crossings",
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

    from ._validation import check_grades, check_option, check_scalar
    from .ranking import DCG_VARIANTS, dcg

    grades = np.maximum(check_grades(gains, "gains"), 0.0)  # negative grades carry no gain
    check_option(variant, "variant", DCG_VARIANTS)
    n = grades.size
    k = n if k is None else min(check_scalar(k, "k", kind="int", low=1), n)
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
        rank = check_scalar(highlight, "highlight", kind="int", low=1)
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


# ---------------------------------------------------------------------------------------------
# Averaging schemes (notebook 04)
# ---------------------------------------------------------------------------------------------

# One colour per averaging scheme, from "every sample counts" (dark) to "every class counts".
SCHEME_COLOURS = {"micro": "#1d3557", "weighted": "#457b9d", "dodrans": "#2a9d8f",
                  "entropy": "#e9c46a", "macro": "#e76f51", "macro_pr": "#9d4edd"}


def plot_class_weights(
    support: Any,
    schemes: Any = ("weighted", "entropy", "dodrans", "macro"),
    *,
    labels: Any = None,
    n_samples: int | None = None,
    ax: Any = None,
) -> Any:
    r"""Grouped bars: the weight each averaging scheme gives each class.

    For every class :math:`i` (one slot on the x axis, in the order given) there is one bar
    per scheme, of height :math:`w_i` from :func:`evalkit.class_weights`:

    .. math::

        w_i \propto 1 \;(\text{macro}), \quad n_i^{3/4} \;(\text{dodrans}), \quad
        -n_i \log_2(n_i / N) \;(\text{entropy}), \quad n_i \;(\text{weighted})

    Each scheme's bars sum to 1. On a long-tailed distribution the schemes fan out: weighted
    follows the class sizes, macro is flat, and dodrans and entropy lie in between. Entropy
    gives a class *less* weight once it holds more than :math:`N/e` of the samples.

    Parameters
    ----------
    support : array-like of int
        Number of true samples of each class.
    schemes : sequence of str, default ("weighted", "entropy", "dodrans", "macro")
        Schemes to draw, each a ``scheme`` of :func:`evalkit.class_weights`.
    labels : sequence, optional
        Class names for the x axis; default 0, 1, 2, ...
    n_samples : int, optional
        :math:`N` for entropy (default: the sum of ``support``).
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes
        One bar container per scheme, labelled with the scheme's name.

    References
    ----------
    Harbecke, D., Chen, Y., Hennig, L. and Alt, C. (2022). Why only Micro-F1? Class Weighting
    of Measures for Relation Classification. NLP Power! Workshop, ACL 2022.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_class_weights([90, 9, 1], schemes=("weighted", "macro"))
    >>> [round(float(bar.get_height()), 2) for bar in ax.containers[0]]
    [0.9, 0.09, 0.01]
    >>> ax.get_ylabel()
    'weight of the class (each scheme sums to 1)'
    """
    from ._validation import check_option
    from .classification import WEIGHT_SCHEMES, class_weights

    support = check_1d(support, "support")
    if isinstance(schemes, str):
        schemes = (schemes,)
    schemes = [check_option(scheme, "schemes", WEIGHT_SCHEMES) for scheme in schemes]
    if not schemes:
        raise ValueError("schemes is empty; expected at least one scheme")
    weights = [class_weights(support, scheme, n_samples=n_samples) for scheme in schemes]
    n = support.size
    names = [str(label) for label in (range(n) if labels is None else labels)]
    if len(names) != n:
        raise ValueError(f"labels and support have different lengths ({len(names)} != {n})")

    ax = _axes(ax, (7.5, 3.8))
    slots = np.arange(n, dtype=np.float64)
    width = 0.8 / len(schemes)
    for index, (scheme, weight) in enumerate(zip(schemes, weights, strict=True)):
        ax.bar(slots + (index - (len(schemes) - 1) / 2) * width, weight, width=width,
               color=SCHEME_COLOURS.get(scheme), label=scheme)
    ax.set_xticks(slots)
    ax.set_xticklabels([f"{name}\nn={int(count)}" for name, count in zip(names, support,
                                                                         strict=True)],
                       fontsize=8 if n <= 12 else 6)
    ax.set_xlabel("class and its number of samples n")
    ax.set_ylabel("weight of the class (each scheme sums to 1)")
    ax.set_title(f"Class weights under {len(schemes)} averaging schemes")
    ax.legend(loc="upper right", fontsize=8, title="scheme", title_fontsize=8)
    return ax


def plot_averages(
    reports: Any,
    *,
    column: str = "f_score",
    schemes: Any = ("micro", "weighted", "dodrans", "entropy", "macro", "macro_pr"),
    ax: Any = None,
) -> Any:
    """Bars of one score under each averaging scheme, for one system or several side by side.

    Parameters
    ----------
    reports : DataFrame or dict of str to DataFrame
        Tables indexed by scheme name, such as :func:`evalkit.classification_report` gives
        (or :meth:`evalkit.classification.ClassImbalanceModel.averages`). A dict compares
        several systems: one bar colour per system, its key in the legend.
    column : str, default "f_score"
        The column to draw ("precision", "recall" or "f_score").
    schemes : sequence of str
        The rows to draw, in order.
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes
        One bar container per system, in the order of ``reports``; each bar is labelled with
        its value (3 decimals).

    References
    ----------
    Harbecke, D., Chen, Y., Hennig, L. and Alt, C. (2022). Why only Micro-F1? Class Weighting
    of Measures for Relation Classification. NLP Power! Workshop, ACL 2022.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from evalkit.classification import classification_report
    >>> report = classification_report([0, 0, 0, 1], [0, 0, 1, 1])
    >>> ax = plot_averages(report, schemes=("micro", "macro"))
    >>> [round(float(bar.get_height()), 3) for bar in ax.containers[0]]
    [0.75, 0.733]
    """
    import pandas as pd

    systems = dict(reports) if isinstance(reports, dict) else {column: reports}
    if not systems:
        raise ValueError("reports is empty; expected a DataFrame or a dict of DataFrames")
    schemes = [schemes] if isinstance(schemes, str) else list(schemes)
    values = {}
    for name, table in systems.items():
        if not isinstance(table, pd.DataFrame):
            raise TypeError(f"reports[{name!r}] must be a DataFrame; got {type(table).__name__}")
        if column not in table.columns:
            raise ValueError(f"reports[{name!r}] has no column {column!r}; it has "
                             f"{list(table.columns)}")
        missing = [scheme for scheme in schemes if scheme not in table.index]
        if missing:
            raise ValueError(f"reports[{name!r}] has no row for {missing}")
        values[name] = table.loc[schemes, column].to_numpy(dtype=np.float64)

    ax = _axes(ax, (7.0, 3.6))
    slots = np.arange(len(schemes), dtype=np.float64)
    width = 0.8 / len(values)
    single = len(values) == 1
    for index, (name, heights) in enumerate(values.items()):
        colours = [SCHEME_COLOURS.get(scheme) for scheme in schemes] if single else None
        bars = ax.bar(slots + (index - (len(values) - 1) / 2) * width, heights, width=width,
                      color=colours, label=str(name))
        ax.bar_label(bars, labels=[f"{h:.3f}" for h in heights], fontsize=7, padding=1)
    ax.set_xticks(slots)
    ax.set_xticklabels(schemes)
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("averaging scheme (left: every sample counts; right: every class counts)")
    ax.set_ylabel(column.replace("f_score", "F score"))
    ax.set_title(f"{column.replace('f_score', 'F score')} under each averaging scheme")
    if not single:
        ax.legend(loc="lower left", fontsize=8)
    return ax


# --------------------------------------------------------------------------------------------
# Classification: confusion matrix, ROC and PR curves, cost curve
# --------------------------------------------------------------------------------------------


def plot_confusion_matrix(
    confusion: Any,
    labels: Any = None,
    *,
    normalize: str | None = None,
    title: str | None = None,
    ax: Any = None,
) -> Any:
    r"""Draw a confusion matrix as a heat map with each cell's count (or share) written in it.

    Rows are true classes, columns predicted classes, as :func:`evalkit.confusion_matrix`
    returns them. With ``normalize`` the shading and the numbers are shares:

    .. math::

        \text{"true"}: \frac{N_{ij}}{\sum_j N_{ij}} \ (\text{row: recall on the diagonal}),
        \qquad \text{"pred"}: \frac{N_{ij}}{\sum_i N_{ij}} \ (\text{column: precision}),
        \qquad \text{"all"}: \frac{N_{ij}}{n}

    Parameters
    ----------
    confusion : array-like of shape (k, k)
        Counts, rows true class and columns predicted class.
    labels : array-like of length k, optional
        Class names for the axes; default 0 … k-1.
    normalize : {None, "true", "pred", "all"}, default None
        Show counts (None) or shares of each row, column or of everything. A row or column
        with no sample shows 0.
    title : str, optional
        Default: "Confusion matrix".
    ax : matplotlib Axes, optional
        Where to draw; default: a new figure.

    Returns
    -------
    matplotlib Axes

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 14.5. Cambridge University Press.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_confusion_matrix([[5, 1], [2, 7]], ["cat", "dog"])
    >>> [t.get_text() for t in ax.texts]
    ['5', '1', '2', '7']
    >>> ax.get_ylabel(), ax.get_xlabel()
    ('true class', 'predicted class')
    """
    from ._validation import check_option

    counts = check_square_matrix(confusion, "confusion", counts=True)
    normalize = check_option(normalize, "normalize", (None, "true", "pred", "all"))
    k = counts.shape[0]
    names = [str(i) for i in range(k)] if labels is None else [str(x) for x in labels]
    if len(names) != k:
        raise ValueError(f"labels has {len(names)} names but confusion has {k} classes")
    if normalize is None:
        shown = counts
    else:
        total = {"true": counts.sum(axis=1, keepdims=True), "pred": counts.sum(axis=0,
                 keepdims=True), "all": counts.sum()}[normalize]
        with np.errstate(divide="ignore", invalid="ignore"):
            shown = np.where(total > 0, counts / np.where(total > 0, total, 1), 0.0)

    ax = _axes(ax, (1.2 + 0.7 * k, 1.0 + 0.6 * k))
    image = ax.imshow(shown, cmap="Blues", vmin=0)
    high = shown.max() if shown.size else 0
    for (i, j), value in np.ndenumerate(shown):
        text = f"{int(value)}" if normalize is None else f"{value:.2f}"
        ax.text(j, i, text, ha="center", va="center", fontsize=9,
                color="white" if high and value > 0.6 * high else "black")
    ax.set_xticks(range(k), names, rotation=45 if max(map(len, names)) > 3 else 0)
    ax.set_yticks(range(k), names)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    suffix = {None: "", "true": " (share of each true class)",
              "pred": " (share of each predicted class)", "all": " (share of all samples)"}
    ax.set_title((title or "Confusion matrix") + suffix[normalize])
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
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


def _finish_rate_axes(ax: Any, point: tuple[float, float] | None, xlabel: str, ylabel: str,
                      title: str, legend: str) -> Any:
    """Mark the operating point and label a plot whose axes are both rates in [0, 1]."""
    if point is not None:
        ax.plot(*point, marker="o", markersize=9, color="#e63946", linestyle="none",
                label="operating point")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc=legend, fontsize=8)
    return ax


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
        ax.plot(x, best[1], marker="*", markersize=13, color="#e63946", linestyle="none",
                label=f"cheapest: t = {best[0]:.3g}, cost {best[1]:.4g}")
    if current is not None:
        ax.axvline(current, color="#264653", linestyle="--", linewidth=1,
                   label=f"chosen t = {current:.3g}")
    ax.set_xlabel("threshold (predict positive when score >= threshold)")
    ax.set_ylabel(ylabel)
    ax.set_title(title or "Cost of each decision threshold")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    return ax


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

    The lower envelope of the lines is the classifier's cost curve: for each condition, the
    cost of its best threshold. Dashed: the trivial classifiers, "always negative"
    (:math:`NEC = PC`) and "always positive" (:math:`NEC = 1 - PC`). Multiply NEC by
    :math:`\pi\,(C_{FN} - C_{TP}) + (1 - \pi)\,(C_{FP} - C_{TN})` and add
    :math:`\pi\,C_{TP} + (1 - \pi)\,C_{TN}` to get the expected cost per case.

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
    fpr, tpr = _curve_arrays(fpr, tpr, "fpr", "tpr")
    for values, name in ((fpr, "fpr"), (tpr, "tpr")):
        if not np.isfinite(values).all() or (values < 0).any() or (values > 1).any():
            raise ValueError(f"{name} must hold rates between 0 and 1")
    if probability_cost is not None and not 0.0 <= float(probability_cost) <= 1.0:
        raise ValueError(f"probability_cost must lie in [0, 1]; got {probability_cost!r}")
    n_grid = check_count(n_grid, "n_grid", minimum=2)
    pc = np.linspace(0.0, 1.0, n_grid)
    # One row per operating point, one column per condition: every line at once.
    lines = (1.0 - tpr)[:, None] * pc[None, :] + fpr[:, None] * (1.0 - pc[None, :])
    envelope = lines.min(axis=0)

    ax = _axes(ax, (5.6, 4.2))
    if show_lines:
        ax.plot(pc, lines.T, color="#b0b7c3", linewidth=0.6, alpha=0.6)
    ax.plot(pc, pc, color="#6c757d", linestyle="--", linewidth=1, label="always negative")
    ax.plot(pc, 1.0 - pc, color="#6c757d", linestyle="-.", linewidth=1,
            label="always positive")
    ax.plot(pc, envelope, color="#1d3557", linewidth=2.2, label=label)
    if probability_cost is not None:
        x = float(probability_cost)
        y = float(np.min((1.0 - tpr) * x + fpr * (1.0 - x)))
        ax.axvline(x, color="#e63946", linestyle=":", linewidth=1)
        ax.plot(x, y, marker="o", color="#e63946", linestyle="none",
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

    from .correlation import concordant_discordant, kendall_tau

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
        ax.plot([0, 1], [left_rank[i], right_rank[i]], color="#e76f51" if chosen else "#457b9d",
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
    ax.scatter(t, left_rank[i] + (right_rank[i] - left_rank[i]) * t, s=28, color="#e63946",
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
