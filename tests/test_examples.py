"""Every example the project shows runs, and prints what its comment says.

The examples are found where they are written (``tests/doc_examples.py``): the ``python``
and ``bash`` blocks of README.md and docs/pages/*.md, and the example lines of every
``--help``.  Each one has an entry in a table below saying what it must print or return;
an example without an entry, or an entry without an example, fails, so that a new
example gets its check when it is written.  A comment that only describes ("# every turn
card") needs no more than a run without error; one that states a value ("# 46.21%",
"# 22 combos") is asserted.

Commands run in-process through ``evaluator.cli.main`` (the same code as ``python -m
evaluator``, without a Python start per command), each in a fresh folder holding the
input files it names: the README's ``queries.csv``, the ``queries.jsonl`` of ``evaluator
batch --help``.  Outputs are never shared between examples, since an existing output is
refused without ``--overwrite``.  Cluster examples name a placeholder scheduler
(``tcp://scheduler:8786``); their test puts the address of a local cluster on 127.0.0.1
in its place.  No test reaches outside this machine.
"""
from __future__ import annotations

import contextlib
import csv
import importlib.util
import io
import json
import math
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from doc_examples import (
    ROOT,
    Block,
    commands,
    epilog_examples,
    parsers,
    python_blocks,
    run_python,
    text_blocks,
)

PLACEHOLDER = "tcp://scheduler:8786"


# --- the inputs the examples name -------------------------------------------------

def queries_csv() -> str:
    """The README's ``queries.csv``: its one ``text`` block."""
    (block,) = text_blocks()["README.md"]
    assert block.text.startswith("id,game,hands"), block.text
    return block.text


def queries_jsonl() -> str:
    """The JSON Lines queries shown in ``evaluator batch --help``."""
    help_text = parsers()["evaluator batch"].format_help()
    lines = [line.strip() for line in help_text.splitlines() if line.strip().startswith("{")]
    assert len(lines) == 2, help_text
    return "\n".join(lines) + "\n"


INPUTS = {"queries.csv": queries_csv, "queries.jsonl": queries_jsonl}
HISTORIES = ROOT / "tests" / "histories"


def history_inputs(folder: Path) -> None:
    """The hand histories the examples name: ``hands/`` (the test histories, in PHH and
    PokerStars text), ``stars/`` and ``stars.txt`` (PokerStars), with "alice" as "hero"."""
    for name in ("hands", "stars"):
        (folder / name).mkdir(exist_ok=True)
    for path in HISTORIES.iterdir():
        text = path.read_text(encoding="utf-8").replace("alice", "hero")
        (folder / "hands" / path.name).write_text(text, encoding="utf-8")
        if path.name.startswith("stars"):
            (folder / "stars" / path.name).write_text(text, encoding="utf-8")
    (folder / "stars.txt").write_text(
        (HISTORIES / "stars_holdem.txt").read_text(encoding="utf-8").replace("alice", "hero"),
        encoding="utf-8")


def folder_for(code: str, tmp_path: Path) -> Path:
    """A fresh folder holding every input file ``code`` names."""
    folder = tmp_path / "run"
    folder.mkdir()
    for name, text in INPUTS.items():
        if re.search(rf"(^|\s){re.escape(name)}(\s|$)", code):
            (folder / name).write_text(text(), encoding="utf-8")
    if "evaluator history" in code:
        history_inputs(folder)
    return folder


@dataclass
class Done:
    code: int
    out: str
    err: str


def cli(argv: list[str], folder: Path, monkeypatch, stdin: str | None = None) -> Done:
    """``evaluator ARGV`` in-process, in ``folder``: its exit status, stdout and stderr."""
    from evaluator.cli import main

    monkeypatch.chdir(folder)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as done:                # --help
            code = done.code or 0
    return Done(code, out.getvalue(), err.getvalue())


def run_example(code: str, folder: Path, monkeypatch) -> Done:
    """One shell line: ``evaluator ...``, or ``cat FILE | evaluator ...`` (the file on
    stdin)."""
    words = shlex.split(code)
    stdin = None
    if words[0] == "cat" and words[2] == "|":
        stdin, words = (folder / words[1]).read_text(encoding="utf-8"), words[3:]
    assert words[0] == "evaluator", code
    return cli(words[1:], folder, monkeypatch, stdin)


# --- checks shared by several examples ----------------------------------------------

def percents(text: str) -> list[float]:
    return [float(p) for p in re.findall(r"(\d+\.\d+)%", text)]


def keeps_best_first(done: Done, folder: Path) -> None:
    """A discard table: three keeps, each row's equity at most the one above."""
    rows = [line for line in done.out.splitlines() if line.startswith("│")]
    assert len(rows) == 3, done.out
    first = [percents(row)[0] for row in rows]
    assert first == sorted(first, reverse=True), done.out


def boards_in_order(*boards: str) -> Callable[[Done, Path], None]:
    def check(done: Done, folder: Path) -> None:
        shown = re.findall(r"board: (.*)", done.out)
        assert [b.strip() for b in shown] == list(boards), done.out
    return check


def rows_of(name: str, count: int, *, ids: tuple[str, ...] = ()) -> Callable:
    """The output file ``name`` holds ``count`` rows (CSV, JSON or JSON Lines)."""
    def check(done: Done, folder: Path) -> None:
        path = folder / name
        if path.suffix == ".csv":
            with path.open(encoding="utf-8", newline="") as f:
                rows = list(csv.DictReader(f))
        elif path.suffix == ".json":
            rows = json.loads(path.read_text(encoding="utf-8"))
        else:
            rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert len(rows) == count, rows
        if ids:
            assert tuple(row["id"] for row in rows) == ids, rows
    return check


def image(name: str) -> Callable:
    magic = {".png": b"\x89PNG", ".svg": b"<?xml", ".pdf": b"%PDF"}

    def check(done: Done, folder: Path) -> None:
        path = folder / name
        assert path.read_bytes().startswith(magic[path.suffix]), name
    return check


def interrupted(out: str) -> Callable:
    """Before the run: ``out`` as a batch stopped by Ctrl-C leaves it, the first row
    written and the second not."""
    def setup(folder: Path, monkeypatch) -> None:
        done = cli(["batch", "queries.csv", "--out", out, "--no-progress"], folder,
                   monkeypatch)
        assert done.code == 0, done.err
        lines = (folder / out).read_text(encoding="utf-8").splitlines(keepends=True)
        (folder / out).write_text("".join(lines[:2]), encoding="utf-8")
    return setup


def json_fractions(*fractions: str) -> Callable:
    def check(done: Done, folder: Path) -> None:
        answer = json.loads(done.out)
        assert answer["exact"] is True
        assert answer["counts"]["equity_fractions"] == list(fractions)
    return check


def all_of(*checks: Callable) -> Callable:
    def check(done: Done, folder: Path) -> None:
        for one in checks:
            one(done, folder)
    return check


# --- what each shell example must do ------------------------------------------------

@dataclass
class Run:
    """Run the command: exit 0, ``shows`` each in stdout, ``says`` each in stderr,
    ``check(done, folder)``.  ``instead``: the command run in its place, and ``why``."""

    shows: tuple[str, ...] = ()
    says: tuple[str, ...] = ()
    check: Callable | None = None
    setup: Callable | None = None
    slow: str = ""
    instead: str = ""
    why: str = ""


@dataclass
class Synopsis:
    """A usage line, not a command: every ``--flag`` it names is an option of its
    command (``a|b`` choices included); ``run``, its runnable part, is run as well."""

    run: str = ""


@dataclass
class Tool:
    """A developer's command (pip, pytest, ruff, the table and benchmark scripts): not
    run here, since it installs, rewrites tables or runs this suite.  ``check()`` checks
    what the line relies on; ``why`` says why the line itself is not run."""

    check: Callable[[], None]
    why: str


def script_takes(script: str, *words: str) -> Callable[[], None]:
    """``python SCRIPT --help`` succeeds and names each of ``words``."""
    def check() -> None:
        done = subprocess.run([sys.executable, str(ROOT / script), "--help"], text=True,
                              capture_output=True, timeout=120, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        for word in words:
            assert word in done.stdout, (word, done.stdout)
    return check


def extras(*names: str) -> Callable[[], None]:
    def check() -> None:
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        assert set(names) <= set(project["project"]["optional-dependencies"])
    return check


def markers(*names: str) -> Callable[[], None]:
    def check() -> None:
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        declared = {m.split(":")[0] for m in project["tool"]["pytest"]["ini_options"]["markers"]}
        assert set(names) <= declared
    return check


def modules(*names: str) -> Callable[[], None]:
    def check() -> None:
        for name in names:
            assert importlib.util.find_spec(name) is not None, name
    return check


def in_ci(line: str) -> Callable[[], None]:
    def check() -> None:
        assert line in (ROOT / ".ci/run").read_text(encoding="utf-8"), line
    return check


def ab_cases(*words: str) -> Callable[[], None]:
    """``benchmarks/ab.py`` has a case whose name holds each of ``words``."""
    def check() -> None:
        source = (ROOT / "benchmarks/ab.py").read_text(encoding="utf-8")
        names = re.findall(r'^ {8}"([^"]+)": \(lambda', source, re.M)
        assert names, source
        for word in words:
            assert any(word in name for name in names), (word, names)
    return check


def every(*checks: Callable[[], None]) -> Callable[[], None]:
    def check() -> None:
        for one in checks:
            one()
    return check


AS_KS_QH_QD = ("As Ks", "46.21%", "53.79%", "exact enumeration of 1,712,304 boards")
NOT_RUN_HERE = "pytest is this suite; CI runs the line itself (.ci/run)"

def interrupted_history(out: str) -> Callable:
    """Before the run: ``out`` as a history run stopped by Ctrl-C leaves it, its first
    hands written, the last line cut."""
    def setup(folder: Path, monkeypatch) -> None:
        done = cli(["history", "hands/", "--out", out, "--no-progress"], folder, monkeypatch)
        assert done.code == 0, done.err
        lines = (folder / out).read_text(encoding="utf-8").splitlines(keepends=True)
        (folder / out).write_text("".join(lines[:4]) + lines[4][:12], encoding="utf-8")
    return setup


HISTORY_ROWS = 19           # the rows of the test histories' eight hands


SHELL: dict[str, Run | Synopsis | Tool] = {
    # README, install and quickstart (and docs/pages/index.md)
    "pip install . && evaluator equity holdem AsKs QhQd": Run(
        AS_KS_QH_QD, instead="evaluator equity holdem AsKs QhQd",
        why="the package is installed already (pip install -e); the command after && runs"),
    'pip install ".[test]" && pytest': Tool(every(extras("test"), modules("pytest")),
                                            NOT_RUN_HERE),
    # README, one example per game
    "evaluator equity holdem AsKs QhQd JcTc": Run(      # 3-way, exact
        ("As Ks", "Qh Qd", "Jc Tc", "40.21%", "41.05%", "18.74%",
         "exact enumeration of 1,370,754 boards")),
    "evaluator equity omaha AsAhKsKh QdQcJdTc": Run(    # PLO, exact
        ("64.61%", "35.39%", "exact enumeration of 1,086,008 boards")),
    "evaluator equity omaha8 Ah2h3sKs AdKdQcJc --board 4c5d9s": Run(   # scoop, high, low
        ("scoop", "high", "low", "69.70%", "46.46%", "32.50%", "37.20%",
         "exact enumeration of 820 boards")),
    "evaluator equity omaha5_8 As2s3dKcQh AdKdQcJc4h": Run(   # Big O, exact
        ("55.40%", "44.60%", "exact enumeration of 850,668 boards")),
    "evaluator equity courchevel AsKsQd2c7h JhJdTc9c8c --board Ah": Run(   # one flop card
        ("board: Ah", "67.68%", "32.32%", "exact enumeration of 101,270 boards")),
    "evaluator discard crazy_pineapple AsKsQd JhTh --board 2c7d9h": Run(   # best first
        ("keeps for AsKsQd, best first", "59.41%", "58.46%"), check=keeps_best_first),
    "evaluator equity the 9c9d4s AhKhQh --board Ks4d2c --by-street": Run(  # each card
        ("41.07%", "19.76%", "59.94%", "74.42%"),
        check=boards_in_order("-", "Ks", "Ks 4d", "Ks 4d 2c")),
    "evaluator equity teen_patti AsKsQs 2c2d2h random": Run(   # no board; ties split
        ("board: -", "99.74%", "exact enumeration of 15,180 deals")),
    # README, ranges
    'evaluator range "QQ+,AKs:0.5"': Run(   # 22 combos, shown on the 13 x 13 grid
        ("QQ+,AKs:0.5: 22 combos, weight 20", "share of each class in the range", " AA ",
         " 72o ")),
    "evaluator range 'AA$ds,KK!KKK:$r' --game omaha": Run(   # 1,728 combos, by pairs and suits
        ("1,728 combos", "ranks: pair 1,584 (92%), two pair or more 144 (8%)",
         "suits: double-suited 864 (50%), rainbow 864 (50%)")),
    "evaluator equity omaha 'AA$ds' 15% --trials 2e6": Run(
        ("AA$ds", "15%", "Monte Carlo, 2,000,000 deals from the ranges")),
    # README, command line: one command and the usage lines
    'evaluator eval holdem AsKs "Qs Js Ts 2d 3c"': Run(   # name, best five, category, value
        ("royal flush", "best five: As Ks Qs Js Ts", "category:  straight flush",
         "value:     36874")),
    "evaluator equity GAME HAND HAND ... [--board B] [--dead D] [--exact | --trials N | "
    "--stderr E] [--seed S] [--stream-version 1|2] [--threads T] [--by-street] "
    "[--no-progress] [--json | --csv]": Synopsis(),
    "evaluator discard pineapple AsKsQd JhTh [--json]": Synopsis(
        "evaluator discard pineapple AsKsQd JhTh --json"),
    "evaluator batch FILE [--out results.csv] [--resume | --overwrite] "
    "[--on-error stop|record] [--scheduler ADDR]": Synopsis(),
    "evaluator history PATH... [--player P] [--out ev.csv] [--plot ev.png] "
    "[--on-error record]": Synopsis(),
    # README and evaluator --help: hand histories
    "evaluator history hands/ --player hero --plot ev.png": Run(
        ("hero", "2 hands read"), check=image("ev.png")),
    "evaluator history stars/ --out ev.csv --on-error record": Run(
        ("3 hands read",), check=rows_of("ev.csv", 8)),
    # evaluator history --help
    "evaluator history hands/": Run(("8 hands read", "Ann", "hero")),
    "evaluator history stars.txt --player hero --plot ev.png": Run(
        ("2 hands read", "hero"), check=image("ev.png")),
    "evaluator history hands/ --out ev.csv --on-error record": Run(
        check=rows_of("ev.csv", HISTORY_ROWS)),
    "evaluator history hands/ --out ev.csv --resume": Run(
        setup=interrupted_history("ev.csv"), check=rows_of("ev.csv", HISTORY_ROWS)),
    "evaluator matrix holdem [--out matrix.csv|.json] [--recompute]": Synopsis(
        "evaluator matrix holdem --out matrix.json"),
    'evaluator range "QQ+,AKs:0.5" [--game G] [--json] '
    "[--format pio|gtoplus|pokerstove|vector]": Synopsis(
        'evaluator range "QQ+,AKs:0.5" --format gtoplus'),
    'evaluator study flops "QQ+,AKs" random [--out flops.csv] [--trials N] [--resume] '
    "[--plot F]": Synopsis(),
    'evaluator study distribution "QQ+,AKs" "22+,A2s+" --board 2c7d9h [--buckets 10] '
    "[--out d.csv]": Synopsis(
        'evaluator study distribution "QQ+,AKs" "22+,A2s+" --board 2c7d9h --buckets 10 '
        "--out d.csv"),
    'evaluator study breakdown "QQ+,AKs,T9s" --board Ah7d2c [--out b.csv] '
    "[--plot b.png]": Synopsis(
        'evaluator study breakdown "QQ+,AKs,T9s" --board Ah7d2c --out b.csv --plot b.png'),
    'evaluator study runouts "QQ+,AKs" "22+" --board 2c7d9h [--out r.csv] '
    "[--plot r.png]": Synopsis(
        'evaluator study runouts "QQ+,AKs" "22+" --board 2c7d9h --out r.csv --plot r.png'),
    "evaluator plot grid|streets ...; evaluator bench [--quick]; "
    "evaluator tables verify|build": Synopsis(),
    "evaluator warmup [--force]": Synopsis(),
    "evaluator warmup": Run(slow="compiles every kernel (test_warmup_examples)"),
    # docs/pages/contributing.md and internals.md: the developer's commands
    "python -m venv .venv && . .venv/bin/activate": Tool(
        modules("venv"), "it makes a virtual environment; the suite runs in one"),
    'pip install -e ".[test,lint,docs]"': Tool(
        extras("test", "lint", "docs"), "it installs; the suite runs installed"),
    "pytest": Tool(markers("slow"), NOT_RUN_HERE),
    'pytest -m "slow and not serial"': Tool(
        every(markers("slow", "serial"), modules("xdist")), NOT_RUN_HERE),
    'pytest -m "slow and serial" -n 0': Tool(markers("slow", "serial"), NOT_RUN_HERE),
    "ruff check evaluator tests benchmarks tables": Tool(
        in_ci("ruff check evaluator tests benchmarks tables"), "CI runs it (.ci/run)"),
    "mypy evaluator": Tool(in_ci("mypy evaluator"), "CI runs it (.ci/run), minutes"),
    "mkdocs build --strict -f docs/mkdocs.yml": Tool(
        every(in_ci("mkdocs build --strict -f docs/mkdocs.yml"), extras("docs")),
        "CI runs it (.ci/run)"),
    "bash .ci/run": Tool(lambda: (ROOT / ".ci/run").is_file() or pytest.fail(".ci/run"),
                         "it is CI: a fresh install and every test"),
    "python tables/generate.py": Tool(
        script_takes("tables/generate.py", "--out"), "it rewrites the shipped tables"),
    "python tables/generate.py --check": Tool(
        script_takes("tables/generate.py", "--check"),
        "tests/test_tables.py regenerates and compares the tables"),
    "python tables/rankings.py GAME": Tool(
        script_takes("tables/rankings.py", "games"), "it rewrites a shipped ranking"),
    "python tables/rankings.py": Tool(
        script_takes("tables/rankings.py", "games"), "it rewrites the shipped rankings"),
    "python tables/preflop.py": Tool(
        script_takes("tables/preflop.py", "--check"), "it rewrites the shipped matrix "
        "(evaluator matrix holdem --recompute computes the same, in a slow test)"),
    "python benchmarks/ab.py REV": Tool(ab_cases(), "it times two revisions for minutes"),
    'python benchmarks/ab.py REV "HU exact" "range MC"': Tool(
        ab_cases("HU exact", "range MC"), "it times two revisions"),
    "pytest benchmarks --benchmark-columns=median,min,rounds": Tool(
        modules("pytest_benchmark"), "benchmarks take minutes and are not tests"),
    # docs/pages/guide.md
    "pip install .": Tool(lambda: None, "it installs; the suite runs installed"),
    "evaluator equity holdem AsKs QhQd": Run(AS_KS_QH_QD),
    "evaluator eval holdem AsKs QsJsTs2d3c": Run(("royal flush", "value:     36874")),
    'evaluator equity holdem "QQ+,AKs" random --board 2c7d9h --trials 1000000 --seed 1': Run(
        ("78.20%", "21.80%", "Monte Carlo, 1,000,000 deals from the ranges, seed 1")),
    "evaluator batch queries.csv --out rows.csv --resume": Run(
        says=("1 of them kept from before, 1 computed now",), setup=interrupted("rows.csv"),
        check=rows_of("rows.csv", 2, ids=("flop", "pre"))),
    'evaluator study flops "QQ+,AKs" random --out flops.csv --plot flops.png': Run(
        ("1,755 suit classes", "79.70%, 20.30% pre-flop"),
        says=("1,755 flop classes written to flops.csv", "image written to flops.png"),
        check=all_of(rows_of("flops.csv", 1755), image("flops.png"))),
    'evaluator range "AA$ds" --game omaha': Run(
        ("AA$ds: 864 combos", "suits: double-suited 864 (100%)")),
    "evaluator tables verify": Run(("all tables match",)),   # against their manifest
    # evaluator --help (and evaluator equity --help, the same)
    'evaluator equity holdem "QQ+,AKs" random --board 2c4c5h': Run(
        ("71.79%", "28.21%", "exact enumeration of 23,544,180 deals")),
    "evaluator equity omaha8 Ah2h3sKs AdKdQcJc --board 4c5d9s --json": Run(
        check=json_fractions("1143/1640", "497/1640")),
    "evaluator equity holdem AsKs QhQd JcTc --trials 1000000 --seed 1": Run(
        ("Jc Tc", "Monte Carlo, 1,000,000 boards, seed 1")),
    "evaluator equity the 9c9d4s AhKhQh --board Ks4d2c7h --by-street": Run(
        ("100.00%",), check=boards_in_order("-", "Ks", "Ks 4d", "Ks 4d 2c", "Ks 4d 2c 7h")),
    'evaluator discard pineapple AsKsQd JhTh --board ""': Run(
        ("keeps for AsKsQd, best first", "61.41%"), check=keeps_best_first),
    "evaluator batch queries.csv --out results.csv": Run(
        says=("2 results written to results.csv",),
        check=rows_of("results.csv", 2, ids=("flop", "pre"))),
    "evaluator matrix holdem --out matrix.csv": Run(
        says=("169 x 169 matrix written to matrix.csv",)),
    'evaluator plot grid --against "QQ+,AKs" --out grid.png': Run(
        says=("image written to grid.png",), check=image("grid.png")),
    "evaluator plot streets holdem AsKs QhQd --board 2c7d9hTsJs --out streets.png": Run(
        says=("image written to streets.png",), check=image("streets.png")),
    "evaluator bench --quick": Run(slow="seconds of timing on every installed peer"),
    # each command's --help
    "evaluator eval holdem AsKs 'Qs Js Ts 2d 3c'": Run(("royal flush", "value:     36874")),
    "evaluator discard pineapple AsKsQd JhTh": Run(
        ("keeps for AsKsQd, best first", "61.41%", "59.50%", "58.55%"),
        check=keeps_best_first),
    "evaluator batch queries.csv --out results.csv --resume": Run(   # an interrupted run
        says=("1 of them kept from before, 1 computed now",),
        setup=interrupted("results.csv"),
        check=rows_of("results.csv", 2, ids=("flop", "pre"))),
    "cat queries.jsonl | evaluator batch - --out results.json": Run(
        says=("2 results written to results.json",),
        check=rows_of("results.json", 2, ids=(1, "QQ+ vs JJ"))),
    f"evaluator batch queries.jsonl --scheduler {PLACEHOLDER}": Run(
        slow="starts a local Dask cluster (test_cluster_examples)"),
    "evaluator matrix holdem": Run(
        ("exact heads-up equity against a random hand", " AA ", " 85% ")),
    "evaluator matrix holdem --out matrix.csv --recompute": Run(
        says=("169 x 169 matrix written to matrix.csv",),
        slow="the exact 169 x 169 study, a minute or two on two cores"),
    "evaluator study flops 'QQ+,AKs' random --out flops.csv": Run(
        ("79.70%, 20.30% pre-flop",), check=rows_of("flops.csv", 1755)),
    "evaluator study distribution 'QQ+,AKs' '22+,A2s+' --board 2c7d9h": Run(
        ("22 combos of QQ+,AKs against 22+,A2s+: mean 68.21%, median 74.48%",)),
    "evaluator study breakdown 'QQ+,AKs,T9s' --board Ah7d2c": Run(
        ("QQ+,AKs,T9s on Ah 7d 2c", "set", "underpair", "backdoor flush")),
    "evaluator study runouts 'QQ+,AKs' '22+' --board 2c7d9h": Run(
        ("QQ+,AKs vs 22+ on 2c7d9h: 61.54%, 38.46%",)),
    "evaluator study flops 'QQ+,AKs' random": Run(("22,100 flops (1,755 suit classes)",)),
    "evaluator study flops AsKs QhQd --out flops.csv": Run(
        ("AsKs vs QhQd on 17,296 flops (9,804 suit classes): 46.21%, 53.79% pre-flop",),
        check=rows_of("flops.csv", 9804)),
    "evaluator study flops 'AA$ds' random --game omaha --trials 20000": Run(
        ("AA$ds vs random on 22,096 flops (1,754 suit classes)",)),
    "evaluator study distribution 'QQ+,AKs' '22+,A2s+' --board 2c7d9h --out dist.csv": Run(
        ("mean 68.21%",), says=("22 combos written to dist.csv",),
        check=rows_of("dist.csv", 22)),
    "evaluator study runouts 'QQ+,AKs' '22+' --board 2c7d9h --plot runouts.png": Run(
        ("61.54%, 38.46%",), check=image("runouts.png")),
    "evaluator study runouts AA KK --game omaha --board Ah7d2c9s --out rivers.csv": Run(
        ("AA vs KK on Ah7d2c9s: 97.95%, 2.05%",), check=rows_of("rivers.csv", 48)),
    "evaluator range 'QQ+,AKs:0.5'": Run(("22 combos",)),
    "evaluator range 15% --game omaha --json": Run(
        check=lambda done, folder: json.loads(done.out)),
    "evaluator range 15% --format pokerstove": Run(("55+,A5s+,K9s+,QJs,A9o+,KJo+",)),
    "evaluator plot grid --against 'QQ+,AKs' --out grid.png": Run(check=image("grid.png")),
    "evaluator plot grid --range 'QQ+,AKs:0.5' --out range.svg": Run(
        check=image("range.svg")),
    "evaluator bench --json bench.json --chart bench.png": Run(
        slow="timing", instead="evaluator bench --quick --repeat 1 --json bench.json "
        "--chart bench.png", why="the full workloads take minutes; the quick ones write "
        "the same files"),
}


def test_every_example_has_an_entry_and_every_entry_an_example():
    shown = commands()
    assert sorted(set(shown) - set(SHELL)) == [], "examples without an entry"
    assert sorted(set(SHELL) - set(shown)) == [], "entries without an example"


def test_every_command_has_examples_and_a_help_that_shows_them(tmp_path, monkeypatch):
    for name, parser in parsers().items():
        examples = epilog_examples(parser.epilog)
        assert examples, f"{name} --help shows no example"
        done = cli(name.split()[1:] + ["--help"], tmp_path, monkeypatch)
        assert done.code == 0, done.err
        for line in examples:
            assert line in done.out, (name, line)


def test_examples_name_no_real_address():
    """A cluster example names a placeholder host, never a machine's address."""
    for code, command in commands().items():
        for address in re.findall(r"tcp://([^\s:'\"]+)", code):
            assert address == "scheduler", (code, command.where)
    for page, blocks in python_blocks().items():
        for block in blocks:
            for address in re.findall(r"tcp://([^\s:'\"]+)", block.text):
                assert address == "scheduler", (page, block.line)


QUICK = [code for code, entry in SHELL.items() if isinstance(entry, Run) and not entry.slow]
SLOW = [code for code, entry in SHELL.items() if isinstance(entry, Run) and entry.slow
        and "--scheduler" not in code and code != "evaluator warmup"]


def check_run(code: str, entry: Run, tmp_path: Path, monkeypatch) -> Done:
    command = entry.instead or code
    folder = folder_for(code, tmp_path)
    if entry.setup:
        entry.setup(folder, monkeypatch)
    done = run_example(command, folder, monkeypatch)
    assert done.code == 0, f"{command}: exit {done.code}\n{done.err}"
    for text in entry.shows:
        assert text in done.out, f"{command}: {text!r} not in\n{done.out}"
    for text in entry.says:
        assert text in done.err, f"{command}: {text!r} not in\n{done.err}"
    if entry.check:
        entry.check(done, folder)
    return done


@pytest.mark.parametrize("code", QUICK)
def test_shell_example(code, tmp_path, monkeypatch):
    check_run(code, SHELL[code], tmp_path, monkeypatch)


def test_quickstart_json_holds_the_exact_share(tmp_path, monkeypatch):
    """The README, of its first command: "``--json`` adds the exact share of the pot,
    197833/428076"."""
    done = cli(["equity", "holdem", "AsKs", "QhQd", "--json"], tmp_path, monkeypatch)
    assert json.loads(done.out)["counts"]["equity_fractions"][0] == "197833/428076"


@pytest.mark.slow
@pytest.mark.parametrize("code", SLOW)
def test_slow_shell_example(code, tmp_path, monkeypatch):
    done = check_run(code, SHELL[code], tmp_path, monkeypatch)
    if "--recompute" in code:           # the exact matrix computed again is the one shipped
        shipped = cli(["matrix", "holdem", "--out", "shipped.csv"], tmp_path / "run",
                      monkeypatch)
        assert shipped.code == 0, shipped.err
        folder = tmp_path / "run"
        assert (folder / "matrix.csv").read_text() == (folder / "shipped.csv").read_text()
    if code.startswith("evaluator bench"):
        assert done.out.strip(), "bench printed nothing"


def option_strings(parser) -> set[str]:
    return {s for action in parser._actions for s in action.option_strings}


@pytest.mark.parametrize("code", [c for c, e in SHELL.items() if isinstance(e, Synopsis)])
def test_usage_line(code, tmp_path, monkeypatch):
    """Every flag of a usage line is an option of its command, with the choices shown;
    its runnable part runs."""
    known = parsers()
    for part in code.split(";"):
        words = part.replace("[", " ").replace("]", " ").split()
        name = "evaluator"
        for word in words[1:]:
            for choice in word.split("|"):
                if f"{name} {choice}" in known:
                    break
            else:
                continue
            name = f"{name} {word.split('|')[0]}"
        parser = known[name]
        options = option_strings(parser)
        for i, word in enumerate(words):
            if word.startswith("--"):
                assert word in options, (name, word)
                action = next(a for a in parser._actions if word in a.option_strings)
                nxt = words[i + 1] if i + 1 < len(words) else ""
                if action.choices and "|" in nxt:
                    assert set(nxt.split("|")) == set(action.choices), (word, nxt)
            elif "|" in word.strip("|") and not words[i - 1].startswith("--"):  # grid|streets
                positional = [set(a.choices) for a in parser._actions
                              if not a.option_strings and isinstance(a.choices, (list, tuple))]
                assert set(word.split("|")) in positional, (name, word)
    entry = SHELL[code]
    if entry.run:
        check_run(entry.run, Run(), tmp_path, monkeypatch)


@pytest.mark.parametrize("code", [c for c, e in SHELL.items() if isinstance(e, Tool)])
def test_developer_command(code):
    SHELL[code].check()


# --- Python blocks ---------------------------------------------------------------------

def close(expected: float, digits: int = 4):
    return lambda got: round(got, digits) == expected


def startswith(text: str):
    return lambda got: repr(got).startswith(text) or str(got).startswith(text)


Check = Callable[[object, dict], object]
NO_FLUSH = "high card"

# Statement (its code, blanks collapsed) -> a check of (its value, the namespace): it must
# return True.  A statement missing here only has to run.
PYTHON: dict[str, dict[str, Check]] = {
    "README.md": {
        'evaluate("holdem", "AsKs", "Qs Js Ts 2d 3c")':
            lambda v, ns: str(v) == "royal flush",
        'evaluate("omaha", "As2c3d4h", "Ks Qs Js 9s 8d")':        # exactly 2 + 3: no flush
            lambda v, ns: v.category == NO_FLUSH,
        'str(evaluate("omaha8", "As2s3dKc", "Ad 2d 7c 8h 6s"))':
            lambda v, ns: v == "two pair, aces and twos; low: 7-6-3-2-A low",
        'evaluate("short_deck", "As6d", "7c 8h 9s")':             # A-6-7-8-9
            lambda v, ns: str(v) == "straight, nine high"
            and sorted(v.best) == sorted(["As", "6d", "7c", "8h", "9s"]),
        'evaluate("pineapple", "AsKs", "Js Ts 3s")':
            lambda v, ns: str(v) == "flush, ace high",
        'evaluate("tahoe", "AsKsQs", "Js Ts 3s 4d 5h")':          # two hole cards: no royal
            lambda v, ns: v.category == "flush",
        'evaluate("the", "9c9d4s", "Kh 9s 4d 4c")':
            lambda v, ns: str(v) == "full house, nines full of fours",
        'evaluate("teen_patti", "As2d3c")':
            lambda v, ns: str(v) == "sequence, A-2-3",
        'hand = evaluator.evaluate("holdem", "9c9d", "4s Kh 9s 4d 4c")':
            lambda v, ns: ns["hand"].value == 28759,
        'evaluator.evaluate_batch("holdem", hands)':
            lambda v, ns: repr(v) == "array([10996,  4179], dtype=int32)"
            and v.tolist() == [10996, 4179],
        'r = evaluator.equity("holdem", ["AsKs", "QhQd"])':
            lambda v, ns: str(ns["r"].players[0].equity).startswith("0.4621")
            and ns["r"].fractions[0] == Fraction(197833, 428076),
        'rows = evaluator.batch_equity([{"hands": "AsKs vs QhQd", "board": "2c7d9h"}, '
        '{"game": "omaha8", "hands": ["Ah2h3sKs", "random"]}])':
            lambda v, ns: len(ns["rows"]) == 2 and ns["rows"][1]["game"] == "omaha8",
        'rows = evaluator.batch_equity("queries.csv", out="results.csv", resume=True, '
        'on_error="record")':
            lambda v, ns: [r["id"] for r in ns["rows"]] == ["flop", "pre"]
            and Path("results.csv").is_file(),
        'study = evaluator.flop_study("holdem", ["QQ+,AKs", "random"])':   # 1,755, exact
            lambda v, ns: len(ns["study"].rows) == 1755,
        "study.fractions()[0], study.by_texture()[:2]":
            lambda v, ns: v[0] == Fraction(1532386649, 1922774700) and len(v[1]) == 2,
        'd = evaluator.equity_distribution("holdem", "QQ+,AKs", "22+,A2s+", "2c7d9h")':
            lambda v, ns: round(ns["d"].mean, 3) == 0.682,
        'b = evaluator.range_breakdown("holdem", "random", "Ah7d2c")':    # set 0.8%, pair 35.7%
            lambda v, ns: share(ns["b"], "set") == "0.8%" and share(ns["b"], "pair") == "35.7%",
        'eq = ev.combo_equity("holdem", "QQ+,AKs,T9s:0.5", "2c7d9hKs")':
            lambda v, ns: ns["eq"].dtype == np.float64 and ns["eq"].shape == (1326,),
        'eq[ev.combo_index("holdem", ["AhAd", "Ks2c"])]':
            lambda v, ns: str(v[0]).startswith("0.6918") and math.isnan(v[1]),
        'm = ev.call_matrix("holdem", "2c7d9hKsAd")':
            lambda v, ns: ns["m"].dtype == np.int8 and ns["m"].shape == (1326, 1326)
            and set(np.unique(ns["m"])) == {-1, 0, 1},
        'reach = ev.Range("QQ+,AKs").vector()':
            lambda v, ns: ns["reach"].dtype == np.float64 and ns["reach"].shape == (1326,),
        'v = ev.showdown_values("holdem", reach, "2c7d9hKsAd")':           # m @ reach
            lambda v, ns: np.allclose(ns["v"], ns["m"] @ ns["reach"]),
        's = ev.runout_study("holdem", ["QQ+,AKs", "22+"], "2c7d9h")':     # every turn card
            lambda v, ns: len(ns["s"].rows) == 49 and len(ns["s"].by_rank()) == 13,
        'ev.Range("QQ+,AKs:0.5").to_text("pio")':
            lambda v, ns: v == "AA,KK,QQ,AKs:0.5",
    },
    "docs/pages/guide.md": {
        "str(hand), hand.category, hand.best":
            lambda v, ns: v[:2] == ("royal flush", "straight flush") and v[2][0] == "As",
        'evaluate("omaha", "As2c3d4h", "Ks Qs Js 9s 8d").category':
            lambda v, ns: v == "high card",
        'str(evaluate("omaha8", "As2s3dKc", "Ad 2d 7c 8h 6s"))':       # the high, the low
            lambda v, ns: v == "two pair, aces and twos; low: 7-6-3-2-A low",
        'evaluate("teen_patti", "As2d3c").name':
            lambda v, ns: v == "sequence, A-2-3",
        'evaluate_batch("holdem", hands)':                  # values >> 12 is the category
            lambda v, ns: v.dtype == np.int32 and (v >> 12).tolist() == [2, 1],
        'r = equity("holdem", "AsKs vs QhQd")':
            lambda v, ns: ns["r"].exact is True,
        "r.players[0].equity, r.fractions":
            lambda v, ns: str(v[0]).startswith("0.4621")
            and v[1] == (Fraction(197833, 428076), Fraction(230243, 428076)),
        'equity("omaha8", ["Ah2h3sKs", "AdKdQcJc"], "4c5d9s")':        # scoops, hi, lo
            lambda v, ns: all(p.hi + p.lo == pytest.approx(p.equity) and p.scoop >= 0
                              for p in v.players),
        'equity_by_street("holdem", ["AsKs", "QhQd"], "2c7d9hTs")':   # pre-flop, flop, turn
            lambda v, ns: [len(r.board.split()) for r in v] == [0, 3, 4],
        'discard_equity("pineapple", "AsKsQh", ["JhTh"])':             # best first
            lambda v, ns: len(v) == 3 and [k[2].players[0].equity for k in v]
            == sorted((k[2].players[0].equity for k in v), reverse=True),
        "len(r), r.total_weight":                             # 22 combos, weight 20.0
            lambda v, ns: v == (22, 20.0),
        'Range("AA$ds", "omaha").share':                      # of every Omaha hand
            lambda v, ns: v == pytest.approx(864 / 270725),
        'r.to_text("pio")':
            lambda v, ns: v == "AA,KK,QQ,AKs:0.5",
        'eq = ev.combo_equity("holdem", "QQ+,AKs,T9s:0.5", "2c7d9hKs")':
            lambda v, ns: ns["eq"].dtype == np.float64 and ns["eq"].shape == (1326,),
        'm = ev.call_matrix("holdem", "2c7d9hKsAd")':
            lambda v, ns: ns["m"].dtype == np.int8 and ns["m"].shape == (1326, 1326),
        'v = ev.showdown_values("holdem", reach, "2c7d9hKsAd")':
            lambda v, ns: np.allclose(ns["v"], ns["m"] @ ns["reach"]),
        'i = ev.combo_index("holdem", "AhAc")':               # hi * (hi - 1) / 2 + lo
            lambda v, ns: list(ns["i"]) == [50 * 49 // 2 + 48],
        'flops = ev.flop_study("holdem", ["QQ+,AKs", "random"])':
            lambda v, ns: len(ns["flops"].rows) == 1755,
        "flops.by_texture()":                                 # monotone, paired, ...
            lambda v, ns: {"monotone", "paired"} <= {row["texture"] for row in v},
        'turns = ev.runout_study("holdem", ["QQ+,AKs", "22+"], "2c7d9h")':
            lambda v, ns: len(ns["turns"].rows) == 49,
        'grid = ev.hand_vs_range("holdem", "QQ+,AKs")':      # 169 classes
            lambda v, ns: len(ns["grid"]) == 169,
        'ev.preflop_matrix("holdem").equity("AKs", "QQ")':
            lambda v, ns: 0.45 < v < 0.47,
        "rows = batch_equity(queries)":                       # one row per query, in order
            lambda v, ns: [r["game"] for r in ns["rows"]] == ["holdem", "omaha8"],
        'batch_equity("queries.csv", out="rows.csv")':        # written as they finish
            lambda v, ns: len(v) == 2 and Path("rows.csv").is_file(),
        'batch_equity("queries.csv", out="rows.csv", resume=True)':   # the rest
            lambda v, ns: len(v) == 2 and v.resumed == 2,
        "table.legal_actions()":                              # fold, call 2 or raise 4
            lambda v, ns: v == [{"kind": "fold"}, {"kind": "call", "amount": 2},
                                {"kind": "raise", "amount": 4}],
        "replay(saved).pot":                                  # the same table
            lambda v, ns: v == ns["table"].pot,
        'simulate("holdem", ["ann", "bob", "cat"], hands=100, seed=1)':   # 100 hands
            lambda v, ns: v["hands"] == 100 and len(v["histories"]) == 100,
    },
}


def share(breakdown, name: str) -> str:
    """A breakdown class's share as the README prints it: the made hand ``name``, else
    the category."""
    for kind in ("made", "category"):
        for row in breakdown.rows:
            if row["class"] == name and row["kind"] == kind:
                return f"{row['share']:.1%}"
    raise AssertionError(name)


SIGNATURE = 'f(game, hands_or_range, board="", dead="", *, options)'
CLUSTER = "scheduler="
WARMUP_PAGE = "docs/pages/api.md"


def run_page(page: str, folder: Path, monkeypatch, *, cluster: str | None = None) -> dict:
    """Run the page's Python blocks in order in one namespace, in ``folder`` (with the
    README's queries.csv), and check every statement that has an entry.  A statement
    naming a scheduler runs only with ``cluster``, the address put in its place."""
    folder.mkdir(exist_ok=True)
    monkeypatch.chdir(folder)
    (folder / "queries.csv").write_text(queries_csv(), encoding="utf-8")
    history_inputs(folder)
    namespace: dict = {}
    checks = PYTHON.get(page, {})
    seen = set()
    for block in python_blocks()[page]:
        if block.text.strip() == SIGNATURE:
            continue                              # test_signature_block
        if cluster:
            block = Block(block.page, block.line, block.lang,
                          block.text.replace(PLACEHOLDER, cluster))

        def check(statement) -> None:
            if statement.code in checks:
                seen.add(statement.code)
                assert checks[statement.code](statement.value, namespace), \
                    f"{page}:{statement.line}: {statement.code}  # {statement.comment}\n" \
                    f"gave {statement.value!r}"

        run_python(block, namespace, skip=lambda code: CLUSTER in code and not cluster,
                   after=check)
    return {"seen": seen, "namespace": namespace}


QUICK_PAGES = [p for p, blocks in python_blocks().items() if blocks and p != WARMUP_PAGE]


@pytest.mark.parametrize("page", QUICK_PAGES)
def test_python_examples(page, tmp_path, monkeypatch):
    seen = run_page(page, tmp_path, monkeypatch)["seen"]
    assert set(PYTHON.get(page, {})) - seen == set(), \
        "checks whose statement is gone from the page"


def test_every_python_page_is_run():
    pages = {p for p, blocks in python_blocks().items() if blocks}
    assert pages == set(QUICK_PAGES) | {WARMUP_PAGE}
    assert set(PYTHON) <= pages


def test_signature_block():
    """The guide's ``f(game, hands_or_range, board="", dead="", *, options)`` is the form
    of the public functions: ``equity``'s first four parameters, the rest keywords."""
    import inspect

    import evaluator

    blocks = [b for b in python_blocks()["docs/pages/guide.md"]
              if b.text.strip() == SIGNATURE]
    assert len(blocks) == 1
    compile(f"def {SIGNATURE.replace('options', 'options=None')}: pass", "guide", "exec")
    parameters = list(inspect.signature(evaluator.equity).parameters.values())
    assert [p.name for p in parameters[:4]] == ["game", "hands", "board", "dead"]
    assert parameters[2].default == "" and parameters[3].default == ""
    assert all(p.kind is p.KEYWORD_ONLY for p in parameters[4:])


# --- the long ones: warmup and the cluster ----------------------------------------------

@pytest.mark.slow
def test_warmup_examples(tmp_path, monkeypatch):
    """``evaluator warmup`` and ``evaluator.warmup()`` (docs/pages/api.md): "compiles (or
    loads) every kernel once; False if already done"."""
    assert "evaluator warmup" in commands()
    done = cli(["warmup"], tmp_path, monkeypatch)
    assert done.code == 0, done.err
    namespace: dict = {}
    (block,) = python_blocks()[WARMUP_PAGE]
    statements = run_python(block, namespace)
    assert statements[-1].code == "evaluator.warmup()"
    assert statements[-1].value is False          # done just above


@pytest.fixture(scope="module")
def local_cluster():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        yield cluster.scheduler_address


@pytest.mark.slow
def test_cluster_examples(local_cluster, tmp_path, monkeypatch):
    """The cluster examples, with the local cluster's address in place of
    ``tcp://scheduler:8786``: the same rows as on this machine."""
    code = f"evaluator batch queries.jsonl --scheduler {PLACEHOLDER}"
    assert code in commands()
    folder = folder_for(code, tmp_path)
    done = run_example(code.replace(PLACEHOLDER, local_cluster) + " --no-progress", folder,
                       monkeypatch)
    assert done.code == 0, done.err
    here = cli(["batch", "queries.jsonl", "--no-progress"], folder, monkeypatch)
    assert done.out == here.out and len(done.out.splitlines()) == 2

    namespace = run_page("README.md", tmp_path / "page", monkeypatch,
                         cluster=local_cluster)["namespace"]
    from evaluator import batch_equity
    assert namespace["rows"] == batch_equity("queries.csv")
