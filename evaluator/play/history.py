"""Hand histories read back: ``replay()`` rebuilds a table from ``history()`` and checks
that it reaches the recorded result; ``HistoryError`` says what is wrong."""
from __future__ import annotations

import json
from typing import Any

from ..errors import EvaluatorError, HistoryError, check_type
from ..games import game as get_game
from .engine import Table
from .holdem import HoldemTable
from .teen_patti import TeenPattiTable
from .the import TheTable

__all__ = ["HistoryError", "replay"]


def replay(history: dict[str, Any] | str) -> Table:
    """Rebuild a table from ``history()`` (a dict or its JSON) by replaying every action.

    The history is checked first (its seats, a deck of the 52 cards once each,
    its actions).  Its ``result`` (as ``history()`` records it) must then be a
    dict with exactly the keys ``history()`` writes (``finished``, ``pot``,
    ``winners``, ``won``, ``put_in``), and the replayed table must reach it: a
    history whose deck or actions were changed raises ``HistoryError`` naming
    what differs, instead of a different hand.  A result that is ``None``,
    empty, lacks a key or has an unknown one is refused the same way.

    Only the history of a hand still in progress may leave the ``result`` out
    (one written by hand and stopped mid-way: there is nothing to reach yet);
    when its actions finish the hand, a missing result is a ``HistoryError``, so
    that deleting it cannot hide a changed deck.

    The result is checked as soon as it can be: its shape (a dict of known keys)
    before any action, its pot after every action (a pot only grows, so a replay
    that passes the recorded pot stops there), the rest at the end.  Each action
    costs the same however long the history (``Table.act`` copies no log), so a
    replay is linear in its actions.

    Parameters
    ----------
    history : dict or str
        What ``Table.history()`` returned, or ``Table.to_json()``'s text.

    Returns
    -------
    Table
        The table, in the state the history reached.

    Raises
    ------
    HistoryError
        A history that cannot be read or does not replay to its recorded result.

    Examples
    --------
    >>> from evaluator.play import HoldemTable, replay
    >>> table = HoldemTable(["ann", "bob", "cat"], seed=3)
    >>> table.act("call"); table.act("call"); table.act("check")
    >>> again = replay(table.to_json())
    >>> again.pot, again.name(again.to_act), again.events == table.events
    (6, 'bob', True)
    """
    record: Any = history           # decoded JSON: checked below, key by key
    if isinstance(history, str):
        try:
            record = json.loads(history)
        except json.JSONDecodeError as error:
            raise HistoryError(f"not a hand history: {error}", history[:40]) from None
    # JSON text that decodes to a string is no more a history than a list is
    check_type(record, dict, "history", "a hand history (dict or JSON text)")
    missing = [key for key in ("game", "seats", "dealer", "deck", "actions")
               if key not in record]
    if missing:
        raise HistoryError(f"not a hand history: no {missing[0]!r}", missing[0])
    config = record.get("config", {})
    for key, value, kinds in (("actions", record["actions"], list), ("config", config, dict),
                              ("deck", record["deck"], list)):
        if not isinstance(value, kinds):
            raise HistoryError(f"not a hand history: {key!r} is a {type(value).__name__}, "
                               f"not a {kinds.__name__}", key)
    game = get_game(record["game"]).name
    engines: dict[str, type[Table]] = {"teen_patti": TeenPattiTable, "the": TheTable}
    cls = engines.get(game, HoldemTable)
    config = dict(config, game=game) if cls is HoldemTable else dict(config)
    unknown = sorted(set(config) - set(cls.OPTIONS))
    if unknown:
        raise HistoryError(f"the history's config has an unknown option {unknown[0]!r} for "
                           f"{game} (known: {', '.join(cls.OPTIONS)})", unknown[0])
    try:
        table = cls(record["seats"], dealer=record["dealer"], deck=record["deck"], **config)
    except (EvaluatorError, TypeError) as error:
        raise HistoryError(f"the history's table cannot be set up: {error}", error) from error
    keys = list(table.result())              # the keys every result has, known before any action
    recorded = record.get("result")
    if "result" in record:                  # what the result's shape says needs no replay
        _check_result_keys(recorded, keys)
    pot = recorded.get("pot") if isinstance(recorded, dict) else None
    if not isinstance(pot, int) or isinstance(pot, bool):
        pot = None
    actions = record["actions"]
    for number, entry in enumerate(actions, 1):
        if not isinstance(entry, dict) or "kind" not in entry:
            raise HistoryError(f"action {number} of the history is not an action: {entry!r}",
                               entry)
        try:
            table.act(entry["kind"], entry.get("amount"), entry.get("card"))
        except (EvaluatorError, TypeError) as error:
            raise HistoryError(f"action {number} of the history ({entry}) cannot be replayed: "
                               f"{error}", entry) from error
        if pot is not None and table.pot > pot:     # the pot only grows: stop at once
            raise HistoryError(
                f"the history does not replay to its recorded result: pot {pot!r} recorded, "
                f"{table.pot!r} on replay already after action {number} of {len(actions)} "
                "(were the deck or the actions changed?)", "pot")
    replayed = table.result()
    if "result" not in record:
        if table.finished:
            raise HistoryError("the history records no 'result', but its actions finish the "
                               "hand: a finished hand's history must record its result (as "
                               "history() does)", "result")
        return table                        # a hand in progress: nothing to reach yet
    for key in replayed:
        if key in recorded and recorded[key] != replayed[key]:
            raise HistoryError(
                f"the history does not replay to its recorded result: {key} "
                f"{recorded[key]!r} recorded, {replayed[key]!r} on replay (were the deck "
                "or the actions changed?)", key)
    missing = [key for key in replayed if key not in recorded]
    if missing:
        what = "is empty" if not recorded else f"has no {missing[0]!r}"
        raise HistoryError(f"the history's result {what} (a result records "
                           f"{', '.join(replayed)})", missing[0])
    return table


def _check_result_keys(recorded: Any, keys: list[str]) -> None:
    """Refuse a recorded result that is not a dict, or has a key a result never has,
    before any action is replayed (whether its values are reached needs the replay)."""
    if not isinstance(recorded, dict):
        raise HistoryError(f"the history's 'result' is a {type(recorded).__name__}, not a dict "
                           f"of {', '.join(keys)}", recorded)
    unknown = sorted(map(str, set(recorded) - set(keys)))
    if unknown:
        raise HistoryError(f"the history's result has an unknown key {unknown[0]!r} "
                           f"(known: {', '.join(keys)})", unknown[0])
