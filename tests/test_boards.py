"""domino/app/boards: the Mexican Train, Chicken Foot and Frijolito tables as
SVG trees (pure functions of a seat view), the dispatch on the view's shape,
the words of places, moves and Frijolito's buttons.

Views here are built by hand in the shapes of docs/ENGINE.md ("The three
other boards"), so that every case (8 trains, a long train, an open double,
a foot of toes, a face-down row) is drawn whatever a dealt round gives."""
from __future__ import annotations

import math
import random

import pytest

from domino.app import boards
from domino.app.boards import line
from domino.app.boards import foot, foot_tree, row, trains
from domino.app.nodes import find, walk
from domino.app.boards.tiles import text_width, to_svg
from domino.app.screens.display import Display
from domino.app.screens.table import draw_board, game_screen

NAMES = ["Ana", "Luis", "Maximiliano", "Rita", "Pepe", "Lola", "Don Ramón", "Tomás"]


# ----- views --------------------------------------------------------------
def chain(rnd, start: int, k: int, top: int, double_at: int | None = None) -> tuple[list, int]:
    tiles, cur = [], start
    for i in range(k):
        nxt = cur if i == double_at else rnd.choice([x for x in range(top + 1) if x != cur])
        a, b = sorted((cur, nxt))
        tiles.append({"tile": f"{a}-{b}", "out": nxt})
        cur = nxt
    return tiles, cur


def mt_view(n=8, lens=None, seed=1, public=(), must=None, me_turn=0) -> dict:
    rnd = random.Random(seed)
    out = []
    for s in list(range(n)) + [None]:
        k = lens[n if s is None else s] if lens else rnd.randint(0, 9)
        tiles, cur = chain(rnd, 12, k, 12, double_at=3 if s == 2 else None)
        out.append({"id": "train:mexican" if s is None else f"train:{s}", "owner": s, "tiles": tiles,
                    "open": cur, "public": s is None or s in public})
    opened = []
    if must is not None:
        tr = out[must]
        tr["tiles"].append({"tile": f"{tr['open']}-{tr['open']}", "out": tr["open"]})
        opened = [tr["id"]]
    return {"shape": "trains", "game": "mexican-train", "names": NAMES[:n], "players": n, "turn": me_turn,
            "phase": "play", "hand_no": 2, "options": {"close_doubles": True}, "last": None,
            "ends": {tr["id"]: tr["open"] for tr in out},
            "layout": {"engine": "10-10", "trains": out, "open_doubles": opened, "again": None,
                       "round_double": 10, "rounds": 13}}


def foot_view(seed=1, lens=(3, 2, 4, 1, 5, 2), feet=2) -> dict:
    rnd = random.Random(seed)
    br = []
    for i, k in enumerate(lens):
        t, c = chain(rnd, 9, k, 9)
        br.append({"id": f"foot:{i}", "parent": None, "tiles": t, "open": c})
    must = []
    parent = 2
    for f in range(feet):
        b = br[parent]
        c = b["open"]
        b["tiles"].append({"tile": f"{c}-{c}", "out": c})
        b["open"] = None
        base = len(br)
        last = f == feet - 1
        for j in range(3):
            t, cc = chain(rnd, c, 0 if last else 2, 9)
            br.append({"id": f"foot:{base + j}", "parent": b["id"], "tiles": t, "open": cc})
        if last:
            must = [f"foot:{base + j}" for j in range(3)]
        parent = base + 1
    return {"shape": "foot", "game": "chicken-foot", "names": NAMES[:4], "players": 4, "turn": 0,
            "phase": "play", "hand_no": 0, "last": None, "options": {},
            "ends": {b["id"]: b["open"] for b in br if b["open"] is not None},
            "layout": {"center": "9-9", "branches": br, "must": must, "round_double": 9, "rounds": 10}}


def row_view(seat=0) -> dict:
    rows = [[{"tile": None, "up": False}] * 6 + [{"tile": "4-4", "up": True}, {"tile": "2-5", "up": False}],
            [{"tile": None, "up": False}] * 9,
            [{"tile": "1-6", "up": True}] + [{"tile": None, "up": False}] * 3]
    return {"shape": "row", "game": "frijolito", "names": NAMES[:3], "players": 3, "turn": seat,
            "phase": "play", "hand_no": 0, "seat": seat, "last": "3-5", "options": {},
            "hand": ["4-4"], "ends": {"W": 3, "E": 5},
            "layout": {"center": "3-5", "spinner": None, "arms": {"W": [], "E": []}, "rows": rows,
                       "active": "5-6", "peeked": None, "out": []}}


# ----- helpers ------------------------------------------------------------
def by_class(node, cls):
    return [n for n in walk(node) if cls in n[1].get("class", "").split()]


def rect(n) -> tuple:
    a = n[1]
    return (float(a["x"]), float(a["y"]), float(a["width"]), float(a["height"]))


def overlap(a, b) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def inside(r, w, h, eps=0.01) -> bool:
    return r[0] >= -eps and r[1] >= -eps and r[0] + r[2] <= w + eps and r[1] + r[3] <= h + eps


def texts(node) -> list[str]:
    return [c for n in walk(node) if n[0] == "text" for c in n[2] if isinstance(c, str)]


# ----- Mexican Train ------------------------------------------------------
@pytest.mark.parametrize("size", [(348, 380), (348, 300), (1200, 560)])
def test_eight_trains_each_in_its_lane(size):
    w, h = size
    v = mt_view(lens=[3, 14, 5, 0, 1, 2, 20, 7, 4], public=(4, 6))
    svg = boards.board(v, w, h, me=0, lang="en")
    lanes = by_class(svg, "train")
    assert [ln[1]["data-train"] for ln in lanes] == ["train:mexican"] + [f"train:{s}" for s in range(8)]
    bgs = [rect(by_class(ln, "lane-bg")[0]) for ln in lanes]
    for i, a in enumerate(bgs):
        assert inside(a, w, h)
        for b in bgs[i + 1:]:
            assert overlap(a, b) == 0
    for ln, bg in zip(lanes, bgs):
        tr = next(x for x in v["layout"]["trains"] if x["id"] == ln[1]["data-train"])
        tiles = by_class(ln, "tile")
        for tl in tiles:   # every tile inside its lane
            for r in [rect(n) for n in by_class(tl, "tile-body")]:
                assert inside((r[0] - bg[0], r[1] - bg[1], r[2], r[3]), bg[2], bg[3], eps=1.0), tl[1]
        # the latest tiles are shown; earlier ones fold into "+N"
        hidden = int(by_class(ln, "fold")[0][1]["data-hidden"]) if by_class(ln, "fold") else 0
        assert hidden + len(tiles) == len(tr["tiles"])
        if tr["tiles"]:
            assert tiles[-1][1]["data-tile"] == tr["tiles"][-1]["tile"]
        # the open end's number, the marker when public
        assert by_class(ln, "open-end")[0][1]["data-end-value"] == str(tr["open"])
        assert ln[1]["data-public"] == ("true" if tr["public"] else "false")
        if tr["owner"] is not None:
            assert bool(by_class(ln, "marker") or [n for n in walk(ln) if n[1].get("data-testid") == "train-marker"]) \
                == tr["public"]
    assert "Mexican" in texts(svg)
    assert any("Ana" in x for x in texts(svg))


def test_a_long_train_folds_and_keeps_its_end():
    v = mt_view(n=2, lens=[40, 1, 0])
    svg = boards.board(v, 348, 200, me=0)
    ln = [x for x in by_class(svg, "train") if x[1]["data-train"] == "train:0"][0]
    fold = by_class(ln, "fold")
    assert fold and int(fold[0][1]["data-hidden"]) > 20
    assert by_class(ln, "tile")[-1][1]["data-tile"] == v["layout"]["trains"][0]["tiles"][-1]["tile"]


def test_open_double_is_unmistakable_and_only_its_train_is_open():
    v = mt_view(must=3, public=(5,))   # lane index 3 = seat 2's train... after sorting: seats first
    must_id = v["layout"]["open_doubles"][0]
    svg = boards.board(v, 348, 400, me=0, lang="en")
    lanes = {ln[1]["data-train"]: ln for ln in by_class(svg, "train")}
    assert "must" in lanes[must_id][1]["class"].split()
    assert by_class(lanes[must_id], "must-ring")
    banner = [n for n in walk(svg) if n[1].get("data-testid") == "open-double"]
    assert banner and "Cover the double" in " ".join(texts(banner[0]))
    for tid, ln in lanes.items():   # the viewer may play only on the double
        assert ln[1]["data-eligible"] == ("true" if tid == must_id else "false")
        assert ("opacity" in ln[1]) == (tid != must_id)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("width", [348, 300, 240])
def test_the_open_double_warning_names_the_double_whole(lang, width):
    """On a phone the warning once read "¡Hay que cubrir el…": it now gives
    up the round's place, then shrinks, then says it short, never cut."""
    v = mt_view(must=3)
    tr = next(x for x in v["layout"]["trains"] if x["id"] == v["layout"]["open_doubles"][0])
    double = tr["tiles"][-1]["tile"]
    svg = boards.board(v, width, 400, me=0, lang=lang)
    banner = [n for n in walk(svg) if n[1].get("data-testid") == "open-double"][0]
    rect = [n for n in walk(banner) if n[0] == "rect"][0][1]
    text = [n for n in walk(banner) if n[0] == "text"][0]
    words = " ".join(texts(banner))
    assert double in words and "…" not in words
    size = float(text[1]["font-size"])
    assert size >= (9.0 if width >= 300 else 7.5)
    # the words fit the pill at the widest system font's letter width
    assert text_width(words, size, "800") <= float(rect["width"]) - 12
    assert float(rect["x"]) + float(rect["width"]) <= width


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("width", [348, 200])
def test_the_chicken_foot_warning_fits_its_pill(lang, width):
    svg = boards.board(foot_view(), width, 400, me=0, lang=lang)
    banner = [n for n in walk(svg) if n[1].get("data-testid") == "open-double"][0]
    rect = [n for n in walk(banner) if n[0] == "rect"][0][1]
    text = [n for n in walk(banner) if n[0] == "text"][0]
    words = " ".join(texts(banner))
    assert text_width(words, float(text[1]["font-size"]), "800") <= float(rect["width"]) - 12
    assert 0 <= float(rect["x"]) and float(rect["x"]) + float(rect["width"]) <= width


def test_whose_train_the_viewer_may_play_on():
    v = mt_view(public=(3,))
    svg = boards.board(v, 348, 400, me=1)
    el = {ln[1]["data-train"]: ln[1]["data-eligible"] for ln in by_class(svg, "train")}
    assert {k for k, e in el.items() if e == "true"} == {"train:1", "train:3", "train:mexican"}
    mine = [ln for ln in by_class(svg, "train") if "mine" in ln[1]["class"].split()]
    assert [ln[1]["data-train"] for ln in mine] == ["train:1"]
    # nobody's tiles up (hot seat, between turns): nothing dimmed, nothing "mine"
    svg = boards.board(v, 348, 400, me=None)
    assert not [ln for ln in by_class(svg, "train") if "opacity" in ln[1] or "mine" in ln[1]["class"]]


def test_places_light_up_exactly_the_trains_given():
    v = mt_view(lens=[2, 3, 4, 0, 1, 2, 3, 4, 5])
    want = {"train:0": "a", "train:mexican": "b", "train:3": "c"}
    svg = boards.board(v, 348, 380, targets=want, me=0)
    places = [n for n in walk(svg) if "data-end" in n[1]]
    assert sorted(p[1]["data-end"] for p in places) == sorted(want)
    hits = [rect(by_class(p, "target-hit")[0]) for p in places]
    for i, a in enumerate(hits):
        assert a[3] >= 30 and a[2] >= 300     # the whole lane is the place
        for b in hits[i + 1:]:
            assert overlap(a, b) == 0
    assert all(p[1]["role"] == "button" and p[1]["aria-label"] for p in places)


def test_engine_not_yet_played_and_no_mexican_train():
    v = mt_view(n=3, lens=[0, 0, 0, 0])
    v["layout"]["engine"] = None
    v["layout"]["trains"] = [x for x in v["layout"]["trains"] if x["owner"] is not None]
    svg = boards.board(v, 360, 300, me=0)
    assert len(by_class(svg, "train")) == 3
    assert "Mexican" not in texts(svg)
    to_svg(svg)


# ----- Chicken Foot -------------------------------------------------------
def _squares_px(svg):
    """The two half squares of every drawn tile, from its transform."""
    out = []
    for g in by_class(svg, "tile"):
        tr = g[1]["transform"]
        x, y = map(float, tr.split("translate(")[1].split(")")[0].split())
        ang = float(tr.split("rotate(")[1].split(")")[0])
        body = rect(by_class(g, "tile-body")[0])
        double = body[3] > body[2]
        out.append((g, x, y, ang, double))
    return out


@pytest.mark.parametrize("size", [(348, 400), (348, 300), (1200, 560)])
@pytest.mark.parametrize("seed,lens,feet", [(1, (3, 2, 4, 1, 5, 2), 2), (4, (9, 8, 10, 7, 9, 8), 1),
                                            (3, (1, 0, 0, 0, 0, 0), 0)])
def test_foot_fits_the_board_and_every_toe_has_a_place(size, seed, lens, feet):
    w, h = size
    v = foot_view(seed, lens, feet) if feet else foot_view(seed, lens, 0)
    lay = v["layout"]
    open_ids = [b["id"] for b in lay["branches"] if b["open"] is not None]
    pl = foot.plan(lay, w, h)
    n_tiles = 1 + sum(len(b["tiles"]) for b in lay["branches"])
    assert len(pl.pieces) == n_tiles
    assert set(pl.slots) == set(open_ids)
    u = pl.unit
    allp = pl.pieces + list(pl.slots.values())
    for p in allp:   # the whole table in view
        for cx, cy in foot_tree.corners(p._replace(cx=0.0, cy=0.0)):
            assert -0.5 <= p.cx + cx * u <= w + 0.5 and -0.5 <= p.cy + cy * u <= h + 0.5
    # no two halves closer than touching (in units), tiles and slots alike
    sq = [(x, y, i) for i, p in enumerate(allp) for x, y in foot_tree.squares(p._replace(cx=p.cx / u, cy=p.cy / u))]
    close = [(a, b) for i, a in enumerate(sq) for b in sq[i + 1:]
             if a[2] != b[2] and math.dist(a[:2], b[:2]) < 0.99]
    assert not close
    # every open toe can be tapped: distinct hit areas, none overlapping
    svg = boards.board(v, w, h, targets={e: e for e in open_ids}, me=0, lang="en")
    places = [n for n in walk(svg) if "data-end" in n[1]]
    assert sorted(p[1]["data-end"] for p in places) == sorted(open_ids)
    hits = [rect(by_class(p, "target-hit")[0]) for p in places]
    for i, a in enumerate(hits):
        for b in hits[i + 1:]:
            assert overlap(a, b) < 1.0
    marks = by_class(svg, "open-end")
    assert sorted(m[1]["data-branch"] for m in marks) == sorted(open_ids)


def test_foot_must_banner_and_big_units_on_a_small_tree():
    v = foot_view(3, (1, 0, 0, 0, 0, 0), 0)
    pl = foot.plan(v["layout"], 348, 400)
    assert pl.unit >= 20
    v = foot_view()
    svg = boards.board(v, 348, 400, lang="es")
    assert any("pata" in x for x in texts(svg))


# ----- Frijolito ----------------------------------------------------------
def test_rows_never_show_an_unturned_tile():
    v = row_view(seat=0)
    svg = boards.board(v, 360, 400, me=0, lang="en")
    rws = {int(g[1]["data-row"]): g for g in by_class(svg, "row")}
    assert set(rws) == {1, 2}     # the other seats; the own row is drawn apart
    for s, g in rws.items():
        entries = v["layout"]["rows"][s]
        assert int(g[1]["data-count"]) == len(entries)
        for n in by_class(g, "row-tile"):
            e = entries[int(n[1]["data-pos"])]
            if e["up"]:
                assert n[1]["data-tile"] == e["tile"] and by_class(n, "pip") is not None
            else:
                assert not by_class(n, "pip") and n[1]["data-seen"] == (e["tile"] or "")
    own = row.own_row(v, 0, label="row", next_label="next")
    tiles = by_class(own, "row-tile")
    assert len(tiles) == 8
    assert [n[1].get("data-tile") for n in tiles if "up" in n[1]["class"].split()] == ["4-4"]
    # the seen (turned, then sent back) tile is named in small print, nothing else is
    assert [x for x in texts(own) if "-" in x] == ["2-5"]
    # the line of play is drawn too
    assert [g[1]["data-tile"] for g in by_class(svg, "tile")] == ["3-5"]


@pytest.mark.parametrize("label", ["next ▼", "siguiente ▼"])
def test_a_short_own_row_keeps_its_next_mark_whole(label):
    v = row_view()
    v["layout"]["rows"][0] = v["layout"]["rows"][0][:1]
    own = row.own_row(v, 0, label="row", next_label=label)
    assert len(by_class(own, "row-tile")) == 1 and label in texts(own)
    assert float(own[1]["width"]) >= text_width(label, 11, "700") + 4


def test_row_buttons_say_what_they_do():
    v = row_view()
    legal = [{"seat": 0, "flip": None}]
    assert boards.row_actions(legal, v, "en") == [("Turn over the leftmost tile", legal[0])]
    legal = [{"seat": 0, "peek": None}, {"seat": 0, "play": "5-6", "end": "W"},
             {"seat": 0, "play": "5-6", "end": "E"}, {"seat": 0, "play": "4-4", "end": "E"}]
    v["layout"]["active"] = "5-6"
    words = [w for w, _ in boards.row_actions(legal, v, "en")]
    assert words == ["Turn over the next tile first", "Play 5-6 left (3)", "Play 5-6 right (5)"]
    legal = [{"seat": 0, "reject": "4-4"}, {"seat": 0, "reject": "4-4", "face_up": True}]
    words = [w for w, _ in boards.row_actions(legal, v, "es")]
    # a double that does not fit: the two ways, the tile named once in the line above them
    assert words == ["Boca abajo", "Boca arriba"]
    assert boards.reject_choice(legal, v, "es")[0] == "4-4 no cabe: va al final de tu fila."
    assert boards.row_actions(legal, mt_view(), "en") == []


# ----- words --------------------------------------------------------------
def test_place_labels_and_move_messages():
    v = mt_view(n=3)
    assert boards.end_label(v, "train:mexican", "5-12", "en") == "Play 5-12 on the Mexican train"
    assert boards.end_label(v, "train:1", "5-12", "en", me=0) == "Play 5-12 on Luis's train"
    assert boards.end_label(v, "train:0", "5-12", "es", me=0) == "Jugar 5-12 en tu tren"
    assert "branch 3" in boards.end_label(foot_view(), "foot:2", "4-9", "en")
    assert boards.end_label(v, "W", "3-4", "en") == "Play 3-4 at the left end"
    seg = [{"seat": 1, "draw": "3-4"}, {"seat": 1, "play": "5-12", "end": "train:mexican"}]
    assert boards.speaks_for(seg)
    assert boards.describe_segment(seg, NAMES, "en") == "Luis drew 1 and played 5-12 on the Mexican train"
    seg = [{"seat": 0, "play": "5-12", "end": "train:2"}]
    assert boards.describe_segment(seg, NAMES, "es") == "Ana jugó 5-12 en el tren de Maximiliano"
    seg = [{"seat": 2, "flip": "2-6"}, {"seat": 2, "reject": "2-6"}]
    assert boards.describe_segment(seg, NAMES, "en") == "Maximiliano turned over 2-6: no fit, back to the row"
    seg = [{"seat": 2, "flip": "3-5"}, {"seat": 2, "play": "3-5", "end": "E"}]
    assert boards.describe_segment(seg, NAMES, "en") == "Maximiliano turned over 3-5 and played it"
    assert not boards.speaks_for([{"seat": 0, "play": "3-5", "end": "E"}])


def test_the_line_family_is_drawn_as_before():
    v = {"layout": {"center": "3-4", "spinner": None, "arms": {"W": [], "E": []}}, "last": "3-4"}
    assert to_svg(boards.board(v, 360, 300)) == to_svg(line.board(v, 360, 300))


def test_rounds_table_shows_every_round_and_the_leader():
    from domino.app.nodes import text_of
    from domino.app.screens.rounds import rounds_table
    v = {"game": "chicken-foot", "shape": "foot", "names": ["Ana", "Luis"], "players": 2,
         "results": [{"points": [0, 12], "totals": [0, 12]}],
         "result": {"points": [57, 0], "totals": [57, 12], "hands": [["0-0", "3-4"], []]}}
    tree = rounds_table(v, "en")
    rows = [n for n in walk(tree) if "data-round" in n[1]]
    assert [r[1]["data-points"] for r in rows] == ["0,12", "57,0"]
    assert [r[1]["data-totals"] for r in rows] == ["0,12", "57,12"]
    lead = [n for n in walk(tree) if n[1].get("class") == "lead"]
    assert [text_of(n) for n in lead] == ["12 ★"]
    text = text_of(tree)
    assert "lowest total wins" in text and "Ana was left with the 0-0" in text
    assert rounds_table(dict(v, shape="line"), "en") is None


# ----- whole matches through the app (the engine's three games) -----------
MATCHES = [("mexican-train", 8, {"start_double": 3}),
           ("mexican-train", 3, {"set": 9, "double_chains": True, "start_double": 3}),
           ("chicken-foot", 3, {"start_double": 3}), ("frijolito", 3, {"target": 50}),
           ("frijolito", 4, {"elimination": True, "doubles_anywhere": True, "target": 50})]


@pytest.mark.parametrize("game,n,opts", MATCHES)
def test_a_whole_match_through_the_table(game, n, opts):
    """Seat 0 taps (tiles, places, Frijolito's buttons), the others are
    computers; every screen and board is drawn after every move, and the
    match ends the way the game ends (all rounds, or past the target)."""
    from domino import app
    from domino.app.nodes import text_of
    from domino.engine.match import Match
    from domino.engine.rules import make_rules
    from domino import players
    m = Match(make_rules(game, players=n, **opts), seed=11,
              seats=[{"name": NAMES[i], "kind": "human" if i == 0 else "easy"} for i in range(n)])
    c = app.Controller(m, "es")
    rnd = random.Random(3)
    rounds = 0
    for _ in range(20_000):
        screen = app.game_screen(c, Display("es"))
        board = draw_board(c, Display("es"), 360, 420)
        to_svg(board)
        if m.outcome:
            break
        if m.phase == "hand-over":
            assert "rounds" in [n[1].get("data-testid") for n in walk(screen)]
            # every seat's bad points are counted: no line-family "pips counted"
            assert "Puntos contados" not in text_of(screen)
            rounds += 1
            c.next_hand()
            continue
        if m.seats[m.turn]["kind"] != "human":
            players.play_turn(m, "easy")
            continue
        acts = c.row_actions()
        if acts:
            words = [w for w, _ in acts]
            assert all(w in text_of(screen) for w in words)
            c.apply(acts[rnd.randrange(len(acts))][1])
            continue
        tile = rnd.choice(sorted(c.playable()))
        if c.tap_tile(tile) is None:
            ends = sorted(c.targets())
            board = draw_board(c, Display("es"), 360, 420)
            drawn = [n[1]["data-end"] for n in walk(board) if "data-end" in n[1]]
            groups = [n[1]["data-ends"].split() for n in walk(board) if "data-ends" in n[1]]
            assert sorted(drawn + [e for g in groups for e in g]) == ends
            end = rnd.choice(ends)
            group = next((g for g in groups if end in g), None)
            if group is not None:     # places too thin apart: tapped as one, then which is asked
                assert c.tap_among(group) is None and c.among == group
                assert find(game_screen(c, Display("es")), data_testid="place-chooser")
            assert c.tap_end(end) and not c.among
    else:
        raise AssertionError("the match did not end")
    out = m.outcome
    if game == "frijolito":
        assert out["reason"] == ("elimination" if opts.get("elimination") else "target")
        assert max(out["scores"]) > m.rules.target or out["reason"] == "elimination"
    else:
        assert out["reason"] == "rounds"
        # Mexican Train plays every round; Chicken Foot skips a double nobody holds
        total = m.view(0)["layout"]["rounds"]
        assert rounds + 1 == total if game == "mexican-train" else 1 < rounds + 1 <= total
    low = min(out["scores"])
    assert out["winner"] is None or out["scores"][out["winner"]] == low


def test_train_places_tap_areas_are_44_px_tall_in_thin_lanes():
    """Nine lanes of ~26 px on a phone: a lane that is a place takes 44 px
    of height, growing into the lanes beside it that are not places (all on
    one side when the other is a place: the Mexican train and one's own),
    never into another place's area; only a place between two others (or
    two lanes that grow into the same one, or the last lane under a place)
    may stay shorter, never under its lane and gaps."""
    from itertools import product
    from domino.app.boards.trains import GAP, hit_spans, place_groups
    top, lane_h = 40.0, 26.0
    for mask in product((False, True), repeat=9):
        spans = hit_spans(list(mask), 9, top, lane_h, top + 9 * (lane_h + GAP) + 6)
        got = [(i, s) for i, s in enumerate(spans) if s is not None]
        for (i, a), (j, b) in zip(got, got[1:]):
            assert a[1] <= b[0] + 1e-9, (mask, i, j)
        for i, (lo, hi) in got:
            y = top + i * (lane_h + GAP)
            assert lo <= y and hi >= y + lane_h
            between = 0 < i < 8 and mask[i - 1] and mask[i + 1]
            crowded = (i >= 2 and mask[i - 2] and not mask[i - 1]) or (i <= 6 and mask[i + 2] and not mask[i + 1])
            edge = i == 8 and mask[7]   # the last lane, a place above it: only the board's edge below
            if not between and not crowded and not edge:
                assert hi - lo >= 44 - 1e-9, (mask, i, lo, hi)
            else:
                assert hi - lo >= lane_h + GAP - 1e-9
        # places that stay under 44 px side by side are tapped as one area, which asks which:
        # every tap area, alone or shared, is 44 px tall
        groups = place_groups(list(mask), 9, spans)
        alone = [spans[i] for i in range(9) if mask[i] and not any(i in g for g in groups)]
        for lo, hi in alone + [(spans[g[0]][0], spans[g[-1]][1]) for g in groups]:
            assert hi - lo >= 44 - 1e-9, (mask, groups, lo, hi)
        for g in groups:
            assert len(g) > 1 and g == list(range(g[0], g[-1] + 1)) and all(mask[i] for i in g)


# ----- Frijolito's line on a phone ------------------------------------------------
def _frijolito_views(n: int, seed: int):
    from domino import players
    from domino.engine.match import Match
    from domino.engine.rules import make_rules
    m = Match(make_rules("frijolito", players=n), seed=seed)
    while m.phase == "play":
        players.play_turn(m, "easy")
        yield m.view(0)


def _row_board_faults(v: dict, width: float, height: float) -> list[str]:
    """End numbers lying on a tile (of the line or of a row), places under 44 px."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from test_foot_layout import _apply, _rect_poly, _walk, dist
    svg = row.board(v, width, height, targets={e: e for e in v.get("ends") or {}}, me=0)
    tiles, labels, out = [], [], []
    for node, m, up in _walk(svg):
        tag, a, _ = node
        cls, pcls = a.get("class", "").split(), up[-1][1].get("class", "").split() if up else []
        if tag == "rect" and ({"tile-body", "tile-back"} & set(cls)) and ({"tile", "row-tile"} & set(pcls)):
            tiles.append((up[-1][1].get("data-tile") or "a face-down tile", _rect_poly(a, m)))
        elif tag == "circle" and "end-label" in pcls:
            labels.append((up[-1][1]["data-value"], _apply(m, float(a["cx"]), float(a["cy"])), float(a["r"])))
        elif tag == "rect" and "target-hit" in cls:
            poly = _rect_poly(a, m)
            w, h = poly[1][0] - poly[0][0], poly[2][1] - poly[1][1]
            if w < 44 - 0.5 or h < 44 - 0.5:
                out.append(f"a place {w:.0f}x{h:.0f}")
    out += [f"{value} on {name}" for value, pt, r in labels for name, poly in tiles if dist(pt, poly) < r - 0.5]
    return out


@pytest.mark.parametrize("size", [(348, 200), (1000, 480)])
def test_frijolito_line_places_44_px_and_no_end_number_on_a_tile(size):
    """The line of Frijolito under the others' rows: once its unit was held
    to a tenth of its height (~12 px on a phone), so its places were 32 px
    and an end's 7 px number lay on the tile it touches ("5 on 3-5")."""
    bad = []
    for n, seed in ((2, 1), (3, 2), (4, 1), (4, 3)):
        for k, v in enumerate(_frijolito_views(n, seed)):
            bad += [f"{n} players, seed {seed}, move {k}: {f}" for f in _row_board_faults(v, *size)]
    assert bad == [], f"{len(bad)} faults:\n" + "\n".join(bad[:20])


def test_places_too_thin_apart_are_tapped_as_one_then_chosen():
    """Eight seats of Mexican Train on a phone: two trains side by side that both take the chosen
    tile are one 44 px tap area (``data-ends``); the tap opens a dialog with one button per place,
    and the button plays the tile there."""
    from trains_cases import crowded_places
    m, c, board, group = crowded_places(360, 420)
    ends = group[1]["data-ends"].split()
    assert len(ends) > 1 and set(ends) <= set(c.targets())
    assert group[1]["data-action"] == "places" and group[1]["role"] == "button"
    hit = next(n for n in walk(group) if n[1].get("class") == "target-hit")
    assert float(hit[1]["height"]) >= 44
    # nothing else on the board takes a tap for these places
    assert not [n for n in walk(board) if n[1].get("data-end") in ends]
    c.tap_among(ends + ["not-a-place"])
    assert c.among == ends
    dialog = find(game_screen(c, Display("en")), data_testid="place-chooser")[0]
    buttons = [n for n in walk(dialog) if n[1].get("data-action") == "end"]
    assert [b[1]["data-end"] for b in buttons] == ends and find(dialog, data_testid="place-chooser-back")
    tile, seq = c.selected, m.seq
    done = c.tap_end(ends[-1])
    assert done and done[0]["play"] == tile and done[0]["end"] == ends[-1] and m.seq > seq
    assert not c.among and not find(game_screen(c, Display("en")), data_testid="place-chooser")
