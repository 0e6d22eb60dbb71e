r"""Threshold curves of a scorer: ROC, precision-recall, and the area under the ROC curve.

A scorer gives every sample a number; a threshold turns the numbers into decisions ("positive
when the score is at least t"). Sweeping t from +inf down to the lowest score traces one
confusion matrix per distinct score, and every curve here is read off that one sweep
(:func:`confusion_at_thresholds`), as scikit-learn's ``_binary_clf_curve`` does.

The sweep sorts the positives' and the negatives' scores separately and counts, for each
threshold, how many of each lie at or above it with ``np.searchsorted``. Tied scores form one
threshold, so ties are handled as scikit-learn handles them: a tie between a positive and a
negative is a diagonal step of the ROC curve and counts one half in the AUC. There is no
Python loop over samples; the multi-class AUCs loop over classes (or pairs of classes) only.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ._results import make_result
from ._validation import (
    check_consistent_length,
    check_count,
    check_finite_scores,
    check_labels,
    check_option,
    check_same_label_kind,
)
from .exceptions import UndefinedMetricWarning

__all__ = [
    "confusion_at_thresholds",
    "roc_curve",
    "roc_auc",
    "precision_recall_curve",
    "youden_index",
    "ClassBalanceModel",
    "MULTI_CLASS",
]

#: The values ``multi_class`` accepts in :func:`roc_auc`.
MULTI_CLASS = (None, "ovr", "hand_till")


# --------------------------------------------------------------------------------------------
# The sweep
# --------------------------------------------------------------------------------------------


class _Sweep(NamedTuple):
    """The scores of the positives and of the negatives, each sorted ascending."""

    positives: np.ndarray
    negatives: np.ndarray

    @classmethod
    def of(cls, is_positive: np.ndarray, y_score: np.ndarray) -> _Sweep:
        return cls(np.sort(y_score[is_positive]), np.sort(y_score[~is_positive]))

    def counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Distinct thresholds (descending) and the TP and FP counts at each: score >= t."""
        # Two sorted runs: a stable sort (timsort) merges them in linear time.
        merged = np.sort(np.concatenate([self.positives, self.negatives]), kind="stable")
        distinct = np.empty(len(merged), dtype=bool)
        distinct[-1] = True
        np.not_equal(merged[1:], merged[:-1], out=distinct[:-1])
        thresholds = merged[distinct][::-1]
        tp = len(self.positives) - np.searchsorted(self.positives, thresholds, side="left")
        fp = len(self.negatives) - np.searchsorted(self.negatives, thresholds, side="left")
        return thresholds, tp, fp

    def pair_count(self) -> int:
        """Twice the Mann-Whitney U: 2 per positive-negative pair won by the positive, 1 per tie."""
        return _pair_count(self.positives, self.negatives)


def _pair_count(positives: np.ndarray, negatives: np.ndarray) -> int:
    # For each positive, the negatives strictly below it count 2, those tied with it 1:
    # below + (below or tied) = 2 * below + tied. Sorted needles keep searchsorted cache-friendly.
    # Tied positives share one search: look up each distinct positive score once.
    if len(positives) == 0 or len(negatives) == 0:
        return 0
    starts = np.flatnonzero(np.concatenate([[True], positives[1:] != positives[:-1]]))
    values = positives[starts]
    repeats = np.diff(np.append(starts, len(positives)))
    below = np.searchsorted(negatives, values, side="left")
    below_or_tied = np.searchsorted(negatives, values, side="right")
    return int(np.dot(below + below_or_tied, repeats))


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
    sweep = _Sweep.of(_positive_mask(y_true, pos_label), y_score)
    thresholds, tp, fp = sweep.counts()
    n_pos, n_neg = len(sweep.positives), len(sweep.negatives)
    tp = np.concatenate([[0], tp])
    fp = np.concatenate([[0], fp])
    return pd.DataFrame({
        "threshold": np.concatenate([[np.inf], thresholds]),
        "tp": tp, "fp": fp, "fn": n_pos - tp, "tn": n_neg - fp,
    })


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
    if not isinstance(drop_intermediate, (bool, np.bool_)):
        raise ValueError(f"drop_intermediate must be True or False; got {drop_intermediate!r}")
    y_true, y_score = _check_scores_and_labels(y_true, y_score)
    sweep = _Sweep.of(_positive_mask(y_true, pos_label), y_score)
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
    if not isinstance(drop_intermediate, (bool, np.bool_)):
        raise ValueError(f"drop_intermediate must be True or False; got {drop_intermediate!r}")
    y_true, y_score = _check_scores_and_labels(y_true, y_score)
    sweep = _Sweep.of(_positive_mask(y_true, pos_label), y_score)
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
    sweep = _Sweep.of(_positive_mask(y_true, pos_label), y_score)
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
    sweep = _Sweep.of(is_positive, y_score)
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
                u[a, b] = _pair_count(sorted_scores[a][:, a], sorted_scores[b][:, a])
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
# One scorer at any class balance: the state behind evalkit.widgets.ROCExplorer
# --------------------------------------------------------------------------------------------


def _check_share_of_positives(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"prevalence must be a share such as 0.05; got {value!r}")
    percent = float(value) * 100.0
    if not (np.isfinite(percent) and 1.0 - 1e-9 <= percent <= 99.0 + 1e-9):
        raise ValueError(f"prevalence must be between 0.01 and 0.99; got {value!r}")
    if abs(percent - round(percent)) > 1e-6:
        raise ValueError(
            f"prevalence must be a whole number of percent (0.01, 0.02, ..., 0.99), so that "
            f"every pooled score stands for a whole number of test cases; got {value!r}"
        )
    return round(percent) / 100.0


def _check_finite_real(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    return float(value)


@dataclass(eq=False)
class ClassBalanceModel:
    r"""One fixed scorer, tested at any class balance: confusion matrix, ROC and PR curves, cost.

    This is the state behind :class:`evalkit.widgets.ROCExplorer`. The scorer is *binormal*:
    a negative case's score is drawn from :math:`N(0, 1)`, a positive case's from
    :math:`N(d, 1)` with :math:`d` = ``separation``. A seeded generator draws ``n_pool``
    standard-normal values per class once; the positive scores are those values plus
    :math:`d`, so moving ``separation`` slides the positives without redrawing them. A case
    is predicted positive when its score is at least ``threshold``.

    **How the class balance is realised.** The test set always has
    :math:`n = 100 \cdot` ``n_pool`` cases. With a share :math:`\pi` of positives (a whole
    number of percent, :math:`100\pi`), every pooled positive score stands for :math:`100\pi`
    test cases and every pooled negative score for :math:`100(1 - \pi)`: the test set is the
    two pools repeated that many times. Repetition inside a class leaves every within-class
    share unchanged, so

    .. math::

        \mathrm{TPR}(t) = \frac{TP(t)}{P}, \qquad \mathrm{FPR}(t) = \frac{FP(t)}{N}

    and with them the ROC curve, its AUC and Youden's J are *exactly* the same at every
    balance: no resampling, so no sampling noise that could be mistaken for an effect of the
    balance. (Drawing a fresh test set per balance would leave only 1% of the cases positive
    at 1% prevalence, and the ROC curve would wobble for that reason alone.) Measures that mix
    the classes do move:

    .. math::

        \text{precision}(t) = \frac{\pi\,\mathrm{TPR}(t)}{\pi\,\mathrm{TPR}(t) +
        (1 - \pi)\,\mathrm{FPR}(t)}, \qquad
        \mathrm{cost}(t) = TN\,C_{00} + FP\,C_{01} + FN\,C_{10} + TP\,C_{11}.

    The counts are whole numbers and :meth:`test_set` returns the cases themselves, so any
    tool (scikit-learn included) gives the same numbers from them. The pools hold distinct
    scores with probability 1, so positives and negatives never tie.

    Parameters
    ----------
    prevalence : float, default 0.5
        Share of positives in the test set: 0.01, 0.02, ..., 0.99.
    threshold : float, default 1.0
        Predict positive when the score is at least this.
    separation : float, default 1.5
        Mean score of the positives (the negatives' is 0; both have standard deviation 1).
        The population AUC is :math:`\Phi(d / \sqrt{2})`.
    cost_matrix : array-like of shape (2, 2), optional
        ``[[C_TN, C_FP], [C_FN, C_TP]]`` (rows true class, columns predicted, in the order
        negative, positive), as in :func:`evalkit.cost_optimal_threshold`.
    n_pool : int, default 200
        Scores drawn per class; the test set has ``100 * n_pool`` cases.
    seed : int, default 0
        Seed of ``np.random.default_rng``.

    References
    ----------
    Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters 27(8),
    861–874 (section 4.2: ROC curves are insensitive to class distribution).
    Davis, J. and Goadrich, M. (2006). The relationship between precision-recall and ROC
    curves. ICML 2006, 233–240.

    Examples
    --------
    >>> model = ClassBalanceModel(prevalence=0.5, threshold=1.0, cost_matrix=[[0, 1], [10, 0]])
    >>> model.n_test, model.n_positive, model.n_negative
    (20000, 10000, 10000)
    >>> model.confusion()  # [[TN, FP], [FN, TP]]
    array([[8250, 1750],
           [3600, 6400]])
    >>> rates = model.rates()
    >>> rates["tpr"], rates["fpr"], round(rates["precision"], 3)
    (0.64, 0.175, 0.785)
    >>> auc = model.auc()
    >>> model.set(prevalence=0.01).confusion()
    array([[16335,  3465],
           [   72,   128]])
    >>> rare = model.rates()
    >>> rare["tpr"], rare["fpr"], round(rare["precision"], 3), model.auc() == auc
    (0.64, 0.175, 0.036, True)
    >>> round(auc, 4), model.cost()
    (0.8432, 4185.0)
    """

    prevalence: float = 0.5
    threshold: float = 1.0
    separation: float = 1.5
    cost_matrix: Any = None
    n_pool: int = 200
    seed: int = 0

    SETTINGS = ("prevalence", "threshold", "separation", "cost_matrix", "n_pool", "seed")

    def __post_init__(self) -> None:
        self._pool: dict[str, Any] = {}
        self.set(**{name: getattr(self, name) for name in self.SETTINGS})

    def set(self, **values: Any) -> ClassBalanceModel:
        """Change some of the settings (validated) and return the model."""
        from .costs import _check_binary_costs

        checked: dict[str, Any] = {}
        for name, value in values.items():
            if name == "prevalence":
                checked[name] = _check_share_of_positives(value)
            elif name in ("threshold", "separation"):
                checked[name] = _check_finite_real(value, name)
            elif name == "cost_matrix":
                checked[name] = None if value is None else _check_binary_costs(value)
            elif name in ("n_pool", "seed"):
                checked[name] = check_count(value, name, minimum=1 if name == "n_pool" else 0)
            else:
                raise ValueError(f"unknown setting {name!r}; expected one of "
                                 f"{', '.join(self.SETTINGS)}")
        for name, value in checked.items():
            setattr(self, name, value)
        return self

    # -- the scores ---------------------------------------------------------------------------

    def _standard_draws(self) -> tuple[np.ndarray, np.ndarray]:
        key = (self.n_pool, self.seed)
        if self._pool.get("key") != key:
            draws = np.random.default_rng(self.seed).standard_normal((2, self.n_pool))
            self._pool = {"key": key, "negative": np.sort(draws[0]),
                          "positive": np.sort(draws[1])}
        return self._pool["negative"], self._pool["positive"]

    @property
    def negative_scores(self) -> np.ndarray:
        """The pooled scores of the negatives, ascending (``n_pool`` of them)."""
        return self._standard_draws()[0]

    @property
    def positive_scores(self) -> np.ndarray:
        """The pooled scores of the positives, ascending: the standard draws + ``separation``."""
        return self._standard_draws()[1] + self.separation

    @property
    def weights(self) -> tuple[int, int]:
        """How many test cases each pooled (negative, positive) score stands for."""
        percent = round(self.prevalence * 100)
        return 100 - percent, percent

    @property
    def n_positive(self) -> int:
        """P, the positives in the test set."""
        return self.weights[1] * self.n_pool

    @property
    def n_negative(self) -> int:
        """N, the negatives in the test set."""
        return self.weights[0] * self.n_pool

    @property
    def n_test(self) -> int:
        """Cases in the test set, ``100 * n_pool`` at every balance."""
        return 100 * self.n_pool

    @property
    def population_auc(self) -> float:
        r"""The AUC of the binormal scorer itself, :math:`\Phi(d/\sqrt{2})`, without sampling."""
        return 0.5 * (1.0 + math.erf(self.separation / 2.0))

    def test_set(self) -> tuple[np.ndarray, np.ndarray]:
        """The test set's ``y_true`` (1 = positive) and ``y_score``: negatives first."""
        w_neg, w_pos = self.weights
        y_score = np.concatenate([np.repeat(self.negative_scores, w_neg),
                                  np.repeat(self.positive_scores, w_pos)])
        y_true = np.repeat(np.array([0, 1]), [self.n_negative, self.n_positive])
        return y_true, y_score

    # -- at the threshold ---------------------------------------------------------------------

    def confusion(self) -> np.ndarray:
        """``[[TN, FP], [FN, TP]]`` at the threshold (rows true, columns predicted)."""
        w_neg, w_pos = self.weights
        t = self.threshold
        tp = w_pos * (self.n_pool - int(np.searchsorted(self.positive_scores, t, side="left")))
        fp = w_neg * (self.n_pool - int(np.searchsorted(self.negative_scores, t, side="left")))
        return np.array([[self.n_negative - fp, fp], [self.n_positive - tp, tp]])

    def rates(self) -> dict[str, float]:
        """TPR (= recall), FPR, precision (NaN when nothing is predicted positive),
        specificity and accuracy at the threshold."""
        (tn, fp), (fn, tp) = self.confusion().tolist()
        return {
            "tpr": tp / self.n_positive,
            "fpr": fp / self.n_negative,
            "precision": tp / (tp + fp) if tp + fp else float("nan"),
            "recall": tp / self.n_positive,
            "specificity": tn / self.n_negative,
            "accuracy": (tp + tn) / self.n_test,
        }

    def _costs(self) -> np.ndarray:
        if self.cost_matrix is None:
            raise ValueError("cost_matrix is not set; pass cost_matrix=[[C_TN, C_FP], "
                             "[C_FN, C_TP]] to the model or to set()")
        return self.cost_matrix

    def cost(self) -> float:
        """Total cost of the test set's decisions at the threshold (needs ``cost_matrix``)."""
        return float((self.confusion() * self._costs()).sum())

    def expected_cost(self) -> float:
        """Cost per test case at the threshold (needs ``cost_matrix``)."""
        return self.cost() / self.n_test

    # -- over all thresholds ------------------------------------------------------------------

    def roc_curve(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(fpr, tpr, thresholds)`` of the test set, from :func:`evalkit.roc_curve`."""
        return roc_curve(*self.test_set())

    def pr_curve(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(precision, recall, thresholds)``, from :func:`evalkit.precision_recall_curve`."""
        return precision_recall_curve(*self.test_set())

    def auc(self) -> float:
        """Area under the ROC curve of the test set (:func:`evalkit.roc_auc`)."""
        return roc_auc(*self.test_set())

    def average_precision(self) -> float:
        r"""Average precision as scikit-learn defines it: :math:`\sum_k (R_k - R_{k-1}) P_k`
        over the thresholds (a step sum, not the trapezoidal area under the PR curve)."""
        precision, recall, _ = self.pr_curve()
        return float(-np.sum(np.diff(recall) * precision[:-1]))

    def youden(self) -> tuple[float, float]:
        """Youden's ``(threshold, J)`` (:func:`evalkit.curves.youden_index`): one per scorer,
        whatever the balance."""
        return youden_index(*self.test_set())

    def cost_optimal_threshold(self) -> tuple[float, float]:
        """The cheapest threshold at this balance and its total cost
        (:func:`evalkit.cost_optimal_threshold`; needs ``cost_matrix``)."""
        from .costs import cost_optimal_threshold

        return cost_optimal_threshold(*self.test_set(), self._costs())

    def summary(self) -> dict[str, Any]:
        """Every number the explorer shows, by name."""
        rates = self.rates()
        youden_threshold, youden_j = self.youden()
        shown: dict[str, Any] = {
            "n_test": self.n_test, "n_positive": self.n_positive,
            "n_negative": self.n_negative, "confusion": self.confusion(), **rates,
            "auc": self.auc(), "average_precision": self.average_precision(),
            "youden_threshold": youden_threshold, "youden_j": youden_j,
        }
        if self.cost_matrix is not None:
            best_threshold, best_cost = self.cost_optimal_threshold()
            shown.update(cost=self.cost(), expected_cost=self.expected_cost(),
                         cheapest_threshold=best_threshold, cheapest_cost=best_cost)
        return shown
