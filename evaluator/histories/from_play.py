"""``evaluator.play`` hands as ``Hand`` records, and so as PHH (``phh.dumps``): a table's
``history()``, or each hand of ``simulate``, replayed action by action to find who acted,
what each bet came to and when each street was dealt.

The table plays fixed limit without stacks (no one is ever all in); its PHH gives every
player ``STACK_BIG_BLINDS`` big blinds, more than its limits let anyone put in, and the
finishing stacks that follow.  Hold'em, Omaha and Omaha hi-lo (``FT``, ``FO``, ``FO/8``)
are written, a kill pot's blind as a straddle with the limits doubled; a game PHH has no
code for, or a button blind, is refused, naming it.
"""
from __future__ import annotations

from typing import Any

from ..errors import EvaluatorError
from ..games import game as game_of
from .hand import Action, Hand

__all__ = ["play_hand", "STACK_BIG_BLINDS"]

STACK_BIG_BLINDS = 1000
PLAY_CODES = {"holdem": "FT", "omaha": "FO", "omaha8": "FO/8"}


def play_hand(history: dict[str, Any], source: str = "play", index: int = 0) -> Hand:
    """The ``Hand`` of a finished ``evaluator.play`` hold'em, Omaha or Omaha hi-lo hand
    (``Table.history()``, or an entry of ``simulate(...)["histories"]``).

    >>> from evaluator.play import HoldemTable
    >>> from evaluator.histories import dumps, play_hand
    >>> table = HoldemTable(["ann", "bob"], seed=3)
    >>> table.act("fold")
    >>> print(dumps(play_hand(table.history())).splitlines()[5])
    starting_stacks = [2000, 2000]
    """
    from ..play import replay
    from ..play.holdem import HoldemTable
    code = PLAY_CODES.get(history.get("game", ""))
    if code is None or history.get("game_options"):
        raise EvaluatorError(f"PHH has no code for the table's game {history.get('game')!r} "
                             f"(written: {', '.join(PLAY_CODES)})", history.get("game"))
    config = history.get("config", {})
    if config.get("button_blind") is not None:
        raise EvaluatorError("a hand with a button blind has no PHH form", "button_blind")
    result = history.get("result") or {}
    if not result.get("finished"):
        raise EvaluatorError("the hand is not finished: PHH records whole hands", "result")
    table = replay({key: value for key, value in history.items() if key != "result"}
                   | {"actions": []})
    assert isinstance(table, HoldemTable)        # the games written are hold'em's family
    n = len(table.seats)
    # PHH's order: the seat after the button first, the button last
    order = [(table.dealer + 1 + k) % n for k in range(n)]
    where = {seat: p for p, seat in enumerate(order)}
    big = int(config.get("big_blind", table.big_blind))
    small = int(config.get("small_blind", table.small_blind))
    blinds = [0.0] * n
    blinds[where[table.sb_seat]] = small
    blinds[where[table.bb_seat]] = big
    if table.kill is not None:              # a kill blind: a straddle, and doubled limits
        blinds[where[table.kill]] = 2 * big
    if n == 2:                              # heads-up: written as PHH writes them, reversed
        blinds = blinds[::-1]
    actions = [Action(p, "hole", None, tuple(table.seats[seat].cards), 0)
               for p, seat in enumerate(order)]
    board = 0
    first = where[table.to_act] if table.to_act is not None else None
    for step in history["actions"]:
        seat = table.to_act
        if seat is None:
            raise EvaluatorError("an action after the hand ended", step)
        kind = step.get("kind")
        table.act(kind, step.get("amount"), step.get("card"))
        if kind == "fold":
            actions.append(Action(where[seat], "fold", None, (), 0))
        elif kind in ("check", "call"):
            actions.append(Action(where[seat], "call", None, (), 0))
        elif kind in ("bet", "raise"):
            actions.append(Action(where[seat], "raise", float(table.current), (), 0))
        else:
            raise EvaluatorError(f"PHH has no form of the table's {kind!r}", kind)
        if len(table.board) > board:
            actions.append(Action(None, "board", None, tuple(table.board[board:]), 0))
            board = len(table.board)
    shown = [seat for seat in order if table.seats[seat].active]
    if len(shown) > 1:
        for seat in _showdown_order(table, shown):
            actions.append(Action(where[seat], "show", None, tuple(table.seats[seat].cards), 0))
    stack = float(STACK_BIG_BLINDS * big)
    g = game_of(history["game"])
    return Hand(source=source, index=index, line=0, variant=code, game=g,
                players=[table.seats[seat].name for seat in order],
                starting_stacks=[stack] * n, antes=[float(config.get("ante", 0))] * n,
                blinds=blinds, limit="fixed", actions=actions, big_blind=float(big),
                finishing_stacks=[stack - table.seats[s].put_in + table.seats[s].won
                                  for s in order], first_to_act=first,
                extra={"small_bet": float(table.small_bet * table.stakes),
                       "big_bet": float(2 * table.small_bet * table.stakes)})


def _showdown_order(table, shown: list[int]) -> list[int]:
    """The order hands are shown in: the river's last bettor first, else the first
    player after the button, then round the table."""
    first = table.aggressor if table.aggressor in shown else shown[0]
    at = shown.index(first)
    return shown[at:] + shown[:at]
