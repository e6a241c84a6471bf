"""Worked cases of RULES.md 4-6 (Mexican Train, Chicken Foot, Frijolito),
each on a staged round: the hands, boneyard and opener are set by hand on the
core of a fresh match, then everything goes through the public Match API."""
from __future__ import annotations

import json

import pytest

from domino.engine import foot, row, tiles, trains
from domino.engine.match import IllegalAction, Match
from domino.engine.records import ReplayError, from_record, to_record
from domino.engine.rules import RulesError, make_rules


def ids(names):
    return [tiles.Tile.parse(n).id for n in names]


def staged(game: str, hands: list[list[str]], bone=(), opener=0, double=None, seed=0, **opts) -> Match:
    """A match whose current round is exactly these hands (any sizes)."""
    r = make_rules(game, players=len(hands), **opts)
    m = Match(r, seed=seed)
    deal = [ids(h) for h in hands]
    bone = ids(bone)
    rec = m.records[-1]
    if r.shape == "trains":
        v = r.first_double if double is None else double
        eng = -1 if r.holder_starts else tiles.Tile(v, v).id
        forced = tiles.Tile(v, v).id if r.holder_starts else None
        m.hand = trains.Round(r, [tiles.mask_of(h) for h in deal], bone, opener, eng, forced)
        rec.update(engine=eng, double=v)
    elif r.shape == "foot":
        v = r.first_double if double is None else double
        m.hand = foot.Round(r, [tiles.mask_of(h) for h in deal], bone, opener, tiles.Tile(v, v).id)
        rec.update(double=v)
    else:
        m.hand = row.Round(r, deal, bone, opener)
    rec.update(deal=deal, boneyard=bone, opener=opener, actions=m.hand.actions)
    m.hand.advance()
    return m


def do(m: Match, seat: int, tile: str, end: str | None = None) -> list[dict]:
    a = {"seat": seat, "play": tile}
    if end is not None:
        a["end"] = end
    return m.apply(a)


def plays(m: Match) -> set[tuple[str, str | None]]:
    return {(a["play"], a.get("end")) for a in m.legal_actions() if "play" in a}


def refused(m: Match, action: dict, code: str) -> None:
    key = m.state_key()
    with pytest.raises(IllegalAction) as exc:
        m.apply(action)
    assert exc.value.code == code, exc.value.message
    assert m.state_key() == key


# ===================================================================== presets
def test_presets_players_sets_and_lobby_codes():
    assert make_rules("mexican-train").set == 12 and make_rules("mexican-train").players == 4
    assert make_rules("mexican-train", players=8).hand_size == (90 - 16) // 8
    assert make_rules("mexican-train", players=4, set=9).hand_size == (54 - 8) // 4
    with pytest.raises(RulesError) as e:
        make_rules("mexican-train", players=5, set=9)
    assert e.value.code == "set-players"
    assert make_rules("mexican-train", players=4, boneyard="none").hand_size == 90 // 4
    assert make_rules("chicken-foot", players=8).set == 12       # double-9 gives 4 each at 8
    with pytest.raises(RulesError):
        make_rules("chicken-foot", players=8, set=9)
    assert [make_rules("frijolito", players=n).hand_size for n in (2, 3, 4)] == [14, 9, 7]
    with pytest.raises(RulesError):
        make_rules("frijolito", players=5)
    with pytest.raises(RulesError):
        make_rules("mexican-train", spinner="first")
    with pytest.raises(RulesError):
        make_rules("chicken-foot", set=9, start_double=9)
    assert make_rules("mexican-train").lobby_code() == "12..0/mt"
    assert make_rules("mexican-train", start_double=6, double_chains=True,
                      boneyard="none").lobby_code() == "6..0/mt cs"
    assert make_rules("chicken-foot").lobby_code() == "9..0/pp"
    assert make_rules("frijolito", target=50, elimination=True).lobby_code() == "50pt/fri. e"
    # records list only the options of the game
    assert "spinner" not in make_rules("frijolito").options()
    assert "start_double" not in make_rules("draw").options()


# ================================================================ Mexican Train
def test_mt_rounds_go_down_from_the_engine_and_deal_the_formula():
    r = make_rules("mexican-train", players=3, set=9, start_double=3)
    m = Match(r, seed=5)
    seen = []
    while not m.finished:
        if m.phase == "hand-over":
            m.next_hand()
            continue
        v = m.view(m.turn)
        if not seen or seen[-1] != v["layout"]["engine"]:
            seen.append(v["layout"]["engine"])
            assert sum(v["counts"]) + v["boneyard"] == 55 - 1 - sum(
                1 for a in v["history"] if "play" in a)
        m.apply(v["legal"][0])
    assert seen == ["3-3", "2-2", "1-1", "0-0"]
    assert len(m.records) == 4 and m.outcome["reason"] == "rounds"
    low = min(m.scores)
    assert m.outcome["winner"] == (m.scores.index(low) if m.scores.count(low) == 1 else None)
    for rec in m.records:
        assert all(len(h) == r.hand_size for h in rec["deal"])
        assert rec["result"]["points"] == rec["result"]["counts"] or rec["result"]["end"] == "domino"


def test_mt_first_play_own_or_mexican_train_only():
    m = staged("mexican-train", [["9-4", "2-3"], ["9-1", "5-6"], ["0-1", "0-2"]], ["8-8", "0-3"], set=9)
    assert plays(m) == {("4-9", "train:0"), ("4-9", "train:mexican")}
    refused(m, {"seat": 0, "play": "4-9", "end": "train:1"}, "no-match")
    do(m, 0, "4-9", "train:0")
    assert m.turn == 1
    assert plays(m) == {("1-9", "train:1"), ("1-9", "train:mexican")}


def test_mt_double_must_be_satisfied():
    m = staged("mexican-train", [["9-4", "4-4", "0-0"], ["9-1", "4-7", "5-6"], ["9-2", "2-3", "0-1"]],
               ["8-8", "0-3", "6-6"], set=9)
    do(m, 0, "4-9", "train:0")
    do(m, 1, "1-9", "train:1")
    do(m, 2, "2-9", "train:2")
    done = do(m, 0, "4-4", "train:0")             # a double: seat 0 plays again, on it
    assert m.view(0)["layout"]["open_doubles"] == ["train:0"]
    # seat 0 cannot close it: draws one (8-8), still cannot, passes, train marked public
    assert done[1:] == [{"seat": 0, "draw": "8-8"}, {"seat": 0, "pass": True}]
    v = m.view(1)
    assert m.turn == 1 and v["layout"]["trains"][0]["public"] is True
    # seat 1 must close the double: nothing else is legal
    assert plays(m) == {("4-7", "train:0")}
    refused(m, {"seat": 1, "play": "5-6", "end": "train:1"}, "no-match")
    refused(m, {"seat": 1, "play": "1-9", "end": "train:1"}, "not-in-hand")
    do(m, 1, "4-7", "train:0")
    assert m.view(2)["layout"]["open_doubles"] == []
    assert plays(m) == {("2-3", "train:2")}           # train 0 (public) now shows 7


def test_mt_open_double_blocks_everyone_who_cannot_close_it():
    m = staged("mexican-train", [["9-5", "5-5", "0-0"], ["9-1", "1-2"], ["9-2", "2-3"]],
               ["0-3", "6-6", "7-7", "8-8"], set=9)
    do(m, 0, "5-9", "train:0")
    do(m, 1, "1-9", "train:1")
    do(m, 2, "2-9", "train:2")
    done = do(m, 0, "5-5", "train:0")
    # nobody can close 5-5: each in turn draws one and passes, then only passes: blocked
    kinds = [next(k for k in ("draw", "pass") if k in a) for a in done[1:]]
    assert kinds == ["draw", "pass"] * 3 + ["draw"]     # the last draw empties the boneyard
    assert m.phase == "hand-over" and m.records[-1]["result"]["end"] == "blocked"
    assert [t["public"] for t in m.view(0)["layout"]["trains"]] == [True, True, True, True]
    assert m.view(0)["layout"]["open_doubles"] == ["train:0"]


def test_mt_marker_set_by_pass_and_lifted_by_own_play():
    m = staged("mexican-train", [["9-4", "1-2"], ["9-1", "3-3", "5-6"], ["9-8", "1-5", "0-8"]],
               ["6-7", "5-5", "0-0"], set=9, mexican_train=False)
    do(m, 0, "4-9", "train:0")
    do(m, 1, "1-9", "train:1")
    done = do(m, 2, "8-9", "train:2")
    # seat 0 holds 1-2: train 1 shows 1 but is private; it draws 6-7 and passes
    assert done[1:] == [{"seat": 0, "draw": "6-7"}, {"seat": 0, "pass": True},
                        {"seat": 1, "draw": "5-5"}, {"seat": 1, "pass": True}]
    pub = [t["public"] for t in m.view(2)["layout"]["trains"]]
    assert pub == [True, True, False]
    assert plays(m) == {("1-5", "train:1"), ("0-8", "train:2")}   # train 1 is public now
    do(m, 2, "1-5", "train:1")
    assert m.turn == 1                                  # seat 0 drew 0-0 and passed
    assert plays(m) == {("5-6", "train:1"), ("5-5", "train:1")}
    do(m, 1, "5-6", "train:1")                          # the owner plays on it: marker lifted
    pub = [t["public"] for t in m.view(2)["layout"]["trains"]]
    assert pub == [True, False, False]





def test_mt_no_boneyard_passes_at_once():
    m = staged("mexican-train", [["9-4", "1-2"], ["0-0", "5-6"], ["9-2", "2-3"]], ["8-8", "7-7"],
               set=9, boneyard="none")
    done = do(m, 0, "4-9", "train:0")
    assert done[1:] == [{"seat": 1, "pass": True}]        # no draw, straight to the pass
    assert m.view(0)["layout"]["trains"][1]["public"] and m.view(0)["boneyard"] == 0
    assert m.turn == 2





def test_mt_double_chains_two_open_doubles_then_close_one():
    hands = [["9-4", "4-4", "5-9", "5-5", "4-1", "0-0"], ["9-1", "1-2", "5-3"], ["9-2", "2-3", "0-2"]]
    without = staged("mexican-train", hands, ["8-8", "7-7", "6-6"], set=9)
    m = staged("mexican-train", hands, ["8-8", "7-7", "6-6"], set=9, double_chains=True)
    for g in (without, m):
        do(g, 0, "4-9", "train:0")
        do(g, 1, "1-9", "train:1")
        do(g, 2, "2-9", "train:2")
        do(g, 0, "5-9", "train:mexican")
        do(g, 1, "1-2", "train:1")
        do(g, 2, "2-3", "train:2")
        do(g, 0, "4-4", "train:0")
        assert g.turn == 0
    assert plays(without) == {("1-4", "train:0")}      # only closing the double
    assert plays(m) == {("1-4", "train:0"), ("5-5", "train:mexican")}   # or the chain
    do(m, 0, "5-5", "train:mexican")
    assert m.turn == 0 and m.view(0)["layout"]["open_doubles"] == ["train:0", "train:mexican"]
    assert plays(m) == {("1-4", "train:0")}            # then a tile closing one of them
    do(m, 0, "1-4", "train:0")
    assert m.turn == 1
    assert m.view(1)["layout"]["open_doubles"] == ["train:mexican"]
    assert plays(m) == {("3-5", "train:mexican")}      # the other must be closed before play elsewhere


def test_mt_doubles_need_not_be_closed_option():
    hands = [["9-4", "4-4", "9-6", "0-0"], ["9-1", "1-2", "5-6"], ["9-2", "2-3"]]
    m = staged("mexican-train", hands, ["8-8", "7-7", "6-6", "3-3"], set=9, close_doubles=False)
    do(m, 0, "4-9", "train:0")
    do(m, 1, "1-9", "train:1")
    do(m, 2, "2-9", "train:2")
    do(m, 0, "4-4", "train:0")
    assert m.turn == 0                                   # still the extra play
    assert ("6-9", "train:mexican") in plays(m)          # anywhere
    do(m, 0, "6-9", "train:mexican")
    assert m.turn == 1
    assert ("1-2", "train:1") in plays(m) and m.view(1)["layout"]["open_doubles"] == []


def test_mt_holder_starts_option_and_skipped_double():
    r = make_rules("mexican-train", players=2, set=9, holder_starts=True, start_double=3)
    m = Match(r, seed=11)
    used = []
    while not m.finished:
        if m.phase == "hand-over":
            m.next_hand()
            continue
        if not m.hand.actions:
            legal = m.legal_actions()
            assert len(legal) == 1 and "end" not in legal[0]
            t = tiles.Tile.parse(legal[0]["play"])
            assert t.is_double and legal[0]["seat"] == m.turn
            used.append(t.a)
        m.apply(m.legal_actions()[0])
    assert sorted(used, reverse=True) == [3, 2, 1, 0] and len(m.records) == 4
    doc = json.loads(json.dumps(to_record(m)))
    assert "engine" not in doc["hands"][0]
    assert from_record(doc).state_key() == m.state_key()


def test_mt_views_hide_other_hands_and_records_use_train_ids():
    m = Match(make_rules("mexican-train", players=3, set=9), seed=3)
    for _ in range(30):
        if m.phase != "play":
            break
        m.apply(m.legal_actions()[-1])
    doc = to_record(m)
    ends = {a["end"] for h in doc["hands"] for a in h["actions"] if "end" in a}
    assert ends and ends <= {"train:0", "train:1", "train:2", "train:mexican"}
    assert doc["hands"][0]["engine"] == "9-9"
    v = m.view(0)
    assert v["shape"] == "trains" and "hand" in v and v["counts"]
    bad = dict(doc)
    bad["hands"] = [dict(doc["hands"][0], engine="8-8")]
    with pytest.raises(ReplayError):
        from_record(bad)


# ================================================================ Chicken Foot
def test_cf_zero_zero_counts_fifty():
    assert foot.weigh(tiles.mask_of(ids(["0-0", "1-2"]))) == 53
    m = staged("chicken-foot", [["9-9", "9-1"], ["0-0", "2-3"]], [], set=9)
    assert m.turn == 0 and plays(m) == {("9-9", None)}
    done = do(m, 0, "9-9")
    # seat 1: 0-0 and 2-3 fit no toe (9), nothing to draw: passes; seat 0 plays 9-1 and goes out
    assert done[1:] == [{"seat": 1, "pass": True}]
    do(m, 0, "1-9", "foot:0")
    res = m.records[-1]["result"]
    assert res["end"] == "domino" and res["counts"][1] == 55 and res["points"] == [0, 55]


def test_cf_center_foot_of_six_then_free():
    toes = ["9-1", "9-2", "9-3", "9-4", "9-5", "9-6"]
    m = staged("chicken-foot", [["9-9"] + toes[:3] + ["1-7"], toes[3:] + ["2-8", "0-0"]],
               ["7-7", "8-8"], set=9)
    do(m, 0, "9-9")
    lay = m.view(0)["layout"]
    assert [b["id"] for b in lay["branches"]] == [f"foot:{k}" for k in range(6)]
    assert lay["must"] == [f"foot:{k}" for k in range(6)]
    # only the first empty toe is offered; 1-7 (a 1) cannot go anywhere yet
    assert plays(m) == {("4-9", "foot:0"), ("5-9", "foot:0"), ("6-9", "foot:0")}
    refused(m, {"seat": 1, "play": "4-9", "end": "foot:3"}, "no-match")
    for k in range(6):
        a = [x for x in m.legal_actions() if "play" in x][0]
        assert a["end"] == f"foot:{k}"
        m.apply(a)
    lay = m.view(0)["layout"]
    assert lay["must"] == [] and len(lay["branches"]) == 6
    assert set(m.view(m.turn)["ends"]) == {f"foot:{k}" for k in range(6)}


def test_cf_double_grows_three_toes_that_must_be_filled_first():
    m = staged("chicken-foot", [["9-9", "9-1", "9-3", "9-5", "1-1", "0-0"],
                                ["9-2", "9-4", "9-6", "2-7", "1-5", "1-8", "7-8"]], ["3-3", "4-4", "5-5"],
               set=9)
    do(m, 0, "9-9")
    for seat, t in [(1, "2-9"), (0, "1-9"), (1, "4-9"), (0, "3-9"), (1, "6-9"), (0, "5-9")]:
        do(m, seat, t, m.view(seat)["layout"]["must"][0])
    assert m.view(1)["layout"]["must"] == []
    do(m, 1, "2-7", "foot:0")                           # free play
    do(m, 0, "1-1", "foot:1")                           # a double: its foot of three toes
    lay = m.view(1)["layout"]
    assert lay["branches"][1]["open"] is None
    assert [b["parent"] for b in lay["branches"][6:]] == ["foot:1"] * 3
    assert lay["must"] == ["foot:6", "foot:7", "foot:8"]
    assert plays(m) == {("1-5", "foot:6"), ("1-8", "foot:6")}
    refused(m, {"seat": 1, "play": "7-8", "end": "foot:0"}, "no-match")   # fits, but the foot first
    do(m, 1, "1-5", "foot:6")


def test_cf_draw_one_then_pass():
    m = staged("chicken-foot", [["9-9", "0-1"], ["2-3", "4-5"]], ["6-7", "9-8", "1-1"], set=9)
    done = do(m, 0, "9-9")
    # seat 1 has no 9: draws ONE (6-7), it does not fit, passes; seat 0 draws 9-8, which fits
    assert done[1:] == [{"seat": 1, "draw": "6-7"}, {"seat": 1, "pass": True}, {"seat": 0, "draw": "8-9"}]
    assert m.turn == 0 and m.view(0)["boneyard"] == 1
    assert plays(m) == {("8-9", "foot:0")}


def test_cf_next_round_opened_by_next_lower_double_held():
    r = make_rules("chicken-foot", players=3, set=9, start_double=6)
    m = Match(r, seed=4)
    doubles = []
    while not m.finished:
        if m.phase == "hand-over":
            m.next_hand()
            continue
        if not m.hand.actions:
            t = tiles.Tile.parse(m.legal_actions()[0]["play"])
            held = [d for d in range(10) if any(tiles.Tile(d, d).id in h for h in m.records[-1]["deal"])]
            want = 6 if not doubles else doubles[-1] - 1
            assert t.is_double and t.a == max(d for d in held if d <= want)
            doubles.append(t.a)
        m.apply(m.legal_actions()[0])
    assert doubles[-1] == 0 and doubles == sorted(doubles, reverse=True)
    assert m.outcome["reason"] == "rounds"


# ================================================================== Frijolito
def test_fr_turn_over_play_and_continue():
    m = staged("frijolito", [["3-5", "5-6", "0-0", "1-2"], ["6-6", "2-4", "4-4", "1-1"]], [], opener=0)
    assert m.legal_actions() == [{"seat": 0, "flip": None}]
    v = m.view(0)
    assert v["hand"] == [] and all(x["tile"] is None for x in v["layout"]["rows"][0])
    assert m.apply({"seat": 0, "flip": None}) == [{"seat": 0, "flip": "3-5"}]
    assert m.view(1)["layout"]["active"] == "3-5"
    assert plays(m) == {("3-5", None)}
    do(m, 0, "3-5")
    assert m.legal_actions() == [{"seat": 0, "flip": None}]          # goes on
    m.apply({"seat": 0, "flip": None})
    do(m, 0, "5-6", "E")
    m.apply({"seat": 0, "flip": None})
    # 0-0 does not fit: a double, so the player chooses face down or face up
    legal = m.legal_actions()
    assert {"seat": 0, "reject": "0-0"} in legal and {"seat": 0, "reject": "0-0", "face_up": True} in legal
    refused(m, {"seat": 0, "play": "0-0", "end": "W"}, "no-match")
    m.apply({"seat": 0, "reject": "0-0", "face_up": True})
    assert m.turn == 1
    rows = m.view(1)["layout"]["rows"]
    assert rows[0] == [{"tile": None, "up": False}, {"tile": "0-0", "up": True}]
    assert m.view(0)["hand"] == ["0-0"]


def test_fr_both_ends_peek():
    m = staged("frijolito", [["3-5", "2-2", "1-1"], ["3-4", "5-4", "4-6", "0-1"]], [], opener=0)
    m.apply({"seat": 0, "flip": None})
    do(m, 0, "3-5")                           # W 3, E 5
    m.apply({"seat": 0, "flip": None})
    m.apply({"seat": 0, "reject": "2-2"})     # a double that does not fit: face down chosen
    assert m.turn == 1
    m.apply({"seat": 1, "flip": None})
    assert plays(m) == {("3-4", "W")} and {"seat": 1, "peek": None} not in m.legal_actions()
    do(m, 1, "3-4", "W")                      # W 4
    m.apply({"seat": 1, "flip": None})
    legal = m.legal_actions()                 # 4-5 fits both ends: may look at the next tile
    assert {"seat": 1, "peek": None} in legal
    assert m.apply({"seat": 1, "peek": None}) == [{"seat": 1, "peek": "4-6"}]
    v = m.view(0)
    assert v["layout"]["peeked"] == "4-6" and v["layout"]["active"] == "4-5"
    assert {"seat": 1, "peek": None} not in m.legal_actions()        # once per tile
    do(m, 1, "4-5", "E")                      # E 4
    # the peeked tile is next and already face up: no flip, it is played
    assert all("flip" not in a for a in m.legal_actions())
    assert plays(m) == {("4-6", "W"), ("4-6", "E")}


def test_fr_peeked_double_played_from_the_row_reveals_nothing_more():
    """Found by the soak: a seat peeks, the peeked tile is a face-up double it
    may play at once (doubles anywhere); once it is played, the tile behind it
    has not been turned and nobody may see it."""
    m = staged("frijolito", [["3-5", "2-2", "1-1"], ["3-4", "5-4", "4-4", "0-1", "2-6"]], [], opener=0,
               doubles_anywhere=True)
    m.apply({"seat": 0, "flip": None})
    do(m, 0, "3-5")                           # W 3, E 5
    m.apply({"seat": 0, "flip": None})
    m.apply({"seat": 0, "reject": "2-2"})
    m.apply({"seat": 1, "flip": None})
    do(m, 1, "3-4", "W")                      # W 4, E 5
    m.apply({"seat": 1, "flip": None})        # 4-5 fits both ends
    assert m.apply({"seat": 1, "peek": None}) == [{"seat": 1, "peek": "4-4"}]
    assert {"seat": 1, "play": "4-4", "end": "W"} in m.legal_actions()
    do(m, 1, "4-4", "W")                      # the peeked double, from where it lies
    for seat in (0, 1):
        v = m.view(seat)
        assert v["layout"]["peeked"] is None
        assert v["layout"]["rows"][1][1] == {"tile": None, "up": False}
        assert '"0-1"' not in json.dumps(v)
    # the turned 4-5 still fits both ends, and the next tile is a new one: it may be looked at
    assert {"seat": 1, "peek": None} in m.legal_actions()
    assert m.apply({"seat": 1, "peek": None}) == [{"seat": 1, "peek": "0-1"}]


def test_fr_unplayable_tiles_face_up_option_and_doubles_anywhere():
    m = staged("frijolito", [["3-5", "6-6", "1-2"], ["5-6", "0-0", "4-4", "2-2"]], [], opener=0,
               face_up=True, doubles_anywhere=True)
    m.apply({"seat": 0, "flip": None})
    do(m, 0, "3-5")                                     # W 3, E 5
    done = m.apply({"seat": 0, "flip": None})           # 6-6 does not fit: face up by itself
    assert done == [{"seat": 0, "flip": "6-6"}, {"seat": 0, "reject": "6-6", "face_up": True}]
    assert m.turn == 1 and m.view(1)["layout"]["rows"][0][-1] == {"tile": "6-6", "up": True}
    m.apply({"seat": 1, "flip": None})
    do(m, 1, "5-6", "E")                                # E 6
    m.apply({"seat": 1, "flip": None})                  # 0-0: face up at the end
    assert m.turn == 0
    # the face-up 6-6 is not the leftmost tile, but it may be played from where it lies
    assert m.legal_actions() == [{"seat": 0, "flip": None}, {"seat": 0, "play": "6-6", "end": "E"}]
    do(m, 0, "6-6", "E")
    assert m.view(0)["layout"]["rows"][0] == [{"tile": None, "up": False}]


def test_fr_a_seat_never_sees_its_own_face_down_tiles():
    m = Match(make_rules("frijolito", players=3), seed=2)
    for seat in range(3):
        v = m.view(seat)
        text = json.dumps(v)
        for t in m.hand.rows[seat]:
            assert f'"{tiles.NAMES[t]}"' not in text
    assert m.view(0)["counts"] == [9, 9, 9] and len(m.hand.bone) == 1


def test_fr_match_ends_past_the_target_and_elimination():
    m = Match(make_rules("frijolito", players=3, target=50, elimination=True), seed=6)
    outs = set()
    while not m.finished:
        if m.phase == "hand-over":
            m.next_hand()
            out = set(m.view(0)["layout"]["out"])
            assert out >= outs and all(m.scores[s] > 50 for s in out)
            assert all(not m.records[-1]["deal"][s] for s in out)
            outs = out
            continue
        assert m.turn not in outs
        m.apply(m.legal_actions()[0])
    left = [s for s in range(3) if m.scores[s] <= 50]
    assert m.outcome["reason"] == "elimination" and len(left) <= 1
    if left:
        assert m.outcome["winner"] == left[0]
    doc = json.loads(json.dumps(to_record(m)))
    assert from_record(doc).state_key() == m.state_key()


def test_fr_lowest_scorer_opens_next_hand():
    m = Match(make_rules("frijolito", players=4, target=50), seed=9)
    while not m.finished:
        if m.phase == "hand-over":
            res = m.records[-1]["result"]
            low = min(res["points"])
            m.next_hand()
            assert res["points"][m.records[-1]["opener"]] == low
            continue
        m.apply(m.legal_actions()[-1])
