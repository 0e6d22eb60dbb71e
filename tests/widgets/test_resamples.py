"""ResamplesExplorer and its model: a variance test's p-value falls with the resamples R."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from evalkit.widgets import ResamplesExplorer, ResamplesModel

from .helpers import cells


def test_resamples_model_runs_the_test_on_its_draws():
    model = ResamplesModel(n_resamples=50, variance_ratio=0.8, test="f", n_repeats=10,
                           seed=4)
    noise = np.random.default_rng(4).standard_normal((10, 2, 50))
    a, b = np.sqrt(0.8) * noise[3, 0], noise[3, 1]
    ratio = a.var(ddof=1) / b.var(ddof=1)
    one_sided = stats.f.cdf(ratio, 49, 49)
    result = model.results()[3]
    assert result.variance_ratio == pytest.approx(ratio)
    assert result.pvalue == pytest.approx(2 * min(one_sided, 1 - one_sided))
    model.set(test="levene")
    assert model.results()[3].pvalue == pytest.approx(
        stats.levene(a, b, center="mean").pvalue)


def test_under_the_null_about_alpha_are_significant_at_any_r():
    for r in (30, 3000):
        share = ResamplesModel(n_resamples=r, variance_ratio=1.0, test="f",
                               n_repeats=400).summary()["share_significant"]
        assert share == pytest.approx(0.05, abs=0.035)


def test_a_fixed_small_difference_becomes_significant_as_r_grows():
    model = ResamplesModel(n_resamples=30, variance_ratio=0.9)
    few = model.summary()
    many = model.set(n_resamples=10000).summary()
    assert few["share_significant"] < 0.2 and few["median_pvalue"] > 0.3
    assert many["share_significant"] > 0.95 and many["median_pvalue"] < 1e-4
    assert many["median_observed_ratio"] == pytest.approx(0.9, abs=0.01)


def test_resamples_model_checks_a_whole_change_before_applying_it():
    model = ResamplesModel()
    with pytest.raises(ValueError, match="test"):
        model.set(n_resamples=1000, test="t")
    assert model.n_resamples == 100
    with pytest.raises(ValueError, match="variance_ratio"):
        model.set(variance_ratio=0.0)


def test_resamples_explorer_moves_with_the_slider():
    explorer = ResamplesExplorer(ResamplesModel(n_repeats=50), plot=False)
    before = cells(explorer.summary.value)
    explorer.controls["n_resamples"].value = 3000
    shown = cells(explorer.summary.value)
    summary = explorer.model.summary()
    assert shown["resamples R"] == "3000"
    assert shown["median p-value"] == f"{summary['median_pvalue']:.3g}"
    assert shown["median p-value"] != before["median p-value"]
    explorer.controls["test"].value = "bartlett"
    assert explorer.model.test == "bartlett"


def test_resamples_explorer_draws_the_p_values():
    explorer = ResamplesExplorer(ResamplesModel(n_repeats=40))
    ax = explorer.draw().axes[0]
    assert ax.get_xlabel() == "p-value"
    assert sum(patch.get_height() for patch in ax.patches) == 40


def test_resamples_model_takes_the_old_n_experiments_with_a_deprecation_warning():
    new = ResamplesModel(n_resamples=20, n_repeats=15)
    with pytest.warns(DeprecationWarning, match="n_experiments is deprecated.*use n_repeats"):
        old = ResamplesModel(n_resamples=20, n_experiments=15)
    assert old.n_repeats == 15 and old.summary() == new.summary()
    with pytest.warns(DeprecationWarning, match="n_experiments is deprecated"):
        assert old.n_experiments == 15
    with pytest.warns(DeprecationWarning, match="n_experiments is deprecated"):
        old.set(n_experiments=12)
    assert old.n_repeats == 12 and len(old.results()) == 12
    with pytest.raises(TypeError, match="pass n_repeats only"):
        ResamplesModel(n_repeats=12, n_experiments=15)
