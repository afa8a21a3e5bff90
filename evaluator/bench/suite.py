"""The fixed, seeded workloads: ``workloads()`` builds the suite, in the order it runs.

Every hand is drawn once from a fixed seed, so each run, and each adapter, gets
the same cards.  A ``Workload`` is either a batch of hands to evaluate or one
equity spot.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..cards import format_cards

__all__ = ["Workload", "workloads"]


@dataclass
class Workload:
    """One fixed task.  ``kind`` is ``"eval"`` (``cards``: uint8 (n, hole + board), hole
    cards first) or ``"equity"`` (``spot``: the arguments of ``evaluator.equity``)."""
    name: str
    kind: Literal["eval", "equity"]
    game: str
    description: str
    items: int                      # hands evaluated, or deals in an equity answer
    unit: str
    hole: int = 0
    cards: np.ndarray | None = None
    spot: dict[str, Any] = field(default_factory=dict)

    @property
    def two_plus_three(self) -> bool:
        """Whether its hands are made by Omaha's rule (peers take those apart)."""
        from ..families import family
        from ..games import game
        return family(game(self.game)).two_plus_three

    def card_names(self, rows: int | None = None) -> list[list[str]]:
        """The hands as lists of card names ('As'), optionally only the first ``rows``."""
        if self.cards is None:
            raise ValueError(f"{self.name} is an equity spot: it has no hands to name")
        cards = self.cards if rows is None else self.cards[:rows]
        names = np.array(format_cards(np.arange(52)).split())
        return names[cards].tolist()


def _random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52), dtype=np.float32)
    return np.ascontiguousarray(np.argpartition(keys, k, axis=1)[:, :k].astype(np.uint8))


def _random_hands_from(n: int, k: int, seed: int, lowest: int) -> np.ndarray:
    """``_random_hands`` from the card ids ``lowest`` to 51 (the short deck: from 16)."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52 - lowest), dtype=np.float32)
    picks = np.argpartition(keys, k, axis=1)[:, :k] + lowest
    return np.ascontiguousarray(picks.astype(np.uint8))


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
        Workload("short_deck_eval7", "eval", "short_deck", "short deck 7-card hands, random",
                 n, "hands", 2, _random_hands_from(n, 7, 12, 16)),
        Workload("short_deck_exact", "equity", "short_deck",
                 "short deck AsKs vs QhQd pre-flop, exact", 201_376, "boards",
                 spot={"hands": ["AsKs", "QhQd"], "board": "", "exact": True}),
        Workload("big_o_exact", "equity", "omaha5_8",
                 "Big O As2s3dKcQh vs AdKdQcJc4h pre-flop, exact", 658_008, "boards",
                 spot={"hands": ["As2s3dKcQh", "AdKdQcJc4h"], "board": "", "exact": True}),
        Workload("big_o_flop_exact", "equity", "omaha5_8",
                 "Big O As2s3dKcQh vs AdKdQcJc4h on 7c8h9s, exact", 741, "boards",
                 spot={"hands": ["As2s3dKcQh", "AdKdQcJc4h"], "board": "7c8h9s",
                       "exact": True}),
        Workload("big_o_monte_carlo", "equity", "omaha5_8",
                 "Big O As2s3dKcQh vs AdKdQcJc4h, Monte Carlo", 200_000 if quick else 2_000_000,
                 "deals", spot={"hands": ["As2s3dKcQh", "AdKdQcJc4h"], "board": "",
                                "trials": 200_000 if quick else 2_000_000}),
    ]
    return suite
