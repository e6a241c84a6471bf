"""The app controller (domino/app/) in CPython: settings -> Match, turns,
hand-off decisions, message texts, taps, screens."""
import pytest

from domino import app, table
from domino.app.i18n import t
from domino.app.screens.display import Display
from domino.app.screens.table import draw_board, seat_node
from domino.engine.match import Match
from domino.engine.rules import PRESETS, make_rules

NAMES = ["Ana", "Luis", "Eva", "Pau", "Rosa", "Juan", "Lola", "Teo"]


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
    tree = app.game_screen(c, Display(c.lang))
    assert app.find(tree, data_testid="handoff")
    assert not [n for n in app.walk(tree) if "data-tile" in n[1] and n[0] == "button"]
    assert c.continue_handoff()
    assert c.handoff() is None and c.face_up() == first
    tree = app.game_screen(c, Display(c.lang))
    assert not app.find(tree, data_testid="handoff")
    buttons = [n for n in app.walk(tree) if n[0] == "button" and "data-tile" in n[1]]
    assert sorted(b[1]["data-tile"] for b in buttons) == sorted(m.view(first)["hand"])
    # play: the other human needs the device (unless they were skipped)
    a = next(x for x in c.legal() if "play" in x)
    c.apply(a)
    if m.phase == "play" and m.turn != first:
        assert c.handoff() == m.turn
        assert not [n for n in app.walk(app.game_screen(c, Display(c.lang))) if n[0] == "button" and "data-tile" in n[1]]


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
    assert sorted(ids) == sorted(g for g in PRESETS if table.offered(g))


def test_computer_kinds_exclude_random():
    kinds = table.computer_kinds()
    assert "random" not in kinds or kinds == ["random"]
    assert app.kind_label("en", "random") == "Computer"


def test_new_match_from_settings():
    s = table.default_settings()
    s.update(game="block", players=4, partnership=True, target=150)
    s["seats"][0] = {"kind": "human", "name": " Ana "}
    s["seats"][1] = {"kind": "human", "name": ""}
    m = table.new_match(s, seed=9)
    assert m.rules.game == "block" and m.rules.players == 4 and m.rules.partnership
    assert m.rules.target == 150
    assert m.seats[0] == {"name": "Ana", "kind": "human"}
    assert m.seats[1]["name"] == "Player 2"
    assert m.seats[2]["kind"] != "human"


def test_every_game_and_count_starts():
    for g in app.games():
        for n in g["players"]:
            s = table.normalize_settings({"game": g["id"], "players": n})
            m = table.new_match(s, seed=1)
            assert m.phase == "play"
            app.game_screen(app.Controller(m), Display())


def test_normalize_bad_settings():
    s = table.normalize_settings({"game": "nope", "players": "x", "target": 7, "seats": "?"})
    assert s["game"] == "draw" and s["players"] == 2 and s["target"] == 100
    assert table.normalize_settings(None) == table.default_settings()


def test_partnership_choice():
    assert table.partnership_choice("draw", 4) == "option"
    assert table.partnership_choice("latin", 4) == "fixed"
    assert table.partnership_choice("muggins", 4) == "none"
    assert table.partnership_choice("draw", 3) == "none"


def test_duplicate_names_made_unique():
    s = table.default_settings()
    s["seats"][0]["name"] = "Ana"
    s["seats"][1] = {"kind": "human", "name": "Ana"}
    names = table.seat_names(table.normalize_settings(s), "en")
    assert len(set(names)) == 2


# ------------------------------------------------------------ taps
def _to_choice(game="draw", same=False):
    """Play until the human to move holds a tile that fits two ends (that
    lead to different tables, or with ``same`` to the same one)."""
    for seed in range(60):
        m = _m(game, seed=seed)
        c = app.Controller(m)
        for _ in range(40):
            if m.phase != "play":
                break
            c.viewer = m.turn
            for tile in sorted(c.playable()):
                acts = app.tile_actions(c.legal(), tile)
                if len(app.ends_of(acts)) > 1 and app.same_result(m, acts) == same:
                    return c, tile
            c.apply(c.legal()[0])
    raise AssertionError("no two-end choice found")


def test_tap_two_equal_places_plays_at_once():
    """Both places give the same table (same open numbers, same points):
    the game does not ask which."""
    c, tile = _to_choice(same=True)
    acts = app.tile_actions(c.legal(), tile)
    ends = sorted(c.view()["ends"].items())
    seq = c.seq
    done = c.tap_tile(tile)
    assert done and done[0]["play"] == tile and c.seq > seq and c.selected is None
    # the two places really were alike: the same numbers were open on both
    assert len({v for e, v in ends if e in app.ends_of(acts)}) == 1


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
                v = app.game_screen(c, Display(c.lang))
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
    tree = app.game_screen(c, Display(c.lang))
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
    tree = app.game_screen(c, Display(c.lang))
    assert app.find(tree, data_testid="match-result")
    assert app.find(tree, data_testid="new-match")
    assert "Ana resigns" in c.message()


def test_board_targets_carry_seq():
    c, tile = _to_choice()
    c.tap_tile(tile)
    tree = draw_board(c, Display(c.lang), 360, 400)
    ends = [n for n in app.walk(tree) if "data-end" in n[1] and n[1].get("class") == "target"]
    assert len(ends) >= 2
    assert all(n[1]["data-seq"] == str(c.seq) and n[1]["data-action"] == "end" for n in ends)
    # the ends' number labels are no places
    labels = [n for n in app.walk(tree) if n[1].get("data-testid") == "end-label"]
    assert labels and all("data-action" not in n[1] for n in labels)


def test_help_dialog_every_game():
    for g in PRESETS:
        for lang in ("es", "en"):
            assert app.find(app.help_dialog(g, lang), data_testid="help-dialog")


def test_new_game_screen_hooks():
    tree = app.new_game_screen(table.default_settings(), "en", "coloured")
    for tid in ("new-game", "start", "game", "players", "target", "seat-kind-0", "seat-name-1", "lang", "pips", "help"):
        assert app.find(tree, data_testid=tid), tid
    kinds = [n[1]["value"] for n in app.walk(app.find(tree, data_testid="seat-kind-1")[0]) if n[0] == "option"]
    assert kinds[0] == "human" and "random" not in kinds[1:] or kinds == ["human", "random"]


# ------------------------------------------------------------ rule options
def _offered(tree) -> set[str]:
    return {n[1]["data-testid"][4:] for n in app.walk(tree) if n[1].get("data-testid", "").startswith("opt-")}


def test_options_offered_are_the_unlocked_multivalued_ones():
    from domino.engine.rules import games_catalogue
    for g in games_catalogue():
        if not table.offered(g["id"]):
            continue
        open_ = {o["key"] for o in g["options"] if not o["locked"] and len(o["values"]) > 1}
        s = table.normalize_settings({"game": g["id"], "players": 4 if 4 in g["players"] else 2})
        tree = app.new_game_screen(s, "en", "coloured")
        shown = _offered(tree)
        # players, target and partnership have their own fields; pips is the toolbar's (looks only)
        own = {"players", "target"} | ({"partnership"} if app.find(tree, data_testid="partnership") else set())
        assert shown | own | {"pips"} >= open_, g["id"]
        assert shown == {k for k in open_ if k not in table.OWN_FIELDS}, g["id"]
        if shown:
            assert app.find(tree, data_testid="options")[0][0] == "details"
        else:   # Latin: nothing left open but players and target
            assert not app.find(tree, data_testid="options")
        for o in table.game_options(g["id"]):   # every value offered, with a label in both languages
            sel = app.find(tree, data_testid="opt-" + o["key"])[0]
            values = [n[1]["value"] for n in app.walk(sel) if n[0] == "option"]
            assert values == [table.enc(v) for v in o["values"]]
            for lang in ("en", "es"):
                assert not app.option_label(lang, o["key"]).startswith("opt.")
                for v in o["values"]:
                    assert not app.option_value_label(lang, o["key"], v).startswith("opt."), (o["key"], v)


def test_every_option_value_has_labels():
    from domino.engine.rules import OPTION_VALUES
    from domino.app.i18n import MESSAGES
    for key, values in OPTION_VALUES.items():
        if key in table.OWN_FIELDS:
            continue
        for lang in ("en", "es"):
            assert "opt." + key in MESSAGES[lang], key
            for v in values:
                assert not app.option_value_label(lang, key, v).startswith("opt."), (key, v)
    assert app.option_value_label("en", "spinner", "opening") == "opening double"
    assert app.option_value_label("es", "spinner", "first") == "primer doble"


def test_option_defaults_and_reset_per_game():
    for g in PRESETS.values():
        if not table.offered(g.id):
            continue
        s = table.normalize_settings({"game": g.id})
        assert s["options"] == {o["key"]: g.defaults[o["key"]] for o in table.game_options(g.id)}
        m = table.new_match(s, seed=1)
        for k, v in s["options"].items():
            if k != "hand_size":
                assert getattr(m.rules, k) == v
    # stored options of another game are dropped; bad values fall back to the default
    s = table.normalize_settings({"game": "draw", "options": {"fives": "total", "spinner": "nope", "set": 9}})
    assert "fives" not in s["options"] and s["options"]["spinner"] == "off" and s["options"]["set"] == 9


def test_changed_option_reaches_the_match():
    s = table.normalize_settings({"game": "all-fives", "options": {"spinner": "off", "next_opener": "rotate"}})
    m = table.new_match(s, seed=3)
    assert m.rules.spinner == "off" and m.rules.next_opener == "rotate"
    tree = app.new_game_screen(s, "en", "coloured")
    assert app.find(tree, data_testid="lobby-code")[0][1]["data-code"] == m.rules.lobby_code() == "100pt/5*O"
    # values as the <select> posts them (strings) are decoded
    s = table.normalize_settings({"game": "classic", "options": {"set": "9", "best_of_10": "on", "rounding": "none"}})
    m = table.new_match(s, seed=3)
    assert m.rules.set == 9 and m.rules.best_of_10 is True and m.rules.rounding == "none"
    assert m.rules.hand_size == 9
    s = table.normalize_settings({"game": "muggins", "players": 3, "options": {"hand_size": "6", "points": "good"}})
    m = table.new_match(s, seed=3)
    assert m.rules.hand_size == 6 and m.rules.points == "good" and m.rules.players == 3


def test_invalid_combination_shows_error_and_no_match():
    s = table.normalize_settings({"game": "classic", "options": {"fives": "total", "best_of_10": True}})
    tree = app.new_game_screen(s, "en", "coloured")
    err = app.find(tree, data_testid="options-error")
    assert err and "best of 10" in app.text_of(err[0])
    assert "disabled" in app.find(tree, data_testid="start")[0][1]
    assert not app.find(tree, data_testid="lobby-code")
    with pytest.raises(app.RulesError):
        table.new_match(s, seed=1)
    s = table.normalize_settings({"game": "all-fives", "options": {"boneyard": "none", "keep_last_two": True}})
    assert app.find(app.new_game_screen(s, "es", "coloured"), data_testid="options-error")
    ok = app.new_game_screen(table.normalize_settings({"game": "classic"}), "en", "coloured")
    assert not app.find(ok, data_testid="options-error")
    assert "disabled" not in app.find(ok, data_testid="start")[0][1]


def test_options_section_open_state_kept():
    s = table.normalize_settings({"game": "draw", "show_options": True})
    assert "open" in app.find(app.new_game_screen(s, "en", "coloured"), data_testid="options")[0][1]
    s = table.normalize_settings({"game": "draw"})
    assert "open" not in app.find(app.new_game_screen(s, "en", "coloured"), data_testid="options")[0][1]


def test_seat_kinds_show_personas():
    tree = app.new_game_screen(table.default_settings(), "en", "coloured")
    labels = {n[1]["value"]: app.text_of(n) for n in app.walk(app.find(tree, data_testid="seat-kind-1")[0])
              if n[0] == "option"}
    assert labels["easy"] == "Computer — Pepe (easy)"
    assert labels["medium"] == "Computer — Lola (medium)"
    assert labels["hard"] == "Computer — Don Ramón (hard)"
    assert app.kind_label("es", "medium") == "Computadora — Lola (media)"
    m = table.new_match(table.default_settings(), seed=1)
    assert m.seats[1]["name"] == "Lola"


def test_computers_of_one_level_get_distinct_names():
    """Three seats of the same level: three persona names, no numbers that
    could disagree with the seat numbers."""
    s = table.default_settings()
    s["players"] = 4
    s["seats"] = [{"kind": "human", "name": "Ana"}] + [{"kind": "hard", "name": ""} for _ in range(3)]
    names = table.seat_names(s, "en")
    assert names == ["Ana", "Don Ramón", "Doña Carmen", "Don Julio"]
    s["seats"][2] = {"kind": "medium", "name": ""}
    assert table.seat_names(s, "en") == ["Ana", "Don Ramón", "Lola", "Doña Carmen"]


def test_repeated_names_get_their_seat_number():
    """Names typed twice are told apart by the seat numbers the screen shows."""
    s = table.default_settings()
    s["players"] = 4
    s["seats"] = [{"kind": "human", "name": "Ana"}, {"kind": "easy", "name": ""},
                  {"kind": "human", "name": "Ana"}, {"kind": "easy", "name": "Ana"}]
    assert table.seat_names(s, "en") == ["Ana 1", "Pepe", "Ana 3", "Ana 4"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_rules_errors_speak_the_players_language(lang):
    """Every way make_rules refuses a combination has a message in both languages."""
    from domino.engine.rules import RulesError
    cases = [dict(game="draw", players=3, partnership=True),
             dict(game="classic", fives="total", best_of_10=True),
             dict(game="all-fives", keep_last_two=True, boneyard="none"),
             dict(game="classic", players=3),
             dict(game="latin", spinner="first")]
    for c in cases:
        with pytest.raises(RulesError) as err:
            make_rules(**c)
        text = app.rules_error_text(lang, err.value)
        assert text and "{" not in text, (c, text)
        assert f"rules.{err.value.code}" in __import__("domino.app.i18n").app.i18n.MESSAGES[lang], err.value.code
        if lang == "es":
            assert text != app.rules_error_text("en", err.value)


# ------------------------------------------------------------ the story of the hand
def _play_random(m, c, n, seed=1):
    import random
    rng = random.Random(seed)
    for _ in range(n):
        if m.phase != "play":
            break
        c.apply(rng.choice(m.legal_actions()))


def test_live_scores_count_fives_at_once():
    """The header never says 0 for a side that scored during the hand."""
    for seed in range(30):
        m = _m("all-fives", seed=seed)
        c = app.Controller(m)
        while m.phase == "play":
            c.viewer = m.turn
            c.apply(m.legal_actions()[0])
            v = m.view(0)
            if m.phase == "play" and any(v["fives"]):
                sc = app.live_scores(v)
                assert sc == [a + b for a, b in zip(v["scores"], v["fives"])]
                tree = app.game_screen(c, Display(c.lang))
                for sd in range(2):
                    chip = app.find(tree, data_testid=f"score-{sd}")[0]
                    assert chip[1]["data-value"] == str(sc[sd])
                    seat = app.find(tree, data_testid=f"seat-{sd}")[0]
                    assert seat[1]["data-score"] == str(sc[sd])
                return
    raise AssertionError("no fives scored")


def test_live_scores_after_the_hand_are_the_totals():
    m = _m("all-fives", seed=2)
    _finish(m)
    v = m.view(0)
    assert app.live_scores(v) == v["scores"] == v["result"]["totals"]


@pytest.mark.parametrize("game,n", [("all-fives", 2), ("all-fives", 4), ("los-cincos", 4), ("classic", 2),
                                    ("draw", 3), ("matador", 2)])
def test_play_points_add_up_to_the_hand_fives(game, n):
    """Replaying the plays on an empty table finds every point the engine scored."""
    import random
    opts = {"fives": "total"} if game == "classic" else {}
    for seed in range(6):
        m = Match(make_rules(game, players=n, **opts), seed=seed,
                  seats=[{"name": NAMES[i], "kind": "human"} for i in range(n)])
        rng = random.Random(seed)
        while m.phase == "play":
            before = list(m.hand.fives)
            k = len(m.hand.actions)
            m.apply(rng.choice(m.legal_actions()))
            pts = app.play_points(m)
            assert len(pts) == len(m.hand.actions)
            assert sum(pts[k:]) == sum(m.hand.fives) - sum(before)
        assert sum(app.play_points(m)) == sum(m.hand.fives)


def test_hand_log_one_entry_per_action_in_order():
    m = _m("draw", n=3, kinds=("human", "easy", "easy"), seed=8)
    c = app.Controller(m)
    _play_random(m, c, 25)
    v = m.view(0)
    log = c.log()
    assert [e["seat"] for e in log] == [a["seat"] for a in v["history"]]
    assert [e["kind"] for e in log] == [("play" if "play" in a else "draw" if "draw" in a else "pass")
                                       for a in v["history"]]
    tree = app.game_screen(c, Display(c.lang))
    ol = app.find(tree, data_testid="move-log")[0]
    lis = [n for n in ol[2] if n[0] == "li"]
    deal, lis = lis[0], lis[1:]      # the hand's first line: the deal's fingerprint (issue 41)
    assert deal[1]["data-testid"] == "log-deal" and deal[1]["data-fingerprint"] == m.fingerprint()
    assert len(lis) == len(v["history"])
    for li, a in zip(lis, v["history"]):
        assert li[1]["data-seat"] == str(a["seat"])
        assert app.text_of(li).startswith(NAMES[a["seat"]])
    # other seats' drawn tiles stay hidden in the log
    for li, a in zip(lis, v["history"]):
        if "draw" in a and a["seat"] != 0:
            assert "drew a tile" in app.text_of(li)


def test_log_text_in_both_languages():
    from domino.app.story import log_text
    e = {"seat": 1, "kind": "play", "tile": "4-6", "end": "E", "points": 15}
    assert log_text(e, NAMES, "en") == "Luis played 4-6 at the right end and scored 15"
    assert log_text(e, NAMES, "es") == "Luis jugó 4-6 en la punta derecha y se anotó 15"
    assert log_text({"seat": 0, "kind": "play", "tile": "6-6", "end": None, "points": 0}, NAMES, "en") == \
        "Ana opened with 6-6"
    assert log_text({"seat": 2, "kind": "pass", "tile": None, "end": None, "points": 0}, NAMES, "es") == "Eva pasó"


@pytest.mark.parametrize("players,spots", [
    (2, {0: "bottom", 1: "top"}),
    (3, {0: "bottom", 1: "right", 2: "left"}),
    (4, {0: "bottom", 1: "right", 2: "top", 3: "left"}),
])
def test_seat_order_partner_opposite(players, spots):
    assert app.seat_order(players, 0) == spots
    # the one looking is always at the bottom; the order around stays the same
    turned = app.seat_order(players, 1)
    assert turned[1] == "bottom" and turned[(1 + 1) % players] == spots[1]


def test_seats_show_latest_turn_and_points_until_they_move_again():
    for seed in range(30):
        m = _m("all-fives", n=3, kinds=("human", "easy", "easy"), seed=seed)
        c = app.Controller(m)
        while m.phase == "play":
            c.apply(m.legal_actions()[0])
            pts = app.play_points(m)
            if m.phase == "play" and pts and pts[-1] and m.hand.actions[-1][1] == "p":
                scorer = m.hand.actions[-1][0]
                side = m.rules.side_of(scorer)
                got = pts[-1]
                # the next seats move: the scorer's seat still shows its points
                while m.phase == "play" and m.turn != scorer:
                    c.apply(m.legal_actions()[0])
                    s = c.seats()[scorer]
                    assert s["points"] == got and s["score"] == app.live_scores(m.view(0))[side]
                    assert f"+{got}" in app.text_of(seat_node(s, "en"))
                return
    raise AssertionError("no fives scored")


def test_seat_order_many_players():
    """Five to eight seats (Mexican Train, Chicken Foot): right, a row across the top, left."""
    spots = app.seat_order(6, 0)
    assert spots == {0: "bottom", 1: "right", 2: "top-1", 3: "top-2", 4: "top-3", 5: "left"}


@pytest.mark.parametrize("players,me", [(6, 0), (8, 3)])
def test_many_players_sit_in_one_strip_in_playing_order(players, me):
    """From five seats on, the others sit in one strip above the board, the
    next to play first; nobody sits at the sides (a phone has no room)."""
    kinds = ["easy"] * players
    kinds[me] = "human"
    m = _m("mexican-train", n=players, kinds=tuple(kinds), seed=2)
    tree = app.game_screen(app.Controller(m), Display())
    area = app.find(tree, **{"class": "table-area"})[0]
    assert area[1]["data-many"] == "1"
    strip = app.find(area, **{"class": "seats-top"})[0]
    order = [int(n[1]["data-seat"]) for n in app.walk(strip) if n[1].get("data-testid", "").startswith("seat-")]
    assert order == [(me + k) % players for k in range(1, players)]
    around = [n for n in area[2] if n[1].get("data-testid", "").startswith("seat-")]
    assert around == []


def test_bottom_seat_is_the_person_and_turn_is_marked():
    m = _m("draw", n=4, kinds=("easy", "easy", "human", "easy"), seed=3)
    c = app.Controller(m)
    seats = c.seats()
    assert seats[2]["spot"] == "bottom" and seats[0]["spot"] == "top"
    assert [s["turn"] for s in seats] == [m.turn == i for i in range(4)]
    tree = app.game_screen(c, Display(c.lang))
    node = app.find(tree, data_testid=f"seat-{m.turn}")[0]
    assert "turn" in node[1]["class"] and node[1]["aria-current"] == "true"


def test_header_does_not_hold_tile_counts():
    """Tile counts live at the seats: the header is the same tree whatever
    the counts (so a count reaching two digits cannot make it grow)."""
    m = _m("draw", seed=4)
    c = app.Controller(m)
    v = c.view()
    many = dict(v, counts=[12 for _ in v["counts"]])
    assert app.scores_bar(c, v, c.lang) == app.scores_bar(c, many, c.lang)
    seat = app.find(app.game_screen(c, Display(c.lang)), data_testid="seat-1")[0]
    assert seat[1]["data-count"] == str(v["counts"][1])


def test_hint_follows_the_language():
    m = _m(kinds=("human", "easy"))
    c = app.Controller(m)
    while not c.my_turn():
        m.apply(m.legal_actions()[0])
    c.hint()
    assert c.note.startswith("Hint")
    c.lang = "es"
    assert c.note.startswith("Pista")
    assert "Pista" in app.text_of(app.game_screen(c, Display(c.lang)))


def test_board_story_in_line_order():
    m = _m("all-fives", seed=4)
    c = app.Controller(m)
    _play_random(m, c, 8, seed=2)
    v = m.view(0)
    tiles, ends = app.board_story(v, "en")
    lay = v["layout"]
    line = [x["tile"] for x in reversed(lay["arms"]["W"])] + [lay["center"]] + [x["tile"] for x in lay["arms"]["E"]]
    assert [x.split(" ")[0] for x in tiles[:len(line)]] == line
    for e, n in v["ends"].items():
        assert f"{t('en', 'game.end.' + e)} {n}" in ends
    assert f"add up to {v['ends_total']}" in ends


def test_pace_and_travel_fit_in_a_turn():
    for pace, ms in app.PACES.items():
        assert 0 < app.travel_ms(ms) < ms
    assert app.pace_ms("nonsense") == app.PACES[app.DEFAULT_PACE]
    assert app.travel_ms(0) == 0
