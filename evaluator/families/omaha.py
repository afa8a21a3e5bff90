"""Omaha: exactly two hole cards and three board cards, for the high and the 8-or-better
low apart.  Omaha 4/5/6, their hi-lo games and Courchevel (five hole cards, one flop card
shown before the first round).

Full boards read tables indexed by the board's rank multiset (``kernels/omaha``); exact
equity of known hands is rank-multiset enumeration, or a fused walk of the boards
(``kernels/walks.omaha_walk``) where two suits could flush; sampling is
``walks.omaha_sample``.  The low is one lookup of the hole's and the board's low ranks.
Every hole size has combo vectors, high and hi-lo, from the street whose runouts their
hole-pair sweep finishes in seconds (``kernels/omaha_sweep``, ``kernels/omaha_board``):
four cards the flop, five the turn, six (20.4 million hands) the river.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from .. import _tables
from ..games import Game
from ..kernels.markers import ndim_marker  # NumPy only: no Numba import
from ._shared import multiset_tables, rank_multisets, spot_multisets
from .base import Family

__all__ = ["Omaha", "OmahaTables", "omaha_tables", "OMAHA_DIRECT", "OMAHA_EQUITY"]

EVERY_COMBO_PER = {(4, False): 1.7e-8, (5, False): 2.8e-8, (6, False): 4.7e-8,
                   (4, True): 2.5e-8, (5, True): 5.8e-8, (6, True): 8.6e-8}
"""Seconds a hand and runout of Omaha's sweep of every hand (``every_combo_seconds``), on
two cores (a 2-core Zen 4, against the game's 40%): the flop of PLO 5.3 s, PLO8 8 s,
5-card Omaha 85 s, its hi-lo 177 s; the turn of 6-card Omaha 46 s, its hi-lo 84 s."""

OMAHA_DIRECT = ("card_keys", "rank_offsets5", "omaha_board_index", "omaha_pairs",
                "omaha_flush", "omaha_hole_offsets", "omaha_hole_index")


class OmahaTables(NamedTuple):
    """The tables the Omaha equity kernels take, in their order (unpack with ``*``)."""
    card_keys: np.ndarray          # the 64-bit key of each card
    board_offsets: np.ndarray      # the five-card rank hash: row offsets ...
    board_index: np.ndarray        # ... and each board rank multiset's row
    omaha_pairs: np.ndarray        # best non-flush 2 + 3 hand per (board row, hole pair)
    omaha_flush: np.ndarray        # flush values per (board suit mask, hole pair)
    low_card_bits: np.ndarray      # each card's bit among the low ranks
    omaha_low: np.ndarray          # the 8-or-better low per (hole, board) low-rank masks


# the file each of them is read from
OMAHA_EQUITY = ("card_keys", "rank_offsets5", "omaha_board_index", "omaha_pairs",
                "omaha_flush", "low_card_bits", "omaha_low")


def omaha_tables() -> OmahaTables:
    """The Omaha equity kernels' tables (``_tables.load`` keeps each array loaded once)."""
    return OmahaTables(*_tables.load_many(OMAHA_EQUITY))


class Omaha(Family):
    name = "omaha"
    title = "exactly two hole cards and three board cards"
    kernel_modules = ("_intrinsics", "dealing", "high", "counting", "multisets", "omaha",
                      "walks", "sweep", "showdown", "omaha_sweep", "omaha_walk", "omaha_board",
                      "generic_sweep", "rows")
    sample_rate = 4e7
    two_plus_three = True
    kill_pots = True

    def fused(self, g: Game) -> bool:
        return True

    def multisets(self, g: Game) -> bool:
        return True

    def vector_kind(self, g: Game) -> str | None:
        if g.hole in (4, 5, 6):
            return "omaha"
        return super().vector_kind(g)

    def subset_seconds(self, g: Game) -> float:
        return {4: 1.5e-7, 5: 3e-7}.get(g.hole, 6e-7)   # 60, 100, 150 five-card choices

    def vectors(self, g: Game, board_cards: int) -> bool:
        if self.vector_kind(g) == "omaha":
            # the earliest street swept within seconds on two cores: PLO and PLO8 a flop's
            # 1,176 runouts (5 s; PLO8 up to three sweeps a river, 15 s), 5-card Omaha and
            # its hi-lo a turn (5 s; hi-lo 8-10 s)
            # and 6-card Omaha's 20.4 million hands a river
            first = {(4, False): 3, (4, True): 3, (5, False): 4, (5, True): 4,
                     (6, False): 5, (6, True): 5}
            return board_cards >= first[g.hole, g.hilo] and board_cards in g.streets
        return super().vectors(g, board_cards)

    def vectors_within(self, g: Game, board_cards: int, seconds: float) -> bool:
        # a street before the seconds' ones: its runouts swept one after the other, where
        # they take at most ``seconds`` (5-card Omaha's flop about 85 s, 6-card Omaha's
        # turn 46 s; its flop about 20 minutes)
        return self.vectors(g, board_cards) or (
            self.vector_kind(g) == "omaha" and board_cards >= 3
            and self.every_combo_seconds(g, board_cards) <= seconds)

    def every_combo_seconds(self, g: Game, board_cards: int) -> float:
        if self.vector_kind(g) != "omaha":
            return super().every_combo_seconds(g, board_cards)
        if board_cards not in g.streets:
            return math.inf
        # the hole-pair sweep of every hand on each runout (``EVERY_COMBO_PER``), and each
        # hand's clear weight once
        runouts = math.comb(len(g.deck) - board_cards, 5 - board_cards)
        per = EVERY_COMBO_PER[g.hole, g.hilo]
        return math.comb(len(g.deck), g.hole) * (runouts * per + 1e-7)

    def exact_seconds(self, g: Game, board_cards: int) -> float:
        if self.vector_kind(g) != "omaha":
            return super().exact_seconds(g, board_cards)
        if board_cards not in g.streets:
            return math.inf
        # each runout's hole-pair sweep read where the first range has weight (hi-lo: the
        # tallies of high and low outcomes together, one thread for five cards), 10% vs
        # 40% on two cores: a PLO flop's 1,176 runouts 2.3 s, PLO8's 8 s, 5-card Omaha's
        # 40 s, its hi-lo's about 4 minutes; a 6-card Omaha turn's 48 runouts 26 s, its
        # hi-lo's 3.5 minutes
        runouts = math.comb(len(g.deck) - board_cards - g.hole, 5 - board_cards)
        per = {(4, False): 8e-9, (5, False): 1.5e-8, (4, True): 3e-8, (5, True): 1.2e-7,
               (6, False): 3e-8, (6, True): 2.2e-7}
        return math.comb(len(g.deck), g.hole) * runouts * per[g.hole, g.hilo]

    def breakdown_seconds(self, g: Game) -> float | None:
        # classified from the 1,326 hole pairs, each valued once (about 1 us a combo,
        # 6-card Omaha's 10%, 1.6 million combos, in 1.5 s)
        return 2e-6

    def class_seconds(self, g: Game, need: int, live: int) -> float:
        if need:
            return 4e-5 + 2.5e-7 * len(rank_multisets(need))
        return super().class_seconds(g, need, live)

    def batch_kernel(self, g: Game, low: bool, width: int
                     ) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]]:
        from ..kernels import omaha
        if low:
            return omaha.low_rows, (ndim_marker(g.hole),), (_tables.load("low_card_bits"),
                                                            _tables.load("omaha_low"))
        if width == g.hole + 5:
            # the (board, hole) table serves four hole cards; five and six read hole pairs
            direct = _tables.omaha_direct() if g.hole == 4 else np.zeros((1, 1), np.uint16)
            return (omaha.high_rows_direct, (ndim_marker(g.hole),),
                    (*(_tables.load(name) for name in OMAHA_DIRECT), direct))
        return omaha.high_rows, (g.hole,), tuple(_tables.high())

    def five_card_choices(self, g: Game, hole: list[int], board: list[int]
                          ) -> Iterator[list[int]]:
        for pair in itertools.combinations(hole, 2):
            for triple in itertools.combinations(board, 3):
                yield list(pair + triple)

    def exact(self, g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
              need: int, hi_full: np.ndarray, low_counts: np.ndarray) -> int:
        from ..kernels import multisets
        return multisets.omaha_exact(np.stack(hands), board, live, rank_multisets(need),
                                     g.hilo, *omaha_tables(), hi_full, low_counts,
                                     multiset_tables())

    def walk(self, g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
             need: int, first: np.ndarray, hi_full: np.ndarray,
             low_counts: np.ndarray) -> int:
        from ..kernels import walks
        return walks.omaha_walk(np.stack(hands), board, live, need, first, g.hilo,
                                *omaha_tables(), hi_full, low_counts)

    def sample(self, g: Game, hands: list[np.ndarray], board: np.ndarray,
               live: np.ndarray, need: int, samples: int, state: np.ndarray,
               hi_full: np.ndarray, low_counts: np.ndarray) -> int:
        from ..kernels import walks
        return walks.omaha_sample(np.stack(hands), board, live, need, samples, state, g.hilo,
                                  *omaha_tables(), hi_full, low_counts)

    def exact_spots(self, g: Game, holes: np.ndarray, boards: np.ndarray, deads: np.ndarray,
                    need: int, hi_full: np.ndarray, counted: np.ndarray) -> bool:
        if g.hilo:
            return False
        from ..kernels import multisets
        multisets.omaha_exact_spots(holes, boards, deads, spot_multisets(need),
                                    *omaha_tables(), hi_full, counted)
        return True

    def exact_batch(self, g: Game, holes: np.ndarray, board: np.ndarray, dead: np.ndarray,
                    need: int, hi_full: np.ndarray, joint: np.ndarray,
                    boards: np.ndarray) -> None:
        from ..kernels import multisets
        multisets.omaha_exact_batch(holes, board, dead, rank_multisets(need), g.hilo,
                                    *omaha_tables(), hi_full, joint, boards)

    def one_hand_values(self, g: Game, hole: np.ndarray, boards: np.ndarray,
                        out: np.ndarray) -> bool:
        if hole.ndim != 1 or boards.shape[1] != 5:
            return False
        # one hand on every board: its values are kept per board rank row
        from ..kernels.omaha import omaha_hole_values
        omaha_hole_values(np.ascontiguousarray(hole), boards, out, *omaha_tables()[:5])
        return True
