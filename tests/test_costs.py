"""Cost-sensitive evaluation: the notes' example, brute-force definitions, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

import evalkit as ek
from evalkit.costs import costs_by_threshold

# The course notes' medical example: rows actual (+, -), columns predicted (+, -).
MEDICAL_COSTS = [[-1, 100], [1, 0]]
M1 = [[150, 40], [60, 250]]  # TP FN / FP TN: accuracy 80%
M2 = [[250, 45], [5, 200]]  # accuracy 90%


def test_the_more_accurate_model_costs_more():
    assert ek.total_cost(M1, MEDICAL_COSTS) == 150 * -1 + 40 * 100 + 60 * 1 + 250 * 0 == 3910
    assert ek.total_cost(M2, MEDICAL_COSTS) == 250 * -1 + 45 * 100 + 5 * 1 + 200 * 0 == 4255
    assert ek.expected_cost(M1, MEDICAL_COSTS) == pytest.approx(3910 / 500)
    assert ek.expected_cost(M2, MEDICAL_COSTS) == pytest.approx(4255 / 500)
    # Reordering classes (negative first) moves rows and columns together: same cost.
    flip = [1, 0]
    assert ek.total_cost(np.array(M1)[np.ix_(flip, flip)],
                         np.array(MEDICAL_COSTS)[np.ix_(flip, flip)]) == 3910


def test_expected_cost_with_priors_by_hand():
    # Per-class cost rates of M1: positives (150*-1 + 40*100)/190, negatives 60/310.
    rates = np.array([(150 * -1 + 40 * 100) / 190, 60 / 310])
    for priors in ([0.5, 0.5], [0.1, 0.9], [1.0, 0.0]):
        assert ek.expected_cost(M1, MEDICAL_COSTS, priors=priors) == pytest.approx(
            float(np.dot(priors, rates)))
    # The test set's own class shares give back the plain expected cost.
    assert ek.expected_cost(M1, MEDICAL_COSTS, priors=[190 / 500, 310 / 500]) == pytest.approx(
        ek.expected_cost(M1, MEDICAL_COSTS))


@given(st.integers(2, 5).flatmap(lambda k: st.tuples(
    st.lists(st.integers(0, k - 1), min_size=1, max_size=50).flatmap(
        lambda t: st.tuples(st.just(t), st.lists(st.integers(0, k - 1), min_size=len(t),
                                                  max_size=len(t)))),
    st.lists(st.integers(-5, 20), min_size=k * k, max_size=k * k), st.just(k))))
def test_total_cost_is_the_sum_of_each_decisions_cost(data):
    (y_true, y_pred), costs, k = data
    cost_matrix = np.array(costs).reshape(k, k)
    confusion = ek.confusion_matrix(y_true, y_pred, labels=list(range(k)))
    per_decision = sum(cost_matrix[t, p] for t, p in zip(y_true, y_pred, strict=True))
    assert ek.total_cost(confusion, cost_matrix) == per_decision
    assert ek.expected_cost(confusion, cost_matrix) == pytest.approx(per_decision / len(y_true))


@st.composite
def scored_costs(draw):
    n = draw(st.integers(1, 50))
    y_true = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y_score = np.array(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))) / 8
    costs = np.array(draw(st.lists(st.integers(-3, 30), min_size=4, max_size=4)),
                     dtype=float).reshape(2, 2)
    return y_true, y_score, costs


def _brute_force_costs(y_true, y_score, cost_matrix):
    """Cost of every candidate threshold, one decision at a time."""
    candidates = [np.inf, *sorted(set(y_score.tolist()), reverse=True)]
    totals = []
    for t in candidates:
        predicted = (y_score >= t).astype(int)
        totals.append(sum(cost_matrix[a, p] for a, p in zip(y_true, predicted, strict=True)))
    return candidates, totals


@given(scored_costs())
def test_cost_optimal_threshold_by_brute_force(data):
    y_true, y_score, cost_matrix = data
    candidates, totals = _brute_force_costs(y_true, y_score, cost_matrix)
    threshold, cost = ek.cost_optimal_threshold(y_true, y_score, cost_matrix)
    assert cost == min(totals)
    assert threshold == candidates[int(np.argmin(totals))]  # the highest of equal optima
    table = costs_by_threshold(y_true, y_score, cost_matrix)
    np.testing.assert_array_equal(table["cost"], totals)
    np.testing.assert_allclose(table["expected_cost"], np.array(totals) / len(y_true))


@given(scored_costs())
def test_costs_by_threshold_agree_with_the_confusion_matrix(data):
    y_true, y_score, cost_matrix = data
    for row in costs_by_threshold(y_true, y_score, cost_matrix).itertuples():
        predicted = (y_score >= row.threshold).astype(int)
        confusion = skm.confusion_matrix(y_true, predicted, labels=[0, 1])
        assert row.cost == ek.total_cost(confusion, cost_matrix)


def test_string_labels_and_pos_label():
    y_true = ["spam", "ham", "spam", "ham", "ham"]
    y_score = [0.9, 0.8, 0.6, 0.3, 0.1]
    # Missing spam costs 1, flagging ham costs 10 (order: negative=ham, positive=spam).
    threshold, cost = ek.cost_optimal_threshold(y_true, y_score, [[0, 10], [1, 0]],
                                                pos_label="spam")
    assert (threshold, cost) == (0.9, 1.0)
    # When the top-scored mail is ham and flagging ham costs 100, flag nothing (+inf) and pay
    # for the two missed spams.
    y_true = ["ham", "spam", "spam", "ham", "ham"]
    assert tuple(ek.cost_optimal_threshold(y_true, y_score, [[0, 100], [1, 0]],
                                           pos_label="spam")) == (np.inf, 2.0)


def test_theoretical_threshold_for_calibrated_scores(rng):
    # Scores that are exact probabilities: the empirical optimum sits near
    # p* = C_FP / (C_FP + C_FN) (Elkan 2001) on a large sample.
    p = rng.random(200_000)
    y_true = (rng.random(200_000) < p).astype(int)
    cost_matrix = [[0, 1], [4, 0]]
    threshold, _ = ek.cost_optimal_threshold(y_true, p, cost_matrix)
    assert threshold == pytest.approx(1 / 5, abs=0.02)


@given(st.lists(st.floats(-50, 50, allow_nan=False), min_size=4, max_size=4),
       st.floats(0.01, 50), st.floats(0.01, 50), st.floats(0, 1))
def test_probability_threshold_is_where_both_decisions_cost_the_same(base, fp_regret,
                                                                     fn_regret, p):
    c_tn, _, _, c_tp = base
    cost_matrix = [[c_tn, c_tn + fp_regret], [c_tp + fn_regret, c_tp]]
    p_star = ek.probability_threshold(cost_matrix)
    assert p_star == pytest.approx(fp_regret / (fp_regret + fn_regret))
    # Expected cost of each decision at probability p of the positive class (Elkan 2001):
    positive = (1 - p) * cost_matrix[0][1] + p * cost_matrix[1][1]
    negative = (1 - p) * cost_matrix[0][0] + p * cost_matrix[1][0]
    if p > p_star + 1e-9:
        assert positive < negative + 1e-9
    elif p < p_star - 1e-9:
        assert negative < positive + 1e-9


def test_probability_threshold_by_hand_and_against_the_empirical_optimum(rng):
    assert ek.probability_threshold([[0, 1], [20, 0]]) == pytest.approx(1 / 21)
    # The notes' medical costs in (negative, positive) order: a false alarm costs 1, a miss
    # 100, a hit -1; regrets 1 - 0 and 100 - (-1).
    assert ek.probability_threshold([[0, 1], [100, -1]]) == pytest.approx(1 / 102)
    p = rng.random(200_000)
    y_true = (rng.random(200_000) < p).astype(int)
    threshold, _ = ek.cost_optimal_threshold(y_true, p, [[0, 1], [4, 0]])
    assert threshold == pytest.approx(ek.probability_threshold([[0, 1], [4, 0]]), abs=0.02)


@pytest.mark.parametrize("cost_matrix", [[[0, 1], [0, 0]], [[1, 1], [5, 0]], [[0, 1], [5, 6]]])
def test_probability_threshold_needs_errors_to_cost_more(cost_matrix):
    with pytest.raises(ValueError, match="cost_matrix must make each error cost more"):
        ek.probability_threshold(cost_matrix)
    with pytest.raises(ValueError, match="cost_matrix must be 2x2"):
        ek.probability_threshold(np.eye(3))


@pytest.mark.parametrize(("confusion", "cost_matrix", "message"), [
    ([[1, 2], [3, 4]], [[0, 1, 2], [1, 0, 2], [1, 1, 0]], "same shape"),
    ([[1, 2, 3]], [[0, 1]], r"confusion must be a square \(k, k\) matrix; got shape \(1, 3\)"),
    ([[1, 2], [3, 4]], [[0, np.nan], [1, 0]], "cost_matrix must hold finite numbers"),
    ([[1, -2], [3, 4]], [[0, 1], [1, 0]], "confusion must hold non-negative finite counts"),
])
def test_bad_matrices(confusion, cost_matrix, message):
    with pytest.raises(ValueError, match=message):
        ek.total_cost(confusion, cost_matrix)
    with pytest.raises(ValueError, match=message):
        ek.expected_cost(confusion, cost_matrix)


@pytest.mark.parametrize(("confusion", "cost_matrix", "message"), [
    ([[1, 2], [3, 4]], "costs", "cost_matrix must be a square .*got the string 'costs'"),
    (None, [[0, 1], [1, 0]], "confusion must be a square .*got None"),
    ([["a", "b"], ["c", "d"]], [[0, 1], [1, 0]], "confusion must be a square .*got dtype"),
])
def test_the_wrong_kind_of_matrix_is_a_type_error(confusion, cost_matrix, message):
    with pytest.raises(TypeError, match=message):
        ek.total_cost(confusion, cost_matrix)
    with pytest.raises(TypeError, match=message):
        ek.expected_cost(confusion, cost_matrix)


def test_bad_priors_and_empty_confusion():
    with pytest.raises(ValueError, match="priors must be non-negative and sum to 1"):
        ek.expected_cost(M1, MEDICAL_COSTS, priors=[0.5, 0.6])
    with pytest.raises(ValueError, match="priors must hold 2 numbers"):
        ek.expected_cost(M1, MEDICAL_COSTS, priors=[1.0])
    with pytest.raises(ValueError, match="class 1 has a prior > 0 but no sample"):
        ek.expected_cost([[5, 1], [0, 0]], MEDICAL_COSTS, priors=[0.5, 0.5])
    with pytest.raises(ValueError, match="confusion is empty"):
        ek.expected_cost([[0, 0], [0, 0]], MEDICAL_COSTS)


def test_bad_threshold_input():
    with pytest.raises(ValueError, match=r"cost_matrix must be 2x2.*\(negative class, positive"):
        ek.cost_optimal_threshold([0, 1], [0.1, 0.9], np.ones((3, 3)))
    with pytest.raises(ValueError, match="y_score contains NaN at position 0"):
        ek.cost_optimal_threshold([0, 1], [np.nan, 0.9], [[0, 1], [1, 0]])
    with pytest.raises(ValueError, match=r"y_true and y_score have different lengths"):
        ek.cost_optimal_threshold([0, 1, 1], [0.1, 0.9], [[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="pos_label=1 is not one of the labels"):
        ek.cost_optimal_threshold(["a", "b"], [0.1, 0.9], [[0, 1], [1, 0]])


# ---------------------------------------------------------------------------------------------
# normalized_expected_cost: Drummond & Holte's cost lines
# ---------------------------------------------------------------------------------------------


def test_normalized_expected_cost_by_hand():
    from evalkit.costs import normalized_expected_cost

    # Three operating points: always negative (0, 0), a threshold (0.1, 0.7), always positive.
    fpr, tpr = [0.0, 0.1, 1.0], [0.0, 0.7, 1.0]
    # NEC(PC) = (1 - TPR) PC + FPR (1 - PC), written out for PC = 0, 0.25, 0.5, 1:
    expected = np.array([
        [0.0, 0.25, 0.5, 1.0],                                  # NEC = PC
        [0.1, 0.3 * 0.25 + 0.1 * 0.75, 0.3 * 0.5 + 0.1 * 0.5, 0.3],  # 0.1, 0.15, 0.2, 0.3
        [1.0, 0.75, 0.5, 0.0],                                  # NEC = 1 - PC
    ])
    got = normalized_expected_cost(fpr, tpr, [0.0, 0.25, 0.5, 1.0])
    np.testing.assert_allclose(got, expected)
    np.testing.assert_allclose(got.min(axis=0), [0.0, 0.15, 0.2, 0.0])
    # One condition gives one cost per operating point.
    np.testing.assert_allclose(normalized_expected_cost(fpr, tpr, 0.5), [0.5, 0.2, 0.5])


def test_normalized_expected_cost_times_the_normaliser_is_the_expected_cost(rng):
    from evalkit.costs import normalized_expected_cost

    # Drummond & Holte: E[cost] = NEC * (pi (C_FN - C_TP) + (1 - pi) (C_FP - C_TN))
    #                             + pi C_TP + (1 - pi) C_TN, checked against expected_cost.
    y_true = rng.integers(0, 2, 300)
    y_score = rng.random(300) + 0.4 * y_true
    fpr, tpr, thresholds = ek.roc_curve(y_true, y_score)
    cost_matrix = np.array([[0.5, 2.0], [7.0, -1.0]])  # [[C_TN, C_FP], [C_FN, C_TP]]
    (c_tn, c_fp), (c_fn, c_tp) = cost_matrix
    prior = 0.3
    scale = prior * (c_fn - c_tp) + (1 - prior) * (c_fp - c_tn)
    pc = prior * (c_fn - c_tp) / scale
    nec = normalized_expected_cost(fpr, tpr, pc)
    for i, threshold in enumerate(thresholds):
        predicted = (y_score >= threshold).astype(int)
        confusion = ek.confusion_matrix(y_true, predicted, labels=[0, 1])
        expected = ek.expected_cost(confusion, cost_matrix, priors=[1 - prior, prior])
        assert nec[i] * scale + prior * c_tp + (1 - prior) * c_tn == pytest.approx(expected)


def test_normalized_expected_cost_bad_input():
    from evalkit.costs import normalized_expected_cost

    with pytest.raises(ValueError, match="fpr and tpr have different lengths"):
        normalized_expected_cost([0, 1], [0, 0.5, 1], 0.5)
    with pytest.raises(ValueError, match="tpr must hold rates between 0 and 1"):
        normalized_expected_cost([0, 1], [0, 1.5], 0.5)
    with pytest.raises(ValueError, match="fpr contains NaN at position 0"):
        normalized_expected_cost([np.nan, 1], [0, 1], 0.5)
    for bad in (1.2, -0.1, np.nan):
        with pytest.raises(ValueError, match=r"probability_cost must be a real number in "
                                             r"\[0, 1\]; got"):
            normalized_expected_cost([0, 1], [0, 1], bad)
    for bad in ("half", True, None):
        with pytest.raises(TypeError, match=r"probability_cost must be a real number in "
                                            r"\[0, 1\]; got"):
            normalized_expected_cost([0, 1], [0, 1], bad)
    with pytest.raises(ValueError, match=r"probability_cost must hold probabilities between 0 "
                                         r"and 1; probability_cost\[1\] is 2.0"):
        normalized_expected_cost([0, 1], [0, 1], [0.5, 2.0])
    with pytest.raises(ValueError, match=r"probability_cost must be 1-D"):
        normalized_expected_cost([0, 1], [0, 1], [[0.5, 0.2]])
    assert normalized_expected_cost([0.0, 1.0], [0.0, 1.0], np.float64(0.25)).tolist() == [
        0.25, 0.75]


def test_threshold_cost_is_a_named_result_like_the_others():
    import pickle

    result = ek.cost_optimal_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [[0, 1], [5, 0]])
    threshold, cost = result
    assert (threshold, cost) == (result.threshold, result.cost) == (0.35, 1.0)
    assert result[0] == 0.35 and len(result) == 2
    assert result._asdict() == {"threshold": 0.35, "cost": 1.0}
    assert repr(result) == "ThresholdCost(threshold=0.35, cost=1.0)"
    assert type(result).__module__ == "evalkit.costs"
    assert pickle.loads(pickle.dumps(result)) == result
    with pytest.raises(AttributeError, match="read-only"):
        result.cost = 0.0
    assert type(result) is ek.costs.ThresholdCost
