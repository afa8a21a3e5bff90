"""The report: its shape (``REPORT_SCHEMA``, ``validate_report``) and its outputs.

``print_report`` draws the terminal table, ``markdown`` the same table for a
README and ``chart`` a bar chart of rates (matplotlib, through ``evaluator.plots``,
imported only when a chart is asked for).  The JSON output is the report itself.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["REPORT_SCHEMA", "validate_report", "print_report", "markdown", "chart"]


# --- the report's shape ---------------------------------------------------------------

REPORT_SCHEMA = {
    "machine": {"cpu": str, "cores": int, "python": str, "platform": str, "numpy": str,
                "numba": str},
    "versions": {str: str},
    "repeat": int,
    "workloads": [{"name": str, "description": str, "unit": str, "items": int,
                   "results": [{"adapter": str, "version": str, "status": str, "items": int,
                                "median_s": (float, type(None)), "min_s": (float, type(None)),
                                "max_s": (float, type(None)), "rate": (float, type(None)),
                                "ratio_to_ours": (float, type(None)), "note": str}]}],
}


def validate_report(report: Any, schema: Any = REPORT_SCHEMA, where: str = "report") -> None:
    """Raise ValueError where ``report`` does not have the shape of REPORT_SCHEMA."""
    if isinstance(schema, dict):
        if not isinstance(report, dict):
            raise ValueError(f"{where} is not an object")
        if len(schema) == 1 and next(iter(schema)) is str:     # a mapping of names
            for key, value in report.items():
                validate_report(key, str, f"{where} key")
                validate_report(value, schema[str], f"{where}[{key!r}]")
            return
        for key, sub in schema.items():
            if key not in report:
                raise ValueError(f"{where} lacks {key!r}")
            validate_report(report[key], sub, f"{where}.{key}")
        return
    if isinstance(schema, list):
        if not isinstance(report, list):
            raise ValueError(f"{where} is not a list")
        for k, item in enumerate(report):
            validate_report(item, schema[0], f"{where}[{k}]")
        return
    kinds = schema if isinstance(schema, tuple) else (schema,)
    if float in kinds and isinstance(report, int) and not isinstance(report, bool):
        return
    if not isinstance(report, kinds):
        raise ValueError(f"{where} is {type(report).__name__}, expected "
                         + " or ".join(k.__name__ for k in kinds))



# --- output -------------------------------------------------------------------------

def _rate_text(rate: float | None, unit: str) -> str:
    if rate is None:
        return ""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rate >= scale:
            return f"{rate / scale:.1f} {suffix}{unit}/s"
    return f"{rate:.1f} {unit}/s"


def _ratio_text(ratio: float | None, adapter: str) -> str:
    """A peer's speed beside ours in words: ``44,000x slower``, ``1.3x faster``; ours is
    ``(ours)``."""
    if ratio is None:
        return ""
    if adapter == "evaluator":
        return "(ours)"
    if ratio <= 0:
        return ""
    if ratio < 1:
        slower = 1 / ratio
        return f"{slower:,.0f}x slower" if slower >= 100 else f"{slower:.2g}x slower"
    return f"{ratio:,.0f}x faster" if ratio >= 100 else f"{ratio:.2g}x faster"


def cross_check_line(report: dict[str, Any]) -> str:
    """One line saying whether every peer that ran gave our answers."""
    ran = [(w["name"], r) for w in report["workloads"] for r in w["results"]
           if r["status"] in ("ok", "mismatch") and r["adapter"] != "evaluator"]
    wrong = [f"{r['adapter']} on {name}" for name, r in ran if r["status"] == "mismatch"]
    if wrong:
        return f"cross-check FAILED: different answers from {', '.join(wrong)}"
    if not ran:
        return ("cross-check: no peer installed to compare with (pip install eval7, "
                "phevaluator, pokerkit ... and run again)")
    peers = sorted({r["adapter"] for _, r in ran})
    return (f"cross-check passed: {', '.join(peers)} gave the same answers as ours on every "
            f"hand of {len({name for name, _ in ran})} workloads")


def _rows(report: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    """(workload, adapter with version, median, rate, ratio, note, status) per measurement
    that ran (peers not installed are listed by ``_missing`` instead)."""
    for w in report["workloads"]:
        shown = [r for r in w["results"] if r["status"] != "skipped"]
        for k, r in enumerate(shown):
            median = (f"{r['median_s'] * 1e3:.2f} ms ({r['min_s'] * 1e3:.2f}-"
                      f"{r['max_s'] * 1e3:.2f})" if r["median_s"] is not None else "")
            ratio = _ratio_text(r["ratio_to_ours"], r["adapter"])
            note = r["note"] if r["status"] != "ok" else (
                f"on {r['items']:,} of the {w['items']:,}" if r["items"] < w["items"] else "")
            if r["status"] == "mismatch":
                note = "WRONG ANSWER: " + note
            name = f"{r['adapter']} {r['version']}".strip()
            yield (w["name"] if k == 0 else "", name, median, _rate_text(r["rate"], w["unit"]),
                   ratio, note, r["status"])


def _missing(report: dict[str, Any]) -> str:
    """One line naming the peers that are not installed, or ``""``."""
    names = [name for name, version in report["versions"].items()
             if str(version).startswith("not installed")]
    return f"not installed (skipped): {', '.join(names)}" if names else ""


def print_report(report: dict[str, Any], console: Console | None = None) -> None:
    from rich.console import Console
    from rich.table import Table
    console = console or Console(highlight=False, width=max(120, Console().width))
    m = report["machine"]
    console.print(f"[bold]{m['cpu']}[/bold], {m['cores']} cores, Python {m['python']}, "
                  f"numpy {m['numpy']}, numba {m['numba']}; median (min-max) of "
                  f"{report['repeat']} runs, one thread")
    table = Table()
    columns: tuple[tuple[str, Literal["left", "right"]], ...] = (
        ("workload", "left"), ("adapter", "left"), ("median (min-max)", "right"),
        ("rate", "right"), ("vs ours", "right"), ("note", "left"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    previous = None
    for row in _rows(report):
        if row[0] and previous is not None:
            table.add_section()
        previous = row
        style = {"mismatch": "bold red", "error": "red", "skipped": "dim"}.get(row[-1])
        table.add_row(*row[:-1], style=style)
    console.print(table)
    line = cross_check_line(report)
    console.print(f"[bold red]{line}[/bold red]" if "FAILED" in line else line)
    if _missing(report):
        console.print(f"[dim]{_missing(report)}[/dim]")


def markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown table (for a README)."""
    lines = ["| workload | adapter | median (min-max) | rate | vs ours | note |",
             "|---|---|---|---|---|---|"]
    for row in _rows(report):
        lines.append("| " + " | ".join(row[:-1]) + " |")
    lines += ["", cross_check_line(report)]
    if _missing(report):
        lines += ["", _missing(report)]
    return "\n".join(lines) + "\n"


def chart(report: dict[str, Any], path: str | Path) -> None:
    """Bar chart of each adapter's rate per workload (log scale)."""
    from ..plots import pyplot, save
    plt = pyplot()
    rows = [(w["name"], r["adapter"], r["rate"]) for w in report["workloads"]
            for r in w["results"] if r["rate"]]
    names = list(dict.fromkeys(a for _, a, _ in rows))
    loads = list(dict.fromkeys(w for w, _, _ in rows))
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(loads) * max(2, len(names)) / 2 + 1.5))
    height = 0.8 / len(names)
    for k, name in enumerate(names):
        ys, xs = [], []
        for i, load in enumerate(loads):
            rate = next((r for w, a, r in rows if w == load and a == name), None)
            if rate:
                ys.append(i + k * height)
                xs.append(rate)
        ax.barh(ys, xs, height=height, label=name)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(loads))], loads)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("items per second (log scale; higher is better)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("evaluator vs peers, one thread, identical work")
    ax.grid(axis="x", alpha=0.3)
    try:
        save(fig, path)
    finally:
        plt.close(fig)
