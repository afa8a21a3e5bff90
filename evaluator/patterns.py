"""The generic hand-pattern language of Omaha players (ProPokerTools style), for every game
that is not hold'em.

A **pattern** has one *element* per hole card; a shorter one is padded with ``*``.
Written-out cards are elements too: ``AsKs`` in Omaha is ``AsKs**`` (holds the As and
the Ks), and only as many cards as the hole (``AsKsQdJd``) are that one hand.
An element is a rank (``A K Q J T 9 ... 2``), ``*`` (any rank), a span ``[K-T]``
(any rank from K down to T; the ace is high; ``[AKQ]`` lists ranks) or a rank
variable (a capital letter that is not a rank: ``R``, ``O``, ``N``, ...), optionally
followed by a suit (``s h d c``) or a suit variable (``w x y z``).  A suit letter
directly after an element belongs to it; one on its own is a card of any rank.

One letter is one rank (suit); different letters are different ranks (suits); a
variable never takes a rank (suit) written explicitly in the same pattern.  A hand
matches when its cards can be given to the elements one each so that every element
is satisfied: ``AA`` is "at least two aces", ``RR`` at least a pair, ``RROO`` two
pairs, ``AxAyxy`` double-suited aces, ``xxyy`` double-suited.

**Macros** test the whole hand's suit and rank counts, for any number of hole cards:
``$ds`` exactly two suits hold exactly two cards each and no suit more (4 cards:
2+2, 5: 2+2+1, 6: 2+2+1+1); ``$ss`` exactly one suit holds two cards and no suit
more (2+1+1, 2+1+1+1; no 6-card hand); ``$r`` no two cards share a suit (4 cards
only); ``$np`` no two cards share a rank.  A macro after a pattern is intersected with
it: ``AA$ds`` is ``AA:$ds``.

Spaces may stand beside the operators and commas, inside a span (``[K - T]``), before a
macro (``AA $ds``) and between written-out cards (``As Ks``), never between the elements
of a pattern: ``AA KK`` (two hands, or AAKK?) is refused, naming the part and saying that
a comma separates hands, as hold'em refuses ``AA KK``.

Terms combine with ``:`` (intersection) and ``!`` (exclusion), of equal precedence,
left to right: ``KK!KKK:$r`` is ``(KK!KKK):$r``.  ``,`` (union, lowest) and weights
(``:0.5`` or ``@50``, i.e. 50%, at the end of a part) belong to ``ranges.Range``.
A part ending in ``:`` and a number written only with the digits 2-9 that is also a
pattern of the game (``AA:22``, ``AA:2``, ``AA:2345`` in Omaha: weight 22, or AA with
two deuces?) is ambiguous and refused, saying how to write each meaning: the weight as
``AA:22.0`` or ``AA@2200``, the intersection as ``AA:22**`` (``AA:[2]345`` when the
digits fill the hole).  Numbers that cannot be a pattern stay weights: ``0.5``, ``1``,
``10``, ``1e-3``, and ``23456`` in 4-card Omaha (one card too many).

Each term is listed as a sorted array of 52-bit card masks, never by looping over
hands or over bindings: a pattern's hands come from joining, element group by element
group, the subsets of the cards each group may take, with numpy arrays holding every
binding of the variables at once (``ranges._list_bindings``; ``BwCxDyEzFw`` in 5-card
Omaha, 1,853,280 bindings, lists in well under a second, and took 2 min 18 s as a
Python loop per binding), and a macro is a vectorized test of suit and rank counts.
A pattern is counted before it is listed (``listing_bound``), so one too wide is
refused at once.  Listings are cached.
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from .errors import RangeError
from .errors import short_text as _short

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_VARIABLES = "wxyz"
MACROS = ("ds", "ss", "r", "np")
_RANK_VARIABLES = frozenset("BCDEFGHILMNOPRSUVWXYZ")
_LOWER_RANKS = {"a": "A", "k": "K", "q": "Q", "j": "J", "t": "T"}
_CARD_BITS = np.uint64(1) << np.arange(52, dtype=np.uint64)
_SUIT_MASKS = [int(sum(1 << (4 * r + s) for r in range(13))) for s in range(4)]
_RANK_MASKS = [int(0xF << (4 * r)) for r in range(13)]


@dataclass(frozen=True)
class Element:
    """One hole card of a pattern: the ranks it may take (None: any, or a rank variable's
    binding) and its suit (a suit index, a suit variable letter, or None: any)."""
    ranks: tuple[int, ...] | None
    rank_variable: str | None
    suit: int | str | None

    @property
    def padding(self) -> bool:
        return self.ranks is None and self.rank_variable is None and self.suit is None


@dataclass(frozen=True)
class Pattern:
    """A parsed pattern: its elements (padded to the hole size) and its macros."""
    text: str
    elements: tuple[Element, ...]
    macros: tuple[str, ...]

    @property
    def rank_variables(self) -> list[str]:
        return sorted({e.rank_variable for e in self.elements if e.rank_variable})

    @property
    def suit_variables(self) -> list[str]:
        return sorted({e.suit for e in self.elements if isinstance(e.suit, str)})


def _bad(part: str, why: str) -> RangeError:
    return RangeError(f"bad range part {_short(part)!r}: {why}", part)


def _span(body: str, part: str) -> tuple[int, ...]:
    """The ranks of a span's inside: ``K-T``, ``AKQ``, or both (``AK-T``)."""
    ranks: set[int] = set()
    text = body.replace(" ", "")
    if not text:
        raise _bad(part, "an empty span '[]'")
    pos = 0
    while pos < len(text):
        a = _LOWER_RANKS.get(text[pos], text[pos])
        if a not in RANKS:
            raise _bad(part, f"{text[pos]!r} in the span '[{body}]' is not a rank")
        if pos + 1 < len(text) and text[pos + 1] == "-":
            if pos + 2 >= len(text):
                raise _bad(part, f"the span '[{body}]' has no rank after '-'")
            b = _LOWER_RANKS.get(text[pos + 2], text[pos + 2])
            if b not in RANKS:
                raise _bad(part, f"{text[pos + 2]!r} in the span '[{body}]' is not a rank")
            hi, lo = RANKS.index(a), RANKS.index(b)
            if hi < lo:
                raise _bad(part, f"the span '[{a}-{b}]' has its ends swapped: write "
                                 f"'[{b}-{a}]' (high rank first; the ace is high)")
            ranks.update(range(lo, hi + 1))
            pos += 3
        else:
            ranks.add(RANKS.index(a))
            pos += 1
    return tuple(sorted(ranks))


def _no_space_inside(text: str, part: str) -> None:
    """Refuse a space between the cards of a pattern (``AA KK``: two hands or one?), as
    hold'em refuses ``AA KK``; spaces may stand inside a span (``[K - T]``) and before a
    macro (``AA $ds``).  One pass over the text, however many spaces."""
    depth = pos = 0
    pieces, start, refuse = [], 0, False
    while pos < len(text):
        c = text[pos]
        if c == " " and not depth:
            end = pos
            while end < len(text) and text[end] == " ":
                end += 1
            if not text.startswith("$", end):
                refuse = True
                pieces.append(text[start:pos])
                start = end
            pos = end
            continue
        depth = depth + 1 if c == "[" else max(0, depth - 1) if c == "]" else depth
        pos += 1
    if refuse:
        hands = ",".join(pieces + [text[start:]])
        raise _bad(part, f"a space inside the hand {_short(text, 30)!r}: a comma separates "
                         f"hands ({_short(hands, 30)!r}), and one hand's cards are written "
                         "together")


def parse_pattern(text: str, hole: int, part: str | None = None) -> Pattern:
    """``text`` as a pattern of ``hole`` cards; ``RangeError`` names the bad token."""
    part = text if part is None else part
    _no_space_inside(text.strip(" "), part)
    plain = text.replace(" ", "")
    elements: list[Element] = []
    macros: list[str] = []
    takes_suit = False                # the last element may still take a suit letter
    pos = 0
    while pos < len(plain):
        c = plain[pos]
        if c == "$":
            match = re.match(r"\$([A-Za-z]*)", plain[pos:])
            word = match[1] if match else ""
            name = next((m for m in ("ds", "ss", "np", "r") if word.lower().startswith(m)), "")
            if not name or (word[len(name):] and word[len(name):].islower()):
                raise _bad(part, f"unknown macro {'$' + word!r} (macros: $ds, $ss, $r, $np)")
            macros.append(name)
            pos += 1 + len(name)
            takes_suit = False
            continue
        if macros:
            raise _bad(part, f"{plain[pos:]!r} after a macro: a macro ends its pattern "
                             "(write 'AA$ds', or 'AA:$ds')")
        if c in SUITS or c in SUIT_VARIABLES:
            suit: int | str = SUITS.index(c) if c in SUITS else c
            if takes_suit:
                last = elements[-1]
                elements[-1] = Element(last.ranks, last.rank_variable, suit)
            else:
                elements.append(Element(None, None, suit))
            takes_suit = False
            pos += 1
        elif c == "[":
            end = plain.find("]", pos)
            if end < 0:
                raise _bad(part, f"the span {plain[pos:pos + 8]!r} has no closing ']'")
            elements.append(Element(_span(plain[pos + 1:end], part), None, None))
            takes_suit = True
            pos = end + 1
        elif c == "]":
            raise _bad(part, "a ']' with no '[' before it")
        elif c == "*":
            elements.append(Element(None, None, None))
            takes_suit = True
            pos += 1
        elif c in RANKS or c in _LOWER_RANKS:
            elements.append(Element((RANKS.index(_LOWER_RANKS.get(c, c)),), None, None))
            takes_suit = True
            pos += 1
        elif c in _RANK_VARIABLES:
            elements.append(Element(None, c, None))
            takes_suit = True
            pos += 1
        else:
            raise _bad(part, f"{_short(plain[pos:], 20)!r} is not a card pattern")
        if len(elements) > hole:
            raise _bad(part, f"more than {hole} cards, the game has {hole}")
    if not elements and not macros:
        raise _bad(part, "an empty pattern")
    elements += [Element(None, None, None)] * (hole - len(elements))
    return Pattern(text, tuple(elements), tuple(macros))


# --- listing a pattern's hands -------------------------------------------------------------

def element_groups(pattern: Pattern) -> list[tuple[tuple[int, ...] | str,
                                                   tuple[int, ...] | str, int]]:
    """The pattern's non-padding elements as groups of equal elements: (the ranks each may
    take, or its rank variable; the suits, or its suit variable; how many elements).
    Elements that take the same cards under every binding form one group (``*s`` and
    ``[A-2]s``): its elements choose their cards together, each hand once."""
    counts: dict[tuple[tuple[int, ...] | str, tuple[int, ...] | str], int] = {}
    for e in pattern.elements:
        if e.padding:
            continue
        ranks: tuple[int, ...] | str = (e.rank_variable if e.rank_variable else
                                        e.ranks if e.ranks is not None else tuple(range(13)))
        suits: tuple[int, ...] | str = ((0, 1, 2, 3) if e.suit is None else
                                        e.suit if isinstance(e.suit, str) else (e.suit,))
        counts[ranks, suits] = counts.get((ranks, suits), 0) + 1
    return [(ranks, suits, n) for (ranks, suits), n in counts.items()]


def group_size(ranks: tuple[int, ...] | str, suits: tuple[int, ...] | str) -> int:
    """How many cards an element group may take (a variable stands for one value)."""
    return (1 if isinstance(ranks, str) else len(ranks)) * (
        1 if isinstance(suits, str) else len(suits))


def _free_values(pattern: Pattern) -> tuple[list[int], list[int]]:
    """The ranks and suits the variables may take: those not written explicitly."""
    explicit_ranks = {e.ranks[0] for e in pattern.elements
                      if e.ranks is not None and len(e.ranks) == 1}
    explicit_suits = {e.suit for e in pattern.elements if isinstance(e.suit, int)}
    return ([r for r in range(13) if r not in explicit_ranks],
            [s for s in range(4) if s not in explicit_suits])


def _symmetric_groups(pattern: Pattern) -> tuple[list[list[str]], list[list[str]]]:
    """The rank variables, and the suit variables, grouped by their role: two variables
    whose elements are alike (the same suits, or the same ranks) can swap values without
    changing the hands matched, so ``bindings`` gives each group its values in one order
    only (``RROO`` lists each two-pair hand once, not twice)."""
    def role(letter: str, rank_side: bool) -> tuple:
        if rank_side:
            return tuple(sorted(repr(e.suit) for e in pattern.elements
                                if e.rank_variable == letter))
        return tuple(sorted(repr((e.ranks, e.rank_variable)) for e in pattern.elements
                            if e.suit == letter))
    groups: list[list[list[str]]] = []
    for names, rank_side in ((pattern.rank_variables, True), (pattern.suit_variables, False)):
        by_role: dict[tuple, list[str]] = {}
        for name in names:
            by_role.setdefault(role(name, rank_side), []).append(name)
        groups.append(list(by_role.values()))
    return groups[0], groups[1]


def binding_count(pattern: Pattern) -> int:
    """How many assignments of the variables ``bindings`` makes."""
    ranks, suits = _free_values(pattern)
    rank_groups, suit_groups = _symmetric_groups(pattern)
    count = (math.perm(len(ranks), len(pattern.rank_variables))
             * math.perm(len(suits), len(pattern.suit_variables)))
    for group in rank_groups + suit_groups:
        count //= math.factorial(len(group))
    return count


def binding_rows(pattern: Pattern) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """Every assignment of the rank and suit variables that lists different hands, as
    arrays: the rank variables' names and one row of ranks per assignment, then the same
    for the suit variables (a pattern's bindings are every rank row with every suit row).
    Values are distinct, none written explicitly elsewhere in the pattern, and variables
    of one role (``_symmetric_groups``) take increasing values.  Built a variable at a
    time by numpy (``BwCxDyEzFwGx`` has 308,880 rank rows), never a loop per binding."""
    free_ranks, free_suits = _free_values(pattern)
    rank_groups, suit_groups = _symmetric_groups(pattern)
    return ([n for g in rank_groups for n in g], _ordered_rows(free_ranks, rank_groups),
            [n for g in suit_groups for n in g], _ordered_rows(free_suits, suit_groups))


def _ordered_rows(values: list[int], groups: list[list[str]]) -> np.ndarray:
    """Rows of distinct ``values``, one column per variable of ``groups`` (in order),
    increasing within each group, in lexicographic order."""
    rows = np.zeros((1, 0), np.int8)
    choices = np.array(values, np.int8)
    for group in groups:
        for k in range(len(group)):
            wide = np.repeat(rows, len(choices), axis=0)
            column = np.tile(choices, len(rows))
            keep = ~(wide == column[:, None]).any(axis=1)
            if k:                                # after the group's previous variable
                keep &= column > wide[:, -1]
            rows = np.column_stack([wide, column])[keep]
    return rows


def listing_bound(pattern: Pattern, hole: int) -> int:
    """How many hands listing the pattern makes, counting those it reaches more than one
    way (an upper bound on its hands, known before listing any).  Every binding lists
    as many (variables never take a value written out, so no two groups merge)."""
    count = binding_count(pattern)
    if not count:
        return 0
    return count * binding_listing(pattern, hole)


def binding_listing(pattern: Pattern, hole: int) -> int:
    """How many hands one binding of the variables lists, counting repeats: each group's
    choices of its cards, times the padding's choices of the cards left."""
    free = sum(e.padding for e in pattern.elements)
    ways = math.comb(52 - (hole - free), free)
    for ranks, suits, n in element_groups(pattern):
        ways *= math.comb(group_size(ranks, suits), n)
    return ways


def why_empty(pattern: Pattern) -> str | None:
    """Why no hand can match the pattern's elements, or None if some can."""
    free_ranks, free_suits = _free_values(pattern)
    if len(pattern.rank_variables) > len(free_ranks):
        return (f"{len(pattern.rank_variables)} rank variables need as many different ranks "
                f"besides those written out, and only {len(free_ranks)} are left")
    if len(pattern.suit_variables) > len(free_suits):
        written = ", ".join(SUITS[s] for s in range(4) if s not in free_suits)
        return (f"{len(pattern.suit_variables)} suit variables need as many different suits "
                f"besides {written}, and only {len(free_suits)} are left")
    alike: dict[Element, int] = {}
    for e in pattern.elements:
        if not e.padding:
            alike[e] = alike.get(e, 0) + 1
    for e, count in alike.items():
        ranks = 1 if e.rank_variable else 13 if e.ranks is None else len(e.ranks)
        size = ranks * (4 if e.suit is None else 1)
        if count > size:
            return (f"it needs {count} different cards that are each {_element_text(e)!r}, "
                    f"and there {'is' if size == 1 else 'are'} only {size}")
    return None


def _element_text(e: Element) -> str:
    if e.rank_variable:
        rank = e.rank_variable
    elif e.ranks is None:
        rank = "*" if e.suit is None else ""
    elif len(e.ranks) == 1:
        rank = RANKS[e.ranks[0]]
    else:
        rank = "[" + "".join(RANKS[r] for r in reversed(e.ranks)) + "]"
    suit = "" if e.suit is None else SUITS[e.suit] if isinstance(e.suit, int) else e.suit
    return rank + suit


def padding(pattern: Pattern) -> int:
    """The pattern's padding elements (any card)."""
    return sum(e.padding for e in pattern.elements)


# --- macros: vectorized tests of suit and rank counts ---------------------------------------

def _popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x) if hasattr(np, "bitwise_count") else _popcount_slow(x)


def _popcount_slow(x: np.ndarray) -> np.ndarray:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.uint8)


def suit_counts(masks: np.ndarray) -> np.ndarray:
    """(n, 4) the cards of each suit in each hand."""
    return np.stack([_popcount(masks & np.uint64(m)) for m in _SUIT_MASKS], axis=1)


def _macro_test(name: str) -> Callable[[np.ndarray], np.ndarray]:
    def ds(masks: np.ndarray) -> np.ndarray:
        counts = suit_counts(masks)
        return ((counts == 2).sum(axis=1) == 2) & (counts.max(axis=1) == 2)

    def ss(masks: np.ndarray) -> np.ndarray:
        counts = suit_counts(masks)
        return ((counts == 2).sum(axis=1) == 1) & (counts.max(axis=1) == 2)

    def rainbow(masks: np.ndarray) -> np.ndarray:
        return suit_counts(masks).max(axis=1) <= 1

    def no_pair(masks: np.ndarray) -> np.ndarray:
        most = np.zeros(len(masks), np.uint8)
        for m in _RANK_MASKS:
            most = np.maximum(most, _popcount(masks & np.uint64(m)))
        return most <= 1

    return {"ds": ds, "ss": ss, "r": rainbow, "np": no_pair}[name]


def macro_filter(names: tuple[str, ...] | list[str], masks: np.ndarray) -> np.ndarray:
    """The masks that pass every macro in ``names``."""
    for name in names:
        if not len(masks):
            break
        masks = masks[_macro_test(name)(masks)]
    return masks


@cache
def macro_possible(name: str, hole: int) -> bool:
    """Whether any hand of ``hole`` cards passes the macro (``$r`` has none past 4 cards)."""
    shapes = [c for c in itertools.product(range(hole + 1), repeat=4) if sum(c) == hole]
    example = []
    for shape in shapes:
        cards = [4 * r + s for s in range(4) for r in range(shape[s])]
        example.append(sum(1 << c for c in cards))
    masks = np.array(example, np.uint64)
    if name == "np":
        return hole <= 13
    return bool(_macro_test(name)(masks).any())
