"""Command line: argparse -> public API -> printed tables, JSON or CSV; nothing else.

    evaluator equity holdem AsKs QhQd
    evaluator eval holdem AsKs "Qs Js Ts 2d 3c"
    evaluator tables verify

Exit codes: 0 on success, 2 on a usage error or bad input (one line on
stderr naming the problem, output paths checked before any work), 1 when
``tables verify`` finds a problem, a batch query fails or ``bench`` finds a
wrong answer, 130 on Ctrl-C, 141 when stdout is closed early (``| head``).
"""
from __future__ import annotations

import argparse
import csv
import io
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

from ._terminal import IMAGE_SUFFIXES, SHOWN  # noqa: F401
from ._terminal import console as _console
from ._terminal import short as _short
from .errors import ArgumentTypeError, EvaluatorError, RangeError
from .games import GAMES

EXAMPLES = """examples:
  evaluator equity holdem AsKs QhQd
  evaluator equity holdem "QQ+,AKs" random --board 2c4c5h
  evaluator equity omaha8 Ah2h3sKs AdKdQcJc --board 4c5d9s --json
  evaluator equity holdem AsKs QhQd JcTc --trials 1000000 --seed 1
  evaluator equity the 9c9d4s AhKhQh --board Ks4d2c7h --by-street
  evaluator eval holdem AsKs QsJsTs2d3c
  evaluator discard pineapple AsKsQd JhTh --board ""
  evaluator batch queries.csv --out results.csv
  evaluator matrix holdem --out matrix.csv
  evaluator range "QQ+,AKs:0.5"
  evaluator plot grid --against "QQ+,AKs" --out grid.png
  evaluator plot streets holdem AsKs QhQd --board 2c7d9hTsJs --out streets.png
  evaluator bench --quick
  evaluator tables verify
"""



# The API's argument names in its messages, and the flags that set them here.  Anchored
# rules apply to every command; the others not to ``batch``, whose query files use the
# API's names as fields.
_FLAG_NAMES = [(re.compile(r"^threads must"), "--threads must"),
               (re.compile(r"^seed must"), "--seed must"),
               (re.compile(r"^trials must"), "--trials must"),
               (re.compile(r"^target_stderr must"), "--stderr must"),
               (re.compile(r"^target_stderr (?=[\d.])"), "--stderr "),
               (re.compile(r"^trials (?=\d)"), "--trials "),
               (re.compile(r"^exact=True cannot be combined with trials or target_stderr"),
                "--exact cannot be combined with --trials or --stderr")]
_FLAG_WORDS = [(re.compile(r"\btrials= or target_stderr="), "--trials or --stderr"),
               (re.compile(r"\bexact=True\b"), "--exact"),
               (re.compile(r"\btrials="), "--trials"),
               (re.compile(r"\btarget_stderr="), "--stderr"),
               (re.compile(r"\bthreads="), "--threads"),
               (re.compile(r"\bseed="), "--seed"),
               (re.compile(r"\bdiscard_equity\b"), "'evaluator discard'")]


def _flags(message: str, command: str | None) -> str:
    """An API error message in the command line's words (``trials=`` -> ``--trials``)."""
    for pattern, flag in _FLAG_NAMES + (_FLAG_WORDS if command != "batch" else []):
        message = pattern.sub(flag, message)
    return message


def _check_out(path: str | None, suffixes: tuple[str, ...], option: str) -> None:
    """Refuse an output path that cannot be written, before any work."""
    if path is not None:
        from .batch import check_output
        check_output(path, suffixes, option)


def _pct(x: float | None) -> str:
    return "" if x is None else f"{x:.2%}"


# --- eval ---------------------------------------------------------------------

def _cmd_eval(args: argparse.Namespace) -> int:
    from .evaluate import evaluate
    from .games import game as _game
    hand = evaluate(args.game, args.hole, args.board)
    if args.json:
        print(json.dumps({"game": args.game, **hand.to_dict()}))
        return 0
    console = _console()
    console.print(f"[bold]{hand.name}[/bold]")
    best = {3: "best three", 4: "best four"}.get(len(hand.best), "best five")
    console.print(f"  {best}: {' '.join(hand.best)}\n  category:  {hand.category}\n"
                  f"  value:     {hand.value}")
    if hand.low is not None:
        console.print(f"  low:       {hand.low.name} ({' '.join(hand.low.best)})")
    elif _game(args.game).hilo:
        console.print("  low:       none")
    return 0


# --- equity ---------------------------------------------------------------------

def _options(args: argparse.Namespace) -> dict:
    options = {"seed": args.seed, "threads": args.threads}
    if args.exact:
        options["exact"] = True
    if args.trials is not None:
        options["trials"] = args.trials
    if args.stderr is not None:
        options["target_stderr"] = args.stderr
    return options


CSV_FIELDS = ("board", "hand", "equity", "win", "tie", "scoop", "hi", "lo", "stderr",
              "exact", "samples", "method")


def _csv_rows(results) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for r in results:
        for p in r.players:
            writer.writerow([r.board, p.hand, p.equity, p.win, p.tie,
                             *("" if v is None else v for v in (p.scoop, p.hi, p.lo, p.stderr)),
                             r.exact, r.samples, r.method])
    return out.getvalue()


HILO_CAPTION = ("scoop: takes the whole pot alone; tie: shares some part of it; "
                "high/low: share of the pot won from each half")


def _equity_table(result, title: str | None = None):
    """One result as a table; hi-lo games show scoop, tie, high and low (win = scoop)."""
    from rich.table import Table
    hilo = result.players[0].hi is not None
    caption = result.method + ("" if result.exact or result.seed is None
                               else f", seed {result.seed}") + (f"\n{HILO_CAPTION}" if hilo
                                                                else "")
    table = Table(title=title, title_justify="left", caption=caption,
                  caption_justify="left")
    table.add_column("hand")
    names = ("equity", "scoop", "tie", "high", "low") if hilo else ("equity", "win", "tie")
    for name in names:
        table.add_column(name, justify="right")
    if not result.exact:
        table.add_column("stderr", justify="right")
    best = max(p.equity for p in result.players)
    for p in result.players:
        if hilo:
            cells = [_short(p.hand), _pct(p.equity), _pct(p.scoop), _pct(p.tie),
                     _pct(p.hi), _pct(p.lo)]
        else:
            cells = [_short(p.hand), _pct(p.equity), _pct(p.win), _pct(p.tie)]
        if not result.exact:
            cells.append(f"{p.stderr:.4%}")
        style = "bold green" if p.equity == best else None
        table.add_row(*cells, style=style)
    return table


def _cmd_equity(args: argparse.Namespace) -> int:
    from .engine import equity, equity_by_street
    # one answer: where a NumPy path exists, don't wait for Numba to load
    options = {**_options(args), "prefer_numpy": True}
    if args.by_street:
        results = equity_by_street(args.game, args.hands, args.board, args.dead, **options)
    else:
        results = [equity(args.game, args.hands, args.board, args.dead, **options)]
    if args.json:
        payload = [r.to_dict() for r in results]
        print(json.dumps(payload if args.by_street else payload[0]))
    elif args.csv:
        sys.stdout.write(_csv_rows(results))
    else:
        console = _console()
        for r in results:
            title = (f"{r.game}  board: {r.board or '-'}" + (f"  dead: {r.dead}" if r.dead
                                                              else ""))
            console.print(_equity_table(r, title))
    return 0


# --- discard ------------------------------------------------------------------

def _cmd_discard(args: argparse.Namespace) -> int:
    from .engine import discard_equity
    keeps = discard_equity(args.game, args.hero, args.opponents, args.board, args.dead,
                           **_options(args))
    if args.json:
        print(json.dumps([{"keep": keep, "discard": thrown, **result.to_dict()}
                          for keep, thrown, result in keeps]))
        return 0
    from rich.table import Table
    table = Table(title=f"{args.game}: keeps for {args.hero}, best first", title_justify="left",
                  caption=keeps[0][2].method, caption_justify="left")
    for name in ("keep", "discard"):
        table.add_column(name)
    for name in ("equity", "win", "tie"):
        table.add_column(name, justify="right")
    for k, (keep, thrown, result) in enumerate(keeps):
        hero = result.players[0]
        table.add_row(keep, thrown, _pct(hero.equity), _pct(hero.win), _pct(hero.tie),
                      style="bold green" if k == 0 else None)
    _console().print(table)
    return 0


# --- batch, matrix, range ---------------------------------------------------------

def _cmd_batch(args: argparse.Namespace) -> int:
    """Rows go to ``--out`` (or stdout) as they finish; Ctrl-C keeps them for ``--resume``.
    ``-`` reads the queries from stdin."""
    from .batch import OUT_SUFFIXES, BatchInterrupted, QueryFailed, WriteFailed, batch_equity

    def words(message: str) -> str:
        # the API's words for its options, as the command line spells them
        for api, flag in (("resume=True", "--resume"), ("without resuming", "without --resume"),
                          ("on_error='record'", "--on-error record")):
            message = message.replace(api, flag)
        return message

    _check_out(args.out, (*OUT_SUFFIXES, ".parquet"), "--out")
    if args.out and args.file != "-":
        from .batch import check_not_queries
        check_not_queries(args.file, args.out, "--out")
    if args.resume and not args.out:
        raise EvaluatorError("--resume needs --out: the file to continue", "--resume")
    queries = getattr(sys.stdin, "buffer", sys.stdin) if args.file == "-" else args.file
    try:
        rows = batch_equity(queries, scheduler=args.scheduler, threads=args.threads,
                            progress=not args.no_progress, seed=args.seed,
                            out=args.out or sys.stdout, resume=args.resume,
                            on_error=args.on_error)
    except WriteFailed as failed:           # a full disk, ...: the rows kept, and how to go on
        print(f"evaluator: error: {words(str(failed))}", file=sys.stderr)
        return 1
    except QueryFailed as failed:
        message = f"query {failed.query} failed: {failed.reason}"
        if failed.path is not None:
            message += (f"; the {failed.kept:,} rows before it are in {failed.path}; fix it "
                        "and run again with --resume, or add --on-error record")
        print(f"evaluator: error: {message}", file=sys.stderr)
        return 1
    except EvaluatorError as error:
        raise EvaluatorError(words(str(error)), error.token) from None
    except BatchInterrupted as stop:
        if stop.path is None:
            print(f"interrupted: {stop.kept:,} of {stop.total:,} rows written",
                  file=sys.stderr)
        else:
            print(f"interrupted: {stop.kept:,} of {stop.total:,} rows in {stop.path}; run "
                  "again with --resume to finish", file=sys.stderr)
        return 130
    if args.out:
        print(f"{len(rows):,} results written to {args.out}", file=sys.stderr)
        if args.json:
            for row in rows:
                print(json.dumps(row))
    return 0


def _cmd_matrix(args: argparse.Namespace) -> int:
    from .classes import CLASS_NAMES
    from .studies import preflop_matrix
    _check_out(args.out, (".csv", ".json"), "--out")
    m = preflop_matrix(args.game, recompute=args.recompute, threads=args.threads,
                       progress=not args.no_progress)
    if args.out:
        path = Path(args.out)
        if path.suffix.lower() == ".csv":
            with path.open("w", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(["hand", *CLASS_NAMES])
                for name, row in zip(CLASS_NAMES, m.matrix().tolist()):
                    writer.writerow([name, *("" if x != x else f"{x:.6f}" for x in row)])
        else:
            path.write_text(json.dumps({"classes": CLASS_NAMES,
                                        "equity": [[None if x != x else x for x in row]
                                                   for row in m.matrix().tolist()],
                                        "vs_random": m.vs_random().tolist()}))
        print(f"169 x 169 matrix written to {args.out}", file=sys.stderr)
    if args.json:
        print(json.dumps(dict(zip(CLASS_NAMES, m.vs_random().tolist()))))
    elif not args.out:
        _print_grid(dict(zip(CLASS_NAMES, m.vs_random().tolist())),
                    "exact heads-up equity against a random hand")
    return 0


def _print_grid(values: dict[str, float], title: str, composition: bool = False) -> None:
    """The 13 x 13 grid on the terminal: equities in green / yellow / red, or (a range's
    composition) shares in cyan, with the classes the range does not hold dimmed."""
    from rich.table import Table

    from .classes import CLASS_NAMES
    table = Table(title=title, title_justify="left", show_header=False, box=None,
                  padding=(0, 1))
    for _ in range(13):
        table.add_column(justify="center")
    for i in range(13):
        cells = []
        for j in range(13):
            name = CLASS_NAMES[13 * i + j]
            value = values.get(name)
            if value is None or value != value or (composition and value == 0):
                cells.append(f"[dim]{name}\n-[/dim]")
                continue
            if composition:
                cells.append(f"[bold cyan]{name}\n{value:.0%}[/bold cyan]")
                continue
            colour = "green" if value >= 0.6 else "yellow" if value >= 0.45 else "red"
            cells.append(f"[{colour}]{name}\n{value:.0%}[/{colour}]")
        table.add_row(*cells)
    _console().print(table)


def _cmd_range(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from .ranges import Range
    r = Range(args.text, args.game)
    if args.dead:
        r = r.live(args.dead)
        if not len(r):
            raise RangeError(f"the range {_short(r.text)!r} has no live combos once the dead "
                             "cards are out", r.text)
    if args.format == "vector":           # the weights over the game's combo order
        weights = r.vector().tolist()
        if args.json:
            print(json.dumps({"range": r.text, "game": r.game.name, "format": "vector",
                              "vector": weights}))
        else:
            sys.stdout.write("".join(f"{w!r}\n" for w in weights))
        return 0
    if args.format is not None:           # text for other tools; print(), as rich markup
        text = r.to_text(args.format)     # would read brackets
        print(json.dumps({"range": r.text, "game": r.game.name, "format": args.format,
                          "text": text}) if args.json else text)
        return 0
    from .families import family
    holdem = family(r.game).holdem_notation(r.game)
    breakdown = None if holdem else r.breakdown()
    if args.json:
        print(json.dumps({"range": r.text, "game": r.game.name, "combos": len(r),
                          "share": r.share, "total_weight": r.total_weight,
                          **({"breakdown": breakdown} if breakdown else {}),
                          "hands": [{"hand": h, "weight": w} for h, w in r]}))
        return 0
    console = _console()
    console.print(f"[bold]{escape(_short(r.text))}[/bold]: {len(r):,} combos, "
                  f"weight {r.total_weight:g} ({r.share:.2%} of all {r.game.name} hands)")
    if holdem:
        _print_grid(r.classes(), "share of each class in the range", composition=True)
        return 0
    assert breakdown is not None
    for title, counts in (("ranks", breakdown["ranks"]), ("suits", breakdown["suits"])):
        console.print(f"{title}: " + ", ".join(f"{name} {n:,} ({n / max(len(r), 1):.0%})"
                                               for name, n in counts.items() if n))
    shown = [h for h, _ in itertools.islice(r, 40)]
    console.print(" ".join(shown) + (" ..." if len(r) > 40 else ""))
    return 0


# --- plot -----------------------------------------------------------------------

def _check_plot(args: argparse.Namespace) -> None:
    """Refuse arguments the kind of plot does not use, and ones that conflict."""
    if args.kind == "grid":
        if args.game is not None or args.hands:
            stray = " ".join([args.game or "", *args.hands]).strip()
            raise EvaluatorError(f"plot grid takes no game or hands (got {_short(stray)!r}); "
                                 "they are for plot streets", stray)
        if args.against is not None and args.range is not None:
            raise EvaluatorError("--against and --range cannot be combined: --against colours "
                                 "by equity against a range, --range by a range's "
                                 "composition", "--range")
        if args.seed is not None:
            raise EvaluatorError("--seed is for plot streets; plot grid is exact", args.seed)
        if args.against is None and args.range is None and (args.board or args.dead):
            flag = "--board" if args.board else "--dead"
            raise EvaluatorError(f"{flag} needs --against or --range: the grid against a "
                                 "random hand is pre-flop", flag)
    else:
        for flag, value in (("--against", args.against), ("--range", args.range)):
            if value is not None:
                raise EvaluatorError(f"{flag} is for plot grid, not plot streets", value)


def _cmd_plot(args: argparse.Namespace) -> int:
    _check_plot(args)
    _check_out(args.out, IMAGE_SUFFIXES, "--out")
    from . import plots
    if args.kind == "grid":
        if args.against is not None:
            from .studies import hand_vs_range
            values = hand_vs_range(args.against, args.board, args.dead,
                                   progress=not args.no_progress)
            title = f"equity of each hand against {_short(args.against)}" + (
                f" on {args.board}" if args.board else "")
            plots.grid(values, args.out, title=title)
        elif args.range is not None:
            import numpy as np

            from .cards import parse_cards
            from .ranges import Range
            rng = Range(args.range)
            out = np.concatenate([parse_cards(args.board, what="the board"),
                                  parse_cards(args.dead, what="the dead cards")])
            live = rng.live(out) if len(out) else rng
            if not len(live):
                raise RangeError(f"the range {_short(rng.text)!r} has no live combos once the "
                                 "board and dead cards are out", rng.text)
            plots.grid(live.classes(), args.out,
                       title=f"range {_short(args.range)}: share of each class", label="share")
        else:
            from .classes import CLASS_NAMES
            from .studies import preflop_matrix
            values = dict(zip(CLASS_NAMES, preflop_matrix().vs_random().tolist()))
            plots.grid(values, args.out, title="heads-up equity against a random hand")
    else:
        from .engine import equity_by_street
        if not args.game or len(args.hands) < 2:
            raise EvaluatorError("plot streets needs a game and two or more hands", "hands")
        results = equity_by_street(args.game, args.hands, args.board, args.dead,
                                   seed=args.seed)
        plots.streets(results, args.out)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


# --- bench, tables, warmup --------------------------------------------------------

def _cmd_bench(args: argparse.Namespace) -> int:
    _check_out(args.json, (".json",), "--json")
    _check_out(args.markdown, (".md", ".markdown"), "--markdown")
    _check_out(args.chart, IMAGE_SUFFIXES, "--chart")
    from .bench import main as bench_main
    return bench_main(args)


def _cmd_tables(args: argparse.Namespace) -> int:
    from . import _tables
    if args.action == "verify" and args.out is not None:
        raise EvaluatorError("--out is for 'tables build'; 'tables verify' checks the "
                             "installed tables", args.out)
    if args.out is not None:
        folder = Path(args.out)
        if folder.exists() and not folder.is_dir():
            raise EvaluatorError(f"--out {args.out!r} is a file, not a folder", args.out)
        if not folder.parent.is_dir():
            raise EvaluatorError(f"--out {args.out!r}: no such folder "
                                 f"{str(folder.parent)!r}", args.out)
        if not os.access(folder if folder.exists() else folder.parent, os.W_OK | os.X_OK):
            raise EvaluatorError(f"--out {args.out!r}: cannot write there", args.out)
    if args.action == "verify":
        problems = _tables.verify()
        for line in problems:
            print(line, file=sys.stderr)
        if not problems:
            print(f"all tables match {_tables.tables_dir() / 'MANIFEST.json'}")
        return 1 if problems else 0
    import runpy
    generate = _tables.generator()        # found even where MANIFEST.json is missing
    module = runpy.run_path(str(generate))
    return module["main"](["--out", args.out] if args.out else [])


def _cmd_warmup(args: argparse.Namespace) -> int:
    """Compile every kernel, showing each step (a bar on a terminal, else a line each)."""
    from .warmup import warmup
    if sys.stderr.isatty():
        from rich.progress import BarColumn, Progress, TimeElapsedColumn
        bar = Progress("[progress.description]{task.description}", BarColumn(),
                       "{task.completed}/{task.total}", TimeElapsedColumn(), transient=True)
        task = bar.add_task("compiling kernels", total=None)

        def show(step: int, steps: int, label: str) -> None:
            bar.update(task, completed=step, total=steps, description=label)
        with bar:
            ran = warmup(report=show, force=args.force, processes=args.processes)
    else:
        def line(step: int, steps: int, label: str) -> None:
            print(f"{step + 1}/{steps}: {label}", file=sys.stderr, flush=True)
        ran = warmup(report=line, force=args.force, processes=args.processes)
    print("kernels compiled and cached" if ran else
          "kernels already compiled and cached (--force runs every step again)")
    return 0


class UsageError(Exception):
    """A command line argparse refuses; ``main`` prints it as one line and exits 2."""


# argparse's messages, in the words of the rest of the command line's errors
_USAGE: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(r"^argument (\S+): not allowed with argument (\S+)$"),
     r"\1 cannot be combined with \2"),
    (re.compile(r"^argument (\S+): (must .*)$"), r"\1 \2"),
    (re.compile(r"^argument (\S+): expected one argument$"), r"\1 needs a value"),
    (re.compile(r"^argument (\S+): invalid choice: (\S+) \(choose from (.*)\)$"),
     lambda m: f"unknown {m[1].lower()} {m[2]} (choose from {m[3]})"),
    (re.compile(r"^argument (\S+): "), r"\1: ")]


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line naming the command's ``--help``
    (subparsers are made of this class too), raised as ``UsageError``."""

    def error(self, message: str):               # type: ignore[override]
        for pattern, replacement in _USAGE:
            message, found = pattern.subn(replacement, message)
            if found:
                break
        raise UsageError(f"{message} (see {self.prog} --help)")

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        # stray arguments are found by the top parser: name the command they follow
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = getattr(parsed, "command", None)
            prog = f"{self.prog} {command}" if command else self.prog
            raise UsageError(f"unrecognized arguments: {' '.join(extras)} (see {prog} --help)")
        return parsed


def _whole(text: str) -> int:
    """A whole-number flag: ``1000000``, ``1_000_000``, ``1e6`` or ``1000000.0``, read
    exactly (``1e30`` is 10**30, never a float's rounding of it); ``1.5`` is refused."""
    try:
        return int(text)
    except ValueError:
        pass
    from decimal import Decimal, InvalidOperation
    try:
        number = Decimal(text.replace("_", "") if "__" not in text else "x")
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if not number.is_finite() or number != number.to_integral_value() \
            or number.adjusted() > 308:              # past a float's range, as before
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}")
    return int(number)


def _real(text: str) -> float:
    """A number flag: finite, or refused here."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return number


def _add_method(p: argparse.ArgumentParser) -> None:
    method = p.add_mutually_exclusive_group()
    method.add_argument("--exact", action="store_true", help="enumerate every deal")
    method.add_argument("--trials", type=_whole, help="Monte Carlo deals (1000000 or 1e6)")
    method.add_argument("--stderr", type=_real, help="sample until this standard error")
    p.add_argument("--seed", type=_whole, help="Monte Carlo seed (same seed, same answer)")
    p.add_argument("--threads", type=_whole, help="threads (default: all cores)")


def parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    top = _Parser(prog="evaluator", formatter_class=raw, epilog=EXAMPLES,
                  description="Fast poker hand evaluation and equity.")
    from . import __version__
    top.add_argument("--version", action="version", version=f"evaluator {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("eval", help="evaluate one hand", formatter_class=raw,
                       description="Value, category, best five cards and name of one hand.",
                       epilog="example:\n  evaluator eval holdem AsKs 'Qs Js Ts 2d 3c'")
    p.add_argument("game", help="the game: " + ", ".join(GAMES))
    p.add_argument("hole", help="hole cards, e.g. AsKs")
    p.add_argument("board", nargs="?", default="", help="board cards, e.g. 'Qs Js Ts'")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_eval)

    p = sub.add_parser("equity", help="each hand's share of the pot", formatter_class=raw,
                       description="Exact or Monte Carlo equity of hands or ranges.",
                       epilog=EXAMPLES)
    p.add_argument("game", help="the game: " + ", ".join(GAMES))
    p.add_argument("hands", nargs="+",
                   help="one per player: cards (AsKs), partly known (As?), random, or a "
                        "range ('QQ+,AKs', 'AA**')")
    p.add_argument("--board", default="", help="board so far, e.g. 2c7d9h")
    p.add_argument("--dead", default="", help="cards out of the deck")
    _add_method(p)
    p.add_argument("--by-street", action="store_true", help="equity after each street")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON")
    output.add_argument("--csv", action="store_true", help="print CSV")
    p.set_defaults(run=_cmd_equity)

    p = sub.add_parser("discard", help="Pineapple keeps, best first", formatter_class=raw,
                       description="Equity of each possible keep of a Pineapple or Crazy "
                                   "Pineapple hand (the discard is dead).",
                       epilog="examples:\n  evaluator discard pineapple AsKsQd JhTh\n"
                              "  evaluator discard crazy_pineapple AsKsQd JhTh --board "
                              "2c7d9h")
    p.add_argument("game", help="pineapple or crazy_pineapple")
    p.add_argument("hero", help="the three cards before the discard")
    p.add_argument("opponents", nargs="+", help="opponents' two-card hands or ranges")
    p.add_argument("--board", default="", help="the flop for crazy_pineapple")
    p.add_argument("--dead", default="", help="cards out of the deck")
    _add_method(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_discard)

    from .batch import HELP as BATCH_HELP
    p = sub.add_parser("batch", help="run many equity queries", formatter_class=raw,
                       description="Equity queries from a CSV or JSON Lines file (fields: "
                                   "game, hands, board, dead, exact, trials, target_stderr, "
                                   "seed, id), locally or on a Dask cluster.",
                       epilog=BATCH_HELP)
    p.add_argument("file", help="queries: .csv or .jsonl, or - to read them from stdin "
                                "(JSON Lines if the first character is {, else CSV)")
    p.add_argument("--scheduler", help="Dask scheduler address, tcp://host:port (default: "
                                       "this machine)")
    p.add_argument("--out", help="write results to .csv, .jsonl (JSON Lines), .json (one JSON "
                                 "list) or .parquet; .json and .parquet stream the rows to "
                                 "OUT.rows.jsonl and are written at the end (default: JSON "
                                 "lines on stdout)")
    p.add_argument("--threads", type=_whole, help="local threads (default: all cores)")
    p.add_argument("--seed", type=_whole, default=0, help="seeds queries without their own")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted --out file, computing only missing rows")
    p.add_argument("--on-error", choices=("stop", "record"), default="stop",
                   help="stop: a bad or failing query stops the batch (default); record: "
                        "write its error in an 'error' column and go on")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="also print JSON lines")
    p.set_defaults(run=_cmd_batch)

    p = sub.add_parser("matrix", help="the 169 x 169 pre-flop matrix", formatter_class=raw,
                       description="Exact heads-up pre-flop equity of every class against "
                                   "every class (shipped; --recompute to compute it again).",
                       epilog="examples:\n  evaluator matrix holdem\n"
                              "  evaluator matrix holdem --out matrix.csv --recompute")
    p.add_argument("game", help="holdem")
    p.add_argument("--out", help="write the matrix to .csv or .json")
    p.add_argument("--recompute", action="store_true", help="compute instead of reading")
    p.add_argument("--threads", type=_whole, help="threads (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print each class's equity vs random")
    p.set_defaults(run=_cmd_matrix)

    from .cli_study import add_study_parser
    add_study_parser(sub, _Parser, raw, _whole)

    p = sub.add_parser("range", help="list a range's combos", formatter_class=raw,
                       description="Parse a range and show its combos, their share of all "
                                   "hands and (hold'em) a grid or (other games) a breakdown "
                                   "by pairing and suits.",
                       epilog="examples:\n  evaluator range 'QQ+,AKs:0.5'\n"
                              "  evaluator range 'AA$ds,KK!KKK:$r' --game omaha\n"
                              "  evaluator range 15% --game omaha --json\n"
                              "  evaluator range 15% --format pokerstove")
    p.add_argument("text", help="range text")
    p.add_argument("--game", default="holdem", help="game (default holdem)")
    p.add_argument("--dead", default="", help="remove combos holding these cards")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--format", choices=("pio", "gtoplus", "pokerstove", "vector"),
                   help="print the range as text for other tools (pio: 'AA,KK:0.5,AhKh', "
                        "gtoplus: the same, pokerstove: '22+,A2s+,KTo+'), or vector: its "
                        "weights over the game's combo order, one a line (--json: an object "
                        "holding the text or the vector)")
    p.set_defaults(run=_cmd_range)

    p = sub.add_parser("plot", help="draw a starting-hand grid or equity by street",
                       formatter_class=raw,
                       description="grid: the 13 x 13 hold'em grid coloured by equity against "
                                   "a range (--against), by a range's composition (--range), "
                                   "or against a random hand.  streets: each hand's equity "
                                   "after each street.",
                       epilog="examples:\n  evaluator plot grid --against 'QQ+,AKs' --out "
                              "grid.png\n  evaluator plot grid --range 'QQ+,AKs:0.5' --out "
                              "range.svg\n  evaluator plot streets holdem AsKs QhQd --board "
                              "2c7d9hTsJs --out streets.png")
    p.add_argument("kind", choices=("grid", "streets"))
    p.add_argument("game", nargs="?", help="streets: the game")
    p.add_argument("hands", nargs="*", help="streets: the hands")
    p.add_argument("--against", help="grid: colour by equity against this range")
    p.add_argument("--range", help="grid: colour by this range's composition")
    p.add_argument("--board", default="", help="board (grid: the flop/turn/river)")
    p.add_argument("--dead", default="", help="cards out of the deck")
    p.add_argument("--seed", type=_whole, help="seed where a street is sampled")
    p.add_argument("--out", required=True, help="image file: .png, .svg or .pdf")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=_cmd_plot)

    p = sub.add_parser("bench", help="compare evaluators on identical work",
                       formatter_class=raw,
                       description="Run the fixed, seeded benchmark suite on this package and "
                                   "on every installed peer, cross-checking answers first.",
                       epilog="examples:\n  evaluator bench --quick\n"
                              "  evaluator bench --json bench.json --chart bench.png")
    p.add_argument("--quick", action="store_true", help="small workloads (seconds)")
    p.add_argument("--only", help="comma-separated workload names")
    p.add_argument("--adapters", help="comma-separated adapter names (default: all)")
    p.add_argument("--plugin", action="append", default=[],
                   help="module:object of an extra adapter (repeatable)")
    p.add_argument("--repeat", type=_whole, default=5, help="runs per measurement")
    p.add_argument("--json", help="write the results as JSON to this file")
    p.add_argument("--chart", help="write a bar chart (.png/.svg)")
    p.add_argument("--markdown", help="write the table as Markdown to this file")
    p.set_defaults(run=_cmd_bench)

    p = sub.add_parser("tables", help="verify or rebuild the lookup tables")
    p.add_argument("action", choices=("verify", "build"))
    p.add_argument("--out", help="folder for 'build' (default: the tables folder)")
    p.set_defaults(run=_cmd_tables)

    p = sub.add_parser("warmup", help="compile the kernels into Numba's cache")
    p.add_argument("--force", action="store_true",
                   help="run every step even when a complete warmup is recorded")
    p.add_argument("--processes", type=_whole,
                   help="compile in this many processes side by side (default: the cores, "
                        "at most 4; 1 compiles here, step by step)")
    p.set_defaults(run=_cmd_warmup)
    return top


def _check_numbers(args: argparse.Namespace) -> None:
    """Flags argparse reads as integers but that must not be negative."""
    seed = getattr(args, "seed", None)
    if seed is not None and seed < 0:
        raise EvaluatorError(f"--seed must be a non-negative integer, got {seed}", seed)
    for flag in ("threads", "trials", "repeat"):
        value = getattr(args, flag, None)
        if value is not None and value < 1:
            raise EvaluatorError(f"--{flag} must be a positive integer, got {value}", value)


def main(argv: list[str] | None = None) -> int:
    """Run one command; errors are one line on stderr, never a traceback."""
    args = None
    try:
        try:
            args = parser().parse_args(argv)
        except SystemExit:                       # --help, --version: written out now
            sys.stdout.flush()
            raise
        _check_numbers(args)
        code = args.run(args)
        sys.stdout.flush()                       # a closed pipe shows here, not at exit
        return code
    except UsageError as error:
        print(f"evaluator: error: {error}", file=sys.stderr)
        return 2
    except (EvaluatorError, ArgumentTypeError) as error:
        command = args.command if args is not None else None
        print(f"evaluator: error: {_flags(str(error), command)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # a batch says what it kept itself (BatchInterrupted); every other command answers
        # whole or not at all
        print("evaluator: interrupted; nothing was written", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # stdout closed early (``| head``): say nothing, and keep the interpreter's final
        # flush from failing again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
