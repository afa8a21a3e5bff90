"""Marker arrays: arguments whose ``ndim`` is a compile-time constant.

Numba compiles a kernel once per argument type, and an array's ``ndim`` is part
of its type, so an empty array of ``n`` dimensions passes a small integer that
the kernel's loops see as a constant (they unroll, or a branch compiles away).
"""
import numpy as np


def ndim_marker(n):
    """An array with ``n`` dimensions (``n`` >= 0; 0 gives a 0-d array): its ``ndim`` is
    the constant."""
    return np.zeros((1,) * n, np.uint8)


def unknown_cards(counts):
    """The ``unknown`` argument of ``best5_sample`` for these per-player counts: the counts
    as a (1, P) array, or an array of zeros when no player lacks cards."""
    counts = np.asarray(counts, np.int64)
    return counts.reshape(1, -1) if counts.any() else counts
