r"""Two classifiers on one test set, and two learning algorithms on resampled data.

- :func:`mcnemar_test`: do the two classifiers make their mistakes on different items more
  often one way than the other? (McNemar 1947; Dietterich 1998.)
- :func:`compare_classifiers`: the difference of any metric (accuracy, macro-F1, cF1, Brier,
  AUC, ...) between two classifiers on the same items, with an approximate randomization
  test (Noreen 1989; Yeh 2000) or a paired bootstrap (Koehn 2004; Berg-Kirkpatrick et al.
  2012). Confusion-matrix metrics are resampled as counts, all resamples at once.
- :func:`five_by_two_cv_test`: Dietterich's 5x2cv paired t test and Alpaydin's combined F
  test on the differences of five repetitions of 2-fold cross-validation;
  :func:`five_by_two_cv_differences` produces those differences from two scikit-learn
  estimators.
- :func:`corrected_resampled_t_test`: Nadeau and Bengio's corrected t test for the
  differences of repeated random train/test splits.
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from .._averaging import AVERAGES, ClassCounts, average_scores, select_labels
from .._confusion_stack import StackedMetric, stacked_metric
from .._lazy import lazy_module
from .._probabilities import _check_probabilities
from .._results import make_result
from .._validation import (
    as_array,
    check_bool,
    check_consistent_length,
    check_labels,
    check_option,
    check_scalar,
    check_seed,
    check_zero_division,
    keyword_only,
)
from ._common import _check_at_least_two, _unit_scale
from .bootstrap import _check_distribution, _each_warning_once, _one_number

stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)
sparse = lazy_module("scipy.sparse")

__all__ = [
    "mcnemar_test",
    "McNemarResult",
    "MCNEMAR_METHODS",
    "compare_classifiers",
    "CLASSIFIER_TESTS",
    "CLASSIFIER_METRICS",
    "five_by_two_cv_test",
    "five_by_two_cv_differences",
    "FiveByTwoResult",
    "FIVE_BY_TWO_TESTS",
    "corrected_resampled_t_test",
    "CorrectedTTestResult",
]

#: The ways :func:`mcnemar_test` turns the discordant counts into a p-value.
MCNEMAR_METHODS = ("exact", "mid-p", "chi2", "chi2-uncorrected")

McNemarResult = make_result(
    "McNemarResult", ("statistic", "pvalue"),
    ("a_only_correct", "b_only_correct", "both_correct", "both_wrong", "method"),
    module=__name__,
    doc="The result of McNemar's test; unpacks like ``(statistic, pvalue)``. Also has the "
        "discordant counts ``a_only_correct`` (items only classifier A gets right) and "
        "``b_only_correct`` (only B right), the concordant ``both_correct`` and "
        "``both_wrong``, and the ``method``.",
)


def _check_predictions(y_true: Any, y_pred_a: Any, y_pred_b: Any
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three label arrays of one length and one kind (numbers or strings)."""
    true = check_labels(y_true, "y_true")
    a = check_labels(y_pred_a, "y_pred_a")
    b = check_labels(y_pred_b, "y_pred_b")
    check_consistent_length(y_true=true, y_pred_a=a)
    check_consistent_length(y_true=true, y_pred_b=b)
    kinds = {name: ("strings" if array.dtype.kind == "U" else "numbers")
             for name, array in (("y_true", true), ("y_pred_a", a), ("y_pred_b", b))}
    if len(set(kinds.values())) > 1:
        described = ", ".join(f"{name} holds {kind}" for name, kind in kinds.items())
        raise ValueError(f"labels must be all strings or all numbers, but {described}")
    return true, a, b


@keyword_only
def mcnemar_test(y_true: Any, y_pred_a: Any, y_pred_b: Any, *,
                 method: str = "exact") -> McNemarResult:
    r"""McNemar's test: do classifiers A and B have the same error rate on these items?

    Each item of the test set is right or wrong for each classifier. Items both get right
    or both get wrong say nothing about which is better; the test looks only at the
    *discordant* items: :math:`b` = items only A gets right, :math:`c` = items only B gets
    right. If A and B have the same error rate, each discordant item is a fair coin flip
    between the two, :math:`b \sim \mathrm{Binomial}(b + c, 1/2)`:

    .. math::

        p_\text{exact} = \min\Bigl(1,\ 2 \sum_{x=0}^{\min(b,c)} \binom{b+c}{x} 2^{-(b+c)}\Bigr)
        \qquad
        p_\text{mid} = 2 \sum_{x=0}^{\min(b,c)} \binom{b+c}{x} 2^{-(b+c)}
        - \binom{b+c}{\min(b,c)} 2^{-(b+c)}

    .. math::

        \chi^2 = \frac{(|b - c| - 1)^2}{b + c} \quad\text{(Edwards' correction)} \qquad
        \chi^2_\text{uncorrected} = \frac{(b - c)^2}{b + c}, \qquad p = P(\chi^2_1 \ge \chi^2)

    - ``"exact"``: the two-sided binomial (sign) test, as
      ``statsmodels.stats.contingency_tables.mcnemar(table, exact=True)`` and
      ``mlxtend.evaluate.mcnemar(table, exact=True)``; statistic :math:`\min(b, c)`
      (statsmodels' convention). Conservative: its actual level is below the nominal one.
    - ``"mid-p"``: the exact p-value minus half the probability of the observed split on
      each side (Fagerland et al. 2013 recommend it: close to the nominal level and never
      far above it); statistic :math:`\min(b, c)`; 1 when :math:`b = c`.
    - ``"chi2"``: the large-sample approximation with Edwards' continuity correction, as
      statsmodels' ``mcnemar(exact=False, correction=True)`` and mlxtend's
      ``mcnemar(corrected=True)``. With :math:`b = c` the statistic is :math:`1 / (b + c)`,
      as theirs.
    - ``"chi2-uncorrected"``: McNemar's original statistic, without correction (liberal when
      :math:`b + c` is small).

    **What this test assumes.** The items are an independent sample from the population the
    classifiers will meet, and the two classifiers are fixed (trained once; the test says
    nothing about the learning algorithms, whose variation over training sets it ignores:
    use :func:`five_by_two_cv_test` for that). It compares error rates (accuracy), not any
    other metric (use :func:`compare_classifiers`). The chi-squared forms need enough
    discordant items (:math:`b + c \ge 25` is a common rule); the exact forms need none.

    **How to read the result.** A small p-value says the split of the discordant items
    between A and B is unlikely if they had the same error rate; the accuracy difference is
    :math:`(b - c) / n`. A large p-value is no evidence that they are equal: with few
    discordant items the test has little power.

    Labels may be multi-class (or strings): an item is right when the prediction equals the
    true label.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred_a, y_pred_b : array-like of shape (n_samples,)
        Labels predicted by classifiers A and B for the same items, in the same order.
    method : {"exact", "mid-p", "chi2", "chi2-uncorrected"}, default "exact"

    Returns
    -------
    McNemarResult
        Unpacks like ``(statistic, pvalue)``. Also ``.a_only_correct`` (:math:`b`: items only
        A gets right), ``.b_only_correct`` (:math:`c`: only B right), ``.both_correct``,
        ``.both_wrong`` and ``.method``. Without discordant items (:math:`b + c = 0`) there is
        no evidence of a difference: the statistic is 0 and the p-value 1 (statsmodels
        returns NaN for the chi-squared forms).

    Raises
    ------
    ValueError
        Arrays of different lengths, empty, holding NaN, or mixing strings and numbers; an
        unknown ``method``.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. Psychometrika 12(2), 153–157.
    Edwards, A. L. (1948). Note on the "correction for continuity" in testing the
    significance of the difference between correlated proportions. Psychometrika 13(3),
    185–187.
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.
    Fagerland, M. W., Lydersen, S. and Laake, P. (2013). The McNemar test for binary
    matched-pairs data: mid-p and asymptotic are better than exact conditional. BMC Medical
    Research Methodology 13, 91.

    Examples
    --------
    >>> y_true = [0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1]
    >>> y_pred_a = [0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1]   # 11 right
    >>> y_pred_b = [1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1]   # 5 right
    >>> result = mcnemar_test(y_true, y_pred_a, y_pred_b)
    >>> result.a_only_correct, result.b_only_correct
    (6, 0)
    >>> result.statistic, round(result.pvalue, 4)
    (0.0, 0.0312)
    >>> round(mcnemar_test(y_true, y_pred_a, y_pred_b, method="mid-p").pvalue, 4)
    0.0156
    >>> round(mcnemar_test(y_true, y_pred_a, y_pred_b, method="chi2").statistic, 4)
    4.1667
    """
    method = check_option(method, "method", MCNEMAR_METHODS)
    true, a, b = _check_predictions(y_true, y_pred_a, y_pred_b)
    right_a, right_b = a == true, b == true
    a_only = int(np.count_nonzero(right_a & ~right_b))
    b_only = int(np.count_nonzero(right_b & ~right_a))
    both_correct = int(np.count_nonzero(right_a & right_b))
    both_wrong = len(true) - a_only - b_only - both_correct
    statistic, pvalue = _mcnemar_from_counts(a_only, b_only, method)
    return McNemarResult(statistic, pvalue, a_only_correct=a_only, b_only_correct=b_only,
                         both_correct=both_correct, both_wrong=both_wrong, method=method)


def _mcnemar_from_counts(b: int, c: int, method: str) -> tuple[float, float]:
    discordant = b + c
    if discordant == 0:
        return 0.0, 1.0
    if method in ("exact", "mid-p"):
        smaller = min(b, c)
        tail = float(stats.binom.cdf(smaller, discordant, 0.5))
        if method == "exact":
            return float(smaller), min(1.0, 2.0 * tail)
        point = float(stats.binom.pmf(smaller, discordant, 0.5))
        return float(smaller), min(1.0, 2.0 * tail - point)
    correction = 1.0 if method == "chi2" else 0.0
    statistic = (abs(b - c) - correction) ** 2 / discordant
    return statistic, float(stats.chi2.sf(statistic, 1))


# ---------------------------------------------------------------------------------------------
# Any metric: approximate randomization and the paired bootstrap
# ---------------------------------------------------------------------------------------------

#: The tests :func:`compare_classifiers` runs.
CLASSIFIER_TESTS = ("randomization", "bootstrap")

#: The evalkit metrics :func:`compare_classifiers` takes by name (with their defaults; pass
#: ``functools.partial(ek.f1_score, average="macro")`` for other options).
CLASSIFIER_METRICS = (
    "accuracy", "error_rate", "precision", "recall", "f_score", "f1_score", "sensitivity",
    "specificity", "cohen_kappa", "c_precision", "c_recall", "c_f1", "brier_score",
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
        "f_score", "f1_score", "sensitivity", "specificity", "cohen_kappa",
        "c_precision", "c_recall", "c_f1", "brier_score", "expected_calibration_error",
        "roc_auc"). For options, pass ``functools.partial(ek.f_score, average="macro")``.
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
        ``distribution``, the R resampled differences (under the null for randomization).
        Identical predictions give a difference of 0 and p = 1.

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
    table.attrs.update(metric=metric_name, confidence=confidence, distribution=distribution)
    return table


# ---------------------------------------------------------------------------------------------
# Two learning algorithms: 5x2cv and the corrected resampled t test
# ---------------------------------------------------------------------------------------------

#: The tests of :func:`five_by_two_cv_test`: Dietterich's t and Alpaydin's combined F.
FIVE_BY_TWO_TESTS = ("t", "f")

FiveByTwoResult = make_result(
    "FiveByTwoResult", ("statistic", "pvalue"),
    ("df", "test", "variances"),
    module=__name__,
    doc="The result of a 5x2cv test; unpacks like ``(statistic, pvalue)``. Also has the "
        "degrees of freedom ``df`` (5 for the t test, (10, 5) for the F test), the ``test`` "
        "and the five per-repetition ``variances`` :math:`s_i^2`.",
)

CorrectedTTestResult = make_result(
    "CorrectedTTestResult", ("statistic", "pvalue"),
    ("df", "mean_difference", "standard_error", "test_fraction"),
    module=__name__,
    doc="The result of Nadeau and Bengio's corrected resampled t test; unpacks like "
        "``(statistic, pvalue)``. Also has ``df`` (J - 1), the ``mean_difference``, its "
        "corrected ``standard_error`` and the ``test_fraction``.",
)


def _check_differences(values: Any, name: str = "differences") -> np.ndarray:
    if isinstance(values, pd.DataFrame):
        # Row-major, as a nested list or an ndarray: the sums add in the same order.
        array = np.ascontiguousarray(values.to_numpy())
    else:
        array = as_array(values, name)
    if array.dtype.kind not in "biuf" or array.dtype.kind == "b":
        raise ValueError(f"{name} must hold numbers (score differences); got dtype "
                         f"{array.dtype}")
    array = array.astype(np.float64)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or inf; differences must be finite numbers")
    return array


def _signed_ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator, with 0 / 0 = 0 and x / 0 = ±inf (no evidence / certainty)."""
    if denominator > 0:
        return numerator / denominator
    return 0.0 if numerator == 0 else math.copysign(math.inf, numerator)


@keyword_only
def five_by_two_cv_test(differences: Any, *, test: str = "t") -> FiveByTwoResult:
    r"""Dietterich's 5x2cv paired t test, or Alpaydin's combined 5x2cv F test.

    Do learning algorithms A and B differ in score when trained on data like these? Five
    times, split the data in two halves at random; train both on one half, score them on
    the other, then swap the halves: ``differences[i, j]`` is A's score minus B's on
    repetition *i*, fold *j* (:func:`five_by_two_cv_differences` computes them). With
    :math:`\bar d_i = (d_{i1} + d_{i2}) / 2` and :math:`s_i^2 = (d_{i1} - \bar d_i)^2 +
    (d_{i2} - \bar d_i)^2`:

    .. math::

        t = \frac{d_{11}}{\sqrt{\frac{1}{5} \sum_{i=1}^{5} s_i^2}} \sim t_5 \qquad
        F = \frac{\sum_{i=1}^{5} \sum_{j=1}^{2} d_{ij}^2}{2 \sum_{i=1}^{5} s_i^2}
        \sim F_{10, 5}

    ``"t"`` (Dietterich 1998) is two-sided, with the first difference (repetition 0, fold
    0) as its numerator, as ``mlxtend.evaluate.paired_ttest_5x2cv``; ``"f"`` (Alpaydin
    1999) uses all ten differences, so it does not depend on which one comes first, and is
    ``mlxtend.evaluate.combined_ftest_5x2cv`` (an F statistic is one-sided by nature: a
    large F is evidence of a difference in either direction).

    **What this test assumes.** The two halves of one repetition do not overlap, so the
    two differences of a repetition are nearly independent and :math:`s_i^2` estimates the
    variance of a difference, including the variation due to the training set; the
    :math:`s_i^2` of the five repetitions are treated as independent, and the differences
    as approximately normal. Training on half the data estimates the algorithms' behaviour
    on half-size training sets. Dietterich found the t test's type I error close to the
    nominal level where the t test over k-fold CV or resampled splits is liberal;
    Alpaydin's F is more robust to the choice of numerator and somewhat more powerful.

    **How to read the result.** A small p-value says the algorithms' scores differ by more
    than the variation over training and test sets explains. Report the mean difference
    (``differences.mean()``) as the effect. With only 5 degrees of freedom the test has
    little power: a large p-value is not evidence of equal performance.

    Parameters
    ----------
    differences : array-like of shape (5, 2)
        Score differences A - B: row *i* a repetition, column *j* a fold.
    test : {"t", "f"}, default "t"

    Returns
    -------
    FiveByTwoResult
        Unpacks like ``(statistic, pvalue)``; also ``.df`` (5, or (10, 5)), ``.test`` and
        ``.variances`` (the five :math:`s_i^2`). When every :math:`s_i^2` is 0, the
        statistic is 0 with p = 1 if its numerator is 0 too, else inf with p = 0.

    Raises
    ------
    ValueError
        ``differences`` not of shape (5, 2), not numbers, NaN or infinite; an unknown
        ``test``.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.
    Alpaydin, E. (1999). Combined 5 x 2 cv F test for comparing supervised classification
    learning algorithms. Neural Computation 11(8), 1885–1892.

    Examples
    --------
    >>> differences = [[0.030, 0.012], [0.021, 0.045], [0.008, 0.026],
    ...                [0.035, 0.019], [0.027, 0.014]]
    >>> result = five_by_two_cv_test(differences)
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (2.336, 0.0667, 5)
    >>> result = five_by_two_cv_test(differences, test="f")
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (4.1, 0.0664, (10, 5))
    """
    test = check_option(test, "test", FIVE_BY_TWO_TESTS)
    given = _check_differences(differences)
    if given.shape != (5, 2):
        raise ValueError(f"differences must be a 5x2 array (row: repetition, column: fold); "
                         f"got shape {given.shape}")
    scale = float(np.max(np.abs(given)))
    d = _unit_scale(given)  # t and F do not change; tiny differences cannot underflow
    variances = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    if test == "t":
        statistic = _signed_ratio(d[0, 0], math.sqrt(variances.mean()))
        pvalue = float(2.0 * stats.t.sf(abs(statistic), 5))
        df: Any = 5
    else:
        statistic = _signed_ratio(float((d**2).sum()), 2.0 * float(variances.sum()))
        pvalue = float(stats.f.sf(statistic, 10, 5))
        df = (10, 5)
    return FiveByTwoResult(float(statistic), pvalue, df=df, test=test,
                           variances=variances * scale**2)


def _require_sklearn() -> Any:
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise ImportError("five_by_two_cv_differences trains scikit-learn estimators: install "
                          "scikit-learn, e.g. pip install 'evalkit[notebooks]' (the notebooks "
                          "extra)") from None
    from sklearn import base, metrics, model_selection

    return base, metrics, model_selection


@keyword_only
def five_by_two_cv_differences(
    estimator_a: Any,
    estimator_b: Any,
    X: Any,
    y: Any,
    *,
    scoring: Any = None,
    seed: Any = None,
    stratify: bool = True,
) -> np.ndarray:
    r"""The 5x2 score differences of two scikit-learn estimators, for :func:`five_by_two_cv_test`.

    Five repetitions of 2-fold cross-validation: each splits the data into two halves
    (scikit-learn's ``StratifiedKFold(n_splits=2, shuffle=True)``, so both halves keep the
    class proportions), fits fresh clones of both estimators on one half and scores them on
    the other, then the other way round:

    .. math::

        d_{ij} = \mathrm{score}(A_{ij}) - \mathrm{score}(B_{ij}), \qquad i = 1..5,\ j = 1, 2

    where :math:`A_{ij}` is A trained on the half that fold *j* does not test on.

    With ``stratify=False`` each repetition is scikit-learn's ``train_test_split(X, y,
    test_size=0.5, random_state=...)`` instead, train on the first part and test on the
    second (fold 0), then the reverse (fold 1): exactly the splits of
    ``mlxtend.evaluate.paired_ttest_5x2cv(..., random_seed=seed)``, so an integer seed gives
    mlxtend's differences (its estimators are fitted in place; here clones are).

    **What this assumes.** The rows of ``X`` are independent (no groups of related rows
    that should stay on one side of a split), and the estimators' own randomness is fixed
    by their ``random_state`` if the result is to be repeatable.

    Parameters
    ----------
    estimator_a, estimator_b : scikit-learn estimators
        Unfitted (they are cloned, never modified).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    scoring : None, str or callable, optional
        A scikit-learn scorer name (``"accuracy"``, ``"f1_macro"``, ...) or a callable
        ``scorer(estimator, X, y)``; default accuracy for classifiers, R² for regressors (as
        mlxtend).
    seed : None, int or numpy.random.Generator, optional
        The five splits' seeds are ``np.random.RandomState(seed).randint(0, 32767)``, one
        per repetition, as mlxtend draws them (a Generator draws them with ``integers``).
    stratify : bool, default True
        Stratified halves (``StratifiedKFold``) or mlxtend's ``train_test_split`` halves.

    Returns
    -------
    ndarray of shape (5, 2)
        ``differences[i, j]``: A's score minus B's on repetition *i*, fold *j*.

    Raises
    ------
    ImportError
        scikit-learn is not installed (it comes with the ``notebooks`` extra).
    ValueError
        Bad ``seed`` or ``scoring``, or data scikit-learn refuses.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.
    Raschka, S. (2018). MLxtend: providing machine learning and data science utilities and
    extensions to Python's scientific computing stack. Journal of Open Source Software
    3(24), 638.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> differences = five_by_two_cv_differences(
    ...     LogisticRegression(max_iter=1000), DecisionTreeClassifier(random_state=0), X, y,
    ...     seed=1)
    >>> differences.shape
    (5, 2)
    >>> result = five_by_two_cv_test(differences)
    >>> bool(result.pvalue > 0.05)
    True
    """
    base, metrics, model_selection = _require_sklearn()
    stratify = check_bool(stratify, "stratify")
    if isinstance(seed, np.random.Generator):
        split_seeds = [int(s) for s in seed.integers(0, 32767, size=5)]
    else:
        check_seed(seed)  # the same rules for None and whole numbers
        state = np.random.RandomState(seed)
        split_seeds = [int(state.randint(low=0, high=32767)) for _ in range(5)]
    if scoring is None:
        if base.is_classifier(estimator_a):
            scoring = "accuracy"
        elif base.is_regressor(estimator_a):
            scoring = "r2"
        else:
            raise ValueError("scoring is needed: estimator_a is neither a scikit-learn "
                             "classifier nor a regressor")
    scorer = metrics.get_scorer(scoring) if isinstance(scoring, str) else scoring
    if not callable(scorer):
        raise TypeError(f"scoring must be None, a scorer name or a callable scorer(estimator, "
                        f"X, y); got {scoring!r}")
    X_array = X if hasattr(X, "iloc") else np.asarray(X)
    y_array = np.asarray(y)
    rows = np.arange(len(y_array))
    differences = np.empty((5, 2))
    for i, split_seed in enumerate(split_seeds):  # 5 x 2 fits: the work is in the fits
        if stratify:
            folds = model_selection.StratifiedKFold(n_splits=2, shuffle=True,
                                                    random_state=split_seed)
            splits = list(folds.split(rows, y_array))
        else:
            first, second = model_selection.train_test_split(rows, test_size=0.5,
                                                             random_state=split_seed)
            splits = [(first, second), (second, first)]
        for j, (train, test) in enumerate(splits):
            scores = []
            for estimator in (estimator_a, estimator_b):
                fitted = base.clone(estimator).fit(_rows(X_array, train), y_array[train])
                scores.append(float(scorer(fitted, _rows(X_array, test), y_array[test])))
            differences[i, j] = scores[0] - scores[1]
    return differences


def _rows(X: Any, index: np.ndarray) -> Any:
    return X.iloc[index] if hasattr(X, "iloc") else X[index]


@keyword_only
def corrected_resampled_t_test(differences: Any, *,
                               test_fraction: float) -> CorrectedTTestResult:
    r"""Nadeau and Bengio's corrected resampled t test for repeated random train/test splits.

    J times, split the data at random into a training set of :math:`n_1` rows and a test
    set of :math:`n_2` rows, train A and B, and record the difference of their test scores
    :math:`d_j`. The plain t test over the :math:`d_j` treats them as independent, but the
    training (and test) sets overlap, so the :math:`d_j` are positively correlated and the
    plain t test is badly liberal. Nadeau and Bengio correct the variance of the mean:

    .. math::

        t = \frac{\bar d}{\sqrt{\Bigl(\frac{1}{J} + \frac{n_2}{n_1}\Bigr) \hat\sigma^2}}
        \sim t_{J-1}, \qquad \frac{n_2}{n_1} = \frac{f}{1 - f}

    with :math:`\hat\sigma^2` the sample variance of the :math:`d_j` (ddof = 1) and
    :math:`f` = ``test_fraction`` = :math:`n_2 / n`. The p-value is two-sided. Without the
    :math:`n_2 / n_1` term this is the plain one-sample t test
    (``scipy.stats.ttest_1samp(differences, 0)``). Bouckaert and Frank (2004) apply the same
    correction to the :math:`J = r k` differences of r-times repeated k-fold cross-validation
    (:math:`f = 1/k`).

    **What this test assumes.** The :math:`d_j` come from independent random splits of the
    same data at one test fraction; the correlation between two of them is about
    :math:`n_2 / n` (Nadeau and Bengio's heuristic, which ignores the variation of the data
    set itself, so the test can still be somewhat liberal); the mean difference is roughly
    normal.

    **How to read the result.** A small p-value says the algorithms' mean scores differ by
    more than the split-to-split variation explains. ``mean_difference`` is the effect in
    score units, ``standard_error`` its corrected spread. More repetitions do not shrink
    the standard error below :math:`\hat\sigma \sqrt{n_2 / n_1}`: beyond a few dozen,
    they add little.

    Parameters
    ----------
    differences : array-like of shape (J,)
        Score differences A - B, one per random split (at least 2).
    test_fraction : float
        Share of the rows in each test set, :math:`n_2 / n`, in (0, 1).

    Returns
    -------
    CorrectedTTestResult
        Unpacks like ``(statistic, pvalue)``; also ``.df`` (J - 1), ``.mean_difference``,
        ``.standard_error`` (the corrected one) and ``.test_fraction``. When every
        difference is equal the statistic is 0 with p = 1 if they are 0, else ±inf with
        p = 0.

    Raises
    ------
    ValueError
        Fewer than 2 differences, not 1-D, NaN or infinite; ``test_fraction`` outside (0, 1).

    References
    ----------
    Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. Machine
    Learning 52(3), 239–281.
    Bouckaert, R. R. and Frank, E. (2004). Evaluating the replicability of significance
    tests for comparing learning algorithms. PAKDD 2004, 3–12.

    Examples
    --------
    >>> differences = [0.021, 0.035, 0.012, 0.028, 0.018, 0.030, 0.009, 0.026, 0.015, 0.024]
    >>> result = corrected_resampled_t_test(differences, test_fraction=0.2)
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (4.427, 0.0017, 9)
    """
    test_fraction = check_scalar(test_fraction, "test_fraction", low=0, high=1,
                                 low_inclusive=False, high_inclusive=False)
    d = _check_differences(differences)
    if d.ndim != 1:
        raise ValueError(f"differences must be 1-D, one difference per split; got shape "
                         f"{d.shape}")
    if d.size == 0:
        raise ValueError("differences is empty; expected at least 2 (one per split)")
    _check_at_least_two(d, "differences")
    scale = float(np.max(np.abs(d)))
    unit = _unit_scale(d)
    J = len(d)
    factor = 1.0 / J + test_fraction / (1.0 - test_fraction)
    spread = math.sqrt(factor * float(np.var(unit, ddof=1)))
    statistic = _signed_ratio(float(unit.mean()), spread)
    pvalue = float(2.0 * stats.t.sf(abs(statistic), J - 1))
    return CorrectedTTestResult(float(statistic), pvalue, df=J - 1,
                                mean_difference=float(d.mean()),
                                standard_error=spread * scale, test_fraction=test_fraction)
