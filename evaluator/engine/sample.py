"""Monte Carlo: chunks of deals with their own seeded streams, until a count or an error.

Chunk ``index`` always holds the same deals (its stream is seeded from ``(seed, index)``),
so an answer does not depend on how chunks meet threads.
"""
from __future__ import annotations

import numpy as np

from .._parallel import check_interrupt, map_items
from ..families import family
from ..games import Game
from ..progress import advanced, planned
from .results import Counts

SAMPLE_CHUNK = 1 << 18         # deals per Monte Carlo chunk (and per seeded stream)


ROUND = 4                      # Monte Carlo chunks between stopping checks
# chunks handed to the threads at once when only a count stops the work: a round of 4
# left one of two threads idle at each round's end (two threads 1.36x one on QQ+,AKs
# against a random hand)
COUNTED_ROUND = 64


DEFAULT_TRIALS = 1 << 20

def sampled_best5(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                  need: int, samples: int, state: np.ndarray) -> Counts:
    """Monte Carlo counts where the family's best-five sampler serves (best-five games
    and Tahoe); hands may lack cards (the kernel deals them)."""
    counts = Counts(len(hands))
    counts.boards = family(g).sample(g, hands, board, live, need, samples, state,
                                     counts.hi_full, counts.low_counts())
    return counts


def sample_until(run, players: int, trials: int | None, target_stderr: float | None,
            threads: int) -> Counts:
    """Monte Carlo chunks ``run(index, size)`` until ``trials`` or ``target_stderr``.

    Chunk ``index`` always holds the same deals (its stream is seeded from
    the index), so the answer does not depend on how chunks meet threads.
    """
    limit = trials if trials is not None else (None if target_stderr else DEFAULT_TRIALS)
    counts = Counts(players)
    planned(limit or 0, "deals sampled")
    index = 0
    while True:
        check_interrupt()
        stop = index + (ROUND if target_stderr is not None else COUNTED_ROUND)
        if limit is not None:
            stop = min(stop, -(-limit // SAMPLE_CHUNK))
        sizes = [SAMPLE_CHUNK if limit is None else min(SAMPLE_CHUNK, limit - i * SAMPLE_CHUNK)
                 for i in range(index, stop)]
        def done(i: int, sizes: list[int] = sizes) -> None:
            advanced(sizes[i])

        for part in map_items(lambda item: run(*item), list(zip(range(index, stop), sizes)),
                              threads, done=done):
            counts.add(part)
        index = stop
        if limit is not None and index * SAMPLE_CHUNK >= limit:
            break
        if target_stderr is not None and max(counts.stderr()) <= target_stderr:
            break
    return counts
