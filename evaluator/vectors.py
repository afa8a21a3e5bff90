"""Every combo's equity at once, call matrices and showdown values, over the canonical
combo order of ``evaluator.combo_order`` (``combos(game)``; ranges as ``Range.vector()``).

The strength of every combo on a complete board is sorted once and swept with
per-card sums for card removal (``kernels/sweep.py``), so a river costs
microseconds and a flop (1,176 runouts) milliseconds.  They cover the two-card
high games (hold'em, the short deck).
"""
from __future__ import annotations

import itertools
from functools import cache, lru_cache

import numpy as np

from . import _tables
from .cards import CardsLike, parse_cards
from .combo_order import check_vector, checked_game, combo_bits, combos
from .engine.spots import check_distinct
from .errors import CardError, EvaluatorError, RangeError, check_type
from .errors import short_text as _short
from .games import Game, Rule
from .ranges import Range, RangeLike

__all__ = ["combo_equity", "call_matrix", "showdown_values"]


# --- the sweep --------------------------------------------------------------------------

def _sweep_game(game: str | Game, what: str) -> Game:
    g = checked_game(game)
    if not (g.rule is Rule.BEST5 and g.hole == 2 and g.dealt == 2 and not g.hilo):
        raise EvaluatorError(f"{what} covers the two-card high games (holdem, short_deck); "
                             f"{g.name} has no combo vectors yet", g.name)
    return g


def _board_and_dead(g: Game, board: CardsLike, dead: CardsLike, sizes: tuple[int, ...],
                    what: str) -> tuple[np.ndarray, np.ndarray]:
    board_ids = parse_cards(board, what="the board")
    dead_ids = parse_cards(dead, what="the dead cards")
    if len(board_ids) not in sizes:
        need = " or ".join(str(s) for s in sizes)
        raise CardError(f"{what} needs a board of {need} cards, got {len(board_ids)}",
                        len(board_ids))
    g.check_in_deck(board_ids.tolist(), "the board")
    g.check_in_deck(dead_ids.tolist(), "the dead cards")
    check_distinct([("the board", board_ids), ("the dead cards", dead_ids)])
    return board_ids, dead_ids


def _weights(g: Game, against: object, what: str) -> np.ndarray:
    """A range (text, ``Range``) or a weight vector as ``float64 (N,)``."""
    n = len(combos(g))
    if isinstance(against, np.ndarray) or (isinstance(against, (list, tuple)) and against
                                            and all(isinstance(x, (int, float, np.number))
                                                    and not isinstance(x, bool)
                                                    for x in against)):
        return check_vector(np.asarray(against), n, what, g)
    rng = against if isinstance(against, Range) else Range(against, g)  # type: ignore[arg-type]
    if rng.game.name != g.name:
        raise RangeError(f"{what} is a {rng.game.name} range, not {g.name}", rng.text)
    return rng.vector()


def _bits(ids: np.ndarray) -> np.uint64:
    return np.uint64(sum(1 << int(c) for c in set(ids.tolist())))


@lru_cache(maxsize=64)
def _runouts(deck: tuple[int, ...], out: frozenset[int], need: int) -> np.ndarray:
    """The cards each runout adds to the board up to the river (``need`` cards from the
    deck less ``out``), read-only; one empty runout on a river."""
    left = [c for c in deck if c not in out]
    rows = list(itertools.combinations(left, need))
    runouts = np.array(rows, np.uint8).reshape(len(rows), need)
    runouts.flags.writeable = False
    return runouts


REACH_BLOCK = 64
"""Reach vectors per sweep of ``showdown_values``: their per-card sums (52 x 64 numbers,
three times) stay in the first-level cache."""

RUNOUT_CHUNK = 64
"""Runouts per work item of ``combo_equity`` (a turn is one item; a flop 19)."""


def _tables_for(g: Game) -> _tables.HighTables:
    return _tables.high(g.values)


def combo_equity(against: RangeLike | np.ndarray, board: CardsLike, *,
                 game: str | Game = "holdem", dead: CardsLike = "",
                 threads: int | None = None) -> np.ndarray:
    """The exact equity of every hand of ``game`` against the range ``against``.

    ``against`` is range text, a ``Range`` or an ``(N,)`` weight vector in the
    canonical combo order (``combos(game)``).  ``board`` holds 3, 4 or 5 cards; the
    equity is over every runout to the river and every live opposing combo, each
    deal weighed by the combo's weight (ties count half).  Returns ``float64 (N,)``:
    ``nan`` where the hand holds a board or dead card, or where no opposing combo
    with weight is live against it.

    The weighted mean of the entries over a range's combos, each weighed by its
    weight times its live opposing weight, is ``equity()`` of range against range.
    A flop's 1,176 runouts go in fixed chunks to ``threads`` (all cores by default);
    the chunks' sums are added in one order, so the answer is the same to the last
    bit on any number of threads.
    """
    num, den, _ = combo_sums(against, board, game=game, dead=dead, threads=threads)
    eq = np.full(len(num), np.nan)
    live = den > 0
    np.divide(num, den, out=eq, where=live)
    return np.minimum(eq, 1.0, out=eq)              # rounding never shows above 1


def combo_sums(against: RangeLike | np.ndarray, board: CardsLike, *,
               game: str | Game = "holdem", dead: CardsLike = "",
               threads: int | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """``combo_equity``'s sums: for every combo, the weight of the deals it wins (ties
    half) and of all its deals, over every runout, in units of the largest weight of
    ``against`` (returned third: times it, they are in the range's own weights)."""
    from ._parallel import map_items, resolve_threads
    from .kernels.sweep import runout_sweep
    g = _sweep_game(game, "combo_equity")
    board_ids, dead_ids = _board_and_dead(g, board, dead, (3, 4, 5), "combo_equity")
    w = _weights(g, against, "against")
    cards = combos(g)
    bits = combo_bits(g.deck, g.hole)
    known = np.concatenate([board_ids, dead_ids])
    out_bits = _bits(known)
    top = w.max(initial=0.0)
    if not top > 0:
        raise RangeError("against has no combo with a positive weight", _short(str(against)))
    # the kernel never reads the weight of a combo holding a known card; scaled to 1 at
    # most, so that no sum overflows
    reach = w / top
    runouts = _runouts(g.deck, frozenset(known.tolist()), 5 - len(board_ids))
    if not len(runouts):
        raise CardError("no runout is left once the board and dead cards are out",
                        len(dead_ids))
    t = _tables_for(g)
    n = len(cards)
    # fixed chunks of runouts, summed in chunk order: the same bits on any thread count
    spans = [(a, min(a + RUNOUT_CHUNK, len(runouts)))
             for a in range(0, len(runouts), RUNOUT_CHUNK)]

    def work(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        part_num, part_den = np.zeros(n), np.zeros(n)
        runout_sweep(cards, bits, board_ids, out_bits, runouts[span[0]:span[1]], reach,
                      part_num, part_den, *t)
        return part_num, part_den
    if len(spans) == 1:
        num, den = work(spans[0])
    else:
        workers = resolve_threads(threads, len(runouts) << 16)
        parts = map_items(work, spans, workers)
        num = np.sum([p[0] for p in parts], axis=0)
        den = np.sum([p[1] for p in parts], axis=0)
    if not (den > 0).any():
        raise RangeError("against has no live combo with weight once the board and dead "
                         "cards are out", _short(str(against)))
    return num, den, float(top)


def _river(g: Game, board: CardsLike, dead: CardsLike, what: str
           ) -> tuple[np.ndarray, np.ndarray, np.uint64]:
    board_ids, dead_ids = _board_and_dead(g, board, dead, (5,), what)
    return board_ids, dead_ids, _bits(np.concatenate([board_ids, dead_ids]))


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


def call_matrix(board: CardsLike, *, game: str | Game = "holdem", dead: CardsLike = ""
                ) -> np.ndarray:
    """``int8 (N, N)`` on a river: +1 where the row hand beats the column hand, -1 where
    it loses, 0 for a tie, a shared card, or a hand holding a board or dead card."""
    from .kernels.sweep import call_signs
    g = _sweep_game(game, "call_matrix")
    board_ids, _, out_bits = _river(g, board, dead, "call_matrix")
    cards = combos(g)
    out = np.empty((len(cards), len(cards)), np.int8)
    call_signs(cards, combo_bits(g.deck, g.hole), board_ids, out_bits,
               _with_card(g.deck, g.hole), out, *_tables_for(g))
    return out


def showdown_values(board: CardsLike, reach: np.ndarray, *, game: str | Game = "holdem",
                    dead: CardsLike = "", threads: int | None = None) -> np.ndarray:
    """``call_matrix(board) @ r`` for a reach vector ``r`` (``(N,)``), or for each row of
    a ``(k, N)`` array, in the shape given; by the sort and sweep, never building the
    matrix, so many vectors cost little more than one.  Entries are in the reach's
    units: the weight each combo beats less the weight it loses to."""
    from ._parallel import map_items, resolve_threads
    from .kernels.sweep import river_showdown
    g = _sweep_game(game, "showdown_values")
    board_ids, _, out_bits = _river(g, board, dead, "showdown_values")
    if not isinstance(reach, np.ndarray):
        check_type(reach, (list, tuple), "reach", "an (N,) or (k, N) array")
        reach = np.asarray(reach)
    cards = combos(g)
    r = check_vector(reach, len(cards), "reach", g, rows=True)
    rows = r.reshape(-1, len(cards))
    # each vector scaled to 1 at most (no sum overflows), and back at the end
    scale = rows.max(axis=1, initial=0.0)
    scale[scale == 0] = 1.0
    bits = combo_bits(g.deck, g.hole)
    t = _tables_for(g)
    spans = [(a, min(a + REACH_BLOCK, len(rows))) for a in range(0, len(rows), REACH_BLOCK)]

    def work(span: tuple[int, int]) -> np.ndarray:
        part = np.ascontiguousarray((rows[span[0]:span[1]] / scale[span[0]:span[1], None]).T)
        out = np.empty_like(part)
        river_showdown(cards, bits, board_ids, out_bits, part, out, *t)
        return out.T * scale[span[0]:span[1], None]
    if len(spans) == 1:
        values = work(spans[0])
    else:
        values = np.concatenate(map_items(work, spans, resolve_threads(threads, len(spans) << 16)))
    return values[0] if r.ndim == 1 else values
