"""Intervals for a proportion such as accuracy, and how measured accuracies spread over test sets.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._lazy import lazy_module
from .._results import make_result
from .._validation import (
    check_counts,
    check_option,
    check_scalar,
    check_seed,
    keyword_only,
)

special = lazy_module("scipy.special")  # scipy is imported on first use (evalkit._lazy)
stats = lazy_module("scipy.stats")  # scipy is imported on first use (evalkit._lazy)

__all__ = [
    "proportion_ci",
    "proportion_se",
    "simulate_test_accuracies",
    "interval_coverage",
    "ProportionInterval",
    "CI_METHODS",
]


#: The interval methods :func:`proportion_ci` knows.
CI_METHODS = ("wilson", "normal", "exact")

ProportionInterval = make_result(
    "ProportionInterval", ("low", "high"), ("estimate", "confidence", "method"),
    module=__name__,
    doc="A confidence interval for a proportion; unpacks like ``(low, high)``, with the point "
        "``estimate`` k/n, the ``confidence`` level and the ``method`` as attributes.",
)


@keyword_only
def proportion_ci(
    successes: Any, n: Any, *, confidence: float = 0.95, method: str = "wilson"
) -> ProportionInterval:
    r"""Confidence interval for a proportion such as accuracy, for one or many test sets.

    With :math:`\hat p = k/n` and :math:`z` the :math:`(1+c)/2` quantile of the standard normal,
    the default (Wilson) interval is

    .. math::

        \frac{\hat p + z^2/2n}{1 + z^2/n} \pm \frac{z}{1 + z^2/n}
        \sqrt{\frac{\hat p(1-\hat p)}{n} + \frac{z^2}{4n^2}}

    and the three methods are:

    - ``"normal"`` (Wald): :math:`\hat p \pm z \sqrt{\hat p (1-\hat p)/n}`. The textbook
      interval; it is too narrow for small :math:`n` or :math:`\hat p` near 0 or 1, has zero
      width when :math:`\hat p \in \{0, 1\}`, and can reach past 0 or 1 (it is clipped to
      [0, 1], as statsmodels does).
    - ``"wilson"`` (Wilson score, 1927):
      :math:`\frac{\hat p + z^2/2n}{1 + z^2/n} \pm \frac{z}{1 + z^2/n}
      \sqrt{\frac{\hat p(1-\hat p)}{n} + \frac{z^2}{4n^2}}`. Close to the nominal coverage
      even for small test sets; the recommended default.
    - ``"exact"`` (Clopper–Pearson, 1934): from Beta quantiles; never under-covers, so it is
      conservative (wider).

    These match ``scipy.stats.binomtest(k, n).proportion_ci(method=...)`` for ``"wilson"`` and
    ``"exact"`` and statsmodels' ``proportion_confint(method="normal")``; unlike them, this
    function takes arrays.

    Parameters
    ----------
    successes : int or array-like of int
        Number of correct items :math:`k` (0 <= k <= n).
    n : int or array-like of int
        Test-set size(s), at least 1.
    confidence : float, default 0.95
        Confidence level :math:`c`, strictly between 0 and 1.
    method : {"wilson", "normal", "exact"}

    Returns
    -------
    ProportionInterval
        Unpacks like the tuple ``(low, high)``: floats, or arrays of the broadcast shape of
        ``successes`` and ``n``. Also has ``.low``, ``.high``, ``.estimate`` (k / n),
        ``.confidence`` and ``.method``.

    References
    ----------
    Brown, L. D., Cai, T. T. and DasGupta, A. (2001). Interval Estimation for a Binomial
    Proportion. Statistical Science 16(2), 101–133.

    Examples
    --------
    >>> low, high = proportion_ci(80, 100)
    >>> round(low, 4), round(high, 4)
    (0.7112, 0.8666)
    >>> [round(x, 4) for x in proportion_ci(80, 100, method="normal")]
    [0.7216, 0.8784]
    >>> interval = proportion_ci(80, 100, method="exact")
    >>> round(interval.low, 4), interval.estimate
    (0.7082, 0.8)
    """
    method = check_option(method, "method", CI_METHODS)
    confidence = check_scalar(confidence, "confidence", low=0, high=1, low_inclusive=False,
                              high_inclusive=False)
    k = check_counts(successes, "successes", what="numbers correct")
    size = check_counts(n, "n", what="test-set sizes")
    if np.any(size < 1):
        raise ValueError(f"n must be at least 1; got {size!r}")
    if np.any(k < 0) or np.any(k > size):
        raise ValueError("successes must lie between 0 and n")
    k = k.astype(np.float64)
    size = size.astype(np.float64)
    p_hat = k / size
    alpha = 1.0 - confidence
    z = special.ndtri(1.0 - alpha / 2.0)
    if method == "normal":
        half = z * _standard_error(p_hat, size)
        low, high = np.clip(p_hat - half, 0.0, 1.0), np.clip(p_hat + half, 0.0, 1.0)
    elif method == "wilson":
        denominator = 1.0 + z * z / size
        centre = (p_hat + z * z / (2.0 * size)) / denominator
        half = z / denominator * np.sqrt(p_hat * (1.0 - p_hat) / size + z * z / (4.0 * size * size))
        low, high = centre - half, centre + half
        # Round-off can push the ends a hair outside [0, 1] at k = 0 or k = n.
        low, high = np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)
    else:
        with np.errstate(invalid="ignore"):
            low = np.where(k > 0, stats.beta.ppf(alpha / 2.0, k, size - k + 1.0), 0.0)
            high = np.where(k < size, stats.beta.ppf(1.0 - alpha / 2.0, k + 1.0, size - k), 1.0)
    if np.ndim(low) == 0:
        low, high, p_hat = float(low), float(high), float(p_hat)
    return ProportionInterval(low, high, estimate=p_hat, confidence=confidence, method=method)


def _standard_error(p: Any, n: Any) -> Any:
    """sqrt(p (1 - p) / n), elementwise; the caller has checked p and n."""
    return np.sqrt(p * (1.0 - p) / n)


def proportion_se(p: float, n: int) -> float:
    r"""The standard error of a proportion measured on :math:`n` independent items.

    A test set of :math:`n` items, each right with probability :math:`p`, measures the
    accuracy :math:`\hat p = K / n` with :math:`K \sim \operatorname{Binomial}(n, p)`, so

    .. math::

        \operatorname{SE}(\hat p) = \operatorname{SD}(\hat p) = \sqrt{\frac{p(1-p)}{n}}.

    With the measured :math:`\hat p` in place of :math:`p` this is the estimated standard
    error of the normal (Wald) interval of :func:`proportion_ci`, which uses this function.
    It is ``scipy.stats.binom(n, p).std() / n`` and statsmodels'
    ``proportion_confint(..., method="normal")`` half-width divided by :math:`z`.

    Parameters
    ----------
    p : float
        The proportion (a true or a measured accuracy), in [0, 1].
    n : int
        The number of items, at least 1.

    Returns
    -------
    float
        The standard error, in [0, 0.5].

    References
    ----------
    Mitchell, T. M. (1997). Machine Learning, chapter 5 (evaluating hypotheses: the binomial
    distribution of the sample error). McGraw-Hill.
    Brown, L. D., Cai, T. T. and DasGupta, A. (2001). Interval Estimation for a Binomial
    Proportion. Statistical Science 16(2), 101–133.

    Examples
    --------
    >>> proportion_se(0.8, 100)  # sqrt(0.8 * 0.2 / 100) = sqrt(0.0016)
    0.04
    >>> proportion_se(0.5, 1), proportion_se(1.0, 10)
    (0.5, 0.0)
    """
    p = check_scalar(p, "p", low=0.0, high=1.0)
    n = check_scalar(n, "n", kind="int", low=1)
    return float(_standard_error(p, n))


@keyword_only
def simulate_test_accuracies(
    n_test: int, true_accuracy: float, *, n_repeats: int = 5000, seed: Any = None,
) -> np.ndarray:
    r"""Accuracies measured on many simulated test sets of one size, for one classifier.

    Each test set has ``n_test`` independent items, each answered correctly with probability
    :math:`p` = ``true_accuracy``, so the number correct is binomial and the measured
    accuracy is

    .. math::

        \hat p = K / n, \qquad K \sim \operatorname{Binomial}(n, p), \qquad
        \operatorname{SD}(\hat p) = \sqrt{p(1-p)/n}

    (:func:`proportion_se`).

    Parameters
    ----------
    n_test : int
        Items per test set :math:`n`, at least 1.
    true_accuracy : float
        The classifier's true accuracy :math:`p`, in [0, 1].
    n_repeats : int, default 5000
        Number of simulated test sets, at least 1 (``n_repeats``, as every simulation in
        evalkit calls its number of repetitions).
    seed : None, int or numpy.random.Generator
        Seed of the random draws; the same seed gives the same test sets
        (``np.random.default_rng(seed).binomial(n_test, true_accuracy, n_repeats) / n_test``).

    Returns
    -------
    ndarray of float, shape (n_repeats,)
        The measured accuracy :math:`k/n` of each test set.

    References
    ----------
    Mitchell, T. M. (1997). Machine Learning, chapter 5 (evaluating hypotheses: the binomial
    distribution of the sample error). McGraw-Hill.

    Examples
    --------
    >>> measured = simulate_test_accuracies(100, 0.8, n_repeats=20000, seed=0)
    >>> measured.shape, round(float(measured.std()), 2), proportion_se(0.8, 100)
    ((20000,), 0.04, 0.04)
    >>> simulate_test_accuracies(4, 1.0, n_repeats=3, seed=0).tolist()
    [1.0, 1.0, 1.0]
    """
    n_test = check_scalar(n_test, "n_test", kind="int", low=1)
    true_accuracy = check_scalar(true_accuracy, "true_accuracy", low=0.0, high=1.0)
    n_repeats = check_scalar(n_repeats, "n_repeats", kind="int", low=1)
    rng = check_seed(seed)
    return rng.binomial(n_test, true_accuracy, n_repeats) / n_test


@keyword_only
def interval_coverage(
    n: int, p: float, *, method: str = "wilson", confidence: float = 0.95
) -> float:
    r"""The exact coverage of an interval method: how often its interval contains the truth.

    For test sets of :math:`n` independent items with true proportion :math:`p`, the number
    correct :math:`K` is binomial; the coverage is the probability that the interval
    computed from :math:`K` (by :func:`proportion_ci`) contains :math:`p`:

    .. math::

        C(n, p) = \sum_{k=0}^{n} \binom{n}{k} p^k (1-p)^{n-k}\,
        [\,L(k, n) \le p \le U(k, n)\,].

    A method keeps its promise when :math:`C` is close to ``confidence``; the Wald interval
    falls far below it for small :math:`n` or :math:`p` near 0 or 1 (Brown et al. 2001).
    This is the exact sum, not a simulation, so it has no random error.

    Parameters
    ----------
    n : int
        Test-set size, at least 1.
    p : float
        True proportion (accuracy), in [0, 1].
    method : {"wilson", "normal", "exact"}
        The interval, as in :func:`proportion_ci`.
    confidence : float, default 0.95
        Nominal confidence level, strictly between 0 and 1.

    Returns
    -------
    float
        The coverage probability, in [0, 1].

    References
    ----------
    Brown, L. D., Cai, T. T. and DasGupta, A. (2001). Interval Estimation for a Binomial
    Proportion. Statistical Science 16(2), 101–133.

    Examples
    --------
    >>> round(interval_coverage(20, 0.95, method="normal"), 3)
    0.639
    >>> round(interval_coverage(20, 0.95, method="wilson"), 3)
    0.925
    >>> round(interval_coverage(20, 0.95, method="exact"), 3)
    0.984
    """
    n = check_scalar(n, "n", kind="int", low=1)
    p = check_scalar(p, "p", low=0.0, high=1.0)
    method = check_option(method, "method", CI_METHODS)
    confidence = check_scalar(confidence, "confidence", low=0, high=1, low_inclusive=False,
                              high_inclusive=False)
    k = np.arange(n + 1)
    low, high = proportion_ci(k, n, confidence=confidence, method=method)
    covered = (low <= p) & (p <= high)
    return float(np.sum(stats.binom.pmf(k, n, p)[covered]))
