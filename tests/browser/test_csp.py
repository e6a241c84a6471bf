"""The page runs under its Content-Security-Policy (no inline script or style,
nothing but its own files, 'unsafe-eval' / 'wasm-unsafe-eval' for the runtime
only), the service worker included; and the update banner covers nothing and
can be put off until the next visit."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from pwa_helpers import start_vs_computer, wait_controlled

ROOT = Path(__file__).resolve().parents[2]

# every violation the page meets is written down here (before any page script runs)
SPY = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber);
});
"""


def _policy() -> dict[str, list[str]]:
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert m, "index.html has no CSP meta tag"
    # it comes before every script and stylesheet, or it would not cover them
    assert m.start() < html.index("<link rel=\"stylesheet\"") and m.start() < html.index("<script")
    return {d.split()[0]: d.split()[1:] for d in m.group(1).split(";") if d.strip()}


def test_policy_is_tight():
    p = _policy()
    assert p["object-src"] == ["'none'"] and p["base-uri"] == ["'none'"]
    assert p["default-src"] == ["'self'"]
    assert sorted(p["script-src"]) == sorted(["'self'", "'unsafe-eval'", "'wasm-unsafe-eval'"])
    assert p["style-src"] == ["'self'"]
    everything = " ".join(v for vs in p.values() for v in vs)
    for broad in ("'unsafe-inline'", "*", "http:", "https:", "'strict-dynamic'"):
        assert broad not in everything.split(), broad
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>\s*\S", html), "inline script in index.html"
    assert "<style" not in html and " style=" not in html
    assert "style.cssText" not in (ROOT / "static/sw-register.js").read_text(encoding="utf-8")


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "service_workers": "allow"}


def test_app_and_service_worker_run_under_the_policy(page, site, wait_ready, assert_no_py_error):
    page.add_init_script(SPY)
    page.goto(site.url + "index.html?seed=3&delay=0")
    wait_ready(page)
    start_vs_computer(page)
    page.locator('[data-testid="help"]').first.click()
    page.locator('[data-action="help-close"]').first.click()
    wait_controlled(page)            # the service worker installed and took control
    page.reload()                    # served by the worker, under the same policy
    wait_ready(page)
    page.wait_for_selector('[data-testid="board"]')
    assert_no_py_error(page)
    assert page.evaluate("window.__cspViolations") == []


TARGETS = ".topbar button, .hand button[data-tile], [data-testid='board'], [data-testid='scores']"


def _overlaps(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
                or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5)


def _banner_problems(page, banner, size) -> list:
    """What the update banner covers or pushes off the screen (nothing: [])."""
    bb = banner.bounding_box()
    problems = [] if bb["y"] >= -1 and bb["y"] + bb["height"] <= size[1] else [("banner off screen", bb)]
    loc = page.locator(TARGETS)
    if loc.count() < 5:
        problems.append(("fewer than 5 targets", loc.count()))
    for i in range(loc.count()):
        box = loc.nth(i).bounding_box()
        if box is None:
            problems.append(("not laid out", i))
        elif _overlaps(bb, box):
            problems.append(("covered", i, bb, box))
        elif box["y"] + box["height"] > size[1] + 1:
            problems.append(("pushed off screen", i, box))
    return problems


@pytest.mark.parametrize("size", [(390, 844), (844, 390), (1280, 720)], ids=["phone", "landscape", "laptop"])
def test_update_banner_covers_nothing_and_can_wait(page, site, wait_ready, assert_no_py_error, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(site.url + "index.html?seed=5&delay=0")
    wait_ready(page)
    start_vs_computer(page)
    page.evaluate("window.dominoSW.showUpdate()")
    banner = page.locator('[data-testid="update-banner"]')
    banner.wait_for()
    page.wait_for_function("getComputedStyle(document.documentElement).getPropertyValue('--update-h') !== ''")
    # the board redraws for its new size a frame or a few later (more on a busy machine)
    deadline = time.monotonic() + 10
    while (problems := _banner_problems(page, banner, size)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not problems, problems
    # "later": gone until the next visit, and the table gets its room back
    page.locator('[data-testid="update-later"]').click()
    assert banner.count() == 0
    page.evaluate("window.dominoSW.showUpdate()")
    assert banner.count() == 0
    page.reload()
    wait_ready(page)
    page.evaluate("window.dominoSW.showUpdate()")
    banner.wait_for()
    assert_no_py_error(page)
