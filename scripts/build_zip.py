#!/usr/bin/env python3
"""Pack the domino package into domino.zip for the browser.

PyScript fetches every [files] entry of pyscript.toml separately after the
interpreter is up; one zip (``"./domino.zip" = "./*"``, unpacked into the
working directory as ``domino/...``) is one request instead of one per
module.  The zip is deterministic (sorted entries, fixed timestamps), so the
service worker's content hash only changes when a module does.

    python scripts/build_zip.py [--root DIR]     # (re)build when stale
"""
from __future__ import annotations

import argparse
import io
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ZIP_NAME = "domino.zip"
EPOCH = (1980, 1, 1, 0, 0, 0)


def modules(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "domino").rglob("*.py") if "__pycache__" not in p.parts)


def pack(root: Path = ROOT) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in modules(root):
            info = zipfile.ZipInfo(p.relative_to(root).as_posix(), EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, p.read_bytes())
    return buf.getvalue()


def ensure(root: Path = ROOT) -> bool:
    """Write domino.zip if it is missing or differs from the sources.
    Returns True when it was (re)written."""
    root = Path(root)
    target = root / ZIP_NAME
    data = pack(root)
    if target.is_file() and target.read_bytes() == data:
        return False
    tmp = target.with_suffix(".zip.tmp")
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
