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
  evaluator equity holdem AsKs QhQd
  evaluator equity omaha8 Ah2h3sKs AdKdQcJc --board 4c5d9s --json
  evaluator equity holdem AsKs QhQd JcTc --trials 1000000 --seed 1
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


def _cmd_equity(args: argparse.Namespace) -> int:
    from .equity import equity, equity_by_street
    options = {"seed": args.seed, "threads": args.threads}
    if args.exact:
        options["exact"] = True
    if args.trials is not None:
        options["trials"] = args.trials
    if args.stderr is not None:
        options["target_stderr"] = args.stderr
    if args.by_street:
        results = equity_by_street(args.game, args.hands, args.board, args.dead, **options)
    else:
        results = [equity(args.game, args.hands, args.board, args.dead, **options)]
    if args.json:
        payload = [r.to_dict() for r in results]
        print(json.dumps(payload if args.by_street else payload[0]))
        return 0
    if args.csv:
        print("board,hand,equity,win,tie,hi,lo,stderr,method")
        for r in results:
            for p in r.players:
                print(",".join(str(x) for x in (r.board, p.hand, p.equity, p.win, p.tie,
                                                "" if p.hi is None else p.hi,
                                                "" if p.lo is None else p.lo,
                                                "" if p.stderr is None else p.stderr,
                                                r.method)))
        return 0
    for r in results:
        print(f"{r.game}  board: {r.board or '-'}  dead: {r.dead or '-'}  ({r.method})")
        hilo = r.players[0].hi is not None
        head = f"  {'hand':<20}{'equity':>9}{'win':>9}{'tie':>9}"
        head += f"{'high':>9}{'low':>9}" if hilo else ""
        head += f"{'stderr':>9}" if not r.exact else ""
        print(head)
        for p in r.players:
            line = f"  {p.hand:<20}{p.equity:>9.2%}{p.win:>9.2%}{p.tie:>9.2%}"
            line += f"{p.hi:>9.2%}{p.lo:>9.2%}" if hilo else ""
            line += f"{p.stderr:>9.4f}" if not r.exact else ""
            print(line)
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

    p = sub.add_parser("equity", help="each hand's share of the pot",
                       description="Exact or Monte Carlo equity of known hands.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="game name, e.g. holdem")
    p.add_argument("hands", nargs="+", help="one hand per player, e.g. AsKs QhQd")
    p.add_argument("--board", default="", help="board so far, e.g. 2c7d9h")
    p.add_argument("--dead", default="", help="cards out of the deck")
    method = p.add_mutually_exclusive_group()
    method.add_argument("--exact", action="store_true", help="enumerate every board")
    method.add_argument("--trials", type=int, help="Monte Carlo boards")
    method.add_argument("--stderr", type=float, help="sample until this standard error")
    p.add_argument("--seed", type=int, help="Monte Carlo seed (same seed, same answer)")
    p.add_argument("--threads", type=int, help="threads (default: all cores)")
    p.add_argument("--by-street", action="store_true", help="equity after each street")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON")
    output.add_argument("--csv", action="store_true", help="print CSV")
    p.set_defaults(run=_cmd_equity)

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
