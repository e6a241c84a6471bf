"""Chicken Foot's table as SVG: the tree of toes while it fits, rows when it does not.

A pure function from a seat view (``shape == "foot"``) to an element tree.
Two ways of laying the table out, both in units (a tile is 2 x 1), both
checked so that no two tiles overlap and every open end's number sits at
its own end: on the free half of the place where its next tile goes (or,
in the foot, just by the end's open half), on no tile, nearer its own end
than any other end:

* **the foot** (early in a round, or on a large board): the round's double
  lies crosswise in the middle with its six toes, three on each side
  (straight out, and diagonally from its corners); a later double lies
  crosswise across its chain and grows three toes the same way on its far
  side, laid as soon as the double is (the double takes a place where all
  three fit).  Chains run in eight directions (multiples of 45 degrees) and
  turn (45 degrees first, then 90, 135) when the next tile would touch
  another tile or leave the table; the chains grow together, one tile each
  in turn.  Every rectangle is kept :data:`CLEAR` units from every other
  but the one it is laid against, exactly (separating axes).  Where a foot
  does not fit so, it is tried once more with each chain keeping the place
  straight ahead of it free (the others turn away where they can).
* **rows** (when the foot would be drawn smaller than :data:`TREE_GOOD` px a
  unit and than :data:`TREE_SHARE` of the rows'): every branch is a run of
  tiles left to right, in the tree's order, runs flowing on from row to row
  like words in a paragraph.  A toe laid straight on after the double it
  grows from simply continues that double's run; any other run begins with
  a *stub*, the faded half of the number it grows from (each double's
  number is on the table once, so a stub names its double), and a run cut
  at the end of a row goes on in the next one after a stub of the number it
  continues from.  Doubles lie lengthwise in a row.  The open end's number
  is right after the run's last tile, where its next tile goes.

The unit is the largest of a ladder that fits the board; the rows are never
drawn smaller than :data:`MIN_UNIT` (a tile's body at least 14 px across):
if they still do not fit, the longest runs fold their first tiles into a
"+N" chip, as the trains do, keeping every run's last tile (and so the last
tile played) in view.  Every open toe has a place that a tap reaches (hit
areas of up to 44 px, never overlapping).  tests/test_foot_layout.py checks
all of this on the drawn tree after every play of many whole rounds.
"""
from __future__ import annotations

import json
import math
from typing import NamedTuple

from domino.app.boards.trains import tile_items
from domino.app.boards.tiles import (FELT, FELT_EDGE, IVORY, OUTLINE, TARGET, halves, num, pip_layout,
                                     tile_parts, pip_colour, text_width)

Node = tuple

UNIT_MAX = 40.0        # px per unit, the foot at its largest
FLOW_MAX = 30.0        # px per unit, rows at their largest
#: never smaller (px per unit): a tile's body (0.93 unit) is then 14 px across
MIN_UNIT = 15.1
TREE_GOOD = 20.0       # a foot this large (px per unit) is drawn rather than rows ...
TREE_SHARE = 0.8       # ... or one at least this share of the rows' unit
LADDER = 0.9           # the foot's unit ladder
FLOW_LADDER = 0.95     # the rows' unit ladder
CLEAN_SHARE = 0.88     # runs start whole on a new row unless that costs more than this
MARGIN_PX = 6.0
CLEAR = 0.12           # units of felt between tiles that do not touch (the foot)
ROW_GAP = 0.45         # units between rows
SEG_GAP = 0.5          # units between two runs in a row
STUB_W, STUB_GAP = 1.0, 0.1
FOLD_W, FOLD_GAP = 1.4, 0.1
LABEL_R = 8.5          # px: an end's number is at least this round (radius) ...
LABEL_SHARE = 0.42     # ... or this share of the unit
AREA_PER_PIECE = 5.0   # square units a piece of the foot needs at the least
#: the six toes of the centre double: E, W, then the diagonals
CENTER_TOES = (0, 180, -45, 135, 45, 225)
MUST = "#ff6b4a"
TREE, ROWS = "foot", "rows"


class Piece(NamedTuple):
    """A tile (or a slot, ``tile == ""``) in units: centre, angle of travel
    (degrees, SVG: 0 east, 90 south), double or not (a double lies
    crosswise; in rows it lies lengthwise and is drawn as a plain tile, so
    ``double`` is False there); halves near/far."""
    cx: float
    cy: float
    angle: int
    tile: str
    branch: str
    index: int
    near: int
    far: int
    double: bool


class Stub(NamedTuple):
    """The faded half a run begins with (rows): the number it grows from."""
    cx: float
    cy: float
    branch: str
    value: int
    cont: bool        # a run cut at the end of a row, going on


class Fold(NamedTuple):
    """A "+N" chip in place of a run's first ``hidden`` tiles (rows)."""
    cx: float
    cy: float
    branch: str
    hidden: int


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


def _label_off(r_units: float) -> float:
    """How far past its tile's end an end's number sits (units): on the
    free half, clear of the tile."""
    return max(0.5, r_units + 0.1)


# ----------------------------------------------------------------- the foot
# A rectangle: (cx, cy, ux, uy, half length, half width), u the direction of travel.
def _rect(p: Piece) -> tuple:
    ux, uy = _dir(p.angle)
    hl, hw = (0.5, 1.0) if p.double else (1.0, 0.5)
    return (p.cx, p.cy, ux, uy, hl, hw)


def _apart(a: tuple, b: tuple, clear: float) -> bool:
    """Whether two rectangles are at least ``clear`` apart on some axis
    (separating axes: their own four)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    lim = clear - 1e-7
    for r, s in ((a, b), (b, a)):
        ux, uy = r[2], r[3]
        for ax, ay, own in ((ux, uy, r[4]), (-uy, ux, r[5])):
            other = s[4] * abs(s[2] * ax + s[3] * ay) + s[5] * abs(-s[3] * ax + s[2] * ay)
            if abs(dx * ax + dy * ay) - own - other >= lim:
                return True
    return False


def _pt_dist(x: float, y: float, r: tuple) -> float:
    """From a point to a rectangle (0 inside)."""
    dx, dy = x - r[0], y - r[1]
    a = abs(dx * r[2] + dy * r[3]) - r[4]
    b = abs(-dx * r[3] + dy * r[2]) - r[5]
    return math.hypot(max(a, 0.0), max(b, 0.0))


class _Grid:
    """Placed rectangles in cells of 2.5 units, for the distance checks."""
    CELL = 2.5

    def __init__(self):
        self.cells: dict = {}
        self.rects: list = []
        self.ghosts: set = set()    # the places kept free ahead of the chains

    def near(self, x: float, y: float):
        c = self.CELL
        i0, j0 = math.floor(x / c), math.floor(y / c)
        cells = self.cells
        for i in (i0 - 1, i0, i0 + 1):
            for j in (j0 - 1, j0, j0 + 1):
                for k in cells.get((i, j), ()):
                    yield k

    def add(self, r: tuple) -> int:
        k = len(self.rects)
        self.rects.append(r)
        c = self.CELL
        self.cells.setdefault((math.floor(r[0] / c), math.floor(r[1] / c)), []).append(k)
        return k

    def move(self, k: int, r: tuple) -> None:
        c = self.CELL
        old = self.rects[k]
        self.cells[(math.floor(old[0] / c), math.floor(old[1] / c))].remove(k)
        self.rects[k] = r
        self.cells.setdefault((math.floor(r[0] / c), math.floor(r[1] / c)), []).append(k)

    def rollback(self, n: int) -> None:
        """Forget every rectangle from number ``n`` on."""
        c = self.CELL
        while len(self.rects) > n:
            r = self.rects.pop()
            self.cells[(math.floor(r[0] / c), math.floor(r[1] / c))].remove(len(self.rects))
            self.ghosts.discard(len(self.rects))

    def free(self, r: tuple, touch: int, skip: int = -1) -> bool:
        """Whether ``r`` keeps CLEAR from every piece but ``touch``, which it
        may touch (not overlap, its halves a unit from ``r``'s), and ``skip``;
        the places kept free ahead of the chains do not count."""
        rects, ghosts, cells = self.rects, self.ghosts, self.cells
        x, y = r[0], r[1]
        i0, j0 = math.floor(x / self.CELL), math.floor(y / self.CELL)
        for i in (i0 - 1, i0, i0 + 1):
            for j in (j0 - 1, j0, j0 + 1):
                for k in cells.get((i, j), ()):
                    if k == skip or k in ghosts:
                        continue
                    q = rects[k]
                    if k == touch:
                        if not _apart(r, q, 0.0):
                            return False
                        for ax, ay in _rect_squares(r):
                            for bx, by in _rect_squares(q):
                                     if (ax - bx) ** 2 + (ay - by) ** 2 < 0.990025:   # 0.995 squared
                                         return False
                    elif (q[0] - x) ** 2 + (q[1] - y) ** 2 < 5.3 and not _apart(r, q, CLEAR):
                        return False
        return True


    def clear_ahead(self, r: tuple, skip: int) -> bool:
        """Whether ``r`` keeps out of the places kept free ahead of the
        chains (but ``skip``, its own)."""
        rects = self.rects
        for k in self.near(r[0], r[1]):
            if k in self.ghosts and k != skip and not _apart(r, rects[k], 0.0):
                return False
        return True


def _rect_squares(r: tuple) -> tuple:
    """The centres of a rectangle's two half squares."""
    if r[4] < r[5]:   # a double, crosswise
        ox, oy = -0.5 * r[3], 0.5 * r[2]
    else:
        ox, oy = 0.5 * r[2], 0.5 * r[3]
    return ((r[0] - ox, r[1] - oy), (r[0] + ox, r[1] + oy))


def _min_step(turn: int, prev_double: bool, new_double: bool) -> float | None:
    """How far (units) past the end of its predecessor a piece turned by
    ``turn`` degrees must start so as not to overlap it, its halves' centres
    at least a unit from the predecessor's: the least of a few steps."""
    hl, hw = (0.5, 1.0) if prev_double else (1.0, 0.5)
    prev = (-hl, 0.0, 1.0, 0.0, hl, hw)   # its end at the origin, heading east
    ux, uy = _dir(turn)
    nl, nw = (0.5, 1.0) if new_double else (1.0, 0.5)
    for k in range(0, 13):
        d = 0.1 * k
        r = (ux * (d + nl), uy * (d + nl), ux, uy, nl, nw)
        if not _apart(prev, r, 0.0):
            continue
        pa = _squares(Piece(prev[0], 0.0, 0, "", "", 0, 0, 0, prev_double))
        pb = _squares(Piece(r[0], r[1], turn, "", "", 0, 0, 0, new_double))
        if min(math.dist(a, b) for a in pa for b in pb) >= 0.995:
            return round(d, 3)
    return None


_TURNS = (0, 45, -45, 90, -90, 135, -135)
_STEPS = {(t, pd, nd): _min_step(t, pd, nd) for t in _TURNS for pd in (False, True) for nd in (False, True)}


def _toe_starts(cx: float, cy: float, angle: int, both_sides: bool) -> list[tuple]:
    """Where the toes of a crosswise double centred at (cx, cy), its chain
    heading ``angle``, start: [((x, y), heading)], the middle of the near
    edge of each toe's first tile, in the order the engine numbers them."""
    out = {}
    sides = (angle, angle + 180) if both_sides else (angle,)
    for k, a in enumerate(sides):
        dx, dy = _dir(a)
        px, py = -dy, dx
        out[(k, 0)] = ((cx + 0.5 * dx, cy + 0.5 * dy), a % 360)
        for sgn in (-1, 1):
            out[(k, sgn)] = ((cx + 0.5 * dx + sgn * px, cy + 0.5 * dy + sgn * py), (a + sgn * 45) % 360)
    if both_sides:   # E, W, then the diagonals (CENTER_TOES)
        order = [(0, 0), (1, 0), (0, -1), (1, -1), (0, 1), (1, 1)]
    else:
        order = [(0, 0), (0, -1), (0, 1)]
    return [out[o] for o in order]


class _Chain:
    __slots__ = ("b", "items", "i", "anchor", "angle", "home", "prev", "prev_double", "ghost")

    def __init__(self, b, anchor, angle, prev):
        self.b = b
        self.items = tile_items(b.get("tiles") or [])
        self.i = 0
        self.anchor = anchor
        self.angle = angle
        self.home = angle
        self.prev = prev
        self.prev_double = True     # every chain starts at a double
        self.ghost = -1             # the rectangle kept free straight ahead of it


def _places(grid: _Grid, ch: _Chain, double: bool, bounds: tuple, skip: int = -1):
    """The places for ``ch``'s next piece, best first: straight on if it
    fits, else turned, the least first, then towards the chain's own
    heading, then outwards.  (rect, heading) each."""
    ax, ay = ch.anchor
    x0, y0, x1, y1 = bounds
    hl, hw = (0.5, 1.0) if double else (1.0, 0.5)
    later = []
    for a, step in _turns(ch, double):
        ux, uy = _dir(a)
        cx, cy = ax + (step + hl) * ux, ay + (step + hl) * uy
        ex, ey = hl * abs(ux) + hw * abs(uy), hl * abs(uy) + hw * abs(ux)
        if cx - ex < x0 - 1e-9 or cx + ex > x1 + 1e-9 or cy - ey < y0 - 1e-9 or cy + ey > y1 + 1e-9:
            continue
        r = (cx, cy, ux, uy, hl, hw)
        if grid.free(r, ch.prev, skip):
            if grid.clear_ahead(r, skip):
                yield r, a
            else:
                later.append((r, a))
    # across another chain's way only when there is nothing else
    yield from later


def _turns(ch: _Chain, double: bool):
    """(heading, step) for ``ch``'s next piece: straight on, then the turns
    in order (the least, towards the chain's own heading, outwards)."""
    yield ch.angle, _STEPS[(0, ch.prev_double, double)]
    ax, ay = ch.anchor
    cand = []
    for t in _TURNS[1:]:
        step = _STEPS[(t, ch.prev_double, double)]
        if step is None or (double and abs(t) > 90):
            continue
        a = (ch.angle + t) % 360
        off = abs((a - ch.home + 180) % 360 - 180)
        ux, uy = _dir(a)
        out = (ax + 2 * ux) ** 2 + (ay + 2 * uy) ** 2
        cand.append((off, abs(t), -out, a, step))
    cand.sort()
    for c in cand:
        yield c[3], c[4]


_FAR = (1e6, 1e6, 1.0, 0.0, 0.0, 0.0)    # where a chain's free place goes when it has none


class _Tree:
    """The foot being laid: the grid, the pieces, the slots, whose open end
    is which tile; with a mark to go back to."""

    def __init__(self, bounds: tuple, slots: set, children: dict, r_units: float, ahead: bool):
        self.ahead = ahead
        self.grid = _Grid()
        self.bounds, self.slots, self.children, self.r_units = bounds, slots, children, r_units
        self.pieces: list[Piece] = []
        self.slot_of: dict = {}
        self.slot_k: dict = {}
        self.anchor_of: dict = {}
        self.chain_of: dict = {}

    def label_at(self, bid: str, r: tuple, a: int, own: int, skip: int) -> tuple | None:
        """Where the number of ``bid``'s open end goes with its slot ``r``
        (heading ``a``), if there it lies on no tile, is near its own end
        (``own``) and nearer it than any other open end's tile."""
        ux, uy = _dir(a)
        off = _label_off(self.r_units) - 1.0
        return self.label_ok(bid, r[0] + off * ux, r[1] + off * uy, own, skip)

    def label_ok(self, bid: str, x: float, y: float, own: int, skip: int) -> tuple | None:
        rects = self.grid.rects
        x0, y0, x1, y1 = self.bounds
        ru = self.r_units
        if x - ru < x0 or x + ru > x1 or y - ru < y0 or y + ru > y1:
            return None
        ghosts = self.grid.ghosts
        lim = (ru + 1.2) ** 2     # a rectangle's centre further away cannot reach the number
        for k in self.grid.near(x, y):
            q = rects[k]
            if ((q[0] - x) ** 2 + (q[1] - y) ** 2 < lim and k != skip and k not in ghosts
                    and _pt_dist(x, y, q) < ru + 1e-6):
                return None
        d_own = _pt_dist(x, y, rects[own])
        if d_own > 1.5:
            return None
        lim = (d_own + 1.2) ** 2
        for e, k in self.anchor_of.items():
            q = rects[k]
            if ((q[0] - x) ** 2 + (q[1] - y) ** 2 < lim and k != own and e != bid
                    and _pt_dist(x, y, q) <= d_own + 0.05):
                return None
        return x, y

    def mark(self) -> tuple:
        return (len(self.grid.rects), len(self.pieces), list(self.slot_of))

    def rollback(self, m: tuple) -> None:
        self.grid.rollback(m[0])
        del self.pieces[m[1]:]
        for e in list(self.slot_of):
            if e not in m[2]:
                del self.slot_of[e], self.slot_k[e], self.anchor_of[e], self.chain_of[e]

    def reserve(self, ch: _Chain) -> None:
        """Keep the place straight ahead of ``ch``'s end free of other
        chains (while it fits), so that they turn away from its path rather
        than cut across it; nothing once the chain is done."""
        if not self.ahead:
            return
        b = ch.b
        if ch.i < len(ch.items):
            dbl = ch.items[ch.i][3]
        elif b.get("open") is not None and b["id"] in self.slots and b["id"] not in self.slot_of:
            dbl = False
        else:
            dbl = None
        r = None
        if dbl is not None:
            hl, hw = (0.5, 1.0) if dbl else (1.0, 0.5)
            ux, uy = _dir(ch.angle)
            d = _STEPS[(0, ch.prev_double, dbl)] + hl
            r = (ch.anchor[0] + d * ux, ch.anchor[1] + d * uy, ux, uy, hl, hw)
            x0, y0, x1, y1 = self.bounds
            ex, ey = hl * abs(ux) + hw * abs(uy), hl * abs(uy) + hw * abs(ux)
            if (r[0] - ex < x0 or r[0] + ex > x1 or r[1] - ey < y0 or r[1] + ey > y1
                    or not self.grid.free(r, ch.prev, ch.ghost)):
                r = None
        if r is None:
            if ch.ghost >= 0:
                self.grid.move(ch.ghost, _FAR)
        elif ch.ghost >= 0:
            self.grid.move(ch.ghost, r)
        else:
            ch.ghost = self.grid.add(r)
            self.grid.ghosts.add(ch.ghost)

    def add_slot(self, ch: _Chain, r: tuple, a: int, k: int | None = None) -> None:
        b = ch.b
        bid = b["id"]
        if k is None:
            k = self.grid.add(r)
        else:
            self.grid.move(k, r)
        self.slot_k[bid] = k
        self.slot_of[bid] = Piece(r[0], r[1], a, "", bid, len(ch.items), int(b["open"]), -1, False)
        self.anchor_of[bid] = ch.prev
        self.chain_of[bid] = ch

    def _spots(self, r: tuple) -> list:
        """Places for a number right at the open half of the tile ``r``."""
        g = self.r_units + 0.1
        ux, uy, hl = r[2], r[3], r[4]
        vx, vy = -uy, ux
        fx, fy = r[0] + (hl - 0.5) * ux, r[1] + (hl - 0.5) * uy    # the open half's centre
        d = 0.5 + g * 0.7072
        out = [(fx + (0.5 + g) * ux, fy + (0.5 + g) * uy)]
        for sg in (1, -1):
            out.append((fx + d * ux + sg * d * vx, fy + d * uy + sg * d * vy))
        for sg in (1, -1):
            out.append((fx + sg * (0.5 + g) * vx, fy + sg * (0.5 + g) * vy))
        return out

    def labels(self) -> dict | None:
        """Where every end's number goes, all tiles down: a slot whose
        number would lie unclear moves to its next place where it does
        not; None if some slot has none."""
        out = {}
        for bid, p in list(self.slot_of.items()):
            k, ch = self.slot_k[bid], self.chain_of[bid]
            at = self.label_at(bid, self.grid.rects[k], p.angle, ch.prev, k)
            if at is None and ch.i > 0:
                # elsewhere at its own open half: ahead, off its corners, beside it
                at = next((xy for xy in self._spots(self.grid.rects[ch.prev])
                           if self.label_ok(bid, xy[0], xy[1], ch.prev, k)), None)
            if at is None:
                for r, a in _places(self.grid, ch, False, self.bounds, k):
                    at = self.label_at(bid, r, a, ch.prev, k)
                    if at is not None:
                        self.add_slot(ch, r, a, k)
                        break
                else:
                    return None
            out[bid] = at
        items = list(out.values())
        lim = (2 * self.r_units) ** 2
        for i, (x, y) in enumerate(items):
            for x2, y2 in items[i + 1:]:
                if (x - x2) ** 2 + (y - y2) ** 2 < lim:
                    return None
        return out

    def advance(self, ch: _Chain, grown: list) -> bool:
        """Lay ``ch``'s next piece (a tile, or the slot of its open end);
        a double that ends its chain lays the first piece of each of its
        toes at once, where all three fit.  Chains that go on join
        ``grown``.  False: no place."""
        b = ch.b
        bid = b["id"]
        grid = self.grid
        if ch.i < len(ch.items):
            name, near, far, dbl = ch.items[ch.i]
            closes = dbl and ch.i == len(ch.items) - 1 and b.get("open") is None
            for r, a in _places(grid, ch, dbl, self.bounds, ch.ghost):
                m = self.mark()
                k = grid.add(r)
                p = Piece(r[0], r[1], a, name, bid, ch.i, near, far, dbl)
                self.pieces.append(p)
                if closes:
                    kids = [_Chain(cb, xy, ta, k) for cb, (xy, ta)
                            in zip(self.children.get(bid, []), _toe_starts(p.cx, p.cy, a, False))]
                    more: list = []
                    if not all(self.advance(kc, more) for kc in kids):
                        self.rollback(m)
                        continue
                    grown.extend(more)
                ch.i += 1
                ch.anchor = (r[0] + r[4] * r[2], r[1] + r[4] * r[3])
                ch.angle, ch.prev, ch.prev_double = a, k, dbl
                self.reserve(ch)
                if not closes:
                    grown.append(ch)
                return True
            return False
        if b.get("open") is not None and bid in self.slots:
            # the first place where its number is clear so far, else the first place
            first = None
            for r, a in _places(grid, ch, False, self.bounds, ch.ghost):
                if first is None:
                    first = (r, a)
                if self.label_at(bid, r, a, ch.prev, -1) is not None:
                    first = (r, a)
                    break
            if first is None:
                return False
            self.add_slot(ch, *first)
        self.reserve(ch)
        return True


def tree_units(lay: dict, bounds: tuple, slots: set, r_units: float = LABEL_SHARE,
               ahead: bool = False) -> tuple | None:
    """The foot in units inside ``bounds``: (pieces, slots by branch id,
    where each end's number goes by branch id), or None when some piece
    finds no place or some number would lie on a tile, or nearer another
    end than its own.  ``r_units``: the numbers' radius.  The chains grow
    together, one tile each in turn, so that no chain takes the room of
    another; a foot's toes start when its double is down.  ``ahead``: each
    chain keeps the place straight ahead of it free while it can (the
    others turn away from it where they have the choice)."""
    center = lay.get("center")
    if not center:
        return [], {}, {}
    if bounds[2] < 0.5 or bounds[3] < 1.0:
        return None
    children: dict = {}
    for b in lay.get("branches") or []:
        children.setdefault(b.get("parent"), []).append(b)
    t = _Tree(bounds, slots, children, r_units, ahead)
    ca, _ = halves(center)
    cpiece = Piece(0.0, 0.0, 0, center, "C", 0, ca, ca, True)
    ck = t.grid.add(_rect(cpiece))
    t.pieces.append(cpiece)
    active = [_Chain(b, xy, a, ck) for b, (xy, a) in zip(children.get(None, []), _toe_starts(0.0, 0.0, 0, True))]
    for ch in active:
        t.reserve(ch)
    while active:
        grown: list = []
        for ch in active:
            if not t.advance(ch, grown):
                return None
        active = grown
    labels = t.labels()
    if labels is None:
        return None
    pieces, slot_of = t.pieces, t.slot_of
    return pieces, slot_of, labels


# ----------------------------------------------------------------- rows
class _Seg(NamedTuple):
    bid: str
    items: list       # tile_items
    open: int | None
    slot: bool
    value: int        # the number it grows from
    first: bool       # the first toe of its double (may go straight on after it)


def _segments(lay: dict, slots: set) -> list[_Seg]:
    """Every branch in the tree's order: a branch, then the toes of its double."""
    branches = list(lay.get("branches") or [])
    children: dict = {}
    for b in branches:
        children.setdefault(b.get("parent"), []).append(b)
    ca, _ = halves(lay["center"])
    out: list[_Seg] = []
    stack = [(b, ca, k == 0) for k, b in reversed(list(enumerate(children.get(None, []))))]
    while stack:
        b, v, first = stack.pop()
        items = tile_items(b.get("tiles") or [])
        op = b.get("open")
        out.append(_Seg(b["id"], items, op, op is not None and b["id"] in slots, v, first))
        if op is None and items and items[-1][3]:
            kids = children.get(b["id"], [])
            stack.extend((cb, items[-1][2], k == 0) for k, cb in reversed(list(enumerate(kids))))
    return out


def _groups(seg: _Seg, hidden: int) -> list[list]:
    """A run's pieces in groups never cut by the end of a row:
    [[(kind, width, data)]]; a fold chip goes with the tile after it, the
    slot with the tile before it."""
    atoms: list = []
    if hidden:
        atoms.append(("fold", FOLD_W + FOLD_GAP, hidden))
    for i in range(hidden, len(seg.items)):
        atoms.append(("tile", 2.0, i))
    if seg.slot:
        atoms.append(("slot", 2.0, None))
    groups: list[list] = []
    for a in atoms:
        if groups and (groups[-1][-1][0] == "fold" or a[0] == "slot"):
            groups[-1].append(a)
        else:
            groups.append([a])
    return groups


def _flow(segs: list[_Seg], center: tuple, width_u: float, rows: int, hidden: dict,
          dense: bool) -> tuple | None:
    """The runs in rows ``width_u`` units long: ([(kind, row, x, seg, data)],
    rows used, longest row), or None if they need more than ``rows``."""
    out: list = [("tile", 0, 0.0, None, center)]
    row, x = 0, 2.0
    stub = STUB_W + STUB_GAP
    after = "C"      # whose double the row has just ended on
    for seg in segs:
        groups = _groups(seg, hidden.get(seg.bid, 0))
        widths = [sum(a[1] for a in g) for g in groups]
        # the first toe of a double goes straight on after it (in the tree's
        # order it comes right after the run its double ends)
        attached = seg.first and after is not None
        lead = 0.0 if attached else (SEG_GAP if x > 0 else 0.0) + stub
        need = lead + sum(widths)
        first_w = lead + (widths[0] if widths else 0.0)
        if x + need > width_u + 1e-9:
            # not all in this row: start it in the next (a whole run where it fits one)
            if not (dense and x + first_w <= width_u + 1e-9) or not widths:
                if x > 0:
                    row, x = row + 1, 0.0
                attached = False
                lead = stub
        if row >= rows:
            return None
        if not attached:
            out.append(("stub", row, x + (lead - stub), seg, False))
        x += lead
        for g, w in zip(groups, widths):
            if x + w > width_u + 1e-9 and x > stub + 1e-9:
                row, x = row + 1, 0.0
                if row >= rows:
                    return None
                out.append(("stub", row, x, seg, True))
                x += stub
            if x + w > width_u + 1e-9:
                return None
            for kind, aw, data in g:
                out.append((kind, row, x, seg, data))
                x += aw
        if not groups and x > width_u + 1e-9:
            return None
        after = seg.bid if (seg.open is None and seg.items and seg.items[-1][3]) else None
    longest = max(o[2] + (2.0 if o[0] in ("tile", "slot") else STUB_W if o[0] == "stub" else FOLD_W)
                  for o in out)
    return out, row + 1, longest


def _rows_fit(height_u: float) -> int:
    return max(0, int((height_u + ROW_GAP + 1e-9) // (1.0 + ROW_GAP)))


# ----------------------------------------------------------------- the plan
class FootPlan(NamedTuple):
    pieces: list     # [Piece] in px: cx, cy in board px
    slots: dict      # branch id -> Piece (px)
    unit: float
    labels: dict = {}    # branch id -> (x, y) px: where its number goes
    stubs: list = []     # [Stub] in px (rows)
    folds: list = []     # [Fold] in px (rows)
    mode: str = TREE


_CACHE: dict = {}


def plan(lay: dict, width: float, height: float, slots: set | None = None, top: float = 0.0,
         rows: bool = False) -> FootPlan:
    """The table at the largest unit that fits ``width`` x ``height`` px,
    below ``top`` px kept free (``rows``: in rows, whether the foot fits or
    not).  The last few plans are kept: a tap that only lights up places
    draws the same table again."""
    key = (json.dumps(lay, sort_keys=True), float(width), float(height),
           None if slots is None else tuple(sorted(slots)), float(top), rows)
    if key in _CACHE:
        return _CACHE[key]
    out = _plan(lay, width, height, slots, top, rows)
    if len(_CACHE) >= 8:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = out
    return out


def _label_r(u: float) -> float:
    """An end number's radius (px) at unit ``u``: never past its slot's
    free half, even on a board so small that its tiles are too."""
    return max(LABEL_SHARE * u, min(LABEL_R, 0.6 * u))


def _rows_plan(lay: dict, aw: float, ah: float, slots: set, allow_fold: bool = True) -> tuple | None:
    """(unit, placement, hidden) of the rows at the largest unit that fits,
    at least MIN_UNIT (folding runs if need be), or None with no folding
    allowed and no fit."""
    segs = _segments(lay, slots)
    ca, _ = halves(lay["center"])
    center = (lay["center"], ca, ca)
    least = min(MIN_UNIT, aw / (STUB_W + STUB_GAP + FOLD_W + FOLD_GAP + 4.0), ah / 1.2)

    def fits(s: float, hidden: dict, dense: bool):
        return _flow(segs, center, aw / s, _rows_fit(ah / s), hidden, dense)

    ladder = _ladder(min(FLOW_MAX, ah / 1.2, aw / 6.0), least, FLOW_LADDER)
    dense_at = _largest(ladder, lambda s: fits(s, {}, True))
    if dense_at is not None:
        s0, best = dense_at
        clean = [s for s in ladder if s0 * CLEAN_SHARE - 1e-9 <= s <= s0]
        got = _largest(clean, lambda s: fits(s, {}, False))
        return (got[0], got[1], {}) if got else (s0, best, {})
    if not allow_fold:
        return None
    # fold: the runs with the most tiles in view give up their first ones
    hidden: dict = {}
    s = least
    shown = {g.bid: len(g.items) for g in segs}
    while True:
        got = fits(s, hidden, True)
        if got:
            return s, got, hidden
        cand = [(shown[g.bid], g.bid) for g in segs if shown[g.bid] > 1]
        if not cand:
            s *= FLOW_LADDER      # nothing left to fold: smaller, as a last resort
            if s < 2.0:
                return s, fits(s, hidden, True) or ([], 1, 0.0), hidden
            continue
        n, bid = max(cand, key=lambda c: (c[0], c[1]))
        # as many as it takes to win some room, two at the least the first time
        step = 2 if not hidden.get(bid) and n > 2 else 1
        hidden[bid] = hidden.get(bid, 0) + step
        shown[bid] -= step


def _ladder(top: float, least: float, step: float) -> list[float]:
    """Unit sizes from ``top`` down by ``step``, the last at least ``least``
    (``least`` itself when ``top`` is smaller)."""
    out = [top]
    while out[-1] * step >= least - 1e-9:
        out.append(out[-1] * step)
    return out if top >= least else [least]


def _largest(ladder: list[float], attempt) -> tuple | None:
    """(unit, result) for the largest unit of ``ladder`` at which ``attempt``
    gives a result, taking a larger unit to fit whenever a smaller does:
    the smallest first (if that fails, none is tried again), then halving."""
    if not ladder:
        return None
    got = attempt(ladder[-1])
    if got is None:
        return None
    lo, hi, best = len(ladder) - 1, 0, (ladder[-1], got)
    while lo > hi:
        mid = (lo + hi) // 2
        got = attempt(ladder[mid])
        if got is not None:
            lo, best = mid, (ladder[mid], got)
        else:
            hi = mid + 1
    return best


#: Once a round's board turned to rows at a size, it stays in rows for the
#: rest of the round (near the point where the foot stops fitting it would
#: flip back and forth between moves): (round, width, height) -> the tiles
#: on the table when it turned.  A later position of the same round holds
#: all of those tiles; a new round, or a move taken back, does not.
_ROWS_SINCE: dict = {}


def _on_table(lay: dict) -> frozenset:
    return frozenset([lay.get("center")] + [t["tile"] for b in (lay.get("branches") or [])
                                                 for t in (b.get("tiles") or [])])


def round_plan(view: dict, width: float, height: float, top: float = 0.0) -> FootPlan:
    """:func:`plan` for the board of ``view``, in rows if it was in rows
    earlier in the round at this size."""
    lay = view.get("layout") or {}
    key = (tuple(view.get("names") or ()), view.get("hand_no"), lay.get("center"),
           round(float(width)), round(float(height)))
    tiles = _on_table(lay)
    since = _ROWS_SINCE.get(key)
    keep = since is not None and since <= tiles
    pl = plan(lay, width, height, top=top, rows=keep)
    if not keep:
        _ROWS_SINCE.pop(key, None)   # an earlier position (a move taken back), or another round
        if pl.mode == ROWS:
            if len(_ROWS_SINCE) >= 64:
                _ROWS_SINCE.pop(next(iter(_ROWS_SINCE)))
            _ROWS_SINCE[key] = tiles
    return pl


def _plan(lay: dict, width: float, height: float, slots: set | None, top: float,
          rows_only: bool = False) -> FootPlan:
    width, height = float(width), float(height) - top
    if slots is None:
        slots = {b["id"] for b in (lay.get("branches") or []) if b.get("open") is not None}
    if not lay.get("center"):
        return FootPlan([], {}, 0.0)
    aw, ah = max(1.0, width - 2 * MARGIN_PX), max(1.0, height - 2 * MARGIN_PX)
    rows = _rows_plan(lay, aw, ah, slots)
    s_rows = rows[0] if not rows[2] else 0.0
    n = 1 + sum(len(b.get("tiles") or []) for b in (lay.get("branches") or [])) + len(slots)
    floor = max(MIN_UNIT, min(TREE_GOOD, TREE_SHARE * s_rows)) if s_rows else math.inf
    # the foot: as large as fits, if that is large enough
    top_s = min(UNIT_MAX, min(aw, ah) / 7.0, math.sqrt(aw * ah / (AREA_PER_PIECE * n)))
    ladder = _ladder(top_s, floor, LADDER) if top_s >= floor - 1e-9 else []

    def attempt(s: float, ahead: bool):
        wu, hu = aw / s, ah / s
        return tree_units(lay, (-wu / 2, -hu / 2, wu / 2, hu / 2), slots, _label_r(s) / s, ahead)

    # at the least size first: without, then with, the chains keeping their
    # way ahead free; larger sizes only if it fitted without (a foot that
    # needed the help is not going to fit larger)
    if ladder and not rows_only:
        for ahead in (False, True):
            got = attempt(ladder[-1], ahead)
            if got is not None:
                best = (ladder[-1], got)
                if not ahead:
                    best = _largest(ladder[:-1], lambda s: attempt(s, False)) or best
                return _tree_px(best[1], best[0], width, height, top)
    return _rows_px(rows, width, height, top)


def _tree_px(got: tuple, s: float, width: float, height: float, top: float) -> FootPlan:
    pieces, slot_of, labels = got
    allp = pieces + list(slot_of.values())
    ru = _label_r(s) / s
    xs = [c[0] for p in allp for c in _corners(p)] + [x + d for x, _ in labels.values() for d in (-ru, ru)]
    ys = [c[1] for p in allp for c in _corners(p)] + [y + d for _, y in labels.values() for d in (-ru, ru)]
    ox = width / 2 - s * (min(xs) + max(xs)) / 2
    oy = top + height / 2 - s * (min(ys) + max(ys)) / 2

    def px(p: Piece) -> Piece:
        return p._replace(cx=round(ox + s * p.cx, 3), cy=round(oy + s * p.cy, 3))

    return FootPlan([px(p) for p in pieces], {k: px(v) for k, v in slot_of.items()}, s,
                    {k: (round(ox + s * x, 3), round(oy + s * y, 3)) for k, (x, y) in labels.items()},
                    [], [], TREE)


def _rows_px(rows: tuple, width: float, height: float, top: float) -> FootPlan:
    s, (placed, n_rows, longest), hidden = rows
    pitch = 1.0 + ROW_GAP
    ox = width / 2 - s * longest / 2
    oy = top + height / 2 - s * (n_rows * pitch - ROW_GAP) / 2
    pieces: list[Piece] = []
    slot_of: dict = {}
    labels: dict = {}
    stubs: list[Stub] = []
    folds: list[Fold] = []
    off = _label_off(_label_r(s) / s)
    for kind, row, x, seg, data in placed:
        cy = round(oy + s * (row * pitch + 0.5), 3)

        def at(w: float) -> float:
            return round(ox + s * (x + w / 2), 3)

        if kind == "tile":
            if seg is None:   # the centre double, lengthwise
                name, a, b = data
                pieces.append(Piece(at(2.0), cy, 0, name, "C", 0, a, b, False))
            else:
                name, near, far, _ = seg.items[data]
                pieces.append(Piece(at(2.0), cy, 0, name, seg.bid, data, near, far, False))
        elif kind == "slot":
            slot_of[seg.bid] = Piece(at(2.0), cy, 0, "", seg.bid, len(seg.items), int(seg.open), -1, False)
            labels[seg.bid] = (round(ox + s * (x + off), 3), cy)
        elif kind == "stub":
            value = seg.value
            if data:   # going on: the number of the tile before
                prev = [p for p in pieces if p.branch == seg.bid]
                value = prev[-1].far if prev else seg.value
            stubs.append(Stub(at(STUB_W), cy, seg.bid, value, bool(data)))
        elif kind == "fold":
            folds.append(Fold(at(FOLD_W), cy, seg.bid, data))
    return FootPlan(pieces, slot_of, s, labels, stubs, folds, ROWS)


# ----------------------------------------------------------------- drawing
_PARTS: dict = {}


def _piece_node(p: Piece, u: float, style: str, last: bool) -> Node:
    if p.double:
        w, h = u, 2 * u
        first = second = p.near
    else:
        w, h = 2 * u, u
        first, second = p.near, p.far
    # a tile is drawn round its own centre: the same tile at the same unit
    # is the same drawing (the next move's board mostly keeps its unit)
    key = (w, h, first, second, style, last)
    parts = _PARTS.get(key)
    if parts is None:
        if len(_PARTS) > 600:
            _PARTS.clear()
        parts = _PARTS[key] = tile_parts(-w / 2, -h / 2, w, h, first, second, style, last)
    return ("g", {"class": "tile last" if last else "tile", "data-tile": p.tile, "data-arm": p.branch,
                  "data-index": str(p.index),
                  "transform": f"translate({num(p.cx)} {num(p.cy)}) rotate({p.angle % 360})"}, list(parts))


def _stub_node(st: Stub, u: float, style: str) -> Node:
    """A faded half: the number a run grows from (or goes on from)."""
    x, y = st.cx - u / 2, st.cy - u / 2
    ins = 0.06 * u
    parts: list = [("rect", {"x": num(x + ins), "y": num(y + ins), "width": num(u - 2 * ins),
                             "height": num(u - 2 * ins), "rx": num(0.13 * u), "fill": IVORY,
                             "fill-opacity": "0.28", "stroke": IVORY, "stroke-opacity": "0.75",
                             "stroke-width": num(max(1.0, 0.05 * u)),
                             "stroke-dasharray": f"{num(0.16 * u)} {num(0.1 * u)}"}, [])]
    r = (0.095 if st.value <= 9 else 0.072) * u
    fill = pip_colour(st.value, style)
    for cx, cy in pip_layout(st.value):
        parts.append(("circle", {"cx": num(x + cy * u), "cy": num(y + cx * u), "r": num(r), "fill": fill,
                                      "fill-opacity": "0.8"}, []))
    return ("g", {"class": "stub cont" if st.cont else "stub", "data-arm": st.branch,
                  "data-from": str(st.value), "aria-hidden": "true"}, parts)


def _fold_node(f: Fold, u: float) -> Node:
    cw, ch = FOLD_W * u, 0.9 * u
    return ("g", {"class": "fold", "data-arm": f.branch, "data-hidden": str(f.hidden)}, [
        ("rect", {"x": num(f.cx - cw / 2), "y": num(f.cy - ch / 2), "width": num(cw), "height": num(ch),
                  "rx": num(0.3 * u), "fill": IVORY, "fill-opacity": "0.85", "stroke": OUTLINE,
                  "stroke-width": "1"}, []),
        ("text", {"x": num(f.cx), "y": num(f.cy + 0.5), "font-size": num(max(10.0, 0.55 * u)), "fill": OUTLINE,
                  "text-anchor": "middle", "dominant-baseline": "central", "font-weight": "800",
                  "font-family": "system-ui, sans-serif"}, [f"+{f.hidden}"]),
    ])


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


def place_keys(ends) -> dict:
    """The letter of each place of a selected tile (branch order) when it
    has two or more: the board marks each place with its letter and the
    table lists the places as buttons under the board ("A  on the 3"),
    44 px whatever the board's size -- toes of a crowded board end ~29 px
    apart on a phone.  {} with a single place (the tile is played at once)."""
    ends = sorted(ends, key=lambda e: int(e.split(":")[1]))
    if len(ends) < 2:
        return {}
    return {e: chr(ord("A") + i) if i < 26 else str(i + 1) for i, e in enumerate(ends)}


def place_id(end: str) -> str:
    """The id of a place's button under the board (the board's mark names it)."""
    return "place-" + end.replace(":", "-")


def board(view: dict, width: float, height: float, *, style: str = "coloured",
          targets: dict | None = None, highlight: str | None = None, me: int | None = None,
          texts: dict | None = None) -> Node:
    width, height = float(width), float(height)
    lay = view.get("layout") or {}
    tx = texts or {}
    children: list = [
        ("rect", {"class": "felt", "x": "0", "y": "0", "width": num(width), "height": num(height),
                  "fill": FELT, "stroke": FELT_EDGE, "stroke-width": "2"}, []),
    ]
    svg_attrs = {"class": "board foot-board", "viewBox": f"0 0 {num(width)} {num(height)}",
                 "width": "100%", "height": "100%", "preserveAspectRatio": "xMidYMid meet",
                 "role": "group", "aria-label": "Table"}
    if not lay.get("center"):
        return ("svg", svg_attrs, children)
    must = set(lay.get("must") or [])
    fs = max(11.0, min(15.0, 0.035 * height))
    banner = 4 + fs * 1.7 if must and tx.get("must") else 0.0
    pl = round_plan(view, width, height, top=banner)
    u = pl.unit
    svg_attrs["data-layout"] = pl.mode
    last = highlight if highlight is not None else view.get("last")
    tiles = [_piece_node(p, u, style, p.tile == last) for p in pl.pieces]
    tiles.sort(key=lambda g: g[1]["class"] == "tile last")
    if pl.stubs or pl.folds:
        children.append(("g", {"class": "stubs"}, [_stub_node(st, u, style) for st in pl.stubs]
                         + [_fold_node(f, u) for f in pl.folds]))
    children.append(("g", {"class": "tiles"}, tiles))
    # every open end: its number where the next tile goes, right after its end
    marks = []
    branches = {b["id"]: b for b in (lay.get("branches") or [])}
    r = _label_r(u)
    for bid, p in sorted(pl.slots.items(), key=lambda kv: int(kv[0].split(":")[1])):
        b = branches.get(bid) or {}
        x, y = pl.labels.get(bid, (p.cx, p.cy))
        fill = MUST if bid in must else IVORY
        marks.append(("g", {"class": "open-end" + (" must" if bid in must else ""), "data-branch": bid,
                            "data-end-value": str(b.get("open"))}, [
            ("circle", {"cx": num(x), "cy": num(y), "r": num(r), "fill": fill, "fill-opacity": "0.92",
                        "stroke": OUTLINE, "stroke-width": "1.2"}, []),
            ("text", {"x": num(x), "y": num(y + 0.5), "font-size": num(1.2 * r), "fill": "#111",
                      "text-anchor": "middle", "dominant-baseline": "central", "font-weight": "800",
                      "font-family": "system-ui, sans-serif"}, [str(b.get("open"))]),
        ]))
    children.append(("g", {"class": "open-ends"}, marks))
    if banner:
        wtxt = tx["must"]
        bs = max(8.0, min(fs, (width - 28) / text_width(wtxt, 1.0, "800")))   # shrinks to fit
        pw = min(width - 12, text_width(wtxt, bs, "800") + 16)
        children.append(("g", {"class": "must-banner", "data-testid": "open-double"}, [
            ("rect", {"x": num(width / 2 - pw / 2), "y": "4", "width": num(pw), "height": num(bs * 1.7),
                      "rx": num(bs * 0.85), "fill": MUST, "stroke": "#fff", "stroke-width": "1.5"}, []),
            ("text", {"x": num(width / 2), "y": num(4 + bs * 0.85), "font-size": num(bs), "fill": "#1b0a05",
                      "text-anchor": "middle", "dominant-baseline": "central", "font-weight": "800",
                      "font-family": "system-ui, sans-serif"}, [wtxt]),
        ]))
    if targets:
        want = {e: lab for e, lab in targets.items() if e in pl.slots}
        hits = hit_areas({e: pl.slots[e] for e in want}, u)
        keys = place_keys(want)
        tg = []
        for e in sorted(want):
            p = pl.slots[e]
            hit = hits[e]
            ins = 0.06 * u
            w, h = 2 * u, u
            # with a list of the places under the board, a mark is a shortcut for
            # the pointer, hidden from the keyboard and screen readers
            attrs = ({"class": "target", "data-end": e, "data-key": keys[e], "data-equiv": place_id(e),
                      "aria-hidden": "true"} if e in keys else
                     {"class": "target", "data-end": e, "role": "button", "tabindex": "0", "aria-label": want[e]})
            letter = []
            if e in keys:   # on the slot's far half: its number is on the near one
                dx, dy = _dir(p.angle)
                fs = max(9.0, 0.62 * u)
                letter = [("text", {"class": "target-key", "x": num(p.cx + 0.5 * u * dx),
                                         "y": num(p.cy + 0.5 * u * dy + 0.5), "font-size": num(fs),
                                         "fill": "#fff", "stroke": "#111", "stroke-width": num(0.18 * fs),
                                         "paint-order": "stroke", "text-anchor": "middle",
                                         "dominant-baseline": "central", "font-weight": "900",
                                         "font-family": "system-ui, sans-serif"}, [keys[e]])]
            tg.append(("g", attrs, [
                ("rect", {"class": "target-hit", "x": num(hit[0]), "y": num(hit[1]), "width": num(hit[2]),
                          "height": num(hit[3]), "fill": "#fff", "fill-opacity": "0",
                          "pointer-events": "all"}, []),
                ("g", {"transform": f"translate({num(p.cx)} {num(p.cy)}) rotate({p.angle % 360})"}, [
                    ("rect", {"class": "target-mark", "x": num(-w / 2 + ins), "y": num(-h / 2 + ins),
                              "width": num(w - 2 * ins), "height": num(h - 2 * ins), "rx": num(0.16 * u),
                              "fill": TARGET, "fill-opacity": "0.3", "stroke": TARGET,
                              "stroke-width": num(max(1.5, 0.08 * u)),
                              "stroke-dasharray": f"{num(0.22 * u)} {num(0.14 * u)}"}, []),
                ]),
            ] + letter))
        children.append(("g", {"class": "targets"}, tg))
    return ("svg", svg_attrs, children)
