"""Every four-, five- or six-card Omaha hand against a range at once: the sweep of
``sweep.py`` for hands of more cards.

On a complete board an Omaha hand's value is the best of its hole pairs (six of four
cards, ten of five, fifteen of six), each played with its best three board cards.  So a river
evaluates the hole pairs, not the hands: outside a flush a pair's best depends only on
its two ranks (91 rank pairs, ten board triples each), and a suited pair can add a
flush when the board holds three of its suit.  The distinct pair values (at most a few
hundred) are sorted and numbered, a hand's number is the largest of its pairs', and one
counting pass lists the live hands weakest first.

Card removal: two hands can share every card of the smaller, so the weight of the
hands clear of hand ``H`` is inclusion-exclusion over the subsets of ``H``: the whole,
less the hands holding each card, plus those holding each pair of its cards, less
those holding each three (plus each four: five and six cards; less each five: six
cards), and ``H`` itself with the sign of its size.  The sweep keeps those running sums
in one flat array, by card (52), pair (1,326, colex), three cards (22,100, colex), four
(270,725, colex: five and six cards) and five (2,598,960, colex: six cards, 23 MB of
sums), and reads the fourteen (thirty, sixty-two) of a hand before and after its value
group joins them, as the two-card sweep reads two.

cards : uint8 (N, 4), (N, 5) or (N, 6), hand ``i``'s cards ascending (colex order)
combo_bits : uint64 (N,), each hand's card mask
"""
import numpy as np

from .._jit import kernel
from .high import KEY_MASK, ONE, U64, hash_read

CAREFUL_WORK = 4_000_000_000
"""Pairs summed one by one at most (careful hands x hands with weight x runouts, a few
seconds); past it the weights are refused as too concentrated."""
PAIRS = 1326
TRIPLES = 22100
QUADS = 270725
FIVES = 2598960
TWOS_AT = 52             # the running sums, one flat array: cards, pairs, threes, fours,
THREES_AT = TWOS_AT + PAIRS          # fives (six-card hands)
FOURS_AT = THREES_AT + TRIPLES
FIVES_AT = FOURS_AT + QUADS
RANK_BITS = 32           # listed hands: value number << 32 | hand number
LOW32 = U64(0xFFFFFFFF)
S32 = U64(32)


@kernel(inline="always")
def choose2(x):
    """``C(x, 2)``: where the pairs whose higher card is ``x`` start in colex order."""
    return (x * (x - 1)) >> 1             # x >= 0: a shift, not a signed division


@kernel(inline="always")
def choose3(x):
    """``C(x, 3)``: where the three-card sets whose highest card is ``x`` start."""
    return x * (x - 1) * (x - 2) // 6


@kernel(inline="always")
def choose4(x):
    """``C(x, 4)``: where the four-card sets whose highest card is ``x`` start."""
    return x * (x - 1) * (x - 2) * (x - 3) // 24


@kernel(inline="always")
def choose5(x):
    """``C(x, 5)``: where the five-card sets whose highest card is ``x`` start."""
    return x * (x - 1) * (x - 2) * (x - 3) * (x - 4) // 120


@kernel(inline="always")
def sums_size(hole):
    """The length of the flat array of running sums a ``hole``-card sweep keeps."""
    if hole == 6:
        return FIVES_AT + FIVES
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
    cb = choose2(b)
    cc = choose2(c)
    cd = choose2(d)
    tc = choose3(c)
    td = choose3(d)
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
    ce = choose2(e)
    te = choose3(e)
    s += sums[e]
    t += ((sums[TWOS_AT + ce + a] + sums[TWOS_AT + ce + b])
          + (sums[TWOS_AT + ce + c] + sums[TWOS_AT + ce + d]))
    u += (((sums[THREES_AT + te + cb + a] + sums[THREES_AT + te + cc + a])
           + (sums[THREES_AT + te + cd + a] + sums[THREES_AT + te + cc + b]))
          + (sums[THREES_AT + te + cd + b] + sums[THREES_AT + te + cd + c]))
    fd = choose4(d)
    fe = choose4(e)
    q = (((sums[FOURS_AT + fd + tc + cb + a] + sums[FOURS_AT + fe + tc + cb + a])
          + (sums[FOURS_AT + fe + td + cb + a] + sums[FOURS_AT + fe + td + cc + a]))
         + sums[FOURS_AT + fe + td + cc + b])
    if k == 5:
        return (t + q) - (s + u)
    f = np.int64(cards[i, 5])
    cf = choose2(f)
    tf = choose3(f)
    ff = choose4(f)
    vf = FIVES_AT + choose5(f)
    s += sums[f]
    t += ((sums[TWOS_AT + cf + a] + sums[TWOS_AT + cf + b])
          + (sums[TWOS_AT + cf + c] + sums[TWOS_AT + cf + d])) + sums[TWOS_AT + cf + e]
    u += ((((sums[THREES_AT + tf + cb + a] + sums[THREES_AT + tf + cc + a])
            + (sums[THREES_AT + tf + cd + a] + sums[THREES_AT + tf + ce + a]))
           + ((sums[THREES_AT + tf + cc + b] + sums[THREES_AT + tf + cd + b])
              + (sums[THREES_AT + tf + ce + b] + sums[THREES_AT + tf + cd + c])))
          + (sums[THREES_AT + tf + ce + c] + sums[THREES_AT + tf + ce + d]))
    q += ((((sums[FOURS_AT + ff + tc + cb + a] + sums[FOURS_AT + ff + td + cb + a])
            + (sums[FOURS_AT + ff + td + cc + a] + sums[FOURS_AT + ff + td + cc + b]))
           + ((sums[FOURS_AT + ff + te + cb + a] + sums[FOURS_AT + ff + te + cc + a])
              + (sums[FOURS_AT + ff + te + cd + a] + sums[FOURS_AT + ff + te + cc + b])))
          + (sums[FOURS_AT + ff + te + cd + b] + sums[FOURS_AT + ff + te + cd + c]))
    p = ((sums[FIVES_AT + choose5(e) + fd + tc + cb + a] + sums[vf + fd + tc + cb + a])
         + (sums[vf + fe + tc + cb + a] + sums[vf + fe + td + cb + a])) \
        + (sums[vf + fe + td + cc + a] + sums[vf + fe + td + cc + b])
    return (t + q) - ((s + u) + p)


@kernel
def add_subsets(cards, i, w, sums, k):
    """Add ``w`` to the running sums of every proper, non-empty subset of hand ``i`` (of
    ``k`` cards)."""
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cb = choose2(b)
    cc = choose2(c)
    cd = choose2(d)
    tc = choose3(c)
    td = choose3(d)
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
    ce = choose2(e)
    te = choose3(e)
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
    fd = choose4(d)
    fe = choose4(e)
    sums[FOURS_AT + fd + tc + cb + a] += w
    sums[FOURS_AT + fe + tc + cb + a] += w
    sums[FOURS_AT + fe + td + cb + a] += w
    sums[FOURS_AT + fe + td + cc + a] += w
    sums[FOURS_AT + fe + td + cc + b] += w
    if k == 5:
        return
    f = np.int64(cards[i, 5])
    cf = choose2(f)
    tf = choose3(f)
    ff = choose4(f)
    vf = FIVES_AT + choose5(f)
    sums[f] += w
    sums[TWOS_AT + cf + a] += w
    sums[TWOS_AT + cf + b] += w
    sums[TWOS_AT + cf + c] += w
    sums[TWOS_AT + cf + d] += w
    sums[TWOS_AT + cf + e] += w
    sums[THREES_AT + tf + cb + a] += w
    sums[THREES_AT + tf + cc + a] += w
    sums[THREES_AT + tf + cd + a] += w
    sums[THREES_AT + tf + ce + a] += w
    sums[THREES_AT + tf + cc + b] += w
    sums[THREES_AT + tf + cd + b] += w
    sums[THREES_AT + tf + ce + b] += w
    sums[THREES_AT + tf + cd + c] += w
    sums[THREES_AT + tf + ce + c] += w
    sums[THREES_AT + tf + ce + d] += w
    sums[FOURS_AT + ff + tc + cb + a] += w
    sums[FOURS_AT + ff + td + cb + a] += w
    sums[FOURS_AT + ff + td + cc + a] += w
    sums[FOURS_AT + ff + td + cc + b] += w
    sums[FOURS_AT + ff + te + cb + a] += w
    sums[FOURS_AT + ff + te + cc + a] += w
    sums[FOURS_AT + ff + te + cd + a] += w
    sums[FOURS_AT + ff + te + cc + b] += w
    sums[FOURS_AT + ff + te + cd + b] += w
    sums[FOURS_AT + ff + te + cd + c] += w
    sums[FIVES_AT + choose5(e) + fd + tc + cb + a] += w
    sums[vf + fd + tc + cb + a] += w
    sums[vf + fe + tc + cb + a] += w
    sums[vf + fe + td + cb + a] += w
    sums[vf + fe + td + cc + a] += w
    sums[vf + fe + td + cc + b] += w


@kernel(inline="always")
def best_pair(cards, i, pair_rank, k):
    """The largest pair number among hand ``i``'s hole pairs (``k`` cards)."""
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cb = choose2(b)
    cc = choose2(c)
    cd = choose2(d)
    r = max(max(pair_rank[cb + a], pair_rank[cc + a]),
            max(max(pair_rank[cd + a], pair_rank[cc + b]),
                max(pair_rank[cd + b], pair_rank[cd + c])))
    if k == 4:
        return r
    e = np.int64(cards[i, 4])
    ce = choose2(e)
    r = max(r, max(max(pair_rank[ce + a], pair_rank[ce + b]),
                   max(pair_rank[ce + c], pair_rank[ce + d])))
    if k == 5:
        return r
    cf = choose2(np.int64(cards[i, 5]))
    return max(r, max(max(max(pair_rank[cf + a], pair_rank[cf + b]),
                          max(pair_rank[cf + c], pair_rank[cf + d])), pair_rank[cf + e]))


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
                words[m] = (np.int64(best) << 16) | (169 + choose2(y) + x)
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
            p = choose2(y) + x
            if (y & 3) == fs and (x & 3) == fs:
                if (out_bits >> U64(y)) & ONE or (out_bits >> U64(x)) & ONE:
                    continue
                pair_rank[p] = max(pair_rank[p], class_rank[(y >> 2) * 13 + (x >> 2)])
            else:
                pair_rank[p] = class_rank[(y >> 2) * 13 + (x >> 2)]
    # each live hand: the best of its pairs; then one counting pass
    values = number + 1
    count[:values + 1] = 0
    rank_hands(cards, combo_bits, out_bits, pair_rank, hand_rank, count, cards.shape[1])
    for k in range(values):
        count[k + 1] += count[k]
    for i in range(N):
        r = hand_rank[i]
        if r >= 0:
            order[count[r]] = (U64(r) << S32) | U64(i)
            count[r] += 1
    return count[values - 1]


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
