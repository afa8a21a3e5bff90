"""Every exception the package raises, in one place.

Bad values raise a ``ValueError`` subclass (``EvaluatorError`` and its
children) and wrong Python types a ``TypeError`` subclass
(``ArgumentTypeError``); both carry the offending token and name the
argument, so scripts can catch them and users read what was wrong.
Ctrl-C raises ``KeyboardInterrupt`` subclasses (``BatchInterrupted`` says which
rows a batch kept), which ``except Exception`` does not swallow.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import numpy as np

__all__ = ["short_text", "EvaluatorError", "CardError", "GameError", "HandError", "RangeError",
           "NoDeal", "TableError", "IllegalAction", "HistoryError", "QueryFailed",
           "ArgumentTypeError", "BatchInterrupted", "Interrupted", "check_type", "flags", "integer",
           "optional_integer", "seed_text", "read_seed"]


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


class NoDeal(RangeError):
    """No deal fits the spot: a range with no live combo once the known cards are out, or
    hands every combination of which shares a card.  Studies that look at many boards
    catch this one (that board leaves nothing to deal) and nothing else: any other
    refusal of a board stops the study with its reason."""


class TableError(EvaluatorError):
    """A lookup table file that is missing or damaged; the message names the file."""


class IllegalAction(EvaluatorError):
    """An action the rules do not allow now; the table is unchanged."""


class HistoryError(EvaluatorError):
    """A hand history that cannot be read, or that does not replay to the result it records."""


class QueryFailed(EvaluatorError):
    """A query failed while the batch ran (``on_error="stop"``).

    ``query`` is its id, ``reason`` the failure, ``kept`` the rows before it
    (written to ``path`` when set), ``total`` the batch's size.
    """

    def __init__(self, query, reason: str, kept: int, total: int,
                 path: Path | None) -> None:
        message = f"query {query} failed: {reason}"
        if path is not None:
            message += (f"; the {kept:,} rows before it are in {path} (run again with "
                        "resume=True to finish, or on_error='record' to record failures)")
        super().__init__(message, query)
        self.query, self.reason, self.kept, self.total, self.path = (query, reason, kept,
                                                                     total, path)


class ArgumentTypeError(TypeError):
    """An argument of the wrong Python type; the message names the argument."""

    def __init__(self, message: str, token: object = None) -> None:
        super().__init__(message)
        self.token = token


def number_text(number: int, commas: bool = False) -> str:
    """An integer as a message shows it: its digits (``commas``: in groups of three), or
    how many digits it has where there are too many to print (Python refuses to write an
    int of more than 4,300 digits, and a message of thousands helps no one)."""
    size = abs(number)
    if size.bit_length() > 200:
        # 10**k <= size < 10**(k + 1) for this k or the next: no decimal conversion
        k = int((size.bit_length() - 1) * 0.30102999566398120)
        digits = k + 1 + (size >= 10 ** (k + 1))
        return f"a{' negative' if number < 0 else ''} {digits:,}-digit number"
    return f"{number:,}" if commas else str(number)


def check_type(value: object, kinds: type | tuple[type, ...], argument: str,
               expected: str) -> None:
    """Raise ``ArgumentTypeError`` unless ``value`` is one of ``kinds`` (bool is never an int)."""
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        ok = False
    else:
        ok = isinstance(value, kinds)
    if not ok:
        shown = number_text(value) if type(value) is int else repr(value)
        raise ArgumentTypeError(f"{argument} must be {expected}, got {type(value).__name__} "
                                f"{shown}"[:300], value)


def flags(**values: object) -> None:
    """Raise ``ArgumentTypeError`` naming the first of ``values`` that is not True or False
    (a NumPy bool passes; an array's truth would be "ambiguous")."""
    for argument, value in values.items():
        if not isinstance(value, (bool, np.bool_)):
            check_type(value, bool, argument, "True or False")


def integer(value: object, argument: str, low: int | None = None, high: int | None = None,
            *, expected: str = "an integer", bounds: str | None = None) -> int:
    """``value`` as an int: ``ArgumentTypeError`` unless it is an integer (never a bool),
    ``EvaluatorError`` outside ``low..high``.

    ``expected`` and ``bounds`` word the two messages ("must be {expected}",
    "must be {bounds}") where an argument's messages say more than the bare numbers.
    """
    if type(value) is int and (low is None or value >= low) and (high is None or value <= high):
        return value                   # the common case, asked several times a query
    check_type(value, (int, np.integer), argument, expected)
    number = int(cast("int | np.integer", value))      # checked just above
    if (low is not None and number < low) or (high is not None and number > high):
        if bounds is None:
            bounds = f"at least {low}" if high is None else f"{low} to {high}"
        raise EvaluatorError(f"{argument} must be {bounds}, got {number_text(number)}",
                             number)
    return number


def optional_integer(value: object, argument: str, low: int | None = None,
                     high: int | None = None, *, expected: str = "an integer",
                     bounds: str | None = None) -> int | None:
    """``integer`` that lets ``None`` through."""
    if value is None:
        return None
    return integer(value, argument, low, high, expected=expected, bounds=bounds)


# A Monte Carlo seed as results files write it: "0x" and its hexadecimal digits.  Text
# that no reader takes for a number (pandas, Excel), so that a seed of 19 digits is never
# rounded to a float's 15 or 16 (a rounded seed deals another answer), in a column where
# exact rows leave the seed empty as in one where every row has it.
_SEED_TEXT = re.compile(r"0[xX][0-9a-fA-F]+")
SEED_FORM = "an integer, or its text as results files write it ('0x' and hex digits)"


def seed_text(seed: int | None) -> str | None:
    """A seed as a results file writes it (``0x`` and its hex digits); None stays None."""
    return None if seed is None else f"0x{seed:x}"


def seed_of_text(text: str) -> int | None:
    """The seed a results file's text names (``seed_text``'s form), or None if it names
    none."""
    text = text.strip()
    return int(text, 16) if _SEED_TEXT.fullmatch(text) else None


def read_seed(value: object, argument: str = "seed") -> int | None:
    """A seed as given to ``equity`` and the batches: None, a non-negative integer, or the
    text a results file holds (``seed_text``'s form), as an int; else an error naming
    ``argument``."""
    if isinstance(value, str):
        number = seed_of_text(value)
        if number is not None:
            return number
    return optional_integer(value, argument, 0, expected=SEED_FORM,
                            bounds="a non-negative integer")


# Ctrl-C: KeyboardInterrupt subclasses, so that a bare "except Exception" never swallows them

class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a batch: the first ``kept`` of ``total`` rows are finished
    (and, when ``path`` is set, written there, ready for ``resume=True``)."""

    def __init__(self, kept: int, total: int, path: Path | None) -> None:
        where = f" in {path}" if path is not None else ""
        super().__init__(f"interrupted: {kept:,} of {total:,} rows{where}")
        self.kept, self.total, self.path = kept, total, path


class Interrupted(KeyboardInterrupt):
    """Raised in worker threads whose work was stopped (Ctrl-C or an error elsewhere)."""


def short_text(text: str, room: int = 60) -> str:
    """Text for an error message: a long range text cut to its start."""
    return text if len(text) <= room else text[:room - 3] + "..."
