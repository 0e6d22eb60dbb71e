"""Confidence intervals for a proportion (scipy and statsmodels as oracles) and the simulation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest
from statsmodels.stats.proportion import proportion_confint

from evalkit.stats import proportion_ci


@st.composite
def counts(draw):
    n = draw(st.integers(min_value=1, max_value=5000))
    k = draw(st.integers(min_value=0, max_value=n))
    return k, n


confidences = st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99, 0.999])


@given(counts(), confidences, st.sampled_from(["wilson", "exact"]))
def test_matches_scipy_binomtest(kn, confidence, method):
    k, n = kn
    expected = binomtest(k, n).proportion_ci(confidence_level=confidence, method=method)
    low, high = proportion_ci(k, n, confidence=confidence, method=method)
    assert low == pytest.approx(expected.low, abs=1e-10)
    assert high == pytest.approx(expected.high, abs=1e-10)


@given(counts(), confidences, st.sampled_from([("normal", "normal"), ("wilson", "wilson"),
                                                ("exact", "beta")]))
def test_matches_statsmodels(kn, confidence, methods):
    k, n = kn
    ours, theirs = methods
    low, high = proportion_ci(k, n, confidence=confidence, method=ours)
    expected_low, expected_high = proportion_confint(k, n, alpha=1 - confidence, method=theirs)
    assert low == pytest.approx(expected_low, abs=1e-10)
    assert high == pytest.approx(expected_high, abs=1e-10)


def test_hand_computed_intervals():
    # 80 of 100 correct: Wald 0.8 +- 1.959964 * 0.04.
    z = 1.959963984540054
    low, high = proportion_ci(80, 100, method="normal")
    assert low == pytest.approx(0.8 - z * 0.04) and high == pytest.approx(0.8 + z * 0.04)
    # Wilson by its formula.
    p, n = 0.8, 100
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    assert proportion_ci(80, 100) == pytest.approx((centre - half, centre + half))
    # A perfect score: Wald has zero width, Wilson and exact do not.
    assert proportion_ci(10, 10, method="normal") == (1.0, 1.0)
    assert proportion_ci(10, 10)[0] < 0.75
    # Clopper-Pearson at k = n: the lower end solves p^n = alpha / 2.
    assert proportion_ci(10, 10, method="exact")[0] == pytest.approx(0.025 ** (1 / 10))


def test_vectorised_equals_scalar(rng):
    n = rng.integers(1, 500, 200)
    k = rng.integers(0, n + 1)
    for method in ("wilson", "normal", "exact"):
        low, high = proportion_ci(k, n, method=method)
        assert low.shape == (200,)
        for i in (0, 57, 199):
            assert (low[i], high[i]) == pytest.approx(proportion_ci(int(k[i]), int(n[i]),
                                                                    method=method))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"successes": 5, "n": 0}, ValueError, "n must be at least 1"),
    ({"successes": 11, "n": 10}, ValueError, "successes must lie between 0 and n"),
    ({"successes": 2.5, "n": 10}, ValueError, "successes must be whole numbers"),
    ({"successes": 5, "n": 10, "confidence": 95}, ValueError,
     r"confidence must be a real number in \(0, 1\); got 95"),
    ({"successes": 5, "n": 10, "confidence": True}, TypeError,
     r"confidence must be a real number in \(0, 1\); got True"),
    ({"successes": 5, "n": 10, "method": "wald"}, ValueError, "method must be one of 'wilson'"),
])
def test_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        proportion_ci(**kwargs)
