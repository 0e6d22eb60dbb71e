"""The explorers, driven through their controls without a browser."""

from __future__ import annotations

import re

import numpy as np
import pytest

from evalkit.classification import SetRetrievalModel
from evalkit.ranking import RankedListModel
from evalkit.widgets import ContingencyExplorer, DCGExplorer, TestSetExplorer


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
