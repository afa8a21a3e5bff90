"""The ``evaluator study`` commands: flops, distribution, breakdown, runouts.

Each subcommand takes only the options it uses (``--help`` lists just those), checks every
output path (``--out``, ``--plot``, the side file a resumable study streams to) before any
work, and writes its rows with ``--out`` (``.csv``, ``.jsonl``, ``.json``, ``.parquet``).
"""
from __future__ import annotations

import argparse
import json
import sys

from ..errors import EvaluatorError
from ..export import ROW_SUFFIXES, check_rows_path
from ..games import GAMES
from .args import check_out, seed_flag

__all__ = ["add_study_parser", "MAX_BUCKETS"]

MAX_BUCKETS = 1000          # equity bins of a distribution: 0.1% each at the finest


def _check_plot(path: str | None, overwrite: bool) -> None:
    """Refuse a ``--plot`` path, or a missing matplotlib, before the study runs."""
    if path is None:
        return
    from .._terminal import IMAGE_SUFFIXES
    check_out(path, IMAGE_SUFFIXES, "--plot", overwrite=overwrite)
    from ..plots import pyplot
    pyplot()                                      # the plot extra: refused now if missing


def _check_outputs(args: argparse.Namespace) -> None:
    """Every output path of a study checked before any work: writable, and not a file
    that holds something unless ``--overwrite`` (or, for flops, ``--resume``) asks."""
    resume = getattr(args, "resume", False)
    if getattr(args, "out", None):
        check_rows_path(args.out, "--out")
        check_out(args.out, ROW_SUFFIXES, "--out", overwrite=args.overwrite, resume=resume,
                  resumable=hasattr(args, "resume"))
    _check_plot(getattr(args, "plot", None), args.overwrite)


def _written(count: int, what: str, path: str) -> None:
    print(f"{count:,} {what} written to {path}", file=sys.stderr)


def _drawn(path: str) -> None:
    print(f"image written to {path}", file=sys.stderr)


# --- flops -------------------------------------------------------------------------

def _study_flops(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from .._terminal import console as _console
    from .._terminal import short as _short
    from ..errors import BatchInterrupted
    from ..studies import flop_study
    _check_outputs(args)
    rows_file = None
    if args.out:
        # the flops' rows stream here as they finish, so that --resume can continue them
        from ..export import rows_file_beside
        rows_file = rows_file_beside(args.out, "--out", resume=args.resume,
                                     overwrite=args.overwrite, words=("--resume", "--overwrite"))
    elif args.resume:
        raise EvaluatorError("--resume needs --out (the study to continue)", "--resume")
    try:
        study = flop_study(args.game, args.hands, dead=args.dead, trials=args.trials,
                           seed=args.seed, scheduler=args.scheduler, threads=args.threads,
                           progress=not args.no_progress, out=rows_file, resume=args.resume,
                           overwrite=args.overwrite, version=args.stream_version)
    except BatchInterrupted as stop:
        if rows_file is None:
            print("evaluator: interrupted; nothing was written (give --out to keep the "
                  "flops finished)", file=sys.stderr)
        else:
            print(f"evaluator: interrupted: {stop.kept:,} of {stop.total:,} flop classes are "
                  f"saved in {rows_file}; run the same command with --resume to finish",
                  file=sys.stderr)
        return 130
    if args.out and rows_file is not None:
        study.write(args.out)
        _written(len(study.rows), "flop classes", args.out)
    if args.plot:
        from .. import plots
        plots.flop_textures(study, args.plot)
        _drawn(args.plot)
    if args.json:
        for row in study.rows:
            print(json.dumps(row))
        return 0
    console = _console()
    equities = study.equity()
    console.print(f"[bold]{escape(' vs '.join(_short(h) for h in study.hands))}[/bold] "
                  f"on {sum(r['flops'] for r in study.rows):,} flops "
                  f"({len(study.rows):,} suit classes): "
                  + ", ".join(f"{e:.2%}" for e in equities) + " pre-flop")
    from rich.table import Table
    table = Table("aspect", "texture", "flops", "share",
                  *(f"p{p} equity" for p in range(1, study.players + 1)),
                  caption="share: the texture's share of all the deals (flops x the "
                          "weighted deals on each)" + (
                              "" if study.exact else
                              f"; Monte Carlo, seed {0 if args.seed is None else args.seed}"),
                  caption_justify="left")
    for row in study.by_texture():
        table.add_row(row["aspect"], row["texture"], f"{row['flops']:,}", f"{row['share']:.1%}",
                      *(f"{row[f'p{p}_equity']:.2%}" for p in range(1, study.players + 1)))
    console.print(table)
    return 0


# --- distribution ------------------------------------------------------------------

def _study_distribution(args: argparse.Namespace) -> int:
    from .._terminal import console as _console
    from .._terminal import short as _short
    from ..studies import check_distribution, equity_distribution
    if len(args.hands) != 2:
        raise EvaluatorError("a distribution takes two ranges: the one to spread, and the one "
                             "it faces", len(args.hands))
    if not 1 <= args.buckets <= MAX_BUCKETS:
        raise EvaluatorError(f"--buckets must be from 1 to {MAX_BUCKETS:,} (bins of 0.1% "
                             f"at the finest), got {args.buckets:,}", args.buckets)
    _check_outputs(args)
    if args.plot:                                 # the plot also spreads the other range
        check_distribution(args.hands[1], args.hands[0], args.board, game=args.game,
                           dead=args.dead)
    else:
        check_distribution(args.hands[0], args.hands[1], args.board, game=args.game,
                           dead=args.dead)
    d = equity_distribution(args.game, args.hands[0], args.hands[1], args.board, args.dead,
                            threads=args.threads, progress=not args.no_progress)
    if args.out:
        d.write(args.out)
        _written(len(d.combos), "combos", args.out)
    if args.plot:
        from .. import plots
        other = equity_distribution(args.game, args.hands[1], args.hands[0], args.board,
                                    args.dead, threads=args.threads,
                                    progress=not args.no_progress)
        plots.distributions([(args.hands[0], d), (args.hands[1], other)], args.plot,
                            title=f"equity distribution on {d.board or 'no board'}")
        _drawn(args.plot)
    if args.json:
        print(json.dumps({"mean": d.mean, "buckets": d.buckets(args.buckets),
                          "combos": d.rows}))
        return 0
    console = _console()
    console.print(f"{len(d.combos):,} combos of {_short(args.hands[0])} against "
                  f"{_short(args.hands[1])}: mean {d.mean:.2%}, median {d.percentile(50):.2%}")
    from rich.table import Table
    table = Table("equity", "share of deals", "combos",
                  caption="share of deals: each combo weighted by its range weight times the "
                          "deals it meets", caption_justify="left")
    fine = args.buckets > 100
    for b in d.buckets(args.buckets):
        span = f"{b['low']:.1%}-{b['high']:.1%}" if fine else f"{b['low']:.0%}-{b['high']:.0%}"
        table.add_row(span, f"{b['share']:.1%}", str(b["combos"]))
    console.print(table)
    return 0


# --- breakdown ---------------------------------------------------------------------

def _study_breakdown(args: argparse.Namespace) -> int:
    from .._terminal import console as _console
    from .._terminal import short as _short
    from ..studies import range_breakdown
    _check_outputs(args)
    b = range_breakdown(args.game, args.hand, args.board, args.dead,
                        progress=not args.no_progress)
    if args.out:
        b.write(args.out)
        _written(len(b.rows), "rows", args.out)
    if args.plot:
        from .. import plots
        plots.breakdown(b, args.plot, title=f"{_short(args.hand)} on {b.board}")
        _drawn(args.plot)
    if args.json:
        print(json.dumps({"board": b.board, "rows": b.rows,
                          "combos": {k: b.combos(k) for k in b.members}}))
        return 0
    from rich.table import Table
    table = Table("class", "kind", "combos", "share", title=f"{_short(args.hand)} on "
                  f"{b.board}", title_justify="left",
                  caption="share: of the range's live weight", caption_justify="left")
    for row in b.rows:
        if row["kind"] != "category":
            table.add_row(row["class"], row["kind"], f"{row['combos']:,}", f"{row['share']:.1%}")
    _console().print(table)
    return 0


# --- runouts ------------------------------------------------------------------------

def _study_runouts(args: argparse.Namespace) -> int:
    from rich.markup import escape
    from rich.table import Table

    from .._terminal import console as _console
    from .._terminal import short as _short
    from ..studies.runouts import RANKS, SUITS, runout_study
    _check_outputs(args)
    study = runout_study(args.game, args.hands, args.board, args.dead, threads=args.threads,
                         progress=not args.no_progress)
    if args.out:
        study.write(args.out)
        _written(len(study.rows), "cards", args.out)
    if args.plot:
        from .. import plots
        plots.runouts(study, args.plot)
        _drawn(args.plot)
    if args.json:
        print(json.dumps({"board": study.board, "hands": study.hands,
                          "equity": study.equity(), "rows": study.rows}))
        return 0
    console = _console()
    equities = study.equity()
    console.print(f"[bold]{escape(' vs '.join(_short(h) for h in study.hands))}[/bold] on "
                  f"{study.board}: " + ", ".join(f"{e:.2%}" for e in equities)
                  + f"; {_short(study.hands[0])}'s equity after each card:")
    cells = {row["card"]: row["p1_equity"] for row in study.rows}
    by_rank = {row["rank"]: row for row in study.by_rank()}
    table = Table("card", *SUITS, "rank", "share",
                  caption="rank: the four cards' mean, weighed by the deals each leaves; "
                          "share: the rank's share of the deals; blank: cannot fall",
                  caption_justify="left")
    for r in reversed(RANKS):
        if r not in by_rank:
            continue
        table.add_row(r, *(f"{cells[r + s]:.1%}" if r + s in cells else "" for s in SUITS),
                      f"{by_rank[r]['p1_equity']:.1%}", f"{by_rank[r]['share']:.1%}")
    console.print(table)
    return 0


# --- the parsers --------------------------------------------------------------------

def add_study_parser(sub, parser_class, raw, whole) -> None:
    """Add ``study`` and its four subcommands to the top parser's subparsers ``sub``."""
    suffixes = ", ".join(ROW_SUFFIXES)
    p = sub.add_parser("study", help="every flop, an equity distribution, a breakdown, "
                                     "every next card",
                       formatter_class=raw,
                       description="flops: two or more hands or ranges on every flop, one row "
                                   "per suit class of flops, by texture. distribution: each "
                                   "combo of a range with its equity against another. "
                                   "breakdown: a range's made hands and draws on a board. "
                                   "runouts: each card the next street can bring.",
                       epilog="examples:\n  evaluator study flops 'QQ+,AKs' random --out "
                              "flops.csv\n  evaluator study distribution 'QQ+,AKs' "
                              "'22+,A2s+' --board 2c7d9h\n  evaluator study breakdown "
                              "'QQ+,AKs,T9s' --board Ah7d2c\n  evaluator study runouts "
                              "'QQ+,AKs' '22+' --board 2c7d9h")
    kinds = p.add_subparsers(dest="kind", required=True, metavar="STUDY",
                             parser_class=parser_class)

    def common(q: argparse.ArgumentParser, out_help: str) -> None:
        q.add_argument("--game", default="holdem", help="the game: " + ", ".join(GAMES))
        q.add_argument("--dead", default="", help="cards out of the deck")
        q.add_argument("--out", help=f"{out_help} ({suffixes})")
        q.add_argument("--plot", help="also draw the study to .png, .svg or .pdf (the plot "
                                      "extra)")
        q.add_argument("--overwrite", action="store_true",
                       help="replace existing --out and --plot files (without it an existing "
                            "file is refused before any work)")
        q.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
        q.add_argument("--json", action="store_true", help="print JSON")

    q = kinds.add_parser("flops", help="every flop, one row per suit class",
                         formatter_class=raw,
                         description="Two or more hands or ranges on every flop: one row per "
                                     "suit class of flops, the pre-flop equity, and the rows "
                                     "grouped by texture.",
                         epilog="examples:\n  evaluator study flops 'QQ+,AKs' random\n"
                                "  evaluator study flops AsKs QhQd --out flops.csv\n"
                                "  evaluator study flops 'AA$ds' random --game omaha --trials "
                                "20000")
    q.add_argument("hands", nargs="+", help="hands or ranges, one per player")
    common(q, "write the rows")
    q.add_argument("--trials", type=whole, help="Monte Carlo deals per flop")
    q.add_argument("--seed", type=seed_flag, help="seed of the sampled flops")
    q.add_argument("--stream-version", type=whole, metavar="N",
                   help="the Monte Carlo stream of the sampled flops: 2 (default), or 1 for "
                        "the answers of release 0.1.0")
    q.add_argument("--scheduler", help="Dask scheduler address (the cluster extra)")
    q.add_argument("--threads", type=whole, help="threads (default: all cores)")
    q.add_argument("--resume", action="store_true",
                   help="continue an interrupted --out study (its flops' rows are kept in "
                        "OUT.rows.jsonl, so that on a finished study nothing is computed)")
    q.set_defaults(run=_study_flops)

    q = kinds.add_parser("distribution", help="each combo's equity against a range",
                         formatter_class=raw,
                         description="Each live combo of the first range with its exact "
                                     "equity against the second, binned by equity.",
                         epilog="example:\n  evaluator study distribution 'QQ+,AKs' "
                                "'22+,A2s+' --board 2c7d9h --out dist.csv")
    q.add_argument("hands", nargs="+", help="the range to spread, then the one it faces")
    q.add_argument("--board", default="", help="the board")
    common(q, "write one row per combo")
    q.add_argument("--threads", type=whole, help="threads (default: all cores)")
    q.add_argument("--buckets", type=whole, default=10,
                   help=f"equity bins shown (1 to {MAX_BUCKETS:,}; default 10)")
    q.set_defaults(run=_study_distribution)

    q = kinds.add_parser("breakdown", help="a range's made hands and draws on a board",
                         formatter_class=raw,
                         description="The share of a range's live combos in each made-hand "
                                     "class and draw on a board (3 to 5 cards; \"The\" 2 "
                                     "to 4).",
                         epilog="example:\n  evaluator study breakdown 'QQ+,AKs,T9s' --board "
                                "Ah7d2c")
    q.add_argument("hand", metavar="range", help="the range")
    q.add_argument("--board", required=True, help="the board: 3 to 5 cards (\"The\" 2 to 4)")
    common(q, "write the rows")
    q.set_defaults(run=_study_breakdown)

    q = kinds.add_parser("runouts", help="each card the next street can bring",
                         formatter_class=raw,
                         description="Two or more hands or ranges on a flop (or a turn): every "
                                     "turn (river) card with each player's exact equity once "
                                     "it falls, and the deals it leaves.",
                         epilog="examples:\n  evaluator study runouts 'QQ+,AKs' '22+' --board "
                                "2c7d9h --plot runouts.png\n  evaluator study runouts AA KK "
                                "--game omaha --board Ah7d2c9s --out rivers.csv")
    q.add_argument("hands", nargs="+", help="hands or ranges, one per player")
    q.add_argument("--board", required=True,
                   help="the board: a flop or a turn (one card short of a street)")
    common(q, "write one row per card")
    q.add_argument("--threads", type=whole, help="threads (default: all cores)")
    q.set_defaults(run=_study_runouts)
