"""The runout study: each card's row is the equity once it has fallen, and the rows'
weighted mean is the equity on the board itself, exactly; groups, exports, the plot and
the command."""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import evaluator as ev
from evaluator.cards import parse_cards
from evaluator.errors import CardError, EvaluatorError, HandError, RangeError
from evaluator.studies.runouts import runout_study


@pytest.mark.parametrize("game, hands, board, dead", [
    ("holdem", ["QQ+,AKs", "22+,A2s+,KTo+"], "2c7d9h", ""),
    ("holdem", ["AsKs", "QhQd"], "2c7d9hTs", ""),
    ("holdem", ["AA:0.5,KK,AhKh:0.25", "random"], "Kc8h8d", "2s3s"),
    ("short_deck", ["AA,KK:0.4", "QQ+,AKs"], "6c7d8h", ""),
    ("holdem", ["QQ+", "AKs", "JcTc"], "2c7d9h", ""),          # three-way: card by card
    pytest.param("omaha", ["AA$ds", "KK**"], "Ah7d2c9s", "",  # Omaha turn: river sweeps
                 marks=pytest.mark.slow),
    pytest.param("tahoe", ["AAK,KKQ:0.5", "QQ*,JJ*"], "2c7d9h", "Ks",  # each runout once
                 marks=pytest.mark.slow),
    pytest.param("the", ["AAK,KKQ", "QQ*:0.5,JJ*"], "2c7d", "", marks=pytest.mark.slow),
    pytest.param("omaha8", ["A2**", "KK**"], "Ah7d2c9s", "3s",  # pot shares, runout by runout
                 marks=pytest.mark.slow),
])
def test_the_rows_add_up_to_the_equity_on_the_board(game, hands, board, dead):
    study = runout_study(game, hands, board, dead, progress=False)
    whole = ev.equity(game, hands, board, dead, exact=True)
    assert study.equity() == pytest.approx([p.equity for p in whole.players], abs=1e-12)
    # a complete board is dealt once for each of its cards still to come
    to_come = max(ev.game(game).streets) - len(parse_cards(board))
    assert sum(r["weight"] for r in study.rows) == pytest.approx(whole.samples * to_come,
                                                                 rel=1e-12)
    known = set(parse_cards(board).tolist()) | set(parse_cards(dead).tolist())
    assert not {c for r in study.rows for c in parse_cards(r["card"]).tolist()} & known


@pytest.mark.parametrize("game, hands, board", [
    ("holdem", ["QQ+,AKs:0.5", "22+,A2s+,KTo+"], "2c7d9h"),
    ("holdem", ["QQ+", "AKs", "JcTc"], "2c7d9h"),
    ("omaha", ["AsAdKcQc", "KK**:0.5,T9**"], "Ah7d2c9s"),
    ("tahoe", ["AAK,KKQ:0.5", "QQ*,JJ*"], "2c7d9h"),
    ("the", ["AAK,KKQ", "QQ*:0.5,JJ*"], "2c7d"),
    ("omaha8", ["A2**", "KK**,A3**:0.5"], "Ah7d2c9s"),
])
@pytest.mark.slow
def test_each_row_is_the_equity_once_its_card_has_fallen(game, hands, board):
    study = runout_study(game, hands, board, progress=False)
    for row in study.rows[::11]:
        after = ev.equity(game, hands, board + row["card"], exact=True)
        assert [row[f"p{p}_equity"] for p in range(1, len(hands) + 1)] == pytest.approx(
            [p.equity for p in after.players], abs=1e-12)
        assert row["weight"] == pytest.approx(after.samples, rel=1e-12)


def test_unweighted_rows_count_whole_deals_and_add_up_exactly():
    study = runout_study("holdem", ["AsKs", "QQ"], "2c7d9h", progress=False)
    whole = ev.equity("holdem", ["AsKs", "QQ"], "2c7d9h", exact=True)
    assert all(r["weight"] == int(r["weight"]) for r in study.rows)
    # each row's pot won is a multiple of 1/2 deal: summed as fractions, the exact equity
    won = sum(Fraction(round(2 * r["p1_equity"] * r["weight"]), 2) for r in study.rows)
    assert won / sum(int(r["weight"]) for r in study.rows) == whole.fractions[0]
    assert sum(int(r["weight"]) for r in study.rows) == 2 * whole.samples   # turn and river


def test_groups_by_rank_and_suit():
    study = runout_study("holdem", ["QQ+,AKs", "22+"], "2c7d9h", progress=False)
    ranks, suits = study.by_rank(), study.by_suit()
    assert [r["rank"] for r in ranks] == list("AKQJT98765432")
    assert [s["suit"] for s in suits] == list("cdhs")
    for groups in (ranks, suits):
        assert sum(g["cards"] for g in groups) == len(study.rows) == 49
        assert sum(g["share"] for g in groups) == pytest.approx(1.0)
        mean = sum(g["p1_equity"] * g["weight"] for g in groups) / sum(g["weight"]
                                                                       for g in groups)
        assert mean == pytest.approx(study.equity()[0], abs=1e-12)
    assert next(r for r in ranks if r["rank"] == "9")["cards"] == 3


def test_write_read_back_and_notebook(tmp_path):
    study = runout_study("holdem", ["AsKs", "QhQd"], "2c7d9h", progress=False)
    study.write(tmp_path / "r.json")
    assert json.loads((tmp_path / "r.json").read_text()) == study.rows
    study.write(tmp_path / "r.csv")
    lines = (tmp_path / "r.csv").read_text().splitlines()
    assert lines[0] == "card,rank,suit,weight,p1_equity,p2_equity" and len(lines) == 46
    assert "<table>" in study._repr_html_() and "As" not in [r["card"] for r in study.rows]
    pd = pytest.importorskip("pandas")
    assert study.to_frame().shape == (45, 6)
    pytest.importorskip("pyarrow")
    study.write(tmp_path / "r.parquet")
    assert pd.read_parquet(tmp_path / "r.parquet").shape == (45, 6)


@pytest.mark.parametrize("call, error, match", [
    (lambda: runout_study("holdem", ["AA", "KK"], "Ah7d"), EvaluatorError, "3 or 4 cards, got 2"),
    (lambda: runout_study("holdem", ["AA", "KK"], "Ah7d2c9sTs"), EvaluatorError, "got 5"),
    (lambda: runout_study("holdem", ["AA"], "Ah7d2c"), HandError, "two or more"),
    (lambda: runout_study("holdem", "AA,KK", "Ah7d2c"), HandError, "a list"),
    (lambda: runout_study("holdem", ["AsKs", "QhQd"], "As7d2c"), CardError, "duplicate card 'As'"),
    (lambda: runout_study("holdem", ["AA", "KK"], "Ah7d2c", "7d"), CardError, "duplicate"),
    (lambda: runout_study("teen_patti", ["AKQ", "234"], ""), EvaluatorError,
     "no board"),
    (lambda: runout_study("holdem", ["AsAh", "AdAc"], "KsKh2c", ""), None, None),
    (lambda: runout_study("holdem", ["AsAh", "AsAd"], "KsKh2c"), CardError, "duplicate card 'As'"),
    (lambda: runout_study("short_deck", ["AA", "KK"], "5c7d8h"), CardError,
     "not in the short_deck deck"),
])
def test_bad_calls_are_refused_before_any_work(call, error, match):
    if error is None:
        assert call().rows                      # legal: both aces pairs are live
        return
    with pytest.raises(error, match=match):
        call()


def test_a_range_with_no_live_combo_is_refused():
    with pytest.raises(RangeError, match="no live combo"):
        runout_study("holdem", ["AsAh", "KK"], "AdAcKc", "KsKh", progress=False)


@pytest.mark.slow
def test_the_command_prints_writes_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    image, rows = tmp_path / "r.png", tmp_path / "r.csv"
    done = subprocess.run([sys.executable, "-m", "evaluator", "study", "runouts", "QQ+,AKs",
                           "22+", "--board", "2c7d9h", "--plot", str(image), "--out", str(rows),
                           "--no-progress"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "61.54%" in done.stdout and "49 cards written" in done.stderr
    assert image.stat().st_size > 10_000 and len(rows.read_text().splitlines()) == 50
    bad = subprocess.run([sys.executable, "-m", "evaluator", "study", "runouts", "AA", "KK",
                          "--board", "2c7d", "--plot", str(tmp_path / "x.gif")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "x.gif" in bad.stderr


def test_the_vectors_and_the_engine_agree_card_for_card():
    """Heads-up hold'em runs on the sweep; the same spot asked card by card through
    equity() gives the same rows."""
    from evaluator.studies import runouts
    g = ev.game("holdem")
    board = parse_cards("2c7d9h")
    swept = runout_study("holdem", ["QQ+,AKs:0.5", "22+"], board, progress=False)
    asked = runouts._asked(g, ["QQ+,AKs:0.5", "22+"], board, np.empty(0, np.uint8),
                           np.empty(0, np.uint8), None, False)
    assert [r["card"] for r in swept.rows] == [r["card"] for r in asked]
    for mine, theirs in zip(swept.rows, asked):
        assert mine["weight"] == pytest.approx(theirs["weight"], rel=1e-12)
        assert mine["p1_equity"] == pytest.approx(theirs["p1_equity"], abs=1e-12)


@pytest.mark.parametrize("game, hands, board", [
    ("omaha8", ["A2**", "KK**:0.5,A3**"], "Ah7d2c9s"),     # pot shares, runout by runout
    ("tahoe", ["AAK,KKQ:0.5", "QQ*,JJ*"], "2c7d9hKs"),
])
def test_a_study_runout_by_runout_is_the_same_on_any_thread_count(game, hands, board):
    """The runouts are summed in fixed chunks, each on one thread (weighted sums there
    included: not BLAS's, whose own threads would spin into the sweeps'): one thread and
    two give the same rows to the bit."""
    one = runout_study(game, hands, board, threads=1, progress=False)
    two = runout_study(game, hands, board, threads=2, progress=False)
    assert one.rows == two.rows
    assert len(one.rows) > 40


@pytest.mark.slow
def test_a_study_card_by_card_reads_only_the_first_ranges_combos():
    """5-card Omaha on a flop: each turn card's sweep (``combo_sums`` with the first
    range wanted, the other combos never walked) gives the exact equity after that card."""
    hands = ["AAKK*,AAQQ*:0.5", "QQJJ*,T9876"]
    study = runout_study("omaha5", hands, "2c7d9h", progress=False)
    assert len(study.rows) == 49
    for row in study.rows[::9]:
        after = ev.equity("omaha5", hands, "2c7d9h" + row["card"], exact=True)
        assert [row["p1_equity"], row["p2_equity"]] == pytest.approx(
            [p.equity for p in after.players], abs=1e-12)
