"""Dealing combos by weight: ``RangeSampler`` and what it needs.

A deal gives each ranged player one combo, with probability proportional to the product of
the weights among the tuples without a shared card (a draw that collides is dealt again),
then the new cards from the rest.  ``RangeSampler.whole`` draws from whole ranges as they
were built, prepared once for every query that asks them (a study's 1,755 flops), and
leaves the combos that hold a board or dead card to the redeal: the same law as drawing from
the live combos, without listing them again on every board.
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict

import numpy as np

from ..errors import NoDeal, RangeError
from ..ranges import Range, card_masks

__all__ = ["RangeSampler", "check_dealable", "collision_bound", "combo_tuples", "row_starts",
           "WHOLE_COMBOS", "forget_prepared", "draw_arrays", "card_shares_of", "share_bound"]

WHOLE_COMBOS = 20_000
"""Combos (all ranges together) from which ``RangeSampler.whole`` is worth it: listing the
live ones takes about 20 ms a query at 1.3 million (5-card Omaha 10% against 40%)."""


class RangeSampler:
    """Deals one combo per ranged player, with probability proportional to the product of
    the weights among the tuples without a shared card, then the new cards from the rest.

    Redealing when two combos collide is exact in law and fast while most draws fit.  A
    pilot run measures how often they fit (on a stream of its own, so answers stay the same
    for any thread count); when redeals would dominate, every compatible tuple is listed
    once and a tuple is dealt by its exact weight, whatever the weights are.  Ranges that
    fit too rarely and have too many tuples to list are refused at once.
    """

    PILOT = 256                     # deals of the pilot run
    FAST_ENOUGH = 0.125             # fraction of draws that fit, above which redeals stay
    SLOWEST = 1e-4                  # below this, redealing is refused (10,000 draws a deal)
    PILOT_TRIES = int(PILOT / SLOWEST)   # redeals the pilot may spend (0.1 s at most)
    TUPLE_LIMIT = 2_000_000         # compatible tuples listed at most

    def __init__(self, rows, weights, taken: int, names, seed: int, masks=None) -> None:
        self.players = len(rows)
        self.hole = rows[0].shape[1] if rows else 0
        self.taken = np.uint64(taken)
        self.tuples = False
        self.fit = 1.0
        if masks is None:
            masks = [card_masks(r) for r in rows]
        if rows:
            check_dealable(np.concatenate(masks), row_starts(rows), taken, names)
        self._set(rows, weights, masks)
        if self.players < 2:
            return
        bound = collision_bound(rows, weights)
        if bound <= 1 - self.FAST_ENOUGH:
            self.fit = 1 - bound          # most draws surely fit: no pilot needed
            return
        self.fit = fit = self._pilot(seed)
        if fit >= self.FAST_ENOUGH:
            return
        tuples, tuple_weights, _ = combo_tuples(rows, weights, masks, self.TUPLE_LIMIT)
        if tuples is not None:
            if not len(tuples):
                raise NoDeal("no deal fits the ranges: every combination of them shares a "
                              "card", ", ".join(names))
            self.tuples = True
            self._set([tuples], [tuple_weights], [card_masks(tuples)])
            return
        if fit < self.SLOWEST:
            raise RangeError(f"the ranges fit together too rarely to sample (about one draw in "
                             f"{1 / max(fit, 1e-12):,.0f}) and have too many compatible combo "
                             f"tuples to list (over {self.TUPLE_LIMIT:,}): narrow them",
                             ", ".join(names))

    @classmethod
    def whole(cls, ranges: list[Range], taken: int, seed: int) -> RangeSampler | None:
        """A sampler that draws from ``ranges`` whole (``taken``, the board and dead cards,
        left to the redeal), from arrays prepared once for these ranges; None where its
        draws would fit too rarely (the caller then lists the live combos, as ``__init__``
        takes them).  Each range must have a combo clear of ``taken`` (the caller checks
        it, naming the hand)."""
        whole = _prepared(ranges)
        self = cls.__new__(cls)
        self.players, self.hole = len(ranges), whole.combos.shape[1]
        self.taken, self.tuples, self.width = np.uint64(taken), False, whole.combos.shape[1]
        self.combos, self.starts, self.masks = whole.combos, whole.starts, whole.masks
        self.cumulative, self.uniform = whole.cumulative, whole.uniform
        bound = share_bound(whole.shares, taken)
        if bound <= 1 - cls.FAST_ENOUGH:
            self.fit = 1 - bound
            return self
        self.fit = self._pilot(seed)
        return self if self.fit >= cls.FAST_ENOUGH else None

    def _pilot(self, seed: int) -> float:
        """The fraction of draws that fit, measured on a stream of its own (0.0 where the
        pilot ran out of redeals)."""
        from ..kernels import ranges as range_kernels
        pilot = np.random.SeedSequence([seed, 1 << 40]).generate_state(2, np.uint64)
        holes = np.empty((self.players, self.PILOT, self.hole), np.uint8)
        new = np.empty((self.PILOT, 0), np.uint8)
        state = pilot.copy()
        done = range_kernels.sample_range_deals(self.combos, self.starts, self.cumulative,
                                                self.uniform, self.masks, self.taken,
                                                self.PILOT_TRIES, state, holes, new)
        # the kernel returns the redeals it made, or -1 past its budget
        return self.PILOT / (self.PILOT + done) if done >= 0 else 0.0

    def _set(self, rows, weights, masks) -> None:
        self.combos, self.starts, self.cumulative, self.uniform, self.masks = \
            draw_arrays(rows, weights, masks)
        self.width = self.combos.shape[1]

    def max_tries(self, size: int) -> int:
        """Redeals a chunk of ``size`` deals may take: far above what the pilot allows."""
        return 0 if self.tuples else int(size * 50 / max(self.fit, self.SLOWEST)) + 100_000

    def check(self, done: int) -> None:
        if done < 0:
            raise RangeError("the ranges fit together too rarely to sample: a chunk of deals "
                             "ran out of redeals; narrow them or ask for exact=True")

    def deal(self, size: int, new_cards: int, state) -> tuple[np.ndarray, np.ndarray]:
        """``size`` deals: the combos, uint8 (players, size, hole), and the new cards from
        the rest, uint8 (size, new_cards)."""
        from ..kernels import ranges as range_kernels
        new = np.empty((size, new_cards), np.uint8)
        if self.tuples:
            flat = np.empty((1, size, self.width), np.uint8)
            done = range_kernels.sample_range_deals(self.combos, self.starts, self.cumulative,
                                              self.uniform, self.masks, self.taken, 1, state,
                                              flat, new)
            self.check(done)
            return np.ascontiguousarray(
                flat[0].reshape(size, self.players, self.hole).transpose(1, 0, 2)), new
        holes = np.empty((self.players, size, self.hole), np.uint8)
        done = range_kernels.sample_range_deals(self.combos, self.starts, self.cumulative,
                                          self.uniform, self.masks, self.taken,
                                          self.max_tries(size), state, holes, new)
        self.check(done)
        return holes, new


def draw_arrays(rows, weights, masks) -> tuple[np.ndarray, ...]:
    """What the sampling kernels read of the players' ``rows``: the combos one after
    another, where each player's start, their running weights, whether each player's
    weights are all equal, and their masks."""
    combos = np.ascontiguousarray(np.concatenate(rows)) if rows else \
        np.empty((0, 1), np.uint8)
    cumulative = np.concatenate([np.cumsum(w) for w in weights]) if rows else np.empty(0)
    uniform = np.array([bool(np.all(w == w[0])) for w in weights], np.bool_)
    return (combos, row_starts(rows), cumulative, uniform,
            np.concatenate(masks) if rows else np.empty(0, np.uint64))


def card_shares_of(rows, weights) -> np.ndarray:
    """(players, 64): the share of each player's weight on combos holding each card."""
    from ..kernels.ranges import card_shares
    shares = np.zeros((len(rows), 64))
    for p, (combos, w) in enumerate(zip(rows, weights)):
        card_shares(combos, w, shares[p])
    return shares


def share_bound(shares: np.ndarray, taken: int = 0) -> float:
    """An upper bound on the chance that a draw of one combo per player, each by weight,
    puts a card of ``taken`` in a hand or one card in two hands: the chances that a hand
    holds each taken card, and over pairs of players and cards that both hold the card."""
    out = [c for c in range(64) if taken >> c & 1]
    return float(shares[:, out].sum()) + sum(
        float(shares[p] @ shares[q]) for p in range(len(shares))
        for q in range(p + 1, len(shares)))


def collision_bound(rows, weights) -> float:
    """``share_bound`` of the players' rows, none taken."""
    return share_bound(card_shares_of(rows, weights))


def row_starts(rows) -> np.ndarray:
    """int64 (len(rows) + 1,): where each player's combos start in the concatenated rows."""
    starts = np.zeros(len(rows) + 1, np.int64)
    starts[1:] = np.cumsum([len(r) for r in rows])
    return starts



PAIRS_PER_STEP = 1 << 22        # combo pairs compared at once (32 MB of masks)


def _compatible(mask: np.ndarray, other: np.ndarray, limit: int | None):
    """(a, b): every pair of a row of ``mask`` and a row of ``other`` without a shared
    card, in row-major order; None as soon as there are more than ``limit``.  Compared a
    block of rows at a time, so that memory stays bounded however wide the ranges."""
    step = max(1, PAIRS_PER_STEP // max(len(other), 1))
    firsts, seconds, count = [], [], 0
    for start in range(0, len(mask), step):
        a, b = np.nonzero((mask[start:start + step, None] & other[None, :]) == 0)
        count += len(a)
        if limit is not None and count > limit:
            return None
        firsts.append(a + start)
        seconds.append(b)
    if not firsts:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    return np.concatenate(firsts), np.concatenate(seconds)


def combo_tuples(rows, weights, masks, limit):
    """Every tuple of one combo per player with no card shared, and its weight.

    Returns (uint8 (n, players * hole), float64 (n,), scale): the weights are the products of
    the players' weights divided by ``scale`` (1, unless the products would underflow); or
    (None, None, 1.0) when there are more than ``limit`` tuples.
    """
    index = np.arange(len(rows[0]))[:, None]
    mask = masks[0].copy()
    # products of weights can underflow (three players at 1e-200 each): past that risk
    # they are multiplied as logarithms and scaled so that the largest is 1
    smallest = math.prod(float(w.min()) for w in weights)
    logs = not smallest > 1e-250
    weight = np.log(weights[0]) if logs else weights[0].copy()
    for p in range(1, len(rows)):
        pairs = _compatible(mask, masks[p], limit)
        if pairs is None:
            return None, None, 1.0
        a, b = pairs
        index = np.concatenate([index[a], b[:, None]], axis=1)
        mask = mask[a] | masks[p][b]
        weight = weight[a] + np.log(weights[p][b]) if logs else weight[a] * weights[p][b]
    shift = 1.0
    if logs and len(weight):
        top = float(weight.max())
        weight = np.exp(weight - top)
        shift = math.exp(top)          # 0.0 where even the largest product underflows
    tuples = np.concatenate([rows[p][index[:, p]] for p in range(len(rows))], axis=1)
    return tuples, weight, shift


def check_dealable(combo_masks, starts, taken, names, budget: int = 100_000) -> None:
    """Refuse ranges that can never be dealt together (sampling would never end).

    A depth-first search for one tuple of combos without a shared card (the last
    player's combos read at once, as an array); it gives up (and trusts the ranges) after ``budget``
    steps, which only very wide ranges need, and those always fit.
    """
    players = len(starts) - 1
    masks = []
    for p in range(players):
        part = combo_masks[starts[p]:starts[p + 1]]
        live = part[(part & np.uint64(taken)) == 0]
        if not len(live):
            raise NoDeal(f"the range of hand {p + 1} ({names[p]!r}) has no live combos",
                          names[p])
        masks.append(live)
    steps = 0

    def search(p: int, used: int) -> bool:
        # wide ranges fit at once, so their masks are read one by one, not listed
        nonlocal steps
        if p == players:
            return True
        if p == players - 1:                     # the last hand: one look at them all
            steps += 1
            return bool(((masks[p] & np.uint64(used)) == 0).any())
        for m in masks[p]:
            steps += 1
            if steps > budget:
                return True
            m = int(m)
            if not m & used and search(p + 1, used | m):
                return True
        return False

    if not search(0, int(taken)):
        raise NoDeal("no deal fits the ranges: every combination of them shares a card",
                      ", ".join(names))


class _Prepared:
    """Whole ranges as ``RangeSampler`` draws from them: their combos, masks and running
    weights (each scaled so that its largest is 1) one after another, and each range's
    weight share holding each card (players, 64)."""

    def __init__(self, ranges: list[Range]) -> None:
        self.ranges = list(ranges)                 # kept: the key's ids stay theirs
        rows = [r.combos for r in ranges]
        weights = [r.weights / float(r.weights.max()) for r in ranges]
        self.combos, self.starts, self.cumulative, self.uniform, self.masks = \
            draw_arrays(rows, weights, [r.masks() for r in ranges])
        self.shares = card_shares_of(rows, weights)
        # shared by every thread that samples from them, and never written: left writable
        # all the same, since a read-only array is another type to the kernels (another
        # compile of the sampler, which the warmup does not make)


PREPARED_KEPT = 2
"""Sets of ranges whose prepared arrays stay (a study asks one set on every flop)."""
_prepared_sets: OrderedDict[tuple[int, ...], _Prepared] = OrderedDict()
_prepared_lock = threading.Lock()


def _prepared(ranges: list[Range]) -> _Prepared:
    """The prepared arrays of ``ranges``, made once while they are among the last
    ``PREPARED_KEPT`` sets asked (ranges are read-only, so queries on threads share them)."""
    key = tuple(id(r) for r in ranges)
    with _prepared_lock:                 # made under the lock: threads asking the same
        hit = _prepared_sets.get(key)    # ranges at once wait for one copy, not make one each
        if hit is not None:
            _prepared_sets.move_to_end(key)
            return hit
        made = _Prepared(ranges)
        _prepared_sets[key] = made
        while len(_prepared_sets) > PREPARED_KEPT:
            _prepared_sets.popitem(last=False)
    return made


def forget_prepared() -> None:
    """Drop every set of prepared arrays (their memory; the next query makes them again)."""
    with _prepared_lock:
        _prepared_sets.clear()

