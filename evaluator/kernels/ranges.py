"""Range kernels: dealing weighted combos, and heads-up range against range.

``sample_range_deals`` deals one combo per player by weight, with a bounded
number of redeals; ``best5_sample_ranges`` deals the same for best-five games
and evaluates in place, for any number of players; ``best5_sample_ranges_hu``
does so for two players on a stream of its own; ``best5_range_boards`` walks
the few boards left on the flop or turn and compares every pair of combos on
each.
"""

import numpy as np

from .._jit import kernel
from ._intrinsics import popcount, suit_mask
from .counting import add_block_counts, block_counts, count_block
from .dealing import (
    DEALS,
    DECK_BITS,
    MAX_NEW_CARDS,
    TAB_OWN,
    deal_board,
    deal_table,
    dealt_count,
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
# the heads-up sampler's combos in its deal table: at most RANGE_ROWS a player (every
# three-card hand), each player's keys and masks a fixed part, so that every read of
# them is one load from the table's base (see ``dealing.deal_table``)
RANGE_ROWS = 22100
HERO_KEYS = TAB_OWN
VILLAIN_KEYS = TAB_OWN + RANGE_ROWS
HERO_MASKS = TAB_OWN + 2 * RANGE_ROWS
VILLAIN_MASKS = TAB_OWN + 3 * RANGE_ROWS


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


@kernel
def best5_sample_ranges_hu(combos, starts, cumulative, uniform, weights_marker, combo_masks,
                           taken, known, draws, samples, state, card_keys,
                           rank_offsets, rank_values, flush_values, hi_full):
    """Heads-up Monte Carlo for best-five games with ranges (deals as in
    ``sample_range_deals``), in blocks of ``DEALS`` deals as ``sampling.best5_sample_known``
    does: the block is dealt (each hand's key and cards with the board kept), both hands
    are looked up on every board as if they made no flush, the flushes listed on the way
    are mended, and the block is counted.  1.4x the speed of dealing and evaluating each
    deal in turn (2 M deals of QQ+,AKs against a random hand, 111 against 80 M deals/s),
    with the same deals and counts.  ``draws`` is ``deal_marker(need)``: five or two cards
    to deal as a compile-time constant measured 1.06x pre-flop (108 against 102 M
    deals/s, side by side) and 1.10x on a flop; other counts are read at run time.

    Every lookup of the dealing loop, the combos' keys and masks included, is in one deal
    table (``dealing.deal_table``) at fixed offsets, and the four values a deal keeps are
    one array: the loop went from 88 instructions a deal (17 of them stack reloads of
    table pointers) to 66, and the kernel from 101 to 113-114 M deals/s pre-flop, 137 to
    157 on a flop and 76 to 110 on a turn (Zen 4, side by side, the same deals).

    One generator step picks both combos when both ranges have equal weights
    (high and low 32 bits, multiply-shift each).  ``weights_marker`` says
    whether some range has unequal weights (``weights_marker(flag)``): its
    ``ndim`` is a compile-time constant, so the equal-weights loop is compiled
    without the weighted search, which would otherwise crowd its registers.
    The caller makes sure that most draws fit (``engine.ranged.RangeSampler`` measures
    it, or bounds it): the redeal loop has no bound of its own, since a counter and an
    exit in it cost 1.5x on this kernel (measured side by side, 21 against 33 ms for
    2 M deals of QQ+,AKs against a random hand).
    """
    need = dealt_count(draws)                 # the board cards to deal
    hole = combos.shape[1]
    known_key, known_bits = known_board(known, card_keys)
    # the cards a deal's board comes from: the two combos are disjoint, and their callers
    # keep only combos that miss ``taken``, so the count is the same on every deal (known
    # up front, the first card's draw need not wait on the combos' masks)
    cards_left = popcount(DECK_BITS & ~taken) - U64(2 * hole)
    if need > MAX_NEW_CARDS:
        raise ValueError("best5_sample_ranges_hu: more board cards to deal than a board has")
    last_left = cards_left + ONE - U64(need)    # the cards left for an odd count's last card
    a0 = starts[0]
    n0 = starts[1] - a0
    a1 = starts[1]
    n1 = starts[2] - a1
    if max(n0, n1) > RANGE_ROWS:
        raise ValueError("best5_sample_ranges_hu: a range longer than RANGE_ROWS")
    # the deal table, and in its own parts each player's combos: their keys (with the
    # known board's) and card masks, at fixed offsets (``HERO_KEYS`` and on)
    table, first_count, second_count = deal_table(card_keys, cards_left, 4 * RANGE_ROWS)
    for p in range(2):
        at = a0 if p == 0 else a1
        size = n0 if p == 0 else n1
        for i in range(size):
            key = known_key
            for j in range(hole):
                key += card_keys[combos[at + i, j]]
            table[HERO_KEYS + p * RANGE_ROWS + i] = key
            table[HERO_MASKS + p * RANGE_ROWS + i] = combo_masks[at + i]
    deck = DECK_BITS & ~taken
    both_uniform = weights_marker.ndim == 1
    s0 = state[0]
    s1 = state[1]
    c0 = U64(0)
    c1 = U64(0)
    m0 = U64(0)
    m1 = U64(0)
    wins0 = 0
    wins1 = 0
    ties = 0
    # each hand's key, then its cards with the board (but the known cards): one array,
    # one base register for the four stores
    dealt_hands = np.empty((4, DEALS), np.uint64)
    keys = dealt_hands[:2]
    cards = dealt_hands[2:]
    values = np.empty((2, DEALS), np.int32)
    flushes = np.empty(2 * DEALS, np.uint32)
    for start in range(0, samples, DEALS):
        deals = min(DEALS, samples - start)
        # the deals of the block, dealt and kept: their keys and card masks
        for d in range(deals):
            while True:
                r, s0, s1 = next_u64(s0, s1)
                if both_uniform:
                    # unsigned combo numbers: no negative-index handling on the reads
                    c0 = ((r >> U64(32)) * U64(n0)) >> U64(32)
                    c1 = ((r & U64(0xFFFFFFFF)) * U64(n1)) >> U64(32)
                else:
                    for p in range(2):
                        if p == 1:
                            r, s0, s1 = next_u64(s0, s1)
                        x = a0 if p == 0 else a1
                        size = n0 if p == 0 else n1
                        if uniform[p]:
                            x += np.int64(((r >> U64(32)) * U64(size)) >> U64(32))
                        else:
                            u = (np.float64(r >> U64(11)) * (1.0 / 9007199254740992.0)
                                 * cumulative[x + size - 1])
                            while size > 1:
                                half = size >> 1
                                x += half * (cumulative[x + half - 1] <= u)
                                size -= half
                            x += cumulative[x] <= u
                        if p == 0:
                            c0 = U64(x - a0)
                        else:
                            c1 = U64(x - a1)
                m0 = table[U64(HERO_MASKS) + c0]
                m1 = table[U64(VILLAIN_MASKS) + c1]
                if (m0 & m1) == 0:
                    break
            # the board: uniform positions among the cards left, picked out of their mask: no
            # redraws, no branches.  One generator step serves the five positions
            # (``mul_wide``), dealt two at a time (``draw_two``: the same cards as one at a
            # time, half the products and pdeps); tests of a count known when compiled.
            # The known board's cards join the masks only where a flush is mended.
            dealt = deck & ~m0 & ~m1
            r, s0, s1 = next_u64(s0, s1)
            board_key, free, r = deal_board(r, dealt, need, table, first_count, second_count,
                                            last_left)
            board = dealt ^ free
            dealt_hands[0, d] = table[U64(HERO_KEYS) + c0] + board_key
            dealt_hands[1, d] = table[U64(VILLAIN_KEYS) + c1] + board_key
            dealt_hands[2, d] = board | m0
            dealt_hands[3, d] = board | m1
        # each hand on each board as if it made no flush, the flushes listed on the way
        count = U64(0)
        for p in range(2):
            row = values[p]
            key_row = keys[p]
            listed = U64(p) * U64(DEALS)
            for d in range(U64(deals)):
                key = key_row[d]
                h = key & KEY_MASK
                row[d] = hash_read(rank_values, rank_offsets, h)
                flushes[count] = listed + d
                count += U64((key & FLUSH_BITS) != 0)
        for f in range(count):
            p = flushes[f] // U64(DEALS)
            d = flushes[f] % U64(DEALS)
            suit = flush_suit(keys[p, d] & FLUSH_BITS)
            values[p, d] = flush_values[suit_mask(cards[p, d] | known_bits, suit)]
        # counted in scalars (a loop of vector compares): increments of hi_full would
        # wait on the last deal's store
        first = values[0]
        second = values[1]
        for d in range(deals):
            wins0 += first[d] > second[d]
            wins1 += second[d] > first[d]
            ties += first[d] == second[d]
    hi_full[0, 1] += wins0
    hi_full[1, 1] += wins1
    hi_full[0, 2] += ties
    hi_full[1, 2] += ties
    state[0] = s0
    state[1] = s1


@kernel
def best5_sample_ranges(combos, starts, cumulative, uniform, combo_masks, taken, max_tries,
                        state, seats, fixed_keys, fixed_masks, hidden, known, need, samples,
                        card_keys, rank_offsets, rank_values, flush_values, hi_full):
    """Monte Carlo for best-five games with ranges and any number of players: the deals of
    ``sample_range_deals`` (the same generator steps, so the same deals and counts as it
    followed by ``tally_best5_deals``), evaluated in blocks of ``DEALS`` as
    ``best5_sample_ranges_hu`` does, with no arrays of dealt cards in between.

    seats : int64 (P,) player p's range among the ranged players (``starts``), or -1 for a
        player dealt its unknown cards with the board
    fixed_keys, fixed_masks : uint64 (P,) the card keys (summed) and card mask of what a
        dealt player holds already (0 for ranged players)
    hidden : int64 (P,) the cards dealt to player p with the board (0 for ranged players):
        the new cards go to the dealt players in player order, then to the board
    known : uint8 the board so far; ``need`` its cards to deal
    hi_full : int64 (P, P + 1) incremented

    Returns the redeals made, or -1 once they pass ``max_tries``: ``hi_full`` is then left
    as it was (the counts are added at the end), and the caller refuses the chunk.
    """
    players = seats.shape[0]
    ranged = starts.shape[0] - 1
    hole = combos.shape[1]
    known_key, known_bits = known_board(known, card_keys)
    n = combos.shape[0]
    combo_keys = np.empty(n, np.uint64)
    for i in range(n):
        combo_keys[i] = U64(0)
        for j in range(hole):
            combo_keys[i] += card_keys[combos[i, j]]
    shares = np.empty(players + 1, np.int64)       # new cards to each dealt player, the board
    for p in range(players):
        shares[p] = hidden[p]
    shares[players] = need
    chosen = np.empty(max(ranged, 1), np.uint64)
    hand_keys = np.empty(players + 1, np.uint64)
    hand_bits = np.empty(players + 1, np.uint64)
    keys = np.empty((players, DEALS), np.uint64)
    cards = np.empty((players, DEALS), np.uint64)
    values = np.empty((players, DEALS), np.int32)
    flushes = np.empty(players * DEALS, np.uint32)
    by_mask, by_player, best, won = block_counts(players, DEALS)
    s0 = state[0]
    s1 = state[1]
    restarts = 0
    for start in range(0, samples, DEALS):
        deals = min(DEALS, samples - start)
        for d in range(deals):
            # the combos, as sample_range_deals draws them (see there; a copy of its loop,
            # which the tests hold to the same deals)
            while True:
                used = taken
                ok = True
                for q in range(ranged):
                    r, s0, s1 = next_u64(s0, s1)
                    x = U64(starts[q])
                    size = U64(starts[q + 1]) - x
                    if uniform[q]:
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
                    chosen[q] = x
                if ok:
                    break
                restarts += 1
                if restarts > max_tries:
                    state[0] = s0
                    state[1] = s1
                    return -1
            # the new cards, five to a generator step: each dealt player's in turn, then the
            # board's, their keys and masks summed in registers
            free = DECK_BITS & ~used
            left = popcount(free)
            r, s0, s1 = next_u64(s0, s1)
            fresh = MAX_NEW_CARDS                # draws left in r
            for p in range(players + 1):
                key = U64(0)
                bits = U64(0)
                for _ in range(shares[p]):
                    if fresh == 0:
                        r, s0, s1 = next_u64(s0, s1)
                        fresh = MAX_NEW_CARDS
                    fresh -= 1
                    dealt, r, free, left = draw_card(r, free, left)
                    key += card_keys[dealt]
                    bits |= ONE << dealt
                hand_keys[p] = key
                hand_bits[p] = bits
            board_key = known_key + hand_keys[players]
            board_bits = known_bits | hand_bits[players]
            for p in range(players):
                q = seats[p]
                if q >= 0:
                    c = chosen[q]
                    keys[p, d] = board_key + combo_keys[c]
                    cards[p, d] = board_bits | combo_masks[c]
                else:
                    keys[p, d] = board_key + fixed_keys[p] + hand_keys[p]
                    cards[p, d] = board_bits | fixed_masks[p] | hand_bits[p]
        # every hand on every board as if it made no flush, the flushes listed and mended
        count = U64(0)
        for p in range(players):
            row = values[p]
            key_row = keys[p]
            listed = U64(p) * U64(DEALS)
            for d in range(U64(deals)):
                key = key_row[d]
                row[d] = hash_read(rank_values, rank_offsets, key & KEY_MASK)
                flushes[count] = listed + d
                count += U64((key & FLUSH_BITS) != 0)
        for f in range(count):
            p = flushes[f] // U64(DEALS)
            d = flushes[f] % U64(DEALS)
            suit = flush_suit(keys[p, d] & FLUSH_BITS)
            values[p, d] = flush_values[suit_mask(cards[p, d], suit)]
        count_block(values, players, deals, by_mask, by_player, best, won)
    add_block_counts(by_mask, by_player, hi_full)
    state[0] = s0
    state[1] = s1
    return restarts
