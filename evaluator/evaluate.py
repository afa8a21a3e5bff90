"""Public evaluate / evaluate_batch: validate and convert once, then dispatch to kernels.

>>> from evaluator import evaluate
>>> hand = evaluate("holdem", "9c9d", "4s Kh 9s 4d 4c")
>>> str(hand)
'full house, nines full of fours'
>>> hand.best
('9s', '9d', '9c', '4s', '4d')
>>> evaluate("holdem", "AsKsQs")
Traceback (most recent call last):
...
evaluator.errors.HandError: holdem takes 2 hole cards, got 3: As Ks Qs
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from . import _layout, _tables
from ._parallel import resolve_threads, run_chunks
from .cards import format_cards, parse_cards
from .errors import CardError, HandError
from .games import Game, game as _game
from .names import describe, order_five

__all__ = ["HandValue", "evaluate", "evaluate_batch", "category_of", "warmup"]


@dataclass(frozen=True, order=True)
class HandValue:
    """A hand's value: compare with ``<``/``==``; bigger is better.

    Attributes
    ----------
    value : int
        The integer value; ``value >> 12`` is the category index.
    category : str
        ``"full house"``, ``"pair"``, ...
    best : tuple of str
        The five cards used, in reading order.
    name : str
        ``"full house, nines full of fours"``; also ``str(hand)``.
    """
    value: int
    category: str = field(compare=False)
    best: tuple[str, ...] = field(compare=False)
    name: str = field(compare=False)

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict:
        return {"value": self.value, "category": self.category, "best": list(self.best),
                "name": self.name}


def category_of(values: int | np.ndarray) -> str | np.ndarray:
    """Category name of a value, or an array of category indices for an array."""
    if isinstance(values, np.ndarray):
        return values >> _layout.CATEGORY_SHIFT
    return _layout.CATEGORIES[int(values) >> _layout.CATEGORY_SHIFT]


def _lookup(cards: list[int], tables: _tables.HighTables) -> int:
    """One hand's value in plain Python: the kernels' lookup without loading Numba.

    A single evaluation costs microseconds either way; skipping Numba's import
    and cache load makes a new process's first answer several times faster.
    """
    key = _layout.HAND_INIT + sum(int(tables.card_keys[c]) for c in cards)
    if key & _layout.FLUSH_BITS:
        counters = (key & _layout.FLUSH_BITS) >> (_layout.SUIT_SHIFT + 3)
        suit = next(s for s in range(4) if counters >> (4 * s) & 1)
        mask = sum(1 << (c >> 2) for c in cards if c & 3 == suit)
        return int(tables.flush_values[mask])
    h = key & _layout.KEY_MASK
    row = int(tables.rank_offsets[h >> _layout.ROW_SHIFT]) << _layout.OFFSET_SHIFT
    return int(tables.rank_values[row + (h & _layout.COL_MASK)])


def _high():
    from .kernels import high
    return high


def _hand_cards(g: Game, hole, board) -> tuple[np.ndarray, np.ndarray]:
    hole_ids = parse_cards(hole, what="hole cards")
    board_ids = parse_cards(board, what="the board")
    if len(hole_ids) != g.hole:
        raise HandError(f"{g.name} takes {g.hole} hole cards, got {len(hole_ids)}: "
                        f"{format_cards(hole_ids) or 'none'}", len(hole_ids))
    if len(board_ids) not in g.boards:
        sizes = ", ".join(map(str, g.boards[:-1])) + f" or {g.boards[-1]}"
        raise HandError(f"{g.name} evaluates a hand with {sizes} board cards, "
                        f"got {len(board_ids)}", len(board_ids))
    clash = set(hole_ids.tolist()) & set(board_ids.tolist())
    if clash:
        card = format_cards(sorted(clash)[:1])
        raise CardError(f"duplicate card {card!r} in the hole cards and the board", card)
    return hole_ids, board_ids


def evaluate(game: str | Game, hole, board="") -> HandValue:
    """Evaluate one hand.

    Parameters
    ----------
    game : str or Game
        ``"holdem"`` or a game object from ``evaluator.game``.
    hole, board : str, sequence of str or int, or ndarray of uint8
        Cards in any form ``evaluator.cards.parse_cards`` accepts.

    Returns
    -------
    HandValue
    """
    g = _game(game)
    hole_ids, board_ids = _hand_cards(g, hole, board)
    cards = np.concatenate([hole_ids, board_ids])
    tables = _tables.high()
    value = _lookup(cards.tolist(), tables)
    five = next(list(f) for f in itertools.combinations(cards.tolist(), 5)
                if _lookup(list(f), tables) == value)
    category = _layout.CATEGORIES[value >> _layout.CATEGORY_SHIFT]
    return HandValue(value, category, tuple(format_cards(order_five(five)).split()),
                     describe(category, five))


def _check_batch(g: Game, hands) -> np.ndarray:
    if not isinstance(hands, np.ndarray):
        raise HandError(f"hands must be a NumPy uint8 array, got {type(hands).__name__}",
                        type(hands).__name__)
    if hands.dtype != np.uint8:
        raise HandError(f"hands must have dtype uint8, got {hands.dtype} "
                        "(convert with hands.astype(np.uint8) after checking the ids)",
                        str(hands.dtype))
    sizes = g.row_sizes()
    if hands.ndim != 2 or hands.shape[1] not in sizes:
        allowed = ", ".join(map(str, sizes))
        raise HandError(f"{g.name} hands must have shape (n, k) with k in {{{allowed}}} "
                        f"({g.hole} hole cards first, then the board), got {hands.shape}",
                        hands.shape)
    return np.ascontiguousarray(hands)


def evaluate_batch(game: str | Game, hands: np.ndarray, *, validate: bool = True,
                   threads: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """Evaluate many hands at once.

    Parameters
    ----------
    game : str or Game
    hands : ndarray of uint8, shape (n, hole + board)
        One hand per row, hole cards first.
    validate : bool
        Check ids and duplicates (fast, but ``False`` skips it).
    threads : int, optional
        Threads to use; default all cores for large batches.
    out : ndarray of int32, shape (n,), optional
        Where to write the values.

    Returns
    -------
    ndarray of int32, shape (n,)
        Values, bigger is better; ``values >> 12`` are category indices.

    >>> import numpy as np
    >>> from evaluator import evaluate_batch, parse_cards
    >>> hands = np.stack([parse_cards("AsAd2c7d9hJsQs"), parse_cards("2c3d4h5s7c8dTh")])
    >>> evaluate_batch("holdem", hands) >> 12
    array([2, 1], dtype=int32)
    """
    g = _game(game)
    hands = _check_batch(g, hands)
    high = _high()
    if validate:
        row, col = high.check_rows(hands)
        if row >= 0:
            card = int(hands[row, col])
            if card >= 52:
                raise CardError(f"hands[{row}, {col}] = {card} is not a card id (0..51)", card)
            name = format_cards([card])
            raise CardError(f"duplicate card {name!r} in hands[{row}]", name)
    n = hands.shape[0]
    if out is None:
        out = np.empty(n, np.int32)
    elif out.shape != (n,) or out.dtype != np.int32 or not out.flags.c_contiguous:
        raise HandError(f"out must be a contiguous int32 array of shape ({n},)", "out")
    tables = _tables.high()

    def work(start: int, stop: int) -> None:
        high.evaluate_rows(hands[start:stop], out[start:stop], *tables)

    run_chunks(work, n, resolve_threads(threads, n))
    return out


def warmup() -> None:
    """Compile (or load from Numba's cache) every kernel the API uses."""
    evaluate("holdem", "AsKs", "QsJsTs")
    evaluate_batch("holdem", np.arange(7, dtype=np.uint8).reshape(1, 7))
