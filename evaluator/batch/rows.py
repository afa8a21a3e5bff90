"""A query run, its row, and a row read back when a batch resumes (checked against the
query it answers)."""
from __future__ import annotations

import csv
import hashlib
import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import (
    ArgumentTypeError,
    EvaluatorError,
    seed_of_text,
    seed_text,
)
from .queries import BASE_COLUMNS, PLAYER_COLUMNS, show_value

if TYPE_CHECKING:

    from ..engine import EquityResult


# --- running queries ------------------------------------------------------------

def hands_text(item: dict) -> str:
    return item["hands"] if isinstance(item["hands"], str) else " vs ".join(item["hands"])


def error_row(item: dict, reason: str) -> dict:
    return {"id": item["id"], "game": item["game"], "hands": hands_text(item),
            "board": item["board"], "dead": item["dead"],
            "error": " ".join(reason.split())}


def error_reason(error: BaseException) -> str:
    """An error as one line: the message of the package's errors, else type and message."""
    if isinstance(error, (EvaluatorError, ArgumentTypeError)):
        return " ".join(str(error).split())
    return " ".join(f"{type(error).__name__}: {error}".split())


def run_query(query: dict) -> dict:
    """One normalised query -> one flat result row (the query, the method, per-player figures).

    Hi-lo games give ``pN_scoop`` and no ``pN_win`` (the same figure).
    """
    if "error" in query:
        return error_row(query, query["error"])
    from ..engine import equity
    result = equity(query["game"], query["hands"], query["board"], query["dead"],
                    exact=query["exact"], trials=query["trials"],
                    target_stderr=query["target_stderr"], seed=query["seed"], threads=1,
                    version=query.get("version"))
    return result_row(result, query["id"], query["hands"])


def result_row(result: EquityResult, id: object, hands: list[str]) -> dict:
    """The flat row of one result (``run_query``'s, and the flop study's)."""
    row = {"id": id, "game": result.game, "hands": " vs ".join(hands),
           "board": result.board, "dead": result.dead, "method": result.method,
           "exact": result.exact, "samples": result.samples,
           # text, "0x..." (errors.seed_text): pandas and spreadsheets would read a number
           # of 19 digits as a float, rounded to another seed
           "seed": None if result.exact else seed_text(result.seed),
           "version": None if result.exact else result.version}
    for p, player in enumerate(result.players, start=1):
        for name in PLAYER_COLUMNS:
            value = getattr(player, name)
            if value is not None and not (name == "win" and player.scoop is not None):
                row[f"p{p}_{name}"] = value
    return row


def run_chunk(queries: list[dict]) -> list[tuple[dict | None, str | None]]:
    """A cluster task: ``(row, None)``, or ``(None, reason)`` for a query that failed."""
    out: list[tuple[dict | None, str | None]] = []
    for query in queries:
        try:
            out.append((run_query(query), None))
        except Exception as error:          # noqa: BLE001 - reported by the caller
            out.append((None, error_reason(error)))
    return out


DIGEST = "digest"


def stored_seed(value: object) -> int | None:
    """The seed a row read back holds: its text (``errors.seed_text``'s ``0x`` form), or
    the integer (a JSON number, or a CSV cell's digits) that files written before seeds
    were text hold; None where the value is no seed."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 else None
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit():
            return int(text)
        return seed_of_text(text)
    return None


def row_digest(row: Mapping) -> str:
    """The ``digest`` a written row carries: 16 hex digits of BLAKE2b over its fields
    that hold something, ``name=text`` in the order of their names, each value as the
    text CSV gives it (``str``: a float's shortest repr, ``True``).  A CSV row read back
    (every cell text) and a JSON Lines row (numbers, booleans) of one result give the
    same digest; a figure changed by hand, or two swapped, gives another."""
    fields = sorted((name, str(value)) for name, value in row.items()
                    if name != DIGEST and value is not None and value != "")
    text = "\x1f".join(f"{name}={value}" for name, value in fields)
    # a lone surrogate (JSON may hold one, and a JSON Lines file keeps it escaped) is
    # hashed as its code unit, not refused
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def columns(items: list[dict]) -> list[str]:
    """The CSV header every row of these (checked) queries fits.

    Per player: ``hand, equity, tie`` always, ``win`` for high-only games,
    ``scoop, hi, lo`` for hi-lo games, ``stderr`` where a query may sample;
    then ``error`` (empty unless ``on_error="record"`` recorded a failure), so
    a file written with either setting can be resumed with the other; then the
    row's ``digest`` (``row_digest``), which a resumed file's rows must match.
    """
    from ..games import game as _game
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
    return out + ["error", DIGEST]


def csv_records(text: str, path: Path) -> tuple[list[tuple[int, list[str]]], int]:
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


def changed_row(item: dict, row: Mapping) -> tuple[str, str] | None:
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
    from ..cards import format_cards, parse_cards
    from ..engine.sample import DEFAULT_TRIALS
    from ..games import game as _game
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


def bad_result(row: Mapping, item: dict) -> str | None:
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
            return "no error text" if "error" in item else f"error {show_value(row.get('error'))}"
        extra = [name for name in row if name not in _ERROR_ROW]
        return f"both an error and {extra[0]}" if extra else None
    from ..games import game as _game
    exact = row.get("exact")
    if not isinstance(exact, bool):
        return f"exact {show_value(exact)}, not true or false"
    hilo = _game(item["game"]).pot == "hilo"
    names = ["hand", "equity", "win", "tie"] if not hilo else [
        "hand", "equity", "tie", "scoop", "hi", "lo"]
    if not exact:
        names.append("stderr")
    players = range(1, len(item["hands"]) + 1)
    wanted = [*BASE_COLUMNS, *(f"p{p}_{name}" for p in players for name in names)]
    # (no version: a row written before there were two streams, dealt by the first)
    missing = [name for name in wanted if name not in row and name != "version"]
    if missing:
        return f"no {missing[0]}"
    extra = [name for name in row if name not in wanted and name != "error"]
    if extra:
        return f"a column {extra[0]} that this query's row does not have"
    if not isinstance(row["method"], str) or not row["method"]:
        return f"method {show_value(row['method'])}"
    if not number(row["samples"]) or row["samples"] <= 0:
        return f"samples {show_value(row['samples'])}, not a positive number"
    seed = row["seed"]
    if seed is not None if exact else stored_seed(seed) is None:
        return f"seed {show_value(seed)}" + (" on an exact result" if exact else "")
    from ..engine.spots import STREAM_VERSIONS
    version = row.get("version", None if exact else 1)
    if (version is not None if exact else version not in STREAM_VERSIONS
            or isinstance(version, bool)):
        return f"version {show_value(version)}" + (" on an exact result" if exact else "")
    total = 0.0
    for p in players:
        figures = {}
        for name in names:
            value = row[f"p{p}_{name}"]
            if name == "hand":
                if not isinstance(value, str) or not value:
                    return f"p{p}_hand {show_value(value)}"
                continue
            if not number(value) or not 0 <= value <= 1:
                return f"p{p}_{name} {show_value(value)}, not a number from 0 to 1"
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
