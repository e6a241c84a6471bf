"""Chicken Foot's table laid out as *the foot*: the round's double in the
middle with its six toes, later doubles growing three toes each, chains
running in eight directions and turning away from other tiles and the
table's edge (see :mod:`domino.app.boards.foot`, which chooses between this
layout and rows, and draws either).  In units (a tile is 2 x 1); pure
geometry, no drawing: :func:`tree_units` gives the pieces, the slot of each
open toe and where its number goes.  Also the geometry of one piece
(:class:`Piece`, :func:`direction`, :func:`squares`, :func:`corners`) that
the rows and the drawing share."""
from __future__ import annotations

import math
from typing import NamedTuple

from domino.app.boards.tiles import halves
from domino.app.boards.trains import tile_items

CLEAR = 0.12           # units of felt between tiles that do not touch (the foot)
LABEL_SHARE = 0.42     # an end's number is at least this share of the unit round (radius) ...
#: the six toes of the centre double: E, W, then the diagonals
CENTER_TOES = (0, 180, -45, 135, 45, 225)


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


_DIRS = {a: (round(math.cos(math.radians(a)), 9), round(math.sin(math.radians(a)), 9))
         for a in range(0, 360, 45)}


def direction(a: float) -> tuple[float, float]:
    d = _DIRS.get(int(a) % 360) if a == int(a) else None
    if d is None:
        r = math.radians(a)
        d = (round(math.cos(r), 9), round(math.sin(r), 9))
    return d


def squares(p: Piece) -> list[tuple[float, float]]:
    dx, dy = direction(p.angle)
    if p.double:   # crosswise: the halves side by side across the chain
        px, py = -dy, dx
        return [(p.cx + 0.5 * px, p.cy + 0.5 * py), (p.cx - 0.5 * px, p.cy - 0.5 * py)]
    return [(p.cx - 0.5 * dx, p.cy - 0.5 * dy), (p.cx + 0.5 * dx, p.cy + 0.5 * dy)]


def corners(p: Piece) -> list[tuple[float, float]]:
    dx, dy = direction(p.angle)
    px, py = -dy, dx
    along, across = (0.5, 1.0) if p.double else (1.0, 0.5)
    return [(p.cx + sa * along * dx + sc * across * px, p.cy + sa * along * dy + sc * across * py)
            for sa in (-1, 1) for sc in (-1, 1)]


def label_off(r_units: float) -> float:
    """How far past its tile's end an end's number sits (units): on the
    free half, clear of the tile."""
    return max(0.5, r_units + 0.1)


# A rectangle: (cx, cy, ux, uy, half length, half width), u the direction of travel.
def _rect(p: Piece) -> tuple:
    ux, uy = direction(p.angle)
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
    ux, uy = direction(turn)
    nl, nw = (0.5, 1.0) if new_double else (1.0, 0.5)
    for k in range(0, 13):
        d = 0.1 * k
        r = (ux * (d + nl), uy * (d + nl), ux, uy, nl, nw)
        if not _apart(prev, r, 0.0):
            continue
        pa = squares(Piece(prev[0], 0.0, 0, "", "", 0, 0, 0, prev_double))
        pb = squares(Piece(r[0], r[1], turn, "", "", 0, 0, 0, new_double))
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
        dx, dy = direction(a)
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
        ux, uy = direction(a)
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
        ux, uy = direction(a)
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
        ux, uy = direction(a)
        off = label_off(self.r_units) - 1.0
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
            ux, uy = direction(ch.angle)
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
