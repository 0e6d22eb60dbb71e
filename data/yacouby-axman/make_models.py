"""Train the 100 random models of notebook 24 (Yacouby & Axman 2020, experiment D) and save
their test-set probabilities to ``random_models.npz``.

The paper drew 100 Sep-CNN models on SNLI with random hyper-parameters (its Table 2). SNLI is
not available offline, so notebooks 23 and 24 use scikit-learn's handwritten digits instead,
and the models here are small multi-layer perceptrons (scikit-learn's ``MLPClassifier``) with random
hyper-parameters in the same spirit: one or two hidden layers, their width, the L2 penalty
(in place of dropout), the learning rate and the number of epochs. No two models share their
hyper-parameters. Training all 100 takes about 15 seconds, which is why the notebook loads the
result instead of training them itself.

Run from the repository root to rebuild the file (the result is deterministic for a given
scikit-learn version)::

    .venv/bin/python data/yacouby-axman/make_models.py
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier
from threadpoolctl import threadpool_limits

N_MODELS = 100
TEST_SIZE = 0.6  # the same split as notebooks 23 and 24
SPLIT_SEED = 0
OUT = Path(__file__).with_name("random_models.npz")

WIDTHS = (16, 32, 64, 128, 256)
ALPHAS = (1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0)
LEARNING_RATES = (3e-4, 1e-3, 3e-3, 1e-2)
EPOCHS = (10, 20, 50, 100, 200)


def split():
    """The digits split of notebooks 23 and 24: 40% to train, 60% to test, stratified."""
    X, y = load_digits(return_X_y=True)
    return train_test_split(X / 16.0, y, test_size=TEST_SIZE, random_state=SPLIT_SEED,
                            stratify=y)


def draw_hyperparameters(rng: np.random.Generator, n: int) -> list[tuple]:
    """``n`` distinct hyper-parameter settings, drawn uniformly from the grids above."""
    seen: set[tuple] = set()
    settings = []
    while len(settings) < n:
        layers = int(rng.integers(1, 3))
        setting = (
            tuple(int(rng.choice(WIDTHS)) for _ in range(layers)),
            float(rng.choice(ALPHAS)),
            float(rng.choice(LEARNING_RATES)),
            int(rng.choice(EPOCHS)),
        )
        if setting not in seen:
            seen.add(setting)
            settings.append(setting)
    return settings


def main() -> None:
    X_train, X_test, y_train, y_test = split()
    settings = draw_hyperparameters(np.random.default_rng(2020), N_MODELS)
    proba = np.empty((N_MODELS, len(y_test), 10))
    start = time.perf_counter()
    # One BLAS thread: these matrices are small, and several threads only wait on each other
    # (ten times slower on a busy two-core machine).
    with warnings.catch_warnings(), threadpool_limits(1):
        warnings.simplefilter("ignore", ConvergenceWarning)
        for i, (hidden, alpha, rate, epochs) in enumerate(settings):
            model = MLPClassifier(hidden, alpha=alpha, learning_rate_init=rate,
                                  max_iter=epochs, random_state=i)
            proba[i] = model.fit(X_train, y_train).predict_proba(X_test)
    # Four decimals are plenty for the metrics and keep the file small; rows are renormalised
    # on loading (notebook 24), so they sum to 1 again.
    np.savez_compressed(
        OUT,
        proba=np.round(proba * 10_000).astype(np.uint16),
        y_test=y_test.astype(np.int8),
        hidden=np.array([str(h) for h, *_ in settings]),
        alpha=np.array([s[1] for s in settings]),
        learning_rate=np.array([s[2] for s in settings]),
        epochs=np.array([s[3] for s in settings]),
    )
    print(f"{N_MODELS} models in {time.perf_counter() - start:.0f} s -> {OUT} "
          f"({OUT.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
