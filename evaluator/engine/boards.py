"""Ranges on the flop, turn or river, exact, walked board by board: heads-up, every pair
of combos compared on each board (``kernels.ranges.best5_range_boards``); three ranges,
every pair of the two narrower ones on each board with the widest counted against each
pair at once (``kernels.three_way``).  The few boards left make these far quicker than
listing every tuple of combos (``ranged.range_equity``'s other exact path).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from .. import _tables
from .._parallel import even_spans, map_items
from ..errors import NoDeal, RangeError
from ..games import Game
from ..progress import item_done, planned
from ..ranges import card_masks
from .plan import SPAN_SECONDS
from .results import Counts, EquityResult, make_result
from .showdown import integer_weights


def heads_up_by_boards(g: Game, names, rows, weights, board_ids, dead_ids,
                        need: int, weight_scale: float = 1.0) -> EquityResult:
    """Range against range on the flop, turn or river: walk the few boards and
    compare every pair of combos on each (``best5_range_boards``).  ``weight_scale``: the
    factor the weights were divided by (see ``make_result``)."""
    from ..kernels import ranges as range_kernels
    out_cards = set(board_ids.tolist()) | set(dead_ids.tolist())
    live = np.array([c for c in range(52) if c not in out_cards], np.uint8)
    boards = math.comb(len(live), need)
    ints, scale = integer_weights(weights, len(rows[0]) * len(rows[1]) * boards)
    if scale:
        out = np.zeros(4, np.int64)
        first_w, second_w = ints
    else:
        out = np.zeros(4, np.float64)
        first_w, second_w = weights
    range_kernels.best5_range_boards(_read_only(rows[0]), first_w, _read_only(rows[1]),
                                     second_w, board_ids, live, need, *_tables.high(g.values),
                                     out)
    if not out[3]:
        first_masks, second_masks = card_masks(rows[0]), card_masks(rows[1])
        if np.any((first_masks[:, None] & second_masks[None, :]) == 0):
            raise RangeError("the weights are too far apart to be represented: every pair of "
                             "combos that fits weighs less than 1e-308 of the largest",
                             ", ".join(names))
        raise NoDeal("no deal fits the ranges: every combination of them shares a card",
                      ", ".join(names))
    weighted = scale != 1
    counts = Counts(2, weighted=weighted)
    values = out if not weighted else out / float(scale * scale) if scale else out
    win, tie, lose, total = (v.item() for v in values)
    counts.hi_full[0, 1], counts.hi_full[0, 2] = win, tie
    counts.hi_full[1, 1], counts.hi_full[1, 2] = lose, tie
    counts.boards = total
    # the deals walked: each pair of combos without a shared card, on every board the two
    # leave (the kernel meets each board once and skips the pairs that hold one of its cards)
    per_pair = math.comb(len(live) - 2 * g.hole, need)
    if not weighted:
        pairs = int(total) // per_pair
    else:
        first_masks, second_masks = card_masks(rows[0]), card_masks(rows[1])
        pairs = int(np.count_nonzero((first_masks[:, None] & second_masks[None, :]) == 0))
    method = (f"exact enumeration of {pairs * per_pair:,} deals ({pairs:,} pairs of combos "
              f"without a shared card x {per_pair:,} board{'s' * (per_pair != 1)})"
              + (", weighted" if weighted else ""))
    return make_result(g, names, board_ids, dead_ids, counts, True, method, None,
                       weight_scale=weight_scale)


# seconds per pair of two ranges' combos on a board, and per combo listed (fitted on a
# 3.7 GHz Zen 4, one thread: QQ+,AKs against two random hands on a flop, 1,176 runouts,
# 0.32 s; three random hands on a turn 0.50 s; 20% against two random hands on a flop
# 2.6 s; 22+,A2s+ against a random hand and QQ+,AKs on a flop 0.09 s; float weights on
# the pair, 373 M pairs in 3.3 s), kept as an upper bound since the walk became 1.1x faster
THREE_WAY_PAIR_SECONDS = 9e-9
THREE_WAY_COMBO_SECONDS = 4e-8


def three_way_seconds(sizes: list[int], boards: int) -> float:
    """Rough seconds of ``three_way_by_boards`` on one thread: ``sizes`` the two ranges
    paired, then the swept one; ``boards`` the runouts."""
    first, second, third = sizes
    return boards * (first * second * THREE_WAY_PAIR_SECONDS
                     + (first + second + third) * THREE_WAY_COMBO_SECONDS)


FIXED_POINT_UNITS = 1 << 44   # the fewest units a swept weight may have in fixed point
FULL_PRECISION = math.ldexp(1.0, -1022 + 53)   # the smallest total kept to every bit


def fixed_point(weights: np.ndarray, scale: int) -> tuple[np.ndarray, float] | None:
    """A swept range's weights as int64 multiples of ``2**-k`` (with the integer ``scale``
    of ``integer_weights`` when it found one, exactly), their sum below ``2**61`` so that
    the running sums and their differences stay exact: (integers, the factor they were
    multiplied by); None when the smallest would keep fewer than ``FIXED_POINT_UNITS``
    units (weights too far apart: rounded, they would be off by more than 2**-44)."""
    if scale:
        return np.rint(weights * scale).astype(np.int64), float(scale)
    k = 61 - math.ceil(math.log2(float(weights.sum())))
    units = np.rint(np.ldexp(weights, k))
    if units.min() < FIXED_POINT_UNITS:
        return None
    return units.astype(np.int64), math.ldexp(1.0, k)


def some_deal_fits(combos: list[np.ndarray]) -> bool:
    """Whether three ranges (two-card combos) have three combos without a shared card:
    for each of the first, the second's combos that miss it, each counted against the
    third's combos that miss it by the same inclusion and exclusion as the kernel."""
    first, second, third = (card_masks(c) for c in combos)
    third_cards = combos[2].astype(np.int64)
    for a in range(len(first)):
        left = third_cards[(third & first[a]) == 0]
        b = second[(second & first[a]) == 0]
        if not len(left) or not len(b):
            continue
        per_card = np.bincount(left.ravel(), minlength=64)
        b_cards = combos[1][(second & first[a]) == 0].astype(np.int64)
        both = np.isin(b, card_masks(left))          # the third holds the second's combo
        free = len(left) - per_card[b_cards[:, 0]] - per_card[b_cards[:, 1]] + both
        if np.any(free > 0):
            return True
    return False


def three_way_by_boards(g: Game, names, rows, weights, board_ids, dead_ids, need: int,
                        weight_scale: float = 1.0, threads: int = 1,
                        budget: float | None = None) -> EquityResult | None:
    """Three ranges on the flop, turn or river, two-card hands: walk the boards, take every
    pair of two ranges' combos on each, and count the third (the widest whose weights fit
    in fixed point) against each pair at once from running sums (``kernels.three_way``).
    None when the walk would take more than ``budget`` seconds on one core, when no range's
    weights fit, or when the deals' weights add up to less than a float holds to full
    precision (the caller lists the tuples instead, which rescales them, or samples).
    ``weight_scale``: the factor the weights were divided by (see ``make_result``)."""
    from ..kernels.three_way import best5_three_way_boards
    out_cards = set(board_ids.tolist()) | set(dead_ids.tolist())
    live = [c for c in range(52) if c not in out_cards]
    listed = list(itertools.combinations(live, need))
    runouts = np.array(listed, np.uint8).reshape(len(listed), need)
    ints, scale = integer_weights(weights, math.prod(len(r) for r in rows) * len(runouts))
    # the swept range: the widest whose weights are exact integers in int64 sums
    swept = None
    for p in sorted(range(3), key=lambda p: -len(rows[p])):
        swept = fixed_point(np.asarray(weights[p], np.float64), scale)
        if swept is not None:
            break
    if swept is None:
        return None
    order = sorted((q for q in range(3) if q != p), key=lambda q: len(rows[q])) + [p]
    units, unit = swept
    # the pair's weights: integers with the swept ones when all three are, else floats
    # (fresh, writable arrays either way: one compiled kernel per weight type, warmup's)
    kind: type[np.generic] = np.int64 if scale else np.float64
    pair_weights = [ints[q] if scale else np.array(weights[q], np.float64) for q in order[:2]]
    combos = [_read_only(rows[q]) for q in order]
    seconds = three_way_seconds([len(c) for c in combos], len(runouts))
    if budget is not None and seconds > budget:
        return None
    # spans set by the spot alone (float sums then add up in the same order on any number
    # of threads), each about SPAN_SECONDS of work, so that Ctrl-C stops within one
    spans = even_spans(len(runouts), min(len(runouts), max(1, round(seconds / SPAN_SECONDS))))
    tables = _tables.high(g.values)

    def span_counts(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        hi = np.zeros((3, 4), kind)
        total = np.zeros(1, kind)
        best5_three_way_boards(combos[0], pair_weights[0], combos[1], pair_weights[1],
                               combos[2], units, board_ids, runouts[span[0]:span[1]],
                               *tables, hi, total)
        return hi, total

    hi_full = np.zeros((3, 4), kind)
    total = np.zeros(1, kind)
    planned(len(spans), "parts of the boards walked")
    for hi, part in map_items(span_counts, spans, threads, done=item_done):
        hi_full += hi
        total += part
    if not total[0]:
        # the swept sums are exact: nothing counted means no tuple fits, or products of
        # weights below the smallest float, which the listed tuples rescale
        if some_deal_fits(combos):
            return None
        raise NoDeal("no deal fits the ranges: every combination of them shares a card",
                      ", ".join(names))
    if not scale and total[0] / unit < FULL_PRECISION:
        return None                      # a subnormal deal weight: a few bits of precision
    weighted = scale != 1
    counts = Counts(3, weighted=weighted)
    divide = float(scale) ** 2 * unit if scale else unit
    for k, q in enumerate(order):
        counts.hi_full[q] = hi_full[k] / divide if weighted else hi_full[k]
    counts.boards = total[0].item() / divide if weighted else int(total[0])
    method = ("exact enumeration" + (f" of {counts.boards:,} deals" if not weighted
                                     else ", weighted,")
              + f" on {len(runouts):,} board{'s' * (len(runouts) != 1)} (every pair of two "
              "ranges' combos, the third counted against each pair at once)")
    return make_result(g, names, board_ids, dead_ids, counts, True, method, None,
                       weight_scale=weight_scale)


def _read_only(rows: np.ndarray) -> np.ndarray:
    """A C-contiguous, read-only view: Numba compiles a kernel apart for read-only and
    writable arrays, and a range's combos are either, depending on whether the board
    removed any; one kind means one compiled kernel (the one warmup made)."""
    view = np.ascontiguousarray(rows).view()
    view.flags.writeable = False
    return view
