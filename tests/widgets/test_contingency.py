"""ContingencyExplorer and its model: the retrieved/relevant table of one query."""

from __future__ import annotations

import numpy as np
import pytest

from evalkit.widgets import ContingencyExplorer, ContingencyModel

from .helpers import cells


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
    explorer = ContingencyExplorer(ContingencyModel(tp=0, fp=0, fn=10, tn=9990), plot=False)
    shown = cells(explorer.summary.value)
    assert shown["precision"] == "undefined"
    assert shown["accuracy"] == "0.999"
    assert explorer.controls["tn"].max >= 9990


def test_contingency_explorer_refuses_an_empty_collection():
    explorer = ContingencyExplorer(ContingencyModel(tp=1, fp=0, fn=0, tn=0), plot=False)
    explorer.controls["tp"].value = 0
    assert explorer.controls["tp"].value == 1
    assert explorer.model.tp == 1


def test_contingency_explorer_draws_the_sets():
    explorer = ContingencyExplorer(ContingencyModel(tp=30, fp=0, fn=10, tn=60))
    figure = explorer.draw()
    assert figure.axes[0].get_title() == "Collection of 100 documents"


def test_contingency_model_measures_match_the_functions():
    model = ContingencyModel(tp=40, fp=50, fn=0, tn=10, beta=2.0)
    m = model.summary()
    assert m["accuracy"] == 0.5 and m["recall"] == 1.0
    assert m["precision"] == pytest.approx(4 / 9)
    assert m["f_beta"] == pytest.approx(5 * (4 / 9) / (4 * 4 / 9 + 1))
    np.testing.assert_array_equal(model.table(), [[40, 50], [0, 10]])
    assert model.n_documents == 100


def test_contingency_model_undefined_measures_are_nan():
    m = ContingencyModel(tp=0, fp=0, fn=10, tn=9990).summary()
    assert m["accuracy"] == 0.999
    assert np.isnan(m["precision"])  # nothing retrieved: undefined, not a silent 0
    assert m["recall"] == 0.0 and m["specificity"] == 1.0
    assert m["f1"] == 0.0  # 2TP / (2TP + FP + FN) = 0 / 10 is defined


@pytest.mark.parametrize("kwargs, error, message", [
    ({"tp": -1}, ValueError, "tp must be a whole number >= 0"),
    ({"fp": 1.5}, ValueError, "fp must be a whole number >= 0"),
    ({"tp": 0, "fp": 0, "fn": 0, "tn": 0}, ValueError, "collection is empty"),
    ({"beta": -2}, ValueError, "beta must be a real number >= 0"),
    ({"beta": True}, TypeError, "beta must be a real number >= 0; got True"),
    ({"tpp": 3}, ValueError, "unknown setting 'tpp'; the settings are tp, fp, fn, tn, beta"),
])
def test_contingency_model_rejects_bad_counts(kwargs, error, message):
    with pytest.raises(error, match=message):
        ContingencyModel().set(**kwargs)
