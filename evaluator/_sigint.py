"""A Ctrl-C that cannot be lost.

Python's own SIGINT handler raises ``KeyboardInterrupt`` at whatever bytecode
runs next.  When that is a garbage-collector callback, a ``__del__`` or a
weakref callback, the exception is printed as "Exception ignored in ..." and
dropped, and a long loop runs on as if nothing was pressed.  Allocation-heavy
loops (the table simulator copies state on every action) run the collector
often, and libraries such as hypothesis register collector callbacks, so the
loss is real, not theoretical.

``interruptible()`` wraps a long call: while it is active, and where Python's
default handler is in place in the main thread, SIGINT is handled by one that
also records the press.  ``pressed()`` tells the loop, which raises
``KeyboardInterrupt`` itself at its next check.  A handler the user installed
is left alone.
"""
from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["interruptible", "pressed", "raise_if_pressed"]

_pressed = False
_depth = 0


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    global _pressed
    _pressed = True
    raise KeyboardInterrupt


@contextmanager
def interruptible() -> Iterator[None]:
    """Record Ctrl-C presses during the block (see the module's docstring)."""
    global _depth, _pressed
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    installed = False
    if _depth == 0:
        _pressed = False
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_sigint)
            installed = True
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            _pressed = False


def pressed() -> bool:
    """Whether Ctrl-C was pressed inside the active ``interruptible()`` block."""
    return _pressed


def raise_if_pressed() -> None:
    """Raise ``KeyboardInterrupt`` once for a press whose exception was swallowed."""
    global _pressed
    if _pressed and threading.current_thread() is threading.main_thread():
        _pressed = False
        raise KeyboardInterrupt
