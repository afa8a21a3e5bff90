"""Marker arrays: arguments whose ``ndim`` is a compile-time constant.

Numba compiles a kernel once per argument type, and an array's ``ndim`` is part
of its type, so an empty array of ``n`` dimensions passes a small integer that
the kernel's loops see as a constant (they unroll, or a branch compiles away).
"""
import math

import numpy as np


def ndim_marker(n):
    """An array with ``n`` dimensions (``n`` >= 0; 0 gives a 0-d array): its ``ndim`` is
    the constant."""
    return np.zeros((1,) * n, np.uint8)


def deal_marker(need):
    """The ``draws`` argument of the sampling kernels: ``ndim_marker(need)`` for a whole
    board (5) or a flop's turn and river (2), where the count as a compile-time constant
    measured 1.06-1.08x pre-flop and 1.10-1.14x on a flop; else ``need`` zeros in one
    dimension, which the kernels read as a count at run time (``dealt_count``).  Three
    compiled kernels where one per count took six: 12 s less compiling in ``warmup``."""
    return ndim_marker(need) if need in (2, 5) else np.zeros(need, np.uint8)


def unknown_cards(counts):
    """The ``unknown`` argument of ``best5_sample`` for these per-player counts: the counts
    as a (1, P) array, or an array of zeros when no player lacks cards."""
    counts = np.asarray(counts, np.int64)
    return counts.reshape(1, -1) if counts.any() else counts


STRAIGHT_DEALT = 5      # dealt players the multiway range sampler's straight dealer serves


def dealer_marker(hidden):
    """The ``dealer`` argument of ``range_sampling.best5_sample_ranges`` for the cards each
    player is dealt with the board (``hidden``, 0 for ranged players and known hands): the
    straight dealer (``ndim_marker(M + 2)``) where every one of the M players dealt cards
    gets two and M is at most ``STRAIGHT_DEALT``; else the unit dealer (``ndim_marker(1)``).
    Each M is a kernel of its own: 1.10-1.27x the unit dealer up to six-handed, 1.04x
    nine-handed, where one more compile is not worth it."""
    dealt = [int(h) for h in hidden if h]
    if len(dealt) <= STRAIGHT_DEALT and all(h == 2 for h in dealt):
        return ndim_marker(len(dealt) + 2)
    return ndim_marker(1)


# the most bits a deal's board and combos may take of one generator step where the combos
# are drawn from the fraction the deal before left (``combo_marker``): each outcome's
# probability is then within 2**(CARRIED_BITS - 64) = 2**-18 of its share, no more than the
# first stream's own worst case (a range of 22,100 combos drawn from 32 bits)
CARRIED_BITS = 46


def combo_marker(equal_weights, counts, left, need, version):
    """The ``combo_draw`` argument of ``range_sampling.best5_sample_ranges_hu``:
    ``ndim_marker(2)`` where some weights differ; for equal weights ``ndim_marker(3)``, the
    combos drawn from the fraction the deal before left (the second stream), where
    ``version`` is 2 or later and the two ranges' combo ``counts`` times the board's ordered
    draws (``need`` cards from ``left``) fit in ``CARRIED_BITS`` bits, else
    ``ndim_marker(1)``, a generator step of their own (the first stream)."""
    if not equal_weights:
        return ndim_marker(2)
    outcomes = math.prod(int(n) for n in counts) * math.perm(int(left), int(need))
    if version >= 2 and outcomes <= 1 << CARRIED_BITS:
        return ndim_marker(3)
    return ndim_marker(1)
