"""ROCExplorer and its model: one scorer at any class balance."""

from __future__ import annotations

import numpy as np
import pytest

from evalkit.widgets import ROCExplorer, ROCModel

from .helpers import grid_rows

# ---------------------------------------------------------------------------------------------
# ROCModel and ROCExplorer: one scorer at any class balance
# ---------------------------------------------------------------------------------------------


def _roc_shown(explorer) -> dict[str, str]:
    """The ROC explorer's one-value rows as {name: value} (the confusion grid left out)."""
    import html

    return {html.unescape(name): values[0]
            for name, values in grid_rows(explorer.summary.value).items() if len(values) == 1}


@pytest.mark.parametrize("prevalence, threshold, separation",
                         [(0.5, 1.0, 1.5), (0.01, 0.3, 1.5), (0.2, -0.5, 0.7), (0.93, 2.2, 3.0)])
def test_roc_model_equals_scikit_learn(prevalence, threshold, separation):
    from sklearn import metrics as skm


    model = ROCModel(prevalence=prevalence, threshold=threshold, separation=separation,
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


def test_roc_model_counts_by_hand():

    model = ROCModel(prevalence=0.2, threshold=0.5, separation=1.0, n_pool=6, seed=1,
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


def test_roc_model_balance_changes_precision_but_not_the_roc_curve():

    model = ROCModel(threshold=0.8, separation=1.2, cost_matrix=[[0, 1], [10, 0]])
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

    # With C_FN * P = C_FP * N the cost is a multiple of -(TPR - FPR) plus a constant.
    model = ROCModel(prevalence=0.1, cost_matrix=[[0, 1], [9, 0]], seed=4)
    assert model.cost_optimal_threshold().threshold == model.youden()[0]
    model.set(prevalence=0.5)  # now a false negative costs 9 times as much per positive
    assert model.cost_optimal_threshold().threshold < model.youden()[0]


def test_roc_model_validates_its_settings():

    with pytest.raises(ValueError, match="whole number of percent"):
        ROCModel(prevalence=0.015)
    with pytest.raises(ValueError, match=r"prevalence must be a real number in \[0.01, 0.99\]"):
        ROCModel(prevalence=0.0)
    with pytest.raises(ValueError, match="threshold must be a real number; got nan"):
        ROCModel(threshold=float("nan"))
    with pytest.raises(TypeError, match="separation must be a real number; got True"):
        ROCModel(separation=True)
    with pytest.raises(ValueError, match="cost_matrix must be 2x2"):
        ROCModel(cost_matrix=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="n_pool must be a whole number >= 1"):
        ROCModel(n_pool=0)
    with pytest.raises(ValueError, match="unknown setting 'balance'"):
        ROCModel().set(balance=0.5)
    with pytest.raises(ValueError, match="cost_matrix is not set"):
        ROCModel().cost()
    model = ROCModel(prevalence=0.07000000000000001, threshold=99.0)
    assert model.prevalence == 0.07 and model.weights == (93, 7)
    assert np.isnan(model.rates()["precision"])  # nothing flagged: precision is undefined


def test_roc_explorer_first_control_is_the_balance_and_it_moves_only_precision():
    import ipywidgets


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

    explorer = ROCExplorer(plot=False)
    auc = float(_roc_shown(explorer)["AUC (ROC)"])
    explorer.controls["separation"].value = 3.0
    assert float(_roc_shown(explorer)["AUC (ROC)"]) > auc + 0.1
    tpr = float(_roc_shown(explorer)["TPR (recall) = TP / P"])
    explorer.controls["threshold"].value = 2.0
    assert float(_roc_shown(explorer)["TPR (recall) = TP / P"]) < tpr


def test_roc_explorer_marks_the_operating_point_on_both_curves():

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

    bundle = ROCExplorer(plot=False)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_roc_explorer_without_costs_and_with_nothing_flagged():

    explorer = ROCExplorer(ROCModel(threshold=6.0))
    shown = _roc_shown(explorer)
    assert "total cost" not in shown and "cheapest threshold here" not in shown
    assert shown["precision = TP / (TP + FP)"] == "undefined"
    assert shown["TPR (recall) = TP / P"] == "0.000"
    left, right = explorer.draw().axes
    assert not [line for line in right.lines if line.get_label() == "operating point"]
    assert [line for line in left.lines if line.get_label() == "operating point"]


def test_roc_model_flags_a_score_equal_to_the_threshold():
    from sklearn.metrics import confusion_matrix


    model = ROCModel(prevalence=0.3, n_pool=50)
    for threshold in (model.positive_scores[20], model.negative_scores[40]):
        model.set(threshold=float(threshold))
        y_true, y_score = model.test_set()
        expected = confusion_matrix(y_true, (y_score >= threshold).astype(int))
        np.testing.assert_array_equal(model.confusion(), expected)
    assert model.confusion()[0, 1] == 70 * 10  # pooled negatives 40 to 49 (0-based), 70 cases each


def test_roc_model_population_auc_is_binormal_auc():
    import evalkit as ek

    for separation in (0.0, 0.8, 2.0):
        model = ROCModel(separation=separation)
        assert model.population_auc == ek.binormal_auc(separation)
