"""Peers against us on identical work (issue: step 6), via the same harness as `evaluator bench`.

    pytest benchmarks/test_bench_peers.py --benchmark-columns=median,min,max,rounds
    EVALUATOR_BENCH_FULL=1 pytest benchmarks/test_bench_peers.py ...    # full sizes

Each peer's answers are checked against ours before it is timed; a disagreement fails
the test with the first differing hand.  Peers that are not installed are skipped.
"""
import os

import pytest

from evaluator import bench

SUITE = bench.workloads(quick=not os.environ.get("EVALUATOR_BENCH_FULL"))
PAIRS = [(w, cls) for w in SUITE for cls in bench.ADAPTERS if w.name in cls.workloads]
REFERENCE = {}


@pytest.mark.parametrize("workload, adapter_class", PAIRS,
                         ids=[f"{w.name}-{cls.name}" for w, cls in PAIRS])
def test_peer(benchmark, workload, adapter_class):
    adapter = adapter_class()
    reason = adapter.available()
    if reason:
        pytest.skip(f"{adapter.name}: {reason}")
    ours = bench.Ours()
    if workload.name not in REFERENCE:
        REFERENCE[workload.name] = ours.run(workload, ours.prepare(workload))
    prepared = adapter.prepare(workload)
    answer = adapter.run(workload, prepared)
    problem = bench.check(workload, REFERENCE[workload.name], answer, adapter)
    assert problem is None, f"{adapter.name} disagrees on {workload.name}: {problem}"
    benchmark.extra_info["items"] = (len(answer) if workload.kind == "eval"
                                     else adapter.items_done or workload.items)
    benchmark.pedantic(adapter.run, args=(workload, prepared), rounds=5, warmup_rounds=0)
