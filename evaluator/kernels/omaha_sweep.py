"""Every four- or five-card Omaha hand against a range at once: the sweep of
``sweep.py`` for hands of more cards.

On a complete board an Omaha hand's value is the best of its hole pairs (six of four
cards, ten of five), each played with its best three board cards.  So a river
evaluates the hole pairs, not the hands: outside a flush a pair's best depends only on
its two ranks (91 rank pairs, ten board triples each), and a suited pair can add a
flush when the board holds three of its suit.  The distinct pair values (at most a few
hundred) are sorted and numbered, a hand's number is the largest of its pairs', and one
counting pass lists the live hands weakest first.

Card removal: two hands can share every card of the smaller, so the weight of the
hands clear of hand ``H`` is inclusion-exclusion over the subsets of ``H``: the whole,
less the hands holding each card, plus those holding each pair of its cards, less
those holding each three (plus each four, five-card hands), and ``H`` itself with the
sign of its size.  The sweep keeps those running sums in one flat array, by card (52),
pair (1,326, colex), three cards (22,100, colex) and, for five-card hands, four
(270,725, colex), and reads the fifteen (thirty-one) of a hand before and after its
value group joins them, as the two-card sweep reads two.

cards : uint8 (N, 4) or (N, 5), hand ``i``'s cards ascending (colex order of card ids)
combo_bits : uint64 (N,), each hand's card mask
"""
import numpy as np

from .._jit import kernel
from .high import KEY_MASK, ONE, U64, hash_read
from .sweep import (
    BAD_WEIGHT,
    LARGEST,
    NO_LIVE_WEIGHT,
    NO_WEIGHT,
    OK,
    OUT_OF_SCALE,
)

CAREFUL_WORK = 4_000_000_000
"""Pairs summed one by one at most (careful hands x hands with weight x runouts, a few
seconds); past it the weights are refused as too concentrated."""
PAIRS = 1326
TRIPLES = 22100
QUADS = 270725
TWOS_AT = 52             # the running sums, one flat array: cards, pairs, threes, fours
THREES_AT = TWOS_AT + PAIRS
FOURS_AT = THREES_AT + TRIPLES
RANK_BITS = 32           # listed hands: value number << 32 | hand number
LOW32 = U64(0xFFFFFFFF)
S32 = U64(32)


@kernel(inline="always")
def _c2(x):
    return (x * (x - 1)) >> 1             # x >= 0: a shift, not a signed division


@kernel(inline="always")
def _c3(x):
    return x * (x - 1) * (x - 2) // 6


@kernel(inline="always")
def _c4(x):
    return x * (x - 1) * (x - 2) * (x - 3) // 24


@kernel(inline="always")
def sums_size(hole):
    """The length of the flat array of running sums a ``hole``-card sweep keeps."""
    return FOURS_AT + QUADS if hole == 5 else FOURS_AT


@kernel(inline="always")
def own_sign(cards):
    """The sign of a hand's own term in the inclusion-exclusion over its subsets:
    ``(-1) ** hole``."""
    return 1.0 if cards.shape[1] % 2 == 0 else -1.0


@kernel
def subset_sums(cards, i, sums, k):
    """The running sums of the proper, non-empty subsets of hand ``i`` with their
    inclusion-exclusion signs: ``- ones + twos - threes`` (``+ fours``: five cards).
    ``k``: the hand's cards, a constant where the caller can give one (the branches on it
    then compile away)."""
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cb = _c2(b)
    cc = _c2(c)
    cd = _c2(d)
    tc = _c3(c)
    td = _c3(d)
    # summed as balanced trees, not left to right: the loads then overlap instead of
    # waiting on one chain of additions (a PLO river's reads about 40% faster)
    s = (sums[a] + sums[b]) + (sums[c] + sums[d])
    t = ((sums[TWOS_AT + cb + a] + sums[TWOS_AT + cc + a])
         + (sums[TWOS_AT + cd + a] + sums[TWOS_AT + cc + b])) \
        + (sums[TWOS_AT + cd + b] + sums[TWOS_AT + cd + c])
    u = ((sums[THREES_AT + tc + cb + a] + sums[THREES_AT + td + cb + a])
         + (sums[THREES_AT + td + cc + a] + sums[THREES_AT + td + cc + b]))
    if k == 4:
        return t - (s + u)
    e = np.int64(cards[i, 4])
    ce = _c2(e)
    te = _c3(e)
    s += sums[e]
    t += ((sums[TWOS_AT + ce + a] + sums[TWOS_AT + ce + b])
          + (sums[TWOS_AT + ce + c] + sums[TWOS_AT + ce + d]))
    u += (((sums[THREES_AT + te + cb + a] + sums[THREES_AT + te + cc + a])
           + (sums[THREES_AT + te + cd + a] + sums[THREES_AT + te + cc + b]))
          + (sums[THREES_AT + te + cd + b] + sums[THREES_AT + te + cd + c]))
    fd = _c4(d)
    fe = _c4(e)
    q = (((sums[FOURS_AT + fd + tc + cb + a] + sums[FOURS_AT + fe + tc + cb + a])
          + (sums[FOURS_AT + fe + td + cb + a] + sums[FOURS_AT + fe + td + cc + a]))
         + sums[FOURS_AT + fe + td + cc + b])
    return (t + q) - (s + u)


@kernel
def add_subsets(cards, i, w, sums, k):
    """Add ``w`` to the running sums of every proper, non-empty subset of hand ``i`` (of
    ``k`` cards)."""
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cb = _c2(b)
    cc = _c2(c)
    cd = _c2(d)
    tc = _c3(c)
    td = _c3(d)
    sums[a] += w
    sums[b] += w
    sums[c] += w
    sums[d] += w
    sums[TWOS_AT + cb + a] += w
    sums[TWOS_AT + cc + a] += w
    sums[TWOS_AT + cd + a] += w
    sums[TWOS_AT + cc + b] += w
    sums[TWOS_AT + cd + b] += w
    sums[TWOS_AT + cd + c] += w
    sums[THREES_AT + tc + cb + a] += w
    sums[THREES_AT + td + cb + a] += w
    sums[THREES_AT + td + cc + a] += w
    sums[THREES_AT + td + cc + b] += w
    if k == 4:
        return
    e = np.int64(cards[i, 4])
    ce = _c2(e)
    te = _c3(e)
    sums[e] += w
    sums[TWOS_AT + ce + a] += w
    sums[TWOS_AT + ce + b] += w
    sums[TWOS_AT + ce + c] += w
    sums[TWOS_AT + ce + d] += w
    sums[THREES_AT + te + cb + a] += w
    sums[THREES_AT + te + cc + a] += w
    sums[THREES_AT + te + cd + a] += w
    sums[THREES_AT + te + cc + b] += w
    sums[THREES_AT + te + cd + b] += w
    sums[THREES_AT + te + cd + c] += w
    fd = _c4(d)
    fe = _c4(e)
    sums[FOURS_AT + fd + tc + cb + a] += w
    sums[FOURS_AT + fe + tc + cb + a] += w
    sums[FOURS_AT + fe + td + cb + a] += w
    sums[FOURS_AT + fe + td + cc + a] += w
    sums[FOURS_AT + fe + td + cc + b] += w


@kernel(inline="always")
def rest_key(cards, i, k):
    """Hand ``i``'s cards past its first, packed: hands with the same key read the same
    ``rest_sums`` and add to the same ``add_rest`` entries."""
    key = (np.int64(cards[i, 1]) << 12) | (np.int64(cards[i, 2]) << 6) | np.int64(cards[i, 3])
    if k == 5:
        key = (key << 6) | np.int64(cards[i, 4])
    return key


@kernel(inline="always")
def rest_sums(cards, i, sums, k):
    """The signed terms of ``subset_sums`` whose subsets leave out hand ``i``'s first
    (lowest) card.  In the walk's colex order most hands share the rest of their cards
    with the hand before (about 84% on a PLO river), and then share these terms."""
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cc = _c2(c)
    cd = _c2(d)
    td = _c3(d)
    s = (sums[b] + sums[c]) + sums[d]
    t = (sums[TWOS_AT + cc + b] + sums[TWOS_AT + cd + b]) + sums[TWOS_AT + cd + c]
    u = sums[THREES_AT + td + cc + b]
    if k == 4:
        return t - (s + u)
    e = np.int64(cards[i, 4])
    ce = _c2(e)
    te = _c3(e)
    s += sums[e]
    t += (sums[TWOS_AT + ce + b] + sums[TWOS_AT + ce + c]) + sums[TWOS_AT + ce + d]
    u += (sums[THREES_AT + te + cc + b] + sums[THREES_AT + te + cd + b]) \
        + sums[THREES_AT + te + cd + c]
    q = sums[FOURS_AT + _c4(e) + td + cc + b]
    return (t + q) - (s + u)


@kernel(inline="always")
def first_sums(cards, i, sums, k):
    """The signed terms of ``subset_sums`` whose subsets hold hand ``i``'s first card
    (the rest: ``rest_sums``)."""
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cb = _c2(b)
    cc = _c2(c)
    cd = _c2(d)
    tc = _c3(c)
    td = _c3(d)
    t = (sums[TWOS_AT + cb + a] + sums[TWOS_AT + cc + a]) + sums[TWOS_AT + cd + a]
    u = (sums[THREES_AT + tc + cb + a] + sums[THREES_AT + td + cb + a]) \
        + (sums[a] + sums[THREES_AT + td + cc + a])
    if k == 4:
        return t - u
    e = np.int64(cards[i, 4])
    ce = _c2(e)
    te = _c3(e)
    fe = _c4(e)
    t += sums[TWOS_AT + ce + a]
    u += (sums[THREES_AT + te + cb + a] + sums[THREES_AT + te + cc + a]) \
        + sums[THREES_AT + te + cd + a]
    q = ((sums[FOURS_AT + _c4(d) + tc + cb + a] + sums[FOURS_AT + fe + tc + cb + a])
         + (sums[FOURS_AT + fe + td + cb + a] + sums[FOURS_AT + fe + td + cc + a]))
    return (t + q) - u


@kernel(inline="always")
def add_rest(cards, i, w, sums, k):
    """Add ``w`` to the running sums ``rest_sums`` reads for hand ``i``."""
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cc = _c2(c)
    cd = _c2(d)
    td = _c3(d)
    sums[b] += w
    sums[c] += w
    sums[d] += w
    sums[TWOS_AT + cc + b] += w
    sums[TWOS_AT + cd + b] += w
    sums[TWOS_AT + cd + c] += w
    sums[THREES_AT + td + cc + b] += w
    if k == 4:
        return
    e = np.int64(cards[i, 4])
    ce = _c2(e)
    te = _c3(e)
    sums[e] += w
    sums[TWOS_AT + ce + b] += w
    sums[TWOS_AT + ce + c] += w
    sums[TWOS_AT + ce + d] += w
    sums[THREES_AT + te + cc + b] += w
    sums[THREES_AT + te + cd + b] += w
    sums[THREES_AT + te + cd + c] += w
    sums[FOURS_AT + _c4(e) + td + cc + b] += w


@kernel(inline="always")
def add_first(cards, i, w, sums, k):
    """Add ``w`` to the running sums ``first_sums`` reads for hand ``i``."""
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cb = _c2(b)
    cc = _c2(c)
    cd = _c2(d)
    tc = _c3(c)
    td = _c3(d)
    sums[a] += w
    sums[TWOS_AT + cb + a] += w
    sums[TWOS_AT + cc + a] += w
    sums[TWOS_AT + cd + a] += w
    sums[THREES_AT + tc + cb + a] += w
    sums[THREES_AT + td + cb + a] += w
    sums[THREES_AT + td + cc + a] += w
    if k == 4:
        return
    e = np.int64(cards[i, 4])
    ce = _c2(e)
    te = _c3(e)
    fe = _c4(e)
    sums[TWOS_AT + ce + a] += w
    sums[THREES_AT + te + cb + a] += w
    sums[THREES_AT + te + cc + a] += w
    sums[THREES_AT + te + cd + a] += w
    sums[FOURS_AT + _c4(d) + tc + cb + a] += w
    sums[FOURS_AT + fe + tc + cb + a] += w
    sums[FOURS_AT + fe + td + cb + a] += w
    sums[FOURS_AT + fe + td + cc + a] += w


@kernel(inline="always")
def best_pair(cards, i, pair_rank, k):
    """The largest pair number among hand ``i``'s hole pairs (``k`` cards)."""
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cb = _c2(b)
    cc = _c2(c)
    cd = _c2(d)
    r = max(max(pair_rank[cb + a], pair_rank[cc + a]),
            max(max(pair_rank[cd + a], pair_rank[cc + b]),
                max(pair_rank[cd + b], pair_rank[cd + c])))
    if k == 4:
        return r
    ce = _c2(np.int64(cards[i, 4]))
    return max(r, max(max(pair_rank[ce + a], pair_rank[ce + b]),
                      max(pair_rank[ce + c], pair_rank[ce + d])))


@kernel(inline="always")
def rank_hands(cards, combo_bits, out_bits, pair_rank, hand_rank, count, k):
    """``hand_rank[i]``: hand ``i``'s best pair number (-1 where it holds a card of
    ``out_bits``), counted into ``count[r + 1]``."""
    for i in range(cards.shape[0]):
        if combo_bits[i] & out_bits:
            hand_rank[i] = -1
            continue
        r = best_pair(cards, i, pair_rank, k)
        hand_rank[i] = r
        count[r + 1] += 1


@kernel
def list_river(cards, combo_bits, full, out_bits, pair_rank, words, spare, count, hand_rank,
               order, card_keys, rank_offsets, rank_values, flush_values):
    """List the live hands on the five-card board ``full``, weakest first, into
    ``order`` as ``value number << 32 | hand``; return how many.  Scratch:
    ``pair_rank`` (1,326), ``words`` and ``spare`` (at least 91 + 45), ``count``
    (``RADIX``, at least the distinct values + 1), ``hand_rank`` (N)."""
    N = cards.shape[0]
    # the board's ten triples: rank keys, and the rank mask of those of one suit
    triple_keys = np.empty(10, np.uint64)
    triple_flush = np.zeros(10, np.int64)
    t = 0
    suit_counts = 0
    rank_counts = 0
    for x in range(5):
        suit_counts += 1 << (4 * (full[x] & 3))
        rank_counts += 1 << (4 * (full[x] >> 2))
        for y in range(x + 1, 5):
            for z in range(y + 1, 5):
                cx = full[x]
                cy = full[y]
                cz = full[z]
                triple_keys[t] = card_keys[cx] + card_keys[cy] + card_keys[cz]
                if (cx & 3) == (cy & 3) and (cx & 3) == (cz & 3):
                    triple_flush[t] = (1 << (cx >> 2)) | (1 << (cy >> 2)) | (1 << (cz >> 2))
                t += 1
    fs = -1
    for s in range(4):
        if (suit_counts >> (4 * s)) & 15 >= 3:
            fs = s
    # the rank pairs' best non-flush values, then the suited pairs' flushes
    m = 0
    for rb in range(13):
        for ra in range(rb + 1):
            na = (rank_counts >> (4 * ra)) & 15
            nb = (rank_counts >> (4 * rb)) & 15
            if (na > 2) if ra == rb else (na > 3 or nb > 3):
                continue            # no such pair is left
            pair_key = card_keys[4 * ra] + card_keys[4 * rb]
            best = 0
            for t in range(10):
                v = hash_read(rank_values, rank_offsets, (triple_keys[t] + pair_key) & KEY_MASK)
                if v > best:
                    best = v
            words[m] = (np.int64(best) << 16) | (rb * 13 + ra)
            m += 1
    if fs >= 0:
        for y in range(fs, 52, 4):
            if (out_bits >> U64(y)) & ONE:
                continue
            for x in range(fs, y, 4):
                if (out_bits >> U64(x)) & ONE:
                    continue
                best = 0
                for t in range(10):
                    if triple_flush[t]:
                        v = flush_values[triple_flush[t] | (1 << (x >> 2)) | (1 << (y >> 2))]
                        if v > best:
                            best = v
                words[m] = (np.int64(best) << 16) | (169 + _c2(y) + x)
                m += 1
    # sort by value (two counting passes on its bytes) and number the distinct values
    count[:256] = 0
    for j in range(m):
        count[(words[j] >> 16) & 0xFF] += 1
    total = 0
    for k in range(256):
        c = count[k]
        count[k] = total
        total += c
    for j in range(m):
        k = (words[j] >> 16) & 0xFF
        spare[count[k]] = words[j]
        count[k] += 1
    count[:256] = 0
    for j in range(m):
        count[(spare[j] >> 24) & 0xFF] += 1
    total = 0
    for k in range(256):
        c = count[k]
        count[k] = total
        total += c
    for j in range(m):
        k = (spare[j] >> 24) & 0xFF
        words[count[k]] = spare[j]
        count[k] += 1
    class_rank = np.zeros(169, np.int64)
    number = 0
    last = -1
    for j in range(m):
        v = words[j] >> 16
        if v != last:
            number += 1
            last = v
        item = words[j] & 0xFFFF
        if item < 169:
            class_rank[item] = number
        else:
            pair_rank[item - 169] = number          # a flush pair, read below
    for y in range(52):
        for x in range(y):
            p = _c2(y) + x
            if (y & 3) == fs and (x & 3) == fs:
                if (out_bits >> U64(y)) & ONE or (out_bits >> U64(x)) & ONE:
                    continue
                pair_rank[p] = max(pair_rank[p], class_rank[(y >> 2) * 13 + (x >> 2)])
            else:
                pair_rank[p] = class_rank[(y >> 2) * 13 + (x >> 2)]
    # each live hand: the best of its pairs; then one counting pass
    values = number + 1
    count[:values + 1] = 0
    if cards.shape[1] == 4:
        rank_hands(cards, combo_bits, out_bits, pair_rank, hand_rank, count, 4)
    else:
        rank_hands(cards, combo_bits, out_bits, pair_rank, hand_rank, count, 5)
    for k in range(values):
        count[k + 1] += count[k]
    for i in range(N):
        r = hand_rank[i]
        if r >= 0:
            order[count[r]] = (U64(r) << S32) | U64(i)
            count[r] += 1
    return count[values - 1]


@kernel
def clear_weights(cards, combo_bits, dead_bits, reach, met, careful, close_share):
    """As ``sweep.clear_weights`` for four- and five-card hands: ``met[i]`` the weight of
    the hands clear of hand ``i`` and of the known cards; returns ``(status, careful
    hands)``."""
    N = cards.shape[0]
    whole = 0.0
    top = 0.0
    live = 0
    sign = own_sign(cards)
    k = cards.shape[1]
    sums = np.zeros(sums_size(k), np.float64)
    for i in range(N):
        w = reach[i]
        if not (w >= 0.0 and w <= LARGEST):
            return (BAD_WEIGHT if not (w >= 0.0 and w < np.inf) else OUT_OF_SCALE), 0
        top = max(top, w)
        if combo_bits[i] & dead_bits or w == 0.0:
            continue
        whole += w
        live += 1
        add_subsets(cards, i, w, sums, k)
    if top == 0.0:
        return NO_WEIGHT, 0
    if top < 2.0 ** -1000:
        return OUT_OF_SCALE, 0
    if live == 0:
        return NO_LIVE_WEIGHT, 0
    close = whole * close_share
    n = 0
    for i in range(N):
        met[i] = 0.0
        if combo_bits[i] & dead_bits:
            continue
        m = whole + subset_sums(cards, i, sums, k) + sign * reach[i]
        if m < close:
            careful[n] = i          # summed pair by pair below, unless nothing is clear
            n += 1
        met[i] = m
    if n == 0:
        return OK, 0
    # the hands that may have nothing clear: counted (exact, whole numbers far below
    # 2**53), and those with no live hand clear of them take 0 instead of a sum
    sums[:] = 0.0
    for i in range(N):
        if reach[i] != 0.0 and not (combo_bits[i] & dead_bits):
            add_subsets(cards, i, 1.0, sums, k)
    kept = 0
    for c in range(n):            # not ``k``: the hand size, which subset_sums reads
        i = careful[c]
        met[i] = 0.0
        if live + subset_sums(cards, i, sums, k) + sign * (reach[i] > 0.0) == 0:
            continue
        m = 0.0
        for j in range(N):
            if not (combo_bits[j] & (dead_bits | combo_bits[i])):
                m += reach[j]
        careful[kept] = i
        kept += 1
        met[i] = m
    return OK, kept


@kernel
def sweep_river(cards, order, n, reach, num, sums, low, side, pick, scale):
    """``num[i] += scale x 2 x (won + tied / 2)`` for every listed hand, as
    ``sweep.sweep_river`` does for two cards; with ``side`` 1 only for the hands with a
    low (``low[i] > 0``), 2 only for those without; with ``pick`` (N,) not empty, only
    where it is not 0 (every hand with weight still counts as an opponent)."""
    none = np.empty(0)
    if cards.shape[1] == 4:
        walk(cards, order, n, reach, num, none, sums, True, 4, low, side, pick, scale)
    else:
        walk(cards, order, n, reach, num, none, sums, True, 5, low, side, pick, scale)


@kernel(inline="always")
def needed(order, n, reach, pick):
    """Keep in ``order[:n]`` (in place, in order) the hands a sweep with ``pick`` needs:
    those with weight (opponents) or picked (read); returns how many.  The others would
    only be walked past, a random read or two each."""
    m = 0
    for j in range(n):
        i = order[j] & LOW32
        if reach[i] != 0.0 or pick[i] != 0.0:
            order[m] = order[j]
            m += 1
    return m


@kernel
def hero_sweep_river(cards, order, n, reach, hero, sums):
    """``(below, up_to)``: over the listed hands ``i`` with ``hero`` weight, ``hero[i]``
    times the clear weight strictly below it (its wins), and up to its value less itself
    (its wins and ties): ``sweep_river`` read only where the hero has weight."""
    none = np.empty(0)
    every = np.empty(0, np.int64)
    if cards.shape[1] == 4:
        return walk(cards, order, n, reach, none, hero, sums, False, 4, every, 0, none, 1.0)
    return walk(cards, order, n, reach, none, hero, sums, False, 5, every, 0, none, 1.0)


@kernel(inline="always")
def wanted(i, low, side, pick):
    """Whether ``walk`` reads hand ``i``: ``side`` 0 every hand, 1 those with a low (by
    ``low``), 2 those without; and, where ``pick`` is not empty, only where it is not 0."""
    if side != 0 and (side == 1) != (low[i] > 0):
        return False
    return pick.shape[0] == 0 or pick[i] != 0.0


@kernel(inline="always")
def walk(cards, order, n, reach, num, hero, sums, every, k, low, side, pick, scale):
    """The river's one walk, weakest value first: with ``every``, every listed hand's
    twice won plus tied, times ``scale``, added to ``num`` (only where ``wanted``);
    otherwise only the hands ``hero`` weighs read, their weighted wins and wins-and-ties
    returned (zeros with ``every``).  ``every`` and ``k`` (the hands' cards) are constants
    at each call, so the branches on them compile away.

    A value group is read, added to the sums, and read again.  The sums do not change
    while a group is read, so a hand whose cards past the first are the last read hand's
    (``rest_key``) reuses that hand's ``rest_sums``; and the group's hands with one rest
    add their weights to its entries once, summed."""
    sign = 1.0 if k % 2 == 0 else -1.0
    below = 0.0
    sums[:] = 0.0
    won = 0.0
    up_to = 0.0
    start = 0
    while start < n:
        v = order[start] >> S32
        stop = start
        last = np.int64(-1)
        rest = 0.0
        while stop < n and (order[stop] >> S32) == v:
            i = order[stop] & LOW32
            if every:
                read = wanted(i, low, side, pick)
            else:
                read = hero[i] != 0.0
            if read:
                key = rest_key(cards, i, k)
                if key != last:
                    rest = rest_sums(cards, i, sums, k)
                    last = key
                clear = below + (rest + first_sums(cards, i, sums, k))
                if every:
                    num[i] += scale * clear
                else:
                    won += hero[i] * clear
            stop += 1
        last = np.int64(-1)
        held = order[start] & LOW32
        pending = 0.0
        for j in range(start, stop):
            i = order[j] & LOW32
            w = reach[i]
            if w != 0.0:
                below += w
                add_first(cards, i, w, sums, k)
                key = rest_key(cards, i, k)
                if key != last:
                    if pending != 0.0:
                        add_rest(cards, held, pending, sums, k)
                    pending = 0.0
                    held = i
                    last = key
                pending += w
        if pending != 0.0:
            add_rest(cards, held, pending, sums, k)
        last = np.int64(-1)
        for j in range(start, stop):
            i = order[j] & LOW32
            if every:
                read = wanted(i, low, side, pick)
            else:
                read = hero[i] != 0.0
            if read:
                key = rest_key(cards, i, k)
                if key != last:
                    rest = rest_sums(cards, i, sums, k)
                    last = key
                clear = below + (rest + first_sums(cards, i, sums, k)) + sign * reach[i]
                if every:
                    num[i] += scale * clear
                else:
                    up_to += hero[i] * clear
        start = stop
    return won, up_to


@kernel
def support(combo_bits, dead_bits, reach):
    """How many hands clear of the known cards have weight."""
    n = 0
    for i in range(reach.shape[0]):
        if reach[i] != 0.0 and not (combo_bits[i] & dead_bits):
            n += 1
    return n


@kernel
def pairwise_river(combo_bits, order, n, reach, careful, careful_num, position, heavy,
                   signs):
    """For each hand of ``careful`` listed in ``order``: ``careful_num[k] += 2 x (won +
    tied / 2)`` (``signs = False``), or the weight it beats less the weight it loses to
    (``signs = True``), pair by pair over the listed hands with weight.  ``position``
    (N) and ``heavy`` (N) are scratch."""
    for j in range(n):
        position[order[j] & LOW32] = j
    h = 0
    for j in range(n):
        if reach[order[j] & LOW32] != 0.0:
            heavy[h] = order[j]
            h += 1
    for k in range(careful.shape[0]):
        i = careful[k]
        j = position[i]
        if j < 0 or j >= n or (order[j] & LOW32) != U64(i):
            continue                       # not live on this runout
        v = order[j] >> S32
        mine = combo_bits[i]
        share = 0.0
        for t in range(h):
            y = heavy[t]
            other = y & LOW32
            if combo_bits[other] & mine:
                continue
            u = y >> S32
            if u < v:
                share += reach[other] if signs else 2.0 * reach[other]
            elif u == v:
                if not signs:
                    share += reach[other]
            elif signs:
                share -= reach[other]
        careful_num[k] += share
