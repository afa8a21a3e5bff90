"""The shipped ranking of each game's starting hands, behind ``N%`` ranges.

Hands are grouped into *suit classes* (hands that differ only by renaming suits, which
no game's rules can tell apart), and the classes are ranked best first.  Each game's
table ``ranking_<game>`` (uint8, one row per class: the class's first hand in card-id
order, then the class's number of hands) is written by ``tables/rankings.py`` and
hashed in ``STUDIES.json``; how each score is computed (hot-cold equity against one
random hand, exact or Monte Carlo, or hand strength) is in that script's doc.

Hold'em and the games whose ranges hold two cards (Pineapple and Crazy Pineapple after
their discard) use the hold'em pre-flop ordering of ``classes.preflop_order``.

``N%`` takes the best classes whose hands come closest to N% of all hands, and
``N%-M%`` the classes from the N% boundary to the M% one, as hold'em's classes are
taken.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from . import _tables
from .errors import RangeError
from .games import Game

__all__ = ["RANKED_GAMES", "ranking", "ranked_classes", "suit_classes", "permute_suits",
           "canonical"]

#: games with a shipped ranking table, each read as ``ranking_<name>``
RANKED_GAMES = ("omaha", "omaha5", "omaha6", "omaha8", "omaha5_8", "omaha6_8", "tahoe", "the",
                "teen_patti", "short_deck")

_RANK_BITS = np.uint64(sum(1 << (4 * r) for r in range(13)))
PERMUTATIONS = tuple(itertools.permutations(range(4)))


def permute_suits(masks: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
    """Card masks with suit ``s`` renamed ``perm[s]``."""
    out = np.zeros_like(masks)
    for s, t in enumerate(perm):
        out |= ((masks >> np.uint64(s)) & _RANK_BITS) << np.uint64(t)
    return out


def canonical(masks: np.ndarray) -> np.ndarray:
    """Each mask's class name: the smallest mask among its 24 suit renamings."""
    best = masks.copy()
    for perm in PERMUTATIONS[1:]:
        np.minimum(best, permute_suits(masks, perm), out=best)
    return best


def suit_classes(masks: np.ndarray) -> np.ndarray:
    """Every hand of each class's (sorted, distinct) masks ``masks``, sorted."""
    every = np.sort(np.concatenate([permute_suits(masks, perm) for perm in PERMUTATIONS]))
    # sorted, then the first of each run: NumPy's hashing unique took 0.7 s a million here
    return every[np.concatenate(([True], every[1:] != every[:-1]))] if len(every) else every


def ships(game: Game) -> bool:
    """Whether a ranking table ships for the game (hold'em's classes rank by the
    pre-flop ordering instead).  A game ranked as another (``Game.ranked_as``: Courchevel
    deals the hands of 5-card Omaha, ranked alike) reads that one's."""
    return game.ranking_name in RANKED_GAMES


def ranking(game: Game) -> np.ndarray:
    """The game's ranking table (see the module doc), read-only."""
    if not ships(game):
        raise RangeError(f"no hand ranking ships for {game.name!r}, so its ranges cannot "
                         "use percentages", game.name)
    return _tables.load(f"ranking_{game.ranking_name}")


def _boundary(sizes: np.ndarray, percent: float) -> int:
    """The number of best classes whose hands come closest to ``percent`` of all."""
    if percent <= 0:
        return 0
    cumulative = np.cumsum(sizes, dtype=np.int64)
    target = percent / 100 * cumulative[-1]
    k = int(np.searchsorted(cumulative, target))          # first class reaching it
    if k >= len(sizes):
        return len(sizes)
    below = cumulative[k - 1] if k else 0
    # stop at the class boundary closest to the target (never at none)
    return k + 1 if cumulative[k] - target <= target - below or k == 0 else k


def ranked_classes(game: Game, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """The classes from the ``low`` to the ``high`` percent boundary of the game's
    ranking: (their first hands' card masks, their numbers of hands)."""
    table = ranking(game)
    hole = game.hole
    sizes = table[:, hole].astype(np.int64)
    a, b = _boundary(sizes, low), _boundary(sizes, high)
    rows = table[a:b, :hole]
    masks = np.zeros(len(rows), np.uint64)
    for j in range(hole):
        masks |= np.uint64(1) << rows[:, j].astype(np.uint64)
    return masks, sizes[a:b]


def class_count(hole: int) -> int:
    """A rough count of suit classes of ``hole`` cards (for progress and docs)."""
    return math.comb(52, hole) // 24
