"""evalkit's bootstrap, randomization test and classifier comparison against scipy and loops.

Each row times one way of doing the same job on the same data in one process: best of a few
runs (a single run for the slow loops), input validation included. The ratio is the other
tool's time / evalkit's time (above 1: evalkit is faster).

- Bootstrap CI of macro-F1 (10^5 samples, 10 classes, 1,000 resamples): evalkit draws the
  1,000 confusion matrices from a multinomial and scores them at once; the references
  resample row indices and call a metric once per resample: a Python loop over
  scikit-learn's f1_score, scipy.stats.bootstrap with that statistic, and evalkit's own
  loop path (the same metric wrapped in a lambda). The goal is >= 20x over the loop.
- BCa on 2,000 samples (scipy needs one leave-one-out call per sample, 10^5 would take
  half an hour): evalkit's jackknife comes from the counts.
- Bootstrap CI of a mean (vectorised statistic): evalkit and scipy resample the same way.
- Paired randomization test, 10^4 queries x 10^4 sign flips: evalkit against
  scipy.stats.permutation_test(permutation_type="samples"), with the peak memory each
  needs (tracemalloc) — a dense sign matrix alone would take 800 MB.
- Two classifiers compared by macro-F1 on 10^5 items (10 classes), 10,000 resamples:
  compare_classifiers (approximate randomization and the paired bootstrap, resampled as
  per-group swap and draw counts, scored as stacks of confusion matrices) against
  scipy.stats.permutation_test(permutation_type="samples") calling a macro-F1 per resample,
  and evalkit's own loop path. The loops run a few hundred resamples and their time is
  scaled to 10,000 (they are linear in R). The goals: seconds, and >= 20x over scipy.

Run with `make bench` or `python benchmarks/bench_stats.py`; EVALKIT_BENCH_QUICK=1 for a
smaller run.
"""

from __future__ import annotations

import functools
import os
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
from scipy import stats
from sklearn.metrics import f1_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_time, count, print_table, record_goal, record_sizes  # noqa: E402

import evalkit as ek  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
N_SAMPLES = 10**4 if QUICK else 10**5
N_CLASSES = 10
N_RESAMPLES = 200 if QUICK else 1000
N_QUERIES = 2000 if QUICK else 10**4
N_FLIPS = 2000 if QUICK else 10**4
N_ITEMS = 10**4 if QUICK else 10**5
N_COMPARE = 2000 if QUICK else 10**4
N_LOOP = 50 if QUICK else 200  # resamples the loops run (their time is scaled to N_COMPARE)


def make_labels(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    return y_true, y_pred


def sklearn_macro_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    return f1_score(y_true, y_pred, average="macro", zero_division=0)


def sklearn_loop(y_true: np.ndarray, y_pred: np.ndarray, n_resamples: int,
                 seed: int = 0) -> tuple[float, float]:
    """What one writes by hand: resample indices, call scikit-learn, take percentiles."""
    rng = np.random.default_rng(seed)
    n = len(y_true)
    values = np.empty(n_resamples)
    for r in range(n_resamples):
        rows = rng.integers(0, n, n)
        values[r] = sklearn_macro_f1(y_true[rows], y_pred[rows])
    low, high = np.quantile(values, [0.025, 0.975])
    return float(low), float(high)


def scipy_bootstrap(data: tuple[np.ndarray, ...], statistic, n_resamples: int, method: str,
                    vectorized: bool = False):
    return stats.bootstrap(data, statistic, paired=True, vectorized=vectorized,
                           n_resamples=n_resamples, method=method, rng=np.random.default_rng(0))


def peak_memory(function, *args, **kwargs) -> float:
    """Peak traced allocation (MB) of one call."""
    tracemalloc.start()
    try:
        function(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def bootstrap_rows() -> list[list[str]]:
    rows = []
    y_true, y_pred = make_labels(N_SAMPLES, N_CLASSES)
    macro_f1 = functools.partial(ek.f1_score, average="macro")
    ours = ek.bootstrap_ci(macro_f1, y_true, y_pred, n_resamples=N_RESAMPLES, seed=0)
    assert ours.resampling == "multinomial"
    t_ours = best_time(ek.bootstrap_ci, macro_f1, y_true, y_pred, n_resamples=N_RESAMPLES,
                       seed=0, repeats=5)
    label = f"macro-F1 CI, n={N_SAMPLES:.0e}, k={N_CLASSES}, R={N_RESAMPLES}"
    rows.append([label, "evalkit (multinomial)", f"{t_ours:.3f}", "1.0x",
                 f"[{ours.low:.4f}, {ours.high:.4f}]"])
    references = [
        ("Python loop, sklearn f1_score", lambda: sklearn_loop(y_true, y_pred, N_RESAMPLES)),
        ("scipy.stats.bootstrap + sklearn",
         lambda: tuple(scipy_bootstrap((y_true, y_pred), sklearn_macro_f1, N_RESAMPLES,
                                       "percentile").confidence_interval)),
        ("evalkit, loop path (lambda)",
         lambda: tuple(ek.bootstrap_ci(lambda t, p: macro_f1(t, p), y_true, y_pred,
                                       n_resamples=N_RESAMPLES, seed=0))),
    ]
    for name, call in references:
        start = time.perf_counter()
        low, high = call()
        elapsed = time.perf_counter() - start  # one run: these take many seconds
        # Same data, other resamples: the intervals agree within Monte-Carlo error.
        assert abs(low - ours.low) < 3 * ours.standard_error, (name, low, ours.low)
        rows.append([label, name, f"{elapsed:.3f}", f"{elapsed / t_ours:.0f}x",
                     f"[{low:.4f}, {high:.4f}]"])

    # BCa: scipy's jackknife calls the statistic once per left-out sample.
    n_small = 2000
    y_true, y_pred = y_true[:n_small], y_pred[:n_small]
    ours = ek.bootstrap_ci(macro_f1, y_true, y_pred, n_resamples=N_RESAMPLES, seed=0,
                           method="bca")
    t_ours = best_time(ek.bootstrap_ci, macro_f1, y_true, y_pred, n_resamples=N_RESAMPLES,
                       seed=0, method="bca", repeats=5)
    label = f"macro-F1 BCa CI, n={n_small}, k={N_CLASSES}, R={N_RESAMPLES}"
    rows.append([label, "evalkit (multinomial)", f"{t_ours:.3f}", "1.0x",
                 f"[{ours.low:.4f}, {ours.high:.4f}]"])
    start = time.perf_counter()
    theirs = scipy_bootstrap((y_true, y_pred), sklearn_macro_f1, N_RESAMPLES, "BCa")
    elapsed = time.perf_counter() - start
    rows.append([label, "scipy.stats.bootstrap + sklearn", f"{elapsed:.3f}",
                 f"{elapsed / t_ours:.0f}x",
                 "[{:.4f}, {:.4f}]".format(*theirs.confidence_interval)])

    # A vectorised statistic: both resample indices, the statistic sees a batch axis.
    values = np.random.default_rng(1).normal(size=N_SAMPLES // 10)
    ours = ek.bootstrap_ci(np.mean, values, n_resamples=N_RESAMPLES, seed=0)
    theirs = scipy_bootstrap((values,), np.mean, N_RESAMPLES, "percentile", vectorized=True)
    np.testing.assert_allclose(tuple(ours), tuple(theirs.confidence_interval), rtol=1e-12)
    t_ours = best_time(ek.bootstrap_ci, np.mean, values, n_resamples=N_RESAMPLES, seed=0)
    t_theirs = best_time(scipy_bootstrap, (values,), np.mean, N_RESAMPLES, "percentile",
                         vectorized=True)
    label = f"mean CI, n={len(values):.0e}, R={N_RESAMPLES}"
    rows.append([label, "evalkit (vectorized)", f"{t_ours:.3f}", "1.0x",
                 f"[{ours.low:.4f}, {ours.high:.4f}]"])
    rows.append([label, "scipy.stats.bootstrap (vectorized)", f"{t_theirs:.3f}",
                 f"{t_theirs / t_ours:.1f}x", "same interval (same Generator)"])
    return rows


def randomization_rows() -> list[list[str]]:
    rng = np.random.default_rng(2)
    scores_b = rng.random(N_QUERIES)
    scores_a = scores_b + 0.002 + rng.normal(scale=0.1, size=N_QUERIES)
    difference = scores_a - scores_b
    ours = ek.paired_randomization_test(scores_a, scores_b, n_resamples=N_FLIPS, seed=0)
    t_ours = best_time(ek.paired_randomization_test, scores_a, scores_b,
                       n_resamples=N_FLIPS, seed=0, repeats=5)
    m_ours = peak_memory(ek.paired_randomization_test, scores_a, scores_b,
                         n_resamples=N_FLIPS, seed=0)
    label = f"randomization test, {N_QUERIES:.0e} queries x {N_FLIPS:.0e} flips"
    dense = N_QUERIES * N_FLIPS * 8 / 1e6
    rows = [[label, "evalkit", f"{t_ours:.3f}", "1.0x", f"{m_ours:.1f}",
             f"p = {ours.pvalue:.4f}"]]
    # scipy flips the signs of one sample (permutation_type="samples"); its batch bounds the
    # index array it builds (batch x 2 x n); without one it would need R x 2 x n x 8 bytes.
    for batch in (100, 1000):
        def scipy_test(batch=batch):
            return stats.permutation_test((difference,), np.mean, permutation_type="samples",
                                          vectorized=True, n_resamples=N_FLIPS, batch=batch,
                                          rng=np.random.default_rng(0))

        theirs = scipy_test()
        assert abs(theirs.pvalue - ours.pvalue) < 0.03, (theirs.pvalue, ours.pvalue)
        t_theirs = best_time(scipy_test, repeats=2)
        m_theirs = peak_memory(scipy_test)
        rows.append([label, f"scipy permutation_test (batch={batch})", f"{t_theirs:.3f}",
                     f"{t_theirs / t_ours:.1f}x", f"{m_theirs:.1f}",
                     f"p = {theirs.pvalue:.4f}"])
    rows.append([label, "a dense sign matrix (not run)", "", "", f"{dense:.0f}", ""])
    return rows


def compare_rows() -> list[list[str]]:
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, N_CLASSES, N_ITEMS)
    y_pred_a = np.where(rng.random(N_ITEMS) < 0.70, y_true, rng.integers(0, N_CLASSES, N_ITEMS))
    y_pred_b = np.where(rng.random(N_ITEMS) < 0.69, y_true, rng.integers(0, N_CLASSES, N_ITEMS))
    macro_f1 = functools.partial(ek.f1_score, average="macro")
    label = f"macro-F1, n={N_ITEMS:.0e}, k={N_CLASSES}, R={N_COMPARE:.0e}"
    rows = []
    timed = {}
    for test in ("randomization", "bootstrap"):
        table = ek.compare_classifiers(y_true, y_pred_a, y_pred_b, metric=macro_f1, test=test,
                                       n_resamples=N_COMPARE, seed=0)
        assert table.iloc[0].resampling == "counts"
        elapsed = best_time(ek.compare_classifiers, y_true, y_pred_a, y_pred_b,
                            metric=macro_f1, test=test, n_resamples=N_COMPARE, seed=0,
                            repeats=3)
        timed[test] = (elapsed, table)
        shown = f"p = {table.iloc[0].pvalue:.4f}"
        if test == "bootstrap":
            shown += f", CI [{table.iloc[0].ci_low:.4f}, {table.iloc[0].ci_high:.4f}]"
        rows.append([f"{test}, {label}", "evalkit (counts)", f"{elapsed:.2f}", "1.0x", shown])

    def statistic(x: np.ndarray, y: np.ndarray) -> float:
        return macro_f1(y_true, x) - macro_f1(y_true, y)

    def sklearn_statistic(x: np.ndarray, y: np.ndarray) -> float:
        return sklearn_macro_f1(y_true, x) - sklearn_macro_f1(y_true, y)

    t_randomization = timed["randomization"][0]
    scale = N_COMPARE / N_LOOP
    ratio_to_scipy = float("nan")
    for name, function in (("scipy permutation_test + evalkit f1", statistic),
                           ("scipy permutation_test + sklearn f1", sklearn_statistic)):
        start = time.perf_counter()
        theirs = stats.permutation_test((y_pred_a, y_pred_b), function,
                                        permutation_type="samples", vectorized=False,
                                        n_resamples=N_LOOP, rng=np.random.default_rng(0))
        elapsed = (time.perf_counter() - start) * scale
        if ratio_to_scipy != ratio_to_scipy:
            ratio_to_scipy = elapsed / t_randomization
        rows.append([f"randomization, {label}", f"{name} (R={N_LOOP}, scaled)",
                     f"{elapsed:.1f}", f"{elapsed / t_randomization:.0f}x",
                     f"p = {theirs.pvalue:.4f} (R={N_LOOP})"])
    start = time.perf_counter()
    loop = ek.compare_classifiers(y_true, y_pred_a, y_pred_b,
                                  metric=lambda t, p: macro_f1(t, p), n_resamples=N_LOOP, seed=0)
    elapsed = (time.perf_counter() - start) * scale
    rows.append([f"randomization, {label}", f"evalkit, loop path (lambda, R={N_LOOP}, scaled)",
                 f"{elapsed:.1f}", f"{elapsed / t_randomization:.0f}x",
                 f"p = {loop.iloc[0].pvalue:.4f} (R={N_LOOP})"])
    data = f"{count(N_ITEMS)} items, {N_CLASSES} classes, {count(N_COMPARE)} resamples"
    record_goal("compare_classifiers (randomization, macro-F1): seconds", data,
                t_randomization, 10.0, unit=" s", at_most=True)
    record_goal("compare_classifiers (bootstrap, macro-F1): seconds", data,
                timed["bootstrap"][0], 10.0, unit=" s", at_most=True)
    record_goal("compare_classifiers: ratio to a scipy permutation_test loop", data,
                ratio_to_scipy, 20.0)
    return rows


def main() -> None:
    record_sizes({
        "bootstrap of macro-F1": f"{count(N_SAMPLES)} samples, {N_CLASSES} classes, "
                                 f"{count(N_RESAMPLES)} resamples",
        "BCa": f"2,000 samples, {N_CLASSES} classes, {count(N_RESAMPLES)} resamples",
        "bootstrap of a mean": f"{count(N_SAMPLES // 10)} values, {count(N_RESAMPLES)} resamples",
        "randomization test": f"{count(N_QUERIES)} queries x {count(N_FLIPS)} sign flips",
        "two classifiers": f"{count(N_ITEMS)} items, {N_CLASSES} classes, "
                           f"{count(N_COMPARE)} resamples ({N_LOOP} for the loops, scaled)",
    })
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # resamples missing a class warn in scikit-learn
        boot = bootstrap_rows()
    print_table(["task", "tool", "time (s)", "ratio", "95% interval"], boot,
                title="Bootstrap confidence intervals (seconds; ratio = other / evalkit)")
    print()
    print_table(["task", "tool", "time (s)", "ratio", "peak (MB)", "result"],
                randomization_rows(),
                title="Paired randomization test (seconds, peak memory by tracemalloc)")
    print()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        classifiers = compare_rows()
    print_table(["task", "tool", "time (s)", "ratio", "result"], classifiers,
                title="Two classifiers on one test set: compare_classifiers (seconds; ratio = "
                      "other / evalkit)")


if __name__ == "__main__":
    main()
