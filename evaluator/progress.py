"""Progress bars for long work: a rich bar on a terminal (stderr), nothing elsewhere."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from rich.progress import TaskID

__all__ = ["ProgressBar", "progress_bar"]


class ProgressBar(Protocol):
    """What callers use of a bar: its one task, advancing that task, and stopping."""

    task: TaskID

    def advance(self, task_id: TaskID, advance: float = 1) -> None: ...

    def stop(self) -> None: ...


def progress_bar(total: int, label: str, show: bool) -> ProgressBar | None:
    """A rich progress bar on a terminal (stderr), else a no-op."""
    import sys
    if not show or not sys.stderr.isatty():
        return None
    from rich.progress import BarColumn, Progress, TimeRemainingColumn

    class Bar(Progress):            # rich is imported only when a bar is shown
        task: TaskID

    bar = Bar("[progress.description]{task.description}", BarColumn(),
              "{task.completed}/{task.total}", TimeRemainingColumn(), transient=True)
    bar.start()
    bar.task = bar.add_task(label, total=total)
    return bar
