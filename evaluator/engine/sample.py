"""Monte Carlo: chunks of deals with their own seeded streams, until a count or an error.

Chunk ``index`` always holds the same deals (its stream is seeded from ``(seed, index)``),
so an answer does not depend on how chunks meet threads.
"""
from __future__ import annotations

import numpy as np

from .. import _tables
from .._parallel import check_interrupt, map_items
from ..games import Game
from ..kernels.markers import ndim_marker, unknown_cards  # NumPy only: no Numba import
from .results import Counts

SAMPLE_CHUNK = 1 << 18         # deals per Monte Carlo chunk (and per seeded stream)


ROUND = 4                      # Monte Carlo chunks between stopping checks


DEFAULT_TRIALS = 1 << 20

BOARD_ROWS = ("rank_offsets5", "omaha_board_index")   # five-card boards' rank rows


def sampled_best5(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                   need: int, samples: int, state: np.ndarray) -> Counts:
    """Monte Carlo counts for best-five games and Tahoe; hands may lack cards (the
    kernel deals them)."""
    from ..kernels import sampling as sampling_kernels
    counts = Counts(len(hands))
    holes = np.zeros((len(hands), g.hole), np.uint8)
    for p, hand in enumerate(hands):
        holes[p, :len(hand)] = hand
    unknown = unknown_cards([g.hole - len(hand) for hand in hands])
    tables = _tables.high(g.values)
    if unknown.any():
        sampling_kernels.best5_sample(holes, ndim_marker(g.sub_hands), unknown, board, live,
                                      need, samples, state, *tables, counts.hi_full)
    else:       # the same deals, dealt a block at a time and then evaluated
        sampling_kernels.best5_sample_known(holes, ndim_marker(g.sub_hands), board, live,
                                            ndim_marker(need), samples, state, *tables,
                                            *_tables.load_many(BOARD_ROWS), counts.hi_full)
    counts.boards = samples
    return counts


def sample_until(run, players: int, trials: int | None, target_stderr: float | None,
            threads: int) -> Counts:
    """Monte Carlo chunks ``run(index, size)`` until ``trials`` or ``target_stderr``.

    Chunk ``index`` always holds the same deals (its stream is seeded from
    the index), so the answer does not depend on how chunks meet threads.
    """
    limit = trials if trials is not None else (None if target_stderr else DEFAULT_TRIALS)
    counts = Counts(players)
    index = 0
    while True:
        check_interrupt()
        stop = index + ROUND
        if limit is not None:
            stop = min(stop, -(-limit // SAMPLE_CHUNK))
        sizes = [SAMPLE_CHUNK if limit is None else min(SAMPLE_CHUNK, limit - i * SAMPLE_CHUNK)
                 for i in range(index, stop)]
        for part in map_items(lambda item: run(*item), list(zip(range(index, stop), sizes)),
                         threads):
            counts.add(part)
        index = stop
        if limit is not None and index * SAMPLE_CHUNK >= limit:
            break
        if target_stderr is not None and max(counts.stderr()) <= target_stderr:
            break
    return counts
