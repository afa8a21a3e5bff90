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


def _names(text: str, option: str, what: str, known: list[str]) -> set[str]:
    """The comma-separated names of ``--only`` / ``--adapters``: an empty list, an empty
    name or an unknown one is an error naming it and listing the known ones."""
    listed = ", ".join(known)
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        raise EvaluatorError(f"{option} names no {what} (known: {listed})", text)
    if "" in names:
        raise EvaluatorError(f"{option} {text!r} has an empty {what} name (known: {listed})",
                             text)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise EvaluatorError(f"unknown {what} {unknown[0]!r} (known: {listed})", unknown[0])
    return set(names)


def main(args: argparse.Namespace) -> int:
    """``evaluator bench``; 1 when an adapter gives a wrong answer.

    ``--only`` and ``--adapters`` are checked before any work: an empty value, an
    empty name in the list or an unknown name is an ``EvaluatorError`` (the command
    line prints it and exits 2), never a silent run of everything or of ours alone.
    """
    from rich.console import Console
    console = Console(highlight=False, stderr=True)
    only = adapter_names = None
    if args.only is not None:                   # "" is a mistake, not "everything"
        only = _names(args.only, "--only", "workload",
                      [w.name for w in workloads(quick=True)])      # same names, cheap
    if args.adapters is not None:
        adapter_names = _names(args.adapters, "--adapters", "adapter",
                               [cls.name for cls in ADAPTERS])
    suite = workloads(quick=args.quick)
    if only is not None:
        suite = [w for w in suite if w.name in only]
    adapters = [cls() for cls in ADAPTERS]
    if adapter_names is not None:
        wanted = adapter_names | {"evaluator"}          # ours: the answers to check against
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
