"""Two classifiers on one test set (evalkit/stats/classifiers.py): McNemar, randomization and
bootstrap comparisons of any metric, 5x2cv and the corrected resampled t test, against
statsmodels, mlxtend, scipy and plain loops."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

import evalkit as ek
from evalkit.stats import mcnemar_test

sm_tables = pytest.importorskip("statsmodels.stats.contingency_tables")
mlxtend_evaluate = pytest.importorskip("mlxtend.evaluate")


def _three(rng, n, k, p_a=0.7, p_b=0.6):
    y_true = rng.integers(0, k, n)
    a = np.where(rng.random(n) < p_a, y_true, rng.integers(0, k, n))
    b = np.where(rng.random(n) < p_b, y_true, rng.integers(0, k, n))
    return y_true, a, b


# ---------------------------------------------------------------------------------------------
# McNemar
# ---------------------------------------------------------------------------------------------


def test_mcnemar_by_hand():
    # 4 items only A right, 1 only B right, 3 both right, 2 both wrong.
    y_true = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    a = [1, 1, 1, 1, 0, 1, 1, 1, 0, 0]
    b = [0, 0, 0, 0, 1, 1, 1, 1, 0, 0]
    result = mcnemar_test(y_true, a, b)
    assert (result.a_only_correct, result.b_only_correct) == (4, 1)
    assert (result.both_correct, result.both_wrong) == (3, 2)
    # P(X <= 1), X ~ Bin(5, 1/2) = (1 + 5) / 32; two-sided doubles it.
    assert result.statistic == 1
    assert result.pvalue == pytest.approx(2 * 6 / 32)
    assert result.method == "exact"
    assert mcnemar_test(y_true, a, b, method="mid-p").pvalue == pytest.approx(12 / 32 - 5 / 32)
    chi2 = mcnemar_test(y_true, a, b, method="chi2")
    assert chi2.statistic == pytest.approx((3 - 1) ** 2 / 5)
    assert chi2.pvalue == pytest.approx(math.erfc(math.sqrt(0.8 / 2)))
    plain = mcnemar_test(y_true, a, b, method="chi2-uncorrected")
    assert plain.statistic == pytest.approx(9 / 5)
    assert plain.pvalue == pytest.approx(math.erfc(math.sqrt(1.8 / 2)))
    statistic, pvalue = result  # unpacks like scipy's results
    assert (statistic, pvalue) == (result.statistic, result.pvalue)


def test_mcnemar_swapping_a_and_b_swaps_the_counts_not_the_p_value():
    rng = np.random.default_rng(3)
    y_true, a, b = _three(rng, 200, 4)
    for method in ("exact", "mid-p", "chi2", "chi2-uncorrected"):
        ab, ba = mcnemar_test(y_true, a, b, method=method), mcnemar_test(y_true, b, a,
                                                                          method=method)
        assert (ab.a_only_correct, ab.b_only_correct) == (ba.b_only_correct,
                                                          ba.a_only_correct)
        assert ab.pvalue == pytest.approx(ba.pvalue, rel=1e-12)


def test_mcnemar_without_discordant_items_is_p_one():
    y_true = ["cat", "dog", "cat"]
    for method in ("exact", "mid-p", "chi2", "chi2-uncorrected"):
        result = mcnemar_test(y_true, ["cat", "cat", "cat"], ["cat", "cat", "cat"],
                              method=method)
        assert (result.statistic, result.pvalue) == (0.0, 1.0)
        assert (result.a_only_correct, result.b_only_correct) == (0, 0)


def test_mcnemar_mid_p_is_one_for_a_tie_and_below_exact_otherwise():
    y_true = np.ones(6, dtype=int)
    a = np.array([1, 1, 1, 0, 0, 0])
    b = np.array([0, 0, 0, 1, 1, 1])
    assert mcnemar_test(y_true, a, b, method="mid-p").pvalue == pytest.approx(1.0)
    rng = np.random.default_rng(5)
    for _ in range(200):
        y_true, a, b = _three(rng, int(rng.integers(5, 60)), 3)
        exact = mcnemar_test(y_true, a, b).pvalue
        mid = mcnemar_test(y_true, a, b, method="mid-p").pvalue
        assert mid <= exact + 1e-15


def _oracle_table(y_true, a, b):
    right_a, right_b = a == y_true, b == y_true
    return np.array([[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
                     [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]])


def test_mcnemar_matches_statsmodels_and_mlxtend_on_thousands_of_cases():
    rng = np.random.default_rng(2026)
    cases = 0
    for _ in range(3000):
        n = int(rng.integers(1, 300))
        k = int(rng.integers(2, 6))
        y_true, a, b = _three(rng, n, k, p_a=rng.random(), p_b=rng.random())
        table = _oracle_table(y_true, a, b)
        if table[0, 1] + table[1, 0] == 0:
            continue
        cases += 1
        exact = mcnemar_test(y_true, a, b)
        theirs = sm_tables.mcnemar(table, exact=True)
        assert exact.statistic == theirs.statistic
        assert exact.pvalue == pytest.approx(theirs.pvalue, rel=1e-12, abs=1e-300)
        assert exact.pvalue == pytest.approx(mlxtend_evaluate.mcnemar(table, exact=True)[1],
                                             rel=1e-12, abs=1e-300)
        for method, correction in (("chi2", True), ("chi2-uncorrected", False)):
            ours = mcnemar_test(y_true, a, b, method=method)
            theirs = sm_tables.mcnemar(table, exact=False, correction=correction)
            assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
            assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9, abs=1e-300)
            chi2, p = mlxtend_evaluate.mcnemar(table, exact=False, corrected=correction)
            assert ours.statistic == pytest.approx(chi2, rel=1e-12)
            assert ours.pvalue == pytest.approx(p, rel=1e-9, abs=1e-300)
        # mid-p: Fagerland et al.'s formula, from scipy's binomial directly.
        b_, c_ = table[0, 1], table[1, 0]
        m = min(b_, c_)
        expected = 2 * scipy_stats.binom.cdf(m, b_ + c_, 0.5) - scipy_stats.binom.pmf(
            m, b_ + c_, 0.5)
        assert mcnemar_test(y_true, a, b, method="mid-p").pvalue == pytest.approx(
            min(1.0, expected), rel=1e-12, abs=1e-300)
    assert cases > 2500


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)),
                min_size=1, max_size=40))
def test_mcnemar_property_against_statsmodels(triples):
    y_true, a, b = (np.array(column) for column in zip(*triples, strict=True))
    table = _oracle_table(y_true, a, b)
    result = mcnemar_test(y_true, a, b)
    if table[0, 1] + table[1, 0] == 0:
        assert result.pvalue == 1.0
    else:
        assert result.pvalue == pytest.approx(sm_tables.mcnemar(table).pvalue, rel=1e-12)
    assert 0.0 < result.pvalue <= 1.0


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: mcnemar_test([0, 1], [0, 1], [0]), ValueError, "different lengths"),
    (lambda: mcnemar_test([], [], []), ValueError, "y_true is empty"),
    (lambda: mcnemar_test([0, np.nan], [0, 1], [0, 1]), ValueError, "y_true contains NaN"),
    (lambda: mcnemar_test([0, 1], [0, 1], [0, 1], method="fisher"), ValueError, "method"),
    (lambda: mcnemar_test([0, 1], [0, 1], ["a", "b"]), ValueError, "all strings or all"),
    (lambda: mcnemar_test([0, 1], [0, 1], [0, 1], "exact"), TypeError, "method='exact'"),
])
def test_mcnemar_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_mcnemar_is_exported():
    assert ek.mcnemar_test is mcnemar_test
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mcnemar_test([0, 1, 1], [0, 1, 0], [1, 1, 1])
