"""Teen Patti: boot, blind and seen players, show and side show, and an optional pot limit."""
from __future__ import annotations

from typing import Any

from ..cards import CardsLike, format_cards
from ..errors import integer, optional_integer
from ..evaluate import evaluate
from .engine import IllegalAction, LegalAction, Table

__all__ = ["TeenPattiTable"]


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

    Parameters
    ----------
    names : list of str
        The players, 2 to 17, clockwise.
    dealer : int
        The dealer's seat.
    boot : int
        What every player pays before the deal, and the first stake.
    pot_limit : int, optional
        The pot at which everyone still in shows (default: none).
    seed, deck
        A seed to shuffle with, or the deck in dealing order (as ``Table``).

    Examples
    --------
    >>> from evaluator.play import TeenPattiTable
    >>> t = TeenPattiTable(["ann", "bob", "cat"], dealer=0, boot=1, seed=7)
    >>> t.to_act, t.pot, t.stake
    (1, 3, 1)
    >>> [a["kind"] for a in t.legal_actions()]
    ['bet', 'pack', 'look']
    >>> t.act("bet", 2)                   # blind: 1x to 2x the stake, which becomes 2
    >>> t.stake, t.to_act
    (2, 2)
    """
    game = "teen_patti"
    OPTIONS = ("boot", "pot_limit")
    _GROWING = Table._GROWING + ("bettors",)

    def __init__(self, names: list[str], *, dealer: int = 0, boot: int = 1,
                 pot_limit: int | None = None, seed: int | None = None,
                 deck: CardsLike | None = None) -> None:
        boot = integer(boot, "boot", 1)
        super().__init__(names, dealer=dealer, seed=seed, deck=deck)
        self.pot_limit = optional_integer(pot_limit, "pot_limit", len(self.seats) * boot + 1)
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

    def config(self) -> dict[str, Any]:
        return {"boot": self.boot, "pot_limit": self.pot_limit}

    def value(self, seat: int) -> int:
        return evaluate("teen_patti", self.seats[seat].cards).value

    def legal_actions(self) -> list[LegalAction]:
        seat = self.to_act
        if self.finished or seat is None:       # no one is to act only once it is over
            return []
        if self.pending_side_show:
            return [{"kind": "accept"}, {"kind": "refuse"}]
        s = self.seats[seat]
        low, high = (2 * self.stake, 4 * self.stake) if s.seen else (self.stake, 2 * self.stake)
        actions: list[LegalAction] = [{"kind": "bet", "min": low, "max": high},
                                      {"kind": "pack"}]
        if not s.seen:
            actions.append({"kind": "look"})
        others = [i for i in self.active() if i != seat]
        if len(others) == 1:
            other = self.seats[others[0]]
            if not s.seen:
                actions.append({"kind": "show", "cost": self.stake})
            elif other.seen:
                actions.append({"kind": "show", "cost": 2 * self.stake})
        elif s.seen and all(self.seats[i].seen for i in others):
            asked = self._previous_bettor(seat)
            if asked is not None:
                actions.append({"kind": "side_show", "cost": 2 * self.stake,
                                "asks": self.name(asked)})
        return actions

    def _act(self, kind: str, amount: int | None, card: str | None) -> None:
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
            assert asked is not None        # legal_actions offers it only with a bettor
            self._bet(seat, 2 * self.stake)
            self.pending_side_show = (seat, asked)
            self.events.append(f"{s.name} bets the minimum and asks {self.name(asked)} for a "
                               "side show")
            self.to_act = asked
            return
        if kind in ("accept", "refuse"):
            assert self.pending_side_show is not None   # only then legal
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

    def _visible(self, seat: int) -> dict[str, Any]:
        s = self.seats[seat]
        others = [i for i in self.active() if i != seat]
        own = format_cards(s.cards, sep="") if s.seen else "random"
        return {"game": "teen_patti", "hands": [own] + ["random"] * len(others),
                "board": "", "dead": ""}
