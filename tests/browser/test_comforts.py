"""The comforts in Chromium, on a phone-sized and a desktop viewport: the
menu and back, undo in a practice match, statistics after two matches and a
reload, the guided hand, sound, the dark theme (axe in both themes) and
44 px touch targets.  Every page load uses ?delay=0.  The tests share the
worker's booted page (conftest ``app``), but the sound's, which must see
a page where no sound was ever made."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from a11y import axe_violations
from test_app import idle, open_app, save_text, saved_match, seq, start, tap_one_move, tid

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from domino import players  # noqa: E402
from domino.app import stats, storage  # noqa: E402
from domino.app.i18n import t  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.records import to_record  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])


@pytest.fixture
def page(app):
    """The worker's shared page, on the app's first screen."""
    return app


def hand(page) -> list[str]:
    return page.locator(".hand button[data-tile]").evaluate_all("bs => bs.map(b => b.dataset.tile)")


def to_my_turn(page) -> None:
    page.wait_for_selector('button[data-tile][aria-disabled="false"], [data-testid="hand-result"]',
                           timeout=20_000)
    idle(page)


# ------------------------------------------------------------------ menu
@VIEWPORTS
def test_menu_and_back_to_the_same_position(page, wait_ready, assert_no_py_error, size):
    page.set_viewport_size(size)
    open_app(page, "&seed=14")
    start(page, "draw", kinds=("human", "medium"), names=("Ana", ""))
    to_my_turn(page)
    tap_one_move(page)
    to_my_turn(page)
    where, tiles, saved = seq(page), hand(page), save_text(page)
    menu = tid(page, "menu")
    box = menu.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    menu.click()
    tid(page, "new-game").wait_for()
    assert save_text(page) == saved                         # leaving the table does not resign
    card = tid(page, "saved-match")
    assert "Draw" in card.inner_text() or "Abierto" in card.inner_text()
    tid(page, "continue").click()
    tid(page, "board").wait_for()
    idle(page)
    assert (seq(page), hand(page)) == (where, tiles)
    # a reload while at the menu still comes back to the table, same position
    tid(page, "menu").click()
    page.reload()
    wait_ready(page)
    idle(page)
    assert (seq(page), hand(page)) == (where, tiles)
    # a new match asks before it replaces the one in progress
    tid(page, "menu").click()
    tid(page, "start").click()
    tid(page, "replace-dialog").wait_for()
    tid(page, "replace-cancel").click()
    assert tid(page, "replace-dialog").count() == 0 and save_text(page) == saved
    tid(page, "start").click()
    tid(page, "replace-confirm").click()
    tid(page, "board").wait_for()
    idle(page)
    assert save_text(page) != saved and saved_match(page).hand_no == 0
    assert_no_py_error(page)


# ------------------------------------------------------------------ undo
@VIEWPORTS
def test_undo_in_a_practice_match(page, wait_ready, assert_no_py_error, size):
    page.set_viewport_size(size)
    open_app(page, "&seed=9")
    tid(page, "practice").check()
    start(page, "draw", kinds=("human", "easy"), names=("Ana", ""))
    tid(page, "practice-badge").wait_for()
    to_my_turn(page)
    undo = tid(page, "undo")
    assert undo.is_disabled()                               # nothing of mine to take back yet
    before = (seq(page), hand(page), save_text(page))
    tap_one_move(page)
    to_my_turn(page)
    assert saved_match(page).seq > before[0]
    assert any(a["seat"] == 1 for a in saved_match(page).view(0)["history"][-3:]), "the computer answered"
    tid(page, "undo").click()
    idle(page)
    assert (seq(page), hand(page)) == before[:2]
    assert json.loads(save_text(page))["record"] == json.loads(before[2])["record"]
    # the computer's answer to the same move is the same as before
    tap_one_move(page)
    to_my_turn(page)
    again = saved_match(page).view(0)["history"]
    # practice survives a reload; a match without it has no undo
    page.reload()
    wait_ready(page)
    idle(page)
    assert tid(page, "practice-badge").count() == 1 and tid(page, "undo").is_enabled()
    assert saved_match(page).view(0)["history"] == again
    tid(page, "menu").click()
    tid(page, "practice").uncheck()
    tid(page, "start").click()
    tid(page, "replace-confirm").click()
    tid(page, "board").wait_for()
    assert tid(page, "undo").count() == 0 and tid(page, "practice-badge").count() == 0
    assert_no_py_error(page)


# ------------------------------------------------------------------ statistics
def _near_end_vs_computer(level="easy", moves_left=2):
    """A Draw match against the computer a few of the person's taps from its
    end, as the browser will play it (first playable tile, first place)."""
    for seed in range(1, 60):
        m = Match(make_rules("draw", players=2, target=100), seed=seed,
                  seats=[{"name": "Ana", "kind": "human"}, {"name": "Pepe", "kind": level}])
        snaps = []
        while not m.outcome:
            if m.phase == "hand-over":
                m.next_hand()
                snaps = []
                continue
            if m.seats[m.turn]["kind"] == "human":
                snaps.append(to_record(m))
                legal = m.legal_actions()
                tile = next((t for t in m.view(0)["hand"] if any(a.get("play") == t for a in legal)), None)
                acts = sorted([a for a in legal if a.get("play") == tile], key=lambda a: a.get("end") or "")
                m.apply(acts[0] if acts else legal[0])
            else:
                seat = m.turn
                m.apply(players.get_player(level)(m.view(seat), m.player_rng(seat)))
        if m.hand_no > 0 and len(snaps) > moves_left:
            return snaps[-moves_left], m
    raise AssertionError("no near-final match")


def _stats_rows(page) -> list[dict]:
    return page.locator('[data-testid="stats-table"] tbody tr').evaluate_all(
        "rs => rs.map(r => Object.assign({}, r.dataset))")


@VIEWPORTS
def test_statistics_after_two_matches_and_a_reload(page, wait_ready, assert_no_py_error, size):
    page.set_viewport_size(size)
    record, final = _near_end_vs_computer()
    open_app(page, stored={storage.key("/domino/", storage.SAVE): json.dumps({"format": "domino-save/1", "record": record})})
    for _ in range(60):                        # match 1: played to its end
        idle(page)
        if tid(page, "match-result").count():
            break
        if tid(page, "next-hand").count():
            tid(page, "next-hand").click()
            continue
        tap_one_move(page)
    tid(page, "match-result").wait_for()
    m1 = saved_match(page)
    assert m1.outcome == final.outcome
    tid(page, "new-match").click()             # match 2: resigned at once
    start(page, "draw", kinds=("human", "easy"), names=("Ana", ""))
    tid(page, "resign").click()
    tid(page, "resign-confirm").click()
    tid(page, "match-result").wait_for()
    m2 = saved_match(page)
    tid(page, "new-match").click()
    expect = stats.empty()
    stats.record(expect, m1)
    stats.record(expect, m2)
    g = expect["groups"]["draw/2/easy"]
    assert g["matches"] == 2 and g["lost"] >= 1
    for attempt in ("before", "after a reload"):
        tid(page, "stats-open").click()
        tid(page, "stats").wait_for()
        rows = _stats_rows(page)
        assert len(rows) == 1, attempt
        r = rows[0]
        assert (r["game"], r["players"], r["levels"], r["practice"]) == ("draw", "2", "easy", "0")
        assert (int(r["matches"]), int(r["won"]), int(r["lost"]), int(r["hands"]), int(r["streak"])) == \
            (2, g["won"], g["lost"], g["hands"], g["streak"]), attempt
        assert int(r["best"]) == g["best"]
        chart = tid(page, "stats-chart")
        assert chart.evaluate("e => e.namespaceURI") == "http://www.w3.org/2000/svg"
        assert chart.locator("rect").count() >= 1
        assert tid(page, "stats").bounding_box()["width"] <= size["width"]
        # nothing scrolls sideways: on a phone each row stacks, every value named
        wrap = page.locator(".stats .table-wrap")
        assert wrap.evaluate("e => e.scrollWidth - e.clientWidth") <= 1, attempt
        if size == PHONE:
            cell = page.locator('[data-testid="stats-table"] tbody td').first
            assert cell.evaluate("e => getComputedStyle(e, '::before').content") == \
                '"' + t(page.evaluate("document.documentElement.lang")[:2], "stats.against") + '"'
        tid(page, "stats-close").click()
        page.reload()
        wait_ready(page)
        idle(page)
    # reset asks, then empties
    tid(page, "stats-open").click()
    tid(page, "stats-reset").click()
    tid(page, "stats-reset-confirm").click()
    tid(page, "stats-empty").wait_for()
    assert page.evaluate("localStorage.getItem('domino:/domino/:stats')") is None
    assert_no_py_error(page)


# ------------------------------------------------------------------ guide
@VIEWPORTS
def test_guided_hand(page, assert_no_py_error, size):
    page.set_viewport_size(size)
    open_app(page)
    tid(page, "guide-offer").wait_for()                      # a first visit offers the guide
    tid(page, "guide-start").click()
    panel = tid(page, "guide")
    panel.wait_for()
    assert panel.get_attribute("data-step") == "hand"
    assert page.locator(".hand.guide-spot").count() == 1
    tid(page, "lang").click()                                # and it speaks Spanish too
    assert "fichas" in panel.inner_text()
    tid(page, "lang").click()
    tid(page, "guide-next").click()
    assert panel.get_attribute("data-step") == "ends"
    assert page.locator("#board .guide-spot, #board.guide-spot, [data-testid='end-label'].guide-spot").count() >= 1
    tid(page, "guide-next").click()
    assert panel.get_attribute("data-step") == "play"
    to_my_turn(page)
    assert page.locator(".tile-btn.playable.guide-spot").count() == 1
    # the guide does not cover the hand or the tile it points at
    gb = panel.bounding_box()
    tb = page.locator(".tile-btn.playable.guide-spot").bounding_box()
    assert gb["y"] + gb["height"] <= tb["y"] or tb["y"] + tb["height"] <= gb["y"]
    tap_one_move(page)
    page.wait_for_selector('[data-testid="guide"][data-step="draw"]')
    tid(page, "guide-next").click()
    assert panel.get_attribute("data-step") == "play_on"
    for _ in range(40):
        idle(page)
        if tid(page, "hand-result").count():
            break
        tap_one_move(page)
    page.wait_for_selector('[data-testid="guide"][data-step="score"]')
    assert save_text(page) is None                           # the guided hand is never saved
    tid(page, "guide-finish").click()
    tid(page, "new-game").wait_for()
    assert tid(page, "guide-offer").count() == 0             # taken once: no more offers
    # available again from the help, and skippable
    tid(page, "help").click()
    tid(page, "help-guide").click()
    tid(page, "guide").wait_for()
    tid(page, "guide-skip").click()
    tid(page, "new-game").wait_for()
    assert tid(page, "guide").count() == 0
    assert json.loads(page.evaluate("localStorage.getItem('domino:/domino/:settings')"))["guide_seen"] is True
    assert_no_py_error(page)


# ------------------------------------------------------------------ sound
def test_sound_off_by_default_then_click_and_win(fresh_page, site, wait_ready, assert_no_py_error):
    page = fresh_page
    page.goto(site.url + "?delay=0&seed=14")
    wait_ready(page)
    idle(page)
    start(page, "draw", kinds=("human", "easy"), names=("Ana", ""))
    to_my_turn(page)
    tap_one_move(page)
    to_my_turn(page)
    assert page.evaluate("document.documentElement.dataset.audio") is None   # nothing made while off
    snd = tid(page, "sound")
    assert snd.get_attribute("aria-pressed") == "false"
    snd.click()
    assert tid(page, "sound").get_attribute("aria-pressed") == "true"
    n = int(page.evaluate("document.documentElement.dataset.sounds"))
    tap_one_move(page)
    idle(page)
    assert int(page.evaluate("document.documentElement.dataset.sounds")) > n
    assert page.evaluate("document.documentElement.dataset.lastSound") in ("click", "win")
    page.reload()
    wait_ready(page)
    idle(page)
    assert tid(page, "sound").get_attribute("aria-pressed") == "true"   # kept with the settings
    assert_no_py_error(page)


# ------------------------------------------------------------------ looks
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_themes_follow_the_system_and_pass_axe(page, assert_no_py_error, scheme):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size(DESKTOP)
    open_app(page, "&seed=14")
    card_bg = page.locator(".newgame .card").first.evaluate("e => getComputedStyle(e).backgroundColor")
    dark = sum(int(x) for x in card_bg[card_bg.index("(") + 1:card_bg.index(")")].split(",")[:3]) < 200
    assert dark == (scheme == "dark"), card_bg
    assert axe_violations(page) == [], "menu"
    tid(page, "stats-open").click()
    assert axe_violations(page) == [], "statistics"
    tid(page, "stats-close").click()
    tid(page, "practice").check()
    start(page, "all-fives", kinds=("human", "medium"), names=("Ana", ""))
    to_my_turn(page)
    tap_one_move(page)
    to_my_turn(page)
    assert axe_violations(page) == [], "table"
    tid(page, "help").click()
    assert axe_violations(page) == [], "help"
    tid(page, "help-close").click()
    tid(page, "menu").click()
    tid(page, "start").click()
    assert axe_violations(page) == [], "replace question"
    assert_no_py_error(page)


@pytest.mark.parametrize("size", [{"width": 360, "height": 740}, {"width": 740, "height": 360}, DESKTOP],
                         ids=["portrait", "landscape", "desktop"])
def test_toolbar_touch_targets_are_44px(page, assert_no_py_error, size):
    page.set_viewport_size(size)
    open_app(page, "&seed=14")

    def small():
        out = []
        for b in page.locator('[role="toolbar"] button').all():
            box = b.bounding_box()
            if box and (box["width"] < 44 or box["height"] < 44):
                out.append((b.get_attribute("data-testid"), box["width"], box["height"]))
        return out
    assert page.locator('[role="toolbar"]').get_attribute("aria-label")
    assert small() == []
    tid(page, "practice").check()
    start(page, "draw", kinds=("human", "easy"), names=("Ana", ""))
    to_my_turn(page)
    assert page.locator('[role="toolbar"] button').count() >= 6
    assert small() == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    assert_no_py_error(page)


def test_seat_menus_show_the_whole_label_on_desktop(page, assert_no_py_error):
    page.set_viewport_size(DESKTOP)
    open_app(page)
    tid(page, "players").select_option("4")
    for i in range(1, 4):
        tid(page, f"seat-kind-{i}").select_option("hard")
    for i in range(4):
        sel = tid(page, f"seat-kind-{i}")
        room, need = sel.evaluate("""s => {
            const span = document.createElement('span');
            const cs = getComputedStyle(s);
            span.style.font = cs.font; span.style.whiteSpace = 'pre'; span.style.position = 'absolute';
            span.textContent = s.options[s.selectedIndex].text;
            document.body.appendChild(span);
            const w = span.getBoundingClientRect().width; span.remove();
            return [s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20, w]; }""")
        assert need <= room, (i, need, room)
    assert_no_py_error(page)
