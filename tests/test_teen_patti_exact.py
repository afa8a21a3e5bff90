"""Teen Patti exact with two or three unknown hands or ranges (``engine/showdown``): every
tuple of combos counted, against a brute force over the same tuples with the reference
ranking."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from evaluator import Range, equity
from evaluator.cards import parse_cards
from evaluator.errors import EvaluatorError

from reference import teen_patti_strength


def brute_force(hands: list[str], weights_exact: bool = True, dead: str = "") -> list[Fraction]:
    """Each player's share of the pot over every deal: known hands fixed, the ranges
    dealt as every tuple of their combos without a shared card, by weight."""
    known, spread = {}, {}
    for p, text in enumerate(hands):
        if "*" in text or "?" in text or text == "random" or "," in text or ":" in text:
            r = Range(text.replace("?", "*"), "teen_patti")
            spread[p] = [(tuple(int(c) for c in combo), Fraction(float(w)))
                         for combo, w in zip(r.combos, r.weights)]
        else:
            known[p] = tuple(int(c) for c in parse_cards(text))
    held = {c for cards in known.values() for c in cards} | set(parse_cards(dead).tolist())
    strength = {p: teen_patti_strength(c) for p, c in known.items()}
    values = {cards: teen_patti_strength(cards) for combos in spread.values()
              for cards, _ in combos}
    shares = [Fraction(0)] * len(hands)
    total = Fraction(0)
    for deal in itertools.product(*spread.values()):
        cards = [c for combo, _ in deal for c in combo]
        if held & set(cards) or len(set(cards)) < len(cards):
            continue
        w = Fraction(1)
        for p, (combo, weight) in zip(spread, deal):
            strength[p] = values[combo]
            w *= weight
        best = max(strength.values())
        winners = [p for p, s in strength.items() if s == best]
        total += w
        for p in winners:
            shares[p] += w / len(winners)
    return [s / total for s in shares]


@pytest.mark.parametrize("hands", [
    ["AsKs?", "QhQd?", "9h8h7h"],            # two partial hands and a known one
    ["TT*", "TT*"],                           # ties: the same ranks in other suits
    ["2h3h4h", "55*", "AsAdAc", "KK*"],       # two known hands, one of them on top
    ["JJ*", "JJ*", "2c3d5h"],                 # the same range twice
])
def test_two_ranges_against_a_brute_force_exactly(hands):
    r = equity("teen_patti", hands)
    assert r.exact
    assert list(r.fractions) == brute_force(hands)


def test_weighted_ranges_against_a_brute_force():
    hands = ["AA*:0.5,KK*", "QQ*,JJ*:0.25", "9h8h7h"]
    r = equity("teen_patti", hands)
    assert r.exact and "one sweep" in r.method
    expected = brute_force(hands)
    assert [p.equity for p in r.players] == pytest.approx([float(x) for x in expected],
                                                          rel=1e-12)


def test_three_way_against_two_random_hands_is_exact_and_the_same_on_any_thread_count():
    one = equity("teen_patti", ["AsKsQs", "random", "random"], threads=1)
    two = equity("teen_patti", ["AsKsQs", "random", "random"], threads=2)
    assert one.exact and one.samples == 18424 * 15180 == 279_676_320
    assert one.fractions == two.fractions
    assert sum(one.fractions) == 1
    assert one.fractions[1] == one.fractions[2]              # the two unknown hands alike
    sampled = equity("teen_patti", ["AsKsQs", "random", "random"], exact=False, seed=3,
                     trials=1 << 20)
    for exact_p, sampled_p in zip(one.players, sampled.players):
        assert abs(exact_p.equity - sampled_p.equity) < 5 * sampled_p.stderr


@pytest.mark.parametrize("hands", [
    ["AsKs*:1", "AhKh*:1", "KcKd*:1"],        # two ranges alike, ties between them
    ["AsKs*", "QhQd*:0.5,JhJd*", "2h3h4h", "AcAd*:0.25"],   # weighted, beside a known hand
    ["AsAdAc", "KsKd*:1", "QsQd*:1", "KhQh*:1"],   # the known hand on top of every deal
    ["5s5d*:1", "5h5c*:1", "5s5h*:1,2h3h*:1"],  # the same cards wanted by all three
])
def test_three_ranges_against_a_brute_force_exactly(hands):
    r = equity("teen_patti", hands, exact=True)
    assert r.exact and "the third at once" in r.method
    expected = brute_force(hands)
    if r.fractions is not None:
        assert list(r.fractions) == expected
    else:                                     # weighted: float shares
        assert [p.equity for p in r.players] == pytest.approx([float(x) for x in expected],
                                                              rel=1e-12)


def test_three_weighted_ranges_with_dead_cards_against_a_brute_force():
    hands, dead = ["AsKs*:1,AhKh*:0.5", "QhQd*:0.25,KcKd*", "2h3h4h", "AcAd*"], "Qs5c5d"
    r = equity("teen_patti", hands, dead=dead, exact=True)
    assert r.exact and "the third at once" in r.method
    want = brute_force(hands, dead=dead)
    assert [p.equity for p in r.players] == pytest.approx([float(x) for x in want], rel=1e-12)


def test_three_ranges_are_the_same_on_any_thread_count_and_refuse_inexact_weights():
    hands = ["10%", "AK*,QQ*", "random"]
    one = equity("teen_patti", hands, exact=True, threads=1)
    two = equity("teen_patti", hands, exact=True, threads=2)
    assert one.fractions == two.fractions and sum(one.fractions) == 1
    with pytest.raises(EvaluatorError, match="declined their weights"):
        equity("teen_patti", ["QQ*:0.3,AK*", "40%", "40%"], exact=True)
    sampled = equity("teen_patti", ["AK*:0.3", "QQ*", "JJ*"], trials=10_000, seed=1)
    assert not sampled.exact


def test_no_live_combo_beside_the_known_hands_is_refused():
    from evaluator.errors import RangeError
    with pytest.raises(RangeError, match="no live combos"):
        equity("teen_patti", ["AsAdAc", "AsK*", "random"])
