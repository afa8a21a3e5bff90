"""The weights of range text: a part's weight (``AKs:0.5``, ``0.5(AKs)``, ``AA@50``), read
in one pass however long the text, and weights made relative to the largest."""
from __future__ import annotations

import math
import re

import numpy as np

from .errors import RangeError
from .errors import short_text as _short
from .games import Game
from .listing import holdem_part, holdem_syntax
from .patterns import parse_pattern

__all__ = ["FLOAT", "split_weight", "relative"]

# Numbers are written so that a run of digits can be read only one way: "[0-9]+\.?[0-9]*"
# tried every split of 50,000 digits (minutes); "[0-9]+(?:\.[0-9]*)?" reads them once.
FLOAT = (r"[+-]?(?:[0-9]+(?:\.[0-9]*)?(?:e[+-]?[0-9]+)?|\.[0-9]+(?:e[+-]?[0-9]+)?"
          r"|inf(?:inity)?|nan)")
_FLOAT_TEXT = re.compile(FLOAT, re.IGNORECASE)
_WEIGHT_PREFIX = re.compile(r"^([0-9.eE+-]+)\s*\((.*)\)$")
_RANK_DIGITS = frozenset("23456789")

def split_weight(part: str, game: Game) -> tuple[str, float]:
    """A part's body and weight (``AKs:0.5``, ``0.5(AKs)``, ``AA@50`` for 50%; 1 when
    none is given).  A ``:`` followed by anything but a number is an intersection, and
    one followed by a number that also reads as a hand of the game (``AA:22``: deuces,
    or weight 22?) is refused as ambiguous (``_ambiguous``).  No regular expression
    runs over the whole part: ``rpartition`` finds the last ``:`` or ``@`` (a weight
    holds neither), so 100,000 characters of spaces or digits are read in one pass."""
    head, colon, tail = part.rpartition(":")
    number = tail.strip()
    if colon and _FLOAT_TEXT.fullmatch(number):
        if set(number) <= _RANK_DIGITS and _reads_as_term(number, game):
            raise _ambiguous(part, head.strip(), number, game)
        return head.strip(), _weight(part, number, 1.0)
    match = _WEIGHT_PREFIX.match(part)
    if match:
        return match[2].strip(), _weight(part, match[1], 1.0)
    head, at, tail = part.rpartition("@")
    if at:
        return head.strip(), _weight(part, tail.strip(), 0.01)
    return part, 1.0


def _weight(part: str, text: str, scale: float) -> float:
    try:
        weight = float(text) * scale
    except ValueError:
        raise RangeError(f"bad weight in range part {_short(part)!r}: "
                         f"{_short(text, 20)!r} is not a number", part) from None
    if not math.isfinite(weight):
        raise RangeError(f"bad weight in range part {_short(part)!r}: weights are "
                         "finite numbers", part)
    if weight < 0:
        raise RangeError(f"bad weight in range part {_short(part)!r}: weights are "
                         "non-negative", part)
    return weight


def _reads_as_term(text: str, game: Game) -> bool:
    """Whether ``text`` is written as a hand of the game: a hold'em class or span, or a
    pattern of at most the game's hole cards (whether or not any hand matches it)."""
    try:
        if holdem_syntax(game):
            return holdem_part(text, text) is not None
        parse_pattern(text, game.hole)
    except RangeError:
        return False
    return True


def _ambiguous(part: str, body: str, number: str, game: Game) -> RangeError:
    """``AA:22``: the weight 22, or ``AA`` intersected with the hand ``22``?  Refused,
    saying how to write each."""
    if holdem_syntax(game):
        other = f"{number}-{number}"                     # a span of one class
    elif len(number) < game.hole:
        other = number + "*" * (game.hole - len(number))
    else:
        other = f"[{number[0]}]{number[1:]}"             # a one-rank span
    body = _short(body, 30)
    return RangeError(f"range part {_short(part)!r} is ambiguous: ':{number}' reads as a "
                      f"weight and as the hand {number!r}; write the weight as "
                      f"'{body}:{number}.0' or '{body}@{number}00', or the intersection as "
                      f"'{body}:{other}'", part)


def relative(weights: np.ndarray, names: list[str]) -> np.ndarray:
    """Positive weights divided by the largest, so that it is exactly 1 (weights are
    relative); one whose ratio underflows to 0 is refused, naming its part."""
    top = int(np.argmax(weights))
    scaled = weights / weights[top]
    lost = np.flatnonzero(scaled == 0)
    if len(lost):
        name = names[lost[0]]
        raise RangeError(f"the weight of {_short(name)!r} is too small beside that of "
                         f"{_short(names[top])!r} to be represented: weights are relative, "
                         "and their ratio underflows to 0", name)
    return scaled
