"""Teen Patti kernels: three cards, one lookup.

The table (``teen_patti``, uint16, one row per option) is indexed by
``169 * r0 + 13 * r1 + r2 + 2197 * suited`` with the ranks in any order.
"""
import numpy as np

from .._jit import kernel
from ._intrinsics import load_u64

U64 = np.uint64
BYTE = U64(0xFF)
S2, S8, S10, S16, S18 = U64(2), U64(8), U64(10), U64(16), U64(18)
THREE = U64(3)


@kernel
def evaluate_rows(hands, out, table):
    """out[i] = value of hands[i]; hands uint8 (n, 3), table uint16 (4394,).

    All but the last two rows are read with one 8-byte load.
    """
    n = hands.shape[0]
    fast = max(0, n - 2)
    for i in range(fast):
        w = load_u64(hands, i * 3)
        x = w ^ (w >> S8)                      # byte 0: a ^ b, byte 1: b ^ c
        suited = U64(((x | (x >> S8)) & THREE) == 0)
        index = (U64(169) * ((w >> S2) & U64(0x3F)) + U64(13) * ((w >> S10) & U64(0x3F))
                 + ((w >> S18) & U64(0x3F)) + U64(2197) * suited)
        out[i] = table[index]
    for i in range(fast, n):
        a = hands[i, 0]
        b = hands[i, 1]
        c = hands[i, 2]
        suited = ((a ^ b) | (a ^ c)) & 3 == 0
        out[i] = table[169 * (a >> 2) + 13 * (b >> 2) + (c >> 2) + 2197 * suited]


@kernel
def weigh_against(a_masks, a_values, b_masks, b_values, b_weights, top, out):
    """Two ranges at a showdown of hole cards alone (``equity``'s exact path for two
    unknown hands).  For each combo ``i`` of the first range, the weights of the second
    range's combos that share no card with it, split by their value against
    ``level = max(top, a_values[i])`` (``top``: the best known hand, -1 if none):
    ``out[i] = (above, equal, below)``.

    a_masks, b_masks: uint64 card masks; a_values, b_values: int32; b_weights and out:
    int64 (integer weights: the sums are exact in any order, so the loop runs on vector
    registers, about 0.2 ns a pair of combos on a Zen 4) or float64 (summed in order, as
    written, so the same bits on every CPU: without leave to reorder them the compiler
    keeps float sums scalar, about 1.4 ns a pair).
    """
    for i in range(a_masks.shape[0]):
        mask = a_masks[i]
        level = max(top, a_values[i])
        out[i, 0] = 0
        total = out[i, 0]                     # 0 of the sums' type
        above = total
        equal = total
        for j in range(b_masks.shape[0]):
            w = b_weights[j] * ((b_masks[j] & mask) == 0)
            v = b_values[j]
            total += w
            above += w * (v > level)
            equal += w * (v == level)
        out[i, 0] = above
        out[i, 1] = equal
        out[i, 2] = total - above - equal


@kernel
def weigh_three(a_cards, a_masks, a_ranks, a_weights, b_cards, b_masks, b_ranks, b_weights,
                below0, below1, below2, c_weights, c_ranks, top, tied, out):
    """Three ranges at a showdown of hole cards alone.  Every pair of combos ``i`` of the
    first range and ``j`` of the second without a shared card meets the whole of the third
    range at once: its weight of combos without a card of either, above, level with and
    below ``level = max(a_ranks[i], b_ranks[j], top)``, comes from running sums by rank,
    less the combos that hold one of the six cards, plus those that hold two, less the
    three-card combos among them (inclusion-exclusion over the six cards: 6 + 15 + 20
    terms).  Each pot is booked to whoever holds the level, by how many share it.

    Ranks are dense (0..G-1, bigger is better); ``top``: the best known hand's rank (-1 if
    none), held by ``tied`` known hands.  ``below0[r]``: the third range's weight below
    rank ``r`` (r = 0..G); ``below1[c, r]`` / ``below2[p, r]``: the same among its combos
    holding card ``c`` / the card pair of colex index ``p``; ``c_weights`` / ``c_ranks``:
    its weight and rank by colex index of three cards.  Card rows sorted ascending; every
    weight an int64 (exact sums in any order).  ``out[i, who, n]``: the weight of deals in
    which ``who`` (0: the first range, 1: the second, 2: each known hand on top, 3: the
    third range) shares the pot ``n`` ways, for the first range's combo ``i``;
    ``out[i, 0, 0]``: every deal of combo ``i``.
    """
    g = below0.shape[0] - 1
    for i in range(a_cards.shape[0]):
        mask = a_masks[i]
        rank_a = a_ranks[i]
        weight_a = a_weights[i]
        dead = np.empty(6, np.int64)
        twos = np.empty(6, np.int64)           # each dead card's colex offsets: C(c, 2)
        threes = np.empty(6, np.int64)         # and C(c, 3)
        row = out[i]
        row[:, :] = 0
        for j in range(b_cards.shape[0]):
            if b_masks[j] & mask:
                continue
            rank_b = b_ranks[j]
            level = max(max(rank_a, rank_b), top)
            # the six cards in ascending order: a merge of two sorted rows
            x = 0
            y = 0
            for k in range(6):
                if y == 3 or (x < 3 and a_cards[i, x] < b_cards[j, y]):
                    c = np.int64(a_cards[i, x])
                    x += 1
                else:
                    c = np.int64(b_cards[j, y])
                    y += 1
                dead[k] = c
                twos[k] = (c * (c - 1)) >> 1
                threes[k] = (c * (c - 1) * (c - 2)) // 6
            below = below0[level]
            upto = below0[level + 1]
            total = below0[g]
            for s in range(6):
                c = dead[s]
                below -= below1[c, level]
                upto -= below1[c, level + 1]
                total -= below1[c, g]
            for t in range(1, 6):
                pair_base = twos[t]
                for s in range(t):
                    p = pair_base + dead[s]
                    below += below2[p, level]
                    upto += below2[p, level + 1]
                    total += below2[p, g]
                    for u in range(t + 1, 6):
                        q = p + threes[u]
                        w = c_weights[q]
                        r = c_ranks[q]
                        total -= w
                        below -= w * (r < level)
                        upto -= w * (r <= level)
            pair = weight_a * b_weights[j]
            above = (total - upto) * pair
            equal = (upto - below) * pair
            below *= pair
            row[0, 0] += total * pair
            sharing = (rank_a == level) + (rank_b == level) + tied * (top == level)
            row[3, 1] += above
            row[3, sharing + 1] += equal
            if rank_a == level:
                row[0, sharing + 1] += equal
                row[0, sharing] += below
            if rank_b == level:
                row[1, sharing + 1] += equal
                row[1, sharing] += below
            if top == level:
                row[2, sharing + 1] += equal
                row[2, sharing] += below
