"""Equity: exact counts against brute force, Monte Carlo against exact, bad input."""
from fractions import Fraction

import pytest

from evaluator import (
    ArgumentTypeError,
    CardError,
    EvaluatorError,
    HandError,
    discard_equity,
    equity,
    equity_by_street,
    parse_cards,
)

from reference import brute_force_equity, brute_force_equity_unknown

FINAL = {"holdem": 5, "pineapple": 5, "crazy_pineapple": 5, "omaha": 5, "omaha5": 5,
         "omaha6": 5, "omaha8": 5, "tahoe": 5, "the": 4, "teen_patti": 0}


def ids(text):
    return parse_cards(text).tolist()


def check_exact(game, hands, board="", dead=""):
    result = equity(game, hands, board, dead, exact=True)
    expected, boards = brute_force_equity(game, [ids(h) for h in hands], ids(board), ids(dead),
                                          FINAL[game])
    assert result.exact and result.samples == boards == result.counts["boards"]
    assert list(result.fractions) == expected
    assert sum(result.fractions) == 1
    assert sum(p.equity for p in result.players) == pytest.approx(1)
    return result


def test_known_preflop_value():
    r = equity("holdem", ["AsKs", "QhQd"])
    assert r.exact and r.samples == 1_712_304
    assert r.fractions[0] == Fraction(1_582_664, 3_424_608)
    assert round(r.players[0].equity, 6) == 0.462145


@pytest.mark.parametrize("game, hands, board, dead", [
    ("holdem", ["AsKs", "QhQd"], "2c7d9h", ""),                 # flop, heads-up
    ("holdem", ["AsKs", "QhQd", "JcTc"], "2c7d9hTd", ""),        # turn, 3-way
    ("holdem", ["Ah2h", "Ad2d"], "3c4c5s", "Kh"),                # split-heavy, dead card
    ("holdem", ["7c2d", "8h3s", "9d4c", "Tc5h"], "AsKsQs", "2s"),  # 4-way
    ("pineapple", ["AsKs", "QhQd"], "2c7d9h", "3s"),
    ("crazy_pineapple", ["AsKs", "QhQd"], "2c7d9h", ""),
    ("omaha", ["AsAhKsKh", "QdQcJdTc"], "2s3h9c", ""),
    ("omaha5", ["AsAhKsKh2c", "QdQcJdTc9d"], "2s3h9cTs", ""),
    ("omaha6", ["AsAhKsKh2c3c", "QdQcJdTc9d8d"], "2s3h9cTs", ""),
    ("omaha8", ["Ah2h3sKs", "AdKdQcJc"], "4c5d9s", ""),           # lows, scoops, quartering
    ("omaha8", ["Ah2h3sKs", "Ac2c3dKd"], "4c5d9sTh", ""),         # quartered halves
    ("omaha8", ["AhKhQsJs", "AdKdQcJc"], "9c9dTs", ""),           # no low possible
    ("tahoe", ["AsKsQs", "JhJdTc"], "2c7d9h", ""),
    ("tahoe", ["AsKsQs", "JhJdTc", "9s8s2d"], "2s7s9hTd", "3s"),  # flushes from 0-2 hole cards
    pytest.param("the", ["9c9d4s", "AhKhQh"], "Ks", "",          # from the first board card
                 marks=pytest.mark.slow),
    pytest.param("the", ["9c9d4s", "AhKhQh", "2c3c5d"], "Ks4d", "", marks=pytest.mark.slow),
    ("teen_patti", ["AsKsQs", "2c2d2h"], "", ""),
    ("teen_patti", ["AsKd9c", "AhKc9d", "7s7d4c"], "", ""),      # a split and a winner
])
def test_exact_against_brute_force(game, hands, board, dead):
    check_exact(game, hands, board, dead)


def test_hilo_fields():
    r = check_exact("omaha8", ["Ah2h3sKs", "AdKdQcJc"], "4c5d9s")
    for p in r.players:
        assert p.hi + p.lo == pytest.approx(p.equity)
        assert p.scoop == p.win
    assert r.players[0].lo > 0


def test_monte_carlo_within_four_stderr_and_thread_independent():
    exact = equity("holdem", ["AsKs", "QhQd", "JcTc"], "2c7d9h")
    one = equity("holdem", ["AsKs", "QhQd", "JcTc"], "2c7d9h", trials=300_000, seed=7,
                 threads=1)
    two = equity("holdem", ["AsKs", "QhQd", "JcTc"], "2c7d9h", trials=300_000, seed=7,
                 threads=2)
    assert not one.exact and one.samples == 300_000 and one.seed == 7
    assert one.to_dict() == two.to_dict()
    for e, s in zip(exact.players, one.players):
        assert abs(e.equity - s.equity) < 4 * s.stderr


def test_tahoe_monte_carlo_matches_exact():
    """Tahoe samples through the fused kernel (each player the best of three hole pairs)."""
    hands = ["AsKsQs", "JhJdTc", "9s8s2d"]
    exact = equity("tahoe", hands, "2s7s9h")
    one = equity("tahoe", hands, "2s7s9h", trials=200_000, seed=11, threads=1)
    two = equity("tahoe", hands, "2s7s9h", trials=200_000, seed=11, threads=2)
    assert one.to_dict() == two.to_dict()
    for e, s in zip(exact.players, one.players):
        assert abs(e.equity - s.equity) < 4 * s.stderr


@pytest.mark.parametrize("hands, board", [
    (["AsKsQs", "Jh??"], "2s7s9hTd3c"),          # the kernel deals the unknown cards
    (["AsKsQs", "9s8s2d", "random"], "2s7s9hTd"),
])
def test_tahoe_sampling_with_unknown_cards(hands, board):
    exact = equity("tahoe", hands, board)
    one = equity("tahoe", hands, board, trials=100_000, seed=5, threads=1)
    two = equity("tahoe", hands, board, trials=100_000, seed=5, threads=2)
    assert exact.exact and one.to_dict() == two.to_dict()
    for e, s in zip(exact.players, one.players):
        assert abs(e.equity - s.equity) < 4 * s.stderr


def test_target_stderr_stops_sampling():
    r = equity("omaha", ["AsAhKsKh", "QdQcJdTc"], target_stderr=0.002, seed=3)
    assert not r.exact and max(p.stderr for p in r.players) <= 0.002


def test_by_street_and_discard():
    streets = equity_by_street("holdem", ["AsKs", "QhQd"], "2c7d9hTs")
    assert [len(r.board.split()) for r in streets] == [0, 3, 4]
    the = equity_by_street("the", ["9c9d4s", "AhKhQh"], "Ks4d2c")
    assert [len(r.board.split()) for r in the] == [0, 1, 2, 3]    # "The" from the deal on
    keeps = discard_equity("crazy_pineapple", "AsKsQd", ["JhJd"], board="2c7d9h")
    assert len(keeps) == 3
    assert [k[2].players[0].equity for k in keeps] == sorted(
        (k[2].players[0].equity for k in keeps), reverse=True)
    kept, thrown, result = keeps[0]
    assert thrown in result.dead
    expected, _ = brute_force_equity("holdem", [ids(kept), ids("JhJd")], ids("2c7d9h"),
                                     ids(thrown), 5)
    assert list(result.fractions) == expected


@pytest.mark.parametrize("call, error, match", [
    (lambda: equity("holdem", ["AsKs", "AsQd"]), CardError, "duplicate card 'As'"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], "Qd2c3c"), CardError, "duplicate card 'Qd'"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], dead="Ks"), CardError, "duplicate card 'Ks'"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], "2c3c"), HandError, "not a street"),
    (lambda: equity("holdem", ["AsKsQs", "QdJd"]), HandError, "needs 2 cards"),
    (lambda: equity("holdem", ["AsKs"]), HandError, "at least two hands"),
    (lambda: equity("holdem", "AsKs QdJd"), HandError, "one entry per player"),
    (lambda: equity("omaha", ["AsKsQsJs", "2c2d2h2s", "3c3d3h3s", "4c4d4h4s", "5c5d5h5s",
                              "6c6d6h6s", "7c7d7h7s", "8c8d8h8s", "9c9d9h9s", "TcTdThTs",
                              "JcJdJhJd"]), CardError, "duplicate"),
    (lambda: equity("teen_patti", ["AsKsQs"] * 18), HandError, "18 players need 54 cards"),
    (lambda: equity("holdem", ["AsKs"] * 24), HandError, "the deck has 52"),
    (lambda: equity("holdem", ["AsKs", "random", "random", "random"], exact=True),
     EvaluatorError, "too many to finish"),
    (lambda: equity("holdem", ["As??", "QdJd"]), HandError, "needs 2 cards"),
    (lambda: equity("holdem", ["Q?", "QdJd"]), CardError, "unknown card 'Q'"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], trials=0), EvaluatorError, "positive integer"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], target_stderr=0), EvaluatorError,
     "between 0 and 1"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], trials=10, seed="x"), ArgumentTypeError,
     "seed must be an integer"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], trials=10, seed=-1), EvaluatorError,
     "seed must be a non-negative integer"),
    (lambda: equity("holdem", ["AsKs", None]), ArgumentTypeError, "hand 2 must be"),
    (lambda: equity("holdem", ["AsKs", 7]), ArgumentTypeError, "hand 2 must be"),
    (lambda: equity("holdem", None), ArgumentTypeError, "hands must be a list"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], exact="yes"), ArgumentTypeError,
     "exact must be"),
    (lambda: equity("holdem", ["AsKs", "QdJd"], trials="10"), ArgumentTypeError,
     "trials must be"),
    (lambda: equity("the", ["AsKsQs", "QdJd2c"], "2c3c4c5c6c"), HandError,
     'not a street of "the"'),
    (lambda: equity("holdem", ["AsKs", "QdJd"], exact=True, trials=10), EvaluatorError,
     "cannot be combined"),
])
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_many_players():
    ten = [f"{a}{b}" for a, b in zip(["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s"],
                                     ["Ad", "Kd", "Qd", "Jd", "Td", "9d", "8d", "7d", "6d", "5d"])]
    r = equity("holdem", ten, "2c3c4h")
    assert r.exact and len(r.players) == 10 and sum(r.fractions) == 1
    r = equity("teen_patti", [f"{r}c{r}d{r}h" for r in "23456789TJQKA"] + ["AsKsQs", "2s3s4s"])
    assert len(r.players) == 15 and r.players[12].equity == 1


@pytest.mark.parametrize("game, hands, unknown, board", [
    ("holdem", ["As?", "QhQd"], [1, 0], "2c7d9hTs"),
    ("holdem", ["AsKs", "random"], [0, 2], "2c7d9hTs4h"),
    ("holdem", ["AsKs", "??", "QhQd"], [0, 2, 0], "2c7d9hTs4h"),
    ("omaha", ["AsAd**", "KhKd9c8c"], [2, 0], "2c7d9hTs4h"),
    ("teen_patti", ["AsKsQs", "random"], [0, 3], ""),
    # several hands lacking cards, and a board still to come: subsets split every way
    ("tahoe", ["AsKsQs", "8h6h?"], [0, 1], "2c7d9hTd"),
    ("teen_patti", ["AsKs?", "2c2d?", "QhJhTh"], [1, 1, 0], ""),
    ("omaha8", ["Ah2h3s?", "KdQdJc?"], [1, 1], "4c5d9sTh6c"),
])
@pytest.mark.slow
def test_unknown_cards_exact(game, hands, unknown, board):
    result = equity(game, hands, board, exact=True)
    known = [ids(h.replace("?", "").replace("*", "").replace("random", "")) for h in hands]
    expected, deals = brute_force_equity_unknown(game, known, unknown, ids(board), [],
                                                 FINAL[game])
    assert result.samples == deals
    assert list(result.fractions) == expected


def test_unknown_cards_monte_carlo():
    exact = equity("holdem", ["As?", "QhQd"], "2c7d9h")
    one = equity("holdem", ["As?", "QhQd"], "2c7d9h", trials=200_000, seed=5, threads=1)
    two = equity("holdem", ["As?", "QhQd"], "2c7d9h", trials=200_000, seed=5, threads=2)
    assert one.to_dict() == two.to_dict()
    for e, s in zip(exact.players, one.players):
        assert abs(e.equity - s.equity) < 4 * s.stderr
    random = equity("holdem", ["AsKs", "random"], trials=200_000, seed=1)
    assert abs(random.players[0].equity - 0.6704) < 4 * random.players[0].stderr + 0.001


def test_eight_handed_omaha_and_sixteen_teen_patti():
    hands = ["AsKsQsJs", "AhKhQhJh", "AdKdQdJd", "AcKcQcJc", "2s3s4s5s", "2h3h4h5h",
             "2d3d4d5d", "2c3c4c5c"]
    r = equity("omaha8", hands, "9s9h9d", exact=True)
    assert len(r.players) == 8 and sum(r.fractions) == 1
    hands = [f"{r}c{r}d{r}h" for r in "23456789TJQKA"] + ["2s3s4s", "5s6s7s", "8s9sTs"]
    r = equity("teen_patti", hands)
    assert len(r.players) == 16 and r.players[12].equity == 1          # trail of aces


@pytest.mark.parametrize("game, hands, board", [
    ("holdem", ["AsKs", "QhQd"], ""),
    ("omaha8", ["Ah2h3sKs", "AdKdQcJc"], "4c5d9s"),
    ("the", ["9c9d4s", "AhKhQh"], "Ks"),
])
def test_exact_counts_do_not_depend_on_threads(game, hands, board):
    one = equity(game, hands, board, threads=1)
    two = equity(game, hands, board, threads=2)
    assert one.counts == two.counts and one.fractions == two.fractions


def _both_ways(game, hands, board="", dead=""):
    """Counts from the rank-multiset kernel (its boards: -1 where it declines, two suits
    being able to flush) and from walking every board."""
    import numpy as np

    from evaluator.engine.exact import fused_chunk
    from evaluator.engine.results import Counts
    from evaluator.families import family
    from evaluator.games import game as get_game
    g = get_game(game)
    holes = [parse_cards(h) for h in hands]
    board_ids, dead_ids = parse_cards(board), parse_cards(dead)
    known = set(np.concatenate([*holes, board_ids, dead_ids]).tolist())
    live = np.array([c for c in range(52) if c not in known], np.uint8)
    need = max(g.streets) - len(board_ids)
    ranks = Counts(len(holes), hilo=g.hilo)
    ranks.boards = family(g).exact(g, holes, board_ids, live, need, ranks.hi_full,
                                   ranks.low_counts())
    walked = fused_chunk(g, holes, board_ids, live, need, 0, np.zeros(2, np.uint64),
                         (0, len(live) - need + 1))
    return ranks, walked


@pytest.mark.parametrize("game, hands, board, dead", [
    ("holdem", ["AsKs", "QhQd"], "", ""),
    ("holdem", ["AsKs", "QhQd", "JcTc"], "", ""),
    ("holdem", ["Ah2h", "Ad2d"], "", "KhKs"),                    # split-heavy, dead cards
    ("holdem", ["7h2h", "9h8h", "6h5h", "AhKh"], "", ""),      # one suit crowded
    ("holdem", ["7c2d", "8h3s", "9d4c", "Tc5h", "JsJh"], "", "2c"),
    ("holdem", ["AsKs", "QsJs"], "2s", ""),                     # flush on four new cards
    ("pineapple", ["AsKs", "QhQd"], "", "3s"),
    ("the", ["9c9d4s", "AhKhQh"], "", ""),                      # one suit can flush
    ("the", ["9c9d4s", "AhKh2c"], "", ""),
    ("omaha", ["AsAhKsKh", "QdQcJdTc"], "", ""),
    ("omaha", ["AsAhKsKh", "QdQcJdTc", "9s8s7h6h"], "", "2c"),
    ("omaha", ["AsAhKsKh", "QdQcJdTc"], "2s3s9c", ""),           # suit can flush on one card
    ("omaha", ["AsKsQhJh", "Td9d8c7c"], "2s3s4h5h", ""),          # two suits a card away
    ("omaha5", ["AsAhKsKh2c", "QdQcJdTc9d"], "", ""),
    ("omaha6", ["AsAhKsKh2c3c", "QdQcJdTc9d8d"], "", ""),
    ("omaha8", ["Ah2h3sKs", "AdKdQcJc"], "", ""),
    ("omaha8", ["Ah2h3sKs", "Ac2c3dKd", "5s4s8h8d"], "", ""),     # quartering, three-way
    ("omaha8", ["AhKhQsJs", "AdKdQcJc"], "9c9dTs", ""),           # no low possible
])
def test_rank_multisets_match_board_walk(game, hands, board, dead):
    by_ranks, walked = _both_ways(game, hands, board, dead)
    assert by_ranks.boards >= 0, "the rank-multiset kernel declined this spot"
    assert by_ranks.boards == walked.boards
    assert (by_ranks.hi_full == walked.hi_full).all()
    if by_ranks.joint is not None:
        assert (by_ranks.joint == walked.joint).all()
    assert_same_derived(by_ranks, walked)


def assert_same_derived(a, b):
    """Two tallies give the same wins, ties and half shares, and squared shares."""
    da, db = a.derived(), b.derived()
    for name in ("hi_half", "lo_half", "scoops", "splits"):
        assert da[name] == db[name], name
    assert da["share_squares"] == pytest.approx(db["share_squares"])


def test_two_flushing_suits_are_walked():
    """Where two suits could both flush the kernel declines (-1) and the engine walks."""
    by_ranks, walked = _both_ways("the", ["AcKcQc", "AhKhQh", "2s3s4s"])
    assert by_ranks.boards == -1
    result = equity("the", ["AcKcQc", "AhKhQh", "2s3s4s"])
    assert result.samples == walked.boards
    assert result.counts["hi_full"] == walked.hi_full.tolist()


@pytest.mark.parametrize("game", ["holdem", "the", "omaha", "omaha8", "omaha5"])
def test_rank_multisets_match_board_walk_on_random_spots(game):
    import random

    from evaluator.games import game as get_game
    g = get_game(game)
    rng = random.Random(2026)
    ran = 0
    for _ in range(6):
        cards = rng.sample(range(52), 3 * g.hole + max(g.streets))
        players = rng.choice([2, 3])
        hands = [cards[p * g.hole:(p + 1) * g.hole] for p in range(players)]
        street = rng.choice([s for s in g.streets if s < max(g.streets)])
        board = cards[3 * g.hole:3 * g.hole + street]
        by_ranks, walked = _both_ways(game, hands, board)
        if by_ranks.boards < 0:             # two suits could flush: the engine walks
            continue
        ran += 1
        assert by_ranks.boards == walked.boards
        assert (by_ranks.hi_full == walked.hi_full).all(), (hands, board)
        assert_same_derived(by_ranks, walked)
    assert ran >= 3, f"the kernel ran on only {ran} of 6 spots"


def test_numpy_path_gives_the_kernel_counts():
    """The Numba-free path the command line takes matches the kernel on random spots."""
    import random

    import numpy as np

    from evaluator import _exact_numpy, _tables
    from evaluator.families import multiset_tables, rank_multisets
    from evaluator.games import game as get_game
    from evaluator.kernels import multisets
    rng = random.Random(17)
    compared = 0
    for _ in range(40):
        g = get_game(rng.choice(["holdem", "holdem", "the", "pineapple"]))
        cards = rng.sample(range(52), 4 * g.hole + max(g.streets))
        players = rng.choice([2, 3, 4])
        holes = np.array([cards[p * g.hole:(p + 1) * g.hole] for p in range(players)],
                         np.uint8)
        street = rng.choice([s for s in g.streets if s < max(g.streets)])
        board = np.array(cards[4 * g.hole:4 * g.hole + street], np.uint8)
        used = set(holes.ravel().tolist()) | set(board.tolist())
        live = np.array([c for c in range(52) if c not in used], np.uint8)
        ms = rank_multisets(max(g.streets) - street)
        a = np.zeros((players, players + 1), np.int64)
        b = np.zeros_like(a)
        boards_a = _exact_numpy.best5_exact(holes, board, live, ms, a)
        boards_b = multisets.best5_exact(holes, board, live, ms, *_tables.high(), b,
                                       multiset_tables())
        assert boards_a == boards_b and (a == b).all(), (g.name, holes.tolist(), board.tolist())
        compared += boards_a >= 0
    assert compared >= 20, f"both paths declined all but {compared} of 40 spots"
