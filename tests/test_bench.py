"""The benchmark harness: answers are cross-checked before speed counts."""
import ast
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evaluator import bench
from evaluator.bench import Adapter, Workload, run_suite, validate_report


def tiny_suite():
    rng = np.random.default_rng(3)
    cards = np.array([rng.choice(52, 7, replace=False) for _ in range(300)], np.uint8)
    return [Workload("eval7", "eval", "holdem", "tiny 7-card", len(cards), "hands", 2, cards),
            Workload("hu_exact", "equity", "holdem", "flop spot", 990, "boards",
                     spot={"hands": ["AsKs", "QhQd"], "board": "2c7d9h", "exact": True})]


class Honest(Adapter):
    """Our own evaluator through its one-hand API, values turned lower-is-better."""
    name, bigger_is_better = "honest", False
    workloads = {"eval7", "hu_exact"}

    def run(self, workload, prepared):
        from evaluator import equity, evaluate
        if workload.kind == "equity":
            spot = workload.spot
            return [p.equity for p in equity("holdem", spot["hands"], spot["board"]).players]
        return [-evaluate("holdem", row[:2], row[2:]).value for row in workload.cards.tolist()]


class HighCardOnly(Adapter):
    """Deliberately wrong: ranks a hand by its highest card."""
    name = "high-card-only"
    workloads = {"eval7", "hu_exact"}

    def run(self, workload, prepared):
        if workload.kind == "equity":
            return [0.5, 0.5]
        return [max(row) >> 2 for row in workload.cards.tolist()]


def test_wrong_adapter_is_caught_and_named():
    report = run_suite(tiny_suite(), [bench.Ours(), Honest(), HighCardOnly()], repeat=2)
    validate_report(report)
    by = {(w["name"], r["adapter"]): r for w in report["workloads"] for r in w["results"]}
    assert by[("eval7", "honest")]["status"] == "ok"
    assert by[("hu_exact", "honest")]["status"] == "ok"
    wrong = by[("eval7", "high-card-only")]
    assert wrong["status"] == "mismatch" and wrong["rate"] is None
    assert wrong["note"].startswith("hand #") and "[" in wrong["note"]
    assert by[("hu_exact", "high-card-only")]["status"] == "mismatch"
    assert "player 1 (AsKs)" in by[("hu_exact", "high-card-only")]["note"]
    ours = by[("eval7", "evaluator")]
    assert ours["ratio_to_ours"] == 1 and ours["rate"] > 0
    assert "honest" in bench.markdown(report) and "WRONG ANSWER" in bench.markdown(report)


def test_schema_rejects_a_broken_report():
    report = run_suite(tiny_suite()[:1], [bench.Ours()], repeat=1)
    validate_report(json.loads(json.dumps(report)))
    report["workloads"][0]["results"][0]["rate"] = "fast"
    with pytest.raises(ValueError, match="rate"):
        validate_report(report)
    del report["machine"]
    with pytest.raises(ValueError, match="machine"):
        validate_report(report)


def test_missing_peers_are_one_line_not_rows():
    class Missing(Adapter):
        name, module = "missing", "no_such_module_anywhere"
        workloads = {"eval7"}
    report = run_suite(tiny_suite()[:1], [bench.Ours(), Missing()], repeat=1)
    text = bench.markdown(report)
    assert "| missing" not in text and "not installed (skipped): missing" in text
    assert len([line for line in text.splitlines() if line.startswith("| eval7")]) == 1


def test_missing_peers_are_skipped_with_a_note():
    class Missing(Adapter):
        name, module = "missing", "no_such_module_anywhere"
        workloads = {"eval7"}
    report = run_suite(tiny_suite()[:1], [bench.Ours(), Missing()], repeat=1)
    skipped = report["workloads"][0]["results"][1]
    assert skipped["status"] == "skipped" and "not installed" in skipped["note"]


@pytest.mark.slow
def test_cli_bench_json_and_plugin(tmp_path):
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [sys.executable, "-m", "evaluator", "bench", "--quick", "--only", "eval5,teen_patti",
         "--adapters", "evaluator", "--plugin", "test_bench:Honest", "--repeat", "2", "--json",
         str(out)], capture_output=True, text=True, timeout=300,
        cwd=str(tmp_path), env={**__import__("os").environ,
                                "PYTHONPATH": str(__import__("pathlib").Path(__file__).parent)})
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    validate_report(report)
    assert [w["name"] for w in report["workloads"]] == ["eval5", "teen_patti"]
    assert "evaluator" in done.stdout
    assert "not installed" not in done.stdout            # only what ran is shown
    wrong = subprocess.run(
        [sys.executable, "-m", "evaluator", "bench", "--quick", "--only", "eval7",
         "--plugin", "test_bench:HighCardOnly", "--repeat", "1"], capture_output=True,
        text=True, timeout=300, cwd=str(tmp_path),
        env={**__import__("os").environ,
             "PYTHONPATH": str(__import__("pathlib").Path(__file__).parent)})
    assert wrong.returncode == 1 and "WRONG ANSWER" in wrong.stdout
    assert "wrong answer(s): high-card-only on eval7" in wrong.stderr
    bad = subprocess.run([sys.executable, "-m", "evaluator", "bench", "--only", "eval9"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "unknown workload 'eval9'" in bad.stderr


KNOWN_ADAPTERS = ("known: evaluator, pokerfast, pkrbot, phevaluator, eval7, treys, "
                  "poker-equity, pokerkit)")


@pytest.mark.parametrize("args, message", [
    (["--adapters", "nosuch"], "unknown adapter 'nosuch' (" + KNOWN_ADAPTERS),
    (["--adapters", "evaluator,nosuch"], "unknown adapter 'nosuch'"),
    (["--adapters", ""], "--adapters names no adapter (" + KNOWN_ADAPTERS),
    (["--adapters", " , "], "--adapters names no adapter"),
    (["--adapters", "evaluator,,treys"], "--adapters 'evaluator,,treys' has an empty adapter"),
    (["--only", ""], "--only names no workload (known: eval5, eval6, eval7, "),
    (["--only", "eval5,"], "--only 'eval5,' has an empty workload name"),
    (["--only", "eval9"], "unknown workload 'eval9' (known: eval5, "),
    (["--only", "eval5", "--adapters", "nosuch"], "unknown adapter 'nosuch'"),
])
def test_cli_bench_refuses_empty_or_unknown_names(args, message, capsys):
    """``--adapters nosuch`` ran ours alone with rc 0 and ``--only ""`` the full suite: each
    is now one error line and exit 2, before any work."""
    from evaluator.cli import main
    assert main(["bench", "--quick", "--repeat", "1", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("evaluator: error: " + message) and captured.out == ""


def test_cli_bench_unknown_adapter_exits_2():
    done = subprocess.run([sys.executable, "-m", "evaluator", "bench", "--quick", "--adapters",
                           "nosuch"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"evaluator: error: unknown adapter 'nosuch' ({KNOWN_ADAPTERS}\n"


def test_the_package_imports_in_one_direction():
    """Each file of evaluator/bench imports only files before it in this order, and no
    private name from anywhere (the layout its docstring describes)."""
    order = ["suite", "adapters", "harness", "report", "cli", "__init__"]
    folder = Path(bench.__file__).parent
    assert sorted(p.stem for p in folder.glob("*.py")) == sorted(order)
    for k, name in enumerate(order):
        for node in ast.walk(ast.parse((folder / f"{name}.py").read_text())):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            private = [a.name for a in node.names
                       if a.name.startswith("_") and not a.name.startswith("__")]
            assert not private, f"{name}.py imports {private} from {node.module}"
            if node.level == 1:
                assert node.module in order[:k], f"{name}.py imports .{node.module}"


def test_ratios_read_as_words_and_the_cross_check_is_stated():
    from evaluator.bench.report import _ratio_text, cross_check_line
    assert _ratio_text(2.26e-05, "eval7") == "44,248x slower"
    assert _ratio_text(0.5, "pokerkit") == "2x slower"
    assert _ratio_text(1.3, "ompeval") == "1.3x faster"
    assert _ratio_text(1.0, "evaluator") == "(ours)"
    ok = {"workloads": [{"name": "7-card", "results": [
        {"adapter": "evaluator", "status": "ok"}, {"adapter": "eval7", "status": "ok"}]}]}
    assert cross_check_line(ok).startswith("cross-check passed: eval7")
    ok["workloads"][0]["results"][1]["status"] = "mismatch"
    assert "FAILED" in cross_check_line(ok) and "eval7 on 7-card" in cross_check_line(ok)
    alone = {"workloads": [{"name": "7-card", "results": [
        {"adapter": "evaluator", "status": "ok"}]}]}
    assert "no peer installed" in cross_check_line(alone)
