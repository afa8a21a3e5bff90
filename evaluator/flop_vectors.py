"""Range against range on every flop at once (``flop_totals``): each complete board swept
once for all the flops it holds, on the sort and sweep of ``vectors`` (two-card games).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import _tables
from .cards import CardsLike, parse_cards
from .errors import EvaluatorError
from .games import Game
from .vectors import layout, readonly, sweep_game, two_cards

__all__ = ["flop_totals", "FlopTotals"]


# --- every flop at once --------------------------------------------------------------------

BOARD_CHUNK = 4096
"""Complete boards per work item of ``flop_totals`` (about 20 ms)."""
FLOP_CHUNK = 64
"""Flops per work item when naming their runouts' classes."""


class FlopTotals(NamedTuple):
    """Per flop, ``hero`` against ``against`` over every turn and river (``flop_totals``)."""
    won: np.ndarray            # the weight of the deals hero wins
    tied: np.ndarray           # ... ties
    deals: np.ndarray          # ... of all its deals
    pairs: np.ndarray          # pairs of combos with weight that meet, int64
    per_pair: int              # runouts a pair of combos leaves
    careful: np.ndarray        # hero combos whose sums would cancel (0 where none), int64


def flop_totals(hero: np.ndarray, against: np.ndarray, flops: np.ndarray,
                suit_maps: np.ndarray, *, game: str | Game = "holdem", dead: CardsLike = "",
                threads: int | None = None, progress: Callable[[int], None] | None = None
                ) -> FlopTotals:
    """Range against range on each of ``flops`` (uint8 (F, 3)), exactly, every complete
    board swept once: a board is the same deal for every flop it holds, and boards a
    renaming of suits maps onto each other give the same totals when the ranges and
    the dead cards are left as they are by it (``suit_maps``, int64 (k, 4): the renamings,
    the identity among them).  So the 2.06 million runouts of the 1,755 flop classes of
    hold'em need about 134,000 sweeps.  ``hero`` and ``against`` are weight vectors
    (``Range.vector()``); ``progress(n)`` is told of each batch of boards swept.
    """
    from ._parallel import map_items, resolve_threads
    from .kernels import flop_sweep as k
    g = sweep_game(game, "flop_totals")
    if not two_cards(g):
        raise EvaluatorError(f"flop_totals covers the two-card games, not {g.name}", g.name)
    dead_ids = parse_cards(dead, what="the dead cards")
    dead_bits = np.uint64(sum(1 << int(c) for c in set(dead_ids.tolist())))
    lay = layout(g.deck)
    t = _tables.high(g.values)
    workers = resolve_threads(threads, 1 << 30)
    # combos neither range holds carry bit 63, which the listing leaves out
    idle = (hero == 0) & (against == 0)
    bits = lay.combo_bits | (idle.astype(np.uint64) << np.uint64(63))
    members = (lay.member_words & np.uint64(0xFFFF)).astype(np.int64)
    member_bits = bits[members]
    swept = lay._replace(combo_bits=bits, member_bits=member_bits)
    hero = readonly(np.ascontiguousarray(hero, np.float64))
    against = readonly(np.ascontiguousarray(against, np.float64))
    live = sum(1 << c for c in g.deck) & ~int(dead_bits)
    left = len(g.deck) - len(set(dead_ids.tolist())) - 3
    runouts = math.comb(left, 2)
    keys = np.empty((len(flops), runouts), np.int64)

    def name(span: tuple[int, int]) -> None:
        k.canonical_runouts(flops[span[0]:span[1]], np.uint64(live), suit_maps,
                            keys[span[0]:span[1]])
    map_items(name, _spans(len(flops), FLOP_CHUNK), workers)
    classes, inverse = np.unique(keys, return_inverse=True)
    boards = np.empty((len(classes), 5), np.uint8)
    k.boards_of_keys(classes, boards)
    sums = np.empty((len(classes), 2))

    def sweep(span: tuple[int, int]) -> None:
        k.board_totals(*swept, boards[span[0]:span[1]], dead_bits, against, hero,
                       sums[span[0]:span[1]], *t)
        if progress is not None:
            progress(span[1] - span[0])
    map_items(sweep, _spans(len(classes), BOARD_CHUNK), workers)
    per_flop = sums[inverse.reshape(keys.shape)].sum(axis=1)
    out = np.empty((len(flops), 3))
    k.flop_deals(lay.cards, lay.combo_bits, flops, dead_bits, against, hero, out)
    per_pair = math.comb(left - 4, 2)
    return FlopTotals(per_flop[:, 0], per_flop[:, 1], out[:, 0] * per_pair,
                      out[:, 1].astype(np.int64), per_pair, out[:, 2].astype(np.int64))


def _spans(n: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, n)) for a in range(0, n, size)]
