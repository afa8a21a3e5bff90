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


def _pairs_clear(hero: ev.Range, against: ev.Range, out: int, extra: tuple[int, ...]) -> float:
    """Every pair of combos sharing no card with each other, ``out`` or ``extra``, by hand."""
    a, b = card_masks(hero.combos), card_masks(against.combos)
    blocked = np.uint64(out | _bits(extra))
    fits = (((a[:, None] & b[None, :]) == 0) & ((a[:, None] & blocked) == 0)
            & ((b[None, :] & blocked) == 0))
    return float((hero.weights[:, None] * against.weights[None, :] * fits).sum())


@pytest.mark.parametrize("name, hero, against, board", [
    ("omaha", "AA**:0.5,KK**", "QQ**,JT98:0.25", "2c7d"),
    ("omaha5", "AAKK*:0.5,QQJJ*", "AKQJT:0.75,9988*", ""),
    ("omaha6", "AAKKQQ,AAKKJJ:0.5", "QQJJTT,AKQJT9:0.25", "9h"),
    ("tahoe", "AAK,KKQ:0.5", "QQ*:0.25,JT9", "2c"),
])
def test_deals_clear_of_up_to_three_cards_count_every_pair(name, hero, against, board):
    g = game(name)
    first, second = ev.Range(hero, g), ev.Range(against, g)
    out = _bits(parse_cards(board))
    left = [c for c in range(52) if not (out >> c) & 1]
    rng = np.random.default_rng(7)
    for most in (0, 1, 2, 3):               # each table as far as it is asked to go
        tables = deal_tables(g, first.vector(), second.vector(), out, most, 1)
        assert tables.total == _pairs_clear(first, second, out, ())
        for size in range(1, most + 1):
            sets = list(itertools.combinations(left, size))
            for k in rng.choice(len(sets), 12, replace=False):
                extra = sets[k]
                want = _pairs_clear(first, second, out, extra)
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
