"""The one place that sets Numba options, and the on-disk cache the kernels use.

Kernels are compiled lazily, cached on disk and release the GIL
(``nogil=True``) so the public API can run chunks on several threads.  No
``fastmath``: the kernels are integer code.

The cache never stops a kernel from running:

* It lives where Numba puts it: ``NUMBA_CACHE_DIR`` when set, else the
  ``__pycache__`` folders next to the sources, else the user's cache folder.
  A read-only install with no writable home falls back to a private folder
  in the temporary directory, ``evaluator-numba-<uid>`` (created with mode
  0700, used only when it belongs to the user and no one else may write to
  it); with none of these the kernels compile on every run, uncached.
  ``_cache_dirs`` finds these folders without importing Numba.
* A damaged cache file (truncated, garbage, from a crash) is reported with a
  ``RuntimeWarning`` naming it; the kernel then compiles afresh and rewrites
  the entry.  A cache that cannot be written only costs the time to compile.
"""
from __future__ import annotations

import os
import sys
import threading
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from functools import cache
from typing import Any

import numba
from numba.core import caching, event
from numba.core.dispatcher import Dispatcher

from ._cache_dirs import private_temp_dir

__all__ = ["kernel", "numba", "quiet", "NOTE"]


@cache
def _private_temp_dir() -> str | None:
    """``private_temp_dir``, made if missing; once, as the locator asks for every kernel."""
    return private_temp_dir(create=True)


class _PrivateTempLocator(caching.InTreeCacheLocator):
    """Numba's last resort here: ``_private_temp_dir()``, when no other location is writable."""

    def __init__(self, py_func, py_file) -> None:
        super().__init__(py_func, py_file)
        folder = _private_temp_dir()
        if folder is None:      # from_function checks first: only a direct call gets here
            raise RuntimeError("no private cache folder in the temporary directory")
        self._cache_path = os.path.join(folder, self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if _private_temp_dir() is None:
            return None
        return super().from_function(py_func, py_file)


class _CacheImpl(caching.CompileResultCacheImpl):
    _locator_classes = [*caching.CompileResultCacheImpl._locator_classes, _PrivateTempLocator]


@cache
def kernel_sources() -> str:
    """A digest of every kernel source file, part of each kernel's cache key.  Numba builds
    a kernel's callees into its cached code but checks only the kernel's own file: a change
    to ``omaha_sweep.py`` alone left ``omaha_board``'s kernels running the old sweep from
    the cache (in a checkout, and after an upgrade that kept the cache folders, since Numba
    stamps a file by its content).  With the digest, any kernel source changed recompiles
    every kernel."""
    from ._compile_note import kernel_sources as digest
    return digest()


@contextmanager
def _index_lock(folder: str):
    """Hold an exclusive lock on the cache folder while a kernel's index is read, changed
    and written back: Numba's save is a read-modify-write of the index, and two processes
    compiling two signatures of one kernel at once (``warmup`` runs one per core) would
    otherwise keep only one of them.  Where ``fcntl`` is missing, no lock."""
    try:
        import fcntl
    except ImportError:                   # Windows: warmup runs one process there
        yield
        return
    with open(os.path.join(folder, ".evaluator-index.lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class _RecoveringCache(caching.FunctionCache):
    """Numba's function cache that treats a damaged or unwritable cache as a cache miss,
    and keys every kernel by all the kernel sources (``kernel_sources``)."""
    _impl_class = _CacheImpl

    def _index_key(self, sig, codegen):
        return (*super()._index_key(sig, codegen), kernel_sources())

    def load_overload(self, sig, target_context):
        try:
            return super().load_overload(sig, target_context)
        except Exception as error:      # whatever the damage, compiling afresh is correct
            warnings.warn(f"damaged Numba cache file {self._damaged_file(sig, target_context)} "
                          f"({type(error).__name__}: {error}); recompiling "
                          f"{self._py_func.__qualname__}", RuntimeWarning, stacklevel=2)
            try:
                os.remove(self._cache_file._index_path)     # the next save starts afresh
            except OSError:
                self.disable()
            return None

    def _damaged_file(self, sig, target_context) -> str:
        """The index file if it cannot be read, else the data file it names for ``sig``."""
        files = self._cache_file
        try:
            overloads = files._load_index()
        except Exception:
            return files._index_path
        data = overloads.get(self._index_key(sig, target_context.codegen()))
        return files._data_path(data) if data else files._index_path

    def save_overload(self, sig, data):
        try:
            with _index_lock(self.cache_path):
                super().save_overload(sig, data)
        except Exception as error:
            warnings.warn(f"cannot write the Numba cache in {self.cache_path} "
                          f"({type(error).__name__}: {error}); compiling without it",
                          RuntimeWarning, stacklevel=2)
            self.disable()


NOTE = ("note: compiling kernels on first use (seconds, once); 'evaluator warmup' "
        "compiles them all ahead")


class _CompileNote(event.Listener):
    """Says, once per process and on stderr (a terminal, a log or a pipe alike), that work
    waits on Numba compiling one of this package's kernels: at the moment it starts, so
    the note is never a guess (a kernel loaded from the cache says nothing)."""

    def __init__(self) -> None:
        self.said = False
        self.lock = threading.Lock()

    def on_start(self, ev: event.Event) -> None:
        dispatcher = (ev.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if self.said or not module.startswith("evaluator.") or _QUIET:
            return
        with self.lock:
            if self.said:
                return
            self.said = True
        print(NOTE, file=sys.stderr, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


# warmup (which says what it compiles) and its worker processes run without the note
_QUIET: set[str] = {"worker"} if os.environ.get("EVALUATOR_WARMUP_WORKER") else set()
COMPILE_NOTE = _CompileNote()
event.register("numba:compile", COMPILE_NOTE)


@contextmanager
def quiet(reason: str = "warmup"):
    """No compile note while the block runs (``warmup`` reports its own steps)."""
    _QUIET.add(reason)
    try:
        yield
    finally:
        _QUIET.discard(reason)


def kernel(func: Callable[..., Any] | None = None, **options: Any) -> Any:
    """``numba.njit(nogil=True, **options)`` with the cache above; ``@kernel`` or
    ``@kernel(...)``.  A Numba dispatcher (typed ``Any``: its signatures are Numba's
    business), the plain function under ``NUMBA_DISABLE_JIT=1``."""
    if func is None:
        return lambda f: kernel(f, **options)
    dispatcher = numba.njit(func, nogil=True, **options)
    if isinstance(dispatcher, Dispatcher):          # not with NUMBA_DISABLE_JIT=1
        try:
            # set in Dispatcher.__init__, which Numba's annotations do not declare
            dispatcher._cache = _RecoveringCache(func)  # type: ignore[attr-defined]
        except RuntimeError:            # no location is writable: compile on every run
            pass
    return dispatcher
