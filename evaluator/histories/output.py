"""Where all-in EV rows go: a CSV or JSON Lines file written a hand at a time (flushed at
least every second), resumed by skipping the hands it already holds (the last one, which
an interruption may have cut, is computed again), or standard output.
A hand that could not be analysed is one row with its ``error`` (``--on-error record``)."""
from __future__ import annotations

import csv
import functools
import io
import json
import os
import time
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


def problem_row(problem: Problem) -> dict:
    """A hand left out, as a row: its file and index (or line), and the reason."""
    return {"hand": problem.where, "error": f"line {problem.line}: {problem.reason}"
            if problem.line else problem.reason}


class RowWriter:
    """Rows to ``path`` (``.csv``, ``.jsonl``/``.ndjson``, ``.parquet``) or to ``stream``; with
    ``resume`` the hands already in the file are read back (``done``) and a line cut off
    by an interrupted run is dropped."""

    def __init__(self, path: str | None, resume: bool = False,
                 stream: IO[str] | None = None) -> None:
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
        self.done: set[str] = set()
        self.previous: list[dict] = []           # the rows read back
        self.rows = 0
        self.csv = self.path is not None and self.path.suffix.lower() == ".csv"
        self.last_flush = time.monotonic()
        if self.path is None:
            self.handle: IO[str] = stream if stream is not None else io.StringIO()
            self.csv = False
        else:
            if resume and self.path.exists():
                self._read_back()
            self.handle = open(self.path, "a" if resume else "w", newline="",
                               encoding="utf-8")
            if self.csv and self.handle.tell() == 0:
                csv.writer(self.handle).writerow(COLUMNS)

    def _read_back(self) -> None:
        """The rows an earlier run wrote, checked whole before the file is touched: a
        file that is not of these rows is refused as it is."""
        assert self.path is not None

        def refuse(why: str) -> EvaluatorError:
            return EvaluatorError(f"--resume: {self.path} is not a file of these rows "
                                  f"({why}); give another --out, or --overwrite",
                                  str(self.path))
        data = self.path.read_bytes()
        cut = data.rfind(b"\n") + 1               # a line without its end: not finished
        try:
            text = data[:cut].decode("utf-8")
        except UnicodeDecodeError:
            raise refuse("not UTF-8 text") from None
        if self.csv:
            reader = csv.DictReader(io.StringIO(text))
            if text and reader.fieldnames != COLUMNS:
                raise refuse(f"its columns: {reader.fieldnames}")
            records = list(reader)
        else:
            try:
                records = [json.loads(line) for line in text.splitlines() if line.strip()]
            except json.JSONDecodeError as error:
                raise refuse(f"not JSON Lines: {error}") from None
            if not all(isinstance(r, dict) and set(r) == set(COLUMNS) for r in records):
                raise refuse(f"a line without the columns {', '.join(COLUMNS)}")
        for record in records:
            if not record.get("hand") or (not record.get("error") and not _row_ok(record)):
                raise refuse(f"a row that is not one: {record}")
        # the last hand's rows may be cut short by the interruption: computed again
        last = str(records[-1]["hand"]) if records else None
        kept = [r for r in records if str(r["hand"]) != last]
        if len(kept) < len(records) or cut < len(data):
            self._rewrite(kept)
        self.done = {hand_key(str(r["hand"])) for r in kept}
        self.previous = kept
        self.rows = len(kept)

    def _rewrite(self, records: list[dict]) -> None:
        """The file holding ``records`` only (written aside, then moved into place)."""
        assert self.path is not None
        aside = self.path.with_name(self.path.name + ".resuming")
        with open(aside, "w", newline="", encoding="utf-8") as handle:
            if self.csv:
                writer = csv.DictWriter(handle, COLUMNS)
                writer.writeheader()
                writer.writerows(records)
            else:
                handle.writelines(json.dumps(r) + "\n" for r in records)
        os.replace(aside, self.path)

    def write_hand(self, rows: list[AllinRow | Problem]) -> None:
        """One hand's rows, whole (a resumed run never finds half a hand)."""
        records = [problem_row(r) if isinstance(r, Problem) else r.__dict__ for r in rows]
        if self.csv:
            out = io.StringIO()
            writer = csv.writer(out)
            writer.writerows([["" if (v := record.get(c)) is None else v for c in COLUMNS]
                              for record in records])
            self.handle.write(out.getvalue())
        else:
            for record in records:
                self.handle.write(json.dumps({c: record.get(c) for c in COLUMNS}) + "\n")
        self.rows += len(records)
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
