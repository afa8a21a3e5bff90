"""Combo vectors of the games on the subset sweep (Tahoe, "The", Teen Patti, the hi-lo
games), 5-card Omaha and Courchevel on Omaha's hole-pair sweep (five cards: four-card
subsets too, the hand's own term negative) and Pineapple's kept hands on the two-card
one, against a brute force that compares every pair of hands on every runout
(``tests/reference.py``)."""
from __future__ import annotations

import numpy as np
import pytest

import evaluator as ev
from evaluator.cards import format_cards, parse_cards
from evaluator.errors import EvaluatorError, NoDeal

import reference as ref

SPOTS = [   # game, board, live cards beside it (the rest dead, so that the brute force is small)
    ("the", "2c7d", 12),
    ("the", "2c7dKs", 13),
    ("tahoe", "2c7d9h", 11),
    ("tahoe", "2c7d9hKsAd", 14),
    ("teen_patti", "", 14),
    ("pineapple", "2c7d9h", 13),
    ("crazy_pineapple", "2c7d9hKs", 14),
    ("omaha5", "2c7d9hKsAd", 13),
    ("omaha5", "2c7d9hKs", 12),              # the turn: its rivers swept one by one
    ("courchevel", "Ah7d2c9sTs", 13),
    ("courchevel", "Ah7d2c9s", 12),
    ("omaha8", "2c7d9hKsAd", 12),            # hi-lo: the pot share, from three sweeps
    ("omaha8", "2c3d9hKs", 12),
    ("omaha8", "2c7d9hKsQd", 12),            # no low can be made: the high alone
    pytest.param("omaha5_8", "2c7d4hKsAd", 11, marks=pytest.mark.slow),
    pytest.param("omaha5_8", "2c7d4hKs", 11, marks=pytest.mark.slow),   # 5-card hi-lo turn
    pytest.param("courchevel8", "Ah7d2c9s3s", 11, marks=pytest.mark.slow),
    ("omaha6", "2c7d9hKsAd", 12),            # six cards: five-card subsets, 20.4 M combos
    pytest.param("omaha6_8", "2c7d4hKsAd", 12, marks=pytest.mark.slow),
    # a street swept in minutes (its hi-lo game on the same walks, tested above on a turn
    # and a river; 6-card Omaha's turn runs the 6-card river's walks on the flop's path):
    # 5-card Omaha's flop (11 s a weighting; whole weights in the slow suite)
    ("omaha5", "2c7d9h", 12),
]
SLOW_WEIGHTS = {("omaha5", "2c7d9h"): "whole"}


def _cases():
    """Every spot with whole and real weights, marked as its spot is (and slow where
    ``SLOW_WEIGHTS`` says)."""
    for spot in SPOTS:
        values, marks = ((spot.values, list(spot.marks)) if hasattr(spot, "values")
                         else (spot, []))
        for weights in ("whole", "real"):
            slow = SLOW_WEIGHTS.get(values[:2]) == weights
            yield pytest.param(*values, weights, marks=marks + [pytest.mark.slow] * slow,
                               id="-".join(map(str, (weights, *values))))


def _spot(game, board, live_cards, seed):
    g = ev.game(game)
    b = parse_cards(board).tolist()
    rng = np.random.default_rng(seed)
    rest = [c for c in g.deck if c not in b]
    keep = set(rng.choice(rest, live_cards, replace=False).tolist())
    dead = [c for c in rest if c not in keep]
    cards = ev.combos(game)
    # the hands of kept cards only, by card masks (2.6 M five-card hands: no Python loop)
    outside = np.uint64(sum(1 << c for c in range(52) if c not in keep))
    masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), axis=1)
    live = np.flatnonzero((masks & outside) == 0)
    return g, b, dead, cards, live


def _strength(game):
    return lambda hand, full: ref.hand_strength(game, hand, full)


def _low(game):
    """The hi-lo games' low for the brute force (None: a high game)."""
    return ref.omaha_low if game in ref.HILO else None


@pytest.mark.parametrize("game, board, live_cards, weights", list(_cases()))
def test_combo_equity_is_the_brute_force(game, board, live_cards, weights):
    g, b, dead, cards, live = _spot(game, board, live_cards, seed=len(board) + live_cards)
    rng = np.random.default_rng(7)
    w = np.zeros(len(cards))
    if weights == "whole":                       # summed exactly: no combo pair by pair
        w[live] = rng.integers(0, 3, len(live))
    else:                                        # summed as floats: the careful path too
        w[live] = rng.random(len(live)) * (rng.random(len(live)) < 0.7)
    w[live[0]] = 1.0
    want = ref.pairwise_combo_equity(cards[live].tolist(), w[live], b, dead, g.deck,
                                     _strength(game), final_board=max(g.streets),
                                     low=_low(game))
    got = ev.combo_equity(game, w, b, dead)
    assert np.isnan(np.delete(got, live)).all()
    # a combo clear of at least CLOSE of the live weight is read from running sums: its
    # 2**hole - 2 proper subsets' terms, each within half an ulp of the whole, so within
    # that many ulps over CLOSE of its own weight (five cards: about 3e-12)
    from evaluator.kernels.sweep import CLOSE
    atol = max(1e-12, (2 ** cards.shape[1] - 2) * 2.0 ** -53 / CLOSE)
    np.testing.assert_allclose(got[live], want, rtol=0, atol=atol, equal_nan=True)


@pytest.mark.parametrize("game, board", [("the", "2c7dKsQh"), ("tahoe", "2c7d9hKsAd"),
                                         ("teen_patti", ""), ("omaha5", "2c7d9hKsAd"),
                                         ("omaha8", "2c7d4hKsAd"),
                                         pytest.param("omaha6", "2c7d9hKsAd",
                                                      marks=pytest.mark.slow)])
def test_showdown_values_are_the_call_matrix_times_the_reach(game, board):
    g, b, dead, cards, live = _spot(game, board, 12, seed=3)
    matrix = np.array(ref.pairwise_call_matrix(cards[live].tolist(), b, dead,
                                               _strength(game), _low(game)), np.float64)
    rng = np.random.default_rng(9)
    reach = np.zeros((3, len(cards)))
    reach[:, live] = rng.random((3, len(live)))
    reach[2] = 0.0
    reach[2, live] = rng.integers(0, 4, len(live))
    got = ev.showdown_values(game, reach, b, dead)
    np.testing.assert_allclose(got[:, live], reach[:, live] @ matrix.T, rtol=0, atol=1e-9)
    assert not np.delete(got, live, axis=1).any()


def test_a_concentrated_reach_keeps_every_sign_in_tahoe():
    """Step 18's fourth wrong answer, retried on the subset sweep: reach 1 on one hand and
    1e-20 on every other."""
    board = "2c7d9hKsAd"
    reach = np.full(22100, 1e-20)
    reach[ev.combo_index("tahoe", "AhAcQd")[0]] = 1.0
    got = ev.showdown_values("tahoe", reach, board)
    m = ev.call_matrix("tahoe", board)
    rows = np.random.default_rng(1).choice(22100, 300, replace=False)
    want = m[rows].astype(np.float64) @ reach
    assert (np.sign(got[rows]) == np.sign(want)).all()
    np.testing.assert_allclose(got[rows], want, rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize("game, board", [
    ("omaha8", "2c7d4hKsAd"), ("omaha5", "2c7d9hKsAd"),
    pytest.param("omaha5_8", "2c7d4hKsAd", marks=pytest.mark.slow),
    pytest.param("omaha6_8", "2c7d4hKsAd", marks=pytest.mark.slow)])
def test_a_concentrated_reach_is_summed_pair_by_pair_in_omaha(game, board):
    """Step 18's fourth wrong answer on Omaha's hole-pair sweep (high and hi-lo, four and
    five cards): weight 1 on one hand and 1e-20 on the rest, so that the hands clear of
    the heavy one are summed pair by pair (the careful path)."""
    g, b, dead, cards, live = _spot(game, board, 13, seed=5)
    matrix = np.array(ref.pairwise_call_matrix(cards[live].tolist(), b, dead,
                                               _strength(game), _low(game)), np.float64)
    reach = np.zeros(len(cards))
    reach[live] = 1e-20
    reach[live[len(live) // 2]] = 1.0
    got = ev.showdown_values(game, reach, b, dead)[live]
    want = matrix @ reach[live]
    # the light hands' values are sums of +-1e-20 and +-0.5e-20, exact to about 1e-35
    # each (1e-20 is no power of two): the signs agree wherever the sums are not level
    noise = 1e-28
    assert (np.sign(got) == np.sign(want))[np.abs(want) > noise].all()
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=noise)
    eq = ev.combo_equity(game, reach, b, dead)[live]
    clear = np.array([[not (set(x) & set(y)) for y in cards[live].tolist()]
                      for x in cards[live].tolist()])
    met = clear @ reach[live]
    share = (want + met) / 2                      # the pot share weighed, from the signs
    np.testing.assert_allclose(eq[met > 0], share[met > 0] / met[met > 0], rtol=1e-9,
                               atol=1e-15)


def test_the_teen_patti_call_matrix_is_the_definition():
    m = ev.call_matrix("teen_patti", "")
    cards = ev.combos("teen_patti")
    rows = [0, 5000, ev.combo_index("teen_patti", "AsAhAd")[0], 22099]
    cols = np.random.default_rng(2).choice(22100, 400, replace=False)
    s = {i: ref.teen_patti_strength(cards[i].tolist()) for i in set(rows) | set(cols)}
    for i in rows:
        for j in cols:
            share = set(cards[i].tolist()) & set(cards[j].tolist())
            want = 0 if share else (s[i] > s[j]) - (s[i] < s[j])
            assert m[i, j] == want


@pytest.mark.parametrize("game, hands, board", [
    ("the", ["AA*,KK*", "15%"], "2c7d9h"),
    ("tahoe", ["AAK,QQ*:0.5", "20%"], "2c7d9hKs"),
    ("teen_patti", ["10%", "40%"], ""),
    ("pineapple", ["QQ+,AKs", "22+,A2s+"], "2c7d9h"),
])
def test_the_weighted_mean_is_equity(game, hands, board):
    num, den, unit = ev.vectors.combo_sums(game, hands[1], board)
    w = ev.Range(hands[0], game).vector()
    got = float(w @ num) / float(w @ den)
    want = ev.equity(game, hands, board, exact=True).players[0].equity
    assert got == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("game, board, hero", [("the", "2c7d", "9c9d4s"),
                                               ("tahoe", "2c7d9hKsAd", "AhJhQh"),
                                               ("teen_patti", "", "Th9h8s"),
                                               ("crazy_pineapple", "2c7d9h", "AhAd")])
def test_a_hand_against_a_range_is_equity(game, board, hero):
    eq = ev.combo_equity(game, "40%" if game != "crazy_pineapple" else "QQ+,AKs", board)
    against = "40%" if game != "crazy_pineapple" else "QQ+,AKs"
    want = ev.equity(game, [hero, against], board, exact=True).players[0].equity
    assert eq[ev.combo_index(game, hero)[0]] == pytest.approx(want, rel=1e-12)


def test_refusals_name_what_is_wrong():
    # 1,176 runouts of 20.4 M hands: refused at once, with the estimate (5-card Omaha's
    # flop and 6-card Omaha's turn are answered, in minutes)
    for game in ("omaha6", "omaha6_8"):
        with pytest.raises(EvaluatorError, match="needs a board of 4 or 5 cards, got 3: "
                           f"{game} sweeps its 20,358,520 combos on each of a 3-card "
                           r"board's 1,176 runouts, about \d+ minutes on two cores, past "
                           "the 10 minutes a sweep is given"):
            ev.combo_equity(game, "AA****", "2c7d9h")
    with pytest.raises(EvaluatorError, match="needs a board of 2 or 3 or 4 cards"):
        ev.combo_equity("the", "AA*", "2c7d9hKsAd")
    dead = format_cards([c for c in range(52) if c not in parse_cards("2c7d9hKsAcAd")])
    with pytest.raises(NoDeal):
        ev.combo_equity("tahoe", "random", "2c7d9hKs", dead)
