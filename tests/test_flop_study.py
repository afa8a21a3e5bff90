"""The flop study and the equity distribution: their rows add back up to the pre-flop (or
range) equity exactly, each row is the equity of its flops, and the rows do not depend on
where they run."""
from __future__ import annotations

import importlib.util
import random

import numpy as np
import pytest

from evaluator import equity
from evaluator.cards import format_cards, parse_cards
from evaluator.studies import equity_distribution
from evaluator.studies.flops import flop_study, texture


@pytest.mark.parametrize("hands, dead", [
    (["AsKs", "QhQd"], ""),
    (["AKs", "QQ"], ""),
    (["AsKs", "QQ+"], "2c"),
    (["AKs,QQ", "JJ", "T9s"], ""),
])
@pytest.mark.slow
def test_the_rows_add_up_to_the_preflop_equity_exactly(hands, dead):
    study = flop_study("holdem", hands, dead=dead, progress=False)
    assert study.fractions() == equity("holdem", hands, dead=dead, exact=True).fractions


@pytest.mark.slow
def test_quads_and_ranges_leave_the_symmetry_classes_right():
    study = flop_study("holdem", ["AKs", "QQ"], progress=False)
    assert sum(r["flops"] for r in study.rows) == 22_100 - 4     # QQ cannot meet QQQ flops
    assert len(study.rows) == 1_754
    assert len(flop_study("holdem", ["QQ+,AKs", "random"], progress=False, threads=2).rows) == 1_755


def test_every_row_is_the_equity_of_each_of_its_flops():
    study = flop_study("holdem", ["AKs", "QQ"], progress=False)
    rng = random.Random(7)
    for row in rng.sample(study.rows, 12):
        flop = parse_cards(row["flop"]).tolist()
        perm = rng.sample(range(4), 4)                            # any renaming of suits
        other = format_cards(sorted(4 * (c >> 2) + perm[c & 3] for c in flop), sep="")
        direct = equity("holdem", ["AKs", "QQ"], other)
        assert direct.players[0].equity == pytest.approx(row["p1_equity"], abs=1e-12)
        assert direct.samples * row["flops"] == row["weight"]


@pytest.mark.slow
def test_sampled_rows_do_not_depend_on_threads_and_land_near_exact():
    one = flop_study("holdem", ["AKs", "QQ"], trials=2_000, seed=3, progress=False, threads=1)
    two = flop_study("holdem", ["AKs", "QQ"], trials=2_000, seed=3, progress=False, threads=2)
    assert one.rows == two.rows
    exact = equity("holdem", ["AKs", "QQ"]).players[0].equity
    w = np.array([r["weight"] for r in one.rows])
    se = np.array([r["p1_stderr"] for r in one.rows])
    error = float(np.sqrt(((w / w.sum()) ** 2 * se ** 2).sum()))
    assert abs(one.equity()[0] - exact) < 4 * error


@pytest.mark.slow
def test_omaha_flops_are_sampled_with_their_deal_weights():
    study = flop_study("omaha", ["AA**", "random"], trials=1_000, seed=1, progress=False)
    assert not study.exact and len(study.rows) == 1_754          # AAA leaves AA** no combo
    direct = equity("omaha", ["AA**", "random"], trials=1_000_000, seed=1).players[0]
    assert abs(study.equity()[0] - direct.equity) < 0.004


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                    reason="needs dask.distributed (pip install '.[cluster]')")
@pytest.mark.slow
def test_a_cluster_gives_the_local_rows():
    from distributed import LocalCluster
    local = flop_study("holdem", ["AKs", "QQ"], trials=500, seed=4, progress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", silence_logs=50) as cluster:
        remote = flop_study("holdem", ["AKs", "QQ"], trials=500, seed=4, progress=False,
                            scheduler=cluster.scheduler_address)
    assert remote.rows == local.rows


@pytest.mark.slow
def test_textures_and_writing(tmp_path):
    assert texture(parse_cards("AsKs2s").tolist())["suits"] == "monotone"
    assert texture(parse_cards("As2d3h").tolist())["connectedness"] == "connected"  # A-2-3
    assert texture(parse_cards("7s7d7h").tolist())["pairing"] == "trips"
    study = flop_study("holdem", ["AsKs", "QhQd"], progress=False)
    by = study.by_texture()
    for aspect in ("suits", "pairing", "connectedness", "high card"):
        assert sum(r["share"] for r in by if r["aspect"] == aspect) == pytest.approx(1.0)
    study.write(tmp_path / "f.csv")
    study.write(tmp_path / "f.jsonl")
    assert len((tmp_path / "f.jsonl").read_text().splitlines()) == len(study.rows)
    assert "<table>" in study._repr_html_()


@pytest.mark.parametrize("game, hands, against, board", [
    ("holdem", "random", "QQ+,AKs", "2c7d9h"),
    ("holdem", "QQ+,AKs:0.5,T9s", "22+,A2s+", "Ah7d2c"),
    ("omaha", "AA$ds", "KK**", "2c7d9hTs"),
])
@pytest.mark.slow
def test_the_distribution_averages_to_the_range_equity(game, hands, against, board):
    d = equity_distribution(game, hands, against, board, progress=False)
    direct = equity(game, [hands, against], board, exact=True).players[0].equity
    assert d.mean == pytest.approx(direct, abs=1e-12)
    assert (np.diff(d.equities) >= 0).all()
    assert sum(b["share"] for b in d.buckets(7)) == pytest.approx(1.0)
    assert d.percentile(0) == d.equities[0] and d.percentile(100) == d.equities[-1]


@pytest.mark.slow
def test_the_study_commands_and_their_plots(tmp_path):
    pytest.importorskip("matplotlib")
    import subprocess
    import sys
    for kind, args in (("flops", ["AKs", "QQ"]),
                       ("distribution", ["QQ+,AKs", "22+,A2s+", "--board", "2c7d9h"]),
                       ("breakdown", ["QQ+,AKs,T9s", "--board", "Ah7d2c"])):
        image = tmp_path / f"{kind}.png"
        done = subprocess.run([sys.executable, "-m", "evaluator", "study", kind, *args,
                               "--no-progress", "--plot", str(image)],
                              capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert image.stat().st_size > 10_000


@pytest.mark.slow
def test_parquet_and_dataframes(tmp_path):
    pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    study = flop_study("holdem", ["AsKs", "QhQd"], progress=False)
    study.write(tmp_path / "f.parquet")
    frame = pd.read_parquet(tmp_path / "f.parquet")
    assert len(frame) == len(study.rows) and list(frame.columns) == list(study.rows[0])
    assert study.to_frame().shape == frame.shape


def test_notebook_tables():
    from evaluator import Range
    assert "<table>" in equity("omaha8", ["Ah2h3sKs", "AdKdQcJc"], "4c5d9s")._repr_html_()
    assert "AKs" in Range("QQ+,AKs")._repr_html_()
    assert "double-suited" in Range("AA$ds", "omaha")._repr_html_()
    d = equity_distribution("holdem", "QQ+,AKs", "22+,A2s+", "2c7d9h", progress=False)
    assert "mean" in d._repr_html_()


@pytest.mark.slow
@pytest.mark.serial
def test_an_interrupted_study_resumes_from_its_rows(tmp_path):
    import json
    import subprocess
    import sys
    out = tmp_path / "flops.csv"
    rows_file = tmp_path / "flops.csv.rows.jsonl"
    full = flop_study("holdem", ["AKs", "QQ"], trials=300, seed=9, progress=False)
    # as if stopped part-way: the first 500 flops' rows, and half a line
    flop_study("holdem", ["AKs", "QQ"], trials=300, seed=9, progress=False, out=rows_file)
    lines = rows_file.read_text().splitlines(keepends=True)
    rows_file.write_text("".join(lines[:500]) + lines[500][:40])
    done = subprocess.run([sys.executable, "-m", "evaluator", "study", "flops", "AKs", "QQ",
                           "--trials", "300", "--seed", "9", "--out", str(out), "--resume",
                           "--no-progress", "--json"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == \
        json.loads(json.dumps(full.rows))
    # the flops' rows stay beside the study, so that --resume of a finished one computes none
    assert out.is_file() and len(rows_file.read_text().splitlines()) >= len(full.rows)


def test_batches_write_parquet(tmp_path):
    pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    from evaluator import batch_equity
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"}, {"hands": "AKs vs QQ"}]
    rows = batch_equity(queries, out=tmp_path / "r.parquet", progress=False)
    frame = pd.read_parquet(tmp_path / "r.parquet")
    assert frame["p1_equity"].tolist() == [r["p1_equity"] for r in rows]
    assert not (tmp_path / "r.parquet.rows.jsonl").exists()


@pytest.mark.slow
def test_flops_no_deal_fits_are_left_out_and_bad_calls_refused_first():
    from evaluator.errors import EvaluatorError, HandError, RangeError
    study = flop_study("holdem", ["AsAh", "AA"])      # AA meets none of AsAh's flops
    assert study.fractions() == equity("holdem", ["AsAh", "AA"], exact=True).fractions
    with pytest.raises(RangeError, match="no deal fits"):
        flop_study("holdem", ["AsAh", "AA"], dead="AcAd", progress=False)
    with pytest.raises(EvaluatorError, match="takes two hands"):
        flop_study("holdem", ["QQ+", "JJ", "TT"], trials=100, progress=False)
    with pytest.raises(HandError, match="one entry per player"):
        flop_study("holdem", "AsAh,KK", progress=False)
    sampled = flop_study("omaha", ["AsAhKsKh", "random"], trials=50, seed=1, progress=False)
    assert not sampled.exact and len(sampled.rows) > 5000


def test_distributions_weigh_sampled_combos_by_their_deals():
    from evaluator.errors import RangeError
    d = equity_distribution("omaha", "AsAhKsKh,9c9d8c8d", "KK**,QQ**", progress=False)
    assert d.weights[0] != d.weights[1]                       # card removal counted
    direct = equity("omaha", ["AsAhKsKh,9c9d8c8d", "KK**,QQ**"], trials=2_000_000, seed=1)
    assert abs(d.mean - direct.players[0].equity) < 0.003
    with pytest.raises(RangeError, match="no deal fits"):
        equity_distribution("holdem", "AsAh", "AhAd", "2c3c4c", progress=False)


@pytest.mark.parametrize("hands, dead", [
    pytest.param(["QQ+,AKs:0.5", "random"], "", marks=pytest.mark.slow),
    pytest.param(["AKs", "QQ"], "2c", marks=pytest.mark.slow),
    pytest.param(["AsKs", "JJ-99,AQo:0.3"], "", marks=pytest.mark.slow),
    (["AA:0.5,KK", "QQ,JJ:0.2"], "KcQd"),              # dead cards the ranges hold
])
def test_the_vectors_give_the_rows_a_query_per_flop_gives(hands, dead):
    """Every 37th flop class of the swept study against the row a query for that flop
    gives (the whole study query by query: ``pytest -m slow``)."""
    from evaluator import batch_equity
    swept = flop_study("holdem", hands, dead=dead, progress=False, vectors=True)
    picked = swept.rows[::37]
    queries = [{"game": "holdem", "hands": hands, "board": r["flop"], "dead": dead,
                "exact": True, "trials": None} for r in picked]
    asked = batch_equity(queries, threads=1, progress=False, seed=0)
    for mine, theirs in zip(picked, asked):
        theirs = {k: v for k, v in theirs.items()
                  if k not in ("id", "game", "hands", "board", "dead")}
        assert [k for k in mine if k not in ("flop", "flops", "weight")] == list(theirs)
        for key, value in theirs.items():
            if isinstance(value, float):
                assert mine[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key
            else:
                assert mine[key] == value, key


@pytest.mark.slow
@pytest.mark.parametrize("hands, dead", [(["AKs", "QQ"], "2c"),
                                         (["AA:0.5,KK", "QQ,JJ:0.2"], "KcQd")])
def test_the_whole_swept_study_is_the_study_query_by_query(hands, dead):
    swept = flop_study("holdem", hands, dead=dead, progress=False, vectors=True)
    asked = flop_study("holdem", hands, dead=dead, progress=False, vectors=False)
    assert [r["flop"] for r in swept.rows] == [r["flop"] for r in asked.rows]
    for mine, theirs in zip(swept.rows, asked.rows):
        assert mine.keys() == theirs.keys()
        for key, value in theirs.items():
            if isinstance(value, float):
                assert mine[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key
            else:
                assert mine[key] == value, key
    assert swept.fractions() == asked.fractions()


def test_the_vectors_are_refused_where_they_do_not_apply():
    from evaluator.errors import EvaluatorError
    for hands, game in ((["AA", "KK", "QQ"], "holdem"), (["AA", "KK"], "omaha")):
        with pytest.raises(EvaluatorError, match="vectors=True takes two hands"):
            flop_study(game, hands, progress=False, vectors=True)


def test_a_sampled_flop_study_takes_the_stream_version():
    """``version`` as ``equity``'s: each flop's row is the query's answer in that stream,
    and a stream that does not exist is refused even where the study would be exact."""
    from evaluator import EvaluatorError
    for version in (1, 2):
        study = flop_study("holdem", ["QQ+,AKs", "random"], trials=3000, seed=2, threads=1,
                           version=version)
        row = study.rows[0]
        direct = equity("holdem", ["QQ+,AKs", "random"], row["flop"], trials=3000,
                        seed=row["seed"], version=version)
        assert row["p1_equity"] == direct.players[0].equity and row["version"] == version
    with pytest.raises(EvaluatorError, match="version must be 1 or 2"):
        flop_study("holdem", ["AsKs", "QhQd"], progress=False, version=3)
