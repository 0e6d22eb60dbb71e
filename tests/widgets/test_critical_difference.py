"""CriticalDifferenceExplorer and its model: Friedman, Nemenyi and the CD diagram on a chosen
part of a score table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs
from scipy import stats

from evalkit.widgets import CriticalDifferenceExplorer, CriticalDifferenceModel

from .helpers import cells


def _scores(n_rows=30, n_systems=6, seed=0):
    """Systems whose true quality grows with their index, plus per-row noise."""
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n_rows, n_systems)) + np.linspace(0, 1.5, n_systems)
    return pd.DataFrame(values, columns=[f"s{j}" for j in range(n_systems)])


def test_summary_is_scipy_and_scikit_posthocs_on_the_chosen_part():
    for seed in range(20):
        scores = _scores(seed=seed)
        model = CriticalDifferenceModel(scores, systems=["s0", "s2", "s3", "s5"], n_topics=17,
                                        seed=seed)
        table = model.table()
        assert list(table.columns) == ["s0", "s2", "s3", "s5"] and len(table) == 17
        summary = model.summary()
        scipy_result = stats.friedmanchisquare(*table.to_numpy().T)
        assert summary["friedman_statistic"] == pytest.approx(scipy_result.statistic)
        assert summary["friedman_pvalue"] == pytest.approx(scipy_result.pvalue)
        posthoc = scikit_posthocs.posthoc_nemenyi_friedman(table.to_numpy()).to_numpy()
        upper = np.triu_indices(4, 1)
        assert summary["n_pairs"] == 6
        assert summary["n_pairs_different"] == int(np.sum(posthoc[upper] < 0.05))


def test_critical_difference_and_ranks_by_hand():
    scores = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.9, 0.8, 0.6],
                           "b": [0.5, 0.6, 0.4, 0.6, 0.7, 0.5],
                           "c": [0.3, 0.2, 0.5, 0.4, 0.1, 0.2]})
    summary = CriticalDifferenceModel(scores).summary()
    # Demšar's Table 5: q_0.05 = 2.343 for k = 3; CD = q sqrt(k (k + 1) / (6 N)).
    assert summary["critical_difference"] == pytest.approx(2.343 * np.sqrt(3 * 4 / 36),
                                                           abs=1e-3)
    # a is first on every row; b second except on row 3, where c beats it.
    assert summary["best_system"] == "a" and summary["best_rank"] == 1.0
    assert summary["worst_system"] == "c"
    assert summary["worst_rank"] == pytest.approx((3 * 5 + 2) / 6)
    # |R_a - R_c| = 1.83 > CD = 1.35 > |R_a - R_b| = 1.17: one pair differs.
    assert summary["n_pairs_different"] == 1


def test_more_topics_with_one_seed_add_rows_and_sharpen_the_test():
    scores = _scores(n_rows=60, seed=3)
    model = CriticalDifferenceModel(scores, n_topics=10, seed=4)
    few_rows = set(model.table().index)
    few = model.summary()
    model.set(n_topics=60)
    assert few_rows <= set(model.table().index)
    many = model.summary()
    assert many["critical_difference"] == pytest.approx(
        few["critical_difference"] * np.sqrt(10 / 60))
    assert many["friedman_pvalue"] < few["friedman_pvalue"]
    assert many["n_pairs_different"] >= few["n_pairs_different"]


def test_a_stricter_alpha_widens_the_critical_difference():
    model = CriticalDifferenceModel(_scores(seed=5))
    loose = model.set(alpha=0.1).summary()
    strict = model.set(alpha=0.01).summary()
    assert strict["critical_difference"] > loose["critical_difference"]
    assert strict["n_pairs_different"] <= loose["n_pairs_different"]
    assert strict["friedman_pvalue"] == loose["friedman_pvalue"]  # alpha is Nemenyi's only


@pytest.mark.parametrize("kwargs, error, message", [
    ({"systems": ["s0"]}, ValueError, "systems must hold at least 2 systems"),
    ({"systems": ["s0", "nope"]}, ValueError, "systems must be columns of scores"),
    ({"systems": ["s0", "s0"]}, ValueError, "systems must name each system once"),
    ({"systems": "s0"}, TypeError, "systems must be a list or tuple"),
    ({"n_topics": 1}, ValueError, "n_topics must be a whole number"),
    ({"n_topics": 31}, ValueError, "n_topics must be a whole number"),
    ({"alpha": 0.0}, ValueError, r"alpha must be a real number in \(0, 1\)"),
    ({"seed": -1}, ValueError, "seed must be a whole number"),
])
def test_bad_settings_are_refused_and_change_nothing(kwargs, error, message):
    model = CriticalDifferenceModel(_scores(), n_topics=20)
    before = model.summary()
    with pytest.raises(error, match=message):
        model.set(**{"alpha": 0.1, **kwargs})  # a good change beside the bad one: neither
    assert model.summary() == before and model.n_topics == 20 and model.alpha == 0.05


def test_bad_tables_are_refused():
    with pytest.raises(TypeError, match="scores must be a pandas DataFrame"):
        CriticalDifferenceModel(np.ones((5, 3)))
    with pytest.raises(ValueError, match="at least 2 rows"):
        CriticalDifferenceModel(pd.DataFrame({"a": [1.0], "b": [2.0]}))
    with pytest.raises(ValueError):
        CriticalDifferenceModel(pd.DataFrame({"a": [1.0, np.nan], "b": [2.0, 1.0]}))


def test_the_explorer_responds_to_every_control():
    explorer = CriticalDifferenceExplorer(CriticalDifferenceModel(_scores()), plot=False)
    shown = cells(explorer.summary.value)
    assert shown["topics N"] == "30" and shown["systems k"] == "6"

    explorer.controls["n_topics"].value = 12
    assert explorer.model.n_topics == 12
    assert cells(explorer.summary.value)["topics N"] == "12"

    explorer.controls["systems"].value = ("s0", "s1", "s5")
    assert explorer.model.systems == ("s0", "s1", "s5")
    shown = cells(explorer.summary.value)
    assert shown["systems k"] == "3"
    assert shown["pairs that differ (Nemenyi)"].endswith("of 3")

    explorer.controls["alpha"].value = 0.1
    assert explorer.model.alpha == 0.1
    summary = explorer.model.summary()
    shown = cells(explorer.summary.value)
    assert shown["alpha"] == "0.1"
    assert shown["critical difference (ranks)"] == f"{summary['critical_difference']:.2f}"
    assert shown["Friedman p"] == f"{summary['friedman_pvalue']:.2g}"
    assert shown["best average rank"] == f"{summary['best_system']} ({summary['best_rank']:.2f})"


def test_the_explorer_keeps_at_least_two_systems():
    explorer = CriticalDifferenceExplorer(CriticalDifferenceModel(_scores()), plot=False)
    explorer.controls["systems"].value = ("s0", "s3")
    explorer.controls["systems"].value = ("s3",)
    assert explorer.model.systems == ("s0", "s3")
    assert explorer.controls["systems"].value == ("s0", "s3")


def test_the_explorer_draws_the_diagram_of_the_chosen_systems():
    explorer = CriticalDifferenceExplorer(CriticalDifferenceModel(_scores(), systems=["s0", "s4",
                                                                                      "s5"]))
    figure = explorer.draw()
    ax = figure.axes[0]
    labels = {text.get_text() for text in ax.texts}
    assert {"s0", "s4", "s5"} <= {label.split(" ")[0] for label in labels} | labels
    assert "s1" not in labels
    assert explorer.output.outputs  # the figure was shown


def test_the_explorer_takes_only_its_model():
    with pytest.raises(TypeError, match="model must be a CriticalDifferenceModel"):
        CriticalDifferenceExplorer(_scores(), plot=False)
