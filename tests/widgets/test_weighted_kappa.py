"""WeightedKappaExplorer and its model: how far apart a disagreement is, and what weights charge."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import evalkit as ek
from evalkit.widgets import WeightedKappaExplorer, WeightedKappaModel

from .helpers import grid_rows


def _labels(n_agreed, n_disagreements, distance, n_grades=4):
    """The items written out by hand: agreed grades, then A top / B lower."""
    agreed = np.repeat(np.arange(n_grades), n_agreed)
    top = n_grades - 1
    a = np.r_[agreed, np.full(n_disagreements, top)]
    b = np.r_[agreed, np.full(n_disagreements, top - distance)]
    return a, b


@pytest.mark.parametrize("n_agreed, n_disagreements, distance", [(5, 1, 1), (5, 1, 3),
                                                                  (3, 4, 2), (2, 0, 1)])
def test_model_matches_scikit_learn_on_the_items(n_agreed, n_disagreements, distance):
    model = WeightedKappaModel(n_agreed=n_agreed, n_disagreements=n_disagreements,
                               distance=distance)
    a, b = _labels(n_agreed, n_disagreements, distance)
    s = model.summary()
    assert s["n_items"] == len(a)
    assert s["observed_agreement"] == pytest.approx(np.mean(a == b))
    for weights in (None, "linear", "quadratic"):
        expected = cohen_kappa_score(a, b, labels=[0, 1, 2, 3], weights=weights)
        assert s[f"kappa_{weights or 'unweighted'}"] == pytest.approx(expected)


def test_the_notebook_numbers_and_pooled_marginals():
    model = WeightedKappaModel()
    assert round(model.kappas()["unweighted"], 4) == 0.9366
    model.set(distance=3)
    assert {k: round(v, 4) for k, v in model.kappas().items()} == {
        "unweighted": 0.9366, "linear": 0.8881, "quadratic": 0.8355}
    model.set(pooled=True)
    a, b = _labels(5, 1, 3)
    assert model.kappas()["linear"] == pytest.approx(
        ek.cohen_kappa(a, b, weights="linear", marginals="pooled"))


def test_weighted_kappa_falls_with_distance_plain_kappa_does_not():
    curves = WeightedKappaModel(n_disagreements=3).kappa_by_distance()
    assert np.all(np.diff(curves["linear"]) < 0) and np.all(np.diff(curves["quadratic"]) < 0)
    assert np.ptp(curves["unweighted"]) < 0.02


def test_a_bad_change_leaves_the_model_as_it_was():
    model = WeightedKappaModel()
    with pytest.raises(ValueError, match="distance"):
        model.set(n_disagreements=4, distance=4)
    with pytest.raises(TypeError, match="pooled"):
        model.set(pooled="yes")
    with pytest.raises(ValueError, match="n_agreed"):
        model.set(n_agreed=0)
    assert (model.n_disagreements, model.distance, model.pooled) == (1, 1, False)


def test_view_follows_its_controls():
    explorer = WeightedKappaExplorer()
    before = grid_rows(explorer.summary.value)
    explorer.controls["distance"].value = 3
    assert explorer.model.distance == 3
    assert round(explorer.model.summary()["kappa_quadratic"], 4) == 0.8355
    assert grid_rows(explorer.summary.value) != before
    explorer.controls["pooled"].value = True
    assert explorer.model.summary()["marginals"] == "pooled"
    assert "pooled marginals" in explorer.summary.value
    assert len(explorer.output.outputs) == 1  # the figure, set from the kernel
