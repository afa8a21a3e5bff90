"""A missing or damaged table file is a ``TableError`` naming the file and how to rebuild it,
and ``verify()`` (and ``evaluator tables verify``) a list of such lines, never a traceback.
Each case damages a copy of the tables that ``EVALUATOR_TABLES`` points at."""
import hashlib
import json
import re

import pytest

from evaluator import _tables, cli
from evaluator.errors import ArgumentTypeError, TableError

REAL = _tables.tables_dir()


@pytest.fixture
def tables(tmp_path, monkeypatch):
    """A copy of the tables, used by the loader for the length of the test."""
    for path in REAL.iterdir():
        if path.suffix in (".npy", ".json"):
            (tmp_path / path.name).write_bytes(path.read_bytes())
    monkeypatch.setenv("EVALUATOR_TABLES", str(tmp_path))
    _tables.reset()
    yield tmp_path
    monkeypatch.delenv("EVALUATOR_TABLES")
    _tables.reset()


def edit_json(path, change):
    info = json.loads(path.read_text())
    change(info)
    path.write_text(json.dumps(info))


def rehash(folder, name):
    """Make MANIFEST.json agree with the file's bytes again (so only its content is wrong)."""
    data = (folder / f"{name}.npy").read_bytes()
    edit_json(folder / "MANIFEST.json", lambda m: m["tables"][name].__setitem__(
        "sha256", hashlib.sha256(data).hexdigest()))


def truncate(folder):
    path = folder / "flush_values.npy"
    path.write_bytes(path.read_bytes()[:100])
    rehash(folder, "flush_values")


def garbage(folder):
    (folder / "flush_values.npy").write_bytes(b"\x93NUMPY garbage" * 10)
    rehash(folder, "flush_values")


DAMAGE = {
    "missing table": (lambda d: (d / "flush_values.npy").unlink(),
                      "flush_values.npy is missing"),
    "changed bytes": (lambda d: (d / "flush_values.npy").write_bytes(
        (d / "flush_values.npy").read_bytes()[:-1] + b"\x00"),
        "flush_values.npy is corrupt (its sha256 differs from MANIFEST.json)"),
    "truncated npy": (truncate, "flush_values.npy is not a readable .npy file"),
    "garbage npy": (garbage, "flush_values.npy is not a readable .npy file"),
    "wrong shape": (lambda d: edit_json(d / "MANIFEST.json", lambda m: m["tables"][
        "flush_values"].__setitem__("shape", [8191])),
        "flush_values.npy holds uint16 [8192], MANIFEST.json says uint16 [8191]"),
    "wrong dtype": (lambda d: edit_json(d / "MANIFEST.json", lambda m: m["tables"][
        "flush_values"].__setitem__("dtype", "int64")),
        "flush_values.npy holds uint16 [8192], MANIFEST.json says int64"),
    "bad json": (lambda d: (d / "MANIFEST.json").write_text('{"tables": {'),
                 "MANIFEST.json is damaged (not JSON"),
    "not text": (lambda d: (d / "MANIFEST.json").write_bytes(b"\xff\xfe\x00garbage"),
                 "MANIFEST.json is damaged (not JSON"),
    "no tables": (lambda d: (d / "MANIFEST.json").write_text("[]"),
                  "MANIFEST.json is damaged (no 'tables' object)"),
    "missing key": (lambda d: edit_json(d / "MANIFEST.json", lambda m: m["tables"][
        "flush_values"].pop("sha256")), "table 'flush_values' has no str 'sha256'"),
    "bad shape": (lambda d: edit_json(d / "MANIFEST.json", lambda m: m["tables"][
        "flush_values"].__setitem__("shape", ["8192"])), "a shape that is not a list"),
    "no manifest": (lambda d: (d / "MANIFEST.json").unlink(),
                    "lookup tables not found (no .*MANIFEST.json)"),
    "bad studies": (lambda d: (d / "STUDIES.json").write_text("{"),
                    "STUDIES.json is damaged .*tables/preflop.py"),
    "studies hash": (lambda d: edit_json(d / "STUDIES.json", lambda m: m["tables"][
        "preflop_holdem"].__setitem__("sha256", "0" * 64)),
        "preflop_holdem.npy is corrupt .*STUDIES.json.*tables/preflop.py"),
}


@pytest.mark.parametrize("case", DAMAGE)
def test_damage_names_the_file_and_the_fix(tables, case, capsys):
    damage, message = DAMAGE[case]
    message = ".*".join(re.escape(part) for part in message.split(".*"))   # text, and gaps
    damage(tables)
    table = "preflop_holdem" if "studies" in case else "flush_values"
    with pytest.raises(TableError, match=message) as error:
        _tables.load(table)
    assert "reinstall the package" in str(error.value)
    if "studies" not in case:
        assert "evaluator tables build" in str(error.value)
    problems = _tables.verify()
    assert len(problems) == 1 and re.search(message, problems[0])
    assert cli.main(["tables", "verify"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and str(tables) in err


def test_an_intact_copy_verifies_and_loads(tables):
    assert _tables.verify() == []
    assert _tables.tables_dir() == tables and not _tables.load("flush_values").flags.writeable


def test_the_environment_variable_is_the_only_place_looked(tmp_path, monkeypatch):
    """A folder named by EVALUATOR_TABLES without tables is an error, not a silent fallback
    to the package's tables."""
    monkeypatch.setenv("EVALUATOR_TABLES", str(tmp_path))
    _tables.reset()
    try:
        with pytest.raises(TableError, match=str(tmp_path / "MANIFEST.json")):
            _tables.load("flush_values")
        assert _tables.verify()[0].startswith("lookup tables not found")
    finally:
        monkeypatch.delenv("EVALUATOR_TABLES")
        _tables.reset()


def test_unknown_and_mistyped_table_names(tables):
    with pytest.raises(TableError, match="unknown table 'nope'"):
        _tables.load("nope")
    with pytest.raises(ArgumentTypeError, match="name"):
        _tables.load(["flush_values"])


def test_the_generator_is_found_without_a_manifest(tables):
    """'evaluator tables build' needs generate.py even where MANIFEST.json is gone."""
    (tables / "MANIFEST.json").unlink()
    (tables / "generate.py").write_text("")
    assert _tables.generator() == tables / "generate.py"
