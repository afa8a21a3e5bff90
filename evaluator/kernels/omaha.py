"""Omaha kernels: exactly two hole cards and exactly three board cards.

hands : uint8 (n, hole + board), the hole cards first, 3 to 5 board cards.

The high hand is the best of the C(hole, 2) x 10 five-card hands.  With 3 or
4 board cards (``high_rows``) the keys of the board triples are computed once
per row; each combination then costs one addition and a lookup.  Flushes are
only checked when the board holds three cards of a suit.  Full boards go
through tables indexed by the board's rank multiset (``high_rows_direct``):
one entry per hole pair, or with four hole cards one entry per hand.

The 8-or-better low is one lookup: ``omaha_low[hole low-rank mask, board
low-rank mask]`` (see ``tables/generate.py``).
"""
import numpy as np

from .._jit import kernel
from ._intrinsics import prefetch, suit_mask, trailing_zeros
from .high import (
    FLUSH_BITS,
    HAND_INIT,
    KEY_MASK,
    ONE,
    SUIT_ONES,
    THREE,
    U64,
    flush_suit,
    hash_read,
)

# board suit counters start at 0 in Omaha equity: +5 sets bit 3 from three cards up
FIVE_SUITS = U64(5) * SUIT_ONES


@kernel
def high_rows(hands, hole, out, card_keys, rank_offsets, rank_values, flush_values):
    """out[i] = Omaha high value of hands[i] (``hole`` hole cards, then the board)."""
    end = hands.shape[1]                      # board: hands[:, hole:end], 3 to 5 cards
    triple_keys = np.empty(10, np.uint64)
    triple_bits = np.empty(10, np.int64)
    for i in range(hands.shape[0]):
        t = 0
        for x in range(hole, end - 2):
            for y in range(x + 1, end - 1):
                for z in range(y + 1, end):
                    cx = hands[i, x]
                    cy = hands[i, y]
                    cz = hands[i, z]
                    triple_keys[t] = HAND_INIT + card_keys[cx] + card_keys[cy] + card_keys[cz]
                    # rank bits of a one-suit triple (0 if the suits differ)
                    same = ((cx ^ cy) | (cx ^ cz)) & 3 == 0
                    triple_bits[t] = ((1 << (cx >> 2)) | (1 << (cy >> 2)) | (1 << (cz >> 2))
                                      if same else 0)
                    t += 1
        triples = t
        board_key = HAND_INIT
        for j in range(hole, end):
            board_key += card_keys[hands[i, j]]
        # a flush needs three board cards of a suit: counter 3 + 3, plus 2 sets bit 3
        maybe_flush = (board_key + SUIT_ONES + SUIT_ONES) & FLUSH_BITS
        best = 0
        for a in range(hole - 1):
            for b in range(a + 1, hole):
                ca = hands[i, a]
                cb = hands[i, b]
                pair_key = card_keys[ca] + card_keys[cb]
                pair_suited = (ca ^ cb) & 3 == 0
                for t in range(triples):
                    key = triple_keys[t] + pair_key
                    if maybe_flush and pair_suited and key & FLUSH_BITS:
                        v = flush_values[triple_bits[t] | (1 << (ca >> 2)) | (1 << (cb >> 2))]
                    else:
                        h = key & KEY_MASK
                        v = hash_read(rank_values, rank_offsets, h)
                    if v > best:
                        best = v
        out[i] = best


@kernel
def low_rows(hands, hole_marker, out, low_card_bits, omaha_low):
    """out[i] = 8-or-better low value of hands[i] (0: no low).

    ``hole_marker`` as in ``high_rows_direct``: with the hole count a constant
    and the board loop of fixed length, both loops unroll.
    """
    hole = hole_marker.ndim
    width = hands.shape[1]
    table = omaha_low.reshape(-1)
    for i in range(U64(hands.shape[0])):
        h = U64(0)
        for j in range(hole):
            h |= U64(low_card_bits[hands[i, j]])
        b = U64(0)
        for j in range(5):
            if hole + j < width:
                b |= U64(low_card_bits[hands[i, hole + j]])
        # unsigned: no negative-index handling on the read
        out[i] = table[(h << U64(8)) | b]



@kernel
def high_rows_direct(hands, hole_marker, out, card_keys, board_offsets, board_index,
                     omaha_pairs, omaha_flush, hole_offsets, hole_index, omaha_direct):
    """out[i] = Omaha high value of hands[i]: 4 to 6 hole cards, then 5 board cards.

    The board's rank multiset gets a dense index through the five-card hash.
    With 5 or 6 hole cards it picks a row of ``omaha_pairs`` and each hole pair
    reads one entry of that row.  With 4, the hole's rank multiset gets an index
    too (``hole_offsets``, ``hole_index``) and ``omaha_direct[board, hole]``
    (``_tables.omaha_direct``) is the best non-flush hand: one lookup instead of
    six.  Neither table (2 MB, 22.5 MB) fits the L2 cache everywhere, so hands
    go in blocks: the first pass finds each hand's entries and asks the cache
    for them (a prefetch each); the second pass reads them, by then mostly
    arrived.  Blocks of 16 for the pairs; 64 for the single entries, which come
    from further away.  When the board holds three cards of a suit and the hole
    two of the same suit, each suited hole pair also reads ``omaha_flush``.

    ``hole_marker`` is any array with one dimension per hole card
    (``ndim_marker(4)``): its ``ndim`` is a compile-time constant, so Numba
    compiles one loop per hole count, with its pair loops unrolled and only one
    of the two table paths.  ``omaha_direct`` (and the hole hash) may be any
    small uint16 arrays for 5 and 6 hole cards: they are not read.
    """
    hole = hole_marker.ndim
    four = hole == 4
    pairs = omaha_pairs.reshape(-1)
    direct = omaha_direct.reshape(-1)
    flush_table = omaha_flush.reshape(-1)
    width = U64(omaha_direct.shape[1] if four else omaha_pairs.shape[1])
    block = 64 if four else 16
    bases = np.empty(block, np.uint64)
    flush_best = np.empty(block, np.int64)
    n = U64(hands.shape[0])
    # unsigned row numbers and offsets: Numba adds negative-index handling to every
    # read through a signed index, which costs more than the read in these loops.  The
    # flush code is written out here, not called: as an inlined helper it made the
    # whole kernel 0.40-0.67x as fast.
    for start in range(U64(0), n, U64(block)):
        rows = min(U64(block), n - start)
        # pass 1: the entries (prefetched), and the rare flushes (their branches stay
        # out of pass 2, whose reads must not wait behind mispredictions)
        for q in range(rows):
            i = start + q
            board_key = HAND_INIT
            for j in range(hole, hole + 5):
                board_key += card_keys[hands[i, j]]
            hole_key = HAND_INIT
            for j in range(hole):
                hole_key += card_keys[hands[i, j]]
            h = board_key & KEY_MASK
            base = U64(hash_read(board_index, board_offsets, h)) * width
            if four:
                g = hole_key & KEY_MASK
                base += U64(hash_read(hole_index, hole_offsets, g))
                prefetch(direct, base)
            else:
                for a in range(hole - 1):
                    ra = base + U64(hands[i, a] >> 2) * U64(13)
                    for b in range(a + 1, hole):
                        prefetch(pairs, ra + U64(hands[i, b] >> 2))
            bases[q] = base
            # a flush needs three board cards and two hole cards of one suit: the board's
            # counters (from 3) plus 2 and the hole's (from 3) plus 3 both set bit 3
            both = ((board_key + SUIT_ONES + SUIT_ONES)
                    & (hole_key + SUIT_ONES + SUIT_ONES + SUIT_ONES) & FLUSH_BITS)
            best = 0
            if both:
                suit = flush_suit(both)
                board_cards = U64(0)
                for j in range(hole, hole + 5):
                    board_cards |= ONE << U64(hands[i, j])
                hole_cards = U64(0)
                for j in range(hole):
                    hole_cards |= ONE << U64(hands[i, j])
                board_mask = suit_mask(board_cards, suit) * U64(169)
                # every pair of the suit's hole ranks (usually just one pair)
                m = suit_mask(hole_cards, suit)
                while m:
                    ra = trailing_zeros(m)
                    m &= m - ONE
                    others = m
                    while others:
                        rb = trailing_zeros(others)
                        others &= others - ONE
                        v = np.int64(flush_table[board_mask + U64(13) * ra + rb])
                        if v > best:
                            best = v
            flush_best[q] = best
        # pass 2: the entry (four hole cards) or one entry of the row per hole pair
        for q in range(rows):
            i = start + q
            base = bases[q]
            best = flush_best[q]
            if four:
                v = np.int64(direct[base])
                if v > best:
                    best = v
            else:
                for a in range(hole - 1):
                    ra = base + U64(hands[i, a] >> 2) * U64(13)
                    for b in range(a + 1, hole):
                        v = np.int64(pairs[ra + U64(hands[i, b] >> 2)])
                        if v > best:
                            best = v
            out[i] = best


@kernel
def omaha_hole_pairs(holes):
    """Each player's hole pairs, as ``walks.omaha_count_boards`` and ``omaha_hole_values``
    read them:
    (pair_cols, suited_cols, suited_count), flat uint64 arrays read through unsigned
    offsets (signed 2-d indexing cost more than the table reads).

    pair_cols[p * npairs + t] is the ``omaha_pairs`` column 13 * rank + rank of player
    p's pair t; suited_cols[(4 * p + s) * npairs + x], x < suited_count[4 * p + s], are
    the columns of p's pairs of suit s.  Called once per kernel call, not per board.
    """
    players, hole = holes.shape
    npairs = hole * (hole - 1) // 2
    pair_cols = np.empty(players * npairs, np.uint64)
    suited_cols = np.empty(players * 4 * npairs, np.uint64)
    suited_count = np.zeros(players * 4, np.uint64)
    for p in range(players):
        t = p * npairs
        for a in range(hole):
            for b in range(a + 1, hole):
                ca = U64(holes[p, a])
                cb = U64(holes[p, b])
                col = U64(13) * (ca >> U64(2)) + (cb >> U64(2))
                pair_cols[t] = col
                if (ca & THREE) == (cb & THREE):
                    ps = U64(p * 4) + (ca & THREE)
                    suited_cols[ps * U64(npairs) + suited_count[ps]] = col
                    suited_count[ps] += ONE
                t += 1
    return pair_cols, suited_cols, suited_count


@kernel
def omaha_hole_values(hole, boards, out, card_keys, board_offsets, board_index, omaha_pairs,
                      omaha_flush):
    """out[i] = Omaha high value of the fixed ``hole`` (4 to 6 cards) on ``boards[i]``
    (five cards each).

    As in ``walks.omaha_count_boards``: the hole's best non-flush hand is kept per board rank row
    the first time the row comes up, and flush entries are read only for the hole's
    pairs of a suit with three board cards.  For one hand against many boards this
    costs less than building every row and evaluating it (``omaha.high_rows_direct``).
    """
    holes = hole.shape[0]
    npairs = holes * (holes - 1) // 2
    rows = omaha_pairs.shape[0]
    width = U64(omaha_pairs.shape[1])
    pairs_flat = omaha_pairs.reshape(-1)
    flush_flat = omaha_flush.reshape(-1)
    pair_cols, suited_cols, suited_count = omaha_hole_pairs(hole.reshape(1, holes))
    plain = np.zeros(rows, np.uint16)    # 0: not computed yet (a real row is never 0)
    for i in range(U64(boards.shape[0])):
        board_key = U64(0)
        for j in range(5):
            board_key += card_keys[boards[i, j]]
        h = board_key & KEY_MASK
        row = U64(hash_read(board_index, board_offsets, h))
        v = plain[row]
        if v == 0:
            base = row * width
            for x in range(npairs):
                v = max(v, pairs_flat[base + pair_cols[x]])
            plain[row] = v
        counters = (board_key + FIVE_SUITS) & FLUSH_BITS
        if counters:
            suit = flush_suit(counters)
            board_mask = U64(0)
            for j in range(5):
                c = U64(boards[i, j])
                board_mask |= U64((c & THREE) == suit) << (c >> U64(2))
            flush_row = board_mask * U64(169)
            base = suit * U64(npairs)
            for x in range(suited_count[suit]):
                v = max(v, flush_flat[flush_row + suited_cols[base + U64(x)]])
        out[i] = v
