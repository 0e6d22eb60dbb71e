"""ROCThresholdExplorer and its model: one threshold moving along the ROC curve of fixed scores."""

from __future__ import annotations

import html

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import ROCThresholdExplorer, ROCThresholdModel

from .helpers import grid_rows

TEN_TRUE = np.array([1, 1, 0, 0, 1, 0, 1, 0, 1, 0])
TEN_SCORE = np.array([0.30, 0.85, 0.60, 0.10, 0.95, 0.45, 0.60, 0.20, 0.70, 0.80])


@pytest.mark.parametrize("threshold, counts", [
    # (TN, FP, FN, TP) counted by hand from the ten cases
    (np.inf, (5, 0, 5, 0)), (0.95, (5, 0, 4, 1)), (0.80, (4, 1, 3, 2)),
    (0.60, (3, 2, 1, 4)), (0.61, (4, 1, 2, 3)), (0.10, (0, 5, 0, 5)),
])
def test_ten_cases_by_hand(threshold, counts):
    model = ROCThresholdModel(threshold=threshold)
    tn, fp, fn, tp = counts
    np.testing.assert_array_equal(model.confusion(), [[tn, fp], [fn, tp]])
    s = model.summary()
    assert (s["tn"], s["fp"], s["fn"], s["tp"]) == counts
    assert s["tpr"] == pytest.approx(tp / 5) and s["fpr"] == pytest.approx(fp / 5)
    assert s["accuracy"] == pytest.approx((tp + tn) / 10)
    assert s["n_flagged"] == tp + fp and s["auc"] == pytest.approx(0.78)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_point_lies_on_the_roc_curve_and_equals_scikit_learn(seed):
    from sklearn import metrics as skm

    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, 60)
    y_score = np.round(rng.normal(y_true, 1.0), 1)  # rounded: ties between the classes
    model = ROCThresholdModel(y_true, y_score)
    fpr, tpr, thresholds = skm.roc_curve(y_true, y_score, drop_intermediate=False)
    for t, x, y in zip(thresholds, fpr, tpr, strict=True):
        s = model.set(threshold=t).summary()
        assert s["fpr"] == pytest.approx(x) and s["tpr"] == pytest.approx(y)
        y_pred = (y_score >= t).astype(int)
        np.testing.assert_array_equal(model.confusion(),
                                      skm.confusion_matrix(y_true, y_pred, labels=[0, 1]))
        assert s["accuracy"] == pytest.approx(skm.accuracy_score(y_true, y_pred))
    assert model.summary()["auc"] == pytest.approx(skm.roc_auc_score(y_true, y_score))
    for ours, theirs in zip(model.roc_curve(), ek.roc_curve(y_true, y_score), strict=True):
        np.testing.assert_array_equal(ours, theirs)


def test_string_labels_and_pos_label():
    y_true = np.where(TEN_TRUE == 1, "malignant", "benign")
    model = ROCThresholdModel(y_true, TEN_SCORE, threshold=0.6, pos_label="malignant")
    assert model.summary() == ROCThresholdModel(threshold=0.6).summary()


def test_a_bad_change_leaves_the_model_as_it_was():
    model = ROCThresholdModel(threshold=0.6)
    with pytest.raises(TypeError, match="threshold"):
        model.set(threshold=True)
    with pytest.raises(ValueError, match="threshold"):
        model.set(threshold=float("nan"))
    with pytest.raises(ValueError, match="unknown setting"):
        model.set(threshold=0.9, y_score=[1, 2])
    assert model.threshold == 0.6


@pytest.mark.parametrize("kwargs, match", [
    ({"y_true": [0, 1, 1]}, "together"),
    ({"y_true": [1, 1, 1], "y_score": [0.1, 0.2, 0.3]}, "y_true"),
    ({"y_true": [0, 1, 1], "y_score": [0.1, 0.2]}, "length"),
    ({"y_true": [0, 1], "y_score": [0.1, float("nan")]}, "y_score"),
])
def test_bad_data(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ROCThresholdModel(**kwargs)


def _shown(explorer) -> dict[str, list[str]]:
    rows = grid_rows(explorer.summary.value)
    return {html.unescape(name): values for name, values in rows.items()}


def test_the_view_moves_the_point_and_shows_the_counts():
    explorer = ROCThresholdExplorer(plot=False)
    slider = explorer.controls["threshold"]
    assert (slider.min, slider.max) == (0.10, 0.95)
    slider.value = 0.6
    shown = _shown(explorer)
    assert shown["true negative"] == ["3", "2"] and shown["true positive"] == ["1", "4"]
    assert shown["TPR = TP / P"] == ["0.800"] and shown["FPR = FP / N"] == ["0.400"]
    assert shown["AUC (whole curve)"] == ["0.780"]
    slider.value = 0.9
    shown = _shown(explorer)
    assert explorer.model.threshold == pytest.approx(0.9)
    assert shown["TPR = TP / P"] == ["0.200"] and shown["FPR = FP / N"] == ["0.000"]
    assert shown["true positive"] == ["4", "1"]


def test_the_view_draws_the_figure_into_its_output():
    import matplotlib

    matplotlib.use("Agg")
    explorer = ROCThresholdExplorer(ROCThresholdModel(TEN_TRUE, TEN_SCORE, threshold=0.5),
                                    score_name="score")
    assert explorer.output.outputs  # the figure, set from the kernel side
    explorer.controls["threshold"].value = 0.7
    assert explorer.model.summary()["tp"] == 3
