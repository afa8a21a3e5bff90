"""Running work on several threads, and stopping it promptly on Ctrl-C.

Kernels release the GIL (``nogil=True``), so plain Python threads run them in
parallel.  The split depends only on the batch size and thread count, and
every chunk writes its own slice of the output, so results never depend on
the number of threads.

Interruption.  Ctrl-C raises ``KeyboardInterrupt`` in the main thread while it
waits for the workers.  The waiting call then marks its work as stopped: items
not yet started are cancelled, each worker finishes the item it is on, and
long loops inside an item call ``check_interrupt()`` between their chunks,
which raises ``Interrupted`` in a worker whose work was stopped.  The call
waits up to ``STOP_WAIT`` seconds for the items in progress before it raises.
The package keeps its items short for this (a Monte Carlo chunk takes
milliseconds, an exact range span well under a second on one core).

All the work shares one pool of threads, grown when more threads are asked
for (an older, smaller pool finishes what it holds and is let go), so idle
threads do not pile up.  Each call keeps at most ``threads`` of its items in
the pool at once, one future per item, so concurrent calls interleave instead
of one waiting for the other.  Work started from inside a pool thread runs in
that thread, and never waits on the pool it runs in.
"""
from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Generator, Iterable
from functools import cache
from typing import TYPE_CHECKING

from ._sigint import interruptible, raise_if_pressed
from .errors import Interrupted, integer

if TYPE_CHECKING:       # concurrent.futures loads on first parallel use: `import evaluator`
    from concurrent.futures import Future, ThreadPoolExecutor  # stays cheap

__all__ = ["resolve_threads", "run_chunks", "even_spans", "map_items", "imap_unordered",
           "in_background", "check_interrupt", "Interrupted"]

MIN_ROWS_PER_THREAD = 1 << 16
MAX_THREADS = 1024
STOP_WAIT = 5.0            # seconds to wait for workers to leave their item after a stop
# items queued per worker: a worker that finishes one starts the next at once, instead of
# idling until this thread wakes and submits it (Monte Carlo, 20 M deals on two threads
# against one, interleaved, medians of 9: QQ+,AKs vs random 1.87x -> 1.91x, against two
# random hands 1.83x -> 1.88x, AsKs vs QhQd 1.74x -> 1.75x)
LOOKAHEAD = 2


@cache
def _cores() -> int:
    return os.cpu_count() or 1


_THREAD_BOUNDS = f"between 1 and {MAX_THREADS}"


def resolve_threads(threads: int | None, rows: int) -> int:
    """Threads to use: ``None`` means all cores for big batches, one for small ones."""
    if threads is None:
        threads = _cores()
    elif hasattr(threads, "__index__") and not isinstance(threads, (bool, float)):
        try:
            threads = int(threads.__index__())       # any integer type, as range() takes
        except TypeError:                            # an array of several values, ...
            pass                                     # refused below, naming threads
    threads = integer(threads, "threads", 1, MAX_THREADS, expected="a positive integer",
                      bounds=_THREAD_BOUNDS)
    return max(1, min(threads, rows // MIN_ROWS_PER_THREAD or 1))


_local = threading.local()
_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_executor_size = 0


def check_interrupt() -> None:
    """Raise ``Interrupted`` if the work this thread is doing was stopped, and
    ``KeyboardInterrupt`` in the main thread for a Ctrl-C whose exception was lost."""
    raise_if_pressed()
    stop = getattr(_local, "stop", None)
    if stop is not None and stop.is_set():
        raise Interrupted("interrupted")


def _submit(threads: int, function: Callable, item: object) -> Future:
    """Submit to the shared pool, grown to ``threads`` workers; under the lock, so that
    no other call can retire the pool between choosing it and submitting."""
    global _executor, _executor_size
    from concurrent.futures import ThreadPoolExecutor
    with _lock:
        if _executor is None or _executor_size < threads:
            old = _executor
            _executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="evaluator")
            _executor_size = threads
            if old is not None:
                old.shutdown(wait=False)           # runs what it holds, then its threads end
        return _executor.submit(function, item)


def in_background(function: Callable[[], object], threads: int) -> Future:
    """``function()`` started on the shared pool (of at least ``threads`` workers) while
    the caller goes on; its ``result()`` waits for it."""
    return _submit(threads, lambda _: function(), None)


def _in_pool() -> bool:
    return getattr(_local, "in_pool", False)


def imap_unordered(function: Callable, items: Iterable, threads: int, errors: bool = False,
                   idle: Callable[[], object] | None = None
                   ) -> Generator[tuple[int, object], None, None]:
    """Yield ``(index, function(item))`` as items finish, at most ``threads`` at a time
    (``LOOKAHEAD`` a worker queued, so that none waits for the next).

    With ``errors=True`` an ``Exception`` raised by ``function`` is yielded in
    place of its result; otherwise it stops the other items and is raised.
    Ctrl-C, or leaving the loop early, stops the items within one item.
    ``idle`` is called when the next result may be a while: before each item
    run in this thread, and whenever a quarter second passes with none finished.
    """
    with interruptible():
        yield from _imap_unordered(function, list(items), threads, errors, idle)


def _imap_unordered(function: Callable, items: list, threads: int, errors: bool,
                    idle: Callable[[], object] | None
                    ) -> Generator[tuple[int, object], None, None]:
    if threads <= 1 or len(items) <= 1 or _in_pool():
        for i, item in enumerate(items):
            check_interrupt()
            if idle is not None:
                idle()
            try:
                result = function(item)
            except Exception as error:
                if not errors:
                    raise
                result = error
            yield i, result
        return
    stop = threading.Event()
    # at most ``threads`` items run at once, however many workers the shared pool has
    gate = threading.Semaphore(threads)

    def run(item: object) -> object:
        with gate:
            _local.stop, _local.in_pool = stop, True
            try:
                check_interrupt()
                return function(item)
            finally:
                _local.stop, _local.in_pool = None, False

    from concurrent.futures import FIRST_COMPLETED
    from concurrent.futures import wait as wait_futures
    source = iter(enumerate(items))
    pending: dict[Future, int] = {}
    try:
        for i, item in itertools.islice(source, LOOKAHEAD * threads):
            pending[_submit(threads, run, item)] = i
        while pending:
            done, _ = wait_futures(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            raise_if_pressed()
            if not done and idle is not None:
                idle()
            for future in done:
                i = pending.pop(future)
                failure = future.exception()
                if failure is not None and not (errors and isinstance(failure, Exception)):
                    raise failure
                following = next(source, None)
                if following is not None:
                    pending[_submit(threads, run, following[1])] = following[0]
                yield i, (failure if failure is not None else future.result())
    finally:
        stop.set()
        for future in pending:
            future.cancel()
        wait_futures(pending, timeout=STOP_WAIT)


def map_items(function: Callable, items: Iterable, threads: int,
              done: Callable[[int], object] | None = None) -> list:
    """``[function(item) for item in items]`` on ``threads`` workers, in order; ``done(i)``
    is called in this thread as item ``i`` finishes (progress)."""
    items = list(items)
    if threads <= 1 or len(items) <= 1 or _in_pool():
        out = []
        with interruptible():
            for i, item in enumerate(items):
                check_interrupt()
                out.append(function(item))
                if done is not None:
                    done(i)
        return out
    results: list = [None] * len(items)
    for i, result in imap_unordered(function, items, threads):
        results[i] = result
        if done is not None:
            done(i)
    return results


def run_chunks(work: Callable[[int, int], None], rows: int, threads: int) -> None:
    """Call ``work(start, stop)`` on ``threads`` contiguous chunks of ``range(rows)``."""
    if threads <= 1 or rows <= 1:
        work(0, rows)
        return
    map_items(lambda span: work(*span), even_spans(rows, threads), threads)


def even_spans(n: int, parts: int) -> list[tuple[int, int]]:
    """Split range(n) into ``parts`` contiguous spans of nearly equal size."""
    cuts = [n * k // parts for k in range(parts + 1)]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]
