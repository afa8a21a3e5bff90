"""Running work on several threads, and stopping it promptly on Ctrl-C.

Kernels release the GIL (``nogil=True``), so plain Python threads run them in
parallel.  The split depends only on the batch size and thread count, and
every chunk writes its own slice of the output, so results never depend on
the number of threads.

Interruption.  Ctrl-C raises ``KeyboardInterrupt`` in the main thread while it
waits for the workers.  The waiting call then marks its work as stopped:
each worker finishes the chunk it is on (milliseconds for every kernel the
package calls in a chunk) and takes no other, and long loops call
``check_interrupt()`` between chunks, which raises ``Interrupted`` in a
worker whose work was stopped.  Work never lingers after the call that
started it has returned.

All the work shares one pool of threads, grown when more threads are asked
for (an older, smaller pool is let go), so idle threads do not pile up.
Work started from inside a pool thread runs in that thread, never waits on
the pool it runs in.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from functools import cache

from .errors import ArgumentTypeError, EvaluatorError

__all__ = ["resolve_threads", "run_chunks", "map_items", "imap_unordered",
           "check_interrupt", "Interrupted"]

MIN_ROWS_PER_THREAD = 1 << 16
MAX_THREADS = 1024
STOP_WAIT = 5.0            # seconds to wait for workers to leave their chunk after a stop


class Interrupted(KeyboardInterrupt):
    """Raised in worker threads whose work was stopped (Ctrl-C or an error elsewhere)."""


@cache
def _cores() -> int:
    return os.cpu_count() or 1


def resolve_threads(threads: int | None, rows: int) -> int:
    """Threads to use: ``None`` means all cores for big batches, one for small ones."""
    if threads is None:
        threads = _cores()
    elif hasattr(threads, "__index__") and not isinstance(threads, (bool, float)):
        threads = int(threads.__index__())           # numpy integers too
    else:
        raise ArgumentTypeError(f"threads must be a positive integer, got "
                                f"{type(threads).__name__} {threads!r}", threads)
    if threads < 1 or threads > MAX_THREADS:
        raise EvaluatorError(f"threads must be between 1 and {MAX_THREADS}, got {threads}",
                             threads)
    return max(1, min(threads, rows // MIN_ROWS_PER_THREAD or 1))


class _Stop:
    """A stop flag for one call's work; a nested call's flag also reads its parent's."""

    def __init__(self, parent: _Stop | None) -> None:
        self.event = threading.Event()
        self.parent = parent

    def is_set(self) -> bool:
        stop: _Stop | None = self
        while stop is not None:
            if stop.event.is_set():
                return True
            stop = stop.parent
        return False


_local = threading.local()
_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_executor_size = 0


def _current() -> _Stop | None:
    return getattr(_local, "stop", None)


def check_interrupt() -> None:
    """Raise ``Interrupted`` if the work this thread is doing was stopped."""
    stop = _current()
    if stop is not None and stop.is_set():
        raise Interrupted("interrupted")


def _pool(threads: int) -> ThreadPoolExecutor:
    """The shared pool, with room for at least ``threads`` workers."""
    global _executor, _executor_size
    with _lock:
        if _executor is None or _executor_size < threads:
            old = _executor
            _executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="evaluator")
            _executor_size = threads
            if old is not None:
                old.shutdown(wait=False)           # its threads end once idle
        return _executor


def _in_pool() -> bool:
    return getattr(_local, "in_pool", False)


def imap_unordered(function: Callable, items: Iterable, threads: int,
                   errors: bool = False) -> Iterator[tuple[int, object]]:
    """Yield ``(index, function(item))`` as items finish, on ``threads`` workers.

    With ``errors=True`` an ``Exception`` raised by ``function`` is yielded in
    place of its result; otherwise it stops the other workers and is raised.
    Ctrl-C, or leaving the loop early, stops the workers within one item.
    """
    items = list(items)
    if threads <= 1 or len(items) <= 1 or _in_pool():
        for i, item in enumerate(items):
            check_interrupt()
            try:
                result = function(item)
            except Exception as error:
                if not errors:
                    raise
                result = error
            yield i, result
        return
    import queue
    stop = _Stop(_current())
    done: queue.SimpleQueue = queue.SimpleQueue()
    source = iter(enumerate(items))
    take = threading.Lock()

    def loop() -> None:
        _local.stop, _local.in_pool = stop, True
        try:
            while not stop.is_set():
                with take:
                    nxt = next(source, None)
                if nxt is None:
                    return
                i, item = nxt
                try:
                    done.put((i, function(item), None))
                except Exception as error:
                    done.put((i, None, error))
                    if not errors:
                        return
                except BaseException as error:     # Interrupted
                    done.put((i, None, error))
                    return
        finally:
            _local.stop, _local.in_pool = None, False

    workers = min(threads, len(items))
    futures = [_pool(workers).submit(loop) for _ in range(workers)]
    try:
        for _ in range(len(items)):
            while True:
                try:
                    i, result, error = done.get(timeout=0.25)
                    break
                except queue.Empty:
                    if all(f.done() for f in futures) and done.empty():
                        # every worker left early (stopped from outside)
                        check_interrupt()
                        raise Interrupted("interrupted") from None
            if error is not None:
                if errors and isinstance(error, Exception):
                    yield i, error
                    continue
                raise error
            yield i, result
    finally:
        stop.event.set()
        wait_futures(futures, timeout=STOP_WAIT)


def map_items(function: Callable, items: Iterable, threads: int) -> list:
    """``[function(item) for item in items]`` on ``threads`` workers, in order."""
    items = list(items)
    if threads <= 1 or len(items) <= 1 or _in_pool():
        out = []
        for item in items:
            check_interrupt()
            out.append(function(item))
        return out
    results: list = [None] * len(items)
    for i, result in imap_unordered(function, items, threads):
        results[i] = result
    return results


def run_chunks(work: Callable[[int, int], None], rows: int, threads: int) -> None:
    """Call ``work(start, stop)`` on ``threads`` contiguous chunks of ``range(rows)``."""
    if threads <= 1 or rows <= 1:
        work(0, rows)
        return
    bounds = [rows * t // threads for t in range(threads + 1)]
    spans = [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
    map_items(lambda span: work(*span), spans, threads)
