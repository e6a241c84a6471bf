"""The table tells the story of the hand, in Chromium: the others sit around
the board, every move is in the log, points made during a hand reach the
header at once, the open ends carry their numbers, a played tile travels
(not under reduced motion; a tap finishes it), the computer's pace is a
saved setting, and the screen has no axe violations on a phone.  The tests
share the worker's booted page (conftest ``app``)."""
from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from a11y import axe_violations  # noqa: E402
from domino.app import play_points, same_result, saves, storage  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402
from conftest import restart  # noqa: E402
from test_app import idle, seq, tid  # noqa: E402
from test_app import saved_match as saved  # noqa: E402

PLAYABLE = 'button[data-tile][aria-disabled="false"]'
PLACE = '[data-action="end"]'
PHONE = {"width": 360, "height": 740}


# ------------------------------------------------------------------ helpers
# tid, idle, seq and saved (the saved match): tests/browser/test_app.py


@pytest.fixture
def page(app):
    """The worker's shared page, on the app's first screen."""
    return app


def open_app(page, query="?delay=0&seed=5"):
    restart(page, query)


def start(page, game, kinds, partnership=None):
    tid(page, "game").select_option(game)
    tid(page, "players").select_option(str(len(kinds)))
    if partnership is not None and tid(page, "partnership").count():
        tid(page, "partnership").set_checked(partnership)
    for i, k in enumerate(kinds):
        tid(page, f"seat-kind-{i}").select_option(k)
    tid(page, "start").click()
    page.wait_for_selector('[data-testid="board"]')
    idle(page)


def tap_move(page) -> None:
    """The person plays the first playable tile (the first place if asked)."""
    before = seq(page)
    page.locator(PLAYABLE).first.click()
    if seq(page) == before and page.locator(PLACE).count():
        page.locator(PLACE).first.click()
    page.wait_for_function(f"+document.documentElement.dataset.seq > {before}", timeout=10_000)
    idle(page)


def live(m: Match) -> list[int]:
    v = m.view(0)
    return [s + f for s, f in zip(v["scores"], v["fives"])] if v["phase"] == "play" else v["scores"]


def watch_flights(page):
    """Record every change of html data-anim / data-seq: [anim, seq]."""
    page.evaluate("""() => { window.__flights = [];
        if (window.__flightsWatched) return;   // one watch per page (the page is shared)
        window.__flightsWatched = true;
        new MutationObserver(() => { const d = document.documentElement.dataset;
            window.__flights.push([d.anim, +d.seq]); })
        .observe(document.documentElement, {attributes: true, attributeFilter: ['data-anim', 'data-seq']}); }""")


def box(loc):
    b = loc.bounding_box()
    assert b is not None
    return b


def overlap(a, b) -> bool:
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


# ------------------------------------------------------------------ tests
def test_three_computers_every_move_in_the_log(page, assert_no_py_error):
    """Three computers play a hand of All Fives by themselves: the log has one
    line per action, in order, with its seat; seats and header agree with the
    saved match."""
    open_app(page)
    start(page, "all-fives", ["easy", "medium", "easy"])
    page.wait_for_selector('[data-testid="hand-result"], [data-testid="match-result"]', timeout=60_000)
    m = saved(page)
    actions = m.records[-1]["actions"]
    # the hand's first line is its deal's fingerprint, then one line per action
    deal = tid(page, "log-deal")
    assert deal.get_attribute("data-fingerprint") == m.fingerprint(len(m.records) - 1)
    items = tid(page, "move-log").locator("li:not(.log-deal)")
    assert items.count() == len(actions) > 3
    seats = [int(x) for x in items.evaluate_all("els => els.map(e => e.dataset.seat)")]
    kinds = items.evaluate_all("els => els.map(e => e.dataset.kind)")
    assert seats == [a[0] for a in actions]
    assert kinds == [{"p": "play", "d": "draw", "x": "pass"}[a[1]] for a in actions]
    texts = items.evaluate_all("els => els.map(e => e.textContent)")
    names = [s["name"] for s in m.seats]
    for text, a in zip(texts, actions):
        assert text.startswith(names[a[0]])
    # the points each play scored are in its line
    pts = play_points(m)
    for text, p in zip(texts, pts):
        assert (f"scored {p}" in text) == bool(p)
    v = m.view(0)
    for seat in range(3):
        el = tid(page, f"seat-{seat}")
        assert int(el.get_attribute("data-count")) == v["counts"][seat]
        assert int(el.get_attribute("data-score")) == v["scores"][seat]
        assert int(tid(page, f"score-{seat}").get_attribute("data-value")) == v["scores"][seat]
    assert_no_py_error(page)


def test_live_fives_and_end_labels(page, assert_no_py_error):
    """A person against the computer in All Fives, on a phone: after every
    move the header and the seats hold the live scores (this hand's fives
    included, right after the scoring move), the scorer's seat shows the
    points, and every open end carries the number it shows."""
    page.set_viewport_size(PHONE)
    open_app(page, "?delay=0&seed=9")
    start(page, "all-fives", ["human", "easy"])
    scored = 0
    for _ in range(40):
        m = saved(page)
        v = m.view(0)
        sc = live(m)
        for sd in range(2):
            assert int(tid(page, f"score-{sd}").get_attribute("data-value")) == sc[sd]
            assert int(tid(page, f"seat-{sd}").get_attribute("data-score")) == sc[sd]
            assert int(tid(page, f"seat-{sd}").get_attribute("data-count")) == v["counts"][sd]
        if v["phase"] != "play":
            break
        labels = page.locator('[data-testid="end-label"]')
        got = {labels.nth(i).get_attribute("data-end"): int(labels.nth(i).get_attribute("data-value"))
               for i in range(labels.count())}
        assert got == v["ends"]
        assert int(tid(page, "ends-total").get_attribute("data-value")) == v["ends_total"]
        # points of each seat's latest play stay at that seat until it moves again
        pts = play_points(m)
        for seat in range(2):
            mine = [i for i, a in enumerate(m.hand.actions) if a[0] == seat]
            last = mine[-1] if mine else None
            badge = tid(page, f"seat-{seat}").locator(".seat-points")
            if last is not None and pts[last] and m.hand.actions[last][1] == "p":
                assert badge.inner_text() == f"+{pts[last]}"
                scored += 1
            else:
                assert badge.count() == 0
        tap_move(page)
    assert scored, "no fives were scored in this hand: pick another seed"
    assert_no_py_error(page)


@pytest.mark.parametrize("size", [PHONE, {"width": 740, "height": 360}, {"width": 1280, "height": 800}],
                         ids=["portrait", "landscape", "desktop"])
def test_seats_around_the_board(page, assert_no_py_error, size):
    """Four players in partnership: the partner sits opposite, the others
    left and right; no seat overlaps another, the board, the header or the
    status line; nothing leaves the screen; axe finds nothing, log open."""
    page.set_viewport_size(size)
    open_app(page, "?delay=0&seed=3")
    start(page, "latin", ["human", "easy", "easy", "easy"])
    assert "spot-top" in tid(page, "seat-2").get_attribute("class")
    assert "spot-right" in tid(page, "seat-1").get_attribute("class")
    assert "spot-left" in tid(page, "seat-3").get_attribute("class")
    assert "spot-bottom" in tid(page, "seat-0").get_attribute("class")
    vw, vh = size["width"], size["height"]
    parts = {f"seat-{s}": box(tid(page, f"seat-{s}")) for s in range(4)}
    parts["board"] = box(page.locator(".board-wrap"))
    parts["header"] = box(page.locator("header.topbar"))
    parts["status"] = box(page.locator(".status-text"))
    parts["hand"] = box(page.locator(".hand"))
    names = sorted(parts)
    for i, a in enumerate(names):
        b = parts[a]
        assert b["x"] >= -1.5 and b["y"] >= -1.5 and b["x"] + b["width"] <= vw + 1.5 and b["y"] + b["height"] <= vh + 1.5, a
        for c in names[i + 1:]:
            assert not overlap(b, parts[c]), (a, c, b, parts[c])
    assert parts["board"]["height"] >= 120
    assert not page.evaluate("document.documentElement.scrollWidth > innerWidth + 1")
    # every name is whole (the viewer's own once read "Jug…" on a phone,
    # with room to spare beside it)
    assert page.locator(".seat .seat-name").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)") == []
    # the move log opens with one tap, and closes again
    tid(page, "log").click()
    assert tid(page, "move-log").is_visible()
    assert tid(page, "log").get_attribute("aria-expanded") == "true"
    found = axe_violations(page)
    assert found == [], json.dumps(found, indent=1)
    tid(page, "log-close").click()
    assert not tid(page, "move-log").is_visible()
    assert_no_py_error(page)


def test_header_keeps_its_height_with_two_digit_counts(page):
    """A hand where someone holds 10+ tiles: the header is as tall as at the start."""
    page.set_viewport_size({"width": 390, "height": 844})
    rng = random.Random(1)
    for seed in range(1, 200):
        m = Match(make_rules("draw", players=2), seed=seed,
                  seats=[{"name": "Ana", "kind": "human"}, {"name": "Rita", "kind": "easy"}])
        while m.phase == "play" and max(m.view(0)["counts"]) < 10:
            m.apply(rng.choice(m.legal_actions()))
        if m.phase == "play" and m.turn == 0:
            break
    else:
        raise AssertionError("no 10-tile hand found")
    open_app(page)
    start(page, "draw", ["human", "easy"])
    before = box(page.locator("header.topbar"))["height"]
    restart(page, "?delay=0&seed=5", {storage.key("/domino/", storage.SAVE): saves.dump(m)})
    counts = [int(tid(page, f"seat-{s}").get_attribute("data-count")) for s in range(2)]
    assert max(counts) >= 10
    assert abs(box(page.locator("header.topbar"))["height"] - before) <= 1


def test_tile_travels_tap_finishes_and_never_delays_the_save(page, assert_no_py_error):
    """Normal motion: a played tile travels from its seat; the move is
    already saved while it flies; a tap ends the flight at once; the
    computer's turn, flight included, takes the pace."""
    open_app(page, "?delay=1500&seed=5")
    watch_flights(page)
    start(page, "draw", ["human", "easy"])
    page.wait_for_selector(PLAYABLE, timeout=20_000)
    before = seq(page)
    page.locator(PLAYABLE).first.click()
    if page.locator(PLACE).count():
        page.locator(PLACE).first.click()
    page.wait_for_function("document.documentElement.dataset.anim === '1'", timeout=2_000)
    # the move is in the page's state and in the save while the tile flies
    assert seq(page) > before
    m = saved(page)
    assert m.seq == seq(page)
    t0 = time.monotonic()
    page.mouse.click(5, 5)   # a tap anywhere
    assert page.evaluate("document.documentElement.dataset.anim") == "0"
    assert page.evaluate("document.getAnimations().filter(a => a.playState === 'running' && a.effect && a.effect.target && a.effect.target.matches && a.effect.target.matches('g.tile')).length") == 0
    # the computer answers within its pace, and its tile travels too
    page.wait_for_function(f"+document.documentElement.dataset.seq > {seq(page)}", timeout=10_000)
    took = time.monotonic() - t0
    assert took < 1.5 + 1.0
    page.wait_for_function("window.__flights.some(f => f[0] === '1' && f[1] > %d)" % (before + 1), timeout=3_000)
    assert_no_py_error(page)


def test_reduced_motion_skips_the_flight(page, assert_no_py_error):
    page.emulate_media(reduced_motion="reduce")
    open_app(page, "?delay=400&seed=5")
    watch_flights(page)
    start(page, "draw", ["human", "easy"])
    page.wait_for_selector(PLAYABLE, timeout=20_000)
    tap_move(page)
    page.wait_for_selector(PLAYABLE, timeout=20_000)
    assert page.evaluate("window.__flights.filter(f => f[0] === '1').length") == 0
    assert page.evaluate("window.__flights.length") > 0   # the watch saw the moves
    assert len(saved(page).records[-1]["actions"]) >= 2   # both moves were made
    assert_no_py_error(page)


def test_pace_is_saved_hint_follows_language_focus_is_seen(page, wait_ready, assert_no_py_error):
    open_app(page, "?delay=0&seed=21")
    start(page, "draw", ["human", "easy"])
    assert tid(page, "pace").get_attribute("data-pace") == "normal"
    tid(page, "pace").click()
    assert tid(page, "pace").get_attribute("data-pace") == "fast"
    settings = page.evaluate("""() => JSON.parse(localStorage.getItem(
        Object.keys(localStorage).find(k => k.endsWith(':settings'))))""")
    assert settings["pace"] == "fast"
    page.reload()
    wait_ready(page)
    idle(page)
    assert tid(page, "pace").get_attribute("data-pace") == "fast"
    # the hint speaks the language chosen after it was asked for
    page.wait_for_selector(PLAYABLE, timeout=20_000)
    tid(page, "hint").click()
    page.wait_for_function("document.querySelector('[data-testid=\"message\"]').textContent.startsWith('Hint')")
    page.locator('[data-action="lang"]').first.click()
    page.wait_for_function("document.querySelector('[data-testid=\"message\"]').textContent.startsWith('Pista')")
    # a place on the board shows the keyboard focus
    for _ in range(30):
        idle(page)
        m = saved(page)
        if m.phase == "hand-over":
            tid(page, "next-hand").click()
            idle(page)
            continue
        acts = m.legal_actions() if m.turn == 0 else []
        two = [x for x in {a["play"] for a in acts if "play" in a}
               if len({a.get("end") for a in acts if a.get("play") == x}) > 1
               and not same_result(m, [a for a in acts if a.get("play") == x])]
        if two:
            page.locator(f'button[data-tile="{two[0]}"]').focus()
            page.keyboard.press("Enter")
            break
        tap_move(page)
    else:
        raise AssertionError("no tile with two places in this hand: pick another seed")
    page.wait_for_selector(PLACE)
    page.locator(PLACE).first.focus()
    ring = page.evaluate("""() => getComputedStyle(document.activeElement.querySelector('.target-ring')).strokeOpacity""")
    assert float(ring) == 1.0
    assert_no_py_error(page)


@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot", "frijolito"])
def test_tiles_travel_on_the_other_boards(page, assert_no_py_error, game):
    """On the trains, the foot and Frijolito's line too, each tile a computer
    plays travels from its seat to its place on the board."""
    open_app(page, "?delay=400&seed=5")
    page.evaluate("""() => { window.__flying = [];
        if (window.__flyingWatched) return;   // one watch per page (the page is shared)
        window.__flyingWatched = true;
        new MutationObserver(() => {
            if (!document.documentElement || document.documentElement.dataset.anim !== '1') return;
            for (const a of document.getAnimations()) {
                const el = a.effect && a.effect.target;
                if (el && el.matches && el.matches('#board g.tile') && a.playState === 'running')
                    window.__flying.push([el.dataset.tile, +document.documentElement.dataset.seq]);
            }
        }).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-anim']}); }""")
    tid(page, "game").select_option(game)
    for i in range(2):
        tid(page, f"seat-kind-{i}").select_option("easy")
    tid(page, "start").click()      # the computers play on their own: no waiting for idle
    page.wait_for_function("window.__flying.length >= 3", timeout=30_000)
    flights = page.evaluate("window.__flying")
    m = saved(page)
    played = {a["play"] for a in m.view(0)["history"] if "play" in a}
    assert len({t for t, _ in flights}) >= 2, flights
    # every flying tile was played in this round, and it sits on the board
    for tile, _ in flights:
        assert tile in played, (tile, played)
        assert page.locator(f'#board g.tile[data-tile="{tile}"]').count() == 1
    assert_no_py_error(page)
