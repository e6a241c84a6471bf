"""The line board (Draw, Block, All Fives, Matador, ... and Frijolito's
table) as SVG: a pure function from a seat view to an element tree.
The tiles themselves are drawn by :mod:`domino.app.boards.tiles`.

Layout (:func:`plan`, :func:`place`) works in *units*: a tile is 2 x 1 units,
a double lies crosswise.  The line runs horizontally through the pivot (the
spinner, or the center tile).  Each arm is a chain: a tile is laid straight on
while there is room, and turns 90 degrees, then back (a serpentine), when it
would come too near the edge.  With a spinner the four arms share the table
like a pinwheel: W wraps upwards left of the pivot, N wraps rightwards above
the line, E wraps downwards right of the pivot, S wraps leftwards below the
line, so arms never cross.  Without one, W uses everything above the line and
E everything below.  Doubles never turn a corner; a tile after a double turns
off the double's end, as the N/S arms leave the spinner.  The unit size is the
largest step of a fixed ladder (at most 46 px, at most 1/10 of the board's
shorter side) for which the whole drawing, with a slot for the next tile on
every end, fits the board without overlaps; a step or a few smaller is taken
rather than a zigzag (a row that turns again before laying a tile straight).
Room left over is then handed back to the limits, and the drawing centred.
The slots are where :func:`board` draws its targets, so a target is exactly
where a (non-double) tile played on that end will lie.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from domino.app.boards.tiles import (FELT, FELT_EDGE, GOLD, LABEL_BG, OUTLINE, TARGET, Node, halves, num,
                                     tile_parts)

# ----- layout -----------------------------------------------------------------
class Placed(NamedTuple):
    """One tile on the board.  (x, y) is the top-left corner and (w, h) the
    size of its axis-aligned rectangle, in board coordinates (CSS px of the
    viewBox "0 0 width height").  ``rotation`` is the direction the chain
    travels at this tile (0 east, 90 south, 180 west, 270 north: SVG degrees):
    the touching half ``near`` is at the start of that direction, the open half
    ``far`` at its end (a double lies crosswise, both halves the same).  The
    center tile has rotation 0 with its first number (the W end) on the left.
    For a target slot ``tile`` is "" and ``index`` is the arm's length."""
    x: float
    y: float
    w: float
    h: float
    rotation: int
    tile: str
    arm: str
    index: int
    near: int = -1
    far: int = -1
    double: bool = False


class Plan(NamedTuple):
    tiles: list        # [Placed]
    targets: dict      # end id -> Placed (slot for the next tile on that end)
    unit: float        # px per unit (a tile is 2 x 1 units)
    width: float
    height: float


E_, S_, W_, N_ = (1, 0), (0, 1), (-1, 0), (0, -1)
_ANGLE = {E_: 0, S_: 90, W_: 180, N_: 270}
_NEG = {E_: W_, W_: E_, N_: S_, S_: N_}

# The ladder of unit sizes (px): the largest that fits wins.
UNIT_MAX = 46.0
UNIT_MIN = 1.0
LADDER = 0.93
MARGIN_PX = 6.0
MARGIN_U = 0.4  # around the drawing, in units (the last-tile marker sticks out)
UNIT_SHARE = 10.0  # the unit is at most 1/10 of the board's shorter side
ZIGZAG_GIVE = 0.7  # shrink down to 70% to avoid a zigzag, no further
ROW_GAP = 0.5  # a corner tile is set this far out (units): rows 2.5 apart, 1.5 of felt between


def _rect(cx: float, cy: float, d: tuple, length: float, across: float) -> tuple:
    if d[1] == 0:
        w, h = length, across
    else:
        w, h = across, length
    return (cx - w / 2, cy - h / 2, w, h)


def _chain(tiles: list, start: tuple, d: tuple, step: tuple, lim: dict, free: int,
           prev_double: bool, out: list) -> int:
    """Lay one arm.  ``tiles``: [(name, near, far, double)], the last may be the
    target slot (name ""); ``start`` the cursor (midpoint of the open edge of
    the tile the arm grows from); ``d`` the first run's direction; ``step`` the
    direction to wrap towards; ``lim[dir]`` the farthest any tile may reach
    along dir (coordinate along dir); the first ``free`` tiles go straight.
    Appends (rect, direction, item index) to ``out``; returns the number of
    zigzags (a run that turns again before laying any tile straight)."""
    cx, cy = start
    run = d
    mode_run = True
    straight = 0
    zigzags = 0
    for i, (name, near, far, dbl) in enumerate(tiles):
        dx, dy = d
        if mode_run and i >= free:
            pos = cx * dx + cy * dy
            room = lim[d] - pos
            if dbl:
                turn = False
            else:
                turn = room < 3
        elif mode_run:
            turn = False
        else:
            turn = not dbl
        if not turn:
            if dbl:
                r = _rect(cx + dx * 0.5, cy + dy * 0.5, d, 1.0, 2.0)
                cx, cy = cx + dx, cy + dy
            else:
                r = _rect(cx + dx, cy + dy, d, 2.0, 1.0)
                cx, cy = cx + 2 * dx, cy + 2 * dy
            out.append((r, d, i))
            prev_double = dbl
            if mode_run:
                straight += 1
            continue
        p = step if mode_run else _NEG[run]
        px, py = p
        if prev_double:
            # turn off the end of the double: centre of the double, then its end
            mx, my = cx - dx * 0.5, cy - dy * 0.5
            r = _rect(mx + px * 2, my + py * 2, p, 2.0, 1.0)
            cx, cy = mx + px * 3, my + py * 3
        else:
            # the touching half sits in front of the previous tile's open
            # half; turning out of a row it is set ROW_GAP further on, so
            # the rows of a serpentine keep room between them
            g = ROW_GAP if mode_run else 0.0
            mx, my = cx + dx * 0.5, cy + dy * 0.5
            r = _rect(mx + px * (0.5 + g), my + py * (0.5 + g), p, 2.0, 1.0)
            cx, cy = mx + px * (1.5 + g), my + py * (1.5 + g)
        out.append((r, p, i))
        d = p
        prev_double = False
        if mode_run:
            mode_run = False
            if straight == 0:
                zigzags += 1
        else:
            mode_run = True
            run = p
            straight = 0
    return zigzags


def _arm_items(arm: list, with_slot: bool) -> list:
    items = []
    for t in arm:
        a, b = halves(t["tile"])
        far = int(t["out"])
        near = b if a == far else a
        items.append((t["tile"], near, far, a == b))
    if with_slot:
        last_far = items[-1][2] if items else -1
        items.append(("", last_far, -1, False))
    return items


def _layout_units(layout: dict, wu: float, hu: float, fx: float, fy: float,
                  slots: tuple) -> tuple:
    """Everything in units with the line at y = 0.  Returns (records, bbox,
    zigzags) with records [(rect, direction, arm, index, item)]."""
    center = layout["center"]
    arms = layout.get("arms") or {}
    spinner = layout.get("spinner")
    ca, cb = halves(center)
    cdbl = ca == cb
    recs: list = []
    zigzags = 0
    if cdbl:
        crect = (-0.5, -1.0, 1.0, 2.0)
        wstart, estart = (-0.5, 0.0), (0.5, 0.0)
    else:
        crect = (-1.0, -0.5, 2.0, 1.0)
        wstart, estart = (-1.0, 0.0), (1.0, 0.0)
    recs.append((crect, E_, "C", 0, (center, ca, cb, cdbl)))
    items = {e: _arm_items(arms.get(e) or [], e in slots) for e in ("W", "E", "N", "S")}

    # the pivot: where the line crosses the N/S arms
    sp_arm = spinner["arm"] if spinner else None
    sp_idx = int(spinner["index"]) if spinner else -1
    free = {"W": 0, "E": 0}
    if sp_arm in ("W", "E"):
        x = wstart[0] if sp_arm == "W" else estart[0]
        sign = -1 if sp_arm == "W" else 1
        for name, near, far, dbl in items[sp_arm][:sp_idx]:
            x += sign * (1.0 if dbl else 2.0)
        xp = x + sign * 0.5
        free[sp_arm] = sp_idx + 1
    else:
        xp = 0.0
    xl, xr = xp - fx * wu, xp + (1.0 - fx) * wu
    yt, yb = -fy * hu, (1.0 - fy) * hu
    pin = spinner is not None
    lims = {
        "W": {W_: -xl, E_: (xp - 1.0) if pin else xr},
        "E": {E_: xr, W_: -(xp + 1.0) if pin else -xl},
        "N": {N_: -yt, S_: -1.0},
        "S": {S_: yb, N_: -1.0},
    }
    for e, start, d, step, pd in (("W", wstart, W_, N_, cdbl and not pin),
                                  ("E", estart, E_, S_, cdbl and not pin)):
        out: list = []
        zigzags += _chain(items[e], start, d, step, lims[e], free[e], pd, out)
        for r, dd, i in out:
            recs.append((r, dd, e, i, items[e][i]))
    if pin:
        if sp_arm == "C":
            srect = crect
        else:
            srect = next(r for r, dd, e, i, it in recs if e == sp_arm and i == sp_idx)
        mx = srect[0] + srect[2] / 2
        top, bottom = srect[1], srect[1] + srect[3]
        for e, start, d, step in (("N", (mx, top), N_, E_), ("S", (mx, bottom), S_, W_)):
            out = []
            zigzags += _chain(items[e], start, d, step, lims[e], 0, False, out)
            for r, dd, i in out:
                recs.append((r, dd, e, i, items[e][i]))
    x0 = min(r[0][0] for r in recs)
    y0 = min(r[0][1] for r in recs)
    x1 = max(r[0][0] + r[0][2] for r in recs)
    y1 = max(r[0][1] + r[0][3] for r in recs)
    return recs, (x0, y0, x1, y1), zigzags


def _overlaps(recs: list) -> bool:
    rs = sorted((r[0] for r in recs), key=lambda q: q[0])
    eps = 1e-6
    n = len(rs)
    for i in range(n):
        ax, ay, aw, ah = rs[i]
        ax1, ay1 = ax + aw - eps, ay + ah - eps
        for j in range(i + 1, n):
            bx, by, bw, bh = rs[j]
            if bx >= ax1:
                break
            if by < ay1 and ay + eps < by + bh and ax + eps < bx + bw:
                return True
    return False


def _candidates(layout: dict) -> list:
    if not layout.get("spinner"):
        return [(0.5, 0.5), (0.3, 0.5), (0.7, 0.5)]
    arms = layout.get("arms") or {}
    n = {e: len(arms.get(e) or []) + 1 for e in "WENS"}
    # left of the pivot: W rows and S columns; above the line: W rows and N columns
    gx = (n["W"] + n["S"]) / (n["W"] + n["S"] + n["E"] + n["N"])
    gy = (n["W"] + n["N"]) / (n["W"] + n["S"] + n["E"] + n["N"])
    gx = min(0.7, max(0.3, gx))
    gy = min(0.7, max(0.3, gy))
    out = []
    for fx in (gx, 0.5, gx - 0.12, gx + 0.12):
        for fy in (gy, 0.5, gy - 0.12, gy + 0.12):
            c = (round(fx, 3), round(fy, 3))
            if c not in out and 0.15 <= c[0] <= 0.85 and 0.15 <= c[1] <= 0.85:
                out.append(c)
    return out


def plan(layout: dict, width: float, height: float, share: float = UNIT_SHARE) -> Plan:
    """Place every tile of ``layout`` and a slot for the next tile on every
    end (W, E, and N, S when there is a spinner) on a ``width`` x ``height``
    board (CSS px), as large as fits, the unit at most 1/``share`` of the
    board's shorter side."""
    width = float(width)
    height = float(height)
    if not layout or layout.get("center") is None:
        return Plan([], {}, 0.0, width, height)
    slots = ("W", "E", "N", "S") if layout.get("spinner") else ("W", "E")
    arms = layout.get("arms") or {}
    n = 1 + sum(len(arms.get(e) or []) for e in "WENS") + len(slots)
    avail_w = max(1.0, width - 2 * MARGIN_PX)
    avail_h = max(1.0, height - 2 * MARGIN_PX)
    top = min(UNIT_MAX, min(avail_w, avail_h) / share)
    # skip ladder steps that cannot fit: a serpentine needs ~4 square units a tile
    est = math.sqrt(avail_w * avail_h / (4.0 * n)) * 1.3
    k = 0
    while top * LADDER ** k > est and top * LADDER ** (k + 1) >= UNIT_MIN:
        k += 1
    cands = _candidates(layout)
    chosen = fallback = None
    while True:
        s = top * LADDER ** k
        wu = avail_w / s - 2 * MARGIN_U
        hu = avail_h / s - 2 * MARGIN_U
        for fx, fy in cands:
            recs, bb, zz = _layout_units(layout, wu, hu, fx, fy, slots)
            if bb[2] - bb[0] <= wu + 1e-9 and bb[3] - bb[1] <= hu + 1e-9 and not _overlaps(recs):
                if zz == 0:
                    chosen = (s, recs, bb, fx, fy, zz)
                    break
                if fallback is None:
                    fallback = (s, recs, bb, fx, fy, zz)
        # a little smaller rather than zigzag; but not much smaller
        if chosen or s * LADDER < UNIT_MIN or (fallback and s * LADDER < fallback[0] * ZIGZAG_GIVE):
            break
        k += 1
    chosen = chosen or fallback
    if chosen is not None:
        # hand the room left over back to the limits, so arms wrap later
        s, recs, bb, fx, fy, zz0 = chosen
        wu = avail_w / s - 2 * MARGIN_U
        hu = avail_h / s - 2 * MARGIN_U
        lw, lh = wu, hu
        for _ in range(3):
            slack_w, slack_h = wu - (bb[2] - bb[0]), hu - (bb[3] - bb[1])
            if slack_w < 0.5 and slack_h < 0.5:
                break
            lw, lh = lw + slack_w, lh + slack_h
            r2, b2, z2 = _layout_units(layout, lw, lh, fx, fy, slots)
            if (b2[2] - b2[0] > wu + 1e-9 or b2[3] - b2[1] > hu + 1e-9 or z2 > zz0
                    or _overlaps(r2)):
                break
            recs, bb = r2, b2
        chosen = (s, recs, bb)
    if chosen is None:  # never expected: squeeze the last try in
        recs, bb, zz = _layout_units(layout, wu, hu, cands[0][0], cands[0][1], slots)
        s = min(avail_w / (bb[2] - bb[0] + 2 * MARGIN_U), avail_h / (bb[3] - bb[1] + 2 * MARGIN_U))
        chosen = (s, recs, bb)
    s, recs, (x0, y0, x1, y1) = chosen
    ox = width / 2 - s * (x0 + x1) / 2
    oy = height / 2 - s * (y0 + y1) / 2
    tiles: list = []
    targets: dict = {}
    for (rx, ry, rw, rh), d, arm, idx, (name, near, far, dbl) in recs:
        # round the edges (not the sizes), so touching tiles stay touching
        px0, py0 = round(ox + s * rx, 3), round(oy + s * ry, 3)
        px1, py1 = round(ox + s * (rx + rw), 3), round(oy + s * (ry + rh), 3)
        p = Placed(px0, py0, round(px1 - px0, 3), round(py1 - py0, 3), _ANGLE[d], name, arm, idx,
                   near, far, dbl)
        if name:
            tiles.append(p)
        else:
            targets[arm] = p
    return Plan(tiles, targets, s, width, height)


def place(layout: dict, width: float = 1000.0, height: float = 600.0) -> list:
    """The tiles of ``layout`` as :class:`Placed`, in board px for a
    ``width`` x ``height`` board (center first, then W, E, N, S outwards)."""
    return plan(layout, width, height).tiles


# ----- the board --------------------------------------------------------------
def _grow(rect: tuple, minimum: float) -> list:
    x, y, w, h = rect
    if w < minimum:
        x -= (minimum - w) / 2
        w = minimum
    if h < minimum:
        y -= (minimum - h) / 2
        h = minimum
    return [x, y, w, h]


def _hit_areas(targets: dict, minimum: float = 44.0) -> dict:
    """Tap areas at least ``minimum`` px a side where possible, cut back so
    that two targets' areas never overlap."""
    hits = {e: _grow((p.x, p.y, p.w, p.h), minimum) for e, p in targets.items()}
    ends = sorted(hits)
    for i, a in enumerate(ends):
        for b in ends[i + 1:]:
            ra, rb = hits[a], hits[b]
            ox = min(ra[0] + ra[2], rb[0] + rb[2]) - max(ra[0], rb[0])
            oy = min(ra[1] + ra[3], rb[1] + rb[3]) - max(ra[1], rb[1])
            if ox <= 0 or oy <= 0:
                continue
            pa, pb = targets[a], targets[b]
            cax, cay = pa.x + pa.w / 2, pa.y + pa.h / 2
            cbx, cby = pb.x + pb.w / 2, pb.y + pb.h / 2
            # split along the axis where the slots are further apart
            if abs(cax - cbx) - (pa.w + pb.w) / 2 >= abs(cay - cby) - (pa.h + pb.h) / 2:
                lo, hi = (ra, rb) if cax <= cbx else (rb, ra)
                plo, phi = (pa, pb) if cax <= cbx else (pb, pa)
                mid = ((plo.x + plo.w) + phi.x) / 2
                mid = max(plo.x + plo.w, min(phi.x, mid))
                lo[2] = max(plo.x + plo.w, min(lo[0] + lo[2], mid)) - lo[0]
                nx = min(phi.x, max(hi[0], mid))
                hi[2] = hi[0] + hi[2] - nx
                hi[0] = nx
            else:
                lo, hi = (ra, rb) if cay <= cby else (rb, ra)
                plo, phi = (pa, pb) if cay <= cby else (pb, pa)
                mid = ((plo.y + plo.h) + phi.y) / 2
                mid = max(plo.y + plo.h, min(phi.y, mid))
                lo[3] = max(plo.y + plo.h, min(lo[1] + lo[3], mid)) - lo[1]
                ny = min(phi.y, max(hi[1], mid))
                hi[3] = hi[1] + hi[3] - ny
                hi[1] = ny
    return hits


def _placed_tile(p: Placed, style: str, last: bool) -> Node:
    if p.double:
        first = second = p.near
    elif p.rotation in (0, 90):
        first, second = p.near, p.far
    else:
        first, second = p.far, p.near
    parts = tile_parts(p.x, p.y, p.w, p.h, first, second, style, last)
    if last:
        hs = min(p.w, p.h)
        r = 0.2 * hs
        mx, my = p.x + p.w - 0.12 * hs, p.y + 0.12 * hs
        parts.append(("circle", {"class": "last-marker", "cx": num(mx), "cy": num(my),
                                 "r": num(r), "fill": GOLD, "stroke": OUTLINE,
                                 "stroke-width": num(0.05 * hs)}, []))
        parts.append(("circle", {"class": "last-marker-dot", "cx": num(mx), "cy": num(my),
                                 "r": num(r * 0.38), "fill": OUTLINE}, []))
    attrs = {"class": "tile last" if last else "tile", "data-tile": p.tile,
             "data-arm": p.arm, "data-index": str(p.index)}
    return ("g", attrs, parts)


def _target(end: str, label: str, p: Placed, hit: list, unit: float) -> Node:
    ins = 0.06 * unit
    return ("g", {"class": "target", "data-end": end, "role": "button", "tabindex": "0",
                  "aria-label": label}, [
        ("rect", {"class": "target-hit", "x": num(hit[0]), "y": num(hit[1]),
                  "width": num(hit[2]), "height": num(hit[3]), "fill": "#fff",
                  "fill-opacity": "0", "pointer-events": "all"}, []),
        ("rect", {"class": "target-mark", "x": num(p.x + ins), "y": num(p.y + ins),
                  "width": num(p.w - 2 * ins), "height": num(p.h - 2 * ins),
                  "rx": num(0.16 * unit), "fill": TARGET, "fill-opacity": "0.22",
                  "stroke": TARGET, "stroke-width": num(max(1.5, 0.08 * unit)),
                  "stroke-dasharray": f"{num(0.22 * unit)} {num(0.14 * unit)}"}, []),
        ("circle", {"class": "target-dot", "cx": num(p.x + p.w / 2), "cy": num(p.y + p.h / 2),
                    "r": num(0.14 * unit), "fill": TARGET}, []),
        # the keyboard focus ring (shown by the stylesheet on :focus)
        ("rect", {"class": "target-ring", "x": num(p.x - 2), "y": num(p.y - 2),
                  "width": num(p.w + 4), "height": num(p.h + 4), "rx": num(0.2 * unit),
                  "fill": "none", "stroke": "#ffffff", "stroke-width": "3", "stroke-opacity": "0"}, []),
    ])


def counted_ends(view: dict) -> dict | None:
    """What each open end adds to the ends' total in a fives game (None in
    the others), as the engine counts it (domino.engine.line.Hand.ends_total):
    a double at an end counts both halves, a spinner's arm with no tile yet
    counts nothing, and the first tile alone counts its two halves once."""
    if (view.get("options") or {}).get("fives", "off") == "off":
        return None
    ends = view.get("ends") or {}
    lay = view.get("layout") or {}
    center = lay.get("center")
    if center is None:
        return {}
    arms = lay.get("arms") or {}
    if not arms.get("W") and not arms.get("E"):
        return {e: int(v) for e, v in ends.items()}
    out = {}
    for e, v in ends.items():
        arm = arms.get(e) or []
        if not arm and e in ("N", "S"):
            out[e] = 0
            continue
        a, b = halves(arm[-1]["tile"] if arm else center)
        out[e] = int(v) * 2 if a == b else int(v)
    return out


def _end_label(end: str, value: int, p: Placed, unit: float, counted: int | None = None) -> Node:
    """The number an open end shows, on the half of its slot that touches it;
    in a fives game (``counted``) what it adds to the total, in a dashed,
    hollow ring when it adds nothing (a spinner's arm with no tile yet)."""
    hs = min(p.w, p.h)
    if p.rotation in (0, 180):
        cx = p.x + (hs / 2 if p.rotation == 0 else p.w - hs / 2)
        cy = p.y + p.h / 2
    else:
        cx = p.x + p.w / 2
        cy = p.y + (hs / 2 if p.rotation == 90 else p.h - hs / 2)
    # on its slot's free half, never over the tile it touches (a unit under
    # 15 px once put an end's 7 px number on the tile: "5 on 3-5")
    r = min(max(7.0, 0.34 * unit), 0.48 * hs)
    shown = value if counted is None else counted
    off = counted == 0 and value != 0
    ring = {"cx": num(cx), "cy": num(cy), "r": num(r), "fill": LABEL_BG,
            "stroke": TARGET, "stroke-width": num(max(1.0, 0.05 * unit))}
    if off:
        ring.update({"fill-opacity": "0.45", "stroke-dasharray": f"{num(0.12 * unit)} {num(0.1 * unit)}"})
    attrs = {"class": "end-label" + (" uncounted" if off else ""), "data-testid": "end-label", "data-end": end,
             "data-value": str(value), "aria-hidden": "true"}
    if counted is not None:
        attrs["data-counts"] = str(counted)
    text = {"x": num(cx), "y": num(cy), "text-anchor": "middle", "dominant-baseline": "central",
            "font-size": num(r * (1.0 if shown >= 10 else 1.25)), "font-weight": "700", "fill": TARGET}
    if off:
        text["fill-opacity"] = "0.8"
    return ("g", attrs, [("circle", ring, []), ("text", text, [str(shown)])])


def board(view: dict, width: float, height: float, *, style: str = "coloured",
          targets: dict | None = None, highlight: str | None = None, labels: bool = True,
          share: float = UNIT_SHARE) -> Node:
    """The whole table as one ``<svg viewBox="0 0 width height">``: the
    tiles, a label with the number of every open end (``labels``) and the
    places for a selected tile (``targets``: end id -> accessible name);
    ``share`` as in :func:`plan`."""
    width = float(width)
    height = float(height)
    layout = view.get("layout") or {}
    children: list = [
        ("rect", {"class": "felt", "x": "0", "y": "0", "width": num(width), "height": num(height),
                  "fill": FELT, "stroke": FELT_EDGE, "stroke-width": "2"}, []),
    ]
    svg_attrs = {"class": "board", "viewBox": f"0 0 {num(width)} {num(height)}",
                 "width": "100%", "height": "100%", "preserveAspectRatio": "xMidYMid meet",
                 "role": "group", "aria-label": "Table"}
    if layout.get("center") is None:
        return ("svg", svg_attrs, children)
    pl = plan(layout, width, height, share)
    last = highlight if highlight is not None else view.get("last")
    tiles_g = [_placed_tile(p, style, p.tile == last) for p in pl.tiles]
    # the highlighted tile last, so its outline and marker are on top
    tiles_g.sort(key=lambda g: g[1]["class"] == "tile last")
    children.append(("g", {"class": "tiles"}, tiles_g))
    ends = view.get("ends") or {}
    if labels and ends:
        counted = counted_ends(view) or {}
        children.append(("g", {"class": "end-labels"},
                         [_end_label(e, ends[e], pl.targets[e], pl.unit, counted.get(e))
                          for e in ("W", "E", "N", "S") if e in ends and e in pl.targets]))
    if targets:
        want = {e: lab for e, lab in targets.items() if e in pl.targets}
        hits = _hit_areas({e: pl.targets[e] for e in want})
        tg = [_target(e, want[e], pl.targets[e], hits[e], pl.unit) for e in sorted(want)]
        children.append(("g", {"class": "targets"}, tg))
    return ("svg", svg_attrs, children)


