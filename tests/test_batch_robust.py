"""Batches never lose finished rows: Ctrl-C, kills, bad rows, resumes, odd query files,
output paths and addresses that are not Dask schedulers."""
import csv
import errno
import http.server
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

import evaluator.batch as batch
import evaluator.batch.known as known
import evaluator.batch.sink as sink
from evaluator import ArgumentTypeError, CardError, EvaluatorError, batch_equity
from evaluator._jit import NOTE as COMPILE_NOTE
from evaluator.batch import BatchInterrupted, QueryFailed, read_queries
from evaluator.batch.rows import row_digest
from evaluator.cli import main

from conftest import interrupt_when, sigint_default


def run_cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "evaluator", *args], capture_output=True,
                          text=True, timeout=timeout)


def one_line_error(done, code=2):
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def write_jsonl(path, queries):
    path.write_text("".join(json.dumps(q) + "\n" for q in queries))
    return path


# a mix: exact and sampled, three players, hi-lo, a range, a hand with unknown cards
_MIX = [
    {"hands": "AsKs vs QhQd", "board": "2c7d9h", "id": "flop"},
    {"game": "omaha8", "hands": ["Ah2h3sKs", "AdKdQcJc"], "board": "4c5d9sTh"},
    {"hands": "QQ+,AKs | random", "trials": 20_000},
    {"hands": "AA; KK; QQ", "board": "2c7d9hTs"},
    {"game": "teen_patti", "hands": "AsKsQs vs random", "trials": 20_000, "seed": 7},
    {"hands": "As? vs KK", "board": "2c7d9hTs", "trials": 10_000},
]
# three times over, each id given once (ids are unique in a batch): flop, flop2, flop3
MIXED = [dict(q, id=f"{q['id']}{k + 1}") if "id" in q and k else q
         for k in range(3) for q in _MIX]


def counting(monkeypatch):
    """Count the queries computed (``run_query`` calls, and the rows of the plain
    known-hand queries answered in bulk)."""
    calls = []
    real = batch.run_query
    real_launch = known.launch

    def run_query(query):
        calls.append(query["id"])
        return real(query)

    def launch(items, threads):
        counting = real_launch(items, threads)
        real_rows = counting.rows

        def rows():
            out = real_rows()
            calls.extend(item["id"] for item, row in zip(items, out) if row is not None)
            return out
        counting.rows = rows
        return counting
    monkeypatch.setattr(batch, "run_query", run_query)
    monkeypatch.setattr(known, "launch", launch)
    return calls


def general_only(monkeypatch):
    """Every query the general way, one ``run_query`` call each (no bulk answers)."""
    monkeypatch.setattr(known.Counting, "rows", lambda self: [None] * len(self.items))


# --- Ctrl-C and --resume ------------------------------------------------------------

def data_rows(path):
    """Complete data rows of a CSV output (a partly written last line not counted)."""
    if not path.exists():
        return 0
    return max(0, path.read_bytes().count(b"\n") - 1)


@pytest.mark.slow
@pytest.mark.serial
def test_ctrl_c_keeps_finished_rows_and_resume_matches_an_uninterrupted_run(tmp_path):
    queries = write_jsonl(tmp_path / "queries.jsonl",
                          [{"hands": "AsKs vs QhQd vs random", "trials": 300_000, "id": f"q{i}"}
                           for i in range(240)])
    out = tmp_path / "r.csv"
    proc = subprocess.Popen([sys.executable, "-m", "evaluator", "batch", str(queries), "--out",
                             str(out), "--threads", "2", "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_default)
    stderr, took = interrupt_when(proc, lambda: data_rows(out) >= 10)
    assert proc.returncode == 130, stderr
    assert took < 2.0, f"took {took:.2f} s to stop"
    kept = data_rows(out)
    assert 10 <= kept < 240
    assert stderr.strip().splitlines() == [
        f"interrupted: {kept} of 240 rows in {out}; run again with --resume to finish"]
    partial = out.read_bytes()
    assert partial.endswith(b"\n")                  # complete rows only
    done = run_cli("batch", str(queries), "--out", str(out), "--resume", "--threads", "2",
                   "--no-progress")
    assert done.returncode == 0, done.stderr
    whole = tmp_path / "whole.csv"
    assert run_cli("batch", str(queries), "--out", str(whole), "--no-progress",
                   "--threads", "2").returncode == 0
    assert out.read_bytes() == whole.read_bytes()   # every row, bit for bit
    assert out.read_bytes().startswith(partial)     # the kept rows were not recomputed
    assert data_rows(out) == 240


def test_ctrl_c_in_the_api_raises_batch_interrupted_with_the_rows_kept(tmp_path, sigint_handled):
    out = tmp_path / "r.jsonl"
    # far more work than the second before Ctrl-C (about a minute on two cores), so that
    # the batch is still running however loaded the machine; the timer is cancelled if not
    queries = [{"hands": "AsKs vs QhQd vs random", "trials": 3_000_000}] * 200
    # its kernels compiled first: what is timed is a Ctrl-C during the work, and Numba's
    # compiling (seconds on a cold cache, as in the README's first `pytest`) cannot stop
    batch_equity([{"hands": "AsKs vs QhQd vs random", "trials": 1_000}], threads=2,
                 progress=False)
    timer = threading.Timer(1.0, lambda: signal.raise_signal(signal.SIGINT))
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(BatchInterrupted) as stop:
            batch_equity(queries, out=out, threads=2, progress=False)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 3.0
    assert stop.value.total == 200 and stop.value.path == out
    assert len(out.read_text().splitlines()) == stop.value.kept < 200


@pytest.mark.parametrize("name", ["r.csv", "r.jsonl"])
def test_resume_after_a_kill_drops_the_partial_line_and_computes_only_the_rest(
        tmp_path, monkeypatch, name):
    whole = tmp_path / ("whole" + os.path.splitext(name)[1])
    rows = batch_equity(MIXED, out=whole, threads=2, progress=False)
    assert rows == batch_equity(MIXED, progress=False)      # the file's rows are the rows
    data = whole.read_bytes()
    lines = data.splitlines(keepends=True)
    header = 1 if name.endswith(".csv") else 0
    out = tmp_path / name
    kept = 7
    cut = sum(map(len, lines[:header + kept])) + len(lines[header + kept]) // 2
    out.write_bytes(data[:cut])                 # a kill in the middle of writing row 8
    calls = counting(monkeypatch)
    again = batch_equity(MIXED, out=out, resume=True, threads=2, progress=False)
    assert out.read_bytes() == data
    assert again == rows                        # rows read back have their types too
    assert len(calls) == len(MIXED) - kept
    calls.clear()
    assert batch_equity(MIXED, out=out, resume=True, progress=False) == rows
    assert calls == [] and out.read_bytes() == data        # finished: nothing to do


def test_resume_refuses_another_batchs_file(tmp_path):
    out = tmp_path / "r.jsonl"
    batch_equity(MIXED[:4], out=out, progress=False)
    before = out.read_bytes()
    other = [dict(q) for q in MIXED[:4]]
    other[2]["hands"] = "KK vs random"
    with pytest.raises(EvaluatorError, match="line 3 holds query 3 .*another batch"):
        batch_equity(other, out=out, resume=True, progress=False)
    with pytest.raises(EvaluatorError, match="sampled with seed"):
        batch_equity(MIXED[:4], out=out, resume=True, seed=5, progress=False)
    with pytest.raises(EvaluatorError, match="more rows than the batch"):
        batch_equity(MIXED[:2], out=out, resume=True, progress=False)
    table = tmp_path / "r.csv"
    batch_equity(MIXED[:4], out=table, progress=False)
    with pytest.raises(EvaluatorError, match="columns"):
        batch_equity(MIXED[:1], out=table, resume=True, progress=False)
    with pytest.raises(EvaluatorError, match="resume=True needs out="):
        batch_equity(MIXED[:1], resume=True, progress=False)
    assert out.read_bytes() == before                      # a refused file is left alone


@pytest.mark.parametrize("name", ["r.csv", "r.jsonl"])
def test_resume_refuses_rows_dealt_in_another_monte_carlo_stream(tmp_path, name):
    """A sampled row's ``version`` column holds its stream: finishing the file in another
    one would mix two streams' answers for one seed, and is refused; the batch's
    ``version=`` (or each query's field) finishes it as it was started."""
    out = tmp_path / name
    first = batch_equity(MIXED[:4], out=out, progress=False, version=1)
    assert [r["version"] for r in first] == [None, None, 1, None]   # exact rows: none
    before = out.read_bytes()
    with pytest.raises(EvaluatorError, match=r"line \d \(query 3\) was sampled in Monte Carlo "
                                             "stream version 1, and this batch deals that "
                                             "query in version 2: give it version 1"):
        batch_equity(MIXED[:4], out=out, resume=True, progress=False)
    assert out.read_bytes() == before
    again = batch_equity(MIXED[:6], out=out, resume=True, progress=False, version=1)
    assert again[:4] == first and again[5]["version"] == 1
    asked = [dict(q, version=1) for q in MIXED[:6]]
    assert batch_equity(asked, out=out, resume=True, progress=False) == again


def test_rows_written_before_there_were_two_streams_resume_in_the_first(tmp_path):
    """A sampled row with no ``version`` (a file of release 0.1.0) was dealt by the first
    stream: it resumes with ``version=1`` and is refused in the default stream."""
    out = tmp_path / "r.jsonl"
    batch_equity(MIXED[:4], out=out, progress=False, version=1)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    for row in rows:
        del row["version"], row["digest"]
        row["digest"] = row_digest(row)
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.raises(EvaluatorError, match="sampled in Monte Carlo stream version 1"):
        batch_equity(MIXED[:4], out=out, resume=True, progress=False)
    assert len(batch_equity(MIXED[:4], out=out, resume=True, progress=False,
                            version=1)) == 4
    # a stored version that no stream has, its digest made again: a damaged row
    rows[2]["version"] = 3
    del rows[2]["digest"]
    rows[2]["digest"] = row_digest(rows[2])
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.raises(EvaluatorError, match=r"line 3 \(query 3\) has version 3; a batch "
                                             "writes no such row"):
        batch_equity(MIXED[:4], out=out, resume=True, progress=False, version=1)
    # a CSV file of release 0.1.0 has no version column: said so
    table = tmp_path / "r.csv"
    batch_equity(MIXED[:4], out=table, progress=False, version=1)
    lines = list(csv.reader(table.read_text().splitlines()))
    at = lines[0].index("version")
    with table.open("w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(
            line[:at] + line[at + 1:] for line in lines)
    with pytest.raises(EvaluatorError, match="no version column .*release 0.1.0"):
        batch_equity(MIXED[:4], out=table, resume=True, progress=False, version=1)


# the queries of MIXED and an Omaha one, a game that can change without changing the columns
CHANGING = [MIXED[0], {"game": "omaha", "hands": ["Ah2h3sKs", "AdKdQcJc"], "board": "4c5d9sTh"},
            *MIXED[1:6]]


@pytest.mark.parametrize("k, change, row_has, query_has", [
    (0, {"board": "2c7d9hTs"}, "board '2c 7d 9h'", "board '2c 7d 9h Ts'"),
    (1, {"game": "omaha8"}, "game 'omaha'", "game 'omaha8'"),
    (4, {"dead": "3h"}, "dead ''", "dead '3h'"),
    (0, {"exact": False}, "exact True", "exact False"),
    (0, {"trials": 1000}, "exact True", "trials 1,000"),
    (3, {"trials": 30_000}, "20,000 samples", "trials 30,000"),
    (3, {"trials": None}, "20,000 samples", "trials 1,048,576 (the default)"),
    (3, {"trials": None, "target_stderr": 0.001}, "stderr 0.00", "target_stderr 0.001"),
])
@pytest.mark.parametrize("name", ["r.csv", "r.jsonl"])
def test_resume_refuses_rows_of_a_query_changed_since(tmp_path, name, k, change, row_has,
                                                      query_has):
    queries = [dict(q) for q in CHANGING]
    whole = tmp_path / ("whole" + os.path.splitext(name)[1])
    batch_equity(queries, out=whole, progress=False)
    header = 1 if name.endswith(".csv") else 0
    lines = whole.read_bytes().splitlines(keepends=True)
    out = tmp_path / name
    out.write_bytes(b"".join(lines[:header + 5]))           # five rows kept
    before = out.read_bytes()
    changed = [dict(q) for q in queries]
    changed[k].update(change)
    changed[k] = {key: value for key, value in changed[k].items() if value is not None}
    ident = changed[k].get("id", k + 1)
    with pytest.raises(EvaluatorError) as refused:
        batch_equity(changed, out=out, resume=True, progress=False)
    message = str(refused.value)
    assert f"line {header + k + 1} (query {ident}) has {row_has}" in message, message
    assert f"but this batch's query {ident} has {query_has}" in message, message
    assert "the query changed since the row was written" in message
    assert out.read_bytes() == before                      # a refused file is left alone


def test_resume_accepts_other_spellings_of_the_same_query(tmp_path):
    whole = tmp_path / "whole.csv"
    batch_equity(MIXED[:6], out=whole, progress=False)
    data = whole.read_bytes()
    out = tmp_path / "r.csv"
    out.write_bytes(b"".join(data.splitlines(keepends=True)[:5]))
    same = [dict(q) for q in MIXED[:6]]
    same[0].update(board="2c 7d 9h", game="HoldEm", exact="")
    same[1].update(game="Omaha8", board="4c 5d 9s Th")
    same[2].update(trials="2e4")
    batch_equity(same, out=out, resume=True, progress=False)
    assert out.read_bytes() == data


def test_resume_reads_csv_fields_that_hold_line_breaks(tmp_path, monkeypatch):
    queries = [
        {"hands": "AsKs vs QhQd", "board": "2c7d9h", "id": "east\u2028west"},
        {"hands": "AsKs vs\nAsQd", "id": "bad"},      # fails its checks: its text recorded
        {"hands": "AA vs KK", "board": "2c7d9hTs", "id": "a\x1cb\x1dc\x1ed\x85e\u2029f\rg"},
        {"hands": "QQ+,AKs | random", "trials": 20_000, "id": "line\nbreak"},
        {"hands": "AsKs vs QhQd", "board": "2c7d9hTs", "dead": "2d 3h\n4x"},   # a bad card
        {"hands": "KK vs QQ", "board": "2c7d9h", "id": "last"},
    ]
    whole = tmp_path / "whole.csv"
    rows = batch_equity(queries, out=whole, on_error="record", progress=False)
    data = whole.read_bytes()
    assert b'"AsKs vs\nAsQd"' in data and "east\u2028west".encode() in data
    assert [r["id"] for r in rows if "error" in r] == ["bad", 5]
    # where each row ends, from the lines the writer gave them
    table = list(csv.DictReader(io.StringIO(data.decode(), newline="")))
    assert [r["id"] for r in table] == [str(q.get("id", k + 1)) for k, q in enumerate(queries)]
    assert table[1]["hands"] == "AsKs vs\nAsQd" and table[4]["dead"] == "2d 3h\n4x"
    # where each row ends: after the line the writer gives it (a lone "\r" quoted, as if
    # "\r\n" ended the lines, but "\n" does)
    header = data[:data.index(b"\n") + 1]
    names = header.decode().strip().split(",")
    ends = [len(header)]
    for row in rows:
        line = io.StringIO()
        csv.writer(line, lineterminator="\r\n").writerow([row.get(n, "") for n in names[:-1]]
                                                          + [row_digest(row)])
        ends.append(ends[-1] + len(line.getvalue().encode()) - 1)
    assert ends[-1] == len(data)
    # a cut at every line break, and just after, and in the middle of each character
    cuts = {i + d for i, byte in enumerate(data) if byte in b"\n\r\x1c\x1d\x1e" for d in (0, 1)}
    cuts |= {i for i in range(len(data)) if data[i] & 0xC0 == 0x80}
    cuts |= set(ends) | set(range(0, len(data), 97))
    calls = counting(monkeypatch)
    out = tmp_path / "r.csv"
    for cut in sorted(cuts):
        out.write_bytes(data[:cut])
        calls.clear()
        again = batch_equity(queries, out=out, resume=True, on_error="record", threads=1,
                             progress=False)
        assert out.read_bytes() == data, cut
        assert again == rows, cut
        kept = sum(end <= cut for end in ends[1:])
        assert len(calls) == len(queries) - kept, cut


class Flaky:
    """An output that takes Ctrl-C while the 6th row is written: ``where`` says when."""

    def __init__(self, handle, where, row_start):
        self.handle, self.where, self.row_start, self.armed = handle, where, row_start, False

    def write(self, text):
        if not text.startswith(self.row_start):
            return self.handle.write(text)
        if self.where == "mid-line":                # half the line reaches the file
            self.handle.write(text[:len(text) // 2])
            self.handle.flush()
            raise KeyboardInterrupt
        self.handle.write(text)
        if self.where == "before the flush":        # the line is in the buffer only
            raise KeyboardInterrupt
        self.armed = True

    def flush(self):
        self.handle.flush()
        if self.armed:                              # the line is out, the row not counted
            self.armed = False
            raise KeyboardInterrupt

    def __getattr__(self, name):
        return getattr(self.handle, name)


@pytest.mark.parametrize("where", ["after the line", "before the flush", "mid-line"])
@pytest.mark.parametrize("name", ["r.csv", "r.jsonl"])
def test_ctrl_c_while_a_row_is_written_keeps_count_of_the_rows_in_the_file(
        tmp_path, monkeypatch, where, name):
    general_only(monkeypatch)      # a row at a time (bulk answers come a window at once)
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"}] * 12
    whole = tmp_path / ("whole" + os.path.splitext(name)[1])
    batch_equity(queries, out=whole, progress=False)
    real = sink.Sink.__init__

    def init(self, *args, **kwargs):
        real(self, *args, **kwargs)
        self.handle = Flaky(self.handle, where, "6," if self.csv else '{"id": 6,')
    monkeypatch.setattr(sink.Sink, "__init__", init)
    out = tmp_path / name
    with pytest.raises(BatchInterrupted) as stop:
        batch_equity(queries, out=out, threads=1, progress=False)
    on_disk = out.read_bytes()
    assert on_disk.endswith(b"\n")                  # a line cut short is taken out again
    rows = len(on_disk.splitlines()) - name.endswith(".csv")
    assert stop.value.kept == rows == (5 if where == "mid-line" else 6)
    monkeypatch.setattr(sink.Sink, "__init__", real)
    batch_equity(queries, out=out, resume=True, progress=False)
    assert out.read_bytes() == whole.read_bytes()


class Buffered:
    """An output that keeps the lines it is given until a flush, and takes Ctrl-C in the
    first flush of several lines, once ``whole`` of them and part of the next are out;
    with ``full``, every flush after that fails as on a full disk, so the rest never
    reaches the file."""

    def __init__(self, handle, full):
        self.handle, self.full, self.held, self.broken = handle, full, "", False
        self.whole = None

    def write(self, text):
        self.held += text

    def flush(self):
        if self.broken and self.full:
            raise OSError(28, "No space left on device")
        if not self.broken and self.held.count("\n") >= 3:
            self.broken = True
            cut = len(self.held) // 2
            cut += self.held[cut - 1] == "\n"      # in the middle of a line
            self.whole = self.held[:cut].count("\n")
            self.handle.write(self.held[:cut])
            self.held = self.held[cut:]
            self.handle.flush()
            raise KeyboardInterrupt
        self.handle.write(self.held)
        self.held = ""
        self.handle.flush()

    def __getattr__(self, name):
        return getattr(self.handle, name)


@pytest.mark.parametrize("full", [False, True], ids=["the flush stops", "the disk is full"])
@pytest.mark.parametrize("name", ["r.csv", "r.jsonl"])
def test_ctrl_c_in_a_flush_of_many_rows_keeps_count_of_the_rows_in_the_file(
        tmp_path, monkeypatch, name, full):
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"}] * 12
    whole = tmp_path / ("whole" + os.path.splitext(name)[1])
    batch_equity(queries, out=whole, progress=False)
    real = sink.Sink.__init__
    outputs = []

    def init(self, *args, **kwargs):
        real(self, *args, **kwargs)
        self.handle = Buffered(self.handle, full)
        outputs.append(self.handle)
    monkeypatch.setattr(sink.Sink, "__init__", init)
    monkeypatch.setattr(sink.Sink, "idle", lambda self: None)     # one flush, at the end
    monkeypatch.setattr(sink, "FLUSH_EVERY", 3600)
    out = tmp_path / name
    with pytest.raises(BatchInterrupted) as stop:
        batch_equity(queries, out=out, threads=2, progress=False)
    on_disk = out.read_bytes()
    assert on_disk.endswith(b"\n")                  # a line cut short is taken out again
    rows = len(on_disk.splitlines()) - name.endswith(".csv")
    assert 0 < outputs[0].whole < 12
    assert stop.value.kept == rows == (outputs[0].whole if full else 12)
    monkeypatch.setattr(sink.Sink, "__init__", real)
    batch_equity(queries, out=out, resume=True, progress=False)
    assert out.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("threads", [1, 2])
def test_finished_rows_are_in_the_file_while_a_slow_query_runs(tmp_path, monkeypatch, threads):
    """Rows are flushed in bulk, but never left waiting on a query still running."""
    out = tmp_path / "r.csv"
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h", "id": f"q{i}"} for i in range(6)]
    # (a range: the general way, one query at a time, after the others' bulk answers)
    queries.append({"hands": "AsKs vs QQ", "board": "2c7d9h", "id": "slow"})
    monkeypatch.setattr(sink, "FLUSH_EVERY", 3600)
    seen = []
    real = batch.run_query

    def run_query(query):
        if query["id"] == "slow":                    # waits for the other rows to be out
            deadline = time.monotonic() + 20
            while data_rows(out) < 6 and time.monotonic() < deadline:
                time.sleep(0.02)
            seen.append(data_rows(out))
        return real(query)
    monkeypatch.setattr(batch, "run_query", run_query)
    batch_equity(queries, out=out, threads=threads, progress=False)
    assert seen == [6] and data_rows(out) == 7


@pytest.mark.parametrize("trials", [10_000, 10_000.0, 1e4, "10000", "1e4", " 1E4 ", "10000.0"])
def test_trials_may_be_a_float_or_in_scientific_notation(trials):
    rows = batch_equity([{"hands": "AsKs vs QQ", "trials": trials, "seed": 3}], progress=False)
    assert rows[0]["samples"] == 10_000
    assert rows == batch_equity([{"hands": "AsKs vs QQ", "trials": 10_000, "seed": 3}],
                                progress=False)


def test_trials_in_a_csv_file_may_be_in_scientific_notation(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text("hands,trials,seed\nAsKs vs QQ,1e4,3.0\nAsKs vs QQ,2.5e4,\n")
    rows = batch_equity(path, progress=False)
    assert [r["samples"] for r in rows] == [10_000, 25_000] and rows[0]["seed"] == "0x3"


@pytest.mark.parametrize("trials, message", [
    (1000.5, "trials must be a whole number, got 1000.5"),
    ("12.5 ", "trials must be a whole number, got '12.5 '"),
    ("1e-3", "trials must be a whole number, got '1e-3'"),
    ("many", "trials must be a number, got 'many'"),
    ("inf", "trials must be a number, got 'inf'"),
    (float("nan"), "trials must be a number, got nan"),
    (True, "trials must be a number, got True"),
    ([1000], "trials must be a number, got [1000]"),
])
def test_trials_that_are_not_whole_numbers_are_refused(trials, message):
    with pytest.raises(EvaluatorError) as error:
        batch_equity([{"hands": "AsKs vs QQ", "trials": trials}], progress=False)
    assert str(error.value) == f"query 1: {message}"


def test_csv_header_fits_every_row_from_the_start(tmp_path):
    out = tmp_path / "r.csv"
    batch_equity(MIXED[:6], out=out, progress=False)
    header = out.read_text().splitlines()[0].split(",")
    assert header[:len(batch.queries.BASE_COLUMNS)] == list(batch.queries.BASE_COLUMNS)
    assert "p3_hand" in header and "p1_scoop" in header and "p1_stderr" in header
    assert "p3_scoop" not in header             # the hi-lo query has two players
    rows = list(csv.DictReader(out.read_text().splitlines()))
    assert rows[1]["p1_win"] == "" and rows[1]["p1_scoop"]        # hi-lo: scoop, not win
    assert rows[0]["p1_stderr"] == "" and rows[2]["p1_stderr"]


# --- bad rows ------------------------------------------------------------------------

def many(n=1000):
    return [{"hands": "QQ+,AKs vs random", "trials": 1000} for _ in range(n)]


def test_one_bad_row_fails_before_anything_is_computed(monkeypatch, tmp_path):
    queries = many()
    queries[299] = {"hands": "AsKs vs AsQd"}
    calls = counting(monkeypatch)
    out = tmp_path / "r.csv"
    start = time.monotonic()
    with pytest.raises(CardError, match=r"^query 300: duplicate card 'As'"):
        batch_equity(queries, out=out, progress=False)
    assert time.monotonic() - start < 5 and calls == [] and not out.exists()
    for k in range(0, 60, 2):
        queries[k] = {"hands": "AsKs vs QQ", "board": "2c7x9h"}
    with pytest.raises(EvaluatorError) as error:
        batch_equity(queries, progress=False)
    message = str(error.value)
    assert message.startswith("31 of 1,000 queries are bad; nothing was computed")
    assert "query 1: unknown card '7x'" in message and "query 300: duplicate" not in message
    assert message.endswith("... and 11 more") and len(message.splitlines()) == 22
    assert calls == []


def test_record_writes_the_error_and_every_other_row(tmp_path):
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"}] * 400
    queries[299] = {"hands": "AsKs vs AsQd"}
    out = tmp_path / "r.csv"
    rows = batch_equity(queries, out=out, on_error="record", progress=False)
    errors = [(r["id"], r["error"]) for r in rows if "error" in r]
    assert errors == [(300, "duplicate card 'As' in hand 1 and hand 2")]
    assert len(rows) == 400 and rows[300]["p1_equity"] == rows[0]["p1_equity"]
    table = list(csv.DictReader(out.read_text().splitlines()))
    assert len(table) == 400 and table[299]["error"].startswith("duplicate card")
    assert table[299]["p1_equity"] == "" and table[0]["error"] == ""
    queries_file = write_jsonl(tmp_path / "q.jsonl", queries)
    done = run_cli("batch", str(queries_file), "--out", str(tmp_path / "cli.csv"),
                   "--on-error", "record", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cli.csv").read_bytes() == out.read_bytes()


def test_a_failure_while_running_keeps_the_rows_before_it(tmp_path):
    # passes the checks, fails when run: too many deals to enumerate
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"}] * 20
    queries[11] = {"hands": "random vs random vs random vs random", "exact": True}
    out = tmp_path / "r.csv"
    with pytest.raises(QueryFailed, match="query 12 failed: exact=True would enumerate") as e:
        batch_equity(queries, out=out, threads=2, progress=False)
    assert e.value.kept == 11 and len(out.read_text().splitlines()) == 1 + 11
    file = write_jsonl(tmp_path / "q.jsonl", queries)
    line = one_line_error(run_cli("batch", str(file), "--out", str(out), "--no-progress",
                                  "--overwrite"), code=1)
    assert "query 12 failed" in line and "the 11 rows before it are in" in line
    assert "--resume" in line and "--on-error record" in line
    # the failure recorded, the batch goes on from where it stopped
    rows = batch_equity(queries, out=out, resume=True, on_error="record", progress=False)
    assert [r["id"] for r in rows if "error" in r] == [12] and len(rows) == 20
    recorded = tmp_path / "recorded.csv"
    batch_equity(queries, out=recorded, on_error="record", progress=False)
    assert out.read_bytes() == recorded.read_bytes()


# --- reading query files -------------------------------------------------------------

def test_an_unquoted_comma_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text("game,hands\nholdem,AsKs vs QhQd\nholdem,AsKs vs QQ+,AKs\n")
    with pytest.raises(EvaluatorError, match=r"q.csv line 3: 3 fields but the header has 2 "
                                             r"\(game, hands\); put quotes"):
        read_queries(path)
    assert "line 3" in one_line_error(run_cli("batch", str(path)))


@pytest.mark.parametrize("name", ["queries", "queries.txt2"])
def test_json_lines_without_a_json_suffix_are_read_as_json(tmp_path, name):
    path = write_jsonl(tmp_path / name, MIXED[:2])
    assert read_queries(path) == MIXED[:2]


@pytest.mark.parametrize("text", ["", "\n\n", "game,hands\n", "game,hands\n\n"])
def test_a_file_without_queries_is_an_error(tmp_path, text):
    path = tmp_path / "q.csv"
    path.write_text(text)
    with pytest.raises(EvaluatorError, match="no queries in"):
        read_queries(path)
    assert "no queries in" in one_line_error(run_cli("batch", str(path)))


def test_byte_order_mark_and_bad_bytes(tmp_path):
    path = tmp_path / "q.csv"
    path.write_bytes(b"\xef\xbb\xbfgame,hands,board\r\nholdem,AsKs vs QhQd,2c7d9h\r\n")
    assert read_queries(path) == [{"game": "holdem", "hands": "AsKs vs QhQd",
                                   "board": "2c7d9h"}]
    path.write_bytes(b"game,hands\nholdem,AsKs vs QhQd\nholdem,AsKs vs Q\xe9Qd\n")
    with pytest.raises(EvaluatorError, match=r"q.csv line 3: not UTF-8 text \(byte 0xe9"):
        read_queries(path)
    assert "not UTF-8" in one_line_error(run_cli("batch", str(path)))


def test_a_column_given_twice_is_refused(tmp_path):
    """The second column of a name used to replace the first: the batch computed
    "KK vs QQ" for a row whose first hands column says "AsKs vs QhQd"."""
    path = tmp_path / "d.csv"
    path.write_text("id,hands,hands\n1,AsKs vs QhQd,KK vs QQ\n")
    with pytest.raises(EvaluatorError, match="d.csv line 1: column 'hands' appears twice"):
        read_queries(path)
    assert one_line_error(run_cli("batch", str(path))) == (
        "evaluator: error: d.csv line 1: column 'hands' appears twice")
    path.write_text("id,hands,,\n1,AsKs vs QhQd,,\n")       # unnamed columns stay ignored
    assert read_queries(path) == [{"id": "1", "hands": "AsKs vs QhQd"}]


@pytest.mark.parametrize("on_error", ["stop", "record"])
def test_an_id_given_twice_is_refused_naming_both_lines(tmp_path, monkeypatch, on_error):
    """Rows are matched to queries by id when resuming: two queries may not share one,
    whether both give it, or one gives the id another gets by its position."""
    calls = counting(monkeypatch)
    path = tmp_path / "q.csv"
    path.write_text("id,hands\na,AsKs vs QhQd\nb,KK vs QQ\na,AA vs KK\n")
    with pytest.raises(EvaluatorError, match=r"query a \(line 4\): id 'a' is also the id of "
                                             r"line 2; every query needs its own id"):
        batch_equity(path, progress=False, on_error=on_error)
    with pytest.raises(EvaluatorError, match="query 2: id 2 is also the id of query number 1"):
        batch_equity([{"hands": "AsKs vs QhQd", "id": 2}, {"hands": "KK vs QQ"}],
                     progress=False, on_error=on_error)
    with pytest.raises(EvaluatorError, match="query 3: id '3' is also the id of query number 1"):
        batch_equity([{"hands": "AsKs vs QhQd", "id": 3}, {"hands": "KK vs QQ", "id": "3"}],
                     progress=False, on_error=on_error)
    assert calls == []
    out = tmp_path / "r.csv"
    line = one_line_error(run_cli("batch", str(path), "--out", str(out), "--resume",
                                  "--on-error", on_error))
    assert "line 4" in line and "line 2" in line and not out.exists()


def test_a_folder_is_not_a_query_file(tmp_path):
    with pytest.raises(EvaluatorError, match="is a folder, not a query file"):
        read_queries(tmp_path)
    line = one_line_error(run_cli("batch", str(tmp_path)))
    assert "is a folder" in line and "no such file" not in line


def test_wrong_types_in_json_queries_name_the_field():
    with pytest.raises(ArgumentTypeError, match="query 1: hands must be strings"):
        batch_equity([{"hands": ["AsKs", 5]}], progress=False)
    with pytest.raises(EvaluatorError, match="query 1: needs two or more hands"):
        batch_equity([{"hands": 5}], progress=False)
    with pytest.raises(EvaluatorError, match="query 1: seed must be a non-negative"):
        batch_equity([{"hands": "AsKs vs QQ", "seed": -1}], progress=False)
    with pytest.raises(EvaluatorError, match="seed must be a non-negative"):
        batch_equity([{"hands": "AsKs vs QQ"}], seed=-1, progress=False)
    with pytest.raises(EvaluatorError, match="on_error must be"):
        batch_equity([{"hands": "AsKs vs QQ"}], on_error="skip", progress=False)


# --- output paths ------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (("batch", "{q}", "--out", "{tmp}/missing/r.csv"), "no such folder"),
    (("batch", "{q}", "--out", "{tmp}"), "is a folder"),
    (("batch", "{q}", "--out", "{tmp}/r.xlsx"), "unknown file type '.xlsx'; use .csv, .jsonl"),
    (("batch", "{q}", "--resume"), "--resume needs --out"),
    (("matrix", "holdem", "--out", "{tmp}/m.xlsx"), "unknown file type '.xlsx'; use .csv, "
                                                    ".json"),
    (("matrix", "holdem", "--out", "{tmp}/no/m.csv"), "no such folder"),
    (("plot", "grid", "--out", "{tmp}/g.bmp"), "unknown file type '.bmp'"),
    (("bench", "--quick", "--json", "{tmp}/b.txt"), "--json"),
    (("bench", "--quick", "--markdown", "{tmp}/no/b.md"), "--markdown"),
    (("bench", "--quick", "--chart", "{tmp}"), "--chart"),
])
def test_output_paths_are_checked_before_any_work(tmp_path, args, message):
    q = write_jsonl(tmp_path / "q.jsonl", MIXED[:1])
    args = [a.format(q=q, tmp=tmp_path) for a in args]
    start = time.monotonic()
    line = one_line_error(run_cli(*args))
    assert message in line and time.monotonic() - start < 20
    assert not (tmp_path / "m.xlsx").exists()


@pytest.mark.slow
def test_the_query_file_is_never_the_output(tmp_path, monkeypatch):
    """``--out`` the query file itself would overwrite the queries with the results: refused,
    by its own name, another spelling of it or a hard link to it, with --resume too."""
    calls = counting(monkeypatch)
    queries = tmp_path / "ok.csv"
    queries.write_text("hands\nAsKs vs QhQd\n")
    text = queries.read_bytes()
    os.link(queries, tmp_path / "hard.csv")
    (tmp_path / "sub").mkdir()
    for out in (queries, tmp_path / "sub" / ".." / "ok.csv", tmp_path / "hard.csv"):
        for resume in (False, True):
            with pytest.raises(EvaluatorError, match="out is the query file"):
                batch_equity(queries, out=out, resume=resume, progress=False)
    for out in ("ok.csv", "./sub/../ok.csv", "hard.csv"):
        for extra in ((), ("--resume",)):
            done = subprocess.run([sys.executable, "-m", "evaluator", "batch", "ok.csv",
                                   "--out", out, *extra], capture_output=True, text=True,
                                  timeout=300, cwd=tmp_path)
            assert one_line_error(done) == ("evaluator: error: --out is the query file "
                                            "ok.csv; write the results to another file")
    assert queries.read_bytes() == text and calls == []
    batch_equity(queries, out=tmp_path / "results.csv", progress=False)    # another file: fine


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_output_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    with pytest.raises(EvaluatorError, match="cannot create files"):
        batch_equity(MIXED[:1], out=locked / "r.csv", progress=False)


# --- Dask addresses that are not schedulers ---------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(handler):
    """A loopback server answering each connection with ``handler(conn)``; its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def loop():
        while True:
            conn, _ = listener.accept()
            threading.Thread(target=handler, args=(conn,), daemon=True).start()
    threading.Thread(target=loop, daemon=True).start()
    return listener.getsockname()[1]


def garbage(conn):
    try:
        while True:
            conn.sendall(b"\xff" * 4096)
    except OSError:
        conn.close()


@pytest.fixture(scope="module")
def http_port():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


@pytest.mark.parametrize("kind", ["http", "garbage", "nothing", "closes"])
@pytest.mark.slow
@pytest.mark.serial
def test_addresses_that_are_not_schedulers_fail_in_one_line_within_5_s(tmp_path, kind,
                                                                      http_port):
    pytest.importorskip("distributed")
    port = {"http": lambda: http_port, "garbage": lambda: serve(garbage),
            "nothing": free_port, "closes": lambda: serve(lambda c: c.close())}[kind]()
    q = write_jsonl(tmp_path / "q.jsonl", MIXED[:1])
    start = time.monotonic()
    done = run_cli("batch", str(q), "--scheduler", f"tcp://127.0.0.1:{port}",
                   "--no-progress", timeout=60)
    took = time.monotonic() - start
    line = one_line_error(done)
    assert line.startswith(f"evaluator: error: cannot reach the Dask scheduler at "
                           f"'tcp://127.0.0.1:{port}'")
    assert took < 8, f"{took:.1f} s (interpreter start included)"


def not_a_scheduler(kind, http_port):
    """A 127.0.0.1 address that no Dask scheduler answers."""
    return {"dashboard link": lambda: f"http://127.0.0.1:{http_port}/status",
            "http, nothing there": lambda: f"http://127.0.0.1:{free_port()}",
            "unknown protocol": lambda: "foo://127.0.0.1:9",
            "ws, nothing there": lambda: f"ws://127.0.0.1:{free_port()}",
            "ws, a web server": lambda: f"ws://127.0.0.1:{http_port}",
            "tcp, a web server": lambda: f"tcp://127.0.0.1:{http_port}",
            "no protocol, nothing there": lambda: f"127.0.0.1:{free_port()}",
            "no port": lambda: "tcp://127.0.0.1",
            "garbage": lambda: "garbage"}[kind]()


@pytest.mark.parametrize("kind", ["dashboard link", "http, nothing there", "unknown protocol",
                                  "ws, nothing there", "ws, a web server",
                                  "tcp, a web server", "no protocol, nothing there", "no port",
                                  "garbage"])
def test_any_address_that_is_not_a_scheduler_is_one_line_within_5_s_and_nothing_after(
        tmp_path, kind, http_port):
    """A pasted dashboard link, a wrong protocol, nothing listening, a web server: one line,
    exit 2, and no traceback from a Dask client left to the garbage collector after it."""
    pytest.importorskip("distributed")
    address = not_a_scheduler(kind, http_port)
    q = write_jsonl(tmp_path / "q.jsonl", MIXED[:1])
    start = time.monotonic()
    done = run_cli("batch", str(q), "--scheduler", address, "--no-progress", timeout=60)
    took = time.monotonic() - start
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr
    line = one_line_error(done)
    assert line.startswith("evaluator: error: ") and address in line
    assert took < 5, f"{took:.1f} s (interpreter start included)"


@pytest.mark.parametrize("kind", ["dashboard link", "unknown protocol", "ws, nothing there",
                                  "tcp, a web server"])
def test_the_api_refuses_an_address_that_is_not_a_scheduler_quickly_and_quietly(
        tmp_path, kind, http_port):
    """``batch_equity(scheduler=...)``: an ``EvaluatorError`` within 5 s, before the output
    is opened (the file is left as it was), and nothing printed then or at exit."""
    pytest.importorskip("distributed")
    address = not_a_scheduler(kind, http_port)
    out = tmp_path / "r.csv"
    out.write_text("an earlier batch's rows\n")
    start = time.monotonic()
    with pytest.raises(EvaluatorError, match="cannot reach the Dask scheduler"):
        batch_equity(MIXED[:1], scheduler=address, out=out, overwrite=True, progress=False)
    assert time.monotonic() - start < 5
    assert out.read_text() == "an earlier batch's rows\n"
    script = ("import evaluator\n"
              "try:\n"
              f"    evaluator.batch_equity([{{'hands': 'AsKs vs QhQd'}}], scheduler={address!r},"
              " progress=False)\n"
              "except evaluator.EvaluatorError as error:\n"
              "    print(type(error).__name__)\n")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    took = time.monotonic() - start
    assert (done.returncode, done.stdout, done.stderr) == (0, "EvaluatorError\n", "")
    assert took < 5, f"{took:.1f} s (interpreter start included)"


def test_a_wrong_kind_of_scheduler_is_a_type_error():
    with pytest.raises(ArgumentTypeError, match="scheduler must be an address"):
        batch_equity(MIXED[:1], scheduler=8786, progress=False)


# --- a full disk ----------------------------------------------------------------------

FULL = OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("name", ["r.csv", "r.jsonl", "r.json"])
def test_a_full_disk_is_one_line_with_the_rows_kept_and_resume_finishes(
        tmp_path, monkeypatch, capsys, name):
    """A write that fails (here the sixth row's) ends the batch with one line: how many
    rows the file keeps, and to run again with --resume; that run gives the whole file."""
    queries = write_jsonl(tmp_path / "q.jsonl", [{"hands": "AsKs vs QhQd", "board": "2c7d9h",
                                                  "id": f"q{i}"} for i in range(12)])
    whole = tmp_path / ("whole" + os.path.splitext(name)[1])
    batch_equity(queries, out=whole, progress=False)
    real = sink.Sink._put
    written = []

    def put(self, row):
        if len(written) == 5:
            raise FULL
        written.append(row)
        real(self, row)
    monkeypatch.setattr(sink.Sink, "_put", put)
    out = tmp_path / name
    kept_in = tmp_path / (name + ".rows.jsonl" if name.endswith(".json") else name)
    assert main(["batch", str(queries), "--out", str(out), "--no-progress"]) == 1
    # a cold cache adds the compile note, a line of its own before any row (a worker of
    # the suite may be the first to run these kernels)
    err = capsys.readouterr().err.replace(COMPILE_NOTE + "\n", "")
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err == (f"evaluator: error: cannot write {kept_in}: No space left on device; the "
                   f"first 5 of 12 rows are kept in {kept_in}: make room and run again with "
                   "--resume to finish\n")
    assert len(kept_in.read_text().splitlines()) == 5 + name.endswith(".csv")
    monkeypatch.setattr(sink.Sink, "_put", real)
    calls = counting(monkeypatch)
    assert main(["batch", str(queries), "--out", str(out), "--resume", "--no-progress"]) == 0
    assert len(calls) == 12 - 5
    assert out.read_bytes() == whole.read_bytes() and not (tmp_path / "r.json.rows.jsonl").exists()


class FullDisk:
    """An output on a disk that fills up: it takes ``room`` more characters (cutting the
    line that does not fit), then every write and flush fails."""

    def __init__(self, handle, room):
        self.handle, self.room = handle, room

    def write(self, text):
        if self.room <= 0:
            raise FULL
        part = text[:self.room]
        self.handle.write(part)
        self.handle.flush()
        self.room -= len(part)
        if len(part) < len(text):
            raise FULL

    def flush(self):
        if self.room <= 0:
            raise FULL
        self.handle.flush()

    def __getattr__(self, name):
        return getattr(self.handle, name)


@pytest.mark.parametrize("name", ["r.csv", "r.jsonl"])
def test_a_full_disk_in_the_middle_of_a_line_keeps_the_whole_rows_for_resume(
        tmp_path, monkeypatch, name):
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h", "id": f"q{i}"} for i in range(12)]
    whole = tmp_path / ("whole" + os.path.splitext(name)[1])
    batch_equity(queries, out=whole, progress=False)
    lines = whole.read_bytes().splitlines(keepends=True)
    header = 1 if name.endswith(".csv") else 0
    room = sum(map(len, lines[header:header + 5])) + 10      # five rows, a part of the sixth
    real = sink.Sink.__init__

    def init(self, *args, **kwargs):
        real(self, *args, **kwargs)
        self.handle = FullDisk(self.handle, room)
    monkeypatch.setattr(sink.Sink, "__init__", init)
    out = tmp_path / name
    with pytest.raises(batch.WriteFailed) as failed:
        batch_equity(queries, out=out, threads=1, progress=False)
    assert isinstance(failed.value, EvaluatorError)
    assert failed.value.kept == 5 and failed.value.total == 12 and failed.value.path == out
    assert str(failed.value) == (f"cannot write {out}: No space left on device; the first 5 "
                                 f"of 12 rows are kept in {out}: make room and run again with "
                                 "resume=True to finish")
    assert out.read_bytes() == b"".join(lines[:header + 5])      # the part of a line taken out
    monkeypatch.setattr(sink.Sink, "__init__", real)
    batch_equity(queries, out=out, resume=True, progress=False)
    assert out.read_bytes() == whole.read_bytes()


def test_a_full_disk_while_writing_json_keeps_the_rows_file(tmp_path, monkeypatch):
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h", "id": f"q{i}"} for i in range(4)]
    out = tmp_path / "r.json"

    def full(rows, path):
        path.write_text("[{")
        raise FULL
    monkeypatch.setattr(batch, "write_json", full)
    with pytest.raises(batch.WriteFailed, match=r"cannot write .*r\.json: No space left on "
                       r"device; all 4 rows are kept in .*r\.json\.rows\.jsonl: make room "
                       r"and run again with resume=True to write r\.json"):
        batch_equity(queries, out=out, progress=False)
    assert not out.exists()
    monkeypatch.undo()
    calls = counting(monkeypatch)
    rows = batch_equity(queries, out=out, resume=True, progress=False)
    assert calls == [] and json.loads(out.read_text()) == rows


# --- resume checks the results it keeps -------------------------------------------------

def edit(field, value):
    """A change to a row read back, its digest made again to fit (as a faulty writer
    would leave it), so that the checks behind the digest are what refuses it."""
    def change(row):
        if value is DELETE:
            del row[field]
        else:
            row[field] = value(row) if callable(value) else value
        row["digest"] = row_digest(row)
    return change


DELETE = object()


# lines of MIXED's rows: 1 exact hold'em, 2 exact omaha8 (hi-lo), 3 sampled, 4 three players
@pytest.mark.parametrize("line, change, says", [
    (1, edit("p1_equity", 0.5), "p1_equity 0.5 outside p1_win"),
    (1, edit("p1_equity", lambda r: r["p1_equity"] + 0.1), "p1_equity 0.339393939"),
    # a sampled row with ties: the share stays within win .. win + tie, the sum does not
    (3, edit("p1_equity", lambda r: r["p1_equity"] + 1e-6), "equities adding up to 1.000001"),
    (1, edit("p1_equity", "0.2393"), "p1_equity '0.2393', not a number from 0 to 1"),
    (3, edit("p1_stderr", -0.1), "p1_stderr -0.1, not a number from 0 to 1"),
    (2, edit("p1_hi", lambda r: r["p1_hi"] + 0.01), "p1_hi \\+ p1_lo"),
    (4, edit("p3_tie", DELETE), "no p3_tie"),
    (1, edit("p3_equity", 0.0), "a column p3_equity that this query's row does not have"),
    (1, edit("exact", "yes"), "exact 'yes', not true or false"),
    (1, edit("samples", 0), "samples 0, not a positive number"),
    (3, edit("seed", None), "seed None"),
    (1, edit("p2_hand", ""), "p2_hand ''"),
])
def test_resume_refuses_a_row_whose_results_were_edited(tmp_path, monkeypatch, line, change,
                                                       says):
    out = tmp_path / "r.jsonl"
    batch_equity(MIXED[:6], out=out, progress=False)
    rows = [json.loads(text) for text in out.read_text().splitlines()][:4]
    change(rows[line - 1])
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    before = out.read_bytes()
    calls = counting(monkeypatch)
    with pytest.raises(EvaluatorError, match=f"cannot resume {out}: line {line} .*has {says}"
                       ".*delete that line and the lines after it to compute them again, or "
                       "start the file afresh \\(without resuming\\)"):
        batch_equity(MIXED[:6], out=out, resume=True, progress=False)
    assert calls == [] and out.read_bytes() == before


@pytest.mark.parametrize("cell, text, says", [
    ("p1_equity", "abc", "p1_equity 'abc', not a number"),
    ("p2_win", "0.9", "p2_equity .* outside p2_win 0.9"),
    ("exact", "maybe", "exact 'maybe', not True or False"),
    ("samples", "many", "samples 'many', not a number"),
])
def test_resume_refuses_a_csv_cell_edited_in_one_line(tmp_path, cell, text, says):
    queries = write_jsonl(tmp_path / "q.jsonl", MIXED[:3])
    out = tmp_path / "r.csv"
    batch_equity(queries, out=out, progress=False)
    table = list(csv.reader(out.read_text().splitlines()))
    table[1][table[0].index(cell)] = text                       # the first row, file line 2
    table[1][-1] = row_digest(dict(zip(table[0], table[1])))    # the digest made to fit
    with out.open("w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(table[:3])
    line = one_line_error(run_cli("batch", str(queries), "--out", str(out), "--resume",
                                  "--no-progress"))
    assert re.search(f"cannot resume {out}: line 2 \\(query flop\\) has {says}", line), line
    assert line.endswith("or start the file afresh (without --resume)")


def _swap_players(row):
    """Player 1's figures and player 2's traded: a row that still adds up, as a hand edit
    (or a sort gone wrong) could leave it."""
    for name in ("equity", "win", "tie"):
        row[f"p1_{name}"], row[f"p2_{name}"] = row[f"p2_{name}"], row[f"p1_{name}"]


def test_resume_refuses_a_consistent_hand_edit_by_its_digest(tmp_path, monkeypatch):
    out = tmp_path / "r.jsonl"
    rows = batch_equity(MIXED[:3], out=out, progress=False)
    lines = [json.loads(text) for text in out.read_text().splitlines()]
    assert [line["digest"] for line in lines] == [row_digest(row) for row in rows]
    _swap_players(lines[0])                      # line 1: exact hold'em, heads-up
    out.write_text("".join(json.dumps(line) + "\n" for line in lines[:2]))
    calls = counting(monkeypatch)
    with pytest.raises(EvaluatorError, match=f"cannot resume {out}: line 1 \\(query .*\\) has "
                       "figures that do not match its digest '[0-9a-f]{16}'.*delete that line"):
        batch_equity(MIXED[:3], out=out, resume=True, progress=False)
    assert calls == []
    _swap_players(lines[0])                      # line 1 as written, line 2 without digest
    del lines[1]["digest"]
    out.write_text("".join(json.dumps(line) + "\n" for line in lines[:2]))
    with pytest.raises(EvaluatorError, match="line 2 .*has no digest; a batch writes no such"):
        batch_equity(MIXED[:3], out=out, resume=True, progress=False)


def test_resume_refuses_a_consistent_csv_edit_by_its_digest(tmp_path):
    queries = write_jsonl(tmp_path / "q.jsonl", MIXED[:3])
    out = tmp_path / "r.csv"
    batch_equity(queries, out=out, progress=False)
    table = list(csv.reader(out.read_text().splitlines()))
    assert table[0][-2:] == ["error", "digest"]
    row = dict(zip(table[0], table[1]))
    assert table[1][-1] == row_digest(row)       # the cells as text give the digest written
    _swap_players(row)
    table[1] = list(row.values())
    with out.open("w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(table[:3])
    line = one_line_error(run_cli("batch", str(queries), "--out", str(out), "--resume",
                                  "--no-progress"))
    assert re.search("line 2 .*figures that do not match its digest", line), line
    # a file of a version before the digest: its header says so
    with out.open("w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([r[:-1] for r in table[:3]])
    line = one_line_error(run_cli("batch", str(queries), "--out", str(out), "--resume",
                                  "--no-progress"))
    assert "no digest column (written by an older version): start it afresh" in line, line


def test_resume_keeps_csv_rows_of_weighted_ranges(tmp_path):
    """Exact rows of weighted ranges count their deals' weight, a float, in ``samples``."""
    queries = [{"hands": "QQ+,AKs:0.5 vs JJ:0.3,AKo", "board": "2c7d9hTs"},
               {"hands": "AsKs vs QhQd", "board": "2c7d9h"}]
    whole = tmp_path / "whole.csv"
    rows = batch_equity(queries, out=whole, progress=False)
    assert isinstance(rows[0]["samples"], float)
    out = tmp_path / "r.csv"
    out.write_bytes(b"".join(whole.read_bytes().splitlines(keepends=True)[:2]))
    assert batch_equity(queries, out=out, resume=True, progress=False) == rows
    assert out.read_bytes() == whole.read_bytes()


def test_digest_of_a_lone_surrogate_round_trips(tmp_path):
    """JSON may hold a lone surrogate (an id, a recorded query's text): the row is written
    escaped, and its digest is computed and checked like any other."""
    queries = [{"id": "\ud800", "hands": "XxYy vs AsKs"},
               {"hands": "AsKs vs QhQd", "board": "2c7d9h"}]
    out = tmp_path / "r.jsonl"
    rows = batch_equity(queries, out=out, on_error="record", progress=False)
    kept = out.read_text().splitlines()
    out.write_text(kept[0] + "\n")
    assert batch_equity(queries, out=out, resume=True, on_error="record",
                        progress=False) == rows


def test_an_older_versions_files_are_named_so(tmp_path):
    out = tmp_path / "r.jsonl"
    rows = batch_equity(MIXED[:2], out=out, progress=False)
    out.write_text("".join(json.dumps(row) + "\n" for row in rows[:1]))   # no digests
    with pytest.raises(EvaluatorError, match="its rows have no digest \\(written by an older "
                                             "version\\): start it afresh"):
        batch_equity(MIXED[:2], out=out, resume=True, progress=False)
    # an older CSV holding its header alone loses nothing: it starts afresh
    out = tmp_path / "r.csv"
    batch_equity(MIXED[:2], out=out, progress=False)
    header = out.read_text().splitlines()[0]
    out.write_text(header.rsplit(",", 1)[0] + "\n")
    assert batch_equity(MIXED[:2], out=out, resume=True, progress=False) == rows
    assert out.read_text().splitlines()[0] == header


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: one thread anyway")
def test_small_queries_keep_to_one_thread_unless_threads_are_asked_for(monkeypatch):
    # queries that run mostly in the interpreter only queue for it on more threads (two
    # ran heads-up turn spots 2.3x slower): by default the batch times its first ones
    # (queries of the general way: plain known hands are answered in bulk, in kernels
    # that free the interpreter)
    import evaluator._parallel as parallel
    general_only(monkeypatch)
    real = parallel.imap_unordered
    calls: list[tuple[int, int]] = []

    def spy(function, items, threads, **options):
        calls.append((len(items), threads))
        return real(function, items, threads, **options)
    monkeypatch.setattr(parallel, "imap_unordered", spy)
    turns = ["Tc", "Jd", "Qc", "Kh", "3c", "4d", "5h", "6s", "8c", "8d"]
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h" + t, "exact": True}
               for t in turns] * 5
    rows = batch_equity(queries, progress=False)
    assert calls == [(batch.PROBE_QUERIES, 1), (len(queries) - batch.PROBE_QUERIES, 1)]
    calls.clear()
    assert batch_equity(queries, threads=2, progress=False) == rows
    assert calls == [(len(queries), 2)]
    # an exact query deals no seed: its row is the same whatever the batch's seed
    assert batch_equity(queries[:3], seed=7, progress=False) == rows[:3]


@pytest.mark.parametrize("name, content, resumed", [
    ("r.csv", b"precious data", False), ("r.jsonl", b'{"x": 1}', False),
    ("r.csv", b"id,game,han", True), ("r.jsonl", b'{"id": 1, "ga', True)])
def test_resume_of_a_file_without_one_whole_line(tmp_path, name, content, resumed):
    # a run stopped inside its first line is resumed; another file's one line is refused
    # as it is, not cut to nothing
    out = tmp_path / name
    out.write_bytes(content)
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h"}]
    if resumed:
        rows = batch_equity(queries, out=out, resume=True, progress=False)
        assert len(rows) == 1 and rows.resumed == 0
        assert out.read_bytes().count(b"\n") == 1 + name.endswith(".csv")
    else:
        with pytest.raises(EvaluatorError, match="not a batch's output"):
            batch_equity(queries, out=out, resume=True, progress=False)
        assert out.read_bytes() == content
