"""Whether kernels will compile, asked of Numba's cache without importing Numba.

Numba keeps one index file per kernel (``<module>.<function>-<line>.py311.nbi``): the
version of the Numba that wrote it, then a pickle of ``(source stamp, overloads)``, the
stamp being the SHA-256 digest of the kernel's source file (older Numba: its
``(st_mtime, st_size)``).  Numba loads an index only when both match
(``numba/core/caching.py``, ``_load_index``) and compiles otherwise.  This module reads
the same two things and answers the same way: it compares no file times of its own, and
a reinstall that rewrites the sources unchanged leaves the cache as it was.  ``warmup``
asks it whether anything is left to compile, and a batch whether to label its bar
"compiling"; the note a user reads is printed by ``_jit`` as Numba starts compiling.
Reading the stamp needs no Numba class: every other object of the pickle is loaded as an
inert stub (nothing is called, so a damaged or foreign index cannot run code here).

Importing Numba costs about 0.4 s, which every command would pay: this module is plain
Python.
"""
from __future__ import annotations

import functools
import os
import pickle
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from ._cache_dirs import cache_dir_for

__all__ = ["KERNEL_DIR", "cached", "uncached", "will_compile"]

# as the kernel modules' ``__file__`` has it (Numba names cache folders after that path)
KERNEL_DIR = Path(os.path.abspath(__file__)).parent / "kernels"


@functools.cache
def kernel_sources() -> str:
    """The SHA-256 digest of every kernel source file, by name, in name order (``_jit``
    keys every kernel's cache entries by it)."""
    import hashlib
    hasher = hashlib.sha256()
    for path in sorted(KERNEL_DIR.glob("*.py")):
        hasher.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return hasher.hexdigest()


@functools.cache
def numba_version() -> str | None:
    """The installed Numba's version, read from its ``_version.py`` (None: unknown)."""
    from importlib.util import find_spec
    try:
        spec = find_spec("numba")
        text = Path(spec.origin).with_name("_version.py").read_text()   # type: ignore
    except (ImportError, AttributeError, TypeError, ValueError, OSError):
        return None
    match = re.search(r'"version":\s*"([^"]+)"', text)
    return match.group(1) if match else None


class _Stub:
    """Whatever the pickle names (a Numba type, a reconstructor): built, never run."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __call__(self, *args, **kwargs) -> _Stub:
        return _Stub()

    def __setstate__(self, state) -> None:
        pass


class _StampReader(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        return _Stub


def _version_and_stamp(path: str) -> tuple[object, object, bool]:
    """The Numba version an index was written by, its source stamp (None where the version
    is not the installed Numba's: Numba reads no further either), and whether one of its
    entries is keyed by the kernel sources now (``kernel_sources``)."""
    with open(path, "rb") as handle:
        version = _StampReader(handle).load()
        if version != numba_version():
            return version, None, False
        body = _StampReader(handle).load()        # (stamp, overloads)
    stamp = body[0] if isinstance(body, tuple) and body else None
    overloads = body[1] if isinstance(body, tuple) and len(body) > 1 else None
    current = isinstance(overloads, dict) and any(
        isinstance(key, tuple) and key and key[-1] == kernel_sources() for key in overloads)
    return version, stamp, current


def cached(module: str) -> bool:
    """Whether Numba would load some kernel of ``kernels/<module>.py`` from its cache:
    an index for this Python, written by the installed Numba, whose source stamp is that
    of the source file now (its SHA-256 digest, or for older Numba its time and size),
    with an entry keyed by every kernel source now (``kernel_sources``)."""
    source = KERNEL_DIR / f"{module}.py"
    folder = cache_dir_for(source)
    if folder is None:                           # no cache anywhere: compiles each run
        return False
    try:
        info = source.stat()
        tag = f".py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
        indexes = [entry.path for entry in os.scandir(folder)
                   if entry.name.startswith(f"{module}.") and entry.name.endswith(f"{tag}.nbi")]
    except OSError:
        return False
    if not indexes or numba_version() is None:
        return False
    digest: bytes | None = None
    for path in indexes:
        try:
            version, found, current = _version_and_stamp(path)
            if version != numba_version() or not current:
                continue
            if isinstance(found, bytes):
                if digest is None:
                    import hashlib
                    digest = hashlib.sha256(source.read_bytes()).digest()
                if found == digest:
                    return True
            elif found == (info.st_mtime, info.st_size):
                return True
        except Exception:                        # noqa: BLE001 - damaged: Numba recompiles
            continue
    return False


def uncached(modules: Iterable[str]) -> list[str]:
    """The kernel modules none of whose kernels has a current cache entry (they compile
    on use)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0"):
        return []                                # plain Python: nothing compiles
    return [name for name in modules if not cached(name)]


def will_compile(modules: Iterable[str]) -> bool:
    """Whether some of these kernel modules (a family's ``kernel_modules``) have no
    current cache entry: a batch labels its bar "compiling kernels" then, rather than sit
    at 0.  (The note itself is printed by ``_jit`` when Numba does start compiling,
    never beforehand.)"""
    return bool(uncached(modules))
