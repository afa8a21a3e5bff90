"""A benchmark harness: any evaluator against ours, on identical, seeded work.

    evaluator bench --quick
    evaluator bench --json bench.json --chart bench.png

Every workload is generated once from a fixed seed.  Each adapter converts
the inputs to its own types outside the timer, runs once to have its answers
checked against ours (a disagreement is reported with the first differing
hand and that adapter's speed is not counted), then is timed ``repeat``
times; the table gives the median with min and max, and the ratio of the
adapter's rate to ours.

Adding an evaluator takes a small class (see ``Adapter``)::

    class Mine(Adapter):
        name = "mine"
        bigger_is_better = False                 # like Cactus Kev's ranks
        workloads = {"eval5", "eval7"}

        def version(self):
            return mine.__version__

        def prepare(self, workload):             # not timed
            return [[mine.Card(c) for c in row] for row in workload.card_names()]

        def run(self, workload, prepared):       # timed; returns one value per hand
            return [mine.rank(cards) for cards in prepared]

and ``evaluator bench --plugin mymodule:Mine``.  Values may be any totally
ordered objects; only their order is compared.

The files, each importing only those listed above it (``report`` needs none):

    suite.py      ``Workload`` and ``workloads()``: the fixed, seeded work
    adapters.py   ``Adapter``, ``Ours`` and one class per peer; ``ADAPTERS``;
                  ``load_plugin`` for ``--plugin module:Class``
    harness.py    ``run_suite``: ``check`` each answer against ours, then time it
    report.py     ``REPORT_SCHEMA``, ``validate_report``; ``print_report``,
                  ``markdown`` and ``chart`` (the JSON output is the report itself)
    cli.py        ``main(args)``: ``evaluator bench``
"""
from .adapters import (
    ADAPTERS,
    Adapter,
    Eval7,
    Ours,
    PhEvaluator,
    PkrBot,
    PokerEquity,
    PokerFast,
    PokerKit,
    TextAdapter,
    Treys,
    load_plugin,
)
from .cli import main
from .harness import Measurement, check, machine, run_suite
from .report import REPORT_SCHEMA, chart, markdown, print_report, validate_report
from .suite import Workload, workloads

__all__ = [
    "Workload", "workloads",
    "Adapter", "ADAPTERS", "load_plugin", "Ours", "PokerFast", "PkrBot", "PhEvaluator",
    "Eval7", "Treys", "PokerEquity", "PokerKit", "TextAdapter",
    "run_suite", "check", "Measurement", "machine",
    "REPORT_SCHEMA", "validate_report", "print_report", "markdown", "chart",
    "main",
]
