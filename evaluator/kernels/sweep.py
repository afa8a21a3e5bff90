"""Every two-card combo against a range at once: list by strength, then one sweep.

On a complete board each combo has one value.  Listed weakest first, the weight
a combo beats is the weight of every lower combo, less the lower combos that
share one of its cards: one subtraction per card from a running per-card sum
(two combos of distinct hands share at most one card, and a combo is never
below itself).  The weight it ties is read the same way just after its own
value group joins the sums, less itself (both its card sums removed it once too
often).  So ``won + tied / 2`` is half the clear weight strictly below it plus
half the clear weight up to it: two reads of the same running sums, one before
and one after its group is added.

The listing costs far less than evaluating and sorting every combo.  Outside a
flush, a combo's value depends only on its two ranks: the 91 rank pairs (45 in
the short deck) are evaluated and sorted, and each expands into its live combos.
When the board holds three or more cards of a suit, the combos that make the
flush are evaluated one by one and sorted in among the rank pairs.  (Seven cards
that hold a flush never hold a full house or quads, so the flush is their
value.)  A river is a sort of about a hundred numbers and three short passes
over the live combos; a turn repeats it for every river card, a flop for every
turn and river.

What the kernels take of the game's combos (colex order of card ids, ``N``
combos, ``C`` rank pairs; built by ``vectors.layout``):

cards : uint8 (N, 2), combo ``i``'s two card ids, low first
combo_bits : uint64 (N,), each combo's card mask
class_start : int64 (C + 1,): rank pair ``k`` holds members ``class_start[k]`` up to
    ``class_start[k + 1]``
member_words : uint64 (N,), each member packed as ``b << 24 | a << 16 | i`` (its
    cards ``a < b`` and its combo number)
member_bits : uint64 (N,), each member's card mask
member_suits : int64 (N,), each member's cards counted by suit, four bits a suit
class_ranks : int64 (C, 2), the two ranks of each pair (0 = deuce)
low : the smallest card id of the deck (0; 16 in the short deck)

A listed combo is the word ``value << 32 | b << 24 | a << 16 | i``.  A combo holding
a board, runout or dead card is not listed: it neither wins nor counts as an
opponent.
"""
import numpy as np

from .._jit import kernel
from ._intrinsics import trailing_zeros
from .high import KEY_MASK, ONE, U64, hash_read

RADIX = 256
CLASS_BITS = 16          # sort words: value << 16 | item (rank pairs, then flush combos)
BYTE = U64(0xFF)
LOW16 = U64(0xFFFF)
S16 = U64(16)
S24 = U64(24)
S32 = U64(32)


@kernel
def list_river(cards, combo_bits, class_start, member_words, member_bits, member_suits,
               class_ranks, low, full, out_bits, words, spare, count, order, card_keys,
               rank_offsets, rank_values, flush_values):
    """List the live combos on the five-card board ``full``, weakest first, into
    ``order``; return how many.  ``out_bits`` is the mask of the board and every other
    card out.  ``words`` and ``spare`` hold ``C + N`` int64, ``count`` ``RADIX``."""
    C = class_ranks.shape[0]
    rank_key = U64(0)
    rank_counts = 0                 # 4 bits a rank
    suit_counts = 0                 # 4 bits a suit
    for j in range(5):
        c = full[j]
        rank_key += card_keys[c]
        rank_counts += 1 << (4 * (c >> 2))
        suit_counts += 1 << (4 * (c & 3))
    fs = -1                         # the suit with three or more board cards
    need = 9                        # cards of it a combo needs for a flush
    for s in range(4):
        k = (suit_counts >> (4 * s)) & 15
        if k >= 3:
            fs = s
            need = 5 - k
    flush_mask = 0
    if fs >= 0:
        for j in range(5):
            c = full[j]
            if (c & 3) == fs:
                flush_mask |= 1 << (c >> 2)
    m = 0
    if need > 0:
        for k in range(C):
            ra = class_ranks[k, 0]
            rb = class_ranks[k, 1]
            na = (rank_counts >> (4 * ra)) & 15
            nb = (rank_counts >> (4 * rb)) & 15
            if (na > 2) if ra == rb else (na > 3 or nb > 3):
                continue            # no live combo: and five of a rank is no hash key
            h = (rank_key + card_keys[4 * ra] + card_keys[4 * rb]) & KEY_MASK
            words[m] = (np.int64(hash_read(rank_values, rank_offsets, h)) << CLASS_BITS) | k
            m += 1
    if fs >= 0:
        if need == 0:               # a flush on the board: every combo plays one
            for i in range(cards.shape[0]):
                if combo_bits[i] & out_bits:
                    continue
                a = cards[i, 0]
                b = cards[i, 1]
                mask = flush_mask
                if (a & 3) == fs:
                    mask |= 1 << (a >> 2)
                if (b & 3) == fs:
                    mask |= 1 << (b >> 2)
                words[m] = (np.int64(flush_values[mask]) << CLASS_BITS) | (C + i)
                m += 1
        else:
            for x in range(low + fs, 52, 4):
                if (out_bits >> U64(x)) & ONE:
                    continue
                for y in range(low, 52):
                    if y == x or (out_bits >> U64(y)) & ONE:
                        continue
                    suited = (y & 3) == fs
                    if suited:
                        if y < x:
                            continue        # listed from y's side
                    elif need == 2:
                        continue
                    mask = flush_mask | (1 << (x >> 2))
                    if suited:
                        mask |= 1 << (y >> 2)
                    p = min(x, y) - low
                    q = max(x, y) - low
                    i = q * (q - 1) // 2 + p
                    words[m] = (np.int64(flush_values[mask]) << CLASS_BITS) | (C + i)
                    m += 1
    # two stable counting passes on the value's bytes: words -> spare -> words
    count[:] = 0
    for j in range(m):
        count[(words[j] >> CLASS_BITS) & 0xFF] += 1
    total = 0
    for d in range(RADIX):
        t = count[d]
        count[d] = total
        total += t
    for j in range(m):
        d = (words[j] >> CLASS_BITS) & 0xFF
        spare[count[d]] = words[j]
        count[d] += 1
    count[:] = 0
    for j in range(m):
        count[(spare[j] >> (CLASS_BITS + 8)) & 0xFF] += 1
    total = 0
    for d in range(RADIX):
        t = count[d]
        count[d] = total
        total += t
    for j in range(m):
        d = (spare[j] >> (CLASS_BITS + 8)) & 0xFF
        words[count[d]] = spare[j]
        count[d] += 1
    # expand: a rank pair into its live members that make no flush
    n = 0
    shift = 4 * max(fs, 0)
    for j in range(m):
        v = U64(words[j] >> CLASS_BITS) << S32
        item = words[j] & ((1 << CLASS_BITS) - 1)
        if item < C:
            if fs < 0:
                for k in range(class_start[item], class_start[item + 1]):
                    if member_bits[k] & out_bits:
                        continue
                    order[n] = v | member_words[k]
                    n += 1
            else:
                for k in range(class_start[item], class_start[item + 1]):
                    if member_bits[k] & out_bits or (member_suits[k] >> shift) & 15 >= need:
                        continue
                    order[n] = v | member_words[k]
                    n += 1
        else:
            i = item - C
            order[n] = (v | (U64(cards[i, 1]) << S24) | (U64(cards[i, 0]) << S16) | U64(i))
            n += 1
    return n


@kernel
def sweep_river(order, n, reach, num, below_cards):
    """``num[i] += 2 x (won + tied / 2)`` for every listed combo ``i`` (the weight it
    beats, twice, plus the weight it ties, clear of its cards): the clear weight
    strictly below it plus the clear weight up to its value, less itself."""
    below = 0.0
    below_cards[:] = 0.0
    start = 0
    while start < n:
        v = order[start] >> S32
        stop = start
        while stop < n and (order[stop] >> S32) == v:
            x = order[stop]
            num[x & LOW16] += below - below_cards[(x >> S16) & BYTE] \
                - below_cards[(x >> S24) & BYTE]
            stop += 1
        for j in range(start, stop):
            x = order[j]
            w = reach[x & LOW16]
            below += w
            below_cards[(x >> S16) & BYTE] += w
            below_cards[(x >> S24) & BYTE] += w
        for j in range(start, stop):
            x = order[j]
            i = x & LOW16
            num[i] += below - below_cards[(x >> S16) & BYTE] \
                - below_cards[(x >> S24) & BYTE] + reach[i]
        start = stop


@kernel
def pairwise_river(order, n, reach, careful, careful_num):
    """For each combo of ``careful`` listed in ``order``: ``careful_num[k] += 2 x (won +
    tied / 2)``, summed pair by pair (exact where ``sweep_river``'s differences of
    running sums would cancel too far)."""
    for j in range(n):
        x = order[j]
        i = x & LOW16
        for k in range(careful.shape[0]):
            if careful[k] != i:
                continue
            v = x >> S32
            a = (x >> S16) & BYTE
            b = (x >> S24) & BYTE
            share = 0.0
            for t in range(n):
                y = order[t]
                c = (y >> S16) & BYTE
                d = (y >> S24) & BYTE
                if c == a or c == b or d == a or d == b:
                    continue
                u = y >> S32
                if u < v:
                    share += 2.0 * reach[y & LOW16]
                elif u == v:
                    share += reach[y & LOW16]
            careful_num[k] += share


@kernel
def hero_totals(order, n, reach, hero, num, cards_sum):
    """``(sum of hero x num, sum of hero x deals)`` of one runout's listing: ``num`` as
    ``sweep_river`` left it for this runout alone, deals the opposing weight clear of
    each combo."""
    whole = 0.0
    cards_sum[:] = 0.0
    for j in range(n):
        x = order[j]
        w = reach[x & LOW16]
        whole += w
        cards_sum[(x >> S16) & BYTE] += w
        cards_sum[(x >> S24) & BYTE] += w
    won = 0.0
    deals = 0.0
    for j in range(n):
        x = order[j]
        i = x & LOW16
        h = hero[i]
        if h > 0.0:
            won += h * num[i]
            deals += h * (whole - cards_sum[(x >> S16) & BYTE]
                          - cards_sum[(x >> S24) & BYTE] + reach[i])
    return won, deals


CLOSE = 1e-3
"""A combo whose clear opposing weight is below this share of the whole live weight is
summed pair by pair: differences of running sums would keep too few of its digits."""

# what clear_weights and runout_sweep return
OK, BAD_WEIGHT, OUT_OF_SCALE, NO_WEIGHT, NO_LIVE_WEIGHT, TOO_CONCENTRATED = 0, 1, 2, 3, 4, 5
SMALLEST = 2.0 ** -1000          # weights are summed as given between these two
LARGEST = 2.0 ** 1000


@kernel
def clear_weights(cards, combo_bits, dead_bits, reach, met, careful, close_share):
    """``met[i]``: the weight of the combos clear of combo ``i`` and of the known cards
    (``dead_bits``), 0 where ``i`` holds a known card or no combo clear of it has
    weight.  Lists in ``careful`` the combos whose ``met`` is under ``close_share`` of
    the whole live weight (``CLOSE``; 0 where the weights sum exactly, ``exact_share``,
    so that differences of running sums lose nothing and no combo is careful).
    Returns ``(status, careful combos)``: ``BAD_WEIGHT`` for a negative, nan or
    infinite weight, ``OUT_OF_SCALE`` when the largest is not between ``SMALLEST`` and
    ``LARGEST`` (scale them first), ``NO_WEIGHT`` or ``NO_LIVE_WEIGHT`` when nothing
    has weight, or nothing live."""
    N = cards.shape[0]
    whole = 0.0
    top = 0.0
    live = 0
    cards_sum = np.zeros(52, np.float64)
    cards_live = np.zeros(52, np.int64)
    for i in range(N):
        w = reach[i]
        if not (w >= 0.0 and w <= LARGEST):
            return (BAD_WEIGHT if not (w >= 0.0 and w < np.inf) else OUT_OF_SCALE), 0
        top = max(top, w)
        if combo_bits[i] & dead_bits:
            continue
        whole += w
        cards_sum[cards[i, 0]] += w
        cards_sum[cards[i, 1]] += w
        if w > 0.0:
            live += 1
            cards_live[cards[i, 0]] += 1
            cards_live[cards[i, 1]] += 1
    if top == 0.0:
        return NO_WEIGHT, 0
    if top < SMALLEST:
        return OUT_OF_SCALE, 0
    if live == 0:
        return NO_LIVE_WEIGHT, 0
    close = whole * close_share
    n = 0
    for i in range(N):
        met[i] = 0.0
        if combo_bits[i] & dead_bits:
            continue
        a = cards[i, 0]
        b = cards[i, 1]
        w = reach[i]
        if live - cards_live[a] - cards_live[b] + (w > 0.0) == 0:
            continue
        m = whole - cards_sum[a] - cards_sum[b] + w
        if m < close:
            # the exact sum, and the combo's wins summed pair by pair too
            m = 0.0
            for j in range(N):
                if not (combo_bits[j] & (dead_bits | combo_bits[i])):
                    m += reach[j]
            careful[n] = i
            n += 1
        met[i] = m
    return OK, n


@kernel
def runout_sweep(cards, combo_bits, class_start, member_words, member_bits, member_suits,
                 class_ranks, low, board, dead_bits, runouts, reach, factor, num, den, eq,
                 hero, totals, close_share, card_keys, rank_offsets, rank_values,
                 flush_values):
    """Every combo against the weights ``reach`` (N,) over the ``runouts``: ``num[i]``
    the weight of the deals it wins (ties half), ``den[i]`` of all its deals, and where
    ``eq`` is (N,) (not empty), ``eq[i] = num[i] / den[i]``, nan where ``den[i]`` is 0.
    ``factor`` is the runouts a combo and an opponent clear of it leave, of all the
    runouts there are: ``den`` is ``factor`` times ``clear_weights``'s ``met``.  Pass
    ``factor = 0`` for a part of the runouts: ``num`` then holds twice the wins of
    those alone, unclamped, and ``den`` the ``met``.  With ``hero`` weights ((N,), or
    empty), also ``totals[r]``: each runout's hero-weighted twice the wins and the
    deals.  ``close_share`` is ``clear_weights``'s.  Returns ``clear_weights``'s status
    (nothing is computed unless OK).

    board : uint8, the known board (3 to 5 cards)
    dead_bits : uint64, the card mask of the board and dead cards
    runouts : uint8 (R, 5 - len(board)), the cards each runout adds (a river passes
        one empty runout)
    """
    N = cards.shape[0]
    C = class_ranks.shape[0]
    careful = np.empty(N, np.int64)
    status, n_careful = clear_weights(cards, combo_bits, dead_bits, reach, den, careful,
                                      close_share)
    if status != OK:
        return status
    careful = careful[:n_careful]
    careful_num = np.zeros(n_careful, np.float64)
    num[:] = 0.0
    words = np.empty(C + N, np.int64)
    spare = np.empty(C + N, np.int64)
    count = np.empty(RADIX, np.int64)
    order = np.empty(N, np.uint64)
    below_cards = np.zeros(52, np.float64)
    full = np.empty(5, np.uint8)
    one = np.zeros(N if hero.shape[0] else 0, np.float64)
    known = board.shape[0]
    for j in range(known):
        full[j] = board[j]
    for r in range(runouts.shape[0]):
        out = dead_bits
        for j in range(runouts.shape[1]):
            c = runouts[r, j]
            full[known + j] = c
            out |= ONE << U64(c)
        n = list_river(cards, combo_bits, class_start, member_words, member_bits,
                       member_suits, class_ranks, low, full, out, words, spare, count, order,
                       card_keys, rank_offsets, rank_values, flush_values)
        if hero.shape[0]:
            one[:] = 0.0
            sweep_river(order, n, reach, one, below_cards)
            totals[r, 0], totals[r, 1] = hero_totals(order, n, reach, hero, one, below_cards)
            num += one
        else:
            sweep_river(order, n, reach, num, below_cards)
        if n_careful:
            pairwise_river(order, n, reach, careful, careful_num)
    for k in range(n_careful):
        num[careful[k]] = careful_num[k]
    if factor > 0:
        finish(num, den, factor, eq)
    return OK


@kernel
def dot(a, b):
    """``a @ b`` for two float64 vectors, on this thread.  numpy's ``@`` hands a long
    vector to BLAS, whose own threads then spin on for a while and take the cores from the
    sweeps' threads: a PLO8 runout study, a dot a runout, ran no faster on two threads
    than on one (13-14 s both; 6.7-7.0 s with this)."""
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    return total


@kernel
def finish(num, den, factor, eq):
    """From twice the wins and the clear weight: ``num`` the wins (ties half) between 0
    and the deals, ``den`` the deals (``factor`` times the clear weight), and ``eq``
    their ratio where it is (N,), nan without deals."""
    for i in range(num.shape[0]):
        d = den[i] * factor
        den[i] = d
        x = min(max(0.5 * num[i], 0.0), d)
        num[i] = x
        if eq.shape[0]:
            eq[i] = x / d if d > 0.0 else np.nan


@kernel
def weight_stats(weights, raw):
    """``(bits, total, spread)`` of a flat array of weights (``raw``: the same memory as
    uint64): the fraction bits the positive ones need to be whole numbers (-1 for a
    negative, nan or infinite one), their sum, and the binary orders of magnitude between
    the largest and the smallest positive one.  Read off the bits: no ``frexp`` a weight."""
    bits = 0
    total = 0.0
    high = -100000
    low = 100000
    for j in range(raw.shape[0]):
        b = raw[j]
        if b << U64(1) == U64(0):
            continue                              # 0.0 or -0.0
        exponent = np.int64((b >> U64(52)) & U64(0x7FF))
        if b >> U64(63) or exponent == 0x7FF:
            return -1, 0.0, 0                     # negative, nan or infinite: named later
        mantissa = b & U64(0xFFFFFFFFFFFFF)
        if exponent:
            mantissa |= U64(1) << U64(52)
        else:
            exponent = 1                          # subnormal
        total += weights[j]
        bits = max(bits, 1075 - exponent - np.int64(trailing_zeros(mantissa)))
        high = max(high, exponent)
        low = min(low, exponent)
    return bits, total, max(high - low, 0)
