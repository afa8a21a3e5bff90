"""The cost model that chooses between enumerating and sampling.

``exact=None`` enumerates when that should take a few seconds at most: by the number of
deals for known hands (``EXACT_LIMIT``), by an estimate of seconds per suit class for
ranges (``class_seconds``, ``EXACT_SECONDS``).  ``exact=True`` refuses spots far beyond
either (``EXACT_LIMIT * 20`` deals, ``EXACT_SECONDS_MAX``).
"""
from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np

from ..games import Game, Pot, Rule

EXACT_LIMIT = 5_000_000        # boards enumerated when exact=None


EXACT_SECONDS = 3.0                # exact=None enumerates when it should take about this


EXACT_SECONDS_MAX = 600.0          # exact=True refuses spots longer than this


RANGE_TUPLE_LIMIT = 3_000_000      # combo tuples listed for an exact range equity


# beside ranges, a hand with more completions than this is dealt its unknown cards by the
# Monte Carlo sampler instead of listed (a listed range samples faster, but takes longer
# to list than to sample a million deals past this)
LISTED_COMPLETIONS = 50_000


CLASSES_PER_CALL = 2048           # suit classes per kernel call of an exact range equity, at most
SPAN_SECONDS = 0.05               # work per kernel call of an exact range equity


def has_fused_kernel(g: Game) -> bool:
    """Games with a fused kernel: best five of at most seven cards, Tahoe (the best of
    three such hands) and Omaha.  (Asked several times a query: kept to plain reads.)"""
    rule = g.rule
    if rule is Rule.BEST5:
        return g.pot is Pot.HIGH and g.hole + g.streets[-1] <= 7
    return rule is Rule.OMAHA or rule is Rule.TAHOE


@cache
def rank_multisets(size: int) -> np.ndarray:
    """Every sorted multiset of ``size`` ranks, each rank at most four times."""
    rows = [c for c in itertools.combinations_with_replacement(range(13), size)
            if max(c.count(r) for r in set(c)) <= 4]
    out = np.array(rows, np.uint8).reshape(-1, size)
    out.flags.writeable = False
    return out


def class_seconds(g: Game, need: int, live: int) -> float:
    """Rough seconds for one exact spot, to decide between enumerating and sampling."""
    if need and (g.rule is Rule.OMAHA or (g.rule is Rule.BEST5 and has_fused_kernel(g))):
        return 4e-5 + 2.5e-7 * len(rank_multisets(need))
    if need and g.rule is Rule.TAHOE:             # walked in one batch call: 16-45 ns a board
        return 1e-6 + 3e-8 * math.comb(live, need)
    return 4e-5 + 3e-8 * math.comb(live, need)
