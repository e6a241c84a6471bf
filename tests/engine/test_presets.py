"""The line-family presets against RULES.md sections 1-3 and the seeds.

Every number asserted here is worked out by hand from the rules; the deals
are explicit (helpers.scripted_match) and every action is written out.
Tile totals used below (pip sums): 0-0=0 0-1=1 0-3=3 0-4=4 0-5=5 1-1=2 1-3=4
1-4=5 1-5=6 2-2=4 2-4=6 2-5=7 3-3=6 3-4=7 3-5=8 4-4=8 5-5=10.
"""
from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stdout
from dataclasses import replace

import pytest
from helpers import play, random_match, scripted_match, scripted_next_hand

from domino import cli
from domino.engine import tiles
from domino.engine.line import Hand, round_points
from domino.engine.match import IllegalAction, Match
from domino.engine.records import from_record, to_record
from domino.engine.rules import PRESETS, RulesError, make_rules

GAMES = ("draw", "block", "all-fives", "classic", "latin", "muggins", "los-cincos", "matador")


def ends(m) -> dict:
    return m.view(m.turn if m.turn is not None else 0)["ends"]


def legal_ends(m) -> set:
    return {a.get("end") for a in m.legal_actions()}


def legal_tiles(m) -> set:
    return {a["play"] for a in m.legal_actions() if "play" in a}


def seed_for_opener(game, deal, seat, **opts):
    """A seed whose random first opener (first_opener="random") is ``seat``."""
    for s in range(200):
        m = scripted_match(game, deal, seed=s, first_opener="random", **opts)
        if m.hand.opener == seat:
            return m
    raise AssertionError("no seed found")


# ---------------------------------------------------------------- catalogue
def test_every_preset_exists():
    assert set(GAMES) <= set(PRESETS)


@pytest.mark.parametrize("game,players,opts,size", [
    # RULES.md 2
    ("draw", 2, {}, 7), ("draw", 3, {}, 7), ("draw", 4, {}, 7),
    ("block", 2, {}, 7), ("block", 4, {}, 7),
    ("all-fives", 2, {}, 7), ("all-fives", 3, {}, 7), ("all-fives", 4, {}, 7),
    ("classic", 2, {}, 7), ("classic", 4, {}, 5),
    ("classic", 2, {"set": 9}, 9), ("classic", 4, {"set": 9}, 7),
    ("latin", 2, {}, 7), ("latin", 3, {}, 7), ("latin", 4, {}, 7),
    # formula floor((T - 2P) / P)
    ("muggins", 4, {}, 5), ("muggins", 3, {}, 7), ("muggins", 2, {}, 12),
    ("muggins", 4, {"set": 9}, 11), ("muggins", 4, {"set": 12}, 20),
    ("los-cincos", 4, {}, 5), ("los-cincos", 3, {}, 7),
    ("matador", 4, {"set": 6}, 5), ("matador", 2, {}, 25), ("matador", 3, {}, 16),
    ("matador", 4, {}, 11),
])
def test_hand_sizes(game, players, opts, size):
    r = make_rules(game, players=players, **opts)
    assert r.hand_size == size
    m = Match(r, seed=3)
    rec = m.records[0]
    assert [len(h) for h in rec["deal"]] == [size] * players
    assert len(rec["boneyard"]) == r.n_tiles - size * players


def test_boneyards_latin():
    # [001]: boneyard 14 (2p), 7 (3p), none (4p)
    for n, bone in ((2, 14), (3, 7), (4, 0)):
        m = Match(make_rules("latin", players=n), seed=1)
        assert len(m.records[0]["boneyard"]) == bone
        assert m.view(0)["boneyard"] == bone


def test_seed_deals_five_with_four_players():
    # [003]: "cada jugador toma 5 fichas ... quedando un monte de 8 fichas"
    for game in ("muggins", "los-cincos"):
        r = make_rules(game)
        assert (r.players, r.hand_size, r.n_tiles - r.players * r.hand_size) == (4, 5, 8)


def test_defaults_and_locks():
    r = make_rules("all-fives")
    assert (r.spinner, r.fives, r.rounding, r.target, r.first_opener, r.next_opener,
            r.after_block) == ("first", "total", "nearest-5", 100, "highest-double", "winner",
                               "highest-double")
    r = make_rules("block")
    assert (r.boneyard, r.after_block, r.fives) == ("none", "winner", "off")
    r = make_rules("classic")
    assert (r.target, r.rounding, r.blocked, r.players, r.set) == (50, "nearest-5", "difference", 2, 6)
    r = make_rules("latin")
    assert (r.target, r.redeal, r.next_opener, r.tie_break, r.spinner, r.fives) == (
        100, True, "rotate", "lowest-tile", "off", "off")
    r = make_rules("muggins")
    assert (r.points, r.target, r.next_opener, r.blocked, r.block_winner) == (
        "bad", 100, "highest-double", "difference", "zero")
    r = make_rules("los-cincos")
    assert (r.spinner, r.fives, r.rounding, r.target) == ("opening", "fifths", "fifths", 200)
    r = make_rules("matador")
    assert (r.set, r.joins, r.points, r.next_opener) == (9, "matador", "bad", "highest-double")
    for game, key, value in [("latin", "spinner", "first"), ("latin", "fives", "total"),
                             ("latin", "set", 9), ("latin", "best_of_10", True),
                             ("latin", "rounding", "nearest-5"), ("latin", "redeal", False),
                             ("draw", "boneyard", "none"), ("block", "boneyard", "draw"),
                             ("all-fives", "fives", "off"), ("los-cincos", "spinner", "first"),
                             ("matador", "points", "good"), ("muggins", "partnership", True)]:
        with pytest.raises(RulesError):
            make_rules(game, **{key: value})


@pytest.mark.parametrize("game,key,values", [
    # RULES.md 3 table, where the preset does not lock the option
    ("muggins", "set", (6, 9, 12)), ("muggins", "points", ("good", "bad")),
    ("muggins", "keep_last_two", (False, True)), ("muggins", "redeal", (False, True)),
    ("muggins", "block_winner", ("zero", "own")),
    ("classic", "set", (6, 9)), ("classic", "players", (2, 4)),
    ("classic", "best_of_10", (False, True)), ("classic", "spinner", ("off", "first")),
    ("classic", "fives", ("off", "total")), ("classic", "rounding", ("nearest-5", "none")),
    ("classic", "target", (50, 100, 200, 250, 500)),
    ("latin", "target", (50, 100)), ("latin", "players", (2, 3, 4)),
    ("all-fives", "spinner", ("off", "first", "opening")),
    ("all-fives", "target", (100, 125, 150, 200, 250, 300, 500)),
    ("all-fives", "boneyard", ("draw", "none")), ("all-fives", "first_opener", ("highest-double", "random")),
    ("all-fives", "next_opener", ("winner", "rotate")), ("all-fives", "keep_last_two", (False, True)),
    ("draw", "target", (100, 125, 150, 200, 250, 300, 500)), ("draw", "set", (6, 9)),
    ("draw", "spinner", ("off", "first")), ("block", "next_opener", ("winner", "rotate")),
    ("los-cincos", "target", (50, 100, 150, 200)), ("los-cincos", "set", (6, 9)),
    ("matador", "set", (6, 9)), ("matador", "keep_last_two", (False, True)),
])
def test_option_selectable(game, key, values):
    choices = PRESETS[game].choices(key)
    for v in values:
        assert v in choices, (game, key, v)
        r = make_rules(game, **{key: v})
        assert getattr(r, key) == v


def test_classic_four_players_is_partnership():
    r = make_rules("classic", players=4)
    assert r.partnership and r.sides == [[0, 2], [1, 3]]
    r = make_rules("latin", players=4)
    assert r.partnership
    with pytest.raises(RulesError):
        make_rules("classic", players=3)
    with pytest.raises(RulesError):
        make_rules("classic", best_of_10=True, fives="total")


@pytest.mark.parametrize("game,opts,code", [
    ("all-fives", {}, "100pt/5+"),
    ("all-fives", {"target": 125, "next_opener": "rotate"}, "125pt/5+O"),
    ("all-fives", {"target": 125, "spinner": "off"}, "125pt/5*"),
    ("block", {}, "100pt/cer."),
    ("draw", {"target": 200}, "200pt/ab."),
])
def test_lobby_codes(game, opts, code):
    # [000]: the lobby list examples
    assert make_rules(game, **opts).lobby_code() == code


def run_cli(*argv) -> tuple[int, dict]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = cli.main(list(argv))
    return rc, json.loads(buf.getvalue())


def test_cli_games_lists_every_preset():
    rc, doc = run_cli("games", "--json")
    assert rc == 0
    by = {g["id"]: g for g in doc["games"]}
    assert set(GAMES) <= set(by)
    for g in GAMES:
        keys = {o["key"] for o in by[g]["options"]}
        assert {"set", "players", "spinner", "fives", "target", "rounding", "best_of_10",
                "keep_last_two", "boneyard", "first_opener", "next_opener"} <= keys
        assert by[g]["lobby_code"] == make_rules(g).lobby_code()
    mug = {o["key"]: o for o in by["muggins"]["options"]}
    assert mug["set"]["values"] == [6, 9, 12] and not mug["points"]["locked"]


@pytest.mark.parametrize("game", GAMES)
def test_cli_simulate_and_replay(game, tmp_path):
    rc, doc = run_cli("simulate", "--game", game, "--matches", "2", "--seed", "5")
    assert rc == 0 and doc["game"] == game and doc["matches"] == 2
    m = quick_match(make_rules(game), 11)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(to_record(m)))
    rc, doc = run_cli("replay", str(path))
    assert rc == 0 and doc["finished"] and doc["totals"] == m.scores
    assert doc["winner"] == m.outcome["winner"]


# ------------------------------------------------ fives scoring, the spinner
def test_seed_example_ends_1_4_and_6_4():
    # [000]: 1+4 = 5 scores 5, then 6+4 = 10 scores 10.  Nobody holds a
    # double, so the heaviest tile (5-6) opens.
    m = scripted_match("all-fives", [["5-6", "1-5", "0-1", "0-2", "0-3", "1-2", "2-3"],
                                     ["4-6", "1-6", "0-4", "0-5", "1-3", "1-4", "2-4"]])
    assert m.legal_actions() == [{"seat": 0, "play": "5-6"}]
    play(m, "0 5-6", "1 4-6 E")
    assert m.hand.ends_total() == 9 and m.hand.fives == [0, 0]
    play(m, "0 1-5 W")
    assert ends(m) == {"W": 1, "E": 4}
    assert m.hand.fives == [5, 0]
    play(m, "1 1-6 W")
    assert ends(m) == {"W": 6, "E": 4}
    assert m.hand.fives == [5, 10]


@pytest.mark.parametrize("spinner", ["off", "first"])
def test_seed_example_double_at_end_counts_both_halves(spinner):
    # [000]: 5-5 at one end and a 5 at the other: 5+5+5 = 15
    m = scripted_match("all-fives", [["5-5", "0-1", "2-5", "2-3", "2-4", "3-4", "1-3"],
                                     ["1-5", "0-5", "1-2", "1-4", "0-3", "0-4", "3-5"]],
                       spinner=spinner)
    play(m, "0 5-5")                      # a lone 5-5: 10
    assert m.hand.fives == [10, 0]
    play(m, "1 1-5 E")                    # 5-5 (10) + 1
    assert m.hand.ends_total() == 11 and m.hand.fives == [10, 0]
    play(m, "0 0-1 E")                    # 10 + 0
    assert m.hand.fives == [20, 0]
    play(m, "1 0-5 E")                    # 10 + 5
    assert m.hand.ends_total() == 15 and m.hand.fives == [20, 15]
    play(m, "0 2-5 W")                    # the double is covered: 2 + 5
    assert m.hand.ends_total() == 7
    if spinner == "first":
        assert set(ends(m)) == {"W", "E", "N", "S"}
    else:
        assert set(ends(m)) == {"W", "E"}


def test_seed_example_empty_arm_does_not_count():
    # [000]: spinner 6-6, 4-4 at one end, a 2 at another, an empty arm: 10
    m = scripted_match("all-fives", [["6-6", "2-6", "0-6", "1-2", "2-3", "3-4", "0-2"],
                                     ["4-6", "4-4", "1-6", "0-1", "0-3", "1-3", "2-4"]])
    play(m, "0 6-6")
    assert m.hand.ends_total() == 12 and m.view(0)["layout"]["spinner"] == {"arm": "C", "index": 0}
    play(m, "1 4-6 W")
    # one line side uncovered: the spinner is an open end (12) + 4; no arms yet
    assert m.hand.ends_total() == 16
    assert legal_ends(m) <= {"W", "E"}
    with pytest.raises(IllegalAction):
        m.apply({"seat": 0, "play": "0-6", "end": "N"})
    play(m, "0 2-6 E")
    # both line sides covered: arms open, the spinner no longer counts: 4 + 2
    assert ends(m) == {"W": 4, "E": 2, "N": 6, "S": 6}
    assert m.hand.ends_total() == 6
    play(m, "1 4-4 W")
    assert m.hand.ends_total() == 10 and m.hand.fives == [0, 10]
    play(m, "0 0-6 N")                    # an arm counts once it holds a tile: 8+2+0
    assert m.hand.ends_total() == 10 and m.hand.fives == [10, 10]
    play(m, "1 1-6 S")                    # 8+2+0+1
    assert m.hand.ends_total() == 11 and m.hand.fives == [10, 10]


def test_first_double_spinner_mid_line():
    # "first double": a double played after the opening becomes the spinner
    # where it lies; its arms open once a tile follows it on its line.
    deal = [["3-4", "2-3", "2-4", "0-6", "5-6", "0-5", "1-6"],
            ["4-4", "1-4", "2-2", "0-1", "1-5", "3-5", "0-2"]]
    m = seed_for_opener("all-fives", deal, 0)
    assert len(m.legal_actions()) == 7          # random opener: any tile
    play(m, "0 3-4")
    assert m.hand.ends_total() == 7
    play(m, "1 4-4 E")
    assert m.view(0)["layout"]["spinner"] == {"arm": "E", "index": 0}
    assert m.hand.ends_total() == 3 + 8 and legal_ends(m) <= {"W", "E"}
    play(m, "0 2-3 W")                          # 2 + 8
    assert m.hand.fives == [10, 0]
    play(m, "1 1-4 E")                          # the spinner is passed: arms open
    assert ends(m) == {"W": 2, "E": 1, "N": 4, "S": 4}
    assert m.hand.ends_total() == 3
    play(m, "0 2-4 N")                          # 2 + 1 + 2
    assert m.hand.fives == [15, 0]
    play(m, "1 2-2 W")                          # a later double: both halves, no new arms
    assert m.hand.ends_total() == 4 + 1 + 2 and set(ends(m)) == {"W", "E", "N", "S"}
    assert m.view(0)["layout"]["spinner"] == {"arm": "E", "index": 0}


def test_no_spinner_when_off():
    m = scripted_match("all-fives", [["6-6", "2-6", "0-6", "1-2", "2-3", "3-4", "0-2"],
                                     ["4-6", "4-4", "1-6", "0-1", "0-3", "1-3", "2-4"]],
                       spinner="off")
    play(m, "0 6-6", "1 4-6 W", "0 2-6 E")
    assert set(ends(m)) == {"W", "E"} and m.view(0)["layout"]["spinner"] is None


def test_opening_spinner_only_the_opening_double():
    # spinner "opening": a non-double opening means no spinner that hand
    deal = [["3-4", "2-3", "2-4", "0-6", "5-6", "0-5", "1-6"],
            ["4-4", "1-4", "2-2", "0-1", "1-5", "3-5", "0-2"]]
    m = seed_for_opener("all-fives", deal, 0, spinner="opening")
    play(m, "0 3-4", "1 4-4 E", "0 2-3 W", "1 1-4 E")
    assert set(ends(m)) == {"W", "E"} and m.view(0)["layout"]["spinner"] is None


def test_fives_target_ends_match_mid_hand():
    # "the first to reach": a play that takes a side to the target ends the
    # match at once (hand end "target").  Scores are preset to 90/0 here.
    m = scripted_match("all-fives", [["5-5", "0-1", "2-5", "2-3", "2-4", "3-4", "1-3"],
                                     ["1-5", "0-5", "1-2", "1-4", "0-3", "0-4", "3-5"]])
    m.scores = [85, 0]
    m.hand.base = list(m.scores)
    play(m, "0 5-5")                      # 85 + 10 = 95
    assert m.phase == "play"
    play(m, "1 1-5 E", "0 0-1 E")         # 95 + 10 = 105 >= 100
    assert m.hand.ended == "target" and m.phase == "match-over"
    res = m.records[-1]["result"]
    assert res["end"] == "target" and res["points"] == [20, 0] and res["totals"] == [105, 0]
    assert m.outcome == {"winner": 0, "reason": "target", "scores": [105, 0]}


def test_rounding_examples():
    # [004]: 43 -> 45, 22 -> 20; RULES 7.1: 1, 2 down, 3, 4 up; Los Cincos: / 5
    assert round_points(43, "nearest-5") == 45
    assert round_points(22, "nearest-5") == 20
    assert [round_points(x, "nearest-5") for x in (0, 1, 2, 3, 4, 5, 86)] == [0, 0, 0, 5, 5, 5, 85]
    assert [round_points(x, "fifths") for x in (5, 10, 12, 13, 22, 23)] == [1, 2, 2, 3, 4, 5]
    assert round_points(43, "none") == 43


# ------------------------------------------------------ a locked layout
# Eleven tiles that leave both ends on 6 with every 6 on the table:
# 6-6 opens, then (W) 1-6, 1-2, 0-2, 0-6, 5-6, 4-5, 4-6 and (E) 2-6, 2-3, 3-6.
LOCK4 = ["0 6-6", "1 1-6 W", "2 2-6 E", "3 1-2 W", "0 2-3 E", "1 0-2 W", "2 3-6 E",
         "3 0-6 W", "0 5-6 W", "1 4-5 W", "2 4-6 W"]
LOCK4_HELD = [["6-6", "2-3", "5-6"], ["1-6", "0-2", "4-5"], ["2-6", "3-6", "4-6"], ["1-2", "0-6"]]
LOCK3 = ["0 6-6", "1 1-6 W", "2 2-6 E", "0 1-2 W", "1 2-3 E", "2 0-2 W", "0 3-6 E",
         "1 0-6 W", "2 5-6 W", "0 4-5 W", "1 4-6 W"]
LOCK3_HELD = [["6-6", "1-2", "3-6", "4-5"], ["1-6", "2-3", "0-6", "4-6"], ["2-6", "0-2", "5-6"]]


def lock4(game, rest, **opts):
    deal = [LOCK4_HELD[i] + rest[i] for i in range(4)]
    m = scripted_match(game, deal, **opts)
    play(m, *LOCK4)
    assert m.hand.ended == "blocked"
    return m


M1 = [["0-0", "0-1", "0-3", "1-1"], ["0-4", "0-5", "1-3", "1-4"],
      ["1-5", "2-2", "2-4", "2-5"], ["3-3", "3-4", "3-5", "4-4", "5-5"]]   # 6, 18, 23, 39


# ------------------------------------------------------------------- Latin
def test_latin_opener_double_six_forced_and_turn_to_the_right():
    m = scripted_match("latin", [LOCK4_HELD[i] + M1[i] for i in range(4)])
    assert m.hand.opener == 0 and m.legal_actions() == [{"seat": 0, "play": "6-6"}]
    play(m, "0 6-6")
    assert m.turn == 1
    play(m, "1 1-6 W")
    assert m.turn == 2


def test_latin_opener_highest_double_held_when_6_6_is_in_the_boneyard():
    m = scripted_match("latin", [["4-4", "0-1", "0-2", "0-3", "1-2", "1-3", "2-3"],
                                 ["5-5", "3-3", "0-4", "1-4", "2-4", "3-4", "0-5"]])
    assert m.hand.opener == 1 and m.legal_actions() == [{"seat": 1, "play": "5-5"}]


def test_latin_opener_heaviest_tile_without_doubles():
    # no doubles dealt: 3-6 and 4-5 are the heaviest (9); 3-6 has the higher number
    m = scripted_match("latin", [["4-5", "0-1", "0-2", "0-3", "1-2", "1-3", "2-3"],
                                 ["3-6", "0-4", "1-4", "2-4", "3-4", "0-5", "1-5"]])
    assert m.hand.opener == 1 and m.legal_actions() == [{"seat": 1, "play": "3-6"}]


def test_latin_later_hands_rotate_with_any_tile():
    m = lock4("latin", M1)
    assert m.phase == "hand-over"
    # the next deal gives 6-6 to seat 3: still, seat 1 (right of seat 0) opens, any tile
    nxt = [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
           ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-6"],
           ["2-2", "2-3", "2-4", "2-5", "3-3", "3-4", "3-5"],
           ["6-6", "3-6", "4-4", "4-5", "4-6", "5-5", "5-6"]]
    scripted_next_hand(m, nxt)
    assert m.hand.opener == 1 and len(m.legal_actions()) == 7


def test_latin_pairs_blocked_rivals_sum():
    # pairs compare pair sums: 0+2 hold 6+23 = 29, 1+3 hold 18+39 = 57
    m = lock4("latin", M1)
    res = m.records[-1]["result"]
    assert res["counts"] == [6, 18, 23, 39]
    assert res["winners"] == [0] and res["points"] == [57, 0]


def test_latin_pairs_tied_nobody_scores():
    rest = [["0-5", "1-5", "3-4", "5-5"], ["0-3", "0-4", "1-1", "3-3"],
            ["0-1", "1-3", "2-2", "2-4"], ["0-0", "1-4", "2-5", "3-5", "4-4"]]  # 28+15 = 15+28
    m = lock4("latin", rest)
    res = m.records[-1]["result"]
    assert res["counts"] == [28, 15, 15, 28]
    assert res["winners"] == [] and res["points"] == [0, 0]


def latin3(rest0, rest1, rest2, bone):
    deal = [LOCK3_HELD[0] + rest0, LOCK3_HELD[1] + rest1, LOCK3_HELD[2] + rest2]
    m = scripted_match("latin", deal, bone)
    play(m, *LOCK3)
    # seat 2 cannot play: it draws the seven tiles of the boneyard, then it is blocked
    assert m.hand.ended == "blocked"
    assert [a for a in m.hand.actions if a[1] == "d"] == [(2, "d", tiles.tile_id(t)) for t in bone]
    return m.records[-1]["result"]


S2_REST = ["0-1", "0-3", "2-5", "3-4"]
S2_BONE = ["0-0", "1-1", "2-2", "3-3", "3-5", "4-4", "5-5"]   # 1+3+7+7 + 38 = 56


def test_latin_individuals_tied_lowest_single_tile_wins():
    # seats 0 and 1 both hold 15: [4, 5, 6] against [3, 5, 7]: seat 1 holds the 3
    res = latin3(["0-4", "0-5", "1-5"], ["0-3", "1-4", "3-4"], ["0-1", "1-3", "2-4", "2-5"],
                 ["0-0", "1-1", "2-2", "3-3", "3-5", "4-4", "5-5"])
    assert res["counts"] == [15, 15, 1 + 4 + 6 + 7 + 38]
    assert res["winners"] == [1] and res["points"] == [0, 15 + 56, 0]


def test_latin_individuals_tied_next_lowest_decides():
    # [4, 5, 6] against [4, 4, 7]: equal lowest, seat 1's next one is lower
    res = latin3(["1-3", "0-5", "1-5"], ["0-4", "2-2", "2-5"], ["0-1", "0-3", "3-4", "2-4"],
                 ["0-0", "1-1", "1-4", "3-3", "3-5", "4-4", "5-5"])
    assert res["counts"][:2] == [15, 15]
    assert res["winners"] == [1] and res["points"] == [0, 15 + res["counts"][2], 0]


def test_latin_individuals_all_equal_nobody():
    # [4, 5, 6] against [4, 5, 6] with different tiles
    res = latin3(["0-4", "0-5", "1-5"], ["1-3", "1-4", "2-4"], S2_REST, S2_BONE)
    assert res["counts"] == [15, 15, 56]
    assert res["winners"] == [] and res["points"] == [0, 0, 0]


def test_latin_redeal_on_four_doubles():
    r = make_rules("latin", players=4)
    seen = 0
    for seed in range(60):
        m = Match(r, seed=seed)
        rec = m.records[0]
        assert all(sum(tiles.DOUBLE[t] for t in h) < 4 for h in rec["deal"])
        seen += rec["redeals"] > 0
    assert seen, "no redeal in 60 deals"
    # a record dealing 4 doubles to a hand is refused
    deal = [["0-0", "1-1", "2-2", "3-3", "0-1", "0-2", "0-3"],
            ["4-4", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4"]]
    with pytest.raises(Exception):
        scripted_match("latin", deal)
    # without the option, 4 doubles are dealt as they come
    r = make_rules("muggins", players=2)
    deals = [Match(r, seed=s).records[0] for s in range(60)]
    assert all(d["redeals"] == 0 for d in deals)
    assert any(sum(tiles.DOUBLE[t] for t in h) >= 4 for d in deals for h in d["deal"])


# ------------------------------------------------------------------ Muggins
def test_muggins_bad_points_blocked():
    m = lock4("muggins", M1, hand_size=7)
    res = m.records[-1]["result"]
    assert res["counts"] == [6, 18, 23, 39]
    assert res["winners"] == [0] and res["points"] == [0, 18, 23, 39]


def test_muggins_bad_points_blocked_winner_adds_own():
    m = lock4("muggins", M1, hand_size=7, block_winner="own")
    assert m.records[-1]["result"]["points"] == [6, 18, 23, 39]


def test_muggins_bad_points_tied_lowest_all_win():
    rest = [["0-1", "0-3", "1-3", "3-3"], ["0-0", "0-4", "1-5", "2-2"],
            ["1-4", "2-5", "3-4", "4-4"], ["0-5", "1-1", "2-4", "3-5", "5-5"]]   # 14 14 27 31
    m = lock4("muggins", rest, hand_size=7)
    res = m.records[-1]["result"]
    assert res["counts"] == [14, 14, 27, 31]
    assert res["winners"] == [0, 1] and res["points"] == [0, 0, 27, 31]


def test_muggins_good_points_blocked_sum_of_differences():
    m = lock4("muggins", M1, hand_size=7, points="good")
    res = m.records[-1]["result"]
    assert res["points"] == [(18 - 6) + (23 - 6) + (39 - 6), 0, 0, 0] == [62, 0, 0, 0]


def test_muggins_seed_example_4_7_11_14():
    # [003]: blocked with 4, 7, 11 and 14 left: (7-4)+(11-4)+(14-4) = 20
    r = make_rules("muggins", points="good")
    hands = [["0-4"], ["3-4"], ["5-6"], ["4-4", "6-0"]]
    h = Hand(r, [tiles.mask_of(tiles.tile_id(x) for x in hh) for hh in hands], [], 0, None)
    h.ended = "blocked"
    s = h.settle()
    assert s["counts"] == [4, 7, 11, 14] and s["points"] == [20, 0, 0, 0]
    r = make_rules("muggins")
    h.r = r
    assert h.settle()["points"] == [0, 7, 11, 14]


def test_muggins_keep_last_two_blocks_with_two_left():
    # 2 players, 5 tiles each: 18 in the boneyard; with keep_last_two only 16
    # may be drawn; when nobody can play with 2 left, the hand is blocked.
    r = make_rules("muggins", players=2, hand_size=5, keep_last_two=True)
    m = Match(r, seed=0)
    assert m.view(0)["boneyard"] == 16 and m.view(0)["undrawable"] == 2
    rng = random.Random(4)
    blocked_with_two = False
    for seed in range(40):
        m = Match(r, seed=seed)
        while m.phase == "play":
            m.apply(rng.choice(m.legal_actions()))
        h = m.hand
        assert h.bpos <= len(h.bone) - 2
        if h.ended == "blocked":
            assert len(h.bone) - h.bpos == 2
            blocked_with_two = True
    assert blocked_with_two


def quick_match(rules, seed):
    """A whole match of random legal actions (no per-step checks: fast)."""
    return random_match(rules, seed, random.Random(seed), check=None, history_check=False,
                        roundtrip_every_hand=False)


def test_muggins_match_end_lowest_total_wins():
    r = make_rules("muggins")
    for seed in range(5):
        m = quick_match(r, seed)
        sc = m.outcome["scores"]
        assert max(sc) >= 100
        low = min(sc)
        assert m.outcome["winner"] == (sc.index(low) if sc.count(low) == 1 else None)


# --------------------------------------------------------------- Los Cincos
def test_los_cincos_opening_double_spins_and_fifths():
    deal = [["5-5", "0-0", "0-1", "1-1", "0-2"], ["0-5", "1-2", "2-2", "0-3", "1-3"],
            ["3-5", "2-3", "0-4", "1-4", "2-4"], ["2-5", "3-3", "3-4", "4-4", "1-5"]]
    m = scripted_match("los-cincos", deal)
    assert m.legal_actions() == [{"seat": 0, "play": "5-5"}]
    play(m, "0 5-5")                            # lone 5-5: 10 / 5 = 2
    assert m.hand.fives == [2, 0, 0, 0]
    play(m, "1 0-5 E")                          # spinner (10) + 0 = 10: 2
    assert m.hand.fives == [2, 2, 0, 0] and set(ends(m)) == {"W", "E"}
    play(m, "2 3-5 W")                          # arms open: 3 + 0 = 3
    assert ends(m) == {"W": 3, "E": 0, "N": 5, "S": 5}
    play(m, "3 2-5 N")                          # 3 + 0 + 2 = 5: 1
    assert m.hand.fives == [2, 2, 0, 1]
    play(m, "0 0-0 E")                          # 3 + 0 (double 0) + 2 = 5: 1
    assert m.hand.fives == [3, 2, 0, 1]


def test_los_cincos_no_double_no_spinner():
    # 20 dealt tiles, no doubles: 5-6 (heaviest) opens and nothing spins,
    # even when a double is played later
    deal = [["5-6", "0-1", "0-2", "0-3", "0-4"], ["4-6", "1-2", "1-3", "1-4", "1-5"],
            ["4-5", "2-3", "2-4", "2-5", "2-6"], ["3-6", "3-4", "3-5", "0-5", "0-6"]]
    m = scripted_match("los-cincos", deal, ["6-6", "0-0"])
    assert m.legal_actions() == [{"seat": 0, "play": "5-6"}]
    play(m, "0 5-6", "1 4-6 E", "2 4-5 W", "3 3-4 W")    # ends 3 and 4
    assert m.hand.fives == [0, 0, 0, 0]
    play(m, "0 0-4 E", "1 1-3 W")                          # ends 1 and 0
    # seat 2 holds no 1 and no 0: it draws 6-6, then 0-0, which fits
    assert m.legal_actions() == [{"seat": 2, "play": "0-0", "end": "E"}]
    play(m, "2 0-0 E")
    assert m.view(0)["layout"]["spinner"] is None and set(ends(m)) == {"W", "E"}
    assert m.hand.ends_total() == 1


def test_los_cincos_domino_scores_fifth_of_the_rest():
    # 2 players, 5 tiles each (hand size option)
    deal = [["6-6", "1-6", "1-2", "2-5", "0-5"], ["2-6", "2-4", "0-6", "3-3", "4-5"]]
    m = scripted_match("los-cincos", deal, players=2, hand_size=5)
    play(m, "0 6-6")                 # 12
    play(m, "1 2-6 W")               # 2 + spinner 12 = 14
    play(m, "0 1-6 E")               # 2 + 1 = 3, arms open
    assert set(ends(m)) == {"W", "E", "N", "S"}
    play(m, "1 2-4 W")               # 4 + 1 = 5: 1
    assert m.hand.fives == [0, 1]
    play(m, "0 1-2 E")               # 4 + 2 = 6
    play(m, "1 4-5 W")               # 5 + 2 = 7
    play(m, "0 2-5 E")               # 5 + 5 = 10: 2
    assert m.hand.fives == [2, 1]
    play(m, "1 0-6 N")               # 5 + 5 + 0 = 10: 2
    assert m.hand.fives == [2, 3]
    play(m, "0 0-5 N")               # 5 + 5 + 5 = 15: 3, and seat 0 is out
    res = m.records[-1]["result"]
    # seat 1 keeps 3-3 = 6 -> 6 / 5 = 1.2 -> 1
    assert res["end"] == "domino" and res["counts"] == [0, 6]
    assert res["fives"] == [5, 3] and res["hand_points"] == [1, 0] and res["points"] == [6, 3]


# ------------------------------------------------------------------ Classic
CLASSIC_DEAL = [["6-6", "2-6", "2-3", "3-6", "5-6", "4-6", "0-1"],
                ["1-6", "1-2", "0-2", "0-6", "4-5", "0-0", "0-3"]]
CLASSIC_LOCK = ["0 6-6", "1 1-6 W", "0 2-6 E", "1 1-2 W", "0 2-3 E", "1 0-2 W", "0 3-6 E",
                "1 0-6 W", "0 5-6 W", "1 4-5 W", "0 4-6 W"]


@pytest.mark.parametrize("rounding,points", [("nearest-5", 85), ("none", 84)])
def test_classic_blocked_scores_difference_rounded(rounding, points):
    # the lock leaves seat 0 with 0-1 (1); seat 1 draws the 14 others:
    # 0-0 + 0-3 + the boneyard = 86 - 1 = 85.  Difference 84 -> 85.
    m = scripted_match("classic", CLASSIC_DEAL, rounding=rounding)
    play(m, *CLASSIC_LOCK)
    res = m.records[-1]["result"]
    assert res["end"] == "blocked" and res["counts"] == [1, 85]
    assert res["raw"] == 84 and res["points"] == [points, 0]
    assert m.phase == "match-over" and m.outcome["winner"] == 0   # 85 >= 50
    if rounding == "none":
        assert m.phase == "match-over"


def test_classic_best_of_10_point_and_highest_double_opens_after_block():
    deal = [["6-6", "2-6", "2-3", "3-6", "5-6", "4-6", "0-0"],
            ["1-6", "1-2", "0-2", "0-6", "4-5", "0-1", "0-3"]]
    m = scripted_match("classic", deal, best_of_10=True)
    play(m, *CLASSIC_LOCK)
    res = m.records[-1]["result"]
    assert res["counts"] == [0, 86] and res["points"] == [1, 0]     # best of 10: 1 a hand
    assert m.phase == "hand-over"
    # after a blocked hand the highest double opens (seat 1 gets 5-5 here)
    scripted_next_hand(m, [["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "4-4"],
                           ["5-5", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]])
    assert m.hand.opener == 1 and m.legal_actions() == [{"seat": 1, "play": "5-5"}]


def test_classic_best_of_10_counts_hands_and_draws():
    r = make_rules("classic", best_of_10=True)
    found = {}
    for seed in range(400):
        m = quick_match(r, seed)
        assert len(m.records) == 10 and m.outcome["reason"] == "best-of-10"
        for rec in m.records:
            res = rec["result"]
            assert sorted(res["points"]) in ([0, 0], [0, 1]) and res["fives"] == [0, 0]
        sc = m.scores
        assert sum(sc) <= 10
        want = None if sc[0] == sc[1] else sc.index(max(sc))
        assert m.outcome["winner"] == want
        found[want] = seed
        if None in found and len(found) == 3:
            break
    assert None in found, "no 5-5 (or equal) match in the seeds tried"


# ------------------------------------------------------------------ Matador
# double-6: joins sum to 7; matadors 1-6, 2-5, 3-4 and 0-0
MAT_DEAL = [["6-6", "1-5", "0-2", "0-3", "2-3"], ["3-4", "0-4", "2-4", "2-2", "0-5"]]


def matador(bone):
    m = scripted_match("matador", MAT_DEAL, bone, set=6, hand_size=5)
    play(m, "0 6-6")
    return m


def test_matador_joins_sum_to_n_plus_one():
    r = make_rules("matador")
    assert r.set == 9 and tiles.NAMES[0] == "0-0"
    m = matador(["1-4"])
    # seat 1: only the matador 3-4 fits (on 6 a join needs a 1): either end, either way round
    acts = m.legal_actions()
    plays = sorted((a["play"], a["end"], a["open"]) for a in acts if "play" in a)
    assert plays == [("3-4", "E", 3), ("3-4", "E", 4), ("3-4", "W", 3), ("3-4", "W", 4)]
    assert {"seat": 1, "draw": None} in acts          # declining is offered
    play(m, "1 3-4 W 3")                               # "open" names the half left open
    assert ends(m) == {"W": 3, "E": 6}
    # seat 0: 1-5 joins 6 (1+6), 0-3? 3+3 != 7; 2-3? no; 0-2? no
    assert sorted((a["play"], a["end"]) for a in m.legal_actions()) == [("1-5", "E")]
    assert {"seat": 0, "draw": None} not in m.legal_actions()
    with pytest.raises(IllegalAction) as exc:
        m.apply({"seat": 0, "draw": None})
    assert exc.value.code == "draw-while-able"


def test_matador_blank_end_takes_only_matadors():
    m = matador(["1-4"])
    play(m, "1 3-4 W 4", "0 0-3 W")                   # 3 + 4 = 7: 0 left open
    assert ends(m) == {"W": 0, "E": 6}
    # seat 1 holds 0-4, 2-4, 2-2, 0-5: nothing joins 0 or 6; it draws 1-4 (1 + 6)
    assert m.legal_actions() == [{"seat": 1, "play": "1-4", "end": "E"}]
    assert m.hand.actions[-1] == (1, "d", tiles.tile_id("1-4"))


def test_matador_decline_and_draw_a_playable_tile_must_be_played():
    m = matador(["1-4", "4-5"])
    out = m.apply({"seat": 1, "draw": None})
    assert out == [{"seat": 1, "draw": "1-4"}]
    # the drawn 1-4 fits (1 + 6): it must be played; the matador is no longer allowed
    assert sorted((a["play"], a["end"]) for a in m.legal_actions()) == [("1-4", "E"), ("1-4", "W")]
    with pytest.raises(IllegalAction):
        m.apply({"seat": 1, "play": "3-4", "end": "W", "open": 3})
    with pytest.raises(IllegalAction):
        m.apply({"seat": 1, "draw": None})             # only one tile
    play(m, "1 1-4 W")
    assert ends(m) == {"W": 4, "E": 6} and m.turn == 0


def test_matador_decline_and_draw_an_unplayable_tile_then_a_matador():
    m = matador(["4-5", "1-4"])
    m.apply({"seat": 1, "draw": None})
    # 4-5 does not fit: a matador must be played now; no more drawing, no pass
    assert sorted((a["play"], a["end"], a["open"]) for a in m.legal_actions()) == [
        ("3-4", "E", 3), ("3-4", "E", 4), ("3-4", "W", 3), ("3-4", "W", 4)]
    for bad in ({"seat": 1, "draw": None}, {"seat": 1, "pass": True}):
        with pytest.raises(IllegalAction):
            m.apply(bad)
    play(m, "1 3-4 E 3")
    assert ends(m) == {"W": 6, "E": 3}
    # replaying the record gives the same hand
    again = from_record(json.loads(json.dumps(to_record(m))))
    assert again.state_key() == m.state_key()


def test_matador_no_decline_without_a_boneyard():
    # 4 players, 7 tiles each: no boneyard, so no declining
    deal = [["6-6", "1-5", "0-2", "0-3", "2-3", "0-0", "1-1"],
            ["3-4", "0-4", "2-4", "2-2", "0-5", "4-4", "4-5"],
            ["1-6", "2-5", "0-1", "1-2", "1-3", "1-4", "3-3"],
            ["0-6", "2-6", "3-6", "4-6", "5-6", "3-5", "5-5"]]
    m = scripted_match("matador", deal, set=6, hand_size=7)
    play(m, "0 6-6")
    assert all("draw" not in a for a in m.legal_actions())
    assert {a["play"] for a in m.legal_actions()} == {"3-4"}


def test_matador_keep_last_two_no_decline():
    # keep_last_two and a boneyard of exactly 2: nothing may be drawn
    # 13 tiles each is not a hand size the game offers: the core is built directly
    r = replace(make_rules("matador", set=6, players=2, keep_last_two=True), hand_size=13)
    assert r.n_tiles - 26 == 2
    m = Match(r, seed=1)
    assert m.view(0)["boneyard"] == 0 and m.view(0)["undrawable"] == 2


def test_matador_bad_points_scoring():
    r = make_rules("matador")
    rng = random.Random(2)
    for seed in range(4):
        m = Match(r, seed=seed)
        while m.phase == "play":
            m.apply(rng.choice(m.legal_actions()))
        res = m.records[-1]["result"]
        c = res["counts"]
        if res["end"] == "domino":
            assert res["points"] == [0 if s == res["winner"] else c[s] for s in range(2)]
        else:
            low = min(c)
            assert res["points"] == [0 if x == low else x for x in c]
