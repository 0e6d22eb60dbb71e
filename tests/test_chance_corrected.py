"""Chance-corrected numbers: MCC, balanced accuracy, informedness and markedness.

Oracles: scikit-learn (``matthews_corrcoef``, ``balanced_accuracy_score``, and its recall and
precision on each class against the rest) on thousands of random cases; pycm (per-class
``BM`` and ``MK``, their ``average`` and ``weighted_average``, ``Overall_MCC``) when it is
installed; formulas written out here from the definitions (Gorodkin's covariance of one-hot
matrices, per-class counting in Python) on hundreds of cases; a 2x2 table by hand. Then
properties, zero_division, bad input, the fast paths of the bootstrap and
compare_classifiers, and API.md's names at the top level.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn import metrics as skm

import evalkit as ek
from evalkit import _chance, chance_corrected, classification
from evalkit._confusion_stack import stacked_metric
from evalkit.exceptions import UndefinedMetricWarning

API_MD = Path(__file__).resolve().parent.parent.parent / "shared" / "API.md"
MEASURES = (ek.informedness, ek.markedness)
AVERAGED = ("macro", "weighted", "dodrans", "entropy")


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _random_case(rng: np.random.Generator, *, binary: bool | None = None):
    """Random labels: binary or multi-class, ints or strings, classes missing on either side,
    constant predictions, tiny and larger sizes."""
    n = int(rng.choice([1, 2, 3, 5, 8, 20, 60]))
    k = 2 if binary else int(rng.integers(3, 7)) if binary is False else int(rng.integers(1, 7))
    y_true = rng.integers(0, k, n)
    kind = rng.random()
    if kind < 0.15:  # a constant prediction
        y_pred = np.full(n, rng.integers(0, k))
    elif kind < 0.3:  # a class only predicted (k + 1 is not in y_true)
        y_pred = np.where(rng.random(n) < 0.3, k, y_true)
    elif kind < 0.45:  # a class of y_true never predicted
        y_pred = np.where(y_true == 0, 1 % k, y_true)
    else:
        y_pred = np.where(rng.random(n) < rng.random(), y_true, rng.integers(0, k, n))
    if rng.random() < 0.5:
        names = np.array(["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen"])
        return names[y_true], names[y_pred]
    return y_true, y_pred


def _one_vs_rest_rates(y_true, y_pred, label):
    """TPR, TNR, PPV, NPV of ``label`` against the rest, counted in Python (None: 0/0)."""
    pairs = list(zip(y_true.tolist(), y_pred.tolist(), strict=True))
    tp = sum(t == label and p == label for t, p in pairs)
    fn = sum(t == label and p != label for t, p in pairs)
    fp = sum(t != label and p == label for t, p in pairs)
    tn = sum(t != label and p != label for t, p in pairs)

    def ratio(a, b):
        return None if b == 0 else Fraction(a, b)

    return ratio(tp, tp + fn), ratio(tn, tn + fp), ratio(tp, tp + fp), ratio(tn, tn + fn)


def _hand_values(y_true, y_pred, want):
    """Per-class informedness or markedness from the definitions (NaN: undefined)."""
    values = []
    for label in np.unique(np.concatenate([y_true, y_pred])):
        tpr, tnr, ppv, npv = _one_vs_rest_rates(y_true, y_pred, label)
        a, b = (tpr, tnr) if want == "informedness" else (ppv, npv)
        values.append(np.nan if a is None or b is None else float(a + b - 1))
    return np.array(values)


def _gorodkin(y_true, y_pred):
    """Gorodkin's R_K as he defines it: the covariance of the one-hot matrices X and Y,
    cov(X, Y) = sum over classes of the covariance of the columns (None: 0 denominator)."""
    classes = np.unique(np.concatenate([y_true, y_pred]))
    x = (y_true[:, None] == classes[None, :]).astype(float)
    y = (y_pred[:, None] == classes[None, :]).astype(float)

    def cov(a, b):
        return float(((a - a.mean(axis=0)) * (b - b.mean(axis=0))).sum())

    denominator = cov(x, x) * cov(y, y)
    return None if denominator == 0 else cov(x, y) / np.sqrt(denominator)


def _weights(support, average):
    return ek.class_weights(support, scheme=average, n_samples=int(np.sum(support)))


# ---------------------------------------------------------------------------------------------
# scikit-learn as the oracle: thousands of random cases
# ---------------------------------------------------------------------------------------------


def test_matthews_corrcoef_is_scikit_learns_to_the_last_bit():
    rng = np.random.default_rng(1)
    for _ in range(2000):
        y_true, y_pred = _random_case(rng)
        expected = skm.matthews_corrcoef(y_true, y_pred)
        assert _quiet(ek.matthews_corrcoef, y_true, y_pred) == expected, (y_true, y_pred)


@pytest.mark.parametrize("adjusted", [False, True])
def test_balanced_accuracy_is_scikit_learns(adjusted):
    rng = np.random.default_rng(2)
    compared = 0
    for _ in range(2000):
        y_true, y_pred = _random_case(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = skm.balanced_accuracy_score(y_true, y_pred, adjusted=adjusted)
            value = ek.balanced_accuracy(y_true, y_pred, adjusted=adjusted)
        if adjusted and len(np.unique(y_true)) == 1:
            # scikit-learn divides by 1 - 1/1 = 0 (NaN or -inf); evalkit's zero_division.
            assert value == 0.0 and not np.isfinite(expected)
            continue
        assert value == pytest.approx(expected, rel=1e-13, abs=1e-15), (y_true, y_pred)
        compared += 1
    assert compared > 1200


def test_binary_informedness_is_recall_plus_specificity_minus_one_in_scikit_learn():
    rng = np.random.default_rng(3)
    compared = 0
    for _ in range(1000):
        y_true, y_pred = _random_case(rng, binary=True)
        classes = np.unique(np.concatenate([y_true, y_pred]))
        if len(classes) != 2:
            continue
        for positive, negative in (classes, classes[::-1]):
            value = _quiet(ek.informedness, y_true, y_pred, pos_label=positive)
            if len(np.unique(y_true)) < 2:  # TPR or TNR is 0/0
                assert value == 0.0
                continue
            tpr = skm.recall_score(y_true, y_pred, pos_label=positive)
            tnr = skm.recall_score(y_true, y_pred, pos_label=negative)  # specificity
            assert value == pytest.approx(tpr + tnr - 1, abs=1e-15)
            compared += 1
    assert compared > 500


@pytest.mark.parametrize("measure", MEASURES, ids=lambda f: f.__name__)
def test_per_class_values_and_averages_are_scikit_learns_one_against_the_rest(measure):
    # scikit-learn's one-against-the-rest counts of each class (multilabel_confusion_matrix:
    # [[TN, FP], [FN, TP]]), divided here; averages over the defined classes.
    rng = np.random.default_rng(4)
    compared = 0
    for _ in range(1500):
        y_true, y_pred = _random_case(rng, binary=False)
        classes = np.unique(np.concatenate([y_true, y_pred]))
        tables = skm.multilabel_confusion_matrix(y_true, y_pred, labels=classes)
        tn, fp, fn, tp = (tables[:, 0, 0], tables[:, 0, 1], tables[:, 1, 0], tables[:, 1, 1])
        first, second = ((tp, tp + fn), (tn, tn + fp)) if measure is ek.informedness else \
            ((tp, tp + fp), (tn, tn + fn))
        with np.errstate(divide="ignore", invalid="ignore"):
            expected = first[0] / first[1] + second[0] / second[1] - 1
        per_class = _quiet(measure, y_true, y_pred, average=None, zero_division=np.nan)
        np.testing.assert_allclose(per_class, expected, rtol=0, atol=1e-15)
        defined = ~np.isnan(expected)
        if not defined.any():
            continue
        support = tp + fn
        assert _quiet(measure, y_true, y_pred, average="macro", zero_division=np.nan) == \
            pytest.approx(expected[defined].mean(), abs=1e-15)
        for average in ("weighted", "dodrans", "entropy"):
            weights = _weights(support, average)[defined]
            mean = (np.average(expected[defined], weights=weights) if weights.sum() > 0
                    else expected[defined].mean())
            assert _quiet(measure, y_true, y_pred, average=average, zero_division=np.nan) \
                == pytest.approx(mean, abs=1e-14)
        compared += 1
    assert compared > 1000


# ---------------------------------------------------------------------------------------------
# pycm as the oracle (when installed), and the definitions written out here
# ---------------------------------------------------------------------------------------------


def test_against_pycm_per_class_bm_and_mk_their_averages_and_overall_mcc():
    pycm = pytest.importorskip("pycm")
    rng = np.random.default_rng(5)
    compared = averaged = 0
    for _ in range(600):
        y_true, y_pred = _random_case(rng)
        if len(y_true) < 2:
            continue
        try:
            matrix = pycm.ConfusionMatrix(actual_vector=y_true.tolist(),
                                          predict_vector=y_pred.tolist())
        except Exception:  # pycm refuses some inputs (e.g. a single class): not ours
            continue
        classes = sorted(matrix.classes)
        if [str(c) for c in classes] != [str(c) for c in np.union1d(y_true, y_pred)]:
            continue  # pycm pads a one-class problem with a second class
        for measure, key in ((ek.informedness, "BM"), (ek.markedness, "MK")):
            expected = np.array([np.nan if matrix.class_stat[key][c] == "None"
                                 else matrix.class_stat[key][c] for c in classes], dtype=float)
            per_class = _quiet(measure, y_true, y_pred, average=None, zero_division=np.nan)
            np.testing.assert_allclose(per_class, expected, rtol=0, atol=1e-12)
            if not np.isnan(expected).any():
                assert _quiet(measure, y_true, y_pred, average="macro") == pytest.approx(
                    matrix.average(key), abs=1e-12)
                assert _quiet(measure, y_true, y_pred, average="weighted") == pytest.approx(
                    matrix.weighted_average(key), abs=1e-12)
                averaged += 1
        mcc = matrix.Overall_MCC
        value = _quiet(ek.matthews_corrcoef, y_true, y_pred, zero_division=np.nan)
        if mcc == "None":
            assert np.isnan(value)
        else:
            assert value == pytest.approx(mcc, abs=1e-12)
        compared += 1
    assert compared > 400 and averaged > 200, (compared, averaged)


@pytest.mark.parametrize("measure", MEASURES, ids=lambda f: f.__name__)
def test_per_class_values_follow_the_definition_counted_by_hand(measure):
    rng = np.random.default_rng(6)
    for _ in range(400):
        y_true, y_pred = _random_case(rng)
        expected = _hand_values(y_true, y_pred, measure.__name__)
        per_class = _quiet(measure, y_true, y_pred, average=None, zero_division=np.nan)
        np.testing.assert_allclose(per_class, expected, rtol=0, atol=1e-15)


def test_matthews_corrcoef_is_gorodkins_covariance_of_one_hot_matrices():
    rng = np.random.default_rng(7)
    for _ in range(400):
        y_true, y_pred = _random_case(rng)
        expected = _gorodkin(y_true, y_pred)
        value = _quiet(ek.matthews_corrcoef, y_true, y_pred, zero_division=np.nan)
        if expected is None:
            assert np.isnan(value)
        else:
            assert value == pytest.approx(expected, abs=1e-12)


def test_the_classic_screening_table_by_hand():
    # A screening test (Altman & Bland's style of example): TP 20, FP 180, FN 10, TN 1820.
    tp, fp, fn, tn = 20, 180, 10, 1820
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    tpr, tnr = Fraction(20, 30), Fraction(1820, 2000)
    ppv, npv = Fraction(20, 200), Fraction(1820, 1830)
    assert ek.informedness(y_true, y_pred) == pytest.approx(float(tpr + tnr - 1), abs=1e-15)
    assert ek.informedness(y_true, y_pred) == pytest.approx(0.576667, abs=1e-6)
    assert ek.markedness(y_true, y_pred) == pytest.approx(float(ppv + npv - 1), abs=1e-15)
    assert ek.markedness(y_true, y_pred) == pytest.approx(0.094536, abs=1e-6)
    mcc = (20 * 1820 - 180 * 10) / np.sqrt(200 * 30 * 2000 * 1830)
    assert ek.matthews_corrcoef(y_true, y_pred) == pytest.approx(mcc, abs=1e-15)
    assert ek.matthews_corrcoef(y_true, y_pred) == pytest.approx(0.2334855, abs=1e-7)
    # MCC is the geometric mean of informedness and markedness (Powers 2011).
    assert ek.matthews_corrcoef(y_true, y_pred) ** 2 == pytest.approx(
        float((tpr + tnr - 1) * (ppv + npv - 1)), abs=1e-15)
    assert ek.balanced_accuracy(y_true, y_pred) == pytest.approx(float((tpr + tnr) / 2),
                                                                 abs=1e-15)
    assert ek.balanced_accuracy(y_true, y_pred, adjusted=True) == pytest.approx(
        float(tpr + tnr - 1), abs=1e-15)
    # Both classes of a binary problem have the same informedness and markedness.
    assert ek.informedness(y_true, y_pred, pos_label=0) == pytest.approx(
        ek.informedness(y_true, y_pred), abs=1e-15)
    np.testing.assert_allclose(ek.markedness(y_true, y_pred, average=None),
                               [float(ppv + npv - 1)] * 2, atol=1e-15)


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------


def label_pairs(max_label: int = 4):
    labels = st.integers(0, max_label)
    return st.integers(1, 40).flatmap(
        lambda n: st.tuples(st.lists(labels, min_size=n, max_size=n),
                            st.lists(labels, min_size=n, max_size=n)))


@given(label_pairs())
def test_mcc_lies_in_minus_one_one_and_is_symmetric(pair):
    y_true, y_pred = pair
    value = _quiet(ek.matthews_corrcoef, y_true, y_pred)
    assert -1.0 - 1e-12 <= value <= 1.0 + 1e-12
    assert value == _quiet(ek.matthews_corrcoef, y_pred, y_true)


@given(label_pairs())
def test_markedness_is_informedness_with_truth_and_prediction_swapped(pair):
    y_true, y_pred = pair
    np.testing.assert_allclose(
        _quiet(ek.markedness, y_true, y_pred, average=None, zero_division=np.nan),
        _quiet(ek.informedness, y_pred, y_true, average=None, zero_division=np.nan),
        atol=1e-15)


@given(st.lists(st.integers(0, 4), min_size=2, max_size=40))
def test_a_perfect_prediction_is_informed_and_marked_and_correlated(y_true):
    assume(len(set(y_true)) >= 2)
    for measure in MEASURES:
        np.testing.assert_array_equal(measure(y_true, y_true, average=None), 1.0)
        assert measure(y_true, y_true, average="weighted") == 1.0
    assert ek.matthews_corrcoef(y_true, y_true) == pytest.approx(1.0, abs=1e-15)
    assert ek.balanced_accuracy(y_true, y_true, adjusted=True) == 1.0


@given(st.lists(st.integers(0, 4), min_size=2, max_size=40), st.integers(0, 39))
def test_a_constant_prediction_of_a_true_class_is_at_chance(y_true, index):
    assume(len(set(y_true)) >= 2)
    constant = y_true[index % len(y_true)]
    y_pred = [constant] * len(y_true)
    np.testing.assert_array_equal(ek.informedness(y_true, y_pred, average=None), 0.0)
    assert ek.informedness(y_true, y_pred, average="macro") == 0.0
    assert ek.balanced_accuracy(y_true, y_pred, adjusted=True) == pytest.approx(0.0, abs=1e-15)
    assert ek.balanced_accuracy(y_true, y_pred) == pytest.approx(1 / len(set(y_true)),
                                                                 abs=1e-15)
    assert _quiet(ek.matthews_corrcoef, y_true, y_pred) == 0.0


@given(label_pairs(1))
def test_binary_adjusted_balanced_accuracy_is_informedness_and_mcc_its_geometric_mean(pair):
    y_true, y_pred = pair
    assume(len(set(y_true)) == 2 and len(set(y_pred)) == 2)
    b, m = ek.informedness(y_true, y_pred), ek.markedness(y_true, y_pred)
    assert ek.balanced_accuracy(y_true, y_pred, adjusted=True) == pytest.approx(b, abs=1e-14)
    assert ek.matthews_corrcoef(y_true, y_pred) ** 2 == pytest.approx(b * m, abs=1e-14)


# ---------------------------------------------------------------------------------------------
# Averages: what each means, and what is refused
# ---------------------------------------------------------------------------------------------


def test_labels_exclude_and_binary_pos_label_select_classes():
    y_true = ["a", "a", "b", "b", "c", "c", "c"]
    y_pred = ["a", "b", "b", "b", "c", "a", "c"]
    per_class = ek.informedness(y_true, y_pred, average=None)
    np.testing.assert_allclose(ek.informedness(y_true, y_pred, average=None,
                                               labels=["c", "a"]), per_class[[2, 0]])
    assert ek.informedness(y_true, y_pred, average="macro", exclude=["b"]) == pytest.approx(
        per_class[[0, 2]].mean())
    assert ek.markedness(y_true, y_pred, average="weighted", labels=["a", "b"]) == \
        pytest.approx(np.average(ek.markedness(y_true, y_pred, average=None)[:2],
                                 weights=[2, 2]))
    with pytest.raises(ValueError, match="average='binary' needs at most two classes"):
        ek.informedness(y_true, y_pred)
    with pytest.raises(ValueError, match="pos_label=1 is not one of the labels"):
        ek.markedness(["a", "b"], ["a", "b"])


@pytest.mark.parametrize("measure", MEASURES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("average", ["micro", "Micro", "macro_pr"])
def test_micro_and_macro_pr_are_refused_with_the_reason(measure, average):
    with pytest.raises(ValueError, match=rf"average='{average.lower()}' has no meaning for "
                                         rf"{measure.__name__}"):
        measure([0, 1, 2], [0, 1, 1], average=average)


def test_the_refused_micro_average_would_be_accuracy_rescaled():
    # Why micro is refused: pooled one-vs-rest rates give (k * accuracy - 1) / (k - 1) for
    # both measures, which a constant prediction does not score 0 on.
    y_true = np.array([0] * 6 + [1] * 3 + [2])
    y_pred = np.zeros(10, dtype=int)
    k, acc = 3, ek.accuracy(y_true, y_pred)
    tp, fn, fp, tn = np.sum([_one_vs_rest_counts(y_true, y_pred, c) for c in range(k)], axis=0)
    micro = tp / (tp + fn) + tn / (tn + fp) - 1
    assert micro == pytest.approx((k * acc - 1) / (k - 1)) and micro != 0
    assert ek.informedness(y_true, y_pred, average="macro") == 0.0


def _one_vs_rest_counts(y_true, y_pred, label):
    t, p = y_true == label, y_pred == label
    return (t & p).sum(), (t & ~p).sum(), (~t & p).sum(), (~t & ~p).sum()


def test_unknown_average_names_the_argument():
    with pytest.raises(ValueError, match="average must be one of None, 'binary', 'macro', "
                                         "'weighted', 'dodrans', 'entropy'; got 'mean'"):
        ek.informedness([0, 1], [0, 1], average="mean")
    assert ek.markedness([0, 1, 2], [0, 1, 2], average="MACRO") == 1.0


# ---------------------------------------------------------------------------------------------
# zero_division
# ---------------------------------------------------------------------------------------------


def test_informedness_of_a_class_without_negatives_follows_zero_division():
    y_true, y_pred = [1, 1, 1], [1, 0, 1]  # no negative sample: TNR is 0/0
    with pytest.warns(UndefinedMetricWarning, match=r"Informedness is ill-defined .* label\(s\) "
                                                    r"1: no true samples .* or no negative"):
        assert ek.informedness(y_true, y_pred) == 0.0
    assert ek.informedness(y_true, y_pred, zero_division=1.0) == 1.0
    assert np.isnan(ek.informedness(y_true, y_pred, zero_division=np.nan))


def test_markedness_of_a_class_never_predicted_follows_zero_division_and_nan_is_skipped():
    y_true, y_pred = [0, 1, 2, 2], [0, 1, 1, 1]  # class 2 is never predicted: PPV is 0/0
    with pytest.warns(UndefinedMetricWarning, match=r"Markedness .* label\(s\) 2"):
        per_class = ek.markedness(y_true, y_pred, average=None)
    assert per_class[2] == 0.0
    with pytest.warns(UndefinedMetricWarning, match="1 undefined .* left out"):
        macro = ek.markedness(y_true, y_pred, average="macro", zero_division=np.nan)
    assert macro == pytest.approx(per_class[:2].mean())


def test_a_label_absent_from_the_data_is_undefined():
    values = _quiet(ek.informedness, [0, 1, 0], [0, 1, 1], average=None, labels=[0, 1, 7],
                    zero_division=np.nan)
    assert np.isnan(values[2]) and not np.isnan(values[:2]).any()


def test_mcc_and_adjusted_balanced_accuracy_of_one_class_follow_zero_division():
    with pytest.warns(UndefinedMetricWarning, match="Matthews correlation coefficient"):
        assert ek.matthews_corrcoef([1, 1, 1], [1, 0, 1]) == 0.0  # scikit-learn's value
    assert np.isnan(ek.matthews_corrcoef([1, 1, 1], [1, 0, 1], zero_division=np.nan))
    assert ek.matthews_corrcoef(["a"], ["a"], zero_division=1.0) == 1.0
    with pytest.warns(UndefinedMetricWarning, match="Adjusted balanced accuracy"):
        assert ek.balanced_accuracy([1, 1], [1, 0], adjusted=True) == 0.0
    assert ek.balanced_accuracy([1, 1], [1, 0], adjusted=True, zero_division=1.0) == 1.0
    assert ek.balanced_accuracy([1, 1], [1, 0]) == 0.5  # plain BA is defined
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ek.balanced_accuracy([0, 1, 1], [2, 1, 0])  # a class only predicted: no warning


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


ALL = (ek.matthews_corrcoef, ek.balanced_accuracy, ek.informedness, ek.markedness)


@pytest.mark.parametrize("function", ALL, ids=lambda f: f.__name__)
def test_bad_input_raises_naming_the_argument(function):
    with pytest.raises(ValueError, match=r"y_true and y_pred have different lengths \(3 != 2\)"):
        function([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="y_true is empty"):
        function([], [])
    with pytest.raises(ValueError, match="labels must be all strings or all numbers"):
        function([0, 1], ["a", "b"])
    with pytest.raises(ValueError, match="zero_division must be"):
        function([0, 1], [0, 1], zero_division=2)
    with pytest.raises(TypeError, match=rf"write {function.__name__}\(y_true, y_pred, "):
        function([0, 1], [0, 1], "macro")


def test_adjusted_must_be_a_bool():
    with pytest.raises(TypeError, match="adjusted must be True or False; got 1"):
        ek.balanced_accuracy([0, 1], [0, 1], adjusted=1)


# ---------------------------------------------------------------------------------------------
# The kernels: stacks of resampled matrices, bootstrap_ci and compare_classifiers
# ---------------------------------------------------------------------------------------------


STACKED_CALLS = [
    ek.matthews_corrcoef,
    functools.partial(ek.matthews_corrcoef, zero_division=np.nan),
    ek.balanced_accuracy,
    functools.partial(ek.balanced_accuracy, adjusted=True),
    *[functools.partial(m, average=a) for m in MEASURES for a in AVERAGED],
    *[functools.partial(m, average=None, labels=[0, 1, 2, 3]) for m in MEASURES],
    functools.partial(ek.informedness, average="macro", exclude=[3]),
    functools.partial(ek.markedness, average="weighted", labels=[0, 3, 9]),
    functools.partial(ek.informedness, average="macro", zero_division=np.nan),
]


def _name(call):
    if isinstance(call, functools.partial):
        return f"{call.func.__name__}({call.keywords})"
    return call.__name__


@pytest.mark.parametrize("metric", STACKED_CALLS, ids=_name)
def test_a_stack_of_resamples_scores_as_the_metric_on_the_resampled_rows(metric):
    # Four classes, one rare: many resamples miss it, and the metric on those rows
    # then knows nothing of it; the stack must agree value for value.
    rng = np.random.default_rng(8)
    y_true = np.array([0] * 12 + [1] * 8 + [2] * 6 + [3] * 2)
    y_pred = np.where(rng.random(28) < 0.6, y_true, rng.integers(0, 4, 28))
    stacked = stacked_metric(metric, y_true, y_pred)
    assert stacked is not None
    classes, _, checked = stacked.confusion(y_true, y_pred)
    rows = rng.integers(0, 28, size=(300, 28))
    stack = np.zeros((300, 4, 4), dtype=np.int64)
    for r, row in enumerate(rows):
        np.add.at(stack[r], (y_true[row], y_pred[row]), 1)
    assert (stack[:, 3, :].sum(axis=1) == 0).any()  # some resamples miss the rare class
    from_rows = np.array([_quiet(metric, y_true[row], y_pred[row]) for row in rows])
    np.testing.assert_allclose(_quiet(stacked, classes, stack, 28, checked), from_rows,
                               rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("metric", STACKED_CALLS[:6], ids=_name)
def test_bootstrap_ci_takes_the_multinomial_path(metric):
    rng = np.random.default_rng(9)
    y_true = rng.integers(0, 3, 80)
    y_pred = np.where(rng.random(80) < 0.7, y_true, rng.integers(0, 3, 80))
    result = _quiet(ek.bootstrap_ci, metric, y_true, y_pred, n_resamples=200, seed=0)
    assert result.resampling == "multinomial"
    assert result.estimate == _quiet(metric, y_true, y_pred)
    assert result.low <= result.estimate <= result.high


@pytest.mark.parametrize("name", ["matthews_corrcoef", "balanced_accuracy", "informedness",
                                  "markedness"])
def test_compare_classifiers_knows_the_names_and_resamples_counts(name):
    assert name in ek.stats.classifiers.CLASSIFIER_METRICS
    rng = np.random.default_rng(10)
    y_true = rng.integers(0, 2, 120)
    y_pred_a = np.where(rng.random(120) < 0.8, y_true, 1 - y_true)
    y_pred_b = np.where(rng.random(120) < 0.6, y_true, 1 - y_true)
    table = _quiet(ek.compare_classifiers, y_true, y_pred_a, y_pred_b, metric=name,
                   n_resamples=500, seed=0)
    assert table["resampling"].iloc[0] == "counts"
    assert table["metric_a"].iloc[0] == getattr(ek, name)(y_true, y_pred_a)
    assert 0 <= table["pvalue"].iloc[0] <= 1


def test_the_kernels_live_in_the_private_module_and_the_functions_are_exported():
    for name in ("matthews_corrcoef", "balanced_accuracy", "informedness", "markedness"):
        function = getattr(ek, name)
        assert function is getattr(classification, name) is getattr(chance_corrected, name)
        assert name in ek.__all__ and name in classification.__all__
    assert set(_chance.CHANCE_AVERAGES) == set(classification.AVERAGES) - {"micro", "macro_pr"}


# ---------------------------------------------------------------------------------------------
# API.md: every function it names is importable from the top level
# ---------------------------------------------------------------------------------------------

#: Names API.md writes as ``name(`` that are not evalkit functions.
NOT_EVALKIT_FUNCTIONS = {
    "summary",  # an explorer model's method (`model.summary()`), not a top-level function
    "ttest_ind",  # scipy.stats' Welch test, named to say what compare_systems matches
}


def test_every_function_api_md_names_is_importable_from_the_top_level():
    if not API_MD.is_file():
        pytest.skip(f"{API_MD} not found (shared/ is not beside the repository)")
    named = set(re.findall(r"`([a-z_][a-z0-9_]*)\(", API_MD.read_text()))
    assert NOT_EVALKIT_FUNCTIONS <= named, "an exclusion is no longer in API.md: drop it"
    missing = sorted(name for name in named - NOT_EVALKIT_FUNCTIONS if not hasattr(ek, name))
    assert not missing, f"API.md names these, but evalkit has no top-level {missing}"


def test_plot_reliability_diagram_is_top_level_and_loads_matplotlib_on_first_use():
    code = ("import sys\n"
            "from evalkit import *\n"
            "import evalkit as ek\n"
            "print('matplotlib' in sys.modules, 'plot_reliability_diagram' in dir(ek))\n"
            "from evalkit import plot_reliability_diagram\n"
            "from evalkit.plots import plot_reliability_diagram as original\n"
            "print(plot_reliability_diagram is original)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "True", "True"]
    assert "plot_reliability_diagram" not in ek.__all__
