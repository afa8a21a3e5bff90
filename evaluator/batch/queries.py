"""Batch queries: the fields, reading files and streams of them, and checking every
query before any is computed."""
from __future__ import annotations

import csv
import io
import json
import math
import os
import reprlib
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

import numpy as np

from ..errors import (
    ArgumentTypeError,
    EvaluatorError,
    number_text,
    read_seed,
    seed_of_text,
)

if TYPE_CHECKING:

    pass


FIELDS = ("game", "hands", "board", "dead", "exact", "trials", "target_stderr", "seed",
          "version")
KNOWN_FIELDS = frozenset((*FIELDS, "id"))
BASE_COLUMNS = ("id", "game", "hands", "board", "dead", "method", "exact", "samples", "seed",
                "version")
PLAYER_COLUMNS = ("hand", "equity", "win", "tie", "scoop", "hi", "lo", "stderr")
JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")     # query files read as JSON Lines
# every suffix ``out=`` takes (a refusal lists them all): streamed, or WHOLE_SUFFIXES
OUT_SUFFIXES = (".csv", ".jsonl", ".ndjson", ".json", ".parquet")
WHOLE_SUFFIXES = (".json", ".parquet")    # written whole at the end, from OUT.rows.jsonl
ON_ERROR = ("stop", "record")
MAX_LISTED = 20                 # problems listed in one validation error
FLUSH_EVERY = 0.2               # seconds a written row may wait for its flush while rows come
FLUSH_ROWS = 1000               # or this many rows, whichever comes first


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
  evaluator batch queries.jsonl --scheduler tcp://scheduler:8786
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
    except ValueError:                   # an integer of more than 4,300 digits
        # (Python's own message names its setting, sys.set_int_max_str_digits, no field)
        return _Unreadable("the line's JSON cannot be read: it holds an integer of more "
                           "than 4,300 digits")


def file_records(path: Path) -> list[tuple[int, object]]:
    """``(line number, query)`` for every query in a CSV or JSON Lines file."""
    if path.is_dir():
        raise EvaluatorError(f"{str(path)!r} is a folder, not a query file (.csv or .jsonl)",
                             str(path))
    if not path.is_file():
        raise EvaluatorError(f"no such file: {str(path)!r}", str(path))
    text = _read_text(path)
    return _parse(text, path.name, _is_json_lines(path, text), str(path))


def stream_records(stream) -> list[tuple[int, object]]:
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
    records = stream_records(path) if hasattr(path, "read") else file_records(Path(path))
    return [query for _, query in records]   # type: ignore[misc]  # checked later


# --- checking queries -------------------------------------------------------------

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxtuple, _REPR.maxdict = 3, 10, 10, 10
_REPR.maxstring = _REPR.maxother = 80


def show_value(value: object) -> str:
    """A value as a message shows it: short whatever its size, and whatever its nesting
    (``repr`` of a list nested 100,000 deep raises ``RecursionError``)."""
    if type(value) is int:                      # its digits, or how many (errors.number_text)
        return number_text(value)[:300]
    try:
        if isinstance(value, (str, int, float)) or value is None:
            return repr(value)[:300]
        return _REPR.repr(value)
    except (ValueError, RecursionError):       # an int subclass of more than 4,300 digits
        return f"a {type(value).__name__}"


def _text(value: object) -> str:
    """A query's field as the text of a recorded error row."""
    return value if isinstance(value, str) else show_value(value)


def _normalise(query: Mapping, index: int, seed: int, version: int | None = None) -> dict:
    """A query with every field in its final type (errors carry no query name)."""
    if isinstance(query, _Unreadable):
        raise EvaluatorError(query.reason, None)
    if not isinstance(query, Mapping):
        raise EvaluatorError(f"a query is a mapping of equity arguments, got {show_value(query)}",
                             query)
    unknown = set(query) - KNOWN_FIELDS
    if unknown:
        raise EvaluatorError(f"unknown field {sorted(map(str, unknown))[0]!r} "
                             f"(fields: {', '.join(FIELDS)}, id)", sorted(map(str, unknown))[0])
    ident = query.get("id", index + 1)
    if isinstance(ident, bool) or not isinstance(ident, (str, int)):
        raise ArgumentTypeError(f"id must be a string or an integer, got {show_value(ident)}",
                                ident)
    hands = query.get("hands")
    if isinstance(hands, str):
        from ..engine.spots import split_hands
        hands = split_hands(hands)
    if not isinstance(hands, (list, tuple)) or len(hands) < 2:
        raise EvaluatorError(f"needs two or more hands, e.g. 'AsKs vs QQ+', got "
                             f"{show_value(hands)}", hands)
    if not all(isinstance(h, str) for h in hands):
        raise ArgumentTypeError(f"hands must be strings, got {show_value(hands)}", hands)
    for name in ("game", "board", "dead"):
        if not isinstance(query.get(name, ""), str):
            raise ArgumentTypeError(f"{name} must be a string, got {show_value(query[name])}",
                                    query[name])
    out = {"id": ident, "game": query.get("game", "holdem") or "holdem", "hands": list(hands),
           "board": query.get("board", "") or "", "dead": query.get("dead", "") or ""}
    exact = query.get("exact")
    if isinstance(exact, str):
        lowered = exact.strip().lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no", ""):
            raise EvaluatorError(f"exact must be true or false, got {show_value(exact)}", exact)
        exact = None if not lowered else lowered in ("true", "1", "yes")
    elif exact is not None and not isinstance(exact, bool):
        raise ArgumentTypeError(f"exact must be true or false, got {show_value(exact)}", exact)
    out["exact"] = exact
    for name, kind in (("trials", int), ("target_stderr", float), ("seed", int),
                       ("version", int)):
        value = query.get(name)
        if value is None or (isinstance(value, str) and value == ""):
            out[name] = None
            continue
        if name == "seed" and isinstance(value, str) and seed_of_text(value) is not None:
            out[name] = seed_of_text(value)         # as a results file writes it: "0x..."
            continue
        out[name] = whole_number(name, value) if kind is int else _number(name, value)
    out["seed"] = read_seed(out["seed"])
    if out["seed"] is None and exact is not True:     # an exact answer deals no seed
        out["seed"] = derived_seed(seed, index)
    from ..engine.spots import resolve_version
    # the Monte Carlo stream: the query's, else the batch's
    asked = cast("int | None", out["version"])          # a whole number, or None, above
    out["version"] = resolve_version(version if asked is None else asked)
    return out


def derived_seed(seed: int, index: int) -> int:
    """The seed of query ``index`` that gives none, from the batch's ``seed``."""
    state = np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


def item_seed(item: dict, seed: int, index: int) -> int | None:
    """The seed query ``index`` deals with: its own, or one derived from the batch's
    ``seed`` where it may sample (a plain known-hand item leaves its seed out when it is
    read, ``known.quick_item``: its answer is exact)."""
    if "error" in item:
        return None
    if item["seed"] is not None or item["exact"] is True:
        return item["seed"]
    return derived_seed(seed, index)


def _number(name: str, value) -> float:
    """A query's number field (a JSON number, or the text of a CSV cell) as a float."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, str, np.integer, np.floating)):
        raise EvaluatorError(f"{name} must be a number, got {show_value(value)}", value)
    try:
        return float(value)
    except ValueError:
        raise EvaluatorError(f"{name} must be a number, got {show_value(value)}", value) from None


def whole_number(name: str, value) -> int:
    """A query's whole-number field: ``1000``, ``1000.0``, ``"1000"`` or ``"1e6"``.

    Integer text is read exactly (a seed may pass 2**53); other text and floats
    must hold a whole number, so ``1e6`` is a million and ``2.5`` is refused.
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)               # a NumPy integer too, from a caller's array
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
                raise EvaluatorError(f"{name} must be a whole number, got {show_value(value)}",
                                     value)
            return int(exact)
    number = _number(name, value)
    if not math.isfinite(number):
        raise EvaluatorError(f"{name} must be a number, got {show_value(value)}", value)
    if not number.is_integer():
        raise EvaluatorError(f"{name} must be a whole number, got {show_value(value)}", value)
    if abs(number) > 2 ** 53:
        # a float this large stands for many integers: the one meant is not known
        raise EvaluatorError(f"{name} {show_value(value)} is not an exact integer (a float past "
                             "2**53); write its digits", value)
    return int(number)


def validate(records: list[tuple[int | None, object]], seed: int,
              record: bool, version: int | None = None) -> list[dict]:
    """Every query checked and normalised before any is computed.

    A bad query raises (all the problems in one error, the first
    ``MAX_LISTED`` listed), or with ``record`` becomes an item whose
    ``error`` is the problem.
    """
    from ..engine import check_query
    from .known import quick_item
    items: list[dict] = []
    problems: list[tuple[str, Exception]] = []
    seen: dict[str, tuple[int | None, int]] = {}     # id -> where it was first given

    def where(line: int | None, index: int) -> str:
        return f"line {line}" if line is not None else f"query number {index + 1}"

    def named(ident: object, line: int | None) -> str:
        shown = ident if isinstance(ident, (str, int)) else show_value(ident)
        return f"query {shown}" + (f" (line {line})" if line is not None else "")
    for index, (line, query) in enumerate(records):
        ident = query.get("id", index + 1) if isinstance(query, Mapping) else index + 1
        if isinstance(ident, (str, int)) and not isinstance(ident, bool):
            # refused even with record: resuming matches rows to queries by id
            first = seen.setdefault(str(ident), (line, index))
            if first != (line, index):
                problems.append((f"{named(ident, line)}: id {ident!r} is also the id of "
                                 f"{where(*first)}; every query needs its own id "
                                 "(resuming matches rows by id)",
                                 EvaluatorError("duplicate id", ident)))
                continue
        quick = quick_item(query, index, version)    # a plain known-hand query: read once
        if quick is not None:
            items.append(quick)
            continue
        try:
            item = _normalise(query, index, seed, version)  # type: ignore[arg-type]  # it checks
            check_query(item["game"], item["hands"], item["board"], item["dead"],
                        exact=item["exact"], trials=item["trials"],
                        target_stderr=item["target_stderr"], seed=item["seed"],
                        version=item["version"])
        except (EvaluatorError, ArgumentTypeError) as bad:
            if not record:
                problems.append((f"{named(ident, line)}: {bad}", bad))
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
