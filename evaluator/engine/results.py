"""What an equity query returns: each player's share, and the counts behind it.

``Counts`` is the one counting layout (``hi_full`` and, in hi-lo games, ``joint``): every
kernel fills it, the rest is derived from it here, and ``make_result`` turns it into an
``EquityResult`` once.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from fractions import Fraction

import numpy as np

from ..cards import format_cards
from ..errors import seed_text, short_text
from ..games import Game


@dataclass(frozen=True)
class PlayerEquity:
    """One player's share of the pot (an entry of ``EquityResult.players``).

    Attributes
    ----------
    hand : str
        The hand or range as given, cards in canonical form (``"As Ks"``).
    equity : float
        The expected share of the pot.
    win : float
        How often the player takes the whole pot alone.
    tie : float
        How often the player takes part of it.
    scoop : float or None
        Hi-lo games: how often the player takes the whole pot (= ``win``).
    hi, lo : float or None
        Hi-lo games: the shares of the pot won from each half (``hi + lo == equity``).
    stderr : float or None
        Sampled answers: the standard error of ``equity``.

    Examples
    --------
    >>> from evaluator import equity
    >>> p = equity("omaha8", ["Ah2h3sKs", "AdKdQcJc"], "4c5d9s").players[0]
    >>> round(p.equity, 4), round(p.hi, 4), round(p.lo, 4), round(p.scoop, 4)
    (0.697, 0.325, 0.372, 0.4646)
    """
    hand: str
    equity: float
    win: float
    tie: float
    scoop: float | None = None
    hi: float | None = None
    lo: float | None = None
    stderr: float | None = None

    def __repr__(self) -> str:
        """One line: the hand (a long range cut to its start) and the figures it has."""
        figures = ", ".join(f"{name}={getattr(self, name)!r}" for name in
                            ("equity", "win", "tie", "scoop", "hi", "lo", "stderr")
                            if getattr(self, name) is not None)
        return f"PlayerEquity({short_text(self.hand)!r}, {figures})"


@dataclass(frozen=True)
class EquityResult:
    """Equity of every player, with the method and the counts behind it.

    Attributes
    ----------
    game : str
        The game's name.
    board, dead : str
        The board and the dead cards, in canonical form.
    players : tuple of PlayerEquity
        One entry per player, in the order given.
    exact : bool
        Whether every deal was enumerated (else sampled).
    samples : int or float
        The deals counted: boards enumerated or Monte Carlo trials (their total weight
        with weighted ranges).
    method : str
        How it was computed, in words (``"exact enumeration of 990 boards"``).
    seed : int or None
        The Monte Carlo seed (``None`` when exact).
    counts : dict
        The integer counts behind an exact answer (wins and ties by the number of
        players sharing), as ``fractions`` reads them.
    version : int or None
        The Monte Carlo stream that dealt a sampled answer (``None`` when exact).

    Examples
    --------
    >>> from evaluator import equity
    >>> r = equity("holdem", ["AsKs", "QhQd"], "2c7d9h")
    >>> r.method, r.fractions
    ('exact enumeration of 990 boards', (Fraction(79, 330), Fraction(251, 330)))
    >>> [round(p.equity, 4) for p in r.players]
    [0.2394, 0.7606]
    """
    game: str
    board: str
    dead: str
    players: tuple[PlayerEquity, ...]
    exact: bool
    # deals, or their total weight with weighted ranges, in the ranges' own weights (so that
    # the weights of queries on different boards add up)
    samples: int | float
    method: str
    seed: int | None = None
    counts: dict = field(default_factory=dict, repr=False)
    # the Monte Carlo stream the seed dealt (``equity``'s ``version``; None when exact)
    version: int | None = None

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

    def __repr__(self) -> str:
        """A line or two: the game and board, each player's equity (a long range cut to
        its start; past eight players, how many more), the method and a sample's seed.
        ``players`` and ``to_dict()`` hold every figure."""
        board = f" on {self.board}" if self.board else ""
        dead = f", dead {self.dead}" if self.dead else ""
        shown = ", ".join(f"{short_text(p.hand, 40)} {p.equity:.4%}"
                          + (f" ±{p.stderr:.2%}" if p.stderr is not None else "")
                          for p in self.players[:8])
        if len(self.players) > 8:
            shown += f", and {len(self.players) - 8} more"
        how = self.method + (f", seed {seed_text(self.seed)}" if self.seed is not None
                             else "")
        return f"<EquityResult {self.game}{board}{dead}: {shown}; {how}>"

    def _repr_html_(self) -> str:
        """A table in a notebook: each player's figures, then the method."""
        fields = [f for f in ("equity", "win", "tie", "scoop", "hi", "lo", "stderr")
                  if any(getattr(p, f) is not None for p in self.players)]
        head = "".join(f"<th>{f}</th>" for f in ("hand", *fields))
        body = "".join(
            f"<tr><td>{p.hand}</td>" + "".join(
                f"<td>{getattr(p, f):.4%}</td>" if f != "stderr" else
                f"<td>{getattr(p, f):.2e}</td>" for f in fields) + "</tr>"
            for p in self.players)
        board = f" on {self.board}" if self.board else ""
        return (f"<p>{self.game}{board}: {self.method}</p>"
                f"<table><tr>{head}</tr>{body}</table>")

    def to_dict(self) -> dict:
        """The result as JSON-ready data (what ``evaluator equity --json`` prints); an
        exact answer's counts add ``equity_fractions`` as text (``"79/330"``), and the seed
        is written as results files write it (``0x`` and hex digits, ``errors.seed_text``:
        text that no reader rounds to a float)."""
        out = asdict(self)
        out["seed"] = seed_text(self.seed)
        fractions = self.fractions
        if fractions is not None:
            out["counts"]["equity_fractions"] = [str(f) for f in fractions]
        out["players"] = [{k: v for k, v in asdict(p).items() if v is not None}
                          for p in self.players]
        return out


class Counts:
    """Integer tallies of one or more chunks of deals, in the one layout every kernel fills.

    ``hi_full[p, k]``: deals where ``p`` takes the whole pot with ``k - 1`` others (every
    high-only game, and hi-lo deals with no qualifying low).  ``joint[p, a, b]`` (hi-lo games
    only, else None): deals with a qualifying low where ``p`` shares the high half with
    ``a - 1`` others and the low half with ``b - 1`` others, ``a = 0`` / ``b = 0`` when ``p``
    misses that half (``joint[p, 0, 0]`` stays 0: a player who wins nothing is not counted).
    Everything else (wins, ties, each half's shares, the squared shares behind a standard
    error) is derived from these once, here, so no kernel repeats the convention.
    """

    def __init__(self, players: int, weighted: bool = False, hilo: bool = False) -> None:
        kind = np.float64 if weighted else np.int64
        self.weighted = weighted
        self.boards: int | float = 0       # a float when weighted
        self.hi_full: np.ndarray = np.zeros((players, players + 1), kind)
        self.joint: np.ndarray | None = (
            np.zeros((players, players + 1, players + 1), kind) if hilo else None)

    def add(self, other: Counts, weight: int | float = 1) -> None:
        """Add another tally, each of its deals counted ``weight`` times."""
        self.boards += other.boards * weight
        self.hi_full += other.hi_full * weight
        if other.joint is not None:
            if self.joint is None:
                self.joint = np.zeros(other.joint.shape, self.hi_full.dtype)
            self.joint += other.joint * weight

    def low_counts(self) -> np.ndarray:
        """``joint`` for a kernel to fill (an empty array in high-only games)."""
        return self.joint if self.joint is not None else _NO_LOW

    def derived(self) -> dict[str, list]:
        """scoops, splits, hi_half, lo_half (per player, as lists) and share_squares,
        the sum over deals of each player's squared pot share."""
        full = self.hi_full.tolist()
        scoops = [row[1] for row in full]
        splits = [sum(row[2:]) for row in full]
        squares = [sum(row[k] / (k * k) for k in range(1, len(row))) for row in full]
        players = len(full)
        zero = [[0] * (players + 1) for _ in range(players)]
        if self.joint is None:
            return {"scoops": scoops, "splits": splits, "hi_half": zero, "lo_half": zero,
                    "share_squares": squares}
        # plain Python: a few players' arrays are tiny, and NumPy's per-call cost was
        # most of a small hi-lo query's time
        half = [0.0] + [0.5 / k for k in range(1, players + 1)]
        hi_half, lo_half = [], []
        for p, table in enumerate(self.joint.tolist()):
            hi_half.append([0] + [sum(row) for row in table[1:]])
            lo_half.append([0] + [sum(row[b] for row in table) for b in range(1, players + 1)])
            scoops[p] += table[1][1]
            splits[p] += sum(map(sum, table)) - table[1][1]
            squares[p] += sum(count * (half[a] + half[b]) ** 2
                              for a, row in enumerate(table) for b, count in enumerate(row)
                              if count)
        return {"scoops": scoops, "splits": splits, "hi_half": hi_half, "lo_half": lo_half,
                "share_squares": squares}

    def shares(self, derived: dict[str, list] | None = None
               ) -> tuple[list[float], list[float], list[float]]:
        """(equity, hi, lo) pot shares per player, as floats over the deals (``derived``:
        what ``derived()`` returns, when already at hand).

        Plain Python: for a handful of players it is several times quicker than NumPy on
        arrays this small, which matters to small queries.
        """
        n = self.boards
        full = self.hi_full.tolist()
        if self.joint is None:
            his = [sum(row[k] / k for k in range(1, len(row))) for row in full]
            return [h / n for h in his], [h / n for h in his], [0.0] * len(his)
        derived = derived or self.derived()
        eq, his, los = [], [], []
        for row, half_hi, half_lo in zip(full, derived["hi_half"], derived["lo_half"]):
            hi = sum((row[k] + half_hi[k] / 2) / k for k in range(1, len(row)))
            lo = sum(half_lo[k] / (2 * k) for k in range(1, len(row)))
            eq.append((hi + lo) / n)
            his.append(hi / n)
            los.append(lo / n)
        return eq, his, los

    def stderr(self, derived: dict[str, list] | None = None) -> list[float]:
        """Standard error of each sampled equity: sqrt(var(share) / deals)."""
        n = self.boards
        derived = derived or self.derived()
        return [math.sqrt(max(sq / n - e * e, 0.0) / n)
                for sq, e in zip(derived["share_squares"], self.shares(derived)[0])]


_NO_LOW = np.zeros((0, 0, 0), np.int64)     # empty: nothing can be written to it


def make_result(g: Game, names: list[str], board_ids: np.ndarray, dead_ids: np.ndarray,
            counts: Counts, exact: bool, method: str, used_seed: int | None,
            weight_scale: float = 1.0) -> EquityResult:
    """The result of ``counts``.  ``weight_scale``: the factor by which the kernels' weights
    were divided (exact range queries scale each range's live weights so that the largest
    is 1); the reported ``samples`` is multiplied back by it, the shares are ratios and do
    not change."""
    derived = counts.derived()
    eq, hi, lo = counts.shares(derived)
    errors = None if exact else counts.stderr(derived)
    hilo = g.hilo
    n = counts.boards
    scoops, splits = derived["scoops"], derived["splits"]
    players = tuple(
        PlayerEquity(name, eq[p], scoops[p] / n, splits[p] / n,
                     scoop=scoops[p] / n if hilo else None,
                     hi=hi[p] if hilo else None, lo=lo[p] if hilo else None,
                     stderr=None if errors is None else errors[p])
        for p, name in enumerate(names))
    raw: dict[str, object] = {
        "scoops": scoops, "splits": splits, "hi_full": counts.hi_full.tolist(),
        "hi_half": derived["hi_half"], "lo_half": derived["lo_half"],
        "share_squares": derived["share_squares"], "boards": counts.boards,
        "weighted": counts.weighted}
    samples = counts.boards
    if weight_scale != 1.0:
        samples = counts.boards * weight_scale
        raw["weight_scale"] = weight_scale
    shown_dead = [c for c in dead_ids.tolist() if c >= 4 * g.lowest_rank]   # not the deck's
    return EquityResult(g.name, format_cards(board_ids), format_cards(shown_dead), players,
                        exact, samples, method, used_seed, raw)
