"""Plots draw what the data say: areas, heights and curves are checked, not just created."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.patches import Rectangle

import evalkit as ek
from evalkit.plots import plot_accuracy_spread, plot_f_beta, plot_retrieval_sets


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
