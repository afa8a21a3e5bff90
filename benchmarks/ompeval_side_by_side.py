"""OMPEval, built natively from its public source, beside this project on the same machine.

    python benchmarks/ompeval_side_by_side.py --source PATH/TO/OMPEval [--rounds 3]
    NUMBA_CPU_NAME=haswell python benchmarks/ompeval_side_by_side.py --source ... --march haswell

Builds OMPEval with ``g++ -O3 -march=native`` (or ``--march``) in a temporary folder (with
a small driver of ours that calls its benchmark and its EquityCalculator on one thread),
then runs,
alternating, round after round:

* OMPEval's evaluation benchmark: random 7-card hands from 7-byte card arrays
  ("Rand1", 10 M hands, 50 passes) and from pre-summed Hand objects ("Rand2");
* ``evaluate_batch`` on 10 M random 7-card uint8 rows into ``out=``, one thread and two,
  and the default call, which allocates its output, on one thread;
* Monte Carlo, one thread: AsKs vs QhQd, QQ+,AKs against a random hand, three known
  hands, and two three-way range spots;
* exact, one thread: QQ+,AKs against two random hands on the flop 2c7d9h, every deal
  (``--exact-rounds``, one by default: OMPEval takes about 40 s).

The table printed at the end holds the medians and the ratios (ours / OMPEval). Nothing
of OMPEval is kept in this repository: point ``--source`` at a checkout of it.
Two build fixes are applied to the copy for current compilers (``<functional>`` included
ahead, ``constexpr`` on its generator's ``min``/``max``), neither touching what is timed.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

DRIVER = r"""
#include "omp/EquityCalculator.h"
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
void benchmark();
int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "eval") == 0) { benchmark(); return 0; }
    // "mc SECONDS HANDS...": Monte Carlo for that long; "exact BOARD HANDS...": enumerate
    bool exact = std::strcmp(argv[1], "exact") == 0;
    std::vector<omp::CardRange> ranges;
    for (int i = 3; i < argc; ++i) ranges.push_back(omp::CardRange(argv[i]));
    omp::EquityCalculator calculator;
    if (!exact) calculator.setTimeLimit(std::atof(argv[2]));
    uint64_t board = exact ? omp::CardRange::getCardMask(argv[2]) : 0;
    auto t0 = std::chrono::steady_clock::now();
    calculator.start(ranges, board, 0, exact, 0, nullptr, 0.2, 1);
    calculator.wait();
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    auto results = calculator.getResults();
    if (exact) {
        std::cout << "equity";
        for (unsigned i = 0; i < results.players; ++i) std::cout << " " << results.equity[i];
        std::cout << "\nseconds " << t << std::endl;
        return 0;
    }
    std::cout << "deals/s " << results.hands / t << std::endl;
}
"""

# exact, one thread: three ranges on a flop (OMPEval enumerates every deal)
EXACT_SPOT = ("2c7d9h", ("QQ+,AKs", "random", "random"))

SPOTS = {"AsKs vs QhQd": ("AsKs", "QhQd"), "QQ+,AKs vs random": ("QQ+,AKs", "random"),
         "AsKs vs QhQd vs JcTc": ("AsKs", "QhQd", "JcTc"),
         "QQ+,AKs vs random vs random": ("QQ+,AKs", "random", "random"),
         "QQ+,AKs vs 22+,A2s+ vs random": ("QQ+,AKs", "22+,A2s+", "random")}


def build(source: Path, folder: Path, march: str) -> Path:
    copy = folder / "OMPEval"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".git"))
    random_h = copy / "omp" / "Random.h"
    text = random_h.read_text()
    random_h.write_text(re.sub(r"static uint64_t (min|max)\(\)", r"static constexpr uint64_t \1()",
                               text))
    (copy / "driver.cpp").write_text(DRIVER)
    binary = copy / "side_by_side"
    sources = ["driver.cpp", "benchmark.cpp", *sorted(str(p.relative_to(copy))
                                                      for p in (copy / "omp").glob("*.cpp"))]
    subprocess.run(["g++", "-O3", f"-march={march}", "-std=c++11", "-pthread", "-include",
                    "functional", "-o", str(binary), *sources], cwd=copy, check=True)
    return binary


def ompeval_eval(binary: Path) -> dict[str, float]:
    out = subprocess.run([str(binary), "eval"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    rates = {}
    for label, key in (("card arrays", "Rand1"), ("precalculated Hand objects", "Rand2")):
        at = next(i for i, line in enumerate(lines) if label in line)
        rates[key] = float(re.search(r"([\d.]+)M/s", lines[at + 1]).group(1)) * 1e6
    return rates


def ompeval_mc(binary: Path, hands: tuple[str, ...], seconds: float) -> float:
    out = subprocess.run([str(binary), "mc", str(seconds), *hands], capture_output=True,
                         text=True, check=True).stdout
    return float(out.split()[-1])


def ompeval_exact(binary: Path, board: str, hands: tuple[str, ...]) -> tuple[float, list[float]]:
    """(seconds, equities) of OMPEval's enumeration of every deal."""
    out = subprocess.run([str(binary), "exact", board, *hands], capture_output=True,
                         text=True, check=True).stdout.split("\n")
    return float(out[1].split()[1]), [float(x) for x in out[0].split()[1:]]


def ours_exact(board: str, hands: tuple[str, ...]) -> tuple[float, list[float]]:
    from evaluator import equity
    start = time.perf_counter()
    result = equity("holdem", list(hands), board, exact=True, threads=1)
    return time.perf_counter() - start, [p.equity for p in result.players]


def ours_eval(hands: np.ndarray, threads: int, into: bool = True) -> float:
    """Hands a second: unchecked into a reused ``out=`` array, or (``into=False``) the
    default call, which checks the rows and allocates a fresh output each time."""
    from evaluator import evaluate_batch
    out = np.empty(len(hands), np.int32)
    evaluate_batch("holdem", hands, validate=False, threads=threads, out=out)
    times = []
    for _ in range(7):
        start = time.perf_counter()
        if into:
            evaluate_batch("holdem", hands, validate=False, threads=threads, out=out)
        else:
            evaluate_batch("holdem", hands, threads=threads)
        times.append(time.perf_counter() - start)
    return len(hands) / statistics.median(times)


def cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "unknown CPU"
    found = re.search(r"model name\s*:\s*(.+)", text)
    name = found.group(1).strip() if found else "unknown CPU"
    # a VM often names only the maker's line ("AMD EPYC"): the family and model say which
    # generation it is (AMD family 25 model 17: Zen 4; family 26: Zen 5)
    family = re.search(r"cpu family\s*:\s*(\d+)", text)
    model = re.search(r"^model\s*:\s*(\d+)", text, re.MULTILINE)
    if family and model:
        name += f" (family {family.group(1)}, model {model.group(1)})"
    return name


def ours_mc(hands: tuple[str, ...], trials: int) -> float:
    from evaluator import equity
    equity("holdem", list(hands), trials=1 << 18, seed=1, threads=1)
    times = []
    for seed in range(3):
        start = time.perf_counter()
        equity("holdem", list(hands), trials=trials, seed=seed, threads=1)
        times.append(time.perf_counter() - start)
    return trials / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, required=True, help="an OMPEval checkout")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="OMPEval's Monte Carlo time")
    parser.add_argument("--exact-rounds", type=int, default=1,
                        help="rounds of the exact three-way flop (OMPEval: about 40 s each)")
    parser.add_argument("--march", default="native",
                        help="g++ -march for OMPEval; set NUMBA_CPU_NAME to the same for ours")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from evaluator.kernels import vector

    from conftest import random_hands
    hands = random_hands(10_000_000, 7)
    figures: dict[str, list[float]] = {}

    def note(key: str, value: float) -> None:
        figures.setdefault(key, []).append(value)
        print(f"  {key}: {value / 1e6:.1f} M/s", flush=True)

    with tempfile.TemporaryDirectory() as folder:
        binary = build(args.source, Path(folder), args.march)
        for round_ in range(args.rounds):
            print(f"round {round_ + 1} of {args.rounds}", flush=True)
            for key, value in ompeval_eval(binary).items():
                note(f"OMPEval {key}", value)
            note("ours, 1 thread", ours_eval(hands, 1))
            note("ours, 2 threads", ours_eval(hands, 2))
            note("ours, default call", ours_eval(hands, 1, into=False))
            for spot, players in SPOTS.items():
                note(f"OMPEval MC {spot}", ompeval_mc(binary, players, args.seconds))
                note(f"ours MC {spot}", ours_mc(players, 20_000_000 if len(players) == 2
                                                else 5_000_000))
        board, three = EXACT_SPOT
        ours_exact(board, three)                     # compiled or loaded outside the timing
        exact_times: dict[str, list[float]] = {"OMPEval": [], "ours": []}
        for _ in range(args.exact_rounds):
            for name, run in (("OMPEval", lambda: ompeval_exact(binary, board, three)),
                              ("ours", lambda: ours_exact(board, three))):
                seconds, shares = run()
                exact_times[name].append(seconds)
                print(f"  exact {name}: {seconds:.2f} s, equities "
                      f"{', '.join(f'{x:.6f}' for x in shares)}", flush=True)
    median = {key: statistics.median(values) for key, values in figures.items()}
    rows = [("7-card eval, card arrays (Rand1) vs 1 thread", "OMPEval Rand1", "ours, 1 thread"),
            ("7-card eval, Hand objects (Rand2) vs 1 thread", "OMPEval Rand2", "ours, 1 thread"),
            ("7-card eval, the default call (allocating) vs Rand1", "OMPEval Rand1",
             "ours, default call"),
            ("7-card eval, 2 threads vs 1 thread (ours)", "ours, 1 thread", "ours, 2 threads"),
            *((f"Monte Carlo {spot}", f"OMPEval MC {spot}", f"ours MC {spot}") for spot in SPOTS)]
    import os
    numba_cpu = os.environ.get("NUMBA_CPU_NAME", "host")
    print(f"\n{cpu_model()}; g++ -march={args.march}; Numba target {numba_cpu}; "
          f"vector path: {vector.path()}; medians of {args.rounds} rounds\n")
    print("| task | baseline | ours | ratio |\n|---|---|---|---|")
    for label, base, ours in rows:
        print(f"| {label} | {median[base] / 1e6:.0f} M/s | {median[ours] / 1e6:.0f} M/s | "
              f"{median[ours] / median[base]:.2f}x |")
    base, ours = (statistics.median(exact_times[k]) for k in ("OMPEval", "ours"))
    print(f"| exact, {' vs '.join(three)} on {board}, 1 thread | {base:.2f} s | "
          f"{ours:.2f} s | {base / ours:.0f}x |")


if __name__ == "__main__":
    main()
