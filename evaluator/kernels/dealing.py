"""Dealing: listing every board, sampling boards, and the random number generator.

Cards are dealt from a 52-bit mask of the cards left: a uniform position among
its set bits is picked with one ``pdep`` (``select_bit``), so sampling without
replacement needs no redraws and no deck array.  The generator is
xoroshiro128+ (``next_u64``); one 64-bit step deals several cards
(``mul_wide``: the high half of a 128-bit product is the position, the low
half the fraction for the next card).  ``draw_two`` deals the same two cards as two
``draw_card`` calls with one product and one ``pdep``.
"""

import numpy as np

from .._jit import kernel
from ._intrinsics import deposit, leading_zeros, mul_wide, select_bit, trailing_zeros
from .high import (
    ONE,
)

U64 = np.uint64
DECK_BITS = U64((1 << 52) - 1)
MAX_NEW_CARDS = 5           # board cards a best-five Monte Carlo deal draws at most
DEALS = 1024                # deals per block of the Monte Carlo kernels that deal in blocks



@kernel(inline="always")
def draw_card(r, free, left):
    """Deal one card uniformly from the ``left`` cards of the mask ``free``.

    The 128-bit product of the random fraction ``r`` and ``left`` gives a position in
    its high half and the fraction for the next card in its low half (``mul_wide``);
    ``select_bit`` picks that set bit of the mask.  Returns (card id, r, free, left),
    the mask and count without the card.  Inlined by Numba into its callers.
    """
    x, r = mul_wide(r, left)
    bit = select_bit(free, x)
    return trailing_zeros(bit), r, free ^ bit, left - ONE


@kernel
def pair_positions(left):
    """The positions two ``draw_card`` calls pick from a mask of ``left`` cards, as a mask
    of positions, for every pair of draws: entry ``x1 * (left - 1) + x2`` has bit ``x1``
    (the first draw) and the ``x2``-th of the other positions (the second).

    uint64 (left * (left - 1),); ``left`` at most 52 (18 KB for 48 cards, in L1)."""
    n = U64(left)
    table = np.empty(n * (n - ONE), np.uint64)
    for x1 in range(n):
        for x2 in range(n - ONE):
            table[x1 * (n - ONE) + x2] = (ONE << x1) | (ONE << (x2 + U64(x2 >= x1)))
    return table


@kernel(inline="always")
def draw_two(r, free, table, part, count):
    """Deal two cards from ``free`` as two ``draw_card`` calls would: the same two cards,
    and the same fraction left in ``r``, with one product and one ``pdep`` instead of two.

    ``table[part:part + count]`` is ``pair_positions(left)`` for the ``left`` cards of
    ``free`` (a part of the deal table, ``part`` a constant that folds into the load).  The
    high half of ``r * left * (left - 1)`` is ``x1 * (left - 1) + x2``, where ``x1`` and
    ``x2`` are the positions the two calls draw (the second call's product is the first's
    low half times ``left - 1``, and floor(a - k) = floor(a) - k for an integer ``k``); its
    low half is what the second call leaves.  The entry marks the two positions in
    ``free``'s order, and one deposit picks both cards.  On a Zen 4, five board cards dealt
    as two pairs and a card took 3.6 against 5.2 ns (the same boards): there the 128-bit
    products and the ``pdep``s bound the dealing, and this halves them.  Returns (the two
    cards' bits, r, free without them).  Inlined by Numba into its callers.
    """
    i, r = mul_wide(r, count)
    bits = deposit(table[U64(part) + i], free)
    return bits, r, free ^ bits


@kernel(inline="always")
def draw_one(r, free, table, left):
    """Deal one card from the ``left`` cards of ``free`` as ``draw_card`` does, its bit
    read from the deal table's single bits (``TAB_BITS``): (the card's bit, r, free without
    it).  Inlined by Numba into its callers."""
    i, r = mul_wide(r, left)
    bit = deposit(table[U64(TAB_BITS) + i], free)
    return bit, r, free ^ bit


# The deal table (``deal_table``): everything a deal looks up, in one flat uint64 array
# whose parts sit at fixed offsets.  Every lookup is then one load from one base register,
# the part's offset folded into the instruction: with a pointer per table, the heads-up
# range sampler's dealing loop kept 17 of them on the stack and reloaded them, about 20
# instructions of its 88 a deal (1.09-1.16x the deals a second with the table, the same deals).
MAX_PAIRS = 52 * 51             # the longest ``pair_positions``
TAB_KEYS = 0                    # card_keys[c] at TAB_KEYS + c
TAB_HIGH_KEYS = 64              # card_keys[c] at TAB_HIGH_KEYS + 63 - c (see ``pair_key``)
TAB_BITS = 128                  # 1 << i at TAB_BITS + i
TAB_ZEROS = 192                 # 64 zeros: ``TAB_HIGH_KEYS`` for a single card (no second key)
TAB_FIRST = 256                 # pair_positions(left): a board's first two cards
TAB_SECOND = TAB_FIRST + MAX_PAIRS      # pair_positions(left - 2): its next two
TAB_OWN = TAB_SECOND + MAX_PAIRS        # where the caller's own parts start


@kernel
def deal_table(card_keys, left, own):
    """The deal table for boards dealt from ``left`` cards, with ``own`` entries after
    ``TAB_OWN`` for the caller (left unset).  Returns (the table, the lengths of its two
    pair parts): the counts ``deal_board`` multiplies by."""
    n = U64(left)
    first = pair_positions(n)
    second = pair_positions(max(n, U64(4)) - U64(2))
    table = np.empty(TAB_OWN + own, np.uint64)
    for c in range(64):
        table[TAB_KEYS + c] = card_keys[c] if c < 52 else U64(0)
        table[TAB_HIGH_KEYS + 63 - c] = card_keys[c] if c < 52 else U64(0)
        table[TAB_BITS + c] = ONE << U64(c)
        table[TAB_ZEROS + c] = U64(0)
    for i in range(first.shape[0]):
        table[TAB_FIRST + i] = first[i]
    for i in range(second.shape[0]):
        table[TAB_SECOND + i] = second[i]
    return table, U64(first.shape[0]), U64(second.shape[0])


@kernel(inline="always")
def pair_key(table, pair):
    """The summed card keys of the two cards of ``pair`` (a mask with two bits set): the
    lower card by ``trailing_zeros``, the higher by ``leading_zeros`` into the keys stored
    high card first, with no instruction to clear the lower bit in between."""
    return (table[TAB_KEYS + trailing_zeros(pair)]
            + table[U64(TAB_HIGH_KEYS) + leading_zeros(pair)])


@kernel(inline="always")
def deal_board(r, free, need, table, first_count, second_count, last_left):
    """Deal ``need`` cards (at most ``MAX_NEW_CARDS``: callers check) from ``free`` as
    ``need`` calls of ``draw_card`` would, two at a time (``draw_two``) and an odd count's
    last card alone, every lookup in ``table`` (``deal_table``).

    ``first_count`` and ``second_count`` are the lengths of its pair parts (for the cards
    left and two fewer); ``last_left`` the cards left for the last card (left + 1 - need).
    Returns (the sum of the cards' keys, free without them, r).  The tests of ``need`` fold
    away where it is known when compiled.  Inlined by Numba into its callers.
    """
    key = U64(0)
    if need >= 2:
        pair, r, free = draw_two(r, free, table, TAB_FIRST, first_count)
        key += pair_key(table, pair)
    if need >= 4:
        pair, r, free = draw_two(r, free, table, TAB_SECOND, second_count)
        key += pair_key(table, pair)
    if need & 1:
        bit, r, free = draw_one(r, free, table, last_left)
        key += table[TAB_KEYS + trailing_zeros(bit)]
    return key, free, r


@kernel(inline="always")
def dealt_count(draws):
    """The board cards to deal from a ``markers.deal_marker``: its ``ndim`` (a compile-time
    constant) when above 1 (five cards, or two), else its length."""
    return draws.ndim if draws.ndim > 1 else draws.shape[0]


MAX_WIDTH = 6                   # the most cards of a part: six-card Omaha's hole


@kernel
def hole_board_rows(hole, hole_width, boards, first, board_width, out):
    """out[i] = the hole cards (``hole``, or ``hole[i]`` when 2-d), then the board
    ``boards[i, first:first + board_width]``.

    Both card loops run a fixed count (``MAX_WIDTH``: the widest hole) with a test of the
    width inside, so they unroll while one compiled kernel serves every width: 1.2-2.1 ns
    a row, 0.4-0.6 ns more than a kernel compiled per pair of widths (31 of them, 8 s of
    compiling in ``warmup``), where NumPy's two strided slice copies took 15-20 ns.  All
    arrays C-contiguous.
    """
    if hole_width > MAX_WIDTH or board_width > MAX_WIDTH:
        raise ValueError("hole_board_rows: a width above MAX_WIDTH")
    hw = U64(hole_width)
    h = hole.reshape(-1)
    b = boards.reshape(-1)
    stride = U64(boards.shape[1]) if boards.ndim == 2 else U64(0)
    o = out.reshape(-1)
    width = hw + U64(board_width)
    for i in range(U64(out.shape[0])):
        at = i * width
        held = U64(0) if hole.ndim == 1 else i * hw
        for j in range(MAX_WIDTH):
            if j < hole_width:
                o[at + U64(j)] = h[held + U64(j)]
        dealt = i * stride + U64(first)
        for j in range(MAX_WIDTH):
            if j < board_width:
                o[at + hw + U64(j)] = b[dealt + U64(j)]


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
            dealt, r, free, left = draw_card(r, free, left)
            out[t, k + j] = dealt
    state[0] = s0
    state[1] = s1


@kernel
def next_u64(s0, s1):
    """One xoroshiro128+ step: (64 random bits, s0, s1)."""
    r = s0 + s1
    s1 ^= s0
    s0 = ((s0 << U64(24)) | (s0 >> U64(40))) ^ s1 ^ (s1 << U64(16))
    s1 = (s1 << U64(37)) | (s1 >> U64(27))
    return r, s0, s1


@kernel
def live_cards(holes, known, dead):
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
