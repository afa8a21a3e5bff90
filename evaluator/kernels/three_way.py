"""Three ranges on the flop, turn or river, exact: every pair of two ranges' combos on
every board, the third range counted against each pair at once.

On a complete board every combo has one value.  The third range's live combos are listed
weakest first, with running sums of their weights, in all and per card (a row of 64 sums
after each combo).  For a pair ``(a, b)`` of the other two ranges, the third range's weight
below a value is the running total at that value's place, less the combos that hold one of
the pair's four cards: the four cards' running sums, plus each combo that holds two of them
(subtracted twice above; a two-card combo holds at most two cards of the four, and the six
pairs of them are looked up in a table of the listed combos' places).  Read at the places
of the pair's best value (below it, and up to it) and at the end of the list, this gives the
weight that loses to the pair, ties it, and beats it, with no loop over the third range.

A board of ``A`` and ``B`` combos and ``C`` listed ones costs ``A * B`` such reads instead of
``A * B * C`` comparisons: ``QQ+,AKs`` (22 combos) against two random hands on a flop is
about 20,000 pairs on each of 1,176 runouts.  The third range's weights are integers (its
own, or fixed point: ``engine.boards.fixed_point``), so that the differences of its sums
are exact: summed as floats they would cancel to rounding noise, or below zero.
"""
import numpy as np

from .._jit import kernel
from ._intrinsics import suit_mask
from .high import (
    FLUSH_BITS,
    KEY_MASK,
    U64,
    combo_keys_masks,
    flush_suit,
    hash_read,
    known_board,
)

CARD_COLUMNS = 64          # a running-sum row: one sum per card id (ids below 64)


@kernel
def board_values(keys, masks, board_key, board_mask, values, flush_values, rank_offsets,
                 rank_values):
    """``values[i]``: combo ``i``'s value on the board, or -1 when it holds a board card."""
    for i in range(keys.shape[0]):
        if masks[i] & board_mask:
            values[i] = -1
            continue
        key = keys[i] + board_key
        if key & FLUSH_BITS:
            suit = flush_suit(key & FLUSH_BITS)
            values[i] = np.int64(flush_values[suit_mask(board_mask | masks[i], suit)])
        else:
            values[i] = np.int64(hash_read(rank_values, rank_offsets, key & KEY_MASK))


@kernel(inline="always")
def weakest_first(values, live):
    """The combos with a value (not -1) listed in ``live`` (their count first), and the
    order that takes them weakest first: ``live[order[t]]`` is the t-th weakest."""
    n = 0
    for i in range(values.shape[0]):
        if values[i] >= 0:
            live[n] = i
            n += 1
    return n, np.argsort(values[live[:n]], kind="mergesort")


@kernel
def places(sorted_values, count, value):
    """(how many of the first ``count`` sorted values are below ``value``, how many are at
    most ``value``): two binary searches."""
    lo = 0
    hi = count
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_values[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    below = lo
    hi = count
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_values[mid] <= value:
            lo = mid + 1
        else:
            hi = mid
    return below, lo


@kernel(inline="always")
def pair_standing(lo, hi, lo_part, hi_part, x0, x1, every_part, a0, a1, b0, b1, by_card,
                  place_of, weight_at, zero):
    """The third range's weight below, up to and in all, against the pair of combos
    ``(a0, a1)`` and ``(b0, b1)`` whose best value sits at places ``lo`` (first at it) and
    ``hi`` (first past it).  ``lo_part`` and ``hi_part`` are the running totals there less
    the sums of the best combo's two cards, plus the third range's combos that are either
    hand (they hold two of the four cards); ``x0`` and ``x1`` are the other combo's cards;
    ``every_part`` the total less all four cards' sums plus those two combos.  Adds back
    the combos holding one card of each hand, looked up."""
    p2 = place_of[a0 * CARD_COLUMNS + b0]
    p3 = place_of[a0 * CARD_COLUMNS + b1]
    p4 = place_of[a1 * CARD_COLUMNS + b0]
    p5 = place_of[a1 * CARD_COLUMNS + b1]
    w2 = weight_at[p2]
    w3 = weight_at[p3]
    w4 = weight_at[p4]
    w5 = weight_at[p5]
    both_lo = ((w2 if p2 < lo else zero) + (w3 if p3 < lo else zero)
               + (w4 if p4 < lo else zero) + (w5 if p5 < lo else zero))
    both_hi = ((w2 if p2 < hi else zero) + (w3 if p3 < hi else zero)
               + (w4 if p4 < hi else zero) + (w5 if p5 < hi else zero))
    lower = lo_part - by_card[lo, x0] - by_card[lo, x1] + both_lo
    upto = hi_part - by_card[hi, x0] - by_card[hi, x1] + both_hi
    every = every_part + w2 + w3 + w4 + w5
    return lower, upto, every


@kernel
def best5_three_way_boards(first, first_w, second, second_w, third, third_w, known, runouts,
                           card_keys, rank_offsets, rank_values, flush_values, hi_full, total):
    """Add three ranges' deals on each complete board ``known`` + a row of ``runouts``.

    first, second, third : uint8 (n, 2) combos (none holds a known or dead card)
    first_w, second_w : (n,) int64 or float64 weights, both of one type; third_w : int64
        (n,) weights, summed and subtracted exactly
    known : uint8 the board so far; runouts : uint8 (R, need) the cards that complete it
    hi_full : (3, 4) of the first weights' type, incremented in the layout of ``Counts``
        (rows: first, second, third); total : (1,), incremented by the weight of every deal
        (a deal weighs the product of its three combos' weights).  Integer weights give
        exact counts; float sums add positive terms in the boards' and combos' order, the
        same on every call.
    """
    na = first.shape[0]
    nb = second.shape[0]
    nc = third.shape[0]
    need = runouts.shape[1]
    known_key, known_bits = known_board(known, card_keys)
    keys_a, masks_a = combo_keys_masks(first, known_key, card_keys)
    keys_b, masks_b = combo_keys_masks(second, known_key, card_keys)
    keys_c, masks_c = combo_keys_masks(third, known_key, card_keys)
    zero_c = third_w[0] * 0                # the third range's sums
    zero = first_w[0] * second_w[0] * zero_c     # the outcome sums
    zero_b = second_w[0] * 0
    values_a = np.empty(na, np.int64)
    values_b = np.empty(nb, np.int64)
    values_c = np.empty(nc, np.int64)
    live_c = np.empty(nc, np.int64)
    sorted_values = np.empty(nc, np.int64)
    # place -> weight; ``nc`` is the place of a combo not listed on the board (in
    # ``place_of``), whose weight stays 0 and which no threshold passes
    weight_at = np.zeros(nc + 1, third_w.dtype)
    below = np.zeros(nc + 1, third_w.dtype)                    # running total before a place
    by_card = np.zeros((nc + 1, CARD_COLUMNS), third_w.dtype)  # running sums per card
    place_of = np.full(CARD_COLUMNS * CARD_COLUMNS, nc, np.int64)
    # the second range's live combos on a board, weakest first (the loop over them then
    # meets the first combo's standing in runs, not at random)
    live_b = np.empty(nb, np.int64)
    value_b = np.empty(nb, np.int64)
    mask_b = np.empty(nb, np.uint64)
    card0_b = np.empty(nb, np.int64)
    card1_b = np.empty(nb, np.int64)
    weight_b = np.empty(nb, second_w.dtype)
    below_b = np.empty(nb, np.int64)
    upto_b = np.empty(nb, np.int64)
    pair_b = np.empty(nb, np.int64)
    weight_pair_b = np.empty(nb, third_w.dtype)
    out_b = np.empty(nb, third_w.dtype)
    lo_b = np.empty(nb, third_w.dtype)
    hi_b = np.empty(nb, third_w.dtype)
    # outcome sums over the whole call, by the pair's standing (names: who shares the pot)
    a_alone = zero            # the first beats the second, and the third is below
    a_with_c = zero           # the first beats the second, the third ties it
    b_alone = zero
    b_with_c = zero
    a_with_b = zero           # the first and second tie, the third is below
    all_three = zero
    c_alone = zero
    dealt = zero
    for r in range(runouts.shape[0]):
        board_key = U64(0)
        board_mask = known_bits
        for j in range(need):
            board_key += card_keys[runouts[r, j]]
            board_mask |= U64(1) << U64(runouts[r, j])
        board_values(keys_a, masks_a, board_key, board_mask, values_a, flush_values,
                     rank_offsets, rank_values)
        board_values(keys_b, masks_b, board_key, board_mask, values_b, flush_values,
                     rank_offsets, rank_values)
        board_values(keys_c, masks_c, board_key, board_mask, values_c, flush_values,
                     rank_offsets, rank_values)
        # the third range's live combos, weakest first, and the running sums
        n, order = weakest_first(values_c, live_c)
        for x in range(CARD_COLUMNS):
            by_card[0, x] = zero_c
        below[0] = zero_c
        for t in range(n):
            i = live_c[order[t]]
            w = third_w[i]
            sorted_values[t] = values_c[i]
            weight_at[t] = w
            below[t + 1] = below[t] + w
            for x in range(CARD_COLUMNS):
                by_card[t + 1, x] = by_card[t, x]
            c0 = np.int64(third[i, 0])
            c1 = np.int64(third[i, 1])
            by_card[t + 1, c0] += w
            by_card[t + 1, c1] += w
            place_of[c0 * CARD_COLUMNS + c1] = t
            place_of[c1 * CARD_COLUMNS + c0] = t
        all_c = below[n]
        m, order_b = weakest_first(values_b, live_b)
        for t in range(m):
            i = live_b[order_b[t]]
            b0 = np.int64(second[i, 0])
            b1 = np.int64(second[i, 1])
            value_b[t] = values_b[i]
            mask_b[t] = masks_b[i]
            card0_b[t] = b0
            card1_b[t] = b1
            weight_b[t] = second_w[i]
            lo, hi = places(sorted_values, n, values_b[i])
            below_b[t] = lo
            upto_b[t] = hi
            # the third range's combo that is this hand, if any (its weight, and whether
            # it is below this hand's places)
            pair = place_of[b0 * CARD_COLUMNS + b1]
            w = weight_at[pair]
            pair_b[t] = pair
            weight_pair_b[t] = w
            lo_b[t] = below[lo] - by_card[lo, b0] - by_card[lo, b1] + (w if pair < lo else zero_c)
            hi_b[t] = below[hi] - by_card[hi, b0] - by_card[hi, b1] + (w if pair < hi else zero_c)
            out_b[t] = by_card[n, b0] + by_card[n, b1] - w
        for i in range(na):
            va = values_a[i]
            if va < 0:
                continue
            ma = masks_a[i]
            a0 = np.int64(first[i, 0])
            a1 = np.int64(first[i, 1])
            pair_a = place_of[a0 * CARD_COLUMNS + a1]
            w_a = weight_at[pair_a]
            lo_a, hi_a = places(sorted_values, n, va)
            # the first combo's part of the sums at its own places, and in all
            lo_part = (below[lo_a] - by_card[lo_a, a0] - by_card[lo_a, a1]
                       + (w_a if pair_a < lo_a else zero_c))
            hi_part = (below[hi_a] - by_card[hi_a, a0] - by_card[hi_a, a1]
                       + (w_a if pair_a < hi_a else zero_c))
            all_part = all_c - by_card[n, a0] - by_card[n, a1] + w_a
            # the second range's combos below it, tied with it, above it: three runs
            weaker, at_most = places(value_b, m, va)
            s_a = zero            # the first beats the second, the third below them
            s_ac = zero           # ... the third ties the first
            s_ab = zero           # the first and second tie, the third below
            s_abc = zero          # all three tie
            s_b = zero            # the second beats the first, the third below
            s_bc = zero           # ... the third ties the second
            s_c = zero            # the third beats both
            s_dealt = zero
            for j in range(at_most):
                pair = pair_b[j]
                w = weight_pair_b[j]
                lower, upto, every = pair_standing(
                    lo_a, hi_a, lo_part + (w if pair < lo_a else zero_c),
                    hi_part + (w if pair < hi_a else zero_c), card0_b[j], card1_b[j],
                    all_part - out_b[j], a0, a1, card0_b[j], card1_b[j], by_card, place_of,
                    weight_at, zero_c)
                wb = weight_b[j] if (mask_b[j] & ma) == 0 else zero_b    # shares a card
                lose = wb * lower
                tie = wb * (upto - lower)
                if j < weaker:
                    s_a += lose
                    s_ac += tie
                else:
                    s_ab += lose
                    s_abc += tie
                s_c += wb * (every - upto)
                s_dealt += wb * every
            for j in range(at_most, m):
                lo = below_b[j]
                hi = upto_b[j]
                lower, upto, every = pair_standing(
                    lo, hi, lo_b[j] + (w_a if pair_a < lo else zero_c),
                    hi_b[j] + (w_a if pair_a < hi else zero_c), a0, a1, all_part - out_b[j],
                    a0, a1, card0_b[j], card1_b[j], by_card, place_of, weight_at, zero_c)
                wb = weight_b[j] if (mask_b[j] & ma) == 0 else zero_b
                s_b += wb * lower
                s_bc += wb * (upto - lower)
                s_c += wb * (every - upto)
                s_dealt += wb * every
            wa = first_w[i]
            a_alone += wa * s_a
            a_with_c += wa * s_ac
            b_alone += wa * s_b
            b_with_c += wa * s_bc
            a_with_b += wa * s_ab
            all_three += wa * s_abc
            c_alone += wa * s_c
            dealt += wa * s_dealt
        for t in range(n):
            i = live_c[order[t]]
            place_of[np.int64(third[i, 0]) * CARD_COLUMNS + np.int64(third[i, 1])] = nc
            place_of[np.int64(third[i, 1]) * CARD_COLUMNS + np.int64(third[i, 0])] = nc
    hi_full[0, 1] += a_alone
    hi_full[0, 2] += a_with_c + a_with_b
    hi_full[0, 3] += all_three
    hi_full[1, 1] += b_alone
    hi_full[1, 2] += b_with_c + a_with_b
    hi_full[1, 3] += all_three
    hi_full[2, 1] += c_alone
    hi_full[2, 2] += a_with_c + b_with_c
    hi_full[2, 3] += all_three
    total[0] += dealt
