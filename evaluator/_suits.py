"""Suit isomorphism: deals that differ only by a renaming of suits share one answer.

A permutation of the four suits maps a deal (every player's cards, the
board, the dead cards) to another deal with the same equities.  Range
enumeration groups combo tuples into classes under the permutations that
leave the board and the dead cards in place, computes one member of each
class and weights it by the class's total weight.
"""
from __future__ import annotations

import itertools

import numpy as np

__all__ = ["PERMUTATIONS", "stabilizer", "canonical_classes"]

# PERMUTATIONS[k, card] = the card with its suit renamed by the k-th permutation
PERMUTATIONS = np.array([[4 * (c >> 2) + perm[c & 3] for c in range(52)]
                         for perm in itertools.permutations(range(4))], np.uint8)


def stabilizer(*fixed: np.ndarray) -> np.ndarray:
    """The permutations (rows of PERMUTATIONS) that map each set in ``fixed`` onto itself."""
    keep = []
    for k, perm in enumerate(PERMUTATIONS):
        if all(set(perm[np.asarray(cards, np.int64)].tolist()) == set(np.asarray(cards).tolist())
               for cards in fixed):
            keep.append(k)
    return PERMUTATIONS[keep]


def _keys(tuples: np.ndarray, players: int) -> np.ndarray:
    """int64 (n, players): each player's sorted hand packed six bits a card."""
    n, width = tuples.shape
    hole = width // players
    cards = np.sort(tuples.reshape(n, players, hole).astype(np.int64), axis=2)
    shifts = 6 * np.arange(hole - 1, -1, -1, dtype=np.int64)
    return (cards << shifts).sum(axis=2)


def canonical_classes(tuples: np.ndarray, players: int, perms: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Group combo tuples by suit isomorphism.

    tuples : uint8 (n, players * hole), player after player
    perms : uint8 (k, 52), a group of suit permutations (``stabilizer``)

    Returns (representative row index per class, class of each tuple).  The
    classes are keyed by the tuple's smallest image over the group (players'
    sorted hands packed six bits a card, compared player by player), so the
    grouping does not depend on the order of the input.
    """
    packed = players * (tuples.shape[1] // players) * 6 <= 62
    best: np.ndarray | None = None
    for perm in perms:
        keys = _keys(perm[tuples], players)
        if packed:
            # one int64 per tuple, first player in the high bits: the same order
            width = 6 * (tuples.shape[1] // players)
            flat = np.zeros(len(keys), np.int64)
            for p in range(players):
                flat = (flat << width) | keys[:, p]
            best = flat if best is None else np.minimum(best, flat)
            continue
        if best is None:
            best = keys
            continue
        differs = keys != best
        first = differs.argmax(axis=1)
        rows = np.arange(len(keys))
        smaller = differs.any(axis=1) & (keys[rows, first] < best[rows, first])
        best[smaller] = keys[smaller]
    if best is None:
        raise ValueError("perms is empty: a group of suit permutations holds the identity")
    _, first_index, inverse = np.unique(best, axis=0 if best.ndim == 2 else None,
                                        return_index=True, return_inverse=True)
    return first_index, inverse.reshape(-1)
