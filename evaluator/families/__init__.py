"""Game families: the one home of everything a game's way of making hands decides.

A game (``games.Game``) is a record: hole cards, streets, pot, deck.  Its ``family`` names
how a hand is made, and the family object here holds what follows from that: the kernels
that evaluate rows, enumerate and sample boards, its tables, whether it has combo vectors
or hold'em's range notation, its cost model, the kernel modules it compiles and the table
engine that deals it.  The engine, ``evaluate``, the studies, ``warmup`` and the command
line ask ``family(g)`` and never compare a rule or a game's name themselves
(``tests/test_layers.py`` greps for it).

=============  ==============================================================
``best5``      the best five of hole and board cards: hold'em, short deck,
               Pineapple, Crazy Pineapple, "The" (``families/best5.py``)
``omaha``      exactly two hole cards and three board cards, for the high and
               the 8-or-better low apart: Omaha 4/5/6, hi-lo, Courchevel
               (``families/omaha.py``)
``tahoe``      the best five using at most two of three hole cards
``teen_patti`` the three hole cards, by Teen Patti's ranking
=============  ==============================================================

Families fill count arrays the engine hands them (``hi_full``, ``low_counts``) and
return how many boards they counted; the engine builds results from them, so nothing
here imports the engine.

Adding a game of an existing family is a record in ``games.py`` (Courchevel: five hole
cards, Omaha's rule, a board of 0, 1, 3, 4 or 5 cards); a new way of making hands is a
family module here and its kernels.
"""
from __future__ import annotations

from functools import cache

from ..games import Game
from ._shared import multiset_tables, rank_multisets
from .base import Family
from .best5 import Best5
from .omaha import Omaha
from .tahoe import Tahoe
from .teen_patti import TeenPatti

__all__ = ["Family", "FAMILIES", "family", "rank_multisets", "multiset_tables"]

FAMILIES: dict[str, Family] = {f.name: f for f in (Best5(), Omaha(), Tahoe(), TeenPatti())}


@cache
def _of(name: str) -> Family:
    return FAMILIES[name]


def family(g: Game) -> Family:
    """The family of ``g`` (how its hands are made)."""
    return _of(g.family)
