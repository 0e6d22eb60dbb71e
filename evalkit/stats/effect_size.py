"""How large a difference is: Cohen's d, its rule-of-thumb label, and the power of a t test.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._lazy import lazy_module
from .._results import make_result
from .._validation import (
    check_bool,
    check_consistent_length,
    check_finite_scores,
    check_option,
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
    "EFFECT_SIZE_KINDS",
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


#: The kinds of standardized difference :func:`cohens_d` computes (``kind=None`` is the
#: default of the API: the average-variance d unpaired, :math:`d_z` paired).
EFFECT_SIZE_KINDS = (None, "d_s", "g_s", "d_z", "d_av", "g_av")

#: Kinds that need paired scores (the same queries, test sets or seeds in both arrays).
_PAIRED_KINDS = ("d_z", "d_av", "g_av")


def _hedges_g(d: float, df: float) -> float:
    """d times Hedges' J; an infinite d (no spread) stays infinite, where ``inf * 0`` at
    df = 1 would be NaN."""
    return d if math.isinf(d) else d * _hedges_correction(df)


def _hedges_correction(df: float) -> float:
    r"""Hedges' small-sample correction :math:`J \approx 1 - 3 / (4\,df - 1)`.

    The approximation of Hedges (1981) to the exact :math:`J = \Gamma(df/2) /
    (\sqrt{df/2}\,\Gamma((df - 1)/2))` that Lakens (2013, eq. 4, with :math:`df = n_1 + n_2
    - 2`) and pingouin use; it is within 0.3 % of the exact factor from df = 4 on.

    >>> round(_hedges_correction(18), 4)
    0.9577
    """
    return 1.0 - 3.0 / (4.0 * df - 1.0)


@keyword_only
def cohens_d(a: Any, b: Any, *, paired: bool = False, kind: str | None = None) -> float:
    r"""Cohen's d: the difference of two means in units of standard deviation.

    "d" names several formulas, which differ in the standard deviation they divide by
    (Lakens 2013); ``kind`` says which, so a report can say which d it gives.
    With sample means :math:`\bar a, \bar b`, sample SDs :math:`s_a, s_b` (ddof = 1),
    sizes :math:`n_a, n_b` and, for paired scores, the differences :math:`a - b`:

    .. math::

        \text{default (unpaired)}:\ \frac{\bar a - \bar b}{\sqrt{(s_a^2 + s_b^2) / 2}}
        \qquad d_s = \frac{\bar a - \bar b}{\sqrt{\frac{(n_a - 1) s_a^2 + (n_b - 1)
        s_b^2}{n_a + n_b - 2}}} \qquad g_s = J(n_a + n_b - 2)\, d_s

        d_z = \frac{\overline{a - b}}{s_{a - b}} \qquad
        d_{av} = \frac{\overline{a - b}}{(s_a + s_b) / 2} \qquad
        g_{av} = J(n - 1)\, d_{av} \qquad J(df) = 1 - \frac{3}{4\,df - 1}

    - ``kind=None`` (the default): unpaired, the root of the *average* of the two
      variances (Harbecke et al. 2022, eq. 4), also for unequal sizes; it equals
      :math:`d_s` when :math:`n_a = n_b` (then d is ``scipy.stats.ttest_ind(a,
      b).statistic * sqrt(2 / n)``). Paired (``paired=True``), :math:`d_z`.
    - ``"d_s"`` (unpaired): Cohen's (1988) d with the pooled SD, each variance weighted by
      its degrees of freedom (Lakens eq. 1); ``"g_s"``: Hedges' g, :math:`d_s` times the
      small-sample correction :math:`J` (Lakens eq. 4; d overestimates the population
      effect by about :math:`3 / (4 df - 1)`, e.g. 8 % with two groups of 5).
    - ``"d_z"`` (paired): the mean difference over the SD of the differences (Lakens eq.
      6); it is the paired t statistic over :math:`\sqrt n` (``scipy.stats.ttest_rel(a,
      b).statistic / sqrt(n)``), so it grows as the two systems' scores correlate: it says
      how consistent the difference is, not how large.
    - ``"d_av"`` (paired): the mean difference over the average of the two SDs (Lakens eq.
      10, after Cumming 2012): the scale of :math:`d_s`, so Cohen's bands and between-group
      studies can be compared with it. ``"g_av"``: :math:`d_{av}` times :math:`J(n - 1)`,
      n the number of pairs (the degrees of freedom of the paired design, as Borenstein et
      al. 2009 for matched groups).

    :math:`J` is Hedges' (1981) approximation, as Lakens (eq. 4) and pingouin use it, not
    the exact :math:`\Gamma(df/2) / (\sqrt{df/2}\,\Gamma((df - 1)/2))`; the two agree to
    0.3 % from df = 4 on. Assumptions: the means and SDs describe the scores (roughly
    symmetric, no heavy outliers); the pooled kinds assume similar spread in both groups.

    Parameters
    ----------
    a, b : array-like
        Scores of the two systems (at least 2 each, finite). With ``paired=True`` they must
        have the same length and order.
    paired : bool, default False
        Whether row i of both arrays is the same query (or test set, or seed).
    kind : {None, "d_s", "g_s", "d_z", "d_av", "g_av"}, default None
        Which standardized difference; ``"d_s"`` and ``"g_s"`` need ``paired=False``,
        ``"d_z"``, ``"d_av"`` and ``"g_av"`` need ``paired=True``.

    Returns
    -------
    float
        Positive when ``a`` scores higher. Antisymmetric: ``cohens_d(b, a) == -cohens_d(a,
        b)``. When the spread is 0 (constant scores or constant differences): 0.0 if the
        means are equal, otherwise ``inf`` or ``-inf``.

    Raises
    ------
    ValueError
        An unknown ``kind``, or a kind that needs the other value of ``paired``.

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, 2nd ed.,
    chapter 2. Lawrence Erlbaum.
    Hedges, L. V. (1981). Distribution theory for Glass's estimator of effect size and
    related estimators. Journal of Educational Statistics 6(2), 107–128.
    Lakens, D. (2013). Calculating and reporting effect sizes to facilitate cumulative
    science: a practical primer for t-tests and ANOVAs. Frontiers in Psychology 4, 863.
    Cumming, G. (2012). Understanding the New Statistics. Routledge.
    Borenstein, M., Hedges, L. V., Higgins, J. P. T. and Rothstein, H. R. (2009).
    Introduction to Meta-Analysis, chapter 4. Wiley.
    Harbecke, D., Chen, Y., Hennig, L. and Alt, C. (2022). Why only Micro-F1? Class
    Weighting of Measures for Relation Classification. NLP Power! Workshop, ACL 2022.

    Examples
    --------
    >>> a, b = [0.8, 0.7, 0.9, 0.6], [0.6, 0.5, 0.7, 0.6]
    >>> round(cohens_d(a, b), 4)
    1.3887
    >>> round(cohens_d(a, b, paired=True), 4)
    1.5
    >>> round(cohens_d(a, b, paired=True, kind="d_av"), 4)
    1.4235
    >>> round(cohens_d(a, b, kind="g_s"), 4)
    1.2076
    """
    paired = check_bool(paired, "paired")
    kind = check_option(kind, "kind", EFFECT_SIZE_KINDS)
    if kind is not None and (kind in _PAIRED_KINDS) != paired:
        if paired:
            raise ValueError(f"kind={kind!r} is a between-group d for two independent "
                             "samples; with paired=True use kind='d_z', 'd_av' or 'g_av'")
        raise ValueError(f"kind={kind!r} needs paired scores (the same queries in both "
                         "arrays): pass paired=True, or use kind='d_s' or 'g_s'")
    first = check_finite_scores(a, "a")
    second = check_finite_scores(b, "b")
    if paired:
        check_consistent_length(a=first, b=second)
    _check_at_least_two(first, "a")
    _check_at_least_two(second, "b")
    if paired and kind in (None, "d_z"):
        difference = first - second
        difference = _unit_scale(difference)  # d_z does not change; tiny ones stay non-zero
        return _ratio_or_infinity(difference.mean(), difference.std(ddof=1))
    # one scale for both arrays: the ratio does not change, tiny values stay non-zero
    scale = max(np.max(np.abs(first)), np.max(np.abs(second)))
    if kind in ("d_av", "g_av") and scale > 0:
        first, second = first / scale, second / scale
    difference = first.mean() - second.mean()
    if kind in ("d_av", "g_av"):
        d = _ratio_or_infinity(difference, (first.std(ddof=1) + second.std(ddof=1)) / 2.0)
        return _hedges_g(d, len(first) - 1) if kind == "g_av" else d
    n_a, n_b = len(first), len(second)
    if kind in ("d_s", "g_s"):
        pooled = ((n_a - 1) * first.var(ddof=1) + (n_b - 1) * second.var(ddof=1)) / (
            n_a + n_b - 2)
        d = _ratio_or_infinity(difference, math.sqrt(pooled))
        return _hedges_g(d, n_a + n_b - 2) if kind == "g_s" else d
    spread = math.sqrt((first.var(ddof=1) + second.var(ddof=1)) / 2.0)
    return _ratio_or_infinity(difference, spread)


#: What :func:`effect_size_label` says about each kind of d before it labels it.
_LABEL_KINDS = (None, "d_s", "g_s", "d_av", "g_av", "d_z")


@keyword_only
def effect_size_label(d: float, *, kind: str | None = None) -> str:
    r"""Name the size of an effect: Sawilowsky's (2009) extension of Cohen's rules of thumb.

    .. math::

        |d| \ge 2.0: \text{huge}, \quad \ge 1.2: \text{very large}, \quad
        \ge 0.8: \text{large}, \quad \ge 0.5: \text{medium}, \quad \ge 0.2: \text{small},
        \quad \ge 0.01: \text{very small}, \quad \text{else negligible}

    Only :math:`|d|` counts, so the label says how large a difference is, not which system
    is better. The thresholds are conventions for when nothing better is known; what
    matters in a field (a 0.01 MAP gain on a mature collection) can differ. (scipy and
    statsmodels have no such labels.)

    **The bands were set for the between-group d** (:math:`d_s`, the difference of two
    independent groups over their pooled SD; Cohen 1988). They also fit :math:`g_s` and the
    paired :math:`d_{av}` and :math:`g_{av}`, which are on the same scale. They do not fit
    the paired :math:`d_z` (:func:`cohens_d` with ``paired=True``): it divides by the SD of
    the per-query differences, which shrinks as the two systems' scores correlate, so
    :math:`d_z = d_{av} / \sqrt{2 (1 - r)}` when the two SDs are equal: with a correlation
    of r = 0.95 between two runs' per-query scores, a "small" :math:`d_{av}` of 0.2 is a
    "medium" :math:`d_z` of 0.63. With
    ``kind="d_z"`` the label is still given, with a ``UserWarning`` saying so; label
    :math:`d_{av}` instead. ``kind=None`` (the default) labels without comment, for a d
    whose kind the caller knows.

    Parameters
    ----------
    d : float
        An effect size such as :func:`cohens_d` (``inf`` is "huge"; NaN is an error).
    kind : {None, "d_s", "g_s", "d_av", "g_av", "d_z"}, default None
        Which d this is (the ``kind`` of :func:`cohens_d`); ``"d_z"`` warns.

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
    Lakens, D. (2013). Calculating and reporting effect sizes to facilitate cumulative
    science: a practical primer for t-tests and ANOVAs. Frontiers in Psychology 4, 863.

    Examples
    --------
    >>> effect_size_label(0.35), effect_size_label(-0.85), effect_size_label(0.005)
    ('small', 'large', 'negligible')
    >>> effect_size_label(0.35, kind="d_av")
    'small'
    """
    kind = check_option(kind, "kind", _LABEL_KINDS)
    size = abs(check_scalar(d, "d", allow_inf=True))
    if kind == "d_z":
        warnings.warn(
            "effect_size_label: Cohen's and Sawilowsky's bands were set for the between-group "
            "d (d_s); a paired d_z grows with the correlation of the two systems' scores and "
            "is not on that scale. Label cohens_d(a, b, paired=True, kind='d_av') instead",
            UserWarning, stacklevel=2)
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
