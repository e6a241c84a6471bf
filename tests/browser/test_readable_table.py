"""Every name, score and tile readable on a phone, in Chromium: the header's
chips of an eight-seat table whole and on screen in both languages, the
round-by-round table not cut on the right, partners in one colour,
unplayable tiles still readable, the pace's word on its button, and the move
log's close button seen in the dark theme; axe finds nothing.  The tests
share the worker's booted page (conftest ``app``)."""
from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from a11y import axe_violations  # noqa: E402
from domino.app import saves, storage  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402
from conftest import restart  # noqa: E402
from test_app import idle, tid  # noqa: E402

PHONE = {"width": 360, "height": 740}
PLAYABLE = 'button[data-tile][aria-disabled="false"]'
UNPLAYABLE = 'button[data-tile][aria-disabled="true"]'
# the longest default and persona names a table can get
LONG = ["Doña Carmen", "Don Anselmo", "Doña Elvira", "Don Fermín", "Don Ramón", "Doña Pura", "Don Julio"]


@pytest.fixture
def page(app):
    """The worker's shared page, on the app's first screen."""
    return app


def open_app(page, lang="en", query="?delay=0&seed=5"):
    restart(page, query)
    if page.evaluate("document.documentElement.lang") != lang:
        tid(page, "lang").click()
        idle(page)
    assert page.evaluate("document.documentElement.lang") == lang


def start(page, game, kinds):
    tid(page, "game").select_option(game)
    tid(page, "players").select_option(str(len(kinds)))
    for i, k in enumerate(kinds):
        tid(page, f"seat-kind-{i}").select_option(k)
    tid(page, "start").click()
    page.wait_for_selector('[data-testid="board"]')
    idle(page)


def load(page, m: Match) -> None:
    """The app started again on ``m`` (saved), with the same settings (language)."""
    stored = {storage.key("/domino/", storage.SAVE): saves.dump(m)}
    settings = page.evaluate("k => localStorage.getItem(k)", storage.key("/domino/", storage.SETTINGS))
    if settings is not None:
        stored[storage.key("/domino/", storage.SETTINGS)] = settings
    restart(page, page.evaluate("location.search"), stored)


CLIPPED = """(sel) => [...document.querySelectorAll(sel)].map(e => {
    const r = e.getBoundingClientRect();
    return {text: e.textContent, sw: e.scrollWidth, cw: e.clientWidth, left: r.left, right: r.right,
            top: r.top, bottom: r.bottom, visible: r.width > 0 && r.height > 0}; })"""


def assert_whole(page, sel: str, n: int) -> list[dict]:
    """Every element ``sel`` (n of them) shows its whole text and lies on the screen."""
    got = page.evaluate(CLIPPED, sel)
    assert len(got) == n, (sel, got)
    vw = page.viewport_size["width"]
    for e in got:
        assert e["visible"], (sel, e)
        assert e["sw"] <= e["cw"] + 1, ("clipped", sel, e)
        assert e["left"] >= -0.5 and e["right"] <= vw + 0.5, ("off screen", sel, e)
    return got


def contrast(fg: str, bg: str) -> float:
    def lum(c):
        r, g, b = [int(x) / 255 for x in re.findall(r"[\d.]+", c)[:3]]
        f = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in (r, g, b)]
        return 0.2126 * f[0] + 0.7152 * f[1] + 0.0722 * f[2]
    a, b = sorted((lum(fg), lum(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


# ------------------------------------------------------------------ the header at 360 px
@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot"])
def test_eight_seat_header_every_name_and_score_whole(page, assert_no_py_error, lang, game):
    """Eight seats (the most the game allows) with the longest persona
    names: every chip's name and score is whole and inside the screen (the
    chips wrap to more lines); the header does not scroll sideways."""
    page.set_viewport_size(PHONE)
    open_app(page, lang)
    start(page, game, ["human"] + ["hard"] * 7)
    names = assert_whole(page, ".scores .chip .names", 8)
    assert {e["text"] for e in names} >= {"Doña Carmen", "Don Anselmo"}
    assert names[0]["text"] == ("Jugador 1" if lang == "es" else "Player 1")
    assert_whole(page, ".scores .chip .pts", 8)
    tops = {round(e["top"]) for e in names}
    assert len(tops) >= 2   # more than one line of chips
    assert page.evaluate("(() => { const s = document.querySelector('.scores'); return s.scrollWidth <= s.clientWidth + 1; })()")
    assert not page.evaluate("document.documentElement.scrollWidth > innerWidth + 1")
    # the strip of seats: every name whole too (a long one takes two lines)
    assert page.locator(".seats-top .seat-name").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).map(e => e.textContent)") == []
    found = axe_violations(page)
    assert found == [], json.dumps(found, indent=1)
    assert_no_py_error(page)


def _rounds_match(rounds: int = 3) -> Match:
    seats = [{"name": "Jugador 1", "kind": "human"}] + [{"name": n, "kind": "hard"} for n in LONG]
    m = Match(make_rules("mexican-train", players=8), seed=4, seats=seats)
    rng = random.Random(4)
    for k in range(rounds):
        while m.phase == "play":
            m.apply(rng.choice(m.legal_actions()))
        if k < rounds - 1:
            m.next_hand()
    assert m.phase == "hand-over"
    return m


@pytest.mark.parametrize("lang", ["es", "en"])
def test_eight_seat_round_by_round_table_not_cut(page, assert_no_py_error, lang):
    """The end of a Mexican Train round at eight seats, on a phone: the
    title says round (as the header does), the round-by-round table fits
    its card (no column past the right edge), every name in it is whole,
    and the leftover tiles are big enough to count."""
    page.set_viewport_size(PHONE)
    open_app(page, lang)
    load(page, _rounds_match())
    page.wait_for_selector('[data-testid="hand-result"]')
    title = page.locator("#hr-title").inner_text()
    assert title == ("Fin de la ronda 3" if lang == "es" else "Round 3 over")
    wrap = page.locator('[data-testid="rounds"] .table-wrap')
    fits = wrap.evaluate("w => ({sw: w.scrollWidth, cw: w.clientWidth, right: w.querySelector('table').getBoundingClientRect().right, card: w.closest('.card').getBoundingClientRect().right})")
    assert fits["sw"] <= fits["cw"] + 1, fits
    assert fits["right"] <= fits["card"] + 0.5 and fits["right"] <= PHONE["width"], fits
    heads = page.locator(".rounds-table thead th").evaluate_all(
        "els => els.map(e => ({t: e.textContent, ok: e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1}))")
    assert [x["t"] for x in heads][1:] == ["Jugador 1"] + LONG
    assert all(x["ok"] for x in heads), heads
    cells = page.locator(".rounds-table td").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
    assert cells == []
    # the leftover tiles: at least 40 x 20 px each, with how many beside them
    sizes = page.locator('[data-testid="hand-result"] .mini').evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])")
    assert sizes and all(w >= 40 and h >= 20 for w, h in sizes), sizes[:3]
    assert page.locator('[data-testid="left-count"]').count() >= 1
    found = axe_violations(page)
    assert found == [], json.dumps(found, indent=1)
    assert_no_py_error(page)


# ------------------------------------------------------------------ partners, the hand, the pace
def test_partners_share_a_colour_on_seats_and_header(page, assert_no_py_error):
    page.set_viewport_size(PHONE)
    open_app(page, "es")
    start(page, "latin", ["human", "easy", "easy", "easy"])
    colour = "el => getComputedStyle(el).borderLeftColor"
    seat = [tid(page, f"seat-{s}").evaluate(colour) for s in range(4)]
    chip = [tid(page, f"score-{sd}").evaluate(colour) for sd in range(2)]
    assert seat[0] == seat[2] == chip[0]
    assert seat[1] == seat[3] == chip[1]
    assert chip[0] != chip[1]
    width = tid(page, "seat-1").evaluate("el => parseFloat(getComputedStyle(el).borderLeftWidth)")
    assert width >= 4
    # every tile is dealt at four: no "Pozo: 0"
    assert tid(page, "boneyard").count() == 0
    assert page.locator(".seat .seat-name").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)") == []
    found = axe_violations(page)
    assert found == [], json.dumps(found, indent=1)
    assert_no_py_error(page)


def test_unplayable_tiles_readable_playable_marked_pace_said(page, assert_no_py_error):
    """A phone: a tile that cannot be played is barely dimmed (the hand
    does not look switched off), the playable ones stand up with their dot;
    the pace button shows its word, and a tap shows the next one."""
    page.set_viewport_size(PHONE)
    open_app(page, "en", "?delay=0&seed=21")
    start(page, "draw", ["human", "easy"])
    page.wait_for_selector(PLAYABLE, timeout=20_000)
    assert page.locator(UNPLAYABLE).count(), "every tile playable: pick another seed"
    look = page.locator(UNPLAYABLE).first.evaluate(
        "el => [getComputedStyle(el).filter, getComputedStyle(el).opacity, getComputedStyle(el.querySelector('svg')).opacity]")
    bright = re.search(r"brightness\(([\d.]+)\)", look[0])
    assert bright is None or float(bright.group(1)) >= 0.9, look
    sat = re.search(r"saturate\(([\d.]+)\)", look[0])
    assert sat is None or float(sat.group(1)) >= 0.85, look
    assert float(look[1]) >= 0.9 and float(look[2]) >= 0.9, look
    dot = page.locator(PLAYABLE + " .play-dot").first
    assert dot.is_visible() and box_w(dot) >= 6
    assert page.locator(UNPLAYABLE + " .play-dot").count() == 0
    # the pace: its word on the button at 360 px, the next one after a tap
    pace = tid(page, "pace")
    for want in ("Normal", "Fast", "Slow"):
        text = pace.locator(".pace-text")
        assert text.is_visible() and text.inner_text() == want
        assert box_w(text) > 10
        assert want in pace.get_attribute("aria-label")
        b = pace.bounding_box()
        assert b["x"] + b["width"] <= PHONE["width"] + 0.5
        pace.click()
        idle(page)
        assert page.evaluate("document.activeElement.dataset.testid") == "pace"
    assert_no_py_error(page)


def box_w(loc) -> float:
    b = loc.bounding_box()
    assert b is not None
    return b["width"]


# ------------------------------------------------------------------ dark theme
def test_dark_theme_log_close_is_seen(page, assert_no_py_error):
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size(PHONE)
    open_app(page, "en")
    start(page, "draw", ["human", "easy"])
    tid(page, "log").click()
    close = tid(page, "log-close")
    assert close.is_visible()
    fg, bg = close.evaluate("el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]")
    assert contrast(fg, bg) >= 4.5, (fg, bg)
    panel = page.locator(".log-panel").evaluate("el => getComputedStyle(el).backgroundColor")
    border = close.evaluate("el => getComputedStyle(el).borderTopColor")
    assert contrast(border, panel) >= 1.5 or contrast(bg, panel) >= 1.2, (border, bg, panel)
    found = axe_violations(page)
    assert found == [], json.dumps(found, indent=1)
    close.click()
    assert not tid(page, "move-log").is_visible()
    assert_no_py_error(page)


# ------------------------------------------------------------------ axe on the table, both themes
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_the_table_in_either_theme(page, assert_no_py_error, scheme):
    """The table against the computer on a phone (the pace button, the hint,
    the log open and closed) in the light and the dark theme: axe-core at zero,
    the pace button's name starting with the word it shows."""
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size(PHONE)
    open_app(page, "es")
    start(page, "all-fives", ["human", "easy", "easy", "easy"])
    pace = tid(page, "pace")
    assert pace.get_attribute("aria-label").startswith(pace.locator(".pace-text").inner_text())
    found = axe_violations(page)
    assert found == [], json.dumps(found, indent=1)
    tid(page, "log").click()
    found = axe_violations(page)
    assert found == [], json.dumps(found, indent=1)
    assert_no_py_error(page)
