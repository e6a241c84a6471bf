"""The first visit: the new-game screen is usable before Python is up
(static/first.js, built by domino/app/first.py), Python takes it over
keeping every choice, and the loader's bar follows the download.

Each test is a first visit (a fresh context: empty cache and storage).  To
act "before data-ready" deterministically, the runtime's wasm is held back
(page.route) until the test lets it go: the page still loads only this
site's files.
"""
from __future__ import annotations

from a11y import axe_violations
from pwa_helpers import PLAYABLE

QUERY = "index.html?seed=7&delay=0"
ROOT_ATTRS = "(n) => document.documentElement.getAttribute(n)"

# Every value the bar took, every word the loader said, and the first
# screen's markup and element boxes the moment it became usable.
RECORDER = """
(() => {
  window.__values = []; window.__words = []; window.__csp = [];
  addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  new MutationObserver(() => {
    const bar = document.querySelector('[data-testid="boot-progress"]');
    const v = bar && bar.getAttribute('data-value');
    if (v !== null && v !== undefined && String(v) !== String(window.__values[window.__values.length - 1]))
      window.__values.push(Number(v));
    const w = (document.getElementById('loading-progress') || {}).textContent;
    if (w && w !== window.__words[window.__words.length - 1]) window.__words.push(w);
    const html = document.documentElement;
    if (html.dataset.usable === '1' && !window.__usable) {
      window.__usable = {at: performance.now(), ready: html.dataset.ready || null,
                         markup: document.getElementById('app').innerHTML};
    }
  }).observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
})();
"""

BOXES = """() => Object.fromEntries([...document.querySelectorAll('#app [data-testid]')]
    .filter(e => !e.closest('[data-testid="help-dialog"]') && e.getClientRects().length)
    .map(e => { const r = e.getBoundingClientRect();
                return [e.getAttribute('data-testid'), [r.x, r.y, r.width, r.height].map(Math.round)]; }))"""


class Held:
    """The runtime's wasm held back until release()."""

    def __init__(self, page):
        self.routes = []
        page.route("**/pyodide.asm.wasm", lambda route: self.routes.append(route))

    def release(self, page):
        for r in self.routes:
            r.continue_()
        page.unroute("**/pyodide.asm.wasm")   # a reload after this gets it at once


def _first_screen(page, context, site):
    context.add_init_script(RECORDER)
    held = Held(page)
    page.goto(site.url + QUERY)
    page.wait_for_selector('html[data-usable="1"]', state="attached", timeout=20_000)
    assert page.evaluate(ROOT_ATTRS, "data-ready") is None
    assert page.locator('[data-testid="new-game"]').is_visible()
    return held


def test_choices_made_before_python_survive_the_take_over(page, context, site, wait_ready, assert_no_py_error):
    held = _first_screen(page, context, site)
    assert page.evaluate(ROOT_ATTRS, "data-first") == "1"
    assert axe_violations(page) == []
    # the loader is a strip under the screen, not over the form
    strip = page.locator("#loading").bounding_box()
    viewport = page.viewport_size
    assert strip["y"] + strip["height"] >= viewport["height"] - 1 and strip["height"] < 120, strip
    # a new game shows its own form: Mexican Train has no target but rounds, up to 8 players
    page.select_option('[data-testid="game"]', "mexican-train")
    assert page.locator('[data-testid="target"]').count() == 0
    assert page.locator('[data-testid="players"] option').count() == 7
    assert "Mexican" in page.locator(".summary").first.inner_text()
    page.select_option('[data-testid="players"]', "3")
    assert page.locator('[data-testid^="seat-kind-"]').count() == 3
    page.select_option('[data-testid="seat-kind-2"]', "hard")
    page.select_option('[data-testid="game"]', "all-fives")   # back to a game with a target: its defaults
    assert page.locator('[data-testid="players"]').input_value() == "3"
    assert page.locator('[data-testid="seat-kind-2"]').input_value() == "hard"
    page.select_option('[data-testid="target"]', index=0)
    target = page.locator('[data-testid="target"]').input_value()
    page.locator('[data-testid="options-toggle"]').click()
    option = page.locator('[data-testid^="opt-"]').first
    opt_id = option.get_attribute("data-testid")
    opt_value = option.locator("option").last.get_attribute("value")
    option.select_option(opt_value)
    page.locator('[data-testid="practice"]').check()
    assert page.locator('[data-testid="lobby-code"][data-pending="1"]').count() == 1
    # the rules of the game chosen, before Python
    page.locator('[data-testid="help"]').click()
    assert "All Fives" in page.locator('[data-testid="help-dialog"]').inner_text()
    page.keyboard.press("Escape")
    assert page.locator('[data-testid="help-dialog"]').count() == 0
    name = page.locator('[data-testid="seat-name-0"]')
    name.fill("Ana María")
    name.evaluate("(e) => e.setSelectionRange(3, 3)")
    page.evaluate("scrollTo(0, 120)")
    scroll = page.evaluate("scrollY")
    before = page.evaluate(BOXES)
    assert page.evaluate(ROOT_ATTRS, "data-ready") is None, "Python was up before the test let it"

    held.release(page)
    wait_ready(page)
    assert_no_py_error(page)
    assert page.evaluate(ROOT_ATTRS, "data-first") is None
    # every choice kept, the focus and the caret in the name, the scroll where it was
    assert page.locator('[data-testid="game"]').input_value() == "all-fives"
    assert page.locator('[data-testid="players"]').input_value() == "3"
    assert page.locator('[data-testid="seat-kind-2"]').input_value() == "hard"
    assert page.locator('[data-testid="target"]').input_value() == target
    assert page.locator(f'[data-testid="{opt_id}"]').input_value() == opt_value
    assert page.locator('[data-testid="practice"]').is_checked()
    assert page.locator('[data-testid="options"]').get_attribute("open") is not None
    assert name.input_value() == "Ana María"
    assert page.evaluate("[document.activeElement.dataset.testid, document.activeElement.selectionStart]") \
        == ["seat-name-0", 3]
    assert page.evaluate("scrollY") == scroll
    # nothing moved at the take-over (the screen only loses the room kept under it for the loader)
    after = page.evaluate(BOXES)
    before["new-game"][3] = after["new-game"][3]
    # an option changed: the table code was pending, and only Python's code line is of another width
    before["lobby-toggle"][0::2] = after["lobby-toggle"][0::2]
    moved = {k: (before[k], after.get(k)) for k in before if before[k] != after.get(k)}
    assert moved == {}, moved
    # the bar only grew, said the bytes in words, and ended at 100
    values = page.evaluate("window.__values")
    assert values == sorted(values) and values[-1] == 100 and values[0] < 90, values
    assert len(set(values)) >= 4, values
    words = page.evaluate("window.__words")
    assert any("Downloading the game, " in w and " of " in w and "only this once" in w for w in words), words
    assert page.evaluate("window.__csp") == []
    # the live screen plays what was chosen
    page.locator('[data-testid="start"]').click()
    page.wait_for_selector('[data-testid="board"]')
    assert page.locator('[data-testid^="seat-"]').filter(has_text="Ana María").count() >= 1


def test_a_start_tapped_early_begins_the_match_once(page, context, site, wait_ready, assert_no_py_error):
    held = _first_screen(page, context, site)
    page.select_option('[data-testid="game"]', "block")
    page.select_option('[data-testid="players"]', "3")
    page.locator('[data-testid="seat-name-0"]').fill("Rosa")
    page.locator('[data-testid="start"]').click()
    assert page.evaluate(ROOT_ATTRS, "data-start-pending") == "1"
    note = page.locator('[data-testid="start-pending"]')
    assert note.is_visible() and "as soon as" in note.inner_text()
    page.locator('[data-testid="quick-play"]').click()   # impatient: a second tap is still one start
    held.release(page)
    wait_ready(page)
    page.wait_for_selector('[data-testid="board"]', timeout=20_000)   # with no further input
    assert_no_py_error(page)
    assert page.evaluate(ROOT_ATTRS, "data-start-pending") is None
    assert page.locator('[data-testid="replace-dialog"]').count() == 0
    page.wait_for_function("document.documentElement.dataset.busy === '0'", timeout=20_000)
    match = page.evaluate("""() => {
        const save = JSON.parse(localStorage.getItem('domino:' + location.pathname + ':save'));
        return JSON.stringify(save);
    }""")
    assert '"block"' in match and "Rosa" in match, match[:400]
    assert page.locator('[data-testid^="seat-"]').filter(has_text="Rosa").count() >= 1
    assert page.locator(PLAYABLE).count() >= 0


def test_the_pre_built_screen_is_the_live_one(page, context, site, wait_ready, assert_no_py_error):
    context.add_init_script(RECORDER)
    page.goto(site.url + QUERY)
    wait_ready(page)
    assert_no_py_error(page)
    usable = page.evaluate("window.__usable")
    assert usable["ready"] is None, "usable only when Python was up"
    live = page.evaluate("document.getElementById('app').innerHTML")
    assert usable["markup"] == live
    # a returning visit: no pre-built screen (the snapshot), usable with Python
    page.reload()
    wait_ready(page)
    assert page.evaluate("window.dominoFirst.painted") is False
    assert page.evaluate(ROOT_ATTRS, "data-usable") == "1"
    assert page.evaluate("window.__usable.ready") == "1"


# What the new-game screen says that follows its fields: the names' placeholders,
# the one line by Play, the options' badge and the table code (or that it is pending).
TEXTS = """() => {
    const q = (s) => document.querySelector(s);
    const box = q('[data-testid="lobby-code"]');
    return {placeholders: [...document.querySelectorAll('[data-testid^="seat-name-"]')].map(e => e.placeholder),
            quick: q('[data-testid="quick-line"]').textContent,
            badge: (q('[data-testid="options-toggle"] .badge') || {}).textContent || null,
            code: box && box.getAttribute('data-code'), pending: !!(box && box.hasAttribute('data-pending')),
            codeLine: box && q('[data-testid="lobby-toggle"]').textContent};
}"""


def test_the_texts_follow_the_fields_before_python(page, context, site, wait_ready, assert_no_py_error):
    held = _first_screen(page, context, site)
    page.select_option('[data-testid="players"]', "4")
    page.select_option('[data-testid="seat-kind-2"]', "medium")   # a second medium computer: another name
    page.select_option('[data-testid="seat-kind-3"]', "human")
    page.locator('[data-testid="seat-name-0"]').fill("Lola")      # the persona's name taken by a person
    page.select_option('[data-testid="target"]', index=0)
    before = page.evaluate(TEXTS)
    assert "Lola" in before["quick"] and before["code"] and not before["pending"], before
    assert before["badge"] is None
    page.locator('[data-testid="options-toggle"]').click()
    option = page.locator('[data-testid^="opt-"]').first
    option.select_option(option.locator("option:not([selected])").first.get_attribute("value"))
    changed = page.evaluate(TEXTS)
    assert changed["badge"] and changed["badge"].startswith("1 "), changed
    assert changed["pending"] and changed["code"] is None and changed["codeLine"] != before["codeLine"], changed
    option.select_option(option.locator("option[selected]").get_attribute("value"))   # back: known again
    assert page.evaluate(TEXTS) == before
    assert page.evaluate(ROOT_ATTRS, "data-ready") is None, "Python was up before the test let it"

    held.release(page)
    wait_ready(page)
    assert_no_py_error(page)
    assert page.evaluate(TEXTS) == before   # what the live screen says, said before Python


def test_the_language_button_before_python(page, context, site, wait_ready, assert_no_py_error):
    held = _first_screen(page, context, site)
    assert page.evaluate("document.documentElement.lang") == "en"
    page.select_option('[data-testid="game"]', "block")
    page.select_option('[data-testid="players"]', "3")
    page.locator('[data-testid="seat-name-0"]').fill("Rosa")
    page.locator('[data-testid="lang"]').click()
    page.wait_for_function("document.documentElement.lang === 'es'")
    # at once, the same screen in Spanish, with the choices carried over
    assert page.evaluate(ROOT_ATTRS, "data-ready") is None
    assert page.locator('[data-testid="start"]').inner_text() == "Empezar"
    assert page.title() == "Dominó"
    assert page.locator('[data-testid="game"]').input_value() == "block"
    assert page.locator('[data-testid="players"]').input_value() == "3"
    assert page.locator('[data-testid="seat-name-0"]').input_value() == "Rosa"
    assert "Rosa" in page.locator('[data-testid="quick-line"]').inner_text()
    assert page.evaluate("document.activeElement.dataset.testid") == "lang"
    assert page.locator('[data-testid="lang"]').get_attribute("data-lang") == "en"
    assert "Descargando" in page.locator("#loading-progress").inner_text()
    assert axe_violations(page) == []

    held.release(page)
    wait_ready(page)
    assert_no_py_error(page)
    # Python took over in Spanish, kept the choices, and saved the language as the player's
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.locator('[data-testid="start"]').inner_text() == "Empezar"
    assert page.locator('[data-testid="game"]').input_value() == "block"
    assert page.locator('[data-testid="seat-name-0"]').input_value() == "Rosa"
    saved = page.evaluate("JSON.parse(localStorage.getItem('domino:' + location.pathname + ':settings')).lang")
    assert saved == "es"
    page.reload()
    wait_ready(page)
    assert page.evaluate("document.documentElement.lang") == "es"
