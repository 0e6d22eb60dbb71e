"""InterpolationExplorer: a recall level on a ranking's curve, raw against interpolated."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import InterpolationExplorer, InterpolationModel

from .helpers import cells

RANKING_A = [1, 0, 1, 0, 0, 0, 0, 0, 1, 1]  # the course notes' ranking A, R = 4


def test_model_against_a_hand_computation():
    model = InterpolationModel(RANKING_A, recall_level=0.5)
    s = model.summary()
    # Recall 0.5 is first reached at rank 3 (2 of 4, precision 2/3); the best precision at
    # recall 0.5 or more is also 2/3 (ranks 3-10: 2/3, 1/2, ..., 1/4, 1/3, 2/5).
    assert (s["stop_rank"], s["recall_at_stop"]) == (3, 0.5)
    assert np.isclose(s["precision_at_stop"], 2 / 3)
    assert np.isclose(s["interpolated_precision"], 2 / 3) and np.isclose(s["gap"], 0.0)
    assert np.isclose(s["r_precision"], 2 / 4)
    by_hand = np.mean([1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 0.4, 0.4, 0.4, 0.4, 0.4])
    assert np.isclose(s["eleven_point_average"], by_hand)

    model.set(recall_level=0.6)  # first reached at rank 9 (3/9); rank 10 has 0.4
    s = model.summary()
    assert s["stop_rank"] == 9 and np.isclose(s["precision_at_stop"], 1 / 3)
    assert np.isclose(s["interpolated_precision"], 0.4)
    assert np.isclose(s["gap"], 0.4 - 1 / 3)


@pytest.mark.parametrize("convention", ["textbook", "trec_eval", "trec_eval_10"])
def test_model_follows_the_library_for_every_convention(convention):
    ranking = [1, 0, 1, 0, 0, 0, 1]  # R = 3: the conventions differ at 0.4, 0.7 and 0.8
    for level in np.round(np.linspace(0, 1, 11), 1):
        model = InterpolationModel(ranking, recall_level=level, convention=convention)
        expected = ek.interpolated_precision(ranking, recall_levels=[level],
                                             convention=convention)[0]
        assert np.isclose(model.summary()["interpolated_precision"], expected)
        assert model.summary()["gap"] >= 0
    curve = ek.interpolated_precision(ranking, convention=convention)
    assert np.isclose(model.summary()["eleven_point_average"], curve.mean())


def test_fixed_r_and_a_level_never_reached():
    # The notes' AP example: relevant at 1, 3, 6, 10, 15, and R = 10.
    relevance = np.zeros(15)
    relevance[[0, 2, 5, 9, 14]] = 1
    model = InterpolationModel(relevance, n_relevant=10, recall_level=0.6)
    s = model.summary()
    assert s["n_relevant"] == 10 and s["stop_rank"] is None
    assert s["precision_at_stop"] == 0.0 and s["interpolated_precision"] == 0.0
    model.set(recall_level=0.5)  # the fifth relevant document, rank 15: 5/15
    assert model.summary()["stop_rank"] == 15
    assert np.isclose(model.summary()["interpolated_precision"], 1 / 3)


def test_bad_changes_leave_the_model_as_it_was():
    model = InterpolationModel(RANKING_A, recall_level=0.3)
    with pytest.raises(ValueError, match="convention"):
        model.set(recall_level=0.9, convention="trec_eval_11")
    with pytest.raises(ValueError, match="recall_level"):
        model.set(recall_level=1.5)
    with pytest.raises(ValueError, match="recall_level"):
        InterpolationModel(RANKING_A, recall_level=-0.1)
    assert (model.recall_level, model.convention) == (0.3, "textbook")


def test_no_relevant_document_shows_zeros():
    s = InterpolationModel([0, 0, 0]).summary()
    assert s["n_relevant"] == 0 and s["stop_rank"] is None
    assert s["interpolated_precision"] == 0.0 and s["eleven_point_average"] == 0.0


def test_view_slider_convention_and_clicks_update_the_table():
    explorer = InterpolationExplorer(InterpolationModel([1, 0, 1, 0, 0, 0, 1]), plot=False)
    slider = explorer.controls["recall_level"]
    assert slider.options[0] == 0.0 and slider.options[-1] == 1.0 and slider.value == 0.5
    slider.value = 0.7
    shown = cells(explorer.summary.value)
    assert shown["first rank with recall ≥ 0.7"] == "rank 7 (recall 1.00)"
    assert shown["raw precision there"] == "0.429"
    assert shown["interpolated precision at 0.7"] == "0.429"

    explorer.controls["convention"].value = "trec_eval"  # stops at the 2nd relevant: 2/3
    shown = cells(explorer.summary.value)
    assert shown["interpolated precision at 0.7"] == "0.667"
    assert shown["gap (interpolated - raw)"] == "0.238"
    assert explorer.model.summary()["convention"] == "trec_eval"

    explorer.controls["rank 2"].value = True  # relevant at 1, 2, 3, 7: R = 4
    shown = cells(explorer.summary.value)
    assert shown["R (relevant documents)"] == "4"
    assert explorer.rank_buttons[1].button_style == "success"
    # trec_eval 9: (long)(0.7 * 4 + 0.9) = 3 relevant documents, best precision from rank 3: 1
    assert shown["interpolated precision at 0.7"] == "1.000"
    assert explorer.model.relevance.tolist() == [1, 1, 1, 0, 0, 0, 1]


def test_view_draws_a_figure():
    import matplotlib

    matplotlib.use("Agg")
    explorer = InterpolationExplorer()
    assert len(explorer.output.outputs) == 1
    explorer.controls["recall_level"].value = 1.0
    assert explorer.output.outputs[0]["output_type"] == "display_data"
