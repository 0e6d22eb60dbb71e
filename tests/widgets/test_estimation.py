"""EstimationExplorer, its model and the simulation behind it: holdout and k-fold estimates
against the accuracy on the untouched rest, checked against scikit-learn."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from evalkit import available_sample, simulate_estimates
from evalkit.widgets import EstimationExplorer, EstimationModel

from .helpers import grid_rows

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.datasets import load_iris  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    KFold,
    LeaveOneOut,
    cross_val_score,
    train_test_split,
)
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402

N_AVAILABLE, N_REPEATS, SEED = 30, 3, 7


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.fixture(scope="module")
def small_table(iris):
    X, y = iris
    return simulate_estimates(GaussianNB(), X, y, n_available=N_AVAILABLE,
                              n_repeats=N_REPEATS, k_values=(2, 5, 10),
                              test_fractions=(0.2, 1 / 3, 0.5), seed=SEED)


def _rows(table, method, parameter=None):
    rows = table[table["method"] == method]
    if parameter is not None:
        rows = rows[np.isclose(rows["parameter"], parameter)]
    return rows.sort_values("repeat")["estimate"].to_numpy()


def _redraw(n_total, repeat):
    # The recipe of available_sample's docstring, written out independently.
    rng = np.random.default_rng([SEED, N_AVAILABLE, repeat])
    order = rng.permutation(n_total)
    return np.sort(order[:N_AVAILABLE]), np.sort(order[N_AVAILABLE:]), int(
        rng.integers(2**31 - 1))


def test_available_sample_follows_its_documented_recipe(iris):
    _, y = iris
    for repeat in range(N_REPEATS):
        available, rest, split_seed = available_sample(len(y), N_AVAILABLE, seed=SEED,
                                                       repeat=repeat)
        expected = _redraw(len(y), repeat)
        np.testing.assert_array_equal(available, expected[0])
        np.testing.assert_array_equal(rest, expected[1])
        assert split_seed == expected[2]
        assert len(set(available) | set(rest)) == len(y) and not set(available) & set(rest)
    first = available_sample(len(y), N_AVAILABLE, seed=SEED, repeat=0)[0]
    second = available_sample(len(y), N_AVAILABLE, seed=SEED, repeat=1)[0]
    assert not np.array_equal(first, second)


def test_estimates_agree_with_cross_val_score_and_train_test_split(iris, small_table):
    X, y = iris
    for repeat in range(N_REPEATS):
        available, rest, split_seed = _redraw(len(y), repeat)
        Xa, ya = X[available], y[available]
        rows = small_table[small_table["repeat"] == repeat]
        truth = GaussianNB().fit(Xa, ya).score(X[rest], y[rest])
        assert rows[rows["method"] == "truth"]["estimate"].item() == pytest.approx(truth)
        for k in (2, 5, 10):
            expected = cross_val_score(GaussianNB(), Xa, ya,
                                       cv=KFold(k, shuffle=True, random_state=split_seed))
            assert _rows(rows, "k-fold", k).item() == pytest.approx(expected.mean())
        loo = cross_val_score(GaussianNB(), Xa, ya, cv=LeaveOneOut()).mean()
        assert _rows(rows, "leave-one-out").item() == pytest.approx(loo)
        for fraction in (0.2, 1 / 3, 0.5):
            X_train, X_test, y_train, y_test = train_test_split(
                Xa, ya, test_size=fraction, random_state=split_seed)
            expected = GaussianNB().fit(X_train, y_train).score(X_test, y_test)
            assert _rows(rows, "holdout", fraction).item() == pytest.approx(expected)


def test_the_table_has_one_row_per_sample_method_and_setting(small_table):
    assert list(small_table.columns) == ["n_available", "repeat", "method", "parameter",
                                         "estimate"]
    counts = small_table.groupby(["method", "parameter"], dropna=False).size()
    assert set(counts) == {N_REPEATS}
    assert len(counts) == 1 + 3 + 3 + 1
    assert small_table["estimate"].between(0, 1).all()


def test_leave_one_out_is_k_fold_with_k_equal_to_n(iris):
    X, y = iris
    table = simulate_estimates(KNeighborsClassifier(3), X, y, n_available=12, n_repeats=2,
                               k_values=(12,), test_fractions=(0.5,), seed=1)
    np.testing.assert_allclose(_rows(table, "k-fold", 12), _rows(table, "leave-one-out"))


def _by_hand(table, n_available, method, parameter=None):
    """Bias, SD and RMSE of one method computed straight from the table with pandas."""
    sized = table[table["n_available"] == n_available]
    truth = sized[sized["method"] == "truth"].set_index("repeat")["estimate"]
    rows = sized[sized["method"] == method]
    if parameter is not None:
        rows = rows[np.isclose(rows["parameter"], parameter)]
    estimate = rows.set_index("repeat")["estimate"]
    error = estimate - truth.loc[estimate.index]
    return estimate.mean(), error.mean(), error.std(ddof=1), math.sqrt((error**2).mean())


def test_summary_matches_a_computation_from_the_table(small_table):
    model = EstimationModel(small_table, k=5, test_fraction=0.2)
    s = model.summary()
    assert (s["n_available"], s["n_repeats"], s["k"]) == (N_AVAILABLE, N_REPEATS, 5)
    for prefix, method, parameter in [("holdout", "holdout", 0.2), ("kfold", "k-fold", 5),
                                      ("loo", "leave-one-out", None)]:
        mean, bias, sd, rmse = _by_hand(small_table, N_AVAILABLE, method, parameter)
        assert s[f"{prefix}_mean"] == pytest.approx(mean)
        assert s[f"{prefix}_bias"] == pytest.approx(bias)
        assert s[f"{prefix}_sd"] == pytest.approx(sd)
        assert s[f"{prefix}_rmse"] == pytest.approx(rmse)
    truth = _rows(small_table, "truth")
    assert s["truth_mean"] == pytest.approx(truth.mean())
    # train_test_split tests ceil(f n) items; k-fold trains on n (k - 1) / k on average.
    assert (s["n_test_holdout"], s["n_train_holdout"], s["n_train_kfold"]) == (6, 24, 24.0)
    assert model.set(test_fraction=1 / 3).summary()["n_test_holdout"] == 10


def test_table_lists_every_setting(small_table):
    model = EstimationModel(small_table)
    table = model.table()
    assert list(table["method"]) == ["holdout"] * 3 + ["k-fold"] * 3 + ["leave-one-out"]
    np.testing.assert_allclose(table["n_train"], [24, 20, 15, 15, 24, 27, 29])
    row = table[(table["method"] == "k-fold") & (table["parameter"] == 10)].iloc[0]
    assert row["rmse"] == pytest.approx(_by_hand(small_table, N_AVAILABLE, "k-fold", 10)[3])
    np.testing.assert_allclose(model.errors("k-fold", 2),
                               _rows(small_table, "k-fold", 2) - _rows(small_table, "truth"))


def test_the_explorer_responds_to_every_control(small_table):
    explorer = EstimationExplorer(EstimationModel(small_table), plot=False)
    before = explorer.summary.value
    explorer.controls["k"].value = 2
    assert explorer.model.k == 2
    shown = grid_rows(explorer.summary.value)
    s = explorer.model.summary()
    assert shown["2-fold"] == ["15.0", f"{s['kfold_mean']:.3f}", f"{s['kfold_bias']:+.3f}",
                               f"{s['kfold_sd']:.3f}", f"{s['kfold_rmse']:.3f}"]
    assert explorer.summary.value != before
    explorer.controls["test_fraction"].value = 0.5
    shown = grid_rows(explorer.summary.value)
    s = explorer.model.summary()
    assert shown["holdout, test 50%"][:2] == ["15", f"{s['holdout_mean']:.3f}"]
    assert shown["truth (the rest)"][1] == f"{s['truth_mean']:.3f}"
    assert "leave-one-out" in shown
    assert "n_available" not in explorer.controls  # one sample size: no slider for it


def test_the_explorer_moves_between_sample_sizes(iris, small_table):
    X, y = iris
    other = simulate_estimates(GaussianNB(), X, y, n_available=60, n_repeats=2,
                               k_values=(2, 5, 10), test_fractions=(0.2, 1 / 3, 0.5),
                               leave_one_out=False, seed=SEED)
    model = EstimationModel(pd.concat([small_table, other]))
    assert model.sizes() == [30, 60] and model.n_available == 30
    explorer = EstimationExplorer(model, plot=False)
    explorer.controls["n_available"].value = 60
    shown = grid_rows(explorer.summary.value)
    assert "leave-one-out" not in shown  # not computed for 60
    assert math.isnan(model.summary()["loo_rmse"])
    assert shown["10-fold"][0] == "54.0"
    assert model.summary()["n_repeats"] == 2


def test_the_explorer_draws_errors_and_rmse_per_setting(small_table):
    explorer = EstimationExplorer(EstimationModel(small_table, k=10))
    figure = explorer.draw()
    left, right = figure.axes
    assert [t.get_text() for t in left.get_yticklabels()] == ["holdout 1/3", "10-fold",
                                                               "leave-one-out"]
    means = [line for line in left.lines if line.get_label() == "mean (bias)"][0]
    s = explorer.model.summary()
    np.testing.assert_allclose(means.get_xdata(), [s["holdout_bias"], s["kfold_bias"],
                                                   s["loo_bias"]])
    kfold = [line for line in right.lines if line.get_label() == "k-fold"][0]
    table = explorer.model.table()
    np.testing.assert_allclose(kfold.get_ydata(), table[table["method"] == "k-fold"]["rmse"])


@pytest.mark.parametrize("change, error, message", [
    ({"k": 7}, ValueError, r"k must be one of the numbers of folds computed for "
                           r"n_available=30 \(2, 5, 10\); got 7"),
    ({"k": 1}, ValueError, "k must be a whole number >= 2; got 1"),
    ({"k": True}, TypeError, "k must be a whole number >= 2; got True"),
    ({"test_fraction": 0.3}, ValueError, r"test_fraction must be one of the fractions "
                                         r"computed for n_available=30 \(0.2, 0.3333, 0.5\)"),
    ({"test_fraction": 1.0}, ValueError, r"test_fraction must be a real number in \(0, 1\)"),
    ({"n_available": 50}, ValueError, r"n_available must be one of the sizes in the "
                                      r"estimates \(30\); got 50"),
    ({"folds": 3}, ValueError, "unknown setting 'folds'; the settings are n_available, k"),
])
def test_bad_settings_are_refused_naming_the_setting(small_table, change, error, message):
    model = EstimationModel(small_table, k=5)
    with pytest.raises(error, match=message):
        model.set(**{"test_fraction": 0.5, **change})
    assert (model.k, model.test_fraction) == (5, pytest.approx(1 / 3))


def test_one_third_is_matched_whatever_its_rounding(small_table):
    written = small_table.assign(parameter=small_table["parameter"].round(10))
    model = EstimationModel(written, test_fraction=1 / 3)
    assert model.test_fraction == round(1 / 3, 10)


@pytest.mark.parametrize("mutate, error, message", [
    (lambda t: t.to_dict(), TypeError, "estimates must be a DataFrame"),
    (lambda t: t.drop(columns="parameter"), ValueError, "estimates lacks the column"),
    (lambda t: t.replace({"method": {"holdout": "hold-out"}}), ValueError,
     r"unknown method\(s\) \['hold-out'\]"),
    (lambda t: t.assign(estimate=t["estimate"].where(t.index != 3, np.nan)), ValueError,
     r"estimates\['estimate'\] must hold accuracies in \[0, 1\]"),
    (lambda t: t[t["method"] != "truth"], ValueError, "has no 'truth' rows"),
    (lambda t: t[~((t["method"] == "truth") & (t["repeat"] == 1))], ValueError,
     "without the truth of their sample"),
    (lambda t: pd.concat([t, t[t["method"] == "truth"]]), ValueError,
     "more than one 'truth' row"),
])
def test_bad_tables_are_refused(small_table, mutate, error, message):
    with pytest.raises(error, match=message):
        EstimationModel(mutate(small_table))


def test_simulate_estimates_checks_its_arguments(iris):
    X, y = iris
    with pytest.raises(TypeError, match="estimator must be a scikit-learn classifier"):
        simulate_estimates("knn", X, y, n_available=20)
    with pytest.raises(ValueError, match=r"X must be a 2-D array"):
        simulate_estimates(GaussianNB(), X[:, 0], y, n_available=20)
    with pytest.raises(ValueError, match=r"X and y have different lengths \(150 != 149\)"):
        simulate_estimates(GaussianNB(), X, y[:-1], n_available=20)
    with pytest.raises(ValueError, match="n_available must be a whole number in"):
        simulate_estimates(GaussianNB(), X, y, n_available=150)
    with pytest.raises(ValueError, match="k_values must be a whole number in"):
        simulate_estimates(GaussianNB(), X, y, n_available=20, k_values=(30,))
    with pytest.raises(ValueError, match="test_fractions must be a real number in"):
        simulate_estimates(GaussianNB(), X, y, n_available=20, test_fractions=(0.99,))
    with pytest.raises(TypeError, match="leave_one_out must be True or False"):
        simulate_estimates(GaussianNB(), X, y, n_available=20, leave_one_out=1)


def test_the_shipped_explorer_table_is_what_its_script_computes():
    from sklearn.datasets import load_digits

    from evalkit.datasets import data_path

    table = pd.read_csv(data_path("estimation", "explorer.csv"))
    model = EstimationModel(table)
    assert model.sizes() == [50, 100, 200] and model.k_values() == [2, 3, 5, 10, 20]
    assert model.summary()["n_repeats"] == 200
    # Repetition 3 of the samples of 50, recomputed: truth, 5-fold and the 1/3 holdout.
    X, y = load_digits(return_X_y=True)
    available, rest, split_seed = available_sample(len(y), 50, seed=0, repeat=3)
    learner = KNeighborsClassifier(n_neighbors=1)
    rows = table[(table["n_available"] == 50) & (table["repeat"] == 3)]
    truth = clone(learner).fit(X[available], y[available]).score(X[rest], y[rest])
    five = cross_val_score(learner, X[available], y[available],
                           cv=KFold(5, shuffle=True, random_state=split_seed)).mean()
    assert _rows(rows, "truth").item() == pytest.approx(truth)
    assert _rows(rows, "k-fold", 5).item() == pytest.approx(five)


def test_a_size_and_a_k_are_checked_together(small_table):
    smaller_grid = small_table[~((small_table["method"] == "k-fold")
                                 & (small_table["parameter"] == 10))]
    table = pd.concat([small_table, smaller_grid.assign(n_available=60)])
    model = EstimationModel(table, k=10)
    with pytest.raises(ValueError, match=r"k must be one of .* n_available=60 \(2, 5\); got 10"):
        model.set(n_available=60)
    assert (model.n_available, model.k) == (30, 10)
    model.set(n_available=60, k=5)
    assert (model.n_available, model.k) == (60, 5)
