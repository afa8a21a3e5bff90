"""Many hands at once as card rows and card masks, and the rows' lexicographic order.

A 40% range of 6-card Omaha holds 8.1 million hands: numpy's column-at-a-time forms of
these take a second each there (a float conversion per column to find a card, a
lexsort of six columns), a loop over the hands here a few tens of milliseconds.
"""
import numpy as np

from .._jit import kernel
from ._intrinsics import trailing_zeros

U64 = np.uint64
ONE = np.uint64(1)
CARDS = 64                       # card ids fit in 6 bits: a counting sort's buckets


@kernel
def rows_of_masks(masks, rows):
    """``rows[i]``: the card ids of ``masks[i]`` in increasing order (each mask holds
    ``rows.shape[1]`` cards)."""
    hole = rows.shape[1]
    for i in range(masks.shape[0]):
        m = masks[i]
        for j in range(hole):
            rows[i, j] = trailing_zeros(m)
            m &= m - ONE


@kernel
def masks_of_rows(rows, masks):
    """``masks[i]``: the card mask of ``rows[i]`` (card ids below 64)."""
    for i in range(rows.shape[0]):
        m = U64(0)
        for j in range(rows.shape[1]):
            m |= ONE << U64(rows[i, j])
        masks[i] = m


@kernel
def lex_order(rows, order):
    """``order``: the row indices by their cards, first column first (``np.lexsort`` of
    the columns, last key first): a stable counting sort a column at a time, from the
    last column to the first."""
    n = rows.shape[0]
    spare = np.empty(n, np.int64)
    count = np.empty(CARDS + 1, np.int64)
    for i in range(n):
        order[i] = i
    source, target = order, spare
    for j in range(rows.shape[1] - 1, -1, -1):
        count[:] = 0
        for i in range(n):
            count[rows[i, j] + 1] += 1
        for c in range(CARDS):
            count[c + 1] += count[c]
        for k in range(n):
            i = source[k]
            c = rows[i, j]
            target[count[c]] = i
            count[c] += 1
        source, target = target, source
    if rows.shape[1] % 2:                  # an odd number of passes ended in ``spare``
        order[:] = spare


@kernel
def take_rows(rows, order, out):
    """``out[k] = rows[order[k]]`` (numpy's fancy index copies a short row at a time)."""
    for k in range(order.shape[0]):
        i = order[k]
        for j in range(rows.shape[1]):
            out[k, j] = rows[i, j]


def warm() -> None:
    """Compile these kernels for the arrays their callers pass: rows read-only (a range's
    combos) or not, masks the same."""
    rows = np.array([[0, 1, 2], [3, 4, 5]], np.uint8)
    masks = np.empty(2, np.uint64)
    for writable in (True, False):
        rows.flags.writeable = writable
        masks_of_rows(rows, masks)
        order = np.empty(2, np.int64)
        lex_order(rows, order)
        take_rows(rows, order, np.empty((2, 3), np.uint8))
        masks.flags.writeable = writable
        rows_of_masks(masks, np.empty((2, 3), np.uint8))
        masks = masks.copy()
