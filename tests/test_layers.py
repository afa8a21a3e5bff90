"""The package's import structure: layers that import one way, no cycles, and no private
name used outside the module that defines it.

``LAYERS`` below is the one list of the package's modules by layer, lowest first; a
module imports only from its own layer or those below.

Imports inside functions count too: they keep ``import evaluator`` cheap (Numba loads on
first use), never to dodge a cycle.
"""
import ast
import re
from pathlib import Path

import evaluator

PACKAGE = Path(evaluator.__file__).parent
LAYERS = {
    "base": ["errors", "cards", "games", "names", "_layout", "_cache_dirs", "_jit", "_tables",
             "_parallel", "_suits", "progress", "export", "_compile_note", "_sigint",
             "_calling"],
    "kernels": ["kernels"],
    "families": ["families"],
    "hands": ["evaluate", "_exact_numpy", "classes", "patterns", "rankings", "listing",
              "range_weights", "ranges", "range_text", "combo_order"],
    "engine": ["engine", "vector_weights", "subset_vectors", "sweep_runs", "vector_streets",
               "vectors", "flop_vectors", "runout_vectors"],
    "batch": ["batch"],
    "studies": ["studies"],
    "apps": ["warmup", "plots", "play", "histories", "bench", "_terminal", "cli", "__main__",
             "__init__"],
}
RANK = {name: rank for rank, names in enumerate(LAYERS.values()) for name in names}


def _modules():
    """{dotted name: path} of every module of the package."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] == "tables":       # the installed tables folder: data and its scripts
            continue
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path):
    """(imported module, imported names) for every import of the package inside ``path``."""
    tree = ast.parse(path.read_text())
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    if name == "__init__":
        package = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1] if node.level > 1 else package
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            elif node.module and node.module.startswith("evaluator"):
                target = node.module.removeprefix("evaluator").lstrip(".")
            else:
                continue
            yield target, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("evaluator."):
                    yield alias.name.removeprefix("evaluator."), []


def _graph():
    modules = _modules()
    edges = {}
    for name, path in modules.items():
        targets = set()
        for target, names in _imports(name, path):
            for imported in names:                  # "from . import _tables" names a module
                full = f"{target}.{imported}".lstrip(".")
                if full in modules:
                    targets.add(full)
                    break
            else:
                if target in modules or target == "":
                    targets.add(target or "__init__")
        edges[name] = targets - {name}
    return modules, edges


def _top(name: str) -> str:
    return name.split(".")[0] if name else "__init__"


def test_every_module_has_a_layer():
    modules, _ = _graph()
    assert {_top(m) for m in modules} <= set(RANK), {_top(m) for m in modules} - set(RANK)


def test_imports_go_down_the_layers():
    _, edges = _graph()
    wrong = [(a, b) for a, targets in edges.items() for b in targets
             if RANK[_top(b)] > RANK[_top(a)]]
    assert not wrong, wrong


def test_no_import_cycles():
    _, edges = _graph()
    state: dict[str, int] = {}

    def visit(node, path):
        state[node] = 1
        for nxt in edges.get(node, ()):
            if nxt == "__init__" and node != "__main__":
                continue                             # the package itself: loaded first
            if state.get(nxt) == 1:
                raise AssertionError(f"cycle: {' -> '.join([*path, node, nxt])}")
            if not state.get(nxt):
                visit(nxt, [*path, node])
        state[node] = 2
    for node in edges:
        if not state.get(node):
            visit(node, [])


def test_no_private_name_crosses_a_module():
    modules, _ = _graph()
    crossing = []
    for name, path in modules.items():
        for target, names in _imports(name, path):
            crossing += [(name, target, n) for n in names
                         if n.startswith("_") and not n.endswith("__")
                         and f"{target}.{n}".lstrip(".") not in modules]
    assert not crossing, crossing


def test_subprocesses_import_the_same_package_as_the_tests():
    import subprocess
    import sys
    where = subprocess.run([sys.executable, "-c", "import evaluator; print(evaluator.__file__)"],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).parent == PACKAGE


def test_public_names_survive_importing_every_submodule():
    """A submodule named like a public function (``evaluator.combos`` was one) replaces
    the function on the package as soon as anything imports it."""
    import importlib
    import types
    for name in _modules():
        if name not in ("__init__", "__main__"):
            importlib.import_module(f"evaluator.{name}")
    shadowed = [n for n in evaluator.__all__
                if isinstance(getattr(evaluator, n), types.ModuleType)]
    assert not shadowed, shadowed


# a rule or a game's name compared, outside games.py and families/
_RULE_TESTS = re.compile(r"\.rule\b|\bRule\b|\.name\s*(==|!=)\s*[\"']|"
                         r"\.name\s+(not\s+)?in\s*[(\[{]\s*[\"']")


def test_no_rule_or_game_name_is_compared_outside_the_families():
    """What a game's way of making hands decides lives in ``families/``: the engine, the
    studies and the command line ask ``family(g)``."""
    found = []
    for name, path in _modules().items():
        if name == "games" or name.split(".")[0] == "families":
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            code = line.split("#")[0]
            if _RULE_TESTS.search(code):
                found.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


LONGEST = 620          # lines: "about 600", a module a reader can hold


def test_no_module_is_much_over_600_lines():
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text().splitlines())) > LONGEST}
    assert not long, long
