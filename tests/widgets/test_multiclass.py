"""MulticlassAveragingExplorer and its model: grow one class, or leave it out, and every average."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

from evalkit.widgets import MulticlassAveragingExplorer, MulticlassAveragingModel

from .helpers import cells, grid_rows


def _averages_shown(explorer) -> dict[str, str]:
    """The name/value table of the averages (the last table of the summary)."""
    return cells(explorer.summary.value.split("evalkit-summary")[-1])

FRUITS = ["orange", "lemon", "apple"]


def _fruit_labels(orange_row):
    """The nine fruits by hand, with orange's row replaced."""
    pairs = {("orange", p): n for p, n in zip(FRUITS, orange_row, strict=True)}
    pairs.update({("lemon", "lemon"): 1, ("lemon", "apple"): 1, ("apple", "apple"): 2})
    y_true = np.repeat([t for t, _ in pairs], list(pairs.values()))
    y_pred = np.repeat([p for _, p in pairs], list(pairs.values()))
    return y_true, y_pred


@pytest.mark.parametrize("scale, orange_row", [(1.0, [1, 2, 2]), (0.5, [1, 1, 1]),
                                               (2.5, [3, 5, 5]), (4.0, [4, 8, 8])])
def test_model_equals_scikit_learn_on_the_scaled_fruits(scale, orange_row):
    model = MulticlassAveragingModel(scale=scale)
    assert model.scaled_confusion()[0].tolist() == orange_row  # rounded half up
    y_true, y_pred = _fruit_labels(orange_row)
    s = model.summary()
    assert s["support"] == [sum(orange_row), 2, 2]
    assert s["accuracy"] == pytest.approx(skm.accuracy_score(y_true, y_pred))
    for average in ("micro", "macro", "weighted"):
        assert s[f"f1_{average}"] == pytest.approx(
            skm.f1_score(y_true, y_pred, average=average, labels=FRUITS))
    np.testing.assert_allclose(s["f1_per_class"],
                               skm.f1_score(y_true, y_pred, average=None, labels=FRUITS))
    # dodrans by hand: weights n^(3/4), normalised
    weights = np.asarray(s["support"], dtype=float) ** 0.75
    assert s["f1_dodrans"] == pytest.approx(weights @ s["f1_per_class"] / weights.sum())
    # growing orange by a whole factor leaves its recall and its precision alone
    if float(scale).is_integer():
        assert s["recall_per_class"][0] == pytest.approx(0.2)
        assert s["precision_per_class"][0] == pytest.approx(1.0)
    assert s["micro_is_accuracy"]


def test_excluding_the_focus_class_keeps_its_errors():
    model = MulticlassAveragingModel(scale=2.0, exclude_focus=True)
    y_true, y_pred = _fruit_labels([2, 4, 4])
    s = model.summary()
    assert s["averaged_classes"] == ["lemon", "apple"]
    # scikit-learn: list the averaged classes; orange's errors still count as their FP
    assert s["f1_micro"] == pytest.approx(
        skm.f1_score(y_true, y_pred, average="micro", labels=["lemon", "apple"]))
    assert s["f1_macro"] == pytest.approx(
        skm.f1_score(y_true, y_pred, average="macro", labels=["lemon", "apple"]))
    # by hand: TP 1 + 2, FP 4 + (4 + 1), FN 1
    assert s["f1_micro"] == pytest.approx(2 * 3 / (2 * 3 + 9 + 1))
    assert not s["micro_is_accuracy"]
    # entropy's N still counts the 14 samples of orange
    weights = model.weights()
    n = np.array([2.0, 2.0])
    raw = -n * np.log2(n / 18)
    np.testing.assert_allclose(weights["entropy"], raw / raw.sum())


def test_model_checks_a_whole_change_before_applying_it():
    model = MulticlassAveragingModel()
    with pytest.raises(ValueError, match="^scale must be"):
        model.set(scale=-1.0, exclude_focus=True)
    with pytest.raises(TypeError, match="exclude_focus must be True or False"):
        model.set(scale=3.0, exclude_focus="yes")
    with pytest.raises(ValueError, match="unknown setting"):
        model.set(scale=3.0, skew=1.0)
    assert (model.scale, model.exclude_focus) == (1.0, False)
    with pytest.raises(ValueError, match="at least one sample"):
        model.set(scale=0.01)
    with pytest.raises(ValueError, match="square matrix"):
        MulticlassAveragingModel(confusion=[[1, 2]], labels=["a"])
    with pytest.raises(ValueError, match="labels must name"):
        MulticlassAveragingModel(labels=["a", "b"])
    with pytest.raises(ValueError, match="every class"):
        MulticlassAveragingModel(confusion=[[1, 0], [0, 0]], labels=["a", "b"])


def test_explorer_first_control_is_a_slider_that_moves_the_numbers():
    import ipywidgets

    explorer = MulticlassAveragingExplorer(plot=False)
    first = next(iter(explorer.controls.values()))
    assert isinstance(first, ipywidgets.FloatSlider)
    before = explorer.summary.value
    first.value = first.value + first.step  # what the browser test does
    assert explorer.summary.value != before
    assert explorer.model.scale == 1.5


def test_explorer_shows_the_models_numbers():
    explorer = MulticlassAveragingExplorer(plot=False)
    explorer.controls["scale"].value = 4.0
    explorer.controls["exclude_focus"].value = True
    s = explorer.model.summary()
    shown = _averages_shown(explorer)
    assert shown["F1, micro"] == f"{s['f1_micro']:.3f}" == "0.250"
    assert shown["accuracy"] == f"{s['accuracy']:.3f}"
    assert shown["micro-F1 = accuracy?"] == "no"
    rows = grid_rows(explorer.summary.value)
    assert rows["true orange"] == ["4", "8", "8"]
    assert rows["lemon"][:2] == ["2", f"{s['precision_per_class'][1]:.3f}"]
    explorer.controls["exclude_focus"].value = False
    assert _averages_shown(explorer)["micro-F1 = accuracy?"] == "yes"


def test_explorer_draws_into_its_output():
    explorer = MulticlassAveragingExplorer()
    assert len(explorer.output.outputs) == 1
    assert "image/png" in explorer.output.outputs[0]["data"] or \
        "text/plain" in explorer.output.outputs[0]["data"]
    explorer.controls["exclude_focus"].value = True
    assert len(explorer.output.outputs) == 1
