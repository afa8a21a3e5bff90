"""Hand histories: read, replay and analyse PHH no-limit hold'em (issue: step 20), beside
pokerkit's own reader on the same files.

    pytest benchmarks/test_bench_histories.py --benchmark-columns=median,min,rounds

The corpus is played at random by pokerkit (``histories_corpus.py``): 2,000 hands in two
files, seeded, written once a session.  Ours is timed in this process (one core); the
command line over a folder spreads the files over the cores (``--processes``).
"""
import warnings

import pytest
from histories_corpus import write_corpus

from conftest import rate

HANDS = 2_000


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    pytest.importorskip("pokerkit")
    return write_corpus(tmp_path_factory.mktemp("phh"), HANDS, HANDS // 2)


def test_read_replay_and_analyse(benchmark, corpus):
    from evaluator.histories.run import analyse_file

    def run():
        return sum(len(analyse_file(str(path))) for path in corpus)
    assert run() == HANDS                                  # every hand replays, no problem
    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    rate(benchmark, HANDS, "hands/s")


def test_pokerkit_parse_only(benchmark, corpus):
    import pokerkit

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            n = 0
            for path in corpus:
                with open(path, "rb") as handle:
                    n += sum(1 for _ in pokerkit.HandHistory.load_all(handle))
            return n
    assert run() == HANDS
    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    rate(benchmark, HANDS, "hands/s")
