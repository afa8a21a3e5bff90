"""One small declarative record per game: hole cards, board sizes, how a hand is made.

>>> game("holdem").hole
2
>>> game("stud")
Traceback (most recent call last):
...
evaluator.errors.GameError: unknown game 'stud' (known: holdem)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import GameError

__all__ = ["Game", "GAMES", "game"]


@dataclass(frozen=True)
class Game:
    """How a game deals and makes hands.

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
        How a hand is made: ``"best5"`` (best five of hole and board).
    pot : str
        ``"high"`` or ``"hilo"``.
    options : tuple of (str, object)
        The options the game was made with.
    """
    name: str
    hole: int
    boards: tuple[int, ...]
    streets: tuple[int, ...]
    rule: str
    pot: str = "high"
    options: tuple[tuple[str, object], ...] = field(default=())
    title: str = ""

    def row_sizes(self) -> tuple[int, ...]:
        """Allowed column counts of an ``evaluate_batch`` array (hole + board)."""
        return tuple(self.hole + b for b in self.boards)

    def __str__(self) -> str:
        return self.name


def _holdem() -> Game:
    return Game("holdem", hole=2, boards=(3, 4, 5), streets=(0, 3, 4, 5), rule="best5",
                title="Texas Hold'em")


_REGISTRY = {"holdem": _holdem}
_ALIASES = {"hold'em": "holdem", "texas": "holdem", "nlhe": "holdem", "nlh": "holdem"}

GAMES: tuple[str, ...] = tuple(_REGISTRY)


def game(name: str | Game, **options: object) -> Game:
    """The game object for a name (a ``Game`` passes through unchanged)."""
    if isinstance(name, Game):
        if options:
            raise GameError("options are given with the game name, not with a Game object",
                            next(iter(options)))
        return name
    if not isinstance(name, str):
        raise GameError(f"a game is a name such as 'holdem', got {name!r}", name)
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    key = _ALIASES.get(key, key)
    if key not in _REGISTRY:
        raise GameError(f"unknown game {name!r} (known: {', '.join(GAMES)})", name)
    factory = _REGISTRY[key]
    try:
        return factory(**options)
    except TypeError:
        bad = next(iter(options))
        raise GameError(f"unknown option {bad!r} for game {key!r}", bad) from None
