r"""Set-based evaluation: confusion matrices, accuracy, precision, recall and the F measure.

Every metric here depends only on the confusion matrix, so each public function follows one
path: validate the labels, count them into per-class true positives, false positives, false
negatives and true negatives with a single ``np.bincount``, then divide and average. There is
no Python loop over samples.

The same functions serve set retrieval (relevant/not relevant, retrieved/not retrieved) and
classification (any number of classes); the signatures follow scikit-learn's so that each
works with ``sklearn.metrics.make_scorer``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ._validation import (
    check_1d,
    check_consistent_length,
    check_labels,
    check_option,
    check_same_label_kind,
    check_zero_division,
    nan_average,
    safe_divide,
)

__all__ = [
    "confusion_matrix",
    "accuracy",
    "error_rate",
    "precision",
    "recall",
    "f_score",
    "f1_score",
    "sensitivity",
    "specificity",
    "class_weights",
    "classification_report",
    "AVERAGES",
]

#: The values ``average`` accepts, in the order the documentation lists them.
AVERAGES = (None, "binary", "micro", "macro", "weighted", "dodrans", "entropy", "macro_pr")

#: The weighting schemes of Harbecke et al. (2022) that :func:`class_weights` knows.
WEIGHT_SCHEMES = ("micro", "macro", "weighted", "dodrans", "entropy")

# Integer labels spanning at most this many values are counted with a lookup table instead of
# a sort (np.unique); the table costs 8 bytes per value in the range.
_MAX_DENSE_RANGE = 1 << 22


# --------------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------------


def _encode(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Map both label arrays to codes 0..k-1 over the union of their labels.

    The classes come sorted, except for string labels, which come in order of first
    appearance (sorting k classes later is cheaper than renumbering n codes).
    """
    if y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu":
        low = min(int(y_true.min()), int(y_pred.min()))
        high = max(int(y_true.max()), int(y_pred.max()))
        span = high - low + 1
        if span <= _MAX_DENSE_RANGE:
            # Shift in int64: in a small dtype (int16, ...) the subtraction could overflow.
            shifted_true = y_true.astype(np.int64, copy=False) - low
            shifted_pred = y_pred.astype(np.int64, copy=False) - low
            present = (np.bincount(shifted_true, minlength=span) > 0) | (
                np.bincount(shifted_pred, minlength=span) > 0
            )
            classes = np.flatnonzero(present) + low
            if len(classes) == span:  # labels are contiguous: the shift is the code
                return classes, shifted_true, shifted_pred
            lookup = np.cumsum(present) - 1
            return classes, lookup[shifted_true], lookup[shifted_pred]
    if y_true.dtype.kind == "U" and y_pred.dtype.kind == "U":
        factorized = _factorize_strings(y_true, y_pred, sort=False)
        if factorized is not None:
            classes, (true_codes, pred_codes) = factorized
            return classes, true_codes, pred_codes
    both = np.concatenate([y_true, y_pred])
    classes, codes = np.unique(both, return_inverse=True)
    codes = codes.reshape(-1)
    return classes, codes[: len(y_true)], codes[len(y_true) :]


_BUCKETS = 1 << 20
_CHUNK = 1 << 15  # rows hashed or checked at a time: keeps each pass in the CPU cache
_MIX = np.uint64(0x9E3779B97F4A7C15)
# One odd 64-bit multiplier per 8-byte word of a label (labels of up to 64 characters).
_MULTIPLIERS = np.random.default_rng(0x5EED).integers(1, 2**63, 32, dtype=np.uint64)
_MULTIPLIERS |= np.uint64(1)


def _words(values: np.ndarray, itemsize: int) -> np.ndarray:
    """The raw code points of fixed-width strings, as one row of machine words per string."""
    word = np.dtype(np.uint64 if itemsize % 8 == 0 else np.uint32)
    return np.ascontiguousarray(values).view(word).reshape(len(values), itemsize // word.itemsize)


def _hash_block(block: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The hash bucket of each row of code-point words, written to ``out`` (uint64)."""
    multipliers = _MULTIPLIERS[: block.shape[1]]
    with np.errstate(over="ignore"):
        np.multiply(block[:, 0], multipliers[0], out=out, casting="unsafe")
        for column in range(1, block.shape[1]):  # a loop over character positions
            out += block[:, column] * multipliers[column]
        # The sum is linear in the code points: mix so that the low bits (the bucket) depend
        # on every bit.
        out ^= out >> np.uint64(31)
        out *= _MIX
        out ^= out >> np.uint64(29)
        out &= np.uint64(_BUCKETS - 1)
    return out.astype(np.intp)


def _factorize_strings(
    *arrays: np.ndarray, sort: bool = True
) -> tuple[np.ndarray, tuple[np.ndarray, ...]] | None:
    """Sorted distinct strings of the arrays together, and each array's codes, by hashing.

    Sorting millions of strings (np.unique) is slow. Here each fixed-width string is hashed
    from its raw code points and its hash bucket gets a slot the first time it is seen, with
    that string as the slot's representative. Every string is then compared, word by word,
    with its slot's representative: if two distinct strings share a bucket the check fails
    and None sends the caller back to np.unique, so the result is always exact. The data are
    processed in chunks that fit the CPU cache (a loop over chunks, not samples).

    With ``sort=False`` the classes come in order of first appearance (saving a pass over
    the codes when only counts are needed).
    """
    itemsize = max(a.dtype.itemsize for a in arrays)
    if itemsize > 256 or itemsize == 0:  # labels over 64 characters: hashing costs more
        return None
    dtype = np.dtype(f"<U{itemsize // 4}")
    words = [_words(a.astype(dtype) if a.dtype != dtype else a, itemsize) for a in arrays]
    n_words, word = words[0].shape[1], words[0].dtype
    slot_of_bucket = np.zeros(_BUCKETS, dtype=np.intp)  # slot + 1; 0 = bucket not seen yet
    representatives = np.empty((64, n_words), dtype=word)
    n_slots = 0
    hashed = np.empty(_CHUNK, dtype=np.uint64)
    slots_per_array = []
    for rows in words:
        slots = np.empty(len(rows), dtype=np.intp)
        for start in range(0, len(rows), _CHUNK):
            block = rows[start : start + _CHUNK]
            bucket = _hash_block(block, hashed[: len(block)])
            slot = slot_of_bucket[bucket]
            new = slot == 0
            if new.any():
                fresh, first = np.unique(bucket[new], return_index=True)
                if n_slots + len(fresh) > len(representatives):
                    grown = np.empty((2 * (n_slots + len(fresh)), n_words), dtype=word)
                    grown[:n_slots] = representatives[:n_slots]
                    representatives = grown
                representatives[n_slots : n_slots + len(fresh)] = block[np.flatnonzero(new)[first]]
                slot_of_bucket[fresh] = np.arange(n_slots + 1, n_slots + len(fresh) + 1)
                n_slots += len(fresh)
                slot = slot_of_bucket[bucket]
            slot -= 1
            if not np.array_equal(representatives[slot], block):
                return None  # two distinct strings share a bucket
            slots[start : start + _CHUNK] = slot
        slots_per_array.append(slots)
    classes = np.ascontiguousarray(representatives[:n_slots]).view(dtype).reshape(n_slots)
    if not sort:
        return classes, tuple(slots_per_array)
    order = np.argsort(classes)
    rank = np.empty(n_slots, dtype=np.intp)
    rank[order] = np.arange(n_slots)
    return classes[order], tuple(rank[slots] for slots in slots_per_array)


def _count_matrix(true_codes: np.ndarray, pred_codes: np.ndarray, n_classes: int) -> np.ndarray:
    flat = true_codes.astype(np.int64, copy=False) * n_classes + pred_codes
    return np.bincount(flat, minlength=n_classes * n_classes).reshape(n_classes, n_classes)


def _validate_pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    y_true = check_labels(y_true, "y_true")
    y_pred = check_labels(y_pred, "y_pred")
    check_consistent_length(y_true=y_true, y_pred=y_pred)
    check_same_label_kind(y_true=y_true, y_pred=y_pred)
    return y_true, y_pred


def _validate_label_list(labels: Any, y_true: np.ndarray, name: str = "labels") -> np.ndarray:
    labels = check_labels(labels, name)
    check_same_label_kind(y_true=y_true, **{name: labels})
    if len(np.unique(labels)) != len(labels):
        raise ValueError(f"{name} must not repeat a label; got {labels.tolist()}")
    return labels


_SMALL_GRID = 1 << 16  # integer labels spanning at most 256 values: count chunk by chunk


def _small_integer_confusion(
    y_true: np.ndarray, y_pred: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Counts of integer labels spanning few values, without any array as long as the input.

    Every (true, predicted) pair of the span is a cell of a small grid; chunks that fit the
    CPU cache are counted into it, and the classes are the rows and columns that are used.
    """
    low = min(int(y_true.min()), int(y_pred.min()))
    high = max(int(y_true.max()), int(y_pred.max()))
    span = high - low + 1
    if span * span > _SMALL_GRID or max(abs(low), abs(high)) > 1 << 50:  # keep t * span exact
        return None
    grid = np.zeros(span * span, dtype=np.int64)
    cell = np.empty(min(len(y_true), _CHUNK), dtype=np.int64)
    for start in range(0, len(y_true), _CHUNK):  # a loop over chunks, not samples
        stop = min(start + _CHUNK, len(y_true))
        out = cell[: stop - start]
        out[:] = y_true[start:stop]  # to int64 first: small dtypes would overflow below
        out *= span
        out += y_pred[start:stop]
        if low:
            out -= low * (span + 1)
        grid += np.bincount(out, minlength=span * span)
    grid = grid.reshape(span, span)
    used = (grid.sum(axis=1) > 0) | (grid.sum(axis=0) > 0)
    return np.flatnonzero(used) + low, grid[np.ix_(used, used)]


def _full_confusion(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Confusion matrix over every label seen in the data, sorted, and those labels."""
    if y_true.dtype.kind in "iu" and y_pred.dtype.kind in "iu":
        small = _small_integer_confusion(y_true, y_pred)
        if small is not None:
            return small
    classes, true_codes, pred_codes = _encode(y_true, y_pred)
    matrix = _count_matrix(true_codes, pred_codes, len(classes))
    order = np.argsort(classes, kind="stable")
    if (order != np.arange(len(classes))).any():
        classes, matrix = classes[order], matrix[np.ix_(order, order)]
    return classes, matrix


def _locate(classes: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each wanted label in the sorted ``classes``, and whether it is there at all."""
    index = np.minimum(np.searchsorted(classes, wanted), len(classes) - 1)
    return index, classes[index] == wanted


@dataclass(frozen=True)
class _ClassCounts:
    """Per-class counts for the selected labels, computed over all samples."""

    labels: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    n_samples: int

    @property
    def support(self) -> np.ndarray:
        return self.tp + self.fn

    @property
    def predicted(self) -> np.ndarray:
        return self.tp + self.fp


def _class_counts(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    *,
    average: str | None,
    labels: Any,
    exclude: Any,
    pos_label: Any,
) -> _ClassCounts:
    """Validate the label choice, count once, and return the counts of the chosen labels."""
    classes, matrix = _full_confusion(y_true, y_pred)
    selected = _select_labels(y_true, average, labels, exclude, pos_label, classes)
    tp = np.diagonal(matrix)
    predicted = matrix.sum(axis=0)
    support = matrix.sum(axis=1)
    if selected is None:
        selected = classes
    else:
        # Labels asked for but absent from the data have zero counts.
        index, found = _locate(classes, selected)
        tp, predicted, support = (np.where(found, x[index], 0) for x in (tp, predicted, support))
    n_samples = len(y_true)
    fp = predicted - tp
    fn = support - tp
    return _ClassCounts(selected, tp, fp, fn, n_samples - tp - fp - fn, n_samples)


# --------------------------------------------------------------------------------------------
# Averaging
# --------------------------------------------------------------------------------------------


def class_weights(support: Any, scheme: str, *, n_samples: int | None = None) -> np.ndarray:
    r"""Weights of the classes in an average, summing to 1.

    The schemes of Harbecke et al. (2022) form a family between micro-averaging (a class
    weighs as much as its samples) and macro-averaging (every class weighs the same):

    .. math::

        w_i \propto \begin{cases}
            1 & \text{macro} \\
            n_i^{3/4} & \text{dodrans} \\
            -n_i \log_2 (n_i / N) & \text{entropy} \\
            n_i & \text{weighted (and micro)}
        \end{cases}

    where :math:`n_i` is the support of class *i* and :math:`N` the number of samples.

    Parameters
    ----------
    support : array-like of int
        Number of true samples of each class.
    scheme : {"macro", "weighted", "micro", "dodrans", "entropy"}
        The weighting. ``"micro"`` gives the support-proportional weights that make a weighted
        average of per-class *recalls* equal micro recall.
    n_samples : int, optional
        :math:`N` for ``"entropy"``; default the sum of ``support``. Pass the size of the
        whole test set when some classes are left out (as the authors' code does).

    Returns
    -------
    ndarray of float
        Non-negative weights summing to 1. When every support is 0 the weights are uniform.

    References
    ----------
    Harbecke, D., Chen, Y., Hennig, L. and Alt, C. (2022). Why only Micro-F1? Class Weighting
    of Measures for Relation Classification. NLP Power! Workshop, ACL 2022.

    Examples
    --------
    >>> class_weights([1, 9], "macro")
    array([0.5, 0.5])
    >>> class_weights([1, 9], "weighted")
    array([0.1, 0.9])
    >>> class_weights([1, 9], "dodrans").round(3)
    array([0.161, 0.839])
    """
    support = check_1d(support, "support")
    if support.dtype.kind not in "biuf" or np.any(support < 0):
        raise ValueError("support must hold non-negative counts")
    scheme = check_option(scheme, "scheme", WEIGHT_SCHEMES)
    support = support.astype(np.float64)
    if scheme == "macro":
        raw = np.ones_like(support)
    elif scheme in ("weighted", "micro"):
        raw = support
    elif scheme == "dodrans":
        raw = support**0.75
    else:
        total = float(support.sum()) if n_samples is None else float(n_samples)
        if total <= 0:
            raw = np.zeros_like(support)
        else:
            share = support / total
            with np.errstate(divide="ignore", invalid="ignore"):
                raw = np.where(support > 0, -support * np.log2(share), 0.0)
    total_weight = raw.sum()
    if total_weight == 0:
        # No class has support (or, for entropy, one class holds every sample): fall back to
        # equal weights, as scikit-learn does for "weighted".
        return np.full_like(support, 1.0 / len(support))
    return raw / total_weight


def _select_labels(
    y_true: np.ndarray,
    average: str | None,
    labels: Any,
    exclude: Any,
    pos_label: Any,
    present: np.ndarray,
) -> np.ndarray | None:
    """The labels a metric reports or averages over (None: every present label)."""
    if average == "binary":
        if exclude is not None:
            raise ValueError(
                "exclude leaves classes out of an average over classes; it has no meaning with "
                "average='binary' (use average='micro', 'macro', ... instead)"
            )
        if len(present) > 2:
            raise ValueError(
                f"average='binary' needs at most two classes, but the labels hold {len(present)} "
                f"({present.tolist()[:10]}{' ...' if len(present) > 10 else ''}); choose another "
                "average: None, 'micro', 'macro', 'weighted', 'dodrans', 'entropy' or 'macro_pr'"
            )
        pos = check_labels([pos_label], "pos_label")
        kinds_differ = (pos.dtype.kind == "U") != (y_true.dtype.kind == "U")
        if kinds_differ or (pos[0] not in present and len(present) >= 2):
            raise ValueError(
                f"pos_label={pos_label!r} is not one of the labels; it should be one of "
                f"{present.tolist()}"
            )
        return pos
    chosen = None if labels is None else _validate_label_list(labels, y_true)
    if exclude is not None:
        excluded = check_labels(exclude, "exclude", allow_empty=True)
        if len(excluded):
            check_same_label_kind(y_true=y_true, exclude=excluded)
        base = present if chosen is None else chosen
        chosen = base[~np.isin(base, excluded)]
        if len(chosen) == 0:
            raise ValueError("exclude leaves no class to evaluate")
    return chosen


def _per_class(
    want: str, tp: np.ndarray, predicted: np.ndarray, support: np.ndarray, beta: float,
    zero_division: Any, labels: np.ndarray | None,
) -> np.ndarray:
    """Precision, recall or F-beta (``want``) of each class from its counts."""
    if want == "precision" or (want == "f" and beta == 0):
        return safe_divide(tp, predicted, zero_division, metric="Precision",
                           reason="no predicted samples", labels=labels)
    if want == "recall" or (want == "f" and np.isposinf(beta)):
        return safe_divide(tp, support, zero_division, metric="Recall",
                           reason="no true samples", labels=labels)
    # The count form (1 + b^2) TP / (b^2 (TP + FN) + TP + FP): defined whenever P or R is.
    beta2 = beta * beta
    return safe_divide((1 + beta2) * tp, beta2 * support + predicted, zero_division,
                       metric="F-score", reason="no true nor predicted samples", labels=labels)


_METRIC_NAMES = {"precision": "Precision", "recall": "Recall", "f": "F-score"}


def _averaged_scores(
    counts: _ClassCounts, average: str | None, beta: float, zero_division: Any, want: str
) -> Any:
    """Precision, recall or F (``want``) per class, or averaged as ``average`` says."""
    tp, predicted, support, labels = counts.tp, counts.predicted, counts.support, counts.labels
    if average == "micro":
        pooled = [np.array([x.sum()]) for x in (tp, predicted, support)]
        return float(_per_class(want, *pooled, beta, zero_division, None)[0])
    if average == "macro_pr" and want == "f":
        # Opitz & Burst's macro-F: the F of macro-precision and macro-recall.
        mean_p, mean_r = (
            nan_average(_per_class(kind, tp, predicted, support, beta, zero_division, labels),
                        metric=_METRIC_NAMES[kind])
            for kind in ("precision", "recall")
        )
        if beta == 0 or np.isposinf(beta) or np.isnan(mean_p) or np.isnan(mean_r):
            return mean_p if beta == 0 else mean_r if np.isposinf(beta) else float("nan")
        beta2 = beta * beta
        return float(safe_divide(np.array([(1 + beta2) * mean_p * mean_r]),
                                 np.array([beta2 * mean_p + mean_r]), zero_division,
                                 metric="F-score", reason="macro precision and recall are 0")[0])
    scores = _per_class(want, tp, predicted, support, beta, zero_division, labels)
    if average is None:
        return scores
    if average == "binary":
        return float(scores[0])
    if average in ("macro", "macro_pr"):
        return nan_average(scores, metric=_METRIC_NAMES[want])
    weights = class_weights(support, average, n_samples=counts.n_samples)
    return nan_average(scores, weights, metric=_METRIC_NAMES[want])


def _set_metric(
    y_true: Any,
    y_pred: Any,
    *,
    want: str,
    beta: float = 1.0,
    average: str | None,
    pos_label: Any,
    labels: Any,
    exclude: Any,
    zero_division: Any,
) -> Any:
    average = check_option(average, "average", AVERAGES)
    zero_division = check_zero_division(zero_division)
    y_true, y_pred = _validate_pair(y_true, y_pred)
    counts = _class_counts(y_true, y_pred, average=average, labels=labels, exclude=exclude,
                           pos_label=pos_label)
    return _averaged_scores(counts, average, beta, zero_division, want)


# --------------------------------------------------------------------------------------------
# Public metrics
# --------------------------------------------------------------------------------------------


def confusion_matrix(y_true: Any, y_pred: Any, labels: Any = None) -> np.ndarray:
    r"""Count how often each true class was predicted as each class.

    .. math::

        C_{ij} = \bigl|\{s : y^{true}_s = \ell_i \text{ and } y^{pred}_s = \ell_j\}\bigr|

    Rows are true classes, columns predicted classes, both in the order of ``labels``.
    For two classes ``[negative, positive]`` this is ``[[TN, FP], [FN, TP]]``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (numbers or strings).
    labels : array-like, optional
        The classes and their order. Default: every label in ``y_true`` or ``y_pred``, sorted.
        Samples whose true or predicted label is not listed are left out, as scikit-learn does.

    Returns
    -------
    ndarray of int, shape (n_classes, n_classes)

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.3. Cambridge University Press.

    Examples
    --------
    >>> confusion_matrix([1, 1, 0, 0, 1], [1, 0, 0, 1, 1])
    array([[1, 1],
           [1, 2]])
    >>> confusion_matrix(["cat", "dog", "dog"], ["dog", "dog", "dog"], labels=["dog", "cat"])
    array([[2, 0],
           [1, 0]])
    """
    y_true, y_pred = _validate_pair(y_true, y_pred)
    if labels is None:
        return _full_confusion(y_true, y_pred)[1]
    wanted = _validate_label_list(labels, y_true)
    classes, matrix = _full_confusion(y_true, y_pred)
    index, found = _locate(classes, wanted)
    sub = matrix[np.ix_(index, index)]
    return np.where(found[:, None] & found[None, :], sub, 0)


def accuracy(y_true: Any, y_pred: Any) -> float:
    r"""Fraction of samples whose predicted label equals the true label.

    .. math::

        \mathrm{accuracy} = \frac{TP + TN}{TP + TN + FP + FN}
                          = \frac{1}{n} \sum_{s=1}^{n} [y^{true}_s = y^{pred}_s]

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)

    Returns
    -------
    float

    References
    ----------
    Manning, Raghavan and Schütze (2008), Introduction to Information Retrieval, section 8.3.

    Examples
    --------
    >>> accuracy([1, 1, 0, 0], [1, 0, 0, 0])
    0.75
    """
    y_true, y_pred = _validate_pair(y_true, y_pred)
    return float(np.count_nonzero(y_true == y_pred) / len(y_true))


def error_rate(y_true: Any, y_pred: Any) -> float:
    r"""Fraction of samples whose predicted label is wrong.

    .. math::

        \mathrm{error\ rate} = \frac{FP + FN}{TP + TN + FP + FN}

    Computed as errors / n, not as ``1 - accuracy`` (which can print 0.09999999999999998).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)

    Returns
    -------
    float

    References
    ----------
    Manning, Raghavan and Schütze (2008), Introduction to Information Retrieval, section 8.3.

    Examples
    --------
    >>> error_rate([1] * 9 + [0], [1] * 10)
    0.1
    """
    y_true, y_pred = _validate_pair(y_true, y_pred)
    return float(np.count_nonzero(y_true != y_pred) / len(y_true))


_COMMON_PARAMETERS = """
Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (numbers or strings).
    average : {"binary", None, "micro", "macro", "weighted", "dodrans", "entropy", "macro_pr"}
        ``"binary"`` (default): the score of ``pos_label`` only (at most two classes).
        ``None``: one score per class, in the order of ``labels``.
        ``"micro"``: pool the counts of all classes, then divide.
        ``"macro"``: unweighted mean of the per-class scores.
        ``"weighted"``, ``"dodrans"``, ``"entropy"``: mean weighted by :func:`class_weights`
        (support, support^3/4, -n_i log2(n_i/N)).
        ``"macro_pr"``: like ``"macro"`` for precision and recall; for the F score, the F of
        macro-precision and macro-recall (Opitz & Burst 2019).
    pos_label : int or str, default 1
        The positive class when ``average="binary"``; ignored otherwise.
    labels : array-like, optional
        The classes to report (``average=None``) or average over, in order. Default: every
        label in the data, sorted. Counts always use all samples.
    exclude : array-like, optional
        Classes left out of the average (e.g. a "no relation" class). With a class excluded,
        micro-averaged scores are no longer accuracy.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
        The value of a ratio whose denominator is 0. ``"warn"`` gives 0.0 and an
        :class:`~evalkit.exceptions.UndefinedMetricWarning`. NaN values are left out of
        averages (with a warning).
"""

_RETURNS = """
Returns
    -------
    float, or ndarray of float when ``average`` is None
"""


def precision(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Fraction of the retrieved (predicted positive) items that are relevant (positive).

    .. math::

        \mathrm{precision} = \frac{TP}{TP + FP}

    <<parameters>>

    <<returns>>

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.3. Cambridge University Press.

    Examples
    --------
    >>> precision([1, 1, 0, 1, 0, 0], [1, 0, 0, 1, 1, 0])
    0.6666666666666666
    >>> precision(["a", "b", "b", "c"], ["a", "b", "c", "c"], average=None)
    array([1. , 1. , 0.5])
    """
    return _set_metric(y_true, y_pred, want="precision", average=average, pos_label=pos_label,
                       labels=labels, exclude=exclude, zero_division=zero_division)


def recall(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Fraction of the relevant (positive) items that were retrieved (predicted positive).

    .. math::

        \mathrm{recall} = \frac{TP}{TP + FN}

    <<parameters>>

    <<returns>>

    References
    ----------
    Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to Information Retrieval,
    section 8.3. Cambridge University Press.

    Examples
    --------
    >>> recall([1, 1, 0, 1, 0, 0], [1, 0, 0, 1, 1, 0])
    0.6666666666666666
    >>> recall(["a", "b", "b", "c"], ["a", "b", "c", "c"], average="macro")
    0.8333333333333334
    """
    return _set_metric(y_true, y_pred, want="recall", average=average, pos_label=pos_label,
                       labels=labels, exclude=exclude, zero_division=zero_division)


def f_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""The F measure: the weighted harmonic mean of precision and recall.

    .. math::

        F_\beta = \frac{(1 + \beta^2)\, P R}{\beta^2 P + R}
                = \frac{(1 + \beta^2)\, TP}{(1 + \beta^2)\, TP + \beta^2 FN + FP}

    :math:`\beta > 1` weighs recall more, :math:`\beta < 1` precision; :math:`F_0 = P` and
    :math:`F_\infty = R`. The count form is used, so F is defined (0) when precision is
    undefined but recall is 0, as in scikit-learn's ``fbeta_score``.

    <<parameters>>
    beta : float, default 1.0
        How many times more recall matters than precision (van Rijsbergen's β), >= 0.

    <<returns>>

    References
    ----------
    van Rijsbergen, C. J. (1979). Information Retrieval, 2nd ed., chapter 7. Butterworths.
    Opitz, J. and Burst, S. (2019). Macro F1 and Macro F1. arXiv:1911.03347 (``"macro_pr"``).

    Examples
    --------
    >>> y_true = [1] * 40 + [0] * 60          # 40 relevant documents of 100
    >>> y_pred = [1] * 40 + [1] * 50 + [0] * 10   # 90 retrieved, all 40 relevant among them
    >>> round(f_score(y_true, y_pred, beta=1), 4), round(f_score(y_true, y_pred, beta=2), 4)
    (0.6154, 0.8)
    """
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)):
        raise ValueError(f"beta must be a number >= 0; got {beta!r}")
    if np.isnan(beta) or beta < 0:
        raise ValueError(f"beta must be a number >= 0; got {beta!r}")
    return _set_metric(y_true, y_pred, want="f", beta=float(beta), average=average,
                       pos_label=pos_label, labels=labels, exclude=exclude,
                       zero_division=zero_division)


def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""The balanced F measure, :math:`F_1 = 2PR / (P + R)`: :func:`f_score` with β = 1.

    .. math::

        F_1 = \frac{2\, TP}{2\, TP + FN + FP}

    which is also the Dice coefficient of the retrieved and the relevant sets,
    :math:`2|A \cap B| / (|A| + |B|)`.

    <<parameters>>

    <<returns>>

    References
    ----------
    van Rijsbergen, C. J. (1979). Information Retrieval, 2nd ed., chapter 7. Butterworths.
    Dice, L. R. (1945). Measures of the Amount of Ecologic Association Between Species.
    Ecology 26(3), 297–302.

    Examples
    --------
    >>> round(f1_score([1, 1, 0, 1, 0, 0], [1, 0, 0, 1, 1, 0]), 4)
    0.6667
    >>> round(f1_score([0, 1, 2, 2], [0, 2, 2, 2], average="macro", zero_division=0.0), 4)
    0.6
    """
    return f_score(y_true, y_pred, beta=1.0, average=average, pos_label=pos_label,
                   labels=labels, exclude=exclude, zero_division=zero_division)


def sensitivity(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Sensitivity, the true-positive rate: another name for :func:`recall`.

    .. math::

        \mathrm{sensitivity} = \frac{TP}{TP + FN}

    <<parameters>>

    <<returns>>

    References
    ----------
    Altman, D. G. and Bland, J. M. (1994). Diagnostic tests 1: sensitivity and specificity.
    BMJ 308, 1552.

    Examples
    --------
    >>> sensitivity([1, 1, 1, 0], [1, 1, 0, 0])
    0.6666666666666666
    """
    return recall(y_true, y_pred, average=average, pos_label=pos_label, labels=labels,
                  exclude=exclude, zero_division=zero_division)


def specificity(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Specificity, the true-negative rate: the recall of the negative class.

    .. math::

        \mathrm{specificity} = \frac{TN}{TN + FP}

    For more than two classes, each class in turn is "positive" and the rest "negative";
    averages follow imbalanced-learn's ``specificity_score`` (micro pools TN and FP over the
    classes; weighted uses the support of each class).

    <<parameters>>

    <<returns>>

    References
    ----------
    Altman, D. G. and Bland, J. M. (1994). Diagnostic tests 1: sensitivity and specificity.
    BMJ 308, 1552.

    Examples
    --------
    >>> specificity([1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0])
    0.6666666666666666
    """
    average = check_option(average, "average", AVERAGES)
    zero_division = check_zero_division(zero_division)
    y_true, y_pred = _validate_pair(y_true, y_pred)
    counts = _class_counts(y_true, y_pred, average=average, labels=labels, exclude=exclude,
                           pos_label=pos_label)
    if average == "micro":
        negatives = counts.tn.sum() + counts.fp.sum()
        return float(safe_divide(np.array([counts.tn.sum()]), np.array([negatives]),
                                 zero_division, metric="Specificity",
                                 reason="no negative samples")[0])
    scores = safe_divide(counts.tn, counts.tn + counts.fp, zero_division, metric="Specificity",
                         reason="no negative samples", labels=counts.labels)
    if average is None:
        return scores
    if average == "binary":
        return float(scores[0])
    if average in ("macro", "macro_pr"):
        return nan_average(scores, metric="Specificity")
    weights = class_weights(counts.support, average, n_samples=counts.n_samples)
    return nan_average(scores, weights, metric="Specificity")


#: The averaging rows of :func:`classification_report`, in order.
REPORT_AVERAGES = ("micro", "macro", "macro_pr", "weighted", "dodrans", "entropy")


def classification_report(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    exclude: Any = None,
    beta: float = 1.0,
    zero_division: Any = "warn",
) -> pd.DataFrame:
    r"""Precision, recall, F and support of every class, then under every averaging scheme.

    The per-class rows come from one confusion matrix; each averaging row applies one
    ``average`` to the same counts, so the table shows at a glance how far the schemes of
    Harbecke et al. (2022) spread on these data:

    .. math::

        \bar{M} = \sum_i w_i\, M_i, \qquad w \in \{\text{macro}, \text{weighted},
        \text{dodrans}, \text{entropy}\}\ \text{(see } \texttt{class\_weights}\text{)}

    while the ``micro`` row pools the counts before dividing and the ``macro_pr`` row's F is the
    F of its (macro) precision and recall (Opitz & Burst 2019).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (numbers or strings).
    labels : array-like, optional
        The classes to list and average over, in order. Default: every label in the data,
        sorted.
    exclude : array-like, optional
        Classes listed but left out of every averaging row (e.g. a "no relation" class).
    beta : float, default 1.0
        The β of the F column.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
        As in :func:`precision`. Each distinct warning is given once.

    Returns
    -------
    DataFrame
        Columns ``precision``, ``recall``, ``f_score``, ``support`` (int). One row per class,
        indexed by its label, then one row per scheme in ``REPORT_AVERAGES`` ("micro",
        "macro", "macro_pr", "weighted", "dodrans", "entropy"), whose support is the number of
        true samples of the averaged classes.

    References
    ----------
    Harbecke, D., Chen, Y., Hennig, L. and Alt, C. (2022). Why only Micro-F1? Class Weighting
    of Measures for Relation Classification. NLP Power! Workshop, ACL 2022.
    Opitz, J. and Burst, S. (2019). Macro F1 and Macro F1. arXiv:1911.03347.

    Examples
    --------
    >>> y_true = ["cat"] * 6 + ["dog"] * 3 + ["eel"]
    >>> y_pred = ["cat"] * 5 + ["dog"] + ["dog"] * 2 + ["cat"] + ["cat"]
    >>> report = classification_report(y_true, y_pred, zero_division=0.0)
    >>> print(report.round(3).to_string(index_names=False))
              precision  recall  f_score  support
    cat           0.714   0.833    0.769        6
    dog           0.667   0.667    0.667        3
    eel           0.000   0.000    0.000        1
    micro         0.700   0.700    0.700       10
    macro         0.460   0.500    0.479       10
    macro_pr      0.460   0.500    0.479       10
    weighted      0.629   0.700    0.662       10
    dodrans       0.599   0.663    0.628       10
    entropy       0.512   0.553    0.531       10
    """
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)):
        raise ValueError(f"beta must be a number >= 0; got {beta!r}")
    if np.isnan(beta) or beta < 0:
        raise ValueError(f"beta must be a number >= 0; got {beta!r}")
    beta = float(beta)
    zero_division = check_zero_division(zero_division)
    y_true, y_pred = _validate_pair(y_true, y_pred)
    counts = _class_counts(y_true, y_pred, average=None, labels=labels, exclude=None,
                           pos_label=None)
    averaged = counts
    if exclude is not None:
        keep_labels = _select_labels(y_true, None, counts.labels, exclude, None, counts.labels)
        keep = np.isin(counts.labels, keep_labels)
        averaged = _ClassCounts(counts.labels[keep], counts.tp[keep], counts.fp[keep],
                                counts.fn[keep], counts.tn[keep], counts.n_samples)
    columns = {"precision": "precision", "recall": "recall", "f": "f_score"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = {name: list(_averaged_scores(counts, None, beta, zero_division, want))
                 for want, name in columns.items()}
        for average in REPORT_AVERAGES:
            for want, name in columns.items():
                table[name].append(_averaged_scores(averaged, average, beta, zero_division, want))
    seen = set()
    for warning in caught:
        key = (warning.category, str(warning.message))
        if key not in seen:
            seen.add(key)
            warnings.warn(warning.message, warning.category, stacklevel=2)
    table["support"] = list(counts.support) + [int(averaged.support.sum())] * len(REPORT_AVERAGES)
    index = pd.Index(list(counts.labels.tolist()) + list(REPORT_AVERAGES), name="class",
                     dtype=object)
    report = pd.DataFrame(table, index=index)
    report["support"] = report["support"].astype(np.int64)
    return report


for _function in (precision, recall, f_score, f1_score, sensitivity, specificity):
    _function.__doc__ = _function.__doc__.replace(
        "<<parameters>>", _COMMON_PARAMETERS.strip()).replace("<<returns>>", _RETURNS.strip())
