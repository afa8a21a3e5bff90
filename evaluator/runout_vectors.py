"""One range's wins and deals against another on every runout of a board, a runout at a
time: what a runout study adds to each card a runout holds.  The two-card games have
their own (``vectors.runout_totals``); here Omaha (4, 5 and 6 cards) sweeps its hole
pairs (``kernels/omaha_sweep``) and every other game its combos' subsets (``subset_vectors``),
hi-lo pot shares included.  Each runout's deals are the first range's weights times the
second's clear of each combo and of the runout: read off the deals holding each card and
each pair of cards (``kernels.generic_sweep.deal_tables``, one pass made once), so a
runout costs one sweep.
"""
from __future__ import annotations

import math

import numpy as np

from . import _tables
from .combo_order import combo_bits, combos
from .games import Game
from .vector_weights import exact_share, readonly, weighted_sum

__all__ = ["hero_totals"]

CHUNK = 32
"""Runouts a work item takes (a fixed split: the same sums on any number of threads)."""


def hero_totals(g: Game, hero: np.ndarray, against: np.ndarray, board: np.ndarray,
                out_bits: int, runouts: np.ndarray, threads: int | None,
                summed: bool = False) -> np.ndarray | None:
    """``(R, 3)``: for each runout, ``hero``'s weighted share of the deals against
    ``against`` (wins and half the ties; hi-lo: the pot share), of its ties (high games;
    0 in hi-lo) and the deals, both weights multiplied; None where ``against``'s weights
    would not sum exactly (a caller then asks card by card).  ``summed``: only their sums
    over the runouts, ``(3,)`` (every runout, then: the deals are the pairs of combos
    clear of each other times the runouts each pair leaves, so runouts of any size)."""
    from ._parallel import map_items, resolve_threads
    from .subset_vectors import binomials, deal_tables
    from .vectors import kind
    if exact_share(against, len(runouts)):
        return None
    need = runouts.shape[1]
    if need > 3 and not summed:
        raise ValueError(f"runouts of {need} cards are only summed")
    cards, bits = combos(g), combo_bits(g.deck, g.hole)
    binom, base, size = binomials(g.hole)
    # the deals clear of each runout's cards, from tables made once (summed: their total)
    tables = deal_tables(g, hero, against, out_bits, 0 if summed else need, threads)
    if kind(g) == "omaha":
        # only the hands that weigh or are read, and are clear of the board: the others
        # would be listed and walked past on every runout (PLO 10% vs 40%: 45% of them)
        keep = np.flatnonzero(((against != 0) | (hero != 0))
                              & ((bits & np.uint64(out_bits)) == 0))
        river = _omaha_river(g, *(readonly(np.ascontiguousarray(a[keep]))
                                  for a in (cards, bits, hero, against)))
    else:
        river = _subset_river(g, cards, hero, against, binom, base, size)

    def work(start: int) -> np.ndarray:
        part = runouts[start:start + CHUNK]
        got = np.zeros((len(part), 3))
        sweep = river()
        for r, runout in enumerate(part):
            full = np.concatenate([board, runout]).astype(np.uint8)
            mask = out_bits | sum(1 << int(c) for c in runout.tolist())
            got[r, 0], got[r, 1] = sweep(full, mask)
            if not summed:
                got[r, 2] = tables.clear(runout)
        return got
    starts = list(range(0, len(runouts), CHUNK))
    parts = map_items(work, starts, resolve_threads(threads, len(runouts) << 16))
    rows = np.concatenate(parts) if parts else np.zeros((0, 3))
    if not summed:
        return rows
    sums = rows.sum(axis=0)
    live = 52 - bin(out_bits).count("1")
    sums[2] = tables.total * math.comb(live - 2 * g.hole, need)
    return sums


def _omaha_river(g: Game, cards: np.ndarray, bits: np.ndarray, hero: np.ndarray,
                 against: np.ndarray):
    """A maker of Omaha's river sweep (scratch of its own for each work item) over the
    hands ``cards`` (any of the combos, in combo order): read where ``hero`` has weight;
    hi-lo, every hand's pot share from the board's three sweeps (``kernels/omaha_board``),
    weighed by ``hero``."""
    from .kernels import omaha_board as b
    from .kernels import omaha_sweep as o
    from .kernels import omaha_walk as w
    t = _tables.high(g.values)
    n = len(cards)

    def make():
        if g.hilo:
            num = np.zeros(n)
            scratch = b.scratch(cards, 0, n)
            pick = np.array(hero, np.float64)      # only the hero's hands read

            def hilo(full: np.ndarray, mask: int) -> tuple[float, float]:
                num[:] = 0.0
                b.river_num(cards, bits, full, np.uint64(mask), against, num, True, pick,
                            scratch, *t)
                return weighted_sum(hero, num) / 2, 0.0
            return hilo
        pair_rank = np.zeros(o.PAIRS, np.int64)
        words, spare = np.empty(256, np.int64), np.empty(256, np.int64)
        count = np.empty(o.PAIRS + 2, np.int64)
        hand_rank, order = np.empty(n, np.int64), np.empty(n, np.uint64)
        sums = np.zeros(o.sums_size(g.hole))

        def sweep(full: np.ndarray, mask: int) -> tuple[float, float]:
            listed = o.list_river(cards, bits, full, np.uint64(mask), pair_rank, words, spare,
                                  count, hand_rank, order, *t)
            won, up_to = w.hero_sweep_river(cards, order, listed, against, hero, sums)
            return (won + up_to) / 2, up_to - won
        return sweep
    return make


def _subset_river(g: Game, cards: np.ndarray, hero: np.ndarray, against: np.ndarray,
                  binom: np.ndarray, base: np.ndarray, size: int):
    """A maker of the subset sweep of one river (hi-lo: the pot share's three sweeps)."""
    from .subset_vectors import NO_TIES, add_board, board_values

    def make():
        sums, num, tied = np.zeros(size), np.zeros(len(cards)), np.zeros(len(cards))
        ties = NO_TIES if g.hilo else tied

        def sweep(full: np.ndarray, mask: int) -> tuple[float, float]:
            num[:] = 0.0
            tied[:] = 0.0
            add_board(cards, board_values(g, full, mask, 1), readonly(against), num, ties,
                      sums, binom, base)
            return weighted_sum(hero, num) / 2, weighted_sum(hero, tied)
        return sweep
    return make
