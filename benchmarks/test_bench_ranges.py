"""Range equity and batch studies (issue: step 4), one thread unless said.

    pytest benchmarks/test_bench_ranges.py --benchmark-columns=median,min,max,rounds

Targets beside the peers measured on this machine: QQ+,AKs vs random pre-flop exact
<= 2.6 s (OMPEval 2.6 s, poker-equity gave up); the same on the flop 2c4c5h <= 20 ms
(OMPEval 19 ms); QQ+,AKs vs random Monte Carlo >= 40 M deals/s per thread (OMPEval
42 M/s); the full 169 x 169 exact pre-flop matrix <= 2 minutes on 2 cores; QQ+,AKs
against two random hands on the flop 2c7d9h exact, one thread (OMPEval's enumeration
39.6-40.7 s on the Zen 4 VM of benchmarks/README.md).
"""
import pytest

from evaluator import Range, equity, preflop_matrix

from conftest import sample


def test_range_vs_random_preflop_exact(benchmark):
    benchmark.pedantic(equity, args=("holdem", ["QQ+,AKs", "random"]),
                       kwargs={"exact": True, "threads": 1}, rounds=3, warmup_rounds=1)


def test_range_vs_random_flop_exact(benchmark):
    benchmark.pedantic(equity, args=("holdem", ["QQ+,AKs", "random"], "2c4c5h"),
                       kwargs={"threads": 1}, rounds=20, warmup_rounds=2)


def test_range_vs_two_random_hands_flop_exact(benchmark):
    benchmark.pedantic(equity, args=("holdem", ["QQ+,AKs", "random", "random"], "2c7d9h"),
                       kwargs={"exact": True, "threads": 1}, rounds=5, warmup_rounds=1)


@pytest.mark.parametrize("version", [2, 1])
def test_range_vs_random_monte_carlo(benchmark, version):
    """The heads-up range sampler (OMPEval 36-39 M deals/s on the Zen 4 VM), in the
    default stream and the first one (``version=1``), which draws each deal's combos
    from a generator step of their own."""
    sample(benchmark, "holdem", ["QQ+,AKs", "random"], 2_000_000, version=version)


def test_range_vs_two_random_hands_monte_carlo(benchmark):
    """The multiway range sampler (OMPEval 29 M deals/s on the Zen 4 VM)."""
    sample(benchmark, "holdem", ["QQ+,AKs", "random", "random"], 1_000_000)


def test_range_six_handed_monte_carlo(benchmark):
    """The multiway range sampler's straight dealer at its widest: five random hands."""
    sample(benchmark, "holdem", ["QQ+,AKs"] + ["random"] * 5, 1_000_000)


def test_range_nine_handed_monte_carlo(benchmark):
    """The multiway range sampler's unit dealer: eight random hands."""
    sample(benchmark, "holdem", ["QQ+,AKs"] + ["random"] * 8, 500_000)


def test_preflop_matrix_two_threads(benchmark):
    benchmark.pedantic(preflop_matrix, kwargs={"recompute": True, "threads": 2,
                                               "progress": False},
                       rounds=1, warmup_rounds=0)


# --- the Omaha range language (issue: step 10) --------------------------------------------
# Targets: each listing well under a second, first call and cached; AA$ds vs 15% in PLO,
# Monte Carlo 2 M deals, as fast as AA** vs random.

OMAHA_RANGES = ["AA$ds", "RROO", "[K-T][K-T]**,AA!AAA", "15%"]


@pytest.mark.parametrize("game", ["omaha", "omaha5", "omaha6"])
@pytest.mark.parametrize("text", OMAHA_RANGES)
def test_omaha_range_first_call(benchmark, game, text):
    """Parsing and listing with the listing cache cleared before each round."""
    from evaluator import ranges
    if game == "omaha6" and text == "[K-T][K-T]**,AA!AAA":
        text = "[K-T][K-T][K-T][K-T],AA!AAA"      # the 4-card one pads to too many hands

    def first_call():
        ranges._cached_term.cache_clear()
        return Range(text, game)
    benchmark.pedantic(first_call, rounds=3, warmup_rounds=1)


@pytest.mark.parametrize("game", ["omaha", "omaha6"])
@pytest.mark.parametrize("text", ["AA$ds", "15%"])
def test_omaha_range_cached(benchmark, game, text):
    Range(text, game)
    benchmark.pedantic(Range, args=(text, game), rounds=10, warmup_rounds=1)


@pytest.mark.parametrize("hands", [["AA$ds", "15%"], ["AA**", "random"]])
def test_plo_range_monte_carlo(benchmark, hands):
    sample(benchmark, "omaha", hands, 2_000_000)


# --- studies (issue: step 12) ----------------------------------------------------------------
# Targets: QQ+,AKs vs random on every flop, exact, at most 8 s on 2 cores; the equity
# distribution of random against QQ+,AKs on a flop, exact, at most 1 s.

def test_flop_study_two_threads(benchmark):
    from evaluator import flop_study
    benchmark.pedantic(flop_study, args=("holdem", ["QQ+,AKs", "random"]),
                       kwargs={"threads": 2, "progress": False}, rounds=1, warmup_rounds=0)


def test_equity_distribution_on_a_flop(benchmark):
    from evaluator import equity_distribution
    benchmark.pedantic(equity_distribution, args=("holdem", "random", "QQ+,AKs", "2c7d9h"),
                       kwargs={"progress": False}, rounds=3, warmup_rounds=1)


def test_breakdown_of_random_on_a_flop(benchmark):
    """Target: at most 50 ms."""
    from evaluator import range_breakdown
    benchmark.pedantic(range_breakdown, args=("holdem", "random", "Ah7d2c"), rounds=10,
                       warmup_rounds=1)
