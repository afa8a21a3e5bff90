"""Fast poker hand evaluation and equity, compiled with Numba.

>>> import evaluator
>>> str(evaluator.evaluate("holdem", "AsKs", "QsJsTs"))
'royal flush'

``import evaluator`` is cheap: tables load and kernels compile on first use.
"""
from .batch import batch_equity
from .cards import CardError, card_id, card_str, format_cards, parse_cards
from .engine import EquityResult, PlayerEquity, discard_equity, equity, equity_by_street
from .errors import ArgumentTypeError, EvaluatorError, GameError, HandError, RangeError, TableError
from .evaluate import HandValue, category_of, evaluate, evaluate_batch
from .games import GAMES, Game, game
from .ranges import Range
from .studies import hand_vs_range, preflop_matrix
from .warmup import warmup

__version__ = "0.1.0"

__all__ = [
    "GAMES", "Game", "game",
    "evaluate", "evaluate_batch", "HandValue", "category_of", "warmup",
    "equity", "equity_by_street", "discard_equity", "EquityResult", "PlayerEquity",
    "Range", "batch_equity", "preflop_matrix", "hand_vs_range",
    "parse_cards", "format_cards", "card_id", "card_str",
    "EvaluatorError", "CardError", "GameError", "HandError", "RangeError", "TableError",
    "ArgumentTypeError",
    "__version__",
]
