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
from evaluator.kernels import vector
module = "high" if vector.path() == "scalar" else "vector"     # whose kernel answers
before = note.cached(module)
import numpy as np
from numba.core.dispatcher import Dispatcher
from evaluator import evaluate_batch
evaluate_batch("holdem", np.arange(7, dtype=np.uint8).reshape(1, 7), threads=1)
modules = [m for name, m in sys.modules.items() if name.startswith("evaluator.kernels.")]
misses = sum(len(k.stats.cache_misses) for m in modules for k in vars(m).values()
             if isinstance(k, Dispatcher))
print(sys.modules["evaluator.kernels." + module].__file__, before, misses)
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
    from evaluator.kernels import vector
    used = site / "evaluator" / "kernels" / ("high.py" if vector.path() == "scalar"
                                             else "vector.py")
    used.write_text(used.read_text() + "\n# changed\n")
    cached, misses = run(site, cache)
    assert not cached and misses > 0                 # a changed source: compiles, said so
    cached, misses = run(site, cache)
    assert cached and misses == 0
    # another kernel file changed: Numba builds a kernel's callees into its cached code but
    # stamps only the kernel's own file, so every kernel is keyed by all the kernel sources
    # (a change to one file would otherwise leave its callers running the old code)
    other = site / "evaluator" / "kernels" / "markers.py"
    other.write_text(other.read_text() + "\n# changed\n")
    cached, misses = run(site, cache)
    assert not cached and misses > 0


@pytest.mark.slow
def test_no_false_compile_note_after_pip_install_over_an_install(tmp_path):
    """The same with pip itself: the wheel installed, then installed again over it (new
    files, new times, the same sources): no note and no compile the second time."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file():
        pytest.skip("needs the source tree to build the wheel")
    wheels, site, cache = tmp_path / "wheels", tmp_path / "site", tmp_path / "numba"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
                    str(root)], check=True, timeout=900, capture_output=True)
    wheel = next(wheels.glob("evaluator-*.whl"))

    def pip_install() -> None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--upgrade",
                        "--force-reinstall", "--target", str(site), str(wheel)], check=True,
                       timeout=900, capture_output=True)
    pip_install()
    cached, misses = run(site, cache)
    assert not cached and misses > 0
    time.sleep(1.1)                                  # new file times, same contents
    pip_install()
    cached, misses = run(site, cache)
    assert cached and misses == 0


WARM_CHECK = """
import importlib, pkgutil, sys
sys.path.insert(0, {tests!r})
from numba.core.dispatcher import Dispatcher
import evaluator.kernels
from evaluator import batch_equity
from warm_queries import every_query, every_study
rows = batch_equity(every_query(), threads=2, progress=False, on_error="record")
errors = [r["error"] for r in rows if r.get("error")]
every_study()
missed = []
for info in pkgutil.iter_modules(evaluator.kernels.__path__):
    module = importlib.import_module("evaluator.kernels." + info.name)
    for name, k in vars(module).items():
        if isinstance(k, Dispatcher) and k.stats.cache_misses:
            missed.append(f"{{info.name}}.{{name}}: {{len(k.stats.cache_misses)}}")
print(len(rows), len(errors), errors[:3], missed)
"""


def _warmed_cache(tmp_path: Path) -> tuple[dict[str, str], str]:
    """A cache holding what ``evaluator warmup`` compiled from an empty one, and its
    stderr.  CI runs that warmup once, before any test, into a cache of its own, and hands
    a copy over (``EVALUATOR_WARMED_CACHE``, its stderr beside it as ``warmup.log``); run
    elsewhere, this check runs the warmup itself (about two minutes on two cores)."""
    cache = tmp_path / "numba"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    handed = os.environ.get("EVALUATOR_WARMED_CACHE")
    if handed and (Path(handed) / "warmup.log").is_file():
        shutil.copytree(handed, cache)
        return env, (Path(handed) / "warmup.log").read_text()
    done = subprocess.run([sys.executable, "-m", "evaluator", "warmup"], capture_output=True,
                          text=True, timeout=900, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "kernels compiled and cached" in done.stdout
    return env, done.stderr


@pytest.mark.slow
@pytest.mark.longest
def test_after_warmup_a_batch_of_every_game_and_street_compiles_nothing(tmp_path):
    """warmup, in a fresh cache (a line on stderr as each group of steps finishes), then
    (in another process) a batch touching every game and board size with every kind of
    hand, and the studies: Numba loads every kernel from the cache; none compiles (counted
    by Numba's own cache-miss statistics)."""
    env, stderr = _warmed_cache(tmp_path)
    lines = [line for line in stderr.splitlines() if line[:1].isdigit()]
    total = int(lines[0].split(":")[0].split("/")[1])   # a line as each group finishes
    assert total > 500 and lines[-1].startswith(f"{total}/{total}:")
    groups = {line.split(": ")[1] for line in lines}
    assert {"holdem", "omaha", "short_deck", "studies", "holdem vectors"} <= groups
    again = subprocess.run([sys.executable, "-m", "evaluator", "warmup"], capture_output=True,
                           text=True, timeout=900, env=env, cwd=tmp_path)
    assert again.returncode == 0 and "already compiled" in again.stdout   # recorded: skipped
    script = WARM_CHECK.format(tests=str(Path(__file__).parent))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=900, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    queries, errors, shown, missed = done.stdout.strip().split(" ", 3)
    assert int(queries) > 500 and errors == "0", shown
    assert missed == "[]", f"kernels compiled after warmup: {missed}"


def test_a_batch_says_it_compiles_and_labels_its_bar(monkeypatch, capsys):
    from evaluator import _compile_note, batch_equity
    from evaluator import progress as progress_module
    labels = []
    real = progress_module.progress_bar

    def spy(total, label, show):
        labels.append(label)
        return real(total, label, show)
    monkeypatch.setattr(progress_module, "progress_bar", spy)
    monkeypatch.setattr(_compile_note, "cached", lambda module: False)
    rows = batch_equity([{"game": "holdem", "hands": ["AsKs", "QhQd"], "board": "2c7d9h"}],
                        threads=1, progress=True)
    assert len(rows) == 1
    assert labels and labels[0].startswith("compiling kernels")
    monkeypatch.setattr(_compile_note, "cached", lambda module: True)
    labels.clear()
    batch_equity([{"game": "holdem", "hands": ["AsKs", "QhQd"], "board": "2c7d9h"}],
                 threads=1, progress=True)
    assert "note: compiling" not in capsys.readouterr().err
    assert labels == ["equity queries"]


def test_warmup_keeps_each_process_to_its_own_families():
    """Two warmup processes: each takes the groups of its own families (the families dealt
    out in turn), the heaviest of them first, and another family's only when its own are
    done, so that two processes seldom compile the same kernels at once."""
    import importlib

    from evaluator.families import FAMILIES
    warmup = importlib.import_module("evaluator.warmup")
    groups = list(dict.fromkeys(group for group, _, _ in warmup._work()))
    waiting = sorted(groups, key=warmup._rank)
    assert waiting[:2] == ["holdem", "omaha"]        # each family's first game, exact first
    names = list(FAMILIES)
    taken: list[list[str]] = [[], []]
    while waiting:
        for worker in (0, 1):
            if waiting:
                taken[worker].append(warmup._next_group(waiting, worker, 2))
    assert sorted(taken[0] + taken[1]) == sorted(groups)
    for worker, mine in enumerate(taken):
        own = [warmup._family_of(group) in names[worker::2] for group in mine]
        assert own[0] and own == sorted(own, reverse=True)   # its own, then others' only
    assert taken[0][0] == "holdem" and taken[1][0] == "omaha"


def test_warmup_workers_import_the_callers_copy_of_the_package(tmp_path):
    """A worker started from a directory holding another ``evaluator`` (a clone of the
    repository beside an installed package) imports the caller's copy, not that one:
    Numba caches per source file, so warming the other copy left the caller to compile."""
    import importlib

    import evaluator
    warmup = importlib.import_module("evaluator.warmup")
    decoy = tmp_path / "evaluator"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise ImportError('the decoy was imported')\n")
    code = warmup._worker_code()
    assert code.endswith("from evaluator.warmup import _serve; _serve()")
    probe = code.replace("from evaluator.warmup import _serve; _serve()",
                         "import evaluator; print(evaluator.__file__)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).resolve() == Path(evaluator.__file__).resolve()
