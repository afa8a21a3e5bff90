"""Every game x every call: its time, or its refusal.

    python benchmarks/capabilities.py                       # every game, 10 s a call
    python benchmarks/capabilities.py --games omaha,tahoe --limit 30 --markdown cap.md
    python benchmarks/capabilities.py --games omaha5 --calls "combo_equity flop" --json re.json
    python benchmarks/capabilities.py --from-json all.json,re.json --markdown cap.md --json new.json

One typical spot a game: the game's own top 10% against its top 40% (``N%`` ranges by the
shipped ranking), the flop ``2c7d9h``, turn ``Ks``, river ``Ad`` (short deck ``6c7d9h``;
"The" ``2c7d``, ``9h``, ``Ks``: its board has four cards).  Thirteen calls (Teen Patti,
with no board, five).  Each call runs in a process of its own, twice when the first is
within the limit, and the second (warm: kernels compiled, tables loaded) is reported; a
call past the limit is killed and reported as such.  A refusal is the package's one-line
error.  A refusal, or a cell past 10 s, is a gap.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CALLS = {  # name: the call, with R10 / R40 the ranges, F / T / V the flop, turn, river
    "MC pre-flop": "ev.equity(G, [R10, R40], trials=200_000, seed=1)",
    "exact flop": "ev.equity(G, [R10, R40], F, exact=True)",
    "exact river": "ev.equity(G, [R10, R40], V, exact=True)",
    "3-way exact flop": "ev.equity(G, [R10, R40, R40], F, exact=True)",
    "combo_equity river": "ev.combo_equity(G, R40, V)",
    "combo_equity turn": "ev.combo_equity(G, R40, T)",
    "combo_equity flop": "ev.combo_equity(G, R40, F)",
    "showdown_values": "ev.showdown_values(G, ev.Range(R40, G).vector(), V)",
    "runout_study": "ev.runout_study(G, [R10, R40], F)",
    "equity_distribution": "ev.equity_distribution(G, R10, R40, F)",
    "range_breakdown": "ev.range_breakdown(G, R10, F)",
    "flop_study sampled": "ev.flop_study(G, [R10, R40], trials=1000, seed=1)",
    "flop_study exact": "ev.flop_study(G, [R10, R40])",
}
NO_BOARD = {   # Teen Patti's calls
    "MC": "ev.equity(G, [R10, R40], trials=200_000, seed=1)",
    "exact": "ev.equity(G, [R10, R40], exact=True)",
    "3-way exact": "ev.equity(G, [R10, R40, R40], exact=True)",
    "combo_equity": "ev.combo_equity(G, R40, '')",
    "showdown_values": "ev.showdown_values(G, ev.Range(R40, G).vector(), '')",
    "equity_distribution": "ev.equity_distribution(G, R10, R40)",
}

RUNNER = """
import json, sys, time
import evaluator as ev
G, R10, R40, F, T, V, limit = {args!r}
def run():
    return {call}
try:
    start = time.perf_counter(); run(); first = time.perf_counter() - start
    if first < limit:              # within the limit: once more, warm (tables loaded)
        start = time.perf_counter(); run(); first = min(first, time.perf_counter() - start)
    print(json.dumps({{"status": "ok", "seconds": first}}))
except ev.EvaluatorError as error:
    print(json.dumps({{"status": "refused", "why": str(error)}}))
"""


def boards(game: str) -> tuple[str, str, str]:
    if game == "the":
        return "2c7d", "2c7d9h", "2c7d9hKs"
    if game == "short_deck":
        return "6c7d9h", "6c7d9hKs", "6c7d9hKsAd"
    if game == "teen_patti":
        return "", "", ""
    return "2c7d9h", "2c7d9hKs", "2c7d9hKsAd"


def measure(game: str, call: str, limit: float) -> dict:
    flop, turn, river = boards(game)
    code = RUNNER.format(args=(game, "10%", "40%", flop, turn, river, limit), call=call)
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=2 * limit + 15, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "seconds": time.perf_counter() - start}
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        return {"status": "error", "why": (done.stderr.strip().splitlines() or ["?"])[-1]}
    out = json.loads(lines[-1])
    if out["status"] == "ok" and out["seconds"] > limit:
        out["status"] = "slow"
    return out


def cell(result: dict) -> str:
    if result["status"] in ("ok", "slow"):
        s = result["seconds"]
        text = f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"
        return text if result["status"] == "ok" else f"**{text}**"
    if result["status"] == "timeout":
        return "**past the limit**"
    return f"**{result['status']}**"


def render(results: dict[str, dict[str, dict]], limit: float) -> str:
    """The Markdown table of every game's calls, then every refusal's reason.  A call
    measured under a longer limit (``--limit 25``, tabled again by ``--from-json``) is
    judged by this one: past it, it is a gap."""
    results = {game: {name: ({**r, "status": "slow"} if r["status"] == "ok"
                             and r["seconds"] > limit else r) for name, r in row.items()}
               for game, row in results.items()}
    answered = sum(r["status"] == "ok" for g in results.values() for r in g.values())
    total = sum(len(g) for g in results.values())
    lines = [f"{answered} of {total} calls answered within {limit:g} s "
             f"({time.strftime('%Y-%m-%d')}, `python benchmarks/capabilities.py`).", "",
             "| game | " + " | ".join(CALLS) + " |", "|---" * (len(CALLS) + 1) + "|"]
    for game, row in results.items():
        if game == "teen_patti":
            named = {"MC pre-flop": "MC", "exact river": "exact",
                     "3-way exact flop": "3-way exact", "combo_equity river": "combo_equity",
                     "showdown_values": "showdown_values",
                     "equity_distribution": "equity_distribution"}
            cells = [(cell(row[named[c]]) if named[c] in row else "-") if c in named
                     else "(no board)" for c in CALLS]
        else:
            cells = [cell(row[c]) if c in row else "-" for c in CALLS]   # "-": not run
        lines.append(f"| {game} | " + " | ".join(cells) + " |")
    refusals = [f"- {game}, {name}: {r['why']}" for game, row in results.items()
                for name, r in row.items() if r["status"] in ("refused", "error")]
    text = "\n".join(lines + ([""] + ["Refusals:"] + refusals if refusals else [])) + "\n"
    return text


def main(argv: list[str] | None = None) -> int:
    import evaluator
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", help="comma-separated games (default: every game)")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds a call (10)")
    parser.add_argument("--json", help="write every result as JSON to this file")
    parser.add_argument("--markdown", help="write the table as Markdown to this file")
    parser.add_argument("--calls", help="comma-separated calls (default: every call; "
                        "Teen Patti's by their own names)")
    parser.add_argument("--from-json", help="comma-separated --json files to table again "
                        "instead of running (a later file's cells replace an earlier's)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace a --json or --markdown file that exists")
    args = parser.parse_args(argv)
    from evaluator.errors import EvaluatorError
    from evaluator.export import check_fresh, check_output
    try:                  # before any work: an earlier run's table is not lost to this one
        for option, path, suffixes in (("--json", args.json, (".json",)),
                                       ("--markdown", args.markdown, (".md", ".markdown"))):
            if path:
                check_output(path, suffixes, option)
                check_fresh(path, option, overwrite=args.overwrite, resumable=False,
                            words=("--resume", "--overwrite"))
    except EvaluatorError as error:
        parser.error(str(error))
    if args.from_json:
        merged: dict[str, dict[str, dict]] = {}
        for path in args.from_json.split(","):
            for game, cells in json.loads(Path(path).read_text()).items():
                merged.setdefault(game, {}).update(cells)
        order = [g for g in evaluator.GAMES if g in merged]
        text = render({g: merged[g] for g in order}, args.limit)
        print(text)
        if args.markdown:
            Path(args.markdown).write_text(text)
        if args.json:                       # the merged cells, for the next merge
            Path(args.json).write_text(json.dumps({g: merged[g] for g in order}, indent=1))
        return 0
    games = args.games.split(",") if args.games else list(evaluator.GAMES)
    chosen = args.calls.split(",") if args.calls else None
    results: dict[str, dict[str, dict]] = {}
    for game in games:
        calls = NO_BOARD if game == "teen_patti" else CALLS
        unknown = [c for c in chosen or () if c not in CALLS and c not in NO_BOARD]
        if unknown:
            parser.error(f"unknown call {unknown[0]!r}: the calls are "
                         + ", ".join(list(CALLS) + [c for c in NO_BOARD if c not in CALLS]))
        results[game] = {}
        for name, call in calls.items():
            if chosen is not None and name not in chosen:
                continue
            results[game][name] = r = measure(game, call, args.limit)
            print(f"{game:16s} {name:22s} {cell(r)}" + (f"  ({r['why']})" if "why" in r
                                                         else ""), flush=True)
    text = render(results, args.limit)
    print()
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
