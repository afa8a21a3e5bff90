"""Where Numba keeps the kernels' cache, worked out without importing Numba.

``_jit`` gives Numba ``private_temp_dir()`` as its last resort; the command line
asks ``cache_dir_for()`` whether a kernel module is cached before a command, to
say that it is compiling.  Importing Numba costs about 0.4 s, so that question
must not: this module is plain Python, and ``_jit`` (which imports Numba) uses it.
"""
from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

__all__ = ["private_temp_dir", "cache_dir_for"]


def private_temp_dir(create: bool = False) -> str | None:
    """``evaluator-numba-<uid>`` in the temporary directory, when it is a folder only this
    user can write (None otherwise); ``create`` makes it first, with mode 0700."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    try:
        path = os.path.join(tempfile.gettempdir(),
                            "evaluator-numba" + ("" if uid is None else f"-{uid}"))
        if create:
            os.makedirs(path, mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    # another user's folder, or one others may write to, could feed us pickles
    private = stat.S_ISDIR(info.st_mode) and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return path if private and (uid is None or info.st_uid == uid) else None


def _writable(folder: str) -> bool:
    """Whether Numba could keep a cache in ``folder``: it is a writable folder, or the
    nearest folder above that exists is writable (Numba creates the rest)."""
    path = os.path.abspath(folder)
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            return False
        path = parent
    return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)


def _subpath(source: Path) -> str:
    """Numba's folder for a source file's kernels inside a shared cache folder."""
    import hashlib
    folder = os.path.dirname(os.path.abspath(source))
    return f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"


def _user_cache() -> str:
    """Numba's user-wide cache folder (``appdirs.user_cache_dir('numba')``)."""
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/numba")
    if sys.platform == "win32":
        return os.path.join(os.environ.get("LOCALAPPDATA", os.path.expanduser("~")), "numba",
                            "Cache")
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                        "numba")


def cache_dir_for(source: Path) -> str | None:
    """Where Numba keeps the kernels of ``source``.

    The first usable of the locations ``_jit`` gives Numba, in its order:
    ``NUMBA_CACHE_DIR``, the ``__pycache__`` beside the source, the user's cache
    folder, the private temporary folder (if it exists); None when there is none.
    """
    candidates = []
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.append(os.path.join(os.environ["NUMBA_CACHE_DIR"], _subpath(source)))
    candidates += [str(source.parent / "__pycache__"),
                   os.path.join(_user_cache(), _subpath(source))]
    for folder in candidates:
        if _writable(folder):
            return folder
    private = private_temp_dir()
    return None if private is None else os.path.join(private, _subpath(source))
