"""The compile note tells the truth: it says a kernel compiles exactly when Numba will
compile it, after a reinstall too (which rewrites the sources with new file times)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import evaluator
from evaluator import _tables

SCRIPT = """
import sys
from evaluator import _compile_note as note
before = note.cached("high")
import numpy as np
from numba.core.dispatcher import Dispatcher
import evaluator.kernels.high as high
from evaluator import evaluate_batch
evaluate_batch("holdem", np.arange(7, dtype=np.uint8).reshape(1, 7), threads=1)
misses = sum(len(k.stats.cache_misses) for k in vars(high).values()
             if isinstance(k, Dispatcher))
print(high.__file__, before, misses)
"""


def run(site: Path, cache: Path) -> tuple[bool, int]:
    env = {**os.environ, "PYTHONPATH": str(site), "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=600, env=env, cwd=site)
    assert done.returncode == 0, done.stderr
    path, before, misses = done.stdout.split()
    assert Path(path).is_relative_to(site)           # the copy answered, not the sources
    return before == "True", int(misses)


def install(site: Path) -> None:
    """What a reinstall does to the package: the same files, written again."""
    target = site / "evaluator"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(Path(evaluator.__file__).parent, target,
                    ignore=shutil.ignore_patterns("__pycache__", "tables"))
    shutil.copytree(_tables.tables_dir(), target / "tables",      # as the wheel has them
                    ignore=shutil.ignore_patterns("*.py", "__pycache__"))


@pytest.mark.slow
def test_no_false_compile_note_after_a_reinstall(tmp_path):
    site, cache = tmp_path / "site", tmp_path / "numba"
    site.mkdir()
    install(site)
    cached, misses = run(site, cache)
    assert not cached and misses > 0                 # a fresh cache: compiled, and said so
    cached, misses = run(site, cache)
    assert cached and misses == 0
    time.sleep(1.1)                                  # new file times, same contents
    install(site)
    cached, misses = run(site, cache)
    assert cached and misses == 0                    # no note, and indeed no compile
    high = site / "evaluator" / "kernels" / "high.py"
    high.write_text(high.read_text() + "\n# changed\n")
    cached, misses = run(site, cache)
    assert not cached and misses > 0                 # a changed source: compiles, said so
