"""Batches on a Dask cluster: an address probed before a client is made, chunks of
queries as tasks, a lost worker's chunks run again."""
from __future__ import annotations

import re
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

from ..errors import (
    ArgumentTypeError,
    EvaluatorError,
)
from .rows import error_reason, run_chunk

if TYPE_CHECKING:
    import socket



# --- Dask -------------------------------------------------------------------------

PROBE_TIMEOUT = 2.0            # seconds to connect to a scheduler and read its greeting
CONNECT_TIMEOUT = "5s"         # Dask's, to a tcp:// scheduler that answered the probe
MAX_GREETING = 1 << 16         # bytes: a Dask handshake is a small msgpack mapping
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")     # the protocols Dask speaks
_HOST_PORT = ("tcp", "tls", "ws", "wss")                   # ... over a TCP connection


def _probe(address: str) -> str:
    """Check what can be checked of a Dask scheduler's address before Dask is loaded (it
    takes a second or two); one clear error if it is wrong.  Returns its protocol.

    A web address (a pasted dashboard link), an unknown protocol, and text that
    is no ``host:port`` are refused at once, as is an address where nothing
    listens.  A Dask server speaks first: a handshake frame, an 8-byte length
    and a small msgpack mapping; over ``tcp://`` that greeting is read here, so
    that a web server (which waits silently), a random service (which sends
    something else) or one that closes the connection are told apart in at most
    a few seconds.  Over the other protocols Dask's own handshake does that,
    under the same time limit.
    """
    import socket  # only for cluster addresses: loaded here
    import struct
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text

    def fail(why: str) -> EvaluatorError:
        return EvaluatorError(f"cannot reach the Dask scheduler at {address!r}: {why}",
                              address)

    if scheme.lower() in ("http", "https"):
        raise fail("that is a web address (the dashboard's?); a scheduler's address looks "
                   "like tcp://host:8786")
    if scheme not in SCHEMES:
        raise fail(f"unknown protocol {scheme!r}; a scheduler's address looks like "
                   f"tcp://host:8786 (Dask's protocols: {', '.join(SCHEMES)})")
    if scheme not in _HOST_PORT:
        return scheme
    match = re.fullmatch(r"\[?([^\[\]/]+?)\]?:(\d+)/?", rest)
    if not match or int(match.group(2)) > 65535:
        raise EvaluatorError(f"scheduler address {address!r} must look like "
                             "'tcp://host:port'", address)
    host, port = match.group(1), int(match.group(2))
    try:
        sock = socket.create_connection((host, port), timeout=PROBE_TIMEOUT)
    except TimeoutError:
        raise fail(f"no answer within {PROBE_TIMEOUT:g} s") from None
    except OSError as error:
        raise fail(error.strerror or str(error)) from None
    with sock:
        if scheme != "tcp":
            return scheme
        try:
            head = _read_exactly(sock, 8)
            size = struct.unpack("<Q", head)[0]
            if not 0 < size <= MAX_GREETING:
                raise fail("the server there does not speak Dask's protocol")
            greeting = _read_exactly(sock, size)
        except TimeoutError:
            raise fail("the server there sent no Dask greeting (is it a Dask scheduler, "
                       "or e.g. a web server?)") from None
        except ConnectionError as error:
            raise fail(f"the server there closed the connection ({error})") from None
        except OSError as error:
            raise fail(error.strerror or str(error)) from None
        if b"compression" not in greeting:
            raise fail("the server there does not speak Dask's protocol")
        try:
            sock.sendall(head + greeting)         # answer in kind, so it logs no error
        except OSError:
            pass
    return scheme


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        part = sock.recv(n - len(data))
        if not part:
            raise ConnectionError("it sent no more")
        data += part
    return data


def make_client(scheduler):
    """``(client, own)``: the client given, or one connected to the address given (``own``:
    closed by the batch).  A client that fails to connect is closed before the error is
    raised: left to the garbage collector, it waits 10 s and prints a traceback."""
    if not isinstance(scheduler, str):
        if not callable(getattr(scheduler, "map", None)):
            raise ArgumentTypeError("scheduler must be an address like 'tcp://host:8786' "
                                    "or a dask.distributed.Client, got "
                                    f"{type(scheduler).__name__}", scheduler)
        return scheduler, False
    from importlib.util import find_spec
    if find_spec("distributed") is None:
        raise EvaluatorError('running on a cluster needs Dask (the "cluster" extra): pip '
                             'install "dask[distributed]"', "dask")
    scheme = _probe(scheduler)
    import logging

    from distributed import Client
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    # built in two steps so that a client whose connection fails can still be closed
    client = Client.__new__(Client)
    try:
        client.__init__(scheduler, set_as_default=False,   # type: ignore[misc]
                        timeout=CONNECT_TIMEOUT if scheme == "tcp" else f"{PROBE_TIMEOUT:g}s")
    except Exception as error:          # noqa: BLE001 - any failure: the address is wrong
        close_client(client)
        why = error_reason(error) if not isinstance(error, (OSError, TimeoutError)) else str(error)
        if scheme == "tcp" and not isinstance(error, (OSError, TimeoutError)):
            # it answered the probe's handshake: a Dask server, but not a scheduler
            why = f"the server there is not a Dask scheduler (a worker?): {why}"
        raise EvaluatorError(f"cannot reach the Dask scheduler at {scheduler!r}: {why}",
                             scheduler) from None
    finally:
        quiet.setLevel(level)
    return client, True


def close_client(client) -> None:
    """Close a client this batch opened, quietly, in at most a couple of seconds."""
    import logging
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        client.close(timeout=2)
    except Exception:                   # noqa: BLE001 - closing: nothing to report
        pass
    finally:
        quiet.setLevel(level)


def on_cluster(items: list[dict], client, chunk_size: int | None,
                idle: Callable[[], None]) -> Generator[tuple[int, object], None, None]:
    """Yield ``(index, row or failure reason)`` as chunks finish on a Dask cluster,
    calling ``idle`` after each chunk (the wait for the next may be long).

    A task lost with its worker is run again; a task that still fails gives
    each of its queries that failure.  Closing the generator (Ctrl-C, or a
    failure) cancels the tasks not yet finished; the caller closes the client.
    """
    futures = []
    try:
        if chunk_size is None:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            chunk_size = max(1, -(-len(items) // (4 * workers)))
        starts = list(range(0, len(items), chunk_size))
        futures = client.map(run_chunk, [items[a:a + chunk_size] for a in starts],
                             pure=False, retries=3)
        chunk_of = {future.key: (a, min(chunk_size, len(items) - a))
                    for future, a in zip(futures, starts)}
        import asyncio

        from distributed import as_completed
        for future in as_completed(futures, loop=client.loop):
            start, size = chunk_of[future.key]
            try:
                parts = future.result()
            except (Exception, asyncio.CancelledError) as error:    # noqa: BLE001
                # the task failed past its retries (its worker died each time, its
                # data would not load, ...): each of its queries failed that way
                parts = [(None, f"its cluster task failed: {error_reason(error)}")] * size
            for k, (row, reason) in enumerate(parts):
                yield start + k, row if reason is None else reason
            idle()
    finally:
        if futures:
            client.cancel(futures)
