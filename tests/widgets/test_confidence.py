"""ConfidenceExplorer and its model: counts against probabilities on small test sets."""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit.widgets import ConfidenceExplorer, ConfidenceModel

from .helpers import cells, grid_rows


@pytest.fixture
def pool():
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(120, 4)) * 2
    y_true = np.argmax(logits + rng.normal(size=(120, 4)), axis=1)
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return y_true, proba


def test_the_table_is_the_public_functions_on_the_first_items(pool):
    y_true, proba = pool
    model = ConfidenceModel(y_true, proba, n_samples=60)
    table = model.table()
    y, p = y_true[:60], proba[:60]
    np.testing.assert_allclose(table["c_precision"], ek.c_precision(y, p, average=None))
    np.testing.assert_allclose(table["c_f1"], ek.c_f1(y, p, average=None))
    np.testing.assert_allclose(table["f1"], ek.f1_score(y, p.argmax(axis=1), average=None))
    np.testing.assert_allclose(model.matrix(), ek.probabilistic_confusion_matrix(y, p))
    # by hand: cPrecision = cTP / column mass, cRecall = cTP / class count
    matrix = model.matrix().to_numpy()
    np.testing.assert_allclose(table["c_precision"], np.diag(matrix) / matrix.sum(axis=0))
    np.testing.assert_allclose(table["c_recall"], np.diag(matrix) / np.bincount(y))


def test_undefined_values_on_a_tiny_test_set_by_hand():
    # Two items of classes 0 and 1; class 2 is neither present nor predicted, but gets mass.
    model = ConfidenceModel([0, 1, 2], [[0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.1, 0.1, 0.8]],
                            n_samples=2)
    s = model.summary()
    assert s["classes_absent"] == 1
    assert (s["undefined_precision"], s["undefined_recall"], s["undefined_f1"]) == (1, 1, 1)
    assert (s["undefined_c_precision"], s["undefined_c_recall"], s["undefined_c_f1"]) == (0, 1, 0)
    assert s["undefined_c_f1_harmonic"] == 1  # cR of class 2 is 0/0, so is 2cPcR/(cP+cR)
    table = model.table()
    assert table.loc[2, "c_precision"] == 0.0 and table.loc[2, "c_f1"] == 0.0  # 2·0/(0+0.2+0)
    # F1 is undefined for the absent class, so the macro mean runs over classes 0 and 1
    assert s["f1_macro"] == 1.0
    assert s["c_f1_macro"] == pytest.approx(np.mean([2 * 0.6 / (1.2 + 0.2 + 0.4),
                                                     2 * 0.7 / (1.4 + 0.3 + 0.3), 0.0]))


def test_temperature_moves_the_c_metrics_and_not_the_counts(pool):
    y_true, proba = pool
    model = ConfidenceModel(y_true, proba, n_samples=80)
    before = model.table()
    after = model.set(temperature=0.3).table()
    for name in ("precision", "recall", "f1"):
        np.testing.assert_array_equal(before[name], after[name])
    assert (after["c_f1"] > before["c_f1"]).all()
    cold = model.set(temperature=0.1).summary()
    assert cold["c_f1_macro"] == pytest.approx(cold["f1_macro"], abs=0.05)  # towards one-hot


def test_the_view_shows_the_model_and_follows_its_sliders(pool):
    y_true, proba = pool
    explorer = ConfidenceExplorer(ConfidenceModel(y_true, proba, n_samples=5), plot=False)
    before = cells(explorer.summary.value)
    explorer.controls["n_samples"].value = 100
    assert explorer.model.n_samples == 100
    after = cells(explorer.summary.value)
    assert after != before
    assert after["classes not in the test set"] == "0"
    rows = grid_rows(explorer.summary.value)
    table = explorer.model.table()
    assert rows["0"][0] == str(int(table.loc[0, "support"]))
    assert rows["0"][-1] == f"{table.loc[0, 'c_f1']:.3f}"
    explorer.controls["temperature"].value = 0.5
    assert explorer.model.temperature == 0.5


def test_the_view_draws_the_probabilistic_confusion_matrix(pool):
    y_true, proba = pool
    explorer = ConfidenceExplorer(ConfidenceModel(y_true, proba, n_samples=30), plot=True)
    figure = explorer.draw()
    np.testing.assert_allclose(figure.axes[0].images[0].get_array(), explorer.model.matrix())


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="y_proba"):
        ConfidenceModel([0, 1], [[0.5, 0.6], [0.5, 0.5]])
    with pytest.raises(ValueError, match="n_samples must be"):
        ConfidenceModel([0, 1], [[0.5, 0.5], [0.5, 0.5]], n_samples=3)
