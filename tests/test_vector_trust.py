"""The per-combo layer never answers wrong: a refusal is never read as "no weight", a spot
no deal fits is refused instead of leaving memory unwritten, concentrated weights keep
every combo's digits, and plausible Omaha ranges are answered, not refused."""
import numpy as np
import pytest

import evaluator as ev
from evaluator.cards import format_cards, parse_cards
from evaluator.errors import CardError, NoDeal, RangeError
from evaluator.vectors import combo_sums, exact_share

OMAHA_TURN = "2c5dAd4h"


def _all_but(cards: str) -> str:
    keep = set(parse_cards(cards).tolist())
    return format_cards([c for c in range(52) if c not in keep])


@pytest.mark.slow
def test_an_omaha_runout_study_keeps_every_card_of_a_blocking_range():
    """'AA**,KsQsJsTs' leaves ~190 hands (three aces) clear of almost none of its weight:
    the vectors refused it as too concentrated, and the study read that as no weight,
    keeping 7 of 48 cards and 0.01% where equity() gives 4.14%."""
    hands = ["QQJJ", "AA**,KsQsJsTs"]
    study = ev.runout_study("omaha", hands, OMAHA_TURN, progress=False)
    assert len(study.rows) == 48
    want = ev.equity("omaha", hands, OMAHA_TURN, exact=True)
    assert study.equity()[0] == pytest.approx(want.players[0].equity, rel=1e-12)
    # each card's row is that river's exact equity
    for row in study.rows[::12]:
        r = ev.equity("omaha", hands, OMAHA_TURN + row["card"], exact=True)
        assert row["p1_equity"] == pytest.approx(r.players[0].equity, rel=1e-12)


@pytest.mark.slow
def test_weights_that_do_not_sum_exactly_are_still_answered_on_omaha():
    hands = ["QQJJ", "AA**:0.3,KsQsJsTs:0.7"]
    study = ev.runout_study("omaha", hands, OMAHA_TURN, progress=False)
    want = ev.equity("omaha", hands, OMAHA_TURN, exact=True)
    assert len(study.rows) == 48
    assert study.equity()[0] == pytest.approx(want.players[0].equity, rel=1e-9)


def test_a_refusal_on_one_card_stops_the_runout_study(monkeypatch):
    """Any refusal but NoDeal is the study's: it stops, naming it, instead of dropping
    the card (on the card-by-card path, which weights that do not sum exactly take)."""
    import evaluator.runout_vectors as runout_vectors
    import evaluator.vectors as vectors
    real = vectors.combo_sums
    monkeypatch.setattr(runout_vectors, "hero_totals", lambda *args: None)   # card by card

    def refuse_one(game, against, board, *args, **kw):
        if parse_cards(board).tolist()[-1] == parse_cards("Ks")[0]:
            raise RangeError("against's weights are too concentrated (test)", "x")
        return real(game, against, board, *args, **kw)
    monkeypatch.setattr(vectors, "combo_sums", refuse_one)
    with pytest.raises(RangeError, match="too concentrated"):
        ev.runout_study("omaha", ["QQJJ", "AA**"], OMAHA_TURN, progress=False)


def test_a_blocking_omaha_range_gets_combo_vectors_on_a_river():
    board = OMAHA_TURN + "9s"
    eq = ev.combo_equity("omaha", "AA**,KsQsJsTs", board)
    # the last holds the three aces left: clear of KsQsJsTs alone
    for hand in ("QhQcJdJc", "AhAsKdKc", "6s7s8s9h", "AhAsAc2d"):
        r = ev.equity("omaha", [hand, "AA**,KsQsJsTs"], board, exact=True)
        got = eq[ev.combo_index("omaha", hand)[0]]
        assert got == pytest.approx(r.players[0].equity, rel=1e-12), hand


@pytest.mark.parametrize("dead", [_all_but("2c7d9hQcQdQhQs"), _all_but("2c7d9h")])
def test_a_spot_no_deal_fits_is_refused_not_left_unwritten(dead):
    """Four cards left cannot deal two hands and a turn and river: combo_equity returned
    uninitialised memory (4.7e-310, 1.0 for a dead combo) and the distribution said
    'mean 0.00%'; with three left, 'n must be a non-negative integer'."""
    with pytest.raises((NoDeal, CardError), match="no deal is left|no runout is left"):
        ev.combo_equity("holdem", "random", "2c7d9h", dead)
    with pytest.raises((NoDeal, CardError), match="no deal|no runout|no live combo"):
        ev.equity_distribution("holdem", "random", "random", "2c7d9h", dead, progress=False)


def test_showdown_values_keep_each_combos_sign_under_a_concentrated_reach():
    """Reach 1 on AhAd and 1e-20 elsewhere: the combos AhAd blocks (and those that tie
    it) have values of 1e-18, which differences of sums of 1 lost: 63 signs wrong."""
    board = "2c7d9hKsQd"
    reach = np.full(1326, 1e-20)
    reach[ev.combo_index("holdem", "AhAd")[0]] = 1.0
    want = ev.call_matrix("holdem", board).astype(np.float64) @ reach
    got = ev.showdown_values("holdem", reach, board)
    assert (np.sign(got) == np.sign(want)).all()
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-300)
    # the same rows side by side (the blocked sweep)
    many = np.tile(reach, (40, 1))
    many[1] = ev.Range("QQ+").vector()
    got = ev.showdown_values("holdem", many, board)
    np.testing.assert_allclose(got[0], want, rtol=1e-9, atol=1e-300)
    assert (np.sign(got[39]) == np.sign(want)).all()


def test_showdown_values_of_no_rows_is_no_rows():
    out = ev.showdown_values("holdem", np.ones((0, 1326)), "2c7d9hKsQd")
    assert out.shape == (0, 1326)


def test_exact_share_knows_which_weights_sum_exactly():
    assert exact_share(np.array([1.0, 0.5, 0.25, 0.0]), 1176) == 0.0
    assert exact_share(np.array([1.0, 0.3]), 1) > 0
    assert exact_share(np.array([1.0, 1e-20]), 1) > 0
    assert exact_share(np.array([1.0, 2.0 ** -40]), 1) == 0.0
    assert exact_share(np.full(300_000, 2.0 ** -30), 1176) == 0.0
    past = np.ones(300_000)                            # 2**40 units a weight: past 2**53
    past[0] = 2.0 ** -40
    assert exact_share(past, 1176) > 0


def test_whole_weights_and_their_exact_sums_agree():
    num, den, unit = combo_sums("omaha", "AA**,KsQsJsTs", OMAHA_TURN + "9s")
    assert unit == 1.0
    assert np.array_equal(den, np.round(den)) and np.array_equal(2 * num, np.round(2 * num))


def test_weights_too_far_apart_to_sum_are_refused_not_dropped():
    """1e308 beside 1e-300: scaled to below 1, the small weight underflowed to 0 and its
    combos silently had no opponent."""
    w = np.zeros(1326)
    w[5], w[700] = 1e308, 1e-300
    for call in (lambda: ev.combo_equity("holdem", w, "2c7d9hKsAd"),
                 lambda: ev.showdown_values("holdem", w, "2c7d9hKsAd")):
        with pytest.raises(RangeError, match="too far apart"):
            call()
    w[700] = 1e-10                                   # far apart, but representable
    assert np.isfinite(ev.combo_equity("holdem", w, "2c7d9hKsAd")).any()


def test_a_swept_flop_study_resumes_for_every_exact_setting(tmp_path):
    for exact in (True, None):
        out = tmp_path / f"flops-{exact}.csv"
        first = ev.flop_study("holdem", ["AA", "KK"], exact=exact, out=out)
        again = ev.flop_study("holdem", ["AA", "KK"], exact=exact, out=out, resume=True)
        assert again.rows == first.rows


@pytest.mark.parametrize("hole, pool", [(4, 9), (5, 11), (6, 13)])
def test_omaha_clear_weights_of_careful_hands_are_the_weights_clear_of_them(hole, pool):
    """Every hand of a few cards taken as careful (close_share = 1): its clear weight summed
    pair by pair, or 0 where nothing is clear, as a brute force over every pair says.  The
    check for 'nothing clear' once read the hand size from a loop counter that shadowed it."""
    import itertools

    from evaluator.kernels.omaha_walk import OK, clear_weights
    hands = np.array(list(itertools.combinations(range(0, 2 * pool, 2), hole)), np.uint8)
    bits = np.array([sum(1 << int(c) for c in h) for h in hands], np.uint64)
    reach = np.random.default_rng(5).choice([0.0, 0.5, 1.0, 3.0], len(hands))
    dead = np.uint64(1 << 2)                          # one card out: its hands are not live
    met = np.empty(len(hands))
    careful = np.empty(len(hands), np.int64)
    status, kept = clear_weights(hands, bits, dead, reach, met, careful, 1.0)
    assert status == OK and kept > 0
    brute = [0.0 if b & dead else sum(w for c, w in zip(bits, reach) if not c & (b | dead))
             for b in bits]
    assert met.tolist() == brute
    assert any(m == 0 for b, m in zip(bits, brute) if not b & dead)   # some have nothing


CAREFUL = "AhAcKdKc:0.7,QhQcJdJc:0.3,8s6s5s4s:0.0001"
"""11,268 PLO hands clear of the third alone: careful (summed pair by pair), 2 s a call."""


@pytest.mark.parametrize("game, against", [
    *((g, a) for g in ("omaha", "omaha8", "omaha5_8")
      for a in ("AA**,KK**:0.5,QJT*:0.25",                           # exact sums
                "AA**:0.3,KsQsJsTs:0.7",                             # not
                "AhAcKdKc")),                                        # one hand
    pytest.param("omaha", CAREFUL, marks=pytest.mark.slow),
    pytest.param("omaha8", CAREFUL, marks=pytest.mark.slow)])
def test_an_omaha_river_on_two_threads_gives_one_threads_numbers(game, against):
    """On two threads a river's clear weights and its walk run side by side
    (``sweep_runs.clear_apart``): every combo's equity and showdown value is the one a
    single thread gives, bit for bit, careful hands and blocked combos included."""
    if game == "omaha5_8":
        against = against.replace("**", "***").replace("QJT*", "QJT**") \
            .replace("KsQsJsTs", "KsQsJsTs9s").replace("AhAcKdKc", "AhAcKdKc3d")
    board = "2c7d9hKsAd"
    one = ev.combo_equity(game, against, board, threads=1)
    two = ev.combo_equity(game, against, board, threads=2)
    np.testing.assert_array_equal(one, two)
    wanted = np.zeros(len(ev.combos(game)))
    wanted[::7] = 1.0
    sums_one = combo_sums(game, against, board, threads=1, wanted=wanted)
    sums_two = combo_sums(game, against, board, threads=2, wanted=wanted)
    for a, b in zip(sums_one, sums_two):
        np.testing.assert_array_equal(a, b)
    reach = ev.Range(against, game).vector()
    np.testing.assert_array_equal(ev.showdown_values(game, reach, board, threads=1),
                                  ev.showdown_values(game, reach, board, threads=2))


@pytest.mark.parametrize("game, against, board", [
    ("omaha", "AA**,KK**:0.5,QJT*:0.25", "2c7d9hKs"),
    ("omaha", "AA**:0.3,KsQsJsTs:0.7", "2c7d9hKs"),                  # sums not exact
    ("omaha8", "A2**,KK**:0.5", "2c7d4hKs"),                          # hi-lo, low board
    ("omaha5", "AA***,KK***:0.5", "2c7d9hKs")])
def test_an_omaha_sweep_on_the_combos_it_needs_gives_the_whole_sweeps_numbers(
        monkeypatch, game, against, board):
    """A sweep of many runouts that reads some combos walks only those and the combos
    that weigh (``sweep_runs.kept_hands``): the read combos' sums and every combo's deals
    are those of the sweep of every combo."""
    import evaluator.sweep_runs as runs
    import evaluator.vectors as vectors
    # read: a range that overlaps the weighted one only in part
    wanted = ev.Range(against.split(",")[0].split(":")[0].replace("AA", "QQ")
                      .replace("A2", "32"), game).vector()
    ran = []
    real = vectors.kept_hands
    monkeypatch.setattr(vectors, "kept_hands",
                        lambda *a, **k: ran.append(real(*a, **k)) or ran[-1])
    kept = combo_sums(game, against, board, threads=2, wanted=wanted)
    assert ran == [0]                                  # the kept combos' sweep answered
    one = combo_sums(game, against, board, threads=1, wanted=wanted)   # one thread alike
    for a, b in zip(kept, one):
        np.testing.assert_array_equal(a, b)
    monkeypatch.setattr(runs, "KEPT_SHARE", -1.0)                     # every combo walked
    whole = combo_sums(game, against, board, threads=2, wanted=wanted)
    read = wanted > 0
    np.testing.assert_array_equal(kept[0][read], whole[0][read])
    # the deals of the combos walked are the whole sweep's; the others' are by running
    # sums where careful ones would be summed pair by pair
    walked = read | (ev.Range(against, game).vector() > 0)
    np.testing.assert_array_equal(kept[1][walked], whole[1][walked])
    np.testing.assert_allclose(kept[1], whole[1], rtol=1e-12, atol=1e-9)
    assert kept[2] == whole[2]
    assert np.isnan(kept[0][~read]).all()


@pytest.mark.parametrize("game, against", [("omaha", "AA**,KK**:0.5,QJT*:0.25"),
                                           ("omaha8", "A2**,KK**:0.5,AA**:0.25")])
def test_an_omaha_turn_with_its_clear_weights_apart_gives_one_threads_numbers(
        monkeypatch, game, against):
    """On two threads a turn's clear weights are one work item beside its rivers'
    walks (``sweep_runs.clear_apart``) instead of being summed again in each item: the
    numbers one thread gives, bit for bit; weights past 2**1000 too (refused as out of
    scale at first, then summed scaled)."""
    import evaluator.vectors as vectors
    board = "2c7d4hKs"
    split = []
    real = vectors.clear_apart
    monkeypatch.setattr(vectors, "clear_apart",
                        lambda *a, **k: split.append(real(*a, **k)) or split[-1])
    reach = ev.Range(against, game).vector()
    for weights in (reach, reach * 2.0 ** 1010):
        one = ev.combo_equity(game, weights, board, threads=1)
        split.clear()
        np.testing.assert_array_equal(one, ev.combo_equity(game, weights, board, threads=2))
        assert split[-1] == (0, 0)                    # the split sweep answered


@pytest.mark.parametrize("game, board", [("the", "2c7d"), ("the", "2c7d9h")])
def test_wide_the_ranges_take_the_sweep_and_count_the_walks_deals(game, board, monkeypatch):
    """Wide ranges of "The" (three cards a hand) go to the combo sweep, which reads only
    the first range's combos a runout; its counts are the pair-by-pair walk's, exactly."""
    from evaluator.engine import ranged
    hands = ["10%", "40%"]
    swept = ev.equity(game, hands, board, exact=True)
    assert "every combo swept" in swept.method
    monkeypatch.setattr(ranged, "_swept_sooner", lambda *args: False)
    walked = ev.equity(game, hands, board, exact=True)
    assert "enumeration" in walked.method
    assert swept.counts == walked.counts and swept.samples == walked.samples


@pytest.mark.parametrize("game, hands, board", [
    ("tahoe", ["AAK,KK*:0.5,5%", "40%"], "2c7d9h"),
    ("omaha", ["AA**,KK**:0.5", "25%"], "2c7d9hKs")])
def test_an_earlier_street_read_for_the_first_range_gives_every_combos_sums(
        game, hands, board, monkeypatch):
    """An earlier street reads only the first range's combos (``hero_totals``); every
    combo's sums (``runout_sums``, the river's way) give the same counts."""
    from evaluator.engine import vector_equity
    read = ev.equity(game, hands, board, exact=True)
    monkeypatch.setattr(vector_equity, "_every_combo", lambda *args: True)
    every = ev.equity(game, hands, board, exact=True)
    assert "every combo swept" in read.method and "every combo swept" in every.method
    assert read.counts == every.counts
