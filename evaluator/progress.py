"""Progress bars for long work: a rich bar on a terminal (stderr), nothing elsewhere."""
from __future__ import annotations

__all__ = ["progress_bar"]


def progress_bar(total: int, label: str, show: bool):
    """A rich progress bar on a terminal (stderr), else a no-op."""
    import sys
    if not show or not sys.stderr.isatty():
        return None
    from rich.progress import BarColumn, Progress, TimeRemainingColumn
    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   "{task.completed}/{task.total}", TimeRemainingColumn(), transient=True)
    bar.start()
    bar.task = bar.add_task(label, total=total)
    return bar
