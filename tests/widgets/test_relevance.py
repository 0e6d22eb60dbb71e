"""RelevanceExplorer and the ranked-list model: click ranks relevant, read P@k, AP, RR."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import RelevanceExplorer, RelevanceModel

from .helpers import cells

# ---------------------------------------------------------------------------------------------
# RelevanceExplorer: click ranks relevant or not, read P@k, R-precision, AP, RR
# ---------------------------------------------------------------------------------------------


def test_relevance_explorer_clicks_update_the_measures():

    # The course notes' ranking R N R N N N N N R R.
    explorer = RelevanceExplorer(RelevanceModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]), plot=False)
    shown = cells(explorer.summary.value)
    assert shown["relevant ranks"] == "1, 3, 9, 10" and shown["R (relevant documents)"] == "4"
    assert (shown["P@5"], shown["R@5"]) == ("0.400", "0.500")
    assert (shown["R-precision"], shown["AP"]) == ("0.500", "0.600") and "RR" not in shown
    assert "AP = (1 + 0.667 + 0.333 + 0.4) / 4 = 0.600" in explorer.summary.value

    explorer.controls["rank 1"].value = False  # relevant at 3, 9, 10; R follows: 3
    shown = cells(explorer.summary.value)
    assert shown["relevant ranks"] == "3, 9, 10" and shown["R (relevant documents)"] == "3"
    assert (shown["P@5"], shown["R@5"]) == ("0.200", "0.333")
    # AP = (1/3 + 2/9 + 3/10) / 3; R-precision = 1/3 (one relevant in the top 3)
    assert (shown["R-precision"], shown["AP"]) == ("0.333", "0.285")
    assert explorer.rank_buttons[0].button_style == ""
    assert explorer.rank_buttons[2].button_style == "success"

    explorer.controls["rank 2"].value = True  # relevant at 2, 3, 9, 10
    shown = cells(explorer.summary.value)
    # AP = (1/2 + 2/3 + 3/9 + 4/10) / 4 = 0.475; two relevant in the top 4
    assert (shown["R-precision"], shown["AP"]) == ("0.500", "0.475")
    assert explorer.model.relevance.tolist() == [0, 1, 1, 0, 0, 0, 0, 0, 1, 1]


def test_relevance_explorer_cutoff_slider():

    explorer = RelevanceExplorer(RelevanceModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]), plot=False)
    assert explorer.controls["k"].max == 10
    explorer.controls["k"].value = 10
    shown = cells(explorer.summary.value)
    assert (shown["P@10"], shown["R@10"]) == ("0.400", "1.000")
    explorer.controls["k"].value = 1
    shown = cells(explorer.summary.value)
    assert (shown["P@1"], shown["R@1"]) == ("1.000", "0.250")
    assert "P@10" not in shown


def test_relevance_explorer_keeps_a_fixed_r():

    # The notes' AP example: relevant at ranks 1, 3, 6, 10, 15, and R = 10 in the collection.
    relevance = np.zeros(15)
    relevance[[0, 2, 5, 9, 14]] = 1
    explorer = RelevanceExplorer(RelevanceModel(relevance, n_relevant=10), plot=False)
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

    explorer = RelevanceExplorer(RelevanceModel([0, 1, 0]), k=2, plot=False)
    explorer.controls["rank 2"].value = False
    shown = cells(explorer.summary.value)
    assert shown["relevant ranks"] == "none" and shown["AP"] == "0.000"
    assert "R = 0" in explorer.summary.value
    figure = explorer.draw()  # nothing relevant: the plot must still draw
    assert figure.axes[0].get_title() == "AP = 0.000, R = 0"


def test_relevance_explorer_draws_raw_and_interpolated_curves():

    explorer = RelevanceExplorer(RelevanceModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1]))
    ax = explorer.draw().axes[0]
    assert ax.get_title() == "AP = 0.600, R = 4"
    lines = {line.get_label(): line for line in ax.lines}
    interpolated = lines["interpolated precision"].get_ydata()
    assert interpolated == pytest.approx([1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 0.4, 0.4, 0.4, 0.4, 0.4])
    ring = lines["after rank k = 5"]
    assert (ring.get_xdata()[0], ring.get_ydata()[0]) == pytest.approx((0.5, 0.4))
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_relevance_model_toggle_and_move():
    model = RelevanceModel([1, 0, 1, 0, 0, 0, 0, 0, 1, 1], k=5)  # the notes' first
    assert model.summary()["average_precision"] == pytest.approx(0.6)
    model.toggle(2)
    assert model.n_relevant == 5
    assert model.summary()["r_precision"] == pytest.approx(3 / 5)
    model.move(9, 1)  # the relevant document at rank 9 moves to the top
    assert model.relevance[:3].tolist() == [1, 1, 1]
    assert model.doc_ids[0] == "d9"
    table = model.dcg_table(5)
    assert list(table.index) == ["trec", "exponential", "jarvelin"]
    with pytest.raises(ValueError, match="rank must be between 1 and 10"):
        model.toggle(11)


def test_relevance_model_with_fixed_judgements():
    model = RelevanceModel([1, 0, 0], n_relevant=4, ideal=[3, 1, 1, 1])
    assert model.summary()["recall_at_k"] == pytest.approx(1 / 4)
    model.set_grade(2, 3)
    assert model.summary()["ndcg"] == pytest.approx(
        ek.ndcg([1, 3, 0], ideal=[3, 1, 1, 1]))
