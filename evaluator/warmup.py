"""Compile (or load from Numba's on-disk cache) every kernel the package uses.

``evaluator warmup`` runs it once after installing, so that no first query of a game pays
the 2-4 s its kernels take to compile; the tests run it once per session.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from .engine import equity
from .evaluate import evaluate_batch
from .games import GAMES
from .games import game as _game

__all__ = ["warmup"]


def _evaluate_game(name: str) -> None:
    g = _game(name)
    for width in g.row_sizes():
        hands = np.array(g.deck[:width], np.uint8).reshape(1, width)
        evaluate_batch(g, hands)
        if g.pot == "hilo":
            evaluate_batch(g, hands, low=True)


def _equity_steps() -> list[tuple[str, list[str], str, dict[str, Any]]]:
    """Tiny queries that reach every equity kernel: (game, hands, board, options)."""
    sampled: dict[str, Any] = {"trials": 1000, "seed": 1}
    steps = [
        ("holdem", ["AsKs", "QhQd"], "", {}),                          # rank multisets
        ("holdem", ["AsKs", "QhQd"], "2c7d9h", {}),
        ("holdem", ["AsKs", "QhQd"], "2c7d9hTs", {}),
        ("the", ["AcKcQc", "AhKhQh"], "2s", {}),                       # walking boards
        ("holdem", ["AsKs", "QhQd"], "", sampled),                      # sampling
        ("holdem", ["AsKs", "random"], "", sampled),
        ("holdem", ["QQ+,AKs:0.5", "random"], "", sampled),
        # the samplers compile once per number of board cards dealt
        ("holdem", ["AsKs", "QhQd"], "2c7d9h", sampled),
        ("holdem", ["AsKs", "QhQd"], "2c7d9hTs", sampled),
        ("holdem", ["QQ+,AKs", "random"], "2c7d9h", sampled),
        ("holdem", ["QQ+,AKs", "random"], "2c7d9hTs", sampled),
        ("holdem", ["QQ+,AKs", "random"], "", sampled),                  # equal weights
        ("holdem", ["AsKs", "QhQd"], "2c7d9hTs4h", sampled),             # the river
        ("holdem", ["AA,KK", "QQ", "random"], "", sampled),
        ("holdem", ["AA,KK", "QQ"], "", {}),                            # ranges, exact
        ("holdem", ["AA,KK", "QQ"], "2c7d9h", {}),
        ("holdem", ["AA,KK:0.3", "QQ"], "2c7d9h", {})]
    for game in ("omaha", "omaha8"):
        steps += [(game, ["AsAhKsKh", "QdQcJdTc"], "", {}),
                  (game, ["AsAhKsKh", "QdQcJdTc"], "", sampled),
                  (game, ["AsAhKsKh,AcAdKcKd", "QdQcJdTc"], "2c7d9h", {}),
                  (game, ["AsAh**", "QdQcJdTc"], "2c7d9h", sampled)]
    steps += [("tahoe", ["AsKsQs", "JhJdTc"], "2c7d9h", {}),
              ("tahoe", ["AsKsQs", "JhJdTc"], "", sampled),
              ("tahoe", ["AsKsQs", "JhJdTc"], "2c7d9h", sampled),
              ("tahoe", ["AsKsQs", "JhJdTc"], "2c7d9hTs", sampled),
              ("tahoe", ["AsKsQs", "random"], "", sampled),             # unknown cards
              ("omaha", ["AsAhKsKh", "QdQcJd?"], "2c7d9hTs4h", {}),
              ("teen_patti", ["AsKsQs", "random"], "", sampled),
              ("teen_patti", ["AsKsQs", "random"], "", {}),
              ("short_deck", ["AsKs", "QhQd"], "", {})]
    return steps


def warmup(report: Callable[[int, int, str], None] | None = None) -> None:
    """Compile or load every kernel: each game's evaluators, then each equity path.

    ``report(step, steps, label)``, when given, is called before each step.
    """
    work: list[tuple[str, Callable[[], object]]] = [
        (f"evaluate {name}", partial(_evaluate_game, name)) for name in GAMES]
    for game, hands, board, options in _equity_steps():
        label = (f"{game} {' vs '.join(hands)}" + (f" on {board}" if board else "")
                 + (", sampled" if options else ""))
        work.append((label, partial(equity, game, hands, board, threads=1, **options)))
    for step, (label, run) in enumerate(work):
        if report is not None:
            report(step, len(work), label)
        run()
