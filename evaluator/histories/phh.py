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

from ..cards import card_str
from ..games import game
from . import toml_lines
from .hand import VARIANT_GAMES, Action, Hand, HandProblem, cards_text

__all__ = ["read_phh", "parse_actions", "dumps", "LIMITS"]

# each variant's betting: no limit, pot limit or fixed limit (the first letter of its code)
LIMITS = {"N": "no", "P": "pot", "F": "fixed"}
REQUIRED = ("variant", "antes", "starting_stacks", "actions")
# the fields a Hand holds in its own attributes; the rest go to ``Hand.extra``
READ_FIELDS = frozenset((*REQUIRED, "blinds_or_straddles", "players", "finishing_stacks",
                         "winnings", "_runs", "_first_to_act"))
MOST_CHIPS = 1e15          # chips in play past which float sums lose whole chips
ACTOR = re.compile(r"^(d|p[1-9][0-9]*)$")
HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")


def read_phh(text: str, source: str) -> Iterator[Hand | HandProblem]:
    """Every hand of a PHH file's ``text`` (one hand, or tables of hands), in order; a hand
    that cannot be read is yielded as its ``HandProblem`` instead, the others still read."""
    try:
        parsed = toml_lines.loads(text)    # PHH's part of TOML, fast; else the standard
    except ValueError as error:            # a number past Python's digits for int()
        yield HandProblem(f"not a PHH file: {error}", source, 1)
        return
    if parsed is None:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            yield HandProblem(f"not a PHH file (TOML: {error})", source, _error_line(error))
            return
        except ValueError as error:
            yield HandProblem(f"not a PHH file: {error}", source, 1)
            return
        parsed = toml_lines.Parsed()
        parsed.data = data
    data = parsed.data
    lines = text.splitlines()
    if "variant" in data or "actions" in data:
        yield _hand_or_problem(data, source, 0, 1, lines, parsed.lines.get((None, "actions")))
        return
    tables = [(key, value) for key, value in data.items() if isinstance(value, dict)]
    if not tables:
        yield HandProblem("not a PHH file: no 'variant' and no tables of hands", source, 1)
        return
    headers = parsed.tables
    if not headers:                                # read by tomllib: found in one pass
        for n, line in enumerate(lines, 1):
            found = HEADER.match(line)
            if found:
                headers.setdefault(found.group(1).strip("'\""), n)
    for index, (key, value) in enumerate(tables):
        yield _hand_or_problem(value, source, index, headers.get(str(key), 1), lines,
                               parsed.lines.get((key, "actions")))


def _error_line(error: tomllib.TOMLDecodeError) -> int:
    found = re.search(r"line (\d+)", str(error))
    return int(found.group(1)) if found else 1


def _hand_or_problem(data: dict, source: str, index: int, first: int,
                     lines: list[str], action_lines: list[int] | None) -> Hand | HandProblem:
    try:
        return _hand(data, source, index, first, lines, action_lines)
    except HandProblem as problem:
        problem.index = index
        return problem


def _hand(data: dict, source: str, index: int, first: int, lines: list[str],
          action_lines: list[int] | None) -> Hand:
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
    if sum(stacks) > MOST_CHIPS and not any(map(math.isinf, stacks)):
        raise fail(f"'starting_stacks' hold {sum(stacks):.3g} chips: past {MOST_CHIPS:.0e} "
                   "chips in all, sums of them lose whole chips; write them in a larger unit")
    names = data.get("players", [f"p{i + 1}" for i in range(players)])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise fail(f"'players' must be a list of names, not {names!r}")
    if len(names) != players:
        raise fail(f"'players' names {len(names)} players, 'starting_stacks' has "
                   f"{players} stacks")
    names = [name or f"p{i + 1}" for i, name in enumerate(names)]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise fail(f"player {twice[0]!r} is named twice: names must be distinct")
    for name in ("min_bet", "small_bet", "big_bet"):
        if name in data:
            _amounts([data[name]], name, fail, positive=True)
    if limit == "fixed" and not ("small_bet" in data and "big_bet" in data):
        raise fail(f"a fixed-limit hand ({variant}) needs 'small_bet' and 'big_bet'")
    if limit != "fixed" and "min_bet" not in data:
        raise fail(f"a no-limit or pot-limit hand ({variant}) needs 'min_bet'")
    finishing = data.get("finishing_stacks")
    winnings = data.get("winnings")
    actions_text = data["actions"]
    if not isinstance(actions_text, list):
        raise fail("'actions' must be a list of action strings")
    if action_lines is None:
        action_lines = _action_lines(actions_text, lines, first)
    actions = parse_actions(actions_text, players, action_lines, source, index)
    # the big blind, as the stats count in it and the least bet after the flop: min_bet
    # (a straddle is a larger blind, not a larger big blind); fixed limit: the small bet
    big = float(data["small_bet"] if limit == "fixed" else data["min_bet"])
    extra = {k: v for k, v in data.items() if k not in READ_FIELDS}
    return Hand(
        source=source, index=index, line=first, variant=variant,
        game=game(VARIANT_GAMES[variant]) if variant in VARIANT_GAMES else None,
        players=names, starting_stacks=stacks, antes=antes, blinds=blinds, limit=limit,
        actions=actions, big_blind=big,
        finishing_stacks=(_amounts(finishing, "finishing_stacks", fail, count=players)
                          if finishing is not None else None),
        winnings=(_amounts(winnings, "winnings", fail, count=players)
                  if winnings is not None else None),
        name=str(data.get("hand", "")), runs=_runs(data.get("_runs", 1), fail),
        first_to_act=_first(data.get("_first_to_act"), players, fail), extra=extra)


def _runs(value: Any, fail) -> int:
    """The boards a hand was run on (``_runs``: this package's field, for run it twice)."""
    if value not in (1, 2) or isinstance(value, bool):
        raise fail(f"'_runs' is 1 or 2 (run it twice), not {value!r}")
    return int(value)


def _first(value: Any, players: int, fail) -> int | None:
    """``_first_to_act`` (this package's field, ``"p3"``): who acts first pre-flop where
    the blinds do not say (a dead blind, a kill pot)."""
    if value is None:
        return None
    if not isinstance(value, str) or not ACTOR.match(value) or value == "d" or \
            int(value[1:]) > players:
        raise fail(f"'_first_to_act' names a player, p1 to p{players}, not {value!r}")
    return int(value[1:]) - 1


def _amounts(values: Any, name: str, fail, count: int | None = None,
             positive: bool = False) -> list[float]:
    if values.__class__ is not list or not all(
            v.__class__ is int or v.__class__ is float for v in values):   # a bool is not
        raise fail(f"{name!r} must be a list of numbers, not {values!r}")
    if count is not None and len(values) != count:
        raise fail(f"{name!r} has {len(values)} entries for {count} players")
    out = list(map(float, values))
    for v in out:
        if not (v > 0 if positive else v >= 0):         # a NaN is neither
            raise fail(f"{name!r} holds {v!r}: amounts are "
                       f"{'positive' if positive else 'zero or more'}")
    return out


SEARCH_LINES = 50        # lines after the last action searched for the next one


def _action_lines(actions: list, lines: list[str], first: int) -> list[int]:
    """Each action's line in the file: found in order from the hand's first line (the
    line of ``actions = [`` where not found)."""
    at = next((n for n in range(first - 1, len(lines)) if lines[n].lstrip().startswith(
        "actions")), first - 1)
    out = []
    for text in actions:
        quoted = (f'"{text}"', f"'{text}'") if isinstance(text, str) else ()
        for n in range(at, min(at + SEARCH_LINES, len(lines))):   # a written-out action
            if any(q in lines[n] for q in quoted):                 # is near the last one
                at = n
                break
        out.append(at + 1)
    return out


def parse_actions(actions: list, players: int, lines: list[int], source: str = "",
                  index: int | None = None) -> list[Action]:
    """PHH action strings as ``Action`` records (comments and empty ones dropped)."""
    known = _READ
    make = tuple.__new__
    try:
        reads: list[tuple] = [known[text] for text in actions]
    except (KeyError, TypeError):       # one not read before, or no text (named below)
        reads = []
    if reads and max([read[0] for read in reads]) < players:
        # every action read before (the most of a large file's): made from the records
        return [make(Action, (read[1], read[2], read[3], read[4], line, 1))
                for read, line in zip(reads, lines)]
    out: list[Action] = []
    seats = {f"p{p + 1}": p for p in range(players)}
    for text, line in zip(actions, lines):
        # the same action text reads the same in every hand where its player is seated
        read = known.get(text) if text.__class__ is str else None
        if read is not None and read[0] < players:
            out.append(make(Action, (read[1], read[2], read[3], read[4], line, 1)))
            continue
        if not isinstance(text, str):
            raise HandProblem(f"an action must be a string, not {text!r}", source, line, index)
        words = (text.split("#", 1)[0] if "#" in text else text).split()
        if not words:
            continue
        try:
            action = _action(words, seats, line)
        except ValueError as error:
            message = str(error).replace("{text}", repr(text))
            raise HandProblem(message.replace("{players}", str(players)), source, line,
                              index) from None
        out.append(action)
        if action.kind != "board":              # boards seldom repeat: they would crowd
            if len(known) >= READ_KEPT:         # out the rest
                known.clear()
            known[text] = (-1 if action.actor is None else action.actor, *action[:4])
    return out


# action texts already read: (the seat it names, or -1; actor, kind, amount, cards)
_READ: dict[str, tuple] = {}
READ_KEPT = 50_000


def _action(words: list[str], seats: dict[str, int], line: int) -> Action:
    """One action's words as an ``Action``; a ``ValueError`` whose message has ``{text}``
    (the action) and ``{players}`` to fill."""
    actor_text = words[0]
    if len(words) < 2:
        raise ValueError("no action in {text}")
    verb = words[1]
    if actor_text == "d":
        if verb == "db" and len(words) == 3:
            return Action(None, "board", None, _cards(words[2]), line)
        if verb == "dh" and len(words) == 4:
            seat = seats.get(words[2])
            if seat is None:
                raise ValueError(f"{words[2]} in {{text}}: not a player of the hand's "
                                 "{players}")
            return Action(seat, "hole", None, _cards(words[3]), line)
        raise ValueError("unknown dealer action {text} (d db CARDS, d dh pN CARDS)")
    actor = seats.get(actor_text)
    if actor is None:
        if ACTOR.match(actor_text):
            raise ValueError(f"{actor_text} in {{text}}: the hand has {{players}} players")
        raise ValueError(f"unknown actor {actor_text!r} in {{text}} (d, or p1 to "
                         "p{players})")
    rest = len(words) - 2
    if verb == "cc" and not rest:
        return Action(actor, "call", None, (), line)
    if verb == "f" and not rest:
        return Action(actor, "fold", None, (), line)
    if verb == "cbr" and rest == 1:
        try:
            amount = float(words[2])
        except ValueError:
            raise ValueError(f"{words[2]!r} in {{text}} is not an amount") from None
        if not amount > 0 or math.isinf(amount):
            raise ValueError("{text}: a bet or raise is to a positive amount")
        return Action(actor, "raise", amount, (), line)
    if verb == "sm" and rest <= 1:
        if rest and words[2] == "-":                    # the cards dealt, shown
            return Action(actor, "show dealt", None, (), line)
        return Action(actor, "show", None, _cards(words[2]) if rest else (), line)
    if verb in ("sd", "pb"):
        return Action(actor, "other", None, _cards(words[2]) if rest else (), line)
    raise ValueError("unknown action {text}")


CARD_IDS: dict[str, int | None] = {card_str(c): c for c in range(52)} | {"??": None}


def _cards(text: str) -> tuple[int | None, ...]:
    cards = _CARDS_READ.get(text)       # two cards (hold'em's hole cards) repeat
    if cards is None:
        cards = _read_cards(text)
        if len(text) <= 4:
            _CARDS_READ[text] = cards       # at most 2,809 texts of 52 cards and '??'
    return cards


_CARDS_READ: dict[str, tuple[int | None, ...]] = {}


def _read_cards(text: str) -> tuple[int | None, ...]:
    if len(text) % 2:
        raise ValueError(f"cards {text!r}: each card is two characters (rank, suit), '??' "
                         "unknown")
    try:
        cards = tuple([CARD_IDS[text[at:at + 2]] for at in range(0, len(text), 2)])
    except KeyError as error:
        raise ValueError(f"unknown card {error.args[0]!r} in {text!r}") from None
    known = [c for c in cards if c is not None]
    if len(set(known)) < len(known):
        twice = next(c for c in known if known.count(c) > 1)
        raise ValueError(f"card {card_str(twice)} twice in {text!r}")
    return cards


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
    # this package's own fields (PHH's user fields, "_" first): what PHH cannot say
    if hand.runs > 1:
        lines.append(f"_runs = {hand.runs}")
    if hand.first_to_act is not None:
        lines.append(f'_first_to_act = "p{hand.first_to_act + 1}"')
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
