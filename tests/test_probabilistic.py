"""cPrecision, cRecall, cF1 and the probabilistic confusion matrix, checked against independent
implementations of their definitions, against scikit-learn, and by hand; the checks of y_proba
that every metric of probabilities shares (tests/test_calibration.py: the Brier score and
calibration)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import precision_recall_fscore_support

import evalkit as ek
from evalkit.exceptions import UndefinedMetricWarning

AVERAGES = [None, "micro", "macro", "weighted", "dodrans", "entropy", "macro_pr"]


# ---------------------------------------------------------------------------------------------
# An independent implementation of Yacouby & Axman (2020), one sample at a time
# ---------------------------------------------------------------------------------------------


def _paper(y_true, proba, columns):
    """cTP, cFP and the class counts by the paper's equations (3), (5), (6), sample by sample."""
    k = len(columns)
    ctp, cfp, count = [0.0] * k, [0.0] * k, [0] * k
    for label, row in zip(y_true, proba, strict=True):
        for j, column in enumerate(columns):
            if label == column:
                ctp[j] += row[j]
            else:
                cfp[j] += row[j]
        count[columns.index(label)] += 1
    return np.array(ctp), np.array(cfp), np.array(count, dtype=float)


def _weights(count, average, n):
    if average in ("macro", "macro_pr"):
        return np.ones_like(count)
    if average == "weighted":
        return count
    if average == "dodrans":
        return count**0.75
    share = count / n
    return np.where(count > 0, -count * np.log2(np.where(count > 0, share, 1.0)), 0.0)


def _paper_scores(y_true, proba, columns, average):
    ctp, cfp, count = _paper(y_true, proba, columns)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = ctp / (ctp + cfp)
        recall = ctp / count
        f1 = 2 * precision * recall / (precision + recall)
    if average is None:
        return precision, recall, f1
    if average == "micro":
        p, r = ctp.sum() / (ctp.sum() + cfp.sum()), ctp.sum() / count.sum()
        return p, r, 2 * p * r / (p + r)
    w = _weights(count, average, len(y_true))
    p, r = np.average(precision, weights=w), np.average(recall, weights=w)
    f = 2 * p * r / (p + r) if average == "macro_pr" else np.average(f1, weights=w)
    return p, r, f


@st.composite
def problems(draw, strings=False):
    k = draw(st.integers(2, 6))
    n = draw(st.integers(k, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    codes = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])  # every class occurs
    rng.shuffle(codes)
    alpha = draw(st.sampled_from([0.2, 1.0, 5.0]))
    proba = rng.dirichlet(np.full(k, alpha), size=n)
    names = [f"c{j}" for j in range(k)] if strings else list(rng.permutation(10)[:k] * 3 - 7)
    columns = sorted(names)
    y_true = [columns[c] for c in codes]
    return y_true, proba, columns


@given(problems(), st.sampled_from(AVERAGES))
def test_integer_labels_match_the_paper(problem, average):
    y_true, proba, columns = problem
    expected = _paper_scores(y_true, proba, columns, average)
    got = [f(y_true, proba, average=average) for f in (ek.c_precision, ek.c_recall, ek.c_f1)]
    for mine, theirs in zip(got, expected, strict=True):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


@given(problems(strings=True), st.sampled_from(AVERAGES))
def test_string_labels_match_the_paper(problem, average):
    y_true, proba, columns = problem
    expected = _paper_scores(y_true, proba, columns, average)
    got = [f(y_true, proba, average=average) for f in (ek.c_precision, ek.c_recall, ek.c_f1)]
    for mine, theirs in zip(got, expected, strict=True):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


@given(problems(strings=True), st.randoms(use_true_random=False))
def test_columns_follow_labels_in_any_order(problem, random):
    y_true, proba, columns = problem
    order = list(range(len(columns)))
    random.shuffle(order)
    permuted_labels = [columns[j] for j in order]
    permuted = proba[:, order]
    per_class = ek.c_f1(y_true, permuted, labels=permuted_labels, average=None)
    np.testing.assert_allclose(per_class, ek.c_f1(y_true, proba, average=None)[order],
                               rtol=1e-12)
    matrix = ek.probabilistic_confusion_matrix(y_true, permuted, labels=permuted_labels)
    np.testing.assert_allclose(matrix, ek.probabilistic_confusion_matrix(y_true, proba)[
        np.ix_(order, order)], rtol=1e-12, atol=1e-12)


@given(problems())
def test_confusion_matrix_by_definition(problem):
    y_true, proba, columns = problem
    matrix = ek.probabilistic_confusion_matrix(y_true, proba)
    expected = np.zeros((len(columns), len(columns)))
    for label, row in zip(y_true, proba, strict=True):
        expected[columns.index(label)] += row
    np.testing.assert_allclose(matrix, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(matrix.sum(axis=1), [y_true.count(c) for c in columns])


def test_the_paper_example_by_hand():
    # Six samples, three classes: cTP, cFP and the counts worked out on paper.
    y_true = ["a", "a", "b", "b", "c", "c"]
    proba = [[0.7, 0.2, 0.1], [0.4, 0.4, 0.2], [0.1, 0.8, 0.1],
             [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.1, 0.1, 0.8]]
    # cTP: a 0.7 + 0.4 = 1.1; b 0.8 + 0.3 = 1.1; c 0.6 + 0.8 = 1.4
    # column sums (cTP + cFP): a 2.0, b 2.0, c 2.0; counts 2 each
    np.testing.assert_allclose(ek.c_precision(y_true, proba, average=None), [0.55, 0.55, 0.7])
    np.testing.assert_allclose(ek.c_recall(y_true, proba, average=None), [0.55, 0.55, 0.7])
    assert ek.c_f1(y_true, proba, average="micro") == pytest.approx(3.6 / 6)


# ---------------------------------------------------------------------------------------------
# One-hot probabilities give the ordinary metrics
# ---------------------------------------------------------------------------------------------


@given(problems(), st.sampled_from(AVERAGES + ["binary"]))
def test_one_hot_gives_the_ordinary_metrics(problem, average):
    y_true, proba, columns = problem
    predicted_code = np.argmax(proba, axis=1)
    one_hot = np.eye(len(columns))[predicted_code]
    y_pred = [columns[c] for c in predicted_code]
    if average == "binary":  # one class against the rest, as 1-D probabilities
        positive = columns[-1]
        y_true = [int(label == positive) for label in y_true]
        y_pred = [int(label == positive) for label in y_pred]
        one_hot = np.array(y_pred, dtype=float)
    options = {"average": average, "zero_division": 0.0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for c_metric, metric in ((ek.c_precision, ek.precision), (ek.c_recall, ek.recall),
                                 (ek.c_f1, ek.f1_score)):
            np.testing.assert_allclose(c_metric(y_true, one_hot, **options),
                                       metric(y_true, y_pred, **options), rtol=1e-12)
        if average in (None, "binary", "micro", "macro", "weighted"):
            theirs = precision_recall_fscore_support(y_true, y_pred, average=average,
                                                     zero_division=0.0)[:3]
            mine = [f(y_true, one_hot, **options) for f in (ek.c_precision, ek.c_recall,
                                                            ek.c_f1)]
            for m, t in zip(mine, theirs, strict=True):
                np.testing.assert_allclose(m, t, rtol=1e-12)


def test_series_dataframe_and_lists_agree():
    y_true = ["x", "y", "x", "z"]
    proba = [[0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.5, 0.25, 0.25], [0.1, 0.1, 0.8]]
    expected = ek.c_f1(y_true, proba, average="macro")
    assert ek.c_f1(pd.Series(y_true), pd.DataFrame(proba), average="macro") == expected
    assert ek.c_f1(np.array(y_true), np.array(proba), average="macro") == expected


def test_exclude_and_binary_and_zero_division():
    y_true = [0, 1, 2, 2]
    proba = [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.1, 0.1, 0.8], [0.2, 0.2, 0.6]]
    per_class = ek.c_f1(y_true, proba, average=None)
    assert ek.c_f1(y_true, proba, average="macro", exclude=[0]) == pytest.approx(
        per_class[1:].mean())
    with pytest.raises(ValueError, match="average='binary' needs at most two classes"):
        ek.c_f1(y_true, proba)
    # A class absent from y_true: cRecall is undefined there (the paper's Benefit A holds
    # for cPrecision only).
    with pytest.warns(UndefinedMetricWarning, match="cRecall is ill-defined"):
        recall = ek.c_recall([0, 0], [[0.9, 0.1], [0.7, 0.3]], labels=[0, 1], average=None)
    np.testing.assert_allclose(recall, [0.8, 0.0])
    assert np.isnan(ek.c_recall([0, 0], [[0.9, 0.1], [0.7, 0.3]], labels=[0, 1],
                                average=None, zero_division=np.nan)[1])
    # ... while cPrecision of class 1, never the top class, is defined: 0.4 / 0.4 of wrong mass.
    np.testing.assert_allclose(ek.c_precision([0, 0], [[0.9, 0.1], [0.7, 0.3]], labels=[0, 1],
                                              average=None), [1.0, 0.0])


def test_binary_one_dimensional_input():
    y_true = ["neg", "pos", "pos", "neg"]
    p = [0.2, 0.9, 0.6, 0.3]
    # cTP = 1.5, cFP = 0.5, count = 2
    assert ek.c_precision(y_true, p, pos_label="pos") == pytest.approx(0.75)
    assert ek.c_recall(y_true, p, pos_label="pos") == pytest.approx(0.75)
    two_columns = np.column_stack([1 - np.array(p), p])
    assert ek.c_f1(y_true, p, pos_label="pos") == ek.c_f1(y_true, two_columns, pos_label="pos")
    with pytest.raises(ValueError, match="pos_label=1 is not of the kind"):
        ek.c_f1(y_true, p)


# ---------------------------------------------------------------------------------------------
# Bad y_proba
# ---------------------------------------------------------------------------------------------

GOOD_TRUE = [0, 1, 2]
BAD_PROBA = [
    ([[0.5, 0.5, 0.0], [np.nan, 0.5, 0.5], [0, 0, 1]], "y_proba contains NaN in row 1"),
    ([[1.2, -0.2, 0.0], [0.2, 0.5, 0.3], [0, 0, 1]], r"y_proba must hold probabilities >= 0"),
    ([[0.5, 0.4, 0.0], [0.2, 0.5, 0.3], [0, 0, 1]], r"rows of y_proba must sum to 1 .* row 0"),
    ([[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]], "y_proba has 2 columns, fewer than the 3 labels"),
    ([[0.25] * 4] * 3, "y_proba has 4 columns, more than the 3 labels in y_true"),
    (np.full((3, 3, 1), 1 / 3), r"y_proba must be an \(n_samples, n_classes\) matrix"),
    ([[1, 0, 0], [0, 1, 0]], r"y_true and y_proba have different lengths \(3 != 2\)"),
    ([["a", "b", "c"]] * 3, "y_proba must hold probabilities"),
]


@pytest.mark.parametrize("proba, message", BAD_PROBA)
@pytest.mark.parametrize("function", [ek.c_precision, ek.c_recall, ek.c_f1, ek.brier_score,
                                      ek.probabilistic_confusion_matrix,
                                      ek.expected_calibration_error, ek.reliability_curve])
def test_bad_y_proba_is_named(function, proba, message):
    kwargs = {"average": "macro"} if function in (ek.c_precision, ek.c_recall, ek.c_f1) else {}
    with pytest.raises(ValueError, match=message):
        function(GOOD_TRUE, proba, **kwargs)


@pytest.mark.parametrize("p, message", [
    ([0.2, 1.5], r"y_proba\[1\] is 1.5"),
    ([-0.1, 0.5], r"y_proba\[0\] is -0.1"),
    ([0.2, np.nan], r"y_proba contains NaN at position 1"),
])
def test_bad_one_dimensional_y_proba(p, message):
    with pytest.raises(ValueError, match=message):
        ek.c_f1([0, 1], p)


def test_labels_must_fit_the_columns():
    with pytest.raises(ValueError, match="y_proba has 3 columns but labels lists 2 classes"):
        ek.c_f1([0, 1, 1], [[0.2, 0.3, 0.5]] * 3, labels=[0, 1], average="macro")
    with pytest.raises(ValueError, match=r"y_true holds labels that are not columns"):
        ek.c_f1([0, 1, 5], [[0.2, 0.8]] * 3, labels=[0, 1], average="macro")
    with pytest.raises(TypeError, match="y_proba must be an array-like"):
        ek.c_f1([0, 1], None)
    with pytest.raises(ValueError, match="n_bins must be a whole number >= 1"):
        ek.expected_calibration_error([0, 1], [0.2, 0.7], n_bins=0)
    with pytest.raises(ValueError, match="norm must be one of"):
        ek.expected_calibration_error([0, 1], [0.2, 0.7], norm="l3")


# ---------------------------------------------------------------------------------------------
# The module's names, and options by keyword
# ---------------------------------------------------------------------------------------------


def test_the_calibration_names_are_still_evalkit_probabilistics():
    # Calibration moved to evalkit.calibration; the old module path reaches the same objects.
    assert ek.probabilistic.brier_score is ek.calibration.brier_score is ek.brier_score
    for name in ek.calibration.__all__:
        assert name in ek.probabilistic.__all__, name
        assert getattr(ek.probabilistic, name) is getattr(ek.calibration, name), name
    assert ek.probabilistic.ROW_SUM_TOLERANCE == 1e-6


@pytest.mark.parametrize("call, message", [
    (lambda: ek.probabilistic_confusion_matrix([0, 1], [0.2, 0.7], [0, 1]),
     r"write probabilistic_confusion_matrix\(y_true, y_proba, labels=\[0, 1\]\)"),
    (lambda: ek.c_precision([0, 1], [0.2, 0.7], "macro"),
     r"write c_precision\(y_true, y_proba, average='macro'\)"),
    (lambda: ek.c_recall([0, 1], [0.2, 0.7], None),
     r"write c_recall\(y_true, y_proba, average=None\)"),
    (lambda: ek.c_f1([0, 1], [0.2, 0.7], "binary", 0),
     r"write c_f1\(y_true, y_proba, average='binary', pos_label=0\)"),
])
def test_options_are_keyword_only(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_labels_by_keyword_order_the_columns():
    # The sample of class 0 gave it 0.8, the one of class 1 gave it 0.7; with labels=[1, 0]
    # the columns of y_proba and both axes of the matrix list class 1 first.
    np.testing.assert_allclose(
        ek.probabilistic_confusion_matrix([0, 1], [[0.8, 0.2], [0.3, 0.7]], labels=[0, 1]),
        [[0.8, 0.2], [0.3, 0.7]])
    np.testing.assert_allclose(
        ek.probabilistic_confusion_matrix([0, 1], [[0.2, 0.8], [0.7, 0.3]], labels=[1, 0]),
        [[0.7, 0.3], [0.2, 0.8]])
