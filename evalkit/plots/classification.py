"""Classification: class weights of each averaging scheme, averages side by side, and
the confusion matrix."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_1d, check_square_matrix, keyword_only
from ._common import HATCHES, OKABE_ITO, _axes

__all__ = ["plot_class_weights", "plot_averages", "plot_confusion_matrix"]


# One Okabe-Ito colour and one hatch per averaging scheme, so that schemes differ by more
# than colour.
SCHEME_COLOURS = {"micro": OKABE_ITO["blue"], "weighted": OKABE_ITO["sky blue"],
                  "dodrans": OKABE_ITO["bluish green"], "entropy": OKABE_ITO["orange"],
                  "macro": OKABE_ITO["vermillion"], "macro_pr": OKABE_ITO["reddish purple"]}
SCHEME_HATCHES = dict(zip(SCHEME_COLOURS, HATCHES, strict=False))


@keyword_only
def plot_class_weights(
    support: Any,
    *,
    schemes: Any = ("weighted", "entropy", "dodrans", "macro"),
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
    from .._validation import check_option
    from ..classification import WEIGHT_SCHEMES, class_weights

    support = check_1d(support, "support")
    if isinstance(schemes, str):
        schemes = (schemes,)
    schemes = [check_option(scheme, "schemes", WEIGHT_SCHEMES) for scheme in schemes]
    if not schemes:
        raise ValueError("schemes is empty; expected at least one scheme")
    weights = [class_weights(support, scheme=scheme, n_samples=n_samples) for scheme in schemes]
    n = support.size
    names = [str(label) for label in (range(n) if labels is None else labels)]
    if len(names) != n:
        raise ValueError(f"labels and support have different lengths ({len(names)} != {n})")

    ax = _axes(ax, (7.5, 3.8))
    slots = np.arange(n, dtype=np.float64)
    width = 0.8 / len(schemes)
    for index, (scheme, weight) in enumerate(zip(schemes, weights, strict=True)):
        ax.bar(slots + (index - (len(schemes) - 1) / 2) * width, weight, width=width,
               color=SCHEME_COLOURS.get(scheme), hatch=SCHEME_HATCHES.get(scheme),
               edgecolor="white", label=scheme)
    ax.set_xticks(slots)
    ax.set_xticklabels([f"{name}\nn={int(count)}" for name, count in zip(names, support,
                                                                         strict=True)],
                       fontsize=8 if n <= 12 else 6)
    ax.set_xlabel("class and its number of samples n")
    ax.set_ylabel("weight of the class (each scheme sums to 1)")
    ax.set_title(f"Class weights under {len(schemes)} averaging schemes")
    ax.legend(loc="upper right", fontsize=8, title="scheme", title_fontsize=8)
    return ax


@keyword_only
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
        (or :meth:`evalkit.widgets.AveragingModel.averages`). A dict compares
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
                      color=colours, hatch=None if single else HATCHES[index % len(HATCHES)],
                      edgecolor="white", label=str(name))
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


@keyword_only
def plot_confusion_matrix(
    confusion: Any,
    *,
    labels: Any = None,
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
    >>> ax = plot_confusion_matrix([[5, 1], [2, 7]], labels=["cat", "dog"])
    >>> [t.get_text() for t in ax.texts]
    ['5', '1', '2', '7']
    >>> ax.get_ylabel(), ax.get_xlabel()
    ('true class', 'predicted class')
    """
    from .._validation import check_option

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
