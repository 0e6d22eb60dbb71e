"""SeedsExplorer and its model: runs per model, Welch's p, Cohen's d and power."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import evalkit as ek
from evalkit.widgets import SeedsExplorer, SeedsModel

from .helpers import cells


def test_seeds_model_one_experiment_is_welch_and_cohens_d():
    model = SeedsModel(n_runs=6, effect_size=1.5, seed=2)
    noise = np.random.default_rng(2).standard_normal((2, 6))
    a, b = noise[0] + 1.5, noise[1]
    summary = model.summary()
    assert summary["pvalue"] == pytest.approx(stats.ttest_ind(a, b, equal_var=False).pvalue)
    by_hand = (a.mean() - b.mean()) / np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
    assert summary["observed_d"] == pytest.approx(by_hand)
    assert summary["effect_size_label"] == ek.effect_size_label(by_hand)


def test_seeds_model_power_matches_statsmodels_and_simulation():
    from statsmodels.stats.power import TTestIndPower

    model = SeedsModel(n_runs=5, effect_size=2.0)
    summary = model.summary()
    assert summary["power"] == pytest.approx(TTestIndPower().power(2.0, 5, 0.05))
    rng = np.random.default_rng(0)
    a, b = rng.normal(2.0, 1, (20000, 5)), rng.normal(0, 1, (20000, 5))
    assert summary["power"] == pytest.approx((stats.ttest_ind(a, b, axis=1).pvalue < 0.05).mean(),
                                             abs=0.01)
    # 26 runs per model give a "large" d = 0.8 80% power; 25 do not.
    model.set(effect_size=0.8)
    assert model.summary()["runs_for_80_percent_power"] == 26
    assert ek.t_test_power(0.8, 25) < 0.8 <= ek.t_test_power(0.8, 26)
    assert model.set(effect_size=0.0).summary()["runs_for_80_percent_power"] is None


def test_seeds_model_checks_a_whole_change_before_applying_it():
    model = SeedsModel()
    with pytest.raises(ValueError, match="alpha"):
        model.set(n_runs=20, alpha=1.5)
    assert model.n_runs == 5
    with pytest.raises(ValueError, match="n_runs"):
        model.set(n_runs=1)


def test_seeds_explorer_moves_with_the_slider():
    explorer = SeedsExplorer(plot=False)
    before = cells(explorer.summary.value)
    explorer.controls["n_runs"].value = 20
    shown = cells(explorer.summary.value)
    summary = explorer.model.summary()
    assert shown["runs per model"] == "20"
    assert shown["power (alpha = 0.05)"] == f"{summary['power']:.1%}"
    assert shown["power (alpha = 0.05)"] != before["power (alpha = 0.05)"]
    assert shown["this experiment: Welch p"] == f"{summary['pvalue']:.3g}"


def test_seeds_explorer_draws_runs_and_power_curve():
    figure = SeedsExplorer().draw()
    assert figure.axes[1].get_xlabel() == "runs per model"
    assert len(figure.axes[0].lines[0].get_ydata()) == 5
