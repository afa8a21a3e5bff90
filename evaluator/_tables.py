"""Finds, verifies and loads the lookup tables (lazily, read-only).

The tables are ``.npy`` files described by ``MANIFEST.json`` (shape, dtype,
sha256), written by ``tables/generate.py``.  An installed package carries them
in ``evaluator/tables``; a source checkout reads the repository's ``tables/``;
the environment variable ``EVALUATOR_TABLES`` points elsewhere.

Kernels receive the arrays as arguments (never as globals), so Numba's
on-disk cache stays small and valid.
"""
from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import _layout
from .errors import EvaluatorError

__all__ = ["TableError", "tables_dir", "manifest", "verify", "load", "high", "high5",
           "HighTables", "omaha_direct"]


class TableError(EvaluatorError):
    """The lookup tables are missing, corrupt or from another version."""


def _candidates() -> list[Path]:
    here = Path(__file__).resolve().parent
    found = []
    if os.environ.get("EVALUATOR_TABLES"):
        found.append(Path(os.environ["EVALUATOR_TABLES"]))
    found += [here / "tables", here.parent / "tables"]
    return found


@cache
def tables_dir() -> Path:
    """The folder holding MANIFEST.json and the ``.npy`` tables."""
    for folder in _candidates():
        if (folder / "MANIFEST.json").is_file():
            return folder
    looked = ", ".join(str(p) for p in _candidates())
    raise TableError(f"lookup tables not found (looked in {looked}); "
                     "run 'python tables/generate.py' in a source checkout", looked)


@cache
def manifest() -> dict:
    info = json.loads((tables_dir() / "MANIFEST.json").read_text())
    if info.get("layout") != _layout.LAYOUT:
        raise TableError("tables were generated with another key layout; regenerate them",
                         "layout")
    studies = tables_dir() / "STUDIES.json"      # tables computed by the package itself
    if studies.is_file():
        info = dict(info, tables={**info["tables"],
                                  **json.loads(studies.read_text())["tables"]})
    return info


def _sha256(data: bytes) -> str:
    import hashlib  # OpenSSL takes a while to load; only needed once tables are read
    return hashlib.sha256(data).hexdigest()


def verify() -> list[str]:
    """Check every table against the manifest; return the problems found (none: [])."""
    problems = []
    for name, entry in manifest()["tables"].items():
        path = tables_dir() / entry["file"]
        if not path.is_file():
            problems.append(f"{name}: missing file {path}")
        elif _sha256(path.read_bytes()) != entry["sha256"]:
            problems.append(f"{name}: sha256 differs from MANIFEST.json")
    return problems


@cache
def load(name: str) -> np.ndarray:
    """One table by name, checked against the manifest and made read-only."""
    entries = manifest()["tables"]
    if name not in entries:
        raise TableError(f"unknown table {name!r}", name)
    entry = entries[name]
    path = tables_dir() / entry["file"]
    data = path.read_bytes()
    if _sha256(data) != entry["sha256"]:
        raise TableError(f"table {name!r} is corrupt (sha256 differs from the manifest)", name)
    array = np.load(path, allow_pickle=False)
    if list(array.shape) != entry["shape"] or str(array.dtype) != entry["dtype"]:
        raise TableError(f"table {name!r} has the wrong shape or dtype", name)
    array.setflags(write=False)
    return array


class HighTables(NamedTuple):
    """The high-hand tables, in the order the kernels take them."""
    card_keys: np.ndarray      # uint64 (52,)
    rank_offsets: np.ndarray   # uint16 (rows,), offsets >> OFFSET_SHIFT
    rank_values: np.ndarray    # uint16 (slots,); uint32 in high5()
    flush_values: np.ndarray   # uint16 (8192,)


@cache
def high() -> HighTables:
    return HighTables(*(load(name) for name in HighTables._fields))


@cache
def high5() -> HighTables:
    """``high()`` with the rank hash of five-card multisets only: the same
    kernels run on it for rows of exactly five cards, with both lookups in L1."""
    return high()._replace(rank_offsets=load("rank_offsets5"), rank_values=load("rank_values5"))


@cache
def omaha_direct() -> np.ndarray:
    """The best non-flush four-card Omaha hand for every (board, hole) pair of rank
    multisets: uint16 (6,175, 1,820), 22.5 MB, read-only.

    Derived here, not shipped: entry ``[b, j]`` is the best of ``omaha_pairs[b, c]``
    over the six pair columns ``c`` of hole ``j`` (``omaha_hole_pairs``).  One
    lookup then evaluates a hand where the pairs need six; building it takes about
    0.1 s, once per process.
    """
    pairs = load("omaha_pairs")
    columns = load("omaha_hole_pairs")
    table = np.empty((pairs.shape[0], columns.shape[0]), np.uint16)
    step = 64                         # holes at a time: a 4.7 MB intermediate, not 135 MB
    for start in range(0, columns.shape[0], step):
        block = columns[start:start + step]
        table[:, start:start + len(block)] = pairs[:, block].max(axis=2)
    table.setflags(write=False)
    return table
