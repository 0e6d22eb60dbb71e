"""PowerExplorer and its model: power, p-values and the winner's curse of a paired t test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from evalkit.widgets import PowerExplorer, PowerModel

from .helpers import cells


def test_power_explorer_responds_to_every_control():
    explorer = PowerExplorer(PowerModel(n_repeats=500), plot=False)
    before = explorer.summary.value
    explorer.controls["n_topics"].value = 100
    assert explorer.model.n_topics == 100
    shown = cells(explorer.summary.value)
    assert shown["topics"] == "100"
    assert explorer.summary.value != before

    explorer.controls["effect_size"].value = 0.2
    assert explorer.model.effect_size == 0.2
    assert cells(explorer.summary.value)["true effect d_z"] == "0.20"

    explorer.controls["alpha"].value = 0.01
    assert explorer.model.alpha == 0.01
    assert cells(explorer.summary.value)["alpha"] == "0.01"


def test_power_explorer_numbers_come_from_the_model():
    explorer = PowerExplorer(PowerModel(n_repeats=500), plot=False)
    explorer.controls["n_topics"].value = 20
    summary = explorer.model.summary()
    shown = cells(explorer.summary.value)
    assert shown["share with p &lt; alpha"] == f"{summary['share_significant']:.1%}"
    assert shown["power in theory (non-central t)"] == f"{summary['power_theory']:.1%}"
    assert shown["median p-value"] == f"{summary['median_pvalue']:.3f}"


def test_power_explorer_draws_the_p_values():
    explorer = PowerExplorer(PowerModel(n_repeats=300))
    figure = explorer.draw()
    ax = figure.axes[0]
    assert ax.get_xlabel() == "p-value"
    assert sum(patch.get_height() for patch in ax.patches) == 300
    assert any("alpha = 0.05" in text.get_text() for text in ax.get_legend().get_texts())


def test_p_values_are_uniform_under_the_null_and_match_scipy():
    model = PowerModel(n_topics=30, effect_size=0.0, n_repeats=20000, seed=1)
    summary = model.summary()
    assert summary["power_theory"] == pytest.approx(0.05)
    assert summary["share_significant"] == pytest.approx(0.05, abs=0.006)
    assert summary["median_pvalue"] == pytest.approx(0.5, abs=0.02)
    # Each experiment's p-value is scipy's paired t test on the same differences.
    rng = np.random.default_rng(1)
    noise = rng.standard_normal((20000, 30))
    assert model.pvalues()[0] == pytest.approx(stats.ttest_rel(noise[0], np.zeros(30)).pvalue)


def test_simulated_power_matches_the_non_central_t():
    model = PowerModel(n_topics=40, effect_size=0.5, n_repeats=20000, seed=2)
    summary = model.summary()
    assert summary["power_theory"] == pytest.approx(0.8694, abs=1e-4)
    assert summary["share_significant"] == pytest.approx(summary["power_theory"], abs=0.01)


def test_more_topics_more_power_and_a_smaller_winners_curse():
    small = PowerModel(n_topics=10, effect_size=0.4, seed=3).summary()
    large = PowerModel(n_topics=200, effect_size=0.4, seed=3).summary()
    assert small["power_theory"] < 0.25 < 0.99 < large["power_theory"]
    # With low power only the lucky experiments pass, and they overstate the effect.
    assert small["mean_significant_effect"] > 2 * 0.4
    assert large["mean_significant_effect"] == pytest.approx(0.4, abs=0.02)


def test_negative_effects_and_no_winners():
    negative = PowerModel(n_topics=20, effect_size=-0.6, seed=4).summary()
    assert negative["mean_significant_effect"] < -0.6
    none = PowerModel(n_topics=5, effect_size=0.0, alpha=0.001, n_repeats=50,
                      seed=4).summary()
    assert none["share_significant"] == 0.0 and math.isnan(none["mean_significant_effect"])


def test_power_model_is_reproducible_and_moves_the_same_experiments():
    model = PowerModel(n_repeats=100, seed=5)
    first = model.pvalues()
    np.testing.assert_array_equal(first, PowerModel(n_repeats=100, seed=5).pvalues())
    model.set(alpha=0.01)  # the same experiments, another level
    np.testing.assert_array_equal(first, model.pvalues())
    model.set(effect_size=1.0)  # the same noise, shifted: every p-value gets smaller
    assert np.all(model.pvalues() < first)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"n_topics": 1}, ValueError, "n_topics must be a whole number >= 2"),
    ({"n_topics": "40"}, TypeError, "n_topics must be a whole number >= 2; got the string"),
    ({"effect_size": 4.0}, ValueError, r"effect_size must be a real number in \[-3, 3\]"),
    ({"alpha": 1.0}, ValueError, r"alpha must be a real number in \(0, 1\)"),
    ({"topics": 3}, ValueError, "unknown setting 'topics'; the settings are n_topics"),
])
def test_power_model_rejects_bad_settings(kwargs, error, message):
    with pytest.raises(error, match=message):
        PowerModel(n_repeats=50).set(**kwargs)


def test_power_model_takes_the_old_n_experiments_with_a_deprecation_warning():
    new = PowerModel(n_repeats=60, seed=4)
    with pytest.warns(DeprecationWarning, match="n_experiments is deprecated.*use n_repeats"):
        old = PowerModel(n_experiments=60, seed=4)
    assert old.n_repeats == 60
    np.testing.assert_array_equal(old.pvalues(), new.pvalues())
    with pytest.warns(DeprecationWarning, match="n_experiments is deprecated"):
        assert new.n_experiments == 60  # the old attribute reads n_repeats
    with pytest.warns(DeprecationWarning, match="n_experiments is deprecated"):
        new.set(n_experiments=80)
    assert new.n_repeats == 80 and len(new.pvalues()) == 80
    with pytest.warns(DeprecationWarning, match="n_experiments is deprecated"):
        new.n_experiments = 90
    assert new.n_repeats == 90
    with pytest.raises(TypeError, match="pass n_repeats only"):
        PowerModel(n_repeats=50, n_experiments=60)
    with pytest.raises(TypeError, match="pass n_repeats only"):
        new.set(n_repeats=50, n_experiments=60)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="n_repeats"):
        new.set(n_experiments=0)
    assert new.n_repeats == 90


def test_power_model_values_are_simulate_paired_t_tests():
    import evalkit as ek

    model = PowerModel(n_topics=15, effect_size=0.3, n_repeats=200, seed=7)
    expected = ek.simulate_paired_t_tests(15, 0.3, n_repeats=200, seed=7)
    np.testing.assert_array_equal(model.pvalues(), expected.pvalue)
    assert model.summary()["mean_observed_effect"] == float(expected.d_z.mean())
    # and so scipy's t test on the same standard-normal draws, shifted by the effect
    differences = np.random.default_rng(7).standard_normal((200, 15)) + 0.3
    np.testing.assert_array_equal(model.pvalues(),
                                  stats.ttest_1samp(differences, 0.0, axis=1).pvalue)
