"""evalkit: compute and understand how retrieval and classification systems are evaluated.

The public API is listed in ``shared/API.md``; everything it names is importable from here::

    import evalkit as ek
    ek.f1_score(y_true, y_pred, average="macro")

Data go by position, every option by keyword (a positional option is a TypeError that shows
the keyword call).

Topic modules hold the rest: ``evalkit.curves`` and ``evalkit.costs`` (helpers such as
``confusion_at_thresholds``, ``youden_index`` and ``costs_by_threshold``), ``evalkit.stats``
(the result types and option lists of the intervals and tests),
``evalkit.calibration`` (``consistency_band``), ``evalkit.trec`` (the TREC engine: files
and the metric names ``evaluate`` knows), ``evalkit.datasets`` (the ``data/`` folder),
``evalkit.course`` (``check``, the notebooks' exercise checker; the student edition and the
grader), ``evalkit.plots`` and
``evalkit.widgets`` (the notebooks' figures and explorers, loaded on first use as they import
matplotlib and ipywidgets).
"""

# Nothing below is imported by `import evalkit`: each public name and topic module is loaded on
# first use (PEP 562), so that the command line (`evalkit trec_eval`) and a script that uses one
# topic do not pay for pandas, scipy and matplotlib they never touch. `ek.f1_score` imports
# evalkit.classification (and what it needs) once; afterwards it is a plain attribute. The
# block below is what a type checker, an IDE and tests/test_architecture.py read; the table
# after it is what runs, and tests/test_packaging.py checks that the two agree.
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from . import (
        agreement,
        calibration,
        chance_corrected,
        checks,
        classification,
        correlation,
        costs,
        curves,
        datasets,
        exceptions,
        probabilistic,
        ranking,
        stats,
        trec,
    )
    from .agreement import (
        cohen_kappa,
        fleiss_kappa,
        interpret_kappa,
        kappa_from_table,
        kappa_terms,
        labels_from_table,
    )
    from .calibration import (
        brier_decomposition,
        brier_score,
        expected_calibration_error,
        reliability_curve,
        temperature_scale,
    )
    from .chance_corrected import balanced_accuracy, informedness, markedness, matthews_corrcoef
    from .classification import (
        accuracy,
        class_weights,
        classification_report,
        confusion_matrix,
        error_rate,
        f1_score,
        f_score,
        precision,
        recall,
        sensitivity,
        specificity,
    )
    from .correlation import concordant_discordant, kendall_tau, spearman_rho
    from .costs import (
        cost_optimal_threshold,
        expected_cost,
        normalized_expected_cost,
        probability_threshold,
        total_cost,
    )
    from .course import check
    from .curves import (
        binormal_auc,
        binormal_test_set,
        precision_recall_curve,
        roc_auc,
        roc_curve,
    )
    from .datasets import long_tailed_labels, long_tailed_support
    from .probabilistic import c_f1, c_precision, c_recall, probabilistic_confusion_matrix
    from .ranking import (
        average_precision,
        dcg,
        eleven_point_average,
        interpolated_precision,
        ndcg,
        precision_at_k,
        precision_recall_points,
        r_precision,
        recall_at_k,
        reciprocal_rank,
    )
    from .stats import (
        adjust_pvalues,
        available_sample,
        bootstrap_632,
        bootstrap_ci,
        cohens_d,
        compare_classifiers,
        compare_runs,
        compare_systems,
        corrected_resampled_t_test,
        effect_size_label,
        equal_variance_test,
        estimation_summary,
        five_by_two_cv_differences,
        five_by_two_cv_test,
        friedman_test,
        interval_coverage,
        mcnemar_test,
        nemenyi_test,
        paired_randomization_test,
        proportion_ci,
        proportion_se,
        resampled_class_scores,
        simulate_estimates,
        simulate_paired_t_tests,
        simulate_test_accuracies,
        t_test_power,
    )
    from .trec import (
        evaluate,
        pool,
        read_qrels,
        read_run,
        sample_qrels,
        trec_ranking,
        write_qrels,
        write_run,
    )

#: The topic modules, loaded on first use (``ek.trec``, ``ek.stats``, ...).
_LAZY_MODULES = frozenset({
    "agreement", "calibration", "chance_corrected", "checks", "classification", "correlation",
    "costs", "course", "curves", "datasets", "exceptions", "plots", "probabilistic", "ranking",
    "stats", "trec", "widgets",
})

#: Each public name -> the topic module that defines it. ``plot_reliability_diagram`` (API.md's
#: top-level plot) stays out of ``__all__``: ``from evalkit import *`` would import matplotlib.
_LAZY_ATTRIBUTES = {
    name: module
    for module, names in {
        "agreement": ("cohen_kappa", "fleiss_kappa", "interpret_kappa", "kappa_from_table",
                      "kappa_terms", "labels_from_table"),
        "calibration": ("brier_decomposition", "brier_score", "expected_calibration_error",
                        "reliability_curve", "temperature_scale"),
        "chance_corrected": ("balanced_accuracy", "informedness", "markedness",
                             "matthews_corrcoef"),
        "classification": ("accuracy", "class_weights", "classification_report",
                           "confusion_matrix", "error_rate", "f1_score", "f_score", "precision",
                           "recall", "sensitivity", "specificity"),
        "correlation": ("concordant_discordant", "kendall_tau", "spearman_rho"),
        "costs": ("cost_optimal_threshold", "expected_cost", "normalized_expected_cost",
                  "probability_threshold", "total_cost"),
        "course": ("check",),
        "curves": ("binormal_auc", "binormal_test_set", "precision_recall_curve", "roc_auc",
                   "roc_curve"),
        "datasets": ("long_tailed_labels", "long_tailed_support"),
        "probabilistic": ("c_f1", "c_precision", "c_recall", "probabilistic_confusion_matrix"),
        "ranking": ("average_precision", "dcg", "eleven_point_average", "interpolated_precision",
                    "ndcg", "precision_at_k", "precision_recall_points", "r_precision",
                    "recall_at_k", "reciprocal_rank"),
        "stats": ("adjust_pvalues", "available_sample", "bootstrap_632", "bootstrap_ci",
                  "cohens_d", "compare_classifiers", "compare_runs", "compare_systems",
                  "corrected_resampled_t_test", "effect_size_label", "equal_variance_test",
                  "estimation_summary", "five_by_two_cv_differences", "five_by_two_cv_test",
                  "friedman_test", "interval_coverage", "mcnemar_test", "nemenyi_test",
                  "paired_randomization_test", "proportion_ci", "proportion_se",
                  "resampled_class_scores", "simulate_estimates", "simulate_paired_t_tests",
                  "simulate_test_accuracies", "t_test_power"),
        "trec": ("evaluate", "pool", "read_qrels", "read_run", "sample_qrels", "trec_ranking",
                 "write_qrels", "write_run"),
        "plots": ("plot_reliability_diagram",),
    }.items()
    for name in names
}


def __getattr__(name: str):
    if name == "__version__":
        # The installed distribution's version (``evalkit --version`` prints it too); read
        # once, on first use, as importlib.metadata is not free.
        from ._version import find_version

        globals()["__version__"] = version = find_version()
        return version
    if name in _LAZY_MODULES or name in _LAZY_ATTRIBUTES:
        import importlib

        module = importlib.import_module(f"{__name__}.{_LAZY_ATTRIBUTES.get(name, name)}")
        value = module if name in _LAZY_MODULES else getattr(module, name)
        globals()[name] = value  # once: the next access is a plain attribute
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY_MODULES | set(_LAZY_ATTRIBUTES) | {"__version__"})


__all__ = [
    "accuracy",
    "class_weights",
    "classification_report",
    "confusion_matrix",
    "matthews_corrcoef",
    "balanced_accuracy",
    "informedness",
    "markedness",
    "error_rate",
    "f1_score",
    "f_score",
    "precision",
    "recall",
    "sensitivity",
    "specificity",
    "total_cost",
    "expected_cost",
    "cost_optimal_threshold",
    "probability_threshold",
    "normalized_expected_cost",
    "long_tailed_support",
    "long_tailed_labels",
    "roc_curve",
    "binormal_test_set",
    "binormal_auc",
    "roc_auc",
    "precision_recall_curve",
    "cohen_kappa",
    "kappa_from_table",
    "kappa_terms",
    "fleiss_kappa",
    "interpret_kappa",
    "labels_from_table",
    "kendall_tau",
    "concordant_discordant",
    "spearman_rho",
    "probabilistic_confusion_matrix",
    "c_precision",
    "c_recall",
    "c_f1",
    "temperature_scale",
    "brier_score",
    "brier_decomposition",
    "expected_calibration_error",
    "reliability_curve",
    "average_precision",
    "dcg",
    "interpolated_precision",
    "eleven_point_average",
    "ndcg",
    "precision_at_k",
    "precision_recall_points",
    "r_precision",
    "recall_at_k",
    "reciprocal_rank",
    "proportion_ci",
    "proportion_se",
    "simulate_test_accuracies",
    "interval_coverage",
    "bootstrap_ci",
    "paired_randomization_test",
    "cohens_d",
    "effect_size_label",
    "t_test_power",
    "simulate_paired_t_tests",
    "equal_variance_test",
    "resampled_class_scores",
    "compare_systems",
    "compare_runs",
    "adjust_pvalues",
    "mcnemar_test",
    "compare_classifiers",
    "five_by_two_cv_test",
    "five_by_two_cv_differences",
    "corrected_resampled_t_test",
    "available_sample",
    "simulate_estimates",
    "estimation_summary",
    "bootstrap_632",
    "friedman_test",
    "nemenyi_test",
    "evaluate",
    "trec_ranking",
    "pool",
    "sample_qrels",
    "read_qrels",
    "read_run",
    "write_qrels",
    "write_run",
    "check",
]
