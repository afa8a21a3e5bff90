"""Evaluator speed for the other games (issue: step 2), one thread, random hands.

    pytest benchmarks/test_bench_games.py --benchmark-columns=median,min,max,rounds

Targets: Omaha high >= 60 M hands/s, Omaha hi+lo >= 40 M/s, Tahoe >= 100 M/s,
Teen Patti >= 400 M/s.
"""
import numpy as np
import pytest

from evaluator import evaluate_batch

from conftest import random_hands, rate

N = 2_000_000


@pytest.mark.parametrize("name, width", [("omaha", 9), ("omaha5", 10), ("omaha6", 11),
                                         ("tahoe", 8), ("the", 7)])
def test_high(benchmark, name, width):
    hands = random_hands(N, width, seed=2)
    out = np.empty(N, np.int32)
    benchmark.pedantic(evaluate_batch, args=(name, hands),
                       kwargs={"validate": False, "threads": 1, "out": out},
                       rounds=5, warmup_rounds=1)
    rate(benchmark, N)


def test_omaha_hi_lo(benchmark):
    hands = random_hands(N, 9, seed=3)
    high = np.empty(N, np.int32)
    low = np.empty(N, np.int32)

    def both():
        evaluate_batch("omaha8", hands, validate=False, threads=1, out=high)
        evaluate_batch("omaha8", hands, low=True, validate=False, threads=1, out=low)

    benchmark.pedantic(both, rounds=5, warmup_rounds=1)
    rate(benchmark, N)


def test_teen_patti(benchmark):
    n = 10_000_000
    hands = random_hands(n, 3, seed=4)
    out = np.empty(n, np.int32)
    benchmark.pedantic(evaluate_batch, args=("teen_patti", hands),
                       kwargs={"validate": False, "threads": 1, "out": out},
                       rounds=5, warmup_rounds=1)
    rate(benchmark, n)


# --- short deck and the 5/6-card hi-lo games (issue: step 11) ------------------------------
# Targets: short deck random 7-card evaluation >= 0.9x hold'em's (the two run side by side
# here); Big O heads-up exact pre-flop and on the flop >= 50x poker-equity (measured with
# evaluator bench); Big O Monte Carlo >= 20 M deals/s per thread.

@pytest.mark.parametrize("name", ["holdem", "short_deck"])
def test_seven_card_short_deck_beside_holdem(benchmark, name):
    rng = np.random.default_rng(4)
    low = 16 if name == "short_deck" else 0
    keys = rng.random((N, 52 - low), dtype=np.float32)
    hands = np.ascontiguousarray((np.argpartition(keys, 7, axis=1)[:, :7] + low)
                                 .astype(np.uint8))
    out = np.empty(N, np.int32)
    benchmark.pedantic(evaluate_batch, args=(name, hands),
                       kwargs={"validate": False, "threads": 1, "out": out},
                       rounds=5, warmup_rounds=1)
    rate(benchmark, N)


@pytest.mark.parametrize("board", ["", "7c8h9s"])
def test_big_o_exact(benchmark, board):
    from evaluator import equity
    benchmark.pedantic(equity, args=("omaha5_8", ["As2s3dKcQh", "AdKdQcJc4h"], board),
                       kwargs={"threads": 1}, rounds=20, warmup_rounds=2)


@pytest.mark.parametrize("name, hands", [("omaha5_8", ["As2s3dKcQh", "AdKdQcJc4h"]),
                                         ("omaha6_8", ["As2s3dKcQh5c", "AdKdQcJc4h6d"]),
                                         ("short_deck", ["AsKs", "QhQd"])])
def test_new_games_monte_carlo(benchmark, name, hands):
    from conftest import sample
    sample(benchmark, name, hands, 2_000_000)
