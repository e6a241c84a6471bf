"""The screen snapshot (domino/app/snapshot.py) in CPython: the screen a
reload shows, drawn by the table's own code, without handlers, test hooks or
anybody's hidden tiles; and its limits agree with the painter (static/boot.js)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from domino import app, table
from domino.app import snapshot, storage
from domino.app.nodes import find, walk

ROOT = Path(__file__).resolve().parent.parent
BOOT_JS = (ROOT / "static" / "boot.js").read_text(encoding="utf-8")


def _match(kinds: list[str], moves: int, game: str = "draw", seed: int = 3):
    s = table.normalize_settings({"game": game, "players": len(kinds),
                                "seats": [{"kind": k, "name": ""} for k in kinds]}, "en")
    m = table.new_match(s, seed, "en")
    for _ in range(moves):
        if m.phase != "play":
            break
        m.apply(m.legal_actions()[0])
    return m


def test_table_snapshot_is_the_live_first_screen_without_hooks():
    m = _match(["human", "easy", "easy"], 5)
    snap = snapshot.table(m, "es", "black", 900, 500)
    assert snap["format"] == snapshot.FORMAT and snap["screen"] == "table" and snap["seq"] == m.seq
    assert snap["lang"] == "es" and snap["title"]
    # the same code draws it: the first screen of a fresh controller, board at that size
    c = app.Controller(m, "es", "black")
    live = app.game_screen(c)
    board = app.board_tree(c, 900, 500, labels=False)   # the ends' labels come with the live screen
    tree = snap["tree"]
    (box,) = [n for n in walk(tree) if n[1].get("id") == "board"]
    assert box[2] == [snapshot.picture(board)]
    assert len(list(walk(tree))) == len(list(walk(live))) + len(list(walk(board)))
    # the person's own hand, as the table shows it
    hand = m.view(0)["hand"]
    labels = [n[1]["aria-label"] for n in walk(tree) if "tile-btn" in n[1].get("class", "")]
    assert len(labels) == len(hand) and all(tile in lab for tile, lab in zip(hand, labels))
    # nothing to click and nothing tests or handlers look for
    for node in walk(tree):
        attrs = node[1]
        assert not set(attrs) & snapshot.HIDDEN_ATTRS, node[0]
        assert not any(k.startswith("on") for k in attrs)
        if "tile-btn" in attrs.get("class", ""):
            assert "data-tile" not in attrs
    assert find(tree, **{"class": "board"})   # the board svg is there, its tiles named
    assert {n[1]["data-tile"] for n in walk(tree) if n[0] == "g" and n[1].get("class") in ("tile", "tile last")}
    assert snapshot.depth(tree) <= snapshot.MAX_DEPTH
    text = snapshot.dumps(snap)
    assert json.loads(text) == json.loads(json.dumps(snap))


def test_hot_seat_snapshot_is_the_hand_off_and_hides_every_hand():
    m = _match(["human", "human", "easy"], 4)
    while app.is_computer_turn(m):
        m.apply(m.legal_actions()[0])
    snap = snapshot.table(m, "en", "coloured", 800, 500)
    assert snap["screen"] == "handoff"
    text = json.dumps(snap["tree"])
    assert "tile-btn" not in text
    for seat in range(3):
        for tile in m.view(seat)["hand"]:
            assert tile not in text, (seat, tile)
    assert find(snap["tree"], **{"class": "overlay opaque"})


def test_result_and_lobby_snapshots():
    m = _match(["human", "easy"], 400)
    assert m.phase != "play"
    assert snapshot.table(m, "en", "coloured", 800, 500)["screen"] == "result"
    lob = snapshot.lobby({"game": "all-fives", "players": 3}, "es", "coloured")
    assert lob["screen"] == "lobby" and lob["seq"] == 0
    assert any(n[0] == "option" and n[1].get("value") == "all-fives" and "selected" in n[1]
               for n in walk(lob["tree"]))
    assert not [n for n in walk(lob["tree"]) if "data-testid" in n[1] or "data-field" in n[1]]


def test_picture_refuses_what_the_painter_refuses_and_dumps_has_a_limit():
    with pytest.raises(ValueError):
        snapshot.picture(("div", {}, [("script", {}, ["x"])]))
    assert snapshot.picture(("button", {"onclick": "x", "data-action": "go", "class": "b"}, ["y"])) == \
        ("button", {"class": "b"}, ["y"])
    big = {"format": snapshot.FORMAT, "tree": ["div", {}, ["x" * snapshot.MAX_CHARS]]}
    assert snapshot.dumps(big) is None
    assert storage.key("/domino/", storage.SNAPSHOT) == "domino:/domino/:snapshot"


def test_limits_agree_with_the_painter():
    def js_const(name):
        return re.search(rf"var {name} = ([^;]+);", BOOT_JS).group(1)
    assert int(js_const("MAX_CHARS")) == snapshot.MAX_CHARS
    assert int(js_const("MAX_DEPTH")) == snapshot.MAX_DEPTH
    assert json.loads(js_const("FORMAT")) == snapshot.FORMAT
    banned = re.search(r"var BANNED_TAGS = /\^\(([^)]+)\)\$/i", BOOT_JS).group(1).split("|")
    assert {t.lower() for t in snapshot.BANNED_TAGS} == set(banned)
    # the painter is plain script that runs no timers of its own: it cannot freeze
    assert "setTimeout" not in BOOT_JS and "setInterval" not in BOOT_JS and "requestAnimationFrame" not in BOOT_JS
