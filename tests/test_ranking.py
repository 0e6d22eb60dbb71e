"""evalkit.ranking: one ranked list, checked by hand, against scikit-learn and by properties."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import evalkit as ek
from evalkit.exceptions import UndefinedMetricWarning

sklearn_metrics = pytest.importorskip("sklearn.metrics")

R, N = 1, 0
FIRST = [R, N, R, N, N, N, N, N, R, R]  # the course notes' two rankings, four relevant each
SECOND = [N, R, N, N, R, R, R, N, N, N]

grades = st.lists(st.integers(0, 3), min_size=1, max_size=30)


# ---------------------------------------------------------------------------------------------
# Hand-computed values (course notes, textbook examples)
# ---------------------------------------------------------------------------------------------


def test_precision_at_k_by_hand():
    assert ek.precision_at_k([1, 0, 0, 1, 0], k=5) == 0.4
    assert ek.precision_at_k([1, 0, 0, 1, 0], k=2) == 0.5
    assert ek.precision_at_k([1, 1], k=4) == 0.5  # a short list is padded with non-relevant
    assert ek.precision_at_k([2, 1, 0], k=3, relevance_level=2) == pytest.approx(1 / 3)


def test_the_notes_two_rankings():
    assert ek.average_precision(FIRST) == pytest.approx((1 + 2 / 3 + 3 / 9 + 4 / 10) / 4)
    assert ek.average_precision(FIRST) == pytest.approx(0.6)
    assert ek.average_precision(SECOND) == pytest.approx((1 / 2 + 2 / 5 + 3 / 6 + 4 / 7) / 4)
    assert round(ek.average_precision(SECOND), 2) == 0.49
    assert ek.r_precision(FIRST) == 0.5
    assert ek.r_precision(SECOND) == 0.25


def test_average_precision_denominators():
    # Relevant at ranks 1, 3, 6, 10, 15: precisions 1, 2/3, 1/2, 2/5, 1/3.
    ranking = np.zeros(15)
    ranking[[0, 2, 5, 9, 14]] = 1
    precisions = [1, 2 / 3, 1 / 2, 2 / 5, 1 / 3]
    retrieved = ek.average_precision(ranking, denominator="retrieved_relevant")
    assert retrieved == pytest.approx(np.mean(precisions))
    assert round(retrieved, 2) == 0.58
    assert ek.average_precision(ranking, n_relevant=8) == pytest.approx(sum(precisions) / 8)
    assert ek.average_precision(ranking, n_relevant=8, k=6) == pytest.approx(
        (1 + 2 / 3 + 1 / 2) / 8)


def test_recall_and_reciprocal_rank_by_hand():
    assert ek.recall_at_k(FIRST, k=3) == 0.5
    assert ek.recall_at_k(FIRST, k=3, n_relevant=8) == 0.25
    assert ek.reciprocal_rank(SECOND) == 0.5
    assert ek.reciprocal_rank([0, 0, 0]) == 0.0
    assert ek.reciprocal_rank([0, 0, 1], k=2) == 0.0


def test_dcg_conventions_on_the_notes_example():
    gains = [2, 1, 0, 2, 0]
    assert ek.dcg(gains, variant="jarvelin") == pytest.approx(4.0)
    assert ek.dcg([2, 2, 1, 0, 0], variant="jarvelin") == pytest.approx(4 + 1 / np.log2(3))
    assert round(ek.dcg([2, 2, 1, 0, 0], variant="jarvelin"), 2) == 4.63
    assert round(ek.ndcg(gains, variant="jarvelin"), 2) == 0.86
    trec = 2 + 1 / np.log2(3) + 2 / np.log2(5)
    assert ek.dcg(gains) == pytest.approx(trec)
    assert round(ek.dcg(gains), 2) == 3.49
    exponential = 3 + 1 / np.log2(3) + 3 / np.log2(5)
    assert ek.dcg(gains, variant="exponential") == pytest.approx(exponential)
    assert ek.dcg(gains, k=2) == pytest.approx(2 + 1 / np.log2(3))


def test_ndcg_ideal_from_the_judgements():
    gains = [2, 1, 0]
    assert ek.ndcg(gains) == 1.0  # ideal from the list itself: flattering
    with_missed = ek.ndcg(gains, ideal=[3, 2, 1, 0])
    assert with_missed == pytest.approx(ek.dcg(gains) / ek.dcg([3, 2, 1]))
    assert ek.ndcg(gains, k=1, ideal=[3, 2, 1]) == pytest.approx(2 / 3)


def test_interpolated_precision_conventions_by_hand():
    # Precision 1 at recall 1/3, 2/3 at 2/3, 3/7 at 1.
    ranking = [1, 0, 1, 0, 0, 0, 1]
    textbook = [1, 1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 3 / 7, 3 / 7, 3 / 7, 3 / 7]
    np.testing.assert_allclose(ek.interpolated_precision(ranking), textbook)
    # Level 0.7: 0.7 * 3 + 0.9 = 2.999... in floating point, so trec_eval 9 stops at the 2nd hit.
    trec_eval_9 = [1, 1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 2 / 3, 3 / 7, 3 / 7, 3 / 7]
    np.testing.assert_allclose(
        ek.interpolated_precision(ranking, convention="trec_eval"), trec_eval_9)
    # trec_eval 10: lround(0.4 * 3) = 1, lround(0.8 * 3) = 2.
    trec_eval_10 = [1, 1, 1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 2 / 3, 3 / 7, 3 / 7]
    np.testing.assert_allclose(
        ek.interpolated_precision(ranking, convention="trec_eval_10"), trec_eval_10)
    for convention in ("textbook", "trec_eval", "trec_eval_10"):
        np.testing.assert_allclose(
            ek.interpolated_precision([1, 0, 0, 1, 1], recall_levels=[0.0, 0.5, 1.0], n_relevant=4,
                                      convention=convention), [1, 0.6, 0])


def _textbook_by_brute_force(relevance, levels, n_relevant):
    relevant = np.asarray(relevance) >= 1
    hits = np.cumsum(relevant)
    precision = hits / np.arange(1, relevant.size + 1)
    recall = hits / n_relevant
    return [precision[recall >= r].max() if (recall >= r).any() else 0.0 for r in levels]


def _trec_eval_loop(relevance, levels, n_relevant, count):
    """trec_eval's te_calc_iprec_at_recall, line by line; ``count`` turns a level into a
    number of relevant documents (the part that changed between versions 9 and 10)."""
    rel = [g >= 1 for g in relevance]
    num_ret, num_rel_ret = len(rel), sum(rel)
    cutoffs = [count(level, n_relevant) for level in levels]
    values = [0.0] * len(levels)
    current = len(levels) - 1
    while current >= 0 and cutoffs[current] > num_rel_ret:
        current -= 1
    int_precis = num_rel_ret / num_ret
    rel_so_far = num_rel_ret
    i = num_ret
    while i > 0 and rel_so_far > 0:
        int_precis = max(int_precis, rel_so_far / i)
        if rel[i - 1]:
            while current >= 0 and rel_so_far == cutoffs[current]:
                values[current] = int_precis
                current -= 1
            rel_so_far -= 1
        i -= 1
    while current >= 0:
        values[current] = int_precis
        current -= 1
    return values


def _lround(x):
    """C's lround for x >= 0: nearest integer, halves away from zero (Python's round() rounds
    halves to even)."""
    nearest = round(x)
    return nearest + 1 if x - int(x) == 0.5 and nearest == int(x) else nearest


LEVEL_SETS = [list(np.round(np.linspace(0, 1, 11), 1)), [0.05, 0.25, 0.33, 0.5, 0.67, 0.75, 0.99]]


@given(st.lists(st.integers(0, 2), min_size=1, max_size=40), st.integers(0, 6),
       st.sampled_from(LEVEL_SETS))
def test_interpolated_precision_textbook_is_the_brute_force_maximum(relevance, missed, levels):
    n_relevant = sum(g >= 1 for g in relevance) + missed
    if n_relevant == 0:
        return
    np.testing.assert_allclose(
        ek.interpolated_precision(relevance, recall_levels=levels, n_relevant=n_relevant),
        _textbook_by_brute_force(relevance, levels, n_relevant))


@given(st.lists(st.integers(0, 1), min_size=1, max_size=40), st.integers(0, 6),
       st.lists(st.floats(0, 1), min_size=1, max_size=8))
def test_interpolated_precision_textbook_at_any_level(relevance, missed, levels):
    n_relevant = sum(relevance) + missed
    if n_relevant == 0:
        return
    np.testing.assert_allclose(
        ek.interpolated_precision(relevance, recall_levels=levels, n_relevant=n_relevant),
        _textbook_by_brute_force(relevance, levels, n_relevant))


@given(st.lists(st.integers(0, 1), min_size=1, max_size=40), st.integers(0, 6),
       st.sampled_from(LEVEL_SETS))
def test_interpolated_precision_trec_eval_10_is_lround(relevance, missed, levels):
    n_relevant = sum(relevance) + missed
    if n_relevant == 0:
        return
    expected = _trec_eval_loop(relevance, levels, n_relevant,
                               lambda level, total: _lround(level * total))
    np.testing.assert_allclose(
        ek.interpolated_precision(relevance, recall_levels=levels, n_relevant=n_relevant,
                                  convention="trec_eval_10"),
        expected)
    assert _lround(0.5) == 1 and _lround(1.5) == 2 and _lround(2.5) == 3 and _lround(2.4) == 2


def test_interpolated_precision_trec_eval_matches_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(11)
    lists, qrels, run = {}, {}, {}
    for q in range(400):
        length = int(rng.integers(1, 30))
        relevance = (rng.random(length) < rng.uniform(0.05, 0.6)).astype(int)
        missed = int(rng.integers(0, 5))
        n_relevant = int(relevance.sum()) + missed
        if n_relevant == 0:
            continue
        query = f"q{q}"
        lists[query] = (relevance, n_relevant)
        qrels[query] = {f"d{i}": int(g) for i, g in enumerate(relevance)}
        qrels[query].update({f"missed{i}": 1 for i in range(missed)})
        run[query] = {f"d{i}": float(length - i) for i in range(length)}
    result = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)
    levels = np.round(np.linspace(0, 1, 11), 1)
    keys = [f"iprec_at_recall_{level:.2f}" for level in levels]
    for query, (relevance, n_relevant) in lists.items():
        expected = [result[query][key] for key in keys]
        np.testing.assert_allclose(
            ek.interpolated_precision(relevance, n_relevant=n_relevant, convention="trec_eval"),
            expected, atol=1e-12)
        # The transcription of trec_eval's loop agrees too, with version 9's count.
        np.testing.assert_allclose(
            _trec_eval_loop(list(relevance), levels, n_relevant,
                            lambda level, total: max(int(level * total + 0.9), 0)),
            expected, atol=1e-12)


def test_precision_recall_points():
    points = ek.precision_recall_points([1, 0, 1], n_relevant=4)
    assert points["rank"].tolist() == [1, 2, 3]
    np.testing.assert_allclose(points["precision"], [1, 0.5, 2 / 3])
    np.testing.assert_allclose(points["recall"], [0.25, 0.25, 0.5])


def test_zero_relevant_follows_zero_division():
    with pytest.warns(UndefinedMetricWarning, match="no relevant documents"):
        assert ek.average_precision([0, 0]) == 0.0
    assert np.isnan(ek.r_precision([0, 0], zero_division=np.nan))
    assert ek.recall_at_k([0, 0], k=1, zero_division=1.0) == 1.0
    with pytest.warns(UndefinedMetricWarning, match="ideal DCG is 0"):
        assert ek.ndcg([0, 0]) == 0.0


# ---------------------------------------------------------------------------------------------
# scikit-learn as the oracle for DCG/nDCG ("trec" convention)
# ---------------------------------------------------------------------------------------------


@given(st.lists(st.integers(0, 3), min_size=2, max_size=30), st.integers(1, 40))
def test_dcg_and_ndcg_match_scikit_learn(gains, k):
    gains = np.asarray(gains, dtype=float)
    # Distinct decreasing scores: scikit-learn's ranking is then exactly the list order.
    scores = np.arange(gains.size, 0, -1)[None, :].astype(float)
    k_eff = min(k, gains.size)
    assert ek.dcg(gains, k=k) == pytest.approx(
        sklearn_metrics.dcg_score(gains[None, :], scores, k=k_eff), abs=1e-12)
    if gains.sum() > 0:
        assert ek.ndcg(gains, k=k) == pytest.approx(
            sklearn_metrics.ndcg_score(gains[None, :], scores, k=k_eff), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------


@given(grades, st.integers(1, 40))
def test_measures_lie_in_zero_one_and_recall_grows_with_k(relevance, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for value in (
            ek.precision_at_k(relevance, k=k),
            ek.recall_at_k(relevance, k=k),
            ek.r_precision(relevance),
            ek.average_precision(relevance),
            ek.reciprocal_rank(relevance),
            ek.ndcg(relevance, k=k),
        ):
            assert 0.0 <= value <= 1.0 + 1e-12
        assert ek.recall_at_k(relevance, k=k) <= ek.recall_at_k(relevance, k=k + 1)


@given(grades)
def test_a_perfect_ranking_scores_one(relevance):
    best = sorted(relevance, reverse=True)
    if best[0] == 0:
        return
    assert ek.average_precision(best) == pytest.approx(1.0)
    assert ek.r_precision(best) == 1.0
    assert ek.reciprocal_rank(best) == 1.0
    for variant in ("trec", "exponential", "jarvelin"):
        assert ek.ndcg(best, variant=variant) == pytest.approx(1.0)
        assert ek.ndcg(relevance, variant=variant) <= 1.0 + 1e-12


@given(grades)
def test_interpolated_precision_never_increases_with_recall(relevance):
    curve = ek.interpolated_precision(relevance)
    assert np.all(np.diff(curve) <= 1e-12)


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ek.precision_at_k([], k=3), "relevance is empty"),
        (lambda: ek.precision_at_k([[1, 0], [0, 1]], k=3), "relevance must be 1-D"),
        (lambda: ek.precision_at_k([1, np.nan], k=3), "relevance contains nan at rank 2"),
        (lambda: ek.precision_at_k(["a", "b"], k=1), "numeric relevance grades"),
        (lambda: ek.precision_at_k([1, 0], k=0), "k must be a whole number >= 1; got 0"),
        (lambda: ek.precision_at_k([1, 0], k=2.5), "k must be a whole number >= 1; got 2.5"),
        (lambda: ek.recall_at_k([1, 0], k=1, n_relevant=-1),
         "n_relevant must be a whole number >= 0"),
        (lambda: ek.average_precision([1], k=0), "k must be a whole number >= 1"),
        (lambda: ek.r_precision([1], relevance_level=np.nan), "relevance_level must be a real"),
        (lambda: ek.recall_at_k([1, 1], k=1, n_relevant=1), "n_relevant is 1, but the ranking"),
        (lambda: ek.average_precision([1], denominator="all"), "denominator must be one of"),
        (lambda: ek.dcg([1, 0], variant="log"), "variant must be one of"),
        (lambda: ek.ndcg([1, 0], ideal=[]), "ideal is empty"),
        (lambda: ek.interpolated_precision([1], recall_levels=[0.5, 2.0]),
         r"recall_levels must lie in \[0, 1\]"),
        (lambda: ek.interpolated_precision([1], convention="trec"), "convention must be one of"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ek.precision_at_k([1, 0], k=True), "k must be a whole number >= 1; got True"),
        (lambda: ek.precision_at_k([1, 0], k="3"), "k must be a whole number >= 1; got the string"),
        (lambda: ek.precision_at_k([1, 0], k=None), "k must be a whole number >= 1"),
        (lambda: ek.recall_at_k([1], k=1, n_relevant="2"),
         "n_relevant must be a whole number >= 0"),
        (lambda: ek.r_precision([1], relevance_level="high"), "relevance_level must be a real"),
        (lambda: ek.ndcg([1, 0], k=True), "k must be a whole number >= 1; got True"),
    ],
)
def test_the_wrong_kind_of_option_is_a_type_error(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_a_real_relevance_level_and_whole_float_options_are_accepted():
    assert ek.precision_at_k([2, 1, 0], k=3.0, relevance_level=1.5) == pytest.approx(1 / 3)
    assert ek.average_precision([2, 1, 0], n_relevant=2.0, relevance_level=0.5) == 1.0


def test_a_positional_option_is_a_type_error_that_shows_the_keyword_call():
    # The trap the rule closes: a bare 2 meant R for AP but k for recall@k.
    message = r"write average_precision\(relevance, n_relevant=2\)"
    with pytest.raises(TypeError, match=message):
        ek.average_precision([1, 0, 1], 2)
    with pytest.raises(TypeError, match=r"write recall_at_k\(relevance, k=2\)"):
        ek.recall_at_k([1, 0, 1], 2)
    with pytest.raises(TypeError, match=r"write ndcg\(gains, k=3, variant='trec'\)"):
        ek.ndcg([2, 1, 0], 3, "trec")
    # Spelled out, the two calls mean different things and give different numbers.
    assert ek.average_precision([1, 0, 1], n_relevant=2) == pytest.approx((1 + 2 / 3) / 2)
    assert ek.recall_at_k([1, 0, 1], k=2) == 0.5
    assert ek.ranking.average_precision is ek.average_precision


@pytest.mark.parametrize("convention", ["textbook", "trec_eval", "trec_eval_10"])
def test_eleven_point_average_is_the_mean_of_the_eleven_point_curve(convention):
    rng = np.random.default_rng(11)
    for _ in range(50):
        ranking = (rng.random(rng.integers(1, 30)) < 0.3).astype(int)
        n_relevant = int(ranking.sum()) + int(rng.integers(0, 3))
        curve = ek.interpolated_precision(ranking, n_relevant=n_relevant, convention=convention)
        assert ek.eleven_point_average(ranking, n_relevant=n_relevant,
                                       convention=convention) == pytest.approx(curve.mean())
    # By hand: relevant at 1, 3, 7 of R = 3 -> (4 x 1 + 3 x 2/3 + 4 x 3/7) / 11.
    assert ek.eleven_point_average([1, 0, 1, 0, 0, 0, 1]) == pytest.approx(
        (4 + 3 * 2 / 3 + 4 * 3 / 7) / 11)
    assert ek.eleven_point_average([0, 0]) == 0.0


def test_eleven_point_average_matches_trec_evals_11pt_avg():
    qrels = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["a", "b", "c", "z"],
                          "relevance": [1, 1, 1, 1]})
    run = pd.DataFrame({"query_id": ["q"] * 7, "doc_id": list("axbyzwc"),
                        "score": np.arange(7, 0, -1.0)})
    ranking = [1, 0, 1, 0, 1, 0, 1]
    expected = ek.evaluate(qrels, run, ["IPrecAvg"])["IPrecAvg"].iloc[0]
    assert ek.eleven_point_average(ranking, convention="trec_eval") == pytest.approx(expected)
