"""``evaluator bench``: pick the workloads and adapters, run them, write the outputs."""
from __future__ import annotations

import argparse
import json
import sys

from ..errors import EvaluatorError
from .adapters import ADAPTERS, load_plugin
from .harness import run_suite
from .report import chart, markdown, print_report
from .suite import workloads

__all__ = ["main"]


def main(args: argparse.Namespace) -> int:
    """``evaluator bench``; 1 when an adapter gives a wrong answer."""
    from rich.console import Console
    console = Console(highlight=False, stderr=True)
    suite = workloads(quick=args.quick)
    if args.only:
        wanted = {w.strip() for w in args.only.split(",")}
        unknown = wanted - {w.name for w in suite}
        if unknown:
            raise EvaluatorError(f"unknown workload {sorted(unknown)[0]!r} (workloads: "
                                 f"{', '.join(w.name for w in suite)})", sorted(unknown)[0])
        suite = [w for w in suite if w.name in wanted]
    adapters = [cls() for cls in ADAPTERS]
    if args.adapters:
        wanted = {a.strip() for a in args.adapters.split(",")} | {"evaluator"}
        adapters = [a for a in adapters if a.name in wanted]
    adapters += [load_plugin(spec) for spec in args.plugin]
    report = run_suite(suite, adapters, repeat=max(1, args.repeat),
                       log=lambda text: console.print(text))
    print_report(report)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=2)
        console.print(f"wrote {args.json}")
    if args.markdown:
        with open(args.markdown, "w") as handle:
            handle.write(markdown(report))
        console.print(f"wrote {args.markdown}")
    if args.chart:
        chart(report, args.chart)
        console.print(f"wrote {args.chart}")
    mismatches = [(w["name"], r["adapter"]) for w in report["workloads"]
                  for r in w["results"] if r["status"] == "mismatch"]
    if mismatches:
        console.print(f"[bold red]{len(mismatches)} wrong answer(s): "
                      + ", ".join(f"{a} on {w}" for w, a in mismatches) + "[/bold red]")
    sys.stdout.flush()
    return 1 if mismatches else 0
