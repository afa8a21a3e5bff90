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

A range holds at most ``RANGE_LIMIT`` (21,000,000) combos: every hand of every game,
6-card Omaha's 20,358,520 included (6 bytes of cards and 8 of weight a combo: its 40%,
8.1 million hands, takes 114 MB and lists in about 4 s; ``random`` 285 MB, about 10 s,
where equity deals a ``random`` hand without listing it).  A pattern is counted before it
is listed: its hands, counting those it matches more than one way, may not pass
``LISTING_LIMIT`` (twice that).  A small part (at most 4,096 hands) given twice is listed
once, and the terms of a range's parts may list at most ``WORK_LIMIT`` (42,000,000) hands
in all, repeats of larger parts and terms included; its ``:`` and ``!`` may test at most
``TERM_LIMIT`` (84,000,000) hands.  A term given again with the same operator in one
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

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeAlias

import numpy as np

from .cards import CardsLike, card_str, format_cards, parse_cards
from .classes import (
    CLASS_INDEX,
    CLASS_NAMES,
    class_combos,
    class_of,
    preflop_order,
)
from .errors import RangeError, check_type
from .errors import short_text as _short
from .families import family
from .games import Game
from .games import game as _game
from .listing import (
    MANY_ROWS,
    RANGE_LIMIT,
    SMALL_PART,
    TERM_LIMIT,
    WORK_LIMIT,
    any_clear,
    card_masks,
    mask_rows,
    member,
    term_masks,
)
from .patterns import (
    macro_filter,
    macro_possible,
    parse_pattern,
)
from .range_weights import FLOAT, relative, split_weight

__all__ = ["Range", "RangeLike", "RangeError", "CLASS_NAMES", "RANGE_LIMIT", "class_combos",
           "class_of", "preflop_order"]

_TERMS = re.compile(r"([:!])")


_CARD_TEXT = np.array([card_str(c).encode() for c in range(52)], "S2")


def _check_hand(hand: object, what: str, expected: str) -> None:
    check_type(hand, (str, list, tuple, np.ndarray), what, expected)


#: A range as the public functions take it: range text, a ``Range``, or hands one by one.
RangeLike: TypeAlias = "str | Range | Sequence[CardsLike]"


class Range:
    """A weighted set of hole-card combos for one game.

    Hold'em ranges use PokerStove's notation (``QQ+,AKs,T9s-65s:0.5``), every other game
    the pattern language of Omaha players (``AA$ds``, ``RROO``); the Guide has both.  A
    combo listed more than once keeps the last weight given.  A range holds at most
    ``RANGE_LIMIT`` (21,000,000: every hand of every game) combos; a pattern counted past
    twice that with its repeats is refused before it is listed.

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
    game : Game
        The game.
    text : str
        The text it was read from.

    Raises
    ------
    RangeError
        Text that cannot be read (the message names the part), or a range too wide.
    ArgumentTypeError
        ``text`` is not text, a ``Range`` or a list of hands.

    Examples
    --------
    >>> from evaluator import Range
    >>> r = Range("QQ+,AKs:0.5")
    >>> len(r), r.total_weight                  # 18 pairs + 4 suited AK at half weight
    (22, 20.0)
    >>> len(r.live("Ks7d2c")), r.live("Ks7d2c").total_weight
    (18, 16.5)
    >>> len(Range("AA$ds", "omaha"))            # double-suited aces
    864
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
        scaled[used] = relative(np.array(weights)[used], [names[i] for i in used])
        weight = scaled[owner]
        self._set(mask_rows(masks, self.game.hole), weight)

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
                body, weight = split_weight(part, self.game)
                masks = small.get(body)
                if masks is None:
                    masks = self._part(body, part, spent)
                    if len(masks) <= SMALL_PART:
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
        hands = term_masks(self.game, terms[0], part, narrowing)
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
                    listed = term_masks(self.game, term, part)
                except RangeError:
                    if op != ":" or " " in term:      # no weight: say what is wrong
                        raise
                    if re.fullmatch(FLOAT, term, re.IGNORECASE):
                        raise RangeError(f"bad weight in range part {_short(part)!r}: a part "
                                         "takes one weight, at its end", part) from None
                    raise RangeError(f"bad weight in range part {_short(part)!r}: "
                                     f"{_short(term, 20)!r} is not a number, nor a range to "
                                     "intersect with", part) from None
                self._spend(spent, part, listed=len(listed), tested=len(hands))
                inside = member(hands, listed)
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
        if len(rows) > MANY_ROWS:
            # a counting sort a column at a time: 6-card Omaha's 8 million rows 1.8 -> 0.5 s
            from .kernels.rows import lex_order, take_rows
            rows = np.ascontiguousarray(rows)
            order = np.empty(len(rows), np.int64)
            lex_order(rows, order)
            self.combos = np.empty_like(rows)
            take_rows(rows, order, self.combos)
        else:
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
            weights = relative(weights, [text] * len(weights)) if len(weights) else weights
        out._set(rows, weights)
        return out

    def __len__(self) -> int:
        return len(self.weights)

    def __iter__(self) -> Iterator[tuple[str, float]]:
        """(hand, weight) for every combo, the hand as text, highest card first
        (``'AsKs'``; the combos are stored lowest first), formatted a block at a time with
        NumPy: 3 million 6-card hands in seconds."""
        step = 65536
        for start in range(0, len(self), step):
            # (n, hole) of 2 bytes each, a fresh C-ordered array (the columns reversed)
            texts = _CARD_TEXT[self.combos[start:start + step, ::-1]]
            joined = texts.view(f"S{2 * self.game.hole}").ravel().tolist()
            for hand, weight in zip(joined, self.weights[start:start + step].tolist()):
                yield hand.decode(), weight

    def __repr__(self) -> str:
        """The range's text (cut to its start when long: a range may be written in 100,000
        characters), its game and its combos."""
        text = repr(self.text) if len(self.text) <= 80 else (
            f"{self.text[:60]!r}... ({len(self.text):,} characters)")
        return f"Range({text}, game={self.game.name!r})  # {len(self):,} combos"

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
        empty.  A card given twice is refused, naming it, as every ``dead=`` does.

        Examples
        --------
        >>> len(Range("AA").live("As"))
        3
        """
        dead_ids = parse_cards(dead, what="the dead cards")
        out_bits = np.uint64(sum(1 << int(c) for c in dead_ids.tolist()))
        masks = self.masks()
        from .kernels.ranges import live_rows
        combos, weights, kept = live_rows(self.combos, self.weights, masks, out_bits)
        if len(kept) == len(masks):
            return self                     # nothing removed: the same range, read-only
        out = object.__new__(Range)
        out.game, out.text = self.game, self.text
        out.combos, out.weights = combos, weights
        out._masks_cache = kept             # what a study asks a flop at a time, kept
        for a in (out.combos, out.weights, out._masks_cache):
            a.flags.writeable = False
        return out

    def any_live(self, dead: CardsLike) -> bool:
        """Whether a combo holds none of ``dead`` (``live`` without listing them)."""
        dead_ids = parse_cards(dead, what="the dead cards")
        out_bits = np.uint64(sum(1 << int(c) for c in dead_ids.tolist()))
        return any_clear(self.masks(), int(out_bits))

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
        macros' shapes: double-suited, single-suited, rainbow, other).

        Examples
        --------
        >>> Range("QQ+,AKs").breakdown()["ranks"]
        {'no pair': 4, 'pair': 18, 'two pair or more': 0, 'three or four of a rank': 0}
        """
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
        """Hold'em only: each class's share of its combos in the range (weighted), grid order.

        Examples
        --------
        >>> shares = Range("AA,AhKh,AsKs").classes()
        >>> shares["AA"], shares["AKs"], shares["AKo"]
        (1.0, 0.5, 0.0)
        """
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
        range and read-only, as ``combos`` and ``weights`` are (``.copy()`` to change).

        Examples
        --------
        >>> v = Range("QQ+,AKs:0.5").vector()
        >>> v.shape, float(v.sum())
        ((1326,), 20.0)
        """
        cached = getattr(self, "_vector_cache", None)
        if cached is None:
            from .combo_order import combo_index, combos
            cached = np.zeros(len(combos(self.game)))
            if len(self):
                cached[combo_index(self.game, self.combos)] = self.weights
            cached.flags.writeable = False
            self._vector_cache = cached
        return cached

    @classmethod
    def from_vector(cls, weights: object, game: str | Game = "holdem") -> Range:
        """The range of the combos with a positive weight in ``weights``, an ``(N,)``
        vector over ``combos(game)``; negative, nan or inf weights and a wrong length are
        refused, naming the entry.

        Examples
        --------
        >>> Range.from_vector(Range("QQ+,AKs:0.5").vector()).to_text()
        'AA,KK,QQ,AKs:0.5'
        """
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
        """The range as text in the style of other poker tools (``"pio"``, ``"gtoplus"``,
        ``"pokerstove"``), which ``Range(text, game)`` reads back to the same combos with
        the same relative weights (``range_text.write`` has every rule).

        Examples
        --------
        >>> Range("QQ+,AKs:0.5,AhKd").to_text()
        'AA,KK,QQ,AKs:0.5,AhKd'
        >>> Range("22+,A2s+,KTo+,QJs-Q9s").to_text("pokerstove")
        '22+,A2s+,Q9s+,KTo+'
        """
        from .range_text import write
        return write(self.text, self.game, self.combos, self.weights, style)
