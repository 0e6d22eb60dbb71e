"""evalkit's kappa and rank correlations against scikit-learn, statsmodels and scipy.

Each row times one function on the same data in one process, input validation included. The
ratio is reference time / evalkit time (above 1: evalkit is faster). The goal for Kendall's tau
(a and b) and Spearman's rho (issues 23 and 33): at least 1.2x scipy at 10^5 and 10^6 pairs,
with and without ties, stable over repeated runs. So each tau and rho row is measured in
several rounds, each round calling evalkit and scipy alternately (best of 3 each, the first
caller alternating), and the row reports the WORST round's ratio; the goal takes the slowest
shape. The shapes: no ties with y independent of x (the hardest for a merge sort: every pair
is as likely inverted) and with y correlated, ties in y only (1,000 float levels), ties in
both (700 float levels each, not whole numbers) and 100 integer levels. scipy also computes a
p-value, which evalkit does not. scipy has no tau-a: its row is timed against scipy's
kendalltau (the same pair counts) and checked against scipy's tau-b rescaled by the untied
pairs.

Run with `make bench` or `python benchmarks/bench_agreement.py`; EVALKIT_BENCH_QUICK=1 for a
smaller run.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import numpy as np
from scipy import stats
from sklearn.metrics import cohen_kappa_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import (  # noqa: E402
    best_time,
    count,
    print_note,
    print_table,
    ratio_rounds,
    record_goal,
    record_sizes,
)

import evalkit as ek  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
KAPPA_SIZES = [10**6] if QUICK else [10**6, 10**7]
TAU_SIZES = [10**5] if QUICK else [10**5, 10**6]
TAU_GOAL = 1.2
TAU_ROUNDS = 3 if QUICK else 5  # rounds per tau/rho row: the worst one is reported


def judges(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    return a, np.where(rng.random(n) < 0.7, a, rng.integers(0, k, n))


def _statistic(reference, x: np.ndarray, y: np.ndarray) -> float:
    return float(reference(x, y).statistic)


def _tau_a(x: np.ndarray, y: np.ndarray) -> float:
    return ek.kendall_tau(x, y, variant="a")


def _tau_a_from_scipy(reference, x: np.ndarray, y: np.ndarray) -> float:
    """scipy has no tau-a: rescale its tau-b by the untied pairs, counted with np.unique."""
    pairs = len(x) * (len(x) - 1) / 2
    untied = [pairs - float((c * (c - 1) / 2).sum())
              for c in (np.unique(v, return_counts=True)[1].astype(float) for v in (x, y))]
    return float(reference(x, y).statistic) * np.sqrt(untied[0] * untied[1]) / pairs


def main() -> None:
    record_sizes({
        "Cohen's kappa": " and ".join(map(count, KAPPA_SIZES))
        + " pairs of labels; 2 and 4 classes",
        "Kendall's tau, Spearman's rho": " and ".join(map(count, TAU_SIZES))
        + " pairs; no ties (y independent of x, and correlated), continuous x with y of 1,000 "
        "float levels, both of 700 float levels, both of 100 integer levels",
        "Fleiss' kappa": f"{count(10**6)} items x 5 judges, 3 categories",
    })
    rows = []
    for n in KAPPA_SIZES:
        for k, weights in ((2, None), (4, None), (4, "quadratic")):
            a, b = judges(n, k)
            ours = ek.cohen_kappa(a, b, weights=weights)
            theirs = cohen_kappa_score(a, b, weights=weights)
            np.testing.assert_allclose(ours, theirs, rtol=1e-12)
            t_ours = best_time(ek.cohen_kappa, a, b, weights=weights, repeats=3)
            t_theirs = best_time(cohen_kappa_score, a, b, weights=weights, repeats=3)
            rows.append([f"cohen_kappa (weights={weights})", "sklearn", f"{n:.0e}", k,
                         f"{t_ours * 1e3:.1f}", f"{t_theirs * 1e3:.1f}",
                         f"{t_theirs / t_ours:.1f}x", ""])
    rng = np.random.default_rng(1)
    tau_ratios = []
    for n in TAU_SIZES:
        continuous = rng.random(n)
        levels = rng.integers(0, 700, n) / 7
        data = {
            "no ties, y independent": (continuous, rng.random(n)),
            "no ties, y correlated": (continuous, continuous + rng.random(n)),
            "ties in y (1,000 float levels)": (
                continuous, np.floor((continuous + rng.random(n)) * 500) / 500),
            "ties in both (700 float levels)": (levels, rng.permutation(levels)),
            "100 levels": (rng.integers(0, 100, n), rng.integers(0, 100, n)),
        }
        for label, (x, y) in data.items():
            for name, ours, theirs, reference in (
                ("kendall_tau (b)", ek.kendall_tau, stats.kendalltau, _statistic),
                ("kendall_tau (a)", _tau_a, stats.kendalltau, _tau_a_from_scipy),
                ("spearman_rho", ek.spearman_rho, stats.spearmanr, _statistic),
            ):
                np.testing.assert_allclose(ours(x, y), reference(theirs, x, y), rtol=1e-12)
                ratios = ratio_rounds(functools.partial(ours, x, y),
                                      functools.partial(theirs, x, y), rounds=TAU_ROUNDS,
                                      repeats=5)
                t_ours = best_time(ours, x, y, repeats=3)
                t_theirs = best_time(theirs, x, y, repeats=3)
                tau_ratios.append((name, n, min(ratios), label))
                rows.append([f"{name}, {label}", "scipy", f"{n:.0e}", "", f"{t_ours * 1e3:.1f}",
                             f"{t_theirs * 1e3:.1f}", f"{min(ratios):.2f}x",
                             f"{max(ratios):.2f}x"])
    try:
        from statsmodels.stats.inter_rater import fleiss_kappa
    except ImportError:
        print_note("statsmodels is not installed; Fleiss' kappa skipped")
    else:
        counts = np.random.default_rng(2).multinomial(5, [0.5, 0.3, 0.2], size=10**6)
        np.testing.assert_allclose(ek.fleiss_kappa(counts), fleiss_kappa(counts), rtol=1e-12)
        t_ours = best_time(ek.fleiss_kappa, counts, repeats=3)
        t_theirs = best_time(fleiss_kappa, counts, repeats=3)
        rows.append(["fleiss_kappa (5 judges)", "statsmodels", "1e+06", 3,
                     f"{t_ours * 1e3:.1f}", f"{t_theirs * 1e3:.1f}", f"{t_theirs / t_ours:.1f}x",
                     ""])
    print_table(["function", "reference", "n", "k", "evalkit", "reference",
                 "ref/evalkit (worst round)", "best round"], rows,
                title=f"evalkit vs reference tools (ms, best of 3, validation included; tau and "
                f"rho: ratio of the worst and of the best of {TAU_ROUNDS} interleaved rounds of 5 "
                f"calls each)")
    for name in dict.fromkeys(name for name, *_ in tau_ratios):
        for n in TAU_SIZES:
            ratio, label = min((r, lab) for f, size, r, lab in tau_ratios
                               if f == name and size == n)
            record_goal(f"{name}: ratio to scipy, worst of {TAU_ROUNDS} rounds",
                        f"{count(n)} pairs; slowest of {len(data)} shapes: {label}", ratio,
                        TAU_GOAL)


if __name__ == "__main__":
    main()
