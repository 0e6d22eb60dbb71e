"""Set-based metrics: hand-computed cases, scikit-learn as the oracle, and bad input."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

import evalkit as ek
from evalkit import _averaging as averaging
from evalkit.exceptions import UndefinedMetricWarning


def contingency_labels(tp: int, fp: int, fn: int, tn: int) -> tuple[np.ndarray, np.ndarray]:
    """One (relevant, retrieved) pair per document of a retrieved/relevant table."""
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


# ---------------------------------------------------------------------------------------------
# Worked examples, computed by hand
# ---------------------------------------------------------------------------------------------


def test_slides_exercise_system_one():
    # 100 documents, 40 relevant; System I retrieves 30, all relevant.
    y_true, y_pred = contingency_labels(tp=30, fp=0, fn=10, tn=60)
    assert ek.accuracy(y_true, y_pred) == pytest.approx(0.90, abs=1e-15)
    assert ek.error_rate(y_true, y_pred) == pytest.approx(0.10, abs=1e-15)
    assert ek.precision(y_true, y_pred) == 1.0
    assert ek.recall(y_true, y_pred) == 0.75
    assert ek.specificity(y_true, y_pred) == 1.0
    assert ek.f1_score(y_true, y_pred) == pytest.approx(2 * 0.75 / 1.75)


def test_slides_exercise_system_two():
    # System II retrieves 90 documents, 40 of them relevant.
    y_true, y_pred = contingency_labels(tp=40, fp=50, fn=0, tn=10)
    assert ek.accuracy(y_true, y_pred) == 0.5
    assert ek.error_rate(y_true, y_pred) == 0.5
    assert ek.precision(y_true, y_pred) == pytest.approx(4 / 9)
    assert ek.recall(y_true, y_pred) == 1.0
    assert ek.specificity(y_true, y_pred) == pytest.approx(10 / 60)


def test_accuracy_paradox():
    # 9,990 non-relevant and 10 relevant documents; the system retrieves nothing.
    y_true, y_pred = contingency_labels(tp=0, fp=0, fn=10, tn=9990)
    assert ek.accuracy(y_true, y_pred) == 0.999
    assert ek.recall(y_true, y_pred) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="no predicted samples"):
        assert ek.precision(y_true, y_pred) == 0.0
    assert np.isnan(ek.precision(y_true, y_pred, zero_division=np.nan))
    assert ek.precision(y_true, y_pred, zero_division=1.0) == 1.0


def test_error_rate_is_errors_over_n_not_one_minus_accuracy():
    y_true, y_pred = [1] * 9 + [0], [1] * 10
    assert ek.error_rate(y_true, y_pred) == 0.1  # exactly, unlike 1 - 0.9
    assert 1 - ek.accuracy(y_true, y_pred) != 0.1


def test_f_measure_examples_from_the_notes():
    # P = 0.7, R = 0.4 -> F1 = 0.509; P = 0.7, R = 0.5 -> F1 = 0.583.
    y_true, y_pred = contingency_labels(tp=28, fp=12, fn=42, tn=18)
    assert ek.precision(y_true, y_pred) == pytest.approx(0.7)
    assert ek.recall(y_true, y_pred) == pytest.approx(0.4)
    assert round(ek.f1_score(y_true, y_pred), 3) == 0.509
    y_true, y_pred = contingency_labels(tp=35, fp=15, fn=35, tn=15)
    assert round(ek.f1_score(y_true, y_pred), 3) == 0.583


def test_f_beta_by_hand_and_limits():
    y_true, y_pred = contingency_labels(tp=40, fp=50, fn=0, tn=10)
    p, r = 4 / 9, 1.0
    for beta in (0.5, 2.0, 3.0):
        expected = (1 + beta**2) * p * r / (beta**2 * p + r)
        assert ek.f_score(y_true, y_pred, beta=beta) == pytest.approx(expected, rel=1e-12)
    assert ek.f_score(y_true, y_pred, beta=0) == pytest.approx(p)
    assert ek.f_score(y_true, y_pred, beta=np.inf) == pytest.approx(r)


def test_f1_is_the_dice_coefficient_of_retrieved_and_relevant_sets():
    relevant = {1, 2, 3, 5, 8, 13}
    retrieved = {2, 3, 4, 5, 6}
    collection = range(20)
    y_true = [int(d in relevant) for d in collection]
    y_pred = [int(d in retrieved) for d in collection]
    dice = 2 * len(relevant & retrieved) / (len(relevant) + len(retrieved))
    assert ek.f1_score(y_true, y_pred) == pytest.approx(dice, rel=1e-15)


FRUIT_TRUE = ["orange"] * 5 + ["lemon"] * 2 + ["apple"] * 2
FRUIT_PRED = ["lemon", "lemon", "apple", "orange", "apple", "lemon", "apple", "apple", "apple"]


def test_fruit_example_per_class_and_micro():
    # Classes sort as apple, lemon, orange.
    np.testing.assert_allclose(ek.precision(FRUIT_TRUE, FRUIT_PRED, average=None),
                               [2 / 5, 1 / 3, 1 / 1])
    # The notes' "macro precision" 0.20, 0.50, 1.00 are these per-class recalls.
    np.testing.assert_allclose(ek.recall(FRUIT_TRUE, FRUIT_PRED, average=None),
                               [2 / 2, 1 / 2, 1 / 5])
    assert ek.precision(FRUIT_TRUE, FRUIT_PRED, average="micro") == pytest.approx(4 / 9)
    assert ek.recall(FRUIT_TRUE, FRUIT_PRED, average="macro") == pytest.approx(
        (0.2 + 0.5 + 1.0) / 3)
    assert ek.precision(FRUIT_TRUE, FRUIT_PRED, average="macro") == pytest.approx(
        (2 / 5 + 1 / 3 + 1) / 3)


def test_confusion_matrix_by_hand():
    cm = ek.confusion_matrix(FRUIT_TRUE, FRUIT_PRED, labels=["orange", "lemon", "apple"])
    np.testing.assert_array_equal(cm, [[1, 2, 2], [0, 1, 1], [0, 0, 2]])
    # Binary layout: [[TN, FP], [FN, TP]].
    y_true, y_pred = contingency_labels(tp=3, fp=1, fn=2, tn=4)
    np.testing.assert_array_equal(ek.confusion_matrix(y_true, y_pred), [[4, 1], [2, 3]])


def test_confusion_matrix_labels_absent_from_data_get_zero_rows():
    cm = ek.confusion_matrix([1, 2, 2], [2, 2, 1], labels=[5, 2, 1])
    np.testing.assert_array_equal(cm, [[0, 0, 0], [0, 1, 1], [0, 1, 0]])


def test_specificity_is_recall_of_the_negative_class():
    y_true, y_pred = contingency_labels(tp=7, fp=3, fn=2, tn=11)
    assert ek.specificity(y_true, y_pred) == pytest.approx(11 / 14)
    assert ek.specificity(y_true, y_pred) == pytest.approx(
        ek.recall(y_true, y_pred, pos_label=0))
    assert ek.sensitivity(y_true, y_pred) == ek.recall(y_true, y_pred)


def test_exclude_makes_micro_f1_differ_from_accuracy():
    y_true = ["none", "none", "none", "born_in", "works_for", "born_in"]
    y_pred = ["none", "born_in", "none", "born_in", "none", "works_for"]
    micro_all = ek.f1_score(y_true, y_pred, average="micro")
    assert micro_all == pytest.approx(ek.accuracy(y_true, y_pred))
    micro_wo_none = ek.f1_score(y_true, y_pred, average="micro", exclude=["none"])
    # born_in: tp 1, fp 1, fn 1; works_for: tp 0, fp 1, fn 1 -> P = 1/3, R = 1/3.
    assert micro_wo_none == pytest.approx(1 / 3)
    assert micro_wo_none != pytest.approx(micro_all)


def test_class_weights_schemes_by_formula():
    support = np.array([1, 4, 20, 75])
    n = support.sum()
    np.testing.assert_allclose(ek.class_weights(support, scheme="macro"), np.full(4, 0.25))
    np.testing.assert_allclose(ek.class_weights(support, scheme="weighted"), support / n)
    dodrans = support**0.75
    np.testing.assert_allclose(ek.class_weights(support, scheme="dodrans"), dodrans / dodrans.sum())
    entropy = -support * np.log2(support / n)
    np.testing.assert_allclose(ek.class_weights(support, scheme="entropy"), entropy / entropy.sum())
    w = ek.class_weights(support, scheme="dodrans")
    # Harbecke et al.'s desiderata: weights grow with class size, less than proportionally.
    assert np.all(np.diff(w) > 0) and np.all(np.diff(w / support) < 0)


def test_dodrans_and_entropy_averages_by_formula():
    y_true = np.repeat([0, 1, 2], [50, 10, 2])
    rng = np.random.default_rng(3)
    y_pred = np.where(rng.random(len(y_true)) < 0.7, y_true, rng.integers(0, 3, len(y_true)))
    per_class = skm.f1_score(y_true, y_pred, average=None)
    support = np.bincount(y_true)
    for scheme, raw in (("dodrans", support**0.75),
                        ("entropy", -support * np.log2(support / support.sum()))):
        expected = np.dot(per_class, raw / raw.sum())
        assert ek.f1_score(y_true, y_pred, average=scheme) == pytest.approx(expected, rel=1e-12)


def test_entropy_with_exclude_uses_all_samples_for_n():
    y_true = np.repeat([0, 1, 2], [50, 10, 2])
    y_pred = np.roll(y_true, 3)
    kept = np.array([1, 2])
    per_class = skm.f1_score(y_true, y_pred, labels=kept, average=None)
    support = np.bincount(y_true)[kept]
    raw = -support * np.log2(support / len(y_true))
    got = ek.f1_score(y_true, y_pred, average="entropy", exclude=[0])
    assert got == pytest.approx(np.dot(per_class, raw / raw.sum()), rel=1e-12)


def test_macro_pr_is_f_of_macro_precision_and_recall():
    rng = np.random.default_rng(7)
    y_true, y_pred = rng.integers(0, 4, 200), rng.integers(0, 4, 200)
    p = skm.precision_score(y_true, y_pred, average="macro")
    r = skm.recall_score(y_true, y_pred, average="macro")
    assert ek.f1_score(y_true, y_pred, average="macro_pr") == pytest.approx(2 * p * r / (p + r))
    assert ek.precision(y_true, y_pred, average="macro_pr") == pytest.approx(p)
    assert ek.f1_score(y_true, y_pred, average="macro_pr") != pytest.approx(
        ek.f1_score(y_true, y_pred, average="macro"))


# ---------------------------------------------------------------------------------------------
# scikit-learn as the oracle, on many random inputs
# ---------------------------------------------------------------------------------------------

labels_int = st.integers(min_value=0, max_value=4)
labels_str = st.sampled_from(["ant", "bee", "cat", "dog", "eel"])


@st.composite
def label_pairs(draw, elements=labels_int):
    n = draw(st.integers(min_value=1, max_value=40))
    y_true = draw(st.lists(elements, min_size=n, max_size=n))
    y_pred = draw(st.lists(elements, min_size=n, max_size=n))
    return y_true, y_pred


ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]
SK_AVERAGES = [None, "micro", "macro", "weighted"]


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _assert_same(ours, theirs):
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True)


@given(label_pairs(st.one_of(labels_int)), st.sampled_from(SK_AVERAGES),
       st.sampled_from(ZERO_DIVISIONS), st.sampled_from([0.5, 1.0, 2.0, 0.0]))
def test_prf_match_sklearn_on_integer_labels(pair, average, zero_division, beta):
    y_true, y_pred = pair
    options = {"average": average, "zero_division": zero_division}
    _assert_same(_quiet(ek.precision, y_true, y_pred, **options),
                 _quiet(skm.precision_score, y_true, y_pred, **options))
    _assert_same(_quiet(ek.recall, y_true, y_pred, **options),
                 _quiet(skm.recall_score, y_true, y_pred, **options))
    _assert_same(_quiet(ek.f_score, y_true, y_pred, beta=beta, **options),
                 _quiet(skm.fbeta_score, y_true, y_pred, beta=beta, **options))
    _assert_same(_quiet(ek.f1_score, y_true, y_pred, **options),
                 _quiet(skm.f1_score, y_true, y_pred, **options))


@given(label_pairs(labels_str), st.sampled_from(SK_AVERAGES), st.sampled_from(ZERO_DIVISIONS))
def test_prf_match_sklearn_on_string_labels(pair, average, zero_division):
    y_true, y_pred = pair
    options = {"average": average, "zero_division": zero_division}
    _assert_same(_quiet(ek.f1_score, y_true, y_pred, **options),
                 _quiet(skm.f1_score, y_true, y_pred, **options))
    _assert_same(_quiet(ek.precision, y_true, y_pred, **options),
                 _quiet(skm.precision_score, y_true, y_pred, **options))


@given(label_pairs(st.integers(0, 1)), st.sampled_from(ZERO_DIVISIONS),
       st.sampled_from([0, 1]))
def test_binary_matches_sklearn(pair, zero_division, pos_label):
    y_true, y_pred = pair
    options = {"zero_division": zero_division, "pos_label": pos_label}
    for ours, theirs in ((ek.precision, skm.precision_score), (ek.recall, skm.recall_score),
                         (ek.f1_score, skm.f1_score)):
        _assert_same(_quiet(ours, y_true, y_pred, **options),
                     _quiet(theirs, y_true, y_pred, **options))
    assert ek.accuracy(y_true, y_pred) == pytest.approx(skm.accuracy_score(y_true, y_pred),
                                                        abs=1e-15)


@given(label_pairs(), st.lists(st.integers(0, 6), min_size=1, max_size=5, unique=True),
       st.sampled_from([None, "micro", "macro", "weighted"]))
def test_explicit_labels_match_sklearn(pair, labels, average):
    y_true, y_pred = pair
    options = {"average": average, "labels": labels, "zero_division": 0.0}
    _assert_same(ek.f1_score(y_true, y_pred, **options), skm.f1_score(y_true, y_pred, **options))
    _assert_same(ek.recall(y_true, y_pred, **options), skm.recall_score(y_true, y_pred, **options))
    if set(labels) & set(y_true):  # scikit-learn refuses labels that miss y_true entirely
        np.testing.assert_array_equal(ek.confusion_matrix(y_true, y_pred, labels=labels),
                                      skm.confusion_matrix(y_true, y_pred, labels=labels))


@given(label_pairs(), st.lists(st.integers(0, 4), min_size=1, max_size=2, unique=True),
       st.sampled_from(["micro", "macro", "weighted"]))
def test_exclude_equals_sklearn_with_the_remaining_labels(pair, excluded, average):
    y_true, y_pred = pair
    remaining = [label for label in np.union1d(y_true, y_pred) if label not in excluded]
    if not remaining:
        with pytest.raises(ValueError, match="exclude leaves no class"):
            ek.f1_score(y_true, y_pred, average=average, exclude=excluded)
        return
    ours = ek.f1_score(y_true, y_pred, average=average, exclude=excluded, zero_division=0.0)
    theirs = skm.f1_score(y_true, y_pred, average=average, labels=remaining, zero_division=0.0)
    _assert_same(ours, theirs)


@given(label_pairs(st.one_of(labels_int)))
def test_confusion_matrix_and_accuracy_match_sklearn(pair):
    y_true, y_pred = pair
    np.testing.assert_array_equal(ek.confusion_matrix(y_true, y_pred),
                                  skm.confusion_matrix(y_true, y_pred))
    assert ek.accuracy(y_true, y_pred) == pytest.approx(skm.accuracy_score(y_true, y_pred),
                                                        abs=1e-15)


@given(label_pairs(), st.sampled_from([None, "micro", "macro", "weighted"]))
def test_specificity_by_formula(pair, average):
    y_true, y_pred = pair
    mcm = skm.multilabel_confusion_matrix(y_true, y_pred)
    tn, fp = mcm[:, 0, 0], mcm[:, 0, 1]
    support = mcm[:, 1, 0] + mcm[:, 1, 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        per_class = np.where(tn + fp > 0, tn / np.maximum(tn + fp, 1), 0.0)
    expected = {
        None: per_class,
        "micro": tn.sum() / (tn + fp).sum() if (tn + fp).sum() else 0.0,
        "macro": per_class.mean(),
        "weighted": np.average(per_class, weights=support),
    }[average]
    _assert_same(_quiet(ek.specificity, y_true, y_pred, average=average), expected)


def test_wide_and_negative_integer_labels_match_sklearn(rng):
    values = np.array([-7, 0, 3, 10**9, 2**40])
    y_true, y_pred = rng.choice(values, 500), rng.choice(values, 500)
    np.testing.assert_array_equal(ek.confusion_matrix(y_true, y_pred),
                                  skm.confusion_matrix(y_true, y_pred))
    _assert_same(ek.f1_score(y_true, y_pred, average=None), skm.f1_score(y_true, y_pred,
                                                                          average=None))


def test_float_bool_series_and_categorical_inputs(rng):
    y_true = rng.integers(0, 2, 100)
    y_pred = rng.integers(0, 2, 100)
    expected = skm.f1_score(y_true, y_pred)
    assert ek.f1_score(y_true.astype(float), y_pred.astype(float)) == pytest.approx(expected)
    assert ek.f1_score(y_true.astype(bool), y_pred.astype(bool)) == pytest.approx(expected)
    assert ek.f1_score(pd.Series(y_true), pd.Series(y_pred)) == pytest.approx(expected)
    names = np.array(["neg", "pos"])
    cat_true = pd.Series(names[y_true], dtype="category")
    cat_pred = pd.Series(names[y_pred], dtype="category")
    assert ek.f1_score(cat_true, cat_pred, pos_label="pos") == pytest.approx(expected)
    half = np.array([0.5, 1.5])
    np.testing.assert_array_equal(ek.confusion_matrix(half[y_true], half[y_pred]),
                                  skm.confusion_matrix(y_true, y_pred))


def test_large_input_matches_sklearn(rng):
    y_true = rng.integers(0, 20, 200_000)
    y_pred = np.where(rng.random(200_000) < 0.6, y_true, rng.integers(0, 20, 200_000))
    np.testing.assert_array_equal(ek.confusion_matrix(y_true, y_pred),
                                  skm.confusion_matrix(y_true, y_pred))
    for average in SK_AVERAGES:
        _assert_same(ek.f1_score(y_true, y_pred, average=average),
                     skm.f1_score(y_true, y_pred, average=average))


def test_works_as_a_sklearn_scorer():
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500))
    ours = cross_val_score(model, X, y, cv=3, scoring=skm.make_scorer(ek.f1_score))
    theirs = cross_val_score(model, X, y, cv=3, scoring="f1")
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    ours = cross_val_score(model, X, y, cv=3,
                           scoring=skm.make_scorer(ek.f_score, beta=2, average="macro"))
    theirs = cross_val_score(model, X, y, cv=3,
                             scoring=skm.make_scorer(skm.fbeta_score, beta=2, average="macro"))
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_zero_division_warning_names_the_labels():
    with pytest.warns(UndefinedMetricWarning, match=r"label\(s\) 'c'"):
        ek.precision(["a", "b", "c"], ["a", "b", "a"], average=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ek.precision(["a", "b", "c"], ["a", "b", "a"], average=None, zero_division=0.0)


def test_nan_entries_are_skipped_in_averages_with_a_warning():
    # Class 2 is never predicted: its precision is NaN and left out of the macro mean.
    with pytest.warns(UndefinedMetricWarning, match="left out of the average"):
        got = ek.precision([0, 1, 2], [0, 1, 1], average="macro", zero_division=np.nan)
    assert got == pytest.approx((1.0 + 0.5) / 2)




# ---------------------------------------------------------------------------------------------
# Bad input: a ValueError that names the argument
# ---------------------------------------------------------------------------------------------

METRICS = [ek.precision, ek.recall, ek.f1_score, ek.f_score, ek.sensitivity, ek.specificity]
ALL = METRICS + [ek.accuracy, ek.error_rate, ek.confusion_matrix]


@pytest.mark.parametrize("metric", ALL)
def test_lengths_differ(metric):
    with pytest.raises(ValueError, match=r"y_true and y_pred have different lengths \(3 != 2\)"):
        metric([1, 0, 1], [1, 0])


@pytest.mark.parametrize("metric", ALL)
def test_empty_input(metric):
    with pytest.raises(ValueError, match="y_true is empty"):
        metric([], [])


@pytest.mark.parametrize("metric", ALL)
def test_two_dimensional_input(metric):
    with pytest.raises(ValueError, match=r"y_pred must be 1-D; got an array of shape \(2, 2\)"):
        metric([1, 0], [[1, 0], [0, 1]])


@pytest.mark.parametrize("metric", ALL)
def test_nan_labels(metric):
    with pytest.raises(ValueError, match="y_true contains NaN"):
        metric([1.0, np.nan], [1, 0])


@pytest.mark.parametrize("metric", ALL)
def test_mixed_label_types(metric):
    with pytest.raises(ValueError, match="y_pred mixes strings and numbers"):
        metric(["a", "b"], ["a", 1])
    with pytest.raises(ValueError, match="y_true holds strings, y_pred holds numbers"):
        metric(["a", "b"], [0, 1])


@pytest.mark.parametrize("metric", ALL)
def test_not_an_array(metric):
    with pytest.raises(TypeError, match="y_true must be an array-like"):
        metric("10101", [1, 0, 1, 0, 1])
    with pytest.raises(TypeError, match="y_true must be an array-like .*got None"):
        metric(None, [1])


@pytest.mark.parametrize("metric", METRICS)
def test_unknown_average(metric):
    with pytest.raises(ValueError, match=r"average must be one of None, 'binary'.*got 'mcaro'"):
        metric([1, 0], [1, 0], average="mcaro")


@pytest.mark.parametrize("metric", METRICS)
def test_unknown_zero_division(metric):
    with pytest.raises(ValueError, match="zero_division must be 'warn', 0.0, 1.0 or np.nan"):
        metric([1, 0], [1, 0], zero_division="ignore")


@pytest.mark.parametrize("metric", METRICS)
def test_binary_average_with_three_classes(metric):
    with pytest.raises(ValueError, match="average='binary' needs at most two classes"):
        metric([0, 1, 2], [0, 1, 2])
    # The average is the mistake to hear about first, even with a pos_label that is no label.
    with pytest.raises(ValueError, match="average='binary' needs at most two classes"):
        metric([0, 1, 2], [0, 1, 2], pos_label=None)
    with pytest.raises(ValueError, match="pos_label mixes strings and numbers"):
        metric([0, 1], [0, 1], pos_label=None)


@pytest.mark.parametrize("metric", METRICS)
def test_pos_label_not_among_the_labels(metric):
    with pytest.raises(ValueError, match="pos_label=1 is not one of the labels"):
        metric(["no", "yes"], ["yes", "yes"])
    with pytest.raises(ValueError, match="pos_label=2 is not one of the labels"):
        metric([0, 1], [1, 1], pos_label=2)


def test_bad_labels_and_exclude():
    with pytest.raises(ValueError, match="labels must not repeat a label"):
        ek.f1_score([0, 1], [0, 1], labels=[0, 0], average="macro")
    with pytest.raises(ValueError, match="exclude leaves classes out of an average"):
        ek.f1_score([0, 1], [0, 1], exclude=[0])
    with pytest.raises(ValueError, match="y_true holds numbers, labels holds strings"):
        ek.f1_score([0, 1], [0, 1], labels=["a"], average="macro")


@pytest.mark.parametrize("beta, error", [
    (-1, ValueError), (float("nan"), ValueError), (-np.inf, ValueError),
    ("2", TypeError), (True, TypeError), (None, TypeError),
])
def test_bad_beta(beta, error):
    for function in (ek.f_score, ek.classification_report):
        with pytest.raises(error, match="beta must be a real number >= 0; got"):
            function([0, 1], [0, 1], beta=beta)


def test_beta_infinity_is_recall():
    assert ek.f_score([1, 1, 0], [1, 0, 1], beta=np.inf) == 0.5


def test_class_weights_bad_input():
    with pytest.raises(ValueError, match="scheme must be one of"):
        ek.class_weights([1, 2], scheme="harmonic")
    with pytest.raises(ValueError, match="support must hold non-negative counts"):
        ek.class_weights([1, -2], scheme="macro")
    np.testing.assert_allclose(ek.class_weights([0, 0], scheme="weighted"), [0.5, 0.5])


@given(st.lists(st.text(max_size=12), min_size=1, max_size=60))
def test_string_factorization_equals_np_unique(values):
    from evalkit._counting import factorize_strings

    array = np.array(values, dtype=str)
    half = len(array) // 2
    expected_classes, expected_codes = np.unique(array, return_inverse=True)
    for parts in ((array,), (array[:half], array[half:].astype(f"<U{array.itemsize // 4 + 3}"))):
        result = factorize_strings(*parts)
        if result is not None:  # None means "fall back to np.unique", always allowed
            np.testing.assert_array_equal(result[0], expected_classes)
            np.testing.assert_array_equal(np.concatenate(result[1]), expected_codes.reshape(-1))


def test_string_factorization_handles_many_and_long_labels(rng):
    from evalkit._counting import factorize_strings

    many = np.array([f"doc-{i}" for i in rng.integers(0, 50_000, 100_000)])
    long = np.array(["x" * 300 + str(i) for i in rng.integers(0, 5, 50)])
    for array in (many, long, np.array(["", "a", ""]), np.array(["é", "e", "😀", "e"])):
        result = factorize_strings(array)
        classes, codes = np.unique(array, return_inverse=True)
        if result is not None:
            np.testing.assert_array_equal(result[0], classes)
            np.testing.assert_array_equal(result[1][0], codes.reshape(-1))
    y_true = rng.choice(["ant", "bee", "cat", "dog", "eel"], 10_000)
    y_pred = rng.choice(["ant", "bee", "cat", "dog", "eel"], 10_000)
    np.testing.assert_array_equal(ek.confusion_matrix(y_true, y_pred),
                                  skm.confusion_matrix(y_true, y_pred))




# ---------------------------------------------------------------------------------------------
# classification_report: every row from the same counts, every scheme
# ---------------------------------------------------------------------------------------------


@given(label_pairs(), st.sampled_from([0.5, 1.0, 2.0]))
def test_classification_report_matches_sklearn_and_the_averages(pair, beta):
    y_true, y_pred = pair
    report = ek.classification_report(y_true, y_pred, beta=beta, zero_division=0.0)
    classes = np.union1d(y_true, y_pred)
    assert list(report.index) == [*classes.tolist(), "micro", "macro", "macro_pr", "weighted",
                                  "dodrans", "entropy"]
    p, r, f, s = skm.precision_recall_fscore_support(y_true, y_pred, beta=beta,
                                                     zero_division=0.0)
    per_class = report.loc[classes.tolist()]
    _assert_same(per_class[["precision", "recall", "f_score"]].to_numpy(),
                 np.column_stack([p, r, f]))
    np.testing.assert_array_equal(per_class["support"], s)
    for average in ("micro", "macro", "weighted"):
        theirs = skm.precision_recall_fscore_support(y_true, y_pred, beta=beta, average=average,
                                                     zero_division=0.0)[:3]
        _assert_same(report.loc[average, ["precision", "recall", "f_score"]].to_numpy(float),
                     theirs)
    for average in ("macro_pr", "dodrans", "entropy"):
        ours = [ek.precision(y_true, y_pred, average=average, zero_division=0.0),
                ek.recall(y_true, y_pred, average=average, zero_division=0.0),
                ek.f_score(y_true, y_pred, beta=beta, average=average, zero_division=0.0)]
        _assert_same(report.loc[average, ["precision", "recall", "f_score"]].to_numpy(float), ours)
    assert (report.loc[["micro", "macro", "entropy"], "support"] == len(y_true)).all()


@given(label_pairs(), st.sampled_from(ZERO_DIVISIONS), st.sampled_from([0.0, 0.5, 1.0, np.inf]),
       st.booleans())
def test_every_report_row_is_the_average_computed_alone(pair, zero_division, beta, exclude):
    # The report makes each table's per-class ratios and weights once for all of its rows;
    # every row must still be what precision / recall / f_score give on their own, with the
    # excluded class left out of the averages only.
    y_true, y_pred = pair
    options = {"zero_division": zero_division}
    if exclude:
        options["exclude"] = [y_true[0]]
        if len(np.union1d(y_true, y_pred)) == 1:
            return  # nothing would be left to average
    report = _quiet(ek.classification_report, y_true, y_pred, beta=beta, **options)
    classes = np.union1d(y_true, y_pred).tolist()
    per_class = [_quiet(function, y_true, y_pred, average=None, zero_division=zero_division)
                 for function in (ek.precision, ek.recall)]
    per_class.append(_quiet(ek.f_score, y_true, y_pred, beta=beta, average=None,
                            zero_division=zero_division))
    _assert_same(report.loc[classes, ["precision", "recall", "f_score"]].to_numpy(float),
                 np.column_stack(per_class))
    for average in ("micro", "macro", "macro_pr", "weighted", "dodrans", "entropy"):
        alone = [_quiet(ek.precision, y_true, y_pred, average=average, **options),
                 _quiet(ek.recall, y_true, y_pred, average=average, **options),
                 _quiet(ek.f_score, y_true, y_pred, beta=beta, average=average, **options)]
        _assert_same(report.loc[average, ["precision", "recall", "f_score"]].to_numpy(float),
                     alone)
    assert report["support"].dtype == np.int64


def test_classification_report_with_exclude_and_labels():
    y_true = ["none"] * 6 + ["born_in"] * 3 + ["works_for"] * 2
    y_pred = ["none"] * 4 + ["born_in"] * 2 + ["born_in"] * 2 + ["none"] + ["works_for", "none"]
    report = ek.classification_report(y_true, y_pred, exclude=["none"])
    # Per-class rows still list every class; the averages leave "none" out.
    assert list(report.index[:3]) == ["born_in", "none", "works_for"]
    kept = ["born_in", "works_for"]
    assert report.loc["micro", "f_score"] == pytest.approx(
        skm.f1_score(y_true, y_pred, labels=kept, average="micro"))
    assert report.loc["micro", "f_score"] != pytest.approx(ek.accuracy(y_true, y_pred))
    assert report.loc["macro", "recall"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert report.loc["weighted", "support"] == 5
    # entropy uses N = all 11 samples, as ek.f1_score with exclude does.
    assert report.loc["entropy", "f_score"] == pytest.approx(
        ek.f1_score(y_true, y_pred, average="entropy", exclude=["none"]))
    ordered = ek.classification_report(y_true, y_pred, labels=["works_for", "born_in"])
    assert list(ordered.index[:2]) == ["works_for", "born_in"]
    assert ordered.loc["macro", "precision"] == pytest.approx(
        skm.precision_score(y_true, y_pred, labels=["works_for", "born_in"], average="macro"))


def test_classification_report_warns_once_per_problem():
    with pytest.warns(UndefinedMetricWarning) as record:
        ek.classification_report([0, 1, 2, 2], [0, 1, 1, 1])
    messages = [str(w.message) for w in record]
    assert len(messages) == len(set(messages))
    assert any("label(s) 2" in m and "Precision" in m for m in messages)


def test_classification_report_bad_input():
    with pytest.raises(ValueError, match="beta must be a real number >= 0"):
        ek.classification_report([0, 1], [0, 1], beta=-1)
    with pytest.raises(ValueError, match="zero_division must be"):
        ek.classification_report([0, 1], [0, 1], zero_division=5)
    with pytest.raises(ValueError, match=r"y_true and y_pred have different lengths \(2 != 1\)"):
        ek.classification_report([0, 1], [0])
    with pytest.raises(ValueError, match="exclude leaves no class"):
        ek.classification_report([0, 1], [0, 1], exclude=[0, 1])


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint64])
def test_small_integer_dtypes_do_not_overflow(dtype, rng):
    info = np.iinfo(dtype)
    values = np.array([info.min, info.max, 0, info.max // 2], dtype=dtype)
    y_true, y_pred = values[rng.integers(0, 4, 500)], values[rng.integers(0, 4, 500)]
    np.testing.assert_array_equal(ek.confusion_matrix(y_true, y_pred),
                                  skm.confusion_matrix(y_true, y_pred))
    assert ek.f1_score(y_true, y_pred, average="macro") == pytest.approx(
        skm.f1_score(y_true, y_pred, average="macro"))


def _option_functions():
    from evalkit import agreement, classification, costs, curves

    for module in (classification, agreement, curves, costs):
        for name in module.__all__:
            function = getattr(module, name)
            if inspect.isfunction(function) and any(
                    p.kind == p.KEYWORD_ONLY
                    for p in inspect.signature(function).parameters.values()):
                yield function



@pytest.mark.parametrize("function", list(_option_functions()), ids=lambda f: f.__name__)
def test_a_positional_option_is_refused_with_the_keyword_call(function):
    from tests.test_common import SPEC_BY_NAME

    parameters = inspect.signature(function).parameters.values()
    data = [p.name for p in parameters if p.kind == p.POSITIONAL_OR_KEYWORD]
    option = next(p.name for p in parameters if p.kind == p.KEYWORD_ONLY)
    kwargs = SPEC_BY_NAME[function.__name__].kwargs
    value = kwargs.get(option, inspect.signature(function).parameters[option].default)
    args = [kwargs[name] for name in data] + [value]
    with pytest.raises(TypeError, match=rf"by keyword; write {function.__name__}\(.*"
                                        rf"{option}="):
        function(*args)


def test_the_options_made_keyword_only_still_work_by_keyword():
    np.testing.assert_array_equal(ek.confusion_matrix([0, 1, 1], [1, 1, 0], labels=[1, 0]),
                                  [[1, 1], [1, 0]])
    np.testing.assert_allclose(ek.class_weights([1, 9], scheme="weighted"), [0.1, 0.9])
    assert ek.interpret_kappa(0.7, scale="carletta") == "tentative"
    # Positional before this release, and now a TypeError that shows the keyword call: a
    # grace period would let class_weights(support, "macro") keep meaning what it did.
    with pytest.raises(TypeError, match=r"write class_weights\(support, scheme='macro'\)"):
        ek.class_weights([1, 9], "macro")
    with pytest.raises(TypeError, match=r"write interpret_kappa\(kappa, scale='carletta'\)"):
        ek.interpret_kappa(0.7, "carletta")
    with pytest.raises(TypeError, match=r"write confusion_matrix\(y_true, y_pred, labels="):
        ek.confusion_matrix([0, 1, 1], [1, 1, 0], [1, 0])
    with pytest.raises(TypeError, match=r"write class_weights\(support, scheme=.*n_samples=4"):
        ek.class_weights([1, 9], "macro", 4)
    with pytest.raises(TypeError, match=r"by keyword"):
        ek.class_weights([1, 9], "macro", scheme="macro")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ek.class_weights([1, 9], scheme="macro")


# The division and averaging maths of _averaging (zero_division, NaN left out)


def test_safe_divide_policies():
    num, den = np.array([1.0, 2.0]), np.array([2.0, 0.0])
    with pytest.warns(UndefinedMetricWarning, match=r"label\(s\) 'b'"):
        np.testing.assert_array_equal(
            averaging.safe_divide(num, den, "warn", metric="Precision", reason="r",
                                  labels=np.array(["a", "b"])), [0.5, 0.0])
    np.testing.assert_array_equal(
        averaging.safe_divide(num, den, 1.0, metric="P", reason="r"), [0.5, 1])
    assert np.isnan(averaging.safe_divide(num, den, np.nan, metric="P", reason="r")[1])


def test_nan_average():
    assert averaging.nan_average([1.0, 3.0], metric="m") == 2.0
    with pytest.warns(UndefinedMetricWarning):
        assert averaging.nan_average([1.0, np.nan], [1, 3], metric="m") == 1.0
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(averaging.nan_average([np.nan], metric="m"))
    # All remaining weight is zero: plain mean, as scikit-learn.
    assert averaging.nan_average([1.0, 3.0], [0, 0], metric="m") == 2.0
