"""The explorers, driven through their controls without a browser."""

from __future__ import annotations

import re

import numpy as np
import pytest

from evalkit.classification import SetRetrievalModel
from evalkit.widgets import ContingencyExplorer, TestSetExplorer


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
