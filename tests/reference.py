"""Slow, obviously correct reference evaluator used as the tests' oracle.

It shares no code with the package: cards are ids ``4 * rank + suit``, and a
hand's strength is a tuple that compares the way poker hands compare.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")


def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def five_card_strength(cards) -> tuple:
    """(category index 0..8, tie-break ranks...) of exactly five cards."""
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = sorted((rank(c) for c in cards), reverse=True)
    is_flush = len({suit(c) for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_high = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:      # A-2-3-4-5: the ace plays low
            straight_high = 3
    counts = Counter(ranks)
    # ranks ordered by (count, rank), largest first: the order ties are broken in
    by_group = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if straight_high is not None and is_flush:
        return (8, straight_high)
    if shape == [4, 1]:
        return (7, *by_group)
    if shape == [3, 2]:
        return (6, *by_group)
    if is_flush:
        return (5, *ranks)
    if straight_high is not None:
        return (4, straight_high)
    if shape == [3, 1, 1]:
        return (3, *by_group)
    if shape == [2, 2, 1]:
        return (2, *by_group)
    if shape == [2, 1, 1, 1]:
        return (1, *by_group)
    return (0, *ranks)


def best_strength(cards) -> tuple:
    """Best five-card strength among all 5-card subsets of 5 to 7 cards."""
    return max(five_card_strength(list(five)) for five in combinations(cards, 5))


def category_name(strength: tuple) -> str:
    return CATEGORY_NAMES[strength[0]]


# --- Omaha: exactly two hole cards and three board cards -------------------
def omaha_high(hole, board) -> tuple:
    return max(five_card_strength(list(p) + list(t))
               for p in combinations(hole, 2) for t in combinations(board, 3))


def low_rank(card: int) -> int | None:
    """Ace = 1, deuce = 2, ..., eight = 8; None for nines and up."""
    r = rank(card)
    if r == 12:
        return 1
    return r + 2 if r <= 6 else None


def omaha_low(hole, board) -> tuple | None:
    """Best 8-or-better low as descending ranks (smaller is better), or None."""
    best = None
    for p in combinations(hole, 2):
        for t in combinations(board, 3):
            ranks = [low_rank(c) for c in p + t]
            if None in ranks or len(set(ranks)) != 5:
                continue
            low = tuple(sorted(ranks, reverse=True))
            if best is None or low < best:
                best = low
    return best


# --- Tahoe: at most two of the three hole cards ------------------------------
def tahoe_high(hole, board) -> tuple:
    best = None
    for used in range(3):
        for part in combinations(hole, used):
            for rest in combinations(board, 5 - used):
                s = five_card_strength(list(part) + list(rest))
                best = s if best is None or s > best else best
    return best


# --- Teen Patti -----------------------------------------------------------------
def teen_patti_strength(cards, a23: str = "highest") -> tuple:
    """(category 0..5, tie-breaks): high card, pair, colour, sequence, pure sequence, trail."""
    ranks = sorted((rank(c) for c in cards), reverse=True)
    suited = len({suit(c) for c in cards}) == 1
    if ranks[0] == ranks[2]:
        return (5, ranks[0])
    if ranks == [12, 1, 0]:                                  # A-2-3
        run = 13 if a23 == "highest" else 11.5               # above A-K-Q, or just below it
    elif ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1:
        run = ranks[0]                                       # K-A-2 never gets here
    else:
        run = None
    if run is not None:
        return (4 if suited else 3, run)
    if suited:
        return (2, *ranks)
    if ranks[0] == ranks[1]:
        return (1, ranks[0], ranks[2])
    if ranks[1] == ranks[2]:
        return (1, ranks[1], ranks[0])
    return (0, *ranks)


# --- Short deck: 36 cards, sixes to aces -----------------------------------------
SHORT_DECK = tuple(range(16, 52))
# category order, low to high, in the reference's own indices (see CATEGORY_NAMES)
SHORT_ORDER = {False: (0, 1, 2, 3, 4, 6, 5, 7, 8),     # flush (5) above full house (6)
               True: (0, 1, 2, 4, 3, 6, 5, 7, 8)}      # and trips (3) above straights (4)


def short_five_card_strength(cards, trips_beat_straight: bool = False) -> tuple:
    """(place of the category in the short-deck order, tie-breaks) of five cards: the
    52-card shapes, A-6-7-8-9 the lowest straight, flush above full house."""
    ranks = sorted((rank(c) for c in cards), reverse=True)
    if sorted(set(ranks)) == [4, 5, 6, 7, 12]:              # A-6-7-8-9: nine high
        flush = len({suit(c) for c in cards}) == 1
        category, tiebreak = (8 if flush else 4), (7,)
    else:
        category, *tiebreak = five_card_strength(cards)
    return (SHORT_ORDER[trips_beat_straight].index(category), *tiebreak)


def short_deck_category(strength: tuple, trips_beat_straight: bool = False) -> str:
    return CATEGORY_NAMES[SHORT_ORDER[trips_beat_straight][strength[0]]]


def short_best_strength(cards, trips_beat_straight: bool = False) -> tuple:
    return max(short_five_card_strength(list(five), trips_beat_straight)
               for five in combinations(cards, 5))


def short_deck_categories_7(hands) -> Counter:
    """Counts of each short-deck category over 7-card hands given as a NumPy array of card
    ids (n, 7), classified from rank and suit counts directly (no five-card search)."""
    import numpy as np
    hands = np.asarray(hands)
    n = len(hands)
    ranks, suits = hands >> 2, hands & 3
    rank_counts = np.zeros((n, 13), np.int64)
    suit_counts = np.zeros((n, 4), np.int64)
    for j in range(7):
        np.add.at(rank_counts, (np.arange(n), ranks[:, j]), 1)
        np.add.at(suit_counts, (np.arange(n), suits[:, j]), 1)
    flush_suit = suit_counts.argmax(axis=1)
    flush = suit_counts.max(axis=1) >= 5

    def has_straight(present):                               # present: (n, 13) bool
        runs = np.zeros(len(present), bool)
        for top in range(8, 13):                             # 6-7-8-9-T ... T-J-Q-K-A
            runs |= present[:, top - 4:top + 1].all(axis=1)
        return runs | present[:, [12, 4, 5, 6, 7]].all(axis=1)   # A-6-7-8-9

    in_suit = np.zeros((n, 13), bool)
    for j in range(7):
        hit = suits[:, j] == flush_suit
        in_suit[np.arange(n)[hit], ranks[hit, j]] = True
    straight_flush = flush & has_straight(in_suit)
    most = rank_counts.max(axis=1)
    pairs_or_more = (rank_counts >= 2).sum(axis=1)
    trips_count = (rank_counts >= 3).sum(axis=1)
    quads = most == 4
    full_house = (trips_count >= 1) & (pairs_or_more >= 2)
    straight = has_straight(rank_counts > 0)
    names = np.full(n, "high card", object)
    names[most == 2] = "pair"
    names[(most == 2) & (pairs_or_more >= 2)] = "two pair"
    names[most == 3] = "three of a kind"
    order = [(straight & ~flush & ~quads & ~full_house, "straight"),
             (full_house & ~quads & ~flush, "full house"),
             (flush & ~straight_flush, "flush"), (quads & ~straight_flush, "four of a kind"),
             (straight_flush, "straight flush")]
    for mask, name in order:
        names[mask] = name
    return Counter(names.tolist())


# --- Equity by brute force ---------------------------------------------------------
HILO = ("omaha8", "omaha5_8", "omaha6_8", "courchevel8")


def pot_share(high, other_high, low, other_low) -> float:
    """A hand's share of a heads-up hi-lo pot (``low``: smaller is better, None for no
    qualifying low): the high half and the low half, or the whole pot by the high where
    neither has a low."""
    hi = 1.0 if high > other_high else 0.5 if high == other_high else 0.0
    if low is None and other_low is None:
        return hi
    if low is None:
        lo = 0.0
    elif other_low is None:
        lo = 1.0
    else:
        lo = 1.0 if low < other_low else 0.5 if low == other_low else 0.0
    return (hi + lo) / 2


def hand_strength(game: str, hole, board):
    """Comparable strength of a hand in a game (high part)."""
    if game == "short_deck":
        return short_best_strength(list(hole) + list(board))
    if game in ("holdem", "pineapple", "crazy_pineapple", "the"):
        return best_strength(list(hole) + list(board))
    if game in ("omaha", "omaha5", "omaha6", "omaha8", "omaha5_8", "omaha6_8", "courchevel",
                "courchevel8"):
        return omaha_high(hole, board)
    if game == "tahoe":
        return tahoe_high(hole, board)
    if game == "teen_patti":
        return teen_patti_strength(hole)
    raise ValueError(game)


def brute_force_equity(game: str, hands, board, dead, final_board: int):
    """Exact pot shares (Fractions) by enumerating every board completion."""
    from fractions import Fraction
    known = set(board) | set(dead) | {c for h in hands for c in h}
    deck = SHORT_DECK if game == "short_deck" else range(52)
    live = [c for c in deck if c not in known]
    shares = [Fraction(0)] * len(hands)
    boards = 0
    for rest in combinations(live, final_board - len(board)):
        full = list(board) + list(rest)
        boards += 1
        highs = [hand_strength(game, h, full) for h in hands]
        best = max(highs)
        hi_winners = [p for p, s in enumerate(highs) if s == best]
        lo_winners = []
        if game in HILO:
            lows = [omaha_low(h, full) for h in hands]
            qualifying = [x for x in lows if x is not None]
            if qualifying:
                best_low = min(qualifying)
                lo_winners = [p for p, x in enumerate(lows) if x == best_low]
        if lo_winners:
            for p in hi_winners:
                shares[p] += Fraction(1, 2 * len(hi_winners))
            for p in lo_winners:
                shares[p] += Fraction(1, 2 * len(lo_winners))
        else:
            for p in hi_winners:
                shares[p] += Fraction(1, len(hi_winners))
    return [s / boards for s in shares], boards


def brute_force_equity_unknown(game: str, hands, unknown, board, dead, final_board: int):
    """Exact pot shares when some hole cards are unknown: every deal of them, then boards."""
    from fractions import Fraction
    known = set(board) | set(dead) | {c for h in hands for c in h}
    live = [c for c in range(52) if c not in known]
    total = [Fraction(0)] * len(hands)
    deals = 0

    def deal(p, hands_now, live_now):
        nonlocal deals
        if p == len(hands):
            shares, boards = brute_force_equity(game, hands_now, board,
                                                list(dead) + [c for c in range(52)
                                                              if c not in live_now
                                                              and c not in board
                                                              and c not in dead
                                                              and all(c not in h for h in
                                                                      hands_now)],
                                                final_board)
            for i, x in enumerate(shares):
                total[i] += x * boards
            deals += boards
            return
        for extra in combinations(live_now, unknown[p]):
            filled = list(hands_now)
            filled[p] = list(hands_now[p]) + list(extra)
            deal(p + 1, filled, [c for c in live_now if c not in extra])

    deal(0, [list(h) for h in hands], live)
    return [t / deals for t in total], deals


# --- Omaha range patterns (the generic syntax), matched one hand at a time ---------------

PATTERN_RANKS = "23456789TJQKA"


def parse_range_pattern(text: str, hole: int):
    """(elements, macros) of a pattern; each element is (ranks or None or a rank variable
    letter, suit index or None or a suit variable letter).  Written apart from the
    package, for the tests."""
    elements, macros, i = [], [], 0
    text = text.replace(" ", "")
    while i < len(text):
        c = text[i]
        if c == "$":
            j = i + 1
            while j < len(text) and text[j].isalpha():
                j += 1
            macros.append(text[i + 1:j])
            i = j
            continue
        if c in "cdhswxyz":
            suit = "cdhs".index(c) if c in "cdhs" else c
            if elements and elements[-1][2]:
                elements[-1] = (elements[-1][0], suit, False)
            else:
                elements.append((None, suit, False))
            i += 1
            continue
        if c == "[":
            j = text.index("]", i)
            inside, ranks = text[i + 1:j], set()
            k = 0
            while k < len(inside):
                if k + 2 < len(inside) and inside[k + 1] == "-":
                    lo, hi = PATTERN_RANKS.index(inside[k + 2]), PATTERN_RANKS.index(inside[k])
                    ranks |= set(range(lo, hi + 1))
                    k += 3
                else:
                    ranks.add(PATTERN_RANKS.index(inside[k]))
                    k += 1
            elements.append((frozenset(ranks), None, True))
            i = j + 1
            continue
        if c == "*":
            elements.append((None, None, True))
        elif c in PATTERN_RANKS:
            elements.append((frozenset([PATTERN_RANKS.index(c)]), None, True))
        else:                                   # a rank variable
            elements.append((c, None, True))
        i += 1
    elements = [(r, s) for r, s, _ in elements]
    return elements + [(None, None)] * (hole - len(elements)), macros


def pattern_matches(elements, macros, hand) -> bool:
    """Whether ``hand`` (card ids) matches: some order of its cards satisfies every element
    with one consistent, injective binding of the variables, avoiding the ranks and suits
    written out; then every macro holds."""
    from itertools import permutations
    explicit_ranks = {next(iter(r)) for r, _ in elements
                      if isinstance(r, frozenset) and len(r) == 1}
    explicit_suits = {s for _, s in elements if isinstance(s, int)}
    found = False
    for order in permutations(hand):
        ranks_of, suits_of = {}, {}
        ok = True
        for (r, s), card in zip(elements, order):
            cr, cs = rank(card), suit(card)
            if isinstance(r, frozenset) and cr not in r:
                ok = False
            elif isinstance(r, str):
                if r in ranks_of:
                    ok = ranks_of[r] == cr
                else:
                    ok = cr not in explicit_ranks and cr not in ranks_of.values()
                    ranks_of[r] = cr
            if ok and isinstance(s, int):
                ok = cs == s
            elif ok and isinstance(s, str):
                if s in suits_of:
                    ok = suits_of[s] == cs
                else:
                    ok = cs not in explicit_suits and cs not in suits_of.values()
                    suits_of[s] = cs
            if not ok:
                break
        if ok:
            found = True
            break
    if not found:
        return False
    suits = sorted(Counter(suit(c) for c in hand).values(), reverse=True)
    ranks = Counter(rank(c) for c in hand).values()
    tests = {"ds": suits.count(2) == 2 and suits[0] == 2,
             "ss": suits.count(2) == 1 and suits[0] == 2,
             "r": suits[0] == 1, "np": max(ranks) == 1}
    return all(tests[m] for m in macros)


# --- The range breakdown's classes (hold'em), one combo at a time ------------------------

def breakdown_made_class(hole, board) -> str:
    """The made class of evaluator.studies.breakdown, written from its definitions."""
    category = category_name(best_strength(list(hole) + list(board)))
    if category in ("straight flush", "four of a kind", "full house", "flush", "straight"):
        return category
    board_ranks = [rank(c) for c in board]
    h = sorted((rank(c) for c in hole), reverse=True)
    pocket = h[0] == h[1]
    on_board = Counter(board_ranks)
    if category == "three of a kind":
        return "set" if pocket and on_board[h[0]] == 1 else "trips"
    if category == "two pair":
        if not pocket and h[0] not in on_board and h[1] not in on_board:
            return "board pair"
        if not pocket and h[0] in on_board and h[1] in on_board:
            return "two pair"
        if pocket and h[0] not in on_board and max(on_board.values()) >= 2:
            return "pocket pair, paired board"
        return "two pair, one card"
    if category == "pair":
        top = max(board_ranks)
        if pocket:
            return "overpair" if h[0] > top else "underpair"
        paired = [r for r in h if r in on_board]
        if not paired:
            return "board pair"
        pair = paired[0]
        kicker = h[1] if pair == h[0] else h[0]
        distinct = sorted(set(board_ranks), reverse=True)
        if pair == top:
            left = max(r for r in range(13) if r not in on_board and r != pair)
            if kicker == left:
                return "top pair, top kicker"
            return "top pair, good kicker" if kicker >= 8 else "top pair, weak kicker"
        return "second pair" if len(distinct) > 1 and pair == distinct[1] else "weak pair"
    return "high card"


def breakdown_draws(hole, board, dead=()) -> set:
    """The draws of evaluator.studies.breakdown, from every next card, written from its
    definitions."""
    if len(board) == 5:
        return set()
    now = category_name(best_strength(list(hole) + list(board)))
    order = list(CATEGORY_NAMES)
    seen = set(hole) | set(board) | set(dead)
    flush_cards, straight_ranks = [], set()
    for c in range(52):
        if c in seen:
            continue
        after = category_name(best_strength(list(hole) + list(board) + [c]))
        if after == "flush" and order.index(now) < order.index("flush"):
            flush_cards.append(c)
        if after == "straight" and order.index(now) < order.index("straight"):
            straight_ranks.add(rank(c))
    draws = set()
    if flush_cards:
        draws.add("flush draw")
        suit_of = suit(flush_cards[0])
        free = [c for c in range(51, -1, -1)
                if suit(c) == suit_of and c not in set(board) | set(dead)]
        if free and free[0] in hole:
            draws.add("nut flush draw")
    if len(straight_ranks) >= 2:
        draws.add("open-ended")
    elif straight_ranks:
        draws.add("gutshot")
    if flush_cards and straight_ranks:
        draws.add("combo draw")
    if len(board) == 3 and not flush_cards and order.index(now) < order.index("flush"):
        for s in range(4):
            mine = sum(1 for c in hole if suit(c) == s)
            if mine and sum(1 for c in board if suit(c) == s) + mine == 3:
                draws.add("backdoor flush")
    return draws


# --- Every combo against a range, pair by pair -------------------------------------

def colex_combos(deck, hole: int) -> list[tuple[int, ...]]:
    """The hands of ``deck`` in colex order: sorted by their highest card, then the next."""
    return sorted(combinations(sorted(deck), hole), key=lambda c: c[::-1])


def pairwise_combo_equity(hands, weights, board, dead, deck, strength, heroes=None,
                          final_board=5, low=None):
    """For each hero hand (index into ``hands``): the sum over every runout and every
    opposing hand clear of the hero, the board, the runout and the dead cards, of the
    opposing weight times 1 / 0.5 / 0 for a win / tie / loss, over the sum of those
    weights; nan where that sum is 0 or the hero holds a known card.  ``strength(hand,
    full_board)`` is anything comparable.  Every pair is compared (a matrix a runout).
    With ``low(hand, full_board)`` (smaller is better, None for none), each pair's share
    is the hi-lo pot share (``pot_share``)."""
    import numpy as np
    hands = [tuple(h) for h in hands]
    heroes = np.arange(len(hands)) if heroes is None else np.asarray(heroes)
    weights = np.asarray(weights, float)
    known = set(board) | set(dead)
    live_deck = [c for c in deck if c not in known]
    sets = [set(h) for h in hands]
    clash = np.array([[bool(sets[i] & sets[j]) for j in range(len(hands))] for i in heroes])
    num = np.zeros(len(heroes))
    den = np.zeros(len(heroes))
    for rest in combinations(live_deck, final_board - len(board)):
        full = list(board) + list(rest)
        out = known | set(rest)
        live = np.array([not (out & s) for s in sets])
        raw = {i: strength(h, full) for i, (h, ok) in enumerate(zip(hands, live)) if ok}
        rank = {x: k for k, x in enumerate(sorted(set(raw.values())))}
        s = np.array([rank[raw[i]] if i in raw else -1 for i in range(len(hands))], float)
        meets = live[heroes][:, None] & live[None, :] & ~clash
        w = np.where(meets, weights[None, :], 0.0)
        hero = s[heroes][:, None]
        share = np.where(hero > s[None, :], 1.0, np.where(hero == s[None, :], 0.5, 0.0))
        if low is not None:
            lows = [low(h, full) if ok else None for h, ok in zip(hands, live)]
            share = np.array([[pot_share(s[i], s[j], lows[i], lows[j])
                               for j in range(len(hands))] for i in heroes])
        num += (w * share).sum(axis=1)
        den += w.sum(axis=1)
    with np.errstate(invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def pairwise_call_matrix(hands, board, dead, strength, low=None):
    """+1 / -1 / 0 for every pair of hands on a river, by the definition; with ``low``
    (as ``pairwise_combo_equity``), the row hand's hi-lo pot share less the column's."""
    known = set(board) | set(dead)
    s = [None if known & set(h) else strength(h, list(board)) for h in hands]
    lows = [None if x is None or low is None else low(h, list(board))
            for h, x in zip(hands, s)]
    n = len(hands)
    out = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if s[i] is None or s[j] is None or set(hands[i]) & set(hands[j]):
                continue
            if low is None:
                out[i][j] = (s[i] > s[j]) - (s[i] < s[j])
            else:
                out[i][j] = 2 * pot_share(s[i], s[j], lows[i], lows[j]) - 1
    return out
