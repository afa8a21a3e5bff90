"""Output files: every path checked before any work (writable, by creating a file there),
an existing file never overwritten by a run that did not ask (--resume / --overwrite),
and --resume of a finished study or batch computing nothing."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import evaluator as ev
import evaluator.batch
import evaluator.bench
import evaluator.studies
import evaluator.studies.runouts
from evaluator import cli
from evaluator.errors import EvaluatorError

# a folder no one can create files in, root included (the permission bits stop no root)
NOWHERE = Path("/proc")
needs_proc = pytest.mark.skipif(not NOWHERE.is_dir(), reason="no /proc on this system")

COMMANDS = {   # a command with an output path, and the function it would work in
    "study flops": (["study", "flops", "QQ+,AKs", "random"], "--out", ".csv",
                    (evaluator.studies, "flop_study")),
    "study flops plot": (["study", "flops", "QQ+,AKs", "random"], "--plot", ".png",
                         (evaluator.studies, "flop_study")),
    "study runouts": (["study", "runouts", "QQ+", "22+", "--board", "2c7d9h"], "--out", ".csv",
                      (evaluator.studies.runouts, "runout_study")),
    "study distribution": (["study", "distribution", "QQ+", "22+", "--board", "2c7d9h"],
                           "--out", ".jsonl", (evaluator.studies, "equity_distribution")),
    "study breakdown": (["study", "breakdown", "random", "--board", "Ah7d2c"], "--plot", ".svg",
                        (evaluator.studies, "range_breakdown")),
    "matrix": (["matrix", "holdem", "--recompute"], "--out", ".csv",
               (evaluator.studies, "preflop_matrix")),
    "plot grid": (["plot", "grid", "--against", "QQ+"], "--out", ".png",
                  (evaluator.studies, "hand_vs_range")),
    "batch": (["batch", "QUERIES"], "--out", ".csv", (evaluator.batch, "batch_equity")),
    "bench": (["bench", "--quick"], "--json", ".json", (evaluator.bench, "main")),
}


@pytest.fixture
def no_work(monkeypatch):
    """Every command's working function replaced by one that fails the test if called."""
    def patch(target):
        module, name = target

        def started(*args, **kwargs):
            raise AssertionError(f"{name} ran before the output was refused")
        monkeypatch.setattr(module, name, started)
    return patch


def _args(command: str, tmp_path: Path) -> list[str]:
    queries = tmp_path / "q.csv"
    queries.write_text("game,hands,board\nholdem,AsKs vs QhQd,2c7d9h\n")
    return [str(queries) if a == "QUERIES" else a for a in COMMANDS[command][0]]


@needs_proc
@pytest.mark.parametrize("command", COMMANDS)
def test_an_unwritable_folder_is_refused_before_any_work(command, tmp_path, capsys, no_work):
    """The work used to run (16.5 s in one case), then a traceback: the folder existed,
    and root's permission bits said yes."""
    args, flag, suffix, target = COMMANDS[command]
    no_work(target)
    code = cli.main([*_args(command, tmp_path), flag, str(NOWHERE / f"out{suffix}"),
                     "--no-progress" if command not in ("bench",) else "--quick"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("evaluator: error: ") and err.count("\n") == 1
    assert "cannot create files in '/proc'" in err and flag in err


@pytest.mark.parametrize("command", COMMANDS)
def test_an_existing_file_is_refused_unless_asked(command, tmp_path, capsys, no_work):
    args, flag, suffix, target = COMMANDS[command]
    out = tmp_path / f"out{suffix}"
    out.write_text("an earlier run's rows\n")
    no_work(target)
    code = cli.main([*_args(command, tmp_path), flag, str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "exists" in err and "--overwrite replaces it" in err, err
    assert ("--resume finishes it" in err) == (command in ("batch", "study flops"))
    assert out.read_text() == "an earlier run's rows\n"


def test_overwrite_replaces_and_resume_keeps(tmp_path, capsys):
    queries = tmp_path / "q.csv"
    queries.write_text("game,hands,board\nholdem,AsKs vs QhQd,2c7d9h\nholdem,QQ vs AK,\n")
    out = tmp_path / "r.csv"
    assert cli.main(["batch", str(queries), "--out", str(out), "--no-progress"]) == 0
    first = out.read_bytes()
    assert cli.main(["batch", str(queries), "--out", str(out), "--no-progress"]) == 2
    assert out.read_bytes() == first
    assert cli.main(["batch", str(queries), "--out", str(out), "--no-progress",
                     "--resume"]) == 0
    assert "2 of them kept from before, 0 computed now" in capsys.readouterr().err
    assert cli.main(["batch", str(queries), "--out", str(out), "--no-progress",
                     "--overwrite"]) == 0
    assert out.read_bytes() == first
    assert cli.main(["batch", str(queries), "--out", str(out), "--resume",
                     "--overwrite"]) == 2
    assert "cannot be combined" in capsys.readouterr().err


def test_an_interrupted_batch_is_never_overwritten(tmp_path):
    """Ctrl-C after 81 rows, the same command again without --resume: the file was
    overwritten and held 38 rows."""
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"}] * 6
    out = tmp_path / "r.jsonl"
    ev.batch_equity(queries[:4], out=out)                     # as if stopped after 4
    kept = out.read_bytes()
    with pytest.raises(EvaluatorError, match="exists .resume=True finishes it"):
        ev.batch_equity(queries, out=out)
    assert out.read_bytes() == kept
    rows = ev.batch_equity(queries, out=out, resume=True)
    assert rows.resumed == 4 and len(out.read_text().splitlines()) == 6


def test_the_api_refuses_existing_outputs_and_unwritable_folders(tmp_path):
    out = tmp_path / "rows.jsonl"
    out.write_text("{}\n")
    for call in (lambda **kw: ev.batch_equity([{"hands": "AsKs vs QhQd"}], **kw),
                 lambda **kw: ev.flop_study("holdem", ["AsKs", "QhQd"], **kw)):
        with pytest.raises(EvaluatorError, match="overwrite=True replaces it"):
            call(out=out)
        if NOWHERE.is_dir():
            with pytest.raises(EvaluatorError, match="cannot create files"):
                call(out=NOWHERE / "rows.jsonl")
    with pytest.raises(EvaluatorError, match="resume=True needs out="):
        ev.flop_study("holdem", ["AsKs", "QhQd"], resume=True)
    study = ev.runout_study("holdem", ["QQ+", "22+"], "2c7d9h")
    if NOWHERE.is_dir():
        with pytest.raises(EvaluatorError, match="cannot create files"):
            study.write(NOWHERE / "runouts.csv")


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".json", ".parquet"])
def test_resuming_a_finished_flop_study_computes_nothing(suffix, tmp_path, monkeypatch):
    """--resume on a finished study computed it all again; on a batch it kept every row."""
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"flops{suffix}"
    hands = ["QQ+,AKs", "random"]
    study = ev.flop_study("holdem", hands, out=out)         # the vectors write the rows
    import evaluator.studies.flops as flops

    def computed(*args, **kwargs):
        raise AssertionError("a finished study was computed again")
    monkeypatch.setattr(evaluator.batch, "run_query", computed)
    monkeypatch.setattr(flops, "_swept_rows", computed)
    again = ev.flop_study("holdem", hands, out=out, resume=True)
    assert again.rows == study.rows


@pytest.mark.parametrize("suffix", [".json", ".parquet"])
def test_resuming_a_finished_whole_file_batch_computes_nothing(suffix, tmp_path,
                                                                monkeypatch):
    pytest.importorskip("pyarrow")
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"},
               {"hands": "AsKs vs AsQd"},                              # an error row
               {"hands": "QQ+ vs random", "trials": 5000, "seed": 3}]
    out = tmp_path / f"r{suffix}"
    first = ev.batch_equity(queries, out=out, on_error="record")
    monkeypatch.setattr(evaluator.batch, "run_query", lambda *a, **k: 1 / 0)
    again = ev.batch_equity(queries, out=out, on_error="record", resume=True)
    assert again.resumed == 3 and list(again) == list(first)
    assert not Path(str(out) + ".rows.jsonl").exists()


def test_parquet_keeps_every_column_of_every_row(tmp_path):
    """pyarrow's from_pylist takes the first row's keys: a later error or stderr was lost."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"}, {"hands": "AsKs vs AsQd"},
               {"hands": "QQ+ vs random", "trials": 5000, "seed": 3}]
    out = tmp_path / "r.parquet"
    ev.batch_equity(queries, out=out, on_error="record")
    frame = pd.read_parquet(out)
    assert {"error", "p1_stderr"} <= set(frame.columns)
    assert frame["error"].iloc[1].startswith("duplicate card")
    study = ev.runout_study("holdem", ["QQ+", "22+"], "2c7d9h")
    rows = [{"a": 1}, {"a": 2, "b": "x"}]
    from evaluator.export import write_rows
    write_rows(rows, tmp_path / "s.parquet")
    assert list(pd.read_parquet(tmp_path / "s.parquet").columns) == ["a", "b"]
    assert len(study.rows) == 49


def test_a_finished_flop_study_on_the_command_line_resumes_to_the_same_file(tmp_path,
                                                                             capsys):
    out = tmp_path / "flops.csv"
    args = ["study", "flops", "AA", "KK", "--out", str(out), "--no-progress", "--json"]
    assert cli.main(args) == 0
    first = out.read_bytes()
    assert cli.main(args) == 2
    assert cli.main([*args, "--resume"]) == 0
    assert out.read_bytes() == first
    capsys.readouterr()
    assert json.loads(Path(str(out) + ".rows.jsonl").read_text().splitlines()[0])["id"] == 1
    assert os.path.getsize(out) > 0


@needs_proc
def test_a_plot_or_rows_into_an_unwritable_folder_is_one_clear_error():
    """The API raised a bare PermissionError after the work."""
    pytest.importorskip("matplotlib")
    from evaluator import plots
    from evaluator.export import write_rows
    with pytest.raises(EvaluatorError, match="cannot create files in '/proc'"):
        plots.grid({"AA": 0.8}, NOWHERE / "grid.png")
    with pytest.raises(EvaluatorError, match="cannot create files in '/proc'"):
        write_rows([{"a": 1}], NOWHERE / "rows.csv")


@pytest.mark.parametrize("command", ["batch", "history", "study flops"])
def test_a_rows_file_left_beside_an_output_is_kept_by_every_command(tmp_path, monkeypatch,
                                                                    capsys, command):
    """An output written whole at the end streams its rows to ``OUT.rows.jsonl`` meanwhile
    (``export.rows_file_beside``): a run's rows left there are neither taken nor replaced
    by a new run that asks neither to resume nor to overwrite, whichever command writes."""
    monkeypatch.chdir(tmp_path)
    out = "r.json" if command == "batch" else "r.parquet" if command == "history" else "r.csv"
    Path(out + ".rows.jsonl").write_text('{"id": 1}\n')
    if command == "batch":
        with pytest.raises(EvaluatorError, match="the rows file of out .* exists"):
            ev.batch_equity([{"hands": "AsKs vs QhQd"}], out=out, progress=False)
    else:
        hands = Path(__file__).parent / "histories" / "headsup_flop.phh"
        args = (["history", str(hands), "--out", out] if command == "history" else
                ["study", "flops", "AA", "KK", "--trials", "100", "--out", out])
        assert cli.main(args + ["--no-progress"]) == 2
        assert "the rows file of --out" in capsys.readouterr().err
    assert Path(out + ".rows.jsonl").read_text() == '{"id": 1}\n'
