"""The cost model that chooses between enumerating and sampling.

One model, in seconds: ``exact=None`` enumerates when that should take about
``EXACT_SECONDS`` at most, and ``exact=True`` refuses spots estimated past
``EXACT_SECONDS_MAX``.  The estimate is ``deal_seconds`` for deals walked or listed one
by one (known hands, and unknown hole cards dealt every way), and ``class_seconds`` per
suit class for ranges enumerated by classes.
"""
from __future__ import annotations

from ..families import family
from ..games import Game

EXACT_SECONDS = 3.0                # exact=None enumerates when it should take about this


EXACT_SECONDS_MAX = 600.0          # exact=True refuses spots longer than this


RANGE_TUPLE_LIMIT = 3_000_000      # combo tuples listed for an exact range equity


# beside ranges, a hand with more completions than this is dealt its unknown cards by the
# Monte Carlo sampler instead of listed (a listed range samples faster, but takes longer
# to list than to sample a million deals past this)
LISTED_COMPLETIONS = 50_000


CLASSES_PER_CALL = 2048           # suit classes per kernel call of an exact range equity, at most
SPAN_SECONDS = 0.05               # work per kernel call of an exact range equity


# a deal walked or listed one by one, at most: the slowest such path (hi-lo deals listed
# and evaluated in NumPy batches) takes 50-60 ns a deal on one core of the benchmark
# machine, best-five walks 20-30 ns; a margin of ten covers slower machines, so about
# 5 M deals are enumerated when exact=None
DEAL_SECONDS = 6e-7


def deal_seconds(deals: int) -> float:
    """Rough seconds to enumerate ``deals`` deals one by one."""
    return deals * DEAL_SECONDS


def enumerated(deals: int) -> bool:
    """Whether ``exact=None`` enumerates ``deals`` deals of known hands (else it samples):
    ``equity``'s choice, and a batch's for the known-hand queries it answers in bulk."""
    return deal_seconds(deals) <= EXACT_SECONDS


def class_seconds(g: Game, need: int, live: int) -> float:
    """Rough seconds for one exact spot, to decide between enumerating and sampling (the
    family's cost model)."""
    return family(g).class_seconds(g, need, live)


def duration(seconds: float) -> str:
    """An estimate past two minutes in words ('about 3 hours'), else ''."""
    for unit, name in ((86400, "days"), (3600, "hours"), (60, "minutes")):
        if seconds >= 2 * unit:
            return f"about {seconds / unit:,.0f} {name}"
    return ""
