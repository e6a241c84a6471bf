"""Draw and Block (RULES.md 1, 2, 3.1, 3.2) with scripted deals.

Every expected number here is counted by hand from the rules (the comments
show the sums), never taken from the engine.  Forced draws and passes are
applied by the engine; the scripts list only the choices.
"""
from __future__ import annotations

import pytest

from domino.engine.match import IllegalAction
from helpers import check_history, check_invariants, history, play, scripted_match, scripted_next_hand

# ---------------------------------------------------------------- deals
# Seat 0 holds 6-6 and a chain on 6, 0, 1; seat 1 holds only 2..5.
CHAIN = [["6-6", "0-6", "0-0", "0-1", "1-1", "1-6", "1-2"],
         ["5-5", "4-5", "4-4", "3-5", "3-4", "2-5", "3-3"]]
CHAIN_STEPS = ["0 6-6", "0 0-6 W", "0 0-0 W", "0 0-1 W", "0 1-1 W", "0 1-6 E", "0 1-2 W"]
# The same two hands with the seats swapped.
CHAIN_SWAPPED = [CHAIN[1], CHAIN[0]]


def _opening_actions(m):
    legal = m.legal_actions()
    assert all("end" not in a for a in legal)
    return sorted(a["play"] for a in legal), {a["seat"] for a in legal}


def _finish(m):
    check_invariants(m, roundtrip=True)
    check_history(m)
    return m.records[-1]["result"]


# ---------------------------------------------------------------- Block
def test_block_domino_two_players():
    m = scripted_match("block", CHAIN)
    assert m.turn == 0 and m.legal_actions() == [{"seat": 0, "play": "6-6"}]
    play(m, *CHAIN_STEPS)
    assert history(m) == ["0 6-6", "1 pass", "0 0-6 W", "1 pass", "0 0-0 W", "1 pass",
                          "0 0-1 W", "1 pass", "0 1-1 W", "1 pass", "0 1-6 E", "1 pass", "0 1-2 W"]
    res = _finish(m)
    # seat 1 keeps 5-5 4-5 4-4 3-5 3-4 2-5 3-3 = 10+9+8+8+7+7+6 = 55
    assert res["end"] == "domino" and res["winner"] == 0
    assert res["counts"] == [0, 55] and res["points"] == [55, 0] and res["totals"] == [55, 0]
    assert m.phase == "hand-over" and not m.finished


BLOCKED = [["6-6", "5-6", "4-5", "3-4", "2-3", "1-2", "0-1"],
           ["0-0", "0-2", "0-3", "0-4", "1-1", "1-3", "2-2"]]
BLOCKED_STEPS = ["0 6-6", "0 5-6 E", "0 4-5 E", "1 0-4 E", "0 0-1 E", "1 1-3 E", "0 3-4 E"]


def test_block_blocked_hand_lowest_count_wins():
    m = scripted_match("block", BLOCKED)
    play(m, *BLOCKED_STEPS)
    assert history(m) == ["0 6-6", "1 pass", "0 5-6 E", "1 pass", "0 4-5 E", "1 0-4 E",
                          "0 0-1 E", "1 1-3 E", "0 3-4 E"]
    res = _finish(m)
    # ends 6 and 4; nobody holds a 6 or a 4 and Block has no boneyard.
    # seat 0: 2-3 1-2 = 8; seat 1: 0-0 0-2 0-3 1-1 2-2 = 0+2+3+2+4 = 11
    assert res["end"] == "blocked"
    assert res["counts"] == [8, 11] and res["winner"] == 0 and res["points"] == [11, 0]


def test_block_after_a_blocked_hand_the_winner_opens_with_any_tile():
    m = scripted_match("block", BLOCKED)
    play(m, *BLOCKED_STEPS)
    scripted_next_hand(m, CHAIN_SWAPPED)          # seat 1 now holds 6-6
    tiles, seats = _opening_actions(m)
    assert seats == {0} and tiles == sorted(["2-5", "3-3", "3-4", "3-5", "4-4", "4-5", "5-5"])
    assert m.hand.forced is None


def test_block_winner_of_a_domino_opens_next_hand():
    m = scripted_match("block", CHAIN)
    play(m, *CHAIN_STEPS)
    scripted_next_hand(m, CHAIN_SWAPPED)
    tiles, seats = _opening_actions(m)
    assert seats == {0} and len(tiles) == 7


TIE = [["6-6", "5-5", "4-5", "4-4", "1-2", "0-2", "0-0"],
       ["0-3", "1-3", "0-4", "2-3", "0-5", "1-4", "3-3"]]


def test_block_tie_nobody_scores_and_highest_double_opens_next():
    m = scripted_match("block", TIE)
    play(m, "0 6-6")
    # blocked at once: the other sixes are out of play
    res = _finish(m)
    # seat 0: 10+9+8+3+2+0 = 32; seat 1: 3+4+4+5+5+5+6 = 32
    assert res["end"] == "blocked" and res["counts"] == [32, 32]
    assert res["points"] == [0, 0] and res["winner"] is None and m.scores == [0, 0]
    scripted_next_hand(m, CHAIN_SWAPPED)          # seat 1 holds 6-6
    assert m.turn == 1 and m.legal_actions() == [{"seat": 1, "play": "6-6"}]


def test_block_rotate_option():
    m = scripted_match("block", CHAIN, next_opener="rotate")
    play(m, *CHAIN_STEPS)
    scripted_next_hand(m, CHAIN)                  # seat 0 won and holds 6-6 again
    tiles, seats = _opening_actions(m)
    assert seats == {1} and len(tiles) == 7 and m.hand.forced is None
    assert m.hand.opener == 1


# 3 players, Block: 6-6 opens and nothing else shows a 6 (6-0..6-5 out of play).
THREE_TIE = [["6-6", "4-5", "3-5", "4-4", "2-5", "0-3", "0-0"],     # 9+8+8+7+3+0 = 35
             ["3-4", "3-3", "2-4", "0-5", "0-2", "0-1", "1-2"],     # 7+6+6+5+2+1+3 = 30
             ["0-4", "1-1", "1-3", "1-4", "1-5", "2-2", "2-3"]]     # 4+2+4+5+6+4+5 = 30
THREE_WIN = [THREE_TIE[0],
             ["3-4", "3-3", "2-4", "0-5", "0-2", "1-5", "1-2"],     # 7+6+6+5+2+6+3 = 35
             ["0-4", "1-1", "1-3", "1-4", "0-1", "2-2", "2-3"]]     # 4+2+4+5+1+4+5 = 25


def test_block_three_players_shared_lowest_nobody_scores():
    m = scripted_match("block", THREE_TIE)
    play(m, "0 6-6")
    res = _finish(m)
    assert res["counts"] == [35, 30, 30] and res["points"] == [0, 0, 0] and res["winner"] is None


def test_block_three_players_lowest_takes_both_others():
    m = scripted_match("block", THREE_WIN)
    play(m, "0 6-6")
    res = _finish(m)
    assert res["counts"] == [35, 35, 25]
    assert res["winner"] == 2 and res["points"] == [0, 0, 70]   # 35 + 35
    # Block: the winner of the blocked hand opens the next one, any tile
    scripted_next_hand(m, THREE_TIE)
    assert m.turn == 2 and len(m.legal_actions()) == 7


# 4 players in partnership: seat 2 goes out; 0+2 take seats 1 and 3's pips only.
PARTNERS = [["0-0", "1-1", "1-2", "2-2", "1-4", "0-5", "4-5"],
            ["3-4", "4-4", "1-5", "0-6", "2-6", "3-6", "4-6"],
            ["0-3", "1-3", "0-4", "2-4", "2-5", "5-6", "6-6"],
            ["0-1", "0-2", "2-3", "3-3", "3-5", "5-5", "1-6"]]
PARTNER_STEPS = ["2 6-6", "3 1-6 W", "0 1-1 W", "1 4-6 E", "2 2-4 E", "3 0-1 W", "0 0-5 W",
                 "1 1-5 W", "2 1-3 W", "3 2-3 W", "0 2-2 W", "1 2-6 E", "2 2-5 W", "3 3-5 W",
                 "1 0-6 E", "2 0-3 E", "3 3-3 E", "1 3-4 E", "2 0-4 E", "3 0-2 E", "0 1-2 E",
                 "1 3-6 W", "2 5-6 W"]


def test_block_partnership_domino_partner_tiles_never_count():
    m = scripted_match("block", PARTNERS, partnership=True)
    assert m.turn == 2
    play(m, *PARTNER_STEPS)
    assert history(m).count("0 pass") == 2
    res = _finish(m)
    # left: seat 0 0-0 1-4 4-5 = 14 (partner: not counted), seat 1 4-4 = 8,
    # seat 3 5-5 = 10 -> 8 + 10 = 18 for seats 0+2
    assert res["end"] == "domino" and res["counts"] == [14, 8, 0, 10]
    assert res["points"] == [18, 0] and m.scores == [18, 0]


# 4 players: all sevens sixes end up on the table with 6 at both ends.
FOUR_BLOCK = [["6-6", "3-6", "0-5", "0-0", "0-1", "0-2", "1-1"],      # keeps 0+1+2+2 = 5
              ["1-6", "3-4", "5-6", "5-5", "4-5", "3-5", "4-4"],      # keeps 10+9+8+8 = 35
              ["1-2", "4-6", "0-3", "0-4", "1-3", "2-2", "1-4"],      # keeps 3+4+4+4+5 = 20
              ["2-6", "0-6", "2-5", "3-3", "2-4", "2-3", "1-5"]]      # keeps 7+6+6+5+6 = 30
FOUR_STEPS = ["0 6-6", "1 1-6 W", "2 1-2 W", "3 2-6 W", "0 3-6 E", "1 3-4 E", "2 4-6 E",
              "3 0-6 W", "0 0-5 W", "1 5-6 W"]


def test_block_partnership_blocked_side_sums():
    m = scripted_match("block", FOUR_BLOCK, partnership=True)
    play(m, *FOUR_STEPS)
    res = _finish(m)
    # 0+2: 5 + 20 = 25 against 1+3: 35 + 30 = 65 -> 0+2 take 65.
    # (Seat 0 is also the lowest single count, so both readings agree.)
    assert res["end"] == "blocked" and res["counts"] == [5, 35, 20, 30]
    assert res["points"] == [65, 0]
    # Block: the winner (the winning side's lowest hand, seat 0) opens
    assert res["winner"] == 0


def test_draw_four_players_blocked_then_highest_double_opens():
    # Draw with 4 players has no boneyard: the same deal blocks the same way.
    m = scripted_match("draw", FOUR_BLOCK)
    play(m, *FOUR_STEPS)
    res = _finish(m)
    assert res["end"] == "blocked" and res["counts"] == [5, 35, 20, 30]
    assert res["winner"] == 0 and res["points"] == [35 + 20 + 30, 0, 0, 0]
    swapped = [FOUR_BLOCK[1], FOUR_BLOCK[0], FOUR_BLOCK[3], FOUR_BLOCK[2]]   # 6-6 to seat 1
    scripted_next_hand(m, swapped)
    assert m.turn == 1 and m.legal_actions() == [{"seat": 1, "play": "6-6"}]


# ---------------------------------------------------------------- Draw
DRAW_BONE = ["2-2", "5-6", "3-6"]
DRAW_STEPS = ["0 6-6", "1 5-6 E", "0 0-6 W", "1 5-5 E", "0 0-0 W", "1 4-5 E", "0 0-1 W",
              "1 4-4 E", "0 1-1 W", "1 3-4 E", "0 1-2 W", "1 3-3 E", "0 3-6 E", "1 2-2 W",
              "0 1-6 E"]


def test_draw_draws_until_playable_then_domino():
    m = scripted_match("draw", CHAIN, boneyard=DRAW_BONE)
    play(m, *DRAW_STEPS[:1])
    assert history(m) == ["0 6-6", "1 draw 2-2", "1 draw 5-6"]
    assert m.turn == 1 and all(a["play"] == "5-6" for a in m.legal_actions())
    # a seat that can play may not draw or pass
    for bad, code in (({"seat": 1, "draw": None}, "draw-while-able"),
                      ({"seat": 1, "pass": True}, "pass-while-able")):
        with pytest.raises(IllegalAction) as info:
            m.apply(bad)
        assert info.value.code == code
    # the other seat sees the draws without the tiles
    assert [a["draw"] for a in m.view(0)["history"] if "draw" in a] == [None, None]
    assert [a["draw"] for a in m.view(1)["history"] if "draw" in a] == ["2-2", "5-6"]
    play(m, *DRAW_STEPS[1:12])
    assert m.turn == 0 and history(m)[-1] == "0 draw 3-6"   # 1-6 fits neither 2 nor 3
    play(m, *DRAW_STEPS[12:])
    res = _finish(m)
    # seat 1 keeps 3-5 2-5 = 8 + 7 = 15
    assert res["end"] == "domino" and res["winner"] == 0 and res["points"] == [15, 0]
    # Draw: the winner opens the next hand with any tile
    scripted_next_hand(m, CHAIN_SWAPPED)
    tiles, seats = _opening_actions(m)
    assert seats == {0} and len(tiles) == 7


# Both ends show 6 once all seven sixes are down; the boneyard holds no six.
DRAW_BLOCK = [["6-6", "1-2", "3-6", "4-6", "0-5", "5-5", "4-5"],
              ["1-6", "2-6", "3-4", "0-6", "5-6", "0-0", "1-1"]]
DRAW_BLOCK_STEPS = ["0 6-6", "1 1-6 W", "0 1-2 W", "1 2-6 W", "0 3-6 E", "1 3-4 E", "0 4-6 E",
                    "1 0-6 W", "0 0-5 W", "1 5-6 W"]


def test_draw_blocked_after_the_boneyard_is_drawn_and_highest_double_opens():
    m = scripted_match("draw", DRAW_BLOCK)
    play(m, *DRAW_BLOCK_STEPS)
    h = history(m)
    assert h[:10] == DRAW_BLOCK_STEPS
    assert len(h) == 24 and all(x.startswith("0 draw ") for x in h[10:])   # all 14 drawn
    res = _finish(m)
    # seat 0: 5-5 4-5 (19) + the 14 drawn tiles 0-1 0-2 0-3 0-4 1-3 1-4 1-5 2-2
    # 2-3 2-4 2-5 3-3 3-5 4-4 (1+2+3+4+4+5+6+4+5+6+7+6+8+8 = 69) = 88; seat 1: 0-0 1-1 = 2
    assert res["end"] == "blocked" and res["counts"] == [88, 2]
    assert res["winner"] == 1 and res["points"] == [0, 88]
    # Draw: after a blocked hand the highest double opens, not the winner
    scripted_next_hand(m, CHAIN)
    assert m.turn == 0 and m.legal_actions() == [{"seat": 0, "play": "6-6"}]


def test_draw_blocked_with_winner_rotate_option():
    m = scripted_match("draw", DRAW_BLOCK, next_opener="rotate")
    play(m, *DRAW_BLOCK_STEPS)
    scripted_next_hand(m, CHAIN)
    assert m.turn == 1 and len(m.legal_actions()) == 7


# ---------------------------------------------------------------- openers
NO_DOUBLES = [["3-6", "0-1", "0-2", "0-3", "1-2", "1-3", "2-3"],
              ["4-5", "0-4", "1-4", "2-4", "0-5", "1-5", "2-5"]]


@pytest.mark.parametrize("game", ["draw", "block"])
def test_heaviest_tile_opens_without_doubles(game):
    # 6-3 and 5-4 both weigh 9: the higher number wins (6-3)
    m = scripted_match(game, NO_DOUBLES, boneyard=None)
    assert m.turn == 0 and m.legal_actions() == [{"seat": 0, "play": "3-6"}]
    m = scripted_match(game, [NO_DOUBLES[1], NO_DOUBLES[0]])
    assert m.turn == 1 and m.legal_actions() == [{"seat": 1, "play": "3-6"}]
    with pytest.raises(IllegalAction) as info:
        m.apply({"seat": 1, "play": "0-1"})
    assert info.value.code == "no-match"


def test_highest_double_held_opens():
    # 6-6 is out of play (Block): 5-5 is the highest double held
    m = scripted_match("block", [["4-4", "0-1", "0-2", "0-3", "1-2", "1-3", "2-3"],
                                 ["5-5", "0-4", "1-4", "2-4", "0-5", "1-5", "2-5"]])
    assert m.turn == 1 and m.legal_actions() == [{"seat": 1, "play": "5-5"}]


def test_first_opener_random_any_tile():
    m = scripted_match("draw", CHAIN, first_opener="random", seed=3)
    tiles, seats = _opening_actions(m)
    assert seats == {m.turn} and len(tiles) == 7 and m.hand.forced is None


# ---------------------------------------------------------------- match end
def test_match_ends_at_the_target():
    m = scripted_match("block", CHAIN)
    play(m, *CHAIN_STEPS)
    assert m.scores == [55, 0] and not m.finished
    scripted_next_hand(m, CHAIN)
    play(m, *CHAIN_STEPS)          # seat 0 opens (winner), chooses 6-6 again
    assert m.scores == [110, 0] and m.finished and m.phase == "match-over"
    assert m.outcome == {"winner": 0, "reason": "target", "scores": [110, 0]}
    with pytest.raises(IllegalAction):
        m.next_hand()
    with pytest.raises(IllegalAction):
        m.resign(1)


def test_target_option_is_respected():
    m = scripted_match("block", CHAIN, target=150)
    play(m, *CHAIN_STEPS)
    scripted_next_hand(m, CHAIN)
    play(m, *CHAIN_STEPS)
    assert m.scores == [110, 0] and not m.finished


# ---------------------------------------------------------------- resign
def test_resign_two_players():
    m = scripted_match("draw", CHAIN)
    out = m.apply({"seat": 1, "resign": True})     # not seat 1's turn: allowed
    assert out == [{"seat": 1, "resign": True}]
    assert m.finished and m.outcome == {"winner": 0, "reason": "resign", "scores": [0, 0]}
    with pytest.raises(IllegalAction) as info:
        m.apply({"seat": 0, "play": "6-6"})
    assert info.value.code == "out-of-turn"


def test_resign_partnership_side_loses():
    m = scripted_match("block", PARTNERS, partnership=True)
    m.resign(2)
    assert m.outcome["winner"] == 1 and m.outcome["reason"] == "resign"
    m = scripted_match("block", PARTNERS, partnership=True)
    m.resign(3)
    assert m.outcome["winner"] == 0


def test_resign_three_players_best_remaining_wins():
    m = scripted_match("block", THREE_WIN)
    play(m, "0 6-6")                          # seat 2 scores 70
    m.resign(0)
    assert m.outcome == {"winner": 2, "reason": "resign", "scores": [0, 0, 70]}
    m = scripted_match("block", THREE_WIN)
    play(m, "0 6-6")
    m.resign(2)                               # seats 0 and 1 both have 0: no winner
    assert m.outcome["winner"] is None and m.outcome["reason"] == "resign"
