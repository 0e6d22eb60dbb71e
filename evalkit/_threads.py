"""Work split in pieces, and the threads that run the pieces.

numpy releases the GIL in most of its loops (its sorts among them), so a few threads overlap
the pieces' numpy work with each other and with the parts that hold it (joining ids into
text); ``EVALKIT_THREADS`` sets how many. :func:`_for_each` runs many pieces (the TREC
engine's pieces of whole queries), :func:`_both` two calls side by side (the curves' two
sorts, one per class).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

__all__: list[str] = []

_First = TypeVar("_First")
_Second = TypeVar("_Second")
# Smaller jobs run on the calling thread: starting a thread costs about 0.1 ms, what numpy
# takes to sort some 10^4 floats.
_BOTH_MIN = 1 << 16


def _pieces_between(starts: np.ndarray, n: int, size: int) -> list[tuple[int, int]]:
    """Row ranges of about ``size`` of ``n`` rows, each cut at one of ``starts`` (where the
    blocks of one query's rows start)."""
    if n <= size:
        return [(0, n)]
    at = np.searchsorted(starts, np.arange(size, n, size))
    bounds = np.unique(np.r_[0, starts[at[at < starts.size]], n]).tolist()
    return list(zip(bounds[:-1], bounds[1:], strict=True))


def _threads() -> int:
    """Threads for work split in chunks: ``EVALKIT_THREADS`` if set, else the CPUs this
    process may use, at most 4 (the part that holds the GIL, joining ids, would keep more
    waiting)."""
    setting = os.environ.get("EVALKIT_THREADS", "").strip()
    if setting:
        if not setting.isdigit() or int(setting) < 1:
            raise ValueError(f"the environment variable EVALKIT_THREADS must be a whole number "
                             f">= 1 (threads evalkit may use); got {setting!r}")
        return int(setting)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, cpus or 1))


def _chunk_rows(several: int, alone: int) -> int:
    """Rows a chunk of work: ``several`` when evalkit may use several threads (chunks then run
    side by side, and the shorter their numpy loops, the longer each thread waits for the GIL
    between them), at most ``alone`` on one thread (a chunk small enough to stay in a core's
    L2)."""
    return several if _threads() > 1 else min(several, alone)


def _for_each(function: Callable[[Any], None], items: Sequence[Any]) -> None:
    """``function(item)`` for each item; in parallel threads when there are several CPUs and
    at least 4 items. The items must touch disjoint data. numpy releases the GIL in most of
    its loops, so threads overlap those with the parts that need it."""
    threads = _threads()
    if threads == 1 or len(items) < 4:
        for item in items:
            function(item)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for _ in pool.map(function, items):  # re-raises the first error
            pass


def _both_in_parallel(size: int) -> bool:
    """Whether :func:`_both` runs its two calls, on a job of ``size`` items, side by side."""
    return size >= _BOTH_MIN and _threads() > 1


def _both(first: Callable[[], _First], second: Callable[[], _Second], *,
          size: int) -> tuple[_First, _Second]:
    """``(first(), second())``, the two calls side by side on two threads when there are
    several CPUs and the job is large (``size`` items, at least ``_BOTH_MIN``). The calls must
    touch disjoint data; an error in either is raised here."""
    if not _both_in_parallel(size):
        return first(), second()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(first)
        second_result = second()
        return pending.result(), second_result
