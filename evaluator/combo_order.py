"""The canonical combo order of a game: every hand of its deck in colex order of card ids.

A hand's cards, low first, ``c1 < c2 < ... < ck``, numbered by their position
``p`` in the deck (the card id, less 16 in the short deck), sit at index
``C(p1, 1) + C(p2, 2) + ... + C(pk, k)``.  Hold'em: ``(lo, hi)`` at
``hi * (hi - 1) / 2 + lo``, so ``2d2c`` is 0 and ``AsAh`` is 1,325, the order
solvers such as postflop-solver use with these card ids.  The short deck: the
same over its 36 cards (630 combos).  Omaha: 4-card colex (270,725), five and six cards
likewise (2,598,960 and 20,358,520).

>>> combos("holdem").shape
(1326, 2)
>>> int(combo_index("holdem", "AsAh")[0])
1325

``Range.vector()`` and ``Range.from_vector()`` turn ranges into weight vectors
in this order and back; ``evaluator.vectors`` computes on them.
"""
from __future__ import annotations

import math
from functools import cache

import numpy as np

from ._calling import old_form
from .cards import parse_cards
from .errors import ArgumentTypeError, CardError, EvaluatorError, check_type
from .games import Game
from .games import game as _game
from .listing import card_masks

__all__ = ["combos", "combo_index", "MAX_COMBOS"]

MAX_COMBOS = 21_000_000
"""The most hands a game's combo order lists: every game's, 6-card Omaha's 20,358,520
included (122 MB of cards and 163 MB of card masks, built on first use in about 2 s)."""


def checked_game(game: str | Game) -> Game:
    check_type(game, (str, Game), "game", "a game name")
    return _game(game) if isinstance(game, str) else game


@cache
def _binomials(n: int, k: int) -> np.ndarray:
    """``C(p, j)`` for p < n, j <= k, as int64 (k + 1, n)."""
    return np.array([[math.comb(p, j) for p in range(n)] for j in range(k + 1)], np.int64)


@cache
def deck_combos(deck: tuple[int, ...], hole: int) -> np.ndarray:
    count = math.comb(len(deck), hole)
    if count > MAX_COMBOS:
        raise EvaluatorError(f"{hole}-card hands of a {len(deck)}-card deck number "
                             f"{count:,}: more than the {MAX_COMBOS:,} a combo order lists",
                             hole)
    out = np.asarray(deck, np.uint8)[_colex(len(deck), hole)]
    out.flags.writeable = False
    return out


def _colex(n: int, k: int) -> np.ndarray:
    """Every ``k``-subset of ``range(n)`` in colex order, ascending within a row: those
    whose largest is ``m`` are the ``(k-1)``-subsets of ``range(m)`` (the first
    ``C(m, k-1)`` rows of that list) with ``m`` added, so each size is built from the
    last, a block of rows at a time (2.6 M five-card rows in 40 ms)."""
    rows = np.zeros((1, 0), np.uint8)
    for j in range(1, k + 1):
        blocks = []
        for m in range(j - 1, n):
            head = rows[:math.comb(m, j - 1)]
            blocks.append(np.column_stack([head, np.full(len(head), m, np.uint8)]))
        rows = np.concatenate(blocks) if blocks else np.zeros((0, j), np.uint8)
    return rows


def lex_subsets(n: int, k: int) -> np.ndarray:
    """Every ``k``-subset of ``range(n)`` in lexicographic order (as ``itertools.
    combinations`` lists them), ascending within a row: the colex list of the mirrored
    numbers, read backwards."""
    return (n - 1 - _colex(n, k))[::-1, ::-1]


def _old_combos(game="holdem"):
    """The 0.1.0 form of ``combos`` (hold'em by default), kept for one release."""


@old_form(_old_combos, "combos() with no game", "combos(game)")
def combos(game: str | Game) -> np.ndarray:
    """Every hand of ``game`` in its canonical order: ``uint8 (N, hole)``, read-only.

    Row ``i`` is combo ``i`` (see the module's docstring); its cards ascend.

    Parameters
    ----------
    game : str or Game
        Hold'em and the games dealt two cards: 1,326 combos (the short deck 630);
        Omaha 270,725; the three-card games 22,100; 5-card Omaha and Courchevel
        2,598,960; 6-card Omaha 20,358,520 (285 MB with their card masks, built on first
        use in about 2 s and kept).

    Examples
    --------
    >>> combos("holdem")[:2].tolist()          # 2c2d, 2c2h
    [[0, 1], [0, 2]]
    >>> combos("omaha").shape
    (270725, 4)
    """
    g = checked_game(game)
    return deck_combos(g.deck, g.hole)


def _positions(g: Game, ids: np.ndarray, what: str) -> np.ndarray:
    """Deck positions of card ids (the short deck starts at the sixes)."""
    low = 4 * g.lowest_rank
    if not low:
        return ids                       # any integer type indexes a table
    bad = ids < low
    if bad.any():
        g.check_in_deck(ids[bad].tolist(), what)
    return ids.astype(np.int64) - low


def _old_combo_index(hands, game="holdem"):
    """The 0.1.0 form of ``combo_index``, kept for one release."""


@old_form(_old_combo_index, "combo_index(hands, game)", "combo_index(game, hands)")
def combo_index(game: str | Game, hands: object) -> np.ndarray:
    """The canonical indices (``int64``) of ``hands`` in ``combos(game)``.

    Parameters
    ----------
    game : str or Game
    hands : str, card ids, list or array
        One hand as text (``"AsKd"``) or card ids, several as a list of those or an
        ``(n, hole)`` array of card ids; the cards in any order.

    Raises
    ------
    CardError
        A hand of the wrong size, an unknown card, a card outside the game's deck or a
        card given twice in one hand, named.

    Examples
    --------
    >>> combo_index("holdem", ["2d2c", "AsAh"]).tolist()
    [0, 1325]
    >>> combo_index("omaha", "AsAhKsKh").tolist()
    [270627]
    """
    g = checked_game(game)
    rows = _hand_rows(hands, g)
    pos = _positions(g, rows, "the hand")
    if not _ascending(pos):
        pos = np.sort(pos, axis=1)
    table = _binomials(len(g.deck), g.hole)
    out = np.zeros(len(pos), np.int64)
    for j in range(g.hole):                  # a column at a time: 1-D reads, 10x faster
        out += table[j + 1][pos[:, j]]
    return out


def _ascending(rows: np.ndarray) -> bool:
    """Whether every row's cards ascend (a range's combos do), so that they need no sort
    and hold no card twice."""
    return bool((rows[:, 1:] > rows[:, :-1]).all())


def _hand_rows(hands: object, g: Game) -> np.ndarray:
    if isinstance(hands, np.ndarray) and hands.ndim == 2:
        if hands.dtype.kind not in "iu":
            raise ArgumentTypeError(f"hands must be card ids (an integer array), got "
                                    f"dtype {hands.dtype}", str(hands.dtype))
        # uint8 rows (a range's combos) are kept as they are: 6-card Omaha's 8 million
        # rows of a 40% range in int64 were 390 MB and most of a second a copy
        rows = hands if hands.dtype == np.uint8 else hands.astype(np.int64)
        if rows.shape[1] != g.hole:
            raise CardError(f"{g.name} hands have {g.hole} cards, got rows of "
                            f"{rows.shape[1]}", rows.shape[1])
        if len(rows) and (int(rows.max()) > 51 or int(rows.min()) < 0):
            out_of_deck = (rows < 0) | (rows > 51)
            bad = int(rows[out_of_deck][0])
            raise CardError(f"card id {bad} is not a card (0..51)", bad)
    else:
        if isinstance(hands, np.ndarray) and hands.ndim > 2:
            raise CardError(f"hands must be one hand, or an (n, hole) array of card ids, got "
                            f"an array of shape {hands.shape}", str(hands.shape))
        if not isinstance(hands, (str, np.ndarray, list, tuple)):
            shown = repr(hands) if len(repr(hands)) <= 60 else repr(hands)[:57] + "..."
            raise ArgumentTypeError(
                "hands must be one hand (card text such as 'AsKd', or card ids) or a list "
                f"of hands, or an (n, hole) array of card ids, got {type(hands).__name__} "
                f"{shown}", hands)
        one = isinstance(hands, (str, np.ndarray)) or (
            isinstance(hands, (list, tuple)) and len(hands) > 0
            # numbers (a bool, a float among them too) are one hand's card ids, which
            # parse_cards then names, never a list of hands
            and all(isinstance(c, (int, float, np.number, np.bool_)) for c in hands))
        items = [hands] if one else list(hands)      # type: ignore[call-overload]
        parsed = [parse_cards(h, what="the hand") for h in items]  # type: ignore[arg-type]
        for h, ids in zip(items, parsed):
            if len(ids) != g.hole:
                raise CardError(f"{g.name} hands have {g.hole} cards, got {len(ids)} in "
                                f"{h!r}", h)
        rows = np.array(parsed, np.int64).reshape(len(items), g.hole)
    if _ascending(rows):
        return rows
    repeated = (np.diff(np.sort(rows, axis=1), axis=1) == 0).any(axis=1)
    if repeated.any():
        row = rows[int(np.flatnonzero(repeated)[0])]
        raise CardError(f"hand {row.tolist()} holds a card twice", row.tolist())
    return rows



def check_vector(w: np.ndarray, n: int, what: str, g: Game, rows: bool = False
                  ) -> np.ndarray:
    if w.dtype.kind not in "iuf" or w.dtype == np.bool_:
        raise ArgumentTypeError(f"{what} must be numbers, got dtype {w.dtype}", str(w.dtype))
    shapes = f"({n},)" + (f" or (k, {n})" if rows else "")
    if not (w.ndim == 1 or (rows and w.ndim == 2)) or w.shape[-1] != n:
        raise EvaluatorError(f"{what} must have shape {shapes} (one weight per {g.name} "
                             f"combo), got {w.shape}", str(w.shape))
    w = w.astype(np.float64)
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        at = tuple(int(x) for x in np.argwhere(bad)[0])
        where = at[0] if len(at) == 1 else at
        raise EvaluatorError(f"{what} must be finite and non-negative, got {w[at]} at {where}",
                             float(w[at]))
    return w


@cache
def combo_bits(deck: tuple[int, ...], hole: int) -> np.ndarray:
    out = card_masks(deck_combos(deck, hole))   # 20.4 M six-card rows by a kernel: 20 ms
    out.flags.writeable = False
    return out


