"""Teen Patti: the three hole cards, by its own ranking (``kernels/teen_patti``).

No board: equity lists or samples the deals of unknown cards and evaluates them in
batches, the engine's generic path.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _tables
from ..games import Game
from .base import Family

__all__ = ["TeenPatti"]


class TeenPatti(Family):
    name = "teen_patti"
    title = "the three hole cards, by Teen Patti's ranking"
    kernel_modules = ("_intrinsics", "dealing", "high", "counting", "teen_patti",
                      "generic_sweep")
    sample_rate = 4e8
    hole_only = True

    def table_class(self, g: Game) -> str:
        return "TeenPattiTable"

    def batch_kernel(self, g: Game, low: bool, width: int
                     ) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]]:
        from ..kernels import teen_patti
        row = 0 if g.option("a23") == "highest" else 1
        return teen_patti.evaluate_rows, (), (_tables.load("teen_patti")[row],)
