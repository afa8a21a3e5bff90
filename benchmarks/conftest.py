"""Benchmarks: seeded inputs, JIT warmed outside the timer, figures in hands/s.

Run with:  pytest benchmarks --benchmark-columns=median,min,max,rounds
"""
import sys
from pathlib import Path

import numpy as np
import pytest

# the tests' own kernels (tests/enumeration.py: every 7-card hand), after our conftest
sys.path.append(str(Path(__file__).resolve().parents[1] / "tests"))

import evaluator


@pytest.fixture(scope="session", autouse=True)
def warm():
    evaluator.warmup()


def random_hands(n, k, seed=1):
    """n rows of k distinct card ids (uint8), the same for every run."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), np.uint8)
    step = 1_000_000
    for start in range(0, n, step):
        stop = min(n, start + step)
        keys = rng.random((stop - start, 52), dtype=np.float32)
        out[start:stop] = np.argpartition(keys, k, axis=1)[:, :k]
    return out


def rate(benchmark, items, label="hands/s"):
    """Record items per second of the median round in the benchmark's extra info."""
    if benchmark.stats is None:              # --benchmark-disable: a smoke run
        return None
    median = benchmark.stats.stats.median
    benchmark.extra_info[label] = f"{items / median / 1e6:.1f} M" if items / median > 1e5 \
        else f"{items / median:,.0f}"
    return items / median


def sample(benchmark, game, hands, trials, board="", **options):
    """Time ``trials`` Monte Carlo deals of one equity query on one thread (seed 1) and
    record deals/s; ``options`` go to ``equity`` (``version=1``: the first stream)."""
    benchmark.pedantic(evaluator.equity, args=(game, hands, board),
                       kwargs={"trials": trials, "seed": 1, "threads": 1, **options},
                       rounds=5, warmup_rounds=1)
    rate(benchmark, trials, "deals/s")
