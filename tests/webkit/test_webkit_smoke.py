"""Safari's engine: the game in WebKit (WebKitGTK's MiniBrowser, through
Selenium's WebKitGTK driver, on a private Xvfb display: scripts/webkit.py).

Every iPhone browser runs WebKit.  One MiniBrowser session per worker serves
these tests in order (a first visit, a hand and a reload, storage full, offline);
a test that finds the session used by another where it needs a fresh one starts
a new one.  The site is served by scripts/devserver.py under /domino/, from a
server of this module's own that can hold the runtime's wasm back (to act before
Python is up, deterministically) and be stopped (offline).

Skipped, with the reason, only where WebKitWebDriver is not installed
(scripts/setup installs Debian's webkit2gtk-driver and xvfb).
"""
from __future__ import annotations

import os
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))
from devserver import DevServer  # noqa: E402
from webkit import Xvfb, find_webkit_driver, navigate, new_driver  # noqa: E402

from outcomes import did_fail  # noqa: E402
from domino.app import saves, storage  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(find_webkit_driver() is None,
                       reason="WebKitWebDriver not installed (scripts/setup installs Debian's webkit2gtk-driver)"),
    pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning"),   # Selenium's own call
]

QUERY = "index.html?seed=7&delay=0"
PATH = "/domino/"
READY_S = 120       # a cold WebKit boot is ~7 s on a quiet 2-core machine; far more with both cores busy
PLAYABLE = 'button[data-tile]:not([aria-disabled="true"]):not([disabled])'
# No optimising tier for WebAssembly (JavaScriptCore's OMG; like the Chromium tests' Liftoff
# only): a cold boot took 6-15 s instead of 20-33 s with both cores busy (its background
# compiles take the CPU the boot needs).  The same code runs, only its machine code differs.
# DOMINO_TEST_JSC_OPTIONS="" turns it off.
JSC_OPTIONS = os.environ.get("DOMINO_TEST_JSC_OPTIONS", "useOMGJIT=false")


# ------------------------------------------------------------------ the site
class HeldSite:
    """The repository under /domino/ (scripts/devserver.py), whose answer to the
    runtime's wasm waits while ``hold()`` is on."""

    def __init__(self):
        self.server = DevServer(root=str(ROOT), port=0, prefix=PATH)
        self.let_go = threading.Event()
        self.let_go.set()
        self.wasm_asked = threading.Event()
        base, site = self.server._handler, self   # the handler class DevServer.start() serves with

        def do_GET(handler):  # noqa: N802
            if urllib.parse.urlsplit(handler.path).path.endswith("/pyodide.asm.wasm"):
                site.wasm_asked.set()
                site.let_go.wait(timeout=300)
            base.do_GET(handler)

        self.server._handler = type("HeldHandler", (base,), {"do_GET": do_GET})

    def hold(self) -> None:
        self.wasm_asked.clear()
        self.let_go.clear()

    def release(self) -> None:
        self.let_go.set()

    @property
    def url(self) -> str:
        return self.server.url


@pytest.fixture(scope="module")
def site():
    held = HeldSite()
    held.server.start()
    yield held
    held.release()
    held.server.stop()


# ------------------------------------------------------------------ the browser
class WebKit:
    """This worker's MiniBrowser session (made on first use, made again by fresh())."""

    def __init__(self, display: str):
        self.display = display
        self._driver = None
        self.used = False

    @property
    def driver(self):
        if self._driver is None:
            self._driver = new_driver(self.display, jsc_options=JSC_OPTIONS)
            self.used = False
        return self._driver

    def fresh(self):
        """A new session: empty cache, storage and service workers (a first visit)."""
        self.close()
        return self.driver

    def close(self) -> None:
        driver, self._driver = self._driver, None
        if driver is not None:
            try:
                driver.quit()
            except Exception:
                pass


@pytest.fixture(scope="module")
def webkit():
    with Xvfb() as display:
        wk = WebKit(display)
        try:
            yield wk
        finally:
            wk.close()


def _session(webkit, site, request, fresh: bool):
    drv = webkit.fresh() if fresh and webkit.used else webkit.driver
    webkit.used = True
    yield drv
    site.release()
    if not site.server.running:
        site.server.start()
    if did_fail(request.node):
        webkit.close()   # a failed test's session is not to be trusted: the next one starts clean


@pytest.fixture
def driver(webkit, site, request):
    """The worker's session, as the previous test left it."""
    yield from _session(webkit, site, request, fresh=False)


@pytest.fixture
def fresh_driver(webkit, site, request):
    """A session that has never seen the site (a new one if this one has)."""
    yield from _session(webkit, site, request, fresh=True)


# ------------------------------------------------------------------ helpers
def js(driver, script: str, *args):
    return driver.execute_script(script, *args)


def py_errors(driver) -> list[str]:
    try:
        return js(driver, "return [...document.querySelectorAll('.py-error')].map(e => e.innerText)")
    except Exception as exc:
        return [f"<could not read .py-error: {exc}>"]


def no_py_error(driver) -> None:
    errors = py_errors(driver)
    assert not errors, "PyScript error(s) on the page:\n" + "\n---\n".join(errors)


def wait_for(driver, script: str, what: str, timeout_s: float = 20, *args):
    """Poll ``script`` (a JS function body) until it returns something truthy; fail naming ``what``."""
    deadline = time.monotonic() + timeout_s
    last_exc = None
    while True:
        try:
            value = js(driver, script, *args)
            if value:
                return value
            last_exc = None
        except Exception as exc:   # a navigation in progress
            last_exc = exc
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout_s} s (py-errors: {py_errors(driver) or 'none'}"
                                 + (f"; last error: {last_exc}" if last_exc else "") + ")")
        time.sleep(0.05)


def wait_ready(driver, timeout_s: float = READY_S) -> None:
    wait_for(driver, "return document.documentElement.dataset.ready === '1'",
             'the page becoming ready (html[data-ready="1"])', timeout_s)
    rescue = js(driver, "return (document.querySelector('[data-testid=\"boot-error\"]') || {}).innerText || null")
    assert rescue is None, f"the boot ended on the rescue screen: {rescue}"
    no_py_error(driver)


def idle(driver, timeout_s: float = 30) -> None:
    wait_for(driver, "return document.documentElement.dataset.busy === '0'", "the app going idle (data-busy=0)",
             timeout_s)


def seq(driver) -> int:
    return int(js(driver, "return document.documentElement.dataset.seq"))


def tid(driver, name: str):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{name}"]')


def count(driver, selector: str) -> int:
    return js(driver, "return document.querySelectorAll(arguments[0]).length", selector)


def choose(driver, name: str, *, value: str | None = None, index: int | None = None) -> None:
    """Pick an option of the <select> data-testid=name, as a player does (the option is clicked)."""
    from selenium.webdriver.support.select import Select
    sel = Select(tid(driver, name))
    if value is not None:
        sel.select_by_value(value)
    else:
        sel.select_by_index(index)


def value_of(driver, name: str) -> str:
    return js(driver, "return document.querySelector(`[data-testid=\"${arguments[0]}\"]`).value", name)


def outside_requests(driver) -> list[str]:
    """Resources the page loaded from anywhere but this site (must stay empty)."""
    return js(driver, """return performance.getEntriesByType('resource').map(e => e.name)
        .filter(u => !u.startsWith(location.origin + '/domino/') && !/^(data|blob|about):/.test(u))""")


def marks(driver) -> dict:
    return js(driver, """return Object.fromEntries(performance.getEntriesByType('mark')
        .filter(m => m.name.startsWith('domino:')).map(m => [m.name.slice(7), m.startTime]))""")


def goto(driver, url: str) -> None:
    """Load ``url``; back once the document is parsed (static/boot.js has run), before Python is up."""
    navigate(driver, lambda: driver.get(url), url)


def reload(driver) -> None:
    navigate(driver, driver.refresh, "the reload")


def ensure_app(driver, site) -> None:
    """The game up in the session, on this module's site."""
    healthy = False
    try:
        healthy = js(driver, """return location.href.startsWith(arguments[0])
            && document.documentElement.dataset.ready === '1' && typeof window.dominoReset === 'function'
            && !document.querySelector('.py-error')""", site.url)
    except Exception:
        pass
    if not healthy:
        goto(driver, site.url + QUERY)
        wait_ready(driver)


def restart(driver, query: str = "?delay=0&seed=7") -> None:
    """The app started again in place (domino/browser.py's reset), on the new-game screen."""
    js(driver, "localStorage.clear(); window.dominoReset(arguments[0], null)", query)
    idle(driver)
    wait_for(driver, "return !!document.querySelector('[data-testid=\"new-game\"]')", "the new-game screen")
    no_py_error(driver)


def start_vs_computer(driver) -> None:
    """From the new-game screen: Draw, 2 players, seat 2 the computer's first level; Start."""
    choose(driver, "game", value="draw")
    choose(driver, "players", value="2")
    choose(driver, "seat-kind-0", value="human")
    choose(driver, "seat-kind-1", index=1)
    tid(driver, "start").click()
    wait_for(driver, "return !!document.querySelector('[data-testid=\"board\"]')", "the table after Start")
    idle(driver)


LIVE = """const app = document.getElementById('app');
    return {hand: [...app.querySelectorAll('.hand .tile-btn')].map(e => e.getAttribute('aria-label')),
            board: [...app.querySelectorAll('.board g.tile')].map(e => e.getAttribute('data-tile')).sort(),
            scores: (app.querySelector('.scores') || {}).textContent || null,
            seq: document.documentElement.dataset.seq || null,
            ready: document.documentElement.dataset.ready || null,
            painted: document.documentElement.dataset.painted || null,
            inert: app.inert, opacity: Number(getComputedStyle(app).opacity)}"""

# What to tap next: ["over"] when the hand has ended, [] while the computer thinks,
# else [selector, element] (the pass-the-device button, a place, a playable tile, open, draw).
NEXT_TAP = """
const visible = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
const result = [...document.querySelectorAll('[data-testid="hand-result"]')].some(visible);
if (result) return ['over'];
if (document.documentElement.dataset.busy === '1') return [];
for (const sel of arguments[0]) {
  const e = [...document.querySelectorAll(sel)].find(visible);
  if (e) return [sel, e];
}
return [];"""
TAP_ORDER = ['[data-testid="handoff-continue"]', '[data-action="end"]', PLAYABLE, '[data-action="open"]',
             '[data-testid="draw"]']
CHANGED = """const [s, endsToo] = arguments; const d = document;
    return d.documentElement.dataset.seq !== s || !!d.querySelector('[data-testid="hand-result"]')
        || (endsToo && !!d.querySelector('[data-action="end"]'));"""


def play_hand(driver, timeout_s: float = 150) -> int:
    """Tap a playable tile (and its place), draw when there is none, until the hand's result shows."""
    taps = 0
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        before = js(driver, "return document.documentElement.dataset.seq")
        step = js(driver, NEXT_TAP, TAP_ORDER)
        if step and step[0] == "over":
            return taps
        if step:
            step[1].click()
            taps += 1
        end = time.monotonic() + 2
        while time.monotonic() < end and not js(driver, CHANGED, before, bool(step) and step[0] == PLAYABLE):
            time.sleep(0.03)   # the move lands, its places light up, or the computer answers
    raise AssertionError(f"the hand's result did not show within {timeout_s} s ({taps} taps; "
                         f"py-errors: {py_errors(driver) or 'none'})")


def human_move(driver) -> None:
    """The human plays (or draws), and the computer answers (tests/browser/test_reliable.py's)."""
    idle(driver)
    before = seq(driver)
    step = js(driver, NEXT_TAP, [PLAYABLE, '[data-testid="draw"]', '[data-testid="next-hand"]'])
    assert step and step[0] != "over", f"nothing to tap at seq {before}"
    step[1].click()
    if step[0] == PLAYABLE and seq(driver) == before and count(driver, '[data-action="end"]'):
        js(driver, "return document.querySelector('[data-action=\"end\"]')").click()
    wait_for(driver, "return +document.documentElement.dataset.seq > arguments[0] "
                     "|| !!document.querySelector('.overlay.safe')", f"a move after seq {before}", 10, before)
    idle(driver)


def stored_snapshot_is_current(driver) -> None:
    wait_for(driver, """const s = localStorage.getItem('domino:' + location.pathname + ':snapshot');
        return !!s && JSON.parse(s).seq === Number(document.documentElement.dataset.seq)
            && document.documentElement.dataset.busy === '0'""", "the snapshot of the position, stored")


def saved_seq(driver) -> int:
    """The seq of the match saved for this page (its key names the page's path)."""
    path = js(driver, "return location.pathname")
    return saves.load(js(driver, "return localStorage.getItem(arguments[0])", storage.key(path, storage.SAVE))).seq


FILL = """
// fill localStorage with other keys until the browser refuses (QuotaExceededError)
let n = 0, size = 1 << 20, refused = null;
while (size >= 1) {
  try { localStorage.setItem('filler:' + (n++), 'x'.repeat(size)); }
  catch (e) { refused = e.name; size = size >> 1; }
}
return refused;"""


# ------------------------------------------------------------------ the tests
def test_first_visit_is_usable_before_python_and_keeps_the_choices(fresh_driver, site):
    """An empty profile: the pre-built new-game screen takes choices while the runtime
    is held back; Python then takes it over keeping them, from this site's files only."""
    driver = fresh_driver
    site.hold()
    goto(driver, site.url + QUERY)
    wait_for(driver, "return document.documentElement.dataset.usable === '1'",
             'the first screen usable before Python (html[data-usable="1"])', 30)
    assert site.wasm_asked.wait(30), "the page never asked for the runtime's wasm"
    state = js(driver, """const h = document.documentElement;
        return {ready: h.dataset.ready || null, first: h.dataset.first || null,
                painted: h.dataset.painted || null, storage: localStorage.length}""")
    assert state["ready"] is None and state["first"] == "1", state
    assert state["storage"] == 0, "not a first visit: the session's storage was not empty"
    assert tid(driver, "new-game").is_displayed()
    # choices made before Python: a three-player All Fives with a hard computer in seat 3
    choose(driver, "game", value="all-fives")
    choose(driver, "players", value="3")
    assert count(driver, '[data-testid^="seat-kind-"]') == 3
    choose(driver, "seat-kind-2", value="hard")
    assert js(driver, "return document.documentElement.dataset.ready || null") is None, \
        "Python was up before the test let it"

    site.release()
    wait_ready(driver)
    assert js(driver, "return document.documentElement.dataset.first || null") is None
    assert (value_of(driver, "game"), value_of(driver, "players"), value_of(driver, "seat-kind-2")) == \
        ("all-fives", "3", "hard"), "a choice made before Python was lost at the take-over"
    m = marks(driver)
    assert m["usable"] < m["py-ready"] < m["ready"], m
    assert outside_requests(driver) == []
    no_py_error(driver)


def test_a_hand_by_tapping_and_a_reload_paints_the_saved_table(driver, site):
    ensure_app(driver, site)
    restart(driver)
    start_vs_computer(driver)
    human_move(driver)                      # a move, so the board has tiles
    wait_for(driver, f"return !!document.querySelector('{PLAYABLE}')", "a playable tile on the player's turn")
    stored_snapshot_is_current(driver)
    before = js(driver, LIVE)
    assert before["hand"] and before["board"], before

    reload(driver)   # back once parsed: static/boot.js has painted, Python is not up
    painted = js(driver, LIVE)
    assert painted["painted"] == "1" and painted["ready"] is None, painted
    assert painted["inert"] and painted["opacity"] < 1, "the painted table is not dimmed and inert"
    assert (painted["hand"], painted["board"], painted["scores"]) == \
        (before["hand"], before["board"], before["scores"]), "the painted table is not the one left"
    wait_ready(driver)
    after = js(driver, LIVE)
    assert (after["hand"], after["board"], after["seq"]) == (before["hand"], before["board"], before["seq"]), \
        "the saved match did not come back"
    assert js(driver, "return window.dominoBoot.snapshot") == "painted"
    assert not after["inert"]

    taps = play_hand(driver)
    assert taps > 0
    assert tid(driver, "hand-result").is_displayed()
    assert outside_requests(driver) == []
    no_py_error(driver)


def test_storage_full_tells_the_player_and_loses_no_move(driver, site):
    ensure_app(driver, site)
    restart(driver)
    start_vs_computer(driver)
    human_move(driver)
    assert saved_seq(driver) == seq(driver)
    try:
        assert js(driver, FILL) == "QuotaExceededError"
        js(driver, "localStorage.removeItem('domino:' + location.pathname + ':snapshot')")
        js(driver, FILL)
        for _ in range(6):      # the save grows with every move: it soon stops fitting
            human_move(driver)
            if count(driver, '[data-testid="save-error"]'):
                break
        err = tid(driver, "save-error")
        assert err.is_displayed() and "full" in err.text.lower(), err.text
        assert tid(driver, "download-match").is_displayed()   # the way out, offered at once
        tid(driver, "save-later").click()
    finally:
        js(driver, "Object.keys(localStorage).filter(k => k.startsWith('filler:'))"
                   ".forEach(k => localStorage.removeItem(k))")
    human_move(driver)          # room again: the next move saves every move
    assert saved_seq(driver) == seq(driver)
    assert "nothing was lost" in tid(driver, "safe-note").text
    no_py_error(driver)


def test_offline_after_a_visit_the_service_worker_serves_the_game(driver, site):
    ensure_app(driver, site)
    assert js(driver, "return !!navigator.serviceWorker"), "no navigator.serviceWorker in this WebKit"
    wait_for(driver, "return !!navigator.serviceWorker.controller",
             "the service worker controlling the page (its precache complete)", 90)
    restart(driver)
    start_vs_computer(driver)
    human_move(driver)
    stored_snapshot_is_current(driver)
    before = js(driver, LIVE)

    site.server.stop()
    try:
        reload(driver)
        wait_ready(driver)
        after = js(driver, LIVE)
        assert (after["hand"], after["board"], after["seq"]) == (before["hand"], before["board"], before["seq"])
        assert js(driver, "return !!navigator.serviceWorker.controller")
        human_move(driver)      # and it plays on
        assert outside_requests(driver) == []
        no_py_error(driver)
    finally:
        site.server.start()
