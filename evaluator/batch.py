"""Many equity queries at once: on this machine's cores, or on a Dask cluster.

A query is a mapping with the arguments of ``equity``: ``game`` (default
hold'em), ``hands`` (a list, or one string with hands separated by ``vs``,
``|`` or ``;``), and optionally ``board``, ``dead``, ``exact``, ``trials``,
``target_stderr``, ``seed`` and ``id``.  Files: CSV with those columns, or
JSON Lines with one object per line.

Every query runs on its own, with its own seed (the query's, or one derived
from the batch ``seed`` and the query's position), so the rows are the same
bit for bit whether the batch runs here, on a cluster, in one chunk or in
many, and whatever the number of threads.

>>> rows = batch_equity([{"hands": "AsKs vs QhQd", "board": "2c7d9h"}], progress=False)
>>> rows[0]["p1_equity"], rows[0]["method"]
(0.23939393939393938, 'exact enumeration of 990 boards')
"""
from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from .errors import EvaluatorError

__all__ = ["batch_equity", "read_queries", "write_rows"]

FIELDS = ("game", "hands", "board", "dead", "exact", "trials", "target_stderr", "seed")
_SPLIT = re.compile(r"\s+vs\.?\s+|\s*[|;]\s*", re.IGNORECASE)


def read_queries(path: str | Path) -> list[dict]:
    """Queries from a CSV file (a header row with the query fields) or JSON Lines."""
    path = Path(path)
    if not path.is_file():
        raise EvaluatorError(f"no such file: {str(path)!r}", str(path))
    text = path.read_text()
    if path.suffix.lower() in (".jsonl", ".json", ".ndjson"):
        queries = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                queries.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise EvaluatorError(f"{path.name} line {number}: not JSON ({error.msg})",
                                     number) from None
        return queries
    rows = list(csv.DictReader(text.splitlines()))
    return [{k: v for k, v in row.items() if k and v not in (None, "")} for row in rows]


def _normalise(query: Mapping, index: int, seed: int) -> dict:
    """A query with every field in its final type; errors name the query."""
    if not isinstance(query, Mapping):
        raise EvaluatorError(f"query {index + 1}: a query is a mapping of equity arguments, "
                             f"got {query!r}", query)
    where = f"query {query.get('id', index + 1)}"
    unknown = set(query) - set(FIELDS) - {"id"}
    if unknown:
        raise EvaluatorError(f"{where}: unknown field {sorted(unknown)[0]!r} "
                             f"(fields: {', '.join(FIELDS)})", sorted(unknown)[0])
    hands = query.get("hands")
    if isinstance(hands, str):
        hands = [h for h in _SPLIT.split(hands.strip()) if h]
    if not hands or isinstance(hands, str) or len(hands) < 2:
        raise EvaluatorError(f"{where}: needs two or more hands, e.g. 'AsKs vs QQ+'", hands)
    out = {"id": query.get("id", index + 1), "game": str(query.get("game", "holdem")),
           "hands": [str(h) for h in hands], "board": str(query.get("board", "") or ""),
           "dead": str(query.get("dead", "") or "")}
    exact = query.get("exact")
    if isinstance(exact, str):
        lowered = exact.strip().lower()
        if lowered not in ("true", "false", "1", "0", "yes", "no", ""):
            raise EvaluatorError(f"{where}: exact must be true or false, got {exact!r}", exact)
        exact = None if not lowered else lowered in ("true", "1", "yes")
    out["exact"] = exact
    for name, kind in (("trials", int), ("target_stderr", float), ("seed", int)):
        value = query.get(name)
        if value in (None, ""):
            out[name] = None
            continue
        try:
            out[name] = kind(value)
        except (TypeError, ValueError):
            raise EvaluatorError(f"{where}: {name} must be a number, got {value!r}",
                                 value) from None
    if out["seed"] is None:
        state = np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)
        out["seed"] = int(state[0] >> np.uint64(1))
    return out


def run_query(query: dict) -> dict:
    """One normalised query -> one flat result row (the query, the method, per-player figures).

    Bad input raises the usual error with the query's id in front of the message.
    """
    from .equity import equity
    try:
        result = equity(query["game"], query["hands"], query["board"], query["dead"],
                        exact=query["exact"], trials=query["trials"],
                        target_stderr=query["target_stderr"], seed=query["seed"], threads=1)
    except EvaluatorError as error:
        raise type(error)(f"query {query['id']}: {error}", error.token) from None
    row = {"id": query["id"], "game": result.game, "hands": " vs ".join(query["hands"]),
           "board": result.board, "dead": result.dead, "method": result.method,
           "exact": result.exact, "samples": result.samples,
           "seed": None if result.exact else result.seed}
    for p, player in enumerate(result.players, start=1):
        for name in ("hand", "equity", "win", "tie", "scoop", "hi", "lo", "stderr"):
            value = getattr(player, name)
            if value is not None:
                row[f"p{p}_{name}"] = value
    return row


def _run_chunk(queries: list[dict]) -> list[dict]:
    return [run_query(q) for q in queries]


def batch_equity(queries: Iterable[Mapping] | str | Path, *, scheduler=None,
                 threads: int | None = None, progress: bool = True, seed: int = 0,
                 chunk_size: int | None = None) -> list[dict]:
    """Run many equity queries; one result row per query, in the input's order.

    Parameters
    ----------
    queries : iterable of mappings, or a path to a CSV / JSON Lines file
    scheduler : str or dask.distributed.Client, optional
        ``"tcp://host:port"`` or a client: the batch is split into chunks and
        run on that Dask cluster (``pip install "evaluator[cluster]"``).
        Default: every core of this machine, no server.
    threads : int, optional
        Local worker threads (default: every core).
    progress : bool
        A progress bar on a terminal.
    seed : int
        Seeds the queries that sample and give no seed of their own.
    chunk_size : int, optional
        Queries per cluster task (default: about four tasks per worker).
    """
    from ._parallel import resolve_threads
    if isinstance(queries, (str, Path)):
        queries = read_queries(queries)
    items = [_normalise(q, i, seed) for i, q in enumerate(queries)]
    if not items:
        return []
    if scheduler is not None:
        return _on_cluster(items, scheduler, progress, chunk_size)
    threads = resolve_threads(threads, len(items) << 20)
    from .studies import _progress
    bar = _progress(len(items), "equity queries", progress)
    rows: list[dict | None] = [None] * len(items)
    try:
        if threads <= 1:
            for i, item in enumerate(items):
                rows[i] = run_query(item)
                if bar is not None:
                    bar.advance(bar.task)
        else:
            from concurrent.futures import ThreadPoolExecutor, as_completed
            with ThreadPoolExecutor(threads) as pool:
                futures = {pool.submit(run_query, item): i for i, item in enumerate(items)}
                for future in as_completed(futures):
                    rows[futures[future]] = future.result()
                    if bar is not None:
                        bar.advance(bar.task)
    finally:
        if bar is not None:
            bar.stop()
    return rows


def _client(scheduler):
    try:
        from distributed import Client
    except ImportError:
        raise EvaluatorError("running on a cluster needs Dask: pip install "
                             "'evaluator[cluster]'", "dask") from None
    if not isinstance(scheduler, str):
        return scheduler, False
    try:
        return Client(scheduler, timeout="5s", set_as_default=False), True
    except (OSError, TimeoutError, ValueError) as error:
        raise EvaluatorError(f"cannot reach the Dask scheduler at {scheduler!r}: {error}",
                             scheduler) from None


def _on_cluster(items: list[dict], scheduler, progress: bool,
                chunk_size: int | None) -> list[dict]:
    """Chunks of queries as Dask tasks; a task lost with its worker is run again."""
    client, own = _client(scheduler)
    try:
        if chunk_size is None:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            chunk_size = max(1, -(-len(items) // (4 * workers)))
        chunks = [items[a:a + chunk_size] for a in range(0, len(items), chunk_size)]
        futures = client.map(_run_chunk, chunks, pure=False, retries=3)
        from .studies import _progress
        bar = _progress(len(items), "equity queries (cluster)", progress)
        rows: list[dict] = []
        try:
            for chunk, future in zip(chunks, futures):
                rows += future.result()
                if bar is not None:
                    bar.advance(bar.task, len(chunk))
        finally:
            if bar is not None:
                bar.stop()
        return rows
    finally:
        if own:
            client.close()


def write_rows(rows: list[dict], path: str | Path) -> None:
    """Write result rows as CSV (``.csv``) or JSON Lines (anything else)."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        columns: list[str] = []
        for row in rows:
            columns += [k for k in row if k not in columns]
        with path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
