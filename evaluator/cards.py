"""The one card encoding, parsing and formatting.

A card id is ``4 * rank + suit`` with rank 0 = deuce ... 12 = ace and suit
0..3 = clubs, diamonds, hearts, spades.  Arrays of cards are ``uint8``.

>>> parse_cards("AsKd")
array([51, 45], dtype=uint8)
>>> format_cards(parse_cards("10h, 9c"))
'Th 9c'
>>> parse_cards("As Ax")
Traceback (most recent call last):
...
evaluator.errors.CardError: unknown card 'Ax'
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TypeAlias

import numpy as np

from .errors import ArgumentTypeError, CardError, check_type, integer

__all__ = ["RANKS", "SUITS", "DECK_SIZE", "CardError", "CardsLike", "card_id", "card_str",
           "parse_cards", "format_cards"]

#: Cards as the public functions take them: text (``"AsKd"``), a sequence of card texts or
#: ids (``["As", "Kd"]``, ``[51, 45]``) or an integer array of ids.
CardsLike: TypeAlias = "str | Sequence[str | int] | np.ndarray"

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52

# ASCII: with Unicode case folding the Kelvin sign would read as a K and the long s as an s
_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs])", re.IGNORECASE | re.ASCII)
_SEPARATORS = re.compile(r"[\s,;]+")
_NAMES = tuple(r + s for r in RANKS for s in SUITS)
_IDS = {name.lower(): i for i, name in enumerate(_NAMES)}


def card_str(card_id: int | np.integer) -> str:
    """Canonical text of one card id.

    Parameters
    ----------
    card_id : int or numpy integer
        A card id, ``4 * rank + suit`` (0 = ``2c`` ... 51 = ``As``).

    Returns
    -------
    str
        Rank then suit: ``"As"``, ``"Td"``.

    Raises
    ------
    ArgumentTypeError
        ``card_id`` is not an integer (a Python int or a NumPy integer; never a bool, a
        float or text).
    CardError
        ``card_id`` is outside 0..51.

    Examples
    --------
    >>> card_str(51), card_str(0)
    ('As', '2c')
    """
    number = integer(card_id, "card_id", expected="an integer card id 0..51")
    if not 0 <= number < DECK_SIZE:
        raise CardError(f"card id {number} is out of range 0..51", card_id)
    return _NAMES[number]


def card_id(token: str) -> int:
    """Id of one card written as text.

    Parameters
    ----------
    token : str
        One card: a rank (``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``) and a
        suit (``c d h s``), in either case.

    Returns
    -------
    int
        ``4 * rank + suit``, 0..51.

    Raises
    ------
    ArgumentTypeError
        ``token`` is not text.
    CardError
        ``token`` is not a card.

    Examples
    --------
    >>> card_id("As"), card_id("10h"), card_id("td")
    (51, 34, 33)
    """
    if not isinstance(token, str):
        raise ArgumentTypeError(f"a card is text such as 'As', got {type(token).__name__} "
                                f"{token!r}"[:300], token)
    fast = _IDS.get(token.lower()) if token.isascii() else None
    if fast is not None:
        return fast
    match = _TOKEN.fullmatch(token.strip())
    if match is None:
        raise CardError(f"unknown card {token.strip()!r}", token)
    rank, suit = match.groups()
    rank = "T" if rank == "10" else rank.upper()
    return 4 * RANKS.index(rank) + SUITS.index(suit.lower())


_FAST = {name.lower(): name for name in _NAMES}


def _tokens(text: str) -> list[str]:
    """Split text into card tokens, naming the first piece that is not a card."""
    plain = text.replace(" ", "").replace(",", "").lower()
    if (text.isascii() and len(plain) % 2 == 0
            and all(plain[i:i + 2] in _FAST for i in range(0, len(plain), 2))):
        return [plain[i:i + 2] for i in range(0, len(plain), 2)]     # the common case
    tokens = []
    for chunk in _SEPARATORS.split(text.strip()):
        pos = 0
        while pos < len(chunk):
            match = _TOKEN.match(chunk, pos)
            if match is None:
                bad = chunk[pos:pos + 3] if chunk.startswith("10", pos) else chunk[pos:pos + 2]
                raise CardError(f"unknown card {bad!r}", bad)
            tokens.append(match.group(0))
            pos = match.end()
    return tokens


CACHED_TEXT_LENGTH = 64     # longer texts are parsed each time: the cache stays under 2 MB


@lru_cache(maxsize=1 << 14)
def _text_ids(text: str) -> tuple[int, ...]:
    """Card ids of a short text, cached: scripts ask about the same hands again and again."""
    return _parse_text(text)


def _parse_text(text: str) -> tuple[int, ...]:
    tokens = _tokens(text)
    ids = [_IDS.get(t) for t in tokens]         # the common case: lower-case pairs
    if None in ids:
        return tuple(card_id(t) for t in tokens)
    return tuple(ids)           # type: ignore[arg-type]  # None ruled out above


def parse_cards(cards: CardsLike | Iterable[str | int | np.integer], *, count: int | None = None,
                what: str = "cards", allow_duplicates: bool = False) -> np.ndarray:
    """Parse cards from text, a list of strings or ids, or an array of ids.

    Parameters
    ----------
    cards : str, sequence of str or int, or ndarray
        ``"AsKd"``, ``"As Kd"``, ``"as,kd"``, ``["As", "Kd"]`` or ``[51, 45]``.
    count : int, optional
        The number of cards required; a different number raises ``CardError``.
    what : str
        How the cards are named in error messages (``"hole cards"``, ``"board"``).
    allow_duplicates : bool
        Accept a card given twice (by default a ``CardError``).

    Returns
    -------
    ndarray of uint8, shape (n,)
        The card ids, in the order given.

    Raises
    ------
    CardError
        An unknown, duplicate or out-of-range card, or the wrong number of cards.
    ArgumentTypeError
        ``cards`` is not text, a sequence or an integer array (``None``, a number, bytes).

    Examples
    --------
    >>> parse_cards("As Kd")
    array([51, 45], dtype=uint8)
    >>> parse_cards(["10h", "td"]).tolist()
    [34, 33]
    >>> parse_cards("AsKd", count=3, what="the flop")
    Traceback (most recent call last):
    ...
    evaluator.errors.CardError: the flop: need 3 cards, got 2: As Kd
    """
    ids: Sequence[int]
    if isinstance(cards, str):
        ids = _text_ids(cards) if len(cards) <= CACHED_TEXT_LENGTH else _parse_text(cards)
    elif isinstance(cards, np.ndarray) and cards.dtype.kind in "iu":
        ids = cards.ravel().tolist()
    elif isinstance(cards, (bytes, bytearray)) or not isinstance(cards, Iterable):
        raise ArgumentTypeError(f"{what} must be card text, a list of cards or card ids, got "
                                f"{type(cards).__name__} {cards!r}"[:300], cards)
    else:
        listed: list[int] = []
        for item in cards:
            if isinstance(item, str):
                listed.extend(card_id(t) for t in _tokens(item))
            elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                listed.append(int(item))
            else:
                raise CardError(f"unknown card {item!r}", item)
        ids = listed
    for c in ids:
        if not 0 <= c < DECK_SIZE:
            raise CardError(f"card id {c} is out of range 0..51", c)
    if not allow_duplicates:
        seen: set[int] = set()
        for c in ids:
            if c in seen:
                raise CardError(f"duplicate card {_NAMES[c]!r} in {what}", _NAMES[c])
            seen.add(c)
    if count is not None and len(ids) != count:
        # "what: need" reads right whatever ``what`` is: "hole cards", "the deck"
        raise CardError(f"{what}: need {count} card{'s' if count != 1 else ''}, "
                        f"got {len(ids)}: {' '.join(_NAMES[c] for c in ids) or 'none'}",
                        len(ids))
    return np.array(ids, dtype=np.uint8)


_NAMES_256 = _NAMES + (None,) * (256 - len(_NAMES))     # uint8 ids: None past 51


def format_cards(ids: Iterable[int | np.integer] | np.ndarray, sep: str = " ") -> str:
    """Canonical text of card ids.

    Parameters
    ----------
    ids : ndarray of integers, or iterable of int
        An integer array (any shape, read in order) or an iterable of integer ids
        (Python or NumPy ints).
    sep : str
        What goes between two cards (default a space).

    Returns
    -------
    str
        The cards, rank then suit (``"As Kd"``); ``""`` for no card.

    Raises
    ------
    ArgumentTypeError
        Text, floats, bools or ``None`` (text is parsed by ``parse_cards``, not
        formatted).
    CardError
        An id outside 0..51.

    Examples
    --------
    >>> format_cards([51, 45])
    'As Kd'
    >>> format_cards(parse_cards("as,kd,10h"), sep="")
    'AsKdTh'
    """
    if type(sep) is not str:                     # inline: results format many card lists
        check_type(sep, str, "sep", "text (str)")
    if isinstance(ids, np.ndarray):
        if ids.dtype == np.uint8:
            names = [_NAMES_256[c] for c in ids.ravel().tolist()]
            if None not in names:
                return sep.join(names)           # type: ignore[arg-type]  # no None left
        elif ids.dtype.kind not in "iu":
            raise ArgumentTypeError(f"ids must be card ids (an integer array), got an array "
                                    f"of dtype {ids.dtype}", ids)
        values: list[int] = ids.ravel().tolist()
    elif isinstance(ids, (str, bytes, bytearray)) or not isinstance(ids, Iterable):
        hint = " (parse card text with parse_cards)" if isinstance(ids, str) else ""
        raise ArgumentTypeError(f"ids must be card ids (integers), got {type(ids).__name__} "
                                f"{ids!r}"[:300] + hint, ids)
    else:
        values = []
        for item in ids:
            if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
                raise ArgumentTypeError(f"ids must be card ids (integers), got an item of "
                                        f"type {type(item).__name__}: {item!r}"[:300], item)
            values.append(int(item))
    return sep.join(card_str(c) for c in values)
