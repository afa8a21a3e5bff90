"""The runout study: a spot's equity after each card the next street can bring.

``runout_study(["QQ+,AKs", "22+"], "2c7d9h")`` gives one row for every turn card of the
flop ``2c7d9h`` (on a turn, every river card): the card, the weight of the deals it
leaves (``weight``: pairs of live combos, weighed by the ranges' weights, times the
cards still to come; a whole number with unweighted ranges) and each player's exact
equity once it has fallen.  The weight-weighted mean of a player's equity over the rows
is the equity on the board itself.  ``by_rank()`` and ``by_suit()`` group the rows;
``plots.runouts`` draws the 13 x 4 grid of cards.

Heads-up hold'em and short deck on a flop or turn run on the sort and sweep of
``vectors`` (every runout once: milliseconds), as does heads-up Omaha on a turn (each
river's 270,725 hands at once: about a second); any other spot asks ``equity()`` once
per card, exactly, and one too big to enumerate is refused at its first card.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._calling import old_form
from ..cards import CardsLike, format_cards, parse_cards
from ..engine.spots import check_distinct, parse_hands
from ..errors import EvaluatorError, HandError, NoDeal, flags
from ..errors import short_text as _short
from ..export import RowsExport
from ..games import Game
from ..games import game as _game
from ..progress import progress_bar
from ..ranges import Range

__all__ = ["RunoutStudy", "runout_study", "RANKS", "SUITS"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"


@dataclass
class RunoutStudy(RowsExport):
    """What ``runout_study`` returns: one row per card that can fall.

    Attributes
    ----------
    game : str
        The game's name.
    board : str
        The board the cards fall on.
    hands : list of str
        The hands or ranges, as given.
    rows : list of dict
        One row per card: ``card``, its ``rank`` and ``suit``, the ``weight`` of the
        deals it leaves and each player's exact equity once it has fallen
        (``p1_equity``, ``p2_equity``, ...).

    Examples
    --------
    >>> from evaluator import runout_study
    >>> study = runout_study(game="holdem", hands=["QQ+,AKs", "22+"], board="2c7d9h")
    >>> study.rows[0]["card"], round(study.rows[0]["p1_equity"], 4)
    ('2d', 0.6474)
    >>> aces = study.by_rank()[0]
    >>> aces["rank"], aces["cards"], round(aces["p1_equity"], 4)
    ('A', 4, 0.7814)
    >>> [round(e, 4) for e in study.equity()]                 # on the flop itself
    [0.6154, 0.3846]

    ``study.to_frame()`` and ``study.write(path)`` export the rows.
    """
    game: str
    board: str
    hands: list[str]
    rows: list[dict[str, Any]]
    players: int = field(init=False)

    def __post_init__(self) -> None:
        self.players = len(self.hands)

    def _column(self, name: str) -> np.ndarray:
        return np.array([row[name] for row in self.rows], np.float64)

    def equity(self) -> list[float]:
        """Each player's equity on the board itself: the weighted mean over the cards."""
        w = self._column("weight")
        return [float(self._column(f"p{p}_equity") @ w / w.sum())
                for p in range(1, self.players + 1)]

    def _grouped(self, key: str, order: str) -> list[dict[str, Any]]:
        w = self._column("weight")
        equities = [self._column(f"p{p}_equity") for p in range(1, self.players + 1)]
        keys = [row[key] for row in self.rows]
        out = []
        for value in sorted(set(keys), key=order.index, reverse=key == "rank"):
            mask = np.array([k == value for k in keys])
            row: dict[str, Any] = {key: value, "cards": int(mask.sum()),
                                   "weight": float(w[mask].sum()),
                                   "share": float(w[mask].sum() / w.sum())}
            for p, e in enumerate(equities, start=1):
                row[f"p{p}_equity"] = float(e[mask] @ w[mask] / w[mask].sum())
            out.append(row)
        return out

    def by_rank(self) -> list[dict[str, Any]]:
        """The rows grouped by the card's rank, aces first: the cards, their weight, its
        share of the whole, and each player's weighted mean equity."""
        return self._grouped("rank", RANKS)

    def by_suit(self) -> list[dict[str, Any]]:
        """The rows grouped by the card's suit (c, d, h, s), as ``by_rank``."""
        return self._grouped("suit", SUITS)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{k}</th>" for k in ("rank", *SUITS))
        cells = {row["card"]: row["p1_equity"] for row in self.rows}
        body = "".join(
            f"<tr><th>{r}</th>" + "".join(
                f"<td>{cells[r + s]:.1%}</td>" if r + s in cells else "<td></td>"
                for s in SUITS) + "</tr>" for r in reversed(RANKS))
        eq = ", ".join(f"{e:.2%}" for e in self.equity())
        return (f"<p>{' vs '.join(self.hands)} on {self.board}: {eq}; the first player's "
                f"equity after each card</p><table><tr>{head}</tr>{body}</table>")


def _hand_text(hand: object) -> str:
    if isinstance(hand, Range):
        return hand.text
    if isinstance(hand, str):
        return hand
    return format_cards(parse_cards(hand, what="a hand"), sep="")   # type: ignore[arg-type]


def _row(card: int, weight: float, equities: Sequence[float]) -> dict[str, Any]:
    name = format_cards([card], sep="")
    row: dict[str, Any] = {"card": name, "rank": name[0], "suit": name[1], "weight": weight}
    for p, e in enumerate(equities, start=1):
        row[f"p{p}_equity"] = float(e)
    return row


def _old_runout_study(hands, board, *, game="holdem", dead="", threads=None, progress=False):
    """The 0.1.0 form of ``runout_study``, kept for one release."""


@old_form(_old_runout_study, "runout_study(hands, board, game=...)",
          "runout_study(game, hands, board, ...)")
def runout_study(game: str | Game, hands: Sequence[object], board: CardsLike,
                 dead: CardsLike = "", *, threads: int | None = None,
                 progress: bool = False) -> RunoutStudy:
    """Every card the next street can bring, with each player's exact equity after it
    (see the module doc).

    Parameters
    ----------
    game : str or Game
    hands : list
        Two or more hands or ranges, one per player.
    board : cards
        One card short of a street of the game (a flop or a turn in hold'em).
    dead : cards
        Cards out of the deck.
    threads : int, optional
    progress : bool
        A progress bar on stderr where the study asks ``equity()`` card by card.

    Returns
    -------
    RunoutStudy

    Raises
    ------
    EvaluatorError
        A spot too big to enumerate on each card, or a refusal on any card (a card no
        deal fits is left out; no other refusal is).

    Examples
    --------
    >>> study = runout_study("holdem", ["QQ+,AKs", "22+"], "2c7d9h")
    >>> len(study.rows), study.rows[0]["card"]
    (49, '2d')
    >>> [round(e, 4) for e in study.equity()]
    [0.6154, 0.3846]
    """
    from ..vector_streets import sweeps, two_cards
    flags(progress=progress)
    g = _game(game)
    if isinstance(hands, (str, Range)) or not isinstance(hands, Sequence):
        raise HandError("hands must be a list with one entry per player, like "
                        "['QQ+,AKs', '22+']", str(hands)[:40])
    texts = [_hand_text(h) for h in hands]
    if len(texts) < 2:
        raise HandError(f"a runout study takes two or more hands or ranges, got {len(texts)}",
                        len(texts))
    board_ids = parse_cards(board, what="the board")
    dead_ids = parse_cards(dead, what="the dead cards")
    g.check_in_deck(board_ids.tolist(), "the board")
    g.check_in_deck(dead_ids.tolist(), "the dead cards")
    boards = [s for s in g.streets if s + 1 in g.streets]   # a street one card short
    if not boards:
        raise EvaluatorError(f"{g.name} deals no board card by card: it has no runouts to "
                             "study", g.name)
    if len(board_ids) not in boards:
        raise EvaluatorError(
            f"a {g.name} runout study takes a board one card short of the next street: "
            f"{' or '.join(map(str, boards))} cards, got {len(board_ids)}",
            len(board_ids))
    check_distinct([("the board", board_ids), ("the dead cards", dead_ids)])
    parsed, _, _ = parse_hands(g, texts)        # every hand checked before any work
    check_distinct([(f"hand {k}", h) for k, h in enumerate(parsed, start=1)]
                   + [("the board", board_ids), ("the dead cards", dead_ids)])
    rows = None
    if len(texts) == 2 and sweeps(g, len(board_ids)):
        swept = _swept if two_cards(g) else _runout_by_runout
        rows = swept(g, texts, board_ids, dead_ids, threads)
    if rows is None and len(texts) == 2 and sweeps(g, len(board_ids) + 1):
        rows = _card_by_card(g, texts, board_ids, dead_ids, threads, progress)
    if rows is None:
        held = np.concatenate([*parsed, dead_ids]).astype(np.uint8)
        rows = _asked(g, texts, board_ids, held, dead_ids, threads, progress)
    if not rows:
        raise NoDeal("no deal fits the hands on any card: they, the board and the dead "
                      "cards collide", " vs ".join(texts))
    return RunoutStudy(g.name, format_cards(board_ids, sep=""), texts, rows)


def _swept(g: Game, texts: list[str], board: np.ndarray, dead: np.ndarray,
           threads: int | None) -> list[dict[str, Any]]:
    """Heads-up on the vectors: every runout's hero-weighted wins and deals, added to
    each card it holds (on a flop a runout's turn and river are each a turn)."""
    from ..vectors import runout_totals
    hero = Range(texts[0], g)
    runouts, totals, unit = runout_totals(g, hero, texts[1], board, dead, threads=threads)
    return _by_card(runouts, totals[:, 0], totals[:, 1], unit)


def _by_card(runouts: np.ndarray, won: np.ndarray, deals: np.ndarray,
             unit: float = 1.0) -> list[dict[str, Any]]:
    """A row per card: the first player's wins and the deals of every runout holding it
    (``unit`` times, in the ranges' own weights), the cards no deal fits left out."""
    by_won, by_deals = np.zeros(52), np.zeros(52)
    for j in range(runouts.shape[1]):
        np.add.at(by_won, runouts[:, j], won)
        np.add.at(by_deals, runouts[:, j], deals)
    out = []
    for card in np.flatnonzero(by_deals > 0).tolist():
        p1 = min(max(by_won[card] / by_deals[card], 0.0), 1.0)
        out.append(_row(card, float(by_deals[card] * unit), (p1, 1.0 - p1)))
    return out


def _runout_by_runout(g: Game, texts: list[str], board: np.ndarray, dead: np.ndarray,
                      threads: int | None) -> list[dict[str, Any]] | None:
    """Heads-up where the board's every runout is swept (Omaha, Tahoe, "The" ...): each
    runout's first-range-weighted wins and deals, added to each card it holds; None where
    the weights would not sum exactly (then card by card)."""
    import itertools

    from ..runout_vectors import hero_totals
    hero, against = Range(texts[0], g).vector(), Range(texts[1], g).vector()
    known = set(board.tolist()) | set(dead.tolist())
    left = [c for c in g.deck if c not in known]
    need = max(g.streets) - len(board)
    listed = list(itertools.combinations(left, need))
    runouts = np.array(listed, np.uint8).reshape(len(listed), need)
    totals = hero_totals(g, hero, against, board.astype(np.uint8),
                         sum(1 << c for c in known), runouts, threads)
    if totals is None:
        return None
    return _by_card(runouts, totals[:, 0], totals[:, 2])


def _card_by_card(g: Game, texts: list[str], board: np.ndarray, dead: np.ndarray,
                  threads: int | None, progress: bool) -> list[dict[str, Any]]:
    """Heads-up where the vectors start one street later (Omaha on a turn): every combo
    against the second range once each card has fallen, weighed by the first range."""
    from ..vector_weights import weighted_sum
    from ..vectors import combo_sums
    hero = Range(texts[0], g).vector()
    held = hero > 0                                 # only these combos' sums are read
    against = Range(texts[1], g)

    def row(card: int) -> dict[str, Any] | None:
        try:
            num, den, unit = combo_sums(g, against, np.append(board, card).astype(np.uint8),
                                        dead, threads=threads, wanted=hero)
        except NoDeal:
            return None       # the range is dead on this card; any other refusal stops
        deals = weighted_sum(hero, den)
        if deals <= 0:
            return None
        p1 = min(max(weighted_sum(hero[held], num[held]) / deals, 0.0), 1.0)
        return _row(card, deals * unit, (p1, 1.0 - p1))
    return _each_card(g, texts, np.concatenate([board, dead]), row, progress)


def _asked(g: Game, texts: list[str], board: np.ndarray, held: np.ndarray,
           dead: np.ndarray, threads: int | None, progress: bool) -> list[dict[str, Any]]:
    """One exact ``equity()`` per card but those the board, the known hands and the dead
    cards hold; the cards no deal fits left out."""
    from ..engine import equity

    def row(card: int) -> dict[str, Any] | None:
        try:
            r = equity(g, texts, np.append(board, card).astype(np.uint8), dead,
                       exact=True, threads=threads)
        except NoDeal:
            return None       # no deal fits this card; any other refusal stops the study
        except EvaluatorError as error:
            if "exact=True would enumerate" not in str(error):
                raise
            raise EvaluatorError(
                f"a runout study is exact, and {' vs '.join(texts)!r} is too big to "
                f"enumerate on each card; narrow the ranges (the first card: {error})",
                " vs ".join(texts)) from None
        if r.samples <= 0:
            return None
        return _row(card, float(r.samples), [p.equity for p in r.players])
    return _each_card(g, texts, np.concatenate([board, held]), row, progress)


def _each_card(g: Game, texts: list[str], known: np.ndarray,
               row: Callable[[int], dict[str, Any] | None],
               progress: bool) -> list[dict[str, Any]]:
    """``row(card)`` for every card of the deck not in ``known``, with a progress bar; the
    cards that give no row (no deal fits) left out."""
    held = set(known.tolist())
    cards = [c for c in g.deck if c not in held]
    bar = progress_bar(len(cards), f"{_short(' vs '.join(texts), 50)}, card by card",
                       progress)
    out = []
    try:
        for card in cards:
            got = row(card)
            if got is not None:
                out.append(got)
            if bar is not None:
                bar.advance(bar.task, 1)
    finally:
        if bar is not None:
            bar.stop()
    return out

