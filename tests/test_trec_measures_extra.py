"""The rest of trec_eval's measures in evaluate (infAP … RBP, relstring): by hand, against
pytrec_eval (trec_eval 9.0.8) and against every per-query line the real trec_eval prints when
the environment names it: ``TREC_EVAL`` a trec_eval 10.0 binary, ``TREC_EVAL_9`` a 9.0.8 one
(built from https://github.com/usnistgov/trec_eval, tag v9.0.8; skipped when unset)."""

from __future__ import annotations

import math
import os
import re
import subprocess

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek
from evalkit.trec._measures import MIN_GEO_MEAN, block_starts, group_cumsum

pytrec_eval = pytest.importorskip("pytrec_eval")

TREC_EVAL = os.environ.get("TREC_EVAL")
TREC_EVAL_9 = os.environ.get("TREC_EVAL_9")
BINARIES = [
    pytest.param(("10.0", TREC_EVAL), id="10.0",
                 marks=pytest.mark.skipif(not TREC_EVAL, reason="set TREC_EVAL")),
    pytest.param(("9.0.8", TREC_EVAL_9), id="9.0.8",
                 marks=pytest.mark.skipif(not TREC_EVAL_9, reason="set TREC_EVAL_9")),
]


# ---------------------------------------------------------------------------------------------
# A small collection, every number worked out by hand
# ---------------------------------------------------------------------------------------------

#: q1 ranks a (2), b (1), z (not in the qrels), d (-1: pooled, unjudged), c (0); q2 ranks
#: b (0), a (1); q3 ranks x (1), y (not in the qrels), a (3).
QRELS = pd.DataFrame(
    [("1", "a", 2), ("1", "b", 1), ("1", "c", 0), ("1", "d", -1), ("2", "a", 1),
     ("2", "b", 0), ("3", "a", 3), ("3", "x", 1)],
    columns=["query_id", "doc_id", "relevance"])
RUN = pd.DataFrame(
    [("1", "a", 5.0), ("1", "b", 4.0), ("1", "z", 3.0), ("1", "d", 2.0), ("1", "c", 1.0),
     ("2", "b", 5.0), ("2", "a", 4.0), ("3", "x", 3.0), ("3", "y", 2.0), ("3", "a", 1.0)],
    columns=["query_id", "doc_id", "score"])


def scores(labels, **options):
    return ek.evaluate(QRELS, RUN, labels, **options)


def test_rbp_by_hand():
    p = 0.9
    # Gains rescaled per query to [0, 1] by the query's highest grade: q1 2 -> 1, 1 -> 1/2;
    # q2 grades 0-1 stay; q3 3 -> 1, 1 -> 1/3.
    expected = [(1 - p) * (1 + 0.5 * p), (1 - p) * p, (1 - p) * (1 / 3 + p * p)]
    np.testing.assert_allclose(scores(["RBP"])["RBP"], expected, rtol=1e-15)
    np.testing.assert_allclose(scores(["rbp.p=0.5"])["rbp.p=0.5"],
                               [0.5 * (1 + 0.25), 0.5 * 0.5, 0.5 * (1 / 3 + 0.25)], rtol=1e-15)
    # gains {2: 3}: q1's levels gain 0, 1, 3 -> 0, 1/3, 1; q2's 0, 1 and the named 3 -> 0,
    # 1/3, 1; q3's 0, 1, 2 -> 3, 3 -> 0, 1/3, 1, 1.
    ours = scores(["rbp.p=0.8,2=3", "RBP(p=0.8,gains={2:3})"])
    expected = [0.2 * (1 + 0.8 / 3), 0.2 * 0.8 / 3, 0.2 * (1 / 3 + 0.64)]
    np.testing.assert_allclose(ours.to_numpy().T, [expected, expected], rtol=1e-15)


def test_rbp_residual_by_hand():
    p = 0.9
    # q1: z and d unjudged at ranks 3 and 4, 5 retrieved; q2: none unjudged; q3: y at rank 2.
    expected = [p**5 + (1 - p) * (p**2 + p**3), 0.0, p**3 + (1 - p) * p]
    np.testing.assert_allclose(scores(["RBPResid"])["RBPResid"], expected, rtol=1e-15)
    np.testing.assert_allclose(scores(["rbp_resid.p=0.8"])["rbp_resid.p=0.8"],
                               [0.8**5 + 0.2 * (0.64 + 0.8**3), 0.0, 0.8**3 + 0.2 * 0.8],
                               rtol=1e-15)


def test_unjudged_by_hand():
    ours = scores(["Unjudged@2", "unj_5", "unj.20"])
    # Documents absent from the qrels and those graded negative count; short lists are padded
    # with judged ones (divided by k).
    np.testing.assert_allclose(ours.to_numpy(), [[0, 2 / 5, 2 / 20], [0, 0, 0],
                                                 [1 / 2, 1 / 5, 1 / 20]])


def test_judged_by_hand():
    ours = scores(["Judged@2", "Judged@3", "Judged@5", "Judged@10", "Judged", "Judged@1"])
    # q1 ranks a (2), b (1), z (absent), d (-1: pooled, not judged), c (0): 3 judged of 5.
    # q2 ranks b (0), a (1): both judged. q3 ranks x (1), y (absent), a (3).
    # A short list divides by what it retrieved (ir_measures), not by k.
    np.testing.assert_allclose(ours.to_numpy(), [[1, 2 / 3, 3 / 5, 3 / 5, 3 / 5, 1],
                                                 [1, 1, 1, 1, 1, 1],
                                                 [1 / 2, 2 / 3, 2 / 3, 2 / 3, 2 / 3, 1]],
                               rtol=1e-15)
    # Where the list reaches k, Judged@k and trec_eval's Unjudged@k add up to 1.
    both = scores(["Judged@2", "Unjudged@2"])
    np.testing.assert_allclose(both.sum(axis=1), [1, 1, 1], rtol=1e-15)
    # A query the run misses scores 0, as every measure.
    zero = ek.evaluate(QRELS, RUN[RUN.query_id != "2"], ["Judged@5"], missing_queries="zero")
    assert zero.loc["2", "Judged@5"] == 0.0
    with pytest.raises(ValueError, match="Judged takes no options"):
        scores(["Judged(p=1)@5"])
    with pytest.raises(ValueError, match="whole number >= 1"):
        scores(["Judged@0"])


def ir_measures_judged(qrels: pd.DataFrame, run: pd.DataFrame, k: int | None) -> dict:
    """ir_measures' Judged@k, as its judged_provider.py computes it (ir_measures 0.3.1 and
    later): per query of both the qrels and the run, the documents of the top k (by score,
    ties by doc_id ascending) that have any qrels line, over the length of that top k."""
    judged = {}
    for query, doc in zip(qrels["query_id"], qrels["doc_id"], strict=True):
        judged.setdefault(query, set()).add(doc)
    values = {}
    for query, rows in run.groupby("query_id"):
        if query not in judged:
            continue
        ranked = sorted(zip(rows["doc_id"], rows["score"], strict=True),
                        key=lambda pair: (-pair[1], pair[0]))
        top = ranked[:len(ranked) if k is None else k]
        values[query] = sum(doc in judged[query] for doc, _ in top) / len(top)
    return values


def judged_collection(seed: int, *, negative: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Random qrels (grades -1 to 2 when ``negative``, else 0 to 2) and a run with distinct
    scores (so ir_measures' tie order plays no part), short and long lists."""
    rng = np.random.default_rng(seed)
    qrels_rows, run_rows = [], []
    for q in range(6):
        n_docs = int(rng.integers(1, 30))
        judged = rng.random(n_docs) < rng.random()
        low = -1 if negative else 0
        qrels_rows += [(f"q{q}", f"d{i}", int(rng.integers(low, 3)))
                       for i in np.flatnonzero(judged)]
        retrieved = rng.permutation(n_docs)[: int(rng.integers(1, n_docs + 1))]
        run_rows += [(f"q{q}", f"d{i}", float(score))
                     for i, score in zip(retrieved, rng.permutation(retrieved.size),
                                         strict=True)]
    qrels_rows.append(("q0", "d0", 1))
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    qrels = qrels.drop_duplicates(["query_id", "doc_id"])
    return qrels, pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("k", [None, 1, 3, 10, 100])
def test_judged_is_ir_measures_judged(seed, k):
    qrels, run = judged_collection(seed, negative=False)
    label = "Judged" if k is None else f"Judged@{k}"
    ours = ek.evaluate(qrels, run, [label])[label]
    expected = ir_measures_judged(qrels, run, k)
    assert ours.to_dict() == pytest.approx(expected, rel=1e-15, abs=0)
    try:
        import ir_measures
    except ImportError:
        return
    measure = ir_measures.parse_measure(label)
    theirs = {m.query_id: m.value for m in ir_measures.iter_calc(
        [measure], qrels.astype({"relevance": int}), run)}
    assert ours.to_dict() == pytest.approx(theirs, rel=1e-15, abs=0)


@pytest.mark.parametrize("seed", range(10))
def test_judged_leaves_out_negative_grades_where_ir_measures_counts_them(seed):
    # trec_eval reads -1 as "in the pool but not judged": Judged is ir_measures' with the
    # negative lines dropped from the qrels (they still decide which queries are judged).
    qrels, run = judged_collection(seed, negative=True)
    ours = ek.evaluate(qrels, run, ["Judged@5"])["Judged@5"]
    graded = qrels[qrels["relevance"] >= 0]
    expected = ir_measures_judged(graded, run, 5)
    for query in set(ir_measures_judged(qrels, run, 5)) - set(expected):
        expected[query] = 0.0  # judged only by negative grades: nothing is judged
    assert ours.to_dict() == pytest.approx(expected, rel=1e-15, abs=0)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 12), st.integers(-1, 3),
                          st.booleans(), st.integers(0, 5)), min_size=1, max_size=50),
       st.integers(1, 15))
def test_judged_lies_in_zero_one_and_is_one_when_all_is_judged(rows, k):
    # rows: (query, doc, grade, judged?, score); scores tie often.
    qrels = pd.DataFrame([(f"q{q}", f"d{d}", g) for q, d, g, j, _ in rows if j],
                         columns=["query_id", "doc_id", "relevance"]).drop_duplicates(
                             ["query_id", "doc_id"])
    run = pd.DataFrame([(f"q{q}", f"d{d}", float(s)) for q, d, _, _, s in rows],
                       columns=["query_id", "doc_id", "score"]).drop_duplicates(
                           ["query_id", "doc_id"])
    if qrels.empty:
        return
    ours = ek.evaluate(qrels, run, [f"Judged@{k}", "Judged"])
    assert ((ours >= 0) & (ours <= 1)).all().all()
    # Every query whose retrieved documents are all graded >= 0 scores exactly 1.
    graded = set(zip(qrels["query_id"][qrels["relevance"] >= 0],
                     qrels["doc_id"][qrels["relevance"] >= 0], strict=True))
    all_judged = run.assign(judged=[pair in graded for pair in zip(
        run["query_id"], run["doc_id"], strict=True)]).groupby("query_id")["judged"].all()
    for query in ours.index:
        if all_judged[query]:
            assert ours.loc[query].tolist() == [1.0, 1.0]
    # The judged share of the whole ranking is Judged@k once k reaches its length.
    long = ek.evaluate(qrels, run, ["Judged@1000"])["Judged@1000"]
    pd.testing.assert_series_equal(long, ours["Judged"], check_names=False)


def test_dcg_and_ideal_dcg_by_hand():
    ours = scores(["DCG", "IdealDCG", "DCG@2", "dcg.1=0.5", "ideal_dcg.1=0.5"])
    log3 = math.log2(3)
    np.testing.assert_allclose(ours["DCG"], [2 + 1 / log3, 1 / log3, 1 + 3 / 2])
    np.testing.assert_allclose(ours["IdealDCG"], [2 + 1 / log3, 1, 3 + 1 / log3])
    np.testing.assert_allclose(ours["DCG@2"], [2 + 1 / log3, 1 / log3, 1])
    np.testing.assert_allclose(ours["dcg.1=0.5"], [2 + 0.5 / log3, 0.5 / log3, 0.5 + 3 / 2])
    # trec_eval compares two gains by their difference cast to a whole number: 0.5 and 0
    # compare equal, the sort keeps level 1 (named first) below level 0, and the ideal ranking
    # stops at level 0's gain of 0 before level 1's 0.5: q1's ideal DCG is 2 and q2's 0, as
    # trec_eval 10.0 prints them (q3 has no grade 0).
    np.testing.assert_allclose(ours["ideal_dcg.1=0.5"], [2, 0, 3 + 0.5 / log3])


def test_ndcg_gains_follow_trec_eval_s_sort_of_gains():
    # Gains 3.5 (grade 1) and 3 (grade 3) compare equal in trec_eval: grade 1, named first,
    # sorts below grade 3, so q3's ideal ranking is 3, 3.5 and its nDCG is 5 / (3 + 3.5/log2 3)
    # (0.9600 in trec_eval 10.0), not 5 / (3.5 + 3/log2 3).
    ours = scores(["ndcg.1=3.5,2=9", "nDCG(gains={1:3.5,2:9})"])
    expected = (3.5 + 3 / 2) / (3 + 3.5 / math.log2(3))
    assert ours.loc["3"].tolist() == [pytest.approx(expected, rel=1e-15)] * 2
    # Whole gains are sorted as numbers: q3's ideal ranking is x (4), a (2).
    whole = scores(["ndcg.1=4,3=2"])
    expected = (4 + 2 / 2) / (4 + 2 / math.log2(3))
    assert whole.loc["3", "ndcg.1=4,3=2"] == pytest.approx(expected, rel=1e-15)


def test_relstring_by_hand():
    ours = scores(["relstring", "RelString@3", "relstring.1"])
    assert ours.loc["1"].tolist() == ["21-.0", "21-", "2"]
    assert ours.loc["2"].tolist() == ["01", "01", "0"]
    assert ours.loc["3"].tolist() == ["1-3", "1-3", "1"]
    qrels = pd.DataFrame({"query_id": ["q"] * 2, "doc_id": ["a", "b"], "relevance": [12, 7]})
    run = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["a", "b", "c"], "score": [3, 2, 1]})
    assert ek.evaluate(qrels, run, ["relstring"]).iloc[0, 0] == ">7-"
    zero = ek.evaluate(QRELS, RUN[RUN.query_id != "2"], ["relstring"], missing_queries="zero")
    assert zero.loc["2", "relstring"] == ""


def test_set_measures_and_utility_by_hand():
    ours = scores(["SetAP", "SetRelP", "Utility", "utility.2,-1,0.5,0",
                   "Utility(a=0,b=0,c=0,d=1,n_docs=100)", "RelP@1", "relative_P.4"])
    # q1: 5 retrieved, 2 relevant retrieved, R = 2; q2: 2, 1, 1; q3: 3, 2, 2.
    np.testing.assert_allclose(ours["SetAP"], [4 / 10, 1 / 2, 4 / 6])
    np.testing.assert_allclose(ours["SetRelP"], [1, 1, 1])
    np.testing.assert_allclose(ours["Utility"], [2 - 3, 1 - 1, 2 - 1])
    np.testing.assert_allclose(ours["utility.2,-1,0.5,0"], [4 - 3, 2 - 1, 4 - 1])
    np.testing.assert_allclose(ours["Utility(a=0,b=0,c=0,d=1,n_docs=100)"],
                               [100 + 2 - 5 - 2, 100 + 1 - 2 - 1, 100 + 2 - 3 - 2])
    np.testing.assert_allclose(ours["RelP@1"], [1, 0, 1])
    np.testing.assert_allclose(ours["relative_P.4"], [2 / 2, 1 / 1, 2 / 2])


def test_infap_bing_g_by_hand():
    ours = scores(["infAP", "BinG", "G"])
    eps = 1e-5
    # q3: x (relevant) at rank 1 adds 1; a at rank 3 (j = 2) has 1 relevant, 0 non-relevant
    # and 0 pooled-unjudged above it (y is not in the pool).
    q3 = (1 + (1 / 3 + (2 / 3) * (1 / 2) * ((1 + eps) / (1 + 2 * eps)))) / 2
    assert ours.loc["3", "infAP"] == pytest.approx(q3, rel=1e-15)
    # binG: relevant documents of q3 at ranks 1 and 3, with 0 and 1 not relevant above.
    assert ours.loc["3", "BinG"] == pytest.approx((1 + 1 / math.log2(3)) / 2, rel=1e-15)
    # G of q3: ideal gains 3, 1 (sum 4); x (gain 1) at rank 1: cost 3, gained 1; a (gain 3)
    # at rank 3: cost 3 + 1 + 1, gained 4.
    g = (1 / math.log2(2 + 3 - 1) + 3 / math.log2(2 + 5 - 4)) / 4
    assert ours.loc["3", "G"] == pytest.approx(g, rel=1e-15)


def test_ndcg_rel_and_rndcg_by_hand():
    ours = scores(["nDCGRel", "RnDCG"])
    log3 = math.log2(3)
    # q3: ideal gains 3, 1 (IDCG@1 = 3, IDCG@2 = 3 + 1/log2 3); run gains 1, 0, 3.
    dcg1, dcg3 = 1.0, 1 + 3 / 2
    ndcg_rel = (dcg1 / 3 + dcg3 / (3 + 1 / log3)) / 2
    assert ours.loc["3", "nDCGRel"] == pytest.approx(ndcg_rel, rel=1e-15)
    # The ideal gain changes after depth 1 (3 -> 1) and after depth 2 (1 -> 0); 3 retrieved
    # is not more than m + 1 = 3, so no final term.
    rndcg = (dcg1 / 3 + (1 + 0) / (3 + 1 / log3)) / 2
    assert ours.loc["3", "RnDCG"] == pytest.approx(rndcg, rel=1e-15)
    # q2 (R = 1): the ideal is 1 (depth 1); the run ranks b (0) first: DCG@1 = 0.
    assert ours.loc["2", "RnDCG"] == 0.0


def test_trec_eval_versions_differ_only_in_recall_levels():
    # R = 3: level 0.4 (1.2) needs 2 relevant documents in 9.0.8, 1 in 10.0.
    qrels = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["a", "b", "c"], "relevance": 1})
    run = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["x", "a", "y", "b"],
                        "score": [4.0, 3.0, 2.0, 1.0]})
    nine = ek.evaluate(qrels, run, ["IPrec@0.4", "IPrecAvg", "AP"])
    ten = ek.evaluate(qrels, run, ["IPrec@0.4", "IPrecAvg", "AP"], trec_eval_version="10.0")
    assert nine.loc["q", "IPrec@0.4"] == pytest.approx(2 / 4)
    assert ten.loc["q", "IPrec@0.4"] == pytest.approx(1 / 2)
    assert nine.loc["q", "AP"] == ten.loc["q", "AP"]
    # The run finds a at rank 2 and b at rank 4 (precision 1/2 at both), never c: a level
    # scores 1/2 when it needs at most 2 relevant documents, else 0.
    levels = np.round(np.linspace(0, 1, 11), 1)
    nine_needed = [max(1, int(r * 3 + 0.9)) for r in levels]
    ten_needed = [max(1, math.floor(r * 3 + 0.5)) for r in levels]
    assert nine_needed != ten_needed
    assert nine.loc["q", "IPrecAvg"] == pytest.approx(
        np.mean([0.5 if c <= 2 else 0.0 for c in nine_needed]))
    assert ten.loc["q", "IPrecAvg"] == pytest.approx(
        np.mean([0.5 if c <= 2 else 0.0 for c in ten_needed]))
    with pytest.raises(ValueError, match="trec_eval_version"):
        ek.evaluate(qrels, run, ["AP"], trec_eval_version="11")


@pytest.mark.parametrize(("metrics", "message"), [
    (["utility.1,2"], "4 coefficients"),
    (["ndcg.a=2"], "whole grades"),
    (["ndcg.1"], "name=value"),
    (["rbp_resid.p=0.5,1=2"], "takes only p"),
    (["RBP(q=0.5)"], "takes p, gains"),
    (["RBP(p=x)"], "a number as p"),
    (["nDCG(gains=2)"], "a mapping"),
    (["AP(p=1)"], "takes no options"),
    (["Utility(n_docs=1.5)"], "whole number"),
    (["RelP"], "needs a cutoff"),
    (["gm_bpref"], "geometric mean of bpref"),
])
def test_bad_options_are_named(metrics, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ek.evaluate(QRELS, RUN, metrics)


# ---------------------------------------------------------------------------------------------
# Random collections: pytrec_eval, properties, and the real binary
# ---------------------------------------------------------------------------------------------


def collection(seed: int, *, n_queries: int = 8, n_docs: int = 40, every_query_run=False,
               negative_share: float = 0.15):
    """Random qrels and run: graded (some above 9) and negative judgements, queries without
    relevant documents, unjudged and pooled-unjudged retrieved documents, ties, short runs,
    float32 scores (trec_eval 9 holds scores as float32), run queries absent from the qrels
    and, unless ``every_query_run``, judged queries absent from the run."""
    rng = np.random.default_rng(seed)
    docs = np.array([f"d{i}" for i in range(n_docs)], dtype=object)
    qrels_rows, run_rows = [], []
    for q in range(n_queries):
        query = f"q{q}"
        judged = rng.choice(n_docs, size=int(rng.integers(1, n_docs // 2 + 2)), replace=False)
        top = int(rng.choice([1, 2, 3, 4, 12]))
        grades = rng.integers(0, top + 1, size=judged.size)
        grades[rng.random(judged.size) < 0.4] = 0
        grades[rng.random(judged.size) < negative_share] = -1
        if rng.random() < 0.1:
            grades[:] = np.minimum(grades, 0)
        grades[0] = max(grades[0], 0)  # trec_eval misreads a query judged only negative
        qrels_rows += [(query, docs[d], int(g)) for d, g in zip(judged, grades, strict=True)]
        if every_query_run or rng.random() > 0.15:
            retrieved = rng.choice(n_docs, size=int(rng.integers(1, n_docs)), replace=False)
            scores = rng.integers(0, 6, size=retrieved.size) / 4.0
            if rng.random() < 0.5:
                scores = rng.standard_normal(retrieved.size).astype(np.float32)
            run_rows += [(query, docs[d], float(s)) for d, s in zip(retrieved, scores,
                                                                    strict=True)]
    run_rows.append(("unjudged-query", "d0", 1.0))
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    return qrels, run.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def pytrec_eval_scores(qrels, run, measures, relevance_level=1):
    qrel_dict: dict[str, dict[str, int]] = {}
    for q, d, r in qrels.itertuples(index=False):
        qrel_dict.setdefault(q, {})[d] = int(r)
    run_dict: dict[str, dict[str, float]] = {}
    for q, d, s in run.itertuples(index=False):
        run_dict.setdefault(q, {})[d] = float(s)
    evaluator = pytrec_eval.RelevanceEvaluator(qrel_dict, set(measures), relevance_level)
    return pd.DataFrame(evaluator.evaluate(run_dict)).T


@pytest.mark.parametrize("seed", range(30))
def test_gm_bpref_is_the_log_of_bpref_per_query(seed):
    # pytrec_eval reports gm_bpref per query as trec_eval holds it before its summary:
    # log(max(bpref, 1e-5)); the summary is exp of the mean (gm_map's rule).
    qrels, run = collection(seed)
    ours = ek.evaluate(qrels, run, ["bpref"])["bpref"]
    theirs = pytrec_eval_scores(qrels, run, ["gm_bpref"])["gm_bpref"].loc[ours.index]
    np.testing.assert_allclose(np.log(np.maximum(ours, MIN_GEO_MEAN)), theirs, atol=1e-12)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("level", [1, 2])
def test_pooled_unjudged_heavy_runs_match_pytrec_eval(seed, level):
    # Many negative grades (infAP's "pooled but unjudged") and grades above 9.
    qrels, run = collection(seed + 500, negative_share=0.5)
    labels = {"infAP": "infAP", "BinG": "binG", "G": "G", "nDCGRel": "ndcg_rel",
              "RnDCG": "Rndcg", "SetAP": "set_map", "SetRelP": "set_relative_P",
              "Utility": "utility", "RelP@10": "relative_P_10"}
    ours = ek.evaluate(qrels, run, list(labels), relevance_level=level)
    measures = [name.replace("_10", ".10") for name in labels.values()]
    theirs = pytrec_eval_scores(qrels, run, measures, level)[list(labels.values())]
    theirs = theirs.loc[ours.index]
    np.testing.assert_allclose(ours.to_numpy(float), theirs.to_numpy(float), atol=1e-12)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 5), st.floats(-1e6, 1e6)), max_size=60))
def test_group_cumsum_adds_in_order_within_each_block(rows):
    rows.sort(key=lambda row: row[0])  # grouped by code
    codes = np.array([code for code, _ in rows], dtype=np.int64)
    values = np.array([value for _, value in rows])
    expected, running, previous = [], 0.0, None
    for code, value in rows:
        running = value if code != previous else running + value
        previous = code
        expected.append(running)
    assert group_cumsum(codes, values).tolist() == expected  # exactly, not approximately


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 4), max_size=40), st.integers(0, 12))
def test_block_starts_lists_each_change_and_gives_up_past_most(codes, most):
    codes = np.array(codes, dtype=np.int64)
    expected = [i for i in range(codes.size) if i == 0 or codes[i] != codes[i - 1]]
    assert block_starts(codes).tolist() == expected
    bounded = block_starts(codes, most=most)
    if len(expected) > most:
        assert bounded is None
    else:
        assert bounded.tolist() == expected


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(0, 2**31 - 1), st.floats(0.05, 0.99))
def test_rbp_and_its_residual_bound_binary_rbp(seed, p):
    qrels, run = collection(seed, n_queries=4, n_docs=20)
    qrels = qrels.assign(relevance=np.minimum(qrels.relevance, 1))  # gains 0 or 1
    ours = ek.evaluate(qrels, run, [f"RBP(p={p})", f"RBPResid(p={p})", "Unjudged@5"])
    rbp, resid = ours.iloc[:, 0], ours.iloc[:, 1]
    assert ((rbp >= 0) & (rbp + resid <= 1 + 1e-12)).all()
    assert ((ours.iloc[:, 2] >= 0) & (ours.iloc[:, 2] <= 1)).all()


def run_binary(binary, tmp_path, qrels, run, measures, *options):
    qrels_file, run_file = tmp_path / "qrels", tmp_path / "run"
    ek.write_qrels(qrels, qrels_file)
    ek.write_run(run.assign(rank=0, run_id="r"), run_file)
    args = [binary[1], "-q", *options]
    for measure in measures:
        args += ["-m", measure]
    out = subprocess.run([*args, str(qrels_file), str(run_file)], capture_output=True,
                         text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines()]


def printed(value) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    return f"{value:6.4f}"


SUMMARY_ONLY = {"runid", "num_q", "gm_map", "gm_bpref"}
COUNTS = {"num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}


def compare_with_binary(binary, tmp_path, qrels, run, measures, labels=None, *options):
    """Every per-query line of the binary (release, path) against evaluate's value printed
    as trec_eval prints it; returns the number of lines compared."""
    version = binary[0]
    lines = run_binary(binary, tmp_path, qrels, run, measures, *options)
    level = float(options[options.index("-l") + 1]) if "-l" in options else 1
    names = sorted({name.strip() for name, query, _ in lines
                    if query != "all" and name.strip() not in SUMMARY_ONLY})
    as_label = labels or {name: name for name in names}
    ours = ek.evaluate(qrels, run, [as_label[name] for name in names], relevance_level=level,
                       trec_eval_version=version)
    compared = 0
    for name, query, value in lines:
        name = name.strip()
        if query == "all" or name in SUMMARY_ONLY:
            continue
        mine = ours.loc[query, as_label[name]]
        if isinstance(mine, float) and math.isnan(mine):
            # Rndcg of a query with relevant documents but no positive gain: 0 / 0, printed
            # as the C library prints a NaN.
            assert value.strip() in ("nan", "-nan"), (name, query, value)
            compared += 1
            continue
        text = str(int(mine)) if name in COUNTS else printed(mine)
        assert text.strip() == value.strip(), (name, query, value, mine)
        compared += 1
    assert compared > 0
    return compared


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("seed", range(40))
def test_every_per_query_line_of_the_binary(binary, tmp_path, seed):
    qrels, run = collection(seed + 3000, every_query_run=True)
    measures = ["all_trec"] + (["dcg", "ideal_dcg"] if binary[0] == "10.0" else [])
    options = ("-l", str([1, 2, 0, 3][seed % 4]))
    compare_with_binary(binary, tmp_path, qrels, run, measures, None, *options)


def random_gains(rng) -> str:
    levels = rng.choice(6, size=int(rng.integers(1, 4)), replace=False)
    values = rng.choice([-1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 3.0, 4.0, 7.5], size=levels.size)
    return ",".join(f"{level}={value:g}" for level, value in zip(levels, values, strict=True))


@pytest.mark.parametrize("binary", BINARIES)
@pytest.mark.parametrize("seed", range(25))
def test_measure_parameters_against_the_binary(binary, tmp_path, seed):
    rng = np.random.default_rng(seed)
    qrels, run = collection(seed + 4000, every_query_run=True)
    gains = random_gains(rng)
    p = float(rng.choice([0.5, 0.8, 0.95]))
    measures = [f"ndcg.{gains}", f"ndcg_rel.{gains}", f"Rndcg.{gains}", f"G.{gains}",
                "utility.{:g},{:g},{:g},0".format(*rng.integers(-3, 4, size=3)),
                f"relstring.{int(rng.integers(1, 30))}", "relative_P.3,7",
                "iprec_at_recall.0.15,0.25,0.45", "11pt_avg.0.2,0.4"]
    if binary[0] == "10.0":
        measures += [f"dcg.{gains}", f"ideal_dcg.{gains}", f"rbp.p={p},{gains}",
                     f"rbp_resid.p={p}", "unj.3,50"]
    for measure in measures:  # one at a time: trec_eval 10.0 can free shared parameters twice
        base, _, params = measure.partition(".")
        if base == "11pt_avg":
            levels = params.split(",")
            label = "11pt_avg"
            lines = run_binary(binary, tmp_path, qrels, run, [measure])
            ours = ek.evaluate(qrels, run, [f"iprec_at_recall_{level}" for level in levels],
                               trec_eval_version=binary[0]).mean(axis=1)
            for name, query, value in lines:
                assert name.strip().startswith(label)
                if query != "all":
                    assert printed(ours.loc[query]) == value.strip(), (label, query)
            continue
        families = {"relative_P", "iprec_at_recall", "unj"}
        labels = None if base in families else {f"{base}_{params}": measure}
        compare_with_binary(binary, tmp_path, qrels, run, [measure], labels)



def test_queries_the_run_misses_score_zero_on_every_new_measure():
    labels = ["infAP", "SetAP", "SetRelP", "RelP@5", "Utility", "utility.1,-1,-2,1", "BinG",
              "G", "DCG", "IdealDCG", "nDCGRel", "RnDCG", "RBP", "RBPResid", "Unjudged@5"]
    ours = ek.evaluate(QRELS, RUN[RUN.query_id != "3"], labels, missing_queries="zero")
    assert (ours.loc["3"] == 0).all()
    assert (ours.loc[["1", "2"]] == scores(labels).loc[["1", "2"]]).all().all()


def test_an_ideal_ranking_whose_first_level_gains_nothing_is_empty():
    # Gains 3 -> 0.5, 2 -> 0.5, 1 -> -1 (level 0 gains 0): trec_eval sorts the levels as
    # 1, 3, 2, 0 (0.5 and 0 compare equal) and its loops stop at once on level 0's gain of 0,
    # though this query has no grade 0: the ideal ranking is empty (trec_eval 10.0 prints
    # 0.0000 for ndcg, ideal_dcg, G and ndcg_rel, and -nan for Rndcg).
    qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "relevance": [3, 2]})
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    names = ["ndcg", "ideal_dcg", "G", "ndcg_rel", "Rndcg"]
    ours = ek.evaluate(qrels, run, [f"{name}.3=0.5,1=-1,2=0.5" for name in names]).iloc[0]
    assert ours.iloc[:4].tolist() == [0.0] * 4
    assert math.isnan(ours.iloc[4])
    # With level 0 gaining 1 instead, the walk starts at a positive gain and the ideal ranking
    # holds a and b.
    kept = ek.evaluate(qrels, run, ["ideal_dcg.3=0.5,1=-1,2=0.5,0=1"]).iloc[0, 0]
    assert kept == pytest.approx(0.5 + 0.5 / math.log2(3))


@pytest.mark.parametrize("seed", range(6))
def test_a_querys_values_do_not_depend_on_the_others_scored_with_it(seed):
    # Every measure of a query reads only that query's rows, so scoring it alone (its
    # qrels and its run rows) gives the same bits (11pt_avg once added its levels in another
    # order for one query than for many). Streamed and dask evaluation score queries in
    # groups and rely on this.
    rng = np.random.default_rng(seed)
    rows = []
    for q in range(12):
        n = int(rng.integers(1, 40))
        docs = rng.choice(200, n, replace=False)
        rows += [(f"q{q}", f"d{d}", float(rng.integers(0, 6))) for d in docs]
    run = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    qrels = run.sample(frac=0.6, random_state=seed).rename(columns={"score": "relevance"})
    qrels["relevance"] = rng.integers(-1, 3, len(qrels))
    metrics = ["IPrecAvg", "IPrec@0.3", "AP", "nDCG", "Bpref", "RBP", "infAP", "P@5", "RR"]
    whole = ek.evaluate(qrels, run, metrics)
    for query in whole.index:
        alone = ek.evaluate(qrels[qrels["query_id"] == query], run[run["query_id"] == query],
                            metrics)
        pd.testing.assert_frame_equal(alone, whole.loc[[query]], check_exact=True)
