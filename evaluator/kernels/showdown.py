"""Showdown values and call matrices on a river: ``sweep.py``'s listing read as wins
less losses, for many reach vectors side by side, and as the signs of every pair.

What the kernels take of the game's combos is ``sweep.py``'s (``vectors.layout``).
"""
import numpy as np

from .._jit import kernel
from .sweep import (
    BAD_WEIGHT,
    BYTE,
    LARGEST,
    LOW16,
    OK,
    OUT_OF_SCALE,
    RADIX,
    S16,
    S24,
    S32,
    clear_weights,
    list_river,
    sweep_river,
)

SHOWDOWN_BLOCK = 32
"""Reach vectors a sweep of ``river_showdown`` carries side by side: their running sums
(52 x 32 numbers, twice) stay in the first-level cache."""


@kernel
def sweep_block(order, n, reach, out, below, whole, below_cards, all_cards):
    """``out[i, :]`` for the ``K`` vectors of ``reach`` (N, K) side by side (see
    ``river_showdown``); ``below``, ``whole`` (K,) and the card sums (52, K) are
    scratch."""
    K = reach.shape[1]
    below[:] = 0.0
    whole[:] = 0.0
    below_cards[:, :] = 0.0
    all_cards[:, :] = 0.0
    for j in range(n):
        x = order[j]
        i = x & LOW16
        a = (x >> S16) & BYTE
        b = (x >> S24) & BYTE
        for k in range(K):
            w = reach[i, k]
            whole[k] += w
            all_cards[a, k] += w
            all_cards[b, k] += w
    start = 0
    while start < n:
        v = order[start] >> S32
        stop = start
        while stop < n and (order[stop] >> S32) == v:
            x = order[stop]
            i = x & LOW16
            a = (x >> S16) & BYTE
            b = (x >> S24) & BYTE
            for k in range(K):
                out[i, k] = below[k] - below_cards[a, k] - below_cards[b, k] - whole[k] \
                    + all_cards[a, k] + all_cards[b, k] - reach[i, k]
            stop += 1
        for j in range(start, stop):
            x = order[j]
            i = x & LOW16
            a = (x >> S16) & BYTE
            b = (x >> S24) & BYTE
            for k in range(K):
                w = reach[i, k]
                below[k] += w
                below_cards[a, k] += w
                below_cards[b, k] += w
        for j in range(start, stop):
            x = order[j]
            i = x & LOW16
            a = (x >> S16) & BYTE
            b = (x >> S24) & BYTE
            for k in range(K):
                out[i, k] += below[k] - below_cards[a, k] - below_cards[b, k] + reach[i, k]
        start = stop


@kernel
def river_showdown(cards, combo_bits, class_start, member_words, member_bits, member_suits,
                   class_ranks, low, board, dead_bits, reach, out, close_share, card_keys,
                   rank_offsets, rank_values, flush_values):
    """``out[r, i]``: the weight combo ``i`` beats less the weight it loses to, on the
    river ``board``, against the weights ``reach[r]`` (``call_matrix @ reach[r]``), for
    each row ``r`` of ``reach`` (R, N); 0 for a combo holding a board or dead card.
    Returns ``BAD_WEIGHT`` (nothing written past the row) for a negative, nan or
    infinite weight, ``OUT_OF_SCALE`` for one past ``LARGEST``, else ``OK``.

    With ``B`` the clear weight strictly below a combo, ``E`` the clear weight up to
    its value (less itself) and ``M`` all the clear weight: it beats ``B``, loses
    ``M - E``, and ``B + E - M`` is the answer.  One vector is ``sweep_river`` less
    ``M``; more go ``SHOWDOWN_BLOCK`` at a time, side by side, so that every step of
    the sweep runs over contiguous numbers.  A combo clear of less than ``close_share``
    of a row's live weight (``clear_weights``) has that row's value summed pair by pair:
    ``B + E - M`` would cancel too many of its digits."""
    N = cards.shape[0]
    R = reach.shape[0]
    C = class_ranks.shape[0]
    for r in range(R):
        for i in range(N):
            w = reach[r, i]
            if not (w >= 0.0 and w <= LARGEST):
                return BAD_WEIGHT if not (w >= 0.0 and w < np.inf) else OUT_OF_SCALE
    words = np.empty(C + N, np.int64)
    spare = np.empty(C + N, np.int64)
    count = np.empty(RADIX, np.int64)
    order = np.empty(N, np.uint64)
    full = np.empty(5, np.uint8)
    for j in range(5):
        full[j] = board[j]
    n = list_river(cards, combo_bits, class_start, member_words, member_bits, member_suits,
                   class_ranks, low, full, dead_bits, words, spare, count, order, card_keys,
                   rank_offsets, rank_values, flush_values)
    out[:, :] = 0.0
    if R == 1:
        cards_sum = np.zeros(52, np.float64)
        row = out[0]
        weights = reach[0]
        sweep_river(order, n, weights, row, cards_sum)
        whole = 0.0
        cards_sum[:] = 0.0
        for j in range(n):
            x = order[j]
            w = weights[x & LOW16]
            whole += w
            cards_sum[(x >> S16) & BYTE] += w
            cards_sum[(x >> S24) & BYTE] += w
        for j in range(n):
            x = order[j]
            i = x & LOW16
            row[i] -= whole - cards_sum[(x >> S16) & BYTE] - cards_sum[(x >> S24) & BYTE] \
                + weights[i]
        careful_values(cards, combo_bits, dead_bits, order, n, reach, out, close_share)
        return OK
    K = SHOWDOWN_BLOCK
    block = np.zeros((N, K), np.float64)
    result = np.zeros((N, K), np.float64)
    below = np.empty(K, np.float64)
    whole_k = np.empty(K, np.float64)
    below_cards = np.empty((52, K), np.float64)
    all_cards = np.empty((52, K), np.float64)
    for start in range(0, R, K):
        k = min(K, R - start)          # a last, partial block: its other columns stay 0
        for t in range(k):
            row = reach[start + t]
            for j in range(n):
                i = order[j] & LOW16
                block[i, t] = row[i]
        # whole contiguous blocks, so that the sweep's inner loops run over K numbers
        sweep_block(order, n, block, result, below, whole_k, below_cards, all_cards)
        for t in range(k):
            row = out[start + t]
            for j in range(n):
                i = order[j] & LOW16
                row[i] = result[i, t]
    careful_values(cards, combo_bits, dead_bits, order, n, reach, out, close_share)
    return OK


@kernel
def careful_values(cards, combo_bits, dead_bits, order, n, reach, out, close_share):
    """``river_showdown``'s value of each row's careful combos (``clear_weights``),
    summed pair by pair over the listing ``order``: the clear weight below, less the
    clear weight above."""
    N = cards.shape[0]
    if close_share == 0.0:
        return
    met = np.empty(N, np.float64)
    careful = np.empty(N, np.int64)
    value = np.full(N, -1, np.int64)
    for j in range(n):
        value[order[j] & LOW16] = np.int64(order[j] >> S32)
    for r in range(reach.shape[0]):
        weights = reach[r]
        status, m = clear_weights(cards, combo_bits, dead_bits, weights, met, careful,
                                  close_share)
        if status != OK:
            continue
        for k in range(m):
            i = careful[k]
            v = value[i]
            if v < 0:
                continue
            mine = combo_bits[i]
            share = 0.0
            for j in range(n):
                x = order[j]
                other = x & LOW16
                if combo_bits[other] & mine:
                    continue
                u = np.int64(x >> S32)
                if u < v:
                    share += weights[other]
                elif u > v:
                    share -= weights[other]
            out[r, i] = share


@kernel
def call_signs(cards, combo_bits, class_start, member_words, member_bits, member_suits,
               class_ranks, low, board, dead_bits, with_card, out, card_keys, rank_offsets,
               rank_values, flush_values):
    """``out[i, j]`` = +1 / -1 / 0 as combo ``i`` beats, loses to or ties combo ``j`` on
    the river ``board``; 0 where they share a card or either holds a board or dead
    card.  ``with_card`` (52, M) lists the combos holding each card (-1 past the end)."""
    N = cards.shape[0]
    C = class_ranks.shape[0]
    words = np.empty(C + N, np.int64)
    spare = np.empty(C + N, np.int64)
    count = np.empty(RADIX, np.int64)
    order = np.empty(N, np.uint64)
    full = np.empty(5, np.uint8)
    for j in range(5):
        full[j] = board[j]
    n = list_river(cards, combo_bits, class_start, member_words, member_bits, member_suits,
                   class_ranks, low, full, dead_bits, words, spare, count, order, card_keys,
                   rank_offsets, rank_values, flush_values)
    value = np.full(N, -1, np.int32)                # -1: holds a board or dead card
    for j in range(n):
        value[order[j] & LOW16] = order[j] >> S32
    for i in range(N):
        row = out[i]
        vi = value[i]
        if vi < 0:
            row[:] = 0
            continue
        for j in range(N):
            vj = value[j]
            row[j] = np.int8((vj < vi) & (vj >= 0)) - np.int8(vj > vi)
        for c in (cards[i, 0], cards[i, 1]):
            for m in range(with_card.shape[1]):
                j = with_card[c, m]
                if j < 0:
                    break
                row[j] = 0
