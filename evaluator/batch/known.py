"""A batch's small known-hand queries, read and answered in bulk.

Most queries of a large batch are often the simplest: known hands in hold'em, short deck or
high-only Omaha (four to six cards, Courchevel), exact, on some street.  Each takes a few
microseconds in its kernel and tens in the interpreter (its texts read and checked, a
result built, then a row of it), so a batch of them ran slower than a loop of ``equity()``
calls, and slower still on two threads.  Here such a query is read once, with one
dictionary lookup a card, when the batch checks it (anything less plain, or wrong, goes
the general way, which names the problem); then the queries of one shape (game, players,
board and dead cards) go to one kernel call a few thousand at a time
(``Family.exact_spots``), which frees the interpreter (two threads share it), and each
row is written from the kernel's counts by the arithmetic ``Counts`` and ``make_result``
use, so that it is the row ``run_query`` gives, bit for bit (tested on every street and
game).  A spot the rank-multiset kernel leaves to a walk of its boards (two suits that
can both flush) goes the general way, and so do the hi-lo games.
"""
from __future__ import annotations

import math
import threading
from collections.abc import Mapping

import numpy as np

from ..cards import card_str
from ..engine.plan import enumerated
from ..engine.spots import resolve_version, split_hands
from ..games import game as _game

# games whose known-hand exact counts are the rank-multiset kernels' (``Family.exact_spots``:
# high only; the hi-lo games go the general way)
GAMES = ("holdem", "short_deck", "omaha", "omaha5", "omaha6", "courchevel")
# a query's fields (``queries.KNOWN_FIELDS``, which imports this module: a test keeps the
# two equal)
KNOWN_FIELDS = frozenset(("id", "game", "hands", "board", "dead", "exact", "trials",
                          "target_stderr", "seed", "version"))
SAMPLING = ("trials", "target_stderr", "seed", "version")      # empty in a quick query
EXACT_TEXT = {"": None, "true": True, "1": True, "yes": True}  # else not quick
SPAN_SECONDS = 0.05                  # a kernel call's work at most (Ctrl-C between calls)
# seconds a spot in the kernel by the cards to come (fitted on a 3.7 GHz Zen 4, heads-up;
# more players add little): the river's one board to the pre-flop's rank multisets; an
# Omaha spot about five times a hold'em one (pre-flop 3 ms)
SPOT_SECONDS = (2e-6, 4e-6, 1e-5, 4e-5, 1.5e-4, 6e-4)
OMAHA_SPOT = 5


KEY = "known_spot"            # an item's key for its spot, read when the batch checked it
NAMES = [card_str(c) for c in range(52)]


class _Deck:
    """A quick game's deck: each card and each two-card hand by its canonical text."""

    def __init__(self, name: str) -> None:
        g = _game(name)
        self.name = g.name
        self.hole = g.hole
        self.streets = frozenset(g.streets)
        self.full = max(g.streets)
        self.size = len(g.deck)
        self.cards = {NAMES[c]: c for c in g.deck}
        # two-card hands by their text, one lookup a hand (longer hands: a lookup a card)
        self.hands = {a + b: (self.cards[a], self.cards[b])
                      for a in self.cards for b in self.cards if a != b} if g.hole == 2 else {}

    def hand(self, text: object, out: list[int]) -> bool:
        """Append the cards of a hand's ``text`` (canonical, no spaces) to ``out``."""
        if type(text) is not str:
            return False
        if self.hole == 2:
            pair = self.hands.get(text)
            if pair is None:
                return False
            out += pair
            return True
        return len(text) == 2 * self.hole and " " not in text and self.read(text, out)

    def read(self, text: str, out: list[int]) -> bool:
        """Append the cards of ``text`` (canonical, with or without spaces between them)
        to ``out``; False where a token is anything else."""
        if " " in text:
            text = text.replace(" ", "")
        if len(text) % 2:
            return False
        cards = self.cards
        for j in range(0, len(text), 2):
            card = cards.get(text[j:j + 2])
            if card is None:
                return False
            out.append(card)
        return True


DECKS = {name: _Deck(name) for name in GAMES}


def _field_text(item: Mapping, field: str) -> str | None:
    """A text field of a query ("" where it is missing); None where it is anything but a
    text, None included (whatever its type: an array is neither true nor false)."""
    value = item.get(field, "")
    return value if type(value) is str else None


def _empty(item: Mapping, field: str) -> bool:
    """Whether a sampling field is missing, None or an empty cell."""
    value = item.get(field)
    return value is None or (type(value) is str and not value)


def spot(item: Mapping) -> tuple[list[int], int, int] | None:
    """``(cards, players, board size)`` of a plain known-hand query of a quick game:
    the players' cards, then the board's, then the dead ones; None for any other query,
    or one that is wrong (the general path names its problem)."""
    name, board, dead = (_field_text(item, field) for field in ("game", "board", "dead"))
    deck = DECKS.get(name or "holdem") if name is not None else None
    hands = item.get("hands")
    if deck is None or board is None or dead is None or not isinstance(hands, (list, tuple)) \
            or len(hands) < 2:
        return None
    cards: list[int] = []
    for hand in hands:
        if not deck.hand(hand, cards):
            return None
    held = len(cards)
    if not deck.read(board, cards):
        return None
    shown = len(cards) - held
    if not deck.read(dead, cards) or len(set(cards)) != len(cards):
        return None
    need = deck.full - shown
    live = deck.size - len(cards)
    if shown not in deck.streets or live < need:
        return None
    # exact=None enumerates when that is quick (``equity``'s rule): always, for known
    # hands of these games
    if not enumerated(math.comb(live, need)):
        return None
    return cards, len(hands), shown


def quick_item(query: object, index: int, version: int | None) -> dict | None:
    """The normalised item of a plain known-hand query (what ``_normalise`` makes of it,
    its seed left out: an exact answer deals none), or None.  A query read from a file
    is plain too: its hands one text (``"AsKs vs QhQd"``), its empty cells empty."""
    if type(query) is not dict or not query.keys() <= KNOWN_FIELDS:
        return None
    if not all(_empty(query, name) for name in SAMPLING):
        return None
    ident = query.get("id", index + 1)
    exact = query.get("exact")
    if type(exact) is str:
        exact = EXACT_TEXT.get(exact.strip().lower(), False)
    if type(ident) not in (int, str) or (exact is not None and exact is not True):
        return None
    hands = query.get("hands")
    if type(hands) is str:
        query = {**query, "hands": split_hands(hands)}
    found = spot(query)
    if found is None:
        return None
    return {"id": ident, "game": query.get("game") or "holdem",
            "hands": list(query["hands"]), "board": query.get("board") or "",
            "dead": query.get("dead") or "", "exact": exact, "trials": None,
            "target_stderr": None, "seed": None, "version": resolve_version(version),
            KEY: found}


def rows(items: list[dict], threads: int) -> list[dict | None]:
    """The row of each quick item (``run_query``'s), None for the others (items the batch
    did not read as quick, ``KEY``) and for spots whose boards the kernel leaves to a
    walk."""
    return launch(items, threads).rows()


class Counting:
    """The quick items of a window being counted: on a worker (``threads`` > 1, while the
    caller goes on: a batch writes the rows of the window before), else when ``rows`` is
    called.  ``stop()`` ends the worker's count at its next span (Ctrl-C, or a batch that
    ends early, does not leave it counting)."""

    def __init__(self, items: list[dict], threads: int) -> None:
        shapes: dict[tuple[str, int, int, int], list[tuple[int, list[int]]]] = {}
        for i, item in enumerate(items):
            found = item.get(KEY)
            if found is not None:
                cards, players, shown = found
                shapes.setdefault((item["game"], players, shown, len(cards)),
                                  []).append((i, cards))
        self.items = items
        self.shaped = [_Shape(*key, listed) for key, listed in shapes.items()]
        self.halt = threading.Event()
        self.future = None
        if threads > 1 and self.shaped:
            from .._parallel import in_background
            self.future = in_background(self._count, threads)

    def _count(self) -> None:
        for shape in self.shaped:
            shape.count(self.halt)

    def stop(self) -> None:
        self.halt.set()

    def rows(self) -> list[dict | None]:
        try:
            if self.future is not None:
                self.future.result()
            else:
                self._count()
        except BaseException:
            self.halt.set()                # the worker stops at its next span
            raise
        out: list[dict | None] = [None] * len(self.items)
        for shape in self.shaped:
            shape.rows(self.items, out)
        return out


def launch(items: list[dict], threads: int) -> Counting:
    """Start counting the quick items' spots (``Counting``)."""
    return Counting(items, threads)


class _Shape:
    """The spots of one shape (game, players, board and dead cards), as the kernel's
    arrays, and their counts."""

    def __init__(self, name: str, players: int, shown: int, size: int,
                 listed: list[tuple[int, list[int]]]) -> None:
        g = _game(name)
        self.g, self.players, self.shown, self.listed = g, players, shown, listed
        self.held = held = g.hole * players
        cards = np.array([c for _, c in listed], np.uint8)
        removed = np.array(g.removed, np.uint8)
        deads = cards[:, held + shown:]
        if len(removed):
            deads = np.concatenate([deads, np.broadcast_to(removed, (len(cards), len(removed)))],
                                   axis=1)
        self.holes = np.ascontiguousarray(cards[:, :held].reshape(len(cards), players, g.hole))
        self.boards = np.ascontiguousarray(cards[:, held:held + shown])
        self.deads = np.ascontiguousarray(deads)
        self.need = max(g.streets) - shown
        self.hi_full = np.zeros((len(cards), players, players + 1), np.int64)
        self.counted = np.zeros(len(cards), np.int64)
        deals = math.comb(len(g.deck) - size, self.need)
        self.method = f"exact enumeration of {deals:,} board{'s' * (deals != 1)}"

    def count(self, stop: threading.Event) -> None:
        """Fill the counts, a span of about ``SPAN_SECONDS`` at a time (Ctrl-C, or
        ``stop``, between two)."""
        from .._parallel import check_interrupt, even_spans
        from .._sigint import interruptible
        from ..families import family
        n = len(self.listed)
        spots = family(self.g).exact_spots
        seconds = SPOT_SECONDS[self.need] * (1 if self.g.hole == 2 else OMAHA_SPOT)
        per_span = max(1, int(SPAN_SECONDS / seconds))
        with interruptible():
            for a, b in even_spans(n, -(-n // per_span)):
                check_interrupt()
                if stop.is_set():
                    return
                if not spots(self.g, self.holes[a:b], self.boards[a:b], self.deads[a:b],
                             self.need, self.hi_full[a:b], self.counted[a:b]):
                    self.counted[:] = -1       # no bulk kernel: every spot the general way
                    break
        # the figures, by ``Counts.shares`` and ``make_result``'s arithmetic in their order
        # (float64 operations on counts below 2**53: the same roundings as Python's), here
        # where NumPy frees the interpreter for the rows of the window before
        full = self.hi_full.astype(np.float64)
        boards = np.maximum(self.counted, 1).astype(np.float64)[:, None]
        share = full[:, :, 1].copy()
        for k in range(2, self.players + 1):
            share += full[:, :, k] / k
        self.equity = share / boards
        self.win = full[:, :, 1] / boards
        self.tie = self.hi_full[:, :, 2:].sum(axis=2).astype(np.float64) / boards

    def rows(self, items: list[dict], out: list[dict | None]) -> None:
        """Each spot's row, built as ``run_query`` builds it (None where the kernel
        left the spot to a walk of its boards)."""
        held, shown, name, method = self.held, self.shown, self.g.name, self.method
        hole = self.g.hole
        for (i, row_cards), n, equity, win, tie in zip(
                self.listed, self.counted.tolist(), self.equity.tolist(), self.win.tolist(),
                self.tie.tolist()):
            if n < 0:
                continue                  # two suits can flush: the general path walks it
            item = items[i]
            row = {"id": item["id"], "game": name, "hands": " vs ".join(item["hands"]),
                   "board": " ".join([NAMES[c] for c in row_cards[held:held + shown]]),
                   "dead": " ".join([NAMES[c] for c in row_cards[held + shown:]]),
                   "method": method, "exact": True, "samples": n, "seed": None,
                   "version": None}
            for p in range(self.players):
                row[f"p{p + 1}_hand"] = " ".join([NAMES[c] for c in
                                                  row_cards[hole * p:hole * (p + 1)]])
                row[f"p{p + 1}_equity"] = equity[p]
                row[f"p{p + 1}_win"] = win[p]
                row[f"p{p + 1}_tie"] = tie[p]
            out[i] = row
