"""The command line, driven as a user would: a subprocess per command."""
import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import evaluator
from evaluator.classes import CLASS_NAMES
from evaluator.families import FAMILIES


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "evaluator", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


def ok(*args, cwd=None):
    done = run_cli(*args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done


def test_help_lists_every_command_with_examples():
    done = ok("--help")
    for command in ("eval", "equity", "discard", "batch", "matrix", "range", "plot", "bench",
                    "tables", "warmup"):
        assert command in done.stdout
    assert "examples:" in done.stdout
    assert "example" in ok("equity", "--help").stdout


@pytest.mark.slow
def test_equity_with_ranges_json_matches_api():
    done = ok("equity", "holdem", "QQ+,AKs", "random", "--board", "2c4c5h", "--json")
    api = evaluator.equity("holdem", ["QQ+,AKs", "random"], "2c4c5h").to_dict()
    assert json.loads(done.stdout) == json.loads(json.dumps(api))
    table = ok("equity", "holdem", "QQ+,AKs", "random", "--board", "2c4c5h").stdout
    assert "QQ+,AKs" in table and "71.79%" in table


def test_equity_takes_the_first_monte_carlo_stream_on_request():
    """``--stream-version 1``: the seeded answers of release 0.1.0, said under the table and
    kept in the JSON; the default stream says nothing more than its seed."""
    query = ("equity", "holdem", "QQ+,AKs", "random", "--trials", "100000", "--seed", "7")
    for version in (1, 2):
        api = evaluator.equity("holdem", ["QQ+,AKs", "random"], trials=100_000, seed=7,
                               version=version).to_dict()
        done = ok(*query, "--stream-version", str(version), "--json")
        assert json.loads(done.stdout) == json.loads(json.dumps(api))
        assert api["version"] == version
    assert "seed 7, stream version 1" in ok(*query, "--stream-version", "1").stdout
    assert "stream version" not in ok(*query).stdout
    keeps = ok("discard", "pineapple", "AsKsQd", "JhTh", "--trials", "2000", "--seed", "3",
               "--stream-version", "1").stdout
    assert "Monte Carlo, 2,000 boards, seed 3, stream version 1" in keeps


def test_equity_by_street_json():
    done = ok("equity", "holdem", "AsKs", "QhQd", "--board", "2c7d9hTs", "--by-street",
              "--json")
    streets = json.loads(done.stdout)
    assert [len(s["board"].split()) for s in streets] == [0, 3, 4]


@pytest.mark.slow
def test_discard():
    done = ok("discard", "pineapple", "AsKsQd", "JhTh", "--json")
    keeps = json.loads(done.stdout)
    api = evaluator.discard_equity("pineapple", "AsKsQd", ["JhTh"])
    assert [k["keep"] for k in keeps] == [k for k, _, _ in api]
    assert keeps[0]["players"][0]["equity"] == api[0][2].players[0].equity
    assert "best first" in ok("discard", "pineapple", "AsKsQd", "JhTh").stdout


@pytest.mark.slow
def test_batch_file_to_csv_and_json(tmp_path):
    queries = tmp_path / "queries.csv"
    queries.write_text('hands,board,trials,seed\nAsKs vs QhQd,2c7d9h,,\n'
                       '"QQ+,AKs vs random",2c4c5h,20000,4\n')
    out = tmp_path / "results.csv"
    ok("batch", str(queries), "--out", str(out), "--no-progress")
    rows = list(csv.DictReader(out.read_text().splitlines()))
    api = evaluator.batch_equity(queries, progress=False)
    assert len(rows) == 2 and float(rows[0]["p1_equity"]) == pytest.approx(api[0]["p1_equity"])
    lines = ok("batch", str(queries), "--no-progress").stdout.splitlines()
    assert [json.loads(line) for line in lines] == json.loads(json.dumps(api))


@pytest.mark.slow
def test_matrix_and_range(tmp_path):
    vs_random = json.loads(ok("matrix", "holdem", "--json").stdout)
    assert vs_random["AA"] == pytest.approx(0.8520, abs=1e-4) and len(vs_random) == 169
    out = tmp_path / "matrix.csv"
    ok("matrix", "holdem", "--out", str(out))
    rows = list(csv.reader(out.read_text().splitlines()))
    assert rows[0][1:] == list(CLASS_NAMES) and len(rows) == 170
    assert float(rows[1][2]) == pytest.approx(evaluator.preflop_matrix().equity("AA", "AKs"),
                                              abs=1e-6)
    listed = json.loads(ok("range", "QQ+,AKs:0.5", "--json").stdout)
    assert listed["combos"] == 22 and listed["total_weight"] == 20
    omaha = json.loads(ok("range", "AxAyxy", "--game", "omaha", "--json").stdout)
    assert omaha["combos"] == 864
    assert "AKs" in ok("range", "QQ+,AKs").stdout
    top = json.loads(ok("range", "15%:$ds", "--game", "omaha", "--json").stdout)
    assert top["breakdown"]["suits"] == {"double-suited": top["combos"], "single-suited": 0,
                                         "rainbow": 0, "other": 0}
    assert 0.02 < top["share"] < 0.05
    shown = ok("range", "KK!KKK:$r", "--game", "omaha").stdout
    assert "864 combos" in shown and "rainbow 864 (100%)" in shown


def _image_is_drawn(path, width_at_least=600):
    import matplotlib.image as mpimg
    pixels = mpimg.imread(path)
    assert pixels.shape[1] >= width_at_least and pixels.shape[0] >= 300
    assert pixels[..., :3].std() > 0.05             # not a blank canvas
    return pixels


@pytest.mark.slow
def test_plots_render_headless(tmp_path):
    pytest.importorskip("matplotlib")
    grid = tmp_path / "grid.png"
    ok("plot", "grid", "--against", "QQ+,AKs", "--board", "2c7d9hTs", "--out", str(grid),
       "--no-progress")
    _image_is_drawn(grid)
    composition = tmp_path / "range.png"
    ok("plot", "grid", "--range", "QQ+,AKs:0.5,T9s", "--out", str(composition))
    _image_is_drawn(composition)
    streets = tmp_path / "streets.png"
    ok("plot", "streets", "holdem", "AsKs", "QhQd", "--board", "2c7d9hTsJs", "--out",
       str(streets))
    _image_is_drawn(streets)
    svg = tmp_path / "grid.svg"
    ok("plot", "grid", "--out", str(svg))
    assert svg.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("args, message", [
    (("equity", "stud", "AsKs", "QdJd"), "unknown game 'stud'"),
    (("equity", "holdem", "AsKx", "QdJd"), "unknown card 'Kx'"),
    (("equity", "holdem", "AKs:x", "QdJd"), "bad weight"),
    (("equity", "holdem", "AA", "AA", "AA"), "no deal fits"),
    (("equity", "the", "AsKsQs", "2c3c4c", "--board", "2d3d4d5d6d"), "not a street of"),
    (("equity", "holdem", "AsKs", "AsQd"), "duplicate card 'As'"),
    (("equity", "holdem", "QQ++", "random"), "QQ++"),
    (("equity", "holdem", "AsKs", "QQ", "--board", "Qc Qd Qh"), "no live combos"),
    (("batch", "no-such-file.csv"), "no such file"),
    (("discard", "holdem", "AsKsQd", "JhTh"), "no discard"),
    (("range", "AKx"), "AKx"),
    (("matrix", "omaha"), "hold'em"),
    (("plot", "grid", "--range", "QQ+", "--out", "grid.bmp"), "unknown file type"),
    (("eval", "holdem", "AsKsQd", "QsJsTs"), "takes 2 hole cards"),
    # the flags, not the API's argument names
    (("equity", "holdem", "AsKs", "QhQd", "--seed", "-1"), "--seed must be a non-negative"),
    (("equity", "holdem", "AsKs", "QhQd", "--threads", "0"), "--threads must be"),
    (("equity", "holdem", "AsKs", "QhQd", "--trials", "0"), "--trials must be"),
    (("equity", "holdem", "AsKs", "QhQd", "--stderr", "2"), "--stderr must be"),
    (("equity", "holdem", "random", "random", "random", "random", "--exact"),
     "use --trials or --stderr to sample"),
    (("batch", "no-such-file.csv", "--seed", "-1"), "--seed must be"),
    (("batch", "no-such-file.csv", "--stream-version", "0"),
     "--stream-version must be 1 or 2 (the Monte Carlo stream), got 0"),
    (("equity", "holdem", "QQ+", "random", "--stream-version", "3"),
     "--stream-version must be 1 or 2 (the Monte Carlo stream), got 3"),
    # the bench's plugin checks load the peers' harness: seconds each
    pytest.param(("bench", "--plugin", "os:path"), "not an Adapter", marks=pytest.mark.slow),
    pytest.param(("bench", "--plugin", "no_such_module_anywhere:X"),
                 "no module 'no_such_module_anywhere'", marks=pytest.mark.slow),
    pytest.param(("bench", "--plugin", "os:no_such_thing"), "module 'os' has no 'no_such_thing'",
                 marks=pytest.mark.slow),
    pytest.param(("bench", "--plugin", "os"), "must look like 'module:Adapter'",
                 marks=pytest.mark.slow),
    (("equity", "holdem", "AsKs", "QhQd", "--stderr", "0.0000005"),
     "--stderr 5e-07 is below 1e-06, which could take 2.5e+11 deals or more; ask for --exact "
     "or --trials"),
    (("equity", "holdem", "AsKs", "QhQd", "--trials", "1e16"),
     "--trials 10,000,000,000,000,000 is more than 1e+15"),
    (("range", "AA", "--dead", "AsAhAd"), "the range 'AA' has no live combos once the dead "
                                          "cards are out"),
    (("range", "AA", "--dead", "AsAhAd", "--json"), "has no live combos"),
    (("tables", "verify", "--out", "X"), "--out is for 'tables build'"),
])
def test_bad_input_exits_2_with_one_line(args, message):
    done = run_cli(*args)
    assert done.returncode == 2, done.stdout
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("evaluator: error: ")
    # the command line's flags, never the API's argument names
    assert not re.search(r"\b(trials=|target_stderr|exact=|threads=|seed=)", done.stderr)


@pytest.mark.parametrize("args, message", [
    (("equity", "holdem", "AsKs", "QhQd", "--trials", "nan"),
     "--trials must be a whole number, got 'nan' (see evaluator equity --help)"),
    (("equity", "holdem", "AsKs", "QhQd", "--trials", "2.5"), "--trials must be a whole number"),
    (("equity", "holdem", "AsKs", "QhQd", "--trials", "1e400"), "--trials must be a whole"),
    (("equity", "holdem", "AsKs", "QhQd", "--threads", "1.5"), "--threads must be a whole"),
    (("equity", "holdem", "AsKs", "QhQd", "--seed", "x"), "--seed must be a whole number"),
    (("equity", "holdem", "AsKs", "QhQd", "--stderr", "nan"), "--stderr must be a finite"),
    (("equity", "holdem", "AsKs", "QhQd", "--stderr", "x"), "--stderr must be a number"),
    (("equity", "holdem", "AsKs", "QhQd", "--trials"), "--trials needs a value"),
    (("equity", "holdem", "AsKs", "QhQd", "--csv", "--json"),
     "--json cannot be combined with --csv"),
    (("equity", "holdem", "AsKs", "QhQd", "--exact", "--trials", "5"),
     "--trials cannot be combined with --exact"),
    (("equity", "holdem"), "the following arguments are required: hands (see evaluator "
                           "equity --help)"),
    (("tables", "bogus"), "unknown action 'bogus' (choose from "),   # quoting: Python's
    (("eval", "holdem", "AsKs", "2c3c4c", "--csv"),
     "unrecognized arguments: --csv (see evaluator eval --help)"),
    (("batch", "q.csv", "--on-error", "skip"), "unknown --on-error 'skip'"),
    (("bench", "--repeat", "2.5"), "--repeat must be a whole number"),
    (("bogus",), "unknown command 'bogus'"),
    ((), "the following arguments are required: COMMAND (see evaluator --help)"),
])
def test_usage_errors_are_one_line_naming_the_help(args, message):
    """argparse's errors too: one line, no usage block, the same prefix as every error."""
    done = run_cli(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"evaluator: error: {message}\n" or (
        message in done.stderr and len(done.stderr.splitlines()) == 1
        and done.stderr.startswith("evaluator: error: ")), done.stderr
    assert "usage:" not in done.stderr and "--help)" in done.stderr


@pytest.mark.slow
def test_whole_number_flags_take_scientific_notation():
    plain = ok("equity", "holdem", "AsKs", "QhQd", "--trials", "200000", "--seed", "3",
               "--json").stdout
    for spelling in ("2e5", "200000.0", "200_000"):
        assert ok("equity", "holdem", "AsKs", "QhQd", "--trials", spelling, "--seed", "3",
                  "--json").stdout == plain


@pytest.mark.slow
def test_plot_grid_refuses_conflicting_and_stray_arguments(tmp_path):
    out = tmp_path / "g.png"
    for args, message in [
            (("grid", "--against", "QQ+", "--range", "AKs"),
             "--against and --range cannot be combined"),
            (("grid", "holdem", "AsKs"), "plot grid takes no game or hands (got 'holdem "
                                         "AsKs'); they are for plot streets"),
            (("grid", "--board", "2c7d9h"), "--board needs --against or --range"),
            (("grid", "--dead", "2c"), "--dead needs --against or --range"),
            (("grid", "--range", "AKs", "--seed", "1"), "--seed is for plot streets"),
            (("grid", "--range", "AKs", "--stream-version", "1"),
             "--stream-version is for plot streets"),
            (("grid", "--range", "AA", "--dead", "AsAhAd"),
             "the range 'AA' has no live combos once the board and dead cards are out"),
            (("grid", "--range", "AA", "--board", "AsAh2c", "--dead", "Ad"), "no live combos"),
            (("streets", "holdem", "AsKs", "QhQd", "--range", "AA"),
             "--range is for plot grid, not plot streets")]:
        done = run_cli("plot", *args, "--out", str(out))
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and not out.exists()


def test_plot_grid_of_a_range_leaves_out_blocked_combos(tmp_path):
    pytest.importorskip("matplotlib")
    from evaluator import cli, plots
    drawn = {}
    real = plots.grid

    def grid(values, path, **kwargs):
        drawn.update(values)
        return real(values, path, **kwargs)
    plots.grid = grid
    try:
        assert cli.main(["plot", "grid", "--range", "AA,KK", "--dead", "As", "--board",
                         "Kh2c7d", "--out", str(tmp_path / "g.png")]) == 0
    finally:
        plots.grid = real
    assert drawn["AA"] == pytest.approx(3 / 6) and drawn["KK"] == pytest.approx(3 / 6)


def test_tables_out_is_checked_like_every_other_out(tmp_path):
    missing = tmp_path / "no" / "tables"
    done = run_cli("tables", "build", "--out", str(missing))
    assert done.returncode == 2 and "no such folder" in done.stderr
    assert not (tmp_path / "no").exists()
    (tmp_path / "file").write_text("")
    done = run_cli("tables", "build", "--out", str(tmp_path / "file"))
    assert done.returncode == 2 and "is a file, not a folder" in done.stderr
    done = run_cli("tables", "verify", "--out", str(tmp_path))
    assert done.returncode == 2 and "--out is for 'tables build'" in done.stderr


@pytest.mark.slow
def test_long_range_texts_are_shortened_on_screen_and_kept_whole_in_json():
    text = ",".join(["AKs:0.5,QQ+,T9s"] * 3000)              # 45 KB
    header = ok("range", text).stdout.splitlines()[0]
    assert len(header) < 200 and f"({len(text):,} characters)" in header
    assert header.startswith(text[:cli_shown()])
    assert json.loads(ok("range", text, "--json").stdout)["range"] == text
    table = ok("equity", "holdem", text, "QhQd", "--trials", "2000").stdout
    assert text not in table and f"({len(text):,} characters)" in table
    assert len(table) < 3000


def cli_shown():
    from evaluator import cli
    return cli.SHOWN


@pytest.mark.parametrize("args", [
    ("range", "100%"), ("range", "AA", "--json"), ("matrix", "holdem"),
    ("matrix", "holdem", "--json"), ("equity", "holdem", "AsKs", "QhQd"),
    ("equity", "holdem", "AsKs", "QhQd", "--csv"), ("eval", "holdem", "AsKs", "QsJsTs"),
    ("eval", "holdem", "AsKs", "QsJsTs", "--json"), ("discard", "pineapple", "AsKsQd", "JhTh"),
])
@pytest.mark.slow
def test_every_command_is_quiet_and_exits_141_on_a_closed_stdout(args):
    import os
    read, write = os.pipe()
    os.close(read)                               # closed before the command writes a byte
    try:
        done = subprocess.run([sys.executable, "-m", "evaluator", *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


def test_flags_named_in_errors_are_the_cli_flags():
    done = run_cli("equity", "holdem", "random", "random", "random", "random", "--exact")
    assert "trials=" not in done.stderr and "exact=True" not in done.stderr


def test_a_closed_stdout_is_quiet(tmp_path):
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"hands": "AsKs vs QhQd", "board": "2c7d9h"}\n' * 2000)
    done = subprocess.run(f"{sys.executable} -m evaluator batch {queries} --threads 2 | "
                          "head -c 200", shell=True, capture_output=True, text=True,
                          timeout=300, executable="/bin/bash")
    assert done.stderr == "" and len(done.stdout) == 200


@pytest.mark.slow
def test_hilo_tables_show_scoop_not_win_and_say_what_columns_mean():
    table = ok("equity", "omaha8", "Ah2h3sKs", "AdKdQcJc", "--board", "4c5d9s").stdout
    header = next(line for line in table.splitlines() if "equity" in line)
    assert [w for w in header.replace("┃", " ").split()] == ["hand", "equity", "scoop", "tie",
                                                            "high", "low"]
    assert "scoop: takes the whole pot alone" in table and "high/low" in table
    plain = ok("equity", "holdem", "AsKs", "QhQd", "--board", "2c7d9h").stdout
    assert " win " in plain and "scoop" not in plain


@pytest.mark.slow
def test_warmup_after_a_warmup_returns_at_once(warm):
    # the session's warmup recorded itself: nothing is left to compile, nor run
    done = ok("warmup")
    assert "already compiled and cached" in done.stdout and not done.stderr


class Terminal:
    def __init__(self, tty):
        self.tty, self.text = tty, ""

    def isatty(self):
        return self.tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_the_compile_note_is_said_once_as_numba_starts_on_any_stream(monkeypatch):
    """The note comes from Numba's own compile event, for this package's kernels only,
    once a process, on a terminal, a log or a pipe alike."""
    from types import SimpleNamespace

    from evaluator import _jit

    def started(module):
        py_func = SimpleNamespace(__module__=module)
        return SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=py_func)})
    for tty in (True, False):
        note = _jit._CompileNote()
        monkeypatch.setattr(sys, "stderr", Terminal(tty))
        note.on_start(started("numba.np.arrayobj"))          # not ours: nothing
        assert sys.stderr.text == ""
        note.on_start(started("evaluator.kernels.high"))
        note.on_start(started("evaluator.kernels.omaha"))
        assert sys.stderr.text.strip() == _jit.NOTE and "evaluator warmup" in _jit.NOTE
    note = _jit._CompileNote()
    monkeypatch.setattr(sys, "stderr", Terminal(True))
    with _jit.quiet():                                       # warmup reports its own steps
        note.on_start(started("evaluator.kernels.high"))
    assert sys.stderr.text == ""


def test_the_compile_note_names_kernel_modules_that_exist():
    import importlib
    import os

    from numba.core.dispatcher import Dispatcher

    from evaluator import _compile_note as note
    from evaluator.games import GAMES
    for name in GAMES:
        assert evaluator.game(name).family in FAMILIES
    for modules in (f.kernel_modules for f in FAMILIES.values()):
        for name in modules:
            module = importlib.import_module(f"evaluator.kernels.{name}")
            assert any(isinstance(k, Dispatcher) for k in vars(module).values()), name
            assert Path(os.path.abspath(module.__file__)) == note.KERNEL_DIR / f"{name}.py"


def test_every_kernel_module_is_some_family_s():
    """A kernel module no family lists escapes ``warmup.warmed`` and the batch's
    "compiling" label (the fused range samplers and the three-range walk did, once moved
    to modules of their own); ``vector`` alone is left out, on purpose: its kernel compiles
    only where the CPU has a vector path."""
    kernel_dir = Path(evaluator.__file__).parent / "kernels"
    with_kernels = {name for name in (p.stem for p in kernel_dir.glob("*.py"))
                    if name != "__init__" and _kernels(name)[1]}
    listed = {name for f in FAMILIES.values() for name in f.kernel_modules}
    assert with_kernels - listed == {"vector"}


def _kernels(name):
    import importlib

    from numba.core.dispatcher import Dispatcher
    module = importlib.import_module(f"evaluator.kernels.{name}")
    return module, [k for k in vars(module).values()
                    if isinstance(k, Dispatcher) and k.py_func.__module__ == module.__name__]


def test_asking_whether_kernels_will_compile_imports_no_numba():
    """A batch asks before it starts: asking Numba would cost ~0.4 s each time."""
    script = ("import sys\nfrom evaluator import _compile_note as c\n"
              "from evaluator.families import FAMILIES\n"
              "kernels = {'evaluator.kernels.' + n for f in FAMILIES.values() "
              "for n in f.kernel_modules}\n"
              "c.will_compile(sorted(n.split('.')[-1] for n in kernels))\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba' "
              "or m in kernels))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_compile_note_looks_where_numba_keeps_each_kernel(tmp_path, monkeypatch):
    import os

    from evaluator import _cache_dirs, _jit
    from evaluator import _compile_note as note
    modules = sorted({name for f in FAMILIES.values() for name in f.kernel_modules})
    for name in modules:        # this session's locations (under its own NUMBA_CACHE_DIR, if set)
        module, kernels = _kernels(name)
        source = Path(module.__file__)
        for k in kernels:
            assert _cache_dirs.cache_dir_for(source) == k._cache._cache_path, (name, k)
        # the last resort, where neither the source's folder nor the user's is writable
        with monkeypatch.context() as patch:
            patch.setattr(_cache_dirs, "_writable", lambda folder: False)
            if _jit._private_temp_dir() is not None:
                expected = _jit._PrivateTempLocator(kernels[0].py_func,
                                                    str(source)).get_cache_path()
                assert _cache_dirs.cache_dir_for(source) == expected
    # NUMBA_CACHE_DIR: as the kernels see it in a process started with it
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    script = ("import importlib\nfrom numba.core.dispatcher import Dispatcher\n"
              f"for name in {modules!r}:\n"
              "    m = importlib.import_module('evaluator.kernels.' + name)\n"
              "    k = next(k for k in vars(m).values() if isinstance(k, Dispatcher)\n"
              "             and k.py_func.__module__ == m.__name__)\n"
              "    print(name, k._cache._cache_path)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    for line in done.stdout.splitlines():
        name, folder = line.split(" ", 1)
        assert _cache_dirs.cache_dir_for(note.KERNEL_DIR / f"{name}.py") == folder
        assert Path(folder).is_relative_to(tmp_path / "numba")


def test_only_a_current_index_counts_as_cached(tmp_path, monkeypatch):
    """An index counts if the installed Numba wrote it, for this Python, with the source's
    stamp as it is now (its SHA-256 digest) and an entry keyed by every kernel source as
    they are now (``_jit`` adds their digest to each key): Numba ignores any other (and
    compiles)."""
    import hashlib
    import os
    import pickle

    import numba

    from evaluator import _compile_note as note
    from evaluator._cache_dirs import cache_dir_for
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    source = note.KERNEL_DIR / "high.py"
    folder = Path(cache_dir_for(source))
    assert folder.is_relative_to(tmp_path)
    assert not note.cached("high")               # nothing there
    folder.mkdir(parents=True)
    abi = getattr(sys, "abiflags", "")
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}{abi}"
    index = folder / f"high.evaluate_rows-10.{tag}.nbi"
    digest = hashlib.sha256(source.read_bytes()).digest()

    current = note.kernel_sources()

    def write(version, stamp, kernels=current):
        key = ("signature", ("target",), ("bytecode", "cells"), kernels)   # as _jit keys
        index.write_bytes(pickle.dumps(version) + pickle.dumps((stamp, {key: "data"})))
    write(numba.__version__, digest)
    assert note.cached("high") and "high" not in note.uncached(("high", "omaha"))
    write(numba.__version__, digest, "the digest of other kernel sources")
    assert not note.cached("high")               # a callee changed since: stale code
    write(numba.__version__, digest)
    assert note.uncached(("high", "omaha")) == ["omaha"]
    old = source.stat().st_mtime - 10            # an older file time changes nothing:
    os.utime(index, (old, old))                  # Numba reads the stamp, not the times
    assert note.cached("high")
    write(numba.__version__, hashlib.sha256(b"another source").digest())
    assert not note.cached("high")               # the source changed since
    info = source.stat()
    write(numba.__version__, (info.st_mtime, info.st_size))   # an older Numba's stamp
    assert note.cached("high")
    write("0.1.0", digest)                                     # another Numba's
    assert not note.cached("high")
    index.write_bytes(b"garbage")                              # damaged
    assert not note.cached("high")
    index.unlink()
    (folder / "high.evaluate_rows-10.py27.nbi").write_bytes(pickle.dumps(numba.__version__))
    assert not note.cached("high")                             # another Python's
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert note.uncached(("high",)) == []                      # nothing compiles


NOTE = """
import sys
from numba.core.dispatcher import Dispatcher
import evaluator.kernels.high, evaluator.kernels.multisets
from evaluator import equity
equity("holdem", ["AsKs", "QhQd"], "2c7d9h", exact=True, prefer_numpy=False)
kernels = [k for name in ("high", "multisets")
           for k in vars(sys.modules["evaluator.kernels." + name]).values()
           if isinstance(k, Dispatcher)]
print(sum(len(k.stats.cache_misses) for k in kernels),
      sum(sum(k.stats.cache_hits.values()) for k in kernels))
"""


def compile_note(env):
    """Whether a hold'em query prints the compile note, and how many of its kernels
    compiled and loaded."""
    done = subprocess.run([sys.executable, "-c", NOTE], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    misses, hits = map(int, done.stdout.split())
    return "note: compiling" in done.stderr, misses, hits


@pytest.mark.slow
def test_the_compile_note_shows_exactly_when_kernels_compile(tmp_path, warm):
    import os
    import shutil

    from evaluator import _compile_note as note
    from evaluator.kernels import high
    warm = getattr(high.evaluate_rows._cache, "_cache_path", None)   # this session's cache
    if warm is None or note.uncached(FAMILIES["best5"].kernel_modules):
        pytest.skip("this session's kernel cache is not warm (no cache, or a kernel's "
                    "source changed since the warmup)")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    shown, misses, _ = compile_note(env)
    assert shown and misses > 0                 # an empty cache: compiles, and says so
    shown, misses, hits = compile_note(env)
    assert not shown and misses == 0 and hits > 0      # then loads, silently
    # a copy of this session's warm cache where NUMBA_CACHE_DIR points
    fresh = {**env, "NUMBA_CACHE_DIR": str(tmp_path / "copy")}
    where = subprocess.run([sys.executable, "-c", "from evaluator.kernels import high; "
                            "print(high.evaluate_rows._cache._cache_path)"],
                           capture_output=True, text=True, timeout=300, env=fresh)
    assert where.returncode == 0, where.stderr
    folder = Path(where.stdout.strip())
    folder.mkdir(parents=True, exist_ok=True)
    for file in Path(warm).iterdir():
        if file.suffix in (".nbi", ".nbc"):
            shutil.copy2(file, folder / file.name)
    shown, misses, hits = compile_note(fresh)
    assert not shown and misses == 0 and hits > 0


def test_usage_errors_exit_2():
    assert run_cli().returncode == 2
    assert run_cli("equity", "holdem", "AsKs", "QdJd", "--trials", "x").returncode == 2
