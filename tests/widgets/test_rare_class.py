"""RareClassExplorer and its model: accuracy against precision and recall on a rare class."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import RareClassExplorer, RareClassModel

from .helpers import cells


def test_rare_class_model_counts_and_measures_by_hand():
    model = RareClassModel(n_documents=10_000, n_relevant=10, recall_target=0.8,
                           n_false_alarms=12)
    assert model.counts() == {"tp": 8, "fp": 12, "fn": 2, "tn": 9978}
    s = model.summary()
    assert s["accuracy"] == pytest.approx((8 + 9978) / 10_000)
    assert s["precision"] == pytest.approx(8 / 20)
    assert s["recall"] == pytest.approx(8 / 10)
    assert s["specificity"] == pytest.approx(9978 / 9990)
    assert s["accuracy_retrieve_nothing"] == pytest.approx(9990 / 10_000)
    assert s["recall_retrieve_nothing"] == 0.0
    assert s["beats_retrieving_nothing"] is False


def test_rare_class_model_agrees_with_evalkit_on_its_labels():
    model = RareClassModel(n_documents=500, n_relevant=40, recall_target=0.55,
                           n_false_alarms=33)
    y_true, y_pred = model.labels()
    assert len(y_true) == 500 and y_true.sum() == 40
    assert model.counts()["tp"] == 22  # 0.55 * 40 = 22
    s = model.summary()
    assert s["accuracy"] == ek.accuracy(y_true, y_pred)
    assert s["precision"] == ek.precision(y_true, y_pred)
    assert s["recall"] == ek.recall(y_true, y_pred)


def test_nothing_found_and_nothing_retrieved_gives_undefined_precision():
    s = RareClassModel(recall_target=0.0, n_false_alarms=0).summary()
    assert np.isnan(s["precision"]) and s["recall"] == 0.0
    assert s["accuracy"] == s["accuracy_retrieve_nothing"]


def test_a_common_class_lets_the_system_beat_retrieving_nothing():
    assert RareClassModel(n_relevant=1000).summary()["beats_retrieving_nothing"] is True


@pytest.mark.parametrize("kwargs, error, message", [
    ({"n_relevant": 0}, ValueError, "n_relevant must be a whole number >= 1"),
    ({"n_relevant": 10_000}, ValueError, "n_relevant must be below n_documents"),
    ({"recall_target": 1.5}, ValueError, "recall_target"),
    ({"n_false_alarms": 9995}, ValueError, "n_false_alarms must be at most the 9990"),
    ({"n_false_alarms": "3"}, TypeError, "n_false_alarms"),
    ({"size": 3}, ValueError, "unknown setting 'size'"),
])
def test_rare_class_model_rejects_bad_settings(kwargs, error, message):
    with pytest.raises(error, match=message):
        RareClassModel().set(**kwargs)


def test_a_bad_change_leaves_the_model_as_it_was():
    model = RareClassModel()
    with pytest.raises(ValueError):
        model.set(n_relevant=20, n_false_alarms=20_000)
    assert model.n_relevant == 10 and model.n_false_alarms == 12


def test_rare_class_explorer_responds_to_its_sliders():
    import ipywidgets as widgets

    explorer = RareClassExplorer(plot=False)
    first = list(explorer.controls)[0]
    assert first == "n_relevant" and isinstance(explorer.controls[first],
                                                widgets.SelectionSlider)
    shown = cells(explorer.summary.value)
    assert shown["accuracy"] == "0.9986" and shown["retrieve nothing: accuracy"] == "0.9990"
    assert shown["accuracy prefers"] == "retrieving nothing"

    explorer.controls["n_relevant"].value = 1000
    assert explorer.model.n_relevant == 1000
    shown = cells(explorer.summary.value)
    assert shown["TP, FP, FN, TN"] == "800, 12, 200, 8988"
    assert shown["accuracy"] == f"{(800 + 8988) / 10_000:.4f}"
    assert shown["accuracy prefers"] == "the system"

    explorer.controls["recall_target"].value = 0.5
    assert explorer.model.summary()["recall"] == 0.5
    explorer.controls["n_false_alarms"].value = 500
    assert cells(explorer.summary.value)["precision"] == f"{500 / 1000:.4f}"


def test_rare_class_explorer_draws_bars():
    explorer = RareClassExplorer()
    figure = explorer.draw()
    errors, scores = figure.axes
    assert [bar.get_height() for bar in errors.patches] == [14, 10]  # 2 FN + 12 FP; 10 FN
    assert [t.get_text() for t in scores.get_xticklabels()] == ["precision", "recall"]
    assert len(scores.patches) == 4
