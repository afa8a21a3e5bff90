"""Numba's on-disk cache never stops a kernel: a read-only install with no writable home
falls back to a private temporary folder (or no cache), and a damaged cache file is
recompiled.  Each case runs a copy of the package in a subprocess; the real cache and
tables are only read."""
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from evaluator import _jit, _tables

PACKAGE = Path(_jit.__file__).resolve().parent

CHECK = """
import numpy as np, evaluator
print(evaluator.evaluate('holdem', 'AsKs', 'QsJsTs2d3c'))
print(evaluator.evaluate_batch('holdem', np.array([[51, 47, 43, 39, 35, 0, 5]], np.uint8)))
"""
EXPECTED = "royal flush\n[36874]"


def copy_package(root: Path, cache: bool) -> Path:
    """``root/evaluator``: the package with its tables inside (as a wheel installs it),
    with or without the compiled kernels of Numba's cache."""
    skip = () if cache else ("*.nbi", "*.nbc")
    shutil.copytree(PACKAGE, root / "evaluator", ignore=shutil.ignore_patterns("tables", *skip))
    shutil.copytree(_tables.tables_dir(), root / "evaluator" / "tables",
                    ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return root


def run(root: Path, *, read_only: bool = False, **env) -> subprocess.CompletedProcess:
    """Run ``CHECK`` on the copy; ``read_only``: without root's right to write anywhere."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME",
                          "EVALUATOR_TABLES")}
    clean.update(PYTHONPATH=str(root), PYTHONWARNINGS="always::RuntimeWarning", **env)
    command = [sys.executable, "-c", CHECK]
    if read_only and os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root ignores file modes and setpriv is not installed")
        command = ["setpriv", "--inh-caps=-dac_override,-dac_read_search",
                   "--bounding-set=-dac_override,-dac_read_search", "--", *command]
    return subprocess.run(command, cwd=root, env=clean, capture_output=True, text=True,
                          timeout=600)


def make_read_only(*paths: Path) -> None:
    for path in paths:
        for sub in [path, *path.rglob("*")]:
            sub.chmod(sub.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


@pytest.fixture
def root(tmp_path):
    yield tmp_path
    for sub in [tmp_path, *tmp_path.rglob("*")]:            # let pytest remove it
        if not sub.is_symlink():
            sub.chmod(sub.stat().st_mode | stat.S_IWUSR)


@pytest.mark.slow
def test_a_read_only_install_without_a_writable_home_still_answers(root):
    """Before: 'RuntimeError: cannot cache function ... no locator available'."""
    copy_package(root, cache=False)
    home, tmp, closed = root / "home", root / "tmp", root / "closed"
    for folder in (home, tmp, closed):
        folder.mkdir()
    make_read_only(root / "evaluator", home, closed)
    done = run(root, read_only=True, HOME=str(home), TMPDIR=str(tmp))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == EXPECTED
    cached = list(tmp.glob(f"evaluator-numba-{os.getuid()}/*/*.evaluate_rows*-*.nbi"))
    assert cached and not list((root / "evaluator").rglob("*.nbi"))
    # nowhere to write at all: compiled on every run, still the right answer
    done = run(root, read_only=True, HOME=str(home), TMPDIR=str(closed))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == EXPECTED


@pytest.mark.parametrize("damage", ["truncate", "garbage"])
@pytest.mark.parametrize("suffix", ["nbi", "nbc"])
@pytest.mark.slow
def test_a_damaged_cache_file_is_recompiled(root, damage, suffix):
    """Before: every later call failed with an UnpicklingError until the file was deleted."""
    copy_package(root, cache=True)
    assert run(root).stdout.strip() == EXPECTED              # the copy's cache is current
    pycache = root / "evaluator" / "kernels" / "__pycache__"
    from evaluator.kernels import vector  # the kernel the run loads
    kernel = "high.check_rows" if vector.path() == "scalar" else "vector.evaluate_rows_simd"
    damaged = sorted(pycache.glob(f"{kernel}-*.{suffix}"))
    assert damaged
    for path in damaged:
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 3] if damage == "truncate" else b"\x80garbage" * 40)
    done = run(root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == EXPECTED
    assert "damaged Numba cache file" in done.stderr and f"{kernel}-" in done.stderr
    again = run(root)                                        # rewritten: no warning now
    assert again.stdout.strip() == EXPECTED and "damaged" not in again.stderr


def test_the_private_temp_folder_must_be_private(tmp_path, monkeypatch):
    """A folder others may write to could hold planted pickles: it is never used."""
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    _jit._private_temp_dir.cache_clear()
    try:
        folder = Path(_jit._private_temp_dir())
        assert folder.parent == tmp_path and stat.S_IMODE(folder.stat().st_mode) == 0o700
        _jit._private_temp_dir.cache_clear()
        folder.chmod(0o777)
        assert _jit._private_temp_dir() is None
        _jit._private_temp_dir.cache_clear()
        folder.rmdir()
        folder.symlink_to(tmp_path)                          # a link is not our folder either
        assert _jit._private_temp_dir() is None
    finally:
        _jit._private_temp_dir.cache_clear()


def test_kernels_use_the_recovering_cache_beside_the_sources_or_in_numba_cache_dir():
    from evaluator.kernels import high
    cache = high.evaluate_rows._cache
    assert isinstance(cache, _jit._RecoveringCache)
    if os.environ.get("NUMBA_CACHE_DIR"):          # the user's choice comes first
        assert Path(cache.cache_path).is_relative_to(os.environ["NUMBA_CACHE_DIR"])
    else:
        assert Path(cache.cache_path) == Path(high.__file__).parent / "__pycache__"
