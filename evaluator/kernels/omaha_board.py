"""Complete boards of Omaha hands (four to six hole cards), high or hi-lo: every hand's
wins against a range summed over runouts (``runout_sweep``), and its showdown value on a
river (``river_showdown``), from ``omaha_sweep``'s listings and ``omaha_walk``'s sweep.

Hi-lo: a board with three low ranks is swept three times for the pot shares
``generic_sweep.add_hilo`` adds, each sweep read by the hands it serves: by high for the
hands with a low; by high, the opponents holding a low weighing half, for those without
one; by low for the hands with one.  A hand's low is the best of its hole pairs' lows:
two distinct ranks from the ace to the eight, with the three lowest other low ranks of
the board (the best three to add to any two).  A low is numbered from the mask of its
five ranks (ace bit 0, eight bit 7): comparing lows from the highest card down is
comparing those masks, so ``256 - mask`` is bigger for the better low; the lows a board
makes are then numbered 1 up in that order, and 0 is no low.
"""
import numpy as np

from .._jit import kernel
from ._intrinsics import popcount
from .generic_sweep import pairwise_hilo
from .omaha_sweep import (
    CAREFUL_WORK,
    LOW32,
    ONE,
    PAIRS,
    S32,
    U64,
    best_pair,
    list_river,
    pairwise_river,
    sums_size,
    support,
)
from .omaha_walk import clear_weights, needed, sweep_river
from .sweep import NO_LIVE_WEIGHT, NO_WEIGHT, OK, TOO_CONCENTRATED

LOW_BIT = np.array([1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1, 0], np.int64)
"""A rank's bit in a low's mask (deuce 0 ... ace 12): the ace 0, the deuce to the eight
1 to 7; -1 for the ranks a low cannot hold."""
LOW_TOP = 256                # a low's number: LOW_TOP - its mask (8 to 225)
NUMBERS = LOW_TOP + 2        # the counting sort's buckets


@kernel
def board_lows(full):
    """The mask of the low ranks on the board ``full``."""
    board = 0
    for x in range(full.shape[0]):
        b = LOW_BIT[full[x] >> 2]
        if b >= 0:
            board |= 1 << b
    return board


@kernel
def list_low(cards, combo_bits, full, out_bits, pair_low, hand_low, count, order):
    """List the live hands by their low, no low first, into ``order`` as ``low << 32 |
    hand``; ``hand_low[i]``: hand ``i``'s low number (0: none, 1 the worst low the board
    makes, bigger better; -1: it holds a card out).
    Returns how many are listed.  Scratch: ``pair_low`` (1,326), ``count`` (``NUMBERS``)."""
    board = board_lows(full)
    rank_low = np.zeros(169, np.int64)             # rank pair (high * 13 + low): its low
    for rb in range(13):
        if LOW_BIT[rb] < 0:
            continue
        for ra in range(rb):
            if LOW_BIT[ra] < 0:
                continue
            pair = (1 << LOW_BIT[ra]) | (1 << LOW_BIT[rb])
            rest = board & ~pair
            if popcount(U64(rest)) < 3:
                continue
            mask = pair
            for _ in range(3):                     # the three lowest other ranks
                bit = rest & -rest
                mask |= bit
                rest ^= bit
            rank_low[rb * 13 + ra] = LOW_TOP - mask
    # numbered densely, 1 for the worst low this board makes (at most 28 of them): the
    # same order, and the rows of the hi-lo tallies as wide as the lows made
    made = np.zeros(NUMBERS, np.int64)
    for x in range(169):
        made[rank_low[x]] = 1
    made[0] = 0
    for k in range(1, NUMBERS):
        made[k] += made[k - 1]
    for x in range(169):
        rank_low[x] = made[rank_low[x]]
    p = 0
    for y in range(52):
        for x in range(y):
            pair_low[p] = rank_low[(y >> 2) * 13 + (x >> 2)]
            p += 1
    N = cards.shape[0]
    count[:] = 0
    for i in range(N):
        if combo_bits[i] & out_bits:
            hand_low[i] = -1
            continue
        r = best_pair(cards, i, pair_low, cards.shape[1])
        hand_low[i] = r
        count[r + 1] += 1
    for k in range(NUMBERS - 1):
        count[k + 1] += count[k]
    for i in range(N):
        r = hand_low[i]
        if r >= 0:
            order[count[r]] = (U64(r) << S32) | U64(i)
            count[r] += 1
    return count[NUMBERS - 2]


@kernel
def board_num(cards, combo_bits, full, out, reach, num, careful, careful_num, signs, hilo,
              pick, rows, card_keys, rank_offsets, rank_values, flush_values):
    """``num +=`` every hand's twice wins plus ties against ``reach`` on the complete
    board ``full`` (hi-lo: twice its pot share); ``careful_num`` the same for the
    ``careful`` hands summed pair by pair (``signs``: their share less the opponent's).
    ``pick`` (N,) not empty: only the hands where it is not 0 are read (the others'
    ``num`` is left partial).  ``rows``: the arrays it writes in (``scratch``)."""
    (sums, pair_rank, words, spare, count, hand_rank, order, pair_low, hand_low, low_order,
     shaded, listed, position, heavy) = rows
    n = list_river(cards, combo_bits, full, out, pair_rank, words, spare, count, hand_rank,
                   order, card_keys, rank_offsets, rank_values, flush_values)
    live = n
    if pick.shape[0]:
        n = needed(order, n, reach, pick)
    if not (hilo and popcount(U64(board_lows(full))) >= 3):
        sweep_river(cards, order, n, reach, num, sums, hand_low, 0, pick, 1.0)
        if careful.shape[0]:
            pairwise_river(combo_bits, order, n, reach, careful, careful_num, position,
                           heavy, signs)
        return
    list_low(cards, combo_bits, full, out, pair_low, hand_low, count, low_order)
    n_low = needed(low_order, live, reach, pick) if pick.shape[0] else live
    # ``add_hilo``'s pot shares, each read into ``num`` by the sweep that serves it: a hand
    # with a low takes half of its high sweep and half of its low sweep against every
    # opponent; one without, its high sweep against every opponent less half of it against
    # those with a low, which is one high sweep against the weights ``shaded``: halved for
    # the opponents with a low (exact: a power of two)
    for i in range(cards.shape[0]):
        shaded[i] = 0.5 * reach[i] if hand_low[i] > 0 else reach[i]
    # each side a constant: its sweep compiled for it (21 s of compiling each, and the
    # hi-lo sweeps 1.26x as fast as with the side read at run time)
    sweep_river(cards, order, n, reach, num, sums, hand_low, 1, pick, 0.5)
    sweep_river(cards, order, n, shaded, num, sums, hand_low, 2, pick, 1.0)
    sweep_river(cards, low_order, n_low, reach, num, sums, hand_low, 1, pick, 0.5)
    if careful.shape[0]:
        for j in range(n):
            listed[j] = np.int64(order[j] & LOW32)
        pairwise_hilo(combo_bits, listed[:n], hand_rank, hand_low, n, reach, careful,
                      careful_num, signs)


@kernel
def runout_sweep(cards, combo_bits, board, dead_bits, runouts, reach, factor, num, den, eq,
                 close_share, hilo, pick, card_keys, rank_offsets, rank_values, flush_values):
    """``sweep.runout_sweep`` for Omaha hands: ``num`` the wins (ties half; hi-lo: the pot
    share), ``den`` the deals (``factor`` times the clear weight; ``factor = 0`` for a part
    of the runouts leaves twice the wins, unclamped, and the clear weight), ``eq`` their
    ratio where it is (N,); with ``pick`` (N,) not empty, ``num`` and ``eq`` only where it
    is not 0 (elsewhere partial).  Returns ``clear_weights``'s status, or ``TOO_CONCENTRATED``
    where its careful hands would cost more than ``CAREFUL_WORK`` pairs."""
    N = cards.shape[0]
    careful = np.empty(N, np.int64)
    status, n_careful = clear_weights(cards, combo_bits, dead_bits, reach, den, careful,
                                      close_share)
    if status != OK:
        return status
    if n_careful and n_careful * support(combo_bits, dead_bits, reach) \
            * runouts.shape[0] > CAREFUL_WORK:
        return TOO_CONCENTRATED
    careful = careful[:n_careful]
    careful_num = np.zeros(n_careful, np.float64)
    num[:] = 0.0
    full = np.empty(5, np.uint8)
    known = board.shape[0]
    for j in range(known):
        full[j] = board[j]
    rows = scratch(cards, n_careful, N if hilo else 0)
    for r in range(runouts.shape[0]):
        out = dead_bits
        for j in range(runouts.shape[1]):
            c = runouts[r, j]
            full[known + j] = c
            out |= ONE << U64(c)
        board_num(cards, combo_bits, full, out, reach, num, careful, careful_num,
                  np.bool_(False), hilo,
                  pick, rows, card_keys, rank_offsets, rank_values, flush_values)
    for k in range(n_careful):
        num[careful[k]] = careful_num[k]
    if factor > 0:
        for i in range(N):
            d = den[i] * factor
            den[i] = d
            x = min(max(0.5 * num[i], 0.0), d)
            num[i] = x
            if eq.shape[0]:
                eq[i] = x / d if d > 0.0 else np.nan
    return OK


@kernel
def river_num(cards, combo_bits, full, out, reach, num, hilo, pick, scratch, card_keys,
              rank_offsets, rank_values, flush_values):
    """``board_num`` for one board from Python, with no careful hands; ``scratch`` from
    ``scratch(cards, 0, N if hilo else 0)``, kept across boards."""
    none = np.empty(0, np.int64)
    board_num(cards, combo_bits, full, out, reach, num, none, np.empty(0, np.float64),
              np.bool_(False),
              hilo, pick, scratch, card_keys, rank_offsets, rank_values, flush_values)


@kernel
def scratch(cards, n_careful, wide):
    """The arrays ``board_num`` writes in (``wide``: N for the hi-lo sweeps, else 0)."""
    N = cards.shape[0]
    picky = N if n_careful else 0
    return (np.zeros(sums_size(cards.shape[1]), np.float64), np.zeros(PAIRS, np.int64),
            np.empty(256, np.int64), np.empty(256, np.int64),
            np.empty(max(PAIRS + 2, NUMBERS), np.int64), np.empty(N, np.int64),
            np.empty(N, np.uint64), np.zeros(PAIRS, np.int64), np.empty(wide, np.int64),
            np.empty(wide, np.uint64), np.empty(wide, np.float64),
            np.empty(wide if n_careful else 0, np.int64), np.full(picky, -1, np.int64),
            np.empty(picky, np.uint64))


@kernel
def river_showdown(cards, combo_bits, board, dead_bits, reach, out, close_share, hilo,
                   card_keys, rank_offsets, rank_values, flush_values):
    """``sweep.river_showdown`` for Omaha hands, one reach vector (row of ``reach``) at a
    time: twice the wins plus the ties (hi-lo: twice the pot share), less the clear
    weight."""
    N = cards.shape[0]
    careful = np.empty(N, np.int64)
    met = np.empty(N, np.float64)
    # a writable copy of the board, and the flag below not a constant: ``board_num`` then
    # has the types ``runout_sweep`` gives it, and compiles once for both (a first
    # showdown_values of two vectors after a combo_equity: 8.4 -> 4.4 s)
    full = np.empty(board.shape[0], np.uint8)
    full[:] = board
    for r in range(reach.shape[0]):
        weights = reach[r]
        row = out[r]
        status, n_careful = clear_weights(cards, combo_bits, dead_bits, weights, met, careful,
                                          close_share)
        row[:] = 0.0
        if status == NO_WEIGHT or status == NO_LIVE_WEIGHT:
            continue
        if status != OK:
            return status
        if n_careful and n_careful * support(combo_bits, dead_bits, weights) > CAREFUL_WORK:
            return TOO_CONCENTRATED
        exact = np.zeros(n_careful, np.float64)
        board_num(cards, combo_bits, full, dead_bits, weights, row, careful[:n_careful],
                  exact, np.bool_(True), hilo, np.empty(0),
                  scratch(cards, n_careful, N if hilo else 0),
                  card_keys, rank_offsets, rank_values, flush_values)
        for i in range(N):
            row[i] = row[i] - met[i] if not (combo_bits[i] & dead_bits) else 0.0
        for k in range(n_careful):
            row[careful[k]] = exact[k]
    return OK


@kernel
def board_listing(cards, combo_bits, full, out, hilo, high, order, low, low_order,
                  card_keys, rank_offsets, rank_values, flush_values):
    """Every hand's high number on the complete board ``full`` into ``high`` (-1 where it
    holds a card of ``out``) and the live hands weakest first into ``order`` (int64);
    with ``hilo``, their lows into ``low`` (0: none) and ``low_order`` the same way.
    Returns how many are live."""
    N = cards.shape[0]
    encoded = np.empty(N, np.uint64)
    n = list_river(cards, combo_bits, full, out, np.zeros(PAIRS, np.int64),
                   np.empty(256, np.int64), np.empty(256, np.int64),
                   np.empty(max(PAIRS + 2, NUMBERS), np.int64), high, encoded, card_keys,
                   rank_offsets, rank_values, flush_values)
    for j in range(n):
        order[j] = np.int64(encoded[j] & LOW32)
    if hilo:
        list_low(cards, combo_bits, full, out, np.zeros(PAIRS, np.int64), low,
                 np.empty(NUMBERS, np.int64), encoded)
        for j in range(n):
            low_order[j] = np.int64(encoded[j] & LOW32)
    return n
