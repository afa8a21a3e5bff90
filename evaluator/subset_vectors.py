"""Combo vectors for every game the two-card and Omaha sweeps do not cover: each complete
board's combos valued by the game's own evaluation (``evaluate_batch``), listed weakest
first, and swept with card removal by inclusion-exclusion over every subset of a combo's
cards (``kernels/generic_sweep.py``).  Tahoe, "The" and Teen Patti (one listing of its
22,100 hands: it has no board) run here, and the hi-lo games' exact tallies (high and low
outcomes together, ``hilo_tallies``); Omaha of four to six cards has its own sweep.

A hi-lo pot is a high half and a low half: where the board lets a low be made, each
board is swept three times (every opponent by high, the opponents holding a low by high,
every opponent by low) and each combo's pot share read off the three (``add_hilo``).

``vectors`` calls these with a checked spot; nothing here checks its arguments.
"""
from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

import numpy as np

from .combo_order import combo_bits, combos
from .games import Game
from .vector_weights import readonly

__all__ = ["runout_sums", "hilo_tallies", "showdown", "signs", "binomials", "combo_values",
           "board_values", "low_possible", "warm", "DealTables", "deal_tables"]

NO_TIES = np.zeros(0, np.float64)      # no tie weights to add up
CAREFUL_WORK = 4_000_000_000
"""Pairs summed one by one at most (careful combos x combos with weight x boards)."""


@cache
def binomials(hole: int) -> tuple[np.ndarray, np.ndarray, int]:
    """``(binom, base, size)``: ``binom[c, j] = C(c, j)`` for ``j <= hole``; the offset of
    each subset size's block in the flat sums (sizes 1 to ``hole - 1``); their length."""
    binom = np.array([[math.comb(c, j) for j in range(hole + 1)] for c in range(53)],
                     np.int64)
    base = np.zeros(hole + 1, np.int64)
    size = 0
    for s in range(1, hole):
        base[s] = size
        size += math.comb(52, s)
    for a in (binom, base):
        a.flags.writeable = False
    return binom, base, max(size, 1)


class DealTables(NamedTuple):
    """Two ranges' weighted deals (``total``) and, up to ``most`` cards, those holding
    each card (``ones``), each pair (``twos``, lower card first) and each three cards
    (``threes``, colex): ``kernels.generic_sweep.deal_tables``."""
    total: float
    ones: np.ndarray
    twos: np.ndarray
    threes: np.ndarray
    binom: np.ndarray
    most: int

    def clear(self, cards: np.ndarray) -> float:
        """The deals clear of ``cards`` (card ids, at most ``most`` of them)."""
        from .kernels.generic_sweep import clear_deals as clear_of
        if len(cards) > self.most:
            raise ValueError(f"these deal tables clear at most {self.most} cards, "
                             f"not {len(cards)}")
        return clear_of(np.sort(np.asarray(cards, np.int64)), self.total, self.ones,
                        self.twos, self.threes, self.binom)


TABLE_WORK = 40_000_000
"""Combo subsets (times the 52 cards, for pairs and threes) a work item of the deal tables
takes at most: about 0.1 s on one core.  The spans are set by the game and depth alone,
so their sums add up in the same order on any number of threads."""
TABLE_GROUP = 64                # spans run and added together (their tables held at once)


def deal_tables(g: Game, hero: np.ndarray, against: np.ndarray, out_bits: int, most: int,
                threads: int | None) -> DealTables:
    """``DealTables`` of the weight vectors ``hero`` and ``against`` with the cards
    ``out_bits`` out, for clearing up to ``most`` (0 to 3) more cards: one pass over the
    combos in fixed spans (``TABLE_WORK``), their sums added in order (one card costs a
    read of each combo's subsets, as none does; two or three, each hero's weight of
    opponents holding each card: 52 times more)."""
    from ._parallel import check_interrupt, map_items, resolve_threads
    from .kernels import generic_sweep as k
    if not 0 <= most <= 3:
        raise ValueError(f"deal tables clear up to three cards, not {most}")
    if len(g.deck) != 52:
        raise ValueError(f"deal tables read the combos in the 52-card deck's colex order, "
                         f"which {g.name}'s are not")
    _, base, size = binomials(g.hole)
    binom = binomials(max(g.hole, 3))[0]          # C(c, 3) too: the threes' keys
    cards, bits, out = combos(g), combo_bits(g.deck, g.hole), np.uint64(out_bits)
    hero_sums, against_sums = np.zeros(size), np.zeros(size)
    per_combo = 2 ** g.hole * (52 if most >= 2 else 1)
    span = max(256, min(1 << 16, TABLE_WORK // per_combo))
    starts = list(range(0, len(cards), span))
    hero_whole = against_whole = 0.0
    for start in starts:                           # in order, Ctrl-C between spans
        check_interrupt()
        added = k.deal_sums(cards, bits, out, hero, against, hero_sums, against_sums, binom,
                            base, start, min(start + span, len(cards)), most)
        hero_whole += added[0]
        against_whole += added[1]
    three = 22100 if most >= 3 else 0

    def part(start: int) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
        ones, twos, threes = np.zeros(52), np.zeros((52, 52)), np.zeros(three)
        total = k.deal_tables(cards, bits, out, hero, against, hero_sums, against_sums,
                              hero_whole, against_whole, binom, base, start,
                              min(start + span, len(cards)), most, ones, twos, threes)
        return total, ones, twos, threes
    total, ones, twos, threes = 0.0, np.zeros(52), np.zeros((52, 52)), np.zeros(three)
    workers = resolve_threads(threads, len(cards) * per_combo)
    for at in range(0, len(starts), TABLE_GROUP):
        for got in map_items(part, starts[at:at + TABLE_GROUP], workers):
            total += got[0]
            ones += got[1]
            twos += got[2]
            threes += got[3]
    for a in (ones, twos, threes):
        a.flags.writeable = False
    return DealTables(total, ones, twos, threes, binom, most)


def combo_values(g: Game, full: np.ndarray, out_bits: int, threads: int | None,
                 low: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(values, order)`` on the complete board ``full``: every combo's value (int64,
    bigger is better; -1 where it holds a card out; with ``low``, its 8-or-better low, 0
    for none) and the live combos weakest first."""
    from .evaluate import evaluate_batch
    cards = combos(g)
    live = np.flatnonzero((combo_bits(g.deck, g.hole) & np.uint64(out_bits)) == 0)
    rows = np.empty((len(live), g.hole + len(full)), np.uint8)
    rows[:, :g.hole] = cards[live]
    rows[:, g.hole:] = full
    values = np.full(len(cards), -1, np.int64)
    if len(live):
        values[live] = evaluate_batch(g, rows, low=low, validate=False, threads=threads)
    order = live[np.argsort(values[live], kind="stable")]
    return values, order


LOW_RANKS = frozenset([12, 0, 1, 2, 3, 4, 5, 6])      # the ace, and the deuce to the eight


def low_possible(full: np.ndarray) -> bool:
    """Whether a low can be made on the complete board ``full``: three low ranks."""
    return len({int(c) >> 2 for c in full.tolist()} & LOW_RANKS) >= 3


class BoardValues(NamedTuple):
    """Every combo's values on one complete board, as the sweeps take them."""
    high: np.ndarray           # int64 (N,), -1 for a combo holding a card out
    order: np.ndarray          # the live combos, weakest high first
    low: np.ndarray | None     # int64 (N,) 8-or-better lows (0: none); None: no low here
    low_order: np.ndarray | None
    dense: bool = False        # the lows numbered 1 ... the lows made (Omaha's listing)


def board_values(g: Game, full: np.ndarray, out_bits: int, threads: int | None,
                 hands: tuple[np.ndarray, np.ndarray] | None = None) -> BoardValues:
    """Every combo's high, and in a hi-lo game on a board that makes lows, its low (Omaha
    of four to six cards: numbered from its hole pairs' by ``kernels/omaha_board``, in
    the same order as the evaluation's values; ``hands``: only these, cards and masks,
    indexed as given)."""
    lows = g.hilo and low_possible(full)
    if g.family == "omaha" and g.hole in (4, 5, 6):
        from . import _tables
        from .kernels.omaha_board import board_listing
        cards, bits = hands if hands is not None else (combos(g), combo_bits(g.deck, g.hole))
        n = len(cards)
        high, order = np.empty(n, np.int64), np.empty(n, np.int64)
        low, low_order = (np.empty(n, np.int64), np.empty(n, np.int64)) if lows else \
            (np.empty(0, np.int64), np.empty(0, np.int64))
        live = board_listing(cards, bits, full, np.uint64(out_bits), lows, high, order, low,
                             low_order, *_tables.high(g.values))
        if not lows:
            return BoardValues(high, order[:live], None, None)
        return BoardValues(high, order[:live], low, low_order[:live], True)
    high, order = combo_values(g, full, out_bits, threads)
    if not lows:
        return BoardValues(high, order, None, None)
    return BoardValues(high, order, *combo_values(g, full, out_bits, threads, low=True))


def add_board(cards: np.ndarray, v: BoardValues, reach: np.ndarray, num: np.ndarray,
              tied: np.ndarray, sums: np.ndarray, binom: np.ndarray, base: np.ndarray
              ) -> None:
    """``num +=`` every combo's twice pot share against ``reach`` on one board (``tied``:
    the weight it ties, high games only)."""
    from .kernels import generic_sweep as k
    n = len(v.order)
    if v.low is None:
        k.sweep_board(cards, v.order, v.high, n, reach, num, tied, sums, binom, base)
        return
    high, high_low, low_sum = (np.zeros(len(num)) for _ in range(3))
    k.sweep_board(cards, v.order, v.high, n, reach, high, NO_TIES, sums, binom, base)
    holding = readonly(np.where(v.low > 0, reach, 0.0))
    k.sweep_board(cards, v.order, v.high, n, holding, high_low, NO_TIES, sums, binom, base)
    k.sweep_board(cards, v.low_order, v.low, n, reach, low_sum, NO_TIES, sums, binom, base)
    k.add_hilo(v.low, high, high_low, low_sum, num)


def pair_by_pair(bits: np.ndarray, v: BoardValues, reach: np.ndarray, careful: np.ndarray,
                 share: np.ndarray, tie: np.ndarray, signs: bool) -> None:
    """``kernels.generic_sweep.pairwise`` for the careful combos, hi-lo or high."""
    from .kernels import generic_sweep as k
    if v.low is None:
        k.pairwise(bits, v.order, v.high, len(v.order), reach, careful, share, tie, signs)
    else:
        k.pairwise_hilo(bits, v.order, v.high, v.low, len(v.order), reach, careful, share,
                        signs)


def _careful(met: np.ndarray, whole: float, close: float, live: np.ndarray) -> np.ndarray:
    return np.flatnonzero(live & (met < close * whole)) if close else np.zeros(0, np.int64)


def runout_sums(g: Game, board: np.ndarray, out_bits: int, runouts: np.ndarray,
                reach: np.ndarray, close: float, threads: int | None,
                tied: np.ndarray = NO_TIES) -> tuple[int, np.ndarray, np.ndarray]:
    """``(status, num, met)``: every combo's twice-wins-plus-ties summed over the
    ``runouts`` (``num``) and the weight clear of it and the known cards (``met``), as
    ``kernels.sweep.runout_sweep`` leaves them for ``factor = 0``; where ``tied`` is
    (N,), the weight each ties is added to it (high games).  In hi-lo games ``num`` is
    twice the pot share."""
    from .kernels import generic_sweep as k
    from .kernels.sweep import OK, TOO_CONCENTRATED
    cards = combos(g)
    bits = combo_bits(g.deck, g.hole)
    binom, base, size = binomials(g.hole)
    sums = np.zeros(size)
    n = len(cards)
    met = np.zeros(n)
    status, whole = k.clear_weights(cards, bits, np.uint64(out_bits), reach, met, sums,
                                    binom, base)
    num = np.zeros(n)
    if status != OK:
        return status, num, met
    careful = _careful(met, whole, close, (bits & np.uint64(out_bits)) == 0)
    if len(careful):
        support = int(np.count_nonzero(reach[(bits & np.uint64(out_bits)) == 0]))
        if len(careful) * support * len(runouts) > CAREFUL_WORK:
            return TOO_CONCENTRATED, num, met
        for c in careful.tolist():             # the exact clear weight, pair by pair
            clear = (bits & (bits[c] | np.uint64(out_bits))) == 0
            met[c] = float(reach[clear].sum())
    share = np.zeros(len(careful))
    tie = np.zeros(len(careful) if len(tied) else 0)
    assert not (g.hilo and len(tied)), "a hi-lo pot has no single tie to count"
    for runout in runouts:
        full = np.concatenate([board, runout]).astype(np.uint8)
        out = out_bits | sum(1 << int(c) for c in runout.tolist())
        v = board_values(g, full, out, threads)
        add_board(cards, v, reach, num, tied, sums, binom, base)
        if len(careful):
            pair_by_pair(bits, v, reach, careful, share, tie, False)
    num[careful] = share
    if len(tied):
        tied[careful] = tie
    return OK, num, met


LOW_LEVELS = 57
"""Columns of a hi-lo tally's rows of sums by low rank, at most: the 56 lows of five
distinct ranks from the ace to the eight, and no low."""


def low_ranks(v: BoardValues) -> np.ndarray:
    """Every combo's low as a rank on its board: 0 for none, 1 for the worst low made."""
    if v.low is None:
        return np.zeros(len(v.high), np.int64)
    top = int(v.low.max(initial=0))
    if top > 1 << 16:                  # a game's own low values, not numbered small
        made = np.unique(v.low[v.low > 0])
        return np.where(v.low > 0, np.searchsorted(made, v.low) + 1, 0).astype(np.int64)
    rank = np.zeros(top + 1, np.int64)  # small numbers: a table, not a sort
    rank[v.low[v.low > 0]] = 1
    np.cumsum(rank, out=rank)
    return rank[np.maximum(v.low, 0)]           # no low (0) and out (-1): 0


def hilo_tallies(g: Game, board: np.ndarray, out_bits: int, runouts: np.ndarray,
                 reach: np.ndarray, hero: np.ndarray, threads: int | None) -> np.ndarray:
    """Heads-up hi-lo outcomes of ``hero``'s combos against ``reach`` over every runout,
    weighed by both (``kernels.generic_sweep.hilo_tallies``'s ``cells``, (12,)).  Exact
    where ``reach``'s weights sum exactly (whole multiples of one power of two).  Memory:
    a row of at most 57 sums (one per low) per card subset and six sums per combo, for each thread
    (4-card Omaha 11 MB and 13 MB; 5-card, 136 MB and 125 MB, and 6-card up to 670 MB
    and 977 MB, on one thread only).
    Runouts are tallied in fixed chunks summed in order: the same bits on any number of
    threads."""
    from ._parallel import map_items, resolve_threads
    from .kernels import generic_sweep as k
    cards = combos(g)
    hands = None
    if g.family == "omaha":
        # only the combos that weigh on either side are listed and walked (6-card Omaha
        # 10% against 40%: half of its 20.4 million), in combo order
        keep = np.flatnonzero((reach != 0) | (hero != 0))
        cards, bits, reach, hero = (readonly(np.ascontiguousarray(a[keep])) for a in
                                    (cards, combo_bits(g.deck, g.hole), reach, hero))
        hands = (cards, bits)
    binom, base, size = binomials(g.hole)

    def work(start: int) -> np.ndarray:
        by_low = np.zeros((size + 1, LOW_LEVELS))
        totals = np.zeros(size + 1)
        seen = np.zeros((len(cards), 6))
        cells = np.zeros(12)
        for runout in runouts[start:start + TALLY_CHUNK]:
            full = np.concatenate([board, runout]).astype(np.uint8)
            out = out_bits | sum(1 << int(c) for c in runout.tolist())
            v = board_values(g, full, out, inner, hands)
            lows = v.low if v.dense and v.low is not None else low_ranks(v)
            width = int(lows.max(initial=0)) + 1        # the rows' columns this board
            k.hilo_tallies(cards, v.order, v.high, lows, len(v.order), reach, hero,
                           by_low.reshape(-1)[:(size + 1) * width].reshape(size + 1, width),
                           totals, seen, binom, base, cells)
        return cells
    starts = list(range(0, len(runouts), TALLY_CHUNK))
    workers = resolve_threads(threads, len(runouts) << 16) if g.hole <= 4 else 1
    inner = 1 if workers > 1 else threads          # the evaluation's own threads
    parts = map_items(work, starts, workers)
    return np.sum(parts, axis=0) if parts else np.zeros(12)


TALLY_CHUNK = 16
"""Runouts a thread tallies at a time (a fixed split)."""


def showdown(g: Game, board: np.ndarray, out_bits: int, rows: np.ndarray, close: float,
             threads: int | None) -> tuple[int, np.ndarray]:
    """``(status, values)``: for each row of ``rows`` (k, N), every combo's weight beaten
    less its weight lost to on the complete board ``board`` (hi-lo: its pot share less
    the opponent's, weighed); 0 for a combo holding a card out."""
    from .kernels import generic_sweep as k
    from .kernels.sweep import NO_LIVE_WEIGHT, NO_WEIGHT, OK, TOO_CONCENTRATED
    cards = combos(g)
    bits = combo_bits(g.deck, g.hole)
    binom, base, size = binomials(g.hole)
    sums = np.zeros(size)
    v = board_values(g, board, out_bits, threads)
    live = v.high >= 0
    out = np.zeros(rows.shape)
    met = np.zeros(len(cards))
    for r, weights in enumerate(rows):
        status, whole = k.clear_weights(cards, bits, np.uint64(out_bits), weights, met, sums,
                                        binom, base)
        if status in (NO_WEIGHT, NO_LIVE_WEIGHT):
            continue
        if status != OK:
            return status, out
        row = out[r]
        add_board(cards, v, weights, row, NO_TIES, sums, binom, base)
        row -= met
        careful = _careful(met, whole, close, live)
        if len(careful):
            if len(careful) * int(np.count_nonzero(weights)) > CAREFUL_WORK:
                return TOO_CONCENTRATED, out
            share = np.zeros(len(careful))
            pair_by_pair(bits, v, weights, careful, share, NO_TIES, True)
            row[careful] = share
        row[~live] = 0.0
    return OK, out


def signs(g: Game, board: np.ndarray, out_bits: int, out: np.ndarray,
          threads: int | None) -> None:
    """``out`` (N, N) int8: +1 / -1 / 0 as the row combo beats, loses to or ties the
    column combo on ``board``; 0 where they share a card or either holds a card out."""
    assert not g.hilo, "no hi-lo game's matrix fits in MATRIX_BYTES"   # 270,725 combos up
    values, _ = combo_values(g, board, out_bits, threads)
    bits = combo_bits(g.deck, g.hole)
    live = values >= 0
    step = 1024
    for a in range(0, len(values), step):
        v = values[a:a + step, None]
        block = np.sign(v - values[None, :]).astype(np.int8)
        block[(bits[a:a + step, None] & bits[None, :]) != 0] = 0
        block[~live[a:a + step]] = 0
        block[:, ~live] = 0
        out[a:a + step] = block


def warm() -> None:
    """Compile the subset sweep's kernels for every type a call passes them (a few combos
    of three cards, weights read-only as every caller's are)."""
    from .kernels import generic_sweep as k
    cards = np.array([[0, 1, 2], [3, 4, 5], [0, 4, 8]], np.uint8)
    bits = np.array([sum(1 << int(c) for c in row) for row in cards.tolist()], np.uint64)
    reach = np.array([1.0, 0.5, 0.25])
    for a in (cards, bits, reach):          # read-only, as combos() and the weights are
        a.flags.writeable = False
    binom, base, size = binomials(3)
    sums, met, num = np.zeros(size), np.zeros(3), np.zeros(3)
    k.clear_weights(cards, bits, np.uint64(1 << 51), reach, met, sums, binom, base)
    values = np.array([3, 1, 2], np.int64)
    order = np.array([1, 2, 0], np.int64)
    for tied in (NO_TIES, np.zeros(3)):
        k.sweep_board(cards, order, values, 3, reach, num, tied, sums, binom, base)
        for sign in (False, True):
            k.pairwise(bits, order, values, 3, reach, np.array([0], np.int64), np.zeros(1),
                       tied[:1], sign)
    low = np.array([0, 1, -1], np.int64)
    k.add_hilo(low, np.zeros(3), np.zeros(3), np.zeros(3), num)
    for sign in (False, True):
        k.pairwise_hilo(bits, order, values, low, 3, reach, np.array([0], np.int64),
                        np.zeros(1), sign)
    by_low, totals = np.zeros((size + 1, LOW_LEVELS)), np.zeros(size + 1)
    k.hilo_tallies(cards, order, values, np.array([0, 1, 0], np.int64), 3, reach, reach,
                   by_low, totals, np.zeros((3, 6)), binom, base, np.zeros(12))
