#!/usr/bin/env python3
"""Pack the domino package into domino.zip for the browser.

PyScript fetches every [files] entry of pyscript.toml separately after the
interpreter is up; one zip (``"./domino.zip" = "./*"``, unpacked into the
working directory as ``domino/...``) is one request instead of one per
module.  The zip is deterministic (sorted entries, fixed timestamps), so the
service worker's content hash only changes when a module does.

Beside every module the zip holds its bytecode, ``domino/**/__pycache__/
<name>.<tag>.pyc``, compiled by the browser's own interpreter (the vendored
Pyodide under Node: scripts/compile_pyc.mjs) as unchecked-hash .pyc files:
the page then imports the package without compiling ~0.5 MB of source on every
boot.  Compiled files are kept in ``.cache/pyc/`` keyed by the runtime version,
the path and the source, so only a changed module is compiled again.
``DOMINO_PYC=0`` in the environment leaves the bytecode out (to measure what
it saves: scripts/bench_boot.py).

    python scripts/build_zip.py [--root DIR]     # (re)build when stale
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ZIP_NAME = "domino.zip"
EPOCH = (1980, 1, 1, 0, 0, 0)
RUNTIME = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / ".cache" / "pyc"
COMPILER = ROOT / "scripts" / "compile_pyc.mjs"


class BuildError(RuntimeError):
    """The bytecode could not be compiled (no Node, no runtime, a syntax error)."""


def modules(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "domino").rglob("*.py") if "__pycache__" not in p.parts)


def runtime_version() -> str:
    return json.loads((RUNTIME / "package.json").read_text())["version"]


def cache_tag() -> str:
    """The interpreter's cache tag (cpython-3XY), as the compiler last reported it."""
    f = CACHE / f"tag-{runtime_version()}"
    if not f.is_file():
        bytecode({})            # compiles nothing; asks the runtime for its tag
    return f.read_text().strip()


def _key(rel: str, source: bytes) -> str:
    return hashlib.sha256(f"{runtime_version()}\0{rel}\0".encode() + source).hexdigest()


def bytecode(sources: dict[str, bytes]) -> dict[str, bytes]:
    """The .pyc of each module (relative posix path -> source), from the cache
    or compiled now by the browser's interpreter in one Node run."""
    CACHE.mkdir(parents=True, exist_ok=True)
    out: dict[str, bytes] = {}
    todo = {}
    for rel, src in sources.items():
        f = CACHE / (_key(rel, src) + ".pyc")
        if f.is_file():
            out[rel] = f.read_bytes()
        else:
            todo[rel] = src
    tag_file = CACHE / f"tag-{runtime_version()}"
    if not todo and tag_file.is_file():
        return out
    node = shutil.which("node")
    if node is None:
        raise BuildError("node not found: scripts/setup needs Node.js 20+ to compile the package's bytecode")
    with tempfile.TemporaryDirectory() as tmp:
        src_dir, out_dir = Path(tmp, "src"), Path(tmp, "out")
        for rel, src in todo.items():
            (src_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            (src_dir / rel).write_bytes(src)
        src_dir.mkdir(exist_ok=True)
        run = subprocess.run([node, str(COMPILER), str(RUNTIME / "pyodide.mjs"), str(src_dir), str(out_dir),
                              *todo], capture_output=True, text=True)
        if run.returncode != 0:
            raise BuildError("compiling the bytecode failed:\n" + run.stderr[-2000:])
        tag_file.write_text(run.stdout.strip().splitlines()[-1] + "\n")
        for rel, src in todo.items():
            data = (out_dir / (rel + "c")).read_bytes()
            tmp_f = CACHE / (_key(rel, src) + ".tmp")
            tmp_f.write_bytes(data)
            tmp_f.replace(CACHE / (_key(rel, src) + ".pyc"))
            out[rel] = data
    return out


def pyc_path(rel: str, tag: str) -> str:
    """Where the import system looks for a module's bytecode: a/b.py -> a/__pycache__/b.<tag>.pyc."""
    d, _, name = rel.rpartition("/")
    return f"{d}/__pycache__/{name[:-3]}.{tag}.pyc"


def pack(root: Path = ROOT) -> bytes:
    root = Path(root)
    sources = {p.relative_to(root).as_posix(): p.read_bytes() for p in modules(root)}
    entries = dict(sources)
    if os.environ.get("DOMINO_PYC", "1") != "0":
        tag = cache_tag()
        entries.update({pyc_path(rel, tag): data for rel, data in bytecode(sources).items()})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, entries[name])
    return buf.getvalue()


def ensure(root: Path = ROOT) -> bool:
    """Write domino.zip if it is missing or differs from the sources.
    Returns True when it was (re)written."""
    root = Path(root)
    return write_if_changed(root / ZIP_NAME, pack(root))


def write_if_changed(target: Path, data: bytes) -> bool:
    """``data`` into ``target`` unless it already holds exactly that (True when written); whole or not at
    all: written beside it, then moved over it (a server reading it meanwhile gets the old one)."""
    if target.is_file() and target.read_bytes() == data:
        return False
    tmp = target.with_suffix(target.suffix + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(target)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(ROOT))
    args = ap.parse_args(argv)
    wrote = ensure(Path(args.root))
    print(f"{ZIP_NAME}: {'written' if wrote else 'up to date'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
