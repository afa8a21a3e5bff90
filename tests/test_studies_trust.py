"""The studies answer what ``equity()`` answers: weighted flop studies, and the deal weights
behind every row."""
from __future__ import annotations

import json
import re
import time
from fractions import Fraction

import numpy as np
import pytest

import evaluator as ev
from evaluator import cli
from evaluator.cli.args import whole
from evaluator.errors import EvaluatorError
from evaluator.studies import equity_distribution
from evaluator.studies.breakdown import range_breakdown
from evaluator.studies.flops import flop_study


@pytest.mark.parametrize("hands", [
    ["AA:0.5,KK", "QQ,JJ:0.2"],
    ["AKs:0.3,QQ", "JJ+:0.5,AK"],
])
def test_weighted_flop_study_equals_equity(hands):
    study = flop_study("holdem", hands, progress=False)
    whole = ev.equity("holdem", hands)
    for got, want in zip(study.equity(), whole.players):
        assert got == pytest.approx(want.equity, abs=1e-12)


def test_unweighted_flop_study_fractions_equal_equity():
    hands = ["AA,KK", "QQ,AKs"]
    study = flop_study("holdem", hands, progress=False)
    assert study.fractions() == ev.equity("holdem", hands).fractions


def test_row_weight_is_in_the_ranges_own_weights():
    # on 2c2dAs, 'AA:0.5,KK' keeps three aces combos at weight 0.5 and six kings at 1: the
    # deal weight is (3 * 0.5 + 6) / 9 of that of the unweighted 'AA,KK', never rescaled
    weighted = ev.equity("holdem", ["AA:0.5,KK", "QQ"], board="2c2dAs")
    plain = ev.equity("holdem", ["AA,KK", "QQ"], board="2c2dAs")
    assert isinstance(weighted.samples, float)
    assert weighted.samples == pytest.approx(plain.samples * (3 * 0.5 + 6) / 9, rel=1e-12)


def test_a_flop_where_only_low_weight_combos_live_counts_them_at_their_weight():
    weighted = ev.equity("holdem", ["AA:0.5,KK", "QQ"], board="KcKdKh")   # KK is dead
    plain = ev.equity("holdem", ["AA", "QQ"], board="KcKdKh")
    assert weighted.samples == pytest.approx(plain.samples * 0.5)
    assert weighted.players[0].equity == pytest.approx(plain.players[0].equity, abs=1e-15)
    assert Fraction(plain.players[0].equity).limit_denominator(10**9) == plain.fractions[0]


@pytest.mark.slow
@pytest.mark.longest
def test_weighted_omaha_flop_study_equals_equity():
    hands = ["AsAhKsKh,AdAcKdKc:0.5,AsAcKsKc:0.25", "QsQhJsJh,QdQcTdTc"]
    study = flop_study("omaha", hands, progress=False)
    whole = ev.equity("omaha", hands)
    for got, want in zip(study.equity(), whole.players):
        assert got == pytest.approx(want.equity, abs=1e-12)


# --- refusals before any work, from Python and the command line -----------------------




def run_cli(args, capsys):
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


def quickly(call, *args, **kwargs):
    start = time.monotonic()
    with pytest.raises(EvaluatorError) as info:
        call(*args, **kwargs)
    assert time.monotonic() - start < 10
    return str(info.value)


def test_a_sampled_flop_study_too_wide_to_weigh_is_refused_before_any_flop(monkeypatch):
    from evaluator.studies import flops

    monkeypatch.setattr(flops, "STUDY_SECONDS", 30.0)
    why = quickly(flop_study, "omaha6", ["10%", "40%"], trials=200)   # 20.4 M combos
    assert re.search(r"would take about \d+ s;", why) and "'random'" in why
    monkeypatch.setattr(flops, "STUDY_SECONDS", 5.0)
    why = quickly(flop_study, "omaha5", ["40%", "60%"], trials=200)   # about 11 s
    assert re.search(r"would take about \d+ s;", why)


@pytest.mark.parametrize("game_name, first, second", [
    ("tahoe", "10%", "40%:0.5,3%"), ("omaha", "AA**", "KK**,QQ**:0.25"),
    ("the", "20%", "random"), ("holdem", "QQ+", "22+")])
def test_wide_ranges_are_weighed_by_card_removal_as_pair_by_pair(game_name, first, second,
                                                                 monkeypatch):
    """Each flop's weighted deals, by card removal over every combo's subsets, equal the
    sum over every pair of combos (the dense matrix), to the last bit."""
    import itertools

    from evaluator.ranges import Range
    from evaluator.studies import flop_weights

    g = ev.game(game_name)
    ranges = [Range(first, g), None if second == "random" else Range(second, g)]
    some = list(itertools.islice(itertools.combinations(g.deck, 3), 0, 22100, 997))
    used = np.array([g.deck[-1]], np.int64)
    dense = flop_weights.deal_weights(g, ranges, some, used)
    monkeypatch.setattr(flop_weights, "DENSE_PAIRS", 0)
    assert flop_weights.deal_weights(g, ranges, some, used) == dense


@pytest.mark.slow
def test_random_is_never_listed_by_a_sampled_flop_study():
    # 6-card Omaha's 'random' (18 M hands) is counted, not listed: the study runs
    study = flop_study("omaha6", ["AsAhKsKh2c3d", "random"], trials=200, seed=1, dead="")
    assert not study.exact and len(study.rows) > 100
    assert 0.4 < study.equity()[0] < 0.9


@pytest.mark.parametrize("game, board", [("teen_patti", "2c"), ("the", "2c7d9hTsJs"),
                                         ("holdem", "2c7d"), ("omaha", "2c7d9hTsJsQs")])
def test_a_distribution_board_that_is_not_a_street_is_refused(game, board):
    why = quickly(equity_distribution, game, "random", "random", board)
    assert "not a street" in why


def test_an_unbounded_distribution_is_refused_with_an_estimate():
    why = quickly(equity_distribution, "omaha6_8", "AA", "15%", "2c7d9h")
    assert "would take about" in why and "narrow" in why


def test_a_refused_distribution_names_the_sweeps_estimate_where_there_is_one():
    """6-card Omaha hi-lo 10% against 40% on a flop: both ways past their limits, and the
    message gives both (the combo sweep's about 1.5 hours, not only weeks of queries)."""
    why = quickly(equity_distribution, "omaha6_8", "10%", "40%", "2c7d9h")
    assert re.search(r"about [\d,]+ s \(one equity query per combo, more than the 120 s "
                     r"allowed\) or [\d,]+ s \(the combo sweep of each runout, more than "
                     r"the 600 s allowed\)", why), why


@pytest.mark.parametrize("game, hands", [("omaha6", "15%"), ("omaha6", "AA****,KK****,QQ****")])
def test_an_unbounded_breakdown_is_refused_with_an_estimate(game, hands, monkeypatch):
    from evaluator.studies import breakdown
    monkeypatch.setattr(breakdown, "BREAKDOWN_SECONDS", 0.1)   # every game's fits in 60 s
    why = quickly(range_breakdown, game, hands, "2c7d9h")
    assert "would take about" in why


@pytest.mark.parametrize("args, flag", [
    (["study", "distribution", "AA", "KK", "--buckets", "1000000000"], "--buckets"),
    (["study", "distribution", "AA", "KK", "--plot", "x.gif"], "--plot"),
    (["study", "breakdown", "AA", "--board", "2c7d9h", "--plot", "/no/such/dir/x.png"],
     "--plot"),
    (["study", "flops", "AA", "KK", "--out", "x.txt"], "--out"),
    (["study", "breakdown", "AA", "--board", "2c7d9h", "--out", "/no/such/dir/x.csv"],
     "--out"),
])
def test_bad_study_options_are_refused_before_the_work(args, flag, capsys, tmp_path,
                                                        monkeypatch):
    monkeypatch.chdir(tmp_path)
    start = time.monotonic()
    code, out, err = run_cli(args, capsys)
    assert code == 2 and flag in err and len(err.strip().splitlines()) == 1
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("args", [
    ["study", "flops", "AA", "KK", "--board", "2c7d9h"],
    ["study", "flops", "AA", "KK", "--buckets", "5"],
    ["study", "distribution", "AA", "KK", "--trials", "100"],
    ["study", "distribution", "AA", "KK", "--seed", "1"],
    ["study", "distribution", "AA", "KK", "--scheduler", "tcp://127.0.0.1:9"],
    ["study", "distribution", "AA", "KK", "--resume"],
    ["study", "breakdown", "AA", "--board", "2c7d9h", "--trials", "100"],
    ["study", "breakdown", "AA", "--board", "2c7d9h", "--buckets", "5"],
])
def test_an_option_a_study_does_not_use_is_refused(args, capsys):
    code, out, err = run_cli(args, capsys)
    assert code == 2 and "unrecognized arguments" in err


def test_study_help_shows_only_its_options(capsys):
    with pytest.raises(SystemExit):
        cli.main(["study", "breakdown", "--help"])
    text = capsys.readouterr().out
    assert "--board" in text and "--trials" not in text and "--scheduler" not in text


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".json", ".parquet"])
def test_every_study_is_written_and_read_back(suffix, tmp_path, capsys):
    pd = pytest.importorskip("pandas")
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    read = {".csv": pd.read_csv, ".jsonl": lambda p: pd.read_json(p, lines=True),
            ".json": pd.read_json, ".parquet": pd.read_parquet}[suffix]
    d = equity_distribution("holdem", "QQ+,AKs", "JJ,TT", "2c7d9h")
    b = range_breakdown("holdem", "QQ+,AKs,T9s", "Ah7d2c")
    for study, key in ((d, "equity"), (b, "share")):
        path = study.write(tmp_path / f"s{suffix}")
        back = read(path)
        assert len(back) == len(study.rows)
        assert back[key].tolist() == pytest.approx([r[key] for r in study.rows])
        assert study.to_frame()[key].tolist() == [r[key] for r in study.rows]
    if suffix == ".json":
        assert isinstance(json.loads((tmp_path / "s.json").read_text()), list)
    for args in (["study", "distribution", "QQ+,AKs", "JJ,TT", "--board", "2c7d9h"],
                 ["study", "breakdown", "QQ+,AKs,T9s", "--board", "Ah7d2c"]):
        out = tmp_path / f"cli{suffix}"
        code, _, err = run_cli([*args, "--out", str(out), "--no-progress", "--overwrite"],
                               capsys)
        assert code == 0 and "written to" in err
        assert len(read(out)) > 0


def test_ctrl_c_in_a_flop_study_says_what_is_kept(monkeypatch, tmp_path, capsys):
    from evaluator.errors import BatchInterrupted
    from evaluator.studies import flops

    def stop(*args, **kwargs):
        raise BatchInterrupted(12, 1755, kwargs["out"])
    monkeypatch.setattr(flops, "batch_equity", stop)
    out = tmp_path / "f.csv"
    # two known hands go query by query (the batch), where rows are saved as they finish
    code, _, err = run_cli(["study", "flops", "AsKs", "QhQd", "--out", str(out)], capsys)
    assert code == 130 and "12 of 1,755" in err and "--resume" in err
    assert "nothing was written" not in err
    code, _, err = run_cli(["study", "flops", "AsKs", "QhQd"], capsys)
    assert code == 130 and "nothing was written" in err


def test_ctrl_c_in_a_swept_flop_study_says_nothing_was_written(monkeypatch, tmp_path, capsys):
    """Ranges go on the vectors (a second or two, no rows until the end): Ctrl-C there
    keeps nothing, and says so."""
    from evaluator import flop_vectors as vectors

    def stop(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(vectors, "flop_totals", stop)
    out = tmp_path / "f.csv"
    code, _, err = run_cli(["study", "flops", "AA", "KK", "--out", str(out)], capsys)
    assert code == 130 and "nothing was written" in err and not out.exists()


# --- numbers read exactly, and work bounded before it starts -----------------------------

def test_seeds_are_exact_integers_or_refused():
    from evaluator.batch.queries import whole_number as _whole
    assert whole("1e30") == 10 ** 30 and _whole("seed", "1e30") == 10 ** 30
    for bad in ("1.5", "1e-3", "nan", "inf"):
        with pytest.raises(Exception, match="whole number"):
            whole(bad)
    with pytest.raises(EvaluatorError, match="not an exact integer"):
        _whole("seed", 1e30)
    a = ev.equity("holdem", ["AsKs", "QhQd"], trials=20_000, seed=10 ** 30)
    b = ev.equity("holdem", ["AsKs", "QhQd"], trials=20_000, seed=10 ** 30 + 1)
    assert a.seed == 10 ** 30 and a.players[0].equity != b.players[0].equity


@pytest.mark.parametrize("call", [
    lambda: ev.equity("holdem", ["AsKs", "QhQd"], trials=10 ** 12),
    lambda: ev.equity("omaha", ["AsAhKsKh", "random"], trials=10 ** 11),
    lambda: flop_study("holdem", ["AA", "KK"], trials=10 ** 9, progress=False),
])
def test_trials_past_ten_minutes_at_the_fastest_rate_are_refused_at_once(call):
    start = time.monotonic()
    with pytest.raises(EvaluatorError, match="would take at least"):
        call()
    assert time.monotonic() - start < 10


def test_a_trillion_trials_from_the_command_line_is_one_line(capsys):
    code, out, err = run_cli(["equity", "holdem", "AsKs", "QhQd", "--trials", "1e12"], capsys)
    assert code == 2 and "--trials" in err and "--stderr" in err
    assert len(err.strip().splitlines()) == 1


# --- words a user reads -------------------------------------------------------------------

def test_teen_patti_shows_its_best_three(capsys):
    code, out, _ = run_cli(["eval", "teen_patti", "As2d3c"], capsys)
    assert code == 0 and "best three:" in out and "best five" not in out


def test_a_monte_carlo_table_names_its_seed(capsys):
    code, out, _ = run_cli(["equity", "holdem", "AsKs", "QhQd", "--trials", "1e4",
                            "--seed", "7"], capsys)
    assert code == 0 and "seed 7" in out


def test_cli_errors_name_the_command_not_the_python_function(capsys):
    code, _, err = run_cli(["eval", "pineapple", "AsKsQd", "2c7d9h"], capsys)
    assert code == 2 and "'evaluator discard'" in err and "discard_equity" not in err


def test_a_range_grid_leaves_the_hands_outside_it_neutral(monkeypatch):
    from evaluator.cli import commands as cli_module
    printed = []
    monkeypatch.setattr(cli_module, "_console",
                        lambda: type("C", (), {"print": lambda self, t: printed.append(t)})())
    cli_module.print_grid({"AA": 1.0, "KK": 0.0}, "share", composition=True)
    cli_module.print_grid({"AA": 1.0, "KK": 0.0}, "equity")
    composition, equity_grid = ([str(c) for row in t.columns for c in row._cells]
                                for t in printed)
    assert any("KK" in c and "dim" in c for c in composition)
    assert not any("red" in c for c in composition)
    assert any("KK" in c and "red" in c for c in equity_grid)


def test_the_streets_plot_is_labelled_with_the_cards(tmp_path):
    pytest.importorskip("matplotlib")
    from evaluator import plots
    results = ev.equity_by_street("holdem", ["AsKs", "QhQd"], "2c7d9hTsJs")
    path = plots.streets(results, tmp_path / "s.png")
    assert path.exists()
    fig_labels = []
    real = plots.pyplot().Axes.plot

    def spy(self, labels, *args, **kwargs):
        fig_labels.extend(labels)
        return real(self, labels, *args, **kwargs)
    import matplotlib.axes
    matplotlib.axes.Axes.plot = spy
    try:
        plots.streets(results, tmp_path / "t.png")
    finally:
        matplotlib.axes.Axes.plot = real
    assert "flop\n2c7d9h" in fig_labels and "river\nJs" in fig_labels


def test_a_flop_study_of_one_hand_says_what_the_study_needs(capsys):
    code, _, err = run_cli(["study", "flops", "AA"], capsys)
    assert code == 2 and "a flop study takes two or more hands" in err


@pytest.mark.slow
def test_weighted_studies_with_dead_cards_equal_equity():
    hands, dead = ["AA:0.5,KK", "QQ,JJ:0.2"], "KcQd"
    study = flop_study("holdem", hands, dead=dead, progress=False)
    whole = ev.equity("holdem", hands, dead=dead)
    assert study.equity()[0] == pytest.approx(whole.players[0].equity, abs=1e-12)
    d = equity_distribution("holdem", "AA:0.5,KK", "QQ,JJ:0.2", "2c7d9h", dead)
    on_flop = ev.equity("holdem", hands, "2c7d9h", dead=dead)
    assert d.mean == pytest.approx(on_flop.players[0].equity, abs=1e-12)


def test_studies_name_each_hand_high_card_first_as_the_rest_of_the_output_does():
    from evaluator.studies import equity_distribution
    from evaluator.studies.breakdown import range_breakdown
    d = equity_distribution("holdem", "AKs", "QQ", "2c7d9h", progress=False)
    assert sorted(row["hand"] for row in d.rows) == ["AcKc", "AdKd", "AhKh", "AsKs"]
    b = range_breakdown("holdem", "AKs", "2c7d9h", progress=False)
    named = [b.combos(row["class"]) for row in b.rows if row["combos"]]
    assert {h for hands in named for h in hands} == {"AcKc", "AdKd", "AhKh", "AsKs"}
