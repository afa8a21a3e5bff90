"""Where a batch's rows go: written in the input's order as they finish, flushed, resumed
from what an earlier run wrote, and written whole as JSON or Parquet at the end."""
from __future__ import annotations

import csv
import io
import json
import os
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..errors import (
    EvaluatorError,
    seed_text,
)
from .queries import BASE_COLUMNS, FLUSH_EVERY, FLUSH_ROWS, item_seed, show_value
from .rows import (
    DIGEST,
    bad_result,
    changed_row,
    csv_records,
    hands_text,
    row_digest,
    stored_seed,
)

if TYPE_CHECKING:

    pass


class Sink:
    """Rows in the input's order, written as they finish.

    Rows that finish early wait in ``pending`` until the rows before them are
    in.  ``rows`` holds every row so far, those read back from a resumed file
    first; ``done`` counts them.  A flush per row would cost a system call
    each, so the lines are flushed once ``FLUSH_EVERY`` seconds or
    ``FLUSH_ROWS`` rows have gone by, whenever the batch waits (``idle``) and
    at the end; ``tail`` holds where each line written since ends in the file,
    so that ``settle`` can tell which are in it.  A file's lines end in the row's
    ``digest`` (``rows.row_digest``), checked when the file is resumed; a
    stream, which is never resumed, gets the rows as they are.
    """

    def __init__(self, out, path: Path | None, header: list[str], items: list[dict],
                 resume: bool, seed: int = 0) -> None:
        assert header[-1] == DIGEST                # a file's rows end in their digest
        self.header, self.items, self.path = header, items, path
        self.seed = seed                          # the batch's: its queries' seeds
        self.csv = path is not None and path.suffix.lower() == ".csv"
        self.broken = False                       # a flush failed: close writes nothing more
        self.rows: list[dict] = []
        self.pending: dict[int, dict] = {}
        self.writing: list | None = None          # [row, start, end, handed] mid-write
        self.handle: IO[str] | None = None
        self.own = False
        self.text = io.StringIO()
        # "\r\n" so that a field holding a lone "\r" is quoted too (it would not be read
        # back otherwise); _line then ends the line in "\n"
        self.writer = csv.writer(self.text, lineterminator="\r\n")
        self.unflushed = 0                        # lines written since the last flush
        self.tail: list[int] = []                 # where each of them ends in the file
        self.flushed_at = time.monotonic()
        self.size: int | None = None              # the file's size once the tail is flushed
        self.durable: int | None = None           # its size at the last flush
        self.resumed = 0                          # rows read back from the resumed file
        if path is None:
            self.handle = out                     # a text stream, or None: rows kept only
            return
        if resume and path.is_file():
            end = self._read_back(path)
            if end == 0:
                self._check_first_line(path)
            self.resumed = len(self.rows)
            with path.open("r+b") as raw:         # a partly written last line goes
                raw.truncate(end)
            self.handle = path.open("a", encoding="utf-8", newline="")
        else:
            self.handle = path.open("w", encoding="utf-8", newline="")
        self.own = True
        if self.csv and not self.rows and self.handle.tell() == 0:
            self._write(self.header)
        self.size = self.durable = self._size()

    @property
    def done(self) -> int:
        return len(self.rows)

    def _check_first_line(self, path: Path) -> None:
        """A file without one whole line is cut to nothing on resuming: only where what it
        holds is how this batch's output starts (a run stopped inside its first line), so
        that another file's single line is refused, not lost."""
        with path.open("rb") as raw:
            start = raw.read(4096)
        first = (",".join(self.header) if self.csv else '{"id": ').encode()
        if b"\n" not in start and start and not (first.startswith(start)
                                                 or start.startswith(first)):
            raise EvaluatorError(f"cannot resume {path}: it is not a batch's output (no line "
                                 "of rows in it)", str(path))

    def _read_back(self, path: Path) -> int:
        """Read the complete rows of an interrupted output; the offset where they end."""
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            # a kill in the middle of a character leaves its first bytes at the very end
            if error.reason != "unexpected end of data" or error.end != len(data):
                raise EvaluatorError(f"cannot resume {path}: it is not a batch's output "
                                     "(not UTF-8)", str(path)) from None
            text = data[:error.start].decode("utf-8")
        if self.csv:
            records, end = csv_records(text, path)
            if not records:
                return 0
            if records[0][1] != self.header:
                if records[0][1] == self.header[:-1] and len(records) == 1:
                    return 0                      # an older version's header alone: afresh
                if records[0][1] == self.header[:-1]:
                    raise EvaluatorError(f"cannot resume {path}: it has no {DIGEST} column "
                                         "(written by an older version): start it afresh "
                                         "(without resuming)", str(path))
                if records[0][1] == [name for name in self.header if name != "version"]:
                    raise EvaluatorError(
                        f"cannot resume {path}: it has no version column (written by "
                        "release 0.1.0, before rows recorded their Monte Carlo stream): start "
                        "it afresh (without resuming), with version 1 for the same answers",
                        str(path))
                raise EvaluatorError(f"cannot resume {path}: its columns are not this "
                                     "batch's (another batch, or other options?)", str(path))
            for number, fields in records[1:]:
                if len(fields) != len(self.header):
                    raise EvaluatorError(f"cannot resume {path}: line {number} has "
                                         f"{len(fields)} fields, not {len(self.header)}",
                                         str(path))
                self._check(path, number, dict(zip(self.header, fields)))
        else:
            lines = text.split("\n")[:-1]           # JSON escapes newlines: one row a line
            end = sum(len(line) + 1 for line in lines)
            for number, line in enumerate(lines, start=1):
                try:
                    row = json.loads(line)
                except (ValueError, RecursionError):    # not JSON, too deep, too many digits
                    raise EvaluatorError(f"cannot resume {path}: line {number} is not JSON",
                                         str(path)) from None
                if not isinstance(row, dict):
                    raise EvaluatorError(f"cannot resume {path}: line {number} is not a row",
                                         str(path))
                self._check(path, number, row)
        return len(text[:end].encode("utf-8"))

    def _check(self, path: Path, line: int, row: dict) -> None:
        """Keep a row read back if it is the next query's; refuse another batch's rows,
        and rows of a query changed since they were written."""
        k = len(self.rows)
        if k >= len(self.items):
            raise EvaluatorError(f"cannot resume {path}: it has more rows than the batch has "
                                 f"queries ({len(self.items):,})", str(path))
        item = self.items[k]
        mine = (str(item["id"]), hands_text(item))
        theirs = (str(row.get("id")), str(row.get("hands")))
        if mine != theirs:
            raise EvaluatorError(
                f"cannot resume {path}: line {line} holds query {theirs[0]} ({theirs[1]}), "
                f"but query {k + 1} of this batch is {mine[0]} ({mine[1]}); the file is "
                "another batch's output", str(path))
        def damaged(what: str) -> EvaluatorError:
            return EvaluatorError(
                f"cannot resume {path}: line {line} (query {mine[0]}) has {what}; a batch "
                "writes no such row (was it edited, or damaged?): delete that line and the "
                "lines after it to compute them again, or start the file afresh (without "
                "resuming)", str(path))

        digest = row.pop(DIGEST, None)
        if digest is None and k == 0:
            raise EvaluatorError(f"cannot resume {path}: its rows have no {DIGEST} (written by "
                                 "an older version): start it afresh (without resuming)",
                                 str(path))
        if digest is None:
            raise damaged(f"no {DIGEST}")
        if digest != row_digest(row):
            raise damaged(f"figures that do not match its {DIGEST} {show_value(digest)}")
        seed = row.get("seed")
        held = stored_seed(seed)                  # None: no seed, or a damaged one (below)
        given = item_seed(item, self.seed, k)
        if held is not None and "error" not in item and held != given:
            raise EvaluatorError(f"cannot resume {path}: line {line} was sampled with seed "
                                 f"{seed}, this batch gives that query "
                                 + (f"seed {seed_text(given)}" if given is not None
                                    else "no seed (it is exact)") + " (another batch seed?)",
                                 str(path))
        try:
            typed = self._typed(row, item) if self.csv else row
        except ValueError as error:
            raise damaged(str(error)) from None
        if "error" not in item and not typed.get("error") and not isinstance(
                typed.get("exact"), bool):
            raise damaged(f"exact {show_value(typed.get('exact'))}, not true or false")
        try:
            changed = changed_row(item, row)
        except (ValueError, TypeError):           # a figure that is no number: below
            changed = None
        if changed is not None:
            was, now = changed
            raise EvaluatorError(
                f"cannot resume {path}: line {line} (query {mine[0]}) has {was}, but this "
                f"batch's query {mine[0]} has {now}; the query changed since the row was "
                "written: start the file afresh (without resuming) or write to another "
                "file", str(path))
        bad = bad_result(typed, item)
        if bad is not None:
            raise damaged(bad)
        if typed.get("seed") is not None:
            # as this version writes it (a file written before seeds were text holds digits)
            typed["seed"] = seed_text(stored_seed(typed["seed"]))
        # the stream that dealt it (checked above: 1 or 2 where sampled; rows written before
        # there were two streams have no version, and were dealt by the first)
        if typed.get("seed") is not None and "error" not in item:
            version = typed.get("version") or 1
            if version != item["version"]:
                raise EvaluatorError(
                    f"cannot resume {path}: line {line} (query {mine[0]}) was sampled in "
                    f"Monte Carlo stream version {version}, and this batch deals that query "
                    f"in version {item['version']}: give it version {version} (its own "
                    f"version field, or the batch's version={version} / --stream-version "
                    f"{version} where it has none) to finish the file", str(path))
        self.rows.append(typed)

    def _typed(self, cells: dict[str, str], item: dict) -> dict:
        """A CSV row read back as the dict ``run_query`` gave (empty cells left out);
        ``ValueError`` naming the cell if one cannot be read as its column's type."""
        row: dict = {}
        for name, text in cells.items():
            if name == "id":
                row[name] = item["id"]
            elif text == "":
                if name in ("board", "dead") or (name in ("seed", "version")
                                                 and not cells.get("error")):
                    row[name] = "" if name in ("board", "dead") else None
            elif name == "exact":
                if text not in ("True", "False"):
                    raise ValueError(f"exact {show_value(text)}, not True or False")
                row[name] = text == "True"
            elif name == "seed":
                row[name] = text              # its text, "0x..." (digits in older files)
            elif name in ("samples", "version"):
                try:
                    # samples: deals, or their total weight (a float) with weighted ranges
                    row[name] = (int(text) if name != "samples" or text.isdigit()
                                 else float(text))
                except ValueError:
                    raise ValueError(f"{name} {show_value(text)}, not a number") from None
            elif name in BASE_COLUMNS or name == "error" or name.endswith("_hand"):
                row[name] = text
            else:
                try:
                    row[name] = float(text)
                except ValueError:
                    raise ValueError(f"{name} {show_value(text)}, not a number") from None
        return row

    def _line(self, fields) -> str:
        if self.csv:
            self.text.seek(0)
            self.text.truncate()
            self.writer.writerow(fields)
            return self.text.getvalue()[:-2] + "\n"
        return json.dumps(fields) + "\n"

    def _write(self, fields) -> None:
        assert self.handle is not None
        self.handle.write(self._line(fields))
        self.handle.flush()

    def _size(self) -> int | None:
        """The output file's size (None for a stream)."""
        if not self.own or self.handle is None:
            return None
        try:
            return os.fstat(self.handle.fileno()).st_size
        except (OSError, ValueError):             # closed by a failed close
            return None

    def add(self, index: int, row: dict) -> int:
        """Take row ``index``; write every row now in order.  Returns rows written."""
        self.pending[index] = row
        written = 0
        while len(self.rows) in self.pending:
            row = self.pending[len(self.rows)]
            if self.handle is not None:
                self._put(row)
            self.rows.append(row)
            self.writing = None
            self.pending.pop(len(self.rows) - 1, None)
            written += 1
        if self.unflushed and (self.unflushed >= FLUSH_ROWS
                               or time.monotonic() - self.flushed_at >= FLUSH_EVERY):
            self.flush()
        return written

    def _put(self, row: dict) -> None:
        """Hand one row's line to the output; ``writing`` says how far it got."""
        assert self.handle is not None
        if self.path is None:                     # a stream is never resumed: the row as is
            line = self._line(row)
        else:
            digest = row_digest(row)
            line = self._line([row.get(name, "") for name in self.header[:-1]] + [digest]
                              if self.csv else {**row, DIGEST: digest})
        end = None if self.size is None else self.size + len(line.encode("utf-8"))
        self.writing = [row, self.size, end, False]
        self.handle.write(line)
        self.writing[3] = True
        self.unflushed += 1
        if end is not None:
            self.tail.append(end)
            self.size = end

    def idle(self) -> None:
        """The batch waits for its next row: flush what is written, so that no row waits
        on a slow query.  A failure is left to the next flush, which raises it where the
        batch runs, not inside the pool or the cluster that called this."""
        try:
            self.flush()
        except OSError:
            pass

    def flush(self) -> None:
        """Flush the lines written since the last flush."""
        if self.unflushed:
            assert self.handle is not None
            self.handle.flush()
            self.unflushed = 0
            self.tail.clear()
            self.durable = self.size
            self.flushed_at = time.monotonic()

    def settle(self) -> None:
        """After Ctrl-C: count the rows whose whole line is in the output, and only those.

        Ctrl-C may land between writing a line and counting its row, so
        ``done`` (``BatchInterrupted.kept``) would miss a row that is in the
        file; or in the middle of a line, or of a flush that wrote only some
        lines, whose rows are then not counted and whose part is taken out
        again.  A stream cannot be measured: its rows count once handed over.
        """
        writing, self.writing = self.writing, None
        if self.handle is None:
            return
        if writing is not None and not (self.rows and self.rows[-1] is writing[0]):
            row, start, end, handed = writing
            if start is not None or handed:
                self.rows.append(row)
                self.pending.pop(len(self.rows) - 1, None)
            if end is not None and (not self.tail or self.tail[-1] != end):
                self.tail.append(end)
        try:
            self.handle.flush()
        except (OSError, ValueError):
            self.broken = True                    # what it still holds never goes out
        size = self._size()
        if size is None:
            return
        while self.tail and self.tail[-1] > size:
            self.tail.pop()
            self.rows.pop()
        whole = self.tail[-1] if self.tail else self.durable
        if whole is not None and size > whole:
            try:
                os.ftruncate(self.handle.fileno(), whole)
            except OSError:                       # a device, ...: nothing to cut
                pass

    def failed(self, error: OSError) -> WriteFailed:
        """A write or flush failed (a full disk, ...): count the rows whose whole line is in
        the file, take out the part of one, and the error that says so."""
        self.settle()
        self.broken = True
        reason = error.strerror or str(error) or type(error).__name__
        total = len(self.items)
        if self.path is None:
            # a stream cannot be measured: which of the rows handed over are out is unknown
            return WriteFailed(f"cannot write the rows: {reason} (after {self.done:,} of "
                               f"{total:,} rows)", self.done, total, None)
        return WriteFailed(f"cannot write {self.path}: {reason}; the first {self.done:,} of "
                           f"{total:,} rows are kept in {self.path}: make room and run again "
                           "with resume=True to finish", self.done, total, self.path)

    def close(self) -> None:
        """Close the file (which flushes it); flush a stream, which stays open.

        After a failed flush the file is closed without flushing what the handle
        still holds: ``settle`` cut the file after its last whole line, and that
        rest, written later, would land after the cut.
        """
        if self.own and self.handle is not None and self.broken:
            raw = getattr(getattr(self.handle, "buffer", None), "raw", None)
            try:
                if raw is not None:
                    raw.close()                   # the handle is then closed, unflushed
                self.handle.close()
            except (OSError, ValueError):
                pass
        elif self.own and self.handle is not None:
            self.handle.close()
        elif self.handle is not None:
            try:
                self.handle.flush()
            except (OSError, ValueError):
                pass


class WriteFailed(EvaluatorError):
    """The output could not be written (a full disk, a drive gone, ...): the first
    ``kept`` of ``total`` rows are in ``path`` (None: a stream), ready for ``resume=True``."""

    def __init__(self, message: str, kept: int, total: int, path: Path | None) -> None:
        super().__init__(message, None if path is None else str(path))
        self.kept, self.total, self.path = kept, total, path


def write_json(rows: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8") as handle:
        json.dump(rows, handle)
        handle.write("\n")


def write_parquet(rows: list[dict], path: Path) -> None:
    import pyarrow.parquet as pq

    from ..export import parquet_table
    pq.write_table(parquet_table(rows), path)


def read_whole(path: Path) -> list[dict]:
    """The rows of a finished ``.json`` or ``.parquet`` output, as ``write_json`` and
    ``write_parquet`` wrote them: Parquet gives every row every column, so the empty
    cells a row never had are left out again (a result row always has its ``seed`` and
    ``version``, None when exact; an error row only the query and its ``error``)."""
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq
        always = ("seed", "version")
        return [{k: v for k, v in row.items()
                 if v is not None or (k in always and row.get("error") is None)}
                for row in pq.read_table(path).to_pylist()]
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)
