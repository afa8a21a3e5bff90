"""Hold'em evaluator speed (issue: step 1).

    pytest benchmarks/test_bench_holdem.py --benchmark-columns=median,min,max,rounds

Targets on the reference 2-core machine: 7-card random batch >= 400 M/s on one
thread and 1.8x that on two; enumeration of all 7-card hands >= 800 M/s; 5-card
random batch >= 400 M/s; import < 0.3 s; first evaluation in a new process < 1 s.
Step 13: the 7-card batch at twice OMPEval's card-array loop (its "Rand1", measured
beside us by ``ompeval_side_by_side.py``) and 2 threads at 1.9x one; 5- and 6-card
batches at 1.5x the scalar kernel (``test_eval_on_each_path``).
"""
import subprocess
import sys

import enumeration
import numpy as np
import pytest

from evaluator import _tables, evaluate_batch
from evaluator.kernels import vector

from conftest import random_hands, rate

N = 10_000_000


@pytest.fixture(scope="module")
def hands7():
    return random_hands(N, 7)


@pytest.mark.parametrize("threads", [1, 2])
def test_eval7_random(benchmark, hands7, threads):
    out = np.empty(N, np.int32)
    benchmark.pedantic(evaluate_batch, args=("holdem", hands7),
                       kwargs={"validate": False, "threads": threads, "out": out},
                       rounds=7, warmup_rounds=1)
    rate(benchmark, N)


@pytest.mark.parametrize("simd", vector.supported_paths())
@pytest.mark.parametrize("cards", [7, 6, 5])
def test_eval_on_each_path(benchmark, hands7, cards, simd, monkeypatch):
    """The batch evaluator on each vector path this CPU runs (EVALUATOR_SIMD), one thread."""
    monkeypatch.setenv(vector.SIMD_ENV, simd)
    hands = np.ascontiguousarray(hands7[:, :cards])
    out = np.empty(N, np.int32)
    benchmark.pedantic(evaluate_batch, args=("holdem", hands),
                       kwargs={"validate": False, "threads": 1, "out": out},
                       rounds=7, warmup_rounds=1)
    rate(benchmark, N)


def test_eval7_validated(benchmark, hands7):
    out = np.empty(N, np.int32)
    benchmark.pedantic(evaluate_batch, args=("holdem", hands7),
                       kwargs={"threads": 1, "out": out}, rounds=5, warmup_rounds=1)
    rate(benchmark, N)


@pytest.mark.parametrize("counting", [False, True], ids=["checksum", "histogram"])
def test_enumerate_all_seven_card_hands(benchmark, counting):
    """Every 7-card hand in nested loops; the checksum run is the raw speed."""
    tables = _tables.high()
    hist = np.zeros((4 if counting else 0, 10 << 12), np.int64)
    benchmark.pedantic(enumeration.enumerate7, args=(hist, *tables), rounds=5, warmup_rounds=1)
    rate(benchmark, 133_784_560)


def test_import_time(benchmark):
    run = [sys.executable, "-c", "import evaluator"]
    benchmark.pedantic(subprocess.run, args=(run,), kwargs={"check": True}, rounds=5)


def test_first_evaluation_in_new_process(benchmark):
    code = "import evaluator; evaluator.evaluate('holdem', 'AsKs', 'QsJsTs2d3c')"
    run = [sys.executable, "-c", code]
    benchmark.pedantic(subprocess.run, args=(run,), kwargs={"check": True}, rounds=5)
