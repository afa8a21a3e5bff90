"""Command line: argparse -> public API -> printed text or JSON; nothing else.

    evaluator eval holdem AsKs "Qs Js Ts 2d 3c"
    evaluator tables verify
"""
from __future__ import annotations

import argparse
import json
import sys

from .errors import EvaluatorError

EXAMPLES = """examples:
  evaluator eval holdem AsKs QsJsTs2d3c
  evaluator eval holdem 9c9d "4s Kh 9s 4d 4c" --json
  evaluator tables verify
"""


def _cmd_eval(args: argparse.Namespace) -> int:
    from .evaluate import evaluate
    hand = evaluate(args.game, args.hole, args.board)
    if args.json:
        print(json.dumps({"game": args.game, **hand.to_dict()}))
    else:
        print(f"{hand.name}\n  best five: {' '.join(hand.best)}\n"
              f"  category:  {hand.category}\n  value:     {hand.value}")
    return 0


def _cmd_tables(args: argparse.Namespace) -> int:
    from . import _tables
    if args.action == "verify":
        problems = _tables.verify()
        for line in problems:
            print(line, file=sys.stderr)
        if not problems:
            print(f"all tables match {_tables.tables_dir() / 'MANIFEST.json'}")
        return 1 if problems else 0
    if args.action == "build":
        import runpy
        generate = _tables.tables_dir() / "generate.py"
        module = runpy.run_path(str(generate))
        return module["main"](["--out", args.out] if args.out else [])
    return 2


def _cmd_warmup(args: argparse.Namespace) -> int:
    from .evaluate import warmup
    warmup()
    print("kernels compiled and cached")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="evaluator", description="Fast poker hand evaluation.",
                                  epilog=EXAMPLES,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True)

    p = sub.add_parser("eval", help="evaluate one hand",
                       description="Value, category and best five cards of one hand.")
    p.add_argument("game", help="game name, e.g. holdem")
    p.add_argument("hole", help="hole cards, e.g. AsKs")
    p.add_argument("board", nargs="?", default="", help="board cards, e.g. 'Qs Js Ts'")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_eval)

    p = sub.add_parser("tables", help="verify or rebuild the lookup tables")
    p.add_argument("action", choices=("verify", "build"))
    p.add_argument("--out", help="folder for 'build' (default: the tables folder)")
    p.set_defaults(run=_cmd_tables)

    p = sub.add_parser("warmup", help="compile the kernels into Numba's cache")
    p.set_defaults(run=_cmd_warmup)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except EvaluatorError as error:
        print(f"evaluator: error: {error}", file=sys.stderr)
        return 2
