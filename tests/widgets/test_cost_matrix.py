"""CostMatrixExplorer and its model: price each cell, compare classifiers, read p*."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evalkit.widgets import CostMatrixExplorer, CostMatrixModel

from .helpers import cells, grid_rows

# The notes' models, positive class first as the notes write them: [[TP, FN], [FP, TN]].
NOTES = {"M1": (150, 40, 60, 250), "M2": (250, 45, 5, 200), "M3": (130, 60, 10, 300)}


def _by_hand(tp, fn, fp, tn, c_tn, c_fp, c_fn, c_tp, priors=None):
    total = tp * c_tp + fn * c_fn + fp * c_fp + tn * c_tn
    if priors is None:
        return total, total / (tp + fn + fp + tn)
    negative, positive = priors
    sick = (tp * c_tp + fn * c_fn) / (tp + fn)
    healthy = (fp * c_fp + tn * c_tn) / (fp + tn)
    return total, negative * healthy + positive * sick


@pytest.mark.parametrize("costs", [(0, 1, 100, -1), (0, 1, 1, 0), (0, 10, 20, 0),
                                   (2, 5, 31, -3)])
@pytest.mark.parametrize("same_mix", [False, True])
def test_model_costs_equal_a_hand_computation(costs, same_mix):
    c_tn, c_fp, c_fn, c_tp = costs
    model = CostMatrixModel(cost_tn=c_tn, cost_fp=c_fp, cost_fn=c_fn, cost_tp=c_tp,
                            same_mix=same_mix, prevalence=0.2)
    s = model.summary()
    priors = (0.8, 0.2) if same_mix else None
    for name, (tp, fn, fp, tn) in NOTES.items():
        total, expected = _by_hand(tp, fn, fp, tn, *costs, priors=priors)
        assert s["total_cost"][name] == pytest.approx(total)
        assert s["expected_cost"][name] == pytest.approx(expected)
        assert s["accuracy"][name] == pytest.approx((tp + tn) / 500)
    cheapest = min(NOTES, key=lambda n: _by_hand(*NOTES[n], *costs, priors=priors)[1])
    assert s["cheapest"] == cheapest
    assert s["p_star"] == pytest.approx((c_fp - c_tn) / ((c_fp - c_tn) + (c_fn - c_tp)))


def test_model_reproduces_the_notes_and_the_fair_comparison():
    s = CostMatrixModel().summary()
    assert s["total_cost"] == {"M1": 3910.0, "M2": 4255.0, "M3": 5880.0}
    assert (s["cheapest"], s["most_accurate"], s["accuracy_misleads"]) == ("M1", "M2", True)
    # at one class mix M2, better on both classes, is cheapest at every prevalence
    model = CostMatrixModel(same_mix=True)
    for prevalence in (0.01, 0.38, 0.9):
        assert model.set(prevalence=prevalence).summary()["cheapest"] == "M2"


def test_p_star_is_nan_when_an_error_is_not_dearer():
    model = CostMatrixModel(cost_fp=0.0)  # a false alarm costs what a correct no costs
    assert math.isnan(model.summary()["p_star"])
    explorer = CostMatrixExplorer(model, plot=False)
    shown = cells(explorer.summary.value.split("evalkit-summary")[-1])
    assert "none" in shown["p* (act when P(+) ≥ p*)"]


def test_model_checks_a_whole_change_before_applying_it():
    model = CostMatrixModel()
    with pytest.raises(ValueError, match="^prevalence must be"):
        model.set(cost_fn=5.0, prevalence=1.5)
    with pytest.raises(TypeError, match="same_mix must be True or False"):
        model.set(cost_fn=5.0, same_mix=1)
    with pytest.raises(TypeError, match="^cost_fp must be"):
        model.set(cost_fn=5.0, cost_fp="3")
    with pytest.raises(ValueError, match="unknown setting"):
        model.set(cost_fn=5.0, threshold=0.3)
    assert model.cost_fn == 100.0 and model.prevalence == 0.38
    with pytest.raises(ValueError, match=r"confusions\['A'\] must be 2x2"):
        CostMatrixModel(confusions={"A": [[1, 2, 3]]})
    with pytest.raises(ValueError, match="both classes"):
        CostMatrixModel(confusions={"A": [[0, 0], [1, 2]]})
    with pytest.raises(TypeError, match="non-empty dict"):
        CostMatrixModel(confusions=[[1, 2], [3, 4]])


def test_explorer_first_control_is_a_slider_that_moves_the_numbers():
    import ipywidgets

    explorer = CostMatrixExplorer(plot=False)
    first = next(iter(explorer.controls.values()))
    assert isinstance(first, ipywidgets.FloatSlider) and list(explorer.controls)[0] == "cost_fn"
    before = explorer.summary.value
    first.value = first.value + first.step
    assert explorer.summary.value != before
    assert explorer.model.cost_fn == 101.0


def test_explorer_shows_the_models_numbers():
    explorer = CostMatrixExplorer(plot=False)
    explorer.controls["cost_fn"].value = 20
    rows = grid_rows(explorer.summary.value)
    s = explorer.model.summary()
    assert rows["M2"] == ["59%", "0.900", "655", f"{s['expected_cost']['M2']:.3f}"]
    assert cells(explorer.summary.value.split("evalkit-summary")[-1])["cheapest model"] == "M2"
    explorer.controls["cost_fn"].value = 100
    explorer.controls["same_mix"].value = True
    explorer.controls["prevalence"].value = 0.5
    s = explorer.model.summary()
    _, expected = _by_hand(*NOTES["M1"], 0, 1, 100, -1, priors=(0.5, 0.5))
    assert s["expected_cost"]["M1"] == pytest.approx(expected)
    assert grid_rows(explorer.summary.value)["M1"][3] == f"{expected:.3f}"


def test_explorer_draws_into_its_output():
    explorer = CostMatrixExplorer()
    assert len(explorer.output.outputs) == 1
    explorer.controls["cost_fp"].value = 5.0
    assert len(explorer.output.outputs) == 1
    assert np.isclose(explorer.model.cost_fp, 5.0)
