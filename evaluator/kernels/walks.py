"""Board walks: every completion of the board, one by one, for best-five games,
Tahoe and Omaha.

Omaha's walk (``omaha_walk``) and its sampler (``omaha_sample``) are separate
kernels: each fills blocks of boards and hands them to one evaluation and count,
``omaha_count_boards``.
"""

import numpy as np

from .._jit import kernel
from ._intrinsics import suit_mask
from .dealing import MAX_NEW_CARDS, draw_card, live_cards, next_u64
from .high import (
    FLUSH_BITS,
    KEY_MASK,
    ONE,
    THREE,
    flush_suit,
    hash_read,
    known_board,
    sub_hand_keys,
)
from .omaha import FIVE_SUITS, omaha_hole_pairs

U64 = np.uint64


@kernel
def best5_equity(holes, subs, known, live, need, first, card_keys, rank_offsets, rank_values,
                 flush_values, hi_full):
    """Exact equity by walking every board, for games whose hand is the best five
    of hole + board (used where ``best5_exact`` cannot split by flush classes).

    holes : uint8 (P, H), each player's hole cards
    subs : ``ndim_marker(S)``: with S = 1 a player's hand is the hole with the
        board (hold'em family and The, H + board <= 7); with S = 3 (Tahoe,
        H = 3) the best of the three hole pairs, as in ``best5_sample``
    known : uint8 the board so far; ``need`` more cards come from ``live``
    first : int64 (2,) the range of the first new card's position in ``live``
        (threads take disjoint ranges)

    Boards are never stored: each completion's key is the sum of its ``need``
    new card keys, each sub-hand's key (the known board included) one more addition, and
    ``hi_full`` (as in ``tally``) is updated in place.  Returns the boards seen.
    """
    players = holes.shape[0]
    S = subs.ndim
    k = known.shape[0]
    m = live.shape[0]
    known_key, known_bits = known_board(known, card_keys)
    # each sub-hand's key and card mask, the known board included (as in best5_sample)
    hole_keys = np.empty(players * S, np.uint64)
    hole_bits = np.empty(players * S, np.uint64)
    sub_hand_keys(holes, subs, known_key, known_bits, card_keys, hole_keys, hole_bits)
    board = np.full(k + 5, 255, np.uint8)         # known cards, new cards, padding
    board[:k] = known
    values = np.empty(players, np.int64)
    idx = np.arange(need) + (first[0] if need > 0 else 0)
    boards = 0
    while True:
        for j in range(need):
            board[k + j] = live[idx[j]]
        # a fixed five-term sum: unused slots hold card 255, whose key is 0
        # (a loop over ``need`` terms cost as much as the evaluations)
        new_key = (card_keys[board[k]] + card_keys[board[k + 1]] + card_keys[board[k + 2]]
                   + card_keys[board[k + 3]] + card_keys[board[k + 4]])
        best = 0
        winners = 0
        for p in range(players):
            v = np.int64(0)
            for q in range(S):
                key = hole_keys[p * S + q] + new_key
                if key & FLUSH_BITS:
                    cards = hole_bits[p * S + q]
                    for j in range(k, k + need):
                        cards |= ONE << U64(board[j])
                    suit = flush_suit(key & FLUSH_BITS)
                    v = max(v, np.int64(flush_values[suit_mask(cards, suit)]))
                else:
                    h = key & KEY_MASK
                    v = max(v, np.int64(hash_read(rank_values, rank_offsets, h)))
            values[p] = v
            if v > best:
                best = v
                winners = 1
            elif v == best:
                winners += 1
        for p in range(players):
            if values[p] == best:
                hi_full[p, winners] += 1
        boards += 1
        # next combination of positions
        j = need - 1
        while j >= 0 and idx[j] == m - need + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        if j == 0 and idx[0] >= first[1]:
            break
        for x in range(j + 1, need):
            idx[x] = idx[x - 1] + 1
    return boards


@kernel
def best5_equity_batch(holes, subs, known, dead, need, card_keys, rank_offsets, rank_values,
                       flush_values, hi_full, boards):
    """``best5_equity`` walking every board of many deals in one call (a range's suit
    classes in Tahoe, and the best-five deals ``best5_exact`` leaves to walking).

    holes : uint8 (n, P, H) the hands of each deal; ``hi_full`` gains a leading axis of
    length n (zeroed by the caller), and ``boards`` (n,) gets each deal's boards.
    """
    first = np.zeros(2, np.int64)
    for i in range(holes.shape[0]):
        live = live_cards(holes[i], known, dead)
        first[1] = live.shape[0] - need + 1
        boards[i] = best5_equity(holes[i], subs, known, live, need, first, card_keys,
                                 rank_offsets, rank_values, flush_values, hi_full[i])


@kernel(inline="always")
def omaha_setup(holes, known, card_keys, low_card_bits, rows):
    """What ``omaha_walk`` and ``omaha_sample`` compute once per call: each player's hole
    pairs (``omaha_hole_pairs``) and low cards, the known board's key and low cards, a
    low-bit lookup that maps card 255 (padding) to 0, and the per-(player, board rank row)
    cache of best non-flush values (0: not computed yet; every real row holds a hand)."""
    players, hole = holes.shape
    pair_cols, suited_cols, suited_count = omaha_hole_pairs(holes)
    hole_lows = np.zeros(players, np.int64)
    low_bits = np.zeros(256, np.int64)
    low_bits[:52] = low_card_bits
    for p in range(players):
        for a in range(hole):
            hole_lows[p] |= low_card_bits[holes[p, a]]
    known_key = U64(0)
    known_low = 0
    for j in range(known.shape[0]):
        known_key += card_keys[known[j]]
        known_low |= low_card_bits[known[j]]
    plain = np.zeros(players * rows, np.uint16)
    return pair_cols, suited_cols, suited_count, hole_lows, low_bits, known_key, known_low, plain


@kernel
def omaha_count_boards(boards, n, k, need, hilo, setup, card_keys, board_offsets, board_index,
                       omaha_pairs, omaha_flush, omaha_low, hi_full, joint):
    """Evaluate the first ``n`` boards of the block ``boards`` (each row: ``k`` known cards,
    then ``need`` new ones, then padding 255) for every player and count them as ``tally``
    does.  The walk and the sampler fill blocks of boards and call this once a block: an
    inlined per-board helper taking these arrays measured 0.17x (its reference counting
    stayed in the loop).

    A board costs its key and one hash lookup for the index of its ranks'
    ``omaha_pairs`` row.  A player's best non-flush hand on that row is the best
    of one entry per hole pair; it is kept in ``plain`` the first time a row comes
    up, so later boards of the same ranks read one entry of a 12 kB array per
    player.  A flush is possible only when the board holds three cards of a suit
    (one board in seven); then each of the player's pairs of that suit (usually
    none or one) reads ``omaha_flush``.  ``setup`` is what ``omaha_setup`` returns.
    """
    pair_cols, suited_cols, suited_count, hole_lows, low_bits, known_key, known_low, plain = \
        setup
    players = hole_lows.shape[0]
    rows = omaha_pairs.shape[0]
    width = U64(omaha_pairs.shape[1])
    pairs_flat = omaha_pairs.reshape(-1)
    flush_flat = omaha_flush.reshape(-1)
    npairs = pair_cols.shape[0] // players
    his = np.empty(players, np.int64)
    los = np.empty(players, np.int64)
    for i in range(n):
        # fixed five-term sums: unused slots hold card 255, whose key and low bits are 0
        board_key = (known_key + card_keys[boards[i, k]] + card_keys[boards[i, k + 1]]
                     + card_keys[boards[i, k + 2]] + card_keys[boards[i, k + 3]]
                     + card_keys[boards[i, k + 4]])
        board_low = (known_low | low_bits[boards[i, k]] | low_bits[boards[i, k + 1]]
                     | low_bits[boards[i, k + 2]] | low_bits[boards[i, k + 3]]
                     | low_bits[boards[i, k + 4]])
        h = board_key & KEY_MASK
        row = U64(hash_read(board_index, board_offsets, h))
        # the suit with three or more board cards, if any (counters start at 0 here), and
        # the row of omaha_flush for its ranks on the board
        counters = (board_key + FIVE_SUITS) & FLUSH_BITS
        board_suit = U64(0)
        flush_row = U64(0)
        if counters:
            board_suit = flush_suit(counters)
            board_mask = U64(0)
            for j in range(k + need):
                c = U64(boards[i, j])
                board_mask |= U64((c & THREE) == board_suit) << (c >> U64(2))
            flush_row = board_mask * U64(169)
        best = 0
        best_lo = 0
        for p in range(players):
            cell = U64(p) * U64(rows) + row
            v = plain[cell]
            if v == 0:
                base = row * width
                t = U64(p * npairs)
                for _ in range(npairs):
                    v = max(v, pairs_flat[base + pair_cols[t]])
                    t += ONE
                plain[cell] = v
            if counters:
                ps = U64(p * 4) + board_suit
                t = ps * U64(npairs)
                for _ in range(suited_count[ps]):
                    v = max(v, flush_flat[flush_row + suited_cols[t]])
                    t += ONE
            his[p] = v
            if v > best:
                best = v
            if hilo:
                lv = np.int64(omaha_low[hole_lows[p], board_low])
                los[p] = lv
                if lv > best_lo:
                    best_lo = lv
        kh = 0
        kl = 0
        for p in range(players):
            if his[p] == best:
                kh += 1
            if best_lo > 0 and los[p] == best_lo:
                kl += 1
        if kl == 0:
            for p in range(players):
                hi_full[p, kh] += np.int64(his[p] == best)
        else:
            for p in range(players):
                a = kh if his[p] == best else 0
                b = kl if los[p] == best_lo else 0
                if a or b:
                    joint[p, a, b] += 1


BLOCK = 512      # boards a walk or sampler hands to ``omaha_count_boards`` at a time


@kernel
def omaha_walk(holes, known, live, need, first, hilo, card_keys, board_offsets, board_index,
               omaha_pairs, omaha_flush, low_card_bits, omaha_low, hi_full, joint):
    """Exact Omaha counts (4 to 6 hole cards, 5-card final board) by walking every board
    whose first new card sits at a position in ``first`` of ``live``, as ``best5_equity``
    walks; ``hilo`` adds the 8-or-better low.  The boards are evaluated and counted a
    block at a time by ``omaha_count_boards``.  Returns the boards seen."""
    k = known.shape[0]
    m = live.shape[0]
    setup = omaha_setup(holes, known, card_keys, low_card_bits, omaha_pairs.shape[0])
    block = np.full((BLOCK, k + 5), 255, np.uint8)    # known cards, new cards, padding
    block[:, :k] = known
    idx = np.arange(need) + (first[0] if need > 0 else 0)
    boards = 0
    filled = 0
    while True:
        for j in range(need):
            block[filled, k + j] = live[idx[j]]
        filled += 1
        boards += 1
        if filled == BLOCK:
            omaha_count_boards(block, filled, k, need, hilo, setup, card_keys, board_offsets,
                               board_index, omaha_pairs, omaha_flush, omaha_low, hi_full, joint)
            filled = 0
        j = need - 1
        while j >= 0 and idx[j] == m - need + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        if j == 0 and idx[0] >= first[1]:
            break
        for x in range(j + 1, need):
            idx[x] = idx[x - 1] + 1
    omaha_count_boards(block, filled, k, need, hilo, setup, card_keys, board_offsets,
                       board_index, omaha_pairs, omaha_flush, omaha_low, hi_full, joint)
    return boards


@kernel
def omaha_sample(holes, known, live, need, samples, state, hilo, card_keys, board_offsets,
                 board_index, omaha_pairs, omaha_flush, low_card_bits, omaha_low, hi_full,
                 joint):
    """Omaha counts over ``samples`` boards dealt at random from ``live`` (as
    ``best5_sample`` deals: one generator step, one pdep per card), evaluated and
    counted a block at a time by ``omaha_count_boards``; ``state`` (2,) uint64 is the
    generator, advanced in place.  Returns the boards seen."""
    k = known.shape[0]
    m = live.shape[0]
    setup = omaha_setup(holes, known, card_keys, low_card_bits, omaha_pairs.shape[0])
    block = np.full((BLOCK, k + 5), 255, np.uint8)    # known cards, new cards, padding
    block[:, :k] = known
    deck_bits = U64(0)
    for j in range(m):
        deck_bits |= ONE << U64(live[j])
    s0 = state[0]
    s1 = state[1]
    for start in range(0, samples, BLOCK):
        filled = min(BLOCK, samples - start)
        for i in range(filled):
            free = deck_bits
            left = U64(m)
            r, s0, s1 = next_u64(s0, s1)
            for j in range(MAX_NEW_CARDS):
                if j < need:
                    dealt, r, free, left = draw_card(r, free, left)
                    block[i, k + j] = dealt
        omaha_count_boards(block, filled, k, need, hilo, setup, card_keys, board_offsets,
                           board_index, omaha_pairs, omaha_flush, omaha_low, hi_full, joint)
    state[0] = s0
    state[1] = s1
    return samples
