"""The equity distribution: every combo of a range with its exact equity against another
range, on any board (``equity_distribution``)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._calling import old_form
from .._parallel import map_items, resolve_threads
from ..cards import CardsLike, format_cards, parse_cards
from ..engine.spots import check_distinct, check_street
from ..errors import ArgumentTypeError, EvaluatorError, NoDeal, RangeError, flags, number_text
from ..errors import short_text as _short
from ..export import RowsExport
from ..families import family
from ..games import Game
from ..games import game as _game
from ..progress import progress_bar, reporting
from ..ranges import Range, RangeLike, card_masks
from .preflop import heads_up

MAX_BUCKETS = 1_000_000
"""Equity bins ``buckets`` gives at most."""

__all__ = ["EquityDistribution", "equity_distribution", "check_distribution"]


@dataclass(frozen=True)
class EquityDistribution(RowsExport):
    """What ``equity_distribution`` returns: each live combo of a range with its equity
    against another range, sorted by equity.

    Attributes
    ----------
    game : str
        The game's name.
    board : str
        The board.
    combos : ndarray of uint8, shape (n, hole)
        The live combos.
    equities : ndarray of float64, shape (n,)
        Each combo's exact equity.
    weights : ndarray of float64, shape (n,)
        The weight of the deals each combo stands for (its range weight times the
        weighted number of the other range's combos and boards it meets), so that the
        weighted mean of ``equities`` is the range's equity (``mean``).
    range_weights : ndarray of float64, shape (n,)
        The combos' own weights in the range.

    Examples
    --------
    >>> from evaluator import equity_distribution
    >>> d = equity_distribution(game="holdem", hands="QQ+,AKs", against="random",
    ...                         board="2c7d9h")
    >>> len(d.combos), round(d.mean, 4), round(d.percentile(50), 4)
    (22, 0.7821, 0.835)
    >>> [b["combos"] for b in d.buckets(4)]                  # equity 0-25%, ..., 75-100%
    [0, 0, 4, 18]
    >>> d.rows[0]["hand"], round(d.rows[0]["equity"], 4)     # the weakest combo
    ('AsKs', 0.5223)

    ``d.to_frame()`` and ``d.write(path)`` export the rows.
    """
    game: str
    board: str
    combos: np.ndarray
    equities: np.ndarray
    weights: np.ndarray
    range_weights: np.ndarray

    @property
    def mean(self) -> float:
        """The weighted mean equity: the range's equity against the other."""
        return float(self.equities @ self.weights / self.weights.sum())

    def percentile(self, q: float) -> float:
        """The equity below which ``q`` percent of the range's deals fall (weighted)."""
        if isinstance(q, bool) or not isinstance(q, (int, float)) or not 0 <= q <= 100:
            raise ArgumentTypeError(f"q must be a percentage from 0 to 100, got {q!r}", q)
        cumulative = np.cumsum(self.weights) / self.weights.sum()
        at = int(np.searchsorted(cumulative, q / 100, side="left"))
        return float(self.equities[min(at, len(self.equities) - 1)])

    def buckets(self, n: int = 10) -> list[dict]:
        """The deals' weighted share in ``n`` equal equity bins from 0 to 1."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ArgumentTypeError(f"n must be a positive integer, got {n!r}", n)
        if n > MAX_BUCKETS:
            raise EvaluatorError(f"n must be at most {MAX_BUCKETS:,} bins (each a share of "
                                 f"1/{MAX_BUCKETS:,} equity), got {number_text(n)}", n)
        edges = np.linspace(0.0, 1.0, n + 1)
        where = np.minimum(np.searchsorted(edges, self.equities, side="right") - 1, n - 1)
        share = np.bincount(where, weights=self.weights, minlength=n) / self.weights.sum()
        combos = np.bincount(where, minlength=n)
        return [{"low": float(edges[k]), "high": float(edges[k + 1]), "share": float(share[k]),
                 "combos": int(combos[k])} for k in range(n)]

    def _repr_html_(self) -> str:
        body = "".join(f"<tr><td>{b['low']:.0%}-{b['high']:.0%}</td><td>{b['share']:.1%}</td>"
                       f"<td>{b['combos']}</td></tr>" for b in self.buckets(10))
        return (f"<p>{len(self.combos):,} combos, mean {self.mean:.2%}</p><table><tr><th>"
                f"equity</th><th>share</th><th>combos</th></tr>{body}</table>")

    @property
    def rows(self) -> list[dict]:
        """One dict per combo: ``hand`` (high card first), ``equity``, ``weight``,
        ``range_weight``."""
        return [{"hand": format_cards(sorted(c, reverse=True), sep=""), "equity": e,
                 "weight": w, "range_weight": r}
                for c, e, w, r in zip(self.combos.tolist(), self.equities.tolist(),
                                      self.weights.tolist(), self.range_weights.tolist())]


DISTRIBUTION_SECONDS = 120.0     # a distribution estimated past this is refused at once
EXACT_COMBO_SECONDS, EXACT_PAIR_SECONDS = 1e-3, 7e-6          # one combo's exact query
SAMPLED_QUERY_SECONDS, SAMPLED_PAIR_SECONDS = 0.2, 2.5e-7      # and its sampled one


def _distribution_plan(hands: RangeLike, against: RangeLike, board: CardsLike,
                       game: str | Game, dead: CardsLike):
    """The checks of ``equity_distribution``, made before any work: the board is a street
    of the game, both ranges have live combos, and the work is estimated in seconds and
    refused past ``DISTRIBUTION_SECONDS``.  Returns (game, first, second, board, dead)."""
    g = _game(game)
    board_ids = parse_cards(board, what="the board")
    dead_ids = parse_cards(dead, what="the dead cards")
    check_street(g, board_ids)
    g.check_in_deck(board_ids.tolist(), "the board")
    g.check_in_deck(dead_ids.tolist(), "the dead cards")
    check_distinct([("the board", board_ids), ("the dead cards", dead_ids)])
    first, second = Range(hands, g), Range(against, g)
    out = np.concatenate([board_ids, dead_ids])
    first, second = first.live(out), second.live(out)
    for r in (first, second):
        if not len(r):
            raise NoDeal(f"the range {_short(r.text)!r} has no live combos once the board "
                          "and dead cards are out", r.text)
    if not (_fast_path(g) or _sweeps(g, board_ids, first, second, out)):
        from ..vector_streets import SWEEP_SECONDS_MAX
        seconds = _asked_seconds(g, first, second, board_ids, out)
        if seconds > DISTRIBUTION_SECONDS:
            swept = _sweep_seconds(g, board_ids, first, second)
            raise RangeError(
                f"the distribution of {_short(first.text)!r} ({len(first):,} live combos) "
                f"against {_short(second.text)!r} ({len(second):,}) would take about "
                f"{seconds:,.0f} s (one equity query per combo, more than the "
                f"{DISTRIBUTION_SECONDS:.0f} s allowed)"
                + (f" or {swept:,.0f} s (the combo sweep of each runout, more than the "
                   f"{SWEEP_SECONDS_MAX:.0f} s allowed)" if swept else "")
                + "; narrow the first range, or give a later street", first.text)
    return g, first, second, board_ids, dead_ids


def _fast_path(g: Game) -> bool:
    """Hold'em: every pair of combos in one pass of the rank-multiset kernels."""
    return family(g).preflop_kernels(g)


def _asked_seconds(g: Game, first: Range, second: Range, board: np.ndarray,
                   out: np.ndarray) -> float:
    """About how long one equity() a combo of ``first`` takes: exact where the planner
    enumerates, else ``DEFAULT_TRIALS`` sampled deals; either costs about in proportion to
    the other range's live combos (measured on two cores: Omaha against 15% on a river
    0.34 s a combo, against KK** on a turn 15 ms; 6-card Omaha against 15%, sampled,
    0.9 s)."""
    from ..engine.plan import EXACT_SECONDS, class_seconds
    need = max(g.streets) - len(board)
    left = len(g.deck) - len(out) - 2 * g.hole
    exact = len(second) * class_seconds(g, need, left) <= EXACT_SECONDS
    per_combo = (EXACT_COMBO_SECONDS + len(second) * EXACT_PAIR_SECONDS if exact
                 else SAMPLED_QUERY_SECONDS + len(second) * SAMPLED_PAIR_SECONDS)
    return len(first) * per_combo


def _sweeps(g: Game, board: np.ndarray, first: Range, second: Range,
            out: np.ndarray) -> tuple[int, ...]:
    """The board sizes the combo vectors take for this distribution (none: it is asked
    combo by combo): those they sweep in seconds (``vector_streets.boards``), and in the
    Omaha games an earlier street whose runouts' sweeps of the two ranges' combos are
    estimated within ``vector_streets.SWEEP_SECONDS_MAX`` (ten minutes, as
    ``combo_equity`` is given; with progress) and below asking each combo
    (``Family.exact_seconds``, measured on 10% against 40%, scaled by the combos the
    ranges hold, which are all a sweep walks: 5-card Omaha on a flop, about 40 s; 6-card
    Omaha on a turn, 25 s, its sums added as each chunk of runouts is done, a few of 163
    MB at a time)."""
    from ..vector_streets import SWEEP_SECONDS_MAX, boards
    sizes = boards(g)
    if len(board) in sizes:
        return sizes
    seconds = _sweep_seconds(g, board, first, second)
    if not seconds or seconds > min(SWEEP_SECONDS_MAX,
                                    _asked_seconds(g, first, second, board, out)):
        return ()
    return tuple(g.streets)


def _sweep_seconds(g: Game, board: np.ndarray, first: Range, second: Range) -> float:
    """About how long the Omaha games sweep this distribution's runouts (0.0 where they
    do not: the other games)."""
    from ..vectors import kind
    if kind(g) != "omaha" or len(board) not in g.streets:
        return 0.0
    share = (len(first) + len(second)) / math.comb(len(g.deck), g.hole)
    return family(g).exact_seconds(g, len(board)) * share / 0.5 + 0.01


def check_distribution(hands: RangeLike, against: RangeLike, board: CardsLike = "", *,
                       game: str | Game = "holdem", dead: CardsLike = "") -> None:
    """Raise what ``equity_distribution`` would refuse with these arguments, at once."""
    _distribution_plan(hands, against, board, game, dead)


def _old_equity_distribution(hands, against, board="", *, game="holdem", dead="",
                             threads=None, progress=False):
    """The 0.1.0 form of ``equity_distribution``, kept for one release."""


@old_form(_old_equity_distribution, "equity_distribution(hands, against, board, game=...)",
          "equity_distribution(game, hands, against, board, ...)")
def equity_distribution(game: str | Game, hands: RangeLike, against: RangeLike,
                        board: CardsLike = "", dead: CardsLike = "", *,
                        threads: int | None = None, progress: bool = False
                        ) -> EquityDistribution:
    """Exact equity of every live combo of ``hands`` against the range ``against``.

    Parameters
    ----------
    game : str or Game
    hands : str or Range
        The range whose combos are spread.
    against : str or Range
        The range they face.
    board, dead : cards
        A street of the game, and cards out of the deck.
    threads : int, optional
    progress : bool

    Returns
    -------
    EquityDistribution

    Examples
    --------
    >>> d = equity_distribution("holdem", "QQ+,AKs", "22+,A2s+", "2c7d9h")
    >>> len(d.combos), round(d.mean, 4), d.rows[0]["hand"]
    (22, 0.6821, 'AsKs')

    Notes
    -----
    Spots the combo vectors take are every combo's equity at once (``combo_equity``'s
    sort and sweep: milliseconds in hold'em, seconds on an Omaha flop; hi-lo: the pot
    share); hold'em pre-flop goes through the rank-multiset kernels in one pass over
    every pair of combos (grouped by suit symmetry), exactly.  Other spots ask ``equity``
    once per combo
    (exact where its planner enumerates, else sampled with the combo's index as the seed);
    their deal weights are counted exactly.  The weighted mean of the equities is then
    ``equity(game, [hands, against], board, dead)`` for the first player (exactly, when every
    combo was enumerated).  A board that is not a street of the game, a range with no live
    combo and a spot estimated past ``DISTRIBUTION_SECONDS`` are refused before any work.
    """
    from ..engine import equity
    flags(progress=progress)
    g, first, second, board_ids, dead_ids = _distribution_plan(hands, against, board, game,
                                                               dead)
    combos = np.ascontiguousarray(first.combos)
    num: np.ndarray
    den: np.ndarray
    streets = _sweeps(g, board_ids, first, second, np.concatenate([board_ids, dead_ids]))
    if streets:
        # every combo against the range at once (vectors.combo_sums): the sums are in
        # units of the range's largest weight, and count each opposing combo once a runout
        from ..combo_order import combo_index
        from ..combo_order import combos as all_combos
        from ..vectors import combo_sums
        index = combo_index(g, combos)
        wanted = np.zeros(len(all_combos(g)))
        wanted[index] = 1.0                          # only these combos' sums are read
        with reporting(progress):                # a sweep of minutes: its runouts shown
            every_num, every_den, top = combo_sums(g, second, board_ids, dead_ids,
                                                   threads=threads, wanted=wanted,
                                                   streets=streets, report=progress)
        num, den = every_num[index] * top, every_den[index] * top
        deal_weight = den
    elif _fast_path(g):
        a, b, won, deals = heads_up(g, combos, np.ascontiguousarray(second.combos), board_ids,
                                     dead_ids, threads, progress,
                                     f"{_short(first.text, 30)} vs {_short(second.text, 30)}, "
                                     "combo by combo")
        w = second.weights[b]
        num = np.bincount(a, weights=w * won, minlength=len(combos)).astype(np.float64)
        den = np.bincount(a, weights=w * deals, minlength=len(combos)).astype(np.float64)
        deal_weight = den / 2                         # _heads_up counts twice the deals
    else:
        # each combo's deals: the other range's combos clear of it, the board and the dead
        # cards (weighted), times the boards; counted, so the weights are exact even where
        # a combo's equity is sampled
        mine, theirs = card_masks(combos), card_masks(second.combos)
        left = len(g.deck) - len(board_ids) - len(dead_ids) - 2 * g.hole
        boards = math.comb(left, max(g.streets) - len(board_ids))
        den = np.empty(len(combos), np.float64)
        for start in range(0, len(combos), 256):
            block = mine[start:start + 256, None]
            den[start:start + 256] = ((block & theirs[None, :]) == 0) @ second.weights
        deal_weight = den * boards
        alive = np.flatnonzero(den > 0)
        bar = progress_bar(len(alive), f"{_short(first.text, 30)} vs "
                                       f"{_short(second.text, 30)}, combo by combo", progress)

        def one(k: int) -> float:
            r = equity(g, [combos[k], second], board_ids, dead_ids, threads=1, seed=k)
            if bar is not None:
                bar.advance(bar.task, 1)
            return r.players[0].equity
        num = np.zeros(len(combos), np.float64)
        worker_threads = resolve_threads(threads, 1 << 30)
        try:
            num[alive] = list(map_items(one, alive.tolist(), worker_threads))
        finally:
            if bar is not None:
                bar.stop()
        num *= den                                    # equity x deals, as in the other path
    keep = den > 0                                    # a combo every other one blocks
    if not keep.any():
        raise NoDeal(f"no deal fits {_short(first.text)!r} against {_short(second.text)!r} "
                      "on this board: every pair of combos shares a card", first.text)
    with np.errstate(invalid="ignore", divide="ignore"):
        eq = num[keep] / den[keep]
    weights = first.weights[keep] * deal_weight[keep]
    order = np.argsort(eq, kind="stable")
    return EquityDistribution(g.name, format_cards(board_ids), combos[keep][order], eq[order],
                              weights[order], first.weights[keep][order])

