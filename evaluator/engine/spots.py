"""From what the user typed to a checked spot: hands, board, dead cards and options.

Everything here is validation: each problem is an error naming the token (a card, a hand,
a board size, an option) before any work starts.  ``check_query`` runs it all without
computing, for batches that check every row first.
"""
from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..cards import format_cards, parse_cards
from ..errors import (
    ArgumentTypeError,
    CardError,
    EvaluatorError,
    HandError,
    NoDeal,
    RangeError,
    integer,
    number_text,
    optional_integer,
    read_seed,
    short_text,
)
from ..families import family
from ..games import Game
from ..games import game as _game
from ..ranges import Range

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


HANDS_SPLIT = re.compile(r"\s+vs\.?\s+|\s*[|;]\s*", re.IGNORECASE)
"""What separates the players' hands in one text: ``"AsKs vs QhQd"`` (also ``vs.``,
``|`` and ``;``), as a batch file writes them."""


def split_hands(text: str) -> list[str]:
    """The players' hands of ``"AsKs vs QQ+,AKs"``: ``["AsKs", "QQ+,AKs"]``."""
    return [h for h in HANDS_SPLIT.split(text.strip()) if h]


def parse_hands(g: Game, hands) -> tuple[list[np.ndarray], list[int], list[Range | None]]:
    """Per hand: the known cards, the number of unknown cards (``?``, ``*``,
    ``random``) and the range, for hands given as ranges (else None).  ``hands`` is a
    list with one entry per player, or one text that separates them with ``vs``."""
    if isinstance(hands, str):
        text = hands
        hands = split_hands(text)
        if len(hands) < 2:
            raise HandError(f"hands is a list with one entry per player (['AsKs', 'QhQd']) "
                            f"or one text that separates them with ' vs ' ('AsKs vs QhQd'), "
                            f"got {short_text(text)!r}", text)
    if not isinstance(hands, (list, tuple, np.ndarray)):
        raise ArgumentTypeError(f"hands must be a list with one entry per player, e.g. "
                                f"['AsKs', 'QhQd'], got {type(hands).__name__}", hands)
    parsed: list[np.ndarray] = []
    unknown: list[int] = []
    ranges: list[Range | None] = []
    for i, hand in enumerate(hands, start=1):
        missing = 0
        cards: np.ndarray | None
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
                                      or ("*" in hand and _only_stars(hand, g.hole))):
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
                    rng = text_range(text, g)
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
        assert cards is not None
        if len(cards) + missing != g.hole:
            extra = " (after the discard)" if g.dealt > g.hole else ""
            shown = format_cards(cards) + " ?" * missing
            raise HandError(f"hand {i} needs {g.hole} cards for {quoted(g)}{extra}, "
                            f"got {len(cards) + missing}: {shown.strip() or 'none'}", hand)
        parsed.append(cards)
        unknown.append(missing)
        ranges.append(None)
    if len(parsed) < 2:
        raise HandError(f"equity needs at least two hands, got {len(parsed)}", len(parsed))
    return parsed, unknown, ranges


@lru_cache(maxsize=16)
def text_range(text: str, g: Game) -> Range:
    """``Range(text, g)``, kept for the next query: a batch or a study asks the same
    ranges on every row, and a wide one (15% of 6-card Omaha, 3 million hands) takes a
    second to build.  Ranges are read-only, so every query may share one."""
    return Range(text, g)


def quoted(g: Game) -> str:
    """The game's name as messages show it: in quotes, so that "the" reads as a name."""
    return f'"{g.name}"'


def cards_text(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def check_street(g: Game, board: np.ndarray) -> None:
    """Refuse a board that is not one of the game's streets: the equity functions and
    the studies all ask it of a board before dealing the rest."""
    if len(board) not in g.streets:
        streets = ", ".join(map(str, g.streets))
        raise HandError(f"a board of {cards_text(len(board))} is not a street of "
                        f"{quoted(g)} (board sizes: {streets})", len(board))


def check_deck(g: Game, players: int, dead: int) -> None:
    """Refuse more players than the deck can deal, with ``dead`` cards out besides theirs."""
    # every player is dealt ``g.dealt`` cards; the discards are out of the deck too, and the
    # dead cards may be some of them (``discard_equity`` counts the hero's discard as dead)
    discards = players * (g.dealt - g.hole)
    needed = players * g.hole + max(g.streets) + max(dead, discards)
    if needed > len(g.deck):
        raise HandError(f"{players} players need {needed} cards in {quoted(g)}; "
                        f"the deck has {len(g.deck)}", players)


def check_distinct(groups: list[tuple[str, np.ndarray]],
                   deck: Sequence[int] = range(52)) -> np.ndarray:
    """Refuse a card given twice, naming the two places; return the cards of ``deck``
    none holds."""
    seen: dict[int, str] = {}
    for where, cards in groups:
        for c in cards.tolist():
            if c in seen:
                name = format_cards([c])
                raise CardError(f"duplicate card {name!r} in {seen[c]} and {where}", name)
            seen[c] = where
    return np.array([c for c in deck if c not in seen], np.uint8)


def check_spot(g: Game, hands: list[np.ndarray], board: np.ndarray,
                dead: np.ndarray) -> np.ndarray:
    """Check the spot fits the game and the deck; return the live cards."""
    check_street(g, board)
    check_deck(g, len(hands), len(dead))
    groups = [(f"hand {i}", h) for i, h in enumerate(hands, start=1)]
    groups += [("the board", board), ("the dead cards", dead)]
    if g.lowest_rank:
        for where, cards in groups:
            g.check_in_deck(cards.tolist(), where)
    return check_distinct(groups, g.deck)


KEPT_SPOTS = 65_536
"""Spots of known cards a batch checked, kept for its computing them (the second parse a
lookup): at most this many, about 1 KB each, the oldest dropped first; the batch forgets
those it did not compute (``forget_kept``)."""
_KEPT: dict[tuple, tuple] = {}
_KEPT_LOCK = threading.Lock()


def _spot_key(g: Game, hands, board, dead) -> tuple | None:
    if not (isinstance(board, str) and isinstance(dead, str) and isinstance(hands, list | tuple)
            and all(isinstance(h, str) for h in hands)):
        return None
    return (g, tuple(hands), board, dead)


def checked_spot(g: Game, hands, board, dead) -> tuple:
    """``(cards, unknown, ranges, board, dead, live)`` of a spot: its hands, board and dead
    cards parsed and checked together (raising the error ``equity`` raises)."""
    parsed, unknown, ranges = parse_hands(g, hands)
    board_ids = parse_cards(board, what="the board")
    dead_ids = parse_cards(dead, what="the dead cards")
    live = check_spot(g, parsed, board_ids, dead_ids)
    return parsed, unknown, ranges, board_ids, dead_ids, live


def keep_spot(g: Game, hands, board, dead, then=lambda: None) -> bool:
    """Parse and check a spot (``checked_spot``), and where its hands are all cards (none a
    range) run ``then`` (the query's other checks) and keep the result for ``kept_spot``;
    True where kept."""
    spot = checked_spot(g, hands, board, dead)
    if any(r is not None for r in spot[2]):
        return False                       # ranges are kept by text_range, not here
    then()
    return _keep(g, hands, board, dead, spot)


def _keep(g: Game, hands, board, dead, spot: tuple) -> bool:
    key = _spot_key(g, hands, board, dead)
    if key is None:
        return False
    parsed, unknown, _, board_ids, dead_ids, live = spot
    with _KEPT_LOCK:
        if len(_KEPT) >= KEPT_SPOTS:
            del _KEPT[next(iter(_KEPT))]
        _KEPT[key] = (parsed, unknown, board_ids, dead_ids, live)
    return True


def forget_kept() -> None:
    """Drop every kept spot (a batch's end: those it checked and did not compute)."""
    with _KEPT_LOCK:
        _KEPT.clear()


def kept_spot(g: Game, hands, board, dead
              ) -> tuple[list[np.ndarray], list[int], np.ndarray, np.ndarray, np.ndarray] | None:
    """``(cards, unknown, board, dead, live)`` of a spot ``keep_spot`` checked, handed over
    once (the arrays are the caller's); None where none is kept (then parse it)."""
    key = _spot_key(g, hands, board, dead)
    if key is None or not _KEPT:
        return None
    with _KEPT_LOCK:
        return _KEPT.pop(key, None)


def engine_dead(g: Game, dead: np.ndarray) -> np.ndarray:
    """The dead cards the engine deals around: the user's, and the cards the game's deck
    leaves out (the short deck's deuces to fives), so every kernel that lists the cards
    left from 52 deals from the game's deck."""
    if not g.lowest_rank:
        return dead
    return np.concatenate([dead, np.array(g.removed, np.uint8)]).astype(np.uint8)


def check_options(exact, trials, target_stderr, seed) -> bool:
    """Validate the sampling options; True when sampling was asked for."""
    trials = optional_integer(trials, "trials", 1, expected="a positive integer",
                              bounds="a positive integer")
    if trials is not None and trials > MAX_TRIALS:
        raise EvaluatorError(f"trials {number_text(trials, True)} is more than {MAX_TRIALS:.0e}, "
                             "which would take "
                             "months at 100 M deals a second; ask for exact=True or fewer",
                             trials)
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
    read_seed(seed)                 # an integer, or the text a results file holds
    sampling = trials is not None or target_stderr is not None
    if exact and sampling:
        raise EvaluatorError("exact=True cannot be combined with trials or target_stderr",
                             "exact")
    return sampling


# a request estimated past TRIALS_SECONDS at the family's fastest measured rate (deals a
# second one thread samples: ``Family.sample_rate``) is refused at once, whatever the
# machine
TRIALS_SECONDS = 600.0


def check_trials_time(g: Game, trials: int | None, threads: int | None) -> None:
    """Refuse a number of trials that takes more than ten minutes even at the fastest rate
    measured for the game's kernels, on every core asked for (``threads``, or all)."""
    if trials is None:
        return
    import os
    cores = threads if isinstance(threads, int) and threads > 0 else (os.cpu_count() or 1)
    seconds = trials / (family(g).sample_rate * cores)
    if seconds > TRIALS_SECONDS:
        took = (f"{seconds / 60:,.0f} minutes" if seconds < 7200
                else f"{seconds / 3600:,.0f} hours")
        raise EvaluatorError(
            f"trials {number_text(trials, True)} would take at least {took} on {cores} "
            f"{'core' if cores == 1 else 'cores'} ({g.name} samples at most about "
            f"{family(g).sample_rate / 1e6:,.0f} M deals a second a core); ask for "
            f"at most {int(TRIALS_SECONDS * family(g).sample_rate * cores):,}, a "
            "target_stderr=, or exact=True", trials)


def check_query(game: str | Game, hands, board="", dead="", *, exact: bool | None = None,
                trials: int | None = None, target_stderr: float | None = None,
                seed: int | None = None, version: int | None = None) -> None:
    """Check an equity query without computing it: raise the error ``equity`` would
    raise for its game, hands, ranges, board, dead cards and options.

    Batches call it on every query before computing any.
    """
    g = _game(game)
    spot = checked_spot(g, hands, board, dead)
    _, _, ranges, board_ids, dead_ids, _ = spot
    check_options(exact, trials, target_stderr, seed)
    resolve_version(version)
    if all(r is None for r in ranges):
        _keep(g, hands, board, dead, spot)    # cards only: kept for the batch's computing
        return
    out = np.concatenate([board_ids, dead_ids])
    for i, rng in enumerate(ranges, start=1):
        if rng is not None and not rng.any_live(out):
            raise NoDeal(f"the range of hand {i} ({rng.text!r}) has no live combos once "
                          "the board and dead cards are out", rng.text)


# The Monte Carlo streams: what a seed deals.  2 (this release's): heads-up ranges of equal
# weights draw a deal's combos from the fraction the deal before left of its board's step
# (one generator step a deal where there were two), where the combos' and the board's
# outcomes fit in ``markers.CARRIED_BITS`` bits; wide ranges of the generic sampler are drawn
# whole beside a board, dead or known card (``sampler.RangeSampler.whole``).  1: the streams
# of release 0.1.0, kept under ``version=1`` for one release.  Every other deal is the same
# in both.
STREAM_VERSION = 2
STREAM_VERSIONS = (1, 2)


def resolve_version(version: int | None) -> int:
    """The Monte Carlo stream to use: ``version`` checked, or ``STREAM_VERSION``."""
    if version is None:
        return STREAM_VERSION
    return integer(version, "version", STREAM_VERSIONS[0], STREAM_VERSIONS[-1],
                   bounds=" or ".join(map(str, STREAM_VERSIONS)) + " (the Monte Carlo stream)")


def resolve_seed(seed: int | None) -> int:
    """The seed to use: the given one, or fresh entropy."""
    if seed is None:
        return int(np.random.SeedSequence().entropy)   # type: ignore[arg-type]  # an int when drawn
    return int(read_seed(seed))     # type: ignore[arg-type]  # not None here


def completion_text(cards, missing: int) -> str:
    """How a hand with unknown cards is named: ``"random"`` or ``"As??"``."""
    return (format_cards(cards, sep="") + "?" * missing) if len(cards) else "random"


MIN_STDERR = 1e-6              # a smaller target could need 2.5e11 deals or more
MAX_TRIALS = 10 ** 15          # a trillion deals take hours; this many, months
