"""One small declarative record per game: hole cards, board sizes, how a hand is made.

>>> game("holdem").hole
2
>>> game("stud")
Traceback (most recent call last):
...
evaluator.errors.GameError: unknown game 'stud' (known: holdem, omaha, ...)
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from . import _layout
from .errors import ArgumentTypeError, CardError, GameError

__all__ = ["Game", "GAMES", "Rule", "Pot", "game"]


class Rule(StrEnum):
    """How a hand is made; the engine and the kernel dispatch choose by it."""
    BEST5 = "best5"              # the best five of hole and board cards
    OMAHA = "omaha"              # exactly two hole cards and three board cards
    TAHOE = "tahoe"              # the best five using at most two of three hole cards
    TEEN_PATTI = "teen_patti"    # the three hole cards, by Teen Patti's ranking


class Pot(StrEnum):
    """How a pot is shared."""
    HIGH = "high"                # the best high hand
    HILO = "hilo"                # halves to the best high and the best qualifying low


@dataclass(frozen=True)
class Game:
    """How a game deals and makes hands: a frozen record, got from ``game(name)``.

    Every function that takes a game takes its name or this object.

    Attributes
    ----------
    name : str
        The registry name (``"holdem"``).
    hole : int
        Hole cards per player at showdown.
    boards : tuple of int
        Board sizes a hand can be evaluated with.
    streets : tuple of int
        Board sizes after each street, from the first deal on.
    rule : str
        How a hand is made: ``"best5"`` (best five of hole and board),
        ``"omaha"`` (exactly two hole and three board cards), ``"tahoe"`` (at
        most two hole cards) or ``"teen_patti"`` (the three cards).  It names the
        game's family (``family``): ``evaluator.families`` holds what follows from it.
    dealt : int
        Hole cards dealt; more than ``hole`` when some are discarded.
    discard_at : int
        Board size at which the extra hole cards are discarded (-1: never).
    lowest_rank : int
        The lowest rank in the deck (0: deuces, the 52-card deck; 4: sixes, short deck).
    values : str
        Which value tables rank high hands (``_tables.VALUE_TABLES``): ``"standard"``,
        or the short deck's ``"short"`` / ``"short_trips"``.
    pot : str
        ``"high"`` or ``"hilo"``.
    options : tuple of (str, object)
        The options the game was made with.
    ranked_as : str
        The game whose shipped hand ranking its ``N%`` ranges read (default: its own).
    rounds : tuple of int
        Board sizes at each betting round (default: the streets; Courchevel bets first
        with one flop card shown, so its rounds are (1, 3, 4, 5) and its streets, the
        boards equity takes, (0, 1, 3, 4, 5)).
    title : str
        The game's name as messages print it (default: ``name``).

    Examples
    --------
    >>> from evaluator import game
    >>> omaha8 = game("omaha8")
    >>> omaha8.hole, omaha8.streets, omaha8.hilo
    (4, (0, 3, 4, 5), True)
    >>> len(game("short_deck").deck)
    36
    """
    name: str
    hole: int
    boards: tuple[int, ...]
    streets: tuple[int, ...]
    rule: Rule
    pot: Pot = Pot.HIGH
    options: tuple[tuple[str, object], ...] = field(default=())
    dealt: int = 0
    discard_at: int = -1
    title: str = ""
    lowest_rank: int = 0
    values: str = "standard"
    rounds: tuple[int, ...] = ()
    ranked_as: str = ""

    def __post_init__(self) -> None:
        if not self.dealt:
            object.__setattr__(self, "dealt", self.hole)
        if not self.rounds:
            object.__setattr__(self, "rounds", self.streets)
        object.__setattr__(self, "rule", Rule(self.rule))
        object.__setattr__(self, "pot", Pot(self.pot))

    @property
    def hilo(self) -> bool:
        """Whether the pot splits between a high and a low half."""
        return self.pot is Pot.HILO

    @property
    def ranking_name(self) -> str:
        """The game whose ranking table ranks its hands (``ranked_as``, else itself)."""
        return self.ranked_as or self.name

    @property
    def family(self) -> str:
        """The name of the game's family (``evaluator.families.family(game)``)."""
        return self.rule.value

    @property
    def sub_hands(self) -> int:
        """Hands a player's hole cards make before the best is taken: Tahoe's three pairs
        of hole cards, else one."""
        return 3 if self.rule is Rule.TAHOE else 1

    @property
    def deck(self) -> tuple[int, ...]:
        """The card ids of the game's deck: all 52, or from ``lowest_rank`` up (short deck:
        the 36 cards from the sixes)."""
        return _DECKS[self.lowest_rank]

    @property
    def removed(self) -> tuple[int, ...]:
        """The 52-card ids the game's deck leaves out (the engine treats them as dead)."""
        return _REMOVED[self.lowest_rank]

    @property
    def categories(self) -> tuple[str, ...]:
        """High-hand category names by ``value >> 12``."""
        return {"standard": _layout.CATEGORIES, "short": _layout.SHORT_DECK_CATEGORIES,
                "short_trips": _layout.SHORT_DECK_TRIPS_CATEGORIES}[self.values]

    def check_in_deck(self, ids, what: str) -> None:
        """``CardError`` naming the first of ``ids`` (card ids) the deck leaves out."""
        if self.lowest_rank:
            for c in ids:
                if c < 4 * self.lowest_rank:
                    name = "23456789TJQKA"[c >> 2] + "cdhs"[c & 3]
                    raise CardError(f"card {name!r} in {what} is not in the {self.name} deck "
                                    f"({len(self.deck)} cards, sixes to aces)", name)

    def option(self, name: str, default: object = None) -> object:
        return dict(self.options).get(name, default)

    def row_sizes(self) -> tuple[int, ...]:
        """Allowed column counts of an ``evaluate_batch`` array (hole + board)."""
        return tuple(self.hole + b for b in self.boards)

    def __str__(self) -> str:
        return self.name


# the decks a game may have, by lowest rank (asked several times a query: built once)
_DECKS = {low: tuple(range(4 * low, 52)) for low in range(13)}
_REMOVED = {low: tuple(range(4 * low)) for low in range(13)}

HOLDEM_STREETS = (0, 3, 4, 5)
HIGH_BOARDS = (3, 4, 5)


def _holdem() -> Game:
    return Game("holdem", hole=2, boards=HIGH_BOARDS, streets=HOLDEM_STREETS, rule=Rule.BEST5,
                title="Texas Hold'em")


def _omaha(hole: int, name: str, title: str, pot: Pot = Pot.HIGH,
           streets: tuple[int, ...] = HOLDEM_STREETS, rounds: tuple[int, ...] = (),
           ranked_as: str = "") -> Callable[[], Game]:
    def make() -> Game:
        return Game(name, hole=hole, boards=HIGH_BOARDS, streets=streets, rule=Rule.OMAHA,
                    pot=pot, title=title, rounds=rounds, ranked_as=ranked_as)
    return make


# Courchevel shows the first flop card before the first betting round: equity takes a
# board of 0 (before it is shown), 1, 3, 4 or 5 cards; the rounds bet on 1, 3, 4, 5
COURCHEVEL_STREETS = (0, 1, 3, 4, 5)
COURCHEVEL_ROUNDS = (1, 3, 4, 5)


def _pineapple(name: str, title: str, discard_at: int) -> Callable[[], Game]:
    def make() -> Game:
        return Game(name, hole=2, boards=HIGH_BOARDS, streets=HOLDEM_STREETS, rule=Rule.BEST5,
                    dealt=3, discard_at=discard_at, title=title)
    return make


def _short_deck(trips_beat_straight: bool = False) -> Game:
    if not isinstance(trips_beat_straight, bool):
        raise GameError("short_deck option trips_beat_straight must be True or False, got "
                        f"{trips_beat_straight!r}", trips_beat_straight)
    return Game("short_deck", hole=2, boards=HIGH_BOARDS, streets=HOLDEM_STREETS,
                rule=Rule.BEST5, lowest_rank=4,
                values="short_trips" if trips_beat_straight else "short",
                options=(("trips_beat_straight", trips_beat_straight),),
                title="Short deck hold'em (36 cards, sixes to aces)")


def _tahoe() -> Game:
    return Game("tahoe", hole=3, boards=HIGH_BOARDS, streets=HOLDEM_STREETS, rule=Rule.TAHOE,
                title="Tahoe")


def _the() -> Game:
    return Game("the", hole=3, boards=(2, 3, 4), streets=(0, 1, 2, 3, 4), rule=Rule.BEST5,
                title="The (3 hole cards, 4-card board)")


def _teen_patti(a23: str = "highest") -> Game:
    if a23 not in ("highest", "second"):
        raise GameError(f"teen_patti option a23 must be 'highest' or 'second', got {a23!r}", a23)
    return Game("teen_patti", hole=3, boards=(0,), streets=(0,), rule=Rule.TEEN_PATTI,
                options=(("a23", a23),), title="Teen Patti")


_REGISTRY = {
    "holdem": _holdem,
    "omaha": _omaha(4, "omaha", "Omaha"),
    "omaha5": _omaha(5, "omaha5", "5-card Omaha"),
    "omaha6": _omaha(6, "omaha6", "6-card Omaha"),
    "omaha8": _omaha(4, "omaha8", "Omaha Hi-Lo 8-or-better", Pot.HILO),
    "omaha5_8": _omaha(5, "omaha5_8", "5-card Omaha Hi-Lo 8-or-better (Big O)", Pot.HILO),
    "omaha6_8": _omaha(6, "omaha6_8", "6-card Omaha Hi-Lo 8-or-better", Pot.HILO),
    # the hands of 5-card Omaha, with the whole board at showdown: ranked alike
    "courchevel": _omaha(5, "courchevel", "Courchevel (5 hole cards, a flop card shown "
                         "first)", streets=COURCHEVEL_STREETS, rounds=COURCHEVEL_ROUNDS,
                         ranked_as="omaha5"),
    "courchevel8": _omaha(5, "courchevel8", "Courchevel Hi-Lo 8-or-better", Pot.HILO,
                          streets=COURCHEVEL_STREETS, rounds=COURCHEVEL_ROUNDS,
                          ranked_as="omaha5_8"),
    "pineapple": _pineapple("pineapple", "Pineapple", 0),
    "crazy_pineapple": _pineapple("crazy_pineapple", "Crazy Pineapple", 3),
    "short_deck": _short_deck,
    "tahoe": _tahoe,
    "the": _the,
    "teen_patti": _teen_patti,
}
_ALIASES = {"hold'em": "holdem", "texas": "holdem", "nlhe": "holdem", "nlh": "holdem",
            "plo": "omaha", "plo4": "omaha", "plo5": "omaha5", "plo6": "omaha6",
            "omaha_hi_lo": "omaha8", "omaha_hilo": "omaha8", "o8": "omaha8",
            "big_o": "omaha5_8", "bigo": "omaha5_8", "omaha5_hi_lo": "omaha5_8",
            "omaha_five_hi_lo": "omaha5_8", "o5_8": "omaha5_8", "omaha6_hi_lo": "omaha6_8",
            "o6_8": "omaha6_8", "courchevel_hi_lo": "courchevel8",
            "courchevel_hilo": "courchevel8", "courchevel_8": "courchevel8",
            "teenpatti": "teen_patti", "shortdeck": "short_deck", "six_plus": "short_deck",
            "6plus": "short_deck", "6+": "short_deck"}

GAMES: tuple[str, ...] = tuple(_REGISTRY)
"""The names of every game, in the order the command line lists them: ``holdem``,
``omaha``, ``omaha5``, ``omaha6``, ``omaha8``, ``omaha5_8``, ``omaha6_8``, ``courchevel``,
``courchevel8``, ``pineapple``, ``crazy_pineapple``, ``short_deck``, ``tahoe``, ``the``,
``teen_patti``."""


def game(name: str | Game, **options: object) -> Game:
    """The game object for a name (a ``Game`` passes through unchanged).

    Parameters
    ----------
    name : str or Game
        One of ``GAMES`` (``"holdem"``, ``"omaha8"``, ...) or a common alias
        (``"plo"``, ``"o8"``, ``"6+"``); case, spaces and hyphens do not matter.
    **options
        The game's options, such as short deck's ``trips_beat_straight=True`` or Teen
        Patti's ``a23="second"`` (see Rules decided).

    Returns
    -------
    Game

    Raises
    ------
    GameError
        An unknown game or option, or options given with a ``Game``.
    ArgumentTypeError
        ``name`` is neither text nor a ``Game``.

    Examples
    --------
    >>> from evaluator import evaluate, game
    >>> game("PLO").name
    'omaha'
    >>> short = game("short_deck", trips_beat_straight=True)
    >>> evaluate(short, "AsKs", "QdJhTc 9s 6d").category
    'straight'
    """
    if isinstance(name, Game):
        if options:
            raise GameError("options are given with the game name, not with a Game object",
                            next(iter(options)))
        return name
    if not options and isinstance(name, str):
        known = _PLAIN.get(name)
        if known is not None:
            return known
    if not isinstance(name, str):
        raise ArgumentTypeError(f"game must be a name such as 'holdem' or a Game, got "
                                f"{type(name).__name__} {name!r}", name)
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    key = _ALIASES.get(key, key)
    if key not in _REGISTRY:
        raise GameError(f"unknown game {name!r} (known: {', '.join(GAMES)})", name)
    if not options and key == name:
        _PLAIN[name] = _make(key, ())
        return _PLAIN[name]
    try:
        return _make(key, tuple(sorted(options.items())))
    except TypeError:        # unhashable option values
        return _make.__wrapped__(key, tuple(sorted(options.items())))


_PLAIN: dict[str, Game] = {}          # exact registry names without options, once made


@lru_cache(maxsize=64)
def _make(key: str, options: tuple[tuple[str, object], ...]) -> Game:
    import inspect
    factory = _REGISTRY[key]
    known = inspect.signature(factory).parameters
    for option, _ in options:
        if option not in known:
            raise GameError(f"unknown option {option!r} for game {key!r}", option)
    return factory(**dict(options))
