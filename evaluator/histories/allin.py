"""All-in EV: what each player's chips would be had every all-in been paid by equity.

As the trackers define it: the equity is taken once no more betting is possible (every
player still in but at most one is all in) with board cards to come; each pot, main and
side, is shared among its eligible players by their exact equity over the cards still to
come (hi-lo pots by their high and low shares); a hand where an eligible player's cards
are unknown, and an all-in on the river, is not adjusted.  Every card the history shows,
a folded player's included, is out of the deck.  A rake the file's stacks show is taken
from the expected pots in proportion.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from ..engine import equity
from ..errors import EvaluatorError
from .hand import Hand, HandProblem, Problem, cards_text
from .replay import Replayed, replay

__all__ = ["AllinRow", "PlayerSummary", "StreetEquity", "Totals", "allin_rows", "allin_ev",
           "hand_rows", "hand_equities", "summarize", "STREETS"]

STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


@dataclass(frozen=True)
class AllinRow:
    """One player of one hand.

    ``hand``: the file and the hand's index (``path#3``); ``net``: chips won less chips
    put in (None where the history does not say who won); ``allin_ev``: ``net`` adjusted
    for the all-in (None where the hand is not adjusted); ``allin_equity``: the player's
    share of the pots they could win, weighted by those pots, at the all-in (None where
    not adjusted or not in it); ``allin_street``: where the all-in was ("preflop",
    "flop", "turn"; None without one); ``pots``: each pot's chips and eligible players
    (their indices), as text: ``"1200:0,2 300:0"``; ``big_blind`` the hand's.
    """
    hand: str
    player: str
    seat: int
    game: str
    net: float | None
    allin_ev: float | None
    allin_equity: float | None
    allin_street: str | None
    cards: str
    board: str
    pots: str
    big_blind: float

    def to_dict(self) -> dict:
        return dict(self.__dict__)      # the fields, flat (``asdict`` took 20x as long)

    @classmethod
    def from_dict(cls, record: dict) -> AllinRow:
        """A row as ``to_dict`` gave it, or as a CSV file of rows reads back (text)."""
        def number(name: str) -> float | None:
            value = record.get(name)
            return None if value in (None, "") else float(value)

        def text(name: str) -> str | None:
            value = record.get(name)
            return None if value in (None, "") else str(value)
        return cls(hand=str(record["hand"]), player=str(record["player"]),
                   seat=int(record["seat"]), game=str(record["game"]), net=number("net"),
                   allin_ev=number("allin_ev"), allin_equity=number("allin_equity"),
                   allin_street=text("allin_street"), cards=str(record.get("cards") or ""),
                   board=str(record.get("board") or ""), pots=str(record.get("pots") or ""),
                   big_blind=number("big_blind") or 0.0)


def allin_rows(done: Replayed) -> list[AllinRow]:
    """The rows of one replayed hand, one per player."""
    hand = done.hand
    net = done.net
    adjusted = _expected(done)
    # the street of an adjusted all-in (None where the hand is not adjusted)
    street = STREETS.get(done.allin_board) if adjusted is not None and \
        done.allin_board is not None else None
    pots = " ".join(f"{pot.amount:.12g}:{','.join(map(str, pot.eligible))}"
                    for pot in done.pots)
    board = cards_text(done.board)
    where = hand.where
    name_of_game = hand.game.name if hand.game else hand.variant
    rows = []
    for p, name in enumerate(hand.players):
        ev = share = None
        if adjusted is not None:
            ev = adjusted[0][p] - done.contributed[p]
            share = adjusted[1][p]
        rows.append(AllinRow(
            hand=where, player=name, seat=p, game=name_of_game,
            net=net[p] if net is not None else None, allin_ev=ev, allin_equity=share,
            allin_street=street, cards=cards_text(done.holes[p]), board=board, pots=pots,
            big_blind=hand.big_blind))
    return rows


def _expected(done: Replayed) -> tuple[list[float], list[float | None]] | None:
    """(each player's expected chips from the pots, their pot-weighted equity) at the
    all-in; None where the hand is not adjusted."""
    if done.allin_board is None or done.hand.game is None:
        return None
    g = done.hand.game
    contested = [pot for pot in done.pots if len(pot.eligible) > 1]
    if not contested:
        return None
    players = sorted({p for pot in contested for p in pot.eligible})
    if any(len(done.holes[p]) != g.hole or None in done.holes[p] for p in players):
        return None                                  # a hand in the all-in is not known
    board = done.board[:done.allin_board]
    shown = {c for p, hole in enumerate(done.holes) for c in hole if c is not None}
    n = len(done.hand.players)
    expected = [0.0] * n
    weighted = [0.0] * n
    at_stake = [0.0] * n
    cache: dict[tuple[int, ...], list[float]] = {}
    for pot in done.pots:
        if len(pot.eligible) == 1:
            expected[pot.eligible[0]] += pot.amount
            continue
        if pot.eligible not in cache:
            hands = [[c for c in done.holes[p] if c is not None] for p in pot.eligible]
            mine = {c for hole in hands for c in hole}
            dead = sorted(shown - mine - set(board))
            try:
                result = equity(g, hands, board, dead, exact=True)
            except EvaluatorError as error:     # a spot the replay let through
                raise HandProblem(f"the all-in's equity: {error}", done.hand.source,
                                  done.hand.line, done.hand.index) from None
            cache[pot.eligible] = [player.equity for player in result.players]
        for p, share in zip(pot.eligible, cache[pot.eligible]):
            expected[p] += pot.amount * share
            weighted[p] += pot.amount * share
            at_stake[p] += pot.amount
    # the rake comes out of the contested pots (a bet given back is never raked)
    at_issue = sum(pot.amount for pot in contested)
    if done.rake > 0 and at_issue > 0:
        kept = 1 - done.rake / at_issue
        for p in range(n):
            expected[p] -= weighted[p] * (1 - kept)
    shares = [weighted[p] / at_stake[p] if at_stake[p] > 0 else None for p in range(n)]
    return expected, shares


def _replayed(hands: Iterable[Hand | HandProblem], on_error: str, player: str | None = None,
              then=lambda done: done) -> Iterator[tuple[str, Any]]:
    """``(hand key, then(its Replayed))`` for each hand (of ``player``, where given), or
    ``(key, Problem)`` for one that cannot be read, replayed or analysed
    (``on_error="record"``; ``"stop"`` raises its ``HandProblem``)."""
    if on_error not in ("stop", "record"):
        raise ValueError(f"on_error is 'stop' or 'record', not {on_error!r}")
    for item in hands:
        try:
            if isinstance(item, HandProblem):
                raise item
            if player is not None and player not in item.players:
                continue
            yield item.where, then(replay(item))
        except HandProblem as error:
            if on_error == "stop":
                raise
            problem = Problem.of(error)
            yield problem.where, problem


def hand_rows(hands: Iterable[Hand | HandProblem], player: str | None = None,
              on_error: str = "stop") -> Iterator[tuple[str, list[AllinRow | Problem]]]:
    """Each hand's key (``path#n``) with its rows (of ``player`` only, where given; a hand
    without them is skipped), or with ``[Problem]`` for a hand that cannot be read or
    replayed (``on_error="record"``; ``"stop"`` raises its ``HandProblem``)."""
    def rows(done: Replayed) -> list[AllinRow]:
        return [r for r in allin_rows(done) if player is None or r.player == player]
    for key, got in _replayed(hands, on_error, player, rows):
        yield key, [got] if isinstance(got, Problem) else got


def allin_ev(hands: Iterable[Hand | HandProblem], player: str | None = None,
             on_error: str = "stop") -> Iterator[AllinRow | Problem]:
    """Replay each hand and yield its rows (of ``player`` only, where given): see
    ``AllinRow``.  A hand that breaks the rules or cannot be read raises its
    ``HandProblem`` with ``on_error="stop"``; with ``"record"`` it is yielded as a
    ``Problem`` and the rest are analysed.

    >>> from evaluator.histories import allin_ev, parse_histories
    >>> hand = '''variant = "NT"
    ... antes = [0, 0]
    ... blinds_or_straddles = [1, 2]
    ... min_bet = 2
    ... starting_stacks = [200, 150]
    ... actions = ["d dh p1 AsKs", "d dh p2 QhQd", "p2 cbr 6", "p1 cc", "d db 2c7d9h",
    ...            "p1 cbr 10", "p2 cbr 144", "p1 cc", "d db Kh", "d db 3c"]
    ... '''
    >>> for row in allin_ev(parse_histories(hand)):
    ...     print(row.player, row.net, round(row.allin_ev, 2), row.allin_street)
    p1 150.0 -78.18 flop
    p2 -150.0 78.18 flop
    """
    for _, rows in hand_rows(hands, player, on_error):
        yield from rows


@dataclass
class PlayerSummary:
    """A player's totals over the hands read: ``hands``, ``allins`` (hands adjusted),
    ``won`` (net chips), ``allin_ev`` (net chips with every all-in paid by equity),
    ``luck`` (``won - allin_ev``: what the cards gave above their equity) and the same
    in big blinds (each hand's net over its big blind)."""
    player: str
    hands: int = 0
    allins: int = 0
    won: float = 0.0
    allin_ev: float = 0.0
    won_bb: float = 0.0
    allin_ev_bb: float = 0.0

    @property
    def luck(self) -> float:
        return self.won - self.allin_ev

    def to_dict(self) -> dict:
        return {**asdict(self), "luck": self.luck, "luck_bb": self.won_bb - self.allin_ev_bb}


@dataclass(frozen=True)
class StreetEquity:
    """The players still in as a street began, with known cards, and each one's exact
    equity there: ``hand``, ``street`` ("preflop" ... "river"), ``board``, ``players``,
    ``cards`` and ``equity`` (pot shares, the same order)."""
    hand: str
    street: str
    board: str
    players: tuple[str, ...]
    cards: tuple[str, ...]
    equity: tuple[float, ...]

    def to_dict(self) -> dict:
        return asdict(self)


def hand_equities(hands: Iterable[Hand | HandProblem], on_error: str = "stop"
                  ) -> Iterator[StreetEquity | Problem]:
    """For every hand, each street it reached with two players or more still in whose
    cards are all known: their exact equity as that street began (every other card the
    history shows out of the deck).  Problems as ``allin_ev`` treats them.

    >>> from evaluator.histories import hand_equities, parse_histories
    >>> hand = '''variant = "NT"
    ... antes = [0, 0]
    ... blinds_or_straddles = [1, 2]
    ... min_bet = 2
    ... starting_stacks = [200, 150]
    ... actions = ["d dh p1 AsKs", "d dh p2 QhQd", "p2 cbr 6", "p1 cc", "d db 2c7d9h",
    ...            "p1 cbr 10", "p2 cbr 144", "p1 cc", "d db Kh", "d db 3c"]
    ... '''
    >>> for row in hand_equities(parse_histories(hand)):
    ...     print(row.street, row.board, [round(e, 3) for e in row.equity])
    preflop  [0.462, 0.538]
    flop 2c7d9h [0.239, 0.761]
    turn 2c7d9hKh [0.955, 0.045]
    river 2c7d9hKh3c [1.0, 0.0]
    """
    for _, done in _replayed(hands, on_error):
        if isinstance(done, Problem):
            yield done
        else:
            yield from _street_equities(done)


def _street_equities(done: Replayed) -> Iterator[StreetEquity]:
    g = done.hand.game
    if g is None:
        return
    shown = {c for hole in done.holes for c in hole if c is not None}
    for cards, players in sorted(done.streets.items()):
        if len(players) < 2 or cards > len(done.board) or any(
                len(done.holes[p]) != g.hole or None in done.holes[p] for p in players):
            continue
        board = done.board[:cards]
        hands = [[c for c in done.holes[p] if c is not None] for p in players]
        mine = {c for hole in hands for c in hole}
        result = equity(g, hands, board, sorted(shown - mine - set(board)), exact=True)
        yield StreetEquity(done.hand.where, STREETS[cards], cards_text(board),
                           tuple(done.hand.players[p] for p in players),
                           tuple(cards_text(done.holes[p]) for p in players),
                           tuple(player.equity for player in result.players))


class Totals:
    """Each player's running ``PlayerSummary`` and the problems met, added a row at a time
    (a run over millions of hands keeps these, never its rows)."""

    KEPT_PROBLEMS = 10_000     # problems listed; past them only counted (``problem_count``)

    def __init__(self) -> None:
        self.players: dict[str, PlayerSummary] = {}
        self.problems: list[Problem] = []
        self.problem_count = 0

    def add(self, row: AllinRow | Problem) -> None:
        if isinstance(row, Problem):
            self.problem_count += 1
            if len(self.problems) < self.KEPT_PROBLEMS:
                self.problems.append(row)
            return
        if row.net is None:
            return
        s = self.players.get(row.player)
        if s is None:
            s = self.players[row.player] = PlayerSummary(row.player)
        ev = row.allin_ev if row.allin_ev is not None else row.net
        s.hands += 1
        s.allins += row.allin_equity is not None
        s.won += row.net
        s.allin_ev += ev
        if row.big_blind > 0 and math.isfinite(row.big_blind):   # else no big blind: chips
            s.won_bb += row.net / row.big_blind
            s.allin_ev_bb += ev / row.big_blind

    def result(self) -> tuple[list[PlayerSummary], list[Problem]]:
        return sorted(self.players.values(), key=lambda s: (-s.hands, s.player)), \
            self.problems


def summarize(rows: Iterable[AllinRow | Problem]) -> tuple[list[PlayerSummary], list[Problem]]:
    """Each player's ``PlayerSummary`` (most hands first) and the problems met."""
    totals = Totals()
    for row in rows:
        totals.add(row)
    return totals.result()
