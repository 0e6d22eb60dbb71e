"""Small timing helpers shared by the benchmarks: best-of-N wall time and a ratio table."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


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


def format_row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(cell.rjust(width) if i else cell.ljust(width)
                     for i, (cell, width) in enumerate(zip(cells, widths, strict=True)))


def print_table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print(format_row(header, widths))
    print(format_row(["-" * w for w in widths], widths))
    for row in rows:
        print(format_row([str(c) for c in row], widths))
