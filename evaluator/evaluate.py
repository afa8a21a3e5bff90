"""Public evaluate / evaluate_batch: validate and convert once, then dispatch to kernels.

>>> from evaluator import evaluate
>>> hand = evaluate("holdem", "9c9d", "4s Kh 9s 4d 4c")
>>> str(hand)
'full house, nines full of fours'
>>> hand.best
('9s', '9d', '9c', '4d', '4c')
>>> evaluate("holdem", "AsKsQs")
Traceback (most recent call last):
...
evaluator.errors.HandError: holdem takes 2 hole cards, got 3: As Ks Qs
"""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from . import _layout, _tables
from ._layout import TEEN_PATTI_CATEGORIES
from ._parallel import resolve_threads, run_chunks
from .cards import CardsLike, format_cards, parse_cards
from .errors import ArgumentTypeError, CardError, HandError, flags, integer
from .families import family
from .games import Game
from .games import game as _game
from .names import describe, describe_low, describe_teen_patti, order_five, order_low

__all__ = ["HandValue", "evaluate", "evaluate_batch", "category_of"]

#: rows checked, then evaluated, at a time: 64 Ki rows of 7 cards (448 KiB) stay in the
#: core's cache between the two
CHECK_BLOCK = 1 << 16


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
    low : HandValue or None
        In hi-lo games, the 8-or-better low (``None``: no qualifying low).

    Examples
    --------
    >>> from evaluator import evaluate
    >>> hand = evaluate("holdem", "9c9d", "4s Kh 9s 4d 4c")
    >>> hand.category, hand.best
    ('full house', ('9s', '9d', '9c', '4d', '4c'))
    >>> hand > evaluate("holdem", "AsAd", "4s Kh 9s 4d 4c")
    True
    >>> print(evaluate("omaha8", "As2s3dKc", "Ad 2d 7c 8h 6s"))
    two pair, aces and twos; low: 7-6-3-2-A low
    """
    value: int
    category: str = field(compare=False)
    best: tuple[str, ...] = field(compare=False)
    name: str = field(compare=False)
    low: HandValue | None = field(default=None, compare=False)

    def __str__(self) -> str:
        if self.low is not None:
            return f"{self.name}; low: {self.low.name}"
        return self.name

    def to_dict(self) -> dict:
        """The hand as JSON-ready data: ``value``, ``category``, ``best`` (a list),
        ``name`` and, in hi-lo games, ``low`` (a dict of the same keys)."""
        out = {"value": self.value, "category": self.category, "best": list(self.best),
               "name": self.name}
        if self.low is not None:
            out["low"] = self.low.to_dict()
        return out


def category_of(values: int | np.ndarray) -> str | np.ndarray:
    """Category name of a value, or an array of category indices for an array.

    Parameters
    ----------
    values : int or ndarray of int32
        A ``HandValue.value`` or the values ``evaluate_batch`` returns.

    Returns
    -------
    str or ndarray of int32
        The category's name for one value (``"flush"``); ``values >> 12`` for an array.

    Examples
    --------
    >>> from evaluator import category_of, evaluate
    >>> category_of(evaluate("holdem", "AsKs", "QsJs2d").value)
    'high card'
    """
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "iu":
            raise ArgumentTypeError(f"values must be hand values (integers), got an array of "
                                    f"dtype {values.dtype}", str(values.dtype))
        return values >> _layout.CATEGORY_SHIFT
    # a hand value: an integer whose category exists (int() truncated a float, and a
    # negative value named the last category)
    top = len(_layout.CATEGORIES) << _layout.CATEGORY_SHIFT
    value = integer(values, "value", 0, top - 1, expected="a hand value (an integer)",
                    bounds=f"a hand value, 0 to {top - 1:,}")
    return _layout.CATEGORIES[value >> _layout.CATEGORY_SHIFT]


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


def _hand_cards(g: Game, hole: CardsLike, board: CardsLike) -> tuple[np.ndarray, np.ndarray]:
    hole_ids = parse_cards(hole, what="hole cards")
    board_ids = parse_cards(board, what="the board")
    if len(hole_ids) != g.hole:
        if g.dealt > g.hole and len(hole_ids) == g.dealt:
            raise HandError(f"{g.name} hands are evaluated after the discard: give the "
                            f"{g.hole} cards kept, not all {g.dealt} "
                            f"(discard_equity tells which card to throw)", len(hole_ids))
        raise HandError(f"{g.name} takes {g.hole} hole cards, got {len(hole_ids)}: "
                        f"{format_cards(hole_ids) or 'none'}", len(hole_ids))
    if len(board_ids) not in g.boards:
        if g.boards == (0,):
            count = len(board_ids)
            raise HandError(f"{g.title or g.name} has no board: got {count} board "
                            f"card{'s' if count != 1 else ''}", count)
        sizes = ", ".join(map(str, g.boards[:-1])) + f" or {g.boards[-1]}"
        raise HandError(f"{g.name} evaluates a hand with {sizes} board cards, "
                        f"got {len(board_ids)}", len(board_ids))
    g.check_in_deck(hole_ids.tolist(), "the hole cards")
    g.check_in_deck(board_ids.tolist(), "the board")
    clash = set(hole_ids.tolist()) & set(board_ids.tolist())
    if clash:
        card = format_cards(sorted(clash)[:1])
        raise CardError(f"duplicate card {card!r} in the hole cards and the board", card)
    return hole_ids, board_ids


def _five_card_choices(g: Game, hole: list[int], board: list[int]) -> Iterator[list[int]]:
    """Every five-card hand the game's rule allows."""
    return family(g).five_card_choices(g, hole, board)


def _high_value(g: Game, hole: list[int], board: list[int]) -> HandValue:
    tables = _tables.high(g.values)
    value, five = max((_lookup(five, tables), five) for five in _five_card_choices(g, hole, board))
    category = g.categories[value >> _layout.CATEGORY_SHIFT]
    return HandValue(value, category, tuple(format_cards(order_five(five, category)).split()),
                     describe(category, five))


def _low_bits(cards: list[int]) -> int:
    bits = _tables.load("low_card_bits")
    return int(np.bitwise_or.reduce(bits[cards])) if cards else 0


def _low_value(hole: list[int], board: list[int]) -> HandValue | None:
    """The 8-or-better low (exactly two hole and three board cards), or None."""
    table = _tables.load("omaha_low")
    value = int(table[_low_bits(hole), _low_bits(board)])
    if value == 0:
        return None
    for pair in itertools.combinations(hole, 2):
        for triple in itertools.combinations(board, 3):
            five = list(pair + triple)
            if int(table[_low_bits(list(pair)), _low_bits(list(triple))]) == value and \
                    len({_low_bits([c]) for c in five} - {0}) == 5:
                return HandValue(value, "low", tuple(format_cards(order_low(five)).split()),
                                 describe_low(five))
    raise AssertionError("a low value without its cards")  # pragma: no cover


def _teen_patti_value(g: Game, three: list[int]) -> HandValue:
    table = _tables.load("teen_patti")[0 if g.option("a23") == "highest" else 1]
    ranks = [c >> 2 for c in three]
    suited = len({c & 3 for c in three}) == 1
    value = int(table[169 * ranks[0] + 13 * ranks[1] + ranks[2] + 2197 * suited])
    category = TEEN_PATTI_CATEGORIES[value >> _layout.CATEGORY_SHIFT]
    ordered = sorted(three, key=lambda c: (-ranks.count(c >> 2), -c))
    return HandValue(value, category, tuple(format_cards(ordered).split()),
                     describe_teen_patti(category, three))


def evaluate(game: str | Game, hole: CardsLike, board: CardsLike = "") -> HandValue:
    """Evaluate one hand.

    Parameters
    ----------
    game : str or Game
        A name from ``evaluator.GAMES`` or a game object from ``evaluator.game``.
    hole, board : str, sequence of str or int, or ndarray of uint8
        Cards in any form ``evaluator.cards.parse_cards`` accepts.

    Returns
    -------
    HandValue
        In hi-lo games (``omaha8``, ...) its ``.low`` is the low hand's ``HandValue``
        or ``None``.

    Raises
    ------
    GameError
        An unknown game.
    HandError
        The wrong number of hole or board cards for the game.
    CardError
        An unknown or duplicate card, or one the game's deck leaves out.

    Examples
    --------
    >>> from evaluator import evaluate
    >>> str(evaluate("holdem", "AsKs", "Qs Js Ts 2d 3c"))
    'royal flush'
    >>> evaluate("omaha", "As2c3d4h", "Ks Qs Js 9s 8d").category   # exactly 2 + 3: no flush
    'high card'
    >>> str(evaluate("teen_patti", "As2d3c"))
    'sequence, A-2-3'
    """
    g = _game(game)
    hole_ids, board_ids = _hand_cards(g, hole, board)
    hole_list, board_list = hole_ids.tolist(), board_ids.tolist()
    if family(g).hole_only:
        return _teen_patti_value(g, hole_list)
    hand = _high_value(g, hole_list, board_list)
    if g.pot == "hilo":
        hand = dataclasses.replace(hand, low=_low_value(hole_list, board_list))
    return hand


def _check_batch(g: Game, hands: object) -> np.ndarray:
    """``hands`` as a contiguous array: a wrong type or dtype is an ``ArgumentTypeError``
    (no conversion is guessed: an int64 or float array may hold anything), a wrong shape
    a ``HandError``."""
    if not isinstance(hands, np.ndarray):
        raise ArgumentTypeError(f"hands must be a NumPy uint8 array of shape (n, k), got "
                                f"{type(hands).__name__} (build one with np.array(rows, "
                                "np.uint8) or np.stack of parse_cards)", type(hands).__name__)
    if hands.dtype != np.uint8:
        raise ArgumentTypeError(f"hands must have dtype uint8, got {hands.dtype} "
                                "(convert with hands.astype(np.uint8) after checking the ids)",
                                str(hands.dtype))
    sizes = g.row_sizes()
    if hands.ndim != 2 or hands.shape[1] not in sizes:
        allowed = ", ".join(map(str, sizes))
        raise HandError(f"{g.name} hands must have shape (n, k) with k in {{{allowed}}} "
                        f"({g.hole} hole cards first, then the board), got {hands.shape}",
                        hands.shape)
    return np.ascontiguousarray(hands)


def _check_out(out: object, n: int) -> np.ndarray:
    """``out`` if it can take ``n`` values: a wrong type or dtype is an
    ``ArgumentTypeError``, a wrong shape, layout or a read-only array a ``HandError``."""
    if not isinstance(out, np.ndarray):
        raise ArgumentTypeError(f"out must be a NumPy int32 array of shape ({n},), got "
                                f"{type(out).__name__}", type(out).__name__)
    if out.dtype != np.int32:
        raise ArgumentTypeError(f"out must have dtype int32, got {out.dtype}", str(out.dtype))
    if out.shape != (n,) or not out.flags.c_contiguous or not out.flags.writeable:
        raise HandError(f"out must be a contiguous, writeable int32 array of shape ({n},), "
                        f"got shape {out.shape}", "out")
    return out


def evaluate_batch(game: str | Game, hands: np.ndarray, *, low: bool = False,
                   validate: bool = True, threads: int | None = None,
                   out: np.ndarray | None = None) -> np.ndarray:
    """Evaluate many hands at once.

    Parameters
    ----------
    game : str or Game
        A name from ``evaluator.GAMES`` or a game object from ``evaluator.game``.
    hands : ndarray of uint8, shape (n, hole + board)
        One hand per row, hole cards first.
    low : bool
        For hi-lo games (``omaha8``): return the 8-or-better low values
        instead (bigger is better, 0 for no qualifying low).
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

    Raises
    ------
    ArgumentTypeError
        ``hands`` is not a uint8 array (a list, an int64, float or bool array) or
        ``out`` not an int32 array: nothing is converted silently.
    HandError
        A wrong shape of ``hands`` or ``out``, or ``low=True`` for a game without a low.
    CardError
        An id past 51 or a duplicate card in a row (with ``validate``).

    Examples
    --------
    >>> import numpy as np
    >>> from evaluator import evaluate_batch, parse_cards
    >>> hands = np.stack([parse_cards("AsAd2c7d9hJsQs"), parse_cards("2c3d4h5s7c8dTh")])
    >>> evaluate_batch("holdem", hands) >> 12
    array([2, 1], dtype=int32)
    >>> evaluate_batch("holdem", hands, low=True)
    Traceback (most recent call last):
    ...
    evaluator.errors.HandError: holdem has no low hand (low=True is for hi-lo games)
    """
    flags(low=low, validate=validate)
    g = _game(game)
    if low and g.pot != "hilo":
        raise HandError(f"{g.name} has no low hand (low=True is for hi-lo games)", "low")
    hands = _check_batch(g, hands)
    n = hands.shape[0]
    out = np.empty(n, np.int32) if out is None else _check_out(out, n)
    fam = family(g)
    if validate and g.lowest_rank:
        below = np.argwhere(hands < 4 * g.lowest_rank)
        if len(below):
            row, col = (int(x) for x in below[0])
            g.check_in_deck([int(hands[row, col])], f"hands[{row}]")
    checked = fam.checked_kernel(g, low, hands.shape[1]) if validate else None
    kernel, lead, tables = checked or fam.batch_kernel(g, low, hands.shape[1])
    from .kernels import high
    from .kernels.markers import ndim_marker
    marker = ndim_marker(hands.shape[1])
    bad: list[tuple[int, int]] = []

    def work(start: int, stop: int) -> None:
        if checked:
            # the kernel checks the rows in the registers it evaluates them from: only a
            # chunk it finds bad is searched for the first bad row
            if kernel(hands[start:stop], *lead, out[start:stop], *tables):
                row, col = high.check_rows(hands[start:stop], marker)
                if row >= 0:
                    bad.append((start + row, col))
            return
        # each block checked just before it is evaluated, on the same thread, while its
        # rows are in the cache: the check costs no second pass over memory
        for lo in range(start, stop, CHECK_BLOCK if validate else max(1, stop - start)):
            hi = min(lo + CHECK_BLOCK, stop) if validate else stop
            if validate:
                row, col = high.check_rows(hands[lo:hi], marker)
                if row >= 0:
                    bad.append((lo + row, col))
                    return
            kernel(hands[lo:hi], *lead, out[lo:hi], *tables)

    run_chunks(work, n, resolve_threads(threads, n))
    if bad:
        row, col = min(bad)                       # the first bad row, on any thread count
        card = int(hands[row, col])
        if card >= 52:
            raise CardError(f"hands[{row}, {col}] = {card} is not a card id (0..51)", card)
        name = format_cards([card])
        raise CardError(f"duplicate card {name!r} in hands[{row}]", name)
    return out
