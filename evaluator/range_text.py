"""Ranges as text for other tools: PioSolver / GTO Wizard, GTO+ and PokerStove notation
(``Range.to_text``)."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .cards import format_cards
from .classes import RANKS
from .errors import RangeError, check_type
from .errors import short_text as _short
from .games import Game
from .listing import holdem_syntax

__all__ = ["write"]


def write(text: str, game: Game, combos: np.ndarray, weights: np.ndarray,
          style: str = "pio") -> str:
    """The range as text in the style of other poker tools, which ``Range(text, game)``
    reads back to the same combos with the same relative weights.

    ``"pio"`` (PioSolver, GTO Wizard): comma separated, a hold'em class's name where
    the range holds all its combos (6 of a pair, 4 suited, 12 offsuit) with one
    weight, its combos one by one (``AhKh``) otherwise, each followed by ``:weight``
    when the weight is not 1: ``AA,KK:0.5,AhKh:0.25``.  Weights are written with
    ``repr``, so they read back exactly.

    ``"gtoplus"``: the same text as ``"pio"``.  GTO+'s own export groups weights as
    ``[50.0]KK,QQ[/50.0]`` blocks, which this package's range parser does not read,
    so that form is not written.

    ``"pokerstove"``: the compact notation, classes of one weight joined into runs:
    ``22+``, ``77-55``, ``A2s+``, ``KTo+``, ``QJs-Q9s`` (a fixed top card) and
    ``T9s-65s`` (a fixed gap), with ``:weight`` after each run whose weight is not 1
    (``TT+:0.5``); classes held in part are written as combos.

    Other games (Omaha, ...) have no classes: every style writes the combos one by
    one, high card first (``AsAhKsKh:0.5``).  Weights are written relative to the
    largest (a range from ``live`` may have lost its weight-1 combos).

    """
    styles = ("pio", "gtoplus", "pokerstove")
    check_type(style, str, "style", "a style name: " + ", ".join(map(repr, styles)))
    if style not in styles:
        raise RangeError(f"unknown range text style {_short(style, 30)!r}: use "
                         + ", ".join(map(repr, styles)), style)
    if not len(weights):
        raise RangeError(f"range {_short(text)!r} has no combo to write", text)
    top = float(weights.max())
    if top != 1.0:
        weights = weights / top

    def weighted(name: str, weight: float) -> str:
        return name if weight == 1.0 else f"{name}:{weight!r}"

    if not holdem_syntax(game):
        return ",".join(weighted(format_cards(row[::-1], sep=""), w)
                        for row, w in zip(combos, weights.tolist()))
    # hold'em: each class's combos and weights; key (shape, top rank, low rank) with
    # shape 0 a pair, 1 suited, 2 offsuit
    held: dict[tuple[int, int, int], list[tuple[int, int, float]]] = {}
    for (lo, hi), w in zip(combos.tolist(), weights.tolist()):
        a, b = hi >> 2, lo >> 2
        shape = 0 if a == b else 1 if hi & 3 == lo & 3 else 2
        held.setdefault((shape, a, b), []).append((hi, lo, w))
    whole: dict[tuple[int, int, int], float] = {}
    parts: list[tuple[tuple[int, int, int], str]] = []   # (sort key, text)
    for key, items in held.items():
        if len(items) == (6, 4, 12)[key[0]] and len({w for _, _, w in items}) == 1:
            whole[key] = items[0][2]
        else:
            parts += [(key, weighted(format_cards([hi, lo], sep=""), w))
                      for hi, lo, w in sorted(items, reverse=True)]

    def name(shape: int, a: int, b: int) -> str:
        return RANKS[a] + RANKS[b] + ("", "s", "o")[shape]

    if style != "pokerstove":
        parts += [(key, weighted(name(*key), w)) for key, w in whole.items()]
    else:
        parts += _runs(whole, name, weighted)
    # pairs, then suited, then offsuit, best first
    parts.sort(key=lambda p: (p[0][0], -p[0][1], -p[0][2]))
    return ",".join(text for _, text in parts)


def _runs(whole: dict[tuple[int, int, int], float], name: Callable[..., str],
          weighted: Callable[[str, float], str]) -> list[tuple[tuple[int, int, int], str]]:
    """``to_text("pokerstove")``: the whole classes (key (shape, top rank, low rank),
    value the weight) as runs of one weight, each with its sort key: pairs
    (``22+``, ``77-55``), then kickers under a fixed top card (``A2s+``,
    ``QJs-Q9s``), then the classes left alone joined by a fixed gap (``T9s-65s``)."""
    out: list[tuple[tuple[int, int, int], str]] = []
    alone: list[tuple[int, int, int]] = []

    def spans(keys: list[tuple[int, int, int]], step: int) -> list[list[tuple[int, int, int]]]:
        """``keys`` (best first) cut into runs of one weight whose ranks step by one."""
        runs: list[list[tuple[int, int, int]]] = []
        for key in keys:
            last = runs[-1][-1] if runs else None
            if (last is not None and whole[last] == whole[key]
                    and last[step] - key[step] == 1):
                runs[-1].append(key)
            else:
                runs.append([key])
        return runs

    pairs = sorted((k for k in whole if k[0] == 0), reverse=True)
    for run in spans(pairs, 1):
        first, last = run[0], run[-1]
        if len(run) == 1:
            text = name(*first)
        elif first[1] == 12:
            text = name(*last) + "+"
        else:
            text = name(*first) + "-" + name(*last)
        out.append((first, weighted(text, whole[first])))
    for shape in (1, 2):
        for top in range(12, 0, -1):
            kickers = sorted((k for k in whole if k[0] == shape and k[1] == top),
                             reverse=True)
            for run in spans(kickers, 2):
                first, last = run[0], run[-1]
                if len(run) == 1:
                    alone.append(first)
                    continue
                text = (name(*last) + "+" if first[2] == top - 1
                        else name(*first) + "-" + name(*last))
                out.append((first, weighted(text, whole[first])))
    # the classes left alone, by shape and gap, best first: runs of a fixed gap
    alone.sort(key=lambda k: (k[0], k[1] - k[2], -k[1]))
    runs: list[list[tuple[int, int, int]]] = []
    for key in alone:
        last_key = runs[-1][-1] if runs else None
        if (last_key is not None and last_key[0] == key[0]
                and last_key[1] - last_key[2] == key[1] - key[2]
                and last_key[1] - key[1] == 1 and whole[last_key] == whole[key]):
            runs[-1].append(key)
        else:
            runs.append([key])
    for run in runs:
        first, last = run[0], run[-1]
        text = name(*first) if len(run) == 1 else name(*first) + "-" + name(*last)
        out.append((first, weighted(text, whole[first])))
    return out
