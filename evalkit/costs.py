r"""Cost-sensitive evaluation: what the errors of a classifier cost, and the cheapest threshold.

Accuracy counts every error as one. In most applications errors differ: missing a disease
costs more than a needless test. A cost matrix :math:`C` says how much: ``cost_matrix[i, j]``
is the cost of predicting class *j* when the truth is class *i* (rows true, columns predicted,
the layout of :func:`evalkit.confusion_matrix`). Correct decisions may cost nothing, or have a
negative cost (a benefit).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ._validation import (
    check_1d,
    check_consistent_length,
    check_finite_scores,
    check_labels,
    check_square_matrix,
)
from .curves import confusion_at_thresholds

__all__ = [
    "total_cost",
    "expected_cost",
    "cost_optimal_threshold",
    "costs_by_threshold",
    "ThresholdCost",
    "CostThresholdModel",
]


class ThresholdCost(NamedTuple):
    """A decision threshold and the total cost of deciding with it."""

    threshold: float
    cost: float


def _check_pair(confusion: Any, cost_matrix: Any) -> tuple[np.ndarray, np.ndarray]:
    confusion = check_square_matrix(confusion, "confusion")
    cost_matrix = check_square_matrix(cost_matrix, "cost_matrix")
    if confusion.shape != cost_matrix.shape:
        raise ValueError(
            f"confusion and cost_matrix must have the same shape; got {confusion.shape} and "
            f"{cost_matrix.shape}"
        )
    if (confusion < 0).any():
        raise ValueError("confusion holds counts, which cannot be negative")
    return confusion, cost_matrix


def total_cost(confusion: Any, cost_matrix: Any) -> float:
    r"""The total cost of a classifier's decisions: each cell's count times its cost.

    .. math::

        \mathrm{cost} = \sum_{i} \sum_{j} N_{ij}\, C_{ij}

    where :math:`N_{ij}` is the number of samples of true class *i* predicted as class *j*.

    Parameters
    ----------
    confusion : array-like of shape (k, k)
        A confusion matrix, rows true class and columns predicted class.
    cost_matrix : array-like of shape (k, k)
        ``cost_matrix[i, j]`` is the cost of predicting class *j* when the truth is *i*, with
        the classes in the same order as ``confusion``. Negative costs are benefits.

    Returns
    -------
    float

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.

    Examples
    --------
    >>> # rows actual (+, -), columns predicted (+, -)
    >>> total_cost([[150, 40], [60, 250]], [[-1, 100], [1, 0]])
    3910.0
    """
    confusion, cost_matrix = _check_pair(confusion, cost_matrix)
    return float((confusion * cost_matrix).sum())


def expected_cost(confusion: Any, cost_matrix: Any, *, priors: Any = None) -> float:
    r"""The average cost per decision.

    .. math::

        \mathrm{expected\ cost} = \frac{1}{n} \sum_{i,j} N_{ij} C_{ij}
        \quad\text{or, with class priors } \pi_i:\quad
        \sum_i \pi_i \sum_j \frac{N_{ij}}{n_i} C_{ij}

    Without ``priors`` the classes count as often as they occur in ``confusion``. With
    ``priors``, each class's error rates (row of ``confusion`` divided by its total
    :math:`n_i`) are weighted by the share the class will have where the classifier is used,
    which may differ from the test set's.

    Parameters
    ----------
    confusion : array-like of shape (k, k)
        A confusion matrix, rows true class and columns predicted class.
    cost_matrix : array-like of shape (k, k)
        ``cost_matrix[i, j]``: the cost of predicting *j* when the truth is *i*.
    priors : array-like of shape (k,), optional
        Class shares summing to 1, in the order of the rows.

    Returns
    -------
    float

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.

    Examples
    --------
    >>> expected_cost([[150, 40], [60, 250]], [[-1, 100], [1, 0]])
    7.82
    >>> round(expected_cost([[150, 40], [60, 250]], [[-1, 100], [1, 0]], priors=[0.5, 0.5]), 4)
    10.2284
    """
    confusion, cost_matrix = _check_pair(confusion, cost_matrix)
    n = confusion.sum()
    if priors is None:
        if n == 0:
            raise ValueError("confusion is empty (all counts are 0); no decision to cost")
        return float((confusion * cost_matrix).sum() / n)
    priors = check_1d(priors, "priors")
    if priors.dtype.kind not in "biuf" or len(priors) != len(confusion):
        raise ValueError(f"priors must hold {len(confusion)} numbers, one per class")
    priors = priors.astype(np.float64)
    if (priors < 0).any() or not np.isclose(priors.sum(), 1.0):
        raise ValueError(f"priors must be non-negative and sum to 1; got {priors.tolist()}")
    class_totals = confusion.sum(axis=1)
    needed = (priors > 0) & (class_totals == 0)
    if needed.any():
        raise ValueError(
            f"class {int(np.argmax(needed))} has a prior > 0 but no sample in confusion, so "
            "its error rates are unknown"
        )
    per_class = (confusion * cost_matrix).sum(axis=1) / np.where(class_totals == 0, 1,
                                                                    class_totals)
    return float(np.dot(priors, per_class))


def _check_binary_costs(cost_matrix: Any) -> np.ndarray:
    cost_matrix = check_square_matrix(cost_matrix, "cost_matrix")
    if cost_matrix.shape != (2, 2):
        raise ValueError(
            "cost_matrix must be 2x2, rows and columns in the order (negative class, "
            f"positive class); got shape {cost_matrix.shape}"
        )
    return cost_matrix


def costs_by_threshold(
    y_true: Any, y_score: Any, cost_matrix: Any, *, pos_label: Any = 1
) -> pd.DataFrame:
    r"""The confusion matrix and the cost of deciding "positive when score >= t", for every t.

    .. math::

        \mathrm{cost}(t) = TN(t)\,C_{00} + FP(t)\,C_{01} + FN(t)\,C_{10} + TP(t)\,C_{11}

    with the classes in the order (negative, positive). The thresholds are those of
    :func:`evalkit.curves.confusion_at_thresholds`: +inf (nothing positive) then every distinct
    score, decreasing.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    cost_matrix : array-like of shape (2, 2)
        Costs in the order (negative class, positive class): ``[[C_TN, C_FP], [C_FN, C_TP]]``.
    pos_label : int or str, default 1
        The positive class.

    Returns
    -------
    DataFrame
        Columns ``threshold``, ``tp``, ``fp``, ``fn``, ``tn``, ``cost`` (total) and
        ``expected_cost`` (per sample).

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.

    Examples
    --------
    >>> table = costs_by_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [[0, 1], [5, 0]])
    >>> table[["threshold", "fp", "fn", "cost"]]
       threshold  fp  fn  cost
    0        inf   0   2  10.0
    1       0.80   0   1   5.0
    2       0.40   1   1   6.0
    3       0.35   1   0   1.0
    4       0.10   2   0   2.0
    """
    cost_matrix = _check_binary_costs(cost_matrix)
    table = confusion_at_thresholds(y_true, y_score, pos_label=pos_label)
    (c_tn, c_fp), (c_fn, c_tp) = cost_matrix
    table["cost"] = (table["tn"] * c_tn + table["fp"] * c_fp + table["fn"] * c_fn
                     + table["tp"] * c_tp).astype(np.float64)
    table["expected_cost"] = table["cost"] / (table["tp"] + table["fp"] + table["fn"]
                                              + table["tn"])
    return table


def cost_optimal_threshold(
    y_true: Any, y_score: Any, cost_matrix: Any, *, pos_label: Any = 1
) -> ThresholdCost:
    r"""The score threshold that minimises the total cost on these data.

    .. math::

        t^* = \arg\min_t\ TN(t)\,C_{00} + FP(t)\,C_{01} + FN(t)\,C_{10} + TP(t)\,C_{11}

    over +inf and every distinct score (see :func:`costs_by_threshold`); a sample is predicted
    positive when its score is at least :math:`t^*`. For calibrated probabilities the
    theoretical optimum is :math:`p^* = (C_{01} - C_{00}) / (C_{01} - C_{00} + C_{10} -
    C_{11})` (Elkan 2001); the threshold found here is the empirical one, which also works
    for uncalibrated scores.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    cost_matrix : array-like of shape (2, 2)
        Costs in the order (negative class, positive class): ``[[C_TN, C_FP], [C_FN, C_TP]]``.
    pos_label : int or str, default 1
        The positive class.

    Returns
    -------
    ThresholdCost
        A named tuple ``(threshold, cost)``: the threshold (``inf`` means "never predict
        positive") and its total cost. Of several thresholds with the same lowest cost, the
        highest (the one that predicts fewest positives).

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.

    Examples
    --------
    >>> cost_optimal_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [[0, 1], [5, 0]])
    ThresholdCost(threshold=0.35, cost=1.0)
    """
    table = costs_by_threshold(y_true, y_score, cost_matrix, pos_label=pos_label)
    best = int(np.argmin(table["cost"].to_numpy()))
    return ThresholdCost(float(table["threshold"].iat[best]), float(table["cost"].iat[best]))


# --------------------------------------------------------------------------------------------
# A model for the cost explorer
# --------------------------------------------------------------------------------------------

#: The four costs of :class:`CostThresholdModel`, in the order of ``cost_matrix.ravel()``.
COST_NAMES = ("cost_tn", "cost_fp", "cost_fn", "cost_tp")


def _check_cost(value: Any, name: str) -> float:
    """Return a cost as a float; it may be negative (a benefit) but must be a finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a finite number (negative for a benefit); got {value!r}")
    number = float(value)
    if not np.isfinite(number):
        raise ValueError(f"{name} must be a finite number (negative for a benefit); got {value!r}")
    return number


def _check_threshold(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"threshold must be a number (inf: never positive); got {value!r}")
    number = float(value)
    if np.isnan(number):
        raise ValueError("threshold must be a number (inf: never positive); got nan")
    return number


@dataclass(eq=False)
class CostThresholdModel:
    r"""A scorer, a 2x2 cost matrix and a decision threshold: what the decisions cost.

    A sample is predicted positive when its score is at least ``threshold``. The model gives
    the confusion matrix at that threshold, its total and expected cost and its accuracy, the
    cheapest threshold on these data (:func:`costs_by_threshold`, recomputed only when a cost
    changes, so moving the threshold is a table look-up) and, for calibrated probabilities,
    the theoretical threshold of Elkan (2001):

    .. math::

        \mathrm{cost}(t) = TN(t)\,C_{TN} + FP(t)\,C_{FP} + FN(t)\,C_{FN} + TP(t)\,C_{TP},
        \qquad
        p^* = \frac{C_{FP} - C_{TN}}{C_{FP} - C_{TN} + C_{FN} - C_{TP}}

    Predicting positive is cheaper in expectation exactly when
    :math:`P(+ \mid x) \ge p^*`. This is the state behind
    :class:`evalkit.widgets.CostExplorer`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; ``pos_label`` against all other labels. Both must occur.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive (probabilities or decision values).
    pos_label : int or str, default 1
        The positive class.
    cost_tn, cost_fp, cost_fn, cost_tp : float
        The cost matrix in the order (negative, positive):
        ``[[cost_tn, cost_fp], [cost_fn, cost_tp]]``. Negative costs are benefits. Default:
        0 for a right decision, 1 for an error (the cost is then the error count).
    threshold : float, default 0.5
        Predict positive when ``y_score >= threshold``; ``inf`` means never.

    Attributes
    ----------
    table : DataFrame
        :func:`costs_by_threshold` for the current costs: one row per distinct threshold.

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978.

    Examples
    --------
    >>> model = CostThresholdModel([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], cost_fn=5)
    >>> model.confusion()  # rows true (neg, pos), columns predicted (neg, pos)
    array([[2, 0],
           [1, 1]])
    >>> model.total_cost(), model.accuracy()
    (5.0, 0.75)
    >>> model.optimum()
    ThresholdCost(threshold=0.35, cost=1.0)
    >>> round(model.theoretical_threshold(), 4)  # (1 - 0) / (1 - 0 + 5 - 0)
    0.1667
    >>> model.set(threshold=0.35).total_cost()
    1.0
    """

    y_true: Any = field(repr=False)
    y_score: Any = field(repr=False)
    pos_label: Any = 1
    cost_tn: float = 0.0
    cost_fp: float = 1.0
    cost_fn: float = 1.0
    cost_tp: float = 0.0
    threshold: float = 0.5
    table: pd.DataFrame = field(init=False, repr=False)

    def __post_init__(self) -> None:
        y_true = check_labels(self.y_true, "y_true")
        y_score = check_finite_scores(self.y_score, "y_score")
        check_consistent_length(y_true=y_true, y_score=y_score)
        self.y_true, self.y_score = y_true, y_score
        for name in COST_NAMES:
            setattr(self, name, _check_cost(getattr(self, name), name))
        self.threshold = _check_threshold(self.threshold)
        self._recompute()  # also checks pos_label against y_true
        first = self.table.iloc[0]  # threshold +inf: every sample predicted negative
        self.n_positive, self.n_negative = int(first["fn"]), int(first["tn"])
        if self.n_positive == 0 or self.n_negative == 0:
            missing = "positive" if self.n_positive == 0 else "negative"
            raise ValueError(
                f"y_true must contain both classes; it has no {missing} sample "
                f"(pos_label={self.pos_label!r})"
            )

    def _recompute(self) -> None:
        """The sweep and its costs: once per cost change, never per threshold move."""
        self.table = costs_by_threshold(self.y_true, self.y_score, self.cost_matrix,
                                        pos_label=self.pos_label)
        costs = self.table["cost"].to_numpy()
        # The first minimum is the highest cheapest threshold, as in cost_optimal_threshold.
        best = int(np.argmin(costs))
        self._optimum = ThresholdCost(float(self.table["threshold"].iat[best]),
                                      float(costs[best]))
        # Finite thresholds, decreasing: the look-up table for confusion().
        self._descending = self.table["threshold"].to_numpy()[1:]

    def set(self, **values: Any) -> CostThresholdModel:
        """Change the threshold and/or some of the four costs (validated); return the model."""
        unknown = set(values) - set(COST_NAMES) - {"threshold"}
        if unknown:
            raise ValueError(
                f"unknown setting(s) {sorted(unknown)}; expected threshold or one of "
                f"{', '.join(COST_NAMES)}"
            )
        costs = {name: _check_cost(values[name], name) for name in COST_NAMES if name in values}
        threshold = _check_threshold(values["threshold"]) if "threshold" in values else None
        changed = any(getattr(self, name) != value for name, value in costs.items())
        for name, value in costs.items():
            setattr(self, name, value)
        if threshold is not None:
            self.threshold = threshold
        if changed:
            self._recompute()
        return self

    @property
    def cost_matrix(self) -> np.ndarray:
        """``[[cost_tn, cost_fp], [cost_fn, cost_tp]]``: rows true, columns predicted."""
        return np.array([[self.cost_tn, self.cost_fp], [self.cost_fn, self.cost_tp]])

    @property
    def n_samples(self) -> int:
        return self.n_positive + self.n_negative

    def confusion(self, threshold: float | None = None) -> np.ndarray:
        """``[[TN, FP], [FN, TP]]`` at ``threshold`` (default: the model's), as
        :func:`evalkit.confusion_matrix` lays out 0/1 labels."""
        t = self.threshold if threshold is None else _check_threshold(threshold)
        # Scores >= t are those >= the smallest distinct score that is >= t: row k of the
        # sweep, k = the number of distinct scores >= t (row 0 is +inf, nothing positive).
        k = int(np.searchsorted(-self._descending, -t, side="right"))
        row = self.table.iloc[k]
        return np.array([[row["tn"], row["fp"]], [row["fn"], row["tp"]]], dtype=np.int64)

    def total_cost(self) -> float:
        """The summed cost of every decision at the current threshold."""
        return total_cost(self.confusion(), self.cost_matrix)

    def expected_cost(self) -> float:
        """The average cost per sample at the current threshold."""
        return expected_cost(self.confusion(), self.cost_matrix)

    def accuracy(self) -> float:
        """The share of right decisions at the current threshold."""
        confusion = self.confusion()
        return float(np.trace(confusion) / self.n_samples)

    def optimum(self) -> ThresholdCost:
        """The cheapest threshold on these data and its total cost (the highest of ties)."""
        return self._optimum

    def theoretical_threshold_issue(self) -> str | None:
        """Why :math:`p^*` does not apply here, or None when it does."""
        if self.y_score.min() < 0 or self.y_score.max() > 1:
            return "the scores are not probabilities (some lie outside [0, 1])"
        if not (self.cost_fp > self.cost_tn and self.cost_fn > self.cost_tp):
            return ("an error must cost more than the right decision "
                    "(cost_fp > cost_tn and cost_fn > cost_tp)")
        return None

    def theoretical_threshold(self) -> float | None:
        """:math:`p^*`, the cost-optimal threshold for calibrated probabilities; None when
        it does not apply (see :meth:`theoretical_threshold_issue`)."""
        if self.theoretical_threshold_issue() is not None:
            return None
        false_positive_regret = self.cost_fp - self.cost_tn
        false_negative_regret = self.cost_fn - self.cost_tp
        return false_positive_regret / (false_positive_regret + false_negative_regret)
