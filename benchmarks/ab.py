"""Time this checkout against an older revision, side by side in one process.

    python benchmarks/ab.py f034478                 # every case
    python benchmarks/ab.py f034478 "range MC" PLO  # cases whose names contain these
    python benchmarks/ab.py --pairs 15 f034478 PLO  # more pairs on a noisy machine

The revision's ``evaluator/`` and ``tables/`` are extracted with ``git archive`` into a
temporary folder and imported as ``evaluator_old`` (its first run compiles its kernels).
Each case alternates old and new five times (``--pairs``); the figure is the median of the paired
ratios old time / new time (above 1: the checkout is faster), one thread.  Kernel moves
and refactors are judged this way, never across separate runs: the machine is shared
and noisy, and pairs cancel most of its drift.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def _old(revision: str):
    folder = Path(tempfile.mkdtemp(prefix="evaluator-ab-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "evaluator",
                              "tables"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "evaluator").rename(folder / "evaluator_old")
    sys.path.insert(0, str(folder))
    import evaluator_old
    return evaluator_old


def _best(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def cases(rng: np.random.Generator):
    h7 = np.argsort(rng.random((2_000_000, 52)), axis=1)[:, :7].astype(np.uint8)
    h9 = np.argsort(rng.random((1_000_000, 52)), axis=1)[:, :9].astype(np.uint8)
    h8 = np.ascontiguousarray(h9[:, :8])
    o7, o9 = np.empty(len(h7), np.int32), np.empty(len(h9), np.int32)
    mc = {"seed": 1, "threads": 1}
    return {
        "7-card batch, 2 M": (lambda m: m.evaluate_batch("holdem", h7, validate=False,
                                                         threads=1, out=o7), 3),
        "7-card default call, 2 M": (lambda m: m.evaluate_batch("holdem", h7, threads=1), 3),
        "Omaha batch, 1 M": (lambda m: m.evaluate_batch("omaha", h9, validate=False,
                                                        threads=1, out=o9), 3),
        "Tahoe batch, 1 M": (lambda m: m.evaluate_batch("tahoe", h8, validate=False,
                                                        threads=1, out=o9), 3),
        "HU exact pre-flop": (lambda m: m.equity("holdem", ["AsKs", "QhQd"], threads=1), 20),
        "flop exact query": (lambda m: m.equity("holdem", ["AsKs", "QhQd"], "2c7d9h",
                                                threads=1), 200),
        "HU MC, 2 M": (lambda m: m.equity("holdem", ["AsKs", "QhQd"], trials=2_000_000,
                                          **mc), 3),
        "range MC, 2 M": (lambda m: m.equity("holdem", ["QQ+,AKs", "random"],
                                             trials=2_000_000, **mc), 3),
        "HU MC on a flop, 2 M": (lambda m: m.equity("holdem", ["AsKs", "QhQd"], "2c7d9h",
                                                    trials=2_000_000, **mc), 3),
        "range MC on a flop, 2 M": (lambda m: m.equity("holdem", ["QQ+,AKs", "random"],
                                                       "2c4c5h", trials=2_000_000, **mc), 3),
        "partly known exact": (lambda m: m.equity("holdem", ["AsKs", "Qh?"], "2c7d9h",
                                                  threads=1), 5),
        "range flop exact": (lambda m: m.equity("holdem", ["QQ+,AKs", "random"], "2c4c5h",
                                                threads=1), 10),
        "PLO exact": (lambda m: m.equity("omaha", ["AsAhKsKh", "QdQcJdTc"], threads=1), 10),
        "PLO MC, 2 M": (lambda m: m.equity("omaha", ["AsAhKsKh", "QdQcJdTc"],
                                           trials=2_000_000, **mc), 3),
        "PLO8 exact": (lambda m: m.equity("omaha8", ["Ah2h3sKs", "AdKdQcJc"], threads=1), 10),
        "PLO8 MC, 2 M": (lambda m: m.equity("omaha8", ["Ah2h3sKs", "AdKdQcJc", "5s4s8h8d"],
                                            trials=2_000_000, **mc), 3),
        "Tahoe MC, 1 M": (lambda m: m.equity("tahoe", ["AsKsQs", "JhJdTc"],
                                             trials=1_000_000, **mc), 3),
        "QQ+,AKs vs random exact": (lambda m: m.equity("holdem", ["QQ+,AKs", "random"],
                                                       threads=1), 1),
        # every combo against the game's own 40% (the combo sweeps of step 19)
        "PLO combos, river": (lambda m: m.combo_equity("omaha", "40%", "2c7d9hKsAd",
                                                       threads=1), 5),
        "PLO combos, turn": (lambda m: m.combo_equity("omaha", "40%", "2c7d9hKs",
                                                      threads=1), 1),
        "PLO8 combos, turn": (lambda m: m.combo_equity("omaha8", "40%", "2c7d9hKs",
                                                       threads=1), 1),
        "PLO8 combos, river": (lambda m: m.combo_equity("omaha8", "40%", "2c7d9hKsAd",
                                                        threads=1), 5),
        "PLO5-8 combos, river": (lambda m: m.combo_equity("omaha5_8", "40%", "2c7d9hKsAd",
                                                          threads=1), 1),
        "PLO6-8 showdown, river": (_plo6_8_showdown, 1),
        "PLO combos, river, 2 threads": (lambda m: m.combo_equity(
            "omaha", "40%", "2c7d9hKsAd", threads=2), 5),
        "PLO5-8 combos, river, 2 threads": (lambda m: m.combo_equity(
            "omaha5_8", "40%", "2c7d9hKsAd", threads=2), 1),
        "PLO5 combos, river": (lambda m: m.combo_equity("omaha5", "40%", "2c7d9hKsAd",
                                                        threads=1), 1),
        "PLO8 10% vs 40% exact, river": (lambda m: m.equity(
            "omaha8", ["10%", "40%"], "2c7d9hKsAd", exact=True, threads=1), 3),
        "PLO 10% vs 40% exact, flop": (lambda m: m.equity(
            "omaha", ["10%", "40%"], "2c7d9h", exact=True, threads=1), 1),
        "Tahoe 10% vs 40% exact, flop": (lambda m: m.equity(
            "tahoe", ["10%", "40%"], "2c7d9h", exact=True, threads=1), 1),
        "The 10% vs 40% exact, flop": (lambda m: m.equity(
            "the", ["10%", "40%"], "2c7d", exact=True, threads=1), 1),
        "PLO runout study": (lambda m: m.runout_study(
            "omaha", ["10%", "40%"], "2c7d9h", threads=1, progress=False), 1),
        "PLO 10% vs 40% MC, flop, 1,000 deals": (lambda m: m.equity(
            "omaha", ["10%", "40%"], "2c7d9h", trials=1000, seed=1, threads=1), 20),
        "PLO5 10% vs 40% MC, flop, 1,000 deals": (lambda m: m.equity(
            "omaha5", ["10%", "40%"], "2c7d9h", trials=1000, seed=1, threads=1), 5),
    }


_VECTORS: dict[str, np.ndarray] = {}


def _plo6_8_showdown(m):
    """Showdown values of 6-card Omaha hi-lo's 40% on a river: the vector made once (by
    this checkout), so that both sides time the sweep alone."""
    if "omaha6_8" not in _VECTORS:
        import evaluator
        _VECTORS["omaha6_8"] = evaluator.Range("40%", "omaha6_8").vector()
    return m.showdown_values("omaha6_8", _VECTORS["omaha6_8"], "2c7d9hKsAd", threads=1)


def main(argv: list[str]) -> None:
    if not argv or argv[0] in ("-h", "--help"):
        raise SystemExit(__doc__)
    pairs = 5
    if argv[0] == "--pairs":
        pairs, argv = int(argv[1]), argv[2:]
    revision, only = argv[0], argv[1:]
    import evaluator as new
    old = _old(revision)
    for name, (call, repeats) in cases(np.random.default_rng(1)).items():
        if only and not any(word in name for word in only):
            continue
        call(old), call(new)                         # compile or load both first
        ratios = [_best(partial(call, old), repeats) / _best(partial(call, new), repeats)
                  for _ in range(pairs)]
        print(f"{name:26s} {statistics.median(ratios):.3f}x  "
              f"(min {min(ratios):.3f}, max {max(ratios):.3f})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
