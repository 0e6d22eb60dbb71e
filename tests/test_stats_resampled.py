"""resampled_class_scores: per-class P, R, F1 and cP, cR, cF1 on weighted resamples.

Oracles: scikit-learn's precision_recall_fscore_support with each resample as
``sample_weight`` (thresholded metrics), and the same on the "soft" expansion of the data
(item i becomes K rows, predicted class j with weight w_i * p_ij), which is exactly
cPrecision, cRecall and cF1; evalkit's own c_f1 on repeated items for whole weights.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import precision_recall_fscore_support

import evalkit as ek

N_RANDOM = 300  # random cases per oracle test


def _random_case(rng):
    n, k = int(rng.integers(2, 40)), int(rng.integers(2, 6))
    y_true = rng.integers(0, k, n)
    proba = rng.dirichlet(np.full(k, rng.choice([0.3, 1.0, 5.0])), n)
    if rng.random() < 0.3:  # exact ties in the argmax: the first column wins
        proba[: n // 2] = 1.0 / k
    kind = rng.integers(3)
    if kind == 0:
        weights = rng.multinomial(n, np.full(n, 1 / n), size=4).astype(float)
    elif kind == 1:
        weights = rng.integers(0, 2, size=(4, n)).astype(float)
    else:
        weights = rng.random((4, n)) * 3
    return y_true, proba, weights, k


def _sklearn(y_true, y_pred, weight, k):
    with np.errstate(all="ignore"):
        return precision_recall_fscore_support(
            y_true, y_pred, labels=np.arange(k), sample_weight=weight, zero_division=np.nan)[:3]


def test_thresholded_metrics_agree_with_scikit_learn_sample_weight():
    rng = np.random.default_rng(0)
    agreed = 0
    for _ in range(N_RANDOM):
        y_true, proba, weights, k = _random_case(rng)
        result = ek.resampled_class_scores(y_true, proba, weights, labels=np.arange(k))
        for r, weight in enumerate(weights):
            if weight.sum() == 0:  # scikit-learn refuses all-zero weights
                continue
            p, rec, f = _sklearn(y_true, proba.argmax(axis=1), weight, k)
            np.testing.assert_allclose(result.precision[r], p, equal_nan=True, atol=1e-12)
            np.testing.assert_allclose(result.recall[r], rec, equal_nan=True, atol=1e-12)
            # scikit-learn's F1 of a class with TP = 0 but something to count is 0, as ours;
            # it is NaN only where both precision and recall are undefined
            both_undefined = np.isnan(p) & np.isnan(rec)
            np.testing.assert_allclose(result.f1[r][~both_undefined], f[~both_undefined],
                                       atol=1e-12)
            agreed += 1
    assert agreed > 3.9 * N_RANDOM


def test_probabilistic_metrics_agree_with_scikit_learn_on_the_soft_expansion():
    rng = np.random.default_rng(1)
    for _ in range(N_RANDOM):
        y_true, proba, weights, k = _random_case(rng)
        result = ek.resampled_class_scores(y_true, proba, weights, labels=np.arange(k))
        n = len(y_true)
        soft_true, soft_pred = np.repeat(y_true, k), np.tile(np.arange(k), n)
        for r, weight in enumerate(weights):
            if weight.sum() == 0:
                continue
            p, rec, f = _sklearn(soft_true, soft_pred, np.repeat(weight, k) * proba.ravel(), k)
            np.testing.assert_allclose(result.c_precision[r], p, equal_nan=True, atol=1e-10)
            np.testing.assert_allclose(result.c_recall[r], rec, equal_nan=True, atol=1e-10)
            defined = ~np.isnan(result.c_f1[r])
            np.testing.assert_allclose(result.c_f1[r][defined], f[defined], atol=1e-10)


def test_whole_weights_equal_evalkit_metrics_on_repeated_items():
    rng = np.random.default_rng(2)
    for _ in range(100):
        y_true, proba, weights, k = _random_case(rng)
        weights = np.round(weights)
        result = ek.resampled_class_scores(y_true, proba, weights, labels=np.arange(k))
        for r, weight in enumerate(weights):
            items = np.repeat(np.arange(len(y_true)), weight.astype(int))
            if len(items) == 0:
                continue
            kw = {"average": None, "labels": np.arange(k), "zero_division": np.nan}
            np.testing.assert_allclose(result.c_f1[r], ek.c_f1(y_true[items], proba[items], **kw),
                                       equal_nan=True, atol=1e-10)
            np.testing.assert_allclose(
                result.c_precision[r], ek.c_precision(y_true[items], proba[items], **kw),
                equal_nan=True, atol=1e-10)


def test_hand_computed_values():
    y_true = [0, 0, 1, 1]
    proba = [[0.9, 0.1], [0.4, 0.6], [0.2, 0.8], [0.3, 0.7]]
    result = ek.resampled_class_scores(y_true, proba, [[1, 1, 1, 1], [2, 0, 1, 1]])
    # all items: predictions 0, 1, 1, 1; class 0: TP 1, predicted 1, support 2
    np.testing.assert_allclose(result.precision[0], [1.0, 2 / 3])
    np.testing.assert_allclose(result.recall[0], [0.5, 1.0])
    np.testing.assert_allclose(result.f1[0], [2 / 3, 0.8])
    # cTP of class 0: 0.9 + 0.4 = 1.3, predicted mass 1.8; class 1: 1.5 of 2.2
    np.testing.assert_allclose(result.c_precision[0], [1.3 / 1.8, 1.5 / 2.2])
    np.testing.assert_allclose(result.c_f1[0], [2.6 / 3.8, 3.0 / 4.2])
    # item 1 twice, item 2 not: cTP of class 0 = 1.8, mass 2.3
    np.testing.assert_allclose(result.c_f1[1, 0], 3.6 / 4.3)
    np.testing.assert_array_equal(result.tp[1], [2, 2])
    np.testing.assert_array_equal(result.support[1], [2, 2])


def test_zero_over_zero_is_nan_and_one_resample_drops_the_axis():
    result = ek.resampled_class_scores([0, 1, 2], np.eye(3), [1, 1, 0])
    assert result.f1.shape == (3,)
    np.testing.assert_allclose(result.f1[:2], [1.0, 1.0])
    assert np.isnan(result.f1[2]) and np.isnan(result.c_precision[2])
    assert np.isnan(result.recall[2])


def test_a_stack_of_models_equals_each_model_alone():
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 4, 30)
    stack = rng.dirichlet(np.ones(4), size=(5, 30))
    weights = rng.multinomial(30, np.full(30, 1 / 30), size=7)
    together = ek.resampled_class_scores(y_true, stack, weights, labels=range(4))
    assert together.f1.shape == (7, 5, 4) and together.support.shape == (7, 1, 4)
    for m in range(5):
        alone = ek.resampled_class_scores(y_true, stack[m], weights, labels=range(4))
        for name in ek.stats.RESAMPLED_METRICS:
            np.testing.assert_array_equal(getattr(together, name)[:, m], getattr(alone, name))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.1, 10.0))
def test_scaling_every_weight_leaves_the_ratios_unchanged(seed, factor):
    rng = np.random.default_rng(seed)
    y_true, proba, weights, k = _random_case(rng)
    base = ek.resampled_class_scores(y_true, proba, weights, labels=np.arange(k))
    scaled = ek.resampled_class_scores(y_true, proba, weights * factor, labels=np.arange(k))
    for name in ek.stats.RESAMPLED_METRICS:
        np.testing.assert_allclose(getattr(scaled, name), getattr(base, name), rtol=1e-9,
                                   equal_nan=True)
        values = getattr(base, name)
        assert np.all(np.isnan(values) | ((values >= -1e-12) & (values <= 1 + 1e-12)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_one_hot_probabilities_make_the_c_metrics_the_thresholded_ones(seed):
    rng = np.random.default_rng(seed)
    y_true, proba, weights, k = _random_case(rng)
    one_hot = np.eye(k)[proba.argmax(axis=1)]
    result = ek.resampled_class_scores(y_true, one_hot, weights, labels=np.arange(k))
    for plain in ("precision", "recall", "f1"):
        np.testing.assert_allclose(getattr(result, f"c_{plain}"), getattr(result, plain),
                                   equal_nan=True)


@pytest.mark.parametrize("weights, match", [
    ([[1, 1, -1]], "resample_weights"), ([[1, np.nan, 1]], "resample_weights"),
    ([[1, 1]], "resample_weights"),
    (np.ones((2, 2, 3)), "resample_weights"),
])
def test_bad_weights_raise_value_error_naming_resample_weights(weights, match):
    with pytest.raises(ValueError, match=match):
        ek.resampled_class_scores([0, 1, 1], np.eye(2)[[0, 1, 1]], weights)


def test_bad_probabilities_and_labels_raise_value_error():
    with pytest.raises(ValueError, match="y_proba"):
        ek.resampled_class_scores([0, 1], [[0.5, 0.6], [0.5, 0.5]], [1, 1])
    with pytest.raises(ValueError, match="labels"):
        ek.resampled_class_scores([0, 0], [[0.5, 0.5], [0.5, 0.5]], [1, 1])
    with pytest.raises(ValueError, match="y_true"):
        ek.resampled_class_scores([0, 1, 1], [[0.5, 0.5], [0.5, 0.5]], [1, 1])
    with pytest.raises(TypeError):
        ek.resampled_class_scores([0, 1], np.eye(2), [1, 1], range(2))

