#!/usr/bin/env python3
"""Deterministic generator of the evaluator's lookup tables.

This file is the specification of every table the package ships.  It uses
only the standard library and NumPy, so it can be read and checked on its own.

    python tables/generate.py            # rewrite tables/*.npy and MANIFEST.json
    python tables/generate.py --check    # regenerate in memory, compare with the files

Card encoding (the one used everywhere): ``id = 4 * rank + suit`` with
rank 0 = deuce ... 12 = ace and suit 0..3 = clubs, diamonds, hearts, spades.

High-hand values are integers, bigger is better, and ``value >> 12`` is the
category (1 = high card ... 9 = straight flush).  The low 12 bits order the
hands inside a category, so the 7,462 distinct five-card hands get the values
``category << 12 | position``.

The high-hand evaluator uses *additive rank keys*.  Every card has a 64-bit key:

* bits 0..24: a scrambled rank key.  Each rank r has a base ``RANK_BASES[r]``
  chosen so that the sums of the bases over every multiset of at most seven
  ranks (each rank at most four times) are all different.  The sums stay
  below 2**25, and multiplying by the odd constant ``HASH_MULTIPLIER`` modulo
  2**25 is a bijection of that range, so the scrambled sums are still unique.
  The scrambling spreads the keys evenly over the hash rows, which lets the
  row-displacement hash below pack almost without holes.
* bits 32..47: four 4-bit suit counters.  A hand starts at ``HAND_INIT`` with
  each counter at 3, so a suit with five or more cards sets bit 3 of its
  counter: ``key & FLUSH_BITS`` tests for a flush in one instruction.

A hand's key is the sum of ``HAND_INIT`` and its card keys, so adding a card to
a partial hand is one addition.  Carries out of bit 24 land in bits 25..27 and
are masked off.  The rank part is looked up through a perfect hash:
``rank_values[(rank_offsets[h >> ROW_SHIFT] << OFFSET_SHIFT) + (h & COL_MASK)]`` with
``h = key & KEY_MASK``.  The row offsets are even and stored halved as uint16,
so the 8,192-row offset table takes 16 kB and stays in the L1 cache: the first
of the two dependent lookups is then short, which is what bounds a batch's
speed.
Flush hands (where a flush is always the best hand of at most seven cards)
look up ``flush_values`` by the 13-bit rank mask of the flush suit.

``rank_offsets5`` and ``rank_values5`` are the same hash built over the 6,175
five-card rank multisets only.  Batches of five-card hands use them: the two
tables (16 kB, and 40 kB of which 25 kB is ever read) stay close to the core,
where the 5-to-7-card value table (169 kB) lives in L2.  ``rank_values5``
holds uint32, not uint16: packed two to a word, the same values ran at 0.70x
of the general hash on an Intel Xeon (Sapphire Rapids-class) VM, spread to
four bytes at 1.07-1.11x (the cause is the core's; the C kernel showed it
too).  Omaha finds its board's row through the same offsets
(``omaha_board_index``).
"""
from __future__ import annotations

import argparse
import hashlib
import io
import itertools
import json
import sys
from pathlib import Path

import numpy as np

FORMAT_VERSION = 1
NUM_RANKS = 13
NUM_SUITS = 4
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

# --- 1. Categories --------------------------------------------------------
# value >> 12 is the index into this tuple; 0 is never a valid hand.
CATEGORIES = (
    "invalid",
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS,
 STRAIGHT_FLUSH) = range(1, 10)
CATEGORY_SHIFT = 12

# --- 2. Rank keys and the hash layout ------------------------------------
# Found by ``find_rank_bases()`` (greedy: each base is the smallest number
# larger than the previous one that keeps all multiset sums distinct).  The
# search takes about ten minutes, so its result is written down here and
# re-verified by ``verify_rank_bases()`` on every run.
RANK_BASES = (1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453,
              1526359, 3453520)
MAX_CARDS = 7
MAX_PER_RANK = 4
HASH_MULTIPLIER = 0x9E3779B1
KEY_BITS = 25
KEY_MASK = (1 << KEY_BITS) - 1
ROW_SHIFT = 12
OFFSET_SHIFT = 1  # row offsets are even and stored halved, as uint16
COL_MASK = (1 << ROW_SHIFT) - 1
SUIT_SHIFT = 32
HAND_INIT = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888 << SUIT_SHIFT

LAYOUT = {
    "category_shift": CATEGORY_SHIFT,
    "key_mask": KEY_MASK,
    "row_shift": ROW_SHIFT,
    "offset_shift": OFFSET_SHIFT,
    "col_mask": COL_MASK,
    "suit_shift": SUIT_SHIFT,
    "hand_init": HAND_INIT,
    "flush_bits": FLUSH_BITS,
}


def rank_multisets(min_size: int, max_size: int):
    """Yield every rank-count tuple (13 counts, each <= 4) with a size in range."""
    def rec(rank, left, counts):
        if rank == NUM_RANKS:
            if NUM_RANKS and sum(counts) >= min_size:
                yield tuple(counts)
            return
        for k in range(min(MAX_PER_RANK, left) + 1):
            counts.append(k)
            yield from rec(rank + 1, left - k, counts)
            counts.pop()
    yield from rec(0, max_size, [])


def rank_sum(counts) -> int:
    return sum(k * b for k, b in zip(counts, RANK_BASES))


def verify_rank_bases() -> None:
    """All multisets of at most seven ranks must have distinct base sums."""
    sums = np.array([rank_sum(c) for c in rank_multisets(0, MAX_CARDS)], np.int64)
    if np.unique(sums).size != sums.size or sums.max() >= 1 << KEY_BITS:
        raise AssertionError("RANK_BASES do not give unique 25-bit sums")


def find_rank_bases() -> tuple[int, ...]:  # pragma: no cover - slow, run by hand
    """Greedy search that produced RANK_BASES (about ten minutes in Python)."""
    bases = [1]
    # (sum, size) of every multiset over the ranks chosen so far
    level = {(k, k) for k in range(MAX_PER_RANK + 1)}
    for _ in range(1, NUM_RANKS):
        b = bases[-1] + 1
        while True:
            seen = set()
            ok = True
            for s, size in level:
                for k in range(min(MAX_PER_RANK, MAX_CARDS - size) + 1):
                    x = s + k * b
                    if x in seen:
                        ok = False
                        break
                    seen.add(x)
                if not ok:
                    break
            if ok:
                break
            b += 1
        bases.append(b)
        level = {(s + k * b, size + k) for s, size in level
                 for k in range(min(MAX_PER_RANK, MAX_CARDS - size) + 1)}
    return tuple(bases)


def scrambled(rank_key: int) -> int:
    return (rank_key * HASH_MULTIPLIER) & KEY_MASK


def card_keys() -> np.ndarray:
    """Key of every card id; 256 entries so that any byte indexes it.

    Ids 52..255 have key 0: kernels pad short rows with 0xFF bytes and sum a
    fixed number of bytes, the padding adding nothing.
    """
    keys = np.zeros(256, np.uint64)
    for rank in range(NUM_RANKS):
        for suit in range(NUM_SUITS):
            keys[4 * rank + suit] = scrambled(RANK_BASES[rank]) | (1 << (SUIT_SHIFT + 4 * suit))
    return keys


# --- 3. Five-card hand classes -------------------------------------------
def straight_top(ranks) -> int:
    """Top rank of the best straight within a set of ranks, or -1."""
    present = set(ranks)
    for top in range(12, 3, -1):
        if all(r in present for r in range(top - 4, top + 1)):
            return top
    if {12, 0, 1, 2, 3} <= present:          # the wheel, five high
        return 3
    return -1


def rank_groups(counts) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(group sizes, their ranks) of five cards by rank counts, the biggest group first and
    ties by rank: (2, 1, 1, 1) and (12, 9, 5, 0) for a pair of aces with J, 7, 2."""
    groups = sorted(((k, r) for r, k in enumerate(counts) if k), reverse=True)
    return tuple(k for k, _ in groups), tuple(r for _, r in groups)


def classify5(counts, flush: bool) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) of five cards given by rank counts."""
    shape, ranks = rank_groups(counts)
    if shape == (1, 1, 1, 1, 1):
        top = straight_top(ranks)
        if top >= 0:
            return (STRAIGHT_FLUSH if flush else STRAIGHT), (top,)
        return (FLUSH if flush else HIGH_CARD), ranks
    assert not flush, "a flush has five different ranks"
    category = {(4, 1): QUADS, (3, 2): FULL_HOUSE, (3, 1, 1): TRIPS,
                (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): PAIR}[shape]
    return category, ranks


def five_card_values() -> dict[tuple[tuple[int, ...], bool], int]:
    """Value of every five-card class, keyed by (rank counts, is flush)."""
    classes = {}
    for counts in rank_multisets(5, 5):
        classes[(counts, False)] = classify5(counts, False)
        if max(counts) == 1:
            classes[(counts, True)] = classify5(counts, True)
    return number_classes(classes, len(CATEGORIES))


def number_classes(classes: dict, categories: int) -> dict:
    """Values of five-card classes given as {key: (category, tie-break ranks)}: within a
    category, equal tie-breaks share a position and better ones get higher positions."""
    values = {}
    for category in range(1, categories):
        members = sorted((tb, key) for key, (cat, tb) in classes.items() if cat == category)
        position = 0
        previous = None
        for tiebreak, key in members:
            if tiebreak != previous:
                position += 1
                previous = tiebreak
            values[key] = (category << CATEGORY_SHIFT) | position
    return values


def best_of_multiset(counts, values5) -> int:
    """Best non-flush value of 5..7 ranks: the best over its 5-card sub-multisets."""
    cards = [r for r, k in enumerate(counts) for _ in range(k)]
    best = 0
    for sub in set(itertools.combinations(cards, 5)):
        sub_counts = tuple(sub.count(r) for r in range(NUM_RANKS))
        best = max(best, values5[(sub_counts, False)])
    return best


# --- 4. The perfect hash for non-flush hands -------------------------------
def first_fit(occupied: np.ndarray, cols: np.ndarray, window: int = 4096) -> int:
    """Smallest offset >= 0, a multiple of 2**OFFSET_SHIFT, at which every
    ``offset + col`` slot is free."""
    start = 0
    while True:
        if start + int(cols[-1]) + window > occupied.size:
            raise AssertionError("hash table scratch space exhausted")
        fits = np.ones(window, bool)  # window is a multiple of 2**OFFSET_SHIFT
        for col in cols.tolist():
            fits &= ~occupied[start + col:start + col + window]
        hits = np.flatnonzero(fits[::1 << OFFSET_SHIFT]) << OFFSET_SHIFT
        if hits.size:
            return start + int(hits[0])
        start += window


def displace(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row-displacement perfect hash: rows by decreasing size, first fit.

    Returns (offsets, slots) with ``slots[i] = offsets[key >> ROW_SHIFT] +
    (key & COL_MASK)`` distinct for every key; every offset is even.
    """
    rows = keys >> ROW_SHIFT
    cols = keys & COL_MASK
    num_rows = (KEY_MASK >> ROW_SHIFT) + 1
    offsets = np.zeros(num_rows, np.int64)
    occupied = np.zeros(2 * keys.size + 4 * (COL_MASK + 1), bool)
    order = np.lexsort((cols, rows))
    bounds = np.searchsorted(rows[order], np.arange(num_rows + 1))
    sizes = np.diff(bounds)
    for row in sorted(range(num_rows), key=lambda r: (-sizes[r], r)):
        if sizes[row] == 0:
            break
        c = cols[order[bounds[row]:bounds[row + 1]]]
        offset = first_fit(occupied, c)
        occupied[offset + c] = True
        offsets[row] = offset
    slots = offsets[rows] + cols
    assert np.unique(slots).size == keys.size and slots.min() >= 0
    return offsets, slots


def rank_tables(values5, sizes=(5, MAX_CARDS)) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(offsets >> 1, values, slots) of the perfect hash over the rank
    multisets of ``sizes[0]`` to ``sizes[1]`` cards, in ``rank_multisets`` order.

    The value table reaches to the end of the last row, so that every 25-bit
    key indexes inside it: a row of garbage (a card given five times with
    ``validate=False``) reads a 0, never past the array.
    """
    multisets = list(rank_multisets(*sizes))
    keys = np.array([scrambled(rank_sum(c)) for c in multisets], np.int64)
    offsets, slots = displace(keys)
    table = np.zeros(int(offsets.max()) + COL_MASK + 1, np.uint16)
    for counts, slot in zip(multisets, slots.tolist()):
        table[slot] = best_of_multiset(counts, values5)
    stored = offsets >> OFFSET_SHIFT
    assert stored.max() < 1 << 16 and np.all(stored << OFFSET_SHIFT == offsets)
    return stored.astype(np.uint16), table, slots


# --- 5. Flush table --------------------------------------------------------
def flush_table(values5) -> np.ndarray:
    """Best flush or straight flush for each 13-bit rank mask of one suit."""
    table = np.zeros(1 << NUM_RANKS, np.uint16)
    for mask in range(1 << NUM_RANKS):
        ranks = [r for r in range(NUM_RANKS) if mask >> r & 1]
        if len(ranks) < 5:
            continue
        table[mask] = max(
            values5[(tuple(int(r in sub) for r in range(NUM_RANKS)), True)]
            for sub in itertools.combinations(ranks, 5))
    return table


# --- 6. Omaha 8-or-better low -----------------------------------------------
# Low ranks are bits of a byte: ace = bit 0, deuce = bit 1, ..., eight = bit 7.
# A low is five distinct low ranks; it is better when its highest card is
# lower, then its second highest, and so on.  Values: 56 (the wheel) ... 1
# (8-7-6-5-4); 0 means no qualifying low.
def low_card_bits() -> np.ndarray:
    """Low-rank bit of every card id (0 for nines and up)."""
    bits = np.zeros(52, np.uint8)
    for card in range(52):
        rank = card // 4
        if rank == 12:
            bits[card] = 1
        elif rank <= 6:                       # deuce .. eight
            bits[card] = 1 << (rank + 1)
    return bits


def low_values() -> dict[int, int]:
    """Value of each 5-bit low mask (bigger is better)."""
    masks = [sum(1 << b for b in combo) for combo in itertools.combinations(range(8), 5)]
    # worse lows have a bigger highest card, then a bigger second, ...
    key = lambda m: sorted((b for b in range(8) if m >> b & 1), reverse=True)  # noqa: E731
    ordered = sorted(masks, key=key, reverse=True)          # worst first
    return {mask: value for value, mask in enumerate(ordered, start=1)}


def omaha_low_table() -> np.ndarray:
    """Best low for (hole low-rank mask, board low-rank mask): exactly 2 + 3 ranks."""
    values = low_values()
    table = np.zeros((256, 256), np.uint16)
    for hole in range(256):
        pairs = [(1 << a) | (1 << b) for a, b in itertools.combinations(range(8), 2)
                 if hole >> a & 1 and hole >> b & 1]
        for board in range(256):
            best = 0
            for x, y, z in itertools.combinations(range(8), 3):
                if board >> x & 1 and board >> y & 1 and board >> z & 1:
                    triple = (1 << x) | (1 << y) | (1 << z)
                    for pair in pairs:
                        if not pair & triple:
                            best = max(best, values[pair | triple])
            table[hole, board] = best
    return table


# --- 7. Teen Patti ------------------------------------------------------------
# Three cards; categories (value >> 12): 1 high card, 2 pair, 3 colour,
# 4 sequence, 5 pure sequence, 6 trail.  Index of a hand:
# ``169 * r0 + 13 * r1 + r2 + 2197 * suited`` for its ranks in any order, so
# no sorting is needed.  Row 0: A-2-3 is the highest run (the source's order);
# row 1: A-K-Q highest, A-2-3 second.
TEEN_PATTI_CATEGORIES = ("invalid", "high card", "pair", "colour", "sequence",
                         "pure sequence", "trail")
TP_HIGH, TP_PAIR, TP_COLOUR, TP_SEQUENCE, TP_PURE, TP_TRAIL = range(1, 7)


def teen_patti_run(ranks) -> int:
    """Position of a run among runs (4-3-2 = 0 ... A-K-Q = 10, A-2-3 = 11), or -1."""
    r = sorted(ranks)
    if r == [0, 1, 12]:
        return 11
    if r[1] == r[0] + 1 and r[2] == r[1] + 1:
        return r[2] - 2                      # top rank 2 (four) .. 12 (ace)
    return -1


def teen_patti_class(ranks, suited: bool, a23: str) -> tuple[int, tuple[int, ...]]:
    run = teen_patti_run(ranks)
    if run == 11 and a23 == "second":
        run = 9.5                            # between K-Q-J (9) and A-K-Q (10)
    desc = tuple(sorted(ranks, reverse=True))
    if desc[0] == desc[2]:
        return TP_TRAIL, desc[:1]
    if run >= 0:
        return (TP_PURE if suited else TP_SEQUENCE), (run,)
    if suited:
        return TP_COLOUR, desc
    if desc[0] == desc[1] or desc[1] == desc[2]:
        pair = desc[1]
        kicker = desc[2] if desc[0] == desc[1] else desc[0]
        return TP_PAIR, (pair, kicker)
    return TP_HIGH, desc


def teen_patti_table() -> np.ndarray:
    table = np.zeros((2, 2 * 13 ** 3), np.uint16)
    for row, a23 in enumerate(("highest", "second")):
        classes = {}
        for r0, r1, r2 in itertools.product(range(13), repeat=3):
            for suited in (0, 1):
                if suited and len({r0, r1, r2}) < 3:
                    continue                 # one suit holds each rank once
                classes[(r0, r1, r2, suited)] = teen_patti_class((r0, r1, r2), bool(suited), a23)
        for category in range(1, len(TEEN_PATTI_CATEGORIES)):
            tiebreaks = sorted({tb for cat, tb in classes.values() if cat == category})
            position = {tb: i + 1 for i, tb in enumerate(tiebreaks)}
            for (r0, r1, r2, suited), (cat, tb) in classes.items():
                if cat == category:
                    index = 169 * r0 + 13 * r1 + r2 + 2197 * suited
                    table[row, index] = (cat << CATEGORY_SHIFT) | position[tb]
    return table


# --- 8. Omaha high: a (board ranks, hole pair) table ---------------------------
# The best non-flush Omaha hand is the best over the hole's pairs of
# ``omaha_pairs[board, 13 * r1 + r2]``: the best non-flush five made of that
# pair of ranks and three of the board's five ranks.  The board's rank
# multiset gets a dense index through the five-card hash of the scrambled
# rank keys (``rank_offsets5``, which five-card hold'em batches share).  All
# the pairs of one hand read one 338-byte row, so a hand costs one cache miss
# whatever its number of hole cards.  The table is
# symmetric in (r1, r2) so kernels need not order the pair.  Flushes need
# three board cards and two hole cards of one suit: ``omaha_flush``.
#
# Four-card Omaha goes one step further: its hole's rank multiset (one of
# 1,820) gets a dense index through a hash of its own (``omaha_hole_offsets``,
# ``omaha_hole_index``), and ``omaha_hole_pairs`` lists the six
# ``omaha_pairs`` columns of each.  The package derives from them, at first
# use, the 22.5 MB (board, hole) table of the best over the six columns, so a
# hand is one lookup (see ``evaluator/_tables.py``); it is not shipped.
OMAHA_BOARD = 5
OMAHA_HOLE = 4


def omaha_tables(values5, slots5, slots5_end) -> dict[str, np.ndarray]:
    """``slots5``: where the five-card hash (``rank_offsets5``) puts each board
    multiset, in ``rank_multisets(5, 5)`` order; ``slots5_end`` the length of
    its value table, which any key indexes inside.  The board index reaches as
    far, and its unused entries are 0, so that a row of garbage under
    ``validate=False`` still reads a real table row."""
    boards = list(rank_multisets(OMAHA_BOARD, OMAHA_BOARD))
    # value of every 5-card rank multiset, indexed by its plain (unscrambled) rank sum
    lut = np.zeros(max(rank_sum(c) for c in rank_multisets(5, 5)) + 1, np.uint16)
    for counts in rank_multisets(5, 5):
        lut[rank_sum(counts)] = values5[(counts, False)]
    triples = np.full((len(boards), 10), -1, np.int64)   # rank sums of each board's triples
    for i, counts in enumerate(boards):
        cards = [r for r, k in enumerate(counts) for _ in range(k)]
        subs = sorted({sum(RANK_BASES[r] for r in t) for t in itertools.combinations(cards, 3)})
        triples[i, :len(subs)] = subs
    pairs = np.zeros((len(boards), NUM_RANKS * NUM_RANKS), np.uint16)
    for r1 in range(NUM_RANKS):
        for r2 in range(r1, NUM_RANKS):
            total = triples + RANK_BASES[r1] + RANK_BASES[r2]
            # A pair and triple holding five of a rank may alias a real key;
            # such a hand can never be dealt, so neither can its table entry.
            valid = (triples >= 0) & (total < lut.size)
            best = np.where(valid, lut[np.where(valid, total, 0)], 0).max(axis=1)
            pairs[:, NUM_RANKS * r1 + r2] = best
            pairs[:, NUM_RANKS * r2 + r1] = best
    board_index = np.zeros(slots5_end, np.uint16)
    board_index[slots5] = np.arange(len(boards))
    return {"omaha_board_index": board_index, "omaha_pairs": pairs,
            "omaha_flush": omaha_flush_table(values5), **omaha_hole_tables()}


def omaha_hole_tables() -> dict[str, np.ndarray]:
    """The hash of four-card hole rank multisets and their six pair columns.

    ``omaha_hole_index[(omaha_hole_offsets[h >> ROW_SHIFT] << OFFSET_SHIFT) +
    (h & COL_MASK)]`` is the hole's position in ``rank_multisets(4, 4)`` order,
    for ``h`` the rank part of the sum of its card keys (as for hands); row
    ``j`` of ``omaha_hole_pairs`` holds the ``omaha_pairs`` columns
    ``13 * r1 + r2`` of that hole's six pairs of cards.  Unused index entries
    are 0 and the index reaches to the end of its last row, as for
    ``rank_values``.
    """
    holes = list(rank_multisets(OMAHA_HOLE, OMAHA_HOLE))
    keys = np.array([scrambled(rank_sum(c)) for c in holes], np.int64)
    offsets, slots = displace(keys)
    index = np.zeros(int(offsets.max()) + COL_MASK + 1, np.uint16)
    index[slots] = np.arange(len(holes))
    stored = offsets >> OFFSET_SHIFT
    assert stored.max() < 1 << 16 and np.all(stored << OFFSET_SHIFT == offsets)
    columns = np.zeros((len(holes), 6), np.uint8)
    for j, counts in enumerate(holes):
        cards = [r for r, k in enumerate(counts) for _ in range(k)]
        columns[j] = [NUM_RANKS * a + b for a, b in itertools.combinations(cards, 2)]
    return {"omaha_hole_offsets": stored.astype(np.uint16), "omaha_hole_index": index,
            "omaha_hole_pairs": columns}


def omaha_flush_table(values5) -> np.ndarray:
    """Best flush from a hole pair and three board cards of one suit.

    ``omaha_flush[board mask, 13 * r1 + r2]`` (symmetric): the board mask is
    the 13-bit rank mask of the board's cards in the flush suit, the pair two
    hole cards of that suit (ranks not in the mask).  0 where no flush is made.
    """
    flush = flush_table(values5)
    table = np.zeros((1 << NUM_RANKS, NUM_RANKS * NUM_RANKS), np.uint16)
    for board in range(1 << NUM_RANKS):
        ranks = [r for r in range(NUM_RANKS) if board >> r & 1]
        if not 3 <= len(ranks) <= 5:
            continue
        triples = [sum(1 << r for r in t) for t in itertools.combinations(ranks, 3)]
        for low, high in itertools.combinations(range(NUM_RANKS), 2):
            if board >> low & 1 or board >> high & 1:
                continue
            pair = (1 << low) | (1 << high)
            best = max(flush[pair | t] for t in triples)
            table[board, NUM_RANKS * low + high] = best
            table[board, NUM_RANKS * high + low] = best
    return table


# --- 9. Short deck: 36 cards, sixes to aces ------------------------------------
# The same keys and hash as the 52-card tables: a short-deck hand's rank multiset is
# one of the 52-card ones, so ``rank_offsets`` finds it and only the values differ.
# ``short_rank_values`` (the length of ``rank_values``) and ``short_flush_values`` hold
# them, 0 for multisets with a rank below six; ``short_trips_rank_values`` the same with
# three of a kind above a straight (flushes rank the same either way).  Categories, low
# to high, are ``SHORT_CATEGORIES``: a flush beats a full house, and A-6-7-8-9 is the
# lowest straight.
SHORT_LOWEST = 4                     # rank index of the six
SHORT_CATEGORIES = ("invalid", "high card", "pair", "two pair", "three of a kind",
                    "straight", "full house", "flush", "four of a kind", "straight flush")
SHORT_TRIPS_CATEGORIES = ("invalid", "high card", "pair", "two pair", "straight",
                          "three of a kind", "full house", "flush", "four of a kind",
                          "straight flush")


def short_straight_top(ranks) -> int:
    """Top rank of the best short-deck straight in a set of ranks, or -1: T-J-Q-K-A
    down to 6-7-8-9-T, then A-6-7-8-9 (the ace plays low, nine high)."""
    present = set(ranks)
    for top in range(12, SHORT_LOWEST + 3, -1):
        if all(r in present for r in range(top - 4, top + 1)):
            return top
    if {12, 4, 5, 6, 7} <= present:
        return 7
    return -1


def short_five_card_values(trips_beat_straight: bool) -> dict[tuple[tuple[int, ...], bool], int]:
    """Value of every five-card short-deck class, keyed as ``five_card_values``."""
    names = SHORT_TRIPS_CATEGORIES if trips_beat_straight else SHORT_CATEGORIES
    number = {name: i for i, name in enumerate(names)}
    classes = {}
    for counts in rank_multisets(5, 5):
        if any(counts[:SHORT_LOWEST]):
            continue
        for flush in (False, True) if max(counts) == 1 else (False,):
            shape, ranks = rank_groups(counts)
            if shape == (1, 1, 1, 1, 1):
                top = short_straight_top(ranks)
                if top >= 0:
                    name, tiebreak = ("straight flush" if flush else "straight"), (top,)
                else:
                    name, tiebreak = ("flush" if flush else "high card"), ranks
            else:
                name = {(4, 1): "four of a kind", (3, 2): "full house",
                        (3, 1, 1): "three of a kind", (2, 2, 1): "two pair",
                        (2, 1, 1, 1): "pair"}[shape]
                tiebreak = ranks
            classes[(counts, flush)] = (number[name], tiebreak)
    return number_classes(classes, len(names))


def short_tables(slots, size: int, trips_beat_straight: bool) -> tuple[np.ndarray, np.ndarray]:
    """(rank values at the slots of ``rank_tables``, a table of ``size`` like
    ``rank_values``; flush values) of the short deck."""
    values5 = short_five_card_values(trips_beat_straight)
    multisets = list(rank_multisets(5, MAX_CARDS))
    table = np.zeros(size, np.uint16)
    for counts, slot in zip(multisets, slots.tolist()):
        if not any(counts[:SHORT_LOWEST]):
            table[slot] = best_of_multiset(counts, values5)
    flush = np.zeros(1 << NUM_RANKS, np.uint16)
    for mask in range(1 << NUM_RANKS):
        ranks = [r for r in range(NUM_RANKS) if mask >> r & 1]
        if len(ranks) < 5 or mask & ((1 << SHORT_LOWEST) - 1):
            continue
        flush[mask] = max(values5[(tuple(int(r in sub) for r in range(NUM_RANKS)), True)]
                          for sub in itertools.combinations(ranks, 5))
    return table, flush


# --- 10. Assembly ------------------------------------------------------------
def build() -> dict[str, np.ndarray]:
    verify_rank_bases()
    values5 = five_card_values()
    offsets, values, slots = rank_tables(values5)
    offsets5, values5_only, slots5 = rank_tables(values5, (5, 5))
    short_values, short_flush = short_tables(slots, values.size, False)
    short_trips_values, short_trips_flush = short_tables(slots, values.size, True)
    assert np.array_equal(short_flush, short_trips_flush)     # flushes rank the same
    return {
        "short_rank_values": short_values,
        "short_flush_values": short_flush,
        "short_trips_rank_values": short_trips_values,
        "card_keys": card_keys(),
        "rank_offsets": offsets,
        "rank_values": values,
        "rank_offsets5": offsets5,
        "rank_values5": values5_only.astype(np.uint32),   # see the module docstring
        "flush_values": flush_table(values5),
        "low_card_bits": low_card_bits(),
        "omaha_low": omaha_low_table(),
        "teen_patti": teen_patti_table(),
        **omaha_tables(values5, slots5, values5_only.size),
    }


def npy_bytes(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(array), allow_pickle=False)
    return buffer.getvalue()


def manifest(tables: dict[str, np.ndarray]) -> dict:
    return {
        "format_version": FORMAT_VERSION,
        "layout": LAYOUT,
        "categories": list(CATEGORIES),
        "teen_patti_categories": list(TEEN_PATTI_CATEGORIES),
        "short_deck_categories": list(SHORT_CATEGORIES),
        "short_deck_trips_categories": list(SHORT_TRIPS_CATEGORIES),
        "tables": {
            name: {
                "file": f"{name}.npy",
                "shape": list(array.shape),
                "dtype": str(array.dtype),
                "sha256": hashlib.sha256(npy_bytes(array)).hexdigest(),
            }
            for name, array in sorted(tables.items())
        },
    }


def write(out_dir: Path) -> dict:
    tables = build()
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, array in tables.items():
        (out_dir / f"{name}.npy").write_bytes(npy_bytes(array))
    info = manifest(tables)
    (out_dir / "MANIFEST.json").write_text(json.dumps(info, indent=2) + "\n")
    return info


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent,
                        help="folder to write (default: beside this script)")
    parser.add_argument("--check", action="store_true",
                        help="regenerate in memory and compare with MANIFEST.json in --out")
    args = parser.parse_args(argv)
    if args.check:
        expected = json.loads((args.out / "MANIFEST.json").read_text())
        actual = manifest(build())
        if actual != expected:
            print("tables differ from MANIFEST.json", file=sys.stderr)
            return 1
        print("tables match MANIFEST.json")
        return 0
    info = write(args.out)
    for name, entry in info["tables"].items():
        shape = str(tuple(entry["shape"]))
        print(f"{name:20s} {entry['dtype']:7s} {shape:12s} {entry['sha256'][:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
