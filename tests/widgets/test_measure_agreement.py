"""MeasureAgreementExplorer and its model: spread of systems against τ between two measures."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from evalkit.widgets import MeasureAgreementExplorer, MeasureAgreementModel

from .helpers import cells


def test_taus_are_scipys_kendall_tau_of_the_simulated_scores():
    model = MeasureAgreementModel(n_repeats=20)
    scores = model.scores()
    assert scores.shape == (20, 2, 19)
    expected = [stats.kendalltau(first, second).statistic for first, second in scores]
    np.testing.assert_allclose(model.taus(), expected)


def test_scores_are_true_quality_plus_mean_noise_by_hand():
    model = MeasureAgreementModel(spread=0.4, noise=0.2, n_topics=7, n_systems=5,
                                  n_repeats=10, seed=3)
    rng = np.random.default_rng(3)
    noise = rng.normal(0.0, 0.2, (10, 2, 5, 7))
    quality = 0.3 + np.array([0.0, 0.1, 0.2, 0.3, 0.4])
    np.testing.assert_allclose(model.scores(), quality + noise.mean(axis=3))
    assert model.summary()["neighbour_gap"] == pytest.approx(0.1)
    # the spread of a mean of 7 normal draws is about 0.2 / sqrt(7)
    assert MeasureAgreementModel(noise=0.2, n_topics=7, n_repeats=2000).summary()[
        "score_noise"] == pytest.approx(0.2 / np.sqrt(7), rel=0.05)


def test_correlated_noise_by_hand():
    # The second measure's noise is rho * the first's + sqrt(1 - rho^2) * a fresh draw.
    model = MeasureAgreementModel(spread=0.4, noise=0.2, correlation=0.6, n_topics=7,
                                  n_systems=5, n_repeats=10, seed=3)
    noise = np.random.default_rng(3).normal(0.0, 0.2, (10, 2, 5, 7))
    second = 0.6 * noise[:, 0] + 0.8 * noise[:, 1]
    quality = 0.3 + np.array([0.0, 0.1, 0.2, 0.3, 0.4])
    np.testing.assert_allclose(model.scores()[:, 0], quality + noise[:, 0].mean(axis=2))
    np.testing.assert_allclose(model.scores()[:, 1], quality + second.mean(axis=2))
    # correlation 0 is the independent model, unchanged
    np.testing.assert_allclose(MeasureAgreementModel(correlation=0.0, n_repeats=20).scores(),
                               MeasureAgreementModel(n_repeats=20).scores())


def test_correlated_noise_has_its_correlation_and_sd():
    model = MeasureAgreementModel(spread=0.0, noise=0.3, correlation=0.7, n_topics=1,
                                  n_systems=50, n_repeats=400)
    scores = model.scores() - 0.3  # one topic: the scores are the noise itself
    first, second = scores[:, 0].ravel(), scores[:, 1].ravel()
    assert np.corrcoef(first, second)[0, 1] == pytest.approx(0.7, abs=0.02)
    assert second.std() == pytest.approx(0.3, rel=0.03)


def test_tau_rises_with_the_noise_correlation():
    taus = [MeasureAgreementModel(correlation=rho).summary()["tau_mean"]
            for rho in (-0.5, 0.0, 0.5, 0.9, 1.0)]
    assert np.all(np.diff(taus) > 0)
    assert taus[-1] == 1.0  # the same noise for both: the same ranking every time


def test_tau_rises_with_spread_and_falls_with_noise():
    model = MeasureAgreementModel()
    curve = model.tau_curve([0.0, 0.2, 0.5, 1.0])
    assert np.all(np.diff(curve["mean"]) > 0)
    assert abs(curve["mean"][0]) < 0.1  # no spread: the rankings are unrelated
    assert curve["mean"][-1] > 0.9
    assert np.all(curve["low"] <= curve["mean"]) and np.all(curve["mean"] <= curve["high"])
    noisy = MeasureAgreementModel(noise=0.6).summary()["tau_mean"]
    assert noisy < model.summary()["tau_mean"]


def test_a_bad_change_leaves_the_model_as_it_was():
    model = MeasureAgreementModel()
    with pytest.raises(ValueError, match="noise"):
        model.set(spread=0.5, noise=0.0)
    with pytest.raises(TypeError, match="n_topics"):
        model.set(n_topics="40")
    with pytest.raises(ValueError, match="n_systems"):
        model.set(n_systems=2)
    with pytest.raises(ValueError, match="correlation"):
        model.set(spread=0.5, correlation=1.5)
    assert (model.spread, model.noise, model.correlation, model.n_topics) == (0.2, 0.1, 0.0, 40)


def test_view_follows_its_slider():
    explorer = MeasureAgreementExplorer(MeasureAgreementModel(n_repeats=20))
    before = cells(explorer.summary.value)
    explorer.controls["spread"].value = 0.5
    after = cells(explorer.summary.value)
    assert explorer.model.spread == 0.5
    assert after["tau between the measures, mean"] != before["tau between the measures, mean"]
    assert float(after["tau between the measures, mean"]) == pytest.approx(
        explorer.model.summary()["tau_mean"], abs=5e-4)
    assert len(explorer.output.outputs) == 1  # the figure, set from the kernel
    explorer.controls["correlation"].value = 0.8
    assert explorer.model.correlation == 0.8
    assert cells(explorer.summary.value)["tau between the measures, mean"] != after[
        "tau between the measures, mean"]
