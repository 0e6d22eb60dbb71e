r"""evalkit's confusion-matrix metrics evaluated on a stack of confusion matrices at once.

Accuracy, precision, recall, F, specificity and Cohen's kappa depend on the labels only
through the confusion matrix :math:`C` (:math:`C_{ij}` = rows with true label *i* and
predicted label *j*). Resampling the *n* rows of ``(y_true, y_pred)`` with replacement
therefore changes nothing but how many rows fall in each cell, and those counts are
multinomial:

.. math::

    C^{*} \sim \mathrm{Multinomial}\bigl(n;\ C / n\bigr)

So :func:`evalkit.bootstrap_ci` draws R matrices with one ``rng.multinomial`` call and
evaluates the metric on the (R, k, k) stack, never touching the *n* rows again.

Each metric's formula is written once, as a kernel over a stack (..., k, k)
(:mod:`evalkit._averaging`, :mod:`evalkit._kappa`). A metric joins by registering itself
where it is defined: ``@stacked(kernel, options)`` over its ``def``, where ``options`` checks
the metric's keyword arguments into the kernel's. The public function checks its labels and
options, counts one (k, k) matrix and calls that same kernel; the stack path here checks
and counts the same way, then calls the kernel on the resampled stack. (Accuracy and the
error rate depend on the matrix only through its trace: their kernels' formula,
``formula`` below, takes the number of correct rows, which the public functions count
without building the matrix.) This module imports no public module; it keeps the registry,
recognises a registered metric (or a :func:`functools.partial` of one that fixes keywords
only) and evaluates it on a stack.

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

from ._counting import full_confusion
from ._validation import check_label_pair, check_labels

__all__ = ["ConfusionKernel", "StackedMetric", "kernel_of", "one_matrix", "registered_metrics",
           "stacked", "stacked_metric"]

#: ``kernel(classes, stack, n_samples, *, resampled, **options)``: the metric of every (k, k)
#: matrix of ``stack`` (..., k, k) over the sorted ``classes``, each holding ``n_samples``
#: rows, with its checked options; ``resampled`` says the matrices are resamples of the data.
Kernel = Callable[..., Any]

#: ``options(y_true, **arguments)``: the kernel's options from the metric's keyword
#: arguments, checked (``y_true``, the checked true labels, tells the kind of label).
Options = Callable[..., dict]


@dataclass(frozen=True)
class ConfusionKernel:
    """How a registered metric is computed: its kernel, its options and its formula (the
    function both the public metric and the kernel call; the kernel itself unless said)."""

    kernel: Kernel
    options: Options
    formula: Callable[..., Any]


_KERNELS: dict[Callable[..., Any], ConfusionKernel] = {}


def stacked(kernel: Kernel, options: Options, *, formula: Callable[..., Any] | None = None
            ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated public metric with its kernel and its options.

    Put it outermost (above ``@keyword_only``), so that the object registered is the one
    users call. The metric must take its two label arrays first.
    """

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        _KERNELS[function] = ConfusionKernel(kernel, options, formula or kernel)
        return function

    return register


def registered_metrics() -> tuple[Callable[..., Any], ...]:
    """Every metric registered with :func:`stacked`, in the order they were defined."""
    return tuple(_KERNELS)


def kernel_of(function: Callable[..., Any]) -> ConfusionKernel:
    """The :class:`ConfusionKernel` a registered metric was registered with."""
    return _KERNELS[function]


@dataclass(frozen=True)
class StackedMetric:
    """One of evalkit's confusion-matrix metrics with its keyword arguments bound."""

    function: Callable[..., Any]
    arguments: dict[str, Any]
    kernel: ConfusionKernel

    def confusion(self, y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The sorted classes, the full confusion matrix and the checked ``y_true``."""
        y_true = check_labels(y_true, "y_true")
        y_pred = check_labels(y_pred, "y_pred")
        classes, matrix = full_confusion(y_true, y_pred)
        return classes, matrix, y_true

    def __call__(self, classes: np.ndarray, stack: np.ndarray, n_samples: int,
                 y_true: np.ndarray) -> np.ndarray:
        """The metric of every resampled confusion matrix of ``stack`` (..., k, k) over
        ``classes``, each holding ``n_samples`` rows."""
        options = self.kernel.options(y_true, **self.arguments)
        values = self.kernel.kernel(classes, stack, n_samples, resampled=True, **options)
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
        kernel = _KERNELS.get(function)
    except TypeError:  # an unhashable callable object
        return None
    if kernel is None:
        return None
    signature = inspect.signature(function)
    bound = signature.bind(y_true, y_pred, **keywords)
    bound.apply_defaults()
    arguments = dict(bound.arguments)
    for name in list(signature.parameters)[:2]:
        arguments.pop(name)
    return StackedMetric(function, arguments, kernel)


def one_matrix(kernel: Callable[..., Any], options: Callable[..., dict], y_true: Any,
               y_pred: Any, **arguments: Any) -> Any:
    """A metric of one pair of label arrays: check them, check the metric's ``options``
    (``arguments``), count one confusion matrix, and call ``kernel`` on it, the kernel the
    stack path calls on many."""
    y_true, y_pred = check_label_pair(y_true, y_pred)
    checked = options(y_true, **arguments)
    classes, matrix = full_confusion(y_true, y_pred)
    return kernel(classes, matrix, len(y_true), **checked)
