"""The fused range samplers of best-five games: deal combos by weight and evaluate them in
blocks, with no arrays of dealt cards in between.

``best5_sample_ranges_hu`` serves two players on a stream of its own;
``best5_sample_ranges`` any number, on the stream of ``ranges.sample_range_deals`` (the
same deals, deal for deal).  The heads-up one takes every lookup of a deal, its combos'
keys and masks included, from one deal table (``dealing.deal_table``); the multiway one its
card keys and pair positions.
"""

import numpy as np

from .._jit import kernel
from ._intrinsics import (
    deposit,
    leading_zeros,
    mul_wide,
    popcount,
    suit_mask,
    trailing_zeros,
)
from .counting import add_block_counts, block_counts, count_block
from .dealing import (
    DEALS,
    DECK_BITS,
    MAX_NEW_CARDS,
    MAX_PAIRS,
    TAB_BITS,
    TAB_HIGH_KEYS,
    TAB_KEYS,
    TAB_OWN,
    TAB_ZEROS,
    deal_board,
    deal_table,
    dealt_count,
    draw_one,
    draw_two,
    next_u64,
    pair_key,
    pair_positions,
)
from .high import (
    FLUSH_BITS,
    KEY_MASK,
    ONE,
    combo_keys_masks,
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
def table_combos(table, combos, starts, known_key, card_keys):
    """Each of the two players' combos into its parts of the heads-up deal table: keys at
    ``HERO_KEYS`` (the villain's ``RANGE_ROWS`` on), masks at ``HERO_MASKS``.  A call of its
    own: an array of keys held in the sampler measured 0.93x on its dealing loop."""
    keys, masks = combo_keys_masks(combos, known_key, card_keys)
    for p in range(2):
        for i in range(starts[p + 1] - starts[p]):
            table[HERO_KEYS + p * RANGE_ROWS + i] = keys[starts[p] + i]
            table[HERO_MASKS + p * RANGE_ROWS + i] = masks[starts[p] + i]


@kernel
def best5_sample_ranges_hu(combos, starts, cumulative, uniform, combo_draw, taken,
                           known, draws, samples, state, card_keys,
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

    ``combo_draw`` (``markers.combo_marker``, its ``ndim`` a compile-time constant, so that
    the equal-weights loop is compiled without the weighted search, which would otherwise
    crowd its registers) says where a deal's two combos come from:

    * ``ndim`` 1, equal weights, the first stream: a generator step of their own (high and
      low 32 bits, multiply-shift each);
    * 2, some weights differ: a step a player, each searched in its cumulative weights;
    * 3, equal weights, the second stream (the default since version 2): the fraction the
      deal before left of its board's step (``mul_wide``, the combos as two more digits of
      it), a step of their own only for a chunk's first deal and a redeal.  One step a deal
      where there were two, and the combos no longer wait on a step of their own: 1.09x
      pre-flop (111 -> 121 M deals/s, QQ+,AKs against a random hand, Zen 4) and 1.08x on a
      flop, with other deals.  The caller picks it only where the board's and the combos'
      counts multiply to at most 2**``CARRIED_BITS`` (``markers.combo_marker``), so that each
      outcome's probability stays within 2**-18 of its share, as the first stream's worst
      case does (a range of 22,100 combos in 32 bits).
    The caller makes sure that most draws fit (``engine.sampler.RangeSampler`` measures
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
    table_combos(table, combos, starts, known_key, card_keys)
    deck = DECK_BITS & ~taken
    both_uniform = combo_draw.ndim != 2
    carried = combo_draw.ndim == 3
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
    # the fraction a deal's combos are drawn from
    fraction = U64(0)
    if carried:
        fraction, s0, s1 = next_u64(s0, s1)
    for start in range(0, samples, DEALS):
        deals = min(DEALS, samples - start)
        # the deals of the block, dealt and kept: their keys and card masks
        for d in range(deals):
            if not carried:
                fraction, s0, s1 = next_u64(s0, s1)
            while True:
                r = fraction
                # unsigned combo numbers: no negative-index handling on the reads
                if carried:
                    c0, r = mul_wide(r, U64(n0))
                    c1, r = mul_wide(r, U64(n1))
                elif both_uniform:
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
                fraction, s0, s1 = next_u64(s0, s1)
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
            fraction = r                # the next deal's combos' (``carried``)
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


@kernel(inline="always")
def pair_part(j):
    """Where the pair table of a unit whose first card is draw ``j`` of a deal starts in the
    multiway sampler's deal table: a part of ``MAX_PAIRS`` entries per draw, so that where
    ``j`` is a constant (``deal_straight``) so is the part."""
    return U64(TAB_OWN) + U64(j) * U64(MAX_PAIRS)


@kernel(inline="always")
def deal_straight(dealer, d, free, left, need, s0, s1, table, flat_keys, flat_bits):
    """Deal deal ``d``'s new cards as the unit dealer of ``best5_sample_ranges`` does (the
    same units, generator steps and cards), for ``dealer.ndim - 2`` dealt players of two
    cards each (a compile-time count: the loop over them unrolls, and each unit's draw
    number, pair part and row fold into constants), then ``need`` board cards.

    ``free`` is the mask of cards left after the combos, ``left`` its count.  Each dealt
    player's keys and mask go to row ``m`` of ``flat_keys`` and ``flat_bits`` (``DEALS``
    a row), the board's to the row after them.  Returns the generator's state."""
    dealt = dealer.ndim - 2
    r = U64(0)
    for m in range(dealt):
        j = 2 * m
        if j % MAX_NEW_CARDS == 0:
            r, s0, s1 = next_u64(s0, s1)
        here = left - U64(j)
        if j % MAX_NEW_CARDS != MAX_NEW_CARDS - 1:
            # both cards from this step: one unit of two
            bits, r, free = draw_two(r, free, table, pair_part(j), here * (here - ONE))
            key = pair_key(table, bits)
        else:
            # the step's last card, then the next step's first
            first, r, free = draw_one(r, free, table, here)
            r, s0, s1 = next_u64(s0, s1)
            bits, r, free = draw_one(r, free, table, here - ONE)
            key = table[TAB_KEYS + trailing_zeros(first)]
            key += table[TAB_KEYS + trailing_zeros(bits)]
            bits |= first
        flat_keys[U64(m * DEALS) + U64(d)] = key
        flat_bits[U64(m * DEALS) + U64(d)] = bits
    # the board: two cards a unit where both come from one step, as the unit dealer pairs
    # them; ``need`` is read at run time (a constant measured the same)
    key = U64(0)
    held = U64(0)
    paired = False
    for k in range(MAX_NEW_CARDS):
        j = 2 * dealt + k
        if k < need and not paired:
            if j % MAX_NEW_CARDS == 0:
                r, s0, s1 = next_u64(s0, s1)
            here = left - U64(j)
            if k + 1 < need and (j + 1) % MAX_NEW_CARDS != 0:
                bits, r, free = draw_two(r, free, table, pair_part(j), here * (here - ONE))
                key += pair_key(table, bits)
                paired = True
            else:
                bits, r, free = draw_one(r, free, table, here)
                key += table[TAB_KEYS + trailing_zeros(bits)]
            held |= bits
        else:
            paired = False
    flat_keys[U64(dealt * DEALS) + U64(d)] = key
    flat_bits[U64(dealt * DEALS) + U64(d)] = held
    if dealt == 0 and need == 0:
        # the unit dealer takes one step a deal even with no card to deal
        r, s0, s1 = next_u64(s0, s1)
    return s0, s1


@kernel
def best5_sample_ranges(combos, starts, cumulative, uniform, combo_masks, taken, max_tries,
                        state, seats, fixed_keys, fixed_masks, hidden, dealer, known, need,
                        samples, card_keys, rank_offsets, rank_values, flush_values, hi_full):
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
    dealer : ``markers.dealer_marker(hidden)``: ``ndim`` 1 for the unit dealer, else
        ``ndim`` M + 2 for the straight dealer of M dealt players with two cards each
    known : uint8 the board so far; ``need`` its cards to deal
    hi_full : int64 (P, P + 1) incremented

    Returns the redeals made, or -1 once they pass ``max_tries``: ``hi_full`` is then left
    as it was (the counts are added at the end), and the caller refuses the chunk.

    A block is dealt in two passes.  The first walks the generator in the stream's order,
    deal by deal: the combos (redealt when two share a card), then the steps the new cards
    will take their positions from (five cards to a step), kept.  The second deals the new
    cards a unit at a time across the whole block: a unit is two cards from the same step
    for the same owner (one product and one ``pdep`` of a pair of positions, as ``draw_two``
    deals, from a pair table of its own in the deal table)
    or one card.  Each loop over the block is then short, branch-free and the same for
    every deal, where dealing each deal's cards in turn was a chain of dependent draws in
    loops of varying length: QQ+,AKs against two random hands 54 against 38 M deals/s,
    against 22+,A2s+ and a random hand 48 against 37, nine-handed 23 against 16, short
    deck four-handed 42 against 32 (Zen 4, side by side), the same deals and counts.

    Where every dealt player gets two cards and there are few of them (``dealer``), the
    new cards are dealt in the first pass instead, deal by deal, by ``deal_straight``: code
    written out for that count of players, every unit's pair table and row a constant, the
    mask of cards left and the generator's fraction in registers.  One to three players dealt
    beside the ranges 1.23-1.27x the unit dealer, five 1.16x, eight 1.04x (so not used
    there), none (ranges only) 1.10x; the same deals and counts.
    """
    players = seats.shape[0]
    ranged = starts.shape[0] - 1
    hole = combos.shape[1]
    if need < 0 or need > MAX_NEW_CARDS:
        raise ValueError("best5_sample_ranges: a count of board cards to deal outside 0..5")
    known_key, known_bits = known_board(known, card_keys)
    combo_keys, _ = combo_keys_masks(combos, known_key, card_keys)
    # the new cards of a deal: each dealt player's in turn, then the board's (the owner
    # ``players``), five to a generator step
    draws = need
    for p in range(players):
        draws += hidden[p]
    steps = max(1, (draws + MAX_NEW_CARDS - 1) // MAX_NEW_CARDS)
    owners = np.empty(draws, np.int64)
    j = 0
    for p in range(players + 1):
        for _ in range(hidden[p] if p < players else need):
            owners[j] = p
            j += 1
    # ... as units: two cards from one step for one owner, else one card.  The cards left
    # before the first are the same on every deal (the combos are disjoint, and miss taken)
    left = popcount(DECK_BITS & ~taken) - U64(ranged * hole)
    unit_owner = np.empty(draws, np.int64)
    unit_step = np.empty(draws, np.int64)
    unit_pair = np.empty(draws, np.bool_)
    unit_first = np.empty(draws, np.bool_)       # the owner's first unit
    unit_left = np.empty(draws, np.uint64)       # cards left before it
    unit_at = np.empty(draws, np.uint64)         # its positions' part of the deal table
    units = 0
    j = 0
    while j < draws:
        pair = j + 1 < draws and owners[j + 1] == owners[j] and (j + 1) % MAX_NEW_CARDS != 0
        here = left - U64(j)
        unit_owner[units] = owners[j]
        unit_step[units] = j // MAX_NEW_CARDS
        unit_pair[units] = pair
        unit_first[units] = units == 0 or unit_owner[units - 1] != owners[j]
        unit_left[units] = here
        unit_at[units] = pair_part(j) if pair else U64(TAB_BITS)
        units += 1
        j += 2 if pair else 1
    # a pair's first card is at most the deal's last but one
    table, _, _ = deal_table(card_keys, left, U64(max(draws - 1, 0)) * U64(MAX_PAIRS))
    for u in range(units):
        if unit_pair[u]:
            positions = pair_positions(unit_left[u])
            for i in range(positions.shape[0]):
                table[unit_at[u] + U64(i)] = positions[i]
    chosen = np.empty((max(ranged, 1), DEALS), np.uint64)
    free = np.empty(DEALS, np.uint64)
    fractions = np.empty((steps, DEALS), np.uint64)
    # each owner's new cards: their keys summed, their mask (0 for owners of none), in a
    # row per player and one for the board; the straight dealer's rows are the dealt
    # players' in turn and then the board's (a constant row each)
    straight = dealer.ndim > 1
    row_of = np.arange(players + 1)
    if straight:
        m = 0
        for p in range(players):
            row_of[p] = players                 # a row never written: zeros
            if hidden[p]:
                if hidden[p] != 2:
                    raise ValueError("best5_sample_ranges: the straight dealer deals two cards "
                                     "to each dealt player")
                row_of[p] = m
                m += 1
        if m != dealer.ndim - 2:
            raise ValueError("best5_sample_ranges: a dealer marker for another count of "
                             "dealt players")
        row_of[players] = m
    flat_keys = np.zeros((players + 1) * DEALS, np.uint64)
    flat_bits = np.zeros((players + 1) * DEALS, np.uint64)
    new_keys = flat_keys.reshape(players + 1, DEALS)
    new_bits = flat_bits.reshape(players + 1, DEALS)
    values = np.empty((players, DEALS), np.int32)
    flushes = np.empty(players * DEALS, np.uint32)
    by_mask, by_player, best, won = block_counts(players, DEALS)
    s0 = state[0]
    s1 = state[1]
    restarts = 0
    for start in range(0, samples, DEALS):
        deals = min(DEALS, samples - start)
        # the generator, deal by deal: the combos (as sample_range_deals draws them, see
        # there; a copy of its loop, which the tests hold to the same deals), then the
        # steps of the new cards
        for d in range(deals):
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
                    chosen[q, d] = x
                if ok:
                    break
                restarts += 1
                if restarts > max_tries:
                    state[0] = s0
                    state[1] = s1
                    return -1
            if straight:
                s0, s1 = deal_straight(dealer, d, DECK_BITS & ~used, left, need, s0, s1,
                                       table, flat_keys, flat_bits)
                continue
            free[d] = DECK_BITS & ~used
            for k in range(steps):
                r, s0, s1 = next_u64(s0, s1)
                fractions[k, d] = r
        # the new cards, a unit at a time across the block: the unit's product, positions
        # and owner the same in every deal of the loop
        for u in range(0 if straight else units):
            fraction = fractions[unit_step[u]]
            keys = new_keys[unit_owner[u]]
            held = new_bits[unit_owner[u]]
            at = unit_at[u]
            # a pair's higher card by leading_zeros; a single card's there is none (zeros)
            high = U64(TAB_HIGH_KEYS) if unit_pair[u] else U64(TAB_ZEROS)
            count = unit_left[u] * (unit_left[u] - ONE) if unit_pair[u] else unit_left[u]
            if unit_first[u]:
                for d in range(U64(deals)):
                    i, r = mul_wide(fraction[d], count)
                    bits = deposit(table[at + i], free[d])
                    free[d] ^= bits
                    fraction[d] = r
                    keys[d] = (table[TAB_KEYS + trailing_zeros(bits)]
                               + table[high + leading_zeros(bits)])
                    held[d] = bits
            else:
                for d in range(U64(deals)):
                    i, r = mul_wide(fraction[d], count)
                    bits = deposit(table[at + i], free[d])
                    free[d] ^= bits
                    fraction[d] = r
                    keys[d] += (table[TAB_KEYS + trailing_zeros(bits)]
                                + table[high + leading_zeros(bits)])
                    held[d] |= bits
        # every hand on every board as if it made no flush, the flushes listed and mended
        board_keys = new_keys[row_of[players]]
        count = U64(0)
        for p in range(players):
            row = values[p]
            listed = U64(p) * U64(DEALS)
            q = seats[p]
            if q >= 0:
                picks = chosen[q]
                for d in range(U64(deals)):
                    key = board_keys[d] + combo_keys[picks[d]]
                    row[d] = hash_read(rank_values, rank_offsets, key & KEY_MASK)
                    flushes[count] = listed + d
                    count += U64((key & FLUSH_BITS) != 0)
            else:
                mine = new_keys[row_of[p]]
                base = known_key + fixed_keys[p]
                for d in range(U64(deals)):
                    key = base + board_keys[d] + mine[d]
                    row[d] = hash_read(rank_values, rank_offsets, key & KEY_MASK)
                    flushes[count] = listed + d
                    count += U64((key & FLUSH_BITS) != 0)
        for f in range(count):
            p = flushes[f] // U64(DEALS)
            d = flushes[f] % U64(DEALS)
            q = seats[p]
            if q >= 0:
                c = chosen[q, d]
                key = board_keys[d] + combo_keys[c]
                cards = combo_masks[c]
            else:
                key = known_key + fixed_keys[p] + board_keys[d] + new_keys[row_of[p], d]
                cards = fixed_masks[p] | new_bits[row_of[p], d]
            cards |= known_bits | new_bits[row_of[players], d]
            values[p, d] = flush_values[suit_mask(cards, flush_suit(key & FLUSH_BITS))]
        count_block(values, players, deals, by_mask, by_player, best, won)
    add_block_counts(by_mask, by_player, hi_full)
    state[0] = s0
    state[1] = s1
    return restarts
