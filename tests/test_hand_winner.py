"""A hand's result names a seat (who leads next) in ``winner`` and sides in
``winners``: every screen and count that names the winning side must take
the side, never the seat.  With partners, a blocked hand won by seat 2 or 3
once crashed the hand-result screen (seat 2 or 3 has no side of that number)
and counted a hand the partner went out in as a hand lost."""
from __future__ import annotations

import pytest

from domino import app, players
from domino.app import stats as stats_mod
from domino.app.nodes import text_of, walk
from domino.app.screens.display import Display
from domino.app.screens.results import hand_result, hand_summary, match_result
from domino.engine.common import winning_side
from domino.engine.match import Match
from domino.engine.rules import make_rules

NAMES = ["Ana", "Luis", "Eva", "Pau"]


def _first_hand(game: str, seed: int, kinds=None, **opts) -> Match:
    kinds = kinds or ["medium"] * 4
    m = Match(make_rules(game, players=4, **opts), seed=seed,
              seats=[{"name": NAMES[i], "kind": kinds[i]} for i in range(4)])
    while m.phase == "play":
        players.play_turn(m, "medium")
    return m


def _find(game: str, want, **opts) -> Match:
    for seed in range(1, 400):
        m = _first_hand(game, seed, **opts)
        if want(m.records[-1]["result"]):
            return m
    raise AssertionError("no such hand in 400 seeds")


@pytest.mark.parametrize("game,opts", [("latin", {}), ("draw", {"partnership": True}),
                                       ("all-fives", {"partnership": True})])
def test_blocked_hand_won_by_seat_2_or_3_names_the_side(game, opts):
    m = _find(game, lambda r: r["end"] == "blocked" and r["winner"] in (2, 3) and len(r["winners"]) == 1, **opts)
    res = m.records[-1]["result"]
    side = res["winners"][0]
    assert side == m.rules.side_of(res["winner"]) and side in (0, 1)
    want = {"en": f"{NAMES[side]} & {NAMES[side + 2]} wins the hand",
            "es": f"{NAMES[side]} y {NAMES[side + 2]} gana la mano"}
    for lang in ("en", "es"):
        for viewer in range(4):
            c = app.Controller(m, lang, viewer=viewer)
            v = c.view()
            assert want[lang] in [text_of(p) for p in hand_summary(c, v, lang)]
            tree = match_result(c, v, Display(lang)) if m.finished else hand_result(c, v, Display(lang))
            rows = [n for n in walk(tree) if n[0] == "tr" and "data-side" in n[1]]
            assert {r[1]["data-side"] for r in rows if "win" in (r[1].get("class") or "")} == {str(side)}


def test_winning_side_of_every_kind_of_result():
    sides2 = [[0, 2], [1, 3]]
    assert winning_side({"end": "blocked", "winner": 3, "winners": [1]}, sides2) == 1
    assert winning_side({"end": "domino", "winner": 2, "winners": [0]}, sides2) == 0
    assert winning_side({"end": "target", "winner": 3, "winners": []}, sides2) == 1
    assert winning_side({"end": "blocked", "winner": None, "winners": []}, sides2) is None
    assert winning_side(None, sides2) is None
    solo = [[0], [1], [2]]
    assert winning_side({"end": "blocked", "winner": 2, "winners": [2]}, solo) == 2


def test_a_hand_the_partner_won_counts_as_won_in_the_statistics():
    # the person sits at 0 with a computer partner at 2: a hand seat 2 wins is the person's
    m = Match(make_rules("latin", players=4, target=50), seed=1,
              seats=[{"name": NAMES[i], "kind": "human" if i == 0 else "medium"} for i in range(4)])
    while not m.finished:
        if m.phase == "hand-over":
            m.next_hand()
        players.play_turn(m, "medium")
    results = [rec["result"] for rec in m.records]
    won = sum(1 for r in results if r["winners"] == [0])
    lost = sum(1 for r in results if r["winners"] == [1])
    assert any(r["winner"] == 2 for r in results), "pick a seed where the partner wins a hand"
    row = stats_mod.match_row(m)
    assert (row["hands_won"], row["hands_lost"]) == (won, lost)

