"""Plots draw what the data say: areas, heights and curves are checked, not just created."""

from __future__ import annotations

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
                               ek.interpolated_precision(ranking), label="A")
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
    ax = plot_precision_recall(points, [1.0, 0.7], recall_levels=[0.0, 1.0])
    assert _lines_by_label(ax)["interpolated precision"].get_xdata() == pytest.approx([0, 1])


def test_precision_recall_bad_input():
    from evalkit.plots import plot_precision_recall

    with pytest.raises(ValueError, match="missing \\['precision'\\]"):
        plot_precision_recall(ek.precision_recall_points([1, 0]).drop(columns="precision"))
    with pytest.raises(ValueError, match="different lengths \\(3 != 11\\)"):
        plot_precision_recall(ek.precision_recall_points([1, 0]), [1.0, 0.5, 0.0])
