"""Fixed-limit betting rounds, shared by The and the hold'em family: check, bet, call,
raise (up to a cap) and fold, and splitting a pot among its winners."""
from __future__ import annotations

from .engine import IllegalAction, LegalAction, Table

__all__ = ["LimitTable"]


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

    def legal_actions(self) -> list[LegalAction]:
        if self.finished or self.to_act is None:
            return []
        extra = self._extra_actions()
        if extra is not None:
            return extra
        s = self.seats[self.to_act]
        owe = self.current - s.round_bet
        actions: list[LegalAction] = [{"kind": "fold"}]
        if owe == 0:
            actions.append({"kind": "check"})
        else:
            actions.append({"kind": "call", "amount": owe})
        if self.bets < self.cap:
            kind = "bet" if self.current == 0 else "raise"
            actions.append({"kind": kind, "amount": self.current + self.size - s.round_bet})
        return actions

    def _extra_actions(self) -> list[LegalAction] | None:
        return None

    def _act(self, kind: str, amount: int | None, card: str | None) -> None:
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
            assert need is not None         # a call, a bet and a raise have an amount
            self.pay(seat, need)
            self.events.append(f"{s.name} calls {need}")
        else:
            assert need is not None
            self.pay(seat, need)
            self.current = s.round_bet
            self.bets += 1
            self.acted = set()
            self.aggressor = seat
            self.events.append(f"{s.name} {kind}s to {self.current}")
        self.acted.add(seat)
        self._advance(seat)

    def _extra_act(self, seat: int, kind: str, amount: int | None, card: str | None) -> bool:
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
