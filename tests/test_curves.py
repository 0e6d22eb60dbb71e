"""Threshold curves and AUC: scikit-learn as the oracle, brute-force definitions, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

import evalkit as ek
from evalkit.curves import confusion_at_thresholds, youden_index
from evalkit.exceptions import UndefinedMetricWarning


def _same(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Random inputs: binary labels and scores, often tied
# ---------------------------------------------------------------------------------------------


@st.composite
def scored_labels(draw, min_size=2, both_classes=True):
    n = draw(st.integers(min_value=min_size, max_value=60))
    y_true = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    if both_classes and len(set(y_true)) < 2:
        y_true[0] = 1 - y_true[0]
    tied = draw(st.booleans())
    if tied:  # few distinct values: many ties between positives and negatives
        levels = draw(st.integers(1, 6))
        scores = draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))
        y_score = np.array(scores, dtype=float) / 4
    else:
        y_score = np.array(draw(st.lists(
            st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False), min_size=n, max_size=n)))
    return np.array(y_true), y_score


@given(scored_labels(), st.booleans())
def test_roc_curve_matches_sklearn(data, drop_intermediate):
    y_true, y_score = data
    _same(ek.roc_curve(y_true, y_score, drop_intermediate=drop_intermediate),
          skm.roc_curve(y_true, y_score, drop_intermediate=drop_intermediate))


@given(scored_labels(), st.booleans())
def test_precision_recall_curve_matches_sklearn(data, drop_intermediate):
    y_true, y_score = data
    _same(ek.precision_recall_curve(y_true, y_score, drop_intermediate=drop_intermediate),
          skm.precision_recall_curve(y_true, y_score, drop_intermediate=drop_intermediate))


@given(scored_labels())
def test_roc_auc_matches_sklearn_and_the_pair_count(data):
    y_true, y_score = data
    ours = ek.roc_auc(y_true, y_score)
    assert ours == pytest.approx(skm.roc_auc_score(y_true, y_score), rel=1e-12, abs=1e-12)
    # The definition, pair by pair: a positive above a negative wins 1, a tie 1/2.
    positives, negatives = y_score[y_true == 1], y_score[y_true == 0]
    wins = (positives[:, None] > negatives[None, :]).sum()
    ties = (positives[:, None] == negatives[None, :]).sum()
    assert ours == pytest.approx((wins + ties / 2) / (len(positives) * len(negatives)),
                                 rel=1e-12)
    # ... and the trapezoid area under the curve.
    fpr, tpr, _ = ek.roc_curve(y_true, y_score)
    assert ours == pytest.approx(np.trapezoid(tpr, fpr), rel=1e-12, abs=1e-12)


@given(scored_labels())
def test_auc_properties(data):
    y_true, y_score = data
    auc = ek.roc_auc(y_true, y_score)
    assert 0.0 <= auc <= 1.0
    # Reversing the scores reverses every comparison; a monotone transform changes none.
    assert ek.roc_auc(y_true, -y_score) == pytest.approx(1 - auc, abs=1e-12)
    ranks = np.unique(y_score, return_inverse=True)[1].reshape(-1)  # same order, other values
    assert ek.roc_auc(y_true, np.exp(ranks / 10)) == pytest.approx(auc, abs=1e-12)
    # Swapping which class is positive, with the scores negated, gives the same AUC.
    assert ek.roc_auc(1 - y_true, -y_score) == pytest.approx(auc, abs=1e-12)


@given(scored_labels())
def test_confusion_at_thresholds_by_brute_force(data):
    y_true, y_score = data
    table = confusion_at_thresholds(y_true, y_score)
    assert table["threshold"].iloc[0] == np.inf
    np.testing.assert_array_equal(table["threshold"].to_numpy()[1:],
                                  np.unique(y_score)[::-1])
    for row in table.itertuples():
        predicted = (y_score >= row.threshold).astype(int)
        (tn, fp), (fn, tp) = skm.confusion_matrix(y_true, predicted, labels=[0, 1])
        assert (row.tp, row.fp, row.fn, row.tn) == (tp, fp, fn, tn)
    # scikit-learn's own sweep holds the same counts, without the +inf row (public from 1.8;
    # before that the private function it wraps).
    if hasattr(skm, "confusion_matrix_at_thresholds"):
        tns, fps, fns, tps, thresholds = skm.confusion_matrix_at_thresholds(y_true, y_score)
    else:
        from sklearn.metrics._ranking import _binary_clf_curve
        fps, tps, thresholds = _binary_clf_curve(y_true, y_score)
        tns, fns = (y_true == 0).sum() - fps, (y_true == 1).sum() - tps
    np.testing.assert_array_equal(table[["tn", "fp", "fn", "tp"]].to_numpy()[1:],
                                  np.column_stack([tns, fps, fns, tps]))
    np.testing.assert_array_equal(table["threshold"].to_numpy()[1:], thresholds)


@given(scored_labels())
def test_youden_index_by_brute_force(data):
    y_true, y_score = data
    threshold, j = youden_index(y_true, y_score)
    best = max(((y_score >= t)[y_true == 1].mean() - (y_score >= t)[y_true == 0].mean(), t)
               for t in np.unique(y_score))
    assert j == pytest.approx(best[0], abs=1e-12)
    tpr = (y_score >= threshold)[y_true == 1].mean()
    fpr = (y_score >= threshold)[y_true == 0].mean()
    assert tpr - fpr == pytest.approx(j, abs=1e-12)
    # Of equally good thresholds, the highest.
    ties = [t for t in np.unique(y_score)
            if abs((y_score >= t)[y_true == 1].mean() - (y_score >= t)[y_true == 0].mean()
                   - j) < 1e-12]
    assert threshold == max(ties)


# ---------------------------------------------------------------------------------------------
# Labels: strings, pos_label, one class against the rest
# ---------------------------------------------------------------------------------------------


def test_string_labels_and_pos_label(rng):
    y_true = rng.choice(["benign", "malignant"], 200)
    y_score = rng.random(200).round(2)
    for pos in ("benign", "malignant"):
        _same(ek.roc_curve(y_true, y_score, pos_label=pos),
              skm.roc_curve(y_true, y_score, pos_label=pos))
        _same(ek.precision_recall_curve(y_true, y_score, pos_label=pos),
              skm.precision_recall_curve(y_true, y_score, pos_label=pos))
    # Binary AUC: by default the greater label is positive, as in scikit-learn.
    assert ek.roc_auc(y_true, y_score) == pytest.approx(skm.roc_auc_score(y_true, y_score))
    assert ek.roc_auc(y_true, y_score, pos_label="benign") == pytest.approx(
        1 - skm.roc_auc_score(y_true, y_score))


def test_one_class_against_the_rest(rng):
    y_true = rng.integers(0, 4, 300)
    y_score = rng.random(300).round(2)
    for pos in range(4):
        _same(ek.roc_curve(y_true, y_score, pos_label=pos),
              skm.roc_curve(y_true, y_score, pos_label=pos))


def test_large_input_matches_sklearn(rng):
    y_true = rng.integers(0, 2, 200_000)
    y_score = np.round(rng.normal(size=200_000) + y_true, 3)  # plenty of ties
    assert ek.roc_auc(y_true, y_score) == pytest.approx(skm.roc_auc_score(y_true, y_score),
                                                        rel=1e-12)
    _same(ek.roc_curve(y_true, y_score), skm.roc_curve(y_true, y_score))
    _same(ek.precision_recall_curve(y_true, y_score), skm.precision_recall_curve(y_true, y_score))


@pytest.mark.parametrize("decimals", [None, 1, 3])
def test_two_threads_give_the_one_thread_curves(monkeypatch, rng, decimals):
    """The sweep's two sorts and the pair count's two parts on threads: sklearn's values."""
    y_true = rng.integers(0, 2, 5_000)
    y_score = rng.normal(size=5_000) + y_true
    if decimals is not None:
        y_score = np.round(y_score, decimals)
    _split_work(monkeypatch, "2")
    assert ek.roc_auc(y_true, y_score) == pytest.approx(skm.roc_auc_score(y_true, y_score),
                                                        rel=1e-12)
    _same(ek.roc_curve(y_true, y_score), skm.roc_curve(y_true, y_score))
    _same(ek.precision_recall_curve(y_true, y_score), skm.precision_recall_curve(y_true, y_score))


def test_both_raises_an_error_from_either_thread(monkeypatch):
    from evalkit import _threads

    _split_work(monkeypatch, "2")

    def fails():
        raise ValueError("this one failed")

    assert _threads._both(lambda: 1, lambda: 2, size=10) == (1, 2)
    for first, second in ((fails, lambda: 2), (lambda: 1, fails)):
        with pytest.raises(ValueError, match="this one failed"):
            _threads._both(first, second, size=10)


def test_bool_labels_and_series(rng):
    import pandas as pd

    y_true = pd.Series(rng.random(100) < 0.3)
    y_score = pd.Series(rng.random(100))
    assert ek.roc_auc(y_true, y_score) == pytest.approx(skm.roc_auc_score(y_true, y_score))
    _same(ek.roc_curve(y_true, y_score, pos_label=True), skm.roc_curve(y_true, y_score))


def test_works_as_a_sklearn_scorer():
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression())
    ours = cross_val_score(model, X, y, cv=3,
                           scoring=skm.make_scorer(ek.roc_auc, response_method="predict_proba"))
    theirs = cross_val_score(model, X, y, cv=3, scoring="roc_auc")
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# Multi-class AUC: one-vs-rest and Hand & Till
# ---------------------------------------------------------------------------------------------


@st.composite
def multiclass_scores(draw):
    k = draw(st.integers(3, 5))
    n = draw(st.integers(k, 50))
    y_true = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    y_true[:k] = range(k)  # every class occurs
    raw = draw(st.lists(st.integers(1, 5), min_size=n * k, max_size=n * k))
    scores = np.array(raw, dtype=float).reshape(n, k)
    return np.array(y_true), scores / scores.sum(axis=1, keepdims=True)


def _hand_till_by_definition(y_true, y_score):
    """Hand & Till (2001) eq. 7, with explicit loops over class pairs and sample pairs."""
    classes = np.unique(y_true)

    def a(i, j):  # P(score_i of a class-i sample > score_i of a class-j sample), ties 1/2
        own, other = y_score[y_true == classes[i], i], y_score[y_true == classes[j], i]
        total = sum((x > z) + 0.5 * (x == z) for x in own for z in other)
        return total / (len(own) * len(other))

    k = len(classes)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    return sum((a(i, j) + a(j, i)) / 2 for i, j in pairs) / len(pairs)


@given(multiclass_scores(), st.sampled_from(["macro", "weighted"]))
def test_multiclass_auc_matches_sklearn(data, average):
    y_true, y_score = data
    for ours, theirs in (("ovr", "ovr"), ("hand_till", "ovo")):
        assert ek.roc_auc(y_true, y_score, multi_class=ours, average=average) == pytest.approx(
            skm.roc_auc_score(y_true, y_score, multi_class=theirs, average=average), rel=1e-12)
    np.testing.assert_allclose(
        ek.roc_auc(y_true, y_score, multi_class="ovr", average=None),
        skm.roc_auc_score(y_true, y_score, multi_class="ovr", average=None), rtol=1e-12)


@given(multiclass_scores())
def test_hand_till_by_its_definition(data):
    y_true, y_score = data
    assert ek.roc_auc(y_true, y_score, multi_class="hand_till") == pytest.approx(
        _hand_till_by_definition(y_true, y_score), rel=1e-12)


def test_multiclass_string_labels_and_label_order(rng):
    names = np.array(["apple", "lemon", "orange"])
    y_true = names[rng.integers(0, 3, 120)]
    y_score = rng.dirichlet(np.ones(3), 120)
    for ours, theirs in (("ovr", "ovr"), ("hand_till", "ovo")):
        assert ek.roc_auc(y_true, y_score, multi_class=ours) == pytest.approx(
            skm.roc_auc_score(y_true, y_score, multi_class=theirs))
    # Columns in another order, named by labels: the same answer.
    order = [2, 0, 1]
    assert ek.roc_auc(y_true, y_score[:, order], multi_class="hand_till",
                      labels=names[order]) == pytest.approx(
        ek.roc_auc(y_true, y_score, multi_class="hand_till"))


def test_hand_till_worked_example():
    # Three classes, one column each; by hand: A(a|b)=1, A(b|a)=1, A(a|c)=1, A(c|a)=1,
    # A(b|c)=1/2 (b's 0.5 against c's 0.2 and 0.4), A(c|b)=1/2 (c's 0.7 and 0.3 against 0.3).
    y_true = ["a", "b", "c", "c"]
    y_score = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.3, 0.4, 0.3]]
    assert ek.roc_auc(y_true, y_score, multi_class="hand_till") == pytest.approx(
        (1 + 1 + (1 + 0.75) / 2) / 3)


# ---------------------------------------------------------------------------------------------
# Undefined cases and bad input
# ---------------------------------------------------------------------------------------------


def test_one_class_only_is_undefined_with_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(ek.roc_auc([1, 1, 1], [0.2, 0.4, 0.5]))
    with pytest.warns(UndefinedMetricWarning, match="No negative samples"):
        fpr, tpr, _ = ek.roc_curve([1, 1, 1], [0.2, 0.4, 0.5])
    assert np.isnan(fpr).all() and tpr[-1] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(ek.roc_curve([0, 0, 0], [0.2, 0.4, 0.5]), skm.roc_curve([0, 0, 0], [0.2, 0.4, 0.5]))
        _same(ek.precision_recall_curve([0, 0], [0.2, 0.4]),
              skm.precision_recall_curve([0, 0], [0.2, 0.4]))


@pytest.mark.parametrize("function", [ek.roc_curve, ek.precision_recall_curve, ek.roc_auc,
                                      confusion_at_thresholds, youden_index])
@pytest.mark.parametrize(("y_true", "y_score", "message"), [
    ([0, 1, 1], [0.1, 0.2], r"y_true and y_score have different lengths \(3 != 2\)"),
    ([], [], "y_true is empty"),
    ([0, 1], [0.1, float("nan")], "y_score contains NaN at position 1"),
    ([0, 1], [0.1, float("inf")], "y_score contains an infinite value at position 1"),
    ([0, 1], ["a", "b"], "y_score must hold numbers"),
    ([[0, 1], [1, 0]], [0.1, 0.2], "y_true must be 1-D"),
])
def test_bad_input(function, y_true, y_score, message):
    with pytest.raises(ValueError, match=message):
        function(y_true, y_score)


def test_bad_scores_matrix_for_binary_auc():
    with pytest.raises(ValueError, match=r"y_score has shape \(2, 2\).*multi_class"):
        ek.roc_auc([0, 1], [[0.2, 0.8], [0.6, 0.4]])
    with pytest.raises(ValueError, match="y_true holds 3 classes"):
        ek.roc_auc([0, 1, 2], [0.1, 0.5, 0.9])


@pytest.mark.parametrize("function", [ek.roc_curve, ek.precision_recall_curve])
def test_bad_pos_label(function):
    with pytest.raises(ValueError, match=r"pos_label=2 is not one of the labels of y_true"):
        function([0, 1, 1], [0.1, 0.2, 0.3], pos_label=2)
    with pytest.raises(ValueError, match=r"pos_label=1 is not one of the labels"):
        function(["a", "b"], [0.1, 0.2])
    with pytest.raises(TypeError, match="drop_intermediate must be True or False; got 'yes'"):
        function([0, 1], [0.1, 0.2], drop_intermediate="yes")
    with pytest.raises(TypeError, match="drop_intermediate must be True or False; got 1"):
        function([0, 1], [0.1, 0.2], drop_intermediate=1)


def test_bad_multiclass_options():
    y_true, y_score = [0, 1, 2], np.eye(3)
    with pytest.raises(ValueError, match=r"multi_class must be one of .*'hand_till'.*got 'ovo'"):
        ek.roc_auc(y_true, y_score, multi_class="ovo")
    with pytest.raises(ValueError, match="average must be one of"):
        ek.roc_auc(y_true, y_score, multi_class="ovr", average="micro")
    with pytest.raises(ValueError, match="average=None is for multi_class='ovr'"):
        ek.roc_auc(y_true, y_score, multi_class="hand_till", average=None)
    with pytest.raises(ValueError, match="y_score has 2 columns but there are 3 classes"):
        ek.roc_auc(y_true, y_score[:, :2], multi_class="ovr")
    with pytest.raises(ValueError, match="matrix for multi-class AUC"):
        ek.roc_auc(y_true, [0.1, 0.2, 0.3], multi_class="ovr")
    with pytest.raises(ValueError, match="non-finite value at row 1, column 2"):
        ek.roc_auc(y_true, [[1, 0, 0], [0, 1, np.nan], [0, 0, 1]], multi_class="ovr")
    with pytest.raises(ValueError, match="y_true holds the label 2, which is not in labels"):
        ek.roc_auc(y_true, y_score, multi_class="ovr", labels=[0, 1, 5])
    with pytest.raises(ValueError, match=r"labels \[5\] have no sample in y_true"):
        ek.roc_auc([0, 1, 1], y_score, multi_class="ovr", labels=[0, 1, 5])
    with pytest.raises(ValueError, match="pos_label is for a binary AUC"):
        ek.roc_auc(y_true, y_score, multi_class="ovr", pos_label=1)
    with pytest.raises(ValueError, match="labels is for multi-class AUC"):
        ek.roc_auc([0, 1], [0.2, 0.3], labels=[0, 1])


# ---------------------------------------------------------------------------------------------
# binormal_test_set
# ---------------------------------------------------------------------------------------------


def test_binormal_test_set_by_hand():
    y_true, y_score = ek.binormal_test_set(separation=1.5, prevalence=0.2, n_pool=5, seed=3)
    draws = np.random.default_rng(3).standard_normal((2, 5))
    np.testing.assert_array_equal(y_score[:400], np.repeat(np.sort(draws[0]), 80))
    np.testing.assert_array_equal(y_score[400:], np.repeat(np.sort(draws[1]) + 1.5, 20))
    np.testing.assert_array_equal(y_true, np.repeat([0, 1], [400, 100]))


@pytest.mark.parametrize("threshold", [-0.5, 0.3, 1.0, 2.2])
def test_binormal_test_set_rates_do_not_move_with_the_balance(threshold):
    from sklearn import metrics as skm

    rates = set()
    for prevalence in (0.5, 0.2, 0.05, 0.01):
        y_true, y_score = ek.binormal_test_set(separation=1.5, prevalence=prevalence)
        assert len(y_true) == 20000 and y_true.sum() == round(prevalence * 100) * 200
        y_pred = (y_score >= threshold).astype(int)
        tn, fp, fn, tp = skm.confusion_matrix(y_true, y_pred).ravel()
        rates.add((round(tp / (tp + fn), 12), round(fp / (fp + tn), 12)))
        tpr, fpr = rates.copy().pop()
        if tp + fp:
            assert skm.precision_score(y_true, y_pred) == pytest.approx(
                prevalence * tpr / (prevalence * tpr + (1 - prevalence) * fpr))
    assert len(rates) == 1


def test_binormal_test_set_auc_tends_to_the_population_auc():
    from scipy.stats import norm

    y_true, y_score = ek.binormal_test_set(separation=1.0, prevalence=0.5, n_pool=20000)
    assert ek.roc_auc(y_true, y_score) == pytest.approx(norm.cdf(1.0 / np.sqrt(2)), abs=0.01)


def test_binormal_auc_is_the_closed_form_and_the_large_sample_auc():
    from scipy.stats import norm

    assert ek.binormal_auc(0.0) == 0.5
    for separation in (-1.0, 0.5, 1.0, 1.5, 3.0):
        closed = norm.cdf(separation / np.sqrt(2))
        assert ek.binormal_auc(separation) == pytest.approx(closed, rel=1e-12, abs=1e-15)
    assert ek.binormal_auc(-1.0) == pytest.approx(1 - ek.binormal_auc(1.0), abs=1e-15)
    # P(X+ > X-) by simulation, and scikit-learn's AUC of binormal_test_set
    rng = np.random.default_rng(0)
    positives, negatives = rng.normal(1.5, 1, 400_000), rng.normal(0, 1, 400_000)
    assert (positives > negatives).mean() == pytest.approx(ek.binormal_auc(1.5), abs=0.003)
    y_true, y_score = ek.binormal_test_set(separation=1.5, n_pool=20000, seed=1)
    assert skm.roc_auc_score(y_true, y_score) == pytest.approx(ek.binormal_auc(1.5), abs=0.01)


def test_binormal_auc_bad_input():
    with pytest.raises(ValueError, match="separation"):
        ek.binormal_auc(float("nan"))
    with pytest.raises(TypeError, match="separation"):
        ek.binormal_auc("1.5")


@pytest.mark.parametrize("kwargs, name", [
    ({"prevalence": 0.005}, "prevalence"), ({"prevalence": 0.125}, "prevalence"),
    ({"prevalence": 1.0}, "prevalence"), ({"n_pool": 0}, "n_pool"), ({"seed": -1}, "seed"),
    ({"separation": float("nan")}, "separation"),
])
def test_binormal_test_set_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        ek.binormal_test_set(**kwargs)


def test_binormal_test_set_options_are_keyword_only():
    with pytest.raises(TypeError):
        ek.binormal_test_set(1.5, 0.2)


def _split_work(monkeypatch, threads: str) -> None:
    """Make every job large enough to be split over threads, with this many of them."""
    from evalkit import _threads

    monkeypatch.setattr(_threads, "_BOTH_MIN", 0)
    monkeypatch.setenv("EVALKIT_THREADS", threads)


@pytest.mark.parametrize("threads", ["1", "2"])  # one part, or cut in two at a median
@pytest.mark.parametrize("search_factor", [0, 10**9])  # always merge / always search
def test_pair_count_merge_and_search_agree_with_the_pairs(monkeypatch, search_factor, threads):
    from evalkit import _sweep

    monkeypatch.setattr(_sweep, "_SEARCH_FACTOR", search_factor)
    _split_work(monkeypatch, threads)
    rng = np.random.default_rng(33)
    for case in range(400):
        n_pos, n_neg = rng.integers(0, 40, size=2)
        levels = int(rng.integers(1, 12))
        if case % 2:  # ties within and across the classes
            positives, negatives = (np.sort(rng.integers(0, levels, k) / 4) for k in (n_pos, n_neg))
        else:
            positives, negatives = np.sort(rng.random(n_pos)), np.sort(rng.random(n_neg))
        wins = (positives[:, None] > negatives[None, :]).sum()
        ties = (positives[:, None] == negatives[None, :]).sum()
        assert _sweep.pair_count(positives, negatives) == 2 * wins + ties


def test_level_counts_give_the_pair_count_of_the_pairs():
    from evalkit import _sweep

    rng = np.random.default_rng(34)
    for case in range(400):
        n = int(rng.integers(1, 80))
        levels = int(rng.integers(1, 5))
        y_score = rng.integers(-levels, levels + 1, n) / 4  # ties within and across classes
        if case % 3 == 0:
            y_score[rng.random(n) < 0.3] = -0.0  # equal to 0.0: one level
        if case % 3 == 1:
            y_score = (y_score * 4).astype(np.int64)
        is_positive = rng.random(n) < rng.random()
        counts = _sweep.level_counts(is_positive, y_score)
        if len(np.unique(y_score)) * 16 > n:
            assert counts is None
            continue
        positives, negatives = counts
        distinct, where = np.unique(y_score, return_inverse=True)
        np.testing.assert_array_equal(positives, np.bincount(where[is_positive],
                                                             minlength=len(distinct)))
        np.testing.assert_array_equal(negatives, np.bincount(where[~is_positive],
                                                             minlength=len(distinct)))
        pos, neg = y_score[is_positive], y_score[~is_positive]
        wins = (pos[:, None] > neg[None, :]).sum()
        ties = (pos[:, None] == neg[None, :]).sum()
        assert _sweep.level_pair_count(positives, negatives) == 2 * wins + ties


def test_level_counts_refuse_many_levels_from_the_sample():
    from evalkit import _sweep

    rng = np.random.default_rng(35)
    many = rng.random(300_000)
    assert _sweep.level_counts(many > 0.5, many) is None  # the sample already shows it
    # Few levels in the sample, but not over the whole array: hashed, then refused when
    # more than 1/4 of the scores are distinct (a third here) ...
    spread = np.where(np.arange(300_000) % 3 == 1, rng.random(300_000), 0.5)
    assert _sweep.level_counts(spread > 0.5, spread) is None
    # ... and counted by level when fewer are (1/12 here, past the sample's 1/16): the hash
    # is paid, and placing the scores among their levels costs less than sorting them.
    spread = np.where(np.arange(300_000) % 12 == 1, rng.random(300_000), 0.5)
    positives, negatives = _sweep.level_counts(spread > 0.5, spread)
    distinct, where = np.unique(spread, return_inverse=True)
    assert len(distinct) == 25_001
    np.testing.assert_array_equal(positives, np.bincount(where[spread > 0.5], minlength=25_001))
    np.testing.assert_array_equal(negatives, np.bincount(where[spread <= 0.5], minlength=25_001))
    rounded = np.round(many, 3)
    positives, negatives = _sweep.level_counts(many > 0.5, rounded)
    assert positives.sum() + negatives.sum() == len(many) and len(positives) == 1001
    # The sample's count of distinct scores against the count expected of n / 16 levels:
    # n / 18 levels pass it, n / 14 do not (the whole array is not hashed).
    n = 10**6
    calls = []
    unique = _sweep.pd.unique
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_sweep.pd, "unique", lambda values: calls.append(len(values))
                      or unique(values))
        for levels, hashed in ((n // 18, True), (n // 14, False)):
            calls.clear()
            scores = rng.integers(0, levels, n) / levels
            counts = _sweep.level_counts(scores > 0.5, scores)
            assert (counts is not None) == hashed and (n in calls) == hashed, levels


@pytest.mark.parametrize("slow_sort", [False, True], ids=["sorts", "level counts"])
@pytest.mark.parametrize("decimals", [None, 2, 4])
def test_roc_auc_equals_sklearn_on_large_inputs(monkeypatch, decimals, slow_sort):
    # Large enough for the merge path (many distinct scores) and the search path (rounded);
    # where numpy's sort is slow (whatever this CPU is), rounded scores take the level counts.
    from evalkit import curves

    monkeypatch.setattr(curves, "simd_sort_is_slow", lambda values: slow_sort)
    rng = np.random.default_rng(decimals or 0)
    y_true = rng.integers(0, 2, 200_000)
    y_score = rng.normal(size=len(y_true)) + y_true
    if decimals is not None:
        y_score = np.round(y_score, decimals)
    assert ek.roc_auc(y_true, y_score) == pytest.approx(skm.roc_auc_score(y_true, y_score),
                                                         rel=1e-13)
