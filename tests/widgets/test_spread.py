"""SpreadExplorer and its model: macro F1 and cF1 over resampled test sets of a given size."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import SpreadExplorer, SpreadModel

from .helpers import cells


def _data():
    rng = np.random.default_rng(5)
    y_true = rng.integers(0, 4, 300)
    y_proba = rng.dirichlet(np.ones(4), 300)
    y_proba[:200] = 0.3 * y_proba[:200] + 0.7 * np.eye(4)[y_true[:200]]
    return y_true, y_proba


def test_spread_model_scores_each_test_set_with_evalkit():
    y_true, y_proba = _data()
    model = SpreadModel(y_true, y_proba, n_items=50, n_resamples=20, seed=3)
    f1, cf1 = model.scores()
    rows = np.random.default_rng(3).integers(0, 300, size=(20, 50))
    labels = np.arange(4)
    assert f1[7] == pytest.approx(ek.f1_score(y_true[rows[7]], y_proba[rows[7]].argmax(axis=1),
                                              average="macro", labels=labels,
                                              zero_division=0.0))
    assert cf1[7] == pytest.approx(ek.c_f1(y_true[rows[7]], y_proba[rows[7]], average="macro",
                                           labels=labels, zero_division=0.0))
    summary = model.summary()
    assert summary["sd_f1"] == pytest.approx(np.std(f1, ddof=1))
    assert summary["sd_c_f1"] == pytest.approx(np.std(cf1, ddof=1))
    assert summary["sd_ratio"] == pytest.approx(summary["sd_c_f1"] / summary["sd_f1"])


def test_larger_test_sets_spread_less():
    y_true, y_proba = _data()
    model = SpreadModel(y_true, y_proba, n_items=30, n_resamples=200)
    small = model.summary()
    large = model.set(n_items=3000).summary()
    # The spread of a mean falls like 1 / sqrt(n): 100 times the items, about a tenth.
    assert large["sd_f1"] < small["sd_f1"] / 5
    assert large["sd_c_f1"] < small["sd_c_f1"] / 5


def test_spread_model_checks_a_whole_change_before_applying_it():
    model = SpreadModel(n_items=100)
    with pytest.raises(ValueError, match="n_resamples"):
        model.set(n_items=500, n_resamples=1)
    assert model.n_items == 100
    with pytest.raises(ValueError, match="y_proba"):
        SpreadModel([0, 1, 1], [[0.5, 0.5], [0.2, 0.9], [0.1, 0.9]])


def test_spread_explorer_shows_the_model_and_moves_with_the_slider():
    explorer = SpreadExplorer(SpreadModel(*_data(), n_items=50, n_resamples=50), plot=False)
    before = cells(explorer.summary.value)
    explorer.controls["n_items"].value = 500
    shown = cells(explorer.summary.value)
    summary = explorer.model.summary()
    assert shown["test-set size"] == "500"
    assert shown["SD of macro F1"] == f"{summary['sd_f1']:.4f}"
    assert shown["SD of macro cF1"] == f"{summary['sd_c_f1']:.4f}"
    assert shown["SD of macro F1"] != before["SD of macro F1"]


def test_spread_explorer_draws_both_distributions():
    explorer = SpreadExplorer(SpreadModel(n_resamples=50))
    figure = explorer.draw()
    labels = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    assert labels == ["macro F1", "macro cF1"]
