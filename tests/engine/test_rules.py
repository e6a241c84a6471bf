"""Rules configuration (RULES.md 1, 2, 3.1, 3.2): presets, options, validation."""
from __future__ import annotations

import pytest

from domino.engine import tiles
from domino.engine.line import round_points
from domino.engine.match import deal_hand, highest_double_opener
from domino.engine.rules import PRESETS, RulesError, games_catalogue, make_rules, rules_from_options


@pytest.mark.parametrize("game", ["draw", "block"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_draw_block_hand_sizes(game, players):
    r = make_rules(game, players=players)
    assert r.set == 6 and r.hand_size == 7 and r.target == 100
    assert r.boneyard == ("draw" if game == "draw" else "none")
    m_hands, bone, _, _ = deal_hand(r, 1, 0)
    assert [len(h) for h in m_hands] == [7] * players and len(bone) == 28 - 7 * players
    assert r.first_opener == "highest-double" and r.next_opener == "winner"
    assert r.after_block == ("highest-double" if game == "draw" else "winner")
    assert r.points == "good" and r.rounding == "none" and r.fives == "off"
    assert r.sides == ([[s] for s in range(players)])


def test_partnership_only_at_four():
    assert make_rules("block", players=4, partnership=True).sides == [[0, 2], [1, 3]]
    for n in (2, 3):
        with pytest.raises(RulesError):
            make_rules("draw", players=n, partnership=True)
    r = make_rules("draw", players=4, partnership=True)
    assert r.n_sides == 2 and [r.side_of(s) for s in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("game,opts", [
    ("draw", {"players": 5}), ("draw", {"players": 1}), ("draw", {"target": 7}),
    ("draw", {"boneyard": "none"}), ("block", {"boneyard": "draw"}), ("block", {"keep_last_two": True}),
    ("draw", {"fives": "total"}), ("draw", {"nonsense": 1}), ("nogame", {}),
    ("draw", {"spinner": "sideways"}), ("draw", {"next_opener": "highest-double"}),
    ("classic", {"players": 3}),
])
def test_invalid_configurations(game, opts):
    with pytest.raises(RulesError):
        make_rules(game, **opts)


def test_options_coerced_and_round_trip():
    r = make_rules("draw", players="3", target="150", keep_last_two="on", first_opener="random")
    assert (r.players, r.target, r.keep_last_two, r.first_opener) == (3, 150, True, "random")
    assert rules_from_options("draw", r.options()) == r
    for game in PRESETS:
        d = make_rules(game)
        assert rules_from_options(game, d.options()) == d


def test_catalogue_matches_presets():
    cat = games_catalogue()
    assert [g["id"] for g in cat] == list(PRESETS)
    draw = cat[0]
    assert draw["name"] == {"en": "Draw", "es": "Abierto"} and draw["lobby_code"] == "100pt/ab."
    opts = {o["key"]: o for o in draw["options"]}
    assert opts["boneyard"]["locked"] and opts["boneyard"]["default"] == "draw"
    assert not opts["target"]["locked"] and 500 in opts["target"]["values"]
    assert make_rules("block", target=200).lobby_code() == "200pt/cer."


@pytest.mark.parametrize("raw,want", [(43, 45), (22, 20), (0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (48, 50)])
def test_rounding_nearest_five(raw, want):
    assert round_points(raw, "nearest-5") == want
    assert round_points(raw, "none") == raw


def _ids(names):
    return [sorted(tiles.tile_id(x) for x in h) for h in names]


def test_highest_double_opener_function():
    r = make_rules("draw")
    assert highest_double_opener(r, _ids([["0-0", "1-2"], ["3-3", "6-5"]])) == (1, tiles.tile_id("3-3"))
    assert highest_double_opener(r, _ids([["4-5", "1-2"], ["3-6", "0-5"]])) == (1, tiles.tile_id("3-6"))
    assert highest_double_opener(r, _ids([["4-5", "1-2"], ["2-6", "0-5"]])) == (0, tiles.tile_id("4-5"))
    r9 = make_rules("draw", set=9)
    assert highest_double_opener(r9, _ids([["6-6"], ["9-9"]])) == (1, tiles.tile_id("9-9"))
