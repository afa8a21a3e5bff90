"""Progress on long work: a rich bar on a terminal (stderr); elsewhere (a log, a pipe, a
notebook's captured stderr) a plain line every few seconds, once the work has run past
``QUIET_SECONDS``, so that nothing long is ever silent."""
from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rich.progress import TaskID

__all__ = ["ProgressBar", "progress_bar", "QUIET_SECONDS", "LINE_EVERY", "reporting",
           "planned", "advanced", "item_done"]

QUIET_SECONDS = 2.0        # work shorter than this prints nothing
LINE_EVERY = 5.0           # seconds between two plain progress lines


class ProgressBar(Protocol):
    """What callers use of a bar: its one task, advancing that task, and stopping."""

    task: TaskID

    def advance(self, task_id: TaskID, advance: float = 1) -> None: ...

    def update(self, task_id: TaskID, *, description: str | None = None,
               total: float | None = None) -> None: ...

    def stop(self) -> None: ...


class _Lines:
    """A progress "bar" for a stream that is not a terminal: one line on stderr every
    ``LINE_EVERY`` seconds once the work has lasted ``QUIET_SECONDS``, and a last line
    when work that printed anything ends."""

    def __init__(self, total: int, label: str, started: float | None = None) -> None:
        self.task: Any = 0
        self.total, self.label = total, label
        self.done: float = 0
        self.start = time.monotonic() if started is None else started
        self.next_line = self.start + QUIET_SECONDS
        self.printed = False
        self.last: tuple[str, float] | None = None     # what the last line said

    def _line(self, now: float) -> None:
        if (self.label, self.done) == self.last:      # the closing line repeats no line
            return                                    # that said the same, seconds aside
        share = f"/{self.total:,} ({self.done / self.total:.0%})" if self.total else ""
        print(f"{self.label}: {self.done:,.0f}{share}, {now - self.start:.0f} s",
              file=sys.stderr, flush=True)
        self.printed, self.last = True, (self.label, self.done)

    def advance(self, task_id: Any = 0, advance: float = 1) -> None:
        self.done += advance
        now = time.monotonic()
        if now >= self.next_line:
            self._line(now)
            self.next_line = now + LINE_EVERY

    def update(self, task_id: Any = 0, *, description: str | None = None,
               total: float | None = None, **_: Any) -> None:
        if description is not None:
            self.label = description
        if total is not None:
            self.total = int(total)

    def stop(self) -> None:
        if self.printed:
            self._line(time.monotonic())


def progress_bar(total: int, label: str, show: bool,
                 started: float | None = None) -> ProgressBar | None:
    """A rich progress bar on a terminal (stderr), plain lines elsewhere, or None when
    ``show`` is false.  A ``total`` of 0: not known (the count alone is shown).
    ``started``: the ``time.monotonic()`` the work began at, when before this call."""
    if not show:
        return None
    if not sys.stderr.isatty():
        return _Lines(total, label, started)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    class Bar(Progress):            # rich is imported only when a bar is shown
        task: TaskID

    bar = Bar("[progress.description]{task.description}", BarColumn(),
              MofNCompleteColumn(), TimeRemainingColumn(), transient=True,
              console=Console(stderr=True))      # stdout carries the answers
    bar.start()
    bar.task = bar.add_task(label, total=total or None)
    return bar


class _Work:
    """One call's progress (``reporting``): units planned and done, shown on a bar made only
    once the work has run for ``QUIET_SECONDS``, so that a quick call prints nothing and
    imports nothing."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.start = time.monotonic()
        self.total = 0
        self.done: float = 0
        self.bar: ProgressBar | None = None

    def advance(self, units: float) -> None:
        self.done += units
        if self.bar is None:
            if time.monotonic() - self.start < QUIET_SECONDS:
                return
            self.bar = progress_bar(self.total, self.label, True, self.start)
            assert self.bar is not None
            units = self.done
        self.bar.advance(self.bar.task, units)


_current: ContextVar[_Work | None] = ContextVar("evaluator_progress", default=None)


@contextmanager
def reporting(show: bool) -> Iterator[None]:
    """Within it, the engine's long loops report their progress (``planned``, ``advanced``)
    on one bar on stderr, shown once the work has lasted ``QUIET_SECONDS``; nothing when
    ``show`` is false."""
    if not show:
        yield
        return
    work = _Work("working")
    token = _current.set(work)
    try:
        yield
    finally:
        _current.reset(token)
        if work.bar is not None:
            work.bar.stop()


def planned(units: int, label: str) -> None:
    """The work ahead of the current ``reporting`` call: ``units`` more of ``label`` (0: not
    known).  Nothing outside ``reporting``."""
    work = _current.get()
    if work is not None:
        work.total += units
        work.label = label
        if work.bar is not None:
            work.bar.update(work.bar.task, description=label, total=work.total or None)


def advanced(units: float = 1) -> None:
    """``units`` of the planned work done (from the thread that called ``reporting``)."""
    work = _current.get()
    if work is not None:
        work.advance(units)


def item_done(index: int) -> None:
    """One more item of the planned work done: ``map_items``'s ``done``."""
    advanced(1)
