"""TestSetExplorer and its model: how a measured accuracy varies with the test-set size."""

from __future__ import annotations

import numpy as np
import pytest

from evalkit.widgets import TestSetExplorer, TestSetModel

from .helpers import cells


def test_test_set_explorer_responds_to_every_control():
    explorer = TestSetExplorer(plot=False)
    before = explorer.summary.value
    explorer.controls["n_test"].value = 1000
    assert explorer.model.n_test == 1000
    shown = cells(explorer.summary.value)
    assert shown["test-set size"] == "1000"
    assert shown["SD in theory, sqrt(p(1-p)/n)"] == f"{np.sqrt(0.8 * 0.2 / 1000):.3f}"
    assert explorer.summary.value != before

    explorer.controls["true_accuracy"].value = 0.9
    assert explorer.model.true_accuracy == 0.9
    assert cells(explorer.summary.value)["true accuracy"] == "0.90"

    explorer.controls["confidence"].value = 0.99
    assert "middle 99% of measured accuracies" in cells(explorer.summary.value)

    explorer.controls["method"].value = "exact"
    assert "its 99% exact interval" in cells(explorer.summary.value)


def test_test_set_explorer_numbers_come_from_the_model():
    explorer = TestSetExplorer(plot=False)
    explorer.controls["n_test"].value = 50
    summary = explorer.model.summary()
    shown = cells(explorer.summary.value)
    assert shown["mean of measured accuracies"] == f"{summary['mean_measured']:.3f}"
    assert shown["intervals containing the truth"] == f"{summary['coverage']:.1%}"


def test_test_set_explorer_draws_the_spread():
    explorer = TestSetExplorer()
    figure = explorer.draw()
    ax = figure.axes[0]
    assert ax.get_xlabel() == "measured accuracy"
    assert any("true accuracy 0.80" in text.get_text() for text in ax.get_legend().get_texts())


def test_test_set_model_spread_matches_theory():
    model = TestSetModel(n_test=400, true_accuracy=0.9, n_repeats=20000, seed=1)
    summary = model.summary()
    assert summary["sd_theory"] == pytest.approx(0.015)
    assert summary["sd_measured"] == pytest.approx(0.015, rel=0.03)
    assert summary["mean_measured"] == pytest.approx(0.9, abs=0.001)
    assert summary["middle_low"] < 0.9 < summary["middle_high"]
    # Wilson intervals cover the truth about 95% of the time.
    assert summary["coverage"] == pytest.approx(0.95, abs=0.01)


def test_wald_undercovers_for_small_test_sets():
    wald = TestSetModel(n_test=20, true_accuracy=0.95, method="normal", seed=2)
    wilson = TestSetModel(n_test=20, true_accuracy=0.95, method="wilson", seed=2)
    assert wald.summary()["coverage"] < 0.75 < wilson.summary()["coverage"]


def test_test_set_model_is_reproducible_and_cached():
    a = TestSetModel(seed=5).simulate()
    b = TestSetModel(seed=5).simulate()
    np.testing.assert_array_equal(a, b)
    model = TestSetModel(seed=5)
    first = model.simulate()
    model.set(confidence=0.99)  # does not change the simulated test sets
    np.testing.assert_array_equal(first, model.simulate())
    model.set(n_test=50)
    assert set(np.unique(model.simulate() * 50)) <= set(range(51))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"n_test": 0}, ValueError, "n_test must be a whole number >= 1"),
    ({"n_test": "100"}, TypeError, "n_test must be a whole number >= 1; got the string '100'"),
    ({"true_accuracy": 1.2}, ValueError, r"true_accuracy must be a real number in \[0, 1\]"),
    ({"confidence": 1.0}, ValueError, r"confidence must be a real number in \(0, 1\)"),
    ({"method": "bayes"}, ValueError, "method must be one of"),
    ({"size": 3}, ValueError, "unknown setting 'size'; the settings are n_test, true_accuracy"),
])
def test_test_set_model_rejects_bad_settings(kwargs, error, message):
    with pytest.raises(error, match=message):
        TestSetModel().set(**kwargs)


def test_testset_model_sd_theory_is_proportion_se():
    import evalkit as ek

    model = TestSetModel(n_test=37, true_accuracy=0.93, n_repeats=50)
    assert model.summary()["sd_theory"] == ek.proportion_se(0.93, 37)
    assert model.summary()["sd_theory"] == pytest.approx(np.sqrt(0.93 * 0.07 / 37), rel=1e-12)
