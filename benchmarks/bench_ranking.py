"""evalkit.evaluate against ranx, pytrec_eval and ir_measures on synthetic runs, side by side.

The detailed table: 5,000 queries x 1,000 retrieved documents (5 million run rows),
scores float32-representable (so pytrec_eval, which stores float32, ranks exactly as the
others) and rounded to 1/4096, so about a fifth of the rows tie with a neighbour. The run is
written ranked, as systems write it. Two shapes of judgements, each about 100 per query:

- "sparse": 70 judged documents scattered over the 1,000 retrieved (relevant ones more often
  near the top) and 30 never retrieved, graded 0-3, about a fifth relevant;
- "deep pool": the run's top 100 documents judged, as in a TREC pool of depth 100, 30 % of
  them relevant (grades 1-3).

Every tool computes the same six measures: AP, nDCG@10, RR, P@10, Rprec and R@100, starting
from the same pandas DataFrames.

Rows, each timed in one process as the best of a few runs:

- evalkit, from the qrels and run DataFrames (everything included);
- ranx: `evaluate` alone on prebuilt Qrels/Run with numba's compilation excluded (a warm-up
  call first), and Qrels/Run built from the DataFrames plus `evaluate`; both with ranx's
  defaults (the first call sorts the Run once and marks it sorted; `make_comparable=True`,
  not needed as both hold the same queries, would sort it again on every call);
- pytrec_eval: building its dict-of-dicts input from the DataFrames plus `evaluate`, and
  `evaluate` alone;
- ir_measures: `calc_aggregate` on the DataFrames (skipped at 10,000 queries: slow).

Threads: ranx's `evaluate` runs numba's kernels on every CPU (its default, threads=0), and
evalkit's `evaluate` uses as many threads as there are CPUs, at most 4 (numpy releases the GIL
in its loops). The rows marked "one thread" time both on one (ranx's threads=1,
EVALKIT_THREADS=1), so that the ratio of one engine to the other shows on one core too.

"max |mean diff|" is the largest difference between a tool's mean and evalkit's over the six
measures: pytrec_eval agrees to rounding; ranx differs by 1e-4 to 1e-3 because it ranks tied
scores in the order the run lists them, where trec_eval (and evalkit) order them by doc_id
descending (docs/notebooks/conventions.md).

"speed-up" is the tool's time / evalkit's time (2.0x: evalkit twice as fast). Memory, two ways:

- "peak MB, tracemalloc": the peak of Python-tracked allocations during one call, in process
  (numpy and pandas buffers included; memory that C/C++ extensions or numba allocate
  themselves, as pytrec_eval and ranx do, is not seen);
- "peak MB, RSS": each tool runs once in a fresh subprocess that first builds the same data;
  the peak resident set size is reset (``/proc/self/clear_refs``) just before the call, and
  the column shows the peak during the call minus the resident size before it (Linux only).

The goals (issues 23 and 33): at least 1.5x ranx's bare `evaluate` and 3x pytrec_eval with
its dicts, on both shapes; evalkit's peak RSS at most 350 MB at 10,000 queries (measured alone,
in a subprocess per shape).

The family of shapes (issue 33) then varies one thing at a time from a base of 1,000 queries x
1,000 retrieved (70 judged documents scattered among them and 30 never retrieved, no ties,
short doc ids unique to each query, ranked rows, object columns): the row order (shuffled
within queries, queries interleaved), where the judged documents sit (a deep pool on top),
many ties, long ids, doc ids shared across queries (drawn from one vocabulary), the string
storage (pyarrow-backed `str`, pandas' python `string`, a str object in every row as
`astype(object)` makes; shared ids, grouped and interleaved), the number of queries (10^4 x 300,
10^5 x 50) and the issue's own shape (5,000 x 1,000, shared ids, rows shuffled within
queries, object and pyarrow). On each: evalkit, ranx's bare evaluate and both on one thread,
taken in turn (best of 7-11), and pytrec_eval with its dicts once; goals per shape, on the
default threads and on one: >= 1.5x ranx's bare evaluate, >= 3x pytrec_eval with its dicts;
and an interleaved run at most 1.2x the time of the same rows grouped by query (the two
shapes of each such pair timed again side by side, taken in turn in one fresh process, for
that ratio, in seven fresh processes, the goal judged on the median of their ratios: one
process's ratio moves by 0.2-0.4 between processes on the same code). Each shape is measured
in a fresh process (all tools side by side in it), so
that its figures do not depend on the shapes and sections that ran before it: evalkit reads
each id's str object, and in one process aged by the rest of the bench (its heap left
scattered by earlier data) it took 10-20 % longer on object columns, ranx's prebuilt
Qrels/Run not at all.

Each goal is recorded with `record_goal`, and RESULTS.md gathers them in its goals table.

Run with `make bench` or `python benchmarks/bench_ranking.py`; EVALKIT_BENCH_QUICK=1 runs
1,000 queries and the family at a tenth of its sizes; `--sizes 5000` picks sizes, `--shapes
deep` shapes, `--family [NAME ...]` only the family (or the shapes named), `--no-family`
skips it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
# Measure the evalkit of this checkout, not whichever one is installed.
sys.path[:0] = [str(HERE.parent), str(HERE)]
from _timing import (  # noqa: E402
    best_time,
    one_thread,
    print_note,
    print_table,
    record_goal,
    record_sizes,
)

import evalkit as ek  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
SIZES = (1_000,) if QUICK else (5_000,)
# The peak RSS goal is measured on evalkit alone at this size (one subprocess per shape).
RSS_SIZE = 2_000 if QUICK else 10_000
RETRIEVED = 1_000
JUDGED_RETRIEVED, JUDGED_ELSEWHERE = 70, 30
POOL_DEPTH, POOL_RELEVANT = 100, 0.30
SHAPES = {"sparse": "sparse", "deep": "deep pool"}
GOAL_RANX, GOAL_PYTREC, GOAL_PEAK_MB = 1.5, 3.0, 350
METRICS = ["AP", "nDCG@10", "RR", "P@10", "Rprec", "R@100"]
RANX = {"AP": "map", "nDCG@10": "ndcg@10", "RR": "mrr", "P@10": "precision@10",
        "Rprec": "r-precision", "R@100": "recall@100"}
TREC = {"AP": "map", "nDCG@10": "ndcg_cut_10", "RR": "recip_rank", "P@10": "P_10",
        "Rprec": "Rprec", "R@100": "recall_100"}
# The rows that time a tool on one thread (see the docstring).
EVALKIT_ONE_THREAD = "  one thread: evalkit.evaluate (EVALKIT_THREADS=1)"
RANX_ONE_THREAD = "  one thread: ranx, evaluate alone (threads=1)"
# ranx insists on object columns; pandas 3 makes string columns `str`.
AS_OBJECT = {"query_id": object, "doc_id": object}


def make_data(n_queries: int, seed: int = 0,
              shape: str = "sparse") -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run ranked as a system writes it, and qrels that judge ~100 documents per query."""
    rng = np.random.default_rng(seed)
    queries = np.array([f"q{i}" for i in range(n_queries)], dtype=object)
    # Document numbers unique within each query: a random start and a fixed stride.
    start = rng.integers(0, 10_000_000, size=(n_queries, 1))
    numbers = start + 13 * np.arange(RETRIEVED + JUDGED_ELSEWHERE)[None, :]
    doc_names = np.char.add("doc", numbers.astype(str)).astype(object)

    scores = np.sort(rng.random((n_queries, RETRIEVED)).astype(np.float32), axis=1)[:, ::-1]
    scores = np.round(scores * 4096) / 4096  # some ties, as real systems produce
    run = pd.DataFrame({
        "query_id": np.repeat(queries, RETRIEVED),
        "doc_id": doc_names[:, :RETRIEVED].ravel(),
        "score": scores.ravel().astype(np.float64),
        "run_id": "synthetic",
    })

    if shape == "deep":  # the top POOL_DEPTH of the run judged, POOL_RELEVANT of them relevant
        relevant = rng.random((n_queries, POOL_DEPTH)) < POOL_RELEVANT
        grade = relevant * rng.integers(1, 4, (n_queries, POOL_DEPTH))
        qrels = pd.DataFrame({
            "query_id": np.repeat(queries, POOL_DEPTH),
            "doc_id": doc_names[:, :POOL_DEPTH].ravel(),
            "relevance": grade.ravel(),
        })
        return qrels, run
    # Judged: 70 retrieved documents (more relevant near the top) and 30 never retrieved.
    ranks = np.sort(rng.choice(RETRIEVED, size=(n_queries, JUDGED_RETRIEVED)), axis=1)
    picked = np.concatenate(
        [ranks, RETRIEVED + np.arange(JUDGED_ELSEWHERE)[None, :].repeat(n_queries, 0)], axis=1)
    top = np.clip(1.0 - picked / RETRIEVED, 0.05, 1.0)
    grade = (rng.random(picked.shape) < 0.6 * top).astype(int) * rng.integers(1, 4, picked.shape)
    qrels = pd.DataFrame({
        "query_id": np.repeat(queries, picked.shape[1]),
        "doc_id": np.take_along_axis(doc_names, picked, axis=1).ravel(),
        "relevance": grade.ravel(),
    }).drop_duplicates(["query_id", "doc_id"], ignore_index=True)
    return qrels, run


def peak_memory_mb(function, *args) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        function(*args)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def to_pytrec_dicts(qrels: pd.DataFrame, run: pd.DataFrame):
    qrels_dict: dict[str, dict[str, int]] = {}
    for q, d, r in zip(qrels.query_id, qrels.doc_id, qrels.relevance.tolist(), strict=True):
        qrels_dict.setdefault(q, {})[d] = r
    run_dict: dict[str, dict[str, float]] = {}
    for q, d, s in zip(run.query_id, run.doc_id, run.score.tolist(), strict=True):
        run_dict.setdefault(q, {})[d] = s
    return qrels_dict, run_dict


def ranx_objects(qrels: pd.DataFrame, run: pd.DataFrame):
    import ranx

    ranx_qrels = ranx.Qrels.from_df(qrels.astype(AS_OBJECT), q_id_col="query_id",
                                    doc_id_col="doc_id", score_col="relevance")
    ranx_run = ranx.Run.from_df(run.astype(AS_OBJECT), q_id_col="query_id",
                                doc_id_col="doc_id", score_col="score")
    return ranx_qrels, ranx_run


def ranx_evaluate(ranx_qrels, ranx_run, threads: int = 0):
    import ranx

    # ranx's defaults. make_comparable=True would add ranx's sort of the whole run to every
    # call (Run.make_comparable re-sorts it); it is not needed here, since the qrels and the
    # run hold the same queries, which evaluate checks (check_keys) before it computes.
    return ranx.evaluate(ranx_qrels, ranx_run, list(RANX.values()), threads=threads)


def ranx_warm_up(qrels: pd.DataFrame, run: pd.DataFrame) -> None:
    """numba compiles (or loads) ranx's kernels on a first call: make it on two whole queries,
    held by both the qrels and the run as ranx's defaults require."""
    first = run["query_id"].unique()[:2]
    ranx_evaluate(*ranx_objects(qrels[qrels["query_id"].isin(first)],
                                run[run["query_id"].isin(first)]))


def pytrec_from_frames(qrels: pd.DataFrame, run: pd.DataFrame):
    import pytrec_eval

    qrels_dict, run_dict = to_pytrec_dicts(qrels, run)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels_dict, set(TREC.values()))
    return evaluator.evaluate(run_dict)


# ---------------------------------------------------------------------------------------------
# Peak resident memory, one tool per fresh process
# ---------------------------------------------------------------------------------------------


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def measure_rss(tool: str, n_queries: int, shape: str) -> dict[str, float]:
    """Run one tool once, in this (fresh) process; its peak RSS above the RSS before the call."""
    qrels, run = make_data(n_queries, shape=shape)
    prebuilt = None
    if tool == "ranx alone":
        prebuilt = ranx_objects(qrels, run)
        ranx_warm_up(qrels, run)  # compile or load
    elif tool.startswith("ranx"):
        ranx_warm_up(qrels, run)
    calls = {
        "evalkit": lambda: ek.evaluate(qrels, run, METRICS),
        "ranx alone": lambda: ranx_evaluate(*prebuilt),
        "ranx from frames": lambda: ranx_evaluate(*ranx_objects(qrels, run)),
        "pytrec_eval from frames": lambda: pytrec_from_frames(qrels, run),
    }
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak (VmHWM) to the current RSS
    before = _status_kb("VmRSS")
    calls[tool]()
    return {"peak_mb": (_status_kb("VmHWM") - before) / 1024}


def rss_in_subprocess(tool: str, n_queries: int, shape: str) -> float:
    if not Path("/proc/self/clear_refs").exists():
        return float("nan")
    out = subprocess.run(
        [sys.executable, __file__, "--rss", tool, "--sizes", str(n_queries), "--shapes", shape],
        capture_output=True, text=True, check=False,
    )
    try:
        return json.loads(out.stdout.strip().splitlines()[-1])["peak_mb"]
    except (ValueError, IndexError, KeyError):
        print_note(f"  ({tool}: memory not measured: {out.stderr.strip()[-300:]})")
        return float("nan")


# ---------------------------------------------------------------------------------------------
# Side by side at one size
# ---------------------------------------------------------------------------------------------


def compare(n_queries: int, shape: str = "sparse") -> list[list[str]]:
    label = SHAPES[shape]
    print(f"\n== {label}: {n_queries:,} queries x {RETRIEVED:,} documents ==", flush=True)
    qrels, run = make_data(n_queries, shape=shape)
    print(f"run: {len(run):,} rows; qrels: {len(qrels):,} judgements "
          f"({(qrels.relevance > 0).sum():,} relevant)", flush=True)
    record_sizes({f"{label}, {n_queries:,} queries":
                  f"run {len(run):,} rows ({RETRIEVED:,} per query); qrels {len(qrels):,} "
                  f"judgements ({(qrels.relevance > 0).sum():,} relevant)"})

    rows = []
    evalkit_time = best_time(ek.evaluate, qrels, run, METRICS, repeats=5, budget=30)
    ours = ek.evaluate(qrels, run, METRICS).mean()
    rows.append(("evalkit.evaluate, from DataFrames", evalkit_time,
                 peak_memory_mb(ek.evaluate, qrels, run, METRICS),
                 rss_in_subprocess("evalkit", n_queries, shape), 0.0))

    def add(name, seconds, memory, rss, scores):
        diff = max(abs(float(scores[m]) - float(ours[m])) for m in METRICS)
        rows.append((name, seconds, memory, rss, diff))

    one_thread(lambda: add(EVALKIT_ONE_THREAD,
                           best_time(ek.evaluate, qrels, run, METRICS, repeats=5, budget=30),
                           float("nan"), float("nan"), ek.evaluate(qrels, run, METRICS).mean()))

    try:
        import ranx

        ranx_qrels, ranx_run = ranx_objects(qrels, run)
        result = ranx_evaluate(ranx_qrels, ranx_run)  # may compile (numba caches on disk)
        scores = {m: result[RANX[m]] for m in METRICS}
        add("ranx, evaluate alone (compiled, prebuilt)",
            best_time(ranx_evaluate, ranx_qrels, ranx_run, repeats=5, budget=30),
            float("nan"), rss_in_subprocess("ranx alone", n_queries, shape), scores)
        add(RANX_ONE_THREAD,
            best_time(ranx_evaluate, ranx_qrels, ranx_run, threads=1, repeats=5, budget=30),
            float("nan"), float("nan"), scores)
        import numba  # ranx's threads=1 stays set in numba: back to all of them

        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        del ranx_qrels, ranx_run
        add("ranx, Qrels/Run from DataFrames + evaluate",
            best_time(lambda: ranx_evaluate(*ranx_objects(qrels, run)), repeats=2, budget=60),
            peak_memory_mb(lambda: ranx_evaluate(*ranx_objects(qrels, run))),
            rss_in_subprocess("ranx from frames", n_queries, shape), scores)
        print(f"  ranx {getattr(ranx, '__version__', '')} done", flush=True)
    except ImportError:
        print_note("ranx not installed: skipped (make bench installs it)")

    try:
        import pytrec_eval

        result = pd.DataFrame(pytrec_from_frames(qrels, run)).T.mean()
        scores = {m: result[TREC[m]] for m in METRICS}
        add("pytrec_eval, incl. dicts from DataFrames",
            best_time(pytrec_from_frames, qrels, run, repeats=2, budget=60),
            peak_memory_mb(pytrec_from_frames, qrels, run),
            rss_in_subprocess("pytrec_eval from frames", n_queries, shape), scores)
        qrels_dict, run_dict = to_pytrec_dicts(qrels, run)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels_dict, set(TREC.values()))
        add("pytrec_eval, evaluate alone", best_time(evaluator.evaluate, run_dict, repeats=2,
            budget=30), float("nan"), float("nan"), scores)
        del qrels_dict, run_dict, evaluator
        print("  pytrec_eval done", flush=True)
    except ImportError:
        print_note("pytrec_eval not installed: skipped (pip install pytrec-eval-terrier)")

    if n_queries <= 5_000 and shape == "sparse":
        try:
            import ir_measures

            measures = [ir_measures.parse_measure(m) for m in METRICS]
            ir_qrels = qrels.astype({"relevance": int})

            def ir_measures_call():
                return ir_measures.calc_aggregate(measures, ir_qrels, run)

            result = ir_measures_call()
            scores = {m: result[ir_measures.parse_measure(m)] for m in METRICS}
            add("ir_measures.calc_aggregate, DataFrames", best_time(ir_measures_call, repeats=1,
                budget=60), float("nan"), float("nan"), scores)
        except ImportError:
            print_note("ir_measures not installed: skipped (make bench installs it)")
    else:
        print_note(f"ir_measures skipped ({label}, {n_queries:,} queries: too slow)")

    print_note(f"evalkit's means ({label}, {n_queries:,} queries): {ours.round(4).to_dict()}")
    times = {name: seconds for name, seconds, *_ in rows}
    ranx_ratio = times.get("ranx, evaluate alone (compiled, prebuilt)", np.nan) / evalkit_time
    pytrec_ratio = times.get("pytrec_eval, incl. dicts from DataFrames", np.nan) / evalkit_time
    data = f"{label}, {n_queries:,} queries x {RETRIEVED:,}"
    one_thread_ratio = (times.get(RANX_ONE_THREAD, np.nan)
                        / times.get(EVALKIT_ONE_THREAD, np.nan))
    print_note(f"On one thread each ({data}), ranx's bare evaluate takes {one_thread_ratio:.2f}x "
               "evalkit's time.")
    record_goal("evaluate: ratio to ranx's bare evaluate", data, ranx_ratio, GOAL_RANX)
    record_goal("evaluate: ratio to pytrec_eval incl. dicts", data, pytrec_ratio, GOAL_PYTREC)
    return [
        [label, f"{n_queries:,}", name, f"{seconds:.3f}", f"{seconds / evalkit_time:.2f}x",
         "-" if np.isnan(memory) else f"{memory:,.0f}",
         "-" if np.isnan(rss) else f"{max(rss, 0.0):,.0f}", f"{diff:.1e}"]
        for name, seconds, memory, rss, diff in rows
    ]


# ---------------------------------------------------------------------------------------------
# The family of shapes: what changes evaluate's speed, one thing at a time
# ---------------------------------------------------------------------------------------------

#: The family's base: 1,000 queries x 1,000 retrieved, 70 judged documents scattered among
#: them and 30 never retrieved, no ties, short doc ids unique to each query, ranked rows,
#: object columns (one object per distinct id; "object copies": one per row). Each shape
#: changes what its name says (issue 33).
FAMILY_BASE = {"queries": 1_000, "depth": 1_000, "order": "ranked", "judged": "scattered",
               "ties": "none", "ids": "short", "storage": "object"}
FAMILY = {
    "base: 10^3 queries, ranked, scattered, unique short ids": {},
    "shuffled within queries": {"order": "shuffled"},
    "queries interleaved": {"order": "interleaved"},
    "deep pool judged on top": {"judged": "top"},
    "many ties": {"ties": "many"},
    "long ids": {"ids": "long"},
    "shared ids, shuffled": {"ids": "shared", "order": "shuffled"},
    "shared ids, interleaved": {"ids": "shared", "order": "interleaved"},
    "pyarrow str, shared, shuffled": {"ids": "shared", "order": "shuffled",
                                      "storage": "pyarrow"},
    "pyarrow str, shared, interleaved": {"ids": "shared", "order": "interleaved",
                                         "storage": "pyarrow"},
    "python str, shared, shuffled": {"ids": "shared", "order": "shuffled",
                                     "storage": "python"},
    "python str, shared, interleaved": {"ids": "shared", "order": "interleaved",
                                        "storage": "python"},
    "object copies, shared, shuffled": {"ids": "shared", "order": "shuffled",
                                        "storage": "object copies"},
    "object copies, shared, interleaved": {"ids": "shared", "order": "interleaved",
                                           "storage": "object copies"},
    "10^4 queries x 300": {"queries": 10_000, "depth": 300},
    "10^5 queries x 50": {"queries": 100_000, "depth": 50},
    "issue 33: 5,000 x 1,000, shared, shuffled": {"queries": 5_000, "ids": "shared",
                                                  "order": "shuffled"},
    "issue 33: 5,000 x 1,000, shared, shuffled, pyarrow": {
        "queries": 5_000, "ids": "shared", "order": "shuffled", "storage": "pyarrow"},
    "issue 33: 5,000 x 1,000, shared, shuffled, object copies": {
        "queries": 5_000, "ids": "shared", "order": "shuffled", "storage": "object copies"},
}
#: Pairs of shapes holding the same rows, interleaved and grouped by query: the goal is the
#: interleaved one taking at most GOAL_INTERLEAVED times as long.
INTERLEAVED_PAIRS = {"queries interleaved": "shuffled within queries",
                     "shared ids, interleaved": "shared ids, shuffled",
                     "pyarrow str, shared, interleaved": "pyarrow str, shared, shuffled",
                     "python str, shared, interleaved": "python str, shared, shuffled",
                     "object copies, shared, interleaved": "object copies, shared, shuffled"}
GOAL_INTERLEAVED = 1.2
#: Fresh processes per pair; the goal is judged on the median of their ratios. One process's
#: ratio moved by 0.2-0.4 from one process to the next on the same code (shared ids: 1.04-1.47x
#: over 8 processes; where the objects of its ids happened to lie in memory was one cause), and
#: the median of 3 by 0.05 between two benches of the same code: 7 (about 25 s a pair).
PAIR_PROCESSES = 7


def family_data(spec: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Qrels and run of one shape of the family (see FAMILY_BASE); seeded."""
    spec = {**FAMILY_BASE, **spec}
    n_queries, depth = spec["queries"], spec["depth"]
    if QUICK:
        n_queries = max(n_queries // 10, 100)
    judged_retrieved, judged_elsewhere = min(70, depth // 2), 30
    rng = np.random.default_rng(33)
    queries = np.array([f"q{i}" for i in range(n_queries)], dtype=object)
    width = depth + judged_elsewhere
    if spec["ids"] == "shared":  # each query's documents drawn from one shared vocabulary
        vocabulary = np.array([f"doc{i}" for i in range(200_000)], dtype=object)
        offset = rng.integers(0, vocabulary.size, size=(n_queries, 1))
        picked = rng.permutation(vocabulary.size)[(offset + 7 * np.arange(width)) % 200_000]
        names = vocabulary[picked]
    else:
        start = rng.integers(0, 10_000_000, size=(n_queries, 1))
        numbers = (start + 13 * np.arange(width)).astype(str)
        prefix = "doc" if spec["ids"] == "short" else "msmarco_passage_01_clueweb22-en00"
        names = np.char.add(prefix, numbers).astype(object)
    scores = np.sort(rng.random((n_queries, depth)).astype(np.float32), axis=1)[:, ::-1]
    if spec["ties"] == "many":
        scores = np.round(scores * 64) / 64  # about 16 documents tie at each score
    if spec["judged"] == "top":  # a pool of depth 100 (or the whole list when shorter)
        pool = min(POOL_DEPTH, depth)
        picked = np.broadcast_to(np.arange(pool), (n_queries, pool))
        grade = (rng.random(picked.shape) < POOL_RELEVANT) * rng.integers(1, 4, picked.shape)
    else:
        ranks = np.argsort(rng.random((n_queries, depth)), axis=1)[:, :judged_retrieved]
        picked = np.concatenate(
            [ranks, depth + np.arange(judged_elsewhere)[None, :].repeat(n_queries, 0)], axis=1)
        grade = (rng.random(picked.shape) < 0.3) * rng.integers(1, 4, picked.shape)
    qrels = pd.DataFrame({
        "query_id": family_column(np.repeat(queries, picked.shape[1]), spec["storage"]),
        "doc_id": family_column(np.take_along_axis(names, picked, axis=1).ravel(),
                                spec["storage"]),
        "relevance": grade.ravel(),
    })
    rows = np.arange(n_queries * depth)
    if spec["order"] == "shuffled":
        rows = (np.argsort(rng.random((n_queries, depth)), axis=1)
                + depth * np.arange(n_queries)[:, None]).ravel()
    elif spec["order"] == "interleaved":  # the rows of "shuffled", then mixed across queries
        rows = (np.argsort(rng.random((n_queries, depth)), axis=1)
                + depth * np.arange(n_queries)[:, None]).ravel()[rng.permutation(rows.size)]
    run = pd.DataFrame({
        "query_id": family_column(np.repeat(queries, depth)[rows], spec["storage"]),
        "doc_id": family_column(names[:, :depth].ravel()[rows], spec["storage"]),
        "score": scores.astype(np.float64).ravel()[rows],
    })
    return qrels, run


def family_column(values: np.ndarray, storage: str) -> Any:
    if storage == "object":
        return pd.Series(values, dtype=object)
    if storage == "object copies":  # one str object per row, as .astype(object) of a str column
        return pd.Series(np.asarray(values, dtype=str).astype(object), dtype=object)
    if storage == "python":
        return pd.array(values, dtype=pd.StringDtype("python"))
    return pd.array(values, dtype=pd.StringDtype("pyarrow"))


def _interleaved_best(calls: dict, repeats: int) -> dict[str, float]:
    """Best wall time of each call, the calls taken in turn (A, B, C, A, B, C, ...): a load
    that comes and goes on a shared machine touches all of them alike."""
    best = {name: float("inf") for name in calls}
    gc.collect()
    for _ in range(repeats):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def family_shape(name: str, spec: dict) -> tuple[list[str], dict[str, float]]:
    """One shape of the family: its row of the table and the times."""
    import numba

    qrels, run = family_data(spec)
    full = {**FAMILY_BASE, **spec}
    # Best of 7-11 rounds: on a shared 2-core machine a round moves by 20% or more, and a best
    # of 3-5 still moved the ratios by 0.2 between runs of one checkout.
    repeats = 7 if len(run) > 2_000_000 else 11
    ranx_qrels, ranx_run = ranx_objects(qrels, run)
    ranx_warm_up(qrels, run)  # each shape runs in a fresh process: numba loads again
    ours = ek.evaluate(qrels, run, METRICS).mean()
    result = ranx_evaluate(ranx_qrels, ranx_run)  # ranx sorts its run on the first call
    ranx_diff = max(abs(result[RANX[m]] - ours[m]) for m in METRICS)

    def ranx_one_thread():
        ranx_evaluate(ranx_qrels, ranx_run, threads=1)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)  # back to all of them

    times = _interleaved_best({
        "evalkit": lambda: ek.evaluate(qrels, run, METRICS),
        "ranx": lambda: ranx_evaluate(ranx_qrels, ranx_run),
        "evalkit, one thread": lambda: one_thread(ek.evaluate, qrels, run, METRICS),
        "ranx, one thread": ranx_one_thread,
    }, repeats)
    start = time.perf_counter()
    trec = pytrec_from_frames(qrels, run)  # pytrec_eval runs on one thread
    times["pytrec_eval"] = time.perf_counter() - start
    trec_means = pd.DataFrame(trec).T.mean()
    trec_diff = max(abs(trec_means[TREC[m]] - ours[m]) for m in METRICS)
    data = f"{name}: {len(run) // full['depth']:,} queries x {full['depth']:,}, {full['storage']}"
    for threads, evalkit_key, ranx_key in (("default threads", "evalkit", "ranx"),
                                           ("one thread", "evalkit, one thread",
                                            "ranx, one thread")):
        record_goal(f"evaluate ({threads}): ratio to ranx's bare evaluate", data,
                    times[ranx_key] / times[evalkit_key], GOAL_RANX)
        record_goal(f"evaluate ({threads}): ratio to pytrec_eval incl. dicts", data,
                    times["pytrec_eval"] / times[evalkit_key], GOAL_PYTREC)
    row = [name, f"{len(run):,}", full["storage"], f"{times['evalkit']:.3f}",
           f"{times['evalkit, one thread']:.3f}", f"{times['ranx']:.3f}",
           f"{times['ranx, one thread']:.3f}", f"{times['pytrec_eval']:.2f}",
           f"{times['ranx'] / times['evalkit']:.2f}x",
           f"{times['ranx, one thread'] / times['evalkit, one thread']:.2f}x",
           f"{times['pytrec_eval'] / times['evalkit']:.1f}x",
           f"{ranx_diff:.1e}", f"{trec_diff:.1e}"]
    return row, times


def _in_subprocess(*arguments: str) -> Any:
    """This script run with ``arguments`` in a fresh process: what it printed before its last
    line is printed here, and its last line (JSON) is returned, read."""
    out = subprocess.run([sys.executable, __file__, *arguments],
                         capture_output=True, text=True, check=False)
    lines = out.stdout.strip().splitlines()
    if out.returncode or not lines:
        raise RuntimeError(f"{' '.join(arguments)} failed:\n{out.stdout}\n{out.stderr}")
    if len(lines) > 1:
        print("\n".join(lines[:-1]), flush=True)
    return json.loads(lines[-1])


def family_shape_in_subprocess(name: str) -> list[str]:
    """:func:`family_shape` in a fresh process (see the module's docstring): its goals are
    recorded and printed there; its row comes back as the last line of its output."""
    return _in_subprocess("--family-shape", name)["row"]


def interleaved_pair(interleaved: str, grouped: str) -> dict[str, float]:
    """evalkit on the two shapes of a pair (the same rows, interleaved and grouped by query),
    side by side in one process, taken in turn (best of 11), on the default threads and on
    one: their ratio is then not moved by a load that differs between two processes."""
    data = {name: family_data(FAMILY[name]) for name in (interleaved, grouped)}
    for qrels, run in data.values():
        pd.testing.assert_frame_equal(ek.evaluate(qrels, run, METRICS),
                                      one_thread(ek.evaluate, qrels, run, METRICS))
    calls = {}
    for name, (qrels, run) in data.items():
        calls[name] = lambda q=qrels, r=run: ek.evaluate(q, r, METRICS)
        calls[f"{name}, one thread"] = (
            lambda q=qrels, r=run: one_thread(ek.evaluate, q, r, METRICS))
    return _interleaved_best(calls, 11)


def interleaved_pair_in_subprocess(interleaved: str, grouped: str) -> dict[str, float]:
    """:func:`interleaved_pair` in a fresh process (as each shape of the family runs)."""
    return _in_subprocess("--interleaved-pair", interleaved, grouped)


def family(names: list[str]) -> None:
    """Each shape of FAMILY: evalkit against ranx's bare evaluate and pytrec_eval with its
    dicts, on the default threads and on one; goals recorded per shape."""
    try:
        import pytrec_eval  # noqa: F401
        import ranx  # noqa: F401
    except ImportError:
        print_note("family of shapes skipped: ranx or pytrec_eval not installed")
        return
    shapes = {name: spec for name, spec in FAMILY.items() if not names or name in names}
    print(f"\n== family of shapes ({len(shapes)}), load average {os.getloadavg()[0]:.2f} ==",
          flush=True)
    rows = []
    for name in shapes:
        rows.append(family_shape_in_subprocess(name))
        print(f"  {name} done (load average {os.getloadavg()[0]:.2f})", flush=True)
    pair_rows = []
    for interleaved, grouped in INTERLEAVED_PAIRS.items():
        if interleaved in shapes and grouped in shapes:
            rounds = [interleaved_pair_in_subprocess(interleaved, grouped)
                      for _ in range(PAIR_PROCESSES)]
            row = [f"{interleaved} / {grouped}"]
            for threads, suffix in (("default threads", ""), ("one thread", ", one thread")):
                ratios = [times[interleaved + suffix] / times[grouped + suffix]
                          for times in rounds]
                median = float(np.median(ratios))
                middle = rounds[int(np.argmin(np.abs(np.subtract(ratios, median))))]
                record_goal(f"evaluate ({threads}): interleaved / grouped time, median of "
                            f"{PAIR_PROCESSES} processes", f"{interleaved} / {grouped}",
                            median, GOAL_INTERLEAVED, at_most=True)
                row += [f"{middle[interleaved + suffix]:.3f}", f"{middle[grouped + suffix]:.3f}",
                        f"{median:.2f}x", f"{min(ratios):.2f}-{max(ratios):.2f}x"]
            pair_rows.append(row)
    if pair_rows:
        print()
        print_table(["interleaved / grouped", "interleaved s", "grouped s", "ratio (median)",
                     "range", "interleaved 1 thread s", "grouped 1 thread s",
                     "ratio, one thread (median)", "range, one thread"],
                    pair_rows, title=f"Interleaved against grouped rows: evalkit on both shapes "
                                     f"of a pair side by side in one process (best of 11, "
                                     f"taken in turn), in {PAIR_PROCESSES} fresh processes: "
                                     f"the median ratio, the range, and the times of the "
                                     f"process nearest the median")
    print()
    print_table(["shape", "run rows", "ids", "evalkit s", "evalkit 1 thread s", "ranx bare s",
                 "ranx 1 thread s", "pytrec_eval incl. dicts s", "ranx / evalkit",
                 "same, one thread", "pytrec_eval / evalkit", "ranx |mean diff|",
                 "pytrec_eval |mean diff|"], rows,
                title="The family of shapes: evaluate against ranx's bare evaluate and "
                      "pytrec_eval with its dicts (seconds, best of 7-11 interleaved runs; "
                      "pytrec_eval one run)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=list(SHAPES))
    parser.add_argument("--family", nargs="*", default=None,
                        help="only the family of shapes (all, or those named)")
    parser.add_argument("--no-family", action="store_true", help="skip the family of shapes")
    parser.add_argument("--rss", help=argparse.SUPPRESS)  # internal: one tool, one process
    parser.add_argument("--family-shape", help=argparse.SUPPRESS)  # internal: one shape
    parser.add_argument("--interleaved-pair", nargs=2, help=argparse.SUPPRESS)  # internal
    args = parser.parse_args()
    if args.interleaved_pair:
        print(json.dumps(interleaved_pair(*args.interleaved_pair)))
        return
    if args.rss:
        print(json.dumps(measure_rss(args.rss, args.sizes[0], args.shapes[0])))
        return
    if args.family_shape:
        row, times = family_shape(args.family_shape, FAMILY[args.family_shape])
        print(json.dumps({"row": row, "times": times}))
        return
    print(f"evalkit from {Path(ek.__file__).parent}; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.2f}")
    if args.family is not None:
        family(args.family)
        return
    rows = [row for shape in args.shapes for n_queries in args.sizes
            for row in compare(n_queries, shape)]
    header = ["judgements", "queries", "tool", "seconds", "speed-up (tool / evalkit)",
              "peak MB, tracemalloc", "peak MB, RSS", "max |mean diff| vs evalkit"]
    print()
    print_table(header, rows, title="evalkit.evaluate against ranx, pytrec_eval and ir_measures "
                                    "(seconds, best of a few runs; six measures)")
    for shape in args.shapes:
        peak = rss_in_subprocess("evalkit", RSS_SIZE, shape)
        record_goal("evaluate: peak RSS", f"{SHAPES[shape]}, {RSS_SIZE:,} queries x "
                    f"{RETRIEVED:,}", peak, GOAL_PEAK_MB, unit=" MB", at_most=True)
    if not args.no_family:
        family([])


if __name__ == "__main__":
    main()
