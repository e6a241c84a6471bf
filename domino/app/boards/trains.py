"""Mexican Train's table as SVG: one lane per train, stacked, readable on a phone.

A pure function from a seat view (``shape == "trains"``) to an element tree,
like :func:`domino.app.boards.line.board`.  The best phone apps of the game draw
the trains as rows leaving the station; so does this:

* a header strip: the engine (the round's double), the round, and, while a
  double must be closed, a red warning naming it;
* one lane per train, the Mexican train first, then the seats in seat order
  (the order never changes when the device is handed to another player).
  A lane is a chip (owner's name, the train marker when the train is public,
  the move mark of the seat to play) and the tiles, the engine end on the
  left and the open end on the right, where a badge shows the number it
  takes.  A train longer than its lane folds: its first tiles give way to a
  "+N" chip, so the latest tiles and the open end always stay in view;
* a double that must be closed turns its lane red; the lanes the viewing
  seat may not play on are dimmed (only the open double's lane while it
  waits), and the viewer's own lane is outlined;
* a place (``[data-end]``) covers the whole lane of each train the selected
  tile fits: a tap anywhere on the row plays there.

Doubles stand crosswise, a little smaller so that a lane stays one tile high.
"""
from __future__ import annotations

from domino.app.boards.tiles import (FELT, FELT_EDGE, GOLD, IVORY, OUTLINE, TARGET, halves, num, tile_parts,
                                     fit_text, text_width)

Node = tuple

MEXICAN = "train:mexican"
PAD = 6.0
GAP = 3.0             # between lanes
COL_GAP = 10.0        # between columns of lanes
UNIT_MAX = 30.0       # px per unit on a large board (a tile is 2 x 1 units)
LANE_UNITS = 1.7      # lane height in units
DOUBLE_W, DOUBLE_H = 0.8, 1.6   # a crosswise double, in units
MEX_FILL = "#7d2a1c"
CHIP_FILL = "#10311f"
LANE_FILL = "#1a5a38"
MUST = "#ff6b4a"
MARKER = GOLD


def lanes(view: dict, me: int | None) -> list[dict]:
    """The trains of ``view`` in drawing order with what the table shows of
    each: owner, tiles, open number, public, must (an open double waits
    there), mine, eligible (the viewer may play there, whatever its tiles)."""
    lay = view.get("layout") or {}
    trains = list(lay.get("trains") or [])
    trains.sort(key=lambda tr: (tr.get("owner") is not None, tr.get("owner") or 0))
    must = list(lay.get("open_doubles") or [])
    closing = bool((view.get("options") or {}).get("close_doubles", True))
    out = []
    for tr in trains:
        tid = tr["id"]
        owner = tr.get("owner")
        if must and closing:
            eligible = tid in must
        else:
            eligible = owner == me or bool(tr.get("public")) or owner is None
        out.append({"id": tid, "owner": owner, "tiles": list(tr.get("tiles") or []),
                    "open": tr.get("open"), "public": bool(tr.get("public")) or owner is None,
                    "must": tid in must, "mine": me is not None and owner == me,
                    "eligible": me is not None and eligible,
                    "dim": me is not None and not eligible})
    return out


def _loco(x: float, y: float, s: float, fill: str) -> list:
    """A small locomotive (the train marker), ``s`` px high, top-left at (x, y)."""
    return [
        ("rect", {"x": num(x), "y": num(y + 0.2 * s), "width": num(0.95 * s), "height": num(0.55 * s),
                  "rx": num(0.08 * s), "fill": fill, "stroke": OUTLINE, "stroke-width": num(0.06 * s)}, []),
        ("rect", {"x": num(x + 0.6 * s), "y": num(y), "width": num(0.55 * s), "height": num(0.75 * s),
                  "rx": num(0.06 * s), "fill": fill, "stroke": OUTLINE, "stroke-width": num(0.06 * s)}, []),
        ("rect", {"x": num(x + 0.1 * s), "y": num(y + 0.02 * s), "width": num(0.16 * s),
                  "height": num(0.22 * s), "fill": fill, "stroke": OUTLINE,
                  "stroke-width": num(0.05 * s)}, []),
        ("circle", {"cx": num(x + 0.25 * s), "cy": num(y + 0.82 * s), "r": num(0.16 * s),
                    "fill": OUTLINE}, []),
        ("circle", {"cx": num(x + 0.85 * s), "cy": num(y + 0.82 * s), "r": num(0.16 * s),
                    "fill": OUTLINE}, []),
    ]


def _text(x: float, y: float, size: float, text: str, *, fill: str = "#fff", anchor: str = "start",
          weight: str = "600", cls: str = "") -> Node:
    attrs = {"x": num(x), "y": num(y), "font-size": num(size), "fill": fill, "text-anchor": anchor,
             "font-weight": weight, "dominant-baseline": "central",
             "font-family": "system-ui, sans-serif"}
    if cls:
        attrs["class"] = cls
    return ("text", attrs, [text])


def _banner_w(text: str, size: float) -> float:
    """Width of the open-double warning's pill for ``text`` at ``size``."""
    return text_width(text, size, "800") + 14


def tile_items(tiles: list[dict]) -> list[tuple]:
    """[(name, near, far, double)] from the engine end outwards."""
    items = []
    for t in tiles:
        a, b = halves(t["tile"])
        far = int(t["out"])
        near = b if a == far else a
        items.append((t["tile"], near, far, a == b))
    return items


def lane_tiles(tiles: list[dict], u: float, room: float) -> tuple[int, list[tuple]]:
    """How a train shows in ``room`` px of lane: (hidden, [(item, width)]):
    the latest tiles that fit, and how many earlier ones fold into a chip."""
    items = tile_items(tiles)
    widths = [(DOUBLE_W if it[3] else 2.0) * u for it in items]
    if sum(widths) <= room:
        return 0, list(zip(items, widths))
    chip = 1.7 * u
    used = chip
    k = len(items)
    while k > 0 and used + widths[k - 1] <= room:
        used += widths[k - 1]
        k -= 1
    if k == len(items):   # not even the last tile fits: show it anyway
        k -= 1
    return k, list(zip(items[k:], widths[k:]))


def geometry(n_lanes: int, width: float, height: float) -> dict:
    """Header height, columns of lanes, lane size, unit and the chip column
    for a board size: one column on a phone; two or three side by side on a
    wide board (a phone on its side, a desktop), whichever gives the
    largest tiles."""
    hh = max(20.0, min(30.0, 0.075 * height))
    best = None
    for cols in (1, 2, 3):
        if cols > 1 and cols > n_lanes:
            break
        per_col = -(-n_lanes // cols)
        lane_h = (height - 2 * PAD - hh - GAP * per_col) / max(1, per_col)
        lane_w = (width - 2 * PAD - (cols - 1) * COL_GAP) / cols
        chip_w = max(64.0, min(140.0, 0.25 * lane_w))
        tiles_w = lane_w - chip_w - 4
        u = max(6.0, min(UNIT_MAX, lane_h / LANE_UNITS, tiles_w / 9.0))
        if best is None or u > best["unit"] * 1.08:
            best = {"header": hh, "lane_h": min(lane_h, u * 2.2), "unit": u, "chip_w": chip_w,
                    "cols": cols, "per_col": per_col, "lane_w": lane_w}
    return best


def board(view: dict, width: float, height: float, *, style: str = "coloured",
          targets: dict | None = None, highlight: str | None = None, me: int | None = None,
          texts: dict | None = None) -> Node:
    """The trains as one ``<svg viewBox="0 0 width height">``.  ``me``: the
    seat looking (None: nobody's hand is up); ``texts``: the words shown
    (see :func:`domino.app.boards.board_texts`)."""
    width, height = float(width), float(height)
    tx = texts or {}
    lay = view.get("layout") or {}
    names = view.get("names") or []
    turn = view.get("turn") if view.get("phase") == "play" else None
    last = highlight if highlight is not None else view.get("last")
    ls = lanes(view, me)
    g = geometry(len(ls), width, height)
    u, lane_h, hh, chip_w = g["unit"], g["lane_h"], g["header"], g["chip_w"]
    lw, per_col = g["lane_w"], g["per_col"]
    chip_w = max(chip_w, min(0.45 * lw, _chip_need(ls, names, tx)))
    targets = targets or {}
    children: list = [
        ("rect", {"class": "felt", "x": "0", "y": "0", "width": num(width), "height": num(height),
                  "fill": FELT, "stroke": FELT_EDGE, "stroke-width": "2"}, []),
    ]
    # ----- header: engine, round, the open double
    fs = 0.5 * hh
    head: list = []
    x = PAD + 2
    head.append(_text(x, PAD + hh / 2, fs, tx.get("engine", "Engine"), fill="#e9f3ec"))
    x += 0.62 * fs * len(tx.get("engine", "Engine")) + 6
    eng = lay.get("engine")
    th = hh - 6
    if eng:
        a, b = halves(eng)
        head.append(("g", {"class": "engine tile", "data-tile": eng},
                     tile_parts(x, PAD + 3, 2 * th, th, a, b, style)))
        x += 2 * th + 8
    else:
        head.append(_text(x, PAD + hh / 2, fs, "—"))
        x += fs + 8
    rnd = tx.get("round")
    must_ids = list(lay.get("open_doubles") or [])
    wtxt = tx.get("must", "") if must_ids else ""
    round_w = 0.5 * fs * len(rnd) + 10 if rnd else 0.0
    # the warning names the double whole: it takes the round's place (the
    # header above the board shows the round too), a smaller size, then
    # its short form ("Cover 9-9!"), before anything is cut
    if rnd and (not wtxt or width - PAD - x - round_w >= _banner_w(wtxt, 0.9 * fs)):
        head.append(_text(x, PAD + hh / 2, 0.85 * fs, rnd, fill="#cfe3d6", weight="500"))
        x += round_w
    if wtxt:
        room = width - PAD - x
        size = 0.9 * fs
        for txt, least in ((wtxt, 9.0), (tx.get("must_short") or wtxt, 7.5)):
            size = max(least, min(0.9 * fs, (room - 14) / text_width(txt, 1.0, "800")))
            if _banner_w(txt, size) <= room:
                break
        pw = min(room, _banner_w(txt, size))
        px = width - PAD - pw
        head.append(("g", {"class": "must-banner", "data-testid": "open-double"}, [
            ("rect", {"x": num(px), "y": num(PAD + 1), "width": num(pw), "height": num(hh - 2),
                      "rx": num(hh / 2 - 1), "fill": MUST, "stroke": "#fff", "stroke-width": "1.5"}, []),
            _text(px + pw / 2, PAD + hh / 2, size, txt, fill="#1b0a05", anchor="middle", weight="800"),
        ]))
    children.append(("g", {"class": "train-header"}, head))
    # ----- lanes
    lanes_g: list = []
    target_g: list = []
    top = PAD + hh + GAP
    # lanes in the middle of the room left (a big board has room to spare)
    top += max(0.0, (height - PAD - top - per_col * (lane_h + GAP)) / 2)
    is_place = [ln["id"] in targets for ln in ls]
    spans = hit_spans(is_place, per_col, top, lane_h, height)
    groups = place_groups(is_place, per_col, spans)
    grouped = {i for grp in groups for i in grp}
    marks: dict[int, list] = {}
    for i, ln in enumerate(ls):
        x0 = PAD + (i // per_col) * (lw + COL_GAP)
        y = top + (i % per_col) * (lane_h + GAP)
        lanes_g.append(_lane(ln, x0, y, lw, lane_h, u, chip_w, names, turn, last, style, tx))
        end = ln["id"]
        if end in targets:
            marks[i] = _target_marks(x0, y, lw, lane_h, u, chip_w, ln)
            if i not in grouped:
                target_g.append(_lane_target(end, targets[end], x0, lw, marks[i], spans[i]))
    for grp in groups:
        # places side by side too thin to tap apart: one tap area over them all, which asks which
        x0 = PAD + (grp[0] // per_col) * (lw + COL_GAP)
        ends = [ls[i]["id"] for i in grp]
        label = tx.get("choose", "Choose where") + ": " + "; ".join(targets[e] for e in ends)
        target_g.append(("g", {"class": "target target-group", "data-ends": " ".join(ends), "role": "button",
                               "tabindex": "0", "aria-label": label},
                         [_hit(x0, lw, spans[grp[0]][0], spans[grp[-1]][1])] + [m for i in grp for m in marks[i]]))
    children.append(("g", {"class": "trains"}, lanes_g))
    if target_g:
        children.append(("g", {"class": "targets"}, target_g))
    return ("svg", {"class": "board trains-board", "viewBox": f"0 0 {num(width)} {num(height)}",
                    "width": "100%", "height": "100%", "preserveAspectRatio": "xMidYMid meet",
                    "role": "group", "aria-label": "Table"}, children)


def hit_spans(is_target: list[bool], per_col: int, top: float, lane_h: float, height: float,
              minimum: float = 45.0) -> list[tuple[float, float] | None]:
    """The tap area of each lane that is a place, from top to bottom: the
    lane and half the gaps round it, grown to ``minimum`` px into the lanes
    beside it that are not places (45: 44 px once the board is scaled to its box by a
    fraction of a pixel; the whole growth on one side when the
    other is a place too, or the board's edge), never into another place's."""
    pitch = lane_h + GAP
    out: list[tuple[float, float] | None] = []
    for i, on in enumerate(is_target):
        if not on:
            out.append(None)
            continue
        k = i % per_col
        y = top + k * pitch
        lo, hi = y - GAP / 2, y + lane_h + GAP / 2
        up = k > 0 and is_target[i - 1]
        down = k < per_col - 1 and i + 1 < len(is_target) and is_target[i + 1]
        room_up = 0.0 if up else lo - PAD / 2
        room_down = 0.0 if down else height - PAD / 2 - hi
        need = max(0.0, minimum - (hi - lo))
        a = min(room_up, need / 2)
        b = min(room_down, need - a)
        a = min(room_up, need - b)
        if not up and k > 0:       # a place two lanes up grows into the same lane: half each
            a = min(a, pitch / 2) if i >= 2 and k >= 2 and is_target[i - 2] else a
        if not down and k < per_col - 1:
            b = min(b, pitch / 2) if i + 2 < len(is_target) and k + 2 < per_col and is_target[i + 2] else b
        out.append((lo - a, hi + b))
    return out


def place_groups(is_target: list[bool], per_col: int, spans: list, minimum: float = 45.0) -> list[list[int]]:
    """Runs of places in adjacent lanes of one column where a place's tap area (``spans``, from
    :func:`hit_spans`) stays under ``minimum`` px: each run is tapped as one area that then asks
    which of its places (a crowded phone board, eight trains and the Mexican one in lanes ~26 px)."""
    out: list[list[int]] = []
    run: list[int] = []
    for i, on in enumerate(is_target + [False]):
        if on and run and i % per_col != 0:
            run.append(i)
            continue
        if len(run) > 1 and any(spans[k][1] - spans[k][0] < minimum - 0.01 for k in run):
            out.append(run)
        run = [i] if on else []
    return out


def _end_box(ln: dict, x0: float, lw: float, u: float, chip_w: float, y: float, lane_h: float) -> tuple:
    """Where the next tile of a lane goes: (x, y, w, h)."""
    room = lw - chip_w - 6 - 2.1 * u
    hidden, shown = lane_tiles(ln["tiles"], u, room)
    x = x0 + chip_w + 4 + (1.7 * u if hidden else 0) + sum(w for _, w in shown)
    return (x + 0.1 * u, y + (lane_h - u) / 2, 2 * u, u)


def _chip_need(ls: list, names: list, tx: dict) -> float:
    """How wide the chip column must be for every seat's name to show whole
    at the least size (11 px, bold as on its turn, with the ▶), beside the
    open train's marker where it shares the line."""
    need = 0.0
    for ln in ls:
        owner = ln["owner"]
        if owner is None:
            continue
        label = "▶ " + (names[owner] if owner < len(names) else str(owner))
        need = max(need, text_width(label, 11.0, "800") + 10 + 1.3 * 11.0)
    return need


def _lane(ln: dict, x0: float, y: float, lw: float, lane_h: float, u: float, chip_w: float, names: list,
          turn, last, style: str, tx: dict) -> Node:
    owner = ln["owner"]
    mex = owner is None
    parts: list = []
    stroke = MUST if ln["must"] else (GOLD if ln["mine"] else "none")
    parts.append(("rect", {"class": "lane-bg", "x": num(x0), "y": num(y), "width": num(lw),
                           "height": num(lane_h), "rx": num(min(10, lane_h / 3)),
                           "fill": "#5a2417" if ln["must"] else LANE_FILL,
                           "fill-opacity": "0.9" if ln["must"] else "0.55",
                           "stroke": stroke, "stroke-width": "3" if ln["must"] else "2"}, []))
    # chip
    chip_fill = MEX_FILL if mex else CHIP_FILL
    parts.append(("rect", {"class": "lane-chip", "x": num(x0), "y": num(y), "width": num(chip_w),
                           "height": num(lane_h), "rx": num(min(10, lane_h / 3)), "fill": chip_fill}, []))
    fs = max(10.0, min(15.0, 0.36 * lane_h))
    text_x = x0 + 6
    if mex:  # the Mexican flag's colours along the chip's edge
        sw = max(2.0, min(5.0, 0.09 * lane_h))
        for k, col in enumerate(("#006847", "#ffffff", "#ce1126")):
            parts.append(("rect", {"x": num(x0 + 3 + k * sw), "y": num(y + 4), "width": num(sw),
                                        "height": num(lane_h - 8), "fill": col}, []))
        text_x = x0 + 3 + 3 * sw + 4
    label = tx.get("mexican", "Mexican") if mex else (names[owner] if owner < len(names) else str(owner))
    if mex:   # the Mexican train's name is shown whole: a smaller size if needed
        fs = max(8.0, min(fs, (chip_w - (text_x - x0) - 3) / text_width(label, 1.0)))
    is_turn = owner is not None and owner == turn
    second = (ln["public"] and not mex) or (ln["mine"] and bool(tx.get("yours")))
    two_lines = lane_h >= 2.3 * fs and second
    marker_w = 0 if two_lines else (1.3 * fs if ln["public"] and not mex else 0)
    shown = ("▶ " if is_turn else "") + label
    if not mex:   # a long name first gets smaller (down to 11 px), then cut
        room = chip_w - (text_x - x0) - 4 - marker_w
        weight = "800" if is_turn else "600"
        fs = max(min(fs, 11.0), min(fs, room / text_width(shown, 1.0, weight)))
        shown = fit_text(shown, fs, room, weight)
    name_y = y + (lane_h / 2 - 0.55 * fs if two_lines else lane_h / 2)
    parts.append(_text(text_x, name_y, fs, shown,
                       fill=GOLD_SOFT if is_turn else "#ffffff", weight="800" if is_turn else "600",
                       cls="lane-name"))
    if ln["public"] and not mex:
        s = 0.9 * fs
        if two_lines:
            mx, my = text_x, y + lane_h / 2 + 0.15 * fs
        else:
            mx, my = x0 + chip_w - s * 1.25 - 3, y + lane_h / 2 - s / 2
        parts.append(("g", {"class": "marker", "data-testid": "train-marker"}, _loco(mx, my, s, MARKER)))
        if two_lines and tx.get("public"):
            parts.append(_text(mx + 1.35 * s, my + 0.45 * s, 0.8 * fs, tx["public"], fill=GOLD_SOFT,
                                    weight="600"))
    elif ln["mine"] and two_lines and tx.get("yours"):
        parts.append(_text(text_x, y + lane_h / 2 + 0.6 * fs, 0.8 * fs, tx["yours"], fill=GOLD_SOFT,
                           weight="600"))
    # tiles
    room = lw - chip_w - 6 - 2.1 * u
    hidden, shown_tiles = lane_tiles(ln["tiles"], u, room)
    x = x0 + chip_w + 4
    cy = y + lane_h / 2
    if hidden:
        cw, ch = 1.5 * u, 0.9 * u
        parts.append(("g", {"class": "fold", "data-hidden": str(hidden)}, [
            ("rect", {"x": num(x + 0.05 * u), "y": num(cy - ch / 2), "width": num(cw), "height": num(ch),
                      "rx": num(0.3 * u), "fill": IVORY, "fill-opacity": "0.85", "stroke": OUTLINE,
                      "stroke-width": "1"}, []),
            _text(x + 0.05 * u + cw / 2, cy, max(9.0, 0.55 * u), f"+{hidden}", fill=OUTLINE,
                  anchor="middle", weight="800"),
        ]))
        x += 1.7 * u
    n_all = len(ln["tiles"])
    tile_nodes = []
    for k, ((name, near, far, dbl), w) in enumerate(shown_tiles):
        idx = n_all - len(shown_tiles) + k
        if dbl:
            rect = (x, cy - DOUBLE_H * u / 2, DOUBLE_W * u, DOUBLE_H * u)
            first = second = near
        else:
            rect = (x, cy - u / 2, 2 * u, u)
            first, second = near, far
        is_last = name == last
        tp = tile_parts(rect[0], rect[1], rect[2], rect[3], first, second, style, is_last)
        if ln["must"] and idx == n_all - 1 and dbl:
            tp.insert(0, ("rect", {"class": "must-ring", "x": num(rect[0] - 3), "y": num(rect[1] - 3),
                                        "width": num(rect[2] + 6), "height": num(rect[3] + 6),
                                        "rx": num(0.25 * u), "fill": "none", "stroke": MUST,
                                        "stroke-width": "3"}, []))
        tile_nodes.append(("g", {"class": "tile last" if is_last else "tile", "data-tile": name,
                                      "data-arm": ln["id"], "data-index": str(idx)}, tp))
        x += w
    parts.extend(tile_nodes)
    # the open end: a badge with the number it takes
    if ln["open"] is not None:
        r = max(8.0, min(0.5 * lane_h - 2, 0.62 * u))
        bx = x + 0.25 * u + r
        fill = MUST if ln["must"] else (IVORY if ln["eligible"] else "#9bb5a5")
        parts.append(("g", {"class": "open-end", "data-end-value": str(ln["open"])}, [
            ("circle", {"cx": num(bx), "cy": num(cy), "r": num(r), "fill": fill,
                        "stroke": OUTLINE, "stroke-width": "1.5"}, []),
            _text(bx, cy + 0.5, 1.15 * r, str(ln["open"]), fill="#111", anchor="middle", weight="800"),
        ]))
    attrs = {"class": "train" + (" must" if ln["must"] else "") + (" mine" if ln["mine"] else "")
             + (" public" if ln["public"] else "") + (" dim" if ln["dim"] else ""),
             "data-train": ln["id"], "data-public": "true" if ln["public"] else "false",
             "data-open": "" if ln["open"] is None else str(ln["open"]),
             "data-eligible": "true" if ln["eligible"] else "false"}
    if owner is not None:
        attrs["data-owner"] = str(owner)
    if ln["dim"]:
        attrs["opacity"] = "0.55"
    return ("g", attrs, parts)


GOLD_SOFT = "#ffe08a"


def _hit(x0: float, lw: float, top: float, bottom: float) -> Node:
    """The invisible rectangle that takes a place's taps."""
    return ("rect", {"class": "target-hit", "x": num(x0), "y": num(top), "width": num(lw),
                     "height": num(bottom - top), "fill": "#fff", "fill-opacity": "0", "pointer-events": "all"}, [])


def _target_marks(x0: float, y: float, lw: float, lane_h: float, u: float, chip_w: float, ln: dict) -> list:
    """A place's outline round its lane and the dashed box where the tile would go."""
    ex, ey, ew, eh = _end_box(ln, x0, lw, u, chip_w, y, lane_h)
    ins = 0.06 * u
    return [
        ("rect", {"class": "target-lane", "x": num(x0 + 1), "y": num(y + 1), "width": num(lw - 2),
                  "height": num(lane_h - 2), "rx": num(min(10, lane_h / 3)), "fill": "none",
                  "stroke": TARGET, "stroke-width": "2.5"}, []),
        ("rect", {"class": "target-mark", "x": num(ex + ins), "y": num(ey + ins),
                  "width": num(ew - 2 * ins), "height": num(eh - 2 * ins),
                  "rx": num(0.16 * u), "fill": TARGET, "fill-opacity": "0.3",
                  "stroke": TARGET, "stroke-width": num(max(1.5, 0.08 * u)),
                  "stroke-dasharray": f"{num(0.22 * u)} {num(0.14 * u)}"}, []),
    ]


def _lane_target(end: str, label: str, x0: float, lw: float, marks: list,
                 span: tuple[float, float]) -> Node:
    return ("g", {"class": "target", "data-end": end, "role": "button", "tabindex": "0",
                  "aria-label": label}, [_hit(x0, lw, span[0], span[1])] + marks)
