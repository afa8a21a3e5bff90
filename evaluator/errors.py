"""The exceptions the public API raises.

Bad values raise a ``ValueError`` subclass (``EvaluatorError`` and its
children) and wrong Python types a ``TypeError`` subclass
(``ArgumentTypeError``); both carry the offending token and name the
argument, so scripts can catch them and users read what was wrong.
"""
from __future__ import annotations

__all__ = ["EvaluatorError", "CardError", "GameError", "HandError", "RangeError",
           "TableError", "ArgumentTypeError", "check_type"]


class EvaluatorError(ValueError):
    """Base class of the package's errors; ``token`` is the offending input."""

    def __init__(self, message: str, token: object = None) -> None:
        super().__init__(message)
        self.token = token


class CardError(EvaluatorError):
    """An unknown card, a duplicate card, or a wrong number of cards."""


class GameError(EvaluatorError):
    """An unknown game or game option."""


class HandError(EvaluatorError):
    """A hand or batch that does not fit the game (wrong size, shape or dtype)."""


class RangeError(EvaluatorError):
    """Range text that cannot be read, or a range left with no combo."""


class TableError(EvaluatorError):
    """A lookup table file that is missing or damaged; the message names the file."""


class ArgumentTypeError(TypeError):
    """An argument of the wrong Python type; the message names the argument."""

    def __init__(self, message: str, token: object = None) -> None:
        super().__init__(message)
        self.token = token


def check_type(value: object, kinds: type | tuple[type, ...], argument: str,
               expected: str) -> None:
    """Raise ``ArgumentTypeError`` unless ``value`` is one of ``kinds`` (bool is never an int)."""
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        ok = False
    else:
        ok = isinstance(value, kinds)
    if not ok:
        raise ArgumentTypeError(f"{argument} must be {expected}, got {type(value).__name__} "
                                f"{value!r}"[:300], value)
