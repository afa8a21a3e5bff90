"""Exact equity of games without a board (Teen Patti) where two players are ranges.

Listing every deal of two unknown three-card hands is 279,676,320 deals; the tuple path
would list them one by one.  Here every hand is valued once, and each combo of one range
meets the whole of the other in a branch-free loop (``kernels.teen_patti.weigh_against``)
that sums, by weight, the opposing combos without a shared card above, level with and
below the best hand on its side.  The known hands' best value and how many hold it
decide the rest, so every player's counts (``hi_full``) follow by arithmetic: exact
integers where the weights allow, in the same order on any number of threads.
"""
from __future__ import annotations

import math

import numpy as np

from .._parallel import even_spans, map_items
from ..errors import NoDeal, RangeError
from ..families import family
from ..games import Game
from ..listing import card_masks
from .results import Counts, EquityResult, make_result

__all__ = ["hole_showdown", "integer_weights", "showdown_applies"]

#: pairs of combos one kernel call compares (about 20 ms: Ctrl-C stops within one)
PAIRS_PER_CALL = 20_000_000


def showdown_applies(g: Game, rows: list, need: int) -> bool:
    """Whether ``hole_showdown`` answers: a game of hole cards alone, no card to come,
    and exactly two players holding more than one combo (the others are known hands)."""
    if need or not family(g).hole_only or any(r is None for r in rows):
        return False
    return sum(len(r) > 1 for r in rows) == 2


def hole_showdown(g: Game, names: list[str], rows: list[np.ndarray],
                  weights: list[np.ndarray], board_ids: np.ndarray, dead_ids: np.ndarray,
                  weight_scale: float, threads: int) -> EquityResult:
    """Every deal of the two ranges (each combo pair without a shared card, by the
    product of their weights) against the known hands, counted exactly."""
    players = len(rows)
    a, b = (p for p in range(players) if len(rows[p]) > 1)
    known = [p for p in range(players) if p not in (a, b)]
    values = [_values(g, r) for r in rows]
    known_mask = np.uint64(0)
    for p in known:
        known_mask |= card_masks(rows[p])[0]
    top = max((int(values[p][0]) for p in known), default=-1)
    on_top = [p for p in known if int(values[p][0]) == top]    # the best known hands
    tied = len(on_top)
    sides = []
    for p in (a, b):
        masks = card_masks(rows[p])
        keep = (masks & known_mask) == 0
        if not keep.any():
            raise NoDeal(f"the range of hand {p + 1} ({names[p]!r}) has no live combos "
                          "beside the known hands", names[p])
        sides.append((masks[keep], values[p][keep], weights[p][keep]))
    (a_masks, a_values, a_weights), (b_masks, b_values, b_weights) = sides
    ints, scale = integer_weights([a_weights, b_weights], len(a_masks) * len(b_masks))
    if scale:
        a_weights, b_weights = ints
    # integer weights summed as int64 (exact in any order: on vector registers, about 7x
    # the float sums on a Zen 4), other weights as float64 in order (kept scalar)
    kind = np.int64 if scale else np.float64
    out = np.zeros((len(a_masks), 3), kind)
    b_sums = b_weights.astype(kind)
    from ..kernels import teen_patti

    def run(span: tuple[int, int]) -> None:
        lo, hi = span
        teen_patti.weigh_against(a_masks[lo:hi], a_values[lo:hi], b_masks, b_values,
                                 b_sums, top, out[lo:hi])
    calls = max(1, len(a_masks) * len(b_masks) // PAIRS_PER_CALL)
    map_items(run, even_spans(len(a_masks), calls), threads)

    by_weight = out * a_weights[:, None]          # (above, equal, below) deals of each combo
    above, equal, below = by_weight[:, 0], by_weight[:, 1], by_weight[:, 2]
    level = np.maximum(a_values, top)
    a_top = a_values == level                     # the first range holds the best hand
    known_top = level == top                      # the known hands hold it
    beside = tied * known_top + a_top             # how many hold it, the second range aside
    weighted = scale != 1
    counts = Counts(players, weighted=weighted)
    full = counts.hi_full
    full[b, 1] += above.sum()
    for n in range(1, players + 1):           # how many share the pot
        level_here = beside == n - 1
        full[b, n] += equal[level_here].sum()     # the second range ties the n - 1 on top
        full[a, n] += equal[level_here & a_top].sum()
        alone = beside == n                       # the second range is below the n on top
        full[a, n] += below[alone & a_top].sum()
        for p in on_top:
            full[p, n] += (equal[level_here & known_top].sum()
                           + below[alone & known_top].sum())
    total = by_weight.sum().item()
    if not total:
        ones = np.zeros((len(a_masks), 3))
        teen_patti.weigh_against(a_masks, a_values, b_masks, b_values,
                                 np.ones(len(b_masks)), top, ones)
        if ones.any():
            raise RangeError("the weights are too far apart to be represented: every pair of "
                             "combos that fits weighs less than 1e-308 of the largest",
                             ", ".join(names))
        raise NoDeal("no deal fits the ranges: every combination of them shares a card",
                      ", ".join(names))
    if weighted and scale:                        # integer multiples of 1/scale each
        counts.hi_full = full / float(scale) ** 2
        total = total / float(scale) ** 2
    counts.boards = total
    deals = f"{int(total):,} deals" if not weighted else "every deal, weighted"
    method = (f"exact enumeration of {deals} ({len(a_masks):,} x {len(b_masks):,} combos "
              "of the two ranges, compared in one sweep)")
    return make_result(g, names, board_ids, dead_ids, counts, True, method, None,
                       weight_scale=weight_scale)


def integer_weights(weights: list[np.ndarray], pairs: int) -> tuple[list[np.ndarray], int]:
    """Weights as int64 multiples of 1/scale when exact and safe from overflow, else ([], 0)."""
    for bits in range(11):
        scale = 1 << bits
        scaled = [w * scale for w in weights]
        if all(np.array_equal(x, np.rint(x)) for x in scaled):
            top = math.prod(float(x.max()) for x in scaled)
            if top * pairs < 2.0 ** 62:
                return [np.rint(x).astype(np.int64) for x in scaled], scale
            break
    return [], 0


def _values(g: Game, rows: np.ndarray) -> np.ndarray:
    """The value of every combo (int32, bigger is better) by the family's batch kernel."""
    kernel, lead, tables = family(g).batch_kernel(g, False, rows.shape[1])
    out = np.empty(len(rows), tables[0].dtype)
    kernel(np.ascontiguousarray(rows, np.uint8), *lead, out, *tables)
    return out.astype(np.int32)
