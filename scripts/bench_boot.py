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
        [--latency 100 --mbps 40] [--base DIR]
        [--engine chromium|webkit|both]

``--base DIR`` adds a third page, "base": the game of another checkout (a copy of the
tree before a change, set up by its own scripts/setup), served from DIR on its own port
and interleaved with the other two, so a change is measured against the tree before it
in the same run (both beside the bare page); in both engines (WebKit: not offline).

``--engine webkit`` measures the same pages in WebKit, the engine of every iPhone
browser (WebKitGTK's MiniBrowser through Selenium, on a private Xvfb display:
scripts/webkit.py): the modes cold (a new automation session each run, an empty
ephemeral profile), sw and offline; no traces (WebKit has no Chromium trace) and
no warm mode (its service worker cannot be blocked: a reload after a visit is the
sw mode).  Its times come from the same marks, read from a recorder the script
puts in each page once it is parsed (long before Python is up).  WebKit runs with
its own JavaScriptCore options, as shipped (the tests turn its optimising wasm tier
off).  ``--engine both`` runs Chromium, then WebKit, and prints both with their
ready times side by side.

``--latency MS`` (with ``--mbps``) makes the cold visits go through Chromium's
network emulation (DevTools ``Network.emulateNetworkConditions``): every request
waits that round trip and the bytes come at that rate, as on a phone network,
where fetching the runtime's files in a chain costs one round trip each (what
index.html's preloads are for; on localhost they cannot show).

Per mode, ``ready_ratio`` is the game's ready time over the bare page's: the median of the
run-by-run ratios (each game load paired with the bare load beside it), with
``ready_ratio_spread`` (lowest, highest) and ``all_ready_ratios``.
"""
from __future__ import annotations

import argparse
import contextlib
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

WEBKIT_MODES = ["cold", "sw", "offline"]

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
    if page.locator('html[data-rescue="1"]').count():   # ready, but on the error screen
        raise RuntimeError(f"{url}: the rescue screen: " + page.locator('[data-testid="boot-error"]').inner_text())


# What a load's page says of itself (both engines, after the recorder saw it ready): painted / usable
# (the marks' times), the first contentful paint, which snapshot boot.js painted, when the runtime's
# 10 MB wasm was asked for and fetched (resource timing), and the page's own marks (domino:*).
LOAD_FACTS = """painted: window.__paintedAt === undefined ? null : window.__paintedAt,
    usable: window.__usableAt === undefined ? null : window.__usableAt,
    fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null,
    snapshot: window.dominoBoot ? window.dominoBoot.snapshot : null,
    wasm: ((e) => e ? {start: e.startTime, end: e.responseEnd} : null)(performance.getEntriesByType('resource')
            .filter(r => /pyodide\\.asm\\.wasm/.test(r.name))[0]),
    marks: Object.fromEntries(performance.getEntriesByType('mark').filter(m => m.name.startsWith('domino:'))
                              .map(m => [m.name.slice(7), m.startTime]))"""


def _load_full(page, url: str, timeout_ms: int) -> dict:
    _goto(page, url, timeout_ms)
    at = page.evaluate("() => ({ready: window.__readyAt, " + LOAD_FACTS + "})")
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
                 network: dict | None = None, base_server: DevServer | None = None):
        self.p, self.executable, self.tmp, self.server, self.timeout = p, executable, tmp, server, timeout_ms
        self.network = network
        self.base_server = base_server
        self.n = 0
        self.urls = {name: server.url + path for name, path in PAGES.items()}
        if base_server:
            self.urls["base"] = base_server.url + PAGES["index"]

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
    names = ["index", "bare"] + (["base"] if "base" in urls else [])
    games = [n for n in names if n != "bare"]    # the pages with a match to save
    origin = {"index": bench.server.url, "base": bench.base_server.url if bench.base_server else None}
    out: dict = {m: {n: [] for n in names} for m in modes}
    traces: dict = {m: {n: [] for n in names} for m in modes}
    saved = {}
    if "cold_saved" in modes:
        for name in games:
            ctx, page = bench.context()
            saved[name] = _saved_match(page, origin[name], bench.timeout)
            ctx.close()
    for mode in ("cold", "cold_saved"):
        if mode not in modes:
            continue
        for i in range(runs + trace_runs):
            for name in names:
                if mode == "cold_saved" and name == "bare":
                    continue   # the bare page has nothing to save: see "cold"
                init = _seed_storage(saved[name]) if mode == "cold_saved" else None
                if i < runs:
                    out[mode][name].append(_log(mode, name, bench.cold(name, init)))
                else:
                    traces[mode][name].append(_log(mode, name, bench.cold(name, init, trace=True)))
    if "warm" in modes:
        contexts, pages = [], {}
        for name in names:
            ctx, page = bench.context()
            contexts.append(ctx)
            pages[name] = page
            if name != "bare":
                _saved_match(page, origin[name], bench.timeout)
            else:
                _load_full(page, urls[name], bench.timeout)
        for name in pages:   # fill the HTTP cache (and V8's code cache) with the plain URLs
            _load_full(pages[name], urls[name], bench.timeout)
        for i in range(runs + trace_runs):
            for name, pg in pages.items():
                if i < runs:
                    out["warm"][name].append(_log("warm", name, _load_full(pg, urls[name], bench.timeout)))
                else:
                    traces["warm"][name].append(_log("warm", name, _traced_load(pg, urls[name], bench.timeout)))
        for ctx in contexts:
            ctx.close()
    if "sw" in modes or "offline" in modes:
        contexts, pages = [], {}
        for name in games:
            ctx, page = bench.context(sw=True)
            contexts.append(ctx)
            pages[name] = page
            _saved_match(page, origin[name], bench.timeout)
            page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=bench.timeout)
        # the bare page's own files, into the game's cache: the worker serves both
        pages["bare"] = pages["index"]
        pages["index"].evaluate("""async (files) => {
            const name = (await caches.keys()).find(n => n.startsWith('domino-'));
            await (await caches.open(name)).addAll(files.map(f => new URL(f, document.baseURI + '/../').href));
        }""", [f for f in BARE_FILES])
        for name in names:
            _load_full(pages[name], urls[name], bench.timeout)
        servers = [s for s in (bench.server, bench.base_server) if s]
        for mode in ("sw", "offline"):
            if mode not in modes:
                continue
            if mode == "offline":
                for server in servers:
                    server.stop()
            try:
                for i in range(runs + trace_runs):
                    for name in names:
                        if i < runs:
                            out[mode][name].append(_log(mode, name, _load_full(pages[name], urls[name], bench.timeout)))
                        else:
                            traces[mode][name].append(_log(mode, name, _traced_load(pages[name], urls[name],
                                                                                      bench.timeout)))
            finally:
                if mode == "offline":
                    for server in servers:
                        server.start()
        for ctx in contexts:
            ctx.close()
    return {"loads": out, "traces": traces}


# ------------------------------------------------------------------ WebKit
# The recorder, put in the page once it is parsed (Selenium's WebKitGTK driver has no
# init scripts): the same times as INIT_SCRIPT's, the ones already set read from the page.
WEBKIT_RECORDER = """
const html = document.documentElement;
if (window.__wkRecorder) return 'twice';
window.__wkRecorder = 1;
const mark = (n) => (performance.getEntriesByName('domino:' + n)[0] || {}).startTime;
if (html.dataset.ready === '1') return 'late';
window.__paintedAt = html.dataset.painted === '1' ? mark('painted') : undefined;
window.__usableAt = html.dataset.usable === '1' ? mark('usable') : undefined;
const seen = () => {
  if (window.__paintedAt === undefined && html.dataset.painted === '1') window.__paintedAt = performance.now();
  if (window.__readyAt === undefined && html.dataset.ready === '1') window.__readyAt = performance.now();
  if (window.__usableAt === undefined && html.dataset.usable === '1') window.__usableAt = performance.now();
};
new MutationObserver(seen).observe(html, {attributes: true,
                                          attributeFilter: ['data-ready', 'data-painted', 'data-usable']});
seen();
return 'ok';"""

WEBKIT_FACTS = ("return {ready: window.__readyAt === undefined ? null : window.__readyAt, "
                "errors: [...document.querySelectorAll('.py-error')].map(e => e.innerText), " + LOAD_FACTS + "}")


# what a page that did not get ready shows: its state attributes, the loader's words, the marks
WEBKIT_STUCK = """const html = document.documentElement;
    return JSON.stringify({attrs: Object.fromEntries([...html.attributes].map(a => [a.name, a.value])),
        loader: (document.getElementById('loading-progress') || {}).textContent || null,
        rescue: (document.querySelector('.rescue, #rescue') || {}).textContent || null,
        errors: [...document.querySelectorAll('.py-error')].map(e => e.innerText),
        controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
        marks: performance.getEntriesByType('mark').map(m => m.name + '@' + Math.round(m.startTime)),
        now: Math.round(performance.now())});"""


def _wk_wait(driver, script: str, what: str, timeout_s: float):
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = driver.execute_script(script)
            if value:
                return value
        except Exception:   # a navigation in progress
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"WebKit: {what} not within {timeout_s} s")
        time.sleep(0.02)


def _wk_load(driver, url: str, timeout_ms: int) -> dict:
    """One load of ``url`` in WebKit: ms from navigation start to painted / usable / ready."""
    from webkit import navigate
    same = driver.current_url.split("#")[0] == url
    navigate(driver, driver.refresh if same else lambda: driver.get(url), url, timeout_ms / 1000)
    how = driver.execute_script(WEBKIT_RECORDER)
    if how != "ok":
        raise RuntimeError(f"{url}: the recorder came {how}")
    try:
        _wk_wait(driver, "return window.__readyAt !== undefined", f"{url} ready", timeout_ms / 1000)
    except RuntimeError as e:
        try:
            seen = driver.execute_script(WEBKIT_STUCK)
        except Exception as e2:   # noqa: BLE001 - what the page shows is only a clue
            seen = f"(the page could not be read: {e2})"
        raise RuntimeError(f"{e}; the page showed: {seen}") from None
    at = driver.execute_script(WEBKIT_FACTS)
    if at.pop("errors"):
        raise RuntimeError(f"{url}: a .py-error")
    return at


def _wk_saved_match(driver, base: str, timeout_ms: int) -> None:
    """A match vs the computer, one move in, saved with its snapshot (as _saved_match)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select
    _wk_load(driver, base + "index.html?seed=7&delay=0", timeout_ms)
    by = lambda t: driver.find_element(By.CSS_SELECTOR, f'[data-testid="{t}"]')  # noqa: E731
    if driver.find_elements(By.CSS_SELECTOR, '[data-testid="new-game"]'):
        Select(by("game")).select_by_value("draw")
        Select(by("players")).select_by_value("2")
        Select(by("seat-kind-1")).select_by_index(1)
        by("start").click()
        playable = 'button[data-tile]:not([aria-disabled="true"])'
        _wk_wait(driver, f"return document.querySelector('{playable}')", "a playable tile", timeout_ms / 1000)
        driver.find_element(By.CSS_SELECTOR, playable).click()
        _wk_wait(driver, f"return document.querySelector('html[data-busy=\"0\"] {playable}')",
                 "the player's turn again", timeout_ms / 1000)
    _wk_wait(driver, """const s = localStorage.getItem('domino:' + location.pathname + ':snapshot');
        return !!s && JSON.parse(s).seq === Number(document.documentElement.dataset.seq);""",
             "the snapshot stored", timeout_ms / 1000)


def run_webkit(server: DevServer, runs: int, modes: list[str], timeout_ms: int,
               base_server: DevServer | None = None) -> dict:
    from webkit import Xvfb, new_driver
    urls = {name: server.url + path for name, path in PAGES.items()}
    if base_server:
        urls["base"] = base_server.url + PAGES["index"]
    names = ["index", "bare"] + (["base"] if base_server else [])
    out: dict = {m: {n: [] for n in names} for m in modes}
    traces: dict = {m: {n: [] for n in names} for m in modes}
    version = "?"
    controlled = "return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"
    with Xvfb() as display:
        if "cold" in modes:
            for _ in range(runs):
                for name in names:
                    driver = new_driver(display)
                    try:
                        version = driver.capabilities.get("browserVersion", version)
                        out["cold"][name].append(_log("webkit cold", name, _wk_load(driver, urls[name], timeout_ms)))
                    finally:
                        driver.quit()
        if "sw" in modes or "offline" in modes:
            driver = new_driver(display)
            servers = [s for s in (server, base_server) if s]
            try:
                version = driver.capabilities.get("browserVersion", version)
                _wk_saved_match(driver, server.url, timeout_ms)
                _wk_wait(driver, controlled, "the service worker controlling the page", timeout_ms / 1000)
                # the bare page's own files, into the game's cache: the worker serves both
                driver.execute_async_script("""const [files, done] = arguments;
                    (async () => {
                      const name = (await caches.keys()).find(n => n.startsWith('domino-'));
                      await (await caches.open(name)).addAll(files.map(f => new URL(f, document.baseURI).href));
                    })().then(() => done('ok'), (e) => done(String(e)));""", BARE_FILES)
                if base_server:
                    # the tree before, on its own origin: its own worker and saved match
                    _wk_saved_match(driver, base_server.url, timeout_ms)
                    _wk_wait(driver, controlled, "the base's service worker controlling its page", timeout_ms / 1000)
                for name in names:
                    _wk_load(driver, urls[name], timeout_ms)
                for mode in ("sw", "offline"):
                    if mode not in modes:
                        continue
                    if mode == "offline":
                        for s in servers:
                            s.stop()
                    try:
                        for _ in range(runs):
                            # offline, a page of the other origin (the base) does not come up in the
                            # same WebKit session (seen: never ready in 90 s; each alone does): not measured
                            for name in names if mode == "sw" else ("index", "bare"):
                                out[mode][name].append(_log("webkit " + mode, name,
                                                            _wk_load(driver, urls[name], timeout_ms)))
                    finally:
                        if mode == "offline":
                            for s in servers:
                                s.start()
            finally:
                driver.quit()
    return {"browser": f"WebKitGTK {version}", **summary({"loads": out, "traces": traces})}


def _med(xs):
    xs = [x for x in xs if x is not None]
    return round(statistics.median(xs)) if xs else None


def ratios(index_ms: list, bare_ms: list) -> dict:
    """The game's ready time over the bare page's, run by run (the loads are interleaved,
    so each pair saw the same machine): the median ratio, its spread (lowest, highest)
    and every one."""
    each = [round(i / b, 3) for i, b in zip(index_ms, bare_ms) if i and b]
    if not each:
        return {}
    return {"ready_ratio": round(statistics.median(each), 3), "ready_ratio_spread": [min(each), max(each)],
            "all_ready_ratios": each}


def summary(results: dict) -> dict:
    table = {}
    for mode, pages in results["loads"].items():
        row = {}
        for name, loads in pages.items():
            if not loads:
                continue
            row[name] = {
                "painted_ms": _med([x["painted"] for x in loads]) if name != "bare" else None,
                # the first frame painted with the snapshot (or the first screen) in the page
                "visible_ms": _med([max(x["painted"], x["fcp"] or 0) for x in loads
                                    if x["painted"] is not None]) if name != "bare" else None,
                "fcp_ms": _med([x["fcp"] for x in loads]),
                # the screen accepts input (a first visit: the pre-built new-game screen)
                "usable_ms": _med([x.get("usable") for x in loads]) if name != "bare" else None,
                "ready_ms": _med([x["ready"] for x in loads]),
                "snapshot": sorted({str(x["snapshot"]) for x in loads}) if name != "bare" else None,
                # static/pyodide.mjs called by PyScript / the runtime it returned is up (wasm compiled,
                # interpreter started): what PyScript does after it is its own Python set-up
                "runtime_asked_ms": _med([x["marks"].get("runtime-asked") for x in loads]) if name != "bare" else None,
                "runtime_up_ms": _med([x["marks"].get("runtime-up") for x in loads]) if name != "bare" else None,
                # the interpreter is up (py:ready) / the app starts (package imported)
                "py_ready_ms": _med([x["marks"].get("py-ready") for x in loads]) if name != "bare" else None,
                "app_start_ms": _med([x["marks"].get("start") for x in loads]) if name != "bare" else None,
                # the runtime's 10 MB wasm: when the page asked for it, and when it had it (resource timing;
                # its compile starts then: the earlier, the sooner a page can be ready)
                "wasm_start_ms": _med([(x.get("wasm") or {}).get("start") for x in loads]),
                "wasm_fetched_ms": _med([(x.get("wasm") or {}).get("end") for x in loads]),
                "all_painted_ms": [round(x["painted"]) for x in loads if x["painted"] is not None],
                "all_ready_ms": [round(x["ready"]) for x in loads],
                "all_usable_ms": [round(x["usable"]) for x in loads if x.get("usable") is not None]
                if name != "bare" else None,
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
            row.update(ratios(row["index"]["all_ready_ms"], row["bare"]["all_ready_ms"]))
        if "base" in row and "bare" in row:
            row["base"].update(ratios(row["base"]["all_ready_ms"], row["bare"]["all_ready_ms"]))
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
    ap.add_argument("--base", metavar="DIR", help="also load DIR's game (another checkout, set up by its "
                    "scripts/setup), served on its own port, interleaved with the others as page 'base'")
    ap.add_argument("--engine", choices=["chromium", "webkit", "both"], default="chromium",
                    help="webkit: WebKitGTK (modes cold, sw, offline); both: Chromium, then WebKit")
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
    report: dict = {"runs": args.runs}
    if args.engine in ("chromium", "both"):
        report["chromium"] = run_chromium(args, modes, network)
    if args.engine in ("webkit", "both"):
        if network:
            sys.exit("--latency is Chromium's network emulation: not with --engine webkit")
        started = time.time()
        with DevServer(cache_control="max-age=600") as server, \
                (DevServer(args.base, cache_control="max-age=600") if args.base else contextlib.nullcontext()) as base:
            wk = run_webkit(server, args.runs, [m for m in modes if m in WEBKIT_MODES], int(args.timeout * 1000),
                            base)
        report["webkit"] = {"loadavg_at_end": _loadavg(), "seconds": round(time.time() - started), **wk}
    if args.engine == "chromium":
        chromium = report.pop("chromium")
        report = {**report, **chromium}   # the output as it always was
    elif args.engine == "both":
        report["ready_ms_chromium_webkit"] = {
            mode: {name: [report["chromium"].get(mode, {}).get(name, {}).get("ready_ms"),
                          report["webkit"][mode][name]["ready_ms"]] for name in ("index", "bare")}
            for mode in WEBKIT_MODES if mode in report["webkit"]}
    print(json.dumps(report, indent=2))


def _loadavg():
    try:
        return os.getloadavg()
    except OSError:
        return None


def run_chromium(args, modes: list[str], network: dict | None) -> dict:
    executable = find_chromium()
    if not executable:
        sys.exit("no Chromium found: run scripts/setup")
    started = time.time()
    with DevServer(cache_control="max-age=600") as server, sync_playwright() as p, \
            tempfile.TemporaryDirectory(prefix="domino-bench-") as tmp, \
            (DevServer(args.base, cache_control="max-age=600") if args.base else contextlib.nullcontext()) as base:
        bench = Bench(p, executable, tmp, server, int(args.timeout * 1000), network, base)
        results = run(bench, args.runs, args.trace_runs, modes)
        probe, _ = bench.context()
        version = probe.browser.version if probe.browser else "?"
        probe.close()
    return {"trace_runs": args.trace_runs, "browser": version, "network": network,
            "loadavg_at_end": _loadavg(), "seconds": round(time.time() - started), **summary(results)}


if __name__ == "__main__":
    main()
