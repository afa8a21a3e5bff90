"""Every combo of any hole size against a range at once, on one complete board: the
sort and sweep of ``sweep.py`` with card removal by inclusion-exclusion over every
subset of a combo's cards.

The weight of the combos clear of a combo ``H`` (no card in common) is
``sum over S in subsets(H) of (-1)**|S| * W(S)``, where ``W(S)`` is the weight of the
combos holding every card of ``S`` (``W(empty)`` the whole, ``W(H)`` ``H``'s own).  The
sweep keeps ``W`` for the combos listed so far, by subset size: one sum per card, per
pair, ... per ``(k-1)``-card subset, each size in one flat array at its colex offset.
A combo reads its ``2**k`` terms before and after its value group joins the sums, as
the two-card sweep reads its three.  The values come from the game's own evaluation
(``evaluate_batch``), so every game with a board, and Teen Patti with none, is covered.

cards : uint8 (N, k), combo ``i``'s cards ascending (colex order of card ids)
binom : int64 (53, k + 1), ``binom[c, j] = C(c, j)``
base : int64 (k + 1,), the offset of the ``s``-card subsets' block in ``sums``
"""
import numpy as np

from .._jit import kernel
from .omaha_sweep import add_subsets as add_unrolled
from .omaha_sweep import subset_sums as read_unrolled
from .sweep import BAD_WEIGHT, LARGEST, NO_LIVE_WEIGHT, NO_WEIGHT, OK, OUT_OF_SCALE

MAX_HOLE = 6


@kernel(inline="always")
def subset_at(cards, i, mask, binom, base):
    """``(offset in the sums, size)`` of the subset ``mask`` of combo ``i``'s cards."""
    key = 0
    size = 0
    for j in range(cards.shape[1]):
        if (mask >> j) & 1:
            size += 1
            key += binom[cards[i, j], size]
    return base[size] + key, size


@kernel
def read_subsets(cards, i, sums, binom, base):
    """``sum over proper non-empty S of H of (-1)**|S| * sums[S]`` for combo ``i``
    (four to six cards: ``omaha_sweep``'s unrolled reads of the same layout)."""
    if cards.shape[1] >= 4:
        return read_unrolled(cards, i, sums, cards.shape[1])
    total = 0.0
    for mask in range(1, (1 << cards.shape[1]) - 1):
        at, size = subset_at(cards, i, mask, binom, base)
        if size & 1:
            total -= sums[at]
        else:
            total += sums[at]
    return total


@kernel
def add_subsets(cards, i, w, sums, binom, base):
    """Add ``w`` to every proper non-empty subset sum of combo ``i``."""
    if cards.shape[1] >= 4:
        add_unrolled(cards, i, w, sums, cards.shape[1])
        return
    for mask in range(1, (1 << cards.shape[1]) - 1):
        sums[subset_at(cards, i, mask, binom, base)[0]] += w


@kernel
def clear_weights(cards, combo_bits, out_bits, reach, met, sums, binom, base):
    """``met[i]``: the weight of the combos clear of combo ``i`` and of the cards out
    (``out_bits``); 0 for a combo holding one.  Returns ``(status, whole)``."""
    N = cards.shape[0]
    k = cards.shape[1]
    sums[:] = 0.0
    whole = 0.0
    top = 0.0
    live = 0
    for i in range(N):
        w = reach[i]
        if not (w >= 0.0 and w <= LARGEST):
            return (BAD_WEIGHT if not (w >= 0.0 and w < np.inf) else OUT_OF_SCALE), 0.0
        top = max(top, w)
        if combo_bits[i] & out_bits or w == 0.0:
            continue
        whole += w
        live += 1
        add_subsets(cards, i, w, sums, binom, base)
    if top == 0.0:
        return NO_WEIGHT, 0.0
    if top < 2.0 ** -1000:
        return OUT_OF_SCALE, 0.0
    if live == 0:
        return NO_LIVE_WEIGHT, 0.0
    sign = 1.0 if k % 2 == 0 else -1.0
    for i in range(N):
        if combo_bits[i] & out_bits:
            met[i] = 0.0
            continue
        met[i] = whole + read_subsets(cards, i, sums, binom, base) + sign * reach[i]
    return OK, whole


@kernel
def sweep_board(cards, order, values, n, reach, num, tied, sums, binom, base):
    """``num[i] += 2 x (won + tied / 2)`` for every listed combo ``i`` (``order``: the
    live combos, weakest first by ``values``): the clear weight strictly below it plus
    the clear weight up to its value, less itself; and where ``tied`` is (N,) (not
    empty), ``tied[i] +=`` the clear weight of its value alone (the second less the
    first)."""
    ties = tied.shape[0] > 0
    k = cards.shape[1]
    sign = 1.0 if k % 2 == 0 else -1.0
    sums[:] = 0.0
    below = 0.0
    start = 0
    while start < n:
        v = values[order[start]]
        stop = start
        while stop < n and values[order[stop]] == v:
            i = order[stop]
            first = below + read_subsets(cards, i, sums, binom, base)
            num[i] += first
            if ties:
                tied[i] -= first
            stop += 1
        for j in range(start, stop):
            i = order[j]
            w = reach[i]
            if w != 0.0:
                below += w
                add_subsets(cards, i, w, sums, binom, base)
        for j in range(start, stop):
            i = order[j]
            second = below + read_subsets(cards, i, sums, binom, base) + sign * reach[i]
            num[i] += second
            if ties:
                tied[i] += second
        start = stop


@kernel
def pairwise(combo_bits, order, values, n, reach, careful, share, tie, signs):
    """For each combo of ``careful`` listed in ``order``: ``share[k] +=`` twice its wins
    plus its ties (``signs = False``), or the weight it beats less the weight it loses to
    (``signs = True``), summed pair by pair over the listed combos with weight; and where
    ``tie`` is not empty, ``tie[k] +=`` the weight it ties."""
    listed = np.zeros(values.shape[0], np.bool_)
    for j in range(n):
        listed[order[j]] = True
    for c in range(careful.shape[0]):
        i = careful[c]
        if not listed[i]:
            continue
        v = values[i]
        mine = combo_bits[i]
        total = 0.0
        for j in range(n):
            o = order[j]
            w = reach[o]
            if w == 0.0 or combo_bits[o] & mine:
                continue
            u = values[o]
            if u < v:
                total += w if signs else 2.0 * w
            elif u == v:
                if not signs:
                    total += w
                if tie.shape[0]:
                    tie[c] += w
            elif signs:
                total -= w
        share[c] += total


@kernel
def add_hilo(low, high, high_low, low_sum, num):
    """``num[i] +=`` twice combo ``i``'s hi-lo pot share from three sweeps of one board:
    ``high`` (every opponent by high), ``high_low`` (the opponents with a qualifying low,
    by high) and ``low_sum`` (every opponent by low, no low counting below any).  A combo
    with a low takes half of each half; one without takes the whole pot from an opponent
    with no low and half of it from one with a low (who takes the low half)."""
    for i in range(num.shape[0]):
        if low[i] > 0:
            num[i] += 0.5 * (high[i] + low_sum[i])
        elif low[i] == 0:
            num[i] += high[i] - 0.5 * high_low[i]


@kernel
def pairwise_hilo(combo_bits, order, high, low, n, reach, careful, share, signs):
    """``pairwise`` for a hi-lo pot: ``share[k] +=`` the weight of each listed opponent
    times twice the pot share the careful combo takes from it (``signs``: less one, its
    share less the opponent's), pair by pair."""
    listed = np.zeros(high.shape[0], np.bool_)
    for j in range(n):
        listed[order[j]] = True
    for c in range(careful.shape[0]):
        i = careful[c]
        if not listed[i]:
            continue
        mine = combo_bits[i]
        total = 0.0
        for j in range(n):
            o = order[j]
            w = reach[o]
            if w == 0.0 or combo_bits[o] & mine:
                continue
            h = 2.0 if high[i] > high[o] else (1.0 if high[i] == high[o] else 0.0)
            if low[i] > 0 or low[o] > 0:
                lo = 2.0 if low[i] > low[o] else (1.0 if low[i] == low[o] else 0.0)
                h = 0.5 * (h + lo)
            total += w * (h - 1.0) if signs else w * h
        share[c] += total


# --- hi-lo tallies: high and low outcomes together ---------------------------------------
# Each subset sum of the sweep becomes a row of sums by the board's low rank (row
# ``sums.shape[0] - 1`` the empty subset's), so that a combo reads, for every band of
# high (below it, level, above), the clear weight whose low is below its own and level
# with it.  Low rank 0 is "no low".  A board makes few lows (56 at most, about ten on a
# typical one; the row is as wide as the board's), so an opponent adds one entry a
# subset and a combo sums the few before its own, a cache line or two.

@kernel(inline="always")
def _below(by_low, row, t):
    """The weight in ``by_low[row]`` at low ranks below ``t``."""
    s = 0.0
    for r in range(t):
        s += by_low[row, r]
    return s


@kernel(inline="always")
def subset_offsets(cards, i, binom, base, at):
    """``at[mask]``: the offset in the sums of the subset ``mask`` of combo ``i``'s cards
    (0 < mask < 2**k - 1), each from the subset less its highest card: one add a subset,
    where ``subset_at`` walks every card of every subset.  ``at[0]`` is left 0."""
    k = cards.shape[1]
    at[0] = 0
    if k == 4:                 # 4-card Omaha, written out: bit j of the mask is card j
        a = np.int64(cards[i, 0])
        b = np.int64(cards[i, 1])
        c = np.int64(cards[i, 2])
        d = np.int64(cards[i, 3])
        b2 = binom[b, 2]
        c2 = binom[c, 2]
        d2 = binom[d, 2]
        c3 = binom[c, 3]
        d3 = binom[d, 3]
        two = base[2]
        three = base[3]
        at[1] = a
        at[2] = b
        at[4] = c
        at[8] = d
        at[3] = two + b2 + a
        at[5] = two + c2 + a
        at[6] = two + c2 + b
        at[9] = two + d2 + a
        at[10] = two + d2 + b
        at[12] = two + d2 + c
        at[7] = three + c3 + b2 + a
        at[11] = three + d3 + b2 + a
        at[13] = three + d3 + c2 + a
        at[14] = three + d3 + c2 + b
        return
    for mask in range(1, (1 << k) - 1):
        top = 0
        while (mask >> (top + 1)) != 0:
            top += 1
        rest = mask ^ (1 << top)
        size = 1
        m = rest
        while m:
            size += 1
            m &= m - 1
        below = at[rest] - base[size - 1] if rest else 0
        at[mask] = base[size] + below + binom[cards[i, top], size]


@kernel(inline="always")
def _read_low(at, odd, t, by_low, totals):
    """``(below, level, every)``: the clear weight of the combo whose subset offsets are
    ``at`` (``odd[mask]``: an odd-sized subset) listed so far whose low rank is below
    ``t``, equal to it, and in all (its own weight excluded)."""
    empty = by_low.shape[0] - 1
    lo = _below(by_low, empty, t)
    level = by_low[empty, t]
    every = totals[empty]
    for mask in range(1, at.shape[0]):
        row = at[mask]
        if odd[mask]:
            lo -= _below(by_low, row, t)
            level -= by_low[row, t]
            every -= totals[row]
        else:
            lo += _below(by_low, row, t)
            level += by_low[row, t]
            every += totals[row]
    return lo, level, every


@kernel
def hilo_tallies(cards, order, high, low, n, reach, hero, by_low, totals, seen, binom,
                 base, cells):
    """Heads-up hi-lo outcomes of every listed combo with ``hero`` weight against the
    ``reach`` weights clear of it, on one board, weighed by both and added to ``cells``:
    ``cells[3 * a + b]`` the deals with a qualifying low where the hero loses (0), wins
    (1) or ties (2) the high half and the low half (no low of its own: loses it);
    ``cells[9:12]`` the deals without one, won, tied, lost by the high.  ``low``: each
    combo's low rank (0 none, bigger better), below ``by_low.shape[1]`` (rows as wide as the
    board's lows); ``seen`` (N, 6) scratch."""
    k = cards.shape[1]
    own = 1.0 if k % 2 == 0 else -1.0
    by_low[:, :] = 0.0
    totals[:] = 0.0
    empty = by_low.shape[0] - 1
    at = np.zeros((1 << k) - 1, np.int64)
    odd = np.zeros((1 << k) - 1, np.bool_)
    for mask in range(1, (1 << k) - 1):
        m = mask
        bits = 0
        while m:
            bits += 1
            m &= m - 1
        odd[mask] = bits & 1
    start = 0
    while start < n:
        v = high[order[start]]
        stop = start
        while stop < n and high[order[stop]] == v:
            i = order[stop]
            if hero[i] != 0.0:
                subset_offsets(cards, i, binom, base, at)
                seen[i, 0], seen[i, 1], seen[i, 2] = _read_low(at, odd, low[i], by_low, totals)
            stop += 1
        for j in range(start, stop):
            i = order[j]
            w = reach[i]
            if w != 0.0:
                t = low[i]
                by_low[empty, t] += w
                totals[empty] += w
                subset_offsets(cards, i, binom, base, at)
                for mask in range(1, at.shape[0]):
                    by_low[at[mask], t] += w
                    totals[at[mask]] += w
        for j in range(start, stop):
            i = order[j]
            if hero[i] != 0.0:
                subset_offsets(cards, i, binom, base, at)
                a, b, c = _read_low(at, odd, low[i], by_low, totals)
                seen[i, 3], seen[i, 4], seen[i, 5] = a, b + own * reach[i], c + own * reach[i]
        start = stop
    for j in range(n):
        i = order[j]
        x = hero[i]
        if x == 0.0:
            continue
        subset_offsets(cards, i, binom, base, at)
        a, b, c = _read_low(at, odd, low[i], by_low, totals)
        b += own * reach[i]
        c += own * reach[i]
        # (low below, low level, all) by high band: won (below), tied (level), lost (above)
        bands = ((1, seen[i, 0], seen[i, 1], seen[i, 2]),
                 (2, seen[i, 3] - seen[i, 0], seen[i, 4] - seen[i, 1], seen[i, 5] - seen[i, 2]),
                 (0, a - seen[i, 3], b - seen[i, 4], c - seen[i, 5]))
        for hand, below, level, every in bands:
            if low[i] == 0:
                cells[9 + (hand + 2) % 3] += x * level     # neither has a low
                cells[3 * hand] += x * (every - level)     # the opponent's low
            else:
                cells[3 * hand + 1] += x * below
                cells[3 * hand + 2] += x * level
                cells[3 * hand] += x * (every - below - level)


@kernel(inline="always")
def _spread(cards, i, x, ones, twos, threes, binom, most):
    """Add ``x`` to ``ones[c]`` for each card ``c`` of combo ``i`` and, as ``most`` asks
    (2, 3), to ``twos[c, d]`` (``c < d``) for each pair of them and to ``threes`` at each
    three of them (colex)."""
    k = cards.shape[1]
    for j in range(k):
        c = cards[i, j]
        ones[c] += x
        if most < 2:
            continue
        for m in range(j + 1, k):
            d = cards[i, m]
            twos[c, d] += x
            if most >= 3:
                for n in range(m + 1, k):
                    threes[binom[c, 1] + binom[d, 2] + binom[cards[i, n], 3]] += x


@kernel(inline="always")
def _clear_by_card(cards, i, taken, own, sums, binom, base, held, at, clear):
    """``clear[y]``, for each card ``y`` not in ``taken``: the weight of the combos holding
    ``y`` and no card of combo ``i``, ``sum over V in subsets(i) of (-1)**|V| * W(V + y)``
    (``W`` the subset sums ``sums``; ``V + y`` of ``k`` cards: ``own``, the weights in
    combo order).  ``held`` (k) and ``at`` (k + 1): scratch."""
    k = cards.shape[1]
    clear[:] = 0.0
    for mask in range((1 << k) - 1):          # V: every subset but the whole
        m = 0
        for j in range(k):
            if (mask >> j) & 1:
                held[m] = cards[i, j]
                m += 1
        # V + y's colex key: V's cards below y at their places, y at place p + 1, those
        # above one place up; at[p] holds all but y's term
        for p in range(m + 1):
            key = 0
            for j in range(p):
                key += binom[held[j], j + 1]
            for j in range(p, m):
                key += binom[held[j], j + 2]
            at[p] = key
        v = 1.0 if m % 2 == 0 else -1.0
        p = 0
        for y in range(52):
            while p < m and held[p] < y:
                p += 1
            if (taken >> np.uint64(y)) & np.uint64(1):
                continue
            key = at[p] + binom[y, p + 1]
            if m + 1 == k:
                clear[y] += v * own[key]
            else:
                clear[y] += v * sums[base[m + 1] + key]


@kernel(inline="always")
def _split(cards, i, w, clear, twos, threes, binom, pairs):
    """The deals of combo ``i`` (weight ``w``) whose other combo holds card ``y``
    (``clear[y]``): added to ``twos`` with each card of ``i`` and, with ``pairs``, to
    ``threes`` with each two of them (with ``threes`` only: ``twos`` left)."""
    k = cards.shape[1]
    for j in range(k):
        c = cards[i, j]
        if not pairs:
            for y in range(52):
                if clear[y] != 0.0:
                    if c < y:
                        twos[c, y] += w * clear[y]
                    else:
                        twos[y, c] += w * clear[y]
            continue
        for m in range(j + 1, k):
            d = cards[i, m]
            for y in range(52):
                if clear[y] != 0.0:
                    x = w * clear[y]
                    if y < c:
                        threes[binom[y, 1] + binom[c, 2] + binom[d, 3]] += x
                    elif y < d:
                        threes[binom[c, 1] + binom[y, 2] + binom[d, 3]] += x
                    else:
                        threes[binom[c, 1] + binom[d, 2] + binom[y, 3]] += x


@kernel
def deal_sums(cards, combo_bits, out_bits, hero, against, hero_sums, against_sums, binom,
              base, start, stop, most):
    """Add each range's combos ``start:stop`` clear of ``out_bits`` to its subset sums
    (``add_subsets``), for ``deal_tables``; returns the weights added, both ranges'.  With
    ``most`` 0 (the deals' total only), the hero's sums are not read: not made."""
    hero_whole = 0.0
    against_whole = 0.0
    for i in range(start, stop):
        if combo_bits[i] & out_bits:
            continue
        if hero[i] != 0.0:
            hero_whole += hero[i]
            if most >= 1:
                add_subsets(cards, i, hero[i], hero_sums, binom, base)
        if against[i] != 0.0:
            against_whole += against[i]
            add_subsets(cards, i, against[i], against_sums, binom, base)
    return hero_whole, against_whole


@kernel
def deal_tables(cards, combo_bits, out_bits, hero, against, hero_sums, against_sums,
                hero_whole, against_whole, binom, base, start, stop, most, ones, twos,
                threes):
    """The weighted deals of two ranges (a combo of ``hero`` against one of ``against``
    sharing no card with it nor with ``out_bits``) whose ``hero`` combo is one of
    ``start:stop``, returned, and, up to ``most`` cards (0 to 3), how many of them hold
    each card, each pair and each three cards, added to ``ones``, ``twos`` and
    ``threes``: the deals clear of up to ``most`` more cards then follow by
    inclusion-exclusion (``clear_deals``) instead of a pass over the combos.
    ``hero_sums``, ``against_sums``, ``hero_whole``, ``against_whole``: ``deal_sums``'.

    ``ones[c]``: the weight of the deals holding card ``c``; ``twos[c, d]`` (``c < d``):
    those holding both; ``threes`` (colex): all three.  A deal holds them in one combo,
    or split between the two: the first kind is each combo's clear weight added to its
    cards, pairs and threes (the opponents' combos of ``start:stop`` too, so that the
    spans cover each once); the second, for each hero combo and card ``y``, the weight
    of the opponents holding ``y`` clear of it (``_clear_by_card``), added with each of
    the hero's cards (``twos``) and pairs of cards (``threes``); and for ``threes`` the
    same from each opponent's side, the heroes holding ``y`` clear of it."""
    k = cards.shape[1]
    sign = 1.0 if k % 2 == 0 else -1.0
    total = 0.0
    held = np.empty(k, np.int64)
    at = np.empty(k + 1, np.int64)
    clear = np.zeros(52)
    for i in range(start, stop):
        if combo_bits[i] & out_bits:
            continue
        taken = combo_bits[i] | out_bits
        w = against[i]
        if w != 0.0 and most >= 1:
            x = w * (hero_whole + read_subsets(cards, i, hero_sums, binom, base)
                     + sign * hero[i])
            _spread(cards, i, x, ones, twos, threes, binom, most)
            if most >= 3:
                _clear_by_card(cards, i, taken, hero, hero_sums, binom, base, held, at, clear)
                _split(cards, i, w, clear, twos, threes, binom, True)
        w = hero[i]
        if w == 0.0:
            continue
        x = w * (against_whole + read_subsets(cards, i, against_sums, binom, base)
                 + sign * against[i])
        total += x
        if most < 1:
            continue
        _spread(cards, i, x, ones, twos, threes, binom, most)
        if most < 2:
            continue
        _clear_by_card(cards, i, taken, against, against_sums, binom, base, held, at, clear)
        _split(cards, i, w, clear, twos, threes, binom, False)
        if most >= 3:
            _split(cards, i, w, clear, twos, threes, binom, True)
    return total


@kernel
def clear_deals(cards, total, ones, twos, threes, binom):
    """The deals of ``deal_tables`` clear of the up to three ascending ``cards`` (none:
    all of them; no more than its ``most``), by inclusion-exclusion over the cards."""
    n = cards.shape[0]
    if n == 0:
        return total
    a = cards[0]
    if n == 1:
        return total - ones[a]
    b = cards[1]
    if n == 2:
        return (total - (ones[a] + ones[b])) + twos[a, b]
    c = cards[2]
    return ((total - ((ones[a] + ones[b]) + ones[c]))
            + ((twos[a, b] + twos[a, c]) + twos[b, c])) \
        - threes[binom[a, 1] + binom[b, 2] + binom[c, 3]]
