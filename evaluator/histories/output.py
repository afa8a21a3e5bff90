"""Where all-in EV rows go: a CSV or JSON Lines file written a hand at a time (flushed at
least every second), resumed by skipping the hands it already holds (the last one, which
an interruption may have cut, is computed again), or standard output.
A hand that could not be analysed is one row with its ``error`` (``--on-error record``)."""
from __future__ import annotations

import csv
import functools
import io
import json
import operator
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from ..errors import EvaluatorError
from .allin import AllinRow
from .hand import Problem

__all__ = ["COLUMNS", "RowWriter", "problem_row", "hand_key"]

COLUMNS = ["hand", "player", "seat", "game", "net", "allin_ev", "allin_equity",
           "allin_street", "cards", "board", "pots", "big_blind", "error"]
FLUSH_SECONDS = 1.0


def hand_key(hand: str) -> str:
    """A row's ``hand`` (``path#n`` or ``path:line``) with its path made absolute, so that
    a resumed run finds its hands however their paths are written."""
    for mark in ("#", ":"):
        path, sep, rest = hand.rpartition(mark)
        if sep and rest.isdigit() and path:
            return _real(path) + sep + rest
    return _real(hand) if hand != "-" else hand


def _key_parts(hand: str) -> tuple[str, int | None]:
    """``(the hand_key of its file, its number)`` for ``path#n``; ``(hand_key, None)`` for
    a file that failed whole (``path:line``, ``path``)."""
    path, sep, rest = hand.rpartition("#")
    if sep and rest.isdigit() and path:
        return (_real(path) if path != "-" else path), int(rest)
    return hand_key(hand), None


@functools.lru_cache(maxsize=4096)
def _real(path: str) -> str:
    return os.path.realpath(path)       # a file's hands one after another: found once


def _row_ok(record: dict) -> bool:
    """Whether a row read back holds what ``AllinRow.from_dict`` reads."""
    try:
        AllinRow.from_dict(record)
    except (KeyError, TypeError, ValueError):
        return False
    return True


# a player's row's cells, the last column (``error``) empty
_cells = operator.attrgetter(*COLUMNS[:-1])


def problem_row(problem: Problem) -> dict:
    """A hand left out, as a row: its file and index (or line), and the reason."""
    return {"hand": problem.where, "error": f"line {problem.line}: {problem.reason}"
            if problem.line else problem.reason}


class RowWriter:
    """Rows to ``path`` (``.csv``, ``.jsonl``/``.ndjson``, ``.parquet``) or to ``stream``; with
    ``resume`` the rows already in the file are read back one at a time (each to ``kept``;
    ``is_done`` tells their hands, ``hands`` and ``rows`` count them) and the last hand,
    which an interrupted run may have cut, is taken off to be computed again."""

    def __init__(self, path: str | None, resume: bool = False,
                 stream: IO[str] | None = None,
                 kept: Callable[[dict], object] = lambda record: None) -> None:
        self.path = Path(path) if path else None
        # Parquet is written whole at the end: the rows stream to a JSON Lines file beside
        # it (OUT.rows.jsonl), which an interrupted run leaves for --resume
        self.parquet: Path | None = None
        if self.path is not None and self.path.suffix.lower() == ".parquet":
            from ..export import parquet_module
            parquet_module(str(self.path))            # refused now if pyarrow is missing
            self.parquet = self.path
            self.path = self.path.with_name(self.path.name + ".rows.jsonl")
            if resume and self.parquet.exists() and not self.path.exists():
                self._from_parquet()
        # the hands read back: each file's last hand number, and files that failed whole
        self.done_upto: dict[str, int] = {}
        self.done_other: set[str] = set()
        self.rows = 0
        self.hands = 0
        self.csv = self.path is not None and self.path.suffix.lower() == ".csv"
        self.last_flush = time.monotonic()
        if self.path is None:
            self.handle: IO[str] = stream if stream is not None else io.StringIO()
            self.csv = False
        else:
            if resume and self.path.exists():
                self._read_back(kept)
            self.handle = open(self.path, "a" if resume else "w", newline="",
                               encoding="utf-8")
            if self.csv and self.handle.tell() == 0:
                csv.writer(self.handle).writerow(COLUMNS)
        self.cells = csv.writer(self.handle)

    def _read_back(self, kept: Callable[[dict], object]) -> None:
        """The rows an earlier run wrote, checked before the file is touched (a file that is
        not of these rows is refused as it is), one at a time: the memory of a resume does
        not grow with the file.  Each row kept goes to ``kept``; the last hand's rows, which
        the interruption may have cut short, are taken off the file to be computed again."""
        assert self.path is not None
        path = self.path

        def refuse(why: str) -> EvaluatorError:
            return EvaluatorError(f"--resume: {path} is not a file of these rows "
                                  f"({why}); give another --out, or --overwrite", str(path))
        at = 0                                    # bytes read: the end of the last record

        def lines(raw: IO[bytes]) -> Iterator[str]:
            nonlocal at
            for line in raw:
                if not line.endswith(b"\n"):
                    return                        # a line without its end: not finished
                at += len(line)
                try:
                    yield line.decode("utf-8")
                except UnicodeDecodeError:
                    raise refuse("not UTF-8 text") from None
        hand = None                               # the hand being read, and where it began
        began = 0
        rows: list[dict] = []                     # its rows, given to ``kept`` once whole
        with open(path, "rb") as raw:
            if self.csv:
                reader = csv.DictReader(lines(raw))
                if reader.fieldnames is not None and reader.fieldnames != COLUMNS:
                    raise refuse(f"its columns: {reader.fieldnames}")
                records: Iterator[dict] = iter(reader)
            else:
                records = self._json_records(lines(raw), refuse)
            began = at
            while True:
                start = at
                record = next(records, None)
                if record is None:
                    break
                if not record.get("hand") or (not record.get("error") and not _row_ok(record)):
                    raise refuse(f"a row that is not one: {record}")
                if record["hand"] != hand:
                    self._finished(hand, rows, kept)
                    hand, began, rows = record["hand"], start, []
                rows.append(record)
            if at == 0:                           # not one whole line: ours only if it
                raw.seek(0)                       # is how our first line starts
                tail = raw.read(4096)
                first = (",".join(COLUMNS) if self.csv else '{"hand": ').encode()
                if tail and not (first.startswith(tail) or tail.startswith(first)):
                    raise refuse("no line of rows in it")
        # the last hand is computed again: the file ends where it began
        if began < os.path.getsize(path):
            os.truncate(path, began)

    @staticmethod
    def _json_records(lines: Iterator[str], refuse) -> Iterator[dict]:
        for line in lines:
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise refuse(f"not JSON Lines: {error}") from None
            if not isinstance(record, dict) or set(record) != set(COLUMNS):
                raise refuse(f"a line without the columns {', '.join(COLUMNS)}")
            yield record

    def _finished(self, hand: str | None, rows: list[dict], kept) -> None:
        """A hand read back whole: its rows kept, the hand marked done."""
        if hand is None:
            return
        for record in rows:
            kept(record)
        self.rows += len(rows)
        self.hands += 1
        path, index = _key_parts(str(hand))
        if index is None:
            self.done_other.add(path)
        else:       # a file's hands are written in order: one number says which are done
            self.done_upto[path] = max(self.done_upto.get(path, 0), index)

    def is_done(self, hand: str) -> bool:
        """Whether the file read back holds ``hand``'s rows (a hand of a file it holds
        later hands of, written or skipped, is done too)."""
        path, index = _key_parts(hand)
        if index is None:
            return path in self.done_other
        return index <= self.done_upto.get(path, 0)

    def write_hand(self, rows: list[AllinRow | Problem]) -> None:
        """One hand's rows, whole (a resumed run never finds half a hand)."""
        if self.csv:
            # a row's cells in the columns' order (None is written as an empty cell): a
            # problem's row by its fields, a player's by the attributes of the columns
            self.cells.writerows([[problem_row(r).get(c) for c in COLUMNS]
                                  if isinstance(r, Problem) else (*_cells(r), None)
                                  for r in rows])
        else:
            for r in rows:
                record = problem_row(r) if isinstance(r, Problem) else r.__dict__
                self.handle.write(json.dumps({c: record.get(c) for c in COLUMNS}) + "\n")
        self.rows += len(rows)
        if time.monotonic() - self.last_flush >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        self.handle.flush()
        self.last_flush = time.monotonic()
        if self.path is not None:
            os.fsync(self.handle.fileno())

    def close(self, finished: bool = False) -> None:
        """Flush and close; ``finished``: the run is whole (a Parquet file is written
        from the rows, and the rows' side file removed)."""
        self.flush()
        if self.path is not None:
            self.handle.close()
        if finished and self.parquet is not None and self.path is not None:
            from ..export import write_rows
            text = self.path.read_text(encoding="utf-8")
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
            write_rows(records, self.parquet)
            self.path.unlink()

    def _from_parquet(self) -> None:
        """A finished Parquet file resumed: its rows become the side file again."""
        assert self.parquet is not None and self.path is not None
        from ..export import parquet_module
        pq = parquet_module(str(self.parquet))
        try:
            records = pq.read_table(self.parquet).to_pylist()
        except Exception as error:      # noqa: BLE001 - any unreadable file: refused
            raise EvaluatorError(f"--resume: {self.parquet} is not a Parquet file of these "
                                 f"rows ({error})", str(self.parquet)) from None
        if records and set(records[0]) != set(COLUMNS):
            raise EvaluatorError(f"--resume: {self.parquet} is not a file of these rows",
                                 str(self.parquet))
        with open(self.path, "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(r) + "\n" for r in records)
