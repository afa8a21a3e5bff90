"""PokerStars text hand histories: cash games and tournaments of hold'em, 6+ hold'em,
Omaha, Omaha hi-lo and 5-card Omaha (hi-lo), no limit, pot limit and fixed limit, run it
twice included.

Each hand starts with a line ``PokerStars Hand #...`` (or ``PokerStars Zoom Hand``,
``PokerStars Game``) and is read into a ``Hand``: the players in the order they act after
the flop (the seat after the button first, as PHH orders them), their stacks, the antes
and blinds posted (a dead part of "small & big blinds" as an ante), every action with its
line, the cards dealt to the hero, shown, or mucked and listed in the summary, and the
chips each player collected (after the rake).  A game this package does not evaluate is
read with ``game`` None.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..cards import card_id
from ..games import Game, game
from .hand import Action, Hand, HandProblem

__all__ = ["read_pokerstars", "STARS_GAMES"]

HEADER = re.compile(r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #(?P<id>[0-9]+)")
GAME = re.compile(r"(?P<game>6\+ Hold'em|Hold'em|5 Card Omaha Hi/Lo|5 Card Omaha|Omaha Hi/Lo|"
                  r"Omaha|Courchevel Hi/Lo|Courchevel) (?P<limit>No Limit|Pot Limit|"
                  r"Fixed Limit|Limit)")
STAKES = re.compile(r"\((?P<small>[^()/ ]+)/(?P<big>[^()/ ]+)(?: [A-Z]{3})?\)")
BUTTON = re.compile(r"Seat #(?P<seat>[0-9]+) is the button")
SEAT = re.compile(r"^Seat (?P<seat>[0-9]+): (?P<name>.+?) \((?P<stack>[^ ()]+) in chips"
                  r"(?:, [^)]*)?\)(?P<rest>.*)$")
STREET = re.compile(r"^\*\*\* (?:(?P<run>FIRST|SECOND) )?(?P<street>FLOP|TURN|RIVER) \*\*\*")
BRACKETS = re.compile(r"\[([^\]]*)\]")
# the game's words, this package's game for them (None: read, not evaluated)
STARS_GAMES: dict[str, tuple[str, dict] | None] = {
    "Hold'em": ("holdem", {}), "6+ Hold'em": ("short_deck", {"trips_beat_straight": True}),
    "Omaha": ("omaha", {}), "Omaha Hi/Lo": ("omaha8", {}), "5 Card Omaha": ("omaha5", {}),
    "5 Card Omaha Hi/Lo": ("omaha5_8", {}), "Courchevel": None, "Courchevel Hi/Lo": None,
}
PLAYING = ("posts ", "folds", "checks", "calls ", "bets ", "raises ")   # a player dealt in
LIMIT_WORDS = {"No Limit": "no", "Pot Limit": "pot", "Limit": "fixed", "Fixed Limit": "fixed"}


def read_pokerstars(text: str, source: str) -> Iterator[Hand | HandProblem]:
    """Every hand of a PokerStars file's ``text``, in order; a hand that cannot be read
    is yielded as its ``HandProblem``, the others still read."""
    lines = text.splitlines()
    starts = [n for n, line in enumerate(lines) if HEADER.match(line.lstrip("\ufeff"))]
    if not starts:
        yield HandProblem("no 'PokerStars Hand #' line: not a PokerStars history", source, 1)
        return
    for index, start in enumerate(starts):
        stop = starts[index + 1] if index + 1 < len(starts) else len(lines)
        at = [start]                                  # the line being read
        try:
            yield _hand(lines, start, stop, source, index, at)
        except HandProblem as problem:
            yield problem
        except (ValueError, IndexError, KeyError) as error:
            line = lines[at[0]].strip()
            reason = error.args[0] if isinstance(error, ValueError) and error.args else error
            yield HandProblem(f"cannot read {line!r}: {reason}", source, at[0] + 1, index)


def _amount(text: str) -> float:
    return float(text.strip().lstrip("$€£").replace(",", ""))


def _cards(text: str) -> tuple[int | None, ...]:
    return tuple(card_id(c) for c in text.split())


def _hand(lines: list[str], start: int, stop: int, source: str, index: int,
          at: list[int]) -> Hand:
    def fail(message: str, n: int = start) -> HandProblem:
        return HandProblem(message, source, n + 1, index)

    header = lines[start]
    found = GAME.search(header)
    if not found:
        raise fail(f"unknown game in {header.strip()!r}")
    words, limit = found.group("game"), LIMIT_WORDS[found.group("limit")]
    named = STARS_GAMES.get(words)
    played: Game | None = game(named[0], **named[1]) if named else None
    stakes = STAKES.search(header[found.end():]) or STAKES.search(header)
    small_bet = _amount(stakes.group("small")) if stakes else 0.0
    big_bet = _amount(stakes.group("big")) if stakes else 0.0
    button = None
    seats: list[tuple[int, str, float]] = []
    n = start + 1
    while n < stop and not lines[n].startswith("Seat "):
        found_button = BUTTON.search(lines[n])
        if found_button:
            button = int(found_button.group("seat"))
        n += 1
    away: list[tuple[int, str, float]] = []            # sitting out: in if they post or act
    while n < stop and lines[n].startswith("Seat "):
        at[0] = n
        seat = SEAT.match(lines[n])
        if seat and "out of hand" not in seat.group("rest"):
            entry = (int(seat.group("seat")), seat.group("name"), _amount(seat.group("stack")))
            (away if "sitting out" in seat.group("rest") else seats).append(entry)
        n += 1
    for entry in away:
        if any(line.startswith(entry[1] + ": ") and line[len(entry[1]) + 2:].startswith(
                PLAYING) for line in lines[n:stop]):
            seats.append(entry)
    seats.sort()
    if len(seats) < 2:
        raise fail("a hand needs two players or more seated")
    if button is None:
        button = seats[-1][0]
    # the order of play after the flop: the first seat after the button first
    after = [s for s in seats if s[0] > button] + [s for s in seats if s[0] <= button]
    names = [s[1] for s in after]
    by_length = sorted(range(len(names)), key=lambda p: -len(names[p]))
    players = len(names)

    def who(line: str) -> tuple[int, str] | None:
        for p in by_length:
            if line.startswith(names[p] + ": ") or line.startswith(names[p] + " "):
                return p, line[len(names[p]):].lstrip(":").strip()
        return None

    antes = [0.0] * players
    blinds = [0.0] * players
    actions: list[Action] = []
    holes: dict[int, tuple[int | None, ...]] = {}
    collected = [0.0] * players
    first: int | None = None
    runs = 1
    in_summary = False
    summary = False
    for n in range(n, stop):  # noqa: B020   (from the line after the seats on)
        at[0] = n
        line = lines[n].rstrip()
        if not line:
            continue
        if line.startswith("*** SUMMARY ***"):
            in_summary = summary = True
            continue
        street = STREET.match(line)
        if street:
            groups = BRACKETS.findall(line)
            if not groups:
                raise fail(f"no cards on {line!r}", n)
            run = 2 if street.group("run") == "SECOND" else 1
            runs = max(runs, run)
            actions.append(Action(None, "board", cards=_cards(groups[-1]), line=n + 1,
                                  runs=run))
            continue
        if line.startswith("*** "):
            continue
        if in_summary:
            seat = re.match(r"^Seat [0-9]+: (.*)$", line)
            shown = re.search(r"(?:showed|mucked) \[([^\]]+)\]", line)
            if seat and shown:
                p_rest = who(seat.group(1))
                if p_rest:
                    holes.setdefault(p_rest[0], _cards(shown.group(1)))
            continue
        if line.startswith("Dealt to "):
            dealt = re.match(r"^Dealt to (.+?) \[([^\]]+)\]", line)
            p_rest = who(dealt.group(1) + ": ") if dealt else None
            if dealt and p_rest:
                holes[p_rest[0]] = _cards(dealt.group(2))
            continue
        returned = re.match(r"^Uncalled bet \(([^)]+)\) returned to (.+)$", line)
        if returned:
            back = who(returned.group(2) + ": ")
            if back:                       # chips the player takes back, as collected ones
                collected[back[0]] += _amount(returned.group(1))
            continue
        p_rest = who(line)
        if p_rest is None:
            continue                          # chat, table and connection notes
        p, rest = p_rest
        try:
            if rest.startswith("posts "):
                what = rest[len("posts "):]
                amount = _amount(what.rsplit(" ", 1)[-1].replace("and is all-in", "").strip()
                                 if "all-in" not in what else
                                 what.replace(" and is all-in", "").rsplit(" ", 1)[-1])
                if what.startswith("the ante"):
                    antes[p] += amount
                elif what.startswith("small & big blinds"):
                    live = min(big_bet if limit != "fixed" else small_bet, amount)
                    blinds[p] += live
                    antes[p] += amount - live
                else:
                    blinds[p] += amount
            elif rest == "folds":
                actions.append(Action(p, "fold", line=n + 1))
            elif rest.startswith("checks") or rest.startswith("calls "):
                actions.append(Action(p, "call", line=n + 1))
            elif rest.startswith("bets "):
                actions.append(Action(p, "raise", amount=_amount(rest.split()[1]),
                                      line=n + 1))
            elif rest.startswith("raises "):
                to = re.search(r" to (\S+)", rest)
                if not to:
                    raise fail(f"a raise without its total: {line!r}", n)
                actions.append(Action(p, "raise", amount=_amount(to.group(1)), line=n + 1))
            elif rest.startswith("shows ["):
                cards = _cards(BRACKETS.findall(rest)[0])
                if len(cards) == len(holes.get(p, cards)) or p not in holes:
                    holes[p] = cards                 # a part shown leaves the dealt whole
                actions.append(Action(p, "show", cards=cards, line=n + 1))
            elif rest.startswith("mucks"):
                actions.append(Action(p, "show", cards=(), line=n + 1))
            elif rest.startswith("collected "):
                collected[p] += _amount(rest.split()[1])
            else:
                continue
        except ValueError as error:
            raise fail(f"cannot read {line!r}: {error}", n) from None
        if first is None and actions and actions[-1].kind in ("fold", "call", "raise") \
                and not any(a.kind == "board" for a in actions):
            first = p
    if not summary:
        at[0] = stop - 1
        raise fail("the hand ends before its summary: a truncated history", stop - 1)
    # the hole cards known, dealt first (as PHH lists them); hands not shown are unknown
    hole = played.hole if played else 2
    dealt_actions = [Action(p, "hole", cards=holes.get(p, (None,) * hole), line=start + 1)
                     for p in range(players)]
    if players == 2:                     # heads-up: written reversed, as PHH writes them
        antes, blinds = antes[::-1], blinds[::-1]
    big = (big_bet or max(blinds)) if limit != "fixed" else small_bet   # the stakes' blind
    extra = {"small_bet": small_bet, "big_bet": big_bet} if limit == "fixed" else \
        {"min_bet": big_bet}
    return Hand(source=source, index=index, line=start + 1, variant=found.group(0),
                game=played, players=names, starting_stacks=[s[2] for s in after],
                antes=antes, blinds=blinds, limit=limit, actions=dealt_actions + actions,
                big_blind=big or big_bet, winnings=collected, name=HEADER.match(
                    header.lstrip("\ufeff")).group("id"),  # type: ignore[union-attr]
                first_to_act=first, runs=runs, extra=extra)
