"""Plots draw what the data say: areas, heights and curves are checked, not just created."""

from __future__ import annotations

import re

import numpy as np
import pytest
from matplotlib.patches import Rectangle

import evalkit as ek
from evalkit.plots import plot_accuracy_spread, plot_dcg_gains, plot_f_beta, plot_retrieval_sets


def _cells(ax):
    return {text.get_text().split("\n")[0]: text for text in ax.texts}


@pytest.mark.parametrize("counts", [(30, 0, 10, 60), (40, 50, 0, 10), (3, 7, 11, 79)])
def test_retrieval_sets_areas_are_proportional(counts):
    tp, fp, fn, tn = counts
    ax = plot_retrieval_sets(tp, fp, fn, tn)
    filled = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_fill()]
    areas = sorted(round(p.get_width() * p.get_height(), 12) for p in filled)
    expected = sorted(round(c / sum(counts), 12) for c in counts if c > 0)
    assert areas == expected
    names = ("TP", "FP", "FN", "TN")
    assert set(_cells(ax)) == {name for name, c in zip(names, counts, strict=True) if c}
    assert ax.get_title() == f"Collection of {sum(counts)} documents"


def test_retrieval_sets_bad_counts():
    with pytest.raises(ValueError, match="tp must be a whole number"):
        plot_retrieval_sets(-1, 0, 0, 1)
    with pytest.raises(ValueError, match="at least 1"):
        plot_retrieval_sets(0, 0, 0, 0)


def test_accuracy_spread_bars_sum_to_100_percent():
    measured = np.array([0.7, 0.8, 0.8, 0.9, 0.9, 0.9])
    ax = plot_accuracy_spread(measured, 0.8, interval=(0.72, 0.88))
    heights = [bar.get_height() for bar in ax.containers[0]]  # the histogram's bars
    assert sum(heights) == pytest.approx(100.0)
    assert max(heights) == pytest.approx(50.0)
    with pytest.raises(ValueError, match="measured is empty"):
        plot_accuracy_spread([], 0.8)


def test_f_beta_curve_passes_through_f1_and_tends_to_p_and_r():
    ax = plot_f_beta(0.7, 0.4, betas=[0.001, 1.0, 1000.0])
    betas, f = ax.lines[0].get_data()
    y_true = np.repeat([1, 0, 1, 0], [28, 12, 42, 18])
    y_pred = np.repeat([1, 1, 0, 0], [28, 12, 42, 18])
    assert f[1] == pytest.approx(ek.f1_score(y_true, y_pred))
    assert f[0] == pytest.approx(0.7, abs=1e-4) and f[2] == pytest.approx(0.4, abs=1e-4)
    with pytest.raises(ValueError, match="precision must be a number between 0 and 1"):
        plot_f_beta(1.5, 0.4)
    with pytest.raises(ValueError, match="betas must be positive"):
        plot_f_beta(0.5, 0.4, betas=[0, 1])


def test_plots_draw_on_a_given_axes():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    assert plot_retrieval_sets(1, 1, 1, 1, ax=ax) is ax


@pytest.mark.parametrize("variant", ["trec", "exponential", "jarvelin"])
def test_dcg_gains_dark_bars_add_up_to_dcg(variant):
    gains = [2, 1, 0, 2, 0, 3]
    ax = plot_dcg_gains(gains, k=4, variant=variant)
    gain_bars, discounted_bars = ax.containers[0], ax.containers[1]
    heights = np.array([bar.get_height() for bar in discounted_bars])
    assert heights[:4].sum() == pytest.approx(ek.dcg(gains, k=4, variant=variant))
    assert heights.sum() == pytest.approx(ek.dcg(gains, variant=variant))
    expected_gain = 2.0 ** np.array(gains) - 1 if variant == "exponential" else gains
    assert [bar.get_height() for bar in gain_bars] == pytest.approx(expected_gain)
    assert ax.get_title() == f"DCG@4 = {ek.dcg(gains, k=4, variant=variant):.2f} ({variant})"
    # Ranks below the cutoff are faint.
    alphas = [bar.get_facecolor()[3] for bar in discounted_bars]
    assert alphas[:4] == [1.0] * 4 and max(alphas[4:]) < 1.0


def test_dcg_gains_discounts_by_convention():
    # At rank 2, Järvelin & Kekäläinen do not discount; trec_eval divides by log2(3).
    ax = plot_dcg_gains([0, 1], variant="jarvelin", doc_ids=["a", "b"], highlight=2)
    assert ax.containers[1][1].get_height() == pytest.approx(1.0)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1\na", "2\nb"]
    assert any(not p.get_fill() for p in ax.patches)  # the outline of the selected rank
    ax = plot_dcg_gains([0, 1])
    assert ax.containers[1][1].get_height() == pytest.approx(1 / np.log2(3))
    assert ax.get_xlabel() == "rank" and ax.get_ylabel() == "gain (grade)"


@pytest.mark.parametrize(("variant", "gains", "discounted"), [
    # Grades 3, 2, -1 (pooled, not judged: no gain): hand-computed terms of DCG.
    ("trec", [3, 2, 0], [3.0, 2 / np.log2(3), 0.0]),
    ("exponential", [7, 3, 0], [7.0, 3 / np.log2(3), 0.0]),
    ("jarvelin", [3, 2, 0], [3.0, 2.0, 0.0]),
])
def test_dcg_gains_bars_are_the_terms_of_the_one_dcg_definition(variant, gains, discounted):
    ax = plot_dcg_gains([3, 2, -1], variant=variant.upper())  # an option in any case
    assert [bar.get_height() for bar in ax.containers[0]] == pytest.approx(gains)
    assert [bar.get_height() for bar in ax.containers[1]] == pytest.approx(discounted)
    assert ax.get_title() == f"DCG@3 = {sum(discounted):.2f} ({variant})"


def test_f_beta_curve_matches_hand_computed_values():
    # F_beta = (1 + b^2) P R / (b^2 P + R): P = 0.7, R = 0.4 at b = 0.5 and 2.
    ax = plot_f_beta(0.7, 0.4, betas=[0.5, 2.0])
    assert ax.lines[0].get_data()[1] == pytest.approx([0.35 / 0.575, 1.4 / 3.2])
    ax = plot_f_beta(0.0, 0.0, betas=[1.0])  # nothing right: F is 0, not NaN
    assert ax.lines[0].get_data()[1] == pytest.approx([0.0])


def test_dcg_gains_bad_input():
    with pytest.raises(ValueError, match="variant must be one of"):
        plot_dcg_gains([1, 0], variant="burges")
    with pytest.raises(ValueError, match="doc_ids and gains have different lengths"):
        plot_dcg_gains([1, 0], doc_ids=["a"])
    with pytest.raises(ValueError, match="highlight must be a rank between 1 and 2"):
        plot_dcg_gains([1, 0], highlight=3)


def _lines_by_label(ax):
    return {line.get_label(): line for line in ax.lines}


def test_precision_recall_draws_every_rank_and_the_interpolated_levels():
    from evalkit.plots import plot_precision_recall

    ranking = [1, 0, 1, 0, 0, 0, 0, 0, 1, 1]  # the course notes' ranking, R = 4
    ax = plot_precision_recall(ek.precision_recall_points(ranking),
                               interpolated=ek.interpolated_precision(ranking), label="A")
    lines = _lines_by_label(ax)
    raw = lines["A: precision after each rank"]
    assert raw.get_xdata() == pytest.approx([.25, .25, .5, .5, .5, .5, .5, .5, .75, 1.0])
    assert raw.get_ydata() == pytest.approx(
        [1, 1 / 2, 2 / 3, 2 / 4, 2 / 5, 2 / 6, 2 / 7, 2 / 8, 3 / 9, 4 / 10])
    relevant = lines["A: relevant document"]
    assert relevant.get_xdata() == pytest.approx([.25, .5, .75, 1.0])
    assert relevant.get_ydata() == pytest.approx([1, 2 / 3, 1 / 3, 0.4])
    interpolated = lines["A: interpolated precision"]
    assert interpolated.get_xdata() == pytest.approx(np.linspace(0, 1, 11))
    assert interpolated.get_ydata() == pytest.approx([1, 1, 1] + [2 / 3] * 3 + [0.4] * 5)
    assert ax.get_title() == "Precision-recall curve of a ranking"
    assert ax.get_xlabel().startswith("recall") and ax.get_ylabel().startswith("precision")


def test_precision_recall_without_relevant_column_or_interpolation():
    import pandas as pd

    from evalkit.plots import plot_precision_recall

    points = pd.DataFrame({"recall": [0.5, 0.5, 1.0], "precision": [1.0, 0.5, 2 / 3]})
    ax = plot_precision_recall(points, title="mine")
    lines = _lines_by_label(ax)
    assert set(lines) == {"precision after each rank", "relevant document"}
    assert lines["relevant document"].get_xdata() == pytest.approx([0.5, 1.0])
    assert ax.get_title() == "mine"
    ax = plot_precision_recall(points, interpolated=[1.0, 0.7], recall_levels=[0.0, 1.0])
    assert _lines_by_label(ax)["interpolated precision"].get_xdata() == pytest.approx([0, 1])


def test_precision_recall_bad_input():
    from evalkit.plots import plot_precision_recall

    with pytest.raises(ValueError, match="missing \\['precision'\\]"):
        plot_precision_recall(ek.precision_recall_points([1, 0]).drop(columns="precision"))
    with pytest.raises(ValueError, match="different lengths \\(3 != 11\\)"):
        plot_precision_recall(ek.precision_recall_points([1, 0]), interpolated=[1.0, 0.5, 0.0])


# ---------------------------------------------------------------------------------------------
# Averaging schemes: class weights and averages as bars
# ---------------------------------------------------------------------------------------------


def test_class_weights_bars_are_the_weights():
    from evalkit.plots import plot_class_weights

    support = np.array([600, 250, 100, 40, 10])  # class 0 holds more than N/e
    ax = plot_class_weights(support, labels=["NA", "b", "c", "d", "e"])
    containers = {c.get_label(): c for c in ax.containers}
    assert list(containers) == ["weighted", "entropy", "dodrans", "macro"]
    for scheme, container in containers.items():
        heights = [bar.get_height() for bar in container]
        assert heights == pytest.approx(ek.class_weights(support, scheme=scheme)), scheme
        assert sum(heights) == pytest.approx(1.0)
    weighted = [bar.get_height() for bar in containers["weighted"]]
    assert weighted == pytest.approx(support / 1000)
    # Entropy by hand: -n log2(n / N); the 600 class weighs less than the 250 class.
    raw = -support * np.log2(support / 1000)
    entropy = [bar.get_height() for bar in containers["entropy"]]
    assert entropy == pytest.approx(raw / raw.sum())
    assert entropy[0] < entropy[1]
    dodrans = [bar.get_height() for bar in containers["dodrans"]]
    assert dodrans == pytest.approx(support**0.75 / np.sum(support**0.75))
    assert [t.get_text() for t in ax.get_xticklabels()][:2] == ["NA\nn=600", "b\nn=250"]
    # The bars of one class sit side by side around its tick.
    centres = [bar.get_x() + bar.get_width() / 2 for c in ax.containers for bar in c[:1]]
    assert np.mean(centres) == pytest.approx(0.0)
    assert ax.get_title() == "Class weights under 4 averaging schemes"
    assert ax.get_xlabel() and ax.get_ylabel()


def test_class_weights_entropy_uses_n_samples():
    from evalkit.plots import plot_class_weights

    # Two relation classes out of 1,000 samples; the other 900 are "no relation".
    ax = plot_class_weights([80, 20], schemes="entropy", n_samples=1000)
    heights = [bar.get_height() for bar in ax.containers[0]]
    raw = np.array([-80 * np.log2(0.08), -20 * np.log2(0.02)])
    assert heights == pytest.approx(raw / raw.sum())
    assert heights == pytest.approx(ek.class_weights([80, 20], scheme="entropy", n_samples=1000))


def test_class_weights_bad_input():
    from evalkit.plots import plot_class_weights

    with pytest.raises(ValueError, match="schemes must be one of"):
        plot_class_weights([3, 2, 1], schemes=("weighted", "harmonic"))
    with pytest.raises(ValueError, match="schemes is empty"):
        plot_class_weights([3, 2, 1], schemes=())
    with pytest.raises(ValueError, match="different lengths \\(2 != 3\\)"):
        plot_class_weights([3, 2, 1], labels=["a", "b"])
    with pytest.raises(ValueError, match="support must hold non-negative counts"):
        plot_class_weights([3, -2, 1])


def test_averages_bars_are_the_report_rows():
    from evalkit.plots import plot_averages

    y_true = ["cat"] * 6 + ["dog"] * 3 + ["eel"]
    y_pred = ["cat"] * 5 + ["dog"] + ["dog"] * 2 + ["cat"] + ["cat"]
    report = ek.classification_report(y_true, y_pred, zero_division=0.0)
    ax = plot_averages(report)
    schemes = ["micro", "weighted", "dodrans", "entropy", "macro", "macro_pr"]
    assert [t.get_text() for t in ax.get_xticklabels()] == schemes
    heights = [bar.get_height() for bar in ax.containers[0]]
    assert heights == pytest.approx(report.loc[schemes, "f_score"])
    assert heights[0] == pytest.approx(0.7)  # micro-F1 = accuracy
    assert [t.get_text() for t in ax.texts] == [f"{h:.3f}" for h in heights]
    assert ax.get_legend() is None and ax.get_title() == "F score under each averaging scheme"

    other = ek.classification_report(y_true, ["cat"] * 10, zero_division=0.0)
    ax = plot_averages({"system A": report, "majority": other}, column="recall",
                       schemes=("micro", "macro"))
    a, b = ax.containers
    assert [bar.get_height() for bar in a] == pytest.approx([0.7, 0.5])
    assert [bar.get_height() for bar in b] == pytest.approx([0.6, 1 / 3])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["system A", "majority"]
    assert ax.get_ylabel() == "recall"


def test_averages_bad_input():
    from evalkit.plots import plot_averages

    report = ek.classification_report([0, 1, 1], [0, 1, 0])
    with pytest.raises(ValueError, match="no column 'f1'"):
        plot_averages(report, column="f1")
    with pytest.raises(ValueError, match="no row for \\['harmonic'\\]"):
        plot_averages(report, schemes=("micro", "harmonic"))
    with pytest.raises(TypeError, match="must be a DataFrame"):
        plot_averages({"A": [0.5, 0.6]})
    with pytest.raises(ValueError, match="reports is empty"):
        plot_averages({})


# ---------------------------------------------------------------------------------------------
# plot_normalized_cost_curve: Drummond & Holte's cost lines and their lower envelope
# ---------------------------------------------------------------------------------------------


def _line(ax, label):
    return next(line for line in ax.get_lines() if line.get_label() == label)


def test_normalized_cost_curve_envelope_is_the_cheapest_threshold(rng):
    from evalkit.costs import costs_by_threshold
    from evalkit.plots import plot_normalized_cost_curve

    y_true = (rng.random(200) < 0.3).astype(int)
    y_score = np.round(rng.normal(y_true * 1.2, 1.0), 1)
    fpr, tpr, _ = ek.roc_curve(y_true, y_score, drop_intermediate=False)
    ax = plot_normalized_cost_curve(fpr, tpr, n_grid=101)
    pc = np.linspace(0, 1, 101)
    envelope = _line(ax, "lower envelope (best threshold)")
    np.testing.assert_allclose(envelope.get_xdata(), pc)
    brute = np.array([min((1 - t) * x + f * (1 - x) for f, t in zip(fpr, tpr, strict=True))
                      for x in pc])
    np.testing.assert_allclose(envelope.get_ydata(), brute)
    assert envelope.get_ydata()[0] == 0 and envelope.get_ydata()[-1] == 0  # trivial classifiers
    np.testing.assert_allclose(_line(ax, "always negative").get_ydata(), pc)
    np.testing.assert_allclose(_line(ax, "always positive").get_ydata(), 1 - pc)
    assert len(ax.get_lines()) == len(fpr) + 3  # one per operating point, 2 trivial, envelope

    # Scaled back, the envelope at PC(+) is the cost of the cheapest threshold on the data.
    cost_matrix = np.array([[0.0, 1.0], [4.0, 0.0]])
    prior = y_true.mean()
    scale = prior * 4.0 + (1 - prior) * 1.0
    condition = prior * 4.0 / scale
    ax = plot_normalized_cost_curve(fpr, tpr, probability_cost=condition, show_lines=False)
    marker = ax.get_lines()[-1]
    best = costs_by_threshold(y_true, y_score, cost_matrix)["expected_cost"].min()
    assert marker.get_ydata()[0] * scale == pytest.approx(best)
    assert marker.get_label() == f"at PC(+) = {condition:.3g}: NEC = {best / scale:.3g}"
    assert len(ax.get_lines()) == 5  # 2 trivial, envelope, the vertical line, the marker
    assert ax.get_ylabel() == "normalised expected cost"


def test_normalized_cost_curve_bad_input():
    from evalkit.plots import plot_normalized_cost_curve

    with pytest.raises(ValueError, match="different lengths"):
        plot_normalized_cost_curve([0, 1], [0, 0.5, 1])
    with pytest.raises(ValueError, match="tpr must hold rates between 0 and 1"):
        plot_normalized_cost_curve([0, 1], [0, 1.5])
    with pytest.raises(ValueError, match="fpr contains NaN at position 0"):
        plot_normalized_cost_curve([np.nan, 1], [0, 1])
    with pytest.raises(ValueError, match=r"probability_cost must be a real number in \[0, 1\]"):
        plot_normalized_cost_curve([0, 1], [0, 1], probability_cost=1.2)
    with pytest.raises(ValueError, match="n_grid must be a whole number >= 2"):
        plot_normalized_cost_curve([0, 1], [0, 1], n_grid=1)


def test_rank_crossings_draws_one_dot_per_discordant_pair(rng):
    from itertools import combinations

    from evalkit.plots import plot_rank_crossings

    for n in (2, 5, 9):
        left = rng.integers(1, 5, n).astype(float)
        right = rng.permutation(n) + 1.0
        discordant = [(i, j) for i, j in combinations(range(n), 2)
                      if (left[i] - left[j]) * (right[i] - right[j]) < 0]
        ax = plot_rank_crossings(left, right, labels=[f"x{k}" for k in range(n)])
        dots = ax.collections[0].get_offsets()
        assert len(dots) == len(discordant)
        assert ((dots[:, 0] > 0) & (dots[:, 0] < 1)).all() if len(dots) else True
        assert f"D = {len(discordant)} crossings" in ax.get_title()
        assert len(ax.lines) == n
        assert [t.get_text() for t in ax.get_xticklabels()] == ["reference", "second ranking"]


def test_rank_crossings_places_ties_together_and_checks_its_input():
    from evalkit.plots import plot_rank_crossings

    ax = plot_rank_crossings([1, 1, 2], [1, 2, 3], labels=["a", "b", "c"], highlight="b")
    starts = [line.get_ydata()[0] for line in ax.lines]
    assert starts == [1.5, 1.5, 3.0]  # the tied items share their average place
    assert [line.get_linewidth() for line in ax.lines] == [1.4, 3, 1.4]
    assert len(ax.collections[0].get_offsets()) == 0
    with pytest.raises(ValueError, match="labels and left have different lengths"):
        plot_rank_crossings([1, 2], [2, 1], labels=["a"])
    with pytest.raises(ValueError, match="highlight must be one of the labels"):
        plot_rank_crossings([1, 2], [2, 1], highlight="z")
    with pytest.raises(ValueError, match="x and y have different lengths"):
        plot_rank_crossings([1, 2, 3], [2, 1])


# ---------------------------------------------------------------------------------------------
# Confusion matrix, ROC, PR and cost curves
# ---------------------------------------------------------------------------------------------


def test_confusion_matrix_heat_map_shows_counts_and_shares():
    from evalkit.plots import plot_confusion_matrix

    confusion = np.array([[5, 1, 0], [2, 7, 1], [0, 0, 4]])
    ax = plot_confusion_matrix(confusion, labels=["apple", "lemon", "orange"])
    assert [t.get_text() for t in ax.texts] == [str(v) for v in confusion.reshape(-1)]
    np.testing.assert_array_equal(ax.images[0].get_array(), confusion)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["apple", "lemon", "orange"]
    rows = plot_confusion_matrix(confusion, normalize="true")
    np.testing.assert_allclose(rows.images[0].get_array(),
                               confusion / confusion.sum(axis=1, keepdims=True))
    assert rows.texts[4].get_text() == f"{7 / 10:.2f}"  # recall of class 1 on the diagonal
    columns = plot_confusion_matrix(confusion, normalize="pred")
    np.testing.assert_allclose(columns.images[0].get_array(), confusion / confusion.sum(axis=0))
    empty_row = plot_confusion_matrix([[0, 0], [1, 3]], normalize="true")
    np.testing.assert_allclose(empty_row.images[0].get_array(), [[0, 0], [0.25, 0.75]])


def test_confusion_matrix_heat_map_bad_input():
    from evalkit.plots import plot_confusion_matrix

    with pytest.raises(ValueError, match=r"square \(k, k\) matrix; got shape \(1, 2\)"):
        plot_confusion_matrix([[1, 2]])
    with pytest.raises(ValueError, match="non-negative finite counts"):
        plot_confusion_matrix([[1, -2], [0, 1]])
    with pytest.raises(ValueError, match="labels has 3 names but confusion has 2 classes"):
        plot_confusion_matrix([[1, 2], [3, 4]], labels=["a", "b", "c"])
    with pytest.raises(ValueError, match="normalize must be one of"):
        plot_confusion_matrix([[1, 2], [3, 4]], normalize="rows")


def test_roc_curve_plot_draws_the_curve_and_the_operating_point(rng):
    from evalkit.plots import plot_roc_curve

    y_true = rng.integers(0, 2, 200)
    y_score = rng.random(200) + 0.4 * y_true
    fpr, tpr, _ = ek.roc_curve(y_true, y_score)
    auc = ek.roc_auc(y_true, y_score)
    ax = plot_roc_curve(fpr, tpr, auc=auc, operating_point=(fpr[10], tpr[10]), label="model")
    curve, chance, point = ax.lines
    np.testing.assert_array_equal(curve.get_xydata(), np.column_stack([fpr, tpr]))
    assert curve.get_label() == f"model (AUC {auc:.3g})"
    np.testing.assert_array_equal(chance.get_xydata(), [[0, 0], [1, 1]])
    np.testing.assert_array_equal(point.get_xydata(), [[fpr[10], tpr[10]]])
    # A second curve on the same axes does not draw a second diagonal.
    plot_roc_curve([0, 1], [0, 1], ax=ax, label="coin")
    assert sum(line.get_label().startswith("chance") for line in ax.lines) == 1
    with pytest.raises(ValueError, match=r"fpr and tpr have different lengths \(2 != 3\)"):
        plot_roc_curve([0, 1], [0, 0.5, 1])
    with pytest.raises(ValueError, match="operating_point must be a pair"):
        plot_roc_curve([0, 1], [0, 1], operating_point=(0.1, 0.2, 0.3))


def test_pr_curve_plot_draws_steps_and_the_no_skill_line(rng):
    from evalkit.plots import plot_pr_curve

    y_true = rng.integers(0, 2, 100)
    precision, recall, _ = ek.precision_recall_curve(y_true, rng.random(100))
    ax = plot_pr_curve(precision, recall, prevalence=y_true.mean(), operating_point=(0.5, 0.6))
    curve, baseline, point = ax.lines
    assert curve.get_drawstyle() == "steps-post"
    np.testing.assert_array_equal(curve.get_xydata(), np.column_stack([recall, precision]))
    assert baseline.get_ydata()[0] == pytest.approx(y_true.mean())
    np.testing.assert_array_equal(point.get_xydata(), [[0.5, 0.6]])
    with pytest.raises(ValueError, match="prevalence must be a share between 0 and 1"):
        plot_pr_curve(precision, recall, prevalence=1.5)


def test_cost_curve_plot_marks_the_cheapest_threshold():
    from evalkit.costs import costs_by_threshold
    from evalkit.plots import plot_cost_curve

    y_true, y_score = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    table = costs_by_threshold(y_true, y_score, [[0, 1], [5, 0]])
    best = ek.cost_optimal_threshold(y_true, y_score, [[0, 1], [5, 0]])
    ax = plot_cost_curve(table["threshold"], table["cost"], optimum=best, current=0.4)
    steps, star, chosen = ax.lines
    finite = np.isfinite(table["threshold"])
    order = np.argsort(table["threshold"][finite].to_numpy())
    np.testing.assert_array_equal(steps.get_xdata(), table["threshold"][finite].to_numpy()[order])
    np.testing.assert_array_equal(steps.get_ydata(), table["cost"][finite].to_numpy()[order])
    np.testing.assert_array_equal(star.get_xydata(), [[0.35, 1.0]])
    assert chosen.get_xdata()[0] == 0.4
    assert "cheapest: t = 0.35, cost 1" in star.get_label()


def test_reliability_diagram_draws_the_curve_the_band_and_the_counts():
    import evalkit as ek

    rng = np.random.default_rng(5)
    p = rng.uniform(0.5, 1.0, 500)
    y = (rng.uniform(size=500) < p).astype(int)
    proba = np.column_stack([1 - p, p])
    ax = ek.plots.plot_reliability_diagram(y, proba, n_bins=5, n_resamples=100, seed=3)
    curve = ek.reliability_curve(y, proba, n_bins=5)
    line = [drawn for drawn in ax.lines if drawn.get_marker() == "o"][0]
    np.testing.assert_allclose(line.get_xdata(), curve["confidence"])
    np.testing.assert_allclose(line.get_ydata(), curve["accuracy"])
    assert f"ECE {ek.expected_calibration_error(y, proba, n_bins=5):.3f}" in line.get_label()
    band = ek.calibration.consistency_band(y, proba, n_bins=5, n_resamples=100, seed=3)
    polygon = ax.collections[0].get_paths()[0].vertices
    np.testing.assert_allclose(polygon[:, 1].min(), band["low"].min())
    np.testing.assert_allclose(polygon[:, 1].max(), band["high"].max())
    heights = [patch.get_height() for patch in ax.patches]
    np.testing.assert_allclose(heights, curve["count"] / curve["count"].sum() * 0.25)


def test_reliability_diagram_legend_covers_no_series():
    """The legend sits below the axes: inside, a corner covered the bin-share bars (notebook
    20), the band or the points."""
    import evalkit as ek

    rng = np.random.default_rng(6)
    p = rng.uniform(0.0, 1.0, 400)
    y = (rng.uniform(size=400) < p).astype(int)
    ax = ek.plots.plot_reliability_diagram(y, p, n_bins=10, n_resamples=50, seed=1)
    ax.figure.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.y1 <= ax.get_window_extent().y0
    assert {text.get_text() for text in ax.get_legend().get_texts()} >= {
        "share of samples (× 0.25)", "calibrated", "95% band of a calibrated model"}


def _band_limits(ax):
    vertices = ax.collections[0].get_paths()[0].vertices
    return vertices[:, 1].min(), vertices[:, 1].max()


def test_reliability_diagram_takes_n_resamples_and_refuses_the_old_n_bootstrap():
    rng = np.random.default_rng(5)
    p = rng.uniform(0.5, 1.0, 200)
    y = (rng.uniform(size=200) < p).astype(int)
    new = ek.plots.plot_reliability_diagram(y, p, n_bins=5, n_resamples=50, seed=3)
    low, high = _band_limits(new)
    assert 0 <= low < high <= 1  # a band
    assert len(ek.plots.plot_reliability_diagram(y, p, n_bins=5).collections) == 0  # no band
    # The name deprecated in 0.1.0 is gone: Python's own error for an unknown keyword.
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_bootstrap'"):
        ek.plots.plot_reliability_diagram(y, p, n_bins=5, n_bootstrap=50, seed=3)
    with pytest.raises(ValueError, match="n_resamples"):
        ek.plots.plot_reliability_diagram(y, p, n_resamples=-1)


def test_estimation_errors_marks_each_bias_and_labels_it():
    from evalkit.plots import plot_estimation_errors

    errors = {"holdout": np.array([-0.2, -0.05, 0.0, 0.1]), "10-fold": np.array([-0.02, 0.01]),
              "LOO": [0.0, 0.0, 0.03]}
    ax = plot_estimation_errors(errors)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["holdout", "10-fold", "LOO"]
    means = [line for line in ax.lines if line.get_label() == "mean (bias)"][0]
    np.testing.assert_allclose(means.get_xdata(), [-0.0375, -0.005, 0.01])
    np.testing.assert_allclose(means.get_ydata(), [2, 1, 0])  # the first method on top
    labels = [t.get_text() for t in ax.texts]
    assert labels == [f"bias {np.mean(v):+.3f}, SD {np.std(v, ddof=1):.3f}"
                      for v in errors.values()]
    assert ax.get_title() == "Error of each estimate over 4 samples"


def test_estimation_errors_bad_input():
    from evalkit.plots import plot_estimation_errors

    with pytest.raises(TypeError, match="errors must be a non-empty mapping"):
        plot_estimation_errors([0.1, 0.2])
    with pytest.raises(TypeError, match="errors must be a non-empty mapping"):
        plot_estimation_errors({})
    with pytest.raises(ValueError, match=r"errors\['a'\] must be finite"):
        plot_estimation_errors({"a": [0.1, np.nan]})


#: What each plot takes as data (by position); everything else is an option, by keyword.
PLOT_DATA = {
    "plot_retrieval_sets": ["tp", "fp", "fn", "tn"],
    "plot_accuracy_spread": ["measured", "true_accuracy"],
    "plot_f_beta": ["precision", "recall"],
    "plot_dcg_gains": ["gains"],
    "plot_precision_recall": ["points"],
    "plot_class_weights": ["support"],
    "plot_averages": ["reports"],
    "plot_confusion_matrix": ["confusion"],
    "plot_roc_curve": ["fpr", "tpr"],
    "plot_pr_curve": ["precision", "recall"],
    "plot_cost_curve": ["thresholds", "costs"],
    "plot_normalized_cost_curve": ["fpr", "tpr"],
    "plot_rank_crossings": ["left", "right"],
    "plot_reliability_diagram": ["y_true", "y_proba"],
    "plot_estimation_errors": ["errors"],
    "plot_critical_difference": ["scores"],
}


def _lines(ax, gid):
    return [line for line in ax.lines if line.get_gid() == gid]


@pytest.mark.parametrize("seed", range(12))
def test_critical_difference_marks_the_ranks_and_joins_exactly_the_close_groups(seed):
    import itertools

    import pandas as pd

    rng = np.random.default_rng(seed)
    k, n = int(rng.integers(2, 9)), int(rng.integers(3, 30))
    names = [f"s{i}" for i in range(k)]
    scores = pd.DataFrame(rng.normal(size=(n, k)) + rng.normal(size=k), columns=names)
    if seed % 3 == 0:
        scores = scores.round(0)  # ties
    alpha = [0.05, 0.1, 0.01][seed % 3]
    ax = ek.plots.plot_critical_difference(scores, alpha=alpha)
    result = ek.nemenyi_test(scores, alpha=alpha)
    (markers,) = _lines(ax, "systems")
    assert markers.get_xdata() == pytest.approx(result.ranks.to_numpy())
    (scale,) = _lines(ax, "critical_difference")
    assert np.ptp(scale.get_xdata()) == pytest.approx(result.critical_difference)
    assert scale.get_xdata()[0] == 1
    # every bar spans one group; the systems whose marks lie within a bar are exactly
    # those pairwise less than the CD apart, and no bar lies inside another
    bars = [tuple(line.get_xdata()) for line in _lines(ax, "group")]
    ranks = result.ranks.to_numpy()
    spans = [(min(ranks[[names.index(s) for s in group]]),
              max(ranks[[names.index(s) for s in group]])) for group in result.groups]
    assert np.array(bars).reshape(-1, 2) == pytest.approx(np.array(spans).reshape(-1, 2))
    for low, high in bars:
        assert high - low < result.critical_difference
    for (low_a, high_a), (low_b, high_b) in itertools.combinations(bars, 2):
        assert not (low_a >= low_b and high_a <= high_b)
        assert not (low_b >= low_a and high_b <= high_a)
    for i, j in itertools.combinations(range(k), 2):
        joined = any(low <= min(ranks[i], ranks[j]) and max(ranks[i], ranks[j]) <= high
                     for low, high in bars)
        assert joined == (abs(ranks[i] - ranks[j]) < result.critical_difference)
    # one label per system, with its average rank
    labels = sorted(t.get_text() for t in ax.texts if t.get_text().startswith("s"))
    assert labels == sorted(f"{s} ({r:.2f})" for s, r in zip(names, ranks, strict=True))


def test_critical_difference_draws_on_a_given_axes_and_checks_its_input():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    assert ek.plots.plot_critical_difference([[1, 2, 3], [3, 2, 1]], ax=ax) is ax
    with pytest.raises(ValueError, match="alpha"):
        ek.plots.plot_critical_difference([[1, 2], [2, 1]], alpha=1.0)
    with pytest.raises(ValueError, match="at least 2"):
        ek.plots.plot_critical_difference([[1, 2, 3]])


def test_every_plot_takes_its_data_by_position_and_every_option_by_keyword():
    import inspect

    assert sorted(PLOT_DATA) == sorted(n for n in ek.plots.__all__ if n.startswith("plot_"))
    for name, data in PLOT_DATA.items():
        function = getattr(ek.plots, name)
        parameters = inspect.signature(function).parameters.values()
        positional = [p.name for p in parameters if p.kind == p.POSITIONAL_OR_KEYWORD]
        assert positional == data, name
        assert "ax" in [p.name for p in parameters if p.kind == p.KEYWORD_ONLY], name
        assert hasattr(function, "__wrapped__"), f"{name} lacks @keyword_only"


@pytest.mark.parametrize(("call", "shown"), [
    (lambda: plot_dcg_gains([2, 1, 0], 2), "write plot_dcg_gains(gains, k=2)"),
    (lambda: ek.plots.plot_class_weights([3, 2, 1], ("macro",)),
     "write plot_class_weights(support, schemes=('macro',))"),
    (lambda: ek.plots.plot_confusion_matrix([[1, 0], [0, 1]], ["a", "b"]),
     "write plot_confusion_matrix(confusion, labels=['a', 'b'])"),
    (lambda: ek.plots.plot_reliability_diagram([0, 1], [0.2, 0.9], 5),
     "write plot_reliability_diagram(y_true, y_proba, n_bins=5)"),
])
def test_a_positional_option_is_a_type_error_that_shows_the_keyword_call(call, shown):
    with pytest.raises(TypeError, match=re.escape(shown)):
        call()
