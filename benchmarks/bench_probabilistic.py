"""Probabilistic metrics: how close evalkit comes to the cost of reading y_proba once.

cF1 needs every probability once, so its floor is one pass over ``y_proba``. The first table
times ``c_f1(..., average="macro")`` (validation included: NaN, negative values, rows summing
to 1) against that floor, ``y_proba.sum(axis=0)``, and against the textbook numpy route (a
one-hot matrix product building the whole probabilistic confusion matrix). The goal of issue
12 is at most 6x the floor on 10^6 samples x 20 classes with integer labels.
The second table times the Brier score against scikit-learn's ``brier_score_loss``.

Run with `make bench` or `python benchmarks/bench_probabilistic.py`
(EVALKIT_BENCH_QUICK=1 for a smaller run).
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.metrics import brier_score_loss

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_time, count, print_table, record_sizes  # noqa: E402

import evalkit as ek  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
SIZES = [10**5] if QUICK else [10**5, 10**6]


def make_data(n: int, k: int, strings: bool, seed: int = 0):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.full(k, 0.5), size=n)
    codes = rng.integers(0, k, n)
    if strings:
        return np.array([f"class-{j:02d}" for j in range(k)])[codes], proba
    return codes, proba


def textbook_c_f1(y_true: np.ndarray, proba: np.ndarray) -> float:
    """The paper's route in plain numpy: one-hot truth, the whole pCM, then macro cF1."""
    classes, codes = np.unique(y_true, return_inverse=True)
    matrix = np.eye(len(classes))[codes].T @ proba
    tp = np.diag(matrix)
    precision = tp / matrix.sum(axis=0)
    recall = tp / matrix.sum(axis=1)
    return float(np.mean(2 * precision * recall / (precision + recall)))


def main() -> None:
    sizes = " and ".join(map(count, SIZES))
    record_sizes({
        "c_f1": f"{sizes} samples x 20 classes (integer and string labels) and x 2 classes",
        "Brier score": f"{sizes} samples x 2 and 20 classes",
    })
    rows = []
    for n in SIZES:
        for k, strings in ((20, False), (20, True), (2, False)):
            y_true, proba = make_data(n, k, strings)
            floor = best_time(lambda p=proba: p.sum(axis=0), repeats=9)
            mine = best_time(ek.c_f1, y_true, proba, average="macro", repeats=7)
            textbook = best_time(textbook_c_f1, y_true, proba, repeats=5)
            assert np.isclose(ek.c_f1(y_true, proba, average="macro"),
                              textbook_c_f1(y_true, proba))
            rows.append([f"{n:.0e}", str(k), "str" if strings else "int",
                         f"{floor * 1e3:.1f}", f"{mine * 1e3:.1f}", f"{mine / floor:.1f}x",
                         f"{textbook * 1e3:.1f}", f"{textbook / mine:.1f}x"])
    print_table(["samples", "classes", "labels", "y_proba.sum ms", "evalkit ms",
                 "evalkit / pass", "one-hot pCM ms", "pCM / evalkit"], rows,
                title="c_f1(average='macro') against one pass over y_proba (goal: <= 6x the pass)")

    rows = []
    for n in SIZES:
        for k in (2, 20):
            y_true, proba = make_data(n, k, strings=False, seed=1)
            labels = list(range(k))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = best_time(brier_score_loss, y_true, proba, labels=labels,
                                   scale_by_half=False, repeats=5)
            mine = best_time(ek.brier_score, y_true, proba, repeats=7)
            rows.append([f"{n:.0e}", str(k), f"{theirs * 1e3:.1f}", f"{mine * 1e3:.1f}",
                         f"{theirs / mine:.1f}x"])
    print()
    print_table(["samples", "classes", "scikit-learn ms", "evalkit ms", "ratio"], rows,
                title="Brier score against scikit-learn (ratio: scikit-learn time / evalkit time)")


if __name__ == "__main__":
    main()
