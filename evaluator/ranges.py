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

Weights are relative: each range's are divided by its largest, which becomes
exactly 1 (``AA:1e308,KK`` is ``AA,KK:1e-308``; a range with one weight has weight
1 everywhere).  A weight that is not a finite non-negative number, or one so small
beside the largest that their ratio underflows to 0, is refused naming its part.
``random``, ``any`` and ``*`` are the same, in any case.

The pre-flop ordering ranks the 169 classes by their exact heads-up equity
against a random hand (``preflop_order``), computed by this package.

Every other game (Omaha 4/5/6 and hi-lo, Tahoe, "The", Teen Patti) takes exact hands
and the generic pattern syntax of Omaha players (``patterns`` has it in full):

======================  ===================================================
``AA``                  at least two aces (6,961 Omaha hands); ``AA**`` too
``RROO``                two pairs (2,808), ``RR`` a pair or better
``[K-T][K-T]**``        two cards from K down to T (spans; ``[AK8]`` lists)
``AxAyxy``, ``xxyy``    double-suited aces (864); any double-suited hand
``AA$ds``               macros: ``$ds`` double-suited, ``$ss`` single-suited,
                        ``$r`` rainbow, ``$np`` no pair (``AA$ds``: 864)
``KK!KKK:$r``           ``!`` exclusion and ``:`` intersection, left to right:
                        exactly two kings, rainbow (864)
``15%``, ``5%-10%``     the best 15%, or the hands between the 5% and the
                        10% boundaries, by the game's shipped ranking
``AA$ds:0.5``,          weights, as in hold'em; ``@50`` is 50%
``AA$ds@50``
``AsKs``                written-out cards, padded with ``*`` (``AsKs**``)
======================  ===================================================

``AA:22`` (weight 22, or AA with two deuces?) is refused as ambiguous, as is any
``:`` and a number of the digits 2-9 that is also a hand of the game (``AKs:22`` in
hold'em; ``AKs:2`` stays weight 2); write ``AA:22.0`` or ``AA@2200``, or ``AA:22**``.
A space inside a hand (``AA KK``) is refused: a comma separates hands.

``:`` and ``!`` (and percentages inside them: ``15%:$ds``, ``20%!10%``) work in
hold'em ranges too.

A range holds at most ``RANGE_LIMIT`` (4,000,000) combos.  A pattern is counted
before it is listed (its hands, counting those it matches more than one way, may
not pass ``LISTING_LIMIT``, twice that), so ``******`` or ``random`` in 6-card Omaha
(20,358,520 hands) is refused at once; equity deals a ``random`` hand without
listing it.  A small part (at most 4,096 hands) given twice is listed once, and
the terms of a range's parts may list at most ``WORK_LIMIT`` (10,000,000) hands in
all, repeats of larger parts and terms included; its ``:`` and ``!`` may test at most
``TERM_LIMIT`` (40,000,000) hands.  A term given again with the same operator in one
part is skipped (``AA!KK!KK`` is ``AA!KK``).  So any range text, however long, lists
in seconds or is refused.

>>> len(Range("QQ+,AKs")), len(Range("random")), len(Range("KTo+"))
(22, 1326, 36)
>>> Range("AKx")
Traceback (most recent call last):
...
evaluator.errors.RangeError: bad range part 'AKx': use classes like 'AKs', ...
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, lru_cache
from typing import TypeAlias

import numpy as np

from .cards import CardsLike, card_str, format_cards, parse_cards
from .classes import (
    CLASS_INDEX,
    CLASS_NAMES,
    CLASS_PATTERN,
    RANKS,
    class_combos,
    class_of,
    preflop_order,
    split_class,
)
from .errors import CardError, RangeError, check_type
from .errors import short_text as _short
from .families import family
from .games import Game
from .games import game as _game
from .patterns import (
    Pattern,
    binding_rows,
    element_groups,
    group_size,
    listing_bound,
    macro_filter,
    macro_possible,
    padding,
    parse_pattern,
    why_empty,
)
from .rankings import ranked_classes, ships, suit_classes

__all__ = ["Range", "RangeLike", "RangeError", "CLASS_NAMES", "RANGE_LIMIT", "class_combos",
           "class_of", "preflop_order"]

# Numbers are written so that a run of digits can be read only one way: "[0-9]+\.?[0-9]*"
# tried every split of 50,000 digits (minutes); "[0-9]+(?:\.[0-9]*)?" reads them once.
_FLOAT = (r"[+-]?(?:[0-9]+(?:\.[0-9]*)?(?:e[+-]?[0-9]+)?|\.[0-9]+(?:e[+-]?[0-9]+)?"
          r"|inf(?:inity)?|nan)")
_FLOAT_TEXT = re.compile(_FLOAT, re.IGNORECASE)
_WEIGHT_PREFIX = re.compile(r"^([0-9.eE+-]+)\s*\((.*)\)$")
_NUMBER = r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*%"
_RANK_DIGITS = frozenset("23456789")
_PERCENT = re.compile(rf"^{_NUMBER}$")
_PERCENT_SPAN = re.compile(rf"^{_NUMBER}\s*-\s*{_NUMBER}$")
_TERMS = re.compile(r"([:!])")


def _top_percent(percent: float) -> list[tuple[int, int]]:
    """The hold'em combos of the best classes whose combos come closest to ``percent``."""
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


def _top_percent_masks(game: Game, low: float, high: float, part: str,
                       macros: tuple[str, ...] = ()) -> np.ndarray:
    """``N%`` (low = 0) or ``N%-M%``: the hands ranked from ``low`` to ``high`` percent
    of the game's hands by its shipped ranking (``rankings``).  ``macros`` (``15%:$ds``)
    filter the suit classes before they are listed, so a wide percentage of 6-card
    hands narrowed by a macro need not be listed whole."""
    if not (0 < high <= 100 and 0 <= low < 100):
        raise RangeError(f"bad range part {_short(part)!r}: a percentage must be in "
                         "(0, 100]", part)
    if high <= low:
        raise RangeError(f"bad range part {_short(part)!r}: a span of percentages goes from "
                         "the lower to the higher, like '5%-10%'", part)
    if family(game).holdem_notation(game) and not ships(game):
        top = _pair_masks(_top_percent(high))
        top = np.setdiff1d(top, _pair_masks(_top_percent(low))) if low else top
        if not len(top):
            raise RangeError(f"range part {_short(part)!r} matches no hand: no whole class "
                             "lies between those percentages (widen the span)", part)
        return top
    classes, sizes = ranked_classes(game, low, high)
    if not len(classes):
        raise RangeError(f"range part {_short(part)!r} matches no hand: no whole suit class "
                         "of hands lies between those percentages (widen the span)", part)
    if macros:                  # suit and rank counts are the same across a class
        keep = np.isin(classes, macro_filter(macros, classes))
        classes, sizes = classes[keep], sizes[keep]
    if sizes.sum() > RANGE_LIMIT:
        raise _too_many(part, int(sizes.sum()), game)
    return suit_classes(classes)


def _holdem_part(text: str, part: str) -> list[tuple[int, int]] | None:
    """Combos of one hold'em part, or None when it is not hold'em class notation."""
    plain = text.replace(" ", "")
    if plain.endswith("+"):
        hi, lo, shape = split_class(plain[:-1], part)
        if hi == lo:
            names = [RANKS[r] * 2 for r in range(hi, 13)]
        else:
            names = [RANKS[hi] + RANKS[k] + shape for k in range(lo, hi)]
        return [c for name in names for c in class_combos(name)]
    if "-" in plain:
        ends = plain.split("-")
        if len(ends) != 2:
            raise RangeError(f"bad range part {part!r}: a span has two ends, like '22-55'", part)
        (h1, l1, s1), (h2, l2, s2) = (split_class(e, part) for e in ends)
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
    if CLASS_PATTERN.match(plain):
        return class_combos(plain)
    return None


RANGE_LIMIT = 4_000_000               # combos one range may hold (15% of 6-card Omaha)
LISTING_LIMIT = 2 * RANGE_LIMIT       # hands a pattern may list, counting repeats
WORK_LIMIT = 10_000_000               # hands the parts of one range may list in all
TERM_LIMIT = 40_000_000               # hands the ':' and '!' terms of a range may test
_SMALL_PART = 4096                    # parts this small are listed once per range text
_CHUNK = 1 << 20                      # card-mask pairs joined at a time

_CARD_BITS = np.uint64(1) << np.arange(52, dtype=np.uint64)


_CARD_TEXT = np.array([card_str(c).encode() for c in range(52)], "S2")


def card_masks(rows: np.ndarray) -> np.ndarray:
    """uint64 card mask of every row of card ids (a column at a time: 5-10x faster than
    shifting the whole array)."""
    masks = _CARD_BITS[rows[:, 0]]
    for j in range(1, rows.shape[1]):
        masks |= _CARD_BITS[rows[:, j]]
    return masks


def _mask_rows(masks: np.ndarray, hole: int) -> np.ndarray:
    """The card ids of each mask of ``hole`` cards, each row in increasing order."""
    rows = np.empty((len(masks), hole), np.uint8)
    rest = masks.copy()
    for j in range(hole):
        low = rest & (~rest + np.uint64(1))          # the lowest card left
        rows[:, j] = np.frexp(low.astype(np.float64))[1] - 1
        rest ^= low
    return rows


def _subsets(bits: np.ndarray, k: int) -> np.ndarray:
    """Masks of every k-subset of the cards whose single-card masks are ``bits``."""
    levels = [np.zeros(1, np.uint64)] + [np.empty(0, np.uint64)] * k
    for n, bit in enumerate(bits, start=1):
        for j in range(min(k, n), 0, -1):
            levels[j] = np.concatenate([levels[j], levels[j - 1] | bit])
    return levels[k]


@cache
def _deck_subsets(k: int) -> np.ndarray:
    out = _subsets(_CARD_BITS, k)
    out.flags.writeable = False
    return out


def _subset_masks(k: int) -> np.ndarray:
    """Masks of every k-card subset of the deck (read-only).  Cached up to 4 cards
    (2.4 MB in all); the 2,598,960 five-card ones (21 MB) are made when needed."""
    if k <= 4:
        return _deck_subsets(k)
    return _subsets(_CARD_BITS, k)


def _join(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``a | b`` for every mask ``a`` of left and ``b`` of right with no card in common,
    a bounded slice of the pairs at a time."""
    step = max(1, _CHUNK // max(1, len(right)))
    out = [np.empty(0, np.uint64)]
    for start in range(0, len(left), step):
        a = left[start:start + step, None]
        out.append((a | right)[(a & right) == 0])
    return np.concatenate(out)


def _distinct(masks: np.ndarray) -> np.ndarray:
    """The distinct masks, in increasing order (a sort: numpy's hashing unique is slower
    on millions of masks)."""
    masks = np.sort(masks)
    return masks[np.concatenate(([True], masks[1:] != masks[:-1]))] if len(masks) else masks


def _too_many(part: str, hands: int, game: Game, counting: str = "") -> RangeError:
    return RangeError(f"range part {_short(part)!r} holds too many hands to list: "
                      f"{hands:,} {game.name} hands{counting}, and a range holds at most "
                      f"{RANGE_LIMIT:,}; narrow it, or give 'random' as a hand of its own",
                      part)


def _pattern(text: str, game: Game, part: str) -> np.ndarray:
    """Card masks of every hand that fits a pattern of the generic syntax (``AA$ds``,
    ``RROO``, ``[K-T][K-T]**``; see ``patterns``), each once, in increasing order.

    Under each binding of its variables, the pattern's groups of equal elements choose
    their cards together (``AA`` picks 2 of the 4 aces), and the padding takes every
    subset of the cards left (``_list_bindings``).  The hands listed that way, repeats
    included, are counted first: a pattern that could list more than ``LISTING_LIMIT``
    is refused before any is listed.  Macros then filter the hands (a macro alone
    filters every hand)."""
    pattern = parse_pattern(text, game.hole, part)
    for name in pattern.macros:
        if not macro_possible(name, game.hole):
            raise RangeError(f"range part {_short(part)!r} matches no hand: no {game.hole}-card "
                             f"hand passes ${name} (see the macros in the range syntax)", part)
    if all(e.padding for e in pattern.elements):
        hands = _every_hand(game, part)
    else:
        why = why_empty(pattern)
        if why:
            raise RangeError(f"range part {_short(part)!r} matches no hand: {why}", part)
        bound = listing_bound(pattern, game.hole)
        if bound > LISTING_LIMIT:
            raise _too_many(part, bound, game, " counting those it matches more than one way")
        hands = _distinct(_list_bindings(pattern, game.hole))
    hands = macro_filter(pattern.macros, hands)
    if not len(hands):
        macros = "".join("$" + m for m in pattern.macros)
        raise RangeError(f"range part {_short(part)!r} matches no hand: no hand of "
                         f"{_short(text.replace(macros, '') or '*', 30)!r} passes {macros}",
                         part)
    if len(hands) > RANGE_LIMIT:
        raise _too_many(part, len(hands), game)
    return hands


_CLASH = np.uint64(0xFFFF_FFFF_FFFF_FFFF)   # a choice that reuses a card (no hand has it)


def _list_bindings(pattern: Pattern, hole: int) -> np.ndarray:
    """The card masks the pattern lists under every binding of its variables, repeats
    included, bindings a block at a time: a numpy array per element group holds each
    binding's choices of the group's cards (a row per binding), so a pattern of many
    variables costs no Python loop per binding (``BwCxDyEzFw`` in 5-card Omaha has
    1,853,280 bindings of one hand each).  Choices are combined binding by binding; one
    that takes a card twice becomes ``_CLASH``, which every later group keeps."""
    rank_names, rank_rows, suit_names, suit_rows = binding_rows(pattern)
    groups = element_groups(pattern)
    free = padding(pattern)
    each = math.prod(math.comb(group_size(r, s), n) for r, s, n in groups)
    step = max(1, _CHUNK // each)
    fixed: dict[tuple[object, object], np.ndarray] = {}    # groups with no variable
    for ranks, suits, n in groups:
        if not isinstance(ranks, str) and not isinstance(suits, str):
            cards = [4 * r + s for r in ranks for s in suits]
            fixed[ranks, suits] = _subsets(_CARD_BITS[cards], n)[None, :]
    blocks = [np.empty(0, np.uint64)]
    for suit_row in suit_rows.astype(np.int64):
        for start in range(0, len(rank_rows), step):
            chunk = rank_rows[start:start + step].astype(np.int64)
            block = np.zeros((len(chunk), 1), np.uint64)
            for ranks, suits, n in groups:
                choices = fixed.get((ranks, suits))
                if choices is None:
                    choices = _variable_choices(chunk, rank_names, suit_row, suit_names,
                                                ranks, suits, n)
                both = block[:, :, None] | choices[:, None, :]
                both[(block[:, :, None] & choices[:, None, :]) != 0] = _CLASH
                block = both.reshape(len(chunk), -1)
            listed = block.ravel()
            listed = listed[listed != _CLASH]
            blocks.append(_join(listed, _subset_masks(free)) if free else listed)
    return np.concatenate(blocks)


def _variable_choices(chunk: np.ndarray, rank_names: list[str], suit_row: np.ndarray,
                      suit_names: list[str], ranks: tuple[int, ...] | str,
                      suits: tuple[int, ...] | str, n: int) -> np.ndarray:
    """(bindings, choices) the masks of the ``n``-card subsets of a group's cards, for a
    group with a variable, under each binding of ``chunk`` and ``suit_row``."""
    if isinstance(ranks, str):
        rank_ids = chunk[:, [rank_names.index(ranks)]]
    else:
        rank_ids = np.broadcast_to(np.array(ranks, np.int64), (len(chunk), len(ranks)))
    suit_ids = (suit_row[[suit_names.index(suits)]] if isinstance(suits, str)
                else np.array(suits, np.int64))
    cards = (4 * rank_ids[:, :, None] + suit_ids[None, None, :]).reshape(len(chunk), -1)
    picks = np.array(list(itertools.combinations(range(cards.shape[1]), n)), np.int64)
    return np.bitwise_or.reduce(_CARD_BITS[cards][:, picks], axis=2)


def _every_hand(game: Game, part: str) -> np.ndarray:
    every = math.comb(52, game.hole)
    if every > LISTING_LIMIT:
        raise _too_many(part, every, game)
    return _subset_masks(game.hole)


def _member(hands: np.ndarray, sorted_masks: np.ndarray) -> np.ndarray:
    """Which of ``hands`` are in ``sorted_masks`` (sorted, distinct)."""
    if not len(sorted_masks):
        return np.zeros(len(hands), bool)
    at = np.minimum(np.searchsorted(sorted_masks, hands), len(sorted_masks) - 1)
    return sorted_masks[at] == hands


@lru_cache(maxsize=64)
def _cached_term(game: Game, body: str, macros: tuple[str, ...]) -> np.ndarray:
    masks = _distinct(_list_term(game, body, body, macros))
    masks.flags.writeable = False
    return masks


def _term_masks(game: Game, body: str, part: str, macros: tuple[str, ...] = ()) -> np.ndarray:
    """The sorted, distinct card masks of one term, cached by game and text (a term's
    hands do not depend on the part around it; only error messages name the part, and
    errors are not cached).  ``macros`` the part intersects the term with may narrow a
    percentage before it is listed."""
    if not (_PERCENT.match(body) or _PERCENT_SPAN.match(body)):
        macros = ()
    try:
        return _cached_term(game, body, macros)
    except RangeError as error:
        if part == body:
            raise
        # name the whole part, as every other message does
        raise RangeError(str(error).replace(repr(_short(body)), repr(_short(part)), 1),
                         part) from None


def _list_term(game: Game, body: str, part: str, macros: tuple[str, ...] = ()) -> np.ndarray:
    """The card masks of one term (a hand, a hold'em class or span, a pattern, a
    percentage, or every hand)."""
    hole = game.hole
    if body.lower() in ("random", "any", "*"):
        every = math.comb(52, hole)
        if every > RANGE_LIMIT:
            raise _too_many(part, every, game)
        return _subset_masks(hole)
    holdem = _holdem_syntax(game)
    percent, span = _PERCENT.match(body), _PERCENT_SPAN.match(body)
    if percent:
        return _top_percent_masks(game, 0.0, float(percent[1]), part, macros)
    if span:
        return _top_percent_masks(game, float(span[1]), float(span[2]), part, macros)
    if "?" not in body:
        try:      # an exact hand
            cards = parse_cards(body, allow_duplicates=True)
        except CardError:
            pass
        else:
            cards = parse_cards(body, what=f"range part {_short(part)!r}")
            if len(cards) < hole and not holdem:    # written-out cards pad with '*' too
                return _pattern(format_cards(cards, sep=""), game, part)
            if len(cards) != hole:
                raise RangeError(f"range part {_short(part)!r} has {len(cards)} cards; "
                                 f"{game.name} hands have {hole}", part)
            return card_masks(cards[None, :])
    if holdem:
        combos = _holdem_part(body, part)
        if combos is None:
            words = body.split()
            comma = ("" if len(words) < 2 else "; a space does not separate hands, a comma "
                     f"does ({_short(','.join(words), 30)!r})")
            raise RangeError(f"bad range part {_short(part)!r}: use classes like 'AKs', "
                             "'QQ+', '22-55', 'T9s-65s', combos like 'AhKh', 'random' or "
                             f"'N%'{comma}", part)
        return _pair_masks(combos)
    return _pattern(body, game, part)


def _pair_masks(combos: list[tuple[int, int]]) -> np.ndarray:
    return np.array([(1 << a) | (1 << b) for a, b in combos], np.uint64)


def _split_weight(part: str, game: Game) -> tuple[str, float]:
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


def _holdem_syntax(game: Game) -> bool:
    """Whether the game's ranges are hold'em class notation (else the pattern syntax)."""
    return family(game).holdem_notation(game)


def _reads_as_term(text: str, game: Game) -> bool:
    """Whether ``text`` is written as a hand of the game: a hold'em class or span, or a
    pattern of at most the game's hole cards (whether or not any hand matches it)."""
    try:
        if _holdem_syntax(game):
            return _holdem_part(text, text) is not None
        parse_pattern(text, game.hole)
    except RangeError:
        return False
    return True


def _ambiguous(part: str, body: str, number: str, game: Game) -> RangeError:
    """``AA:22``: the weight 22, or ``AA`` intersected with the hand ``22``?  Refused,
    saying how to write each."""
    if _holdem_syntax(game):
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


def _relative(weights: np.ndarray, names: list[str]) -> np.ndarray:
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


def _check_hand(hand: object, what: str, expected: str) -> None:
    check_type(hand, (str, list, tuple, np.ndarray), what, expected)


#: A range as the public functions take it: range text, a ``Range``, or hands one by one.
RangeLike: TypeAlias = "str | Range | Sequence[CardsLike]"


class Range:
    """A weighted set of hole-card combos for one game.

    Parameters
    ----------
    text : str, Range, or sequence of hands
        Range notation (see the module doc), or hands given one by one (text, or lists
        of cards or card ids).
    game : str or Game
        The game whose hole cards the combos are (default hold'em).

    Attributes
    ----------
    combos : ndarray of uint8, shape (n, hole)
        Each combo's cards in increasing id order, rows in increasing order.
    weights : ndarray of float64, shape (n,)
        Each combo's relative weight, scaled so that the largest is exactly 1 (a range
        with one weight has weight 1 everywhere).

    A combo listed more than once keeps the last weight given.  A range holds at most
    ``RANGE_LIMIT`` (4,000,000) combos: wider ones are refused, counted before they are
    listed where they can be.  ``RangeError`` names the part that cannot be read;
    ``ArgumentTypeError`` a ``text`` that is not text, a ``Range`` or a list of hands.
    """
    game: Game
    text: str
    combos: np.ndarray
    weights: np.ndarray

    def __init__(self, text: RangeLike, game: str | Game = "holdem") -> None:
        if isinstance(text, Range):
            self.game, self.text = text.game, text.text
            self.combos, self.weights = text.combos, text.weights
            return
        self.game = _game(game)
        parts: list[CardsLike]
        if isinstance(text, str):
            self.text = text.strip()
            parts = [p.strip() for p in self.text.split(",")]
        else:
            _check_hand(text, "range", "range text, a Range or a list of hands")
            parts = list(text)
            for part in parts:
                _check_hand(part, "each hand of a range list", "text or a list of cards")
            self.text = ",".join(p if isinstance(p, str) else
                                 format_cards(parse_cards(p, what="range hand cards"), sep="")
                                 for p in parts)
        if not parts or (len(parts) == 1 and isinstance(parts[0], str) and not parts[0]):
            raise RangeError("empty range", text)
        masks, owner, names, weights = self._merge_parts(parts)
        if not len(masks):
            raise RangeError(f"range {_short(self.text)!r} has no combo with a positive "
                             "weight", self.text)
        if self.game.lowest_rank:           # the short deck: its 36 cards only
            inside = (masks & np.uint64((1 << (4 * self.game.lowest_rank)) - 1)) == 0
            if not inside.any():
                raise RangeError(f"range {_short(self.text)!r} has no hand in the "
                                 f"{self.game.name} deck ({len(self.game.deck)} cards, "
                                 "sixes to aces)", self.text)
            masks, owner = masks[inside], owner[inside]
        used = np.flatnonzero(np.bincount(owner, minlength=len(weights)))   # not np.unique:
        # its hashing took a second on a few million owners
        scaled = np.zeros(len(weights))
        scaled[used] = _relative(np.array(weights)[used], [names[i] for i in used])
        weight = scaled[owner]
        self._set(_mask_rows(masks, self.game.hole), weight)

    def _merge_parts(self, parts: list[CardsLike]
                     ) -> tuple[np.ndarray, np.ndarray, list[str], list[float]]:
        """The card masks of the range's combos, the index of the part that gave each its
        weight (the last that lists it), and each part's text and weight.

        Parts are listed as card masks; a part given again replaces its earlier listing,
        and the listings are merged whenever they hold more than ``RANGE_LIMIT`` hands,
        so memory stays within a few times the limit however long the text.  The terms
        of the parts may list ``WORK_LIMIT`` hands in all, and their ``:`` and ``!`` test
        ``TERM_LIMIT``, which bounds the time (``_part``)."""
        names: list[str] = []
        weights: list[float] = []
        small: dict[str, np.ndarray] = {}        # listings of small parts, by body
        pending: dict[object, tuple[np.ndarray, int]] = {}
        listed = 0
        spent = [0, 0]          # hands listed by the parts' terms, and tested by ':' and '!'
        kept = (np.empty(0, np.uint64), np.empty(0, np.int32))
        for index, part in enumerate(parts):
            if isinstance(part, str):
                if not part:
                    raise RangeError(f"empty part in range {_short(self.text)!r}", self.text)
                body, weight = _split_weight(part, self.game)
                masks = small.get(body)
                if masks is None:
                    masks = self._part(body, part, spent)
                    if len(masks) <= _SMALL_PART:
                        small[body] = masks
                key: object = body
            else:
                cards = parse_cards(part, count=self.game.hole, what="range hand cards")
                masks, weight, key = card_masks(cards[None, :]), 1.0, index
                part = format_cards(cards, sep="")
            names.append(part)
            weights.append(weight)
            earlier = pending.pop(key, None)
            listed += len(masks) - (len(earlier[0]) if earlier else 0)
            pending[key] = (masks, index)
            if listed > RANGE_LIMIT:
                kept = self._merge(kept, pending.values(), weights)
                pending.clear()
                listed = 0
        return (*self._merge(kept, pending.values(), weights), names, weights)

    def _merge(self, kept: tuple[np.ndarray, np.ndarray],
               listings: Iterable[tuple[np.ndarray, int]],
               weights: list[float]) -> tuple[np.ndarray, np.ndarray]:
        """Masks and owning parts of the hands kept so far followed by new listings, in
        part order: each hand keeps its last listing, and those with weight 0 are dropped."""
        listings = list(listings)
        masks = np.concatenate([kept[0]] + [m for m, _ in listings])
        owner = np.concatenate([kept[1], np.repeat(np.array([i for _, i in listings], np.int32),
                                                   [len(m) for m, _ in listings])])
        order = np.argsort(masks, kind="stable")     # equal masks stay in part order
        ends = masks[order]
        ends = np.append(ends[1:] != ends[:-1], True)
        keep = order[ends]                           # the last listing of each hand
        del order, ends
        keep = keep[np.array(weights)[owner[keep]] > 0]
        if len(keep) > RANGE_LIMIT:
            raise RangeError(f"range {_short(self.text)!r} holds more than {RANGE_LIMIT:,} "
                             "combos, too many hands to list; narrow it", self.text)
        return masks[keep], owner[keep]

    def _part(self, body: str, part: str, spent: list[int]) -> np.ndarray:
        """The card masks of one part's hands, each once, in increasing order: its terms
        joined left to right by ``:`` (intersection) and ``!`` (exclusion).  A term that
        is only macros (``$ds``) filters what comes before it, without listing.

        Both operators only narrow what is left, so a term given again with the same
        operator changes nothing and is skipped (``AA!KK!KK...`` costs one ``!KK``).
        ``spent`` counts, across the range's parts, the hands each term lists (cached or
        not, so that what is refused does not depend on what was listed before), which
        may not pass ``WORK_LIMIT``, and those the ``:`` and ``!`` terms test, which may
        not pass ``TERM_LIMIT``."""
        pieces = _TERMS.split(body)
        terms = [t.strip() for t in pieces[0::2]]
        for term in terms:
            if not term:
                raise RangeError(f"bad range part {_short(part)!r}: an empty term beside "
                                 "':' or '!'", part)
        steps = list(dict.fromkeys(zip(pieces[1::2], terms[1:])))   # in order, each once
        hole = self.game.hole
        narrowing = tuple(m for op, term in steps if op == ":" and term.startswith("$")
                          for m in parse_pattern(term, hole, part).macros)
        hands = _term_masks(self.game, terms[0], part, narrowing)
        self._spend(spent, part, listed=len(hands))
        for op, term in steps:
            if term.startswith("$"):
                macros = parse_pattern(term, hole, part).macros
                for name in macros:
                    if not macro_possible(name, hole):
                        raise RangeError(f"range part {_short(part)!r} matches no hand: no "
                                         f"{hole}-card hand passes ${name}", part)
                self._spend(spent, part, tested=len(hands))
                kept = macro_filter(macros, hands)
                inside = np.isin(hands, kept, assume_unique=True)
            else:
                try:
                    listed = _term_masks(self.game, term, part)
                except RangeError:
                    if op != ":" or " " in term:      # no weight: say what is wrong
                        raise
                    if re.fullmatch(_FLOAT, term, re.IGNORECASE):
                        raise RangeError(f"bad weight in range part {_short(part)!r}: a part "
                                         "takes one weight, at its end", part) from None
                    raise RangeError(f"bad weight in range part {_short(part)!r}: "
                                     f"{_short(term, 20)!r} is not a number, nor a range to "
                                     "intersect with", part) from None
                self._spend(spent, part, listed=len(listed), tested=len(hands))
                inside = _member(hands, listed)
            before = len(hands)
            hands = hands[inside] if op == ":" else hands[~inside]
            if not len(hands) and before:
                left = _short(body[:body.find(op + term) if op + term in body else len(body)],
                              30)
                how = "is in" if op == ":" else "is outside"
                raise RangeError(f"range part {_short(part)!r} matches no hand: no hand of "
                                 f"{left!r} {how} {_short(term, 30)!r}", part)
        return hands

    def _spend(self, spent: list[int], part: str, listed: int = 0, tested: int = 0) -> None:
        """Count a term's hands: those listed (or looked up: the same, whatever the cache
        holds) against ``WORK_LIMIT``, those tested against ``TERM_LIMIT``."""
        spent[0] += listed
        spent[1] += tested
        if spent[0] > WORK_LIMIT:
            raise RangeError(f"range {_short(self.text)!r} lists more than {WORK_LIMIT:,} "
                             "hands across its parts and their terms, too many hands to "
                             "list; give each pattern once, or fewer or narrower terms", part)
        if spent[1] > TERM_LIMIT:
            raise RangeError(f"range {_short(self.text)!r} tests more than {TERM_LIMIT:,} "
                             "hands across the ':' and '!' terms of its parts, too many to "
                             "combine; give each term once, or fewer or narrower terms", part)

    def _set(self, rows: np.ndarray, weights: np.ndarray) -> None:
        """Keep rows (each sorted) and weights, the rows put in increasing order."""
        order = np.lexsort(rows.T[::-1])
        self.combos = np.ascontiguousarray(rows[order])
        self.weights = np.ascontiguousarray(weights[order], np.float64)
        self.combos.flags.writeable = False
        self.weights.flags.writeable = False

    @classmethod
    def _from_combos(cls, game: Game, text: str, combos: np.ndarray,
                     weights: np.ndarray | None = None) -> Range:
        """A range from an array of distinct combos (rows sorted here) and their positive
        weights, scaled here so the largest is 1 (weight 1 each unless given)."""
        out = object.__new__(cls)
        out.game, out.text = game, text
        rows = np.sort(np.asarray(combos, np.uint8), axis=1)
        if weights is None:
            weights = np.ones(len(rows))
        else:
            weights = np.asarray(weights, np.float64)
            if not (np.isfinite(weights).all() and (weights > 0).all()):
                raise RangeError(f"range {_short(text)!r}: weights must be positive finite "
                                 "numbers", text)
            weights = _relative(weights, [text] * len(weights)) if len(weights) else weights
        out._set(rows, weights)
        return out

    def __len__(self) -> int:
        return len(self.weights)

    def __iter__(self) -> Iterator[tuple[str, float]]:
        """(hand, weight) for every combo, the hand as text (``'AsKs'``, highest first as
        stored), formatted a block at a time with NumPy: 3 million 6-card hands in
        seconds."""
        step = 65536
        for start in range(0, len(self), step):
            texts = _CARD_TEXT[self.combos[start:start + step]]      # (n, hole) of 2 bytes
            joined = texts.view(f"S{2 * self.game.hole}").ravel().tolist()
            for hand, weight in zip(joined, self.weights[start:start + step].tolist()):
                yield hand.decode(), weight

    def __repr__(self) -> str:
        return f"Range({self.text!r}, game={self.game.name!r})  # {len(self)} combos"

    def _repr_html_(self) -> str:
        """In a notebook: hold'em ranges as the 13 x 13 grid (each class's share of its
        combos), other games as their pairing and suit counts."""
        title = f"<p>{self.text[:60]}: {len(self):,} combos ({self.share:.2%})</p>"
        if family(self.game).holdem_notation(self.game):
            shares = self.classes()
            cells = []
            for i in range(13):
                row = []
                for j in range(13):
                    name = CLASS_NAMES[13 * i + j]
                    x = shares[name]
                    shade = f"rgba(40,120,200,{0.15 + 0.85 * x:.2f})" if x else "white"
                    row.append(f'<td style="background:{shade};font-size:9px">{name}</td>')
                cells.append("<tr>" + "".join(row) + "</tr>")
            return title + "<table>" + "".join(cells) + "</table>"
        parts = self.breakdown()
        rows = "".join(f"<tr><td>{group}</td><td>{name}</td><td>{n:,}</td></tr>"
                       for group, counts in parts.items() for name, n in counts.items())
        return title + f"<table><tr><th></th><th></th><th>combos</th></tr>{rows}</table>"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Range) and self.game == other.game
                and np.array_equal(self.combos, other.combos)
                and np.array_equal(self.weights, other.weights))

    def live(self, dead: CardsLike) -> Range:
        """The combos that hold none of ``dead`` (card removal), with their weights as they
        were (not scaled again: weights seen on different boards stay comparable); may be
        empty."""
        dead_ids = parse_cards(dead, what="dead cards", allow_duplicates=True)
        out_bits = np.uint64(sum(1 << int(c) for c in set(dead_ids.tolist())))
        keep = (self.masks() & out_bits) == 0
        if keep.all():
            return self                     # nothing removed: the same range, read-only
        out = object.__new__(Range)
        out.game, out.text = self.game, self.text
        out.combos, out.weights = self.combos[keep], self.weights[keep]
        out.weights.flags.writeable = False
        return out

    def masks(self) -> np.ndarray:
        """Each combo's uint64 card mask, computed once per range (read-only)."""
        cached = getattr(self, "_masks_cache", None)
        if cached is None:
            cached = card_masks(self.combos)
            cached.flags.writeable = False
            self._masks_cache = cached
        return cached

    @property
    def total_weight(self) -> float:
        """The sum of the (relative) weights: the number of combos if all weigh 1."""
        return float(self.weights.sum())

    @property
    def share(self) -> float:
        """The combos' share of all the game's starting hands."""
        return len(self) / math.comb(len(self.game.deck), self.game.hole)

    def breakdown(self) -> dict[str, dict[str, int]]:
        """The combos counted by pairing (most cards of one rank) and by suits (the
        macros' shapes: double-suited, single-suited, rainbow, other)."""
        masks = card_masks(self.combos) if len(self) else np.empty(0, np.uint64)
        most_rank = np.zeros(len(masks), np.int64)
        for r in range(13):
            most_rank = np.maximum(most_rank, np.bitwise_count(
                masks & np.uint64(0xF << (4 * r))).astype(np.int64))
        ranks = {"no pair": int((most_rank == 1).sum()),
                 "pair": 0, "two pair or more": 0,
                 "three or four of a rank": int((most_rank >= 3).sum())}
        pairs = np.zeros(len(masks), np.int64)
        for r in range(13):
            pairs += np.bitwise_count(masks & np.uint64(0xF << (4 * r))) == 2
        ranks["pair"] = int(((most_rank == 2) & (pairs == 1)).sum())
        ranks["two pair or more"] = int(((most_rank == 2) & (pairs >= 2)).sum())
        suits = {"double-suited": len(macro_filter(("ds",), masks)),
                 "single-suited": len(macro_filter(("ss",), masks)),
                 "rainbow": len(macro_filter(("r",), masks))}
        suits["other"] = len(masks) - sum(suits.values())
        return {"ranks": ranks, "suits": suits}

    def classes(self) -> dict[str, float]:
        """Hold'em only: each class's share of its combos in the range (weighted), grid order."""
        if self.game.hole != 2:
            raise RangeError("classes() is for hold'em ranges", self.game.name)
        share = np.zeros(169)
        for combo, weight in zip(self.combos.tolist(), self.weights.tolist()):
            share[CLASS_INDEX[class_of(combo)]] += weight
        sizes = np.array([len(class_combos(n)) for n in CLASS_NAMES])
        return dict(zip(CLASS_NAMES, (share / sizes).tolist()))

    # --- as a vector over the game's canonical combo order (``evaluator.vectors``) --------

    def vector(self) -> np.ndarray:
        """The weights as ``float64 (N,)`` over ``combos(game)``: 0 for combos outside
        the range, the relative weight (largest 1) for those in it.  Computed once per
        range and read-only, as ``combos`` and ``weights`` are (``.copy()`` to change)."""
        cached = getattr(self, "_vector_cache", None)
        if cached is None:
            from .combo_order import combo_index, combos
            cached = np.zeros(len(combos(self.game)))
            if len(self):
                cached[combo_index(self.combos, self.game)] = self.weights
            cached.flags.writeable = False
            self._vector_cache = cached
        return cached

    @classmethod
    def from_vector(cls, weights: object, game: str | Game = "holdem") -> Range:
        """The range of the combos with a positive weight in ``weights``, an ``(N,)``
        vector over ``combos(game)``; negative, nan or inf weights and a wrong length are
        refused, naming the entry."""
        from .combo_order import check_vector, combos
        g = game if isinstance(game, Game) else _game(game)
        check_type(weights, (np.ndarray, list, tuple), "weights", "an (N,) array of weights")
        every = combos(g)
        w = check_vector(np.asarray(weights), len(every), "weights", g)
        keep = np.flatnonzero(w > 0)
        if not len(keep):
            raise RangeError("the weight vector has no combo with a positive weight",
                             "weights")
        kept = w[keep]
        top = float(kept.max())
        text = ",".join(format_cards(row[::-1], sep="") + ("" if x == top else f":{x / top!r}")
                        for row, x in zip(every[keep].tolist(), kept.tolist()))
        return cls._from_combos(g, text, every[keep], kept)

    # --- as range text for other tools --------------------------------------------------

    def to_text(self, style: str = "pio") -> str:
        """The range as text in the style of other poker tools, which ``Range(text, game)``
        reads back to the same combos with the same relative weights.

        ``"pio"`` (PioSolver, GTO Wizard): comma separated, a hold'em class's name where
        the range holds all its combos (6 of a pair, 4 suited, 12 offsuit) with one
        weight, its combos one by one (``AhKh``) otherwise, each followed by ``:weight``
        when the weight is not 1: ``AA,KK:0.5,AhKh:0.25``.  Weights are written with
        ``repr``, so they read back exactly.

        ``"gtoplus"``: the same text as ``"pio"``.  GTO+'s own export groups weights as
        ``[50.0]KK,QQ[/50.0]`` blocks, which this package's range parser does not read,
        so that form is not written.

        ``"pokerstove"``: the compact notation, classes of one weight joined into runs:
        ``22+``, ``77-55``, ``A2s+``, ``KTo+``, ``QJs-Q9s`` (a fixed top card) and
        ``T9s-65s`` (a fixed gap), with ``:weight`` after each run whose weight is not 1
        (``TT+:0.5``); classes held in part are written as combos.

        Other games (Omaha, ...) have no classes: every style writes the combos one by
        one, high card first (``AsAhKsKh:0.5``).  Weights are written relative to the
        largest (a range from ``live`` may have lost its weight-1 combos).

        >>> Range("QQ+,AKs:0.5,AhKd").to_text()
        'AA,KK,QQ,AKs:0.5,AhKd'
        >>> Range("22+,A2s+,KTo+,QJs-Q9s").to_text("pokerstove")
        '22+,A2s+,Q9s+,KTo+'
        """
        styles = ("pio", "gtoplus", "pokerstove")
        check_type(style, str, "style", "a style name: " + ", ".join(map(repr, styles)))
        if style not in styles:
            raise RangeError(f"unknown range text style {_short(style, 30)!r}: use "
                             + ", ".join(map(repr, styles)), style)
        if not len(self):
            raise RangeError(f"range {_short(self.text)!r} has no combo to write", self.text)
        weights = self.weights
        top = float(weights.max())
        if top != 1.0:
            weights = weights / top

        def weighted(name: str, weight: float) -> str:
            return name if weight == 1.0 else f"{name}:{weight!r}"

        if not _holdem_syntax(self.game):
            return ",".join(weighted(format_cards(row[::-1], sep=""), w)
                            for row, w in zip(self.combos, weights.tolist()))
        # hold'em: each class's combos and weights; key (shape, top rank, low rank) with
        # shape 0 a pair, 1 suited, 2 offsuit
        held: dict[tuple[int, int, int], list[tuple[int, int, float]]] = {}
        for (lo, hi), w in zip(self.combos.tolist(), weights.tolist()):
            a, b = hi >> 2, lo >> 2
            shape = 0 if a == b else 1 if hi & 3 == lo & 3 else 2
            held.setdefault((shape, a, b), []).append((hi, lo, w))
        whole: dict[tuple[int, int, int], float] = {}
        parts: list[tuple[tuple[int, int, int], str]] = []   # (sort key, text)
        for key, items in held.items():
            if len(items) == (6, 4, 12)[key[0]] and len({w for _, _, w in items}) == 1:
                whole[key] = items[0][2]
            else:
                parts += [(key, weighted(format_cards([hi, lo], sep=""), w))
                          for hi, lo, w in sorted(items, reverse=True)]

        def name(shape: int, a: int, b: int) -> str:
            return RANKS[a] + RANKS[b] + ("", "s", "o")[shape]

        if style != "pokerstove":
            parts += [(key, weighted(name(*key), w)) for key, w in whole.items()]
        else:
            parts += self._runs(whole, name, weighted)
        # pairs, then suited, then offsuit, best first
        parts.sort(key=lambda p: (p[0][0], -p[0][1], -p[0][2]))
        return ",".join(text for _, text in parts)

    @staticmethod
    def _runs(whole: dict[tuple[int, int, int], float], name: Callable[..., str],
              weighted: Callable[[str, float], str]) -> list[tuple[tuple[int, int, int], str]]:
        """``to_text("pokerstove")``: the whole classes (key (shape, top rank, low rank),
        value the weight) as runs of one weight, each with its sort key: pairs
        (``22+``, ``77-55``), then kickers under a fixed top card (``A2s+``,
        ``QJs-Q9s``), then the classes left alone joined by a fixed gap (``T9s-65s``)."""
        out: list[tuple[tuple[int, int, int], str]] = []
        alone: list[tuple[int, int, int]] = []

        def spans(keys: list[tuple[int, int, int]], step: int) -> list[list[tuple[int, int, int]]]:
            """``keys`` (best first) cut into runs of one weight whose ranks step by one."""
            runs: list[list[tuple[int, int, int]]] = []
            for key in keys:
                last = runs[-1][-1] if runs else None
                if (last is not None and whole[last] == whole[key]
                        and last[step] - key[step] == 1):
                    runs[-1].append(key)
                else:
                    runs.append([key])
            return runs

        pairs = sorted((k for k in whole if k[0] == 0), reverse=True)
        for run in spans(pairs, 1):
            first, last = run[0], run[-1]
            if len(run) == 1:
                text = name(*first)
            elif first[1] == 12:
                text = name(*last) + "+"
            else:
                text = name(*first) + "-" + name(*last)
            out.append((first, weighted(text, whole[first])))
        for shape in (1, 2):
            for top in range(12, 0, -1):
                kickers = sorted((k for k in whole if k[0] == shape and k[1] == top),
                                 reverse=True)
                for run in spans(kickers, 2):
                    first, last = run[0], run[-1]
                    if len(run) == 1:
                        alone.append(first)
                        continue
                    text = (name(*last) + "+" if first[2] == top - 1
                            else name(*first) + "-" + name(*last))
                    out.append((first, weighted(text, whole[first])))
        # the classes left alone, by shape and gap, best first: runs of a fixed gap
        alone.sort(key=lambda k: (k[0], k[1] - k[2], -k[1]))
        runs: list[list[tuple[int, int, int]]] = []
        for key in alone:
            last_key = runs[-1][-1] if runs else None
            if (last_key is not None and last_key[0] == key[0]
                    and last_key[1] - last_key[2] == key[1] - key[2]
                    and last_key[1] - key[1] == 1 and whole[last_key] == whole[key]):
                runs[-1].append(key)
            else:
                runs.append([key])
        for run in runs:
            first, last = run[0], run[-1]
            text = name(*first) if len(run) == 1 else name(*first) + "-" + name(*last)
            out.append((first, weighted(text, whole[first])))
        return out
