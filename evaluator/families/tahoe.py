"""Tahoe: three hole cards, the best five using at most two of them.

A Tahoe hand is the best of its three two-card hold'em hands, so its kernels are the
best-five ones run on three sub-hands (``kernels/high.tahoe_rows``, the fused walks and
samplers with ``sub_hands = 3``).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from .. import _tables
from ..games import Game
from ._shared import FusedBest5
from .best5 import HOLDEM_MODULES

__all__ = ["Tahoe"]


class Tahoe(FusedBest5):
    name = "tahoe"
    title = "the best five using at most two of three hole cards"
    kernel_modules = HOLDEM_MODULES
    sample_rate = 1.5e8

    def fused(self, g: Game) -> bool:
        return True

    def best5_sampler(self, g: Game) -> bool:
        return True

    def class_seconds(self, g: Game, need: int, live: int) -> float:
        if need:                       # walked in one batch call: 16-45 ns a board
            return 1e-6 + 3e-8 * math.comb(live, need)
        return super().class_seconds(g, need, live)

    def breakdown_seconds(self, g: Game) -> float | None:
        return 3e-5                     # the draws read in Python

    def batch_kernel(self, g: Game, low: bool, width: int
                     ) -> tuple[Any, tuple[Any, ...], tuple[np.ndarray, ...]]:
        from ..kernels import high
        return high.tahoe_rows, (), tuple(_tables.high())

    def five_card_choices(self, g: Game, hole: list[int], board: list[int]
                          ) -> Iterator[list[int]]:
        for used in (0, 1, 2):
            for part in itertools.combinations(hole, used):
                for rest in itertools.combinations(board, 5 - used):
                    yield list(part + rest)
