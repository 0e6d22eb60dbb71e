"""TemperatureExplorer and its model: the argmax metrics stay, the probabilistic ones move."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import TemperatureExplorer, TemperatureModel

from .helpers import cells


@pytest.fixture
def data():
    rng = np.random.default_rng(4)
    logits = rng.normal(size=(300, 4)) * 2
    y_true = np.argmax(logits + rng.normal(size=(300, 4)) * 2, axis=1)
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return y_true, proba, logits


def test_the_model_scales_with_the_public_function_a_softmax_of_logits_over_t(data):
    _, proba, logits = data
    for t in (0.3, 1.0, 4.0):
        expected = np.exp(logits / t) / np.exp(logits / t).sum(axis=1, keepdims=True)
        scaled = TemperatureModel(np.argmax(proba, axis=1), proba, temperature=t).scaled()
        np.testing.assert_allclose(scaled, expected, rtol=1e-10)
        np.testing.assert_allclose(scaled, ek.temperature_scale(proba, temperature=t))


def test_argmax_metrics_stay_and_probabilistic_ones_move(data):
    y_true, proba, _ = data
    model = TemperatureModel(y_true, proba)
    one = model.summary()
    assert one["c_f1_macro"] == pytest.approx(ek.c_f1(y_true, proba, average="macro"))
    assert one["brier"] == pytest.approx(ek.brier_score(y_true, proba))
    assert one["ece"] == pytest.approx(ek.expected_calibration_error(y_true, proba, n_bins=10))
    hot = model.set(temperature=0.25).summary()
    assert hot["accuracy"] == one["accuracy"] and hot["f1_macro"] == one["f1_macro"]
    assert hot["mean_confidence"] > one["mean_confidence"]
    assert hot["c_f1_macro"] != one["c_f1_macro"] and hot["brier"] != one["brier"]
    cold = model.set(temperature=1e4).summary()
    assert cold["mean_confidence"] == pytest.approx(0.25, abs=0.02)  # near uniform over 4
    assert cold["brier"] == pytest.approx(0.75, abs=0.01)  # 1 - 1/k


def test_the_explorer_shows_what_the_model_computes(data):
    y_true, proba, _ = data
    explorer = TemperatureExplorer(TemperatureModel(y_true, proba), plot=False)
    before = cells(explorer.summary.value)
    explorer.controls["temperature"].value = 3.0
    after = cells(explorer.summary.value)
    assert after["macro F1 (argmax)"] == before["macro F1 (argmax)"]
    assert after["Brier score"] != before["Brier score"]
    assert after["Brier score"] == f"{explorer.model.summary()['brier']:.3f}"
    explorer.controls["n_bins"].value = 5
    assert "ECE (5 bins)" in cells(explorer.summary.value)


def test_the_explorer_draws_a_reliability_diagram(data):
    y_true, proba, _ = data
    explorer = TemperatureExplorer(TemperatureModel(y_true, proba), plot=True)
    figure = explorer.draw()
    ax = figure.axes[0]
    curve = explorer.model.reliability()
    line = [drawn for drawn in ax.lines if drawn.get_marker() == "o"][0]
    np.testing.assert_allclose(line.get_xdata(), curve["confidence"])
    np.testing.assert_allclose(line.get_ydata(), curve["accuracy"])


def test_bad_probabilities_are_refused():
    with pytest.raises(ValueError, match="rows of y_proba must sum to 1"):
        TemperatureModel([0, 1], [[0.5, 0.6], [0.5, 0.5]])
