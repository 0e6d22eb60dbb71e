"""evalkit.evaluate against ranx, pytrec_eval and ir_measures on one synthetic run, in one process.

The data: 10,000 queries x 1,000 retrieved documents (10 million run rows), about 100 judged
documents per query (70 of them retrieved), graded 0-3, scores float32-representable (so
pytrec_eval, which stores float32, ranks exactly as the others). Every tool computes the same
six measures: AP, nDCG@10, RR, P@10, Rprec and R@100.

Rows, each timed as the best of a few runs:

- evalkit, from the qrels and run DataFrames (everything included);
- ranx: Qrels/Run built from the DataFrames, then `evaluate`; and `evaluate` alone on the
  prebuilt Qrels/Run with numba's compilation excluded (a warm-up call first). Its first
  call in a fresh process also compiles, unless numba's on-disk cache already holds it;
- pytrec_eval: building its dict-of-dicts input from the DataFrames plus `evaluate`, and
  `evaluate` alone;
- ir_measures: `calc_aggregate` on the DataFrames.

The ratio column is the tool's time / evalkit's time (2.0x: evalkit twice as fast). Peak
memory is the peak of Python-tracked allocations (numpy and pandas buffers included; memory
that C/C++ extensions allocate themselves, as pytrec_eval does, is not seen by tracemalloc).

Run with `make bench` or `python benchmarks/bench_ranking.py`; EVALKIT_BENCH_QUICK=1 runs
1,000 queries instead.
"""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_time, print_table  # noqa: E402

import evalkit as ek  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
N_QUERIES = 1_000 if QUICK else 10_000
RETRIEVED = 1_000
JUDGED_RETRIEVED, JUDGED_ELSEWHERE = 70, 30
METRICS = ["AP", "nDCG@10", "RR", "P@10", "Rprec", "R@100"]
RANX = {"AP": "map", "nDCG@10": "ndcg@10", "RR": "mrr", "P@10": "precision@10",
        "Rprec": "r-precision", "R@100": "recall@100"}
TREC = {"AP": "map", "nDCG@10": "ndcg_cut_10", "RR": "recip_rank", "P@10": "P_10",
        "Rprec": "Rprec", "R@100": "recall_100"}


def make_data(seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run ranked as a system writes it, and qrels that judge ~100 documents per query."""
    rng = np.random.default_rng(seed)
    queries = np.array([f"q{i}" for i in range(N_QUERIES)], dtype=object)
    # Document numbers unique within each query: a random start and a fixed stride.
    start = rng.integers(0, 10_000_000, size=(N_QUERIES, 1))
    numbers = start + 13 * np.arange(RETRIEVED + JUDGED_ELSEWHERE)[None, :]
    doc_names = np.char.add("doc", numbers.astype(str)).astype(object)

    scores = np.sort(rng.random((N_QUERIES, RETRIEVED)).astype(np.float32), axis=1)[:, ::-1]
    scores = np.round(scores * 4096) / 4096  # some ties, as real systems produce
    run = pd.DataFrame({
        "query_id": np.repeat(queries, RETRIEVED),
        "doc_id": doc_names[:, :RETRIEVED].ravel(),
        "score": scores.ravel().astype(np.float64),
        "run_id": "synthetic",
    })

    # Judged: 70 retrieved documents (more relevant near the top) and 30 never retrieved.
    ranks = np.sort(rng.choice(RETRIEVED, size=(N_QUERIES, JUDGED_RETRIEVED)) , axis=1)
    picked = np.concatenate(
        [ranks, RETRIEVED + np.arange(JUDGED_ELSEWHERE)[None, :].repeat(N_QUERIES, 0)], axis=1)
    top = np.clip(1.0 - picked / RETRIEVED, 0.05, 1.0)
    grade = (rng.random(picked.shape) < 0.6 * top).astype(int) * rng.integers(1, 4, picked.shape)
    qrels = pd.DataFrame({
        "query_id": np.repeat(queries, picked.shape[1]),
        "doc_id": np.take_along_axis(doc_names, picked, axis=1).ravel(),
        "relevance": grade.ravel(),
    }).drop_duplicates(["query_id", "doc_id"], ignore_index=True)
    return qrels, run


def peak_memory_mb(function, *args) -> float:
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


def main() -> None:
    print(f"generating {N_QUERIES:,} queries x {RETRIEVED:,} documents ...", flush=True)
    qrels, run = make_data()
    print(f"run: {len(run):,} rows; qrels: {len(qrels):,} judgements "
          f"({(qrels.relevance > 0).sum():,} relevant)\n", flush=True)

    rows = []
    evalkit_time = best_time(ek.evaluate, qrels, run, METRICS, repeats=3, budget=60)
    ours = ek.evaluate(qrels, run, METRICS).mean()
    rows.append(("evalkit.evaluate, from DataFrames", evalkit_time,
                 peak_memory_mb(ek.evaluate, qrels, run, METRICS), 0.0))

    def add(name, seconds, memory, scores):
        diff = max(abs(float(scores[m]) - float(ours[m])) for m in METRICS)
        rows.append((name, seconds, memory, diff))

    try:
        import pytrec_eval

        def pytrec_from_frames():
            qrels_dict, run_dict = to_pytrec_dicts(qrels, run)
            evaluator = pytrec_eval.RelevanceEvaluator(qrels_dict, set(TREC.values()))
            return evaluator.evaluate(run_dict)

        qrels_dict, run_dict = to_pytrec_dicts(qrels, run)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels_dict, set(TREC.values()))
        result = pd.DataFrame(evaluator.evaluate(run_dict)).T.mean()
        scores = {m: result[TREC[m]] for m in METRICS}
        add("pytrec_eval, incl. dicts from DataFrames",
            best_time(pytrec_from_frames, repeats=2, budget=120),
            peak_memory_mb(pytrec_from_frames), scores)
        add("pytrec_eval, evaluate alone", best_time(evaluator.evaluate, run_dict, repeats=2,
            budget=60), float("nan"), scores)
        del qrels_dict, run_dict, evaluator
    except ImportError:
        print("pytrec_eval not installed: skipped (pip install pytrec-eval-terrier)")

    try:
        import ranx

        # ranx insists on object columns; pandas 3 makes string columns `str`.
        as_object = {"query_id": object, "doc_id": object}

        def ranx_from_frames():
            ranx_qrels = ranx.Qrels.from_df(qrels.astype(as_object), q_id_col="query_id",
                                            doc_id_col="doc_id", score_col="relevance")
            ranx_run = ranx.Run.from_df(run.astype(as_object), q_id_col="query_id",
                                        doc_id_col="doc_id", score_col="score")
            return ranx.evaluate(ranx_qrels, ranx_run, list(RANX.values()), make_comparable=True)

        start = time.perf_counter()
        first = ranx_from_frames()  # may compile (unless numba's disk cache has it)
        first_call = time.perf_counter() - start
        ranx_qrels = ranx.Qrels.from_df(qrels.astype(as_object), q_id_col="query_id",
                                        doc_id_col="doc_id", score_col="relevance")
        ranx_run = ranx.Run.from_df(run.astype(as_object), q_id_col="query_id",
                                    doc_id_col="doc_id", score_col="score")
        scores = {m: first[RANX[m]] for m in METRICS}
        add("ranx, first call from DataFrames (may compile)", first_call, float("nan"), scores)
        add("ranx, Qrels/Run from DataFrames + evaluate",
            best_time(ranx_from_frames, repeats=2, budget=120),
            peak_memory_mb(ranx_from_frames), scores)
        add("ranx, evaluate alone (compiled, prebuilt)",
            best_time(lambda: ranx.evaluate(ranx_qrels, ranx_run, list(RANX.values()),
                                            make_comparable=True), repeats=3, budget=60),
            float("nan"), scores)
    except ImportError:
        print("ranx not installed: skipped (make bench installs it)")

    try:
        import ir_measures

        measures = [ir_measures.parse_measure(m) for m in METRICS]
        ir_qrels = qrels.astype({"relevance": int})

        def ir_measures_call():
            return ir_measures.calc_aggregate(measures, ir_qrels, run)

        result = ir_measures_call()
        scores = {m: result[ir_measures.parse_measure(m)] for m in METRICS}
        add("ir_measures.calc_aggregate, DataFrames", best_time(ir_measures_call, repeats=2,
            budget=120), float("nan"), scores)
    except ImportError:
        print("ir_measures not installed: skipped (make bench installs it)")

    header = ["tool", "seconds", "ratio to evalkit", "peak MB (tracemalloc)",
              "max |mean diff| vs evalkit"]
    print_table(header, [
        [name, f"{seconds:.3f}", f"{seconds / evalkit_time:.2f}x",
         "-" if np.isnan(memory) else f"{memory:,.0f}", f"{diff:.1e}"]
        for name, seconds, memory, diff in rows
    ])
    print("\nevalkit's means:", ours.round(4).to_dict())


if __name__ == "__main__":
    main()
