"""Readable names of high hands, from the five cards that make them."""
from __future__ import annotations

from collections import Counter

from .cards import card_str

__all__ = ["describe", "order_five"]

_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace")
_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces")


def _groups(five: list[int]) -> list[tuple[int, int]]:
    """(count, rank) groups, biggest group first, then highest rank."""
    counts = Counter(c >> 2 for c in five)
    return sorted(((k, r) for r, k in counts.items()), reverse=True)


def _is_wheel(five: list[int]) -> bool:
    return sorted(c >> 2 for c in five) == [0, 1, 2, 3, 12]


def order_five(five: list[int]) -> list[int]:
    """The five cards in reading order: groups first, high to low; a wheel ends with its ace."""
    rank_order = {r: i for i, (_, r) in enumerate(_groups(five))}
    ordered = sorted(five, key=lambda c: (rank_order[c >> 2], -(c & 3)))
    if _is_wheel(five):
        ordered = ordered[1:] + ordered[:1]
    return ordered


def describe(category: str, five: list[int]) -> str:
    """``'full house, nines full of fours'`` for the category and its five cards."""
    groups = _groups(five)
    ranks = [r for _, r in groups]
    if category in ("straight", "straight flush"):
        top = 3 if _is_wheel(five) else max(ranks)
        if category == "straight flush" and top == 12:
            return "royal flush"
        return f"{category}, {_WORDS[top]} high"
    if category == "four of a kind":
        return f"four of a kind, {_PLURALS[ranks[0]]}"
    if category == "full house":
        return f"full house, {_PLURALS[ranks[0]]} full of {_PLURALS[ranks[1]]}"
    if category == "flush":
        return f"flush, {_WORDS[ranks[0]]} high"
    if category == "three of a kind":
        return f"three of a kind, {_PLURALS[ranks[0]]}"
    if category == "two pair":
        return f"two pair, {_PLURALS[ranks[0]]} and {_PLURALS[ranks[1]]}"
    if category == "pair":
        return f"pair of {_PLURALS[ranks[0]]}"
    if category == "high card":
        return f"high card, {_WORDS[ranks[0]]}"
    return f"{category}: {' '.join(card_str(c) for c in five)}"
