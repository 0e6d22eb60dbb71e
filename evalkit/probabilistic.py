r"""Metrics of predicted probabilities: the probabilistic confusion matrix, cP, cR, cF1.

A classifier that outputs a probability for every class says more than its top class. The
thresholded metrics (precision, recall, F1) keep only the argmax; the metrics here keep the
probabilities: in the **probabilistic confusion matrix** and its **cPrecision, cRecall and
cF1** (Yacouby & Axman 2020) each sample spreads its probability mass over the columns of the
confusion matrix instead of putting 1 in the column of its top class; every averaging scheme
of :mod:`evalkit.classification` then applies unchanged, through the same code.

How well the probabilities are calibrated (the Brier score, the reliability curve, the
expected calibration error, temperature scaling) is the topic of :mod:`evalkit.calibration`;
its names are also importable from here, as they were before it was split off.

``y_proba`` is an (n, k) matrix whose rows sum to 1 and whose columns follow ``labels``
(default: the sorted labels of ``y_true``), or, for a binary problem, a 1-D array of the
probability of ``pos_label``. Every function validates it the same way: NaN, negative
values, rows that do not sum to 1 (within 1e-6), a 1-D array outside [0, 1], or a shape that
does not fit the labels raise a ``ValueError`` naming ``y_proba``.

Undefined values follow ``zero_division``, as in :mod:`evalkit.classification`: a ratio
whose denominator is 0 (cPrecision of a class that received no probability at all, cRecall
of a class absent from ``y_true``) is by default 0.0 with an
:class:`~evalkit.exceptions.UndefinedMetricWarning` naming the classes; ``zero_division=0.0``,
``1.0`` or ``np.nan`` chooses the value silently.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._averaging import AVERAGES, ClassCounts, average_scores
from ._docs import fill_doc
from ._probabilities import (
    ROW_SUM_TOLERANCE,  # noqa: F401 (evalkit.probabilistic's name)
    _check_probabilities,
    _Probabilities,
)
from ._validation import (
    check_labels,
    check_option,
    check_zero_division,
    keyword_only,
    select_labels,
)

# The calibration metrics lived here before evalkit.calibration was split off; they stay
# importable from here (evalkit.probabilistic.brier_score is evalkit.calibration.brier_score).
from .calibration import (
    BIN_STRATEGIES,
    CALIBRATION_NORMS,
    BrierDecomposition,
    brier_decomposition,
    brier_score,
    consistency_band,
    expected_calibration_error,
    reliability_curve,
    temperature_scale,
)

__all__ = [
    "probabilistic_confusion_matrix",
    "c_precision",
    "c_recall",
    "c_f1",
    "temperature_scale",
    "brier_score",
    "brier_decomposition",
    "BrierDecomposition",
    "expected_calibration_error",
    "reliability_curve",
    "consistency_band",
    "BIN_STRATEGIES",
    "CALIBRATION_NORMS",
]

#: The names the warnings of the probabilistic metrics use.
_NAMES = {"precision": "cPrecision", "recall": "cRecall", "f": "cF1"}

_CHUNK = 1 << 16  # rows per block when the full (k, k) matrix is built


# ---------------------------------------------------------------------------------------------
# The probabilistic confusion matrix and cPrecision, cRecall, cF1
# ---------------------------------------------------------------------------------------------


def _full_matrix(data: _Probabilities) -> np.ndarray:
    """M[r, h] = sum of p(h) over the samples of true class r, block by block."""
    k = data.n_classes
    matrix = np.zeros((k, k))
    identity = np.eye(k)
    for start in range(0, data.n_samples, _CHUNK):  # a loop over blocks, not samples
        stop = start + _CHUNK
        matrix += identity[data.codes[start:stop]].T @ data.proba[start:stop]
    return matrix


def _counts(data: _Probabilities) -> ClassCounts:
    """cTP, the predicted mass cTP + cFP, and the support of every column class.

    Only the diagonal of the probabilistic confusion matrix and its column sums are needed,
    and the validating scan gathered both.
    """
    support = np.bincount(data.codes, minlength=data.n_classes).astype(np.float64)
    return ClassCounts(data.classes, data.true_mass, data.column_sums, support, data.n_samples)


@keyword_only
def probabilistic_confusion_matrix(
    y_true: Any, y_proba: Any, *, labels: Any = None
) -> np.ndarray:
    r"""The probabilistic confusion matrix: each sample's probabilities summed by true class.

    .. math::

        M_{rh} = \sum_{i \,:\, y_i = r} p_i(h)

    Row *r* holds what the samples of true class *r* put on each class. With one-hot
    probabilities it is the ordinary confusion matrix; its row sums are the class counts and
    its diagonal is :math:`cTP` (Yacouby & Axman 2020, eq. 3).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities, rows summing to 1, columns in the order of ``labels``; or,
        for two classes, the probability of the greater label (of ``labels[1]``).
    labels : array-like, optional
        The class of each column. Default: the sorted labels of ``y_true``.

    Returns
    -------
    ndarray of float, shape (n_classes, n_classes)
        Rows are true classes, columns predicted classes, both in the order of ``labels``.

    References
    ----------
    Yacouby, R. and Axman, D. (2020). Probabilistic Extension of Precision, Recall, and F1
    Score for More Thorough Evaluation of Classification Models. Proceedings of the First
    Workshop on Evaluation and Comparison of NLP Systems, 79–91.

    Examples
    --------
    >>> y_true = ["cat", "dog", "dog"]
    >>> y_proba = [[0.7, 0.3], [0.4, 0.6], [0.1, 0.9]]
    >>> probabilistic_confusion_matrix(y_true, y_proba)
    array([[0.7, 0.3],
           [0.5, 1.5]])
    """
    if labels is not None:
        labels = check_labels(labels, "labels")
    y_true_checked = check_labels(y_true, "y_true")
    pos_label = labels[-1] if labels is not None and len(labels) == 2 else (
        np.unique(y_true_checked)[-1])
    data = _check_probabilities(y_true_checked, y_proba, labels, pos_label)
    return _full_matrix(data)


_PARAMETERS = """
Parameters
----------
y_true : array-like of shape (n_samples,)
    True labels (numbers or strings).
y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
    Predicted probabilities, rows summing to 1 (within 1e-6), columns in the order of
    ``labels``; or, for two classes, the probability of ``pos_label``.
average : {"binary", None, "micro", "macro", "weighted", "dodrans", "entropy", "macro_pr"}
    As in :func:`evalkit.precision`, by the same code: ``"binary"`` (default) scores
    ``pos_label``; ``None`` gives one score per class; ``"micro"`` pools cTP, cFP and the
    counts; the others weigh the per-class scores (:func:`evalkit.class_weights`).
pos_label : int or str, default 1
    The positive class for ``average="binary"`` and for a 1-D ``y_proba``.
labels : array-like, optional
    The class of each column of ``y_proba``, and the order of a per-class result.
    Default: the sorted labels of ``y_true``.
exclude : array-like, optional
    Classes left out of the average.
zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
    The value of a ratio whose denominator is 0 (a class never in ``y_true`` for cRecall;
    a class that gets no probability at all for cPrecision).
"""

_RETURNS = """
Returns
-------
float, or ndarray of float when ``average`` is None
"""

_REFERENCE = """
References
----------
Yacouby, R. and Axman, D. (2020). Probabilistic Extension of Precision, Recall, and F1
Score for More Thorough Evaluation of Classification Models. Proceedings of the First
Workshop on Evaluation and Comparison of NLP Systems, 79–91.
"""

_shared_docs = fill_doc(parameters=_PARAMETERS, returns=_RETURNS, reference=_REFERENCE)


def _c_metric(y_true: Any, y_proba: Any, *, want: str, average: Any, pos_label: Any,
              labels: Any, exclude: Any, zero_division: Any) -> Any:
    average = check_option(average, "average", AVERAGES)
    zero_division = check_zero_division(zero_division)
    data = _check_probabilities(y_true, y_proba, labels, pos_label)
    counts = _counts(data)
    chosen = select_labels(data.classes, average, None, exclude, pos_label, data.classes)
    if chosen is not None:
        counts = counts.subset(np.isin(counts.labels, chosen))
    return average_scores(counts, average, want=want, zero_division=zero_division,
                          names=_NAMES)


@keyword_only
@_shared_docs
def c_precision(
    y_true: Any,
    y_proba: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Confidence-precision: the share of the probability put on a class that was right.

    .. math::

        cTP_j = \sum_{i : y_i = j} p_i(j), \qquad cFP_j = \sum_{i : y_i \ne j} p_i(j),
        \qquad \mathrm{cPrecision}_j = \frac{cTP_j}{cTP_j + cFP_j}

    The denominator is the whole probability mass the model gave class *j*, so cPrecision is
    undefined only when no sample gave class *j* any probability at all, where precision is
    undefined as soon as *j* is never the top class.

    {{parameters}}

    {{returns}}

    {{reference}}

    Examples
    --------
    >>> y_true = [0, 1, 1, 0]
    >>> y_proba = [0.2, 0.9, 0.6, 0.3]  # probability of class 1
    >>> round(c_precision(y_true, y_proba), 4)  # 1.5 / (1.5 + 0.5)
    0.75
    """
    return _c_metric(y_true, y_proba, want="precision", average=average, pos_label=pos_label,
                     labels=labels, exclude=exclude, zero_division=zero_division)


@keyword_only
@_shared_docs
def c_recall(
    y_true: Any,
    y_proba: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Confidence-recall: the mean probability the samples of a class gave their true class.

    .. math::

        \mathrm{cRecall}_j = \frac{cTP_j}{TP_j + FN_j} = \frac{1}{n_j} \sum_{i : y_i = j} p_i(j)

    The denominator is the number of samples of class *j*, as for recall: Yacouby & Axman
    keep the count, not a probabilistic :math:`cTP + cFN`, because the truth is not
    uncertain (section 3.1). (With rows summing to 1, :math:`cFN_j = n_j - cTP_j`, so the two
    would agree anyway.) The binary form is the one of Kaggle's RSNA ``pfbeta``.

    {{parameters}}

    {{returns}}

    {{reference}}

    Examples
    --------
    >>> y_true = [0, 1, 1, 0]
    >>> y_proba = [0.2, 0.9, 0.6, 0.3]
    >>> round(c_recall(y_true, y_proba), 4)  # (0.9 + 0.6) / 2
    0.75
    >>> c_recall(y_true, y_proba, average=None).round(4)  # class 0: (0.8 + 0.7) / 2
    array([0.75, 0.75])
    """
    return _c_metric(y_true, y_proba, want="recall", average=average, pos_label=pos_label,
                     labels=labels, exclude=exclude, zero_division=zero_division)


@keyword_only
@_shared_docs
def c_f1(
    y_true: Any,
    y_proba: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Confidence-F1: the harmonic mean of cPrecision and cRecall.

    .. math::

        \mathrm{cF1}_j = \frac{2\, \mathrm{cPrecision}_j\, \mathrm{cRecall}_j}
                              {\mathrm{cPrecision}_j + \mathrm{cRecall}_j}
                       = \frac{2\, cTP_j}{2\, cTP_j + cFP_j + cFN_j},
        \quad cFN_j = n_j - cTP_j

    With one-hot probabilities (the argmax as a probability of 1) cF1 is F1. The count form
    on the right is used, as for :func:`evalkit.f1_score`.

    {{parameters}}

    {{returns}}

    {{reference}}

    Examples
    --------
    >>> y_true = [0, 1, 1, 0]
    >>> y_proba = [0.2, 0.9, 0.6, 0.3]
    >>> round(c_f1(y_true, y_proba), 4)
    0.75
    >>> c_f1(y_true, [0, 1, 1, 0]) == 1.0  # one-hot: the ordinary F1
    True
    """
    return _c_metric(y_true, y_proba, want="f", average=average, pos_label=pos_label,
                     labels=labels, exclude=exclude, zero_division=zero_division)
