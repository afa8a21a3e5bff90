"""The river's walk of ``omaha_sweep``'s listing: every listed Omaha hand (four or five
cards) read against the running sums before and after its value group joins them.

A value group is read, added to the sums and read again, weakest value first.  In the
listing's colex order most hands share their cards past the first with the hand before
(about 84% on a PLO river), and the sums do not change while a group is read: such a hand
reads the terms of its subsets without its first card once for all of them
(``rest_sums``), and the group's hands with one such rest add their weights to its
entries once, summed (``add_rest``).

cards : uint8 (N, 4) or (N, 5), hand ``i``'s cards ascending (colex order of card ids)
order : uint64, the listed hands as ``value number << 32 | hand`` (``list_river``)
"""
import numpy as np

from .._jit import kernel
from .omaha_sweep import (
    FOURS_AT,
    LOW32,
    S32,
    THREES_AT,
    TWOS_AT,
    choose2,
    choose3,
    choose4,
)


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
