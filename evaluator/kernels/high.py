"""High-hand (best five cards) kernels for 5, 6 and 7 cards.

A hand's key is ``HAND_INIT`` plus the ``card_keys`` of its cards (see
``tables/generate.py``).  Adding a card is one addition, so enumeration loops
keep partial keys per level and pay one addition per hand.

Tables, always passed in this order: ``card_keys`` (uint64, 256),
``rank_offsets`` (uint16, halved), ``rank_values`` (uint16; uint32 in the five-card
hash), ``flush_values`` (uint16, 8192).

A hand of up to seven cards travels through the kernels as a *word*: a
uint64 holding one card id per byte, little-endian, unused bytes 0xFF (whose
key is 0).  Hot loops index the tables themselves instead of calling helpers
that take arrays: Numba passes arrays to non-inlined calls with reference
counting, which costs more than the whole evaluation.
"""
import numpy as np

from .. import _layout
from .._jit import kernel
from ._intrinsics import load_u64, popcount, trailing_zeros

U64 = np.uint64
HAND_INIT = U64(_layout.HAND_INIT)
FLUSH_BITS = U64(_layout.FLUSH_BITS)
KEY_MASK = U64(_layout.KEY_MASK)
ROW_SHIFT = U64(_layout.ROW_SHIFT)
OFFSET_SHIFT = U64(_layout.OFFSET_SHIFT)
COL_MASK = U64(_layout.COL_MASK)
SUIT_SHIFT = U64(_layout.SUIT_SHIFT)
SUIT_ONES = U64(0x1111 << _layout.SUIT_SHIFT)
SUIT_SHIFT_3 = _layout.SUIT_SHIFT + 3     # bit 3 of the first suit counter
BYTE = U64(0xFF)
ALL_PAD = U64(0xFFFFFFFFFFFFFFFF)
ONE = U64(1)
THREE = U64(3)
FOUR = U64(4)
S8, S16, S24, S32, S40, S48, S56 = (U64(8 * j) for j in range(1, 8))




@kernel(inline="always")
def flush_suit(counters):
    """The suit (0..3) of the lowest suit counter whose bit 3 is set in ``counters`` (a
    hand key's ``key & FLUSH_BITS``, or board counters built the same way)."""
    return (trailing_zeros(counters) - U64(SUIT_SHIFT_3)) >> U64(2)

@kernel(inline="always")
def hash_read(table, offsets, h):
    """``table`` at the non-flush key ``h`` through the row-displacement hash: the row's
    offset ``offsets[h >> ROW_SHIFT]`` (stored halved), plus the column ``h & COL_MASK``.
    Every lookup of ``rank_values`` and ``omaha_board_index`` goes through it; inlined
    into the caller's code by Numba, so it costs what the expression written out did."""
    return table[(U64(offsets[h >> ROW_SHIFT]) << OFFSET_SHIFT) + (h & COL_MASK)]

@kernel
def pad_mask(k):
    """0xFF in every byte of a word from byte ``k`` on."""
    return ALL_PAD << U64(8 * k) if k < 8 else U64(0)


@kernel
def suit_ranks(w, key, count):
    """13-bit rank mask of the flush suit among the first ``count`` bytes of word ``w``
    (``key`` has FLUSH_BITS set; 0xFF bytes hold no card)."""
    counters = (key & FLUSH_BITS) >> (SUIT_SHIFT + THREE)
    suit = U64(0)
    while (counters & ONE) == 0:
        counters >>= FOUR
        suit += ONE
    mask = 0
    for j in range(count):
        c = (w >> U64(8 * j)) & BYTE
        if c < 52 and (c & THREE) == suit:
            mask |= 1 << (c >> U64(2))
    return mask


@kernel
def flush_mask(w, key):
    """13-bit rank mask of the flush suit in the 7-card word ``w``."""
    return suit_ranks(w, key, 7)


@kernel
def flush_mask8(w, key):
    """``flush_mask`` over all eight bytes of ``w`` (Tahoe: three hole cards and a board)."""
    return suit_ranks(w, key, 8)


BLOCK = 4096                 # rows per block of the batch kernel (a power of two)
RANKS13 = U64(0x1FFF)
SUITS_INIT = U64(0x3333)     # four 4-bit suit counters from 3: bit 3 of one sets at five cards
SUITS_FLUSH = U64(0x8888)


@kernel
def evaluate_rows(hands, width, out, card_keys, rank_offsets, rank_values, flush_values):
    """out[i] = value of hands[i].

    hands : ndarray of uint8, shape (n, k), C-contiguous, 5 <= k <= 7
    width : ``ndim_marker(k)``; Numba compiles one loop per row width, with the
        card loops unrolled
    out : ndarray of int32, shape (n,)

    Each row is looked up as if it had no flush; the rare flush rows (3% of
    random 7-card hands, 0.2% of 5-card ones) are listed and mended after each
    block of rows.  A flush branch in the main loop, however rarely taken,
    cost 20-45%: its code crowded the loop's registers.  The mending reads the
    row again as a word and builds the flush suit's rank mask without branches.
    """
    k = width.ndim
    n = hands.shape[0]
    cards = hands.reshape(-1)
    # rows whose 8-byte word stays inside the array (the mending reads words); the last
    # row or two go one by one
    fast = U64(max(0, n - (8 + k - 1) // k + 1) if n * k >= 8 else 0)
    flushes = np.empty(BLOCK, np.uint64)
    for start in range(U64(0), fast, U64(BLOCK)):
        stop = min(fast, start + U64(BLOCK))
        count = U64(0)
        for i in range(start, stop):
            # byte loads: the load ports have room, the ALUs taking a word apart had not
            row = i * U64(k)
            key = HAND_INIT
            for j in range(k):
                key += card_keys[cards[row + U64(j)]]
            h = key & KEY_MASK
            out[i] = hash_read(rank_values, rank_offsets, h)
            if key & FLUSH_BITS:
                flushes[count & U64(BLOCK - 1)] = i
                count += ONE
        for f in range(count):
            i = flushes[f]
            w = load_u64(hands, i * U64(k))
            out[i] = flush_values[word_flush_ranks(w, k)]
    for i in range(fast, U64(n)):
        out[i] = row_value(hands, i, k, card_keys, rank_offsets, rank_values, flush_values)


@kernel(inline="always")
def row_value(hands, i, k, card_keys, rank_offsets, rank_values, flush_values):
    """Value of row ``i`` of ``hands`` (``k`` cards) by ``evaluate_rows``' arithmetic,
    whatever its bytes hold: every batch path gives a row the same value, garbage under
    ``validate=False`` included (ids past 51 have key 0; their suit bits still count in
    the flush mending)."""
    key = HAND_INIT
    w = U64(0)
    for j in range(k):
        c = hands[i, j]
        key += card_keys[c]
        w |= U64(c) << U64(8 * j)
    if key & FLUSH_BITS:
        return flush_values[word_flush_ranks(w, k)]
    h = key & KEY_MASK
    return hash_read(rank_values, rank_offsets, h)


@kernel(inline="always")
def word_flush_ranks(w, k):
    """The 13-bit rank mask of the flush suit among the first ``k`` bytes of word ``w``
    (one card id a byte), by the batch kernels' arithmetic: the first suit whose counter
    reaches five counting every byte, then the ranks of that suit's bytes."""
    suits = SUITS_INIT
    for j in range(k):
        suits += ONE << (((w >> U64(8 * j)) & THREE) << U64(2))
    suit = trailing_zeros(suits & SUITS_FLUSH) >> U64(2)
    ranks = U64(0)
    for j in range(k):
        c = (w >> U64(8 * j)) & BYTE
        ranks |= U64((c & THREE) == suit) << (c >> U64(2))
    return ranks & RANKS13


@kernel
def tahoe_generic(hands, out, start, stop, card_keys, rank_offsets, rank_values,
                  flush_values):
    """Rows start..stop of ``tahoe_rows``, for any board size (3 to 5 cards)."""
    k = hands.shape[1]
    for i in range(start, stop):
        board_key = HAND_INIT
        board_word = pad_mask(k - 1)          # bytes 0..1 for the pair, then the board
        for j in range(3, k):
            board_key += card_keys[hands[i, j]]
            board_word = (board_word & ~(BYTE << U64(8 * (j - 1)))) | (
                U64(hands[i, j]) << U64(8 * (j - 1)))
        best = 0
        for a in range(2):
            for b in range(a + 1, 3):
                ca = hands[i, a]
                cb = hands[i, b]
                key = board_key + card_keys[ca] + card_keys[cb]
                if key & FLUSH_BITS:
                    w = (board_word & ~U64(0xFFFF)) | U64(ca) | (U64(cb) << S8)
                    v = flush_values[flush_mask(w, key)]
                else:
                    h = key & KEY_MASK
                    v = hash_read(rank_values, rank_offsets, h)
                if v > best:
                    best = v
        out[i] = best


@kernel
def tahoe_rows(hands, out, card_keys, rank_offsets, rank_values, flush_values):
    """out[i] = best hold'em value of hands[i] using at most two of its three hole cards.

    hands : uint8 (n, 3 + board), 3 to 5 board cards.  Equal to the best of
    the three hole pairs, each with the whole board.  Rows of eight cards
    (a full board) are read with one 8-byte load; the three hands share the
    board's key and go to the slow path only when one of them is a flush.
    """
    n, k = hands.shape
    fast = n if k == 8 else 0
    for i in range(fast):
        w = load_u64(hands, i * 8)
        board_key = ((card_keys[(w >> S24) & BYTE] + card_keys[(w >> S32) & BYTE])
                     + (card_keys[(w >> S40) & BYTE] + card_keys[(w >> S48) & BYTE])
                     + (card_keys[(w >> S56) & BYTE] + HAND_INIT))
        k0 = card_keys[w & BYTE]
        k1 = card_keys[(w >> S8) & BYTE]
        k2 = card_keys[(w >> S16) & BYTE]
        key01 = board_key + k0 + k1
        key02 = board_key + k0 + k2
        key12 = board_key + k1 + k2
        h = key01 & KEY_MASK
        v01 = hash_read(rank_values, rank_offsets, h)
        h = key02 & KEY_MASK
        v02 = hash_read(rank_values, rank_offsets, h)
        h = key12 & KEY_MASK
        v12 = hash_read(rank_values, rank_offsets, h)
        if (key01 | key02 | key12) & FLUSH_BITS:
            # a flush in some pair: that pair's seven cards (the third hole card's byte
            # set to 0xFF) give the flush suit's rank mask; a flush beats its own pair's
            # non-flush value, so it replaces it
            if key01 & FLUSH_BITS:
                v01 = flush_values[flush_mask8(w | (BYTE << S16), key01)]
            if key02 & FLUSH_BITS:
                v02 = flush_values[flush_mask8(w | (BYTE << S8), key02)]
            if key12 & FLUSH_BITS:
                v12 = flush_values[flush_mask8(w | BYTE, key12)]
        out[i] = max(v01, max(v02, v12))
    tahoe_generic(hands, out, fast, n, card_keys, rank_offsets, rank_values, flush_values)


@kernel
def _first_bad(hands, start, stop):
    """First (row, column) in rows start..stop with an id >= 52 or a repeated card."""
    k = hands.shape[1]
    for i in range(start, stop):
        seen = 0
        for j in range(k):
            c = hands[i, j]
            if c >= 52 or (seen >> c) & 1:
                return i, j
            seen |= 1 << c
    return -1, -1


LOW7 = U64(0x7F7F7F7F7F7F7F7F)
ID_LIMIT = U64(0x4C4C4C4C4C4C4C4C)    # 0x80 - 52 in every byte
HIGH_BITS = U64(0x8080808080808080)
LOW_BYTES = U64(0x0101010101010101)
ALL_BITS = U64(0xFFFFFFFFFFFFFFFF)
FILLERS = U64(0xFFFEFDFCFBFAF9F8)           # a distinct byte in every lane


@kernel
def check_rows(hands, width):
    """First (row, column) holding an id >= 52 or a repeated card, else (-1, -1).

    ``width`` is ``ndim_marker(k)``.  Rows of up to 16 cards are checked a
    block at a time without branches: one or two 8-byte loads per row, every
    byte's id compared with 52 at once (``(byte & 0x7F) + 0x4C`` sets bit 7
    from 52 up; ids from 128 have it already), and the row's card mask must
    have ``k`` bits.  A block with a bad row
    is searched again card by card for the first one.
    """
    k = width.ndim
    n = hands.shape[0]
    fast = 0
    if k <= 8:
        # one word a row; the lanes past the row's k bytes get distinct fillers 0xF9..0xFF
        # (no id reaches them: a row holding one is flagged by the id test anyway).  Every
        # pair of the word's 8 bytes lies 1, 2, 3 or 4 lanes apart around the word, so four
        # rotations XORed with it put a zero byte wherever two cards are equal: about 20
        # plain operations a row, which vectorise, against a shift per card for a mask
        keep = ALL_BITS >> U64(64 - 8 * k) if k < 8 else ALL_BITS
        fill = FILLERS & ~keep
        high = HIGH_BITS & keep
        fast = max(0, (n * k - 8) // k + 1) if n * k >= 8 else 0
        for start in range(0, fast, BLOCK):
            stop = min(fast, start + BLOCK)
            bad = U64(0)
            for i in range(start, stop):
                w = load_u64(hands, U64(i) * U64(k))
                bad |= (((w & LOW7) + ID_LIMIT) | w) & high
                w = (w & keep) | fill
                for d in range(1, 5):
                    x = w ^ ((w << U64(8 * d)) | (w >> U64(64 - 8 * d)))
                    bad |= (x - LOW_BYTES) & ~x & HIGH_BITS
            if bad:
                return _first_bad(hands, start, stop)
        return _first_bad(hands, fast, n)
    if k <= 16:
        words = (k + 7) // 8
        last = k - 8 * (words - 1)               # the row's bytes in its last word
        # rows whose words stay inside the array
        fast = max(0, (n * k - 8 * words) // k + 1) if n * k >= 8 * words else 0
        for start in range(0, fast, BLOCK):
            stop = min(fast, start + BLOCK)
            bad = U64(0)
            for i in range(start, stop):
                cards = U64(0)
                for word in range(words):
                    w = load_u64(hands, U64(i) * U64(k) + U64(8 * word))
                    lanes = 8 if word < words - 1 else last
                    high = HIGH_BITS if lanes == 8 else HIGH_BITS & ((ONE << U64(8 * lanes)) - ONE)
                    bad |= (((w & LOW7) + ID_LIMIT) | w) & high
                    for j in range(lanes):
                        cards |= ONE << ((w >> U64(8 * j)) & U64(63))
                bad |= popcount(cards) ^ U64(k)
            if bad:
                return _first_bad(hands, start, stop)
    return _first_bad(hands, fast, n)


@kernel
def known_board(known, card_keys):
    """The key (``HAND_INIT`` plus the card keys) and the 52-bit card mask of the known
    board cards ``known``: where every best-five equity kernel starts."""
    key = HAND_INIT
    bits = U64(0)
    for j in range(known.shape[0]):
        key += card_keys[known[j]]
        bits |= ONE << U64(known[j])
    return key, bits


@kernel
def combo_keys_masks(rows, known_key, card_keys):
    """Each combo's key (``known_key``, the known board's, plus its cards') and card mask.

    rows : uint8 (n, hole); returns uint64 (n,) keys and uint64 (n,) masks.  What the range
    kernels look a combo up by, computed once per call."""
    n, hole = rows.shape
    keys = np.empty(n, np.uint64)
    masks = np.empty(n, np.uint64)
    for i in range(n):
        key = known_key
        mask = U64(0)
        for j in range(hole):
            key += card_keys[rows[i, j]]
            mask |= ONE << U64(rows[i, j])
        keys[i] = key
        masks[i] = mask
    return keys, masks


@kernel
def sub_hand_keys(cards, subs, known_key, known_bits, card_keys, hole_keys, hole_bits):
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
