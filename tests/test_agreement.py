"""Kappa: scikit-learn and statsmodels as oracles, the notes' and slides' examples, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats import inter_rater

import evalkit as ek
from evalkit.exceptions import UndefinedMetricWarning


def _table_labels(table):
    """Item-by-item labels (a, b) that give this contingency table."""
    table = np.asarray(table)
    i, j = np.indices(table.shape)
    counts = table.reshape(-1)
    return np.repeat(i.reshape(-1), counts), np.repeat(j.reshape(-1), counts)


# ---------------------------------------------------------------------------------------------
# Worked examples
# ---------------------------------------------------------------------------------------------


def test_slides_400_documents_with_pooled_marginals():
    # Judge 1 by rows, judge 2 by columns: (yes, no). IIR section 8.5, the slides' example.
    table = [[300, 20], [10, 70]]
    agreement = (300 + 70) / 400
    pooled_yes = (320 + 310) / 800
    chance = pooled_yes**2 + (1 - pooled_yes) ** 2
    assert pooled_yes == 0.7875  # the slides print 0.7878
    assert agreement == 0.925 and chance == pytest.approx(0.6653125, abs=1e-12)
    kappa = ek.kappa_from_table(table, marginals="pooled")
    assert kappa == pytest.approx((0.925 - chance) / (1 - chance), rel=1e-12)
    assert round(kappa, 4) == 0.7759  # with P(E) rounded to 0.665 first: 0.7761, "0.776"
    assert (0.925 - 0.665) / (1 - 0.665) == pytest.approx(0.7761, abs=1e-4)
    assert ek.interpret_kappa(kappa) == "substantial"
    assert ek.interpret_kappa(kappa, scale="carletta") == "tentative"


def test_notes_example_one():
    # 30 items, 25 agreements; each judge says yes to 15 and no to 15 -> Pr(e) = 0.5.
    table = [[13, 2], [3, 12]]
    assert ek.kappa_from_table(table) == pytest.approx((25 / 30 - 0.5) / 0.5)
    assert round(ek.kappa_from_table(table), 2) == 0.67  # the notes write 0.66 (truncated)


def test_same_agreement_different_marginals():
    # Both tables have Pr(a) = 0.6; the marginals change Pr(e) and so kappa.
    balanced = [[45, 15], [25, 15]]
    skewed = [[25, 35], [5, 35]]
    assert ek.kappa_from_table(balanced) == pytest.approx((0.6 - (0.6 * 0.7 + 0.4 * 0.3)) /
                                                           (1 - (0.6 * 0.7 + 0.4 * 0.3)))
    assert round(ek.kappa_from_table(balanced), 4) == 0.1304
    assert round(ek.kappa_from_table(skewed), 4) == 0.2593


def test_kappa_paradox_high_agreement_low_kappa():
    table = [[90, 5], [5, 0]]  # 90% agreement, but one label dominates
    assert ek.kappa_from_table(table) < 0
    a, b = _table_labels(table)
    assert ek.cohen_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b))


def test_fleiss_by_hand():
    counts = np.array([[3, 0], [2, 1], [0, 3], [1, 2]])
    p_i = ((counts * (counts - 1)).sum(axis=1) / 6)
    shares = counts.sum(axis=0) / 12
    expected = (p_i.mean() - (shares**2).sum()) / (1 - (shares**2).sum())
    assert ek.fleiss_kappa(counts) == pytest.approx(expected)
    # With two judges Fleiss' kappa is Scott's pi, i.e. Cohen's kappa with pooled marginals.
    a, b = _table_labels([[20, 5], [10, 15]])
    two_judges = np.column_stack([(a == 0).astype(int) + (b == 0), (a == 1).astype(int) + (b == 1)])
    assert ek.fleiss_kappa(two_judges) == pytest.approx(ek.cohen_kappa(a, b, marginals="pooled"))


# ---------------------------------------------------------------------------------------------
# Oracles on random inputs
# ---------------------------------------------------------------------------------------------


GRADES = st.integers(0, 4)


@st.composite
def two_raters(draw, labels=GRADES):
    n = draw(st.integers(1, 60))
    a = draw(st.lists(labels, min_size=n, max_size=n))
    b = draw(st.lists(labels, min_size=n, max_size=n))
    return a, b


@given(two_raters(), st.sampled_from([None, "linear", "quadratic"]))
def test_cohen_kappa_matches_sklearn(raters, weights):
    a, b = raters
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = cohen_kappa_score(a, b, weights=weights)
    ours = ek.cohen_kappa(a, b, weights=weights, zero_division=np.nan)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True)


@given(two_raters(st.sampled_from(["non", "partial", "rel"])), st.sampled_from([None, "linear"]))
def test_string_labels_and_label_order_match_sklearn(raters, weights):
    a, b = raters
    order = ["rel", "partial", "non"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = cohen_kappa_score(a, b, labels=order, weights=weights)
    ours = ek.cohen_kappa(a, b, labels=order, weights=weights, zero_division=np.nan)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True)


@given(two_raters(), st.sampled_from([None, "linear", "quadratic"]))
def test_pooled_marginals_by_formula(raters, weights):
    a, b = raters
    k = 5
    table = np.zeros((k, k))
    np.add.at(table, (a, b), 1)
    p = table / table.sum()
    pooled = (p.sum(axis=1) + p.sum(axis=0)) / 2
    distance = np.abs(np.subtract.outer(np.arange(k), np.arange(k)))
    w = {None: distance > 0, "linear": distance, "quadratic": distance**2}[weights]
    chance = (w * np.outer(pooled, pooled)).sum()
    ours = ek.cohen_kappa(a, b, labels=list(range(k)), weights=weights, marginals="pooled",
                          zero_division=np.nan)
    expected = 1 - (w * p).sum() / chance if chance else np.nan
    np.testing.assert_allclose(ours, expected, rtol=1e-12, atol=1e-12, equal_nan=True)
    if weights is None and len(set(a) | set(b)) > 1:
        # Scott's pi, unweighted: (Pa - Pe) / (1 - Pe) with Pe from the pooled shares.
        pa = np.trace(p)
        pe = (pooled**2).sum()
        assert ours == pytest.approx((pa - pe) / (1 - pe), abs=1e-12)


@st.composite
def judge_counts(draw):
    """(items x categories) counts of m judges per item."""
    m, k = draw(st.integers(2, 6)), draw(st.integers(2, 4))
    items = draw(st.lists(st.lists(st.integers(0, k - 1), min_size=m, max_size=m), min_size=1,
                          max_size=30))
    return np.array([np.bincount(labels, minlength=k) for labels in items])


@given(judge_counts())
def test_fleiss_matches_statsmodels(counts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = inter_rater.fleiss_kappa(counts, method="fleiss")
        ours = ek.fleiss_kappa(counts)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True)


def test_statsmodels_cohens_kappa_agrees_on_tables(rng):
    for _ in range(50):
        table = rng.integers(0, 30, (4, 4))
        for weights, wt in ((None, None), ("linear", "linear"), ("quadratic", "quadratic")):
            theirs = inter_rater.cohens_kappa(table, wt=wt).kappa
            assert ek.kappa_from_table(table, weights=weights) == pytest.approx(theirs, rel=1e-10)


def test_large_input_matches_sklearn(rng):
    a = rng.integers(0, 4, 200_000)
    b = np.where(rng.random(200_000) < 0.7, a, rng.integers(0, 4, 200_000))
    for weights in (None, "quadratic"):
        assert ek.cohen_kappa(a, b, weights=weights) == pytest.approx(
            cohen_kappa_score(a, b, weights=weights), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Interpretation, undefined cases, bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kappa", "landis_koch", "carletta"), [
    (-0.1, "poor", "discard"), (0.0, "slight", "discard"), (0.2, "slight", "discard"),
    (0.21, "fair", "discard"), (0.4, "fair", "discard"), (0.55, "moderate", "discard"),
    (0.6, "moderate", "discard"), (0.67, "substantial", "tentative"),
    (0.8, "substantial", "good"), (0.81, "almost perfect", "good"), (1.0, "almost perfect", "good"),
])
def test_interpret_kappa_bands(kappa, landis_koch, carletta):
    assert ek.interpret_kappa(kappa) == landis_koch
    assert ek.interpret_kappa(kappa, scale="carletta") == carletta


def test_undefined_kappa_follows_zero_division():
    with pytest.warns(UndefinedMetricWarning, match="chance agreement is 1"):
        assert ek.cohen_kappa([1, 1, 1], [1, 1, 1]) == 0.0
    assert np.isnan(ek.cohen_kappa([1, 1], [1, 1], zero_division=np.nan))
    assert ek.cohen_kappa([1, 1], [1, 1], zero_division=1.0) == 1.0
    with pytest.warns(UndefinedMetricWarning, match="every judgement is in one category"):
        assert np.isnan(ek.fleiss_kappa([[3, 0], [3, 0]]))


def test_bad_input():
    with pytest.raises(ValueError, match=r"rater_a and rater_b have different lengths \(3 != 2\)"):
        ek.cohen_kappa([1, 0, 1], [1, 0])
    with pytest.raises(ValueError, match="rater_a is empty"):
        ek.cohen_kappa([], [])
    with pytest.raises(ValueError, match="rater_b contains NaN"):
        ek.cohen_kappa([1.0, 0.0], [1.0, np.nan])
    with pytest.raises(ValueError, match="labels must be all strings or all numbers"):
        ek.cohen_kappa(["a", "b"], [1, 0])
    with pytest.raises(ValueError, match=r"weights must be one of .*'quadratic'.*got 'cubic'"):
        ek.cohen_kappa([1, 0], [1, 0], weights="cubic")
    with pytest.raises(ValueError, match=r"marginals must be one of .*got 'shared'"):
        ek.kappa_from_table([[1, 0], [0, 1]], marginals="shared")
    with pytest.raises(ValueError, match="no item has a label listed in labels"):
        ek.cohen_kappa([1, 0], [1, 0], labels=[5, 6])
    with pytest.raises(ValueError, match=r"table must be a square \(k, k\) matrix"):
        ek.kappa_from_table([[1, 2, 3]])
    with pytest.raises(ValueError, match="table must hold non-negative finite counts"):
        ek.kappa_from_table([[1, -2], [3, 4]])
    with pytest.raises(ValueError, match="table is empty"):
        ek.kappa_from_table([[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="item 0 has 3 and item 1 has 2"):
        ek.fleiss_kappa([[3, 0], [1, 1]])
    with pytest.raises(ValueError, match="at least 2 judges"):
        ek.fleiss_kappa([[1, 0], [0, 1]])
    with pytest.raises(ValueError, match=r"counts must hold non-negative whole numbers "
                                         r"\(judges per category\); got 1.5"):
        ek.fleiss_kappa([[1.5, 0.5], [1, 1]])
    with pytest.raises(ValueError, match=r"whole numbers \(judges per category\); got -1"):
        ek.fleiss_kappa([[3, -1], [1, 1]])
    with pytest.raises(TypeError, match=r"counts must hold non-negative whole numbers"):
        ek.fleiss_kappa([["a", "b"], ["c", "d"]])
    with pytest.raises(TypeError, match="table must be a square"):
        ek.kappa_from_table(None)
    with pytest.raises(ValueError, match=r"scale must be one of"):
        ek.interpret_kappa(0.5, scale="fleiss")
    with pytest.raises(ValueError, match="kappa must be a real number <= 1; got 1.5"):
        ek.interpret_kappa(1.5)
    with pytest.raises(ValueError, match="kappa must be a real number <= 1; got nan"):
        ek.interpret_kappa(float("nan"))
    with pytest.raises(TypeError, match="kappa must be a real number <= 1; got the string 'high'"):
        ek.interpret_kappa("high")
    assert ek.interpret_kappa(1 + 1e-13) == "almost perfect"  # round-off above 1 is allowed


# --- labels_from_table: a table back into two judges' labels ---------------------------------


def test_labels_from_table_by_hand():
    a, b = ek.labels_from_table([[2, 1], [0, 3]], labels=["R", "N"])
    assert a.tolist() == ["R", "R", "R", "N", "N", "N"]
    assert b.tolist() == ["R", "R", "N", "N", "N", "N"]
    a, b = ek.labels_from_table([[0, 2, 0], [1, 0, 0], [0, 0, 1]])
    assert a.tolist() == [0, 0, 1, 2] and b.tolist() == [1, 1, 0, 2]


@given(two_raters())
def test_labels_from_table_round_trips_and_keeps_kappa(raters):
    rater_a, rater_b = raters
    labels = np.unique(np.concatenate([rater_a, rater_b]))
    table = ek.confusion_matrix(rater_a, rater_b, labels=labels)
    a, b = ek.labels_from_table(table, labels=labels)
    assert len(a) == len(rater_a)
    np.testing.assert_array_equal(ek.confusion_matrix(a, b, labels=labels), table)
    if len(labels) > 1:  # sklearn's kappa is undefined with one category
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = cohen_kappa_score(rater_a, rater_b)
        assert np.isclose(ek.cohen_kappa(a, b, zero_division=np.nan), theirs, equal_nan=True)


def test_labels_from_table_bad_input():
    with pytest.raises(ValueError, match="table must be a square"):
        ek.labels_from_table([[1, 2, 3]])
    with pytest.raises(ValueError, match="table must hold non-negative"):
        ek.labels_from_table([[1, -2], [3, 4]])
    with pytest.raises(ValueError, match=r"table must hold non-negative whole numbers "
                                         r"\(items per cell\); got 2.5"):
        ek.labels_from_table([[1, 2.5], [3, 4]])
    with pytest.raises(ValueError, match="table is empty"):
        ek.labels_from_table([[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="labels must name the 2 categories"):
        ek.labels_from_table([[1, 2], [3, 4]], labels=["a", "b", "c"])
    with pytest.raises(ValueError, match="labels must not repeat"):
        ek.labels_from_table([[1, 2], [3, 4]], labels=["a", "a"])
    with pytest.raises(TypeError):
        ek.labels_from_table([[1, 2], [3, 4]], ["a", "b"])


def test_cohen_kappa_reads_each_argument_once(monkeypatch):
    from evalkit import _validation

    read, original = [], _validation._to_array

    def spy(values, name):
        read.append(name)
        return original(values, name)

    monkeypatch.setattr(_validation, "_to_array", spy)
    kappa = ek.cohen_kappa([0, 1, 2, 2], [0, 1, 1, 2], labels=[2, 1, 0], weights="linear")
    assert read == ["rater_a", "rater_b", "labels"]
    assert kappa == pytest.approx(ek.cohen_kappa([0, 1, 2, 2], [0, 1, 1, 2], weights="linear"))


# ---------------------------------------------------------------------------------------------
# kappa_terms: P(a), P(e) and the marginals behind kappa
# ---------------------------------------------------------------------------------------------


def test_kappa_terms_of_a_2x2_table_by_hand():
    # IIR 8.5: 400 documents; judge A says yes to 320, judge B to 310.
    terms = ek.kappa_terms([[300, 20], [10, 70]])
    assert terms.observed == 370 / 400
    assert terms.expected == pytest.approx(0.8 * 0.775 + 0.2 * 0.225, abs=1e-15)  # 0.665
    assert terms.kappa == pytest.approx((0.925 - 0.665) / (1 - 0.665), rel=1e-12)
    np.testing.assert_allclose(terms.row_marginals, [0.8, 0.2], atol=1e-15)
    np.testing.assert_allclose(terms.column_marginals, [0.775, 0.225], atol=1e-15)
    np.testing.assert_allclose(terms.pooled_marginals, [0.7875, 0.2125], atol=1e-15)
    observed, expected, kappa = terms  # unpacks like a tuple
    assert (observed, expected, kappa) == (terms.observed, terms.expected, terms.kappa)
    pooled = ek.kappa_terms([[300, 20], [10, 70]], marginals="pooled")
    assert pooled.observed == 0.925
    assert pooled.expected == pytest.approx(0.7875**2 + 0.2125**2, abs=1e-15)  # 0.6653125
    assert pooled.kappa == ek.kappa_from_table([[300, 20], [10, 70]], marginals="pooled")
    # the marginals fields are the judges' own whichever marginals chance uses
    np.testing.assert_array_equal(pooled.row_marginals, terms.row_marginals)


def test_kappa_terms_weighted_by_hand_and_against_sklearn():
    # Quadratic, k = 3: agreement weights 1 - (i - j)^2 / 4; rows and columns both (3, 2, 2).
    table = [[2, 1, 0], [0, 1, 1], [1, 0, 1]]
    terms = ek.kappa_terms(table, weights="quadratic")
    assert terms.observed == pytest.approx(5.5 / 7, abs=1e-15)
    assert terms.expected == pytest.approx(32 / 49, abs=1e-15)
    assert terms.kappa == pytest.approx(6.5 / 17, rel=1e-12)
    a, b = _table_labels(table)
    assert terms.kappa == pytest.approx(cohen_kappa_score(a, b, weights="quadratic"), rel=1e-12)
    assert terms.kappa == ek.kappa_from_table(table, weights="quadratic")


@given(two_raters(), st.sampled_from([None, "linear", "quadratic"]),
       st.sampled_from(["separate", "pooled"]))
def test_kappa_terms_agree_with_kappa_from_table_and_sklearn(raters, weights, marginals):
    a, b = raters
    k = 5
    table = np.zeros((k, k), dtype=int)
    np.add.at(table, (a, b), 1)
    terms = ek.kappa_terms(table, weights=weights, marginals=marginals, zero_division=np.nan)
    ours = ek.kappa_from_table(table, weights=weights, marginals=marginals,
                               zero_division=np.nan)
    np.testing.assert_array_equal(terms.kappa, ours)
    if terms.expected < 1 - 1e-9:
        assert terms.kappa == pytest.approx(
            (terms.observed - terms.expected) / (1 - terms.expected), rel=1e-9, abs=1e-9)
    if marginals == "separate" and len(set(a) | set(b)) > 1:
        theirs = cohen_kappa_score(a, b, labels=list(range(k)), weights=weights)
        assert terms.kappa == pytest.approx(theirs, rel=1e-12, abs=1e-12)
    if weights is None:
        p = table / table.sum()
        assert terms.observed == pytest.approx(np.trace(p), abs=1e-15)
        np.testing.assert_allclose(terms.row_marginals, p.sum(axis=1), atol=1e-15)
        np.testing.assert_allclose(terms.column_marginals, p.sum(axis=0), atol=1e-15)


def test_kappa_terms_bad_input_and_undefined_kappa():
    with pytest.raises(ValueError, match="table is empty"):
        ek.kappa_terms([[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="weights"):
        ek.kappa_terms([[1, 0], [0, 1]], weights="cubic")
    with pytest.raises(TypeError, match="write kappa_terms"):
        ek.kappa_terms([[1, 0], [0, 1]], "linear")
    terms = ek.kappa_terms([[5, 0], [0, 0]], zero_division=np.nan)
    assert (terms.observed, terms.expected) == (1.0, 1.0) and np.isnan(terms.kappa)
