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
