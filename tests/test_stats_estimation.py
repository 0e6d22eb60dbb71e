"""The bootstrap estimates of accuracy: ``bootstrap_632`` (out-of-bag, .632 and .632+).

No library computes Efron & Tibshirani's leave-one-out bootstrap the way their paper does
(mlxtend's ``bootstrap_point632_score`` averages a .632 score per resample instead), so the
function is held to a plain loop written from the paper, resample by resample, on many random
data sets and learners; to cases worked by hand; to properties that hold for any data; and to
the study that notebook 21 ships (``data/estimation/estimates.csv``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.dummy import DummyClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import evalkit as ek
from evalkit.datasets import data_path


def loop_632(estimator, X, y, n_resamples, seed):
    """Efron & Tibshirani (1997), sections 3-4, one resample at a time."""
    rng = np.random.default_rng(seed)
    n = len(y)
    resub_pred = clone(estimator).fit(X, y).predict(X)
    resub = np.mean(resub_pred == y)
    correct, times_out = np.zeros(n), np.zeros(n)
    for _ in range(n_resamples):
        drawn = rng.integers(0, n, size=n)
        out = np.setdiff1d(np.arange(n), drawn)
        if len(out):
            model = clone(estimator).fit(X[drawn], y[drawn])
            correct[out] += model.predict(X[out]) == y[out]
            times_out[out] += 1
    seen = times_out > 0
    oob = np.mean(correct[seen] / times_out[seen])
    gamma = sum(np.mean(y == label) * (1 - np.mean(resub_pred == label))
                for label in np.unique(y))
    err, err1 = 1 - resub, 1 - oob
    rate = (min(err1, gamma) - err) / (gamma - err) if err1 > err and gamma > err else 0.0
    w = 0.632 / (1 - 0.368 * rate)
    return {"resubstitution": resub, "out_of_bag": oob,
            "point632": 0.368 * resub + 0.632 * oob,
            "point632_plus": 1 - ((1 - w) * err + w * min(err1, gamma)),
            "no_information_error": gamma, "overfitting_rate": rate, "weight": w}


LEARNERS = [KNeighborsClassifier(1), KNeighborsClassifier(5),
            DecisionTreeClassifier(max_depth=2, random_state=0), GaussianNB(),
            DummyClassifier(strategy="most_frequent")]


@pytest.mark.parametrize("case", range(40))
def test_bootstrap_632_agrees_with_a_loop_written_from_the_paper(case):
    rng = np.random.default_rng(case)
    n, n_classes = int(rng.integers(12, 60)), int(rng.integers(2, 5))
    X = rng.normal(size=(n, 3))
    y = rng.integers(0, n_classes, size=n)
    X[:, 0] += y * rng.uniform(0, 2)  # some signal, different per case
    learner = LEARNERS[case % len(LEARNERS)]
    n_resamples = int(rng.integers(1, 30))
    expected = loop_632(learner, X, y, n_resamples, seed=case)
    result = ek.bootstrap_632(learner, X, y, n_resamples=n_resamples, seed=case)
    for name, value in expected.items():
        assert np.isclose(getattr(result, name), value, rtol=0, atol=1e-12), name
    assert result.n_resamples == n_resamples
    assert tuple(result) == (result.point632, result.point632_plus)


def test_a_constant_predictor_by_hand():
    # Predicting class m = 0 always: resubstitution = out-of-bag = p_m, and the
    # no-information error gamma = sum_l p_l (1 - q_l) = 1 - p_m = err, so R = 0, w = .632 and
    # every estimate is p_m.
    y = np.array([0] * 7 + [1] * 3)
    X = np.arange(10.0)[:, None]
    result = ek.bootstrap_632(DummyClassifier(strategy="constant", constant=0), X, y,
                              n_resamples=200, seed=1)
    assert result.resubstitution == 0.7
    assert np.isclose(result.no_information_error, 0.3)
    assert result.overfitting_rate == 0.0 and result.weight == 0.632
    assert np.isclose(result.out_of_bag, 0.7)
    assert np.isclose(result.point632, 0.7) and np.isclose(result.point632_plus, 0.7)


def test_kohavi_memoriser_on_labels_without_information_by_hand():
    # Kohavi's (1995) example: a memoriser, 1-NN on distinct points, scores 1 on its own data.
    # With resubstitution 1 (err = 0) every formula follows from the out-of-bag accuracy:
    # .632 = 0.368 + 0.632 oob; gamma = sum p_l (1 - p_l) since the predictions are the
    # labels; R = min(1 - oob, gamma) / gamma; w = .632 / (1 - .368 R).
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 2))
    y = rng.integers(0, 2, size=80)
    result = ek.bootstrap_632(KNeighborsClassifier(1), X, y, n_resamples=100, seed=0)
    assert result.resubstitution == 1.0
    p1 = np.mean(y)
    gamma = p1 * (1 - p1) + (1 - p1) * p1
    assert np.isclose(result.no_information_error, gamma)
    err1 = min(1 - result.out_of_bag, gamma)
    rate = err1 / gamma
    w = 0.632 / (1 - 0.368 * rate)
    assert np.isclose(result.overfitting_rate, rate) and np.isclose(result.weight, w)
    assert np.isclose(result.point632, 0.368 + 0.632 * result.out_of_bag)
    assert np.isclose(result.point632_plus, 1 - w * err1)
    # no information: out-of-bag near a half, and .632+ well below .632's optimism
    assert abs(result.out_of_bag - 0.5) < 0.1
    assert result.point632 - result.point632_plus > 0.1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(8, 40), n_resamples=st.integers(1, 15),
       n_classes=st.integers(2, 4))
def test_properties_of_the_estimates(seed, n, n_resamples, n_classes):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = rng.integers(0, n_classes, size=n)
    result = ek.bootstrap_632(KNeighborsClassifier(3), X, y, n_resamples=n_resamples,
                              seed=seed)
    values = [result.resubstitution, result.out_of_bag, result.point632,
              result.point632_plus]
    assert all(0.0 <= value <= 1.0 for value in values)
    assert 0.0 <= result.overfitting_rate <= 1.0
    assert 0.632 - 1e-12 <= result.weight <= 1.0 + 1e-12
    # .632 lies between its two parts; .632+ between the capped out-of-bag and .632
    low, high = sorted([result.resubstitution, result.out_of_bag])
    assert low - 1e-12 <= result.point632 <= high + 1e-12
    capped = 1 - min(1 - result.out_of_bag, result.no_information_error)
    low, high = sorted([capped, result.point632])
    assert low - 1e-12 <= result.point632_plus <= high + 1e-12
    # the same seed gives the same numbers, and a Generator continues its own stream
    again = ek.bootstrap_632(KNeighborsClassifier(3), X, y, n_resamples=n_resamples,
                             seed=np.random.default_rng(seed))
    assert again == result


def test_string_labels_give_the_same_numbers_as_integers():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(30, 2))
    y = rng.integers(0, 3, size=30)
    as_int = ek.bootstrap_632(KNeighborsClassifier(1), X, y, n_resamples=10, seed=2)
    as_str = ek.bootstrap_632(KNeighborsClassifier(1), X, np.array(["a", "b", "c"])[y],
                              n_resamples=10, seed=2)
    assert np.allclose(list(as_int._asdict().values()), list(as_str._asdict().values()))


@pytest.mark.parametrize("dataset,loader", [("digits", load_digits),
                                            ("breast_cancer", load_breast_cancer)])
def test_it_reproduces_the_shipped_study_of_notebook_21(dataset, loader):
    shipped = pd.read_csv(data_path("estimation", "estimates.csv"))
    shipped = shipped[shipped["dataset"] == dataset].set_index(["repeat", "method"])["estimate"]
    X, y = loader(return_X_y=True)
    names = {"resubstitution": "resubstitution", "out_of_bag": "bootstrap out-of-bag",
             "point632": ".632 bootstrap", "point632_plus": ".632+ bootstrap"}
    for repeat in range(3):
        available, _, split_seed = ek.available_sample(len(y), 100, seed=0, repeat=repeat)
        result = ek.bootstrap_632(KNeighborsClassifier(1), X[available], y[available],
                                  n_resamples=50, seed=split_seed)
        for attribute, method in names.items():
            assert np.isclose(getattr(result, attribute), shipped[(repeat, method)],
                              rtol=0, atol=1e-9), (repeat, method)


@pytest.mark.parametrize("kwargs,error,message", [
    ({"n_resamples": 0}, ValueError, "n_resamples"),
    ({"n_resamples": 2.5}, ValueError, "n_resamples"),
    ({"n_resamples": True}, TypeError, "n_resamples"),
    ({"seed": True}, TypeError, "seed"),
    ({"seed": -1}, ValueError, "seed"),
])
def test_bad_options(kwargs, error, message):
    X, y = np.arange(20.0)[:, None], np.arange(20) % 2
    with pytest.raises(error, match=message):
        ek.bootstrap_632(KNeighborsClassifier(1), X, y, **kwargs)


def test_bad_data():
    X, y = np.arange(20.0)[:, None], np.arange(20) % 2
    with pytest.raises(TypeError, match="estimator"):
        ek.bootstrap_632("1-NN", X, y)
    with pytest.raises(ValueError, match="X must be a 2-D"):
        ek.bootstrap_632(KNeighborsClassifier(1), np.arange(20.0), y)
    with pytest.raises(ValueError, match="different lengths"):
        ek.bootstrap_632(KNeighborsClassifier(1), X, y[:-1])
    with pytest.raises(TypeError, match="bootstrap_632"):
        ek.bootstrap_632(KNeighborsClassifier(1), X, y, 10)  # an option by position
