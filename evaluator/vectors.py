"""Every combo's equity at once, call matrices and showdown values, over the canonical
combo order of ``evaluator.combo_order`` (``combos(game)``; ranges as ``Range.vector()``).

The strength of every combo on a complete board is sorted once and swept with
per-card sums for card removal (``kernels/sweep.py``), so a river costs
microseconds and a flop (1,176 runouts) milliseconds, in the two-card games; 4-card
Omaha sweeps its hole pairs (``kernels/omaha_sweep.py``), every other game every subset
of a combo's cards (``subset_vectors``), the hi-lo games a high and a low sweep a board.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import numpy as np

from . import _tables
from ._calling import old_form
from .cards import CardsLike
from .combo_order import (
    check_vector,
    combo_bits,
    combos,
    deck_combos,
)
from .errors import (
    ArgumentTypeError,
    EvaluatorError,
    NoDeal,
    RangeError,
    check_type,
    flags,
)
from .errors import short_text as _short
from .games import Game
from .progress import reporting
from .ranges import Range, RangeLike
from .sweep_runs import NO_EQ, NO_TOTALS, chunked, clear_apart, kept_hands, unchecked_chunk
from .vector_streets import (
    Spot,
    answered_boards,
    boards,
    full_board,
    kind,
    spot,
    sweep_game,
    two_cards,
)
from .vector_weights import bands, exact_share, readonly, scaled

__all__ = ["combo_equity", "call_matrix", "showdown_values"]


# --- the sweep --------------------------------------------------------------------------

class Layout(NamedTuple):
    """What the sweep kernels take of a two-card game's combos (``kernels/sweep.py``)."""
    cards: np.ndarray          # uint8 (N, 2)
    combo_bits: np.ndarray     # uint64 (N,)
    class_start: np.ndarray    # int64 (C + 1,)
    member_words: np.ndarray   # uint64 (N,): b << 24 | a << 16 | i, by rank pair
    member_bits: np.ndarray    # uint64 (N,)
    member_suits: np.ndarray   # int64 (N,): the cards counted by suit, 4 bits a suit
    class_ranks: np.ndarray    # int64 (C, 2)
    low: int                   # the deck's smallest card id


@cache
def layout(deck: tuple[int, ...]) -> Layout:
    """The combos of a two-card game on ``deck``, grouped by their two ranks."""
    cards = deck_combos(deck, 2)
    bits = combo_bits(deck, 2)
    ids = cards.astype(np.int64)
    ranks = ids >> 2
    lowest = int(ranks.min())
    pairs = [(a, b) for b in range(lowest, 13) for a in range(lowest, b + 1)]
    number = {p: k for k, p in enumerate(pairs)}
    klass = np.array([number[(int(a), int(b))] for a, b in ranks])
    members = np.argsort(klass, kind="stable")
    start = np.searchsorted(klass[members], np.arange(len(pairs) + 1))
    a, b = ids[members, 0], ids[members, 1]
    words = ((b << 24) | (a << 16) | members).astype(np.uint64)
    suits = (1 << (4 * (a & 3))) + (1 << (4 * (b & 3)))
    out = Layout(cards, bits, start.astype(np.int64), words, bits[members].copy(),
                 suits.astype(np.int64), np.array(pairs, np.int64).reshape(-1, 2),
                 int(deck[0]))
    for x in out[:-1]:
        x.flags.writeable = False
    return out


def _weights(g: Game, against: object, what: str) -> np.ndarray:
    """A range (text, ``Range``) or a weight vector as ``float64 (N,)``; a vector's
    values are checked where they are summed (``kernels.sweep.clear_weights``)."""
    n = len(combos(g))
    if type(against) is np.ndarray and against.dtype == np.float64 and against.shape == (n,):
        return readonly(against if against.flags.c_contiguous
                         else np.ascontiguousarray(against))
    if isinstance(against, (list, tuple)) and any(
            isinstance(x, (int, float, np.number, np.bool_)) for x in against):
        # numbers: a weight vector (a range written as a list holds only text)
        for i, x in enumerate(against):
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.number)):
                raise ArgumentTypeError(f"{what} is a weight vector, and its entry {i} is "
                                        f"{type(x).__name__} {x!r}, not a number", x)
    if isinstance(against, np.ndarray) or (isinstance(against, (list, tuple)) and against
                                            and all(isinstance(x, (int, float, np.number))
                                                    for x in against)):
        return readonly(check_vector(np.asarray(against), n, what, g))
    rng = against if isinstance(against, Range) else Range(against, g)  # type: ignore[arg-type]
    if rng.game.name != g.name:
        raise RangeError(f"{what} is a {rng.game.name} range, not {g.name}", rng.text)
    return rng.vector()


RUNOUT_CHUNK = 64
"""Runouts per work item of ``combo_equity`` (a turn is one item; a flop 19)."""
OMAHA_CHUNK = 8
"""Rivers per work item in Omaha on a turn (six items; where ``runout_sweep`` runs them,
each sums the clear weights of every hand again, about one river)."""
OMAHA_FLOP_CHUNK = 32
"""Runouts per work item on an Omaha flop (37 items of its 1,176: 6.0 s -> 5.3 s)."""

NO_HERO = np.zeros(0, np.float64)      # no hero weights (read-only, as every weight read)
NO_HERO.flags.writeable = False
NO_PICK = np.zeros(0, np.float64)       # every combo's sums wanted (a writable array, as
                                        # every pick passed: one compiled type)


def _old_combo_equity(against, board, *, game="holdem", dead="", threads=None):
    """The 0.1.0 form of ``combo_equity``, kept for one release."""


@old_form(_old_combo_equity, "combo_equity(against, board, game=...)",
          "combo_equity(game, against, board, ...)")
def combo_equity(game: str | Game, against: RangeLike | np.ndarray, board: CardsLike,
                 dead: CardsLike = "", *, threads: int | None = None,
                 progress: bool = False) -> np.ndarray:
    """The exact equity of every hand of ``game`` against the range ``against``.

    Parameters
    ----------
    game : str or Game
        Every game, on each street whose runouts its sweep finishes within ten minutes
        on two cores (hold'em and the short deck, 4-card Omaha: flop, turn, river, in
        milliseconds to seconds; 5-card Omaha and Courchevel: turn and river in seconds,
        the flop in one to three minutes; 6-card Omaha: the river in seconds, the turn
        in about a minute; Teen Patti: no board).  In a hi-lo game the equity is the pot
        share: half each half, the whole pot by the high where neither hand makes a low.
    against : str, Range or array
        Range text, a ``Range`` or an ``(N,)`` weight vector in the canonical combo
        order (``combos(game)``).
    board : cards
        3, 4 or 5 cards: the equity is over every runout to the river and every live
        opposing combo, each deal weighed by the combo's weight (ties count half).
    dead : cards
        Cards out of the deck.
    threads : int, optional
        Threads for a flop's runouts (default: every core).
    progress : bool
        Show the progress of a sweep that lasts more than two seconds on stderr (a bar
        on a terminal, a line every few seconds elsewhere).

    Returns
    -------
    numpy.ndarray
        ``float64 (N,)``: ``nan`` where the hand holds a board or dead card, or where
        no opposing combo with weight is live against it.  6-card Omaha's 20,358,520
        hands: 163 MB, and about 2 GB while its turn is swept.

    Raises
    ------
    NoDeal
        No opposing combo with weight is live, or too few cards are left to deal.

    Notes
    -----
    The weighted mean of the entries over a range's combos, each weighed by its
    weight times its live opposing weight, is ``equity()`` of range against range.
    A flop's 1,176 runouts go in fixed chunks to ``threads`` (all cores by default);
    the chunks' sums are added in one order, as each is done, so the answer is the same
    to the last bit on any number of threads, and a long sweep holds a few chunks' sums
    at a time.  A street estimated past ten minutes (6-card Omaha's flop) is refused at
    once, with the estimate.  Ctrl-C stops a sweep between two runouts.  Weights that
    are whole multiples of one power of two (1, 0.5 ...) are summed exactly; others keep
    every hand clear of little weight exact by summing it pair by pair.

    Examples
    --------
    >>> from evaluator import combo_index
    >>> eq = combo_equity("holdem", "QQ+,AKs", "2c7d9hKsAd")
    >>> round(float(eq[combo_index("holdem", "KhKc")[0]]), 4)   # loses to the three aces
    0.6667
    >>> combo_equity("holdem", "QQ+", "2c7d")
    Traceback (most recent call last):
    ...
    evaluator.errors.CardError: combo_equity needs a board of 3 or 4 or 5 cards, got 2
    """
    flags(progress=progress)
    g = sweep_game(game, "combo_equity")
    with reporting(bool(progress)):
        return _sweep(against, board, g, dead, threads, None, "combo_equity", True,
                      streets=answered_boards(g), report=bool(progress))[0]


def combo_sums(game: str | Game, against: RangeLike | np.ndarray, board: CardsLike,
               dead: CardsLike = "", *, threads: int | None = None,
               wanted: np.ndarray | None = None, streets: tuple[int, ...] = (),
               report: bool = False) -> tuple[np.ndarray, np.ndarray, float]:
    """``combo_equity``'s sums: for every combo, the weight of the deals it wins (ties
    half) and of all its deals, over every runout, in a unit of ``against``'s weights
    (returned third: times it, they are in its own weights; 1 unless the weights are
    past ``2**±1000``).  Whole-number weights give whole numbers of deals.  ``wanted``
    (a vector in combo order): only the combos where it is not 0 are needed, and the wins
    of the others are NaN (Omaha's sweep then reads only those).  ``streets``: the board
    sizes taken (default those swept in seconds, ``boards``; a caller that timed it more).
    ``report``: the runouts' work items on the current ``reporting`` call's bar."""
    if wanted is None:
        pick = NO_PICK
    else:                                         # checked before any work, then copied
        g = sweep_game(game, "combo_sums")
        pick = np.array(check_vector(np.asarray(wanted), len(combos(g)), "wanted", g))
    _, num, den, unit, _ = _sweep(against, board, game, dead, threads, None, "combo_sums",
                                  False, pick, streets, report)
    if wanted is not None:
        num[pick == 0] = np.nan
    return num, den, unit


def _sweep(against: object, board: CardsLike, game: str | Game, dead: CardsLike,
           threads: int | None, hero: np.ndarray | None, what: str, ratios: bool,
           pick: np.ndarray | None = None, streets: tuple[int, ...] = (),
           report: bool = False
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray]:
    """``(eq, num, den, unit, totals)``: the equities (when ``ratios``), the sums of
    ``combo_sums``, and with ``hero`` weights (two-card games) each runout's totals,
    ``(R, 2)``: hero-weighted wins (ties half) and deals, in the same unit.  ``report``:
    each work item done advances the current ``reporting`` call's bar."""
    from .kernels import sweep as k
    g = sweep_game(game, what)
    s = spot(g, board, dead, streets or boards(g), what)
    reach = _weights(g, against, "against")
    unit = 1.0
    n = len(combos(g))
    h = NO_HERO if hero is None else readonly(hero)
    totals = NO_TOTALS if hero is None else np.zeros((len(s.runouts), 2))
    left = len(g.deck) - len(s.board) - len(s.dead)
    need = 2 * g.hole + full_board(g) - len(s.board)
    if left < need:
        raise NoDeal(f"no deal is left: two {g.name} hands and the rest of the board need "
                     f"{need} cards, and {left} are live once the board and dead cards "
                     "are out", left)
    # a hand and an opponent clear of it leave the same runouts, whichever they are
    factor = float(math.comb(left - 2 * g.hole, full_board(g) - len(s.board)))
    num, den = np.zeros(n), np.zeros(n)
    eq = np.full(n, np.nan) if ratios else NO_EQ
    for _ in range(2):
        status = _run(g, s, reach, factor, num, den, eq, h, totals, threads,
                      NO_PICK if pick is None else pick, report)
        if status != k.OUT_OF_SCALE:
            break
        reach, unit = scaled(reach)
    if status == k.BAD_WEIGHT:
        check_vector(reach, n, "against", g)        # raises, naming the entry
    if status == k.NO_WEIGHT:
        raise RangeError("against has no combo with a positive weight", _short(str(against)))
    if status == k.TOO_CONCENTRATED:
        raise RangeError(
            f"against's weights are too concentrated for {g.name} combo vectors: so many "
            "hands are clear of less than 1/1000 of its weight that summing each pair by "
            "pair would take minutes; weights that are whole multiples of one power of "
            "two (1, 0.5, 0.25 ...) are summed exactly and never refused, or ask equity() "
            "for the hands you need", _short(str(against)))
    if status == k.NO_LIVE_WEIGHT or not den.any():
        raise NoDeal("against has no live combo with weight once the board and dead "
                      "cards are out", _short(str(against)))
    if hero is not None:
        totals[:, 0] *= 0.5
    return eq, num, den, unit, totals


def _run(g: Game, s: Spot, reach: np.ndarray, factor: float, num: np.ndarray,
         den: np.ndarray, eq: np.ndarray, hero: np.ndarray, totals: np.ndarray,
         threads: int | None, pick: np.ndarray, report: bool = False) -> int:
    """The game's sweep over every runout (``sweep_runs``: the same bits on any threads);
    ``report``: its work items planned and advanced on the current ``reporting`` bar."""
    from .kernels import omaha_board, sweep
    track = None
    if report:
        from .progress import item_done, planned

        def track(items: int) -> Callable[[int], object]:
            planned(items, f"{g.name}: every combo on {len(s.runouts):,} runouts")
            return item_done
    # the two-card sweep sums a careful combo pair by pair at little cost: it is never
    # refused, and finds no careful combo among weights that sum exactly anyway
    close = sweep.CLOSE if two_cards(g) else exact_share(reach, len(s.runouts))
    if kind(g) == "subsets":
        from .subset_vectors import runout_sums
        status, part, met = runout_sums(g, s.board, int(s.out_bits), s.runouts, reach,
                                        close, threads)
        if status == sweep.OK:
            num[:], den[:] = part, met
            sweep.finish(num, den, factor, eq)
        return status
    t = _tables.high(g.values)
    if two_cards(g):
        lay = layout(g.deck)

        def call(runouts: np.ndarray, f: float, part: np.ndarray, met: np.ndarray,
                 e: np.ndarray, tot: np.ndarray) -> int:
            return sweep.runout_sweep(*lay, s.board, s.out_bits, runouts, reach, f, part,
                                      met, e, hero, tot, close, *t)
    else:
        cards, bits = combos(g), combo_bits(g.deck, g.hole)
        if len(pick) and len(s.runouts) > 1:
            kept = kept_hands(g, s.board, s.out_bits, s.runouts, cards, bits, reach, close,
                              factor, num, den, eq, threads, pick, chunk(g, s), track)
            if kept is not None:
                return kept
        split = clear_apart(g, cards, bits, s.board, s.out_bits, s.runouts, reach, close,
                            pick, num, den, threads, chunk(g, s), track)
        if split is not None and not (split[0] == sweep.OK and split[1]):
            if split[0] == sweep.OK:
                sweep.finish(num, den, factor, eq)
            return split[0]

        def call(runouts: np.ndarray, f: float, part: np.ndarray, met: np.ndarray,
                 e: np.ndarray, tot: np.ndarray) -> int:
            return omaha_board.runout_sweep(cards, bits, s.board, s.out_bits, runouts,
                                            reach, f, part, met, e, close, g.hilo, pick, *t)
    return chunked(call, s.runouts, chunk(g, s, unchecked=True), factor, num, den, eq,
                   totals, threads, track)


def chunk(g: Game, s: Spot, unchecked: bool = False) -> int:
    """Runouts per work item; ``unchecked``: of a kernel that runs them all without a look
    for Ctrl-C (``sweep_runs.unchecked_chunk``)."""
    if two_cards(g):
        return RUNOUT_CHUNK
    omaha = OMAHA_CHUNK if len(s.runouts) <= 8 * OMAHA_CHUNK else OMAHA_FLOP_CHUNK
    return unchecked_chunk(omaha, len(combos(g))) if unchecked else omaha


def runout_totals(game: str | Game, hero: RangeLike, against: RangeLike | np.ndarray,
                  board: CardsLike, dead: CardsLike = "", *, threads: int | None = None
                  ) -> tuple[np.ndarray, np.ndarray, float]:
    """``(runouts, totals, unit)``: every runout of ``board`` to the river (uint8 (R, k),
    the cards it adds) and, for each, the weight of the deals ``hero`` wins against
    ``against`` (ties half) and of all its deals, ``(R, 2)``; times ``unit`` they are in
    the ranges' own weights."""
    g = sweep_game(game, "runout_totals")
    if not two_cards(g):
        raise EvaluatorError(f"runout_totals covers the two-card games; {g.name} has no "
                             "hero totals", g.name)
    h = hero if isinstance(hero, Range) else Range(hero, g)
    if h.game.name != g.name:
        raise RangeError(f"hero is a {h.game.name} range, not {g.name}", h.text)
    s = spot(g, board, dead, boards(g), "runout_totals")
    _, _, _, unit, totals = _sweep(against, board, g, dead, threads, h.vector(),
                                   "runout_totals", False)
    if not totals[:, 1].any():
        raise NoDeal(f"no deal fits {_short(h.text)!r} against {_short(str(against))!r} "
                      "on this board", h.text)
    return s.runouts, totals, unit


def _river(g: Game, board: CardsLike, dead: CardsLike, what: str) -> Spot:
    return spot(g, board, dead, (full_board(g),), what)


@cache
def _with_card(deck: tuple[int, ...], hole: int) -> np.ndarray:
    """For each card id, the combos holding it, padded with -1: ``int64 (52, M)``."""
    bits = combo_bits(deck, hole)
    lists = [np.flatnonzero(bits & np.uint64(1 << c)) for c in range(52)]
    m = max(len(x) for x in lists)
    out = np.full((52, m), -1, np.int64)
    for c, x in enumerate(lists):
        out[c, :len(x)] = x
    return out


MATRIX_BYTES = 2 ** 31
"""The largest call matrix built (2 GiB: Teen Patti's, "The"'s and Tahoe's 22,100 combos
take 466 MiB; Omaha's would take 68 GiB)."""


def _old_call_matrix(board, *, game="holdem", dead=""):
    """The 0.1.0 form of ``call_matrix``, kept for one release."""


@old_form(_old_call_matrix, "call_matrix(board, game=...)", "call_matrix(game, board, ...)")
def call_matrix(game: str | Game, board: CardsLike, dead: CardsLike = "") -> np.ndarray:
    """``int8 (N, N)`` on a river: +1 where the row hand beats the column hand, -1 where
    it loses, 0 for a tie, a shared card, or a hand holding a board or dead card.

    Parameters
    ----------
    game : str or Game
        A game of at most 46,340 combos (hold'em, the short deck, Pineapple, Tahoe, "The",
        Teen Patti: an Omaha matrix would not fit in memory: use ``showdown_values``).
    board : cards
        The five-card river.
    dead : cards
        Cards out of the deck.

    Examples
    --------
    >>> from evaluator import combo_index
    >>> m = call_matrix("holdem", "2c7d9hKsAd")
    >>> int(m[combo_index("holdem", "AhAc")[0], combo_index("holdem", "KhKc")[0]])
    1
    """
    from .kernels.showdown import call_signs
    g = sweep_game(game, "call_matrix")
    n = math.comb(len(g.deck), g.hole)
    if n * n > MATRIX_BYTES:
        raise EvaluatorError(f"the {g.name} call matrix would be {n:,} x {n:,} entries "
                             f"({n * n / 2 ** 30:,.1f} GiB, past {MATRIX_BYTES / 2 ** 30:,.0f} "
                             "GiB); showdown_values gives its product with reach vectors "
                             "without building it", g.name)
    s = _river(g, board, dead, "call_matrix")
    if not two_cards(g):
        from .subset_vectors import signs
        out = np.empty((n, n), np.int8)
        signs(g, s.board, int(s.out_bits), out, None)
        return out
    lay = layout(g.deck)
    out = np.empty((len(lay.cards), len(lay.cards)), np.int8)
    call_signs(*lay, s.board, s.out_bits, _with_card(g.deck, g.hole), out,
               *_tables.high(g.values))
    return out


def _old_showdown_values(board, reach, *, game="holdem", dead="", threads=None):
    """The 0.1.0 form of ``showdown_values``, kept for one release."""


@old_form(_old_showdown_values, "showdown_values(board, reach, game=...)",
          "showdown_values(game, reach, board, ...)")
def showdown_values(game: str | Game, reach: np.ndarray, board: CardsLike,
                    dead: CardsLike = "", *, threads: int | None = None) -> np.ndarray:
    """``call_matrix(board) @ r`` for a reach vector ``r`` (``(N,)``), or for each row of
    a ``(k, N)`` array, in the shape given; by the sort and sweep, never building the
    matrix, so many vectors cost little more than one.  Entries are in the reach's
    units: the weight each combo beats less the weight it loses to.

    Parameters
    ----------
    game : str or Game
        Any game with a river its sweep values in seconds; in a hi-lo game each pair
        counts the row combo's pot share less the column combo's.
    reach : array
        ``(N,)`` or ``(k, N)`` weights in ``combos(game)`` order (``Range.vector()``).
    board : cards
        The five-card river.
    dead : cards
        Cards out of the deck.
    threads : int, optional
        Threads over blocks of reach vectors (default: every core).

    Returns
    -------
    numpy.ndarray
        ``float64``, the shape of ``reach``; 0 for a combo holding a board or dead card.
        A weight far below the rest (1e-20 beside 1) is summed in a band of its own, so
        that it still decides the sign of a combo that ties or is blocked from the rest.

    Examples
    --------
    >>> from evaluator import Range, combo_index
    >>> v = showdown_values("holdem", Range("KK").vector(), "2c7d9hKsAd")
    >>> i = combo_index("holdem", ["AhAc", "QhQc"])
    >>> float(v[i[0]]), float(v[i[1]])
    (3.0, -3.0)
    """
    from ._parallel import map_items, resolve_threads
    from .kernels import showdown
    from .kernels import sweep as k
    g = sweep_game(game, "showdown_values")
    s = _river(g, board, dead, "showdown_values")
    n = len(combos(g))
    if not (type(reach) is np.ndarray and reach.dtype == np.float64
            and reach.shape[-1:] == (n,) and reach.ndim <= 2 and reach.flags.c_contiguous):
        if not isinstance(reach, np.ndarray):
            check_type(reach, (list, tuple), "reach", "an (N,) or (k, N) array")
        reach = np.ascontiguousarray(check_vector(np.asarray(reach), n, "reach", g, rows=True))
    rows = readonly(reach.reshape(-1, n))
    if not len(rows):
        return np.zeros(reach.shape)
    t = _tables.high(g.values)
    if two_cards(g):
        lay = layout(g.deck)
        block = showdown.SHOWDOWN_BLOCK * 4

        def kernel(part: np.ndarray, out: np.ndarray, close: float) -> int:
            return showdown.river_showdown(*lay, s.board, s.out_bits, part, out, close, *t)
    elif kind(g) == "omaha":
        from .kernels.omaha_board import river_showdown
        cards, bits = combos(g), combo_bits(g.deck, g.hole)
        block = 1

        def kernel(part: np.ndarray, out: np.ndarray, close: float) -> int:
            if len(rows) == 1:                       # one vector: its two halves at once
                met = np.empty(len(cards))
                split = clear_apart(g, cards, bits, s.board, s.out_bits, s.runouts,
                                    part[0], close, NO_PICK, out[0], met, threads, 1)
                if split is not None and split[0] in (k.NO_WEIGHT, k.NO_LIVE_WEIGHT):
                    out[0] = 0.0
                    return k.OK
                if split is not None and not (split[0] == k.OK and split[1]):
                    if split[0] == k.OK:
                        out[0] -= met
                        out[0][(bits & s.out_bits) != 0] = 0.0
                    return split[0]
            return river_showdown(cards, bits, s.board, s.out_bits, part, out, close, g.hilo,
                                  *t)
    else:
        from .subset_vectors import showdown as subsets
        block = 1 << 30                 # one listing of the board serves every row

        def kernel(part: np.ndarray, out: np.ndarray, close: float) -> int:
            status, values = subsets(g, s.board, int(s.out_bits), part, close, threads)
            out[:] = values
            return status

    def one_pass(part: np.ndarray) -> tuple[int, np.ndarray]:
        out = np.empty(part.shape)
        spans = [(a, min(a + block, len(part))) for a in range(0, len(part), block)]

        def work(span: tuple[int, int]) -> int:
            return kernel(part[span[0]:span[1]], out[span[0]:span[1]], close)
        if len(spans) == 1:
            return work(spans[0]), out
        return max(map_items(work, spans, resolve_threads(threads, len(spans) << 16))), out
    parts, close = bands(rows)
    status, values = one_pass(parts[0])
    for band in parts[1:]:          # the smaller weights' values, added in
        if status != k.OK:
            break
        status, more = one_pass(band)
        values += more
    if status == k.BAD_WEIGHT:
        check_vector(reach, n, "reach", g, rows=True)   # raises, naming the entry
    if status == k.TOO_CONCENTRATED:
        raise RangeError(f"a reach vector's weights are too concentrated for {g.name} "
                         "showdown values: so many hands are clear of less than 1/1000 of "
                         "its weight that summing each pair by pair would take minutes; "
                         "weights that are whole multiples of one power of two are summed "
                         "exactly and never refused", "reach")
    if status == k.OUT_OF_SCALE:
        # each row scaled by a power of two (exactly) to below 1, and back
        e = np.frexp(rows.max(axis=1))[1][:, None]
        with np.errstate(under="ignore"):
            small = np.ldexp(rows, -e)
        if ((small == 0) & (rows > 0)).any():
            scaled(rows[np.flatnonzero(((small == 0) & (rows > 0)).any(axis=1))[0]])  # names it
        values = np.ldexp(showdown_values(g, small, board, dead, threads=threads)
                          .reshape(rows.shape), e)
    return values.reshape(reach.shape)
