"""Equity speed (issue: step 3), one thread unless said.

    pytest benchmarks/test_bench_equity.py --benchmark-columns=median,min,max,rounds

Targets: hold'em heads-up exact AsKs vs QhQd pre-flop <= 2 ms; 3-way exact <= 3 ms;
heads-up Monte Carlo >= 40 M deals/s per thread; river/turn query <= 100 us;
PLO heads-up exact <= 50 ms; Omaha hi-lo heads-up exact <= 80 ms.
"""
import pytest

from evaluator import equity

from conftest import sample


def test_holdem_heads_up_exact(benchmark):
    benchmark.pedantic(equity, args=("holdem", ["AsKs", "QhQd"]), kwargs={"threads": 1},
                       rounds=50, warmup_rounds=2)


def test_holdem_three_way_exact(benchmark):
    benchmark.pedantic(equity, args=("holdem", ["AsKs", "QhQd", "JcTc"]),
                       kwargs={"threads": 1}, rounds=50, warmup_rounds=2)


def test_holdem_heads_up_monte_carlo(benchmark):
    sample(benchmark, "holdem", ["AsKs", "QhQd"], 2_000_000)


@pytest.mark.parametrize("board", ["2c7d9h", "2c7d9hTs"])
def test_small_query(benchmark, board):
    benchmark.pedantic(equity, args=("holdem", ["AsKs", "QhQd"], board),
                       kwargs={"threads": 1}, rounds=1000, warmup_rounds=10)


def test_plo_heads_up_exact(benchmark):
    benchmark.pedantic(equity, args=("omaha", ["AsAhKsKh", "QdQcJdTc"]),
                       kwargs={"threads": 1}, rounds=3, warmup_rounds=1)


def test_omaha_hi_lo_heads_up_exact(benchmark):
    benchmark.pedantic(equity, args=("omaha8", ["Ah2h3sKs", "AdKdQcJc"]),
                       kwargs={"threads": 1}, rounds=3, warmup_rounds=1)


@pytest.mark.parametrize("game, hands", [("omaha", ["AsAhKsKh", "QdQcJdTc"]),
                                         ("omaha8", ["Ah2h3sKs", "AdKdQcJc"])],
                         ids=["omaha", "omaha8"])
def test_omaha_heads_up_monte_carlo(benchmark, game, hands):
    """Known Omaha hands: each player's best non-flush hand is kept per board rank row."""
    sample(benchmark, game, hands, 2_000_000)


def test_tahoe_heads_up_monte_carlo(benchmark):
    """Each player is the best of three hole pairs: three evaluations per player and deal."""
    sample(benchmark, "tahoe", ["AsKsQs", "JhJdTc"], 2_000_000)


def test_tahoe_heads_up_exact(benchmark):
    benchmark.pedantic(equity, args=("tahoe", ["AsKsQs", "JhJdTc"]), kwargs={"threads": 1},
                       rounds=5, warmup_rounds=1)


@pytest.mark.parametrize("game, hand", [("omaha", "AsAhKsKh"), ("tahoe", "AsKsQs")])
def test_against_random_monte_carlo(benchmark, game, hand):
    """Unknown hole cards: dealt on every deal (Tahoe in its fused kernel, Omaha in batches)."""
    sample(benchmark, game, [hand, "random"], 1_000_000)
