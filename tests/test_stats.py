"""Intervals, tests and effect sizes, against scipy and statsmodels as oracles.

- ``proportion_ci`` against scipy's ``binomtest`` and statsmodels' ``proportion_confint``;
- ``bootstrap_ci``: index resampling equals ``scipy.stats.bootstrap(paired=True)`` exactly
  for the same Generator; the multinomial path evaluates each resampled confusion matrix
  exactly as the metric evaluates the resampled rows, its jackknife equals a brute-force
  leave-one-out, and its distribution agrees with index resampling; coverage on simulated
  data is near the nominal level;
- ``paired_randomization_test`` against a brute-force enumeration of all 2^n flips and
  against ``scipy.stats.permutation_test``;
- ``compare_systems`` / ``compare_runs`` against ``ttest_rel``, ``ttest_ind(equal_var=False)``,
  ``wilcoxon`` and statsmodels' ``multipletests``; effect sizes by hand and by property.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import re
import warnings
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats
from scipy.stats import binomtest
from sklearn.metrics import f1_score as sklearn_f1
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

import evalkit as ek
from evalkit import stats as ek_stats
from evalkit._confusion_stack import stacked_metric
from evalkit.exceptions import UndefinedMetricWarning
from evalkit.stats import bootstrap as stats_bootstrap
from evalkit.stats import comparison as stats_comparison
from evalkit.stats import proportion_ci
from evalkit.stats import randomization as stats_randomization


@st.composite
def counts(draw):
    n = draw(st.integers(min_value=1, max_value=5000))
    k = draw(st.integers(min_value=0, max_value=n))
    return k, n


confidences = st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99, 0.999])


@given(counts(), confidences, st.sampled_from(["wilson", "exact"]))
def test_matches_scipy_binomtest(kn, confidence, method):
    k, n = kn
    expected = binomtest(k, n).proportion_ci(confidence_level=confidence, method=method)
    low, high = proportion_ci(k, n, confidence=confidence, method=method)
    assert low == pytest.approx(expected.low, abs=1e-10)
    assert high == pytest.approx(expected.high, abs=1e-10)


@given(counts(), confidences, st.sampled_from([("normal", "normal"), ("wilson", "wilson"),
                                                ("exact", "beta")]))
def test_matches_statsmodels(kn, confidence, methods):
    k, n = kn
    ours, theirs = methods
    low, high = proportion_ci(k, n, confidence=confidence, method=ours)
    expected_low, expected_high = proportion_confint(k, n, alpha=1 - confidence, method=theirs)
    assert low == pytest.approx(expected_low, abs=1e-10)
    assert high == pytest.approx(expected_high, abs=1e-10)


def test_hand_computed_intervals():
    # 80 of 100 correct: Wald 0.8 +- 1.959964 * 0.04.
    z = 1.959963984540054
    low, high = proportion_ci(80, 100, method="normal")
    assert low == pytest.approx(0.8 - z * 0.04) and high == pytest.approx(0.8 + z * 0.04)
    # Wilson by its formula.
    p, n = 0.8, 100
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    assert proportion_ci(80, 100) == pytest.approx((centre - half, centre + half))
    # A perfect score: Wald has zero width, Wilson and exact do not.
    assert proportion_ci(10, 10, method="normal") == (1.0, 1.0)
    assert proportion_ci(10, 10)[0] < 0.75
    # Clopper-Pearson at k = n: the lower end solves p^n = alpha / 2.
    assert proportion_ci(10, 10, method="exact")[0] == pytest.approx(0.025 ** (1 / 10))


def test_vectorised_equals_scalar(rng):
    n = rng.integers(1, 500, 200)
    k = rng.integers(0, n + 1)
    for method in ("wilson", "normal", "exact"):
        low, high = proportion_ci(k, n, method=method)
        assert low.shape == (200,)
        for i in (0, 57, 199):
            assert (low[i], high[i]) == pytest.approx(proportion_ci(int(k[i]), int(n[i]),
                                                                    method=method))


@pytest.mark.parametrize("kwargs, error, message", [
    ({"successes": 5, "n": 0}, ValueError, "n must be at least 1"),
    ({"successes": 11, "n": 10}, ValueError, "successes must lie between 0 and n"),
    ({"successes": 2.5, "n": 10}, ValueError,
     r"successes must hold non-negative whole numbers \(numbers correct\); got 2.5"),
    ({"successes": -1, "n": 10}, ValueError, "successes must hold non-negative whole numbers"),
    ({"successes": 5, "n": [10, 10.5]}, ValueError,
     r"n must hold non-negative whole numbers \(test-set sizes\); got 10.5"),
    ({"successes": "5", "n": 10}, TypeError, "successes must .* whole numbers"),
    ({"successes": 5, "n": 10, "confidence": 95}, ValueError,
     r"confidence must be a real number in \(0, 1\); got 95"),
    ({"successes": 5, "n": 10, "confidence": True}, TypeError,
     r"confidence must be a real number in \(0, 1\); got True"),
    ({"successes": 5, "n": 10, "method": "wald"}, ValueError, "method must be one of 'wilson'"),
])
def test_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        proportion_ci(**kwargs)


# ---------------------------------------------------------------------------------------------
# bootstrap_ci: the multinomial path evaluates resampled confusion matrices exactly
# ---------------------------------------------------------------------------------------------


def _labelled_data(n: int, seed: int, *, strings: bool = False):
    """Four classes, one of them rare (so that resamples often miss it), 70 % right."""
    rng = np.random.default_rng(seed)
    y_true = rng.choice(4, size=n, p=[0.45, 0.35, 0.17, 0.03])
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, 4, n))
    if strings:
        names = np.array(["ant", "bee", "cat", "dog"])
        return names[y_true], names[y_pred]
    return y_true, y_pred


def _confusion_over(classes, y_true, y_pred):
    k = len(classes)
    codes = np.searchsorted(classes, y_true) * k + np.searchsorted(classes, y_pred)
    return np.bincount(codes, minlength=k * k).reshape(k, k)


STACK_CASES = [
    (ek.accuracy, {}),
    (ek.error_rate, {}),
    (ek.precision, {"average": "macro"}),
    (ek.recall, {"average": "weighted", "zero_division": 0.0}),
    (ek.f1_score, {"average": "macro"}),
    (ek.f1_score, {"average": "micro"}),
    (ek.f_score, {"beta": 2.0, "average": "dodrans"}),
    (ek.f_score, {"beta": 0.5, "average": "entropy"}),
    (ek.f1_score, {"average": "macro_pr"}),
    (ek.specificity, {"average": "micro"}),
    (ek.specificity, {"average": "weighted"}),
    (ek.sensitivity, {"average": "macro", "labels": [3, 0, 1]}),
    (ek.f1_score, {"average": "macro", "exclude": [0]}),
    (ek.precision, {"average": "macro", "zero_division": np.nan}),
    (ek.cohen_kappa, {}),
    (ek.cohen_kappa, {"weights": "quadratic"}),
    (ek.cohen_kappa, {"weights": "linear", "marginals": "pooled"}),
    (ek.cohen_kappa, {"weights": "quadratic", "labels": [0, 1, 2, 3]}),
]


def _case_id(case):
    function, kwargs = case
    return function.__name__ + "".join(f"-{k}={v}" for k, v in kwargs.items())


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.mark.parametrize("case", STACK_CASES, ids=[_case_id(c) for c in STACK_CASES])
def test_a_stack_of_resampled_matrices_scores_as_the_resampled_rows(case):
    function, kwargs = case
    metric = functools.partial(function, **kwargs)
    y_true, y_pred = _labelled_data(40, seed=1)
    stacked = stacked_metric(metric, y_true, y_pred)
    assert stacked is not None
    classes, matrix, checked_true = stacked.confusion(y_true, y_pred)
    rows = np.random.default_rng(2).integers(0, 40, size=(300, 40))
    stack = np.stack([_confusion_over(classes, y_true[r], y_pred[r]) for r in rows])
    assert (stack[:, 3, :].sum(axis=1) + stack[:, :, 3].sum(axis=1) == 0).any()  # class 3 missed
    from_counts = _quiet(stacked, classes, stack, 40, checked_true)
    from_rows = np.array([_quiet(metric, y_true[r], y_pred[r]) for r in rows])
    np.testing.assert_allclose(from_counts, from_rows, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("metric", [
    ek.f1_score, functools.partial(ek.precision, pos_label="no"),
    functools.partial(ek.specificity, pos_label="yes"), ek.accuracy,
    functools.partial(ek.cohen_kappa, weights="linear"),
], ids=["f1", "precision-no", "specificity", "accuracy", "kappa"])
def test_binary_and_string_labels_on_the_stack(metric):
    rng = np.random.default_rng(3)
    y_true = np.where(rng.random(30) < 0.8, "no", "yes")
    y_pred = np.where(rng.random(30) < 0.75, y_true, np.where(y_true == "no", "yes", "no"))
    if metric is ek.f1_score:
        metric = functools.partial(ek.f1_score, pos_label="yes")
    stacked = stacked_metric(metric, y_true, y_pred)
    classes, _, checked_true = stacked.confusion(y_true, y_pred)
    rows = rng.integers(0, 30, size=(200, 30))
    stack = np.stack([_confusion_over(classes, y_true[r], y_pred[r]) for r in rows])
    np.testing.assert_allclose(_quiet(stacked, classes, stack, 30, checked_true),
                               [_quiet(metric, y_true[r], y_pred[r]) for r in rows],
                               rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("case", STACK_CASES[:9] + STACK_CASES[14:],
                         ids=[_case_id(c) for c in STACK_CASES[:9] + STACK_CASES[14:]])
def test_bca_jackknife_from_counts_equals_brute_force_leave_one_out(case):
    function, kwargs = case
    metric = functools.partial(function, **kwargs)
    y_true, y_pred = _labelled_data(60, seed=4, strings="labels" not in kwargs)
    stacked = stacked_metric(metric, y_true, y_pred)
    values, left_out, weights = _quiet(stats_bootstrap._multinomial_resamples, stacked,
                                       [y_true, y_pred], 500, np.random.default_rng(5),
                                       jackknife=True)
    brute = np.array([_quiet(metric, np.delete(y_true, i), np.delete(y_pred, i))
                      for i in range(60)])
    classes, matrix, _ = stacked.confusion(y_true, y_pred)
    cells = np.flatnonzero(matrix)
    row_cell = (np.searchsorted(classes, y_true) * len(classes)
                + np.searchsorted(classes, y_pred))
    np.testing.assert_allclose(left_out[np.searchsorted(cells, row_cell)], brute, rtol=1e-12)
    np.testing.assert_array_equal(weights, matrix.ravel()[cells])
    estimate = _quiet(metric, y_true, y_pred)
    from_counts = stats_bootstrap._bca_levels(values, estimate, left_out, weights, 0.025)
    from_rows = stats_bootstrap._bca_levels(values, estimate, brute, np.ones(60), 0.025)
    np.testing.assert_allclose(from_counts, from_rows, rtol=1e-9)


def test_other_callables_are_not_taken_for_confusion_matrix_metrics():
    y_true, y_pred = _labelled_data(20, seed=0)
    assert stacked_metric(lambda t, p: ek.accuracy(t, p), y_true, y_pred) is None
    assert stacked_metric(functools.partial(ek.f1_score, y_true), y_pred, y_pred) is None
    assert stacked_metric(ek.roc_auc, y_true, y_pred) is None
    nested = functools.partial(functools.partial(ek.f_score, beta=2.0), average="macro")
    assert stacked_metric(nested, y_true, y_pred).arguments["beta"] == 2.0


# ---------------------------------------------------------------------------------------------
# bootstrap_ci: scipy.stats.bootstrap as the oracle
# ---------------------------------------------------------------------------------------------


def _correlation(u, v):
    return np.corrcoef(u, v)[0, 1]


def _mean_difference(u, v, axis=-1):
    return np.mean(u - v, axis=axis)


@pytest.mark.parametrize("method", ek_stats.BOOTSTRAP_METHODS)
@pytest.mark.parametrize("statistic, n_arrays, resampling", [
    (_correlation, 2, "loop"), (np.mean, 1, "vectorized"), (_mean_difference, 2, "vectorized"),
], ids=["correlation-loop", "mean-vectorized", "difference-vectorized"])
def test_index_resampling_equals_scipy_bootstrap(method, statistic, n_arrays, resampling, rng):
    x = rng.normal(size=35)
    data = (x, x + rng.normal(size=35))[:n_arrays]
    ours = ek.bootstrap_ci(statistic, *data, method=method, n_resamples=600,
                           confidence=0.9, seed=np.random.default_rng(7))
    theirs = scipy_stats.bootstrap(data, statistic, paired=True, method=method,
                                   n_resamples=600, confidence_level=0.9,
                                   vectorized=resampling == "vectorized",
                                   rng=np.random.default_rng(7))
    assert ours.resampling == resampling
    np.testing.assert_allclose(ours.distribution, theirs.bootstrap_distribution, rtol=1e-12)
    np.testing.assert_allclose(ours, theirs.confidence_interval, rtol=1e-10)
    assert ours.confidence_interval == pytest.approx(tuple(theirs.confidence_interval),
                                                     rel=1e-10)
    assert ours.standard_error == pytest.approx(theirs.standard_error, rel=1e-12)
    assert ours.estimate == pytest.approx(statistic(*data), rel=1e-15)


def test_blocks_do_not_change_the_resamples(monkeypatch, rng):
    x = rng.normal(size=25)
    y_true, y_pred = _labelled_data(50, seed=6)
    macro_f1 = functools.partial(ek.f1_score, average="macro")
    before = [ek.bootstrap_ci(np.mean, x, n_resamples=300, seed=3, method="bca"),
              ek.bootstrap_ci(_correlation, x, x**2, n_resamples=300, seed=3, method="bca"),
              _quiet(ek.bootstrap_ci, macro_f1, y_true, y_pred, n_resamples=300, seed=3,
                     method="bca")]
    monkeypatch.setattr(stats_bootstrap, "_INDEX_BLOCK", 1)
    monkeypatch.setattr(stats_bootstrap, "_STACK_BLOCK", 1)
    after = [ek.bootstrap_ci(np.mean, x, n_resamples=300, seed=3, method="bca"),
             ek.bootstrap_ci(_correlation, x, x**2, n_resamples=300, seed=3, method="bca"),
             _quiet(ek.bootstrap_ci, macro_f1, y_true, y_pred, n_resamples=300, seed=3,
                    method="bca")]
    for one, other in zip(before, after, strict=True):
        np.testing.assert_array_equal(one.distribution, other.distribution)
        assert tuple(one) == tuple(other)


@pytest.mark.parametrize("metric", [
    functools.partial(ek.f1_score, average="macro"),
    functools.partial(ek.recall, average="weighted"),
    ek.accuracy,
    functools.partial(ek.cohen_kappa, weights="quadratic"),
], ids=["macro-f1", "weighted-recall", "accuracy", "quadratic-kappa"])
def test_multinomial_bootstrap_agrees_in_distribution_with_index_resampling(metric):
    y_true, y_pred = _labelled_data(150, seed=8)
    r = 3000
    fast = _quiet(ek.bootstrap_ci, metric, y_true, y_pred, n_resamples=r, seed=1,
                  method="bca")
    slow = _quiet(ek.bootstrap_ci, lambda t, p: metric(t, p), y_true, y_pred,
                  n_resamples=r, seed=2, method="bca")
    assert (fast.resampling, slow.resampling) == ("multinomial", "loop")
    assert fast.estimate == slow.estimate
    sd = slow.standard_error
    assert abs(fast.distribution.mean() - slow.distribution.mean()) < 4 * sd * np.sqrt(2 / r)
    assert fast.standard_error == pytest.approx(sd, rel=0.08)
    # Quantiles within Monte-Carlo error, plus one step of the grid k/150 that counts are on.
    tolerance = 0.2 * sd + 1 / 150
    for q in (0.025, 0.25, 0.5, 0.75, 0.975):
        assert np.quantile(fast.distribution, q) == pytest.approx(
            np.quantile(slow.distribution, q), abs=tolerance)
    assert scipy_stats.ks_2samp(fast.distribution, slow.distribution).pvalue > 0.001
    assert fast.low == pytest.approx(slow.low, abs=tolerance)
    assert fast.high == pytest.approx(slow.high, abs=tolerance)


def test_multinomial_bootstrap_agrees_with_scipy_on_scikit_learn_f1(rng):
    y_true, y_pred = _labelled_data(120, seed=9)
    ours = _quiet(ek.bootstrap_ci, functools.partial(ek.f1_score, average="macro"), y_true,
                  y_pred, n_resamples=4000, seed=4)
    theirs = scipy_stats.bootstrap(
        (y_true, y_pred), lambda t, p: sklearn_f1(t, p, average="macro", zero_division=0),
        paired=True, vectorized=False, method="percentile", n_resamples=800, rng=rng)
    sd = theirs.standard_error
    assert ours.standard_error == pytest.approx(sd, rel=0.12)
    assert ours.low == pytest.approx(theirs.confidence_interval.low, abs=0.35 * sd)
    assert ours.high == pytest.approx(theirs.confidence_interval.high, abs=0.35 * sd)


def test_percentile_interval_of_a_mean_covers_near_the_nominal_level():
    rng = np.random.default_rng(11)
    covered = 0
    for _ in range(500):  # simulated data sets; each bootstrap is vectorised
        sample = rng.normal(loc=1.0, size=80)
        low, high = ek.bootstrap_ci(np.mean, sample, n_resamples=400, seed=rng)
        covered += low <= 1.0 <= high
    assert 0.93 <= covered / 500 <= 0.97


def test_accuracy_interval_from_multinomial_resamples_covers_near_the_nominal_level():
    rng = np.random.default_rng(12)
    covered = 0
    for _ in range(500):  # simulated test sets of a classifier whose accuracy is 0.8
        y_true = rng.integers(0, 3, 200)
        y_pred = np.where(rng.random(200) < 0.8, y_true, (y_true + 1) % 3)
        result = ek.bootstrap_ci(ek.accuracy, y_true, y_pred, n_resamples=400, seed=rng)
        covered += result.low <= 0.8 <= result.high
    assert result.resampling == "multinomial"
    assert 0.93 <= covered / 500 <= 0.97


def test_the_interval_is_read_off_the_distribution(rng):
    x = rng.exponential(size=50)
    percentile = ek.bootstrap_ci(np.median, x, n_resamples=999, confidence=0.8, seed=5)
    basic = ek.bootstrap_ci(np.median, x, n_resamples=999, confidence=0.8, seed=5,
                            method="basic")
    q_low, q_high = np.quantile(percentile.distribution, [0.1, 0.9])
    assert tuple(percentile) == (q_low, q_high)
    assert basic.low == pytest.approx(2 * np.median(x) - q_high)
    assert basic.high == pytest.approx(2 * np.median(x) - q_low)
    assert percentile.estimate == np.median(x)
    assert percentile.standard_error == np.std(percentile.distribution, ddof=1)
    assert percentile.confidence_interval == (q_low, q_high)
    assert (percentile.confidence, percentile.method, percentile.n_resamples) == (0.8,
                                                                                 "percentile", 999)
    low, high = percentile
    assert (low, high) == (percentile.low, percentile.high)


@pytest.mark.parametrize("method", ek_stats.BOOTSTRAP_METHODS)
def test_constant_data_give_a_zero_width_interval(method):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = ek.bootstrap_ci(np.mean, [2.5] * 6, method=method, seed=0)
        perfect = ek.bootstrap_ci(ek.accuracy, [0, 1, 1, 0], [0, 1, 1, 0], method=method)
    assert tuple(result) == (2.5, 2.5) and result.standard_error == 0.0
    assert tuple(perfect) == (1.0, 1.0)


def test_bca_with_the_estimate_beyond_every_resample_warns_and_uses_the_extreme():
    def distinct(x):
        return float(len(np.unique(x)))

    with pytest.warns(RuntimeWarning, match="outside every resampled value"):
        result = ek.bootstrap_ci(distinct, np.arange(30.0), method="bca", n_resamples=200,
                                 seed=0)
    assert tuple(result) == (result.distribution.max(), result.distribution.max())


def test_pandas_series_are_resampled_by_position(rng):
    values = rng.normal(size=20)
    series = pd.Series(values, index=rng.permutation(np.arange(100, 120)))
    assert tuple(ek.bootstrap_ci(np.mean, series, seed=1)) == tuple(
        ek.bootstrap_ci(np.mean, values, seed=1))


def test_a_generator_seed_is_advanced_and_an_int_seed_repeats():
    data = np.arange(10.0)
    generator = np.random.default_rng(0)
    first = ek.bootstrap_ci(np.mean, data, seed=generator)
    second = ek.bootstrap_ci(np.mean, data, seed=generator)
    assert tuple(first) != tuple(second)
    assert tuple(ek.bootstrap_ci(np.mean, data, seed=3)) == tuple(
        ek.bootstrap_ci(np.mean, data, seed=3))


def test_undefined_ratios_in_resamples_warn_once():
    y_true = [0] * 20 + [1] * 20 + [2] * 3
    y_pred = [0] * 20 + [1] * 20 + [0] * 3  # class 2 is never predicted
    with pytest.warns(UndefinedMetricWarning) as caught:
        ek.bootstrap_ci(functools.partial(ek.precision, average="macro"), y_true, y_pred,
                        seed=0)
    from_resamples = [w for w in caught if str(w.message).startswith("bootstrap resamples:")]
    assert len(from_resamples) == 1
    assert "label(s) 2" in str(from_resamples[0].message)


def _nan_precision(t, p):
    return ek.precision(t, p, zero_division=np.nan)


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((ek.accuracy, [1, 0, 1], [1, 0]), {}, ValueError,
     r"y_true and y_pred have different lengths \(3 != 2\)"),
    ((np.mean, [1.0]), {}, ValueError, "a has 1 row; the bootstrap needs at least 2 rows"),
    ((ek.accuracy, [], []), {}, ValueError, "y_true is empty"),
    ((np.mean, 3.0), {}, ValueError, "a must hold one row per sample"),
    ((np.mean, {1, 2}), {}, TypeError, "a must be an ordered array-like"),
    (("accuracy", [1, 0], [1, 0]), {}, TypeError, "metric must be a callable"),
    ((ek.accuracy,), {}, TypeError, "needs the arrays to resample"),
    ((np.mean, [1.0, np.nan, 2.0]), {}, ValueError, "metric returned NaN on the data"),
    ((_nan_precision, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [1] + [0] * 11), {}, ValueError,
     r"metric returned NaN on \d+ of 1000 resamples"),
    ((functools.partial(ek.f1_score, average=None), [0, 1, 2, 2], [0, 1, 2, 1]), {},
     TypeError, r"metric must return a single number; got an array of shape \(3,\)"),
    ((lambda x: "high", [1.0, 2.0]), {}, TypeError, "metric must return a single number"),
    ((lambda x, axis=-1: np.mean(x), [1.0, 2.0, 3.0]), {}, TypeError,
     "must return one number per resample"),
    ((np.mean, [1.0, 2.0]), {"method": "bootstrap-t"}, ValueError,
     "method must be one of 'percentile', 'basic', 'bca'; got 'bootstrap-t'"),
    ((np.mean, [1.0, 2.0]), {"n_resamples": 1}, ValueError, "n_resamples must be a whole"),
    ((np.mean, [1.0, 2.0]), {"n_resamples": 99.5}, ValueError, "n_resamples must be a whole"),
    ((np.mean, [1.0, 2.0]), {"n_resamples": "100"}, TypeError, "n_resamples must be a whole"),
    ((np.mean, [1.0, 2.0]), {"confidence": 95}, ValueError, "confidence must be a real"),
    ((np.mean, [1.0, 2.0]), {"seed": "lucky"}, TypeError, "seed must be None, a whole"),
    ((np.mean, [1.0, 2.0]), {"seed": -1}, ValueError, "seed must be None, a whole"),
    ((np.mean, [1.0, 2.0]), {"vectorized": "yes"}, TypeError,
     r"vectorized must be None, True or False; got 'yes' \(a str\)"),
    ((np.mean, [1.0, 2.0]), {"vectorized": 0}, TypeError,
     r"vectorized must be None, True or False; got 0 \(a int\)"),
    ((np.mean, [1.0, 2.0]), {"seed": True}, TypeError, "seed must be None, a whole"),
])
def test_bootstrap_bad_input(args, kwargs, error, message):
    with pytest.raises(error, match=message), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ek.bootstrap_ci(*args, **kwargs)


def test_bca_method_name_is_case_insensitive():
    assert tuple(ek.bootstrap_ci(np.mean, [1.0, 3.0, 2.0, 5.0], method="BCa", seed=1)) == tuple(
        ek.bootstrap_ci(np.mean, [1.0, 3.0, 2.0, 5.0], method="bca", seed=1))


# ---------------------------------------------------------------------------------------------
# paired_randomization_test
# ---------------------------------------------------------------------------------------------


def _all_flipped_sums(difference):
    """Brute force: the sum of s * d for every one of the 2^n sign vectors s."""
    signs = np.array(list(itertools.product((1, -1), repeat=len(difference))))
    return signs @ difference


eighths = st.lists(st.integers(-24, 24), min_size=2, max_size=11)


@given(eighths, st.data())
def test_exact_test_equals_brute_force_enumeration(a_eighths, data):
    # Multiples of 1/8: every flipped sum is exact in floating point, so ties are real ties.
    b_eighths = data.draw(st.lists(st.integers(-24, 24), min_size=len(a_eighths),
                                   max_size=len(a_eighths)))
    a, b = np.array(a_eighths) / 8, np.array(b_eighths) / 8
    difference = a - b
    sums = _all_flipped_sums(difference)
    expected = np.count_nonzero(np.abs(sums) >= abs(difference.sum())) / 2 ** len(a)
    result = ek.paired_randomization_test(a, b)
    assert result.exact and result.n_resamples == 2 ** len(a)
    assert result.pvalue == expected
    assert result.statistic == difference.mean()
    np.testing.assert_array_equal(np.sort(result.null_distribution), np.sort(sums / len(a)))


@pytest.mark.parametrize("n", [2, 3, 5, 8, 9, 12, 13])
def test_exact_test_equals_scipy_permutation_test(n):
    rng = np.random.default_rng(n)
    a, b = rng.normal(size=n), rng.normal(loc=0.4, size=n)
    theirs = scipy_stats.permutation_test(
        (a, b), _mean_difference, permutation_type="samples", vectorized=True)
    ours = ek.paired_randomization_test(a, b)
    assert ours.exact
    assert ours.pvalue == pytest.approx(theirs.pvalue, abs=1e-12)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)


@pytest.mark.parametrize("shift", [0.0, 0.15, 0.3])
def test_monte_carlo_test_agrees_with_scipy_permutation_test(shift):
    rng = np.random.default_rng(21)
    a = rng.normal(size=40)
    b = a + rng.normal(scale=0.8, size=40) - shift
    theirs = scipy_stats.permutation_test(
        (a, b), _mean_difference, permutation_type="samples", vectorized=True,
        n_resamples=20000, rng=np.random.default_rng(1))
    ours = ek.paired_randomization_test(a, b, n_resamples=20000, seed=2)
    assert not ours.exact and ours.n_resamples == 20000
    assert ours.pvalue == pytest.approx(theirs.pvalue, abs=0.01)
    np.testing.assert_allclose(np.std(ours.null_distribution),
                               np.std(theirs.null_distribution), rtol=0.03)


def test_monte_carlo_p_value_counts_the_flips_and_is_never_zero(rng):
    a = rng.normal(size=30)
    result = ek.paired_randomization_test(a, a - 0.3 + rng.normal(scale=0.5, size=30),
                                          n_resamples=5000, seed=3)
    extreme = np.count_nonzero(np.abs(result.null_distribution) >= abs(result.statistic))
    assert result.pvalue == (extreme + 1) / 5001
    huge = ek.paired_randomization_test(a + 100, a, n_resamples=999, seed=3)
    assert huge.pvalue == 1 / 1000


def test_zero_and_constant_differences(rng):
    scores = rng.random(20)
    for n_resamples in (10, 2**20):  # Monte Carlo and exact
        same = ek.paired_randomization_test(scores, scores, n_resamples=n_resamples, seed=0)
        assert (same.statistic, same.pvalue) == (0.0, 1.0)
    constant = ek.paired_randomization_test([0.5, 0.7, 0.2, 0.9], [0.4, 0.6, 0.1, 0.8])
    assert constant.statistic == pytest.approx(0.1) and constant.pvalue == 2 / 16


def test_flip_blocks_do_not_change_the_result(monkeypatch, rng):
    a, b = rng.normal(size=70), rng.normal(size=70)
    small_a, small_b = a[:11], b[:11]
    before = [ek.paired_randomization_test(a, b, n_resamples=3000, seed=5),
              ek.paired_randomization_test(small_a, small_b)]
    monkeypatch.setattr(stats_randomization, "_FLIP_BLOCK", 1)
    after = [ek.paired_randomization_test(a, b, n_resamples=3000, seed=5),
             ek.paired_randomization_test(small_a, small_b)]
    for one, other in zip(before, after, strict=True):
        assert tuple(one) == tuple(other)
        np.testing.assert_array_equal(one.null_distribution, other.null_distribution)


def test_memory_stays_bounded_for_many_queries_and_resamples():
    import tracemalloc

    rng = np.random.default_rng(0)
    a, b = rng.random(5000), rng.random(5000)
    tracemalloc.start()
    try:
        ek.paired_randomization_test(a, b, n_resamples=20000, seed=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # A dense 20000 x 5000 sign matrix would take 800 MB.
    assert peak < 30e6


# Scores in [0, 1], without subnormal floats (below 2.2e-308): squaring those underflows to 0,
# so a difference of 1e-309 reads as constant (t = inf), in scipy as in evalkit.
paired_lists = st.integers(2, 24).flatmap(lambda n: st.tuples(
    st.lists(st.floats(0, 1, allow_subnormal=False), min_size=n, max_size=n),
    st.lists(st.floats(0, 1, allow_subnormal=False), min_size=n, max_size=n)))


@given(paired_lists)
def test_randomization_p_value_is_in_the_unit_interval_and_symmetric(pair):
    a, b = pair
    forward = ek.paired_randomization_test(a, b, n_resamples=500, seed=1)
    backward = ek.paired_randomization_test(b, a, n_resamples=500, seed=1)
    assert 0 < forward.pvalue <= 1
    assert forward.pvalue == backward.pvalue
    assert forward.statistic == -backward.statistic


@pytest.mark.parametrize("kwargs, error, message", [
    ({"scores_a": [0.1, 0.2], "scores_b": [0.3]}, ValueError,
     r"scores_a and scores_b have different lengths \(2 != 1\)"),
    ({"scores_a": [0.1], "scores_b": [0.3]}, ValueError, "scores_a holds 1 value"),
    ({"scores_a": [0.1, np.nan], "scores_b": [0.3, 0.2]}, ValueError, "scores_a contains NaN"),
    ({"scores_a": [0.1, 0.2], "scores_b": [0.3, np.inf]}, ValueError,
     "scores_b contains an infinite value"),
    ({"scores_a": ["a", "b"], "scores_b": [0.3, 0.2]}, ValueError, "scores_a must hold numbers"),
    ({"scores_a": [0.1, 0.2], "scores_b": [0.3, 0.2], "n_resamples": 0}, ValueError,
     "n_resamples must be a whole number >= 1"),
    ({"scores_a": [0.1, 0.2], "scores_b": [0.3, 0.2], "n_resamples": 1e3 + 0.5}, ValueError,
     "n_resamples must be a whole number"),
    ({"scores_a": [0.1, 0.2], "scores_b": [0.3, 0.2], "seed": 1.5}, TypeError,
     "seed must be None"),
])
def test_randomization_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        ek.paired_randomization_test(**kwargs)


# ---------------------------------------------------------------------------------------------
# Cluster (grouped) bootstrap
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_cluster_bootstrap_with_one_row_per_cluster_is_the_row_bootstrap(method, rng):
    n = 60
    y = rng.normal(size=n)
    y_true = rng.integers(0, 3, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, 3, n))
    macro_f1 = functools.partial(ek.f1_score, average="macro")
    pairs = [
        ((np.mean, y), (np.mean, y)),  # vectorised, in blocks
        ((lambda v: float(np.median(v)), y), (lambda v: float(np.median(v)), y)),  # loop
        # multinomial per-cluster counts against the plain row bootstrap by index
        ((macro_f1, y_true, y_pred),
         (lambda t, p: ek.f1_score(t, p, average="macro"), y_true, y_pred)),
    ]
    for clustered_call, row_call in pairs:
        clustered = ek.bootstrap_ci(*clustered_call, groups=np.arange(n), method=method,
                                    n_resamples=400, seed=9)
        rows = ek.bootstrap_ci(*row_call, method=method, n_resamples=400, seed=9)
        np.testing.assert_allclose(clustered.distribution, rows.distribution, rtol=1e-12)
        assert (clustered.low, clustered.high) == pytest.approx((rows.low, rows.high),
                                                                rel=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_cluster_bootstrap_counts_path_equals_the_index_path(method, rng):
    n = 250
    groups = rng.integers(0, 30, n)  # unequal clusters
    y_true = rng.integers(0, 3, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, 3, n))
    for metric in (ek.accuracy, functools.partial(ek.f1_score, average="macro"),
                   functools.partial(ek.precision, average="weighted", zero_division=0.0),
                   ek.cohen_kappa, ek.error_rate):
        fast = ek.bootstrap_ci(metric, y_true, y_pred, groups=groups, method=method,
                               n_resamples=300, seed=4)
        slow = ek.bootstrap_ci(lambda t, p, m=metric: m(t, p), y_true, y_pred, groups=groups,
                               method=method, n_resamples=300, seed=4)
        assert (fast.resampling, slow.resampling) == ("multinomial", "loop")
        np.testing.assert_allclose(fast.distribution, slow.distribution, rtol=1e-12)
        assert (fast.low, fast.high) == pytest.approx((slow.low, slow.high), rel=1e-12)


def test_cluster_bootstrap_vectorised_and_loop_agree_on_unequal_clusters(rng):
    groups = np.repeat(["d1", "d2", "d3", "d4", "d5", "d6"], [1, 5, 2, 7, 3, 4])
    y = rng.normal(size=len(groups))
    fast = ek.bootstrap_ci(np.mean, y, groups=groups, method="bca", seed=2)
    slow = ek.bootstrap_ci(lambda v: float(v.mean()), y, groups=groups, method="bca", seed=2)
    assert (fast.resampling, slow.resampling) == ("vectorized", "loop")
    np.testing.assert_allclose(fast.distribution, slow.distribution, rtol=1e-12)
    # every resample is a union of whole clusters: its mean is a ratio of cluster sums
    sums = pd.Series(y).groupby(groups).sum()
    sizes = pd.Series(y).groupby(groups).size()
    drawn = np.random.default_rng(2).integers(0, 6, size=6)
    assert fast.distribution[0] == pytest.approx(sums.iloc[drawn].sum()
                                                 / sizes.iloc[drawn].sum())


@pytest.mark.parametrize("equal_sizes", [True, False])
def test_cluster_bootstrap_se_is_the_cluster_robust_se_of_a_mean(equal_sizes):
    rng = np.random.default_rng(2007)
    n_groups = 400
    sizes = np.full(n_groups, 10) if equal_sizes else rng.integers(2, 19, n_groups)
    groups = np.repeat(np.arange(n_groups), sizes)
    # strong within-cluster correlation: cluster effects SD 1, item noise SD 0.5 (rho 0.8)
    y = rng.normal(size=n_groups)[groups] + rng.normal(scale=0.5, size=len(groups))
    n = len(y)
    residual_sums = np.bincount(groups, weights=y - y.mean())
    robust_se = np.sqrt(np.sum(residual_sums**2)) / n  # Cameron & Miller's CR0 SE
    clustered = ek.bootstrap_ci(np.mean, y, groups=groups, n_resamples=2000, seed=1)
    rows = ek.bootstrap_ci(np.mean, y, n_resamples=2000, seed=1)
    # Monte-Carlo error of an SD from 2000 resamples is about 1.6 %
    assert clustered.standard_error == pytest.approx(robust_se, rel=0.06)
    assert rows.standard_error == pytest.approx(y.std() / np.sqrt(n), rel=0.06)
    # the design effect: sqrt(1 + (m - 1) rho) = sqrt(1 + 9 * 0.8) = 2.9 for m = 10
    assert clustered.standard_error > 2 * rows.standard_error
    assert clustered.high - clustered.low > 2 * (rows.high - rows.low)


def test_cluster_bootstrap_of_independent_rows_is_as_wide_as_the_row_bootstrap():
    rng = np.random.default_rng(8)
    groups = np.repeat(np.arange(300), 5)
    y = rng.normal(size=len(groups))  # no cluster effect
    clustered = ek.bootstrap_ci(np.mean, y, groups=groups, n_resamples=2000, seed=1)
    rows = ek.bootstrap_ci(np.mean, y, n_resamples=2000, seed=1)
    assert clustered.standard_error == pytest.approx(rows.standard_error, rel=0.12)


@pytest.mark.parametrize(("groups", "error", "message"), [
    ([0, 0, 1], ValueError, r"groups and a have different lengths \(3 != 4\)"),
    ([0, 0, 1, np.nan], ValueError, "groups contains NaN at position 3"),
    ([1, 1, 1, 1], ValueError, "groups holds 1 cluster"),
    ([[0, 1], [1, 0]], ValueError, "groups must be 1-D"),
    (["a", None, "b", "b"], ValueError, "groups contains None"),
])
def test_cluster_bootstrap_bad_groups(groups, error, message):
    with pytest.raises(error, match=message):
        ek.bootstrap_ci(np.mean, [0.1, 0.2, 0.3, 0.4], groups=groups)


# ---------------------------------------------------------------------------------------------
# Effect sizes
# ---------------------------------------------------------------------------------------------


def test_cohens_d_by_hand():
    # Unequal sizes: the average of the two sample variances (1 and 4), not the pooled SD.
    assert ek.cohens_d([1, 2, 3], [0, 0, 0, 4]) == pytest.approx(1 / np.sqrt(2.5))
    # d_z: differences 0.2, 0.2, 0.2, 0 have mean 0.15 and SD 0.1.
    assert ek.cohens_d([0.8, 0.7, 0.9, 0.6], [0.6, 0.5, 0.7, 0.6],
                       paired=True) == pytest.approx(1.5)


def test_cohens_d_against_scipy_t_statistics(rng):
    for n in (2, 5, 30):
        a, b = rng.normal(size=n), rng.normal(loc=0.3, size=n)
        t_paired = scipy_stats.ttest_rel(a, b).statistic
        assert ek.cohens_d(a, b, paired=True) == pytest.approx(t_paired / np.sqrt(n),
                                                                rel=1e-12)
        # Equal sizes: the average of the variances is the pooled variance of Student's t.
        t_pooled = scipy_stats.ttest_ind(a, b).statistic
        assert ek.cohens_d(a, b) == pytest.approx(t_pooled * np.sqrt(2 / n), rel=1e-12)


def test_cohens_d_with_zero_spread():
    assert ek.cohens_d([1, 1], [1, 1]) == 0.0
    assert ek.cohens_d([2, 2, 2], [1, 1]) == np.inf
    assert ek.cohens_d([0.5, 0.75], [0.25, 0.5], paired=True) == np.inf
    assert ek.cohens_d([0.25, 0.5], [0.5, 0.75], paired=True) == -np.inf
    assert ek.cohens_d([0.3, 0.6], [0.3, 0.6], paired=True) == 0.0


# Magnitudes below 1e-100 are read as 0: their squares underflow (the variance of [0, 1.5e-323]
# is 0.0 in float64 while its mean is not), so "scale-free" cannot hold for them in floating
# point; a hypothesis run found that case.
samples = st.lists(st.floats(-100, 100).map(lambda x: x if abs(x) > 1e-100 else 0.0),
                   min_size=2, max_size=20)


@given(samples, samples, st.booleans())
def test_cohens_d_is_antisymmetric_and_scale_free(a, b, paired):
    if paired:
        b = (b * len(a))[: len(a)]
    d = ek.cohens_d(a, b, paired=paired)
    assert ek.cohens_d(b, a, paired=paired) == -d
    assert not np.isnan(d)
    assume(np.isfinite(d) and abs(d) < 1e6)
    scaled = ek.cohens_d(np.array(a) * 3, np.array(b) * 3, paired=paired)
    assert scaled == pytest.approx(d, rel=1e-6, abs=1e-9)


def test_cohens_d_kinds_by_hand():
    a, b = [1, 2, 3], [0, 0, 0, 4]  # variances 1 and 4, n = 3 and 4
    d_s = 1 / np.sqrt((2 * 1 + 3 * 4) / 5)  # pooled SD weighted by n - 1 (Lakens eq. 1)
    assert ek.cohens_d(a, b, kind="d_s") == pytest.approx(d_s)
    assert ek.cohens_d(a, b, kind="g_s") == pytest.approx(d_s * (1 - 3 / (4 * 5 - 1)))
    # paired: differences 0.2, 0.2, 0.2, 0; SDs sqrt(0.05 / 3) and sqrt(0.02 / 3)
    a, b = [0.8, 0.7, 0.9, 0.6], [0.6, 0.5, 0.7, 0.6]
    d_av = 0.15 / ((np.sqrt(0.05 / 3) + np.sqrt(0.02 / 3)) / 2)  # Lakens eq. 10
    assert ek.cohens_d(a, b, paired=True, kind="d_av") == pytest.approx(d_av)  # 1.4235
    assert ek.cohens_d(a, b, paired=True, kind="g_av") == pytest.approx(
        d_av * (1 - 3 / (4 * 3 - 1)))
    assert ek.cohens_d(a, b, paired=True, kind="d_z") == pytest.approx(1.5)
    assert ek.cohens_d(a, b, paired=True, kind="d_z") == ek.cohens_d(a, b, paired=True)


def test_cohens_d_kinds_against_scipy_and_pingouins_formulas(rng):
    for _ in range(500):
        n_a, n_b = (int(n) for n in rng.integers(2, 40, size=2))
        a = rng.normal(scale=rng.uniform(0.5, 2), size=n_a)
        b = rng.normal(loc=rng.normal(), size=n_b)
        # d_s = Student's t * sqrt(1/n_a + 1/n_b) (Lakens eq. 2)
        t = scipy_stats.ttest_ind(a, b).statistic
        d_s = ek.cohens_d(a, b, kind="d_s")
        assert d_s == pytest.approx(t * np.sqrt(1 / n_a + 1 / n_b), rel=1e-10)
        # pingouin.compute_effsize(a, b, eftype="hedges"), its formulas written out
        pooled = np.sqrt(((n_a - 1) * a.var(ddof=1) + (n_b - 1) * b.var(ddof=1))
                         / (n_a + n_b - 2))
        g = (a.mean() - b.mean()) / pooled * (1 - 3 / (4 * (n_a + n_b) - 9))
        assert ek.cohens_d(a, b, kind="g_s") == pytest.approx(g, rel=1e-10)
        # default unchanged: the average of the two variances
        assert ek.cohens_d(a, b) == pytest.approx(
            (a.mean() - b.mean()) / np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2), rel=1e-12)
        # paired
        n = min(n_a, n_b)
        x, y = a[:n], a[:n] * 0.7 + b[:n] * 0.3
        d_av = (x.mean() - y.mean()) / ((x.std(ddof=1) + y.std(ddof=1)) / 2)
        assert ek.cohens_d(x, y, paired=True, kind="d_av") == pytest.approx(d_av, rel=1e-10)
        assert ek.cohens_d(x, y, paired=True, kind="g_av") == pytest.approx(
            d_av * (1 - 3 / (4 * (n - 1) - 1)), rel=1e-10)
        t_rel = scipy_stats.ttest_rel(x, y).statistic
        assert ek.cohens_d(x, y, paired=True, kind="d_z") == pytest.approx(t_rel / np.sqrt(n),
                                                                           rel=1e-10)


def test_hedges_approximation_is_close_to_the_exact_gamma_form():
    from scipy.special import gammaln

    from evalkit.stats.effect_size import _hedges_correction

    for df in range(4, 400):
        exact = np.exp(gammaln(df / 2) - gammaln((df - 1) / 2)) / np.sqrt(df / 2)
        assert _hedges_correction(df) == pytest.approx(exact, rel=3e-3)


def test_hedges_g_removes_the_small_sample_bias_of_d():
    # Two groups of 5, true effect 0.5: E[d_s] = 0.5 / J_exact(8) = 0.548; g_s is unbiased.
    rng = np.random.default_rng(22)
    d = np.array([ek.cohens_d(rng.normal(0.5, 1, 5), rng.normal(0, 1, 5), kind=kind)
                  for kind in ("d_s",) for _ in range(4000)])
    g = d * (1 - 3 / (4 * 8 - 1))
    se = d.std() / np.sqrt(len(d))
    assert abs(g.mean() - 0.5) < 3 * se
    assert d.mean() - 0.5 > 3 * se


@given(samples, samples, st.sampled_from(["d_s", "g_s", "d_z", "d_av", "g_av"]))
def test_every_kind_is_antisymmetric_and_scale_free(a, b, kind):
    paired = kind in ("d_z", "d_av", "g_av")
    if paired:
        b = (b * len(a))[: len(a)]
    d = ek.cohens_d(a, b, paired=paired, kind=kind)
    assert ek.cohens_d(b, a, paired=paired, kind=kind) == -d
    assert not np.isnan(d)
    assume(np.isfinite(d) and abs(d) < 1e6)
    scaled = ek.cohens_d(np.array(a) * 3, np.array(b) * 3, paired=paired, kind=kind)
    assert scaled == pytest.approx(d, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"kind": "d_z"}, "kind='d_z' needs paired scores"),
    ({"kind": "d_av"}, "kind='d_av' needs paired scores"),
    ({"kind": "g_av"}, "needs paired scores"),
    ({"kind": "d_s", "paired": True}, "kind='d_s' is a between-group d"),
    ({"kind": "g_s", "paired": True}, "between-group"),
    ({"kind": "hedges"}, "kind must be one of"),
])
def test_cohens_d_kind_must_fit_the_design(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ek.cohens_d([0.1, 0.2, 0.4], [0.3, 0.1, 0.2], **kwargs)


def test_effect_size_label_warns_for_d_z_only():
    with pytest.warns(UserWarning, match="between-group d .d_s.; a paired d_z"):
        assert ek.effect_size_label(0.6, kind="d_z") == "medium"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for kind in (None, "d_s", "g_s", "d_av", "g_av"):
            assert ek.effect_size_label(0.6, kind=kind) == "medium"
        # the comparison tables label without a warning (their docstrings say which d)
        a, b = [0.8, 0.7, 0.9, 0.6], [0.6, 0.5, 0.7, 0.6]
        ek.compare_systems(a, b)
        ek.compare_runs(pd.DataFrame({"a": a, "b": b}), baseline="a")
    with pytest.raises(ValueError, match="kind must be one of"):
        ek.effect_size_label(0.6, kind="d")
    with pytest.raises(TypeError, match=r"write effect_size_label\(d, kind='d_s'\)"):
        ek.effect_size_label(0.6, "d_s")


LABEL_ORDER = ["negligible", "very small", "small", "medium", "large", "very large", "huge"]


@given(st.floats(allow_nan=False), st.floats(allow_nan=False))
def test_effect_size_label_is_monotone_in_the_size(d1, d2):
    small, large = sorted((abs(d1), abs(d2)))
    assert LABEL_ORDER.index(ek.effect_size_label(small)) <= LABEL_ORDER.index(
        ek.effect_size_label(large))
    assert ek.effect_size_label(-d1) == ek.effect_size_label(d1)


@pytest.mark.parametrize("d, label", [
    (0.0, "negligible"), (0.0099, "negligible"), (0.01, "very small"), (0.1999, "very small"),
    (0.2, "small"), (0.5, "medium"), (-0.79, "medium"), (0.8, "large"), (1.2, "very large"),
    (1.99, "very large"), (2.0, "huge"), (-np.inf, "huge"), (np.float64(0.6), "medium"),
])
def test_effect_size_label_thresholds(d, label):
    assert ek.effect_size_label(d) == label


# ---------------------------------------------------------------------------------------------
# compare_systems and compare_runs
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 12, 60])
def test_compare_systems_runs_scipy_tests(n, rng):
    a = rng.random(n)
    b = np.clip(a - 0.05 + rng.normal(scale=0.1, size=n), 0, 1)
    paired_t = ek.compare_systems(a, b)
    expected = scipy_stats.ttest_rel(a, b)
    row = paired_t.iloc[0]
    assert paired_t.index.tolist() == ["paired t"]
    assert list(paired_t.columns) == ["mean_a", "mean_b", "difference", "statistic", "pvalue",
                                      "cohens_d", "d_av", "effect_size_label"]
    assert (row.statistic, row.pvalue) == pytest.approx((expected.statistic, expected.pvalue),
                                                        rel=1e-12)
    assert (row.mean_a, row.mean_b, row.difference) == pytest.approx(
        (a.mean(), b.mean(), a.mean() - b.mean()))
    assert row.cohens_d == ek.cohens_d(a, b, paired=True)
    # d_av: the mean difference over the mean of the two SDs (Lakens 2013, eq. 10), by hand;
    # the label names its size, since Cohen's bands are for a between-group d, not d_z.
    sd_mean = (a.std(ddof=1) + b.std(ddof=1)) / 2
    assert row.d_av == pytest.approx((a - b).mean() / sd_mean, rel=1e-12)
    assert row.effect_size_label == ek.effect_size_label(row.d_av)
    wilcoxon = ek.compare_systems(a, b, test="wilcoxon").iloc[0]
    expected = scipy_stats.wilcoxon(a, b)
    assert (wilcoxon.statistic, wilcoxon.pvalue) == pytest.approx(
        (expected.statistic, expected.pvalue), rel=1e-12)
    welch = ek.compare_systems(a, b[: n - 1], paired=False)
    expected = scipy_stats.ttest_ind(a, b[: n - 1], equal_var=False)
    assert welch.index.tolist() == ["Welch t"]
    assert (welch.statistic.iloc[0], welch.pvalue.iloc[0]) == pytest.approx(
        (expected.statistic, expected.pvalue), rel=1e-12)
    assert welch.cohens_d.iloc[0] == ek.cohens_d(a, b[: n - 1])
    assert "d_av" not in welch.columns
    assert welch.effect_size_label.iloc[0] == ek.effect_size_label(welch.cohens_d.iloc[0])
    randomization = ek.compare_systems(a, b, test="randomization", n_resamples=2000, seed=4)
    expected = ek.paired_randomization_test(a, b, n_resamples=2000, seed=4)
    assert (randomization.statistic.iloc[0], randomization.pvalue.iloc[0]) == tuple(expected)


@pytest.mark.parametrize("test", ek_stats.SIGNIFICANCE_TESTS)
def test_identical_systems_show_no_difference(test):
    scores = [0.2, 0.5, 0.9, 0.4]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = ek.compare_systems(scores, scores, test=test).iloc[0]
    assert (row.statistic, row.pvalue, row.cohens_d) == (0.0, 1.0, 0.0)
    assert row.effect_size_label == "negligible"
    welch = ek.compare_systems([0.5] * 3, [0.5] * 4, paired=False).iloc[0]
    assert (welch.statistic, welch.pvalue, welch.cohens_d) == (0.0, 1.0, 0.0)


def test_constant_differences_give_infinite_t_and_d():
    row = ek.compare_systems([0.5, 0.75, 1.0], [0.25, 0.5, 0.75]).iloc[0]
    # d_z is infinite (the differences do not vary); d_av = 0.25 / 0.25 = 1 is "large".
    assert (row.statistic, row.pvalue, row.cohens_d, row.d_av, row.effect_size_label) == (
        np.inf, 0.0, np.inf, 1.0, "large")
    welch = ek.compare_systems([1.0, 1.0, 1.0], [0.0, 0.0], paired=False).iloc[0]
    assert (welch.statistic, welch.pvalue) == (np.inf, 0.0)


@settings(max_examples=60)  # scipy's Wilcoxon test costs milliseconds per call
@given(paired_lists, st.sampled_from(["t", "wilcoxon"]))
def test_compare_systems_p_value_is_symmetric_and_in_the_unit_interval(pair, test):
    a, b = pair
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's notes on ties and zeros in the Wilcoxon test
        forward = ek.compare_systems(a, b, test=test).iloc[0]
        backward = ek.compare_systems(b, a, test=test).iloc[0]
    differences = np.asarray(a, float) - np.asarray(b, float)
    if test == "t" and np.ptp(differences) == 0 and differences[0] != 0:
        assert forward.pvalue == 0.0  # constant non-zero differences: t = ±inf, p = 0 (documented)
    else:
        assert 0 < forward.pvalue <= 1
    assert forward.pvalue == pytest.approx(backward.pvalue, rel=1e-12)
    assert forward.cohens_d == -backward.cohens_d


@pytest.mark.parametrize("kwargs, error, message", [
    ({"paired": False, "test": "wilcoxon"}, ValueError,
     "test='wilcoxon' compares paired scores; with paired=False use test='t'"),
    ({"paired": "yes"}, TypeError, "paired must be True or False"),
    ({"paired": 1}, TypeError, r"paired must be True or False; got 1 \(a int\)"),
    ({"test": "mann-whitney"}, ValueError, "test must be one of 't', 'randomization'"),
    ({"scores_b": [0.1, 0.2]}, ValueError, r"scores_a and scores_b have different lengths"),
    ({"scores_a": [0.3], "scores_b": [0.1, 0.2], "paired": False}, ValueError,
     "scores_a holds 1 value"),
])
def test_compare_systems_bad_input(kwargs, error, message):
    call = {"scores_a": [0.3, 0.4, 0.5], "scores_b": [0.1, 0.2, 0.6], **kwargs}
    with pytest.raises(error, match=message):
        ek.compare_systems(**call)


p_values = st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.01, 0.0125, 0.025,
                                                                  0.05, 0.5, 1.0])),
                    min_size=1, max_size=12)


@given(p_values, st.sampled_from([0.01, 0.05, 0.1]), st.sampled_from(["holm", "bonferroni"]))
def test_holm_and_bonferroni_equal_statsmodels(pvalues, alpha, method):
    pvalues = np.array(pvalues)
    with mock.patch("gc.collect"):  # statsmodels' Holm collects garbage on every call
        reject, corrected, _, _ = multipletests(pvalues, alpha=alpha, method=method)
    adjusted, significant = stats_comparison._adjust(pvalues, method, alpha)
    np.testing.assert_array_equal(adjusted, corrected)
    np.testing.assert_array_equal(significant, reject)


def _runs(rng, n=25):
    base = rng.random(n)
    return pd.DataFrame({
        "bm25": base,
        "rm3": np.clip(base + 0.04 + rng.normal(scale=0.05, size=n), 0, 1),
        "dense": np.clip(base + 0.01 + rng.normal(scale=0.1, size=n), 0, 1),
        "copy": base,
        "worse": np.clip(base - 0.06 + rng.normal(scale=0.05, size=n), 0, 1),
    }, index=pd.Index([f"q{i}" for i in range(n)], name="query_id"))


@pytest.mark.parametrize("correction", ek_stats.CORRECTIONS)
@pytest.mark.parametrize("test", ek_stats.SIGNIFICANCE_TESTS)
def test_compare_runs_is_compare_systems_per_column_then_corrected(test, correction, rng):
    scores = _runs(rng)
    table = ek.compare_runs(scores, baseline="bm25", test=test, correction=correction,
                            alpha=0.05, n_resamples=2000, seed=np.random.default_rng(9))
    assert table.index.tolist() == ["rm3", "dense", "copy", "worse"]
    assert table.index.name == "system"
    assert list(table.columns) == ["mean", "difference", "statistic", "pvalue",
                                   "pvalue_adjusted", "significant", "cohens_d", "d_av",
                                   "effect_size_label"]
    generator = np.random.default_rng(9)
    for system, row in table.iterrows():
        one = ek.compare_systems(scores[system], scores["bm25"], test=test, n_resamples=2000,
                                 seed=generator).iloc[0]
        assert row["mean"] == scores[system].mean()
        assert row.difference == pytest.approx(scores[system].mean() - scores["bm25"].mean())
        for column in ("statistic", "pvalue", "cohens_d", "d_av", "effect_size_label"):
            assert row[column] == one[column]
    if correction is None:
        np.testing.assert_array_equal(table.pvalue_adjusted, table.pvalue)
        np.testing.assert_array_equal(table.significant, table.pvalue <= 0.05)
    else:
        reject, corrected, _, _ = multipletests(table.pvalue, alpha=0.05, method=correction)
        np.testing.assert_array_equal(table.pvalue_adjusted, corrected)
        np.testing.assert_array_equal(table.significant, reject)
    assert table.loc["copy", "pvalue"] == 1.0
    assert table.significant.dtype == bool
    assert table.attrs["baseline"] == "bm25" and table.attrs["correction"] == correction


def test_compare_runs_holm_by_hand():
    # Differences chosen so that the paired t p-values are far apart; Holm multiplies the
    # smallest by 3, the next by 2, the largest by 1, and keeps the sequence increasing.
    scores = pd.DataFrame({"base": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
                           "a": [0.31, 0.39, 0.52, 0.6, 0.72, 0.79],
                           "b": [0.12, 0.25, 0.28, 0.47, 0.5, 0.66],
                           "c": [0.1, 0.21, 0.3, 0.4, 0.49, 0.6]})
    table = ek.compare_runs(scores, baseline="base")
    p = table.pvalue.to_numpy()
    order = np.argsort(p)
    expected = np.maximum.accumulate(p[order] * np.array([3, 2, 1]))
    np.testing.assert_allclose(table.pvalue_adjusted.to_numpy()[order], np.minimum(expected, 1))


@pytest.mark.parametrize("scores, kwargs, error, message", [
    ({"bm25": [0.1, 0.2], "rm3": [0.2, 0.3]}, {}, TypeError, "scores must be a DataFrame"),
    (pd.DataFrame({"bm25": [0.1, 0.2], "rm3": [0.2, 0.3]}), {"baseline": "BM25"}, ValueError,
     r"baseline must be one of the columns of scores \['bm25', 'rm3'\]; got 'BM25'"),
    (pd.DataFrame({"bm25": [0.1, 0.2]}), {}, ValueError, "scores holds only the baseline"),
    (pd.DataFrame({"bm25": [0.1], "rm3": [0.2]}), {}, ValueError, r"scores has 1 row\(s\)"),
    (pd.DataFrame({"bm25": [0.1, 0.2], "rm3": [0.2, np.nan]}, index=["q1", "q2"]), {},
     ValueError, r"scores\['rm3'\] contains NaN or inf at row 'q2'"),
    (pd.DataFrame({"bm25": [0.1, 0.2], "rm3": ["a", "b"]}), {}, ValueError,
     r"scores\['rm3'\] must hold numbers"),
    (pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], columns=["bm25", "bm25"]), {}, ValueError,
     "scores has repeated column names"),
    (pd.DataFrame({"bm25": [0.1, 0.2], "rm3": [0.2, 0.3]}), {"correction": "fdr_bh"},
     ValueError, "correction must be one of None, 'holm', 'bonferroni'; got 'fdr_bh'"),
    (pd.DataFrame({"bm25": [0.1, 0.2], "rm3": [0.2, 0.3]}), {"alpha": 5}, ValueError,
     r"alpha must be a real number in \(0, 1\)"),
])
def test_compare_runs_bad_input(scores, kwargs, error, message):
    with pytest.raises(error, match=message):
        ek.compare_runs(scores, **{"baseline": "bm25", **kwargs})


def test_proportion_ci_is_exported_at_the_top_level():
    assert ek.proportion_ci is proportion_ci


def test_result_repr_summarises_long_arrays_but_keeps_them():
    # A student who prints a bootstrap result sees the interval, not a thousand numbers.
    result = ek.bootstrap_ci(ek.accuracy, [1, 0, 1, 1, 0, 1, 0, 0], [1, 0, 0, 1, 0, 1, 1, 0],
                             n_resamples=1000, seed=0)
    text = repr(result)
    assert "distribution=<array of 1000 float64 values>" in text
    assert f"low={result.low!r}" in text and "method='percentile'" in text
    assert result.distribution.shape == (1000,)
    short = ek.paired_randomization_test([0.5, 0.1], [0.4, 0.2])  # exact: 2^2 = 4 values
    assert "null_distribution=array([" in repr(short)


# --- Estimating accuracy from small samples: the summary of a simulation --------------------

def _estimates_table(rng, n_repeats=7):
    rows = []
    for repeat in range(n_repeats):
        truth = rng.uniform(0.6, 0.9)
        rows.append((100, repeat, "truth", np.nan, truth))
        for fraction in (0.2, 0.5):
            rows.append((100, repeat, "holdout", fraction, rng.uniform(0.5, 1.0)))
        for k in (5, 10):
            rows.append((100, repeat, "k-fold", float(k), rng.uniform(0.5, 1.0)))
        rows.append((100, repeat, "leave-one-out", np.nan, rng.uniform(0.5, 1.0)))
    return pd.DataFrame(rows, columns=["n_available", "repeat", "method", "parameter",
                                       "estimate"])


def test_estimation_summary_by_hand():
    table = pd.DataFrame({"n_available": 10, "repeat": [0, 0, 0, 1, 1, 1],
                          "method": ["truth", "holdout", "leave-one-out"] * 2,
                          "parameter": [np.nan, 1 / 3, np.nan] * 2,
                          "estimate": [0.8, 0.5, 0.9, 0.6, 0.8, 0.6]})
    summary = ek.estimation_summary(table).set_index("method")
    # holdout errors -0.3 and +0.2; leave-one-out +0.1 and 0.0
    assert summary.loc["holdout", "n_train"] == 10 - 4  # ceil(10/3) = 4 tested
    assert summary.loc["holdout", "bias"] == pytest.approx(-0.05)
    assert summary.loc["holdout", "sd"] == pytest.approx(np.std([-0.3, 0.2], ddof=1))
    assert summary.loc["holdout", "rmse"] == pytest.approx(np.sqrt((0.09 + 0.04) / 2))
    assert summary.loc["leave-one-out", "parameter"] == 10  # n folds
    assert summary.loc["leave-one-out", "n_train"] == 9
    assert summary.loc["leave-one-out", "mean"] == pytest.approx(0.75)
    assert list(summary["n_samples"]) == [2, 2]


def test_estimation_summary_rmse_is_bias_and_spread(rng):
    table = _estimates_table(rng)
    summary = ek.estimation_summary(table)
    r = summary["n_samples"].to_numpy()
    assert np.allclose(summary["rmse"] ** 2,
                       summary["bias"] ** 2 + summary["sd"] ** 2 * (r - 1) / r)
    assert list(summary["method"]) == ["holdout", "holdout", "k-fold", "k-fold",
                                       "leave-one-out"]
    assert list(summary["n_train"]) == [80, 50, 80, 90, 99]
    # Every row against a plain pandas computation of the same numbers.
    truth = table[table["method"] == "truth"].set_index("repeat")["estimate"]
    for row in summary.itertuples():
        rows = table[(table["method"] == row.method)
                     & ((table["parameter"] == row.parameter) | (row.method == "leave-one-out"))]
        error = rows["estimate"].to_numpy() - truth.loc[rows["repeat"]].to_numpy()
        assert row.bias == pytest.approx(error.mean())
        assert row.sd == pytest.approx(error.std(ddof=1))


def test_estimation_summary_of_the_shipped_study_is_what_notebook_21_prints():
    from evalkit.datasets import data_path

    summary = ek.estimation_summary(pd.read_csv(data_path("estimation", "explorer.csv")))
    ten = summary[(summary["n_available"] == 100) & (summary["method"] == "k-fold")
                  & (summary["parameter"] == 10)].iloc[0]
    assert (round(ten["bias"], 3), round(ten["sd"], 3), round(ten["rmse"], 3)) == (
        -0.012, 0.036, 0.038)


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.drop(columns="repeat"), "estimates lacks the column"),
    (lambda t: t.assign(method=t["method"].replace("holdout", "jackknife")),
     "unknown method"),
    (lambda t: t[t["method"] != "truth"], "has no 'truth' rows"),
    (lambda t: t.assign(estimate=t["estimate"].where(t["method"] != "k-fold", np.nan)),
     r"accuracies in \[0, 1\]"),
    (lambda t: t[~((t["method"] == "truth") & (t["repeat"] == 3))],
     "without the truth of their sample"),
])
def test_estimation_summary_bad_tables(rng, change, message):
    with pytest.raises(ValueError, match=message):
        ek.estimation_summary(change(_estimates_table(rng)))
    with pytest.raises(TypeError, match="estimates must be a DataFrame"):
        ek.estimation_summary([[0.5]])
# --------------------------------------------------------------------------------------------
# t_test_power: against statsmodels' TTestIndPower / TTestPower
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("effect_size", [0.0, 0.2, 0.5, 0.8, 1.2, 2.0, -0.7])
@pytest.mark.parametrize("n", [2, 5, 26, 100])
@pytest.mark.parametrize("alpha", [0.01, 0.05])
def test_t_test_power_matches_statsmodels(effect_size, n, alpha):
    from statsmodels.stats.power import TTestIndPower, TTestPower

    unpaired = TTestIndPower().power(effect_size=effect_size, nobs1=n, alpha=alpha, ratio=1.0)
    paired = TTestPower().power(effect_size=effect_size, nobs=n, alpha=alpha)
    # statsmodels (through scipy's noncentral t) gives NaN where the far tail underflows;
    # the power is then within 1e-5 of 1.
    for ours, theirs in [(ek.t_test_power(effect_size, n, alpha=alpha), unpaired),
                         (ek.t_test_power(effect_size, n, paired=True, alpha=alpha), paired)]:
        if np.isnan(theirs):
            assert 1 - 1e-5 < ours <= 1
        else:
            assert ours == pytest.approx(theirs, abs=1e-9)


def test_t_test_power_by_hand_and_by_simulation():
    # No effect: the power is the false-positive rate alpha.
    assert ek.t_test_power(0.0, 5) == pytest.approx(0.05)
    # Simulated five-run Student tests at d = 2 find the difference about 79% of the time.
    rng = np.random.default_rng(0)
    a = rng.normal(2.0, 1.0, size=(20000, 5))
    b = rng.normal(0.0, 1.0, size=(20000, 5))
    simulated = (scipy_stats.ttest_ind(a, b, axis=1).pvalue < 0.05).mean()
    assert ek.t_test_power(2.0, 5) == pytest.approx(simulated, abs=0.01)
    # More runs, more power; a paired test on n pairs has n - 1 degrees of freedom.
    assert ek.t_test_power(0.8, 10) < ek.t_test_power(0.8, 26) < ek.t_test_power(0.8, 100)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"effect_size": float("nan"), "n": 5}, "effect_size"),
    ({"effect_size": 0.5, "n": 1}, "n"),
    ({"effect_size": 0.5, "n": 2.5}, "n"),
    ({"effect_size": 0.5, "n": 5, "alpha": 0.0}, "alpha"),
    ({"effect_size": 0.5, "n": 5, "alpha": 1.5}, "alpha"),
])
def test_t_test_power_rejects_bad_input_naming_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        ek.t_test_power(**kwargs)


def test_t_test_power_options_are_keyword_only():
    with pytest.raises(TypeError):
        ek.t_test_power(0.5, 5, True)


# --------------------------------------------------------------------------------------------
# equal_variance_test: against scipy (Bartlett, Levene) and the F distribution by hand
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equal_variance_test_matches_scipy_and_the_f_distribution(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0, 1.0, 40), rng.normal(3, 1.3, 55)
    bartlett = ek.equal_variance_test(a, b, test="bartlett")
    assert tuple(bartlett) == pytest.approx(tuple(scipy_stats.bartlett(a, b)))
    levene = ek.equal_variance_test(a, b)
    assert tuple(levene) == pytest.approx(tuple(scipy_stats.levene(a, b, center="mean")))
    f = ek.equal_variance_test(a, b, test="f")
    ratio = a.var(ddof=1) / b.var(ddof=1)
    one_sided = scipy_stats.f.cdf(ratio, 39, 54)
    assert f.statistic == pytest.approx(ratio) == f.variance_ratio == levene.variance_ratio
    assert f.pvalue == pytest.approx(2 * min(one_sided, 1 - one_sided))
    # Two-sided: swapping the samples inverts F and keeps p.
    assert ek.equal_variance_test(b, a, test="f").pvalue == pytest.approx(f.pvalue)


def test_equal_variance_test_p_values_fall_with_the_sample_size_at_a_fixed_ratio():
    rng = np.random.default_rng(3)
    noise_a, noise_b = rng.standard_normal(10000), rng.standard_normal(10000)
    small = ek.equal_variance_test(noise_a[:100] * 0.9, noise_b[:100], test="f").pvalue
    large = ek.equal_variance_test(noise_a * 0.9, noise_b, test="f").pvalue
    assert large < 1e-10 < 0.01 < small


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"a": [1.0, 2.0], "b": [1.0, 2.0], "test": "t"}, "test"),
    ({"a": [1.0], "b": [1.0, 2.0]}, "a"),
    ({"a": [1.0, 2.0], "b": [1.0, float("nan")]}, "b"),
    ({"a": [1.0, 2.0], "b": [1.0, 1.0]}, "b"),
])
def test_equal_variance_test_rejects_bad_input_naming_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        ek.equal_variance_test(**kwargs)


# --------------------------------------------------------------------------------------------
# simulate_test_accuracies and interval_coverage
# --------------------------------------------------------------------------------------------


def test_simulated_accuracies_are_numpys_binomial_draws_over_n():
    measured = ek.simulate_test_accuracies(30, 0.7, n_repeats=1000, seed=3)
    expected = np.random.default_rng(3).binomial(30, 0.7, 1000) / 30
    np.testing.assert_array_equal(measured, expected)
    assert measured.shape == (1000,)


def test_simulated_accuracies_spread_as_the_binomial_formula_says():
    measured = ek.simulate_test_accuracies(400, 0.9, n_repeats=40_000, seed=1)
    assert measured.mean() == pytest.approx(0.9, abs=0.001)
    assert measured.std(ddof=1) == pytest.approx(np.sqrt(0.9 * 0.1 / 400), rel=0.02)


def test_simulated_accuracies_take_a_generator_and_edge_accuracies():
    rng = np.random.default_rng(0)
    first = ek.simulate_test_accuracies(10, 0.5, n_repeats=5, seed=rng)
    second = ek.simulate_test_accuracies(10, 0.5, n_repeats=5, seed=rng)
    assert not np.array_equal(first, second)  # the stream continues
    assert ek.simulate_test_accuracies(10, 0.0, n_repeats=4, seed=0).tolist() == [0.0] * 4


@pytest.mark.parametrize("kwargs, message", [
    ({"n_test": 0, "true_accuracy": 0.8}, "n_test"),
    ({"n_test": 10, "true_accuracy": 1.5}, "true_accuracy"),
    ({"n_test": 10, "true_accuracy": 0.8, "n_repeats": 0}, "n_repeats"),
    ({"n_test": 10, "true_accuracy": 0.8, "seed": -1}, "seed"),
])
def test_simulated_accuracies_reject_bad_input_naming_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ek.simulate_test_accuracies(**kwargs)


@pytest.mark.parametrize("method", ["wilson", "normal", "exact"])
@pytest.mark.parametrize("n, p", [(20, 0.95), (100, 0.8), (37, 0.5), (5, 0.0)])
def test_interval_coverage_is_the_binomial_sum_by_hand(method, n, p):
    # By hand: loop over every k, ask scipy (wilson, exact) or statsmodels (normal) for the
    # interval, and add the binomial probability of the k whose interval holds p.
    total = 0.0
    for k in range(n + 1):
        if method == "normal":
            low, high = proportion_confint(k, n, alpha=0.05, method="normal")
            low, high = max(low, 0.0), min(high, 1.0)
        else:
            ci = binomtest(k, n).proportion_ci(method=method)
            low, high = ci.low, ci.high
        if low - 1e-12 <= p <= high + 1e-12:
            total += scipy_stats.binom.pmf(k, n, p)
    assert ek.interval_coverage(n, p, method=method) == pytest.approx(total, abs=1e-9)


def test_interval_coverage_agrees_with_a_simulation_and_brown_cai_dasgupta():
    # Brown, Cai & DasGupta (2001): Wald's coverage at n = 20 is far below 0.95 near p = 0.95.
    assert ek.interval_coverage(20, 0.95, method="normal") < 0.7
    assert ek.interval_coverage(20, 0.95, method="exact") >= 0.95
    measured = ek.simulate_test_accuracies(50, 0.85, n_repeats=100_000, seed=0)
    low, high = proportion_ci(np.rint(measured * 50).astype(int), 50)
    simulated = np.mean((low <= 0.85) & (0.85 <= high))
    assert ek.interval_coverage(50, 0.85) == pytest.approx(simulated, abs=0.004)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"n": 0, "p": 0.5}, ValueError, "n"),
    ({"n": 10, "p": 1.5}, ValueError, "p"),
    ({"n": 10, "p": 0.5, "method": "wald"}, ValueError, "method"),
    ({"n": 10, "p": 0.5, "confidence": 1.0}, ValueError, "confidence"),
    ({"n": True, "p": 0.5}, TypeError, "n"),
])
def test_interval_coverage_rejects_bad_input_naming_the_argument(kwargs, error, message):
    with pytest.raises(error, match=message):
        ek.interval_coverage(**kwargs)


def test_whole_float_counts_give_the_integer_interval():
    assert tuple(proportion_ci(80.0, 100.0)) == tuple(proportion_ci(80, 100))
    low, _ = proportion_ci(np.array([0.0, 3.0]), np.array([5, 5]))
    assert low.tolist() == proportion_ci(np.array([0, 3]), 5).low.tolist()


# ---------------------------------------------------------------------------------------------
# The gate: one exception class and one message per kind of mistake, options by keyword
# ---------------------------------------------------------------------------------------------


FLAG_CALLS = [
    (ek.cohens_d, ([0.1, 0.2, 0.4], [0.3, 0.1, 0.2]), "paired"),
    (ek.t_test_power, (0.5, 10), "paired"),
    (ek.compare_systems, ([0.1, 0.2, 0.4], [0.3, 0.1, 0.2]), "paired"),
    (ek.simulate_estimates, (None, None, None), "leave_one_out"),
]


@pytest.mark.parametrize("function, args, flag", FLAG_CALLS,
                         ids=[f"{f.__name__}-{flag}" for f, _, flag in FLAG_CALLS])
@pytest.mark.parametrize("value", [1, "yes", None, np.float64(1.0)])
def test_every_flag_rejects_a_non_bool_with_one_message(function, args, flag, value):
    kwargs = {flag: value}
    if function is ek.simulate_estimates:
        from sklearn.neighbors import KNeighborsClassifier

        rng = np.random.default_rng(0)
        args = (KNeighborsClassifier(1), rng.normal(size=(60, 2)), rng.integers(0, 2, 60))
        kwargs["n_available"] = 30
    with pytest.raises(TypeError, match=rf"^{flag} must be True or False; got "
                                        rf"{re.escape(repr(value))} \(a {type(value).__name__}\)$"):
        function(*args, **kwargs)


def test_numpy_bools_pass_as_flags():
    a, b = [0.8, 0.7, 0.9, 0.6], [0.6, 0.5, 0.7, 0.6]
    assert ek.cohens_d(a, b, paired=np.True_) == ek.cohens_d(a, b, paired=True)
    assert ek.cohens_d(a, b, paired=True) == pytest.approx(1.5)  # d_z = 0.15 / 0.1


KEYWORD_CALLS = [
    (ek.proportion_ci, (80, 100, 0.9), "proportion_ci(successes, n, confidence=0.9)"),
    (ek.simulate_test_accuracies, (100, 0.8, 10),
     "simulate_test_accuracies(n_test, true_accuracy, n_repeats=10)"),
    (ek.interval_coverage, (20, 0.9, "exact"), "interval_coverage(n, p, method='exact')"),
    (ek.paired_randomization_test, ([0.1, 0.2], [0.2, 0.1], 100),
     "paired_randomization_test(scores_a, scores_b, n_resamples=100)"),
    (ek.cohens_d, ([0.1, 0.2], [0.2, 0.1], True), "cohens_d(a, b, paired=True)"),
    (ek.t_test_power, (0.5, 10, True, 0.01), "t_test_power(effect_size, n, paired=True, "
                                              "alpha=0.01)"),
    (ek.equal_variance_test, ([0.1, 0.2], [0.2, 0.1], "f"),
     "equal_variance_test(a, b, test='f')"),
    (ek.compare_systems, ([0.1, 0.2], [0.2, 0.1], False),
     "compare_systems(scores_a, scores_b, paired=False)"),
    (ek.compare_runs, (pd.DataFrame({"a": [0.1, 0.2], "b": [0.2, 0.1]}), "a"),
     "compare_runs(scores, baseline='a')"),
    (ek.available_sample, (10, 4, 0, 1), "available_sample(n_total, n_available, seed=0, "
                                          "repeat=1)"),
    (ek.simulate_estimates, (None, None, None, 30), "simulate_estimates(estimator, X, y, "
                                                    "n_available=30)"),
]


@pytest.mark.parametrize("function, args, call", KEYWORD_CALLS,
                         ids=[f.__name__ for f, _, _ in KEYWORD_CALLS])
def test_a_positional_option_is_a_type_error_that_shows_the_keyword_call(function, args, call):
    with pytest.raises(TypeError, match=re.escape(f"write {call}")):
        function(*args)


def test_every_public_stats_function_with_options_takes_them_by_keyword_only():
    for name in ek.stats.__all__:
        function = getattr(ek.stats, name)
        if not inspect.isfunction(function):
            continue
        parameters = inspect.signature(function).parameters.values()
        kinds = {parameter.kind for parameter in parameters}
        if inspect.Parameter.KEYWORD_ONLY in kinds and name != "bootstrap_ci":  # *arrays
            assert hasattr(function, "__wrapped__"), f"{name} lacks @keyword_only"
        assert inspect.Parameter.POSITIONAL_OR_KEYWORD not in kinds or name in (
            "effect_size_label", "estimation_summary", "proportion_se",
            "friedman_test",  # data only: nothing to pass by keyword
        ) or inspect.Parameter.KEYWORD_ONLY in kinds


def test_the_stats_package_imports_no_presentation_and_no_cycle():
    import ast
    from pathlib import Path

    package = Path(ek.stats.__file__).parent
    imports: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        tree = ast.parse(path.read_text())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert not (node.level == 2 and (node.module or "").split(".")[0] in (
                    "widgets", "plots")), path.name
                if node.level == 1 and node.module:
                    found.add(node.module)
        imports[path.stem] = found
    # Each module imports only modules listed before it: no cycle.
    order = ["_common", "proportion", "bootstrap", "randomization", "effect_size", "variance",
             "comparison", "estimation", "__init__"]
    # Issue 30: two classifiers on one test set (McNemar; any metric), two learning
    # algorithms over resampled training sets, Friedman and Nemenyi.
    for module in ("mcnemar", "classifiers", "crossval", "ranks"):
        order.insert(order.index("__init__"), module)
    # Issue 32: per-class scores of weighted resamples (notebooks 25 and 26).
    order.insert(order.index("__init__"), "resampled")
    assert set(imports) == set(order)
    for position, module in enumerate(order):
        assert imports[module] <= set(order[:position]), module


# --------------------------------------------------------------------------------------------
# One name for the number of simulated repetitions; proportion_se; simulate_paired_t_tests
# --------------------------------------------------------------------------------------------


def test_simulate_test_accuracies_takes_n_repeats_and_refuses_the_old_n_sets():
    new = ek.simulate_test_accuracies(30, 0.7, n_repeats=50, seed=3)
    np.testing.assert_array_equal(
        new, np.random.default_rng(3).binomial(30, 0.7, 50) / 30)
    # The name deprecated in 0.1.0 is gone: Python's own error for an unknown keyword.
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_sets'"):
        ek.simulate_test_accuracies(30, 0.7, n_sets=50, seed=3)
    with pytest.raises(ValueError, match="n_repeats"):
        ek.simulate_test_accuracies(30, 0.7, n_repeats=0)


def test_proportion_se_by_hand_and_against_scipy_and_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    assert ek.proportion_se(0.8, 100) == pytest.approx(0.04, abs=1e-15)  # sqrt(0.0016)
    assert ek.proportion_se(0.5, 25) == pytest.approx(0.1, abs=1e-15)  # sqrt(0.25 / 25)
    assert ek.proportion_se(0.0, 7) == 0.0 and ek.proportion_se(1.0, 7) == 0.0
    for p, n in ((0.81, 360), (0.3, 17), (0.999, 5000)):
        assert ek.proportion_se(p, n) == pytest.approx(scipy_stats.binom(n, p).std() / n, rel=1e-12)
    # the Wald interval's half-width is z * SE at the measured proportion
    low, high = proportion_confint(37, 50, alpha=0.05, method="normal")
    z = scipy_stats.norm.ppf(0.975)
    assert (high - low) / 2 == pytest.approx(z * ek.proportion_se(37 / 50, 50), rel=1e-12)
    interval = ek.proportion_ci(37, 50, method="normal")
    assert interval.high - interval.estimate == pytest.approx(
        z * ek.proportion_se(37 / 50, 50), rel=1e-12)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"p": 1.2, "n": 10}, ValueError, "p"),
    ({"p": 0.5, "n": 0}, ValueError, "n"),
    ({"p": 0.5, "n": 2.5}, ValueError, "n"),
    ({"p": 0.5, "n": "10"}, TypeError, "n"),
    ({"p": True, "n": 10}, TypeError, "p"),
])
def test_proportion_se_rejects_bad_input_naming_the_argument(kwargs, error, message):
    with pytest.raises(error, match=message):
        ek.proportion_se(**kwargs)


def test_simulate_paired_t_tests_is_scipys_t_test_and_cohens_d_on_the_same_draws():
    result = ek.simulate_paired_t_tests(12, 0.4, n_repeats=30, seed=5)
    differences = np.random.default_rng(5).standard_normal((30, 12)) + 0.4
    expected = scipy_stats.ttest_1samp(differences, 0.0, axis=1)
    np.testing.assert_array_equal(result.pvalue, expected.pvalue)
    np.testing.assert_array_equal(result.statistic, expected.statistic)
    for row, d_z, t in zip(differences, result.d_z, result.statistic, strict=True):
        assert d_z == pytest.approx(ek.cohens_d(row, np.zeros(12), paired=True), rel=1e-12)
        assert t == pytest.approx(d_z * np.sqrt(12), rel=1e-12)
        assert t == pytest.approx(scipy_stats.ttest_rel(row, np.zeros(12)).statistic, rel=1e-12)
    d_z, pvalue = result
    assert d_z.shape == pvalue.shape == (30,)


def test_simulated_paired_power_matches_t_test_power():
    for effect, n in ((0.0, 30), (0.5, 40), (-0.3, 60)):
        _, pvalue = ek.simulate_paired_t_tests(n, effect, n_repeats=20000, seed=1)
        power = ek.t_test_power(effect, n, paired=True)
        assert (pvalue < 0.05).mean() == pytest.approx(power, abs=0.012)


@pytest.mark.parametrize("kwargs, message", [
    ({"n_topics": 1, "effect_size": 0.5}, "n_topics"),
    ({"n_topics": 10, "effect_size": np.inf}, "effect_size"),
    ({"n_topics": 10, "effect_size": 0.5, "n_repeats": 0}, "n_repeats"),
    ({"n_topics": 10, "effect_size": 0.5, "seed": -1}, "seed"),
])
def test_simulate_paired_t_tests_rejects_bad_input_naming_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ek.simulate_paired_t_tests(**kwargs)
