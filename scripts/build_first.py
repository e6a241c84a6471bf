#!/usr/bin/env python3
"""Build the first visit's screen: static/first/<lang>.json (gitignored).

Also writes, into static/first.js and static/boot.js, the line that lists the
URL fragments of an invitation (domino/app/links.py): those scripts decide
before Python is up whether a link opens the guest's screen.  And into them
and static/rescue.js, the line of the storage keys' prefix and names
(domino/app/storage.py).

Run by scripts/setup (before scripts/build_precache.py, which lists them for
the service worker). Under CPython, from the same code that draws the
new-game screen live (domino/app/first.py); static/first.js paints it before
Python is up. Rewrites a file only when its text changed.

    python3 scripts/build_first.py [--check]

--check: exit 1 when a file is missing or out of date (nothing written).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "first"
sys.path.insert(0, str(ROOT))

from domino.app import links, storage  # noqa: E402
from domino.app.first import all_langs  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    stale = []
    for lang, text in all_langs().items():
        path = OUT / f"{lang}.json"
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path.relative_to(ROOT).as_posix())
        if not args.check:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for name in links.JS_FILES:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        fresh = links.with_js_line(text)
        if fresh != text:
            stale.append(name)
            if not args.check:
                path.write_text(fresh, encoding="utf-8")
    stale += write_keys_lines(args.check)
    if args.check and stale:
        print("out of date: " + ", ".join(stale) + " (run scripts/build_first.py)", file=sys.stderr)
        return 1
    for p in stale:
        print(f"wrote {p}")
    return 0


def write_keys_lines(check: bool) -> list[str]:
    """Write the storage keys' line (domino/app/storage.py) into the scripts
    that use keys; returns the scripts that were out of date (with ``check``:
    left as they are)."""
    stale = []
    for name in storage.JS_FILES:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        fresh = storage.with_js_line(text)
        if fresh != text:
            stale.append(name)
            if not check:
                path.write_text(fresh, encoding="utf-8")
    return stale


if __name__ == "__main__":
    sys.exit(main())
