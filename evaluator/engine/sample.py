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


# a target standard error: the first check after MIN_DEALS deals, then one each time the
# deals so far grow by a quarter (an answer overshoots the deals it needed by a quarter at
# most), each round dealt in up to ROUND_CHUNKS chunks for the threads to share
MIN_DEALS = 1 << 12
ROUND_CHUNKS = 16


def target_rounds(limit: int | None):
    """The chunk sizes of each round of a sampling that stops at a target standard error
    (at ``limit`` deals at most): fixed by the deals so far alone, never by the threads,
    so that the checks fall on the same deals and the answer is the same on any number."""
    total = 0
    while limit is None or total < limit:
        want = max(total // 4, MIN_DEALS)
        if limit is not None:
            want = min(want, limit - total)
        size = min(SAMPLE_CHUNK, max(MIN_DEALS, -(-want // ROUND_CHUNKS)))
        yield [size] * (want // size) + ([want % size] if want % size else [])
        total += want


def counted_rounds(limit: int | None, per_round: int):
    """Rounds of ``per_round`` whole chunks (the last cut at ``limit``): a count alone, and
    a target in stream version 1 (release 0.1.0 checked it every ``ROUND`` chunks)."""
    index = 0
    while limit is None or index * SAMPLE_CHUNK < limit:
        stop = index + per_round
        if limit is not None:
            stop = min(stop, -(-limit // SAMPLE_CHUNK))
        yield [SAMPLE_CHUNK if limit is None else min(SAMPLE_CHUNK, limit - i * SAMPLE_CHUNK)
               for i in range(index, stop)]
        index = stop


def sample_until(run, players: int, trials: int | None, target_stderr: float | None,
            threads: int, version: int = 2) -> Counts:
    """Monte Carlo chunks ``run(index, size)`` until ``trials`` or ``target_stderr``.

    Chunk ``index`` always holds the same deals (its stream is seeded from
    the index, its size fixed by the schedule), so the answer does not depend on how
    chunks meet threads.  A target standard error is checked after ``MIN_DEALS`` deals
    and then as the deals grow by a quarter (``target_rounds``), and met once every
    player's standard error is at most the target and at least ``1 / target`` deals are
    in (a share none of them showed may still be about one in that many); stream
    ``version`` 1 checks it every ``ROUND`` whole chunks, as release 0.1.0 did.
    """
    limit = trials if trials is not None else (None if target_stderr else DEFAULT_TRIALS)
    counts = Counts(players)
    planned(limit or 0, "deals sampled")
    if target_stderr is None:
        rounds = counted_rounds(limit, COUNTED_ROUND)
    elif version == 1:
        rounds = counted_rounds(limit, ROUND)
    else:
        rounds = target_rounds(limit)
    index = 0
    for sizes in rounds:
        check_interrupt()
        def done(i: int, sizes: list[int] = sizes) -> None:
            advanced(sizes[i])

        for part in map_items(lambda item: run(*item),
                              list(zip(range(index, index + len(sizes)), sizes)),
                              threads, done=done):
            counts.add(part)
        index += len(sizes)
        if (target_stderr is not None and max(counts.stderr()) <= target_stderr
                and (version == 1 or counts.boards * target_stderr >= 1)):
            break
    return counts
