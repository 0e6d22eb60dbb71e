"""Nothing slower than the last release: each call timed on this checkout and on the baseline.

The baseline is a git revision (EVALKIT_BENCH_BASELINE, default 209f158, the last release);
its evalkit/ is extracted with `git archive` into a temporary folder, removed afterwards. A
fixed list of calls that exist in both versions (the figures the other benchmarks report:
evaluate on three run shapes, Kendall's tau, Spearman's rho, ROC AUC and the threshold curves,
kappa, F1 and the confusion matrix, the probabilistic F1, the bootstrap and the randomization
test) runs in child processes with PYTHONPATH set to each tree in turn, alternating baseline and
this checkout (A, B, A, B, ...), each child building the same seeded data. A call's figures are
its best wall time and its best CPU time (time.process_time) over every round; the goal is
CPU time now <= 1.05x the baseline's per call (CPU time, because other processes on a shared
machine disturb it far less than wall time; on a quiet machine the two agree).

Run with `make bench` or `python benchmarks/bench_regression.py`; EVALKIT_BENCH_QUICK=1 for
smaller data and fewer rounds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
from _timing import count, print_note, print_table, record_goal, record_sizes  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
BASELINE_ENV = "EVALKIT_BENCH_BASELINE"
DEFAULT_BASELINE = "209f158"  # the last release
TOLERANCE = 1.05  # goal: now <= this x the baseline's time
ROUNDS = 2 if QUICK else 4  # child processes per tree, alternating
REPEATS = 3  # calls per case in each child (best of), after one warm-up call
# ... and more, until the calls of a case have taken this long: a best of 3 calls of a few
# milliseconds each moves by 5% from run to run (bootstrap_ci, 3 ms: 1.05x in one run, 1.00x
# in 200 calls per tree).
MIN_SECONDS = 0.25
SCALE = 10 if QUICK else 1  # the quick run divides every size by this

N_QUERIES = 2_000 // SCALE
N_PAIRS = 10**6 // SCALE
N_SCORES = 10**7 // SCALE
N_LABELS = 10**6 // SCALE


# ---------------------------------------------------------------------------------------------
# The cases: (name, data, builder). A builder runs in the child; given the imported evalkit it
# makes its seeded data and returns the call to time. Only names both versions have.
# ---------------------------------------------------------------------------------------------


def _run(shape: str):
    """A run of N_QUERIES x 1,000 ranked documents and qrels judging ~100 per query."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    queries = np.array([f"q{i}" for i in range(N_QUERIES)], dtype=object)
    numbers = rng.integers(0, 10_000_000, (N_QUERIES, 1)) + 13 * np.arange(1_030)[None, :]
    names = np.char.add("doc", numbers.astype(str)).astype(object)
    scores = np.sort(rng.random((N_QUERIES, 1_000)), axis=1)[:, ::-1]
    run = pd.DataFrame({"query_id": np.repeat(queries, 1_000),
                        "doc_id": names[:, :1_000].ravel(),
                        "score": (np.round(scores * 4096) / 4096).ravel(), "run_id": "r"})
    if shape == "deep":  # the top 100 judged
        picked = np.arange(100)[None, :].repeat(N_QUERIES, 0)
    else:  # 70 retrieved documents anywhere in the ranking, 30 never retrieved
        picked = np.concatenate([np.sort(rng.choice(1_000, (N_QUERIES, 70)), axis=1),
                                 1_000 + np.arange(30)[None, :].repeat(N_QUERIES, 0)], axis=1)
    grade = (rng.random(picked.shape) < 0.3) * rng.integers(1, 4, picked.shape)
    qrels = pd.DataFrame({"query_id": np.repeat(queries, picked.shape[1]),
                          "doc_id": np.take_along_axis(names, picked, axis=1).ravel(),
                          "relevance": grade.ravel()}).drop_duplicates(["query_id", "doc_id"])
    if shape == "interleaved":  # queries' rows shuffled together, as concatenated batches
        run = run.sample(frac=1.0, random_state=0).reset_index(drop=True)
    return qrels, run


def _evaluate(shape: str) -> Callable[[Any], Callable[[], Any]]:
    def build(ek):
        qrels, run = _run(shape)
        metrics = ["AP", "nDCG@10", "RR", "P@10", "Rprec", "R@100"]
        return lambda: ek.evaluate(qrels, run, metrics)
    return build


def _pairs(shape: str):
    import numpy as np

    rng = np.random.default_rng(1)
    x = rng.random(N_PAIRS)
    if shape == "no ties":
        return x, rng.random(N_PAIRS)
    if shape == "ties in y":
        return x, np.floor(rng.random(N_PAIRS) * 1000) / 7
    return rng.integers(0, 100, N_PAIRS), rng.integers(0, 100, N_PAIRS)


def _tau(shape: str, variant: str):
    def build(ek):
        x, y = _pairs(shape)
        return lambda: ek.kendall_tau(x, y, variant=variant)
    return build


def _spearman(ek):
    x, y = _pairs("no ties")
    return lambda: ek.spearman_rho(x, y)


def _scores(n: int, decimals: int | None):
    import numpy as np

    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, n)
    y_score = rng.normal(size=n) + 1.2 * y_true
    return y_true, (y_score if decimals is None else np.round(y_score, decimals))


def _curve(name: str, n: int, decimals: int | None):
    def build(ek):
        y_true, y_score = _scores(n, decimals)
        function = getattr(ek, name)
        return lambda: function(y_true, y_score)
    return build


def _labels(n: int, k: int):
    import numpy as np

    rng = np.random.default_rng(0)
    y_true = rng.integers(0, k, n)
    return y_true, np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))


def _kappa(ek):
    a, b = _labels(N_LABELS, 4)
    return lambda: ek.cohen_kappa(a, b, weights="quadratic")


def _f1_macro(ek):
    y_true, y_pred = _labels(N_LABELS, 20)
    return lambda: ek.f1_score(y_true, y_pred, average="macro")


def _confusion(ek):
    y_true, y_pred = _labels(N_LABELS, 20)
    return lambda: ek.confusion_matrix(y_true, y_pred)


def _report(ek):
    y_true, y_pred = _labels(N_LABELS // 10, 20)
    return lambda: ek.classification_report(y_true, y_pred)


def _c_f1(ek):
    import numpy as np

    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, N_LABELS)
    y_proba = np.clip(0.3 * y_true + 0.7 * rng.random(N_LABELS), 0, 1)
    return lambda: ek.c_f1(y_true, y_proba)


def _bootstrap(ek):
    import functools

    y_true, y_pred = _labels(10_000 // SCALE, 5)
    macro_f1 = functools.partial(ek.f1_score, average="macro")
    return lambda: ek.bootstrap_ci(macro_f1, y_true, y_pred, n_resamples=1_000, seed=0)


def _randomization(ek):
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.random(5_000)
    b = a + rng.normal(scale=0.1, size=5_000)
    return lambda: ek.paired_randomization_test(a, b, n_resamples=10_000 // SCALE, seed=0)


CASES: list[tuple[str, str, Callable[[Any], Callable[[], Any]]]] = [
    ("evaluate (6 measures)", f"{count(N_QUERIES)} queries x 1,000, 100 judged anywhere",
     _evaluate("sparse")),
    ("evaluate (6 measures)", f"{count(N_QUERIES)} queries x 1,000, top 100 judged",
     _evaluate("deep")),
    ("evaluate (6 measures)", f"{count(N_QUERIES)} queries x 1,000, rows interleaved",
     _evaluate("interleaved")),
    ("kendall_tau (b)", f"{count(N_PAIRS)} pairs, no ties", _tau("no ties", "b")),
    ("kendall_tau (a)", f"{count(N_PAIRS)} pairs, no ties", _tau("no ties", "a")),
    ("kendall_tau (b)", f"{count(N_PAIRS)} pairs, y of 1,000 float levels",
     _tau("ties in y", "b")),
    ("kendall_tau (b)", f"{count(N_PAIRS)} pairs, 100 integer levels", _tau("100 levels", "b")),
    ("spearman_rho", f"{count(N_PAIRS)} pairs, no ties", _spearman),
    ("roc_auc", f"{count(N_SCORES)} scores, continuous", _curve("roc_auc", N_SCORES, None)),
    ("roc_auc", f"{count(N_SCORES)} scores, 4 decimals", _curve("roc_auc", N_SCORES, 4)),
    ("roc_curve", f"{count(N_LABELS)} scores, 4 decimals", _curve("roc_curve", N_LABELS, 4)),
    ("precision_recall_curve", f"{count(N_LABELS)} scores, 4 decimals",
     _curve("precision_recall_curve", N_LABELS, 4)),
    ("cohen_kappa (quadratic)", f"{count(N_LABELS)} pairs of labels, 4 classes", _kappa),
    ("f1_score (macro)", f"{count(N_LABELS)} labels, 20 classes", _f1_macro),
    ("confusion_matrix", f"{count(N_LABELS)} labels, 20 classes", _confusion),
    ("classification_report", f"{count(N_LABELS // 10)} labels, 20 classes", _report),
    ("c_f1 (probabilistic F1)", f"{count(N_LABELS)} probabilities, binary", _c_f1),
    ("bootstrap_ci (macro F1)", f"{count(10_000 // SCALE)} labels, 1,000 resamples", _bootstrap),
    ("paired_randomization_test", f"5,000 queries, {count(10_000 // SCALE)} flips",
     _randomization),
]


# ---------------------------------------------------------------------------------------------
# The child: time every case on whichever evalkit PYTHONPATH names
# ---------------------------------------------------------------------------------------------


def child() -> None:
    import gc

    import evalkit as ek

    times = {}
    for i, (_, _, build) in enumerate(CASES):
        call = build(ek)
        call()  # warm-up: lazy imports, caches, page faults
        wall = cpu = float("inf")
        calls, spent = 0, 0.0
        while calls < REPEATS or spent < MIN_SECONDS:
            gc.collect()
            start, start_cpu = time.perf_counter(), time.process_time()
            call()
            cpu = min(cpu, time.process_time() - start_cpu)
            took = time.perf_counter() - start
            wall, calls, spent = min(wall, took), calls + 1, spent + took
        times[i] = [wall, cpu]
        del call
    print(json.dumps({"evalkit": str(Path(ek.__file__).resolve().parent), "times": times}))


def run_child(tree: Path) -> dict[int, list[float]]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree), str(HERE)])
    env.pop("EVALKIT_BENCH_RECORD", None)  # the child records nothing: the parent reports
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child"], env=env,
                         capture_output=True, text=True, check=False, cwd=str(tree))
    if out.returncode != 0:
        raise RuntimeError(f"the child on {tree} failed:\n{out.stderr[-3000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if Path(result["evalkit"]) != (tree / "evalkit").resolve():
        raise RuntimeError(f"the child meant for {tree} imported evalkit from "
                           f"{result['evalkit']}")
    return {int(i): t for i, t in result["times"].items()}


def extract(revision: str, into: Path) -> str:
    """The baseline's evalkit/ under ``into``; returns the revision's short hash."""
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", revision],
                            capture_output=True, text=True, check=False)
    if commit.returncode != 0:
        raise SystemExit(f"{BASELINE_ENV}={revision!r} is not a revision of {REPO}: "
                         f"{commit.stderr.strip()}")
    archive = subprocess.Popen(["git", "-C", str(REPO), "archive", revision, "evalkit"],
                               stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise SystemExit(f"git archive {revision} evalkit failed")
    return commit.stdout.strip()


def main() -> None:
    baseline = os.environ.get(BASELINE_ENV) or DEFAULT_BASELINE
    with tempfile.TemporaryDirectory(prefix="evalkit-baseline-") as folder:
        base_tree = Path(folder)
        short = extract(baseline, base_tree)
        record_sizes({"calls": f"{len(CASES)} calls (see the table)",
                      "baseline": f"{baseline} (git {short}), EVALKIT_BENCH_BASELINE to change",
                      "rounds": f"{ROUNDS} child processes per tree, alternating; best of "
                                f"{REPEATS} calls or more (at least {MIN_SECONDS} s of them) "
                                f"in each after a warm-up"})
        # best[tree][case] = [wall, cpu], each the best over every round
        best: dict[str, dict[int, list[float]]] = {"baseline": {}, "now": {}}
        trees = {"baseline": base_tree, "now": REPO}
        for round_ in range(ROUNDS):
            order = ["baseline", "now"] if round_ % 2 == 0 else ["now", "baseline"]
            for which in order:
                for i, times in run_child(trees[which]).items():
                    kept = best[which].setdefault(i, [float("inf"), float("inf")])
                    best[which][i] = [min(a, b) for a, b in zip(kept, times, strict=True)]
    rows, ratios = [], []
    for i, (name, data, _) in enumerate(CASES):
        (old_wall, old_cpu), (new_wall, new_cpu) = best["baseline"][i], best["now"][i]
        ratio = new_cpu / old_cpu
        ratios.append(ratio)
        rows.append([name, data, f"{old_wall * 1e3:.1f}", f"{new_wall * 1e3:.1f}",
                     f"{new_wall / old_wall:.2f}x", f"{old_cpu * 1e3:.1f}",
                     f"{new_cpu * 1e3:.1f}", f"{ratio:.2f}x",
                     "yes" if ratio <= TOLERANCE else "**no**"])
    print_table(["call", "data", f"wall {short} (ms)", "wall now (ms)", "wall now / then",
                 f"CPU {short} (ms)", "CPU now (ms)", "CPU now / then",
                 f"CPU <= {TOLERANCE}x"], rows,
                title=f"This checkout against {baseline} (best of {ROUNDS} alternating "
                      f"processes per tree x {REPEATS}+ calls; below 1: faster now)",
                section="Against the last release")
    slowest = max(range(len(CASES)), key=ratios.__getitem__)
    print_note(f"slowest against {baseline} in CPU time: {CASES[slowest][0]} "
               f"({CASES[slowest][1]}) at {ratios[slowest]:.2f}x. The goals are judged on CPU "
               "time (the process's own, which other processes on a shared machine disturb "
               "far less than wall time); on a quiet machine the two agree.")
    for i, (name, data, _) in enumerate(CASES):
        record_goal(f"{name}: CPU time now / at {baseline}", data, ratios[i], TOLERANCE,
                    at_most=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    else:
        main()
