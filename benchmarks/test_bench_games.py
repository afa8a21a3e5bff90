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
