"""The one calling convention of the public API, and the forms of release 0.1.0 kept for
one release (CONTRIBUTING.md, "Calling convention").

Every public function that takes a game takes it first, then the hands or range, then
the board, then the dead cards: ``f(game, hands, board="", dead="", *, options)``.
``old_form`` wraps such a function so that a call in its 0.1.0 form (the game as a
keyword, or left to its old default of hold'em) still answers, with one
``DeprecationWarning`` that shows the new form.
"""
from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from .games import GAMES, Game

__all__ = ["old_form", "is_game"]

F = TypeVar("F", bound=Callable[..., Any])


def is_game(value: object) -> bool:
    """Whether ``value`` names a game (a ``Game``, or a name ``game()`` takes)."""
    if isinstance(value, Game):
        return True
    if not isinstance(value, str):
        return False
    if value in GAMES:
        return True
    from .games import game
    try:
        game(value)
    except Exception:       # any refusal: not a game name, so the old form's first value
        return False
    return True


def old_form(old: Callable[..., Any], was: str, now: str) -> Callable[[F], F]:
    """Let the decorated function also take the 0.1.0 form whose signature ``old`` has
    (``was``, as text), warning once a call that it is deprecated in favour of ``now``.

    A call is in the new form when its first positional argument names a game, or when
    every argument is a keyword and ``game`` is among them (keywords read the same in
    both forms); any other call is bound to the old signature and passed on by name.
    """
    old_signature = inspect.signature(old)

    def decorate(new: F) -> F:
        @functools.wraps(new)
        def call(*args: Any, **kwargs: Any) -> Any:
            if (args and is_game(args[0])) or (not args and "game" in kwargs):
                return new(*args, **kwargs)
            try:
                bound = old_signature.bind(*args, **kwargs)
            except TypeError:
                return new(*args, **kwargs)     # neither form: the new one says why
            bound.apply_defaults()
            warnings.warn(f"{was} is deprecated and will be removed in the next release: "
                          f"call {now} (the game first)", DeprecationWarning, stacklevel=2)
            return new(**bound.arguments)
        return call  # type: ignore[return-value]
    return decorate
