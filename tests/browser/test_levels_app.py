"""Every computer level plays in the browser: a hand against the hard
player (whose search runs in slices between frames) and a 4-player
partnership hand with one computer of each level, played by tapping and
checked against the engine's replay of the saved record, on the worker's
shared page (conftest ``app``)."""
from __future__ import annotations

import pytest
from conftest import restart
from test_presets_app import idle, saved_record, seq, tap_turn, tid

from domino.engine.records import from_record

CASES = [
    ("draw", ["human", "hard"], 3),
    ("latin", ["human", "easy", "medium", "hard"], 2),
]


@pytest.fixture
def page(app):
    """The worker's shared page, on the app's first screen."""
    return app


@pytest.mark.parametrize("game,kinds,seed", CASES, ids=[c[0] for c in CASES])
def test_a_hand_against_each_level(page, assert_no_py_error, game, kinds, seed):
    n = len(kinds)
    restart(page, f"?delay=0&seed={seed}")
    tid(page, "game").select_option(game)
    tid(page, "players").select_option(str(n))
    for i, k in enumerate(kinds):
        tid(page, f"seat-kind-{i}").select_option(k)
    tid(page, "start").click()
    tid(page, "board").wait_for()
    declined = False
    for _ in range(200):
        idle(page)
        if tid(page, "hand-result").count():
            break
        declined = tap_turn(page, declined) == "decline" or declined
    else:
        raise AssertionError("the hand did not end")
    record = saved_record(page)
    m = from_record(record)
    assert m.phase == "hand-over" and m.seq == seq(page)
    assert [s["kind"] for s in m.seats] == kinds
    played = {a["seat"] for a in record["hands"][0]["actions"] if "play" in a}
    assert played >= {s for s, k in enumerate(kinds) if k != "human"}   # every level moved
    res = m.view(0)["result"]
    for s in range(n):
        row = tid(page, "hand-result").locator(f'tr[data-seat="{s}"]')
        side = m.rules.side_of(s)
        assert int(row.get_attribute("data-points")) == res["points"][side]
        assert int(row.get_attribute("data-total")) == res["totals"][side]
    assert_no_py_error(page)
