"""Table procedures: deal, bet and show down a hand as the source documents describe.

Three engines share one shape: ``TeenPattiTable``, ``TheTable`` and
``HoldemTable`` (hold'em, Omaha, Omaha hi-lo, Pineapple, Crazy Pineapple,
Tahoe).  A table is created with its seats, the dealer (button) and a seed or
an explicit deck; ``legal_actions()`` lists what the player to act may do,
``act(kind, amount=None, card=None)`` does it, and an illegal action raises
``IllegalAction`` and leaves the state as it was.  ``history()`` is a JSON-ready
record (the deck, every action and the result) and ``replay(history)`` rebuilds
the same state, checking that it reaches the recorded result.  ``equity(seat)``
is that seat's equity from what it can see.

Arguments are checked before anything changes: a wrong Python type raises
``ArgumentTypeError`` (a ``TypeError``) and a bad value an ``EvaluatorError``
(a ``ValueError``), each naming the argument.  A table seats at most as many
players as its deck can serve: every hole card, board card and burn must come
out of one 52-card deck (6-card Omaha seats 7, 5-card Omaha 8).

Seats are numbered clockwise; "left of the dealer" is the next seat number.

>>> t = TeenPattiTable(["ann", "bob", "cat"], dealer=0, boot=1, seed=7)
>>> t.to_act, t.pot, t.stake
(1, 3, 1)
>>> t.act("bet", 2)                   # blind: 1x to 2x the stake, which becomes 2
>>> t.stake, t.to_act
(2, 2)
>>> t.act("bet", 1)
Traceback (most recent call last):
...
evaluator.play.IllegalAction: cat plays blind: bet 2 to 4 (the stake is 2), not 1

The package, file by file (each file imports only from those above it):

- ``engine.py``: what every table shares: ``Table`` (seats, deck, pot, turn
  order, ``act()`` that undoes a refused action, ``history()``), ``Seat``,
  ``IllegalAction`` and the argument checks.
- ``limits.py``: ``LimitTable``, fixed-limit betting rounds for The and hold'em.
- ``teen_patti.py``: ``TeenPattiTable``.
- ``the.py``: ``TheTable``.
- ``holdem.py``: ``HoldemTable`` (the hold'em family) and ``HoldemSession``
  (hands in a row, the moving button and Omaha kill pots).
- ``history.py``: ``replay()`` and its checks, ``HistoryError``.
- ``simulator.py``: the bots (``POLICIES``) and ``simulate()``.
"""
# "X as X": importable from here as before, though not in __all__ (the engines' base
# classes, the simulator's Teen Patti pot limit and its limits on ``hands``).
from .engine import IllegalAction
from .engine import Seat as Seat
from .engine import Table as Table
from .history import HistoryError, replay
from .holdem import HoldemSession, HoldemTable
from .limits import LimitTable as LimitTable
from .simulator import MAX_HANDS as MAX_HANDS
from .simulator import MAX_HISTORIES as MAX_HISTORIES
from .simulator import POLICIES, simulate
from .simulator import POT_LIMIT as POT_LIMIT
from .teen_patti import TeenPattiTable
from .the import TheTable

__all__ = ["IllegalAction", "HistoryError", "TeenPattiTable", "TheTable", "HoldemTable",
           "HoldemSession", "replay", "simulate", "POLICIES"]

# The errors are caught and read as evaluator.play.IllegalAction and
# evaluator.play.HistoryError (tracebacks print this path), wherever they are defined.
IllegalAction.__module__ = HistoryError.__module__ = __name__
