"""The threads that run evalkit's pieces of work (evalkit._threads): every item run once,
the error a loop would raise, no deadlock when calls nest or come from several threads, and
a forked child that makes its own workers."""

import multiprocessing
import threading
import time

import pytest

from evalkit import _threads


@pytest.fixture(params=["1", "2", "4"])
def threads(request, monkeypatch):
    monkeypatch.setenv("EVALKIT_THREADS", request.param)
    return int(request.param)


def test_each_item_runs_once(threads):
    seen = [0] * 1_000
    where = set()

    def count(item):
        seen[item] += 1
        where.add(threading.get_ident())

    _threads._for_each(count, range(1_000))
    assert seen == [1] * 1_000
    if threads == 1:
        assert where == {threading.get_ident()}


def test_the_first_failing_item_in_order_is_raised(threads):
    def fail_late_then_early(item):
        if item == 30:
            time.sleep(0.005)  # item 31, on another thread, fails first
            raise ValueError("item 30 failed")
        if item == 31:
            raise ValueError("item 31 failed")

    for _ in range(5):
        with pytest.raises(ValueError, match="^item 30 failed$"):
            _threads._for_each(fail_late_then_early, range(100))


def test_an_error_stops_the_items_not_yet_taken(monkeypatch):
    monkeypatch.setenv("EVALKIT_THREADS", "2")
    ran = []

    def fail_first(item):
        ran.append(item)
        if item == 0:
            raise KeyError("first")

    with pytest.raises(KeyError):
        _threads._for_each(fail_first, range(10_000))
    assert 0 in ran and len(ran) < 10_000


def test_calls_nested_in_a_worker_run_there(threads):
    total = [0] * 8

    def outer(item):
        inner = []
        _threads._for_each(inner.append, range(10))
        first, second = _threads._both(lambda: sum(inner), lambda: len(inner), size=1 << 20)
        total[item] = first + second

    _threads._for_each(outer, range(8))
    assert total == [55] * 8


def test_callers_on_several_threads_share_the_workers(threads):
    results = {}

    def caller(k):
        out = [0] * 200
        _threads._for_each(lambda i: out.__setitem__(i, i * k), range(200))
        first, second = _threads._both(lambda: k, lambda: -k, size=1 << 20)
        results[k] = (sum(out), first, second)

    callers = [threading.Thread(target=caller, args=(k,)) for k in range(6)]
    for thread in callers:
        thread.start()
    for thread in callers:
        thread.join(timeout=60)
    assert results == {k: (k * 199 * 200 // 2, k, -k) for k in range(6)}


def test_both_runs_the_first_call_itself_when_no_worker_is_free(monkeypatch):
    monkeypatch.setenv("EVALKIT_THREADS", "2")
    release = threading.Event()
    busy = _threads._workers(1).submit(release.wait, 30)  # the one worker, held
    try:
        ran_in = []
        result = _threads._both(lambda: ran_in.append(threading.get_ident()) or "first",
                                lambda: "second", size=1 << 20)
        assert result == ("first", "second")
        assert ran_in == [threading.get_ident()]  # not waiting for the held worker
    finally:
        release.set()
    assert busy.result(timeout=30)


def _items_and_threads():
    """The items run, and on how many threads: each item sleeps 2 ms, so a worker that
    exists takes some of the 200."""
    seen, where = [], set()

    def slow(item):
        time.sleep(0.002)
        seen.append(item)
        where.add(threading.get_ident())

    _threads._for_each(slow, range(200))
    return sorted(seen) == list(range(200)), len(where)


def _count_in_child(queue):
    queue.put(_items_and_threads())


def test_a_forked_child_makes_its_own_workers(monkeypatch):
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    monkeypatch.setenv("EVALKIT_THREADS", "2")
    assert _items_and_threads() == (True, 2)  # the parent's worker exists, and works
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_count_in_child, args=(queue,))
    child.start()
    try:
        assert queue.get(timeout=60) == (True, 2)  # the child's own worker took items
    finally:
        child.join(timeout=60)
    assert child.exitcode == 0
