"""evalkit.trec.evaluate(), checked against pytrec_eval (trec_eval 9) as oracle."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek
from evalkit import _hashing, _threads
from evalkit.trec import _evaluate as _trec_evaluate
from evalkit.trec import _ordering as _trec_ordering
from evalkit.trec import _pairs as _trec_pairs
from evalkit.trec import _tables as _trec_tables

pytrec_eval = pytest.importorskip("pytrec_eval")

# Our metric label -> the key pytrec_eval reports, and the measure string it needs.
ORACLE = {
    "AP": ("map", "map"),
    "AP@5": ("map_cut_5", "map_cut.5"),
    "AP@3": ("map_cut_3", "map_cut.3"),
    "P@1": ("P_1", "P.1"),
    "P@5": ("P_5", "P.5"),
    "P@20": ("P_20", "P.20"),
    "R@3": ("recall_3", "recall.3"),
    "R@10": ("recall_10", "recall.10"),
    "RR": ("recip_rank", "recip_rank"),
    "nDCG": ("ndcg", "ndcg"),
    "nDCG@3": ("ndcg_cut_3", "ndcg_cut.3"),
    "nDCG@10": ("ndcg_cut_10", "ndcg_cut.10"),
    "Rprec": ("Rprec", "Rprec"),
    "Bpref": ("bpref", "bpref"),
    "NumRet": ("num_ret", "num_ret"),
    "NumRel": ("num_rel", "num_rel"),
    "NumRelRet": ("num_rel_ret", "num_rel_ret"),
    "IPrec@0.0": ("iprec_at_recall_0.00", "iprec_at_recall"),
    "IPrec@0.3": ("iprec_at_recall_0.30", "iprec_at_recall"),
    "IPrec@0.7": ("iprec_at_recall_0.70", "iprec_at_recall"),
    "IPrec@1.0": ("iprec_at_recall_1.00", "iprec_at_recall"),
    "Success@1": ("success_1", "success.1"),
    "Success@5": ("success_5", "success.5"),
    "SetP": ("set_P", "set_P"),
    "SetR": ("set_recall", "set_recall"),
    "SetF": ("set_F", "set_F"),
    "RprecMult@0.2": ("Rprec_mult_0.20", "Rprec_mult"),
    "RprecMult@1.4": ("Rprec_mult_1.40", "Rprec_mult"),
    "RprecMult@2.0": ("Rprec_mult_2.00", "Rprec_mult"),
    "IPrecAvg": ("11pt_avg", "11pt_avg"),
    "NumNonRelJudgedRet": ("num_nonrel_judged_ret", "num_nonrel_judged_ret"),
    "infAP": ("infAP", "infAP"),
    "SetAP": ("set_map", "set_map"),
    "SetRelP": ("set_relative_P", "set_relative_P"),
    "RelP@5": ("relative_P_5", "relative_P.5"),
    "RelP@20": ("relative_P_20", "relative_P.20"),
    "Utility": ("utility", "utility"),
    "BinG": ("binG", "binG"),
    "G": ("G", "G"),
    "nDCGRel": ("ndcg_rel", "ndcg_rel"),
    "RnDCG": ("Rndcg", "Rndcg"),
}
#: Measures pytrec_eval (trec_eval 9.0.8) reports otherwise (RelString, a string); those it
#: lacks (trec_eval 10.0's and evaluate's own) are read from their records. Checked in
#: tests/test_trec_measures_extra.py (by hand and against the trec_eval 10.0 binary).
NOT_IN_PYTREC_EVAL = {"RelString"}


def random_collection(seed: int, *, n_queries: int = 6, n_docs: int = 40):
    """Random qrels and run with everything that trips evaluators up.

    Graded and negative judgements, queries without relevant documents, unjudged retrieved
    documents, judged queries missing from the run, run queries missing from the qrels, short
    runs, many tied scores (all float32-representable: pytrec_eval stores scores as float32),
    doc_ids whose string order differs from their numeric order, and a shuffled row order.
    """
    rng = np.random.default_rng(seed)
    docs = np.array([f"d{i}" for i in range(n_docs)], dtype=object)
    qrels_rows, run_rows = [], []
    for q in range(n_queries):
        query = f"q{q}"
        if rng.random() > 0.15:  # most queries are judged
            judged = rng.choice(n_docs, size=rng.integers(1, max(2, n_docs // 2)), replace=False)
            no_relevant = rng.random() < 0.15
            grades = [0 if no_relevant else int(rng.choice([-1, 0, 0, 0, 1, 1, 2, 3]))
                      for _ in judged]
            if max(grades) < 0:
                # trec_eval (and so pytrec_eval) reads memory out of bounds, and may hang or
                # crash, on a query whose judgements are all negative: keep one at 0.
                grades[0] = 0
            qrels_rows += [(query, docs[d], g) for d, g in zip(judged, grades, strict=True)]
        if rng.random() > 0.15:  # most queries are in the run
            retrieved = rng.choice(n_docs, size=rng.integers(1, n_docs), replace=False)
            scores = rng.integers(0, 8, size=retrieved.size) / 4.0  # many ties
            if rng.random() < 0.5:
                scores = rng.standard_normal(retrieved.size).astype(np.float32)
            for d, s in zip(retrieved, scores, strict=True):
                run_rows.append((query, docs[d], float(s)))
    if not qrels_rows:
        qrels_rows.append(("q0", "d0", 1))
    if not run_rows:
        run_rows.append(("q0", "d0", 1.0))
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    run = run.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    return qrels, run


def oracle(qrels, run, labels, relevance_level=1):
    qrel_dict: dict[str, dict[str, int]] = {}
    for q, d, r in qrels.itertuples(index=False):
        qrel_dict.setdefault(q, {})[d] = int(r)
    run_dict: dict[str, dict[str, float]] = {}
    for q, d, s in run[["query_id", "doc_id", "score"]].itertuples(index=False):
        run_dict.setdefault(q, {})[d] = float(s)
    measures = {ORACLE[label][1] for label in labels}
    evaluator = pytrec_eval.RelevanceEvaluator(qrel_dict, measures, relevance_level)
    result = evaluator.evaluate(run_dict)
    table = pd.DataFrame(
        {label: {q: values[ORACLE[label][0]] for q, values in result.items()} for label in labels}
    )
    return table


@pytest.mark.parametrize("seed", range(60))
def test_every_metric_matches_pytrec_eval_on_random_data(seed):
    qrels, run = random_collection(seed)
    labels = list(ORACLE)
    ours = ek.evaluate(qrels, run, labels)
    expected = oracle(qrels, run, labels).loc[ours.index]
    assert sorted(ours.index) == sorted(expected.index)
    np.testing.assert_allclose(ours.to_numpy(float), expected.to_numpy(float), atol=1e-9)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("level", [2, 3])
def test_relevance_level_matches_trec_eval_l(seed, level):
    qrels, run = random_collection(seed + 1000)
    labels = ["AP", "P@5", "R@10", "RR", "Rprec", "Bpref", "NumRel", "nDCG@10", "IPrec@0.3",
              "infAP", "RelP@5", "SetRelP", "SetAP", "Utility", "BinG", "G", "nDCGRel",
              "RnDCG"]
    ours = ek.evaluate(qrels, run, labels, relevance_level=level)
    expected = oracle(qrels, run, labels, relevance_level=level).loc[ours.index]
    np.testing.assert_allclose(ours.to_numpy(float), expected.to_numpy(float), atol=1e-9)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 2**31 - 1), st.integers(1, 4), st.integers(2, 12))
def test_matches_pytrec_eval_on_small_collections(seed, n_queries, n_docs):
    qrels, run = random_collection(seed, n_queries=n_queries, n_docs=n_docs)
    labels = ["AP", "nDCG", "nDCG@3", "RR", "Rprec", "Bpref", "P@1", "IPrec@0.7", "infAP",
              "G", "nDCGRel", "RnDCG", "BinG", "RelP@5"]
    ours = ek.evaluate(qrels, run, labels)
    expected = oracle(qrels, run, labels).loc[ours.index]
    np.testing.assert_allclose(ours.to_numpy(float), expected.to_numpy(float), atol=1e-9)


@pytest.mark.parametrize("seed", range(15))
def test_evaluate_agrees_with_the_single_list_functions(seed):
    qrels, run = random_collection(seed + 2000)
    scores = ek.evaluate(qrels, run, ["AP", "P@5", "RR@3", "nDCG@5", "Rprec"])
    judged = qrels.set_index(["query_id", "doc_id"])["relevance"]
    for query, row in scores.iterrows():
        ranked = run[run.query_id == query].sort_values(
            ["score", "doc_id"], ascending=[False, False])
        grades = [judged.get((query, d), 0) for d in ranked.doc_id]
        all_grades = qrels.loc[qrels.query_id == query, "relevance"].to_numpy()
        n_rel = int((all_grades >= 1).sum())
        zero = {"zero_division": 0.0}
        assert row["AP"] == pytest.approx(ek.average_precision(grades, n_relevant=n_rel, **zero))
        assert row["P@5"] == pytest.approx(ek.precision_at_k(grades, k=5))
        assert row["RR@3"] == pytest.approx(ek.reciprocal_rank(grades, k=3))
        assert row["Rprec"] == pytest.approx(ek.r_precision(grades, n_relevant=n_rel, **zero))
        assert row["nDCG@5"] == pytest.approx(
            ek.ndcg(grades, k=5, ideal=all_grades, **zero), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# trec_eval's rules, by hand
# ---------------------------------------------------------------------------------------------

QRELS = pd.DataFrame(
    {
        "query_id": ["1", "1", "1", "1", "2", "2", "3"],
        "doc_id": ["a", "b", "c", "d", "a", "b", "a"],
        "relevance": [1, 0, 2, -1, 0, 0, 1],
    }
)


def test_ties_are_broken_by_doc_id_descending():
    # b and a tie; trec_eval ranks "b" above "a" (strcmp, descending) whatever the file order.
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [1.0, 1.0]})
    assert ek.evaluate(QRELS, run, ["RR"])["RR"].iloc[0] == 0.5
    # "d10" < "d9" as strings: d9 comes first.
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["d10"], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["d10", "d9"], "score": [3.0, 3.0]})
    assert ek.evaluate(qrels, run, ["RR"])["RR"].iloc[0] == 0.5


def test_rank_column_is_ignored_and_score_decides():
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["b", "a"], "score": [1.0, 2.0],
                        "rank": [1, 2], "run_id": ["x", "x"]})
    assert ek.evaluate(QRELS, run, ["RR"])["RR"].iloc[0] == 1.0


def test_which_queries_are_kept():
    run = pd.DataFrame({"query_id": ["1", "2", "9"], "doc_id": ["c", "a", "a"],
                        "score": [1.0, 1.0, 1.0]})
    scores = ek.evaluate(QRELS, run, ["AP", "NumRel", "NumRet"])
    # 9 is not judged: dropped; 2 has no relevant document: kept with 0; 3 is not in the run.
    assert list(scores.index) == ["1", "2"]
    assert scores.loc["2", "AP"] == 0.0
    assert scores.loc["1", "AP"] == pytest.approx(1 / 2)  # R = 2 (a, c); -1 is not relevant
    zero = ek.evaluate(QRELS, run, ["AP", "NumRel", "NumRet"], missing_queries="zero")
    assert list(zero.index) == ["1", "2", "3"]
    assert zero.loc["3"].tolist() == [0.0, 1, 0]


def test_unjudged_and_negative_grades_are_not_relevant():
    run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["zz", "d", "a"],
                        "score": [3.0, 2.0, 1.0]})
    scores = ek.evaluate(QRELS, run, ["P@3", "Bpref", "nDCG"])
    assert scores.loc["1", "P@3"] == pytest.approx(1 / 3)
    # bpref: a is relevant with no judged non-relevant above it (zz unjudged, d is -1) -> 1 / R
    assert scores.loc["1", "Bpref"] == pytest.approx(1 / 2)
    ideal = 2 + 1 / np.log2(3)
    assert scores.loc["1", "nDCG"] == pytest.approx((1 / np.log2(4)) / ideal)


def test_a_query_judged_only_negative_scores_zero():
    # trec_eval itself misbehaves here (see random_collection); evalkit keeps the query at 0.
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [-1, -1]})
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    scores = ek.evaluate(qrels, run, ["AP", "nDCG", "nDCG@5", "Bpref", "IPrec@0.0", "NumRel"])
    assert scores.loc["1"].tolist() == [0.0, 0.0, 0.0, 0.0, 0.0, 0]


def test_ndcg_ignores_relevance_level_and_uses_the_qrels_ideal():
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    one = ek.evaluate(QRELS, run, ["nDCG", "nDCG@1"])
    two = ek.evaluate(QRELS, run, ["nDCG", "nDCG@1"], relevance_level=2)
    pd.testing.assert_frame_equal(one, two)
    assert one.loc["1", "nDCG@1"] == pytest.approx(1 / 2)  # ideal puts c (grade 2) first


def test_columns_are_the_labels_asked_for_in_order():
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    labels = ["nDCG@10", "AP", "P@5", "NumRet"]
    assert list(ek.evaluate(QRELS, run, labels).columns) == labels


def test_unsorted_and_interleaved_runs_give_the_same_scores():
    qrels, run = random_collection(7, n_queries=5)
    labels = ["AP", "nDCG@10", "RR", "Bpref"]
    ranked = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    pd.testing.assert_frame_equal(
        ek.evaluate(qrels, run, labels), ek.evaluate(qrels, ranked, labels)
    )


def test_a_run_without_judged_queries_scores_nothing():
    run = pd.DataFrame({"query_id": ["9"], "doc_id": ["a"], "score": [1.0]})
    assert ek.evaluate(QRELS, run, ["AP"]).empty
    zero = ek.evaluate(QRELS, run, ["AP", "NumRel"], missing_queries="zero")
    assert zero["AP"].tolist() == [0.0, 0.0, 0.0] and zero["NumRel"].tolist() == [2, 0, 1]


def test_integer_ids_are_read_as_strings():
    qrels = pd.DataFrame({"query_id": [1, 1], "doc_id": [10, 11], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["11", "10"], "score": [2.0, 1.0]})
    assert ek.evaluate(qrels, run, ["RR"]).loc["1", "RR"] == 0.5


@pytest.mark.parametrize("seed", range(6))
def test_query_blocks_match_a_full_check_of_every_id(seed):
    # _id_blocks compares ids only where their references differ and type-checks one id per
    # block. Against the plain way (every id checked, every neighbour compared), with ids
    # that are shared objects, equal copies, pandas str columns and a strided view.
    rng = np.random.default_rng(seed)
    names = np.array([f"q{i}" for i in rng.integers(0, 6, 200)], dtype=object)
    copies = np.array(["".join(list(name)) for name in names], dtype=object)  # new objects
    for ids in (names, copies, names[::2]):
        for column in (pd.Series(ids, dtype=object), pd.Series(ids, dtype="str")):
            values, starts = _trec_tables._id_blocks(column, "ids")
            plain = _trec_tables._ids(column, "ids")
            assert values.tolist() == plain.tolist()
            assert starts.tolist() == np.flatnonzero(np.r_[True, plain[1:] != plain[:-1]]).tolist()


@pytest.mark.parametrize("missing", [np.nan, None, pd.NA])
def test_a_missing_query_id_is_named_wherever_it_is(missing):
    for row in (0, 1, 3):
        query_id = np.array(["1", "1", "1", "1"], dtype=object)
        query_id[row] = missing
        run = pd.DataFrame({"query_id": query_id, "doc_id": list("abcd"), "score": 1.0})
        with pytest.raises(ValueError, match=rf"run\['query_id'\] is missing .* in row {row}"):
            ek.evaluate(QRELS, run, ["AP"])


def test_whole_number_query_ids_inside_a_block_of_strings_are_converted():
    run = pd.DataFrame({"query_id": np.array(["1", 1, "1"], dtype=object),
                        "doc_id": ["c", "b", "a"], "score": [3.0, 2.0, 1.0]})
    strings = run.assign(query_id="1")
    pd.testing.assert_frame_equal(ek.evaluate(QRELS, run, ["AP", "NumRet"]),
                                  ek.evaluate(QRELS, strings, ["AP", "NumRet"]))


ID_TEXT = st.text(st.characters() | st.sampled_from(["\0", "é", "\ud800", "𝄞"]),
                  max_size=40)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(ID_TEXT, min_size=1, max_size=30), st.integers(1, 7))
def test_id_hashes_depend_on_the_id_alone(ids, chunk):
    # The hash of an id must not depend on its neighbours, its place, the chunk it falls in,
    # or whether some id holds a NUL (the separator of the fast path).
    values = np.array(ids, dtype=object)
    hashes = _hashing.string_hashes(values)
    one_by_one = [int(_hashing.string_hashes(np.array([i], dtype=object))[0]) for i in ids]
    assert hashes.tolist() == one_by_one
    original = _trec_pairs._HASH_CHUNK
    try:
        _trec_pairs._HASH_CHUNK = chunk
        assert _trec_pairs._doc_hashes(values).tolist() == one_by_one
    finally:
        _trec_pairs._HASH_CHUNK = original
    # Different ids, different hashes (a collision would only cost time, but would show a
    # weak hash).
    distinct = dict(zip(ids, one_by_one, strict=True))
    assert len(set(distinct.values())) == len(distinct)


def test_id_hashes_of_long_ids_read_every_byte():
    base = "x" * 1000
    ids = [base, base[:-1] + "y", "y" + base[1:], base[:300], base[:301], base[:300] + "\0",
           base[:299] + "é"]
    hashes = _hashing.string_hashes(np.array(ids + ids[:2], dtype=object)).tolist()
    assert len(set(hashes[:-2])) == len(ids) and hashes[-2:] == hashes[:2]
    with pytest.raises(TypeError):
        _hashing.string_hashes(np.array(["a", 1.5], dtype=object))


@pytest.mark.parametrize("missing", [np.nan, None, pd.NA])
def test_a_missing_doc_id_is_named(missing):
    doc_id = np.array(["a", "b", "c"], dtype=object)
    doc_id[2] = missing
    run = pd.DataFrame({"query_id": "1", "doc_id": doc_id, "score": [3.0, 2.0, 1.0]})
    with pytest.raises(ValueError, match=r"run\['doc_id'\] is missing .* in row 2"):
        ek.evaluate(QRELS, run, ["AP"])


def test_whole_number_doc_ids_among_strings_are_converted():
    run = pd.DataFrame({"query_id": "1", "doc_id": np.array(["a", 7, "c"], dtype=object),
                        "score": [3.0, 2.0, 1.0]})
    qrels = QRELS.assign(doc_id=QRELS["doc_id"].replace({"b": "7"}))
    assert ek.evaluate(qrels, run, ["NumRelRet", "RR"]).loc["1"].tolist() == [2, 1.0]


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "metrics, message",
    [
        (["MAP"], "unknown metric 'MAP'"),
        (["P"], "P needs a cutoff"),
        (["P@0"], "whole number >= 1"),
        (["Rprec@5"], "Rprec takes no cutoff"),
        (["IPrec@1.5"], "recall level in"),
        (["AP", "AP"], "asked for twice"),
        ([], "metrics is empty"),
    ],
)
def test_bad_metric_names(metrics, message):
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    with pytest.raises(ValueError, match=message):
        ek.evaluate(QRELS, run, metrics)


def test_bad_tables():
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    with pytest.raises(ValueError, match="run lacks the column.*'score'"):
        ek.evaluate(QRELS, run.drop(columns="score"), ["AP"])
    with pytest.raises(ValueError, match=r"run\['score'\] contains nan in row 0"):
        ek.evaluate(QRELS, run.assign(score=np.nan), ["AP"])
    with pytest.raises(ValueError, match=r"qrels\['relevance'\] must hold whole numbers"):
        ek.evaluate(QRELS.assign(relevance=0.5), run, ["AP"])
    with pytest.raises(TypeError, match="qrels must be a pandas DataFrame"):
        ek.evaluate({"1": {"a": 1}}, run, ["AP"])
    with pytest.raises(ValueError, match="missing_queries must be one of"):
        ek.evaluate(QRELS, run, ["AP"], missing_queries="skip")
    with pytest.raises(ValueError, match="relevance_level must be a real number"):
        ek.evaluate(QRELS, run, ["AP"], relevance_level=np.nan)
    with pytest.raises(TypeError, match="relevance_level must be a real number; got True"):
        ek.evaluate(QRELS, run, ["AP"], relevance_level=True)
    with pytest.raises(TypeError, match="relevance_level must be a real number; got the string"):
        ek.evaluate(QRELS, run, ["AP"], relevance_level="2")


@pytest.mark.parametrize("seed", range(5))
def test_a_real_relevance_level_acts_as_the_next_whole_grade(seed):
    qrels, run = random_collection(seed + 3000)
    labels = ["AP", "P@5", "RR", "Rprec", "Bpref", "NumRel", "nDCG@10", "IPrec@0.3"]
    pd.testing.assert_frame_equal(ek.evaluate(qrels, run, labels, relevance_level=1.5),
                                  ek.evaluate(qrels, run, labels, relevance_level=2))
    pd.testing.assert_frame_equal(ek.evaluate(qrels, run, labels, relevance_level=0.25),
                                  ek.evaluate(qrels, run, labels, relevance_level=1.0))


def test_options_are_keyword_only():
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    with pytest.raises(TypeError, match=r"write evaluate\(qrels, run, metrics, "
                                        r"relevance_level=2\)"):
        ek.evaluate(QRELS, run, ["AP"], 2)


def test_duplicate_documents_are_reported_not_double_counted():
    run = pd.DataFrame({"query_id": ["1", "1", "1"], "doc_id": ["a", "c", "a"],
                        "score": [3.0, 2.0, 1.0]})
    with pytest.raises(ValueError, match="run lists a document more than once.*query 1: a"):
        ek.evaluate(QRELS, run, ["AP"])
    qrels = pd.concat([QRELS, QRELS.iloc[:1]])
    with pytest.raises(ValueError, match="qrels lists a document more than once"):
        ek.evaluate(qrels, run.iloc[:2], ["AP"])


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of a few rows, so that small tables take the paths of long runs: ids hashed,
    and the run checked for duplicates, joined and ranked, a piece at a time in threads."""
    from evalkit.trec import _evaluate as evaluation

    monkeypatch.setattr(_trec_pairs, "_HASH_CHUNK", 3)
    monkeypatch.setattr(_trec_pairs, "_TABLE_KEYS", 5)
    monkeypatch.setattr(evaluation, "_PIECE", 5)


@pytest.mark.parametrize("grouped", [True, False])
@pytest.mark.parametrize("where", [0, 5, 19, 25])  # 4-5, 24-25: across a 5-row chunk
def test_duplicates_anywhere_in_a_long_run_are_reported(small_chunks, where, grouped):
    queries = np.repeat(["1", "2", "3"], 10)
    run = pd.DataFrame({"query_id": queries, "doc_id": [f"d{i % 10}" for i in range(30)],
                        "score": np.tile(np.arange(10, 0, -1.0), 3)})
    if not grouped:  # query 2 comes back at the end
        run = pd.concat([run.drop(index=[10, 11]), run.loc[[10, 11]]], ignore_index=True)
    pd.testing.assert_frame_equal(ek.evaluate(QRELS, run, ["AP", "NumRet"]),
                                  ek.evaluate(QRELS, run.sample(frac=1, random_state=where),
                                              ["AP", "NumRet"]))
    run.loc[where, "doc_id"] = run.loc[where - 1 if where % 10 else where + 1, "doc_id"]
    query = run.loc[where, "query_id"]
    with pytest.raises(ValueError, match=f"retrieved twice.*query {query}: "):
        ek.evaluate(QRELS, run, ["AP"])


@pytest.mark.parametrize("seed", range(6))
def test_long_run_paths_give_the_same_scores(small_chunks, monkeypatch, seed):
    # Pieces of a few rows (shuffled runs: grouped by query first, then ranked piece by
    # piece), on 1, 3 or the default number of threads, against the run in one piece.
    qrels, run = random_collection(seed + 5000, n_queries=8)
    if seed % 2:  # grouped, in the reverse of the qrels' order, each query's rows unranked
        run = run.sort_values("query_id", ascending=False, kind="stable", ignore_index=True)
    labels = ["AP", "nDCG@10", "RR", "P@5", "NumRet", "NumRelRet", "Bpref", "IPrec@0.5"]
    in_pieces = [ek.evaluate(qrels, run, labels)]
    for threads in ("1", "3"):
        monkeypatch.setenv("EVALKIT_THREADS", threads)
        in_pieces.append(ek.evaluate(qrels, run, labels))
    monkeypatch.undo()
    whole = ek.evaluate(qrels, run, labels)
    for result in in_pieces:
        pd.testing.assert_frame_equal(result, whole)


@pytest.mark.parametrize("setting", ["0", "two", "-1", "1.5"])
def test_a_bad_thread_count_is_named(monkeypatch, setting):
    monkeypatch.setenv("EVALKIT_THREADS", setting)
    with pytest.raises(ValueError, match="EVALKIT_THREADS must be a whole number >= 1"):
        _threads._threads()


def test_a_missing_doc_id_deep_in_a_long_run_is_named(small_chunks):
    run = pd.DataFrame({"query_id": "1", "doc_id": [f"d{i}" for i in range(40)],
                        "score": np.arange(40.0)})
    run["doc_id"] = run["doc_id"].astype(object)
    run.loc[33, "doc_id"] = None
    with pytest.raises(ValueError, match=r"run\['doc_id'\] is missing .* in row 33"):
        ek.evaluate(QRELS, run, ["AP"])


def use_id_hash(monkeypatch, function):
    """Hash doc_ids with ``function`` wherever evaluate looks the hash up: the qrels' and the
    readers' (``_pairs._doc_hashes``) and the run pieces' (``_evaluate``)."""
    for module, name in ((_trec_pairs, "string_hashes"), (_trec_evaluate, "_id_hashes")):
        assert hasattr(module, name)
        monkeypatch.setattr(module, name, function)
    # A piece's ids hashed in another order (query or rank order) than stored.
    assert hasattr(_trec_evaluate, "string_hashes_at")
    monkeypatch.setattr(_trec_evaluate, "string_hashes_at", lambda ids, rows: function(
        np.asarray(ids[rows], dtype=object)))
    # Ids stored in arrow, hashed from its buffers.
    assert hasattr(_trec_evaluate.ArrowIds, "hashes")
    monkeypatch.setattr(_trec_evaluate.ArrowIds, "hashes", lambda ids: function(
        np.asarray(ids.data.to_numpy(zero_copy_only=False), dtype=object)))


@pytest.mark.parametrize("storage", ["str", "object"])
@pytest.mark.parametrize("chunks", ["one", "small"])
@pytest.mark.parametrize("seed", range(4))
def test_hash_collisions_never_join_different_documents(request, monkeypatch, chunks, seed,
                                                        storage):
    # Hashes are confirmed on the ids: with a hash under which many ids collide (all ids of
    # one length and first letter, and a retrieved-only id with each judged one), the scores
    # and the duplicate checks are those of the real hash. On odd seeds the run's rows are
    # shuffled and each piece's ids hashed in rank order.
    if chunks == "small":
        request.getfixturevalue("small_chunks")
    qrels, run = random_collection(seed + 7000, n_queries=5)
    if storage == "object":  # numpy object arrays: compared by reference, then by text
        ids = {"query_id": object, "doc_id": object}
        qrels, run = qrels.astype(ids), run.astype(ids)
    if seed % 2:
        run = run.sample(frac=1.0, random_state=seed).reset_index(drop=True)
        monkeypatch.setattr(_trec_evaluate, "_in_rank_order", lambda ids, ranked, stored: True)
    labels = ["AP", "nDCG@10", "RR", "P@5", "NumRet", "NumRelRet", "Bpref"]
    expected = ek.evaluate(qrels, run, labels)
    real = _hashing.string_hashes

    def weak(ids, **options):  # options: string_hashes' (repeated=...), for these ids
        hashes = real(np.array([i[:1] + str(len(i)) for i in ids], dtype=object))
        return hashes

    use_id_hash(monkeypatch, weak)
    pd.testing.assert_frame_equal(ek.evaluate(qrels, run, labels), expected)
    judged_query = run.index[run["query_id"].isin(qrels["query_id"])][-1]
    twice = pd.concat([run, run.loc[[judged_query]]], ignore_index=True)
    with pytest.raises(ValueError, match="retrieved twice"):
        ek.evaluate(qrels, twice, labels)
    with pytest.raises(ValueError, match="judged twice"):  # among many keys that collide
        ek.evaluate(pd.concat([qrels, qrels.iloc[[3]]], ignore_index=True), run, labels)
    # Judged ids that hash apart, and a retrieved-only id "x..." that shares a judged one's
    # hash, ranked first for that query.
    query, doc = qrels.loc[qrels["relevance"].idxmax(), ["query_id", "doc_id"]]
    decoy = pd.concat([pd.DataFrame({"query_id": [query], "doc_id": ["x" + doc],
                                     "score": [run["score"].max() + 1]}), run],
                      ignore_index=True)
    use_id_hash(monkeypatch, real)
    expected = ek.evaluate(qrels, decoy, labels)
    use_id_hash(monkeypatch, lambda ids, **options: real(np.array(
        [doc if i == "x" + doc else i for i in ids], dtype=object)))
    pd.testing.assert_frame_equal(ek.evaluate(qrels, decoy, labels), expected)


def test_every_registered_measure_is_documented_and_checked_against_pytrec_eval():
    from evalkit.trec._registry import MEASURES

    assert ek.trec.METRICS == {name: measure.cutoff for name, measure in MEASURES.items()}
    checked = {label.split("@")[0] for label in ORACLE}
    not_in_9 = {name for name, m in MEASURES.items()
                if not any("9.0.8" in t.versions for t in m.trec_eval)}
    assert checked | not_in_9 | NOT_IN_PYTREC_EVAL == set(MEASURES)
    for name, measure in MEASURES.items():
        assert "trec_eval" in measure.function.__doc__, name


def tie_heavy_collection(seed: int, *, unicode: bool, presorted: bool):
    """Long runs whose scores tie in pairs and in larger blocks, with doc_ids whose byte order
    differs from their numeric order (and, with ``unicode``, non-ASCII doc_ids)."""
    rng = np.random.default_rng(seed)
    stems = ["d", "D", "doc-", "é", "dé", "ü-", "z"] if unicode else ["d", "D", "doc-", "z"]
    qrels_rows, run_rows = [], []
    for q in range(8):
        n_docs = int(rng.integers(5, 120))
        names = [f"{stems[i % len(stems)]}{int(rng.integers(0, 10_000))}-{i}"
                 for i in range(n_docs)]
        # Few distinct scores: ties in pairs when the grid is fine, in blocks when it is coarse.
        grid = int(rng.choice([4, 16, 4096]))
        scores = np.round(rng.random(n_docs) * grid) / grid
        for name, score in zip(names, scores, strict=True):
            run_rows.append((f"q{q}", name, float(score)))
        judged = rng.choice(n_docs, size=max(1, n_docs // 2), replace=False)
        qrels_rows += [(f"q{q}", names[d], int(rng.choice([0, 0, 1, 2, 3]))) for d in judged]
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    if presorted:  # ranked by score, but tied documents left in arbitrary order
        run = run.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
    else:
        run = run.sample(frac=1.0, random_state=seed)
    return qrels, run.reset_index(drop=True)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("unicode", [False, True])
@pytest.mark.parametrize("presorted", [False, True])
def test_tie_heavy_runs_match_pytrec_eval(seed, unicode, presorted):
    qrels, run = tie_heavy_collection(seed, unicode=unicode, presorted=presorted)
    labels = ["AP", "RR", "P@5", "nDCG@10", "Rprec", "Bpref", "IPrec@0.3", "infAP", "G",
              "nDCGRel", "RnDCG", "BinG"]
    ours = ek.evaluate(qrels, run, labels)
    expected = oracle(qrels, run, labels).loc[ours.index]
    np.testing.assert_allclose(ours.to_numpy(float), expected.to_numpy(float), atol=1e-9)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("presorted", [False, True])
def test_ties_of_one_grade_are_left_unordered_and_every_measure_is_unchanged(
        monkeypatch, seed, presorted):
    # evaluate skips the doc_id ordering inside tied blocks whose rows share a grade (or are
    # all unjudged). Against the full ordering: every registered measure, negative and zero
    # grades (judged, unlike unjudged rows), relevance levels 1 and 2.
    qrels, run = tie_heavy_collection(seed, unicode=bool(seed % 2), presorted=presorted)
    qrels.loc[qrels.index[::7], "relevance"] = -1
    required = {"IPrec": "IPrec@0.3", "RprecMult": "RprecMult@2"}
    labels = [required.get(name, name + "@5") if cutoff == "required" else name
              for name, cutoff in ek.trec.METRICS.items()] + ["AP@5", "RR@5", "nDCG@5"]
    ordered_pairs = []  # tied pairs ordered (or placed), per call of evaluate
    real_break_ties, real_place = _trec_ordering._break_ties, _trec_ordering._place_classes

    def counting_break_ties(order, pairs, doc_id):
        ordered_pairs[-1] += int(pairs.size)
        return real_break_ties(order, pairs, doc_id)

    def counting_place(order, pairs, doc_id, tie_class, prefix=None):
        placed = real_place(order, pairs, doc_id, tie_class, prefix)
        ordered_pairs[-1] += 0 if placed is None else int(pairs.size)
        return placed

    monkeypatch.setattr(_trec_ordering, "_break_ties", counting_break_ties)
    monkeypatch.setattr(_trec_ordering, "_place_classes", counting_place)
    for level in (1, 2):
        ordered_pairs.append(0)
        skipping = ek.evaluate(qrels, run, labels, relevance_level=level)
        ordered_pairs.append(0)
        with monkeypatch.context() as full:
            full.setattr(_trec_ordering, "_mixed_blocks", lambda pairs, order, classes: pairs)
            everything = ek.evaluate(qrels, run, labels, relevance_level=level)
        pd.testing.assert_frame_equal(skipping, everything)
    assert ordered_pairs[0] < ordered_pairs[1]  # it did skip some tied pairs


def test_mixed_blocks_keep_only_blocks_whose_classes_differ():
    #          rows:  0  1  2  3  4  5  6  7  8
    classes = np.array([5, 5, 5, 1, 2, 2, 3, 3, 4])
    # Blocks (tied runs): rows 0-2 (one class), 3-5 (two), 6-7 (one); row 8 alone.
    pairs = np.array([0, 1, 3, 4, 6])  # the row at each of these ties with the next one
    kept = _trec_ordering._mixed_blocks(pairs, None, lambda rows: classes[rows])
    assert kept.tolist() == [3, 4]
    assert _trec_ordering._mixed_blocks(pairs, np.arange(9), lambda rows: classes[rows]).tolist() \
        == [3, 4]
    # Read through an order: the same rows listed backwards.
    backwards = _trec_ordering._mixed_blocks(pairs, np.arange(9)[::-1].copy(),
                                           lambda rows: classes[::-1][rows])
    assert backwards.tolist() == kept.tolist()
    assert _trec_ordering._mixed_blocks(pairs, None, lambda rows: rows * 0).size == 0
    # Adjacent blocks stay apart: 0-1 and 2-3 tie within, not across (positions 0 and 2).
    four = np.array([1, 1, 2, 3])
    assert _trec_ordering._mixed_blocks(np.array([0, 2]), None, lambda r: four[r]).tolist() == [2]


def test_ties_in_blocks_of_three_or_more_follow_doc_id_descending():
    docs = ["b", "a", "é", "c", "d9", "d10"]
    qrels = pd.DataFrame({"query_id": "1", "doc_id": docs, "relevance": [0, 1, 0, 0, 0, 0]})
    run = pd.DataFrame({"query_id": "1", "doc_id": docs, "score": 1.0})
    # Descending code-point (UTF-8 byte) order: é, d9, d10, c, b, a.
    assert ek.evaluate(qrels, run, ["RR"]).loc["1", "RR"] == pytest.approx(1 / 6)
    run2 = run.assign(score=[1.0, 1.0, 2.0, 1.0, 1.0, 1.0])  # é alone on top, then five tied
    assert ek.evaluate(qrels, run2, ["RR"]).loc["1", "RR"] == pytest.approx(1 / 6)


@pytest.mark.parametrize("unicode", [False, True])
def test_tie_keys_order_names_by_their_bytes_descending(unicode):
    # Names longer than one 8-byte word, sharing long prefixes, one a prefix of another.
    rng = np.random.default_rng(5)
    alphabet = list("ab-9Z") + (["é", "ü", "中"] if unicode else [])
    names = ["clueweb09-en0000-00-0000" + "".join(rng.choice(alphabet, size=rng.integers(0, 6)))
             for _ in range(300)] + ["", "a", "clueweb09", "clueweb09-en0000-00-0000"]
    names = np.array(names, dtype=object)
    order = np.lexsort(_trec_ordering._descending_name_keys(names))
    expected = sorted(names.tolist(), key=lambda name: name.encode(), reverse=True)
    assert names[order].tolist() == expected


def test_missing_queries_in_any_case_is_the_option():
    # Query 2 is judged but not retrieved: "zero" keeps it with every measure 0 (trec_eval -c).
    qrels = pd.DataFrame({"query_id": ["1", "2"], "doc_id": ["a", "b"], "relevance": [1, 1]})
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    for spelling in ("zero", "ZERO", "Zero"):
        scores = ek.evaluate(qrels, run, ["AP", "NumRel"], missing_queries=spelling)
        assert scores.to_dict("index") == {"1": {"AP": 1.0, "NumRel": 1},
                                           "2": {"AP": 0.0, "NumRel": 1}}
    assert ek.evaluate(qrels, run, ["AP"], missing_queries="Ignore").index.tolist() == ["1"]


def test_id_and_grade_messages_name_the_value_and_row():
    run = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "relevance": [1, 0]})
    with pytest.raises(ValueError, match=r"qrels\['relevance'\] must hold whole numbers "
                                         r"\(grades; a negative one is unjudged\); "
                                         r"got 1\.5 in row 1"):
        ek.evaluate(qrels.assign(relevance=[1, 1.5]), run, ["AP"])
    with pytest.raises(ValueError, match=r"qrels\['relevance'\] must hold whole numbers .*"
                                         r"got dtype bool"):
        ek.evaluate(qrels.assign(relevance=[True, False]), run, ["AP"])
    with pytest.raises(ValueError, match=r"run\['query_id'\] must hold strings or whole numbers "
                                         r"\(identifiers\); got 1\.5 in row 0"):
        ek.evaluate(qrels, run.assign(query_id=[1.5]), ["AP"])
    # Negative grades are grades (unjudged), not an error.
    assert ek.evaluate(qrels.assign(relevance=[1, -1]), run, ["AP"]).loc["1", "AP"] == 1.0
