"""What a second thread buys on this machine: ours beside two plain loops.

    python benchmarks/scaling.py [--rounds 5]

Prints the speed-up of two threads over one (medians of paired rounds) for
``evaluate_batch`` (10 M random 7-card rows into ``out=``), hold'em Monte Carlo (AsKs vs
QhQd, and QQ+,AKs against a random hand), and two loops that do nothing else: a memory
stream (summing 512 MiB) and an arithmetic loop that touches no memory.  Where the plain
loops gain no more than ours, the bound is the machine (two vCPUs sharing one core, or
one memory channel), not the code.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numba
import numpy as np

from evaluator import equity, evaluate_batch


@numba.njit(nogil=True, cache=True)
def _stream(data, start, stop):
    total = np.uint64(0)
    for i in range(start, stop):
        total += data[i]
    return total


@numba.njit(nogil=True, cache=True)
def _arithmetic(seed, steps):
    x = np.uint64(seed)
    for _ in range(steps):
        x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        x ^= x >> np.uint64(29)
    return x


def run_chunks(work, n: int, threads: int) -> None:
    """``work(lo, hi)`` on ``threads`` threads, over even spans of ``range(n)``."""
    cuts = [n * k // threads for k in range(threads + 1)]
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda k: work(cuts[k], cuts[k + 1]), range(threads)))


def _timed(run, threads: int) -> float:
    start = time.perf_counter()
    run(threads)
    return time.perf_counter() - start


def cases() -> dict[str, object]:
    sys.path.insert(0, str(Path(__file__).parent))
    from conftest import random_hands
    hands = random_hands(10_000_000, 7)
    out = np.empty(len(hands), np.int32)
    data = np.ones(1 << 26, np.uint64)             # 512 MiB
    steps = 200_000_000

    def evaluation(threads):
        evaluate_batch("holdem", hands, validate=False, threads=threads, out=out)

    def mc(a, b):
        return lambda threads: equity("holdem", [a, b], trials=1 << 23, seed=1,
                                      threads=threads)

    def stream(threads):
        run_chunks(lambda lo, hi: _stream(data, lo, hi), len(data), threads)

    def arithmetic(threads):
        run_chunks(lambda lo, hi: _arithmetic(lo, hi - lo), steps, threads)

    return {"evaluate_batch, 10 M hands": evaluation,
            "Monte Carlo AsKs vs QhQd": mc("AsKs", "QhQd"),
            "Monte Carlo QQ+,AKs vs random": mc("QQ+,AKs", "random"),
            "memory stream, 512 MiB": stream,
            "arithmetic, no memory": arithmetic}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("| task | 2 threads / 1 thread |\n|---|---|")
    for name, run in cases().items():
        run(1)
        run(2)                                     # compiled and warm
        ratios = []
        for _ in range(args.rounds):
            one = _timed(run, 1)
            two = _timed(run, 2)
            ratios.append(one / two)
        print(f"| {name} | {statistics.median(ratios):.2f}x |", flush=True)


if __name__ == "__main__":
    main()
