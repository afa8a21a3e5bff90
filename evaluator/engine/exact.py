"""Exact equity: every deal of the cards still to come, counted in integers.

Known hands go to the rank-multiset kernels (``kernels.multisets``) where they apply, and
walk the boards otherwise (``kernels.walks``); hands with unknown cards list every subset
of the cards to come and split it every way between the hands and the board.
``weighted_exact`` sums many deals (suit classes of range tuples) by weight.
"""
from __future__ import annotations

import itertools
import math
import sys

import numpy as np

from .._parallel import map_items
from ..families import family, rank_multisets
from ..games import Game
from ..progress import item_done, planned
from .results import Counts

CHUNK = 1 << 16                # boards per chunk of an exact enumeration


SUBSET_LIMIT = 10_000_000      # card subsets listed at once by exact_with_unknown


def player_values(g: Game, hands: list[np.ndarray], boards: np.ndarray, low: bool) -> np.ndarray:
    """int32 (players, boards): each player's value on each board.

    A hand is (hole,) when the same on every board, or (boards, hole) when dealt per board.
    """
    from ..kernels.dealing import hole_board_rows
    n, width = boards.shape
    boards = np.ascontiguousarray(boards)
    out = np.empty((len(hands), n), np.int32)
    rows = np.empty((n, g.hole + width), np.uint8)      # one player's rows at a time
    fam = family(g)
    kernel, lead, tables = fam.batch_kernel(g, low, g.hole + width)
    for p, hole in enumerate(hands):
        if not low and fam.one_hand_values(g, hole, boards, out[p]):
            continue
        hole_board_rows(np.ascontiguousarray(hole), g.hole, boards, 0, width, rows)
        kernel(rows, *lead, out[p], *tables)
    return out


def tally_chunk(g: Game, hands: list[np.ndarray], boards: np.ndarray) -> Counts:
    from ..kernels import counting
    hilo = g.hilo
    counts = Counts(len(hands), hilo=hilo)
    hi = player_values(g, hands, boards, low=False)
    lo = player_values(g, hands, boards, low=True) if hilo else hi
    counting.tally(hi, lo, hilo, counts.hi_full, counts.low_counts())
    counts.boards = boards.shape[0]
    return counts


def fused_chunk(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                 need: int, samples: int, state: np.ndarray,
                 first: tuple[int, int] = (0, 0)) -> Counts:
    """Counts from a fused kernel: ``samples`` sampled boards, or (samples == 0)
    every board whose first new card sits at a position in ``first`` of ``live``."""
    fam = family(g)
    counts = Counts(len(hands), hilo=g.hilo)
    if samples:
        counts.boards = fam.sample(g, hands, board, live, need, samples, state,
                                   counts.hi_full, counts.low_counts())
    else:
        counts.boards = fam.walk(g, hands, board, live, need, np.array(first, np.int64),
                                 counts.hi_full, counts.low_counts())
    return counts


def exact_with_unknown(g: Game, hands: list[np.ndarray], unknown: list[int],
                        board: np.ndarray, live: np.ndarray, need: int,
                        threads: int) -> Counts | None:
    """Counts over every deal of the unknown hole cards and the rest of the board, in
    batches: each subset of the cards still to come is split every way between the hands
    that lack cards and the board (one pattern of positions at a time), and the deals are
    evaluated as arrays.  None when the subsets are too many to list."""
    from ..kernels import dealing
    drawn = sum(unknown) + need
    total = math.comb(len(live), drawn)
    if total > SUBSET_LIMIT:
        return None
    subsets = np.empty((total, drawn), np.uint8)
    dealing.enumerate_boards(live, np.empty(0, np.uint8), drawn, subsets)
    patterns = list(deal_patterns(list(range(drawn)), [u for u in unknown if u] + [need]))

    def work(task: tuple[list[int], int, int]) -> Counts:
        order, start, stop = task
        # the subset's cards reordered: each lacking hand's, then the board's (a copy in C
        # order: column indexing can return another layout)
        cards = np.ascontiguousarray(subsets[start:stop, order])
        return tally_chunk(g, *complete_deals(g, hands, unknown, board, cards))

    tasks: list[tuple[list[int], int, int]] = [
        (sum(pattern, []), start, min(start + CHUNK, total))
             for pattern in patterns for start in range(0, total, CHUNK)]
    counts = Counts(len(hands))
    planned(len(tasks), "parts of the deals enumerated")
    for part in map_items(work, tasks, threads, done=item_done):
        counts.add(part)
    return counts


def complete_deals(g: Game, hands: list[np.ndarray], unknown: list[int], board: np.ndarray,
                    cards: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Hands and boards of a batch of deals: ``cards`` (deals, cards dealt, C-contiguous)
    holds each hand's missing cards in turn, then the board's; ``hands[p]`` are the known
    cards (the whole hand where ``unknown[p]`` is 0, kept as it is).  Rows put together by
    the row copier (NumPy's slice copies of a few columns took about 9 ns a deal, a sixth of
    Omaha's range sampling); where the dealt cards are whole boards, they are the boards."""
    from ..kernels.dealing import hole_board_rows
    deals = cards.shape[0]
    holes, column = [], 0
    for hand, missing in zip(hands, unknown):
        if not missing:
            holes.append(hand)
            continue
        dealt = np.empty((deals, g.hole), np.uint8)
        hole_board_rows(hand, len(hand), cards, column, missing, dealt)
        holes.append(dealt)
        column += missing
    width = max(g.streets)
    if not len(board) and column == 0 and cards.shape[1] == width:
        return holes, cards
    boards = np.empty((deals, width), np.uint8)
    hole_board_rows(board, len(board), cards, column, cards.shape[1] - column, boards)
    return holes, boards


def deal_patterns(positions: list[int], sizes: list[int]):
    """Every way to deal ``positions`` into groups of ``sizes``, each group in order."""
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(positions, sizes[0]):
        rest = [x for x in positions if x not in chosen]
        for tail in deal_patterns(rest, sizes[1:]):
            yield (list(chosen),) + tail


def unknown_assignments(hands: list[np.ndarray], unknown: list[int], live: np.ndarray):
    """Every way to give the unknown hole cards: (complete hands, cards still live)."""
    if not any(unknown):
        yield hands, live
        return
    p = next(i for i, u in enumerate(unknown) if u)
    for extra in itertools.combinations(live.tolist(), unknown[p]):
        filled = list(hands)
        filled[p] = np.concatenate([hands[p], np.array(extra, np.uint8)])
        rest = np.array([c for c in live.tolist() if c not in extra], np.uint8)
        yield from unknown_assignments(filled, unknown[:p] + [0] + unknown[p + 1:], rest)


def exact_counts(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                  need: int, threads: int, prefer_numpy: bool = False) -> Counts:
    """Counts over every completion of the board, for known hands.

    ``prefer_numpy``: while Numba is not loaded, answer best-five spots with the NumPy
    version of the rank-multiset method (a one-shot query answers before Numba loads).
    """
    fam = family(g)
    if fam.multisets(g) and not fam.two_plus_three and need >= 1 and prefer_numpy and \
            "numba" not in sys.modules:
        # a one-shot query (the command line): NumPy answers before Numba could load
        from .._exact_numpy import best5_exact
        counts = Counts(len(hands))
        boards = best5_exact(np.stack(hands), board, live, rank_multisets(need), counts.hi_full,
                             g.values)
        if boards >= 0:
            counts.boards = boards
            return counts
    if fam.multisets(g) and need >= 1:
        counts = Counts(len(hands), hilo=g.hilo)
        boards = fam.exact(g, hands, board, live, need, counts.hi_full, counts.low_counts())
        if boards >= 0:
            counts.boards = boards
            return counts
    if fam.fused(g):
        m = len(live)
        if need == 0 or threads <= 1:
            return fused_chunk(g, hands, board, live, need, 0, np.zeros(2, np.uint64),
                                (0, m - need + 1))
        # split the first card's positions so each thread gets about as many boards
        weights = [math.comb(m - f - 1, need - 1) for f in range(m - need + 1)]
        cuts, acc, target = [0], 0, sum(weights) / threads
        for f, w in enumerate(weights):
            acc += w
            if acc >= target * len(cuts) and len(cuts) < threads:
                cuts.append(f + 1)
        cuts.append(m - need + 1)
        spans = [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]
        counts = Counts(len(hands))
        planned(len(spans), "parts of the boards enumerated")
        for part in map_items(lambda span: fused_chunk(g, hands, board, live, need, 0,
                                                   np.zeros(2, np.uint64), span),
                         spans, threads, done=item_done):
            counts.add(part)
        return counts
    from ..kernels import dealing
    total = math.comb(len(live), need)
    every_board = np.empty((total, max(g.streets)), np.uint8)
    dealing.enumerate_boards(live, board, need, every_board)
    counts = Counts(len(hands))
    chunks = [every_board[a:a + CHUNK] for a in range(0, total, CHUNK)]
    planned(len(chunks), "parts of the boards enumerated")
    for part in map_items(lambda b: tally_chunk(g, hands, b), chunks, threads,
                          done=item_done):
        counts.add(part)
    return counts


def weighted_exact(g: Game, holes: np.ndarray, weight: np.ndarray, board_ids: np.ndarray,
                    dead_ids: np.ndarray, need: int, weighted: bool) -> Counts:
    """Exact counts summed over deals ``holes`` (n, P, H), deal k counted ``weight[k]`` times."""
    fam = family(g)
    n, players, _ = holes.shape
    counts = Counts(players, weighted=weighted, hilo=g.hilo)
    todo = np.arange(n)
    if need and fam.multisets(g):
        hi_full = np.zeros((n, players, players + 1), np.int64)
        low = (n, players, players + 1, players + 1) if g.hilo else (n, 0, 0, 0)
        joint = np.zeros(low, np.int64)
        boards = np.zeros(n, np.int64)
        fam.exact_batch(g, holes, board_ids, dead_ids, need, hi_full, joint, boards)
        done = boards >= 0
        counts.hi_full += np.tensordot(weight[done], hi_full[done], axes=1)
        if counts.joint is not None:
            counts.joint += np.tensordot(weight[done], joint[done], axes=1)
        counts.boards += int(weight[done] @ boards[done]) if not weighted \
            else float(weight[done] @ boards[done])
        todo = np.flatnonzero(~done)
    if need and len(todo):
        # the rest walk their boards, all in one call, where the family can
        k = len(todo)
        hi_full = np.zeros((k, players, players + 1), np.int64)
        boards = np.zeros(k, np.int64)
        if fam.walk_batch(g, np.ascontiguousarray(holes[todo]), board_ids, dead_ids, need,
                          hi_full, boards):
            counts.hi_full += np.tensordot(weight[todo], hi_full, axes=1)
            counts.boards += int(weight[todo] @ boards) if not weighted \
                else float(weight[todo] @ boards)
            todo = todo[:0]
    for k in todo.tolist():
        counts.add(deal_counts(g, holes[k], board_ids, dead_ids, need), weight[k].item())
    return counts


def deal_counts(g: Game, holes: np.ndarray, board: np.ndarray, dead: np.ndarray,
                 need: int) -> Counts:
    """Exact counts of one deal, holes uint8 (P, H), on one thread (any method)."""
    used = set(holes.ravel().tolist()) | set(board.tolist()) | set(dead.tolist())
    live = np.array([c for c in range(52) if c not in used], np.uint8)
    return exact_counts(g, list(holes), board, live, need, 1)
