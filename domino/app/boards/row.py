"""Frijolito's table as SVG: the rows of face-down tiles and the line of play.

A pure function from a seat view (``shape == "row"``).  The line of play is
the line family's (:func:`domino.app.boards.line.board`, no spinner), drawn below
a strip with the other seats' rows; the seat's own row is drawn apart
(:func:`own_row`) above its action buttons.  A row is drawn leftmost first,
as the engine lists it: a tile that is face up shows its pips; a face-down
tile shows its back, and, when everybody saw it turned over before it went
back face down, its name in small print on the back (what a player at a real
table would remember).  A tile nobody has turned over shows only its back:
the view does not name it, so nothing here could.
"""
from __future__ import annotations

from domino.app.boards import line
from domino.app.boards.tiles import FELT, FELT_EDGE, GOLD, fit_text, halves, num, text_width, tile_parts

Node = tuple

BACK = "#2b2118"
BACK_EDGE = "#c9a24a"
PAD = 6.0
#: the line's unit is at most 1/LINE_SHARE of its shorter side (the line
#: family's 1/10 kept a phone's line, some 130 px tall, to 12 px units:
#: places under 44 px apart and end numbers on tiles)
LINE_SHARE = 5.0
#: the other seats' rows take at most this share of a short board
STRIP_SHARE = 0.34


def _back(x: float, y: float, w: float, h: float, seen: str | None, first: bool) -> list:
    hs = min(w, h)
    out = [("rect", {"class": "tile-back", "x": num(x + 0.04 * hs), "y": num(y + 0.04 * hs),
                     "width": num(w - 0.08 * hs), "height": num(h - 0.08 * hs), "rx": num(0.15 * hs),
                     "fill": BACK, "stroke": GOLD if first else BACK_EDGE,
                     "stroke-width": num((0.14 if first else 0.06) * hs)}, []),
           ("circle", {"cx": num(x + w / 2), "cy": num(y + h / 2), "r": num(0.12 * hs),
                       "fill": BACK_EDGE, "fill-opacity": "0.8"}, [])]
    if seen:
        out.append(("text", {"x": num(x + w / 2), "y": num(y + h * 0.22 if h > w else y + h / 2),
                             "font-size": num(max(7.0, 0.34 * hs)), "fill": "#f1e3bf",
                             "text-anchor": "middle", "dominant-baseline": "central",
                             "font-family": "system-ui, sans-serif", "class": "seen"}, [seen]))
    return out


def row_nodes(entries: list[dict], x: float, y: float, u: float, style: str, *, vertical: bool = True,
              max_w: float | None = None, mark_first: bool = False) -> tuple[list, float]:
    """One row, leftmost first, from (x, y): tiles standing (u wide, 2u high)
    or lying; returns (nodes, width used).  Too long for ``max_w``: the
    tiles overlap like a fanned row, all still drawn."""
    n = len(entries)
    tw, th = (u, 2 * u) if vertical else (2 * u, u)
    step = tw + 0.12 * u
    if max_w is not None and n > 1 and n * step > max_w:
        step = max(0.35 * tw, (max_w - tw) / (n - 1))
    nodes = []
    for i, e in enumerate(entries):
        tx = x + i * step
        tile = e.get("tile")
        if e.get("up") and tile:
            a, b = halves(tile)
            parts = tile_parts(tx, y, tw, th, a, b, style)
            nodes.append(("g", {"class": "row-tile up", "data-tile": tile, "data-pos": str(i)}, parts))
        else:
            nodes.append(("g", {"class": "row-tile down", "data-pos": str(i),
                                "data-seen": tile or ""}, _back(tx, y, tw, th, tile, mark_first and i == 0)))
    used = (n - 1) * step + tw if n else 0.0
    return nodes, used


def strip_height(view: dict, me: int | None, height: float) -> float:
    others = [s for s in range(view.get("players", 0)) if s != me]
    if not others:
        return 0.0
    row_h = max(24.0, min(44.0, 0.09 * height))
    return min(STRIP_SHARE * height, len(others) * row_h + 2 * PAD)


def board(view: dict, width: float, height: float, *, style: str = "coloured",
          targets: dict | None = None, highlight: str | None = None, me: int | None = None,
          texts: dict | None = None) -> Node:
    width, height = float(width), float(height)
    tx = texts or {}
    lay = view.get("layout") or {}
    rows = lay.get("rows") or []
    out_seats = set(lay.get("out") or [])
    names = view.get("names") or []
    turn = view.get("turn") if view.get("phase") == "play" else None
    sh = strip_height(view, me, height)
    line_of_play = line.board(view, width, max(60.0, height - sh), style=style, targets=targets,
                                highlight=highlight, share=LINE_SHARE)
    children: list = [("rect", {"class": "felt", "x": "0", "y": "0", "width": num(width),
                                "height": num(height), "fill": FELT, "stroke": FELT_EDGE,
                                "stroke-width": "2"}, [])]
    others = [s for s in range(view.get("players", 0)) if s != me]
    if others and sh:
        row_h = (sh - 2 * PAD) / len(others)
        fs = max(10.0, min(14.0, 0.42 * row_h))
        name_w = max(64.0, min(120.0, 0.22 * width))
        strip = [("rect", {"x": "0", "y": "0", "width": num(width), "height": num(sh), "fill": "#000",
                           "fill-opacity": "0.18"}, [])]
        for k, s in enumerate(others):
            y = PAD + k * row_h
            is_turn = s == turn
            label = ("▶ " if is_turn else "") + (names[s] if s < len(names) else str(s))
            label = fit_text(label, fs, name_w, "800" if is_turn else "600")
            strip.append(("text", {"x": num(PAD + 2), "y": num(y + row_h / 2), "font-size": num(fs),
                                   "fill": "#ffe08a" if is_turn else "#ffffff",
                                   "font-weight": "800" if is_turn else "600", "dominant-baseline": "central",
                                   "font-family": "system-ui, sans-serif"}, [label]))
            entries = rows[s] if s < len(rows) else []
            u = max(5.0, (row_h - 4) / 2)
            nodes, _ = row_nodes(entries, PAD + name_w, y + 2, u, style, vertical=True,
                                 max_w=width - name_w - 2 * PAD)
            if s in out_seats:
                nodes.append(("text", {"x": num(PAD + name_w), "y": num(y + row_h / 2), "font-size": num(fs),
                                       "fill": "#ffd2c4", "dominant-baseline": "central",
                                       "font-family": "system-ui, sans-serif"}, [tx.get("out", "out")]))
            strip.append(("g", {"class": "row" + (" out" if s in out_seats else ""), "data-row": str(s),
                                "data-count": str(len(entries))}, nodes))
        children.append(("g", {"class": "rows"}, strip))
    children.append(("g", {"class": "line", "transform": f"translate(0 {num(sh)})"}, line_of_play[2][1:]))
    return ("svg", {"class": "board row-board", "viewBox": f"0 0 {num(width)} {num(height)}",
                    "width": "100%", "height": "100%", "preserveAspectRatio": "xMidYMid meet",
                    "role": "group", "aria-label": "Table"}, children)


def own_row(view: dict, seat: int, *, style: str = "coloured", label: str = "", next_label: str = "",
            width: float = 340.0) -> Node:
    """The seat's own row as a standalone ``<svg>``: what the seat knows of it
    (face-up tiles, tiles everybody saw), the leftmost tile (turned over
    next) outlined in gold and marked ``next_label``."""
    lay = view.get("layout") or {}
    rows = lay.get("rows") or []
    entries = rows[seat] if seat < len(rows) else []
    u = 17.0
    top = 14.0
    nodes, used = row_nodes(entries, 4, top, u, style, vertical=True, max_w=width - 8, mark_first=True)
    if entries and next_label:
        nodes.append(("text", {"x": "4", "y": "7", "font-size": "11", "fill": "#ffe08a",
                               "font-weight": "700", "dominant-baseline": "central",
                               "font-family": "system-ui, sans-serif"}, [next_label]))
    # the picture is as wide as the row or its mark, whichever is wider: a
    # short row once cut "siguiente ▼" to "siguiei"
    mark_w = text_width(next_label, 11, "700") + 8 if entries and next_label else 0.0
    w = max(used + 8, 40.0, mark_w)
    h = top + 2 * u + 4
    return ("svg", {"class": "own-row", "viewBox": f"0 0 {num(w)} {num(h)}", "width": num(w),
                    "height": num(h), "role": "img", "aria-label": label,
                    "data-count": str(len(entries))}, nodes)
