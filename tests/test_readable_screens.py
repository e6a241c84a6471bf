"""Every name, score and tile readable (CPython): partners marked as a team
on the seats, in the header and in the hand result; no "Boneyard: 0" where
every tile is dealt; the board's end labels say what each end counts in a
fives game (their numbers add up to the total shown); the leftover tiles
with their count; "round" in the results of the games played by rounds."""
from __future__ import annotations

import random

import pytest

from domino import app
from domino.app.boards import line
from domino.app.story import partners, seat_views
from domino.app.nodes import find, text_of, walk
from domino.app.screens.results import hand_result
from domino.app.screens.display import Display
from domino.app.screens.table import draw_board, scores_bar, seat_node
from domino.engine.match import Match
from domino.engine.rules import make_rules

NAMES = ["Ana", "Luis", "Eva", "Pau", "Rosa", "Juan", "Lola", "Teo"]


def _m(game, n, seed=5, kinds=None, **opts):
    kinds = kinds or ["human"] + ["easy"] * (n - 1)
    return Match(make_rules(game, players=n, **opts), seed=seed,
                 seats=[{"name": NAMES[i], "kind": kinds[i]} for i in range(n)])


def _to_hand_over(m: Match, seed: int = 1) -> Match:
    rng = random.Random(seed)
    while m.phase == "play":
        m.apply(rng.choice(m.legal_actions()))
    assert m.phase in ("hand-over", "match-over") or m.outcome
    return m


def _classes(node) -> list[str]:
    return (node[1].get("class") or "").split()


# ------------------------------------------------------------------ 1. partners
def test_partners_are_one_team_on_the_seats_and_in_the_header():
    m = _m("latin", 4)
    c = app.Controller(m, "en")
    v = c.view()
    assert partners(v)
    seats = seat_views(m, v, 0)
    for s in seats:
        assert s["team"] == s["side"]
        node = seat_node(s, "en")
        assert f"team-{s['side']}" in _classes(node)
        assert node[1]["data-team"] == str(s["side"])
        assert find(node, **{"class": "team-mark"})
        partner = [NAMES[p] for p in v["sides"][s["side"]] if p != s["seat"]]
        assert "partner of " + partner[0] in node[1]["aria-label"]
    # seats of one side share their colour, the other side has the other
    assert {s["seat"]: s["team"] for s in seats} == {0: 0, 2: 0, 1: 1, 3: 1}
    bar = scores_bar(c, v, c.lang)
    chips = [n for n in walk(bar) if "chip" in _classes(n)]
    assert [ch[1]["data-team"] for ch in chips] == ["0", "1"]
    assert all(f"team-{i}" in _classes(ch) for i, ch in enumerate(chips))
    es = seat_node(seats[1], "es")
    assert "pareja de " + NAMES[3] in es[1]["aria-label"]


def test_no_team_marks_without_partners():
    m = _m("draw", 4, partnership=False) if "partnership" in make_rules("draw", players=4).options() \
        else _m("draw", 4)
    c = app.Controller(m, "en")
    v = c.view()
    if partners(v):
        pytest.skip("draw for four plays in partnership by default")
    for s in seat_views(m, v, 0):
        assert s["team"] is None
        node = seat_node(s, "en")
        assert "team" not in _classes(node) and not find(node, **{"class": "team-mark"})
    assert not [n for n in walk(scores_bar(c, v, c.lang)) if "team" in _classes(n)]


def test_hand_result_gives_the_team_total_once():
    m = _to_hand_over(_m("latin", 4, seed=3))
    c = app.Controller(m, "en")
    v = c.view()
    tree = hand_result(c, v, Display(c.lang))
    rows = [n for n in walk(tree) if n[0] == "tr" and "data-seat" in n[1]]
    assert sorted(int(r[1]["data-seat"]) for r in rows) == [0, 1, 2, 3]
    # partners side by side
    assert [int(r[1]["data-side"]) for r in rows] == [0, 0, 1, 1]
    tots = [n for n in walk(tree) if n[0] == "td" and "tot" in _classes(n)]
    pts = [n for n in walk(tree) if n[0] == "td" and "pts" in _classes(n)]
    assert len(tots) == len(pts) == 2 and all(n[1]["rowspan"] == "2" for n in tots + pts)
    res = v["result"]
    assert [int(text_of(n)) for n in tots] == res["totals"]
    assert [int(text_of(n).lstrip("+")) for n in pts] == res["points"]
    # every seat row still names its player
    assert [text_of(r[2][0]) for r in rows] == [NAMES[s] for s in (0, 2, 1, 3)]


def test_hand_result_without_partners_one_total_per_seat():
    m = _to_hand_over(_m("draw", 3, seed=3))
    c = app.Controller(m, "en")
    tree = hand_result(c, c.view(), Display(c.lang))
    tots = [n for n in walk(tree) if n[0] == "td" and "tot" in _classes(n)]
    assert len(tots) == 3 and all("rowspan" not in n[1] for n in tots)


def test_boneyard_hidden_only_where_every_tile_is_dealt():
    def boneyard(m):
        c = app.Controller(m, "en")
        return find(scores_bar(c, c.view(), c.lang), data_testid="boneyard")

    assert not boneyard(_m("latin", 4))            # 4 x 7 = 28: nothing left to draw
    two = _m("draw", 2)
    assert boneyard(two) and text_of(boneyard(two)[0]) == "Boneyard: 14"
    # a boneyard drawn down to 0 still says so
    rng = random.Random(2)
    m = _m("draw", 2, seed=7, kinds=["human", "human"])
    while m.phase == "play" and m.view(0)["boneyard"]:
        acts = m.legal_actions()
        draws = [a for a in acts if "draw" in a]
        m.apply(draws[0] if draws else rng.choice(acts))
    if m.phase == "play":
        assert text_of(boneyard(m)[0]) == "Boneyard: 0"


# ------------------------------------------------------------------ 2. end labels count
def _labels(v) -> list:
    svg = line.board(v, 360, 420)
    return [n for n in walk(svg) if n[1].get("data-testid") == "end-label"]


@pytest.mark.parametrize("game,players", [("all-fives", 2), ("all-fives", 4), ("los-cincos", 4)])
def test_end_labels_add_up_to_the_total_in_fives_games(game, players):
    seen = {"positions": 0, "double": 0, "uncounted": 0}
    for seed in range(25):
        m = _m(game, players, seed=seed, kinds=["human"] * players)
        rng = random.Random(seed)
        for _ in range(200):
            if m.phase != "play":
                break
            v = m.view(0)
            if v["ends"]:
                labels = _labels(v)
                assert {n[1]["data-end"]: int(n[1]["data-value"]) for n in labels} == v["ends"]
                shown = [int(text_of(n)) for n in labels]
                assert sum(shown) == v["ends_total"], (game, seed, v["ends"], shown, v["layout"])
                seen["positions"] += 1
                for n in labels:
                    val, cnt = int(n[1]["data-value"]), int(text_of(n))
                    assert int(n[1]["data-counts"]) == cnt
                    if cnt == 2 * val and val:
                        seen["double"] += 1
                    off = "uncounted" in _classes(n)
                    assert off == (cnt == 0 and val != 0)
                    if off:
                        seen["uncounted"] += 1
                        ring = n[2][0][1]
                        assert "stroke-dasharray" in ring
            m.apply(rng.choice(m.legal_actions()))
    assert seen["positions"] > 100
    assert seen["double"] > 0, "no double at an end was seen"
    assert seen["uncounted"] > 0, "no spinner arm was seen empty"


def test_end_labels_show_the_numbers_without_fives():
    for seed in range(10):
        m = _m("draw", 2, seed=seed, kinds=["human", "human"])
        rng = random.Random(seed)
        while m.phase == "play":
            v = m.view(0)
            for n in _labels(v):
                assert text_of(n) == n[1]["data-value"] and "data-counts" not in n[1]
                assert "uncounted" not in _classes(n)
            m.apply(rng.choice(m.legal_actions()))


def test_the_first_double_alone_counts_once():
    v = {"options": {"fives": "total"}, "ends": {"W": 3, "E": 3},
         "layout": {"center": "3-3", "spinner": {"arm": "C", "index": 0}, "arms": {"W": [], "E": [], "N": [], "S": []}}}
    assert line.counted_ends(v) == {"W": 3, "E": 3}
    v["ends"] = {"W": 2, "E": 3, "N": 3, "S": 3}
    v["layout"]["arms"] = {"W": [{"tile": "2-3", "out": 2}], "E": [{"tile": "3-4", "out": 4}], "N": [], "S": []}
    v["ends"]["E"] = 4
    assert line.counted_ends(v) == {"W": 2, "E": 4, "N": 0, "S": 0}
    v["layout"]["arms"]["N"] = [{"tile": "3-3", "out": 3}]
    assert line.counted_ends(v)["N"] == 6
    assert line.counted_ends({"options": {"fives": "off"}, "ends": {"W": 1}}) is None


# ------------------------------------------------------------------ 3. leftover tiles
def test_leftover_tiles_with_their_count():
    m = _to_hand_over(_m("draw", 3, seed=4))
    for lang, word in (("en", "tile"), ("es", "ficha")):
        c = app.Controller(m, lang)
        v = c.view()
        tree = hand_result(c, v, Display(c.lang))
        hands = v["result"]["hands"]
        counts = find(tree, data_testid="left-count")
        assert len(counts) == sum(1 for hd in hands if hd)
        for row in (n for n in walk(tree) if n[0] == "tr" and "data-seat" in n[1]):
            seat = int(row[1]["data-seat"])
            got = find(row, data_testid="left-count")
            if hands[seat]:
                assert int(got[0][1]["data-count"]) == len(hands[seat])
                assert text_of(got[0]).startswith(str(len(hands[seat])) + " " + word)
                assert len([n for n in walk(row) if "mini" in _classes(n)]) == len(hands[seat])
            else:
                assert not got


# ------------------------------------------------------------------ 4. one word per game
@pytest.mark.parametrize("game,en,es", [("mexican-train", "Round 1 over", "Fin de la ronda 1"),
                                        ("chicken-foot", "Round 1 over", "Fin de la ronda 1"),
                                        ("draw", "Hand 1 over", "Fin de la mano 1")])
def test_results_title_says_round_where_the_header_does(game, en, es):
    m = _to_hand_over(_m(game, 3, seed=2))
    for lang, want in (("en", en), ("es", es)):
        c = app.Controller(m, lang)
        v = c.view()
        title = text_of(find(hand_result(c, v, Display(c.lang)), id="hr-title")[0])
        assert title == want
        header = text_of(find(scores_bar(c, v, c.lang), **{"class": "meta"})[0])
        assert (("Round" if lang == "en" else "Ronda") in header) == (game != "draw")


# ------------------------------------------------------------------ 6. the pace's word
def test_pace_button_carries_its_word():
    m = _m("draw", 2)
    for lang, pace, word in (("en", "fast", "Fast"), ("es", "slow", "Lenta")):
        c = app.Controller(m, lang)
        btn = find(app.game_screen(c, Display(lang, pace=pace)), data_testid="pace")[0]
        assert text_of(find(btn, **{"class": "pace-text"})[0]) == word
        assert word in btn[1]["aria-label"]
        # its name starts with the word it shows (axe: label-content-name-mismatch)
        assert btn[1]["aria-label"].startswith(word), btn[1]["aria-label"]


# ------------------------------------------------------------------ 7. Frijolito: face down or face up
def _double_aside(seed: int = 1, **opts) -> Match:
    """Frijolito for two (seed 1): seat 0 has turned over 0-0, which does not
    fit, and may send it to the end of its row face down or face up."""
    from domino import players
    m = _m("frijolito", 2, seed=seed, **opts)
    while m.phase == "play":
        acts = m.legal_actions()
        if m.turn == 0 and len({bool(a.get("face_up")) for a in acts if "reject" in a}) == 2:
            return m
        if m.turn == 0:
            m.apply(acts[0])
        else:
            players.play_turn(m, "easy")
    raise AssertionError("no double set aside: pick another seed")


@pytest.mark.parametrize("lang,says_down,says_up", [
    ("en", "hidden again", "everyone sees it"),
    ("es", "oculta otra vez", "todos la ven")])
def test_a_double_that_does_not_fit_face_down_or_face_up_says_what_each_does(lang, says_down, says_up):
    m = _double_aside()
    tile = next(a["reject"] for a in m.legal_actions() if "reject" in a)
    choices = find(app.game_screen(app.Controller(m, lang), Display(lang)), **{"class": "choices"})[0]
    # the tile named once, in the line above the two ways
    assert text_of(choices).count(tile) == 1, text_of(choices)
    note = find(choices, data_testid="reject-note")
    assert len(note) == 1 and tile in text_of(note[0])
    down = find(choices, data_testid="reject")[0]
    up = find(choices, data_testid="reject-up")[0]
    assert says_down in text_of(down) and says_up not in text_of(down)
    assert says_up in text_of(up) and says_down not in text_of(up)
    assert text_of(find(down, **{"class": "choice-way"})[0]) == ("Face down" if lang == "en" else "Boca abajo")
    assert text_of(find(up, **{"class": "choice-way"})[0]) == ("Face up" if lang == "en" else "Boca arriba")


def test_face_up_says_it_may_be_played_from_the_row_where_doubles_go_anywhere():
    m = _double_aside(doubles_anywhere=True)
    up = find(app.game_screen(app.Controller(m, "en"), Display("en")), data_testid="reject-up")[0]
    assert "play it from there as soon as it fits" in text_of(up)
    # no choice, no note: a turn that starts by turning over a tile
    m = _m("frijolito", 2, seed=1)
    screen = app.game_screen(app.Controller(m, "en"), Display("en"))
    assert not find(screen, data_testid="reject-note")


# ------------------------------------------------------------------ Chicken Foot's places as buttons
def _foot_with_a_choice(lang: str) -> app.Controller:
    """Chicken Foot at eight seats, the person's tile selected where it fits
    two or more toes (the easy computers play the other seats)."""
    from domino import players
    m = _m("chicken-foot", 8, seed=11)
    c = app.Controller(m, lang)
    while m.phase == "play":
        if m.turn == 0:
            for tile in sorted({a["play"] for a in m.legal_actions() if "play" in a}):
                c.clear()
                if c.tap_tile(tile) is None and len(c.targets()) >= 2:
                    return c
            m.apply(m.legal_actions()[0])
        else:
            players.play_turn(m, "easy")
    raise AssertionError("no tile with two places in the round")


@pytest.mark.parametrize("lang,on", [("en", "on the"), ("es", "en el")])
def test_chicken_foot_lists_the_places_of_a_tile_as_buttons_under_the_board(lang, on):
    """Toes of a crowded board end ~29 px apart on a phone: the places are
    buttons under the board (44 px, CSS), one per place, with the letter its
    mark shows on the board and the number it is played on; each mark is a
    shortcut for the pointer, hidden from the keyboard, naming its button."""
    c = _foot_with_a_choice(lang)
    v = c.view()
    screen = app.game_screen(c, Display(c.lang))
    buttons = {n[1]["data-end"]: n for n in walk(screen)
               if isinstance(n, tuple) and "place-btn" in _classes(n)}
    assert set(buttons) == set(c.targets())
    board = draw_board(c, Display(c.lang), 340, 300)
    marks = {n[1]["data-end"]: n for n in walk(board) if isinstance(n, tuple) and "target" in _classes(n)}
    assert set(marks) == set(buttons)
    keys = set()
    for e, b in buttons.items():
        a = marks[e][1]
        assert b[1]["data-action"] == a["data-action"] == "end" and str(b[1]["data-seq"]) == a["data-seq"]
        assert a["aria-hidden"] == "true" and "tabindex" not in a and "role" not in a
        assert a["data-equiv"] == b[1]["id"]
        key = text_of(find(b, **{"class": "place-key"})[0])
        assert text_of(find(marks[e], **{"class": "target-key"})[0]) == key == a["data-key"]
        keys.add(key)
        assert f"{key} {on} {v['ends'][e]}:" in text_of(b)
        assert c.targets()[e] in text_of(b)   # the full words for a screen reader
    assert len(keys) == len(buttons)
