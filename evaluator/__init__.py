"""Fast poker hand evaluation and equity, compiled with Numba.

>>> import evaluator
>>> str(evaluator.evaluate("holdem", "AsKs", "QsJsTs"))
'royal flush'

``import evaluator`` is cheap: tables load and kernels compile on first use.

Architecture
------------
Layers, lowest first; each imports only from those below it: the base modules (cards,
games, the table loader, the JIT settings), ``kernels/`` (pure Numba functions over uint8
arrays), ``families/`` (what each way of making hands decides: its kernels, tables, cost
model and vectors), the hands (``evaluate``, ``ranges``), ``engine/`` (exact and Monte
Carlo equity), the studies, and the applications (batch, command line, tables engine).
``tests/test_layers.py`` holds the one list of modules by layer and checks it, with no
cycles and no game rule compared outside ``families/``.

Where each game is computed: ``families/best5.py`` (hold'em, short deck, Pineapple, Crazy
Pineapple, "The"), ``families/omaha.py`` (Omaha 4/5/6, hi-lo, Courchevel),
``families/tahoe.py`` and ``families/teen_patti.py`` name their kernels.
"""
import sys
import types
from typing import TYPE_CHECKING

from .cards import CardError, card_id, card_str, format_cards, parse_cards
from .errors import (
    ArgumentTypeError,
    BatchInterrupted,
    EvaluatorError,
    GameError,
    HandError,
    NoDeal,
    QueryFailed,
    RangeError,
    TableError,
)
from .games import GAMES, Game, game

# the rest loads on first use (PEP 562): a command that needs only the equity engine does
# not pay for the batch, the studies and their imports (about 0.2 s a command)
_LAZY = {
    "batch_equity": "batch", "range_breakdown": "studies", "RangeBreakdown": "studies",
    "EquityResult": "engine", "PlayerEquity": "engine", "discard_equity": "engine",
    "equity": "engine", "equity_by_street": "engine",
    "HandValue": "evaluate", "category_of": "evaluate", "evaluate": "evaluate",
    "evaluate_batch": "evaluate", "FlopStudy": "studies", "flop_study": "studies",
    "Range": "ranges", "EquityDistribution": "studies", "equity_distribution": "studies",
    "hand_vs_range": "studies", "preflop_matrix": "studies", "warmup": "warmup",
    "combos": "combo_order", "combo_index": "combo_order", "combo_equity": "vectors",
    "call_matrix": "vectors", "showdown_values": "vectors", "runout_study": "studies",
    "RunoutStudy": "studies"}

if TYPE_CHECKING:
    from .batch import batch_equity
    from .combo_order import combo_index, combos
    from .engine import EquityResult, PlayerEquity, discard_equity, equity, equity_by_street
    from .evaluate import HandValue, category_of, evaluate, evaluate_batch
    from .ranges import Range
    from .studies import (
        EquityDistribution,
        FlopStudy,
        RangeBreakdown,
        RunoutStudy,
        equity_distribution,
        flop_study,
        hand_vs_range,
        preflop_matrix,
        range_breakdown,
        runout_study,
    )
    from .vectors import call_matrix, combo_equity, showdown_values
    from .warmup import warmup


class _Package(types.ModuleType):
    """The package module: importing its submodules ``evaluate`` and ``warmup`` leaves the
    functions of those names as its attributes (as an eager ``from .evaluate import
    evaluate`` in this file would), not the submodules."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


_SHADOWED = frozenset({"evaluate", "warmup"})
sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'evaluator' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__version__ = "0.1.0"

__all__ = [
    "GAMES", "Game", "game",
    "evaluate", "evaluate_batch", "HandValue", "category_of", "warmup",
    "equity", "equity_by_street", "discard_equity", "EquityResult", "PlayerEquity",
    "Range", "batch_equity", "preflop_matrix", "hand_vs_range", "flop_study", "FlopStudy",
    "equity_distribution", "EquityDistribution", "range_breakdown", "RangeBreakdown",
    "combos", "combo_index", "combo_equity", "call_matrix", "showdown_values",
    "runout_study", "RunoutStudy",
    "parse_cards", "format_cards", "card_id", "card_str",
    "EvaluatorError", "CardError", "GameError", "HandError", "RangeError", "NoDeal", "TableError",
    "QueryFailed", "ArgumentTypeError", "BatchInterrupted",
    "__version__",
]
