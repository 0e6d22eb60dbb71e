"""Work split in pieces, and the threads that run the pieces.

numpy releases the GIL in most of its loops (its sorts among them), so a few threads overlap
the pieces' numpy work with each other and with the parts that hold it (joining ids into
text); ``EVALKIT_THREADS`` sets how many. :func:`_for_each` runs many pieces (the TREC
engine's pieces of whole queries), :func:`_both` two calls side by side (the curves' two
sorts, one per class). Their worker threads are made once and kept (see :func:`_workers`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

__all__: list[str] = []

_First = TypeVar("_First")
_Second = TypeVar("_Second")
# Smaller jobs run on the calling thread: handing one to a worker costs about what it saves
# (on an Intel Xeon with 2 vCPUs, two sorts of 10^4 floats took 69 us in turn and 88 us side
# by side; of 2**16 floats, 829 and 386 us).
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
    its loops, so threads overlap those with the parts that need it.

    The calling thread takes items too, beside ``threads - 1`` kept workers (see
    :func:`_workers`), each taking the next item in turn. An error stops the items not yet
    taken; once the items taken finish, the error of the first item (in the order of
    ``items``) that raised one is raised here, as a loop over them would raise it. Called
    from a worker (one item of another :func:`_for_each` or :func:`_both`), the items run
    in turn there: the threads are taken already."""
    threads = _threads()
    if threads == 1 or len(items) < 4 or _in_worker():
        for item in items:
            function(item)
        return
    lock = threading.Lock()
    numbered = iter(enumerate(items))
    failed: list[tuple[int, BaseException]] = []

    def take_items() -> None:
        while True:
            with lock:
                if failed:
                    return
                index, item = next(numbered, (-1, None))
            if index < 0:
                return
            try:
                function(item)
            except BaseException as error:  # raised in the caller's thread, below
                with lock:
                    failed.append((index, error))
                return

    pool = _workers(threads - 1)
    helpers = [pool.submit(take_items) for _ in range(threads - 1)]
    take_items()
    for helper in helpers:
        # A helper still queued (the workers busy with another caller's items) finds no
        # item left: it is cancelled rather than waited for.
        if not helper.cancel():
            helper.result()
    if failed:
        raise min(failed, key=lambda numbered_error: numbered_error[0])[1]


def _both_in_parallel(size: int) -> bool:
    """Whether :func:`_both` runs its two calls, on a job of ``size`` items, side by side."""
    return size >= _BOTH_MIN and _threads() > 1


def _both(first: Callable[[], _First], second: Callable[[], _Second], *,
          size: int) -> tuple[_First, _Second]:
    """``(first(), second())``, the two calls side by side when there are several CPUs and
    the job is large (``size`` items, at least ``_BOTH_MIN``): ``first`` in a kept worker
    (see :func:`_workers`), ``second`` in the calling thread, and ``first`` there too if no
    worker took it meanwhile. The calls must touch disjoint data; an error in either is
    raised here, once both have stopped."""
    if not _both_in_parallel(size) or _in_worker():
        return first(), second()
    pending = _workers(1).submit(first)
    try:
        second_result = second()
    except BaseException:
        if not pending.cancel():
            pending.exception()  # waits for it to stop (its own error is let go)
        raise
    if pending.cancel():  # no worker free: the caller runs it
        return first(), second_result
    return pending.result(), second_result


# The pools of worker threads, by number of workers: made when first needed and kept, as
# a pool made for each call cost 0.28 ms more a call (on an Intel Xeon with 2 vCPUs, 380
# against 100 us to hand 4 empty items to 2 threads). A forked child, whose copy of a pool
# has no threads, makes its own.
_pools: dict[int, Any] = {}
_pools_lock = threading.Lock()
_worker = threading.local()


def _workers(size: int) -> Any:
    """The kept pool of ``size`` worker threads (a ``ThreadPoolExecutor``)."""
    with _pools_lock:
        pool = _pools.get(size)
        if pool is None:
            from concurrent.futures import ThreadPoolExecutor

            pool = _pools[size] = ThreadPoolExecutor(
                max_workers=size, thread_name_prefix="evalkit", initializer=_mark_worker)
        return pool


def _mark_worker() -> None:
    _worker.marked = True


def _in_worker() -> bool:
    """Whether this thread is one of the kept workers."""
    return getattr(_worker, "marked", False)


def _forget_pools() -> None:
    global _pools_lock
    _pools.clear()
    _pools_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools)
