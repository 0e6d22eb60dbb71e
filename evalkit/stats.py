r"""Uncertainty of a measured score: confidence intervals for a proportion, and a simulation.

Accuracy measured on a test set of :math:`n` independent items is a binomial proportion: the
number correct is :math:`\mathrm{Binomial}(n, p)` for the classifier's true accuracy
:math:`p`. This module gives the usual confidence intervals for such a proportion, vectorised
over many test sets at once, and :class:`AccuracySamplingModel`, the state behind the
test-set-size explorer of ``notebooks/00-how-we-evaluate.ipynb``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import special, stats

from ._results import make_result
from ._validation import check_option, check_scalar

__all__ = ["proportion_ci", "ProportionInterval", "AccuracySamplingModel", "CI_METHODS"]

#: The interval methods :func:`proportion_ci` knows.
CI_METHODS = ("wilson", "normal", "exact")


ProportionInterval = make_result(
    "ProportionInterval", ("low", "high"), ("estimate", "confidence", "method"),
    module=__name__,
    doc="A confidence interval for a proportion; unpacks like ``(low, high)``, with the point "
        "``estimate`` k/n, the ``confidence`` level and the ``method`` as attributes.",
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


#: Test-set sizes offered by the explorer, from tiny to large.
TEST_SET_SIZES = (10, 20, 30, 50, 100, 200, 300, 500, 1000, 2000, 5000, 10000)


@dataclass
class AccuracySamplingModel:
    """Simulate measuring one classifier's accuracy on many independent test sets.

    The classifier's true accuracy is ``true_accuracy``. Each simulated test set has
    ``n_test`` items, each answered correctly with that probability, so the measured accuracy
    varies from test set to test set. :meth:`summary` reports that spread and how often the
    confidence interval computed from a single test set contains the true accuracy.

    This is the state behind :class:`evalkit.widgets.TestSetExplorer`.

    Examples
    --------
    >>> model = AccuracySamplingModel(n_test=100, true_accuracy=0.8, seed=0)
    >>> summary = model.summary()
    >>> round(summary["sd (theory)"], 3)
    0.04
    >>> 0.93 < summary["coverage"] < 0.97
    True
    """

    n_test: int = 100
    true_accuracy: float = 0.8
    confidence: float = 0.95
    method: str = "wilson"
    n_repeats: int = 5000
    seed: int = 0
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.set()

    def set(self, **values: Any) -> AccuracySamplingModel:
        """Change any of the fields (validated) and return the model."""
        unknown = set(values) - {"n_test", "true_accuracy", "confidence", "method",
                                 "n_repeats", "seed"}
        if unknown:
            raise ValueError(f"unknown setting(s) {sorted(unknown)}; expected n_test, "
                             "true_accuracy, confidence, method, n_repeats or seed")
        for name, value in values.items():
            setattr(self, name, value)
        for name in ("n_test", "n_repeats"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1; got {value!r}")
        if not isinstance(self.true_accuracy, (int, float)) or not 0 <= self.true_accuracy <= 1:
            raise ValueError(f"true_accuracy must be between 0 and 1; got {self.true_accuracy!r}")
        check_scalar(self.confidence, "confidence", low=0, high=1, low_inclusive=False,
                     high_inclusive=False)
        check_option(self.method, "method", CI_METHODS)
        return self

    def simulate(self) -> np.ndarray:
        """Measured accuracy on each of ``n_repeats`` simulated test sets."""
        return self._correct() / self.n_test

    def _correct(self) -> np.ndarray:
        key = (self.n_test, self.true_accuracy, self.n_repeats, self.seed)
        if self._cache.get("key") != key:
            rng = np.random.default_rng(self.seed)
            self._cache = {"key": key,
                           "correct": rng.binomial(self.n_test, self.true_accuracy, self.n_repeats)}
        return self._cache["correct"]

    def summary(self) -> dict[str, float]:
        """The numbers the explorer shows.

        ``middle low``/``middle high`` bound the middle ``confidence`` share of the measured
        accuracies; ``CI low``/``CI high`` is the interval computed from the first simulated
        test set alone (what a real experiment sees); ``coverage`` is the share of test sets
        whose interval contains the true accuracy.
        """
        correct = self._correct()
        measured = correct / self.n_test
        tail = (1.0 - self.confidence) / 2.0
        low, high = proportion_ci(correct, self.n_test, confidence=self.confidence,
                                  method=self.method)
        covered = (low <= self.true_accuracy) & (self.true_accuracy <= high)
        p = self.true_accuracy
        return {
            "true accuracy": float(p),
            "test-set size": int(self.n_test),
            "mean measured": float(measured.mean()),
            "sd measured": float(measured.std(ddof=1)) if len(measured) > 1 else 0.0,
            "sd (theory)": float(np.sqrt(p * (1.0 - p) / self.n_test)),
            "middle low": float(np.quantile(measured, tail)),
            "middle high": float(np.quantile(measured, 1.0 - tail)),
            "one test set": float(measured[0]),
            "CI low": float(low[0]),
            "CI high": float(high[0]),
            "coverage": float(covered.mean()),
        }
