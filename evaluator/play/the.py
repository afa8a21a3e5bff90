"""The: a home game of three cards each, a four-card board and four fixed-limit rounds."""
from __future__ import annotations

from typing import Any

from ..cards import CardsLike, format_cards
from ..errors import integer
from ..evaluate import evaluate
from .limits import LimitTable

__all__ = ["TheTable"]


class TheTable(LimitTable):
    """The: three cards each and a four-card board, four betting rounds.

    Each player (from the dealer's left, ending with the dealer) gets one card
    face down, then one board card is dealt face down, three times; then a
    fourth board card face up.  Round 1 is opened by the player left of the
    dealer; each later round by the last player to bet or raise in the round
    before, or, if nobody bet, by the player one to the left of who opened it.
    A face-down board card is turned up before each of rounds 2 to 4.

    Parameters
    ----------
    names : list of str
        The players, clockwise.
    dealer : int
        The dealer's seat.
    ante : int
        What every player puts in before the deal.
    bet : int
        The fixed bet (at most four bets a round).
    seed, deck
        A seed to shuffle with, or the deck in dealing order (as ``Table``).

    Examples
    --------
    >>> from evaluator.play import TheTable
    >>> t = TheTable(["ann", "bob", "cat"], seed=2)
    >>> t.name(t.to_act), t.pot, t.legal_actions()
    ('bob', 3, [{'kind': 'fold'}, {'kind': 'check'}, {'kind': 'bet', 'amount': 2}])
    >>> t.act("bet"); t.act("call"); t.act("fold")       # bob bets, cat calls, ann folds
    >>> t.pot, t.round
    (7, 2)
    """
    game = "the"
    OPTIONS = ("ante", "bet")

    def __init__(self, names: list[str], *, dealer: int = 0, ante: int = 1, bet: int = 2,
                 seed: int | None = None, deck: CardsLike | None = None) -> None:
        ante, bet = integer(ante, "ante", 0), integer(bet, "bet", 1)
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
        self.openers: list[int] = []
        self._start_round(self.left_of(self.dealer), bet)
        self.openers.append(self.opener)

    def max_players(self) -> int:
        return 12

    def cards_needed(self, players: int) -> int:
        return 3 * players + 4

    def deals(self) -> str:
        return "3 cards each and 4 board cards"

    def config(self) -> dict[str, Any]:
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
        values = {i: evaluate("the", self.seats[i].cards, self.board).value for i in self.active()}
        best = max(values.values())
        winners = [i for i, v in values.items() if v == best]
        self.events.append("showdown: " + ", ".join(
            f"{self.name(i)} {format_cards(self.seats[i].cards)}" for i in values))
        self._award_all(winners)

    def _visible(self, seat: int) -> dict[str, Any]:
        others = [i for i in self.active() if i != seat]
        return {"game": "the", "hands": [format_cards(self.seats[seat].cards, sep="")]
                + ["random"] * len(others), "board": format_cards(self.board, sep=""),
                "dead": ""}
