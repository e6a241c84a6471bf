"""MirrorMatch: a guest's table drawn from its seat view alone is the table
the real match shows that seat (the same node trees, the same taps)."""
from __future__ import annotations

import random

import pytest

from domino import app, players
from domino.app.controller import Controller, same_result
from domino.app.screens.display import Display
from domino.app.screens.table import draw_board
from domino.app.story import play_points
from domino.engine.common import IllegalAction
from domino.engine.match import Match
from domino.engine.rules import make_rules
from domino.net.mirror import MirrorError, MirrorMatch

# (game, players, options, seats looked from, seed, stride between compared positions)
CASES = [
    ("draw", 2, {}, (0, 1), 3, 9),
    ("all-fives", 3, {}, (1,), 5, 5),                       # spinner, fives
    ("all-fives", 2, {"spinner": "first"}, (0,), 8, 5),
    ("latin", 4, {}, (0, 3), 2, 11),                        # partnership at 4
    ("mexican-train", 3, {"start_double": 3}, (2,), 4, 13),
    ("mexican-train", 4, {"start_double": 3, "holder_starts": True, "double_chains": True}, (1,), 6, 17),
    ("chicken-foot", 3, {"start_double": 3}, (0,), 7, 11),
    ("frijolito", 3, {"target": 50}, (1,), 9, 3),
    ("frijolito", 2, {"doubles_anywhere": True, "face_up": True, "target": 50}, (0,), 1, 3),
    ("matador", 2, {}, (0, 1), 4, 3),
    ("los-cincos", 2, {}, (1,), 2, 23),
    ("muggins", 3, {}, (2,), 6, 13),
]


def real_match(game: str, n: int, opts: dict, seat: int, seed: int) -> Match:
    """The seat is the one person; the others are computers, so the real
    table shows that seat face up (as the guest's mirror does)."""
    kinds = ["easy"] * n
    kinds[seat] = "human"
    return Match(make_rules(game, players=n, **opts), seed=seed,
                 seats=[{"name": f"P{i}", "kind": k} for i, k in enumerate(kinds)])


def places_to_choose(m: Match, seat: int | None) -> bool:
    """The seat is to move and one of its tiles fits more than one place."""
    if seat is None or m.turn != seat:
        return False
    tiles = [a["play"] for a in m.legal_actions() if "play" in a]
    return len(tiles) > len(set(tiles))


def positions(m: Match, stride: int, limit: int = 2000, seat: int | None = None, choices: int = 6):
    """Positions through the match: every ``stride``-th step, every hand's
    end and the match's end, and up to ``choices`` positions where ``seat``
    must choose where a tile goes; then the next decision (easy players)."""
    step = 0
    while step < limit:
        if step % stride == 0 or m.phase != "play":
            yield step
        elif choices and places_to_choose(m, seat):
            choices -= 1
            yield step
        if m.finished:
            return
        if m.phase == "hand-over":
            m.next_hand()
        else:
            t = m.turn
            m.apply(players.get_player("easy")(m.view(t), m.player_rng(t)))
        step += 1


def render(c: Controller, board: bool = False):
    """A screen's tree, or the exception the screen code raised."""
    display = Display(c.lang)
    try:
        return draw_board(c, display, 360, 280) if board else app.game_screen(c, display)
    except Exception as exc:   # noqa: BLE001
        return ("raised", repr(exc))


def compare(real: Controller, mirror: Controller, where) -> None:
    a, b = render(real), render(mirror)
    assert a == b, where
    assert render(real, True) == render(mirror, True), where
    assert real.seats() == mirror.seats() and real.log() == mirror.log(), where
    assert (real.message(), real.status(), real.targets(), real.open_choices()) == \
        (mirror.message(), mirror.status(), mirror.targets(), mirror.open_choices()), where


@pytest.mark.parametrize("game, n, opts, seats, seed, stride", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_the_guest_table_is_the_real_table(game, n, opts, seats, seed, stride):
    """The key property: for seat s, the table drawn around MirrorMatch(view
    of s) is node for node the table drawn around the real match when s is
    the one person there; with a tile selected too; and a tap does the same
    (the mirror keeps the action the real table applies)."""
    raised = compared = selected = 0
    for s in seats:
        m = real_match(game, n, opts, s, seed)
        for step in positions(m, stride, seat=s):
            mm = MirrorMatch(m.view(s), m.resigned)
            lang = "es" if step % 2 else "en"
            real, mirror = Controller(m, lang=lang, viewer=s), Controller(mm, lang=lang, viewer=s)
            compare(real, mirror, (s, step))
            compared += 1
            raised += isinstance(render(real), tuple) and render(real)[0] == "raised"
            assert mm.legal_actions() == m.legal_actions() if m.turn == s else mm.legal_actions() == []
            # each playable tile tapped on a copy of the real table and on the mirror
            for tile in sorted(real.playable()):
                rc = Controller(m.clone(), lang=lang, viewer=s)
                mc = Controller(MirrorMatch(m.view(s), m.resigned), lang=lang, viewer=s)
                done = rc.tap_tile(tile)
                kept = mc.tap_tile(tile)
                if done is None:
                    assert kept is None and mc.match.pending is None, (s, step, tile)
                    compare(rc, mc, (s, step, tile))
                    selected += 1
                else:
                    assert kept == [] and mc.match.pending["action"] == done[0], (s, step, tile)
                    assert mc.match.seq == m.seq          # the mirror changed nothing
    assert compared > 8
    if game in ("draw", "all-fives", "latin", "mexican-train", "chicken-foot"):
        assert selected > 0, "no position with a tile waiting for its place"
    if raised:    # only the app's partnership hand-result screen (see docs/NET.md)
        assert game == "latin"


def test_same_result_and_play_points_agree_with_the_real_match():
    for game, opts in (("all-fives", {}), ("los-cincos", {}), ("matador", {}), ("draw", {})):
        for seed in range(3):
            m = real_match(game, 2, opts, 0, seed)
            for _ in positions(m, 1, limit=400):
                mm = MirrorMatch(m.view(0), m.resigned)
                assert play_points(mm) == play_points(m)
                if m.phase == "play":
                    assert Match.layout(mm) == m.view(0)["layout"]
                    assert mm.hand.fives == m.hand.fives and mm.hand.ends_total() == m.hand.ends_total()
                if m.turn == 0:
                    by_tile: dict[str, list] = {}
                    for a in m.legal_actions():
                        if "play" in a:
                            by_tile.setdefault(a["play"], []).append(a)
                    for acts in by_tile.values():
                        if len(acts) > 1:
                            assert same_result(mm, acts) == same_result(m, acts), acts


def test_view_of_another_seat_is_the_public_part():
    for game, n, opts in (("draw", 3, {}), ("mexican-train", 3, {"start_double": 3}),
                          ("frijolito", 3, {"target": 50}), ("chicken-foot", 2, {"start_double": 3})):
        m = real_match(game, n, opts, 1, 11)
        for _ in positions(m, 7, limit=150):
            mm = MirrorMatch(m.view(1))
            for k in range(n):
                if k == 1:
                    assert mm.view(k) == m.view(k)
                    continue
                want = m.view(k)
                want["legal"] = []
                want["history"] = [dict(a, draw=None) if a.get("draw") else a for a in want["history"]]
                if game != "frijolito":        # there a seat's face-up tiles are public
                    want["hand"] = []
                assert mm.view(k) == want, (game, k)


def test_the_mirror_changes_nothing_and_keeps_the_decision():
    m = real_match("draw", 2, {}, 0, 3)
    while m.turn != 0:
        m.apply(players.get_player("easy")(m.view(m.turn), m.player_rng(m.turn)))
    v = m.view(0)
    mm = MirrorMatch(v)
    a = m.legal_actions()[0]
    assert mm.apply(a) == []
    assert mm.view(0) == v and mm.seq == v["seq"] and mm.phase == "play"
    assert mm.take_pending() == {"seq": v["seq"], "action": a} and mm.take_pending() is None
    mm.resign(0)
    assert mm.take_pending()["action"] == {"seat": 0, "resign": True}
    with pytest.raises(IllegalAction):
        mm.next_hand()
    with pytest.raises(IllegalAction):
        mm.find_move({"seat": 0, "play": "9-9", "end": "W"})
    with pytest.raises(IllegalAction):
        mm.find_move({"seat": 1, "pass": True})
    # the copies it hands out are its own
    mm.view(0)["hand"].clear()
    mm.legal_actions().clear()
    assert mm.view(0) == v and mm.legal_actions() == m.legal_actions()
    # it holds nothing of the real match but the view
    assert not hasattr(mm, "seed") and mm.hand.bone == [] and len(mm.records) == v["hand_no"] + 1


def test_people_elsewhere_are_remote_and_this_seat_is_face_up():
    m = Match(make_rules("draw", players=3), seed=1,
              seats=[{"name": "Host", "kind": "human"}, {"name": "Me", "kind": "remote"},
                     {"name": "Pepe", "kind": "medium"}])
    mm = MirrorMatch(m.view(1))
    assert [s["kind"] for s in mm.seats] == ["remote", "human", "medium"]
    c = Controller(mm)
    assert c.viewer == 1 and c.face_up() == 1 and c.handoff() is None
    tree = app.game_screen(c, Display())
    assert not app.find(tree, data_testid="handoff")
    assert len(app.find(tree, data_action="tile")) == len(m.view(1)["hand"])


def test_update_keeps_the_last_good_view():
    m = real_match("all-fives", 2, {}, 0, 2)
    v0 = m.view(0)
    mm = MirrorMatch(v0)
    bad = dict(v0, history=[{"seat": 1, "play": "6-6", "end": "Q"}])
    for broken in (bad, dict(v0, game="chess"), dict(v0, options={"players": "two"}), dict(v0, seat=5),
                   dict(v0, names=["x"]), dict(v0, phase="lunch"), dict(v0, hand=["x-y"]), [], None,
                   dict(v0, history=[{"seat": 9, "pass": True}]), {k: v0[k] for k in list(v0)[:5]}):
        with pytest.raises(MirrorError):
            mm.update(broken)
        with pytest.raises(MirrorError):
            MirrorMatch(broken)
    assert mm.view(0) == v0


def test_rules_records_and_resigned():
    m = real_match("mexican-train", 3, {"start_double": 3, "boneyard": "none"}, 2, 5)
    for _ in positions(m, 50):
        pass
    m2 = real_match("latin", 4, {}, 1, 3)
    for _ in positions(m2, 1, limit=random.Random(1).randrange(30, 60)):
        pass
    m2.resign(3)
    for match, seat in ((m, 2), (m2, 1)):
        mm = MirrorMatch(match.view(seat), match.resigned)
        assert mm.rules == match.rules
        assert (mm.phase, mm.turn, mm.hand_no, mm.outcome, mm.finished, mm.scores) == \
            (match.phase, match.turn, match.hand_no, match.outcome, match.finished, match.scores)
        assert mm.resigned == match.resigned
        assert [r["result"] for r in mm.records[:-1]] == [Match.public_result(r["result"]) for r in match.records[:-1]]
    c = Controller(MirrorMatch(m2.view(1), m2.resigned), viewer=1)
    assert c.message() == Controller(m2, viewer=1).message() == "P3 resigns"


@pytest.mark.parametrize("field,value", [("id", "1-1"), ("id", "foot:x"), ("parent", "foot"), ("must", ["1-1"])])
def test_a_chicken_foot_branch_id_that_is_not_the_engines_is_refused(field, value):
    """The board's drawing reads ``foot:<n>``: a host's view naming a branch
    any other way is refused by the mirror, never drawn (it crashed the board)."""
    m = real_match("chicken-foot", 3, {}, 0, 5)
    while not m.view(0)["layout"]["branches"][1:]:
        players.play_turn(m, "easy")
    v = m.view(0)
    MirrorMatch(v)      # the real one stands
    lay = v["layout"]
    if field == "must":
        lay["must"] = value
    else:
        lay["branches"][-1][field] = value
    with pytest.raises(MirrorError):
        MirrorMatch(v)
