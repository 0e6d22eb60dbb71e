r"""Two learning algorithms compared over resampled training sets: does algorithm A learn a
better classifier than algorithm B from data like these? Unlike the tests of
:mod:`evalkit.stats.classifiers`, which hold the trained models fixed and resample the test
items, these tests also see the variance that retraining adds.

- :func:`five_by_two_cv_test`: Dietterich's 5x2cv paired t test and Alpaydin's combined F
  test on the differences of five repetitions of 2-fold cross-validation;
  :func:`five_by_two_cv_differences` produces those differences from two scikit-learn
  estimators.
- :func:`corrected_resampled_t_test`: Nadeau and Bengio's corrected t test for the
  differences of repeated random train/test splits.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .._lazy import lazy_module
from .._results import make_result
from .._validation import (
    as_array,
    check_bool,
    check_option,
    check_scalar,
    check_seed,
    keyword_only,
)
from ._common import (
    _check_at_least_two,
    _unit_scale,
)

stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)

__all__ = [
    "five_by_two_cv_test",
    "five_by_two_cv_differences",
    "FiveByTwoResult",
    "FIVE_BY_TWO_TESTS",
    "corrected_resampled_t_test",
    "CorrectedTTestResult",
]


#: The tests of :func:`five_by_two_cv_test`: Dietterich's t and Alpaydin's combined F.
FIVE_BY_TWO_TESTS = ("t", "f")

FiveByTwoResult = make_result(
    "FiveByTwoResult", ("statistic", "pvalue"),
    ("df", "test", "variances"),
    module=__name__,
    doc="The result of a 5x2cv test; unpacks like ``(statistic, pvalue)``. Also has the "
        "degrees of freedom ``df`` (5 for the t test, (10, 5) for the F test), the ``test`` "
        "and the five per-repetition ``variances`` :math:`s_i^2`.",
)

CorrectedTTestResult = make_result(
    "CorrectedTTestResult", ("statistic", "pvalue"),
    ("df", "mean_difference", "standard_error", "test_fraction"),
    module=__name__,
    doc="The result of Nadeau and Bengio's corrected resampled t test; unpacks like "
        "``(statistic, pvalue)``. Also has ``df`` (J - 1), the ``mean_difference``, its "
        "corrected ``standard_error`` and the ``test_fraction``.",
)


def _check_differences(values: Any, name: str = "differences") -> np.ndarray:
    if isinstance(values, pd.DataFrame):
        # Row-major, as a nested list or an ndarray: the sums add in the same order.
        array = np.ascontiguousarray(values.to_numpy())
    else:
        array = as_array(values, name)
    if array.dtype.kind not in "biuf" or array.dtype.kind == "b":
        raise ValueError(f"{name} must hold numbers (score differences); got dtype "
                         f"{array.dtype}")
    array = array.astype(np.float64)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or inf; differences must be finite numbers")
    return array


def _signed_ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator, with 0 / 0 = 0 and x / 0 = ±inf (no evidence / certainty)."""
    if denominator > 0:
        return numerator / denominator
    return 0.0 if numerator == 0 else math.copysign(math.inf, numerator)


@keyword_only
def five_by_two_cv_test(differences: Any, *, test: str = "t") -> FiveByTwoResult:
    r"""Dietterich's 5x2cv paired t test, or Alpaydin's combined 5x2cv F test.

    Do learning algorithms A and B differ in score when trained on data like these? Five
    times, split the data in two halves at random; train both on one half, score them on
    the other, then swap the halves: ``differences[i, j]`` is A's score minus B's on
    repetition *i*, fold *j* (:func:`five_by_two_cv_differences` computes them). With
    :math:`\bar d_i = (d_{i1} + d_{i2}) / 2` and :math:`s_i^2 = (d_{i1} - \bar d_i)^2 +
    (d_{i2} - \bar d_i)^2`:

    .. math::

        t = \frac{d_{11}}{\sqrt{\frac{1}{5} \sum_{i=1}^{5} s_i^2}} \sim t_5 \qquad
        F = \frac{\sum_{i=1}^{5} \sum_{j=1}^{2} d_{ij}^2}{2 \sum_{i=1}^{5} s_i^2}
        \sim F_{10, 5}

    ``"t"`` (Dietterich 1998) is two-sided, with the first difference (repetition 0, fold
    0) as its numerator, as ``mlxtend.evaluate.paired_ttest_5x2cv``; ``"f"`` (Alpaydin
    1999) uses all ten differences, so it does not depend on which one comes first, and is
    ``mlxtend.evaluate.combined_ftest_5x2cv`` (an F statistic is one-sided by nature: a
    large F is evidence of a difference in either direction).

    **What this test assumes.** The two halves of one repetition do not overlap, so the
    two differences of a repetition are nearly independent and :math:`s_i^2` estimates the
    variance of a difference, including the variation due to the training set; the
    :math:`s_i^2` of the five repetitions are treated as independent, and the differences
    as approximately normal. Training on half the data estimates the algorithms' behaviour
    on half-size training sets. Dietterich found the t test's type I error close to the
    nominal level where the t test over k-fold CV or resampled splits is liberal;
    Alpaydin's F is more robust to the choice of numerator and somewhat more powerful.

    **How to read the result.** A small p-value says the algorithms' scores differ by more
    than the variation over training and test sets explains. Report the mean difference
    (``differences.mean()``) as the effect. With only 5 degrees of freedom the test has
    little power: a large p-value is not evidence of equal performance.

    Parameters
    ----------
    differences : array-like of shape (5, 2)
        Score differences A - B: row *i* a repetition, column *j* a fold.
    test : {"t", "f"}, default "t"

    Returns
    -------
    FiveByTwoResult
        Unpacks like ``(statistic, pvalue)``; also ``.df`` (5, or (10, 5)), ``.test`` and
        ``.variances`` (the five :math:`s_i^2`). When every :math:`s_i^2` is 0, the
        statistic is 0 with p = 1 if its numerator is 0 too, else inf with p = 0.

    Raises
    ------
    ValueError
        ``differences`` not of shape (5, 2), not numbers, NaN or infinite; an unknown
        ``test``.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.
    Alpaydin, E. (1999). Combined 5 x 2 cv F test for comparing supervised classification
    learning algorithms. Neural Computation 11(8), 1885–1892.

    Examples
    --------
    >>> differences = [[0.030, 0.012], [0.021, 0.045], [0.008, 0.026],
    ...                [0.035, 0.019], [0.027, 0.014]]
    >>> result = five_by_two_cv_test(differences)
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (2.336, 0.0667, 5)
    >>> result = five_by_two_cv_test(differences, test="f")
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (4.1, 0.0664, (10, 5))
    """
    test = check_option(test, "test", FIVE_BY_TWO_TESTS)
    given = _check_differences(differences)
    if given.shape != (5, 2):
        raise ValueError(f"differences must be a 5x2 array (row: repetition, column: fold); "
                         f"got shape {given.shape}")
    scale = float(np.max(np.abs(given)))
    d = _unit_scale(given)  # t and F do not change; tiny differences cannot underflow
    variances = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    if test == "t":
        statistic = _signed_ratio(d[0, 0], math.sqrt(variances.mean()))
        pvalue = float(2.0 * stats.t.sf(abs(statistic), 5))
        df: Any = 5
    else:
        statistic = _signed_ratio(float((d**2).sum()), 2.0 * float(variances.sum()))
        pvalue = float(stats.f.sf(statistic, 10, 5))
        df = (10, 5)
    return FiveByTwoResult(float(statistic), pvalue, df=df, test=test,
                           variances=variances * scale**2)


def _require_sklearn() -> Any:
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise ImportError("five_by_two_cv_differences trains scikit-learn estimators: install "
                          "scikit-learn, e.g. pip install 'evalkit[notebooks]' (the notebooks "
                          "extra)") from None
    from sklearn import base, metrics, model_selection

    return base, metrics, model_selection


@keyword_only
def five_by_two_cv_differences(
    estimator_a: Any,
    estimator_b: Any,
    X: Any,
    y: Any,
    *,
    scoring: Any = None,
    seed: Any = None,
    stratify: bool = True,
) -> np.ndarray:
    r"""The 5x2 score differences of two scikit-learn estimators, for :func:`five_by_two_cv_test`.

    Five repetitions of 2-fold cross-validation: each splits the data into two halves
    (scikit-learn's ``StratifiedKFold(n_splits=2, shuffle=True)``, so both halves keep the
    class proportions), fits fresh clones of both estimators on one half and scores them on
    the other, then the other way round:

    .. math::

        d_{ij} = \mathrm{score}(A_{ij}) - \mathrm{score}(B_{ij}), \qquad i = 1..5,\ j = 1, 2

    where :math:`A_{ij}` is A trained on the half that fold *j* does not test on.

    With ``stratify=False`` each repetition is scikit-learn's ``train_test_split(X, y,
    test_size=0.5, random_state=...)`` instead, train on the first part and test on the
    second (fold 0), then the reverse (fold 1): exactly the splits of
    ``mlxtend.evaluate.paired_ttest_5x2cv(..., random_seed=seed)``, so an integer seed gives
    mlxtend's differences (its estimators are fitted in place; here clones are).

    **What this assumes.** The rows of ``X`` are independent (no groups of related rows
    that should stay on one side of a split), and the estimators' own randomness is fixed
    by their ``random_state`` if the result is to be repeatable.

    Parameters
    ----------
    estimator_a, estimator_b : scikit-learn estimators
        Unfitted (they are cloned, never modified).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    scoring : None, str or callable, optional
        A scikit-learn scorer name (``"accuracy"``, ``"f1_macro"``, ...) or a callable
        ``scorer(estimator, X, y)``; default accuracy for classifiers, R² for regressors (as
        mlxtend).
    seed : None, int or numpy.random.Generator, optional
        The five splits' seeds are ``np.random.RandomState(seed).randint(0, 32767)``, one
        per repetition, as mlxtend draws them (a Generator draws them with ``integers``).
    stratify : bool, default True
        Stratified halves (``StratifiedKFold``) or mlxtend's ``train_test_split`` halves.

    Returns
    -------
    ndarray of shape (5, 2)
        ``differences[i, j]``: A's score minus B's on repetition *i*, fold *j*.

    Raises
    ------
    ImportError
        scikit-learn is not installed (it comes with the ``notebooks`` extra).
    ValueError
        Bad ``seed`` or ``scoring``, or data scikit-learn refuses.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.
    Raschka, S. (2018). MLxtend: providing machine learning and data science utilities and
    extensions to Python's scientific computing stack. Journal of Open Source Software
    3(24), 638.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> differences = five_by_two_cv_differences(
    ...     LogisticRegression(max_iter=1000), DecisionTreeClassifier(random_state=0), X, y,
    ...     seed=1)
    >>> differences.shape
    (5, 2)
    >>> result = five_by_two_cv_test(differences)
    >>> bool(result.pvalue > 0.05)
    True
    """
    base, metrics, model_selection = _require_sklearn()
    stratify = check_bool(stratify, "stratify")
    if isinstance(seed, np.random.Generator):
        split_seeds = [int(s) for s in seed.integers(0, 32767, size=5)]
    else:
        check_seed(seed)  # the same rules for None and whole numbers
        state = np.random.RandomState(seed)
        split_seeds = [int(state.randint(low=0, high=32767)) for _ in range(5)]
    if scoring is None:
        if base.is_classifier(estimator_a):
            scoring = "accuracy"
        elif base.is_regressor(estimator_a):
            scoring = "r2"
        else:
            raise ValueError("scoring is needed: estimator_a is neither a scikit-learn "
                             "classifier nor a regressor")
    scorer = metrics.get_scorer(scoring) if isinstance(scoring, str) else scoring
    if not callable(scorer):
        raise TypeError(f"scoring must be None, a scorer name or a callable scorer(estimator, "
                        f"X, y); got {scoring!r}")
    X_array = X if hasattr(X, "iloc") else np.asarray(X)
    y_array = np.asarray(y)
    rows = np.arange(len(y_array))
    differences = np.empty((5, 2))
    for i, split_seed in enumerate(split_seeds):  # 5 x 2 fits: the work is in the fits
        if stratify:
            folds = model_selection.StratifiedKFold(n_splits=2, shuffle=True,
                                                    random_state=split_seed)
            splits = list(folds.split(rows, y_array))
        else:
            first, second = model_selection.train_test_split(rows, test_size=0.5,
                                                             random_state=split_seed)
            splits = [(first, second), (second, first)]
        for j, (train, test) in enumerate(splits):
            scores = []
            for estimator in (estimator_a, estimator_b):
                fitted = base.clone(estimator).fit(_rows(X_array, train), y_array[train])
                scores.append(float(scorer(fitted, _rows(X_array, test), y_array[test])))
            differences[i, j] = scores[0] - scores[1]
    return differences


def _rows(X: Any, index: np.ndarray) -> Any:
    return X.iloc[index] if hasattr(X, "iloc") else X[index]


@keyword_only
def corrected_resampled_t_test(differences: Any, *,
                               test_fraction: float) -> CorrectedTTestResult:
    r"""Nadeau and Bengio's corrected resampled t test for repeated random train/test splits.

    J times, split the data at random into a training set of :math:`n_1` rows and a test
    set of :math:`n_2` rows, train A and B, and record the difference of their test scores
    :math:`d_j`. The plain t test over the :math:`d_j` treats them as independent, but the
    training (and test) sets overlap, so the :math:`d_j` are positively correlated and the
    plain t test is badly liberal. Nadeau and Bengio correct the variance of the mean:

    .. math::

        t = \frac{\bar d}{\sqrt{\Bigl(\frac{1}{J} + \frac{n_2}{n_1}\Bigr) \hat\sigma^2}}
        \sim t_{J-1}, \qquad \frac{n_2}{n_1} = \frac{f}{1 - f}

    with :math:`\hat\sigma^2` the sample variance of the :math:`d_j` (ddof = 1) and
    :math:`f` = ``test_fraction`` = :math:`n_2 / n`. The p-value is two-sided. Without the
    :math:`n_2 / n_1` term this is the plain one-sample t test
    (``scipy.stats.ttest_1samp(differences, 0)``). Bouckaert and Frank (2004) apply the same
    correction to the :math:`J = r k` differences of r-times repeated k-fold cross-validation
    (:math:`f = 1/k`).

    **What this test assumes.** The :math:`d_j` come from independent random splits of the
    same data at one test fraction; the correlation between two of them is about
    :math:`n_2 / n` (Nadeau and Bengio's heuristic, which ignores the variation of the data
    set itself, so the test can still be somewhat liberal); the mean difference is roughly
    normal.

    **How to read the result.** A small p-value says the algorithms' mean scores differ by
    more than the split-to-split variation explains. ``mean_difference`` is the effect in
    score units, ``standard_error`` its corrected spread. More repetitions do not shrink
    the standard error below :math:`\hat\sigma \sqrt{n_2 / n_1}`: beyond a few dozen,
    they add little.

    Parameters
    ----------
    differences : array-like of shape (J,)
        Score differences A - B, one per random split (at least 2).
    test_fraction : float
        Share of the rows in each test set, :math:`n_2 / n`, in (0, 1).

    Returns
    -------
    CorrectedTTestResult
        Unpacks like ``(statistic, pvalue)``; also ``.df`` (J - 1), ``.mean_difference``,
        ``.standard_error`` (the corrected one) and ``.test_fraction``. When every
        difference is equal the statistic is 0 with p = 1 if they are 0, else ±inf with
        p = 0.

    Raises
    ------
    ValueError
        Fewer than 2 differences, not 1-D, NaN or infinite; ``test_fraction`` outside (0, 1).

    References
    ----------
    Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. Machine
    Learning 52(3), 239–281.
    Bouckaert, R. R. and Frank, E. (2004). Evaluating the replicability of significance
    tests for comparing learning algorithms. PAKDD 2004, 3–12.

    Examples
    --------
    >>> differences = [0.021, 0.035, 0.012, 0.028, 0.018, 0.030, 0.009, 0.026, 0.015, 0.024]
    >>> result = corrected_resampled_t_test(differences, test_fraction=0.2)
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (4.427, 0.0017, 9)
    """
    test_fraction = check_scalar(test_fraction, "test_fraction", low=0, high=1,
                                 low_inclusive=False, high_inclusive=False)
    d = _check_differences(differences)
    if d.ndim != 1:
        raise ValueError(f"differences must be 1-D, one difference per split; got shape "
                         f"{d.shape}")
    if d.size == 0:
        raise ValueError("differences is empty; expected at least 2 (one per split)")
    _check_at_least_two(d, "differences")
    scale = float(np.max(np.abs(d)))
    unit = _unit_scale(d)
    J = len(d)
    factor = 1.0 / J + test_fraction / (1.0 - test_fraction)
    spread = math.sqrt(factor * float(np.var(unit, ddof=1)))
    statistic = _signed_ratio(float(unit.mean()), spread)
    pvalue = float(2.0 * stats.t.sf(abs(statistic), J - 1))
    return CorrectedTTestResult(float(statistic), pvalue, df=J - 1,
                                mean_difference=float(d.mean()),
                                standard_error=spread * scale, test_fraction=test_fraction)
