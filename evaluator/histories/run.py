"""Many history files at once: each file read, replayed and analysed whole by one worker
(this process, a process pool of this machine, or a Dask task), its hands' rows handed
back in the files' order, so that a run writes the same rows however it is spread.

Workers ignore Ctrl-C: the caller stops (a pool is terminated within a second) and keeps
what it wrote."""
from __future__ import annotations

import contextlib
import gc
import os
import signal
from collections.abc import Iterator

from .allin import AllinRow, hand_rows
from .hand import HandProblem, Problem
from .reading import parse_histories, read_file

__all__ = ["analyse_file", "analyse", "HandResult", "pool_size", "POOL_BYTES", "set_aside"]

HandResult = tuple[str, list[AllinRow | Problem]]
"""A hand's ``hand`` key (``path#index``, or ``path:line`` for a file that failed) and its
rows (a ``Problem`` alone where it could not be analysed)."""

POOL_BYTES = 2 << 20     # files this large in all are worth a pool's start (about 2 s)


def analyse_file(source: str, player: str | None = None) -> list[HandResult]:
    """Every hand of one file, analysed (``player``: that player's rows, and only the hands
    they played); a hand or file that cannot be is its ``Problem``."""
    text = read_file(source)
    found = [text] if isinstance(text, HandProblem) else parse_histories(text, source)
    return list(hand_rows(found, player, on_error="record"))


def pool_size(files: list[str], processes: int | None) -> int:
    """The processes to read ``files`` with: ``processes`` where given, else the cores
    (at most one a file) where the files hold ``POOL_BYTES`` or more, else 1."""
    if processes is not None:
        return max(1, min(processes, len(files)))
    size = 0
    for f in files:
        try:
            size += os.path.getsize(f) if f != "-" else 0
        except OSError:
            continue
        if size >= POOL_BYTES:
            return max(1, min(os.cpu_count() or 1, len(files)))
    return 1


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _collect_less()                     # a worker's whole life is the run


def _collect_less(freeze: bool = True) -> tuple[int, int, int]:
    """This process's objects so far (modules, tables, kernels) set aside from the garbage
    collector, and its young objects collected less often: a run makes ten objects or more
    an action and keeps none of them, and each collection of the oldest generation walked
    every object the imports left (7-10% of a run).  The thresholds before."""
    before = gc.get_threshold()
    if freeze:
        gc.collect()
        gc.freeze()
    gc.set_threshold(max(before[0], 20_000), before[1], before[2])
    return before


@contextlib.contextmanager
def set_aside() -> Iterator[None]:
    """The run inside collected less (see ``_collect_less``); the collector as it was
    after it (a caller's process goes on)."""
    ours = gc.get_freeze_count() == 0        # a caller's own frozen objects stay so
    before = _collect_less(freeze=ours)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        if ours:
            gc.unfreeze()


def analyse(files: list[str], player: str | None = None, processes: int = 1,
            scheduler: object = None) -> Iterator[tuple[str, list[HandResult]]]:
    """``(file, its hands' results)`` for each of ``files``, in order: here, in a pool of
    ``processes`` processes, or as tasks of the Dask ``scheduler`` (an address or a
    ``distributed.Client``)."""
    if scheduler is not None:
        yield from _on_dask(files, player, scheduler)
        return
    if processes <= 1 or "-" in files:
        for source in files:
            yield source, analyse_file(source, player)
        return
    import functools
    import multiprocessing
    # spawned, not forked: a fork would copy the threads of Numba's pool mid-state
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes, initializer=_quiet_worker) as pool:
        work = functools.partial(analyse_file, player=player)
        yield from zip(files, pool.imap(work, files, chunksize=1))


def _on_dask(files: list[str], player: str | None, scheduler: object
             ) -> Iterator[tuple[str, list[HandResult]]]:
    from ..batch.cluster import close_client, make_client
    client, own = make_client(scheduler)          # an address probed, or a Client as it is
    try:
        futures = [client.submit(analyse_file, f, player, pure=False) for f in files]
        for source, future in zip(files, futures):
            yield source, future.result()
    finally:
        if own:
            close_client(client)
