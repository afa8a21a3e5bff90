"""Exact best-five equity by rank multisets in plain NumPy, without Numba.

The same method as ``kernels.multisets.best5_exact`` (see its docstring), written
with array operations over all the multisets at once.  It exists for one-shot
queries: a command-line call answers in a fraction of the time it takes to
import Numba and load the compiled kernels.  Both give the same integer
counts, which the tests check on many spots.
"""
from __future__ import annotations

from functools import cache

import numpy as np

from . import _layout, _tables

KEY_MASK = np.uint64(_layout.KEY_MASK)
ROW_SHIFT = np.uint64(_layout.ROW_SHIFT)
OFFSET_SHIFT = np.uint64(_layout.OFFSET_SHIFT)
COL_MASK = np.uint64(_layout.COL_MASK)

_BINOM = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0],
                   [1, 4, 6, 4, 1]], np.int64)


@cache
def _distinct(multisets_key: bytes, rows: int, need: int) -> tuple[np.ndarray, np.ndarray]:
    """Per multiset: its distinct ranks (padded with -1) and their copies (0 for padding)."""
    multisets = np.frombuffer(multisets_key, np.uint8).reshape(rows, need).astype(np.int64)
    ranks = np.full((rows, need), -1, np.int64)
    copies = np.zeros((rows, need), np.int64)
    for i, row in enumerate(multisets.tolist()):
        values, counts = np.unique(row, return_counts=True)
        ranks[i, :len(values)] = values
        copies[i, :len(values)] = counts
    return ranks, copies


def _lookup(keys: np.ndarray, rank_offsets, rank_values) -> np.ndarray:
    h = keys & KEY_MASK
    return rank_values[(rank_offsets[h >> ROW_SHIFT].astype(np.uint64) << OFFSET_SHIFT)
                       + (h & COL_MASK)].astype(np.int64)


def best5_exact(holes: np.ndarray, known: np.ndarray, live: np.ndarray,
                multisets: np.ndarray, hi_full: np.ndarray, ranking: str = "standard") -> int:
    """As ``kernels.multisets.best5_exact``: fills ``hi_full``; returns the boards, or -1.
    ``ranking`` names the value tables (``_tables.VALUE_TABLES``)."""
    card_keys, rank_offsets, rank_values, flush_values = _tables.high(ranking)
    players, hole = holes.shape
    rows, need = multisets.shape
    alive = np.zeros((13, 4), np.int64)
    alive[live >> 2, live & 3] = 1
    per_rank = alive.sum(axis=1)
    rank_keys = card_keys[4 * np.arange(13)] & KEY_MASK
    known_count = np.bincount(known & 3, minlength=4) if len(known) else np.zeros(4, np.int64)
    known_mask = np.zeros(4, np.int64)
    for c in known.tolist():
        known_mask[c & 3] |= 1 << (c >> 2)
    hole_count = np.zeros((players, 4), np.int64)
    hole_mask = np.zeros((players, 4), np.int64)
    hole_keys = np.zeros(players, np.uint64)
    base = (card_keys[known].sum(dtype=np.uint64) if len(known) else np.uint64(0))
    for p in range(players):
        for c in holes[p].tolist():
            hole_count[p, c & 3] += 1
            hole_mask[p, c & 3] |= 1 << (c >> 2)
        hole_keys[p] = (base + card_keys[holes[p]].sum(dtype=np.uint64)) & KEY_MASK
    reach = {s: 5 - known_count[s] - hole_count[:, s].max() for s in range(4)}
    suits = [s for s in range(4) if reach[s] <= need]
    for a in suits:
        for b in suits:
            if a < b and max(reach[a], 0) + max(reach[b], 0) <= need:
                return -1
    ranks, copies = _distinct(multisets.tobytes(), rows, need)
    present = copies > 0
    safe = np.where(present, ranks, 0)
    avail = per_rank[safe]
    boards = np.where(present, _BINOM[np.minimum(avail, 4), copies], 1).prod(axis=1)
    boards[(present & (copies > avail)).any(axis=1)] = 0
    keep = boards > 0
    ranks, copies, present, safe, boards = ranks[keep], copies[keep], present[keep], \
        safe[keep], boards[keep]
    avail = avail[keep]
    board_keys = (rank_keys[safe] * copies.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    plain = np.stack([_lookup(board_keys + hole_keys[p], rank_offsets, rank_values)
                      for p in range(players)])                   # (P, K)
    rest = boards.copy()
    classes = []                                                 # (ways, values (P, K))
    distinct = present.sum(axis=1)
    for s in suits:
        t = max(reach[s], 0)
        in_suit = alive[safe, s] * present                       # rank's s card is live
        inside = np.where(in_suit, _BINOM[np.maximum(avail - 1, 0), np.maximum(copies - 1, 0)],
                          0)
        outside = np.where(present, _BINOM[np.minimum(avail - alive[safe, s], 4), copies], 1)
        for sub in range(1 << need):
            members = bin(sub).count("1")
            if members < t:
                continue
            chosen = ((sub >> np.arange(need)) & 1).astype(bool)
            valid = (distinct >= (sub.bit_length()))                # only real positions
            ways = np.where(chosen, inside, outside).prod(axis=1) * valid
            if not ways.any():
                continue
            mask = (np.where(chosen & present, 1 << safe, 0)).sum(axis=1) | known_mask[s]
            values = plain.copy()
            for p in range(players):
                if hole_count[p, s] + known_count[s] + members >= 5:
                    flush = flush_values[mask | hole_mask[p, s]].astype(np.int64)
                    values[p] = np.maximum(values[p], flush)
            rest -= ways
            classes.append((ways, values))
    classes.append((rest, plain))
    for ways, values in classes:
        best = values.max(axis=0)
        winners = (values == best).sum(axis=0)
        for p in range(players):
            won = values[p] == best
            hi_full[p] += np.bincount(winners[won], weights=ways[won],
                                      minlength=players + 1).astype(np.int64)
    return int(boards.sum())
