"""CostExplorer and its model: the price of each error, and the cheapest threshold."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import CostExplorer, CostModel

from .helpers import grid_rows

# ---------------------------------------------------------------------------------------------
# CostModel and CostExplorer: the price of each error, and the cheapest threshold
# ---------------------------------------------------------------------------------------------


def _cost_data(rng, n=300):
    """Labels and scores with many ties (scores rounded to 0.05), both classes present."""
    y_true = np.where(rng.random(n) < 0.3, "sick", "well")
    y_score = np.round(np.clip(rng.normal(np.where(y_true == "sick", 0.65, 0.4), 0.2), 0, 1)
                       / 0.05) * 0.05
    return y_true, y_score


def _cost_summary(explorer) -> list[dict[str, list[str]]]:
    """The explorer's three tables (confusion matrix, cost matrix, costs), each as rows."""
    tables = explorer.summary.value.split("<table")[1:]
    assert len(tables) == 3
    return [grid_rows("<table" + table) for table in tables]


def _by_hand(y_true, y_score, threshold, cost_matrix, pos_label="sick"):
    from sklearn.metrics import confusion_matrix

    positive = y_true == pos_label
    predicted = y_score >= threshold
    confusion = confusion_matrix(positive, predicted, labels=[False, True])  # [[TN FP] [FN TP]]
    return confusion, float((confusion * np.asarray(cost_matrix)).sum())


def test_cost_model_costs_equal_a_hand_computation_at_many_thresholds(rng):
    from sklearn.metrics import accuracy_score


    y_true, y_score = _cost_data(rng)
    model = CostModel(y_true, y_score, pos_label="sick", cost_tn=0.5, cost_fp=2.0,
                               cost_fn=15.0, cost_tp=-3.0)
    costs = [[0.5, 2.0], [15.0, -3.0]]
    np.testing.assert_array_equal(model.cost_matrix, costs)
    # Exactly on a score (ties), between scores, below all, above all, +inf and -inf.
    for threshold in [0.5, 0.45, 0.475, 0.0, -1.0, 0.999, 1.0, 7.0, np.inf, -np.inf]:
        model.set(threshold=threshold)
        confusion, cost = _by_hand(y_true, y_score, threshold, costs)
        np.testing.assert_array_equal(model.confusion(), confusion, err_msg=str(threshold))
        assert model.total_cost() == pytest.approx(cost)
        assert model.expected_cost() == pytest.approx(cost / len(y_true))
        assert model.accuracy() == pytest.approx(
            accuracy_score(y_true == "sick", y_score >= threshold))
        np.testing.assert_array_equal(model.confusion(threshold), confusion)


def test_cost_model_optimum_equals_a_brute_force_search(rng):
    from evalkit.widgets import CostModel

    y_true, y_score = _cost_data(rng)
    for costs in [(0, 1, 1, 0), (0, 1, 10, 0), (0, 10, 1, 0), (1, 3, 40, -5), (0, 1, 0.01, 0)]:
        c_tn, c_fp, c_fn, c_tp = costs
        model = CostModel(y_true, y_score, pos_label="sick", cost_tn=c_tn, cost_fp=c_fp,
                                   cost_fn=c_fn, cost_tp=c_tp)
        # Every threshold that can make a difference: +inf and each distinct score.
        candidates = np.concatenate([[np.inf], np.unique(y_score)[::-1]])
        matrix = [[c_tn, c_fp], [c_fn, c_tp]]
        brute = np.array([_by_hand(y_true, y_score, t, matrix)[1] for t in candidates])
        best = int(np.argmin(brute))  # first minimum = highest threshold among ties
        assert model.optimum().cost == pytest.approx(brute.min()), costs
        assert model.optimum().threshold == candidates[best], costs
        assert tuple(model.optimum()) == ek.cost_optimal_threshold(y_true, y_score, matrix,
                                                                   pos_label="sick")
        # No threshold at all (not just the candidates) does better.
        for t in np.linspace(-0.1, 1.1, 49):
            assert _by_hand(y_true, y_score, t, matrix)[1] >= model.optimum().cost - 1e-9


def test_cost_model_finds_the_optimum_once_per_cost_change(rng, monkeypatch):
    import evalkit.widgets.cost as costs_module  # where the model looks the function up

    y_true, y_score = _cost_data(rng)
    model = costs_module.CostModel(y_true, y_score, pos_label="sick")
    calls = []
    original = costs_module.costs_by_threshold
    monkeypatch.setattr(costs_module, "costs_by_threshold",
                        lambda *a, **k: calls.append(1) or original(*a, **k))
    for threshold in np.linspace(0, 1, 21):
        model.set(threshold=threshold)
        model.total_cost(), model.optimum()
    assert calls == []
    model.set(cost_fn=5.0)
    assert len(calls) == 1
    model.set(cost_fn=5.0, threshold=0.3)  # the same cost: nothing to recompute
    assert len(calls) == 1
    assert model.optimum() == ek.cost_optimal_threshold(y_true, y_score, [[0, 1], [5, 0]],
                                                        pos_label="sick")


def test_cost_model_theoretical_threshold(rng):

    y_true, y_score = _cost_data(rng)
    model = CostModel(y_true, y_score, pos_label="sick", cost_fn=20.0)
    assert model.theoretical_threshold() == pytest.approx(1 / 21)
    model.set(cost_tn=-1.0, cost_fp=3.0, cost_fn=10.0, cost_tp=-2.0)
    assert model.theoretical_threshold() == pytest.approx(4 / (4 + 12))
    assert model.theoretical_threshold_issue() is None
    model.set(cost_fp=-1.0)  # a false alarm no worse than a true negative
    assert model.theoretical_threshold() is None
    assert "error must cost more" in model.theoretical_threshold_issue()
    scores = CostModel(y_true, y_score * 10 - 5, pos_label="sick", cost_fn=20.0)
    assert scores.theoretical_threshold() is None
    assert "not probabilities" in scores.theoretical_threshold_issue()


def test_cost_model_refuses_bad_input():

    y_true, y_score = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    with pytest.raises(ValueError, match="different lengths"):
        CostModel(y_true, y_score[:3])
    with pytest.raises(ValueError, match="y_score contains NaN"):
        CostModel(y_true, [0.1, np.nan, 0.3, 0.4])
    with pytest.raises(ValueError, match="no positive sample"):
        CostModel([0, 0, 0, 0], y_score)
    with pytest.raises(ValueError, match="no negative sample"):
        CostModel([1, 1, 1, 1], y_score)
    with pytest.raises(ValueError, match="pos_label='sick' is not one of the labels"):
        CostModel(y_true, y_score, pos_label="sick")
    with pytest.raises(ValueError, match=r"cost_fn must be a real number \(finite\)"):
        CostModel(y_true, y_score, cost_fn=np.inf)
    with pytest.raises(TypeError, match="cost_fp must be a real number; got the string '1'"):
        CostModel(y_true, y_score, cost_fp="1")
    with pytest.raises(ValueError, match="threshold must be a real number; got nan"):
        CostModel(y_true, y_score, threshold=np.nan)
    model = CostModel(y_true, y_score)
    with pytest.raises(ValueError, match="unknown setting 'c_fn'; the settings are cost_tn"):
        model.set(c_fn=3)
    with pytest.raises(TypeError, match="cost_tp must be a real number; got None"):
        model.set(cost_tp=None)
    assert model.cost_tp == 0.0  # a refused change leaves the model as it was


def test_cost_explorer_first_control_is_the_threshold_and_moves_the_numbers():
    import ipywidgets


    y_true = np.array([0, 0, 0, 0, 1, 0, 1, 1, 1, 1])
    y_score = np.array([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95])
    explorer = CostExplorer(CostModel(y_true, y_score, cost_fn=5.0), plot=False,
                            labels=("benign", "malignant"))
    first_name, first = next(iter(explorer.controls.items()))
    assert first_name == "threshold" and isinstance(first, ipywidgets.FloatSlider)
    assert (first.min, first.max, first.step) == (0.0, 1.0, 0.01)
    confusion, prices, rows = _cost_summary(explorer)
    # t = 0.5: TN 4, FP 1 (0.55), FN 1 (0.45), TP 4: cost 1 * 1 + 1 * 5 = 6.
    assert confusion == {"true benign": ["4", "1"], "true malignant": ["1", "4"]}
    assert prices == {"true benign": ["0", "1"], "true malignant": ["5", "0"]}
    assert rows["total cost"] == ["6.00"] and rows["accuracy"] == ["0.800"]
    assert rows["expected cost per case"] == ["0.6000"]
    # The cheapest: t = 0.45, every malignant case caught, one false alarm: cost 1.
    assert rows["cheapest threshold on these data"] == ["0.45"]
    assert rows["its total cost"] == ["1.00"] and rows["its accuracy"] == ["0.900"]
    assert rows["extra cost of the chosen threshold"] == ["5.00"]
    assert rows["p* (calibrated probabilities)"] == [f"{1 / 6:.4f}"]
    assert rows["total cost at p*"] == ["3.00"]  # t = 1/6: FP 3 (0.25, 0.35, 0.55), FN 0

    first.value = 0.4  # one more case (0.45, malignant) predicted malignant
    confusion, _, rows = _cost_summary(explorer)
    assert confusion["true malignant"] == ["0", "5"]
    assert rows["total cost"] == ["1.00"] and rows["extra cost of the chosen threshold"] == [
        "0.00"]
    first.value = 0.9
    shown, _, rows = _cost_summary(explorer)
    confusion, cost = _by_hand(y_true, y_score, 0.9, [[0, 1], [5, 0]], pos_label=1)
    assert [shown["true benign"], shown["true malignant"]] == confusion.astype(str).tolist()
    assert rows["total cost"] == [f"{cost:.2f}"] and rows["accuracy"] == ["0.600"]


def test_cost_explorer_cost_controls_move_the_cheapest_threshold(rng):
    from evalkit.widgets import CostExplorer, CostModel

    y_true, y_score = _cost_data(rng)
    explorer = CostExplorer(CostModel(y_true, y_score, pos_label="sick"), plot=False,
                            max_cost=50, labels=("well", "sick"))
    assert explorer.controls["cost_fn"].max == 50
    for name, value in [("cost_fn", 20.0), ("cost_fp", 4.0), ("cost_tp", -2.0),
                        ("cost_tn", 0.5)]:
        explorer.controls[name].value = value
        m = explorer.model
        assert getattr(m, name) == value
        matrix = [[m.cost_tn, m.cost_fp], [m.cost_fn, m.cost_tp]]
        threshold, cost = ek.cost_optimal_threshold(y_true, y_score, matrix, pos_label="sick")
        rows = grid_rows(explorer.summary.value)
        assert rows["cheapest threshold on these data"] == [f"{threshold:.4g}"], name
        assert rows["its total cost"] == [f"{cost:.2f}"], name
        assert rows["total cost"] == [f"{_by_hand(y_true, y_score, 0.5, matrix)[1]:.2f}"], name
        confusion_shown, costs_shown = _cost_summary(explorer)[:2]
        assert costs_shown == {"true well": [f"{c:g}" for c in matrix[0]],
                               "true sick": [f"{c:g}" for c in matrix[1]]}, name
        assert confusion_shown["true sick"] == [str(c) for c in m.confusion()[1]], name
    p_star = (4.0 - 0.5) / (4.0 - 0.5 + 20.0 + 2.0)
    assert grid_rows(explorer.summary.value)["p* (calibrated probabilities)"] == [
        f"{p_star:.4f}"]
    explorer.controls["cost_fp"].value = 0.0  # a false alarm now costs less than a TN
    rows = grid_rows(explorer.summary.value)
    assert rows["p* (calibrated probabilities)"][0].startswith("not applicable")
    # Missing everything is cheapest when a miss costs nothing more than a hit.
    explorer.controls["cost_fn"].value = 0.0
    explorer.controls["cost_tp"].value = 0.0
    explorer.controls["cost_fp"].value = 1.0
    explorer.controls["cost_tn"].value = 0.0
    rows = grid_rows(explorer.summary.value)
    assert rows["cheapest threshold on these data"] == ["inf (never positive)"]
    assert rows["its total cost"] == ["0.00"]


def test_cost_explorer_draws_the_cost_curve_and_the_confusion_matrix():

    y_true = [0, 0, 1, 1]
    explorer = CostExplorer(CostModel(y_true, [0.1, 0.4, 0.35, 0.8], cost_fn=5.0,
                                               threshold=0.3))
    left, right = explorer.draw().axes[:2]
    legend = [text.get_text() for text in left.get_legend().get_texts()]
    assert "cheapest: t = 0.35, cost 1" in legend
    assert "chosen t = 0.3" in legend and "p* = 0.167" in legend
    steps = left.get_lines()[0]
    np.testing.assert_allclose(steps.get_xdata(), [0.1, 0.35, 0.4, 0.8])
    np.testing.assert_allclose(steps.get_ydata(), [2, 1, 6, 5])
    assert [t.get_text() for t in right.texts] == ["1", "1", "0", "2"]
    assert right.get_xlabel() == "predicted class"
    low, high = left.get_ylim()
    assert low < 1 and 2 < high < 6  # from the optimum (1) to above the current cost (1)
    explorer.controls["threshold"].value = 0.9  # nothing predicted positive: cost 10
    left = explorer.draw().axes[0]
    assert left.get_ylim()[0] < 1 and left.get_ylim()[1] >= 10
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_cost_explorer_default_and_raw_scores():

    explorer = CostExplorer(plot=False)  # calibrated example scores: p* is near the optimum
    rows = grid_rows(explorer.summary.value)
    assert rows["p* (calibrated probabilities)"] == [f"{1 / 6:.4f}"]
    assert abs(explorer.model.optimum().threshold - 1 / 6) < 0.1
    # Decision values outside [0, 1]: the slider spans the scores, p* does not apply.
    raw = CostExplorer(CostModel([0, 1, 0, 1], [-3.0, -1.0, 0.5, 2.0], threshold=0.0),
                       plot=False)
    slider = raw.controls["threshold"]
    assert (slider.min, slider.max) == (-3.0, 2.0) and slider.value == 0.0
    assert grid_rows(raw.summary.value)["p* (calibrated probabilities)"] == [
        "not applicable: the scores are not probabilities (some lie outside [0, 1])"]
    with pytest.raises(ValueError, match="labels must be two names"):
        CostExplorer(plot=False, labels=("a", "b", "c"))
