"""Real hands: read hand histories (PHH and PokerStars text), replay their chips, and give
every all-in its exact EV.

>>> from evaluator.histories import read_histories, allin_ev, summarize
>>> rows = list(allin_ev(read_histories("hands/"), on_error="record"))  # doctest: +SKIP
>>> players, problems = summarize(rows)                                 # doctest: +SKIP

The modules, each importing only from those above it:

- ``hand.py``: ``Hand``, ``Action``, ``HandProblem`` and ``Problem``;
- ``phh.py``: the PHH format, read and written (``dumps``);
- ``pokerstars.py``: PokerStars text;
- ``reading.py``: files, folders and standard input, their encodings and formats;
- ``replay.py``: the chips of a hand, action by action, its pots and showdown;
- ``allin.py``: all-in EV rows and each player's summary;
- ``from_play.py``: ``evaluator.play`` hands as ``Hand`` records (and so as PHH);
- ``output.py``, ``run.py``: rows to files, resumed; many files over processes or Dask.
"""
from .allin import (
    AllinRow,
    PlayerSummary,
    StreetEquity,
    allin_ev,
    allin_rows,
    hand_equities,
    hand_rows,
    summarize,
)
from .from_play import play_hand
from .hand import Action, Hand, HandProblem, Problem
from .phh import dumps
from .reading import history_files, parse_histories, read_histories
from .replay import Pot, Replayed, replay

__all__ = ["read_histories", "parse_histories", "history_files", "replay", "allin_ev",
           "allin_rows", "hand_rows", "hand_equities", "summarize", "dumps", "play_hand",
           "Hand", "Action", "HandProblem", "Problem", "Pot", "Replayed", "AllinRow",
           "PlayerSummary", "StreetEquity"]
