"""The 169 hold'em starting-hand classes: names, combos, and their pre-flop order.

>>> class_of("AhKh"), len(class_combos("AKo")), CLASS_NAMES[:3]
('AKs', 12, ('AA', 'AKs', 'AQs'))
"""
from __future__ import annotations

import itertools
import re
from functools import cache

from . import _tables
from .cards import CardsLike, parse_cards
from .errors import RangeError

__all__ = ["RANKS", "CLASS_NAMES", "CLASS_INDEX", "CLASS_PATTERN", "class_combos", "class_of",
           "split_class", "preflop_order"]

RANKS = "23456789TJQKA"

# The 169 hold'em classes in the usual 13 x 13 grid: row and column 0 is the ace;
# the diagonal holds the pairs, above it the suited hands, below it the offsuit ones.
CLASS_NAMES = tuple(
    RANKS[12 - i] + RANKS[12 - j] if i == j else
    (RANKS[12 - min(i, j)] + RANKS[12 - max(i, j)] + ("s" if i < j else "o"))
    for i in range(13) for j in range(13))
CLASS_INDEX = {name: k for k, name in enumerate(CLASS_NAMES)}

# ASCII: with Unicode case folding the Kelvin sign would read as a K and the long s as an s
CLASS_PATTERN = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)$", re.IGNORECASE | re.ASCII)


def class_combos(name: str) -> list[tuple[int, int]]:
    """The combos of a hold'em class, e.g. ``class_combos("AKs")`` (4 pairs of card ids)."""
    hi, lo, shape = split_class(name, name)
    if hi == lo:
        return [(4 * hi + a, 4 * hi + b) for a, b in itertools.combinations(range(4), 2)]
    suited = [(4 * lo + s, 4 * hi + s) for s in range(4)]
    offsuit = [(4 * lo + a, 4 * hi + b) for a in range(4) for b in range(4) if a != b]
    return {"s": suited, "o": offsuit, "": suited + offsuit}[shape]


def class_of(cards: CardsLike) -> str:
    """The hold'em class of two cards: ``class_of("AhKh") == "AKs"``."""
    a, b = sorted(parse_cards(cards, count=2).tolist(), reverse=True)
    if a >> 2 == b >> 2:
        return RANKS[a >> 2] * 2
    return RANKS[a >> 2] + RANKS[b >> 2] + ("s" if a & 3 == b & 3 else "o")


def split_class(name: str, part: str) -> tuple[int, int, str]:
    match = CLASS_PATTERN.match(name)
    if match is None:
        raise RangeError(f"bad range part {part!r}: not a hand class like 'AKs' or 'QQ'", part)
    a, b = RANKS.index(match[1].upper()), RANKS.index(match[2].upper())
    shape = match[3].lower()
    if a == b and shape:
        raise RangeError(f"bad range part {part!r}: a pair is neither suited nor offsuit", part)
    return max(a, b), min(a, b), shape


@cache
def preflop_order() -> tuple[str, ...]:
    """The 169 hold'em classes, best first, by exact heads-up equity against a random hand.

    The equities come from the shipped ``preflop_holdem`` table (the exact 169 x 169
    matrix of ``evaluator.preflop_matrix``); ties keep the grid order.
    """
    shares = _tables.load("preflop_holdem")
    vs_random = shares[..., 0].sum(axis=1) / shares[..., 1].sum(axis=1)
    order = sorted(range(169), key=lambda k: (-vs_random[k], k))
    return tuple(CLASS_NAMES[k] for k in order)
