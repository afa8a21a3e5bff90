"""Exact equity of games without a board (Teen Patti) where two or three players are ranges.

Listing every deal of two unknown three-card hands is 279,676,320 deals; the tuple path
would list them one by one.  Here every hand is valued once, and each combo of one range
meets the whole of the other in a branch-free loop (``kernels.teen_patti.weigh_against``)
that sums, by weight, the opposing combos without a shared card above, level with and
below the best hand on its side.  The known hands' best value and how many hold it
decide the rest, so every player's counts (``hi_full``) follow by arithmetic: exact
integers where the weights allow, in the same order on any number of threads.

Three ranges (10% against 40% against 40% is 94 billion deals): each pair of combos of the
two smaller ones meets the whole of the largest at once, by its running sums of weight by
rank less the combos holding a card of the pair (inclusion-exclusion over six cards,
``kernels.teen_patti.weigh_three``), in integers: about a second on two cores.
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

__all__ = ["hole_showdown", "integer_weights", "showdown_applies", "three_range_seconds"]

#: pairs of combos one kernel call compares (about 20 ms: Ctrl-C stops within one)
PAIRS_PER_CALL = 20_000_000
#: pairs of combos of two ranges one three-range call meets the third with (about 0.1 s)
TRIPLE_PAIRS_PER_CALL = 1_000_000
#: seconds a pair of combos of the two smaller ranges takes, two cores (a Zen 4: 10% vs
#: 40% vs 40% 1.2 s, three random hands beside a known one 22 s)
SECONDS_PER_PAIR = 6.5e-8


def showdown_applies(g: Game, rows: list, need: int) -> bool:
    """Whether ``hole_showdown`` answers: a game of hole cards alone, no card to come,
    and two or three players holding more than one combo (the others are known hands)."""
    if need or not family(g).hole_only or any(r is None for r in rows):
        return False
    return sum(len(r) > 1 for r in rows) in (2, 3)


def hole_showdown(g: Game, names: list[str], rows: list[np.ndarray],
                  weights: list[np.ndarray], board_ids: np.ndarray, dead_ids: np.ndarray,
                  weight_scale: float, threads: int,
                  budget: float = math.inf) -> EquityResult | None:
    """Every deal of the two or three ranges (each combo tuple without a shared card, by
    the product of their weights) against the known hands, counted exactly.  None where
    three ranges' weights do not sum exactly as integers (see ``_three_ranges``) or their
    sweep would take more than ``budget`` seconds (``three_range_seconds``)."""
    players = len(rows)
    spread = [p for p in range(players) if len(rows[p]) > 1]
    if len(spread) == 3:
        if three_range_seconds(rows) > budget:
            return None
        return _three_ranges(g, names, rows, weights, board_ids, dead_ids, weight_scale,
                             threads)
    a, b = spread
    known_mask, top, on_top = _known(g, rows, spread)
    tied = len(on_top)
    sides = []
    for p in (a, b):
        cards, masks, w = _live(p, rows, weights, names, known_mask)
        sides.append((masks, _values(g, cards), w))
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


def three_range_seconds(rows: list[np.ndarray]) -> float:
    """About how long (two cores) three ranges' sweep takes: each pair of combos of the two
    smaller ones meets the third at once; 0 unless three players hold ranges."""
    sizes = sorted(len(r) for r in rows if len(r) > 1)
    return sizes[0] * sizes[1] * SECONDS_PER_PAIR if len(sizes) == 3 else 0.0


def _known(g: Game, rows: list[np.ndarray], spread: list[int]
           ) -> tuple[np.uint64, int, list[int]]:
    """The known hands' cards (a mask), their best value (-1 if none) and who holds it."""
    known = [p for p in range(len(rows)) if p not in spread]
    mask = np.uint64(0)
    for p in known:
        mask |= card_masks(rows[p])[0]
    values = {p: int(_values(g, rows[p])[0]) for p in known}
    top = max(values.values(), default=-1)
    return mask, top, [p for p in known if values[p] == top]


def _live(p: int, rows: list[np.ndarray], weights: list[np.ndarray], names: list[str],
          known_mask: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Player ``p``'s combos beside the known hands: cards (each row ascending), card
    masks, weights."""
    masks = card_masks(rows[p])
    keep = (masks & known_mask) == 0
    if not keep.any():
        raise NoDeal(f"the range of hand {p + 1} ({names[p]!r}) has no live combos "
                      "beside the known hands", names[p])
    return np.sort(rows[p][keep], axis=1), masks[keep], weights[p][keep]


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


def _three_ranges(g: Game, names: list[str], rows: list[np.ndarray],
                  weights: list[np.ndarray], board_ids: np.ndarray, dead_ids: np.ndarray,
                  weight_scale: float, threads: int) -> EquityResult | None:
    """Three ranges (and any known hands): every pair of combos of the two smaller ranges
    meets the whole of the largest by running sums and inclusion-exclusion over the pair's
    six cards (``kernels.teen_patti.weigh_three``).  None where the weights do not sum
    exactly as int64 (the tuples then serve, or refuse)."""
    players = len(rows)
    spread = sorted((p for p in range(players) if len(rows[p]) > 1),
                    key=lambda p: len(rows[p]))
    known_mask, top, on_top = _known(g, rows, spread)
    sides = [_live(p, rows, weights, names, known_mask) for p in spread]
    ints, scale = integer_weights([s[2] for s in sides], math.prod(len(s[0]) for s in sides))
    if not scale:
        return None
    values = [_values(g, cards) for cards, _, _ in sides]
    levels = np.unique(np.concatenate(values + [np.array([top] if top >= 0 else [], np.int32)]))
    ranks = [np.searchsorted(levels, v).astype(np.int64) for v in values]
    top_rank = int(np.searchsorted(levels, top)) if top >= 0 else -1
    (a_cards, a_masks, _), (b_cards, b_masks, _), (c_cards, _, _) = sides
    a_weights, b_weights, c_weights = ints
    tables = _below_tables(c_cards, ranks[2], c_weights, len(levels))
    out = np.zeros((len(a_cards), 4, players + 1), np.int64)
    from ..kernels import teen_patti

    def run(span: tuple[int, int]) -> None:
        lo, hi = span
        teen_patti.weigh_three(a_cards[lo:hi], a_masks[lo:hi], ranks[0][lo:hi],
                               a_weights[lo:hi], b_cards, b_masks, ranks[1], b_weights,
                               *tables, top_rank, len(on_top), out[lo:hi])
    calls = max(1, len(a_cards) * len(b_cards) // TRIPLE_PAIRS_PER_CALL)
    map_items(run, even_spans(len(a_cards), calls), threads)

    sums = out.sum(axis=0)                        # (who, n): weight of deals
    weighted = scale != 1
    counts = Counts(players, weighted=weighted)
    full = counts.hi_full
    a, b, c = spread
    for who, seat in ((0, a), (1, b), (3, c)):
        full[seat, 1:] += sums[who, 1:]
    for p in on_top:
        full[p, 1:] += sums[2, 1:]
    total = int(sums[0, 0])
    if not total:
        raise NoDeal("no deal fits the ranges: every combination of them shares a card",
                     ", ".join(names))
    if weighted:
        counts.hi_full = full / float(scale) ** 3
    counts.boards = total / float(scale) ** 3 if weighted else total
    deals = f"{total:,} deals" if not weighted else "every deal, weighted"
    method = (f"exact enumeration of {deals} ({len(a_cards):,} x {len(b_cards):,} combos of "
              f"two ranges, each pair against the {len(c_cards):,} of the third at once)")
    return make_result(g, names, board_ids, dead_ids, counts, True, method, None,
                       weight_scale=weight_scale)


def _below_tables(cards: np.ndarray, ranks: np.ndarray, weights: np.ndarray,
                  levels: int) -> tuple[np.ndarray, ...]:
    """A range's weight below each rank: all of it, its combos holding each card, each
    pair of cards (by colex index), and each combo's weight and rank by colex index."""
    cards = cards.astype(np.int64)
    lo, mid, hi = cards[:, 0], cards[:, 1], cards[:, 2]
    at = ranks + 1
    below0 = np.zeros(levels + 1, np.int64)
    np.add.at(below0, at, weights)
    below1 = np.zeros((52, levels + 1), np.int64)
    for card in (lo, mid, hi):
        np.add.at(below1, (card, at), weights)
    below2 = np.zeros((52 * 51 // 2, levels + 1), np.int64)
    for first, second in ((lo, mid), (lo, hi), (mid, hi)):
        np.add.at(below2, (first + second * (second - 1) // 2, at), weights)
    triple = lo + mid * (mid - 1) // 2 + hi * (hi - 1) * (hi - 2) // 6
    by_combo = np.zeros(52 * 51 * 50 // 6, np.int64)
    by_rank = np.zeros(52 * 51 * 50 // 6, np.int64)
    by_combo[triple] = weights
    by_rank[triple] = ranks
    return (np.cumsum(below0), np.cumsum(below1, axis=1), np.cumsum(below2, axis=1),
            by_combo, by_rank)
