"""The public equity functions: ``equity``, ``equity_by_street``, ``discard_equity``.

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

import math
from dataclasses import replace

import numpy as np

from .._parallel import resolve_threads
from ..cards import format_cards, parse_cards
from ..errors import ArgumentTypeError, EvaluatorError, HandError, flags
from ..families import family
from ..games import Game
from ..games import game as _game
from ..progress import reporting
from .exact import (
    complete_deals,
    exact_counts,
    exact_with_unknown,
    fused_chunk,
    tally_chunk,
    unknown_assignments,
)
from .plan import EXACT_SECONDS, EXACT_SECONDS_MAX, deal_seconds, enumerated
from .ranged import range_equity
from .results import Counts, EquityResult, make_result
from .sample import DEFAULT_TRIALS, sample_until, sampled_best5
from .spots import (
    check_deck,
    check_distinct,
    check_options,
    check_street,
    check_trials_time,
    checked_spot,
    completion_text,
    engine_dead,
    kept_spot,
    parse_hands,
    resolve_seed,
    resolve_version,
)


def equity(game: str | Game, hands, board="", dead="", *, exact: bool | None = None,
           trials: int | None = None, target_stderr: float | None = None,
           seed: int | str | None = None, threads: int | None = None,
           prefer_numpy: bool = False, progress: bool = False,
           version: int | None = None) -> EquityResult:
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
        Stop sampling at the first check where every player's standard error is at most
        this: after 4,096 deals, then each time the deals grow by a quarter.
    seed : int or str, optional
        Monte Carlo seed; the same seed gives the same answer for any thread count.  Also
        its text as a results file writes it, ``"0x"`` and hex digits (``"0x2a"`` is 42).
    version : int, optional
        The Monte Carlo stream a seed deals: 2, the default, or 1 for the seeded answers
        of release 0.1.0 (kept for one release).  They differ only for two ranges (or
        hands) of equal weights whose combo counts times the board's ordered draws are at
        most 2**46 (``QQ+,AKs`` against ``random`` pre-flop, not two random hands), and
        for ranges of 20,000 combos or more in all in Omaha, Tahoe, The and Teen Patti
        beside a board, dead or known card (drawn whole, a combo holding one dealt
        again); the result's ``version`` says which one sampled it.
    threads : int, optional
    prefer_numpy : bool
        Answer known hands with the NumPy rank-multiset method while Numba is not yet
        loaded: a one-shot query (the command line) answers before Numba could load.
    progress : bool
        Show the progress of work that lasts more than two seconds on stderr (a bar on a
        terminal, a line every few seconds elsewhere).

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
    flags(progress=progress, prefer_numpy=prefer_numpy)
    version = resolve_version(version)
    with reporting(bool(progress)):
        result = _answer(game, hands, board, dead, exact, trials, target_stderr, seed,
                         threads, prefer_numpy, version)
    return result if result.seed is None else replace(result, version=version)


def _answer(game, hands, board, dead, exact, trials, target_stderr, seed, threads,
            prefer_numpy, version) -> EquityResult:
    """``equity``'s work, its arguments unchecked but ``version``."""
    g = _game(game)
    spot = kept_spot(g, hands, board, dead)        # cards only: a batch checked it before
    if spot is not None:
        parsed, unknown, board_ids, dead_ids, live = spot
        ranges: list = [None] * len(parsed)
    else:
        parsed, unknown, ranges, board_ids, dead_ids, live = checked_spot(g, hands, board,
                                                                          dead)
    dead_ids = engine_dead(g, dead_ids)
    sampling = check_options(exact, trials, target_stderr, seed)
    check_trials_time(g, trials, threads)
    if any(r is not None for r in ranges):
        return range_equity(g, parsed, unknown, ranges, board_ids, dead_ids, exact, trials,
                             target_stderr, seed, threads, version)
    need = max(g.streets) - len(board_ids)
    hidden = sum(unknown)
    # deals: ways to give every unknown hole card, times the ways to finish the board
    deals, left = 1, len(live)
    for u in unknown:
        deals *= math.comb(left, u)
        left -= u
    deals *= math.comb(left, need)
    seconds = deal_seconds(deals)
    if hidden and exact is not False and not sampling and seconds > EXACT_SECONDS:
        # too many deals to walk one by one: as ranges of their completions, the unknown
        # hands are enumerated by suit classes, or sampled when even that is too long
        return range_equity(g, parsed, unknown, [None] * len(parsed), board_ids, dead_ids,
                             exact, trials, target_stderr, seed, threads, version)
    if exact is None:
        exact = enumerated(deals) and not sampling
    elif exact and seconds > EXACT_SECONDS_MAX:
        raise EvaluatorError(f"exact=True would enumerate {deals:,} deals (about "
                             f"{seconds:,.0f} s), too many to finish in reasonable time; use "
                             "trials= or target_stderr= to sample", deals)
    threads = resolve_threads(threads, max(deals if exact else (trials or DEFAULT_TRIALS), 1)
                              * 4)
    used_seed = None
    if exact and not hidden:
        counts = exact_counts(g, parsed, board_ids, live, need, threads, prefer_numpy)
        method = f"exact enumeration of {deals:,} board{'s' * (deals != 1)}"
    elif exact:
        listed = exact_with_unknown(g, parsed, unknown, board_ids, live, need, threads)
        if listed is not None:
            counts = listed
        else:
            counts = Counts(len(parsed))
            for hands_now, live_now in unknown_assignments(parsed, unknown, live):
                counts.add(exact_counts(g, hands_now, board_ids, live_now, need, threads))
        method = f"exact enumeration of {deals:,} deal{'s' * (deals != 1)}"
    elif hidden and family(g).ranged(g):
        # unknown hole cards are the ranges of their completions (at most 22,100 combos
        # for three cards): the range sampler deals them
        return range_equity(g, parsed, unknown, [None] * len(parsed), board_ids, dead_ids,
                             False, trials, target_stderr, seed, threads, version)
    else:
        used_seed = resolve_seed(seed)

        def run(index: int, size: int) -> Counts:
            from ..kernels import dealing
            state = np.random.SeedSequence([used_seed, index]).generate_state(2, np.uint64)
            fam = family(g)
            if fam.best5_sampler(g):
                return sampled_best5(g, parsed, board_ids, live, need, size, state)
            if hidden == 0 and fam.fused(g):
                return fused_chunk(g, parsed, board_ids, live, need, size, state)
            cards = np.empty((size, hidden + need), np.uint8)
            dealing.sample_boards(live, np.empty(0, np.uint8), hidden + need, cards, state)
            return tally_chunk(g, *complete_deals(g, parsed, unknown, board_ids, cards))

        counts = sample_until(run, len(parsed), trials, target_stderr, threads, version)
        method = f"Monte Carlo, {counts.boards:,} {'deals' if hidden else 'boards'}"
    names = [completion_text(h, u) if u else format_cards(h) for h, u in zip(parsed, unknown)]
    return make_result(g, names, board_ids, dead_ids, counts, bool(exact), method, used_seed)


def equity_by_street(game: str | Game, hands, board="", dead="", **options) -> list[EquityResult]:
    """Equity before the board and after each street dealt so far.

    For hold'em games: pre-flop, flop, turn and river as far as ``board``
    goes; for ``the``: after each of its board cards.

    Parameters
    ----------
    game : str or Game
    hands : list
        One hand or range per player, as ``equity`` takes them.
    board, dead : cards
        The board so far (a street of the game) and cards out of the deck.
    **options
        ``equity``'s keyword options (``exact``, ``trials``, ``seed``, ...), for every
        street.

    Returns
    -------
    list of EquityResult
        One per street, the empty board first.

    Examples
    --------
    >>> from evaluator import equity_by_street
    >>> streets = equity_by_street("holdem", ["AsKs", "QhQd"], "2c7d9hTs")
    >>> [(r.board, round(r.players[0].equity, 4)) for r in streets]
    [('', 0.4621), ('2c 7d 9h', 0.2394), ('2c 7d 9h Ts', 0.1364)]
    """
    g = _game(game)
    board_ids = parse_cards(board, what="the board")
    check_street(g, board_ids)
    streets = [s for s in g.streets if s <= len(board_ids)]
    return [equity(g, hands, board_ids[:s], dead, **options) for s in streets]


def discard_equity(game: str | Game, hero, opponents, board="", dead="",
                   **options) -> list[tuple[str, str, EquityResult]]:
    """Pineapple / Crazy Pineapple: the equity of each possible keep, best first.

    Parameters
    ----------
    game : str or Game
        ``"pineapple"`` (discards before the flop) or ``"crazy_pineapple"`` (on the flop).
    hero : cards
        The hero's three cards, before the discard.
    opponents : list
        One hand or range per opponent, after their own discards (two cards each).
    board : cards
        None for Pineapple; the flop for Crazy Pineapple.
    dead : cards
        Cards out of the deck.
    **options
        ``equity``'s keyword options, for every keep.

    Returns
    -------
    list of (str, str, EquityResult)
        ``(kept, discarded, result)`` triples, best keep first; the discard is dead.

    Examples
    --------
    >>> from evaluator import discard_equity
    >>> best = discard_equity("pineapple", "AsKsQh", ["JhTh"])[0]
    >>> best[0], best[1], round(best[2].players[0].equity, 4)
    ('As Ks', 'Qh', 0.626)
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
        street = {3: "the flop", 4: "the turn"}.get(g.discard_at,
                                                    f"{g.discard_at} board cards")
        when = ("before the flop: give no board" if not g.discard_at else
                f"on {street}: give its {g.discard_at} cards as the board")
        raise HandError(f"{g.name} discards {when} (got {len(board_ids)} board cards)",
                        len(board_ids))
    dead_ids = parse_cards(dead, what="the dead cards")
    others = _checked_opponents(g, cards, opponents, board_ids, dead_ids)
    results = []
    for drop in range(len(cards)):
        keep = np.delete(cards, drop)
        thrown = cards[drop:drop + 1]
        result = equity(g, [keep, *others], board_ids, np.concatenate([dead_ids, thrown]),
                        **options)
        results.append((format_cards(keep), format_cards(thrown), result))
    results.sort(key=lambda r: -r[2].players[0].equity)
    return results


def _checked_opponents(g: Game, cards: np.ndarray, opponents, board: np.ndarray,
                       dead: np.ndarray) -> list:
    """The opponents, checked once against the hero's cards before the discard (which is
    dead for every keep); ranges come back as ``Range`` objects, so that no keep reads
    their text again."""
    parsed, _, ranges = parse_hands(g, [cards[:g.hole], *opponents])
    groups = [(f"hand {i}", h) for i, h in enumerate(parsed[1:], start=2)]
    check_distinct([("the hero's hand", cards), *groups, ("the board", board),
                    ("the dead cards", dead)])
    check_deck(g, len(parsed), len(dead) + 1)
    return [hand if rng is None else rng for hand, rng in zip(opponents, ranges[1:])]
