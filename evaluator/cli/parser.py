"""The parser of ``evaluator``: every command, its options and its examples."""
from __future__ import annotations

import argparse

from ..games import GAMES
from .args import Parser, add_method, seed_flag, whole
from .commands import (
    cmd_batch,
    cmd_bench,
    cmd_discard,
    cmd_equity,
    cmd_eval,
    cmd_matrix,
    cmd_plot,
    cmd_range,
    cmd_tables,
    cmd_warmup,
)
from .history import add_history_parser
from .study import add_study_parser

__all__ = ["parser", "EXAMPLES"]

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
  evaluator history hands/ --player hero --plot ev.png
"""


def parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    top = Parser(prog="evaluator", formatter_class=raw, epilog=EXAMPLES,
                  description="Fast poker hand evaluation and equity.")
    from .. import __version__
    top.add_argument("--version", action="version", version=f"evaluator {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("eval", help="evaluate one hand", formatter_class=raw,
                       description="Value, category, best five cards and name of one hand.",
                       epilog="example:\n  evaluator eval holdem AsKs 'Qs Js Ts 2d 3c'")
    p.add_argument("game", help="the game: " + ", ".join(GAMES))
    p.add_argument("hole", help="hole cards, e.g. AsKs")
    p.add_argument("board", nargs="?", default="", help="board cards, e.g. 'Qs Js Ts'")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=cmd_eval)

    p = sub.add_parser("equity", help="each hand's share of the pot", formatter_class=raw,
                       description="Exact or Monte Carlo equity of hands or ranges.",
                       epilog=EXAMPLES)
    p.add_argument("game", help="the game: " + ", ".join(GAMES))
    p.add_argument("hands", nargs="+",
                   help="one per player: cards (AsKs), partly known (As?), random, or a "
                        "range ('QQ+,AKs', 'AA**')")
    p.add_argument("--board", default="", help="board so far, e.g. 2c7d9h")
    p.add_argument("--dead", default="", help="cards out of the deck")
    add_method(p)
    p.add_argument("--by-street", action="store_true", help="equity after each street")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (shown for work past two seconds)")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON")
    output.add_argument("--csv", action="store_true", help="print CSV")
    p.set_defaults(run=cmd_equity)

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
    add_method(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=cmd_discard)

    from ..batch import HELP as BATCH_HELP
    p = sub.add_parser("batch", help="run many equity queries", formatter_class=raw,
                       description="Equity queries from a CSV or JSON Lines file (fields: "
                                   "game, hands, board, dead, exact, trials, target_stderr, "
                                   "seed, version, id), locally or on a Dask cluster.",
                       epilog=BATCH_HELP)
    p.add_argument("file", help="queries: .csv, or JSON Lines (.jsonl, .ndjson, .json), or - "
                                "to read them from stdin (JSON Lines if the first character "
                                "is {, else CSV)")
    p.add_argument("--scheduler", help="Dask scheduler address, tcp://host:port (default: "
                                       "this machine)")
    p.add_argument("--out", help="write results to .csv, .jsonl or .ndjson (JSON Lines), "
                                 ".json (one JSON list) or .parquet; .json and .parquet stream "
                                 "the rows to "
                                 "OUT.rows.jsonl and are written at the end (default: JSON "
                                 "lines on stdout)")
    p.add_argument("--threads", type=whole, help="local threads (default: all cores)")
    p.add_argument("--seed", type=seed_flag, default=0, help="seeds queries without their own")
    p.add_argument("--stream-version", type=whole, metavar="N",
                   help="the Monte Carlo stream of queries without their own version: 2 "
                        "(default), or 1 for the answers of release 0.1.0")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted --out file, computing only missing rows")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing --out file (without it, or --resume, an existing "
                        "file is refused before any work)")
    p.add_argument("--on-error", choices=("stop", "record"), default="stop",
                   help="stop: a bad or failing query stops the batch (default); record: "
                        "write its error in an 'error' column and go on")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="also print JSON lines")
    p.set_defaults(run=cmd_batch)

    p = sub.add_parser("matrix", help="the 169 x 169 pre-flop matrix", formatter_class=raw,
                       description="Exact heads-up pre-flop equity of every class against "
                                   "every class (shipped; --recompute to compute it again).",
                       epilog="examples:\n  evaluator matrix holdem\n"
                              "  evaluator matrix holdem --out matrix.csv --recompute")
    p.add_argument("game", help="holdem")
    p.add_argument("--out", help="write the matrix to .csv or .json")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out file")
    p.add_argument("--recompute", action="store_true", help="compute instead of reading")
    p.add_argument("--threads", type=whole, help="threads (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print each class's equity vs random")
    p.set_defaults(run=cmd_matrix)

    add_study_parser(sub, Parser, raw, whole)
    add_history_parser(sub, Parser, raw, whole)

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
    p.set_defaults(run=cmd_range)

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
    p.add_argument("--seed", type=seed_flag, help="seed where a street is sampled")
    p.add_argument("--stream-version", type=whole, metavar="N",
                   help="the Monte Carlo stream where a street is sampled: 2 (default), or 1 "
                        "for the answers of release 0.1.0")
    p.add_argument("--out", required=True, help="image file: .png, .svg or .pdf")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out file")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_plot)

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
    p.add_argument("--repeat", type=whole, default=5, help="runs per measurement")
    p.add_argument("--json", help="write the results as JSON to this file")
    p.add_argument("--chart", help="write a bar chart (.png/.svg)")
    p.add_argument("--markdown", help="write the table as Markdown to this file")
    p.add_argument("--overwrite", action="store_true",
                   help="replace existing --json, --chart or --markdown files")
    p.set_defaults(run=cmd_bench)

    p = sub.add_parser("tables", help="verify or rebuild the lookup tables",
                       formatter_class=raw,
                       epilog="example:\n  evaluator tables verify      # the installed "
                              "tables against their manifest")
    p.add_argument("action", choices=("verify", "build"))
    p.add_argument("--out", help="folder for 'build' (default: the tables folder)")
    p.set_defaults(run=cmd_tables)

    p = sub.add_parser("warmup", help="compile the kernels into Numba's cache",
                       formatter_class=raw,
                       epilog="example:\n  evaluator warmup             # every kernel, once; "
                              "then every first call is quick")
    p.add_argument("--force", action="store_true",
                   help="run every step even when a complete warmup is recorded")
    p.add_argument("--processes", type=whole,
                   help="compile in this many processes side by side (default: the cores, "
                        "at most 4; 1 compiles here, step by step)")
    p.set_defaults(run=cmd_warmup)
    return top
