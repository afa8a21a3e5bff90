"""The batch path of small queries (issue: step 20): 20,000 heads-up flop queries of random
known hands, exact, as a loop of ``equity()`` calls and as one ``batch_equity``; and 5,000
of PLO.

    pytest benchmarks/test_bench_batch.py -n 0 --benchmark-columns=median,min,max,rounds

Target: a batch at least as fast per core as the loop, and faster on two threads than on
one.  The queries come as a script builds them (hands a list) and as a results file's
rows read back (hands one text, the sampling cells empty).
"""
import random

import pytest

from evaluator import batch_equity, equity

QUERIES = 20_000


def _queries(as_file: bool, game: str = "holdem", count: int = QUERIES) -> list[dict]:
    rng = random.Random(20)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    hole = 4 if game == "omaha" else 2
    out = []
    for _ in range(count):
        cards = rng.sample(deck, 2 * hole + 3)
        hands = ["".join(cards[:hole]), "".join(cards[hole:2 * hole])]
        query = {"game": game, "hands": hands, "board": "".join(cards[2 * hole:])}
        if as_file:
            query.update(hands=" vs ".join(hands), dead="", exact="", trials="",
                         target_stderr="", seed="", version="")
        out.append(query)
    return out


LISTED = _queries(False)
PLO = _queries(False, "omaha", 5_000)


def _loop(queries: list[dict]) -> None:
    for q in queries:
        equity(q["game"], q["hands"], q["board"], threads=1)


@pytest.mark.parametrize("queries", [LISTED, PLO], ids=["holdem", "omaha"])
def test_loop_of_equity_calls(benchmark, queries):
    _loop(queries[:50])
    benchmark.pedantic(_loop, args=(queries,), rounds=5, warmup_rounds=1)


@pytest.mark.parametrize("as_file", [False, True], ids=["listed", "file rows"])
@pytest.mark.parametrize("threads", [1, 2, None], ids=["one thread", "two threads",
                                                       "default"])
def test_batch(benchmark, threads, as_file):
    queries = _queries(as_file)
    rows = benchmark.pedantic(batch_equity, args=(queries,),
                              kwargs={"threads": threads, "progress": False},
                              rounds=5, warmup_rounds=1)
    assert len(rows) == QUERIES and rows[0]["exact"]


@pytest.mark.parametrize("threads", [1, 2], ids=["one thread", "two threads"])
def test_plo_batch(benchmark, threads):
    rows = benchmark.pedantic(batch_equity, args=(PLO,),
                              kwargs={"threads": threads, "progress": False},
                              rounds=5, warmup_rounds=1)
    assert len(rows) == len(PLO) and rows[0]["exact"]
