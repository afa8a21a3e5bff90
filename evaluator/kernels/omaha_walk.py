"""The river's walk of ``omaha_sweep``'s listing: every listed Omaha hand (four to six
cards) read against the running sums before and after its value group joins them.

A value group is read, added to the sums and read again, weakest value first.  In the
listing's colex order most hands share their cards past the first with the hand before
(about 84% on a PLO river), and the sums do not change while a group is read: such a hand
reads the terms of its subsets without its first card once for all of them
(``rest_sums``), and the group's hands with one such rest add their weights to its
entries once, summed (``add_rest``).

cards : uint8 (N, 4), (N, 5) or (N, 6), hand ``i``'s cards ascending (colex order)
order : uint64, the listed hands as ``value number << 32 | hand`` (``list_river``)
"""
import numpy as np

from .._jit import kernel
from .omaha_sweep import (
    FIVES_AT,
    FOURS_AT,
    LOW32,
    S32,
    THREES_AT,
    TWOS_AT,
    add_subsets,
    choose2,
    choose3,
    choose4,
    choose5,
    subset_sums,
    sums_size,
)
from .sweep import BAD_WEIGHT, LARGEST, NO_LIVE_WEIGHT, NO_WEIGHT, OK, OUT_OF_SCALE


@kernel(inline="always")
def rest_key(cards, i, k):
    """Hand ``i``'s cards past its first, packed: hands with the same key read the same
    ``rest_sums`` and add to the same ``add_rest`` entries."""
    if k == 6:
        return rest_key6(cards, i)
    key = (np.int64(cards[i, 1]) << 12) | (np.int64(cards[i, 2]) << 6) | np.int64(cards[i, 3])
    if k == 5:
        key = (key << 6) | np.int64(cards[i, 4])
    return key


@kernel(inline="always")
def rest_sums(cards, i, sums, k):
    """The signed terms of ``subset_sums`` whose subsets leave out hand ``i``'s first
    (lowest) card.  In the walk's colex order most hands share the rest of their cards
    with the hand before (about 84% on a PLO river), and then share these terms."""
    if k == 6:
        return rest_sums6(cards, i, sums)
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cc = choose2(c)
    cd = choose2(d)
    td = choose3(d)
    s = (sums[b] + sums[c]) + sums[d]
    t = (sums[TWOS_AT + cc + b] + sums[TWOS_AT + cd + b]) + sums[TWOS_AT + cd + c]
    u = sums[THREES_AT + td + cc + b]
    if k == 4:
        return t - (s + u)
    e = np.int64(cards[i, 4])
    ce = choose2(e)
    te = choose3(e)
    s += sums[e]
    t += (sums[TWOS_AT + ce + b] + sums[TWOS_AT + ce + c]) + sums[TWOS_AT + ce + d]
    u += (sums[THREES_AT + te + cc + b] + sums[THREES_AT + te + cd + b]) \
        + sums[THREES_AT + te + cd + c]
    q = sums[FOURS_AT + choose4(e) + td + cc + b]
    return (t + q) - (s + u)


@kernel(inline="always")
def first_sums(cards, i, sums, k):
    """The signed terms of ``subset_sums`` whose subsets hold hand ``i``'s first card
    (the rest: ``rest_sums``)."""
    if k == 6:
        return first_sums6(cards, i, sums)
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cb = choose2(b)
    cc = choose2(c)
    cd = choose2(d)
    tc = choose3(c)
    td = choose3(d)
    t = (sums[TWOS_AT + cb + a] + sums[TWOS_AT + cc + a]) + sums[TWOS_AT + cd + a]
    u = (sums[THREES_AT + tc + cb + a] + sums[THREES_AT + td + cb + a]) \
        + (sums[a] + sums[THREES_AT + td + cc + a])
    if k == 4:
        return t - u
    e = np.int64(cards[i, 4])
    ce = choose2(e)
    te = choose3(e)
    fe = choose4(e)
    t += sums[TWOS_AT + ce + a]
    u += (sums[THREES_AT + te + cb + a] + sums[THREES_AT + te + cc + a]) \
        + sums[THREES_AT + te + cd + a]
    q = ((sums[FOURS_AT + choose4(d) + tc + cb + a] + sums[FOURS_AT + fe + tc + cb + a])
         + (sums[FOURS_AT + fe + td + cb + a] + sums[FOURS_AT + fe + td + cc + a]))
    return (t + q) - u


@kernel(inline="always")
def add_rest(cards, i, w, sums, k):
    """Add ``w`` to the running sums ``rest_sums`` reads for hand ``i``."""
    if k == 6:
        add_rest6(cards, i, w, sums)
        return
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    cc = choose2(c)
    cd = choose2(d)
    td = choose3(d)
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
    ce = choose2(e)
    te = choose3(e)
    sums[e] += w
    sums[TWOS_AT + ce + b] += w
    sums[TWOS_AT + ce + c] += w
    sums[TWOS_AT + ce + d] += w
    sums[THREES_AT + te + cc + b] += w
    sums[THREES_AT + te + cd + b] += w
    sums[THREES_AT + te + cd + c] += w
    sums[FOURS_AT + choose4(e) + td + cc + b] += w


@kernel(inline="always")
def add_first(cards, i, w, sums, k):
    """Add ``w`` to the running sums ``first_sums`` reads for hand ``i``."""
    if k == 6:
        add_first6(cards, i, w, sums)
        return
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
    sums[TWOS_AT + cb + a] += w
    sums[TWOS_AT + cc + a] += w
    sums[TWOS_AT + cd + a] += w
    sums[THREES_AT + tc + cb + a] += w
    sums[THREES_AT + td + cb + a] += w
    sums[THREES_AT + td + cc + a] += w
    if k == 4:
        return
    e = np.int64(cards[i, 4])
    ce = choose2(e)
    te = choose3(e)
    fe = choose4(e)
    sums[TWOS_AT + ce + a] += w
    sums[THREES_AT + te + cb + a] += w
    sums[THREES_AT + te + cc + a] += w
    sums[THREES_AT + te + cd + a] += w
    sums[FOURS_AT + choose4(d) + tc + cb + a] += w
    sums[FOURS_AT + fe + tc + cb + a] += w
    sums[FOURS_AT + fe + td + cb + a] += w
    sums[FOURS_AT + fe + td + cc + a] += w


# six cards: each helper a function of its own (a call from the walk), the five-card
# terms and those of the sixth card.  Written inline like four and five cards, their code
# made the walks the slowest functions of the package to compile (warmup 104 s -> 224 s)
@kernel
def rest_key6(cards, i):
    return (rest_key(cards, i, 5) << 6) | np.int64(cards[i, 5])


@kernel
def rest_sums6(cards, i, sums):
    """``rest_sums`` of a six-card hand: its five-card terms (the subsets of its second
    to fifth cards), and those holding the sixth card and not the first."""
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    e = np.int64(cards[i, 4])
    f = np.int64(cards[i, 5])
    cc = choose2(c)
    cd = choose2(d)
    ce = choose2(e)
    td = choose3(d)
    te = choose3(e)
    cf = TWOS_AT + choose2(f)
    tf = THREES_AT + choose3(f)
    ff = FOURS_AT + choose4(f)
    s = sums[f]
    t = (sums[cf + b] + sums[cf + c]) + (sums[cf + d] + sums[cf + e])
    u = ((sums[tf + cc + b] + sums[tf + cd + b]) + (sums[tf + cd + c] + sums[tf + ce + b])) \
        + (sums[tf + ce + c] + sums[tf + ce + d])
    q = (sums[ff + td + cc + b] + sums[ff + te + cc + b]) \
        + (sums[ff + te + cd + b] + sums[ff + te + cd + c])
    p = sums[FIVES_AT + choose5(f) + choose4(e) + td + cc + b]
    return rest_sums(cards, i, sums, 5) + ((t + q) - ((s + u) + p))


@kernel
def first_sums6(cards, i, sums):
    """``first_sums`` of a six-card hand: its five-card terms (and the five first cards
    together, a proper subset of six), and those holding the first and the sixth."""
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    e = np.int64(cards[i, 4])
    f = np.int64(cards[i, 5])
    cb = choose2(b)
    cc = choose2(c)
    cd = choose2(d)
    ce = choose2(e)
    tc = choose3(c)
    td = choose3(d)
    te = choose3(e)
    fd = choose4(d)
    fe = choose4(e)
    tf = THREES_AT + choose3(f)
    ff = FOURS_AT + choose4(f)
    vf = FIVES_AT + choose5(f)
    t = sums[TWOS_AT + choose2(f) + a]
    u = (sums[tf + cb + a] + sums[tf + cc + a]) + (sums[tf + cd + a] + sums[tf + ce + a])
    q = ((sums[ff + tc + cb + a] + sums[ff + td + cb + a])
         + (sums[ff + td + cc + a] + sums[ff + te + cb + a])) \
        + (sums[ff + te + cc + a] + sums[ff + te + cd + a])
    p = ((sums[FIVES_AT + choose5(e) + fd + tc + cb + a] + sums[vf + fd + tc + cb + a])
         + (sums[vf + fe + tc + cb + a] + sums[vf + fe + td + cb + a])) \
        + sums[vf + fe + td + cc + a]
    return first_sums(cards, i, sums, 5) + ((t + q) - (u + p))


@kernel
def add_rest6(cards, i, w, sums):
    """``add_rest`` of a six-card hand."""
    add_rest(cards, i, w, sums, 5)
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    e = np.int64(cards[i, 4])
    f = np.int64(cards[i, 5])
    cc = choose2(c)
    cd = choose2(d)
    ce = choose2(e)
    td = choose3(d)
    te = choose3(e)
    cf = TWOS_AT + choose2(f)
    tf = THREES_AT + choose3(f)
    ff = FOURS_AT + choose4(f)
    sums[f] += w
    sums[cf + b] += w
    sums[cf + c] += w
    sums[cf + d] += w
    sums[cf + e] += w
    sums[tf + cc + b] += w
    sums[tf + cd + b] += w
    sums[tf + cd + c] += w
    sums[tf + ce + b] += w
    sums[tf + ce + c] += w
    sums[tf + ce + d] += w
    sums[ff + td + cc + b] += w
    sums[ff + te + cc + b] += w
    sums[ff + te + cd + b] += w
    sums[ff + te + cd + c] += w
    sums[FIVES_AT + choose5(f) + choose4(e) + td + cc + b] += w


@kernel
def add_first6(cards, i, w, sums):
    """``add_first`` of a six-card hand."""
    add_first(cards, i, w, sums, 5)
    a = np.int64(cards[i, 0])
    b = np.int64(cards[i, 1])
    c = np.int64(cards[i, 2])
    d = np.int64(cards[i, 3])
    e = np.int64(cards[i, 4])
    f = np.int64(cards[i, 5])
    cb = choose2(b)
    cc = choose2(c)
    cd = choose2(d)
    ce = choose2(e)
    tc = choose3(c)
    td = choose3(d)
    te = choose3(e)
    fd = choose4(d)
    fe = choose4(e)
    tf = THREES_AT + choose3(f)
    ff = FOURS_AT + choose4(f)
    vf = FIVES_AT + choose5(f)
    sums[TWOS_AT + choose2(f) + a] += w
    sums[tf + cb + a] += w
    sums[tf + cc + a] += w
    sums[tf + cd + a] += w
    sums[tf + ce + a] += w
    sums[ff + tc + cb + a] += w
    sums[ff + td + cb + a] += w
    sums[ff + td + cc + a] += w
    sums[ff + te + cb + a] += w
    sums[ff + te + cc + a] += w
    sums[ff + te + cd + a] += w
    sums[FIVES_AT + choose5(e) + fd + tc + cb + a] += w
    sums[vf + fd + tc + cb + a] += w
    sums[vf + fe + tc + cb + a] += w
    sums[vf + fe + td + cb + a] += w
    sums[vf + fe + td + cc + a] += w


@kernel
def sweep_river(cards, order, n, reach, num, sums, low, side, pick, scale):
    """``num[i] += scale x 2 x (won + tied / 2)`` for every listed hand, as
    ``sweep.sweep_river`` does for two cards; with ``side`` 1 only for the hands with a
    low (``low[i] > 0``), 2 only for those without; with ``pick`` (N,) not empty, only
    where it is not 0 (every hand with weight still counts as an opponent)."""
    none = np.empty(0)
    if cards.shape[1] == 4:
        walk(cards, order, n, reach, num, none, sums, True, 4, low, side, pick, scale)
    elif cards.shape[1] == 5:
        walk(cards, order, n, reach, num, none, sums, True, 5, low, side, pick, scale)
    else:
        walk6(cards, order, n, reach, num, none, sums, True, low, side, pick, scale)


@kernel
def walk6(cards, order, n, reach, num, hero, sums, every, low, side, pick, scale):
    """``walk`` for six cards, a function of its own (``every`` read, the helpers called:
    see ``rest_key6``)."""
    return walk(cards, order, n, reach, num, hero, sums, every, 6, low, side, pick, scale)


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
    if cards.shape[1] == 5:
        return walk(cards, order, n, reach, none, hero, sums, False, 5, every, 0, none, 1.0)
    return walk6(cards, order, n, reach, none, hero, sums, False, every, 0, none, 1.0)


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
    at each call, so the branches on them compile away (six cards: ``walk6``).

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


@kernel(inline="always")
def clear_weights(cards, combo_bits, dead_bits, reach, met, careful, close_share):
    """As ``sweep.clear_weights`` for Omaha hands: ``met[i]`` the weight of the hands
    clear of hand ``i`` and of the known cards; returns ``(status, careful hands)``.
    The hands are summed and read in combo (colex) order, where the hands sharing their
    cards past the first are neighbours: their ``rest_sums`` are read once, and their
    weights added to ``add_rest``'s entries once, summed."""
    return clear_colex(cards, combo_bits, dead_bits, reach, met, careful, close_share,
                       cards.shape[1])


@kernel
def clear_colex(cards, combo_bits, dead_bits, reach, met, careful, close_share, k):
    """``clear_weights`` for hands of ``k`` cards (a constant)."""
    N = cards.shape[0]
    whole = 0.0
    top = 0.0
    live = 0
    sign = 1.0 if k % 2 == 0 else -1.0
    sums = np.zeros(sums_size(k), np.float64)
    last = np.int64(-1)
    held = 0
    pending = 0.0
    for i in range(N):
        w = reach[i]
        if not (w >= 0.0 and w <= LARGEST):
            return (BAD_WEIGHT if not (w >= 0.0 and w < np.inf) else OUT_OF_SCALE), 0
        top = max(top, w)
        if combo_bits[i] & dead_bits or w == 0.0:
            continue
        whole += w
        live += 1
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
    if top == 0.0:
        return NO_WEIGHT, 0
    if top < 2.0 ** -1000:
        return OUT_OF_SCALE, 0
    if live == 0:
        return NO_LIVE_WEIGHT, 0
    close = whole * close_share
    n = 0
    last = np.int64(-1)
    rest = 0.0
    for i in range(N):
        met[i] = 0.0
        if combo_bits[i] & dead_bits:
            continue
        key = rest_key(cards, i, k)
        if key != last:
            rest = rest_sums(cards, i, sums, k)
            last = key
        m = whole + (rest + first_sums(cards, i, sums, k)) + sign * reach[i]
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
    for c in range(n):
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
