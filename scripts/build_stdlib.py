#!/usr/bin/env python3
"""Build the standard library the page boots with: the runtime's own, as bytecode.

Pyodide's ``python_stdlib.zip`` holds the standard library's sources only, so
every boot compiles each module it imports (the interpreter's own start-up,
PyScript's and ours) from source.  This writes
``static/vendor/pyodide/python_stdlib_pyc.zip``: the same archive where each
module a boot imports (scripts/stdlib_boot.txt) is replaced by its
unchecked-hash ``.pyc`` (PEP 552), compiled by the vendored runtime itself
under Node (scripts/compile_pyc.mjs, as for domino.zip), at the place the zip
importer looks for it (``json/__init__.pyc`` where ``json/__init__.py`` was).
Every other module stays as its source, so nothing is lost: a module no boot
imports (an error path, a rarely used corner) is compiled when first imported,
as before, and the archive grows by 0.7 MB (3.2 MB) instead of 2 MB for all of it.
Every other file is kept as it is.

static/pyodide.mjs hands it to the runtime (loadPyodide's ``stdLibURL``) and
falls back to the runtime's own zip when it is missing, broken or not of this
runtime (html[data-stdlib] says which one the page runs on).

Deterministic (sorted entries, fixed timestamps): the service worker's hash
only changes when the runtime does.  The bytecode is cached in ``.cache/pyc/``
(scripts/build_zip.py), so a rebuild compiles nothing.

    python scripts/build_stdlib.py     # (re)build when stale
"""
from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_zip  # noqa: E402

ROOT = build_zip.ROOT
SOURCE = build_zip.RUNTIME / "python_stdlib.zip"
TARGET = Path("static/vendor/pyodide/python_stdlib_pyc.zip")
BOOT_MODULES = ROOT / "scripts" / "stdlib_boot.txt"


def boot_modules() -> list[str]:
    """The paths (in python_stdlib.zip) of the modules a boot imports."""
    lines = BOOT_MODULES.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def pack(source: Path = SOURCE) -> bytes:
    with zipfile.ZipFile(source) as zf:
        files = {i.filename: zf.read(i) for i in zf.infolist() if not i.is_dir()}
    wanted = boot_modules()
    absent = [name for name in wanted if name not in files]
    if absent:
        raise build_zip.BuildError(f"{BOOT_MODULES.name} names modules the runtime does not have: {absent}")
    sources = {name: files[name] for name in wanted}
    compiled = build_zip.bytecode(sources)
    entries = {name: data for name, data in files.items() if name not in sources}
    entries.update({name + "c": compiled[name] for name in sources})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, build_zip.EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, entries[name])
    return buf.getvalue()


def ensure(root: Path = ROOT) -> bool:
    """Write the bytecode standard library if it is missing or stale; True when written."""
    return build_zip.write_if_changed(Path(root) / TARGET, pack())


def main() -> int:
    wrote = ensure()
    print(f"{TARGET}: {'written' if wrote else 'up to date'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
