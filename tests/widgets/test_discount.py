"""DiscountExplorer and its model: one graded document moved down a list, RR/AP/nDCG by rank."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import ndcg_score

import evalkit as ek
from evalkit.widgets import DiscountExplorer, DiscountModel

from .helpers import grid_rows


@pytest.mark.parametrize("rank", range(1, 11))
def test_one_relevant_document_matches_the_hand_formulas(rank):
    s = DiscountModel(rank=rank, grade=2).summary()
    assert s["first_relevant_rank"] == rank
    assert s["reciprocal_rank"] == pytest.approx(1 / rank)
    assert s["average_precision"] == pytest.approx(1 / rank)
    assert s["ndcg_trec"] == pytest.approx(1 / np.log2(rank + 1))
    assert s["ndcg_exponential"] == pytest.approx(1 / np.log2(rank + 1))
    assert s["ndcg_jarvelin"] == pytest.approx(1 / max(1.0, np.log2(rank)))
    assert s["dcg_trec"] == pytest.approx(2 / np.log2(rank + 1))
    assert s["dcg_exponential"] == pytest.approx(3 / np.log2(rank + 1))


@pytest.mark.parametrize("rank", [1, 2, 5, 10])
def test_a_marginal_document_on_top_matches_hand_and_scikit_learn(rank):
    model = DiscountModel(rank=rank, grade=3, marginal_on_top=True)
    grades = model.ranking()
    marginal_rank = 1 if rank > 1 else 2
    assert grades[rank - 1] == 3 and grades[marginal_rank - 1] == 1 and grades.sum() == 4
    s = model.summary()
    assert s["first_relevant_rank"] == 1
    assert s["reciprocal_rank"] == 1.0  # RR sees only the marginal document
    hits = sorted([rank, marginal_rank])
    assert s["average_precision"] == pytest.approx((1 / hits[0] + 2 / hits[1]) / 2)
    by_hand = (3 / np.log2(rank + 1) + 1 / np.log2(marginal_rank + 1)) / (3 + 1 / np.log2(3))
    assert s["ndcg_trec"] == pytest.approx(by_hand)
    scores = np.arange(grades.size, 0, -1.0)
    assert s["ndcg_trec"] == pytest.approx(ndcg_score([grades], [scores]))
    assert s["ndcg_exponential"] == pytest.approx(ndcg_score([2**grades - 1], [scores]))
    assert s["ndcg_jarvelin"] == pytest.approx(
        ek.ndcg(grades, variant="jarvelin", ideal=model.judged))


def test_curves_hold_the_summary_at_every_rank():
    model = DiscountModel(grade=2, marginal_on_top=True, n_ranks=6)
    curves = model.curves()
    assert list(curves.index) == [1, 2, 3, 4, 5, 6]
    for rank in curves.index:
        s = DiscountModel(rank=rank, grade=2, marginal_on_top=True, n_ranks=6).summary()
        for column in curves.columns:
            assert curves.loc[rank, column] == pytest.approx(s[column])
    assert model.rank == 1  # drawing the curves leaves the model where it was


def test_a_bad_change_is_rejected_whole():
    model = DiscountModel(rank=4)
    with pytest.raises(ValueError, match="rank"):
        model.set(grade=2, rank=11)
    with pytest.raises(ValueError, match="rank"):
        model.set(n_ranks=3)
    with pytest.raises(TypeError, match="marginal_on_top"):
        model.set(grade=2, marginal_on_top=1)
    with pytest.raises(ValueError, match="grade"):
        model.set(rank=2, grade=0)
    with pytest.raises(ValueError, match="unknown setting"):
        model.set(rank=2, position=3)
    assert (model.rank, model.grade, model.marginal_on_top, model.n_ranks) == (4, 3, False, 10)
    with pytest.raises(ValueError, match="rank"):
        DiscountModel(rank=0)
    with pytest.raises(ValueError, match="n_ranks"):
        DiscountModel(n_ranks=1)


def test_the_view_moves_the_document_and_shows_the_new_numbers():
    explorer = DiscountExplorer(plot=False)
    assert grid_rows(explorer.summary.value)["RR"] == ["1.0000"]
    explorer.controls["rank"].value = 4
    assert explorer.model.rank == 4
    rows = grid_rows(explorer.summary.value)
    assert rows["RR"] == ["0.2500"] and rows["AP"] == ["0.2500"]
    assert rows["first relevant document at rank"] == ["4"]
    assert rows["grade"] == ["0", "0", "0", "3", "0", "0", "0", "0", "0", "0"]
    assert rows["trec"][1] == f"{1 / np.log2(5):.3f}"
    assert rows["jarvelin"][1] == "0.500"
    explorer.controls["marginal_on_top"].value = True
    rows = grid_rows(explorer.summary.value)
    assert rows["RR"] == ["1.0000"] and rows["first relevant document at rank"] == ["1"]
    assert rows["grade"][:4] == ["1", "0", "0", "3"]
    explorer.controls["grade"].value = 1
    assert explorer.model.summary()["ndcg_exponential"] == pytest.approx(
        explorer.model.summary()["ndcg_trec"])  # grades 0 and 1: 2**g - 1 == g


def test_the_view_draws_a_figure():
    import matplotlib.pyplot as plt

    explorer = DiscountExplorer(DiscountModel(rank=3, n_ranks=5), plot=False)
    figure = explorer.draw()
    try:
        assert len(figure.axes[0].lines) == 2 * 5 + 1  # a curve and a marker per measure
    finally:
        plt.close(figure)
