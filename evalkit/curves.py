r"""Threshold curves of a scorer: ROC, precision-recall, and the area under the ROC curve.

A scorer gives every sample a number; a threshold turns the numbers into decisions ("positive
when the score is at least t"). Sweeping t from +inf down to the lowest score traces one
confusion matrix per distinct score, and every curve here is read off that one sweep
(:func:`confusion_at_thresholds`), as scikit-learn's ``_binary_clf_curve`` does.

The sweep itself (:mod:`evalkit._sweep`) sorts the positives' and the negatives' scores
separately and counts, for each threshold, how many of each lie at or above it. Tied scores
form one threshold, so ties are handled as scikit-learn handles them: a tie between a positive
and a negative is a diagonal step of the ROC curve and counts one half in the AUC. There is no
Python loop over samples; the multi-class AUCs loop over classes (or pairs of classes) only.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

from ._results import make_result
from ._sorting import simd_sort_is_slow
from ._sweep import LEVELS_MIN, Sweep, level_counts, level_pair_count, pair_count
from ._validation import (
    check_bool,
    check_consistent_length,
    check_finite_scores,
    check_labels,
    check_option,
    check_same_label_kind,
    check_scalar,
    keyword_only,
)
from .exceptions import UndefinedMetricWarning

__all__ = [
    "confusion_at_thresholds",
    "roc_curve",
    "roc_auc",
    "precision_recall_curve",
    "youden_index",
    "binormal_test_set",
    "binormal_auc",
    "MULTI_CLASS",
]

#: The values ``multi_class`` accepts in :func:`roc_auc`.
MULTI_CLASS = (None, "ovr", "hand_till")


# --------------------------------------------------------------------------------------------
# Checks and helpers
# --------------------------------------------------------------------------------------------


def _check_scores_and_labels(y_true: Any, y_score: Any) -> tuple[np.ndarray, np.ndarray]:
    y_true = check_labels(y_true, "y_true")
    y_score = check_finite_scores(y_score, "y_score")
    check_consistent_length(y_true=y_true, y_score=y_score)
    return y_true, y_score


def _positive_mask(y_true: np.ndarray, pos_label: Any) -> np.ndarray:
    """Which samples belong to ``pos_label``; the other classes together are the negatives."""
    pos = check_labels([pos_label], "pos_label")
    classes = _distinct(y_true)
    if (pos.dtype.kind == "U") != (y_true.dtype.kind == "U"):
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the labels of y_true "
            f"({_shown(classes)}); pass pos_label= one of them"
        )
    if pos[0] not in classes and len(classes) >= 2:
        raise ValueError(
            f"pos_label={pos_label!r} is not one of the labels of y_true ({_shown(classes)}); "
            "pass pos_label= one of them"
        )
    return y_true == pos[0]


def _distinct(y_true: np.ndarray) -> np.ndarray:
    if y_true.dtype.kind in "iu":
        low, high = int(y_true.min()), int(y_true.max())
        if high - low <= 1:  # 0/1 labels (the binary case): the extremes are the classes
            return np.unique(np.array([low, high], dtype=y_true.dtype))
        if high - low < 1 << 20:
            return np.flatnonzero(np.bincount(y_true - low, minlength=high - low + 1)) + low
    return np.unique(y_true)


def _shown(values: np.ndarray) -> str:
    listed = values[:10].tolist()
    return f"{listed}{' ...' if len(values) > 10 else ''}"


def _undefined(what: str) -> None:
    warnings.warn(what, UndefinedMetricWarning, stacklevel=3)


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


@keyword_only
def confusion_at_thresholds(y_true: Any, y_score: Any, *, pos_label: Any = 1) -> pd.DataFrame:
    r"""The binary confusion matrix at every distinct threshold of a scorer.

    At threshold :math:`t` a sample is predicted positive when its score is at least :math:`t`:

    .. math::

        TP(t) = |\{s : y_s = +,\ \hat{s}_s \ge t\}|, \qquad
        FP(t) = |\{s : y_s = -,\ \hat{s}_s \ge t\}|,

    :math:`FN = P - TP` and :math:`TN = N - FP`. The first row is :math:`t = +\infty`
    (nothing predicted positive); then one row per distinct score, in decreasing order, the last
    of which predicts every sample positive.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels. With more than two classes, ``pos_label`` is one class against the rest.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive (probabilities or decision values).
    pos_label : int or str, default 1
        The positive class.

    Returns
    -------
    DataFrame
        Columns ``threshold``, ``tp``, ``fp``, ``fn``, ``tn``, one row per threshold.

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8),
    861–874 (Algorithm 1).

    Examples
    --------
    >>> confusion_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
       threshold  tp  fp  fn  tn
    0        inf   0   0   2   2
    1       0.80   1   0   1   2
    2       0.40   1   1   1   1
    3       0.35   2   1   0   1
    4       0.10   2   2   0   0
    """
    y_true, y_score = _check_scores_and_labels(y_true, y_score)
    sweep = Sweep.of(_positive_mask(y_true, pos_label), y_score)
    thresholds, tp, fp = sweep.counts()
    n_pos, n_neg = len(sweep.positives), len(sweep.negatives)
    tp = np.concatenate([[0], tp])
    fp = np.concatenate([[0], fp])
    return pd.DataFrame({
        "threshold": np.concatenate([[np.inf], thresholds]),
        "tp": tp, "fp": fp, "fn": n_pos - tp, "tn": n_neg - fp,
    })


@keyword_only
def roc_curve(
    y_true: Any, y_score: Any, *, pos_label: Any = 1, drop_intermediate: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The receiver operating characteristic: true-positive rate against false-positive rate.

    .. math::

        \mathrm{TPR}(t) = \frac{TP(t)}{P}, \qquad \mathrm{FPR}(t) = \frac{FP(t)}{N}

    for every distinct score :math:`t`, from :math:`t = +\infty` (the point (0, 0)) down to the
    lowest score (the point (1, 1)). The output equals scikit-learn's ``roc_curve``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : int or str, default 1
        The positive class.
    drop_intermediate : bool, default True
        Drop thresholds whose point lies on a straight segment between its neighbours; they
        change neither the plotted curve nor its area (scikit-learn's rule).

    Returns
    -------
    fpr, tpr, thresholds : ndarray
        ``thresholds[0]`` is ``inf``. A rate whose denominator is 0 (no negatives, or no
        positives) is NaN, with an :class:`~evalkit.exceptions.UndefinedMetricWarning`.

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8),
    861–874.

    Examples
    --------
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, tpr
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    >>> thresholds
    array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
    """
    drop_intermediate = check_bool(drop_intermediate, "drop_intermediate")
    y_true, y_score = _check_scores_and_labels(y_true, y_score)
    sweep = Sweep.of(_positive_mask(y_true, pos_label), y_score)
    thresholds, tp, fp = sweep.counts()
    if drop_intermediate and len(tp) > 2:
        corner = np.logical_or(np.diff(fp, 2), np.diff(tp, 2))
        keep = np.flatnonzero(np.concatenate([[True], corner, [True]]))
        thresholds, tp, fp = thresholds[keep], tp[keep], fp[keep]
    tp = np.concatenate([[0], tp])
    fp = np.concatenate([[0], fp])
    thresholds = np.concatenate([[np.inf], thresholds])
    n_pos, n_neg = len(sweep.positives), len(sweep.negatives)
    if n_neg == 0:
        _undefined("No negative samples in y_true: the false-positive rate is undefined (NaN).")
        fpr = np.full(len(fp), np.nan)
    else:
        fpr = fp / n_neg
    if n_pos == 0:
        _undefined("No positive samples in y_true: the true-positive rate is undefined (NaN).")
        tpr = np.full(len(tp), np.nan)
    else:
        tpr = tp / n_pos
    return fpr, tpr, thresholds


@keyword_only
def precision_recall_curve(
    y_true: Any, y_score: Any, *, pos_label: Any = 1, drop_intermediate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Precision and recall at every distinct threshold of a scorer.

    .. math::

        P(t) = \frac{TP(t)}{TP(t) + FP(t)}, \qquad R(t) = \frac{TP(t)}{P}

    Thresholds are returned in increasing order, so recall decreases along the arrays; a final
    point (precision 1, recall 0) with no threshold closes the curve, as in scikit-learn, whose
    ``precision_recall_curve`` this equals.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : int or str, default 1
        The positive class.
    drop_intermediate : bool, default False
        Keep only the first and last threshold of each run of equal TP counts (the vertical
        stretches of the curve), scikit-learn's rule.

    Returns
    -------
    precision, recall : ndarray of shape (n_thresholds + 1,)
    thresholds : ndarray of shape (n_thresholds,)
        When ``y_true`` has no positive sample, recall is 1 everywhere (scikit-learn's
        convention), with a warning.

    References
    ----------
    Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC
    curves. ICML 2006, 233–240.

    Examples
    --------
    >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision.round(3), recall
    (array([0.5  , 0.667, 0.5  , 1.   , 1.   ]), array([1. , 1. , 0.5, 0.5, 0. ]))
    >>> thresholds
    array([0.1 , 0.35, 0.4 , 0.8 ])
    """
    drop_intermediate = check_bool(drop_intermediate, "drop_intermediate")
    y_true, y_score = _check_scores_and_labels(y_true, y_score)
    sweep = Sweep.of(_positive_mask(y_true, pos_label), y_score)
    thresholds, tp, fp = sweep.counts()
    if drop_intermediate and len(tp) > 2:
        changes = np.logical_or(np.diff(tp[:-1]), np.diff(tp[1:]))
        keep = np.flatnonzero(np.concatenate([[True], changes, [True]]))
        thresholds, tp, fp = thresholds[keep], tp[keep], fp[keep]
    precision = tp / (tp + fp)  # every threshold is some sample's score: tp + fp >= 1
    n_pos = len(sweep.positives)
    if n_pos == 0:
        _undefined("No positive samples in y_true: recall is set to 1 at every threshold.")
        recall = np.ones(len(tp))
    else:
        recall = tp / n_pos
    return (np.concatenate([precision[::-1], [1.0]]), np.concatenate([recall[::-1], [0.0]]),
            thresholds[::-1])


YoudenResult = make_result(
    "YoudenResult", ("threshold", "j"), ("tpr", "fpr"), module=__name__,
    doc="Youden's J and its threshold; unpacks like ``(threshold, j)``, with the operating "
        "point's ``tpr`` and ``fpr`` as attributes.",
)


@keyword_only
def youden_index(y_true: Any, y_score: Any, *, pos_label: Any = 1) -> YoudenResult:
    r"""Youden's J: the threshold that maximises sensitivity + specificity − 1.

    .. math::

        J = \max_t \bigl(\mathrm{TPR}(t) - \mathrm{FPR}(t)\bigr)

    the point of the ROC curve farthest above the diagonal. It is the cost-optimal threshold
    when a false negative costs as much per *positive* as a false positive per *negative*.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (both classes must occur).
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : int or str, default 1
        The positive class.

    Returns
    -------
    YoudenResult
        Unpacks like the tuple ``(threshold, j)``: predict positive when the score is at least
        ``threshold``; of several thresholds with the same J, the highest. The attributes
        ``tpr`` and ``fpr`` give that operating point (J = tpr − fpr).

    References
    ----------
    Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3(1), 32–35.

    Examples
    --------
    >>> threshold, j = youden_index([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> threshold, j
    (0.8, 0.5)
    >>> youden_index([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).tpr
    0.5
    """
    y_true, y_score = _check_scores_and_labels(y_true, y_score)
    sweep = Sweep.of(_positive_mask(y_true, pos_label), y_score)
    if len(sweep.positives) == 0 or len(sweep.negatives) == 0:
        raise ValueError("y_true must contain both positive and negative samples for Youden's J")
    thresholds, tp, fp = sweep.counts()
    n_pos, n_neg = len(sweep.positives), len(sweep.negatives)
    # J * P * N in integers, so equal J values compare equal and the highest threshold wins.
    scaled = tp.astype(np.int64) * n_neg - fp.astype(np.int64) * n_pos
    best = int(np.argmax(scaled))
    tpr, fpr = float(tp[best] / n_pos), float(fp[best] / n_neg)
    return YoudenResult(float(thresholds[best]), float(tp[best] / n_pos - fp[best] / n_neg),
                        tpr=tpr, fpr=fpr)


@keyword_only
def roc_auc(
    y_true: Any,
    y_score: Any,
    *,
    multi_class: str | None = None,
    pos_label: Any = None,
    labels: Any = None,
    average: str | None = "macro",
) -> Any:
    r"""Area under the ROC curve: the chance that a random positive outscores a random negative.

    .. math::

        \mathrm{AUC} = \frac{1}{P\,N} \sum_{i \in +} \sum_{j \in -}
            \Bigl([s_i > s_j] + \tfrac{1}{2}[s_i = s_j]\Bigr)

    which equals the trapezoidal area under :func:`roc_curve` (the Mann-Whitney U statistic
    divided by :math:`PN`). For more than two classes:

    - ``"ovr"``: each class against the rest, with its own score column; the mean of the
      per-class AUCs (``average="macro"``), or weighted by class size (``"weighted"``), or the
      array of them (``None``).
    - ``"hand_till"``: Hand & Till's M, the mean over pairs of classes :math:`\{a, b\}` of
      :math:`(A(a|b) + A(b|a))/2`, where :math:`A(a|b)` is the AUC of score column *a*
      separating class *a* from class *b*, using the samples of those two classes only. It
      ignores the class distribution (scikit-learn's ``multi_class="ovo"``).

    Both come from one table of pairwise counts, :math:`U_{ab}` = twice the pairs (class-*a*
    sample, class-*b* sample) ranked correctly by column *a*; so ``ovr`` is a sum of ``U``'s.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary: the score of the positive class. Multi-class: one column per class, in the
        order of ``labels`` (default: the sorted labels of ``y_true``). Rows need not sum to 1
        (scikit-learn requires it; the AUC does not).
    multi_class : {None, "ovr", "hand_till"}
        None for a binary problem.
    pos_label : int or str, optional
        Binary only: the positive class; default the greater of the two labels (scikit-learn).
    labels : array-like, optional
        Multi-class only: the classes of the score columns, in order.
    average : {"macro", "weighted", None}, default "macro"
        Multi-class only; ``None`` (per-class AUCs) is for ``"ovr"``.

    Returns
    -------
    float, or ndarray for ``multi_class="ovr", average=None``
        NaN with a warning when ``y_true`` holds a single class (the AUC is undefined).

    References
    ----------
    Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area under a receiver
    operating characteristic (ROC) curve. Radiology 143(1), 29–36.
    Hand, D. J. and Till, R. J. (2001). A simple generalisation of the area under the ROC
    curve for multiple class classification problems. Machine Learning 45(2), 171–186.

    Examples
    --------
    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> y_true = ["a", "b", "c", "c"]
    >>> y_score = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.3, 0.4, 0.3]]
    >>> roc_auc(y_true, y_score, multi_class="hand_till")
    0.9583333333333334
    """
    multi_class = check_option(multi_class, "multi_class", MULTI_CLASS)
    if multi_class is None:
        if labels is not None:
            raise ValueError("labels is for multi-class AUC; with multi_class=None pass pos_label")
        return _binary_auc(y_true, y_score, pos_label)
    if pos_label is not None:
        raise ValueError("pos_label is for a binary AUC; it has no meaning with multi_class set")
    average = check_option(average, "average", ("macro", "weighted", None))
    if average is None and multi_class == "hand_till":
        raise ValueError("average=None is for multi_class='ovr'; Hand & Till's M is one number")
    return _multiclass_auc(y_true, y_score, multi_class, labels, average)


def _binary_auc(y_true: Any, y_score: Any, pos_label: Any) -> float:
    y_true = check_labels(y_true, "y_true")
    score_array = np.asarray(y_score) if not isinstance(y_score, (str, bytes)) else None
    if score_array is not None and score_array.ndim == 2 and score_array.shape[1] > 1:
        raise ValueError(
            f"y_score has shape {score_array.shape}: a score matrix needs "
            "multi_class='ovr' or 'hand_till'; for a binary problem pass the positive class's "
            "scores as a 1-D array"
        )
    y_score = check_finite_scores(y_score, "y_score")
    check_consistent_length(y_true=y_true, y_score=y_score)
    classes = _distinct(y_true)
    if len(classes) > 2:
        raise ValueError(
            f"y_true holds {len(classes)} classes ({_shown(classes)}); pass an (n, k) score "
            "matrix with multi_class='ovr' or 'hand_till'"
        )
    if len(classes) < 2:
        _undefined("Only one class is present in y_true: ROC AUC is undefined (NaN).")
        return float("nan")
    is_positive = (y_true == classes[1] if pos_label is None
                   else _positive_mask(y_true, pos_label))
    if len(y_score) >= LEVELS_MIN and simd_sort_is_slow(y_score):
        counts = level_counts(is_positive, y_score)
        if counts is not None:
            positives, negatives = counts
            return (level_pair_count(positives, negatives)
                    / (2.0 * int(positives.sum()) * int(negatives.sum())))
    sweep = Sweep.of(is_positive, y_score)
    return sweep.pair_count() / (2.0 * len(sweep.positives) * len(sweep.negatives))


def _score_matrix(y_score: Any, n_samples: int, n_classes: int) -> np.ndarray:
    if isinstance(y_score, pd.DataFrame):
        y_score = y_score.to_numpy()
    try:
        matrix = np.asarray(y_score, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("y_score must be an (n_samples, n_classes) matrix of numbers") from None
    if matrix.ndim != 2:
        raise ValueError(
            f"y_score must be an (n_samples, n_classes) matrix for multi-class AUC; got an "
            f"array of shape {matrix.shape}"
        )
    if matrix.shape[0] != n_samples:
        raise ValueError(f"y_true and y_score have different lengths ({n_samples} != "
                         f"{matrix.shape[0]})")
    if matrix.shape[1] != n_classes:
        raise ValueError(
            f"y_score has {matrix.shape[1]} columns but there are {n_classes} classes; "
            "it needs one column per class, in the order of labels (default: sorted labels)"
        )
    bad = ~np.isfinite(matrix)
    if bad.any():
        row, column = (int(i[0]) for i in np.nonzero(bad))
        raise ValueError(f"y_score contains a non-finite value at row {row}, column {column}; "
                         "scores must be finite numbers")
    return matrix


def _multiclass_auc(y_true: Any, y_score: Any, multi_class: str, labels: Any,
                    average: str | None) -> Any:
    y_true = check_labels(y_true, "y_true")
    if labels is None:
        classes = _distinct(y_true)
    else:
        classes = check_labels(labels, "labels")
        check_same_label_kind(y_true=y_true, labels=classes)
        if len(np.unique(classes)) != len(classes):
            raise ValueError(f"labels must not repeat a label; got {classes.tolist()}")
    matrix = _score_matrix(y_score, len(y_true), len(classes))
    order = np.argsort(classes, kind="stable")
    position = np.searchsorted(classes[order], y_true)
    position = np.minimum(position, len(classes) - 1)
    unknown = classes[order][position] != y_true
    if unknown.any():
        label = y_true[np.argmax(unknown)].item()
        raise ValueError(f"y_true holds the label {label!r}, which is not in labels "
                         f"{_shown(classes)}")
    codes = order[position]
    k = len(classes)
    support = np.bincount(codes, minlength=k)
    if np.count_nonzero(support) < 2:
        _undefined("Only one class is present in y_true: ROC AUC is undefined (NaN).")
        return float("nan")
    if (support == 0).any():
        missing = classes[support == 0].tolist()
        raise ValueError(f"labels {missing} have no sample in y_true; their AUC is undefined")
    # sorted_scores[c][j]: the scores in column j of the samples of class c, ascending.
    grouping = np.argsort(codes, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(support)])
    sorted_scores = [np.sort(matrix[grouping[bounds[c]:bounds[c + 1]]], axis=0) for c in range(k)]
    # u[a, b]: twice the pairs (class a, class b) that column a orders correctly, ties halved.
    u = np.zeros((k, k))
    for a in range(k):
        for b in range(k):
            if a != b:
                u[a, b] = pair_count(sorted_scores[a][:, a], sorted_scores[b][:, a])
    if multi_class == "ovr":
        n = len(y_true)
        per_class = u.sum(axis=1) / (2.0 * support * (n - support))
        if average is None:
            return per_class
        if average == "weighted":
            return float(np.average(per_class, weights=support))
        return float(per_class.mean())
    first, second = np.triu_indices(k, 1)  # every pair of classes a < b
    both = support[first] * support[second]
    pair_auc = (u[first, second] + u[second, first]) / (4.0 * both)
    if average == "weighted":
        prevalence = (support[first] + support[second]) / len(y_true)
        return float(np.average(pair_auc, weights=prevalence))
    return float(pair_auc.mean())


# --------------------------------------------------------------------------------------------
# A scorer with known curves: the binormal model
# --------------------------------------------------------------------------------------------


@keyword_only
def binormal_test_set(
    *, separation: float = 1.5, prevalence: float = 0.5, n_pool: int = 200, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    r"""A test set scored by a binormal scorer, at any class balance with the same scores.

    Negatives score :math:`N(0, 1)`, positives :math:`N(d, 1)` with :math:`d` =
    ``separation``. ``np.random.default_rng(seed)`` draws ``n_pool`` standard-normal values
    per class once (the positives' values plus :math:`d`). The test set always has
    :math:`n = 100 \cdot` ``n_pool`` cases: with a share :math:`\pi` of positives (a whole
    number of percent), each pooled positive score is repeated :math:`100\pi` times and each
    pooled negative score :math:`100(1 - \pi)` times. Repeating cases within a class changes
    no within-class share, so at every threshold :math:`t`

    .. math::

        \mathrm{TPR}(t) = \frac{TP(t)}{P}, \qquad \mathrm{FPR}(t) = \frac{FP(t)}{N}

    are exactly the same at every balance (and with them the ROC curve and its AUC), while
    precision :math:`= \pi\,\mathrm{TPR} / (\pi\,\mathrm{TPR} + (1 - \pi)\,\mathrm{FPR})`
    moves with :math:`\pi`. The population AUC of the scorer is :math:`\Phi(d / \sqrt{2})`
    (:func:`binormal_auc`).

    Parameters
    ----------
    separation : float, default 1.5
        :math:`d`, the positives' mean score (the negatives' is 0; both have SD 1).
    prevalence : float, default 0.5
        Share of positives: 0.01, 0.02, ..., 0.99 (a whole number of percent).
    n_pool : int, default 200
        Scores drawn per class.
    seed : int, default 0
        Seed of ``np.random.default_rng``.

    Returns
    -------
    y_true : ndarray of shape (100 * n_pool,)
        1 for a positive, 0 for a negative; negatives first.
    y_score : ndarray of shape (100 * n_pool,)
        The scores, ascending within each class.

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8),
    861–874 (section 4.2: ROC curves are insensitive to class distribution).
    Pepe, M. S. (2003). The Statistical Evaluation of Medical Tests for Classification and
    Prediction. Oxford University Press, section 5.3 (the binormal ROC curve).

    Examples
    --------
    >>> y_true, y_score = binormal_test_set(separation=1.5, prevalence=0.2)
    >>> len(y_true), int(y_true.sum())
    (20000, 4000)
    >>> rare_true, rare_score = binormal_test_set(separation=1.5, prevalence=0.01)
    >>> bool(np.isclose(roc_auc(y_true, y_score), roc_auc(rare_true, rare_score)))
    True
    """
    separation = check_scalar(separation, "separation")
    share = check_scalar(prevalence, "prevalence", low=0.01, high=0.99)
    n_pool = check_scalar(n_pool, "n_pool", kind="int", low=1)
    seed = check_scalar(seed, "seed", kind="int", low=0)
    percent = share * 100.0
    if abs(percent - round(percent)) > 1e-6:
        raise ValueError(
            "prevalence must be a whole number of percent (0.01, 0.02, ..., 0.99), so that "
            f"every pooled score stands for a whole number of test cases; got {prevalence!r}")
    n_positive_copies = round(percent)
    draws = np.random.default_rng(seed).standard_normal((2, n_pool))
    negatives, positives = np.sort(draws[0]), np.sort(draws[1]) + separation
    y_score = np.concatenate([np.repeat(negatives, 100 - n_positive_copies),
                              np.repeat(positives, n_positive_copies)])
    y_true = np.repeat(np.array([0, 1]), [(100 - n_positive_copies) * n_pool,
                                          n_positive_copies * n_pool])
    return y_true, y_score


def binormal_auc(separation: float) -> float:
    r"""The population AUC of a binormal scorer: negatives N(0, 1), positives N(d, 1).

    The AUC is the probability that a random positive outscores a random negative. The
    difference of the two scores is :math:`N(d, 2)`, so

    .. math::

        \mathrm{AUC}(d) = P(X_+ > X_-) = \Phi\!\left(\frac{d}{\sqrt 2}\right)
        = \tfrac12\left(1 + \operatorname{erf}(d / 2)\right),

    the binormal ROC curve's :math:`\Phi(a / \sqrt{1 + b^2})` with :math:`a = d`,
    :math:`b = 1` (Pepe 2003). :func:`binormal_test_set` draws a finite test set from this
    scorer; its :func:`roc_auc` approaches this value as ``n_pool`` grows.

    Parameters
    ----------
    separation : float
        :math:`d`, the positives' mean score (the negatives' is 0; both have SD 1). A
        negative :math:`d` gives an AUC below one half.

    Returns
    -------
    float
        The AUC, in [0, 1]; 0.5 at :math:`d = 0`.

    References
    ----------
    Pepe, M. S. (2003). The Statistical Evaluation of Medical Tests for Classification and
    Prediction. Oxford University Press, section 5.3 (the binormal ROC curve).
    Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area under a receiver
    operating characteristic (ROC) curve. Radiology 143(1), 29–36.

    Examples
    --------
    >>> round(binormal_auc(1.5), 4)  # Phi(1.5 / sqrt(2)) = Phi(1.0607)
    0.8556
    >>> binormal_auc(0.0)
    0.5
    >>> y_true, y_score = binormal_test_set(separation=1.5, n_pool=2000, seed=0)
    >>> round(roc_auc(y_true, y_score), 2)
    0.86
    """
    separation = check_scalar(separation, "separation")
    return 0.5 * (1.0 + math.erf(separation / 2.0))
