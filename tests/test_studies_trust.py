"""The studies answer what ``equity()`` answers: weighted flop studies, and the deal weights
behind every row."""
from __future__ import annotations

from fractions import Fraction

import pytest

import evaluator as ev
from evaluator.flops import flop_study


@pytest.mark.parametrize("hands", [
    ["AA:0.5,KK", "QQ,JJ:0.2"],
    ["AKs:0.3,QQ", "JJ+:0.5,AK"],
])
def test_weighted_flop_study_equals_equity(hands):
    study = flop_study(hands, progress=False)
    whole = ev.equity("holdem", hands)
    for got, want in zip(study.equity(), whole.players):
        assert got == pytest.approx(want.equity, abs=1e-12)


def test_unweighted_flop_study_fractions_equal_equity():
    hands = ["AA,KK", "QQ,AKs"]
    study = flop_study(hands, progress=False)
    assert study.fractions() == ev.equity("holdem", hands).fractions


def test_row_weight_is_in_the_ranges_own_weights():
    # on 2c2dAs, 'AA:0.5,KK' keeps three aces combos at weight 0.5 and six kings at 1: the
    # deal weight is (3 * 0.5 + 6) / 9 of that of the unweighted 'AA,KK', never rescaled
    weighted = ev.equity("holdem", ["AA:0.5,KK", "QQ"], board="2c2dAs")
    plain = ev.equity("holdem", ["AA,KK", "QQ"], board="2c2dAs")
    assert isinstance(weighted.samples, float)
    assert weighted.samples == pytest.approx(plain.samples * (3 * 0.5 + 6) / 9, rel=1e-12)


def test_a_flop_where_only_low_weight_combos_live_counts_them_at_their_weight():
    weighted = ev.equity("holdem", ["AA:0.5,KK", "QQ"], board="KcKdKh")   # KK is dead
    plain = ev.equity("holdem", ["AA", "QQ"], board="KcKdKh")
    assert weighted.samples == pytest.approx(plain.samples * 0.5)
    assert weighted.players[0].equity == pytest.approx(plain.players[0].equity, abs=1e-15)
    assert Fraction(plain.players[0].equity).limit_denominator(10**9) == plain.fractions[0]


@pytest.mark.slow
def test_weighted_omaha_flop_study_equals_equity():
    hands = ["AsAhKsKh,AdAcKdKc:0.5,AsAcKsKc:0.25", "QsQhJsJh,QdQcTdTc"]
    study = flop_study(hands, "omaha", progress=False)
    whole = ev.equity("omaha", hands)
    for got, want in zip(study.equity(), whole.players):
        assert got == pytest.approx(want.equity, abs=1e-12)
