#!/usr/bin/env python3
"""Locate a Chromium executable for the browser tests and benchmarks.

Order of preference:
  1. $DOMINO_CHROMIUM, if set and it exists;
  2. the Chromium managed by the installed Playwright (``playwright install
     chromium``), if its executable exists;
  3. Debian's /usr/bin/chromium.

Run as a script it prints the path (exit 0) or exits 1 when none is found.
Also shared by tests/conftest.py and scripts/bench_boot.py.
"""
from __future__ import annotations

import functools
import os
import shlex
import shutil
import sys
from pathlib import Path

SYSTEM_CHROMIUM = "/usr/bin/chromium"

# Flags used for every Chromium we launch (tests and benchmark alike).
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _playwright_chromium() -> str | None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    try:
        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Exception:
        return None
    return path if path and os.path.isfile(path) else None


@functools.lru_cache(maxsize=None)
def find_chromium() -> str | None:
    override = os.environ.get("DOMINO_CHROMIUM")
    if override and os.path.isfile(override):
        return override
    path = _playwright_chromium()
    if path:
        return path
    if os.path.isfile(SYSTEM_CHROMIUM):
        return SYSTEM_CHROMIUM
    return shutil.which("chromium")


def logging_wrapper(path: str | Path, argv: list[str], log: str | Path) -> str:
    """Write at ``path`` an executable script that runs ``argv`` followed by the arguments it is given,
    with the browser's stderr appended to ``log``, and return its path (for Playwright's
    ``executable_path``).  A renderer that crashes says why there (a failed check, out of memory):
    without it a test only reads "Target crashed".  Playwright speaks to the browser over file
    descriptors 3 and 4, which ``exec`` keeps."""
    path = Path(path)
    path.write_text("#!/bin/sh\n# Chromium, its stderr kept in a log\n"
                    f"exec {' '.join(shlex.quote(a) for a in argv)} \"$@\" 2>>{shlex.quote(str(log))}\n")
    path.chmod(0o755)
    return str(path)


if __name__ == "__main__":
    found = find_chromium()
    if not found:
        print("no Chromium found", file=sys.stderr)
        sys.exit(1)
    print(found)
