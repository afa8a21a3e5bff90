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
"""
from __future__ import annotations

import importlib
import json
import math
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from .cards import format_cards
from .errors import EvaluatorError

__all__ = ["Workload", "Adapter", "workloads", "ADAPTERS", "run_suite", "validate_report",
           "REPORT_SCHEMA"]


# --- workloads --------------------------------------------------------------------

@dataclass
class Workload:
    """One fixed task.  ``kind`` is ``"eval"`` (``cards``: uint8 (n, hole + board), hole
    cards first) or ``"equity"`` (``spot``: the arguments of ``evaluator.equity``)."""
    name: str
    kind: str
    game: str
    description: str
    items: int                      # hands evaluated, or deals in an equity answer
    unit: str
    hole: int = 0
    cards: np.ndarray | None = None
    spot: dict = field(default_factory=dict)

    def card_names(self, rows: int | None = None) -> list[list[str]]:
        """The hands as lists of card names ('As'), optionally only the first ``rows``."""
        cards = self.cards if rows is None else self.cards[:rows]
        names = np.array(format_cards(np.arange(52)).split())
        return names[cards].tolist()


def _random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52), dtype=np.float32)
    return np.ascontiguousarray(np.argpartition(keys, k, axis=1)[:, :k].astype(np.uint8))


def _sequential(cards: int, k: int) -> np.ndarray:
    import itertools
    return np.array(list(itertools.combinations(range(cards), k)), np.uint8)


def workloads(quick: bool = False) -> list[Workload]:
    """The suite, in the order it runs.  ``quick`` shrinks every size (seconds in all)."""
    n = 20_000 if quick else 1_000_000
    n_omaha = 5_000 if quick else 200_000
    seq = _sequential(16 if quick else 22, 7)
    suite = [
        Workload("eval5", "eval", "holdem", "5-card hands, random order", n, "hands", 2,
                 _random_hands(n, 5, 5)),
        Workload("eval6", "eval", "holdem", "6-card hands, random order", n, "hands", 2,
                 _random_hands(n, 6, 6)),
        Workload("eval7", "eval", "holdem", "7-card hands, random order", n, "hands", 2,
                 _random_hands(n, 7, 7)),
        Workload("eval7_seq", "eval", "holdem",
                 f"every 7-card hand of the first {int(seq.max()) + 1} cards, in order",
                 len(seq), "hands", 2, seq),
        Workload("omaha", "eval", "omaha", "Omaha high, 4 hole + 5 board, random",
                 n_omaha, "hands", 4, _random_hands(n_omaha, 9, 9)),
        Workload("omaha8", "eval", "omaha8", "Omaha hi-lo (high and low), random",
                 n_omaha, "hands", 4, _random_hands(n_omaha, 9, 10)),
        Workload("teen_patti", "eval", "teen_patti", "Teen Patti 3-card hands, random", n,
                 "hands", 3, _random_hands(n, 3, 11)),
        Workload("hu_exact", "equity", "holdem", "AsKs vs QhQd pre-flop, exact", 1_712_304,
                 "boards", spot={"hands": ["AsKs", "QhQd"], "board": "", "exact": True}),
        Workload("3way_exact", "equity", "holdem", "AsKs vs QhQd vs JcTc pre-flop, exact",
                 1_370_754, "boards",
                 spot={"hands": ["AsKs", "QhQd", "JcTc"], "board": "", "exact": True}),
        Workload("hu_monte_carlo", "equity", "holdem", "AsKs vs QhQd, Monte Carlo",
                 200_000 if quick else 2_000_000, "deals",
                 spot={"hands": ["AsKs", "QhQd"], "board": "",
                       "trials": 200_000 if quick else 2_000_000}),
        Workload("range_monte_carlo", "equity", "holdem",
                 "QQ+,AKs vs random pre-flop, Monte Carlo", 200_000 if quick else 2_000_000,
                 "deals", spot={"hands": ["QQ+,AKs", "random"], "board": "",
                                "trials": 200_000 if quick else 2_000_000}),
        Workload("range_vs_random_flop", "equity", "holdem",
                 "QQ+,AKs vs random on 2c4c5h, exact", 23_544_180, "deals",
                 spot={"hands": ["QQ+,AKs", "random"], "board": "2c4c5h", "exact": True}),
        Workload("plo_exact", "equity", "omaha", "PLO AsAhKsKh vs QdQcJdTc pre-flop, exact",
                 1_086_008, "boards",
                 spot={"hands": ["AsAhKsKh", "QdQcJdTc"], "board": "", "exact": True}),
    ]
    return suite


# --- adapters ---------------------------------------------------------------------

class Adapter:
    """How the harness drives one evaluator.

    Attributes: ``name``; ``bigger_is_better`` (the direction of its hand
    values); ``workloads`` (names it can run); ``max_items`` (per workload, a
    cap on hands for slow evaluators: it then runs on that many of the same
    hands).  Methods: ``version()``; ``available()`` (None, or why not);
    ``prepare(workload)`` (untimed conversion); ``run(workload, prepared)``
    (timed: hand values, or for equity workloads each player's equity).  A
    sampler that decides itself how many deals to make sets ``items_done`` in
    ``run``; its rate is then counted from that.
    """
    name = "?"
    items_done: int | None = None
    module = ""
    distribution = ""            # the package's name for its version, when not the module's
    bigger_is_better = True
    workloads: set[str] = set()
    max_items: dict[str, int] = {}

    def available(self) -> str | None:
        if not self.module:
            return None
        try:
            importlib.import_module(self.module)
        except Exception as error:          # noqa: BLE001 - any import failure skips it
            return f"not installed ({type(error).__name__})"
        return None

    def version(self) -> str:
        from importlib.metadata import PackageNotFoundError, version
        if not self.module:
            return ""
        try:
            return version(self.distribution or self.module.split(".")[0].replace("_", "-"))
        except PackageNotFoundError:
            return "?"

    def prepare(self, workload: Workload):
        return workload

    def run(self, workload: Workload, prepared):
        raise NotImplementedError


class Ours(Adapter):
    name = "evaluator"
    workloads = {w.name for w in workloads(quick=True)}

    def version(self) -> str:
        from . import __version__
        return __version__

    def run(self, workload, prepared):
        if workload.kind == "eval":
            from .evaluate import evaluate_batch
            high = evaluate_batch(workload.game, workload.cards, validate=False, threads=1)
            if workload.game == "omaha8":
                low = evaluate_batch(workload.game, workload.cards, low=True, validate=False,
                                     threads=1)
                return high.astype(np.int64) * 65536 + low
            return high
        from .equity import equity
        spot = workload.spot
        result = equity(workload.game, spot["hands"], spot["board"], exact=spot.get("exact"),
                        trials=spot.get("trials"), seed=1, threads=1)
        return [p.equity for p in result.players]


class Treys(Adapter):
    name, module, bigger_is_better = "treys", "treys", False
    workloads = {"eval5", "eval6", "eval7", "eval7_seq"}
    max_items = {"eval5": 100_000, "eval6": 50_000, "eval7": 50_000, "eval7_seq": 50_000}

    def prepare(self, workload):
        from treys import Card, Evaluator
        ids = [Card.new(name) for name in format_cards(np.arange(52)).split()]
        rows = workload.cards[:self.max_items.get(workload.name)].tolist()
        return Evaluator(), [([ids[c] for c in r[:2]], [ids[c] for c in r[2:]]) for r in rows]

    def run(self, workload, prepared):
        evaluator, hands = prepared
        return [evaluator.evaluate(board, hand) for hand, board in hands]


class PhEvaluator(Adapter):
    name, module, bigger_is_better = "phevaluator", "phevaluator.evaluator", False
    distribution = "phevaluator"
    workloads = {"eval5", "eval6", "eval7", "eval7_seq", "omaha"}
    max_items = {"eval5": 300_000, "eval6": 300_000, "eval7": 300_000, "omaha": 100_000}

    def prepare(self, workload):
        rows = workload.cards[:self.max_items.get(workload.name)].tolist()
        if workload.name == "omaha":        # board first, then the four hole cards
            rows = [r[4:] + r[:4] for r in rows]
        return rows

    def run(self, workload, prepared):
        if workload.name == "omaha":
            from phevaluator.evaluator_omaha import evaluate_omaha_cards
            return [evaluate_omaha_cards(*r) for r in prepared]
        from phevaluator.evaluator import evaluate_cards
        return [evaluate_cards(*r) for r in prepared]


class Eval7(Adapter):
    name, module = "eval7", "eval7"
    workloads = {"eval5", "eval6", "eval7", "eval7_seq", "hu_monte_carlo"}
    max_items = {"eval5": 300_000, "eval6": 300_000, "eval7": 300_000}

    def prepare(self, workload):
        import eval7
        cards = [eval7.Card(name) for name in format_cards(np.arange(52)).split()]
        if workload.kind == "equity":
            hero = [eval7.Card(c) for c in ("As", "Ks")]
            return hero, eval7.HandRange("QhQd")
        rows = workload.cards[:self.max_items.get(workload.name)].tolist()
        return [[cards[c] for c in r] for r in rows]

    def run(self, workload, prepared):
        import eval7
        if workload.kind == "equity":
            hero, villain = prepared
            share = eval7.py_hand_vs_range_monte_carlo(hero, villain, [],
                                                        workload.spot["trials"])
            return [share, 1 - share]
        return [eval7.evaluate(r) for r in prepared]


class PkrBot(Adapter):
    name, module = "pkrbot", "pkrbot"
    workloads = {"eval5", "eval6", "eval7", "eval7_seq"}
    max_items = {"eval5": 300_000, "eval6": 300_000, "eval7": 300_000}

    def prepare(self, workload):
        import pkrbot
        cards = [pkrbot.Card(name) for name in format_cards(np.arange(52)).split()]
        rows = workload.cards[:self.max_items.get(workload.name)].tolist()
        return [[cards[c] for c in r] for r in rows]

    def run(self, workload, prepared):
        import pkrbot
        return [pkrbot.evaluate(r) for r in prepared]


class PokerKit(Adapter):
    name, module = "pokerkit", "pokerkit"
    workloads = {"eval5", "eval6", "eval7", "omaha"}
    max_items = {"eval5": 3_000, "eval6": 2_000, "eval7": 2_000, "omaha": 500}

    def prepare(self, workload):
        from pokerkit import Card
        names = workload.card_names(self.max_items.get(workload.name))
        hole = workload.hole
        return [(list(Card.parse("".join(r[:hole]))), list(Card.parse("".join(r[hole:]))))
                for r in names]

    def run(self, workload, prepared):
        from pokerkit import OmahaHoldemHand, StandardHighHand
        kind = OmahaHoldemHand if workload.name == "omaha" else StandardHighHand
        return [kind.from_game(hole, board) for hole, board in prepared]


class TextAdapter(Adapter):
    """Peers that take hands as card text ('AsKs...') and equity spots as text."""

    def prepare(self, workload):
        if workload.kind == "eval":
            return ["".join(r) for r in workload.card_names()]
        return workload.spot


class PokerEquity(TextAdapter):
    name, module, bigger_is_better = "poker-equity", "poker_equity", False
    workloads = {"eval5", "eval6", "eval7", "eval7_seq", "hu_exact", "3way_exact",
                 "hu_monte_carlo", "plo_exact"}

    def run(self, workload, prepared):
        import poker_equity as pe
        if workload.kind == "eval":
            return pe.score_batch("high", prepared)
        variant = {"holdem": "holdem", "omaha": "omaha"}[workload.game]
        if "trials" in prepared:
            result = pe.chunk_from_text(variant, prepared["hands"], prepared["board"],
                                        samples=prepared["trials"], seed=1, threads=1)
        else:
            result = pe.exact_from_text(variant, prepared["hands"], prepared["board"])
            if result is None:
                raise EvaluatorError("poker-equity declined to enumerate", self.name)
        return [p["equity"] for p in result["players"]]


class PokerFast(TextAdapter):
    """pokerfast ships OMPEval (C++) behind ctypes: its batch evaluator, exact equity and
    Monte Carlo."""
    name, module, distribution = "pokerfast", "pokerfast.equity", "pokerfast"
    workloads = {"eval5", "eval6", "eval7", "eval7_seq", "hu_exact", "3way_exact",
                 "range_monte_carlo", "range_vs_random_flop"}

    def available(self):
        reason = super().available()
        if reason:
            return reason
        from pokerfast import equity
        return None if equity.available() else "its OMPEval library is missing"


    def run(self, workload, prepared):
        from pokerfast import equity
        if workload.kind == "eval":
            return equity.evaluate(prepared)
        if "trials" in prepared:
            return self._monte_carlo(prepared)
        return equity.equity(prepared["hands"], board=prepared["board"], exact=True,
                             threads=1)

    def _monte_carlo(self, spot):
        """OMPEval samples until a standard error, not for a number of deals: ask for
        about the error our deals give (equity near 0.8: 0.4 / sqrt(trials)) and count
        the deals it made (its library reports them; pokerfast's wrapper drops them)."""
        import ctypes

        from pokerfast import equity
        lib = equity._load()
        hands = spot["hands"]
        texts = (ctypes.c_char_p * len(hands))(*[h.encode("ascii") for h in hands])
        out = (ctypes.c_double * len(hands))()
        deals = ctypes.c_uint64()
        rc = lib.pf_equity(texts, len(hands), equity._cards(spot["board"], "board"),
                           equity._cards("", "dead"), 0, 0.4 / math.sqrt(spot["trials"]), 1,
                           0.0, out, ctypes.byref(deals))
        equity._check(rc, "equity")
        self.items_done = deals.value
        return list(out)


ADAPTERS: list[type[Adapter]] = [Ours, PokerFast, PkrBot, PhEvaluator, Eval7, Treys,
                                 PokerEquity, PokerKit]


# --- checking and timing ------------------------------------------------------------

def _dense_ranks(values, bigger_is_better: bool) -> np.ndarray:
    """Rank of each value among the distinct values (0 = worst)."""
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=not bigger_is_better)
    ranks = np.empty(len(values), np.int64)
    rank = 0
    for position, i in enumerate(order):
        if position and not (values[i] == values[order[position - 1]]):
            rank += 1
        ranks[i] = rank
    return ranks


def check(workload: Workload, ours, theirs, adapter: Adapter) -> str | None:
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

    @property
    def rate(self) -> float:
        return self.items / self.median_s if self.status == "ok" else math.nan


def _time(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def run_suite(suite: list[Workload], adapters: list[Adapter], *, repeat: int = 5,
              log=None) -> dict:
    """Run every workload on every adapter; returns the report (see REPORT_SCHEMA)."""
    ours = next((a for a in adapters if isinstance(a, Ours)), None) or Ours()
    report = {"machine": machine(), "versions": {}, "repeat": repeat, "workloads": []}
    for adapter in [ours] + [a for a in adapters if a is not ours]:
        reason = adapter.available()
        report["versions"][adapter.name] = reason or adapter.version()
    for workload in suite:
        entry = {"name": workload.name, "description": workload.description,
                 "unit": workload.unit, "items": workload.items, "results": []}
        reference = ours.run(workload, ours.prepare(workload))        # also warms the JIT
        times = _time(lambda w=workload: ours.run(w, ours.prepare(w)), repeat)
        base = Measurement(ours.name, report["versions"][ours.name], "ok", workload.items,
                           statistics.median(times), min(times), max(times))
        entry["results"].append(base)
        for adapter in adapters:
            if adapter is ours:
                continue
            version = report["versions"][adapter.name]
            if adapter.available():
                entry["results"].append(Measurement(adapter.name, "", "skipped",
                                                    note=adapter.available()))
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
                    entry["results"].append(Measurement(adapter.name, version, "mismatch",
                                                        items, note=problem))
                    if log:
                        log(f"[bold red]{adapter.name} disagrees on {workload.name}: "
                            f"{problem}[/bold red]")
                    continue
                times = _time(lambda a=adapter, w=workload, p=prepared: a.run(w, p), repeat)
                if workload.kind == "equity":
                    items = getattr(adapter, "items_done", None) or items
                entry["results"].append(Measurement(adapter.name, version, "ok", items,
                                                    statistics.median(times), min(times),
                                                    max(times)))
            except Exception as error:          # noqa: BLE001 - a peer's failure is reported
                entry["results"].append(Measurement(adapter.name, version, "error",
                                                    note=f"{type(error).__name__}: {error}"))
        for m in entry["results"]:
            m.ratio = m.rate / base.rate if m.status == "ok" else math.nan
        entry["results"] = [_as_dict(m) for m in entry["results"]]
        report["workloads"].append(entry)
        if log:
            log(f"done: {workload.name}")
    return report


def _as_dict(m: Measurement) -> dict:
    def clean(x):
        return None if isinstance(x, float) and math.isnan(x) else x
    return {"adapter": m.adapter, "version": m.version, "status": m.status,
            "items": m.items, "median_s": clean(m.median_s), "min_s": clean(m.min_s),
            "max_s": clean(m.max_s), "rate": clean(m.rate),
            "ratio_to_ours": clean(getattr(m, "ratio", math.nan)), "note": m.note}


def machine() -> dict:
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


def validate_report(report, schema=REPORT_SCHEMA, where: str = "report") -> None:
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


def _rows(report: dict):
    """(workload, adapter with version, median, rate, ratio, note, status) per measurement
    that ran (peers not installed are listed by ``_missing`` instead)."""
    for w in report["workloads"]:
        shown = [r for r in w["results"] if r["status"] != "skipped"]
        for k, r in enumerate(shown):
            median = (f"{r['median_s'] * 1e3:.2f} ms ({r['min_s'] * 1e3:.2f}-"
                      f"{r['max_s'] * 1e3:.2f})" if r["median_s"] is not None else "")
            ratio = f"{r['ratio_to_ours']:.3g}x" if r["ratio_to_ours"] is not None else ""
            note = r["note"] if r["status"] != "ok" else (
                f"on {r['items']:,} of the {w['items']:,}" if r["items"] < w["items"] else "")
            if r["status"] == "mismatch":
                note = "WRONG ANSWER: " + note
            name = f"{r['adapter']} {r['version']}".strip()
            yield (w["name"] if k == 0 else "", name, median, _rate_text(r["rate"], w["unit"]),
                   ratio, note, r["status"])


def _missing(report: dict) -> str:
    """One line naming the peers that are not installed, or ``""``."""
    names = [name for name, version in report["versions"].items()
             if str(version).startswith("not installed")]
    return f"not installed (skipped): {', '.join(names)}" if names else ""


def print_report(report: dict, console=None) -> None:
    from rich.console import Console
    from rich.table import Table
    console = console or Console(highlight=False, width=max(120, Console().width))
    m = report["machine"]
    console.print(f"[bold]{m['cpu']}[/bold], {m['cores']} cores, Python {m['python']}, "
                  f"numpy {m['numpy']}, numba {m['numba']}; median (min-max) of "
                  f"{report['repeat']} runs, one thread")
    table = Table()
    for name, justify in (("workload", "left"), ("adapter", "left"), ("median (min-max)",
                          "right"), ("rate", "right"), ("vs ours", "right"), ("note", "left")):
        table.add_column(name, justify=justify)
    previous = None
    for row in _rows(report):
        if row[0] and previous is not None:
            table.add_section()
        previous = row
        style = {"mismatch": "bold red", "error": "red", "skipped": "dim"}.get(row[-1])
        table.add_row(*row[:-1], style=style)
    console.print(table)
    if _missing(report):
        console.print(f"[dim]{_missing(report)}[/dim]")


def markdown(report: dict) -> str:
    """The report as a Markdown table (for a README)."""
    lines = ["| workload | adapter | median (min-max) | rate | vs ours | note |",
             "|---|---|---|---|---|---|"]
    for row in _rows(report):
        lines.append("| " + " | ".join(row[:-1]) + " |")
    if _missing(report):
        lines += ["", _missing(report)]
    return "\n".join(lines) + "\n"


def chart(report: dict, path) -> None:
    """Bar chart of each adapter's rate per workload (log scale)."""
    from .plots import _pyplot, _save
    plt = _pyplot()
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
        _save(fig, path)
    finally:
        plt.close(fig)


def load_plugin(spec: str) -> Adapter:
    """``module:object`` -> an adapter instance (an ``Adapter`` class is instantiated).

    Each way it can fail is one error naming the plugin: the module cannot be
    imported, it has no such object, or the object is not an adapter.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise EvaluatorError(f"plugin {spec!r} must look like 'module:Adapter'", spec)
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise EvaluatorError(f"cannot load plugin {spec!r}: no module {module_name!r} "
                             f"({error})", spec) from None
    try:
        target = getattr(module, attribute)
    except AttributeError:
        raise EvaluatorError(f"cannot load plugin {spec!r}: module {module_name!r} has no "
                             f"{attribute!r}", spec) from None
    if isinstance(target, type) and issubclass(target, Adapter):
        target = target()
    if not isinstance(target, Adapter):
        raise EvaluatorError(f"plugin {spec!r} is a {type(target).__name__}, not an Adapter "
                             "subclass or instance (see evaluator.bench.Adapter)", spec)
    return target


def main(args) -> int:
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
