"""Friedman and Nemenyi (evalkit.stats.ranks): against scipy, scikit-posthocs, Demšar's
Table 5, hand computations and properties."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
import scipy.stats as ss
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek


def _random_table(rng: np.random.Generator, ties: bool) -> np.ndarray:
    n = int(rng.integers(2, 25))
    k = int(rng.integers(3, 9))
    if ties:  # few distinct values: many ties within rows, some rows all tied
        return rng.integers(0, int(rng.integers(2, 5)), size=(n, k)).astype(float)
    return rng.normal(size=(n, k)) + rng.normal(size=k) * rng.random()


# ---------------------------------------------------------------------------------------------
# Friedman
# ---------------------------------------------------------------------------------------------


def test_friedman_by_hand():
    # Rows rank (1, 2, 3), (1, 2, 3), (2, 1, 3) for best-first columns a, b, c.
    scores = pd.DataFrame({"a": [9, 8, 5], "b": [6, 7, 6], "c": [1, 2, 3]})
    result = ek.friedman_test(scores)
    assert result.ranks.tolist() == pytest.approx([4 / 3, 5 / 3, 3.0])
    assert result.ranks.index.tolist() == ["a", "b", "c"]
    # chi2 = 12 N / (k (k + 1)) * sum R_j^2 - 3 N (k + 1), N = 3, k = 3
    chi2 = 12 * 3 / 12 * ((4 / 3) ** 2 + (5 / 3) ** 2 + 9) - 3 * 3 * 4
    assert result.statistic == pytest.approx(chi2)  # 4.6667
    assert result.pvalue == pytest.approx(np.exp(-chi2 / 2))  # chi2 with 2 df
    f = (3 - 1) * chi2 / (3 * 2 - chi2)
    assert result.f_statistic == pytest.approx(f)  # 7.0
    assert result.f_pvalue == pytest.approx(ss.f.sf(f, 2, 4))
    assert (result.n_datasets, result.n_systems) == (3, 3)


def test_friedman_ties_by_hand():
    # Row 2 ties b and c: ranks (1, 2.5, 2.5); one tie group of t = 2 -> sum t(t^2-1) = 6.
    scores = np.array([[3.0, 2.0, 1.0], [3.0, 1.0, 1.0]])
    result = ek.friedman_test(scores)
    ranks = np.array([1.0, 2.25, 2.75])
    assert result.ranks == pytest.approx(ranks)
    raw = 12 * 2 / 12 * np.sum(ranks**2) - 3 * 2 * 4
    assert result.statistic == pytest.approx(raw / (1 - 6 / (2 * 3 * 8)))


@pytest.mark.parametrize("ties", [False, True])
def test_friedman_agrees_with_scipy_on_random_tables(ties):
    rng = np.random.default_rng(30 + ties)
    checked = 0
    for _ in range(2000):
        table = _random_table(rng, ties)
        result = ek.friedman_test(table)
        # a rank is 1 for the best; scipy ranks ascending, which Friedman's statistic ignores
        assert result.ranks == pytest.approx(ss.rankdata(-table, axis=1).mean(axis=0))
        if np.all(table == table[:, :1]):  # every row one tie: scipy's 0 / 0
            assert (result.statistic, result.pvalue) == (0.0, 1.0)
            continue
        reference = ss.friedmanchisquare(*table.T)
        assert result.statistic == pytest.approx(reference.statistic, rel=1e-9, abs=1e-9)
        assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-8, abs=1e-12)
        n, k = table.shape
        if np.isfinite(result.f_statistic):
            f = (n - 1) * reference.statistic / (n * (k - 1) - reference.statistic)
            assert result.f_statistic == pytest.approx(f, rel=1e-7)
            assert result.f_pvalue == pytest.approx(ss.f.sf(f, k - 1, (k - 1) * (n - 1)),
                                                    rel=1e-6, abs=1e-12)
        checked += 1
    assert checked > 1900  # the rest are tables of one tie throughout


def test_friedman_with_two_systems_is_a_sign_test_statistic():
    # k = 2, no ties: chi2 = (wins - losses)^2 / N, the sign test's chi-square.
    rng = np.random.default_rng(3)
    table = rng.normal(size=(20, 2))
    wins = int(np.sum(table[:, 0] > table[:, 1]))
    result = ek.friedman_test(table)
    assert result.statistic == pytest.approx((2 * wins - 20) ** 2 / 20)


def test_friedman_when_every_row_ranks_alike():
    result = ek.friedman_test([[3, 2, 1], [30, 20, 10], [0.3, 0.2, 0.1]])
    assert result.statistic == pytest.approx(3 * 2)  # N (k - 1), the largest value
    assert result.f_statistic == np.inf
    assert result.f_pvalue == 0.0


def test_friedman_unpacks_and_array_ranks():
    statistic, pvalue = ek.friedman_test([[1, 2, 3], [2, 3, 1]])
    assert 0 <= pvalue <= 1 and statistic >= 0
    assert isinstance(ek.friedman_test([[1, 2], [2, 3]]).ranks, np.ndarray)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(2, 7), st.integers(0, 2**32 - 1))
def test_friedman_ranks_properties(n, k, seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 4, size=(n, k)).astype(float)
    result = ek.friedman_test(table)
    assert result.ranks.sum() == pytest.approx(k * (k + 1) / 2)
    # only the order within each row counts: a monotone map per row changes nothing
    mapped = np.exp(table) * rng.uniform(0.5, 2, size=(n, 1)) + rng.normal(size=(n, 1))
    again = ek.friedman_test(mapped)
    assert again.statistic == pytest.approx(result.statistic, abs=1e-9)
    assert again.ranks == pytest.approx(result.ranks)
    # permuting the systems permutes their ranks; the statistic stays
    order = rng.permutation(k)
    permuted = ek.friedman_test(table[:, order])
    assert permuted.ranks == pytest.approx(result.ranks[order])
    assert permuted.statistic == pytest.approx(result.statistic, abs=1e-9)
    assert 0.0 <= result.pvalue <= 1.0 and 0.0 <= result.f_pvalue <= 1.0


# ---------------------------------------------------------------------------------------------
# Nemenyi
# ---------------------------------------------------------------------------------------------

DEMSAR_Q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
DEMSAR_Q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]


@pytest.mark.parametrize(("alpha", "table"), [(0.05, DEMSAR_Q05), (0.10, DEMSAR_Q10)])
def test_nemenyi_q_alpha_is_demsars_table_5(alpha, table):
    for k, expected in zip(range(2, 11), table, strict=True):
        result = ek.nemenyi_test(np.arange(2 * k).reshape(2, k), alpha=alpha)
        # Demšar's table is printed to 3 decimals (2.343 and 2.949 are 2.3437 and 2.9486)
        assert result.q_alpha == pytest.approx(expected, abs=1.5e-3)
        assert result.critical_difference == pytest.approx(
            result.q_alpha * np.sqrt(k * (k + 1) / 12))


def test_nemenyi_demsar_example_critical_difference():
    # Demšar (2006), section 3.2.4: k = 4, N = 14, CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25
    result = ek.nemenyi_test(np.random.default_rng(0).normal(size=(14, 4)))
    assert result.critical_difference == pytest.approx(1.25, abs=0.005)


def test_nemenyi_two_systems_is_the_normal_test_of_the_rank_difference():
    table = np.array([[1.0, 0.0]] * 7 + [[0.0, 1.0]] * 3)
    result = ek.nemenyi_test(table)
    z = (1.7 - 1.3) / np.sqrt(2 * 3 / (6 * 10))
    assert result.pvalues.iloc[0, 1] == pytest.approx(2 * ss.norm.sf(z), rel=1e-6)


@pytest.mark.parametrize("ties", [False, True])
def test_nemenyi_agrees_with_scikit_posthocs_on_random_tables(ties):
    sp = pytest.importorskip("scikit_posthocs")
    rng = np.random.default_rng(300 + ties)
    for _ in range(1000):
        table = _random_table(rng, ties)
        result = ek.nemenyi_test(table)
        reference = sp.posthoc_nemenyi_friedman(table).to_numpy()
        np.testing.assert_allclose(result.pvalues.to_numpy(), reference, rtol=1e-7,
                                   atol=1e-12)


def _brute_force_groups(ranks: np.ndarray, cd: float) -> set[frozenset[int]]:
    k = len(ranks)
    subsets = (s for size in range(2, k + 1) for s in itertools.combinations(range(k), size))
    close = [frozenset(s) for s in subsets
             if max(ranks[list(s)]) - min(ranks[list(s)]) < cd]
    return {s for s in close if not any(s < other for other in close)}


def test_nemenyi_groups_are_the_maximal_sets_of_close_systems():
    rng = np.random.default_rng(7)
    for _ in range(500):
        table = _random_table(rng, ties=bool(rng.integers(2)))
        result = ek.nemenyi_test(table, alpha=float(rng.choice([0.01, 0.05, 0.1])))
        groups = {frozenset(g) for g in result.groups}
        assert len(groups) == len(result.groups)
        assert groups == _brute_force_groups(np.asarray(result.ranks),
                                             result.critical_difference)
        for group in result.groups:  # listed best first
            assert list(result.ranks[list(group)]) == sorted(result.ranks[list(group)])
            # the pairs inside a group are the non-significant ones
            for i, j in itertools.combinations(group, 2):
                assert result.pvalues.loc[i, j] > result.alpha - 1e-9


def test_nemenyi_with_names():
    scores = pd.DataFrame({"x": [0.1, 0.2, 0.3, 0.2], "y": [0.5, 0.6, 0.7, 0.8],
                           "z": [0.3, 0.1, 0.2, 0.1]})
    result = ek.nemenyi_test(scores)
    assert result.pvalues.index.tolist() == ["x", "y", "z"]
    assert result.pvalues.columns.tolist() == ["x", "y", "z"]
    assert result.ranks["y"] == 1.0
    assert result.rank_differences.loc["y", "x"] == pytest.approx(result.ranks["x"] - 1.0)
    assert np.all(np.diag(result.pvalues) == 1.0)
    pvalues, cd = result
    assert cd == result.critical_difference


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("function", [ek.friedman_test, ek.nemenyi_test])
@pytest.mark.parametrize(("scores", "message"), [
    ([[1.0], [2.0]], "at least 2 .one column per system"),
    ([[1.0, 2.0]], "at least 2 .one row per data set"),
    ([[1.0, np.nan], [2.0, 3.0]], "NaN at row 0, column 1"),
    ([[1.0, np.inf], [2.0, 3.0]], "infinite value"),
    ([1.0, 2.0, 3.0], "must be 2-D"),
    ([["a", "b"], ["c", "d"]], "must hold numbers"),
    (pd.DataFrame({"a": [1.0, np.nan], "b": [1.0, 2.0]}), "NaN at row 1, column 'a'"),
    (pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]}), r"scores\['a'\] must hold numbers"),
])
def test_bad_scores(function, scores, message):
    with pytest.raises(ValueError, match=message):
        function(scores)


@pytest.mark.parametrize("function", [ek.friedman_test, ek.nemenyi_test])
def test_scores_of_the_wrong_kind(function):
    with pytest.raises(TypeError, match="scores must be a DataFrame"):
        function("scores")


@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1, 1.5])
def test_nemenyi_alpha_outside_zero_one(alpha):
    with pytest.raises(ValueError, match="alpha"):
        ek.nemenyi_test([[1, 2], [2, 1]], alpha=alpha)


def test_nemenyi_alpha_is_keyword_only():
    with pytest.raises(TypeError, match="nemenyi_test.scores, alpha=0.1."):
        ek.nemenyi_test([[1, 2], [2, 1]], 0.1)


def test_friedman_with_nothing_to_rank():
    result = ek.friedman_test([[0.5, 0.5, 0.5], [0.2, 0.2, 0.2]])
    assert (result.statistic, result.pvalue, result.f_statistic, result.f_pvalue) == (
        0.0, 1.0, 0.0, 1.0)
    assert result.ranks == pytest.approx([2.0, 2.0, 2.0])
    assert ek.nemenyi_test([[0.5, 0.5, 0.5], [0.2, 0.2, 0.2]]).groups == [(0, 1, 2)]


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 15), st.integers(2, 8), st.sampled_from([0.01, 0.05, 0.1]),
       st.integers(0, 2**32 - 1))
def test_nemenyi_pvalues_and_critical_difference_tell_the_same_story(n, k, alpha, seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 5, size=(n, k)).astype(float)
    result = ek.nemenyi_test(table, alpha=alpha)
    pvalues = result.pvalues.to_numpy()
    assert np.array_equal(pvalues, pvalues.T)
    assert np.all((pvalues >= 0) & (pvalues <= 1))
    differences = result.rank_differences.to_numpy()
    off_diagonal = ~np.eye(k, dtype=bool)
    clear = np.abs(differences - result.critical_difference) > 1e-9
    # p <= alpha exactly when the ranks differ by at least the CD
    assert np.array_equal((pvalues <= alpha)[off_diagonal & clear],
                          (differences >= result.critical_difference)[off_diagonal & clear])
    # a larger difference never has a larger p-value
    order = np.argsort(differences[off_diagonal])
    assert np.all(np.diff(pvalues[off_diagonal][order]) <= 1e-12)
    # every system in a group is within the CD of every other in it
    for group in result.groups:
        assert np.ptp(result.ranks[list(group)]) < result.critical_difference
