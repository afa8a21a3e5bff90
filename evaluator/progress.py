"""Progress on long work: a rich bar on a terminal (stderr); elsewhere (a log, a pipe, a
notebook's captured stderr) a plain line every few seconds, once the work has run past
``QUIET_SECONDS``, so that nothing long is ever silent."""
from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rich.progress import TaskID

__all__ = ["ProgressBar", "progress_bar", "QUIET_SECONDS", "LINE_EVERY"]

QUIET_SECONDS = 2.0        # work shorter than this prints nothing
LINE_EVERY = 5.0           # seconds between two plain progress lines


class ProgressBar(Protocol):
    """What callers use of a bar: its one task, advancing that task, and stopping."""

    task: TaskID

    def advance(self, task_id: TaskID, advance: float = 1) -> None: ...

    def update(self, task_id: TaskID, *, description: str | None = None) -> None: ...

    def stop(self) -> None: ...


class _Lines:
    """A progress "bar" for a stream that is not a terminal: one line on stderr every
    ``LINE_EVERY`` seconds once the work has lasted ``QUIET_SECONDS``, and a last line
    when work that printed anything ends."""

    def __init__(self, total: int, label: str) -> None:
        self.task: Any = 0
        self.total, self.label = total, label
        self.done = 0.0
        self.start = time.monotonic()
        self.next_line = self.start + QUIET_SECONDS
        self.printed = False
        self.last: tuple[str, float] | None = None     # what the last line said

    def _line(self, now: float) -> None:
        if (self.label, self.done) == self.last:      # the closing line repeats no line
            return                                    # that said the same, seconds aside
        share = f" ({self.done / self.total:.0%})" if self.total else ""
        print(f"{self.label}: {self.done:,.0f}/{self.total:,}{share}, "
              f"{now - self.start:.0f} s", file=sys.stderr, flush=True)
        self.printed, self.last = True, (self.label, self.done)

    def advance(self, task_id: Any = 0, advance: float = 1) -> None:
        self.done += advance
        now = time.monotonic()
        if now >= self.next_line:
            self._line(now)
            self.next_line = now + LINE_EVERY

    def update(self, task_id: Any = 0, *, description: str | None = None, **_: Any) -> None:
        if description is not None:
            self.label = description

    def stop(self) -> None:
        if self.printed:
            self._line(time.monotonic())


def progress_bar(total: int, label: str, show: bool) -> ProgressBar | None:
    """A rich progress bar on a terminal (stderr), plain lines elsewhere, or None when
    ``show`` is false."""
    if not show:
        return None
    if not sys.stderr.isatty():
        return _Lines(total, label)
    from rich.progress import BarColumn, Progress, TimeRemainingColumn

    class Bar(Progress):            # rich is imported only when a bar is shown
        task: TaskID

    bar = Bar("[progress.description]{task.description}", BarColumn(),
              "{task.completed}/{task.total}", TimeRemainingColumn(), transient=True)
    bar.start()
    bar.task = bar.add_task(label, total=total)
    return bar
