"""McNemarExplorer and its model: discordant counts, four p-values and power by simulation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import evalkit as ek
from evalkit.widgets import McNemarExplorer, McNemarModel
from evalkit.widgets.mcnemar import _disagreement_range

from .helpers import cells


def test_expected_counts_and_pvalues_by_hand():
    model = McNemarModel(n_items=200, accuracy_a=0.85, accuracy_b=0.80, disagreement=0.15,
                         n_repeats=100)
    s = model.summary()
    # only A right: (0.15 + 0.05) / 2 = 0.10 of 200; only B right: 0.05 of 200
    assert s["expected_a_only"] == pytest.approx(20) and s["expected_b_only"] == pytest.approx(10)
    assert (s["a_only_correct"], s["b_only_correct"]) == (20, 10)
    np.testing.assert_allclose(model.cell_shares(), [0.75, 0.10, 0.05, 0.10])
    exact = stats.binomtest(10, 30, 0.5).pvalue
    assert s["pvalue_exact"] == pytest.approx(exact)
    mid = exact - stats.binom.pmf(10, 30, 0.5)
    assert s["pvalue_mid_p"] == pytest.approx(mid)
    assert s["pvalue_chi2"] == pytest.approx(stats.chi2.sf((10 - 1) ** 2 / 30, 1))
    assert s["pvalue_chi2_uncorrected"] == pytest.approx(stats.chi2.sf(100 / 30, 1))
    # mid-p is below the exact p by half the point probability; uncorrected is smallest here
    assert s["pvalue_mid_p"] < s["pvalue_exact"]
    assert s["pvalue_chi2_uncorrected"] < min(s["pvalue_mid_p"], s["pvalue_chi2"])


def test_pvalues_are_mcnemar_test_on_real_predictions():
    model = McNemarModel(n_repeats=50)
    rng = np.random.default_rng(3)
    for _ in range(20):
        b, c = rng.integers(0, 40, size=2)
        y_true = np.zeros(b + c + 7, dtype=int)
        pred_a = np.r_[np.zeros(b), np.ones(c), np.zeros(3), np.ones(4)].astype(int)
        pred_b = np.r_[np.ones(b), np.zeros(c), np.zeros(3), np.ones(4)].astype(int)
        for method in ("exact", "mid-p", "chi2", "chi2-uncorrected"):
            expected = ek.mcnemar_test(y_true, pred_a, pred_b, method=method).pvalue
            assert model.pvalue(b, c, method) == pytest.approx(expected)


def test_simulated_counts_follow_the_multinomial():
    model = McNemarModel(n_items=300, accuracy_a=0.9, accuracy_b=0.8, disagreement=0.2,
                         n_repeats=4000, seed=1)
    counts = model.simulated_counts()
    assert counts.shape == (4000, 2)
    # only A right: 0.15 of the items, only B right 0.05
    assert counts[:, 0].mean() == pytest.approx(45, abs=0.5)
    assert counts[:, 1].mean() == pytest.approx(15, abs=0.3)
    assert counts[:, 0].var() == pytest.approx(300 * 0.15 * 0.85, rel=0.08)


def test_false_positive_rates_under_the_null():
    """Equal accuracies: the exact test stays below alpha, the uncorrected chi2 near it."""
    model = McNemarModel(n_items=100, accuracy_a=0.8, accuracy_b=0.8, disagreement=0.2,
                         n_repeats=20000, seed=2)
    s = model.summary()
    assert s["power_exact"] < 0.05 and s["power_chi2"] < 0.05
    assert s["power_exact"] <= s["power_mid_p"] <= s["power_chi2_uncorrected"]
    assert s["power_mid_p"] == pytest.approx(0.05, abs=0.015)
    # exactly: with 20 discordant items on average, P(p_exact < 0.05) from the binomial mixture
    rng = np.random.default_rng(2)
    cells = rng.multinomial(100, model.cell_shares(), size=20000)
    discordant, a_only = cells[:, 1] + cells[:, 2], cells[:, 1]
    by_scipy = np.array([stats.binomtest(k, m, 0.5).pvalue if m else 1.0
                         for k, m in zip(a_only, discordant, strict=True)])
    assert s["power_exact"] == pytest.approx(np.mean(by_scipy < 0.05), abs=1e-12)


def test_power_grows_with_the_test_set_and_falls_with_disagreement():
    small = McNemarModel(n_items=100, accuracy_a=0.85, accuracy_b=0.80, disagreement=0.15,
                         n_repeats=2000).summary()
    large = McNemarModel(n_items=1000, accuracy_a=0.85, accuracy_b=0.80, disagreement=0.15,
                         n_repeats=2000).summary()
    noisy = McNemarModel(n_items=1000, accuracy_a=0.85, accuracy_b=0.80, disagreement=0.3,
                         n_repeats=2000).summary()
    assert small["power_exact"] < 0.35 < 0.9 < large["power_exact"]
    assert noisy["power_exact"] < large["power_exact"] - 0.1


def test_disagreement_range():
    assert _disagreement_range(0.9, 0.8) == pytest.approx((0.1, 0.3))
    assert _disagreement_range(0.3, 0.4) == pytest.approx((0.1, 0.7))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"n_items": 1}, ValueError, "n_items must be a whole number >= 2"),
    ({"accuracy_a": 1.0}, ValueError, r"accuracy_a must be a real number in \(0, 1\)"),
    ({"accuracy_b": "0.8"}, TypeError, "accuracy_b must be a real number"),
    ({"disagreement": 0.01}, ValueError, r"disagreement must be in \[0.05, 0.35\]"),
    ({"accuracy_a": 0.97}, ValueError, r"disagreement must be in \[0.17, 0.23\]"),
    ({"items": 3}, ValueError, "unknown setting 'items'"),
])
def test_model_rejects_bad_settings_and_keeps_its_state(kwargs, error, message):
    model = McNemarModel(n_repeats=50)
    before = model.summary()
    with pytest.raises(error, match=message):
        model.set(**kwargs)
    assert model.summary() == before


def test_a_change_checked_whole():
    model = McNemarModel(n_repeats=50)
    # alone each would break the range; together they fit
    model.set(accuracy_a=0.95, accuracy_b=0.7, disagreement=0.3)
    assert model.summary()["expected_a_only"] == pytest.approx(200 * 0.275)


def test_explorer_shows_the_models_numbers():
    explorer = McNemarExplorer(McNemarModel(n_repeats=300), plot=False)
    explorer.controls["n_items"].value = 1000
    assert explorer.model.n_items == 1000
    s = explorer.model.summary()
    shown = cells(explorer.summary.value)
    assert shown["test items"] == "1000"
    assert shown["items only A gets right"] == f"{s['a_only_correct']} (expected 100.0)"
    assert shown["p (exact)"] == f"{s['pvalue_exact']:.4f}"
    assert shown["share with p &lt; 0.05 (mid-p)"] == f"{s['power_mid_p']:.1%}"


def test_explorer_moves_disagreement_into_range():
    explorer = McNemarExplorer(McNemarModel(n_repeats=100), plot=False)
    explorer.controls["disagreement"].value = 0.05
    explorer.controls["accuracy_a"].value = 0.95     # needs disagreement >= 0.15
    assert explorer.controls["disagreement"].value == pytest.approx(0.15)
    assert explorer.model.disagreement == pytest.approx(0.15)
    assert explorer.model.accuracy_a == 0.95
    assert "0.95, 0.80" in explorer.summary.value
    explorer.controls["disagreement"].value = 0.5   # above 2 - 0.95 - 0.8 = 0.25
    assert explorer.model.disagreement == pytest.approx(0.25)


def test_explorer_draws_the_power_of_each_method():
    explorer = McNemarExplorer(McNemarModel(n_repeats=200))
    figure = explorer.draw()
    ax = figure.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["exact", "mid-p", "chi2",
                                                            "chi2-uncorrected"]
    heights = [patch.get_height() for patch in ax.patches]
    s = explorer.model.summary()
    assert heights == pytest.approx([s["power_exact"], s["power_mid_p"], s["power_chi2"],
                                     s["power_chi2_uncorrected"]])
