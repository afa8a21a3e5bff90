"""The hold'em family at fixed limit (hold'em, Omaha hi and hi-lo, 5- and 6-card Omaha,
Pineapple, Crazy Pineapple, Tahoe), and ``HoldemSession``: successive hands with the
button moving and Omaha kill pots."""
from __future__ import annotations

from typing import Any, TypedDict, Unpack

import numpy as np

from ..cards import CardsLike, format_cards, parse_cards
from ..errors import EvaluatorError, check_type, integer, optional_integer
from ..evaluate import evaluate
from ..families import family
from ..games import Game
from ..games import game as get_game
from .engine import IllegalAction, LegalAction
from .limits import LimitTable

__all__ = ["HoldemTable", "HoldemSession"]


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

    ``game_options``: the options of the game (``{"trips_beat_straight": True}``), as
    ``history()`` records a game made with ``evaluator.game(name, **options)``.

    ``ante=N``: every player puts N in the pot before the deal (dead money, not
    part of a bet).  ``button_blind=N``: the button posts a blind of N instead of
    the small and big blinds, as most short deck games play; pre-flop action then
    starts left of the button, which acts last.  The deck is the game's (36 cards
    in short deck).

    Parameters
    ----------
    names : list of str
        The players, clockwise (the most the game's deck can serve: 6-card Omaha
        seats 7).
    game : str or Game
        ``"holdem"``, ``"short_deck"``, ``"omaha"`` and its variants, ``"pineapple"``,
        ``"crazy_pineapple"`` or ``"tahoe"``.
    dealer : int
        The button's seat.
    small_blind, big_blind : int
        The blinds.
    small_bet : int, optional
        The bet pre-flop and on the flop (default: the big blind); doubled on the
        turn and river.
    kill : int, optional
        The seat that posts a kill blind.
    ante : int
        Dead money every player puts in before the deal.
    button_blind : int, optional
        A single blind posted by the button.
    game_options : dict, optional
        The game's options (``{"trips_beat_straight": True}``).
    seed, deck
        A seed to shuffle with, or the deck in dealing order (as ``Table``).

    Examples
    --------
    >>> from evaluator.play import HoldemTable
    >>> t = HoldemTable(["ann", "bob"], seed=1)         # heads-up: ann has the button
    >>> t.act("call"); t.act("check")                   # pre-flop
    >>> while not t.finished:
    ...     t.act("check")
    >>> print(t.events[-2])
    showdown: ann 3h 5s (two pair, sevens and fives), bob 8s 9s (straight, nine high)
    >>> t.result()["won"]
    {'bob': 4}
    >>> p = HoldemTable(["ann", "bob"], game="pineapple", seed=5)
    >>> p.act("call"); p.act("check")
    >>> p.legal_actions()                               # discard one of three, pre-flop
    [{'kind': 'discard', 'cards': '6d 6h Ac'}]
    >>> p.act("discard", card="6d")
    """

    OPTIONS = ("game", "small_blind", "big_blind", "small_bet", "kill", "ante", "button_blind",
               "game_options")

    def __init__(self, names: list[str], *, game: str | Game = "holdem", dealer: int = 0,
                 small_blind: int = 1, big_blind: int = 2, small_bet: int | None = None,
                 kill: int | None = None, ante: int = 0, button_blind: int | None = None,
                 game_options: dict[str, Any] | None = None, seed: int | None = None,
                 deck: CardsLike | None = None) -> None:
        check_type(game, (str, Game), "game", "a game name")
        if game_options:                   # a history's record of game("short_deck", ...)
            check_type(game_options, dict, "game_options", "a dict of the game's options")
            self.rules = get_game(game.name if isinstance(game, Game) else game,
                                  **game_options)
        else:
            self.rules = get_game(game)
        other = family(self.rules).table_class(self.rules)
        if other != "HoldemTable":
            raise EvaluatorError(f"use {other} for {self.rules.name}", game)
        big_blind = integer(big_blind, "big_blind", 1)
        small_blind = integer(small_blind, "small_blind", 0, big_blind)
        ante = integer(ante, "ante", 0)
        button_blind = optional_integer(button_blind, "button_blind", 1)
        if small_bet is None:               # the bet is the blind's size
            small_bet = big_blind if button_blind is None else button_blind
        small_bet = integer(small_bet, "small_bet", 1)
        if button_blind is not None and kill is not None:
            raise EvaluatorError("a kill blind needs the small and big blinds; this table has "
                                 "a button blind", kill)
        self.game = self.rules.name
        super().__init__(names, dealer=dealer, seed=seed, deck=deck)
        kill = None if kill is None else self._seat(kill, "kill")
        self.small_blind, self.big_blind, self.small_bet = small_blind, big_blind, small_bet
        self.kill, self.ante, self.button_blind = kill, ante, button_blind
        stakes = 2 if kill is not None else 1
        n = len(self.seats)
        if ante:
            for seat in range(n):
                self.pay_dead(seat, ante)
            self.events.append(f"everyone antes {ante}")
        if button_blind is not None:
            sb = bb = self.dealer
            self.pay(self.dealer, button_blind)
            self.events.append(f"{self.name(self.dealer)} posts the button blind of "
                               f"{button_blind}")
        elif n == 2:
            sb, bb = self.dealer, self.left_of(self.dealer)
        else:
            sb = self.left_of(self.dealer)
            bb = self.left_of(sb)
        self.sb_seat, self.bb_seat = sb, bb
        if button_blind is None:
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
        if self.rules.rounds[0]:                   # Courchevel: a flop card shown first
            self._burn_and_deal(self.rules.rounds[0])
        self.discarding: list[int] = []            # seats still to discard, in order
        current = max(self.seats[b].round_bet for b in blinds)
        if button_blind is not None:
            first = self.left_of(self.dealer)
        else:
            first = self.left_of(max(blinds, key=lambda b: (b - self.dealer - 1) % n)) \
                if n > 2 else self.dealer
        self._start_round(first, self.small_bet * stakes, current=current, blinds=True)
        self.stakes = stakes

    def max_players(self) -> int:
        return 10

    def cards_needed(self, players: int) -> int:
        return self.rules.dealt * players + 5 + self._burns()

    def _burns(self) -> int:
        """A card is burned before each dealing of board cards."""
        return sum(1 for r in self.rules.rounds if r)

    def deals(self) -> str:
        return (f"{self.rules.dealt} hole cards each, 5 board cards and {self._burns()} "
                "burns")

    def config(self) -> dict[str, Any]:
        out: dict[str, Any] = {"small_blind": self.small_blind, "big_blind": self.big_blind,
                               "small_bet": self.small_bet, "kill": self.kill}
        if self.ante:
            out["ante"] = self.ante
        if self.button_blind is not None:
            out["button_blind"] = self.button_blind
        if self.rules.options and self.rules.options != get_game(self.rules.name).options:
            out["game_options"] = dict(self.rules.options)
        return out

    def deck_cards(self) -> tuple[int, ...]:
        return self.rules.deck

    def _extra_actions(self) -> list[LegalAction] | None:
        if self.discarding:
            cards = self.seats[self._need_turn()].cards
            return [{"kind": "discard", "cards": format_cards(cards)}]
        return None

    def _extra_act(self, seat: int, kind: str, amount: int | None, card: str | None) -> bool:
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
        if self.street == len(self.rules.rounds) - 1:
            self._showdown()
            return
        if self.street == 0 and self.rules.dealt > self.rules.hole \
                and self.rules.discard_at == 0 and not self.discarding \
                and any(len(self.seats[i].cards) > self.rules.hole for i in self.active()):
            self.discarding = self._order_from_button()          # Pineapple: before the flop
            self.to_act = self.discarding[0]
            return
        self.street += 1
        rounds = self.rules.rounds
        self._burn_and_deal(rounds[self.street] - rounds[self.street - 1])
        if self.street == 1 and self.rules.dealt > self.rules.hole \
                and self.rules.discard_at == 3:
            self.discarding = self._order_from_button()          # Crazy Pineapple: after it
            self.to_act = self.discarding[0]
            return
        self._start_street_betting()

    def _start_street_betting(self) -> None:
        if self.street == 0:                       # Pineapple discards done: deal the flop
            self.street = 1
            self._burn_and_deal(self.rules.rounds[1] - self.rules.rounds[0])
        size = self.small_bet * self.stakes * (2 if self.street >= 2 else 1)
        self._start_round(self.left_of(self.dealer), size)

    def _showdown(self) -> None:
        live = self.active()
        hands = {i: evaluate(self.rules, self.seats[i].cards, self.board) for i in live}
        self.events.append("showdown: " + ", ".join(
            f"{self.name(i)} {format_cards(self.seats[i].cards)} ({hands[i]})" for i in live))
        best = max(h.value for h in hands.values())
        high = [i for i in live if hands[i].value == best]
        low: list[int] = []
        if self.rules.pot == "hilo":
            lows = {i: h.low.value for i, h in hands.items() if h.low is not None}
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

    def _visible(self, seat: int) -> dict[str, Any]:
        s = self.seats[seat]
        others = [i for i in self.active() if i != seat]
        game = self.rules.name
        cards = s.cards
        if len(cards) > self.rules.hole:           # Pineapple before the discard: three
            game = "tahoe"                          # cards, at most two of them used
        return {"game": game, "hands": [format_cards(cards, sep="")]
                + ["random"] * len(others), "board": format_cards(self.board, sep=""),
                "dead": format_cards(s.discarded, sep="")}


class Stakes(TypedDict, total=False):
    """The stakes a ``HoldemSession`` passes to each of its tables."""
    small_blind: int
    big_blind: int
    small_bet: int | None
    ante: int
    button_blind: int | None


class HoldemSession:
    """Successive hands at one table: the button moves left after each hand, and in
    Omaha games a kill follows two pots in a row won by one player (hi-lo: one
    scoop).

    Parameters
    ----------
    names : list of str
        The players, clockwise.
    game : str or Game
        A game of the hold'em family (default Omaha).
    seed : int
        Shuffles every hand's deck in turn.
    **stakes
        ``small_blind``, ``big_blind``, ``small_bet``, ``ante``, ``button_blind``, as
        ``HoldemTable`` takes them.

    Examples
    --------
    >>> from evaluator.play import HoldemSession
    >>> session = HoldemSession(["ann", "bob", "cat"], game="omaha", seed=1)
    >>> table = session.new_hand()
    >>> while not table.finished:
    ...     table.act("fold")
    >>> session.finish_hand(table)
    >>> table.result()["winners"], session.new_hand().dealer
    (['cat'], 1)
    """

    def __init__(self, names: list[str], *, game: str | Game = "omaha", seed: int = 0,
                 **stakes: Unpack[Stakes]) -> None:
        seed = integer(seed, "seed", 0)
        unknown = sorted(set(stakes) - {"small_blind", "big_blind", "small_bet", "ante",
                                        "button_blind"})
        if unknown:
            raise EvaluatorError(f"unknown stake {unknown[0]!r} (small_blind, big_blind, "
                                 "small_bet, ante, button_blind)", unknown[0])
        HoldemTable(names, game=game, seed=0, **stakes)     # every argument checked up front
        self.names, self.game, self.stakes = list(names), game, stakes
        self.rng = np.random.default_rng(seed)
        self.dealer = 0
        # only the latest hand is kept: a session of a million hands (``simulate``)
        # held every table before, some 6.5 KB a hand
        self.latest: HoldemTable | None = None
        self.dealt = 0                             # hands dealt by new_hand()
        self.settled = 0                           # hands passed to finish_hand()
        self.streak: tuple[int | None, int] = (None, 0)
        self.kill: int | None = None

    def new_hand(self) -> HoldemTable:
        """Deal the next hand: a ``HoldemTable`` at this session's button and kill."""
        cards = np.array(get_game(self.game).deck)
        deck = cards[self.rng.permutation(len(cards))].tolist()
        table = HoldemTable(self.names, game=self.game, dealer=self.dealer, kill=self.kill,
                            deck=deck, **self.stakes)
        self.latest = table
        self.dealt += 1
        return table

    def finish_hand(self, table: HoldemTable) -> None:
        """Move the button and set the next hand's kill from ``table``, a finished hand of
        this session."""
        check_type(table, HoldemTable, "table", "a HoldemTable")
        if self.latest is None or table is not self.latest:
            raise EvaluatorError("the hand is not this session's latest hand", None)
        if self.settled == self.dealt:
            raise EvaluatorError("the hand was already passed to finish_hand()", None)
        if not table.finished:
            raise EvaluatorError("the hand is not over", None)
        rules = get_game(self.game)
        self.kill = None
        sole = table.winners[0] if len(table.winners) == 1 else None
        if family(rules).kill_pots:
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
        self.settled = self.dealt
