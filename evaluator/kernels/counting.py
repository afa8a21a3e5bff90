"""The counting convention every equity kernel fills.

Counts are integers.  For ``P`` players, ``hi_full[p, k]`` counts the boards
where ``p`` shares the whole pot with ``k - 1`` others; in hi-lo games
``joint[p, a, b]`` counts the boards with a qualifying low where ``p`` shares
the high half with ``a - 1`` others and the low half with ``b - 1`` others
(0: misses that half).  Nothing else is counted: wins, ties, each half's
shares and squared shares follow from these in ``engine.results.Counts``.
``tally`` counts value arrays this way; every other kernel fills the same
two arrays.
"""

import numpy as np

from .._jit import kernel


@kernel
def tally(hi, lo, hilo, hi_full, joint):
    """Add every board's outcome to the counts.

    hi, lo : int32 (P, N) values per player and board (lo ignored unless hilo;
        a low value of 0 means no qualifying low)
    hi_full : int64 (P, P + 1), joint : int64 (P, P + 1, P + 1) (hi-lo only), the
        layout of ``engine.results.Counts``: a board without a low adds 1 at
        ``hi_full[p, k]`` for each of its k high winners, a board with one adds 1 at
        ``joint[p, a, b]`` for each player who wins a half (a, b: the winners of
        each half, 0 for a half p misses).
    """
    players, boards = hi.shape
    for t in range(boards):
        best = hi[0, t]
        for p in range(1, players):
            if hi[p, t] > best:
                best = hi[p, t]
        kh = 0
        for p in range(players):
            if hi[p, t] == best:
                kh += 1
        best_lo = 0
        kl = 0
        if hilo:
            for p in range(players):
                if lo[p, t] > best_lo:
                    best_lo = lo[p, t]
            if best_lo > 0:
                for p in range(players):
                    if lo[p, t] == best_lo:
                        kl += 1
        if kl == 0:
            # the high takes the pot: counted without branching on who won, which no
            # predictor learns when the hands are close
            for p in range(players):
                hi_full[p, kh] += np.int64(hi[p, t] == best)
            continue
        for p in range(players):
            a = kh if hi[p, t] == best else 0
            b = kl if lo[p, t] == best_lo else 0
            if a or b:
                joint[p, a, b] += 1
