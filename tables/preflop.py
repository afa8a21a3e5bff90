#!/usr/bin/env python3
"""Writes the exact heads-up pre-flop matrix of hold'em: ``preflop_holdem.npy``.

Unlike ``generate.py`` this table is computed with the package itself (the
exact equity kernels), so it has its own manifest, ``STUDIES.json``, with the
same fields (shape, dtype, sha256).

    python tables/preflop.py            # about a minute or two on two cores
    python tables/preflop.py --check    # recompute and compare with the file

``preflop_holdem[a, b] = (twice the pot class a wins against class b, twice
the deals)`` summed over every pair of combos without a shared card and every
board, classes in the grid order of ``evaluator.ranges.CLASS_NAMES``.  The
ordering behind "top N%" ranges is each class's equity against a random hand,
which this table gives exactly.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def compute(threads: int | None = None) -> np.ndarray:
    from evaluator.studies import preflop_matrix
    return preflop_matrix(recompute=True, threads=threads).shares.astype(np.int64)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--check", action="store_true",
                        help="recompute and compare with the stored table")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    shares = compute(args.threads)
    if args.check:
        stored = np.load(args.out / "preflop_holdem.npy")
        if not np.array_equal(stored, shares):
            print("preflop_holdem.npy differs from a fresh computation", file=sys.stderr)
            return 1
        print("preflop_holdem.npy matches a fresh computation")
        return 0
    buffer = io.BytesIO()
    np.save(buffer, shares, allow_pickle=False)
    data = buffer.getvalue()
    (args.out / "preflop_holdem.npy").write_bytes(data)
    info = {"tables": {"preflop_holdem": {
        "file": "preflop_holdem.npy", "shape": list(shares.shape), "dtype": str(shares.dtype),
        "sha256": hashlib.sha256(data).hexdigest()}}}
    (args.out / "STUDIES.json").write_text(json.dumps(info, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
