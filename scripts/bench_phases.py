#!/usr/bin/env python3
"""Where the runtime's start goes, without PyScript or the game's page (static/bench/phases.html).

A benchmark, not a test: for each run, in a new browser session (an empty profile: a
first visit), the page is loaded with ?part=compile (the wasm fetched and compiled
alone) and ?part=load (the runtime started as the game starts it, static/pyodide.mjs,
then domino.zip unpacked and the game imported); then, in one session, ?part=make once
(the same, then a memory snapshot of it, kept in Cache Storage) and ?part=snap per run
(the runtime started from that snapshot, the game already imported in it). Prints each
load (stderr) and one JSON object: per part, the median ms from navigation start at the
end of each step. Set beside scripts/bench_boot.py's marks (runtime_asked_ms,
runtime_up_ms) it tells the runtime's own time from what the page around it costs.

    .venv/bin/python scripts/bench_phases.py [--engine chromium|webkit] [--runs 3]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devserver import DevServer  # noqa: E402
from find_browser import LAUNCH_ARGS, find_chromium  # noqa: E402

PAGE = "static/bench/phases.html?part="
DONE = "return window.__phases || null"


def _chromium(url: str, parts: list[tuple[str, bool]]) -> list[tuple[str, dict]]:
    from playwright.sync_api import sync_playwright
    out = []
    with sync_playwright() as p:
        ctx = None
        try:
            for part, new_session in parts:
                if new_session or ctx is None:
                    if ctx is not None:
                        ctx.close()
                    ctx = p.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="domino-phases-"),
                                                               executable_path=find_chromium(),
                                                               args=LAUNCH_ARGS, headless=True)
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                page.goto(url + part)
                page.wait_for_function("window.__phases", timeout=180_000)
                out.append((part, page.evaluate("window.__phases")))
        finally:
            if ctx is not None:
                ctx.close()
    return out


def _webkit(url: str, parts: list[tuple[str, bool]]) -> list[tuple[str, dict]]:
    from webkit import Xvfb, navigate, new_driver
    out = []
    with Xvfb() as display:
        driver = None
        try:
            for part, new_session in parts:
                if new_session or driver is None:
                    if driver is not None:
                        driver.quit()
                    driver = new_driver(display)
                navigate(driver, lambda: driver.get(url + part), part, 120)
                deadline = time.monotonic() + 180
                while not (at := driver.execute_script(DONE)):
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"WebKit: {part} did not finish within 180 s")
                    time.sleep(0.05)
                out.append((part, at))
        finally:
            if driver is not None:
                driver.quit()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", choices=["chromium", "webkit"], default="chromium")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    # (part, in a new session): first visits, then the snapshot made once and loaded per run
    parts = [(p, True) for _ in range(args.runs) for p in ("compile", "load")]
    parts += [("make", True)] + [("snap", False)] * args.runs
    with DevServer(cache_control="max-age=600") as server:
        loads = (_webkit if args.engine == "webkit" else _chromium)(server.url + PAGE, parts)
    by: dict[str, list[dict]] = {}
    for part, at in loads:
        print(json.dumps({"part": part, **at}), file=sys.stderr, flush=True)
        if at.get("error"):
            sys.exit(f"{part}: {at['error']}")
        by.setdefault(part, []).append(at)
    report = {"engine": args.engine, "runs": args.runs, "loadavg_at_end": os.getloadavg(),
              "median_ms": {part: {k: round(statistics.median(x[k] for x in xs))
                                   for k in xs[0] if k != "start"}
                            for part, xs in by.items()}}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
