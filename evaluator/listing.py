"""Listing hands: card masks, the hands of a pattern and of a range's terms, as sorted
arrays of 52-bit card masks, never by looping over hands or bindings.

A pattern's hands come from joining, element group by element group, the subsets of the
cards each group may take, with NumPy arrays holding every binding of its variables at
once (``list_bindings``); a macro is a vectorised test of suit and rank counts.  A
pattern is counted before it is listed (``patterns.listing_bound``), so one too wide is
refused at once; listings are cached.  ``ranges.Range`` combines the terms.
"""
from __future__ import annotations

import itertools
import math
import re
from functools import cache, lru_cache

import numpy as np

from .cards import format_cards, parse_cards
from .classes import CLASS_PATTERN, RANKS, class_combos, preflop_order, split_class
from .errors import CardError, RangeError
from .errors import short_text as _short
from .families import family
from .games import Game
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

_NUMBER = r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*%"
_PERCENT = re.compile(rf"^{_NUMBER}$")
_PERCENT_SPAN = re.compile(rf"^{_NUMBER}\s*-\s*{_NUMBER}$")


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


def holdem_part(text: str, part: str) -> list[tuple[int, int]] | None:
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


def _pair_masks(combos: list[tuple[int, int]]) -> np.ndarray:
    return np.array([(1 << a) | (1 << b) for a, b in combos], np.uint64)


def holdem_syntax(game: Game) -> bool:
    """Whether the game's ranges are hold'em class notation (else the pattern syntax)."""
    return family(game).holdem_notation(game)



RANGE_LIMIT = 21_000_000              # combos one range may hold (every 6-card Omaha hand)
LISTING_LIMIT = 2 * RANGE_LIMIT       # hands a pattern may list, counting repeats
WORK_LIMIT = 42_000_000               # hands the parts of one range may list in all
TERM_LIMIT = 84_000_000               # hands the ':' and '!' terms of a range may test
SMALL_PART = 4096                    # parts this small are listed once per range text
_CHUNK = 1 << 20                      # card-mask pairs joined at a time

_CARD_BITS = np.uint64(1) << np.arange(52, dtype=np.uint64)
MANY_ROWS = 200_000
"""Past this many hands, rows and masks are converted by a kernel (``kernels.rows``);
below it numpy's columns, which need no compiled code (a small range stays Numba-free)."""


def card_masks(rows: np.ndarray) -> np.ndarray:
    """uint64 card mask of every row of card ids (a column at a time: 5-10x faster than
    shifting the whole array; past ``MANY_ROWS`` hands a kernel's loop)."""
    if len(rows) > MANY_ROWS:
        from .kernels.rows import masks_of_rows
        masks = np.empty(len(rows), np.uint64)
        masks_of_rows(np.ascontiguousarray(rows), masks)
        return masks
    masks = _CARD_BITS[rows[:, 0]]
    for j in range(1, rows.shape[1]):
        masks |= _CARD_BITS[rows[:, j]]
    return masks


def any_clear(masks: np.ndarray, bits: int) -> bool:
    """Whether a mask of ``masks`` holds none of ``bits``: read a part at a time from the
    first few thousand, where a wide range has one (a range's live check without a pass
    over it)."""
    out = np.uint64(bits)
    start, size = 0, 4096
    while start < len(masks):                  # parts growing eightfold
        if ((masks[start:start + size] & out) == 0).any():
            return True
        start, size = start + size, size * 8
    return False


def mask_rows(masks: np.ndarray, hole: int) -> np.ndarray:
    """The card ids of each mask of ``hole`` cards, each row in increasing order."""
    rows = np.empty((len(masks), hole), np.uint8)
    if len(masks) > MANY_ROWS:         # a loop over the masks, 20x numpy's columns
        from .kernels.rows import rows_of_masks
        rows_of_masks(np.ascontiguousarray(masks, np.uint64), rows)
        return rows
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


def member(hands: np.ndarray, sorted_masks: np.ndarray) -> np.ndarray:
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


def term_masks(game: Game, body: str, part: str, macros: tuple[str, ...] = ()) -> np.ndarray:
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
    holdem = holdem_syntax(game)
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
        combos = holdem_part(body, part)
        if combos is None:
            words = body.split()
            comma = ("" if len(words) < 2 else "; a space does not separate hands, a comma "
                     f"does ({_short(','.join(words), 30)!r})")
            raise RangeError(f"bad range part {_short(part)!r}: use classes like 'AKs', "
                             "'QQ+', '22-55', 'T9s-65s', combos like 'AhKh', 'random' or "
                             f"'N%'{comma}", part)
        return _pair_masks(combos)
    return _pattern(body, game, part)


