"""Many equity queries at once: on this machine's cores, or on a Dask cluster.

A query is a mapping with the arguments of ``equity``: ``game`` (default
hold'em), ``hands`` (a list, or one string with hands separated by ``vs``,
``|`` or ``;``), and optionally ``board``, ``dead``, ``exact``, ``trials``,
``target_stderr``, ``seed`` and ``id``.  Files (or a stream, such as stdin):
CSV with those columns, or JSON Lines with one object per line.

Every query runs on its own, with its own seed (the query's, or one derived
from the batch ``seed`` and the query's position), so the rows are the same
bit for bit whether the batch runs here, on a cluster, in one chunk or in
many, and whatever the number of threads.

Finished rows are never lost.  Every query is checked before any is
computed (all the problems are listed in one error), and with ``out=`` the
rows are written, in the input's order, as they finish, one line each,
flushed within a fraction of a second and before the batch waits for a slow
query: an interrupted batch keeps its finished rows, and ``resume=True``
computes only the missing ones, giving the file an uninterrupted run writes.

>>> rows = batch_equity([{"hands": "AsKs vs QhQd", "board": "2c7d9h"}], progress=False)
>>> rows[0]["p1_equity"], rows[0]["method"]
(0.23939393939393938, 'exact enumeration of 990 boards')
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import reprlib
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np

from .errors import (
    ArgumentTypeError,
    BatchInterrupted,
    EvaluatorError,
    QueryFailed,
    optional_integer,
)
from .export import check_output

if TYPE_CHECKING:
    import socket

    from .engine import EquityResult

__all__ = ["batch_equity", "read_queries", "write_rows", "check_output", "check_not_queries",
           "BatchInterrupted", "QueryFailed", "WriteFailed", "OUT_SUFFIXES"]

FIELDS = ("game", "hands", "board", "dead", "exact", "trials", "target_stderr", "seed")
BASE_COLUMNS = ("id", "game", "hands", "board", "dead", "method", "exact", "samples", "seed")
PLAYER_COLUMNS = ("hand", "equity", "win", "tie", "scoop", "hi", "lo", "stderr")
JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")     # query files read as JSON Lines
OUT_SUFFIXES = (".csv", ".jsonl", ".ndjson", ".json")
WHOLE_SUFFIXES = (".json", ".parquet")    # written whole at the end, from OUT.rows.jsonl
ON_ERROR = ("stop", "record")
MAX_LISTED = 20                 # problems listed in one validation error
FLUSH_EVERY = 0.2               # seconds a written row may wait for its flush while rows come
FLUSH_ROWS = 1000               # or this many rows, whichever comes first
_SPLIT = re.compile(r"\s+vs\.?\s+|\s*[|;]\s*", re.IGNORECASE)


# the query files and examples ``evaluator batch --help`` shows (a test runs the samples)
HELP = """query files: one query a line; fields as above, all but hands optional
  CSV: a header line naming the fields, then the queries; hands separated by " vs ",
  "|" or ";"; put quotes around a field that holds a comma (a range such as QQ+,AKs):
    game,hands,board,trials
    holdem,AsKs vs QhQd,2c7d9h,
    holdem,"QQ+,AKs vs random",,100000
  JSON Lines: one object a line; hands a list, or one string as in CSV:
    {"game": "omaha8", "hands": ["Ah2h3sKs", "AdKdQcJc"], "board": "4c5d9s"}
    {"hands": "QQ+,AKs vs JJ", "trials": 100000, "seed": 1, "id": "QQ+ vs JJ"}

examples:
  evaluator batch queries.csv --out results.csv
  evaluator batch queries.csv --out results.csv --resume   # finish an interrupted run
  cat queries.jsonl | evaluator batch - --out results.json
  evaluator batch queries.jsonl --scheduler tcp://10.0.0.5:8786
"""


# --- output paths ---------------------------------------------------------------

def check_not_queries(queries, out, option: str = "out") -> None:
    """Refuse an output that is the query file itself: writing it would destroy the queries.

    The same file after resolving links and ``..``, or one ``os.path.samefile``
    finds (a hard link); streams and query lists are never files.
    """
    if not isinstance(queries, (str, Path)) or not isinstance(out, (str, Path)):
        return
    same = Path(queries).resolve() == Path(out).resolve()
    if not same:
        try:
            same = os.path.samefile(queries, out)
        except OSError:                           # one of them does not exist
            same = False
    if same:
        raise EvaluatorError(f"{option} is the query file {str(queries)}; write the results "
                             "to another file", str(out))


# --- reading queries --------------------------------------------------------------

def _decode(data: bytes, name: str, token: object) -> str:
    """Query bytes as text: UTF-8, with or without a byte-order mark (Excel writes one)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise EvaluatorError(f"{name} line {line}: not UTF-8 text (byte "
                             f"0x{data[error.start]:02x} at offset {error.start}); save the "
                             "file as UTF-8", token) from None


def _read_text(path: Path) -> str:
    """A file's text: UTF-8, with or without a byte-order mark."""
    return _decode(path.read_bytes(), path.name, str(path))


def _is_json_lines(path: Path, text: str) -> bool:
    """JSON Lines by suffix; a file of another suffix if its first character is ``{``."""
    suffix = path.suffix.lower()
    if suffix in JSON_SUFFIXES:
        return True
    if suffix in (".csv", ".txt"):
        return False
    return text.lstrip().startswith("{")


class _Unreadable:
    """A JSON line that is valid JSON but cannot be read (nested too deeply, a number
    of too many digits): a bad query, refused or recorded as any other."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _json_query(line: str, name: str, number: int) -> object:
    """One JSON line's query; text that is not JSON stops the batch, naming the line."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        raise EvaluatorError(f"{name} line {number}: not JSON ({error.msg})",
                             number) from None
    except RecursionError:
        return _Unreadable("the line's JSON is nested too deeply to be a query")
    except ValueError as error:          # an integer of more than 4,300 digits
        return _Unreadable(f"the line's JSON cannot be read ({str(error).split(';')[0]})")


def _records(path: Path) -> list[tuple[int, object]]:
    """``(line number, query)`` for every query in a CSV or JSON Lines file."""
    if path.is_dir():
        raise EvaluatorError(f"{str(path)!r} is a folder, not a query file (.csv or .jsonl)",
                             str(path))
    if not path.is_file():
        raise EvaluatorError(f"no such file: {str(path)!r}", str(path))
    text = _read_text(path)
    return _parse(text, path.name, _is_json_lines(path, text), str(path))


def _stream_records(stream) -> list[tuple[int, object]]:
    """``(line number, query)`` for every query read from a stream (``sys.stdin``): JSON
    Lines when its first character is ``{``, else CSV, as for a file of another suffix."""
    label = getattr(stream, "name", None)
    if label in ("<stdin>", 0):
        name = "stdin"
    elif isinstance(label, str) and not label.startswith("<"):
        name = Path(label).name
    else:
        name = "the input"
    data = stream.read()
    text = _decode(data, name, name) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    return _parse(text, name, text.lstrip().startswith("{"), name)


def _parse(text: str, name: str, json_lines: bool, token: str) -> list[tuple[int, object]]:
    """The queries of a file's (or a stream's) text, named ``name`` in errors."""
    records: list[tuple[int, object]] = []
    if json_lines:
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                records.append((number, _json_query(line, name, number)))
    else:
        reader = csv.reader(io.StringIO(text, newline=""))
        header: list[str] | None = None
        for fields in reader:
            if not any(f.strip() for f in fields):
                continue
            if header is None:
                header = [f.strip() for f in fields]
                # a second column of a name would silently replace the first
                twice = next((k for i, k in enumerate(header) if k and k in header[:i]), None)
                if twice is not None:
                    raise EvaluatorError(f"{name} line {reader.line_num}: column "
                                         f"{twice!r} appears twice", twice)
                continue
            if len(fields) > len(header):
                raise EvaluatorError(
                    f"{name} line {reader.line_num}: {len(fields)} fields but the header "
                    f"has {len(header)} ({', '.join(header)}); put quotes around a field that "
                    'holds commas, e.g. "AsKs vs QQ+,AKs"', reader.line_num)
            records.append((reader.line_num,
                            {k: v for k, v in zip(header, fields) if k and v != ""}))
    if not records:
        raise EvaluatorError(f"no queries in {token}", token)
    return records


def read_queries(path: str | Path | IO) -> list[dict]:
    """Queries from a CSV file (a header row with the query fields) or JSON Lines.

    JSON Lines: a ``.jsonl``, ``.ndjson`` or ``.json`` file, or one of another
    suffix whose first character is ``{``.  A file without queries is an error.
    A stream (``sys.stdin``, text or bytes) is read as a file of another suffix.
    """
    records = _stream_records(path) if hasattr(path, "read") else _records(Path(path))
    return [query for _, query in records]   # type: ignore[misc]  # checked later


# --- checking queries -------------------------------------------------------------

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxtuple, _REPR.maxdict = 3, 10, 10, 10
_REPR.maxstring = _REPR.maxother = 80


def _shown(value: object) -> str:
    """A value as a message shows it: short whatever its size, and whatever its nesting
    (``repr`` of a list nested 100,000 deep raises ``RecursionError``)."""
    try:
        if isinstance(value, (str, int, float)) or value is None:
            return repr(value)[:300]
        return _REPR.repr(value)
    except (ValueError, RecursionError):       # an int of more than 4,300 digits
        return f"a {type(value).__name__}"


def _text(value: object) -> str:
    """A query's field as the text of a recorded error row."""
    return value if isinstance(value, str) else _shown(value)


def _normalise(query: Mapping, index: int, seed: int) -> dict:
    """A query with every field in its final type (errors carry no query name)."""
    if isinstance(query, _Unreadable):
        raise EvaluatorError(query.reason, None)
    if not isinstance(query, Mapping):
        raise EvaluatorError(f"a query is a mapping of equity arguments, got {_shown(query)}",
                             query)
    unknown = set(query) - set(FIELDS) - {"id"}
    if unknown:
        raise EvaluatorError(f"unknown field {sorted(map(str, unknown))[0]!r} "
                             f"(fields: {', '.join(FIELDS)}, id)", sorted(map(str, unknown))[0])
    ident = query.get("id", index + 1)
    if isinstance(ident, bool) or not isinstance(ident, (str, int)):
        raise ArgumentTypeError(f"id must be a string or an integer, got {_shown(ident)}",
                                ident)
    hands = query.get("hands")
    if isinstance(hands, str):
        hands = [h for h in _SPLIT.split(hands.strip()) if h]
    if not isinstance(hands, (list, tuple)) or len(hands) < 2:
        raise EvaluatorError(f"needs two or more hands, e.g. 'AsKs vs QQ+', got "
                             f"{_shown(hands)}", hands)
    if not all(isinstance(h, str) for h in hands):
        raise ArgumentTypeError(f"hands must be strings, got {_shown(hands)}", hands)
    for name in ("game", "board", "dead"):
        if not isinstance(query.get(name, ""), str):
            raise ArgumentTypeError(f"{name} must be a string, got {_shown(query[name])}",
                                    query[name])
    out = {"id": ident, "game": query.get("game", "holdem") or "holdem", "hands": list(hands),
           "board": query.get("board", "") or "", "dead": query.get("dead", "") or ""}
    exact = query.get("exact")
    if isinstance(exact, str):
        lowered = exact.strip().lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no", ""):
            raise EvaluatorError(f"exact must be true or false, got {_shown(exact)}", exact)
        exact = None if not lowered else lowered in ("true", "1", "yes")
    elif exact is not None and not isinstance(exact, bool):
        raise ArgumentTypeError(f"exact must be true or false, got {_shown(exact)}", exact)
    out["exact"] = exact
    for name, kind in (("trials", int), ("target_stderr", float), ("seed", int)):
        value = query.get(name)
        if value in (None, ""):
            out[name] = None
            continue
        out[name] = _whole(name, value) if kind is int else _number(name, value)
    out["seed"] = optional_integer(out["seed"], "seed", 0, bounds="a non-negative integer")
    if out["seed"] is None:
        state = np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)
        out["seed"] = int(state[0] >> np.uint64(1))
    return out


def _number(name: str, value) -> float:
    """A query's number field (a JSON number, or the text of a CSV cell) as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise EvaluatorError(f"{name} must be a number, got {_shown(value)}", value)
    try:
        return float(value)
    except ValueError:
        raise EvaluatorError(f"{name} must be a number, got {_shown(value)}", value) from None


def _whole(name: str, value) -> int:
    """A query's whole-number field: ``1000``, ``1000.0``, ``"1000"`` or ``"1e6"``.

    Integer text is read exactly (a seed may pass 2**53); other text and floats
    must hold a whole number, so ``1e6`` is a million and ``2.5`` is refused.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
        from decimal import Decimal, InvalidOperation
        try:                                 # '1e30' is exactly 10**30, not a float's
            exact = Decimal(value.strip())
        except InvalidOperation:
            exact = None
        if exact is not None and exact.is_finite() and abs(exact.adjusted()) <= 4300:
            if exact != exact.to_integral_value():
                raise EvaluatorError(f"{name} must be a whole number, got {_shown(value)}",
                                     value)
            return int(exact)
    number = _number(name, value)
    if not math.isfinite(number):
        raise EvaluatorError(f"{name} must be a number, got {_shown(value)}", value)
    if not number.is_integer():
        raise EvaluatorError(f"{name} must be a whole number, got {_shown(value)}", value)
    if abs(number) > 2 ** 53:
        # a float this large stands for many integers: the one meant is not known
        raise EvaluatorError(f"{name} {_shown(value)} is not an exact integer (a float past "
                             "2**53); write its digits", value)
    return int(number)


def _validate(records: list[tuple[int | None, object]], seed: int,
              record: bool) -> list[dict]:
    """Every query checked and normalised before any is computed.

    A bad query raises (all the problems in one error, the first
    ``MAX_LISTED`` listed), or with ``record`` becomes an item whose
    ``error`` is the problem.
    """
    from .engine import check_query
    items: list[dict] = []
    problems: list[tuple[str, Exception]] = []
    seen: dict[str, str] = {}                    # id -> where it was first given
    for index, (line, query) in enumerate(records):
        ident = query.get("id", index + 1) if isinstance(query, Mapping) else index + 1
        shown = ident if isinstance(ident, (str, int)) else _shown(ident)
        name = f"query {shown}" + (f" (line {line})" if line is not None else "")
        where = f"line {line}" if line is not None else f"query number {index + 1}"
        if isinstance(ident, (str, int)) and not isinstance(ident, bool):
            # refused even with record: resuming matches rows to queries by id
            first = seen.setdefault(str(ident), where)
            if first != where:
                problems.append((f"{name}: id {ident!r} is also the id of {first}; every "
                                 "query needs its own id (resuming matches rows by id)",
                                 EvaluatorError("duplicate id", ident)))
                continue
        try:
            item = _normalise(query, index, seed)      # type: ignore[arg-type]  # it checks
            check_query(item["game"], item["hands"], item["board"], item["dead"],
                        exact=item["exact"], trials=item["trials"],
                        target_stderr=item["target_stderr"], seed=item["seed"])
        except (EvaluatorError, ArgumentTypeError) as bad:
            if not record:
                problems.append((f"{name}: {bad}", bad))
                continue
            item = _error_item(query, index, str(bad))
        items.append(item)
    if len(problems) == 1:
        message, only = problems[0]
        raise type(only)(message, getattr(only, "token", None)) from None
    if problems:
        listed = [message for message, _ in problems[:MAX_LISTED]]
        if len(problems) > MAX_LISTED:
            listed.append(f"... and {len(problems) - MAX_LISTED:,} more")
        raise EvaluatorError(f"{len(problems):,} of {len(records):,} queries are bad; nothing "
                             "was computed:\n  " + "\n  ".join(listed),
                             getattr(problems[0][1], "token", None))
    return items


def _error_item(query, index: int, reason: str) -> dict:
    """The item of a query that cannot run: what can be read of it, and the reason."""
    query = query if isinstance(query, Mapping) else {}
    hands = query.get("hands", "")
    if isinstance(hands, (list, tuple)):
        hands = " vs ".join(map(_text, hands))
    ident = query.get("id", index + 1)
    return {"id": ident if isinstance(ident, (str, int)) else _text(ident),
            "game": _text(query.get("game", "holdem")), "hands": _text(hands),
            "board": _text(query.get("board", "")), "dead": _text(query.get("dead", "")),
            "error": reason}


# --- running queries ------------------------------------------------------------

def _hands_text(item: dict) -> str:
    return item["hands"] if isinstance(item["hands"], str) else " vs ".join(item["hands"])


def _error_row(item: dict, reason: str) -> dict:
    return {"id": item["id"], "game": item["game"], "hands": _hands_text(item),
            "board": item["board"], "dead": item["dead"],
            "error": " ".join(reason.split())}


def _reason(error: BaseException) -> str:
    """An error as one line: the message of the package's errors, else type and message."""
    if isinstance(error, (EvaluatorError, ArgumentTypeError)):
        return " ".join(str(error).split())
    return " ".join(f"{type(error).__name__}: {error}".split())


def run_query(query: dict) -> dict:
    """One normalised query -> one flat result row (the query, the method, per-player figures).

    Hi-lo games give ``pN_scoop`` and no ``pN_win`` (the same figure).
    """
    if "error" in query:
        return _error_row(query, query["error"])
    from .engine import equity
    result = equity(query["game"], query["hands"], query["board"], query["dead"],
                    exact=query["exact"], trials=query["trials"],
                    target_stderr=query["target_stderr"], seed=query["seed"], threads=1)
    return result_row(result, query["id"], query["hands"])


def result_row(result: EquityResult, id: object, hands: list[str]) -> dict:
    """The flat row of one result (``run_query``'s, and the flop study's)."""
    row = {"id": id, "game": result.game, "hands": " vs ".join(hands),
           "board": result.board, "dead": result.dead, "method": result.method,
           "exact": result.exact, "samples": result.samples,
           "seed": None if result.exact else result.seed}
    for p, player in enumerate(result.players, start=1):
        for name in PLAYER_COLUMNS:
            value = getattr(player, name)
            if value is not None and not (name == "win" and player.scoop is not None):
                row[f"p{p}_{name}"] = value
    return row


def _run_chunk(queries: list[dict]) -> list[tuple[dict | None, str | None]]:
    """A cluster task: ``(row, None)``, or ``(None, reason)`` for a query that failed."""
    out: list[tuple[dict | None, str | None]] = []
    for query in queries:
        try:
            out.append((run_query(query), None))
        except Exception as error:          # noqa: BLE001 - reported by the caller
            out.append((None, _reason(error)))
    return out


def columns(items: list[dict]) -> list[str]:
    """The CSV header every row of these (checked) queries fits.

    Per player: ``hand, equity, tie`` always, ``win`` for high-only games,
    ``scoop, hi, lo`` for hi-lo games, ``stderr`` where a query may sample;
    ``error`` last (empty unless ``on_error="record"`` recorded a failure), so
    a file written with either setting can be resumed with the other.
    """
    from .games import game as _game
    wanted: set[tuple[int, str]] = set()
    for item in items:
        if "error" in item:
            continue
        hilo = _game(item["game"]).pot == "hilo"
        names = {"hand", "equity", "tie"} | ({"scoop", "hi", "lo"} if hilo else {"win"})
        if item["exact"] is not True:
            names.add("stderr")
        wanted |= {(p, name) for p in range(1, len(item["hands"]) + 1) for name in names}
    players = max((p for p, _ in wanted), default=0)
    out = list(BASE_COLUMNS)
    for p in range(1, players + 1):
        out += [f"p{p}_{name}" for name in PLAYER_COLUMNS if (p, name) in wanted]
    return out + ["error"]


def _csv_records(text: str, path: Path) -> tuple[list[tuple[int, list[str]]], int]:
    """The complete records of a CSV output, ``(line, fields)`` each (the header first),
    and the offset, in characters, where the last of them ends.

    Read with the CSV parser, never split at line breaks: a quoted field may hold
    a newline (a record-mode error row keeps the query's text), and
    ``str.splitlines`` also breaks at ``\\r``, ``\\x1c``-``\\x1e``, ``\\x85``,
    U+2028 and U+2029, which an id may hold.  A record is complete once the
    newline after it is in; a last one cut short (a kill while it was being
    written) is left out.
    """
    parts = text.split("\n")
    physical = [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    taken = 0                                    # physical lines the parser has read

    def feed() -> Iterator[str]:
        nonlocal taken
        for line in physical:
            taken += 1
            yield line

    reader = csv.reader(feed(), strict=True)
    records: list[tuple[int, list[str]]] = []
    end = first = 0
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error:
            if taken == len(physical):           # the last record, cut short
                break
            raise EvaluatorError(f"cannot resume {path}: line {first + 1} is not CSV",
                                 str(path)) from None
        if not physical[taken - 1].endswith("\n"):
            break                                # cut short inside its last line
        records.append((first + 1, fields))
        end += sum(len(line) for line in physical[first:taken])
        first = taken
    return records, end


def _changed(item: dict, row: Mapping) -> tuple[str, str] | None:
    """How a row read back differs from the query it would be kept for: ``(what the row
    has, what the query has)``, each naming the field; None when the row is that query's.

    Rows that hold a result are compared with the normalised query (the game's
    name, the cards in their canonical text, ``exact``, and the samples that
    ``trials`` and ``target_stderr`` give); recorded failures hold the query's
    text, and are compared with that.
    """
    def cell(name: str) -> str:
        value = row.get(name)
        return "" if value is None else str(value)

    if "error" in item or cell("error"):
        for name in ("game", "board", "dead"):
            if cell(name) != str(item[name]):
                return f"{name} {cell(name)!r}", f"{name} {str(item[name])!r}"
        if "error" in item and not cell("error"):
            return "a result", f"an error ({item['error']})"
        return None
    from .cards import format_cards, parse_cards
    from .engine.sample import DEFAULT_TRIALS
    from .games import game as _game
    wanted = {"game": _game(item["game"]).name,
              "board": format_cards(parse_cards(item["board"])),
              "dead": format_cards(parse_cards(item["dead"]))}
    for name, now in wanted.items():
        if cell(name) != now:
            return f"{name} {cell(name)!r}", f"{name} {now!r}"
    exact = cell("exact") == "True"
    if item["exact"] is not None and exact != item["exact"]:
        return f"exact {exact}", f"exact {item['exact']}"
    trials, target = item["trials"], item["target_stderr"]
    if exact:
        if trials is not None:
            return "exact True", f"trials {trials:,}"
        if target is not None:
            return "exact True", f"target_stderr {target:g}"
        return None
    try:
        samples = int(cell("samples"))
    except ValueError:
        return f"samples {cell('samples')!r}", "a sampled result"
    limit = trials if trials is not None else (None if target is not None else DEFAULT_TRIALS)
    asked = (f"trials {trials:,}" if trials is not None
             else f"trials {DEFAULT_TRIALS:,} (the default)")
    if limit is not None and (samples > limit or (target is None and samples != limit)):
        return f"{samples:,} samples", asked
    if target is not None and (limit is None or samples < limit):
        # sampling stops at the first round whose every standard error is below the target
        errors = [float(row[name]) for name in row
                  if name.endswith("_stderr") and cell(name) != ""]
        if errors and max(errors) > target:
            return (f"stderr {max(errors):g} after {samples:,} samples",
                    f"target_stderr {target:g}")
    return None


ROW_TOLERANCE = 1e-9             # rounding allowed in the sums a row read back must satisfy
_ERROR_ROW = frozenset(("id", "game", "hands", "board", "dead", "error"))


def _bad_result(row: Mapping, item: dict) -> str | None:
    """What is wrong with the result of a row read back to be kept, or None.

    A row is kept as its query's answer, so it must be one that ``run_query``
    could have given: the columns of its game and method, each of its type, and
    figures that agree with each other.  Each figure is a share in [0, 1], the
    equities add up to 1, ``win <= equity <= win + tie`` (a pot taken alone,
    or a part of it), ``win + tie <= 1``, and in hi-lo games ``hi + lo ==
    equity``, all within ``ROW_TOLERANCE``.  An error row holds the query and
    its error, no figures.
    """
    def number(value) -> bool:
        return (isinstance(value, (int, float)) and not isinstance(value, bool)
                and math.isfinite(value))

    if "error" in item or row.get("error") not in (None, ""):
        if not isinstance(row.get("error"), str) or not row["error"]:
            return "no error text" if "error" in item else f"error {_shown(row.get('error'))}"
        extra = [name for name in row if name not in _ERROR_ROW]
        return f"both an error and {extra[0]}" if extra else None
    from .games import game as _game
    exact = row.get("exact")
    if not isinstance(exact, bool):
        return f"exact {_shown(exact)}, not true or false"
    hilo = _game(item["game"]).pot == "hilo"
    names = ["hand", "equity", "win", "tie"] if not hilo else [
        "hand", "equity", "tie", "scoop", "hi", "lo"]
    if not exact:
        names.append("stderr")
    players = range(1, len(item["hands"]) + 1)
    wanted = [*BASE_COLUMNS, *(f"p{p}_{name}" for p in players for name in names)]
    missing = [name for name in wanted if name not in row]
    if missing:
        return f"no {missing[0]}"
    extra = [name for name in row if name not in wanted and name != "error"]
    if extra:
        return f"a column {extra[0]} that this query's row does not have"
    if not isinstance(row["method"], str) or not row["method"]:
        return f"method {_shown(row['method'])}"
    if not number(row["samples"]) or row["samples"] <= 0:
        return f"samples {_shown(row['samples'])}, not a positive number"
    seed = row["seed"]
    if (seed is not None if exact else (not isinstance(seed, int) or isinstance(seed, bool)
                                        or seed < 0)):
        return f"seed {_shown(seed)}" + (" on an exact result" if exact else "")
    total = 0.0
    for p in players:
        figures = {}
        for name in names:
            value = row[f"p{p}_{name}"]
            if name == "hand":
                if not isinstance(value, str) or not value:
                    return f"p{p}_hand {_shown(value)}"
                continue
            if not number(value) or not 0 <= value <= 1:
                return f"p{p}_{name} {_shown(value)}, not a number from 0 to 1"
            figures[name] = value
        whole = "scoop" if hilo else "win"          # the pot taken alone
        win, tie, share = figures[whole], figures["tie"], figures["equity"]
        total += share
        if not win - ROW_TOLERANCE <= share <= win + tie + ROW_TOLERANCE:
            return (f"p{p}_equity {share!r} outside p{p}_{whole} {win!r} to p{p}_{whole} + "
                    f"p{p}_tie {win + tie!r}")
        if win + tie > 1 + ROW_TOLERANCE:
            return f"p{p}_{whole} + p{p}_tie {win + tie!r}, above 1"
        if hilo and abs(figures["hi"] + figures["lo"] - share) > ROW_TOLERANCE:
            return (f"p{p}_hi + p{p}_lo {figures['hi'] + figures['lo']!r}, not p{p}_equity "
                    f"{share!r}")
    if abs(total - 1) > ROW_TOLERANCE:
        return f"equities adding up to {total!r}, not 1"
    return None


class _Sink:
    """Rows in the input's order, written as they finish.

    Rows that finish early wait in ``pending`` until the rows before them are
    in.  ``rows`` holds every row so far, those read back from a resumed file
    first; ``done`` counts them.  A flush per row would cost a system call
    each, so the lines are flushed once ``FLUSH_EVERY`` seconds or
    ``FLUSH_ROWS`` rows have gone by, whenever the batch waits (``idle``) and
    at the end; ``tail`` holds where each line written since ends in the file,
    so that ``settle`` can tell which are in it.
    """

    def __init__(self, out, path: Path | None, header: list[str], items: list[dict],
                 resume: bool) -> None:
        self.header, self.items, self.path = header, items, path
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
        if path is None:
            self.handle = out                     # a text stream, or None: rows kept only
            return
        if resume and path.is_file():
            end = self._read_back(path)
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
            records, end = _csv_records(text, path)
            if not records:
                return 0
            if records[0][1] != self.header:
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
        mine = (str(item["id"]), _hands_text(item))
        theirs = (str(row.get("id")), str(row.get("hands")))
        if mine != theirs:
            raise EvaluatorError(
                f"cannot resume {path}: line {line} holds query {theirs[0]} ({theirs[1]}), "
                f"but query {k + 1} of this batch is {mine[0]} ({mine[1]}); the file is "
                "another batch's output", str(path))
        seed = row.get("seed")
        if seed not in (None, "") and "error" not in item and str(seed) != str(item["seed"]):
            raise EvaluatorError(f"cannot resume {path}: line {line} was sampled with seed "
                                 f"{seed}, this batch gives that query seed {item['seed']} "
                                 "(another batch seed?)", str(path))
        def damaged(what: str) -> EvaluatorError:
            return EvaluatorError(
                f"cannot resume {path}: line {line} (query {mine[0]}) has {what}; a batch "
                "writes no such row (was it edited, or damaged?): delete that line and the "
                "lines after it to compute them again, or start the file afresh (without "
                "resuming)", str(path))

        try:
            typed = self._typed(row, item) if self.csv else row
        except ValueError as error:
            raise damaged(str(error)) from None
        if "error" not in item and not typed.get("error") and not isinstance(
                typed.get("exact"), bool):
            raise damaged(f"exact {_shown(typed.get('exact'))}, not true or false")
        try:
            changed = _changed(item, row)
        except (ValueError, TypeError):           # a figure that is no number: below
            changed = None
        if changed is not None:
            was, now = changed
            raise EvaluatorError(
                f"cannot resume {path}: line {line} (query {mine[0]}) has {was}, but this "
                f"batch's query {mine[0]} has {now}; the query changed since the row was "
                "written: start the file afresh (without resuming) or write to another "
                "file", str(path))
        bad = _bad_result(typed, item)
        if bad is not None:
            raise damaged(bad)
        self.rows.append(typed)

    def _typed(self, cells: dict[str, str], item: dict) -> dict:
        """A CSV row read back as the dict ``run_query`` gave (empty cells left out);
        ``ValueError`` naming the cell if one cannot be read as its column's type."""
        row: dict = {}
        for name, text in cells.items():
            if name == "id":
                row[name] = item["id"]
            elif text == "":
                if name in ("board", "dead") or (name == "seed" and not cells.get("error")):
                    row[name] = "" if name != "seed" else None
            elif name == "exact":
                if text not in ("True", "False"):
                    raise ValueError(f"exact {_shown(text)}, not True or False")
                row[name] = text == "True"
            elif name in ("samples", "seed"):
                try:
                    # samples: deals, or their total weight (a float) with weighted ranges
                    row[name] = int(text) if name == "seed" or text.isdigit() else float(text)
                except ValueError:
                    raise ValueError(f"{name} {_shown(text)}, not a number") from None
            elif name in BASE_COLUMNS or name == "error" or name.endswith("_hand"):
                row[name] = text
            else:
                try:
                    row[name] = float(text)
                except ValueError:
                    raise ValueError(f"{name} {_shown(text)}, not a number") from None
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
        line = self._line([row.get(name, "") for name in self.header] if self.csv else row)
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


def batch_equity(queries: Iterable[Mapping] | str | Path | IO, *, scheduler=None,
                 threads: int | None = None, progress: bool = True, seed: int = 0,
                 chunk_size: int | None = None, out: str | Path | IO[str] | None = None,
                 resume: bool = False, on_error: str = "stop") -> list[dict]:
    """Run many equity queries; one result row per query, in the input's order.

    Parameters
    ----------
    queries : iterable of mappings, a path to a CSV / JSON Lines file, or a stream
        Each query's ``id`` (default: its position, from 1) must be its own:
        resuming matches rows to queries by id.  A CSV header names each column once.
        A stream (``sys.stdin``; text or bytes) holds JSON Lines when its first
        character is ``{``, else CSV.
    scheduler : str or dask.distributed.Client, optional
        ``"tcp://host:port"`` or a client: the batch is split into chunks and
        run on that Dask cluster (``pip install "evaluator[cluster]"``).
        Default: every core of this machine, no server.  An address that is
        not a Dask scheduler's (a web address, nothing listening, another
        kind of server) is refused within a few seconds, before the output
        is opened.
    threads : int, optional
        Local worker threads (default: every core).
    progress : bool
        A progress bar on a terminal.
    seed : int
        Seeds the queries that sample and give no seed of their own.
    chunk_size : int, optional
        Queries per cluster task (default: about four tasks per worker).
    out : path or text stream, optional
        Write each row as it finishes, in order: ``.csv`` (columns fixed up
        front from the queries) or JSON Lines (``.jsonl``, ``.ndjson``; a
        stream gets JSON Lines).  ``.json`` (one JSON document: a list of the
        rows) and ``.parquet`` (pyarrow, the ``data`` extra) stream the rows
        to ``OUT.rows.jsonl`` and write ``OUT`` from it at the end, when the
        rows file is removed.  Checked before any work (the rows file too);
        never the query file itself.
    resume : bool
        Continue the interrupted output ``out`` (for ``.json`` and
        ``.parquet``, its rows file): keep its complete rows (a partly
        written last line is dropped), compute only the missing ones.  The
        file ends as an uninterrupted run writes it.  Refused when its rows
        are another batch's, a kept row's query has changed since (its game,
        cards, ``exact``, ``trials``, ``target_stderr`` or seed), or a kept
        row is not one a batch writes (a column missing or of the wrong type,
        a share outside [0, 1], equities not adding up to 1, ...: edited or
        damaged); a missing file starts afresh.
    on_error : "stop" or "record"
        ``"stop"``: a bad query stops the batch before anything runs, and a
        query failing while it runs raises ``QueryFailed`` once the rows
        before it are written.  ``"record"``: the failure goes in the row's
        ``error`` column and the batch goes on.  A cluster task that fails
        past its retries fails each of its queries so; a cluster that fails
        as a whole raises ``QueryFailed`` for the first unfinished query.

    Raises
    ------
    BatchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``): the work stops within about a
        second; the finished rows are in ``out``.
    WriteFailed
        When ``out`` cannot be written (a full disk, ...): its ``kept`` rows
        are whole in the file (a part of one is taken out), ready for
        ``resume=True``.
    """
    if on_error not in ON_ERROR:
        raise EvaluatorError(f"on_error must be 'stop' or 'record', got {on_error!r}",
                             on_error)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ArgumentTypeError(f"seed must be an integer, got {seed!r}", seed)
    if seed < 0:
        raise EvaluatorError(f"seed must be a non-negative integer, got {seed}", seed)
    path = None
    suffix = "" if out is None or hasattr(out, "write") else Path(out).suffix.lower()
    if suffix in WHOLE_SUFFIXES:
        return _via_rows_file(queries, Path(out), scheduler=scheduler,   # type: ignore[arg-type]
                              threads=threads, progress=progress, seed=seed,
                              chunk_size=chunk_size, resume=resume, on_error=on_error)
    if out is not None and not hasattr(out, "write"):
        path = check_output(out, OUT_SUFFIXES, "out")
        check_not_queries(queries, out, "out")
    if resume and path is None:
        raise EvaluatorError("resume=True needs out= (the file to continue)", "resume")
    from ._parallel import resolve_threads
    if isinstance(queries, (str, Path)):
        records = _records(Path(queries))
    elif hasattr(queries, "read"):
        records = _stream_records(queries)
    else:
        records = [(None, q) for q in queries]     # type: ignore[misc]  # no line numbers
    record = on_error == "record"
    items = _validate(records, seed, record)       # type: ignore[arg-type]
    if scheduler is None:
        threads = resolve_threads(threads, len(items) << 20)
    # the cluster before the output: a wrong address leaves the file as it was
    client, own = _client(scheduler) if scheduler is not None else (None, False)
    try:
        try:
            sink = _Sink(out, path, columns(items), items, resume)
        except OSError as error:
            raise EvaluatorError(f"cannot write {path if path is not None else 'the rows'}: "
                                 f"{error.strerror or error}", str(path)) from error
        try:
            _run(items, sink, client, threads, progress, chunk_size, record, path)
        except OSError as error:
            if isinstance(error, BrokenPipeError) and not sink.own:
                raise                             # a closed stdout: the caller's to handle
            raise sink.failed(error) from error
        finally:
            sink.close()
    finally:
        if own:
            _close_client(client)
    return sink.rows


def _write_json(rows: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8") as handle:
        json.dump(rows, handle)
        handle.write("\n")


def _write_parquet(rows: list[dict], path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.Table.from_pylist(rows), path)


def _via_rows_file(queries, out: Path, **options) -> list[dict]:
    """``batch_equity`` into a file written whole (``.json``: one JSON list of the rows;
    ``.parquet``): the rows stream to ``OUT.rows.jsonl`` as they finish (so that ``resume``
    works as for JSON Lines), and ``OUT`` is written from them at the end, when the rows
    file is removed.  Both paths are checked before any work."""
    suffix = out.suffix.lower()
    check_output(out, (suffix,), "out")
    check_not_queries(queries, out, "out")
    rows_file = out.with_name(out.name + ".rows.jsonl")
    check_output(rows_file, (".jsonl",), "the rows file of out")
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401 - checked before any work
        except ImportError:
            raise EvaluatorError("Parquet output needs pyarrow: pip install "
                                 "\"evaluator[data]\"", str(out)) from None
    rows = batch_equity(queries, out=rows_file, **options)
    try:
        (_write_parquet if suffix == ".parquet" else _write_json)(rows, out)
    except OSError as error:
        try:
            out.unlink(missing_ok=True)           # a part of it
        except OSError:
            pass
        raise WriteFailed(f"cannot write {out}: {error.strerror or error}; all {len(rows):,} "
                          f"rows are kept in {rows_file}: make room and run again with "
                          f"resume=True to write {out.name}", len(rows), len(rows),
                          rows_file) from error
    rows_file.unlink(missing_ok=True)
    return rows


def _compile_note(items: Iterable[dict]) -> bool:
    """Whether the batch's games have kernels Numba has not cached (the bar then says it
    compiles first; ``_jit`` prints the note when the compiling starts)."""
    from ._compile_note import will_compile
    from .families import family
    from .games import game as _game
    modules: set[str] = set()
    for item in items:
        try:
            g = _game(item["game"])
        except Exception:                    # noqa: BLE001 - a bad row: reported elsewhere
            continue
        modules.update(family(g).kernel_modules)
    return will_compile(sorted(modules))


def _run(items: list[dict], sink: _Sink, scheduler, threads: int | None, progress: bool,
         chunk_size: int | None, record: bool, path: Path | None) -> None:
    """Compute the rows ``sink`` lacks, feeding it each as it finishes."""
    todo = list(range(sink.done, len(items)))
    if not todo:
        return
    from .progress import progress_bar
    label = "equity queries" + (" (cluster)" if scheduler is not None else "")
    # kernels compile here, not on a cluster's workers: say so, and label the bar, rather
    # than sit at 0 while they do
    compiling = scheduler is None and progress and _compile_note(items[i] for i in todo)
    bar = progress_bar(len(items), f"compiling kernels, then {label}" if compiling else label,
                       progress)
    if bar is not None:
        bar.advance(bar.task, sink.done)
    results: Generator[tuple[int, object], None, None]
    if scheduler is not None:
        results = _on_cluster([items[i] for i in todo], scheduler, chunk_size, sink.idle)
    else:
        from ._parallel import imap_unordered
        assert threads is not None                  # resolved by batch_equity
        results = imap_unordered(run_query, [items[i] for i in todo], threads, errors=True,
                                 idle=sink.idle)
    failure: tuple[int, BaseException | str] | None = None
    lost: Exception | None = None
    try:
        while True:
            try:
                j, result = next(results)
            except StopIteration:
                break
            except EvaluatorError:
                raise
            except Exception as error:      # noqa: BLE001 - the cluster itself failed
                lost = error
                break
            index = todo[j]
            if isinstance(result, (BaseException, str)):
                if not record:
                    if failure is None or index < failure[0]:
                        failure = (index, result)
                    if sink.done >= failure[0]:
                        break
                    continue
                result = _error_row(items[index], result if isinstance(result, str)
                                    else _reason(result))
            if failure is not None and index > failure[0]:
                continue
            assert isinstance(result, dict)             # a row, once failures are handled
            written = sink.add(index, result)
            if bar is not None:
                if compiling:
                    bar.update(bar.task, description=label)
                    compiling = False
                bar.advance(bar.task, written)
            if failure is not None and sink.done >= failure[0]:
                break
        sink.flush()
    except KeyboardInterrupt:
        sink.settle()
        raise BatchInterrupted(sink.done, len(items), path) from None
    finally:
        results.close()
        if bar is not None:
            bar.stop()
    if lost is not None:
        # no row to blame: the rows before the first unfinished one are kept
        raise QueryFailed(items[sink.done]["id"], f"the cluster failed: {_reason(lost)}",
                          sink.done, len(items), path) from lost
    if failure is not None:
        index, cause = failure
        reason: str = cause if isinstance(cause, str) else _reason(cause)
        failed = QueryFailed(items[index]["id"], reason, sink.done, len(items), path)
        if isinstance(cause, BaseException):
            raise failed from cause
        raise failed


# --- Dask -------------------------------------------------------------------------

PROBE_TIMEOUT = 2.0            # seconds to connect to a scheduler and read its greeting
CONNECT_TIMEOUT = "5s"         # Dask's, to a tcp:// scheduler that answered the probe
MAX_GREETING = 1 << 16         # bytes: a Dask handshake is a small msgpack mapping
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")     # the protocols Dask speaks
_HOST_PORT = ("tcp", "tls", "ws", "wss")                   # ... over a TCP connection


def _probe(address: str) -> str:
    """Check what can be checked of a Dask scheduler's address before Dask is loaded (it
    takes a second or two); one clear error if it is wrong.  Returns its protocol.

    A web address (a pasted dashboard link), an unknown protocol, and text that
    is no ``host:port`` are refused at once, as is an address where nothing
    listens.  A Dask server speaks first: a handshake frame, an 8-byte length
    and a small msgpack mapping; over ``tcp://`` that greeting is read here, so
    that a web server (which waits silently), a random service (which sends
    something else) or one that closes the connection are told apart in at most
    a few seconds.  Over the other protocols Dask's own handshake does that,
    under the same time limit.
    """
    import socket  # only for cluster addresses: loaded here
    import struct
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text

    def fail(why: str) -> EvaluatorError:
        return EvaluatorError(f"cannot reach the Dask scheduler at {address!r}: {why}",
                              address)

    if scheme.lower() in ("http", "https"):
        raise fail("that is a web address (the dashboard's?); a scheduler's address looks "
                   "like tcp://host:8786")
    if scheme not in SCHEMES:
        raise fail(f"unknown protocol {scheme!r}; a scheduler's address looks like "
                   f"tcp://host:8786 (Dask's protocols: {', '.join(SCHEMES)})")
    if scheme not in _HOST_PORT:
        return scheme
    match = re.fullmatch(r"\[?([^\[\]/]+?)\]?:(\d+)/?", rest)
    if not match or int(match.group(2)) > 65535:
        raise EvaluatorError(f"scheduler address {address!r} must look like "
                             "'tcp://host:port'", address)
    host, port = match.group(1), int(match.group(2))
    try:
        sock = socket.create_connection((host, port), timeout=PROBE_TIMEOUT)
    except TimeoutError:
        raise fail(f"no answer within {PROBE_TIMEOUT:g} s") from None
    except OSError as error:
        raise fail(error.strerror or str(error)) from None
    with sock:
        if scheme != "tcp":
            return scheme
        try:
            head = _read_exactly(sock, 8)
            size = struct.unpack("<Q", head)[0]
            if not 0 < size <= MAX_GREETING:
                raise fail("the server there does not speak Dask's protocol")
            greeting = _read_exactly(sock, size)
        except TimeoutError:
            raise fail("the server there sent no Dask greeting (is it a Dask scheduler, "
                       "or e.g. a web server?)") from None
        except ConnectionError as error:
            raise fail(f"the server there closed the connection ({error})") from None
        except OSError as error:
            raise fail(error.strerror or str(error)) from None
        if b"compression" not in greeting:
            raise fail("the server there does not speak Dask's protocol")
        try:
            sock.sendall(head + greeting)         # answer in kind, so it logs no error
        except OSError:
            pass
    return scheme


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        part = sock.recv(n - len(data))
        if not part:
            raise ConnectionError("it sent no more")
        data += part
    return data


def _client(scheduler):
    """``(client, own)``: the client given, or one connected to the address given (``own``:
    closed by the batch).  A client that fails to connect is closed before the error is
    raised: left to the garbage collector, it waits 10 s and prints a traceback."""
    if not isinstance(scheduler, str):
        if not callable(getattr(scheduler, "map", None)):
            raise ArgumentTypeError("scheduler must be an address like 'tcp://host:8786' "
                                    "or a dask.distributed.Client, got "
                                    f"{type(scheduler).__name__}", scheduler)
        return scheduler, False
    from importlib.util import find_spec
    if find_spec("distributed") is None:
        raise EvaluatorError("running on a cluster needs Dask: pip install "
                             "'evaluator[cluster]'", "dask")
    scheme = _probe(scheduler)
    import logging

    from distributed import Client
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    # built in two steps so that a client whose connection fails can still be closed
    client = Client.__new__(Client)
    try:
        client.__init__(scheduler, set_as_default=False,   # type: ignore[misc]
                        timeout=CONNECT_TIMEOUT if scheme == "tcp" else f"{PROBE_TIMEOUT:g}s")
    except Exception as error:          # noqa: BLE001 - any failure: the address is wrong
        _close_client(client)
        why = _reason(error) if not isinstance(error, (OSError, TimeoutError)) else str(error)
        if scheme == "tcp" and not isinstance(error, (OSError, TimeoutError)):
            # it answered the probe's handshake: a Dask server, but not a scheduler
            why = f"the server there is not a Dask scheduler (a worker?): {why}"
        raise EvaluatorError(f"cannot reach the Dask scheduler at {scheduler!r}: {why}",
                             scheduler) from None
    finally:
        quiet.setLevel(level)
    return client, True


def _close_client(client) -> None:
    """Close a client this batch opened, quietly, in at most a couple of seconds."""
    import logging
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        client.close(timeout=2)
    except Exception:                   # noqa: BLE001 - closing: nothing to report
        pass
    finally:
        quiet.setLevel(level)


def _on_cluster(items: list[dict], client, chunk_size: int | None,
                idle: Callable[[], None]) -> Generator[tuple[int, object], None, None]:
    """Yield ``(index, row or failure reason)`` as chunks finish on a Dask cluster,
    calling ``idle`` after each chunk (the wait for the next may be long).

    A task lost with its worker is run again; a task that still fails gives
    each of its queries that failure.  Closing the generator (Ctrl-C, or a
    failure) cancels the tasks not yet finished; the caller closes the client.
    """
    futures = []
    try:
        if chunk_size is None:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            chunk_size = max(1, -(-len(items) // (4 * workers)))
        starts = list(range(0, len(items), chunk_size))
        futures = client.map(_run_chunk, [items[a:a + chunk_size] for a in starts],
                             pure=False, retries=3)
        chunk_of = {future.key: (a, min(chunk_size, len(items) - a))
                    for future, a in zip(futures, starts)}
        import asyncio

        from distributed import as_completed
        for future in as_completed(futures, loop=client.loop):
            start, size = chunk_of[future.key]
            try:
                parts = future.result()
            except (Exception, asyncio.CancelledError) as error:    # noqa: BLE001
                # the task failed past its retries (its worker died each time, its
                # data would not load, ...): each of its queries failed that way
                parts = [(None, f"its cluster task failed: {_reason(error)}")] * size
            for k, (row, reason) in enumerate(parts):
                yield start + k, row if reason is None else reason
            idle()
    finally:
        if futures:
            client.cancel(futures)


def write_rows(rows: list[dict], path: str | Path) -> None:
    """Write result rows as CSV (``.csv``), one JSON list (``.json``) or JSON Lines
    (anything else)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        _write_json(rows, path)
    elif path.suffix.lower() == ".csv":
        header: list[str] = []
        for row in rows:
            header += [k for k in row if k not in header]
        with path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=header)
            writer.writeheader()
            writer.writerows(rows)
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
