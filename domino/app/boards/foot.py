"""Chicken Foot's table as SVG: the tree of toes while it fits, rows when it does not.

A pure function from a seat view (``shape == "foot"``) to an element tree.
The foot's layout is :mod:`domino.app.boards.foot_tree`'s; the rows, the
choice between the two and the drawing are here.
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

from domino.app.boards.foot_tree import LABEL_SHARE, Piece, corners, direction, label_off, tree_units
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
ROW_GAP = 0.45         # units between rows
SEG_GAP = 0.5          # units between two runs in a row
STUB_W, STUB_GAP = 1.0, 0.1
FOLD_W, FOLD_GAP = 1.4, 0.1
LABEL_R = 8.5          # px: an end's number is at least this round (radius), or LABEL_SHARE of the unit
AREA_PER_PIECE = 5.0   # square units a piece of the foot needs at the least
MUST = "#ff6b4a"
TREE, ROWS = "foot", "rows"


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
    xs = [c[0] for p in allp for c in corners(p)] + [x + d for x, _ in labels.values() for d in (-ru, ru)]
    ys = [c[1] for p in allp for c in corners(p)] + [y + d for _, y in labels.values() for d in (-ru, ru)]
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
    off = label_off(_label_r(s) / s)
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
                dx, dy = direction(p.angle)
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
