"""What a range text may cost: patterns of many variables list in seconds (numpy over
the bindings, no Python loop per binding).  Each case runs under a deadline (SIGALRM), so
a regression fails instead of hanging the suite."""
from __future__ import annotations

import random
import signal
import time
from contextlib import contextmanager

import numpy as np
import pytest

from evaluator import Range
from evaluator.errors import RangeError
from evaluator.ranges import card_masks

import reference

SECONDS = 20          # generous: every case here takes well under two seconds on one core


@contextmanager
def deadline(seconds: float = SECONDS):
    """Fail (TimeoutError) once ``seconds`` have passed, and check the time taken."""
    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.perf_counter() - start < seconds


def _suit_shapes(r: Range) -> np.ndarray:
    """Each combo's cards per suit, sorted: (n, 4)."""
    return np.sort(np.stack([(r.combos & 3 == s).sum(axis=1) for s in range(4)], axis=1),
                   axis=1)


# --- 1. patterns of many variables ------------------------------------------------------------

@pytest.mark.parametrize("text, game, count, shape", [
    # 5 different ranks in 4 suits, B and F sharing one: C(13,5) * 5!/2! * 4 = 308,880
    # (1,853,280 bindings, 2 min 18 s when each was a Python loop)
    ("BwCxDyEzFw", "omaha5", 308_880, [1, 1, 1, 2]),
    ("BxCyDzEwFx", "omaha5", 308_880, [1, 1, 1, 2]),
    # 6 ranks, two suits twice each: C(13,6) * 6!/(2!2!) * C(4,2) = 1,853,280 hands
    # (7,413,120 bindings: 10 min and 1.47 GB before)
    ("BwCxDyEzFwGx", "omaha6", 1_853_280, [1, 1, 2, 2]),
    ("BwCxDyEz", "omaha", 17_160, [1, 1, 1, 1]),            # 715 rank sets, 24 suit orders
])
def test_many_variables_list_in_seconds(text, game, count, shape):
    with deadline():
        r = Range(text, game)
    assert len(r) == count
    ranks = np.sort(r.combos >> 2, axis=1)
    assert (np.diff(ranks.astype(np.int64), axis=1) > 0).all()       # every rank different
    assert (_suit_shapes(r) == shape).all()


@pytest.mark.parametrize("text, game, hole", [
    ("BwCxDyEzFw", "omaha5", 5), ("BCxDxEyF", "omaha5", 5), ("BxCxDyEyF", "omaha5", 5),
    ("BxCxDyEyz", "omaha5", 5), ("xBxCyDyE", "omaha5", 5), ("BwCxDyEzFwGw", "omaha6", 6),
    ("BwCxDyEz", "omaha", 4), ("[A-9]xB[A-9]xC", "omaha", 4),
])
def test_many_variables_list_the_hands_the_brute_force_matches(text, game, hole):
    """Membership of random hands, and of listed ones, against tests/reference.py."""
    with deadline():
        combos = Range(text, game).combos
    listed = np.sort(card_masks(combos))                     # rows in order, masks too
    elements, macros = reference.parse_range_pattern(text, hole)
    rng = random.Random(hole * 7919 + len(text))
    sample = [sorted(rng.sample(range(52), hole)) for _ in range(300)]
    sample += [combos[i].tolist() for i in rng.sample(range(len(combos)), 200)]
    masks = card_masks(np.array(sample))
    inside = listed[np.minimum(np.searchsorted(listed, masks), len(listed) - 1)] == masks
    for hand, found in zip(sample, inside.tolist()):
        assert found == reference.pattern_matches(elements, macros, hand), hand


SWEEP = {
    "omaha": ["BCDE", "BwCxDyEz", "[K-T]B[K-T]C", "BxCx**", "*w*x*y*z", "[A-2]B[A-2]C",
              "BCxDxEy", "BwBxByBz"],
    "omaha5": ["BwCxDyEzFw", "BCDEF", "BwCxDyEz*", "[K-2]wBxCyDz*", "BBCCD", "xyzw*",
               "BwCw[A-2]xDx*", "RRO**", "BCD**", "BwCxDy**", "[A-T][A-T]***"],
    "omaha6": ["BwCxDyEzFwGx", "BCDEFG", "BwCxDyEzFwGw", "BwCxDyEz**", "[K-T]wBxCyDzEwFx",
               "BxCyDxEy**", "RROOSS", "xyzwxy", "BC****", "BwCxDyEzF*", "AK****",
               "[A-9]x[A-9]x[A-9]y[A-9]y**"],
    "teen_patti": ["BCD", "BwCxDy", "xyz"],
}


@pytest.mark.parametrize("game, text", [(g, t) for g, ts in SWEEP.items() for t in ts])
def test_every_pattern_lists_in_seconds_or_is_refused_at_once(game, text):
    """Many rank variables, many suit variables, spans with variables, 4- to 6-card
    games: each lists within the deadline, or is refused for too many hands, sooner."""
    with deadline():
        try:
            r = Range(text, game)
        except RangeError as error:
            assert "too many hands" in str(error) and "narrow it" in str(error)
        else:
            assert 0 < len(r) <= 4_000_000
