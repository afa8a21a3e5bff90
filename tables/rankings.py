#!/usr/bin/env python3
"""Writes the starting-hand ranking of each game behind its ``N%`` ranges: ``ranking_<game>.npy``.

Hands are grouped into suit classes (hands that differ only by a renaming of suits);
each class gets a score, and the classes are stored best first, ties by their first
hand's card mask.  A row is the class's first hand (card ids, increasing) and the
class's number of hands (uint8, at most 24).

Scores, one method per game:

* Omaha, Omaha hi-lo, 5- and 6-card Omaha, Tahoe and "The": hot-cold equity of the
  class's first hand against one random hand (ties split, hi-lo pots halved), Monte
  Carlo with ``TRIALS[game]`` deals per class from the seed (class index), so its
  standard error is at most 0.5 / sqrt(trials): 0.35 points of equity with 20,000
  (4-card Omaha games), 0.79 with 4,000 (5-card), 1.6 with 1,000 (6-card), 0.22 with
  50,000 (3-card games).  Exact enumeration is too long for a ranking of tens of
  thousands of classes against every hand (a 4-card class against a random hand is
  about 8e11 deals).
* Short deck: the same against a random hand of the 36-card deck, 400,000 deals for each
  of its 81 classes (standard error at most 0.08 points).
* Teen Patti: hand strength (the evaluator's value), exactly.

Like ``preflop.py`` the tables are computed with the package itself, so they are
listed in ``STUDIES.json`` (shape, dtype, sha256) beside the pre-flop matrix.

    python tables/rankings.py                  # every game (about ten minutes on two cores)
    python tables/rankings.py omaha tahoe      # some games
    python tables/rankings.py --check omaha    # recompute and compare with the file
"""
from __future__ import annotations

import argparse
import hashlib
import io
import itertools
import json
import math
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

TRIALS = {"omaha": 20_000, "omaha8": 20_000, "omaha5": 4_000, "omaha5_8": 4_000,
          "omaha6": 1_000, "omaha6_8": 1_000, "tahoe": 50_000, "the": 50_000,
          "short_deck": 400_000}
STRENGTH = ("teen_patti",)


def all_hands(hole: int, deck: tuple[int, ...], chunk: int = 1 << 20):
    """Card masks of every hand of ``hole`` cards from ``deck``, in chunks (6-card hands
    are 20 M)."""
    out: list[int] = []
    for combo in itertools.combinations(deck, hole - 1):
        head = sum(1 << c for c in combo)
        out.extend(head | (1 << c) for c in deck if c > combo[-1])
        if len(out) >= chunk:
            yield np.array(out, np.uint64)
            out = []
    if out:
        yield np.array(out, np.uint64)


def classes(hole: int, deck: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Each suit class's name (smallest mask of the class) and its number of hands."""
    from evaluator.rankings import canonical
    names, counts = [], []
    for masks in all_hands(hole, deck):
        n, c = np.unique(canonical(masks), return_counts=True)
        names.append(n)
        counts.append(c)
    name = np.concatenate(names)
    count = np.concatenate(counts)
    order = np.argsort(name, kind="stable")
    name, count = name[order], count[order]
    starts = np.flatnonzero(np.concatenate(([True], name[1:] != name[:-1])))
    return name[starts], np.add.reduceat(count, starts)


def rows_of(masks: np.ndarray, hole: int) -> np.ndarray:
    rows = np.empty((len(masks), hole), np.uint8)
    rest = masks.copy()
    for j in range(hole):
        low = rest & (~rest + np.uint64(1))
        rows[:, j] = np.frexp(low.astype(np.float64))[1] - 1
        rest ^= low
    return rows


def _equities(task: tuple[str, np.ndarray, int, int]) -> np.ndarray:
    game, rows, first, trials = task
    from evaluator import equity
    from evaluator.cards import format_cards
    out = np.empty(len(rows))
    for i, row in enumerate(rows):
        result = equity(game, [format_cards(row, sep=""), "random"], trials=trials,
                        seed=first + i, threads=1)
        out[i] = result.players[0].equity
    return out


def scores(game: str, rows: np.ndarray, workers: int) -> np.ndarray:
    if game in STRENGTH:
        from evaluator import evaluate_batch
        return evaluate_batch(game, rows).astype(np.float64)
    step = max(1, math.ceil(len(rows) / (workers * 20)))
    tasks = [(game, rows[a:a + step], a, TRIALS[game]) for a in range(0, len(rows), step)]
    done: list[np.ndarray] = []
    with ProcessPoolExecutor(workers) as pool:
        for k, part in enumerate(pool.map(_equities, tasks), start=1):
            done.append(part)
            print(f"\r{game}: {k}/{len(tasks)} chunks", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return np.concatenate(done)


def compute(game: str, workers: int) -> np.ndarray:
    from evaluator.games import game as get_game
    g = get_game(game)
    hole = g.hole
    names, counts = classes(hole, g.deck)
    rows = rows_of(names, hole)
    score = scores(game, rows, workers)
    order = np.lexsort((names, -score))          # best first; ties by the class name
    table = np.empty((len(rows), hole + 1), np.uint8)
    table[:, :hole] = rows[order]
    table[:, hole] = counts[order]
    assert int(counts.sum()) == math.comb(len(g.deck), hole)
    return table


def main(argv=None) -> int:
    from evaluator.rankings import RANKED_GAMES
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(RANKED_GAMES))
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--check", action="store_true",
                        help="recompute and compare with the stored tables")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    manifest_path = args.out / "STUDIES.json"
    info = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {"tables": {}}
    status = 0
    for game in args.games:
        if game not in RANKED_GAMES:
            parser.error(f"no ranking for {game!r}; games: {', '.join(RANKED_GAMES)}")
        table = compute(game, args.workers)
        name = f"ranking_{game}"
        if args.check:
            same = np.array_equal(np.load(args.out / f"{name}.npy"), table)
            print(f"{name}.npy {'matches' if same else 'differs from'} a fresh computation")
            status |= not same
            continue
        buffer = io.BytesIO()
        np.save(buffer, table, allow_pickle=False)
        data = buffer.getvalue()
        (args.out / f"{name}.npy").write_bytes(data)
        info["tables"][name] = {"file": f"{name}.npy", "shape": list(table.shape),
                                "dtype": str(table.dtype),
                                "sha256": hashlib.sha256(data).hexdigest()}
        manifest_path.write_text(json.dumps(info, indent=2) + "\n")
        print(f"{name}.npy: {len(table):,} classes")
    return status


if __name__ == "__main__":
    sys.exit(main())
