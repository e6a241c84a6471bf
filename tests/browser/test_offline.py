"""Offline play through the service worker (sw.js + static/precache.js).

The site really goes away (site.stop()): Playwright's offline switch does not
cover service-worker fetches. Each test has its own browser context.
"""
from __future__ import annotations

import pytest

import re
import tomllib
from pathlib import Path

from pwa_helpers import (PERSIST_SPY, hand_tiles, play_hand, start_vs_computer,
                         sw_version, wait_controlled)

ROOT = Path(__file__).resolve().parents[2]
QUERY = "index.html?seed=7&delay=0"


def _check_precache_list(page, site) -> None:
    """Every file fetched on the first visit is in the precache list, and the
    list holds the app and the whole vendored runtime (no source maps)."""
    listed = set(page.evaluate("""async () => {
        const text = await (await fetch('static/precache.js')).text();
        const data = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));
        return data.files.map(f => f.url);
    }"""))
    fetched = {p.split("?")[0][len(site.prefix):] for p in site.request_paths()}
    fetched -= {"", "sw.js", "static/precache.js"}
    assert fetched - listed == set(), f"loaded but not precached: {sorted(fetched - listed)}"
    vendor = {p.relative_to(ROOT).as_posix() for p in (ROOT / "static" / "vendor").rglob("*")
              if p.is_file() and not p.name.startswith(".") and p.suffix != ".map"}
    assert vendor - listed == set(), f"runtime files not precached: {sorted(vendor - listed)}"
    assert {"index.html", "manifest.webmanifest", "static/vendor/pyodide/LICENSE",
            "static/vendor/pyscript/LICENSE", "NOTICE.md"} <= listed
    assert "domino.zip" in listed   # the whole package (tests/test_pyscript_files.py)


@pytest.fixture
def browser_context_args(browser_context_args):
    """This module tests the service worker: allow it."""
    return {**browser_context_args, "service_workers": "allow"}


def test_offline_after_first_visit(page, context, site, wait_ready, assert_no_py_error):
    context.add_init_script(PERSIST_SPY)
    site.clear_requests()
    url = site.url + QUERY
    page.goto(url)
    wait_ready(page)
    # The loading screen showed real download progress of the runtime.  Its total comes from the
    # precache list, fetched beside the runtime: on a loaded machine it may land after the boot (a run
    # read 14,120,123 bytes loaded and no total yet at ready), so it is waited for.
    page.wait_for_function("Number(document.getElementById('loading-progress').dataset.total || 0) > 0",
                           timeout=30_000)
    loaded, total = page.evaluate("""() => {
        const el = document.getElementById('loading-progress');
        return [Number(el.dataset.loaded || 0), Number(el.dataset.total || 0)];
    }""")
    assert total > 5_000_000 and loaded > 0.9 * total, (loaded, total)
    wait_controlled(page)
    _check_precache_list(page, site)
    version = sw_version(page)
    assert version and re.fullmatch(r"[0-9a-f]{16}", version), version
    cache_names = page.evaluate("caches.keys()")
    assert f"domino-{version}" in cache_names, cache_names
    # It asks for persistent storage once the worker is active.
    page.wait_for_function("() => (window.__persistCalls || 0) >= 1", timeout=10_000)

    # A game in progress, saved by the UI.
    start_vs_computer(page)
    before = hand_tiles(page)
    assert before

    site.stop()
    page.reload()
    wait_ready(page)
    assert_no_py_error(page)
    page.wait_for_selector('[data-testid="board"]', timeout=10_000)
    assert hand_tiles(page) == before, "the saved game did not continue"
    play_hand(page)
    assert page.locator('[data-testid="hand-result"]').first.is_visible()

    # A brand-new tab, still with no server at all.
    tab = context.new_page()
    tab.goto(site.url)  # the manifest's start_url
    wait_ready(tab)
    assert_no_py_error(tab)
    assert tab.evaluate("!!navigator.serviceWorker.controller")
    tab.close()


def test_manifest_and_icons(page, site):
    page.goto(site.url + "manifest.webmanifest")
    manifest = page.evaluate("JSON.parse(document.body.innerText)")
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"]
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        resp = page.request.get(site.url + icon["src"])
        assert resp.ok and resp.headers["content-type"] == "image/png"
        w, h = (int(x) for x in icon["sizes"].split("x"))
        body = resp.body()
        assert body[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(body[16:20], "big") == w and int.from_bytes(body[20:24], "big") == h


# Anything that would resolve to the origin's root instead of the site's folder.
ABSOLUTE = re.compile(
    r"""(?:href|src|action|config|poster)\s*=\s*["']/(?!/)"""   # HTML attributes
    r"""|url\(\s*["']?/(?!/)"""                                  # CSS
    r"""|(?:fetch|importScripts|register)\(\s*["'`]/(?!/)"""     # JS
    r"""|["'](?:start_url|scope|src)["']\s*:\s*["']/(?!/)""")     # manifest


def test_no_absolute_urls():
    """The site works from any sub-path: no root-relative URLs in what is served."""
    files = [ROOT / "index.html", ROOT / "sw.js", ROOT / "manifest.webmanifest", ROOT / "pyscript.toml",
             *sorted((ROOT / "static").glob("*.*")), *sorted((ROOT / "static" / "bench").glob("*")),
             *sorted((ROOT / "domino").glob("*.py")), ROOT / "main.py"]
    bad = []
    for f in files:
        if not f.is_file():
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if ABSOLUTE.search(line):
                bad.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert not bad, "absolute URLs:\n" + "\n".join(bad)
    with open(ROOT / "pyscript.toml", "rb") as fh:
        cfg = tomllib.load(fh)
    assert not str(cfg.get("interpreter", "")).startswith("/")
