"""DCGExplorer: reorder a graded ranking, read DCG/IDCG/nDCG per convention."""

from __future__ import annotations

import re

from evalkit.widgets import DCGExplorer, DCGModel

from .helpers import grid_rows

# ---------------------------------------------------------------------------------------------
# DCGExplorer: reorder a graded ranking, read DCG/IDCG/nDCG per convention
# ---------------------------------------------------------------------------------------------


def notes_example(**kwargs) -> DCGModel:
    # The course notes' example: grades 2, 1, 0, 2, 0 at ranks 1 to 5.
    return DCGModel([2, 1, 0, 2, 0], doc_ids=["D1", "D2", "D3", "D4", "D5"], **kwargs)


def test_dcg_explorer_shows_the_notes_example_under_each_convention():
    explorer = DCGExplorer(notes_example(), plot=False)
    shown = grid_rows(explorer.summary.value)
    # Järvelin & Kekäläinen: 2 + 1/1 + 0 + 2/2 + 0 = 4; ideal 2, 2, 1: 2 + 2/1 + 1/log2(3).
    assert shown["jarvelin"] == ["4.000", "4.631", "0.864"]
    # trec_eval / scikit-learn: 2/1 + 1/log2(3) + 2/log2(5) = 3.492; ideal 2 + 2/log2(3) + 1/2.
    assert shown["trec"] == ["3.492", "3.762", "0.928"]
    # Burges et al.: gains 3, 1, 0, 3, 0 and ideal 3, 3, 1.
    assert shown["exponential"] == ["4.923", "5.393", "0.913"]
    assert shown["grade"] == ["2", "1", "0", "2", "0"]
    assert "Selected:</b> rank 1, D1 (grade 2)" in explorer.summary.value
    assert "ideal" not in explorer.controls  # no qrels given: the ideal comes from the list


def test_dcg_explorer_moves_the_selected_document_and_the_selection_follows():
    explorer = DCGExplorer(notes_example(), plot=False)
    explorer.controls["rank"].value = 4
    assert "Selected:</b> rank 4, D4 (grade 2)" in explorer.summary.value
    explorer.buttons["up"].click()
    explorer.buttons["up"].click()
    assert explorer.controls["rank"].value == 2
    assert explorer.model.doc_ids == ["D1", "D4", "D2", "D3", "D5"]
    shown = grid_rows(explorer.summary.value)
    assert shown["grade"] == ["2", "2", "1", "0", "0"]
    for variant in ("trec", "exponential", "jarvelin"):
        assert shown[variant][0] == shown[variant][1] and shown[variant][2] == "1.000"
    explorer.buttons["down"].click()
    assert explorer.controls["rank"].value == 3
    assert grid_rows(explorer.summary.value)["document"] == ["D1", "D2", "D4", "D3", "D5"]
    # At the edges a move does nothing.
    explorer.controls["rank"].value = 1
    explorer.buttons["up"].click()
    explorer.controls["rank"].value = 5
    explorer.buttons["down"].click()
    assert explorer.model.doc_ids == ["D1", "D2", "D4", "D3", "D5"]


def test_dcg_explorer_cutoff():
    explorer = DCGExplorer(notes_example(), plot=False)
    explorer.controls["k"].value = 3
    shown = grid_rows(explorer.summary.value)
    # trec: (2 + 1/log2(3)) / (2 + 2/log2(3) + 1/2) = 2.631 / 3.762
    assert shown["trec"] == ["2.631", "3.762", "0.699"]
    # jarvelin: (2 + 1 + 0) / (2 + 2 + 1/log2(3)) = 3 / 4.631
    assert shown["jarvelin"] == ["3.000", "4.631", "0.648"]
    assert "nDCG@3" in explorer.summary.value
    assert explorer.model.k == 3


def test_dcg_explorer_ideal_from_the_qrels_or_from_the_list():
    # The query also has a grade-3 document (D6) that the system never retrieved.
    explorer = DCGExplorer(notes_example(ideal=[2, 1, 0, 2, 0, 3]), plot=False)
    assert explorer.controls["ideal"].value == "qrels"
    shown = grid_rows(explorer.summary.value)
    # IDCG@5 from the qrels: 3 + 2/log2(3) + 2/2 + 1/log2(5) = 5.693
    assert shown["trec"] == ["3.492", "5.693", "0.613"]
    assert "3, 2, 2, 1, 0, 0" in explorer.summary.value
    explorer.controls["ideal"].value = "list"
    assert grid_rows(explorer.summary.value)["trec"] == ["3.492", "3.762", "0.928"]
    assert explorer.model.ideal is None
    explorer.controls["ideal"].value = "qrels"
    assert explorer.model.ideal.tolist() == [2, 1, 0, 2, 0, 3]


def test_dcg_explorer_draws_the_chosen_convention():
    explorer = DCGExplorer(notes_example())
    assert explorer.draw().axes[0].get_title() == "DCG@5 = 3.49 (trec)"
    explorer.controls["variant"].value = "jarvelin"
    assert explorer.draw().axes[0].get_title() == "DCG@5 = 4.00 (jarvelin)"
    shown = re.search(r"font-weight:bold;[^>]*>(\w+)</td>", explorer.summary.value)
    assert shown.group(1) == "jarvelin"  # the drawn convention is the bold row
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_dcg_model_takes_gains_and_refuses_the_old_relevance_keyword():
    import pytest

    new = DCGModel(gains=[2, 1, 0, 2, 0], ideal=[2, 2, 1, 1, 0])
    assert new.summary() == DCGModel([2, 1, 0, 2, 0], ideal=[2, 2, 1, 1, 0]).summary()
    assert round(new.summary()["ndcg_trec"], 4) == 0.833  # 3.4923 / 4.1926, by hand
    # The name deprecated in 0.1.0 is gone: Python's own error for an unknown keyword.
    with pytest.raises(TypeError, match="unexpected keyword argument 'relevance'"):
        DCGModel(relevance=[2, 1, 0, 2, 0], ideal=[2, 2, 1, 1, 0])
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'gains'"):
        DCGModel()
    with pytest.raises(ValueError, match="doc_ids and gains have different lengths"):
        DCGModel([1, 0], doc_ids=["a"])
