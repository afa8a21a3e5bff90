"""Queries that touch every game, street and kind of equity query (known hands, unknown
cards, ranges of equal and unequal weights, heads-up and three-way, exact and sampled),
and every study: what a user's first batch may ask, for the test that ``warmup`` leaves
nothing to compile."""
from __future__ import annotations

import evaluator
import evaluator.families
from evaluator.games import GAMES

# hands and ranges by hole size, from cards every game's deck holds (sixes and up)
KNOWN = {2: ["AsKs", "QhQd", "JcTc"], 3: ["AsKsQs", "JhJdTc", "9c9d9h"],
         4: ["AsAhKsKh", "QdQcJdTc", "9c9d9hTh"], 5: ["AsAhKsKhQs", "QdQcJdTcJs", "9c9d9hThTs"],
         6: ["AsAhKsKhQsJh", "QdQcJdTcJsKd", "9c9d9hThTsAc"]}
BOARD = ["2c", "3d", "4h", "5s", "2h"]
SHORT_BOARD = ["6c", "6d", "7h", "7s", "8c"]


def _ranges(g) -> tuple[str, str, str]:
    """Ranges of equal weights, of unequal weights that are multiples of 1/1024 (exact
    answers sum them as integers) and of weights that are not (summed as floats), for
    the game: other ranges than warmup's, small enough that the batch takes seconds."""
    if evaluator.families.family(g).holdem_notation(g):
        return "QQ,AKs", "JJ:0.5,AQs", "KK:0.3,AJs"
    first, second = KNOWN[g.hole][0], KNOWN[g.hole][1]
    # a few dozen combos each: every range kernel, exact pre-flop in seconds at most
    # (a range's weights are scaled so that the largest is 1: 0.3 stays 0.3 beside a 1)
    return f"{first[:-2]}*", f"{second[:-2]}*:0.5,{second}", f"{first[:-2]}*:0.3,{first}"


def _heavy(g, board: int, hands: list[str]) -> bool:
    """Whether an exact query lists or sweeps every combo of a wide hand in a game of four
    hole cards or more (a range pre-flop, a range against a random hand): seconds each,
    with the same kernels in every such game, so that only Omaha and Omaha hi-lo run them,
    and not on the flop (whose walk of the runouts is the turn's and the river's kernels,
    seven seconds a query).  Checked by Numba's own statistics: the batch loads the same
    compiled kernels as with every game and street, in a third of the time."""
    if g.hole < 4 or not any(h.endswith("*") or ":" in h for h in hands):
        return False
    if board and "random" not in hands:
        return False
    return g.name not in ("omaha", "omaha8") or board == 3


def every_query() -> list[dict]:
    queries = []
    for name in GAMES:
        g = evaluator.game(name)
        known = KNOWN[g.hole]
        cards = SHORT_BOARD if g.lowest_rank else BOARD
        equal, unequal, uneven = _ranges(g)
        unknown = known[1][:-2] + "?"
        for street in g.streets:
            board = "".join(cards[:street])
            heads_up = [[known[0], known[1]], [known[0], "random"], [known[0], unknown],
                        [equal, known[1]], [unequal, known[2]], [equal, "random"],
                        [unequal, "random"], [uneven, unequal]]
            three_way = [[known[0], known[1], known[2]], [equal, unequal, known[2]]]
            # three ranges exact where the boards are walked (two-card hands, flop on)
            walked = (three_way + [[uneven, unequal, known[2]]]
                      if g.hole == 2 and street >= 3 else [])
            for hands in heads_up + walked:
                if _heavy(g, street, hands):
                    continue
                queries.append({"game": name, "hands": hands, "board": board})
            # (two random hands pre-flop on a full deck: the second stream deals them with
            # the first stream's draw, its combos and board too many for one step)
            for hands in heads_up + three_way + [["random", "random"]]:
                queries.append({"game": name, "hands": hands, "board": board,
                                "trials": 2000, "seed": 1})
            queries.append({"game": name, "hands": [equal, "random"], "board": board,
                            "trials": 2000, "seed": 1, "version": 1})
            if street == g.streets[0]:
                for hands in ([equal, unequal, "random"], [equal, unknown, "random"],
                              [equal] + ["random"] * 2, [equal] + ["random"] * 5):
                    queries.append({"game": name, "hands": hands, "board": board,
                                    "trials": 2000, "seed": 1})
    return queries


def every_study() -> None:
    from evaluator.studies import equity_distribution, hand_vs_range
    from evaluator.studies.breakdown import range_breakdown
    for board in ("2c7d9h", "2c7d9hTs", "2c7d9hTs4h"):
        equity_distribution("holdem", "QQ+,AKs", "JJ,TT:0.5", board, progress=False)
        equity_distribution("omaha", "AA**:$ds", "KK**", board, progress=False)
        range_breakdown("holdem", "QQ+,AKs,T9s", board, progress=False)
        range_breakdown("omaha", "AA**:$ds", board, progress=False)
        hand_vs_range("holdem", "QQ+,AKs", board, progress=False)
    every_vector()


def every_vector() -> None:
    """The combo vectors with other ranges and boards than warmup's: every street of
    hold'em and short deck, Omaha's turn and river, several reach vectors, the runout
    study and the flop study."""
    import numpy as np

    from evaluator import call_matrix, combo_equity, flop_study, runout_study, showdown_values
    for game, against, boards in (("holdem", "TT+,AQs:0.5", ("Kc8h3d", "Kc8h3d2s",
                                                            "Kc8h3d2s9s")),
                                  ("short_deck", "TT+", ("Kc8h6d", "Kc8h6d7s")),
                                  ("omaha", "KK**:0.5", ("Kc8h3d2s", "Kc8h3d2s9s"))):
        for board in boards:
            combo_equity(game, against, board)
        river = boards[-1] if len(boards[-1]) == 10 else boards[-1] + "Ah"
        reach = evaluator.Range(against, game).vector()
        showdown_values(game, reach, river)
        showdown_values(game, np.stack([reach] * 3), river)
        if game != "omaha":
            call_matrix(game, river)
            runout_study(game, ["AA", against], boards[0], progress=False)
    flop_study("holdem", ["JJ+", "random"], progress=False, vectors=True)
