"""A target standard error stops the sampling at the first check that meets it: after a few
thousand deals, not after 2**20, and on the same deals whatever the number of threads."""
import itertools

import pytest

from evaluator import batch_equity, equity
from evaluator.engine.results import Counts
from evaluator.engine.sample import DEFAULT_TRIALS, MIN_DEALS, sample_until, target_rounds


@pytest.mark.parametrize("game, hands", [
    ("holdem", ["AsKs", "QhQd"]),
    ("holdem", ["QQ+,AKs", "random"]),                 # the range sampler
    ("omaha8", ["Ah2h3sKs", "random"]),
    ("holdem", ["AA", "KK", "QQ"]),
])
def test_a_target_stderr_stops_once_met_the_same_on_any_threads(game, hands):
    for target in (0.01, 0.003):
        one = equity(game, hands, target_stderr=target, seed=5, threads=1)
        assert one == equity(game, hands, target_stderr=target, seed=5, threads=2)
        assert MIN_DEALS <= one.samples < DEFAULT_TRIALS // 8
        assert max(p.stderr for p in one.players) <= target
    # a loose target is met at the first check
    assert equity(game, hands, target_stderr=0.01, seed=5).samples == MIN_DEALS


def test_the_stop_is_the_first_check_that_meets_the_target():
    """Deals split evenly between two players: the standard error is 0.5 / sqrt(deals), so
    the target is met at 0.25 / target**2 deals, and the sampling stops at the first check
    from there (the checks fall where the deals so far grow by a quarter)."""
    def run(index, size):
        part = Counts(2)
        part.hi_full[0, 1], part.hi_full[1, 1] = size - size // 2, size // 2
        part.boards = size
        return part

    checks = list(itertools.accumulate(map(sum, itertools.islice(target_rounds(None), 60))))
    for target in (0.01, 0.003, 0.001, 0.0002):
        needed = 0.25 / target ** 2
        first = next(total for total in checks if total >= needed * (1 + 1e-3))
        for threads in (1, 2):
            counts = sample_until(run, 2, None, target, threads)
            assert counts.boards == first <= max(needed * 1.25, MIN_DEALS) + 2


def test_stream_version_1_keeps_its_answers_and_a_batch_row_resumes(tmp_path):
    """Release 0.1.0's stream checked a target every 2**20 deals: version=1 still does, so
    its seeded answers stand; a batch row with a target is the query's answer."""
    old = equity("holdem", ["AsKs", "QhQd"], target_stderr=0.01, seed=1, version=1)
    assert old.samples == 1 << 20
    out = tmp_path / "r.csv"
    rows = batch_equity([{"hands": "AsKs vs QhQd", "target_stderr": 0.005, "seed": 3}],
                        out=out, progress=False)
    direct = equity("holdem", ["AsKs", "QhQd"], target_stderr=0.005, seed=3)
    assert rows[0]["samples"] == direct.samples < DEFAULT_TRIALS
    assert rows[0]["p1_equity"] == direct.players[0].equity
    again = batch_equity([{"hands": "AsKs vs QhQd", "target_stderr": 0.005, "seed": 3}],
                         out=out, progress=False, resume=True)
    assert again.resumed == 1 and list(again) == list(rows)
