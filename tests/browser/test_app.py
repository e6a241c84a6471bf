"""The app in Chromium: hot-seat hands by tapping, against the computer, the
end of a match from a saved record, reload, hand-off privacy, corrupt saves,
viewport fit.  Every page load uses ?delay=0 (no pauses, no animations).
The tests share the worker's booted page (conftest ``app``): each starts the
app again in it; only the reload tests boot it again."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import restart  # noqa: E402
from domino.app import saves  # noqa: E402
from domino.app import storage  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.records import from_record, to_record  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402

FAST = "?delay=0"


@pytest.fixture
def page(app):
    """The worker's shared page, on the app's first screen."""
    return app


# ------------------------------------------------------------------ helpers
def open_app(page, query="", stored=None):
    """The app started again with ?delay=0 and ``query``, ``stored`` in localStorage."""
    restart(page, FAST + query, stored)


def idle(page):
    page.wait_for_function("document.documentElement.dataset.busy === '0'", timeout=30_000)


def seq(page) -> int:
    return int(page.evaluate("document.documentElement.dataset.seq"))


def tid(page, name):
    return page.locator(f'[data-testid="{name}"]')


def save_text(page) -> str | None:
    return page.evaluate("""() => {
        for (let i = 0; i < localStorage.length; i++) {
            const k = localStorage.key(i);
            if (k.startsWith('domino:') && k.endsWith(':save')) return localStorage.getItem(k);
        }
        return null; }""")


def saved_record(page) -> dict:
    doc = json.loads(save_text(page))
    assert doc["format"] == "domino-save/1"
    return doc["record"]


def saved_match(page) -> Match:
    return from_record(saved_record(page))


def start(page, game="draw", kinds=("human", "human"), names=("Ana", "Luis")):
    tid(page, "game").select_option(game)
    tid(page, "players").select_option(str(len(kinds)))
    for i, (k, n) in enumerate(zip(kinds, names)):
        tid(page, f"seat-kind-{i}").select_option(k)
        tid(page, f"seat-name-{i}").fill(n)
    tid(page, "start").click()
    page.wait_for_selector('[data-testid="board"]')
    idle(page)


def tap_one_move(page) -> None:
    """The human on screen plays a playable tile (choosing a place if asked)."""
    before = seq(page)
    tile = page.locator('button[data-tile][aria-disabled="false"]').first
    tile.click(timeout=3000)
    targets = page.locator('[data-action="end"]')
    if seq(page) == before and targets.count():
        assert targets.count() >= 2
        for i in range(targets.count()):  # each place carries the state it belongs to
            assert targets.nth(i).get_attribute("data-seq") == str(before)
        targets.first.click()
    page.wait_for_function(f"+document.documentElement.dataset.seq > {before}", timeout=10_000)
    idle(page)


def play_until(page, testid, handoffs=None, max_moves=400, next_hands=False):
    for _ in range(max_moves):
        idle(page)
        if tid(page, testid).count():
            return
        if next_hands and tid(page, "next-hand").count():
            tid(page, "next-hand").click()
            continue
        if tid(page, "handoff").count():
            # nobody's tiles in the page while the device changes hands
            assert page.locator("[data-tile]").filter(has=page.locator("xpath=self::button")).count() == 0
            assert page.locator("button[data-tile]").count() == 0
            if handoffs is not None:
                handoffs.append(tid(page, "handoff").get_attribute("data-seat"))
            tid(page, "handoff-continue").click()
            continue
        tap_one_move(page)
    raise AssertionError(f"{testid} not reached")


def check_hand_result(page, m: Match):
    res = m.view(0)["result"]
    assert res is not None
    rows = tid(page, "hand-result").locator("[data-seat]")
    assert rows.count() == m.rules.players
    for seat in range(m.rules.players):
        row = tid(page, "hand-result").locator(f'[data-seat="{seat}"]')
        side = m.rules.side_of(seat)
        assert int(row.get_attribute("data-points")) == res["points"][side]
        assert int(row.get_attribute("data-total")) == res["totals"][side]


# ------------------------------------------------------------------ tests
@pytest.mark.parametrize("game", ["draw", "block"])
def test_hotseat_hand_by_tapping(page, assert_no_py_error, game):
    open_app(page, "&seed=21")
    tid(page, "new-game").wait_for()
    start(page, game)
    handoffs = []
    play_until(page, "hand-result", handoffs)
    assert len(handoffs) >= 2 and set(handoffs) == {"0", "1"}
    m = saved_match(page)
    assert m.phase in ("hand-over", "match-over")
    assert m.seq == seq(page)
    assert [s["name"] for s in m.seats] == ["Ana", "Luis"]
    check_hand_result(page, m)
    # every hand is revealed at the end
    for seat, tiles in enumerate(m.view(0)["result"]["hands"]):
        for t in tiles:
            assert tid(page, "hand-result").locator(f'.mini[data-tile="{t}"]').count() == 1
    assert_no_py_error(page)


def test_hand_against_the_computer(page, assert_no_py_error):
    open_app(page, "&seed=5")
    level = tid(page, "seat-kind-1").locator("option").nth(1).get_attribute("value")
    start(page, "draw", kinds=("human", level), names=("Ana", ""))
    if tid(page, "hint").count():   # the AI's hint, when the AI is present
        page.wait_for_selector('[data-testid="hint"]:not([disabled])')
        tid(page, "hint").click()
        idle(page)
        assert "Hint" in tid(page, "message").inner_text() or "Pista" in tid(page, "message").inner_text()
        assert page.locator("button.tile-btn.hinted").count() == 1
    handoffs = []
    play_until(page, "hand-result", handoffs)
    assert handoffs == []
    m = saved_match(page)
    assert m.seats[1]["kind"] == level and m.seats[1]["kind"] != "human"
    check_hand_result(page, m)
    assert any(h["seat"] == 1 and "play" in h for h in m.view(0)["history"])
    tid(page, "next-hand").click()
    idle(page)
    assert tid(page, "hand-result").count() == 0
    assert saved_match(page).hand_no == 1
    assert_no_py_error(page)


def _tap_policy(m: Match) -> dict:
    """What tap_one_move does: the first playable tile in hand order, then the
    first place in the board's order (end ids sorted)."""
    legal = m.legal_actions()
    for tile in m.view(m.turn)["hand"]:
        acts = [a for a in legal if a.get("play") == tile]
        if acts:
            return sorted(acts, key=lambda a: a.get("end") or "")[0]
    return legal[0]


def _near_final_record(moves_left=3):
    """A Draw match (two humans) a few taps from its end, as the browser will play it."""
    for seed in range(1, 100):
        m = Match(make_rules("draw", players=2, target=100), seed=seed,
                  seats=[{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}])
        snaps = []
        while not m.outcome:
            if m.phase == "hand-over":
                m.next_hand()
                snaps = []
            snaps.append(to_record(m))
            m.apply(_tap_policy(m))
        if m.hand_no > 0 and len(snaps) > moves_left:
            return snaps[-moves_left]
    raise AssertionError("no near-final match")


def test_match_end_from_saved_record(page, assert_no_py_error):
    record = _near_final_record()
    text = json.dumps({"format": "domino-save/1", "record": record})
    open_app(page, stored={storage.key("/domino/", storage.SAVE): text})
    tid(page, "board").wait_for()
    assert seq(page) == from_record(record).seq
    play_until(page, "match-result", next_hands=True)
    m = saved_match(page)
    assert m.outcome and m.phase == "match-over"
    winner = m.outcome["winner"]
    assert tid(page, "match-result").get_attribute("data-winner") == ("" if winner is None else str(winner))
    tid(page, "new-match").click()
    tid(page, "new-game").wait_for()
    assert_no_py_error(page)


def test_reload_mid_hand_continues(page, wait_ready, assert_no_py_error):
    open_app(page, "&seed=8")
    start(page, "draw")
    for _ in range(3):
        if tid(page, "handoff").count():
            tid(page, "handoff-continue").click()
        tap_one_move(page)
    if tid(page, "handoff").count():
        tid(page, "handoff-continue").click()
    s = seq(page)
    tiles = page.locator("button[data-tile]").evaluate_all("bs => bs.map(b => b.dataset.tile)")
    before = save_text(page)
    page.reload()   # no ?seed: a saved match always resumes anyway
    wait_ready(page)
    idle(page)
    assert seq(page) == s
    assert save_text(page) == before
    # two humans: after a reload the device is handed over again, hand hidden
    assert tid(page, "handoff").count() == 1
    assert page.locator("button[data-tile]").count() == 0
    tid(page, "handoff-continue").click()
    assert page.locator("button[data-tile]").evaluate_all("bs => bs.map(b => b.dataset.tile)") == tiles
    assert_no_py_error(page)


def test_corrupt_save_kept_and_new_game_offered(page, assert_no_py_error):
    bad = '{"format": "domino-save/1", "record": {"format": "domino-record/1", "game": "dr'
    open_app(page, "&seed=2", stored={storage.key("/domino/", storage.SAVE): bad})
    err = tid(page, "save-error")
    err.wait_for()
    assert err.inner_text().strip()
    kept = page.evaluate("""() => Object.keys(localStorage)
        .filter(k => k.startsWith('domino:/domino/:corrupt:'))
        .map(k => [k, localStorage.getItem(k)])""")
    assert len(kept) == 1 and kept[0][1] == bad
    assert kept[0][0].split(":corrupt:")[1][:2] == "20"   # ISO time
    start(page, "draw", kinds=("human", "human"))
    assert tid(page, "handoff").count() == 1
    tid(page, "handoff-continue").click()
    tap_one_move(page)
    assert saved_match(page).seq == seq(page)
    assert_no_py_error(page)


def test_old_save_format_is_migrated(page, assert_no_py_error):
    m = Match(make_rules("block", players=2), seed=4,
              seats=[{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}])
    m.apply(m.legal_actions()[0])
    open_app(page, stored={storage.key("/domino/", storage.SAVE): saves.dump_v0(m)})
    assert tid(page, "save-error").count() == 0
    assert seq(page) == m.seq
    assert json.loads(save_text(page))["format"] == "domino-save/1"
    assert_no_py_error(page)


@pytest.mark.parametrize("size", [(360, 740), (1920, 1080)])
def test_board_and_hand_fit_the_viewport(page, assert_no_py_error, size):
    w, h = size
    page.set_viewport_size({"width": w, "height": h})
    open_app(page, "&seed=3")
    level = tid(page, "seat-kind-1").locator("option").nth(1).get_attribute("value")
    start(page, "all-fives", kinds=("human", level), names=("Ana", ""))
    for _ in range(4):
        if page.locator('button[data-tile][aria-disabled="false"]').count() == 0:
            break
        tap_one_move(page)

    def inside(box):
        return box["x"] >= -0.5 and box["y"] >= -0.5 and box["x"] + box["width"] <= w + 0.5 \
            and box["y"] + box["height"] <= h + 0.5
    board = page.locator('[data-testid="board"] svg').first
    assert inside(board.bounding_box()), board.bounding_box()
    tiles = page.locator("button[data-tile]")
    assert tiles.count() >= 1
    for i in range(tiles.count()):
        assert inside(tiles.nth(i).bounding_box()), (i, tiles.nth(i).bounding_box())
    for name in ("scores", "message", "resign", "lang", "pips", "help"):
        assert tid(page, name).count() == 1, name
    assert_no_py_error(page)


def test_language_help_and_resign(page, wait_ready, assert_no_py_error):
    open_app(page, "&seed=6")
    tid(page, "lang").click()
    lang = page.evaluate("document.documentElement.lang")
    tid(page, "lang").click()
    assert page.evaluate("document.documentElement.lang") != lang
    tid(page, "help").click()
    tid(page, "help-dialog").wait_for()
    tid(page, "help-close").click()
    level = tid(page, "seat-kind-1").locator("option").nth(1).get_attribute("value")
    start(page, "block", kinds=("human", level), names=("Ana", ""))
    # the language setting is kept across a reload
    page.reload()
    wait_ready(page)
    idle(page)
    assert page.evaluate("document.documentElement.lang") != lang
    tid(page, "resign").click()
    tid(page, "resign-cancel").click()
    assert tid(page, "match-result").count() == 0
    tid(page, "resign").click()
    tid(page, "resign-confirm").click()
    tid(page, "match-result").wait_for()
    m = saved_match(page)
    assert m.outcome["reason"] == "resign" and m.outcome["winner"] == 1
    assert_no_py_error(page)


def test_keyboard_plays_and_the_move_is_announced(page, assert_no_py_error):
    """Tiles and places are buttons: focus + Enter plays; the live region
    (aria-live=polite) announces what happened."""
    open_app(page, "&seed=12")
    start(page, kinds=("human", "easy"), names=("Ana", ""))
    assert page.locator("#live").get_attribute("aria-live") == "polite"
    for _ in range(3):
        idle(page)
        if tid(page, "hand-result").count():
            break
        before = seq(page)
        tile = page.locator('button[data-tile][aria-disabled="false"]').first
        name = tile.get_attribute("data-tile")
        assert tile.get_attribute("aria-label") and name in tile.get_attribute("aria-label")
        tile.focus()
        page.keyboard.press("Enter")
        if seq(page) == before:
            place = page.locator('[data-action="end"]').first
            assert place.get_attribute("tabindex") == "0" and place.get_attribute("aria-label")
            place.focus()
            page.keyboard.press("Enter")
        page.wait_for_function(f"+document.documentElement.dataset.seq > {before}", timeout=10_000)
        idle(page)
        # the latest move (mine, or the computer's reply) is announced
        plays = [a for a in saved_match(page).view(0)["history"] if "play" in a]
        assert plays[-1]["play"] in page.locator("#live").inner_text()
        assert any(a["play"] == name and a["seat"] == 0 for a in plays)
    assert_no_py_error(page)


IN_DIALOG = """() => { const m = [...document.querySelectorAll('[aria-modal="true"]')].pop();
    return !!m && m.contains(document.activeElement) && document.activeElement !== m; }"""


def test_the_keyboard_stays_in_a_dialog_and_escape_closes_a_note(page, assert_no_py_error):
    """A modal dialog keeps the focus: Tab and Shift+Tab go round its buttons, never to the page it covers
    (a keyboard user would act on a screen hidden behind it; the monkey walk stayed there 300 steps).
    Escape closes a note told once, as its OK does."""
    open_app(page, "&seed=--5")                 # a seed that was not used: a note, one OK button
    tid(page, "safe-note").wait_for()
    assert page.evaluate(IN_DIALOG)
    for key in ("Tab", "Tab", "Shift+Tab", "Tab"):
        page.keyboard.press(key)
        assert page.evaluate(IN_DIALOG), key
        assert page.evaluate("document.activeElement.dataset.testid") == "safe-ok"
    page.keyboard.press("Escape")
    tid(page, "safe-note").wait_for(state="detached")
    # a dialog of several buttons: the rules' help, its last button Close
    tid(page, "help").click()
    dialog = page.locator('[aria-modal="true"]').last
    dialog.wait_for()
    count = dialog.evaluate("(m) => [...m.querySelectorAll('button, a[href], select, input, summary')]"
                            ".filter(e => e.getClientRects().length && !e.disabled).length")
    assert count >= 1
    seen = set()
    for _ in range(count + 2):                  # all the way round, and past the end into the first again
        page.keyboard.press("Tab")
        assert page.evaluate(IN_DIALOG)
        seen.add(page.evaluate("document.activeElement.outerHTML.slice(0, 200)"))
    assert len(seen) == count
    page.locator('[data-testid="help-close"]').focus()
    page.keyboard.press("Tab")
    assert page.evaluate(IN_DIALOG)
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "help-close"
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    page.keyboard.press("Tab")                  # no dialog: the page's own order again
    assert not page.evaluate(IN_DIALOG)
    assert_no_py_error(page)


def test_restart_in_the_same_page_starts_from_nothing(page, assert_no_py_error):
    """The shared page's restart (domino/browser.py's reset): the computers
    that were playing stop, the path's saves and settings go, the URL's
    query is the new one, and the first screen is a first visit's."""
    open_app(page, "&seed=4")
    tid(page, "lang").click()                          # a setting saved
    page.evaluate("localStorage.setItem('other-app', 'kept?')")
    tid(page, "game").select_option("draw")
    tid(page, "players").select_option("4")
    for i in range(4):
        tid(page, f"seat-kind-{i}").select_option("easy")
    tid(page, "start").click()
    page.wait_for_function("+document.documentElement.dataset.seq > 3", timeout=30_000)
    lang = page.evaluate("document.documentElement.lang")
    restart(page, "?delay=300&seed=9")
    assert page.evaluate("location.search") == "?delay=300&seed=9"
    tid(page, "new-game").wait_for()
    assert tid(page, "saved-match").count() == 0
    assert page.evaluate("document.documentElement.lang") != lang      # the setting is gone too
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('domino:/domino/:')"
                         " && !k.endsWith(':snapshot'))") == []
    assert page.evaluate("localStorage.getItem('other-app')") == "kept?"   # only the app's keys
    assert page.evaluate("document.documentElement.classList.contains('no-anim')") is False   # ?delay=300
    at = seq(page)
    page.wait_for_timeout(500)                         # the old computers would have moved by now
    assert seq(page) == at and save_text(page) is None
    assert_no_py_error(page)
