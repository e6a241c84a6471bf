"""Mexican Train, Chicken Foot and Frijolito in Chromium on a 360 x 740 phone.

* One whole round of each game tapped through by seat 0 against "easy"
  computers, started from the new-game screen; the save is read back,
  replayed with domino.engine.records.from_record, and must hold exactly the
  round that :func:`simulate` plays in CPython with the same tap policy
  (:func:`choose`); the hand result's rows and the round-by-round table must
  show the engine's points and totals.
* Mexican Train with 8 seats: nine lanes that do not overlap, each owner,
  marker and open end on screen; a tile that fits several trains lights up
  exactly those trains, each place tappable where it is drawn.
* Hot seat: the hand-off screen hides every hand; a reload mid-round comes
  back to the same position.

Every page load uses ?delay=0 and a fixed ?seed=; the tests share the
worker's booted phone page (conftest ``app`` with this module's
``app_context_args``).
"""
from __future__ import annotations

import time

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from a11y import axe_violations  # noqa: E402
from domino import players  # noqa: E402
from conftest import restart  # noqa: E402
from test_app import idle, saved_record, seq, tid  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.records import from_record, to_record  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402

PLAYABLE = 'button[data-tile][aria-disabled="false"]'
PHONE = {"width": 360, "height": 740}

#: game -> (players, seed, options): one round each, short enough to tap
CASES = {
    "mexican-train": (4, 1, {"set": 9}, {"places"}),      # 11 tiles each
    "chicken-foot": (4, 1, {}, {"places"}),               # 11 tiles each
    "frijolito": (4, 33, {}, {"flip", "peek", "reject-up", "play-W", "play-E"}),   # 7 tiles each
}


@pytest.fixture
def app_context_args():
    """A phone: its viewport, touch, and twice the pixels."""
    return {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture
def page(app):
    """The worker's shared phone page, on the app's first screen."""
    return app


# ------------------------------------------------------------ the tap policy
def choose(legal: list[dict], hand: list[str], peeked: bool) -> dict:
    """What seat 0's taps do: Frijolito turns over the next tile when it may
    (once a turn), sends an unplayable double face up; otherwise the first
    playable tile in hand order at the first place (end ids sorted); turning
    over the leftmost tile when that is all there is."""
    if not peeked:
        peek = next((a for a in legal if "peek" in a), None)
        if peek is not None:
            return peek
    for tile in hand:
        acts = [a for a in legal if a.get("play") == tile]
        if acts:
            return min(acts, key=lambda a: a.get("end") or "")
    for key in ("flip", "reject"):
        acts = [a for a in legal if key in a]
        if acts:
            return max(acts, key=lambda a: bool(a.get("face_up")))
    return legal[0]


def new_match(game: str, n: int, seed: int, opts: dict, kinds=None) -> Match:
    kinds = kinds or ["human"] + ["easy"] * (n - 1)
    return Match(make_rules(game, players=n, **opts), seed=seed,
                 seats=[{"name": str(i), "kind": k} for i, k in enumerate(kinds)])


def simulate(game: str, n: int, seed: int, opts: dict) -> Match:
    """The first round as the browser test plays it."""
    m = new_match(game, n, seed, opts)
    peeked = False
    while m.phase == "play":
        if m.turn == 0:
            a = choose(m.legal_actions(), m.view(0)["hand"], peeked)
            peeked = "peek" in a or (peeked and "play" not in a and "reject" not in a)
            m.apply(a)
        else:
            players.play_turn(m, "easy")
            peeked = False
    return m


# ------------------------------------------------------------ browser helpers
# tid, idle, seq, saved_record: tests/browser/test_app.py


def open_new_game(page, seed: int) -> None:
    restart(page, f"?delay=0&seed={seed}")
    tid(page, "new-game").wait_for()


def setup(page, game: str, kinds: list[str], opts: dict | None = None) -> None:
    tid(page, "game").select_option(game)
    tid(page, "players").select_option(str(len(kinds)))
    for i, k in enumerate(kinds):
        tid(page, f"seat-kind-{i}").select_option(k)
    if opts:
        tid(page, "options-toggle").click()
        for key, value in opts.items():
            tid(page, f"opt-{key}").select_option(str(value))
    assert tid(page, "options-error").count() == 0
    tid(page, "start").click()
    tid(page, "board").wait_for()


def tap(page, loc) -> None:
    loc.scroll_into_view_if_needed()
    loc.tap()


def tap_turn(page, m: Match, peeked: bool) -> tuple[dict, str]:
    """Seat 0's move by taps, as :func:`choose` decides on the saved match
    ``m``; returns the action and what was tapped last."""
    a = choose(m.legal_actions(), m.view(0)["hand"], peeked)
    before = seq(page)
    what = "tile"
    if "peek" in a or "flip" in a or "reject" in a or ("play" in a and m.rules.game == "frijolito"):
        # Frijolito: a button whose words say what it does
        what = next(k for k in ("peek", "flip", "reject") if k in a) if "play" not in a else \
            f"play-{a.get('end') or 'open'}"
        what += "-up" if a.get("face_up") else ""
        button = tid(page, what)
        assert button.inner_text().strip()
        tap(page, button)
    else:
        tap(page, page.locator(f'button[data-tile="{a["play"]}"]'))
        if seq(page) == before:
            ends = sorted({x["end"] for x in m.legal_actions() if x.get("play") == a["play"]})
            shown = page.locator('#board [data-action="end"]').evaluate_all("els => els.map(e => e.dataset.end)")
            assert sorted(shown) == ends, "the places lit up are exactly where the tile fits"
            for end in ends:   # each on screen, and a tap at its middle reaches it
                assert place_reachable(page, end), end
            listed = page.locator('[data-testid=places] [data-action="end"]')
            if listed.count():   # Chicken Foot: the same places as buttons under the board
                assert sorted(listed.evaluate_all("els => els.map(e => e.dataset.end)")) == ends
                if not getattr(page, "axe_on_places", False):   # once a round: axe with the list shown
                    page.axe_on_places = True
                    found = axe_violations(page)
                    assert found == [], found
                tap(page, listed.locator(f'xpath=self::*[@data-end="{a["end"]}"]'))
            else:
                tap(page, page.locator(f'#board [data-end="{a["end"]}"]'))
            what = "places"
    page.wait_for_function(f"+document.documentElement.dataset.seq > {before}", timeout=10_000)
    return a, what


def at_rest_on_seat_0(page, timeout: float = 30.0) -> Match | None:
    """The saved match once the page rests on seat 0's turn, the one the page shows (the computers who
    play first have played: a page not yet busy is not a page done), or None at the round's end."""
    give_up = time.monotonic() + timeout
    while True:
        idle(page)
        if tid(page, "hand-result").count():
            return None
        m = from_record(saved_record(page))
        if m.turn == 0 and m.seq == seq(page):
            return m
        assert time.monotonic() < give_up, \
            f"not at rest on seat 0's turn: turn {m.turn}, saved seq {m.seq}, shown seq {seq(page)}"
        page.wait_for_timeout(50)


def place_reachable(page, end: str) -> bool:
    box = page.locator(f'#board [data-end="{end}"] .target-hit').bounding_box()
    if not on_screen(box):
        return False
    return page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('[data-end]')?.dataset.end",
                         [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]) == end


def boxes_overlap(a: dict, b: dict) -> bool:
    return (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 0.5
            and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 0.5)


def on_screen(box: dict | None) -> bool:
    return box is not None and box["x"] >= -1 and box["y"] >= -1 and \
        box["x"] + box["width"] <= PHONE["width"] + 1 and box["y"] + box["height"] <= PHONE["height"] + 1


# ------------------------------------------------------------ the tests
def frijolito_taps(m: Match) -> set[str]:
    """The Frijolito buttons seat 0 taps in the simulated round (tap_turn's names)."""
    out = set()
    for a in to_record(m)["hands"][0]["actions"]:
        if a["seat"] == 0:
            what = next(k for k in ("peek", "flip", "reject") if k in a) if "play" not in a else \
                f"play-{a.get('end') or 'open'}"
            out.add(what + ("-up" if a.get("face_up") else ""))
    return out


def test_the_cases_end_their_round():
    for game, (n, seed, opts, want) in CASES.items():
        m = simulate(game, n, seed, opts)
        assert m.phase in ("hand-over", "match-over"), game
        if game == "frijolito":      # the seed's round has seat 0 tap every button the test wants
            assert want <= frijolito_taps(m), frijolito_taps(m)


@pytest.mark.parametrize("game", list(CASES))
def test_one_round_of_each_game(page, assert_no_py_error, game):
    n, seed, opts, want = CASES[game]
    open_new_game(page, seed)
    setup(page, game, ["human"] + ["easy"] * (n - 1), opts)
    peeked = False
    tapped: set[str] = set()
    for _ in range(300):
        m = at_rest_on_seat_0(page)
        if m is None:
            break
        assert tid(page, "handoff").count() == 0
        if not tapped:   # the table, once, with the seat's tiles up
            assert axe_violations(page) == []
        a, what = tap_turn(page, m, peeked)
        peeked = "peek" in a
        tapped.add(what)
    else:
        raise AssertionError("the round did not end")
    record = saved_record(page)
    m = from_record(record)
    assert m.phase in ("hand-over", "match-over") and m.seq == seq(page)
    assert record["hands"][0]["actions"] == to_record(simulate(game, n, seed, opts))["hands"][0]["actions"]
    res = m.view(0)["result"]
    for s in range(n):
        row = tid(page, "hand-result").locator(f'tr[data-seat="{s}"]')
        assert int(row.get_attribute("data-points")) == res["points"][s], (game, s)
        assert int(row.get_attribute("data-total")) == res["totals"][s], (game, s)
    rounds = tid(page, "rounds").locator("tr[data-round]")
    assert rounds.count() == 1
    assert rounds.first.get_attribute("data-points") == ",".join(map(str, res["points"]))
    assert want <= tapped, tapped
    assert axe_violations(page) == []   # the result with the round-by-round table
    assert_no_py_error(page)


def _first_turn_with_a_choice(n: int, start: int = 1) -> int:
    """A seed where seat 0 (human) opens holding a tile that fits two trains."""
    for seed in range(start, start + 200):
        m = new_match("mexican-train", n, seed, {})
        while m.phase == "play" and m.turn != 0:
            players.play_turn(m, "easy")
        legal = m.legal_actions() if m.phase == "play" else []
        for tile in {a["play"] for a in legal if "play" in a}:
            if len({a["end"] for a in legal if a.get("play") == tile}) >= 2:
                return seed
    raise AssertionError("no seed")


def test_mexican_train_eight_seats_on_a_phone(page, assert_no_py_error):
    seed = _first_turn_with_a_choice(8)
    open_new_game(page, seed)
    setup(page, "mexican-train", ["human"] + ["easy"] * 7)
    idle(page)
    page.wait_for_selector(PLAYABLE)
    m = from_record(saved_record(page))
    assert m.rules.players == 8 and m.turn == 0
    board = page.locator('[data-testid="board"] svg').bounding_box()
    assert on_screen(board)
    lanes = page.locator("g.train")
    assert lanes.count() == 9
    boxes = [lanes.nth(i).locator(".lane-bg").bounding_box() for i in range(9)]
    for i, a in enumerate(boxes):
        assert on_screen(a) and a["height"] >= 24, a
        for b in boxes[i + 1:]:
            assert not boxes_overlap(a, b)
    # the hand keeps 44 px tiles: one row under the board that scrolls sideways, not a second row that
    # takes the lanes' height
    hand = page.locator(".hand .tile-btn").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.bottom)]; })")   # whole px: a transform leaves 43.96
    bottoms = [b for _, b in hand]
    assert min(w for w, _ in hand) >= 44 and max(bottoms) - min(bottoms) <= 20, hand   # playable ones stand up
    v = m.view(0)
    for tr in v["layout"]["trains"]:
        lane = page.locator(f'g.train[data-train="{tr["id"]}"]')
        name = lane.locator(".lane-name")
        assert on_screen(name.bounding_box())
        text = name.text_content()
        owner = tr["owner"]
        assert (v["names"][owner][:3] if owner is not None else "Mexican") in text
        end = lane.locator(".open-end")
        assert end.get_attribute("data-end-value") == str(tr["open"])
        assert on_screen(end.bounding_box()) and end.bounding_box()["height"] >= 16
        assert lane.get_attribute("data-public") == ("true" if tr["public"] else "false")
    # the seven others sit in one strip above the board, in the order they
    # play after seat 0, each whole on screen, none over another or the board
    strip = page.locator(".seats-top .seat")
    assert strip.evaluate_all("els => els.map(e => +e.dataset.seat)") == list(range(1, 8))
    seats = [strip.nth(i).bounding_box() for i in range(7)]
    for i, a in enumerate(seats):
        assert on_screen(a), a
        assert a["y"] + a["height"] <= board["y"] + 1
        assert not any(boxes_overlap(a, b) for b in seats[i + 1:])
        assert strip.nth(i).locator(".seat-n").text_content() == str(v["counts"][i + 1])
    # the own train is outlined; the others' private trains are dimmed
    assert page.locator('g.train.mine').get_attribute("data-train") == "train:0"
    # a tile that fits several trains: exactly those places light up, each tappable
    legal = m.legal_actions()
    tile = next(t for t in v["hand"] if len({a["end"] for a in legal if a.get("play") == t}) >= 2)
    want = sorted({a["end"] for a in legal if a.get("play") == tile})
    tap(page, page.locator(f'button[data-tile="{tile}"]'))
    places = page.locator('[data-action="end"]')
    assert sorted(places.evaluate_all("els => els.map(e => e.dataset.end)")) == want
    for end in want:
        assert page.locator(f'[data-end="{end}"] .target-hit').bounding_box()["height"] >= 44   # lanes ~26 px
        assert place_reachable(page, end)
    assert axe_violations(page) == []
    before = seq(page)
    tap(page, page.locator(f'[data-end="{want[-1]}"]'))
    page.wait_for_function(f"+document.documentElement.dataset.seq > {before}")
    idle(page)
    played = [a for a in saved_record(page)["hands"][0]["actions"] if a["seat"] == 0 and "play" in a]
    assert played[0] == {"seat": 0, "play": tile, "end": want[-1]}
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # every lane's name stays inside its chip, in both languages (the
    # Spanish "Mexicano" once ran under the first folded tiles' "+N")
    assert names_outside_chips_in_both_languages(page) == []
    assert_no_py_error(page)


def test_mexican_train_names_fit_their_chips(page, assert_no_py_error):
    """Two seats: three tall lanes, the largest names; "Mexicano" once ran
    past its chip, under the "+N" of a folded train."""
    open_new_game(page, 5)
    setup(page, "mexican-train", ["human", "easy"])
    idle(page)
    assert page.locator("g.train").count() == 3
    assert names_outside_chips_in_both_languages(page) == []
    assert_no_py_error(page)


def names_outside_chips_in_both_languages(page) -> list:
    """names_outside_chips in this language and the other (toggled twice)."""
    out = []
    for _ in range(2):
        out += names_outside_chips(page)
        lang = page.evaluate("document.documentElement.lang")
        tid(page, "lang").click()
        page.wait_for_function(f"document.documentElement.lang != '{lang}'")
    return out


def names_outside_chips(page) -> list:
    """The lanes whose name runs past the right edge of their chip."""
    return page.locator("g.train").evaluate_all(
        "gs => gs.filter(g => g.querySelector('.lane-name').getBoundingClientRect().right >"
        " g.querySelector('.lane-chip').getBoundingClientRect().right + 0.5)"
        ".map(g => [g.dataset.train, g.querySelector('.lane-name').textContent])")


def test_hot_seat_hides_hands_and_reload_resumes(page, wait_ready, assert_no_py_error):
    open_new_game(page, 5)
    setup(page, "mexican-train", ["human", "human", "easy"])
    last = None
    for _ in range(4):   # a few moves, each after a hand-off unless the same person plays again
        idle(page)
        m = from_record(saved_record(page))
        if m.turn == last:   # again after a double: no hand-off, the same hand stays up
            assert tid(page, "handoff").count() == 0
        else:
            assert tid(page, "handoff").count() == 1
            assert page.locator("button[data-tile]").count() == 0
            assert page.locator(".hand").count() == 0
            assert page.locator("g.train.mine").count() == 0   # nobody's train is "yours"
            tap(page, tid(page, "handoff-continue"))
        last = m.turn
        assert sorted(page.locator("button[data-tile]").evaluate_all("bs => bs.map(b => b.dataset.tile)")) == \
            sorted(m.view(m.turn)["hand"])
        tap_turn_any(page, m)
    idle(page)
    s = seq(page)
    before = saved_record(page)
    page.reload()
    wait_ready(page)
    idle(page)
    assert seq(page) == s and saved_record(page) == before
    assert tid(page, "handoff").count() == 1
    tap(page, tid(page, "handoff-continue"))
    m = from_record(before)
    lanes = page.locator("g.train").evaluate_all(
        "gs => gs.map(g => [g.dataset.train, g.dataset.open, g.querySelectorAll('.tile').length"
        " + +(g.querySelector('.fold')?.dataset.hidden || 0)])")
    assert sorted(lanes) == sorted([tr["id"], str(tr["open"]), len(tr["tiles"])]
                                   for tr in m.view(m.turn)["layout"]["trains"])
    assert names_outside_chips(page) == []
    assert_no_py_error(page)


def tap_turn_any(page, m: Match) -> None:
    """The seat to move (a human) plays by taps as :func:`choose` says."""
    seat = m.turn
    a = choose(m.legal_actions(), m.view(seat)["hand"], False)
    before = seq(page)
    if "play" in a:
        tap(page, page.locator(f'button[data-tile="{a["play"]}"]'))
        if seq(page) == before:
            tap(page, page.locator(f'[data-end="{a["end"]}"]'))
    page.wait_for_function(f"+document.documentElement.dataset.seq > {before}", timeout=10_000)
