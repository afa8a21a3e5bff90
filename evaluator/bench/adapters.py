"""How the harness drives each evaluator: the ``Adapter`` base, one class per peer.

``Ours`` is this package and the reference every answer is checked against;
``ADAPTERS`` lists the built-in ones in the order they run.  ``load_plugin``
turns ``--plugin module:Class`` into an adapter.  Peers are imported only
inside their methods, so a missing one costs nothing until it is asked for.
"""
from __future__ import annotations

import importlib
import math
from typing import Any

import numpy as np

from ..cards import format_cards
from ..errors import EvaluatorError
from ..games import game
from .suite import Workload, workloads

__all__ = ["Adapter", "Ours", "Treys", "PhEvaluator", "Eval7", "PkrBot", "PokerKit",
           "TextAdapter", "PokerEquity", "PokerFast", "ADAPTERS", "load_plugin"]


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

    def prepare(self, workload: Workload) -> Any:
        return workload

    def run(self, workload: Workload, prepared: Any) -> Any:
        raise NotImplementedError


class Ours(Adapter):
    name = "evaluator"
    workloads = {w.name for w in workloads(quick=True)}

    def version(self) -> str:
        from .. import __version__
        return __version__

    def run(self, workload: Workload, prepared: Any) -> Any:
        if workload.kind == "eval":
            from ..evaluate import evaluate_batch
            cards = workload.cards
            assert cards is not None            # an eval workload has its hands
            high = evaluate_batch(workload.game, cards, validate=False, threads=1)
            if game(workload.game).hilo:
                low = evaluate_batch(workload.game, cards, low=True, validate=False,
                                     threads=1)
                return high.astype(np.int64) * 65536 + low
            return high
        from ..engine import equity
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
        if workload.two_plus_three:        # board first, then the four hole cards
            rows = [r[4:] + r[:4] for r in rows]
        return rows

    def run(self, workload, prepared):
        if workload.two_plus_three:
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
        kind = OmahaHoldemHand if workload.two_plus_three else StandardHighHand
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
                 "hu_monte_carlo", "plo_exact", "short_deck_exact", "big_o_exact",
                 "big_o_flop_exact", "big_o_monte_carlo"}
    VARIANTS = {"holdem": "holdem", "omaha": "omaha", "short_deck": "short_deck",
                "omaha5_8": "omaha_five_hi_lo"}

    def run(self, workload, prepared):
        import poker_equity as pe
        if workload.kind == "eval":
            return pe.score_batch("high", prepared)
        variant = self.VARIANTS[workload.game]
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

