"""The flop study's sweep: every complete board once for all the flops that hold it.

A complete board is the same deal for every flop among its cards, and boards a renaming
of suits maps onto each other give the same totals when the ranges and the dead cards
are left as they are by it.  ``canonical_runouts`` names each runout of each flop by its
board's class; ``board_totals`` sweeps each class once (``sweep.list_river``, then one
pass with the hero's weights); ``flop_deals`` counts each flop's deals in closed form.
``vectors.flop_totals`` puts them together.
"""
import numpy as np

from .._jit import kernel
from .high import ONE, U64
from .sweep import BYTE, CLOSE, LOW16, RADIX, S16, S24, S32, list_river


@kernel
def canonical_runouts(flops, live_bits, suit_maps, keys):
    """For each flop ``f`` (uint8 (F, 3)) and each runout, two cards of ``live_bits`` not
    on it taken in id order: ``keys[f, r]``, the complete board's class under the suit
    renamings ``suit_maps`` (int64 (k, 4): suit ``s`` becomes ``suit_maps[g, s]``), named
    by its smallest image read as 52 bits, 13 ranks a suit (``board_of_key`` reads it
    back).  Equal keys, equal boards up to a renaming the ranges and dead cards do not
    see."""
    F = flops.shape[0]
    K = suit_maps.shape[0]
    shifts = 13 * suit_maps
    for f in range(F):
        f0 = f1 = f2 = f3 = 0
        flop_bits = U64(0)
        for j in range(3):
            c = flops[f, j]
            bit = 1 << (c >> 2)
            s = c & 3
            f0 |= bit if s == 0 else 0
            f1 |= bit if s == 1 else 0
            f2 |= bit if s == 2 else 0
            f3 |= bit if s == 3 else 0
            flop_bits |= ONE << U64(c)
        left = live_bits & ~flop_bits
        r = 0
        for t in range(52):
            if not (left >> U64(t)) & ONE:
                continue
            bt = 1 << (t >> 2)
            st = t & 3
            t0 = f0 | (bt if st == 0 else 0)
            t1 = f1 | (bt if st == 1 else 0)
            t2 = f2 | (bt if st == 2 else 0)
            t3 = f3 | (bt if st == 3 else 0)
            for v in range(t + 1, 52):
                if not (left >> U64(v)) & ONE:
                    continue
                bv = 1 << (v >> 2)
                sv = v & 3
                m0 = t0 | (bv if sv == 0 else 0)
                m1 = t1 | (bv if sv == 1 else 0)
                m2 = t2 | (bv if sv == 2 else 0)
                m3 = t3 | (bv if sv == 3 else 0)
                best = (m0 << shifts[0, 0]) | (m1 << shifts[0, 1]) | (m2 << shifts[0, 2]) \
                    | (m3 << shifts[0, 3])
                for g in range(1, K):
                    key = (m0 << shifts[g, 0]) | (m1 << shifts[g, 1]) | (m2 << shifts[g, 2]) \
                        | (m3 << shifts[g, 3])
                    best = min(best, key)
                keys[f, r] = best
                r += 1


@kernel
def boards_of_keys(keys, boards):
    """The five card ids of each ``canonical_runouts`` key, ascending."""
    for m in range(keys.shape[0]):
        key = keys[m]
        j = 0
        for s in range(4):
            for r in range(13):
                if (key >> (13 * s + r)) & 1:
                    boards[m, j] = 4 * r + s
                    j += 1
        boards[m].sort()


@kernel
def board_totals(cards, combo_bits, class_start, member_words, member_bits, member_suits,
                 class_ranks, low, boards, dead_bits, reach, hero, out, card_keys,
                 rank_offsets, rank_values, flush_values):
    """For each complete board (uint8 (M, 5)): ``out[m] = (won, tied)``, the weights of
    the deals ``hero`` wins and ties against ``reach`` on it, each deal weighed by both
    combos' weights, combos holding a dead card (``dead_bits``) left out.  ``combo_bits``
    and ``member_bits`` may carry bit 63 on combos neither range holds: the listing then
    leaves them out too."""
    N = cards.shape[0]
    C = class_ranks.shape[0]
    words = np.empty(C + N, np.int64)
    spare = np.empty(C + N, np.int64)
    count = np.empty(RADIX, np.int64)
    order = np.empty(N, np.uint64)
    below_cards = np.zeros(52, np.float64)
    full = np.empty(5, np.uint8)
    skip = (ONE << U64(63)) | dead_bits
    for m in range(boards.shape[0]):
        out_bits = skip
        for j in range(5):
            full[j] = boards[m, j]
            out_bits |= ONE << U64(boards[m, j])
        n = list_river(cards, combo_bits, class_start, member_words, member_bits,
                       member_suits, class_ranks, low, full, out_bits, words, spare, count,
                       order, card_keys, rank_offsets, rank_values, flush_values)
        below = 0.0
        below_cards[:] = 0.0
        won = 0.0
        upto = 0.0
        start = 0
        while start < n:
            v = order[start] >> S32
            stop = start
            while stop < n and (order[stop] >> S32) == v:
                x = order[stop]
                h = hero[x & LOW16]
                if h > 0.0:
                    won += h * (below - below_cards[(x >> S16) & BYTE]
                                - below_cards[(x >> S24) & BYTE])
                stop += 1
            for j in range(start, stop):
                x = order[j]
                w = reach[x & LOW16]
                if w > 0.0:
                    below += w
                    below_cards[(x >> S16) & BYTE] += w
                    below_cards[(x >> S24) & BYTE] += w
            for j in range(start, stop):
                x = order[j]
                i = x & LOW16
                h = hero[i]
                if h > 0.0:
                    upto += h * (below - below_cards[(x >> S16) & BYTE]
                                 - below_cards[(x >> S24) & BYTE] + reach[i])
            start = stop
        out[m, 0] = won
        out[m, 1] = upto - won


@kernel
def flop_deals(cards, combo_bits, flops, dead_bits, reach, hero, out):
    """For each flop: ``out[f] = (deals, pairs, careful)``: the hero-weighted weight of the
    opposing combos clear of each hero combo, the flop and the dead cards; how many such
    pairs of combos with weight there are; and how many hero combos meet less than
    ``CLOSE`` of the live opposing weight (their sums would cancel: the caller asks the
    engine instead)."""
    N = cards.shape[0]
    cards_sum = np.zeros(52, np.float64)
    cards_live = np.zeros(52, np.int64)
    for f in range(flops.shape[0]):
        known = dead_bits
        for j in range(3):
            known |= ONE << U64(flops[f, j])
        whole = 0.0
        live = 0
        cards_sum[:] = 0.0
        cards_live[:] = 0
        for i in range(N):
            w = reach[i]
            if w > 0.0 and not (combo_bits[i] & known):
                whole += w
                live += 1
                cards_sum[cards[i, 0]] += w
                cards_sum[cards[i, 1]] += w
                cards_live[cards[i, 0]] += 1
                cards_live[cards[i, 1]] += 1
        deals = 0.0
        pairs = 0
        careful = 0
        for i in range(N):
            h = hero[i]
            if h > 0.0 and not (combo_bits[i] & known):
                a = cards[i, 0]
                b = cards[i, 1]
                w = reach[i]
                met = whole - cards_sum[a] - cards_sum[b] + w
                meets = live - cards_live[a] - cards_live[b] + (w > 0.0)
                if meets:
                    deals += h * met
                    pairs += meets
                    if met < whole * CLOSE:
                        careful += 1
        out[f, 0] = deals
        out[f, 1] = pairs
        out[f, 2] = careful
