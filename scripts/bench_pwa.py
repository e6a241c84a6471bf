#!/usr/bin/env python3
"""Boot time and bytes with the service worker: navigation -> data-ready, in ms.

For the game (index.html) beside a bare PyScript page on the same runtime
(static/bench/bare.html, which only sets data-ready), median of N runs of:

  first:    a new browser context each run (empty HTTP cache, no service worker);
  warm:     reloads in a context whose service worker controls the page
            (index.html registered it; bare.html lies in its scope and its files
            are precached, so both are served by the same worker); also the bare
            page warm from the HTTP cache alone, without any service worker;
  offline:  the same, with the server stopped: everything from the worker.

Bytes: response bodies the server sent on a first visit: for the game, until
its service worker controls the page (the precache revalidates what the page
already loaded, so it should add little), beside the bare page's; and the
size of the game's own files (app, not runtime) from the precache list.

Served as by GitHub Pages (under /domino/, Cache-Control max-age=600).
Prints one JSON object; not a test. Run after scripts/setup:

    .venv/bin/python scripts/bench_pwa.py [--runs 7]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_precache  # noqa: E402
from bench_boot import INIT_SCRIPT, _load  # noqa: E402
from devserver import DevServer  # noqa: E402
from find_browser import LAUNCH_ARGS, find_chromium  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402

PAGES = {"index": "index.html", "bare": "static/bench/bare.html"}


class CountingServer(DevServer):
    """DevServer that counts the response body bytes it sends."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.bytes_sent = 0
        counter = threading.Lock()
        outer = self

        class Handler(self._handler):
            def copyfile(self, source, outputfile):
                n = 0
                while chunk := source.read(1 << 16):
                    outputfile.write(chunk)
                    n += len(chunk)
                with counter:
                    outer.bytes_sent += n

        self._handler = Handler

    def take_bytes(self) -> int:
        n, self.bytes_sent = self.bytes_sent, 0
        return n


def _ctx(launch):
    """A persistent context (a real profile with a disk HTTP cache, as on a phone;
    Playwright's ordinary contexts keep a small in-memory cache that cannot hold
    the 9.6 MB wasm, which would distort the byte counts)."""
    ctx = launch()
    ctx.add_init_script(INIT_SCRIPT)
    return ctx


def _wait_controlled(page, timeout_ms: int) -> None:
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=timeout_ms)


def _med(xs: list[float]) -> int:
    return round(statistics.median(xs))


def bench(launch, server: CountingServer, runs: int, timeout_ms: int) -> dict:
    urls = {name: server.url + path for name, path in PAGES.items()}
    first = {name: [] for name in urls}
    first_bytes = {name: [] for name in urls}
    for _ in range(runs):
        for name, url in urls.items():
            ctx = _ctx(launch)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            server.take_bytes()
            first[name].append(_load(page, url, timeout_ms))
            if name == "index":
                _wait_controlled(page, timeout_ms)
            first_bytes[name].append(server.take_bytes())
            ctx.close()

    # Warm: the game's worker controls both pages; the bare page also without it.
    sw_ctx = _ctx(launch)
    sw_page = sw_ctx.pages[0] if sw_ctx.pages else sw_ctx.new_page()
    _load(sw_page, urls["index"], timeout_ms)
    _wait_controlled(sw_page, timeout_ms)
    http_ctx = _ctx(launch)
    http_page = http_ctx.pages[0] if http_ctx.pages else http_ctx.new_page()
    _load(http_page, urls["bare"], timeout_ms)
    warm = {"index_sw": [], "bare_sw": [], "bare_http": []}
    server.take_bytes()
    for _ in range(runs):
        warm["index_sw"].append(_load(sw_page, urls["index"], timeout_ms))
        warm["bare_sw"].append(_load(sw_page, urls["bare"], timeout_ms))
        warm["bare_http"].append(_load(http_page, urls["bare"], timeout_ms))
    warm_bytes_sw = server.take_bytes()  # includes bare_http's revalidations (none within max-age)
    http_ctx.close()

    server.stop()
    offline = {"index_sw": [], "bare_sw": []}
    try:
        for _ in range(runs):
            offline["index_sw"].append(_load(sw_page, urls["index"], timeout_ms))
            offline["bare_sw"].append(_load(sw_page, urls["bare"], timeout_ms))
        tab = sw_ctx.new_page()  # a brand-new tab, no network at all
        offline_new_tab = _load(tab, urls["index"], timeout_ms)
    finally:
        server.start()
        sw_ctx.close()

    return {
        "first_ms": {k: _med(v) for k, v in first.items()},
        "warm_ms": {k: _med(v) for k, v in warm.items()},
        "offline_ms": {k: _med(v) for k, v in offline.items()},
        "offline_new_tab_ms": round(offline_new_tab),
        "overhead_ms": {
            "first": _med(first["index"]) - _med(first["bare"]),
            "warm_vs_bare_sw": _med(warm["index_sw"]) - _med(warm["bare_sw"]),
            "offline_vs_bare_sw": _med(offline["index_sw"]) - _med(offline["bare_sw"]),
        },
        "first_visit_bytes": {k: _med(v) for k, v in first_bytes.items()},
        "warm_bytes_from_server": warm_bytes_sw,
        "all_ms": {"first": first, "warm": warm, "offline": offline},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per load")
    args = ap.parse_args()
    executable = find_chromium()
    if not executable:
        sys.exit("no Chromium found: run scripts/setup")
    data = build_precache.build()
    app_bytes = sum(f["size"] for f in data["files"] if not f["url"].startswith("static/vendor/"))
    runtime_bytes = sum(f["size"] for f in data["files"] if f["url"].startswith("static/vendor/"))
    with CountingServer(cache_control="max-age=600") as server, sync_playwright() as p, \
            tempfile.TemporaryDirectory(prefix="domino-bench-") as tmp:
        profiles = iter(range(10_000))

        def launch():
            return p.chromium.launch_persistent_context(
                os.path.join(tmp, f"profile-{next(profiles)}"), executable_path=executable,
                args=LAUNCH_ARGS)

        probe = launch()
        version = probe.browser.version if probe.browser else "?"
        probe.close()
        results = bench(launch, server, args.runs, int(args.timeout * 1000))
    for kind in results["all_ms"].values():
        for k, xs in kind.items():
            kind[k] = [round(x) for x in xs]
    out = {
        "runs": args.runs,
        "browser": version,
        "precache_version": data["version"],
        "precache_files": len(data["files"]),
        "app_bytes": app_bytes,
        "runtime_bytes": runtime_bytes,
        **results,
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
