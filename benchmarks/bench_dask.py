"""`ek.evaluate` on a dask DataFrame run against the same run in pandas (issue 33, part 4).

The run: queries of 1,000 ranked documents (doc ids shared across queries), 100 judged per
query, 80 of them retrieved; cut into partitions of 250,000 rows (50,000 with
EVALKIT_BENCH_QUICK) that do not respect query boundaries (a query straddles two
partitions). The partitions are made where they are computed (``dd.from_map``), as reading
files would: no run crosses from the client to the workers; each engine starts from the run
in its own memory (persisted). Times are the best of a few calls, the tools interleaved:
pandas ``evaluate`` on the whole run in memory, dask on its threaded scheduler, and a
distributed LocalCluster of 2 worker processes (1 thread each). The memory column is the
peak resident memory of the largest cluster worker (ru_maxrss, over the session).

There is no goal: on one machine whose memory holds the run, pandas is faster (dask shuffles
the run and pays its per-task costs); dask is for runs past one machine's memory. The table
says what that costs here.

Run with `make bench` or `python benchmarks/bench_dask.py`; EVALKIT_BENCH_QUICK=1 for a
smaller run.
"""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from _timing import best_time, count, print_note, print_table, record_sizes  # noqa: E402

import evalkit as ek  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
SIZES = [200_000] if QUICK else [1_000_000, 4_000_000]
DEPTH = 1_000
PARTITION = 50_000 if QUICK else 250_000
N_DOCS = 1_000_003  # prime: (row * 7919) % N_DOCS differs within a query
METRICS = ["AP", "nDCG@10", "P@10", "RR"]


def run_rows(start: int, stop: int) -> pd.DataFrame:
    """Rows start..stop of the run: query i // DEPTH, ranked by score (a pure function)."""
    row = np.arange(start, stop)
    query, position = row // DEPTH, row % DEPTH
    doc = (position * 7919 + query * 13) % N_DOCS
    return pd.DataFrame({"query_id": pd.Series(query).astype(str).to_numpy(dtype=object),
                         "doc_id": ("D" + pd.Series(doc).astype(str)).to_numpy(dtype=object),
                         "score": (DEPTH - position).astype(np.float64)})


def qrels_for(n_rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(33)
    n_queries = n_rows // DEPTH
    # 80 judged among the retrieved and 20 beyond the run's depth, per query.
    retrieved = np.argsort(rng.random((n_queries, DEPTH)), axis=1)[:, :80]
    beyond = DEPTH + np.argsort(rng.random((n_queries, 200)), axis=1)[:, :20]
    position = np.concatenate([retrieved, beyond], axis=1)
    query = np.repeat(np.arange(n_queries), position.shape[1])
    doc = (position.ravel() * 7919 + query * 13) % N_DOCS
    return pd.DataFrame({"query_id": pd.Series(query).astype(str).to_numpy(dtype=object),
                         "doc_id": ("D" + pd.Series(doc).astype(str)).to_numpy(dtype=object),
                         "relevance": rng.integers(0, 3, size=query.size)})


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    import dask
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    record_sizes({f"run {count(n)}": f"{n // DEPTH:,} queries x {DEPTH:,} rows, partitions of "
                  f"{PARTITION:,} rows cut mid-query" for n in SIZES})
    rows = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster, set_as_default=False
                                                                   ) as client:
        for n in SIZES:
            qrels = qrels_for(n)
            bounds = list(range(0, n, PARTITION)) + [n]
            frame = dd.from_map(run_rows, bounds[:-1], bounds[1:], meta=run_rows(0, 0))
            run = run_rows(0, n)
            # Each engine starts from the run in its memory, as pandas does: the threads'
            # partitions in this process, the cluster's in its workers.
            local = frame.persist(scheduler="threads")
            remote = client.persist(frame)
            expected = ek.evaluate(qrels, run, METRICS)
            pd.testing.assert_frame_equal(
                ek.evaluate(qrels, local, METRICS), expected, check_exact=False, rtol=1e-14)
            times: dict[str, list[float]] = {"pandas": [], "threads": [], "cluster": []}
            for _ in range(2 if QUICK else 3):  # interleaved: pandas, threads, cluster, ...
                times["pandas"].append(best_time(ek.evaluate, qrels, run, METRICS, repeats=1))
                with dask.config.set(scheduler="threads"):
                    times["threads"].append(best_time(ek.evaluate, qrels, local, METRICS,
                                                      repeats=1))
                with client.as_current():
                    times["cluster"].append(best_time(ek.evaluate, qrels, remote, METRICS,
                                                      repeats=1))
            worker_peak = max(client.run(_peak_mb).values())
            del local, remote
            best = {tool: min(values) for tool, values in times.items()}
            for tool, memory in (("pandas", "(this process)"), ("threads", "(this process)"),
                                 ("cluster", f"{worker_peak:,.0f} MB per worker")):
                rows.append([count(n), f"{frame.npartitions}", tool, f"{best[tool]:.2f}",
                             f"{best[tool] / best['pandas']:.2f}", memory])
    print_table(["run rows", "partitions", "engine", "best s", "x pandas", "peak memory"], rows,
                title=f"evaluate {METRICS} on a dask run (uptime {os.getloadavg()[0]:.1f})")
    print_note(f"this process's peak resident memory: {_peak_mb():,.0f} MB (it built the "
               "pandas run too)")


if __name__ == "__main__":
    main()
