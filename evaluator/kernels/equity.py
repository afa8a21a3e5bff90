"""Equity kernels: sampling boards and tallying who wins each one.

Counts are integers.  For ``P`` players, ``hi_full[p, k]`` counts the boards
where ``p`` shares the whole pot with ``k - 1`` others, ``hi_half[p, k]`` and
``lo_half[p, k]`` the boards where ``p`` shares the high or the low half
(hi-lo games with a qualifying low).  Python turns them into exact fractions.
"""
import numpy as np

from .. import _layout
from .._jit import kernel
from ._intrinsics import mul_wide, popcount, select_bit, suit_mask, trailing_zeros
from .high import (
    COL_MASK,
    FLUSH_BITS,
    HAND_INIT,
    KEY_MASK,
    OFFSET_SHIFT,
    ONE,
    ROW_SHIFT,
    SUIT_ONES,
    THREE,
)

U64 = np.uint64
# board suit counters start at 0 in omaha_equity: +5 sets bit 3 from three cards up
FIVE_SUITS = U64(5) * SUIT_ONES
SUIT_SHIFT_3 = _layout.SUIT_SHIFT + 3
DECK_BITS = U64((1 << 52) - 1)
MAX_NEW_CARDS = 5           # board cards a best-five Monte Carlo deal draws at most


@kernel
def tally(hi, lo, hilo, scoops, splits, hi_full, hi_half, lo_half, squares):
    """Add every board's outcome to the counts.

    hi, lo : int32 (P, N) values per player and board (lo ignored unless hilo;
        a low value of 0 means no qualifying low)
    scoops, splits : int64 (P,) boards where p takes the whole pot / a part of it
    hi_full, hi_half, lo_half : int64 (P, P + 1) as in the module doc
    squares : float64 (P,) sum over boards of the squared pot share (for the
        standard error of a sampled equity)
    """
    players, boards = hi.shape
    # a sole winner's squared share is 1, each of k tied winners' (1 / k) ** 2
    share_squared = np.zeros(players + 1)
    for w in range(1, players + 1):
        share_squared[w] = (1.0 / w) * (1.0 / w)
    for t in range(boards):
        best = hi[0, t]
        for p in range(1, players):
            if hi[p, t] > best:
                best = hi[p, t]
        kh = 0
        for p in range(players):
            if hi[p, t] == best:
                kh += 1
        best_lo = 0
        kl = 0
        if hilo:
            for p in range(players):
                if lo[p, t] > best_lo:
                    best_lo = lo[p, t]
            if best_lo > 0:
                for p in range(players):
                    if lo[p, t] == best_lo:
                        kl += 1
        if kl == 0:
            # the high takes the pot: counted without branching on who won, which no
            # predictor learns when the hands are close
            for p in range(players):
                high = np.int64(hi[p, t] == best)
                hi_full[p, kh] += high
                squares[p] += high * share_squared[kh]
                scoops[p] += high & np.int64(kh == 1)
                splits[p] += high & np.int64(kh > 1)
            continue
        for p in range(players):
            high = hi[p, t] == best
            low = lo[p, t] == best_lo
            share = 0.0
            if high:
                hi_half[p, kh] += 1
                share = 0.5 / kh
            if low:
                lo_half[p, kl] += 1
                share += 0.5 / kl
            squares[p] += share * share
            if high and kh == 1 and low and kl == 1:
                scoops[p] += 1
            elif high or low:
                splits[p] += 1


@kernel
def hole_board_rows(hole, hole_width, boards, first, board_width, out):
    """out[i] = the hole cards (``hole``, or ``hole[i]`` when 2-d), then the board
    ``boards[i, first:first + board width]``.

    The widths come as ``width_marker`` arrays, so both card loops unroll: about 3 ns a row,
    where NumPy's two strided slice copies took 15-20 ns.  All arrays C-contiguous.
    """
    hw = hole_width.ndim
    bw = board_width.ndim
    h = hole.reshape(-1)
    b = boards.reshape(-1)
    stride = U64(boards.shape[1]) if boards.ndim == 2 else U64(0)
    o = out.reshape(-1)
    for i in range(U64(out.shape[0])):
        at = i * U64(hw + bw)
        for j in range(hw):
            if hole.ndim == 1:
                o[at + U64(j)] = h[j]
            else:
                o[at + U64(j)] = h[i * U64(hw) + U64(j)]
        for j in range(bw):
            o[at + U64(hw + j)] = b[i * stride + U64(first + j)]


@kernel
def enumerate_boards(live, known, need, out):
    """Every way to complete a board: ``known`` cards then ``need`` from ``live``.

    out : uint8 (C(len(live), need), len(known) + need), written in
    lexicographic order of the chosen positions.
    """
    m = live.shape[0]
    k = known.shape[0]
    idx = np.arange(need)
    row = 0
    if need == 0:
        for j in range(k):
            out[0, j] = known[j]
        return 1
    while True:
        for j in range(k):
            out[row, j] = known[j]
        for j in range(need):
            out[row, k + j] = live[idx[j]]
        row += 1
        # next combination of positions
        j = need - 1
        while j >= 0 and idx[j] == m - need + j:
            j -= 1
        if j < 0:
            return row
        idx[j] += 1
        for x in range(j + 1, need):
            idx[x] = idx[x - 1] + 1


@kernel
def sample_boards(live, known, need, out, state):
    """Random completions of a board, sampled without replacement.

    Each row: ``known`` then ``need`` cards drawn from ``live`` (``state``:
    uint64 (2,), advanced in place; the same state gives the same rows).  As
    in ``best5_sample``, a card is a uniform position among the cards left,
    which picks a bit out of their 52-bit mask (``select_bit``): no deck array
    and no redraws.  One xoroshiro128+ step gives the positions of four cards
    (``mul_wide``).
    """
    m = live.shape[0]
    k = known.shape[0]
    deck = U64(0)
    for j in range(m):
        deck |= ONE << U64(live[j])
    s0 = state[0]
    s1 = state[1]
    r = U64(0)
    for t in range(out.shape[0]):
        for j in range(k):
            out[t, j] = known[j]
        free = deck
        left = U64(m)
        for j in range(need):
            if j % 4 == 0:
                r, s0, s1 = next_u64(s0, s1)
            x, r = mul_wide(r, left)
            bit = select_bit(free, x)
            free ^= bit
            left -= ONE
            out[t, k + j] = trailing_zeros(bit)
    state[0] = s0
    state[1] = s1


@kernel
def best5_equity(holes, subs, known, live, need, first, card_keys, rank_offsets, rank_values,
                 flush_values, scoops, splits, hi_full, squares):
    """Exact equity by walking every board, for games whose hand is the best five
    of hole + board (used where ``best5_exact`` cannot split by flush classes).

    holes : uint8 (P, H), each player's hole cards
    subs : ``sub_marker(S)``: with S = 1 a player's hand is the hole with the
        board (hold'em family and The, H + board <= 7); with S = 3 (Tahoe,
        H = 3) the best of the three hole pairs, as in ``best5_sample``
    known : uint8 the board so far; ``need`` more cards come from ``live``
    first : int64 (2,) the range of the first new card's position in ``live``
        (threads take disjoint ranges)

    Boards are never stored: each completion's key is the sum of its ``need``
    new card keys, each sub-hand's key (the known board included) one more addition, and the
    counts (as in ``tally``) are updated in place.  Returns the boards seen.
    """
    players = holes.shape[0]
    S = subs.ndim
    k = known.shape[0]
    m = live.shape[0]
    known_key = HAND_INIT
    known_bits = U64(0)
    for j in range(k):
        known_key += card_keys[known[j]]
        known_bits |= ONE << U64(known[j])
    # each sub-hand's key and card mask, the known board included (as in best5_sample)
    hole_keys = np.empty(players * S, np.uint64)
    hole_bits = np.empty(players * S, np.uint64)
    _sub_hand_keys(holes, subs, known_key, known_bits, card_keys, hole_keys, hole_bits)
    board = np.full(k + 5, 255, np.uint8)         # known cards, new cards, padding
    board[:k] = known
    values = np.empty(players, np.int64)
    idx = np.arange(need) + (first[0] if need > 0 else 0)
    boards = 0
    while True:
        for j in range(need):
            board[k + j] = live[idx[j]]
        # a fixed five-term sum: unused slots hold card 255, whose key is 0
        # (a loop over ``need`` terms cost as much as the evaluations)
        new_key = (card_keys[board[k]] + card_keys[board[k + 1]] + card_keys[board[k + 2]]
                   + card_keys[board[k + 3]] + card_keys[board[k + 4]])
        best = 0
        winners = 0
        for p in range(players):
            v = np.int64(0)
            for q in range(S):
                key = hole_keys[p * S + q] + new_key
                if key & FLUSH_BITS:
                    cards = hole_bits[p * S + q]
                    for j in range(k, k + need):
                        cards |= ONE << U64(board[j])
                    suit = (trailing_zeros(key & FLUSH_BITS) - U64(SUIT_SHIFT_3)) >> U64(2)
                    v = max(v, np.int64(flush_values[suit_mask(cards, suit)]))
                else:
                    h = key & KEY_MASK
                    v = max(v, np.int64(rank_values[(U64(rank_offsets[h >> ROW_SHIFT])
                                                      << OFFSET_SHIFT) + (h & COL_MASK)]))
            values[p] = v
            if v > best:
                best = v
                winners = 1
            elif v == best:
                winners += 1
        # only hi_full is counted here; scoops, splits and squares follow from it
        for p in range(players):
            if values[p] == best:
                hi_full[p, winners] += 1
        boards += 1
        # next combination of positions
        j = need - 1
        while j >= 0 and idx[j] == m - need + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        if j == 0 and idx[0] >= first[1]:
            break
        for x in range(j + 1, need):
            idx[x] = idx[x - 1] + 1
    for p in range(players):
        scoops[p] += hi_full[p, 1]
        for w in range(2, players + 1):
            splits[p] += hi_full[p, w]
        for w in range(1, players + 1):
            squares[p] += hi_full[p, w] / (w * w)
    return boards


@kernel
def omaha_hole_pairs(holes):
    """Each player's hole pairs, as ``omaha_equity`` and ``omaha_hole_values`` read them:
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

    As in ``omaha_equity``: the hole's best non-flush hand is kept per board rank row
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
        row = U64(board_index[(U64(board_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                              + (h & COL_MASK)])
        v = plain[row]
        if v == 0:
            base = row * width
            for x in range(npairs):
                v = max(v, pairs_flat[base + pair_cols[x]])
            plain[row] = v
        counters = (board_key + FIVE_SUITS) & FLUSH_BITS
        if counters:
            suit = (trailing_zeros(counters) - U64(SUIT_SHIFT_3)) >> U64(2)
            board_mask = U64(0)
            for j in range(5):
                c = U64(boards[i, j])
                board_mask |= U64((c & THREE) == suit) << (c >> U64(2))
            flush_row = board_mask * U64(169)
            base = suit * U64(npairs)
            for x in range(suited_count[suit]):
                v = max(v, flush_flat[flush_row + suited_cols[base + U64(x)]])
        out[i] = v


@kernel
def omaha_equity(holes, known, live, need, samples, first, state, hilo, card_keys,
                 board_offsets, board_index, omaha_pairs, omaha_flush, low_card_bits,
                 omaha_low, scoops,
                 splits, hi_full, hi_half, lo_half, squares):
    """Fused equity loop for Omaha games (4 to 6 hole cards, 5-card final board).

    Arguments and counts as in ``best5_equity`` and ``tally``; ``hilo`` adds
    the 8-or-better low.  Each board costs its key and one hash lookup for the
    index of its ranks' ``omaha_pairs`` row.  A player's best non-flush hand on
    that row is the best of one entry per hole pair; it is kept, per player and
    row, the first time a row comes up, so later boards of the same ranks read
    one entry of a 12 kB array per player.  A flush is possible only when the
    board holds three cards of a suit (one board in seven); then each of the
    player's pairs of that suit (usually none or one) reads ``omaha_flush``.
    """
    players, hole = holes.shape
    k = known.shape[0]
    m = live.shape[0]
    rows = omaha_pairs.shape[0]
    width = U64(omaha_pairs.shape[1])
    pairs_flat = omaha_pairs.reshape(-1)
    flush_flat = omaha_flush.reshape(-1)
    npairs = hole * (hole - 1) // 2
    pair_cols, suited_cols, suited_count = omaha_hole_pairs(holes)
    hole_lows = np.zeros(players, np.int64)
    low_bits = np.zeros(256, np.int64)
    low_bits[:52] = low_card_bits
    for p in range(players):
        for a in range(hole):
            hole_lows[p] |= low_card_bits[holes[p, a]]
    # best non-flush value per (player, board row); 0: not computed yet (every real
    # row holds a hand, so its value is never 0)
    plain = np.zeros(players * rows, np.uint16)
    share_squared = np.zeros(players + 1)        # as in ``tally``
    for w in range(1, players + 1):
        share_squared[w] = (1.0 / w) * (1.0 / w)
    known_key = U64(0)
    known_low = 0
    for j in range(k):
        known_key += card_keys[known[j]]
        known_low |= low_card_bits[known[j]]
    board = np.full(k + 5, 255, np.uint8)         # known cards, new cards, padding
    board[:k] = known
    his = np.empty(players, np.int64)
    los = np.empty(players, np.int64)
    idx = np.arange(need) + (first[0] if need > 0 and not samples else 0)
    deck_bits = U64(0)
    for j in range(m):
        deck_bits |= ONE << U64(live[j])
    s0 = state[0]
    s1 = state[1]
    boards = 0
    while True:
        if samples:
            if boards == samples:
                break
            # as in best5_sample: one generator step, one pdep per card
            free = deck_bits
            left = U64(m)
            r, s0, s1 = next_u64(s0, s1)
            for j in range(MAX_NEW_CARDS):
                if j < need:
                    x, r = mul_wide(r, left)
                    bit = select_bit(free, x)
                    free ^= bit
                    left -= ONE
                    board[k + j] = trailing_zeros(bit)
        else:
            for j in range(need):
                board[k + j] = live[idx[j]]
        # fixed five-term sums: unused slots hold card 255, whose key and low bits are 0
        board_key = (known_key + card_keys[board[k]] + card_keys[board[k + 1]]
                     + card_keys[board[k + 2]] + card_keys[board[k + 3]]
                     + card_keys[board[k + 4]])
        board_low = (known_low | low_bits[board[k]] | low_bits[board[k + 1]]
                     | low_bits[board[k + 2]] | low_bits[board[k + 3]] | low_bits[board[k + 4]])
        h = board_key & KEY_MASK
        row = U64(board_index[(U64(board_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                              + (h & COL_MASK)])
        # the suit with three or more board cards, if any (counters start at 0 here), and
        # the row of omaha_flush for its ranks on the board
        counters = (board_key + FIVE_SUITS) & FLUSH_BITS
        flush_suit = U64(0)
        flush_row = U64(0)
        if counters:
            flush_suit = (trailing_zeros(counters) - U64(SUIT_SHIFT_3)) >> U64(2)
            board_mask = U64(0)
            for j in range(k + need):
                c = U64(board[j])
                board_mask |= U64((c & THREE) == flush_suit) << (c >> U64(2))
            flush_row = board_mask * U64(169)
        best = 0
        best_lo = 0
        for p in range(players):
            cell = U64(p) * U64(rows) + row
            v = plain[cell]
            if v == 0:
                base = row * width
                t = U64(p * npairs)
                for _ in range(npairs):
                    v = max(v, pairs_flat[base + pair_cols[t]])
                    t += ONE
                plain[cell] = v
            if counters:
                ps = U64(p * 4) + flush_suit
                t = ps * U64(npairs)
                for _ in range(suited_count[ps]):
                    v = max(v, flush_flat[flush_row + suited_cols[t]])
                    t += ONE
            his[p] = v
            if v > best:
                best = v
            if hilo:
                lv = np.int64(omaha_low[hole_lows[p], board_low])
                los[p] = lv
                if lv > best_lo:
                    best_lo = lv
        kh = 0
        kl = 0
        for p in range(players):
            if his[p] == best:
                kh += 1
            if best_lo > 0 and los[p] == best_lo:
                kl += 1
        # the counting of ``tally``, written out again: an inlined helper taking the count
        # arrays measured 0.52-0.66x (Omaha against random, hi-lo Monte Carlo)
        if kl == 0:
            for p in range(players):
                high = np.int64(his[p] == best)
                hi_full[p, kh] += high
                squares[p] += high * share_squared[kh]
                scoops[p] += high & np.int64(kh == 1)
                splits[p] += high & np.int64(kh > 1)
        else:
            for p in range(players):
                high = his[p] == best
                low = los[p] == best_lo
                share = 0.0
                if high:
                    hi_half[p, kh] += 1
                    share = 0.5 / kh
                if low:
                    lo_half[p, kl] += 1
                    share += 0.5 / kl
                squares[p] += share * share
                if high and kh == 1 and low and kl == 1:
                    scoops[p] += 1
                elif high or low:
                    splits[p] += 1
        boards += 1
        if not samples:
            j = need - 1
            while j >= 0 and idx[j] == m - need + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            if j == 0 and idx[0] >= first[1]:
                break
            for x in range(j + 1, need):
                idx[x] = idx[x - 1] + 1
    state[0] = s0
    state[1] = s1
    return boards


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
            plain[p] = rank_values[(U64(rank_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                                   + (h & COL_MASK)]
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
def _sub_hand_keys(cards, subs, known_key, known_bits, card_keys, hole_keys, hole_bits):
    """Each player's sub-hand keys and card masks (with the known board) for
    ``best5_sample``: the whole hole, or (Tahoe) each hole pair."""
    players, hole = cards.shape
    S = subs.ndim
    for p in range(players):
        key = known_key
        bits = known_bits
        for j in range(hole):
            key += card_keys[cards[p, j]]
            bits |= ONE << U64(cards[p, j])
        for q in range(S):
            if S == 1:
                hole_keys[p] = key
                hole_bits[p] = bits
            else:                                # Tahoe: all but card 2 - q
                out = cards[p, 2 - q]
                hole_keys[p * S + q] = key - card_keys[out]
                hole_bits[p * S + q] = bits ^ (ONE << U64(out))


@kernel
def best5_sample(holes, subs, unknown, known, live, need, samples, state, card_keys,
                 rank_offsets, rank_values, flush_values, hi_full):
    """Monte Carlo for best-five games and Tahoe: ``samples`` random deals.

    holes : uint8 (P, H), each player's hole cards
    subs : ``sub_marker(S)``: with S = 1 a player's hand is the hole with the
        board; with S = 3 (Tahoe, H = 3) the best of the three hole pairs
    unknown : int64 (P,) or (1, P): the last ``unknown[p]`` cards of ``holes[p]``
        are not known and are dealt on every deal, before the board; the dealing
        is compiled only for the 2-d shape (``unknown_cards``), which keeps it out
        of the loop for known hands

    Each card is drawn from ``live``: a uniform position among the cards left
    picks a bit out of their 52-bit mask (``select_bit``, one BMI2 ``pdep``),
    so sampling without replacement needs no redraws and no deck array.  One
    generator step gives the positions of five cards (``mul_wide``); unknown
    hole cards take a fresh step every four cards.  Counts go to ``hi_full``
    as in ``tally``; ``state`` is advanced in place.
    """
    players, hole = holes.shape
    S = subs.ndim
    k = known.shape[0]
    m = live.shape[0]
    cards = holes.copy()
    missing = unknown.reshape(-1)
    hidden = 0
    for p in range(players):
        hidden += missing[p]
    known_key = HAND_INIT
    known_bits = U64(0)
    for j in range(k):
        known_key += card_keys[known[j]]
        known_bits |= ONE << U64(known[j])
    hole_keys = np.empty(players * S, np.uint64)
    hole_bits = np.empty(players * S, np.uint64)  # a sub-hand's cards and the known board
    values = np.empty(players, np.int64)
    s0 = state[0]
    s1 = state[1]
    r = U64(0)
    deck = U64(0)
    for j in range(m):
        deck |= ONE << U64(live[j])
    _sub_hand_keys(cards, subs, known_key, known_bits, card_keys, hole_keys, hole_bits)
    for _ in range(samples):
        free = deck
        left = U64(m)
        if unknown.ndim == 2 and hidden:         # compiled only where some cards are unknown
            for p in range(players):
                u = missing[p]
                for j in range(u):
                    if j % 4 == 0:
                        r, s0, s1 = next_u64(s0, s1)
                    x, r = mul_wide(r, left)
                    bit = select_bit(free, x)
                    free ^= bit
                    left -= ONE
                    cards[p, hole - u + j] = trailing_zeros(bit)
            _sub_hand_keys(cards, subs, known_key, known_bits, card_keys, hole_keys,
                           hole_bits)
        board = free                             # the cards left before the board
        board_key = U64(0)
        r, s0, s1 = next_u64(s0, s1)
        for j in range(MAX_NEW_CARDS):       # a fixed count, so that the loop unrolls
            if j < need:
                x, r = mul_wide(r, left)
                bit = select_bit(free, x)
                free ^= bit
                left -= ONE
                board_key += card_keys[trailing_zeros(bit)]
        board ^= free
        best = 0
        for p in range(players):
            v = np.int64(0)
            for q in range(S):
                key = hole_keys[p * S + q] + board_key
                if key & FLUSH_BITS:
                    suit = (trailing_zeros(key & FLUSH_BITS) - U64(SUIT_SHIFT_3)) >> U64(2)
                    v = max(v, np.int64(flush_values[suit_mask(hole_bits[p * S + q] | board,
                                                               suit)]))
                else:
                    h = key & KEY_MASK
                    v = max(v, np.int64(rank_values[(U64(rank_offsets[h >> ROW_SHIFT])
                                                      << OFFSET_SHIFT) + (h & COL_MASK)]))
            values[p] = v
            best = max(best, v)
        winners = 0
        for p in range(players):
            winners += values[p] == best
        for p in range(players):
            hi_full[p, winners] += values[p] == best
    state[0] = s0
    state[1] = s1


@kernel
def omaha_exact(holes, known, live, multisets, hilo, card_keys, board_offsets, board_index,
                omaha_pairs, omaha_flush, low_card_bits, omaha_low, scoops, splits, hi_full,
                hi_half, lo_half, squares, consts):
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
        base = np.int64(board_index[(U64(board_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                                    + (h & COL_MASK)]) * width
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
            for p in range(players):
                high = his[p] == best
                low = kl > 0 and los[p] == best_lo
                share = 0.0
                if kl == 0:
                    if high:
                        hi_full[p, kh] += ways
                        share = 1.0 / kh
                else:
                    if high:
                        hi_half[p, kh] += ways
                        share = 0.5 / kh
                    if low:
                        lo_half[p, kl] += ways
                        share += 0.5 / kl
                squares[p] += ways * share * share
                if high and kh == 1 and (kl == 0 or (low and kl == 1)):
                    scoops[p] += ways
                elif high or low:
                    splits[p] += ways
    return total_boards


@kernel
def next_u64(s0, s1):
    """One xoroshiro128+ step: (64 random bits, s0, s1)."""
    r = s0 + s1
    s1 ^= s0
    s0 = ((s0 << U64(24)) | (s0 >> U64(40))) ^ s1 ^ (s1 << U64(16))
    s1 = (s1 << U64(37)) | (s1 >> U64(27))
    return r, s0, s1


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
                # (written inline: a helper taking arrays costs more than the search)
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
                x, r = mul_wide(r, left)
                bit = select_bit(free, x)
                free ^= bit
                left -= ONE
                boards[t, j] = trailing_zeros(bit)
        for j in range(MAX_NEW_CARDS, need):     # cards for hands without a range
            if j % MAX_NEW_CARDS == 0:
                r, s0, s1 = next_u64(s0, s1)
            x, r = mul_wide(r, left)
            bit = select_bit(free, x)
            free ^= bit
            left -= ONE
            boards[t, j] = trailing_zeros(bit)
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
    known_key = HAND_INIT
    known_bits = U64(0)
    for j in range(known.shape[0]):
        known_key += card_keys[known[j]]
        known_bits |= U64(1) << U64(known[j])
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
                suit = (trailing_zeros(key & FLUSH_BITS) - U64(SUIT_SHIFT_3)) >> U64(2)
                v = np.int64(flush_values[suit_mask(cards, suit)])
            else:
                h = key & KEY_MASK
                v = np.int64(rank_values[(U64(rank_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                                         + (h & COL_MASK)])
            values[p] = v
            best = max(best, v)
        winners = 0
        for p in range(players):
            winners += values[p] == best
        for p in range(players):
            hi_full[p, winners] += values[p] == best


@kernel
def _live_cards(holes, known, dead):
    """The cards in none of ``holes`` (P, H), ``known`` and ``dead``, in id order."""
    used = U64(0)
    for p in range(holes.shape[0]):
        for j in range(holes.shape[1]):
            used |= U64(1) << U64(holes[p, j])
    for j in range(known.shape[0]):
        used |= U64(1) << U64(known[j])
    for j in range(dead.shape[0]):
        used |= U64(1) << U64(dead[j])
    count = 0
    for c in range(52):
        count += not (used >> U64(c)) & U64(1)
    live = np.empty(count, np.uint8)
    count = 0
    for c in range(52):
        if not (used >> U64(c)) & U64(1):
            live[count] = c
            count += 1
    return live


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
        live = _live_cards(holes[i], known, dead)
        boards[i] = best5_exact(holes[i], known, live, multisets, card_keys, rank_offsets,
                                rank_values, flush_values, hi_full[i], consts)


@kernel
def best5_equity_batch(holes, subs, known, dead, need, card_keys, rank_offsets, rank_values,
                       flush_values, scoops, splits, hi_full, squares, boards):
    """``best5_equity`` walking every board of many deals in one call (a range's suit
    classes in Tahoe, and the best-five deals ``best5_exact`` leaves to walking).

    holes : uint8 (n, P, H) the hands of each deal; every count array gains a leading
    axis of length n (zeroed by the caller), and ``boards`` (n,) gets each deal's boards.
    """
    first = np.zeros(2, np.int64)
    for i in range(holes.shape[0]):
        live = _live_cards(holes[i], known, dead)
        first[1] = live.shape[0] - need + 1
        boards[i] = best5_equity(holes[i], subs, known, live, need, first, card_keys,
                                 rank_offsets, rank_values, flush_values, scoops[i], splits[i],
                                 hi_full[i], squares[i])


@kernel
def omaha_exact_batch(holes, known, dead, multisets, hilo, card_keys, board_offsets,
                      board_index, omaha_pairs, omaha_flush, low_card_bits, omaha_low, scoops,
                      splits, hi_full, hi_half, lo_half, squares, boards):
    """``omaha_exact`` for many deals in one call; every count array gains a
    leading axis of length n, and ``boards`` (n,) is -1 where the deal needs walking."""
    consts = class_tables()
    for i in range(holes.shape[0]):
        live = _live_cards(holes[i], known, dead)
        boards[i] = omaha_exact(holes[i], known, live, multisets, hilo, card_keys,
                                board_offsets, board_index, omaha_pairs, omaha_flush,
                                low_card_bits, omaha_low, scoops[i], splits[i], hi_full[i],
                                hi_half[i], lo_half[i], squares[i], consts)


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
    known_key = HAND_INIT
    for j in range(k):
        known_key += card_keys[known[j]]
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
                    suit = (trailing_zeros(key & FLUSH_BITS) - U64(SUIT_SHIFT_3)) >> U64(2)
                    v = np.int64(flush_values[suit_mask(board_mask | masks[i], suit)])
                else:
                    h = key & KEY_MASK
                    v = np.int64(rank_values[(U64(rank_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                                             + (h & COL_MASK)])
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


def sub_marker(subs):
    """The ``subs`` argument of ``best5_equity`` and ``best5_sample``: an array whose
    ``ndim`` (a compile-time constant, so the loop over sub-hands unrolls) is the
    number of sub-hands per player."""
    return np.zeros((1,) * subs, np.uint8)


def unknown_cards(counts):
    """The ``unknown`` argument of ``best5_sample`` for these per-player counts."""
    counts = np.asarray(counts, np.int64)
    return counts.reshape(1, -1) if counts.any() else counts


def weights_marker(weighted):
    """The ``weights_marker`` argument of ``best5_sample_ranges_hu``."""
    return np.zeros((1, 1) if weighted else (1,), np.uint8)


@kernel
def best5_sample_ranges_hu(combos, starts, cumulative, uniform, weights_marker, combo_masks,
                           taken, max_tries, known, need, samples, state, card_keys,
                           rank_offsets, rank_values, flush_values, hi_full):
    """Heads-up Monte Carlo for best-five games with ranges (deals as in
    ``sample_range_deals``), every per-deal quantity in a scalar and evaluated in place:
    about 1.5x the speed of dealing into arrays and calling ``tally_best5_deals``.

    One generator step picks both combos when both ranges have equal weights
    (high and low 32 bits, multiply-shift each).  ``weights_marker`` says
    whether some range has unequal weights (``weights_marker(flag)``): its
    ``ndim`` is a compile-time constant, so the equal-weights loop is compiled
    without the weighted search, which would otherwise crowd its registers.
    Returns the number of redeals, or -1 once they pass ``max_tries``
    (nothing is added to ``hi_full`` then).
    """
    hole = combos.shape[1]
    k = known.shape[0]
    known_key = HAND_INIT
    known_bits = U64(0)
    for j in range(k):
        known_key += card_keys[known[j]]
        known_bits |= ONE << U64(known[j])
    n = combos.shape[0]
    combo_keys = np.empty(n, np.uint64)
    for i in range(n):
        combo_keys[i] = known_key
        for j in range(hole):
            combo_keys[i] += card_keys[combos[i, j]]
    a0 = starts[0]
    n0 = starts[1] - a0
    a1 = starts[1]
    n1 = starts[2] - a1
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
    restarts = 0
    for _ in range(samples):
        while True:
            r, s0, s1 = next_u64(s0, s1)
            if both_uniform:
                # unsigned combo numbers: no negative-index handling on the reads
                c0 = U64(a0) + (((r >> U64(32)) * U64(n0)) >> U64(32))
                c1 = U64(a1) + (((r & U64(0xFFFFFFFF)) * U64(n1)) >> U64(32))
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
                        c0 = U64(x)
                    else:
                        c1 = U64(x)
            m0 = combo_masks[c0]
            m1 = combo_masks[c1]
            if (m0 & m1) == 0:
                break
            restarts += 1
            if restarts > max_tries:
                return -1
        # the board: uniform positions among the cards left, picked out of their mask
        # (one pdep each): no redraws, no branches.  One generator step serves the five
        # positions (``mul_wide``); the loop has a fixed count so that it unrolls.
        deck = DECK_BITS & ~(taken | m0 | m1)
        free = deck
        left = popcount(free)
        r, s0, s1 = next_u64(s0, s1)
        board_key = U64(0)
        for j in range(MAX_NEW_CARDS):
            if j < need:
                x, r = mul_wide(r, left)
                bit = select_bit(free, x)
                free ^= bit
                left -= ONE
                board_key += card_keys[trailing_zeros(bit)]
        board = (deck ^ free) | known_bits
        k0 = combo_keys[c0] + board_key
        k1 = combo_keys[c1] + board_key
        v0 = 0
        v1 = 0
        for p in range(2):
            key = k0 if p == 0 else k1
            if key & FLUSH_BITS:
                suit = (trailing_zeros(key & FLUSH_BITS) - U64(SUIT_SHIFT_3)) >> U64(2)
                cards = board | (m0 if p == 0 else m1)
                v = np.int64(flush_values[suit_mask(cards, suit)])
            else:
                h = key & KEY_MASK
                v = np.int64(rank_values[(U64(rank_offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT)
                                         + (h & COL_MASK)])
            if p == 0:
                v0 = v
            else:
                v1 = v
        # counted in scalars: increments of hi_full would wait on the last deal's store
        wins0 += v0 > v1
        wins1 += v1 > v0
        ties += v0 == v1
    hi_full[0, 1] += wins0
    hi_full[1, 1] += wins1
    hi_full[0, 2] += ties
    hi_full[1, 2] += ties
    state[0] = s0
    state[1] = s1
    return restarts
