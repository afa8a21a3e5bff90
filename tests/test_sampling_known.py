"""The blocked Monte Carlo kernel for known hands deals what ``best5_sample`` deals and
counts what it counts, deal for deal (same seed, same counts)."""
import numpy as np
import pytest

from evaluator import _tables, equity, parse_cards
from evaluator.families._shared import BOARD_ROWS
from evaluator.games import game
from evaluator.kernels import sampling
from evaluator.kernels.markers import deal_marker, ndim_marker, unknown_cards

SPOTS = [("holdem", ["AsKs", "QhQd"], ""),
         ("holdem", ["AsKs", "QhQd", "JcTc"], ""),
         ("holdem", ["AsKs", "QhQd"], "2c7d9h"),
         ("holdem", ["AsKs", "QhQd"], "2s7s9hTs"),
         ("holdem", ["2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d", "8c8d", "9c9d"], ""),
         ("holdem", ["AsKs", "AhKh"], "QsJsTs2h"),            # a board that plays
         ("short_deck", ["AsKs", "QhQd"], ""),
         ("tahoe", ["AsKsQs", "JhJdTc"], ""),
         ("tahoe", ["AsKsQs", "JhJdTc", "9s8s7d"], "2s3s4h"),
         ("tahoe", ["AsKsQs", "AhKhQh"], "JsTsJh"),              # flushes, a board that plays
         ("tahoe", ["2s3s4s", "5h6h7h", "8d9dTd", "JcQcKc", "AsAhAd"], ""),
         ("pineapple", ["AsKs", "QhQd"], ""),
         # three and four cards to deal (Courchevel's and "The"'s counts), read at run time
         ("holdem", ["AsKs", "QhQd"], "2c7d"),
         ("holdem", ["AsKs", "QhQd"], "2c")]


@pytest.mark.parametrize("name, hands, board", SPOTS)
def test_the_blocked_kernel_counts_what_the_fused_one_counts(name, hands, board):
    g = game(name)
    holes = np.array([parse_cards(h) for h in hands], np.uint8)
    known = np.array(parse_cards(board), np.uint8)
    used = set(holes.ravel().tolist()) | set(known.tolist())
    live = np.array([c for c in g.deck if c not in used], np.uint8)
    need = 5 - len(known)
    tables = _tables.high(g.values)
    # the count the blocked kernel deals: as its callers pass it (a constant for a whole
    # board or two cards, read at run time otherwise), and the other way, which must deal
    # alike
    other = ndim_marker(need) if need not in (2, 5) else np.zeros(need, np.uint8)
    markers = [deal_marker(need), other]
    for samples in (1, 1023, 1024, 1025, 5000):
        counts = []
        for draws in (None, *markers):
            state = np.array([20261201, samples], np.uint64)
            hi = np.zeros((len(hands), len(hands) + 1), np.int64)
            if draws is not None:
                sampling.best5_sample_known(holes, ndim_marker(g.sub_hands), known, live,
                                            draws, samples, state, *tables,
                                            *_tables.load_many(BOARD_ROWS), hi)
            else:
                sampling.best5_sample(holes, ndim_marker(g.sub_hands),
                                      unknown_cards([0] * len(hands)), known, live, need,
                                      samples, state, *tables, hi)
            counts.append((hi, state))
        for blocked in counts[1:]:
            assert np.array_equal(counts[0][0], blocked[0])
            assert np.array_equal(counts[0][1], blocked[1])     # the stream left alike
        assert counts[1][0][:, 1:].sum() >= samples


def test_monte_carlo_answers_are_unchanged():
    """Seed 7's counts, recorded before the blocked kernel (2026-12-01), on one thread
    and on two."""
    recorded = {("holdem", ("AsKs", "QhQd"), "", 1_000_000): [[0, 459967, 3859],
                                                              [0, 536174, 3859]],
                ("tahoe", ("AsKsQs", "JhJdTc"), "", 300_000): [[0, 161334, 743],
                                                                [0, 137923, 743]],
                ("holdem", ("AsKs", "QhQd", "JcTc"), "2c7d9h", 300_000): [
                    [0, 62516, 0, 0], [0, 165318, 0, 0], [0, 72166, 0, 0]]}
    for (name, hands, board, trials), hi_full in recorded.items():
        for threads in (1, 2):
            result = equity(name, list(hands), board, trials=trials, seed=7, threads=threads)
            assert result.counts["hi_full"] == hi_full
