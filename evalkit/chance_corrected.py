r"""Chance-corrected single numbers of a confusion matrix: MCC, balanced accuracy,
informedness and markedness.

Accuracy, precision, recall and F reward a classifier for agreeing with the class
distribution, even by luck: predicting the majority class of a 95:5 test set gives 95%
accuracy. The measures here are 0 (or, for plain balanced accuracy, 1/K) for any prediction
made without looking at the item, and 1 for a perfect one (Powers 2011):

- :func:`matthews_corrcoef`: the correlation of the true and predicted labels (Matthews
  1975; Gorodkin 2004's :math:`R_K` for K classes), as scikit-learn's;
- :func:`balanced_accuracy`: the mean recall over the classes (Brodersen et al. 2010), as
  scikit-learn's ``balanced_accuracy_score``, optionally adjusted for chance;
- :func:`informedness` (TPR + TNR - 1, Youden's J) and :func:`markedness` (PPV + NPV - 1)
  of each class against the rest, with the averages of :func:`evalkit.precision`.

Each function follows the path of :mod:`evalkit.classification`: check the labels and
options (:mod:`evalkit._validation`), count one confusion matrix (:mod:`evalkit._counting`),
call the measure's kernel (:mod:`evalkit._chance`), which :func:`evalkit.bootstrap_ci` and
:func:`evalkit.compare_classifiers` also call on stacks of resampled matrices.
:mod:`evalkit.classification` re-exports all four.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._chance import (
    CHANCE_AVERAGES,
    REFUSED_AVERAGES,
    balanced_accuracy_of_stack,
    chance_of_stack,
    matthews_of_stack,
)
from ._confusion_stack import one_matrix, stacked
from ._docs import fill_doc
from ._validation import (
    check_bool,
    check_label_choice,
    check_option,
    check_zero_division,
    keyword_only,
)

__all__ = [
    "matthews_corrcoef",
    "balanced_accuracy",
    "informedness",
    "markedness",
    "CHANCE_AVERAGES",
]


def _matthews_options(y_true: np.ndarray, *, zero_division: Any) -> dict:
    """The checked options of :func:`evalkit._chance.matthews_of_stack`."""
    return {"zero_division": check_zero_division(zero_division)}


def _balanced_options(y_true: np.ndarray, *, adjusted: Any, zero_division: Any) -> dict:
    """The checked options of :func:`evalkit._chance.balanced_accuracy_of_stack`."""
    return {"adjusted": check_bool(adjusted, "adjusted"),
            "zero_division": check_zero_division(zero_division)}


def _chance_options(want: str) -> Any:
    """The ``options`` of informedness or markedness (``want``): the checked options of
    :func:`evalkit._chance.chance_of_stack`."""

    def options(y_true: np.ndarray, *, average: Any, pos_label: Any, labels: Any,
                exclude: Any, zero_division: Any) -> dict:
        if isinstance(average, str) and average.casefold() in REFUSED_AVERAGES:
            raise ValueError(REFUSED_AVERAGES[average.casefold()].format(name=want))
        average = check_option(average, "average", CHANCE_AVERAGES)
        return {
            "want": want,
            "average": average,
            "zero_division": check_zero_division(zero_division),
            "choice": check_label_choice(y_true, average, labels, exclude, pos_label),
        }

    return options


@stacked(matthews_of_stack, _matthews_options)
@keyword_only
def matthews_corrcoef(y_true: Any, y_pred: Any, *, zero_division: Any = "warn") -> float:
    r"""Matthews' correlation coefficient (MCC): the correlation of true and predicted labels.

    For two classes, Matthews' (1975) phi coefficient of the 2x2 table:

    .. math::

        \mathrm{MCC} = \frac{TP \cdot TN - FP \cdot FN}
                            {\sqrt{(TP + FP)(TP + FN)(TN + FP)(TN + FN)}}
                     = \pm\sqrt{\mathrm{informedness} \cdot \mathrm{markedness}}

    For K classes, Gorodkin's (2004) :math:`R_K`, from the trace :math:`c` of the confusion
    matrix, the number of samples :math:`s` and each class's true and predicted totals
    :math:`t_k`, :math:`p_k`:

    .. math::

        R_K = \frac{c\, s - \sum_k p_k t_k}
                   {\sqrt{\bigl(s^2 - \sum_k p_k^2\bigr)\bigl(s^2 - \sum_k t_k^2\bigr)}}

    It lies in [-1, 1] (its minimum is above -1 for K > 2), is 0 for a prediction that is
    independent of the truth and 1 for a perfect one, and is symmetric in ``y_true`` and
    ``y_pred``. The values are those of scikit-learn's ``matthews_corrcoef``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (numbers or strings).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
        The value when the denominator is 0 (``y_true`` or ``y_pred`` holds one class only).
        ``"warn"`` gives 0.0, scikit-learn's value, and an
        :class:`~evalkit.exceptions.UndefinedMetricWarning`.

    Returns
    -------
    float

    References
    ----------
    Matthews, B. W. (1975). Comparison of the predicted and observed secondary structure of
    T4 phage lysozyme. Biochimica et Biophysica Acta 405(2), 442–451.
    Gorodkin, J. (2004). Comparing two K-category assignments by a K-category correlation
    coefficient. Computational Biology and Chemistry 28(5–6), 367–374.
    Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC,
    informedness, markedness and correlation. Journal of Machine Learning Technologies
    2(1), 37–63.

    Examples
    --------
    >>> y_true = [1] * 6 + [0] * 4
    >>> y_pred = [1] * 5 + [0] + [1] * 2 + [0] * 2   # TP = 5, FN = 1, FP = 2, TN = 2
    >>> round(matthews_corrcoef(y_true, y_pred), 4)   # (5 * 2 - 2 * 1) / sqrt(7 * 6 * 4 * 3)
    0.3563
    >>> round(matthews_corrcoef(["a", "b", "c", "c"], ["a", "c", "c", "b"]), 4)
    0.2
    """
    return one_matrix(matthews_of_stack, _matthews_options, y_true, y_pred,
                       zero_division=zero_division)


@stacked(balanced_accuracy_of_stack, _balanced_options)
@keyword_only
def balanced_accuracy(y_true: Any, y_pred: Any, *, adjusted: bool = False,
                      zero_division: Any = "warn") -> float:
    r"""Balanced accuracy: the mean of the recalls of the classes of ``y_true``.

    .. math::

        \mathrm{BA} = \frac{1}{K} \sum_{i=1}^{K} \frac{TP_i}{n_i}, \qquad
        \mathrm{BA}_{\mathrm{adjusted}} = \frac{\mathrm{BA} - 1/K}{1 - 1/K}

    over the K classes that occur in ``y_true`` (:math:`n_i` true samples each; a class
    only predicted adds errors, not a term). For two classes BA = (TPR + TNR) / 2 and the
    adjusted value is informedness, TPR + TNR - 1. Any prediction made without looking at
    the item has expected BA = 1/K, and adjusted BA = 0 (Brodersen et al. 2010; Kelleher
    et al. 2015). The values are those of scikit-learn's ``balanced_accuracy_score``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels (numbers or strings).
    adjusted : bool, default False
        Rescale so that chance scores 0 and a perfect prediction 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
        The adjusted value when ``y_true`` holds one class only (chance is then 1):
        ``"warn"`` gives 0.0 and an :class:`~evalkit.exceptions.UndefinedMetricWarning`.
        (scikit-learn returns NaN or -inf there.)

    Returns
    -------
    float

    References
    ----------
    Brodersen, K. H., Ong, C. S., Stephan, K. E. and Buhmann, J. M. (2010). The balanced
    accuracy and its posterior distribution. ICPR 2010, 3121–3124.
    Kelleher, J. D., Mac Namee, B. and D'Arcy, A. (2015). Fundamentals of Machine Learning
    for Predictive Data Analytics. MIT Press (the adjusted form).

    Examples
    --------
    >>> y_true = [0] * 8 + [1] * 2
    >>> y_pred = [0] * 10                       # always the majority class
    >>> balanced_accuracy(y_true, y_pred), balanced_accuracy(y_true, y_pred, adjusted=True)
    (0.5, 0.0)
    >>> balanced_accuracy(["a", "a", "b", "c"], ["a", "b", "b", "b"])
    0.5
    """
    return one_matrix(balanced_accuracy_of_stack, _balanced_options, y_true, y_pred,
                       adjusted=adjusted, zero_division=zero_division)


_PARAMETERS = """
Parameters
----------
y_true, y_pred : array-like of shape (n_samples,)
    True and predicted labels (numbers or strings).
average : {"binary", None, "macro", "weighted", "dodrans", "entropy"}
    ``"binary"`` (default): the value of ``pos_label`` (at most two classes; both classes
    have the same value then). ``None``: one value per class, in the order of ``labels``
    (default: sorted). ``"macro"``: the unweighted mean over the classes (pycm's
    ``average``). ``"weighted"``, ``"dodrans"``, ``"entropy"``: the mean weighted by
    :func:`~evalkit.class_weights` of the supports (n_i, n_i^3/4, -n_i log2(n_i/N));
    ``"weighted"`` is pycm's ``weighted_average``. ``"micro"`` and ``"macro_pr"`` raise a
    ValueError that says why: pooled one-against-the-rest counts give
    (K accuracy - 1) / (K - 1) for both measures, accuracy rescaled and not corrected for
    chance, and the mean of the two rates is already the macro mean.
pos_label : int or str, default 1
    The positive class when ``average="binary"``; ignored otherwise.
labels : array-like, optional
    The classes to report (``average=None``) or average over. Counts always use all
    samples, so TN and FP count the samples of every other class.
exclude : array-like, optional
    Classes left out of the average (e.g. a "no relation" class).
zero_division : {"warn", 0.0, 1.0, np.nan}, default "warn"
    The value of a class whose two rates are not both defined (a zero denominator).
    ``"warn"`` gives 0.0, the chance level, and an
    :class:`~evalkit.exceptions.UndefinedMetricWarning`; NaN values are left out of
    averages (with a warning).
"""

_RETURNS = """
Returns
-------
float, or ndarray of float when ``average`` is None
"""

_REFERENCES = """
References
----------
Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC,
informedness, markedness and correlation. Journal of Machine Learning Technologies 2(1),
37–63.
Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3(1), 32–35.
"""

_shared_docs = fill_doc(parameters=_PARAMETERS, returns=_RETURNS, references=_REFERENCES)


@stacked(chance_of_stack, _chance_options("informedness"))
@keyword_only
@_shared_docs
def informedness(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Informedness (bookmaker informedness, Youden's J): TPR + TNR - 1 of a class.

    .. math::

        B_i = \frac{TP_i}{TP_i + FN_i} + \frac{TN_i}{TN_i + FP_i} - 1
            = \mathrm{TPR}_i - \mathrm{FPR}_i

    with class *i* as positive and every other class as negative. It is the probability
    that the prediction is informed about the truth rather than a guess (Powers 2011): 0
    for any prediction made without looking at the item (a constant, a coin), 1 for a
    perfect one, negative for a perverse one. For two classes it is Youden's (1950) J and
    twice balanced accuracy minus 1; it is the height of an ROC point above the diagonal.

    {{parameters}}

    {{returns}}

    {{references}}

    Examples
    --------
    >>> y_true = [1] * 6 + [0] * 4
    >>> y_pred = [1] * 5 + [0] + [1] * 2 + [0] * 2   # TPR = 5/6, TNR = 2/4
    >>> round(informedness(y_true, y_pred), 4)
    0.3333
    >>> y_true = ["cat", "cat", "dog", "dog", "eel"]
    >>> y_pred = ["cat", "dog", "dog", "dog", "eel"]
    >>> informedness(y_true, y_pred, average=None).round(4)
    array([0.5   , 0.6667, 1.    ])
    >>> round(informedness(y_true, y_pred, average="macro"), 4)
    0.7222
    """
    return one_matrix(chance_of_stack, _chance_options("informedness"), y_true, y_pred,
                       average=average, pos_label=pos_label, labels=labels, exclude=exclude,
                       zero_division=zero_division)


@stacked(chance_of_stack, _chance_options("markedness"))
@keyword_only
@_shared_docs
def markedness(
    y_true: Any,
    y_pred: Any,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: Any = None,
    exclude: Any = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Markedness: PPV + NPV - 1 of a class, the dual of :func:`informedness`.

    .. math::

        M_i = \frac{TP_i}{TP_i + FP_i} + \frac{TN_i}{TN_i + FN_i} - 1

    with class *i* as positive and every other class as negative: how far the prediction
    marks the truth, the probability that the true class is marked by the prediction rather
    than by chance (Powers 2011). It is informedness with the roles of truth and prediction
    swapped (``markedness(a, b) == informedness(b, a)``), and for two classes
    :math:`\mathrm{MCC}^2 = B \cdot M`.

    {{parameters}}

    {{returns}}

    {{references}}

    Examples
    --------
    >>> y_true = [1] * 6 + [0] * 4
    >>> y_pred = [1] * 5 + [0] + [1] * 2 + [0] * 2   # PPV = 5/7, NPV = 2/3
    >>> round(markedness(y_true, y_pred), 4)
    0.381
    >>> y_true = ["cat", "cat", "dog", "dog", "eel"]
    >>> y_pred = ["cat", "dog", "dog", "dog", "eel"]
    >>> markedness(y_true, y_pred, average=None).round(4)
    array([0.75  , 0.6667, 1.    ])
    >>> round(markedness(y_true, y_pred, average="weighted"), 4)
    0.7667
    """
    return one_matrix(chance_of_stack, _chance_options("markedness"), y_true, y_pred,
                       average=average, pos_label=pos_label, labels=labels, exclude=exclude,
                       zero_division=zero_division)
