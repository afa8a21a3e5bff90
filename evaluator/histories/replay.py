"""Replay a hand's chips: forced bets, every action in turn, the pots and who takes them.

``replay(hand)`` checks what a table would (each player acts in turn, bets within the
stack and the betting rules of the limit, a street dealt only once its betting is over,
no card dealt twice) and returns a ``Replayed``: what each player put in, the pots and
their eligible players, the cards each shows, the board when no more betting was possible
with cards to come (the all-in), and the chips each took.  Those come from the showdown
where every eligible hand is known (valued by ``evaluate_batch``), and must then match the
file's ``finishing_stacks`` (less a rake taken from the winners); where the hands are
not known they are the file's.  A hand that breaks a rule or does not add up raises
``HandProblem`` naming its line.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from ..cards import card_str
from ..families import family
from ..games import Game
from .hand import Action, Hand, HandProblem

__all__ = ["Pot", "Replayed", "replay", "button_game"]

STREET_CARDS = (3, 1, 1)        # the board cards each street after the first deals
MOST_RAKE = 0.10                # of the pot played: chips a file leaves out past it are lost
                                # chips, not a rake


@dataclass(frozen=True)
class Pot:
    """A main or side pot: its chips and the players who can win it (one player: a bet
    no one called, given back)."""
    amount: float
    eligible: tuple[int, ...]


@dataclass
class Replayed:
    """A replayed hand (see the module's docstring).  ``holes[p]``: the cards known of
    player p (None for a card not shown); ``allin_board``: the board cards out when the
    betting ended with an all-in and cards still to come (None: it did not);
    ``won[p]``: the chips p took (None where neither the showdown nor the file says);
    ``rake``: what the file's stacks leave out of the pots; ``streets``: the players
    still in as each street began, by its board cards (0: pre-flop)."""
    hand: Hand
    contributed: list[float]
    folded: list[bool]
    mucked: list[bool]
    holes: list[list[int | None]]
    board: list[int]
    allin_board: int | None
    pots: list[Pot]
    won: list[float] | None
    rake: float
    streets: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def net(self) -> list[float] | None:
        """Each player's chips won less chips put in (None where ``won`` is)."""
        if self.won is None:
            return None
        return [w - c for w, c in zip(self.won, self.contributed)]


def button_game(hand: Hand) -> bool:
    """Whether the hand's variant deals a board with blinds (the games replayed here)."""
    return hand.game is not None


class _Table:
    """The state of the hand while its actions are replayed."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.n = n = len(hand.players)
        self.stacks = list(hand.starting_stacks)
        self.bets = [0.0] * n
        self.put = [0.0] * n
        self.folded = [False] * n
        self.mucked = [False] * n
        self.acted = [False] * n
        # this betting round: who has acted, and who has faced a full raise since (a
        # player who acted may raise again only then: an all-in short of a full raise
        # asks the others to call or fold)
        self.moved = [False] * n
        self.reopened = [False] * n
        self.order = _orders(n)         # self.order[p]: the seats in turn after p
        self.holes: list[list[int | None]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.seen: dict[int, str] = {}
        assert hand.game is not None
        self.deck = _deck(hand.game)
        self.street = 0
        self.allin_board: int | None = None
        self.streets: dict[int, tuple[int, ...]] = {0: tuple(range(n))}   # who saw each
        # pre-flop a raise is at least the largest forced bet (a straddle's); later the
        # least bet (min_bet, the big blind)
        self.last_raise = max([hand.big_blind, *hand.blinds])
        antes, blinds = list(hand.antes), list(hand.blinds)
        if n == 2:                      # heads-up: the forced bets are posted reversed
            antes, blinds = antes[::-1], blinds[::-1]
        if any(antes):
            for p in range(n):
                self._pay(p, antes[p])
        self.put_antes = list(self.put)
        for p in range(n):
            if blinds[p]:
                self.bets[p] = self._pay(p, blinds[p])
        self.top = max(self.bets)
        # pre-flop the player after the largest forced bet acts first (heads-up: the button)
        biggest = max(zip(blinds, range(n)))[1] if any(blinds) else n - 1
        first = hand.first_to_act
        self.to_act = self._next_to_act(biggest if first is None else (first - 1) % n)
        self._check_allin()             # the forced bets alone may leave no betting

    def _pay(self, p: int, amount: float) -> float:
        paid = min(amount, self.stacks[p])
        self.stacks[p] -= paid
        self.put[p] += paid
        return paid

    def _next_to_act(self, after: int) -> int | None:
        """The next player after ``after`` who must act; None once the round is over."""
        folded, stacks, bets, acted, top = (self.folded, self.stacks, self.bets, self.acted,
                                            self.top)
        found = None
        able = live = 0
        last = -1
        for p in self.order[after]:
            if folded[p]:
                continue
            live += 1
            if stacks[p] > 0:
                able += 1
                last = p
                if found is None and (not acted[p] or bets[p] < top):
                    found = p
                if able > 1 and found is not None:
                    return found        # two can still bet: the rest need not be seen
        if live < 2 or (able == 1 and bets[last] >= top):
            return None                 # the others are all in and matched: no betting
        return found

    def fail(self, message: str, action: Action) -> HandProblem:
        return HandProblem(message, self.hand.source, action.line, self.hand.index)

    def name(self, p: int) -> str:
        return f"p{p + 1}"

    # --- the actions ---------------------------------------------------------------

    def play(self, actions: list[Action]) -> None:
        """Every action in turn (the bets first: most actions are)."""
        bet, hole, board, show = self._bet, self._deal_hole, self._deal_board, self._show
        for action in actions:
            kind = action.kind
            if kind == "call" or kind == "fold" or kind == "raise":
                bet(action)
            elif kind == "hole":
                hole(action)
            elif kind == "board":
                board(action)
            elif kind == "show" or kind == "show dealt":
                show(action)
            elif kind == "other":
                raise self.fail("a draw or bring-in has no place in a board game", action)

    def _take(self, cards, who: str, action: Action, shown: bool = False) -> None:
        """Cards come out of the deck: each in the game's deck and dealt once (a player
        showing the cards dealt to them takes nothing new)."""
        known = cards if None not in cards else [c for c in cards if c is not None]
        if len(set(known)) < len(known):
            twice = next(c for c in known if known.count(c) > 1)
            raise self.fail(f"card {card_str(twice)} twice in one deal ({who})", action)
        for c in known:
            if c not in self.deck:
                raise self.fail(f"card {card_str(c)} is not in the deck of "
                                f"{self.hand.variant} ({who})", action)
            owner = self.seen.get(c)
            if owner is not None and not (shown and owner == who):
                raise self.fail(f"card {card_str(c)} dealt twice ({owner} and {who})",
                                action)
            self.seen[c] = who

    def _deal_hole(self, action: Action) -> None:
        p = action.actor
        assert p is not None
        hole = self.hand.game.hole if self.hand.game else len(action.cards)
        if self.holes[p] or len(action.cards) != hole:
            raise self.fail(f"{self.name(p)} is dealt {len(action.cards)} hole cards; "
                            f"{self.hand.variant} deals {hole} once", action)
        self._take(action.cards, self.name(p), action)
        self.holes[p] = list(action.cards)

    def _deal_board(self, action: Action) -> None:
        if action.runs > 1:            # run it twice: the second run's cards, after the first
            if self.allin_board is None:
                raise self.fail("a second run without an all-in", action)
            self._take(action.cards, "the second run", action)
            return
        if self.to_act is not None:
            raise self.fail(f"the board is dealt while {self.name(self.to_act)} is to act",
                            action)
        if self.folded.count(False) < 2:
            raise self.fail("the board is dealt after every player but one folded", action)
        if self.street >= len(STREET_CARDS) or len(action.cards) != STREET_CARDS[self.street]:
            raise self.fail(f"{len(action.cards)} board cards dealt where the next street "
                            "deals " + (str(STREET_CARDS[self.street])
                                        if self.street < len(STREET_CARDS) else "none"),
                            action)
        if any(c is None for c in action.cards):
            raise self.fail("a board card is unknown ('??')", action)
        self._take(action.cards, "the board", action)
        self.board += [c for c in action.cards if c is not None]
        self.street += 1
        self.streets[len(self.board)] = tuple([p for p in range(self.n) if not self.folded[p]])
        self.bets = [0.0] * self.n
        self.acted = [False] * self.n
        self.moved = [False] * self.n
        self.reopened = [False] * self.n
        self.top = 0.0
        self.last_raise = self._bet_unit()
        self.to_act = self._next_to_act(self.n - 1)

    def _show(self, action: Action) -> None:
        p = action.actor
        assert p is not None
        if self.folded[p]:
            raise self.fail(f"{self.name(p)} shows after folding", action)
        if action.kind == "show dealt":
            return
        if not action.cards:
            self.mucked[p] = True
            return
        if self.holes[p] and len(action.cards) != len(self.holes[p]):
            raise self.fail(f"{self.name(p)} shows {len(action.cards)} cards, was dealt "
                            f"{len(self.holes[p])}", action)
        known = self.holes[p] or [None] * len(action.cards)
        for a, b in zip(known, action.cards):
            if a is not None and b is not None and a != b:
                raise self.fail(f"{self.name(p)} shows {card_str(b)}, was dealt "
                                f"{card_str(a)}", action)
        self._take(action.cards, self.name(p), action, shown=True)
        self.holes[p] = [a if a is not None else b for a, b in zip(known, action.cards)]

    def _bet_unit(self) -> float:
        hand = self.hand
        if hand.limit != "fixed":
            return hand.big_blind
        small = float(hand.extra.get("small_bet", hand.big_blind))
        return float(hand.extra.get("big_bet", 2 * small)) if self.street >= 2 else small

    def _bet(self, action: Action) -> None:
        p = action.actor
        assert p is not None
        if self.to_act is None:
            raise self.fail(f"{self.name(p)} acts when no betting is open", action)
        if p != self.to_act:
            raise self.fail(f"{self.name(p)} acts out of turn: {self.name(self.to_act)} is "
                            "to act", action)
        kind = action.kind
        if kind == "fold":
            self.folded[p] = True
        elif kind == "call":
            stacks = self.stacks
            paid = min(self.top - self.bets[p], stacks[p])
            stacks[p] -= paid
            self.put[p] += paid
            self.bets[p] += paid
        else:
            if self.moved[p] and not self.reopened[p]:
                raise self.fail(f"{self.name(p)} raises again though no full raise came "
                                "since they acted (an all-in short of a raise lets them "
                                "call or fold only)", action)
            self._raise(p, float(action.amount or 0.0), action)
        self.acted[p] = self.moved[p] = True
        self.reopened[p] = False
        self.to_act = self._next_to_act(p)
        if self.to_act is None:
            self._check_allin()

    def _raise(self, p: int, to: float, action: Action) -> None:
        most = self.bets[p] + self.stacks[p]
        if to > most * (1 + 1e-12):
            raise self.fail(f"{self.name(p)} bets to {to:g} with {most:g} in front",
                            action)
        if to <= self.top:
            raise self.fail(f"{self.name(p)} 'raises' to {to:g}, not above the bet of "
                            f"{self.top:g} (a call is 'cc')", action)
        all_in = to >= most * (1 - 1e-12)
        least = self.top + (self._bet_unit() if self.hand.limit == "fixed" else
                            self.last_raise)
        if not all_in and to < least * (1 - 1e-12):
            raise self.fail(f"{self.name(p)} raises to {to:g}, below the least raise "
                            f"(to {least:g})", action)
        if self.hand.limit == "fixed" and to > least * (1 + 1e-12):
            raise self.fail(f"{self.name(p)} raises to {to:g}; the fixed limit raises to "
                            f"{least:g}", action)
        if self.hand.limit == "pot":
            owed = self.top - self.bets[p]
            cap = self.top + sum(self.put) + owed
            if to > cap * (1 + 1e-12):
                raise self.fail(f"{self.name(p)} raises to {to:g}, above the pot limit "
                                f"(to {cap:g})", action)
        paid = self._pay(p, to - self.bets[p])
        self.bets[p] += paid
        step = self._bet_unit() if self.hand.limit == "fixed" else self.last_raise
        full = self.bets[p] - self.top >= step * (1 - 1e-12)
        if full and self.hand.limit != "fixed":
            self.last_raise = self.bets[p] - self.top
        self.top = self.bets[p]
        for q in range(self.n):
            if q != p:
                self.acted[q] = False
                self.reopened[q] = self.reopened[q] or full

    def _check_allin(self) -> None:
        if self.to_act is not None or self.allin_board is not None:
            return
        live = [p for p in range(self.n) if not self.folded[p]]
        able = [p for p in live if self.stacks[p] > 0]
        if len(live) >= 2 and len(able) <= 1 and len(self.board) < 5:
            self.allin_board = len(self.board)

    # --- the end -------------------------------------------------------------------

    def pots(self) -> list[Pot]:
        live = [p for p in range(self.n) if not self.folded[p]]
        levels = sorted({self.put[p] for p in live})
        pots: list[Pot] = []
        below = 0.0
        for level in levels:
            amount = sum(min(c, level) - min(c, below) for c in self.put)
            eligible = tuple(p for p in live if self.put[p] >= level)
            if amount > 0:
                pots.append(Pot(amount, eligible))
            below = level
        rest = sum(max(0.0, c - below) for c in self.put)     # folded above every caller
        if rest > 0 and pots:
            pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
        return pots


def replay(hand: Hand) -> Replayed:
    """Replay ``hand`` (see the module's docstring); raises ``HandProblem``."""
    if hand.game is None:
        raise HandProblem(f"variant {hand.variant!r} is read but not replayed: this package "
                          "evaluates board games with blinds (NT, NS, PO, FO/8, FT ...)",
                          hand.source, hand.line, hand.index)
    table = _Table(hand)
    table.play(hand.actions)
    table._check_allin()
    live = [p for p in range(table.n) if not table.folded[p]]
    last = hand.actions[-1] if hand.actions else Action(None, "other", line=hand.line)
    over = len(live) == 1 or (len(table.board) == 5 and table.to_act is None)
    if not over:
        waiting = (f"{table.name(table.to_act)} is to act" if table.to_act is not None
                   else "the board is not complete")
        raise table.fail(f"the hand ends before its showdown: {waiting}", last)
    pots = table.pots()
    # run it twice: the pots split by two boards; the file's chips say who took what
    won = _showdown(table, pots) if hand.runs == 1 else None
    rake = 0.0
    recorded = None
    if hand.finishing_stacks is not None and not any(map(math.isinf, hand.starting_stacks)):
        recorded = [f - (s - c) for f, s, c in zip(hand.finishing_stacks,
                                                    hand.starting_stacks, table.put)]
    elif hand.winnings is not None:
        recorded = list(hand.winnings)
    if recorded is not None:
        rake = sum(pot.amount for pot in pots) - sum(recorded)
        slack = 1e-9 * max(1.0, sum(x for x in hand.starting_stacks if math.isfinite(x)))
        if rake < -slack:
            raise table.fail(f"the file's chips hold {-rake:g} more than the pots", last)
        # a rake comes out of the pot as played, less the bet no one called (given back)
        put = sorted(table.put)
        played = sum(put) - (put[-1] - put[-2])
        if rake > MOST_RAKE * played + slack:
            raise table.fail(f"the file's chips leave {rake:g} of the {played:g} in play out: "
                             f"more than a rake ({MOST_RAKE:.0%} at most)", last)
        if won is not None:
            _check_won(table, won, recorded, pots, last)
        won = recorded
    rake = max(rake, 0.0)
    return Replayed(hand, list(table.put), list(table.folded), list(table.mucked),
                    table.holes, list(table.board), table.allin_board, pots, won, rake,
                    table.streets)


def _showdown(table: _Table, pots: list[Pot]) -> list[float] | None:
    """Each player's chips from the pots where every contender's hand is known (a player
    who mucked concedes); None where some pot's winner cannot be told."""
    g = table.hand.game
    assert g is not None
    won = [0.0] * table.n
    for pot in pots:
        contenders = [p for p in pot.eligible if not table.mucked[p]] or list(pot.eligible)
        if len(contenders) == 1:
            won[contenders[0]] += pot.amount
            continue
        if len(table.board) != 5 or any(len(table.holes[p]) != g.hole or None in table.holes[p]
                                        for p in contenders):
            return None
        rows = np.array([[*table.holes[p], *table.board] for p in contenders], np.uint8)
        highs = dict(zip(contenders, _values(g, rows, False)))
        lows = {}
        if g.hilo:               # 0: no qualifying low (bigger is better among the rest)
            lows = {p: v for p, v in zip(contenders, _values(g, rows, True)) if v > 0}
        halves = [(pot.amount / 2, highs), (pot.amount / 2, lows)] if lows else \
            [(pot.amount, highs)]
        for amount, ranked in halves:
            best = max(ranked.values())
            winners = [p for p, v in ranked.items() if v == best]
            for p in winners:
                won[p] += amount / len(winners)
    return won


@functools.lru_cache(maxsize=64)
def _orders(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple((*range(p + 1, n), *range(p + 1)) for p in range(n))


@functools.lru_cache(maxsize=64)
def _deck(g: Game) -> frozenset[int]:
    return frozenset(g.deck)


def _values(g: Game, rows: np.ndarray, low: bool) -> list[int]:
    """The values of a showdown's hands (rows checked by the replay), through the game's
    row kernel directly: a few microseconds against ``evaluate_batch``'s fifty."""
    kernel, lead, tables = _row_kernel(g, low, rows.shape[1])
    out = np.empty(len(rows), np.int32)
    kernel(rows, *lead, out, *tables)
    return out.tolist()


@functools.lru_cache(maxsize=64)
def _row_kernel(g: Game, low: bool, width: int):
    return family(g).batch_kernel(g, low, width)


def _check_won(table: _Table, won: list[float], recorded: list[float], pots: list[Pot],
               last: Action) -> None:
    """The file's chips against the showdown's: equal but for odd chips of split pots
    and a rake taken from the winners."""
    scale = max([1.0, *(x for x in table.hand.starting_stacks if math.isfinite(x))])
    unit = _chip(table.hand)
    for p in range(table.n):
        split = sum(1 for pot in pots if p in pot.eligible and len(pot.eligible) > 1)
        slack = split * unit + 1e-9 * scale
        took = won[p] - recorded[p]
        if took < -slack or (took > slack and won[p] <= 0):
            raise table.fail(f"{table.name(p)} ({table.hand.players[p]}) takes "
                             f"{recorded[p]:g} chips in the file, {won[p]:g} by the "
                             "replay", last)


def _chip(hand: Hand) -> float:
    """The smallest chip of the hand's amounts: 1 where they are whole, else a cent (an
    odd chip of a split pot goes to one player)."""
    amounts = [*hand.starting_stacks, *hand.antes, *hand.blinds,
               *(a.amount for a in hand.actions if a.amount is not None)]
    return 1.0 if all(math.isinf(a) or float(a).is_integer() for a in amounts) else 0.01
