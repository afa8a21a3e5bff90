"""What a hand history holds, whatever its format: ``Hand`` and its ``Action`` list, and
``Problem``, a hand that could not be read or replayed (its file, line and reason)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..cards import card_str
from ..errors import HistoryError
from ..games import Game

__all__ = ["Action", "Hand", "Problem", "HandProblem", "cards_text", "VARIANT_GAMES"]

# the formats' game codes and the game of this package each is evaluated as; a code not
# here is read and replayed but not evaluated (stud, draw, badugi)
VARIANT_GAMES = {
    "NT": "holdem", "FT": "holdem", "PT": "holdem", "NS": "short_deck",
    "PO": "omaha", "NO": "omaha", "FO": "omaha",
    "PO/8": "omaha8", "NO/8": "omaha8", "FO/8": "omaha8",
}


class Action(NamedTuple):
    """One line of a hand's action.

    ``actor`` is the player's index (0 for the first player), None for the dealer.
    ``kind``: "hole" (cards dealt to ``actor``), "board" (board cards), "post" (a forced
    bet outside the blinds: a dead or live post), "raise" (complete, bet or raise to
    ``amount``: the player's whole bet this street), "call" (check or call), "fold",
    "show" (``cards``; an empty tuple mucks), "show dealt" (the cards dealt), or "other"
    (draws and bring-ins: games not replayed).  ``cards`` hold card ids, None for a card the
    history does not show.  ``line`` is the line of the file it was read from.
    """
    actor: int | None
    kind: str
    amount: float | None = None
    cards: tuple[int | None, ...] = ()
    line: int = 0
    runs: int = 1          # "board": the run it belongs to (run it twice: 1 or 2)


@dataclass
class Hand:
    """A hand as its history records it.

    ``game`` is this package's game (None where the variant is not one it evaluates);
    ``variant`` the history's own code or words.  Amounts are chips as the file writes
    them.  ``limit`` is "no", "pot" or "fixed".  ``antes`` and ``blinds`` are per player
    in the file's order (the blinds of a heads-up hand as PHH writes them: reversed when
    posted).  ``finishing_stacks``, ``winnings`` and ``rake`` are None where the file
    does not say.  ``first_to_act``: the player who acts first pre-flop where the file
    says so (else the one after the largest forced bet); ``runs``: boards run (run it
    twice: 2).
    """
    source: str
    index: int
    line: int
    variant: str
    game: Game | None
    players: list[str]
    starting_stacks: list[float]
    antes: list[float]
    blinds: list[float]
    limit: str
    actions: list[Action]
    big_blind: float = 0.0
    finishing_stacks: list[float] | None = None
    winnings: list[float] | None = None
    rake: float | None = None
    name: str = ""
    first_to_act: int | None = None
    runs: int = 1
    extra: dict = field(default_factory=dict)

    @property
    def where(self) -> str:
        """The file and hand, as problems and rows name it: ``path#n``, the file's n-th
        hand (from 1)."""
        return f"{self.source}#{self.index + 1}"


class HandProblem(HistoryError):
    """A hand that breaks the rules, does not add up or cannot be read: ``.source``,
    ``.line`` and the reason (the message)."""

    def __init__(self, message: str, source: str = "", line: int = 0,
                 index: int | None = None) -> None:
        where = f"{source}:{line}" if source and line else source
        super().__init__(f"{where}: {message}" if where else message, where)
        self.reason = message
        self.source = source
        self.line = line
        self.index = index


@dataclass(frozen=True)
class Problem:
    """A hand left out of the analysis, as a record: its file, hand index, line and the
    reason (rows of ``--on-error record`` and the ``problems`` of a summary)."""
    source: str
    index: int | None
    line: int
    reason: str

    @property
    def where(self) -> str:
        """The hand (``path#index``), or where the file failed (``path:line``)."""
        if self.index is not None:
            return f"{self.source}#{self.index + 1}"
        return f"{self.source}:{self.line}" if self.line else self.source

    @classmethod
    def of(cls, error: HandProblem) -> Problem:
        return cls(error.source, error.index, error.line, error.reason)


CARD_TEXT = {c: card_str(c) for c in range(52)} | {None: "??"}


def cards_text(cards: Sequence[int | None]) -> str:
    """Cards as a history writes them: ``AsKd``, an unknown card ``??``."""
    return "".join([CARD_TEXT[c] for c in cards])
