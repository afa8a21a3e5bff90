"""Monte Carlo for best-five games and Tahoe with known or partly known hands.

Each deal draws the unknown hole cards and the rest of the board from the
cards left (``dealing``), then evaluates every player's sub-hands in place.
"""

import numpy as np

from .. import _layout
from .._jit import kernel
from ._intrinsics import suit_mask
from .counting import add_block_counts, block_counts, count_block
from .dealing import (
    DEALS,
    MAX_NEW_CARDS,
    deal_board,
    deal_table,
    dealt_count,
    draw_card,
    next_u64,
)
from .high import (
    COL_MASK,
    FLUSH_BITS,
    HAND_INIT,
    KEY_MASK,
    OFFSET_SHIFT,
    ONE,
    ROW_SHIFT,
    flush_suit,
    hash_read,
    known_board,
    sub_hand_keys,
)

U64 = np.uint64
SUIT_SHIFT = U64(_layout.SUIT_SHIFT)




@kernel
def best5_sample(holes, subs, unknown, known, live, need, samples, state, card_keys,
                 rank_offsets, rank_values, flush_values, hi_full):
    """Monte Carlo for best-five games and Tahoe: ``samples`` random deals.

    holes : uint8 (P, H), each player's hole cards
    subs : ``ndim_marker(S)``: with S = 1 a player's hand is the hole with the
        board; with S = 3 (Tahoe, H = 3) the best of the three hole pairs
    unknown : int64 (P,) or (1, P): the last ``unknown[p]`` cards of ``holes[p]``
        are not known and are dealt on every deal, before the board; the dealing
        is compiled only for the 2-d shape (``unknown_cards``), which keeps it out
        of the loop for known hands

    Each card is drawn from ``live``: a uniform position among the cards left
    picks a bit out of their 52-bit mask (``select_bit``, one BMI2 ``pdep``),
    so sampling without replacement needs no redraws and no deck array.  One
    generator step gives the positions of five cards (``mul_wide``); unknown
    hole cards take a fresh step every four cards.  Counts go to ``hi_full``
    as in ``tally``; ``state`` is advanced in place.
    """
    players, hole = holes.shape
    S = subs.ndim
    m = live.shape[0]
    cards = holes.copy()
    missing = unknown.reshape(-1)
    hidden = 0
    for p in range(players):
        hidden += missing[p]
    known_key, known_bits = known_board(known, card_keys)
    hole_keys = np.empty(players * S, np.uint64)
    hole_bits = np.empty(players * S, np.uint64)  # a sub-hand's cards and the known board
    values = np.empty(players, np.int64)
    s0 = state[0]
    s1 = state[1]
    r = U64(0)
    deck = U64(0)
    for j in range(m):
        deck |= ONE << U64(live[j])
    sub_hand_keys(cards, subs, known_key, known_bits, card_keys, hole_keys, hole_bits)
    for _ in range(samples):
        free = deck
        left = U64(m)
        if unknown.ndim == 2 and hidden:         # compiled only where some cards are unknown
            for p in range(players):
                u = missing[p]
                for j in range(u):
                    if j % 4 == 0:
                        r, s0, s1 = next_u64(s0, s1)
                    dealt, r, free, left = draw_card(r, free, left)
                    cards[p, hole - u + j] = dealt
            sub_hand_keys(cards, subs, known_key, known_bits, card_keys, hole_keys,
                           hole_bits)
        board = free                             # the cards left before the board
        board_key = U64(0)
        r, s0, s1 = next_u64(s0, s1)
        for j in range(MAX_NEW_CARDS):       # a fixed count, so that the loop unrolls
            if j < need:
                dealt, r, free, left = draw_card(r, free, left)
                board_key += card_keys[dealt]
        board ^= free
        best = 0
        for p in range(players):
            v = np.int64(0)
            for q in range(S):
                key = hole_keys[p * S + q] + board_key
                if key & FLUSH_BITS:
                    suit = flush_suit(key & FLUSH_BITS)
                    v = max(v, np.int64(flush_values[suit_mask(hole_bits[p * S + q] | board,
                                                               suit)]))
                else:
                    h = key & KEY_MASK
                    v = max(v, np.int64(hash_read(rank_values, rank_offsets, h)))
            values[p] = v
            best = max(best, v)
        winners = 0
        for p in range(players):
            winners += values[p] == best
        for p in range(players):
            hi_full[p, winners] += values[p] == best
    state[0] = s0
    state[1] = s1


@kernel
def best5_sample_known(holes, subs, known, live, draws, samples, state, card_keys,
                       rank_offsets, rank_values, flush_values, board_offsets, board_index,
                       hi_full):
    """``best5_sample`` for hands whose hole cards are all known, in blocks of deals:
    the same deals from the same ``state``, so the same counts, at 1.3-2.3x the speed
    (2.2x heads-up pre-flop, 1.3x three-way, 1.9x Tahoe).

    Each block of ``DEALS`` deals goes through three loops, each short and free of
    branches that depend on the cards: the boards are dealt (their keys and card masks
    kept); every sub-hand's value on every board is looked up as if it made no flush,
    the (sub-hand, deal) pairs that do make one listed on the way; the listed pairs are
    mended and the deals counted.  ``draws`` is ``deal_marker(need)``: five or two cards
    to deal are a compile-time constant, which measured 1.08x against the count in a
    variable (194 against 180 M deals/s heads-up pre-flop, 131 against 121 Tahoe, side
    by side) and 1.14x on a flop; other counts are read at run time (``dealt_count``).
    The dealing's lookups are in one deal table at fixed offsets (``dealing.deal_table``):
    1.04-1.06x heads-up and three-way, Tahoe unchanged (Zen 4, side by side).

    Tahoe (S = 3): a player's best non-flush hand depends only on the board's rank
    multiset, so it is kept per slot of the five-card hash (``board_offsets``; a board
    multiset has one slot, and ``board_index``, the slots' row numbers for the Omaha
    kernels, gives their count) the first time the slot comes up: one offset read and one
    read of the player's entry per deal, instead of three hash lookups.  Only boards with
    enough of a suit for some player's best-suited pair are tried for flushes; a pair
    that makes one takes its flush value if higher (with seven cards a flush excludes
    quads and full houses, so it beats its own pair's non-flush value).
    """
    need = dealt_count(draws)
    players, hole = holes.shape
    S = subs.ndim
    T = players * S
    m = live.shape[0]
    known_key, known_bits = known_board(known, card_keys)
    hole_keys = np.empty(T, np.uint64)
    hole_bits = np.empty(T, np.uint64)
    sub_hand_keys(holes, subs, known_key, known_bits, card_keys, hole_keys, hole_bits)
    deck = U64(0)
    for j in range(m):
        deck |= ONE << U64(live[j])
    if need > MAX_NEW_CARDS:
        raise ValueError("best5_sample_known: more board cards to deal than a board has")
    table, first_count, second_count = deal_table(card_keys, m, 0)
    last_left = U64(m + 1 - need)           # the cards left for an odd count's last card
    # each board's key, then its cards: one array, one base register for the two stores
    dealt = np.empty((2, DEALS), np.uint64)
    board_keys = dealt[0]
    boards = dealt[1]
    values = np.empty((T, DEALS), np.int32)
    # Tahoe: each player's best non-flush value per slot of the five-card hash (0: not yet)
    plain = np.zeros((players if S == 3 else 0, board_index.shape[0] if S == 3 else 0),
                     np.int32)
    pair_ranks = np.empty(T, np.uint64)        # the rank part of each hole pair's key
    for p in range(players):
        for q in range(S):
            pair_ranks[p * S + q] = (hole_keys[p * S + q] - known_key) & KEY_MASK
    known_ranks = (known_key - HAND_INIT) & KEY_MASK
    # Tahoe: per suit, the most cards of it in any player's hole pair (min(held, 2)), in a
    # key's suit counters: a board that does not reach five with them makes no flush
    best_pairs = U64(0)
    if S == 3:
        for suit in range(4):
            most = 0
            for p in range(players):
                held = 0
                for j in range(hole):
                    held += (holes[p, j] & 3) == suit
                most = max(most, min(held, 2))
            best_pairs += U64(most) << (SUIT_SHIFT + U64(4 * suit))
    flushes = np.empty(T * DEALS, np.uint32)
    suited = np.empty(DEALS, np.uint32)         # Tahoe: deals some best-suited pair may flush
    # multiway counters (``count_block``); heads-up counts in scalars below
    by_mask, by_player, best, won = block_counts(players if players > 2 else 0, DEALS)
    s0 = state[0]
    s1 = state[1]
    wins0 = 0
    wins1 = 0
    ties = 0
    for start in range(0, samples, DEALS):
        deals = min(DEALS, samples - start)
        for d in range(deals):
            # two cards at a time (``draw_two``: the same cards as one at a time, half the
            # products and pdeps), then an odd count's last card; the tests of ``need``
            # fold away for the counts known when compiled
            free = deck
            r, s0, s1 = next_u64(s0, s1)
            board_key, free, r = deal_board(r, free, need, table, first_count, second_count,
                                            last_left)
            dealt[0, d] = board_key
            dealt[1, d] = deck ^ free
        count = U64(0)
        if S == 3:
            # only a board with enough of a suit for some player's best-suited pair can
            # make a flush: those boards are listed on the way, and their pairs tried
            boards3 = U64(0)
            for d in range(U64(deals)):
                board_key = board_keys[d]
                suited[boards3] = d
                boards3 += U64(((known_key + board_key + best_pairs) & FLUSH_BITS) != 0)
                board_ranks = (known_ranks + board_key) & KEY_MASK
                # the board's slot in the five-card hash: one slot per rank multiset,
                # so the slot serves as the row (one load fewer than its row number)
                row = (U64(board_offsets[board_ranks >> ROW_SHIFT]) << OFFSET_SHIFT) + (
                    board_ranks & COL_MASK)
                for p in range(players):
                    v = plain[p, row]
                    if v == 0:
                        for q in range(3):
                            h = (board_ranks + pair_ranks[3 * p + q]) & KEY_MASK
                            v = max(v, np.int32(hash_read(rank_values, rank_offsets, h)))
                        plain[p, row] = v
                    values[p, d] = v
            for f in range(boards3):                # their (pair, deal)s that make a flush
                d = suited[f]
                for t in range(T):
                    flushes[count] = U64(t) * U64(DEALS) + d
                    count += U64(((hole_keys[t] + board_keys[d]) & FLUSH_BITS) != 0)
            for f in range(count):
                t = flushes[f] // U64(DEALS)
                d = flushes[f] % U64(DEALS)
                suit = flush_suit((hole_keys[t] + board_keys[d]) & FLUSH_BITS)
                p = t // U64(3)
                values[p, d] = max(values[p, d], np.int32(
                    flush_values[suit_mask(hole_bits[t] | boards[d], suit)]))
        else:
            for t in range(T):
                hole_key = hole_keys[t]
                row = values[t]
                listed = U64(t) * U64(DEALS)
                for d in range(U64(deals)):
                    key = hole_key + board_keys[d]
                    h = key & KEY_MASK
                    row[d] = hash_read(rank_values, rank_offsets, h)
                    flushes[count] = listed + d
                    count += U64((key & FLUSH_BITS) != 0)
            for f in range(count):
                t = flushes[f] // U64(DEALS)
                d = flushes[f] % U64(DEALS)
                key = hole_keys[t] + board_keys[d]
                suit = flush_suit(key & FLUSH_BITS)
                values[t, d] = flush_values[suit_mask(hole_bits[t] | boards[d], suit)]
        if players == 2:
            # heads-up: wins and ties in scalars, a loop LLVM turns into vector compares
            for d in range(deals):
                v0 = values[0, d]
                v1 = values[1, d]
                wins0 += v0 > v1
                wins1 += v1 > v0
                ties += v0 == v1
            continue
        count_block(values, players, deals, by_mask, by_player, best, won)
    add_block_counts(by_mask, by_player, hi_full)
    if players == 2:
        hi_full[0, 1] += wins0
        hi_full[1, 1] += wins1
        hi_full[0, 2] += ties
        hi_full[1, 2] += ties
    state[0] = s0
    state[1] = s1
