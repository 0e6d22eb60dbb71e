"""The explorers, driven through their controls without a browser."""

from __future__ import annotations

import re

import numpy as np
import pytest

from evalkit.widgets import (
    ContingencyExplorer,
    DCGExplorer,
    RankedListModel,
    SetRetrievalModel,
    TestSetExplorer,
)


def cells(html: str) -> dict[str, str]:
    """The summary table as {row name: value}."""
    rows = re.findall(r"<td[^>]*>(.*?)</td><td[^>]*>(.*?)</td>", html)
    return {name.replace("&amp;", "&"): value for name, value in rows}


def test_test_set_explorer_responds_to_every_control():
    explorer = TestSetExplorer(plot=False)
    before = explorer.summary.value
    explorer.controls["n_test"].value = 1000
    assert explorer.model.n_test == 1000
    shown = cells(explorer.summary.value)
    assert shown["test-set size"] == "1000"
    assert shown["SD in theory, sqrt(p(1-p)/n)"] == f"{np.sqrt(0.8 * 0.2 / 1000):.3f}"
    assert explorer.summary.value != before

    explorer.controls["true_accuracy"].value = 0.9
    assert explorer.model.true_accuracy == 0.9
    assert cells(explorer.summary.value)["true accuracy"] == "0.90"

    explorer.controls["confidence"].value = 0.99
    assert "middle 99% of measured accuracies" in cells(explorer.summary.value)

    explorer.controls["method"].value = "exact"
    assert "its 99% exact interval" in cells(explorer.summary.value)


def test_test_set_explorer_numbers_come_from_the_model():
    explorer = TestSetExplorer(plot=False)
    explorer.controls["n_test"].value = 50
    summary = explorer.model.summary()
    shown = cells(explorer.summary.value)
    assert shown["mean of measured accuracies"] == f"{summary['mean measured']:.3f}"
    assert shown["intervals containing the truth"] == f"{summary['coverage']:.1%}"


def test_test_set_explorer_draws_the_spread():
    explorer = TestSetExplorer()
    figure = explorer.draw()
    ax = figure.axes[0]
    assert ax.get_xlabel() == "measured accuracy"
    assert any("true accuracy 0.80" in text.get_text() for text in ax.get_legend().get_texts())


def test_contingency_explorer_responds_to_every_control():
    explorer = ContingencyExplorer(plot=False)
    shown = cells(explorer.summary.value)
    assert shown["precision"] == "1.000" and shown["recall"] == "0.750"
    explorer.controls["fp"].value = 50
    explorer.controls["tp"].value = 40
    explorer.controls["fn"].value = 0
    explorer.controls["tn"].value = 10
    shown = cells(explorer.summary.value)
    assert shown["accuracy"] == "0.500" and shown["precision"] == "0.444"
    assert shown["recall"] == "1.000" and shown["specificity"] == "0.167"
    explorer.controls["beta"].value = 2.0
    assert "F-beta (beta=2)" in cells(explorer.summary.value)


def test_contingency_explorer_shows_undefined_not_zero():
    explorer = ContingencyExplorer(SetRetrievalModel(tp=0, fp=0, fn=10, tn=9990), plot=False)
    shown = cells(explorer.summary.value)
    assert shown["precision"] == "undefined"
    assert shown["accuracy"] == "0.999"
    assert explorer.controls["tn"].max >= 9990


def test_contingency_explorer_refuses_an_empty_collection():
    explorer = ContingencyExplorer(SetRetrievalModel(tp=1, fp=0, fn=0, tn=0), plot=False)
    explorer.controls["tp"].value = 0
    assert explorer.controls["tp"].value == 1
    assert explorer.model.tp == 1


def test_contingency_explorer_draws_the_sets():
    explorer = ContingencyExplorer(SetRetrievalModel(tp=30, fp=0, fn=10, tn=60))
    figure = explorer.draw()
    assert figure.axes[0].get_title() == "Collection of 100 documents"


@pytest.mark.parametrize("explorer_class", [TestSetExplorer, ContingencyExplorer])
def test_explorers_display_as_their_widget(explorer_class):
    explorer = explorer_class(plot=False)
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# ---------------------------------------------------------------------------------------------
# DCGExplorer: reorder a graded ranking, read DCG/IDCG/nDCG per convention
# ---------------------------------------------------------------------------------------------


def grid_rows(html: str) -> dict[str, list[str]]:
    """Rows of the summary's tables as {first cell: the other cells} (header rows skipped)."""
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", html):
        values = re.findall(r"<td[^>]*>(.*?)</td>", row)
        if values:
            rows[values[0]] = values[1:]
    return rows


def notes_example(**kwargs) -> RankedListModel:
    # The course notes' example: grades 2, 1, 0, 2, 0 at ranks 1 to 5.
    return RankedListModel([2, 1, 0, 2, 0], doc_ids=["D1", "D2", "D3", "D4", "D5"], **kwargs)


def test_dcg_explorer_shows_the_notes_example_under_each_convention():
    explorer = DCGExplorer(notes_example(), plot=False)
    shown = grid_rows(explorer.summary.value)
    # Järvelin & Kekäläinen: 2 + 1/1 + 0 + 2/2 + 0 = 4; ideal 2, 2, 1: 2 + 2/1 + 1/log2(3).
    assert shown["jarvelin"] == ["4.000", "4.631", "0.864"]
    # trec_eval / scikit-learn: 2/1 + 1/log2(3) + 2/log2(5) = 3.492; ideal 2 + 2/log2(3) + 1/2.
    assert shown["trec"] == ["3.492", "3.762", "0.928"]
    # Burges et al.: gains 3, 1, 0, 3, 0 and ideal 3, 3, 1.
    assert shown["exponential"] == ["4.923", "5.393", "0.913"]
    assert shown["grade"] == ["2", "1", "0", "2", "0"]
    assert "Selected:</b> rank 1, D1 (grade 2)" in explorer.summary.value
    assert "ideal" not in explorer.controls  # no qrels given: the ideal comes from the list


def test_dcg_explorer_moves_the_selected_document_and_the_selection_follows():
    explorer = DCGExplorer(notes_example(), plot=False)
    explorer.controls["rank"].value = 4
    assert "Selected:</b> rank 4, D4 (grade 2)" in explorer.summary.value
    explorer.buttons["up"].click()
    explorer.buttons["up"].click()
    assert explorer.controls["rank"].value == 2
    assert explorer.model.doc_ids == ["D1", "D4", "D2", "D3", "D5"]
    shown = grid_rows(explorer.summary.value)
    assert shown["grade"] == ["2", "2", "1", "0", "0"]
    for variant in ("trec", "exponential", "jarvelin"):
        assert shown[variant][0] == shown[variant][1] and shown[variant][2] == "1.000"
    explorer.buttons["down"].click()
    assert explorer.controls["rank"].value == 3
    assert grid_rows(explorer.summary.value)["document"] == ["D1", "D2", "D4", "D3", "D5"]
    # At the edges a move does nothing.
    explorer.controls["rank"].value = 1
    explorer.buttons["up"].click()
    explorer.controls["rank"].value = 5
    explorer.buttons["down"].click()
    assert explorer.model.doc_ids == ["D1", "D2", "D4", "D3", "D5"]


def test_dcg_explorer_cutoff():
    explorer = DCGExplorer(notes_example(), plot=False)
    explorer.controls["k"].value = 3
    shown = grid_rows(explorer.summary.value)
    # trec: (2 + 1/log2(3)) / (2 + 2/log2(3) + 1/2) = 2.631 / 3.762
    assert shown["trec"] == ["2.631", "3.762", "0.699"]
    # jarvelin: (2 + 1 + 0) / (2 + 2 + 1/log2(3)) = 3 / 4.631
    assert shown["jarvelin"] == ["3.000", "4.631", "0.648"]
    assert "nDCG@3" in explorer.summary.value
    assert explorer.model.k == 3


def test_dcg_explorer_ideal_from_the_qrels_or_from_the_list():
    # The query also has a grade-3 document (D6) that the system never retrieved.
    explorer = DCGExplorer(notes_example(ideal=[2, 1, 0, 2, 0, 3]), plot=False)
    assert explorer.controls["ideal"].value == "qrels"
    shown = grid_rows(explorer.summary.value)
    # IDCG@5 from the qrels: 3 + 2/log2(3) + 2/2 + 1/log2(5) = 5.693
    assert shown["trec"] == ["3.492", "5.693", "0.613"]
    assert "3, 2, 2, 1, 0, 0" in explorer.summary.value
    explorer.controls["ideal"].value = "list"
    assert grid_rows(explorer.summary.value)["trec"] == ["3.492", "3.762", "0.928"]
    assert explorer.model.ideal is None
    explorer.controls["ideal"].value = "qrels"
    assert explorer.model.ideal.tolist() == [2, 1, 0, 2, 0, 3]


def test_dcg_explorer_draws_the_chosen_convention():
    explorer = DCGExplorer(notes_example())
    assert explorer.draw().axes[0].get_title() == "DCG@5 = 3.49 (trec)"
    explorer.controls["variant"].value = "jarvelin"
    assert explorer.draw().axes[0].get_title() == "DCG@5 = 4.00 (jarvelin)"
    shown = re.search(r"font-weight:bold;[^>]*>(\w+)</td>", explorer.summary.value)
    assert shown.group(1) == "jarvelin"  # the drawn convention is the bold row
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# ---------------------------------------------------------------------------------------------
# RelevanceExplorer: click ranks relevant or not, read P@k, R-precision, AP, RR
# ---------------------------------------------------------------------------------------------


def test_relevance_explorer_clicks_update_the_measures():
    from evalkit.widgets import RelevanceExplorer

    # The course notes' ranking R N R N N N N N R R.
    explorer = RelevanceExplorer(RankedListModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]), plot=False)
    shown = cells(explorer.summary.value)
    assert shown["relevant ranks"] == "1, 3, 9, 10" and shown["R (relevant documents)"] == "4"
    assert (shown["P@5"], shown["R@5"]) == ("0.400", "0.500")
    assert (shown["R-precision"], shown["AP"], shown["RR"]) == ("0.500", "0.600", "1.000")
    assert "AP = (1 + 0.667 + 0.333 + 0.4) / 4 = 0.600" in explorer.summary.value

    explorer.controls["rank 1"].value = False  # relevant at 3, 9, 10; R follows: 3
    shown = cells(explorer.summary.value)
    assert shown["relevant ranks"] == "3, 9, 10" and shown["R (relevant documents)"] == "3"
    assert (shown["P@5"], shown["R@5"]) == ("0.200", "0.333")
    # AP = (1/3 + 2/9 + 3/10) / 3; R-precision = 1/3 (one relevant in the top 3)
    assert (shown["R-precision"], shown["AP"], shown["RR"]) == ("0.333", "0.285", "0.333")
    assert explorer.rank_buttons[0].button_style == ""
    assert explorer.rank_buttons[2].button_style == "success"

    explorer.controls["rank 2"].value = True  # relevant at 2, 3, 9, 10
    shown = cells(explorer.summary.value)
    # AP = (1/2 + 2/3 + 3/9 + 4/10) / 4 = 0.475; two relevant in the top 4
    assert (shown["R-precision"], shown["AP"], shown["RR"]) == ("0.500", "0.475", "0.500")
    assert explorer.model.relevance.tolist() == [0, 1, 1, 0, 0, 0, 0, 0, 1, 1]


def test_relevance_explorer_cutoff_slider():
    from evalkit.widgets import RelevanceExplorer

    explorer = RelevanceExplorer(RankedListModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]), plot=False)
    assert explorer.controls["k"].max == 10
    explorer.controls["k"].value = 10
    shown = cells(explorer.summary.value)
    assert (shown["P@10"], shown["R@10"]) == ("0.400", "1.000")
    explorer.controls["k"].value = 1
    shown = cells(explorer.summary.value)
    assert (shown["P@1"], shown["R@1"]) == ("1.000", "0.250")
    assert "P@10" not in shown


def test_relevance_explorer_keeps_a_fixed_r():
    from evalkit.widgets import RelevanceExplorer

    # The notes' AP example: relevant at ranks 1, 3, 6, 10, 15, and R = 10 in the collection.
    relevance = np.zeros(15)
    relevance[[0, 2, 5, 9, 14]] = 1
    explorer = RelevanceExplorer(RankedListModel(relevance, n_relevant=10), plot=False)
    shown = cells(explorer.summary.value)
    assert (shown["AP"], shown["R-precision"], shown["R (relevant documents)"]) == (
        "0.290", "0.400", "10")
    assert "0 × 5 never retrieved) / 10 = 0.290" in explorer.summary.value
    explorer.controls["rank 2"].value = True
    shown = cells(explorer.summary.value)
    # (1 + 1 + 1 + 4/6 + 5/10 + 6/15) / 10 = 0.4567; five relevant in the top 10
    assert (shown["AP"], shown["R-precision"], shown["R (relevant documents)"]) == (
        "0.457", "0.500", "10")


def test_relevance_explorer_without_relevant_documents():
    from evalkit.widgets import RelevanceExplorer

    explorer = RelevanceExplorer(RankedListModel([0, 1, 0]), k=2, plot=False)
    explorer.controls["rank 2"].value = False
    shown = cells(explorer.summary.value)
    assert shown["relevant ranks"] == "none" and shown["AP"] == "0.000"
    assert "R = 0" in explorer.summary.value
    figure = explorer.draw()  # nothing relevant: the plot must still draw
    assert figure.axes[0].get_title() == "AP = 0.000, R = 0"


def test_relevance_explorer_draws_raw_and_interpolated_curves():
    from evalkit.widgets import RelevanceExplorer

    explorer = RelevanceExplorer(RankedListModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]))
    ax = explorer.draw().axes[0]
    assert ax.get_title() == "AP = 0.600, R = 4"
    lines = {line.get_label(): line for line in ax.lines}
    interpolated = lines["interpolated precision"].get_ydata()
    assert interpolated == pytest.approx([1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 0.4, 0.4, 0.4, 0.4, 0.4])
    ring = lines["after rank k = 5"]
    assert (ring.get_xdata()[0], ring.get_ydata()[0]) == pytest.approx((0.5, 0.4))
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# ---------------------------------------------------------------------------------------------
# AveragingExplorer: skew the class sizes, weaken the rare classes, read every average
# ---------------------------------------------------------------------------------------------


def _shown_averages(explorer) -> dict[str, list[str]]:
    rows = grid_rows(explorer.summary.value)
    return {scheme: rows[scheme] for scheme in
            ("micro", "weighted", "dodrans", "entropy", "macro", "macro_pr")}


def test_averaging_explorer_first_control_is_the_skew_slider():
    import ipywidgets

    from evalkit.widgets import AveragingExplorer

    # The browser test moves the first slider of the notebook: it must change the numbers.
    explorer = AveragingExplorer(plot=False)
    first = next(iter(explorer.controls.values()))
    assert list(explorer.controls)[0] == "skew" and isinstance(first, ipywidgets.FloatSlider)
    before = explorer.summary.value
    first.value = first.value + first.step
    assert explorer.summary.value != before


def test_averaging_explorer_numbers_equal_scikit_learn():
    from sklearn import metrics as skm

    from evalkit.widgets import AveragingExplorer

    explorer = AveragingExplorer(plot=False)
    for skew, weakness in [(1.0, 0.5), (2.0, 1.2), (0.0, 0.0)]:
        explorer.controls["skew"].value = skew
        explorer.controls["rare_weakness"].value = weakness
        y_true, y_pred = explorer.model.labels()
        shown = _shown_averages(explorer)
        for average in ("micro", "macro", "weighted"):
            expected = skm.precision_recall_fscore_support(y_true, y_pred, average=average,
                                                           zero_division=0.0)[:3]
            assert shown[average] == [f"{value:.3f}" for value in expected], (skew, average)
        averages = explorer.model.averages()
        for scheme in ("dodrans", "entropy", "macro_pr"):
            assert shown[scheme] == [f"{v:.3f}" for v in averages.loc[scheme]], (skew, scheme)
        assert grid_rows(explorer.summary.value)["accuracy"] == [
            f"{skm.accuracy_score(y_true, y_pred):.3f}"]


def test_averaging_explorer_controls_reach_the_model():
    from evalkit.widgets import AveragingExplorer

    explorer = AveragingExplorer(plot=False)
    explorer.controls["skew"].value = 0.0
    explorer.controls["rare_weakness"].value = 0.0
    rows = grid_rows(explorer.summary.value)
    assert rows["class sizes (largest first)"] == [", ".join(["250"] * 8)]
    assert rows["recall by design"] == [", ".join(["0.90"] * 8)]
    spread_balanced = float(rows["F1: highest − lowest average"][0])
    assert spread_balanced < 0.01
    explorer.controls["skew"].value = 1.5
    explorer.controls["rare_weakness"].value = 1.0
    spread_skewed = float(grid_rows(explorer.summary.value)["F1: highest − lowest average"][0])
    assert spread_skewed > 0.2
    explorer.controls["top_recall"].value = 0.7
    explorer.controls["n_classes"].value = 4
    explorer.controls["errors_to"].value = "uniform"
    m = explorer.model
    assert (m.top_recall, m.n_classes, m.errors_to, m.skew, m.rare_weakness) == (
        0.7, 4, "uniform", 1.5, 1.0)
    sizes = grid_rows(explorer.summary.value)["class sizes (largest first)"][0]
    assert sizes == ", ".join(str(n) for n in m.support) and len(sizes.split(", ")) == 4


def test_averaging_explorer_flags_entropy_breaking_d1():
    from evalkit.widgets import AveragingExplorer

    explorer = AveragingExplorer(plot=False)
    assert "D1" not in explorer.summary.value  # skew 1: class 0 holds 734 of 2000 < N/e
    explorer.controls["skew"].value = 1.5  # class 0 holds 1035 > N/e, but still weighs most
    assert explorer.model.support[0] > 2000 / np.e and "D1" not in explorer.summary.value
    explorer.controls["skew"].value = 2.0  # class 0 holds 1305, class 1 327
    assert grid_rows(explorer.summary.value)["entropy breaks D1"] == [
        "class 0 (n = 1305 &gt; N/e = 736) weighs less than class 1 (n = 327)"]
    weights = explorer.model.weights()
    assert weights.loc[0, "entropy"] < weights.loc[1, "entropy"]


def test_averaging_explorer_draws_weights_and_averages():
    from evalkit.widgets import AveragingExplorer

    explorer = AveragingExplorer()
    explorer.controls["skew"].value = 2.0
    left, right = explorer.draw().axes
    weights = explorer.model.weights()
    containers = {c.get_label(): c for c in left.containers}
    for scheme in ("weighted", "entropy", "dodrans", "macro"):
        heights = [bar.get_height() for bar in containers[scheme]]
        np.testing.assert_allclose(heights, weights[scheme])
    f1 = [bar.get_height() for bar in right.containers[0]]
    np.testing.assert_allclose(f1, explorer.model.averages()["f_score"])
    assert right.get_ylabel() == "F1" and "accuracy" in right.get_title()
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# ---------------------------------------------------------------------------------------------
# CostThresholdModel and CostExplorer: the price of each error, and the cheapest threshold
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

    from evalkit.widgets import CostThresholdModel

    y_true, y_score = _cost_data(rng)
    model = CostThresholdModel(y_true, y_score, pos_label="sick", cost_tn=0.5, cost_fp=2.0,
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
    import evalkit as ek
    from evalkit.widgets import CostThresholdModel

    y_true, y_score = _cost_data(rng)
    for costs in [(0, 1, 1, 0), (0, 1, 10, 0), (0, 10, 1, 0), (1, 3, 40, -5), (0, 1, 0.01, 0)]:
        c_tn, c_fp, c_fn, c_tp = costs
        model = CostThresholdModel(y_true, y_score, pos_label="sick", cost_tn=c_tn, cost_fp=c_fp,
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
    import evalkit as ek
    import evalkit.widgets.cost as costs_module  # where the model looks the function up

    y_true, y_score = _cost_data(rng)
    model = costs_module.CostThresholdModel(y_true, y_score, pos_label="sick")
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
    from evalkit.widgets import CostThresholdModel

    y_true, y_score = _cost_data(rng)
    model = CostThresholdModel(y_true, y_score, pos_label="sick", cost_fn=20.0)
    assert model.theoretical_threshold() == pytest.approx(1 / 21)
    model.set(cost_tn=-1.0, cost_fp=3.0, cost_fn=10.0, cost_tp=-2.0)
    assert model.theoretical_threshold() == pytest.approx(4 / (4 + 12))
    assert model.theoretical_threshold_issue() is None
    model.set(cost_fp=-1.0)  # a false alarm no worse than a true negative
    assert model.theoretical_threshold() is None
    assert "error must cost more" in model.theoretical_threshold_issue()
    scores = CostThresholdModel(y_true, y_score * 10 - 5, pos_label="sick", cost_fn=20.0)
    assert scores.theoretical_threshold() is None
    assert "not probabilities" in scores.theoretical_threshold_issue()


def test_cost_model_refuses_bad_input():
    from evalkit.widgets import CostThresholdModel

    y_true, y_score = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    with pytest.raises(ValueError, match="different lengths"):
        CostThresholdModel(y_true, y_score[:3])
    with pytest.raises(ValueError, match="y_score contains NaN"):
        CostThresholdModel(y_true, [0.1, np.nan, 0.3, 0.4])
    with pytest.raises(ValueError, match="no positive sample"):
        CostThresholdModel([0, 0, 0, 0], y_score)
    with pytest.raises(ValueError, match="no negative sample"):
        CostThresholdModel([1, 1, 1, 1], y_score)
    with pytest.raises(ValueError, match="pos_label='sick' is not one of the labels"):
        CostThresholdModel(y_true, y_score, pos_label="sick")
    with pytest.raises(ValueError, match="cost_fn must be a finite number"):
        CostThresholdModel(y_true, y_score, cost_fn=np.inf)
    with pytest.raises(ValueError, match="cost_fp must be a finite number"):
        CostThresholdModel(y_true, y_score, cost_fp="1")
    with pytest.raises(ValueError, match="threshold must be a number"):
        CostThresholdModel(y_true, y_score, threshold=np.nan)
    model = CostThresholdModel(y_true, y_score)
    with pytest.raises(ValueError, match=r"unknown setting\(s\) \['c_fn'\]"):
        model.set(c_fn=3)
    with pytest.raises(ValueError, match="cost_tp must be a finite number"):
        model.set(cost_tp=None)
    assert model.cost_tp == 0.0  # a refused change leaves the model as it was


def test_cost_explorer_first_control_is_the_threshold_and_moves_the_numbers():
    import ipywidgets

    from evalkit.widgets import CostExplorer, CostThresholdModel

    y_true = np.array([0, 0, 0, 0, 1, 0, 1, 1, 1, 1])
    y_score = np.array([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95])
    explorer = CostExplorer(CostThresholdModel(y_true, y_score, cost_fn=5.0), plot=False,
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
    import evalkit as ek
    from evalkit.widgets import CostExplorer, CostThresholdModel

    y_true, y_score = _cost_data(rng)
    explorer = CostExplorer(CostThresholdModel(y_true, y_score, pos_label="sick"), plot=False,
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
    from evalkit.widgets import CostExplorer, CostThresholdModel

    y_true = [0, 0, 1, 1]
    explorer = CostExplorer(CostThresholdModel(y_true, [0.1, 0.4, 0.35, 0.8], cost_fn=5.0,
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
    from evalkit.widgets import CostExplorer, CostThresholdModel

    explorer = CostExplorer(plot=False)  # calibrated example scores: p* is near the optimum
    rows = grid_rows(explorer.summary.value)
    assert rows["p* (calibrated probabilities)"] == [f"{1 / 6:.4f}"]
    assert abs(explorer.model.optimum().threshold - 1 / 6) < 0.1
    # Decision values outside [0, 1]: the slider spans the scores, p* does not apply.
    raw = CostExplorer(CostThresholdModel([0, 1, 0, 1], [-3.0, -1.0, 0.5, 2.0], threshold=0.0),
                       plot=False)
    slider = raw.controls["threshold"]
    assert (slider.min, slider.max) == (-3.0, 2.0) and slider.value == 0.0
    assert grid_rows(raw.summary.value)["p* (calibrated probabilities)"] == [
        "not applicable: the scores are not probabilities (some lie outside [0, 1])"]
    with pytest.raises(ValueError, match="labels must be two names"):
        CostExplorer(plot=False, labels=("a", "b", "c"))


# ---------------------------------------------------------------------------------------------
# ClassBalanceModel and ROCExplorer: one scorer at any class balance
# ---------------------------------------------------------------------------------------------


def _roc_shown(explorer) -> dict[str, str]:
    """The ROC explorer's one-value rows as {name: value} (the confusion grid left out)."""
    import html

    return {html.unescape(name): values[0]
            for name, values in grid_rows(explorer.summary.value).items() if len(values) == 1}


@pytest.mark.parametrize("prevalence, threshold, separation",
                         [(0.5, 1.0, 1.5), (0.01, 0.3, 1.5), (0.2, -0.5, 0.7), (0.93, 2.2, 3.0)])
def test_class_balance_model_equals_scikit_learn(prevalence, threshold, separation):
    from sklearn import metrics as skm

    from evalkit.widgets import ClassBalanceModel

    model = ClassBalanceModel(prevalence=prevalence, threshold=threshold, separation=separation,
                              cost_matrix=[[0, 2], [7, -1]], n_pool=150, seed=3)
    y_true, y_score = model.test_set()
    assert len(y_true) == model.n_test == 15000
    assert y_true.sum() == model.n_positive == round(prevalence * 100) * 150
    y_pred = (y_score >= threshold).astype(int)
    confusion = skm.confusion_matrix(y_true, y_pred, labels=[0, 1])
    np.testing.assert_array_equal(model.confusion(), confusion)
    rates = model.rates()
    assert rates["tpr"] == pytest.approx(skm.recall_score(y_true, y_pred))
    assert rates["fpr"] == pytest.approx(1 - skm.recall_score(y_true, y_pred, pos_label=0))
    assert rates["precision"] == pytest.approx(skm.precision_score(y_true, y_pred))
    assert rates["accuracy"] == pytest.approx(skm.accuracy_score(y_true, y_pred))
    for ours, theirs in zip(model.roc_curve(), skm.roc_curve(y_true, y_score), strict=True):
        np.testing.assert_allclose(ours, theirs)
    for ours, theirs in zip(model.pr_curve(), skm.precision_recall_curve(y_true, y_score),
                            strict=True):
        np.testing.assert_allclose(ours, theirs)
    assert model.auc() == pytest.approx(skm.roc_auc_score(y_true, y_score))
    assert model.average_precision() == pytest.approx(
        skm.average_precision_score(y_true, y_score))
    assert model.cost() == pytest.approx(float((confusion * [[0, 2], [7, -1]]).sum()))
    assert model.expected_cost() == pytest.approx(model.cost() / 15000)


def test_class_balance_model_counts_by_hand():
    from evalkit.widgets import ClassBalanceModel

    model = ClassBalanceModel(prevalence=0.2, threshold=0.5, separation=1.0, n_pool=6, seed=1,
                              cost_matrix=[[0, 1], [5, 0]])
    negatives, positives = model.negative_scores.tolist(), model.positive_scores.tolist()
    # The pools: 6 standard-normal draws per class, the positives shifted by the separation.
    draws = np.random.default_rng(1).standard_normal((2, 6))
    assert negatives == sorted(draws[0].tolist())
    assert positives == sorted((draws[1] + 1.0).tolist())
    # 20% positives: each pooled positive stands for 20 cases, each negative for 80.
    assert model.weights == (80, 20) and model.n_test == 600
    tp = 20 * sum(score >= 0.5 for score in positives)
    fp = 80 * sum(score >= 0.5 for score in negatives)
    assert model.confusion().tolist() == [[480 - fp, fp], [120 - tp, tp]]
    rates = model.rates()
    assert rates["precision"] == pytest.approx(tp / (tp + fp))
    # Precision from the rates and the prevalence alone: pi TPR / (pi TPR + (1 - pi) FPR).
    tpr, fpr = tp / 120, fp / 480
    assert rates["precision"] == pytest.approx(0.2 * tpr / (0.2 * tpr + 0.8 * fpr))
    assert model.cost() == 1 * fp + 5 * (120 - tp)
    # AUC by counting pairs: a pooled pair stands for 20 x 80 test pairs, so it is the pools'.
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    assert model.auc() == pytest.approx(wins / 36)


def test_class_balance_changes_precision_but_not_the_roc_curve():
    from evalkit.widgets import ClassBalanceModel

    model = ClassBalanceModel(threshold=0.8, separation=1.2, cost_matrix=[[0, 1], [10, 0]])
    fpr_0, tpr_0, thresholds_0 = model.set(prevalence=0.5).roc_curve()
    auc_0, youden_0, rates_0 = model.auc(), model.youden(), model.rates()
    precisions, average_precisions, cheapest = [], [], []
    for prevalence in (0.01, 0.05, 0.2, 0.5, 0.9):
        model.set(prevalence=prevalence)
        fpr, tpr, thresholds = model.roc_curve()
        np.testing.assert_array_equal(fpr, fpr_0)
        np.testing.assert_array_equal(tpr, tpr_0)
        np.testing.assert_array_equal(thresholds, thresholds_0)
        assert model.auc() == auc_0 and model.youden() == youden_0
        rates = model.rates()
        assert (rates["tpr"], rates["fpr"]) == (rates_0["tpr"], rates_0["fpr"])
        precisions.append(rates["precision"])
        average_precisions.append(model.average_precision())
        cheapest.append(model.cost_optimal_threshold().threshold)
    assert np.all(np.diff(precisions) > 0)  # more positives, higher precision
    assert np.all(np.diff(average_precisions) > 0)
    assert np.all(np.diff(cheapest) < 0)  # more positives, flag more cases
    assert precisions[0] < 0.1 < 0.9 < precisions[-1]


def test_youden_threshold_is_cost_optimal_only_when_costs_balance_per_class():
    from evalkit.widgets import ClassBalanceModel

    # With C_FN * P = C_FP * N the cost is a multiple of -(TPR - FPR) plus a constant.
    model = ClassBalanceModel(prevalence=0.1, cost_matrix=[[0, 1], [9, 0]], seed=4)
    assert model.cost_optimal_threshold().threshold == model.youden()[0]
    model.set(prevalence=0.5)  # now a false negative costs 9 times as much per positive
    assert model.cost_optimal_threshold().threshold < model.youden()[0]


def test_class_balance_model_validates_its_settings():
    from evalkit.widgets import ClassBalanceModel

    with pytest.raises(ValueError, match="whole number of percent"):
        ClassBalanceModel(prevalence=0.015)
    with pytest.raises(ValueError, match="between 0.01 and 0.99"):
        ClassBalanceModel(prevalence=0.0)
    with pytest.raises(ValueError, match="threshold must be a finite number"):
        ClassBalanceModel(threshold=float("nan"))
    with pytest.raises(ValueError, match="cost_matrix must be 2x2"):
        ClassBalanceModel(cost_matrix=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="n_pool must be a whole number >= 1"):
        ClassBalanceModel(n_pool=0)
    with pytest.raises(ValueError, match="unknown setting 'balance'"):
        ClassBalanceModel().set(balance=0.5)
    with pytest.raises(ValueError, match="cost_matrix is not set"):
        ClassBalanceModel().cost()
    model = ClassBalanceModel(prevalence=0.07000000000000001, threshold=99.0)
    assert model.prevalence == 0.07 and model.weights == (93, 7)
    assert np.isnan(model.rates()["precision"])  # nothing flagged: precision is undefined


def test_roc_explorer_first_control_is_the_balance_and_it_moves_only_precision():
    import ipywidgets

    from evalkit.widgets import ROCExplorer

    explorer = ROCExplorer(plot=False)
    first = next(iter(explorer.controls.values()))
    assert list(explorer.controls) == ["prevalence", "threshold", "separation"]
    assert isinstance(first, ipywidgets.FloatSlider) and first.value < first.max
    before = _roc_shown(explorer)
    first.value = 0.05
    after = _roc_shown(explorer)
    assert explorer.model.prevalence == 0.05
    for name in ("TPR (recall) = TP / P", "FPR = FP / N", "AUC (ROC)", "Youden's J threshold"):
        assert after[name] == before[name], name
    for name in ("precision = TP / (TP + FP)", "average precision (PR)", "total cost",
                 "cheapest threshold here"):
        assert after[name] != before[name], name
    assert float(after["precision = TP / (TP + FP)"]) < float(
        before["precision = TP / (TP + FP)"])


def test_roc_explorer_shows_the_model_numbers():
    from sklearn import metrics as skm

    from evalkit.widgets import ROCExplorer

    explorer = ROCExplorer(plot=False)
    for prevalence, threshold, separation in [(0.5, 1.0, 1.5), (0.03, 0.0, 2.4),
                                              (0.3, 2.5, 0.5)]:
        explorer.controls["prevalence"].value = prevalence
        explorer.controls["threshold"].value = threshold
        explorer.controls["separation"].value = separation
        m = explorer.model
        assert (m.prevalence, m.threshold, m.separation) == (prevalence, threshold, separation)
        y_true, y_score = m.test_set()
        y_pred = (y_score >= threshold).astype(int)
        (tn, fp), (fn, tp) = skm.confusion_matrix(y_true, y_pred)
        rows = grid_rows(explorer.summary.value)
        assert rows["true negative"] == [str(tn), str(fp)]
        assert rows["true positive"] == [str(fn), str(tp)]
        shown = _roc_shown(explorer)
        assert shown["TPR (recall) = TP / P"] == f"{tp / (tp + fn):.3f}"
        assert shown["FPR = FP / N"] == f"{fp / (fp + tn):.3f}"
        assert shown["precision = TP / (TP + FP)"] == f"{skm.precision_score(y_true, y_pred):.3f}"
        assert shown["AUC (ROC)"] == f"{skm.roc_auc_score(y_true, y_score):.3f}"
        assert shown["average precision (PR)"] == (
            f"{skm.average_precision_score(y_true, y_score):.3f}")
        assert shown["total cost"] == f"{fp * 1 + fn * 10:.1f}"
        assert shown["PR baseline = prevalence"] == f"{prevalence:.2f}"


def test_roc_explorer_separation_changes_the_auc_and_threshold_the_rates():
    from evalkit.widgets import ROCExplorer

    explorer = ROCExplorer(plot=False)
    auc = float(_roc_shown(explorer)["AUC (ROC)"])
    explorer.controls["separation"].value = 3.0
    assert float(_roc_shown(explorer)["AUC (ROC)"]) > auc + 0.1
    tpr = float(_roc_shown(explorer)["TPR (recall) = TP / P"])
    explorer.controls["threshold"].value = 2.0
    assert float(_roc_shown(explorer)["TPR (recall) = TP / P"]) < tpr


def test_roc_explorer_marks_the_operating_point_on_both_curves():
    from evalkit.widgets import ROCExplorer

    explorer = ROCExplorer()
    explorer.controls["prevalence"].value = 0.1
    left, right = explorer.draw().axes
    rates = explorer.model.rates()
    (roc_point,) = [line for line in left.lines if line.get_label() == "operating point"]
    (pr_point,) = [line for line in right.lines if line.get_label() == "operating point"]
    np.testing.assert_allclose(np.ravel(roc_point.get_data()), [rates["fpr"], rates["tpr"]])
    np.testing.assert_allclose(np.ravel(pr_point.get_data()),
                               [rates["recall"], rates["precision"]])
    fpr, tpr, _ = explorer.model.roc_curve()
    np.testing.assert_allclose(left.lines[0].get_xdata(), fpr)
    assert "10% positives" in right.get_title()
    assert any("no skill (precision 0.1)" == line.get_label() for line in right.lines)


def test_roc_explorer_displays_as_its_widget():
    from evalkit.widgets import ROCExplorer

    bundle = ROCExplorer(plot=False)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_roc_explorer_without_costs_and_with_nothing_flagged():
    from evalkit.widgets import ClassBalanceModel, ROCExplorer

    explorer = ROCExplorer(ClassBalanceModel(threshold=6.0))
    shown = _roc_shown(explorer)
    assert "total cost" not in shown and "cheapest threshold here" not in shown
    assert shown["precision = TP / (TP + FP)"] == "undefined"
    assert shown["TPR (recall) = TP / P"] == "0.000"
    left, right = explorer.draw().axes
    assert not [line for line in right.lines if line.get_label() == "operating point"]
    assert [line for line in left.lines if line.get_label() == "operating point"]


def test_class_balance_model_flags_a_score_equal_to_the_threshold():
    from sklearn.metrics import confusion_matrix

    from evalkit.widgets import ClassBalanceModel

    model = ClassBalanceModel(prevalence=0.3, n_pool=50)
    for threshold in (model.positive_scores[20], model.negative_scores[40]):
        model.set(threshold=float(threshold))
        y_true, y_score = model.test_set()
        expected = confusion_matrix(y_true, (y_score >= threshold).astype(int))
        np.testing.assert_array_equal(model.confusion(), expected)
    assert model.confusion()[0, 1] == 70 * 10  # pooled negatives 40 to 49 (0-based), 70 cases each


# ---------------------------------------------------------------------------------------------
# AgreementTableModel and KappaExplorer: two judges' yes/no table, kappa and its paradoxes
# ---------------------------------------------------------------------------------------------

# (both_yes, a_yes_b_no, a_no_b_yes, both_no)
KAPPA_TABLES = {
    "slides, 400 documents": (300, 20, 10, 70),
    "notes example 1": (10, 0, 5, 15),
    "notes example 2, left": (45, 15, 25, 15),
    "notes example 2, right": (25, 35, 5, 35),
    "Feinstein & Cicchetti A": (40, 9, 6, 45),
    "Feinstein & Cicchetti B": (80, 10, 5, 5),
    "one judge says no to all": (0, 0, 7, 13),
    "no agreement at all": (0, 6, 4, 0),
}


def _kappa_shown(explorer) -> dict[str, list[str]]:
    import html

    rows = grid_rows(explorer.summary.value)
    return {html.unescape(name): values for name, values in rows.items()}


def _hand_kappas(cells) -> dict[str, float]:
    """P(a), P(e) and kappa both ways from the four counts, written out by hand."""
    a, b, c, d = (float(x) for x in cells)
    n = a + b + c + d
    p_a_yes, p_b_yes = (a + b) / n, (a + c) / n
    observed = (a + d) / n
    separate = p_a_yes * p_b_yes + (1 - p_a_yes) * (1 - p_b_yes)
    pooled_yes = (p_a_yes + p_b_yes) / 2
    pooled = pooled_yes**2 + (1 - pooled_yes) ** 2
    return {"P(a)": observed, "P(e) separate": separate, "P(e) pooled": pooled,
            "kappa separate": (observed - separate) / (1 - separate),
            "kappa pooled": (observed - pooled) / (1 - pooled)}


@pytest.mark.parametrize("cells", list(KAPPA_TABLES.values()), ids=list(KAPPA_TABLES))
def test_agreement_table_model_equals_scikit_learn_statsmodels_and_hand(cells):
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    from evalkit.widgets import AgreementTableModel

    model = AgreementTableModel(*cells)
    rater_a, rater_b = model.to_labels()
    assert len(rater_a) == model.n_items == sum(cells)
    # the labels rebuild the table: rows judge A, columns judge B, "yes" first
    rebuilt = [[np.sum((rater_a == i) & (rater_b == j)) for j in (1, 0)] for i in (1, 0)]
    np.testing.assert_array_equal(model.table, rebuilt)
    hand = _hand_kappas(cells)
    assert model.observed_agreement() == pytest.approx(np.mean(rater_a == rater_b))
    assert model.observed_agreement() == pytest.approx(hand["P(a)"])
    assert model.chance_agreement("separate") == pytest.approx(hand["P(e) separate"])
    assert model.chance_agreement("pooled") == pytest.approx(hand["P(e) pooled"])
    assert model.kappa("separate") == pytest.approx(hand["kappa separate"])
    assert model.kappa("pooled") == pytest.approx(hand["kappa pooled"])
    # scikit-learn uses separate marginals; Fleiss' kappa of two raters is Scott's pi
    assert model.kappa("separate") == pytest.approx(cohen_kappa_score(rater_a, rater_b))
    counts, _ = aggregate_raters(np.column_stack([rater_a, rater_b]))
    assert model.kappa("pooled") == pytest.approx(fleiss_kappa(counts, method="fleiss"))
    shares = model.marginals()
    assert shares["judge A"][0] == pytest.approx(np.mean(rater_a))
    assert shares["judge B"][0] == pytest.approx(np.mean(rater_b))
    assert shares["pooled"][0] == pytest.approx(np.mean(np.r_[rater_a, rater_b]))
    summary = model.summary()
    assert summary["kappa separate"] == model.kappa() and summary["P(a)"] == hand["P(a)"]


def test_agreement_table_model_prints_the_sources_numbers():
    from evalkit.widgets import AgreementTableModel

    slides = AgreementTableModel(300, 20, 10, 70)
    assert slides.observed_agreement() == 0.925
    assert round(slides.marginals()["pooled"][0], 4) == 0.7875  # the slides print 0.7878
    assert round(slides.chance_agreement("pooled"), 4) == 0.6653
    assert round(slides.kappa("pooled"), 4) == 0.7759
    assert round((0.925 - 0.665) / (1 - 0.665), 4) == 0.7761  # the slides' rounded P(E)
    assert slides.interpret("pooled") == "substantial"
    assert slides.interpret("pooled", scale="carletta") == "tentative"
    notes = AgreementTableModel(10, 0, 5, 15)
    assert notes.chance_agreement() == pytest.approx(0.5)
    assert round(notes.kappa(), 4) == 0.6667  # the notes truncate to 0.66
    left, right = AgreementTableModel(45, 15, 25, 15), AgreementTableModel(25, 35, 5, 35)
    assert left.observed_agreement() == right.observed_agreement() == 0.6
    assert (round(left.chance_agreement(), 2), round(right.chance_agreement(), 2)) == (0.54, 0.46)
    assert (round(left.kappa(), 4), round(right.kappa(), 4)) == (0.1304, 0.2593)


def test_pooled_kappa_is_never_above_separate(rng):
    from evalkit.widgets import AgreementTableModel

    for _ in range(200):
        cells = rng.integers(0, 30, size=4)
        if cells.sum() == 0 or cells[0] + cells[3] == cells.sum():
            continue  # empty, or perfect agreement (both kappas 1 or undefined)
        model = AgreementTableModel(*cells.tolist())
        shares = model.marginals()
        gap = (shares["judge A"][0] - shares["judge B"][0]) ** 2 / 2
        assert model.chance_agreement("pooled") - model.chance_agreement() == pytest.approx(gap)
        if not np.isnan(model.kappa()):
            assert model.kappa("pooled") <= model.kappa() + 1e-12
            same = np.isclose(shares["judge A"][0], shares["judge B"][0])
            assert np.isclose(model.kappa("pooled"), model.kappa()) == same


def test_first_paradox_same_agreement_lower_kappa_when_yes_dominates():
    from evalkit.widgets import AgreementTableModel

    # Feinstein & Cicchetti (1990): P(a) = 0.85 both times, kappa 0.70 and 0.32
    balanced = AgreementTableModel.from_shares(100, 0.85, yes_share=40 / 85, a_yes_share=9 / 15)
    lopsided = AgreementTableModel.from_shares(100, 0.85, yes_share=80 / 85, a_yes_share=10 / 15)
    assert balanced.table.tolist() == [[40, 9], [6, 45]]
    assert lopsided.table.tolist() == [[80, 10], [5, 5]]
    assert balanced.observed_agreement() == lopsided.observed_agreement() == 0.85
    assert (round(balanced.kappa(), 2), round(lopsided.kappa(), 2)) == (0.70, 0.32)
    # along the curve P(a) stays, kappa peaks near a balanced split and falls at the extremes
    model = AgreementTableModel(300, 20, 10, 70)
    shares = np.linspace(0, 1, 101)
    curve = model.kappa_curve("yes_share", shares)
    assert curve[0] < 0 and curve[-1] < 0 and curve.max() > model.kappa() > 0.7
    assert 0.3 < shares[np.argmax(curve)] < 0.7
    for share in (0.0, 0.25, 0.95, 1.0):  # whole counts: the curve is the table's kappa
        copy = AgreementTableModel(300, 20, 10, 70).set_shares(yes_share=share)
        assert copy.observed_agreement() == 0.925
        exact = copy.both_yes / copy.n_agreements
        assert model.kappa_curve("yes_share", [exact])[0] == pytest.approx(copy.kappa())
        assert model.kappa_curve("yes_share", [exact], marginals="pooled")[0] == pytest.approx(
            copy.kappa("pooled"))


def test_second_paradox_lopsided_disagreements_raise_cohen_not_scott():
    from evalkit.widgets import AgreementTableModel

    model = AgreementTableModel(45, 20, 20, 15)  # P(a) = 0.6, disagreements split evenly
    shares = np.linspace(0, 1, 41)
    separate = model.kappa_curve("a_yes_share", shares)
    pooled = model.kappa_curve("a_yes_share", shares, marginals="pooled")
    assert shares[np.argmin(separate)] == 0.5
    np.testing.assert_allclose(separate, separate[::-1])  # symmetric about one half
    np.testing.assert_allclose(pooled, pooled[0])  # the pooled marginals do not move
    assert separate[0] > separate[20] == pytest.approx(pooled[0])
    lopsided = AgreementTableModel(45, 40, 0, 15)
    assert lopsided.kappa() == pytest.approx(separate[-1])
    assert lopsided.kappa("pooled") == pytest.approx(model.kappa("pooled"))


def test_agreement_table_model_shares_round_half_up_and_keep_n():
    from evalkit.widgets import AgreementTableModel

    model = AgreementTableModel(300, 20, 10, 70)
    assert (model.yes_share, model.a_yes_share) == (300 / 370, 20 / 30)
    model.set_shares(agreement=0.85)  # the other two shares stay
    assert model.table.tolist() == [[276, 40], [20, 64]] and model.n_items == 400
    model.set_shares(agreement=0.0)
    assert model.table.tolist() == [[0, 267], [133, 0]] and np.isnan(model.yes_share)
    model.set_shares(agreement=1.0, yes_share=1.0)
    assert model.table.tolist() == [[400, 0], [0, 0]] and np.isnan(model.a_yes_share)
    assert np.isnan(model.kappa()) and model.interpret() == "undefined"
    assert model.summary()["carletta pooled"] == "undefined"
    assert AgreementTableModel.from_shares(3, 0.5).table.sum() == 3


@pytest.mark.parametrize("call, message", [
    (lambda M: M(-1, 0, 0, 1), "both_yes must be a whole number >= 0"),
    (lambda M: M(1.5, 0, 0, 1), "both_yes must be a whole number"),
    (lambda M: M(True, 0, 0, 1), "both_yes must be a whole number"),
    (lambda M: M(0, 0, 0, 0), "the table is empty"),
    (lambda M: M().set(both=1), "unknown cell 'both'"),
    (lambda M: M().set_shares(agreement=1.2), "agreement must be a number from 0 to 1"),
    (lambda M: M().set_shares(yes_share="half"), "yes_share must be a number"),
    (lambda M: M().set_shares(a_yes_share=float("nan")), "a_yes_share must be a number"),
    (lambda M: M.from_shares(0, 0.5), "n_items must be a whole number >= 1"),
    (lambda M: M().chance_agreement("mixed"), "marginals"),
    (lambda M: M().kappa_curve("agreement", [0.5]), "parameter"),
    (lambda M: M().kappa_curve("yes_share", [1.5]), "values must be numbers from 0 to 1"),
])
def test_agreement_table_model_refuses_bad_input(call, message):
    from evalkit.widgets import AgreementTableModel

    with pytest.raises(ValueError, match=message):
        call(AgreementTableModel)


def test_agreement_table_model_failed_set_changes_nothing():
    from evalkit.widgets import AgreementTableModel

    model = AgreementTableModel(3, 0, 0, 0)
    with pytest.raises(ValueError, match="empty"):
        model.set(both_yes=0)
    with pytest.raises(ValueError):
        model.set(both_no=5, a_yes_b_no=-2)
    assert model == AgreementTableModel(3, 0, 0, 0)
    assert repr(model) == "AgreementTableModel(both_yes=3, a_yes_b_no=0, a_no_b_yes=0, both_no=0)"


def test_kappa_explorer_first_control_moves_kappa_but_not_agreement():
    import ipywidgets as widgets
    from sklearn.metrics import cohen_kappa_score

    from evalkit.widgets import KappaExplorer

    explorer = KappaExplorer(plot=False)
    first = list(explorer.controls)[0]
    assert first == "yes_share" and isinstance(explorer.controls[first], widgets.FloatSlider)
    shown = _kappa_shown(explorer)
    assert shown["A yes"] == ["300", "20", "320"] and shown["total"] == ["310", "90", "400"]
    assert shown["observed agreement P(a)"] == ["0.9250"]
    assert shown["P(e), pooled marginals"] == ["0.6653"]
    assert shown["kappa, separate (Cohen)"] == ["0.7761"]
    assert shown["kappa, pooled (Scott)"] == ["0.7759"]
    assert shown["Landis & Koch: separate | pooled"] == ["substantial | substantial"]
    assert shown["Carletta: separate | pooled"] == ["tentative | tentative"]

    explorer.controls["yes_share"].value = 0.99  # almost every agreed item is a "yes"
    shown = _kappa_shown(explorer)
    assert explorer.model.table.tolist() == [[366, 20], [10, 4]]
    assert shown["observed agreement P(a)"] == ["0.9250"]
    expected = cohen_kappa_score(*explorer.model.to_labels())
    assert shown["kappa, separate (Cohen)"] == [f"{expected:.4f}"]
    assert expected < 0.2
    assert shown["Landis & Koch: separate | pooled"][0].startswith("slight")
    assert shown["Carletta: separate | pooled"] == ["discard | discard"]


def test_kappa_explorer_other_controls_reach_the_model():
    from sklearn.metrics import cohen_kappa_score

    from evalkit.widgets import AgreementTableModel, KappaExplorer

    explorer = KappaExplorer(AgreementTableModel(45, 20, 20, 15), plot=False)
    assert explorer.controls["agreement"].value == 0.6
    assert explorer.controls["a_yes_share"].value == 0.5
    before = _kappa_shown(explorer)
    assert before["kappa, separate (Cohen)"] == before["kappa, pooled (Scott)"]
    explorer.controls["a_yes_share"].value = 1.0  # every disagreement: A yes, B no
    shown = _kappa_shown(explorer)
    assert explorer.model.table.tolist() == [[45, 40], [0, 15]]
    assert shown["judge A says yes"] == ["0.8500"] and shown["judge B says yes"] == ["0.4500"]
    assert shown["kappa, pooled (Scott)"] == before["kappa, pooled (Scott)"]
    assert float(shown["kappa, separate (Cohen)"][0]) > float(before["kappa, separate (Cohen)"][0])
    explorer.controls["agreement"].value = 0.8
    assert explorer.model.table.tolist() == [[60, 20], [0, 20]]
    expected = cohen_kappa_score(*explorer.model.to_labels())
    assert _kappa_shown(explorer)["kappa, separate (Cohen)"] == [f"{expected:.4f}"]


def test_kappa_explorer_shows_undefined_kappa():
    from evalkit.widgets import AgreementTableModel, KappaExplorer

    explorer = KappaExplorer(AgreementTableModel(12, 0, 0, 0), plot=False)
    shown = _kappa_shown(explorer)
    assert shown["kappa, separate (Cohen)"] == ["undefined"]
    assert shown["Carletta: separate | pooled"] == ["undefined | undefined"]
    assert explorer.controls["a_yes_share"].value == 0.5  # no disagreements: starts halfway
    explorer.controls["agreement"].value = 0.5
    assert explorer.model.table.tolist() == [[6, 3], [3, 0]]
    figure = explorer.draw()
    assert len(figure.axes) == 2


def test_kappa_explorer_draws_both_curves_with_the_current_point():
    from evalkit.widgets import KappaExplorer

    explorer = KappaExplorer()
    left, right = explorer.draw().axes
    assert left.get_xlabel() == "share of agreed items both call 'yes'"
    assert right.get_xlabel() == "share of disagreements where A says yes"
    assert left.get_ylabel() == "kappa"
    labels = [text.get_text() for text in right.get_legend().get_texts()]
    assert labels == ["kappa, Cohen (separate)", "kappa, Scott (pooled)", "P(a) = 0.925"]
    points = [line for line in left.lines if line.get_marker() == "o"]
    assert [p.get_xdata()[0] for p in points] == pytest.approx([300 / 370] * 2)
    assert [p.get_ydata()[0] for p in points] == pytest.approx(
        [explorer.model.kappa(), explorer.model.kappa("pooled")])


def test_kappa_explorer_displays_as_its_widget():
    from evalkit.widgets import KappaExplorer

    explorer = KappaExplorer(plot=False)
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# ---------------------------------------------------------------------------------------------
# RankingPairsModel and RankingExplorer (notebook 08, rank correlation)
# ---------------------------------------------------------------------------------------------


def _brute_force_pairs(x, y):
    """Every pair's verdict by the definition: sign(x_i - x_j) * sign(y_i - y_j)."""
    from itertools import combinations

    verdicts = {}
    for i, j in combinations(range(len(x)), 2):
        product = np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
        if x[i] == x[j]:
            verdicts[frozenset((i, j))] = "tied in reference"
        else:
            verdicts[frozenset((i, j))] = "concordant" if product > 0 else "discordant"
    return verdicts


def _random_pairs_model(rng, n, ties):
    from evalkit.widgets import RankingPairsModel

    items = [f"s{k}" for k in range(n)]
    reference = rng.integers(1, max(2, n // 2), n) if ties else rng.permutation(n) + 1
    order = [items[k] for k in rng.permutation(n)]
    return RankingPairsModel(items, order, reference=reference, seed=int(rng.integers(100)))


@pytest.mark.parametrize("ties", [False, True])
def test_ranking_pairs_model_classifies_every_pair_like_brute_force_and_scipy(rng, ties):
    from scipy import stats

    for _ in range(40):
        n = int(rng.integers(2, 13))
        model = _random_pairs_model(rng, n, ties)
        x, y = model.x, model.y
        expected = _brute_force_pairs(x, y)
        pairs = model.pairs()
        index = {name: k for k, name in enumerate(model.items)}
        got = {frozenset((index[a], index[b])): v
               for a, b, v in zip(pairs["first"], pairs["second"], pairs["verdict"], strict=True)}
        assert len(pairs) == n * (n - 1) // 2 == len(got)
        assert got == expected
        s = model.summary()
        tally = pairs.verdict.value_counts()
        assert s["concordant"] == tally.get("concordant", 0)
        assert s["discordant"] == tally.get("discordant", 0)
        assert s["tied"] == tally.get("tied in reference", 0)
        assert s["tau_a"] == pytest.approx((s["concordant"] - s["discordant"]) / s["n_pairs"])
        if len(set(x.tolist())) > 1:
            assert s["tau_b"] == pytest.approx(stats.kendalltau(x, y).statistic)
            assert s["rho"] == pytest.approx(stats.spearmanr(x, y).statistic)
        else:
            assert np.isnan(s["tau_b"]) and np.isnan(s["rho"])
        # The first item of a pair is above (or tied with) the second in the reference.
        first = pairs["first"].map(index).to_numpy()
        second = pairs["second"].map(index).to_numpy()
        assert (x[first] <= x[second]).all()


def test_ranking_pairs_model_reproduces_the_course_notes():
    from scipy import stats

    from evalkit.widgets import RankingPairsModel

    model = RankingPairsModel.course_notes()
    assert model.reference_order == ["1", "2", "3", "4", "5"]
    assert model.order == ["2", "1", "5", "3", "4"]
    pairs = model.pairs()
    discordant = pairs[pairs.verdict == "discordant"][["first", "second"]].values.tolist()
    assert discordant == [["1", "2"], ["3", "5"], ["4", "5"]]
    assert (pairs.verdict == "concordant").sum() == 7
    s = model.summary()
    assert (s["concordant"], s["discordant"], s["n_pairs"]) == (7, 3, 10)
    assert s["tau_a"] == s["tau_b"] == pytest.approx(0.4)  # (7 - 3) / 10, not / 15
    assert s["rho"] == pytest.approx(0.6)  # 1 - 6 * 8 / (5 * 24)
    assert model.y.tolist() == [2, 1, 4, 5, 3]
    assert s["tau_b"] == pytest.approx(stats.kendalltau([1, 2, 3, 4, 5], [2, 1, 5, 3, 4])[0])


@pytest.mark.parametrize("reference", [None, [1, 2, 2, 3, 3, 3, 4]])
def test_scramble_adds_one_discordant_pair_per_step(reference):
    from evalkit.widgets import RankingPairsModel

    items = list("abcdefg")
    model = RankingPairsModel(items, reference=reference, seed=3)
    n_pairs = 21
    assert model.max_discordant == (n_pairs if reference is None else n_pairs - 1 - 3)
    previous = None
    for d in range(model.max_discordant + 1):
        order = model.scramble(d).order
        assert model.summary()["discordant"] == d
        assert _brute_force_pairs(model.x, model.y) and sorted(order) == items
        if reference is None:
            assert model.tau("a") == pytest.approx(1 - 2 * d / n_pairs)
        if previous is not None:  # one more swap of neighbours
            changed = [k for k in range(7) if order[k] != previous[k]]
            assert len(changed) == 2 and changed[1] == changed[0] + 1
        previous = order
    # Deterministic per value and seed; another seed takes another path.
    again = RankingPairsModel(items, reference=reference, seed=3)
    assert again.scramble(5).order == model.scramble(5).order
    others = {tuple(RankingPairsModel(items, reference=reference, seed=s).scramble(5).order)
              for s in range(10)}
    assert len(others) > 1
    with pytest.raises(ValueError, match="n_discordant must be at most"):
        model.scramble(model.max_discordant + 1)


def test_ranking_pairs_model_edits():
    from evalkit.widgets import RankingPairsModel

    model = RankingPairsModel(items=["a", "b", "c", "d"], order=["d", "c", "b", "a"])
    assert model.summary()["tau_b"] == pytest.approx(-1.0)
    model.swap(1)
    assert model.order == ["c", "d", "b", "a"]
    assert model.move(4, -3) == 1
    assert model.order == ["a", "c", "d", "b"]
    assert model.summary()["discordant"] == 2  # c-b and d-b
    model.set_order(["a", "b", "c", "d"])
    assert model.summary()["tau_a"] == 1.0
    model.reset()
    assert model.order == ["d", "c", "b", "a"]
    presets = model.presets()
    assert presets["as built"] == ["d", "c", "b", "a"]
    assert presets["reversed"] == ["d", "c", "b", "a"]
    taus = {}
    for name in ("top two swapped", "bottom two swapped"):
        taus[name] = model.set_order(presets[name]).tau()
    # Kendall's tau weighs a swap at the top like one at the bottom.
    assert taus["top two swapped"] == taus["bottom two swapped"] == pytest.approx(1 - 2 / 6)
    assert model.set_order(presets["best item last"]).summary()["discordant"] == 3


def test_ranking_pairs_model_refuses_bad_input():
    from evalkit.widgets import RankingPairsModel

    with pytest.raises(ValueError, match="items must be distinct; repeated: a"):
        RankingPairsModel(["a", "b", "a"])
    with pytest.raises(ValueError, match="at least 2 items"):
        RankingPairsModel(["a"])
    with pytest.raises(ValueError, match=r"order must list every item exactly once \(missing 3"):
        RankingPairsModel(order=["1", "2", "4", "5"])
    with pytest.raises(ValueError, match="unknown 9"):
        RankingPairsModel(order=["1", "2", "3", "4", "9"])
    with pytest.raises(ValueError, match="appear twice"):
        RankingPairsModel(order=["1", "2", "3", "4", "5", "5"])
    with pytest.raises(ValueError, match="reference and items have different lengths"):
        RankingPairsModel(reference=[1, 2, 3])
    with pytest.raises(ValueError, match="reference contains NaN at position 1"):
        RankingPairsModel(reference=[1, np.nan, 3, 4, 5])
    with pytest.raises(ValueError, match="reference must hold numbers"):
        RankingPairsModel(reference=list("abcde"))
    with pytest.raises(ValueError, match="seed must be a whole number"):
        RankingPairsModel(seed=-1)
    model = RankingPairsModel()
    with pytest.raises(ValueError, match="position must be between 1 and 4; got 5"):
        model.swap(5)
    with pytest.raises(ValueError, match="target 0 is outside 1..5"):
        model.move(1, -1)
    with pytest.raises(ValueError, match="step must be a whole number"):
        model.move(2, 0.5)
    assert model.order == ["1", "2", "3", "4", "5"]  # nothing changed


def _ranking_shown(explorer):
    """The explorer's summary table as {row name: value}, HTML entities decoded."""
    import html

    return {html.unescape(name): html.unescape(value)
            for name, value in cells(explorer.summary.value).items()}


def _pair_rows(html_text):
    """The explorer's pair table as [(first, second, verdict)]."""
    import re

    return re.findall(r"<td[^>]*>\{(.+?), (.+?)\}</td><td[^>]*>.*?</td><td[^>]*>.*?</td>"
                      r"<td[^>]*>(.*?)</td></tr>", html_text)


def test_ranking_explorer_first_control_is_the_discordant_slider_and_moves_tau():
    import ipywidgets as widgets

    from evalkit.widgets import RankingExplorer

    explorer = RankingExplorer(plot=False)
    first_name, first = next(iter(explorer.controls.items()))
    assert first_name == "discordant" and isinstance(first, widgets.IntSlider)
    assert (first.value, first.min, first.max) == (3, 0, 10)
    shown = _ranking_shown(explorer)
    assert shown["discordant pairs D"] == "3"
    assert shown["Kendall's τ-b (scipy's default)"] == "0.400"
    seen = set()
    for d in range(11):
        first.value = d
        shown = _ranking_shown(explorer)
        assert explorer.model.summary()["discordant"] == d
        assert shown["discordant pairs D"] == str(d)
        assert shown["concordant pairs C"] == str(10 - d)
        assert shown["Kendall's τ-a = (C - D) / pairs"] == f"{1 - 2 * d / 10:.3f}"
        assert shown["Spearman's ρ"] == f"{explorer.model.rho():.3f}"
        seen.add(shown["Kendall's τ-b (scipy's default)"])
        rows = _pair_rows(explorer.summary.value)
        assert sum(verdict == "discordant" for *_, verdict in rows) == d
    assert len(seen) == 11
    assert explorer.model.order == ["5", "4", "3", "2", "1"]
    assert explorer.controls["preset"].value == "reversed"


def test_ranking_explorer_buttons_move_the_selected_item():
    from scipy import stats

    from evalkit.widgets import RankingExplorer

    explorer = RankingExplorer(plot=False)
    explorer.controls["selected"].value = 3  # item 5
    assert "position 3, item 5" in explorer.summary.value
    explorer.buttons["up"].click()
    explorer.buttons["up"].click()
    assert explorer.model.order == ["5", "2", "1", "3", "4"]
    assert explorer.controls["selected"].value == 1
    explorer.buttons["up"].click()  # already at the top: nothing happens
    assert explorer.model.order == ["5", "2", "1", "3", "4"]
    shown = _ranking_shown(explorer)
    # 5 above everything (4 discordant pairs) and 2 above 1: D = 5, C = 5, tau = 0.
    assert shown["discordant pairs D"] == "5" and shown["concordant pairs C"] == "5"
    assert shown["Kendall's τ-b (scipy's default)"] == "0.000"
    assert explorer.controls["discordant"].value == 5  # the slider follows, silently
    assert explorer.model.order == ["5", "2", "1", "3", "4"]
    expected_rho = stats.spearmanr([1, 2, 3, 4, 5], explorer.model.y).statistic
    assert shown["Spearman's ρ"] == f"{expected_rho:.3f}"
    for _ in range(4):
        explorer.buttons["down"].click()
    assert explorer.model.order == ["2", "1", "3", "4", "5"]
    assert explorer.controls["selected"].value == 5
    assert explorer.controls["preset"].value == "top two swapped"
    assert _ranking_shown(explorer)["discordant pairs D"] == "1"
    explorer.buttons["reset"].click()
    assert explorer.model.order == ["2", "1", "5", "3", "4"]
    assert explorer.controls["preset"].value == "as built"
    assert _ranking_shown(explorer)["Kendall's τ-a = (C - D) / pairs"] == "0.400"


def test_ranking_explorer_presets_and_pair_table():
    from evalkit.widgets import RankingExplorer

    explorer = RankingExplorer(plot=False)
    rows = _pair_rows(explorer.summary.value)
    assert [(a, b) for a, b, v in rows if v == "discordant"] == [("1", "2"), ("3", "5"),
                                                                ("4", "5")]
    assert len(rows) == 10
    explorer.controls["preset"].value = "bottom two swapped"
    assert explorer.model.order == ["1", "2", "3", "5", "4"]
    bottom = _ranking_shown(explorer)["Kendall's τ-b (scipy's default)"]
    explorer.controls["preset"].value = "top two swapped"
    assert _ranking_shown(explorer)["Kendall's τ-b (scipy's default)"] == bottom == "0.800"
    assert explorer.controls["discordant"].value == 1
    explorer.controls["selected"].value = 2
    explorer.buttons["down"].click()  # no preset matches now
    assert explorer.controls["preset"].value is None
    assert explorer.model.order == ["2", "3", "1", "4", "5"]


def test_ranking_explorer_with_ties_and_many_items():
    from evalkit.widgets import RankingExplorer, RankingPairsModel

    model = RankingPairsModel(list("abcde"), ["e", "d", "c", "b", "a"],
                              reference=[1, 1, 2, 3, 3])
    explorer = RankingExplorer(model, plot=False)
    shown = _ranking_shown(explorer)
    assert shown["pairs tied in the reference"] == "2"
    assert shown["discordant pairs D"] == "8"
    assert shown["Kendall's τ-a = (C - D) / pairs"] == "-0.800"
    assert shown["Kendall's τ-b (scipy's default)"] == f"{-8 / np.sqrt(8 * 10):.3f}"
    assert explorer.controls["discordant"].max == 8
    rows = _pair_rows(explorer.summary.value)
    assert sorted((a, b) for a, b, v in rows if v == "tied in reference") == [("a", "b"),
                                                                             ("d", "e")]
    big = RankingExplorer(RankingPairsModel(range(1, 13)), plot=False)
    big.controls["discordant"].value = 4
    listed = _pair_rows(big.summary.value)
    assert len(listed) == 4 and all(v == "discordant" for *_, v in listed)
    assert "The 4 discordant pairs" in big.summary.value


def test_ranking_explorer_draws_one_dot_per_crossing():
    from evalkit.widgets import RankingExplorer

    explorer = RankingExplorer()
    explorer.controls["selected"].value = 3
    ax = explorer.draw().axes[0]
    assert len(ax.collections[0].get_offsets()) == 3
    assert ax.get_title() == "C = 7, D = 3 crossings, τ-b = 0.40"
    widths = [line.get_linewidth() for line in ax.lines]
    assert widths.count(max(widths)) == 1  # the selected item, 5
    thick = ax.lines[widths.index(max(widths))]
    assert thick.get_ydata().tolist() == [5.0, 3.0]
    explorer.controls["discordant"].value = 7
    assert len(explorer.draw().axes[0].collections[0].get_offsets()) == 7
    assert "application/vnd.jupyter.widget-view+json" in explorer._repr_mimebundle_()
