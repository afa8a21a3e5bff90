"""Helpers the families share: rank multisets, the multiset kernels' constant tables, and
the best-five walk and sampler (``FusedBest5``) that Tahoe runs on three sub-hands."""
from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from .. import _tables
from ..games import Game
from ..kernels.markers import deal_marker, ndim_marker, unknown_cards  # NumPy only: no Numba import
from .base import Family

__all__ = ["rank_multisets", "multiset_tables", "sample_best5", "BOARD_ROWS", "FusedBest5"]

# the five-card rank hash the best-five sampler of known hands reads its board rows from
BOARD_ROWS = ("rank_offsets5", "omaha_board_index")


@cache
def rank_multisets(size: int) -> np.ndarray:
    """Every sorted multiset of ``size`` ranks, each rank at most four times."""
    rows = [c for c in itertools.combinations_with_replacement(range(13), size)
            if max(c.count(r) for r in set(c)) <= 4]
    out = np.array(rows, np.uint8).reshape(-1, size)
    out.flags.writeable = False
    return out


@cache
def spot_multisets(need: int) -> np.ndarray:
    """``rank_multisets(need)``, and on the river one empty multiset: the board's one
    showdown (the kernels then count that board)."""
    if need:
        return rank_multisets(need)
    empty = np.zeros((1, 0), np.uint8)
    empty.flags.writeable = False
    return empty


@cache
def multiset_tables() -> tuple[np.ndarray, ...]:
    """The constant tables of the rank-multiset kernels, made once."""
    from ..kernels import multisets
    return multisets.class_tables()


def sample_best5(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                 need: int, samples: int, state: np.ndarray, hi_full: np.ndarray) -> int:
    """Monte Carlo of best-five games and Tahoe: ``samples`` deals from ``state`` into
    ``hi_full``; hands may lack cards (the kernel deals them)."""
    from ..kernels import sampling
    holes = np.zeros((len(hands), g.hole), np.uint8)
    for p, hand in enumerate(hands):
        holes[p, :len(hand)] = hand
    unknown = unknown_cards([g.hole - len(hand) for hand in hands])
    tables = _tables.high(g.values)
    if unknown.any():
        sampling.best5_sample(holes, ndim_marker(g.sub_hands), unknown, board, live, need,
                              samples, state, *tables, hi_full)
    else:       # the same deals, dealt a block at a time and then evaluated
        sampling.best5_sample_known(holes, ndim_marker(g.sub_hands), board, live,
                                    deal_marker(need), samples, state, *tables,
                                    *_tables.load_many(BOARD_ROWS), hi_full)
    return samples


class FusedBest5(Family):
    """The fused best-five kernels (``kernels/walks``, the best-five samplers), on
    ``g.sub_hands`` hold'em hands per player: what the best-five family and Tahoe share."""

    def walk(self, g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
             need: int, first: np.ndarray, hi_full: np.ndarray,
             low_counts: np.ndarray) -> int:
        from ..kernels import walks
        return walks.best5_equity(np.stack(hands), ndim_marker(g.sub_hands), board, live,
                                  need, first, *_tables.high(g.values), hi_full)

    def sample(self, g: Game, hands: list[np.ndarray], board: np.ndarray,
               live: np.ndarray, need: int, samples: int, state: np.ndarray,
               hi_full: np.ndarray, low_counts: np.ndarray) -> int:
        return sample_best5(g, hands, board, live, need, samples, state, hi_full)

    def walk_batch(self, g: Game, holes: np.ndarray, board: np.ndarray, dead: np.ndarray,
                   need: int, hi_full: np.ndarray, boards: np.ndarray) -> bool:
        if not self.fused(g):
            return False
        from ..kernels import walks
        walks.best5_equity_batch(holes, ndim_marker(g.sub_hands), board, dead, need,
                                 *_tables.high(g.values), hi_full, boards)
        return True
