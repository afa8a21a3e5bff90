"""Every game other than hold'em, against the slow references in reference.py."""
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator import GAMES, CardError, GameError, HandError, evaluate, evaluate_batch, game

from reference import best_strength, omaha_high, omaha_low, tahoe_high, teen_patti_strength


def batch(name, rows, **kw):
    return evaluate_batch(name, np.array(rows, np.uint8), **kw)


def assert_same_order(values, strengths):
    """values (ours) and strengths (reference) order every pair of hands alike."""
    mapping = {}
    for v, s in zip(values, strengths):
        assert mapping.setdefault(int(v), s) == s
    ordered = [mapping[v] for v in sorted(mapping)]
    assert ordered == sorted(ordered) and len(set(ordered)) == len(ordered)


def test_all_games_registered():
    assert set(GAMES) == {"holdem", "omaha", "omaha5", "omaha6", "omaha8", "omaha5_8",
                          "omaha6_8", "courchevel", "courchevel8", "short_deck", "pineapple",
                          "crazy_pineapple", "tahoe", "the", "teen_patti"}


# --- Teen Patti ------------------------------------------------------------------
TEEN_PATTI_COUNTS = {"trail": 52, "pure sequence": 48, "sequence": 720, "colour": 1_096,
                     "pair": 3_744, "high card": 16_440}


@pytest.mark.parametrize("a23", ["highest", "second"])
def test_teen_patti_all_hands(a23):
    g = game("teen_patti", a23=a23)
    hands = np.array(list(combinations(range(52), 3)), np.uint8)
    values = evaluate_batch(g, hands)
    assert len(hands) == 22_100 and np.unique(values).size == 741
    names = ("invalid", "high card", "pair", "colour", "sequence", "pure sequence", "trail")
    counts = Counter(names[v >> 12] for v in values.tolist())
    assert counts == TEEN_PATTI_COUNTS
    assert_same_order(values.tolist(), [teen_patti_strength(h, a23) for h in hands.tolist()])
    # every permutation of the cards gives the same value
    for perm in ([1, 0, 2], [2, 1, 0], [1, 2, 0]):
        assert np.array_equal(evaluate_batch(g, np.ascontiguousarray(hands[:, perm])), values)


def test_teen_patti_run_order():
    def v(cards, a23="highest"):
        return evaluate(game("teen_patti", a23=a23), cards).value
    runs = ["As2d3c", "AsKdQc", "KsQdJc", "QsJdTc", "4s3d2c"]
    assert [v(r) for r in runs] == sorted((v(r) for r in runs), reverse=True)
    assert v("AsKdQc", "second") > v("As2d3c", "second") > v("KsQdJc", "second")
    assert evaluate("teen_patti", "KsAd2c").category == "high card"       # K-A-2 is no run
    assert evaluate("teen_patti", "KsAs2s").category == "colour"
    assert v("2s2d2c") > v("AsKsQs")                                      # trail beats pure run
    assert v("AsAdAc") > v("KsKdKc")
    assert v("AsKd9c") == v("AhKc9d")                                     # suits never rank
    assert str(evaluate("teen_patti", "AsKsQs")) == "pure sequence, A-K-Q"
    assert str(evaluate("teen_patti", "3h2s Ad")) == "sequence, A-2-3"
    assert str(evaluate("teen_patti", "KsKd4c")) == "pair of kings"
    assert str(evaluate("teen_patti", "7s7d7c")) == "trail of sevens"


def test_teen_patti_bad_input():
    with pytest.raises(GameError, match="a23"):
        game("teen_patti", a23="lowest")
    with pytest.raises(HandError, match="has no board"):
        evaluate("teen_patti", "AsKsQs", "2c")
    with pytest.raises(HandError, match="takes 3 hole cards, got 2"):
        evaluate("teen_patti", "AsKs")


# --- Omaha -----------------------------------------------------------------------
def omaha_rows(rng, n, hole, board=5):
    return np.argsort(rng.random((n, 52)), axis=1)[:, :hole + board].astype(np.uint8)


@pytest.mark.parametrize("name, hole", [("omaha", 4), ("omaha5", 5), ("omaha6", 6),
                                        ("omaha8", 4)])
@pytest.mark.slow
def test_omaha_high_random(name, hole, rng):
    for board in (3, 4, 5):
        rows = omaha_rows(rng, 400, hole, board)
        values = evaluate_batch(name, rows).tolist()
        refs = [omaha_high(r[:hole], r[hole:]) for r in rows.tolist()]
        assert_same_order(values, refs)


@pytest.mark.parametrize("name, hole", [("omaha", 4), ("omaha5", 5), ("omaha6", 6)])
@pytest.mark.slow
def test_omaha_high_flush_heavy(name, hole, rng):
    """Cards from two suits only: most boards hold three of a suit and many holes
    three or more of it, the cases the flush path must pair up correctly."""
    two_suits = np.array([c for c in range(52) if c & 3 in (1, 3)])
    rows = two_suits[np.argsort(rng.random((600, 26)), axis=1)[:, :hole + 5]].astype(np.uint8)
    values = evaluate_batch(name, rows).tolist()
    refs = [omaha_high(r[:hole], r[hole:]) for r in rows.tolist()]
    assert_same_order(values, refs)


@pytest.mark.parametrize("name, hole", [("omaha", 4), ("omaha5", 5), ("omaha6", 6)])
def test_omaha_full_board_kernel_agrees_with_the_triples_kernel(name, hole, rng):
    """Full boards go through the board-row tables (four hole cards: one lookup in
    ``omaha_direct``); they must give the values of the kernel that evaluates every
    pair and board triple, on many random hands and on flush-heavy ones."""
    from evaluator import _tables
    from evaluator.kernels import omaha

    two_suits = np.array([c for c in range(52) if c & 3 in (1, 3)])
    rows = np.concatenate([
        omaha_rows(rng, 100_000, hole),
        two_suits[np.argsort(rng.random((20_000, 26)), axis=1)[:, :hole + 5]]]).astype(np.uint8)
    expected = np.empty(len(rows), np.int32)
    omaha.high_rows(rows, hole, expected, *_tables.high())
    assert np.array_equal(evaluate_batch(name, rows, threads=1), expected)
    assert np.array_equal(evaluate_batch(name, rows[:37], threads=1), expected[:37])


@pytest.mark.parametrize("name, hole", [("omaha", 4), ("omaha5", 5), ("omaha6", 6)])
def test_omaha_hole_on_many_boards(name, hole, rng):
    """One hand against many boards (Monte Carlo against unknown cards), values kept per
    board rank row: the same values as evaluating each hand, flush-heavy boards included."""
    from evaluator import _tables
    from evaluator.kernels.omaha import omaha_hole_values

    tables = [_tables.load(n) for n in ("card_keys", "rank_offsets5", "omaha_board_index",
                                        "omaha_pairs", "omaha_flush")]
    for cards in (np.arange(52), np.array([c for c in range(52) if c & 3 in (1, 3)])):
        deal = cards[np.argsort(rng.random(len(cards)))][:hole]
        rest = np.setdiff1d(cards, deal)
        boards = rest[np.argsort(rng.random((30_000, len(rest))), axis=1)[:, :5]]
        boards = boards.astype(np.uint8)
        out = np.empty(len(boards), np.int32)
        omaha_hole_values(deal.astype(np.uint8), boards, out, *tables)
        rows = np.hstack([np.tile(deal.astype(np.uint8), (len(boards), 1)), boards])
        assert np.array_equal(out, evaluate_batch(name, rows, threads=1))


ADVERSARIAL = [  # (hole, board): boards where hold'em reading would be wrong
    ("As2c3d4h", "Ks Qs Js 9s 8d"),   # four-flush board, one suited hole card: no flush
    ("AsKs2c3d", "Qs Js 9s 8d 2h"),   # two suited hole cards: flush
    ("2c3d4h5s", "Ac Ad Ah As Kc"),   # board quads: only trips of aces play
    ("2c3d8h8s", "Tc Jd Qh Kc Ac"),   # board straight is not playable
    ("9c9d2h3s", "9h Kc Kd 4s 5s"),   # full house needs both nines
    ("AhKh7c7d", "7h 7s 2h 3h 4c"),   # board pair and hole pair: quads
]


@pytest.mark.parametrize("hole, board", ADVERSARIAL)
def test_omaha_adversarial(hole, board):
    from evaluator import parse_cards
    h, b = parse_cards(hole).tolist(), parse_cards(board).tolist()
    ours = evaluate("omaha", hole, board)
    ref = omaha_high(h, b)
    assert ours.value == batch("omaha", [h + b])[0]
    # compare with a hand whose reference strength is known: itself via the best five
    assert best_strength(parse_cards(ours.best).tolist()) == ref


def test_omaha_rule_examples():
    assert evaluate("omaha", "As2c3d4h", "Ks Qs Js 9s 8d").category != "flush"
    assert evaluate("omaha", "AsKs2c3d", "Qs Js 9s 8d 2h").category == "flush"
    assert evaluate("omaha", "2c3d4h5s", "Ac Ad Ah As Kc").category == "three of a kind"
    assert evaluate("omaha", "2c3d8h8s", "Tc Jd Qh Kc Ac").category == "pair"


@pytest.mark.parametrize("hole, board, expected", [
    ("Ah2h3sKs", "4d 5c 9s Js Qd", None),                # two low board cards: no low
    ("As2sKdKc", "Ad 2d 7c 8h 9s", None),                # counterfeited: A2 on A-2-x, no 3rd
    ("As2sKdKc", "Ad 2d 7c 8h 6s", (8, 7, 6, 2, 1)),      # A2 counterfeited, plays 8-7-6
    ("As2s3dKc", "Ad 2d 7c 8h 6s", (7, 6, 3, 2, 1)),
    ("As2s3d4c", "5h 6h 7h Kc Kd", (7, 6, 5, 2, 1)),      # exactly two from the hole
    ("As2s3d4c", "5h Kh Qh Kc Kd", None),                # one low board card
    ("As3s4dKc", "2c 2d 7h Kd Qd", None),                # two distinct low ranks on board
    ("As3s4dKc", "2c 2d 7h 7s 8d", (8, 7, 3, 2, 1)),      # paired low board: 2-7-8 play
])
def test_omaha_low_cases(hole, board, expected):
    from evaluator import parse_cards
    h, b = parse_cards(hole).tolist(), parse_cards(board).tolist()
    assert omaha_low(h, b) == expected
    low = evaluate("omaha8", hole, board).low
    assert (low is None) == (expected is None)
    assert batch("omaha8", [h + b], low=True)[0] == (low.value if low else 0)


@pytest.mark.parametrize("board", [5, 4, 3])
def test_omaha_low_all_classes_and_order(rng, board):
    rows = omaha_rows(rng, 6000, 4, board)
    lows = evaluate_batch("omaha8", rows, low=True).tolist()
    refs = [omaha_low(r[:4], r[4:]) for r in rows.tolist()]
    assert all((v == 0) == (ref is None) for v, ref in zip(lows, refs))
    pairs = [(v, ref) for v, ref in zip(lows, refs) if v]
    mapping = {}
    for v, ref in pairs:
        assert mapping.setdefault(v, ref) == ref
    ordered = [mapping[v] for v in sorted(mapping)]        # worst low first
    assert ordered == sorted(ordered, reverse=True)


def test_low_value_range():
    from evaluator import _tables
    table = _tables.load("omaha_low")
    assert np.unique(table[table > 0]).size == 56
    wheel = evaluate("omaha8", "As2s9d9c", "3h 4h 5c Kd Qd").low
    worst = evaluate("omaha8", "8s7s9d9c", "6h 5h 4c Kd Qd").low
    assert (wheel.value, worst.value) == (56, 1)
    assert str(wheel) == "5-4-3-2-A low (the wheel)"


# --- Tahoe, The, Pineapple -------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=8, max_size=8, unique=True))
def test_tahoe_is_best_of_three_pairs(cards):
    hole, board = cards[:3], cards[3:]
    v = batch("tahoe", [cards])[0]
    pairs = [batch("holdem", [list(p) + board])[0] for p in combinations(hole, 2)]
    assert v == max(pairs)
    from evaluator import parse_cards
    assert best_strength(parse_cards(evaluate("tahoe", hole, board).best).tolist()) == \
        tahoe_high(hole, board)


def test_tahoe_batch_on_flush_heavy_hands():
    """Rows drawn from two suits, so most hold a flush in some hole pair: the batch
    kernel's inline flush path against the best of the three pairs."""
    import numpy as np
    rng = np.random.default_rng(8)
    two_suits = np.array([c for c in range(52) if c & 3 in (1, 3)])
    rows = np.array([rng.choice(two_suits, 8, replace=False) for _ in range(3000)], np.uint8)
    values = batch("tahoe", rows)
    for pair in combinations(range(3), 2):
        sub = np.concatenate([rows[:, list(pair)], rows[:, 3:]], axis=1)
        values_pair = batch("holdem", sub)
        assert (values >= values_pair).all()
    best = np.max([batch("holdem", np.concatenate([rows[:, list(p)], rows[:, 3:]], axis=1))
                   for p in combinations(range(3), 2)], axis=0)
    assert (values == best).all()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
def test_the_equals_seven_card_evaluator(cards):
    assert batch("the", [cards])[0] == batch("holdem", [cards])[0]
    assert evaluate("the", cards[:3], cards[3:]).value == batch("holdem", [cards])[0]


def test_the_seed_full_house():
    assert str(evaluate("the", "9c9d4s", "Kh 9s 4d 4c")) == "full house, nines full of fours"


def test_pineapple_family():
    for name in ("pineapple", "crazy_pineapple"):
        assert evaluate(name, "AsKs", "QsJsTs").value == evaluate("holdem", "AsKs", "QsJsTs").value
        with pytest.raises(HandError, match="after the discard"):
            evaluate(name, "AsKsQd", "Js Ts 2c")


def test_a_discard_on_the_wrong_street_says_when_the_game_discards():
    from evaluator import discard_equity
    with pytest.raises(HandError, match=r"pineapple discards before the flop: give no board "
                                        r"\(got 3 board cards\)"):
        discard_equity("pineapple", "AsKsQd", ["JhTh"], board="2c7d9h")
    with pytest.raises(HandError, match=r"crazy_pineapple discards on the flop: give its 3 "
                                        r"cards as the board \(got 0 board cards\)"):
        discard_equity("crazy_pineapple", "AsKsQd", ["JhTh"])


@pytest.mark.parametrize("name, hole, board", [
    ("omaha", "AsKsQs", "2c3c4c"), ("omaha", "AsKsQsJs", "2c3c"),
    ("tahoe", "AsKs", "2c3c4c"), ("the", "AsKsQs", "2c"), ("omaha6", "AsKsQsJs", "2c3c4c"),
])
def test_wrong_sizes(name, hole, board):
    with pytest.raises(HandError):
        evaluate(name, hole, board)


def test_batch_wrong_width_and_low_flag():
    with pytest.raises(HandError, match="shape"):
        evaluate_batch("omaha", np.arange(12, dtype=np.uint8).reshape(2, 6))   # 4 + 2
    with pytest.raises(HandError, match="no low hand"):
        evaluate_batch("omaha", np.arange(9, dtype=np.uint8).reshape(1, 9), low=True)
    with pytest.raises(CardError):
        evaluate_batch("teen_patti", np.array([[0, 0, 1]], np.uint8))
