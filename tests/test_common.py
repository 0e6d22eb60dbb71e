"""One set of checks over every public function: the shared rules of the API contract.

Each public function has one entry in ``SPECS``: a valid call, and which of its arguments are
array-likes, which must have equal lengths, which hold scores (NaN is an error), which take
one of a list of option names, and which are numeric options. The tests below then check,
for every function at once, that

- a list, an ndarray and a pandas Series (a DataFrame for tables) give the same result;
- mismatched lengths, empty input and NaN scores raise ``ValueError`` naming the argument;
- an unknown option name raises ``ValueError`` naming the option;
- a numeric option given the wrong kind of object (``True``, ``"3"``) raises ``TypeError``,
  and a number of the right kind but a wrong value (``1.5`` where a whole number is meant, a
  negative) raises ``ValueError``, both naming the option;
- the docstring has the formula, References and a runnable Examples block.

A new public function is covered by adding one ``Spec`` to ``SPECS``;
``test_every_public_function_has_a_spec`` fails until it is.
"""

from __future__ import annotations

import functools
import inspect
import io
import math
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.neighbors import KNeighborsClassifier

import evalkit as ek
from evalkit import costs, curves, probabilistic, stats

# A small binary problem with scores, graded relevance, two raters, two rankings.
Y_TRUE = [0, 1, 1, 0, 1, 0, 1, 1, 0, 1]
Y_PRED = [0, 1, 0, 0, 1, 1, 1, 1, 0, 0]
Y_SCORE = [0.1, 0.8, 0.4, 0.3, 0.9, 0.6, 0.7, 0.65, 0.2, 0.45]
RELEVANCE = [1, 0, 2, 0, 1, 0, 0, 1, 0, 3]
RATER_A = ["yes", "no", "yes", "yes", "no", "no", "yes", "no"]
RATER_B = ["yes", "no", "no", "yes", "no", "yes", "yes", "no"]
X = [1.0, 2.5, 3.0, 0.5, 4.0, 2.0, 3.5]
Y = [2.0, 1.0, 3.5, 0.0, 4.5, 2.5, 3.0]
CONFUSION = [[50, 10], [5, 35]]
COST_MATRIX = [[0, 1], [5, 0]]
QRELS = pd.DataFrame({"query_id": ["1", "1", "1", "2", "2"],
                      "doc_id": ["a", "b", "c", "a", "d"], "relevance": [2, 0, 1, 1, 0]})
RUN = pd.DataFrame({"query_id": ["1", "1", "1", "2", "2"], "doc_id": ["b", "a", "x", "d", "a"],
                    "score": [3.0, 2.0, 1.0, 5.0, 4.0]})

UNKNOWN = "no-such-option"


@dataclass
class Spec:
    """How to call one public function, and which shared rules apply to which argument."""

    function: Callable[..., Any]
    kwargs: dict[str, Any]
    #: 1-D array-likes: a list, an ndarray and a Series must give the same result.
    arrays: tuple[str, ...] = ()
    #: 2-D tables: a nested list, an ndarray and a DataFrame must give the same result.
    tables: tuple[str, ...] = ()
    #: Arguments that must have equal lengths (the first two are compared).
    paired: tuple[str, ...] = ()
    #: Arrays that must not be empty.
    nonempty: tuple[str, ...] = ()
    #: Real-valued scores in which NaN is an error.
    scores: tuple[str, ...] = ()
    #: Arguments that take one of a list of names.
    options: tuple[str, ...] = ()
    #: Numeric options: name -> "int" or "real" (both reject True and "3"); "int" also
    #: rejects 1.5; the value in ``negative`` (if any) must be rejected as out of range.
    scalars: dict[str, str] = field(default_factory=dict)
    negative: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.function.__name__


def _binary(function: Callable[..., Any], **extra: Any) -> Spec:
    return Spec(function, {"y_true": Y_TRUE, "y_pred": Y_PRED, **extra},
                arrays=("y_true", "y_pred"), paired=("y_true", "y_pred"),
                nonempty=("y_true",), options=tuple(o for o in ("average",) if o in extra))


def _scored(function: Callable[..., Any], **extra: Any) -> Spec:
    return Spec(function, {"y_true": Y_TRUE, "y_score": Y_SCORE, **extra},
                arrays=("y_true", "y_score"), paired=("y_true", "y_score"),
                nonempty=("y_true",), scores=("y_score",))


def _ranked(function: Callable[..., Any], *, name: str = "relevance", cutoff: str | None = None,
            n_relevant: bool = False, level: bool = True, **extra: Any) -> Spec:
    kwargs: dict[str, Any] = {name: RELEVANCE, **extra}
    scalars, negative = {}, {}
    if cutoff:
        kwargs[cutoff] = 5
        scalars[cutoff], negative[cutoff] = "int", 0
    if n_relevant:
        kwargs["n_relevant"] = 6
        scalars["n_relevant"], negative["n_relevant"] = "int", -1
    if level:
        scalars["relevance_level"] = "real"
    return Spec(function, kwargs, arrays=(name,), nonempty=(name,), scores=(name,),
                scalars=scalars, negative=negative,
                options=tuple(o for o in ("variant", "denominator", "convention")
                              if o in inspect.signature(function).parameters))


def _positional(function: Callable[..., Any], *names: str) -> Callable[..., Any]:
    """``function`` called with the named arguments by position (for ``*arrays``), under its
    own name and docstring."""

    @functools.wraps(function)
    def call(**kwargs: Any) -> Any:
        positional = [kwargs.pop(name) for name in names]
        return function(*positional, **kwargs)

    return call


IRIS_X, IRIS_Y = load_iris(return_X_y=True)
#: A table of estimates: two samples, a holdout and a 10-fold estimate on each.
ESTIMATES = pd.DataFrame({"n_available": 100, "repeat": [0, 0, 0, 1, 1, 1],
                          "method": ["truth", "holdout", "k-fold"] * 2,
                          "parameter": [np.nan, 0.5, 10, np.nan, 0.5, 10],
                          "estimate": [0.80, 0.70, 0.78, 0.90, 0.86, 0.88]})

SPECS = [
    # classification
    _binary(ek.accuracy),
    _binary(ek.error_rate),
    _binary(ek.confusion_matrix),
    _binary(ek.precision, average="macro"),
    _binary(ek.recall, average="weighted"),
    _binary(ek.sensitivity, average="binary"),
    _binary(ek.specificity, average="micro"),
    _binary(ek.f1_score, average="entropy"),
    _binary(ek.matthews_corrcoef),
    _binary(ek.balanced_accuracy, adjusted=True),
    _binary(ek.informedness, average="macro"),
    _binary(ek.markedness, average="weighted"),
    Spec(ek.f_score, {"y_true": Y_TRUE, "y_pred": Y_PRED, "beta": 2.0, "average": "dodrans"},
         arrays=("y_true", "y_pred"), paired=("y_true", "y_pred"), nonempty=("y_true",),
         options=("average",), scalars={"beta": "real"}, negative={"beta": -1.0}),
    Spec(ek.classification_report, {"y_true": Y_TRUE, "y_pred": Y_PRED, "beta": 0.5},
         arrays=("y_true", "y_pred"), paired=("y_true", "y_pred"), nonempty=("y_true",),
         scalars={"beta": "real"}, negative={"beta": -1.0}),
    Spec(ek.class_weights, {"support": [50, 30, 5], "scheme": "dodrans"},
         arrays=("support",), nonempty=("support",), options=("scheme",)),
    # costs
    Spec(ek.total_cost, {"confusion": CONFUSION, "cost_matrix": COST_MATRIX},
         tables=("confusion", "cost_matrix")),
    Spec(ek.expected_cost, {"confusion": CONFUSION, "cost_matrix": COST_MATRIX,
                            "priors": [0.9, 0.1]},
         arrays=("priors",), tables=("confusion", "cost_matrix")),
    Spec(ek.cost_optimal_threshold, {"y_true": Y_TRUE, "y_score": Y_SCORE,
                                     "cost_matrix": COST_MATRIX},
         arrays=("y_true", "y_score"), tables=("cost_matrix",), paired=("y_true", "y_score"),
         nonempty=("y_true",), scores=("y_score",)),
    Spec(ek.probability_threshold, {"cost_matrix": [[0, 1], [20, 0]]}, tables=("cost_matrix",)),
    Spec(ek.long_tailed_support, {"n_samples": 100, "n_classes": 4, "skew": 1.0},
         scalars={"n_samples": "int", "n_classes": "int", "skew": "real"},
         negative={"n_samples": 0, "n_classes": 1, "skew": -1.0}),
    Spec(ek.long_tailed_labels, {"n_samples": 100, "n_classes": 4, "skew": 1.0,
                                 "rare_weakness": 0.5, "top_recall": 0.9,
                                 "errors_to": "uniform", "seed": 0},
         options=("errors_to",),
         scalars={"n_samples": "int", "n_classes": "int", "skew": "real",
                  "rare_weakness": "real", "top_recall": "real", "seed": "int"},
         negative={"n_samples": 0, "n_classes": 1, "skew": -1.0, "rare_weakness": -0.5,
                   "top_recall": 0.0, "seed": -1}),
    Spec(costs.costs_by_threshold, {"y_true": Y_TRUE, "y_score": Y_SCORE,
                                    "cost_matrix": COST_MATRIX},
         arrays=("y_true", "y_score"), tables=("cost_matrix",), paired=("y_true", "y_score"),
         nonempty=("y_true",), scores=("y_score",)),
    Spec(costs.normalized_expected_cost, {"fpr": [0.0, 0.1, 0.4, 1.0],
                                          "tpr": [0.0, 0.6, 0.9, 1.0],
                                          "probability_cost": [0.2, 0.5]},
         arrays=("fpr", "tpr", "probability_cost"), paired=("fpr", "tpr"), nonempty=("fpr",),
         scores=("fpr", "tpr")),
    # curves
    _scored(ek.roc_curve),
    _scored(ek.precision_recall_curve),
    Spec(ek.roc_auc, {"y_true": Y_TRUE, "y_score": Y_SCORE, "multi_class": None},
         arrays=("y_true", "y_score"), paired=("y_true", "y_score"), nonempty=("y_true",),
         scores=("y_score",), options=("multi_class",)),
    _scored(curves.confusion_at_thresholds),
    _scored(curves.youden_index),
    Spec(ek.binormal_test_set, {"separation": 1.5, "prevalence": 0.2, "n_pool": 20, "seed": 0},
         scalars={"separation": "real", "prevalence": "real", "n_pool": "int", "seed": "int"},
         negative={"prevalence": -0.2, "n_pool": -1, "seed": -1}),
    Spec(ek.binormal_auc, {"separation": 1.5}, scalars={"separation": "real"}),
    # agreement and correlation
    Spec(ek.cohen_kappa, {"rater_a": RATER_A, "rater_b": RATER_B, "weights": None,
                          "marginals": "pooled"},
         arrays=("rater_a", "rater_b"), paired=("rater_a", "rater_b"), nonempty=("rater_a",),
         options=("weights", "marginals")),
    Spec(ek.kappa_from_table, {"table": [[20, 5], [10, 15]], "weights": "linear",
                               "marginals": "separate"},
         tables=("table",), options=("weights", "marginals")),
    Spec(ek.kappa_terms, {"table": [[20, 5], [10, 15]], "weights": "quadratic",
                          "marginals": "pooled"},
         tables=("table",), options=("weights", "marginals")),
    Spec(ek.fleiss_kappa, {"counts": [[3, 0], [2, 1], [0, 3], [1, 2]]}, tables=("counts",)),
    Spec(ek.labels_from_table, {"table": [[20, 5], [10, 15]], "labels": [1, 0]},
         tables=("table",)),
    Spec(ek.interpret_kappa, {"kappa": 0.65, "scale": "landis-koch"}, options=("scale",),
         scalars={"kappa": "real"}, negative={"kappa": 1.5}),
    Spec(ek.kendall_tau, {"x": X, "y": Y, "variant": "b"}, arrays=("x", "y"),
         paired=("x", "y"), nonempty=("x",), scores=("x", "y"), options=("variant",)),
    Spec(ek.concordant_discordant, {"x": X, "y": Y}, arrays=("x", "y"), paired=("x", "y"),
         nonempty=("x",), scores=("x", "y")),
    Spec(ek.spearman_rho, {"x": X, "y": Y}, arrays=("x", "y"), paired=("x", "y"),
         nonempty=("x",), scores=("x", "y")),
    # ranking, one list
    _ranked(ek.precision_at_k, cutoff="k"),
    _ranked(ek.recall_at_k, cutoff="k", n_relevant=True),
    _ranked(ek.r_precision, n_relevant=True),
    _ranked(ek.average_precision, cutoff="k", n_relevant=True),
    _ranked(ek.reciprocal_rank, cutoff="k"),
    _ranked(ek.precision_recall_points, n_relevant=True),
    _ranked(ek.interpolated_precision, n_relevant=True),
    _ranked(ek.eleven_point_average, n_relevant=True),
    _ranked(ek.dcg, name="gains", cutoff="k", level=False),
    _ranked(ek.ndcg, name="gains", cutoff="k", level=False),
    # ranking, many queries (tables of a fixed shape: checked in tests/test_trec.py too)
    Spec(ek.evaluate, {"qrels": QRELS, "run": RUN, "metrics": ["AP", "nDCG@2"]},
         options=("missing_queries",), scalars={"relevance_level": "real"}),
    Spec(ek.trec_ranking, {"qrels": QRELS, "run": RUN}, scalars={"relevance_level": "real"}),
    Spec(ek.pool, {"runs": RUN, "depth": 2}, scalars={"depth": "int"}, negative={"depth": 0}),
    Spec(ek.sample_qrels, {"qrels": QRELS, "fraction": 0.5, "seed": 0}, options=("unjudged",),
         scalars={"fraction": "real"}, negative={"fraction": -0.5}),
    Spec(ek.read_qrels, {"path_or_buffer": "1 0 a 1\n"}),
    Spec(ek.read_run, {"path_or_buffer": "1 Q0 a 1 2.5 r\n"}),
    Spec(ek.write_qrels, {"qrels": QRELS, "path_or_buffer": None}),
    Spec(ek.write_run, {"run": RUN, "path_or_buffer": None}),
    # probabilistic metrics and calibration
    *[Spec(function, {"y_true": Y_TRUE, "y_proba": Y_SCORE, "average": "macro"},
           arrays=("y_true", "y_proba"), paired=("y_true", "y_proba"), nonempty=("y_true",),
           scores=("y_proba",), options=("average",))
      for function in (ek.c_precision, ek.c_recall, ek.c_f1)],
    Spec(ek.probabilistic_confusion_matrix, {"y_true": Y_TRUE, "y_proba": Y_SCORE},
         arrays=("y_true", "y_proba"), paired=("y_true", "y_proba"), nonempty=("y_true",),
         scores=("y_proba",)),
    Spec(ek.temperature_scale, {"y_proba": Y_SCORE, "temperature": 0.5}, arrays=("y_proba",),
         nonempty=("y_proba",), scores=("y_proba",), scalars={"temperature": "real"},
         negative={"temperature": 0.0}),
    Spec(ek.brier_score, {"y_true": Y_TRUE, "y_proba": Y_SCORE}, arrays=("y_true", "y_proba"),
         paired=("y_true", "y_proba"), nonempty=("y_true",), scores=("y_proba",)),
    Spec(ek.brier_decomposition, {"y_true": Y_TRUE, "y_proba": Y_SCORE, "n_bins": 4},
         arrays=("y_true", "y_proba"), paired=("y_true", "y_proba"), nonempty=("y_true",),
         scores=("y_proba",), scalars={"n_bins": "int"}, negative={"n_bins": 0}),
    Spec(ek.expected_calibration_error, {"y_true": Y_TRUE, "y_proba": Y_SCORE, "n_bins": 4,
                                         "strategy": "quantile", "norm": "l2"},
         arrays=("y_true", "y_proba"), paired=("y_true", "y_proba"), nonempty=("y_true",),
         scores=("y_proba",), options=("strategy", "norm"), scalars={"n_bins": "int"},
         negative={"n_bins": 0}),
    Spec(ek.reliability_curve, {"y_true": Y_TRUE, "y_proba": Y_SCORE, "n_bins": 4},
         arrays=("y_true", "y_proba"), paired=("y_true", "y_proba"), nonempty=("y_true",),
         scores=("y_proba",), options=("strategy",), scalars={"n_bins": "int"},
         negative={"n_bins": 0}),
    Spec(probabilistic.consistency_band, {"y_true": Y_TRUE, "y_proba": Y_SCORE, "n_bins": 3,
                                          "n_resamples": 50, "confidence": 0.9,
                                          "seed": 0},
         arrays=("y_true", "y_proba"), paired=("y_true", "y_proba"), nonempty=("y_true",),
         scores=("y_proba",), options=("strategy",),
         scalars={"n_bins": "int", "n_resamples": "int", "confidence": "real"},
         negative={"n_bins": 0, "n_resamples": 0, "confidence": 1.0}),
    # statistics
    Spec(stats.proportion_ci, {"successes": 80, "n": 100, "confidence": 0.9},
         options=("method",), scalars={"confidence": "real"}, negative={"confidence": -0.5}),
    Spec(ek.simulate_test_accuracies, {"n_test": 50, "true_accuracy": 0.8, "n_repeats": 20,
                                       "seed": 0},
         scalars={"n_test": "int", "true_accuracy": "real", "n_repeats": "int"},
         negative={"n_test": 0, "true_accuracy": -0.1, "n_repeats": 0}),
    Spec(ek.proportion_se, {"p": 0.8, "n": 100}, scalars={"p": "real", "n": "int"},
         negative={"p": -0.1, "n": 0}),
    Spec(ek.interval_coverage, {"n": 20, "p": 0.95, "method": "wilson", "confidence": 0.9},
         options=("method",), scalars={"n": "int", "p": "real", "confidence": "real"},
         negative={"n": 0, "p": -0.1, "confidence": -0.5}),
    Spec(_positional(ek.bootstrap_ci, "metric", "y_true", "y_pred"),
         {"metric": ek.f1_score, "y_true": Y_TRUE, "y_pred": Y_PRED, "n_resamples": 50,
          "confidence": 0.9, "method": "bca", "seed": 0},
         arrays=("y_true", "y_pred"), paired=("y_true", "y_pred"), nonempty=("y_true",),
         options=("method",), scalars={"n_resamples": "int", "confidence": "real"},
         negative={"n_resamples": 1, "confidence": 1.0}),
    Spec(ek.paired_randomization_test, {"scores_a": X, "scores_b": Y, "n_resamples": 100,
                                        "seed": 0},
         arrays=("scores_a", "scores_b"), paired=("scores_a", "scores_b"),
         nonempty=("scores_a",), scores=("scores_a", "scores_b"),
         scalars={"n_resamples": "int"}, negative={"n_resamples": 0}),
    Spec(ek.cohens_d, {"a": X, "b": Y, "paired": True}, arrays=("a", "b"), paired=("a", "b"),
         nonempty=("a",), scores=("a", "b")),
    Spec(ek.effect_size_label, {"d": -0.6}, scalars={"d": "real"}),
    Spec(ek.cohens_d, {"a": X, "b": Y, "paired": True, "kind": "d_av"}, arrays=("a", "b"),
         paired=("a", "b"), nonempty=("a",), scores=("a", "b"), options=("kind",)),
    Spec(ek.effect_size_label, {"d": -0.6, "kind": "d_s"}, scalars={"d": "real"},
         options=("kind",)),
    Spec(ek.t_test_power, {"effect_size": 0.8, "n": 5, "paired": False, "alpha": 0.05},
         scalars={"effect_size": "real", "n": "int", "alpha": "real"},
         negative={"n": 1, "alpha": -0.1}),
    Spec(ek.simulate_paired_t_tests, {"n_topics": 8, "effect_size": 0.5, "n_repeats": 20,
                                       "seed": 0},
         scalars={"n_topics": "int", "effect_size": "real", "n_repeats": "int"},
         negative={"n_topics": 1, "n_repeats": 0}),
    Spec(ek.equal_variance_test, {"a": X, "b": Y, "test": "bartlett"}, arrays=("a", "b"),
         nonempty=("a", "b"), scores=("a", "b"), options=("test",)),
    Spec(ek.compare_systems, {"scores_a": X, "scores_b": Y, "test": "randomization",
                              "n_resamples": 100, "seed": 0},
         arrays=("scores_a", "scores_b"), paired=("scores_a", "scores_b"),
         nonempty=("scores_a",), scores=("scores_a", "scores_b"), options=("test",),
         scalars={"n_resamples": "int"}, negative={"n_resamples": 0}),
    Spec(ek.compare_runs, {"scores": pd.DataFrame({"base": X, "new": Y, "other": X[::-1]}),
                           "baseline": "base", "test": "wilcoxon", "correction": "bonferroni",
                           "alpha": 0.1},
         options=("test", "correction"), scalars={"alpha": "real", "n_resamples": "int"},
         negative={"alpha": 1.0, "n_resamples": 0}),
    # issue 32: the Holm adjustment compare_runs uses; per-class scores of weighted resamples
    Spec(ek.adjust_pvalues, {"pvalues": [0.01, 0.04, 0.03, 0.2], "correction": "bonferroni"},
         arrays=("pvalues",), nonempty=("pvalues",), options=("correction",)),
    Spec(ek.resampled_class_scores, {"y_true": Y_TRUE, "y_proba": np.eye(2)[Y_PRED],
                                     "resample_weights": np.ones((3, len(Y_TRUE)))},
         arrays=("y_true",), nonempty=("y_true",)),
    # two classifiers on one test set; two learning algorithms (issue 30)
    Spec(ek.mcnemar_test, {"y_true": Y_TRUE, "y_pred_a": Y_PRED, "y_pred_b": Y_TRUE[::-1],
                           "method": "mid-p"},
         arrays=("y_true", "y_pred_a", "y_pred_b"), paired=("y_true", "y_pred_a"),
         nonempty=("y_true",), options=("method",)),
    Spec(ek.compare_classifiers, {"y_true": Y_TRUE, "y_pred_a": Y_PRED,
                                  "y_pred_b": Y_TRUE[::-1], "metric": "accuracy",
                                  "test": "bootstrap", "n_resamples": 50, "seed": 0,
                                  "confidence": 0.9},
         arrays=("y_true", "y_pred_a", "y_pred_b"), paired=("y_true", "y_pred_a"),
         nonempty=("y_true",), options=("metric", "test"),
         scalars={"n_resamples": "int", "confidence": "real"},
         negative={"n_resamples": 0, "confidence": 1.0}),
    Spec(ek.five_by_two_cv_test, {"differences": [[0.03, 0.01], [0.02, 0.05], [0.0, 0.02],
                                                  [0.04, 0.02], [0.03, 0.01]], "test": "f"},
         tables=("differences",), options=("test",)),
    Spec(ek.five_by_two_cv_differences, {"estimator_a": KNeighborsClassifier(1),
                                         "estimator_b": KNeighborsClassifier(5), "X": IRIS_X,
                                         "y": IRIS_Y, "seed": 0},
         arrays=("y",), tables=("X",)),
    Spec(ek.corrected_resampled_t_test, {"differences": X, "test_fraction": 0.2},
         arrays=("differences",), nonempty=("differences",), scores=("differences",),
         scalars={"test_fraction": "real"}, negative={"test_fraction": 1.0}),
    Spec(ek.friedman_test, {"scores": [X, Y, X[::-1], Y[::-1]]}, tables=("scores",)),
    Spec(ek.nemenyi_test, {"scores": [X, Y, X[::-1], Y[::-1]], "alpha": 0.1},
         tables=("scores",), scalars={"alpha": "real"}, negative={"alpha": 1.0}),
    Spec(ek.available_sample, {"n_total": 10, "n_available": 4, "seed": 0, "repeat": 0},
         scalars={"n_total": "int", "n_available": "int", "seed": "int", "repeat": "int"},
         negative={"n_available": 1, "seed": -1, "repeat": -1}),
    Spec(ek.simulate_estimates, {"estimator": KNeighborsClassifier(1), "X": IRIS_X,
                                 "y": IRIS_Y, "n_available": 20, "n_repeats": 2,
                                 "k_values": (5,), "test_fractions": (0.25,)},
         scalars={"n_available": "int", "n_repeats": "int", "seed": "int"},
         negative={"n_available": 1, "n_repeats": 0, "seed": -1}),
    Spec(ek.estimation_summary, {"estimates": ESTIMATES}),
    Spec(ek.bootstrap_632, {"estimator": KNeighborsClassifier(1), "X": IRIS_X, "y": IRIS_Y,
                            "n_resamples": 5, "seed": 0},
         scalars={"n_resamples": "int"}, negative={"n_resamples": 0}),
]
SPEC_BY_NAME = {spec.name: spec for spec in SPECS}

#: Public functions that are not metrics: file locations and data sets.
# Not metrics: the data folder helpers, and check (never raises: tests/test_checks.py).
NOT_METRICS = {"data_dir", "data_path", "list_data", "load_collection", "check"}


def _public_functions() -> set[str]:
    names = {name for name in ek.__all__ if inspect.isfunction(getattr(ek, name))}
    for module in (ek.classification, ek.costs, ek.curves, ek.agreement, ek.correlation,
                   ek.ranking, ek.trec, ek.stats, ek.datasets, ek.probabilistic):
        names |= {name for name in getattr(module, "__all__", ())
                  if inspect.isfunction(getattr(module, name))}
    return names - NOT_METRICS


def _call(spec: Spec, **changes: Any) -> Any:
    kwargs = {**spec.kwargs, **changes}
    for name in ("path_or_buffer",):
        if name in kwargs:  # a fresh buffer per call: readers consume it, writers fill it
            value = kwargs[name]
            kwargs[name] = io.StringIO(value) if isinstance(value, str) else io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return spec.function(**kwargs)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, pd.DataFrame | pd.Series):
        pd.testing.assert_frame_equal(pd.DataFrame(a), pd.DataFrame(b))
        return True
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, str) or a is None:
        return a == b
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def _ids(specs: list[Spec]) -> list[str]:
    return [spec.name for spec in specs]


def _with(attribute: str) -> list[Spec]:
    return [spec for spec in SPECS if getattr(spec, attribute)]


# ---------------------------------------------------------------------------------------------
# Coverage of the list itself
# ---------------------------------------------------------------------------------------------


def test_every_public_function_has_a_spec():
    missing = _public_functions() - set(SPEC_BY_NAME)
    assert not missing, f"add a Spec to tests/test_common.py for: {sorted(missing)}"


@pytest.mark.parametrize("spec", SPECS, ids=_ids(SPECS))
def test_the_valid_call_works(spec):
    result = _call(spec)
    if spec.function not in (ek.write_qrels, ek.write_run):
        assert result is not None


# ---------------------------------------------------------------------------------------------
# Array-likes
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", _with("arrays") + [s for s in _with("tables")
                                                     if not s.arrays],
                         ids=_ids(_with("arrays") + [s for s in _with("tables") if not s.arrays]))
@pytest.mark.parametrize("container", ["ndarray", "series"])
def test_list_ndarray_and_series_agree(spec, container):
    expected = _call(spec)
    changes = {}
    for name in spec.arrays:
        values = spec.kwargs[name]
        changes[name] = np.asarray(values) if container == "ndarray" else pd.Series(values)
    for name in spec.tables:
        values = spec.kwargs[name]
        changes[name] = np.asarray(values) if container == "ndarray" else pd.DataFrame(values)
    assert _same(expected, _call(spec, **changes))


@pytest.mark.parametrize("spec", _with("paired"), ids=_ids(_with("paired")))
def test_mismatched_lengths_are_named(spec):
    first, second = spec.paired[:2]
    shorter = list(spec.kwargs[second])[:-1]
    with pytest.raises(ValueError, match=rf"{first} and {second} have different lengths "
                                         rf"\(\d+ != \d+\)"):
        _call(spec, **{second: shorter})


@pytest.mark.parametrize("spec", _with("nonempty"), ids=_ids(_with("nonempty")))
def test_empty_input_is_named(spec):
    empty = {name: [] for name in spec.arrays}
    with pytest.raises(ValueError, match=rf"({'|'.join(spec.arrays)}) is empty"):
        _call(spec, **empty)


@pytest.mark.parametrize("spec", _with("scores"), ids=_ids(_with("scores")))
def test_nan_scores_are_named(spec):
    for name in spec.scores:
        values = np.asarray(spec.kwargs[name], dtype=np.float64).copy()
        values[2] = np.nan
        with pytest.raises(ValueError, match=rf"{name} contains (NaN|nan)"):
            _call(spec, **{name: values})


# ---------------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", _with("options"), ids=_ids(_with("options")))
def test_unknown_option_names_the_option(spec):
    for name in spec.options:
        with pytest.raises(ValueError, match=rf"{name} must be one of .*; got '{UNKNOWN}'"):
            _call(spec, **{name: UNKNOWN})


@pytest.mark.parametrize("spec", _with("options"), ids=_ids(_with("options")))
def test_option_names_match_whatever_their_case(spec):
    # One policy (check_option): "MACRO" is "macro", and the function acts on the allowed
    # spelling (a function that checked the name but kept what it was given would not).
    for name in spec.options:
        given = spec.kwargs.get(name, inspect.signature(spec.function).parameters[name].default)
        if not isinstance(given, str) or given.upper() == given:
            continue
        assert _same(_call(spec, **{name: given.upper()}), _call(spec)), name


SCALAR_CASES = [(spec, name) for spec in SPECS for name in spec.scalars]


@pytest.mark.parametrize("spec, name", SCALAR_CASES,
                         ids=[f"{spec.name}-{name}" for spec, name in SCALAR_CASES])
def test_numeric_options_reject_the_wrong_kind_with_type_error(spec, name):
    for wrong in (True, "3", [1]):
        with pytest.raises(TypeError, match=rf"^{name} must be a"):
            _call(spec, **{name: wrong})


@pytest.mark.parametrize("spec, name", SCALAR_CASES,
                         ids=[f"{spec.name}-{name}" for spec, name in SCALAR_CASES])
def test_numeric_options_reject_bad_values_with_value_error(spec, name):
    bad = [math.nan]
    if spec.scalars[name] == "int":
        bad.append(1.5)
    if name in spec.negative:
        bad.append(spec.negative[name])
    for value in bad:
        with pytest.raises(ValueError, match=rf"^{name} must be a .*; got"):
            _call(spec, **{name: value})


# ---------------------------------------------------------------------------------------------
# Documentation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS, ids=_ids(SPECS))
def test_docstring_has_formula_references_and_examples(spec):
    doc = inspect.getdoc(spec.function) or ""
    assert ".. math::" in doc, f"{spec.name}: no formula (.. math::)"
    for section in ("Parameters", "Returns", "References", "Examples"):
        assert re.search(rf"^{section}\n-+$", doc, re.MULTILINE), f"{spec.name}: no {section}"
    examples = doc.split("Examples\n--------", 1)[1]
    assert ">>> " in examples, f"{spec.name}: the Examples block has no doctest"
    assert "{{" not in doc and "<<" not in doc, f"{spec.name}: an unfilled template"


# =============================================================================================
# Signatures: data positional, every option keyword-only (API.md's shared rule)
# =============================================================================================
# This block walks the package instead of reading SPECS, so that a new module or function is
# covered without an entry: every name in ``evalkit.__all__`` and in the ``__all__`` of every
# public module (found with pkgutil, subpackages included), and the ``__init__`` of every
# explorer in ``evalkit.widgets``. One test case per callable, so that a failing run lists
# every offender at once.

#: Modules that are not the Python API: the command line and the warning classes.
NOT_API_MODULES = {"cli", "course.grading", "exceptions"}

#: Names of data arguments: what a function is *about*, given by position.
DATA_NAMES = {
    "y_true", "y_pred", "y_score", "y_proba", "relevance", "gains", "x", "y", "a", "b",
    "rater_a", "rater_b", "table", "counts", "confusion", "cost_matrix", "support", "scores",
    "scores_a", "scores_b", "qrels", "run", "path_or_buffer", "estimates", "estimator", "X",
    "metric", "fpr", "tpr", "precision", "recall", "thresholds", "costs", "left", "right",
    "points", "reports", "errors", "tp", "fp", "fn", "tn", "measured",
}

#: Required positional arguments that are data only for one function.
EXTRA_DATA = {
    "check": {"name", "value", "expected"},
    "mcnemar_test": {"y_pred_a", "y_pred_b"},  # issue 30: two classifiers' predictions
    "compare_classifiers": {"y_pred_a", "y_pred_b"},
    "five_by_two_cv_test": {"differences"},
    "five_by_two_cv_differences": {"estimator_a", "estimator_b"},
    "corrected_resampled_t_test": {"differences"},
    "evaluate": {"metrics"},
    "pool": {"runs"},  # issue 32: the runs whose top documents are pooled
    "adjust_pvalues": {"pvalues"},  # issue 32: the p-values of a family of tests
    "resampled_class_scores": {"resample_weights"},  # issue 32: each resample's item weights
    "interpret_kappa": {"kappa"},
    "effect_size_label": {"d"},
    "proportion_ci": {"successes", "n"},
    "interval_coverage": {"n", "p"},
    "t_test_power": {"effect_size", "n"},
    "simulate_test_accuracies": {"n_test", "true_accuracy"},
    "proportion_se": {"p", "n"},
    "simulate_paired_t_tests": {"n_topics", "effect_size"},
    "binormal_auc": {"separation"},
    "available_sample": {"n_total", "n_available"},
    "long_tailed_support": {"n_samples"},
    "long_tailed_labels": {"n_samples"},
    "normalized_expected_cost": {"probability_cost"},
    "plot_accuracy_spread": {"true_accuracy"},
}

#: Positional data that may be left out (its default is "build it for me", not an option).
OPTIONAL_DATA = {
    "load_collection": {"name"},  # the course's collection by default
    "Explorer": {"model"},  # every explorer: a default model when none is given
}

#: Options: never positional, even when required (``class_weights(support, *, scheme)``).
OPTION_NAMES = {
    "k", "beta", "scheme", "schemes", "scale", "n_bins", "labels", "variant", "method",
    "average", "strategy", "norm", "n_relevant", "recall_levels", "ideal", "convention",
    "relevance_level", "pos_label", "zero_division", "exclude", "weights", "marginals",
    "multi_class", "confidence", "n_resamples", "n_bootstrap", "seed", "paired", "test",
    "baseline", "correction", "alpha", "run_id", "normalize", "tol",
    "temperature", "n_classes", "skew", "ax", "title", "label",
}


def _api_modules() -> list[Any]:
    import importlib
    import pkgutil

    names = ["evalkit"]
    for info in pkgutil.walk_packages(ek.__path__, "evalkit."):
        parts = info.name.split(".")[1:]
        if (parts[0] in NOT_API_MODULES or ".".join(parts[:2]) in NOT_API_MODULES
                or any(part.startswith("_") for part in parts)):
            continue
        names.append(info.name)
    return [importlib.import_module(name) for name in names]


def _api_callables() -> dict[str, Any]:
    found: dict[int, tuple[str, Any]] = {}
    modules = _api_modules()
    for module in modules[1:] + modules[:1]:  # named after a module rather than evalkit
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isclass(obj):
                in_widgets = module.__name__.startswith("evalkit.widgets")
                if not (in_widgets and name.endswith("Explorer")):
                    continue  # explorers only: models, results and data classes hold state
            elif not callable(obj):
                continue
            where = module.__name__.removeprefix("evalkit").removeprefix(".") or "evalkit"
            found.setdefault(id(inspect.unwrap(obj)), (f"{where}.{name}", obj))
    return dict(sorted(found.values()))


API_CALLABLES = _api_callables()


def _signature_problems(name: str, function: Any) -> tuple[list[str], list[inspect.Parameter]]:
    short = name.rsplit(".", 1)[-1]
    group = "Explorer" if short.endswith("Explorer") else short
    parameters = list(inspect.signature(function).parameters.values())
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    problems = []
    for p in positional:
        if p.name in OPTION_NAMES:
            problems.append(f"the option {p.name!r} is positional")
        elif p.default is not p.empty and p.name not in OPTIONAL_DATA.get(group, ()):
            problems.append(f"{p.name!r} has a default but is positional (an option?)")
        elif p.name not in DATA_NAMES | EXTRA_DATA.get(short, set()) | OPTIONAL_DATA.get(group,
                                                                                         set()):
            problems.append(f"{p.name!r} is positional but not a known data argument "
                            "(add it to DATA_NAMES/EXTRA_DATA if it is data)")
    return problems, positional


def test_the_signature_walk_finds_every_module_and_explorer():
    modules = {module.__name__ for module in _api_modules()}
    for name in ("ranking", "trec", "classification", "probabilistic", "stats", "agreement",
                 "correlation", "costs", "curves", "datasets", "checks", "plots", "widgets"):
        assert f"evalkit.{name}" in modules
    assert "ranking.average_precision" in API_CALLABLES
    assert "widgets.DCGExplorer" in API_CALLABLES
    assert len([n for n in API_CALLABLES if n.endswith("Explorer")]) >= 20
    assert len(API_CALLABLES) >= 100


@pytest.mark.parametrize("name", list(API_CALLABLES))
def test_data_is_positional_and_every_option_is_keyword_only(name):
    function = API_CALLABLES[name]
    problems, positional = _signature_problems(name, function)
    parameters = inspect.signature(function).parameters.values()
    options = [p.name for p in parameters if p.kind == p.KEYWORD_ONLY]
    takes_var = any(p.kind == p.VAR_POSITIONAL for p in parameters)
    if not problems and options and not takes_var:
        # One value too many: keyword_only's TypeError shows the keyword call to write.
        extra = [object()] * (len(positional) + 1)
        try:
            function(*extra)
        except TypeError as error:
            message = str(error)
            if "by keyword" not in message or f"{options[0]}=" not in message:
                problems.append(f"a positional option's TypeError does not show the keyword "
                                f"call (is it wrapped by keyword_only?): {message}")
        else:
            problems.append("a positional option was accepted")
    assert not problems, f"{name}{inspect.signature(function)}: " + "; ".join(problems)


# ---------------------------------------------------------------------------------------------
# __all__ is complete: what one module takes from another is in the other's __all__
# ---------------------------------------------------------------------------------------------


def _package_modules() -> list[Any]:
    import importlib
    import pkgutil

    names = ["evalkit"] + [info.name for info in pkgutil.walk_packages(ek.__path__, "evalkit.")
                           if not info.name.endswith("__main__")]
    return [importlib.import_module(name) for name in names]


def _names_taken_from_each_module() -> dict[str, dict[str, set[str]]]:
    """module -> name -> the modules that import that name from it (``from .m import n``)."""
    import ast
    from pathlib import Path

    taken: dict[str, dict[str, set[str]]] = {}
    for module in _package_modules():
        path = Path(module.__file__)
        package = module.__name__
        if path.name != "__init__.py":
            package = package.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = package.split(".")
            base = base[: len(base) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                taken.setdefault(source, {}).setdefault(alias.name, set()).add(module.__name__)
    return taken


def test_every_name_another_module_imports_is_in_its_all():
    import importlib
    import types

    taken = _names_taken_from_each_module()
    missing = []
    for source, names in sorted(taken.items()):
        module = importlib.import_module(source)
        exported = set(getattr(module, "__all__", ()))
        if source.startswith("evalkit.widgets."):
            continue  # an explorer's file: evalkit.widgets.__all__ lists what it offers
        for name, users in sorted(names.items()):
            if name.startswith("_") or isinstance(getattr(module, name, None), types.ModuleType):
                continue  # private plumbing, or a submodule
            if name not in exported:
                missing.append(f"{source}.{name} (used by {', '.join(sorted(users))})")
    assert not missing, "Names used but missing from __all__: " + "; ".join(missing)


@pytest.mark.parametrize("module", _api_modules(), ids=lambda m: m.__name__)
def test_a_public_module_lists_every_public_function_it_defines(module):
    defined = {name for name, obj in vars(module).items()
               if not name.startswith("_") and inspect.isfunction(obj)
               and inspect.unwrap(obj).__module__ == module.__name__}
    if not defined:
        return
    assert hasattr(module, "__all__"), f"{module.__name__} has no __all__"
    assert defined <= set(module.__all__), sorted(defined - set(module.__all__))


def test_the_names_the_issue_found_missing_are_listed():
    from evalkit import _ranking_core, _validation, ranking
    from evalkit.trec import _measures as _trec_measures

    assert {"DCG_VARIANTS", "ELEVEN_POINTS"} <= set(ranking.__all__)
    assert {"DCG_VARIANTS", "ELEVEN_POINTS"} <= set(_ranking_core.__all__)
    assert "group_positions" in _trec_measures.__all__
    assert {"check_square_matrix", "check_same_label_kind"} <= set(_validation.__all__)
    assert ranking.ELEVEN_POINTS is _ranking_core.ELEVEN_POINTS  # one definition
