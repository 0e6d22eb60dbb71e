"""Tests of equal variance for two independent samples (:func:`equal_variance_test`).
"""

from __future__ import annotations

from typing import Any

from .._lazy import lazy_module
from .._results import make_result
from .._validation import (
    check_finite_scores,
    check_option,
    keyword_only,
)
from ._common import _check_at_least_two

stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)

__all__ = [
    "equal_variance_test",
    "VarianceTestResult",
    "VARIANCE_TESTS",
]


VarianceTestResult = make_result(
    "VarianceTestResult", ("statistic", "pvalue"), ("test", "variance_ratio"),
    module=__name__,
    doc="The result of a test of equal variances; unpacks like ``(statistic, pvalue)``. Also "
        "has the ``test`` used and the ``variance_ratio`` var(a) / var(b) (ddof = 1).",
)

#: The tests of equal variance that :func:`equal_variance_test` runs.
VARIANCE_TESTS = ("f", "bartlett", "levene")


@keyword_only
def equal_variance_test(a: Any, b: Any, *, test: str = "levene") -> Any:
    r"""Test whether two independent samples have the same variance.

    .. math::

        F = \frac{s_a^2}{s_b^2}, \qquad
        W = \frac{(N - 2)\sum_g n_g (\bar z_g - \bar z)^2}{\sum_g \sum_i (z_{gi} - \bar z_g)^2},
        \quad z_{gi} = |x_{gi} - \bar x_g|

    - ``"f"``: the F-test, :math:`F = s_a^2 / s_b^2` against an
      :math:`F(n_a - 1, n_b - 1)` distribution, two-sided
      (:math:`p = 2\min(P(F' \le F), P(F' \ge F))`); exact for normal samples.
    - ``"bartlett"``: Bartlett's (1937) likelihood-ratio test, also for normal samples
      (``scipy.stats.bartlett``).
    - ``"levene"``: Levene's (1960) test, a one-way ANOVA on the absolute deviations
      :math:`|x_i - \bar x|` of each sample from its mean, robust to non-normality
      (``scipy.stats.levene(a, b, center="mean")``).

    All three assume two *independent* samples of independent values: bootstrap values of two
    metrics on the same resamples are neither, and their number is the analyst's choice.

    Parameters
    ----------
    a, b : array-like
        The two samples (at least 2 finite values each).
    test : {"f", "bartlett", "levene"}, default "levene"

    Returns
    -------
    VarianceTestResult
        ``statistic`` and ``pvalue`` (unpacks as that pair), ``test`` and ``variance_ratio``
        (var(a) / var(b), sample variances).

    References
    ----------
    Bartlett, M. S. (1937). Properties of sufficiency and statistical tests. Proceedings of
    the Royal Society A 160(901), 268–282.
    Levene, H. (1960). Robust tests for equality of variances. In Contributions to
    Probability and Statistics, 278–292. Stanford University Press.

    Examples
    --------
    >>> a = [0.1, 0.4, 0.2, 0.6, 0.3, 0.5]
    >>> b = [0.30, 0.35, 0.32, 0.36, 0.31, 0.34]
    >>> result = equal_variance_test(a, b, test="f")
    >>> round(result.variance_ratio, 1), round(result.pvalue, 5)
    (62.5, 0.00033)
    """
    test = check_option(test, "test", VARIANCE_TESTS)
    first = check_finite_scores(a, "a")
    second = check_finite_scores(b, "b")
    _check_at_least_two(first, "a")
    _check_at_least_two(second, "b")
    var_a, var_b = first.var(ddof=1), second.var(ddof=1)
    if var_b == 0:
        raise ValueError("b has zero variance; the variance ratio is undefined")
    if test == "f":
        statistic = var_a / var_b
        df_a, df_b = len(first) - 1, len(second) - 1
        pvalue = 2 * min(stats.f.cdf(statistic, df_a, df_b), stats.f.sf(statistic, df_a, df_b))
    elif test == "bartlett":
        statistic, pvalue = stats.bartlett(first, second)
    else:
        statistic, pvalue = stats.levene(first, second, center="mean")
    return VarianceTestResult(float(statistic), float(min(pvalue, 1.0)), test=test,
                              variance_ratio=float(var_a / var_b))
