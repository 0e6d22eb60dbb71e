"""How long `import evalkit` takes, against `import numpy, pandas` (what it cannot do without).

Each import runs in a fresh Python process, the two alternating, several times; the table gives
the median whole-process wall time (interpreter start-up included) and the ratio. Both read
bytecode caches, as installed packages do; a note gives what compiling evalkit's sources adds
when there is no cache. `import evalkit` is lazy (PEP 562, issue 33): it loads no topic module
and neither pandas nor scipy, so on its own it takes a small share of `import numpy, pandas`.
What a user pays is the import plus the first name used, so the table also times
`import evalkit; evalkit.f1_score` (a classification metric) and `import evalkit;
evalkit.evaluate` (the TREC engine, which needs pandas). The goal (issue 23, kept honest): the
costlier of those two at most 1.3x `import numpy, pandas`. A second table lists the packages and
evalkit modules that take longest to import (`python -X importtime`, cumulative time, one run,
after `evalkit.evaluate`), the place to look when the ratio grows.

Run with `make bench` or `python benchmarks/bench_import.py`; EVALKIT_BENCH_QUICK=1 for fewer
repeats.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _timing import print_note, print_table, record_goal, record_sizes  # noqa: E402

QUICK = os.environ.get("EVALKIT_BENCH_QUICK") == "1"
REPEATS = 3 if QUICK else 9
GOAL = 1.3
STATEMENTS = {
    "numpy, pandas": "import numpy, pandas",
    "evalkit": "import evalkit",
    "evalkit; evalkit.f1_score": "import evalkit; evalkit.f1_score",
    "evalkit; evalkit.evaluate": "import evalkit; evalkit.evaluate",
}
#: The statements the goal is on: the import and a first use (the bare import loads nothing).
USED = ("evalkit; evalkit.f1_score", "evalkit; evalkit.evaluate")


def _environment() -> dict[str, str]:
    # The evalkit of this checkout, first on the path (as run_all.py gives its children).
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parent), env.get("PYTHONPATH", "")])
    # Bytecode caches, as an installed package has them: pip byte-compiles numpy and pandas
    # when it installs them, and Python writes evalkit's (an editable checkout) on the first
    # import, the warm-up below, unless PYTHONDONTWRITEBYTECODE says not to. Where that is
    # set, evalkit alone would be compiled from source on every import; the cost of that is
    # measured apart (`compile_time`).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_time() -> tuple[float, int]:
    """Seconds to compile every evalkit source file (best of 3), and how many files: what an
    import adds when no bytecode cache can be read or written."""
    sources = [(path, path.read_text(encoding="utf-8"))
               for path in sorted((HERE.parent / "evalkit").rglob("*.py"))]
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for path, text in sources:
            compile(text, str(path), "exec")
        best = min(best, time.perf_counter() - start)
    return best, len(sources)


def wall_time(statement: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], env=env, check=True)
    return time.perf_counter() - start


def import_profile(env: dict[str, str], top: int = 12) -> list[list[str]]:
    """The packages and evalkit modules that take longest in `python -X importtime -c 'import
    evalkit; evalkit.evaluate'`: cumulative time (with what each imported first), one run."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c",
                          STATEMENTS["evalkit; evalkit.evaluate"]], env=env,
                         capture_output=True, text=True, check=True)
    rows = []
    for line in out.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative_us, name = (part.strip() for part in line[12:].split("|"))
        if name.count(".") <= 1:  # packages, their subpackages and evalkit's modules
            rows.append((int(cumulative_us), int(self_us), name))
    rows.sort(reverse=True)
    return [[name, f"{cumulative_us / 1e3:.1f}", f"{self_us / 1e3:.1f}"]
            for cumulative_us, self_us, name in rows[:top]]


def main() -> None:
    env = _environment()
    record_sizes({"import": f"{REPEATS} fresh processes per statement, alternating; median"})
    for statement in STATEMENTS.values():  # warm the file cache once
        wall_time(statement, env)
    times: dict[str, list[float]] = {label: [] for label in STATEMENTS}
    for _ in range(REPEATS):
        for label, statement in STATEMENTS.items():
            times[label].append(wall_time(statement, env))
    medians = {label: statistics.median(values) for label, values in times.items()}
    baseline = medians["numpy, pandas"]
    print_table(["import", "median ms", "min ms", "ratio to numpy, pandas"],
                [[label, f"{medians[label] * 1e3:.0f}", f"{min(times[label]) * 1e3:.0f}",
                  f"{medians[label] / baseline:.2f}x"] for label in STATEMENTS],
                title="Import time, whole process (python -c 'import ...')")
    ratio = max(medians[label] for label in USED) / baseline
    record_goal("import evalkit: time over import numpy, pandas",
                f"whole process, median of {REPEATS}; import plus first use "
                "(f1_score or evaluate, the costlier)", ratio, GOAL, at_most=True)
    seconds, files = compile_time()
    print_note(f"Compiling evalkit's {files} source files takes {seconds * 1e3:.0f} ms: what "
               "an import adds when no bytecode cache is there (the first import after an "
               "edit; every import where PYTHONDONTWRITEBYTECODE=1 and the checkout has no "
               "__pycache__). numpy's and pandas' caches are written when pip installs them.")
    print_table(["package or module", "cumulative ms", "self ms"], import_profile(env),
                title="Slowest imports in `import evalkit; evalkit.evaluate` "
                      "(python -X importtime, one run)")


if __name__ == "__main__":
    main()
