"""Tiles as SVG, shared by every board: the colours of the table, the pips
of each number, one tile's body, divider and pips (:func:`tile_parts`), a
standalone tile (:func:`tile_svg`, the hand's buttons), how wide the board's
text is drawn, and :func:`to_svg` (a tree as XML text, for tests and previews).

A node is ``(tag, attrs, children)``: ``tag`` a str, ``attrs`` a dict of str to
str, ``children`` a list of nodes and str (text nodes).  No browser here:
``domino/browser.py`` turns the tree into DOM nodes.
"""
from __future__ import annotations

import functools

Node = tuple  # (tag, attrs, children)

SVG_NS = "http://www.w3.org/2000/svg"

# ----- looks ------------------------------------------------------------------
FELT = "#1f6b43"
FELT_EDGE = "#174f32"
IVORY = "#fbf6e6"
OUTLINE = "#3b3226"
DIVIDER = "#6b5f4c"
GOLD = "#e0a81e"
TARGET = "#fff6c8"
LABEL_BG = "#0b2e1c"
BLACK_PIP = "#161616"
# One colour per number, distinguishable on ivory and for the common kinds of
# colour blindness (Okabe-Ito and Paul Tol hues); the pip pattern still tells
# every number apart on its own.
PIP_COLOURS = {
    1: "#0072b2",  # blue
    2: "#d55e00",  # vermillion
    3: "#009e73",  # bluish green
    4: "#cc79a7",  # reddish purple
    5: "#c98500",  # dark orange
    6: "#161616",  # black
    7: "#882255",  # wine
    8: "#117733",  # green
    9: "#332288",  # indigo
    10: "#aa4499",  # purple
    11: "#3a8f85",  # teal
    12: "#8a8a2a",  # olive
}

# Pip layouts on a half square (0..1 x 0..1); the second coordinate runs along
# the tile's length (the layout of a vertical tile; transposed when horizontal).
_A, _B, _C = 0.25, 0.5, 0.75
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((_B, _B),),
    2: ((_C, _A), (_A, _C)),
    3: ((_C, _A), (_B, _B), (_A, _C)),
    4: ((_A, _A), (_C, _A), (_A, _C), (_C, _C)),
    5: ((_A, _A), (_C, _A), (_B, _B), (_A, _C), (_C, _C)),
    6: ((_A, _A), (_A, _B), (_A, _C), (_C, _A), (_C, _B), (_C, _C)),
    7: ((_A, _A), (_A, _B), (_A, _C), (_B, _B), (_C, _A), (_C, _B), (_C, _C)),
    8: ((_A, _A), (_A, _B), (_A, _C), (_B, _A), (_B, _C), (_C, _A), (_C, _B), (_C, _C)),
    9: tuple((x, y) for x in (_A, _B, _C) for y in (_A, _B, _C)),
}
_ROWS4 = (0.2, 0.4, 0.6, 0.8)
PIP_LAYOUTS[10] = (tuple((x, y) for x in (0.22, 0.78) for y in _ROWS4)
                   + ((_B, 0.35), (_B, 0.65)))
PIP_LAYOUTS[11] = (tuple((x, y) for x in (0.22, 0.78) for y in _ROWS4)
                   + ((_B, 0.3), (_B, _B), (_B, 0.7)))
PIP_LAYOUTS[12] = tuple((x, y) for x in (0.22, _B, 0.78) for y in _ROWS4)


def pip_layout(n: int) -> tuple[tuple[float, float], ...]:
    if n in PIP_LAYOUTS:
        return PIP_LAYOUTS[n]
    # beyond 12 (double-15 sets): a 4 x 4 grid filled row by row
    cells = [(0.2 + 0.2 * i, 0.2 + 0.2 * j) for j in range(4) for i in range(4)]
    return tuple(cells[:n])


def pip_colour(n: int, style: str = "coloured") -> str:
    if style == "black":
        return BLACK_PIP
    return PIP_COLOURS.get(n, BLACK_PIP)


#: width of a letter, in em, of the widest common system font (DejaVu Sans,
#: on Linux) by font weight; phones' fonts are narrower, so text sized with
#: these always fits
LETTER_EM = {"600": 0.68, "700": 0.72, "800": 0.72}


def text_width(text: str, size: float, weight: str = "600") -> float:
    """How wide ``text`` may be drawn at ``size`` px in the board's font."""
    return LETTER_EM.get(weight, 0.68) * size * len(text)


def fit_text(text: str, size: float, width: float, weight: str = "600") -> str:
    """``text`` cut with "…" to what surely fits ``width`` px at ``size``."""
    room = max(1, int(width / text_width("x", size, weight)))
    return text if len(text) <= room else text[:max(1, room - 1)] + "…"


def num(v: float) -> str:
    """A number as short, deterministic SVG text ("1.5", "0", "12")."""
    s = f"{v:.2f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def halves(tile: str) -> tuple[int, int]:
    a, _, b = tile.partition("-")
    return int(a), int(b)


def tile_parts(x: float, y: float, w: float, h: float, first: int, second: int,
                style: str, last: bool = False) -> list:
    """Body, divider and pips of a tile in the rectangle (x, y, w, h).

    ``first`` is drawn on the left (horizontal) or top (vertical) half.
    """
    horizontal = w >= h
    hs = h if horizontal else w  # side of a half square
    ins = 0.035 * hs  # a hair of felt between touching tiles
    bx, by, bw, bh = x + ins, y + ins, w - 2 * ins, h - 2 * ins
    rx = 0.13 * hs
    out: list = [
        ("rect", {"class": "tile-shadow", "x": num(bx + 0.05 * hs), "y": num(by + 0.07 * hs),
                  "width": num(bw), "height": num(bh), "rx": num(rx),
                  "fill": "#000", "fill-opacity": "0.28"}, []),
        ("rect", {"class": "tile-body", "x": num(bx), "y": num(by),
                  "width": num(bw), "height": num(bh), "rx": num(rx), "fill": IVORY,
                  "stroke": GOLD if last else OUTLINE,
                  "stroke-width": num((0.11 if last else 0.045) * hs)}, []),
    ]
    d = 0.16 * hs
    if horizontal:
        line = (x + hs, y + d, x + hs, y + h - d)
    else:
        line = (x + d, y + hs, x + w - d, y + hs)
    out.append(("line", {"class": "divider", "x1": num(line[0]), "y1": num(line[1]),
                         "x2": num(line[2]), "y2": num(line[3]), "stroke": DIVIDER,
                         "stroke-width": num(0.05 * hs), "stroke-linecap": "round"}, []))
    for half, n in ((0, first), (1, second)):
        lay = pip_layout(n)
        if not lay:
            continue
        r = (0.095 if n <= 9 else 0.072) * hs
        fill = pip_colour(n, style)
        for cx, cy in lay:
            if horizontal:
                px, py = x + (half + cy) * hs, y + cx * hs
            else:
                px, py = x + cx * hs, y + (half + cy) * hs
            out.append(("circle", {"class": f"pip pip-{n}", "cx": num(px), "cy": num(py),
                                   "r": num(r), "fill": fill}, []))
    return out


@functools.lru_cache(maxsize=2048)
def tile_svg(tile: str, *, style: str = "coloured", horizontal: bool = False,
             label: str | None = None) -> Node:
    """A standalone ``<svg>`` of one tile ("a-b": ``a`` on top, or left when
    horizontal), sized by its container (viewBox only, width/height 100%).

    Kept once per tile and look (a hand is drawn again after every move):
    the same tree is shared by every screen, so nothing may change it in place."""
    a, b = halves(tile)
    w, h = (200.0, 100.0) if horizontal else (100.0, 200.0)
    pad = 6.0
    children: list = []
    if label is not None:
        children.append(("title", {}, [label]))
    children.append(("g", {"class": "tile", "data-tile": tile},
                      tile_parts(0.0, 0.0, w, h, a, b, style)))
    return ("svg", {"class": "tile-svg", "viewBox": f"{num(-pad)} {num(-pad)} {num(w + 2 * pad)} {num(h + 2 * pad)}",
                    "width": "100%", "height": "100%", "preserveAspectRatio": "xMidYMid meet",
                    "aria-hidden": "true", "focusable": "false", "data-tile": tile}, children)



# ----- text -------------------------------------------------------------------
def _esc_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _esc_attr(s: str) -> str:
    return (_esc_text(s).replace('"', "&quot;").replace("\n", "&#10;")
            .replace("\r", "&#13;").replace("\t", "&#9;"))


def to_svg(node: Node) -> str:
    """Serialize a node tree as XML text (an ``svg`` root gets the SVG xmlns)."""
    parts: list = []

    def walk(n, root: bool) -> None:
        if isinstance(n, str):
            parts.append(_esc_text(n))
            return
        tag, attrs, children = n
        parts.append("<" + tag)
        if root and tag == "svg" and "xmlns" not in attrs:
            parts.append(f' xmlns="{SVG_NS}"')
        for k, v in attrs.items():
            parts.append(f' {k}="{_esc_attr(str(v))}"')
        if not children:
            parts.append("/>")
            return
        parts.append(">")
        for c in children:
            walk(c, False)
        parts.append(f"</{tag}>")

    walk(node, True)
    return "".join(parts)

