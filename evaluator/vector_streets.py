"""Which streets the combo vectors take in each game, and a spot's board and dead cards
checked with every runout to the river (``vectors``)."""
from __future__ import annotations

import itertools
import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .cards import CardsLike, parse_cards
from .combo_order import checked_game
from .engine.plan import EXACT_SECONDS_MAX, duration
from .engine.spots import check_distinct
from .errors import CardError, EvaluatorError
from .families import family
from .games import Game

__all__ = ["sweeps", "SWEEP_SECONDS_MAX", "answered_boards", "kind", "full_board",
           "two_cards", "sweep_game", "boards", "Spot", "spot"]


def sweeps(g: Game, board_cards: int) -> bool:
    """Whether spots of ``g`` with ``board_cards`` known run on the sort and sweep (the
    family says): the two-card high games and four-card Omaha (high) on a flop, turn or
    river; the other games where their runouts allow."""
    return family(g).vectors(g, board_cards)


SWEEP_SECONDS_MAX = EXACT_SECONDS_MAX
"""``combo_equity`` sweeps a street past those swept in seconds (``boards``) where the
family estimates every combo's sweep within this (``Family.every_combo_seconds``), as
``exact=True`` takes an exact answer: 5-card Omaha's flop, 6-card Omaha's turn."""


def answered_boards(g: Game) -> tuple[int, ...]:
    """The board sizes ``combo_equity`` takes in ``g``: ``boards``, and the streets its
    family sweeps within ``SWEEP_SECONDS_MAX``."""
    return tuple(b for b in g.streets
                 if family(g).vectors_within(g, b, SWEEP_SECONDS_MAX))


def kind(g: Game) -> str | None:
    """Which sweep serves ``g`` (``Family.vector_kind``): "pairs", "omaha", "subsets"."""
    return family(g).vector_kind(g)


def full_board(g: Game) -> int:
    """The cards of ``g``'s complete board (5; "The" 4; Teen Patti none)."""
    return max(g.streets)


def two_cards(g: Game) -> bool:
    """The two-card sweep (``kernels/sweep``)."""
    return kind(g) == "pairs"


def sweep_game(game: str | Game, what: str) -> Game:
    g = checked_game(game)
    if kind(g) is None:
        raise EvaluatorError(f"{what}: {g.name} has no combo vectors (its hands hold more "
                             "cards than the sweeps take)", g.name)
    return g


def boards(g: Game) -> tuple[int, ...]:
    """The board sizes ``combo_equity`` takes in ``g``: those whose runouts its sweep
    finishes in seconds (``Family.vectors``; an Omaha flop's 1,176 turn-river runouts
    about 5 s)."""
    return tuple(b for b in g.streets if sweeps(g, b))


class Spot(NamedTuple):
    board: np.ndarray          # uint8, the known board
    dead: np.ndarray           # uint8
    out_bits: np.uint64        # the mask of both
    runouts: np.ndarray        # uint8 (R, 5 - len(board)), read-only


def _key(cards: CardsLike) -> object:
    """A hashable stand-in for cards given as text, ids or an array."""
    if isinstance(cards, str):
        return cards
    return tuple(parse_cards(cards).tolist())


@lru_cache(maxsize=512)
def _spot(g: Game, board: object, dead: object, sizes: tuple[int, ...], what: str) -> Spot:
    board_ids = parse_cards(board, what="the board")      # type: ignore[arg-type]
    dead_ids = parse_cards(dead, what="the dead cards")   # type: ignore[arg-type]
    if not sizes:
        raise EvaluatorError(f"{what} has no street of {g.name} yet: its "
                             f"{math.comb(len(g.deck), g.hole):,} combos take too long to "
                             "value on each board; ask equity() for the hands you need",
                             g.name)
    if len(board_ids) not in sizes:
        sizes_text = " or ".join(str(s) for s in sizes)
        why = ""
        if len(board_ids) in g.streets and len(board_ids) < min(sizes):
            runs = math.comb(len(g.deck) - len(board_ids), full_board(g) - len(board_ids))
            took = family(g).every_combo_seconds(g, len(board_ids))
            about = duration(took) or f"about {took:,.0f} s"
            past = (f", past the {SWEEP_SECONDS_MAX / 60:.0f} minutes a sweep is given"
                    if took > SWEEP_SECONDS_MAX else "")
            why = (f": {g.name} sweeps its {math.comb(len(g.deck), g.hole):,} combos on each "
                   f"of a {len(board_ids)}-card board's {runs:,} runouts, {about} on two "
                   f"cores{past}; give the next card, or ask equity() for the hands you need")
        raise CardError(f"{what} needs a board of {sizes_text} cards, got "
                        f"{len(board_ids)}{why}", len(board_ids))
    g.check_in_deck(board_ids.tolist(), "the board")
    g.check_in_deck(dead_ids.tolist(), "the dead cards")
    check_distinct([("the board", board_ids), ("the dead cards", dead_ids)])
    known = set(board_ids.tolist()) | set(dead_ids.tolist())
    left = [c for c in g.deck if c not in known]
    need = full_board(g) - len(board_ids)
    rows = list(itertools.combinations(left, need))
    runouts = np.array(rows, np.uint8).reshape(len(rows), need)
    if not len(runouts):
        raise CardError("no runout is left once the board and dead cards are out",
                        len(dead_ids))
    for a in (board_ids, dead_ids, runouts):
        a.flags.writeable = False
    return Spot(board_ids, dead_ids, np.uint64(sum(1 << c for c in known)), runouts)


def spot(g: Game, board: CardsLike, dead: CardsLike, sizes: tuple[int, ...],
         what: str) -> Spot:
    """The board and dead cards checked, with every runout to the river (cached)."""
    return _spot(g, _key(board), _key(dead), sizes, what)
