"""AveragingExplorer and its model: skewed class sizes and every average."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

import evalkit as ek
from evalkit.widgets import AveragingExplorer, AveragingModel

from .helpers import grid_rows

# ---------------------------------------------------------------------------------------------
# AveragingExplorer: skew the class sizes, weaken the rare classes, read every average
# ---------------------------------------------------------------------------------------------


def _shown_averages(explorer) -> dict[str, list[str]]:
    rows = grid_rows(explorer.summary.value)
    return {scheme: rows[scheme] for scheme in
            ("micro", "weighted", "dodrans", "entropy", "macro", "macro_pr")}


def test_averaging_explorer_first_control_is_the_skew_slider():
    import ipywidgets


    # The browser test moves the first slider of the notebook: it must change the numbers.
    explorer = AveragingExplorer(plot=False)
    first = next(iter(explorer.controls.values()))
    assert list(explorer.controls)[0] == "skew" and isinstance(first, ipywidgets.FloatSlider)
    before = explorer.summary.value
    first.value = first.value + first.step
    assert explorer.summary.value != before


def test_averaging_explorer_numbers_equal_scikit_learn():
    from sklearn import metrics as skm


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


def _averaging_model(**settings):

    return AveragingModel(**settings)


@pytest.mark.parametrize("skew", [0.0, 0.5, 1.0, 2.0, 3.0])
@pytest.mark.parametrize("n_classes", [2, 5, 10])
def test_averaging_model_supports_follow_the_skew(skew, n_classes):
    model = _averaging_model(n_classes=n_classes, skew=skew, n_samples=5000)
    support = model.support
    assert support.sum() == 5000 and support.min() >= 1
    assert np.all(np.diff(support) <= 0)  # largest class first
    # Each class holds its Zipf quota of the samples left after the one it always keeps.
    share = np.arange(1, n_classes + 1) ** -skew / np.sum(np.arange(1, n_classes + 1) ** -skew)
    assert np.all(np.abs(support - 1 - (5000 - n_classes) * share) < 1)
    if skew == 0:
        assert np.ptp(support) <= 1


def test_averaging_model_is_deterministic_and_consistent():
    model = _averaging_model(n_classes=6, skew=1.5, rare_weakness=0.8, seed=3)
    y_true, y_pred = model.labels()
    again = _averaging_model(n_classes=6, skew=1.5, rare_weakness=0.8, seed=3).labels()
    np.testing.assert_array_equal(y_true, again[0])
    np.testing.assert_array_equal(y_pred, again[1])
    other = _averaging_model(n_classes=6, skew=1.5, rare_weakness=0.8, seed=4).labels()
    assert not np.array_equal(y_pred, other[1])
    matrix = model.confusion()
    np.testing.assert_array_equal(matrix, skm.confusion_matrix(y_true, y_pred, labels=range(6)))
    np.testing.assert_array_equal(matrix.sum(axis=1), model.support)
    assert model.accuracy == skm.accuracy_score(y_true, y_pred)
    # The cache follows the settings: a change gives new labels, not stale ones.
    model.set(skew=0.0)
    np.testing.assert_array_equal(np.bincount(model.labels()[0]), model.support)


def test_averaging_model_with_skew_0_and_equal_recall_all_averages_agree():
    model = _averaging_model(n_classes=8, skew=0.0, rare_weakness=1.0, n_samples=80_000)
    weights = model.weights(["weighted", "dodrans", "entropy", "macro", "micro"])
    np.testing.assert_allclose(weights.to_numpy(), 1 / 8)
    averages = model.averages()
    # Equal sizes: every weighted mean is the plain mean, exactly.
    for column in averages.columns:
        for scheme in ("weighted", "dodrans", "entropy"):
            assert averages.loc[scheme, column] == pytest.approx(averages.loc["macro", column])
    # Equal sizes and equal recall: micro and macro differ only by sampling noise.
    np.testing.assert_allclose(averages.to_numpy(), model.accuracy, atol=0.005)
    np.testing.assert_allclose(model.designed_recall, 0.9)


@pytest.mark.parametrize("settings", [
    {},
    {"skew": 2.5, "rare_weakness": 1.5, "n_classes": 12},
    {"skew": 1.0, "errors_to": "uniform", "top_recall": 0.6},
    {"skew": 3.0, "rare_weakness": 2.0, "n_samples": 300, "seed": 7},  # rare classes vanish
])
def test_averaging_model_report_equals_scikit_learn(settings):
    model = _averaging_model(**settings)
    y_true, y_pred = model.labels()
    report = model.report()
    labels = model.classes
    per_class = skm.precision_recall_fscore_support(y_true, y_pred, labels=labels,
                                                     zero_division=0.0)
    np.testing.assert_allclose(report.loc[labels, ["precision", "recall", "f_score"]].to_numpy(),
                               np.column_stack(per_class[:3]))
    np.testing.assert_array_equal(report.loc[labels, "support"], model.support)
    for average in ("micro", "macro", "weighted"):
        expected = skm.precision_recall_fscore_support(y_true, y_pred, labels=labels,
                                                       average=average, zero_division=0.0)
        np.testing.assert_allclose(report.loc[average, ["precision", "recall", "f_score"]],
                                   expected[:3], err_msg=average)
    # scikit-learn has no dodrans or entropy: weight its per-class F1 with class_weights.
    for scheme in ("dodrans", "entropy"):
        weights = ek.class_weights(model.support, scheme=scheme)
        assert report.loc[scheme, "f_score"] == pytest.approx(np.average(per_class[2],
                                                                         weights=weights))
    p, r = report.loc["macro", ["precision", "recall"]]
    assert report.loc["macro_pr", "f_score"] == pytest.approx(2 * p * r / (p + r))
    assert list(model.averages().index) == ["micro", "weighted", "dodrans", "entropy", "macro",
                                            "macro_pr"]


def test_averaging_model_recall_and_errors_follow_the_design():
    model = _averaging_model(n_classes=5, skew=1.0, rare_weakness=1.0, top_recall=0.8,
                             n_samples=400_000)
    matrix = model.confusion()
    support = model.support
    recall = np.diag(matrix) / support
    design = 0.8 / np.arange(1, 6)  # top_recall * (i + 1) ** -(skew * weakness)
    np.testing.assert_allclose(model.designed_recall, design)
    sd = np.sqrt(design * (1 - design) / support)
    assert np.all(np.abs(recall - design) < 5 * sd)
    # "proportional": the rarest class's errors go to class j with probability n_j / (N - n_4).
    errors = matrix[4, :4]
    np.testing.assert_allclose(errors / errors.sum(), support[:4] / support[:4].sum(), atol=0.01)
    uniform = model.set(errors_to="uniform").confusion()[4, :4]
    np.testing.assert_allclose(uniform / uniform.sum(), 0.25, atol=0.01)


def test_averaging_model_weakness_pulls_macro_below_micro():
    gaps = []
    for weakness in (0.0, 0.5, 1.0, 1.5):
        averages = _averaging_model(skew=1.5, rare_weakness=weakness, n_samples=50_000).averages()
        gaps.append(averages.loc["micro", "f_score"] - averages.loc["macro", "f_score"])
        f1 = averages["f_score"]
        # The family is ordered: each scheme weighs rare classes more than the one before.
        if weakness > 0:
            assert f1["micro"] > f1["dodrans"] > f1["entropy"] > f1["macro"]
        assert f1["macro_pr"] >= f1["macro"] - 1e-12  # Opitz & Burst: never below
    assert np.all(np.diff(gaps) > 0)


def test_averaging_model_entropy_breaks_d1_above_n_over_e():
    model = _averaging_model(skew=2.0)
    support = model.support
    assert support[0] > model.n_samples / np.e > support[1]
    weights = model.weights()
    assert weights.loc[0, "entropy"] < weights.loc[1, "entropy"]  # D1 fails
    for scheme in ("weighted", "dodrans", "macro"):
        assert np.all(np.diff(weights[scheme]) <= 1e-15), scheme  # D1 holds
    for scheme in weights.columns:
        assert np.all(np.diff(weights[scheme] / support) >= -1e-15), scheme  # D2 holds
        assert weights[scheme].sum() == pytest.approx(1.0)  # D0


@pytest.mark.parametrize("settings, error, message", [
    ({"n_classes": 1}, ValueError, "n_classes must be a whole number >= 2"),
    ({"n_classes": 2.5}, ValueError, "n_classes must be a whole number"),
    ({"skew": -0.1}, ValueError, r"skew must be a real number in \[0, 10\]"),
    ({"skew": "long"}, TypeError, "skew must be a real number"),
    ({"skew": float("nan")}, ValueError, "skew must be a real number"),
    ({"rare_weakness": True}, TypeError, "rare_weakness must be a real number"),
    ({"top_recall": 0.0}, ValueError, r"top_recall must be a real number in \(0, 1\]"),
    ({"top_recall": 1.2}, ValueError, r"top_recall must be a real number in \(0, 1\]"),
    ({"errors_to": "rare"}, ValueError, "errors_to must be one of 'proportional', 'uniform'"),
    ({"n_samples": 5, "n_classes": 8}, ValueError, "n_samples must be at least n_classes \\(8\\)"),
    ({"seed": -1}, ValueError, "seed must be a whole number >= 0"),
])
def test_averaging_model_rejects_bad_settings(settings, error, message):
    with pytest.raises(error, match=message):
        _averaging_model(**settings)


def test_averaging_model_set_validates_before_changing_anything():
    model = _averaging_model()
    with pytest.raises(ValueError, match="unknown setting 'beta'"):
        model.set(beta=2)
    with pytest.raises(ValueError, match="n_samples must be at least n_classes"):
        model.set(n_classes=20, n_samples=10)
    assert (model.n_classes, model.n_samples) == (8, 2000)
    assert model.set(skew=2, n_classes=3) is model
    assert (model.skew, model.n_classes) == (2.0, 3)
