r"""McNemar's test: do two classifiers, scored on the same test items, get different items
right more often one way than the other? (McNemar 1947; Edwards 1948; Dietterich 1998;
Fagerland, Lydersen & Laake 2013.) Any other metric of two classifiers on one test set is
compared by :func:`evalkit.stats.compare_classifiers`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._lazy import lazy_module
from .._results import make_result
from .._validation import (
    check_consistent_length,
    check_labels,
    check_option,
    keyword_only,
)

stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)

__all__ = ["mcnemar_test", "McNemarResult", "MCNEMAR_METHODS"]

#: The ways :func:`mcnemar_test` turns the discordant counts into a p-value.
MCNEMAR_METHODS = ("exact", "mid-p", "chi2", "chi2-uncorrected")

McNemarResult = make_result(
    "McNemarResult", ("statistic", "pvalue"),
    ("a_only_correct", "b_only_correct", "both_correct", "both_wrong", "method"),
    module=__name__,
    doc="The result of McNemar's test; unpacks like ``(statistic, pvalue)``. Also has the "
        "discordant counts ``a_only_correct`` (items only classifier A gets right) and "
        "``b_only_correct`` (only B right), the concordant ``both_correct`` and "
        "``both_wrong``, and the ``method``.",
)


def _check_predictions(y_true: Any, y_pred_a: Any, y_pred_b: Any
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three label arrays of one length and one kind (numbers or strings)."""
    true = check_labels(y_true, "y_true")
    a = check_labels(y_pred_a, "y_pred_a")
    b = check_labels(y_pred_b, "y_pred_b")
    check_consistent_length(y_true=true, y_pred_a=a)
    check_consistent_length(y_true=true, y_pred_b=b)
    kinds = {name: ("strings" if array.dtype.kind == "U" else "numbers")
             for name, array in (("y_true", true), ("y_pred_a", a), ("y_pred_b", b))}
    if len(set(kinds.values())) > 1:
        described = ", ".join(f"{name} holds {kind}" for name, kind in kinds.items())
        raise ValueError(f"labels must be all strings or all numbers, but {described}")
    return true, a, b


@keyword_only
def mcnemar_test(y_true: Any, y_pred_a: Any, y_pred_b: Any, *,
                 method: str = "exact") -> McNemarResult:
    r"""McNemar's test: do classifiers A and B have the same error rate on these items?

    Each item of the test set is right or wrong for each classifier. Items both get right
    or both get wrong say nothing about which is better; the test looks only at the
    *discordant* items: :math:`b` = items only A gets right, :math:`c` = items only B gets
    right. If A and B have the same error rate, each discordant item is a fair coin flip
    between the two, :math:`b \sim \mathrm{Binomial}(b + c, 1/2)`:

    .. math::

        p_\text{exact} = \min\Bigl(1,\ 2 \sum_{x=0}^{\min(b,c)} \binom{b+c}{x} 2^{-(b+c)}\Bigr)
        \qquad
        p_\text{mid} = 2 \sum_{x=0}^{\min(b,c)} \binom{b+c}{x} 2^{-(b+c)}
        - \binom{b+c}{\min(b,c)} 2^{-(b+c)}

    .. math::

        \chi^2 = \frac{(|b - c| - 1)^2}{b + c} \quad\text{(Edwards' correction)} \qquad
        \chi^2_\text{uncorrected} = \frac{(b - c)^2}{b + c}, \qquad p = P(\chi^2_1 \ge \chi^2)

    - ``"exact"``: the two-sided binomial (sign) test, as
      ``statsmodels.stats.contingency_tables.mcnemar(table, exact=True)`` and
      ``mlxtend.evaluate.mcnemar(table, exact=True)``; statistic :math:`\min(b, c)`
      (statsmodels' convention). Conservative: its actual level is below the nominal one.
    - ``"mid-p"``: the exact p-value minus half the probability of the observed split on
      each side (Fagerland et al. 2013 recommend it: close to the nominal level and never
      far above it); statistic :math:`\min(b, c)`; 1 when :math:`b = c`.
    - ``"chi2"``: the large-sample approximation with Edwards' continuity correction, as
      statsmodels' ``mcnemar(exact=False, correction=True)`` and mlxtend's
      ``mcnemar(corrected=True)``. With :math:`b = c` the statistic is :math:`1 / (b + c)`,
      as theirs.
    - ``"chi2-uncorrected"``: McNemar's original statistic, without correction (liberal when
      :math:`b + c` is small).

    **What this test assumes.** The items are an independent sample from the population the
    classifiers will meet, and the two classifiers are fixed (trained once; the test says
    nothing about the learning algorithms, whose variation over training sets it ignores:
    use :func:`five_by_two_cv_test` for that). It compares error rates (accuracy), not any
    other metric (use :func:`compare_classifiers`). The chi-squared forms need enough
    discordant items (:math:`b + c \ge 25` is a common rule); the exact forms need none.

    **How to read the result.** A small p-value says the split of the discordant items
    between A and B is unlikely if they had the same error rate; the accuracy difference is
    :math:`(b - c) / n`. A large p-value is no evidence that they are equal: with few
    discordant items the test has little power.

    Labels may be multi-class (or strings): an item is right when the prediction equals the
    true label.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred_a, y_pred_b : array-like of shape (n_samples,)
        Labels predicted by classifiers A and B for the same items, in the same order.
    method : {"exact", "mid-p", "chi2", "chi2-uncorrected"}, default "exact"

    Returns
    -------
    McNemarResult
        Unpacks like ``(statistic, pvalue)``. Also ``.a_only_correct`` (:math:`b`: items only
        A gets right), ``.b_only_correct`` (:math:`c`: only B right), ``.both_correct``,
        ``.both_wrong`` and ``.method``. Without discordant items (:math:`b + c = 0`) there is
        no evidence of a difference: the statistic is 0 and the p-value 1 (statsmodels
        returns NaN for the chi-squared forms).

    Raises
    ------
    ValueError
        Arrays of different lengths, empty, holding NaN, or mixing strings and numbers; an
        unknown ``method``.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. Psychometrika 12(2), 153–157.
    Edwards, A. L. (1948). Note on the "correction for continuity" in testing the
    significance of the difference between correlated proportions. Psychometrika 13(3),
    185–187.
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.
    Fagerland, M. W., Lydersen, S. and Laake, P. (2013). The McNemar test for binary
    matched-pairs data: mid-p and asymptotic are better than exact conditional. BMC Medical
    Research Methodology 13, 91.

    Examples
    --------
    >>> y_true = [0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1]
    >>> y_pred_a = [0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1]   # 11 right
    >>> y_pred_b = [1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1]   # 5 right
    >>> result = mcnemar_test(y_true, y_pred_a, y_pred_b)
    >>> result.a_only_correct, result.b_only_correct
    (6, 0)
    >>> result.statistic, round(result.pvalue, 4)
    (0.0, 0.0312)
    >>> round(mcnemar_test(y_true, y_pred_a, y_pred_b, method="mid-p").pvalue, 4)
    0.0156
    >>> round(mcnemar_test(y_true, y_pred_a, y_pred_b, method="chi2").statistic, 4)
    4.1667
    """
    method = check_option(method, "method", MCNEMAR_METHODS)
    true, a, b = _check_predictions(y_true, y_pred_a, y_pred_b)
    right_a, right_b = a == true, b == true
    a_only = int(np.count_nonzero(right_a & ~right_b))
    b_only = int(np.count_nonzero(right_b & ~right_a))
    both_correct = int(np.count_nonzero(right_a & right_b))
    both_wrong = len(true) - a_only - b_only - both_correct
    statistic, pvalue = _mcnemar_from_counts(a_only, b_only, method)
    return McNemarResult(statistic, pvalue, a_only_correct=a_only, b_only_correct=b_only,
                         both_correct=both_correct, both_wrong=both_wrong, method=method)


def _mcnemar_from_counts(b: int, c: int, method: str) -> tuple[float, float]:
    discordant = b + c
    if discordant == 0:
        return 0.0, 1.0
    if method in ("exact", "mid-p"):
        smaller = min(b, c)
        tail = float(stats.binom.cdf(smaller, discordant, 0.5))
        if method == "exact":
            return float(smaller), min(1.0, 2.0 * tail)
        point = float(stats.binom.pmf(smaller, discordant, 0.5))
        return float(smaller), min(1.0, 2.0 * tail - point)
    correction = 1.0 if method == "chi2" else 0.0
    statistic = (abs(b - c) - correction) ** 2 / discordant
    return statistic, float(stats.chi2.sf(statistic, 1))
