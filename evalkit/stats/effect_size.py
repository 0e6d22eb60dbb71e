"""How large a difference is: Cohen's d, its rule-of-thumb label, and the power of a t test.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._lazy import lazy_module
from .._results import make_result
from .._validation import (
    check_bool,
    check_consistent_length,
    check_finite_scores,
    check_scalar,
    check_seed,
    keyword_only,
)
from ._common import _check_at_least_two, _unit_scale

stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)

__all__ = [
    "cohens_d",
    "effect_size_label",
    "t_test_power",
    "simulate_paired_t_tests",
    "PairedTTestSimulation",
    "EFFECT_SIZE_THRESHOLDS",
]


#: Sawilowsky's (2009) rules of thumb for :math:`|d|`, largest first (Cohen 1988 gave the
#: middle three).
EFFECT_SIZE_THRESHOLDS = (
    (2.0, "huge"),
    (1.2, "very large"),
    (0.8, "large"),
    (0.5, "medium"),
    (0.2, "small"),
    (0.01, "very small"),
)


def _ratio_or_infinity(numerator: float, denominator: float) -> float:
    """numerator / denominator, where a zero spread gives 0 (no difference) or +-inf."""
    if denominator == 0:
        return 0.0 if numerator == 0 else math.copysign(math.inf, numerator)
    return float(numerator / denominator)


@keyword_only
def cohens_d(a: Any, b: Any, *, paired: bool = False) -> float:
    r"""Cohen's d: the difference of two means in units of standard deviation.

    .. math::

        d = \frac{\bar a - \bar b}{\sqrt{(s_a^2 + s_b^2) / 2}} \qquad\qquad
        d_z = \frac{\overline{a - b}}{s_{a - b}} \quad (\texttt{paired=True})

    with sample standard deviations :math:`s` (ddof = 1). Unpaired, the denominator is the
    root of the *average* of the two variances (Harbecke et al. 2022, eq. 4), also when the
    samples differ in size (the pooled SD of Cohen 1988 weighs them by n - 1 instead; the
    two agree for equal sizes, where d is ``scipy.stats.ttest_ind(a, b).statistic *
    sqrt(2 / n)``). Paired (the same queries, test sets or seeds), :math:`d_z` divides the
    mean per-pair difference by the SD of those differences (Lakens 2013); it is the paired
    t statistic divided by :math:`\sqrt{n}` (``scipy.stats.ttest_rel(a, b).statistic /
    sqrt(n)``). scipy and statsmodels have no function for d itself.

    Parameters
    ----------
    a, b : array-like
        Scores of the two systems (at least 2 each, finite). With ``paired=True`` they must
        have the same length and order.
    paired : bool, default False
        Paired :math:`d_z` instead of the unpaired d.

    Returns
    -------
    float
        Positive when ``a`` scores higher. Antisymmetric: ``cohens_d(b, a) == -cohens_d(a,
        b)``. When the spread is 0 (constant scores or constant differences): 0.0 if the
        means are equal, otherwise ``inf`` or ``-inf``.

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, 2nd ed.,
    chapter 2. Lawrence Erlbaum.
    Lakens, D. (2013). Calculating and reporting effect sizes to facilitate cumulative
    science: a practical primer for t-tests and ANOVAs. Frontiers in Psychology 4, 863.
    Harbecke, D., Chen, Y., Hennig, L. and Alt, C. (2022). Why only Micro-F1? Class
    Weighting of Measures for Relation Classification. NLP Power! Workshop, ACL 2022.

    Examples
    --------
    >>> round(cohens_d([0.8, 0.7, 0.9, 0.6], [0.6, 0.5, 0.7, 0.6]), 4)
    1.3887
    >>> round(cohens_d([0.8, 0.7, 0.9, 0.6], [0.6, 0.5, 0.7, 0.6], paired=True), 4)
    1.5
    """
    paired = check_bool(paired, "paired")
    first = check_finite_scores(a, "a")
    second = check_finite_scores(b, "b")
    if paired:
        check_consistent_length(a=first, b=second)
    _check_at_least_two(first, "a")
    _check_at_least_two(second, "b")
    if paired:
        difference = first - second
        difference = _unit_scale(difference)  # d_z does not change; tiny ones stay non-zero
        return _ratio_or_infinity(difference.mean(), difference.std(ddof=1))
    spread = math.sqrt((first.var(ddof=1) + second.var(ddof=1)) / 2.0)
    return _ratio_or_infinity(first.mean() - second.mean(), spread)


def effect_size_label(d: float) -> str:
    r"""Name the size of an effect: Sawilowsky's (2009) extension of Cohen's rules of thumb.

    .. math::

        |d| \ge 2.0: \text{huge}, \quad \ge 1.2: \text{very large}, \quad
        \ge 0.8: \text{large}, \quad \ge 0.5: \text{medium}, \quad \ge 0.2: \text{small},
        \quad \ge 0.01: \text{very small}, \quad \text{else negligible}

    Only :math:`|d|` counts, so the label says how large a difference is, not which system
    is better. The thresholds are conventions for when nothing better is known; what
    matters in a field (a 0.01 MAP gain on a mature collection) can differ. (scipy and
    statsmodels have no such labels.)

    Parameters
    ----------
    d : float
        An effect size such as :func:`cohens_d` (``inf`` is "huge"; NaN is an error).

    Returns
    -------
    str
        One of "negligible", "very small", "small", "medium", "large", "very large", "huge".

    References
    ----------
    Sawilowsky, S. S. (2009). New effect size rules of thumb. Journal of Modern Applied
    Statistical Methods 8(2), 597–599.
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, 2nd ed.
    Lawrence Erlbaum.

    Examples
    --------
    >>> effect_size_label(0.35), effect_size_label(-0.85), effect_size_label(0.005)
    ('small', 'large', 'negligible')
    """
    size = abs(check_scalar(d, "d", allow_inf=True))
    for threshold, label in EFFECT_SIZE_THRESHOLDS:
        if size >= threshold:
            return label
    return "negligible"


@keyword_only
def t_test_power(effect_size: float, n: int, *, paired: bool = False,
                 alpha: float = 0.05) -> float:
    r"""Power of a two-sided t test: the chance that it finds a true effect of this size.

    Under normal scores the t statistic follows a noncentral t distribution with
    :math:`\nu` degrees of freedom and noncentrality :math:`\lambda`; the test rejects when
    :math:`|t| > t_{1-\alpha/2,\,\nu}`, so

    .. math::

        \text{power} = P(T_{\nu,\lambda} > t_{1-\alpha/2,\nu}) +
        P(T_{\nu,\lambda} < -t_{1-\alpha/2,\nu}),

    with :math:`\nu = 2n - 2`, :math:`\lambda = d\sqrt{n/2}` for two independent groups of
    ``n`` each (Student's test; effect size Cohen's d), and :math:`\nu = n - 1`,
    :math:`\lambda = d_z\sqrt{n}` for ``n`` pairs (paired test; effect size :math:`d_z`,
    see :func:`cohens_d`). Welch's test has slightly fewer degrees of freedom and slightly
    less power. The same numbers as statsmodels' ``TTestIndPower().power`` and
    ``TTestPower().power``.

    Parameters
    ----------
    effect_size : float
        The true standardized difference (d, or :math:`d_z` when ``paired``); 0 gives alpha.
    n : int
        Scores per group (unpaired, equal sizes) or pairs (``paired=True``); at least 2.
    paired : bool, default False
        Paired test on ``n`` pairs instead of two groups of ``n``.
    alpha : float, default 0.05
        Significance level, in (0, 1).

    Returns
    -------
    float
        The power, in [alpha, 1).

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, 2nd ed.,
    chapter 2. Lawrence Erlbaum.

    Examples
    --------
    >>> round(t_test_power(0.8, 26), 3)
    0.807
    >>> round(t_test_power(0.5, 40, paired=True), 3)
    0.869
    """
    paired = check_bool(paired, "paired")
    effect_size = check_scalar(effect_size, "effect_size")
    n = check_scalar(n, "n", kind="int", low=2)
    alpha = check_scalar(alpha, "alpha", low=0, high=1, low_inclusive=False,
                         high_inclusive=False)
    if paired:
        df, shift = n - 1, effect_size * math.sqrt(n)
    else:
        df, shift = 2 * n - 2, effect_size * math.sqrt(n / 2.0)
    # The power is symmetric in the effect's sign. scipy's noncentral t returns NaN for the
    # far tail, P(T < -critical), at a large noncentrality (statsmodels then reports NaN);
    # that term is then below 1e-15, so it counts as 0.
    critical = stats.t.ppf(1.0 - alpha / 2.0, df)
    shift = abs(shift)
    far_tail = float(stats.nct.cdf(-critical, df, shift))
    return float(stats.nct.sf(critical, df, shift)) + (0.0 if math.isnan(far_tail) else far_tail)


PairedTTestSimulation = make_result(
    "PairedTTestSimulation", ("d_z", "pvalue"), ("statistic",), module=__name__,
    doc="What :func:`simulate_paired_t_tests` returns: the observed effect ``d_z`` and the "
        "``pvalue`` of each simulated experiment (unpacks to these two), and the t "
        "``statistic``; arrays of shape (n_repeats,).")


@keyword_only
def simulate_paired_t_tests(n_topics: int, effect_size: float, *, n_repeats: int = 4000,
                            seed: Any = None) -> Any:
    r"""Many simulated paired experiments: the observed :math:`d_z` and the t test's p-value.

    Each experiment draws ``n_topics`` per-topic differences between two systems,
    :math:`x_i = \delta + \varepsilon_i` with :math:`\varepsilon_i \sim N(0, 1)`, so
    :math:`\delta` = ``effect_size`` is the true standardized effect :math:`d_z` (0: the
    null hypothesis holds). It reports the observed effect and the two-sided paired
    (one-sample) t test on the differences:

    .. math::

        \hat d_z = \frac{\bar x}{s_x}, \qquad t = \hat d_z \sqrt{n}, \qquad
        p = 2\, P(T_{n-1} > |t|),

    with the sample SD :math:`s_x` (ddof = 1): :math:`\hat d_z` is :func:`cohens_d` of the
    two systems with ``paired=True``, and :math:`t`, :math:`p` are
    ``scipy.stats.ttest_1samp(x, 0)``, computed for all experiments at once. The share of
    experiments with :math:`p < \alpha` estimates the power that :func:`t_test_power`
    computes exactly; averaged over the significant experiments only, :math:`\hat d_z`
    overstates :math:`\delta` when the power is low (the "winner's curse", Button et al.
    2013).

    Parameters
    ----------
    n_topics : int
        Topics (pairs) per experiment, at least 2.
    effect_size : float
        The true :math:`d_z`.
    n_repeats : int, default 4000
        Number of simulated experiments, at least 1.
    seed : None, int or numpy.random.Generator
        Seed of the random draws: the noise is
        ``np.random.default_rng(seed).standard_normal((n_repeats, n_topics))``, so the same
        seed gives the same experiments, shifted by ``effect_size``.

    Returns
    -------
    PairedTTestSimulation
        ``d_z`` and ``pvalue`` (the result unpacks to these two), and the t ``statistic``:
        arrays of shape (n_repeats,).

    References
    ----------
    Lakens, D. (2013). Calculating and reporting effect sizes to facilitate cumulative
    science: a practical primer for t-tests and ANOVAs. Frontiers in Psychology 4, 863.
    Button, K. S. et al. (2013). Power failure: why small sample size undermines the
    reliability of neuroscience. Nature Reviews Neuroscience 14(5), 365–376.

    Examples
    --------
    >>> d_z, pvalue = simulate_paired_t_tests(40, 0.5, n_repeats=20000, seed=0)
    >>> round(float((pvalue < 0.05).mean()), 2), round(t_test_power(0.5, 40, paired=True), 2)
    (0.87, 0.87)
    >>> d_z.shape, round(float(d_z.mean()), 2)
    ((20000,), 0.51)
    """
    n_topics = check_scalar(n_topics, "n_topics", kind="int", low=2)
    effect_size = check_scalar(effect_size, "effect_size")
    n_repeats = check_scalar(n_repeats, "n_repeats", kind="int", low=1)
    rng = check_seed(seed)
    differences = rng.standard_normal((n_repeats, n_topics)) + effect_size
    test = stats.ttest_1samp(differences, 0.0, axis=1)
    d_z = differences.mean(axis=1) / differences.std(axis=1, ddof=1)
    return PairedTTestSimulation(np.asarray(d_z), np.asarray(test.pvalue),
                                 statistic=np.asarray(test.statistic))
