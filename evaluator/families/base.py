"""What every game family answers (``Family``), with the defaults most of them share.

Kernels load on first use (they import Numba): a family's methods import them inside.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import _tables
from ..games import Game

__all__ = ["Family"]


SUBSET_HOLE = 6
"""The most hole cards the subset sweep takes (``kernels/generic_sweep.py``)."""
SUBSET_SECONDS = 10.0
"""The longest a spot may take on the subset sweep (``Family.subset_seconds`` a combo
valued, times the combos, times the runouts): past it the vectors do not take it."""


class Family:
    """How one family of games makes hands, and the kernels that follow from it."""

    name = ""
    title = ""
    #: kernel modules (``kernels/<name>.py``) its commands load: the compile guess of a
    #: batch's bar and ``warmup``'s check read them
    kernel_modules: tuple[str, ...] = ("_intrinsics", "dealing", "high")
    #: the fastest Monte Carlo rate measured for its kernels, deals a second a core: a
    #: request past ten minutes at this rate is refused at once
    sample_rate = 2e8
    #: a hand is exactly two hole cards and three board cards (high and low alike)
    two_plus_three = False
    #: a hand is its hole cards alone (no board)
    hole_only = False
    #: at the tables, a player who wins two pots in a row (hi-lo: scoops) kills the next
    kill_pots = False

    # --- what it supports ------------------------------------------------------------

    def fused(self, g: Game) -> bool:
        """Whether one kernel walks or samples its boards and evaluates every hand."""
        return False

    def multisets(self, g: Game) -> bool:
        """Whether the rank-multiset kernels enumerate its exact equity."""
        return False

    def best5_sampler(self, g: Game) -> bool:
        """Whether the best-five samplers (which also deal missing hole cards) serve it."""
        return False

    def ranged(self, g: Game) -> bool:
        """Whether the range kernels serve it: heads-up ranges on a flop or later compared
        pair by pair on every board (``kernels/ranges``), and the fused range samplers
        (``kernels/range_sampling``, which also deal unknown hole cards as ranges of their
        completions)."""
        return False

    def vector_kind(self, g: Game) -> str | None:
        """How ``evaluator.vectors`` sweeps its combos: ``"pairs"`` (the two-card sweep,
        rank pairs listed without evaluating each combo), ``"omaha"`` (four- and
        five-card Omaha's hole pairs, high and hi-lo), ``"subsets"`` (any hole size:
        every combo valued by the game's own evaluation, card removal over every subset
        of its cards; hi-lo pot shares from a high and a low sweep of each board), or None
        (more than ``SUBSET_HOLE`` cards)."""
        return None if g.hole > SUBSET_HOLE else "subsets"

    def subset_seconds(self, g: Game) -> float:
        """Seconds to value and sweep one combo on the subset sweep (measured on two
        cores: "The" and Tahoe about 0.1 us, 5-card Omaha 0.3 us)."""
        return 1e-7

    def vectors(self, g: Game, board_cards: int) -> bool:
        """Whether combo vectors (``evaluator.vectors``) cover its spots with
        ``board_cards`` known: a street of the game that the subset sweep finishes within
        ``SUBSET_SECONDS`` (its combos, times the runouts, times ``subset_seconds``)."""
        return self.vector_kind(g) is not None and self.subset_fits(g, board_cards)

    def exact_seconds(self, g: Game, board_cards: int) -> float:
        """About how long (seconds, two cores) an exact answer of two ranges takes on the
        vectors with ``board_cards`` known: ``subset_seconds`` a combo and runout (hi-lo:
        three times); infinite where it has no vectors or no such street."""
        combos = math.comb(len(g.deck), g.hole)
        if self.vector_kind(g) is None or board_cards not in g.streets:
            return math.inf
        full = max(g.streets)
        runouts = math.comb(len(g.deck) - board_cards - g.hole, full - board_cards)
        return combos * runouts * (3 if g.hilo else 1) * self.subset_seconds(g)

    def vectors_within(self, g: Game, board_cards: int, seconds: float) -> bool:
        """Whether ``combo_equity`` sweeps every combo of ``g`` with ``board_cards``
        known, given up to ``seconds``: the streets of ``vectors``, and those a family
        sweeps in minutes (Omaha's)."""
        return self.vectors(g, board_cards)

    def every_combo_seconds(self, g: Game, board_cards: int) -> float:
        """About how long (seconds, two cores) the vectors sweep every combo of ``g`` on
        each runout of a board of ``board_cards`` (``combo_equity``): the subset sweep
        reads every combo anyway, as ``exact_seconds``."""
        return self.exact_seconds(g, board_cards)

    def subset_fits(self, g: Game, board_cards: int) -> bool:
        """Whether the subset sweep takes a spot of ``g`` with ``board_cards`` known within
        ``SUBSET_SECONDS`` (a street of it; hi-lo boards take three sweeps)."""
        if g.hole > SUBSET_HOLE or board_cards not in g.streets:
            return False
        full = max(g.streets)
        runouts = math.comb(len(g.deck) - board_cards - g.hole, full - board_cards)
        work = math.comb(len(g.deck), g.hole) * runouts * (3 if g.hilo else 1)
        return work * self.subset_seconds(g) <= SUBSET_SECONDS

    def holdem_notation(self, g: Game) -> bool:
        """Whether its ranges are hold'em class notation (``QQ+,AKs``) on the 13 x 13 grid,
        ranked by the pre-flop ordering (else the pattern syntax of Omaha players)."""
        return False

    def preflop_kernels(self, g: Game) -> bool:
        """Whether the studies' one-pass kernels over every pair of combos serve it
        (hold'em on the 52-card deck)."""
        return False

    def breakdown_seconds(self, g: Game) -> float | None:
        """Seconds to classify one combo in a range breakdown; None: no breakdown."""
        return None

    def table_class(self, g: Game) -> str:
        """The name of the table engine class (``evaluator.play``) that deals ``g``."""
        return "HoldemTable"

    # --- cost model ------------------------------------------------------------------

    def class_seconds(self, g: Game, need: int, live: int) -> float:
        """Rough seconds for one exact spot, to decide between enumerating and sampling."""
        return 4e-5 + 3e-8 * math.comb(live, need)

    # --- evaluation ------------------------------------------------------------------

    def batch_kernel(self, g: Game, low: bool, width: int
                     ) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]]:
        """(kernel, leading arguments, table arguments) that give the values of rows of
        ``width`` cards (hole first); ``low`` the 8-or-better low values."""
        raise NotImplementedError

    def checked_kernel(self, g: Game, low: bool, width: int
                       ) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]] | None:
        """``batch_kernel``'s counterpart that also checks its rows as it reads them and
        returns how many groups of rows are bad (see ``vector.rows_kernel``), or None
        where the family has none: ``evaluate_batch`` then checks the rows itself."""
        return None

    def five_card_choices(self, g: Game, hole: list[int], board: list[int]
                          ) -> Iterator[list[int]]:
        """Every five-card hand the family's rule allows from ``hole`` and ``board``."""
        yield from (list(five) for five in itertools.combinations(hole + board, 5))

    # --- equity kernels: they fill count arrays and return the boards counted -------

    def exact(self, g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
              need: int, hi_full: np.ndarray, low_counts: np.ndarray) -> int:
        """Every board of ``need`` more cards from ``live`` by the rank-multiset kernels;
        -1 where they do not apply to this spot (``multisets(g)`` must hold)."""
        raise NotImplementedError

    def walk(self, g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
             need: int, first: np.ndarray, hi_full: np.ndarray,
             low_counts: np.ndarray) -> int:
        """Every board whose first new card sits at a position of ``live`` in
        ``first`` (a (start, stop) pair), by the fused kernel (``fused(g)``)."""
        raise NotImplementedError

    def sample(self, g: Game, hands: list[np.ndarray], board: np.ndarray,
               live: np.ndarray, need: int, samples: int, state: np.ndarray,
               hi_full: np.ndarray, low_counts: np.ndarray) -> int:
        """``samples`` boards drawn from ``state`` by the fused kernel of known hands."""
        return self.walk_sampled(g, hands, board, live, need, samples, state, hi_full,
                                 low_counts)

    def walk_sampled(self, g: Game, hands: list[np.ndarray], board: np.ndarray,
                     live: np.ndarray, need: int, samples: int, state: np.ndarray,
                     hi_full: np.ndarray, low_counts: np.ndarray) -> int:
        raise NotImplementedError

    def exact_batch(self, g: Game, holes: np.ndarray, board: np.ndarray, dead: np.ndarray,
                    need: int, hi_full: np.ndarray, joint: np.ndarray,
                    boards: np.ndarray) -> None:
        """Many deals at once (``holes`` (n, P, H)) by the rank-multiset kernels: each
        deal's counts in ``hi_full[k]`` (and ``joint[k]``), its boards in ``boards[k]``
        (-1 where they do not apply)."""
        raise NotImplementedError

    def exact_spots(self, g: Game, holes: np.ndarray, boards: np.ndarray, deads: np.ndarray,
                    need: int, hi_full: np.ndarray, counted: np.ndarray) -> bool:
        """Many spots of known hands at once, each with its own board and dead cards
        (``holes`` (n, P, H), ``boards`` (n, k), ``deads`` (n, d)), by the rank-multiset
        kernels in one call: a high game's counts in ``hi_full[k]``, the boards counted in
        ``counted[k]`` (-1 where the spot needs its boards walked).  False where the
        family has no such kernel (a batch then answers the spots one by one)."""
        return False

    def walk_batch(self, g: Game, holes: np.ndarray, board: np.ndarray, dead: np.ndarray,
                   need: int, hi_full: np.ndarray, boards: np.ndarray) -> bool:
        """Many deals at once by walking their boards in one call; False where the family
        has no such kernel."""
        return False

    def one_hand_values(self, g: Game, hole: np.ndarray, boards: np.ndarray,
                        out: np.ndarray) -> bool:
        """``out[k]``: the high value of one hand on each complete board ``boards[k]``,
        by a faster path than row by row; False where the family has none."""
        return False

    def high_tables(self, g: Game) -> _tables.HighTables:
        return _tables.high(g.values)
