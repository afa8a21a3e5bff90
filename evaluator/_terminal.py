"""What the command line's commands share: the terminal console and how long texts show."""
from __future__ import annotations

__all__ = ["IMAGE_SUFFIXES", "SHOWN", "console", "short"]

IMAGE_SUFFIXES = (".png", ".svg", ".pdf")


def console():
    from rich.console import Console

    class Piped(Console):
        def on_broken_pipe(self) -> None:        # rich would exit 1: main answers 141
            self.quiet = True
            raise BrokenPipeError

    return Piped(highlight=False, soft_wrap=True)


SHOWN = 60                                       # characters of a long text shown


def short(text: str) -> str:
    """A text as tables and headers show it: a long range cut to its first ``SHOWN``
    characters and its length (JSON and CSV output keep it whole)."""
    text = str(text)
    if len(text) <= SHOWN:
        return text
    return f"{text[:SHOWN]}… ({len(text):,} characters)"
