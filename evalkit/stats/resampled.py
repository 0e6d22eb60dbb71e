r"""Per-class precision, recall, F1 and cP, cR, cF1 on many weighted resamples at once
(:func:`resampled_class_scores`).

A bootstrap resample draws item *i* :math:`w_i` times; a randomization test keeps or swaps
each item (:math:`w_i \in \{0, 1\}`). Every count behind the per-class metrics is then a
weighted sum over the items, so the counts of all resamples (rows of a weight matrix) and of
a whole stack of models are one matrix product, as in Yacouby & Axman's (2020) experiments
C and D (notebooks 25 and 26).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._probabilities import _check_probabilities
from .._results import make_result
from .._validation import keyword_only

__all__ = [
    "resampled_class_scores",
    "ResampledClassScores",
    "RESAMPLED_METRICS",
]

#: The per-class metrics of :func:`resampled_class_scores`, in the order of its result.
RESAMPLED_METRICS = ("precision", "c_precision", "recall", "c_recall", "f1", "c_f1")

ResampledClassScores = make_result(
    "ResampledClassScores", RESAMPLED_METRICS,
    ("tp", "predicted", "c_tp", "c_predicted", "support", "labels"),
    module=__name__,
    doc="Per-class precision, cPrecision, recall, cRecall, F1 and cF1 on every weighted "
        "resample (unpacks as those six arrays, each (R, K) or (R, M, K)); also the summed "
        "counts ``tp``, ``predicted``, ``c_tp``, ``c_predicted`` (same shape), ``support`` "
        "((R, 1, K) for a stack of models, else (R, K)) and the column ``labels``.",
)


def _check_weights(resample_weights: Any, n_items: int) -> np.ndarray:
    try:
        matrix = np.asarray(resample_weights, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"resample_weights must be numbers; got "
                         f"{resample_weights!r:.60}") from error
    if matrix.ndim not in (1, 2):
        raise ValueError("resample_weights must be 1-D (one resample) or 2-D (resamples x "
                         f"items); got "
                         f"{matrix.ndim} dimensions")
    if matrix.shape[-1] != n_items:
        raise ValueError(f"resample_weights has {matrix.shape[-1]} columns but y_true has "
                         f"{n_items} items; it needs one weight per item")
    if not np.isfinite(matrix).all() or (matrix < 0).any():
        raise ValueError("resample_weights must be finite and >= 0 (how often each item is drawn)")
    return matrix


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return numerator / denominator


@keyword_only
def resampled_class_scores(y_true: Any, y_proba: Any, resample_weights: Any, *,
                           labels: Any = None) -> Any:
    r"""Per-class precision, recall, F1, cPrecision, cRecall and cF1 on weighted resamples.

    Resample :math:`r` weights item :math:`i` by :math:`w_{ri} \ge 0` (a bootstrap draw
    count, or 0/1 to keep a subset). With :math:`t_{ik} = [y_i = k]`, the prediction
    :math:`h_{ik} = [\arg\max_j p_{ij} = k]` (ties: the first column) and the probability
    :math:`p_{ik}`, every count is a weighted sum, so all resamples are matrix products:

    .. math::

        \mathrm{TP}_{rk} = \sum_i w_{ri} t_{ik} h_{ik}, \quad
        \mathrm{Pred}_{rk} = \sum_i w_{ri} h_{ik}, \quad
        \mathrm{cTP}_{rk} = \sum_i w_{ri} t_{ik} p_{ik}, \quad
        \mathrm{cPred}_{rk} = \sum_i w_{ri} p_{ik}, \quad
        S_{rk} = \sum_i w_{ri} t_{ik},

        P = \frac{\mathrm{TP}}{\mathrm{Pred}}, \quad R = \frac{\mathrm{TP}}{S}, \quad
        F_1 = \frac{2\,\mathrm{TP}}{S + \mathrm{Pred}}, \qquad
        cP = \frac{\mathrm{cTP}}{\mathrm{cPred}}, \quad cR = \frac{\mathrm{cTP}}{S}, \quad
        cF_1 = \frac{2\,\mathrm{cTP}}{S + \mathrm{cPred}} .

    A row of whole-number weights gives the values of :func:`evalkit.f1_score`,
    :func:`evalkit.c_f1` (and the other four, ``average=None``) on the items repeated that
    many times; any row gives scikit-learn's ``precision_recall_fscore_support`` with that
    row as ``sample_weight``. A 0/0 (a class with no item and no prediction in a resample)
    is NaN, so ``np.nanmean`` over classes averages the classes present.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True classes.
    y_proba : array-like of shape (n, K), or (M, n, K) for a stack of M models
        Probabilities, rows summing to 1, columns in the order of ``labels``.
    resample_weights : array-like of shape (R, n), or (n,) for one resample
        How often each item counts in each resample, finite and >= 0.
    labels : array-like of shape (K,), optional
        The classes of the columns. Default: the sorted classes of ``y_true``, which must then
        number K (pass ``labels`` when a class is absent from ``y_true``).

    Returns
    -------
    ResampledClassScores
        ``precision``, ``c_precision``, ``recall``, ``c_recall``, ``f1``, ``c_f1`` (unpacks
        as those six): arrays of shape (R, K), (R, M, K) for a stack, without the R axis for
        1-D ``resample_weights``; NaN where the ratio is 0/0. Also the counts ``tp``, ``predicted``,
        ``c_tp``, ``c_predicted`` and ``support``, and ``labels``.

    References
    ----------
    Yacouby, R. and Axman, D. (2020). Probabilistic Extension of Precision, Recall, and F1
    Score for More Thorough Evaluation of Classification Models. Proceedings of the First
    Workshop on Evaluation and Comparison of NLP Systems (Eval4NLP), 79–91.
    Efron, B. (1979). Bootstrap methods: another look at the jackknife. Annals of Statistics
    7(1), 1–26.

    Examples
    --------
    >>> y_true = [0, 0, 1, 1]
    >>> y_proba = [[0.9, 0.1], [0.4, 0.6], [0.2, 0.8], [0.3, 0.7]]
    >>> result = resampled_class_scores(y_true, y_proba, [[1, 1, 1, 1], [2, 0, 1, 1]])
    >>> result.f1.round(3).tolist()
    [[0.667, 0.8], [1.0, 1.0]]
    >>> result.c_f1.round(3).tolist()
    [[0.684, 0.714], [0.837, 0.811]]
    """
    stack = np.asarray(y_proba, dtype=np.float64) if not isinstance(y_proba, np.ndarray) \
        else y_proba.astype(np.float64, copy=False)
    if stack.ndim not in (2, 3):
        raise ValueError(f"y_proba must be (n, K) or a stack (M, n, K); got {stack.ndim} "
                         "dimensions")
    one_model = stack.ndim == 2
    if one_model:
        stack = stack[None]
    n_models, n_items, n_classes = stack.shape
    y_array = np.asarray(y_true)
    if y_array.size == 0:
        raise ValueError("y_true is empty: resampled scores need at least one item")
    if y_array.ndim != 1 or len(y_array) != n_items:
        raise ValueError(f"y_true must be 1-D with one label per row of y_proba ({n_items}); "
                         f"got shape {y_array.shape}")
    # One check of every model's probabilities (rows of the stack), with y_true repeated.
    data = _check_probabilities(np.tile(y_array, n_models), stack.reshape(-1, n_classes),
                                labels, None)
    codes = data.codes[:n_items]
    matrix = _check_weights(resample_weights, n_items)
    one_resample = matrix.ndim == 1
    matrix = np.atleast_2d(matrix)

    # Per item: one-hot truth T, prediction H, T*H, T*P and P for every model, laid out as
    # (n, M * 4 * K) so one product sums every count of every resample and model.
    identity = np.eye(n_classes)
    truth = identity[codes]
    hard = identity[stack.argmax(axis=2)]
    per_item = np.stack([truth * hard, hard, truth * stack, stack], axis=2)  # M, n, 4, K
    per_item = per_item.transpose(1, 0, 2, 3).reshape(n_items, -1)
    counts = (matrix @ per_item).reshape(len(matrix), n_models, 4, n_classes)
    support = (matrix @ truth)[:, None, :]
    tp, predicted, c_tp, c_predicted = (counts[:, :, j] for j in range(4))
    scores = {
        "precision": _ratio(tp, predicted), "c_precision": _ratio(c_tp, c_predicted),
        "recall": _ratio(tp, support), "c_recall": _ratio(c_tp, support),
        "f1": _ratio(2 * tp, support + predicted), "c_f1": _ratio(2 * c_tp, support + c_predicted),
    }
    extra = {"tp": tp, "predicted": predicted, "c_tp": c_tp, "c_predicted": c_predicted,
             "support": support}

    def shaped(array: np.ndarray) -> np.ndarray:
        if one_model:
            array = array[:, 0]
        return array[0] if one_resample else array

    return ResampledClassScores(**{name: shaped(value) for name, value in scores.items()},
                                **{name: shaped(value) for name, value in extra.items()},
                                labels=data.classes)
