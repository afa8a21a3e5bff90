"""Exact equity by board rank multisets, for best-five games and Omaha.

A board's non-flush values depend only on the ranks it adds, so each rank
multiset of the missing board cards is evaluated once and weighted by the
number of suit choices that deal it.  Where a flush is possible the boards of
a multiset split into classes by the exact ranks dealt in the flush suit.
Kernels return -1 where two suits could both flush; the caller then walks the
boards (``walks``).

``best5_exact`` and ``omaha_exact`` each write out the split of a multiset into
distinct ranks and its suit classes: the same steps as inline helpers
(``deck_by_rank``, ``split_multiset``, ``suit_split`` on the branch
``ab-multiset-helpers``) measured 0.96x on the heads-up pre-flop query and 0.955x
on QQ+,AKs against a random hand.  Rerun with
``python benchmarks/ab.py ab-multiset-helpers "HU exact" QQ+`` (above 1: the
written-out loops are faster).
"""

import numpy as np

from .._jit import kernel
from .dealing import live_cards
from .high import (
    KEY_MASK,
    ONE,
    U64,
    hash_read,
)


@kernel
def class_tables():
    """Constant tables of the rank-multiset kernels.

    Returns (binom, bits, subsets, count): binomials C(n, k) for n, k <= 4;
    the number of set bits of 0..31; and ``subsets[n, t, :count[n, t]]``, the
    subsets of n distinct ranks with at least t members.
    """
    binom = np.zeros((5, 5), np.int64)
    for n in range(5):
        binom[n, 0] = 1
        for j in range(1, n + 1):
            binom[n, j] = binom[n - 1, j - 1] + binom[n - 1, j]
    bits = np.zeros(32, np.int64)
    for sub in range(32):
        for d in range(5):
            bits[sub] += (sub >> d) & 1
    subsets = np.empty((6, 6, 32), np.int64)
    count = np.zeros((6, 6), np.int64)
    for n in range(6):
        for t in range(6):
            for sub in range(1 << n):
                if bits[sub] >= t:
                    subsets[n, t, count[n, t]] = sub
                    count[n, t] += 1
    return binom, bits, subsets, count


@kernel
def best5_exact(holes, known, live, multisets, card_keys, rank_offsets, rank_values,
                flush_values, hi_full, consts):
    """Exact counts for best-five games by board *rank multisets* and flush classes.

    A board's non-flush values depend only on the ranks it adds, so every
    rank multiset is evaluated once and weighted by the number of suit choices
    that deal it (``prod C(live of rank r, copies of r)``).  Suits matter only
    where some player can reach five of one suit: suit ``s`` needs at least
    ``t_s = 5 - board cards of s - most hole cards of s`` new cards of ``s``.
    When no two suits can both reach their ``t_s``, the boards of a multiset
    fall into disjoint classes: for each such suit, the exact set of new ranks
    dealt in that suit (counted by binomials), plus the rest, which plays the
    non-flush values.  A class costs one flush lookup per player.

    multisets : uint8 (K, need) each row a sorted multiset of new-card ranks
    hi_full : int64 (P, P + 1) incremented as in ``tally``
    consts : the tuple ``class_tables()`` returns

    Returns the number of boards counted, or -1 when two suits can both flush
    (the caller enumerates boards instead).
    """
    binom, bits, subsets, count = consts
    players, hole = holes.shape
    k = known.shape[0]
    need = multisets.shape[1]
    alive = np.zeros((13, 4), np.int64)
    per_rank = np.zeros(13, np.int64)
    for j in range(live.shape[0]):
        alive[live[j] >> 2, live[j] & 3] = 1
        per_rank[live[j] >> 2] += 1
    rank_keys = np.empty(13, np.uint64)
    for r in range(13):
        rank_keys[r] = card_keys[4 * r] & KEY_MASK
    known_key = U64(0)
    known_count = np.zeros(4, np.int64)
    known_mask = np.zeros(4, np.int64)
    for j in range(k):
        known_key += card_keys[known[j]] & KEY_MASK
        known_count[known[j] & 3] += 1
        known_mask[known[j] & 3] |= 1 << (known[j] >> 2)
    hole_keys = np.empty(players, np.uint64)
    hole_count = np.zeros((players, 4), np.int64)
    hole_mask = np.zeros((players, 4), np.int64)
    for p in range(players):
        hole_keys[p] = known_key
        for j in range(hole):
            c = holes[p, j]
            hole_keys[p] += card_keys[c] & KEY_MASK
            hole_count[p, c & 3] += 1
            hole_mask[p, c & 3] |= 1 << (c >> 2)
    # the suits that can flush and the new cards each needs
    suits = np.empty(4, np.int64)
    reach = np.empty(4, np.int64)
    nsuits = 0
    for s in range(4):
        most = 0
        for p in range(players):
            most = max(most, hole_count[p, s])
        t = 5 - known_count[s] - most
        if t <= need:
            suits[nsuits] = s
            reach[nsuits] = max(t, 0)
            nsuits += 1
    for a in range(nsuits):
        for b in range(a + 1, nsuits):
            if reach[a] + reach[b] <= need:
                return -1
    # the loop below indexes with unsigned numbers only: Numba guards every read
    # through a signed index against negative values, and that was a third of its time
    ranks = np.empty(need, np.uint64)
    copies = np.empty(need, np.uint64)
    inside = np.empty(need, np.int64)
    outside = np.empty(need, np.int64)
    plain = np.empty(players, np.int64)
    values = np.empty(players, np.int64)
    alive_u = alive.astype(np.uint64)
    per_rank_u = per_rank.astype(np.uint64)
    total_boards = 0
    win0 = 0
    win1 = 0
    split = 0
    for i in range(U64(multisets.shape[0])):
        distinct = U64(0)
        key = U64(0)
        for j in range(U64(need)):
            r = U64(multisets[i, j])
            key += rank_keys[r]
            if j > 0 and r == ranks[distinct - ONE]:
                copies[distinct - ONE] += ONE
            else:
                ranks[distinct] = r
                copies[distinct] = ONE
                distinct += ONE
        boards = 1
        for d in range(distinct):
            have = per_rank_u[ranks[d]]
            if copies[d] > have:
                boards = 0
                break
            boards *= binom[have, copies[d]]
        if boards == 0:
            continue
        total_boards += boards
        for p in range(players):
            h = (key + hole_keys[p]) & KEY_MASK
            plain[p] = hash_read(rank_values, rank_offsets, h)
        rest = boards
        for q in range(nsuits):
            s = U64(suits[q])
            t = U64(reach[q])
            if t > distinct:
                continue
            for d in range(distinct):
                r = ranks[d]
                live_in_suit = alive_u[r, s]
                have = per_rank_u[r]
                inside[d] = binom[have - ONE, copies[d] - ONE] if live_in_suit else 0
                outside[d] = binom[have - live_in_suit, copies[d]]
            for x in range(U64(count[distinct, t])):
                sub = U64(subsets[distinct, t, x])
                ways = 1
                mask = U64(0)
                for d in range(distinct):
                    if (sub >> d) & ONE:
                        ways *= inside[d]
                        mask |= ONE << ranks[d]
                    else:
                        ways *= outside[d]
                if ways == 0:
                    continue
                rest -= ways
                in_suit = U64(known_count[s]) + U64(bits[sub])
                if players == 2:
                    # heads-up: three outcomes, kept in scalars (a third faster)
                    v0 = plain[0]
                    v1 = plain[1]
                    if U64(hole_count[0, s]) + in_suit >= U64(5):
                        v0 = max(v0, np.int64(flush_values[mask | U64(hole_mask[0, s])
                                                           | U64(known_mask[s])]))
                    if U64(hole_count[1, s]) + in_suit >= U64(5):
                        v1 = max(v1, np.int64(flush_values[mask | U64(hole_mask[1, s])
                                                           | U64(known_mask[s])]))
                    win0 += ways if v0 > v1 else 0
                    win1 += ways if v1 > v0 else 0
                    split += ways if v0 == v1 else 0
                    continue
                best = 0
                for p in range(players):
                    v = plain[p]
                    if U64(hole_count[p, s]) + in_suit >= U64(5):
                        f = np.int64(flush_values[mask | U64(hole_mask[p, s])
                                                  | U64(known_mask[s])])
                        if f > v:
                            v = f
                    values[p] = v
                    if v > best:
                        best = v
                winners = 0
                for p in range(players):
                    if values[p] == best:
                        winners += 1
                for p in range(players):
                    if values[p] == best:
                        hi_full[p, winners] += ways
        best = 0
        for p in range(players):
            if plain[p] > best:
                best = plain[p]
        winners = 0
        for p in range(players):
            if plain[p] == best:
                winners += 1
        for p in range(players):
            if plain[p] == best:
                hi_full[p, winners] += rest
    if players == 2:
        hi_full[0, 1] += win0
        hi_full[1, 1] += win1
        hi_full[0, 2] += split
        hi_full[1, 2] += split
    return total_boards


@kernel
def omaha_exact(holes, known, live, multisets, hilo, card_keys, board_offsets, board_index,
                omaha_pairs, omaha_flush, low_card_bits, omaha_low, hi_full, joint, consts):
    """Exact Omaha counts by board rank multisets and flush classes (as ``best5_exact``).

    The non-flush high (the ``omaha_pairs`` row of the board's ranks) and the
    8-or-better low depend only on the ranks, so each multiset is evaluated
    once.  A flush needs three board cards of one suit, so suit ``s`` matters
    when a player holds two cards of it and at least ``3 - board cards of s``
    new cards come in ``s``; the boards split into classes by the exact new
    ranks dealt in that suit when no two suits can both get there.

    Counts as in ``tally``; ``consts`` is what ``class_tables()`` returns.
    Returns the boards counted, or -1 when two suits could both flush (the
    caller walks the boards instead).
    """
    binom, bits, subsets, count = consts
    players, hole = holes.shape
    k = known.shape[0]
    need = multisets.shape[1]
    width = omaha_pairs.shape[1]
    pairs_flat = omaha_pairs.reshape(-1)
    npairs = hole * (hole - 1) // 2
    alive = np.zeros((13, 4), np.int64)
    per_rank = np.zeros(13, np.int64)
    for j in range(live.shape[0]):
        alive[live[j] >> 2, live[j] & 3] = 1
        per_rank[live[j] >> 2] += 1
    pair_cols = np.empty((players, npairs), np.int64)
    pair_suits = np.empty((players, npairs), np.int64)   # suit of a suited pair, else -1
    hole_lows = np.empty(players, np.int64)
    suited = np.zeros(4, np.int64)                       # someone holds two cards of the suit
    for p in range(players):
        t = 0
        low = 0
        for a in range(hole):
            low |= low_card_bits[holes[p, a]]
            for b in range(a + 1, hole):
                ca = holes[p, a]
                cb = holes[p, b]
                pair_cols[p, t] = 13 * (ca >> 2) + (cb >> 2)
                pair_suits[p, t] = (ca & 3) if (ca & 3) == (cb & 3) else -1
                if pair_suits[p, t] >= 0:
                    suited[pair_suits[p, t]] = 1
                t += 1
        hole_lows[p] = low
    known_key = U64(0)
    known_low = 0
    known_count = np.zeros(4, np.int64)
    known_mask = np.zeros(4, np.int64)
    for j in range(k):
        known_key += card_keys[known[j]] & KEY_MASK
        known_low |= low_card_bits[known[j]]
        known_count[known[j] & 3] += 1
        known_mask[known[j] & 3] |= 1 << (known[j] >> 2)
    rank_keys = np.empty(13, np.uint64)
    rank_lows = np.empty(13, np.int64)
    for r in range(13):
        rank_keys[r] = card_keys[4 * r] & KEY_MASK
        rank_lows[r] = low_card_bits[4 * r]
    suits = np.empty(4, np.int64)
    reach = np.empty(4, np.int64)
    nsuits = 0
    for s in range(4):
        if suited[s] and 3 - known_count[s] <= need:
            suits[nsuits] = s
            reach[nsuits] = max(3 - known_count[s], 0)
            nsuits += 1
    for a in range(nsuits):
        for b in range(a + 1, nsuits):
            if reach[a] + reach[b] <= need:
                return -1
    ranks = np.empty(need, np.int64)
    copies = np.empty(need, np.int64)
    inside = np.empty(need, np.int64)
    outside = np.empty(need, np.int64)
    plain = np.empty(players, np.int64)
    los = np.empty(players, np.int64)
    his = np.empty(players, np.int64)
    class_ways = np.empty(4 * 32 + 1, np.int64)
    class_suit = np.empty(4 * 32 + 1, np.int64)
    class_mask = np.empty(4 * 32 + 1, np.int64)
    total_boards = 0
    for i in range(multisets.shape[0]):
        distinct = 0
        key = known_key
        board_low = known_low
        for j in range(need):
            r = np.int64(multisets[i, j])
            key += rank_keys[r]
            board_low |= rank_lows[r]
            if j > 0 and r == ranks[distinct - 1]:
                copies[distinct - 1] += 1
            else:
                ranks[distinct] = r
                copies[distinct] = 1
                distinct += 1
        boards = 1
        for d in range(distinct):
            if copies[d] > per_rank[ranks[d]]:
                boards = 0
                break
            boards *= binom[per_rank[ranks[d]], copies[d]]
        if boards == 0:
            continue
        total_boards += boards
        h = key & KEY_MASK
        base = np.int64(hash_read(board_index, board_offsets, h)) * width
        best_lo = 0
        for p in range(players):
            v = 0
            for t in range(npairs):
                v = max(v, np.int64(pairs_flat[base + pair_cols[p, t]]))
            plain[p] = v
            if hilo:
                los[p] = omaha_low[hole_lows[p], board_low]
                best_lo = max(best_lo, los[p])
        kl = 0
        if best_lo > 0:
            for p in range(players):
                kl += los[p] == best_lo
        # the flush classes, then the rest of the boards
        nclasses = 0
        rest = boards
        for q in range(nsuits):
            s = suits[q]
            t = reach[q]
            if t > distinct:
                continue
            for d in range(distinct):
                r = ranks[d]
                inside[d] = binom[per_rank[r] - 1, copies[d] - 1] if alive[r, s] else 0
                outside[d] = binom[per_rank[r] - alive[r, s], copies[d]]
            for x in range(count[distinct, t]):
                sub = subsets[distinct, t, x]
                ways = 1
                mask = known_mask[s]
                for d in range(distinct):
                    if (sub >> d) & 1:
                        ways *= inside[d]
                        mask |= 1 << ranks[d]
                    else:
                        ways *= outside[d]
                if ways:
                    class_ways[nclasses] = ways
                    class_suit[nclasses] = s
                    class_mask[nclasses] = mask
                    nclasses += 1
                    rest -= ways
        class_ways[nclasses] = rest
        class_suit[nclasses] = -1
        for c in range(nclasses + 1):
            ways = class_ways[c]
            if ways == 0:
                continue
            s = class_suit[c]
            best = 0
            for p in range(players):
                v = plain[p]
                if s >= 0:
                    for t in range(npairs):
                        if pair_suits[p, t] == s:
                            v = max(v, np.int64(omaha_flush[class_mask[c], pair_cols[p, t]]))
                his[p] = v
                best = max(best, v)
            kh = 0
            for p in range(players):
                kh += his[p] == best
            # counted as in ``tally``, each class ``ways`` times
            for p in range(players):
                high = his[p] == best
                if kl == 0:
                    if high:
                        hi_full[p, kh] += ways
                else:
                    a = kh if high else 0
                    b = kl if los[p] == best_lo else 0
                    if a or b:
                        joint[p, a, b] += ways
    return total_boards


@kernel
def best5_exact_batch(holes, known, dead, multisets, card_keys, rank_offsets, rank_values,
                      flush_values, hi_full, boards):
    """``best5_exact`` for many deals in one call (a range's suit classes).

    holes : uint8 (n, P, H) the hands of each deal
    hi_full : int64 (n, P, P + 1) out, zeroed by the caller
    boards : int64 (n,) out: boards counted, -1 where the deal needs walking
    """
    consts = class_tables()
    for i in range(holes.shape[0]):
        live = live_cards(holes[i], known, dead)
        boards[i] = best5_exact(holes[i], known, live, multisets, card_keys, rank_offsets,
                                rank_values, flush_values, hi_full[i], consts)


@kernel
def omaha_exact_batch(holes, known, dead, multisets, hilo, card_keys, board_offsets,
                      board_index, omaha_pairs, omaha_flush, low_card_bits, omaha_low, hi_full,
                      joint, boards):
    """``omaha_exact`` for many deals in one call; both count arrays gain a
    leading axis of length n (``joint`` may be (n, 0, 0, 0) in high-only games),
    and ``boards`` (n,) is -1 where the deal needs walking."""
    consts = class_tables()
    for i in range(holes.shape[0]):
        live = live_cards(holes[i], known, dead)
        boards[i] = omaha_exact(holes[i], known, live, multisets, hilo, card_keys,
                                board_offsets, board_index, omaha_pairs, omaha_flush,
                                low_card_bits, omaha_low, hi_full[i], joint[i], consts)


@kernel
def best5_exact_spots(holes, boards, deads, multisets, card_keys, rank_offsets, rank_values,
                      flush_values, hi_full, counted):
    """``best5_exact`` for many spots of one shape, each with its own board and dead cards
    (a batch's known-hand queries): the interpreter's part once for all of them.

    holes : uint8 (n, P, H); boards : uint8 (n, k); deads : uint8 (n, d)
    multisets : the rank multisets of the ``5 - k`` cards to come (one empty row on the
        river: the board's one showdown)
    hi_full : int64 (n, P, P + 1) out, zeroed by the caller
    counted : int64 (n,) out: boards counted, -1 where the spot needs its boards walked
    """
    consts = class_tables()
    for i in range(holes.shape[0]):
        live = live_cards(holes[i], boards[i], deads[i])
        counted[i] = best5_exact(holes[i], boards[i], live, multisets, card_keys, rank_offsets,
                                 rank_values, flush_values, hi_full[i], consts)


@kernel
def omaha_exact_spots(holes, boards, deads, multisets, card_keys, board_offsets, board_index,
                      omaha_pairs, omaha_flush, low_card_bits, omaha_low, hi_full, counted):
    """``omaha_exact`` (high only) for many spots of one shape, each with its own board and
    dead cards, as ``best5_exact_spots``."""
    consts = class_tables()
    no_low = np.zeros((0, 0, 0), np.int64)
    for i in range(holes.shape[0]):
        live = live_cards(holes[i], boards[i], deads[i])
        counted[i] = omaha_exact(holes[i], boards[i], live, multisets, False, card_keys,
                                 board_offsets, board_index, omaha_pairs, omaha_flush,
                                 low_card_bits, omaha_low, hi_full[i], no_low, consts)
