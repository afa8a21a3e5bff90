"""Every combo against a range at once (``combo_equity``, ``showdown_values``,
``call_matrix``, ``runout_study``), one thread, beside eval7's exact hand-against-range
function called once per combo (eval7 is not a dependency: its rows skip without it).

Run with:  pytest benchmarks/test_bench_vectors.py --benchmark-columns=median,min,rounds
"""
import numpy as np
import pytest

import evaluator as ev

RIVER, TURN, FLOP = "2c7d9hKsAd", "2c7d9hKs", "2c7d9h"
ROUNDS = {10: 2000, 8: 500, 6: 50}            # by the board's length as text


@pytest.fixture(scope="module")
def random_vector():
    return ev.Range("random").vector()


@pytest.mark.parametrize("board", [RIVER, TURN, FLOP], ids=["river", "turn", "flop"])
def test_combo_equity(benchmark, random_vector, board):
    """Every hold'em combo's exact equity against a random hand."""
    eq = benchmark.pedantic(ev.combo_equity, args=("holdem", random_vector, board),
                            kwargs={"threads": 1}, rounds=ROUNDS[len(board)],
                            warmup_rounds=3)
    known = len(board) // 2
    assert np.isfinite(eq).sum() == (52 - known) * (51 - known) // 2


def test_showdown_values_64(benchmark):
    """64 reach vectors at once on a river (divide the median by 64 for one)."""
    reach = np.random.default_rng(1).random((64, 1326))
    values = benchmark(ev.showdown_values, "holdem", reach, RIVER, threads=1)
    benchmark.extra_info["us per vector"] = round(benchmark.stats.stats.median / 64 * 1e6, 2) \
        if benchmark.stats else None
    assert values.shape == (64, 1326)


def test_showdown_values_one(benchmark, random_vector):
    benchmark(ev.showdown_values, "holdem", random_vector, RIVER, threads=1)


def test_call_matrix(benchmark):
    m = benchmark(ev.call_matrix, "holdem", RIVER)
    assert m.shape == (1326, 1326)


def test_distribution_random_against_random_river(benchmark):
    dist = benchmark(ev.equity_distribution, "holdem", "random", "random", RIVER, threads=1,
                     progress=False)
    assert len(dist.combos) == 1081


def test_eval7_every_combo_on_a_river(benchmark):
    """eval7's exact hand-against-range function once per combo of 119 (QQ+,AKs,JTs-54s...),
    the way a user gets a per-combo answer from it."""
    eval7 = pytest.importorskip("eval7")
    villain = eval7.HandRange("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32").hands
    board = [eval7.Card(c) for c in ("2c", "7d", "9h", "Ks", "Ad")]
    known = {str(c) for c in board}
    heroes = [tuple(eval7.Card(ev.format_cards([c]).strip()) for c in row)
              for row in ev.Range("QQ+,AKs,JTs-54s,AQo,KQo,99-66,A5s-A2s").combos.tolist()]
    heroes = [h for h in heroes if not {str(c) for c in h} & known]

    def every():
        return [eval7.py_hand_vs_range_exact(h, villain, board) for h in heroes]
    out = benchmark.pedantic(every, rounds=3, warmup_rounds=0)
    benchmark.extra_info["combos"] = len(heroes)
    assert len(out) == len(heroes)


def test_omaha_river_combo_equity(benchmark):
    """All 270,725 Omaha hands against a range on a river."""
    against = ev.Range("AA**,KK**:0.5", "omaha").vector()
    eq = benchmark.pedantic(ev.combo_equity, args=("omaha", against, RIVER),
                            kwargs={"threads": 1}, rounds=5, warmup_rounds=1)
    assert eq.shape == (270725,)


@pytest.mark.parametrize("game, board", [
    ("omaha", RIVER), ("omaha", TURN), ("omaha8", RIVER), ("omaha8", TURN),
    ("omaha5", RIVER), ("omaha5", TURN), ("courchevel", TURN), ("omaha5_8", RIVER),
    ("courchevel8", RIVER)])
def test_every_combo_against_the_games_own_forty_percent(benchmark, game, board):
    """Every hand of the game against its own top 40% (the step-19 targets), two threads."""
    against = ev.Range("40%", game).vector()
    eq = benchmark.pedantic(ev.combo_equity, args=(game, against, board), rounds=3,
                            warmup_rounds=1)
    assert eq.shape == (len(ev.combos(game)),)


@pytest.mark.parametrize("game", ["omaha", "omaha8", "omaha5_8"])
def test_exact_range_against_range_on_a_river(benchmark, game):
    """10% against 40%, exact through the vectors (PLO8: scoops and halves tallied)."""
    result = benchmark.pedantic(ev.equity, args=(game, ["10%", "40%"], RIVER),
                                kwargs={"exact": True}, rounds=3, warmup_rounds=1)
    assert result.exact and "every combo swept" in result.method


@pytest.mark.parametrize("game, flop", [("omaha", FLOP), ("omaha8", FLOP), ("tahoe", FLOP),
                                        ("the", FLOP[:4])])
def test_exact_range_against_range_on_a_flop(benchmark, game, flop):
    """10% against 40% on a flop, exact: a sweep a runout where the first range's combos are
    read, the deals from tables made once (the step-19 target, PLO: 3 s)."""
    result = benchmark.pedantic(ev.equity, args=(game, ["10%", "40%"], flop),
                                kwargs={"exact": True}, rounds=3, warmup_rounds=1)
    assert result.exact and "every combo swept" in result.method


def test_runout_study_of_wide_omaha_ranges_on_a_flop(benchmark):
    """PLO 10% against 40%, every turn card's equity (the step-19 target: 3 s)."""
    study = benchmark.pedantic(ev.runout_study, args=("omaha", ["10%", "40%"], FLOP),
                               kwargs={"progress": False}, rounds=3, warmup_rounds=1)
    assert len(study.rows) == 49


def test_distribution_of_wide_omaha_ranges_on_a_flop(benchmark):
    """PLO 10% against 40% on a flop, every combo of the first swept on 1,176 runouts (the
    step-19 target: 3 s)."""
    dist = benchmark.pedantic(ev.equity_distribution, args=("omaha", "10%", "40%", FLOP),
                              kwargs={"progress": False}, rounds=3, warmup_rounds=1)
    assert dist is not None


@pytest.mark.parametrize("game", ["tahoe", "the", "omaha", "omaha5"])
def test_sampled_flop_study_of_wide_ranges(benchmark, game):
    """10% against 40% on every flop, 1,000 deals a flop, wide ranges weighed by card
    removal (was refused as too wide to weigh), drawn whole (5-card Omaha's 1.3 million
    combos were listed live again on each flop: about 30 s)."""
    study = benchmark.pedantic(ev.flop_study, args=(game, ["10%", "40%"]),
                               kwargs={"trials": 1000, "seed": 1}, rounds=1,
                               warmup_rounds=1)
    assert len(study.rows) == 1755


def test_runout_study_on_a_flop(benchmark):
    study = benchmark(ev.runout_study, "holdem", ["QQ+,AKs", "22+,A2s+,KTo+"], FLOP,
                      threads=1)
    assert len(study.rows) == 49


def test_flop_study_two_threads(benchmark):
    """QQ+,AKs against random on every flop, exact, on two threads (the vectors)."""
    study = benchmark.pedantic(ev.flop_study, args=("holdem", ["QQ+,AKs", "random"]),
                               kwargs={"threads": 2, "progress": False}, rounds=3,
                               warmup_rounds=1)
    assert len(study.rows) == 1755


def test_teen_patti_three_way_against_two_random_hands(benchmark):
    """Exact: 279,676,320 deals, as 18,424 x 18,424 combos compared in one sweep."""
    result = benchmark(ev.equity, "teen_patti", ["AsKsQs", "random", "random"], threads=2)
    assert result.exact and result.samples == 279_676_320


def test_teen_patti_three_ranges_exact(benchmark):
    """Exact: 10% against 40% against 40%, 94 billion deals, each pair of combos of the
    two smaller ranges meeting the third at once (was refused: "at least 40 hours")."""
    result = benchmark.pedantic(ev.equity, args=("teen_patti", ["10%", "40%", "40%"]),
                                kwargs={"exact": True, "threads": 2}, rounds=5,
                                warmup_rounds=1)
    assert result.exact and "the third at once" in result.method
