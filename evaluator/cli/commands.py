"""The commands of ``evaluator`` but ``study``: each reads its parsed arguments, calls the
public API and prints a table, JSON or CSV; nothing else."""
from __future__ import annotations

import argparse
import csv
import io
import itertools
import json
import os
import sys
from pathlib import Path

from .._terminal import IMAGE_SUFFIXES
from .._terminal import console as _console
from .._terminal import short as _short
from ..errors import EvaluatorError, NoDeal, seed_text
from .args import check_out, pct

# --- eval ---------------------------------------------------------------------

def cmd_eval(args: argparse.Namespace) -> int:
    from ..evaluate import evaluate
    from ..games import game as _game
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
    options = {"seed": args.seed, "threads": args.threads, "version": args.stream_version}
    if args.exact:
        options["exact"] = True
    if args.trials is not None:
        options["trials"] = args.trials
    if args.stderr is not None:
        options["target_stderr"] = args.stderr
    return options


# (the seed and the stream last: a sampled answer is reproducible from its own row)
CSV_FIELDS = ("board", "hand", "equity", "win", "tie", "scoop", "hi", "lo", "stderr",
              "exact", "samples", "method", "seed", "version")


def _csv_rows(results) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for r in results:
        for p in r.players:
            writer.writerow([r.board, p.hand, p.equity, p.win, p.tie,
                             *("" if v is None else v for v in (p.scoop, p.hi, p.lo, p.stderr)),
                             r.exact, r.samples, r.method,
                             # the seed as text, "0x...": a spreadsheet or pandas reads a
                             # number of 19 digits rounded, and so another seed
                             "" if r.exact or r.seed is None else seed_text(r.seed),
                             "" if r.exact or r.version is None else r.version])
    return out.getvalue()


HILO_CAPTION = ("scoop: takes the whole pot alone; tie: shares some part of it; "
                "high/low: share of the pot won from each half")


def _method(result) -> str:
    """How a result was reached, as a table's caption says it: the method, and where it was
    sampled its seed and (other than the default) its Monte Carlo stream."""
    from ..engine.spots import STREAM_VERSION
    said = result.method
    if not result.exact and result.seed is not None:
        said += f", seed {result.seed}"
    if result.version not in (None, STREAM_VERSION):
        said += f", stream version {result.version}"
    return said


def _equity_table(result, title: str | None = None):
    """One result as a table; hi-lo games show scoop, tie, high and low (win = scoop)."""
    from rich.table import Table
    hilo = result.players[0].hi is not None
    caption = _method(result) + (f"\n{HILO_CAPTION}" if hilo else "")
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
            cells = [_short(p.hand), pct(p.equity), pct(p.scoop), pct(p.tie),
                     pct(p.hi), pct(p.lo)]
        else:
            cells = [_short(p.hand), pct(p.equity), pct(p.win), pct(p.tie)]
        if not result.exact:
            cells.append(f"{p.stderr:.4%}")
        style = "bold green" if p.equity == best else None
        table.add_row(*cells, style=style)
    return table


def cmd_equity(args: argparse.Namespace) -> int:
    from ..engine import equity, equity_by_street
    from ..progress import reporting
    # one answer: where a NumPy path exists, don't wait for Numba to load
    options = {**_options(args), "prefer_numpy": True}
    with reporting(not args.no_progress):       # work past two seconds shows its progress
        if args.by_street:
            results = equity_by_street(args.game, args.hands, args.board, args.dead,
                                       **options)
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

def cmd_discard(args: argparse.Namespace) -> int:
    from ..engine import discard_equity
    keeps = discard_equity(args.game, args.hero, args.opponents, args.board, args.dead,
                           **_options(args))
    if args.json:
        print(json.dumps([{"keep": keep, "discard": thrown, **result.to_dict()}
                          for keep, thrown, result in keeps]))
        return 0
    from rich.table import Table
    table = Table(title=f"{args.game}: keeps for {args.hero}, best first", title_justify="left",
                  caption=_method(keeps[0][2]), caption_justify="left")
    for name in ("keep", "discard"):
        table.add_column(name)
    for name in ("equity", "win", "tie"):
        table.add_column(name, justify="right")
    for k, (keep, thrown, result) in enumerate(keeps):
        hero = result.players[0]
        table.add_row(keep, thrown, pct(hero.equity), pct(hero.win), pct(hero.tie),
                      style="bold green" if k == 0 else None)
    _console().print(table)
    return 0


# --- batch, matrix, range ---------------------------------------------------------

def cmd_batch(args: argparse.Namespace) -> int:
    """Rows go to ``--out`` (or stdout) as they finish; Ctrl-C keeps them for ``--resume``.
    ``-`` reads the queries from stdin."""
    from ..batch import OUT_SUFFIXES, BatchInterrupted, QueryFailed, WriteFailed, batch_equity

    def words(message: str) -> str:
        # the API's words for its options, as the command line spells them
        for api, flag in (("resume=True", "--resume"), ("without resuming", "without --resume"),
                          ("on_error='record'", "--on-error record")):
            message = message.replace(api, flag)
        return message

    if args.out and args.file != "-":
        from ..batch import check_not_queries
        check_not_queries(args.file, args.out, "--out")      # the more telling refusal first
    check_out(args.out, OUT_SUFFIXES, "--out", overwrite=args.overwrite, resume=args.resume,
              resumable=True)
    if args.resume and not args.out:
        raise EvaluatorError("--resume needs --out: the file to continue", "--resume")
    queries = getattr(sys.stdin, "buffer", sys.stdin) if args.file == "-" else args.file
    try:
        rows = batch_equity(queries, scheduler=args.scheduler, threads=args.threads,
                            progress=not args.no_progress, seed=args.seed,
                            out=args.out or sys.stdout, resume=args.resume,
                            overwrite=args.overwrite, on_error=args.on_error,
                            version=args.stream_version)
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
        kept = (f" ({rows.resumed:,} of them kept from before, {len(rows) - rows.resumed:,} "
                "computed now)" if rows.resumed else "")
        print(f"{len(rows):,} results written to {args.out}{kept}", file=sys.stderr)
        if args.json:
            for row in rows:
                print(json.dumps(row))
    return 0


def cmd_matrix(args: argparse.Namespace) -> int:
    from ..classes import CLASS_NAMES
    from ..studies import preflop_matrix
    check_out(args.out, (".csv", ".json"), "--out", overwrite=args.overwrite)
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
        print_grid(dict(zip(CLASS_NAMES, m.vs_random().tolist())),
                    "exact heads-up equity against a random hand")
    return 0


def print_grid(values: dict[str, float], title: str, composition: bool = False) -> None:
    """The 13 x 13 grid on the terminal: equities in green / yellow / red, or (a range's
    composition) shares in cyan, with the classes the range does not hold dimmed."""
    from rich.table import Table

    from ..classes import CLASS_NAMES
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


def cmd_range(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from ..ranges import Range
    r = Range(args.text, args.game)
    if args.dead:
        from ..cards import parse_cards
        dead = parse_cards(args.dead, what="the dead cards")    # a card twice: refused
        r.game.check_in_deck(dead.tolist(), "the dead cards")
        r = r.live(dead)
        if not len(r):
            raise NoDeal(f"the range {_short(r.text)!r} has no live combos once the dead "
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
    from ..families import family
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
        print_grid(r.classes(), "share of each class in the range", composition=True)
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
        for flag, value in (("--seed", args.seed), ("--stream-version", args.stream_version)):
            if value is not None:
                raise EvaluatorError(f"{flag} is for plot streets; plot grid is exact", value)
        if args.against is None and args.range is None and (args.board or args.dead):
            flag = "--board" if args.board else "--dead"
            raise EvaluatorError(f"{flag} needs --against or --range: the grid against a "
                                 "random hand is pre-flop", flag)
    else:
        for flag, value in (("--against", args.against), ("--range", args.range)):
            if value is not None:
                raise EvaluatorError(f"{flag} is for plot grid, not plot streets", value)


def cmd_plot(args: argparse.Namespace) -> int:
    _check_plot(args)
    check_out(args.out, IMAGE_SUFFIXES, "--out", overwrite=args.overwrite)
    from .. import plots
    if args.kind == "grid":
        if args.against is not None:
            from ..studies import hand_vs_range
            values = hand_vs_range("holdem", args.against, args.board, args.dead,
                                   progress=not args.no_progress)
            title = f"equity of each hand against {_short(args.against)}" + (
                f" on {args.board}" if args.board else "")
            plots.grid(values, args.out, title=title)
        elif args.range is not None:
            import numpy as np

            from ..cards import parse_cards
            from ..engine.spots import check_distinct
            from ..ranges import Range
            rng = Range(args.range)
            board_ids = parse_cards(args.board, what="the board")
            dead_ids = parse_cards(args.dead, what="the dead cards")
            # a card on the board and dead too: refused, as every other command does
            check_distinct([("the board", board_ids), ("the dead cards", dead_ids)])
            out = np.concatenate([board_ids, dead_ids])
            live = rng.live(out) if len(out) else rng
            if not len(live):
                raise NoDeal(f"the range {_short(rng.text)!r} has no live combos once the "
                              "board and dead cards are out", rng.text)
            plots.grid(live.classes(), args.out,
                       title=f"range {_short(args.range)}: share of each class", label="share")
        else:
            from ..classes import CLASS_NAMES
            from ..studies import preflop_matrix
            values = dict(zip(CLASS_NAMES, preflop_matrix().vs_random().tolist()))
            plots.grid(values, args.out, title="heads-up equity against a random hand")
    else:
        from ..engine import equity_by_street
        if not args.game or len(args.hands) < 2:
            raise EvaluatorError("plot streets needs a game and two or more hands", "hands")
        results = equity_by_street(args.game, args.hands, args.board, args.dead,
                                   seed=args.seed, version=args.stream_version)
        plots.streets(results, args.out)
    print(f"image written to {args.out}", file=sys.stderr)
    return 0


# --- bench, tables, warmup --------------------------------------------------------

def cmd_bench(args: argparse.Namespace) -> int:
    check_out(args.json, (".json",), "--json", overwrite=args.overwrite)
    check_out(args.markdown, (".md", ".markdown"), "--markdown", overwrite=args.overwrite)
    check_out(args.chart, IMAGE_SUFFIXES, "--chart", overwrite=args.overwrite)
    from ..bench import main as bench_main
    return bench_main(args)


def cmd_tables(args: argparse.Namespace) -> int:
    from .. import _tables
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


def cmd_warmup(args: argparse.Namespace) -> int:
    """Compile every kernel, showing each step (a bar on a terminal, else a line each)."""
    from ..warmup import warmup
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
