"""Chicken Foot's table as SVG: a tree of chains that grows in every direction.

A pure function from a seat view (``shape == "foot"``) to an element tree.
The round's double lies crosswise in the middle with its six toes, three on
each side (straight out, and diagonally from its corners); a later double
lies crosswise across its chain and grows three toes the same way on its far
side: the chicken foot.  Chains run in eight directions (multiples of 45
degrees); a chain turns (45 degrees first, then 90) when its next tile would
touch another tile or leave the table.

The layout works in units (a tile is 2 x 1): each half of a tile is a unit
square, kept at least :data:`CLEAR` units from every other square but its
neighbours in the chain.  Like :func:`domino.app.render.plan`, the unit is
the largest step of a ladder for which the whole tree, with a slot for the
next tile on every open end, fits the board; the drawing is then centred.
So the whole table stays in view however it grows, and every open toe has
a slot that a tap reaches (hit areas of at least 44 px where room allows,
never overlapping).
"""
from __future__ import annotations

import json
import math
from typing import NamedTuple

from domino.app.boards.trains import tile_items
from domino.app.render import FELT, FELT_EDGE, IVORY, OUTLINE, TARGET, _halves, _num, _tile_parts, text_width

Node = tuple

UNIT_MAX = 40.0
LADDER = 0.86
MARGIN_PX = 6.0
CLEAR = 1.12
#: ways of turning tried at each unit size before a smaller one (see _place_tile)
VARIANTS = (0,)        # minimum distance between the centres of two half squares
#: the six toes of the centre double: E, W, then the diagonals
CENTER_TOES = (0, 180, -45, 135, 45, 225)
MUST = "#ff6b4a"


class Piece(NamedTuple):
    """A tile (or a slot, ``tile == ""``) in units: centre, angle of travel
    (degrees, SVG: 0 east, 90 south), double or not; halves near/far."""
    cx: float
    cy: float
    angle: int
    tile: str
    branch: str
    index: int
    near: int
    far: int
    double: bool


_DIRS = {a: (round(math.cos(math.radians(a)), 9), round(math.sin(math.radians(a)), 9))
         for a in range(0, 360, 45)}


def _dir(a: float) -> tuple[float, float]:
    d = _DIRS.get(int(a) % 360) if a == int(a) else None
    if d is None:
        r = math.radians(a)
        d = (round(math.cos(r), 9), round(math.sin(r), 9))
    return d


def _squares(p: Piece) -> list[tuple[float, float]]:
    dx, dy = _dir(p.angle)
    if p.double:   # crosswise: the halves side by side across the chain
        px, py = -dy, dx
        return [(p.cx + 0.5 * px, p.cy + 0.5 * py), (p.cx - 0.5 * px, p.cy - 0.5 * py)]
    return [(p.cx - 0.5 * dx, p.cy - 0.5 * dy), (p.cx + 0.5 * dx, p.cy + 0.5 * dy)]


def _corners(p: Piece) -> list[tuple[float, float]]:
    dx, dy = _dir(p.angle)
    px, py = -dy, dx
    along, across = (0.5, 1.0) if p.double else (1.0, 0.5)
    return [(p.cx + sa * along * dx + sc * across * px, p.cy + sa * along * dy + sc * across * py)
            for sa in (-1, 1) for sc in (-1, 1)]


class _Board:
    """Placed squares in a grid of unit cells, for the distance checks,
    inside bounds (units)."""

    def __init__(self, bounds: tuple):
        self.bounds = bounds
        self.cells: dict = {}   # (i, j) -> [(x, y, piece number)]
        self.n = 0

    def fits(self, p: Piece, skip: set) -> int:
        """0: fits; 1: touches nothing but leaves the bounds; 2: too close to a tile."""
        lim = CLEAR * CLEAR - 1e-9
        for sx, sy in _squares(p):
            i0, j0 = math.floor(sx), math.floor(sy)
            for i in (i0 - 1, i0, i0 + 1):
                for j in (j0 - 1, j0, j0 + 1):
                    for qx, qy, k in self.cells.get((i, j), ()):
                        if k not in skip and (sx - qx) ** 2 + (sy - qy) ** 2 < lim:
                            return 2
        x0, y0, x1, y1 = self.bounds
        for cx, cy in _corners(p):
            if cx < x0 - 1e-6 or cx > x1 + 1e-6 or cy < y0 - 1e-6 or cy > y1 + 1e-6:
                return 1
        return 0

    def add(self, p: Piece) -> int:
        k = self.n
        self.n += 1
        for sx, sy in _squares(p):
            self.cells.setdefault((math.floor(sx), math.floor(sy)), []).append((sx, sy, k))
        return k


def _toe_starts(anchor: tuple, angle: int, double: bool, both_sides: bool) -> list[tuple]:
    """Where the toes of a foot double start: [(near-square centre, angle)],
    in the order the engine numbers them."""
    ax, ay = anchor
    out = []
    sides = (angle, angle + 180) if both_sides else (angle,)
    for k, a in enumerate(sides):
        dx, dy = _dir(a)
        px, py = -dy, dx
        straight = (ax + 1.0 * dx, ay + 1.0 * dy)
        out.append((k, 0, straight, a))
        for sgn in (-1, 1):
            da = a + sgn * 45
            ddx, ddy = _dir(da)
            corner = (ax + 0.5 * dx + sgn * px, ay + 0.5 * dy + sgn * py)
            out.append((k, sgn, (corner[0] + 0.5 * ddx, corner[1] + 0.5 * ddy), da))
    if both_sides:   # E, W, then the diagonals (CENTER_TOES)
        order = [(0, 0), (1, 0), (0, -1), (1, -1), (0, 1), (1, 1)]
    else:
        order = [(0, 0), (0, -1), (0, 1)]
    by = {(k, s): (c, a) for k, s, c, a in out}
    return [by[o] for o in order]


def _place_tile(board: _Board, item: tuple, prev: tuple, branch: str, index: int,
                skip: set, variant: int = 0) -> tuple[Piece, tuple, bool]:
    """Place one tile after ``prev`` = (anchor, angle, first): the anchor is
    the centre of the last square (a double: its centre), ``first`` the
    near-square centre of a toe's first tile (which never turns).  Straight
    on if it fits, else turned 45 then 90 degrees, to the side that leads
    away from the middle (chains keep to the edges and leave the middle to
    the feet).  Returns (piece, next prev, fitted)."""
    name, near, far, dbl = item
    anchor, angle, first, home = prev

    def turns():
        yield 0
        if first is not None:
            return
        cand = []
        for t in ((45, 90) if dbl else (45, 90, 135)):
            for sgn in (1, -1):
                a = angle + sgn * t
                off = abs((a - home + 180) % 360 - 180)   # how far from the chain's own heading
                dx, dy = _dir(a)
                out = (anchor[0] + 2 * dx) ** 2 + (anchor[1] + 2 * dy) ** 2
                if variant == 0:
                    cand.append((off, t, -out, sgn * t))
                elif variant == 1:   # keep close to the middle
                    cand.append((off, t, out, sgn * t))
                else:                # always the same way round first
                    cand.append((t, sgn != (1 if variant == 2 else -1), off, sgn * t))
        cand.sort()
        for c in cand:
            yield c[3]

    fallback = None
    for turn in turns():
        a = (angle + turn) % 360
        dx, dy = _dir(a)
        if first is not None:
            nx, ny = first
        else:
            step = 1.0 if turn == 0 else (1.06 if abs(turn) < 135 else 1.7)
            nx, ny = anchor[0] + step * dx, anchor[1] + step * dy
        if dbl:
            piece = Piece(nx, ny, a, name, branch, index, near, far, True)
            nxt = ((nx, ny), a, None, home)
            # a double may grow toes: keep room for their first tiles
            ghosts = []
            for (gx, gy), ga in _toe_starts((nx, ny), a, True, False):
                gdx, gdy = _dir(ga)
                ghosts.append(Piece(gx + 0.5 * gdx, gy + 0.5 * gdy, ga, "", branch, -1, far, -1, False))
            room = max(board.fits(gp, set()) for gp in ghosts)
            if room:
                if fallback is None or room < fallback[2]:
                    fallback = (piece, nxt, max(room, board.fits(piece, set())))
                continue
        else:
            piece = Piece(nx + 0.5 * dx, ny + 0.5 * dy, a, name, branch, index, near, far, False)
            nxt = ((nx + dx, ny + dy), a, None, home)
        level = board.fits(piece, skip if abs(turn) < 135 else set())
        if level == 0:
            return piece, nxt, 0
        if fallback is None or level < fallback[2]:
            fallback = (piece, nxt, level)
    return fallback


def layout_units(lay: dict, bounds: tuple, slots: set, variant: int = 0) -> tuple[list, dict, bool]:
    """Every piece in units inside ``bounds``; (pieces, slots by branch id,
    worst: 0 all fitted, 1 some left the bounds, 2 some touch).
    The chains grow together, one tile each in turn, so that no chain takes
    the room of another; a foot's toes start when its double is down."""
    center = lay.get("center")
    board = _Board(bounds)
    pieces: list[Piece] = []
    slot_of: dict = {}
    if not center:
        return pieces, slot_of, 0
    worst = 0
    ca, _ = _halves(center)
    cpiece = Piece(0.0, 0.0, 0, center, "C", 0, ca, ca, True)
    ck = board.add(cpiece)
    pieces.append(cpiece)
    branches = list(lay.get("branches") or [])
    children: dict = {}
    for b in branches:
        children.setdefault(b.get("parent"), []).append(b)
    # a growing chain: [branch, items, next index, prev, skip]
    active = [[b, tile_items(b.get("tiles") or []), 0, ((0.0, 0.0), a, c, a), {ck}]
              for b, (c, a) in zip(children.get(None, []), _toe_starts((0.0, 0.0), 0, True, True))]
    while active:
        grown = []
        for ch in active:
            b, items, i, prev, skip = ch
            bid = b["id"]
            if i < len(items):
                piece, prev, fit = _place_tile(board, items[i], prev, bid, i, skip, variant)
                worst = max(worst, fit)
                k = board.add(piece)
                pieces.append(piece)
                ch[2], ch[3], ch[4] = i + 1, prev, {k}
                grown.append(ch)
                continue
            if b.get("open") is None and items and items[-1][3]:
                dp = pieces[next(n for n in range(len(pieces) - 1, -1, -1)
                                 if pieces[n].branch == bid and pieces[n].index == len(items) - 1)]
                dk = next(iter(skip))
                for cb, (c, a) in zip(children.get(bid, []),
                                      _toe_starts((dp.cx, dp.cy), dp.angle, True, False)):
                    grown.append([cb, tile_items(cb.get("tiles") or []), 0, ((dp.cx, dp.cy), a, c, a), {dk}])
            elif b.get("open") is not None and bid in slots:
                piece, _, fit = _place_tile(board, ("", int(b["open"]), -1, False), prev, bid,
                                            len(items), skip, variant)
                worst = max(worst, fit)
                board.add(piece)
                slot_of[bid] = piece
        active = grown
    return pieces, slot_of, worst


class FootPlan(NamedTuple):
    pieces: list     # [Piece] in px: cx, cy in board px
    slots: dict      # branch id -> Piece (px)
    unit: float


_CACHE: dict = {}


def plan(lay: dict, width: float, height: float, slots: set | None = None, top: float = 0.0) -> FootPlan:
    """The tree at the largest unit that fits ``width`` x ``height`` px,
    below ``top`` px kept free.  The last few plans are kept: a tap that
    only lights up places draws the same tree again."""
    key = (json.dumps(lay, sort_keys=True), float(width), float(height),
           None if slots is None else tuple(sorted(slots)), float(top))
    if key in _CACHE:
        return _CACHE[key]
    out = _plan(lay, width, height, slots, top)
    if len(_CACHE) >= 8:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = out
    return out


def _shrink(allp: list, aw: float, ah: float) -> float:
    """The unit (px) at which ``allp`` (in units) fits ``aw`` x ``ah`` px."""
    xs = [c[0] for p in allp for c in _corners(p)] or [0.0]
    ys = [c[1] for p in allp for c in _corners(p)] or [0.0]
    return min(aw / max(1.0, max(xs) - min(xs) + 0.6), ah / max(1.0, max(ys) - min(ys) + 0.6))


def _plan(lay: dict, width: float, height: float, slots: set | None, top: float) -> FootPlan:
    width, height = float(width), float(height) - top
    if slots is None:
        slots = {b["id"] for b in (lay.get("branches") or []) if b.get("open") is not None}
    aw, ah = width - 2 * MARGIN_PX, height - 2 * MARGIN_PX
    n = 1 + sum(len(b.get("tiles") or []) for b in (lay.get("branches") or [])) + len(slots)
    # skip the steps that cannot fit: a tree needs some 6 square units a tile
    s = min(UNIT_MAX, min(aw, ah) / 7.0, math.sqrt(aw * ah / (6.0 * n)) * 1.25)
    best = None
    loose = None   # the largest tree that touches nothing, scaled down to fit
    for _ in range(10):
        wu, hu = aw / s - 0.6, ah / s - 0.6
        for variant in VARIANTS:
            pieces, slot_of, worst = layout_units(lay, (-wu / 2, -hu / 2, wu / 2, hu / 2), slots, variant)
            if worst == 0:
                best = (s, pieces, slot_of)
                break
            if worst == 1:
                fit = min(s, _shrink(pieces + list(slot_of.values()), aw, ah))
                if loose is None or fit > loose[0]:
                    loose = (fit, pieces, slot_of)
        if best or (loose and s * LADDER < loose[0]):
            break
        if s * LADDER < 3.0:
            break
        s *= LADDER
    if best is None and loose is not None:
        best = loose
    if best is None:   # squeeze the last try in
        pieces, slot_of, _ = layout_units(lay, (-1e6, -1e6, 1e6, 1e6), slots)
        s = _shrink(pieces + list(slot_of.values()), aw, ah)
        best = (s, pieces, slot_of)
    s, pieces, slot_of = best
    allp = pieces + list(slot_of.values())
    xs = [c[0] for p in allp for c in _corners(p)] or [0.0]
    ys = [c[1] for p in allp for c in _corners(p)] or [0.0]
    ox = width / 2 - s * (min(xs) + max(xs)) / 2
    oy = top + height / 2 - s * (min(ys) + max(ys)) / 2

    def px(p: Piece) -> Piece:
        return p._replace(cx=round(ox + s * p.cx, 3), cy=round(oy + s * p.cy, 3))

    return FootPlan([px(p) for p in pieces], {k: px(v) for k, v in slot_of.items()}, s)


def _piece_node(p: Piece, u: float, style: str, last: bool) -> Node:
    if p.double:
        w, h = u, 2 * u
        first = second = p.near
    else:
        w, h = 2 * u, u
        first, second = p.near, p.far
    parts = _tile_parts(-w / 2, -h / 2, w, h, first, second, style, last)
    return ("g", {"class": "tile last" if last else "tile", "data-tile": p.tile, "data-arm": p.branch,
                  "data-index": str(p.index),
                  "transform": f"translate({_num(p.cx)} {_num(p.cy)}) rotate({p.angle % 360})"}, parts)


def hit_areas(slots: dict, u: float, minimum: float = 44.0) -> dict:
    """Square tap areas around each slot's centre: ``minimum`` px a side
    where room allows, never less than the slot's width across, and cut to
    half the distance to the next slot, so that no two ever overlap."""
    out = {}
    items = list(slots.items())
    for e, p in items:
        half = max(minimum / 2, 0.6 * u)
        for f, q in items:
            if f != e:
                half = min(half, 0.5 * max(abs(p.cx - q.cx), abs(p.cy - q.cy)))
        out[e] = [p.cx - half, p.cy - half, 2 * half, 2 * half]
    return out


def board(view: dict, width: float, height: float, *, style: str = "coloured",
          targets: dict | None = None, highlight: str | None = None, me: int | None = None,
          texts: dict | None = None) -> Node:
    width, height = float(width), float(height)
    lay = view.get("layout") or {}
    tx = texts or {}
    children: list = [
        ("rect", {"class": "felt", "x": "0", "y": "0", "width": _num(width), "height": _num(height),
                  "fill": FELT, "stroke": FELT_EDGE, "stroke-width": "2"}, []),
    ]
    svg_attrs = {"class": "board foot-board", "viewBox": f"0 0 {_num(width)} {_num(height)}",
                 "width": "100%", "height": "100%", "preserveAspectRatio": "xMidYMid meet",
                 "role": "group", "aria-label": "Table"}
    if not lay.get("center"):
        return ("svg", svg_attrs, children)
    must = set(lay.get("must") or [])
    fs = max(11.0, min(15.0, 0.035 * height))
    banner = 4 + fs * 1.7 if must and tx.get("must") else 0.0
    pl = plan(lay, width, height, top=banner)
    u = pl.unit
    last = highlight if highlight is not None else view.get("last")
    tiles = [_piece_node(p, u, style, p.tile == last) for p in pl.pieces]
    tiles.sort(key=lambda g: g[1]["class"] == "tile last")
    children.append(("g", {"class": "tiles"}, tiles))
    # every open end: its number where the next tile goes
    marks = []
    branches = {b["id"]: b for b in (lay.get("branches") or [])}
    for bid, p in sorted(pl.slots.items(), key=lambda kv: int(kv[0].split(":")[1])):
        b = branches.get(bid) or {}
        r = max(6.0, 0.42 * u)
        fill = MUST if bid in must else IVORY
        marks.append(("g", {"class": "open-end" + (" must" if bid in must else ""), "data-branch": bid,
                            "data-end-value": str(b.get("open"))}, [
            ("circle", {"cx": _num(p.cx), "cy": _num(p.cy), "r": _num(r), "fill": fill, "fill-opacity": "0.92",
                        "stroke": OUTLINE, "stroke-width": "1.2"}, []),
            ("text", {"x": _num(p.cx), "y": _num(p.cy + 0.5), "font-size": _num(1.15 * r), "fill": "#111",
                      "text-anchor": "middle", "dominant-baseline": "central", "font-weight": "800",
                      "font-family": "system-ui, sans-serif"}, [str(b.get("open"))]),
        ]))
    children.append(("g", {"class": "open-ends"}, marks))
    if banner:
        wtxt = tx["must"]
        bs = max(8.0, min(fs, (width - 28) / text_width(wtxt, 1.0, "800")))   # shrinks to fit
        pw = min(width - 12, text_width(wtxt, bs, "800") + 16)
        children.append(("g", {"class": "must-banner", "data-testid": "open-double"}, [
            ("rect", {"x": _num(width / 2 - pw / 2), "y": "4", "width": _num(pw), "height": _num(bs * 1.7),
                      "rx": _num(bs * 0.85), "fill": MUST, "stroke": "#fff", "stroke-width": "1.5"}, []),
            ("text", {"x": _num(width / 2), "y": _num(4 + bs * 0.85), "font-size": _num(bs), "fill": "#1b0a05",
                      "text-anchor": "middle", "dominant-baseline": "central", "font-weight": "800",
                      "font-family": "system-ui, sans-serif"}, [wtxt]),
        ]))
    if targets:
        want = {e: lab for e, lab in targets.items() if e in pl.slots}
        hits = hit_areas({e: pl.slots[e] for e in want}, u)
        tg = []
        for e in sorted(want):
            p = pl.slots[e]
            hit = hits[e]
            ins = 0.06 * u
            w, h = 2 * u, u
            tg.append(("g", {"class": "target", "data-end": e, "role": "button", "tabindex": "0",
                             "aria-label": want[e]}, [
                ("rect", {"class": "target-hit", "x": _num(hit[0]), "y": _num(hit[1]), "width": _num(hit[2]),
                          "height": _num(hit[3]), "fill": "#fff", "fill-opacity": "0",
                          "pointer-events": "all"}, []),
                ("g", {"transform": f"translate({_num(p.cx)} {_num(p.cy)}) rotate({p.angle % 360})"}, [
                    ("rect", {"class": "target-mark", "x": _num(-w / 2 + ins), "y": _num(-h / 2 + ins),
                              "width": _num(w - 2 * ins), "height": _num(h - 2 * ins), "rx": _num(0.16 * u),
                              "fill": TARGET, "fill-opacity": "0.3", "stroke": TARGET,
                              "stroke-width": _num(max(1.5, 0.08 * u)),
                              "stroke-dasharray": f"{_num(0.22 * u)} {_num(0.14 * u)}"}, []),
                ]),
            ]))
        children.append(("g", {"class": "targets"}, tg))
    return ("svg", svg_attrs, children)
