"""BrierExplorer and its model: reshaped forecasts and the terms of their Brier score."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import BrierExplorer, BrierModel

from .helpers import cells


@pytest.fixture
def forecasts():
    rng = np.random.default_rng(5)
    p = rng.uniform(0.02, 0.98, 400)
    y = (rng.random(400) < p).astype(int)  # calibrated by construction
    return y, p


def test_the_terms_are_ek_brier_decomposition_of_the_reshaped_forecasts(forecasts):
    y, p = forecasts
    model = BrierModel(y, p, temperature=0.5, odds_factor=2.0, n_bins=8)
    sharp = p**2 / (p**2 + (1 - p) ** 2)  # T = 0.5 by hand
    by_hand = 2 * sharp / (2 * sharp + 1 - sharp)  # odds times 2
    np.testing.assert_allclose(model.forecasts(), by_hand)
    parts = ek.brier_decomposition(y, by_hand, n_bins=8)
    s = model.summary()
    for name in parts._fields:
        assert s[name] == pytest.approx(getattr(parts, name))
    assert s["brier"] == pytest.approx(np.mean((by_hand - y) ** 2))
    assert s["base_rate"] == pytest.approx(y.mean())


def test_uncertainty_stays_and_reshaping_a_calibrated_forecaster_costs_reliability(forecasts):
    y, p = forecasts
    model = BrierModel(y, p)
    start = model.summary()
    for change in ({"temperature": 0.3}, {"temperature": 3.0}, {"odds_factor": 5.0},
                   {"odds_factor": 0.2}):
        moved = model.set(temperature=1.0, odds_factor=1.0).set(**change).summary()
        assert moved["uncertainty"] == start["uncertainty"]
        assert moved["reliability"] > start["reliability"]
        assert moved["brier"] > start["brier"]


def test_the_view_shows_the_model_and_follows_its_sliders(forecasts):
    y, p = forecasts
    explorer = BrierExplorer(BrierModel(y, p), plot=False)
    before = cells(explorer.summary.value)
    explorer.controls["temperature"].value = 3.0
    after = cells(explorer.summary.value)
    assert after["Brier score (one column)"] != before["Brier score (one column)"]
    assert after["Brier score (one column)"] == f"{explorer.model.summary()['brier']:.4f}"
    assert after["uncertainty (the data)"] == before["uncertainty (the data)"]
    explorer.controls["odds_factor"].value = 2.0
    assert explorer.model.odds_factor == 2.0
    explorer.controls["n_bins"].value = 5
    assert "Brier decomposition, 5 bins" in explorer.summary.value


def test_the_view_draws_the_terms(forecasts):
    y, p = forecasts
    explorer = BrierExplorer(BrierModel(y, p), plot=True)
    figure = explorer.draw()
    bars = [patch.get_width() for patch in figure.axes[1].patches]
    s = explorer.model.summary()
    np.testing.assert_allclose(bars, [s["reliability"], s["resolution"], s["uncertainty"],
                                      s["brier"]])


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="y_proba"):
        BrierModel([0, 1], [0.5, 1.5])
    with pytest.raises(ValueError, match="y_score must be a 1-D"):
        BrierModel([0, 1], [[0.5, 0.5], [0.2, 0.8]])
