"""The app controller (domino/app.py) in CPython: settings -> Match, turns,
hand-off decisions, message texts, taps, screens."""
import pytest

from domino import app
from domino.match import Match
from domino.rules import PRESETS, make_rules

NAMES = ["Ana", "Luis", "Eva", "Pau"]


def _m(game="draw", n=2, kinds=("human", "human"), seed=5, **opts):
    return Match(make_rules(game, players=n, **opts), seed=seed,
                 seats=[{"name": NAMES[i], "kind": kinds[i]} for i in range(n)])


# ------------------------------------------------------------ messages
def test_describe_draws_and_play():
    h = [{"seat": 0, "play": "4-6", "end": "E"}, {"seat": 1, "draw": None}, {"seat": 1, "draw": None},
         {"seat": 1, "play": "2-4", "end": "W"}]
    assert app.describe(h, NAMES, "en") == "Luis drew 2 and played 2-4"
    assert app.describe(h, NAMES, "es") == "Luis robó 2 y jugó 2-4"


def test_describe_waiting_draws_and_passes():
    h = [{"seat": 0, "play": "4-6", "end": "E"}, {"seat": 1, "draw": None}]
    assert app.describe(h, NAMES, "en") == "Ana played 4-6 · Luis drew 1"
    h = [{"seat": 0, "play": "4-6", "end": "E"}, {"seat": 1, "pass": True}]
    assert app.describe(h, NAMES, "en") == "Ana played 4-6 · Luis passes"
    h = [{"seat": 0, "play": "4-6"}, {"seat": 1, "draw": None}, {"seat": 1, "draw": None}, {"seat": 1, "pass": True}]
    assert app.describe(h, NAMES, "en") == "Ana played 4-6 · Luis drew 2 and passes"
    assert app.describe([], NAMES, "en") == ""


def test_describe_two_passes_in_a_row():
    h = [{"seat": 0, "play": "1-1"}, {"seat": 1, "pass": True}, {"seat": 2, "pass": True}]
    assert app.describe(h, NAMES, "en") == "Ana played 1-1 · Luis passes · Eva passes"


def test_message_from_real_block_hand():
    m = _m("block", seed=3)
    c = app.Controller(m, "en")
    while m.phase == "play":
        c.view()
        a = m.legal_actions()[0]
        c.apply(a)
        hist = m.view(0)["history"]
        msg = c.message()
        if hist[-1].get("pass"):
            assert msg.endswith(f"{NAMES[hist[-1]['seat']]} passes")
        elif "play" in hist[-1]:
            assert msg == f"{NAMES[hist[-1]['seat']]} played {hist[-1]['play']}"


# ------------------------------------------------------------ hand-off
def test_handoff_two_humans():
    m = _m()
    c = app.Controller(m)
    first = m.turn
    assert c.handoff() == first
    assert c.face_up() is None
    tree = app.game_screen(c)
    assert app.find(tree, data_testid="handoff")
    assert not [n for n in app.walk(tree) if "data-tile" in n[1] and n[0] == "button"]
    assert c.continue_handoff()
    assert c.handoff() is None and c.face_up() == first
    tree = app.game_screen(c)
    assert not app.find(tree, data_testid="handoff")
    buttons = [n for n in app.walk(tree) if n[0] == "button" and "data-tile" in n[1]]
    assert sorted(b[1]["data-tile"] for b in buttons) == sorted(m.view(first)["hand"])
    # play: the other human needs the device (unless they were skipped)
    a = next(x for x in c.legal() if "play" in x)
    c.apply(a)
    if m.phase == "play" and m.turn != first:
        assert c.handoff() == m.turn
        assert not [n for n in app.walk(app.game_screen(c)) if n[0] == "button" and "data-tile" in n[1]]


def test_no_handoff_with_one_human():
    m = _m(kinds=("human", "medium"))
    assert app.needs_handoff(m, None) is None
    c = app.Controller(m)
    assert c.face_up() == 0 and c.handoff() is None


def test_handoff_not_for_computers_nor_at_hand_end():
    m = _m(n=3, kinds=("human", "easy", "human"))
    assert app.needs_handoff(m, None) == (m.turn if m.seats[m.turn]["kind"] == "human" else None)
    while m.phase == "play":
        m.apply(m.legal_actions()[0])
    assert app.needs_handoff(m, 0) is None


def test_same_human_twice_no_handoff():
    m = _m()
    assert app.needs_handoff(m, m.turn) is None


# ------------------------------------------------------------ settings
def test_games_order_and_all_presets():
    ids = [g["id"] for g in app.games()]
    assert ids[:2] == ["draw", "block"]
    assert sorted(ids) == sorted(PRESETS)


def test_computer_kinds_exclude_random():
    kinds = app.computer_kinds()
    assert "random" not in kinds or kinds == ["random"]
    assert app.kind_label("en", "random") == "Computer"


def test_new_match_from_settings():
    s = app.default_settings()
    s.update(game="block", players=4, partnership=True, target=150)
    s["seats"][0] = {"kind": "human", "name": " Ana "}
    s["seats"][1] = {"kind": "human", "name": ""}
    m = app.new_match(s, seed=9)
    assert m.rules.game == "block" and m.rules.players == 4 and m.rules.partnership
    assert m.rules.target == 150
    assert m.seats[0] == {"name": "Ana", "kind": "human"}
    assert m.seats[1]["name"] == "Player 2"
    assert m.seats[2]["kind"] != "human"


def test_every_game_and_count_starts():
    for g in app.games():
        for n in g["players"]:
            s = app.normalize_settings({"game": g["id"], "players": n})
            m = app.new_match(s, seed=1)
            assert m.phase == "play"
            app.game_screen(app.Controller(m))


def test_normalize_bad_settings():
    s = app.normalize_settings({"game": "nope", "players": "x", "target": 7, "seats": "?"})
    assert s["game"] == "draw" and s["players"] == 2 and s["target"] == 100
    assert app.normalize_settings(None) == app.default_settings()


def test_partnership_choice():
    assert app.partnership_choice("draw", 4) == "option"
    assert app.partnership_choice("latin", 4) == "fixed"
    assert app.partnership_choice("muggins", 4) == "none"
    assert app.partnership_choice("draw", 3) == "none"


def test_duplicate_names_made_unique():
    s = app.default_settings()
    s["seats"][0]["name"] = "Ana"
    s["seats"][1] = {"kind": "human", "name": "Ana"}
    names = app.seat_names(app.normalize_settings(s), "en")
    assert len(set(names)) == 2


# ------------------------------------------------------------ taps
def _to_choice(game="draw"):
    """Play until the human to move holds a tile that fits two ends."""
    for seed in range(60):
        m = _m(game, seed=seed)
        c = app.Controller(m)
        for _ in range(40):
            if m.phase != "play":
                break
            c.viewer = m.turn
            for tile in sorted(c.playable()):
                if len(app.ends_of(app.tile_actions(c.legal(), tile))) > 1:
                    return c, tile
            c.apply(c.legal()[0])
    raise AssertionError("no two-end choice found")


def test_tap_two_places_then_choose():
    c, tile = _to_choice()
    seq = c.seq
    assert c.tap_tile(tile) is None
    assert c.selected == tile and c.seq == seq
    targets = c.targets()
    assert len(targets) >= 2
    end = sorted(targets)[0]
    done = c.tap_end(end)
    assert done and done[0]["play"] == tile and done[0]["end"] == end
    assert c.selected is None and c.seq > seq


def test_tap_unplayable_does_nothing():
    m = _m(kinds=("human", "easy"))
    c = app.Controller(m)
    while not c.my_turn():
        m.apply(m.legal_actions()[0])
    hand = m.view(0)["hand"]
    bad = [x for x in hand if x not in c.playable()]
    if bad:
        seq = c.seq
        assert c.tap_tile(bad[0]) is None and c.seq == seq and c.selected is None


def test_tap_single_place_plays():
    m = _m(kinds=("human", "easy"))
    c = app.Controller(m)
    while not c.my_turn():
        m.apply(m.legal_actions()[0])
    for tile in c.playable():
        if len(app.tile_actions(c.legal(), tile)) == 1:
            seq = c.seq
            assert c.tap_tile(tile)
            assert c.seq > seq
            return


def test_fives_flash():
    for seed in range(40):
        m = _m("all-fives", seed=seed)
        c = app.Controller(m)
        while m.phase == "play":
            c.viewer = m.turn
            c.apply(m.legal_actions()[0])
            if c.flash:
                side, pts = c.flash[0]
                assert pts % 5 == 0 and pts > 0
                v = app.game_screen(c)
                assert f"+{pts}" in app.text_of(v)
                return
    raise AssertionError("no fives scored")


# ------------------------------------------------------------ results
def _finish(m):
    while m.phase == "play":
        m.apply(m.legal_actions()[0])


def test_hand_result_rows_match_engine():
    m = _m(seed=4)
    c = app.Controller(m)
    _finish(m)
    tree = app.game_screen(c)
    res = app.find(tree, data_testid="hand-result")
    assert res
    rows = [n for n in app.walk(res[0]) if "data-points" in n[1]]
    r = m.view(0)["result"]
    assert [int(x[1]["data-points"]) for x in rows] == [r["points"][i] for i in range(2)]
    assert [int(x[1]["data-total"]) for x in rows] == [r["totals"][i] for i in range(2)]
    assert app.find(tree, data_testid="next-hand")


def test_partnership_points_on_both_seats():
    m = _m("draw", n=4, kinds=("human",) * 4, partnership=True, seed=2)
    _finish(m)
    rows = app.seat_points(m.view(0))
    res = m.view(0)["result"]
    for r in rows:
        assert r["points"] == res["points"][r["seat"] % 2]
        assert r["total"] == res["totals"][r["seat"] % 2]


def test_resign_ends_match():
    m = _m(kinds=("human", "easy"))
    c = app.Controller(m)
    assert c.resign_seat() == 0
    c.resign()
    assert m.outcome["reason"] == "resign" and m.outcome["winner"] == 1
    tree = app.game_screen(c)
    assert app.find(tree, data_testid="match-result")
    assert app.find(tree, data_testid="new-match")
    assert "Ana resigns" in c.message()


def test_board_targets_carry_seq():
    c, tile = _to_choice()
    c.tap_tile(tile)
    tree = app.board_tree(c, 360, 400)
    ends = [n for n in app.walk(tree) if "data-end" in n[1]]
    assert len(ends) >= 2
    assert all(n[1]["data-seq"] == str(c.seq) for n in ends)


def test_help_dialog_every_game():
    for g in PRESETS:
        for lang in ("es", "en"):
            assert app.find(app.help_dialog(g, lang), data_testid="help-dialog")


def test_new_game_screen_hooks():
    tree = app.new_game_screen(app.default_settings(), "en", "coloured")
    for tid in ("new-game", "start", "game", "players", "target", "seat-kind-0", "seat-name-1", "lang", "pips", "help"):
        assert app.find(tree, data_testid=tid), tid
    kinds = [n[1]["value"] for n in app.walk(app.find(tree, data_testid="seat-kind-1")[0]) if n[0] == "option"]
    assert kinds[0] == "human" and "random" not in kinds[1:] or kinds == ["human", "random"]
