"""The canonical combo order, ranges as vectors, and every combo against a range at once
(``combo_equity``, ``call_matrix``, ``showdown_values``), each against a brute force."""
import math

import numpy as np
import pytest

import evaluator as ev
from evaluator.cards import format_cards, parse_cards
from evaluator.errors import ArgumentTypeError, CardError, EvaluatorError, RangeError
from evaluator.vectors import combo_sums

import reference as ref

HOLDEM = ev.combos("holdem")


def _value(hand, board) -> int:
    """The package's value of a hand, whose order the exhaustive tests prove right."""
    return ev.evaluate("holdem", list(hand), list(board)).value


def _short_value(hand, board) -> int:
    return ev.evaluate("short_deck", list(hand), list(board)).value


def _random_weights(rng, n, share=0.4):
    w = rng.random(n) * (rng.random(n) < share)
    w[rng.integers(n)] = 1.0
    return w


# --- the order --------------------------------------------------------------------------

@pytest.mark.parametrize("game, deck, hole", [("holdem", range(52), 2),
                                              ("short_deck", range(16, 52), 2),
                                              ("teen_patti", range(52), 3)])
def test_the_order_is_colex_of_card_ids(game, deck, hole):
    want = np.array(ref.colex_combos(deck, hole), np.uint8)
    got = ev.combos(game)
    assert got.dtype == np.uint8 and not got.flags.writeable
    assert np.array_equal(got, want)
    assert np.array_equal(ev.combo_index(game, got), np.arange(len(want)))


def test_the_named_corners_of_the_holdem_order():
    got = ev.combo_index("holdem", ["2d2c", "2c2d", "2h2c", "3c2c", "AsAh"])
    assert got.tolist() == [0, 0, 1, 6, 1325]
    lo, hi = parse_cards("4h9s").tolist()
    assert int(ev.combo_index("holdem", "9s4h")[0]) == hi * (hi - 1) // 2 + lo
    assert len(ev.combos("short_deck")) == 630 and ev.combo_index("short_deck", "7d6c")[0] == 10
    assert len(ev.combos("omaha")) == math.comb(52, 4)
    assert int(ev.combo_index("omaha", "AsAhAdAc")[0]) == math.comb(52, 4) - 1


@pytest.mark.parametrize("hands, game, match", [
    ("AsKsQs", "holdem", "holdem hands have 2 cards, got 3"),
    ("As", "holdem", "got 1"),
    ("AsXx", "holdem", "Xx"),
    ("AsAs", "holdem", "duplicate card 'As'"),
    ("5s6s", "short_deck", "'5s'.*not in the short_deck deck"),
    (np.array([[0, 60]]), "holdem", "card id 60"),
    (np.array([[0, 1, 2]]), "holdem", "rows of 3"),
])
def test_bad_hands_are_named(hands, game, match):
    with pytest.raises((CardError, EvaluatorError), match=match):
        ev.combo_index(game, hands)
    with pytest.raises(ArgumentTypeError, match="integer array"):
        ev.combo_index("holdem", np.zeros((1, 2)))


def test_six_card_omaha_has_a_combo_order_too():
    cards = ev.combos("omaha6")
    assert cards.shape == (20_358_520, 6) and not cards.flags.writeable
    rows = [0, 1, 12_345_678, 20_358_519]
    assert ev.combo_index("omaha6", cards[rows]).tolist() == rows
    assert format_cards(cards[-1][::-1], sep="") == "AsAhAdAcKsKh"


# --- ranges as vectors ------------------------------------------------------------------

@pytest.mark.parametrize("text, game", [("QQ+,AKs,72o:0.3", "holdem"), ("15%", "holdem"),
                                        ("random", "short_deck"), ("AA$ds:0.5,KK**", "omaha")])
def test_a_range_vector_round_trips(text, game):
    r = ev.Range(text, game)
    v = r.vector()
    assert v.shape == (len(ev.combos(game)),) and not v.flags.writeable
    assert np.count_nonzero(v) == len(r) and v.max() == 1.0
    back = ev.Range.from_vector(v, game)
    assert np.array_equal(back.combos, r.combos) and np.array_equal(back.weights, r.weights)
    assert ev.Range(back.text, game) == back            # its text reads back the same


def test_from_vector_keeps_relative_weights_of_any_size():
    rng = np.random.default_rng(5)
    for scale in (1e-300, 1.0, 1e300):
        w = _random_weights(rng, 1326) * scale
        r = ev.Range.from_vector(w)
        assert np.allclose(r.vector(), w / w.max(), rtol=1e-14, atol=0)


@pytest.mark.parametrize("weights, match", [
    (np.ones(1325), r"shape \(1326,\)"),
    (np.ones((2, 1326)), r"shape \(1326,\)"),
    (np.r_[-1.0, np.ones(1325)], "non-negative, got -1.0 at 0"),
    (np.r_[np.ones(7), np.nan, np.ones(1318)], "got nan at 7"),
    (np.r_[np.ones(3), np.inf, np.ones(1322)], "got inf at 3"),
    (np.zeros(1326), "no combo with a positive weight"),
    (np.array(["a"] * 1326), "must be numbers"),
])
def test_bad_vectors_are_refused_naming_the_entry(weights, match):
    with pytest.raises((EvaluatorError, ArgumentTypeError), match=match):
        ev.Range.from_vector(weights)


# --- combo_equity -----------------------------------------------------------------------

RIVERS = ["2c7d9hKsAd", "AsKsQsJs2h", "5c5d5h9s9c"]


@pytest.mark.parametrize("board", RIVERS)
def test_river_combo_equity_is_the_brute_force_for_every_combo(board):
    rng = np.random.default_rng(sum(parse_cards(board).tolist()))
    w = _random_weights(rng, 1326)
    b = parse_cards(board).tolist()
    want = ref.pairwise_combo_equity(HOLDEM.tolist(), w, b, [], range(52),
                                     lambda h, full: ref.best_strength(list(h) + full))
    got = ev.combo_equity("holdem", w, board)
    assert got.shape == (1326,) and np.array_equal(np.isnan(got), np.isnan(want))
    assert np.allclose(got, want, rtol=0, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("board, dead", [("2c7d9hKs", ""), ("AsKsQs5s", "2h"),
                                         ("8c8d8h8s", "")])
@pytest.mark.slow
def test_turn_combo_equity_is_the_brute_force_for_every_combo(board, dead):
    rng = np.random.default_rng(len(board) + len(dead))
    w = _random_weights(rng, 1326, 0.2)
    want = ref.pairwise_combo_equity(HOLDEM.tolist(), w, parse_cards(board).tolist(),
                                     parse_cards(dead).tolist(), range(52), _value)
    got = ev.combo_equity("holdem", w, board, dead)
    assert np.allclose(got, want, rtol=0, atol=1e-12, equal_nan=True)


@pytest.mark.slow
def test_flop_combo_equity_is_the_brute_force():
    """With 26 dead cards, so that the pairwise reference walks its 253 runouts in
    seconds; the flop without dead cards is checked against equity() below."""
    rng = np.random.default_rng(11)
    w = _random_weights(rng, 1326, 0.5)
    board = parse_cards("Th7h2c").tolist()
    dead = rng.choice([c for c in range(52) if c not in board], 26, replace=False).tolist()
    heroes = [i for i, h in enumerate(HOLDEM.tolist()) if not set(h) & set(board + dead)]
    want = ref.pairwise_combo_equity(HOLDEM.tolist(), w, board, dead, range(52), _value,
                                     heroes=heroes)
    got = ev.combo_equity("holdem", w, "Th7h2c", dead)
    assert np.isnan(np.delete(got, heroes)).all()
    assert np.allclose(got[heroes], want, rtol=0, atol=1e-12, equal_nan=True)


@pytest.mark.slow
def test_short_deck_combo_equity_is_the_brute_force():
    cards = ev.combos("short_deck")
    rng = np.random.default_rng(3)
    w = _random_weights(rng, len(cards), 0.5)
    for board in ("6c7d8h9sKd", "AsKsQs6h"):
        b = parse_cards(board).tolist()
        want = ref.pairwise_combo_equity(cards.tolist(), w, b, [], range(16, 52),
                                         _short_value)
        got = ev.combo_equity("short_deck", w, board)
        assert np.allclose(got, want, rtol=0, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("hands, board, dead", [
    (["QQ+,AKs", "22+,A2s+,KTo+:0.5"], "2c7d9h", ""),
    (["AhKh,AA:0.3", "random"], "Ts9s8c3d", "2s"),
    (["15%", "JJ-99,AQo:0.7"], "Ts9s8c3dKh", ""),
])
def test_the_weighted_mean_is_range_against_range_equity(hands, board, dead):
    """Each combo weighed by its weight times its live opposing weight (the deals it is
    in): the mean is equity() of the two ranges, exactly enumerated."""
    mine, theirs = ev.Range(hands[0]), ev.Range(hands[1])
    eq = ev.combo_equity("holdem", theirs, board, dead)
    bits = np.array([sum(1 << int(c) for c in row) for row in HOLDEM.tolist()], object)
    known = sum(1 << int(c) for c in np.r_[parse_cards(board), parse_cards(dead)].tolist())
    v_mine, v_theirs = mine.vector(), theirs.vector()
    live = np.array([not (b & known) for b in bits])
    clash = (HOLDEM[:, None, :, None] == HOLDEM[None, :, None, :]).any(axis=(2, 3))
    meets = ((~clash) & live[None, :]) @ (v_theirs * live)
    deals = v_mine * live * meets
    keep = deals > 0
    mean = float((eq[keep] * deals[keep]).sum() / deals[keep].sum())
    whole = ev.equity("holdem", hands, board, dead)
    assert whole.exact and mean == pytest.approx(whole.players[0].equity, abs=1e-12)


def test_the_answer_does_not_depend_on_threads_or_the_way_the_range_is_given():
    text = "QQ+,AKs:0.5,T9s"
    one = ev.combo_equity("holdem", text, "Qh8d3c", threads=1)
    assert np.array_equal(one, ev.combo_equity("holdem", text, "Qh8d3c", threads=2), equal_nan=True)
    assert np.array_equal(one, ev.combo_equity("holdem", ev.Range(text), "Qh8d3c"), equal_nan=True)
    v = ev.Range(text).vector()
    for scale in (2.0 ** 900, 2.0 ** -1070, 2.0 ** 1020):   # powers of two: the same bits
        assert np.array_equal(one, ev.combo_equity("holdem", v * scale, "Qh8d3c"), equal_nan=True)
    for scale in (1e300, 3.0, 1e-300):                      # within rounding
        assert np.allclose(one, ev.combo_equity("holdem", v * scale, "Qh8d3c"), rtol=1e-14, atol=0,
                           equal_nan=True)


def test_integer_weights_give_integer_counts():
    """Weights are summed as given (no division by the largest): whole-number weights
    leave whole numbers of deals, half-integers for ties, exactly."""
    rng = np.random.default_rng(5)
    w = rng.integers(0, 4, 1326).astype(float)
    num, den, unit = combo_sums("holdem", w, "Qh8d3c")
    assert unit == 1.0
    assert np.array_equal(den, np.round(den)) and np.array_equal(2 * num, np.round(2 * num))


def test_blocked_and_unopposed_hands_are_nan():
    eq = ev.combo_equity("holdem", "KdKc", "2c7d9hKsAd", "Qc")
    holds_board = ev.combo_index("holdem", "2c3c")[0]
    holds_dead = ev.combo_index("holdem", "Qc3h")[0]
    blocked = ev.combo_index("holdem", "Kd3h")[0]             # its only opponent shares its king
    assert np.isnan(eq[[holds_board, holds_dead, blocked]]).all()
    i = ev.combo_index("holdem", ["AsAh", "Kh3h"])
    assert eq[i[0]] == 1.0 and eq[i[1]] == 0.0
    assert np.count_nonzero(~np.isnan(eq)) == 1035 - 89     # clear of the 6 known cards and KdKc


@pytest.mark.parametrize("call, match", [
    (lambda: ev.combo_equity("holdem", "AA", "2c7d"), "board of 3 or 4 or 5 cards, got 2"),
    (lambda: ev.combo_equity("holdem", "AA", "2c7d9h", "2c"), "duplicate card '2c'"),
    (lambda: ev.combo_equity("holdem", "AsAh", "As7d9h"), "no live combo"),
    (lambda: ev.combo_equity("holdem", np.ones(1000), "2c7d9h"), r"shape \(1326,\)"),
    (lambda: ev.combo_equity("holdem", np.full(1326, -1.0), "2c7d9h"), "non-negative"),
    (lambda: ev.combo_equity("holdem", np.zeros(1326), "2c7d9h"), "no combo with a positive"),
    (lambda: ev.combo_equity("omaha5_8", "AA", "2c7d"), "needs a board of 3 or 4 or 5 cards"),
    (lambda: ev.combo_equity("omaha6", "AA****", "2c7d9h"), "needs a board of 4 or 5 cards"),
    (lambda: ev.combo_equity(3, "AA", "2c7d9h"), "game"),
    (lambda: ev.combo_equity("short_deck", "AA", "5c7d9h"), "not in the short_deck"),
])
def test_bad_calls_are_one_line_errors(call, match):
    with pytest.raises((EvaluatorError, RangeError, CardError, ArgumentTypeError),
                       match=match):
        call()


# --- call matrices and showdown values -----------------------------------------------

def test_the_call_matrix_is_the_brute_force():
    board, dead = "Kc9h6s3d2c", "Ah"
    want = np.array(ref.pairwise_call_matrix(HOLDEM.tolist(), parse_cards(board).tolist(),
                                             parse_cards(dead).tolist(), _value), np.int8)
    got = ev.call_matrix("holdem", board, dead)
    assert got.dtype == np.int8 and np.array_equal(got, want)
    assert np.array_equal(got, -got.T)


def test_showdown_values_are_the_call_matrix_times_the_reach():
    board = "JhTh4c4s9d"
    matrix = ev.call_matrix("holdem", board).astype(np.float64)
    rng = np.random.default_rng(8)
    reach = rng.random((150, 1326)) * (rng.random((150, 1326)) < 0.5)
    reach[3] = 0.0                                  # an empty vector gives zeros
    got = ev.showdown_values("holdem", reach, board)
    assert got.shape == reach.shape
    assert np.allclose(got, reach @ matrix.T, rtol=0, atol=1e-10)
    one = ev.showdown_values("holdem", reach[7], board)
    assert one.shape == (1326,) and np.allclose(one, matrix @ reach[7], rtol=0, atol=1e-10)
    big = ev.showdown_values("holdem", reach[7] * 1e300, board)
    assert np.allclose(big / 1e300, one, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: ev.call_matrix("holdem", "2c7d9hKs"), "needs a board of 5 cards, got 4"),
    (lambda: ev.showdown_values("holdem", np.ones(1326), "2c7d9h"), "needs a board of 5 cards"),
    (lambda: ev.showdown_values("holdem", np.ones((2, 3, 1326)), "2c7d9hKsAd"), "shape"),
    (lambda: ev.showdown_values("holdem", np.ones(1327), "2c7d9hKsAd"), "shape"),
    (lambda: ev.showdown_values("holdem", np.full(1326, np.nan), "2c7d9hKsAd"), "got nan at 0"),
    (lambda: ev.showdown_values("holdem", "AA", "2c7d9hKsAd"), "reach"),
    (lambda: ev.call_matrix("omaha8", "2c7d9hKsAd"), "270,725 x 270,725 entries"),
])
def test_bad_river_calls_are_refused(call, match):
    with pytest.raises((EvaluatorError, CardError, ArgumentTypeError), match=match):
        call()


@pytest.mark.parametrize("game, hands, board", [
    ("holdem", ["random", "random"], "2c7d9hKsAd"),
    ("holdem", ["QQ+,AKs:0.5", "22+,A2s+:0.3"], "Ts9s8c3d"),
    ("short_deck", ["AA,KK:0.4", "QQ+,AKs"], "6c7d8h"),
    # Omaha's sweep reads only the first range's hands (the others' sums are never read)
    ("omaha", ["AA$ds", "KK**,QQ**:0.5"], "2c7d9hKsAd"),
    ("omaha8", ["A2**", "KK**:0.5,A3**"], "2c7d4hKs"),
])
def test_the_distribution_is_the_combo_equities(game, hands, board):
    dist = ev.equity_distribution(game, *hands, board)
    every = ev.combo_equity(game, hands[1], board)
    assert np.allclose(dist.equities, every[ev.combo_index(game, dist.combos)], rtol=1e-15, atol=0)
    whole = ev.equity(game, hands, board).players[0].equity
    assert dist.mean == pytest.approx(whole, abs=1e-12)


# --- four-card Omaha ---------------------------------------------------------------------

OMAHA = None


def _omaha_spot(board: str, live_cards: int, seed: int):
    """A board and enough dead cards to leave ``live_cards`` in the deck: the pairwise
    reference then walks every pair of live hands in a second."""
    global OMAHA
    if OMAHA is None:
        OMAHA = ev.combos("omaha")
    rng = np.random.default_rng(seed)
    b = parse_cards(board).tolist()
    rest = [c for c in range(52) if c not in b]
    dead = sorted(rng.choice(rest, len(rest) - live_cards, replace=False).tolist())
    bits = np.array([sum(1 << int(c) for c in row) for row in OMAHA.tolist()], object)
    known = sum(1 << c for c in b + dead)
    live = [i for i, x in enumerate(bits) if not x & known]
    w = np.zeros(len(OMAHA))
    w[live] = rng.random(len(live)) * (rng.random(len(live)) < 0.5)
    w[live[0]] = 1.0
    return b, dead, live, w


def _omaha_value(hand, full) -> int:
    return ev.evaluate("omaha", list(hand), list(full)).value


@pytest.mark.parametrize("board, live_cards", [("Ah7d2c9sTs", 14), ("KsQsJs4s4d", 14),
                                               ("8c8d5h5s", 13)])
@pytest.mark.slow
def test_omaha_combo_equity_is_the_brute_force(board, live_cards):
    b, dead, live, w = _omaha_spot(board, live_cards, len(board) + live_cards)
    hands = OMAHA[live].tolist()
    want = ref.pairwise_combo_equity(hands, w[live], b, dead, range(52), _omaha_value)
    got = ev.combo_equity("omaha", w, board, dead)
    assert np.isnan(np.delete(got, live)).all()
    assert np.allclose(got[live], want, rtol=0, atol=1e-12, equal_nan=True)


@pytest.mark.slow
def test_omaha_showdown_values_are_the_call_matrix_times_the_reach():
    b, dead, live, w = _omaha_spot("Jh9h4c3s2h", 15, 4)
    hands = OMAHA[live].tolist()
    matrix = np.array(ref.pairwise_call_matrix(hands, b, dead, _omaha_value), np.float64)
    rng = np.random.default_rng(9)
    reach = np.zeros((3, len(OMAHA)))
    reach[:, live] = rng.random((3, len(live)))
    got = ev.showdown_values("omaha", reach, b, dead)
    assert np.allclose(got[:, live], reach[:, live] @ matrix.T, rtol=0, atol=1e-9)
    assert not np.delete(got, live, axis=1).any()


@pytest.mark.parametrize("board, against", [("Ah7d2c9sTs", "AA,KK"), ("Ah7d2c9s", "15%"),
                                            ("Kc8h8d3s", "RR$ds:0.5,AK**")])
@pytest.mark.slow
def test_omaha_entries_are_equity_of_the_hand_against_the_range(board, against):
    eq = ev.combo_equity("omaha", against, board)
    for hand in ("QsJs8d8c", "KdKc3h4h", "AsKs7h2d", "JhTh6c5c"):
        if set(parse_cards(hand).tolist()) & set(parse_cards(board).tolist()):
            continue
        want = ev.equity("omaha", [hand, against], board).players[0].equity
        assert eq[ev.combo_index("omaha", hand)[0]] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: ev.combo_equity("omaha", "AA", "Ah7d"), "board of 3 or 4 or 5 cards, got 2"),
    (lambda: ev.call_matrix("omaha", "Ah7d2c9sTs"), "270,725 x 270,725"),
    (lambda: ev.combo_equity("omaha6_8", "AA", "Ah7d2c"), "needs a board of 4 or 5 cards, got 3"),
    (lambda: ev.combo_equity("omaha", np.ones(1326), "Ah7d2c9s"), r"shape \(270725,\)"),
])
def test_omaha_bad_calls_are_one_line_errors(call, match):
    with pytest.raises((EvaluatorError, CardError), match=match):
        call()


@pytest.mark.parametrize("game, board", [("omaha", "2c7d9hKsAd"), ("omaha8", "2c7d4hKsAd"),
                                         ("holdem", "2c7d9hKs")])
def test_combo_sums_of_wanted_combos_are_the_full_sums_and_the_rest_nan(game, board):
    from evaluator.vectors import combo_sums
    against = ev.Range("40%" if game != "holdem" else "22+,A2s+", game).vector()
    wanted = ev.Range("AA**" if game != "holdem" else "AKs", game).vector()
    num, den, unit = combo_sums(game, against, board)
    some, some_den, some_unit = combo_sums(game, against, board, wanted=wanted)
    picked = wanted != 0
    assert (some[picked] == num[picked]).all() and np.isnan(some[~picked]).all()
    assert (some_den == den).all() and some_unit == unit
    with pytest.raises(EvaluatorError, match=r"wanted must have shape \(\d+,\)"):
        combo_sums(game, against, board, wanted=np.ones(5))


def test_a_five_card_omaha_distribution_on_a_flop_takes_the_vectors(monkeypatch):
    """5-card Omaha's vectors start on the turn; on a flop a distribution takes them on
    its 1,176 runouts where the estimate allows and it is quicker than an equity() a
    combo (10% against 40%: about 40 s, where those were estimated at a day and refused):
    each combo's exact equity."""
    import evaluator.studies.distribution as distribution
    import evaluator.vectors as vectors
    swept = []
    real = vectors.combo_sums
    monkeypatch.setattr(vectors, "combo_sums",
                        lambda *a, **k: swept.append(k["streets"]) or real(*a, **k))
    # narrow ranges, asking each combo made to look slow: the vectors answer in seconds
    monkeypatch.setattr(distribution, "_asked_seconds", lambda *a: 1e9)
    first, second = "AAKK*,QQJJ*:0.5", "T9876,KKQQ*"
    dist = ev.equity_distribution("omaha5", first, second, "2c7d9h")
    assert swept and 3 in swept[0]
    for k in range(0, len(dist.combos), max(1, len(dist.combos) // 4)):
        one = ev.equity("omaha5", [dist.combos[k], second], "2c7d9h", exact=True)
        assert dist.equities[k] == pytest.approx(one.players[0].equity, abs=1e-12)
    whole = ev.equity("omaha5", [first, second], "2c7d9h", exact=True)
    assert dist.mean == pytest.approx(whole.players[0].equity, abs=1e-12)
