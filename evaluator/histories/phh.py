"""The PHH format (poker hand history, plain TOML): one hand a file (``.phh``), or many,
each under a table of its own (``[1]``, ``[2]`` ... ``.phhs``).

Read: the required fields (``variant``, ``antes``, ``blinds_or_straddles``, ``min_bet`` or
``small_bet`` and ``big_bet``, ``starting_stacks``, ``actions``) and ``players``,
``finishing_stacks``, ``winnings``; the rest is kept in ``Hand.extra``.  Each action's line
is found in the text, so that a problem names it.  Written: ``dumps`` gives a hand back as
PHH text (what ``evaluator.play`` records, or a hand read from another format).
"""
from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterator
from typing import Any

from ..cards import card_id
from ..games import game
from .hand import VARIANT_GAMES, Action, Hand, HandProblem, cards_text

__all__ = ["read_phh", "parse_actions", "dumps", "LIMITS"]

# each variant's betting: no limit, pot limit or fixed limit (the first letter of its code)
LIMITS = {"N": "no", "P": "pot", "F": "fixed"}
REQUIRED = ("variant", "antes", "starting_stacks", "actions")
ACTOR = re.compile(r"^(d|p[1-9][0-9]*)$")


def read_phh(text: str, source: str) -> Iterator[Hand | HandProblem]:
    """Every hand of a PHH file's ``text`` (one hand, or tables of hands), in order; a hand
    that cannot be read is yielded as its ``HandProblem`` instead, the others still read."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        yield HandProblem(f"not a PHH file (TOML: {error})", source, _error_line(error))
        return
    lines = text.splitlines()
    if "variant" in data or "actions" in data:
        yield _hand_or_problem(data, source, 0, 1, lines)
        return
    tables = [(key, value) for key, value in data.items() if isinstance(value, dict)]
    if not tables:
        yield HandProblem("not a PHH file: no 'variant' and no tables of hands", source, 1)
        return
    for index, (key, value) in enumerate(tables):
        header = re.compile(r"^\s*\[\s*['\"]?" + re.escape(str(key)) + r"['\"]?\s*\]")
        first = next((n for n, line in enumerate(lines, 1) if header.match(line)), 1)
        yield _hand_or_problem(value, source, index, first, lines)


def _error_line(error: tomllib.TOMLDecodeError) -> int:
    found = re.search(r"line (\d+)", str(error))
    return int(found.group(1)) if found else 1


def _hand_or_problem(data: dict, source: str, index: int, first: int,
                     lines: list[str]) -> Hand | HandProblem:
    try:
        return _hand(data, source, index, first, lines)
    except HandProblem as problem:
        problem.index = index
        return problem


def _hand(data: dict, source: str, index: int, first: int, lines: list[str]) -> Hand:
    def fail(message: str, line: int = first) -> HandProblem:
        return HandProblem(message, source, line, index)

    for name in REQUIRED:
        if name not in data:
            raise fail(f"the hand has no {name!r}")
    variant = data["variant"]
    if not isinstance(variant, str) or not variant:
        raise fail(f"'variant' must be a game code such as \"NT\", not {variant!r}")
    limit = LIMITS.get(variant[0])
    if limit is None:
        raise fail(f"unknown variant {variant!r}")
    stacks = _amounts(data["starting_stacks"], "starting_stacks", fail, positive=True)
    players = len(stacks)
    if players < 2:
        raise fail(f"a hand needs two players or more, 'starting_stacks' has {players}")
    antes = _amounts(data["antes"], "antes", fail, count=players)
    blinds = _amounts(data.get("blinds_or_straddles", [0] * players), "blinds_or_straddles",
                      fail, count=players)
    names = data.get("players") or [f"p{i + 1}" for i in range(players)]
    if not isinstance(names, list) or len(names) != players:
        raise fail(f"'players' names {len(names)} players, 'starting_stacks' {players}")
    names = [str(name) or f"p{i + 1}" for i, name in enumerate(names)]
    finishing = data.get("finishing_stacks")
    winnings = data.get("winnings")
    actions_text = data["actions"]
    if not isinstance(actions_text, list):
        raise fail("'actions' must be a list of action strings")
    actions = parse_actions(actions_text, players, _action_lines(actions_text, lines, first),
                            source, index)
    big = max([b for b in blinds if b > 0], default=0.0)
    if limit == "fixed":
        big = float(data.get("small_bet", big) or big)
    extra = {k: v for k, v in data.items() if k not in (*REQUIRED, "blinds_or_straddles",
                                                          "players", "finishing_stacks",
                                                          "winnings")}
    return Hand(
        source=source, index=index, line=first, variant=variant,
        game=game(VARIANT_GAMES[variant]) if variant in VARIANT_GAMES else None,
        players=names, starting_stacks=stacks, antes=antes, blinds=blinds, limit=limit,
        actions=actions, big_blind=big,
        finishing_stacks=(_amounts(finishing, "finishing_stacks", fail, count=players)
                          if finishing is not None else None),
        winnings=(_amounts(winnings, "winnings", fail, count=players)
                  if winnings is not None else None),
        name=str(data.get("hand", "")), extra=extra)


def _amounts(values: Any, name: str, fail, count: int | None = None,
             positive: bool = False) -> list[float]:
    if not isinstance(values, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        raise fail(f"{name!r} must be a list of numbers, not {values!r}")
    if count is not None and len(values) != count:
        raise fail(f"{name!r} has {len(values)} entries for {count} players")
    out = [float(v) for v in values]
    for v in out:
        if math.isnan(v) or v < 0 or (positive and v == 0):
            raise fail(f"{name!r} holds {v!r}: amounts are "
                       f"{'positive' if positive else 'zero or more'}")
    return out


def _action_lines(actions: list, lines: list[str], first: int) -> list[int]:
    """Each action's line in the file: found in order from the hand's first line (the
    line of ``actions = [`` where not found)."""
    at = next((n for n in range(first - 1, len(lines)) if lines[n].lstrip().startswith(
        "actions")), first - 1)
    out = []
    for text in actions:
        quoted = (f'"{text}"', f"'{text}'")
        for n in range(at, len(lines)):
            if any(q in lines[n] for q in quoted):
                at = n
                break
        out.append(at + 1)
    return out


def parse_actions(actions: list, players: int, lines: list[int], source: str = "",
                  index: int | None = None) -> list[Action]:
    """PHH action strings as ``Action`` records (comments and empty ones dropped)."""
    out: list[Action] = []
    for text, line in zip(actions, lines):
        def fail(message: str, line: int = line) -> HandProblem:
            return HandProblem(message, source, line, index)
        if not isinstance(text, str):
            raise fail(f"an action must be a string, not {text!r}")
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        actor_text = words[0]
        if not ACTOR.match(actor_text):
            raise fail(f"unknown actor {actor_text!r} in {text!r} (d, or p1 to p{players})")
        actor = None if actor_text == "d" else int(actor_text[1:]) - 1
        if actor is not None and actor >= players:
            raise fail(f"{actor_text} in {text!r}: the hand has {players} players")
        if len(words) < 2:
            raise fail(f"no action in {text!r}")
        verb, rest = words[1], words[2:]
        if actor is None:
            if verb == "db" and len(rest) == 1:
                out.append(Action(None, "board", cards=_cards(rest[0], fail), line=line))
            elif verb == "dh" and len(rest) == 2 and ACTOR.match(rest[0]) and rest[0] != "d":
                seat = int(rest[0][1:]) - 1
                if seat >= players:
                    raise fail(f"{rest[0]} in {text!r}: the hand has {players} players")
                out.append(Action(seat, "hole", cards=_cards(rest[1], fail), line=line))
            else:
                raise fail(f"unknown dealer action {text!r} (d db CARDS, d dh pN CARDS)")
            continue
        if verb == "cbr" and len(rest) == 1:
            try:
                amount = float(rest[0])
            except ValueError:
                raise fail(f"{rest[0]!r} in {text!r} is not an amount") from None
            if not amount > 0 or math.isinf(amount):
                raise fail(f"{text!r}: a bet or raise is to a positive amount")
            out.append(Action(actor, "raise", amount=amount, line=line))
        elif verb == "cc" and not rest:
            out.append(Action(actor, "call", line=line))
        elif verb == "f" and not rest:
            out.append(Action(actor, "fold", line=line))
        elif verb == "sm" and len(rest) <= 1:
            if rest and rest[0] == "-":                  # the cards dealt, shown
                out.append(Action(actor, "show dealt", line=line))
            else:
                out.append(Action(actor, "show", cards=_cards(rest[0], fail) if rest else (),
                                  line=line))
        elif verb in ("sd", "pb"):
            out.append(Action(actor, "other", cards=_cards(rest[0], fail) if rest else (),
                              line=line))
        else:
            raise fail(f"unknown action {text!r}")
    return out


def _cards(text: str, fail) -> tuple[int | None, ...]:
    if len(text) % 2:
        raise fail(f"cards {text!r}: each card is two characters (rank, suit), '??' unknown")
    out: list[int | None] = []
    for at in range(0, len(text), 2):
        pair = text[at:at + 2]
        if pair == "??":
            out.append(None)
            continue
        try:
            out.append(card_id(pair))
        except ValueError:
            raise fail(f"unknown card {pair!r} in {text!r}") from None
    return tuple(out)


# the letters of a PHH variant code after the limit's, by this package's game
GAME_CODES = {"holdem": "T", "short_deck": "S", "omaha": "O", "omaha8": "O/8",
              "omaha5": "O5", "omaha5_8": "O5/8"}


def variant_code(hand: Hand) -> str:
    """The hand's PHH variant code: its own, or made from its limit and game (``PO``,
    ``FO/8``; a game PHH has no code for yet gets one of the same form)."""
    if hand.variant[:1] in LIMITS and "/" not in hand.variant[1:2] and " " not in hand.variant:
        return hand.variant
    letters = GAME_CODES.get(hand.game.name if hand.game else "", "")
    limit = {"no": "N", "pot": "P", "fixed": "F"}[hand.limit]
    return limit + letters if letters else hand.variant


def dumps(hand: Hand) -> str:
    """``hand`` as PHH text (pokerkit reads it: ``HandHistory.loads``).  PHH has no second
    run of the board: a hand run twice keeps its second run's cards as a comment."""
    lines = [f"variant = {_toml(variant_code(hand))}",
             f"antes = {_toml(hand.antes)}",
             f"blinds_or_straddles = {_toml(hand.blinds)}"]
    if hand.limit == "fixed":
        small = hand.extra.get("small_bet", hand.big_blind)
        lines += [f"small_bet = {_toml(small)}",
                  f"big_bet = {_toml(hand.extra.get('big_bet', 2 * small))}"]
    else:
        lines.append(f"min_bet = {_toml(hand.extra.get('min_bet', hand.big_blind))}")
    lines.append(f"starting_stacks = {_toml(hand.starting_stacks)}")
    lines.append("actions = [")
    shown: set[int] = set()
    for action in hand.actions:
        if action.kind in ("show", "show dealt") and action.actor is not None:
            if action.actor in shown:
                continue                               # shown again for a second run
            shown.add(action.actor)
        text = _action_text(action)
        lines.append(f"  {_toml('# second run: ' + text[5:] if action.runs > 1 else text)},")
    lines.append("]")
    lines.append(f"players = {_toml(hand.players)}")
    if hand.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {_toml(hand.finishing_stacks)}")
    if hand.winnings is not None:
        lines.append(f"winnings = {_toml(hand.winnings)}")
    return "\n".join(lines) + "\n"


def _action_text(action: Action) -> str:
    who = "d" if action.actor is None else f"p{action.actor + 1}"
    if action.kind == "board":
        return f"d db {cards_text(action.cards)}"
    if action.kind == "hole":
        return f"d dh p{(action.actor or 0) + 1} {cards_text(action.cards)}"
    if action.kind == "raise":
        return f"{who} cbr {_number(action.amount or 0.0)}"
    if action.kind == "call":
        return f"{who} cc"
    if action.kind == "fold":
        return f"{who} f"
    if action.kind == "show":
        return f"{who} sm {cards_text(action.cards)}".rstrip()
    if action.kind == "show dealt":
        return f"{who} sm -"
    raise ValueError(f"PHH has no action for {action.kind!r}")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _toml(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, float | int):
        return "inf" if math.isinf(value) else _number(value)
    raise ValueError(f"cannot write {value!r} as TOML")
