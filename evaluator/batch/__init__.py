"""Many equity queries at once: on this machine's cores, or on a Dask cluster.

A query is a mapping with the arguments of ``equity``: ``game`` (default
hold'em), ``hands`` (a list, or one string with hands separated by ``vs``,
``|`` or ``;``), and optionally ``board``, ``dead``, ``exact``, ``trials``,
``target_stderr``, ``seed`` and ``id``.  Files (or a stream, such as stdin):
CSV with those columns, or JSON Lines with one object per line.

Every query runs on its own, with its own seed (the query's, or one derived
from the batch ``seed`` and the query's position), so the rows are the same
bit for bit whether the batch runs here, on a cluster, in one chunk or in
many, and whatever the number of threads.

Finished rows are never lost.  Every query is checked before any is
computed (all the problems are listed in one error), and with ``out=`` the
rows are written, in the input's order, as they finish, one line each,
flushed within a fraction of a second and before the batch waits for a slow
query: an interrupted batch keeps its finished rows, and ``resume=True``
computes only the missing ones, giving the file an uninterrupted run writes.

>>> rows = batch_equity([{"hands": "AsKs vs QhQd", "board": "2c7d9h"}], progress=False)
>>> rows[0]["p1_equity"], rows[0]["method"]
(0.23939393939393938, 'exact enumeration of 990 boards')
"""
from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Mapping
from os import PathLike
from pathlib import Path
from typing import IO

import numpy as np

from ..errors import ArgumentTypeError, BatchInterrupted, EvaluatorError, QueryFailed, flags
from ..export import check_fresh, check_output, rows_file_beside
from .cluster import close_client, make_client, on_cluster
from .queries import (
    HELP,
    ON_ERROR,
    OUT_SUFFIXES,
    WHOLE_SUFFIXES,
    check_not_queries,
    file_records,
    read_queries,
    show_value,
    stream_records,
    validate,
)
from .rows import (
    DIGEST,
    columns,
    error_reason,
    error_row,
    result_row,
    row_digest,
    run_query,
)
from .sink import Sink, WriteFailed, read_whole, write_json, write_parquet

__all__ = ["batch_equity", "BatchRows", "read_queries", "check_output", "check_not_queries",
           "BatchInterrupted", "QueryFailed", "WriteFailed", "OUT_SUFFIXES", "HELP",
           "run_query", "result_row", "columns"]


class BatchRows(list):
    """``batch_equity``'s rows: a list of dicts, in the input's order.

    Each row holds the query (``id``, ``game``, ``hands``, ``board``, ``dead``), how it
    was computed (``method``, ``exact``, ``samples``, ``seed``, ``version``) and, for
    each player N from 1, ``pN_hand``, ``pN_equity``, ``pN_win``, ``pN_tie`` (hi-lo games
    add ``pN_scoop``, ``pN_hi``, ``pN_lo``; sampled rows ``pN_stderr``).  A query that
    failed under ``on_error="record"`` has an ``error`` instead of the figures.

    Attributes
    ----------
    resumed : int
        How many of the rows were read back from the output being resumed (not
        computed by this call).

    Examples
    --------
    >>> from evaluator import batch_equity
    >>> rows = batch_equity([{"hands": "AsKs vs QhQd", "board": "2c7d9h"},
    ...                      {"hands": "AsKs vs AsQd"}], on_error="record", progress=False)
    >>> round(rows[0]["p2_equity"], 4), rows[1]["error"], rows.resumed
    (0.7606, "duplicate card 'As' in hand 1 and hand 2", 0)
    """

    resumed: int = 0

    def __repr__(self) -> str:
        """A line: how many rows, exact, sampled and failed (the rows themselves are the
        list's items; ``pandas.DataFrame(rows)`` tables them)."""
        failed = sum(1 for row in self if row.get("error"))
        exact = sum(1 for row in self if row.get("exact") is True)
        resumed = f", {self.resumed:,} read back from the file resumed" if self.resumed else ""
        return (f"<BatchRows: {len(self):,} row{'s' * (len(self) != 1)} ({exact:,} exact, "
                f"{len(self) - exact - failed:,} sampled, {failed:,} failed{resumed}); "
                "a list of dicts>")


def batch_equity(queries: Iterable[Mapping] | str | Path | IO, *, scheduler=None,
                 threads: int | None = None, progress: bool = False, seed: int = 0,
                 chunk_size: int | None = None, out: str | Path | IO[str] | None = None,
                 resume: bool = False, overwrite: bool = False, on_error: str = "stop",
                 version: int | None = None) -> BatchRows:
    """Run many equity queries; one result row per query, in the input's order.

    Parameters
    ----------
    queries : iterable of mappings, a path to a CSV / JSON Lines file, or a stream
        Each query's ``id`` (default: its position, from 1) must be its own:
        resuming matches rows to queries by id.  A CSV header names each column once.
        A stream (``sys.stdin``; text or bytes) holds JSON Lines when its first
        character is ``{``, else CSV.
    scheduler : str or dask.distributed.Client, optional
        ``"tcp://host:port"`` or a client: the batch is split into chunks and
        run on that Dask cluster (Dask: the "cluster" extra).
        Default: every core of this machine, no server.  An address that is
        not a Dask scheduler's (a web address, nothing listening, another
        kind of server) is refused within a few seconds, before the output
        is opened.
    threads : int, optional
        Local worker threads.  Default: every core where the queries gain by it; a
        batch whose first queries take under 0.3 ms each (heads-up spots on the flop
        and later) keeps to one thread, as they run mostly in the interpreter, which
        one thread holds at a time (two threads ran them 2.3x slower).
    progress : bool
        A progress bar on stderr (default off; the command line shows one).
    seed : int
        Seeds the queries that sample and give no seed of their own.
    version : int, optional
        The Monte Carlo stream of the queries that give no ``version`` of their own
        (``equity``'s: 2 by default, 1 for the seeded answers of release 0.1.0).  A
        sampled row's ``version`` column says which stream dealt it.
    chunk_size : int, optional
        Queries per cluster task (default: about four tasks per worker).
    out : path or text stream, optional
        Write each row as it finishes, in order: ``.csv`` (columns fixed up
        front from the queries) or JSON Lines (``.jsonl``, ``.ndjson``; a
        stream gets JSON Lines).  ``.json`` (one JSON document: a list of the
        rows) and ``.parquet`` (pyarrow, the ``data`` extra) stream the rows
        to ``OUT.rows.jsonl`` and write ``OUT`` from it at the end, when the
        rows file is removed.  Checked before any work (the rows file too);
        never the query file itself.
    resume : bool
        Continue the interrupted output ``out`` (for ``.json`` and
        ``.parquet``, its rows file): keep its complete rows (a partly
        written last line is dropped), compute only the missing ones (none
        when it is finished).  The file ends as an uninterrupted run writes it.
    overwrite : bool
        Replace an existing ``out``.  Without ``resume`` or ``overwrite``, an
        ``out`` that holds anything is refused before any work: a finished or
        interrupted run's rows are never lost to a run that did not ask.  Refused when its rows
        are another batch's, a kept row's query has changed since (its game,
        cards, ``exact``, ``trials``, ``target_stderr``, seed or stream version; a
        sampled row without a ``version`` column was dealt by the first), or a kept
        row is not one a batch writes: its ``digest`` (the last field of every
        row written to a file: 16 hex digits of BLAKE2b over its fields,
        ``rows.row_digest``) does not match its figures, a column is missing
        or of the wrong type, a share is outside [0, 1], the equities do not
        add up to 1, ... (edited or damaged).  A missing file starts afresh.
        The rows returned, and a ``.json`` or ``.parquet`` output, have no
        digest.
    on_error : "stop" or "record"
        ``"stop"``: a bad query stops the batch before anything runs, and a
        query failing while it runs raises ``QueryFailed`` once the rows
        before it are written.  ``"record"``: the failure goes in the row's
        ``error`` column and the batch goes on.  A cluster task that fails
        past its retries fails each of its queries so; a cluster that fails
        as a whole raises ``QueryFailed`` for the first unfinished query.

    Returns
    -------
    BatchRows
        A list of the rows, in the input's order; ``.resumed`` is how many of
        them were read back from ``out`` (resuming) rather than computed.

    Raises
    ------
    BatchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``): the work stops within about a
        second; the finished rows are in ``out``.
    WriteFailed
        When ``out`` cannot be written (a full disk, ...): its ``kept`` rows
        are whole in the file (a part of one is taken out), ready for
        ``resume=True``.
    EvaluatorError
        A query that cannot be read (a ``CardError``, ``RangeError``, ... naming the
        query), under ``on_error="stop"``, before anything runs; or an output that
        cannot be written, before any work.
    QueryFailed
        A query failing while the batch runs, under ``on_error="stop"``.

    Examples
    --------
    >>> from evaluator import batch_equity
    >>> queries = [{"id": "aks-qq", "hands": "AsKs vs QhQd", "board": "2c7d9h"},
    ...            {"id": "sampled", "hands": "AsKs vs QhQd", "trials": 10000, "seed": 1}]
    >>> rows = batch_equity(queries, progress=False)
    >>> [(row["id"], row["exact"], row["samples"]) for row in rows]
    [('aks-qq', True, 990), ('sampled', False, 10000)]

    With ``out=``, each row is written as it finishes; after an interruption the same
    call with ``resume=True`` computes only the missing rows:

    ```python
    batch_equity("queries.csv", out="rows.csv")
    batch_equity("queries.csv", out="rows.csv", resume=True)
    ```
    """
    flags(progress=progress, resume=resume, overwrite=overwrite)
    if not isinstance(on_error, str) or on_error not in ON_ERROR:
        raise EvaluatorError(f"on_error must be 'stop' or 'record', got {on_error!r}",
                             on_error)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ArgumentTypeError(f"seed must be an integer, got {seed!r}", seed)
    if seed < 0:
        raise EvaluatorError(f"seed must be a non-negative integer, got {seed}", seed)
    if version is not None:
        from ..engine.spots import resolve_version
        resolve_version(version)            # the batch's own, refused before any query
    _check_types(queries, out)
    path = None
    suffix = "" if out is None or hasattr(out, "write") else Path(out).suffix.lower()
    if suffix in WHOLE_SUFFIXES:
        return _via_rows_file(queries, Path(out), scheduler=scheduler,   # type: ignore[arg-type]
                              threads=threads, progress=progress, seed=seed,
                              chunk_size=chunk_size, resume=resume, overwrite=overwrite,
                              on_error=on_error, version=version)
    if out is not None and not hasattr(out, "write"):
        path = check_output(out, OUT_SUFFIXES, "out")
        check_not_queries(queries, out, "out")
        check_fresh(path, "out", resume=resume, overwrite=overwrite)
    if resume and path is None:
        raise EvaluatorError("resume=True needs out= (the file to continue)", "resume")
    from .._parallel import resolve_threads
    if isinstance(queries, (str, Path)):
        records = file_records(Path(queries))
    elif hasattr(queries, "read"):
        records = stream_records(queries)
    else:
        records = [(None, q) for q in queries]     # type: ignore[misc]  # no line numbers
    record = on_error == "record"
    try:
        items = validate(records, seed, record, version)  # type: ignore[arg-type]
    except BaseException:
        from ..engine.spots import forget_kept
        forget_kept()                 # a refused batch computes none of the spots it kept
        raise
    adaptive = threads is None             # every core, where the queries gain by it
    if scheduler is None:
        threads = resolve_threads(threads, len(items) << 20)
    # the cluster before the output: a wrong address leaves the file as it was
    client, own = make_client(scheduler) if scheduler is not None else (None, False)
    try:
        try:
            sink = Sink(out, path, columns(items), items, resume, seed)
        except OSError as error:
            raise EvaluatorError(f"cannot write {path if path is not None else 'the rows'}: "
                                 f"{error.strerror or error}", str(path)) from error
        try:
            _run(items, sink, client, threads, progress, chunk_size, record, path,
                 adaptive)
        except OSError as error:
            if isinstance(error, BrokenPipeError) and not sink.own:
                raise                             # a closed stdout: the caller's to handle
            raise sink.failed(error) from error
        finally:
            sink.close()
    finally:
        if own:
            close_client(client)
        from ..engine.spots import forget_kept
        forget_kept()                 # spots checked but not computed here (resumed, Dask)
    rows = BatchRows(sink.rows)
    rows.resumed = sink.resumed
    return rows


def _check_types(queries: object, out: object) -> None:
    """Refuse ``queries`` or ``out`` of a type they never are, naming it (Python's own
    "'NoneType' object is not iterable" named neither)."""
    if out is not None and not hasattr(out, "write") and not isinstance(out, (str, PathLike)):
        raise ArgumentTypeError(f"out must be a path or a text stream, got "
                                f"{type(out).__name__} {show_value(out)}", out)
    if not isinstance(queries, (str, PathLike, Iterable)) and not hasattr(queries, "read"):
        raise ArgumentTypeError(f"queries must be a list of queries (mappings), a path to a "
                                f"CSV or JSON Lines file, or a stream, got "
                                f"{type(queries).__name__} {show_value(queries)}", queries)


def _via_rows_file(queries, out: Path, **options) -> BatchRows:
    """``batch_equity`` into a file written whole (``.json``: one JSON list of the rows;
    ``.parquet``): the rows stream to ``OUT.rows.jsonl`` as they finish (so that ``resume``
    works as for JSON Lines), and ``OUT`` is written from them at the end, when the rows
    file is removed.  Both paths are checked before any work."""
    suffix = out.suffix.lower()
    check_output(out, (suffix,), "out")
    check_not_queries(queries, out, "out")
    resume, overwrite = options.pop("resume"), options.pop("overwrite")
    rows_file = rows_file_beside(out, "out", resume=resume, overwrite=overwrite)
    check_fresh(out, "out", resume=resume, overwrite=overwrite)
    if resume and not rows_file.exists() and out.is_file() and out.stat().st_size:
        # a finished file (written whole, without digests): its rows go back to the rows
        # file, and the batch keeps each whose query is unchanged
        try:
            finished = read_whole(out)
        except (OSError, ValueError) as error:
            raise EvaluatorError(f"cannot resume {out}: it cannot be read back ({error})",
                                 str(out)) from None
        rows_file.write_text("".join(json.dumps({**row, DIGEST: row_digest(row)}) + "\n"
                                     for row in finished), encoding="utf-8")
    # both files checked: the rows file is finished (resume) or written anew
    options.update(resume=resume, overwrite=not resume)
    rows = batch_equity(queries, out=rows_file, **options)
    try:
        (write_parquet if suffix == ".parquet" else write_json)(rows, out)
    except OSError as error:
        try:
            out.unlink(missing_ok=True)           # a part of it
        except OSError:
            pass
        raise WriteFailed(f"cannot write {out}: {error.strerror or error}; all {len(rows):,} "
                          f"rows are kept in {rows_file}: make room and run again with "
                          f"resume=True to write {out.name}", len(rows), len(rows),
                          rows_file) from error
    rows_file.unlink(missing_ok=True)
    return rows


def _compile_note(items: Iterable[dict]) -> bool:
    """Whether the batch's games have kernels Numba has not cached (the bar then says it
    compiles first; ``_jit`` prints the note when the compiling starts)."""
    from .._compile_note import will_compile
    from ..families import family
    from ..games import game as _game
    modules: set[str] = set()
    for item in items:
        try:
            g = _game(item["game"])
        except Exception:                    # noqa: BLE001 - a bad row: reported elsewhere
            continue
        modules.update(family(g).kernel_modules)
    return will_compile(sorted(modules))


SMALL_QUERY_SECONDS = 300e-6
"""A query taking less than this on one thread runs mostly in the interpreter (reading,
checking, building its row), which one thread holds at a time: threads only queue for it.
Measured here: heads-up flop and turn queries (80 us) ran 2.3x slower on two threads than
on one, pre-flop ones (590 us, mostly in kernels that free the interpreter) 1.26x faster."""
PROBE_QUERIES = 32


WINDOW = 4096      # queries taken at a time: the quick ones in bulk, then the others


def _local(todo: list[dict], threads: int, adaptive: bool, idle
           ) -> Generator[tuple[int, object], None, None]:
    """``(index in todo, row or failure)`` for each query, on this machine's threads: a
    window of queries at a time (the rows are written in order as they finish), its plain
    known-hand queries answered in bulk (``known``; on two threads or more the next
    window's are counted meanwhile), the others one by one (``_each``; where ``adaptive``,
    the first window with more than ``PROBE_QUERIES`` of them decides the threads)."""
    from . import known
    ahead = threads > 1
    pending = known.launch(todo[:WINDOW], threads)
    chosen = {"threads": threads, "adaptive": adaptive}
    try:
        for start in range(0, len(todo), WINDOW):
            window = todo[start:start + WINDOW]
            this = pending if start == 0 or ahead else known.launch(window, threads)
            if ahead and start + WINDOW < len(todo):
                pending = known.launch(todo[start + WINDOW:start + 2 * WINDOW], threads)
            idle()                       # the rows written so far out while this counts
            try:
                quick = this.rows()
            except Exception:            # noqa: BLE001 - the general way gives each its row
                quick = [None] * len(window)      # or its own error
            rest = []
            for j, row in enumerate(quick):
                if row is None:
                    rest.append(j)
                else:
                    yield start + j, row
            if rest:
                each = _each([window[j] for j in rest], chosen, idle)
                try:
                    for k, result in each:
                        yield start + rest[k], result
                finally:
                    each.close()
    finally:
        pending.stop()                   # Ctrl-C, or a batch ended early: no count left


def _each(todo: list[dict], chosen: dict, idle) -> Generator[tuple[int, object], None, None]:
    """``(index in todo, row or failure)`` for each query, one call of ``run_query`` each,
    on ``chosen["threads"]`` threads.  While ``chosen["adaptive"]``, the first
    ``PROBE_QUERIES`` run on one thread, timed; where the median took less than
    ``SMALL_QUERY_SECONDS``, so do the rest, and the batch's later windows (the choice is
    kept in ``chosen``; the median: a first query may load its kernels; the rows are the
    same on any number of threads, each query having its own seed)."""
    import statistics
    import time

    from .._parallel import imap_unordered
    start = 0
    threads = chosen["threads"]
    if chosen["adaptive"] and threads > 1 and len(todo) > PROBE_QUERIES:
        took: list[float] = []

        def timed(query: dict) -> dict:
            began = time.perf_counter()
            try:
                return run_query(query)
            finally:
                took.append(time.perf_counter() - began)
        probe = imap_unordered(timed, todo[:PROBE_QUERIES], 1, errors=True, idle=idle)
        try:
            yield from probe
        finally:
            probe.close()
        start = PROBE_QUERIES
        if statistics.median(took) < SMALL_QUERY_SECONDS:
            threads = 1
        chosen.update(threads=threads, adaptive=False)
    rest = imap_unordered(run_query, todo[start:], threads, errors=True, idle=idle)
    try:
        for j, result in rest:
            yield start + j, result
    finally:
        rest.close()


def _run(items: list[dict], sink: Sink, scheduler, threads: int | None, progress: bool,
         chunk_size: int | None, record: bool, path: Path | None,
         adaptive: bool = False) -> None:
    """Compute the rows ``sink`` lacks, feeding it each as it finishes (``adaptive``:
    ``threads`` is every core by default, and small queries keep to one)."""
    todo = list(range(sink.done, len(items)))
    if not todo:
        return
    from ..progress import progress_bar
    label = "equity queries" + (" (cluster)" if scheduler is not None else "")
    # kernels compile here, not on a cluster's workers: say so, and label the bar, rather
    # than sit at 0 while they do
    compiling = scheduler is None and progress and _compile_note(items[i] for i in todo)
    bar = progress_bar(len(items), f"compiling kernels, then {label}" if compiling else label,
                       progress)
    if bar is not None:
        bar.advance(bar.task, sink.done)
    results: Generator[tuple[int, object], None, None]
    if scheduler is not None:
        results = on_cluster([items[i] for i in todo], scheduler, chunk_size, sink.idle)
    else:
        assert threads is not None                  # resolved by batch_equity
        results = _local([items[i] for i in todo], threads, adaptive, sink.idle)
    failure: tuple[int, BaseException | str] | None = None
    lost: Exception | None = None
    try:
        while True:
            try:
                j, result = next(results)
            except StopIteration:
                break
            except EvaluatorError:
                raise
            except Exception as error:      # noqa: BLE001 - the cluster itself failed
                lost = error
                break
            index = todo[j]
            if isinstance(result, (BaseException, str)):
                if not record:
                    if failure is None or index < failure[0]:
                        failure = (index, result)
                    if sink.done >= failure[0]:
                        break
                    continue
                result = error_row(items[index], result if isinstance(result, str)
                                    else error_reason(result))
            if failure is not None and index > failure[0]:
                continue
            assert isinstance(result, dict)             # a row, once failures are handled
            written = sink.add(index, result)
            if bar is not None:
                if compiling:
                    bar.update(bar.task, description=label)
                    compiling = False
                bar.advance(bar.task, written)
            if failure is not None and sink.done >= failure[0]:
                break
        sink.flush()
    except KeyboardInterrupt:
        sink.settle()
        raise BatchInterrupted(sink.done, len(items), path) from None
    finally:
        results.close()
        if bar is not None:
            bar.stop()
    if lost is not None:
        # no row to blame: the rows before the first unfinished one are kept
        raise QueryFailed(items[sink.done]["id"], f"the cluster failed: {error_reason(lost)}",
                          sink.done, len(items), path) from lost
    if failure is not None:
        index, cause = failure
        reason: str = cause if isinstance(cause, str) else error_reason(cause)
        failed = QueryFailed(items[index]["id"], reason, sink.done, len(items), path)
        if isinstance(cause, BaseException):
            raise failed from cause
        raise failed
