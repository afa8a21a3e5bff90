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
    """Base class of the package's errors: a bad value (a ``ValueError``).

    Parameters
    ----------
    message : str
        What was wrong and, where it helps, how to write it instead.
    token : object, optional
        The offending input (a card, a range part, a game name), kept as ``.token``.

    Examples
    --------
    >>> from evaluator import EvaluatorError, evaluate
    >>> try:
    ...     evaluate("holdem", "AsKx", "2c7d9h")
    ... except EvaluatorError as error:          # every bad value, of any kind
    ...     print(type(error).__name__, error.token)
    CardError Kx
    """

    def __init__(self, message: str, token: object = None) -> None:
        super().__init__(message)
        self.token = token


class CardError(EvaluatorError):
    """An unknown card, a duplicate card, or a wrong number of cards.

    Examples
    --------
    >>> from evaluator import equity
    >>> equity("holdem", ["AsKs", "AsQd"])
    Traceback (most recent call last):
    ...
    evaluator.errors.CardError: duplicate card 'As' in hand 1 and hand 2
    """


class GameError(EvaluatorError):
    """An unknown game or game option.

    Examples
    --------
    >>> from evaluator import game
    >>> game("short_deck", foo=1)
    Traceback (most recent call last):
    ...
    evaluator.errors.GameError: unknown option 'foo' for game 'short_deck'
    """


class HandError(EvaluatorError):
    """A hand or batch that does not fit the game (wrong size, shape or dtype).

    Examples
    --------
    >>> from evaluator import evaluate
    >>> evaluate("holdem", "AsKsQs")
    Traceback (most recent call last):
    ...
    evaluator.errors.HandError: holdem takes 2 hole cards, got 3: As Ks Qs
    """


class RangeError(EvaluatorError):
    """Range text that cannot be read, or a range left with no combo.

    Examples
    --------
    >>> from evaluator import Range
    >>> Range("QQ+,AKx")
    Traceback (most recent call last):
    ...
    evaluator.errors.RangeError: bad range part 'AKx': use classes like 'AKs', ...
    """


class NoDeal(RangeError):
    """No deal fits the spot: a range with no live combo once the known cards are out, or
    hands every combination of which shares a card.  Studies that look at many boards
    catch this one (that board leaves nothing to deal) and nothing else: any other
    refusal of a board stops the study with its reason."""


class TableError(EvaluatorError):
    """A lookup table file that is missing or damaged; the message names the file and
    how to rebuild it (``evaluator tables verify`` checks them all).

    Examples
    --------
    Raised on the first use of the damaged table, by whatever needed it:

    ```python
    from evaluator import TableError, evaluate

    try:
        evaluate("holdem", "AsKs", "QsJsTs")
    except TableError as error:
        print(error)          # names the file and the command that rebuilds it
    ```
    """


class IllegalAction(EvaluatorError):
    """An action the rules do not allow now; the table is unchanged.

    Examples
    --------
    >>> from evaluator.play import HoldemTable
    >>> table = HoldemTable(["ann", "bob"], seed=1)
    >>> table.act("check")
    Traceback (most recent call last):
    ...
    evaluator.play.IllegalAction: ann cannot check now (legal: fold, call, raise)
    >>> table.pot                        # as it was: the blinds
    3
    """


class HistoryError(EvaluatorError):
    """A hand history that cannot be read, or that does not replay to the result it
    records.

    Examples
    --------
    >>> from evaluator.play import HoldemTable, replay
    >>> table = HoldemTable(["ann", "bob"], seed=1)
    >>> table.act("fold")
    >>> history = table.history()
    >>> history["result"]["won"] = {"ann": 3}            # edited: ann folded
    >>> replay(history)
    Traceback (most recent call last):
    ...
    evaluator.play.HistoryError: the history does not replay to its recorded result: ...
    """


class QueryFailed(EvaluatorError):
    """A query failed while the batch ran (``on_error="stop"``).

    A query that cannot be read stops the batch before anything runs, with the error of
    its kind (a ``CardError``, ...); this one is raised for a query that fails while the
    batch runs, once the rows before it are written.

    Attributes
    ----------
    query : object
        The failed query's id.
    reason : str
        What went wrong.
    kept : int
        The rows finished before it (written to ``path`` when set).
    total : int
        The batch's size.
    path : Path or None
        The output the kept rows are in.

    Examples
    --------
    ```python
    from evaluator import QueryFailed, batch_equity

    try:
        batch_equity("queries.csv", out="rows.csv")
    except QueryFailed as failure:
        print(failure.query, failure.reason, failure.kept)
        # on_error="record" writes the failure in the row's error column and goes on
    ```
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
    """An argument of the wrong Python type (a ``TypeError``); the message names the
    argument, ``token`` holds the value given.

    Examples
    --------
    >>> from evaluator import card_str
    >>> card_str(1.0)
    Traceback (most recent call last):
    ...
    evaluator.errors.ArgumentTypeError: card_id must be an integer card id 0..51, got float 1.0
    """

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
    (and, when ``path`` is set, written there, ready for ``resume=True``).

    A ``KeyboardInterrupt``, so ``except Exception`` does not swallow it.

    Attributes
    ----------
    kept : int
        The rows finished.
    total : int
        The batch's size.
    path : Path or None
        The output holding the kept rows.

    Examples
    --------
    ```python
    from evaluator import BatchInterrupted, batch_equity

    try:
        rows = batch_equity("queries.csv", out="rows.csv")
    except BatchInterrupted as stop:
        print(f"{stop.kept} of {stop.total} rows kept in {stop.path}")
    rows = batch_equity("queries.csv", out="rows.csv", resume=True)   # the rest
    ```
    """

    def __init__(self, kept: int, total: int, path: Path | None) -> None:
        where = f" in {path}" if path is not None else ""
        super().__init__(f"interrupted: {kept:,} of {total:,} rows{where}")
        self.kept, self.total, self.path = kept, total, path


class Interrupted(KeyboardInterrupt):
    """Raised in worker threads whose work was stopped (Ctrl-C or an error elsewhere)."""


def short_text(text: str, room: int = 60) -> str:
    """Text for an error message: a long range text cut to its start."""
    return text if len(text) <= room else text[:room - 3] + "..."
