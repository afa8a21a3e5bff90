"""The counting convention every equity kernel fills.

Counts are integers.  For ``P`` players, ``hi_full[p, k]`` counts the boards
where ``p`` shares the whole pot with ``k - 1`` others, ``hi_half[p, k]`` and
``lo_half[p, k]`` the boards where ``p`` shares the high or the low half
(hi-lo games with a qualifying low).  Python turns them into exact fractions.
``tally`` counts value arrays this way; the fused kernels elsewhere count in
the same layout.
"""

import numpy as np

from .._jit import kernel


@kernel
def tally(hi, lo, hilo, scoops, splits, hi_full, hi_half, lo_half, squares):
    """Add every board's outcome to the counts.

    hi, lo : int32 (P, N) values per player and board (lo ignored unless hilo;
        a low value of 0 means no qualifying low)
    scoops, splits : int64 (P,) boards where p takes the whole pot / a part of it
    hi_full, hi_half, lo_half : int64 (P, P + 1) as in the module doc
    squares : float64 (P,) sum over boards of the squared pot share (for the
        standard error of a sampled equity)
    """
    players, boards = hi.shape
    # a sole winner's squared share is 1, each of k tied winners' (1 / k) ** 2
    share_squared = np.zeros(players + 1)
    for w in range(1, players + 1):
        share_squared[w] = (1.0 / w) * (1.0 / w)
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
                high = np.int64(hi[p, t] == best)
                hi_full[p, kh] += high
                squares[p] += high * share_squared[kh]
                scoops[p] += high & np.int64(kh == 1)
                splits[p] += high & np.int64(kh > 1)
            continue
        for p in range(players):
            high = hi[p, t] == best
            low = lo[p, t] == best_lo
            share = 0.0
            if high:
                hi_half[p, kh] += 1
                share = 0.5 / kh
            if low:
                lo_half[p, kl] += 1
                share += 0.5 / kl
            squares[p] += share * share
            if high and kh == 1 and low and kl == 1:
                scoops[p] += 1
            elif high or low:
                splits[p] += 1
