"""What a sampled flop study weighs each flop by: the weighted deals of two hands or
ranges there (pairs of combos sharing no card with each other, the flop or a dead card,
times the turn and river), counted without dealing them.  Narrow ranges are weighed as
a matrix of every pair; wide ones by card removal over each combo's card subsets
(``subset_vectors.deal_tables``), never listing their pairs."""
from __future__ import annotations

import math

import numpy as np

from ..errors import EvaluatorError
from ..games import Game
from ..listing import card_masks
from ..ranges import Range

__all__ = ["deal_weights", "check_weighable", "has_vectors", "swept_weights"]


WEIGH_SECONDS = 2.5e-9
"""Seconds (two cores) weighing the flops' deals takes for each combo of both ranges,
subset of its cards and card of the deck (``subset_vectors.deal_tables``: 5-card Omaha's
10% against 40% about 5 s, 6-card Omaha's 85 s)."""
WEIGHED_PAIRS = 20_000_000
"""Combo pairs a sampled study weighs where the game has no combo order over the 52-card
deck (the short deck, whose ranges never reach it); elsewhere wide ranges are weighed by
card removal, within the study's time."""


def check_weighable(g: Game, ranges: list[Range | None], texts: list[str],
                    study_seconds: float) -> None:
    """Refuse, before any work, a sampled study whose two listed ranges are too wide to
    weigh flop by flop (a 'random' hand is counted, so it never is)."""
    if len(ranges) != 2:
        raise EvaluatorError("a sampled flop study takes two hands or ranges (exact rows "
                             "take any number)", len(ranges))
    if ranges[0] is not None and ranges[1] is not None:
        pairs = len(ranges[0]) * len(ranges[1])
        seconds = WEIGH_SECONDS * (len(ranges[0]) + len(ranges[1])) * 2 ** g.hole * 52
        if pairs > DENSE_PAIRS and has_vectors(g) and seconds > study_seconds:
            raise EvaluatorError(
                f"weighing each flop's deals of {texts[0]!r} ({len(ranges[0]):,} combos) "
                f"against {texts[1]!r} ({len(ranges[1]):,}) would take about "
                f"{_about(seconds)}; narrow one of them, or study one against "
                "'random' (counted, not listed)", pairs)
        if pairs > WEIGHED_PAIRS and not has_vectors(g):
            raise EvaluatorError(
                f"a sampled flop study of {texts[0]!r} ({len(ranges[0]):,} combos) against "
                f"{texts[1]!r} ({len(ranges[1]):,}) is too wide to weigh: "
                f"{pairs:,} combo pairs, at most {WEIGHED_PAIRS:,}; narrow one of them, or "
                "study one against 'random' (counted, not listed)", pairs)


def _about(seconds: float) -> str:
    return f"{seconds:,.0f} s" if seconds < 120 else f"{seconds / 60:,.0f} minutes"


def deal_weights(g: Game, ranges: list[Range | None], flops: list[tuple[int, ...]],
                 used: np.ndarray, threads: int | None = None) -> list[float]:
    """For Monte Carlo rows: the weighted number of deals of two hands on each flop (pairs
    of combos sharing no card with each other, the flop or a dead card, times the turn
    and river).  A ``random`` hand (None) is counted, not listed: every combo of the cards
    left."""
    blocked = np.uint64(sum(1 << int(c) for c in used))
    left = len(g.deck) - len(used) - 3
    rest = math.comb(left - 2 * g.hole, max(g.streets) - 3)
    if ranges[0] is None and ranges[1] is None:
        both = math.comb(left, g.hole) * math.comb(left - g.hole, g.hole)
        return [float(both * rest)] * len(flops)
    if ranges[0] is None or ranges[1] is None:
        known = ranges[1] if ranges[0] is None else ranges[0]
        assert known is not None
        mine = card_masks(known.combos)
        alive = (mine & blocked) == 0
        others = math.comb(left - g.hole, g.hole)
        return [float(known.weights[alive & ((mine & np.uint64(sum(1 << c for c in flop)))
                                             == 0)].sum()) * others * rest for flop in flops]
    if len(ranges[0]) * len(ranges[1]) > DENSE_PAIRS and has_vectors(g):
        return swept_weights(g, ranges[0], ranges[1], flops, blocked, rest, threads)
    a, b = (card_masks(r.combos) for r in ranges if r is not None)
    wa, wb = ranges[0].weights, ranges[1].weights
    pair = (wa[:, None] * wb[None, :]) * (((a[:, None] & b[None, :]) == 0)
                                        & ((a[:, None] & blocked) == 0)
                                        & ((b[None, :] & blocked) == 0))
    out = []
    for flop in flops:
        mask = np.uint64(sum(1 << c for c in flop))
        out.append(float(((a & mask) == 0) @ pair @ ((b & mask) == 0)) * rest)
    return out


DENSE_PAIRS = 1_000_000
"""Combo pairs weighed as a matrix; wider ranges are weighed by card removal (each combo's
clear weight by inclusion-exclusion over its cards' subsets), never listing their pairs."""


def has_vectors(g: Game) -> bool:
    from ..combo_order import MAX_COMBOS
    return math.comb(len(g.deck), g.hole) <= MAX_COMBOS


def swept_weights(g: Game, first: Range, second: Range, flops: list[tuple[int, ...]],
                  blocked: np.uint64, rest: int, threads: int | None = None) -> list[float]:
    """``deal_weights`` of two wide ranges: the deals of every flop by inclusion-exclusion
    over its cards, from the deals holding each card, pair and three of cards
    (``subset_vectors.deal_tables``: one pass over the combos for all the flops).
    Exact for weights that are whole multiples of one power of two."""
    from ..subset_vectors import deal_tables
    tables = deal_tables(g, first.vector(), second.vector(), int(blocked), 3, threads)
    return [tables.clear(np.array(flop)) * rest for flop in flops]
