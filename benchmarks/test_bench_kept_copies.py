"""A/B of the code copies kept written out because a helper measured slower there.

    pytest benchmarks/test_bench_kept_copies.py --benchmark-columns=median,min,max,rounds

``best5_sample_ranges_hu`` deals the board with the four-line pdep draw written out, not
``dealing.draw_card`` (inlined everywhere else): on a 2-core AMD EPYC VM (Zen 5 class) with
Numba 0.68 the helper measured 0.92-0.93x there, 2 M deals of QQ+,AKs against a random hand,
side by side.  Both variants live in the kernel (``draw_marker``), so this benchmark
times them in one run; if the helper ever measures as fast, the copy can go.
"""
import numpy as np
import pytest

from evaluator import Range, _tables
from evaluator.engine.ranged import RangeSampler
from evaluator.kernels import ranges

from conftest import rate

DEALS = 2_000_000


@pytest.fixture(scope="module")
def spot():
    rows = [Range("QQ+,AKs").combos, Range("random").combos]
    weights = [np.ones(len(r)) for r in rows]
    sampler = RangeSampler(rows, weights, 0, ["QQ+,AKs", "random"], 1)
    assert not sampler.tuples and sampler.fit >= sampler.FAST_ENOUGH
    return sampler


@pytest.mark.parametrize("variant", ["written out", "draw_card"])
def test_heads_up_range_draw(benchmark, spot, variant):
    marker = None if variant == "written out" else np.zeros(1, np.uint8)
    board = np.empty(0, np.uint8)

    def run():
        hi_full = np.zeros((2, 3), np.int64)
        state = np.array([0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9], np.uint64)
        ranges.best5_sample_ranges_hu(spot.combos, spot.starts, spot.cumulative, spot.uniform,
                                      spot.marker, spot.masks, np.uint64(0), board, 5, DEALS,
                                      state, *_tables.high(), hi_full, marker)
        return hi_full

    counts = benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    assert counts.sum() >= DEALS                 # every deal counted (ties count twice)
    rate(benchmark, DEALS, "deals/s")
