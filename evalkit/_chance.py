r"""Chance-corrected measures of a confusion matrix, each written once over a stack (..., k, k).

The kernels of :func:`evalkit.matthews_corrcoef`, :func:`evalkit.balanced_accuracy`,
:func:`evalkit.informedness` and :func:`evalkit.markedness`. Each takes a (k, k) count matrix
(true classes as rows, predicted classes as columns) or a stack of them, and returns one
value per matrix; the public functions call them on the one matrix of their labels,
:func:`evalkit.bootstrap_ci` and :func:`evalkit.compare_classifiers` on a stack of resampled
matrices (:mod:`evalkit._confusion_stack`).

For class *i* taken as positive and the others as negative (one against the rest),
informedness is :math:`TPR_i + TNR_i - 1` and markedness :math:`PPV_i + NPV_i - 1` (Powers
2011); both are 0 for any prediction made without regard to the truth. Their averages over
classes reuse the weights of :mod:`evalkit._averaging`; ``"micro"`` and ``"macro_pr"`` are
refused (see :data:`REFUSED_AVERAGES`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._averaging import (
    choose_labels,
    counts_from_matrix,
    nan_average,
    safe_divide,
    weights_of,
)

__all__ = [
    "CHANCE_AVERAGES",
    "REFUSED_AVERAGES",
    "balanced_accuracy_of_stack",
    "chance_of_stack",
    "matthews_of_stack",
]

#: The ``average`` values informedness and markedness take.
CHANCE_AVERAGES = (None, "binary", "macro", "weighted", "dodrans", "entropy")

#: The ``average`` values of :func:`evalkit.precision` that informedness and markedness
#: refuse, and why (the text of the ValueError).
REFUSED_AVERAGES = {
    "micro": (
        "average='micro' has no meaning for {name}: pooling the one-against-the-rest counts "
        "of k classes makes TPR = PPV = accuracy and TNR = NPV = (k - 2 + accuracy) / (k - 1), "
        "so micro informedness and micro markedness are both (k * accuracy - 1) / (k - 1), "
        "accuracy rescaled, not corrected for chance (a constant prediction does not score 0); "
        "use average='macro' or 'weighted' (or matthews_corrcoef for one multi-class number)"
    ),
    "macro_pr": (
        "average='macro_pr' has no meaning for {name}: it is the F of macro precision and "
        "macro recall; {name} is linear in its two rates, so the mean of the rates is the "
        "mean of the per-class values: use average='macro'"
    ),
}

#: What each measure adds up, and why a class's value can be undefined.
_MEASURES = {
    "informedness": ("Informedness",
                     "no true samples (TPR undefined) or no negative samples (TNR undefined)"),
    "markedness": ("Markedness",
                   "no predicted samples (PPV undefined) or no predicted negatives "
                   "(NPV undefined)"),
}


def _scalar(value: Any) -> Any:
    """A float for one matrix, the array for a stack."""
    return float(value) if np.ndim(value) == 0 else value


def matthews_of_stack(classes: np.ndarray, stack: np.ndarray, n_samples: int, *,
                      zero_division: Any, resampled: bool = False) -> Any:
    r"""Matthews' correlation coefficient of every matrix of a stack (..., k, k): Gorodkin's
    :math:`R_K`, in scikit-learn's covariance form (for k = 2, Matthews' phi).

    .. math::

        R_K = \frac{c\,s - \sum_i p_i t_i}
                   {\sqrt{(s^2 - \sum_i p_i^2)(s^2 - \sum_i t_i^2)}}

    with :math:`c` the trace, :math:`s` the number of samples, :math:`t_i` and :math:`p_i`
    the true and predicted totals of class *i*. The counts are whole numbers held as float64,
    so every sum and product is exact (as in scikit-learn) and the values agree to the last
    bit. A zero denominator (every true or every predicted label the same) follows
    ``zero_division``.
    """
    counts = stack.astype(np.float64)
    true_totals, predicted_totals = counts.sum(axis=-1), counts.sum(axis=-2)
    correct = np.trace(counts, axis1=-2, axis2=-1)
    total = predicted_totals.sum(axis=-1)
    cov_true_pred = correct * total - np.einsum("...k,...k->...", true_totals, predicted_totals)
    cov_pred = total**2 - np.einsum("...k,...k->...", predicted_totals, predicted_totals)
    cov_true = total**2 - np.einsum("...k,...k->...", true_totals, true_totals)
    product = np.atleast_1d(cov_pred * cov_true)
    with np.errstate(invalid="ignore"):
        root = np.sqrt(product)
    value = safe_divide(np.atleast_1d(cov_true_pred), root, zero_division,
                        metric="Matthews correlation coefficient",
                        reason="y_true or y_pred holds one class only")
    return _scalar(value[0]) if stack.ndim == 2 else value


def balanced_accuracy_of_stack(classes: np.ndarray, stack: np.ndarray, n_samples: int, *,
                               adjusted: bool, zero_division: Any,
                               resampled: bool = False) -> Any:
    r"""Balanced accuracy of every matrix of a stack (..., k, k): the mean recall of the
    classes that have true samples in that matrix (Brodersen et al. 2010), as scikit-learn's
    ``balanced_accuracy_score``; ``adjusted`` rescales it so that chance scores 0:

    .. math::

        \mathrm{BA} = \frac{1}{K} \sum_{i : n_i > 0} \frac{C_{ii}}{n_i}, \qquad
        \mathrm{BA}_{adj} = \frac{\mathrm{BA} - 1/K}{1 - 1/K}

    with :math:`K` the number of classes with :math:`n_i > 0`. When :math:`K = 1` the
    adjusted value is undefined and follows ``zero_division`` (scikit-learn returns NaN or
    -inf there).
    """
    support = stack.sum(axis=-1)
    present = support > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.diagonal(stack, axis1=-2, axis2=-1) / np.where(present, support, 1)
    n_classes = present.sum(axis=-1)
    score = np.where(present, recall, 0.0).sum(axis=-1) / n_classes
    if adjusted:
        chance = 1 / n_classes
        score = safe_divide(np.atleast_1d(score - chance), np.atleast_1d(1 - chance),
                            zero_division, metric="Adjusted balanced accuracy",
                            reason="y_true holds one class only (chance is 1)")
    score = np.asarray(score, dtype=np.float64)
    return _scalar(score.reshape(-1)[0]) if stack.ndim == 2 else score.reshape(stack.shape[:-2])


def chance_of_stack(
    classes: np.ndarray,
    stack: np.ndarray,
    n_samples: int,
    *,
    want: str,
    average: str | None,
    choice: Any,
    zero_division: Any,
    resampled: bool = False,
) -> Any:
    r"""Informedness or markedness (``want``) of every (k, k) matrix of ``stack`` over the
    sorted ``classes``, each holding ``n_samples`` rows, per class or averaged.

    .. math::

        B_i = \frac{TP_i}{TP_i + FN_i} + \frac{TN_i}{TN_i + FP_i} - 1, \qquad
        M_i = \frac{TP_i}{TP_i + FP_i} + \frac{TN_i}{TN_i + FN_i} - 1

    A class whose two rates are not both defined takes the ``zero_division`` value (NaN:
    left out of averages, with a warning). ``average``: None (per class), ``"binary"`` (the
    positive class), ``"macro"`` (mean), ``"weighted"``, ``"dodrans"``, ``"entropy"``
    (weighted by :func:`evalkit._averaging.weights_of` of the supports). The options come
    checked; a ``resampled`` matrix may miss a class the data hold, which then takes no part
    in its average (as the metric called on the resampled rows would do).
    """
    chosen = choose_labels(classes, average, choice)
    drop_absent = resampled and choice.labels is None and average != "binary"
    counts = counts_from_matrix(classes, stack, chosen, n_samples, drop_absent=drop_absent)
    tp, fp, fn, tn = (np.asarray(x, dtype=np.float64)
                      for x in (counts.tp, counts.fp, counts.fn, counts.tn))
    if want == "informedness":
        pairs = ((tp, tp + fn), (tn, tn + fp))
    else:
        pairs = ((tp, tp + fp), (tn, tn + fn))
    defined = (pairs[0][1] > 0) & (pairs[1][1] > 0)
    if counts.present is not None:
        defined |= ~counts.present  # a class absent from a resample: no value, no warning
    with np.errstate(divide="ignore", invalid="ignore"):
        raw = sum(np.where(defined, numerator / denominator, 0.0)
                  for numerator, denominator in pairs) - 1.0
    metric, reason = _MEASURES[want]
    # Dividing by 1 where both rates are defined leaves the value exact; elsewhere the
    # zero_division policy (and its warning naming the classes) applies.
    scores = safe_divide(raw, defined.astype(np.float64), zero_division, metric=metric,
                         reason=reason, labels=counts.labels)
    present = counts.present
    if average is None:
        return scores if present is None else np.where(present, scores, np.nan)
    if average == "binary":
        return _scalar(scores[..., 0])
    weights = None if average == "macro" else weights_of(
        counts.support, average, n_samples=counts.n_samples, present=present)
    return nan_average(scores, weights, metric=metric, mask=present)
