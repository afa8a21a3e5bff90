"""Public equity API: exact enumeration and Monte Carlo over each game's dealing rules.

>>> from evaluator import equity
>>> r = equity("holdem", ["AsKs", "QhQd"])
>>> r.exact, r.samples, str(r.fractions[0])
(True, 1712304, '197833/428076')
>>> round(r.players[0].equity, 6)
0.462145

Hands may hold unknown cards: ``"As?"``, ``"AA**"`` (Omaha) or ``"random"``.
Ranges come with a later step.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import cache

import numpy as np

from . import _tables
from ._parallel import resolve_threads
from .cards import format_cards, parse_cards
from .errors import CardError, EvaluatorError, HandError
from .games import Game
from .games import game as _game

__all__ = ["PlayerEquity", "EquityResult", "equity", "equity_by_street", "discard_equity"]

EXACT_LIMIT = 5_000_000        # boards enumerated when exact=None
CHUNK = 1 << 16                # boards per chunk (and per Monte Carlo stream)
ROUND = 16                     # Monte Carlo chunks between stopping checks
DEFAULT_TRIALS = 1 << 20


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
        if not self.exact:
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
        if self.exact:
            out["counts"]["equity_fractions"] = [str(f) for f in self.fractions]
        out["players"] = [{k: v for k, v in asdict(p).items() if v is not None}
                          for p in self.players]
        return out


def _parse_hands(g: Game, hands) -> tuple[list[np.ndarray], list[int]]:
    """Known cards and the number of unknown cards (``?``, ``*``, ``random``) per hand."""
    if isinstance(hands, str):
        raise HandError("hands is a list with one entry per player, e.g. ['AsKs', 'QhQd']",
                        hands)
    parsed, unknown = [], []
    for i, hand in enumerate(hands, start=1):
        missing = 0
        if isinstance(hand, str):
            if hand.strip().lower() == "random":
                hand, missing = "", g.hole
            else:
                missing = hand.count("?") + hand.count("*")
                hand = hand.replace("?", " ").replace("*", " ")
        cards = parse_cards(hand, what=f"hand {i}")
        if len(cards) + missing != g.hole:
            extra = " (after the discard)" if g.dealt > g.hole else ""
            shown = format_cards(cards) + " ?" * missing
            raise HandError(f"hand {i} needs {g.hole} cards for {g.name}{extra}, "
                            f"got {len(cards) + missing}: {shown.strip() or 'none'}", hand)
        parsed.append(cards)
        unknown.append(missing)
    if len(parsed) < 2:
        raise HandError(f"equity needs at least two hands, got {len(parsed)}", len(parsed))
    return parsed, unknown


def _check_spot(g: Game, hands: list[np.ndarray], board: np.ndarray,
                dead: np.ndarray) -> np.ndarray:
    """Check the spot fits the game and the deck; return the live cards."""
    if len(board) not in g.streets:
        streets = ", ".join(map(str, g.streets))
        raise HandError(f"a board of {len(board)} cards is not a street of {g.name} "
                        f"(board sizes: {streets})", len(board))
    final = max(g.streets)
    needed = len(hands) * g.hole + final + len(dead)
    if needed > 52:
        raise HandError(f"{len(hands)} players need {needed} cards in {g.name}; "
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
    n = boards.shape[0]
    out = np.empty((len(hands), n), np.int32)
    for p, hole in enumerate(hands):
        rows = np.empty((n, g.hole + boards.shape[1]), np.uint8)
        rows[:, :g.hole] = hole
        rows[:, g.hole:] = boards
        kernel, lead, tables = _batch_kernel(g, low, rows.shape[1])
        kernel(rows, *lead, out[p], *tables)
    return out


class _Counts:
    """Integer tallies of one or more chunks of boards."""

    def __init__(self, players: int) -> None:
        self.boards = 0
        self.scoops = np.zeros(players, np.int64)
        self.splits = np.zeros(players, np.int64)
        self.hi_full = np.zeros((players, players + 1), np.int64)
        self.hi_half = np.zeros((players, players + 1), np.int64)
        self.lo_half = np.zeros((players, players + 1), np.int64)
        self.squares = np.zeros(players, np.float64)

    def add(self, other: _Counts) -> None:
        self.boards += other.boards
        for name in ("scoops", "splits", "hi_full", "hi_half", "lo_half", "squares"):
            getattr(self, name).__iadd__(getattr(other, name))

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
    from .kernels import equity as kernels
    counts = _Counts(len(hands))
    hi = _values(g, hands, boards, low=False)
    hilo = g.pot == "hilo"
    lo = _values(g, hands, boards, low=True) if hilo else hi
    kernels.tally(hi, lo, hilo, counts.scoops, counts.splits, counts.hi_full, counts.hi_half,
                  counts.lo_half, counts.squares)
    counts.boards = boards.shape[0]
    return counts


def _fused_chunk(g: Game, hands: list[np.ndarray], board: np.ndarray, live: np.ndarray,
                 need: int, samples: int, state: np.ndarray,
                 first: tuple[int, int] = (0, 0)) -> _Counts:
    """Counts from a fused kernel: ``samples`` sampled boards, or (samples == 0)
    every board whose first new card sits at a position in ``first`` of ``live``."""
    first_arr = np.array(first, np.int64)
    from .kernels import equity as kernels
    counts = _Counts(len(hands))
    if g.rule == "omaha":
        tables = [_tables.load(name) for name in (
            "card_keys", "omaha_board_offsets", "omaha_board_index", "omaha_pairs",
            "omaha_flush", "low_card_bits", "omaha_low")]
        counts.boards = kernels.omaha_equity(
            np.stack(hands), board, live, need, samples, first_arr, state, g.pot == "hilo",
            *tables,
            counts.scoops, counts.splits, counts.hi_full, counts.hi_half, counts.lo_half,
            counts.squares)
        return counts
    counts.boards = kernels.best5_equity(
        np.stack(hands), board, live, need, first_arr, *_tables.high(), counts.scoops,
        counts.splits, counts.hi_full, counts.squares)
    return counts


def _sampled_best5(hands: list[np.ndarray], unknown: list[int], board: np.ndarray,
                   live: np.ndarray, need: int, samples: int, state: np.ndarray) -> _Counts:
    """Monte Carlo counts for best-five games, unknown hole cards dealt per sample."""
    from .kernels import equity as kernels
    counts = _Counts(len(hands))
    if not any(unknown):
        kernels.best5_sample(np.stack(hands), board, live, need, samples, state,
                             *_tables.high(), counts.hi_full)
    else:
        width = len(hands[0]) + unknown[0]
        holes = np.full((len(hands), width), 255, np.uint8)
        for p, hole in enumerate(hands):
            holes[p, :len(hole)] = hole
        kernels.best5_sample_hidden(holes, np.array(unknown, np.int64), board, live, need,
                                    samples, state, *_tables.high(), counts.hi_full)
    counts.boards = samples
    counts.finish_high()
    return counts


def _fused(g: Game) -> bool:
    """Games with a fused kernel: best five of at most seven cards, and Omaha."""
    return (g.rule == "best5" and g.pot == "high" and g.hole + max(g.streets) <= 7) or \
        g.rule == "omaha"


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
    from .kernels import equity as kernels
    if g.rule == "best5" and _fused(g) and need >= 1:
        counts = _Counts(len(hands))
        boards = kernels.best5_exact(np.stack(hands), board, live, _multisets(need),
                                     *_tables.high(), counts.hi_full)
        if boards >= 0:
            counts.boards = boards
            counts.finish_high()
            return counts
    if g.rule == "omaha" and need >= 1:
        counts = _Counts(len(hands))
        tables = [_tables.load(name) for name in (
            "card_keys", "omaha_board_offsets", "omaha_board_index", "omaha_pairs",
            "omaha_flush", "low_card_bits", "omaha_low")]
        boards = kernels.omaha_exact(
            np.stack(hands), board, live, _multisets(need), g.pot == "hilo", *tables,
            counts.scoops, counts.splits, counts.hi_full, counts.hi_half, counts.lo_half,
            counts.squares)
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
    kernels.enumerate_boards(live, board, need, boards)
    counts = _Counts(len(hands))
    chunks = [boards[a:a + CHUNK] for a in range(0, total, CHUNK)]
    for part in _map(lambda b: _tally_chunk(g, hands, b), chunks, threads):
        counts.add(part)
    return counts


def _map(function, items, threads: int):
    if threads <= 1 or len(items) <= 1:
        return [function(item) for item in items]
    from ._parallel import _pool
    return list(_pool(threads).map(function, items))


def equity(game: str | Game, hands, board="", dead="", *, exact: bool | None = None,
           trials: int | None = None, target_stderr: float | None = None,
           seed: int | None = None, threads: int | None = None) -> EquityResult:
    """Each player's expected share of the pot.

    Parameters
    ----------
    game : str or Game
    hands : list
        One entry per player: that player's hole cards (all known).
    board, dead : cards
        The board so far (a street of the game) and cards out of the deck.
    exact : bool, optional
        ``True`` enumerates every board, ``False`` samples; ``None`` enumerates
        when there are at most 5 million boards.
    trials : int, optional
        Monte Carlo boards (default 1,048,576 unless ``target_stderr`` stops first).
    target_stderr : float, optional
        Stop sampling once every player's standard error is below this.
    seed : int, optional
        Monte Carlo seed; the same seed gives the same answer for any thread count.
    threads : int, optional

    Returns
    -------
    EquityResult
    """
    from .kernels import equity as kernels
    g = _game(game)
    parsed, unknown = _parse_hands(g, hands)
    board_ids = parse_cards(board, what="the board")
    dead_ids = parse_cards(dead, what="the dead cards")
    live = _check_spot(g, parsed, board_ids, dead_ids)
    need = max(g.streets) - len(board_ids)
    hidden = sum(unknown)
    # deals: ways to give every unknown hole card, times the ways to finish the board
    deals, left = 1, len(live)
    for u in unknown:
        deals *= math.comb(left, u)
        left -= u
    deals *= math.comb(left, need)
    sampling = trials is not None or target_stderr is not None
    if trials is not None and (not isinstance(trials, (int, np.integer)) or trials < 1):
        raise EvaluatorError(f"trials must be a positive integer, got {trials!r}", trials)
    if target_stderr is not None and not (isinstance(target_stderr, (int, float))
                                          and 0 < target_stderr < 1):
        raise EvaluatorError(f"target_stderr must be between 0 and 1, got {target_stderr!r}",
                             target_stderr)
    if seed is not None and not isinstance(seed, (int, np.integer)):
        raise EvaluatorError(f"seed must be an integer, got {seed!r}", seed)
    if exact and sampling:
        raise EvaluatorError("exact=True cannot be combined with trials or target_stderr",
                             "exact")
    if exact is None:
        exact = deals <= EXACT_LIMIT and not sampling
    elif exact and deals > EXACT_LIMIT * 20:
        raise EvaluatorError(f"exact=True would enumerate {deals:,} deals, too many to finish "
                             "in reasonable time; use trials= or target_stderr= to sample",
                             deals)
    threads = resolve_threads(threads, max(deals if exact else (trials or DEFAULT_TRIALS), 1)
                              * 4)
    counts = _Counts(len(parsed))
    used_seed = None
    if exact and not hidden:
        counts = _exact_counts(g, parsed, board_ids, live, need, threads)
        method = f"exact enumeration of {deals:,} boards"
    elif exact:
        for hands_now, live_now in _assignments(parsed, unknown, live):
            counts.add(_exact_counts(g, hands_now, board_ids, live_now, need, threads))
        method = f"exact enumeration of {deals:,} {'deals' if hidden else 'boards'}"
    else:
        used_seed = int(np.random.SeedSequence(seed).entropy) if seed is None else int(seed)
        limit = trials if trials is not None else (None if target_stderr else DEFAULT_TRIALS)

        def run(index: int) -> _Counts:
            state = np.random.SeedSequence([used_seed, index]).generate_state(2, np.uint64)
            size = CHUNK if limit is None else min(CHUNK, limit - index * CHUNK)
            if g.rule == "best5" and _fused(g):
                return _sampled_best5(parsed, unknown, board_ids, live, need, size, state)
            if hidden == 0 and _fused(g):
                return _fused_chunk(g, parsed, board_ids, live, need, size, state)
            cards = np.empty((size, hidden + need), np.uint8)
            kernels.sample_boards(live, np.empty(0, np.uint8), hidden + need, cards, state)
            holes, column = [], 0
            for hole, u in zip(parsed, unknown):
                if u == 0:
                    holes.append(hole)
                    continue
                dealt = np.empty((size, g.hole), np.uint8)
                dealt[:, :len(hole)] = hole
                dealt[:, len(hole):] = cards[:, column:column + u]
                holes.append(dealt)
                column += u
            boards = np.empty((size, max(g.streets)), np.uint8)
            boards[:, :len(board_ids)] = board_ids
            boards[:, len(board_ids):] = cards[:, column:]
            return _tally_chunk(g, holes, boards)

        index = 0
        while True:
            stop = index + ROUND
            if limit is not None:
                stop = min(stop, -(-limit // CHUNK))
            for part in _map(run, list(range(index, stop)), threads):
                counts.add(part)
            index = stop
            if limit is not None and index * CHUNK >= limit:
                break
            if target_stderr is not None and max(counts.stderr()) <= target_stderr:
                break
        method = f"Monte Carlo, {counts.boards:,} {'deals' if hidden else 'boards'}"
    eq, hi, lo = counts.shares()
    errors = None if exact else counts.stderr()
    hilo = g.pot == "hilo"
    n = counts.boards
    scoops, splits = counts.scoops.tolist(), counts.splits.tolist()
    players = tuple(
        PlayerEquity(format_cards(h), eq[p], scoops[p] / n, splits[p] / n,
                     scoop=scoops[p] / n if hilo else None,
                     hi=hi[p] if hilo else None, lo=lo[p] if hilo else None,
                     stderr=None if errors is None else errors[p])
        for p, h in enumerate(parsed))
    raw = {name: getattr(counts, name).tolist()
           for name in ("scoops", "splits", "hi_full", "hi_half", "lo_half")}
    raw["share_squares"] = counts.squares.tolist()
    raw["boards"] = counts.boards
    return EquityResult(g.name, format_cards(board_ids), format_cards(dead_ids), players,
                        bool(exact), counts.boards, method, used_seed, raw)


def equity_by_street(game: str | Game, hands, board, dead="", **options) -> list[EquityResult]:
    """Equity before the board and after each street dealt so far.

    For hold'em games: pre-flop, flop, turn and river as far as ``board``
    goes; for ``the``: after each of its board cards.
    """
    g = _game(game)
    board_ids = parse_cards(board, what="the board")
    streets = [s for s in g.streets if s <= len(board_ids)]
    if len(board_ids) not in g.streets:
        raise HandError(f"a board of {len(board_ids)} cards is not a street of {g.name}",
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
