"""Set retrieval: the four cells of the contingency table, and the F-beta trade-off."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_1d, check_scalar, keyword_only
from ._common import NEUTRALS, OKABE_ITO, _axes

__all__ = ["plot_retrieval_sets", "plot_f_beta"]


# One colour per cell of the contingency table, used wherever the four cells are drawn
# (Okabe-Ito; each cell also carries its name, so colour is never the only key).
CELL_COLOURS = {"TP": OKABE_ITO["bluish green"], "FP": OKABE_ITO["vermillion"],
                "FN": OKABE_ITO["orange"], "TN": NEUTRALS["light grey"]}


@keyword_only
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

    counts = {name: check_scalar(value, name.lower(), kind="int", low=0) for name, value in
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
        ax.step(steps_x, steps_y, where="post", color=OKABE_ITO["blue"], linewidth=2.5,
                linestyle="--",
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


def _f_beta_curve(precision: float, recall: float, betas: np.ndarray) -> np.ndarray:
    """F-beta of one (precision, recall) pair at each beta, by the library's one definition.

    evalkit writes F once, in count form, (1 + b^2) TP / (b^2 (TP + FN) + TP + FP). Counts
    with TP = P R, TP + FP = R and TP + FN = P have precision P and recall R, and the count
    form is then (1 + b^2) P R / (b^2 P + R); 0 when P = R = 0.
    """
    from .._averaging import ClassCounts, average_scores

    counts = ClassCounts(labels=np.array([1]), tp=np.array([precision * recall]),
                         predicted=np.array([recall]), support=np.array([precision]),
                         n_samples=1)
    return np.array([average_scores(counts, "binary", want="f", beta=float(beta),
                                    zero_division=0.0) for beta in betas])


@keyword_only
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
    f = _f_beta_curve(float(precision), float(recall), betas)
    ax = _axes(ax, (6.5, 3.5))
    ax.plot(betas, f, color=OKABE_ITO["black"], linewidth=2, label=r"$F_\beta$")
    ax.axhline(precision, color=OKABE_ITO["vermillion"], linestyle="--",
               label=f"precision {precision:.2f}")
    ax.axhline(recall, color=OKABE_ITO["bluish green"], linestyle=":", label=f"recall {recall:.2f}")
    ax.axvline(1.0, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(r"$\beta$ (log scale): below 1 favours precision, above 1 recall")
    ax.set_ylabel(r"$F_\beta$")
    ax.set_ylim(0, 1.02)
    ax.set_title(r"$F_\beta$ moves from precision to recall as $\beta$ grows")
    ax.legend(loc="best", fontsize=8)
    return ax
