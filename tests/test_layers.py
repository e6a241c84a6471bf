"""The package's layers, lowest first; each imports only from the layers below it:

1. ``domino.engine``: the rules and the match; imports nothing else of the package.
2. ``domino.players``: the computer players; the engine only.
3. ``domino.table`` (the seat kinds, names, the new-game settings made valid, the
   rules and the match they start): the engine and the players only.
4. ``domino.net`` (the ``domino-net/1`` protocol, the host's and the guest's
   tables): the engine, the players and the table; never the app.
5. ``domino.app``: anything above but the browser module and the command line.
6. ``domino.browser`` (the only module that touches the browser: js, pyodide,
   pyscript) and ``domino.cli``: on top.

And no import cycle anywhere in the package: over every module of ``domino``,
an import anywhere in a file (at the top or inside a function) is an edge to
the module it names (``from domino.players import boards`` names
``domino.players.boards``; ``from domino.players import LEVELS`` names
``domino.players``), and these edges never come back to where they started.
The parent packages Python initialises before a submodule are not edges (a
package's ``__init__`` may gather its own submodules)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "domino"
BROWSER = {"js", "pyodide", "pyscript"}

#: What each layer may import of the package (besides itself).
ALLOWED = {
    "engine": (),
    "players": ("domino.engine",),
    "table": ("domino.engine", "domino.players"),
    "net": ("domino.engine", "domino.players", "domino.table"),
    "app": ("domino.engine", "domino.players", "domino.table", "domino.net"),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PKG.rglob("*.py")}


def imports(path: Path) -> set[str]:
    """Every module a file imports (absolute names), anywhere in the file:
    for ``from a.b import c``, ``a.b.c`` when that is a module of the
    package, else ``a.b``."""
    tree = ast.parse(path.read_text(), str(path))
    me = module_name(path)
    pkg = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for a in node.names:
                out.add(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base)
    return out


def layer_files(layer: str) -> list[Path]:
    return [p for m, p in sorted(MODULES.items()) if m == f"domino.{layer}" or m.startswith(f"domino.{layer}.")]


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layers_import_only_downwards(layer):
    files = layer_files(layer)
    assert files, layer
    allowed = ALLOWED[layer] + (f"domino.{layer}",)
    for path in files:
        bad = {m for m in imports(path) if m.split(".")[0] in BROWSER
               or (within(m, "domino") and not any(within(m, a) for a in allowed))}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_every_module_is_in_a_layer():
    """A new top-level module gets its place in ALLOWED (or is the browser's or the command line's)."""
    tops = {m.split(".")[1] for m in MODULES if m != "domino"}
    assert tops - set(ALLOWED) == {"browser", "cli", "__main__"}


def test_only_the_browser_module_touches_the_browser():
    touching = {p.relative_to(ROOT).as_posix() for p in MODULES.values()
                if any(m.split(".")[0] in BROWSER for m in imports(p))}
    assert touching == {"domino/browser.py"}


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (see the module docstring)."""
    return {m: {d for d in imports(p) if d in MODULES and d != m} for m, p in MODULES.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules, the first repeated at the end), or None."""
    state: dict[str, str] = {}
    for start in sorted(graph):
        if start in state:
            continue
        path, todo = [start], [iter(sorted(graph[start]))]
        state[start] = "open"
        while todo:
            nxt = next(todo[-1], None)
            if nxt is None:
                state[path.pop()] = "done"
                todo.pop()
            elif state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            elif nxt not in state:
                state[nxt] = "open"
                path.append(nxt)
                todo.append(iter(sorted(graph[nxt])))
    return None


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle_in_the_package():
    graph = import_graph()
    assert "domino.players.boards" in graph["domino.players.levels"]      # the graph sees submodule imports
    assert "domino.players.levels" in graph["domino.players"]             # ... and those inside functions
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle)


def test_no_two_test_modules_share_a_name():
    """Test files are imported by their bare name (no packages under tests/):
    two of one name make pytest refuse the second when both are collected
    in one run, so the suite stops being the whole suite."""
    seen: dict[str, str] = {}
    clash = []
    for p in sorted((ROOT / "tests").rglob("*.py")):
        if p.name == "conftest.py":
            continue
        rel = p.relative_to(ROOT).as_posix()
        if p.name in seen:
            clash.append((seen[p.name], rel))
        seen.setdefault(p.name, rel)
    assert not clash, clash


def test_one_conftest_for_the_whole_suite():
    """Every conftest.py is imported under the one name `conftest`: with two,
    a test module's `from conftest import ...` got whichever was imported last
    (the WebKit tests found the engine's and failed to import in a full run,
    never alone).  One conftest, and shared helpers in modules of their own."""
    found = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("conftest.py"))
    assert found == ["tests/conftest.py"], found


def test_no_test_runs_its_own_event_loop_on_the_workers_thread():
    """A worker that ran a browser test holds Playwright's sync API, whose loop stays the thread's running
    loop: `asyncio.run` (or a loop's `run_until_complete`) then refuses, so a CPython test calling it passed
    or failed by which tests its worker had run before (seen: tests/test_page_decisions.py after
    tests/browser/test_app.py on one worker).  Tests run coroutines with tests/aio.py's `run`, on a thread
    of their own."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == "aio.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("run", "run_until_complete", "run_forever") \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("asyncio", "loop"):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    assert not found, found
