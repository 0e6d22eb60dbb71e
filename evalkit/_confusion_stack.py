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
This module recognises those metrics (or a :func:`functools.partial` of one that fixes
keywords only) and evaluates them on a stack.

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

from ._averaging import average_scores, counts_from_matrix, locate, select_labels
from ._counting import full_confusion
from ._kappa import kappa_of_tables
from ._validation import check_label_list, check_labels, check_scalar, check_zero_division
from .agreement import cohen_kappa
from .classification import (
    accuracy,
    error_rate,
    f1_score,
    f_score,
    precision,
    recall,
    sensitivity,
    specificity,
)

__all__ = ["StackedMetric", "stacked_metric"]


def _accuracy(classes: np.ndarray, stack: np.ndarray, n_samples: int, arguments: dict,
              y_true: np.ndarray) -> np.ndarray:
    return np.trace(stack, axis1=-2, axis2=-1) / n_samples


def _error_rate(classes: np.ndarray, stack: np.ndarray, n_samples: int, arguments: dict,
                y_true: np.ndarray) -> np.ndarray:
    return (n_samples - np.trace(stack, axis1=-2, axis2=-1)) / n_samples


def _set_metric(want: str, beta: float | None = None) -> Callable[..., np.ndarray]:
    """Precision, recall, F or specificity of a stack, as ``classification._set_metric``."""

    def evaluate(classes: np.ndarray, stack: np.ndarray, n_samples: int, arguments: dict,
                 y_true: np.ndarray) -> np.ndarray:
        average = arguments["average"]
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


def _cohen_kappa(classes: np.ndarray, stack: np.ndarray, n_samples: int, arguments: dict,
                 y_true: np.ndarray) -> np.ndarray:
    labels = arguments["labels"]
    positions = None
    if labels is None:
        # A category neither judge used in a resample is not in its table: the others move
        # up, which matters for linear and quadratic weights.
        present = (stack.sum(axis=-1) > 0) | (stack.sum(axis=-2) > 0)
        positions = np.cumsum(present, axis=-1) - 1
        tables = stack
    else:
        wanted = check_label_list(labels, y_true)
        index, found = locate(classes, wanted)
        tables = np.where(found[:, None] & found[None, :],
                          stack[..., index[:, None], index[None, :]], 0)
    return kappa_of_tables(tables.astype(np.float64), weights=arguments["weights"],
                           marginals=arguments["marginals"],
                           zero_division=check_zero_division(arguments["zero_division"]),
                           positions=positions)


_EVALUATORS: dict[Callable[..., Any], Callable[..., np.ndarray]] = {
    accuracy: _accuracy,
    error_rate: _error_rate,
    precision: _set_metric("precision"),
    recall: _set_metric("recall"),
    sensitivity: _set_metric("recall"),
    specificity: _set_metric("specificity"),
    f_score: _set_metric("f"),
    f1_score: _set_metric("f", beta=1.0),
    cohen_kappa: _cohen_kappa,
}


@dataclass(frozen=True)
class StackedMetric:
    """One of evalkit's confusion-matrix metrics with its keyword arguments bound."""

    function: Callable[..., Any]
    arguments: dict[str, Any]
    evaluate_stack: Callable[..., np.ndarray]

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
    bound = inspect.signature(function).bind(y_true, y_pred, **keywords)
    bound.apply_defaults()
    arguments = dict(bound.arguments)
    for name in list(inspect.signature(function).parameters)[:2]:
        arguments.pop(name)
    return StackedMetric(function, arguments, evaluate_stack)
