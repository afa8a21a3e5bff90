"""The generic (ProPokerTools-style) range syntax of Omaha and the other non-hold'em games,
checked against the brute-force matcher of ``tests/reference.py``."""
from __future__ import annotations

import itertools
import random
import re

import numpy as np
import pytest

from evaluator import Range, equity, parse_cards
from evaluator.errors import CardError, RangeError
from evaluator.rankings import PERMUTATIONS

import reference

FOUR_CARD = list(itertools.combinations(range(52), 4))


def _hands(r: Range) -> set[tuple[int, ...]]:
    return {tuple(c) for c in r.combos.tolist()}


def _reference(text: str, hole: int, hands) -> set[tuple[int, ...]]:
    """The hands matching a part of patterns joined by ':' and '!', left to right."""
    pieces = re.split(r"([:!])", text)
    out = _reference_term(pieces[0], hole, hands)
    for op, term in zip(pieces[1::2], pieces[2::2]):
        other = _reference_term(term, hole, out)
        out = out & other if op == ":" else out - other
    return out


def _reference_term(text: str, hole: int, hands) -> set[tuple[int, ...]]:
    elements, macros = reference.parse_range_pattern(text, hole)
    return {h for h in hands if reference.pattern_matches(elements, macros, h)}


@pytest.mark.parametrize("text, count", [("AA", 6_961), ("RROO", 2_808), ("AA$ds", 864),
                                         ("KK!KKK:$r", 864), ("AA**", 6_961),
                                         ("AxAyxy", 864)])
def test_the_counts_players_quote(text, count):
    assert len(Range(text, "omaha")) == count


# each construct alone, and several together: the ones that combine constructs over every
# 4-card hand, the single constructs over every 7th (a fixed stride through the colex
# order, which meets every rank and suit pattern)
@pytest.mark.parametrize("text, stride", [
    ("A", 7), ("RROO", 1), ("[K-T][K-T]", 7), ("[AK8]s", 7), ("xxyy", 1), ("AxKx", 7),
    ("s*h", 7), ("AA$ds", 7), ("$ss", 7), ("$r", 7), ("RO$np", 7), ("[Q-9]R$ds", 1),
    ("AsRxRy", 1), ("KK!KKK:$r", 1),
])
@pytest.mark.slow
def test_every_four_card_hand_against_the_brute_force(text, stride):
    hands = FOUR_CARD[::stride]
    listed = _hands(Range(text, "omaha"))
    assert listed & set(hands) == _reference(text, 4, hands), text


@pytest.mark.parametrize("game, hole", [("omaha5", 5), ("omaha6", 6)])
@pytest.mark.parametrize("text", ["AA$ds", "RROO", "KK!KKK", "[K-T]s[K-T]s", "AxKxQy$np",
                                  "xxyy", "$ds"])
@pytest.mark.slow
def test_five_and_six_card_hands_against_the_brute_force(game, hole, text):
    """Membership of random hands (and of hands built to match) against the brute force."""
    if (game, text) in (("omaha6", "xxyy"), ("omaha6", "$ds")):
        pytest.skip("lists millions of hands for 10-30 s: test_ranges' every six-card "
                    "Omaha range covers a listing that wide")
    r = Range(text, game)
    rng = random.Random(hole * 1000 + len(text))
    sample = [tuple(sorted(rng.sample(range(52), hole))) for _ in range(600)]
    # millions of 6-card hands: membership read off their card masks, not a set of tuples
    picked = r.combos[rng.sample(range(len(r)), min(200, len(r)))].tolist()
    sample += [tuple(sorted(h)) for h in picked]
    masks = np.array([sum(1 << c for c in h) for h in sample], np.uint64)
    inside = np.isin(masks, r.masks())
    expect = _reference(text, hole, sample)
    assert {h for h, yes in zip(sample, inside.tolist()) if yes} == expect


def _set_of(text: str, game: str = "omaha") -> set[tuple[int, ...]]:
    return _hands(Range(text, game))


@pytest.mark.parametrize("text, expect", [
    ("AA:$ds", lambda s: s("AA") & s("$ds")),
    ("KK!KKK", lambda s: s("KK") - s("KKK")),
    ("KK!KKK:$r", lambda s: (s("KK") - s("KKK")) & s("$r")),
    ("KK:$r!KKK", lambda s: (s("KK") & s("$r")) - s("KKK")),
    ("RR!RROO:$ss", lambda s: (s("RR") - s("RROO")) & s("$ss")),
    ("AA,KK!KKK", lambda s: s("AA") | (s("KK") - s("KKK"))),
])
def test_intersection_and_exclusion_go_left_to_right(text, expect):
    assert _set_of(text) == expect(_set_of)


@pytest.mark.parametrize("text", ["AxAyxy", "xxyy", "RxOxNy", "AxKyQzJw", "$ds", "RROO$ss"])
@pytest.mark.slow
def test_suit_variable_patterns_do_not_depend_on_suit_names(text):
    combos = Range(text, "omaha").combos

    def keys(rows):                                 # each hand as one sorted integer
        rows = np.sort(rows, axis=1).astype(np.int64)
        return np.sort((rows[:, 0] << 18) | (rows[:, 1] << 12) | (rows[:, 2] << 6) | rows[:, 3])
    listed = keys(combos)
    for perm in PERMUTATIONS:
        renamed = 4 * (combos >> 2) + np.array(perm, np.uint8)[combos & 3]
        assert np.array_equal(keys(renamed), listed), perm


def test_weights_on_generic_parts():
    r = Range("AA$ds:0.5,KK!KKK:$r", "omaha")
    weights = dict(zip(map(tuple, r.combos.tolist()), r.weights.tolist()))
    aa, kk = _set_of("AA$ds"), _set_of("KK!KKK:$r")
    assert {weights[h] for h in aa} == {0.5} and {weights[h] for h in kk} == {1.0}
    at = Range("AA$ds@50,KK!KKK:$r", "omaha")
    assert at == r


@pytest.mark.parametrize("text, message", [
    ("AA$dx", "bad range part 'AA$dx': unknown macro '$dx'"),
    ("[K-T**", "has no closing ']'"),
    ("[T-K]**", "ends swapped"),
    ("AxAx", "2 different cards that are each 'Ax', and there is only 1"),
    ("AA$dsx", "unknown macro '$dsx'"),
    ("KsKx", None),                       # x cannot be s: a valid pattern
    ("RRRRR", "more than 4 cards"),
    ("AAA$ds", "matches no hand"),
    ("AA:$xx", "unknown macro '$xx'"),
    ("AA!", "empty term"),
    ("AA$dsKK", "after a macro"),
    ("A%", "is not a card pattern"),
    ("RSTUVWXYZBCDEF", "more than 4 cards"),
])
@pytest.mark.slow
def test_errors_name_the_token(text, message):
    if message is None:
        assert _hands(Range(text, "omaha")) == _reference(text, 4, FOUR_CARD)
        return
    with pytest.raises(RangeError, match=message.replace("$", r"\$").replace("[", r"\[")):
        Range(text, "omaha")


def test_rainbow_needs_four_cards_or_fewer():
    with pytest.raises(RangeError, match=r"no 5-card hand passes \$r"):
        Range("AA$r", "omaha5")


@pytest.mark.parametrize("game", ["omaha", "omaha5", "omaha8", "tahoe", "the", "teen_patti"])
@pytest.mark.slow
def test_percentages_take_the_shipped_ranking(game):
    top = Range("15%", game)
    share = len(top) / {3: 22_100, 4: 270_725, 5: 2_598_960}[top.combos.shape[1]]
    assert abs(share - 0.15) < 0.01
    assert _hands(Range("10%", game)) <= _hands(top)
    assert _hands(Range("10%-15%", game)) == _hands(top) - _hands(Range("10%", game))


def test_percentages_nest_in_set_operations():
    ds = _set_of("15%:$ds")
    assert ds == _set_of("15%") & _set_of("$ds")
    assert _set_of("20%!10%") == _set_of("10%-20%")
    assert _set_of("AA:15%") == _set_of("AA") & _set_of("15%")
    assert len(Range("15%:$ds", "omaha6")) > 0          # narrowed before listing


def test_the_rankings_put_aces_first_and_trash_last():
    for game in ("omaha", "omaha8", "omaha5", "tahoe", "the"):
        best = Range("0.2%", game)
        aces = [sum(c >> 2 == 12 for c in h) for h in best.combos.tolist()]
        assert np.mean(aces) >= 1.5 if game != "the" else True, game
        top_vs_bottom = equity(game, ["1%", "99%-100%"], trials=20_000, seed=2)
        assert top_vs_bottom.players[0].equity > 0.7, game
    assert Range("0.01%", "teen_patti") == Range("AAA", "teen_patti")       # trails first


def test_generic_ranges_work_in_equity():
    r = equity("omaha", ["AA$ds", "15%"], trials=20_000, seed=1)
    assert 0.6 < r.players[0].equity < 0.8


def test_two_weights_on_one_part_are_named_as_such():
    for text in ("AA:0.5:0.5", "AA:0.5@50"):
        with pytest.raises(RangeError, match="takes one weight"):
            Range(text, "omaha")


# --- ':' and a number: a weight, or the intersection with a pattern of ranks? ---------------

@pytest.mark.parametrize("text, game, weight, intersection", [
    ("AA:22", "omaha", "'AA:22.0' or 'AA@2200'", "'AA:22**'"),
    ("KK:99", "omaha", "'KK:99.0' or 'KK@9900'", "'KK:99**'"),
    ("AA:2", "omaha", "'AA:2.0' or 'AA@200'", "'AA:2***'"),
    ("AA:2345", "omaha", "'AA:2345.0' or 'AA@234500'", "'AA:[2]345'"),
    ("AA$ds:22", "omaha5", "'AA$ds:22.0' or 'AA$ds@2200'", "'AA$ds:22***'"),
    ("AA:22, KK", "omaha", "'AA:22.0'", "'AA:22**'"),
    ("AA: 22 ", "omaha", "'AA:22.0'", "'AA:22**'"),
    ("AAA:22", "teen_patti", "'AAA:22.0'", "'AAA:22*'"),
])
def test_a_number_that_is_also_a_pattern_is_refused_as_ambiguous(text, game, weight,
                                                                   intersection):
    """``AA:22`` was read as AA at weight 22, silently, though ``22`` is a pattern and
    ``:`` intersects: it is refused in one line saying how to write each meaning."""
    with pytest.raises(RangeError, match="is ambiguous") as info:
        Range(text, game)
    message = str(info.value)
    assert weight in message and intersection in message and "\n" not in message


def test_the_spellings_the_refusal_suggests_parse_as_they_say():
    aa, kk = _set_of("AA"), _set_of("KK")
    for weighted in ("AA:22.0,KK", "AA@2200,KK", "22.0(AA),KK"):
        r = Range(weighted, "omaha")
        weights = dict(zip(map(tuple, r.combos.tolist()), r.weights.tolist()))
        assert {weights[h] for h in aa - kk} == {1.0}      # AAKK keeps its last weight
        assert sorted({weights[h] for h in kk}) == [pytest.approx(1 / 22)]
    assert _set_of("AA:22**") == aa & _set_of("22")
    assert _set_of("2345:[2]345") == _set_of("2345")
    assert len(Range("AA:22***", "omaha5")) > 0


@pytest.mark.parametrize("text, game", [
    ("AA:0.5", "omaha"), ("AA:1", "omaha"), ("AA:10", "omaha"), ("AA:1e-3", "omaha"),
    ("AA:.5", "omaha"), ("AA:23456", "omaha"), ("AAA:2222", "teen_patti"),
])
def test_numbers_that_cannot_be_a_pattern_stay_weights(text, game):
    """``1`` and ``0`` are no ranks, and a number longer than the hole no pattern."""
    body = text.split(":")[0]
    r = Range(text + "," + "KK", game)
    assert len(r) == len(Range(body + ",KK", game))
    assert len(set(r.weights.tolist())) in (1, 2)


# --- written-out cards are padded with '*' like any pattern ---------------------------------

@pytest.mark.parametrize("text, game, padded", [
    ("AsKs", "omaha", "AsKs**"),            # was: "has 2 cards; omaha hands have 4"
    ("As Ks", "omaha", "AsKs**"),
    ("As", "omaha", "As***"),
    ("AsKsQd", "omaha", "AsKsQd*"),
    ("AsKs", "omaha5", "AsKs***"),
    ("AsKsQdJd", "omaha6", "AsKsQdJd**"),
    ("AsKs", "teen_patti", "AsKs*"),
    ("AsKs:$ds", "omaha", "AsKs**$ds"),
    ("AsAh!AsAhAd", "omaha", "AsAh**!AsAhAd*"),
])
def test_written_out_cards_shorter_than_the_hole_are_a_padded_pattern(text, game, padded):
    assert Range(text, game) == Range(padded, game)


def test_written_out_cards_of_a_whole_hand_stay_that_hand():
    assert Range("AsKsQdJd", "omaha").combos.tolist() == [list(parse_cards("QdJdKsAs")[
        np.argsort(parse_cards("QdJdKsAs"))])]
    assert len(Range("AsKs", "omaha")) == 1_225               # C(50, 2)
    with pytest.raises(RangeError, match="has 5 cards; omaha hands have 4"):
        Range("AsKsQdJdTc", "omaha")
    with pytest.raises(CardError, match="duplicate card 'As'"):
        Range("AsAs", "omaha")
    with pytest.raises(RangeError, match="has 1 cards; holdem hands have 2"):
        Range("As")                                          # hold'em has no padding


# --- a space inside a hand ------------------------------------------------------------------

@pytest.mark.parametrize("text, game, hands", [
    ("AA KK", "omaha", "'AA,KK'"),               # was: AAKK (36 hands), silently
    ("AK s", "omaha", "'AK,s'"),
    ("A A", "omaha5", "'A,A'"),
    ("AA KK QQ", "teen_patti", "'AA,KK,QQ'"),
    ("[K-T]x [K-T]x", "omaha", "'[K-T]x,[K-T]x'"),
    ("AA:KK QQ", "omaha", "'KK,QQ'"),
])
def test_a_space_inside_a_hand_is_refused_naming_the_part(text, game, hands):
    with pytest.raises(RangeError, match="a space inside the hand") as info:
        Range(text, game)
    assert f"bad range part {text!r}" in str(info.value)
    assert hands in str(info.value) and "comma" in str(info.value)
    assert info.value.token == text


@pytest.mark.parametrize("text, same_as", [
    (" AA ", "AA"), ("AA : KK", "AA:KK"), ("KK ! KKK : $r", "KK!KKK:$r"),
    ("[K - T][K-T]", "[K-T][K-T]"), ("AA $ds", "AA$ds"), ("As Ks Qd Jd", "AsKsQdJd"),
    ("AA , KK", "AA,KK"), ("AA$ds : 0.5", "AA$ds:0.5"),
])
def test_spaces_beside_operators_in_spans_and_between_cards_still_read(text, same_as):
    assert Range(text, "omaha") == Range(same_as, "omaha")


def test_large_ranges_take_the_kernels_row_paths_with_numpy_answers():
    """Past ``MANY_ROWS`` hands, card masks, card rows and the range's order come from
    ``kernels.rows``: the same arrays numpy's column forms give on the same hands."""
    from evaluator.combo_order import combo_bits, combo_index, combos
    from evaluator.kernels.rows import lex_order, take_rows
    from evaluator.listing import MANY_ROWS, card_masks, mask_rows
    rng = np.random.default_rng(7)
    rows = np.sort(np.argsort(rng.random((MANY_ROWS + 1_000, 52)), axis=1)[:, :5],
                   axis=1).astype(np.uint8)
    masks = card_masks(rows)
    by_columns = np.bitwise_or.reduce(np.uint64(1) << rows.astype(np.uint64), axis=1)
    assert np.array_equal(masks, by_columns)
    assert np.array_equal(mask_rows(masks, 5), rows)
    rows.flags.writeable = False                      # a range's combos are read-only
    order = np.empty(len(rows), np.int64)
    lex_order(rows, order)
    assert np.array_equal(order, np.lexsort(rows.T[::-1]))
    taken = np.empty_like(rows)
    take_rows(rows, order, taken)
    assert np.array_equal(taken, rows[order])
    # a range past the bound: its rows in increasing order, its vector where combo_index
    # puts each row (uint8 rows read without a copy to int64)
    r = Range("A:K", "omaha5")                   # 260,360 hands
    assert len(r) > MANY_ROWS
    assert np.array_equal(np.lexsort(r.combos.T[::-1]), np.arange(len(r)))
    index = combo_index("omaha5", r.combos)
    assert np.array_equal(index, combo_index("omaha5", r.combos.astype(np.int64)))
    assert np.array_equal(combos("omaha5")[index], r.combos)
    assert np.array_equal(np.flatnonzero(r.vector()), np.sort(index))
    deck = tuple(range(52))
    assert np.array_equal(combo_bits(deck, 5)[index], card_masks(r.combos))
