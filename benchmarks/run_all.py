"""Run every benchmarks/bench_*.py and write benchmarks/RESULTS.md (what `make bench` does).

Each script runs in its own subprocess, one after the other, so that a failing script does
not stop the others and memory measurements start from a clean process. The scripts print to
the console as when run on their own; their tables, notes and data sizes also go, through
benchmarks/_timing.py, to a JSON-lines file per script (the environment variable
EVALKIT_BENCH_RECORD names it). At the end this driver writes RESULTS.md: the machine, the
package versions, and for each script its description, data sizes, tables and notes.

    python benchmarks/run_all.py                         # every script, full size
    python benchmarks/run_all.py --quick                 # every script with EVALKIT_BENCH_QUICK=1
    python benchmarks/run_all.py --quick-for bench_ranking   # that one quick, the others full
    python benchmarks/run_all.py --only bench_stats --out /tmp/RESULTS.md
    python benchmarks/run_all.py --timeout 900           # a full run over 15 min: rerun quick

The children see this checkout first on PYTHONPATH, so they time this checkout's evalkit.
"""

from __future__ import annotations

import argparse
import ast
import collections
import datetime as dt
import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
from _timing import RECORD_ENV  # noqa: E402  (the variable the scripts' records follow)

QUICK_ENV = "EVALKIT_BENCH_QUICK"

# (label, distribution name, import name): the packages whose versions the header lists.
PACKAGES = [
    ("numpy", "numpy"),
    ("scipy", "scipy"),
    ("pandas", "pandas"),
    ("scikit-learn", "scikit-learn"),
    ("statsmodels", "statsmodels"),
    ("pytrec_eval", "pytrec-eval-terrier"),
    ("ranx", "ranx"),
    ("ir_measures", "ir-measures"),
    ("pycm", "pycm"),
]

HOW_TO_READ = (
    "**How to read this.** ratio = the other tool's time / evalkit's time: above 1 means "
    "evalkit is faster (2.0x: twice as fast). Times are best-of-N wall times, every tool "
    "called on the same data in one process, input validation included."
)


# ---------------------------------------------------------------------------------------------
# What the header says: the machine, the software, the scripts
# ---------------------------------------------------------------------------------------------


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # not available on this platform
        return []


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def machine_info() -> dict[str, Any]:
    """CPU model, cores, RAM, OS and Python of this machine."""
    cpu = re.search(r"^model name\s*:\s*(.+)$", _read("/proc/cpuinfo"), re.M)
    memory = re.search(r"^MemTotal:\s*(\d+) kB", _read("/proc/meminfo"), re.M)
    available = re.search(r"^MemAvailable:\s*(\d+) kB", _read("/proc/meminfo"), re.M)
    os_name = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', _read("/etc/os-release"), re.M)
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = None
    return {
        "cpu": cpu.group(1).strip() if cpu else (platform.processor() or "unknown"),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "ram_gib": int(memory.group(1)) / 2**20 if memory else None,
        "available_gib": int(available.group(1)) / 2**20 if available else None,
        "os": f"{os_name.group(1) if os_name else platform.system()}, "
              f"{platform.system()} {platform.release()} {platform.machine()}",
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "numpy_sort": numpy_sort_speed(),
        "sort_route": evalkit_sort_route(),
    }


def numpy_sort_speed() -> str:
    """How fast numpy sorts on this CPU, which moves evaluate's figures: best of 5 sorts of
    10^6 random uint64, and the SIMD targets numpy dispatches to. numpy's AVX-512 sort
    leans on a compress-store that AMD Zen 4 runs in microcode: there it takes ~50 ms,
    against ~6 ms on Intel CPUs with AVX-512 and ~16 ms with AVX2 only."""
    import numpy as np

    keys = np.random.default_rng(0).integers(0, 2**63, 10**6, dtype=np.uint64)
    best = float("inf")
    for _ in range(5):
        copy = keys.copy()
        start = time.perf_counter()
        copy.sort()
        best = min(best, time.perf_counter() - start)
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
        wide = [name for name in ("AVX512_SPR", "AVX512_ICL", "AVX512F", "AVX2")
                if features.get(name)]
    except ImportError:  # another numpy layout: the time alone
        wide = []
    targets = f" (numpy finds {', '.join(wide[:2])})" if wide else ""
    return f"{best * 1e3:.1f} ms{targets}"


def evalkit_sort_route() -> str:
    """What evalkit._sorting measures faster on this CPU (each bench process measures it
    again; Kendall, Spearman and the binary AUC follow it)."""
    try:
        from evalkit import _sorting
    except ImportError:
        return "not measured (evalkit not importable)"
    argsort = ("a radix sort" if _sorting._radix_wins() else "numpy's default argsort")
    merge = "the stable sort" if _sorting.merge_kind() == "stable" else "numpy's default sort"
    return (f"argsorts of {_sorting.RADIX_MIN:,}+ items by {argsort}; merges of long runs by "
            f"{merge}")


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                             timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def evalkit_version() -> str:
    """The version of this checkout's evalkit (read, not imported) and its git commit."""
    match = re.search(r'^__version__\s*=\s*["\']([^"\']+)', _read(str(REPO / "evalkit" /
                                                                      "__init__.py")), re.M)
    version = match.group(1) if match else "unknown"
    commit = _git("rev-parse", "--short", "HEAD")
    if commit:
        changed = _git("status", "--porcelain", "--", "evalkit")
        version += f" (git {commit}{', with uncommitted changes in evalkit/' if changed else ''})"
    return version


def package_versions() -> dict[str, str]:
    versions = {"evalkit": evalkit_version()}
    for label, distribution in PACKAGES:
        try:
            versions[label] = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            versions[label] = "not installed"
    if versions["pytrec_eval"] != "not installed":
        versions["pytrec_eval"] += " (pytrec-eval-terrier)"
    return versions


def description(script: Path) -> str:
    """The first paragraph of the script's module docstring, as one line."""
    try:
        docstring = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
    except SyntaxError:
        return ""
    return " ".join(docstring.strip().split("\n\n")[0].split())


# ---------------------------------------------------------------------------------------------
# Running the scripts
# ---------------------------------------------------------------------------------------------


def read_records(path: Path) -> list[dict[str, Any]]:
    records = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:  # a line cut short by a crash
                continue
    return records


def _child_env(record_file: Path, quick: bool) -> dict[str, str]:
    env = dict(os.environ)
    env[RECORD_ENV] = str(record_file)
    if quick:
        env[QUICK_ENV] = "1"
    else:
        env.pop(QUICK_ENV, None)
    # This checkout's evalkit first, and _timing importable from any scripts folder.
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO), str(HERE)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def _stop(process: subprocess.Popen) -> None:
    """Stop the script and whatever it started (it runs in its own process group)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def run_script(script: Path, quick: bool, workdir: Path,
               timeout: float | None = None) -> dict[str, Any]:
    """Run one script in a subprocess; its records, exit status, duration and stderr's tail.

    stdout goes straight to the console; stderr is relayed there too, its last lines kept.
    """
    record_file = workdir / f"{script.stem}{'-quick' if quick else ''}.jsonl"
    record_file.unlink(missing_ok=True)
    tail: collections.deque[str] = collections.deque(maxlen=20)
    load_before = load_average()
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, str(script)], env=_child_env(record_file, quick), cwd=str(REPO),
        stderr=subprocess.PIPE, text=True, errors="replace", start_new_session=True)

    def relay() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            sys.stderr.write(line)
            sys.stderr.flush()
            tail.append(line.rstrip("\n"))

    relay_thread = threading.Thread(target=relay, daemon=True)
    relay_thread.start()
    timed_out = False
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _stop(process)
    except KeyboardInterrupt:
        _stop(process)
        raise
    relay_thread.join(timeout=10)
    return {
        "quick": quick,
        "returncode": process.returncode,
        "timed_out": timed_out,
        "seconds": time.perf_counter() - start,
        "load_before": load_before,
        "load_after": load_average(),
        "stderr_tail": list(tail),
        "records": read_records(record_file),
    }


def run_all(scripts: list[Path], quick_for: set[str], workdir: Path,
            timeout: float | None = None) -> list[dict[str, Any]]:
    results = []
    for script in scripts:
        quick = script.stem in quick_for
        print(f"== {script.name}{' (quick)' if quick else ''}", flush=True)
        result = run_script(script, quick, workdir, timeout=timeout if not quick else None)
        if result["timed_out"]:
            print(f"== {script.name}: stopped after {result['seconds']:.0f} s; "
                  "running it again with EVALKIT_BENCH_QUICK=1", flush=True)
            stopped = result
            result = run_script(script, True, workdir)
            result["note"] = (f"The full run was stopped after "
                              f"{format_duration(stopped['seconds'])} (over the --timeout); "
                              "these are the numbers of a quick run.")
        results.append({"name": script.name, "description": description(script), **result})
    return results


# ---------------------------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------------------------


def format_duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def _load(values: list[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values) if values else "unknown"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


_NUMBER = re.compile(r"^[-+]?[\d,.]+(e[-+]?\d+)?x?$|^[-–]$|^$", re.I)


def markdown_table(header: list[str], rows: list[list[Any]]) -> str:
    """A Markdown table; columns holding only numbers (1.5, 2e+06, 3.1x, -) align right."""
    rows = [[_cell(c) for c in row] + [""] * (len(header) - len(row)) for row in rows]
    align = []
    for i in range(len(header)):
        column = [row[i] for row in rows]
        numeric = bool(column) and any(column) and all(_NUMBER.match(c) for c in column)
        align.append("---:" if numeric and i else "---")
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _mode(script: dict[str, Any]) -> str:
    return "quick (EVALKIT_BENCH_QUICK=1)" if script["quick"] else "full"


def _status(script: dict[str, Any]) -> str:
    if script["returncode"] == 0:
        return "ok"
    if script.get("timed_out"):
        return "stopped (timeout)"
    return f"failed (exit code {script['returncode']})"


def render(run: dict[str, Any], scripts: list[dict[str, Any]]) -> str:
    """RESULTS.md from the run's header fields and each script's records.

    ``run``: date, machine (as `machine_info`), load_start, load_end, versions (label ->
    version), seconds. ``scripts``: as `run_all` returns them (name, description, quick,
    returncode, seconds, load_before, load_after, stderr_tail, records, optional note).
    """
    machine = run["machine"]
    quick = [s["name"] for s in scripts if s["quick"]]
    if not quick:
        kind = "full (EVALKIT_BENCH_QUICK unset: the sizes below are the full ones)"
    elif len(quick) == len(scripts):
        kind = "quick (EVALKIT_BENCH_QUICK=1 for every script: smaller data)"
    else:
        kind = (f"mixed: {', '.join(quick)} quick (EVALKIT_BENCH_QUICK=1, smaller data), "
                "the others full")
    cores = f"{machine['cores']} cores"
    if machine.get("usable_cores") and machine["usable_cores"] != machine["cores"]:
        cores += f" ({machine['usable_cores']} usable by this process)"
    ram = "RAM unknown"
    if machine.get("ram_gib"):
        ram = f"{machine['ram_gib']:.1f} GiB RAM"
        if machine.get("available_gib"):
            ram += f" ({machine['available_gib']:.1f} GiB available at the start)"

    out = [
        "# evalkit benchmark results",
        "",
        "Written by `make bench` (`python benchmarks/run_all.py`): every `benchmarks/bench_*.py`"
        " in its own process, one after the other. Run one script on its own with"
        " `python benchmarks/bench_<name>.py`.",
        "",
        HOW_TO_READ,
        "",
        "## The run",
        "",
        markdown_table(["", "value"], [
            ["Date (UTC)", run["date"]],
            ["Machine", f"{machine['cpu']}, {cores}, {ram}"],
            ["numpy's sort of 10⁶ random uint64", machine.get("numpy_sort", "not measured")],
            ["evalkit's sorts on this CPU (evalkit._sorting)",
             machine.get("sort_route", "not measured")],
            ["Load average (1 / 5 / 15 min)",
             f"{_load(run['load_start'])} at the start, {_load(run['load_end'])} at the end"],
            ["OS", machine["os"]],
            ["Python", machine["python"]],
            ["Run", kind],
            ["Total time", format_duration(run["seconds"])],
        ]),
        "",
        "Versions:",
        "",
        markdown_table(["package", "version"], list(run["versions"].items())),
        "",
        markdown_table(["script", "data", "status", "time", "load average before → after"], [
            [f"[{s['name']}](#{_anchor(s['name'])})", _mode(s), _status(s),
             format_duration(s["seconds"]),
             f"{_load(s['load_before'][:1])} → {_load(s['load_after'][:1])}"]
            for s in scripts]),
    ]
    goals = [(script["name"], record) for script in scripts for record in script["records"]
             if record.get("kind") == "goal"]
    if goals:
        missed = sum(not record["met"] for _, record in goals)
        summary = (f"{len(goals) - missed} of {len(goals)} met"
                   + (f"; **{missed} not met**." if missed else "."))
        # Honest about what the count cannot see: goals a failed script never recorded, and
        # goals measured on a quick run's smaller data.
        stopped = [s["name"] for s in scripts if s["returncode"] != 0]
        if stopped:
            summary += (f" {len(stopped)} script(s) did not finish ({', '.join(stopped)}): "
                        "goals they did not reach are not counted.")
        quick_goals = sorted({name for name, _ in goals
                              if next(s for s in scripts if s["name"] == name)["quick"]})
        if quick_goals:
            summary += (f" Measured on quick (smaller) data: {', '.join(quick_goals)}.")
        out += ["", "## Goals", "", summary, "",
                markdown_table(["script", "measured", "data", "value", "goal", "met"], [
                    [f"[{name}](#{_anchor(name)})", record["what"], record["data"],
                     record["measured"], record["goal"], "yes" if record["met"] else "**no**"]
                    for name, record in goals])]
    sections: dict[str, list[str]] = {}
    for script in scripts:
        for record in script["records"]:
            if record.get("kind") == "table" and record.get("section"):
                part = sections.setdefault(record["section"], [])
                part += [f"From [{script['name']}](#{_anchor(script['name'])}) "
                         f"({_mode(script)}).", ""]
                if record.get("title"):
                    part += [f"**{_cell(record['title'])}**", ""]
                part += [markdown_table(record["header"], record["rows"]), ""]
    for title, part in sections.items():
        out += ["", f"## {title}", "", *part]
    for script in scripts:
        out += ["", f"## {script['name']}", ""]
        if script["description"]:
            out += [script["description"], ""]
        line = (f"Run: {_mode(script)}, {format_duration(script['seconds'])}, "
                f"load average {_load(script['load_before'][:1])} → "
                f"{_load(script['load_after'][:1])}.")
        if script.get("note"):
            line += " " + script["note"]
        out += [line, ""]
        sizes = {}
        for record in script["records"]:
            if record.get("kind") == "sizes":
                sizes.update(record["sizes"])
        if sizes:
            out += ["Data sizes:", ""] + [f"- {_cell(k)}: {_cell(v)}" for k, v in sizes.items()]
            out += [""]
        tables = 0
        for record in script["records"]:
            if record.get("kind") == "table" and record.get("section"):
                tables += 1
                out += [f"(Its table is in [{_cell(record['section'])}]"
                        f"(#{_anchor(record['section'])}).)", ""]
            elif record.get("kind") == "table":
                tables += 1
                if record.get("title"):
                    out += [f"**{_cell(record['title'])}**", ""]
                out += [markdown_table(record["header"], record["rows"]), ""]
            elif record.get("kind") == "note":
                out += [f"> {_cell(record['text'])}", ""]
        if script["returncode"] != 0:
            out += [f"**{_status(script).capitalize()}.**"
                    + (" The tables above are those printed before it stopped." if tables else
                       "")]
            if script["stderr_tail"]:
                out += ["", "Last lines of its error output:", "", "```text",
                        *script["stderr_tail"], "```"]
            out += [""]
        elif not tables:
            out += ["(No table recorded.)", ""]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).rstrip() + "\n"


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def _stem(name: str) -> str:
    name = Path(name).stem
    return name if name.startswith("bench_") else f"bench_{name}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS.md",
                        help="where to write the results (default: benchmarks/RESULTS.md)")
    parser.add_argument("--scripts-dir", type=Path, default=HERE,
                        help="the folder whose bench_*.py to run (default: benchmarks/)")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="run only these scripts (bench_stats or stats)")
    parser.add_argument("--quick", action="store_true",
                        help="every script with EVALKIT_BENCH_QUICK=1 (also if it is set)")
    parser.add_argument("--quick-for", nargs="+", default=[], metavar="NAME",
                        help="these scripts with EVALKIT_BENCH_QUICK=1, the others full")
    parser.add_argument("--timeout", type=float, metavar="SECONDS",
                        help="stop a full run after this long and run the script quick instead")
    args = parser.parse_args(argv)

    scripts = sorted(args.scripts_dir.glob("bench_*.py"))
    if args.only:
        wanted = {_stem(name) for name in args.only}
        missing = wanted - {s.stem for s in scripts}
        if missing:
            parser.error(f"no such script in {args.scripts_dir}: {', '.join(sorted(missing))}")
        scripts = [s for s in scripts if s.stem in wanted]
    if not scripts:
        parser.error(f"no bench_*.py in {args.scripts_dir}")
    quick_for = {_stem(name) for name in args.quick_for}
    if args.quick or os.environ.get(QUICK_ENV) == "1":
        quick_for = {s.stem for s in scripts}

    date = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_start = load_average()
    machine = machine_info()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="evalkit-bench-") as workdir:
        results = run_all(scripts, quick_for, Path(workdir), timeout=args.timeout)
    run = {"date": date, "machine": machine, "load_start": load_start,
           "load_end": load_average(), "versions": package_versions(),
           "seconds": time.perf_counter() - start}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(run, results), encoding="utf-8")
    failed = [r["name"] for r in results if r["returncode"] != 0]
    print(f"\nWrote {args.out} ({format_duration(run['seconds'])})"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
