"""Omaha kernels: exactly two hole cards and exactly three board cards.

hands : uint8 (n, hole + board), the hole cards first, 3 to 5 board cards.

The high hand is the best of the C(hole, 2) x 10 five-card hands.  The keys
of the ten board triples are computed once per row; each combination then
costs one addition and a lookup.  Flushes are only checked when the board
holds three cards of a suit.

The 8-or-better low is one lookup: ``omaha_low[hole low-rank mask, board
low-rank mask]`` (see ``tables/generate.py``).
"""
import numpy as np

from .._jit import kernel
from .high import (COL_MASK, FLUSH_BITS, HAND_INIT, KEY_MASK, OFFSET_SHIFT, ROW_SHIFT,
                   SUIT_ONES, U64)


@kernel
def high_rows(hands, hole, out, card_keys, rank_offsets, rank_values, flush_values):
    """out[i] = Omaha high value of hands[i] (``hole`` hole cards, then the board)."""
    end = hands.shape[1]                      # board: hands[:, hole:end], 3 to 5 cards
    triple_keys = np.empty(10, np.uint64)
    triple_bits = np.empty(10, np.int64)
    for i in range(hands.shape[0]):
        t = 0
        for x in range(hole, end - 2):
            for y in range(x + 1, end - 1):
                for z in range(y + 1, end):
                    cx = hands[i, x]
                    cy = hands[i, y]
                    cz = hands[i, z]
                    triple_keys[t] = HAND_INIT + card_keys[cx] + card_keys[cy] + card_keys[cz]
                    # rank bits of a one-suit triple (0 if the suits differ)
                    same = ((cx ^ cy) | (cx ^ cz)) & 3 == 0
                    triple_bits[t] = ((1 << (cx >> 2)) | (1 << (cy >> 2)) | (1 << (cz >> 2))
                                      if same else 0)
                    t += 1
        triples = t
        board_key = HAND_INIT
        for j in range(hole, end):
            board_key += card_keys[hands[i, j]]
        # a flush needs three board cards of a suit: counter 3 + 3, plus 2 sets bit 3
        maybe_flush = (board_key + SUIT_ONES + SUIT_ONES) & FLUSH_BITS
        best = 0
        for a in range(hole - 1):
            for b in range(a + 1, hole):
                ca = hands[i, a]
                cb = hands[i, b]
                pair_key = card_keys[ca] + card_keys[cb]
                pair_suited = (ca ^ cb) & 3 == 0
                for t in range(triples):
                    key = triple_keys[t] + pair_key
                    if maybe_flush and pair_suited and key & FLUSH_BITS:
                        v = flush_values[triple_bits[t] | (1 << (ca >> 2)) | (1 << (cb >> 2))]
                    else:
                        h = key & KEY_MASK
                        v = rank_values[(U64(rank_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                                        + (h & COL_MASK)]
                    if v > best:
                        best = v
        out[i] = best


@kernel
def low_rows(hands, hole, out, low_card_bits, omaha_low):
    """out[i] = 8-or-better low value of hands[i] (0: no low)."""
    for i in range(hands.shape[0]):
        h = 0
        for j in range(hole):
            h |= low_card_bits[hands[i, j]]
        b = 0
        for j in range(hole, hands.shape[1]):
            b |= low_card_bits[hands[i, j]]
        out[i] = omaha_low[h, b]

