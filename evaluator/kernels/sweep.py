"""Every combo against a range at once: sort by strength, then one sweep.

On a complete board each two-card combo has one value.  Sorted by value, the
weight a hand beats is the weight of every lower combo, less the lower combos
that share one of its cards; that card removal is one subtraction per card
from a running per-card sum (two combos of distinct hands share at most one
card, and the hand itself is never lower than itself).  Ties are the hand's
own value group, taken the same way, plus back the hand's own weight, which
both of its card sums removed.  So a river costs one evaluation, one radix
sort and two passes over the combos: microseconds where comparing every
pair of 1,326 combos takes milliseconds.  A turn runs the river sweep for
every river card, a flop for every turn and river, summing each combo's
(win + tie / 2) and its live weight over the runouts.

Combos are the game's hands in colex order of card ids (``cards[i]`` holds
combo ``i``'s two ids, low first); ``reach`` is ``(N,)``, or ``(N, K)``: ``K`` weight
vectors at once in ``river_showdown``, each row the weights of one combo, so
that a sweep reads them contiguously.  A combo that holds a board, runout or dead card is left
out of the sort: it neither wins nor counts as an opponent.
"""
import numpy as np

from .._jit import kernel
from .high import FLUSH_BITS, HAND_INIT, KEY_MASK, U64, flush_suit, hash_read

RADIX = 256


@kernel(inline="always")
def _combo_values(cards, live, key0, suit_masks, values, card_keys, rank_offsets,
                  rank_values, flush_values):
    """``values[i]``: combo ``i`` with the board of key ``key0`` (``HAND_INIT`` plus its
    card keys) and per-suit rank masks ``suit_masks``, for the live combos."""
    for i in range(cards.shape[0]):
        if not live[i]:
            continue
        a = cards[i, 0]
        b = cards[i, 1]
        key = key0 + card_keys[a] + card_keys[b]
        if key & FLUSH_BITS:
            s = flush_suit(key & FLUSH_BITS)
            mask = suit_masks[s]
            if (a & 3) == s:
                mask |= 1 << (a >> 2)
            if (b & 3) == s:
                mask |= 1 << (b >> 2)
            values[i] = flush_values[mask]
        else:
            values[i] = hash_read(rank_values, rank_offsets, key & KEY_MASK)


@kernel
def river_showdown(cards, combo_bits, board, dead_bits, reach, out, card_keys, rank_offsets,
                   rank_values, flush_values):
    """``out[i, k]``: the weight combo ``i`` beats less the weight it loses to, on a river
    (``call_matrix @ reach[:, k]``); 0 for a combo holding a board or dead card.
    ``reach`` and ``out`` are (N, K): each combo's K weights lie side by side, so every
    step of the sweep runs over K contiguous numbers."""
    N = cards.shape[0]
    K = reach.shape[1]
    keys = np.zeros(N, np.int64)
    spare = np.zeros(N, np.int64)
    count = np.zeros(RADIX, np.int64)
    low = np.zeros(K, np.float64)
    group = np.zeros(K, np.float64)
    whole = np.zeros(K, np.float64)
    low_cards = np.zeros((52, K), np.float64)
    group_cards = np.zeros((52, K), np.float64)
    all_cards = np.zeros((52, K), np.float64)
    key0 = HAND_INIT
    suit_masks = np.zeros(4, np.int64)
    for j in range(board.shape[0]):
        c = board[j]
        key0 += card_keys[c]
        suit_masks[c & 3] |= 1 << (c >> 2)
    n = 0
    for i in range(N):
        for k in range(K):
            out[i, k] = 0.0
        if combo_bits[i] & dead_bits:
            continue
        a = cards[i, 0]
        b = cards[i, 1]
        key = key0 + card_keys[a] + card_keys[b]
        if key & FLUSH_BITS:
            s = flush_suit(key & FLUSH_BITS)
            mask = suit_masks[s]
            if (a & 3) == s:
                mask |= 1 << (a >> 2)
            if (b & 3) == s:
                mask |= 1 << (b >> 2)
            v = np.int64(flush_values[mask])
        else:
            v = np.int64(hash_read(rank_values, rank_offsets, key & KEY_MASK))
        spare[n] = (v << 16) | i
        n += 1
        for k in range(K):
            w = reach[i, k]
            whole[k] += w
            all_cards[a, k] += w
            all_cards[b, k] += w
    for shift in (16, 24):
        count[:] = 0
        src = spare if shift == 16 else keys
        dst = keys if shift == 16 else spare
        for j in range(n):
            count[(src[j] >> shift) & 0xFF] += 1
        total = 0
        for d in range(RADIX):
            c = count[d]
            count[d] = total
            total += c
        for j in range(n):
            x = src[j]
            d = (x >> shift) & 0xFF
            dst[count[d]] = x
            count[d] += 1
    start = 0
    while start < n:
        v = spare[start] >> 16
        stop = start
        while stop < n and (spare[stop] >> 16) == v:
            i = spare[stop] & 0xFFFF
            a = cards[i, 0]
            b = cards[i, 1]
            for k in range(K):
                w = reach[i, k]
                group[k] += w
                group_cards[a, k] += w
                group_cards[b, k] += w
            stop += 1
        for j in range(start, stop):
            i = spare[j] & 0xFFFF
            a = cards[i, 0]
            b = cards[i, 1]
            for k in range(K):
                # beats: the lower combos clear of it; ties: its group clear of it (plus
                # itself, twice removed); loses: the rest of what is clear of it
                won = low[k] - low_cards[a, k] - low_cards[b, k]
                tied = group[k] - group_cards[a, k] - group_cards[b, k]
                met = whole[k] - all_cards[a, k] - all_cards[b, k]
                out[i, k] = 2.0 * won + tied - met
        for k in range(K):
            low[k] += group[k]
            group[k] = 0.0
        for j in range(start, stop):
            i = spare[j] & 0xFFFF
            a = cards[i, 0]
            b = cards[i, 1]
            for k in range(K):
                low_cards[a, k] += group_cards[a, k]
                low_cards[b, k] += group_cards[b, k]
                group_cards[a, k] = 0.0
                group_cards[b, k] = 0.0
        start = stop


@kernel
def call_signs(cards, combo_bits, board, dead_bits, with_card, out, card_keys, rank_offsets,
               rank_values, flush_values):
    """``out[i, j]`` = +1 / -1 / 0 as combo ``i`` beats, loses to or ties combo ``j`` on a
    river; 0 where they share a card or either holds a board or dead card.  ``with_card``
    (52, M) lists the combos holding each card (-1 past the end)."""
    N = cards.shape[0]
    values = np.zeros(N, np.int64)
    live = np.zeros(N, np.bool_)
    key0 = HAND_INIT
    suit_masks = np.zeros(4, np.int64)
    for j in range(board.shape[0]):
        c = board[j]
        key0 += card_keys[c]
        suit_masks[c & 3] |= 1 << (c >> 2)
    for i in range(N):
        live[i] = (combo_bits[i] & dead_bits) == 0
    _combo_values(cards, live, key0, suit_masks, values, card_keys, rank_offsets,
                  rank_values, flush_values)
    v16 = np.empty(N, np.int32)
    for i in range(N):
        v16[i] = values[i] if live[i] else -1
    for i in range(N):
        row = out[i]
        if not live[i]:
            row[:] = 0
            continue
        vi = v16[i]
        for j in range(N):
            vj = v16[j]
            row[j] = np.int8((vj < vi) & (vj >= 0)) - np.int8(vj > vi)
        for c in (cards[i, 0], cards[i, 1]):
            for m in range(with_card.shape[1]):
                j = with_card[c, m]
                if j < 0:
                    break
                row[j] = 0


@kernel
def runout_sweep(cards, combo_bits, board, dead_bits, runouts, reach, num, den,
                  card_keys, rank_offsets, rank_values, flush_values):
    """Sum over the runouts: ``num[i] += win + tie / 2`` and ``den[i] += total``, the
    weights (``reach``, (N,)) combo ``i`` beats, ties and meets clear of its cards.

    board : uint8, the known board (3 to 5 cards)
    dead_bits : uint64, the card mask of the board and dead cards
    runouts : uint8 (R, 5 - len(board)), the cards each runout adds (a river passes
        one empty runout)

    Each runout gathers the live combos with their values packed as
    ``value << 16 | index`` (values are 16-bit, N < 65,536), sorts those words on the
    value's two bytes (two stable counting passes) and sweeps them once."""
    N = cards.shape[0]
    keys = np.zeros(N, np.int64)
    spare = np.zeros(N, np.int64)
    count = np.zeros(RADIX, np.int64)
    low_cards = np.zeros(52, np.float64)
    group_cards = np.zeros(52, np.float64)
    all_cards = np.zeros(52, np.float64)
    base_key = HAND_INIT
    base_masks = np.zeros(4, np.int64)
    for j in range(board.shape[0]):
        c = board[j]
        base_key += card_keys[c]
        base_masks[c & 3] |= 1 << (c >> 2)
    suit_masks = np.zeros(4, np.int64)
    for r in range(runouts.shape[0]):
        key0 = base_key
        for s in range(4):
            suit_masks[s] = base_masks[s]
        out = dead_bits
        for j in range(runouts.shape[1]):
            c = runouts[r, j]
            key0 += card_keys[c]
            suit_masks[c & 3] |= 1 << (c >> 2)
            out |= U64(1) << U64(c)
        # gather: live combos, their values, the whole live weight and its card sums
        n = 0
        whole = 0.0
        all_cards[:] = 0.0
        for i in range(N):
            if combo_bits[i] & out:
                continue
            a = cards[i, 0]
            b = cards[i, 1]
            key = key0 + card_keys[a] + card_keys[b]
            if key & FLUSH_BITS:
                s = flush_suit(key & FLUSH_BITS)
                mask = suit_masks[s]
                if (a & 3) == s:
                    mask |= 1 << (a >> 2)
                if (b & 3) == s:
                    mask |= 1 << (b >> 2)
                v = np.int64(flush_values[mask])
            else:
                v = np.int64(hash_read(rank_values, rank_offsets, key & KEY_MASK))
            spare[n] = (v << 16) | i
            n += 1
            w = reach[i]
            whole += w
            all_cards[a] += w
            all_cards[b] += w
        # sort the packed words on bits 16..31: two stable counting passes
        for shift in (16, 24):
            count[:] = 0
            src = spare if shift == 16 else keys
            dst = keys if shift == 16 else spare
            for j in range(n):
                count[(src[j] >> shift) & 0xFF] += 1
            total = 0
            for d in range(RADIX):
                c = count[d]
                count[d] = total
                total += c
            for j in range(n):
                x = src[j]
                d = (x >> shift) & 0xFF
                dst[count[d]] = x
                count[d] += 1
        # sorted words are in spare; sweep the value groups from the weakest
        low = 0.0
        low_cards[:] = 0.0
        start = 0
        while start < n:
            v = spare[start] >> 16
            stop = start
            group = 0.0
            while stop < n and (spare[stop] >> 16) == v:
                i = spare[stop] & 0xFFFF
                w = reach[i]
                group += w
                group_cards[cards[i, 0]] += w
                group_cards[cards[i, 1]] += w
                stop += 1
            for j in range(start, stop):
                i = spare[j] & 0xFFFF
                a = cards[i, 0]
                b = cards[i, 1]
                w = reach[i]
                # differences of sums: rounding may leave -1e-17 where 0 is right
                won = max(low - low_cards[a] - low_cards[b], 0.0)
                tied = max(group - group_cards[a] - group_cards[b] + w, 0.0)
                num[i] += won + 0.5 * tied
                den[i] += whole - all_cards[a] - all_cards[b] + w
            low += group
            for j in range(start, stop):
                i = spare[j] & 0xFFFF
                a = cards[i, 0]
                b = cards[i, 1]
                low_cards[a] += group_cards[a]
                low_cards[b] += group_cards[b]
                group_cards[a] = 0.0
                group_cards[b] = 0.0
            start = stop
