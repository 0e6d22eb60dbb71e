r"""evalkit's confusion-matrix metrics evaluated on a stack of confusion matrices at once.

Accuracy, precision, recall, F, specificity and Cohen's kappa depend on the labels only
through the confusion matrix :math:`C` (:math:`C_{ij}` = rows with true label *i* and
predicted label *j*). Resampling the *n* rows of ``(y_true, y_pred)`` with replacement
therefore changes nothing but how many rows fall in each cell, and those counts are
multinomial:

.. math::

    C^{*} \sim \mathrm{Multinomial}\bigl(n;\ C / n\bigr)

So :func:`evalkit.bootstrap_ci` draws R matrices with one ``rng.multinomial`` call and
evaluates the metric on the (R, k, k) stack with the very functions that compute it for one
matrix (:mod:`evalkit._averaging`, :mod:`evalkit._kappa`), never touching the *n* rows again.

A metric joins by registering itself where it is defined: ``@stacked(evaluate_stack)`` over
its ``def``, with the evaluator written beside it (or :func:`ratio_of_stack` for a ratio that
:mod:`evalkit._averaging` averages). This module imports no public module; it keeps the
registry, recognises a registered metric (or a :func:`functools.partial` of one that fixes
keywords only) and evaluates it on a stack.

A resample can miss a class entirely. Called on such a resample without ``labels``, a
metric averages over the classes that resample holds (and weighted kappa places the
categories it holds next to each other); the stacked evaluation does the same, so that
its values are exactly those of the metric called on resampled rows.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._averaging import AVERAGES, average_scores, counts_from_matrix, select_labels
from ._counting import full_confusion
from ._validation import check_labels, check_option, check_scalar, check_zero_division

__all__ = ["StackedMetric", "ratio_of_stack", "registered_metrics", "stacked", "stacked_metric"]

#: ``evaluate_stack(classes, stack, n_samples, arguments, y_true)``: the metric of every
#: (k, k) matrix of ``stack`` (..., k, k) over the sorted ``classes``, each holding
#: ``n_samples`` rows; ``arguments`` are the metric's keyword arguments, bound with their
#: defaults, and ``y_true`` the checked true labels of the data.
StackEvaluator = Callable[[np.ndarray, np.ndarray, int, dict, np.ndarray], Any]

_EVALUATORS: dict[Callable[..., Any], StackEvaluator] = {}


def stacked(evaluate_stack: StackEvaluator) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated public metric with the function that evaluates it on a stack.

    Put it outermost (above ``@keyword_only``), so that the object registered is the one
    users call. The metric must take its two label arrays first.
    """

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        _EVALUATORS[function] = evaluate_stack
        return function

    return register


def registered_metrics() -> tuple[Callable[..., Any], ...]:
    """Every metric registered with :func:`stacked`, in the order they were defined."""
    return tuple(_EVALUATORS)


def ratio_of_stack(want: str, *, beta: float | None = None) -> StackEvaluator:
    """The stack evaluator of a ratio :func:`evalkit._averaging.average_scores` averages
    (``want``: "precision", "recall", "f" or "specificity"), whose metric takes
    ``average``, ``labels``, ``exclude``, ``pos_label``, ``zero_division`` (and, for "f"
    without a fixed ``beta``, ``beta``) as keywords."""

    def evaluate(classes: np.ndarray, stack: np.ndarray, n_samples: int, arguments: dict,
                 y_true: np.ndarray) -> np.ndarray:
        average = check_option(arguments["average"], "average", AVERAGES)
        chosen = select_labels(y_true, average, arguments["labels"], arguments["exclude"],
                               arguments["pos_label"], classes)
        # Without labels, a resample averages over the classes it holds.
        drop_absent = arguments["labels"] is None and average != "binary"
        counts = counts_from_matrix(classes, stack, chosen, n_samples, drop_absent=drop_absent)
        f_beta = beta if beta is not None else arguments.get("beta", 1.0)
        f_beta = check_scalar(f_beta, "beta", low=0, allow_inf=True)
        return average_scores(counts, average, want=want, beta=f_beta,
                              zero_division=check_zero_division(arguments["zero_division"]))

    return evaluate


@dataclass(frozen=True)
class StackedMetric:
    """One of evalkit's confusion-matrix metrics with its keyword arguments bound."""

    function: Callable[..., Any]
    arguments: dict[str, Any]
    evaluate_stack: StackEvaluator

    def confusion(self, y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The sorted classes, the full confusion matrix and the checked ``y_true``."""
        y_true = check_labels(y_true, "y_true")
        y_pred = check_labels(y_pred, "y_pred")
        classes, matrix = full_confusion(y_true, y_pred)
        return classes, matrix, y_true

    def __call__(self, classes: np.ndarray, stack: np.ndarray, n_samples: int,
                 y_true: np.ndarray) -> np.ndarray:
        """The metric of every confusion matrix of ``stack`` (..., k, k) over ``classes``,
        each holding ``n_samples`` rows."""
        values = self.evaluate_stack(classes, stack, n_samples, self.arguments, y_true)
        return np.asarray(values, dtype=np.float64)


def stacked_metric(metric: Any, y_true: Any, y_pred: Any) -> StackedMetric | None:
    """The stacked form of ``metric`` if it is one of evalkit's confusion-matrix metrics
    called as ``metric(y_true, y_pred)`` (a ``functools.partial`` may fix keywords, not
    positions); None for any other callable."""
    function, keywords = metric, {}
    if isinstance(metric, functools.partial):
        if metric.args:
            return None
        function, keywords = metric.func, dict(metric.keywords)
    try:
        evaluate_stack = _EVALUATORS.get(function)
    except TypeError:  # an unhashable callable object
        return None
    if evaluate_stack is None:
        return None
    signature = inspect.signature(function)
    bound = signature.bind(y_true, y_pred, **keywords)
    bound.apply_defaults()
    arguments = dict(bound.arguments)
    for name in list(signature.parameters)[:2]:
        arguments.pop(name)
    return StackedMetric(function, arguments, evaluate_stack)
