"""evalkit against scikit-learn (and pycm) on the same labels, in one process.

Each row times one metric on one data set: best of several runs, input validation included
(every library is called on the raw arrays, exactly as a user would). The ratio is
reference time / evalkit time, so 20x means evalkit is twenty times faster. The goal (issue
33): binary ROC AUC at least 5x scikit-learn at 10^7 samples, on rounded and on continuous
scores, judged on the worst of several interleaved rounds.

Run with `make bench` (it installs the `bench` extra) or
`python benchmarks/bench_classification.py`. Set EVALKIT_BENCH_QUICK=1 for a smaller run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
from sklearn import metrics as skm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import (  # noqa: E402
    best_time,
    count,
    one_thread,
    print_note,
    print_table,
    ratio_rounds,
    record_goal,
    record_sizes,
)

import evalkit as ek  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
SIZES = [10**5, 10**6] if QUICK else [10**6, 10**7]
PYCM_MAX_SAMPLES = 10**5  # pycm is pure Python: it runs, but only on smaller inputs here
AUC_GOAL = 5.0  # binary ROC AUC at the largest size (10^7): at least 5x scikit-learn (issue 33)
AUC_ROUNDS = 3  # interleaved rounds; the goal takes the worst


def make_labels(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    return y_true, y_pred


def cases(k: int):
    """(name, evalkit call, scikit-learn call) for k classes."""
    yield "confusion_matrix", ek.confusion_matrix, skm.confusion_matrix
    yield "accuracy", ek.accuracy, skm.accuracy_score
    yield ("precision per class", lambda t, p: ek.precision(t, p, average=None),
           lambda t, p: skm.precision_score(t, p, average=None))
    yield ("recall per class", lambda t, p: ek.recall(t, p, average=None),
           lambda t, p: skm.recall_score(t, p, average=None))
    yield ("F1 per class", lambda t, p: ek.f1_score(t, p, average=None),
           lambda t, p: skm.f1_score(t, p, average=None))
    yield ("precision macro", lambda t, p: ek.precision(t, p, average="macro"),
           lambda t, p: skm.precision_score(t, p, average="macro"))
    yield ("recall macro", lambda t, p: ek.recall(t, p, average="macro"),
           lambda t, p: skm.recall_score(t, p, average="macro"))
    yield ("F1 macro", lambda t, p: ek.f1_score(t, p, average="macro"),
           lambda t, p: skm.f1_score(t, p, average="macro"))
    yield ("F1 weighted", lambda t, p: ek.f1_score(t, p, average="weighted"),
           lambda t, p: skm.f1_score(t, p, average="weighted"))
    if k == 2:
        yield "F1 binary", ek.f1_score, skm.f1_score


def main() -> None:
    rows = []
    ratios = []
    datasets = [(n, k, "int") for n in SIZES for k in (2, 20)] + [(SIZES[0], 20, "str")]
    sizes = " and ".join(map(count, SIZES))
    record_sizes({
        "labels": f"{sizes} samples, 2 and 20 classes (integer labels); "
                  f"{count(SIZES[0])} samples, 20 classes (string labels)",
        "threshold curves, binary AUC": f"{sizes} samples, scores rounded to 4 decimals; "
                                        f"the AUC goal also on continuous scores at "
                                        f"{count(SIZES[-1])}",
        "multi-class AUC": f"{count(SIZES[0] // 10)} samples x 10 classes",
        "pycm": f"{count(min(PYCM_MAX_SAMPLES, SIZES[0]))} samples, 2 and 20 classes",
    })
    for n, k, kind in datasets:
        y_true, y_pred = make_labels(n, k)
        if kind == "str":
            names = np.array([f"class-{i:02d}" for i in range(k)])
            y_true, y_pred = names[y_true], names[y_pred]
        repeats = 3 if n >= 10**7 else 5
        for name, ours, theirs in cases(k):
            np.testing.assert_allclose(ours(y_true, y_pred), theirs(y_true, y_pred), rtol=1e-12)
            t_ours = best_time(ours, y_true, y_pred, repeats=repeats)
            t_theirs = best_time(theirs, y_true, y_pred, repeats=repeats)
            ratio = t_theirs / t_ours
            ratios.append(ratio)
            rows.append([name, f"{n:.0e}", k, kind, f"{t_ours * 1e3:.1f}", f"{t_theirs * 1e3:.1f}",
                         f"{ratio:.1f}x"])
    print_table(["metric", "n", "k", "labels", "evalkit", "sklearn", "sklearn/evalkit"], rows,
                title="evalkit vs scikit-learn (times in ms, best of several runs, "
                      "validation included)")
    print()
    print_note(f"slowest ratio {min(ratios):.1f}x, median {np.median(ratios):.1f}x")
    curve_rows()
    pycm_rows(datasets)


def make_scores(n: int, seed: int = 0, decimals: int | None = 4
                ) -> tuple[np.ndarray, np.ndarray]:
    """Binary labels and scores of a fair classifier, rounded so that ties occur (or not)."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, n)
    y_score = rng.normal(size=n) + 1.2 * y_true
    return y_true, (y_score if decimals is None else np.round(y_score, decimals))


def curve_rows() -> None:
    """Threshold curves and AUC: binary, then multi-class (one-vs-rest and Hand & Till)."""
    rows, ratios = [], []
    auc_cases = [
        ("ROC AUC (binary)", ek.roc_auc, skm.roc_auc_score),
        ("roc_curve", ek.roc_curve, skm.roc_curve),
        ("precision_recall_curve", ek.precision_recall_curve, skm.precision_recall_curve),
    ]
    for n in SIZES:
        y_true, y_score = make_scores(n)
        for name, ours, theirs in auc_cases:
            mine, reference = ours(y_true, y_score), theirs(y_true, y_score)
            if isinstance(mine, tuple):  # a curve: compare every array
                for a, b in zip(mine, reference, strict=True):
                    np.testing.assert_allclose(a, b, rtol=1e-12)
            else:
                np.testing.assert_allclose(mine, reference, rtol=1e-12)
            t_ours = best_time(ours, y_true, y_score, repeats=3)
            t_theirs = best_time(theirs, y_true, y_score, repeats=3)
            if name.startswith("ROC AUC"):
                ratios.append(t_theirs / t_ours)
            rows.append([name, f"{n:.0e}", 2, f"{t_ours * 1e3:.1f}", f"{t_theirs * 1e3:.1f}",
                         f"{t_theirs / t_ours:.1f}x"])
    n, k = SIZES[0] // 10, 10
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, k, n)
    y_score = rng.dirichlet(np.ones(k), n) + np.eye(k)[y_true]
    y_score /= y_score.sum(axis=1, keepdims=True)
    for ours_name, theirs_name in (("ovr", "ovr"), ("hand_till", "ovo")):
        def ours(t, s, m=ours_name):
            return ek.roc_auc(t, s, multi_class=m)

        def theirs(t, s, m=theirs_name):
            return skm.roc_auc_score(t, s, multi_class=m)

        np.testing.assert_allclose(ours(y_true, y_score), theirs(y_true, y_score), rtol=1e-12)
        t_ours = best_time(ours, y_true, y_score, repeats=3)
        t_theirs = best_time(theirs, y_true, y_score, repeats=3)
        rows.append([f"ROC AUC multi_class={ours_name}", f"{n:.0e}", k, f"{t_ours * 1e3:.1f}",
                     f"{t_theirs * 1e3:.1f}", f"{t_theirs / t_ours:.1f}x"])
    print()
    print_table(["metric", "n", "k", "evalkit", "sklearn", "sklearn/evalkit"], rows,
                title="Threshold curves and AUC, evalkit vs scikit-learn (ms, best of 3)")
    print()
    print_note(f"binary ROC AUC: slowest ratio {min(ratios):.1f}x")
    auc_goal_rows()


def auc_goal_rows() -> None:
    """The ROC AUC goal at the largest size, on rounded and on continuous scores: the worst of
    several interleaved rounds (evalkit and scikit-learn alternating), the slowest shape."""
    n = SIZES[-1]
    rows, worst = [], (float("inf"), "")
    for label, decimals in (("scores rounded to 4 decimals", 4), ("continuous scores", None)):
        y_true, y_score = make_scores(n, decimals=decimals)
        np.testing.assert_allclose(ek.roc_auc(y_true, y_score),
                                   skm.roc_auc_score(y_true, y_score), rtol=1e-12)
        ratios = ratio_rounds(lambda t=y_true, s=y_score: ek.roc_auc(t, s),
                              lambda t=y_true, s=y_score: skm.roc_auc_score(t, s),
                              rounds=AUC_ROUNDS, repeats=2)
        worst = min(worst, (min(ratios), label))
        rows.append([label, f"{n:.0e}", f"{min(ratios):.2f}x", f"{max(ratios):.2f}x"])
    # Information, not the goal: the same on one thread, without the two sorts side by side.
    y_true, y_score = make_scores(n, decimals=None)
    ratios = ratio_rounds(lambda: one_thread(ek.roc_auc, y_true, y_score),
                          lambda: skm.roc_auc_score(y_true, y_score),
                          rounds=AUC_ROUNDS, repeats=2)
    rows.append(["continuous, one thread (not the goal)", f"{n:.0e}", f"{min(ratios):.2f}x",
                 f"{max(ratios):.2f}x"])
    print()
    print_table(["scores", "n", "sklearn/evalkit, worst round", "best round"], rows,
                title=f"Binary ROC AUC, {AUC_ROUNDS} interleaved rounds of 2 calls each "
                      "(evalkit sorts the two classes' scores side by side where it has two "
                      "CPUs; EVALKIT_THREADS=1 for one)")
    record_goal(f"roc_auc: ratio to scikit-learn, worst of {AUC_ROUNDS} rounds",
                f"{count(n)} samples; slowest of 2 shapes: {worst[1]}", worst[0], AUC_GOAL)


def pycm_rows(datasets) -> None:
    try:
        from pycm import ConfusionMatrix
    except ImportError:
        print()
        print_note("pycm is not installed (pip install -e '.[bench]'); skipped")
        return
    rows = []
    for k in (2, 20):
        n = min(PYCM_MAX_SAMPLES, SIZES[0])
        y_true, y_pred = make_labels(n, k)
        pycm = ConfusionMatrix(actual_vector=y_true, predict_vector=y_pred)
        f1 = np.array([pycm.F1[c] for c in sorted(pycm.classes)], dtype=float)
        np.testing.assert_allclose(ek.f1_score(y_true, y_pred, average=None), f1, rtol=1e-9)
        t_ours = best_time(ek.f1_score, y_true, y_pred, average=None)
        t_pycm = best_time(ConfusionMatrix, actual_vector=y_true, predict_vector=y_pred,
                           repeats=3)
        rows.append(["F1 per class (pycm builds every statistic)", f"{n:.0e}", k,
                     f"{t_ours * 1e3:.2f}", f"{t_pycm * 1e3:.1f}", f"{t_pycm / t_ours:.0f}x"])
    print()
    print_table(["metric", "n", "k", "evalkit", "pycm", "pycm/evalkit"], rows,
                title=f"evalkit vs pycm (pure Python; run on {PYCM_MAX_SAMPLES:.0e} samples)")


if __name__ == "__main__":
    main()
