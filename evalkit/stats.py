r"""Uncertainty and significance: confidence intervals, tests of a difference, effect sizes.

How sure can we be of a measured score, and of a difference between two systems? This
module answers with the tools of ``scipy.stats`` and adds only what scipy lacks:

- :func:`proportion_ci`: intervals for a proportion such as accuracy, vectorised over many
  test sets (:class:`evalkit.widgets.TestSetModel` simulates with it).
- :func:`simulate_test_accuracies` and :func:`interval_coverage`: how a measured accuracy
  spreads over many test sets of one size, and how often an interval method contains the
  truth (:class:`evalkit.widgets.TestSetModel` is built on them).
- :func:`bootstrap_ci`: a bootstrap interval for any metric, resampling the rows of all its
  arrays together (``scipy.stats.bootstrap(..., paired=True)``); for evalkit's
  confusion-matrix metrics, all resamples are drawn at once as multinomial confusion
  matrices.
- :func:`paired_randomization_test`: the sign-flip test of IR evaluation (Smucker et al.
  2007), exact for small query sets, in bounded memory for large ones.
- :func:`cohens_d` and :func:`effect_size_label`: how large a difference is, not only
  whether it is there.
- :func:`t_test_power`: how likely a t test is to find a true effect of a given size
  (:class:`evalkit.widgets.PowerModel` and :class:`evalkit.widgets.SeedsModel` use it).
- :func:`equal_variance_test`: the F-test, Bartlett's and Levene's tests of equal variance
  (:class:`evalkit.widgets.ResamplesModel` runs them).
- :func:`compare_systems` and :func:`compare_runs`: one table per comparison, with the test,
  the effect size and (for many systems against a baseline) Holm's or Bonferroni's
  correction, like PyTerrier's ``Experiment``.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from ._confusion_stack import StackedMetric, stacked_metric
from ._results import make_result
from ._validation import (
    as_array,
    check_bool,
    check_consistent_length,
    check_finite_scores,
    check_labels,
    check_option,
    check_scalar,
    check_seed,
)

__all__ = [
    "proportion_ci",
    "simulate_test_accuracies",
    "interval_coverage",
    "bootstrap_ci",
    "paired_randomization_test",
    "cohens_d",
    "effect_size_label",
    "t_test_power",
    "equal_variance_test",
    "compare_systems",
    "compare_runs",
    "ProportionInterval",
    "ConfidenceInterval",
    "BootstrapInterval",
    "RandomizationResult",
    "VarianceTestResult",
    "VARIANCE_TESTS",
    "CI_METHODS",
    "BOOTSTRAP_METHODS",
    "SIGNIFICANCE_TESTS",
    "CORRECTIONS",
    "EFFECT_SIZE_THRESHOLDS",
    "available_sample",
    "simulate_estimates",
    "estimation_summary",
    "ESTIMATION_COLUMNS",
    "ESTIMATION_METHODS",
]

#: The interval methods :func:`proportion_ci` knows.
CI_METHODS = ("wilson", "normal", "exact")

#: The interval methods :func:`bootstrap_ci` knows (those of ``scipy.stats.bootstrap``).
BOOTSTRAP_METHODS = ("percentile", "basic", "bca")

#: The tests :func:`compare_systems` and :func:`compare_runs` run.
SIGNIFICANCE_TESTS = ("t", "randomization", "wilcoxon")

#: The multiple-comparison corrections of :func:`compare_runs`.
CORRECTIONS = (None, "holm", "bonferroni")

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


ProportionInterval = make_result(
    "ProportionInterval", ("low", "high"), ("estimate", "confidence", "method"),
    module=__name__,
    doc="A confidence interval for a proportion; unpacks like ``(low, high)``, with the point "
        "``estimate`` k/n, the ``confidence`` level and the ``method`` as attributes.",
)

ConfidenceInterval = make_result(
    "ConfidenceInterval", ("low", "high"), module=__name__,
    doc="The two ends of a confidence interval, as scipy's ``ConfidenceInterval``.",
)

BootstrapInterval = make_result(
    "BootstrapInterval", ("low", "high"),
    ("estimate", "standard_error", "distribution", "confidence_interval", "confidence",
     "method", "n_resamples", "resampling"),
    module=__name__,
    doc="A bootstrap confidence interval; unpacks like ``(low, high)``. Also has the "
        "``estimate`` (the metric on the data), the bootstrap ``standard_error``, the "
        "``distribution`` of the resampled values, ``confidence_interval`` (scipy-style), "
        "``confidence``, ``method``, ``n_resamples`` and ``resampling`` (how the resamples "
        "were evaluated: 'multinomial', 'vectorized' or 'loop').",
)

VarianceTestResult = make_result(
    "VarianceTestResult", ("statistic", "pvalue"), ("test", "variance_ratio"),
    module=__name__,
    doc="The result of a test of equal variances; unpacks like ``(statistic, pvalue)``. Also "
        "has the ``test`` used and the ``variance_ratio`` var(a) / var(b) (ddof = 1).",
)

#: The tests of equal variance that :func:`equal_variance_test` runs.
VARIANCE_TESTS = ("f", "bartlett", "levene")

RandomizationResult = make_result(
    "RandomizationResult", ("statistic", "pvalue"),
    ("null_distribution", "exact", "n_resamples"),
    module=__name__,
    doc="The result of a paired randomization test; unpacks like ``(statistic, pvalue)``. "
        "Also has the ``null_distribution`` (mean differences under sign flips), whether the "
        "test was ``exact`` (every flip enumerated) and ``n_resamples`` (flips used).",
)


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
    k = np.asarray(successes)
    size = np.asarray(n)
    for name, value in (("successes", k), ("n", size)):
        whole = value.dtype.kind in "iu" or (
            value.dtype.kind == "f" and np.all(np.isfinite(value) & (value == np.round(value)))
        )
        if not whole:
            raise ValueError(f"{name} must be whole numbers; got {value!r}")
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
        half = z * np.sqrt(p_hat * (1.0 - p_hat) / size)
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


def simulate_test_accuracies(
    n_test: int, true_accuracy: float, *, n_sets: int = 5000, seed: Any = None
) -> np.ndarray:
    r"""Accuracies measured on many simulated test sets of one size, for one classifier.

    Each test set has ``n_test`` independent items, each answered correctly with probability
    :math:`p` = ``true_accuracy``, so the number correct is binomial and the measured
    accuracy is

    .. math::

        \hat p = K / n, \qquad K \sim \operatorname{Binomial}(n, p), \qquad
        \operatorname{SD}(\hat p) = \sqrt{p(1-p)/n}.

    Parameters
    ----------
    n_test : int
        Items per test set :math:`n`, at least 1.
    true_accuracy : float
        The classifier's true accuracy :math:`p`, in [0, 1].
    n_sets : int, default 5000
        Number of simulated test sets, at least 1.
    seed : None, int or numpy.random.Generator
        Seed of the random draws; the same seed gives the same test sets
        (``np.random.default_rng(seed).binomial(n_test, true_accuracy, n_sets) / n_test``).

    Returns
    -------
    ndarray of float, shape (n_sets,)
        The measured accuracy :math:`k/n` of each test set.

    References
    ----------
    Mitchell, T. M. (1997). Machine Learning, chapter 5 (evaluating hypotheses: the binomial
    distribution of the sample error). McGraw-Hill.

    Examples
    --------
    >>> measured = simulate_test_accuracies(100, 0.8, n_sets=20000, seed=0)
    >>> measured.shape, round(float(measured.std()), 2)
    ((20000,), 0.04)
    >>> simulate_test_accuracies(4, 1.0, n_sets=3, seed=0).tolist()
    [1.0, 1.0, 1.0]
    """
    n_test = check_scalar(n_test, "n_test", kind="int", low=1)
    true_accuracy = check_scalar(true_accuracy, "true_accuracy", low=0.0, high=1.0)
    n_sets = check_scalar(n_sets, "n_sets", kind="int", low=1)
    rng = check_seed(seed)
    return rng.binomial(n_test, true_accuracy, n_sets) / n_test


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


# --------------------------------------------------------------------------------------------
# Bootstrap confidence intervals
# --------------------------------------------------------------------------------------------

# Elements per block of resampled row indices (int64: 32 MB). Resamples are drawn in blocks
# of whole resamples; numpy draws each index from the stream in turn, so the blocks see the
# indices one call would draw, as scipy.stats.bootstrap draws them: the same Generator gives
# scipy's very resamples, whatever the block size.
_INDEX_BLOCK = 1 << 22
# Cells per block of resampled confusion matrices (R x k x k, int64: 8 MB).
_STACK_BLOCK = 1 << 20


def _array_names(metric: Callable[..., Any], count: int) -> list[str]:
    """The names the metric gives its first ``count`` positional arguments, for messages."""
    names: list[str] = []
    try:
        parameters = list(inspect.signature(metric).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature
        parameters = []
    for parameter in parameters:
        if len(names) == count or parameter.kind not in (
                parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            break
        if parameter.name != "axis":
            names.append(parameter.name)
    return names + [f"arrays[{i}]" for i in range(len(names), count)]


def _check_rows(arrays: tuple[Any, ...], names: list[str]) -> list[np.ndarray]:
    checked = []
    for name, values in zip(names, arrays, strict=True):
        array = values.to_numpy() if isinstance(values, pd.DataFrame) else as_array(values, name)
        if array.ndim == 0:
            raise ValueError(f"{name} must hold one row per sample; got a single value "
                             f"{array.item()!r}")
        if len(array) == 0:
            raise ValueError(f"{name} is empty; expected at least 2 rows to resample")
        checked.append(array)
    check_consistent_length(**dict(zip(names, checked, strict=True)))
    if len(checked[0]) < 2:
        raise ValueError(f"{names[0]} has 1 row; the bootstrap needs at least 2 rows")
    return checked


def _one_number(value: Any, where: str) -> float:
    """The metric's value as a float; anything but one real number is a TypeError."""
    array = np.asarray(value)
    if array.ndim != 0 or array.dtype.kind not in "biuf":
        shown = f"an array of shape {array.shape}" if array.ndim else repr(value)
        raise TypeError(f"metric must return a single number; got {shown} on {where} "
                        "(for per-class scores, bootstrap one class at a time, e.g. with "
                        "labels=[c] and average='macro')")
    return float(array)


def _check_distribution(values: np.ndarray, what: str) -> np.ndarray:
    bad = np.isnan(values)
    if bad.any():
        raise ValueError(
            f"metric returned NaN on {int(bad.sum())} of {len(values)} {what} (a ratio with "
            "a zero denominator under zero_division=np.nan?); give zero_division a number "
            "or use more data")
    return values


@contextlib.contextmanager
def _each_warning_once(prefix: str) -> Iterator[None]:
    """Re-emit each distinct warning of a block once (a metric called a thousand times
    would otherwise repeat itself), prefixed to say where it came from."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    seen = set()
    for warning in caught:
        key = (warning.category, str(warning.message))
        if key not in seen:
            seen.add(key)
            warnings.warn(f"{prefix}{warning.message}", warning.category, stacklevel=4)


def _multinomial_resamples(
    stacked: StackedMetric, arrays: list[np.ndarray], n_resamples: int,
    rng: np.random.Generator, jackknife: bool,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Bootstrap values (and jackknife values with their multiplicities) of a
    confusion-matrix metric, from counts alone."""
    classes, matrix, y_true = stacked.confusion(*arrays)
    n, k = len(y_true), len(classes)
    counts = matrix.ravel()
    cells = np.flatnonzero(counts)
    shares = counts[cells] / n
    values = np.empty(n_resamples)
    block = max(1, _STACK_BLOCK // (k * k))
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        stack = np.zeros((size, k * k), dtype=np.int64)
        stack[:, cells] = rng.multinomial(n, shares, size=size)
        values[start:start + size] = stacked(classes, stack.reshape(size, k, k), n, y_true)
    if not jackknife:
        return values, None, None
    # Leaving out any one row of cell (i, j) gives the same matrix, C - e_ij: one value per
    # non-empty cell, weighted by the cell's count.
    left_out = np.empty(len(cells))
    for start in range(0, len(cells), block):
        chunk = cells[start:start + block]
        stack = np.repeat(counts[None, :], len(chunk), axis=0)
        stack[np.arange(len(chunk)), chunk] -= 1
        left_out[start:start + len(chunk)] = stacked(
            classes, stack.reshape(len(chunk), k, k), n - 1, y_true)
    return values, left_out, counts[cells].astype(np.float64)


def _index_resamples(
    metric: Callable[..., Any], arrays: list[np.ndarray], n_resamples: int,
    rng: np.random.Generator, vectorized: bool,
) -> np.ndarray:
    """Bootstrap values of any metric: resampled row indices, shared by all arrays."""
    n = len(arrays[0])
    values = np.empty(n_resamples)
    block = max(1, _INDEX_BLOCK // n)
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        rows = rng.integers(0, n, size=(size, n))
        if vectorized:
            values[start:start + size] = _batch_values(metric, arrays, rows)
        else:
            for offset, drawn in enumerate(rows):  # the documented loop over resamples
                values[start + offset] = _one_number(
                    metric(*(array[drawn] for array in arrays)), "a resample")
    return values


def _batch_values(metric: Callable[..., Any], arrays: list[np.ndarray],
                  rows: np.ndarray) -> np.ndarray:
    """A vectorised metric on a block of row selections: each array as (block, ..., n)."""
    batch = [np.moveaxis(array[rows], 1, -1) for array in arrays]
    values = np.asarray(metric(*batch, axis=-1), dtype=np.float64)
    if values.shape != (len(rows),):
        raise TypeError(f"metric(..., axis=-1) must return one number per resample, shape "
                        f"({len(rows)},); got shape {values.shape} (pass vectorized=False "
                        "if it does not take a batch axis)")
    return values


def _index_jackknife(metric: Callable[..., Any], arrays: list[np.ndarray],
                     vectorized: bool) -> np.ndarray:
    """The metric on the data without row i, for every i (n calls, or n rows of a batch)."""
    n = len(arrays[0])
    everything = np.arange(n)
    values = np.empty(n)
    block = max(1, _INDEX_BLOCK // n)
    for start in range(0, n, block):
        left_out = np.arange(start, min(start + block, n))
        keep = everything[None, :] != left_out[:, None]
        rows = np.broadcast_to(everything, keep.shape)[keep].reshape(len(left_out), n - 1)
        if vectorized:
            values[left_out] = _batch_values(metric, arrays, rows)
        else:
            for offset, kept in zip(left_out, rows, strict=True):
                values[offset] = _one_number(metric(*(array[kept] for array in arrays)),
                                             "a jackknife sample")
    return values


def _bca_levels(distribution: np.ndarray, estimate: float, jackknife: np.ndarray,
                weights: np.ndarray, alpha: float) -> tuple[float, float]:
    """The quantile levels of the BCa interval (Efron & Tibshirani 1993, 14.3 and 15.4),
    computed as ``scipy.stats.bootstrap`` computes them; ``weights`` counts how many rows
    share each jackknife value."""
    below = np.count_nonzero(distribution < estimate)
    at_or_below = np.count_nonzero(distribution <= estimate)
    bias = special.ndtri((below + at_or_below) / (2.0 * len(distribution)))
    if np.isinf(bias):
        warnings.warn(
            "BCa: the estimate lies outside every resampled value, so the bias correction is "
            "infinite and the interval collapses to the resamples' "
            f"{'maximum' if bias > 0 else 'minimum'} (scipy.stats.bootstrap returns NaN here); "
            "try method='percentile'", RuntimeWarning, stacklevel=3)
        return (1.0, 1.0) if bias > 0 else (0.0, 0.0)
    n = weights.sum()
    spread = (n - 1) * (np.dot(weights, jackknife) / n - jackknife)
    squares = np.dot(weights, spread**2) / n**2
    # Every jackknife value equal: no skewness to correct for (scipy: 0 / 0 = NaN).
    acceleration = 0.0 if squares == 0 else np.dot(weights, spread**3) / n**3 / (
        6.0 * squares**1.5)
    z_alpha = special.ndtri(alpha)
    levels = []
    for z in (z_alpha, -z_alpha):
        shifted = bias + z
        levels.append(float(special.ndtr(bias + shifted / (1.0 - acceleration * shifted))))
    return levels[0], levels[1]


def bootstrap_ci(
    metric: Callable[..., Any],
    *arrays: Any,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: Any = None,
    vectorized: bool | None = None,
) -> BootstrapInterval:
    r"""Bootstrap confidence interval for any metric of one or more arrays of samples.

    Draw the *n* rows with replacement (row *i* of every array together, so pairs such as
    ``y_true[i], y_pred[i]`` stay pairs), compute the metric on each of *R* resamples, and
    read the interval off the distribution :math:`\hat\theta^*_1, \dots, \hat\theta^*_R` of
    those values, with :math:`\hat\theta` the metric on the data and
    :math:`\alpha = (1 - c)/2` for confidence :math:`c`:

    .. math::

        \text{percentile: } \bigl[q_{\alpha},\ q_{1-\alpha}\bigr] \qquad
        \text{basic: } \bigl[2\hat\theta - q_{1-\alpha},\ 2\hat\theta - q_{\alpha}\bigr]
        \qquad \text{BCa: } \bigl[q_{\alpha_1},\ q_{\alpha_2}\bigr]

    where :math:`q_p` is the *p* quantile of the resampled values (linear interpolation, as
    ``numpy.quantile``) and BCa's levels correct for bias (:math:`z_0`) and skewness
    (:math:`a`, from the jackknife values :math:`\hat\theta_{(i)}`, the metric without row
    *i*): :math:`\alpha_{1,2} = \Phi\bigl(z_0 + \frac{z_0 \pm z_\alpha}{1 - a (z_0 \pm
    z_\alpha)}\bigr)`, :math:`z_0 = \Phi^{-1}(\#\{\hat\theta^*_r < \hat\theta\}/R)` (ties
    count half), :math:`a = \frac{\sum_i U_i^3}{6 (\sum_i U_i^2)^{3/2}}`,
    :math:`U_i = (n - 1)(\bar\theta_{(\cdot)} - \hat\theta_{(i)})`.

    The numbers are those of ``scipy.stats.bootstrap((*arrays,), statistic, paired=True,
    method=method, confidence_level=confidence)``: for any metric but evalkit's
    confusion-matrix metrics, the resampled rows are drawn as scipy draws them, so with the
    same ``numpy.random.Generator`` the interval is scipy's to rounding.

    How the resamples are evaluated (``.resampling`` of the result):

    - ``"multinomial"``: ``metric`` is one of evalkit's confusion-matrix metrics
      (:func:`~evalkit.accuracy`, :func:`~evalkit.error_rate`, :func:`~evalkit.precision`,
      :func:`~evalkit.recall`, :func:`~evalkit.sensitivity`, :func:`~evalkit.specificity`,
      :func:`~evalkit.f_score`, :func:`~evalkit.f1_score`, :func:`~evalkit.cohen_kappa`) or a
      ``functools.partial`` of one that fixes keywords, called on ``(y_true, y_pred)``.
      Resampling rows then only redistributes the confusion-matrix cells: the R matrices
      are drawn at once as :math:`C^* \sim \mathrm{Multinomial}(n, C/n)` and the metric is
      computed on all of them in one vectorised pass; BCa's jackknife needs one value per
      non-empty cell (leaving out any row of cell (i, j) gives the same matrix). A
      resample that misses a class is scored as the metric scores such data (without
      ``labels``, over the classes it holds). The draws differ from scipy's, the
      distribution does not.
    - ``"vectorized"``: ``metric`` takes an ``axis`` keyword (as ``np.mean``; or pass
      ``vectorized=True``): it is called on blocks of resamples, each array as
      ``(block, ..., n)`` with ``axis=-1``, as scipy calls a vectorised statistic.
    - ``"loop"``: any other callable is called once per resample (and, for BCa, once per
      left-out row: n more calls). Correct for any metric, but a Python loop: wrap
      evalkit's metrics in ``functools.partial``, not in a ``lambda``, to get the fast path.

    Parameters
    ----------
    metric : callable
        ``metric(*arrays)`` returns one number. Arrays reach it as numpy arrays.
    *arrays : array-like
        One or more arrays with one row per sample (the same number of rows each), e.g.
        ``y_true, y_pred``; an (n, k) array's rows are resampled as wholes.
    n_resamples : int, default 1000
        Number of resamples R (at least 2).
    confidence : float, default 0.95
        Confidence level, strictly between 0 and 1.
    method : {"percentile", "basic", "bca"}, default "percentile"
    seed : None, int or numpy.random.Generator, optional
        Seed for ``np.random.default_rng``; a Generator is used (and advanced) as it is.
    vectorized : bool, optional
        Whether ``metric`` takes an ``axis`` keyword and a batch of resamples. Default:
        whether its signature has ``axis``. Ignored on the multinomial path.

    Returns
    -------
    BootstrapInterval
        Unpacks like ``(low, high)``; also ``.estimate`` (the metric on the data),
        ``.standard_error`` (SD of the resampled values, ddof = 1), ``.distribution`` (the
        R values), ``.confidence_interval`` (``.low``, ``.high``, as scipy's result),
        ``.confidence``, ``.method``, ``.n_resamples`` and ``.resampling``.

    Raises
    ------
    ValueError
        Arrays of different lengths or with fewer than 2 rows, bad options, or a metric
        that returns NaN on the data or on some resample (e.g. ``zero_division=np.nan``).
    TypeError
        A ``metric`` that is not callable or does not return one number.

    Notes
    -----
    Where scipy returns NaN, this function returns a documented value: when all jackknife
    values are equal, BCa's acceleration is 0; when the estimate lies outside every
    resampled value, the BCa interval is the resamples' minimum or maximum (with a
    warning). A constant distribution (every resample gives the same value) gives a
    zero-width interval.

    References
    ----------
    Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap, chapters 13,
    14.3 and 22. Chapman & Hall.
    Davison, A. C. and Hinkley, D. V. (1997). Bootstrap Methods and their Application,
    section 5.2 (the basic interval). Cambridge University Press.

    Examples
    --------
    >>> import functools
    >>> import evalkit as ek
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 3, 400)
    >>> y_pred = np.where(rng.random(400) < 0.8, y_true, rng.integers(0, 3, 400))
    >>> macro_f1 = functools.partial(ek.f1_score, average="macro")
    >>> result = bootstrap_ci(macro_f1, y_true, y_pred, seed=1)
    >>> round(result.estimate, 3), round(result.low, 3), round(result.high, 3)
    (0.865, 0.828, 0.9)
    >>> result.resampling, len(result.distribution)
    ('multinomial', 1000)
    >>> low, high = bootstrap_ci(np.mean, [0.31, 0.52, 0.18, 0.77, 0.45, 0.6], method="bca",
    ...                          seed=1)
    >>> round(low, 3), round(high, 3)
    (0.313, 0.63)
    """
    if not callable(metric):
        raise TypeError("metric must be a callable such as ek.accuracy or "
                        "functools.partial(ek.f1_score, average='macro'); "
                        f"got {metric!r} (a {type(metric).__name__})")
    if not arrays:
        raise TypeError("bootstrap_ci needs the arrays to resample after the metric, e.g. "
                        "bootstrap_ci(ek.accuracy, y_true, y_pred)")
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=2)
    confidence = check_scalar(confidence, "confidence", low=0, high=1, low_inclusive=False,
                              high_inclusive=False)
    method = check_option(method, "method",
                          BOOTSTRAP_METHODS)
    if vectorized not in (None, True, False):
        raise TypeError(f"vectorized must be None, True or False; got {vectorized!r}")
    rng = check_seed(seed)
    checked = _check_rows(arrays, _array_names(metric, len(arrays)))
    estimate = _one_number(metric(*checked), "the data")
    if np.isnan(estimate):
        raise ValueError("metric returned NaN on the data (a ratio with a zero denominator "
                         "under zero_division=np.nan?); nothing to resample around")
    stacked = stacked_metric(metric, *checked) if len(checked) == 2 else None
    weights = None
    with _each_warning_once("bootstrap resamples: "):
        if stacked is not None:
            resampling = "multinomial"
            distribution, jackknife, weights = _multinomial_resamples(
                stacked, checked, n_resamples, rng, jackknife=method == "bca")
        else:
            if vectorized is None:
                vectorized = _takes_axis(metric)
            resampling = "vectorized" if vectorized else "loop"
            distribution = _index_resamples(metric, checked, n_resamples, rng, vectorized)
            jackknife = (_index_jackknife(metric, checked, vectorized) if method == "bca"
                         else None)
    _check_distribution(distribution, "resamples")
    alpha = (1.0 - confidence) / 2.0
    if method == "bca":
        _check_distribution(jackknife, "jackknife samples (the data without one row)")
        if weights is None:
            weights = np.ones(len(jackknife))
        levels = _bca_levels(distribution, estimate, jackknife, weights, alpha)
    else:
        levels = (alpha, 1.0 - alpha)
    low, high = (float(q) for q in np.quantile(distribution, levels))
    if method == "basic":
        low, high = 2.0 * estimate - high, 2.0 * estimate - low
    return BootstrapInterval(
        low, high, estimate=estimate, standard_error=float(np.std(distribution, ddof=1)),
        distribution=distribution, confidence_interval=ConfidenceInterval(low, high),
        confidence=confidence, method=method, n_resamples=n_resamples, resampling=resampling)


def _takes_axis(metric: Callable[..., Any]) -> bool:
    try:
        return "axis" in inspect.signature(metric).parameters
    except (TypeError, ValueError):
        return False


# --------------------------------------------------------------------------------------------
# Paired randomization (sign-flip) test
# --------------------------------------------------------------------------------------------

# Bytes of sign patterns per block (with their table look-ups, about 4 MB, which stays in
# the CPU cache): memory stays bounded whatever R and n are.
_FLIP_BLOCK = 1 << 18
# Null sums within this share of sum |d| of the observed one count as equal to it: flipped
# sums that are equal in exact arithmetic (ties are common with scores such as P@10) differ
# by rounding, which stays far below this; distinct sums of real data differ far above it.
_TIE_TOLERANCE = 1e-12


def _paired_scores(scores_a: Any, scores_b: Any) -> tuple[np.ndarray, np.ndarray]:
    a = check_finite_scores(scores_a, "scores_a")
    b = check_finite_scores(scores_b, "scores_b")
    check_consistent_length(scores_a=a, scores_b=b)
    _check_at_least_two(a, "scores_a")
    return a, b


def _check_at_least_two(values: np.ndarray, name: str) -> None:
    if len(values) < 2:
        raise ValueError(f"{name} holds 1 value; a test or an effect size needs at least 2 "
                         "(one per query or run)")


def _byte_sums(difference: np.ndarray) -> np.ndarray:
    """Table of flipped partial sums: entry (g, m) is the sum of the differences of queries
    8g .. 8g + 7 whose bit is set in the byte m (bit j = query 8g + j)."""
    groups = -(-len(difference) // 8)
    padded = np.zeros(groups * 8)
    padded[: len(difference)] = difference
    bits = (np.arange(256)[:, None] >> np.arange(8)) & 1
    return (padded.reshape(groups, 8) @ bits.T.astype(np.float64)).ravel()


def _sign_flip_null(difference: np.ndarray, n_resamples: int, exact: bool,
                    rng: np.random.Generator) -> np.ndarray:
    """The null distribution of sum(d) under sign flips, block by block: every pattern
    (exact) or ``n_resamples`` random ones.

    A pattern is a string of bits, one per query (1: flip its sign), so its flipped sum is
    sum(d) - 2 b.d. Rather than a product with an (R, n) matrix of bits, each byte of a
    pattern looks up the partial sum of its 8 queries in a (n/8, 256) table: n/8 additions
    per pattern, and random bytes need no unpacking.
    """
    n = len(difference)
    groups = -(-n // 8)
    table = _byte_sums(difference)
    offsets = (np.arange(groups) * 256).astype(np.int32)
    total = 2**n if exact else n_resamples
    sums = np.empty(total)
    block = max(1, _FLIP_BLOCK // groups)
    index = np.empty((min(block, total), groups), dtype=np.int32)
    for start in range(0, total, block):
        stop = min(start + block, total)
        if exact:
            # Pattern m flips query i when bit i of m is set: all 2^n patterns, once each.
            patterns = (np.arange(start, stop)[:, None] >> (8 * np.arange(groups))) & 255
        else:
            # One 64-bit draw per 64 queries: a pattern uses the same draws whatever the
            # block size, so the result depends on the seed only.
            words = rng.integers(0, 2**64, size=(stop - start, -(-n // 64)), dtype=np.uint64)
            patterns = words.view(np.uint8)[:, :groups]
        looked_up = np.add(patterns, offsets, out=index[: stop - start], casting="unsafe")
        sums[start:stop] = difference.sum() - 2.0 * table[looked_up].sum(axis=1)
    return sums


def paired_randomization_test(
    scores_a: Any, scores_b: Any, *, n_resamples: int = 10000, seed: Any = None
) -> RandomizationResult:
    r"""Two-sided paired randomization test: could the difference be a coin flip per query?

    Under the null hypothesis the two systems are exchangeable on each query, so each
    per-query difference :math:`d_i = a_i - b_i` is as likely to have had the other sign.
    The test compares the observed mean difference with its distribution over sign flips
    :math:`s \in \{-1, 1\}^n`:

    .. math::

        \bar d = \frac{1}{n}\sum_i d_i, \qquad
        p = \frac{\#\{s : |\tfrac{1}{n}\sum_i s_i d_i| \ge |\bar d|\}}{2^n}

    exactly, by enumerating all :math:`2^n` flips, when :math:`2^n \le` ``n_resamples``;
    otherwise from R random flips, :math:`p = (b + 1) / (R + 1)` with *b* the number of
    flips at least as extreme (Phipson & Smyth 2010), so a Monte-Carlo p-value is never 0.
    Flips are processed in blocks, each pattern's flipped sum assembled from a table of
    partial sums of 8 queries (n/8 look-ups per pattern instead of n products), so memory
    stays bounded (a few MB) for any number of queries and resamples.

    This is ``scipy.stats.permutation_test((scores_a, scores_b), statistic,
    permutation_type="samples")`` with ``statistic`` the mean difference: identical when
    exact; from random flips scipy's two-sided p is :math:`2 \min(p_\le, p_\ge)`, which
    estimates the same number (the flip distribution is symmetric), while *b* here counts
    :math:`|\cdot| \ge |\bar d|` directly (Smucker et al. 2007). Null sums equal to the
    observed one up to rounding (within :math:`10^{-12} \sum_i |d_i|`) count as ties.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_queries,)
        Per-query scores of two systems on the same queries (e.g. AP), in the same order;
        at least 2 queries, finite numbers.
    n_resamples : int, default 10000
        Number of random sign flips R; also the threshold for exact enumeration.
    seed : None, int or numpy.random.Generator, optional
        Seed for ``np.random.default_rng`` (unused when the test is exact).

    Returns
    -------
    RandomizationResult
        Unpacks like ``(statistic, pvalue)``: the mean difference :math:`\bar d` and the
        two-sided p-value in (0, 1]. Also ``.null_distribution`` (the mean difference of
        each flip), ``.exact`` and ``.n_resamples`` (:math:`2^n` when exact). When every
        difference is 0 the p-value is 1.

    References
    ----------
    Fisher, R. A. (1935). The Design of Experiments, section 21. Oliver & Boyd.
    Smucker, M. D., Allan, J. and Carterette, B. (2007). A comparison of statistical
    significance tests for information retrieval evaluation. CIKM 2007, 623–632.
    Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never be zero.
    Statistical Applications in Genetics and Molecular Biology 9(1), article 39.

    Examples
    --------
    >>> ap_new = [0.42, 0.55, 0.31, 0.78, 0.60, 0.25, 0.91, 0.47]
    >>> ap_old = [0.35, 0.50, 0.33, 0.61, 0.52, 0.20, 0.85, 0.40]
    >>> result = paired_randomization_test(ap_new, ap_old)   # 2^8 = 256 flips: exact
    >>> round(result.statistic, 4), round(result.pvalue, 4), result.exact
    (0.0663, 0.0156, True)
    >>> result = paired_randomization_test(ap_new * 3, ap_old * 3, seed=0)
    >>> result.exact, result.n_resamples, result.pvalue > 0
    (False, 10000, True)
    """
    a, b = _paired_scores(scores_a, scores_b)
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    rng = check_seed(seed)
    difference = a - b
    n = len(difference)
    exact = n < 63 and 2**n <= n_resamples
    null_sums = _sign_flip_null(difference, n_resamples, exact, rng)
    observed = difference.sum()
    tolerance = _TIE_TOLERANCE * np.abs(difference).sum()
    extreme = int(np.count_nonzero(np.abs(null_sums) >= abs(observed) - tolerance))
    if exact:
        pvalue = extreme / len(null_sums)
    else:
        pvalue = (extreme + 1) / (n_resamples + 1)
    return RandomizationResult(float(np.mean(difference)), float(pvalue),
                               null_distribution=null_sums / n, exact=exact,
                               n_resamples=len(null_sums))


# --------------------------------------------------------------------------------------------
# Effect sizes
# --------------------------------------------------------------------------------------------


def _ratio_or_infinity(numerator: float, denominator: float) -> float:
    """numerator / denominator, where a zero spread gives 0 (no difference) or +-inf."""
    if denominator == 0:
        return 0.0 if numerator == 0 else math.copysign(math.inf, numerator)
    return float(numerator / denominator)


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


# --------------------------------------------------------------------------------------------
# Comparing systems
# --------------------------------------------------------------------------------------------

_TEST_NAMES = {("t", True): "paired t", ("t", False): "Welch t",
               ("randomization", True): "randomization", ("wilcoxon", True): "Wilcoxon"}


def _unit_scale(values: np.ndarray) -> np.ndarray:
    """``values`` divided by their largest magnitude (unchanged when all are 0): ratios of a
    mean to an SD stay the same, and differences of 1e-200 no longer square to 0."""
    largest = np.max(np.abs(values)) if values.size else 0.0
    return values / largest if largest > 0 else values


def _difference_test(a: np.ndarray, b: np.ndarray, *, paired: bool, test: str,
                     n_resamples: int, rng: np.random.Generator) -> tuple[float, float]:
    """(statistic, p-value) of one two-sided test; the inputs are checked."""
    if test == "randomization":
        result = paired_randomization_test(a, b, n_resamples=n_resamples, seed=rng)
        return result.statistic, result.pvalue
    if paired and not np.any(a != b):
        # Identical scores: no evidence of a difference (scipy's t gives NaN: 0 / 0).
        return 0.0, 1.0
    if test == "wilcoxon":
        result = stats.wilcoxon(a, b)
        return float(result.statistic), float(result.pvalue)
    if paired:
        difference = _unit_scale(a - b)
        if np.ptp(difference) == 0:  # constant, non-zero differences: t is +-inf, as scipy
            return math.copysign(math.inf, difference.mean()), 0.0
        # ttest_rel(a, b) is the one-sample test of a - b; t does not change when the
        # differences are rescaled, and rescaled ones cannot underflow when squared.
        result = stats.ttest_1samp(difference, 0.0)
    else:
        if a.std() == 0 and b.std() == 0:
            if a[0] == b[0]:
                return 0.0, 1.0
            return math.copysign(math.inf, a[0] - b[0]), 0.0
        result = stats.ttest_ind(a, b, equal_var=False)
    return float(result.statistic), float(result.pvalue)


def compare_systems(
    scores_a: Any,
    scores_b: Any,
    *,
    paired: bool = True,
    test: str = "t",
    n_resamples: int = 10000,
    seed: Any = None,
) -> pd.DataFrame:
    r"""Is system A better than system B? The difference, a significance test, the effect size.

    For per-query (or per-run) scores of two systems, one row holds the two means, their
    difference :math:`\bar a - \bar b`, the test's statistic and two-sided p-value, Cohen's
    d (:func:`cohens_d`; :math:`d_z` when paired) and its :func:`effect_size_label`. The
    tests are scipy's:

    .. math::

        t = \frac{\overline{a - b}}{s_{a-b} / \sqrt{n}} \quad\text{(paired)}, \qquad
        t = \frac{\bar a - \bar b}{\sqrt{s_a^2 / n_a + s_b^2 / n_b}} \quad\text{(Welch)}

    - ``"t"``: ``scipy.stats.ttest_rel(scores_a, scores_b)`` when ``paired``, else Welch's
      ``scipy.stats.ttest_ind(scores_a, scores_b, equal_var=False)``;
    - ``"randomization"``: :func:`paired_randomization_test` (statistic: the mean
      difference);
    - ``"wilcoxon"``: ``scipy.stats.wilcoxon(scores_a, scores_b)`` with scipy's defaults
      (zero differences dropped; statistic: the smaller signed-rank sum).

    The last two need paired scores. A small p-value says the difference is unlikely to be
    chance; the effect size says whether it is large enough to matter. Compare many systems
    with :func:`compare_runs`, which corrects for the number of tests.

    Parameters
    ----------
    scores_a, scores_b : array-like
        Scores of the two systems, e.g. per-query AP from :func:`evalkit.evaluate` (at least
        2 each, finite). Paired: the same queries in the same order.
    paired : bool, default True
        Whether row i of both is the same query (or test set, or seed).
    test : {"t", "randomization", "wilcoxon"}, default "t"
    n_resamples : int, default 10000
        Sign flips of the randomization test.
    seed : None, int or numpy.random.Generator, optional
        Seed of the randomization test.

    Returns
    -------
    DataFrame
        One row, indexed by the test's name ("paired t", "Welch t", "randomization",
        "Wilcoxon"), with columns ``mean_a``, ``mean_b``, ``difference``, ``statistic``,
        ``pvalue``, ``cohens_d``, ``effect_size_label``. When the paired scores are
        identical, the statistic and d are 0 and the p-value is 1 (scipy's t test gives NaN);
        constant non-zero differences give t = d = ±inf and p = 0.

    References
    ----------
    Student (1908). The probable error of a mean. Biometrika 6(1), 1–25.
    Welch, B. L. (1947). The generalization of "Student's" problem when several different
    population variances are involved. Biometrika 34(1–2), 28–35.
    Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin
    1(6), 80–83.
    Smucker, M. D., Allan, J. and Carterette, B. (2007). A comparison of statistical
    significance tests for information retrieval evaluation. CIKM 2007, 623–632.

    Examples
    --------
    >>> ap_new = [0.42, 0.55, 0.31, 0.78, 0.60, 0.25, 0.91, 0.47]
    >>> ap_old = [0.35, 0.50, 0.33, 0.61, 0.52, 0.20, 0.85, 0.40]
    >>> table = compare_systems(ap_new, ap_old)
    >>> print(table.round(4).T.to_string(header=False))
    mean_a                 0.5362
    mean_b                   0.47
    difference             0.0663
    statistic              3.5979
    pvalue                 0.0088
    cohens_d                1.272
    effect_size_label  very large
    """
    paired = check_bool(paired, "paired")
    test = check_option(test, "test", SIGNIFICANCE_TESTS)
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    rng = check_seed(seed)
    if paired:
        a, b = _paired_scores(scores_a, scores_b)
    else:
        a = check_finite_scores(scores_a, "scores_a")
        b = check_finite_scores(scores_b, "scores_b")
        _check_at_least_two(a, "scores_a")
        _check_at_least_two(b, "scores_b")
        if test != "t":
            raise ValueError(f"test={test!r} compares paired scores; with paired=False use "
                             "test='t' (Welch's t test)")
    statistic, pvalue = _difference_test(a, b, paired=paired, test=test,
                                         n_resamples=n_resamples, rng=rng)
    d = cohens_d(a, b, paired=paired)
    row = {"mean_a": a.mean(), "mean_b": b.mean(), "difference": a.mean() - b.mean(),
           "statistic": statistic, "pvalue": pvalue, "cohens_d": d,
           "effect_size_label": effect_size_label(d)}
    return pd.DataFrame([row], index=pd.Index([_TEST_NAMES[test, paired]], name="test"))


def _adjust(pvalues: np.ndarray, correction: str | None,
            alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Adjusted p-values and rejections, as statsmodels' ``multipletests``."""
    m = len(pvalues)
    if correction is None:
        return pvalues.copy(), pvalues <= alpha
    if correction == "bonferroni":
        return np.minimum(pvalues * m, 1.0), pvalues <= alpha / m
    # Holm: the i-th smallest p-value (from 0) is multiplied by m - i; adjusted values never
    # decrease along the sorted order; rejection stops at the first p > alpha / (m - i).
    order = np.argsort(pvalues)
    ordered = pvalues[order]
    multipliers = np.arange(m, 0, -1)
    adjusted = np.minimum(np.maximum.accumulate(ordered * multipliers), 1.0)
    fails = ordered > alpha / multipliers
    first_failure = int(np.argmax(fails)) if fails.any() else m
    result_adjusted, result_reject = np.empty(m), np.empty(m, dtype=bool)
    result_adjusted[order] = adjusted
    result_reject[order] = np.arange(m) < first_failure
    return result_adjusted, result_reject


def _check_score_table(scores: Any, baseline: Any) -> pd.DataFrame:
    if not isinstance(scores, pd.DataFrame):
        raise TypeError("scores must be a DataFrame with one column per system and one row per "
                        "query or run (e.g. pd.DataFrame({'bm25': ap_bm25, 'dense': "
                        f"ap_dense}})); got a {type(scores).__name__}")
    if scores.columns.duplicated().any():
        repeated = scores.columns[scores.columns.duplicated()].tolist()
        raise ValueError(f"scores has repeated column names {repeated}; one column per system")
    if baseline not in scores.columns:
        raise ValueError(f"baseline must be one of the columns of scores "
                         f"{scores.columns.tolist()}; got {baseline!r}")
    if scores.shape[1] < 2:
        raise ValueError("scores holds only the baseline; add a column per system to compare")
    if len(scores) < 2:
        raise ValueError(f"scores has {len(scores)} row(s); a test needs at least 2 queries "
                         "or runs")
    for column in scores.columns:
        values = scores[column]
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            raise ValueError(f"scores[{column!r}] must hold numbers; got dtype {values.dtype}")
        bad = ~np.isfinite(values.to_numpy(dtype=np.float64))
        if bad.any():
            row = values.index[int(np.flatnonzero(bad)[0])]
            raise ValueError(
                f"scores[{column!r}] contains NaN or inf at row {row!r} (a query missing "
                "from that run? evaluate(..., missing_queries='zero') scores it 0); scores "
                "must be finite numbers")
    return scores


def compare_runs(
    scores: pd.DataFrame,
    *,
    baseline: Any,
    test: str = "t",
    correction: str | None = "holm",
    alpha: float = 0.05,
    n_resamples: int = 10000,
    seed: Any = None,
) -> pd.DataFrame:
    r"""Compare many systems with a baseline: paired tests, corrected p-values, effect sizes.

    Each system's column is compared with the baseline's by a paired test (as
    :func:`compare_systems` with ``paired=True``); with *m* systems, *m* tests are run, and
    the chance that at least one of them is "significant" by luck grows with *m*. The
    correction controls that family-wise error rate at ``alpha``. With :math:`p_{(1)} \le
    \dots \le p_{(m)}` the sorted p-values:

    .. math::

        \text{Bonferroni: } \tilde p_i = \min(1, m\, p_i) \qquad
        \text{Holm: } \tilde p_{(i)} = \min\Bigl(1, \max_{j \le i} (m - j + 1)\, p_{(j)}\Bigr)

    A system is ``significant`` when its test rejects at ``alpha`` after correction:
    Bonferroni when :math:`p_i \le \alpha / m`; Holm (never less powerful) step-down, while
    :math:`p_{(i)} \le \alpha / (m - i + 1)`. Adjusted p-values and rejections are those of
    ``statsmodels.stats.multitest.multipletests(pvalues, alpha, method="holm")`` (or
    ``"bonferroni"``). The table is what PyTerrier's ``Experiment`` prints with a baseline.

    Parameters
    ----------
    scores : DataFrame
        One column per system (the column name is the system's name), one row per query or
        run, e.g. per-query AP of each run from :func:`evalkit.evaluate`. At least 2 rows;
        finite numbers (a query one run lacks is a NaN: score it first).
    baseline : column label
        The column the others are compared with.
    test : {"t", "randomization", "wilcoxon"}, default "t"
        Paired t test (``scipy.stats.ttest_rel``), :func:`paired_randomization_test` or
        ``scipy.stats.wilcoxon``.
    correction : {"holm", "bonferroni", None}, default "holm"
    alpha : float, default 0.05
        Family-wise error rate, in (0, 1).
    n_resamples : int, default 10000
        Sign flips of each randomization test.
    seed : None, int or numpy.random.Generator, optional
        Seed of the randomization tests (one stream, used system by system).

    Returns
    -------
    DataFrame
        One row per system other than the baseline, in column order, indexed by name
        (``system``): ``mean``, ``difference`` (mean minus the baseline's), ``statistic``,
        ``pvalue``, ``pvalue_adjusted``, ``significant`` (bool), ``cohens_d`` (paired
        :math:`d_z`) and ``effect_size_label``. ``.attrs`` records the baseline, its mean,
        the test, the correction and alpha.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian
    Journal of Statistics 6(2), 65–70.
    Dunn, O. J. (1961). Multiple comparisons among means. Journal of the American Statistical
    Association 56(293), 52–64 (the Bonferroni correction).
    Macdonald, C. and Tonellotto, N. (2020). Declarative experimentation in information
    retrieval using PyTerrier. ICTIR 2020, 161–168.

    Examples
    --------
    >>> import pandas as pd
    >>> ap = pd.DataFrame({
    ...     "bm25":   [0.35, 0.50, 0.33, 0.61, 0.52, 0.20, 0.85, 0.40],
    ...     "rm3":    [0.42, 0.55, 0.31, 0.78, 0.60, 0.25, 0.91, 0.47],
    ...     "dense":  [0.30, 0.58, 0.40, 0.55, 0.50, 0.28, 0.80, 0.43],
    ... })
    >>> table = compare_runs(ap, baseline="bm25")
    >>> columns = ["difference", "pvalue", "pvalue_adjusted", "significant"]
    >>> print(table[columns].round(4).to_string(index_names=False))
           difference  pvalue  pvalue_adjusted  significant
    rm3        0.0663  0.0088           0.0175         True
    dense      0.0100  0.6614           0.6614        False
    """
    scores = _check_score_table(scores, baseline)
    test = check_option(test, "test", SIGNIFICANCE_TESTS)
    correction = check_option(correction, "correction", CORRECTIONS)
    alpha = check_scalar(alpha, "alpha", low=0, high=1, low_inclusive=False,
                         high_inclusive=False)
    n_resamples = check_scalar(n_resamples, "n_resamples", kind="int", low=1)
    rng = check_seed(seed)
    base = scores[baseline].to_numpy(dtype=np.float64)
    systems = [column for column in scores.columns if column != baseline]
    rows = []
    for system in systems:  # a loop over systems (a handful), each test vectorised
        values = scores[system].to_numpy(dtype=np.float64)
        statistic, pvalue = _difference_test(values, base, paired=True, test=test,
                                             n_resamples=n_resamples, rng=rng)
        d = cohens_d(values, base, paired=True)
        rows.append({"mean": values.mean(), "difference": values.mean() - base.mean(),
                     "statistic": statistic, "pvalue": pvalue, "cohens_d": d,
                     "effect_size_label": effect_size_label(d)})
    table = pd.DataFrame(rows, index=pd.Index(systems, name="system"))
    adjusted, significant = _adjust(table["pvalue"].to_numpy(), correction, alpha)
    table.insert(4, "pvalue_adjusted", adjusted)
    table.insert(5, "significant", significant)
    table.attrs.update(baseline=baseline, baseline_mean=float(base.mean()), test=test,
                       correction=correction, alpha=alpha)
    return table


# --- Estimating accuracy from one small sample: the simulation of notebook 21 ---------------

#: Numbers of folds computed by default (leave-one-out is computed besides, as its own method).
K_VALUES = (2, 3, 5, 10, 20)
#: Holdout test fractions computed by default; 1/3 is the course notes' 2/3–1/3 split.
TEST_FRACTIONS = (0.1, 0.2, 0.25, 1 / 3, 0.4, 0.5, 0.6)
#: The methods of a table of estimates; "truth" is the accuracy on the untouched rest.
ESTIMATION_METHODS = ("truth", "holdout", "k-fold", "leave-one-out")
#: The columns of a table of estimates, one row per (sample, method, parameter).
ESTIMATION_COLUMNS = ("n_available", "repeat", "method", "parameter", "estimate")


def available_sample(n_total: int, n_available: int, *, seed: int,
                     repeat: int) -> tuple[np.ndarray, np.ndarray, int]:
    r"""The available sample of one repetition, the untouched rest, and the seed of its splits.

    A simulation of accuracy estimation draws many small *available* samples from a large
    data set of :math:`N` items; the model trained on a sample is scored on the rest, which
    plays the truth:

    .. math::

        S_r \subset \{0, \dots, N - 1\},\ |S_r| = n, \qquad
        a_r = \mathrm{acc}\bigl(\hat f_{S_r};\ \{0, \dots, N - 1\} \setminus S_r\bigr)

    The recipe, so that anyone can redraw a sample: ``rng =
    numpy.random.default_rng([seed, n_available, repeat])``; the first ``n_available`` of
    ``rng.permutation(n_total)`` are available, the others are the rest (both returned
    sorted); then ``split_seed = int(rng.integers(2**31 - 1))`` is the ``random_state`` of
    that sample's holdout and k-fold splitters.

    Parameters
    ----------
    n_total : int
        :math:`N`, the number of items in the whole data set (at least 2).
    n_available : int
        :math:`n`, the size of the available sample (2 to :math:`N - 1`).
    seed : int
        The seed of the whole study (>= 0).
    repeat : int
        Which repetition (>= 0); each gives another sample.

    Returns
    -------
    tuple
        ``(available, rest, split_seed)``: the sorted indices of the sample, the sorted
        indices of the rest, and the ``random_state`` of the sample's splitters.

    References
    ----------
    Kohavi, R. (1995). A study of cross-validation and bootstrap for accuracy estimation and
    model selection. IJCAI 1995, 1137–1143 (the design: many small samples of a larger
    data set, the rest as the truth).

    Examples
    --------
    >>> available, rest, split_seed = available_sample(10, 4, seed=0, repeat=0)
    >>> len(available), len(rest), sorted(set(available) | set(rest)) == list(range(10))
    (4, 6, True)
    """
    n_total = check_scalar(n_total, "n_total", kind="int", low=2)
    n_available = check_scalar(n_available, "n_available", kind="int", low=2,
                               high=n_total - 1)
    seed = check_scalar(seed, "seed", kind="int", low=0)
    repeat = check_scalar(repeat, "repeat", kind="int", low=0)
    rng = np.random.default_rng([seed, n_available, repeat])
    order = rng.permutation(n_total)
    split_seed = int(rng.integers(2**31 - 1))
    return np.sort(order[:n_available]), np.sort(order[n_available:]), split_seed


def _accuracy_of_fit(estimator: Any, X: np.ndarray, y: np.ndarray, train: np.ndarray,
                     test: np.ndarray) -> float:
    from sklearn.base import clone

    fitted = clone(estimator).fit(X[train], y[train])
    return float(np.mean(fitted.predict(X[test]) == y[test]))


def simulate_estimates(
    estimator: Any,
    X: Any,
    y: Any,
    *,
    n_available: int,
    n_repeats: int = 200,
    k_values: Sequence[int] = K_VALUES,
    test_fractions: Sequence[float] = TEST_FRACTIONS,
    leave_one_out: bool = True,
    seed: int = 0,
) -> pd.DataFrame:
    r"""Holdout, k-fold and leave-one-out estimates of accuracy on many small samples.

    The k-fold estimate is the mean of the fold accuracies, with :math:`F_j` the folds and
    :math:`\hat f_{-F_j}` the model trained on the other folds,

    .. math::

        \widehat{\mathrm{acc}}_{k\text{-CV}} = \frac1k \sum_{j=1}^{k} \frac{1}{|F_j|}
        \sum_{i \in F_j} \mathbf{1}\left[\hat f_{-F_j}(x_i) = y_i\right],

    the holdout is one such fold of size :math:`\lceil f n \rceil`, and leave-one-out is
    :math:`k = n`. For each of ``n_repeats`` repetitions, :func:`available_sample` draws
    ``n_available`` rows of ``X`` and ``y``; the rest stay untouched. On the available
    sample:

    - **truth**: a clone of ``estimator`` fitted on the whole sample, scored on the rest;
    - **holdout** (one row per test fraction *f*): ``train_test_split(test_size=f,
      random_state=split_seed)`` of the sample, so ``ceil(f n)`` items are tested;
    - **k-fold** (one row per *k*): the mean of the *k* fold accuracies under
      ``KFold(k, shuffle=True, random_state=split_seed)``, exactly what
      ``cross_val_score(estimator, X_sample, y_sample, cv=that KFold).mean()`` returns;
    - **leave-one-out** (if asked): the same with *k* = ``n_available``.

    Accuracy is the share of correct predictions. scikit-learn is imported here (it is not
    a dependency of evalkit itself).

    Parameters
    ----------
    estimator : scikit-learn classifier
        Cloned for every fit.
    X : array-like of shape (n_samples, n_features)
        The whole data set.
    y : array-like of shape (n_samples,)
        Its labels.
    n_available : int
        The size of each available sample.
    n_repeats : int, default 200
        How many samples.
    k_values : sequence of int, default (2, 3, 5, 10, 20)
        The numbers of folds.
    test_fractions : sequence of float, default (0.1, 0.2, 0.25, 1/3, 0.4, 0.5, 0.6)
        The holdout test fractions.
    leave_one_out : bool, default True
        Whether to add leave-one-out (``n_available`` fits per sample).
    seed : int, default 0
        The seed of the study (see :func:`available_sample`).

    Returns
    -------
    pandas.DataFrame
        Columns ``n_available``, ``repeat``, ``method``, ``parameter`` (the test fraction or
        *k*; NaN for the truth and leave-one-out) and ``estimate``: the table that
        :func:`estimation_summary` (and the explorer
        :class:`evalkit.widgets.EstimationExplorer`) reads.

    References
    ----------
    Kohavi, R. (1995). A study of cross-validation and bootstrap for accuracy estimation and
    model selection. IJCAI 1995, 1137–1143.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> table = simulate_estimates(KNeighborsClassifier(1), X, y, n_available=30,
    ...                            n_repeats=2, k_values=(5,), test_fractions=(0.2,))
    >>> table.groupby("method").size().to_dict()
    {'holdout': 2, 'k-fold': 2, 'leave-one-out': 2, 'truth': 2}
    """
    if not (hasattr(estimator, "fit") and hasattr(estimator, "predict")):
        raise TypeError("estimator must be a scikit-learn classifier (with fit and predict); "
                        f"got {type(estimator).__name__}")
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (samples x features); got shape {X.shape}")
    y = check_labels(y, "y")
    if len(X) != len(y):
        raise ValueError(f"X and y have different lengths ({len(X)} != {len(y)})")
    n_available = check_scalar(n_available, "n_available", kind="int", low=2,
                               high=len(y) - 1)
    n_repeats = check_scalar(n_repeats, "n_repeats", kind="int", low=1)
    seed = check_scalar(seed, "seed", kind="int", low=0)
    ks = [check_scalar(k, "k_values", kind="int", low=2, high=n_available) for k in k_values]
    fractions = [check_scalar(f, "test_fractions", low=1.0 / n_available,
                              high=1.0 - 1.0 / n_available) for f in test_fractions]
    if not isinstance(leave_one_out, bool):
        raise TypeError(f"leave_one_out must be True or False; got {leave_one_out!r}")
    from sklearn.model_selection import KFold, train_test_split

    rows: list[tuple[int, int, str, float, float]] = []
    positions = np.arange(n_available)
    for repeat in range(n_repeats):
        available, rest, split_seed = available_sample(len(y), n_available, seed=seed,
                                                       repeat=repeat)
        X_sample, y_sample = X[available], y[available]
        truth = _accuracy_of_fit(estimator, X, y, available, rest)
        rows.append((n_available, repeat, "truth", np.nan, truth))
        for fraction in fractions:
            train, test = train_test_split(positions, test_size=fraction,
                                           random_state=split_seed)
            rows.append((n_available, repeat, "holdout", fraction,
                         _accuracy_of_fit(estimator, X_sample, y_sample, train, test)))
        splits = [("k-fold", float(k), KFold(k, shuffle=True, random_state=split_seed))
                  for k in ks]
        if leave_one_out:
            splits.append(("leave-one-out", np.nan, KFold(n_available)))
        for method, parameter, splitter in splits:
            folds = [_accuracy_of_fit(estimator, X_sample, y_sample, train, test)
                     for train, test in splitter.split(positions)]
            rows.append((n_available, repeat, method, parameter, float(np.mean(folds))))
    return pd.DataFrame(rows, columns=list(ESTIMATION_COLUMNS))


def _check_estimates(estimates: Any) -> pd.DataFrame:
    if not isinstance(estimates, pd.DataFrame):
        raise TypeError("estimates must be a DataFrame with the columns "
                        f"{', '.join(ESTIMATION_COLUMNS)} (see simulate_estimates); "
                        f"got {type(estimates).__name__}")
    missing = [column for column in ESTIMATION_COLUMNS if column not in estimates.columns]
    if missing:
        raise ValueError(f"estimates lacks the column(s) {', '.join(missing)}; it needs "
                         f"{', '.join(ESTIMATION_COLUMNS)} (see simulate_estimates)")
    table = estimates.loc[:, list(ESTIMATION_COLUMNS)].reset_index(drop=True)
    unknown = sorted(set(table["method"]) - set(ESTIMATION_METHODS))
    if unknown:
        raise ValueError(f"estimates has unknown method(s) {unknown}; the methods are "
                         f"{', '.join(ESTIMATION_METHODS)}")
    values = pd.to_numeric(table["estimate"], errors="coerce").to_numpy(np.float64)
    if not (np.isfinite(values).all() and (values >= 0).all() and (values <= 1).all()):
        raise ValueError("estimates['estimate'] must hold accuracies in [0, 1] (no NaN)")
    table["estimate"] = values
    truth = table[table["method"] == "truth"]
    if truth.empty:
        raise ValueError("estimates has no 'truth' rows: nothing to compare the estimates with")
    if truth.duplicated(["n_available", "repeat"]).any():
        raise ValueError("estimates has more than one 'truth' row for a (n_available, repeat)")
    return table

def estimation_summary(estimates: Any) -> pd.DataFrame:
    r"""Bias, spread and RMSE of accuracy estimates against the truth of their samples.

    For each sample size, method and parameter of a table of estimates (as
    :func:`simulate_estimates` returns), with :math:`e_r = \hat a_r - a_r` the error of the
    estimate on sample :math:`r` against that sample's truth (the accuracy, on the untouched
    rest, of the model trained on the whole sample), over the :math:`R` samples:

    .. math::

        \text{bias} = \frac1R \sum_r e_r, \qquad
        \text{SD} = \sqrt{\frac{1}{R-1} \sum_r (e_r - \text{bias})^2}, \qquad
        \text{RMSE} = \sqrt{\frac1R \sum_r e_r^2}

    so :math:`\text{RMSE}^2 = \text{bias}^2 + \text{SD}^2 (R-1)/R` (Kohavi 1995 compares
    methods by bias and variance this way).

    Parameters
    ----------
    estimates : DataFrame
        Columns ``n_available``, ``repeat``, ``method`` (``"truth"``, ``"holdout"``,
        ``"k-fold"``, ``"leave-one-out"``), ``parameter`` (the test fraction or *k*) and
        ``estimate`` (accuracies in [0, 1]); one ``truth`` row per (``n_available``,
        ``repeat``).

    Returns
    -------
    pandas.DataFrame
        One row per (``n_available``, ``method``, ``parameter``), holdouts first, then k-fold
        by *k*, then leave-one-out (whose ``parameter`` is *n*, its number of folds): columns
        ``n_available``, ``method``, ``parameter``, ``n_train`` (training items per fit:
        :math:`n - \lceil f n \rceil` for a holdout, :math:`n(k-1)/k` for k-fold),
        ``n_samples``, ``mean`` (of the estimates), ``bias``, ``sd`` (ddof=1; 0 for one
        sample) and ``rmse``.

    References
    ----------
    Kohavi, R. (1995). A study of cross-validation and bootstrap for accuracy estimation and
    model selection. IJCAI 1995, 1137–1143.

    Examples
    --------
    >>> table = pd.DataFrame({
    ...     "n_available": 100, "repeat": [0, 0, 0, 1, 1, 1],
    ...     "method": ["truth", "holdout", "k-fold"] * 2,
    ...     "parameter": [np.nan, 0.5, 10, np.nan, 0.5, 10],
    ...     "estimate": [0.80, 0.70, 0.78, 0.90, 0.86, 0.88]})
    >>> summary = estimation_summary(table)
    >>> summary[["method", "parameter", "n_train", "bias", "rmse"]].round(3)
        method  parameter  n_train  bias   rmse
    0  holdout        0.5     50.0 -0.07  0.076
    1   k-fold       10.0     90.0 -0.02  0.020
    """
    table = _check_estimates(estimates)
    truth = table[table["method"] == "truth"].set_index(["n_available", "repeat"])["estimate"]
    rows = table[table["method"] != "truth"]
    keys = pd.MultiIndex.from_arrays([rows["n_available"], rows["repeat"]])
    missing = ~keys.isin(truth.index)
    if missing.any():
        first = rows[missing].iloc[0]
        raise ValueError(f"estimates has {first['method']} rows for "
                         f"n_available={first['n_available']} without the truth of their "
                         "sample")
    error = rows["estimate"].to_numpy() - truth.loc[keys].to_numpy()
    n = rows["n_available"].to_numpy(np.float64)
    parameter = rows["parameter"].to_numpy(np.float64)
    loo = (rows["method"] == "leave-one-out").to_numpy()
    parameter = np.where(loo, n, parameter)
    frame = pd.DataFrame({
        "n_available": rows["n_available"].to_numpy(), "method": rows["method"].to_numpy(),
        "parameter": parameter, "estimate": rows["estimate"].to_numpy(), "error": error,
        "square": error**2})
    order = {"holdout": 0, "k-fold": 1, "leave-one-out": 2}
    grouped = frame.groupby(["n_available", "method", "parameter"], sort=False)
    summary = grouped.agg(n_samples=("error", "size"), mean=("estimate", "mean"),
                          bias=("error", "mean"), sd=("error", "std"),
                          mean_square=("square", "mean")).reset_index()
    summary["sd"] = summary["sd"].fillna(0.0)
    summary["rmse"] = np.sqrt(summary.pop("mean_square"))
    size = summary["n_available"].to_numpy(np.float64)
    value = summary["parameter"].to_numpy(np.float64)
    holdout = (summary["method"] == "holdout").to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        summary.insert(3, "n_train", np.where(holdout, size - np.ceil(value * size - 1e-9),
                                              size * (value - 1) / value))
    summary["rank"] = summary["method"].map(order)
    summary = summary.sort_values(["n_available", "rank", "parameter"], kind="stable")
    return summary.drop(columns="rank").reset_index(drop=True)
