"""nDCG and DCG with ties="average" (McSherry & Najork 2008), one list and whole runs.

The tie-aware DCG of a ranking is the mean of the ordinary (trec_eval-style) DCG over every
order of each block of documents with equal score. The oracles:

- brute force: that mean, over every permutation of every tied block, on hundreds of small
  random lists and runs (cutoffs inside tied blocks included), exact to 1e-12;
- scikit-learn's ``ndcg_score``, whose default (``ignore_ties=False``) is McSherry & Najork's;
- hand-computed values; without ties, the values of the default rule bit for bit.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import dcg_score, ndcg_score

import evalkit as ek
from evalkit.trec import _evaluate

VARIANTS = ("trec", "exponential", "jarvelin")


def _blocks(scores):
    """Slices of the blocks of equal scores of a list in rank order."""
    starts = [0] + [i for i in range(1, len(scores)) if scores[i] != scores[i - 1]]
    return [slice(a, b) for a, b in zip(starts, starts[1:] + [len(scores)], strict=True)]


def _orders(gains, scores):
    """Every list of gains obtained by permuting the gains within each tied block."""
    gains = list(gains)
    per_block = [itertools.permutations(gains[block]) for block in _blocks(scores)]
    for parts in itertools.product(*per_block):
        yield [g for part in parts for g in part]


def _brute(measure, gains, scores, **options):
    values = [measure(order, **options) for order in _orders(gains, scores)]
    return float(np.mean(values))


def _random_list(rng, n_max=6):
    n = int(rng.integers(1, n_max + 1))
    gains = rng.integers(0, 4, size=n)
    scores = np.sort(rng.integers(0, 3, size=n))[::-1].astype(float)  # many ties
    return gains, scores


# ---------------------------------------------------------------------------------------------
# One list
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_single_list_is_the_mean_over_every_order_of_each_tied_block(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(60):
        gains, scores = _random_list(rng)
        variant = VARIANTS[int(rng.integers(3))]
        k = None if rng.random() < 0.3 else int(rng.integers(1, gains.size + 1))
        ideal = None
        if rng.random() < 0.5:  # the query's judgements: more than the list holds
            ideal = np.r_[gains, rng.integers(0, 4, size=int(rng.integers(0, 4)))]
        expected = _brute(ek.dcg, gains, scores, k=k, variant=variant)
        got = ek.dcg(gains, scores=scores, ties="average", k=k, variant=variant)
        assert got == pytest.approx(expected, abs=1e-12, rel=1e-12)
        if gains.sum() > 0 or (ideal is not None and ideal.sum() > 0):
            expected = _brute(ek.ndcg, gains, scores, k=k, variant=variant, ideal=ideal)
            got = ek.ndcg(gains, scores=scores, ties="average", k=k, variant=variant,
                          ideal=ideal)
            assert got == pytest.approx(expected, abs=1e-12)
            checked += 1
    assert checked > 30


def test_a_cutoff_inside_a_tied_block_shares_only_the_ranks_within_it():
    # Ranks 2-4 tie (gains 3, 0, 1), k = 3: each of the three documents takes a third of
    # the discounts of ranks 2 and 3; rank 4 is beyond the cutoff.
    gains, scores = [2, 3, 0, 1, 2], [9, 5, 5, 5, 1]
    expected = 2 + (3 + 0 + 1) * (1 / np.log2(3) + 1 / np.log2(4)) / 3
    assert ek.dcg(gains, scores=scores, ties="average", k=3) == pytest.approx(expected, 1e-15)
    assert expected == pytest.approx(_brute(ek.dcg, gains, scores, k=3), abs=1e-12)
    ideal_at_3 = 3 + 2 / np.log2(3) + 2 / np.log2(4)
    assert ek.ndcg(gains, scores=scores, ties="average", k=3) == pytest.approx(
        expected / ideal_at_3, abs=1e-15)


def test_hand_computed_list():
    # Ranks 1 and 2 tie with gains 2 and 1: each gets (1 + 1/log2 3) / 2.
    shared = (1 + 1 / np.log2(3)) / 2
    assert ek.dcg([2, 1, 0], scores=[5, 5, 1], ties="average") == pytest.approx(3 * shared)
    assert ek.ndcg([2, 1, 0], scores=[5, 5, 1], ties="average") == pytest.approx(
        3 * shared / (2 + 1 / np.log2(3)))
    # Every document tied: each gain gets the mean discount of the whole list.
    mean_discount = np.mean(1 / np.log2(np.arange(2, 6)))
    assert ek.dcg([3, 0, 1, 0], scores=[1, 1, 1, 1], ties="average") == pytest.approx(
        4 * mean_discount)


@pytest.mark.parametrize("seed", range(4))
def test_single_list_matches_scikit_learn(seed):
    # scikit-learn's ndcg_score and dcg_score average ties (McSherry & Najork) by default;
    # their ideal comes from the list itself, as ek.ndcg's default.
    rng = np.random.default_rng(100 + seed)
    for _ in range(50):
        n = int(rng.integers(2, 12))
        gains = rng.integers(0, 4, size=n).astype(float)
        scores = rng.integers(0, 4, size=n).astype(float)
        order = np.argsort(-scores, kind="stable")
        k = None if rng.random() < 0.3 else int(rng.integers(1, n + 1))
        ours = ek.dcg(gains[order], scores=scores[order], ties="average", k=k)
        assert ours == pytest.approx(dcg_score([gains], [scores], k=k), abs=1e-12)
        if gains.sum() > 0:
            ours = ek.ndcg(gains[order], scores=scores[order], ties="average", k=k)
            assert ours == pytest.approx(ndcg_score([gains], [scores], k=k), abs=1e-12)


def test_without_ties_the_values_are_the_default_bit_for_bit():
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 30))
        gains = rng.integers(0, 4, size=n)
        scores = np.sort(rng.permutation(1000)[:n])[::-1].astype(float)  # distinct
        variant = VARIANTS[int(rng.integers(3))]
        k = None if rng.random() < 0.3 else int(rng.integers(1, n + 3))
        assert ek.dcg(gains, scores=scores, ties="average", k=k, variant=variant) == ek.dcg(
            gains, k=k, variant=variant)
        if gains.sum():
            assert ek.ndcg(gains, scores=scores, ties="average", k=k, variant=variant) == (
                ek.ndcg(gains, k=k, variant=variant))


def test_the_default_keeps_the_list_order_and_only_checks_scores():
    gains, scores = [0, 2, 1], [5, 5, 1]
    assert ek.ndcg(gains, scores=scores) == ek.ndcg(gains)
    assert ek.ndcg(gains, scores=scores, ties="trec_eval") == ek.ndcg(gains)
    assert ek.ndcg(gains, scores=scores, ties="average") > ek.ndcg(gains)
    assert ek.ndcg(gains, scores=scores, ties="AVERAGE") == ek.ndcg(
        gains, scores=scores, ties="average")  # option names are matched whatever the case


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=12),
       st.one_of(st.none(), st.integers(1, 14)), st.sampled_from(VARIANTS), st.randoms())
def test_single_list_properties(pairs, k, variant, random):
    pairs.sort(key=lambda pair: -pair[1])
    gains, scores = [g for g, _ in pairs], [float(s) for _, s in pairs]
    if not any(gains):
        return
    value = ek.ndcg(gains, scores=scores, ties="average", k=k, variant=variant)
    assert 0.0 <= value <= 1.0 + 1e-12
    # The order of documents within a tied block does not matter.
    shuffled = []
    for block in _blocks(scores):
        part = gains[block]
        random.shuffle(part)
        shuffled += part
    again = ek.ndcg(shuffled, scores=scores, ties="average", k=k, variant=variant)
    assert again == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"ties": "average"}, ValueError, "ties='average' needs scores"),
    ({"ties": "mean", "scores": [3, 2, 1]}, ValueError, "ties must be one of"),
    ({"scores": [3, 2]}, ValueError, r"gains and scores have different lengths \(3 != 2\)"),
    ({"scores": [1, 2, 3]}, ValueError, "scores must not increase down the ranking"),
    ({"scores": [3, np.nan, 1], "ties": "average"}, ValueError, "scores contains NaN"),
    ({"scores": ["a", "b", "c"]}, ValueError, "scores must hold numbers"),
])
def test_bad_scores_and_ties_raise(kwargs, error, message):
    for function in (ek.dcg, ek.ndcg):
        with pytest.raises(error, match=message):
            function([1, 0, 2], **kwargs)


def test_ties_and_scores_are_keyword_only():
    with pytest.raises(TypeError):
        ek.ndcg([1, 0], None, None, None, [2, 1])


# ---------------------------------------------------------------------------------------------
# Whole runs: evaluate's nDCG(ties=average) and DCG(ties=average)
# ---------------------------------------------------------------------------------------------


def _random_collection(rng, n_queries=4, n_docs=9):
    qrels_rows, run_rows = [], []
    for q in range(n_queries):
        judged = rng.choice(n_docs, size=int(rng.integers(1, n_docs)), replace=False)
        qrels_rows += [(f"q{q}", f"d{d}", int(rng.choice([-1, 0, 0, 1, 2, 3])))
                       for d in judged]
        retrieved = rng.choice(n_docs, size=int(rng.integers(1, 8)), replace=False)
        scores = rng.integers(0, 3, size=retrieved.size) / 2  # many ties
        run_rows += [(f"q{q}", f"d{d}", float(s)) for d, s in zip(retrieved, scores,
                                                                     strict=True)]
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    return qrels, run.sample(frac=1.0, random_state=int(rng.integers(1000)))


def _brute_run(qrels, run, k):
    """Per query: the mean over every order of each tied block of the trec-style nDCG@k,
    with unjudged documents gaining 0 and the ideal from the qrels."""
    values = {}
    for query, judged in qrels.groupby("query_id", sort=False):
        retrieved = run[run.query_id == query].sort_values("score", ascending=False)
        if retrieved.empty:
            continue
        grades = judged.set_index("doc_id").relevance
        gains = grades.reindex(retrieved.doc_id).fillna(0).clip(lower=0).to_numpy()
        ideal = grades.clip(lower=0).to_numpy()
        if ideal.sum() == 0:
            values[query] = 0.0
            continue
        values[query] = _brute(ek.ndcg, gains, retrieved.score.to_numpy(), k=k, ideal=ideal)
    return pd.Series(values)


@pytest.mark.parametrize("seed", range(8))
def test_evaluate_is_the_mean_over_every_order_of_each_tied_block(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(6):
        qrels, run = _random_collection(rng)
        k = int(rng.integers(1, 6))
        labels = ["nDCG(ties=average)", f"nDCG(ties=average)@{k}"]
        ours = ek.evaluate(qrels, run, labels)
        for label, cutoff in zip(labels, (None, k), strict=True):
            expected = _brute_run(qrels, run, cutoff).reindex(ours.index)
            np.testing.assert_allclose(ours[label], expected, rtol=0, atol=1e-12)


def _sklearn_run(qrels, run, k):
    """Notebook 07's construction: scikit-learn's tie-averaged ndcg_score per query, the
    missed judged documents below k dummies of grade 0 so that they count only in the ideal."""
    values = {}
    for query, judged in qrels.groupby("query_id", sort=False):
        ranked = run[run.query_id == query]
        if ranked.empty:
            continue
        grades = judged.set_index("doc_id").relevance.clip(lower=0)
        retrieved = grades.reindex(ranked.doc_id, fill_value=0).to_numpy()
        missed = grades.drop(ranked.doc_id, errors="ignore").to_numpy()
        if grades.sum() == 0:
            values[query] = 0.0
            continue
        lowest = ranked.score.min()
        y_true = np.concatenate([retrieved, np.zeros(k), missed])
        y_score = np.concatenate([ranked.score.to_numpy(), np.full(k, lowest - 1.0),
                                  np.full(len(missed), lowest - 2.0)])
        values[query] = ndcg_score([y_true], [y_score], k=k)
    return pd.Series(values)


@pytest.mark.parametrize("seed", range(6))
def test_evaluate_matches_scikit_learn_at_cutoffs(seed):
    rng = np.random.default_rng(2000 + seed)
    for _ in range(5):
        qrels, run = _random_collection(rng, n_queries=6, n_docs=20)
        for k in (1, 3, 5, 10):
            ours = ek.evaluate(qrels, run, [f"nDCG(ties=average)@{k}"]).iloc[:, 0]
            expected = _sklearn_run(qrels, run, k).reindex(ours.index)
            np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12)


def test_evaluate_hand_computed():
    qrels = pd.DataFrame({"query_id": "1", "doc_id": list("abcd"), "relevance": [3, 2, 0, 1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": list("abcdx"),
                        "score": [1.0, 2.0, 2.0, 2.0, 0.5]})
    table = ek.evaluate(qrels, run, ["DCG", "DCG(ties=average)", "nDCG(ties=average)@2",
                                     "IdealDCG"])
    # trec_eval's order d, c, b, a, x: 1/1 + 0 + 2/log2 4 + 3/log2 5.
    assert table.loc["1", "DCG"] == pytest.approx(1 + 2 / 2 + 3 / np.log2(5))
    # b, c, d tie at ranks 1-3: gains 2 + 0 + 1 share the three discounts.
    block = 1 + 1 / np.log2(3) + 1 / 2
    assert table.loc["1", "DCG(ties=average)"] == pytest.approx(3 * block / 3 + 3 / np.log2(5))
    # @2: the block straddles the cutoff; only ranks 1 and 2 are shared. Ideal: 3, 2.
    shared = 3 * (1 + 1 / np.log2(3)) / 3
    assert table.loc["1", "nDCG(ties=average)@2"] == pytest.approx(
        shared / (3 + 2 / np.log2(3)))
    assert table.loc["1", "IdealDCG"] == pytest.approx(3 + 2 / np.log2(3) + 1 / 2)


@pytest.mark.parametrize("seed", range(5))
def test_evaluate_without_ties_is_the_default_bit_for_bit(seed):
    rng = np.random.default_rng(3000 + seed)
    qrels, run = _random_collection(rng, n_queries=8, n_docs=30)
    run = run.assign(score=rng.permutation(len(run)).astype(float))  # distinct scores
    pairs = [("nDCG", "nDCG(ties=average)"), ("nDCG@3", "nDCG(ties=average)@3"),
             ("DCG@5", "DCG(ties=average)@5"), ("nDCG(gains={1:1,2:4,3:9})",
                                                 "nDCG(gains={1:1,2:4,3:9},ties=average)")]
    table = ek.evaluate(qrels, run, [label for pair in pairs for label in pair])
    for default, averaged in pairs:
        np.testing.assert_array_equal(table[default].to_numpy(), table[averaged].to_numpy())


def test_evaluate_ties_with_gains_and_variants_of_the_option():
    rng = np.random.default_rng(4)
    qrels, run = _random_collection(rng, n_queries=6)
    table = ek.evaluate(qrels, run, ["nDCG(ties=average)@5",
                                     "nDCG(gains={0:0,1:1,2:2,3:3},ties=average)@5",
                                     "nDCG(ties='average')@5", "nDCG(ties=trec_eval)@5",
                                     "nDCG@5", "DCG(ties=average)@5", "IdealDCG@5"])
    np.testing.assert_allclose(table.iloc[:, 1], table.iloc[:, 0], atol=1e-15)
    np.testing.assert_array_equal(table.iloc[:, 2], table.iloc[:, 0])
    np.testing.assert_array_equal(table.iloc[:, 3], table["nDCG@5"])
    # The ideal DCG is the same under either rule.
    ratio = np.divide(table["DCG(ties=average)@5"], table["IdealDCG@5"],
                      out=np.zeros(len(table)), where=table["IdealDCG@5"] > 0)
    np.testing.assert_allclose(table["nDCG(ties=average)@5"], ratio, atol=1e-15)


def test_evaluate_leaves_the_callers_run_alone_and_does_not_depend_on_the_pieces(monkeypatch):
    rng = np.random.default_rng(5)
    qrels, run = _random_collection(rng, n_queries=10, n_docs=25)
    before = run.copy()
    labels = ["nDCG(ties=average)", "nDCG(ties=average)@3", "nDCG@3"]
    whole = ek.evaluate(qrels, run, labels)
    pd.testing.assert_frame_equal(run, before)
    monkeypatch.setattr(_evaluate, "_PIECE", 5)  # many pieces, some mid-run
    pd.testing.assert_frame_equal(ek.evaluate(qrels, run, labels), whole)
    ranked = run.sort_values(["query_id", "score"], ascending=[True, False])
    pd.testing.assert_frame_equal(ek.evaluate(qrels, ranked, labels), whole)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_evaluate_properties(seed):
    # In [0, 1], and blind to the names of the documents: renaming them (which changes
    # trec_eval's order within tied blocks) changes nothing.
    rng = np.random.default_rng(seed)
    qrels, run = _random_collection(rng)
    labels = ["nDCG(ties=average)", "nDCG(ties=average)@3"]
    table = ek.evaluate(qrels, run, labels)
    assert ((table >= 0) & (table <= 1 + 1e-12)).all().all()
    names = {f"d{i}": f"n{j}" for i, j in enumerate(rng.permutation(9))}
    renamed = ek.evaluate(qrels.assign(doc_id=qrels.doc_id.map(names)),
                          run.assign(doc_id=run.doc_id.map(names)), labels)
    np.testing.assert_allclose(renamed, table, rtol=0, atol=1e-12)


@pytest.mark.parametrize(("label", "message"), [
    ("nDCG(ties=mean)", "ties is one of trec_eval, average; got 'mean'"),
    ("AP(ties=average)", "AP takes no options; got 'ties'"),
    ("IdealDCG(ties=average)", "IdealDCG takes gains; got 'ties'"),
])
def test_evaluate_bad_ties_raise(label, message):
    qrels = pd.DataFrame({"query_id": "1", "doc_id": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query_id": "1", "doc_id": ["a"], "score": [1.0]})
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ek.evaluate(qrels, run, [label])


def test_the_records_list_ties_as_an_option_of_ndcg_and_dcg():
    from evalkit.trec._registry import MEASURES

    assert "ties" in MEASURES["nDCG"].options and "ties" in MEASURES["DCG"].options
    assert "nDCG(ties=average)@10" in ek.evaluate.__doc__
