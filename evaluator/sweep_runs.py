"""How the combo vectors' sweeps run (``vectors``): the runouts in fixed chunks on
threads, an Omaha river's two halves side by side, and an Omaha sweep of many runouts on
the combos it needs only."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import _tables
from .games import Game
from .vector_weights import readonly

__all__ = ["chunked", "in_order", "kept_hands", "clear_apart", "unchecked_chunk", "KEPT_SHARE",
           "CHUNK_HANDS", "NO_EQ", "NO_TOTALS", "Track"]

Track = Callable[[int], Callable[[int], object]]
"""A sweep's progress: called with the work items planned, returns what to call as each
is done (``vectors._run``)."""

CHUNK_HANDS = 20_000_000
"""Hands times runouts at most in a work item that a kernel runs through without a
look for Ctrl-C (``runout_sweep``; a second or so on one core): 5-card Omaha 7 runouts an
item, 6-card Omaha one."""


def unchecked_chunk(chunk: int, hands: int) -> int:
    """Runouts per work item of a kernel that runs them all without a look for Ctrl-C:
    ``chunk``, or fewer, so that they hold at most ``CHUNK_HANDS`` hands times runouts."""
    return max(1, min(chunk, CHUNK_HANDS // max(hands, 1)))


NO_EQ = np.zeros(0, np.float64)        # no equities to write
NO_TOTALS = np.zeros((0, 2), np.float64)


def chunked(call: Callable[..., int], runouts: np.ndarray, chunk: int, factor: float,
             num: np.ndarray, den: np.ndarray, eq: np.ndarray, totals: np.ndarray,
             threads: int | None, track: Track | None = None) -> int:
    """``call`` over every runout: in one call, or over fixed chunks of them on
    ``threads``, summed in chunk order (the same bits on any thread count) and finished
    here.  ``track(items)``: the chunks planned, and what to call as each is done."""
    from .kernels import sweep
    if len(runouts) <= chunk:
        return call(runouts, factor, num, den, eq, totals)
    from ._parallel import resolve_threads
    spans = [(a, min(a + chunk, len(runouts))) for a in range(0, len(runouts), chunk)]

    def work(span: tuple[int, int]) -> tuple[int, np.ndarray]:
        part = np.empty(len(num))
        status = call(runouts[span[0]:span[1]], 0.0, part,
                      den if span[0] == 0 else np.empty(len(num)), NO_EQ,
                      totals[span[0]:span[1]])
        return status, part
    worst = sweep.OK

    def add(i: int, done: tuple[int, np.ndarray]) -> None:
        nonlocal worst
        worst = max(worst, done[0])
        if worst == sweep.OK:
            if i == 0:
                num[:] = done[1]
            else:
                np.add(num, done[1], out=num)
    in_order(work, spans, resolve_threads(threads, len(runouts) << 16), add,
             None if track is None else track(len(spans)))
    if worst == sweep.OK:
        sweep.finish(num, den, factor, eq)
    return worst


def in_order(work: Callable[[Any], Any], items: list, threads: int,
             add: Callable[[int, Any], None],
             done: Callable[[int], object] | None = None) -> None:
    """``add(i, work(items[i]))`` for every item in the items' order, ``work`` on
    ``threads``: each result is added as soon as those before it are, and let go, so a
    long sweep holds a few sums of every combo at a time instead of one a work item (a
    5-card Omaha flop: 37 of 21 MB; a 6-card Omaha turn: 6 of 163 MB).  ``done(i)`` as
    item ``i`` finishes (progress)."""
    from ._parallel import imap_unordered
    waiting: dict[int, Any] = {}
    following = 0
    for i, result in imap_unordered(work, items, threads):
        if done is not None:
            done(i)
        waiting[i] = result
        while following in waiting:
            add(following, waiting.pop(following))
            following += 1


KEPT_SHARE = 0.75
"""An Omaha sweep of many runouts that reads only some combos (``pick``) walks only the
combos it reads or that weigh, where they are at most this share of the game's."""


def kept_hands(g: Game, board: np.ndarray, out_bits: np.uint64, runouts: np.ndarray,
               cards: np.ndarray, bits: np.ndarray, reach: np.ndarray, close: float,
               factor: float, num: np.ndarray, den: np.ndarray, eq: np.ndarray,
               threads: int | None, pick: np.ndarray, chunk: int,
               track: Track | None = None) -> int | None:
    """``runout_sweep`` over ``runouts`` (``chunk`` a call) on the combos that weigh or
    are read only (in combo order, so the walks sum in the same order): the others would be
    listed and walked past on every runout (PLO 10% against 40%: 60% of them).  Their
    sums are 0 (``combo_sums`` reads none of them); their clear weights come from one
    pass over all of them, by running sums (a careful one among them, with weights that
    do not sum exactly, is not summed pair by pair).  None where most combos are kept
    anyway."""
    from .kernels import omaha_board, omaha_walk, sweep
    keep = np.flatnonzero((reach != 0) | (pick != 0))
    if len(keep) > KEPT_SHARE * len(reach):
        return None
    t = _tables.high(g.values)
    sub_cards, sub_bits, sub_reach = (readonly(np.ascontiguousarray(a[keep]))
                                      for a in (cards, bits, reach))
    sub_pick = np.ascontiguousarray(pick[keep])
    sub_num, sub_den = np.zeros(len(keep)), np.zeros(len(keep))

    def call(runouts: np.ndarray, f: float, part: np.ndarray, met: np.ndarray,
             e: np.ndarray, tot: np.ndarray) -> int:
        return omaha_board.runout_sweep(sub_cards, sub_bits, board, out_bits, runouts,
                                        sub_reach, f, part, met, e, close, g.hilo, sub_pick,
                                        *t)
    split = clear_apart(g, sub_cards, sub_bits, board, out_bits, runouts, sub_reach, close,
                        sub_pick, sub_num, sub_den, threads, chunk, track)
    if split is not None and not (split[0] == sweep.OK and split[1]):
        status = split[0]
        if status == sweep.OK:
            sweep.finish(sub_num, sub_den, factor, NO_EQ)
    else:
        status = chunked(call, runouts, unchecked_chunk(chunk, len(keep)), factor, sub_num,
                         sub_den, NO_EQ, NO_TOTALS,
                         threads)
    if status != sweep.OK:
        return status
    omaha_walk.clear_weights(cards, bits, out_bits, reach, den,
                             np.empty(len(cards), np.int64), 0.0)
    den *= factor                                    # as ``finish`` scales the kept ones
    den[keep] = sub_den                              # (careful ones summed pair by pair)
    num[:] = 0.0
    num[keep] = sub_num
    if len(eq):
        eq[:] = np.nan
        with np.errstate(invalid="ignore", divide="ignore"):
            eq[keep] = np.where(sub_den > 0, sub_num / sub_den, np.nan)
    return sweep.OK


def clear_apart(g: Game, cards: np.ndarray, bits: np.ndarray, board: np.ndarray,
                out_bits: np.uint64, runouts: np.ndarray, reach: np.ndarray, close: float,
                pick: np.ndarray, num: np.ndarray, met: np.ndarray, threads: int | None,
                chunk: int, track: Track | None = None) -> tuple[int, int] | None:
    """An Omaha sweep of ``runouts`` on threads, with every hand's clear weight into
    ``met`` (``clear_weights``) as a work item of its own beside the runouts' listings
    and walks (``river_num``, ``chunk`` runouts an item, summed into ``num`` in their
    order: twice the wins and the ties, hi-lo twice the pot share).  ``runout_sweep``
    does the two one after the other, and again in each item: a river's work halves on
    two threads, a turn's sums the clear weights once instead of six times.  Returns the
    clear weights' ``(status, careful hands)``, ``num`` written only where that is OK and
    none: the walks stop as soon as the weights are refused or leave careful hands (summed
    pair by pair beside the walks: the caller runs ``runout_sweep`` instead).  None where
    one thread would do, or the weights do not sum exactly (``close``: careful hands
    possible)."""
    import threading

    from ._parallel import check_interrupt, resolve_threads
    from .kernels import omaha_board, omaha_walk, sweep
    workers = resolve_threads(threads, max(len(cards), len(runouts) << 16))
    if workers < 2 or close != 0.0:
        # weights that do not sum exactly may leave careful hands, which would send the
        # walks' work to waste: their runouts go through ``runout_sweep``
        return None
    t = _tables.high(g.values)
    careful = np.empty(len(cards), np.int64)
    known = len(board)
    spans = [(a, min(a + chunk, len(runouts))) for a in range(0, len(runouts), chunk)]
    refused = threading.Event()           # the weights refused: the walks stop at once

    def work(span: tuple[int, int] | None) -> object:
        if span is None:
            got = omaha_walk.clear_weights(cards, bits, out_bits, reach, met, careful, close)
            if got[0] != sweep.OK or got[1]:
                refused.set()
            return got
        part = np.zeros(len(cards))
        rows = omaha_board.scratch(cards, 0, len(cards) if g.hilo else 0)
        full = np.empty(known + runouts.shape[1], np.uint8)
        full[:known] = board
        for runout in runouts[span[0]:span[1]]:
            check_interrupt()                         # a river is milliseconds to seconds
            if refused.is_set():
                break
            full[known:] = runout
            out = np.uint64(int(out_bits) | sum(1 << int(c) for c in runout))
            omaha_board.river_num(cards, bits, full, out, reach, part, g.hilo, pick, rows,
                                  *t)
        return part
    weights: list[tuple[int, int]] = []

    def add(i: int, done: Any) -> None:              # the clear weights come first
        if i == 0:
            weights.append(done)
        elif weights[0][0] == sweep.OK and not weights[0][1]:
            if i == 1:
                num[:] = done
            else:
                np.add(num, done, out=num)
    in_order(work, [None, *spans], workers, add,
             None if track is None else track(len(spans) + 1))
    status, n_careful = weights[0]
    return int(status), int(n_careful)
