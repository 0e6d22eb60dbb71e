"""Incomplete judgements: condensed lists (``evaluate(..., judged_only=True)``, trec_eval
``-J``), infAP on sampled pools, :func:`evalkit.pool` and :func:`evalkit.sample_qrels`.

Oracles: pytrec_eval (trec_eval 9.0.8, its ``judged_docs_only_flag``) to full precision, and
the real trec_eval programs when the environment names them (``TREC_EVAL`` a 10.0 binary,
``TREC_EVAL_9`` a 9.0.8 one; skipped otherwise), every per-query line as they print it.
"""

from __future__ import annotations

import math
import os
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek

pytrec_eval = pytest.importorskip("pytrec_eval")

TREC_EVAL = os.environ.get("TREC_EVAL")
TREC_EVAL_9 = os.environ.get("TREC_EVAL_9")
BINARIES = [
    pytest.param(("10.0", TREC_EVAL), id="10.0",
                 marks=pytest.mark.skipif(not TREC_EVAL, reason="set TREC_EVAL")),
    pytest.param(("9.0.8", TREC_EVAL_9), id="9.0.8",
                 marks=pytest.mark.skipif(not TREC_EVAL_9, reason="set TREC_EVAL_9")),
]
#: trec_eval names and evaluate's labels for them.
MEASURES = {"map": "AP", "P_5": "P@5", "P_10": "P@10", "ndcg": "nDCG",
            "ndcg_cut_10": "nDCG@10", "bpref": "Bpref", "infAP": "infAP", "Rprec": "Rprec",
            "recip_rank": "RR", "num_ret": "NumRet", "num_rel_ret": "NumRelRet",
            "recall_10": "R@10"}
COUNTS = {"num_ret", "num_rel_ret"}


def collection(seed: int, *, n_queries: int = 6, n_docs: int = 40, negative_share=0.2):
    """Random graded qrels with -1 ("pooled, not judged") grades and a run retrieving judged,
    -1 and unjudged documents, with ties; some queries retrieve nothing judged."""
    rng = np.random.default_rng(seed)
    qrels_rows, run_rows = [], []
    for q in range(n_queries):
        query = f"q{q}"
        judged = rng.choice(n_docs, size=int(rng.integers(1, n_docs // 2 + 2)), replace=False)
        grades = rng.integers(0, 4, size=judged.size)
        grades[rng.random(judged.size) < 0.4] = 0
        grades[rng.random(judged.size) < negative_share] = -1
        grades[0] = max(grades[0], 0)  # trec_eval misreads a query judged only negative
        qrels_rows += [(query, f"d{d}", int(g)) for d, g in zip(judged, grades, strict=True)]
        if rng.random() < 0.15:  # a query whose retrieved documents are all unjudged
            pool = np.setdiff1d(np.arange(n_docs), judged)
            retrieved = rng.choice(pool, size=min(3, pool.size), replace=False)
        else:
            retrieved = rng.choice(n_docs, size=int(rng.integers(1, n_docs)), replace=False)
        scores = rng.integers(0, 6, size=retrieved.size) / 4.0
        if rng.random() < 0.5:
            scores = rng.standard_normal(retrieved.size).astype(np.float32).astype(float)
        run_rows += [(query, f"d{d}", float(s)) for d, s in zip(retrieved, scores, strict=True)]
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    return qrels, run.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def pytrec(qrels, run, measures, *, level=1, judged_only=False) -> pd.DataFrame:
    qrel_dict: dict[str, dict[str, int]] = {}
    for q, d, r in qrels.itertuples(index=False):
        qrel_dict.setdefault(q, {})[d] = int(r)
    run_dict: dict[str, dict[str, float]] = {}
    for q, d, s in run.itertuples(index=False):
        run_dict.setdefault(q, {})[d] = float(s)
    evaluator = pytrec_eval.RelevanceEvaluator(qrel_dict, set(measures), level,
                                               judged_docs_only_flag=judged_only)
    return pd.DataFrame(evaluator.evaluate(run_dict)).T


# ---------------------------------------------------------------------------------------------
# Condensed lists (trec_eval -J) and infAP against pytrec_eval, to full precision
# ---------------------------------------------------------------------------------------------

PYTREC = ["map", "P.5,10", "ndcg", "ndcg_cut.10", "bpref", "infAP", "Rprec", "recip_rank",
          "num_ret", "num_rel_ret", "recall.10"]


@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("seed", range(100))
def test_condensed_lists_and_infap_match_pytrec_eval(seed, level, judged_only):
    qrels, run = collection(seed)
    ours = ek.evaluate(qrels, run, list(MEASURES.values()), relevance_level=level,
                       judged_only=judged_only)
    theirs = pytrec(qrels, run, PYTREC, level=level, judged_only=judged_only)
    assert sorted(ours.index) == sorted(theirs.index)
    theirs = theirs.loc[ours.index, list(MEASURES)]
    np.testing.assert_allclose(ours.to_numpy(float), theirs.to_numpy(float), rtol=1e-12,
                               atol=1e-12)


# ---------------------------------------------------------------------------------------------
# ... and against the real trec_eval programs, line by line
# ---------------------------------------------------------------------------------------------


def binary_lines(binary, tmp_path, qrels, run, *options):
    qrels_file, run_file = tmp_path / "qrels", tmp_path / "run"
    ek.write_qrels(qrels, qrels_file)
    ek.write_run(run.assign(rank=0, run_id="r"), run_file)
    args = [binary[1], "-q", *options, "-m", "map", "-m", "P.5,10", "-m", "ndcg",
            "-m", "ndcg_cut.10", "-m", "bpref", "-m", "infAP", "-m", "Rprec", "-m",
            "recip_rank", "-m", "num_ret", "-m", "num_rel_ret", "-m", "recall.10"]
    out = subprocess.run([*args, str(qrels_file), str(run_file)], capture_output=True,
                         text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines()]


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize("seed", range(60))
def test_every_line_of_the_binary(binary, tmp_path, seed, judged_only):
    qrels, run = collection(seed + 1000, negative_share=0.35)
    level = 1 + seed % 2
    options = ["-l", str(level)] + (["-J"] if judged_only else [])
    lines = binary_lines(binary, tmp_path, qrels, run, *options)
    ours = ek.evaluate(qrels, run, list(MEASURES.values()), relevance_level=level,
                       judged_only=judged_only, trec_eval_version=binary[0])
    compared = 0
    for name, query, value in lines:
        name = name.strip()
        if query == "all":
            continue
        mine = ours.loc[query, MEASURES[name]]
        text = str(int(mine)) if name in COUNTS else f"{mine:6.4f}"
        assert text.strip() == value.strip(), (name, query, value, mine)
        compared += 1
    assert compared == ours.size


# ---------------------------------------------------------------------------------------------
# By hand and properties
# ---------------------------------------------------------------------------------------------

QRELS = pd.DataFrame({"query_id": "1", "doc_id": ["a", "b", "c", "d", "e"],
                      "relevance": [1, 0, 1, -1, 0]})
#: Ranked a, x (unjudged), b, d (-1), c, y (unjudged): R = 2.
RUN = pd.DataFrame({"query_id": "1", "doc_id": ["a", "x", "b", "d", "c", "y"],
                    "score": [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]})


def test_by_hand():
    full = ek.evaluate(QRELS, RUN, ["AP", "P@5", "Bpref", "infAP", "NumRet"]).iloc[0]
    condensed = ek.evaluate(QRELS, RUN, ["AP", "P@5", "Bpref", "infAP", "NumRet"],
                            judged_only=True).iloc[0]
    # Full list: relevant at ranks 1 and 5 -> AP = (1/1 + 2/5) / 2; P@5 = 2/5.
    assert full["AP"] == pytest.approx((1 + 2 / 5) / 2, rel=1e-15)
    assert full["P@5"] == pytest.approx(2 / 5)
    # Condensed: a, b, c -> relevant at ranks 1 and 3: AP = (1 + 2/3) / 2; P@5 = 2/5.
    assert condensed["AP"] == pytest.approx((1 + 2 / 3) / 2, rel=1e-15)
    assert condensed["NumRet"] == 3
    # Bpref: c has one judged non-relevant (b) above it; min(R, N) = 2: (1 + (1 - 1/2)) / 2.
    assert full["Bpref"] == condensed["Bpref"] == pytest.approx(0.75)
    # infAP: a at rank 1 adds 1; c at rank 5 (j = 4 above: 1 rel, 1 nonrel, 1 pooled
    # unjudged, 1 outside the pool): 1/5 + (4/5) (3/4) (1 + e) / (2 + 2e).
    eps = 1e-5
    expected = (1 + 1 / 5 + (4 / 5) * (3 / 4) * (1 + eps) / (2 + 2 * eps)) / 2
    assert full["infAP"] == pytest.approx(expected, rel=1e-15)


def test_a_query_with_nothing_judged_retrieved_stays_and_scores_zero():
    run = pd.concat([RUN, pd.DataFrame({"query_id": "2", "doc_id": ["z"], "score": [1.0]})])
    qrels = pd.concat([QRELS, pd.DataFrame({"query_id": "2", "doc_id": ["a"],
                                            "relevance": [1]})])
    ours = ek.evaluate(qrels, run, ["AP", "NumRet"], judged_only=True)
    assert ours.loc["2"].tolist() == [0.0, 0.0]


def test_judged_only_rejects_bad_flags():
    with pytest.raises(TypeError, match="judged_only"):
        ek.evaluate(QRELS, RUN, ["AP"], judged_only="yes")
    with pytest.raises(ValueError, match="judged_only"):
        ek.evaluate(QRELS, RUN, ["nDCG(ties=average)@5"], judged_only=True)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 10_000))
def test_condensed_equals_the_run_without_its_unjudged_rows(seed):
    qrels, run = collection(seed)
    judged = qrels[qrels.relevance >= 0]
    kept = run.merge(judged[["query_id", "doc_id"]], on=["query_id", "doc_id"])
    labels = ["AP", "nDCG@10", "P@10", "Bpref", "RR"]
    condensed = ek.evaluate(qrels, run, labels, judged_only=True)
    filtered = ek.evaluate(qrels, kept, labels)
    pd.testing.assert_frame_equal(condensed.loc[filtered.index], filtered)
    # Bpref ignores unjudged documents: condensing does not change it.
    full = ek.evaluate(qrels, run, ["Bpref"])
    np.testing.assert_array_equal(full["Bpref"], condensed.loc[full.index, "Bpref"])


# ---------------------------------------------------------------------------------------------
# pool
# ---------------------------------------------------------------------------------------------


def pool_by_loops(runs, depth):
    best: dict[tuple[str, str], list[int]] = {}
    for run in runs:
        for query, rows in run.groupby("query_id"):
            ranked = sorted(zip(rows.score, rows.doc_id, strict=True), reverse=True)
            for rank, (_, doc) in enumerate(ranked[:depth], start=1):
                best.setdefault((query, doc), []).append(rank)
    rows = [(q, d, min(r), len(r)) for (q, d), r in sorted(best.items())]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "rank", "n_runs"])


@pytest.mark.parametrize("seed", range(40))
def test_pool_matches_loops(seed):
    rng = np.random.default_rng(seed)
    runs = [collection(seed * 10 + i)[1] for i in range(int(rng.integers(1, 5)))]
    depth = int(rng.integers(1, 30))
    ours = ek.pool(runs, depth=depth)
    pd.testing.assert_frame_equal(ours, pool_by_loops(runs, depth))
    # A shallower pool is the rows of a deeper one with rank <= depth.
    deeper = ek.pool({str(i): run for i, run in enumerate(runs)}, depth=depth + 5)
    assert set(map(tuple, ours[["query_id", "doc_id"]].to_numpy())) == set(
        map(tuple, deeper.loc[deeper["rank"] <= depth, ["query_id", "doc_id"]].to_numpy()))


def test_pool_rejects_bad_input():
    with pytest.raises(ValueError, match="depth"):
        ek.pool(RUN, depth=0)
    with pytest.raises(TypeError, match="depth"):
        ek.pool(RUN, depth=True)
    with pytest.raises(ValueError, match="runs"):
        ek.pool([], depth=3)
    with pytest.raises(TypeError, match="runs"):
        ek.pool(42, depth=3)
    with pytest.raises(TypeError, match="keyword"):
        ek.pool(RUN, 3)


# ---------------------------------------------------------------------------------------------
# sample_qrels
# ---------------------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.integers(0, 10_000), st.floats(0.01, 1.0))
def test_sample_qrels_keeps_the_ceiling_of_each_querys_share(seed, fraction):
    qrels, _ = collection(seed)
    kept = ek.sample_qrels(qrels, fraction=fraction, seed=seed)
    sizes = qrels.groupby("query_id").size()
    expected = np.ceil(np.round(fraction * sizes, 9)).astype(int)
    pd.testing.assert_series_equal(kept.groupby("query_id").size(), expected)
    # A subset of the qrels, in their order, grades untouched.
    merged = kept.merge(qrels.reset_index(), on=["query_id", "doc_id", "relevance"])
    assert len(merged) == len(kept) and merged["index"].is_monotonic_increasing
    marked = ek.sample_qrels(qrels, fraction=fraction, seed=seed, unjudged="mark")
    assert marked[["query_id", "doc_id"]].equals(qrels[["query_id", "doc_id"]])
    same = marked.merge(kept, on=["query_id", "doc_id"], suffixes=("", "_kept"))
    assert (same.relevance == same.relevance_kept).all()
    assert ((marked.relevance == -1) | marked.set_index(["query_id", "doc_id"]).index.isin(
        kept.set_index(["query_id", "doc_id"]).index)).all()
    assert (marked.relevance == -1).sum() >= len(qrels) - len(kept)


def test_sample_qrels_is_uniform():
    # Each of 10 judgements of one query is kept 3 times in 10 on average.
    qrels = pd.DataFrame({"query_id": "1", "doc_id": [f"d{i}" for i in range(10)],
                          "relevance": 1})
    rng = np.random.default_rng(0)
    counts = pd.concat([ek.sample_qrels(qrels, fraction=0.3, seed=rng) for _ in range(2000)])
    share = counts.doc_id.value_counts() / 2000
    assert len(share) == 10 and np.abs(share - 0.3).max() < 0.04  # SD about 0.01


def test_sample_qrels_full_and_seeded():
    qrels, _ = collection(1)
    pd.testing.assert_frame_equal(ek.sample_qrels(qrels, fraction=1.0), qrels)
    pd.testing.assert_frame_equal(ek.sample_qrels(qrels, fraction=0.4, seed=3),
                                  ek.sample_qrels(qrels, fraction=0.4, seed=3))


def test_sample_qrels_rejects_bad_input():
    for bad in (0.0, 1.5, -0.1, math.nan):
        with pytest.raises(ValueError, match="fraction"):
            ek.sample_qrels(QRELS, fraction=bad)
    with pytest.raises(ValueError, match="unjudged"):
        ek.sample_qrels(QRELS, fraction=0.5, unjudged="keep")
    with pytest.raises(TypeError, match="seed"):
        ek.sample_qrels(QRELS, fraction=0.5, seed=True)
    with pytest.raises(ValueError, match="qrels"):
        ek.sample_qrels(QRELS.drop(columns="relevance"), fraction=0.5)


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize("fraction", [1.0, 0.3])
def test_the_stdlib_docs_runs_of_notebook_29_against_the_binary(binary, tmp_path, fraction,
                                                                judged_only):
    # Notebook 29's numbers: the stored runs on the full qrels and on 30% of them (the rest
    # marked -1), every per-query line of the binary.
    from evalkit.datasets import load_collection

    collection = load_collection("stdlib-docs")
    qrels = ek.sample_qrels(collection.qrels, fraction=fraction, seed=0, unjudged="mark")
    for run in collection.runs.values():
        run = run[["query_id", "doc_id", "score"]]
        lines = binary_lines(binary, tmp_path, qrels, run, *(["-J"] if judged_only else []))
        ours = ek.evaluate(qrels, run, list(MEASURES.values()), judged_only=judged_only,
                           trec_eval_version=binary[0])
        for name, query, value in lines:
            if query.strip() != "all":
                mine = ours.loc[query, MEASURES[name.strip()]]
                text = str(int(mine)) if name.strip() in COUNTS else f"{mine:6.4f}"
                assert text.strip() == value.strip(), (name, query, value, mine)
