"""A seeded simulator: simple bots (``POLICIES``) play hands at any of the tables."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._sigint import interruptible, raise_if_pressed
from ..cards import DECK_SIZE, format_cards
from ..errors import EvaluatorError, check_type, integer
from ..games import game as get_game
from .engine import Table
from .holdem import HoldemSession, HoldemTable
from .teen_patti import TeenPattiTable
from .the import TheTable

__all__ = ["POLICIES", "POT_LIMIT", "MAX_HANDS", "MAX_HISTORIES", "simulate"]


Action = tuple[str, int | None, str | None]
"""What a policy returns: the arguments of ``Table.act`` (kind, amount, card)."""


def _turn(table: Table) -> int:
    """The seat to act at a table whose hand is not over."""
    assert table.to_act is not None, "a hand that is not over has a player to act"
    return table.to_act


def _passive(table: Table, rng: np.random.Generator) -> Action:
    """Check or call; never bet, raise or fold; Teen Patti: bet the minimum, show when two
    are left; Pineapple: discard the lowest card."""
    kinds = {a["kind"]: a for a in table.legal_actions()}
    if "discard" in kinds:
        cards = table.seats[_turn(table)].cards
        return "discard", None, format_cards([min(cards)])
    if "accept" in kinds:
        return "refuse", None, None
    if "show" in kinds:
        return "show", None, None
    if "bet" in kinds and "min" in kinds["bet"]:
        return "bet", kinds["bet"]["min"], None
    return ("check" if "check" in kinds else "call"), None, None


def _random(table: Table, rng: np.random.Generator) -> Action:
    """A uniformly random legal action (fold at most a tenth of the time)."""
    actions = table.legal_actions()
    choices = [a for a in actions if a["kind"] not in ("fold", "pack", "look")] or actions
    if rng.random() < 0.1 and any(a["kind"] in ("fold", "pack") for a in actions):
        choices = [a for a in actions if a["kind"] in ("fold", "pack")]
    a = choices[int(rng.integers(len(choices)))]
    if a["kind"] == "discard":
        cards = table.seats[_turn(table)].cards
        return "discard", None, format_cards([cards[int(rng.integers(len(cards)))]])
    if "min" in a:
        return a["kind"], int(rng.integers(a["min"], a["max"] + 1)), None
    return a["kind"], None, None


def _strength(table: Table, rng: np.random.Generator) -> Action:
    """Bet or raise with 60% equity or more, call with 35%, else fold (Teen Patti: look first,
    then bet the minimum or pack; show with two left).  Equity from what the player sees,
    sampled with 2,000 deals."""
    kinds = {a["kind"]: a for a in table.legal_actions()}
    if "look" in kinds:
        return "look", None, None
    if "discard" in kinds or "accept" in kinds:
        return _passive(table, rng)
    eq = table.equity(_turn(table), trials=2_000, seed=int(rng.integers(1 << 31)))
    if "show" in kinds:
        return "show", None, None
    if "bet" in kinds and "min" in kinds["bet"]:
        return ("bet", kinds["bet"]["min"], None) if eq >= 0.3 else ("pack", None, None)
    if eq >= 0.6 and ({"bet", "raise"} & set(kinds)):
        return ("bet" if "bet" in kinds else "raise"), None, None
    if "check" in kinds:
        return "check", None, None
    return ("call", None, None) if eq >= 0.35 else ("fold", None, None)


POLICIES: dict[str, Callable[[Table, np.random.Generator], Action]] = {
    "passive": _passive, "random": _random, "strength": _strength}
"""The bots ``simulate`` can seat, by name: ``"passive"`` checks or calls and never folds
(Teen Patti: bets the least, shows when two are left), ``"random"`` takes a random legal
action (folding at most a tenth of the time) and ``"strength"`` bets or raises with 60%
equity or more, calls with 35% and folds below (its equity sampled from what it sees)."""


POT_LIMIT = 100
"""Teen Patti hands in ``simulate`` stop at a pot of this many boots (see ``TeenPattiTable``)."""


MAX_HANDS = 1_000_000
"""The most hands one ``simulate`` call plays: at a millisecond or more a hand, that is
already a quarter of an hour or more; larger counts are refused at once."""

MAX_HISTORIES = 10_000
"""The most hands ``simulate`` plays while keeping their histories (about 7 KB each, some
70 MB in all); ``histories=False`` plays up to ``MAX_HANDS`` in constant memory."""


def simulate(game: str, names: list[str], *, hands: int = 100, seed: int = 0,
             policies: dict[str, str] | None = None, max_actions: int = 400,
             histories: bool = True, **stakes: Any) -> dict[str, Any]:
    """Play ``hands`` hands with simple policies (``POLICIES``; default passive).

    The button (dealer) moves left after each hand and Omaha kills apply.
    ``stakes`` are the table's options: ``boot`` and ``pot_limit`` (Teen Patti),
    ``ante`` and ``bet`` (The), ``small_blind``, ``big_blind`` and ``small_bet``
    (the hold'em family).  Teen Patti has no betting limit of its own, so its
    hands are played with ``pot_limit`` = ``POT_LIMIT`` boots unless ``stakes``
    say otherwise: at that pot everyone still in shows.  A hand that takes
    more than ``max_actions`` actions (possible only with ``pot_limit=None``)
    raises ``EvaluatorError``.  Returns each player's net chips, the hands won
    and the histories (an empty list with ``histories=False``).

    ``hands`` is at most ``MAX_HANDS`` (1,000,000), and at most ``MAX_HISTORIES``
    (10,000) while the histories are kept: more is refused at once, before any
    hand is played, instead of running for hours or filling the memory.  The
    loop is plain Python, so Ctrl-C (``KeyboardInterrupt``) stops it between
    two actions.

    Parameters
    ----------
    game : str
        Any game with a table: ``"teen_patti"``, ``"the"`` or one of the hold'em family.
    names : list of str
        The players, clockwise.
    hands : int
        The hands to play.
    seed : int
        Seeds the decks and the policies' choices: the same seed plays the same hands.
    policies : dict of str to str, optional
        A policy name from ``POLICIES`` for each player named (default ``"passive"``).
    max_actions : int
        The most actions one hand may take.
    histories : bool
        Keep every hand's history.
    **stakes
        The table's options.

    Returns
    -------
    dict
        ``game``, ``hands``, ``seed``, each player's ``net`` chips, the hands each
        ``wins`` and the ``histories``.

    Examples
    --------
    >>> from evaluator.play import simulate
    >>> out = simulate("teen_patti", ["ann", "bob", "cat"], hands=50, seed=1,
    ...                policies={"ann": "random"}, histories=False)
    >>> out["net"], out["wins"]
    ({'ann': -500, 'bob': -46, 'cat': 546}, {'ann': 6, 'bob': 21, 'cat': 23})
    """
    check_type(game, str, "game", "a game name")
    game = get_game(game).name
    hands = integer(hands, "hands", 0)
    check_type(histories, bool, "histories", "True or False")
    if hands > MAX_HANDS:
        raise EvaluatorError(f"hands must be at most {MAX_HANDS:,}, got {hands:,}: at a "
                             "millisecond or more a hand, more would run for hours "
                             "(split the run into several calls with other seeds)", hands)
    if histories and hands > MAX_HISTORIES:
        raise EvaluatorError(f"hands must be at most {MAX_HISTORIES:,} while the histories "
                             f"are kept (about 7 KB a hand), got {hands:,}: pass "
                             f"histories=False to play up to {MAX_HANDS:,} hands "
                             "in constant memory", hands)
    seed = integer(seed, "seed", 0)
    max_actions = integer(max_actions, "max_actions", 1)
    engines: dict[str, type[Table]] = {"teen_patti": TeenPattiTable, "the": TheTable}
    cls = engines.get(game, HoldemTable)
    options = set(cls.OPTIONS) - {"game", "kill"}
    unknown = sorted(set(stakes) - options)
    if unknown:
        raise EvaluatorError(f"unknown stake {unknown[0]!r} for {game} (known: "
                             + ", ".join(sorted(options)) + ")", unknown[0])
    if cls is TeenPattiTable and "pot_limit" not in stakes:
        stakes["pot_limit"] = POT_LIMIT * integer(stakes.get("boot", 1), "boot", 1)
    rng = np.random.default_rng(seed)
    session = HoldemSession(names, game=game, seed=seed, **stakes) \
        if cls is HoldemTable else None
    if session is None:
        cls(names, seed=0, **stakes)                    # every argument checked up front
    policies = {} if policies is None else policies
    check_type(policies, dict, "policies", "a dict of seat name -> policy name")
    for who, policy in policies.items():
        if who not in names:
            raise EvaluatorError(f"policies names {who!r}, who has no seat", who)
        if policy not in POLICIES:
            raise EvaluatorError(f"unknown policy {policy!r} (policies: "
                                 + ", ".join(POLICIES) + ")", policy)
    net = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    kept: list[dict[str, Any]] = []
    dealer = 0
    with interruptible():
        for _ in range(hands):
            deck = rng.permutation(DECK_SIZE).tolist()
            table = session.new_hand() if session is not None else \
                cls(names, dealer=dealer, deck=deck, **stakes)
            steps = 0
            while not table.finished:
                who = table.name(_turn(table))
                kind, amount, card = POLICIES[policies.get(who, "passive")](table, rng)
                table.act(kind, amount, card)
                raise_if_pressed()          # a Ctrl-C whose exception a gc callback ate
                steps += 1
                if steps > max_actions:
                    raise EvaluatorError(f"a simulated hand took more than {max_actions} actions",
                                         steps)
            for s in table.seats:
                net[s.name] += s.won - s.put_in
            for w in table.winners:
                wins[table.name(w)] += 1
            if histories:
                kept.append(table.history())
            if session is not None:
                assert isinstance(table, HoldemTable)       # the session dealt it
                session.finish_hand(table)
            dealer = (dealer + 1) % len(names)
    return {"game": game, "hands": hands, "seed": seed, "net": net, "wins": wins,
            "histories": kept}
