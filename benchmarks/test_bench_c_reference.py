"""Our batch kernel against the same algorithm in C, side by side (not a target).

    pytest benchmarks/test_bench_c_reference.py --benchmark-columns=median,min,max,rounds

``c_reference/eval_rows.c`` is ``evaluator.kernels.high.evaluate_rows`` written in C over the
same tables (for five cards, the five-card hash that ``evaluate_batch`` uses).  It is built
here with the system C compiler (``-O3 -march=native``); without one these benchmarks are
skipped.  Equal figures mean the Numba kernel runs at native speed
and the remaining distance to a target is the algorithm's or the machine's.
"""
import ctypes
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from evaluator import _tables, evaluate_batch

from conftest import random_hands, rate

N = 10_000_000
SOURCE = Path(__file__).parent / "c_reference" / "eval_rows.c"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    target = tmp_path_factory.mktemp("c_reference") / "eval_rows.so"
    build = [compiler, "-O3", "-march=native", "-shared", "-fPIC", "-o", str(target),
             str(SOURCE)]
    done = subprocess.run(build, capture_output=True, text=True)
    if done.returncode:
        pytest.skip(f"the C reference did not build: {done.stderr.strip()[:200]}")
    return ctypes.CDLL(str(target))


@pytest.fixture(scope="module")
def hands7():
    return random_hands(N, 7)


@pytest.mark.parametrize("cards", [7, 5])
@pytest.mark.parametrize("side", ["numba", "c"])
def test_batch_against_c(benchmark, library, hands7, cards, side):
    hands = np.ascontiguousarray(hands7[:, :cards])
    out = np.empty(N, np.int32)
    tables = _tables.high5() if cards == 5 else _tables.high()   # as evaluate_batch picks
    if side == "numba":
        run = evaluate_batch
        args = ("holdem", hands)
        kwargs = {"validate": False, "threads": 1, "out": out}
    else:
        function = getattr(library, f"evaluate_rows{cards}")
        pointer = ctypes.c_void_p
        args = (pointer(hands.ctypes.data), ctypes.c_int64(N), pointer(out.ctypes.data),
                *(pointer(t.ctypes.data) for t in tables))
        run, kwargs = function, {}
    benchmark.pedantic(run, args=args, kwargs=kwargs, rounds=7, warmup_rounds=1)
    assert np.array_equal(out, evaluate_batch("holdem", hands, threads=1))
    rate(benchmark, N)
