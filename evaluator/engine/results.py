"""What an equity query returns: each player's share, and the counts behind it.

``Counts`` is the one counting layout: for ``P`` players, ``hi_full[p, k]`` counts the deals
where ``p`` takes the whole pot with ``k - 1`` others, ``hi_half[p, k]`` / ``lo_half[p, k]``
the deals where ``p`` shares the high or the low half with ``k - 1`` others.  Every kernel
fills it; ``make_result`` turns it into an ``EquityResult`` once.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from fractions import Fraction

import numpy as np

from ..cards import format_cards
from ..games import Game


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
    samples: int | float             # deals, or their total weight with weighted ranges
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


class Counts:
    """Integer tallies of one or more chunks of boards."""

    def __init__(self, players: int, weighted: bool = False) -> None:
        kind = np.float64 if weighted else np.int64
        self.weighted = weighted
        self.boards: int | float = 0       # a float when weighted
        self.scoops = np.zeros(players, kind)
        self.splits = np.zeros(players, kind)
        self.hi_full = np.zeros((players, players + 1), kind)
        self.hi_half = np.zeros((players, players + 1), kind)
        self.lo_half = np.zeros((players, players + 1), kind)
        self.squares = np.zeros(players, np.float64)

    def add(self, other: Counts, weight: int | float = 1) -> None:
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


def make_result(g: Game, names: list[str], board_ids: np.ndarray, dead_ids: np.ndarray,
            counts: Counts, exact: bool, method: str, used_seed: int | None) -> EquityResult:
    eq, hi, lo = counts.shares()
    errors = None if exact else counts.stderr()
    hilo = g.hilo
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
