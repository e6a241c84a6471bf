"""Instant start: the saved screen is painted from the static page before
Python is up (static/boot.js, domino/app/snapshot.py), then taken over.

Each test is one page; reloads reuse its HTTP cache.
"""
from __future__ import annotations

import json

from pwa_helpers import PLAYABLE, hand_tiles, start_vs_computer

QUERY = "index.html?seed=7&delay=0"
KEY = "'domino:' + location.pathname + ':snapshot'"

# What the page looked like the moment the snapshot was painted (a mutation
# observer runs right after boot.js, long before Python), and any CSP report.
RECORDER = """
(() => {
  window.__csp = [];
  addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  new MutationObserver((_, obs) => {
    const html = document.documentElement;
    if (!html || html.dataset.painted !== '1' || window.__painted) return;
    const app = document.getElementById('app');
    const loading = document.getElementById('loading');
    const rect = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); };
    window.__painted = {
      at: performance.now(),
      ready: html.dataset.ready || null,
      snapshot: html.dataset.snapshot || null,
      inert: app.inert,
      opacity: Number(getComputedStyle(app).opacity),
      loader: getComputedStyle(loading).display !== 'none',
      hand: [...app.querySelectorAll('.hand .tile-btn')].map(e => e.getAttribute('aria-label')),
      handRects: [...app.querySelectorAll('.hand .tile-btn')].map(rect),
      board: [...app.querySelectorAll('.board g.tile')].map(e => e.getAttribute('data-tile')).sort(),
      boardRect: app.querySelector('.board') ? rect(app.querySelector('.board')) : null,
      handoff: !!app.querySelector('.overlay.opaque'),
      scores: (app.querySelector('.scores') || {}).textContent || null,
      actions: app.querySelectorAll('[data-action], [data-testid], [data-seq]').length,
    };
    obs.disconnect();
  }).observe(document, {attributes: true, subtree: true, childList: true, attributeFilter: ['data-painted']});
})();
"""

def _live(page) -> dict:
    return page.evaluate("""() => {
        const app = document.getElementById('app');
        const rect = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); };
        return {
          hand: [...app.querySelectorAll('.hand .tile-btn')].map(e => e.getAttribute('aria-label')),
          handRects: [...app.querySelectorAll('.hand .tile-btn')].map(rect),
          board: [...app.querySelectorAll('.board g.tile')].map(e => e.getAttribute('data-tile')).sort(),
          boardRect: app.querySelector('.board') ? rect(app.querySelector('.board')) : null,
          scores: (app.querySelector('.scores') || {}).textContent || null,
          seq: document.documentElement.dataset.seq,
        };
    }""")


def _stored_snapshot(page) -> dict:
    """Wait until the snapshot of the current position is stored; return it."""
    page.wait_for_function(f"""() => {{
        const s = localStorage.getItem({KEY});
        return !!s && JSON.parse(s).seq === Number(document.documentElement.dataset.seq);
    }}""", timeout=10_000)
    return json.loads(page.evaluate(f"localStorage.getItem({KEY})"))


def _idle(page) -> None:
    page.wait_for_function("document.documentElement.dataset.busy === '0'", timeout=20_000)


def test_reload_paints_the_saved_table_then_takes_it_over(page, context, site, wait_ready, assert_no_py_error):
    context.add_init_script(RECORDER)
    context.add_init_script(LOADER_ANIMATIONS)
    page.goto(site.url + QUERY)
    wait_ready(page)
    # the page forbids inline script (the painter is a file): it runs under that policy
    csp = page.evaluate("""() => (document.querySelector('meta[http-equiv="Content-Security-Policy"]')
                                  || {}).content || ''""")
    script_src = next((d for d in csp.split(";") if d.strip().startswith("script-src")), "")
    assert script_src and "'unsafe-inline'" not in script_src, csp
    start_vs_computer(page)
    page.locator(PLAYABLE).first.click()   # a move, so the board has tiles
    _idle(page)
    page.wait_for_selector(PLAYABLE)
    before = _live(page)
    assert before["board"] and before["hand"]
    snap = _stored_snapshot(page)
    assert snap["screen"] == "table"

    page.reload()
    wait_ready(page)
    assert_no_py_error(page)
    painted = page.evaluate("window.__painted")
    # the snapshot was on screen before Python was up, dimmed, inert, loader on top
    assert painted["snapshot"] == "painted" and painted["ready"] is None, painted
    assert painted["inert"] and painted["opacity"] < 1 and painted["loader"], painted
    # the small loader on the painted table: its tiles tip, in steps
    _assert_loops_in_steps(page, "tip")
    assert painted["actions"] == 0, "the snapshot kept handlers' or tests' hooks"
    # ... showing the position left, where the live table then is
    assert painted["hand"] == before["hand"] and painted["board"] == before["board"]
    assert painted["scores"] == before["scores"]
    after = _live(page)
    assert after["seq"] == before["seq"] and hand_tiles(page)
    assert after["hand"] == before["hand"] and after["board"] == before["board"]
    # nothing moved at the take-over
    assert painted["handRects"] == after["handRects"] and painted["boardRect"] == after["boardRect"]
    assert page.evaluate("document.documentElement.dataset.painted") == "1"
    assert not page.evaluate("document.getElementById('app').inert")
    assert page.evaluate("getComputedStyle(document.getElementById('loading')).display") == "none"
    assert page.evaluate("window.__csp") == []
    # the live table plays on
    page.locator(PLAYABLE).first.click()
    page.wait_for_function(f"document.documentElement.dataset.seq !== '{before['seq']}'")
    assert page.evaluate("document.documentElement.hasAttribute('data-snapshot')") is False


def test_hot_seat_snapshot_is_the_hand_off_screen(page, context, site, wait_ready, assert_no_py_error):
    context.add_init_script(RECORDER)
    page.goto(site.url + QUERY)
    wait_ready(page)
    page.wait_for_selector('[data-testid="new-game"]')
    page.select_option('[data-testid="players"]', "2")
    page.select_option('[data-testid="seat-kind-1"]', "human")
    page.locator('[data-testid="start"]').click()
    page.locator('[data-testid="handoff-continue"]').click()
    page.wait_for_selector(PLAYABLE)
    first = hand_tiles(page)
    page.locator(PLAYABLE).first.click()               # player 1 moves ...
    page.locator('[data-testid="handoff-continue"]').click()
    page.wait_for_selector(PLAYABLE)                    # ... player 2's tiles are on screen
    second = hand_tiles(page)
    snap = _stored_snapshot(page)
    text = json.dumps(snap)
    assert snap["screen"] == "handoff"
    assert "tile-btn" not in text
    # no tile of either hand anywhere in it (only the board's, which are public)
    hidden = (set(first) - set(_live(page)["board"])) | set(second)
    tree = json.dumps(snap["tree"])
    assert hidden and not [tile for tile in hidden if tile in tree]

    page.reload()
    wait_ready(page)
    assert_no_py_error(page)
    painted = page.evaluate("window.__painted")
    assert painted["snapshot"] == "painted" and painted["ready"] is None
    assert painted["handoff"] and painted["hand"] == []
    # live: the same hand-off screen, for the player to move
    assert page.locator('[data-testid="handoff"]').is_visible()
    assert hand_tiles(page) == []


BAD = {
    "corrupt": "{\"format\": \"domino-snapshot/1\", \"tree\": [",
    "oversized": json.dumps({"format": "domino-snapshot/1", "screen": "lobby", "lang": "en", "title": "x",
                             "seq": 0, "tree": ["div", {"class": "pad"}, ["x" * 300_000]]}),
    "script": json.dumps({"format": "domino-snapshot/1", "screen": "lobby", "lang": "en", "title": "x",
                          "seq": 0, "tree": ["div", {}, [["img", {"onerror": "window.__pwned = 1", "src": "x"}, []],
                                                         ["script", {}, ["window.__pwned = 1"]]]]}),
}


def test_corrupt_or_oversized_snapshot_is_ignored(page, site, wait_ready, assert_no_py_error):
    page.goto(site.url + QUERY)
    wait_ready(page)
    for name, text in BAD.items():
        page.evaluate(f"(t) => localStorage.setItem({KEY}, t)", text)
        page.reload()
        wait_ready(page)
        assert_no_py_error(page)
        state = page.evaluate("""() => ({
            boot: window.dominoBoot.snapshot, pwned: window.__pwned || null,
            painted: document.documentElement.dataset.painted || null,
            snapshot: document.documentElement.dataset.snapshot || null,
            inert: document.getElementById('app').inert})""")
        assert state["boot"].startswith("ignored"), (name, state)
        assert state["pwned"] is None and state["snapshot"] is None and not state["inert"], (name, state)
        assert state["painted"] == "1", name    # by Python: the first real screen
        assert page.locator('[data-testid="new-game"]').is_visible(), name
        # and Python has stored a good one again
        page.wait_for_function(f"() => (localStorage.getItem({KEY}) || '').startsWith('{{\"format\"')")


LOADER_ANIMATIONS = """
(() => {
  // every text the loader shows, from the first (set by boot.js before
  // DOMContentLoaded, so watched from the start of the document)
  window.__words = [];
  new MutationObserver(() => {
    const el = document.getElementById('loading-progress');
    const w = el && el.textContent;
    if (w && w !== window.__words[window.__words.length - 1]) window.__words.push(w);
  }).observe(document, {childList: true, characterData: true, subtree: true});
  document.addEventListener('DOMContentLoaded', () => {
    const loading = document.getElementById('loading');
    // a first visit's new-game screen already up (static/first.js): the loader is a strip, without the tiles
    window.__strip = document.documentElement.dataset.first === '1';
    window.__loader = document.getAnimations()
      .filter(a => a.effect && loading.contains(a.effect.target))
      .map(a => ({
        type: a.constructor.name, name: a.animationName || null, state: a.playState,
        props: [...new Set(a.effect.getKeyframes().flatMap(k => Object.keys(k)))]
          .filter(p => !['offset', 'computedOffset', 'easing', 'composite'].includes(p)),
      }));
  });
  // every animation that loops while the runtime starts, on the whole page, seen as the page is
  // parsed and as the interpreter comes up: the timing of each of its keyframes
  window.__looping = {};
  const looping = () => document.getAnimations()
    .filter(a => a.effect && a.effect.getTiming().iterations === Infinity && a.playState === 'running')
    .forEach(a => {
      const t = a.effect.target;
      const who = (a.animationName || a.constructor.name) + ' on ' + (t.id || t.className || t.tagName);
      window.__looping[who] = a.effect.getKeyframes().slice(0, -1).map(k => k.easing);
    });
  document.addEventListener('DOMContentLoaded', looping);
  addEventListener('py:ready', looping);
})();
"""


def _assert_loops_in_steps(page, expected: str) -> None:
    """Every animation that looped while the runtime started (LOADER_ANIMATIONS) moved in steps,
    ``expected`` among them."""
    looping = page.evaluate("window.__looping")
    assert any(name.startswith(expected + " ") for name in looping), looping
    smooth = {name: easings for name, easings in looping.items()
              if not easings or not all(e.startswith("steps(") for e in easings)}
    assert smooth == {}, f"animations looping smoothly while the runtime starts: {smooth}"


def test_loader_moves_with_css_animations_only(page, context, site, wait_ready, assert_no_py_error):
    context.add_init_script(LOADER_ANIMATIONS)
    page.goto(site.url + "index.html")
    wait_ready(page)
    assert_no_py_error(page)
    anims = page.evaluate("window.__loader")
    names = {a["name"] for a in anims}
    assert ({"sweep"} if page.evaluate("window.__strip") else {"tip", "sweep"}) <= names, anims
    for a in anims:
        # CSS animations of transform/opacity only: the compositor runs them
        assert a["type"] == "CSSAnimation" and a["state"] == "running", a
        assert set(a["props"]) <= {"transform", "opacity"}, a
    # ... and in steps, a few frames a second: a smooth loop is sixty frames a second to composite,
    # which the CPU does where there is no GPU path (WebKitGTK here): it took a core from the
    # runtime's start, which came seconds later (scripts/bench_boot.py --engine webkit)
    _assert_loops_in_steps(page, "sweep")
    # what index.html preloads is fetched once (the runtime reuses the preloaded response)
    fetched = page.evaluate("""() => performance.getEntriesByType('resource').map(e => e.name.split('?')[0])""")
    preloads = page.evaluate("""() => [...document.querySelectorAll('link[rel=preload], link[rel=modulepreload]')]
        .map(l => l.href)""")
    assert len(preloads) >= 4
    for url in preloads:
        assert fetched.count(url) == 1, (url, fetched.count(url))
    # the words said what was happening
    words = page.evaluate("window.__words")
    assert any(("Downloading the game" in w or "Starting Python" in w) for w in words), words
    assert words[-1] in ("Setting the table…", "Preparando la mesa…"), words


def test_the_package_runs_from_its_shipped_bytecode(page, site, wait_ready, assert_no_py_error):
    """domino.zip carries the package's .pyc, compiled by this very runtime
    (scripts/build_zip.py): no module is compiled from source at boot."""
    page.goto(site.url + QUERY)
    wait_ready(page)
    page.wait_for_function("document.documentElement.dataset.bytecode !== undefined", timeout=20_000)
    assert page.evaluate("document.documentElement.dataset.bytecode") == "shipped"
    assert_no_py_error(page)
