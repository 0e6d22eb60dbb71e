r"""Cost-sensitive evaluation: what the errors of a classifier cost, and the cheapest threshold.

Accuracy counts every error as one. In most applications errors differ: missing a disease
costs more than a needless test. A cost matrix :math:`C` says how much: ``cost_matrix[i, j]``
is the cost of predicting class *j* when the truth is class *i* (rows true, columns predicted,
the layout of :func:`evalkit.confusion_matrix`). Correct decisions may cost nothing, or have a
negative cost (a benefit).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._results import make_result
from ._validation import (
    check_1d,
    check_consistent_length,
    check_finite_scores,
    check_scalar,
    check_square_matrix,
    keyword_only,
)
from .curves import confusion_at_thresholds

__all__ = [
    "total_cost",
    "expected_cost",
    "cost_optimal_threshold",
    "probability_threshold",
    "costs_by_threshold",
    "ThresholdCost",
    "normalized_expected_cost",
]


ThresholdCost = make_result(
    "ThresholdCost", ("threshold", "cost"), module=__name__,
    doc="A decision threshold and the total cost of deciding with it; unpacks like "
        "``(threshold, cost)``.",
)


def _check_pair(confusion: Any, cost_matrix: Any) -> tuple[np.ndarray, np.ndarray]:
    confusion = check_square_matrix(confusion, "confusion", counts=True)
    cost_matrix = check_square_matrix(cost_matrix, "cost_matrix")
    if confusion.shape != cost_matrix.shape:
        raise ValueError(
            f"confusion and cost_matrix must have the same shape; got {confusion.shape} and "
            f"{cost_matrix.shape}"
        )
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


@keyword_only
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


@keyword_only
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


@keyword_only
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


def probability_threshold(cost_matrix: Any) -> float:
    r"""The cost-optimal threshold on a calibrated probability of the positive class.

    Predicting positive costs :math:`(1 - p)\,C_{01} + p\,C_{11}` in expectation and
    predicting negative :math:`(1 - p)\,C_{00} + p\,C_{10}`, where :math:`p` is the
    probability that the item is positive. Positive is cheaper exactly when :math:`p \ge p^*`:

    .. math::

        p^* = \frac{C_{01} - C_{00}}{(C_{01} - C_{00}) + (C_{10} - C_{11})}

    (Elkan 2001, eq. 2). Only the *regrets* :math:`C_{01} - C_{00}` (a false positive over a
    true negative) and :math:`C_{10} - C_{11}` (a false negative over a true positive)
    matter, so adding a constant to a row of the cost matrix leaves :math:`p^*` unchanged.
    The threshold is optimal only when the probabilities are calibrated; on other scores use
    :func:`cost_optimal_threshold`, which searches the data.

    Parameters
    ----------
    cost_matrix : array-like of shape (2, 2)
        Costs in the order (negative class, positive class): ``[[C_TN, C_FP], [C_FN, C_TP]]``.
        Each error must cost more than the right decision (:math:`C_{01} > C_{00}` and
        :math:`C_{10} > C_{11}`); otherwise one decision is always best and no threshold
        exists.

    Returns
    -------
    float
        :math:`p^*`, in (0, 1): predict positive when P(positive) >= :math:`p^*`.

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. IJCAI 2001, 973–978
    (section 2, eq. 2).

    Examples
    --------
    A missed positive costs 20, a false alarm 1: act from a probability of 1/21.

    >>> round(probability_threshold([[0, 1], [20, 0]]), 4)
    0.0476
    >>> probability_threshold([[0, 1], [1, 0]])   # equal costs: the familiar 0.5
    0.5
    """
    cost_matrix = _check_binary_costs(cost_matrix)
    false_positive_regret = cost_matrix[0, 1] - cost_matrix[0, 0]
    false_negative_regret = cost_matrix[1, 0] - cost_matrix[1, 1]
    if not (false_positive_regret > 0 and false_negative_regret > 0):
        raise ValueError(
            "cost_matrix must make each error cost more than the right decision "
            "(C_FP > C_TN and C_FN > C_TP); otherwise one decision is always cheapest and "
            f"there is no threshold; got {cost_matrix.tolist()}"
        )
    return float(false_positive_regret / (false_positive_regret + false_negative_regret))


def _rates(values: Any, name: str, *, what: str = "rates") -> np.ndarray:
    rates = check_finite_scores(values, name)  # NaN and infinity are named with their position
    outside = (rates < 0) | (rates > 1)
    if outside.any():
        position = int(np.flatnonzero(outside)[0])
        raise ValueError(f"{name} must hold {what} between 0 and 1; {name}[{position}] is "
                         f"{float(rates[position])!r}")
    return rates


def normalized_expected_cost(fpr: Any, tpr: Any, probability_cost: Any) -> np.ndarray:
    r"""Drummond & Holte's normalised expected cost of operating points under given conditions.

    A condition (class prior :math:`\pi` of the positives and the costs) is folded into one
    number between 0 and 1, the *probability cost* of the positive class,

    .. math::

        PC(+) = \frac{\pi\,(C_{FN} - C_{TP})}{\pi\,(C_{FN} - C_{TP}) + (1 - \pi)\,(C_{FP} -
        C_{TN})},

    and an operating point (one threshold, with its FPR and TPR) costs, normalised to [0, 1],

    .. math::

        NEC(PC) = (1 - TPR)\,PC + FPR\,(1 - PC),

    a straight line in :math:`PC` from :math:`FPR` (at 0) to :math:`1 - TPR` (at 1). The
    lower envelope of every operating point's line, ``.min(axis=0)`` of the result, is the
    classifier's cost curve: the cost of its best threshold under each condition. The trivial
    classifiers are "always negative" (:math:`NEC = PC`) and "always positive"
    (:math:`NEC = 1 - PC`). Multiply NEC by :math:`\pi\,(C_{FN} - C_{TP}) + (1 - \pi)\,
    (C_{FP} - C_{TN})` and add :math:`\pi\,C_{TP} + (1 - \pi)\,C_{TN}` to get the
    expected cost per case.

    Parameters
    ----------
    fpr, tpr : array-like of shape (n_points,)
        Operating points, e.g. from :func:`evalkit.roc_curve`: rates between 0 and 1.
    probability_cost : float or array-like of shape (n_conditions,)
        Conditions :math:`PC(+)`, each between 0 and 1.

    Returns
    -------
    ndarray of shape (n_points, n_conditions), or (n_points,) for a single condition
        ``result[i, j]``: the normalised expected cost of operating point *i* under
        condition *j*.

    References
    ----------
    Drummond, C. and Holte, R. C. (2006). Cost curves: an improved method for visualizing
    classifier performance. Machine Learning 65(1), 95–130.

    Examples
    --------
    >>> fpr, tpr = [0.0, 0.1, 1.0], [0.0, 0.7, 1.0]  # always negative, a threshold, always positive
    >>> normalized_expected_cost(fpr, tpr, 0.5)  # 0.3 * 0.5 + 0.1 * 0.5 = 0.2 in the middle
    array([0.5, 0.2, 0.5])
    >>> curve = normalized_expected_cost(fpr, tpr, [0.0, 0.2, 1.0])
    >>> curve.round(2)
    array([[0.  , 0.2 , 1.  ],
           [0.1 , 0.14, 0.3 ],
           [1.  , 0.8 , 0.  ]])
    >>> curve.min(axis=0).round(2)  # the cost curve: the best threshold under each condition
    array([0.  , 0.14, 0.  ])
    """
    fpr, tpr = _rates(fpr, "fpr"), _rates(tpr, "tpr")
    check_consistent_length(fpr=fpr, tpr=tpr)
    if np.ndim(probability_cost) == 0:  # one condition: a number, checked as every option is
        conditions = np.float64(check_scalar(probability_cost, "probability_cost", low=0, high=1))
    else:
        conditions = _rates(probability_cost, "probability_cost", what="probabilities")
    # One row per operating point, one column per condition: every line at once.
    return ((1.0 - tpr)[:, None] * conditions.reshape(1, -1)
            + fpr[:, None] * (1.0 - conditions.reshape(1, -1))).reshape(
                (len(fpr),) + conditions.shape)
