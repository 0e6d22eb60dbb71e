"""PeekingExplorer and its model: the optimism of the best of many test scores."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import PeekingExplorer, PeekingModel

from .helpers import cells


def test_one_model_is_not_optimistic_and_its_interval_keeps_its_promise():
    s = PeekingModel(n_models=1, n_test=360, true_accuracy=0.8, n_repeats=20_000).summary()
    assert s["optimism"] == pytest.approx(0.0, abs=0.001)
    assert s["sd_one_score"] == pytest.approx(np.sqrt(0.8 * 0.2 / 360), rel=0.03)
    assert s["wilson_coverage"] == pytest.approx(ek.interval_coverage(360, 0.8), abs=0.01)


def test_the_best_of_many_is_optimistic_and_the_fresh_score_is_not():
    s = PeekingModel(n_models=30, n_test=360, true_accuracy=0.8, n_repeats=5000).summary()
    # The expected maximum of 30 independent normal scores is about 2.04 SDs above the mean.
    assert s["optimism_in_sds"] == pytest.approx(2.04, abs=0.12)
    assert s["mean_fresh"] == pytest.approx(0.8, abs=0.002)
    assert s["share_above_truth"] > 0.99
    assert s["wilson_coverage"] < 0.7


def test_the_simulation_is_evalkits_simulated_test_sets():
    model = PeekingModel(n_models=4, n_test=50, true_accuracy=0.7, n_repeats=10, seed=3)
    scores, fresh = model.simulate()
    rng = np.random.default_rng(3)
    expected = ek.simulate_test_accuracies(50, 0.7, n_repeats=40, seed=rng).reshape(10, 4)
    np.testing.assert_array_equal(scores, expected)
    np.testing.assert_array_equal(fresh, ek.simulate_test_accuracies(50, 0.7, n_repeats=10,
                                                                     seed=rng))
    s = model.summary()
    assert s["mean_reported"] == pytest.approx(expected.max(axis=1).mean())
    assert s["optimism"] == pytest.approx(expected.max(axis=1).mean() - 0.7)


def test_optimism_grows_with_the_number_of_models_and_shrinks_with_the_test_set():
    few = PeekingModel(n_models=3).summary()["optimism"]
    many = PeekingModel(n_models=60).summary()["optimism"]
    large = PeekingModel(n_models=60, n_test=5000).summary()["optimism"]
    assert 0 < few < many and large < many / 3


@pytest.mark.parametrize("kwargs, error, message", [
    ({"n_models": 0}, ValueError, "n_models must be a whole number >= 1"),
    ({"n_test": 0}, ValueError, "n_test"),
    ({"true_accuracy": 1.5}, ValueError, "true_accuracy"),
    ({"n_repeats": 1}, ValueError, "n_repeats"),
    ({"n_models": "3"}, TypeError, "n_models"),
    ({"colour": 3}, ValueError, "unknown setting 'colour'"),
])
def test_peeking_model_rejects_bad_settings(kwargs, error, message):
    with pytest.raises(error, match=message):
        PeekingModel().set(**kwargs)


def test_peeking_explorer_responds_to_its_first_slider():
    import ipywidgets as widgets

    explorer = PeekingExplorer(plot=False)
    first = list(explorer.controls)[0]
    assert first == "n_models" and isinstance(explorer.controls[first], widgets.IntSlider)
    before = cells(explorer.summary.value)
    explorer.controls["n_models"].value = 1
    assert explorer.model.n_models == 1
    after = cells(explorer.summary.value)
    assert after["models tried on the test set"] == "1"
    assert after["optimism (reported - true)"] != before["optimism (reported - true)"]
    assert after["optimism (reported - true)"] == (
        f"{explorer.model.summary()['optimism']:.4f}")

    explorer.controls["n_test"].value = 1000
    assert explorer.model.n_test == 1000
    explorer.controls["true_accuracy"].value = 0.9
    assert cells(explorer.summary.value)["true accuracy of each"] == "0.90"


def test_peeking_explorer_draws_both_histograms():
    explorer = PeekingExplorer()
    figure = explorer.draw()
    labels = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert set(labels) == {"true accuracy 0.80", "one model", "best of 30 (reported)"}
