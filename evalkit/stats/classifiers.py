r"""Two classifiers on one test set, compared on any metric by randomization or bootstrap.

- :func:`compare_classifiers`: the difference of any metric (accuracy, macro-F1, cF1, Brier,
  AUC, ...) between two classifiers on the same items, with an approximate randomization
  test (Noreen 1989; Yeh 2000) or a paired bootstrap (Koehn 2004; Berg-Kirkpatrick et al.
  2012). Confusion-matrix metrics are resampled as counts, all resamples at once.

McNemar's test of the items only one classifier gets right is in :mod:`evalkit.stats.mcnemar`;
two learning algorithms compared over resampled training sets (5x2cv, the corrected resampled
t test) are in :mod:`evalkit.stats.crossval`.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from .._averaging import AVERAGES, ClassCounts, average_scores
from .._confusion_stack import StackedMetric, stacked_metric
from .._lazy import lazy_module
from .._probabilities import _check_probabilities
from .._validation import (
    as_array,
    check_labels,
    check_option,
    check_scalar,
    check_seed,
    check_zero_division,
    keyword_only,
    select_labels,
)
from ._common import (
    _check_distribution,
    _each_warning_once,
    _one_number,
)

stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)
sparse = lazy_module("scipy.sparse")

__all__ = [
    "compare_classifiers",
    "CLASSIFIER_TESTS",
    "CLASSIFIER_METRICS",
]

# ---------------------------------------------------------------------------------------------
# Any metric: approximate randomization and the paired bootstrap
# ---------------------------------------------------------------------------------------------

#: The tests :func:`compare_classifiers` runs.
CLASSIFIER_TESTS = ("randomization", "bootstrap")

#: The evalkit metrics :func:`compare_classifiers` takes by name (with their defaults; pass
#: ``functools.partial(ek.f1_score, average="macro")`` for other options).
CLASSIFIER_METRICS = (
    "accuracy", "error_rate", "precision", "recall", "f_score", "f1_score", "sensitivity",
    "specificity", "matthews_corrcoef", "balanced_accuracy", "informedness", "markedness",
    "cohen_kappa", "c_precision", "c_recall", "c_f1", "brier_score",
    "expected_calibration_error", "roc_auc",
)

# Cells of the resampled confusion-matrix stacks per block (float64: 8 MB per stack).
_CELL_BLOCK = 1 << 20
# Resampled items per block of swap or draw matrices (float64: 32 MB).
_ITEM_BLOCK = 1 << 22
# The metrics of probability rows that are functions of sums over items, and what they are.
_ITEM_SUM_METRICS = {"c_precision": "precision", "c_recall": "recall", "c_f1": "f",
                     "brier_score": "brier"}
_C_NAMES = {"precision": "cPrecision", "recall": "cRecall", "f": "cF1"}
# Resampled differences within this share of the observed one count as ties with it: equal
# values computed along different paths differ by rounding only.
_TIE_TOLERANCE = 1e-12


def _resolve_metric(metric: Any) -> tuple[Callable[..., Any], str]:
    if isinstance(metric, str):
        name = check_option(metric, "metric", CLASSIFIER_METRICS)
        import evalkit  # the package's public metrics (a lazy import: no cycle)

        return getattr(evalkit, name), name
    if not callable(metric):
        raise TypeError("metric must be a callable (y_true, y_pred) -> float, such as "
                        "functools.partial(ek.f1_score, average='macro'), or one of the names "
                        f"{', '.join(CLASSIFIER_METRICS)}; got {metric!r} "
                        f"(a {type(metric).__name__})")
    if isinstance(metric, functools.partial):
        shown = ", ".join(f"{key}={value!r}" for key, value in metric.keywords.items())
        name = getattr(metric.func, "__name__", "metric") + (f"({shown})" if shown else "")
    else:
        name = getattr(metric, "__name__", type(metric).__name__)
    return metric, name


def _check_prediction_array(values: Any, name: str, n: int) -> np.ndarray:
    # A DataFrame of class probabilities is a table of rows, not a column of labels.
    array = (np.ascontiguousarray(values.to_numpy()) if isinstance(values, pd.DataFrame)
             else as_array(values, name))
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim not in (1, 2):
        raise ValueError(f"{name} must hold one label, score or row of class probabilities "
                         f"per item (1-D or 2-D); got an array of shape {array.shape}")
    if len(array) == 0:
        raise ValueError(f"{name} is empty; expected one prediction per item")
    if len(array) != n:
        raise ValueError(f"y_true and {name} have different lengths ({n} != {len(array)})")
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        position = int(np.flatnonzero(~np.isfinite(array).reshape(n, -1).all(axis=1))[0])
        raise ValueError(f"{name} contains NaN or inf at row {position}; predictions must be "
                         "finite")
    if array.dtype.kind == "O" and array.ndim == 1:
        array = check_labels(array, name)
    return array


def _labels_or_none(array: np.ndarray, name: str) -> np.ndarray | None:
    """``array`` as checked labels, or None when it is not a 1-D array of labels."""
    if array.ndim != 1:
        return None
    try:
        return check_labels(array, name)
    except (TypeError, ValueError):
        return None


def _metric_value(metric: Callable[..., Any], y_true: np.ndarray, y_pred: np.ndarray,
                  name: str) -> float:
    value = _one_number(metric(y_true, y_pred), name)
    if np.isnan(value):
        raise ValueError(f"metric returned NaN on {name} (a ratio with a zero denominator "
                         "under zero_division=np.nan?); give zero_division a number")
    return value


class _TripleCounts:
    """The items grouped by their (true, predicted by A, predicted by B) labels.

    Items of one group are exchangeable: a confusion-matrix metric cannot tell them apart.
    So a randomization resample only decides how many items of each group swap their two
    predictions (Binomial(m, 1/2)), and a bootstrap resample how many of each group it draws
    (Multinomial(n, m / n)); the resampled confusion matrices of A and B are linear in those
    numbers.
    """

    def __init__(self, y_true: np.ndarray, y_pred_a: np.ndarray, y_pred_b: np.ndarray):
        classes = np.unique(np.concatenate([y_true, y_pred_a, y_pred_b]))
        k = len(classes)
        true, a, b = (np.searchsorted(classes, labels) for labels in (y_true, y_pred_a,
                                                                       y_pred_b))
        codes, self.group_of_item, counts = np.unique(
            (true * k + a) * k + b, return_inverse=True, return_counts=True)
        self.classes, self.k, self.n = classes, k, len(y_true)
        self.counts = counts
        true_code, a_code, b_code = codes // (k * k), (codes // k) % k, codes % k
        self.cell_a = true_code * k + a_code  # the cell of A's confusion matrix
        self.cell_b = true_code * k + b_code
        self.discordant = np.flatnonzero(a_code != b_code)

    def observed(self) -> np.ndarray:
        """A's and B's confusion matrices, as a (2, k, k) stack."""
        k = self.k
        stack = np.zeros((2, k * k), dtype=np.int64)
        np.add.at(stack[0], self.cell_a, self.counts)
        np.add.at(stack[1], self.cell_b, self.counts)
        return stack.reshape(2, k, k)

    def _one_hot(self, cells: np.ndarray) -> Any:
        """Group j -> its cell, as a sparse (groups, k * k) matrix: with many classes a
        dense one would hold groups x k^2 numbers."""
        return sparse.csr_array((np.ones(len(cells)), (np.arange(len(cells)), cells)),
                                shape=(len(cells), self.k * self.k))

    def swapped(self, n_resamples: int, rng: np.random.Generator
                ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        r"""Blocks of A's and B's confusion matrices after random swaps, (R_block, k, k).

        Groups (t, x, y) and (t, y, x) move items between the same two cells in opposite
        directions, so only their net move counts: with :math:`s_1 \sim B(m_1, 1/2)` and
        :math:`s_2 \sim B(m_2, 1/2)`, :math:`s_1 - s_2 = s_1 + (m_2 - s_2) - m_2` and
        :math:`s_1 + (m_2 - s_2) \sim B(m_1 + m_2, 1/2)`: one binomial draw per pair of
        cells instead of two.
        """
        groups = self.discordant
        cell_a, cell_b = self.cell_a[groups], self.cell_b[groups]
        low, high = np.minimum(cell_a, cell_b), np.maximum(cell_a, cell_b)
        pairs, pair_of_group = np.unique(low * (self.k * self.k) + high, return_inverse=True)
        backward = cell_a > cell_b
        counts = self.counts[groups]
        total = np.bincount(pair_of_group, weights=counts, minlength=len(pairs))
        against = np.bincount(pair_of_group, weights=counts * backward, minlength=len(pairs))
        total, against = total.astype(np.int64), against.astype(np.int64)
        low_cells, high_cells = pairs // (self.k * self.k), pairs % (self.k * self.k)
        block = max(1, _CELL_BLOCK // (self.k * self.k))
        for start in range(0, n_resamples, block):
            size = min(block, n_resamples - start)
            net = rng.binomial(total, 0.5, size=(size, len(pairs))) - against
            yield self._moved(net, low_cells, high_cells)

    def after_swaps(self, swaps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A's and B's matrices when ``swaps[r, j]`` items of discordant group j swap."""
        groups = self.discordant
        return self._moved(swaps, self.cell_a[groups], self.cell_b[groups])

    def _moved(self, moved: np.ndarray, from_cells: np.ndarray, to_cells: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """A's and B's matrices when ``moved[r, j]`` of A's items go from cell
        ``from_cells[j]`` to ``to_cells[j]`` (and B's items the other way)."""
        k, size = self.k, len(moved)
        observed = self.observed().reshape(2, k * k).astype(np.float64)
        moves = self._one_hot(to_cells) - self._one_hot(from_cells)
        shift = (moves.T @ moved.T.astype(np.float64)).T
        return (np.rint(observed[0] + shift).astype(np.int64).reshape(size, k, k),
                np.rint(observed[1] - shift).astype(np.int64).reshape(size, k, k))

    def resampled(self, n_resamples: int, rng: np.random.Generator
                  ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Blocks of A's and B's confusion matrices of bootstrap resamples of the items."""
        block = max(1, _CELL_BLOCK // (self.k * self.k))
        shares = self.counts / self.n
        for start in range(0, n_resamples, block):
            size = min(block, n_resamples - start)
            yield self.after_draws(rng.multinomial(self.n, shares, size=size))

    def after_draws(self, drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A's and B's matrices when ``drawn[r, j]`` items of group j are drawn."""
        k, size = self.k, len(drawn)
        drawn = drawn.T.astype(np.float64)
        stacks = [(self._one_hot(cells).T @ drawn).T for cells in (self.cell_a, self.cell_b)]
        return tuple(np.rint(stack).astype(np.int64).reshape(size, k, k) for stack in stacks)


def _stacked_differences(stacked: StackedMetric, triples: _TripleCounts, y_true: np.ndarray,
                         test: str, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    blocks = (triples.swapped if test == "randomization" else triples.resampled)(
        n_resamples, rng)
    parts = []
    for stack_a, stack_b in blocks:
        parts.append(stacked(triples.classes, stack_a, triples.n, y_true)
                     - stacked(triples.classes, stack_b, triples.n, y_true))
    return np.concatenate(parts)


def _loop_differences(metric: Callable[..., Any], y_true: np.ndarray, a: np.ndarray,
                      b: np.ndarray, test: str, n_resamples: int,
                      rng: np.random.Generator) -> np.ndarray:
    """The documented fallback for any callable: one pair of metric calls per resample."""
    n = len(y_true)
    values = np.empty(n_resamples)
    for r in range(n_resamples):
        if test == "randomization":
            swap = rng.random(n) < 0.5
            where = swap[:, None] if a.ndim == 2 else swap
            resample_a, resample_b = np.where(where, b, a), np.where(where, a, b)
            truth = y_true
        else:
            rows = rng.integers(0, n, n)
            truth, resample_a, resample_b = y_true[rows], a[rows], b[rows]
        values[r] = (_one_number(metric(truth, resample_a), "a resample")
                     - _one_number(metric(truth, resample_b), "a resample"))
    return values


def _stacked_path(metric: Callable[..., Any], y_true: np.ndarray, a: np.ndarray,
                  b: np.ndarray, value_a: float, value_b: float
                  ) -> tuple[StackedMetric, _TripleCounts] | None:
    """The stacked form of an evalkit confusion-matrix metric on label predictions, when its
    value on the observed matrices is the metric's own (None otherwise: use the loop)."""
    labels_a, labels_b = _labels_or_none(a, "y_pred_a"), _labels_or_none(b, "y_pred_b")
    if labels_a is None or labels_b is None:
        return None
    kinds = {array.dtype.kind == "U" for array in (y_true, labels_a, labels_b)}
    if len(kinds) > 1:
        return None
    stacked = stacked_metric(metric, y_true, labels_a)
    if stacked is None:
        return None
    triples = _TripleCounts(y_true, labels_a, labels_b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = stacked(triples.classes, triples.observed(), triples.n, y_true)
    if not np.allclose(values, [value_a, value_b], rtol=1e-12, atol=1e-12):
        return None
    return stacked, triples


class _ItemSums:
    """A metric of probability rows that depends on the items only through sums over them.

    cPrecision, cRecall and cF1 need, per class, the probability mass its own items gave it
    (cTP), the mass it received (cTP + cFP) and its support; the Brier score the sum of the
    items' squared errors. Each item contributes a row of ``features``; a resample's sums
    are a product of its swap (or draw-count) matrix with the feature rows, block by block.
    """

    def __init__(self, metric: Callable[..., Any], y_true: np.ndarray, a: np.ndarray,
                 b: np.ndarray):
        function = metric.func if isinstance(metric, functools.partial) else metric
        keywords = dict(metric.keywords) if isinstance(metric, functools.partial) else {}
        bound = inspect.signature(function).bind(y_true, a, **keywords)
        bound.apply_defaults()
        self.arguments = dict(bound.arguments)
        self.want = _ITEM_SUM_METRICS[function.__name__]
        labels, pos_label = self.arguments.get("labels"), self.arguments.get("pos_label", 1)
        data_a = _check_probabilities(y_true, a, labels, pos_label)
        data_b = _check_probabilities(y_true, b, labels, pos_label)
        self.classes, self.n = data_a.classes, data_a.n_samples
        self.features = [self._features(data) for data in (data_a, data_b)]

    def _features(self, data: Any) -> np.ndarray:
        if self.want == "brier":
            truth = np.zeros_like(data.proba)
            truth[np.arange(data.n_samples), data.codes] = 1.0
            return ((data.proba - truth) ** 2).sum(axis=1, keepdims=True)
        k = data.n_classes
        own = np.zeros((data.n_samples, k))
        rows = np.arange(data.n_samples)
        own[rows, data.codes] = data.proba[rows, data.codes]
        return np.hstack([own, data.proba, np.eye(k)[data.codes]])

    def evaluate(self, sums: np.ndarray) -> np.ndarray:
        """The metric of every row of ``sums`` (R, n_features)."""
        if self.want == "brier":
            return sums[:, 0] / self.n
        k = len(self.classes)
        arguments = self.arguments
        average = check_option(arguments["average"], "average", AVERAGES)
        counts = ClassCounts(self.classes, sums[:, :k], sums[:, k:2 * k], sums[:, 2 * k:],
                             self.n)
        chosen = select_labels(self.classes, average, None, arguments["exclude"],
                               arguments["pos_label"], self.classes)
        if chosen is not None:
            counts = counts.subset(np.isin(counts.labels, chosen))
        return average_scores(counts, average, want=self.want,
                              zero_division=check_zero_division(arguments["zero_division"]),
                              names=_C_NAMES)

    def differences(self, test: str, n_resamples: int, rng: np.random.Generator
                    ) -> np.ndarray:
        """Resampled differences; the draws are those of the loop over resamples (the same
        Generator gives the same swaps or resampled items)."""
        features_a, features_b = self.features
        n, width = self.n, features_a.shape[1]
        both = np.hstack([features_a, features_b])
        moved = features_b - features_a
        totals = both.sum(axis=0)
        block = max(1, _ITEM_BLOCK // n)
        values = np.empty(n_resamples)
        for start in range(0, n_resamples, block):
            size = min(block, n_resamples - start)
            if test == "randomization":
                swaps = (rng.random((size, n)) < 0.5).astype(np.float64)
                shift = swaps @ moved
                sums_a, sums_b = totals[:width] + shift, totals[width:] - shift
            else:
                rows = rng.integers(0, n, (size, n))
                drawn = np.bincount((rows + n * np.arange(size)[:, None]).ravel(),
                                    minlength=size * n).reshape(size, n)
                sums = drawn.astype(np.float64) @ both
                sums_a, sums_b = sums[:, :width], sums[:, width:]
            values[start:start + size] = self.evaluate(sums_a) - self.evaluate(sums_b)
        return values


def _item_sum_path(metric: Callable[..., Any], y_true: np.ndarray, a: np.ndarray,
                   b: np.ndarray, value_a: float, value_b: float) -> _ItemSums | None:
    """The item-sum form of cPrecision, cRecall, cF1 or the Brier score (or a partial of one
    fixing keywords) on probability predictions, when it reproduces the metric's values on
    the data (None otherwise: use the loop)."""
    function = metric
    if isinstance(metric, functools.partial):
        if metric.args:
            return None
        function = metric.func
    import evalkit  # the package's public metrics (a lazy import: no cycle)

    if getattr(function, "__name__", None) not in _ITEM_SUM_METRICS or function is not getattr(
            evalkit, function.__name__):
        return None
    if a.dtype.kind not in "iuf":
        return None
    try:
        sums = _ItemSums(metric, y_true, a, b)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = [sums.evaluate(features.sum(axis=0, keepdims=True))[0]
                      for features in sums.features]
    except (TypeError, ValueError, KeyError):
        return None
    if not np.allclose(values, [value_a, value_b], rtol=1e-9, atol=1e-12):
        return None
    return sums


@keyword_only
def compare_classifiers(
    y_true: Any,
    y_pred_a: Any,
    y_pred_b: Any,
    *,
    metric: Any,
    test: str = "randomization",
    n_resamples: int = 10000,
    seed: Any = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    r"""Is classifier A better than B on this test set, by any metric? Randomization or bootstrap.

    Most metrics of a classifier (F1, macro-F1, cF1, AUC, kappa) are not means over items,
    so a paired t test on per-item scores cannot compare them. Both tests here resample the
    items instead, keeping each item's pair of predictions together, and recompute the
    metric difference :math:`\delta = M(y, \hat y_A) - M(y, \hat y_B)` on every resample.

    **Approximate randomization** (``test="randomization"``; Noreen 1989, Yeh 2000). Under
    the null hypothesis the two classifiers are exchangeable: on each item, A's and B's
    predictions could as well have been the other way round. Each of R resamples swaps the
    two predictions of every item with probability 1/2 (:math:`s_i \in \{0, 1\}`):

    .. math::

        p = \frac{1 + \#\{r : |\delta^{(r)}| \ge |\delta|\}}{R + 1}

    two-sided, and never 0 (Phipson & Smyth 2010), as ``scipy.stats.permutation_test``
    computes a Monte-Carlo p-value.

    **Paired bootstrap** (``test="bootstrap"``; Koehn 2004, Berg-Kirkpatrick et al. 2012).
    Each of R resamples draws *n* items with replacement (an item brings its true label and
    both predictions). The interval is the percentile interval of :math:`\delta^*`, and the
    p-value is that of the bootstrap distribution shifted to the null (its mean moved to 0,
    Efron & Tibshirani 1993, section 16.4), two-sided:

    .. math::

        \bigl[q_{\alpha}(\delta^*),\ q_{1-\alpha}(\delta^*)\bigr], \qquad
        p = \frac{1 + \#\{r : |\delta^{*(r)} - \delta| \ge |\delta|\}}{R + 1}

    with :math:`\alpha = (1 - c) / 2`. Berg-Kirkpatrick et al.'s one-sided test counts
    :math:`\delta^{*} > 2\delta`, half of this event.

    **How the resamples are computed** (``resampling`` column):

    - ``"counts"``: ``metric`` is one of evalkit's confusion-matrix metrics
      (:func:`~evalkit.accuracy`, :func:`~evalkit.error_rate`, :func:`~evalkit.precision`,
      :func:`~evalkit.recall`, :func:`~evalkit.f_score`, :func:`~evalkit.f1_score`,
      :func:`~evalkit.sensitivity`, :func:`~evalkit.specificity`,
      :func:`~evalkit.cohen_kappa`, or a ``functools.partial`` of one fixing keywords) and
      the predictions are labels. Items with the same (true, A's, B's) labels are
      interchangeable, so a randomization resample is one Binomial(m, 1/2) number of swaps
      per group of *m* such items, and a bootstrap resample one Multinomial draw over the
      groups: all R resamples are drawn at once and scored as (R, k, k) stacks of confusion
      matrices. The values have the distribution of the item-by-item resamples; the random
      draws differ.
    - ``"sums"``: ``metric`` is :func:`~evalkit.c_precision`, :func:`~evalkit.c_recall`,
      :func:`~evalkit.c_f1` or :func:`~evalkit.brier_score` (or a ``functools.partial`` of
      one fixing keywords) and the predictions are probabilities. These depend on the items
      only through sums over them (per class: the probability mass its items gave it, the
      mass it received, its support; for Brier the squared errors), so the R resamples'
      sums are products of the (R, n) swap or draw-count matrices with the items' rows,
      block by block. The random draws are those of the loop below: the same seed gives
      the same resamples and the same values (to rounding). The classes are those of the
      full data (a bootstrap resample that misses a class still has its column).
    - ``"loop"``: any other callable (a lambda, a scikit-learn metric, AUC, ECE) is called
      twice per resample on the resampled arrays: correct for any metric, but a Python loop
      (for 10^5 items, a few milliseconds per call). A randomization resample swaps item i
      when ``rng.random(n)[i] < 0.5``; a bootstrap resample takes the rows
      ``rng.integers(0, n, n)``.

    **What these tests assume.** The items are independent draws from the population of
    interest (not clustered: several items from one document or speaker call for resampling
    the clusters), and the classifiers are fixed: the tests say whether A beats B on items
    like these, not whether A's learning algorithm beats B's (that needs retraining, e.g.
    :func:`five_by_two_cv_test`). Randomization tests the sharp null that A and B are
    exchangeable on every item; the bootstrap assumes the test set represents the
    population well enough for resampling to mimic new test sets (it can be liberal on small
    test sets).

    **How to read the result.** ``difference`` is the effect in the metric's own units:
    report it with the interval. A small p-value says a difference this large is unlikely
    if the classifiers were interchangeable; a large one is absence of evidence, not
    evidence of equality. The Monte-Carlo error of p is about :math:`\sqrt{p(1-p)/R}`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred_a, y_pred_b : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predictions of A and B for the same items in the same order, of one shape: labels,
        scores, or rows of class probabilities (for :func:`~evalkit.c_f1`,
        :func:`~evalkit.brier_score`, :func:`~evalkit.roc_auc`, ...). Rows are resampled
        as wholes.
    metric : callable or str
        ``metric(y_true, y_pred) -> float``, higher or lower better (the test is
        two-sided), or the name of an evalkit metric called with its defaults: one of
        ``CLASSIFIER_METRICS`` ("accuracy", "error_rate", "precision", "recall",
        "f_score", "f1_score", "sensitivity", "specificity", "matthews_corrcoef",
        "balanced_accuracy", "informedness", "markedness", "cohen_kappa", "c_precision",
        "c_recall", "c_f1", "brier_score", "expected_calibration_error", "roc_auc"). For
        options, pass ``functools.partial(ek.f_score, average="macro")``.
    test : {"randomization", "bootstrap"}, default "randomization"
    n_resamples : int, default 10000
        Number of resamples R.
    seed : None, int or numpy.random.Generator, optional
        Seed for ``np.random.default_rng``; a Generator is used (and advanced) as it is.
    confidence : float, default 0.95
        Level of the bootstrap interval, in (0, 1) (unused by randomization).

    Returns
    -------
    DataFrame
        One row, indexed by the test ("randomization" or "bootstrap"), with columns
        ``metric_a``, ``metric_b`` (the metric on the data), ``difference``
        (``metric_a - metric_b``), ``pvalue``, for the bootstrap ``ci_low`` and ``ci_high``
        (the interval of the difference), then ``n_resamples`` and ``resampling``
        ("counts", "sums" or "loop"). ``.attrs`` holds ``metric`` (its name), ``confidence`` and
        ``distribution``, the R resampled differences (under the null for randomization)
        as a tuple of floats (``np.asarray`` makes it an array; a tuple lets ``pd.concat``
        join tables, since pandas compares ``attrs`` with ``==``). Identical predictions
        give a difference of 0 and p = 1.

    Raises
    ------
    ValueError
        Arrays of different lengths, empty, holding NaN, or of different shapes; an unknown
        ``test`` or metric name; bad options; a metric that returns NaN on the data.
    TypeError
        A ``metric`` that is neither callable nor a name, or that does not return one number.

    References
    ----------
    Noreen, E. W. (1989). Computer-Intensive Methods for Testing Hypotheses: An
    Introduction. Wiley.
    Yeh, A. (2000). More accurate tests for the statistical significance of result
    differences. COLING 2000, 947–953.
    Koehn, P. (2004). Statistical significance tests for machine translation evaluation.
    EMNLP 2004, 388–395.
    Berg-Kirkpatrick, T., Burkett, D. and Klein, D. (2012). An empirical investigation of
    statistical significance in NLP. EMNLP-CoNLL 2012, 995–1005.
    Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap, chapter 16.
    Chapman & Hall.
    Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never be zero.
    Statistical Applications in Genetics and Molecular Biology 9(1), article 39.

    Examples
    --------
    >>> import functools
    >>> import evalkit as ek
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 3, 500)
    >>> y_pred_a = np.where(rng.random(500) < 0.80, y_true, rng.integers(0, 3, 500))
    >>> y_pred_b = np.where(rng.random(500) < 0.72, y_true, rng.integers(0, 3, 500))
    >>> macro_f1 = functools.partial(ek.f1_score, average="macro")
    >>> table = compare_classifiers(y_true, y_pred_a, y_pred_b, metric=macro_f1, seed=1)
    >>> columns = ["metric_a", "metric_b", "difference", "pvalue"]
    >>> print(table[columns].round(4).to_string(index_names=False))
                   metric_a  metric_b  difference  pvalue
    randomization    0.8667    0.8292      0.0376  0.0937
    >>> table = compare_classifiers(y_true, y_pred_a, y_pred_b, metric=macro_f1,
    ...                             test="bootstrap", seed=1)
    >>> print(table[["ci_low", "ci_high", "resampling"]].round(4).to_string(index=False))
     ci_low  ci_high resampling
    -0.0061    0.081     counts
    """
    metric, metric_name = _resolve_metric(metric)
    test = check_option(test, "test", CLASSIFIER_TESTS)
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    confidence = check_scalar(confidence, "confidence", low=0, high=1, low_inclusive=False,
                              high_inclusive=False)
    rng = check_seed(seed)
    truth = check_labels(y_true, "y_true")
    a = _check_prediction_array(y_pred_a, "y_pred_a", len(truth))
    b = _check_prediction_array(y_pred_b, "y_pred_b", len(truth))
    if a.shape != b.shape:
        raise ValueError(f"y_pred_a and y_pred_b must have the same shape (one kind of "
                         f"prediction); got {a.shape} and {b.shape}")
    value_a = _metric_value(metric, truth, a, "y_pred_a")
    value_b = _metric_value(metric, truth, b, "y_pred_b")
    difference = value_a - value_b
    path = _stacked_path(metric, truth, a, b, value_a, value_b)
    sums = None if path is not None else _item_sum_path(metric, truth, a, b, value_a, value_b)
    with _each_warning_once(f"{test} resamples: "):
        if path is not None:
            resampling = "counts"
            distribution = _stacked_differences(path[0], path[1], truth, test, n_resamples,
                                                rng)
        elif sums is not None:
            resampling = "sums"
            distribution = sums.differences(test, n_resamples, rng)
        else:
            resampling = "loop"
            distribution = _loop_differences(metric, truth, a, b, test, n_resamples, rng)
    _check_distribution(distribution, "resamples")
    tolerance = _TIE_TOLERANCE * max(1.0, abs(difference))
    if test == "randomization":
        extreme = np.abs(distribution) >= abs(difference) - tolerance
    else:
        extreme = np.abs(distribution - difference) >= abs(difference) - tolerance
    row: dict[str, Any] = {"metric_a": value_a, "metric_b": value_b, "difference": difference,
                           "pvalue": (int(np.count_nonzero(extreme)) + 1) / (n_resamples + 1)}
    if test == "bootstrap":
        alpha = (1.0 - confidence) / 2.0
        low, high = np.quantile(distribution, [alpha, 1.0 - alpha])
        row.update(ci_low=float(low), ci_high=float(high))
    row.update(n_resamples=n_resamples, resampling=resampling)
    table = pd.DataFrame([row], index=pd.Index([test], name="test"))
    # A tuple, not an array: pandas compares attrs with == when tables are concatenated.
    table.attrs.update(metric=metric_name, confidence=confidence,
                       distribution=tuple(distribution.tolist()))
    return table
