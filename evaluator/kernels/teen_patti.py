"""Teen Patti kernels: three cards, one lookup.

The table (``teen_patti``, uint16, one row per option) is indexed by
``169 * r0 + 13 * r1 + r2 + 2197 * suited`` with the ranks in any order.
"""
from .._jit import kernel


@kernel
def evaluate_rows(hands, out, table):
    """out[i] = value of hands[i]; hands uint8 (n, 3), table uint16 (4394,)."""
    for i in range(hands.shape[0]):
        a = hands[i, 0]
        b = hands[i, 1]
        c = hands[i, 2]
        suited = ((a ^ b) | (a ^ c)) & 3 == 0
        out[i] = table[169 * (a >> 2) + 13 * (b >> 2) + (c >> 2) + 2197 * suited]
