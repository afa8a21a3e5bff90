"""Combo vectors for every game the two-card and Omaha sweeps do not cover: each complete
board's combos valued by the game's own evaluation (``evaluate_batch``), listed weakest
first, and swept with card removal by inclusion-exclusion over every subset of a combo's
cards (``kernels/generic_sweep.py``).  Tahoe, "The", 5- and 6-card Omaha, Courchevel and
Teen Patti (one listing of its 22,100 hands: it has no board) run here.

``vectors`` calls these with a checked spot; nothing here checks its arguments.
"""
from __future__ import annotations

import math
from functools import cache

import numpy as np

from .combo_order import combo_bits, combos
from .games import Game

__all__ = ["runout_sums", "showdown", "signs", "binomials", "combo_values", "warm"]

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


def combo_values(g: Game, full: np.ndarray, out_bits: int, threads: int | None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``(values, order)`` on the complete board ``full``: every combo's value (int64,
    bigger is better; -1 where it holds a card out) and the live combos weakest first."""
    from .evaluate import evaluate_batch
    cards = combos(g)
    live = np.flatnonzero((combo_bits(g.deck, g.hole) & np.uint64(out_bits)) == 0)
    rows = np.empty((len(live), g.hole + len(full)), np.uint8)
    rows[:, :g.hole] = cards[live]
    rows[:, g.hole:] = full
    values = np.full(len(cards), -1, np.int64)
    if len(live):
        values[live] = evaluate_batch(g, rows, validate=False, threads=threads)
    order = live[np.argsort(values[live], kind="stable")]
    return values, order


def _careful(met: np.ndarray, whole: float, close: float, live: np.ndarray) -> np.ndarray:
    return np.flatnonzero(live & (met < close * whole)) if close else np.zeros(0, np.int64)


def runout_sums(g: Game, board: np.ndarray, out_bits: int, runouts: np.ndarray,
                reach: np.ndarray, close: float, threads: int | None,
                tied: np.ndarray = NO_TIES) -> tuple[int, np.ndarray, np.ndarray]:
    """``(status, num, met)``: every combo's twice-wins-plus-ties summed over the
    ``runouts`` (``num``) and the weight clear of it and the known cards (``met``), as
    ``kernels.sweep.runout_sweep`` leaves them for ``factor = 0``; where ``tied`` is
    (N,), the weight each ties is added to it."""
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
    for runout in runouts:
        full = np.concatenate([board, runout]).astype(np.uint8)
        out = out_bits | sum(1 << int(c) for c in runout.tolist())
        values, order = combo_values(g, full, out, threads)
        k.sweep_board(cards, order, values, len(order), reach, num, tied, sums, binom,
                      base)
        if len(careful):
            k.pairwise(bits, order, values, len(order), reach, careful, share, tie, False)
    num[careful] = share
    if len(tied):
        tied[careful] = tie
    return OK, num, met


def showdown(g: Game, board: np.ndarray, out_bits: int, rows: np.ndarray, close: float,
             threads: int | None) -> tuple[int, np.ndarray]:
    """``(status, values)``: for each row of ``rows`` (k, N), every combo's weight beaten
    less its weight lost to on the complete board ``board``; 0 for a combo holding a
    card out."""
    from .kernels import generic_sweep as k
    from .kernels.sweep import NO_LIVE_WEIGHT, NO_WEIGHT, OK, TOO_CONCENTRATED
    cards = combos(g)
    bits = combo_bits(g.deck, g.hole)
    binom, base, size = binomials(g.hole)
    sums = np.zeros(size)
    values, order = combo_values(g, board, out_bits, threads)
    live = values >= 0
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
        k.sweep_board(cards, order, values, len(order), weights, row, NO_TIES, sums, binom,
                      base)
        row -= met
        careful = _careful(met, whole, close, live)
        if len(careful):
            if len(careful) * int(np.count_nonzero(weights)) > CAREFUL_WORK:
                return TOO_CONCENTRATED, out
            share = np.zeros(len(careful))
            k.pairwise(bits, order, values, len(order), weights, careful, share, NO_TIES,
                       True)
            row[careful] = share
        row[~live] = 0.0
    return OK, out


def signs(g: Game, board: np.ndarray, out_bits: int, out: np.ndarray,
          threads: int | None) -> None:
    """``out`` (N, N) int8: +1 / -1 / 0 as the row combo beats, loses to or ties the
    column combo on ``board``; 0 where they share a card or either holds a card out."""
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
