#!/usr/bin/env python3
"""Build the first visit's screen: static/first/<lang>.json (gitignored).

Also writes, into static/first.js and static/boot.js, the line that lists the
URL fragments of an invitation (domino/app/links.py): those scripts decide
before Python is up whether a link opens the guest's screen; and, between
their "tree" marks, the page's one builder of DOM from node trees
(static/tree.js, its only source): each of them paints before anything else
is fetched, so each carries it.  And into them and static/rescue.js, the line
of the storage keys' prefix and names (domino/app/storage.py).

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


TREE_SOURCE = "static/tree.js"
TREE_FILES = ("static/boot.js", "static/first.js")
TREE_BEGIN = "/* tree: static/tree.js, written here by scripts/build_first.py */"
TREE_END = "/* end of tree */"


def with_tree(source: str, tree: str) -> str:
    """``source`` with ``tree`` (static/tree.js's text) between its two tree
    marks, indented as the first mark is."""
    head, begin, rest = source.partition(TREE_BEGIN)
    body, end, tail = rest.partition(TREE_END)
    if not begin or not end or TREE_BEGIN in tail or TREE_END in tail:
        raise ValueError("the tree marks are not there once, in order")
    indent = head[head.rfind("\n") + 1:]
    lines = [indent + line if line.strip() else "" for line in tree.rstrip().splitlines()]
    return head + begin + "\n" + "\n".join(lines) + "\n" + indent + end + tail


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
    stale += rewrite(links.JS_FILES, links.with_js_line, args.check)          # the invitations' fragments
    stale += rewrite(storage.JS_FILES, storage.with_js_line, args.check)      # the storage keys
    tree = (ROOT / TREE_SOURCE).read_text(encoding="utf-8")
    stale += rewrite(TREE_FILES, lambda text: with_tree(text, tree), args.check)   # the one DOM builder
    if args.check and stale:
        print("out of date: " + ", ".join(stale) + " (run scripts/build_first.py)", file=sys.stderr)
        return 1
    for p in stale:
        print(f"wrote {p}")
    return 0


def rewrite(names, fresh_of, check: bool) -> list[str]:
    """Rewrite each script as ``fresh_of(its text)``; returns the scripts that were
    out of date (with ``check``: left as they are)."""
    stale = []
    for name in names:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        fresh = fresh_of(text)
        if fresh != text:
            stale.append(name)
            if not check:
                path.write_text(fresh, encoding="utf-8")
    return stale


if __name__ == "__main__":
    sys.exit(main())
