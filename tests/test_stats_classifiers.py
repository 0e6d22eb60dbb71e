"""Two classifiers on one test set (evalkit/stats/classifiers.py): McNemar, randomization and
bootstrap comparisons of any metric, 5x2cv and the corrected resampled t test, against
statsmodels, mlxtend, scipy and plain loops."""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import pandas as pd
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


# ---------------------------------------------------------------------------------------------
# compare_classifiers
# ---------------------------------------------------------------------------------------------

MACRO_F1 = functools.partial(ek.f1_score, average="macro")


def _loop_metric(metric):
    """The same metric hidden from evalkit's recognition: forces the loop path."""
    return lambda y_true, y_pred: metric(y_true, y_pred)


def _mc_tolerance(p, n_resamples, sigmas=4.5):
    return sigmas * math.sqrt(max(p * (1 - p), 1e-4) / n_resamples) + 1.5 / n_resamples


def test_compare_classifiers_table_shape_and_values():
    rng = np.random.default_rng(0)
    y_true, a, b = _three(rng, 300, 3)
    table = ek.compare_classifiers(y_true, a, b, metric=MACRO_F1, seed=0, n_resamples=500)
    assert list(table.columns) == ["metric_a", "metric_b", "difference", "pvalue",
                                   "n_resamples", "resampling"]
    assert table.index.tolist() == ["randomization"] and table.index.name == "test"
    row = table.iloc[0]
    assert row.metric_a == pytest.approx(ek.f1_score(y_true, a, average="macro"), abs=0)
    assert row.metric_b == pytest.approx(ek.f1_score(y_true, b, average="macro"), abs=0)
    assert row.difference == row.metric_a - row.metric_b
    assert row.resampling == "counts" and row.n_resamples == 500
    assert len(table.attrs["distribution"]) == 500
    assert table.attrs["metric"] == "f1_score(average='macro')"
    boot = ek.compare_classifiers(y_true, a, b, metric="accuracy", test="bootstrap", seed=0,
                                  n_resamples=500)
    assert list(boot.columns) == ["metric_a", "metric_b", "difference", "pvalue", "ci_low",
                                  "ci_high", "n_resamples", "resampling"]
    assert boot.iloc[0].metric_a == ek.accuracy(y_true, a)
    assert boot.iloc[0].ci_low < boot.iloc[0].difference < boot.iloc[0].ci_high


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
@pytest.mark.parametrize("metric", [MACRO_F1, _loop_metric(MACRO_F1)], ids=["counts", "loop"])
def test_identical_predictions_give_zero_difference_and_p_one(test, metric):
    rng = np.random.default_rng(1)
    y_true, a, _ = _three(rng, 80, 3)
    row = ek.compare_classifiers(y_true, a, a.copy(), metric=metric, test=test, seed=2,
                                 n_resamples=200).iloc[0]
    assert row.difference == 0 and row.pvalue == 1.0
    if test == "bootstrap":
        assert row.ci_low == row.ci_high == 0


def _hand_loop(metric, y_true, a, b, test, n_resamples, seed):
    """What one writes by hand: one metric call per system per resample."""
    rng = np.random.default_rng(seed)
    n = len(y_true)
    values = []
    for _ in range(n_resamples):
        if test == "randomization":
            swap = rng.random(n) < 0.5
            where = swap[:, None] if a.ndim == 2 else swap
            values.append(metric(y_true, np.where(where, b, a))
                          - metric(y_true, np.where(where, a, b)))
        else:
            rows = rng.integers(0, n, n)
            values.append(metric(y_true[rows], a[rows]) - metric(y_true[rows], b[rows]))
    return np.array(values)


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
def test_loop_path_is_a_plain_loop_with_the_same_draws(test):
    rng = np.random.default_rng(4)
    y_true, a, b = _three(rng, 120, 4)
    metric = _loop_metric(MACRO_F1)
    table = ek.compare_classifiers(y_true, a, b, metric=metric, test=test, seed=9,
                                   n_resamples=300)
    expected = _hand_loop(MACRO_F1, y_true, a, b, test, 300, 9)
    np.testing.assert_array_equal(table.attrs["distribution"], expected)
    observed = MACRO_F1(y_true, a) - MACRO_F1(y_true, b)
    if test == "randomization":
        count = np.sum(np.abs(expected) >= abs(observed) - 1e-12)
    else:
        count = np.sum(np.abs(expected - observed) >= abs(observed) - 1e-12)
        low, high = np.quantile(expected, [0.025, 0.975])
        assert (table.iloc[0].ci_low, table.iloc[0].ci_high) == pytest.approx((low, high),
                                                                          rel=1e-12)
    assert table.iloc[0].pvalue == (count + 1) / 301


@pytest.mark.parametrize("metric", [
    ek.accuracy, ek.error_rate, MACRO_F1,
    functools.partial(ek.f_score, beta=2.0, average="weighted"),
    functools.partial(ek.precision, average="micro"),
    functools.partial(ek.recall, average="macro"),
    functools.partial(ek.specificity, average="macro"),
    ek.cohen_kappa,
    functools.partial(ek.cohen_kappa, weights="quadratic"),
], ids=lambda m: getattr(m, "__name__", None) or repr(m.keywords))
def test_counts_path_equals_the_metric_on_the_same_resampled_items(metric):
    """Shared draws: the same swaps / resampled items, expressed as per-group counts, give
    exactly the loop's values."""
    from evalkit.stats.classifiers import _stacked_path

    rng = np.random.default_rng(11)
    y_true, a, b = _three(rng, 90, 4, p_a=0.6, p_b=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value_a, value_b = metric(y_true, a), metric(y_true, b)
        stacked, triples = _stacked_path(metric, y_true, a, b, value_a, value_b)
        groups = triples.group_of_item
        discordant = triples.discordant
        swaps_per_item = rng.random((50, 90)) < 0.5
        swaps = np.stack([np.bincount(groups[mask], minlength=len(triples.counts))[discordant]
                          for mask in swaps_per_item])
        stack_a, stack_b = triples.after_swaps(swaps)
        ours = (stacked(triples.classes, stack_a, 90, y_true)
                - stacked(triples.classes, stack_b, 90, y_true))
        theirs = [metric(y_true, np.where(m, b, a)) - metric(y_true, np.where(m, a, b))
                  for m in swaps_per_item]
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
        rows = rng.integers(0, 90, (50, 90))
        drawn = np.stack([np.bincount(groups[r], minlength=len(triples.counts)) for r in rows])
        stack_a, stack_b = triples.after_draws(drawn)
        ours = (stacked(triples.classes, stack_a, 90, y_true)
                - stacked(triples.classes, stack_b, 90, y_true))
        theirs = [metric(y_true[r], a[r]) - metric(y_true[r], b[r]) for r in rows]
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def _exact_randomization_p(metric, y_true, a, b):
    """scipy.stats.permutation_test, exact: all 2^n swaps of the pairs, |difference|."""
    def statistic(x, y):
        return abs(metric(y_true, x) - metric(y_true, y))

    result = scipy_stats.permutation_test((a, b), statistic, permutation_type="samples",
                                          vectorized=False, n_resamples=10**6,
                                          alternative="greater")
    return result.pvalue


@pytest.mark.parametrize("case", range(6))
def test_randomization_p_matches_scipy_exact_enumeration(case):
    rng = np.random.default_rng(100 + case)
    n = 11
    y_true, a, b = _three(rng, n, 3, p_a=0.8, p_b=0.4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exact = _exact_randomization_p(MACRO_F1, y_true, a, b)
        # scipy's exact p counts the observed arrangement among the 2^n; (b + 1) / (R + 1)
        # tends to the same number.
        counts = ek.compare_classifiers(y_true, a, b, metric=MACRO_F1, seed=case,
                                        n_resamples=20000).iloc[0]
        loop = ek.compare_classifiers(y_true, a, b, metric=_loop_metric(MACRO_F1), seed=case,
                                      n_resamples=2000).iloc[0]
    assert counts.resampling == "counts" and loop.resampling == "loop"
    assert abs(counts.pvalue - exact) < _mc_tolerance(exact, 20000)
    assert abs(loop.pvalue - exact) < _mc_tolerance(exact, 2000)


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
def test_counts_and_loop_paths_agree_within_monte_carlo_error(test):
    rng = np.random.default_rng(21)
    y_true, a, b = _three(rng, 400, 5, p_a=0.72, p_b=0.66)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = ek.compare_classifiers(y_true, a, b, metric=MACRO_F1, test=test, seed=1,
                                      n_resamples=20000)
        slow = ek.compare_classifiers(y_true, a, b, metric=_loop_metric(MACRO_F1), test=test,
                                      seed=2, n_resamples=2000)
    p = fast.iloc[0].pvalue
    assert abs(p - slow.iloc[0].pvalue) < _mc_tolerance(p, 2000) + _mc_tolerance(p, 20000)
    spread = np.std(fast.attrs["distribution"])
    assert abs(np.std(slow.attrs["distribution"]) - spread) < 0.1 * spread
    if test == "bootstrap":
        for end in ("ci_low", "ci_high"):
            assert abs(fast.iloc[0][end] - slow.iloc[0][end]) < 0.25 * spread
        assert np.mean(fast.attrs["distribution"]) == pytest.approx(
            fast.iloc[0].difference, abs=0.05 * spread)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["randomization", "bootstrap"]),
       st.booleans())
def test_swapping_a_and_b_negates_the_difference_and_keeps_p(seed, test, loop):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    y_true, a, b = _three(rng, n, int(rng.integers(2, 5)), p_a=rng.random(), p_b=rng.random())
    metric = _loop_metric(ek.accuracy) if loop else ek.accuracy
    R = 300 if loop else 4000
    ab = ek.compare_classifiers(y_true, a, b, metric=metric, test=test, seed=1, n_resamples=R)
    ba = ek.compare_classifiers(y_true, b, a, metric=metric, test=test, seed=1, n_resamples=R)
    assert ab.iloc[0].difference == -ba.iloc[0].difference
    if loop:  # the same draws: the distribution is negated, p is the same
        np.testing.assert_allclose(ab.attrs["distribution"], -ba.attrs["distribution"])
        assert ab.iloc[0].pvalue == ba.iloc[0].pvalue
    else:
        p = ab.iloc[0].pvalue
        assert abs(p - ba.iloc[0].pvalue) <= 2 * _mc_tolerance(p, R)


def test_randomization_with_accuracy_agrees_with_mcnemar_for_many_items():
    """Swapping predictions moves only discordant items: for accuracy, randomization is the
    sign test McNemar's exact test computes (up to Monte-Carlo error and discreteness)."""
    rng = np.random.default_rng(8)
    y_true, a, b = _three(rng, 2000, 3, p_a=0.70, p_b=0.68)
    row = ek.compare_classifiers(y_true, a, b, metric="accuracy", seed=0,
                                 n_resamples=40000).iloc[0]
    exact = mcnemar_test(y_true, a, b).pvalue
    assert abs(row.pvalue - exact) < _mc_tolerance(exact, 40000)


def test_probability_rows_and_names():
    rng = np.random.default_rng(6)
    n, k = 150, 3
    y_true = rng.integers(0, k, n)
    logits_a = rng.normal(size=(n, k)) + 2.0 * np.eye(k)[y_true]
    logits_b = rng.normal(size=(n, k)) + 1.0 * np.eye(k)[y_true]
    proba_a = np.exp(logits_a) / np.exp(logits_a).sum(axis=1, keepdims=True)
    proba_b = np.exp(logits_b) / np.exp(logits_b).sum(axis=1, keepdims=True)
    c_f1 = functools.partial(ek.c_f1, average="macro")
    table = ek.compare_classifiers(y_true, proba_a, proba_b, metric=c_f1, seed=3,
                                   n_resamples=200)
    row = table.iloc[0]
    assert row.resampling == "sums"
    assert row.metric_a == c_f1(y_true, proba_a) and row.difference > 0
    np.testing.assert_allclose(table.attrs["distribution"],
                               _hand_loop(c_f1, y_true, proba_a, proba_b, "randomization",
                                          200, 3), rtol=0, atol=1e-12)
    as_frames = ek.compare_classifiers(pd.Series(y_true), pd.DataFrame(proba_a),
                                       pd.DataFrame(proba_b), metric=c_f1, seed=3,
                                       n_resamples=200)
    pd.testing.assert_frame_equal(as_frames, table)
    brier = ek.compare_classifiers(y_true, proba_a, proba_b, metric="brier_score",
                                   test="bootstrap", seed=3, n_resamples=200).iloc[0]
    assert brier.metric_a == ek.brier_score(y_true, proba_a)
    assert brier.ci_high < 0  # A's Brier score is lower (better)
    auc = ek.compare_classifiers(y_true, proba_a, proba_b, metric=functools.partial(
        ek.roc_auc, multi_class="ovr"), seed=3, n_resamples=100).iloc[0]
    assert auc.metric_a == ek.roc_auc(y_true, proba_a, multi_class="ovr")
    strings = np.array(["neg", "pos"])[y_true % 2]
    row = ek.compare_classifiers(strings, strings, np.roll(strings, 1), metric="accuracy",
                                 seed=0, n_resamples=100).iloc[0]
    assert row.metric_a == 1.0 and row.resampling == "counts"


def test_compare_classifiers_bad_input():
    y, a, b = [0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 1, 0]
    cases = [
        (dict(y_pred_b=[1, 1, 1]), ValueError, "different lengths"),
        (dict(y_true=[], y_pred_a=[], y_pred_b=[]), ValueError, "empty"),
        (dict(y_pred_a=[0.1, np.nan, 0.3, 0.2]), ValueError, "y_pred_a contains NaN"),
        (dict(y_pred_b=np.ones((4, 2)) / 2), ValueError, "same shape"),
        (dict(metric="f2"), ValueError, "metric must be one of"),
        (dict(metric=3), TypeError, "metric must be a callable"),
        (dict(test="t"), ValueError, "test must be one of"),
        (dict(n_resamples=0), ValueError, "n_resamples"),
        (dict(confidence=1.0), ValueError, "confidence"),
        (dict(seed=-1), ValueError, "seed"),
        (dict(metric=lambda t, p: np.array([1.0, 2.0])), TypeError, "single number"),
    ]
    for change, error, match in cases:
        arguments = dict(y_true=y, y_pred_a=a, y_pred_b=b, metric="accuracy")
        arguments.update(change)
        with pytest.raises(error, match=match):
            ek.compare_classifiers(arguments.pop("y_true"), arguments.pop("y_pred_a"),
                                   arguments.pop("y_pred_b"), **arguments)
    with pytest.raises(TypeError, match="metric="):
        ek.compare_classifiers(y, a, b, "accuracy")


# ---------------------------------------------------------------------------------------------
# 5x2cv and the corrected resampled t test
# ---------------------------------------------------------------------------------------------


def test_five_by_two_by_hand():
    d = np.array([[0.1, 0.3], [0.2, 0.2], [0.0, 0.4], [0.3, 0.1], [0.2, 0.0]])
    # s_i^2 = 2 * ((d_i1 - d_i2) / 2)^2 = (d_i1 - d_i2)^2 / 2: 0.02, 0, 0.08, 0.02, 0.02
    variances = np.array([0.02, 0.0, 0.08, 0.02, 0.02])
    t = ek.five_by_two_cv_test(d)
    np.testing.assert_allclose(t.variances, variances, atol=1e-15)
    assert t.statistic == pytest.approx(0.1 / math.sqrt(0.14 / 5))
    assert t.pvalue == pytest.approx(2 * scipy_stats.t.sf(0.1 / math.sqrt(0.028), 5))
    assert t.df == 5 and t.test == "t"
    f = ek.five_by_two_cv_test(d, test="f")
    squares = 0.01 + 0.09 + 0.04 + 0.04 + 0 + 0.16 + 0.09 + 0.01 + 0.04 + 0
    assert f.statistic == pytest.approx(squares / (2 * 0.14))
    assert f.pvalue == pytest.approx(scipy_stats.f.sf(squares / 0.28, 10, 5))
    assert f.df == (10, 5)


def _mlxtend_differences(estimator_a, estimator_b, X, y, seed):
    """mlxtend's own loop (paired_ttest_5x2cv), written out to keep its differences."""
    from sklearn.metrics import get_scorer
    from sklearn.model_selection import train_test_split

    rng = np.random.RandomState(seed)
    scorer = get_scorer("accuracy")
    differences = np.empty((5, 2))
    for i in range(5):
        randint = rng.randint(low=0, high=32767)
        X_1, X_2, y_1, y_2 = train_test_split(X, y, test_size=0.5, random_state=randint)
        for j, (X_fit, y_fit, X_test, y_test) in enumerate(((X_1, y_1, X_2, y_2),
                                                            (X_2, y_2, X_1, y_1))):
            score_a = scorer(estimator_a.fit(X_fit, y_fit), X_test, y_test)
            score_b = scorer(estimator_b.fit(X_fit, y_fit), X_test, y_test)
            differences[i, j] = score_a - score_b
    return differences


@pytest.mark.parametrize("seed", [0, 1, 7, 123])
def test_five_by_two_matches_mlxtend(seed):
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(n_samples=300, n_features=8, random_state=seed)
    estimator_a = LogisticRegression(max_iter=500)
    estimator_b = DecisionTreeClassifier(random_state=0, max_depth=3)
    differences = _mlxtend_differences(estimator_a, estimator_b, X, y, seed)
    ours_t = ek.five_by_two_cv_test(differences)
    t, p = mlxtend_evaluate.paired_ttest_5x2cv(estimator_a, estimator_b, X, y,
                                               random_seed=seed)
    assert ours_t.statistic == pytest.approx(t, rel=1e-12)
    assert ours_t.pvalue == pytest.approx(p, rel=1e-12)
    ours_f = ek.five_by_two_cv_test(differences, test="f")
    f, p = mlxtend_evaluate.combined_ftest_5x2cv(estimator_a, estimator_b, X, y,
                                                 random_seed=seed)
    assert ours_f.statistic == pytest.approx(f, rel=1e-12)
    assert ours_f.pvalue == pytest.approx(p, rel=1e-12)
    # The helper with mlxtend's splits gives mlxtend's differences.
    helper = ek.five_by_two_cv_differences(estimator_a, estimator_b, X, y, seed=seed,
                                           stratify=False)
    np.testing.assert_allclose(helper, differences, rtol=0, atol=1e-15)


def test_five_by_two_differences_are_stratified_two_fold_cv():
    from sklearn.base import clone
    from sklearn.datasets import make_classification
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import f1_score
    from sklearn.model_selection import StratifiedKFold

    X, y = make_classification(n_samples=200, n_features=5, weights=[0.7], random_state=3)
    estimator_a, estimator_b = LogisticRegression(), DummyClassifier(strategy="stratified",
                                                                     random_state=0)
    differences = ek.five_by_two_cv_differences(estimator_a, estimator_b, X, y, seed=5,
                                                scoring="f1_macro")
    seeds = np.random.RandomState(5)
    expected = np.empty((5, 2))
    for i in range(5):
        folds = StratifiedKFold(2, shuffle=True, random_state=seeds.randint(0, 32767))
        for j, (train, test) in enumerate(folds.split(X, y)):
            assert abs(y[test].mean() - y.mean()) < 0.02  # stratified halves
            scores = [f1_score(y[test], clone(e).fit(X[train], y[train]).predict(X[test]),
                               average="macro") for e in (estimator_a, estimator_b)]
            expected[i, j] = scores[0] - scores[1]
    np.testing.assert_allclose(differences, expected, rtol=0, atol=1e-15)
    assert not hasattr(estimator_a, "coef_")  # clones were fitted, not the estimators


def test_five_by_two_cv_differences_without_sklearn(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_sklearn(name, *args, **kwargs):
        if name == "sklearn" or name.startswith("sklearn."):
            raise ImportError("No module named 'sklearn'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_sklearn)
    with pytest.raises(ImportError, match="notebooks"):
        ek.five_by_two_cv_differences(None, None, [[0]], [0])


def test_five_by_two_degenerate_and_bad_input():
    zero = ek.five_by_two_cv_test(np.zeros((5, 2)))
    assert (zero.statistic, zero.pvalue) == (0.0, 1.0)
    same = ek.five_by_two_cv_test(np.full((5, 2), 0.02))
    assert (same.statistic, same.pvalue) == (math.inf, 0.0)
    assert ek.five_by_two_cv_test(np.full((5, 2), -0.02)).statistic == -math.inf
    assert ek.five_by_two_cv_test(np.full((5, 2), 0.02), test="f").pvalue == 0.0
    # Tiny differences: the statistic does not depend on the units.
    d = np.random.default_rng(0).normal(size=(5, 2))
    for test in ("t", "f"):
        assert ek.five_by_two_cv_test(d * 1e-200, test=test).statistic == pytest.approx(
            ek.five_by_two_cv_test(d, test=test).statistic, rel=1e-12)
    for bad, match in ((np.zeros((2, 5)), "5x2"), (np.zeros(10), "5x2"),
                       ([[np.nan, 0]] * 5, "NaN"), ([["a", "b"]] * 5, "numbers")):
        with pytest.raises(ValueError, match=match):
            ek.five_by_two_cv_test(bad)
    with pytest.raises(ValueError, match="test must be one of"):
        ek.five_by_two_cv_test(d, test="z")
    with pytest.raises(TypeError, match="test="):
        ek.five_by_two_cv_test(d, "f")


def test_corrected_resampled_t_by_hand_and_against_the_plain_t():
    d = np.array([0.02, 0.05, 0.01, 0.04])
    # mean 0.03, sample variance ((-.01)^2 + .02^2 + (-.02)^2 + .01^2) / 3 = 0.001 / 3
    result = ek.corrected_resampled_t_test(d, test_fraction=0.25)
    factor = 1 / 4 + 0.25 / 0.75
    assert result.statistic == pytest.approx(0.03 / math.sqrt(factor * 0.001 / 3))
    assert result.pvalue == pytest.approx(2 * scipy_stats.t.sf(result.statistic, 3))
    assert result.df == 3 and result.mean_difference == pytest.approx(0.03)
    assert result.standard_error == pytest.approx(math.sqrt(factor * 0.001 / 3))
    # Without the n2/n1 term it is the plain one-sample t (the limit test_fraction -> 0).
    rng = np.random.default_rng(1)
    for _ in range(200):
        d = rng.normal(0.01, 0.03, size=int(rng.integers(2, 40)))
        tiny = ek.corrected_resampled_t_test(d, test_fraction=1e-12)
        plain = scipy_stats.ttest_1samp(d, 0.0)
        assert tiny.statistic == pytest.approx(plain.statistic, rel=1e-9)
        assert tiny.pvalue == pytest.approx(plain.pvalue, rel=1e-8)
        # The correction only ever widens: |t| shrinks as the test fraction grows.
        wide = ek.corrected_resampled_t_test(d, test_fraction=0.3)
        factor = 1 / len(d) + 0.3 / 0.7
        assert wide.statistic == pytest.approx(plain.statistic * math.sqrt(
            (1 / len(d)) / factor), rel=1e-9)
        assert wide.pvalue >= plain.pvalue


def test_corrected_resampled_t_degenerate_and_bad_input():
    assert tuple(ek.corrected_resampled_t_test([0.0, 0.0], test_fraction=0.1)) == (0.0, 1.0)
    assert tuple(ek.corrected_resampled_t_test([0.1, 0.1], test_fraction=0.1)) == (math.inf,
                                                                                   0.0)
    for fraction in (0, 1, -0.2, 1.5, math.nan):
        with pytest.raises(ValueError, match="test_fraction"):
            ek.corrected_resampled_t_test([0.1, 0.2], test_fraction=fraction)
    with pytest.raises(TypeError, match="test_fraction"):
        ek.corrected_resampled_t_test([0.1, 0.2], test_fraction="0.2")
    for bad, match in (([0.1], "at least 2"), ([[0.1, 0.2]], "1-D"), ([0.1, np.inf], "inf"),
                       ([], "empty")):
        with pytest.raises(ValueError, match=match):
            ek.corrected_resampled_t_test(bad, test_fraction=0.2)
    with pytest.raises(TypeError, match="test_fraction="):
        ek.corrected_resampled_t_test([0.1, 0.2], 0.2)


def _probabilities(rng, y_true, k, strength):
    logits = rng.normal(size=(len(y_true), k)) + strength * np.eye(k)[y_true]
    return np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
@pytest.mark.parametrize("metric", [
    functools.partial(ek.c_f1, average="macro"),
    functools.partial(ek.c_f1, average="weighted"),
    functools.partial(ek.c_precision, average="micro"),
    functools.partial(ek.c_recall, average="macro", exclude=[0]),
    functools.partial(ek.c_f1, average="dodrans", zero_division=0.0),
    ek.brier_score,
], ids=lambda m: getattr(m, "__name__", None) or f"{m.func.__name__}{m.keywords}")
def test_sums_path_is_the_loop_with_the_same_draws(metric, test):
    """cP, cR, cF1 and Brier are functions of sums over items: the resamples are products
    of the swap / draw-count matrices with per-item rows, drawn as the loop draws them."""
    rng = np.random.default_rng(17)
    y_true = rng.integers(0, 3, 150)
    proba_a, proba_b = _probabilities(rng, y_true, 3, 2.0), _probabilities(rng, y_true, 3, 1.2)
    fast = ek.compare_classifiers(y_true, proba_a, proba_b, metric=metric, test=test, seed=4,
                                  n_resamples=250)
    slow = ek.compare_classifiers(y_true, proba_a, proba_b, metric=_loop_metric(metric),
                                  test=test, seed=4, n_resamples=250)
    assert (fast.iloc[0].resampling, slow.iloc[0].resampling) == ("sums", "loop")
    np.testing.assert_allclose(fast.attrs["distribution"], slow.attrs["distribution"],
                               rtol=0, atol=1e-12)
    assert fast.iloc[0].pvalue == slow.iloc[0].pvalue
    assert fast.iloc[0].difference == slow.iloc[0].difference


def test_sums_path_with_binary_probabilities_and_string_labels():
    rng = np.random.default_rng(2)
    y_true = rng.integers(0, 2, 120)
    p_a = np.clip(0.6 * y_true + 0.4 * rng.random(120), 0, 1)
    p_b = np.clip(0.3 * y_true + 0.7 * rng.random(120), 0, 1)
    labels = np.array(["ham", "spam"])[y_true]
    for metric in ("c_f1", "brier_score"):
        for truth, options in ((y_true, {}), (labels, {"pos_label": "spam"})):
            chosen = functools.partial(getattr(ek, metric), **options)
            fast = ek.compare_classifiers(truth, p_a, p_b, metric=chosen, test="bootstrap",
                                          seed=1, n_resamples=100)
            slow = ek.compare_classifiers(truth, p_a, p_b, metric=_loop_metric(chosen),
                                          test="bootstrap", seed=1, n_resamples=100)
            assert fast.iloc[0].resampling == "sums"
            np.testing.assert_allclose(fast.attrs["distribution"],
                                       slow.attrs["distribution"], rtol=0, atol=1e-12)


def test_five_by_two_matches_mlxtend_on_hundreds_of_random_arrays():
    """mlxtend takes estimators, not differences: a scorer that hands out A's score d_ij and
    B's score 0, in mlxtend's call order, makes it test exactly these differences."""
    from sklearn.dummy import DummyClassifier

    X, y = np.zeros((8, 1)), np.array([0, 1] * 4)
    rng = np.random.default_rng(30)
    for case in range(300):
        scale = 10.0 ** rng.integers(-4, 1)
        d = rng.normal(rng.normal(0, 0.5), 1.0, size=(5, 2)) * scale
        if case % 10 == 0:
            d[:, 1] = d[:, 0] + rng.normal(0, 1e-3, size=5) * scale  # small variances
        scores = iter(np.column_stack([d.ravel(), np.zeros(10)]).ravel())

        def scorer(estimator, X_test, y_test, scores=scores):
            return next(scores)

        t, p = mlxtend_evaluate.paired_ttest_5x2cv(DummyClassifier(), DummyClassifier(), X, y,
                                                   scoring=scorer, random_seed=case)
        ours = ek.five_by_two_cv_test(d)
        assert ours.statistic == pytest.approx(t, rel=1e-10)
        assert ours.pvalue == pytest.approx(p, rel=1e-9, abs=1e-300)
        scores = iter(np.column_stack([d.ravel(), np.zeros(10)]).ravel())

        def scorer_f(estimator, X_test, y_test, scores=scores):
            return next(scores)

        f, p = mlxtend_evaluate.combined_ftest_5x2cv(DummyClassifier(), DummyClassifier(), X,
                                                     y, scoring=scorer_f, random_seed=case)
        ours = ek.five_by_two_cv_test(d, test="f")
        assert ours.statistic == pytest.approx(f, rel=1e-10)
        assert ours.pvalue == pytest.approx(p, rel=1e-9, abs=1e-300)
