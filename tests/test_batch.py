"""Batch equity: files, seeds, studies, and running on a Dask cluster."""
import importlib.util
import json
import math
import os
import signal
import sys
import threading
import time

import pytest

from evaluator import EvaluatorError, RangeError, batch_equity, equity, hand_vs_range
from evaluator.batch import BatchInterrupted, QueryFailed
from evaluator.batch.rows import run_chunk
from evaluator.export import write_rows

QUERIES = [
    {"hands": "AsKs vs QhQd", "board": "2c7d9h"},
    {"game": "omaha8", "hands": ["Ah2h3sKs", "AdKdQcJc"], "board": "4c5d9sTh"},
    {"hands": "QQ+,AKs | random", "trials": 50_000},
    {"hands": "AA; KK; QQ", "board": "2c7d9hTs", "id": "three"},
    {"game": "teen_patti", "hands": "AsKsQs vs random", "trials": 20_000, "seed": 7},
]


def test_rows_match_direct_calls_and_keep_order():
    rows = batch_equity(QUERIES, progress=False)
    assert [r["id"] for r in rows] == [1, 2, 3, "three", 5]
    direct = equity("holdem", ["AsKs", "QhQd"], "2c7d9h")
    assert rows[0]["p1_equity"] == direct.players[0].equity and rows[0]["exact"]
    assert rows[1]["p1_hi"] + rows[1]["p1_lo"] == pytest.approx(rows[1]["p1_equity"])
    assert rows[2]["method"].startswith("Monte Carlo") and rows[2]["p1_stderr"] > 0
    assert rows[3]["p3_hand"] == "QQ"
    again = equity("teen_patti", ["AsKsQs", "random"], trials=20_000, seed=7)
    assert rows[4]["p1_equity"] == again.players[0].equity


def test_seeds_make_batches_repeatable_whatever_the_threads():
    one = batch_equity(QUERIES, threads=1, progress=False)
    two = batch_equity(QUERIES, threads=2, progress=False)
    assert one == two
    other = batch_equity(QUERIES, seed=1, threads=2, progress=False)
    assert other[2]["seed"] != one[2]["seed"]
    # another sample: its counts differ (the pot shares alone can coincide)
    assert (other[2]["p1_win"], other[2]["p1_tie"]) != (one[2]["p1_win"], one[2]["p1_tie"])


def test_a_query_may_ask_for_the_first_monte_carlo_stream(tmp_path):
    """The ``version`` field, as ``equity``'s: 1 gives the seeded answers of release 0.1.0,
    empty or absent the default; a stream that does not exist is refused before any row."""
    spot = {"hands": "QQ+,AKs vs random", "trials": 50_000, "seed": 7}
    rows = batch_equity([{**spot, "version": 1}, spot, {**spot, "version": ""}],
                        progress=False)
    for row, version in zip(rows, (1, 2, 2)):
        direct = equity("holdem", ["QQ+,AKs", "random"], trials=50_000, seed=7,
                        version=version)
        assert row["p1_equity"] == direct.players[0].equity
    assert rows[0]["p1_equity"] != rows[1]["p1_equity"] == rows[2]["p1_equity"]
    csv_in = tmp_path / "queries.csv"
    csv_in.write_text("hands,trials,seed,version\nQQ+ vs random,1000,1,1\n"
                      "QQ+ vs random,1000,1,5\n")
    with pytest.raises(EvaluatorError, match=r"query 2 \(line 3\): version must be 1 or 2"):
        batch_equity(csv_in, progress=False)


def test_files_in_and_out(tmp_path):
    csv_in = tmp_path / "queries.csv"
    csv_in.write_text("game,hands,board,trials,seed\n"
                      "holdem,AsKs vs QhQd,2c7d9h,,\n"
                      "omaha,AA** vs KsKhQsQh,2c7d9hTs,20000,3\n")
    jsonl = tmp_path / "queries.jsonl"
    jsonl.write_text("\n".join(json.dumps(q) for q in QUERIES[:2]) + "\n")
    rows = batch_equity(csv_in, progress=False)
    assert len(rows) == 2 and rows[0]["p1_equity"] == pytest.approx(0.2393939, abs=1e-6)
    assert rows[1]["seed"] == "0x3"        # text, as results files write seeds
    assert batch_equity(jsonl, progress=False)[0] == rows[0]
    for name in ("out.csv", "out.jsonl"):
        write_rows(rows, tmp_path / name)
        assert (tmp_path / name).stat().st_size > 100
    back = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert back == rows


@pytest.mark.parametrize("queries, error, match", [
    ("missing-file.csv", EvaluatorError, "no such file"),
    ([{"hands": "AsKs"}], EvaluatorError, "two or more hands"),
    (["AsKs vs QQ"], EvaluatorError, "query 1: a query is a mapping"),
    ([{"hands": "AsKs vs QQ", "colour": 1}], EvaluatorError, "unknown field 'colour'"),
    ([{"hands": "AsKs vs QQ", "trials": "many"}], EvaluatorError, "trials must be"),
    ([{"hands": "AsKs vs QQ++"}], RangeError, "query 1: .*QQ\\+\\+"),
    ([{"hands": "AsKs vs QQ"}, {"game": "stud", "hands": "AsKs vs QQ", "id": "x7"}],
     EvaluatorError, "query x7: unknown game 'stud'"),
])
def test_bad_batches(queries, error, match):
    with pytest.raises(error, match=match):
        batch_equity(queries, progress=False)


def test_hand_vs_range_study():
    shares = hand_vs_range("holdem", "QQ+,AKs", "2c7d9hTs", progress=False)
    assert len(shares) == 169
    direct = equity("holdem", ["T9s", "QQ+,AKs"], "2c7d9hTs")
    assert shares["T9s"] == pytest.approx(direct.players[0].equity, abs=1e-12)
    assert math.isnan(shares["22"]) is False and 0 <= shares["AA"] <= 1


# --- Dask -------------------------------------------------------------------

# only the tests that need Dask skip without it (a module-level importorskip here skipped
# the whole file, the local tests above included)
needs_dask = pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                                reason="needs dask.distributed (pip install '.[cluster]')")


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", silence_logs=50) as local:
        yield local


@needs_dask
@pytest.mark.slow
def test_cluster_gives_the_local_rows(cluster):
    local = batch_equity(QUERIES, progress=False)
    for chunk in (1, 2, 5):
        remote = batch_equity(QUERIES, scheduler=cluster.scheduler_address, chunk_size=chunk,
                              progress=False)
        assert remote == local


@needs_dask
@pytest.mark.slow
@pytest.mark.serial
def test_batch_survives_a_killed_worker(cluster, tmp_path):
    from distributed import Client
    queries = [{"hands": "QQ+,AKs vs random", "board": "2c4c5h", "trials": 4_000_000 + i}
               for i in range(48)]
    local = batch_equity(queries, progress=False)
    out = tmp_path / "rows.jsonl"
    with Client(cluster.scheduler_address, set_as_default=False) as client:
        client.wait_for_workers(2)
        pids = client.run(os.getpid)
        result: dict = {}
        runner = threading.Thread(target=lambda: result.setdefault(
            "rows", batch_equity(queries, scheduler=client, chunk_size=1, out=out,
                                 progress=False)))
        runner.start()
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_bytes().count(b"\n") >= 1):
            assert time.monotonic() < deadline and runner.is_alive()
            time.sleep(0.01)
        os.kill(next(iter(pids.values())), signal.SIGKILL)      # a worker dies mid-batch
        assert runner.is_alive()                                  # ... while it runs
        runner.join(timeout=240)
        assert not runner.is_alive()
        # the nanny starts a new worker; the scheduler may take a moment to forget the old one
        deadline = time.monotonic() + 60
        while True:
            try:
                now = client.run(os.getpid)
                if len(now) == 2 and set(now.values()) != set(pids.values()):
                    break
            except OSError:                                       # a closed comm, retried
                pass
            assert time.monotonic() < deadline, "the killed worker was not replaced"
            time.sleep(0.5)
    assert result["rows"] == local                               # nothing lost or doubled


@needs_dask
def test_unreachable_scheduler_fails_fast():
    start = time.monotonic()
    with pytest.raises(EvaluatorError, match="cannot reach the Dask scheduler"):
        batch_equity(QUERIES[:1], scheduler="tcp://127.0.0.1:9", progress=False)
    assert time.monotonic() - start < 15


@needs_dask
@pytest.mark.slow
@pytest.mark.serial
def test_cluster_batch_writes_rows_as_they_finish_and_stops_on_ctrl_c(cluster, tmp_path,
                                                                    sigint_handled):
    queries = [{"hands": "AsKs vs QhQd vs random", "trials": 300_000, "id": i}
               for i in range(120)]
    whole = tmp_path / "whole.csv"
    batch_equity(queries, out=whole, progress=False)
    out = tmp_path / "r.csv"
    sent = []

    def interrupt_once_rows_are_written():
        while not out.exists() or out.read_bytes().count(b"\n") < 4:
            time.sleep(0.02)
        sent.append(time.monotonic())
        signal.raise_signal(signal.SIGINT)
    threading.Thread(target=interrupt_once_rows_are_written, daemon=True).start()
    with pytest.raises(BatchInterrupted) as stop:
        batch_equity(queries, scheduler=cluster.scheduler_address, chunk_size=2, out=out,
                     progress=False)
    assert time.monotonic() - sent[0] < 3
    kept = stop.value.kept
    assert 0 < kept < 120 and len(out.read_text().splitlines()) == kept + 1
    assert whole.read_bytes().startswith(out.read_bytes())
    batch_equity(queries, scheduler=cluster.scheduler_address, out=out, resume=True,
                 progress=False)
    assert out.read_bytes() == whole.read_bytes()


def failing_chunk(queries):
    """A cluster task that fails on the worker, for no query's fault, whenever its chunk
    holds the query ``boom``; defined in the test, so it travels by value."""
    if any(query.get("id") == "boom" for query in queries):
        raise RuntimeError("the worker could not run this task")
    return run_chunk(queries)


@needs_dask
def test_a_cluster_task_that_keeps_failing_fails_its_queries(cluster, tmp_path, monkeypatch):
    import cloudpickle

    import evaluator.batch as batch
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    monkeypatch.setattr(batch.cluster, "run_chunk", failing_chunk)
    queries = [{"hands": "AsKs vs QhQd", "board": "2c7d9h", "id": f"q{i}"} for i in range(8)]
    queries[5]["id"] = "boom"                     # chunk 3 of 4: queries 5 and 6
    local = batch_equity(queries, progress=False)
    address = cluster.scheduler_address
    try:
        recorded = tmp_path / "recorded.csv"
        rows = batch_equity(queries, scheduler=address, chunk_size=2, out=recorded,
                            on_error="record", progress=False)
        reason = ("its cluster task failed: RuntimeError: the worker could not run this "
                  "task")
        assert [(r["id"], r.get("error")) for r in rows if "error" in r] == [
            ("q4", reason), ("boom", reason)]
        assert rows[:4] == local[:4] and rows[6:] == local[6:]
        out = tmp_path / "r.csv"
        with pytest.raises(QueryFailed, match="query q4 failed: its cluster task failed: "
                                              "RuntimeError") as failed:
            batch_equity(queries, scheduler=address, chunk_size=2, out=out, progress=False)
        assert failed.value.kept == 4 and len(out.read_text().splitlines()) == 1 + 4
        batch_equity(queries, scheduler=address, chunk_size=2, out=out, resume=True,
                     on_error="record", progress=False)
        assert out.read_bytes() == recorded.read_bytes()
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


@needs_dask
def test_a_cluster_that_fails_as_a_whole_is_a_query_failed_error(cluster):
    from distributed import Client
    client = Client(cluster.scheduler_address, set_as_default=False)
    client.close()                                  # no task can be sent to it
    with pytest.raises(QueryFailed, match="^query 1 failed: the cluster failed: ") as failed:
        batch_equity(QUERIES, scheduler=client, progress=False)
    assert failed.value.kept == 0


def test_numpy_integers_are_whole_numbers_in_a_query():
    """A query built from a caller's arrays: NumPy integers are the numbers they hold (a
    sweep found ``trials``, ``seed`` and ``version`` of type int64 refused as "not a
    number")."""
    import numpy as np
    query = {"hands": "QQ+,AKs vs random", "trials": np.int64(20_000), "seed": np.uint32(7),
             "version": np.int8(1)}
    row = batch_equity([query], progress=False)[0]
    direct = equity("holdem", ["QQ+,AKs", "random"], trials=20_000, seed=7, version=1)
    assert row["p1_equity"] == direct.players[0].equity and row["version"] == 1
    with pytest.raises(EvaluatorError, match="trials must be a number, got np.True_"):
        batch_equity([{**query, "trials": np.bool_(True)}], progress=False)
