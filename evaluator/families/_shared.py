"""Helpers the families share: rank multisets, the multiset kernels' constant tables, and
the best-five sampler that Tahoe uses too."""
from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from .. import _tables
from ..games import Game
from ..kernels.markers import ndim_marker, unknown_cards  # NumPy only: no Numba import

__all__ = ["rank_multisets", "multiset_tables", "sample_best5", "BOARD_ROWS"]

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
                                    ndim_marker(need), samples, state, *tables,
                                    *_tables.load_many(BOARD_ROWS), hi_full)
    return samples
