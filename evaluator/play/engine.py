"""The machinery every table shares: seats, deck, pot, turn order, history and act/undo.

``Table`` is the base of every engine (``TeenPattiTable`` directly, ``TheTable``
and ``HoldemTable`` through ``LimitTable``).  ``act()`` checks its arguments,
runs the engine's ``_act()`` and puts the table back as it was if that raises;
``history()`` records the deck and every action for ``replay()``.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Required, TypedDict

import numpy as np

from ..cards import DECK_SIZE, CardsLike, format_cards, parse_cards
from ..engine import equity
from ..errors import EvaluatorError, IllegalAction, check_type, integer, optional_integer

__all__ = ["IllegalAction", "LegalAction", "Seat", "Table"]


class LegalAction(TypedDict, total=False):
    """One entry of ``legal_actions()``: the action's name and, where it has them, its
    fixed ``amount``, its ``min`` to ``max`` bet, its ``cost`` and whom it ``asks``."""
    kind: Required[str]
    amount: int
    min: int
    max: int
    cost: int
    asks: str
    cards: str


@dataclass
class Seat:
    name: str
    cards: list[int] = field(default_factory=list)
    active: bool = True          # still in the hand
    put_in: int = 0              # chips put into the pot this hand
    round_bet: int = 0           # chips put in during the current betting round
    seen: bool = True            # Teen Patti: has looked at the cards
    discarded: list[int] = field(default_factory=list)
    won: int = 0


class Table:
    """What every table shares: seats, deck, pot, turn order, history and replay.

    Not made directly: ``TeenPattiTable``, ``TheTable`` and ``HoldemTable`` are tables,
    and each takes the seat names, ``dealer``, ``seed`` and ``deck`` described here.

    Parameters
    ----------
    names : list of str
        The players' names, one per seat, clockwise; distinct and not blank.
    dealer : int
        The dealer's (button's) seat; "left of the dealer" is the next seat number.
    seed : int, optional
        Shuffles the deck (the same seed deals the same hand).
    deck : cards, optional
        The whole deck in dealing order, instead of a shuffle.

    Attributes
    ----------
    seats : list
        Each seat's ``name``, ``cards`` (card ids), whether it is still ``active`` in
        the hand, the chips it has ``put_in`` and ``won``.
    to_act : int or None
        The seat whose turn it is (``None`` once the hand is over).
    pot : int
        The chips in the pot.
    finished : bool
        Whether the hand is over.
    winners : list of int
        The seats that won, once it is over.
    events : list of str
        A readable account of the hand (``"ann calls 2"``, ``"board: Kc 7s Jh"``).

    Examples
    --------
    >>> from evaluator.play import HoldemTable
    >>> table = HoldemTable(["ann", "bob", "cat"], seed=3)
    >>> table.name(table.to_act), table.pot, table.legal_actions()
    ('ann', 3, [{'kind': 'fold'}, {'kind': 'call', 'amount': 2}, {'kind': 'raise', 'amount': 4}])
    >>> table.act("call"); table.act("call"); table.act("check")
    >>> table.events[-1]
    'board: Kc 7s Jh'
    >>> table.visible(0)
    {'game': 'holdem', 'hands': ['2hQs', 'random', 'random'], 'board': 'Kc7sJh', 'dead': ''}
    """
    game = "?"
    OPTIONS: tuple[str, ...] = ()       # the keyword options of the engine's table
    #: the lists an action only appends to, which ``act()`` undoes by cutting them back
    #: to their length instead of copying them
    _GROWING: tuple[str, ...] = ("log", "events")

    def __init__(self, names: list[str], *, dealer: int = 0, seed: int | None = None,
                 deck: CardsLike | None = None) -> None:
        check_type(names, (list, tuple), "names", "a list of seat names")
        for name in names:
            check_type(name, str, "names", "a list of seat names (str)")
        limit = self.seat_limit()
        cards = self.deck_cards()
        if not 2 <= len(names) <= limit:
            why = "" if limit == self.max_players() else (
                f" ({self.deals()} must come out of one {len(cards)}-card deck)")
            raise EvaluatorError(f"{self.game} seats 2 to {limit} players{why}, "
                                 f"got {len(names)}", len(names))
        for number, name in enumerate(names):
            if not name.strip():            # "" and "  " alike: a name must show who it is
                raise EvaluatorError(f"seat names must not be blank: seat {number} is "
                                     f"named {name!r}", name)
            if name in names[:number]:
                raise EvaluatorError(f"seat names must differ: {name!r} is given twice", name)
        dealer = integer(dealer, "dealer", 0, len(names) - 1)
        seed = optional_integer(seed, "seed", 0)
        order: list[int]
        if deck is None:
            shuffled = np.random.default_rng(seed).permutation(len(cards))
            order = np.array(cards)[shuffled].tolist()
        else:
            check_type(deck, (str, list, tuple, np.ndarray), "deck",
                       "card text, a list of cards or an array of card ids")
            order = parse_cards(deck, count=len(cards), what="the deck").tolist()
            outside = [c for c in order if c not in set(cards)]
            if outside:
                name = format_cards(outside[:1])
                raise EvaluatorError(f"the deck holds {name}, which this game's "
                                     f"{len(cards)}-card deck leaves out", name)
        self.seats = [Seat(n) for n in names]
        self.dealer = dealer
        self.deck = order
        self.next_card = 0
        self.pot = 0
        self.to_act: int | None = None
        self.finished = False
        self.log: list[dict[str, Any]] = []    # every action, for history() and replay()
        self.events: list[str] = []        # readable account of the hand
        self.winners: list[int] = []

    # --- helpers ---
    def max_players(self) -> int:
        """The most seats the rules allow, whatever the deck."""
        return 10

    def cards_needed(self, players: int) -> int:
        """The cards a hand with ``players`` players can take from the deck."""
        raise NotImplementedError

    def deck_cards(self) -> tuple[int, ...]:
        """The card ids of the deck the table shuffles (the 52, unless the game has fewer)."""
        return tuple(range(DECK_SIZE))

    def deals(self) -> str:
        """What the hand takes from the deck, in words."""
        raise NotImplementedError

    def seat_limit(self) -> int:
        """The most players: ``max_players()``, fewer when their cards would not fit the deck."""
        players = self.max_players()
        while self.cards_needed(players) > len(self.deck_cards()):
            players -= 1
        return players

    def _seat(self, seat: object, argument: str = "seat") -> int:
        return integer(seat, argument, 0, len(self.seats) - 1)

    def draw(self) -> int:
        card = self.deck[self.next_card]
        self.next_card += 1
        return card

    def left_of(self, seat: int, active_only: bool = True) -> int:
        """The next seat clockwise (optionally the next one still in the hand)."""
        n = len(self.seats)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if not active_only or self.seats[s].active:
                return s
        return seat

    def active(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.active]

    def pay(self, seat: int, amount: int) -> None:
        s = self.seats[seat]
        s.put_in += amount
        s.round_bet += amount
        self.pot += amount

    def pay_dead(self, seat: int, amount: int) -> None:
        """Chips into the pot that are no part of a bet (an ante)."""
        self.seats[seat].put_in += amount
        self.pot += amount

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    # --- the public surface ---
    def legal_actions(self) -> list[LegalAction]:
        """What the player to act may do: one dict per action, with its ``kind`` and,
        where it has them, its fixed ``amount``, its ``min`` to ``max`` bet, its
        ``cost``, whom it ``asks`` or the ``cards`` to choose from; empty once the hand
        is over."""
        raise NotImplementedError

    def act(self, kind: str, amount: int | None = None,
            card: CardsLike | int | None = None) -> None:
        """Do one action for the player to act.

        ``kind`` is an action name from ``legal_actions()``; ``amount`` a number of
        chips (where the action takes one); ``card`` the card of a ``discard``.  An
        error of any kind (``IllegalAction``, a bad card, a wrong type) leaves the
        table as it was.
        """
        check_type(kind, str, "kind", "an action name (str)")
        amount = optional_integer(amount, "amount")
        if card is not None:
            check_type(card, (str, list, tuple, np.ndarray, int, np.integer), "card",
                       "card text or a card id")
            card = format_cards(parse_cards(
                [card] if isinstance(card, (int, np.integer)) else card, what="the card"))
            if kind != "discard":
                raise IllegalAction(f"only a discard names a card, not {kind!r}", card)
        if self.finished:
            raise IllegalAction("the hand is over", kind)
        # the growing lists are kept by their lengths, the rest copied: copying the whole
        # log per action made a hand (and its replay) quadratic in its actions
        growing = {name: self.__dict__[name] for name in self._GROWING}
        lengths = {name: len(items) for name, items in growing.items()}
        before = copy.deepcopy({k: v for k, v in self.__dict__.items() if k not in growing})
        try:
            self._act(kind, amount, card)
        except BaseException:
            for name, items in growing.items():
                del items[lengths[name]:]
            self.__dict__.clear()
            self.__dict__.update(before)
            self.__dict__.update(growing)
            raise
        entry: dict[str, Any] = {"kind": kind}
        if amount is not None:
            entry["amount"] = amount
        if card is not None:
            entry["card"] = card
        self.log.append(entry)

    def _act(self, kind: str, amount: int | None, card: str | None) -> None:
        raise NotImplementedError

    def config(self) -> dict[str, Any]:
        return {}

    def history(self) -> dict[str, Any]:
        """A JSON-ready hand history: the table, the deck, every action and the result."""
        return {"game": self.game, "seats": [s.name for s in self.seats],
                "dealer": self.dealer, "config": self.config(),
                "deck": format_cards(self.deck, sep=" ").split(), "actions": list(self.log),
                "result": self.result()}

    def to_json(self) -> str:
        """``history()`` as JSON text, which ``replay`` also takes."""
        return json.dumps(self.history(), indent=2)

    def result(self) -> dict[str, Any]:
        """Where the hand stands: ``finished``, ``pot``, the ``winners``' names, the
        chips each seat ``won`` and has ``put_in``."""
        return {"finished": self.finished, "pot": self.pot,
                "winners": [self.name(w) for w in self.winners],
                "won": {s.name: s.won for s in self.seats if s.won},
                "put_in": {s.name: s.put_in for s in self.seats}}

    def visible(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: the game, its hand and ``"random"`` for each opponent still
        in, the board and its dead cards, as ``equity()`` takes them."""
        return self._visible(self._seat(seat))

    def _visible(self, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def equity(self, seat: int, *, trials: int | None = 100_000, seed: int = 0,
               version: int | None = None) -> float:
        """The seat's equity in the pot from what it can see (unknown cards are random),
        sampled with ``seed`` in Monte Carlo stream ``version`` (``equity``'s).

        Asked of a seat that has folded or packed, or once the hand is over, it raises
        ``IllegalAction`` saying so (and who is still in), rather than an equity of a
        hand that no longer has two players."""
        seat = self._seat(seat)
        if self.finished:
            won = " and ".join(self.name(w) for w in self.winners) or "no one"
            raise IllegalAction(f"the hand is over ({won} won): there is no equity to "
                                f"compute for {self.name(seat)}", seat)
        if not self.seats[seat].active:
            still = ", ".join(self.name(i) for i in self.active())
            folded = "packed" if self.game == "teen_patti" else "folded"
            raise IllegalAction(f"{self.name(seat)} has {folded}: no equity in this pot "
                                f"(still in: {still})", seat)
        view = self.visible(seat)
        rules = getattr(self, "rules", None)         # a game made with options keeps them
        game = rules if rules is not None and view["game"] == rules.name else view["game"]
        result = equity(game, view["hands"], view["board"], view["dead"],
                        trials=trials, seed=seed, version=version)
        return result.players[0].equity

    def _need_turn(self) -> int:
        if self.to_act is None:
            raise IllegalAction("no one is to act", None)
        return self.to_act
