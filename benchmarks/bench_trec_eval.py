"""`evalkit trec_eval` against the C trec_eval 10.0, end to end: whole processes on the same files.

The data, written to a temporary folder: TREC-shaped runs of 10⁵, 10⁶, 2·10⁶ and 10⁷ lines
(500 MB; 2 runs each there, 5 below), grouped by query as systems write them, 1,000 documents per
query ranked by score, doc ids like ``clueweb09-en0003-47-01234``; qrels with 100 judgements per
query (70 of the retrieved documents, scattered, and 30 not retrieved), grades 0-2.

Each tool runs as a process of its own (``trec_eval -q QRELS RUN``, and ``python -m evalkit
trec_eval -q QRELS RUN`` with this checkout first on PYTHONPATH), stdout to a file; the
runs alternate (C, evalkit, C, ...) and the best wall time of a few is kept; "peak MB" is
the process's maximum resident set size (``os.wait4``'s ru_maxrss). The two outputs must be
the same bytes. Start-up is part of the race: a Python process spends a few tenths of a
second importing numpy and pandas before it reads a line, which the C program does not.

The goals (issue 33): "ratio" = C's time / evalkit's time >= 1.0 from 10⁶ lines (the issue's
2·10⁶-line run among them), and evalkit's peak RSS at most 400 MB on the 2·10⁶-line run. At
10⁵ lines the ratio is reported, not a goal: the C program's whole run there (0.1-0.14 s)
is about as long as a Python process that only starts and imports numpy (the "start-up
floor", which the bench measures and prints beside it), so a Python command would have to
import, read, score and print 10⁵ lines in the few tens of milliseconds left. The C program
is found by the environment variable EVALKIT_TREC_EVAL (or TREC_EVAL, as the tests name
it), else ``trec_eval`` on PATH; without one the bench says so and skips the comparison.

Before that, with or without the C program: ``ek.evaluate(qrels_path, run_path, ...)`` on a
run of 14·10⁶ lines (~750 MB, 14,000 queries; its qrels 1.4·10⁶ lines), in a process of its
own: the run is streamed query block by query block, and the goal is a peak RSS of at most
500 MB (the issue: "a 700 MB run in well under 600 MB").

Run with `make bench` or `python benchmarks/bench_trec_eval.py`; EVALKIT_BENCH_QUICK=1 runs
10⁵ and 10⁶ lines only; `--sizes 100000 2000000` picks sizes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE), str(HERE.parent / "tools")]
from _timing import count, print_note, print_table, record_goal, record_sizes  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
DOCS_PER_QUERY = 1000
JUDGED_RETRIEVED, JUDGED_ELSEWHERE = 70, 30
RSS_GOAL_MB, RSS_GOAL_LINES = 400, 2_000_000
GOAL_MIN_LINES = 10**6  # below, the ratio is reported beside the start-up floor (see above)
FLOOR_CODE = "import numpy"
# ek.evaluate given the run's path streams it (issue 33: "a 700 MB run in well under 600 MB";
# "well under" is taken as 100 MB below). 14·10⁶ lines of this shape are ~750 MB.
STREAM_LINES = 10**6 if QUICK else 14 * 10**6
STREAM_GOAL_MB = 500
STREAM_CODE = ("import sys, evalkit as ek; "
               "scores = ek.evaluate(sys.argv[1], sys.argv[2], ['AP', 'nDCG@10', 'P@10', 'RR']); "
               "print(len(scores), scores.mean().round(4).to_dict())")


def find_trec_eval() -> str | None:
    """The C trec_eval 10.0: $EVALKIT_TREC_EVAL, $TREC_EVAL, or trec_eval on PATH."""
    for variable in ("EVALKIT_TREC_EVAL", "TREC_EVAL"):
        path = os.environ.get(variable)
        if path and os.access(path, os.X_OK):
            return path
    return shutil.which("trec_eval")


def _doc_names(numbers: np.ndarray) -> list[str]:
    return [f"clueweb09-en{n // 1_000_000:04d}-{n // 10_000 % 100:02d}-{n % 10_000:05d}"
            for n in numbers.tolist()]


def write_collection(n_lines: int, folder: Path, seed: int = 0) -> tuple[Path, Path]:
    """A grouped run of ``n_lines`` lines and its qrels (see the module's documentation)."""
    rng = np.random.default_rng(seed)
    run_path, qrels_path = folder / f"run{n_lines}", folder / f"qrels{n_lines}"
    n_queries = max(n_lines // DOCS_PER_QUERY, 1)
    ranks = np.arange(1, DOCS_PER_QUERY + 1)
    with open(run_path, "w") as run, open(qrels_path, "w") as qrels:
        for q in range(n_queries):
            query = str(301 + q)
            names = _doc_names(rng.choice(50_000_000, DOCS_PER_QUERY + JUDGED_ELSEWHERE,
                                          replace=False))
            scores = np.sort(rng.random(DOCS_PER_QUERY))[::-1] * 30
            run.write("".join(f"{query} Q0 {d} {r} {s:.6f} bench\n" for d, r, s in
                              zip(names, ranks.tolist(), scores.tolist(), strict=False)))
            judged = rng.choice(DOCS_PER_QUERY, JUDGED_RETRIEVED, replace=False)
            docs = [names[i] for i in judged] + names[DOCS_PER_QUERY:]
            grades = rng.choice(3, len(docs), p=[0.7, 0.2, 0.1])
            qrels.write("".join(f"{query} 0 {d} {g}\n"
                                for d, g in zip(docs, grades.tolist(), strict=True)))
    return qrels_path, run_path


def run_once(argv: list[str], out: Path, env: dict[str, str] | None = None
             ) -> tuple[float, float, int]:
    """(wall seconds, peak RSS in MB, exit code) of one process, stdout to ``out``."""
    with open(out, "wb") as stdout:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, process.returncode


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = [10**5, 10**6] if QUICK else [10**5, 10**6, 2 * 10**6, 10**7]
    parser.add_argument("--sizes", type=int, nargs="+", default=default)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    binary = find_trec_eval()
    record_sizes({"run lines": ", ".join(count(n) for n in args.sizes),
                  "shape": f"{DOCS_PER_QUERY:,} docs per query, "
                           f"{JUDGED_RETRIEVED + JUDGED_ELSEWHERE} judged per query"})
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(HERE.parent), *filter(None, [os.environ.get("PYTHONPATH")])]))
    streamed_memory(env)
    if binary is None:
        print_note("trec_eval not found (set EVALKIT_TREC_EVAL to a trec_eval 10.0 binary): "
                   "the comparison with it skipped")
        return
    ours_argv = [sys.executable, "-m", "evalkit", "trec_eval", "-q"]
    rows: list[list[str]] = []
    below: list[tuple[int, float, float]] = []  # (lines, C s, evalkit s) below the goals
    with tempfile.TemporaryDirectory() as folder:
        folder_path = Path(folder)
        for n_lines in args.sizes:
            qrels, run = write_collection(n_lines, folder_path)
            repeats = args.repeats if n_lines <= 2 * 10**6 else max(2, args.repeats // 2)
            c_times, ek_times, c_peak, ek_peak = [], [], 0.0, 0.0
            for _ in range(repeats):  # alternate: both see the same load
                wall, peak, code_c = run_once([binary, "-q", str(qrels), str(run)],
                                              folder_path / "c.out")
                c_times.append(wall)
                c_peak = max(c_peak, peak)
                wall, peak, code_ek = run_once([*ours_argv, str(qrels), str(run)],
                                               folder_path / "ek.out", env)
                ek_times.append(wall)
                ek_peak = max(ek_peak, peak)
            c_out, ek_out = ((folder_path / name).read_bytes() for name in ("c.out", "ek.out"))
            same = code_c == code_ek and c_out == ek_out
            if not same:  # the ratio is not measured: say why (another trec_eval release?)
                from fuzz_trec_eval import first_difference  # tools/: imports evalkit

                print_note(f"{count(n_lines)} lines: the two processes differ (exit codes {code_c} "
                           f"and {code_ek}); {first_difference(c_out, ek_out)}. Is {binary} "
                           "trec_eval 10.0 (git tag v10.0)? The older tag 10.0-rc2, of 2023, "
                           "counts iprec_at_recall's relevant documents as 9.0.8 does.")
            ratio = min(c_times) / min(ek_times)
            size_mb = run.stat().st_size / 2**20
            rows.append([count(n_lines), f"{size_mb:,.0f}", f"{min(c_times):.2f}",
                         f"{min(ek_times):.2f}", f"{ratio:.2f}x", f"{c_peak:,.0f}",
                         f"{ek_peak:,.0f}", "yes" if same else "NO"])
            data = f"{count(n_lines)} run lines, -q"
            if n_lines >= GOAL_MIN_LINES:
                record_goal("ratio C trec_eval 10.0 time / evalkit trec_eval time, end to end",
                            data, ratio if same else float("nan"), 1.0)
            else:
                below.append((n_lines, min(c_times), min(ek_times)))
            if n_lines == RSS_GOAL_LINES:
                record_goal("evalkit trec_eval peak RSS", data, ek_peak, RSS_GOAL_MB,
                            unit=" MB", at_most=True)
            run.unlink()
            qrels.unlink()
    print_table(["run lines", "run MB", "C s", "evalkit s", "ratio", "C peak MB",
                 "evalkit peak MB", "same output"], rows,
                title=f"\nevalkit trec_eval against {binary} (whole processes, best of "
                      f"{args.repeats}; ratio = C time / evalkit time)")
    if below:
        with tempfile.TemporaryDirectory() as folder:
            floor = min(run_once([sys.executable, "-c", FLOOR_CODE], Path(folder) / "out",
                                 env)[0] for _ in range(args.repeats))
        for n_lines, c_time, ek_time in below:
            print_note(floor_note(n_lines, c_time, ek_time, floor, args.repeats))


def floor_note(n_lines: int, c_time: float, ek_time: float, floor: float,
               repeats: int) -> str:
    """The note on a size below the goals: the ratio, and the C program's time against the
    start-up floor (a Python process that only imports numpy) and evalkit's beyond it.

    >>> floor_note(10**5, 0.105, 0.216, 0.085, 5)[:60]
    '10⁵ lines: the ratio (0.49x) is reported, not a goal. The C '
    """
    ratio = f"{count(n_lines)} lines: the ratio ({c_time / ek_time:.2f}x) is reported, not a goal."
    floor_text = (f"a Python process that only runs `{FLOOR_CODE}` takes {floor:.3f} s (best "
                  f"of {repeats}: the start-up floor)")
    if floor >= c_time:
        return (f"{ratio} The C program's whole run takes {c_time:.3f} s and {floor_text}, so "
                f"no Python command can match it; evalkit's work beyond that floor takes "
                f"{ek_time - floor:.3f} s.")
    return (f"{ratio} The C program's whole run takes {c_time:.3f} s and {floor_text}: that "
            f"leaves {c_time - floor:.3f} s to import the command and read, score and print "
            f"{count(n_lines)} lines, where evalkit's work beyond the floor takes "
            f"{ek_time - floor:.3f} s.")


def streamed_memory(env: dict[str, str]) -> None:
    """Peak memory of ``ek.evaluate(qrels_path, run_path, ...)`` in a process of its own:
    the run is read query block by query block, so its size should not matter."""
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = write_collection(STREAM_LINES, Path(folder))
        wall, peak, code = run_once([sys.executable, "-c", STREAM_CODE, str(qrels), str(run)],
                                    Path(folder) / "out", env)
        size_mb = run.stat().st_size / 2**20
        qrels_lines = sum(1 for _ in open(qrels, "rb"))
        printed = (Path(folder) / "out").read_text().strip()
    data = (f"{count(STREAM_LINES)} run lines ({size_mb:,.0f} MB), "
            f"qrels of {qrels_lines:,} lines")
    record_goal("ek.evaluate on a run file path (streamed): peak RSS", data,
                peak if code == 0 else float("nan"), STREAM_GOAL_MB, unit=" MB", at_most=True)
    print_table(["run lines", "run MB", "qrels lines", "seconds", "peak RSS MB", "exit code",
                 "queries scored, means"],
                [[count(STREAM_LINES), f"{size_mb:,.0f}", f"{qrels_lines:,}", f"{wall:.1f}",
                  f"{peak:,.0f}", str(code), printed]],
                title="\nek.evaluate(qrels_path, run_path, 4 measures), whole process "
                      "(import of numpy and pandas included)")


if __name__ == "__main__":
    main()
