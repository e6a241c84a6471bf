"""The screen snapshot: what the page will show when it comes back, kept so
that the next visit can paint it before Python is up.  Plain Python (no js).

After each change of what the screen shows, ``domino/browser.py`` stores
:func:`dumps` of :func:`table` (a match in progress) or :func:`lobby` (the
new-game screen) in localStorage (:data:`domino.app.storage.SNAPSHOT`).  On the next visit
``static/boot.js`` paints it into ``#app`` from the static HTML, dimmed and
inert, before the runtime has started; Python's first render then replaces it
with the live screen built by the same code, so nothing moves.

The snapshot is the screen a *reload* shows, not the one on screen now: a
fresh :class:`Controller` around the same match (no selected tile, no hint,
no open dialog), shown with the stored display choices (language, pips,
pace, sound) and no friends' bars.  With two or more people at the table
that is the hand-off screen ("pass the device to ..."), so a snapshot never
holds anybody's tiles; with one person against the computer it shows that
person's hand, exactly as the table does.  When the screen on show is that
one (the usual case against the computer), the snapshot is made from it:
the screen and the board already built for it are taken, not built again
(:data:`domino.app.screens.table.shown`).

The tree is the same ``(tag, attrs, children)`` tree the browser module turns
into DOM (as JSON arrays), with the board drawn at its size on screen, and
without what makes it interactive or what tests and handlers look for
(``data-action``, ``data-seq``, ``data-testid``, ...): it is a picture.

    {"format": "domino-snapshot/1", "screen": "table" | "handoff" | "result" | "lobby",
     "lang": "es", "title": "...", "seq": 12, "tree": [tag, {attrs}, [children]]}

``static/boot.js`` ignores a snapshot that is not this shape, is larger than
:data:`MAX_CHARS` characters, nests deeper than :data:`MAX_DEPTH`, or holds a
tag or attribute outside what the screens use (:data:`BANNED_TAGS`, ``on*``
attributes, links that are not ``#fragments``).  Keep both sides in step
(``tests/test_app_snapshot.py`` reads the limits out of boot.js).
"""
from __future__ import annotations

import json

from domino.app.controller import Controller
from domino.app.i18n import t
from domino.app.nodes import Node
from domino.app.screens.display import Display
from domino.app.screens.lobby import new_game_screen
from domino.app.screens.table import draw_board, game_screen, shown

FORMAT = "domino-snapshot/1"
MAX_CHARS = 262_144      # the painter ignores anything longer (a 4-player board is ~50 KB)
MAX_DEPTH = 40
# attributes that make a screen interactive or that handlers and tests look for
HIDDEN_ATTRS = frozenset({"data-action", "data-seq", "data-testid", "data-end", "data-open",
                          "data-field", "tabindex", "autofocus", "href", "xlink:href"})
# ... and on those elements (the hand's tile buttons), what names their tile
INTERACTIVE_ATTRS = frozenset({"data-tile"})
BANNED_TAGS = frozenset({"script", "style", "iframe", "object", "embed", "foreignObject", "link",
                         "meta", "base", "form", "a", "use", "animate", "set"})


def picture(node):
    """A copy of a tree without what makes it interactive (see HIDDEN_ATTRS)."""
    if isinstance(node, str):
        return node
    tag, attrs, children = node
    if tag in BANNED_TAGS:
        raise ValueError(f"a snapshot cannot hold <{tag}>")
    hidden = HIDDEN_ATTRS | INTERACTIVE_ATTRS if "data-action" in attrs else HIDDEN_ATTRS
    kept = {k: v for k, v in attrs.items() if k not in hidden and not k.lower().startswith("on")}
    return (tag, kept, [picture(c) for c in children])


def _fill_board(node, board: Node | None):
    """The screen tree with the board's svg inside the (empty) board box."""
    if isinstance(node, str) or board is None:
        return node
    tag, attrs, children = node
    if attrs.get("id") == "board":
        return (tag, attrs, [board])
    return (tag, attrs, [_fill_board(c, board) for c in children])


def table(match, display: Display, width: float, height: float) -> dict:
    """The table as a reload shows it (see the module docstring), as
    ``display`` shows it (its ``net`` is not used)."""
    display = Display(display.lang, display.pips, display.pace, display.practice, display.sound)
    c = Controller(match, display.lang)
    ho = c.handoff()
    screen_tree = shown.screen_for(c, display) or game_screen(c, display)
    # without the ends' number labels: their SVG text, painted before Python is
    # up, held Chromium's main thread for tens of seconds here; the live screen adds them
    tree = _fill_board(screen_tree, draw_board(c, display, width, height, labels=False))
    screen = "handoff" if ho is not None else "result" if match.phase != "play" else "table"
    return {"format": FORMAT, "screen": screen, "lang": display.lang, "title": t(display.lang, "app.title"),
            "seq": match.seq, "tree": picture(tree)}


def lobby(settings: dict | None, lang: str, pips: str) -> dict:
    """The new-game screen as a reload shows it (the stored choices, no message)."""
    return {"format": FORMAT, "screen": "lobby", "lang": lang, "title": t(lang, "app.title"),
            "seq": 0, "tree": picture(new_game_screen(settings or {}, lang, pips))}


def dumps(snap: dict) -> str | None:
    """The stored text, or None when it would be too large to paint."""
    text = json.dumps(snap, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= MAX_CHARS else None


def depth(node) -> int:
    if isinstance(node, str):
        return 0
    return 1 + max((depth(c) for c in node[2]), default=0)
