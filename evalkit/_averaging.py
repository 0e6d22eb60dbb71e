r"""Per-class counts → per-class ratios → every averaging scheme, written once.

Precision, recall, F and specificity of several classes are all computed in three steps:

1. **Counts.** A (k, k) matrix ``M`` with true classes as rows and predicted classes as
   columns gives, for each class *i*, :math:`TP_i = M_{ii}`, the predicted total
   :math:`\sum_r M_{ri}` and the support :math:`n_i = \sum_h M_{ih}`. The matrix may hold
   whole counts (:func:`evalkit.confusion_matrix`) or sums of probabilities (the probabilistic
   confusion matrix of Yacouby & Axman 2020): the steps below do not care.
2. **Ratios.** Each class's precision, recall, F-beta or specificity, with the
   ``zero_division`` policy where a denominator is 0.
3. **Averages.** ``"binary"`` (the positive class), ``"micro"`` (pool the counts, then
   divide), ``"macro"`` (unweighted mean), ``"weighted"``, ``"dodrans"`` and ``"entropy"``
   (means weighted by :func:`evalkit.class_weights`, Harbecke et al. 2022), ``"macro_pr"`` (for F:
   the F of macro precision and macro recall, Opitz & Burst 2019), and ``exclude`` (classes
   left out of the average).

The division itself (:func:`safe_divide`, with the ``zero_division`` policy and its warning)
and the mean that leaves undefined ratios out (:func:`nan_average`) live here too, beside the
steps that use them; :mod:`evalkit._kappa` and :mod:`evalkit.ranking` divide with them as well.

:mod:`evalkit.classification` and :mod:`evalkit.probabilistic` both call these functions,
so every averaging scheme has one definition. The counts may also carry a leading batch axis
(a stack of confusion matrices, shape ``(..., k, k)``): every step then works along the last
axis and returns one value per matrix. :func:`evalkit.bootstrap_ci` evaluates a metric on a
thousand resampled confusion matrices that way, in one pass.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .exceptions import UndefinedMetricWarning

__all__ = [
    "AVERAGES",
    "WEIGHT_SCHEMES",
    "ClassCounts",
    "average_scores",
    "weights_of",
    "counts_from_matrix",
    "locate",
    "matrix_over",
    "nan_average",
    "safe_divide",
    "accuracy_of_correct",
    "accuracy_of_stack",
    "choose_labels",
    "error_rate_of_correct",
    "error_rate_of_stack",
    "ratio_of_stack",
]

#: The values ``average`` accepts, in the order the documentation lists them.
AVERAGES = (None, "binary", "micro", "macro", "weighted", "dodrans", "entropy", "macro_pr")

#: The weighting schemes of Harbecke et al. (2022) that :func:`evalkit.class_weights` knows.
WEIGHT_SCHEMES = ("micro", "macro", "weighted", "dodrans", "entropy")

#: The per-class ratios :func:`average_scores` computes, with the name its warnings use.
RATIOS = {"precision": "Precision", "recall": "Recall", "f": "F-score",
          "specificity": "Specificity"}


def weights_of(
    support: np.ndarray, scheme: str, *, n_samples: float | None = None,
    present: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`evalkit.class_weights` without the checks, along the last axis of ``support``.

    ``support`` is (k,) or a stack (..., k); ``present`` (same shape) marks the classes that
    take part (the others weigh 0).
    """
    support = support.astype(np.float64)
    if scheme == "macro":
        raw = np.ones_like(support)
    elif scheme in ("weighted", "micro"):
        raw = support
    elif scheme == "dodrans":
        raw = support**0.75
    else:
        total = (support.sum(axis=-1, keepdims=True) if n_samples is None
                 else np.float64(n_samples))
        with np.errstate(divide="ignore", invalid="ignore"):
            share = support / total
            raw = np.where((support > 0) & (total > 0), -support * np.log2(share), 0.0)
    if present is not None:
        raw = np.where(present, raw, 0.0)
    total_weight = raw.sum(axis=-1, keepdims=True)
    # No class has support (or, for entropy, one class holds every sample): fall back to
    # equal weights, as scikit-learn does for "weighted".
    taking_part = np.ones_like(support) if present is None else present.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total_weight == 0,
                        taking_part / taking_part.sum(axis=-1, keepdims=True),
                        raw / total_weight)


# --------------------------------------------------------------------------------------------
# Step 1: which classes, and their counts
# --------------------------------------------------------------------------------------------


def locate(classes: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each wanted label in the sorted ``classes``, and whether it is there at all."""
    index = np.minimum(np.searchsorted(classes, wanted), len(classes) - 1)
    return index, classes[index] == wanted


def matrix_over(classes: np.ndarray, matrix: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The rows and columns of the ``wanted`` labels, in their order, of a (k, k) matrix over
    the sorted ``classes`` (or of each matrix of a stack (..., k, k)); a wanted label absent
    from ``classes`` gets a row and a column of zeros."""
    index, found = locate(classes, wanted)
    return np.where(found[:, None] & found[None, :],
                    matrix[..., index[:, None], index[None, :]], 0)


def choose_labels(classes: np.ndarray, average: str | None, choice: Any) -> np.ndarray | None:
    """The labels a metric reports or averages over (None: every class), from the sorted
    ``classes`` of the data and the ``choice`` :func:`evalkit._validation.check_label_choice`
    checked (its ``labels``, ``exclude``, ``positive`` and the ``pos_label`` as given).

    What only the data can tell is decided here: ``average="binary"`` needs at most two
    classes, one of which is ``pos_label``; ``exclude`` must leave a class.
    """
    if average == "binary":
        if len(classes) > 2:
            raise ValueError(
                f"average='binary' needs at most two classes, but the labels hold {len(classes)} "
                f"({classes.tolist()[:10]}{' ...' if len(classes) > 10 else ''}); choose another "
                "average: None, 'micro', 'macro', 'weighted', 'dodrans', 'entropy' or 'macro_pr'"
            )
        if choice.pos_label_error is not None:
            raise ValueError(choice.pos_label_error)
        positive = choice.positive
        kinds_differ = (positive.dtype.kind == "U") != (classes.dtype.kind == "U")
        if kinds_differ or (positive[0] not in classes and len(classes) >= 2):
            raise ValueError(
                f"pos_label={choice.pos_label!r} is not one of the labels; it should be one of "
                f"{classes.tolist()}"
            )
        return positive
    chosen = choice.labels
    if choice.exclude is not None:
        base = classes if chosen is None else chosen
        chosen = base[~np.isin(base, choice.exclude)]
        if len(chosen) == 0:
            raise ValueError("exclude leaves no class to evaluate")
    return chosen


@dataclass(frozen=True)
class ClassCounts:
    """Per-class counts of the selected labels, computed over all samples.

    ``tp``, ``predicted`` (TP + FP) and ``support`` (TP + FN) may be whole counts or sums of
    probabilities; FP, FN and TN follow from them and ``n_samples``. They have shape (k,) for
    one data set, or (..., k) for a stack of data sets (e.g. bootstrap resamples).

    ``present`` (shape like ``tp``, or None: every class) marks the classes that take part
    in each data set's average. A metric called on a resample without ``labels`` averages
    over the classes that resample holds; a stack of resamples marks those classes here.
    """

    labels: np.ndarray
    tp: np.ndarray
    predicted: np.ndarray
    support: np.ndarray
    n_samples: int
    present: np.ndarray | None = None

    @property
    def fp(self) -> np.ndarray:
        return self.predicted - self.tp

    @property
    def fn(self) -> np.ndarray:
        return self.support - self.tp

    @property
    def tn(self) -> np.ndarray:
        return self.n_samples - self.tp - self.fp - self.fn

    def subset(self, keep: np.ndarray) -> ClassCounts:
        """The counts of the classes where ``keep`` is true."""
        present = None if self.present is None else self.present[..., keep]
        return ClassCounts(self.labels[keep], self.tp[..., keep], self.predicted[..., keep],
                           self.support[..., keep], self.n_samples, present)


def counts_from_matrix(
    classes: np.ndarray,
    matrix: np.ndarray,
    selected: np.ndarray | None,
    n_samples: int,
    *,
    drop_absent: bool = False,
) -> ClassCounts:
    """Per-class counts of ``selected`` (None: every class) from a (k, k) matrix over the
    sorted ``classes``; a selected label absent from ``classes`` has zero counts.

    ``matrix`` may be a stack (..., k, k). With ``drop_absent``, a class that is neither a
    true nor a predicted label of a matrix takes no part in that matrix's average (what a
    metric called without ``labels`` on those data would do).
    """
    tp = np.diagonal(matrix, axis1=-2, axis2=-1)
    predicted = matrix.sum(axis=-2)
    support = matrix.sum(axis=-1)
    present = (support > 0) | (predicted > 0) if drop_absent else None
    if selected is None:
        selected = classes
    else:
        index, found = locate(classes, selected)
        tp, predicted, support = (np.where(found, x[..., index], 0)
                                  for x in (tp, predicted, support))
        if present is not None:
            present = found & present[..., index]
    return ClassCounts(selected, tp, predicted, support, n_samples, present)


# --------------------------------------------------------------------------------------------
# Steps 2 and 3: ratios, then averages
# --------------------------------------------------------------------------------------------


def _describe_labels(values: Any) -> str:
    return ", ".join(repr(v) for v in values)


def zero_division_value(zero_division: Any) -> float:
    """The number that stands in for an undefined ratio under a policy."""
    return 0.0 if zero_division == "warn" else float(zero_division)


def safe_divide(
    numerator: np.ndarray,
    denominator: np.ndarray,
    zero_division: Any,
    *,
    metric: str,
    reason: str,
    labels: np.ndarray | None = None,
) -> np.ndarray:
    """Divide element-wise; where the denominator is 0 use the ``zero_division`` value.

    Under ``"warn"`` the result is 0.0 there and an :class:`UndefinedMetricWarning` says which
    labels were affected and why (``reason``, e.g. "no predicted samples").
    """
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    undefined = denominator == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        result = numerator / np.where(undefined, 1.0, denominator)
    if undefined.any():
        result = np.where(undefined, zero_division_value(zero_division), result)
        if zero_division == "warn":
            where = ""
            if labels is not None and np.ndim(undefined) > 0:
                # A stack of data sets (..., k): name each label undefined in any of them.
                hit = undefined.reshape(-1, undefined.shape[-1]).any(axis=0)
                where = f" for label(s) {_describe_labels(np.asarray(labels)[hit].tolist())}"
            warnings.warn(
                f"{metric} is ill-defined and set to 0.0{where}: {reason}. "
                "Use the zero_division argument to choose another value.",
                UndefinedMetricWarning,
                stacklevel=3,
            )
    return result


def nan_average(
    values: np.ndarray,
    weights: np.ndarray | None = None,
    *,
    metric: str,
    mask: np.ndarray | None = None,
) -> Any:
    """Weighted mean along the last axis that skips NaN entries, warning when it does.

    NaN entries come from ``zero_division=np.nan``; like scikit-learn, they are left out of
    the average. If every entry is NaN the result is NaN; if every remaining weight is 0 the
    remaining entries are averaged without weights.

    ``values`` is (k,) for one data set (the result is a float) or (..., k) for a stack of
    them (the result is an array of shape ``...``); ``mask``, if given, marks the entries
    that take part (the others are left out silently, NaN or not).
    """
    values = np.asarray(values, dtype=np.float64)
    keep = ~np.isnan(values)
    if mask is not None:
        n_nan = int((~keep & mask).sum())
        keep &= mask
    else:
        n_nan = int((~keep).sum())
    if n_nan:
        warnings.warn(
            f"{metric}: {n_nan} undefined (NaN) per-class value(s) were left out "
            "of the average.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    if values.ndim == 1 and mask is None:
        if not keep.any():
            return float("nan")
        if weights is None:
            return float(values[keep].mean())
        weights = np.asarray(weights, dtype=np.float64)[keep]
        total = weights.sum()
        if total == 0:
            # Every class with a defined score has zero weight: fall back to the plain
            # mean, as scikit-learn's _nanaverage does.
            return float(values[keep].mean())
        return float(np.dot(values[keep], weights) / total)
    # A stack (or a masked set): the same rule, row by row, without a loop over rows.
    count = keep.sum(axis=-1)
    kept = np.where(keep, values, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        plain = kept.sum(axis=-1) / count
        if weights is None:
            result = plain
        else:
            kept_weights = np.where(keep, np.asarray(weights, dtype=np.float64), 0.0)
            total = kept_weights.sum(axis=-1)
            result = np.where(total == 0, plain,
                              np.einsum("...k,...k->...", kept, kept_weights) / total)
    result = np.where(count == 0, np.nan, result)
    return float(result) if result.ndim == 0 else result




def _ratio(
    want: str, tp: np.ndarray, predicted: np.ndarray, support: np.ndarray, tn: np.ndarray,
    beta: float, zero_division: Any, labels: np.ndarray | None, names: dict[str, str],
) -> np.ndarray:
    """Precision, recall, F-beta or specificity (``want``) of each class from its counts."""
    if want == "specificity":
        return safe_divide(tn, tn + predicted - tp, zero_division, metric=names[want],
                           reason="no negative samples", labels=labels)
    if want == "precision" or (want == "f" and beta == 0):
        return safe_divide(tp, predicted, zero_division, metric=names["precision"],
                           reason="no predicted samples", labels=labels)
    if want == "recall" or (want == "f" and np.isposinf(beta)):
        return safe_divide(tp, support, zero_division, metric=names["recall"],
                           reason="no true samples", labels=labels)
    # The count form (1 + b^2) TP / (b^2 (TP + FN) + TP + FP): defined whenever P or R is.
    beta2 = beta * beta
    return safe_divide((1 + beta2) * tp, beta2 * support + predicted, zero_division,
                       metric=names["f"], reason="no true nor predicted samples", labels=labels)


def _scalar(value: Any) -> Any:
    """A float for one data set, the array for a stack."""
    return float(value) if np.ndim(value) == 0 else value


def average_scores(
    counts: ClassCounts,
    average: str | None,
    *,
    want: str,
    beta: float = 1.0,
    zero_division: Any,
    names: dict[str, str] | None = None,
    memo: dict[Any, np.ndarray] | None = None,
) -> Any:
    """Precision, recall, F or specificity (``want``) per class, or averaged as ``average`` says.

    ``names`` renames the metrics in warnings (e.g. "cPrecision" for the probabilistic ones).
    ``memo``, a dict shared by calls on the same ``counts``, ``beta``, ``zero_division`` and
    ``names``, keeps the per-class ratios and class weights one call makes for the next (a
    table of several averages computes each once; a ratio's warnings come from the call that
    made it).
    Returns an ndarray (``average=None``) or a float; for a stack of counts (..., k), an
    array of shape (..., k) or (...) (per class, NaN where a class is not ``present``).
    """
    if memo is None:
        memo = {}
    names = {**RATIOS, **(names or {})}
    tp, predicted, support, labels = counts.tp, counts.predicted, counts.support, counts.labels
    present = counts.present
    tn = counts.tn if want == "specificity" else tp  # tn is read only for specificity
    # The counts the ratios see: a class that takes no part gets a defined, unused ratio
    # (no warning about a class that is not there).
    r_tp, r_predicted, r_support = tp, predicted, support
    if present is not None:
        r_predicted = np.where(present, predicted, 1)
        r_support = np.where(present, support, 1)
    if average == "micro":
        if present is None:
            pooled = [x.sum(axis=-1, keepdims=True) for x in (tp, predicted, support, tn)]
        else:
            pooled = [np.where(present, x, 0).sum(axis=-1, keepdims=True)
                      for x in (tp, predicted, support, tn)]
        return _scalar(_ratio(want, *pooled, beta, zero_division, None, names)[..., 0])
    def ratio(kind: str) -> np.ndarray:
        if kind not in memo:
            memo[kind] = _ratio(kind, r_tp, r_predicted, r_support, tn, beta, zero_division,
                                labels, names)
        return memo[kind]

    if average == "macro_pr" and want == "f":
        # Opitz & Burst's macro-F: the F of macro-precision and macro-recall.
        mean_p, mean_r = (nan_average(ratio(kind), metric=names[kind], mask=present)
                          for kind in ("precision", "recall"))
        if beta == 0 or np.isposinf(beta):
            return mean_p if beta == 0 else mean_r
        if np.ndim(mean_p) == 0 and (np.isnan(mean_p) or np.isnan(mean_r)):
            return float("nan")
        beta2 = beta * beta
        # In a stack, a row whose mean is NaN stays NaN (NaN is not a zero denominator).
        f = safe_divide(np.atleast_1d((1 + beta2) * mean_p * mean_r),
                        np.atleast_1d(beta2 * mean_p + mean_r), zero_division,
                        metric=names["f"], reason="macro precision and recall are 0")
        return float(f[0]) if np.ndim(mean_p) == 0 else f
    scores = ratio(want)
    if average is None:
        return scores if present is None else np.where(present, scores, np.nan)
    if average == "binary":
        return _scalar(scores[..., 0])
    if average in ("macro", "macro_pr"):
        return nan_average(scores, metric=names[want], mask=present)
    if ("weights", average) not in memo:
        memo["weights", average] = weights_of(support, average, n_samples=counts.n_samples,
                                              present=present)
    return nan_average(scores, memo["weights", average], metric=names[want], mask=present)


# --------------------------------------------------------------------------------------------
# The kernels: each metric's formula over a stack of confusion matrices (..., k, k)
# --------------------------------------------------------------------------------------------


def ratio_of_stack(
    classes: np.ndarray,
    stack: np.ndarray,
    n_samples: int,
    *,
    want: str,
    average: str | None,
    choice: Any,
    beta: float = 1.0,
    zero_division: Any,
    resampled: bool = False,
) -> Any:
    """Precision, recall, F-beta or specificity (``want``) of every (k, k) matrix of ``stack``
    over the sorted ``classes``, each holding ``n_samples`` rows, averaged as ``average`` says.

    The one home of these metrics: :func:`evalkit.precision` and its kin call it on the one
    matrix of their labels, :func:`evalkit.bootstrap_ci` and
    :func:`evalkit.compare_classifiers` on a stack of resampled matrices. The options come
    checked (:func:`evalkit._validation.check_label_choice` made ``choice``). A
    ``resampled`` matrix may miss a class the data hold: without ``labels``, its average
    leaves that class out, as the metric called on the resampled rows would.
    """
    chosen = choose_labels(classes, average, choice)
    drop_absent = resampled and choice.labels is None and average != "binary"
    counts = counts_from_matrix(classes, stack, chosen, n_samples, drop_absent=drop_absent)
    return average_scores(counts, average, want=want, beta=beta, zero_division=zero_division)


def accuracy_of_correct(correct: Any, n_samples: int) -> Any:
    """Accuracy from the number of correct rows (the trace of the confusion matrix)."""
    return correct / n_samples


def error_rate_of_correct(correct: Any, n_samples: int) -> Any:
    """Error rate from the number of correct rows: errors / n, not ``1 - accuracy`` (which
    can print 0.09999999999999998)."""
    return (n_samples - correct) / n_samples


def accuracy_of_stack(classes: np.ndarray, stack: np.ndarray, n_samples: int, *,
                      resampled: bool = False) -> np.ndarray:
    """Accuracy of every matrix of a stack (..., k, k): :func:`accuracy_of_correct` of its
    trace."""
    return accuracy_of_correct(np.trace(stack, axis1=-2, axis2=-1), n_samples)


def error_rate_of_stack(classes: np.ndarray, stack: np.ndarray, n_samples: int, *,
                        resampled: bool = False) -> np.ndarray:
    """Error rate of every matrix of a stack (..., k, k): :func:`error_rate_of_correct` of
    its trace."""
    return error_rate_of_correct(np.trace(stack, axis1=-2, axis2=-1), n_samples)
