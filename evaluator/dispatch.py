"""Which kernel and which tables compute a game's values: the one place that dispatches
on a game's rule.

``batch_kernel`` serves ``evaluate_batch`` and the equity engine alike; the table bundles
(``omaha_tables``) are what the Omaha equity kernels take, in their order.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import _tables
from .games import Game, Rule

__all__ = ["batch_kernel", "omaha_tables", "OmahaTables", "OMAHA_DIRECT", "OMAHA_EQUITY"]

OMAHA_DIRECT = ("card_keys", "rank_offsets5", "omaha_board_index", "omaha_pairs",
                "omaha_flush", "omaha_hole_offsets", "omaha_hole_index")


def batch_kernel(g: Game, low: bool, width: int
                 ) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]]:
    """(kernel, leading arguments, table arguments) computing ``g``'s values; the kernel
    is a Numba dispatcher, typed ``Any``."""
    # the kernels import Numba: loaded on first use
    from .kernels import high, omaha, teen_patti, vector
    from .kernels.markers import ndim_marker
    if low:
        return omaha.low_rows, (ndim_marker(g.hole),), (_tables.load("low_card_bits"),
                                                              _tables.load("omaha_low"))
    if g.rule is Rule.BEST5:
        if g.values != "standard":
            tables = _tables.high(g.values)
        else:
            tables = _tables.high5() if width == 5 else _tables.high()
        return vector.rows_kernel(width, tuple(tables))
    if g.rule is Rule.OMAHA and width == g.hole + 5:
        # the (board, hole) table serves four hole cards; five and six read hole pairs
        direct = _tables.omaha_direct() if g.hole == 4 else np.zeros((1, 1), np.uint16)
        return (omaha.high_rows_direct, (ndim_marker(g.hole),),
                (*(_tables.load(name) for name in OMAHA_DIRECT), direct))
    if g.rule is Rule.OMAHA:
        return omaha.high_rows, (g.hole,), tuple(_tables.high())
    if g.rule is Rule.TAHOE:
        return high.tahoe_rows, (), tuple(_tables.high())
    row = 0 if g.option("a23") == "highest" else 1
    return teen_patti.evaluate_rows, (), (_tables.load("teen_patti")[row],)

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
