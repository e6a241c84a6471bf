"""domino/app/boards/line.py and boards/tiles.py: tile and line-board SVG trees, layout geometry, targets."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from domino.app.boards import tiles
from domino.engine.match import Match
from domino.app.boards.line import Placed, Plan, board, place, plan
from domino.app.boards.tiles import tile_svg, to_svg
from domino.engine.rules import make_rules

SIZES = [(360, 300), (1920, 700)]
EPS = 0.01


# ----- tree helpers -----------------------------------------------------------
def walk(node):
    yield node
    for c in node[2]:
        if not isinstance(c, str):
            yield from walk(c)


def by_class(node, cls):
    return [n for n in walk(node) if cls in n[1].get("class", "").split()]


def pips(node):
    return by_class(node, "pip")


def rect_of(n) -> tuple:
    a = n[1]
    return (float(a["x"]), float(a["y"]), float(a["width"]), float(a["height"]))


def inter(a: tuple, b: tuple) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def shared_edge(a: tuple, b: tuple) -> float:
    """Length of the edge two touching rectangles share (0 if they don't)."""
    ax0, ay0, ax1, ay1 = a[0], a[1], a[0] + a[2], a[1] + a[3]
    bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
    if abs(ax1 - bx0) < EPS or abs(bx1 - ax0) < EPS:
        return max(0.0, min(ay1, by1) - max(ay0, by0))
    if abs(ay1 - by0) < EPS or abs(by1 - ay0) < EPS:
        return max(0.0, min(ax1, bx1) - max(ax0, bx0))
    return 0.0


def inside(r: tuple, w: float, h: float) -> bool:
    return r[0] >= -EPS and r[1] >= -EPS and r[0] + r[2] <= w + EPS and r[1] + r[3] <= h + EPS


def box(p: Placed) -> tuple:
    return (p.x, p.y, p.w, p.h)


def half(p: Placed, which: str) -> tuple:
    """The touching ("near") or open ("far") half square of a placed tile; a
    double (crosswise) touches with its whole long side: its whole rectangle."""
    if p.double:
        return box(p)
    s = min(p.w, p.h)
    start = {0: (p.x, p.y), 90: (p.x, p.y), 180: (p.x + s, p.y), 270: (p.x, p.y + s)}[p.rotation]
    end = {0: (p.x + s, p.y), 90: (p.x, p.y + s), 180: (p.x, p.y), 270: (p.x, p.y)}[p.rotation]
    x, y = start if which == "near" else end
    return (x, y, s, s)


# ----- tile_svg ---------------------------------------------------------------
@pytest.mark.parametrize("tile,n", [("4-6", 10), ("0-0", 0), ("6-6", 12), ("1-2", 3),
                                    ("9-9", 18), ("10-12", 22), ("11-11", 22), ("0-5", 5)])
def test_tile_svg_pip_count(tile, n):
    svg = tile_svg(tile)
    assert svg[0] == "svg"
    assert len(pips(svg)) == n
    assert to_svg(svg).count("<circle") == n


def test_tile_svg_every_tile_of_double_12():
    for b in range(13):
        for a in range(b + 1):
            for horizontal in (False, True):
                svg = tile_svg(f"{a}-{b}", horizontal=horizontal)
                assert len(pips(svg)) == a + b


def test_tile_svg_halves_and_orientation():
    svg = tile_svg("2-5")
    x0, y0, w, h = map(float, svg[1]["viewBox"].split())
    assert h > w  # vertical by default
    ps = [(float(c[1]["cx"]), float(c[1]["cy"])) for c in pips(svg)]
    top = [p for p in ps if p[1] < 100]
    assert len(top) == 2 and len(ps) - len(top) == 5
    svg = tile_svg("2-5", horizontal=True)
    x0, y0, w, h = map(float, svg[1]["viewBox"].split())
    assert w > h
    left = [c for c in pips(svg) if float(c[1]["cx"]) < 100]
    assert len(left) == 2


def test_tile_svg_attributes():
    svg = tile_svg("3-4", label="Play 3-4")
    a = svg[1]
    assert a["aria-hidden"] == "true"
    assert a["width"] == "100%" and a["height"] == "100%"
    assert "viewBox" in a
    assert by_class(svg, "tile")[0][1]["data-tile"] == "3-4"
    assert by_class(svg, "tile-body") and by_class(svg, "divider")
    assert "<title>Play 3-4</title>" in to_svg(svg)


def test_tile_svg_styles():
    col = {c[1]["fill"] for c in pips(tile_svg("1-3"))}
    assert len(col) == 2  # each number its own colour
    blk = {c[1]["fill"] for c in pips(tile_svg("1-3", style="black"))}
    assert blk == {tiles.BLACK_PIP}
    assert len(set(tiles.PIP_COLOURS.values())) == len(tiles.PIP_COLOURS)


def test_pip_patterns_are_distinct():
    seen = set()
    for n in range(13):
        lay = frozenset(tiles.pip_layout(n))
        assert len(lay) == n
        assert lay not in seen
        seen.add(lay)


# ----- to_svg -----------------------------------------------------------------
def test_to_svg_escapes():
    node = ("svg", {"aria-label": 'a "b" <c> & d'}, [("text", {}, ["x < y & z > w"]), "<&>"])
    out = to_svg(node)
    assert 'aria-label="a &quot;b&quot; &lt;c&gt; &amp; d"' in out
    assert "x &lt; y &amp; z &gt; w" in out
    assert out.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    root = ET.fromstring(out)
    assert root.attrib["aria-label"] == 'a "b" <c> & d'
    assert "".join(root.itertext()) == "x < y & z > w<&>"


def test_to_svg_label_escaped_and_parses():
    out = to_svg(tile_svg("1-1", label='<script>"&'))
    ET.fromstring(out)
    assert "<script>" not in out


# ----- boards from real games -------------------------------------------------
def check_board(view: dict, w: float, h: float, ends: dict, matador: bool = False) -> Plan:
    layout = view["layout"]
    pl = plan(layout, w, h)
    tiles = pl.tiles
    n_layout = 1 + sum(len(layout["arms"][e]) for e in "WENS")
    assert len(tiles) == n_layout
    assert sorted(p.tile for p in tiles) == sorted(
        [layout["center"]] + [t["tile"] for e in "WENS" for t in layout["arms"][e]])
    # inside the viewBox
    for p in tiles:
        assert inside(box(p), w, h), (p, w, h)
    # no overlaps (also with the slots for the next tiles)
    rects = [box(p) for p in tiles] + [box(p) for p in pl.targets.values()]
    for i in range(len(rects)):
        for j in range(i + 1, len(rects)):
            assert inter(rects[i], rects[j]) < 1e-6, (rects[i], rects[j])
    # shapes: 2:1, doubles crosswise to the direction of travel, others lengthwise
    for p in tiles:
        assert abs(max(p.w, p.h) - 2 * min(p.w, p.h)) < EPS
        horizontal = p.w > p.h
        along_x = p.rotation in (0, 180)
        if p.arm == "C":
            assert horizontal != p.double
        else:
            assert horizontal == (along_x != p.double), p
    # matching halves touch
    by = {(p.arm, p.index): p for p in tiles}
    center = by[("C", 0)]
    ca, cb = map(int, center.tile.split("-"))
    sp = layout["spinner"]
    spinner = None
    if sp:
        spinner = center if sp["arm"] == "C" else by[(sp["arm"], sp["index"])]
    for p in tiles:
        if p.arm == "C":
            continue
        if p.index > 0:
            pred = by[(p.arm, p.index - 1)]
            open_half, open_num = half(pred, "far"), pred.far
        elif p.arm in "NS":
            pred = spinner
            open_half, open_num = box(spinner), spinner.far
        else:
            pred = center
            s = min(center.w, center.h)
            if center.double:
                open_half = box(center)
            elif p.arm == "W":
                open_half = (center.x, center.y, s, s)
            else:
                open_half = (center.x + s, center.y, s, s)
            open_num = ca if p.arm == "W" else cb
        assert shared_edge(open_half, half(p, "near")) > 0.4 * pl.unit, (pred, p)
        if not matador:
            assert p.near == open_num, (pred, p)
    # N and S arms leave the spinner up and down
    if sp:
        for e, up in (("N", True), ("S", False)):
            if layout["arms"][e]:
                first = by[(e, 0)]
                if up:
                    assert abs(first.y + first.h - spinner.y) < EPS
                else:
                    assert abs(first.y - (spinner.y + spinner.h)) < EPS
    # the tree agrees with the plan
    svg = board(view, w, h, targets=ends)
    assert svg[1]["viewBox"] == f"0 0 {w:g} {h:g}"
    gs = by_class(svg, "tile")
    assert len(gs) == len(tiles)
    assert {g[1]["data-tile"] for g in gs} == {p.tile for p in tiles}
    lasts = by_class(svg, "last")
    assert [g[1]["data-tile"] for g in lasts] == ([view["last"]] if view.get("last") else [])
    assert by_class(lasts[0], "last-marker") if lasts else True
    # pips: the touching half of every tile shows its touching number
    placed = {p.tile: p for p in tiles}
    for g in gs:
        p = placed[g[1]["data-tile"]]
        if p.arm == "C" or p.double:
            continue
        hx, hy, hw, hh = half(p, "near")
        n = sum(1 for c in pips(g)
                if hx <= float(c[1]["cx"]) <= hx + hw and hy <= float(c[1]["cy"]) <= hy + hh)
        assert n == p.near, p
    # targets: one per requested end, where the plan's slot is, inside, not on tiles
    tg = by_class(svg, "target")
    want = {e for e in ends if e in ("W", "E", "N", "S")}
    assert {g[1]["data-end"] for g in tg} == want
    for g in tg:
        a = g[1]
        assert a["role"] == "button" and a["tabindex"] == "0" and a["aria-label"] == ends[a["data-end"]]
        mark = rect_of(by_class(g, "target-mark")[0])
        assert "stroke-dasharray" in by_class(g, "target-mark")[0][1]
        slot = box(pl.targets[a["data-end"]])
        assert inside(slot, w, h)
        assert inter(mark, slot) > 0.8 * mark[2] * mark[3]
        for p in tiles:
            assert inter(mark, box(p)) < 1e-6
        hit = rect_of(by_class(g, "target-hit")[0])
        assert inter(hit, mark) >= mark[2] * mark[3] - 1e-3
    hits = [rect_of(by_class(g, "target-hit")[0]) for g in tg]
    for i in range(len(hits)):
        for j in range(i + 1, len(hits)):
            assert inter(hits[i], hits[j]) < 1e-3
    return pl


GAMES = [
    ("all-fives", {}, 0), ("all-fives", {}, 1), ("all-fives", {"players": 4}, 2),
    ("draw", {}, 3), ("draw", {"players": 3}, 4), ("block", {}, 5),
    ("classic", {"set": 9}, 6), ("classic", {"spinner": "first"}, 7),
    ("latin", {}, 8), ("muggins", {}, 9), ("los-cincos", {}, 10), ("matador", {}, 11),
]


def run_hand(game: str, opts: dict, seed: int):
    """Yield the view after every action of one random hand."""
    rules = make_rules(game, **opts)
    players = rules.players
    m = Match(rules, seed=seed,
              seats=[{"name": f"P{i}", "kind": "human"} for i in range(players)])
    rng = random.Random(seed)
    while m.phase == "play":
        m.apply(rng.choice(m.legal_actions()))
        yield m.view(m.turn if m.turn is not None else 0)


@pytest.mark.parametrize("game,opts,seed", GAMES)
def test_boards_of_random_hands(game, opts, seed):
    n = 0
    for view in run_hand(game, opts, seed):
        ends = {e: f"End {e} (shows {v})" for e, v in view["ends"].items()}
        for w, h in SIZES:
            check_board(view, w, h, ends, matador=game == "matador")
        n += 1
    assert n > 3


def test_spinner_arms_in_all_fives():
    seen_n = seen_s = 0
    for seed in range(12):
        for view in run_hand("all-fives", {}, seed):
            lay = view["layout"]
            if not lay["spinner"]:
                continue
            for w, h in SIZES:
                pl = plan(lay, w, h)
                assert set(pl.targets) == {"W", "E", "N", "S"}
                arms = {p.arm for p in pl.tiles}
                if lay["arms"]["N"]:
                    assert "N" in arms
                if lay["arms"]["S"]:
                    assert "S" in arms
            seen_n += bool(lay["arms"]["N"])
            seen_s += bool(lay["arms"]["S"])
    assert seen_n and seen_s


def test_spinner_inside_an_arm():
    """A spinner that is not the center: N/S hang from a double of the W arm."""
    lay = {"center": "3-4", "spinner": {"arm": "W", "index": 1},
           "arms": {"W": [{"tile": "2-3", "out": 2}, {"tile": "2-2", "out": 2}, {"tile": "1-2", "out": 1}],
                    "E": [{"tile": "4-6", "out": 6}],
                    "N": [{"tile": "2-5", "out": 5}, {"tile": "5-5", "out": 5}],
                    "S": [{"tile": "0-2", "out": 0}]}}
    view = {"layout": lay, "last": "0-2"}
    for w, h in SIZES + [(360, 740)]:
        pl = check_board(view, w, h, {e: e for e in "WENS"})
        sp = next(p for p in pl.tiles if p.tile == "2-2")
        n0 = next(p for p in pl.tiles if p.tile == "2-5")
        s0 = next(p for p in pl.tiles if p.tile == "0-2")
        assert abs(n0.x + n0.w / 2 - (sp.x + sp.w / 2)) < EPS and n0.y < sp.y
        assert abs(s0.x + s0.w / 2 - (sp.x + sp.w / 2)) < EPS and s0.y > sp.y


def test_target_is_where_the_next_tile_goes():
    """Playing a (non-double) tile on an end puts it on that end's slot (when
    the table did not have to change its scale)."""
    same = checked = 0
    for seed in range(6):
        prev = None
        for game in ("all-fives", "draw"):
            m = Match(make_rules(game), seed=seed,
                      seats=[{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}])
            rng = random.Random(seed)
            prev = None
            while m.phase == "play":
                acts = m.legal_actions()
                a = rng.choice(acts)
                before = plan(m.view(0)["layout"], 1920, 700)
                m.apply(a)
                after = plan(m.view(0)["layout"], 1920, 700)
                if "play" not in a or "end" not in a or a["play"].split("-")[0] == a["play"].split("-")[1]:
                    continue
                if after.unit != before.unit:
                    continue
                checked += 1
                slot = before.targets[a["end"]]
                p = next(q for q in after.tiles if q.tile == a["play"])
                # same spot relative to the center tile (the drawing is re-centred)
                c0 = next(q for q in before.tiles if q.arm == "C")
                c1 = next(q for q in after.tiles if q.arm == "C")
                if (abs((slot.x - c0.x) - (p.x - c1.x)) < EPS and abs((slot.y - c0.y) - (p.y - c1.y)) < EPS
                        and (slot.w, slot.h) == (p.w, p.h)):
                    same += 1
    assert checked > 50
    assert same / checked > 0.9, (same, checked)


# ----- long lines -------------------------------------------------------------
def chain(n: int, top: int, seed: int, center: int = 0) -> tuple[list, bool]:
    """n tiles of double-top on from a ``center`` double, as an arm list, and
    whether it is a real line (numbers match).  Double-6 has a line of all its
    tiles (Hierholzer); double-9 has none that long, so a random line is
    padded with the remaining tiles laid loosely."""
    rng = random.Random(seed)
    adj = {v: [] for v in range(top + 1)}
    for b in range(top + 1):
        for a in range(b + 1):
            if (a, b) != (center, center):
                adj[a].append((a, b))
                if a != b:
                    adj[b].append((a, b))
    for v in adj:
        rng.shuffle(adj[v])
    used: set = set()
    # Hierholzer: a longest trail from center (complete when all degrees are even)
    stack, trail = [(center, None)], []
    while stack:
        v, via = stack[-1]
        while adj[v] and adj[v][-1] in used:
            adj[v].pop()
        if adj[v]:
            t = adj[v].pop()
            used.add(t)
            stack.append((t[1] if t[0] == v else t[0], t))
        else:
            stack.pop()
            if via is not None:
                trail.append(via)
    trail.reverse()
    arm, end, strict = [], center, True
    for t in trail:
        if end not in t:
            break
        end = t[1] if t[0] == end else t[0]
        arm.append({"tile": f"{t[0]}-{t[1]}", "out": end})
    rest = [(a, b) for b in range(top + 1) for a in range(b + 1)
            if (a, b) != (center, center) and f"{a}-{b}" not in {x["tile"] for x in arm}]
    rng.shuffle(rest)
    while len(arm) < n and rest:
        t = rest.pop()
        arm.append({"tile": f"{t[0]}-{t[1]}", "out": t[1]})
        strict = False
    assert len(arm) >= n
    return arm[:n], strict


@pytest.mark.parametrize("n,top", [(27, 6), (54, 9)])
@pytest.mark.parametrize("w,h", [(360, 300), (1920, 700), (360, 740)])
def test_long_line_fits(n, top, w, h):
    for seed in range(3):
        arm, strict = chain(n, top, seed)
        for side in ("W", "E"):
            lay = {"center": "0-0", "spinner": None,
                   "arms": {"W": [], "E": [], "N": [], "S": [], side: arm}}
            view = {"layout": lay, "last": arm[-1]["tile"]}
            pl = check_board(view, w, h, {"W": "left", "E": "right"}, matador=not strict)
            longest = min(max(p.w, p.h) for p in pl.tiles)
            assert longest >= (14 if (w, h) == (360, 300) and n > 30 else 20), longest
            if n == 27 and (w, h) == (360, 300):
                assert longest >= 14


def test_27_tiles_on_one_arm_at_phone_size():
    arm, strict = chain(27, 6, 1)
    assert strict
    lay = {"center": "0-0", "spinner": None, "arms": {"W": arm, "E": [], "N": [], "S": []}}
    tiles = place(lay, 360, 300)
    assert len(tiles) == 28
    assert all(inside(box(p), 360, 300) for p in tiles)
    assert min(max(p.w, p.h) for p in tiles) >= 14


def test_four_long_spinner_arms_fit():
    rng = random.Random(5)
    # double-9: spinner 9-9 in the center, four arms of 12 tiles from a shuffled set
    for w, h in SIZES:
        for seed in range(4):
            arms = {}
            used = {(9, 9)}
            for e in "WENS":
                end, arm = 9, []
                while len(arm) < 12:
                    opts = [(a, b) for b in range(10) for a in range(b + 1)
                            if (a, b) not in used and end in (a, b)]
                    if not opts:
                        break
                    t = rng.choice(opts)
                    used.add(t)
                    end = t[1] if t[0] == end else t[0]
                    arm.append({"tile": f"{t[0]}-{t[1]}", "out": end})
                arms[e] = arm
            lay = {"center": "9-9", "spinner": {"arm": "C", "index": 0}, "arms": arms}
            view = {"layout": lay, "last": arms["S"][-1]["tile"] if arms["S"] else "9-9"}
            pl = check_board(view, w, h, {e: e for e in "WENS"})
            assert min(max(p.w, p.h) for p in pl.tiles) >= 14


# ----- the rest of board() ----------------------------------------------------
def test_empty_table():
    view = {"layout": {"center": None, "spinner": None, "arms": {"W": [], "E": [], "N": [], "S": []}}}
    svg = board(view, 360, 300, targets={"OPEN": "Play here"})
    assert svg[0] == "svg" and svg[1]["viewBox"] == "0 0 360 300"
    assert by_class(svg, "felt")
    assert not by_class(svg, "tile") and not by_class(svg, "target")
    assert place(view["layout"], 360, 300) == []


def test_highlight_and_style():
    view = next(v for i, v in enumerate(run_hand("draw", {}, 1)) if i == 6)
    other = view["layout"]["center"]
    svg = board(view, 360, 300, highlight=other)
    assert [g[1]["data-tile"] for g in by_class(svg, "last")] == [other]
    svg = board(view, 360, 300, style="black")
    assert {c[1]["fill"] for c in pips(svg)} == {tiles.BLACK_PIP}
    svg = board(view, 360, 300)
    assert len({c[1]["fill"] for c in pips(svg)}) > 1
    assert by_class(svg, "felt")


def test_deterministic_and_parses():
    views = list(run_hand("all-fives", {}, 3))
    for v in views[::3]:
        ends = {e: f"End {e}" for e in v["ends"]}
        a = to_svg(board(v, 360, 300, targets=ends))
        b = to_svg(board(v, 360, 300, targets=ends))
        assert a == b
        root = ET.fromstring(a)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert not re.search(r"\d\.\d{3,}", a)  # numbers kept short


def test_random_board_sizes():
    """Every preset's boards at odd sizes from tiny phones to large desktops."""
    rng = random.Random(42)
    widths = [300, 360, 414, 768, 1024, 1366, 1920]
    heights = [250, 300, 400, 600, 740, 1080]
    for i, (game, opts) in enumerate([("all-fives", {}), ("classic", {"set": 9, "spinner": "first"}),
                                      ("draw", {"players": 4}), ("matador", {}),
                                      ("los-cincos", {}), ("muggins", {})]):
        for view in run_hand(game, opts, 100 + i):
            w, h = rng.choice(widths), rng.choice(heights)
            pl = check_board(view, w, h, {e: e for e in view["ends"]}, matador=game == "matador")
            assert min(max(p.w, p.h) for p in pl.tiles) >= 24
