"""RunsExplorer: a topic, a system and a measure of a real collection; tie rule and missing
queries as switches."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import evalkit as ek
from evalkit.widgets import RunsExplorer, RunsModel
from evalkit.widgets.runs import MISSING_QUERIES, RUN_MEASURES, TIE_RULES

from .helpers import grid_rows


@pytest.fixture(scope="module")
def collection():
    return ek.datasets.load_collection("stdlib-docs")


def toy() -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Two topics, two systems. Topic 1: a (grade 1) and b (0) tied in system 'tied'."""
    qrels = pd.DataFrame({"query_id": ["1", "1", "2", "2"], "doc_id": ["a", "b", "a", "c"],
                          "relevance": [1, 0, 1, 2]})
    tied = pd.DataFrame({"query_id": ["1", "1", "2", "2"], "doc_id": ["a", "b", "a", "c"],
                         "score": [1.0, 1.0, 2.0, 1.0]})
    plain = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "c"], "score": [1.0, 1.0]})
    return qrels, {"tied": tied, "plain": plain}


def test_hand_computed_values_on_a_tied_pair():
    qrels, runs = toy()
    model = RunsModel(qrels, runs, measure="nDCG@10")
    s = model.summary()
    # trec_eval: b before a (doc_id descending); the relevant a at rank 2: 1/log2(3) over 1.
    assert s["value_trec_eval"] == pytest.approx(1 / math.log2(3))
    # Tie-averaged: a gets the mean discount of ranks 1 and 2: (1 + 1/log2(3)) / 2.
    assert s["value_tie_averaged"] == pytest.approx((1 + 1 / math.log2(3)) / 2)
    assert s["tied_in_top"] == 2
    # Topic 2: a (1) then c (2); ideal 2, 1: (1 + 2/log2 3) / (2 + 1/log2 3).
    topic2 = (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))
    assert model.set(topic="2").summary()["value"] == pytest.approx(topic2)
    assert s["mean"] == pytest.approx((1 / math.log2(3) + topic2) / 2)
    # RR: 1/2 on topic 1, 1 on topic 2; skipping its worst topic (1) lifts the mean to 1 when
    # it is left out and leaves 0.5 when it counts as 0.
    model.set(measure="RR", n_skipped=1)
    assert model.skipped_topics() == ("1",)
    assert model.summary()["mean"] == 1.0 and model.summary()["n_topics_averaged"] == 1
    model.set(missing_queries="zero")
    assert model.summary()["mean"] == 0.5 and model.summary()["n_topics_averaged"] == 2
    assert model.set(topic="1").summary()["value"] == 0.0
    # The other system skips nothing.
    assert model.means_table().loc["plain", "trec_eval/ignore"] == 1.0


@pytest.mark.parametrize("measure", RUN_MEASURES)
def test_every_mean_is_evaluates_own_on_the_real_runs(collection, measure):
    qrels, runs = collection.qrels, collection.runs
    model = RunsModel(qrels, runs, system="title", measure=measure, n_skipped=3)
    table = model.means_table()
    averaged = ("nDCG(ties=average)" + measure[4:]) if measure.startswith("nDCG") else None
    # The run skips its three worst topics by the measure in trec_eval's order.
    full = ek.evaluate(qrels, runs["title"], [measure], missing_queries="zero")[measure]
    worst = full.sort_values(kind="stable").index[:3]
    assert model.skipped_topics() == tuple(worst)
    for name, run in runs.items():
        if name == "title":
            run = run[~run.query_id.isin(worst)]
        for missing in MISSING_QUERIES:
            expected = ek.evaluate(qrels, run, [measure], missing_queries=missing)[measure]
            assert table.loc[name, f"trec_eval/{missing}"] == pytest.approx(expected.mean())
            assert table.loc[name, f"n_topics_{missing}"] == expected.size
            if averaged is None:
                assert math.isnan(table.loc[name, f"average/{missing}"])
            else:
                tie = ek.evaluate(qrels, run, [averaged], missing_queries=missing)[averaged]
                assert table.loc[name, f"average/{missing}"] == pytest.approx(tie.mean())
    assert table.loc["title", "n_topics_ignore"] == 37
    assert table.loc["bm25", "n_topics_ignore"] == 40


def test_the_ranked_list_is_trec_ranking_with_tie_blocks(collection):
    qrels, runs = collection.qrels, collection.runs
    model = RunsModel(qrels, runs, topic="1", system="title")
    shown = model.ranked_list()
    expected = ek.trec_ranking(qrels, runs["title"], query_id="1").head(10)
    assert shown.doc_id.tolist() == expected.doc_id.tolist()
    assert shown.relevance.fillna(-9).tolist() == expected.relevance.fillna(-9).tolist()
    whole = ek.trec_ranking(qrels, runs["title"], query_id="1")
    for row in shown.itertuples():
        same = whole[whole.score == row.score]["rank"]
        assert (row.tie_first, row.tie_last, row.tie_size) == (same.min(), same.max(), same.size)
    s = model.summary()
    assert s["tied_in_top"] == int((shown.tie_size > 1).sum()) > 0
    per_topic = ek.evaluate(qrels, runs["title"], ["nDCG@10", "nDCG(ties=average)@10"])
    assert s["value_trec_eval"] == pytest.approx(per_topic.loc["1", "nDCG@10"])
    assert s["value_tie_averaged"] == pytest.approx(per_topic.loc["1", "nDCG(ties=average)@10"])


def test_skipping_topics_can_change_the_order_of_systems(collection):
    # What notebook 07 teaches: title skipping its three worst topics passes tfidf, but only
    # while skipped topics are left out of its mean.
    model = RunsModel(collection.qrels, collection.runs, system="title")
    assert model.summary()["order"] == "bm25 > tfidf > title"
    model.set(n_skipped=3)
    assert model.summary()["order"] == "bm25 > title > tfidf"
    assert model.set(missing_queries="zero").summary()["order"] == "bm25 > tfidf > title"


@pytest.mark.parametrize("setting, value", [
    ("topic", "999"), ("system", "google"), ("measure", "P@7"), ("ties", "random"),
    ("missing_queries", "drop"), ("n_skipped", 2), ("n_skipped", -1),
])
def test_bad_settings_raise_value_errors_naming_them_and_change_nothing(setting, value):
    qrels, runs = toy()
    model = RunsModel(qrels, runs)
    other = {"measure": "AP"} if setting != "measure" else {"n_skipped": 1}
    with pytest.raises(ValueError, match=rf"^{setting} must be"):
        model.set(**other, **{setting: value})  # a good change beside the bad one
    assert (model.measure, model.n_skipped) == ("nDCG@10", 0)
    with pytest.raises(ValueError, match=setting):
        RunsModel(qrels, runs, **{setting: value})


def test_bad_data_raises_naming_it():
    qrels, runs = toy()
    with pytest.raises(ValueError, match="^runs must be"):
        RunsModel(qrels, {})
    with pytest.raises(TypeError, match="^qrels must be"):
        RunsModel("qrels.txt", runs)
    with pytest.raises(TypeError, match=r"^runs\['x'\] must be"):
        RunsModel(qrels, {"x": [1, 2]})
    with pytest.raises(ValueError, match="depth"):
        RunsModel(qrels, runs, depth=0)
    assert RunsModel(qrels, runs, topic=2).topic == "2"  # a whole number is read as its digits


def test_the_view_has_a_labelled_control_for_every_setting():
    explorer = RunsExplorer(plot=False)
    assert set(explorer.controls) == set(RunsModel.SETTINGS)
    for name, control in explorer.controls.items():
        assert control.description, name
    assert [value for _, value in explorer.controls["ties"].options] == list(TIE_RULES)
    assert [value for _, value in explorer.controls["missing_queries"].options] == list(
        MISSING_QUERIES)
    assert list(explorer.controls["measure"].options) == list(RUN_MEASURES)
    assert explorer.controls["topic"].options[0] == ("1: parse command line arguments", "1")


def test_the_view_shows_the_ranked_list_and_the_means_and_follows_its_controls(collection):
    explorer = RunsExplorer(plot=False)
    explorer.controls["system"].value = "title"
    rows = grid_rows(explorer.summary.value)
    ranked = ek.trec_ranking(collection.qrels, collection.runs["title"], query_id="1")
    assert rows["3"][0] == ranked.doc_id.iloc[2] and rows["3"][-1] == "ranks 3-7"
    means = ek.evaluate(collection.qrels, collection.runs["title"],
                        ["nDCG@10", "nDCG(ties=average)@10"]).mean()
    assert rows["title"][0] == f"{means['nDCG@10']:.4f}" == "0.3713"
    assert rows["title"][2] == f"{means['nDCG(ties=average)@10']:.4f}" == "0.3761"
    assert "Order at the chosen settings: bm25 &gt; tfidf &gt; title" in explorer.summary.value
    before = explorer.summary.value
    explorer.controls["n_skipped"].value = 3  # the slider changes the readout
    assert explorer.summary.value != before
    assert "title skips topics 4, 12, 31" in explorer.summary.value
    assert grid_rows(explorer.summary.value)["title"][-1] == "37"
    assert "bm25 &gt; title &gt; tfidf" in explorer.summary.value
    explorer.controls["missing_queries"].value = "zero"
    assert explorer.model.missing_queries == "zero"
    assert "bm25 &gt; tfidf &gt; title" in explorer.summary.value
    explorer.controls["measure"].value = "AP"
    explorer.controls["ties"].value = "average"
    assert "not defined" in explorer.summary.value
    explorer.controls["topic"].value = "4"
    assert "Topic 4</b>" in explorer.summary.value


def test_the_plot_draws_and_closes():
    import matplotlib

    matplotlib.use("Agg")
    explorer = RunsExplorer(plot=True)
    explorer.controls["n_skipped"].value = 2
    explorer.controls["measure"].value = "P@10"
    explorer.controls["ties"].value = "average"
    import matplotlib.pyplot as plt

    figure = explorer.draw()
    try:
        assert figure.axes[0].get_ylabel() == "P@10 (0 to 1)"
        assert len(figure.axes[0].patches) == 41  # 40 topics and the chosen one outlined
        assert np.isfinite([p.get_height() for p in figure.axes[0].patches]).all()
    finally:
        plt.close(figure)
