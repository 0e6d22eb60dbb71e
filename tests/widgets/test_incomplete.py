"""IncompleteJudgementsExplorer and its model: scores and ranks with fewer judgements."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import evalkit as ek
from evalkit.datasets import load_collection
from evalkit.widgets import IncompleteJudgementsExplorer, IncompleteJudgementsModel

from .helpers import grid_rows


@pytest.fixture(scope="module")
def collection():
    return load_collection("stdlib-docs")


def model_of(collection, **options):
    pool_runs = {**collection.runs, "manual": collection.manual_run}
    return IncompleteJudgementsModel(collection.qrels, collection.runs, pool_runs=pool_runs,
                                     **options)


def test_full_scores_are_evaluates_means(collection):
    model = model_of(collection, measure="bpref", fraction=1.0)
    summary = model.summary()
    for name, run in collection.runs.items():
        direct = ek.evaluate(collection.qrels, run, ["Bpref"], missing_queries="zero").mean()
        assert summary["full"][name] == pytest.approx(direct.iloc[0], rel=1e-12)
    # Keeping every judgement changes nothing.
    assert summary["reduced"] == summary["full"] and summary["judgements_kept"] == 1.0
    assert summary["kendall_tau"] == pytest.approx(1.0)


def test_the_depth_20_pool_is_the_collections_pool(collection):
    # The qrels judge the first 20 lines of bm25, tfidf and title per topic (build_qrels.py
    # reads the files' order) plus all the manual documents.
    tops = [run.groupby("query_id").head(20) for run in collection.runs.values()]
    pairs = pd.concat([*tops, collection.manual_run])[["query_id", "doc_id"]].drop_duplicates()
    assert len(pairs) == len(collection.qrels) == len(collection.qrels.merge(pairs))
    # The files break tied scores by doc_id ascending, trec_eval's order descending: with
    # the ties across rank 20 (the title run has many), its depth-20 pool misses 85.
    pooled = ek.pool(collection.runs, depth=20)[["query_id", "doc_id"]]
    ours = pd.concat([pooled, collection.manual_run[["query_id", "doc_id"]]]).drop_duplicates()
    assert len(collection.qrels.merge(ours)) == len(collection.qrels) - 85
    model = model_of(collection, reduction="depth", depth=10_000, measure="AP")
    summary = model.summary()
    assert summary["judgements_kept"] == 1.0 and summary["reduced"] == summary["full"]
    shallow = model.set(depth=5).summary()
    pooled = ek.pool({**collection.runs, "manual": collection.manual_run}, depth=5)
    kept = collection.qrels.merge(pooled[["query_id", "doc_id"]])
    assert shallow["judgements_kept"] == pytest.approx(len(kept) / len(collection.qrels))
    for name, run in collection.runs.items():
        direct = ek.evaluate(kept, run, ["AP"], missing_queries="zero")["AP"]
        # A query without a judgement left drops out of evaluate; the model scores it 0.
        assert shallow["reduced"][name] == pytest.approx(direct.sum() / 40, rel=1e-12)


def test_sampled_scores_and_infap(collection):
    model = model_of(collection, fraction=0.3, seed=4, measure="infAP")
    summary = model.summary()
    marked = ek.sample_qrels(collection.qrels, fraction=0.3, seed=4, unjudged="mark")
    for name, run in collection.runs.items():
        direct = ek.evaluate(marked, run, ["infAP"], missing_queries="zero")["infAP"].mean()
        assert summary["reduced"][name] == pytest.approx(direct, rel=1e-12)
    condensed = model.set(measure="condensed AP").summary()
    for name, run in collection.runs.items():
        direct = ek.evaluate(marked, run, ["AP"], missing_queries="zero",
                             judged_only=True)["AP"].mean()
        assert condensed["reduced"][name] == pytest.approx(direct, rel=1e-12)
    ranks = condensed["reduced_rank"]
    order = sorted(condensed["reduced"], key=condensed["reduced"].get, reverse=True)
    assert [ranks[name] for name in order] == [1, 2, 3]
    full = np.array(list(condensed["full"].values()))
    reduced = np.array(list(condensed["reduced"].values()))
    assert condensed["kendall_tau"] == pytest.approx(ek.kendall_tau(full, reduced))


def test_model_checks_a_whole_change_before_applying_it(collection):
    model = model_of(collection)
    with pytest.raises(ValueError, match="fraction"):
        model.set(measure="bpref", fraction=0.0)
    assert model.measure == "AP"
    with pytest.raises(ValueError, match="measure"):
        model.set(measure="MAP")
    with pytest.raises(ValueError, match="runs"):
        IncompleteJudgementsModel(collection.qrels, {"bm25": collection.runs["bm25"]})
    with pytest.raises(TypeError, match="model"):
        IncompleteJudgementsExplorer(None)


def test_explorer_moves_with_its_controls(collection):
    explorer = IncompleteJudgementsExplorer(model_of(collection), plot=False)
    before = grid_rows(explorer.summary.value)
    explorer.controls["fraction"].value = 0.1
    after = grid_rows(explorer.summary.value)
    summary = explorer.model.summary()
    assert after["bm25"] == [f"{summary['full']['bm25']:.3f}", str(summary["full_rank"]["bm25"]),
                             f"{summary['reduced']['bm25']:.3f}",
                             str(summary["reduced_rank"]["bm25"])]
    assert after["bm25"][2] != before["bm25"][2]
    assert f"{summary['kendall_tau']:.3f}" in explorer.summary.value
    explorer.controls["reduction"].value = "depth"
    explorer.controls["depth"].value = 3
    assert "pool to depth 3" in explorer.summary.value
    explorer.controls["measure"].value = "condensed nDCG@10"
    assert explorer.model.measure == "condensed nDCG@10"
    descriptions = [c.description for c in explorer.controls.values()]
    assert all(descriptions)


def test_explorer_draws_one_dot_per_system(collection):
    figure = IncompleteJudgementsExplorer(model_of(collection, fraction=0.2)).draw()
    ax = figure.axes[0]
    assert len(ax.lines[0].get_xdata()) == 3
    assert ax.get_xlabel() == "AP, all judgements"
