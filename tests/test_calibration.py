"""The Brier score and its decomposition, calibration (reliability curve, ECE, consistency
band) and temperature scaling, checked against independent implementations of their
definitions, against scikit-learn, and by hand."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import brier_score_loss

import evalkit as ek
from evalkit.exceptions import UndefinedMetricWarning

from .test_probabilistic import problems

# ---------------------------------------------------------------------------------------------
# Brier score and its decomposition
# ---------------------------------------------------------------------------------------------


@given(problems())
def test_brier_by_definition_and_against_scikit_learn(problem):
    y_true, proba, columns = problem
    one_hot = (np.array(y_true)[:, None] == np.array(columns)[None, :]).astype(float)
    expected = np.mean(np.sum((proba - one_hot) ** 2, axis=1))
    assert ek.brier_score(y_true, proba) == pytest.approx(expected, rel=1e-12, abs=1e-14)
    theirs = brier_score_loss(y_true, proba, labels=columns, scale_by_half=False)
    assert ek.brier_score(y_true, proba) == pytest.approx(theirs, rel=1e-12, abs=1e-14)


@given(st.lists(st.floats(0, 1), min_size=2, max_size=50), st.integers(0, 2**32 - 1))
def test_binary_brier_is_twice_scikit_learns(p, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, len(p))
    y[:2] = [0, 1]
    half = brier_score_loss(y, p)  # one column: mean (p - o)^2
    assert ek.brier_score(y, p) == pytest.approx(2 * half, rel=1e-12, abs=1e-14)
    assert ek.brier_score(y, p) == pytest.approx(
        brier_score_loss(y, p, scale_by_half=False), rel=1e-12, abs=1e-14)


def _decomposition_by_loops(y, f, n_bins):
    edges = np.linspace(0, 1, n_bins + 1)
    groups = {}
    for yi, fi in zip(y, f, strict=True):
        b = 0
        while b < n_bins - 1 and fi > edges[b + 1]:
            b += 1
        groups.setdefault(b, []).append((fi, yi))
    n, base = len(y), np.mean(y)
    rel = res = wbv = wbc = 0.0
    for members in groups.values():
        fs = np.array([m[0] for m in members])
        os = np.array([m[1] for m in members], dtype=float)
        rel += len(fs) * (fs.mean() - os.mean()) ** 2
        res += len(fs) * (os.mean() - base) ** 2
        wbv += np.sum((fs - fs.mean()) ** 2)
        wbc += 2 * np.sum((fs - fs.mean()) * (os - os.mean()))
    return rel / n, res / n, base * (1 - base), wbv / n, wbc / n


@given(st.lists(st.floats(0, 1), min_size=2, max_size=60), st.integers(1, 12),
       st.integers(0, 2**32 - 1))
def test_brier_decomposition_identity_and_parts(f, n_bins, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, len(f))
    y[:2] = [0, 1]
    parts = ek.brier_decomposition(y, f, n_bins=n_bins)
    assert parts.brier == pytest.approx(brier_score_loss(y, f), rel=1e-12, abs=1e-14)
    total = (parts.reliability - parts.resolution + parts.uncertainty
             + parts.within_bin_variance - parts.within_bin_covariance)
    assert total == pytest.approx(parts.brier, rel=1e-10, abs=1e-12)
    expected = _decomposition_by_loops(y, f, n_bins)
    np.testing.assert_allclose(parts[1:], expected, rtol=1e-9, atol=1e-12)


def test_murphy_three_terms_when_each_bin_holds_one_forecast_value():
    f = np.repeat([0.05, 0.35, 0.65, 0.95], 25)
    y = np.random.default_rng(3).random(100) < f
    parts = ek.brier_decomposition(y.astype(int), f, n_bins=10)
    assert parts.within_bin_variance < 1e-15 and abs(parts.within_bin_covariance) < 1e-15
    assert parts.brier == pytest.approx(parts.reliability - parts.resolution
                                        + parts.uncertainty, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Calibration
# ---------------------------------------------------------------------------------------------


def test_ece_on_hand_built_bins_with_edges_and_one():
    # Four bins of width 0.25. Confidences: 0.5 and 0.75 sit exactly on edges and belong to
    # the bin below ((lo, hi]); 1.0 belongs to the last bin.
    y_true = [0, 0, 1, 1, 0, 1]
    proba = [[0.5, 0.5],    # conf 0.50, predicted 0, right  -> bin (0.25, 0.5]
             [0.75, 0.25],  # conf 0.75, predicted 0, right  -> bin (0.5, 0.75]
             [0.3, 0.7],    # conf 0.70, predicted 1, right  -> bin (0.5, 0.75]
             [1.0, 0.0],    # conf 1.00, predicted 0, wrong  -> bin (0.75, 1]
             [0.1, 0.9],    # conf 0.90, predicted 1, wrong  -> bin (0.75, 1]
             [0.2, 0.8]]    # conf 0.80, predicted 1, right  -> bin (0.75, 1]
    curve = ek.reliability_curve(y_true, proba, n_bins=4)
    assert curve["count"].tolist() == [1, 2, 3]
    np.testing.assert_allclose(curve["bin_low"], [0.25, 0.5, 0.75])
    np.testing.assert_allclose(curve["confidence"], [0.5, 0.725, 0.9])
    np.testing.assert_allclose(curve["accuracy"], [1.0, 1.0, 1 / 3])
    gaps = np.array([0.5, 0.275, 0.9 - 1 / 3])
    weights = np.array([1, 2, 3]) / 6
    assert ek.expected_calibration_error(y_true, proba, n_bins=4) == pytest.approx(
        np.sum(weights * gaps))
    assert ek.expected_calibration_error(y_true, proba, n_bins=4, norm="l2") == pytest.approx(
        np.sqrt(np.sum(weights * gaps**2)))
    assert ek.expected_calibration_error(y_true, proba, n_bins=4, norm="max") == pytest.approx(
        gaps.max())


def _binning_by_loops(confidence, correct, edges):
    rows = []
    for b in range(len(edges) - 1):
        low, high = edges[b], edges[b + 1]
        inside = [(c, a) for c, a in zip(confidence, correct, strict=True)
                  if (low < c <= high) or (b == 0 and c == low)]
        if inside:
            rows.append((low, high, np.mean([c for c, _ in inside]),
                         np.mean([a for _, a in inside]), len(inside)))
    return rows


@given(problems(), st.integers(1, 20), st.sampled_from(["uniform", "quantile"]))
def test_reliability_curve_against_independent_binning(problem, n_bins, strategy):
    y_true, proba, columns = problem
    confidence = proba.max(axis=1)
    correct = (np.array(columns)[proba.argmax(axis=1)] == np.array(y_true)).astype(float)
    if strategy == "uniform":
        edges = np.linspace(0, 1, n_bins + 1)
    else:
        edges = np.quantile(confidence, np.linspace(0, 1, n_bins + 1))
        edges[0], edges[-1] = 0.0, 1.0
    expected = _binning_by_loops(confidence, correct, edges)
    curve = ek.reliability_curve(y_true, proba, n_bins=n_bins, strategy=strategy)
    np.testing.assert_allclose(curve.to_numpy(dtype=float), np.array(expected, dtype=float),
                               rtol=1e-12)
    if strategy == "quantile":  # equal mass: no bin holds much more than n / n_bins
        assert curve["count"].max() <= len(y_true)


def test_top_label_curve_folds_scikit_learns_positive_class_curve():
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(7)
    p = rng.uniform(size=2000)
    y = (rng.uniform(size=2000) < p).astype(int)
    share, mean_p = calibration_curve(y, p, n_bins=10)
    curve = ek.reliability_curve(y, p, n_bins=10)
    # Every top-label bin above 0.5 pools the positive-class bins at p and 1 - p.
    assert curve["bin_low"].min() >= 0.5
    assert len(share) == 10 and len(curve) == 5
    np.testing.assert_allclose(ek.expected_calibration_error(y, p, n_bins=10),
                               np.sum(curve["count"] / 2000 *
                                      np.abs(curve["accuracy"] - curve["confidence"])))


def test_consistency_band_covers_a_calibrated_model_and_not_an_overconfident_one():
    rng = np.random.default_rng(11)
    p = rng.uniform(0.5, 1.0, 3000)
    y = (rng.uniform(size=3000) < p).astype(int)
    proba = np.column_stack([1 - p, p])
    band = ek.probabilistic.consistency_band(y, proba, n_bins=5, seed=0)
    curve = ek.reliability_curve(y, proba, n_bins=5)
    inside = (curve["accuracy"] >= band["low"]) & (curve["accuracy"] <= band["high"])
    assert inside.mean() >= 0.8
    overconfident = np.column_stack([1 - p**0.2, p**0.2])  # same argmax, pushed towards 1
    curve = ek.reliability_curve(y, overconfident, n_bins=20)
    band = ek.probabilistic.consistency_band(y, overconfident, n_bins=20, seed=0)
    outside = (curve["accuracy"] < band["low"]) | (curve["accuracy"] > band["high"])
    assert len(curve) >= 3 and outside.all()


# ---------------------------------------------------------------------------------------------
# temperature_scale
# ---------------------------------------------------------------------------------------------


def test_temperature_scale_is_the_softmax_of_the_logits_over_t():
    from scipy.special import softmax

    rng = np.random.default_rng(7)
    logits = rng.normal(size=(50, 4)) * 3
    proba = softmax(logits, axis=1)
    for t in (0.1, 0.5, 1.0, 3.0):
        np.testing.assert_allclose(ek.temperature_scale(proba, temperature=t),
                                   softmax(logits / t, axis=1), rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(ek.temperature_scale(proba, temperature=1.0), proba)


def test_temperature_scale_by_hand_keeps_the_argmax_and_the_row_sums():
    # 0.8^2 / (0.8^2 + 0.2^2) = 0.64 / 0.68; at T = 2: sqrt(0.8) / (sqrt(0.8) + sqrt(0.2)) = 2/3
    assert ek.temperature_scale([[0.8, 0.2]], temperature=0.5)[0, 0] == pytest.approx(0.64 / 0.68)
    assert ek.temperature_scale([[0.8, 0.2]], temperature=2.0)[0, 0] == pytest.approx(2 / 3)
    proba = np.array([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.0, 0.4, 0.6]])
    for t in (0.05, 0.7, 20.0):
        scaled = ek.temperature_scale(proba, temperature=t)
        np.testing.assert_array_equal(scaled.argmax(axis=1), proba.argmax(axis=1))
        np.testing.assert_allclose(scaled.sum(axis=1), 1.0)
        assert scaled[2, 0] == 0.0  # a zero stays zero
    assert ek.temperature_scale(proba, temperature=1e-3)[0].round(6).tolist() == [1, 0, 0]


def test_temperature_scale_of_a_positive_class_column_is_that_of_two_columns():
    p = np.array([0.9, 0.3, 0.5, 0.0, 1.0])
    both = ek.temperature_scale(np.column_stack([1 - p, p]), temperature=0.4)
    np.testing.assert_allclose(ek.temperature_scale(p, temperature=0.4), both[:, 1])


@pytest.mark.parametrize("y_proba, match", [
    ([[0.5, 0.6]], "rows of y_proba must sum to 1"),
    ([[1.2, -0.2]], "y_proba must hold probabilities >= 0"),
    ([0.2, 1.5], "y_proba"),
    ([0.2, np.nan], "y_proba"),
    ([], "y_proba"),
])
def test_temperature_scale_refuses_bad_probabilities(y_proba, match):
    with pytest.raises(ValueError, match=match):
        ek.temperature_scale(y_proba, temperature=0.5)


@pytest.mark.parametrize("temperature, error", [(0.0, ValueError), (-1.0, ValueError),
                                                (np.inf, ValueError), (True, TypeError)])
def test_temperature_scale_refuses_bad_temperatures(temperature, error):
    with pytest.raises(error, match="temperature"):
        ek.temperature_scale([0.3, 0.7], temperature=temperature)
    with pytest.raises(TypeError, match=r"write temperature_scale\(y_proba, temperature=0.5\)"):
        ek.temperature_scale([0.3, 0.7], 0.5)  # the temperature is keyword-only


# ---------------------------------------------------------------------------------------------
# Options by keyword
# ---------------------------------------------------------------------------------------------

Y_TRUE, Y_PROBA = [0, 1, 1, 0], [[0.9, 0.1], [0.3, 0.7], [0.6, 0.4], [0.8, 0.2]]


@pytest.mark.parametrize("function, options, shown", [
    (ek.reliability_curve, (2,), "n_bins=2"),
    (ek.expected_calibration_error, (2, "quantile"), "n_bins=2, strategy='quantile'"),
    (ek.calibration.consistency_band, (2,), "n_bins=2"),
    (ek.brier_score, ([0, 1],), "labels=[0, 1]"),
    (ek.brier_decomposition, (5,), "n_bins=5"),
])
def test_options_are_keyword_only(function, options, shown):
    name = function.__name__
    with pytest.raises(TypeError, match=re.escape(f"write {name}(y_true, y_proba, {shown})")):
        function(Y_TRUE, Y_PROBA, *options)


def test_n_bins_by_keyword_gives_what_n_bins_did_by_position():
    # Before n_bins became keyword-only, ECE(y, p, 2) meant n_bins=2: 0.0 (hand value in
    # the docstring); the default (15 bins) puts the four samples in separate bins.
    assert ek.expected_calibration_error(Y_TRUE, Y_PROBA, n_bins=2) == pytest.approx(0.0)
    assert ek.expected_calibration_error(Y_TRUE, Y_PROBA) == pytest.approx(0.3)


def test_consistency_band_seed_is_checked_and_reproducible():
    first = ek.calibration.consistency_band(Y_TRUE, Y_PROBA, n_bins=2, n_resamples=50, seed=3)
    again = ek.calibration.consistency_band(Y_TRUE, Y_PROBA, n_bins=2, n_resamples=50,
                                            seed=np.random.default_rng(3))
    pd.testing.assert_frame_equal(first, again)
    with pytest.raises(TypeError, match="seed must be None, a whole number >= 0 or a numpy"):
        ek.calibration.consistency_band(Y_TRUE, Y_PROBA, n_bins=2, seed=True)
    with pytest.raises(ValueError, match="seed must be None, a whole number >= 0"):
        ek.calibration.consistency_band(Y_TRUE, Y_PROBA, n_bins=2, seed=-1)


def test_a_bin_no_resample_reaches_is_nan_with_a_warning():
    # Nine samples of confidence 0.6 and one of 0.95: one resample of ten draws misses the
    # top bin with probability 0.9**10 = 0.35. Seed 0 misses it, seed 1 does not.
    y = [0, 1] * 5
    p = [0.4, 0.6] * 4 + [0.4, 0.95]
    with pytest.warns(UndefinedMetricWarning, match=r"undefined for 1 bin\(s\).*0\.95"):
        band = ek.calibration.consistency_band(y, p, n_bins=4, n_resamples=1, seed=0)
    assert band["confidence"].tolist() == pytest.approx([0.6, 0.95])
    assert np.isfinite(band.loc[0, ["low", "high"]].astype(float)).all()
    assert band.loc[1, ["low", "high"]].isna().all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reached = ek.calibration.consistency_band(y, p, n_bins=4, n_resamples=1, seed=1)
    assert np.isfinite(reached[["low", "high"]].to_numpy(float)).all()


def test_consistency_band_confidence_is_the_one_name_and_confidence_level_is_refused():
    rng = np.random.default_rng(4)
    p = rng.uniform(0.5, 1.0, 300)
    y = (rng.uniform(size=300) < p).astype(int)
    narrow = ek.calibration.consistency_band(y, p, n_bins=4, n_resamples=400, confidence=0.5,
                                             seed=2)
    wide = ek.calibration.consistency_band(y, p, n_bins=4, n_resamples=400, seed=2)
    # Same resamples (same seed), so the 50 % band lies inside the 95 % band, bin by bin.
    assert ((wide["low"] <= narrow["low"]) & (narrow["high"] <= wide["high"])).all()
    assert ((narrow["high"] - narrow["low"]) < (wide["high"] - wide["low"])).any()
    # The name deprecated in 0.1.0 is gone: Python's own error for an unknown keyword.
    with pytest.raises(TypeError, match="unexpected keyword argument 'confidence_level'"):
        ek.calibration.consistency_band(y, p, n_bins=4, n_resamples=400,
                                        confidence_level=0.5, seed=2)
