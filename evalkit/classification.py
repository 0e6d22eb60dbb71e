r"""Set-based evaluation: confusion matrices, accuracy, precision, recall and the F measure.

Every metric here depends only on the confusion matrix, so each public function follows one
path, downwards: validate the labels and options (:mod:`evalkit._validation`), count the
labels into one confusion matrix with a single ``np.bincount`` (:mod:`evalkit._counting`),
then call the metric's kernel (:mod:`evalkit._averaging`), which divides and averages. The
kernel is the formula's one home: :func:`evalkit.bootstrap_ci` and
:func:`evalkit.compare_classifiers` call it on a stack of resampled matrices
(:mod:`evalkit._confusion_stack`). There is no Python loop over samples.

The chance-corrected numbers (:func:`matthews_corrcoef`, :func:`balanced_accuracy`,
:func:`informedness`, :func:`markedness`) follow the same path from
:mod:`evalkit.chance_corrected` (kernels in :mod:`evalkit._chance`) and are re-exported here.

The same functions serve set retrieval (relevant/not relevant, retrieved/not retrieved) and
classification (any number of classes); the signatures follow scikit-learn's so that each
works with ``sklearn.metrics.make_scorer``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from ._averaging import (
    AVERAGES,
    WEIGHT_SCHEMES,
    accuracy_of_correct,
    accuracy_of_stack,
    average_scores,
    choose_labels,
    counts_from_matrix,
    error_rate_of_correct,
    error_rate_of_stack,
    matrix_over,
    ratio_of_stack,
    weights_of,
)
from ._confusion_stack import one_matrix, stacked
from ._counting import count_correct, full_confusion
from ._docs import fill_doc
from ._validation import (
    check_1d,
    check_label_choice,
    check_label_list,
    check_label_pair,
    check_option,
    check_scalar,
    check_zero_division,
    keyword_only,
)
from .chance_corrected import balanced_accuracy, informedness, markedness, matthews_corrcoef

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
    "matthews_corrcoef",
    "balanced_accuracy",
    "informedness",
    "markedness",
    "AVERAGES",
    "WEIGHT_SCHEMES",
]


def _ratio_options(y_true: np.ndarray, *, want: str, beta: Any = 1.0, average: Any,
                   pos_label: Any, labels: Any, exclude: Any, zero_division: Any) -> dict:
    """The checked options of :func:`evalkit._averaging.ratio_of_stack` for ``want``."""
    average = check_option(average, "average", AVERAGES)
    return {
        "want": want,
        "average": average,
        # Only F reads beta (precision and the rest take none).
        "beta": check_scalar(beta, "beta", low=0, allow_inf=True) if want == "f" else 1.0,
        "zero_division": check_zero_division(zero_division),
        "choice": check_label_choice(y_true, average, labels, exclude, pos_label),
    }


def _ratio_metric(y_true: Any, y_pred: Any, **arguments: Any) -> Any:
    """Check, count one confusion matrix, and call the ratios' kernel on it."""
    return one_matrix(ratio_of_stack, _ratio_options, y_true, y_pred, **arguments)


def _options_of(want: str, **fixed: Any) -> Any:
    """The ``options`` a ratio metric registers: :func:`_ratio_options` for ``want``."""

    def options(y_true: np.ndarray, **arguments: Any) -> dict:
        return _ratio_options(y_true, want=want, **fixed, **arguments)

    return options


def _no_options(y_true: np.ndarray) -> dict:
    """The options of a metric that has none (accuracy, error rate)."""
    return {}


# --------------------------------------------------------------------------------------------
# Public metrics
# --------------------------------------------------------------------------------------------


@keyword_only
def confusion_matrix(y_true: Any, y_pred: Any, *, labels: Any = None) -> np.ndarray:
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
    y_true, y_pred = check_label_pair(y_true, y_pred)
    if labels is None:
        return full_confusion(y_true, y_pred)[1]
    wanted = check_label_list(labels, y_true)
    classes, matrix = full_confusion(y_true, y_pred)
    return matrix_over(classes, matrix, wanted)


@stacked(accuracy_of_stack, _no_options, formula=accuracy_of_correct)
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
    y_true, y_pred = check_label_pair(y_true, y_pred)
    return float(accuracy_of_correct(count_correct(y_true, y_pred), len(y_true)))


@stacked(error_rate_of_stack, _no_options, formula=error_rate_of_correct)
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
    y_true, y_pred = check_label_pair(y_true, y_pred)
    return float(error_rate_of_correct(count_correct(y_true, y_pred), len(y_true)))


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

_shared_docs = fill_doc(parameters=_COMMON_PARAMETERS, returns=_RETURNS)


@stacked(ratio_of_stack, _options_of("precision"))
@keyword_only
@_shared_docs
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

    {{parameters}}

    {{returns}}

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
    return _ratio_metric(y_true, y_pred, want="precision", average=average,
                         pos_label=pos_label, labels=labels, exclude=exclude,
                         zero_division=zero_division)


@stacked(ratio_of_stack, _options_of("recall"))
@keyword_only
@_shared_docs
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

    {{parameters}}

    {{returns}}

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
    return _ratio_metric(y_true, y_pred, want="recall", average=average, pos_label=pos_label,
                         labels=labels, exclude=exclude, zero_division=zero_division)


@stacked(ratio_of_stack, _options_of("f"))
@keyword_only
@_shared_docs
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

    {{parameters}}
    beta : float, default 1.0
        How many times more recall matters than precision (van Rijsbergen's β), >= 0.

    {{returns}}

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
    return _ratio_metric(y_true, y_pred, want="f", beta=beta, average=average,
                         pos_label=pos_label, labels=labels, exclude=exclude,
                         zero_division=zero_division)


@stacked(ratio_of_stack, _options_of("f", beta=1.0))
@keyword_only
@_shared_docs
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

    {{parameters}}

    {{returns}}

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
    return _ratio_metric(y_true, y_pred, want="f", beta=1.0, average=average,
                         pos_label=pos_label, labels=labels, exclude=exclude,
                         zero_division=zero_division)


@stacked(ratio_of_stack, _options_of("recall"))
@keyword_only
@_shared_docs
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

    {{parameters}}

    {{returns}}

    References
    ----------
    Altman, D. G. and Bland, J. M. (1994). Diagnostic tests 1: sensitivity and specificity.
    BMJ 308, 1552.

    Examples
    --------
    >>> sensitivity([1, 1, 1, 0], [1, 1, 0, 0])
    0.6666666666666666
    """
    return _ratio_metric(y_true, y_pred, want="recall", average=average, pos_label=pos_label,
                         labels=labels, exclude=exclude, zero_division=zero_division)


@stacked(ratio_of_stack, _options_of("specificity"))
@keyword_only
@_shared_docs
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

    {{parameters}}

    {{returns}}

    References
    ----------
    Altman, D. G. and Bland, J. M. (1994). Diagnostic tests 1: sensitivity and specificity.
    BMJ 308, 1552.

    Examples
    --------
    >>> specificity([1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0])
    0.6666666666666666
    """
    return _ratio_metric(y_true, y_pred, want="specificity", average=average,
                         pos_label=pos_label, labels=labels, exclude=exclude,
                         zero_division=zero_division)


@keyword_only
def class_weights(support: Any, *, scheme: str, n_samples: int | None = None) -> np.ndarray:
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
    >>> class_weights([1, 9], scheme="macro")
    array([0.5, 0.5])
    >>> class_weights([1, 9], scheme="weighted")
    array([0.1, 0.9])
    >>> class_weights([1, 9], scheme="dodrans").round(3)
    array([0.161, 0.839])
    """
    support = check_1d(support, "support")
    if support.dtype.kind not in "biuf" or np.any(support < 0):
        raise ValueError("support must hold non-negative counts")
    scheme = check_option(scheme, "scheme", WEIGHT_SCHEMES)
    return weights_of(support, scheme, n_samples=n_samples)


#: The averaging rows of :func:`classification_report`, in order.
REPORT_AVERAGES = ("micro", "macro", "macro_pr", "weighted", "dodrans", "entropy")


@keyword_only
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
    beta = check_scalar(beta, "beta", low=0, allow_inf=True)
    zero_division = check_zero_division(zero_division)
    y_true, y_pred = check_label_pair(y_true, y_pred)
    choice = check_label_choice(y_true, None, labels, exclude, None)
    classes, matrix = full_confusion(y_true, y_pred)
    counts = counts_from_matrix(classes, matrix, choice.labels, len(y_true))
    averaged = counts
    if exclude is not None:
        # The averaging rows leave the excluded classes out of the listed ones.
        keep_labels = choose_labels(counts.labels, None, choice._replace(labels=None))
        averaged = counts.subset(np.isin(counts.labels, keep_labels))
    columns = {"precision": "precision", "recall": "recall", "f": "f_score"}
    # Each table's per-class ratios and class weights are made once, for all of its rows.
    memo: dict[Any, np.ndarray] = {}
    averaged_memo = memo if averaged is counts else {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = {name: list(average_scores(counts, None, want=want, beta=beta,
                                           zero_division=zero_division, memo=memo))
                 for want, name in columns.items()}
        for average in REPORT_AVERAGES:
            for want, name in columns.items():
                table[name].append(average_scores(averaged, average, want=want, beta=beta,
                                                  zero_division=zero_division,
                                                  memo=averaged_memo))
    seen = set()
    for warning in caught:
        key = (warning.category, str(warning.message))
        if key not in seen:
            seen.add(key)
            warnings.warn(warning.message, warning.category, stacklevel=2)
    columns_of = {name: np.array(values, dtype=np.float64) for name, values in table.items()}
    columns_of["support"] = np.concatenate([
        counts.support, np.full(len(REPORT_AVERAGES), averaged.support.sum())
    ]).astype(np.int64)
    index = pd.Index(list(counts.labels.tolist()) + list(REPORT_AVERAGES), name="class",
                     dtype=object)
    return pd.DataFrame(columns_of, index=index)


for _function in (precision, recall, f_score, f1_score, sensitivity, specificity):
    _function.__doc__ = _function.__doc__.replace(
        "<<parameters>>", _COMMON_PARAMETERS.strip()).replace("<<returns>>", _RETURNS.strip())
