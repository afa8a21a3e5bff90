"""The best five of hole and board cards: hold'em, short deck, Pineapple, Crazy Pineapple
and "The".

Rows evaluate on the vector path (``kernels/vector.py``, AVX-512 or AVX2 where the CPU
has it); exact equity of known hands is rank-multiset enumeration (``kernels/multisets``)
or a fused walk of the boards (``kernels/walks``); sampling deals blocks of boards
(``kernels/sampling``), and ranges have kernels of their own (``kernels/ranges``, the fused
samplers in ``kernels/range_sampling``, three ranges on a flop or later in
``kernels/three_way``).  Two hole cards on a flop or later have combo vectors
(``kernels/sweep``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _tables
from ..games import Game, Pot
from ._shared import FusedBest5, multiset_tables, rank_multisets, spot_multisets

__all__ = ["Best5", "HOLDEM_MODULES"]

# every kernel module these games compile (``warmup.warmed`` and the batch's "compiling"
# label ask Numba's cache about each); ``vector`` is not among them: its kernel compiles
# only where the CPU has a vector path
HOLDEM_MODULES = ("_intrinsics", "dealing", "high", "multisets", "ranges", "range_sampling",
                  "three_way", "sampling", "walks", "sweep", "showdown", "flop_sweep",
                  "generic_sweep")


class Best5(FusedBest5):
    name = "best5"
    title = "the best five of hole and board cards"
    kernel_modules = HOLDEM_MODULES
    sample_rate = 2e8

    def fused(self, g: Game) -> bool:
        # at most seven cards to a hand, one pot: the fused kernels' tables
        return g.pot is Pot.HIGH and g.hole + g.streets[-1] <= 7

    def multisets(self, g: Game) -> bool:
        return self.fused(g)

    def best5_sampler(self, g: Game) -> bool:
        return self.fused(g)

    def ranged(self, g: Game) -> bool:
        return self.fused(g)

    def vector_kind(self, g: Game) -> str | None:
        if g.hole == 2 and not g.hilo:
            return "pairs"                # hold'em, the short deck, Pineapple's kept hands
        return super().vector_kind(g)

    def vectors(self, g: Game, board_cards: int) -> bool:
        if self.vector_kind(g) == "pairs":
            return board_cards >= 3
        return super().vectors(g, board_cards)

    def holdem_notation(self, g: Game) -> bool:
        return g.hole == 2

    def preflop_kernels(self, g: Game) -> bool:
        return g.hole == 2 and not g.hilo and not g.lowest_rank

    def breakdown_seconds(self, g: Game) -> float | None:
        return 5e-5 if g.hole == 2 else 3e-5

    def table_class(self, g: Game) -> str:
        # "The" turns its four board cards one at a time, between four betting rounds
        return "TheTable" if g.streets[-1] == 4 else "HoldemTable"

    def class_seconds(self, g: Game, need: int, live: int) -> float:
        if need and self.fused(g):
            return 4e-5 + 2.5e-7 * len(rank_multisets(need))
        return super().class_seconds(g, need, live)

    def batch_kernel(self, g: Game, low: bool, width: int
                     ) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]]:
        from ..kernels import vector
        if g.values != "standard":
            tables = _tables.high(g.values)
        else:
            tables = _tables.high5() if width == 5 else _tables.high()
        return vector.rows_kernel(width, tuple(tables))

    def checked_kernel(self, g: Game, low: bool, width: int
                       ) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]] | None:
        from ..kernels import vector
        if vector.path() == "scalar" or g.values != "standard" or not 5 <= width <= 7:
            return None
        tables = _tables.high5() if width == 5 else _tables.high()
        return vector.rows_kernel(width, tuple(tables), checked=True)

    def exact(self, g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
              need: int, hi_full: np.ndarray, low_counts: np.ndarray) -> int:
        from ..kernels import multisets
        return multisets.best5_exact(np.array(hands), board, live, rank_multisets(need),
                                     *_tables.high(g.values), hi_full, multiset_tables())

    def exact_spots(self, g: Game, holes: np.ndarray, boards: np.ndarray, deads: np.ndarray,
                    need: int, hi_full: np.ndarray, counted: np.ndarray) -> bool:
        from ..kernels import multisets
        multisets.best5_exact_spots(holes, boards, deads, spot_multisets(need),
                                    *_tables.high(g.values), hi_full, counted)
        return True

    def exact_batch(self, g: Game, holes: np.ndarray, board: np.ndarray, dead: np.ndarray,
                    need: int, hi_full: np.ndarray, joint: np.ndarray,
                    boards: np.ndarray) -> None:
        from ..kernels import multisets
        multisets.best5_exact_batch(holes, board, dead, rank_multisets(need),
                                    *_tables.high(g.values), hi_full, boards)
