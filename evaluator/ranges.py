"""Range text -> weighted combos.

Hold'em ranges use the notation of PokerStove and Equilab, comma separated:

======================  ===================================================
``AA``, ``AKs``,        a pair (6 combos), a suited (4) or offsuit (12)
``AKo``, ``AK``         class, or both (16)
``QQ+``                 that pair and every higher one
``A2s+``, ``KTo+``      that class and every better kicker (up to ``AKs``)
``22-55``, ``A2s-A5s``  a span of pairs, of kickers under one card,
``T9s-65s``             or of classes with the same gap
``AhKh``                one combo
``random``, ``any``     every combo (1,326)
``15%``                 the best 15% of combos in the pre-flop ordering
``AKs:0.5``,            a weight: the combos are dealt half as often as
``0.5(AKs)``            weight-1 combos (weights are relative, 0 drops them)
======================  ===================================================

The pre-flop ordering ranks the 169 classes by their exact heads-up equity
against a random hand (``preflop_order``), computed by this package.

Every other game takes exact hands and *patterns*: one
entry per hole card, each a rank (``A`` ... ``2``) or ``*`` for any rank,
followed by an optional suit: ``s``, ``h``, ``d``, ``c``, or a suit variable
``w``, ``x``, ``y``, ``z`` (different variables are different suits).  A
variable alone is any rank of that suit.  ``AA**`` is every Omaha hand with
two aces, ``AxAyxy`` the double-suited aces, ``KK`` in Omaha means ``KK**``.

>>> len(Range("QQ+,AKs")), len(Range("random")), len(Range("KTo+"))
(22, 1326, 36)
>>> Range("AKx")
Traceback (most recent call last):
...
evaluator.errors.RangeError: bad range part 'AKx' in 'AKx': ...
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator
from functools import cache, lru_cache

import numpy as np

from .cards import format_cards, parse_cards
from .errors import CardError, RangeError
from .games import Game
from .games import game as _game

__all__ = ["Range", "RangeError", "CLASS_NAMES", "class_combos", "class_of", "preflop_order"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
VARIABLES = "wxyz"

# The 169 hold'em classes in the usual 13 x 13 grid: row and column 0 is the ace;
# the diagonal holds the pairs, above it the suited hands, below it the offsuit ones.
CLASS_NAMES = tuple(
    RANKS[12 - i] + RANKS[12 - j] if i == j else
    (RANKS[12 - min(i, j)] + RANKS[12 - max(i, j)] + ("s" if i < j else "o"))
    for i in range(13) for j in range(13))
_CLASS_INDEX = {name: k for k, name in enumerate(CLASS_NAMES)}

_WEIGHT_SUFFIX = re.compile(r"^(.*?):\s*(\S+)$")
_WEIGHT_PREFIX = re.compile(r"^([0-9.eE+-]+)\s*\((.*)\)$")
_CLASS = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)$", re.IGNORECASE)
_PERCENT = re.compile(r"^([0-9.]+)\s*%$")
_PATTERN_ENTRY = re.compile(r"([2-9TJQKA*])([cdhswxyz]?)|([wxyz])", re.IGNORECASE)


def class_combos(name: str) -> list[tuple[int, int]]:
    """The combos of a hold'em class, e.g. ``class_combos("AKs")`` (4 pairs of card ids)."""
    hi, lo, shape = _split_class(name, name)
    if hi == lo:
        return [(4 * hi + a, 4 * hi + b) for a, b in itertools.combinations(range(4), 2)]
    suited = [(4 * lo + s, 4 * hi + s) for s in range(4)]
    offsuit = [(4 * lo + a, 4 * hi + b) for a in range(4) for b in range(4) if a != b]
    return {"s": suited, "o": offsuit, "": suited + offsuit}[shape]


def class_of(cards) -> str:
    """The hold'em class of two cards: ``class_of("AhKh") == "AKs"``."""
    a, b = sorted(parse_cards(cards, count=2).tolist(), reverse=True)
    if a >> 2 == b >> 2:
        return RANKS[a >> 2] * 2
    return RANKS[a >> 2] + RANKS[b >> 2] + ("s" if a & 3 == b & 3 else "o")


def _split_class(name: str, part: str) -> tuple[int, int, str]:
    match = _CLASS.match(name)
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

    The equities come from the shipped ``preflop_holdem`` table (see
    ``evaluator.studies.preflop_matrix``); ties keep the grid order.
    """
    from .studies import preflop_matrix
    vs_random = preflop_matrix().vs_random()
    order = sorted(range(169), key=lambda k: (-vs_random[k], k))
    return tuple(CLASS_NAMES[k] for k in order)


def _top_percent(percent: float, part: str) -> list[tuple[int, int]]:
    if not 0 < percent <= 100:
        raise RangeError(f"bad range part {part!r}: a percentage must be in (0, 100]", part)
    target = percent / 100 * 1326
    combos: list[tuple[int, int]] = []
    for name in preflop_order():
        if len(combos) >= target:
            break
        more = class_combos(name)
        # stop at the class boundary closest to the target
        if len(combos) + len(more) - target > target - len(combos) and combos:
            break
        combos += more
    return combos


def _holdem_part(text: str, part: str) -> list[tuple[int, int]] | None:
    """Combos of one hold'em part, or None when it is not hold'em class notation."""
    plain = text.replace(" ", "")
    if plain.endswith("+"):
        hi, lo, shape = _split_class(plain[:-1], part)
        if hi == lo:
            names = [RANKS[r] * 2 for r in range(hi, 13)]
        else:
            names = [RANKS[hi] + RANKS[k] + shape for k in range(lo, hi)]
        return [c for name in names for c in class_combos(name)]
    if "-" in plain:
        ends = plain.split("-")
        if len(ends) != 2:
            raise RangeError(f"bad range part {part!r}: a span has two ends, like '22-55'", part)
        (h1, l1, s1), (h2, l2, s2) = (_split_class(e, part) for e in ends)
        if s1 != s2:
            raise RangeError(f"bad range part {part!r}: both ends must be suited, offsuit "
                             "or neither", part)
        if h1 == l1 and h2 == l2:
            names = [RANKS[r] * 2 for r in range(min(h1, h2), max(h1, h2) + 1)]
        elif h1 == h2 and l1 != h1 and l2 != h2:
            names = [RANKS[h1] + RANKS[k] + s1 for k in range(min(l1, l2), max(l1, l2) + 1)]
        elif h1 - l1 == h2 - l2 and h1 != l1:
            gap = h1 - l1
            names = [RANKS[h] + RANKS[h - gap] + s1 for h in range(min(h1, h2), max(h1, h2) + 1)]
        else:
            raise RangeError(f"bad range part {part!r}: a span keeps pairs, the top card or "
                             "the gap fixed, like '22-55', 'A2s-A5s' or 'T9s-65s'", part)
        return [c for name in names for c in class_combos(name)]
    if _CLASS.match(plain):
        return class_combos(plain)
    return None


PATTERN_LIMIT = 3_000_000     # hands a pattern may list


@lru_cache(maxsize=16)
def _index_combinations(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n), one per row in increasing order (read-only)."""
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)),
                       np.uint8, count=math.comb(n, k) * k)
    out = flat.reshape(-1, k)
    out.flags.writeable = False
    return out


_CARD_BITS = np.uint64(1) << np.arange(52, dtype=np.uint64)


def card_masks(rows: np.ndarray) -> np.ndarray:
    """uint64 card mask of every row of card ids (a column at a time: 5-10x faster than
    shifting the whole array)."""
    masks = _CARD_BITS[rows[:, 0]]
    for j in range(1, rows.shape[1]):
        masks |= _CARD_BITS[rows[:, j]]
    return masks


def _unique_hands(rows: np.ndarray) -> np.ndarray:
    """The distinct hands among rows of sorted card ids (by card mask), in any order."""
    _, first = np.unique(card_masks(rows), return_index=True)
    return rows[first]


def _pattern(text: str, hole: int, part: str) -> np.ndarray:
    """Every hand of ``hole`` cards that fits a pattern such as ``AxAyxy`` or ``AA**``:
    uint8 (n, hole), each row sorted, rows in increasing order."""
    entries: list[tuple[int | None, str | None]] = []     # (rank or None, suit letter or None)
    pos = 0
    plain = text.replace(" ", "")
    while pos < len(plain):
        match = _PATTERN_ENTRY.match(plain, pos)
        if match is None:
            raise RangeError(f"bad range part {part!r}: {plain[pos:]!r} is not a card pattern",
                             part)
        if match[3]:
            entries.append((None, match[3].lower()))
        else:
            rank = None if match[1] == "*" else RANKS.index(match[1].upper())
            entries.append((rank, match[2].lower() or None))
        pos = match.end()
    if len(entries) > hole:
        raise RangeError(f"bad range part {part!r}: {len(entries)} cards, the game has {hole}",
                         part)
    entries += [(None, None)] * (hole - len(entries))
    variables = sorted({s for _, s in entries if s is not None and s in VARIABLES})
    fixed = [e for e in entries if e != (None, None)]
    free = hole - len(fixed)
    # the fixed entries' card choices in Python (few), the free cards as arrays: every
    # free-card subset of the cards the fixed ones leave
    extra = _index_combinations(52 - len(fixed), free) if free else None
    blocks: list[np.ndarray] = []
    listed = 0
    for suits in itertools.permutations(range(4), len(variables)):
        binding = dict(zip(variables, suits))
        allowed = []
        for rank, suit in fixed:
            ranks = range(13) if rank is None else (rank,)
            if suit is None:
                allowed.append([4 * r + s for r in ranks for s in range(4)])
            else:
                s = binding[suit] if suit in binding else SUITS.index(suit)
                allowed.append([4 * r + s for r in ranks])
        for chosen in itertools.product(*allowed):
            if len(set(chosen)) < len(chosen):
                continue
            if not free:
                blocks.append(np.array([chosen], np.uint8))
                listed += 1
            else:
                rest = np.array([c for c in range(52) if c not in chosen], np.uint8)
                block = np.empty((len(extra), hole), np.uint8)
                block[:, :len(chosen)] = chosen
                block[:, len(chosen):] = rest[extra]
                blocks.append(block)
                listed += len(block)
            if listed > 2 * PATTERN_LIMIT:        # merge what is listed so far
                blocks = [_unique_hands(np.sort(np.concatenate(blocks), axis=1))]
                listed = len(blocks[0])
                if listed > PATTERN_LIMIT:
                    raise RangeError(f"range part {part!r} holds too many hands to list; "
                                     "use 'random' for any hand", part)
    if not blocks:
        raise RangeError(f"range part {part!r} matches no hand", part)
    hands = _unique_hands(np.sort(np.concatenate(blocks), axis=1))
    if len(hands) > PATTERN_LIMIT:
        raise RangeError(f"range part {part!r} holds too many hands to list; "
                         "use 'random' for any hand", part)
    return hands[np.lexsort(hands.T[::-1])]


def _split_weight(part: str) -> tuple[str, float]:
    for regex, text_group, weight_group in ((_WEIGHT_SUFFIX, 1, 2), (_WEIGHT_PREFIX, 2, 1)):
        match = regex.match(part)
        if match:
            try:
                weight = float(match[weight_group])
            except ValueError:
                raise RangeError(f"bad weight in range part {part!r}", part) from None
            if not (math.isfinite(weight) and weight >= 0):
                raise RangeError(f"bad weight in range part {part!r}: weights are "
                                 "non-negative numbers", part)
            return match[text_group].strip(), weight
    return part, 1.0


class Range:
    """A weighted set of hole-card combos for one game.

    Parameters
    ----------
    text : str, Range, or sequence of hands
        Range notation (see the module doc), or hands given one by one.
    game : str or Game
        The game whose hole cards the combos are (default hold'em).

    Attributes
    ----------
    combos : ndarray of uint8, shape (n, hole)
        Each combo's cards in increasing id order, rows in increasing order.
    weights : ndarray of float64, shape (n,)
        Each combo's relative weight (all positive).

    A combo listed more than once keeps the last weight given.
    """

    def __init__(self, text, game: str | Game = "holdem") -> None:
        if isinstance(text, Range):
            self.game, self.text = text.game, text.text
            self.combos, self.weights = text.combos, text.weights
            return
        self.game = _game(game)
        hole = self.game.hole
        rows: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        if isinstance(text, str):
            self.text = text.strip()
            parts = [p.strip() for p in self.text.split(",")]
        else:
            parts = list(text)
            self.text = ",".join(format_cards(parse_cards(p), sep="") if not isinstance(p, str)
                                 else p for p in parts)
        if not parts or parts == [""]:
            raise RangeError("empty range", text)
        for part in parts:
            if isinstance(part, str):
                if not part:
                    raise RangeError(f"empty part in range {self.text!r}", self.text)
                body, weight = _split_weight(part)
                combos = self._part(body, hole, part)
            else:
                weight = 1.0
                combos = [parse_cards(part, count=hole).tolist()]
            block = np.sort(np.asarray(combos, np.uint8).reshape(-1, hole), axis=1)
            rows.append(block)
            weights.append(np.full(len(block), weight))
        combos = np.concatenate(rows)
        weight = np.concatenate(weights)
        # a combo listed more than once keeps the last weight given: the first of each
        # card mask when read backwards
        masks = card_masks(combos)
        _, last = np.unique(masks[::-1], return_index=True)
        keep = len(masks) - 1 - last
        keep = keep[weight[keep] > 0]
        if not len(keep):
            raise RangeError(f"range {self.text!r} has no combo with a positive weight",
                             self.text)
        combos, weight = combos[keep], weight[keep]
        order = np.lexsort(combos.T[::-1])
        self.combos = np.ascontiguousarray(combos[order])
        self.weights = np.ascontiguousarray(weight[order])
        self.combos.flags.writeable = False
        self.weights.flags.writeable = False

    def _part(self, body: str, hole: int, part: str) -> list[tuple[int, ...]]:
        lower = body.lower()
        if lower in ("random", "any", "*"):
            return _index_combinations(52, hole)
        percent = _PERCENT.match(body)
        if percent:
            if self.game.hole != 2 or self.game.rule != "best5":
                raise RangeError(f"range part {part!r}: top-percent ranges are for hold'em",
                                 part)
            return _top_percent(float(percent[1]), part)
        if "?" not in body:
            try:      # an exact hand
                cards = parse_cards(body, what=f"range part {part!r}", allow_duplicates=True)
            except CardError:
                pass
            else:
                cards = parse_cards(body, what=f"range part {part!r}")
                if len(cards) != hole:
                    raise RangeError(f"range part {part!r} has {len(cards)} cards; "
                                     f"{self.game.name} hands have {hole}", part)
                return [tuple(cards.tolist())]
        if hole == 2 and self.game.rule == "best5":
            combos = _holdem_part(body, part)
            if combos is None:
                raise RangeError(f"bad range part {part!r} in {self.text!r}: use classes like "
                                 "'AKs', 'QQ+', '22-55', 'T9s-65s', combos like 'AhKh', "
                                 "'random' or 'N%'", part)
            return combos
        return _pattern(body, hole, part)

    @classmethod
    def _from_combos(cls, game: Game, text: str, combos: np.ndarray,
                     weights: np.ndarray | None = None) -> Range:
        """A range from an array of combos (rows sorted here), weight 1 unless given."""
        out = object.__new__(cls)
        out.game, out.text = game, text
        rows = np.sort(np.asarray(combos, np.uint8), axis=1)
        order = np.lexsort(rows.T[::-1])
        out.combos = np.ascontiguousarray(rows[order])
        out.weights = (np.ones(len(rows)) if weights is None
                       else np.asarray(weights, np.float64)[order])
        return out

    def __len__(self) -> int:
        return len(self.weights)

    def __iter__(self) -> Iterator[tuple[str, float]]:
        for combo, weight in zip(self.combos.tolist(), self.weights.tolist()):
            yield format_cards(combo, sep=""), weight

    def __repr__(self) -> str:
        return f"Range({self.text!r}, game={self.game.name!r})  # {len(self)} combos"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Range) and self.game == other.game
                and np.array_equal(self.combos, other.combos)
                and np.array_equal(self.weights, other.weights))

    def live(self, dead) -> Range:
        """The combos that hold none of ``dead`` (card removal); may be empty."""
        dead_ids = parse_cards(dead, allow_duplicates=True)
        out = object.__new__(Range)
        out.game, out.text = self.game, self.text
        keep = ~np.isin(self.combos, dead_ids).any(axis=1)
        out.combos, out.weights = self.combos[keep], self.weights[keep]
        return out

    @property
    def total_weight(self) -> float:
        return float(self.weights.sum())

    def classes(self) -> dict[str, float]:
        """Hold'em only: each class's share of its combos in the range (weighted), grid order."""
        if self.game.hole != 2:
            raise RangeError("classes() is for hold'em ranges", self.game.name)
        share = np.zeros(169)
        for combo, weight in zip(self.combos.tolist(), self.weights.tolist()):
            share[_CLASS_INDEX[class_of(combo)]] += weight
        sizes = np.array([len(class_combos(n)) for n in CLASS_NAMES])
        return dict(zip(CLASS_NAMES, (share / sizes).tolist()))
