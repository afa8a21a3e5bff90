"""Readable names of high hands, from the five cards that make them."""
from __future__ import annotations

from collections import Counter

from .cards import card_str

__all__ = ["describe", "order_five", "describe_teen_patti", "describe_low", "order_low"]

_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace")
_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces")


def _groups(five: list[int]) -> list[tuple[int, int]]:
    """(count, rank) groups, biggest group first, then highest rank."""
    counts = Counter(c >> 2 for c in five)
    return sorted(((k, r) for r, k in counts.items()), reverse=True)


def _is_wheel(five: list[int]) -> bool:
    """Five ranks that make a straight only with the ace low: A-2-3-4-5, or A-6-7-8-9 in the
    short deck (only called for hands whose category is a straight)."""
    return sorted(c >> 2 for c in five) in ([0, 1, 2, 3, 12], [4, 5, 6, 7, 12])


def order_five(five: list[int], category: str = "") -> list[int]:
    """The five cards in reading order: groups first, high to low; a straight whose ace
    plays low ends with its ace."""
    rank_order = {r: i for i, (_, r) in enumerate(_groups(five))}
    ordered = sorted(five, key=lambda c: (rank_order[c >> 2], -(c & 3)))
    if category in ("straight", "straight flush") and _is_wheel(five):
        ordered = ordered[1:] + ordered[:1]
    return ordered


def describe(category: str, five: list[int]) -> str:
    """``'full house, nines full of fours'`` for the category and its five cards."""
    groups = _groups(five)
    ranks = [r for _, r in groups]
    if category in ("straight", "straight flush"):
        top = sorted(ranks)[-2] if _is_wheel(five) else max(ranks)
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


_SHORT = "23456789TJQKA"


def describe_teen_patti(category: str, three: list[int]) -> str:
    """``'trail of aces'``, ``'pure sequence, A-K-Q'``, ``'pair of kings'``..."""
    groups = _groups(three)
    ranks = [r for _, r in groups]
    if category == "trail":
        return f"trail of {_PLURALS[ranks[0]]}"
    if category in ("pure sequence", "sequence"):
        run = sorted((c >> 2 for c in three), reverse=True)
        if run == [12, 1, 0]:
            run = [12, 0, 1]                         # A-2-3
        return f"{category}, {'-'.join(_SHORT[r] for r in run)}"
    if category == "pair":
        return f"pair of {_PLURALS[ranks[0]]}"
    if category == "colour":
        return f"colour, {_WORDS[ranks[0]]} high"
    return f"high card, {_WORDS[ranks[0]]}"


def order_low(five: list[int]) -> list[int]:
    """Low cards from the highest down, the ace last."""
    return sorted(five, key=lambda c: -1 if c >> 2 == 12 else c >> 2, reverse=True)


def describe_low(five: list[int]) -> str:
    """``'7-5-4-2-A low'``; the wheel is ``'5-4-3-2-A low (the wheel)'``."""
    text = "-".join("A" if c >> 2 == 12 else _SHORT[c >> 2] for c in order_low(five))
    return f"{text} low" + (" (the wheel)" if text == "5-4-3-2-A" else "")
