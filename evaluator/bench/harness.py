"""Running the suite: cross-check each adapter's answers against ours, then time it.

``run_suite`` converts each workload outside the timer, runs every adapter once
and ``check``s its answers (a disagreement is reported with the first differing
hand and that adapter's speed is not counted), then times it ``repeat`` times.
It returns the report whose shape ``report.REPORT_SCHEMA`` describes.
"""
from __future__ import annotations

import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from .adapters import Adapter, Ours
from .suite import Workload

__all__ = ["check", "Measurement", "run_suite", "machine"]


def _dense_ranks(values: Sequence[Any], bigger_is_better: bool) -> np.ndarray:
    """Rank of each value among the distinct values (0 = worst)."""
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=not bigger_is_better)
    ranks = np.empty(len(values), np.int64)
    rank = 0
    for position, i in enumerate(order):
        if position and not (values[i] == values[order[position - 1]]):
            rank += 1
        ranks[i] = rank
    return ranks


def check(workload: Workload, ours: Any, theirs: Any, adapter: Adapter) -> str | None:
    """None when the answers agree; else a message naming the first differing hand."""
    if workload.kind == "equity":
        sampled = "trials" in workload.spot
        tolerance = 5 * 0.5 / math.sqrt(workload.spot["trials"]) if sampled else 1e-9
        for p, (a, b) in enumerate(zip(ours, theirs)):
            if not abs(a - b) <= tolerance:
                return (f"player {p + 1} ({workload.spot['hands'][p]}): equity {b:.6f}, "
                        f"ours {a:.6f}")
        if len(ours) != len(theirs):
            return f"{len(theirs)} equities for {len(ours)} players"
        return None
    n = len(theirs)
    if n == 0:
        return "no values returned"
    mine = _dense_ranks(list(np.asarray(ours)[:n]), True)
    other = _dense_ranks(list(theirs), adapter.bigger_is_better)
    differ = np.flatnonzero(mine != other)
    if not len(differ):
        return None
    # the first hand whose order against some other hand disagrees
    i = int(differ[0])
    mate = next((j for j in range(n) if (mine[j] > mine[i]) != (other[j] > other[i])
                 or (mine[j] == mine[i]) != (other[j] == other[i])), None)
    cards = " ".join(workload.card_names(n)[i])
    detail = f"hand #{i} [{cards}] ranks {other[i]} there, {mine[i]} here"
    if mate is not None:
        detail += f"; against hand #{mate} [{' '.join(workload.card_names(n)[mate])}]"
    return detail


@dataclass
class Measurement:
    adapter: str
    version: str
    status: str                     # "ok", "mismatch", "skipped", "error"
    items: int = 0
    median_s: float = math.nan
    min_s: float = math.nan
    max_s: float = math.nan
    note: str = ""
    # this rate over ours, set by run_suite once both are measured
    ratio: float = field(default=math.nan, repr=False, compare=False)

    @property
    def rate(self) -> float:
        return self.items / self.median_s if self.status == "ok" else math.nan


def _time(function: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def _prepare_and_run(adapter: Adapter, workload: Workload) -> object:
    return adapter.run(workload, adapter.prepare(workload))


def run_suite(suite: list[Workload], adapters: list[Adapter], *, repeat: int = 5,
              log: Callable[[str], object] | None = None) -> dict[str, Any]:
    """Run every workload on every adapter; returns the report (see REPORT_SCHEMA)."""
    ours = next((a for a in adapters if isinstance(a, Ours)), None) or Ours()
    versions: dict[str, str] = {}
    entries: list[dict[str, Any]] = []
    report = {"machine": machine(), "versions": versions, "repeat": repeat,
              "workloads": entries}
    for adapter in [ours] + [a for a in adapters if a is not ours]:
        reason = adapter.available()
        versions[adapter.name] = reason or adapter.version()
    for workload in suite:
        results: list[Measurement] = []
        entry: dict[str, Any] = {"name": workload.name, "description": workload.description,
                                 "unit": workload.unit, "items": workload.items,
                                 "results": results}
        reference = ours.run(workload, ours.prepare(workload))        # also warms the JIT
        times = _time(partial(_prepare_and_run, ours, workload), repeat)
        base = Measurement(ours.name, versions[ours.name], "ok", workload.items,
                           statistics.median(times), min(times), max(times))
        results.append(base)
        for adapter in adapters:
            if adapter is ours:
                continue
            version = versions[adapter.name]
            unavailable = adapter.available()
            if unavailable:
                results.append(Measurement(adapter.name, "", "skipped", note=unavailable))
                continue
            if workload.name not in adapter.workloads:
                continue
            try:
                adapter.items_done = None
                prepared = adapter.prepare(workload)
                answer = adapter.run(workload, prepared)
                problem = check(workload, reference, answer, adapter)
                # a sampler that stops at a standard error says how many deals it made
                items = (len(answer) if workload.kind == "eval"
                         else getattr(adapter, "items_done", None) or workload.items)
                if problem:
                    results.append(Measurement(adapter.name, version, "mismatch", items,
                                               note=problem))
                    if log:
                        log(f"[bold red]{adapter.name} disagrees on {workload.name}: "
                            f"{problem}[/bold red]")
                    continue
                times = _time(partial(adapter.run, workload, prepared), repeat)
                if workload.kind == "equity":
                    items = getattr(adapter, "items_done", None) or items
                results.append(Measurement(adapter.name, version, "ok", items,
                                           statistics.median(times), min(times), max(times)))
            except Exception as error:          # noqa: BLE001 - a peer's failure is reported
                results.append(Measurement(adapter.name, version, "error",
                                           note=f"{type(error).__name__}: {error}"))
        for m in results:
            m.ratio = m.rate / base.rate if m.status == "ok" else math.nan
        entry["results"] = [_as_dict(m) for m in results]
        entries.append(entry)
        if log:
            log(f"done: {workload.name}")
    return report


def _as_dict(m: Measurement) -> dict[str, Any]:
    def clean(x: object) -> object:
        return None if isinstance(x, float) and math.isnan(x) else x
    return {"adapter": m.adapter, "version": m.version, "status": m.status,
            "items": m.items, "median_s": clean(m.median_s), "min_s": clean(m.min_s),
            "max_s": clean(m.max_s), "rate": clean(m.rate),
            "ratio_to_ours": clean(m.ratio), "note": m.note}


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next(line.split(":", 1)[1].strip() for line in handle
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import numba
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "numpy": np.__version__,
            "numba": numba.__version__}
