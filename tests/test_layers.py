"""The package's layers, as its folders show them: the engine imports neither
the players nor the app; the players import only the engine; the app never
imports the browser (js, pyodide, pyscript); only domino/browser.py does."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "domino"
BROWSER = {"js", "pyodide", "pyscript"}


def imports(path: Path) -> set[str]:
    """Every module a file imports (absolute names), anywhere in the file."""
    tree = ast.parse(path.read_text(), str(path))
    rel_pkg = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = rel_pkg.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def modules(layer: str) -> list[Path]:
    return sorted((PKG / layer).rglob("*.py"))


@pytest.mark.parametrize("layer, forbidden", [
    ("engine", ("domino.players", "domino.app", "domino.browser", "domino.cli")),
    ("players", ("domino.app", "domino.browser", "domino.cli")),
    ("app", ("domino.browser", "domino.cli")),
])
def test_layers_import_only_downwards(layer, forbidden):
    assert modules(layer), layer
    for path in modules(layer):
        bad = {m for m in imports(path) if m.split(".")[0] in BROWSER
               or any(m == f or m.startswith(f + ".") for f in forbidden)}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_only_the_browser_module_touches_the_browser():
    touching = {p.relative_to(ROOT).as_posix() for p in PKG.rglob("*.py")
                if any(m.split(".")[0] in BROWSER for m in imports(p))}
    assert touching == {"domino/browser.py"}


def test_no_import_cycle_between_engine_modules():
    graph = {p.stem: {m.split(".")[2] for m in imports(p)
                      if m.startswith("domino.engine.") and len(m.split(".")) > 2}
             for p in modules("engine") if p.stem != "__init__"}
    graph = {k: {d for d in v if d in graph and d != k} for k, v in graph.items()}

    def reaches(a: str, b: str, seen: set) -> bool:
        return any(d == b or (d not in seen and reaches(d, b, seen | {d})) for d in graph[a])
    cycles = [k for k in graph if reaches(k, k, set())]
    assert not cycles, cycles
