"""Small timing helpers shared by the benchmarks: best-of-N wall time and a ratio table.

Every table goes through `print_table`, every line worth keeping (a summary such as "slowest
ratio ...", a tool that was skipped) through `print_note`, every goal with its measured value
through `record_goal`, and each script states the data sizes it used with `record_sizes`. Run
on its own, a script just prints. When the environment variable EVALKIT_BENCH_RECORD names a
file (`benchmarks/run_all.py` sets it, one file per script), the same calls also write each
record as one JSON line to that file, so that the records made before a crash survive it; the
driver turns them into benchmarks/RESULTS.md.
"""

from __future__ import annotations

import gc
import json
import os
import time
from collections.abc import Callable
from typing import Any

RECORD_ENV = "EVALKIT_BENCH_RECORD"


def best_time(
    function: Callable[..., Any], *args: Any, repeats: int = 5, budget: float = 20.0, **kwargs: Any
) -> float:
    """Best wall time of ``repeats`` calls of ``function(*args, **kwargs)``.

    Stops early once the calls together took ``budget`` seconds.
    """
    times = []
    gc.collect()
    for _ in range(repeats):
        start = time.perf_counter()
        function(*args, **kwargs)
        times.append(time.perf_counter() - start)
        if sum(times) > budget:
            break
    return min(times)


def ratio_rounds(ours: Callable[[], Any], theirs: Callable[[], Any], *, rounds: int = 5,
                 repeats: int = 3) -> list[float]:
    """``rounds`` measurements of theirs' time / ours, each from its own interleaved calls.

    Each round times the two alternately (A, B, A, B, ...; which one starts alternates from
    round to round), ``repeats`` calls each, and divides their best times. A goal that must
    hold "stable over repeated runs" is judged on the worst round, not the best.
    """
    ratios = []
    for round_ in range(rounds):
        best = [float("inf"), float("inf")]
        order = (0, 1) if round_ % 2 == 0 else (1, 0)
        gc.collect()
        for _ in range(repeats):
            for which in order:
                start = time.perf_counter()
                (ours, theirs)[which]()
                best[which] = min(best[which], time.perf_counter() - start)
        ratios.append(best[1] / best[0])
    return ratios


def one_thread(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` with ``EVALKIT_THREADS=1`` (evalkit on one thread), the variable
    set back as it was afterwards."""
    setting = os.environ.get("EVALKIT_THREADS")
    os.environ["EVALKIT_THREADS"] = "1"
    try:
        return function(*args)
    finally:
        if setting is None:
            del os.environ["EVALKIT_THREADS"]
        else:
            os.environ["EVALKIT_THREADS"] = setting


def _record(entry: dict[str, Any]) -> None:
    path = os.environ.get(RECORD_ENV)
    if not path:
        return
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps(entry) + "\n")


def format_row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(cell.rjust(width) if i else cell.ljust(width)
                     for i, (cell, width) in enumerate(zip(cells, widths, strict=True)))


def print_table(header: list[str], rows: list[list[Any]], title: str | None = None, *,
                section: str | None = None) -> None:
    """Print ``rows`` under ``header`` in aligned columns (after ``title``, if given).

    With ``section``, RESULTS.md shows the table in a top-level section of that name, after
    the goals (the regression table against the last release), not in the script's own.
    """
    rows = [[str(cell) for cell in row] for row in rows]
    header = [str(cell) for cell in header]
    if title is not None:
        print(title)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print(format_row(header, widths))
    print(format_row(["-" * w for w in widths], widths))
    for row in rows:
        print(format_row(row, widths))
    entry = {"kind": "table", "title": None if title is None else title.strip(),
             "header": header, "rows": rows}
    if section is not None:
        entry["section"] = section
    _record(entry)


def print_note(text: str) -> None:
    """Print a line worth keeping in the results: a summary, a skipped tool, a caveat."""
    print(text)
    _record({"kind": "note", "text": text.strip()})


def record_goal(what: str, data: str, measured: float, goal: float, *, unit: str = "x",
                at_most: bool = False) -> bool:
    """Print and record one goal with its measured value; returns whether it is met.

    ``what`` names the measurement (``"ratio to scipy, kendall_tau (b)"``), ``data`` the data
    it was measured on. The goal is ``measured >= goal``, or ``<=`` with ``at_most``; a NaN
    (a tool that was not installed) meets nothing. RESULTS.md gathers these in one table.
    """
    met = bool(measured <= goal if at_most else measured >= goal)  # False for NaN
    digits = 0 if unit.strip() == "MB" else 2
    shown = "not measured" if measured != measured else f"{measured:,.{digits}f}{unit}"
    bound = f"{'<=' if at_most else '>='} {goal:g}{unit}"
    print(f"goal {bound}: {what} ({data}): {shown}, {'met' if met else 'NOT MET'}")
    _record({"kind": "goal", "what": what, "data": data, "measured": shown, "goal": bound,
             "met": met})
    return met


def record_sizes(sizes: dict[str, Any]) -> None:
    """Record the data sizes a benchmark used (label -> description); prints nothing."""
    _record({"kind": "sizes", "sizes": {str(k): str(v) for k, v in sizes.items()}})


def count(n: int) -> str:
    """10⁶ for a power of ten from 10³ up, else the number with thousands separators."""
    exponent = len(str(n)) - 1
    if n >= 1000 and n == 10**exponent:
        return "10" + str(exponent).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{n:,}"
