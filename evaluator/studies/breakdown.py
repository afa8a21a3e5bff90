"""The range breakdown: a range's live combos on a board, by made hand and by draw.

Every combo gets its hand's category (``kind="category"``: the names of
``HandValue.category``; shares sum to 1) and one made-hand class (``kind="made"``, shares
sum to 1), and each draw it has (``kind="draw"``; a combo may have several or none).
Definitions, with "the board" the board's cards and "a hole card" one of the combo's:

Made classes, in this order (the first that applies):

* ``straight flush`` ... ``straight``: the hand's category, when it is one of these.
* ``set``: three of a kind from a pocket pair and one board card; ``trips``: three of a
  kind from one hole card and a board pair (or from the board).
* ``two pair``: a hole card pairs a board card and the other hole card pairs another;
  ``two pair, one card``: one hole card pairs the board and the board has a pair;
  ``pocket pair, paired board``: a pocket pair beside a board pair.
* ``overpair``: a pocket pair above every board card; ``underpair``: a pocket pair below
  the board's top card.
* ``top pair, top kicker``: a hole card pairs the board's top card and the other is the
  highest rank left (not on the board, not the pair's); ``top pair, good kicker``: the
  kicker is a ten or better; ``top pair, weak kicker``: otherwise.
* ``second pair``: a hole card pairs the board's second rank; ``weak pair``: a lower one.
* ``board pair``: every pair is on the board (one pair, or the board's own two pair);
  ``high card``: no pair at all.

Draws (with a card or two still to come), from the cards that could come next:

* ``flush draw``: some next card would give the hand a flush it does not have;
  ``nut flush draw``: one of those flushes is the best flush that card allows.
* ``open-ended``: cards of two or more ranks would each give a straight it does not
  have (an open-ended or double-gutter draw, eight outs); ``gutshot``: one rank.
* ``combo draw``: a flush draw and a straight draw together.
* ``backdoor flush`` (on the flop): no flush draw, but two more cards of one suit would
  make a flush.

Omaha games use the same definitions through their own evaluation (exactly two hole cards
and three board cards): a draw is a next card that makes the flush or straight with two
hole cards; the pair classes look at the two hole cards that make the best hand.  Tahoe
(at most two of three hole cards) and "The" (three hole cards, a board of two to four)
likewise: the two hole cards its best hand plays (those pairing the board or each other
first, then the highest; a hand playing one or none adds its highest other), and the
draws its own evaluation makes; a backdoor flush where two board cards are still to come.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from .. import combo_order
from .._calling import old_form
from ..cards import CardsLike, format_cards, parse_cards
from ..engine.spots import check_distinct, check_street
from ..errors import HandError, NoDeal, RangeError, flags
from ..errors import short_text as _short
from ..evaluate import evaluate_batch
from ..export import RowsExport
from ..families import family
from ..games import Game
from ..games import game as _game
from ..progress import progress_bar
from ..ranges import Range, RangeLike

__all__ = ["RangeBreakdown", "range_breakdown", "MADE_CLASSES", "DRAWS"]

MADE_CLASSES = ("straight flush", "four of a kind", "full house", "flush", "straight", "set",
                "trips", "two pair", "two pair, one card", "pocket pair, paired board",
                "overpair", "top pair, top kicker", "top pair, good kicker",
                "top pair, weak kicker", "underpair", "second pair", "weak pair",
                "board pair", "high card")
DRAWS = ("flush draw", "nut flush draw", "open-ended", "gutshot", "combo draw",
         "backdoor flush")
_STRONG = ("straight flush", "four of a kind", "full house", "flush", "straight")


@dataclass(frozen=True)
class RangeBreakdown(RowsExport):
    """What ``range_breakdown`` returns: a range's live combos on a board, by made hand
    and by draw (the module doc defines every class).

    Attributes
    ----------
    game : str
        The game's name.
    board : str
        The board.
    rows : list of dict
        One row per class: ``class`` (``"overpair"``, ``"flush draw"``, ...), ``kind``
        (``"category"``, ``"made"`` or ``"draw"``), ``combos``, their ``weight`` and
        ``share`` of the range's live weight.  The shares of each of the kinds
        ``category`` and ``made`` sum to 1; a combo may have several draws or none.
    members : dict of str to ndarray
        Each class's combos as card ids (``uint8 (n, hole)``); categories are keyed
        ``"category: pair"``.

    Examples
    --------
    >>> from evaluator import range_breakdown
    >>> b = range_breakdown(game="holdem", hands="QQ+,AKs,T9s", board="2c7d9h")
    >>> [(r["class"], r["combos"]) for r in b.rows if r["kind"] == "made"]
    [('overpair', 18), ('top pair, good kicker', 3), ('high card', 4)]
    >>> b.combos("top pair, good kicker")
    ['Tc9c', 'Td9d', 'Ts9s']

    ``b.to_frame()`` and ``b.write(path)`` export the rows.
    """
    game: str
    board: str
    rows: list[dict]
    members: dict[str, np.ndarray]        # class name -> the combos in it (uint8 (n, hole))

    def combos(self, name: str) -> list[str]:
        """The combos of one class (a name of ``members``), as text."""
        if not isinstance(name, str) or name not in self.members:
            raise RangeError(f"no class {name!r} (classes: "
                             f"{', '.join(r['class'] for r in self.rows)})", name)
        return [format_cards(sorted(c, reverse=True), sep="")      # high card first
                for c in self.members[name].tolist()]

    def _headline(self) -> str:
        """The line ``repr`` gives (``export.rows_repr``): the combos and the largest made
        class."""
        combos = sum(r["combos"] for r in self.rows if r["kind"] == "category")
        made = [r for r in self.rows if r["kind"] == "made"]
        top = max(made, key=lambda r: r["share"], default=None)
        return f"{combos:,} combos" + ("" if top is None else
                                      f", most {top['class']} ({top['share']:.1%})")

    def _repr_html_(self) -> str:
        body = "".join(f"<tr><td>{r['class']}</td><td>{r['kind']}</td><td>{r['combos']}</td>"
                       f"<td>{r['share']:.1%}</td></tr>" for r in self.rows)
        return ("<table><tr><th>class</th><th>kind</th><th>combos</th><th>share</th></tr>"
                f"{body}</table>")


def _made_class(category: str, hole: list[int], board: list[int]) -> str:
    if category in _STRONG:
        return category
    ranks = Counter(c >> 2 for c in board)
    board_ranks = sorted(ranks, reverse=True)
    a, b = sorted((c >> 2 for c in hole), reverse=True)
    pocket = a == b
    paired_board = any(k >= 2 for k in ranks.values())
    if category == "three of a kind":
        return "set" if pocket and ranks[a] == 1 else "trips"
    hits = [r for r in (a, b) if r in ranks]
    if category == "two pair":
        if not pocket and not hits:
            return "board pair"                 # the board's own two pair
        if not pocket and len(set(hits)) == 2:
            return "two pair"
        if pocket:
            return "pocket pair, paired board" if paired_board and a not in ranks else \
                "two pair, one card"
        return "two pair, one card"
    if category == "pair":
        if pocket:
            return "overpair" if a > board_ranks[0] else "underpair"
        if not hits:
            return "board pair"
        pair = hits[0]
        kicker = b if pair == a else a
        if pair == board_ranks[0]:
            best_left = max(r for r in range(13) if r not in ranks and r != pair)
            if kicker == best_left:
                return "top pair, top kicker"
            return "top pair, good kicker" if kicker >= 8 else "top pair, weak kicker"
        return "second pair" if len(board_ranks) > 1 and pair == board_ranks[1] \
            else "weak pair"
    return "high card"


# classifying a combo takes about 40 us in hold'em, Tahoe and "The" on two cores, and 1 us in
# Omaha (from its hole pairs); a breakdown estimated past BREAKDOWN_SECONDS is refused at once
BREAKDOWN_SECONDS = 60.0
BLOCK = 4096                        # combos classified at a time (and per progress step)


def _old_range_breakdown(hands, board, game="holdem", dead="", *, progress=False):
    """The 0.1.0 form of ``range_breakdown``, kept for one release."""


@old_form(_old_range_breakdown, "range_breakdown(hands, board, game)",
          "range_breakdown(game, hands, board, ...)")
def range_breakdown(game: str | Game, hands: RangeLike, board: CardsLike,
                    dead: CardsLike = "", *, progress: bool = False) -> RangeBreakdown:
    """The weighted share of a range's live combos in each made-hand class and draw on
    a board of three to five cards (see the module doc for every definition).  A range
    whose breakdown is estimated past ``BREAKDOWN_SECONDS`` is refused before any work.

    Parameters
    ----------
    game : str or Game
    hands : str or Range
    board : cards
        Three to five cards.
    dead : cards
        Cards out of the deck.
    progress : bool
        A progress bar on stderr for a long breakdown.

    Returns
    -------
    RangeBreakdown

    Examples
    --------
    >>> b = range_breakdown("holdem", "QQ+,AKs,T9s", "Ah7d2c")
    >>> [(r["class"], r["combos"]) for r in b.rows if r["combos"]][:3]
    [('three of a kind', 3), ('pair', 15), ('high card', 4)]
    """
    flags(progress=progress)
    g = _game(game)
    fam = family(g)
    combo_seconds = fam.breakdown_seconds(g)
    if combo_seconds is None:
        raise HandError(f"the breakdown is for games with a board, not {g.name}", g.name)
    board_ids = parse_cards(board, what="the board")
    check_street(g, board_ids)
    fewest = _fewest_board(g)
    if len(board_ids) < fewest:
        raise HandError(f"a breakdown in {g.name} takes a board of {fewest} to "
                        f"{max(g.streets)} cards (a five-card hand), got {len(board_ids)}",
                        len(board_ids))
    dead_ids = parse_cards(dead, what="the dead cards")
    g.check_in_deck(board_ids.tolist(), "the board")
    g.check_in_deck(dead_ids.tolist(), "the dead cards")
    check_distinct([("the board", board_ids), ("the dead cards", dead_ids)])
    r = Range(hands, g).live(np.concatenate([board_ids, dead_ids]))
    if not len(r):
        raise NoDeal(f"the range {r.text!r} has no live combos on this board", r.text)
    combos, weights = r.combos, r.weights
    n, hole = combos.shape
    seconds = n * combo_seconds
    if seconds > BREAKDOWN_SECONDS:
        raise RangeError(f"the breakdown of {_short(r.text)!r} ({n:,} live combos) would take "
                         f"about {seconds:,.0f} s, more than the {BREAKDOWN_SECONDS:.0f} s "
                         f"allowed (at most {int(BREAKDOWN_SECONDS / combo_seconds):,} "
                         "combos); narrow the range", r.text)
    names = g.categories
    bar = progress_bar(n, f"breakdown of {_short(r.text, 30)}", progress)
    try:
        # the hole pairs are valued by hold'em's five-card ranks: a 52-card deck's games
        classify = _by_pairs if fam.two_plus_three and len(g.deck) == 52 else _one_by_one
        categories, made, draws = classify(g, combos, board_ids, dead_ids, bar)
    finally:
        if bar is not None:
            bar.stop()
    total = float(weights.sum())
    out_rows, members = [], {}
    for kind, codes, order in (("category", categories, range(len(names) - 1, 0, -1)),
                               ("made", made, range(len(MADE_CLASSES)))):
        for code in order:
            name = names[code] if kind == "category" else MADE_CLASSES[code]
            mask = codes == code
            if kind == "category" or mask.any():
                out_rows.append(_row(name, kind, mask, weights, total))
                members[name if kind == "made" else f"category: {name}"] = combos[mask]
    for bit, name in enumerate(DRAWS):
        mask = (draws >> bit) & 1 == 1
        if mask.any():
            out_rows.append(_row(name, "draw", mask, weights, total))
            members[name] = combos[mask]
    return RangeBreakdown(g.name, format_cards(board_ids), out_rows, members)


Classes = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Each combo's category (its index in ``Game.categories``), made class (index in
``MADE_CLASSES``) and draws (bit ``j`` set for ``DRAWS[j]``)."""


def _one_by_one(g: Game, combos: np.ndarray, board_ids: np.ndarray, dead_ids: np.ndarray,
                bar) -> Classes:
    """``Classes`` of every combo, each classified by the definitions as written (hold'em,
    Tahoe, "The"; and the reference the hole-pair path is tested against)."""
    board_list = board_ids.tolist()
    n = len(combos)
    categories, made, draws = (np.zeros(n, np.int64) for _ in range(3))
    made_code = {name: i for i, name in enumerate(MADE_CLASSES)}
    for start in range(0, n, BLOCK):
        part = combos[start:start + BLOCK]
        rows = np.concatenate([part, np.broadcast_to(board_ids, (len(part), len(board_ids)))],
                              axis=1)
        values = evaluate_batch(g, np.ascontiguousarray(rows))
        cats = values >> 12
        categories[start:start + len(part)] = cats
        labels = [g.categories[c] for c in cats.tolist()]
        if g.hole != 2:
            used = _played(g, part, board_ids).tolist()
            got = [_played_made(cat, c, u, board_list)
                   for c, u, cat in zip(part.tolist(), used, labels)]
        else:
            got = [_made_class(cat, c, board_list) for c, cat in zip(part.tolist(), labels)]
        made[start:start + len(part)] = [made_code[x] for x in got]
        if len(board_ids) < max(g.streets):
            draws[start:start + len(part)] = [
                sum(1 << DRAWS.index(d) for d in mine)
                for mine in _draws(g, part, board_ids, dead_ids, values)]
        if bar is not None:
            bar.advance(bar.task, len(part))
    return categories, made, draws


def _by_pairs(g: Game, combos: np.ndarray, board_ids: np.ndarray, dead_ids: np.ndarray,
              bar) -> Classes:
    """``Classes`` of Omaha combos from their hole pairs: a hand plays exactly two hole
    cards, so its value is its best pair's (each of the 1,326 pairs valued once with its
    best three board cards, and again with each next card), its made class that of the
    first pair in hole order that makes it (the two cards its best hand plays), and each
    next card's category the best of its pairs'.  The same classes as ``_one_by_one``,
    at a few microseconds a combo instead of 25 (6-card Omaha's 10%, 1.6 million combos,
    in seconds)."""
    from itertools import combinations
    names = g.categories
    board_list = board_ids.tolist()
    flush, straight = names.index("flush"), names.index("straight")
    seen = set(board_list) | set(dead_ids.tolist())
    nexts = np.array([c for c in g.deck if c not in seen], np.int64) \
        if len(board_ids) < max(g.streets) else np.zeros(0, np.int64)
    value = _pair_values(board_ids, nexts)       # (1326, 1 + len(nexts)) hold'em values
    pair_made = np.zeros(1326, np.int64)
    made_code = {name: i for i, name in enumerate(MADE_CLASSES)}
    for p, (x, y) in enumerate(combo_order.combos("holdem").tolist()):  # colex order
        if x not in seen and y not in seen:
            pair_made[p] = made_code[_made_class(names[value[p, 0] >> 12], [x, y],
                                                 board_list)]
    after = (value[:, 1:] >> 12).astype(np.int8)  # each next card's category, per pair
    n, hole = combos.shape
    positions = list(combinations(range(hole), 2))
    categories, made, draws = (np.zeros(n, np.int64) for _ in range(3))
    suits_on_board = np.bincount(board_ids & 3, minlength=4)
    top_free = [max((c for c in range(suit, 52, 4) if c not in seen), default=-1)
                for suit in range(4)]
    flop = max(g.streets) - len(board_ids) >= 2
    for start in range(0, n, BLOCK):
        part = combos[start:start + BLOCK].astype(np.int64)
        pairs = np.stack([part[:, j] * (part[:, j] - 1) // 2 + part[:, i]
                          for i, j in positions], axis=1)
        values = value[pairs, 0]
        best = values.argmax(axis=1)                # the first best pair, in hole order
        now = values.max(axis=1) >> 12
        rows = slice(start, start + len(part))
        categories[rows] = now
        made[rows] = pair_made[pairs[np.arange(len(part)), best]]   # its category's
        if len(nexts):
            cat = after[pairs[:, 0]]
            for q in range(1, len(positions)):
                np.maximum(cat, after[pairs[:, q]], out=cat)
            clear = (part[:, :, None] != nexts[None, None, :]).all(axis=1)
            makes_flush = clear & (cat == flush) & (now < flush)[:, None]
            makes_straight = clear & (cat == straight) & (now < straight)[:, None]
            has_flush = makes_flush.any(axis=1)
            rank_bits = np.bitwise_or.reduce(
                np.where(makes_straight, 1 << (nexts >> 2), 0), axis=1)
            ranks = _RANK_COUNT[rank_bits]
            mine = np.stack([((part & 3) == suit).sum(axis=1) for suit in range(4)], axis=1)
            nut = np.zeros(len(part), bool)
            for suit in range(4):
                if top_free[suit] >= 0:
                    nut |= (suits_on_board[suit] + mine[:, suit] >= 4) \
                        & (part == top_free[suit]).any(axis=1)
            bits = has_flush * (1 << DRAWS.index("flush draw")) \
                + (has_flush & nut) * (1 << DRAWS.index("nut flush draw")) \
                + (ranks >= 2) * (1 << DRAWS.index("open-ended")) \
                + (ranks == 1) * (1 << DRAWS.index("gutshot")) \
                + (has_flush & (ranks > 0)) * (1 << DRAWS.index("combo draw"))
            if flop:
                backdoor = ((mine >= 2) & (suits_on_board == 1)[None, :]).any(axis=1)
                bits += (~has_flush & (now < flush) & backdoor) \
                    * (1 << DRAWS.index("backdoor flush"))
            draws[rows] = bits
        if bar is not None:
            bar.advance(bar.task, len(part))
    return categories, made, draws


_RANK_COUNT = np.array([bin(m).count("1") for m in range(1 << 13)], np.int64)
"""How many ranks a 13-bit rank mask holds."""


def _pair_values(board: np.ndarray, nexts: np.ndarray) -> np.ndarray:
    """``(1326, 1 + len(nexts))`` int64: each two-card pair (colex) with its best three
    cards of the board, then of the board and each next card (hold'em five-card values;
    pairs holding a board card are valued too, and never read)."""
    from itertools import combinations
    pairs = combo_order.combos("holdem")      # the 1,326 pairs in colex order
    out = np.empty((1326, 1 + len(nexts)), np.int64)
    for j in range(1 + len(nexts)):
        cards = board.tolist() + ([] if j == 0 else [int(nexts[j - 1])])
        triples = np.array(list(combinations(cards, 3)), np.uint8)
        rows = np.concatenate([np.repeat(pairs, len(triples), axis=0),
                               np.tile(triples, (1326, 1))], axis=1)
        values = evaluate_batch("holdem", rows, validate=False)
        out[:, j] = values.reshape(1326, len(triples)).max(axis=1)
    return out


def _row(name: str, kind: str, mask: np.ndarray, weights: np.ndarray, total: float) -> dict:
    w = float(weights[mask].sum())
    return {"class": name, "kind": kind, "combos": int(mask.sum()), "weight": w,
            "share": w / total}


def _played(g: Game, combos: np.ndarray, board: np.ndarray) -> np.ndarray:
    """``bool (n, hole)``: the hole cards each combo's best five-card hand plays (the
    first best of the game's five-card choices, all valued at once)."""
    hole = combos.shape[1]
    choices = np.array(list(family(g).five_card_choices(
        g, list(range(hole)), list(range(hole, hole + len(board))))), np.int64)
    cards = np.concatenate([combos, np.broadcast_to(board, (len(combos), len(board)))],
                           axis=1)
    rows = cards[:, choices].reshape(-1, 5)
    values = evaluate_batch("holdem", np.ascontiguousarray(rows), validate=False)
    best = choices[values.reshape(len(combos), len(choices)).argmax(axis=1)]
    return (best[:, :, None] == np.arange(hole)[None, None, :]).any(axis=1)


def _played_made(category: str, hole: list[int], used: list[bool], board: list[int]) -> str:
    """The made class of a hand of more than two hole cards: that of the two its best
    hand plays (Omaha: exactly two; Tahoe, "The": those pairing the board or each other
    first, then the highest, topped up by its highest other card)."""
    if category in _STRONG:
        return category
    on_board = {c >> 2 for c in board}
    held = Counter(c >> 2 for c in hole)
    playing = dict(zip(hole, used))

    def weight(c: int) -> tuple[bool, bool, int]:
        return playing[c], (c >> 2) in on_board or held[c >> 2] > 1, c >> 2
    return _made_class(category, sorted(hole, key=weight, reverse=True)[:2], board)


def _draws(g: Game, combos: np.ndarray, board: np.ndarray, dead: np.ndarray,
           values: np.ndarray) -> list[list[str]]:
    """Each combo's draws, from every next card (see the module doc)."""
    n, hole = combos.shape
    seen = set(board.tolist()) | set(dead.tolist())
    nexts = [c for c in g.deck if c not in seen]
    names = g.categories
    flush = names.index("flush")
    straight = names.index("straight")
    now = values >> 12
    k = len(nexts)
    rows = np.empty((n * k, hole + len(board) + 1), np.uint8)
    rows[:, :hole] = np.repeat(combos, k, axis=0)
    rows[:, hole:hole + len(board)] = board
    rows[:, -1] = np.tile(np.array(nexts, np.uint8), n)
    clash = (rows[:, :hole] == rows[:, -1:]).any(axis=1)
    rows[clash, -1] = rows[clash, hole]        # a held card: evaluated, then ignored
    after = (evaluate_batch(g, rows, validate=False) >> 12).reshape(n, k)
    clash = clash.reshape(n, k)
    next_ranks = np.array([c >> 2 for c in nexts])
    # the best flush each next card allows on this board, for the nut flush draw
    out = []
    for i in range(n):
        ok = ~clash[i]
        makes_flush = ok & (after[i] == flush) & (now[i] < flush)
        makes_straight = ok & (after[i] == straight) & (now[i] < straight)
        mine = []
        if makes_flush.any():
            mine.append("flush draw")
            if _nut_flush(combos[i].tolist(), board.tolist(), seen):
                mine.append("nut flush draw")
        ranks = len(set(next_ranks[makes_straight].tolist()))
        if ranks >= 2:
            mine.append("open-ended")
        elif ranks == 1:
            mine.append("gutshot")
        if makes_flush.any() and ranks:
            mine.append("combo draw")
        if max(g.streets) - len(board) >= 2 and not makes_flush.any() and now[i] < flush \
                and _backdoor_flush(g, combos[i].tolist(), board.tolist()):
            mine.append("backdoor flush")
        out.append(mine)
    return out


def _nut_flush(hole: list[int], board: list[int], seen: set[int]) -> bool:
    """The hand holds the highest card of its draw suit that is neither on the board nor
    dead (so the flush it would make is the best one)."""
    for suit in range(4):
        on_board = sum(1 for c in board if c & 3 == suit)
        mine = [c for c in hole if c & 3 == suit]
        if not mine or on_board + len(mine) < 4:
            continue
        free = [c for c in range(51, -1, -1) if c & 3 == suit and c not in seen]
        held = [c for c in free if c in hole]
        if held and free and held[0] == free[0]:
            return True
    return False


def _backdoor_flush(g: Game, hole: list[int], board: list[int]) -> bool:
    for suit in range(4):
        on_board = sum(1 for c in board if c & 3 == suit)
        mine = sum(1 for c in hole if c & 3 == suit)
        if family(g).two_plus_three:
            if mine >= 2 and on_board == 1:
                return True
        elif mine >= 1 and on_board + min(mine, _most_played(g)) == 3:
            return True
    return False


def _most_played(g: Game) -> int:
    """The most hole cards a five-card hand of ``g`` may play (hold'em and Tahoe 2)."""
    hole = list(range(g.hole))
    board = list(range(g.hole, g.hole + max(g.streets)))
    return max(sum(c < g.hole for c in five)
               for five in family(g).five_card_choices(g, hole, board))


def _fewest_board(g: Game) -> int:
    """The fewest board cards of a street of ``g`` that make a five-card hand (hold'em,
    Omaha, Tahoe 3; "The" 2)."""
    hole = list(range(g.hole))
    for size in sorted(s for s in g.streets if s):
        board = list(range(g.hole, g.hole + size))
        if next(iter(family(g).five_card_choices(g, hole, board)), None) is not None:
            return size
    return max(g.streets)
