"""Batch inputs and outputs: JSON nested too deeply, queries on stdin, ``--out x.json``,
and the sample query files that ``batch --help`` shows."""
import io
import json
import subprocess
import sys

import pytest

import evaluator.batch as batch
from evaluator import EvaluatorError, batch_equity
from evaluator.batch.rows import row_digest
from evaluator.cli import main
from evaluator.export import write_rows

QUERIES = [{"hands": "AsKs vs QhQd", "board": "2c7d9h", "id": "flop"},
           {"game": "omaha8", "hands": ["Ah2h3sKs", "AdKdQcJc"], "board": "4c5d9sTh"},
           {"hands": "QQ+,AKs | random", "trials": 20_000, "seed": 3}]
CSV = ("game,hands,board,trials,seed,id\n"
       "holdem,AsKs vs QhQd,2c7d9h,,,flop\n"
       'omaha8,"Ah2h3sKs vs AdKdQcJc",4c5d9sTh,,,\n'
       'holdem,"QQ+,AKs | random",,20000,3,\n')
DEEP = 100_000


def run_cli(*args, stdin=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "evaluator", *args], capture_output=True,
                          text=True, input=stdin, timeout=timeout)


def jsonl(queries):
    return "".join(json.dumps(q) + "\n" for q in queries)


def counting(monkeypatch):
    calls = []
    real = batch.run_query

    def run_query(query):
        calls.append(query["id"])
        return real(query)
    monkeypatch.setattr(batch, "run_query", run_query)
    return calls


# --- JSON nested too deeply ---------------------------------------------------------

NESTED = {"a list": "[" * DEEP + "]" * DEEP,
          "a field": '{"game": ' + "[" * DEEP + "]" * DEEP + ', "hands": "AA vs KK"}',
          "a number": '{"hands": "AA vs KK", "seed": ' + "7" * 5000 + "}"}


@pytest.mark.parametrize("kind", list(NESTED))
def test_json_nested_too_deeply_is_a_bad_row_naming_the_line(tmp_path, kind):
    """Valid JSON that cannot be read (nested 100,000 deep, an integer of 5,000 digits) is a
    bad query: refused naming its line, or recorded; never a RecursionError."""
    path = tmp_path / "q.jsonl"
    path.write_text(jsonl(QUERIES[:1]) + NESTED[kind] + "\n" + jsonl(QUERIES[1:2]))
    why = "cannot be read" if kind == "a number" else "nested too deeply"
    with pytest.raises(EvaluatorError, match=f"^query 2 \\(line 2\\): the line's JSON .*{why}"):
        batch_equity(path, progress=False)
    rows = batch_equity(path, on_error="record", progress=False)
    assert [r.get("error", "") for r in rows][0::2] == ["", ""]
    assert rows[1]["id"] == 2 and why in rows[1]["error"]
    done = run_cli("batch", str(path), "--no-progress")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == f"evaluator: error: query 2 (line 2): {rows[1]['error']}\n"
    done = run_cli("batch", str(path), "--no-progress", "--on-error", "record")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == rows


def test_python_queries_nested_too_deeply_are_bad_rows():
    deep: list = []
    for _ in range(DEEP):
        deep = [deep]
    queries = [QUERIES[0], {"hands": deep}, {"hands": "AA vs KK", "board": deep}, deep]
    with pytest.raises(EvaluatorError) as error:
        batch_equity(queries, progress=False)
    message = str(error.value)
    assert message.startswith("3 of 4 queries are bad; nothing was computed")
    assert "query 2: needs two or more hands, e.g. 'AsKs vs QQ+', got [[[[...]]]]" in message
    assert "query 3: board must be a string, got [[[[...]]]]" in message
    assert "query 4: a query is a mapping of equity arguments, got [[[[...]]]]" in message
    rows = batch_equity(queries, on_error="record", progress=False)
    assert [r["id"] for r in rows] == ["flop", 2, 3, 4] and "error" not in rows[0]
    assert all("[[[[...]]]]" in r["error"] for r in rows[1:])
    json.dumps(rows)                                   # rows that can be written


def test_resume_refuses_a_row_nested_too_deeply(tmp_path):
    out = tmp_path / "r.jsonl"
    batch_equity(QUERIES, out=out, progress=False)
    first = out.read_text().splitlines()[0]
    out.write_text(first + "\n" + NESTED["a list"] + "\n")
    with pytest.raises(EvaluatorError, match="cannot resume .*: line 2 is not JSON"):
        batch_equity(QUERIES, out=out, resume=True, progress=False)


# --- queries on stdin -----------------------------------------------------------------

@pytest.mark.parametrize("kind", ["csv", "jsonl"])
@pytest.mark.slow
def test_batch_dash_reads_the_queries_from_stdin(tmp_path, kind):
    text = CSV if kind == "csv" else jsonl(QUERIES)
    rows = batch_equity(QUERIES, progress=False)
    done = run_cli("batch", "-", "--no-progress", stdin=text)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == rows
    out = tmp_path / "r.csv"
    done = run_cli("batch", "-", "--out", str(out), "--no-progress", stdin=text)
    assert done.returncode == 0 and done.stderr == f"3 results written to {out}\n"
    whole = tmp_path / "whole.csv"
    batch_equity(QUERIES, out=whole, progress=False)
    assert out.read_bytes() == whole.read_bytes()


def test_stdin_errors_name_stdin_and_the_line():
    done = run_cli("batch", "-", "--no-progress", stdin="hands\nAsKs vs QhQd\nAsKs vs Qx\n")
    assert done.returncode == 2
    assert done.stderr.startswith("evaluator: error: query 2 (line 3): ")
    done = run_cli("batch", "-", "--no-progress", stdin='{"hands": "AsKs vs QhQd"}\n{"hands"\n')
    assert done.returncode == 2
    assert done.stderr.startswith("evaluator: error: stdin line 2: not JSON")
    done = run_cli("batch", "-", "--no-progress", stdin="")
    assert done.stderr == "evaluator: error: no queries in stdin\n"


def test_batch_equity_reads_a_stream_of_text_or_bytes():
    rows = batch_equity(QUERIES, progress=False)
    assert batch_equity(io.StringIO(CSV), progress=False) == rows
    assert batch_equity(io.BytesIO(b"\xef\xbb\xbf" + jsonl(QUERIES).encode()),
                        progress=False) == rows
    with pytest.raises(EvaluatorError, match="the input line 1: not UTF-8"):
        batch_equity(io.BytesIO(b'{"hands": "\xff"}\n'), progress=False)


def test_stdin_in_process(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CSV.encode())))
    assert main(["batch", "-", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert [json.loads(line) for line in out.splitlines()] == batch_equity(QUERIES,
                                                                           progress=False)


# --- --out x.json ---------------------------------------------------------------------

def test_out_json_is_one_json_document(tmp_path, monkeypatch):
    out = tmp_path / "r.json"
    rows = batch_equity(QUERIES, out=out, progress=False)
    assert json.loads(out.read_text()) == rows             # a list: not JSON Lines
    assert not (tmp_path / "r.json.rows.jsonl").exists()
    cli = tmp_path / "cli.json"
    done = run_cli("batch", "-", "--out", str(cli), "--no-progress", stdin=jsonl(QUERIES))
    assert done.returncode == 0, done.stderr
    assert cli.read_bytes() == out.read_bytes()
    for name in ("r.jsonl", "r.ndjson"):                   # JSON Lines stay JSON Lines
        batch_equity(QUERIES, out=tmp_path / name, progress=False)
        lines = [json.loads(line) for line in (tmp_path / name).read_text().splitlines()]
        assert [line.pop("digest") for line in lines] == [row_digest(row) for row in rows]
        assert lines == rows
    write_rows(rows, tmp_path / "w.json")
    assert json.loads((tmp_path / "w.json").read_text()) == rows


def test_out_json_resumes_from_its_rows_file(tmp_path, monkeypatch):
    whole = tmp_path / "whole.json"
    rows = batch_equity(QUERIES, out=whole, progress=False)
    out = tmp_path / "r.json"
    rows_file = tmp_path / "r.json.rows.jsonl"
    # two rows as a batch writes them (each with its digest), interrupted in row 3
    rows_file.write_text(jsonl({**row, "digest": row_digest(row)} for row in rows[:2])
                         + '{"id": 3, "ga')
    calls = counting(monkeypatch)
    assert batch_equity(QUERIES, out=out, resume=True, progress=False) == rows
    assert calls == [3] and out.read_bytes() == whole.read_bytes()
    assert not rows_file.exists()


def test_out_json_checks_its_rows_file_before_any_work(tmp_path, monkeypatch):
    calls = counting(monkeypatch)
    rows_file = tmp_path / "r.json.rows.jsonl"
    rows_file.mkdir()                                     # a folder in the rows file's place
    out = tmp_path / "r.json"
    with pytest.raises(EvaluatorError, match=f"the rows file of out '{rows_file}' is a folder, "
                                             "not a file"):
        batch_equity(QUERIES, out=out, progress=False)
    done = run_cli("batch", "-", "--out", str(out), "--no-progress", stdin=jsonl(QUERIES))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert str(rows_file) in done.stderr and "is a folder" in done.stderr
    assert calls == [] and not out.exists()


# --- the samples batch --help shows -------------------------------------------------------

def help_samples(text, label):
    """The sample lines (indented four spaces) after the line ``  {label}:`` of the help."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  {label}:"))
    sample = []
    for line in lines[start + 1:]:
        if sample and not line.startswith("    "):
            break
        if line.startswith("    "):
            sample.append(line[4:])
    return sample


def test_the_sample_query_files_in_batch_help_run(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["batch", "--help"])
    text = capsys.readouterr().out
    words = " ".join(text.split())                     # however argparse wrapped it
    assert "or - to read them from stdin" in words and ".json (one JSON list)" in words
    csv_lines = help_samples(text, "CSV")
    assert csv_lines[0] == "game,hands,board,trials"
    assert csv_lines[1] == "holdem,AsKs vs QhQd,2c7d9h,"
    json_lines = help_samples(text, "JSON Lines")
    assert json_lines and all(line.startswith("{") for line in json_lines)
    for name, sample in (("q.csv", csv_lines), ("q.jsonl", json_lines)):
        path = tmp_path / name
        path.write_text("\n".join(sample) + "\n")
        out = tmp_path / (name + ".out.jsonl")
        assert main(["batch", str(path), "--out", str(out), "--no-progress"]) == 0
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        assert len(rows) == len(sample) - (name == "q.csv")
        assert all("error" not in row and row["p2_equity"] > 0 for row in rows)
    first = json.loads((tmp_path / "q.csv.out.jsonl").read_text().splitlines()[0])
    assert (first["hands"], first["p1_hand"], first["p2_hand"]) == (
        "AsKs vs QhQd", "As Ks", "Qh Qd")



def test_a_resumed_batch_says_how_many_rows_it_kept_and_how_many_it_computed(tmp_path):
    queries, out = tmp_path / "q.csv", tmp_path / "r.csv"
    queries.write_text(CSV)
    rows = batch_equity(str(queries), out=out, progress=False)
    assert rows.resumed == 0
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:-1]))                      # the last row lost
    resumed = batch_equity(str(queries), out=out, resume=True, progress=False)
    assert resumed == rows and resumed.resumed == len(rows) - 1
    done = run_cli("batch", str(queries), "--out", str(out), "--resume", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert done.stderr == (f"{len(rows)} results written to {out} ({len(rows)} of them kept "
                           "from before, 0 computed now)\n")
    # a .json output, resumed from the rows file an interrupted run leaves beside it
    whole = tmp_path / "r.json"
    side = tmp_path / "r.json.rows.jsonl"
    batch_equity(str(queries), out=side, progress=False)
    side.write_bytes(b"".join(side.read_bytes().splitlines(keepends=True)[:-1]))
    again = batch_equity(str(queries), out=whole, resume=True, progress=False)
    assert again.resumed == len(rows) - 1 and not side.exists()
    assert json.loads(whole.read_text()) == [dict(r) for r in again]
