"""Ranges: parsing, card removal, weighted and multiway range equity."""
from fractions import Fraction

import numpy as np
import pytest

from evaluator import EvaluatorError, Range, RangeError, equity, format_cards, parse_cards
from evaluator.ranges import CLASS_NAMES, class_combos, class_of, preflop_order


@pytest.mark.parametrize("text, combos", [
    ("QQ+,AKs", 22), ("random", 1326), ("22-55", 24), ("KTo+", 36), ("A2s+", 48),
    ("T9s-65s", 20), ("A2s-A5s", 16), ("AKs-QJs", 12), ("55-22", 24), ("AK", 16),
    ("AKo", 12), ("AA", 6),
    ("AhKh", 1), ("AhKh, AKs", 4), ("AA,KK:0.5,0.25(QQ)", 18), ("any", 1326),
    ("ak", 16), ("qq+", 18),
])
def test_combo_counts(text, combos):
    r = Range(text)
    assert len(r) == combos
    assert r.combos.dtype == np.uint8 and r.combos.shape == (combos, 2)
    assert (np.diff(r.combos, axis=1) > 0).all()                # each combo sorted
    assert len({tuple(c) for c in r.combos.tolist()}) == combos  # no combo twice


@pytest.mark.parametrize("text, bad", [
    ("AKx", "AKx"), ("QQ++", "QQ++"), ("99-JJ-KK", "99-JJ-KK"), ("AAs", "AAs"),
    ("ZZ", "ZZ"), ("AK:-1", "AK:-1"), ("QQ+,,AKs", "QQ+,,AKs"), ("AKs-T9o", "AKs-T9o"),
    ("AKs-Q9s", "AKs-Q9s"), ("AhAh", "Ah"), ("AhKhQh", "AhKhQh"), ("150%", "150%"),
    ("", ""),
])
def test_bad_ranges_name_the_part(text, bad):
    with pytest.raises(EvaluatorError) as info:      # RangeError, or CardError for a card
        Range(text)
    assert bad in str(info.value) or bad in str(info.value.token)


def test_weights_and_repeats():
    r = Range("AKs:0.5, 0.25(QQ), JJ")
    weights = dict(r)
    assert weights["QdQc"] == 0.25 and weights["JdJc"] == 1.0      # high card first
    assert weights[next(k for k in weights if k.startswith("A"))] == 0.5
    # a combo listed again keeps the last weight; weight 0 drops it
    assert dict(Range("AhKh, AKs:0.5, QQ"))["AhKh"] == 0.5
    assert len(Range("AKs, AhKh:0")) == 3


def test_classes_and_grid():
    assert len(CLASS_NAMES) == 169 and CLASS_NAMES[0] == "AA" and CLASS_NAMES[1] == "AKs"
    assert CLASS_NAMES[13] == "AKo" and CLASS_NAMES[168] == "22"
    assert sum(len(class_combos(n)) for n in CLASS_NAMES) == 1326
    assert class_of("AhKh") == "AKs" and class_of("2c7d") == "72o" and class_of("TsTd") == "TT"
    shares = Range("AKs:0.5,QQ").classes()
    assert shares["AKs"] == 0.5 and shares["QQ"] == 1 and shares["AA"] == 0


def test_top_percent_ordering():
    order = preflop_order()
    assert order[0] == "AA" and order[1] == "KK" and order[-1] == "32o"
    assert len(set(order)) == 169
    five, ten = Range("5%"), Range("10%")
    assert abs(len(five) - 66) <= 8 and abs(len(ten) - 133) <= 8
    assert {tuple(c) for c in five.combos.tolist()} <= {tuple(c) for c in ten.combos.tolist()}
    assert len(Range("100%")) == 1326


def test_omaha_patterns():
    assert len(Range("AA**", "omaha")) == 6961              # at least two aces
    assert len(Range("AA", "omaha")) == 6961                # short patterns pad with *
    assert len(Range("AxAyxy", "omaha")) == 864             # double-suited aces
    assert len(Range("AsAh**", "omaha")) == 1225
    assert len(Range("AsAhKsKh", "omaha")) == 1
    assert len(Range("random", "omaha")) == 270725
    ds = Range("AxAyxy", "omaha")
    for combo in ds.combos.tolist():
        suits = sorted(c & 3 for c in combo)
        assert suits[0] == suits[1] and suits[2] == suits[3] and suits[1] != suits[2]
        assert sum(c >> 2 == 12 for c in combo) == 2
    assert len(Range("AAA", "teen_patti")) == 4 and len(Range("AA*", "teen_patti")) == 292
    with pytest.raises(RangeError, match="AAAAA"):
        Range("AAAAA", "omaha")
    with pytest.raises(RangeError, match="matches no hand"):
        Range("AAAAA", "omaha5")


def test_wide_patterns_list_every_hand_once_in_order():
    """Patterns are listed as arrays: the same hands as a brute force over every hand,
    each once, rows sorted and in increasing order, the last weight given winning."""
    from itertools import combinations

    every = np.array(list(combinations(range(52), 4)), np.uint8)
    aces = (every >> 2 == 12).sum(axis=1)
    r = Range("AA**", "omaha")
    assert np.array_equal(r.combos, every[aces >= 2])         # both in increasing order
    six = Range("AA****", "omaha6")                  # 20,358,520 hands, those with 2+ aces
    assert len(six) == 1_237_792
    assert (np.diff(six.combos.astype(np.int64), axis=1) > 0).all()
    assert (six.combos >> 2 == 12).sum(axis=1).min() == 2
    w = Range("AA**:0.5,AsAh**", "omaha")
    both = (w.combos == 51).any(axis=1) & (w.combos == 50).any(axis=1)
    assert (w.weights[both] == 1).all() and (w.weights[~both] == 0.5).all()
    assert both.sum() == 1225
    with pytest.raises(RangeError, match="too many hands"):
        Range("x*****", "omaha6")


def test_card_removal():
    r = Range("AA").live(parse_cards("As"))
    assert len(r) == 3
    by_range = equity("holdem", ["AA", "AsKs"], "2c7d9h")
    one = [equity("holdem", [c, "AsKs"], "2c7d9h") for c, _ in r]
    assert by_range.exact
    assert by_range.fractions[0] == sum(x.fractions[0] for x in one) / 3
    with pytest.raises(RangeError, match="no live combos"):
        equity("holdem", ["AsAh,AsAd", "KK"], "As Kd 2c")
    with pytest.raises(RangeError, match="no live combos"):
        equity("holdem", ["AA", "KK"], "Ac Ad 2c", dead="AhAs")
    with pytest.raises(RangeError, match="no deal fits"):
        equity("holdem", ["AA", "AA", "AA"])
    with pytest.raises(RangeError, match="no deal fits"):
        equity("holdem", ["AA", "AA", "AA"], trials=1000)


def test_weighted_equity_against_a_hand_computation():
    board = "2c7d9h"
    r = equity("holdem", ["AKs:0.5, QQ", "JhJd"], board)
    combos = [(c, w) for c, w in Range("AKs:0.5, QQ") if c[:2] not in ("Jh", "Jd")]
    parts = [(equity("holdem", [c, "JhJd"], board), w) for c, w in combos]
    total = sum(w for _, w in parts)
    expect = sum(w * float(p.fractions[0]) for p, w in parts) / total
    assert r.exact and r.fractions is None          # weighted: counts are not integers
    assert r.players[0].equity == pytest.approx(expect, abs=1e-12)
    assert r.counts["weighted"]
    # integer weights keep exact integer counts
    plain = equity("holdem", ["AKs, QQ", "JhJd"], board)
    assert plain.fractions is not None and sum(plain.fractions) == 1


def test_multiway_ranges_exact_and_sampled():
    hands, board = ["QQ+", "AKs,AKo", "JhTh"], "2c7d9hKs"
    exact = equity("holdem", hands, board)
    assert exact.exact and sum(exact.fractions) == 1
    # the same by listing every combo tuple by hand
    shares, deals = [Fraction(0)] * 3, 0
    for a, _ in Range("QQ+"):
        for b, _ in Range("AKs,AKo"):
            cards = parse_cards(a + b + "JhTh" + board, allow_duplicates=True).tolist()
            if len(set(cards)) < len(cards):
                continue
            one = equity("holdem", [a, b, "JhTh"], board)
            shares = [s + f for s, f in zip(shares, one.fractions)]
            deals += 1
    assert list(exact.fractions) == [s / deals for s in shares]
    sampled = equity("holdem", hands, board, trials=200_000, seed=5)
    for e, s in zip(exact.players, sampled.players):
        assert abs(e.equity - s.equity) < 4 * s.stderr


def test_range_monte_carlo_is_thread_independent_and_near_exact():
    hands = ["QQ+,AKs:0.5", "random"]
    one = equity("holdem", hands, "2c4c5h", trials=300_000, seed=9, threads=1)
    two = equity("holdem", hands, "2c4c5h", trials=300_000, seed=9, threads=2)
    assert one.counts == two.counts
    exact = equity("holdem", hands, "2c4c5h", exact=True)
    assert abs(exact.players[0].equity - one.players[0].equity) < 4 * one.players[0].stderr


def test_omaha_and_other_games_take_ranges():
    r = equity("omaha", ["AA**", "KsKhQsQh"], "2c7d9hTs", trials=100_000, seed=1)
    exact = equity("omaha", ["AA**", "KsKhQsQh"], "2c7d9hTs", exact=True)
    assert exact.exact and sum(exact.fractions) == 1
    assert abs(r.players[0].equity - exact.players[0].equity) < 4 * r.players[0].stderr
    hilo = equity("omaha8", ["A2**", "random"], "3c4d9h", trials=50_000, seed=2)
    assert hilo.players[0].hi + hilo.players[0].lo == pytest.approx(hilo.players[0].equity)
    teen = equity("teen_patti", ["AA*", "KK*"], exact=True)
    assert teen.exact and teen.players[0].equity > 0.9


@pytest.mark.parametrize("game, hands, board", [
    ("omaha", ["AsAhKsKh,AcAdKcKd", "Qh???"], "2c7d9hTsJs"),
    ("omaha8", ["AhAd2c3c,AsAc2d3d", "3s4s??"], "5c8d9hKs"),
    ("tahoe", ["AsKsQs,JhJdTc", "8c8d?"], "2c7d9hTs"),
])
def test_unknown_cards_dealt_beside_ranges_match_exact(game, hands, board, monkeypatch):
    """Beside a range, Monte Carlo deals the unknown cards of a hand with many completions
    from the cards the range leaves, instead of listing them: the same law (every range
    combo leaves as many completions), so it must agree with the exact equity over the
    listed completions.  The threshold is lowered so that these small spots deal."""
    import importlib

    monkeypatch.setattr(importlib.import_module("evaluator.engine.ranged"), "LISTED_COMPLETIONS", 0)
    exact = equity(game, hands, board, exact=True)
    one = equity(game, hands, board, trials=300_000, seed=4, threads=1)
    two = equity(game, hands, board, trials=300_000, seed=4, threads=2)
    assert one.counts == two.counts
    for e, s in zip(exact.players, one.players):
        assert abs(e.equity - s.equity) < 4 * s.stderr
    assert [p.hand for p in one.players] == [p.hand for p in exact.players]


@pytest.mark.parametrize("game, board", [("tahoe", "2c7d9hTs"), ("tahoe", "2c7d9h"),
                                         ("the", "5h")])
def test_walked_range_deals_sum_to_their_single_deals(game, board):
    """Range deals whose boards are walked (Tahoe; The where two suits can flush) run in
    one batch call: the exact counts must be the sums of each deal's own."""
    hands = (["AsKsQs,JhJdTc", "8c8d2h,9c9s8h"] if game == "tahoe"
             else ["AcKcQc,AhKhQh", "2s3s4s,9d9c8d"])
    together = equity(game, hands, board, exact=True)
    assert together.exact
    shares, deals = [Fraction(0)] * 2, 0
    for a, _ in Range(hands[0], game):
        for b, _ in Range(hands[1], game):
            one = equity(game, [a, b], board, exact=True)
            shares = [s + f for s, f in zip(shares, one.fractions)]
            deals += 1
    assert list(together.fractions) == [s / deals for s in shares]


def test_partly_known_hands_mix_with_ranges():
    board = "2c7d9hTd"
    mixed = equity("holdem", ["As?", "KK"], board)
    seen = set(parse_cards("As" + board).tolist())
    listed = ",".join("As" + c for c in
                      (format_cards([x]) for x in range(52) if x not in seen))
    by_list = equity("holdem", [listed, "KK"], board)
    assert mixed.exact and mixed.players[0].hand == "As?"
    assert mixed.fractions == by_list.fractions


def test_weights_are_scaled_so_the_largest_is_one():
    """Weights are relative: each range keeps their ratios with the largest exactly 1."""
    r = Range("AA:1e308, KK")
    w = dict(r)
    assert w["AdAc"] == 1.0 and w["KdKc"] == pytest.approx(1e-308, rel=1e-6)
    assert np.isfinite(r.total_weight) and r.total_weight == pytest.approx(6)
    r = Range("AA:4, KK:2, 0.5(QQ)")
    assert r.weights.max() == 1.0
    assert sorted(set(r.weights.tolist())) == [0.125, 0.5, 1.0]
    assert set(Range("AA:7, KK:7").weights.tolist()) == {1.0}    # equal weights stay 1
    assert set(Range("AA:1e-300, KK:1e-300").weights.tolist()) == {1.0}
    assert Range("AKs:0.5,QQ:0.25").classes()["AKs"] == 1.0
    shares = Range("AKs:2,QQ:0,JJ:1").classes()
    assert shares["AKs"] == 1.0 and shares["JJ"] == 0.5 and shares["QQ"] == 0
    live = Range("AA:2, KK").live("AsAhAdAc")        # the largest weight is gone, and the
    assert live.weights.max() == 0.5 and len(live) == 6   # others keep theirs: not rescaled
    assert Range("10%:1e-200").weights.max() == 1.0


@pytest.mark.parametrize("text, bad", [
    ("AA:1e308, KK:1e-300", "KK"), ("AA:inf", "inf"), ("AA:nan", "nan"), ("AA:1e400", "1e400"),
    ("AA:-0.5", "-0.5"), ("1e999(AA)", "1e999"), ("AA:0x10", "0x10"),
])
def test_weights_that_cannot_be_represented_are_refused(text, bad):
    with pytest.raises(RangeError) as info:
        Range(text)
    assert bad in str(info.value)


def test_huge_and_tiny_weights_give_the_equity_of_their_ratios():
    """1e308 beside 1 is the same range as 1 beside 1e-308; tiny weights alike are 1."""
    big = equity("holdem", ["AA:1e308,KK", "QQ"])
    small = equity("holdem", ["AA:1,KK:1e-308", "QQ"])
    aces = equity("holdem", ["AA", "QQ"])
    assert big.players[0].equity == small.players[0].equity
    assert big.players[0].equity == pytest.approx(aces.players[0].equity, abs=1e-9)
    tiny = equity("holdem", ["AA:1e-300,KK:1e-300", "QQ:1e-300"])
    plain = equity("holdem", ["AA,KK", "QQ"])
    assert tiny.fractions == plain.fractions
    flop = equity("holdem", ["AA:1e-300,KK:1e-300", "QQ:1e-300"], "2c7d9h")
    assert flop.fractions == equity("holdem", ["AA,KK", "QQ"], "2c7d9h").fractions


def test_range_json_weights_are_finite(capsys):
    import json

    from evaluator.cli import main
    main(["range", "AA:1e308,KK", "--json"])
    out = json.loads(capsys.readouterr().out,
                     parse_constant=lambda c: pytest.fail(f"{c} in the JSON output"))
    assert out["total_weight"] == pytest.approx(6)
    assert max(h["weight"] for h in out["hands"]) == 1.0


@pytest.mark.parametrize("game", ["holdem", "omaha", "tahoe", "teen_patti"])
def test_random_and_any_are_the_same(game):
    every = Range("random", game)
    for text in ("any", "ANY", " Any ", "Random", " RANDOM:0.5", "0.5( any )", "*"):
        assert np.array_equal(Range(text, game).combos, every.combos), text


def test_repeated_wide_parts_are_listed_once():
    """A part given again replaces its first listing instead of adding a copy."""
    from evaluator import ranges

    one = Range("AA****", "omaha6")
    six = Range(",".join(["AA****"] * 6), "omaha6")
    assert six == one and len(six) == 1_237_792
    mixed = Range("AA**:0.5, KK**, AA**", "omaha")
    assert len(mixed) == len(Range("AA**,KK**", "omaha"))
    assert (mixed.weights[(mixed.combos >> 2 == 12).sum(axis=1) >= 2] == 1).all()
    assert ranges.RANGE_LIMIT == 21_000_000


def test_too_wide_patterns_are_refused_before_listing(monkeypatch):
    """Patterns are counted before they are listed: one that could match more hands than
    a range may hold is refused without listing a hand (listing is made to fail here).
    Every 6-card Omaha hand fits a range now, so the limit is lowered to show the bound;
    a pattern counted past it with its repeats is refused at the real limits."""
    from evaluator import listing, ranges

    def no_listing(*args):
        raise AssertionError("listed a pattern that should be refused first")

    monkeypatch.setattr(listing, "_subset_masks", no_listing)
    with pytest.raises(RangeError, match="122,151,120 omaha6 hands counting") as info:
        Range("x*****", "omaha6")                 # counted with repeats: past 42,000,000
    assert "21,000,000" in str(info.value)
    monkeypatch.setattr(listing, "RANGE_LIMIT", 1_000_000)
    monkeypatch.setattr(listing, "LISTING_LIMIT", 2_000_000)
    monkeypatch.setattr(ranges, "RANGE_LIMIT", 1_000_000)
    for text, game in [("******", "omaha6"), ("A*****", "omaha6"), ("random", "omaha6"),
                       ("any", "omaha6"), ("*", "omaha6"), ("AsAhAdAcKsKh,******", "omaha6")]:
        with pytest.raises(RangeError, match="too many hands") as info:
            Range(text, game)
        assert "1,000,000" in str(info.value)


def test_unions_beyond_the_limit_are_refused(monkeypatch):
    from evaluator import listing, ranges

    monkeypatch.setattr(listing, "RANGE_LIMIT", 3_000_000)
    monkeypatch.setattr(ranges, "RANGE_LIMIT", 3_000_000)
    with pytest.raises(RangeError, match="more than 3,000,000"):
        Range("AA****,KK****,QQ****,JJ****", "omaha6")
    assert len(Range("random", "omaha5")) == 2_598_960


@pytest.mark.slow
def test_every_six_card_omaha_range_is_held():
    """A range holds every 6-card Omaha hand (20,358,520: 6 bytes of cards and 8 of
    weight each, 285 MB), so the game's own 40% is a range like any other."""
    assert len(Range("40%", "omaha6")) == 8_143_410
    assert len(Range("AA****,KK****,QQ****,JJ****", "omaha6")) == 4_734_856


def test_long_range_texts_parse_quickly():
    """100,000 characters of parts: repeats are listed once, distinct hands each once."""
    assert len(Range("AKs," * 25_000 + "QQ")) == 10
    hands = [format_cards(c, sep="") for c in Range("random", "omaha").combos[:12_000]]
    text = ",".join(hands)
    assert len(text) > 100_000
    r = Range(text, "omaha")
    assert len(r) == 12_000 and r.weights.max() == 1.0
    # the same hands written many ways are listed each time: the work is bounded
    variants = ",".join(["AA", "AA*", "AA**", "AA***", "AA****", "A*A", "A*A*", "*AA", "A[A]",
                         "[A]A", "A**A", "*A*A"] * 3)  # no space inside a hand: 'A A' is refused
    with pytest.raises(RangeError, match="lists more than 42,000,000 hands"):
        Range(variants, "omaha6")
    with pytest.raises(RangeError, match=r"bad range part 'AKx'") as info:
        Range("AKs," * 25_000 + "AKx")
    assert len(str(info.value)) < 300                        # the text is abbreviated


def test_ranges_from_arrays_scale_their_weights_too():
    from evaluator import game
    combos = np.array([[51, 50], [47, 46]], np.uint8)
    r = Range._from_combos(game("holdem"), "AsAh,KsKh", combos, [1e308, 2e307])
    assert r.weights.tolist() == pytest.approx([0.2, 1.0])   # rows in increasing order
    assert Range._from_combos(game("holdem"), "x", combos).weights.tolist() == [1.0, 1.0]
    for bad in ([1.0, float("inf")], [1.0, 0.0], [1.0, -1.0]):
        with pytest.raises(RangeError, match="positive finite"):
            Range._from_combos(game("holdem"), "x", combos, bad)


@pytest.mark.parametrize("pattern", ["Ax*", "xxy", "AxKx", "xyz", "Axy", "xx", "Asx", "KK",
                                     "*s*", "xKx", "AxAy", "*xx", "xxx", "A"])
def test_patterns_match_a_brute_force(pattern):
    """Equal entries choosing together and the variables' suit bindings list exactly the
    hands that fit, checked against every three-card hand (the brute-force matcher of
    tests/reference.py; tests/test_omaha_ranges.py checks the whole syntax)."""
    from itertools import combinations

    import reference
    elements, macros = reference.parse_range_pattern(pattern, 3)
    expect = [h for h in combinations(range(52), 3)
              if reference.pattern_matches(elements, macros, h)]
    assert Range(pattern, "tahoe").combos.tolist() == [list(h) for h in expect]


def test_holdem_weights_after_a_colon_stay_unless_they_read_as_a_class():
    """``AKs:2`` is weight 2 as before (``2`` is no hold'em hand); ``AKs:22`` and
    ``AKs:98`` are also the classes 22 and 98, and are refused as ambiguous, as in Omaha."""
    r = Range("AKs:2,QQ")
    assert sorted(set(r.weights.tolist())) == [0.5, 1.0] and len(r) == 10
    assert len(Range("AKs:222,QQ")) == 10 and len(Range("AKs:22.0,QQ")) == 10
    assert Range("AKs@2200,QQ") == Range("AKs:22.0,QQ")
    for text, other in (("AKs:22", "'AKs:22-22'"), ("AKs:98", "'AKs:98-98'"),
                        ("QQ+:33", "'QQ+:33-33'")):
        with pytest.raises(RangeError, match="is ambiguous") as info:
            Range(text)
        assert other in str(info.value) and f"'{text}.0'" in str(info.value)
    assert len(Range("22+:33-33")) == 6                       # the intersection, spelled out


def test_a_space_inside_a_holdem_hand_is_refused_suggesting_a_comma():
    with pytest.raises(RangeError, match=r"bad range part 'AA KK'.*a comma does \('AA,KK'\)"):
        Range("AA KK")
    assert len(Range("Ah Kh")) == 1 and len(Range(" AA ")) == 6   # cards may be spaced
