"""Finds, verifies and loads the lookup tables (lazily, read-only).

The tables are ``.npy`` files described by ``MANIFEST.json`` (shape, dtype,
sha256), written by ``tables/generate.py``; ``STUDIES.json`` describes the
ones the package computes itself (``tables/preflop.py``).  An installed
package carries them in ``evaluator/tables``; a source checkout reads the
repository's ``tables/``; the environment variable ``EVALUATOR_TABLES``
points elsewhere (and then only there: call ``reset()`` after changing it).

A missing or damaged file (absent, unreadable, bad JSON, missing fields, a
hash, shape or dtype that differs, a truncated ``.npy``) raises ``TableError``
naming the file and how to rebuild it; ``verify()`` reports the same problems
as lines of text and never raises.

Kernels receive the arrays as arguments (never as globals), so Numba's
on-disk cache stays small and valid.
"""
from __future__ import annotations

import io
import json
import os
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import _layout
from .errors import TableError, check_type

__all__ = ["TableError", "tables_dir", "generator", "manifest", "verify", "load", "reset",
           "high", "high5", "HighTables", "omaha_direct", "load_many", "VALUE_TABLES"]

REBUILD = ("rebuild the tables with 'evaluator tables build' (in a source checkout: "
           "python tables/generate.py) or reinstall the package")
MANIFESTS = {"MANIFEST.json": REBUILD,
             "STUDIES.json": "recompute it with 'python tables/preflop.py' in a source "
                             "checkout or reinstall the package"}
ENTRY_FIELDS = {"file": str, "shape": list, "dtype": str, "sha256": str}


def _candidates() -> list[Path]:
    if os.environ.get("EVALUATOR_TABLES"):
        return [Path(os.environ["EVALUATOR_TABLES"])]
    here = Path(__file__).resolve().parent
    return [here / "tables", here.parent / "tables"]


@cache
def tables_dir() -> Path:
    """The folder holding MANIFEST.json and the ``.npy`` tables."""
    for folder in _candidates():
        if (folder / "MANIFEST.json").is_file():
            return folder
    looked = ", ".join(str(p / "MANIFEST.json") for p in _candidates())
    raise TableError(f"lookup tables not found (no {looked}); {REBUILD}", looked)


def generator() -> Path:
    """``generate.py``, the script that writes the tables, even where they are missing."""
    for folder in _candidates():
        if (folder / "generate.py").is_file():
            return folder / "generate.py"
    looked = ", ".join(str(p) for p in _candidates())
    raise TableError(f"tables/generate.py not found (looked in {looked}); reinstall the "
                     "package", looked)


def _read_manifest(filename: str) -> dict:
    """The ``tables`` of one manifest file, every entry checked for its fields."""
    path = tables_dir() / filename

    def damaged(why: str) -> TableError:
        return TableError(f"{path} is damaged ({why}); {MANIFESTS[filename]}", str(path))
    try:
        info = json.loads(path.read_text())
    except OSError as error:
        raise TableError(f"cannot read {path} ({error.strerror or error}); "
                         f"{MANIFESTS[filename]}", str(path)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise damaged(f"not JSON: {error}") from None
    if not isinstance(info, dict) or not isinstance(info.get("tables"), dict):
        raise damaged("no 'tables' object")
    for name, entry in info["tables"].items():
        if not isinstance(entry, dict):
            raise damaged(f"table {name!r} is not an object")
        for key, kind in ENTRY_FIELDS.items():
            if not isinstance(entry.get(key), kind):
                raise damaged(f"table {name!r} has no {kind.__name__} {key!r}")
        if not all(isinstance(n, int) and n >= 0 for n in entry["shape"]):
            raise damaged(f"table {name!r} has a shape that is not a list of sizes")
    if filename == "MANIFEST.json" and info.get("layout") != _layout.LAYOUT:
        raise TableError(f"{path}: the tables were generated with another key layout; "
                         f"{REBUILD}", "layout")
    return info


@cache
def manifest() -> dict:
    """MANIFEST.json, with the tables of STUDIES.json (when present) added to ``tables``."""
    info = _read_manifest("MANIFEST.json")
    if (tables_dir() / "STUDIES.json").is_file():
        info = dict(info, tables={**info["tables"], **_read_manifest("STUDIES.json")["tables"]})
    return info


def _sha256(data: bytes) -> str:
    import hashlib  # OpenSSL takes a while to load; only needed once tables are read
    return hashlib.sha256(data).hexdigest()


def _listed_in(name: str) -> str:
    """The manifest file that lists table ``name``."""
    studies = tables_dir() / "STUDIES.json"
    return "STUDIES.json" if studies.is_file() and name in _read_manifest(
        "STUDIES.json")["tables"] else "MANIFEST.json"


def _read(name: str, entry: dict) -> np.ndarray:
    """Table ``name`` from its file, checked against its manifest entry."""
    path = tables_dir() / entry["file"]

    def fail(why: str) -> TableError:
        return TableError(f"table {name!r}: {path} {why}; {MANIFESTS[_listed_in(name)]}",
                          str(path))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise fail("is missing") from None
    except OSError as error:
        raise fail(f"cannot be read ({error.strerror or error})") from None
    if _sha256(data) != entry["sha256"]:
        raise fail(f"is corrupt (its sha256 differs from {_listed_in(name)})")
    try:
        array = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        raise fail(f"is not a readable .npy file ({error})") from None
    if not isinstance(array, np.ndarray):
        raise fail("is not a .npy array")
    if list(array.shape) != entry["shape"] or str(array.dtype) != entry["dtype"]:
        raise fail(f"holds {array.dtype} {list(array.shape)}, {_listed_in(name)} says "
                   f"{entry['dtype']} {entry['shape']}")
    return array


def verify() -> list[str]:
    """Check every table against its manifest; return the problems found, one line each
    naming the file (none: []).  Never raises: an unreadable manifest is a problem line."""
    try:
        entries = manifest()["tables"]
    except TableError as error:
        return [str(error)]
    problems = []
    for name, entry in entries.items():
        try:
            _read(name, entry)
        except TableError as error:
            problems.append(str(error))
    return problems


def load(name: str) -> np.ndarray:
    """One table by name, checked against the manifest and made read-only."""
    check_type(name, str, "name", "a table name (str)")
    return _load(name)


@cache
def _load(name: str) -> np.ndarray:
    entries = manifest()["tables"]
    if name not in entries:
        raise TableError(f"unknown table {name!r} (not in {tables_dir() / 'MANIFEST.json'}"
                         f" or STUDIES.json); {REBUILD}", name)
    array = _read(name, entries[name])
    array.setflags(write=False)
    return array


@cache
def load_many(names: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """``load`` of each name, the tuple kept (a query asks for the same bundle every time)."""
    return tuple(load(name) for name in names)


def reset() -> None:
    """Forget the folder, manifest and tables found so far (after ``EVALUATOR_TABLES``
    changes)."""
    for function in (tables_dir, manifest, _load, load_many, high, high5, omaha_direct):
        function.cache_clear()


class HighTables(NamedTuple):
    """The high-hand tables, in the order the kernels take them."""
    card_keys: np.ndarray      # uint64 (52,)
    rank_offsets: np.ndarray   # uint16 (rows,), offsets >> OFFSET_SHIFT
    rank_values: np.ndarray    # uint16 (slots,); uint32 in high5()
    flush_values: np.ndarray   # uint16 (8192,)


#: the value tables of each ranking of high hands (``Game.values``): the 52-card one, and
#: the short deck's with a straight above three of a kind or below it.  All share the
#: card keys and the rank hash; short-deck hands are a subset of its multisets.
VALUE_TABLES = {"standard": ("rank_values", "flush_values"),
                "short": ("short_rank_values", "short_flush_values"),
                "short_trips": ("short_trips_rank_values", "short_flush_values")}


@cache
def high(values: str = "standard") -> HighTables:
    """The high-hand tables of one ranking (``VALUE_TABLES``)."""
    rank_values, flush_values = VALUE_TABLES[values]
    return HighTables(load("card_keys"), load("rank_offsets"), load(rank_values),
                      load(flush_values))


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
