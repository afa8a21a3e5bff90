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
