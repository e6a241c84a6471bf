"""The screen snapshot (domino/app/snapshot.py) in CPython: the screen a
reload shows, drawn by the table's own code, without handlers, test hooks or
anybody's hidden tiles; and its limits agree with the painter (static/boot.js)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from domino import app, table
from domino.app import boards, snapshot, storage
from domino.app.nodes import find, walk
from domino.app.screens import table as table_screen
from domino.app.screens.display import Display
from domino.app.screens.table import draw_board
from domino.app.session import MemoryStore, Session

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
    display = Display("es", "black")
    snap = snapshot.table(m, display, 900, 500)
    assert snap["format"] == snapshot.FORMAT and snap["screen"] == "table" and snap["seq"] == m.seq
    assert snap["lang"] == "es" and snap["title"]
    # the same code draws it: the first screen of a fresh controller, board at that size
    c = app.Controller(m)
    live = app.game_screen(c, display)
    board = draw_board(c, display, 900, 500, labels=False)   # the ends' labels come with the live screen
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
    snap = snapshot.table(m, Display(), 800, 500)
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
    assert snapshot.table(m, Display(), 800, 500)["screen"] == "result"
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


def _counting(monkeypatch) -> dict:
    """Counts the boards drawn and the table screens built from here on."""
    counts = {"boards": 0, "screens": 0}
    draw, keep = boards.board, table_screen.shown.keep_screen

    def counted_board(*args, **kwargs):
        counts["boards"] += 1
        return draw(*args, **kwargs)

    def counted_screen(*args, **kwargs):
        counts["screens"] += 1
        return keep(*args, **kwargs)
    monkeypatch.setattr(boards, "board", counted_board)
    monkeypatch.setattr(table_screen.shown, "keep_screen", counted_screen)
    return counts


def _table_session(kinds: list[str], game: str = "mexican-train") -> Session:
    s = Session(MemoryStore(), "/domino/", params={"seed": "5"}, browser_lang="en")
    form = {"game": game, "players": str(len(kinds))}
    for i, kind in enumerate(kinds):
        form[f"seat-kind-{i}"] = kind
    s.handle({"action": "start", "form": form})
    return s


def _show(s: Session, size=(900, 520)) -> None:
    """What the page does after a change: the screen, its board at its size, the snapshot."""
    s.screen()
    app.board_tree(s.ctrl, *size)
    s.snapshot(size)


@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot", "all-fives"])
def test_a_change_against_the_computer_is_drawn_once(monkeypatch, game):
    s = _table_session(["human", "easy", "easy", "easy"], game)
    s.pace, s.sound = "fast", True     # the stored choices: the reload's screen shows them too
    counts = _counting(monkeypatch)
    changes = 0
    while changes < 12 and s.ctrl.match.phase == "play":
        if s.wants_computers():
            s.handle({"action": "computer-move", "move": s.computers.think().step(10_000), "gen": s.computers.gen})
        else:
            s.ctrl.apply(s.ctrl.legal()[0])
        counts.update(boards=0, screens=0)
        _show(s)
        assert counts == {"boards": 1, "screens": 1}, (changes, counts)
        changes += 1
        # ... and the stored picture is the one the snapshot would draw from nothing
        stored = json.loads(s.store.get(storage.key("/domino/", storage.SNAPSHOT)))
        table_screen.shown.__init__()
        fresh = snapshot.table(s.ctrl.match, Display("en", "coloured", "fast", False, True), 900, 520)
        assert json.loads(snapshot.dumps(fresh)) == stored
    assert changes == 12


def test_a_screen_that_is_not_the_reloads_is_not_taken_for_the_snapshot(monkeypatch):
    s = _table_session(["human", "easy"], "draw")
    while s.wants_computers():
        s.handle({"action": "computer-move", "move": s.computers.think().step(10_000), "gen": s.computers.gen})
    s.ctrl.log_open = True            # open on screen; a reload shows it closed
    _show(s)
    stored = json.loads(s.store.get(storage.key("/domino/", storage.SNAPSHOT)))
    assert find(stored["tree"], **{"class": "log-panel"})[0][1]["hidden"] == ""   # closed
    assert "hidden" not in find(s.screen(), **{"class": "log-panel"})[0][1]
    # hot seat: the one looking sees a hand, the snapshot is the hand-off screen and shows none
    s = _table_session(["human", "human", "easy"], "draw")
    for _ in range(20):
        if s.ctrl.handoff() is not None:
            s.handle({"action": "handoff", "seq": str(s.ctrl.match.seq)})
        elif s.wants_computers():
            s.handle({"action": "computer-move", "move": s.computers.think().step(10_000), "gen": s.computers.gen})
        else:
            break
    assert s.ctrl.face_up() is not None and s.ctrl.view()["hand"]
    _show(s)
    stored = json.loads(s.store.get(storage.key("/domino/", storage.SNAPSHOT)))
    assert stored["screen"] == "handoff" and "tile-btn" not in json.dumps(stored["tree"])
