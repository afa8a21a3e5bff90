"""Monte Carlo for best-five games and Tahoe with known or partly known hands.

Each deal draws the unknown hole cards and the rest of the board from the
cards left (``dealing``), then evaluates every player's sub-hands in place.
"""

import numpy as np

from .._jit import kernel
from ._intrinsics import suit_mask
from .dealing import MAX_NEW_CARDS, draw_card, next_u64
from .high import (
    FLUSH_BITS,
    HAND_INIT,
    KEY_MASK,
    ONE,
    flush_suit,
    hash_read,
    sub_hand_keys,
)

U64 = np.uint64




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
    k = known.shape[0]
    m = live.shape[0]
    cards = holes.copy()
    missing = unknown.reshape(-1)
    hidden = 0
    for p in range(players):
        hidden += missing[p]
    known_key = HAND_INIT
    known_bits = U64(0)
    for j in range(k):
        known_key += card_keys[known[j]]
        known_bits |= ONE << U64(known[j])
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
