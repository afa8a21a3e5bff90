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


MASKED_PLAYERS = 12     # players up to which a block's winners are counted by bit mask


@kernel
def block_counts(players, slots):
    """The counters ``count_block`` fills for ``players`` players: (by mask, per player),
    int64 (4, 2 ** players or 0) and (4, players, players + 1), zeroed; and its two
    int32 scratch rows of ``slots`` deals."""
    masks = 1 << players if players <= MASKED_PLAYERS else 0
    return (np.zeros((4, masks), np.int64), np.zeros((4, players, players + 1), np.int64),
            np.empty(slots, np.int32), np.empty(slots, np.int32))


@kernel
def count_block(values, players, deals, by_mask, by_player, best, won):
    """Count the winners of ``deals`` deals whose values are ``values[p, d]`` (the first
    ``players`` rows), into the counters of ``block_counts``; ``add_block_counts`` adds
    them to ``hi_full`` at the end.

    Up to ``MASKED_PLAYERS`` players, each deal's winners are a bit mask made in loops over
    the deals (which run on vector registers), and the deal is counted under its mask;
    beyond, per player.  Either way in four sets of counters, deal by deal, so that an
    increment does not wait on the last deal's store to the same counter.  On a Zen 4, three
    players: the multiway range sampler 33.1 M deals/s counting by mask deal by deal, 38.5
    with the masks made in loops over the deals.
    """
    if by_mask.shape[1]:
        for d in range(deals):
            best[d] = values[0, d]
        for p in range(1, players):
            row = values[p]
            for d in range(deals):
                best[d] = max(best[d], row[d])
        for d in range(deals):
            won[d] = 0
        for p in range(players):
            row = values[p]
            for d in range(deals):
                won[d] |= np.int32(row[d] == best[d]) << np.int32(p)
        for d in range(deals):
            by_mask[d & 3, won[d]] += 1
        return
    for d in range(deals):
        top = values[0, d]
        for p in range(1, players):
            top = max(top, values[p, d])
        winners = 0
        for p in range(players):
            winners += values[p, d] == top
        lane = by_player[d & 3]
        for p in range(players):
            lane[p, winners] += values[p, d] == top


@kernel
def add_block_counts(by_mask, by_player, hi_full):
    """Add the counters ``count_block`` filled to ``hi_full`` (P, P + 1)."""
    players = by_player.shape[1]
    for lane in range(4):
        for p in range(players):
            for w in range(players + 1):
                hi_full[p, w] += by_player[lane, p, w]
        for mask in range(by_mask.shape[1]):
            seen = by_mask[lane, mask]
            if seen:
                winners = 0
                for p in range(players):
                    winners += (mask >> p) & 1
                for p in range(players):
                    if (mask >> p) & 1:
                        hi_full[p, winners] += seen
