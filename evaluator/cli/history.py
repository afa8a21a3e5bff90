"""``evaluator history``: read hand histories, replay them, and print each player's
winnings beside their all-in EV; the rows to ``--out`` a hand at a time, resumable."""
from __future__ import annotations

import argparse
import json
import sys

from ..errors import EvaluatorError
from .args import check_out

__all__ = ["add_history_parser", "cmd_history"]

EPILOG = """examples:
  evaluator history hands/                         # every .phh, .phhs, .txt below
  evaluator history stars.txt --player hero --plot ev.png
  evaluator history hands/ --out ev.csv --on-error record
  evaluator history hands/ --out ev.csv --resume   # after Ctrl-C: the hands not yet done

Each hand is replayed: a hand that breaks the rules or whose chips do not add up stops the
run with its file and line, or with --on-error record becomes a row with its error.  An
all-in is adjusted where no more betting was possible with cards to come and every hand
in it is known: each pot shared by exact equity (every card the history shows, a folded
player's included, out of the deck)."""


def add_history_parser(sub, parser_class, raw, whole) -> None:
    """Add ``history`` to the top parser's subparsers ``sub``."""
    p = sub.add_parser("history", help="all-in EV of hand histories (PHH, PokerStars)",
                       formatter_class=raw, epilog=EPILOG,
                       description="Winnings and all-in EV of every player in hand "
                                   "histories: PHH files (.phh, .phhs) and PokerStars text.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files, folders (every .phh, .phhs, .txt, .toml below), or - to read "
                        "standard input")
    p.add_argument("--player", help="only this player's rows and summary")
    p.add_argument("--out", help="write the rows to .csv or .jsonl (a hand at a time), or "
                                 ".parquet (at the end; OUT.rows.jsonl meanwhile)")
    p.add_argument("--plot", help="draw --player's won and all-in EV over the hands (.png, "
                                  ".svg, .pdf; needs matplotlib)")
    p.add_argument("--big-blinds", action="store_true",
                   help="plot in big blinds instead of chips")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted --out file: the hands it holds are skipped")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out file")
    p.add_argument("--on-error", choices=("stop", "record"), default="stop",
                   help="stop: a bad hand stops the run (default); record: it becomes a "
                        "row with its error, and the rest are analysed")
    p.add_argument("--processes", type=whole,
                   help="read the files in this many processes (default: the cores, where "
                        "the files hold 2 MB or more; 1: in this one)")
    p.add_argument("--scheduler", help="read the files as tasks of a Dask cluster, "
                                       "tcp://host:port (its workers must see the paths)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_history)


def cmd_history(args: argparse.Namespace) -> int:
    from ..histories import history_files
    from ..histories.allin import AllinRow, Totals
    from ..histories.hand import HandProblem, Problem
    from ..histories.output import RowWriter
    from ..histories.run import analyse, pool_size, set_aside
    from ..progress import progress_bar
    check_out(args.out, (".csv", ".jsonl", ".ndjson", ".parquet"), "--out",
              overwrite=args.overwrite, resume=args.resume, resumable=True)
    if args.plot:
        from .._terminal import IMAGE_SUFFIXES
        check_out(args.plot, IMAGE_SUFFIXES, "--plot", overwrite=True)
        if not args.player:
            raise EvaluatorError("--plot draws one player's hands: name them with --player",
                                 args.plot)
        from ..plots import pyplot
        pyplot()
    if args.big_blinds and not args.plot:
        raise EvaluatorError("--big-blinds sets --plot's unit: give --plot", "--big-blinds")
    if args.scheduler and args.processes is not None:
        raise EvaluatorError("--processes and --scheduler both say where the files are read: "
                             "give one", "--processes")
    if args.resume and not args.out:
        raise EvaluatorError("--resume continues an --out file: give --out", "--resume")
    files = list(history_files(args.paths))
    if not files:
        raise EvaluatorError("no hand-history files found under "
                             + ", ".join(repr(p) for p in args.paths), args.paths[0])
    if args.out and args.out.lower().endswith(".parquet"):
        # the rows file beside it, where an interrupted run keeps its rows
        from ..export import rows_file_beside
        rows_file_beside(args.out, "--out", resume=args.resume, overwrite=args.overwrite,
                         words=("--resume", "--overwrite"))
    totals = Totals()
    mine: list[AllinRow] = []                 # --plot's player's rows: one a hand at most

    def keep(row: AllinRow | Problem) -> None:
        totals.add(row)
        if args.plot and isinstance(row, AllinRow) and row.player == args.player:
            mine.append(row)

    def kept(record: dict) -> None:           # a row read back from the file resumed
        if not record.get("error"):
            keep(AllinRow.from_dict(record))
    try:
        writer = RowWriter(args.out, resume=args.resume, kept=kept) if args.out else None
    except OSError as error:
        raise EvaluatorError(f"cannot write {args.out}: {error.strerror or error}",
                             args.out) from None
    hands = writer.hands if writer else 0
    resumed = hands > 0
    workers = pool_size(files, args.processes)
    bar = progress_bar(len(files), "hand-history files", not args.no_progress)
    try:
        with set_aside():
            for _source, results in analyse(files, args.player, workers, args.scheduler):
                for key, got in results:
                    if resumed and writer is not None and writer.is_done(key):
                        continue
                    if args.on_error == "stop" and isinstance(got[0], Problem):
                        bad = got[0]
                        raise HandProblem(bad.reason, bad.source, bad.line, bad.index)
                    hands += 1
                    for row in got:
                        keep(row)
                    if writer is not None:
                        writer.write_hand(got)
                if bar is not None:
                    bar.advance(bar.task)
    except KeyboardInterrupt:
        if bar is not None:
            bar.stop()
        if writer is not None:
            writer.close()
            print(f"evaluator: interrupted; {writer.rows:,} rows kept in {args.out} "
                  "(--resume continues)", file=sys.stderr)
        raise SystemExit(130) from None
    except HandProblem:
        if writer is not None:
            writer.close()
        raise
    except OSError as error:                   # a disk that fills, a folder taken away
        raise EvaluatorError(f"cannot write {args.out}: {error.strerror or error} (the rows "
                             "written so far are kept: --resume continues)", args.out) from None
    finally:
        if bar is not None:
            bar.stop()
    if writer is not None:
        try:
            writer.close(finished=True)
        except OSError as error:
            raise EvaluatorError(f"cannot write {args.out}: {error.strerror or error}",
                                 args.out) from None
    players, problems = totals.result()
    left_out = totals.problem_count
    if args.player and not any(s.player == args.player for s in players):
        print(f"evaluator: no hand of player {args.player!r} in the histories read",
              file=sys.stderr)
    if args.player:
        players = [s for s in players if s.player == args.player]
    if args.json:
        print(json.dumps({"hands": hands, "players": [s.to_dict() for s in players],
                          "problems": [p.__dict__ for p in problems],
                          "problem_count": left_out}))
    else:
        _print_summary(players, problems, hands, left_out)
    if args.plot:
        from ..plots import winnings
        winnings(mine, args.plot, big_blinds=args.big_blinds,
                 title=f"{args.player}: won and all-in EV")
    return 0


def _chips(value: float, sign: bool = False) -> str:
    """Chips as a summary shows them: whole above 1,000, else to the cent."""
    text = f"{value:+,.0f}" if sign else f"{value:,.0f}"
    if abs(value) < 1000:
        text = f"{value:+,.2f}" if sign else f"{value:,.2f}"
    return text


def _print_summary(players, problems, hands: int, left_out: int) -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{hands:,} hands read")
    for name in ("player", "hands", "all-ins", "won", "all-in EV", "luck", "luck (bb)"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for s in players:
        table.add_row(s.player, f"{s.hands:,}", f"{s.allins:,}", _chips(s.won),
                      _chips(s.allin_ev), _chips(s.luck, sign=True),
                      f"{s.won_bb - s.allin_ev_bb:+,.1f}")
    console = Console()
    console.print(table)
    for p in problems[:20]:
        console.print(f"left out: {p.where}, line {p.line}: {p.reason}", markup=False,
                      highlight=False)
    if left_out > 20:
        console.print(f"... and {left_out - 20:,} more hands left out")
