"""One full hand of every preset, played by tapping in Chromium, checked
against the engine: the save is read back from localStorage, replayed with
domino.engine.records.from_record, and each seat's data-points / data-total in the
hand result must be the engine's.

A human (seat 0) plays against "easy" computers, two seats where the preset
allows (Latin: its natural four, in partnership).  The human's taps follow
one policy, :func:`choose`, which the browser driver and the CPython
simulation below share: the first playable tile in hand order; a place on a
spinner arm (N, then S) when offered, else the first end id in sorted order;
Matador: the lowest number left open, and "draw instead" the first time it is
offered.  The seeds were picked by simulating that policy (see
:func:`simulate`) so that All Fives and Los Cincos put a tile on a spinner
arm and Matador asks which number stays open; the tests check it happened.

Every page load uses ?delay=0 and a fixed ?seed=; the tests share the
worker's booted page (conftest ``app``).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from domino import players  # noqa: E402
from conftest import restart  # noqa: E402
from test_app import idle, saved_record, seq, tid  # noqa: E402
from domino.app import same_result  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.records import from_record, to_record  # noqa: E402
from domino.engine.rules import PRESETS, make_rules  # noqa: E402

PLAYABLE = 'button[data-tile][aria-disabled="false"]'

#: game -> (players, seed, what the hand must show)
CASES = {
    "draw": (2, 1, ()),
    "block": (2, 1, ()),
    "all-fives": (2, 2, ("arm",)),
    "classic": (2, 2, ()),
    "latin": (4, 1, ()),
    "muggins": (2, 1, ()),
    "los-cincos": (2, 1, ("arm",)),
    "matador": (2, 29, ("open", "decline")),
}


@pytest.fixture
def page(app):
    """The worker's shared page, on the app's first screen."""
    return app


# ------------------------------------------------------------ the tap policy
def pick_end(ends: list[str]) -> str:
    for e in ("N", "S"):
        if e in ends:
            return e
    return sorted(ends)[0]


def choose(legal: list[dict], hand: list[str], declined: bool, m: Match | None = None) -> dict:
    """The action the browser driver's taps make (seat 0's turn).  Places
    that give the same table are not asked for: the app plays the first."""
    if not declined:
        draw = next((a for a in legal if "draw" in a), None)
        if draw is not None and any("play" in a for a in legal):
            return draw
    for tile in hand:
        acts = [a for a in legal if a.get("play") == tile]
        if not acts:
            continue
        if len(acts) == 1 or (m is not None and same_result(m, acts)):
            return acts[0]
        ends = []
        for a in acts:
            if a.get("end") is not None and a["end"] not in ends:
                ends.append(a["end"])
        end = pick_end(ends)
        at = [a for a in acts if a.get("end") == end]
        return min(at, key=lambda a: a.get("open", 0))
    return legal[0]


def new_match(game: str, n: int, seed: int) -> Match:
    kinds = ["human"] + ["easy"] * (n - 1)
    return Match(make_rules(game, players=n), seed=seed,
                 seats=[{"name": str(i), "kind": k} for i, k in enumerate(kinds)])


def simulate(game: str, n: int, seed: int) -> tuple[Match, set[str]]:
    """The first hand as the browser test plays it; what it showed."""
    m = new_match(game, n, seed)
    seen: set[str] = set()
    declined = False
    while m.phase == "play":
        if m.turn == 0:
            legal = m.legal_actions()
            a = choose(legal, m.view(0)["hand"], declined, m)
            if "draw" in a:
                declined = True
                seen.add("decline")
            if len([x for x in legal if x.get("play") == a.get("play") and x.get("end") == a.get("end")]) > 1:
                seen.add("open")
            asked = [x for x in legal if x.get("play") == a.get("play")]
            if a.get("end") in ("N", "S") and len(asked) > 1 and not same_result(m, asked):
                seen.add("arm")   # a place on a spinner arm was tapped
            m.apply(a)
        else:
            players.play_turn(m, "easy")
    if m.phase == "hand-over":
        seen.add("hand-over")
    return m, seen


def find_seed(game: str, n: int, want=(), start: int = 1) -> int:   # used to pick CASES
    for seed in range(start, start + 500):
        _, seen = simulate(game, n, seed)
        if "hand-over" in seen and set(want) <= seen:
            return seed
    raise AssertionError(f"no seed for {game}")


# ------------------------------------------------------------ browser helpers
# tid, idle, seq, saved_record: tests/browser/test_app.py


def tap_turn(page, declined: bool) -> str:
    """Seat 0's turn by taps, as :func:`choose` decides.  Returns what was tapped."""
    before = seq(page)
    draw = tid(page, "draw")
    if not declined and draw.count():
        draw.click()
        tapped = "decline"
    else:
        page.locator(PLAYABLE).first.click(timeout=3000)
        tapped = "tile"
        if seq(page) == before:
            places = page.locator('[data-action="end"]')
            if places.count():
                ends = places.evaluate_all("els => els.map(e => e.getAttribute('data-end'))")
                end = pick_end(ends)
                page.locator(f'[data-action="end"][data-end="{end}"]').first.click()
                tapped = "arm" if end in ("N", "S") else "end"
        if seq(page) == before:
            opens = page.locator('[data-action="open"]')
            assert opens.count() >= 2, "a tile that waits must offer places or numbers"
            values = opens.evaluate_all("els => els.map(e => +e.getAttribute('data-open'))")
            page.locator(f'[data-action="open"][data-open="{min(values)}"]').click()
            tapped = "open"
    page.wait_for_function(f"+document.documentElement.dataset.seq > {before}", timeout=10_000)
    return tapped


# ------------------------------------------------------------ the tests
def test_every_preset_has_a_case():
    # the line family (the other boards' rounds are tapped through in their own tests)
    assert set(CASES) == {g for g, p in PRESETS.items() if p.shape == "line"}
    for game, (n, seed, want) in CASES.items():
        _, seen = simulate(game, n, seed)
        assert "hand-over" in seen and set(want) <= seen, (game, seed, seen)


@pytest.mark.parametrize("game", list(CASES))
def test_one_hand_of_each_preset(page, assert_no_py_error, game):
    n, seed, want = CASES[game]
    restart(page, f"?delay=0&seed={seed}")
    tid(page, "new-game").wait_for()
    tid(page, "game").select_option(game)
    tid(page, "players").select_option(str(n))
    for i in range(n):
        tid(page, f"seat-kind-{i}").select_option("human" if i == 0 else "easy")
    assert tid(page, "options-error").count() == 0
    tid(page, "start").click()
    tid(page, "board").wait_for()
    tapped: set[str] = set()
    declined = False
    for _ in range(200):
        idle(page)
        if tid(page, "hand-result").count():
            break
        assert tid(page, "match-result").count() == 0
        assert tid(page, "handoff").count() == 0   # one human: never handed over
        what = tap_turn(page, declined)
        declined = declined or what == "decline"
        tapped.add(what)
    else:
        raise AssertionError("the hand did not end")

    record = saved_record(page)
    m = from_record(record)
    assert m.phase == "hand-over" and m.seq == seq(page)
    assert m.rules.game == game and m.rules.players == n
    assert [s["kind"] for s in m.seats] == ["human"] + ["easy"] * (n - 1)
    # the browser played exactly the hand the policy plays in CPython
    assert record["hands"][0]["actions"] == to_record(simulate(game, n, seed)[0])["hands"][0]["actions"]
    res = m.view(0)["result"]
    assert res is not None
    rows = tid(page, "hand-result").locator("tr[data-seat]")
    assert rows.count() == n
    for s in range(n):
        row = tid(page, "hand-result").locator(f'tr[data-seat="{s}"]')
        side = m.rules.side_of(s)
        assert int(row.get_attribute("data-points")) == res["points"][side], (game, s)
        assert int(row.get_attribute("data-total")) == res["totals"][side], (game, s)
    plays = [a for h in record["hands"] for a in h["actions"] if "play" in a]
    if "arm" in want:
        assert m.rules.spinner != "off"
        assert any(a.get("end") in ("N", "S") for a in plays), "no tile on a spinner arm"
        assert "arm" in tapped
    if "open" in want:
        assert any("open" in a for a in plays if a["seat"] == 0)
        assert "open" in tapped
    if "decline" in want:
        assert "decline" in tapped
        assert any(a["seat"] == 0 and "draw" in a for a in record["hands"][0]["actions"])
    assert_no_py_error(page)


def test_options_on_the_new_game_screen(page, assert_no_py_error):
    """Options: a changed value reaches the match and the table code; an
    invalid combination disables Start and says why."""
    restart(page, "?delay=0&seed=4")
    tid(page, "game").select_option("all-fives")
    assert tid(page, "lobby-code").get_attribute("data-code") == "100pt/5+"
    tid(page, "options-toggle").click()
    tid(page, "opt-spinner").select_option("off")
    assert tid(page, "lobby-code").get_attribute("data-code") == "100pt/5*"
    assert tid(page, "options").get_attribute("open") is not None   # stays open across the re-render
    tid(page, "opt-boneyard").select_option("none")
    tid(page, "opt-keep_last_two").select_option("on")
    assert tid(page, "options-error").is_visible()
    assert tid(page, "start").is_disabled()
    tid(page, "opt-keep_last_two").select_option("off")
    assert tid(page, "options-error").count() == 0
    # another game starts from its own defaults
    tid(page, "game").select_option("classic")
    assert tid(page, "opt-spinner").input_value() == "off"
    assert tid(page, "opt-rounding").input_value() == "nearest-5"
    tid(page, "opt-fives").select_option("total")
    tid(page, "opt-best_of_10").select_option("on")
    assert tid(page, "start").is_disabled()
    tid(page, "opt-fives").select_option("off")
    tid(page, "opt-set").select_option("9")
    tid(page, "seat-kind-1").select_option("easy")
    tid(page, "start").click()
    tid(page, "board").wait_for()
    idle(page)
    m = from_record(saved_record(page))
    assert m.rules.game == "classic" and m.rules.set == 9 and m.rules.best_of_10 and m.rules.hand_size == 9
    # remembered with the last new-game settings
    tid(page, "resign").click()
    tid(page, "resign-confirm").click()
    tid(page, "new-match").click()
    tid(page, "new-game").wait_for()
    assert tid(page, "game").input_value() == "classic"
    assert tid(page, "opt-set").input_value() == "9"
    assert tid(page, "opt-best_of_10").input_value() == "on"
    assert "Pepe" in tid(page, "seat-kind-1").locator("option[value=easy]").inner_text()
    assert_no_py_error(page)
