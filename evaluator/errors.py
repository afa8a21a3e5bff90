"""The exceptions the public API raises.

Every error is a ``ValueError`` subclass that carries the offending token, so
scripts can catch ``ValueError`` and users read what was wrong.
"""
from __future__ import annotations

__all__ = ["EvaluatorError", "CardError", "GameError", "HandError", "RangeError"]


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
