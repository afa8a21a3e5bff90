"""Range kernels: dealing weighted combos, and heads-up range against range.

``sample_range_deals`` deals one combo per player by weight, with a bounded
number of redeals (``range_sampling`` deals the same and evaluates in place, for
best-five games); ``best5_range_boards`` walks the few boards left on the flop or
turn and compares every pair of combos on each.
"""

import numpy as np

from .._jit import kernel
from ._intrinsics import (
    popcount,
    suit_mask,
)
from .dealing import (
    DECK_BITS,
    MAX_NEW_CARDS,
    draw_card,
    next_u64,
)
from .high import (
    FLUSH_BITS,
    KEY_MASK,
    ONE,
    flush_suit,
    hash_read,
    known_board,
)

U64 = np.uint64


@kernel
def sample_range_deals(combos, starts, cumulative, uniform, combo_masks, taken, max_tries, state,
                       holes, boards):
    """Random deals for players given by weighted ranges, for any game.

    combos : uint8 (N, H) every player's combos, player after player
    starts : int64 (P + 1,) player p's combos are rows starts[p] .. starts[p + 1] - 1
    cumulative : float64 (N,) running sums of the weights within each player's rows
    uniform : bool (P,) player p's combos all weigh the same
    combo_masks : uint64 (N,) each combo's cards as a bit mask
    taken : uint64 mask of the cards out of the deck (board so far, dead cards)
    holes : uint8 (P, n, H) out; boards : uint8 (n, need) out, the new cards (the
        board's, and any the caller deals to hands without a range)

    Each deal picks every player's combo by weight and starts over when two
    share a card (so tuples come with probability proportional to the
    product of their weights), then draws the new cards from the rest, five
    to a generator step.  ``max_tries`` bounds the restarts of the whole call:
    past it the kernel stops and returns -1 (else the number of restarts), so
    that ranges which rarely fit together never hang the caller.
    """
    players = starts.shape[0] - 1
    hole = combos.shape[1]
    need = boards.shape[1]
    # unsigned combo numbers: no negative-index handling on the reads through them
    chosen = np.empty(players, np.uint64)
    s0 = state[0]
    s1 = state[1]
    restarts = 0
    for t in range(U64(boards.shape[0])):
        while True:
            used = taken
            ok = True
            for p in range(players):
                # a combo by weight: equal weights by multiply-shift, else the first
                # running sum above a uniform draw, by a branch-free binary search
                # (written inline, here and in ``best5_sample_ranges``, which must draw
                # alike: a helper taking arrays cost 1.4x there, measured on a Zen 4)
                r, s0, s1 = next_u64(s0, s1)
                x = U64(starts[p])
                size = U64(starts[p + 1]) - x
                if uniform[p]:
                    x += ((r >> U64(32)) * size) >> U64(32)
                else:
                    u = (np.float64(r >> U64(11)) * (1.0 / 9007199254740992.0)
                         * cumulative[x + size - ONE])
                    while size > ONE:
                        half = size >> ONE
                        x += half * U64(cumulative[x + half - ONE] <= u)
                        size -= half
                    x += U64(cumulative[x] <= u)
                mask = combo_masks[x]
                if mask & used:
                    ok = False
                    break
                used |= mask
                chosen[p] = x
            if ok:
                break
            restarts += 1
            if restarts > max_tries:
                state[0] = s0
                state[1] = s1
                return -1
        free = DECK_BITS & ~used
        left = popcount(free)
        r, s0, s1 = next_u64(s0, s1)
        for j in range(MAX_NEW_CARDS):          # a fixed count, so that the loop unrolls
            if j < need:
                dealt, r, free, left = draw_card(r, free, left)
                boards[t, j] = dealt
        for j in range(MAX_NEW_CARDS, need):     # cards for hands without a range
            if j % MAX_NEW_CARDS == 0:
                r, s0, s1 = next_u64(s0, s1)
            dealt, r, free, left = draw_card(r, free, left)
            boards[t, j] = dealt
        for p in range(players):
            c = chosen[p]
            for j in range(hole):
                holes[p, t, j] = combos[c, j]
    state[0] = s0
    state[1] = s1
    return restarts


@kernel
def card_shares(combos, weights, out):
    """``out[c]``: the weight share of the combos that hold card ``c`` (``out`` zeroed,
    ``weights`` summing to more than 0)."""
    total = 0.0
    for i in range(weights.shape[0]):
        total += weights[i]
    for i in range(combos.shape[0]):
        share = weights[i] / total
        for j in range(combos.shape[1]):
            out[combos[i, j]] += share


@kernel
def live_rows(combos, weights, masks, out_bits):
    """The combos (rows), weights and masks of those that hold no card of ``out_bits``,
    in their order: one pass to count, one to copy."""
    n = 0
    for i in range(masks.shape[0]):
        if not (masks[i] & out_bits):
            n += 1
    rows = np.empty((n, combos.shape[1]), combos.dtype)
    kept_weights = np.empty(n, weights.dtype)
    kept_masks = np.empty(n, masks.dtype)
    k = 0
    for i in range(masks.shape[0]):
        if not (masks[i] & out_bits):
            for j in range(combos.shape[1]):
                rows[k, j] = combos[i, j]
            kept_weights[k] = weights[i]
            kept_masks[k] = masks[i]
            k += 1
    return rows, kept_weights, kept_masks


@kernel
def tally_best5_deals(holes, boards, known, card_keys, rank_offsets, rank_values,
                      flush_values, hi_full):
    """Evaluate dealt hands of a best-five game and count the winners (as ``tally``).

    holes : uint8 (P, n, H) each player's cards in each deal
    boards : uint8 (n, need) the new board cards; ``known`` the board before them
    hi_full : int64 (P, P + 1) incremented
    """
    players, n, hole = holes.shape
    need = boards.shape[1]
    known_key, known_bits = known_board(known, card_keys)
    values = np.empty(players, np.int64)
    for t in range(n):
        board_key = known_key
        board_bits = known_bits
        for j in range(need):
            board_key += card_keys[boards[t, j]]
            board_bits |= U64(1) << U64(boards[t, j])
        best = 0
        for p in range(players):
            key = board_key
            cards = board_bits
            for j in range(hole):
                key += card_keys[holes[p, t, j]]
                cards |= U64(1) << U64(holes[p, t, j])
            if key & FLUSH_BITS:
                suit = flush_suit(key & FLUSH_BITS)
                v = np.int64(flush_values[suit_mask(cards, suit)])
            else:
                h = key & KEY_MASK
                v = np.int64(hash_read(rank_values, rank_offsets, h))
            values[p] = v
            best = max(best, v)
        winners = 0
        for p in range(players):
            winners += values[p] == best
        for p in range(players):
            hi_full[p, winners] += values[p] == best


@kernel
def best5_range_boards(first, first_weights, second, second_weights, known, live, need,
                       card_keys, rank_offsets, rank_values, flush_values, out):
    """Heads-up range against range for best-five games by walking the boards.

    Every completion of the board (``need`` cards from ``live``) is dealt
    once: all combos of both ranges are evaluated on it (combos holding a
    board card sit it out), and every pair of combos without a shared card
    is compared in a branch-free loop the compiler vectorises.

    first, second : uint8 (n, H) combos; *_weights : (n,) int64 or float64
    out : (4,) of the weights' type, incremented: weight of deals the first
        wins, ties, the second wins, and in all (weights multiply, each board
        counts once).  Integer weights keep exact counts and let the pair
        loop vectorise; float sums would have to keep their order.
    """
    na, hole = first.shape
    nb = second.shape[0]
    k = known.shape[0]
    m = live.shape[0]
    known_key = known_board(known, card_keys)[0]
    keys_a = np.empty(na, np.uint64)
    masks_a = np.empty(na, np.uint64)
    keys_b = np.empty(nb, np.uint64)
    masks_b = np.empty(nb, np.uint64)
    for i in range(na):
        keys_a[i] = known_key
        masks_a[i] = U64(0)
        for j in range(hole):
            keys_a[i] += card_keys[first[i, j]]
            masks_a[i] |= U64(1) << U64(first[i, j])
    for i in range(nb):
        keys_b[i] = known_key
        masks_b[i] = U64(0)
        for j in range(hole):
            keys_b[i] += card_keys[second[i, j]]
            masks_b[i] |= U64(1) << U64(second[i, j])
    known_mask = U64(0)
    for j in range(k):
        known_mask |= U64(1) << U64(known[j])
    values_a = np.empty(na, np.int64)
    values_b = np.empty(nb, np.int64)
    weights_b = np.empty_like(second_weights)
    zero = second_weights[0] * 0
    idx = np.arange(need)
    while True:
        board_key = U64(0)
        board_mask = known_mask
        for j in range(need):
            c = live[idx[j]]
            board_key += card_keys[c]
            board_mask |= U64(1) << U64(c)
        for side in range(2):
            n = na if side == 0 else nb
            keys = keys_a if side == 0 else keys_b
            masks = masks_a if side == 0 else masks_b
            values = values_a if side == 0 else values_b
            for i in range(n):
                key = keys[i] + board_key
                if key & FLUSH_BITS:
                    suit = flush_suit(key & FLUSH_BITS)
                    v = np.int64(flush_values[suit_mask(board_mask | masks[i], suit)])
                else:
                    h = key & KEY_MASK
                    v = np.int64(hash_read(rank_values, rank_offsets, h))
                values[i] = v
        for i in range(nb):
            weights_b[i] = zero if masks_b[i] & board_mask else second_weights[i]
        for i in range(na):
            if masks_a[i] & board_mask:
                continue
            wa = first_weights[i]
            va = values_a[i]
            ma = masks_a[i]
            win = zero
            tie = zero
            lose = zero
            for j in range(nb):
                w = weights_b[j] if (masks_b[j] & ma) == 0 else zero
                vb = values_b[j]
                win += w if va > vb else zero
                tie += w if va == vb else zero
                lose += w if va < vb else zero
            out[0] += wa * win
            out[1] += wa * tie
            out[2] += wa * lose
            out[3] += wa * (win + tie + lose)
        # next combination of positions
        j = need - 1
        while j >= 0 and idx[j] == m - need + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for x in range(j + 1, need):
            idx[x] = idx[x - 1] + 1
