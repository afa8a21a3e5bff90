"""Public equity API: exact enumeration and Monte Carlo over each game's dealing rules.

>>> from evaluator import equity
>>> r = equity("holdem", ["AsKs", "QhQd"])
>>> r.exact, r.samples, str(r.fractions[0])
(True, 1712304, '197833/428076')
>>> round(r.players[0].equity, 6)
0.462145

Hands may hold unknown cards (``"As?"``, ``"AA**"`` in Omaha, ``"random"``) or be
ranges (``"QQ+,AKs"``, ``"AxAyxy"``, weighted parts, ``Range`` objects): every
player is then a weighted list of combos, dealt with card removal.
"""
from __future__ import annotations

import itertools
import math
import re
import sys
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import cache, lru_cache

import numpy as np

from . import _tables
from ._parallel import check_interrupt, map_items, resolve_threads
from .cards import format_cards, parse_cards
from .errors import ArgumentTypeError, CardError, EvaluatorError, HandError, RangeError
from .games import Game
from .games import game as _game
from .kernels.markers import ndim_marker, unknown_cards  # NumPy only: no Numba import
from .ranges import Range, card_masks

__all__ = ["PlayerEquity", "EquityResult", "equity", "equity_by_street", "discard_equity",
           "check_query"]

EXACT_LIMIT = 5_000_000        # boards enumerated when exact=None
ONE_SHOT = False               # set by the command line: prefer paths that need no Numba
CHUNK = 1 << 16                # boards per chunk of an exact enumeration
SAMPLE_CHUNK = 1 << 18         # deals per Monte Carlo chunk (and per seeded stream)
ROUND = 4                      # Monte Carlo chunks between stopping checks
DEFAULT_TRIALS = 1 << 20
MIN_STDERR = 1e-6              # a smaller target could need 2.5e11 deals or more


@dataclass(frozen=True)
class PlayerEquity:
    """One player's share of the pot.

    ``equity`` is the expected share; ``win`` the frequency of taking the
    whole pot alone, ``tie`` of taking part of it.  Hi-lo games also give
    ``scoop`` (= win), and ``hi`` / ``lo``: the shares of the pot won from
    each half (``hi + lo == equity``).
    """
    hand: str
    equity: float
    win: float
    tie: float
    scoop: float | None = None
    hi: float | None = None
    lo: float | None = None
    stderr: float | None = None


@dataclass(frozen=True)
class EquityResult:
    """Equity of every player, with the method and the counts behind it."""
    game: str
    board: str
    dead: str
    players: tuple[PlayerEquity, ...]
    exact: bool
    samples: int
    method: str
    seed: int | None = None
    counts: dict = field(default_factory=dict, repr=False)

    @property
    def fractions(self) -> tuple[Fraction, ...] | None:
        """Exact pot shares (only when enumerated), from the integer counts."""
        if not self.exact or self.counts.get("weighted"):
            return None
        c = self.counts
        shares = []
        for full, half_hi, half_lo in zip(c["hi_full"], c["hi_half"], c["lo_half"]):
            total = sum(Fraction(full[k], k) + Fraction(half_hi[k] + half_lo[k], 2 * k)
                        for k in range(1, len(full)))
            shares.append(total / c["boards"])
        return tuple(shares)

    def to_dict(self) -> dict:
        out = asdict(self)
        fractions = self.fractions
        if fractions is not None:
            out["counts"]["equity_fractions"] = [str(f) for f in fractions]
        out["players"] = [{k: v for k, v in asdict(p).items() if v is not None}
                          for p in self.players]
        return out


def _parse_hands(g: Game, hands) -> tuple[list[np.ndarray], list[int], list[Range | None]]:
    """Per hand: the known cards, the number of unknown cards (``?``, ``*``,
    ``random``) and the range, for hands given as ranges (else None)."""
    from .ranges import Range
    if isinstance(hands, str):
        raise HandError("hands is a list with one entry per player, e.g. ['AsKs', 'QhQd']",
                        hands)
    if not isinstance(hands, (list, tuple, np.ndarray)):
        raise ArgumentTypeError(f"hands must be a list with one entry per player, e.g. "
                                f"['AsKs', 'QhQd'], got {type(hands).__name__}", hands)
    parsed, unknown, ranges = [], [], []
    for i, hand in enumerate(hands, start=1):
        missing = 0
        if not isinstance(hand, (str, Range, list, tuple, np.ndarray)):
            raise ArgumentTypeError(f"hand {i} must be card text ('AsKs'), a range ('QQ+'), "
                                    f"a Range or a list of cards, got {type(hand).__name__} "
                                    f"{hand!r}", hand)
        if isinstance(hand, Range):
            if hand.game.hole != g.hole:
                raise HandError(f"hand {i} is a range for {hand.game.name}; {g.name} hands "
                                f"have {g.hole} cards", hand.text)
            parsed.append(np.empty(0, np.uint8))
            unknown.append(0)
            ranges.append(hand)
            continue
        if isinstance(hand, str) and (hand.strip().lower() in RANDOM_WORDS
                                      or _only_stars(hand, g.hole)):
            cards, missing = np.empty(0, np.uint8), g.hole
        elif isinstance(hand, str):
            text = hand
            missing = hand.count("?") + hand.count("*")
            hand = hand.replace("?", " ").replace("*", " ")
            card_error = None
            try:
                cards = parse_cards(hand, what=f"hand {i}")
            except CardError as error:
                # cards with a duplicate, or range notation ("QQ+,AKs", "AA**")
                if "?" in text or (_all_cards(hand) and "," not in text):
                    raise
                cards, card_error = None, error
            if cards is None or (not missing and len(cards) != g.hole and "," in text):
                # range notation, or a list of exact combos: "QhQd,AcAd"
                try:
                    rng = Range(text, g)
                except RangeError:
                    if card_error is not None and _CARD_LIKE.fullmatch(text.strip()):
                        raise card_error from None     # "AsKx": a mistyped hand
                    raise
                parsed.append(np.empty(0, np.uint8))
                unknown.append(0)
                ranges.append(rng)
                continue
        else:
            cards = parse_cards(hand, what=f"hand {i}")
        if len(cards) + missing != g.hole:
            extra = " (after the discard)" if g.dealt > g.hole else ""
            shown = format_cards(cards) + " ?" * missing
            raise HandError(f"hand {i} needs {g.hole} cards for {_quoted(g)}{extra}, "
                            f"got {len(cards) + missing}: {shown.strip() or 'none'}", hand)
        parsed.append(cards)
        unknown.append(missing)
        ranges.append(None)
    if len(parsed) < 2:
        raise HandError(f"equity needs at least two hands, got {len(parsed)}", len(parsed))
    return parsed, unknown, ranges


RANDOM_WORDS = ("random", "any")    # a hand of unknown cards: the same thing, everywhere


def _only_stars(text: str, hole: int) -> bool:
    """``"*"`` to ``"****"``: a pattern of any cards, padded as ranges pad it."""
    stars = text.replace(" ", "")
    return 0 < len(stars) <= hole and set(stars) == {"*"}

# text shaped like cards (rank then one letter, repeated): read as a hand, not a range
_CARD_LIKE = re.compile(r"(?:(?:10|[2-9tjqka])[a-z]\s*)+", re.IGNORECASE)


def _all_cards(text: str) -> bool:
    """True when ``text`` is only card names (possibly repeated)."""
    try:
        parse_cards(text, allow_duplicates=True)
    except CardError:
        return False
    return True


def _check_spot(g: Game, hands: list[np.ndarray], board: np.ndarray,
                dead: np.ndarray) -> np.ndarray:
    """Check the spot fits the game and the deck; return the live cards."""
    if len(board) not in g.streets:
        streets = ", ".join(map(str, g.streets))
        raise HandError(f"a board of {_cards_text(len(board))} is not a street of "
                        f"{_quoted(g)} (board sizes: {streets})", len(board))
    final = max(g.streets)
    # every player is dealt ``g.dealt`` cards, discards included
    needed = len(hands) * g.dealt + final + len(dead)
    if needed > 52:
        raise HandError(f"{len(hands)} players need {needed} cards in {_quoted(g)}; "
                        "the deck has 52", len(hands))
    seen: dict[int, str] = {}
    groups = [(f"hand {i}", h) for i, h in enumerate(hands, start=1)]
    groups += [("the board", board), ("the dead cards", dead)]
    for where, cards in groups:
        for c in cards.tolist():
            if c in seen:
                name = format_cards([c])
                raise CardError(f"duplicate card {name!r} in {seen[c]} and {where}", name)
            seen[c] = where
    return np.array([c for c in range(52) if c not in seen], np.uint8)


def _values(g: Game, hands: list[np.ndarray], boards: np.ndarray, low: bool) -> np.ndarray:
    """int32 (players, boards): each player's value on each board.

    A hand is (hole,) when the same on every board, or (boards, hole) when dealt per board.
    """
    from .evaluate import _batch_kernel
    from .kernels.dealing import hole_board_rows
    n, width = boards.shape
    boards = np.ascontiguousarray(boards)
    out = np.empty((len(hands), n), np.int32)
    rows = np.empty((n, g.hole + width), np.uint8)      # one player's rows at a time
    kernel, lead, tables = _batch_kernel(g, low, g.hole + width)
    for p, hole in enumerate(hands):
        if g.rule == "omaha" and not low and hole.ndim == 1 and width == 5:
            # one hand on every board: its values are kept per board rank row
            from .kernels.omaha import omaha_hole_values
            omaha_hole_values(np.ascontiguousarray(hole), boards, out[p],
                              *_omaha_tables()[:5])
            continue
        hole_board_rows(np.ascontiguousarray(hole), ndim_marker(g.hole), boards, 0,
                        ndim_marker(width), rows)
        kernel(rows, *lead, out[p], *tables)
    return out


def _quoted(g: Game) -> str:
    """The game's name as messages show it: in quotes, so that "the" reads as a name."""
    return f'"{g.name}"'


def _cards_text(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


class _Counts:
    """Integer tallies of one or more chunks of boards."""

    def __init__(self, players: int, weighted: bool = False) -> None:
        kind = np.float64 if weighted else np.int64
        self.weighted = weighted
        self.boards = 0
        self.scoops = np.zeros(players, kind)
        self.splits = np.zeros(players, kind)
        self.hi_full = np.zeros((players, players + 1), kind)
        self.hi_half = np.zeros((players, players + 1), kind)
        self.lo_half = np.zeros((players, players + 1), kind)
        self.squares = np.zeros(players, np.float64)

    def add(self, other: _Counts, weight: int | float = 1) -> None:
        """Add another tally, each of its deals counted ``weight`` times."""
        self.boards += other.boards * weight
        for name in ("scoops", "splits", "hi_full", "hi_half", "lo_half", "squares"):
            getattr(self, name).__iadd__(getattr(other, name) * weight)

    def finish_high(self) -> None:
        """Fill scoops, splits and squares from ``hi_full`` (high-only games)."""
        for p, row in enumerate(self.hi_full.tolist()):
            self.scoops[p] += row[1]
            self.splits[p] += sum(row[2:])
            self.squares[p] += sum(row[k] / (k * k) for k in range(1, len(row)))

    def shares(self) -> tuple[list[float], list[float], list[float]]:
        """(equity, hi, lo) pot shares per player, as floats over the boards.

        Plain Python: for a handful of players it is several times quicker
        than NumPy on arrays this small, which matters to small queries.
        """
        eq, his, los = [], [], []
        n = self.boards
        for full, half_hi, half_lo in zip(self.hi_full.tolist(), self.hi_half.tolist(),
                                          self.lo_half.tolist()):
            hi = sum((full[k] + half_hi[k] / 2) / k for k in range(1, len(full)))
            lo = sum(half_lo[k] / (2 * k) for k in range(1, len(full)))
            eq.append((hi + lo) / n)
            his.append(hi / n)
            los.append(lo / n)
        return eq, his, los

    def stderr(self) -> list[float]:
        """Standard error of each sampled equity: sqrt(var(share) / boards)."""
        n = self.boards
        return [math.sqrt(max(sq / n - e * e, 0.0) / n)
                for sq, e in zip(self.squares.tolist(), self.shares()[0])]


def _tally_chunk(g: Game, hands: list[np.ndarray], boards: np.ndarray) -> _Counts:
    from .kernels import counting
    counts = _Counts(len(hands))
    hi = _values(g, hands, boards, low=False)
    hilo = g.pot == "hilo"
    lo = _values(g, hands, boards, low=True) if hilo else hi
    counting.tally(hi, lo, hilo, counts.scoops, counts.splits, counts.hi_full, counts.hi_half,
                  counts.lo_half, counts.squares)
    counts.boards = boards.shape[0]
    return counts


def _fused_chunk(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                 need: int, samples: int, state: np.ndarray,
                 first: tuple[int, int] = (0, 0)) -> _Counts:
    """Counts from a fused kernel: ``samples`` sampled boards, or (samples == 0)
    every board whose first new card sits at a position in ``first`` of ``live``."""
    first_arr = np.array(first, np.int64)
    from .kernels import walks
    counts = _Counts(len(hands))
    if g.rule == "omaha":
        tables = _omaha_tables()
        counts.boards = walks.omaha_equity(
            np.stack(hands), board, live, need, samples, first_arr, state, g.pot == "hilo",
            *tables,
            counts.scoops, counts.splits, counts.hi_full, counts.hi_half, counts.lo_half,
            counts.squares)
        return counts
    counts.boards = walks.best5_equity(
        np.stack(hands), ndim_marker(3 if g.rule == "tahoe" else 1), board, live, need,
        first_arr, *_tables.high(), counts.scoops, counts.splits, counts.hi_full, counts.squares)
    return counts


def _sampled_best5(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                   need: int, samples: int, state: np.ndarray) -> _Counts:
    """Monte Carlo counts for best-five games and Tahoe; hands may lack cards (the
    kernel deals them)."""
    from .kernels import sampling as sampling_kernels
    counts = _Counts(len(hands))
    holes = np.zeros((len(hands), g.hole), np.uint8)
    for p, hand in enumerate(hands):
        holes[p, :len(hand)] = hand
    unknown = unknown_cards([g.hole - len(hand) for hand in hands])
    sampling_kernels.best5_sample(holes, ndim_marker(3 if g.rule == "tahoe" else 1), unknown,
                         board, live, need, samples, state, *_tables.high(), counts.hi_full)
    counts.boards = samples
    counts.finish_high()
    return counts


def _fused(g: Game) -> bool:
    """Games with a fused kernel: best five of at most seven cards, Tahoe (the best of
    three such hands) and Omaha."""
    return (g.rule == "best5" and g.pot == "high" and g.hole + max(g.streets) <= 7) or \
        g.rule in ("omaha", "tahoe")


SUBSET_LIMIT = 10_000_000      # card subsets listed at once by _exact_with_unknown


def _exact_with_unknown(g: Game, hands: list[np.ndarray], unknown: list[int],
                        board: np.ndarray, live: np.ndarray, need: int,
                        threads: int) -> _Counts | None:
    """Counts over every deal of the unknown hole cards and the rest of the board, in
    batches: each subset of the cards still to come is split every way between the hands
    that lack cards and the board (one pattern of positions at a time), and the deals are
    evaluated as arrays.  None when the subsets are too many to list."""
    from .kernels import dealing
    drawn = sum(unknown) + need
    total = math.comb(len(live), drawn)
    if total > SUBSET_LIMIT:
        return None
    subsets = np.empty((total, drawn), np.uint8)
    dealing.enumerate_boards(live, np.empty(0, np.uint8), drawn, subsets)
    patterns = list(_splits(list(range(drawn)), [u for u in unknown if u] + [need]))

    def work(task: tuple[list[int], int, int]) -> _Counts:
        order, start, stop = task
        # the subset's cards reordered: each lacking hand's, then the board's (a copy in C
        # order: column indexing can return another layout)
        cards = np.ascontiguousarray(subsets[start:stop, order])
        return _tally_chunk(g, *_complete_deals(g, hands, unknown, board, cards))

    tasks = [(sum(pattern, []), start, min(start + CHUNK, total))
             for pattern in patterns for start in range(0, total, CHUNK)]
    counts = _Counts(len(hands))
    for part in _map(work, tasks, threads):
        counts.add(part)
    return counts


def _complete_deals(g: Game, hands: list[np.ndarray], unknown: list[int], board: np.ndarray,
                    cards: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Hands and boards of a batch of deals: ``cards`` (deals, cards dealt) holds each
    hand's missing cards in turn, then the board's; ``hands[p]`` are the known cards."""
    from .kernels.dealing import hole_board_rows
    deals = cards.shape[0]
    holes, column = [], 0
    for hand, missing in zip(hands, unknown):
        if not missing:
            holes.append(hand)
            continue
        dealt = np.empty((deals, g.hole), np.uint8)
        hole_board_rows(hand, ndim_marker(len(hand)), cards, column, ndim_marker(missing),
                        dealt)
        holes.append(dealt)
        column += missing
    boards = np.empty((deals, max(g.streets)), np.uint8)
    hole_board_rows(board, ndim_marker(len(board)), cards, column,
                    ndim_marker(cards.shape[1] - column), boards)
    return holes, boards


def _splits(positions: list[int], sizes: list[int]):
    """Every way to deal ``positions`` into groups of ``sizes``, each group in order."""
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(positions, sizes[0]):
        rest = [x for x in positions if x not in chosen]
        for tail in _splits(rest, sizes[1:]):
            yield (list(chosen),) + tail


def _assignments(hands: list[np.ndarray], unknown: list[int], live: np.ndarray):
    """Every way to give the unknown hole cards: (complete hands, cards still live)."""
    if not any(unknown):
        yield hands, live
        return
    p = next(i for i, u in enumerate(unknown) if u)
    for extra in itertools.combinations(live.tolist(), unknown[p]):
        filled = list(hands)
        filled[p] = np.concatenate([hands[p], np.array(extra, np.uint8)])
        rest = np.array([c for c in live.tolist() if c not in extra], np.uint8)
        yield from _assignments(filled, unknown[:p] + [0] + unknown[p + 1:], rest)


@cache
def _class_tables() -> tuple[np.ndarray, ...]:
    """The constant tables of the rank-multiset kernels, made once."""
    from .kernels import multisets
    return multisets.class_tables()


@cache
def _multisets(size: int) -> np.ndarray:
    """Every sorted multiset of ``size`` ranks, each rank at most four times."""
    rows = [c for c in itertools.combinations_with_replacement(range(13), size)
            if max(c.count(r) for r in set(c)) <= 4]
    out = np.array(rows, np.uint8).reshape(-1, size)
    out.flags.writeable = False
    return out


def _exact_counts(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                  need: int, threads: int) -> _Counts:
    """Counts over every completion of the board, for known hands."""
    if g.rule == "best5" and _fused(g) and need >= 1 and ONE_SHOT and \
            "numba" not in sys.modules:
        # a one-shot query (the command line): NumPy answers before Numba could load
        from ._exact_numpy import best5_exact
        counts = _Counts(len(hands))
        boards = best5_exact(np.stack(hands), board, live, _multisets(need), counts.hi_full)
        if boards >= 0:
            counts.boards = boards
            counts.finish_high()
            return counts
    from .kernels import dealing, multisets
    if g.rule == "best5" and _fused(g) and need >= 1:
        counts = _Counts(len(hands))
        boards = multisets.best5_exact(np.array(hands), board, live, _multisets(need),
                                     *_tables.high(), counts.hi_full, _class_tables())
        if boards >= 0:
            counts.boards = boards
            counts.finish_high()
            return counts
    if g.rule == "omaha" and need >= 1:
        counts = _Counts(len(hands))
        tables = _omaha_tables()
        boards = multisets.omaha_exact(
            np.stack(hands), board, live, _multisets(need), g.pot == "hilo", *tables,
            counts.scoops, counts.splits, counts.hi_full, counts.hi_half, counts.lo_half,
            counts.squares, _class_tables())
        if boards >= 0:
            counts.boards = boards
            return counts
    if _fused(g):
        m = len(live)
        if need == 0 or threads <= 1:
            return _fused_chunk(g, hands, board, live, need, 0, np.zeros(2, np.uint64),
                                (0, m - need + 1))
        # split the first card's positions so each thread gets about as many boards
        weights = [math.comb(m - f - 1, need - 1) for f in range(m - need + 1)]
        cuts, acc, target = [0], 0, sum(weights) / threads
        for f, w in enumerate(weights):
            acc += w
            if acc >= target * len(cuts) and len(cuts) < threads:
                cuts.append(f + 1)
        cuts.append(m - need + 1)
        spans = [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]
        counts = _Counts(len(hands))
        for part in _map(lambda span: _fused_chunk(g, hands, board, live, need, 0,
                                                   np.zeros(2, np.uint64), span),
                         spans, threads):
            counts.add(part)
        return counts
    total = math.comb(len(live), need)
    boards = np.empty((total, max(g.streets)), np.uint8)
    dealing.enumerate_boards(live, board, need, boards)
    counts = _Counts(len(hands))
    chunks = [boards[a:a + CHUNK] for a in range(0, total, CHUNK)]
    for part in _map(lambda b: _tally_chunk(g, hands, b), chunks, threads):
        counts.add(part)
    return counts


def _map(function, items, threads: int) -> list:
    """``function`` over ``items`` on ``threads`` threads, in order; stops on Ctrl-C."""
    return map_items(function, items, threads)


def equity(game: str | Game, hands, board="", dead="", *, exact: bool | None = None,
           trials: int | None = None, target_stderr: float | None = None,
           seed: int | None = None, threads: int | None = None) -> EquityResult:
    """Each player's expected share of the pot.

    Parameters
    ----------
    game : str or Game
    hands : list
        One entry per player: known cards (``"AsKs"``), partly known cards
        (``"As?"``), ``"random"``, range text (``"QQ+,AKs:0.5"``, Omaha
        ``"AA**"``) or a ``Range``.
    board, dead : cards
        The board so far (a street of the game) and cards out of the deck.
    exact : bool, optional
        ``True`` enumerates every deal, ``False`` samples; ``None`` enumerates
        when that takes a few seconds at most.
    trials : int, optional
        Monte Carlo deals (default 1,048,576 unless ``target_stderr`` stops first).
    target_stderr : float, optional
        Stop sampling once every player's standard error is below this.
    seed : int, optional
        Monte Carlo seed; the same seed gives the same answer for any thread count.
    threads : int, optional

    Returns
    -------
    EquityResult

    Examples
    --------
    >>> round(equity("holdem", ["AsKs", "QhQd"], "2c7d9h").players[0].equity, 4)
    0.2394
    >>> equity("holdem", ["AsKs", "AsQd"])
    Traceback (most recent call last):
    ...
    evaluator.errors.CardError: duplicate card 'As' in hand 1 and hand 2
    """
    g = _game(game)
    parsed, unknown, ranges = _parse_hands(g, hands)
    board_ids = parse_cards(board, what="the board")
    dead_ids = parse_cards(dead, what="the dead cards")
    live = _check_spot(g, parsed, board_ids, dead_ids)
    sampling = _check_options(exact, trials, target_stderr, seed)
    if any(r is not None for r in ranges):
        return _range_equity(g, parsed, unknown, ranges, board_ids, dead_ids, exact, trials,
                             target_stderr, seed, threads)
    need = max(g.streets) - len(board_ids)
    hidden = sum(unknown)
    # deals: ways to give every unknown hole card, times the ways to finish the board
    deals, left = 1, len(live)
    for u in unknown:
        deals *= math.comb(left, u)
        left -= u
    deals *= math.comb(left, need)
    if hidden and exact is not False and not sampling and deals > EXACT_LIMIT:
        # too many deals to walk one by one: as ranges of their completions, the unknown
        # hands are enumerated by suit classes, or sampled when even that is too long
        return _range_equity(g, parsed, unknown, [None] * len(parsed), board_ids, dead_ids,
                             exact, trials, target_stderr, seed, threads)
    if exact is None:
        exact = deals <= EXACT_LIMIT and not sampling
    elif exact and deals > EXACT_LIMIT * 20:
        raise EvaluatorError(f"exact=True would enumerate {deals:,} deals, too many to finish "
                             "in reasonable time; use trials= or target_stderr= to sample",
                             deals)
    threads = resolve_threads(threads, max(deals if exact else (trials or DEFAULT_TRIALS), 1)
                              * 4)
    used_seed = None
    if exact and not hidden:
        counts = _exact_counts(g, parsed, board_ids, live, need, threads)
        method = f"exact enumeration of {deals:,} boards"
    elif exact:
        counts = _exact_with_unknown(g, parsed, unknown, board_ids, live, need, threads)
        if counts is None:
            counts = _Counts(len(parsed))
            for hands_now, live_now in _assignments(parsed, unknown, live):
                counts.add(_exact_counts(g, hands_now, board_ids, live_now, need, threads))
        method = f"exact enumeration of {deals:,} deals"
    elif hidden and g.rule == "best5" and _fused(g):
        # unknown hole cards are the ranges of their completions (at most 22,100 combos
        # for three cards): the range sampler deals them
        return _range_equity(g, parsed, unknown, [None] * len(parsed), board_ids, dead_ids,
                             False, trials, target_stderr, seed, threads)
    else:
        used_seed = _seed(seed)

        def run(index: int, size: int) -> _Counts:
            from .kernels import dealing
            state = np.random.SeedSequence([used_seed, index]).generate_state(2, np.uint64)
            if _fused(g) and g.rule in ("best5", "tahoe"):
                return _sampled_best5(g, parsed, board_ids, live, need, size, state)
            if hidden == 0 and _fused(g):
                return _fused_chunk(g, parsed, board_ids, live, need, size, state)
            cards = np.empty((size, hidden + need), np.uint8)
            dealing.sample_boards(live, np.empty(0, np.uint8), hidden + need, cards, state)
            return _tally_chunk(g, *_complete_deals(g, parsed, unknown, board_ids, cards))

        counts = _sample(run, len(parsed), trials, target_stderr, threads)
        method = f"Monte Carlo, {counts.boards:,} {'deals' if hidden else 'boards'}"
    names = [_completion_text(h, u) if u else format_cards(h) for h, u in zip(parsed, unknown)]
    return _result(g, names, board_ids, dead_ids, counts, bool(exact), method, used_seed)


def check_query(game: str | Game, hands, board="", dead="", *, exact: bool | None = None,
                trials: int | None = None, target_stderr: float | None = None,
                seed: int | None = None) -> None:
    """Check an equity query without computing it: raise the error ``equity`` would
    raise for its game, hands, ranges, board, dead cards and options.

    Batches call it on every query before computing any.
    """
    g = _game(game)
    parsed, unknown, ranges = _parse_hands(g, hands)
    board_ids = parse_cards(board, what="the board")
    dead_ids = parse_cards(dead, what="the dead cards")
    _check_spot(g, parsed, board_ids, dead_ids)
    _check_options(exact, trials, target_stderr, seed)
    out = np.concatenate([board_ids, dead_ids])
    for i, rng in enumerate(ranges, start=1):
        if rng is not None and not len(rng.live(out)):
            raise RangeError(f"the range of hand {i} ({rng.text!r}) has no live combos once "
                             "the board and dead cards are out", rng.text)


def _check_options(exact, trials, target_stderr, seed) -> bool:
    """Validate the sampling options; True when sampling was asked for."""
    if trials is not None and (isinstance(trials, bool)
                               or not isinstance(trials, (int, np.integer))):
        raise ArgumentTypeError(f"trials must be a positive integer, got "
                                f"{type(trials).__name__} {trials!r}", trials)
    if trials is not None and trials < 1:
        raise EvaluatorError(f"trials must be a positive integer, got {trials!r}", trials)
    if exact is not None and not isinstance(exact, (bool, np.bool_)):
        raise ArgumentTypeError(f"exact must be True, False or None, got "
                                f"{type(exact).__name__} {exact!r}", exact)
    if target_stderr is not None and (isinstance(target_stderr, bool) or not isinstance(
            target_stderr, (int, float, np.integer, np.floating))):
        raise ArgumentTypeError(f"target_stderr must be a number, got "
                                f"{type(target_stderr).__name__} {target_stderr!r}",
                                target_stderr)
    if target_stderr is not None and not 0 < target_stderr < 1:
        raise EvaluatorError(f"target_stderr must be between 0 and 1, got {target_stderr!r}",
                             target_stderr)
    if target_stderr is not None and target_stderr < MIN_STDERR:
        raise EvaluatorError(f"target_stderr {target_stderr:g} is below {MIN_STDERR:g}, which "
                             f"could take {0.25 / MIN_STDERR ** 2:.1e} deals or more; ask for "
                             "exact=True or trials=", target_stderr)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise ArgumentTypeError(f"seed must be an integer, got {type(seed).__name__} "
                                f"{seed!r}", seed)
    if seed is not None and seed < 0:
        raise EvaluatorError(f"seed must be a non-negative integer, got {seed}", seed)
    sampling = trials is not None or target_stderr is not None
    if exact and sampling:
        raise EvaluatorError("exact=True cannot be combined with trials or target_stderr",
                             "exact")
    return sampling


def _seed(seed: int | None) -> int:
    return int(np.random.SeedSequence(seed).entropy) if seed is None else int(seed)


def _sample(run, players: int, trials: int | None, target_stderr: float | None,
            threads: int) -> _Counts:
    """Monte Carlo chunks ``run(index, size)`` until ``trials`` or ``target_stderr``.

    Chunk ``index`` always holds the same deals (its stream is seeded from
    the index), so the answer does not depend on how chunks meet threads.
    """
    limit = trials if trials is not None else (None if target_stderr else DEFAULT_TRIALS)
    counts = _Counts(players)
    index = 0
    while True:
        check_interrupt()
        stop = index + ROUND
        if limit is not None:
            stop = min(stop, -(-limit // SAMPLE_CHUNK))
        sizes = [SAMPLE_CHUNK if limit is None else min(SAMPLE_CHUNK, limit - i * SAMPLE_CHUNK)
                 for i in range(index, stop)]
        for part in _map(lambda item: run(*item), list(zip(range(index, stop), sizes)),
                         threads):
            counts.add(part)
        index = stop
        if limit is not None and index * SAMPLE_CHUNK >= limit:
            break
        if target_stderr is not None and max(counts.stderr()) <= target_stderr:
            break
    return counts


def _result(g: Game, names: list[str], board_ids: np.ndarray, dead_ids: np.ndarray,
            counts: _Counts, exact: bool, method: str, used_seed: int | None) -> EquityResult:
    eq, hi, lo = counts.shares()
    errors = None if exact else counts.stderr()
    hilo = g.pot == "hilo"
    n = counts.boards
    scoops, splits = counts.scoops.tolist(), counts.splits.tolist()
    players = tuple(
        PlayerEquity(name, eq[p], scoops[p] / n, splits[p] / n,
                     scoop=scoops[p] / n if hilo else None,
                     hi=hi[p] if hilo else None, lo=lo[p] if hilo else None,
                     stderr=None if errors is None else errors[p])
        for p, name in enumerate(names))
    raw = {name: getattr(counts, name).tolist()
           for name in ("scoops", "splits", "hi_full", "hi_half", "lo_half")}
    raw["share_squares"] = counts.squares.tolist()
    raw["boards"] = counts.boards
    raw["weighted"] = counts.weighted
    return EquityResult(g.name, format_cards(board_ids), format_cards(dead_ids), players,
                        exact, counts.boards, method, used_seed, raw)


CLASSES_PER_CALL = 2048           # suit classes per kernel call of an exact range equity
RANGE_TUPLE_LIMIT = 3_000_000      # combo tuples listed for an exact range equity
# beside ranges, a hand with more completions than this is dealt its unknown cards by the
# Monte Carlo sampler instead of listed (a listed range samples faster, but takes longer
# to list than to sample a million deals past this)
LISTED_COMPLETIONS = 50_000
EXACT_SECONDS = 3.0                # exact=None enumerates when it should take about this
EXACT_SECONDS_MAX = 600.0          # exact=True refuses spots longer than this


def _range_equity(g: Game, parsed, unknown, ranges, board_ids, dead_ids, exact, trials,
                  target_stderr, seed, threads) -> EquityResult:
    """Equity where some hands are ranges: every player becomes a weighted range."""
    from ._suits import canonical_classes, stabilizer
    from .kernels import ranges as range_kernels
    players = len(parsed)
    out = np.concatenate([board_ids, dead_ids])
    # hands with unknown cards and no range of their own ("random", "As?") become the range
    # of their completions; where that is long (Omaha's "random" alone is 270,725 combos,
    # 20 M in 6-card Omaha) it is listed only if exact enumeration needs it, and the Monte
    # Carlo sampler deals the cards instead
    names, rows, weights, sizes = [], [], [], []
    for i, (cards, missing, rng) in enumerate(zip(parsed, unknown, ranges), start=1):
        completions = math.comb(52 - len(out) - len(cards), missing)
        if rng is None and completions > LISTED_COMPLETIONS:
            names.append(_completion_text(cards, missing))
            rows.append(None)
            weights.append(None)
            sizes.append(completions)
            continue
        if rng is None:
            rng = _partial_range(g, cards, missing)
        names.append(rng.text if ranges[i - 1] is not None or missing else format_cards(cards))
        alive = rng.live(out)
        if not len(alive):
            raise RangeError(f"the range of hand {i} ({rng.text!r}) has no live combos once "
                             "the board and dead cards are out", rng.text)
        rows.append(alive.combos)
        weights.append(alive.weights)
        sizes.append(len(alive))

    def list_completions() -> None:
        for p, (cards, missing) in enumerate(zip(parsed, unknown)):
            if rows[p] is None:
                alive = _partial_range(g, cards, missing).live(out)
                rows[p], weights[p] = alive.combos, alive.weights

    need = max(g.streets) - len(board_ids)
    left = 52 - len(out) - players * g.hole
    boards = math.comb(left, need)
    threads = resolve_threads(threads, 1 << 30)
    used_seed = None
    sampling = trials is not None or target_stderr is not None
    if (players == 2 and g.rule == "best5" and _fused(g) and need <= 2 and exact is not False
            and not sampling):
        list_completions()
        return _heads_up_by_boards(g, names, rows, weights, board_ids, dead_ids, need)
    # how many combo tuples could be dealt, before listing them
    upper = math.prod(sizes)
    tuples = None
    if exact and upper > RANGE_TUPLE_LIMIT * 4:
        raise EvaluatorError(f"exact=True would enumerate up to {upper:,} combo tuples, too "
                             "many to finish in reasonable time; use trials= or "
                             "target_stderr= to sample", upper)
    group = stabilizer(board_ids, dead_ids)
    # at least this many suit classes: half the tuples (the rest may share cards), each class
    # at most as large as the group of suit renamings
    at_least = upper / 2 / len(group) * _class_seconds(g, need, left)
    if exact is None and at_least > EXACT_SECONDS:
        exact = False                              # clearly too long: sample, list nothing
    if exact or (exact is None and not sampling and upper <= RANGE_TUPLE_LIMIT * 4):
        list_completions()
        masks = [card_masks(r) for r in rows]
        tuples, tuple_weights = _combo_tuples(rows, weights, masks,
                                              RANGE_TUPLE_LIMIT if exact is None else None)
        if tuples is not None and not len(tuples):
            raise RangeError("no deal fits the ranges: every combination of them shares a "
                             "card", names)
    if tuples is not None:
        reps, classes = canonical_classes(tuples, players, group)
        per_class = _class_seconds(g, need, left)
        estimate = len(reps) * per_class
        if exact is None:
            exact = estimate <= EXACT_SECONDS
        elif estimate > EXACT_SECONDS_MAX:
            raise EvaluatorError(f"exact=True would enumerate {len(tuples):,} combo tuples "
                                 f"({len(reps):,} after suit symmetry) on {boards:,} boards "
                                 "each, too many to finish in reasonable time; use trials= or "
                                 "target_stderr= to sample", len(tuples))
    elif exact:
        raise EvaluatorError(f"exact=True would enumerate up to {upper:,} combo tuples, too "
                             "many to finish in reasonable time; use trials= or "
                             "target_stderr= to sample", upper)
    else:
        exact = False
    if exact:
        weight = np.bincount(classes, weights=tuple_weights)
        integral = bool(np.all(tuple_weights == 1))
        if integral:
            weight = np.rint(weight).astype(np.int64)
        holes = tuples[reps].reshape(len(reps), players, g.hole)
        counts = _Counts(players, weighted=not integral)
        # spans of a bounded size, so that Ctrl-C stops the work within one of them
        spans = _spans(len(reps), max(threads, -(-len(reps) // CLASSES_PER_CALL)))
        for part in _map(lambda span: _weighted_exact(g, holes[span[0]:span[1]],
                                                      weight[span[0]:span[1]], board_ids,
                                                      dead_ids, need, not integral),
                         spans, threads):
            counts.add(part)
        method = (f"exact enumeration of {len(tuples):,} combo tuples "
                  f"({len(reps):,} up to suit symmetry) x {boards:,} boards")
        return _result(g, names, board_ids, dead_ids, counts, True, method, None)
    # Monte Carlo over weighted combos
    used_seed = _seed(seed)
    fused = g.rule == "best5" and _fused(g)
    heads_up_kernel = fused and players == 2
    if heads_up_kernel:
        list_completions()
    else:
        # hands without a range of their own are dealt their missing cards with the board,
        # from the cards the ranges leave: the same deals, in law, as a uniform range of their
        # completions (every tuple of range combos leaves as many ways to complete them), and
        # never redealt, however many players there are
        for p in range(players):
            if ranges[p] is None and unknown[p]:
                rows[p] = weights[p] = None
    ranged = [p for p in range(players) if rows[p] is not None]
    dealt = [p for p in range(players) if rows[p] is None]
    hidden = sum(unknown[p] for p in dealt)
    taken = 0
    for c in out.tolist() + [c for p in dealt for c in parsed[p].tolist()]:
        taken |= 1 << c
    # a combo that holds a card of a known hand is never dealt: drop it now, not redeal it
    known = {p: int(np.bitwise_or.reduce(card_masks(rows[p]))) for p in ranged
             if ranges[p] is None and len(rows[p]) == 1}
    for p in ranged:
        others = taken
        for q, mask in known.items():
            if q != p:
                others |= mask
        if others:
            keep = (card_masks(rows[p]) & np.uint64(others)) == 0
            if not keep.any():
                raise RangeError(f"the range of hand {p + 1} ({names[p]!r}) has no live combos "
                                 "beside the other hands' cards", names[p])
            if not keep.all():
                rows[p], weights[p] = rows[p][keep], weights[p][keep]
    sampler = _RangeSampler([rows[p] for p in ranged], [weights[p] for p in ranged],
                            taken, [names[p] for p in ranged], used_seed)
    if sampler.tuples and heads_up_kernel:
        heads_up_kernel = False           # listed tuples are dealt by the generic sampler

    def run(index: int, size: int) -> _Counts:
        state = np.random.SeedSequence([used_seed, index]).generate_state(2, np.uint64)
        if heads_up_kernel:
            part = _Counts(players)
            done = range_kernels.best5_sample_ranges_hu(
                sampler.combos, sampler.starts, sampler.cumulative, sampler.uniform,
                sampler.marker, sampler.masks, np.uint64(taken), sampler.max_tries(size),
                board_ids, need, size, state, *_tables.high(), part.hi_full)
            sampler.check(done)
            part.boards = size
            part.finish_high()
            return part
        holes, new = sampler.deal(size, hidden + need, state)
        hands = [None] * players
        for j, p in enumerate(ranged):
            hands[p] = holes[j]
        column = 0
        for p in dealt:
            known = len(parsed[p])
            hand = np.empty((size, g.hole), np.uint8)
            hand[:, :known] = parsed[p]
            hand[:, known:] = new[:, column:column + unknown[p]]
            column += unknown[p]
            hands[p] = hand
        if fused:
            part = _Counts(players)
            range_kernels.tally_best5_deals(np.stack(hands) if dealt else holes,
                                      np.ascontiguousarray(new[:, hidden:]), board_ids,
                                      *_tables.high(), part.hi_full)
            part.boards = size
            part.finish_high()
            return part
        full = np.empty((size, max(g.streets)), np.uint8)
        full[:, :len(board_ids)] = board_ids
        full[:, len(board_ids):] = new[:, hidden:]
        return _tally_chunk(g, hands, full)

    counts = _sample(run, players, trials, target_stderr, threads)
    how = " (compatible combo tuples listed, dealt by weight)" if sampler.tuples else ""
    method = f"Monte Carlo, {counts.boards:,} deals from the ranges{how}"
    return _result(g, names, board_ids, dead_ids, counts, False, method, used_seed)


class _RangeSampler:
    """Deals one combo per ranged player, with probability proportional to the product of
    the weights among the tuples without a shared card, then the new cards from the rest.

    Redealing when two combos collide is exact in law and fast while most draws fit.  A
    pilot run measures how often they fit (on a stream of its own, so answers stay the same
    for any thread count); when redeals would dominate, every compatible tuple is listed
    once and a tuple is dealt by its exact weight, whatever the weights are.  Ranges that
    fit too rarely and have too many tuples to list are refused at once.
    """

    PILOT = 256                     # deals of the pilot run
    FAST_ENOUGH = 0.125             # fraction of draws that fit, above which redeals stay
    SLOWEST = 1e-4                  # below this, redealing is refused (10,000 draws a deal)
    PILOT_TRIES = int(PILOT / SLOWEST)   # redeals the pilot may spend (0.1 s at most)
    TUPLE_LIMIT = 2_000_000         # compatible tuples listed at most

    def __init__(self, rows, weights, taken: int, names, seed: int) -> None:
        from .kernels import ranges as range_kernels
        self.players = len(rows)
        self.hole = rows[0].shape[1] if rows else 0
        self.taken = np.uint64(taken)
        self.tuples = False
        self.fit = 1.0
        masks = [card_masks(r) for r in rows]
        if rows:
            _check_dealable(np.concatenate(masks), _starts(rows), taken, names)
        self._set(rows, weights, masks)
        if self.players < 2:
            return
        pilot = np.random.SeedSequence([seed, 1 << 40]).generate_state(2, np.uint64)
        holes = np.empty((self.players, self.PILOT, self.hole), np.uint8)
        new = np.empty((self.PILOT, 0), np.uint8)
        state = pilot.copy()
        done = range_kernels.sample_range_deals(self.combos, self.starts, self.cumulative,
                                          self.uniform, self.masks, self.taken,
                                          self.PILOT_TRIES, state, holes, new)
        # the kernel returns the redeals it made, or -1 past its budget
        self.fit = fit = self.PILOT / (self.PILOT + done) if done >= 0 else 0.0
        if fit >= self.FAST_ENOUGH:
            return
        tuples, tuple_weights = _combo_tuples(rows, weights, masks, self.TUPLE_LIMIT)
        if tuples is not None:
            if not len(tuples):
                raise RangeError("no deal fits the ranges: every combination of them shares a "
                                 "card", ", ".join(names))
            self.tuples = True
            self._set([tuples], [tuple_weights], [card_masks(tuples)])
            return
        if fit < self.SLOWEST:
            raise RangeError(f"the ranges fit together too rarely to sample (about one draw in "
                             f"{1 / max(fit, 1e-12):,.0f}) and have too many compatible combo "
                             f"tuples to list (over {self.TUPLE_LIMIT:,}): narrow them",
                             ", ".join(names))

    def _set(self, rows, weights, masks) -> None:
        self.rows = rows
        self.combos = np.ascontiguousarray(np.concatenate(rows)) if rows else \
            np.empty((0, 1), np.uint8)
        self.starts = _starts(rows)
        self.cumulative = np.concatenate([np.cumsum(w) for w in weights]) if rows else \
            np.empty(0)
        self.uniform = np.array([bool(np.all(w == w[0])) for w in weights], np.bool_)
        self.width = self.combos.shape[1]
        self.masks = np.concatenate(masks) if rows else np.empty(0, np.uint64)
        self.marker = ndim_marker(1 if self.uniform.all() else 2)   # 2: some weights differ

    def max_tries(self, size: int) -> int:
        """Redeals a chunk of ``size`` deals may take: far above what the pilot allows."""
        return 0 if self.tuples else int(size * 50 / max(self.fit, self.SLOWEST)) + 100_000

    def check(self, done: int) -> None:
        if done < 0:
            raise RangeError("the ranges fit together too rarely to sample: a chunk of deals "
                             "ran out of redeals; narrow them or ask for exact=True")

    def deal(self, size: int, new_cards: int, state) -> tuple[np.ndarray, np.ndarray]:
        """``size`` deals: the combos, uint8 (players, size, hole), and the new cards from
        the rest, uint8 (size, new_cards)."""
        from .kernels import ranges as range_kernels
        new = np.empty((size, new_cards), np.uint8)
        if self.tuples:
            flat = np.empty((1, size, self.width), np.uint8)
            done = range_kernels.sample_range_deals(self.combos, self.starts, self.cumulative,
                                              self.uniform, self.masks, self.taken, 1, state,
                                              flat, new)
            self.check(done)
            return np.ascontiguousarray(
                flat[0].reshape(size, self.players, self.hole).transpose(1, 0, 2)), new
        holes = np.empty((self.players, size, self.hole), np.uint8)
        done = range_kernels.sample_range_deals(self.combos, self.starts, self.cumulative,
                                          self.uniform, self.masks, self.taken,
                                          self.max_tries(size), state, holes, new)
        self.check(done)
        return holes, new


def _starts(rows) -> np.ndarray:
    """int64 (len(rows) + 1,): where each player's combos start in the concatenated rows."""
    starts = np.zeros(len(rows) + 1, np.int64)
    starts[1:] = np.cumsum([len(r) for r in rows])
    return starts


def _integer_weights(weights: list[np.ndarray], pairs: int) -> tuple[list[np.ndarray], int]:
    """Weights as int64 multiples of 1/scale when exact and safe from overflow, else ([], 0)."""
    for bits in range(11):
        scale = 1 << bits
        scaled = [w * scale for w in weights]
        if all(np.array_equal(x, np.rint(x)) for x in scaled):
            top = math.prod(float(x.max()) for x in scaled)
            if top * pairs < 2.0 ** 62:
                return [np.rint(x).astype(np.int64) for x in scaled], scale
            break
    return [], 0


def _heads_up_by_boards(g: Game, names, rows, weights, board_ids, dead_ids,
                        need: int) -> EquityResult:
    """Range against range on the flop, turn or river: walk the few boards and
    compare every pair of combos on each (``best5_range_boards``)."""
    from .kernels import ranges as range_kernels
    out_cards = set(board_ids.tolist()) | set(dead_ids.tolist())
    live = np.array([c for c in range(52) if c not in out_cards], np.uint8)
    boards = math.comb(len(live), need)
    ints, scale = _integer_weights(weights, len(rows[0]) * len(rows[1]) * boards)
    if scale:
        out = np.zeros(4, np.int64)
        first_w, second_w = ints
    else:
        out = np.zeros(4, np.float64)
        first_w, second_w = weights
    range_kernels.best5_range_boards(np.ascontiguousarray(rows[0]), first_w,
                               np.ascontiguousarray(rows[1]), second_w, board_ids, live, need,
                               *_tables.high(), out)
    if not out[3]:
        first_masks, second_masks = card_masks(rows[0]), card_masks(rows[1])
        if np.any((first_masks[:, None] & second_masks[None, :]) == 0):
            raise RangeError("the weights are too far apart to be represented: every pair of "
                             "combos that fits weighs less than 1e-308 of the largest",
                             ", ".join(names))
        raise RangeError("no deal fits the ranges: every combination of them shares a card",
                         ", ".join(names))
    weighted = scale != 1
    counts = _Counts(2, weighted=weighted)
    values = out if not weighted else out / float(scale * scale) if scale else out
    win, tie, lose, total = (v.item() for v in values)
    counts.hi_full[0, 1], counts.hi_full[0, 2] = win, tie
    counts.hi_full[1, 1], counts.hi_full[1, 2] = lose, tie
    counts.boards = total
    counts.finish_high()
    # the deals walked: each pair of combos without a shared card, on every board the two
    # leave (the kernel meets each board once and skips the pairs that hold one of its cards)
    per_pair = math.comb(len(live) - 2 * g.hole, need)
    if not weighted:
        pairs = int(total) // per_pair
    else:
        first_masks, second_masks = card_masks(rows[0]), card_masks(rows[1])
        pairs = int(np.count_nonzero((first_masks[:, None] & second_masks[None, :]) == 0))
    method = (f"exact enumeration of {pairs * per_pair:,} deals ({pairs:,} pairs of combos "
              f"without a shared card x {per_pair:,} boards)"
              + (", weighted" if weighted else ""))
    return _result(g, names, board_ids, dead_ids, counts, True, method, None)


def _spans(n: int, parts: int) -> list[tuple[int, int]]:
    """Split range(n) into ``parts`` contiguous spans of nearly equal size."""
    cuts = [n * k // parts for k in range(parts + 1)]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def _weighted_exact(g: Game, holes: np.ndarray, weight: np.ndarray, board_ids: np.ndarray,
                    dead_ids: np.ndarray, need: int, weighted: bool) -> _Counts:
    """Exact counts summed over deals ``holes`` (n, P, H), deal k counted ``weight[k]`` times."""
    from .kernels import multisets, walks
    n, players, _ = holes.shape
    counts = _Counts(players, weighted=weighted)
    todo = np.arange(n)
    if need and (g.rule == "omaha" or (g.rule == "best5" and _fused(g))):
        shape = (n, players, players + 1)
        parts = {"scoops": np.zeros((n, players), np.int64),
                 "splits": np.zeros((n, players), np.int64),
                 "hi_full": np.zeros(shape, np.int64), "hi_half": np.zeros(shape, np.int64),
                 "lo_half": np.zeros(shape, np.int64),
                 "squares": np.zeros((n, players), np.float64)}
        boards = np.zeros(n, np.int64)
        if g.rule == "omaha":
            multisets.omaha_exact_batch(
                holes, board_ids, dead_ids, _multisets(need), g.pot == "hilo",
                *_omaha_tables(), *parts.values(), boards)
        else:
            multisets.best5_exact_batch(holes, board_ids, dead_ids, _multisets(need),
                                      *_tables.high(), parts["hi_full"], boards)
        done = boards >= 0
        for name, values in parts.items():
            total = np.tensordot(weight[done], values[done], axes=1)
            getattr(counts, name).__iadd__(total)
        counts.boards += int(weight[done] @ boards[done]) if not weighted \
            else float(weight[done] @ boards[done])
        if g.rule != "omaha":
            counts.finish_high()
        todo = np.flatnonzero(~done)
    if need and len(todo) and g.rule in ("best5", "tahoe") and _fused(g):
        # the rest walk their boards, all in one call
        k = len(todo)
        parts = {"scoops": np.zeros((k, players), np.int64),
                 "splits": np.zeros((k, players), np.int64),
                 "hi_full": np.zeros((k, players, players + 1), np.int64),
                 "squares": np.zeros((k, players), np.float64)}
        boards = np.zeros(k, np.int64)
        walks.best5_equity_batch(np.ascontiguousarray(holes[todo]),
                                   ndim_marker(3 if g.rule == "tahoe" else 1), board_ids,
                                   dead_ids, need, *_tables.high(), *parts.values(), boards)
        for name, values in parts.items():
            getattr(counts, name).__iadd__(np.tensordot(weight[todo], values, axes=1))
        counts.boards += int(weight[todo] @ boards) if not weighted \
            else float(weight[todo] @ boards)
        todo = todo[:0]
    for k in todo.tolist():
        counts.add(_deal_counts(g, holes[k], board_ids, dead_ids, need), weight[k].item())
    return counts


def _deal_counts(g: Game, holes: np.ndarray, board: np.ndarray, dead: np.ndarray,
                 need: int) -> _Counts:
    """Exact counts of one deal, holes uint8 (P, H), on one thread (any method)."""
    used = set(holes.ravel().tolist()) | set(board.tolist()) | set(dead.tolist())
    live = np.array([c for c in range(52) if c not in used], np.uint8)
    return _exact_counts(g, list(holes), board, live, need, 1)


def _omaha_tables() -> list[np.ndarray]:
    return [_tables.load(name) for name in (
        "card_keys", "rank_offsets5", "omaha_board_index", "omaha_pairs",
        "omaha_flush", "low_card_bits", "omaha_low")]


def _partial_range(g: Game, cards: np.ndarray, missing: int) -> Range:
    """A hand with ``missing`` unknown cards as the range of its completions."""
    return _completions(g, tuple(cards.tolist()), missing)


def _completion_text(cards, missing: int) -> str:
    """How a hand with unknown cards is named: ``"random"`` or ``"As??"``."""
    return (format_cards(cards, sep="") + "?" * missing) if len(cards) else "random"


@lru_cache(maxsize=64)
def _completions(g: Game, cards: tuple[int, ...], missing: int) -> Range:
    # cached: listing the 1,326 hold'em hands of "random" in Python costs more than a
    # short Monte Carlo run; the arrays are read-only since every caller shares them
    rest = [c for c in range(52) if c not in set(cards)]
    combos = [sorted(cards + extra) for extra in itertools.combinations(rest, missing)]
    text = _completion_text(cards, missing)
    out = Range._from_combos(g, text, np.array(combos, np.uint8).reshape(-1, g.hole))
    out.combos.setflags(write=False)
    out.weights.setflags(write=False)
    return out


def _combo_tuples(rows, weights, masks, limit):
    """Every tuple of one combo per player with no card shared, and its weight.

    Returns (uint8 (n, players * hole), float64 (n,)), or (None, None) when
    there are more than ``limit`` tuples.
    """
    index = np.arange(len(rows[0]))[:, None]
    mask = masks[0].copy()
    # products of weights can underflow (three players at 1e-200 each): past that risk
    # they are multiplied as logarithms and scaled so that the largest is 1
    smallest = math.prod(float(w.min()) for w in weights)
    logs = not smallest > 1e-250
    weight = np.log(weights[0]) if logs else weights[0].copy()
    for p in range(1, len(rows)):
        ok = (mask[:, None] & masks[p][None, :]) == 0
        a, b = np.nonzero(ok)
        if limit is not None and len(a) > limit:
            return None, None
        index = np.concatenate([index[a], b[:, None]], axis=1)
        mask = mask[a] | masks[p][b]
        weight = weight[a] + np.log(weights[p][b]) if logs else weight[a] * weights[p][b]
    if logs and len(weight):
        weight = np.exp(weight - weight.max())
    tuples = np.concatenate([rows[p][index[:, p]] for p in range(len(rows))], axis=1)
    return tuples, weight


def _class_seconds(g: Game, need: int, live: int) -> float:
    """Rough seconds for one exact spot, to decide between enumerating and sampling."""
    if need and (g.rule == "omaha" or (g.rule == "best5" and _fused(g))):
        return 4e-5 + 2.5e-7 * len(_multisets(need))
    if need and g.rule == "tahoe":             # walked in one batch call: 16-45 ns a board
        return 1e-6 + 3e-8 * math.comb(live, need)
    return 4e-5 + 3e-8 * math.comb(live, need)


def _check_dealable(combo_masks, starts, taken, names, budget: int = 100_000) -> None:
    """Refuse ranges that can never be dealt together (sampling would never end).

    A depth-first search for one tuple of combos without a shared card, over
    distinct card masks; it gives up (and trusts the ranges) after ``budget``
    steps, which only very wide ranges need, and those always fit.
    """
    players = len(starts) - 1
    masks = []
    for p in range(players):
        part = combo_masks[starts[p]:starts[p + 1]]
        live = part[(part & np.uint64(taken)) == 0]
        if not len(live):
            raise RangeError(f"the range of hand {p + 1} ({names[p]!r}) has no live combos",
                             names[p])
        masks.append(live)
    steps = 0

    def search(p: int, used: int) -> bool:
        # wide ranges fit at once, so their masks are read one by one, not listed
        nonlocal steps
        if p == players:
            return True
        for m in masks[p]:
            steps += 1
            if steps > budget:
                return True
            m = int(m)
            if not m & used and search(p + 1, used | m):
                return True
        return False

    if not search(0, int(taken)):
        raise RangeError("no deal fits the ranges: every combination of them shares a card",
                         ", ".join(names))


def equity_by_street(game: str | Game, hands, board, dead="", **options) -> list[EquityResult]:
    """Equity before the board and after each street dealt so far.

    For hold'em games: pre-flop, flop, turn and river as far as ``board``
    goes; for ``the``: after each of its board cards.
    """
    g = _game(game)
    board_ids = parse_cards(board, what="the board")
    streets = [s for s in g.streets if s <= len(board_ids)]
    if len(board_ids) not in g.streets:
        raise HandError(f"a board of {_cards_text(len(board_ids))} is not a street of "
                        f"{_quoted(g)} (board sizes: {', '.join(map(str, g.streets))})",
                        len(board_ids))
    return [equity(g, hands, board_ids[:s], dead, **options) for s in streets]


def discard_equity(game: str | Game, hero, opponents, board="", dead="",
                   **options) -> list[tuple[str, str, EquityResult]]:
    """Pineapple / Crazy Pineapple: the equity of each possible keep, best first.

    Returns ``(kept, discarded, result)`` triples; the discard is dead.
    Opponents are given after their own discards (two cards each).
    """
    g = _game(game)
    if g.dealt <= g.hole:
        raise HandError(f"{g.name} has no discard; discard_equity is for pineapple and "
                        "crazy_pineapple", g.name)
    if isinstance(opponents, str) or not isinstance(opponents, (list, tuple)):
        raise ArgumentTypeError("opponents must be a list with one hand or range per "
                                f"opponent, e.g. ['JhTh'], got {opponents!r}", opponents)
    cards = parse_cards(hero, what="the hero's hand")
    if len(cards) != g.dealt:
        raise HandError(f"the hero holds {g.dealt} cards before the discard, got {len(cards)}",
                        len(cards))
    board_ids = parse_cards(board, what="the board")
    if len(board_ids) != g.discard_at:
        raise HandError(f"{g.name} discards with {g.discard_at} board cards, "
                        f"got {len(board_ids)}", len(board_ids))
    dead_ids = parse_cards(dead, what="the dead cards")
    results = []
    for drop in range(len(cards)):
        keep = np.delete(cards, drop)
        thrown = cards[drop:drop + 1]
        result = equity(g, [keep, *opponents], board_ids, np.concatenate([dead_ids, thrown]),
                        **options)
        results.append((format_cards(keep), format_cards(thrown), result))
    results.sort(key=lambda r: -r[2].players[0].equity)
    return results


def warmup_equity(report=None) -> None:
    """Compile (or load from Numba's cache) every equity kernel with tiny queries.

    ``report(step, steps, label)``, when given, is called before each query.
    """
    sampled = {"trials": 1000, "seed": 1}
    steps = [
        ("holdem", ["AsKs", "QhQd"], "", {}),                          # rank multisets
        ("holdem", ["AsKs", "QhQd"], "2c7d9h", {}),
        ("the", ["AcKcQc", "AhKhQh"], "2s", {}),                       # walking boards
        ("holdem", ["AsKs", "QhQd"], "", sampled),                      # sampling
        ("holdem", ["AsKs", "random"], "", sampled),
        ("holdem", ["QQ+,AKs:0.5", "random"], "", sampled),
        ("holdem", ["AA,KK", "QQ", "random"], "", sampled),
        ("holdem", ["AA,KK", "QQ"], "", {}),                            # ranges, exact
        ("holdem", ["AA,KK", "QQ"], "2c7d9h", {}),
        ("holdem", ["AA,KK:0.3", "QQ"], "2c7d9h", {})]
    for game in ("omaha", "omaha8"):
        steps += [(game, ["AsAhKsKh", "QdQcJdTc"], "", {}),
                  (game, ["AsAhKsKh", "QdQcJdTc"], "", sampled),
                  (game, ["AsAhKsKh,AcAdKcKd", "QdQcJdTc"], "2c7d9h", {}),
                  (game, ["AsAh**", "QdQcJdTc"], "2c7d9h", sampled)]
    steps += [("tahoe", ["AsKsQs", "JhJdTc"], "2c7d9h", {}),
              ("tahoe", ["AsKsQs", "JhJdTc"], "", sampled),
              ("tahoe", ["AsKsQs", "random"], "", sampled),             # unknown cards
              ("omaha", ["AsAhKsKh", "QdQcJd?"], "2c7d9hTs4h", {}),
              ("teen_patti", ["AsKsQs", "random"], "", sampled),
              ("teen_patti", ["AsKsQs", "random"], "", {})]
    for step, (game, hands, board, options) in enumerate(steps):
        if report is not None:
            report(step, len(steps), f"{game} {' vs '.join(hands)}"
                   + (f" on {board}" if board else "") + (", sampled" if options else ""))
        equity(game, hands, board, threads=1, **options)
