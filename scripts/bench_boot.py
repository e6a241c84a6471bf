#!/usr/bin/env python3
"""Boot-time benchmark: navigation -> html[data-painted="1"], -> html[data-usable="1"] and -> html[data-ready="1"].

For the game (index.html) beside a bare PyScript page on the same runtime
(static/bench/bare.html, which only sets data-ready), medians over N runs of:

  cold       a new browser profile each run (empty HTTP cache, no service worker):
             a first visit, no saved match: static/first.js paints the pre-built
             new-game screen and it is usable (data-usable) before Python is up;
  cold_saved the same, with a saved match (and its snapshot) in localStorage:
             the player came back after the browser evicted its cache;
  warm       reloads with the HTTP cache warm (no service worker), saved match;
  sw         reloads with the game's service worker controlling the page, saved match
             (the bare page's three files are put in the same cache, so both are
             served by the worker);
  offline    the same with the server stopped.

Per load: ms from navigation start to data-painted ("the snapshot or the first real
screen is visible"; the bare page paints nothing, so only ready), to the first
contentful paint, to data-usable ("the screen accepts input": the pre-built screen
on a first visit, else the live one) and to data-ready ("interactive"). And, from a Chromium
Performance trace of --trace-runs more loads per mode, the longest main-thread task
during boot (navigation -> data-ready), with what ran inside it.

Profiles are real on-disk profiles (persistent contexts), as on a phone: an ordinary
Playwright context keeps a small in-memory cache that cannot hold the 9.6 MB wasm.
Served as by GitHub Pages (under /domino/, Cache-Control max-age=600). The machine
may be shared: the pages are interleaved so that drift hits both alike, and every
run is printed beside the medians. Prints one JSON object; not a test:

    .venv/bin/python scripts/bench_boot.py [--runs 7] [--trace-runs 3] [--modes cold,warm,...]
        [--latency 100 --mbps 40]

``--latency MS`` (with ``--mbps``) makes the cold visits go through Chromium's
network emulation (DevTools ``Network.emulateNetworkConditions``): every request
waits that round trip and the bytes come at that rate, as on a phone network,
where fetching the runtime's files in a chain costs one round trip each (what
index.html's preloads are for; on localhost they cannot show).
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

from playwright.sync_api import sync_playwright  # noqa: E402

PAGES = {"index": "index.html", "bare": "static/bench/bare.html"}
BARE_FILES = ["static/bench/bare.html", "static/bench/bare.py", "static/bench/bare.toml"]
MODES = ["cold", "cold_saved", "warm", "sw", "offline"]

# Records performance.now() (ms since navigation start) when data-painted / data-ready are set.
INIT_SCRIPT = """
(() => {
  const seen = () => {
    const html = document.documentElement;
    if (!html) return;
    if (window.__paintedAt === undefined && html.dataset.painted === "1") window.__paintedAt = performance.now();
    if (window.__readyAt === undefined && html.dataset.ready === "1") window.__readyAt = performance.now();
    if (window.__usableAt === undefined && html.dataset.usable === "1") window.__usableAt = performance.now();
  };
  // Observe the document (the <html> element does not exist yet when this runs).
  new MutationObserver(seen).observe(document, {attributes: true, subtree: true, childList: true,
                                                attributeFilter: ["data-ready", "data-painted", "data-usable"]});
})();
"""

TRACE_CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute",
                    "blink", "loading", "blink.user_timing"]


def _goto(page, url: str, timeout_ms: int) -> None:
    if page.url.split("#")[0] == url:
        page.reload(wait_until="commit")
    else:
        page.goto(url, wait_until="commit")
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=timeout_ms)
    if page.locator(".py-error").count():
        raise RuntimeError(f"{url}: " + " | ".join(page.locator(".py-error").all_inner_texts()))


def _load_full(page, url: str, timeout_ms: int) -> dict:
    _goto(page, url, timeout_ms)
    at = page.evaluate("""() => ({ready: window.__readyAt, painted: window.__paintedAt === undefined ? null : window.__paintedAt,
        usable: window.__usableAt === undefined ? null : window.__usableAt,
        fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null,
        snapshot: window.dominoBoot ? window.dominoBoot.snapshot : null,
        marks: Object.fromEntries(performance.getEntriesByType('mark').filter(m => m.name.startsWith('domino:'))
                                  .map(m => [m.name.slice(7), m.startTime]))})""")
    if at["ready"] is None:
        raise RuntimeError("readiness was not observed by the init script")
    return at


def _load(page, url: str, timeout_ms: int) -> float:
    """ms from navigation start to data-ready (used by scripts/bench_pwa.py too)."""
    return float(_load_full(page, url, timeout_ms)["ready"])


# ------------------------------------------------------------------ trace
def _longest_task(events: list[dict], url: str = "", marks: dict | None = None) -> dict:
    """The longest main-thread task of the page's renderer, and what ran inside it."""
    names = {(e["pid"], e["tid"]): e["args"].get("name") for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    mains = {k for k, v in names.items() if v == "CrRendererMain"}
    tasks = [e for e in events if (e.get("pid"), e.get("tid")) in mains and e.get("ph") == "X"
             and e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask") and e.get("dur")]
    if not tasks:
        return {"ms": None}
    top = max(tasks, key=lambda e: e["dur"])
    key, t0, t1 = (top["pid"], top["tid"]), top["ts"], top["ts"] + top["dur"]
    inside = [e for e in events if (e.get("pid"), e.get("tid")) == key and e.get("ph") == "X" and e.get("dur")
              and t0 <= e["ts"] and e["ts"] + e["dur"] <= t1 and e is not top
              and e.get("name") not in ("RunTask", "ThreadControllerImpl::RunTask")]
    inside.sort(key=lambda e: -e["dur"])
    parts = []
    for e in inside[:6]:
        data = (e.get("args") or {}).get("data") or {}
        where = data.get("url") or data.get("functionName") or (e.get("args") or {}).get("fileName") or ""
        parts.append({"name": e["name"], "ms": round(e["dur"] / 1000, 1),
                      "what": str(where).rsplit("/", 1)[-1][:80]})
    # the page's User Timing marks (static/boot.js, domino/browser.py) inside it, and where it
    # starts relative to them: what it is, runtime start-up or the app's own code
    # (Chromium does not put User Timing marks in this trace: the page's own times are placed on
    # the trace's clock from its navigationStart)
    nav = [e for e in events if e.get("name") == "navigationStart" and e.get("pid") == top["pid"]
           and str(((e.get("args") or {}).get("data") or {}).get("documentLoaderURL", "")).split("?")[0]
           == url.split("?")[0]]
    marks = {"domino:" + k: nav[-1]["ts"] + v * 1000 for k, v in (marks or {}).items()} if nav else {}
    within = sorted((n for n, ts in marks.items() if t0 <= ts <= t1), key=marks.get)
    before = sorted((n for n, ts in marks.items() if ts < t0), key=marks.get)
    # the app's own longest task: from the interpreter being up (py-ready) to data-ready
    own = [e for e in tasks if "domino:py-ready" in marks and e["ts"] + e["dur"] >= marks["domino:py-ready"]
           and e["ts"] <= marks.get("domino:ready", e["ts"])]
    return {"ms": round(top["dur"] / 1000, 1), "after_mark": before[-1] if before else None,
            "app_ms": round(max(e["dur"] for e in own) / 1000, 1) if own else None,
            "marks_inside": within, "inside": parts}


def _traced_load(page, url: str, timeout_ms: int) -> dict:
    cdp = page.context.new_cdp_session(page)
    events: list = []
    done = []
    cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    cdp.on("Tracing.tracingComplete", lambda p: done.append(1))
    cdp.send("Tracing.start", {"traceConfig": {"includedCategories": TRACE_CATEGORIES},
                               "transferMode": "ReportEvents"})
    try:
        _goto(page, url, timeout_ms)
        marks = page.evaluate("""() => Object.fromEntries(performance.getEntriesByType('mark')
            .filter(m => m.name.startsWith('domino:')).map(m => [m.name.slice(7), m.startTime]))""")
    finally:
        cdp.send("Tracing.end")
        deadline = time.monotonic() + 60
        while not done and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        cdp.detach()
    return _longest_task(events, url, marks)


# ------------------------------------------------------------- the match
def _saved_match(page, base: str, timeout_ms: int) -> dict:
    """A match vs the computer, one move in, saved with its snapshot: the
    localStorage items it left (for cold_saved)."""
    page.goto(base + "index.html?seed=7&delay=0")
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=timeout_ms)
    if page.locator('[data-testid="new-game"]').count():
        page.select_option('[data-testid="game"]', "draw")
        page.select_option('[data-testid="players"]', "2")
        page.select_option('[data-testid="seat-kind-1"]', index=1)
        page.locator('[data-testid="start"]').click()
        page.wait_for_selector('button[data-tile]:not([aria-disabled="true"])', timeout=timeout_ms)
        page.locator('button[data-tile]:not([aria-disabled="true"])').first.click()
        page.wait_for_selector('html[data-busy="0"] button[data-tile]:not([aria-disabled="true"])',
                               timeout=timeout_ms)
    page.wait_for_function("""() => { const s = localStorage.getItem('domino:' + location.pathname + ':snapshot');
        return !!s && JSON.parse(s).seq === Number(document.documentElement.dataset.seq); }""", timeout=timeout_ms)
    return page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
        .filter(k => k.startsWith('domino:')).map(k => [k, localStorage.getItem(k)]))""")


def _seed_storage(items: dict) -> str:
    return "(() => { const items = %s; if (location.pathname.endsWith('/index.html')) " \
           "for (const k in items) if (localStorage.getItem(k) === null) localStorage.setItem(k, items[k]); })();" \
           % json.dumps(items)


# ------------------------------------------------------------------ bench
class Bench:
    def __init__(self, p, executable: str, tmp: str, server: DevServer, timeout_ms: int,
                 network: dict | None = None):
        self.p, self.executable, self.tmp, self.server, self.timeout = p, executable, tmp, server, timeout_ms
        self.network = network
        self.n = 0
        self.urls = {name: server.url + path for name, path in PAGES.items()}

    def context(self, sw: bool = False, init: str | None = None):
        self.n += 1
        ctx = self.p.chromium.launch_persistent_context(
            os.path.join(self.tmp, f"profile-{self.n}"), executable_path=self.executable, args=LAUNCH_ARGS,
            service_workers="allow" if sw else "block")
        ctx.add_init_script(INIT_SCRIPT)
        if init:
            ctx.add_init_script(init)
        return ctx, (ctx.pages[0] if ctx.pages else ctx.new_page())

    def cold(self, name: str, init: str | None = None, trace: bool = False) -> dict:
        ctx, page = self.context(init=init)
        if self.network:
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", self.network)
        try:
            return _traced_load(page, self.urls[name], self.timeout) if trace else \
                _load_full(page, self.urls[name], self.timeout)
        finally:
            ctx.close()


def _log(mode: str, name: str, r: dict) -> dict:
    """Each load as it happens, on stderr (a long run on a busy machine shows progress)."""
    print(json.dumps({"mode": mode, "page": name, **{k: (round(v) if isinstance(v, float) else v)
                                                     for k, v in r.items() if k not in ("inside", "marks")}}),
          file=sys.stderr, flush=True)
    return r


def run(bench: Bench, runs: int, trace_runs: int, modes: list[str]) -> dict:
    urls = bench.urls
    out: dict = {m: {"index": [], "bare": []} for m in modes}
    traces: dict = {m: {"index": [], "bare": []} for m in modes}
    saved = None
    if "cold_saved" in modes:
        ctx, page = bench.context()
        saved = _saved_match(page, bench.server.url, bench.timeout)
        ctx.close()
    for mode in ("cold", "cold_saved"):
        if mode not in modes:
            continue
        init = _seed_storage(saved) if mode == "cold_saved" else None
        for i in range(runs + trace_runs):
            for name in ("index", "bare"):
                if mode == "cold_saved" and name == "bare":
                    continue   # the bare page has nothing to save: see "cold"
                if i < runs:
                    out[mode][name].append(_log(mode, name, bench.cold(name, init)))
                else:
                    traces[mode][name].append(_log(mode, name, bench.cold(name, init, trace=True)))
    if "warm" in modes:
        ctx, page = bench.context()
        _saved_match(page, bench.server.url, bench.timeout)
        bctx, bpage = bench.context()
        pages = {"index": page, "bare": bpage}
        _load_full(bpage, urls["bare"], bench.timeout)
        for name in pages:   # fill the HTTP cache (and V8's code cache) with the plain URLs
            _load_full(pages[name], urls[name], bench.timeout)
        for i in range(runs + trace_runs):
            for name, pg in pages.items():
                if i < runs:
                    out["warm"][name].append(_log("warm", name, _load_full(pg, urls[name], bench.timeout)))
                else:
                    traces["warm"][name].append(_log("warm", name, _traced_load(pg, urls[name], bench.timeout)))
        ctx.close()
        bctx.close()
    if "sw" in modes or "offline" in modes:
        ctx, page = bench.context(sw=True)
        _saved_match(page, bench.server.url, bench.timeout)
        page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=bench.timeout)
        # the bare page's own files, into the game's cache: the worker serves both
        page.evaluate("""async (files) => {
            const name = (await caches.keys()).find(n => n.startsWith('domino-'));
            await (await caches.open(name)).addAll(files.map(f => new URL(f, document.baseURI + '/../').href));
        }""", [f for f in BARE_FILES])
        for name in ("index", "bare"):
            _load_full(page, urls[name], bench.timeout)
        for mode in ("sw", "offline"):
            if mode not in modes:
                continue
            if mode == "offline":
                bench.server.stop()
            try:
                for i in range(runs + trace_runs):
                    for name in ("index", "bare"):
                        if i < runs:
                            out[mode][name].append(_log(mode, name, _load_full(page, urls[name], bench.timeout)))
                        else:
                            traces[mode][name].append(_log(mode, name, _traced_load(page, urls[name], bench.timeout)))
            finally:
                if mode == "offline":
                    bench.server.start()
        ctx.close()
    return {"loads": out, "traces": traces}


def _med(xs):
    xs = [x for x in xs if x is not None]
    return round(statistics.median(xs)) if xs else None


def summary(results: dict) -> dict:
    table = {}
    for mode, pages in results["loads"].items():
        row = {}
        for name, loads in pages.items():
            if not loads:
                continue
            row[name] = {
                "painted_ms": _med([x["painted"] for x in loads]) if name == "index" else None,
                # the first frame painted with the snapshot (or the first screen) in the page
                "visible_ms": _med([max(x["painted"], x["fcp"] or 0) for x in loads
                                    if x["painted"] is not None]) if name == "index" else None,
                "fcp_ms": _med([x["fcp"] for x in loads]),
                # the screen accepts input (a first visit: the pre-built new-game screen)
                "usable_ms": _med([x.get("usable") for x in loads]) if name == "index" else None,
                "ready_ms": _med([x["ready"] for x in loads]),
                "snapshot": sorted({str(x["snapshot"]) for x in loads}) if name == "index" else None,
                # the interpreter is up (py:ready) / the app starts (package imported)
                "py_ready_ms": _med([x["marks"].get("py-ready") for x in loads]) if name == "index" else None,
                "app_start_ms": _med([x["marks"].get("start") for x in loads]) if name == "index" else None,
                "all_painted_ms": [round(x["painted"]) for x in loads if x["painted"] is not None],
                "all_ready_ms": [round(x["ready"]) for x in loads],
                "all_usable_ms": [round(x["usable"]) for x in loads if x.get("usable") is not None]
                if name == "index" else None,
            }
            traces = results["traces"][mode][name]
            if traces:
                longest = sorted(traces, key=lambda t: t["ms"] or 0)[len(traces) // 2]
                row[name]["longest_task_ms"] = longest["ms"]
                row[name]["longest_task_after_mark"] = longest.get("after_mark")
                row[name]["longest_app_task_ms"] = longest.get("app_ms")
                row[name]["longest_task_marks_inside"] = longest.get("marks_inside")
                row[name]["longest_task_inside"] = longest.get("inside")
                row[name]["all_longest_task_ms"] = [t["ms"] for t in traces]
        if "index" in row and "bare" in row:
            row["ready_over_bare_ms"] = row["index"]["ready_ms"] - row["bare"]["ready_ms"]
            if row["index"]["usable_ms"] is not None:   # usable beside the bare runtime's ready
                row["usable_vs_bare_ready_ms"] = [row["index"]["usable_ms"], row["bare"]["ready_ms"]]
        table[mode] = row
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--trace-runs", type=int, default=3, help="extra traced loads per mode and page")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--timeout", type=float, default=90, help="seconds per load")
    ap.add_argument("--latency", type=float, default=0, help="cold visits: emulated round trip, ms")
    ap.add_argument("--mbps", type=float, default=40, help="cold visits with --latency: emulated Mbit/s down")
    args = ap.parse_args()
    network = None
    if args.latency:
        rate = args.mbps * 1e6 / 8
        network = {"offline": False, "latency": args.latency, "downloadThroughput": rate,
                   "uploadThroughput": rate / 4}
    modes = [m for m in args.modes.split(",") if m]
    bad = set(modes) - set(MODES)
    if bad:
        sys.exit(f"unknown modes {sorted(bad)}: choose from {MODES}")
    executable = find_chromium()
    if not executable:
        sys.exit("no Chromium found: run scripts/setup")
    started = time.time()
    with DevServer(cache_control="max-age=600") as server, sync_playwright() as p, \
            tempfile.TemporaryDirectory(prefix="domino-bench-") as tmp:
        bench = Bench(p, executable, tmp, server, int(args.timeout * 1000), network)
        results = run(bench, args.runs, args.trace_runs, modes)
        probe, _ = bench.context()
        version = probe.browser.version if probe.browser else "?"
        probe.close()
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    print(json.dumps({"runs": args.runs, "trace_runs": args.trace_runs, "browser": version, "network": network,
                      "loadavg_at_end": load, "seconds": round(time.time() - started),
                      **summary(results)}, indent=2))


if __name__ == "__main__":
    main()
