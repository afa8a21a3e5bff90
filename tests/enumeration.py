"""Kernels only the tests and benchmarks use: one hand at a time (``evaluate_one``), and
every 7-card hand enumerated with a histogram of categories (``enumerate7``), the
exhaustive check's engine.  They read the package's tables and helpers as the kernels
do; they are not part of the package.
"""
import numpy as np

from evaluator._jit import kernel
from evaluator.kernels._intrinsics import trailing_zeros
from evaluator.kernels.high import (
    COL_MASK,
    FLUSH_BITS,
    FOUR,
    HAND_INIT,
    KEY_MASK,
    ROW_SHIFT,
    SUIT_ONES,
    SUIT_SHIFT,
    THREE,
    U64,
    flush_mask,
    hash_read,
    pad_mask,
)


@kernel
def evaluate_one(cards, card_keys, rank_offsets, rank_values, flush_values):
    """Value of one hand: uint8 array of 5 to 7 card ids."""
    w = pad_mask(cards.shape[0])
    key = HAND_INIT
    for j in range(cards.shape[0]):
        w |= U64(cards[j]) << U64(8 * j)
        key += card_keys[cards[j]]
    if key & FLUSH_BITS:
        return flush_values[flush_mask(w, key)]
    h = key & KEY_MASK
    return hash_read(rank_values, rank_offsets, h)


@kernel
def _completion_rows(card_keys, rank_offsets, rank_values):
    """Tables for ``enumerate7``: the pairs (c5, c6) and a row store for 5-card prefixes.

    Returns (pair_cell, pair_at, first_pair, row_of_slot, rows):
    pair ``q`` lists (c5 < c6) by c5 then c6, so the pairs above a card c are
    the tail from ``first_pair[c + 1]``; ``pair_cell[q]`` is 13 * rank(c5) +
    rank(c6) and ``pair_at[c5, c6]`` is q.  ``rows`` has room for one row of 169
    values per 5-card rank multiset (6,175), filled by ``enumerate7`` as it
    meets them; ``row_of_slot`` maps a hash slot to its row (-1: not yet).
    """
    pair_cell = np.empty(1326, np.uint16)
    pair_at = np.zeros((52, 52), np.int16)
    first_pair = np.zeros(53, np.int64)
    q = 0
    for c5 in range(52):
        first_pair[c5] = q
        for c6 in range(c5 + 1, 52):
            pair_cell[q] = 13 * (c5 >> 2) + (c6 >> 2)
            pair_at[c5, c6] = q
            q += 1
    first_pair[52] = q
    row_of_slot = np.full(rank_values.shape[0], -1, np.int32)
    rows = np.zeros(6175 * 169, np.uint16)
    return pair_cell, pair_at, first_pair, row_of_slot, rows


@kernel
def enumerate7(hist, card_keys, rank_offsets, rank_values, flush_values):
    """Evaluate every 7-card hand; return the sum of their values.

    hist : ndarray of int64, shape (4, values) or (0, values)
        With four rows, every value is also counted (row ``q & 3`` for the
        hand's last two cards' pair number ``q``, so that runs of equal values
        do not wait on each other's increments), and ``hist.sum(0)`` is the
        histogram.  With zero rows only the checksum is computed (the benchmark
        of raw speed).

    Every hand is looked up on its own, but the lookup is cheap: the five
    lowest cards fix a rank multiset, whose row holds the non-flush value for
    each pair of ranks the last two cards can add (one hash lookup per row,
    built the first time the multiset comes up).  The 1,326 pairs of last cards
    run as one flat loop with a row read each.  Flushes need three cards of a
    suit among the first five; their hands are then visited again and
    corrected to the flush value (about 3% of all hands).
    """
    counting = hist.shape[0] > 0
    pair_cell, pair_at, first_pair, row_of_slot, rows = _completion_rows(
        card_keys, rank_offsets, rank_values)
    flush_pairs = np.empty(1326, np.int64)
    flush_ranks = np.empty(1326, np.int64)
    used = 0
    total = 0
    for c0 in range(46):
        k0 = HAND_INIT + card_keys[c0]
        for c1 in range(c0 + 1, 47):
            k1 = k0 + card_keys[c1]
            for c2 in range(c1 + 1, 48):
                k2 = k1 + card_keys[c2]
                for c3 in range(c2 + 1, 49):
                    k3 = k2 + card_keys[c3]
                    for c4 in range(c3 + 1, 50):
                        k4 = k3 + card_keys[c4]
                        h = k4 & KEY_MASK
                        slot = (np.int64(rank_offsets[h >> ROW_SHIFT]) << 1) + np.int64(
                            h & COL_MASK)
                        row = row_of_slot[slot]
                        if row < 0:
                            row = used
                            used += 1
                            row_of_slot[slot] = row
                            for ra in range(13):
                                for rb in range(ra, 13):
                                    # any card of the rank: suits do not touch the rank key
                                    hk = (k4 + card_keys[4 * ra] + card_keys[4 * rb]) & KEY_MASK
                                    rows[row * 169 + 13 * ra + rb] = hash_read(
                                        rank_values, rank_offsets, hk)
                        # every completion as if it made no flush (unsigned indices: no
                        # negative-index handling in the loop)
                        base = U64(row) * U64(169)
                        if counting:
                            for q in range(U64(first_pair[c4 + 1]), U64(1326)):
                                v = rows[base + pair_cell[q]]
                                total += v
                                hist[q & THREE, v] += 1
                        else:
                            for q in range(U64(first_pair[c4 + 1]), U64(1326)):
                                total += rows[base + pair_cell[q]]
                        # three or more of a suit among the five (at most one suit can):
                        # correct the completions that make a flush
                        flush3 = (k4 + SUIT_ONES + SUIT_ONES) & FLUSH_BITS
                        if flush3 == 0:
                            continue
                        suit = (trailing_zeros(flush3) - (SUIT_SHIFT + THREE)) >> U64(2)
                        have = np.int64((k4 >> (SUIT_SHIFT + FOUR * suit)) & U64(15)) - 3
                        suit_ranks5 = 0
                        for c in (c0, c1, c2, c3, c4):
                            if (c & 3) == suit:
                                suit_ranks5 |= 1 << (c >> 2)
                        # the flush completions: (pair, flush-suit ranks) listed, then counted
                        first = c4 + 1
                        low = first + ((np.int64(suit) - first) & 3)   # the suit's first card
                        flushes = 0
                        for x in range(low, 52, 4):
                            for y in range(first if have >= 4 else x + 4, 52):
                                y_suited = (y & 3) == suit
                                if y == x or (y_suited and y < x) or (have < 4 and not y_suited):
                                    continue
                                ranks = suit_ranks5 | (1 << (x >> 2))
                                if y_suited:
                                    ranks |= 1 << (y >> 2)
                                flush_pairs[flushes] = pair_at[min(x, y), max(x, y)]
                                flush_ranks[flushes] = ranks
                                flushes += 1
                        if have == 5:
                            # five of the suit already: pairs without a card of the suit too
                            for x in range(first, 51):
                                for y in range(x + 1, 52):
                                    if (x & 3) != suit and (y & 3) != suit:
                                        flush_pairs[flushes] = pair_at[x, y]
                                        flush_ranks[flushes] = suit_ranks5
                                        flushes += 1
                        for f in range(flushes):
                            q = np.int64(flush_pairs[f])
                            old = np.int64(rows[base + pair_cell[q]])
                            v = np.int64(flush_values[flush_ranks[f]])
                            total += v - old
                            if counting:
                                hist[q & 3, old] -= 1
                                hist[q & 3, v] += 1
    return total
