#!/usr/bin/env python3
"""Generate the service worker's precache list from the real files.

Called by scripts/setup (after the runtime is vendored), and by the workflow
through it. Writes static/precache.js (gitignored), which sw.js loads with
importScripts() -- so a changed list also changes what the browser compares
when it checks for a new service worker:

    self.DOMINO_PRECACHE = {"version": "<16 hex>", "files": [
        {"url": "index.html", "size": 1234, "sha256": "..."}, ...]};

URLs are relative to the site root (the service worker's scope), never
absolute. The list holds:
  * the app: index.html, main.py, pyscript.toml, manifest.webmanifest,
    NOTICE.md, LICENSE, every domino/*.py, everything under static/ except the
    runtime (icons, css, js, the bench page), plus any local file that
    index.html or pyscript.toml refer to;
  * the whole vendored runtime (static/vendor/**: PyScript's hashed chunks,
    Pyodide's files and their LICENSE files), except source maps (*.map),
    which only developer tools fetch.

``version`` is a hash over every listed path and content hash, and over sw.js
itself, so any change to what is served gives a new cache name
("domino-<version>") and a new service worker.

    python3 scripts/build_precache.py [--check] [--print] [--stage DIR]

--stage DIR copies the published site into DIR (for the Pages artifact):
exactly the listed files, plus sw.js, static/precache.js and the runtime's
source maps -- never node_modules/, .venv/, tests or other dot-files.
"""
from __future__ import annotations

import argparse
import hashlib
import html.parser
import json
import os
import shutil
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = "static/precache.js"
SERVICE_WORKER = "sw.js"

# Top-level files of the app (those present are listed).
APP_FILES = ["index.html", "main.py", "pyscript.toml", "manifest.webmanifest",
             "NOTICE.md", "LICENSE"]
SKIP_SUFFIXES = (".map", ".pyc")
SKIP_NAMES = {OUTPUT, SERVICE_WORKER}


class _Refs(html.parser.HTMLParser):
    """Collects relative src/href URLs of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "config") and value:
                self.urls.append(value)


def _local(url: str) -> str | None:
    """Repository-relative path of a relative URL, or None for anything else."""
    url = url.split("#", 1)[0].split("?", 1)[0]
    if not url or url.startswith(("/", "data:", "blob:", "mailto:")) or "://" in url:
        return None
    path = os.path.normpath(url)
    return None if path.startswith("..") else path.replace(os.sep, "/")


def _published(rel: str) -> bool:
    """Files the site serves.  The benchmark pages under static/bench/ are
    for scripts run from a checkout: they are neither cached nor published;
    nor is static/tree.js, the source that scripts/build_first.py writes
    into static/boot.js and static/first.js (the page never asks for it)."""
    parts = rel.split("/")
    if rel.startswith("static/bench/") or rel == "static/tree.js":
        return False
    return not any(p.startswith(".") or p in ("node_modules", "__pycache__") for p in parts)


def collect(root: Path = ROOT) -> list[str]:
    paths: set[str] = {p for p in APP_FILES if (root / p).is_file()}
    for f in (root / "static").rglob("*"):
        rel = f.relative_to(root).as_posix()
        if f.is_file() and _published(rel):
            paths.add(rel)
    # Whatever the page and the PyScript config refer to (new files the UI adds).
    if (root / "index.html").is_file():
        parser = _Refs()
        parser.feed((root / "index.html").read_text(encoding="utf-8"))
        paths |= {p for p in map(_local, parser.urls) if p and (root / p).is_file()}
    if (root / "pyscript.toml").is_file():
        with open(root / "pyscript.toml", "rb") as fh:
            cfg = tomllib.load(fh)
        for src in cfg.get("files", {}):
            p = _local(src)
            if p and (root / p).is_file():
                paths.add(p)
    return sorted(p for p in paths
                  if p not in SKIP_NAMES and not p.endswith(SKIP_SUFFIXES) and _published(p))


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def build(root: Path = ROOT) -> dict:
    files = [{"url": p, "size": (root / p).stat().st_size, "sha256": _sha256(root / p)}
             for p in collect(root)]
    h = hashlib.sha256()
    for f in files:
        h.update(f"{f['url']}\0{f['sha256']}\n".encode())
    sw = root / SERVICE_WORKER
    if sw.is_file():
        h.update(b"sw.js\0" + _sha256(sw).encode())
    return {"version": h.hexdigest()[:16], "files": files}


def render(data: dict) -> str:
    body = json.dumps(data, indent=None, separators=(",", ":"))
    return ("// Generated by scripts/build_precache.py (run by scripts/setup). Do not edit.\n"
            f"self.DOMINO_PRECACHE = {body};\n")


def stage(dest: Path, root: Path = ROOT) -> list[str]:
    """Copy the published site (see --stage) into dest; returns the paths."""
    rels = collect(root) + [SERVICE_WORKER, OUTPUT]
    rels += sorted(p.relative_to(root).as_posix() for p in (root / "static" / "vendor").rglob("*.map"))
    for rel in rels:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, target)
    return rels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(ROOT), help="site root (default: the repository)")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if the output file is missing or out of date")
    ap.add_argument("--print", action="store_true", help="print a summary")
    ap.add_argument("--stage", metavar="DIR", help="then copy the published site into DIR")
    args = ap.parse_args(argv)
    root = Path(args.root).resolve()
    if not (root / "static" / "vendor").is_dir():
        print("build_precache: static/vendor/ is missing: run scripts/setup", file=sys.stderr)
        return 1
    data = build(root)
    text = render(data)
    out = root / OUTPUT
    current = out.read_text(encoding="utf-8") if out.is_file() else None
    if args.check:
        return 0 if current == text else 1
    if current != text:
        out.write_text(text, encoding="utf-8")
    if args.stage:
        staged = stage(Path(args.stage), root)
        print(f"staged {len(staged)} files in {args.stage}")
    if args.print:
        app = sum(f["size"] for f in data["files"] if not f["url"].startswith("static/vendor/"))
        rt = sum(f["size"] for f in data["files"] if f["url"].startswith("static/vendor/"))
        print(f"precache {data['version']}: {len(data['files'])} files, "
              f"app {app / 1024:.0f} KiB, runtime {rt / 1048576:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
