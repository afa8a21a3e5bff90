"""Rows of a study written out or handed to pandas, one way for every study.

``write_rows(rows, path)`` writes by the file's suffix: ``.csv`` (a header, then one line a
row), ``.jsonl`` / ``.ndjson`` (one JSON object a line), ``.json`` (one JSON document: a list
of the rows) or ``.parquet`` (pyarrow, the ``data`` extra).  ``rows_frame(rows)`` is a pandas
DataFrame (the ``data`` extra).  ``check_rows_path(path, option)`` refuses a path that cannot
be written before any work starts.
"""
from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from .errors import ArgumentTypeError, EvaluatorError

__all__ = ["ROW_SUFFIXES", "RowsExport", "check_output", "check_fresh", "check_rows_path",
           "parquet_module",
           "parquet_table", "rows_frame", "write_rows"]

ROW_SUFFIXES = (".csv", ".jsonl", ".ndjson", ".json", ".parquet")


def check_output(path: str | Path, suffixes: Iterable[str], option: str = "out") -> Path:
    """``path`` as a ``Path`` if a file of one of ``suffixes`` can be written there.

    Called before any work, so a typo in an output path costs nothing.  The
    error names ``option`` and the path: a missing folder, a folder in the
    file's place, a file or folder that cannot be written, or an unknown suffix.
    """
    suffixes = tuple(suffixes)
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"{option} must be a path, got {type(path).__name__} "
                                f"{path!r}"[:300], path)
    path = Path(path)
    shown = str(path)
    if path.is_dir():
        raise EvaluatorError(f"{option} {shown!r} is a folder, not a file", shown)
    if path.suffix.lower() not in suffixes:
        raise EvaluatorError(f"{option} {shown!r}: unknown file type "
                             f"{path.suffix or '(no suffix)'!r}; use "
                             f"{', '.join(suffixes)}", shown)
    parent = path.parent
    if not parent.is_dir():
        raise EvaluatorError(f"{option} {shown!r}: no such folder {str(parent)!r}", shown)
    # tried, not asked of the permission bits: root passes those, and a read-only
    # file system or a full quota says no only when a file is opened
    try:
        if path.exists():
            with path.open("ab"):           # opened for writing, left as it was
                pass
        else:
            fd, probe = tempfile.mkstemp(prefix=".evaluator-", dir=parent)
            os.close(fd)
            os.unlink(probe)
    except OSError as error:
        where = "the file is not writable" if path.exists() else \
            f"cannot create files in {str(parent)!r}"
        raise EvaluatorError(f"{option} {shown!r}: {where} ({error.strerror or error})",
                             shown) from None
    return path


def check_fresh(path: str | Path, option: str = "out", *, resume: bool = False,
                overwrite: bool = False, resumable: bool = True,
                words: tuple[str, str] = ("resume=True", "overwrite=True")) -> None:
    """Refuse, before any work, to write over a file that holds something when the call
    asked neither to ``resume`` it nor to ``overwrite`` it: a finished or interrupted
    run's rows are never lost to a command run again.  ``words`` name the two switches
    in the caller's terms (``--resume``, ``--overwrite`` on the command line);
    ``resumable`` says whether the output can be resumed at all."""
    if resume and overwrite:
        raise EvaluatorError(f"{words[0]} and {words[1]} cannot be combined: one finishes "
                             "the file, the other replaces it", option)
    path = Path(path)
    if resume or overwrite or not path.is_file() or path.stat().st_size == 0:
        return
    how = (f"{words[0]} finishes it, {words[1]} replaces it" if resumable
           else f"{words[1]} replaces it")
    raise EvaluatorError(f"{option} {str(path)!r} exists ({how}); nothing was written",
                         str(path))


def rows_file_beside(out: str | Path, option: str = "out", *, resume: bool = False,
                     overwrite: bool = False,
                     words: tuple[str, str] = ("resume=True", "overwrite=True")) -> Path:
    """Where the rows of an output written whole at the end (``.json``, ``.parquet``, a
    study's table) stream meanwhile: ``OUT.rows.jsonl``, which an interrupted run leaves
    to be resumed and the output's end removes.  Checked before any work: the rows can be
    written there (and pyarrow is installed where ``out`` is Parquet), and it holds no
    other run's rows unless the call resumes or overwrites them (``check_fresh``)."""
    out = Path(out)
    rows_file = out.with_name(out.name + ".rows.jsonl")
    named = f"the rows file of {option}"
    check_output(rows_file, (".jsonl",), named)
    if out.suffix.lower() == ".parquet":
        _pyarrow(str(out))
    check_fresh(rows_file, named, resume=resume, overwrite=overwrite, words=words)
    return rows_file


def check_rows_path(path: str | Path, option: str = "path") -> Path:
    """``path`` if rows can be written there (a known suffix, a folder that exists and can
    be written, pyarrow installed for Parquet), else an ``EvaluatorError`` naming it."""
    checked = check_output(path, ROW_SUFFIXES, option)
    if checked.suffix.lower() == ".parquet":
        _pyarrow(str(checked))
    return checked


def _pyarrow(shown: str):
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise EvaluatorError('Parquet needs pyarrow (the "data" extra): pip install pyarrow',
                             shown) from None
    return pa, pq


def parquet_module(shown: str):
    """``pyarrow.parquet``, or an error naming the extra where pyarrow is missing."""
    return _pyarrow(shown)[1]


def parquet_table(rows: Sequence[dict]):
    """The rows as a pyarrow table with a column for every key of every row, in the order
    first seen (``Table.from_pylist`` takes the first row's keys alone, and would drop a
    later row's ``error`` or ``stderr``); a row without one holds null there."""
    pa, _ = _pyarrow("parquet")
    header = list(dict.fromkeys(key for row in rows for key in row))
    return pa.Table.from_pylist([{key: row.get(key) for key in header} for row in rows])


def _plain(value: Any) -> Any:
    """A cell as JSON and CSV take it (NumPy scalars become Python numbers)."""
    item = getattr(value, "item", None)
    return item() if callable(item) and not isinstance(value, (list, dict, str)) else value


def write_rows(rows: Sequence[dict], path: str | Path) -> Path:
    """Write ``rows`` (dicts) to ``path`` by its suffix (see the module doc); returns the
    path.  A CSV header holds every key of every row, in the order first seen (a row
    without one leaves its cell empty).  An empty list writes a file with no rows."""
    path = check_rows_path(path, "path")
    try:
        return _write_rows(rows, path)
    except OSError as error:             # a disk that fills, a folder that changed since
        raise EvaluatorError(f"cannot write {str(path)!r}: {error.strerror or error}",
                             str(path)) from None


def _write_rows(rows: Sequence[dict], path: Path) -> Path:
    suffix = path.suffix.lower()
    rows = [{k: _plain(v) for k, v in row.items()} for row in rows]
    if suffix == ".parquet":
        _, pq = _pyarrow(str(path))
        pq.write_table(parquet_table(rows), path)
    elif suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as f:
            header = list(dict.fromkeys(key for row in rows for key in row))
            writer = csv.DictWriter(f, fieldnames=header)
            writer.writeheader()
            writer.writerows(rows)
    elif suffix == ".json":
        with path.open("w", encoding="utf-8") as f:
            json.dump(rows, f)
            f.write("\n")
    else:
        with path.open("w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
    return path


def rows_frame(rows: Sequence[dict]):
    """The rows as a pandas DataFrame (pandas: the "data" extra)."""
    try:
        import pandas as pd
    except ImportError:
        raise EvaluatorError('to_frame() needs pandas (the "data" extra): pip install pandas',
                             "pandas") from None
    return pd.DataFrame([{k: _plain(v) for k, v in row.items()} for row in rows])


class _HasRows(Protocol):
    @property
    def rows(self) -> Sequence[dict]: ...


def _shares(values: Sequence[float]) -> str:
    return " vs ".join(f"{v:.2%}" for v in values[:6]) + (
        f" (and {len(values) - 6} more)" if len(values) > 6 else "")


def rows_repr(result: Any) -> str:
    """A study's result in a line: what it is, its spot, its headline figures and how many
    rows it holds (``.rows``, ``.to_frame()`` hold the table: the whole ``repr`` of a flop
    study's rows ran to 800 KB)."""
    from .errors import short_text
    spot = str(getattr(result, "game", ""))
    hands = getattr(result, "hands", None)
    if hands:
        shown = " vs ".join(repr(short_text(str(h), 40)) for h in hands[:4])
        spot += f": {shown}" + (f" and {len(hands) - 4} more" if len(hands) > 4 else "")
    board = getattr(result, "board", "")
    if board:
        spot += f" on {board}"
    figures = []
    try:
        exact = getattr(result, "exact", None)
        if isinstance(exact, bool):
            figures.append("exact" if exact else "Monte Carlo")
        headline = getattr(result, "_headline", None)
        if callable(headline):
            figures.append(headline())
        elif callable(getattr(result, "equity", None)):
            figures.append("equity " + _shares(result.equity()))
        elif isinstance(getattr(result, "mean", None), float):
            figures.append(f"mean equity {result.mean:.2%}")
        rows = f"{len(result.rows):,} rows"
    except Exception:                  # noqa: BLE001 - a repr never raises: damaged rows
        rows = "rows that cannot be read"
    return f"<{type(result).__name__} {spot}{''.join(f'; {f}' for f in figures)}; {rows} " \
           "(.rows, .to_frame())>"


class RowsExport:
    """``to_frame()`` and ``write(path)`` for a result that holds its table as ``rows``
    (a list of dicts, a field or a property): every study's result.

    Its ``repr`` is a line (``rows_repr``), in each subclass too: a dataclass's own repr
    (every row) is not made where the class dict holds one already, and
    ``__init_subclass__`` puts this one there first."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = rows_repr          # type: ignore[method-assign,assignment]

    def to_frame(self: _HasRows):
        """The rows as a pandas DataFrame (pandas: the "data" extra)."""
        return rows_frame(self.rows)

    def write(self: _HasRows, path: str | Path) -> Path:
        """Write the rows to ``.csv``, ``.jsonl``, ``.json`` (one JSON list) or ``.parquet``
        (pyarrow, the ``data`` extra), by the file's suffix."""
        return write_rows(self.rows, path)
