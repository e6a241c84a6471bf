#!/usr/bin/env python3
"""Boot-time benchmark: navigation start -> html[data-ready="1"], in ms.

Measures, for index.html and for a bare PyScript page (static/bench/bare.html,
which only sets data-ready), the median over N runs of:
  cold: a new browser context (empty HTTP cache) for every run;
  warm: reloads in one context after a first, discarded load (HTTP cache warm).
The site is served as by GitHub Pages (under /domino/, Cache-Control max-age=600).
Prints one JSON object. Not a test; run after scripts/setup:

    .venv/bin/python scripts/bench_boot.py [--runs 7]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from devserver import DevServer  # noqa: E402
from find_browser import LAUNCH_ARGS, find_chromium  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402

PAGES = {"index": "index.html", "bare": "static/bench/bare.html"}

# Records performance.now() (ms since navigation start) when data-ready is set.
INIT_SCRIPT = """
(() => {
  const done = () => { if (window.__readyAt === undefined) window.__readyAt = performance.now(); };
  // Observe the document (the <html> element does not exist yet when this runs).
  new MutationObserver(() => {
    const html = document.documentElement;
    if (html && html.dataset.ready === "1") done();
  }).observe(document, {attributes: true, subtree: true, childList: true,
                        attributeFilter: ["data-ready"]});
})();
"""


def _load(page, url: str, timeout_ms: int) -> float:
    page.goto(url)
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=timeout_ms)
    if page.locator(".py-error").count():
        raise RuntimeError(f"{url}: " + " | ".join(page.locator(".py-error").all_inner_texts()))
    at = page.evaluate("window.__readyAt")
    if at is None:
        raise RuntimeError("readiness was not observed by the init script")
    return float(at)


def _new_context(browser):
    ctx = browser.new_context()
    ctx.add_init_script(INIT_SCRIPT)
    return ctx


def bench(browser, urls: dict[str, str], runs: int, timeout_ms: int) -> dict:
    """Runs the pages interleaved, so that drift in machine load hits all alike."""
    cold: dict[str, list[float]] = {name: [] for name in urls}
    warm: dict[str, list[float]] = {name: [] for name in urls}
    for _ in range(runs):
        for name, url in urls.items():
            ctx = _new_context(browser)
            cold[name].append(_load(ctx.new_page(), url, timeout_ms))
            ctx.close()
    contexts = {name: _new_context(browser) for name in urls}
    pages = {name: ctx.new_page() for name, ctx in contexts.items()}
    for name, url in urls.items():
        _load(pages[name], url, timeout_ms)  # fill the HTTP cache
    for _ in range(runs):
        for name, url in urls.items():
            warm[name].append(_load(pages[name], url, timeout_ms))
    for ctx in contexts.values():
        ctx.close()
    return {
        name: {
            "cold_ms": round(statistics.median(cold[name])),
            "warm_ms": round(statistics.median(warm[name])),
            "cold_all_ms": [round(x) for x in cold[name]],
            "warm_all_ms": [round(x) for x in warm[name]],
        }
        for name in urls
    }


def main() -> None:
    ap = argparse.ArgumentParser(description="Median boot time of the app vs a bare PyScript page.")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per load")
    args = ap.parse_args()
    executable = find_chromium()
    if not executable:
        sys.exit("no Chromium found: run scripts/setup")
    with DevServer(cache_control="max-age=600") as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        try:
            urls = {name: server.url + path for name, path in PAGES.items()}
            results = bench(browser, urls, args.runs, int(args.timeout * 1000))
            version = browser.version
        finally:
            browser.close()
    out = {
        "runs": args.runs,
        "browser": version,
        **results,
        "app_overhead_cold_ms": results["index"]["cold_ms"] - results["bare"]["cold_ms"],
        "app_overhead_warm_ms": results["index"]["warm_ms"] - results["bare"]["warm_ms"],
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
