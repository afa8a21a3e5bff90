"""Weights as the sweeps take them: read-only views, scaled by powers of two, split into
bands of magnitude, and whether they sum exactly (``exact_share``)."""
from __future__ import annotations

import math

import numpy as np

from .errors import RangeError

__all__ = ["exact_share", "readonly", "scaled", "bands", "weighted_sum", "BAND_BITS",
           "MAX_BANDS"]


def scaled(w: np.ndarray) -> tuple[np.ndarray, float]:
    """``(w', unit)`` with ``w = w' * unit``, ``unit`` a power of two (exact) that brings
    the largest weight to [0.5, 1): for weights the kernels will not sum as given."""
    e = math.frexp(float(w.max()))[1]
    with np.errstate(over="ignore", under="ignore"):
        out = np.ldexp(w, -e)
    lost = np.flatnonzero((out == 0) & (w > 0))
    if len(lost):
        raise RangeError(f"weights {float(w.max()):.3g} and {float(w[lost[0]]):.3g} are too far "
                         "apart to sum together (more than 2**1074 between them): the "
                         "smaller would be lost; drop the weights that small beside the "
                         "largest, or scale them", "weights")
    with np.errstate(over="ignore"):
        return readonly(out), float(np.ldexp(1.0, e))


def stats(weights: np.ndarray) -> tuple[int, float, int]:
    """``kernels.sweep.weight_stats`` of any array of weights."""
    from .kernels.sweep import weight_stats
    flat = np.ascontiguousarray(weights, np.float64).reshape(-1)
    return weight_stats(flat, flat.view(np.uint64))


def share_of(bits: int, total: float, passes: int) -> float:
    """``exact_share`` from ``stats``' bits and total."""
    from .kernels.sweep import CLOSE
    if bits < 0 or not 0 < total < math.inf:
        return CLOSE
    return 0.0 if math.log2(total * (2 * passes + 2)) + bits < 53 else CLOSE


def exact_share(reach: np.ndarray, passes: int) -> float:
    """The share of the live weight under which the sweep sums a combo pair by pair
    (``kernels.sweep.clear_weights``'s ``close_share``): 0 where every weight is a whole
    multiple of one power of two and ``passes`` sweeps' sums of them stay below
    ``2**53`` units, so that every running sum, and every difference of them, is exact
    (a range's weights of 1 or 0.5); ``CLOSE`` otherwise, where differences of running
    sums can cancel the digits of a combo clear of little weight."""
    bits, total, _ = stats(reach)
    return share_of(bits, total, passes)


def readonly(a: np.ndarray) -> np.ndarray:
    """A read-only view: the kernels take every weight vector as one type, so that one
    compilation serves ranges' vectors (read-only) and the caller's arrays alike."""
    if not a.flags.writeable:
        return a
    view = a.view()
    view.flags.writeable = False
    return view


def weighted_sum(weights: np.ndarray, values: np.ndarray) -> float:
    """``weights @ values`` (float64 vectors) on this thread (``kernels.sweep.dot``, both
    read-only: one compilation): numpy's ``@`` would hand a long vector to BLAS, whose
    threads spin on after it and take the cores from the sweeps' own threads."""
    from .kernels.sweep import dot
    return float(dot(readonly(weights), readonly(values)))


BAND_BITS = 26
"""Binary orders of magnitude of weight a band of ``showdown_values`` spans."""
MAX_BANDS = 8


def bands(rows: np.ndarray) -> tuple[list[np.ndarray], float]:
    """``rows`` (k, N) split into bands of weight, largest first, that add up to it:
    each row's weights within ``BAND_BITS`` binary orders of its largest, the next
    ``BAND_BITS`` below, and so on (the last band takes the rest).  A value is the
    beaten weight less the losing weight, and a sweep keeps it to about 2**-52 of the
    weight it sums: so a weight far below the rest (1e-20 beside 1), which decides the
    sign of a combo that ties or is blocked from the rest, is summed in a band of its
    own.  Weights that sum exactly (``exact_share``) stay in one band.  Returned with
    the rows' ``exact_share`` (a band's own is no larger)."""
    bits, total, spread = stats(rows)
    close = share_of(bits, total, 1)
    if close == 0.0 or spread < BAND_BITS:
        return [rows], close                # exact, or every weight within one band
    top = np.frexp(rows.max(axis=1))[1][:, None]
    with np.errstate(divide="ignore"):
        exponent = np.frexp(rows)[1]
    band = np.minimum((top - exponent) // BAND_BITS, MAX_BANDS - 1)
    band[rows == 0] = -1
    out = []
    for b in range(int(band.max()) + 1):
        part = np.where(band == b, rows, 0.0)
        if part.any():
            out.append(readonly(part))
    return out or [rows], close
