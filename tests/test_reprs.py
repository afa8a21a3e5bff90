"""Every result's repr is a line or a few: what it is, its spot, its headline figures and
how many rows it holds; the data stays behind ``.rows`` / ``.to_frame()`` (a flop study's
repr was 818 KB)."""
import pytest

import evaluator as ev
from evaluator.evaluate import evaluate
from evaluator.studies.preflop import preflop_matrix

WIDE = ",".join(["QQ+", "AKs", *(f"{a}{b}o:0.{k % 9 + 1}" for k, (a, b) in enumerate(
    (a, b) for a in "AKQJT98765432" for b in "AKQJT98765432" if a > b))])   # many parts


def short(text: str, limit: int = 400) -> str:
    assert len(text) <= limit and text.count("\n") <= 3, text[:1000]
    return text


def test_equity_results_and_players():
    exact = ev.equity("holdem", ["AsKs", "QhQd"], "2c7d9h")
    said = short(repr(exact), 200)
    assert "holdem" in said and "2c 7d 9h" in said and "23.9394%" in said
    sampled = ev.equity("holdem", ["QQ+,AKs", "random", "random"], trials=5000, seed=42)
    assert "seed 0x2a" in short(repr(sampled))
    short(repr(sampled.players[0]), 200)
    wide = ev.equity("holdem", [",".join([WIDE] * 40), "random"], trials=1000, seed=1)
    assert len(wide.players[0].hand) > 20_000
    short(repr(wide))
    short(repr(wide.players[0]), 250)
    ten = ev.equity("holdem", ["random"] * 10, trials=1000, seed=1)
    assert "2 more" in short(repr(ten))
    short(repr(evaluate("holdem", "AsKs", "QsJsTs")))


def test_a_range_of_100000_characters_does_not_flood():
    text = " , ".join(["QQ+", "AKs"] * 12_500)
    assert len(text) >= 100_000
    said = short(repr(ev.Range(text, "holdem")), 200)
    assert "characters" in said and "22 combos" in said


def test_studies_and_batch_rows():
    flops = ev.flop_study(hands=["QQ+,AKs", "random"], game="holdem", progress=False)
    assert len(flops.rows) == 1755
    said = short(repr(flops))
    assert said.startswith("<FlopStudy holdem") and "1,755 rows" in said and "equity" in said
    runouts = ev.runout_study(hands=["QQ+,AKs", "22+"], board="2c7d9h", game="holdem",
                              progress=False)
    assert "RunoutStudy" in short(repr(runouts)) and "rows" in repr(runouts)
    spread = ev.equity_distribution(hands="QQ+,AKs", against="22+,A2s+", board="2c7d9h",
                                    game="holdem", progress=False)
    assert "mean equity" in short(repr(spread))
    broken = ev.range_breakdown(hands="random", board="Ah7d2c", game="holdem",
                                progress=False)
    assert "combos" in short(repr(broken))
    rows = ev.batch_equity([{"hands": "AsKs vs QhQd", "board": "2c7d9h"},
                            {"hands": "AsKs vs QhQd", "trials": 2000}] * 200, progress=False)
    said = short(repr(rows))
    assert "400 rows" in said and "200 exact" in said and "200 sampled" in said
    assert "AA vs KK" in short(repr(preflop_matrix(progress=False)))


def test_a_repr_never_raises_on_damaged_rows():
    flops = ev.flop_study(hands=["AsKs", "QhQd"], game="holdem", progress=False)
    flops.rows[0] = {"flop": "2c3c4c"}
    assert "FlopStudy" in short(repr(flops))


@pytest.mark.parametrize("name", ["FlopStudy", "RunoutStudy", "EquityDistribution",
                                  "RangeBreakdown"])
def test_every_study_class_has_the_short_repr(name):
    from evaluator.export import rows_repr
    assert getattr(ev, name).__repr__ is rows_repr
