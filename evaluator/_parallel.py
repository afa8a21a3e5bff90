"""Running a kernel over chunks of a batch on several threads.

Kernels release the GIL (``nogil=True``), so plain Python threads run them in
parallel.  The split depends only on the batch size and thread count, and
every chunk writes its own slice of the output, so results never depend on
the number of threads.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache

from .errors import EvaluatorError

__all__ = ["resolve_threads", "run_chunks"]

MIN_ROWS_PER_THREAD = 1 << 16


@cache
def _cores() -> int:
    return os.cpu_count() or 1


def resolve_threads(threads: int | None, rows: int) -> int:
    """Threads to use: ``None`` means all cores for big batches, one for small ones."""
    if threads is None:
        threads = _cores()
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise EvaluatorError(f"threads must be a positive integer, got {threads!r}", threads)
    return max(1, min(threads, rows // MIN_ROWS_PER_THREAD or 1))


@cache
def _pool(threads: int):
    from concurrent.futures import ThreadPoolExecutor  # imported on first parallel use
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix="evaluator")


def run_chunks(work: Callable[[int, int], None], rows: int, threads: int) -> None:
    """Call ``work(start, stop)`` on ``threads`` contiguous chunks of ``range(rows)``."""
    if threads <= 1 or rows <= 1:
        work(0, rows)
        return
    bounds = [rows * t // threads for t in range(threads + 1)]
    futures = [_pool(threads).submit(work, a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
    for future in futures:
        future.result()
