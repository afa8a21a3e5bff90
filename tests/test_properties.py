"""Property and edge-case tests against the slow reference in reference.py."""
import itertools

import enumeration
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator import evaluate, evaluate_batch, parse_cards

from reference import best_strength, category_name, five_card_strength

hands7 = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)
hand_sizes = st.integers(5, 7).flatmap(
    lambda k: st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True))


def value(cards) -> int:
    return int(evaluate_batch("holdem", np.array([cards], np.uint8))[0])


def sign(x) -> int:
    return (x > 0) - (x < 0)


@settings(max_examples=400, deadline=None)
@given(hands7, hands7)
def test_seven_card_order_matches_best_of_21(a, b):
    ra, rb = best_strength(a), best_strength(b)
    va, vb = value(a), value(b)
    assert sign(va - vb) == sign((ra > rb) - (ra < rb))
    assert category_name(ra) == evaluate("holdem", a[:2], a[2:]).category


@settings(max_examples=300, deadline=None)
@given(hand_sizes, st.permutations(range(4)), st.randoms(use_true_random=False))
def test_invariant_under_suit_permutation_and_card_order(cards, suits, rnd):
    permuted = [4 * (c // 4) + suits[c % 4] for c in cards]
    rnd.shuffle(permuted)
    assert value(permuted) == value(cards)


@settings(max_examples=200, deadline=None)
@given(hand_sizes)
def test_best_five_reproduce_the_value(cards):
    hand = evaluate("holdem", cards[:2], cards[2:])
    best = parse_cards(hand.best).tolist()
    assert set(best) <= set(cards) and len(best) == 5
    assert value(best) == hand.value
    assert five_card_strength(best) == best_strength(cards)


@settings(max_examples=100, deadline=None)
@given(hand_sizes)
def test_kernel_paths_agree(cards):
    arr = np.array(cards, np.uint8)
    from evaluator import _tables
    assert enumeration.evaluate_one(arr, *_tables.high()) == value(cards)


def test_seed_full_house_choice():
    # 9c9d4s with Kh9s4d4c: nines full of fours, not fours full of nines
    hand = evaluate("holdem", "9c9d", "4s Kh 9s 4d 4c")
    assert str(hand) == "full house, nines full of fours"
    assert sorted(hand.best[:3]) == ["9c", "9d", "9s"]
    assert all(card[0] == "4" for card in hand.best[3:])
    assert hand > evaluate("holdem", "4s4h", "Kh 9s 2d 3c 9c")   # fours full of nines
    assert hand < evaluate("holdem", "4s4h", "Kh 9s 4d 4c 9c")   # quads beat it


def test_wheel_and_steel_wheel():
    wheel = evaluate("holdem", "Ah2c", "3d 4s 5h Kc Kd")
    assert str(wheel) == "straight, five high"
    assert wheel.best == ("5h", "4s", "3d", "2c", "Ah")
    six_high = evaluate("holdem", "6h2c", "3d 4s 5h Kc Kd")
    assert six_high > wheel
    steel = evaluate("holdem", "Ah2h", "3h 4h 5h Kc Kd")
    assert str(steel) == "straight flush, five high"
    assert steel < evaluate("holdem", "6h2h", "3h 4h 5h Kc Kd")
    assert steel > evaluate("holdem", "AsAd", "Ac Ah 5h Kc Kd")
    assert str(evaluate("holdem", "AsKs", "QsJsTs")) == "royal flush"


def test_board_plays_and_ties():
    board = "Ts Js Qd Kc Ah"
    a = evaluate("holdem", "2c3d", board)
    b = evaluate("holdem", "4h5h", board)
    assert a == b and str(a) == "straight, ace high"
    assert set(a.best) == set(board.split())


def test_counterfeited_two_pair():
    # 5c5d on a double-paired board: the fives are counterfeited by the board's pairs
    five = evaluate("holdem", "5c5d", "Kh Ks Qh Qs 2c")
    ace = evaluate("holdem", "Ac3d", "Kh Ks Qh Qs 2c")
    assert five.category == ace.category == "two pair"
    assert ace > five                                       # ace kicker plays


def test_category_names():
    cases = {
        ("AsAd", "AcAh 2d"): "four of a kind, aces",
        ("AsKs", "7s 4s 2s"): "flush, ace high",
        ("7c7d", "7h 2s 3c"): "three of a kind, sevens",
        ("KcKd", "7h 7s 3c"): "two pair, kings and sevens",
        ("9c9d", "Kh 2s 3c"): "pair of nines",
        ("Ac Jd", "9h 7s 3c"): "high card, ace",
        ("6c7d", "8h 9s Tc"): "straight, ten high",
        ("9h8h", "7h 6h 5h"): "straight flush, nine high",
    }
    for (hole, board), name in cases.items():
        assert str(evaluate("holdem", hole, board)) == name


def test_five_six_seven_consistent():
    rng = np.random.default_rng(7)
    for _ in range(200):
        cards = rng.permutation(52)[:7].tolist()
        v7 = value(cards)
        assert v7 == max(value(list(c)) for c in itertools.combinations(cards, 6))
        assert v7 == max(value(list(c)) for c in itertools.combinations(cards, 5))


@settings(max_examples=300, deadline=None)
@given(hand_sizes)
def test_python_lookup_matches_kernels(cards):
    """evaluate() answers without Numba; it must agree with the compiled batch path."""
    assert evaluate("holdem", cards[:2], cards[2:]).value == value(cards)
