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
evaluator.table.IllegalAction: cat plays blind: bet 2 to 4 (the stake is 2), not 1
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field

import numpy as np

from .cards import DECK_SIZE, format_cards, parse_cards
from .errors import EvaluatorError, check_type

__all__ = ["IllegalAction", "HistoryError", "TeenPattiTable", "TheTable", "HoldemTable",
           "HoldemSession", "replay", "simulate", "POLICIES"]


class IllegalAction(EvaluatorError):
    """An action the rules do not allow now; the table is unchanged."""


class HistoryError(EvaluatorError):
    """A hand history that cannot be read, or that does not replay to the result it records."""


def _integer(value, argument: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int: ``ArgumentTypeError`` unless it is an integer (never a bool),
    ``EvaluatorError`` outside ``low..high``."""
    check_type(value, (int, np.integer), argument, "an integer")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"at least {low}" if high is None else f"{low} to {high}"
        raise EvaluatorError(f"{argument} must be {bounds}, got {value}", value)
    return value


def _optional(value, argument: str, low: int | None = None, high: int | None = None):
    """``_integer`` that lets ``None`` through."""
    return None if value is None else _integer(value, argument, low, high)


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
    """What every engine shares: seats, deck, pot, turn order, history and replay."""
    game = "?"

    def __init__(self, names: list[str], *, dealer: int = 0, seed: int | None = None,
                 deck: list | None = None) -> None:
        check_type(names, (list, tuple), "names", "a list of seat names")
        for name in names:
            check_type(name, str, "names", "a list of seat names (str)")
        limit = self.seat_limit()
        if not 2 <= len(names) <= limit:
            why = "" if limit == self.max_players() else (
                f" ({self.deals()} must come out of one {DECK_SIZE}-card deck)")
            raise EvaluatorError(f"{self.game} seats 2 to {limit} players{why}, "
                                 f"got {len(names)}", len(names))
        if len(set(names)) != len(names) or not all(names):
            raise EvaluatorError("seat names must be non-empty and differ", names)
        dealer = _integer(dealer, "dealer", 0, len(names) - 1)
        seed = _optional(seed, "seed", 0)
        if deck is None:
            deck = np.random.default_rng(seed).permutation(DECK_SIZE).tolist()
        else:
            check_type(deck, (str, list, tuple, np.ndarray), "deck",
                       "card text, a list of cards or an array of card ids")
            deck = parse_cards(deck, count=DECK_SIZE, what="a deck").tolist()
        self.seats = [Seat(n) for n in names]
        self.dealer = dealer
        self.deck = deck
        self.next_card = 0
        self.pot = 0
        self.to_act: int | None = None
        self.finished = False
        self.log: list[dict] = []          # every action, for history() and replay()
        self.events: list[str] = []        # readable account of the hand
        self.winners: list[int] = []

    # --- helpers ---
    def max_players(self) -> int:
        """The most seats the rules allow, whatever the deck."""
        return 10

    def cards_needed(self, players: int) -> int:
        """The cards a hand with ``players`` players can take from the deck."""
        raise NotImplementedError

    def deals(self) -> str:
        """What the hand takes from the deck, in words."""
        raise NotImplementedError

    def seat_limit(self) -> int:
        """The most players: ``max_players()``, fewer when their cards would not fit the deck."""
        players = self.max_players()
        while self.cards_needed(players) > DECK_SIZE:
            players -= 1
        return players

    def _seat(self, seat, argument: str = "seat") -> int:
        return _integer(seat, argument, 0, len(self.seats) - 1)

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

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    # --- the public surface ---
    def legal_actions(self) -> list[dict]:
        raise NotImplementedError

    def act(self, kind: str, amount: int | None = None, card=None) -> None:
        """Do one action for the player to act.

        ``kind`` is an action name from ``legal_actions()``; ``amount`` a number of
        chips (where the action takes one); ``card`` the card of a ``discard``.  An
        error of any kind (``IllegalAction``, a bad card, a wrong type) leaves the
        table as it was.
        """
        check_type(kind, str, "kind", "an action name (str)")
        amount = _optional(amount, "amount")
        if card is not None:
            check_type(card, (str, list, tuple, np.ndarray, int, np.integer), "card",
                       "card text or a card id")
            card = format_cards(parse_cards(
                [card] if isinstance(card, (int, np.integer)) else card, what="the card"))
            if kind != "discard":
                raise IllegalAction(f"only a discard names a card, not {kind!r}", card)
        if self.finished:
            raise IllegalAction("the hand is over", kind)
        before = copy.deepcopy(self.__dict__)
        try:
            self._act(kind, amount, card)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(before)
            raise
        entry = {"kind": kind}
        if amount is not None:
            entry["amount"] = amount
        if card is not None:
            entry["card"] = card
        self.log.append(entry)

    def _act(self, kind: str, amount: int | None, card) -> None:
        raise NotImplementedError

    def config(self) -> dict:
        return {}

    def history(self) -> dict:
        """A JSON-ready hand history: the table, the deck, every action and the result."""
        return {"game": self.game, "seats": [s.name for s in self.seats],
                "dealer": self.dealer, "config": self.config(),
                "deck": format_cards(self.deck, sep=" ").split(), "actions": list(self.log),
                "result": self.result()}

    def to_json(self) -> str:
        return json.dumps(self.history(), indent=2)

    def result(self) -> dict:
        return {"finished": self.finished, "pot": self.pot,
                "winners": [self.name(w) for w in self.winners],
                "won": {s.name: s.won for s in self.seats if s.won},
                "put_in": {s.name: s.put_in for s in self.seats}}

    def visible(self, seat: int) -> dict:
        """What ``seat`` sees: the game, its hand and ``"random"`` for each opponent still
        in, the board and its dead cards, as ``equity()`` takes them."""
        return self._visible(self._seat(seat))

    def _visible(self, seat: int) -> dict:
        raise NotImplementedError

    def equity(self, seat: int, *, trials: int | None = 100_000, seed: int = 0) -> float:
        """The seat's equity in the pot from what it can see (unknown cards are random)."""
        from .equity import equity
        view = self.visible(seat)
        result = equity(view["game"], view["hands"], view["board"], view["dead"],
                        trials=trials, seed=seed)
        return result.players[0].equity

    def _need_turn(self) -> int:
        if self.to_act is None:
            raise IllegalAction("no one is to act", None)
        return self.to_act


def replay(history: dict | str):
    """Rebuild a table from ``history()`` (a dict or its JSON) by replaying every action.

    The history is checked first (its seats, a deck of the 52 cards once each,
    its actions).  When it records a ``result`` (as ``history()`` does), the
    replayed table must reach it: a history whose deck or actions were changed
    raises ``HistoryError`` naming what differs, instead of a different hand.
    """
    if isinstance(history, str):
        try:
            history = json.loads(history)
        except json.JSONDecodeError as error:
            raise HistoryError(f"not a hand history: {error}", history[:40]) from None
    check_type(history, (dict, str), "history", "a hand history (dict or JSON text)")
    missing = [key for key in ("game", "seats", "dealer", "deck", "actions")
               if key not in history]
    if missing:
        raise HistoryError(f"not a hand history: no {missing[0]!r}", missing[0])
    config = history.get("config", {})
    for key, value, kinds in (("actions", history["actions"], list), ("config", config, dict),
                              ("deck", history["deck"], list)):
        if not isinstance(value, kinds):
            raise HistoryError(f"not a hand history: {key!r} is a {type(value).__name__}, "
                               f"not a {kinds.__name__}", key)
    from .games import game as get_game
    game = get_game(history["game"]).name
    cls = {"teen_patti": TeenPattiTable, "the": TheTable}.get(game, HoldemTable)
    config = dict(config, game=game) if cls is HoldemTable else dict(config)
    unknown = sorted(set(config) - set(cls.OPTIONS))
    if unknown:
        raise HistoryError(f"the history's config has an unknown option {unknown[0]!r} for "
                           f"{game} (known: {', '.join(cls.OPTIONS)})", unknown[0])
    try:
        table = cls(history["seats"], dealer=history["dealer"], deck=history["deck"], **config)
    except (EvaluatorError, TypeError) as error:
        raise HistoryError(f"the history's table cannot be set up: {error}", error) from error
    for number, entry in enumerate(history["actions"], 1):
        if not isinstance(entry, dict) or "kind" not in entry:
            raise HistoryError(f"action {number} of the history is not an action: {entry!r}",
                               entry)
        try:
            table.act(entry["kind"], entry.get("amount"), entry.get("card"))
        except (EvaluatorError, TypeError) as error:
            raise HistoryError(f"action {number} of the history ({entry}) cannot be replayed: "
                               f"{error}", entry) from error
    recorded = history.get("result")
    if recorded is not None:
        if not isinstance(recorded, dict):
            raise HistoryError("the history's 'result' is not a dict", recorded)
        replayed = table.result()
        for key in replayed:
            if key in recorded and recorded[key] != replayed[key]:
                raise HistoryError(
                    f"the history does not replay to its recorded result: {key} "
                    f"{recorded[key]!r} recorded, {replayed[key]!r} on replay (were the deck "
                    "or the actions changed?)", key)
    return table


# --- Teen Patti -------------------------------------------------------------------

class TeenPattiTable(Table):
    """Teen Patti with boot, blind and seen players, show and side show.

    Every player pays the ``boot`` and gets three cards, one at a time from
    the dealer's left; betting starts left of the dealer with the current
    stake at one boot.  Players start blind; ``look`` (at your turn) makes you
    seen.  Actions: ``bet`` (blind: 1x to 2x the stake, which becomes the
    bet; seen: 2x to 4x, and the stake becomes half the bet), ``pack``,
    ``show`` (two players left), ``side_show`` (everyone seen: bet the
    minimum and ask the previous bettor), then ``accept`` / ``refuse`` by the
    one asked.

    ``pot_limit`` (an option the source does not have; default none): once a
    bet brings the pot to the limit or past it, betting stops and every player
    still in shows; the best hand takes the pot and equal best hands share it
    (odd chips one each from the dealer's left).  Without it a hand where no
    one packs or asks for a show can go on forever.
    """
    game = "teen_patti"
    OPTIONS = ("boot", "pot_limit")

    def __init__(self, names, *, dealer: int = 0, boot: int = 1, pot_limit: int | None = None,
                 seed=None, deck=None):
        boot = _integer(boot, "boot", 1)
        super().__init__(names, dealer=dealer, seed=seed, deck=deck)
        self.pot_limit = _optional(pot_limit, "pot_limit", len(self.seats) * boot + 1)
        self.boot = boot
        self.stake = boot
        self.bettors: list[int] = []                            # seats in the order they bet
        self.pending_side_show: tuple[int, int] | None = None   # (asker, asked)
        for i in range(len(self.seats)):
            self.pay(i, boot)
            self.seats[i].seen = False
        for _ in range(3):
            seat = self.dealer
            for _ in range(len(self.seats)):
                seat = self.left_of(seat, active_only=False)
                self.seats[seat].cards.append(self.draw())
        self.to_act = self.left_of(self.dealer)
        self.events.append(f"everyone pays the boot of {boot}; {self.name(self.to_act)} "
                           "speaks first")

    def max_players(self) -> int:
        return 17

    def cards_needed(self, players: int) -> int:
        return 3 * players

    def deals(self) -> str:
        return "3 cards each"

    def config(self) -> dict:
        return {"boot": self.boot, "pot_limit": self.pot_limit}

    def value(self, seat: int) -> int:
        from .evaluate import evaluate
        return evaluate("teen_patti", self.seats[seat].cards).value

    def legal_actions(self) -> list[dict]:
        if self.finished:
            return []
        seat = self.to_act
        if self.pending_side_show:
            return [{"kind": "accept"}, {"kind": "refuse"}]
        s = self.seats[seat]
        low, high = (2 * self.stake, 4 * self.stake) if s.seen else (self.stake, 2 * self.stake)
        actions = [{"kind": "bet", "min": low, "max": high}, {"kind": "pack"}]
        if not s.seen:
            actions.append({"kind": "look"})
        others = [i for i in self.active() if i != seat]
        if len(others) == 1:
            other = self.seats[others[0]]
            if not s.seen:
                actions.append({"kind": "show", "cost": self.stake})
            elif other.seen:
                actions.append({"kind": "show", "cost": 2 * self.stake})
        elif s.seen and all(self.seats[i].seen for i in others) and \
                self._previous_bettor(seat) is not None:
            actions.append({"kind": "side_show", "cost": 2 * self.stake,
                            "asks": self.name(self._previous_bettor(seat))})
        return actions

    def _act(self, kind, amount, card):
        seat = self._need_turn()
        s = self.seats[seat]
        legal = {a["kind"]: a for a in self.legal_actions()}
        if kind not in legal:
            raise IllegalAction(self._why_not(kind, seat), kind)
        if amount is not None and kind != "bet":
            raise IllegalAction(f"{kind} takes no amount, got {amount}", amount)
        if kind == "look":
            s.seen = True
            self.events.append(f"{s.name} looks at the cards")
            return                                   # still this player's turn
        if kind == "pack":
            s.active = False
            self.events.append(f"{s.name} packs")
            self._next_turn(seat)
            return
        if kind == "bet":
            low, high = legal["bet"]["min"], legal["bet"]["max"]
            if amount is None or not low <= amount <= high:
                how = "seen" if s.seen else "blind"
                raise IllegalAction(f"{s.name} plays {how}: bet {low} to {high} (the stake is "
                                    f"{self.stake}), not {amount}", amount)
            self._bet(seat, amount)
            self._next_turn(seat)
            return
        if kind == "show":
            cost = legal["show"]["cost"]
            self.pay(seat, cost)
            other = next(i for i in self.active() if i != seat)
            s.seen = True
            mine, theirs = self.value(seat), self.value(other)
            # a tie goes to the player who did not pay for the show
            winner = seat if mine > theirs else other
            self.events.append(f"{s.name} pays {cost} for a show: "
                               f"{format_cards(s.cards)} against "
                               f"{format_cards(self.seats[other].cards)}")
            self._award([winner])
            return
        if kind == "side_show":
            asked = self._previous_bettor(seat)
            self._bet(seat, 2 * self.stake)
            self.pending_side_show = (seat, asked)
            self.events.append(f"{s.name} bets the minimum and asks {self.name(asked)} for a "
                               "side show")
            self.to_act = asked
            return
        if kind in ("accept", "refuse"):
            asker, asked = self.pending_side_show
            self.pending_side_show = None
            if kind == "accept":
                # the lower hand folds; equal hands fold the asker
                loser = asked if self.value(asker) > self.value(asked) else asker
                self.seats[loser].active = False
                self.events.append(f"{self.name(asked)} accepts; {self.name(loser)} folds")
            else:
                self.events.append(f"{self.name(asked)} refuses the side show")
            self.to_act = asker
            self._next_turn(asker)
            return

    def _previous_bettor(self, seat: int) -> int | None:
        """The player who bet most recently before ``seat`` and is still in."""
        for bettor in reversed(self.bettors):
            if bettor != seat and self.seats[bettor].active:
                return bettor
        return None

    def _why_not(self, kind: str, seat: int) -> str:
        s = self.seats[seat]
        if self.pending_side_show:
            return f"{s.name} must accept or refuse the side show"
        others = [i for i in self.active() if i != seat]
        if kind == "show":
            if len(others) > 1:
                return "a show needs exactly two players left"
            return (f"{s.name} is seen and {self.name(others[0])} is blind: a seen player "
                    "may not demand a show from a blind one")
        if kind == "side_show":
            if len(others) == 1:
                return "with two players left, ask for a show instead of a side show"
            if not all(self.seats[i].seen for i in [seat] + others):
                return "a side show needs every remaining player to be seen"
            return "a side show is asked of the player who bet just before you"
        if kind == "look":
            return f"{s.name} has already seen the cards"
        if kind in ("accept", "refuse"):
            return "no side show has been asked"
        return f"unknown action {kind!r} (legal: " + ", ".join(
            a["kind"] for a in self.legal_actions()) + ")"

    def _bet(self, seat: int, amount: int) -> None:
        s = self.seats[seat]
        self.pay(seat, amount)
        self.stake = amount // 2 if s.seen else amount
        self.bettors.append(seat)
        self.events.append(f"{s.name} bets {amount} ({'seen' if s.seen else 'blind'}); the "
                           f"stake is {self.stake}")

    def _next_turn(self, seat: int) -> None:
        left = self.active()
        if len(left) == 1:
            self._award(left)
            return
        if self.pot_limit is not None and self.pot >= self.pot_limit:
            self._show_all(left)
            return
        self.to_act = self.left_of(seat)

    def _show_all(self, left: list[int]) -> None:
        """The pot limit is reached: everyone still in shows; the best hands share the pot."""
        values = {i: self.value(i) for i in left}
        best = max(values.values())
        winners = sorted((i for i in left if values[i] == best),
                         key=lambda i: (i - self.dealer - 1) % len(self.seats))
        self.events.append(f"the pot reaches the limit of {self.pot_limit}: show of " + ", ".join(
            f"{self.name(i)} {format_cards(self.seats[i].cards)}" for i in left))
        self._award(winners)

    def _award(self, winners: list[int]) -> None:
        share, odd = divmod(self.pot, len(winners))
        for k, w in enumerate(winners):
            self.seats[w].won += share + (1 if k < odd else 0)
        self.winners = winners
        self.finished = True
        self.to_act = None
        self.events.append(" and ".join(self.name(w) for w in winners) + f" wins {self.pot}")

    def _visible(self, seat: int) -> dict:
        s = self.seats[seat]
        others = [i for i in self.active() if i != seat]
        own = format_cards(s.cards, sep="") if s.seen else "random"
        return {"game": "teen_patti", "hands": [own] + ["random"] * len(others),
                "board": "", "dead": ""}


# --- fixed-limit betting rounds, shared by The and the hold'em family ---------------------

class LimitTable(Table):
    """Betting rounds with a fixed bet size: check, bet, call, raise (at most ``cap``
    bets a round) and fold.  A round ends when every player still in has acted
    since the last bet or raise and all have put in the same amount."""
    cap = 4

    def _start_round(self, first: int, size: int, *, current: int = 0,
                     blinds: bool = False) -> None:
        if not blinds:                           # pre-flop, the blinds count in the round
            for st in self.seats:
                st.round_bet = 0
        self.current = current
        self.size = size
        self.bets = 1 if current else 0
        self.acted: set[int] = set()
        self.aggressor: int | None = None      # last to bet or raise this round
        self.opener = first
        self.to_act = first

    def legal_actions(self) -> list[dict]:
        if self.finished or self.to_act is None:
            return []
        extra = self._extra_actions()
        if extra is not None:
            return extra
        s = self.seats[self.to_act]
        owe = self.current - s.round_bet
        actions = [{"kind": "fold"}]
        if owe == 0:
            actions.append({"kind": "check"})
        else:
            actions.append({"kind": "call", "amount": owe})
        if self.bets < self.cap:
            kind = "bet" if self.current == 0 else "raise"
            actions.append({"kind": kind, "amount": self.current + self.size - s.round_bet})
        return actions

    def _extra_actions(self) -> list[dict] | None:
        return None

    def _act(self, kind, amount, card):
        seat = self._need_turn()
        legal = {a["kind"]: a for a in self.legal_actions()}
        if kind not in legal:
            raise IllegalAction(f"{self.name(seat)} cannot {kind} now (legal: "
                                + ", ".join(legal) + ")", kind)
        if amount is not None and "amount" not in legal[kind]:
            raise IllegalAction(f"{kind} takes no amount, got {amount}", amount)
        if self._extra_act(seat, kind, amount, card):
            return
        need = legal[kind].get("amount")
        if amount is not None and need is not None and amount != need:
            raise IllegalAction(f"{kind} is {need} chips here (fixed limit), not {amount}",
                                amount)
        s = self.seats[seat]
        if kind == "fold":
            s.active = False
            self.events.append(f"{s.name} folds")
        elif kind == "check":
            self.events.append(f"{s.name} checks")
        elif kind == "call":
            self.pay(seat, need)
            self.events.append(f"{s.name} calls {need}")
        else:
            self.pay(seat, need)
            self.current = s.round_bet
            self.bets += 1
            self.acted = set()
            self.aggressor = seat
            self.events.append(f"{s.name} {kind}s to {self.current}")
        self.acted.add(seat)
        self._advance(seat)

    def _extra_act(self, seat, kind, amount, card) -> bool:
        return False

    def _advance(self, seat: int) -> None:
        left = self.active()
        if len(left) == 1:
            self._award_all(left)
            return
        done = all(i in self.acted and self.seats[i].round_bet == self.current for i in left)
        if done:
            self._end_round()
        else:
            self.to_act = self.left_of(seat)

    def _end_round(self) -> None:
        raise NotImplementedError

    def _award_all(self, winners: list[int]) -> None:
        self._split(self.pot, winners)
        self.winners = winners
        self._finish()

    def _split(self, amount: int, winners: list[int]) -> None:
        """Share ``amount`` equally; odd chips go one each from the dealer's left."""
        share, odd = divmod(amount, len(winners))
        order = sorted(winners, key=lambda w: (w - self.dealer - 1) % len(self.seats))
        for k, w in enumerate(order):
            self.seats[w].won += share + (1 if k < odd else 0)

    def _finish(self) -> None:
        self.finished = True
        self.to_act = None
        self.events.append("; ".join(f"{s.name} wins {s.won}" for s in self.seats if s.won))


# --- The ---------------------------------------------------------------------------

class TheTable(LimitTable):
    """The: three cards each and a four-card board, four betting rounds.

    Each player (from the dealer's left, ending with the dealer) gets one card
    face down, then one board card is dealt face down, three times; then a
    fourth board card face up.  Round 1 is opened by the player left of the
    dealer; each later round by the last player to bet or raise in the round
    before, or, if nobody bet, by the player one to the left of who opened it.
    A face-down board card is turned up before each of rounds 2 to 4.
    """
    game = "the"
    OPTIONS = ("ante", "bet")

    def __init__(self, names, *, dealer: int = 0, ante: int = 1, bet: int = 2, seed=None,
                 deck=None):
        ante, bet = _integer(ante, "ante", 0), _integer(bet, "bet", 1)
        super().__init__(names, dealer=dealer, seed=seed, deck=deck)
        self.ante, self.bet_size = ante, bet
        for i in range(len(self.seats)):
            self.pay(i, ante)
        self.face_down: list[int] = []
        for _ in range(3):
            seat = self.dealer
            for _ in range(len(self.seats)):
                seat = self.left_of(seat, active_only=False)
                self.seats[seat].cards.append(self.draw())
            self.face_down.append(self.draw())
        self.board = [self.draw()]                 # the fourth board card, face up
        self.round = 1
        self.openers = []
        self._start_round(self.left_of(self.dealer), bet)
        self.openers.append(self.opener)

    def max_players(self) -> int:
        return 12

    def cards_needed(self, players: int) -> int:
        return 3 * players + 4

    def deals(self) -> str:
        return "3 cards each and 4 board cards"

    def config(self) -> dict:
        return {"ante": self.ante, "bet": self.bet_size}

    def _end_round(self) -> None:
        if self.round == 4:
            self._showdown()
            return
        previous_opener, aggressor = self.opener, self.aggressor
        self.round += 1
        self.board.append(self.face_down[self.round - 2])
        self.events.append(f"board: {format_cards(self.board)}")
        if aggressor is not None:
            first = aggressor if self.seats[aggressor].active else self.left_of(aggressor)
        else:
            first = self.left_of(previous_opener)
        self._start_round(first, self.bet_size)
        self.openers.append(first)

    def _showdown(self) -> None:
        from .evaluate import evaluate
        values = {i: evaluate("the", self.seats[i].cards, self.board).value for i in self.active()}
        best = max(values.values())
        winners = [i for i, v in values.items() if v == best]
        self.events.append("showdown: " + ", ".join(
            f"{self.name(i)} {format_cards(self.seats[i].cards)}" for i in values))
        self._award_all(winners)

    def _visible(self, seat: int) -> dict:
        others = [i for i in self.active() if i != seat]
        return {"game": "the", "hands": [format_cards(self.seats[seat].cards, sep="")]
                + ["random"] * len(others), "board": format_cards(self.board, sep=""),
                "dead": ""}


# --- the hold'em family -------------------------------------------------------------

class HoldemTable(LimitTable):
    """Fixed-limit hold'em, Omaha (hi, hi-lo, 5 and 6 cards), Pineapple, Crazy Pineapple
    and Tahoe.

    The small and big blinds sit left of the button (heads-up, the button
    posts the small blind).  Cards are dealt one at a time from the button's
    left.  Pre-flop action starts left of the big blind; later rounds with the
    first player still in left of the button.  A card is burned before the
    flop, the turn and the river.  The bet is ``small_bet`` pre-flop and on the
    flop and doubles on the turn and river.  Pineapple players discard one card
    before the flop, Crazy Pineapple players after the flop is dealt (action
    ``discard`` with the card).  ``kill=seat``: that player posts a kill blind
    of twice the big blind and the limits double.  Hi-lo pots split in halves
    with the odd chip to the high half; a pot with no qualifying low goes
    whole to the high.
    """

    OPTIONS = ("game", "small_blind", "big_blind", "small_bet", "kill")

    def __init__(self, names, *, game: str = "holdem", dealer: int = 0, small_blind: int = 1,
                 big_blind: int = 2, small_bet: int | None = None, kill: int | None = None,
                 seed=None, deck=None):
        from .games import Game
        from .games import game as get_game
        check_type(game, (str, Game), "game", "a game name")
        self.rules = get_game(game)
        if self.rules.rule == "teen_patti" or self.rules.name == "the":
            other = "TeenPattiTable" if self.rules.rule == "teen_patti" else "TheTable"
            raise EvaluatorError(f"use {other} for {self.rules.name}", game)
        big_blind = _integer(big_blind, "big_blind", 1)
        small_blind = _integer(small_blind, "small_blind", 0, big_blind)
        small_bet = _integer(big_blind if small_bet is None else small_bet, "small_bet", 1)
        self.game = self.rules.name
        super().__init__(names, dealer=dealer, seed=seed, deck=deck)
        kill = None if kill is None else self._seat(kill, "kill")
        self.small_blind, self.big_blind, self.small_bet = small_blind, big_blind, small_bet
        self.kill = kill
        stakes = 2 if kill is not None else 1
        n = len(self.seats)
        if n == 2:
            sb, bb = self.dealer, self.left_of(self.dealer)
        else:
            sb = self.left_of(self.dealer)
            bb = self.left_of(sb)
        self.sb_seat, self.bb_seat = sb, bb
        self.pay(sb, small_blind)
        self.pay(bb, big_blind)
        blinds = [bb]
        if kill is not None:
            self.pay(kill, 2 * big_blind - self.seats[kill].round_bet)
            blinds.append(kill)
            self.events.append(f"{self.name(kill)} kills the pot: a blind of {2 * big_blind} "
                               "and double limits")
        for _ in range(self.rules.dealt):
            seat = self.dealer
            for _ in range(n):
                seat = self.left_of(seat, active_only=False)
                self.seats[seat].cards.append(self.draw())
        self.board: list[int] = []
        self.burned: list[int] = []
        self.street = 0                            # 0 pre-flop, 1 flop, 2 turn, 3 river
        self.discarding: list[int] = []            # seats still to discard, in order
        current = max(self.seats[b].round_bet for b in blinds)
        first = self.left_of(max(blinds, key=lambda b: (b - self.dealer - 1) % n)) if n > 2 \
            else self.dealer
        self._start_round(first, self.small_bet * stakes, current=current, blinds=True)
        self.stakes = stakes

    def max_players(self) -> int:
        return 10

    def cards_needed(self, players: int) -> int:
        return self.rules.dealt * players + 5 + 3

    def deals(self) -> str:
        return f"{self.rules.dealt} hole cards each, 5 board cards and 3 burns"

    def config(self) -> dict:
        return {"small_blind": self.small_blind, "big_blind": self.big_blind,
                "small_bet": self.small_bet, "kill": self.kill}

    def _extra_actions(self):
        if self.discarding:
            return [{"kind": "discard", "cards": format_cards(self.seats[self.to_act].cards)}]
        return None

    def _extra_act(self, seat, kind, amount, card) -> bool:
        if kind != "discard":
            return False
        s = self.seats[seat]
        if card is None:
            raise IllegalAction(f"{s.name} must name the card to discard", None)
        ids = parse_cards(card).tolist()
        if len(ids) != 1 or ids[0] not in s.cards:
            raise IllegalAction(f"{s.name} does not hold {card}", card)
        s.cards.remove(ids[0])
        s.discarded.append(ids[0])
        self.events.append(f"{s.name} discards")
        self.discarding.pop(0)
        if self.discarding:
            self.to_act = self.discarding[0]
        else:
            self._start_street_betting()
        return True

    def _burn_and_deal(self, count: int) -> None:
        self.burned.append(self.draw())
        self.board += [self.draw() for _ in range(count)]
        self.events.append(f"board: {format_cards(self.board)}")

    def _order_from_button(self) -> list[int]:
        order, seat = [], self.dealer
        for _ in range(len(self.seats)):
            seat = self.left_of(seat, active_only=False)
            if self.seats[seat].active:
                order.append(seat)
        return order

    def _end_round(self) -> None:
        if self.street == 3:
            self._showdown()
            return
        if self.street == 0 and self.rules.dealt > self.rules.hole \
                and self.rules.discard_at == 0 and not self.discarding \
                and any(len(self.seats[i].cards) > self.rules.hole for i in self.active()):
            self.discarding = self._order_from_button()          # Pineapple: before the flop
            self.to_act = self.discarding[0]
            return
        self.street += 1
        self._burn_and_deal(3 if self.street == 1 else 1)
        if self.street == 1 and self.rules.dealt > self.rules.hole \
                and self.rules.discard_at == 3:
            self.discarding = self._order_from_button()          # Crazy Pineapple: after it
            self.to_act = self.discarding[0]
            return
        self._start_street_betting()

    def _start_street_betting(self) -> None:
        if self.street == 0:                       # Pineapple discards done: deal the flop
            self.street = 1
            self._burn_and_deal(3)
        size = self.small_bet * self.stakes * (2 if self.street >= 2 else 1)
        self._start_round(self.left_of(self.dealer), size)

    def _showdown(self) -> None:
        from .evaluate import evaluate
        live = self.active()
        hands = {i: evaluate(self.rules, self.seats[i].cards, self.board) for i in live}
        self.events.append("showdown: " + ", ".join(
            f"{self.name(i)} {format_cards(self.seats[i].cards)} ({hands[i]})" for i in live))
        best = max(h.value for h in hands.values())
        high = [i for i in live if hands[i].value == best]
        low = []
        if self.rules.pot == "hilo":
            lows = {i: hands[i].low.value for i in live if hands[i].low is not None}
            if lows:
                top = max(lows.values())
                low = [i for i, v in lows.items() if v == top]
        if low:
            high_half = self.pot - self.pot // 2         # the odd chip goes to the high half
            self._split(high_half, high)
            self._split(self.pot // 2, low)
        else:
            self._split(self.pot, high)
        self.winners = sorted(set(high) | set(low))
        self.high_winners, self.low_winners = high, low
        self._finish()

    def _visible(self, seat: int) -> dict:
        s = self.seats[seat]
        others = [i for i in self.active() if i != seat]
        game = self.rules.name
        cards = s.cards
        if len(cards) > self.rules.hole:           # Pineapple before the discard: not yet
            game = "tahoe" if self.rules.name != "tahoe" else game
        return {"game": game, "hands": [format_cards(cards, sep="")]
                + ["random"] * len(others), "board": format_cards(self.board, sep=""),
                "dead": format_cards(s.discarded, sep="")}


class HoldemSession:
    """Successive hands at one table: the button moves left after each hand, and in
    Omaha games a kill follows two pots in a row won by one player (hi-lo: one
    scoop)."""

    def __init__(self, names, *, game: str = "omaha", seed: int = 0, **stakes) -> None:
        seed = _integer(seed, "seed", 0)
        unknown = sorted(set(stakes) - {"small_blind", "big_blind", "small_bet"})
        if unknown:
            raise EvaluatorError(f"unknown stake {unknown[0]!r} (small_blind, big_blind, "
                                 "small_bet)", unknown[0])
        HoldemTable(names, game=game, seed=0, **stakes)     # every argument checked up front
        self.names, self.game, self.stakes = list(names), game, stakes
        self.rng = np.random.default_rng(seed)
        self.dealer = 0
        self.hands: list[HoldemTable] = []
        self.settled = 0                           # hands passed to finish_hand()
        self.streak: tuple[int | None, int] = (None, 0)
        self.kill: int | None = None

    def new_hand(self) -> HoldemTable:
        deck = self.rng.permutation(DECK_SIZE).tolist()
        table = HoldemTable(self.names, game=self.game, dealer=self.dealer, kill=self.kill,
                            deck=deck, **self.stakes)
        self.hands.append(table)
        return table

    def finish_hand(self, table: HoldemTable) -> None:
        """Move the button and set the next hand's kill from ``table``, a finished hand of
        this session."""
        check_type(table, HoldemTable, "table", "a HoldemTable")
        if not self.hands or table is not self.hands[-1]:
            raise EvaluatorError("the hand is not this session's latest hand", None)
        if self.settled == len(self.hands):
            raise EvaluatorError("the hand was already passed to finish_hand()", None)
        if not table.finished:
            raise EvaluatorError("the hand is not over", None)
        from .games import game as get_game
        rules = get_game(self.game)
        self.kill = None
        sole = table.winners[0] if len(table.winners) == 1 else None
        if rules.rule == "omaha":
            if rules.pot == "hilo":
                scooped = sole is not None and (
                    not getattr(table, "low_winners", []) or table.low_winners == [sole])
                self.kill = sole if scooped else None
            else:
                last, count = self.streak
                count = count + 1 if sole is not None and sole == last else (
                    1 if sole is not None else 0)
                self.streak = (sole, count)
                if count >= 2:
                    self.kill = sole
                    self.streak = (None, 0)
        self.dealer = (self.dealer + 1) % len(self.names)
        self.settled = len(self.hands)


# --- a seeded simulator -----------------------------------------------------------------

def _passive(table, rng) -> tuple:
    """Check or call; never bet, raise or fold; Teen Patti: bet the minimum, show when two
    are left; Pineapple: discard the lowest card."""
    kinds = {a["kind"]: a for a in table.legal_actions()}
    if "discard" in kinds:
        cards = table.seats[table.to_act].cards
        return "discard", None, format_cards([min(cards)])
    if "accept" in kinds:
        return "refuse", None, None
    if "show" in kinds:
        return "show", None, None
    if "bet" in kinds and "min" in kinds["bet"]:
        return "bet", kinds["bet"]["min"], None
    return ("check" if "check" in kinds else "call"), None, None


def _random(table, rng) -> tuple:
    """A uniformly random legal action (fold at most a tenth of the time)."""
    actions = table.legal_actions()
    choices = [a for a in actions if a["kind"] not in ("fold", "pack", "look")] or actions
    if rng.random() < 0.1 and any(a["kind"] in ("fold", "pack") for a in actions):
        choices = [a for a in actions if a["kind"] in ("fold", "pack")]
    a = choices[int(rng.integers(len(choices)))]
    if a["kind"] == "discard":
        cards = table.seats[table.to_act].cards
        return "discard", None, format_cards([cards[int(rng.integers(len(cards)))]])
    if "min" in a:
        return a["kind"], int(rng.integers(a["min"], a["max"] + 1)), None
    return a["kind"], None, None


def _strength(table, rng) -> tuple:
    """Bet or raise with 60% equity or more, call with 35%, else fold (Teen Patti: look first,
    then bet the minimum or pack; show with two left).  Equity from what the player sees,
    sampled with 2,000 deals."""
    kinds = {a["kind"]: a for a in table.legal_actions()}
    if "look" in kinds:
        return "look", None, None
    if "discard" in kinds or "accept" in kinds:
        return _passive(table, rng)
    eq = table.equity(table.to_act, trials=2_000, seed=int(rng.integers(1 << 31)))
    if "show" in kinds:
        return "show", None, None
    if "bet" in kinds and "min" in kinds["bet"]:
        return ("bet", kinds["bet"]["min"], None) if eq >= 0.3 else ("pack", None, None)
    if eq >= 0.6 and ({"bet", "raise"} & set(kinds)):
        return ("bet" if "bet" in kinds else "raise"), None, None
    if "check" in kinds:
        return "check", None, None
    return ("call", None, None) if eq >= 0.35 else ("fold", None, None)


POLICIES = {"passive": _passive, "random": _random, "strength": _strength}


POT_LIMIT = 100
"""Teen Patti hands in ``simulate`` stop at a pot of this many boots (see ``TeenPattiTable``)."""


def simulate(game: str, names: list[str], *, hands: int = 100, seed: int = 0,
             policies: dict[str, str] | None = None, max_actions: int = 400, **stakes) -> dict:
    """Play ``hands`` hands with simple policies (``POLICIES``; default passive).

    The button (dealer) moves left after each hand and Omaha kills apply.
    ``stakes`` are the table's options: ``boot`` and ``pot_limit`` (Teen Patti),
    ``ante`` and ``bet`` (The), ``small_blind``, ``big_blind`` and ``small_bet``
    (the hold'em family).  Teen Patti has no betting limit of its own, so its
    hands are played with ``pot_limit`` = ``POT_LIMIT`` boots unless ``stakes``
    say otherwise: at that pot everyone still in shows.  A hand that takes
    more than ``max_actions`` actions (possible only with ``pot_limit=None``)
    raises ``EvaluatorError``.  Returns each player's net chips, the hands won
    and the histories.
    """
    from .games import game as get_game
    check_type(game, str, "game", "a game name")
    game = get_game(game).name
    hands = _integer(hands, "hands", 0)
    seed = _integer(seed, "seed", 0)
    max_actions = _integer(max_actions, "max_actions", 1)
    cls = {"teen_patti": TeenPattiTable, "the": TheTable}.get(game, HoldemTable)
    options = set(cls.OPTIONS) - {"game", "kill"}
    unknown = sorted(set(stakes) - options)
    if unknown:
        raise EvaluatorError(f"unknown stake {unknown[0]!r} for {game} (known: "
                             + ", ".join(sorted(options)) + ")", unknown[0])
    if cls is TeenPattiTable and "pot_limit" not in stakes:
        stakes["pot_limit"] = POT_LIMIT * _integer(stakes.get("boot", 1), "boot", 1)
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
    histories = []
    dealer = 0
    for _ in range(hands):
        deck = rng.permutation(DECK_SIZE).tolist()
        table = session.new_hand() if session is not None else \
            cls(names, dealer=dealer, deck=deck, **stakes)
        steps = 0
        while not table.finished:
            who = table.name(table.to_act)
            kind, amount, card = POLICIES[policies.get(who, "passive")](table, rng)
            table.act(kind, amount, card)
            steps += 1
            if steps > max_actions:
                raise EvaluatorError(f"a simulated hand took more than {max_actions} actions",
                                     steps)
        for s in table.seats:
            net[s.name] += s.won - s.put_in
        for w in table.winners:
            wins[table.name(w)] += 1
        histories.append(table.history())
        if session is not None:
            session.finish_hand(table)
        dealer = (dealer + 1) % len(names)
    return {"game": game, "hands": hands, "seed": seed, "net": net, "wins": wins,
            "histories": histories}
