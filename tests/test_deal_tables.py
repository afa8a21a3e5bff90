"""The deal tables: two ranges' weighted deals clear of any one, two or three more cards,
read off the deals holding each card, pair and three of cards (one pass over the combos),
against every pair of combos counted one by one, on every hole size and thread count."""
import itertools

import numpy as np
import pytest

import evaluator as ev
from evaluator.cards import parse_cards
from evaluator.games import game
from evaluator.listing import card_masks
from evaluator.subset_vectors import deal_tables


def _bits(cards) -> int:
    return sum(1 << int(c) for c in cards)


class Pairs:
    """Every pair of combos sharing no card with each other or ``out``, weighed by hand
    (a matrix); ``clear(extra)``: those clear of the cards ``extra`` too."""

    def __init__(self, hero: ev.Range, against: ev.Range, out: int) -> None:
        self.a, self.b = card_masks(hero.combos), card_masks(against.combos)
        blocked = np.uint64(out)
        fits = (((self.a[:, None] & self.b[None, :]) == 0) & ((self.a[:, None] & blocked) == 0)
                & ((self.b[None, :] & blocked) == 0))
        self.pairs = hero.weights[:, None] * against.weights[None, :] * fits

    def clear(self, extra: tuple[int, ...]) -> float:
        mask = np.uint64(_bits(extra))
        return float(((self.a & mask) == 0) @ self.pairs @ ((self.b & mask) == 0))


@pytest.mark.parametrize("name, hero, against, board", [
    ("omaha", "AAKQ:0.5,KKQJ,AA9*", "QQJT,JT98:0.25", "2c7d"),
    ("omaha5", "AAKK*:0.5,QQJJ*", "AKQJT:0.75,9988*", ""),
    ("omaha6", "AAKKQQ,AAKKJJ:0.5", "QQJJTT,AKQJT9:0.25", "9h"),
    ("tahoe", "AAK,KKQ:0.5", "QQ*:0.25,JT9", "2c"),
    ("holdem", "QQ+,AKs:0.5", "22+,A2s+:0.25,KTo+", "9h"),
])
def test_deals_clear_of_up_to_three_cards_count_every_pair(name, hero, against, board):
    g = game(name)
    first, second = ev.Range(hero, g), ev.Range(against, g)
    out = _bits(parse_cards(board))
    by_hand = Pairs(first, second, out)
    left = [c for c in range(52) if not (out >> c) & 1]
    rng = np.random.default_rng(7)
    for most in (0, 1, 2, 3):               # each table as far as it is asked to go
        tables = deal_tables(g, first.vector(), second.vector(), out, most, 1)
        assert tables.total == by_hand.clear(())
        for size in range(1, most + 1):
            sets = list(itertools.combinations(left, size))
            # every card and pair; triples by sample
            picked = range(len(sets)) if size < 3 else rng.choice(len(sets), 150, replace=False)
            for k in picked:
                extra = sets[k]
                want = by_hand.clear(extra)
                assert tables.clear(np.array(extra, np.int64)) == want, (most, extra, want)


def test_the_tables_are_the_same_on_any_number_of_threads():
    """Spans fixed by the combos, added in order: weights that do not sum exactly (0.3)
    give the same bits on one thread as on two."""
    g = game("omaha")
    hero = ev.Range("AA**:0.3,KK**:0.7,QJT9", g).vector()
    against = ev.Range("25%", g).vector()
    one, two = (deal_tables(g, hero, against, 0, 3, t) for t in (1, 2))
    assert one.total == two.total
    for x, y in zip(one[1:4], two[1:4]):
        assert np.array_equal(x, y)


def test_the_tables_refuse_what_they_cannot_answer():
    g = game("omaha")
    reach = ev.Range("AA**", g).vector()
    tables = deal_tables(g, reach, reach, 0, 2, 1)
    assert tables.clear(np.array([40, 3])) == tables.clear(np.array([3, 40]))   # any order
    with pytest.raises(ValueError, match="at most 2 cards"):
        tables.clear(np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="up to three"):
        deal_tables(g, reach, reach, 0, 4, 1)
    short = game("short_deck")
    with pytest.raises(ValueError, match="colex"):
        deal_tables(short, ev.Range("AA", short).vector(), ev.Range("KK", short).vector(),
                    0, 1, 1)


def test_runouts_of_four_cards_are_summed_from_the_pairs_that_fit():
    """"The" before the flop (four board cards to come): the engine's sum over every
    runout, its deals the pairs of combos clear of each other times the runouts each
    leaves, equals the enumeration (the dead cards leave 18 cards)."""
    from evaluator.engine.vector_equity import heads_up_by_vectors
    dead = "2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9sTcTd"
    hands = ["AA*,KKQ:0.5", "QQ*,JJ*:0.25"]
    want = ev.equity("the", hands, dead=dead, exact=True)
    g = game("the")
    rows = [ev.Range(h, g).live(parse_cards(dead)) for h in hands]
    got = heads_up_by_vectors(g, hands, [r.combos for r in rows], [r.weights for r in rows],
                              np.zeros(0, np.uint8), parse_cards(dead), 1.0, 1)
    assert got is not None and "every combo swept" in got.method
    for a, b in zip(got.players, want.players):
        assert a.equity == pytest.approx(b.equity, abs=1e-12)
        assert a.win == pytest.approx(b.win, abs=1e-12)
