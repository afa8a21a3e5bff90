"""The 169 x 169 pre-flop matrix and a hand class against a range over every class.

Both list every heads-up deal they cover, group the deals by suit symmetry
(``_suits``), compute one exact equity per group with the rank-multiset kernels, and add
the groups back up by class.

>>> m = preflop_matrix()                      # the shipped table: instant
>>> round(m.equity("AA", "KK"), 4), round(m.equity("AKs", "QQ"), 4)
(0.8195, 0.4605)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import _tables
from .._calling import old_form
from .._parallel import map_items, resolve_threads
from .._suits import canonical_classes, stabilizer
from ..cards import CardsLike, format_cards, parse_cards
from ..classes import CLASS_INDEX, CLASS_NAMES, class_combos
from ..engine.exact import deal_counts
from ..engine.spots import check_street
from ..errors import ArgumentTypeError, CardError, HandError, NoDeal, RangeError, flags
from ..families import family, multiset_tables, rank_multisets
from ..games import Game
from ..games import game as _game
from ..progress import progress_bar
from ..ranges import Range, RangeLike, card_masks

__all__ = ["PreflopMatrix", "preflop_matrix", "hand_vs_range", "heads_up", "class_counts"]

CHUNK = 256        # deals per kernel call (and per progress step)


@dataclass(frozen=True)
class PreflopMatrix:
    """What ``preflop_matrix`` returns: exact heads-up pre-flop equities between the
    169 hold'em classes.

    Attributes
    ----------
    shares : ndarray of int64, shape (169, 169, 2)
        ``shares[a, b, 0] / shares[a, b, 1]`` is class a's exact pot share against
        class b, averaged over every pair of combos without a shared card (0 / 0 where
        none exists).  Classes are in grid order (``AA``, ``AKs``, ``AQs``, ...:
        ``ranges.CLASS_NAMES``).

    Examples
    --------
    >>> from evaluator import preflop_matrix
    >>> m = preflop_matrix()
    >>> round(m.equity("AKs", "QQ"), 4)
    0.4605
    >>> m.matrix().shape, round(float(m.vs_random()[0]), 4)   # AA against a random hand
    ((169, 169), 0.852)
    """
    shares: np.ndarray        # int64 (169, 169, 2): twice the pot won, twice the deals

    def __repr__(self) -> str:
        """A line: what it holds and a few figures (not its 57,122 counts)."""
        try:
            aa = self.equity("AA", "KK")
            return (f"<PreflopMatrix: exact heads-up equities of the 169 hold'em classes, "
                    f"AA vs KK {aa:.2%}; .equity(a, b), .matrix(), .vs_random()>")
        except Exception:              # noqa: BLE001 - a repr never raises
            return f"<PreflopMatrix: shares of shape {getattr(self.shares, 'shape', '?')}>"

    def equity(self, a: str, b: str) -> float:
        """Class ``a``'s exact equity against class ``b`` (``"AKs"``, ``"QQ"``, ``"T9o"``)."""
        num, den = self.shares[_class_index(a, "first"), _class_index(b, "second")].tolist()
        return num / den if den else float("nan")

    def matrix(self) -> np.ndarray:
        """float64 (169, 169): row class's equity against column class (nan: never dealt)."""
        num, den = self.shares[..., 0], self.shares[..., 1]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / np.maximum(den, 1), np.nan)

    def vs_random(self) -> np.ndarray:
        """float64 (169,): each class's exact equity against a random hand."""
        return self.shares[..., 0].sum(axis=1) / self.shares[..., 1].sum(axis=1)


def _class_index(name: object, which: str) -> int:
    """The grid index of a class name, or a clear error naming it."""
    if not isinstance(name, str):
        raise ArgumentTypeError(f"the {which} class must be a name such as 'AKs', got "
                                f"{type(name).__name__} {name!r}", name)
    index = CLASS_INDEX.get(name.strip())
    if index is None:
        raise RangeError(f"the {which} class {name!r} is not one of the 169 hold'em classes "
                         "(a pair 'QQ', or two ranks and s/o: 'AKs', 'T9o')", name)
    return index


def class_counts(g: Game, holes: np.ndarray, board: np.ndarray, dead: np.ndarray,
                  threads: int, progress: bool, label: str) -> tuple[np.ndarray, np.ndarray]:
    """Exact heads-up counts of many deals: (hi_full (n, 2, 3), boards (n,))."""
    from ..kernels import multisets
    n = len(holes)
    need = max(g.streets) - len(board)
    hi_full = np.zeros((n, 2, 3), np.int64)
    boards = np.zeros(n, np.int64)
    spans = [(a, min(a + CHUNK, n)) for a in range(0, n, CHUNK)]
    bar = progress_bar(n, label, progress)
    multiset_tables()
    if need == 0:                                   # the river: nothing to enumerate
        spans = []
        boards[:] = -1

    def run(span: tuple[int, int]) -> None:
        a, b = span
        multisets.best5_exact_batch(holes[a:b], board, dead, rank_multisets(need),
                                    *_tables.high(g.values), hi_full[a:b], boards[a:b])
        if bar is not None:
            bar.advance(bar.task, b - a)

    try:
        map_items(run, spans, threads)
    finally:
        if bar is not None:
            bar.stop()
    for k in np.flatnonzero(boards < 0).tolist():         # two suits could flush: walk
        counts = deal_counts(g, holes[k], board, dead, need)
        hi_full[k], boards[k] = counts.hi_full, counts.boards
    return hi_full, boards


def heads_up(g: Game, first: np.ndarray, second: np.ndarray, board: np.ndarray,
              dead: np.ndarray, threads: int | None, progress: bool, label: str
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every deal of one combo from ``first`` and one from ``second`` (rows of card ids)
    with no shared card: (index into first, index into second, twice the pot share won by
    the first, twice the deals)."""
    if not family(g).preflop_kernels(g):
        raise HandError(f"this study is for hold'em; {g.name} is not supported", g.name)
    check_street(g, board)
    for c in set(board.tolist()) & set(dead.tolist()):
        name = format_cards([c])
        raise CardError(f"duplicate card {name!r} in the board and the dead cards", name)
    out = set(board.tolist()) | set(dead.tolist())
    mask_a = card_masks(first)
    mask_b = card_masks(second)
    blocked = np.uint64(sum(1 << c for c in out))
    a, b = np.nonzero(((mask_a[:, None] & mask_b[None, :]) == 0)
                      & ((mask_a[:, None] & blocked) == 0) & ((mask_b[None, :] & blocked) == 0))
    tuples = np.concatenate([first[a], second[b]], axis=1)
    reps, classes = canonical_classes(tuples, 2, stabilizer(board, dead))
    holes = np.ascontiguousarray(tuples[reps].reshape(len(reps), 2, 2))
    threads = resolve_threads(threads, len(reps) * 100_000)
    hi_full, boards = class_counts(g, holes, board, dead, threads, progress, label)
    won = 2 * hi_full[:, 0, 1] + hi_full[:, 0, 2]
    return a, b, won[classes], 2 * boards[classes]


def _all_combos() -> tuple[np.ndarray, np.ndarray]:
    """Every hold'em combo (1326, 2) and its class index in the grid."""
    rows, cls = [], []
    for k, name in enumerate(CLASS_NAMES):
        for combo in class_combos(name):
            rows.append(sorted(combo))
            cls.append(k)
    return np.array(rows, np.uint8), np.array(cls, np.int64)


def preflop_matrix(game: str | Game = "holdem", *, recompute: bool = False,
                   threads: int | None = None, progress: bool = False) -> PreflopMatrix:
    """The exact 169 x 169 heads-up pre-flop matrix.

    The package ships it (``tables/preflop_holdem.npy``, written by
    ``tables/preflop.py``); ``recompute=True`` computes it again: about
    67,000 suit classes of the 1.6 million ordered combo pairs, a minute or
    two on two cores.

    Parameters
    ----------
    game : str or Game
        ``"holdem"``.
    recompute : bool
        Compute it instead of reading the shipped table.
    threads : int, optional
        Threads when recomputing (default: every core).
    progress : bool
        A progress bar on stderr when recomputing.

    Examples
    --------
    >>> m = preflop_matrix("holdem")
    >>> round(m.equity("AA", "KK"), 4)
    0.8195
    """
    flags(progress=progress)
    g = _game(game)
    if not (family(g).preflop_kernels(g) and g.dealt == g.hole):
        raise HandError(f"the pre-flop matrix is for hold'em, not {g.name}", g.name)
    resolve_threads(threads, 1)                     # checked even when the table is read
    if not recompute:
        return _shipped_matrix()
    combos, cls = _all_combos()
    none = np.empty(0, np.uint8)
    a, b, won, deals = heads_up(g, combos, combos, none, none, threads, progress,
                                 "169 x 169 pre-flop matrix")
    shares = np.zeros((169, 169, 2), np.int64)
    flat = cls[a] * 169 + cls[b]
    shares[..., 0] = np.bincount(flat, weights=won, minlength=169 * 169).reshape(169, 169)
    shares[..., 1] = np.bincount(flat, weights=deals, minlength=169 * 169).reshape(169, 169)
    return PreflopMatrix(shares)


@cache
def _shipped_matrix() -> PreflopMatrix:
    return PreflopMatrix(_tables.load("preflop_holdem"))


def _old_hand_vs_range(against, board="", dead="", *, game="holdem", threads=None,
                       progress=False):
    """The 0.1.0 form of ``hand_vs_range``, kept for one release."""


@old_form(_old_hand_vs_range, "hand_vs_range(against, board, ...)",
          "hand_vs_range(game, against, board, ...)")
def hand_vs_range(game: str | Game, against: RangeLike, board: CardsLike = "",
                  dead: CardsLike = "", *, threads: int | None = None,
                  progress: bool = False) -> dict[str, float]:
    """Exact equity of each of the 169 hold'em classes against a range.

    Parameters
    ----------
    game : str or Game
        ``"holdem"``.
    against : str or Range
        The range faced; its weights are honoured.
    board, dead : cards
        The board (empty, a flop, turn or river) and cards out of the deck.
    threads : int, optional
    progress : bool

    Returns
    -------
    dict
        {class name: equity} in grid order; a class with no combo that can face the
        range (every combo blocked) gets nan.

    Examples
    --------
    >>> shares = hand_vs_range("holdem", "QQ+,AKs")
    >>> round(shares["AA"], 4), round(shares["72o"], 4)
    (0.8045, 0.1531)
    """
    flags(progress=progress)
    g = _game(game)
    rng = Range(against, g)
    board_ids = parse_cards(board, what="the board")
    dead_ids = parse_cards(dead, what="the dead cards")
    live = rng.live(np.concatenate([board_ids, dead_ids]))
    if not len(live):
        raise NoDeal(f"the range {rng.text!r} has no live combos once the board and dead "
                      "cards are out", rng.text)
    rng = live
    combos, cls = _all_combos()
    a, b, won, deals = heads_up(g, combos, np.ascontiguousarray(rng.combos), board_ids,
                                 dead_ids, threads, progress, f"169 classes vs {rng.text}")
    w = rng.weights[b]
    num = np.bincount(cls[a], weights=w * won, minlength=169)
    den = np.bincount(cls[a], weights=w * deals, minlength=169)
    with np.errstate(invalid="ignore", divide="ignore"):
        eq = np.where(den > 0, num / np.maximum(den, 1e-300), np.nan)
    return dict(zip(CLASS_NAMES, eq.tolist()))
