"""Plots for the notebooks. Each function takes data and an optional ``ax`` and returns the Axes.

One file per topic (as scikit-learn's ``_plot/``): ``retrieval``, ``stats``, ``ranking``,
``classification``, ``curves``, ``costs``, ``correlation``, ``calibration`` and
``estimation``; ``_common`` holds what several of them share. matplotlib is imported inside
each function, so ``import evalkit`` stays light and the maths modules never depend on it.
"""

from ._common import LINE_STYLES, MARKERS, NEUTRALS, OKABE_ITO, style, use_style
from .calibration import plot_reliability_diagram
from .classification import (
    plot_averages,
    plot_class_weights,
    plot_confusion_matrix,
)
from .correlation import plot_rank_crossings
from .costs import plot_cost_curve, plot_normalized_cost_curve
from .critical_difference import plot_critical_difference
from .curves import plot_pr_curve, plot_roc_curve
from .estimation import plot_estimation_errors
from .ranking import plot_dcg_gains, plot_precision_recall
from .retrieval import plot_f_beta, plot_retrieval_sets
from .stats import plot_accuracy_spread

__all__ = [
    "OKABE_ITO",
    "NEUTRALS",
    "LINE_STYLES",
    "MARKERS",
    "use_style",
    "style",
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
    "plot_reliability_diagram",
    "plot_estimation_errors",
    "plot_critical_difference",
]
