"""The table: the hand, the scores bar, the board and the hand-off screen."""
from __future__ import annotations

from domino.app import boards, render
from domino.app.controller import Controller, humans, side_name
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.screens.dialogs import resign_dialog
from domino.app.screens.lobby import toolbar
from domino.app.screens.results import hand_result, match_result

def _tile_button(tile: str, *, seq: int, playable: bool, selected: bool, hinted: bool, pips: str,
                 lang: str, disabled_all: bool) -> Node:
    art = render.tile_svg(tile, style=pips) if render else h("span", {}, tile)
    cls = "tile-btn" + (" playable" if playable else "") + (" selected" if selected else "") + \
        (" hinted" if hinted else "")
    label = tile if playable or disabled_all else t(lang, "game.tile_unplayable", tile=tile)
    return h("button", {"type": "button", "class": cls, "data-tile": tile, "data-seq": seq,
                        "data-action": "tile", "aria-label": label,
                        "aria-disabled": "false" if playable else "true",
                        "aria-pressed": ("true" if selected else "false") if playable else None},
             art, playable and h("span", {"class": "play-dot", "aria-hidden": "true"}))


def scores_bar(c: Controller, v: dict) -> Node:
    lang = c.lang
    m = c.match
    chips = []
    for sd, seats in enumerate(v["sides"]):
        turn = m.turn in seats and m.phase == "play"
        who = []
        for s in seats:
            who.append(h("span", {"class": "who" + (" turn" if m.turn == s and m.phase == "play" else ""),
                                  "data-seat": s},
                          h("span", {"class": "nm"}, v["names"][s]),
                          h("span", {"class": "cnt", "title": t(lang, "game.tiles_left", n=v["counts"][s])},
                            h("span", {"class": "mini-tile", "aria-hidden": "true"}), str(v["counts"][s]))))
        chips.append(h("div", {"class": "chip" + (" on" if turn else ""), "data-side": sd},
                       h("div", {"class": "names"}, who),
                       h("div", {"class": "pts", "data-score": v["scores"][sd]}, str(v["scores"][sd]))))
    rounds = (v.get("layout") or {}).get("rounds")
    meta = h("div", {"class": "meta"},
             h("span", {}, t(lang, "boards.round", n=v["hand_no"] + 1, total=rounds) if rounds
               else t(lang, "game.hand_no", n=v["hand_no"] + 1)),
             not rounds and h("span", {}, t(lang, "game.target", target=v["options"]["target"])),
             v["options"].get("boneyard") != "none" and boards.shape_of(v) != "row"
             and h("span", {}, t(lang, "game.boneyard", n=v["boneyard"])))
    many = len(v["sides"]) > 4   # one row that scrolls (CSS): reachable with the keyboard
    return h("div", {"class": "scores", "data-testid": "scores", "aria-label": t(lang, "game.scores"),
                     "tabindex": "0" if many else None, "role": "group" if many else None}, chips, meta)


def game_screen(c: Controller) -> Node:
    """The table.  The board container is empty: the browser module draws it at its size."""
    m = c.match
    lang = c.lang
    v = c.view()
    seq = m.seq
    seat = c.face_up()
    legal = c.legal()
    playable = {a["play"] for a in legal if "play" in a}
    hand_tiles = v["hand"] if seat is not None else []
    busy_extra = []
    if humans(m):
        busy_extra.append(h("button", {"type": "button", "class": "tb", "data-action": "hint", "data-testid": "hint",
                                       "data-seq": seq, "disabled": None if c.my_turn() else ""},
                            h("span", {"class": "ico", "aria-hidden": "true"}, "!"),
                            h("span", {"class": "tb-text"}, t(lang, "tb.hint"))))
    if not m.outcome and humans(m):
        busy_extra.append(h("button", {"type": "button", "class": "tb warn", "data-action": "resign",
                                       "data-testid": "resign"},
                            h("span", {"class": "ico", "aria-hidden": "true"}, "⚑"),
                            h("span", {"class": "tb-text"}, t(lang, "tb.resign"))))
    else:
        busy_extra.append(h("button", {"type": "button", "class": "tb", "data-action": "menu", "data-testid": "menu"},
                            h("span", {"class": "ico", "aria-hidden": "true"}, "+"),
                            h("span", {"class": "tb-text"}, t(lang, "tb.menu"))))
    hand_row = None
    if seat is not None and hand_tiles:
        hand_row = h("div", {"class": "hand-area"},
                     h("div", {"class": "hand-label"}, t(lang, "game.your_hand", name=v["names"][seat])),
                     h("div", {"class": "hand", "role": "group",
                               "aria-label": t(lang, "game.your_hand", name=v["names"][seat])},
                       [_tile_button(tl, seq=seq, playable=tl in playable, selected=tl == c.selected,
                                     hinted=tl == c.hinted and bool(c.note), pips=c.pips, lang=lang,
                                     disabled_all=not legal) for tl in hand_tiles]))
    elif m.phase == "play":
        hand_row = h("div", {"class": "hand-area empty"})
    if boards.shape_of(v) == "row" and seat is not None and m.phase == "play":
        hand_row = _row_area(c, v, seat, hand_row)
    choices = []
    for i, (label, act) in enumerate(c.row_actions()):
        kind = next(k for k in ("flip", "peek", "reject", "play") if k in act)
        testid = f"play-{act.get('end') or 'open'}" if kind == "play" else kind
        choices.append(h("button", {"type": "button", "class": "primary" if kind in ("flip", "play") else "secondary",
                                    "data-action": "act", "data-act": i, "data-seq": seq,
                                    "data-testid": testid + ("-up" if act.get("face_up") else "")}, label))
    for n in c.open_choices():
        choices.append(h("button", {"type": "button", "class": "primary", "data-action": "open", "data-open": n,
                                    "data-seq": seq}, t(lang, "game.open_value", n=n)))
    draw = c.draw_action()
    if draw is not None:
        choices.append(h("button", {"type": "button", "class": "secondary", "data-action": "draw",
                                    "data-testid": "draw", "data-seq": seq}, t(lang, "game.decline")))
    flash = [h("span", {"class": "fives", "data-side": sd}, t(lang, "msg.fives", points=p,
                                                              name=side_name(v, sd, lang)))
             for sd, p in c.flash]
    msg = c.note or c.message()
    status = c.status()
    overlay = None
    ho = c.handoff()
    if ho is not None:
        overlay = handoff_screen(c, ho)
    elif m.outcome:
        overlay = match_result(c, v)
    elif m.phase == "hand-over":
        overlay = hand_result(c, v)
    elif c.confirm_resign:
        overlay = resign_dialog(c)
    return h("section", {"class": "screen game" + (" my-turn" if c.my_turn() else ""), "data-game": v["game"],
                         "data-many": "1" if v["players"] > 4 else None},
        h("header", {"class": "topbar"},
          scores_bar(c, v),
          toolbar(lang, c.pips, game=v["game"], seq=seq, extra=busy_extra)),
        h("div", {"class": "board", "data-testid": "board", "id": "board"}),
        h("div", {"class": "status-line"},
          h("p", {"class": "turn-line", "data-testid": "turn"}, status),
          h("p", {"class": "message", "data-testid": "message"}, msg, flash),
          choices and h("div", {"class": "choices"}, choices)),
        hand_row,
        overlay)


def _row_area(c: Controller, v: dict, seat: int, hand_row: Node | None) -> Node:
    """Frijolito: the seat's own row (what it knows of it) above its face-up tiles."""
    lang = c.lang
    lay = v.get("layout") or {}
    rows = lay.get("rows") or []
    n = len(rows[seat]) if seat < len(rows) else 0
    label = t(lang, "boards.row_label", n=n)
    art = boards.row.own_row(v, seat, style=c.pips, label=label, next_label=t(lang, "boards.row_next"))
    kids = [h("div", {"class": "hand-label"}, label),
            h("div", {"class": "own-row-wrap", "data-testid": "own-row", "data-count": n}, art)]
    if hand_row is not None and hand_row[2]:
        kids += hand_row[2]
    return h("div", {"class": "hand-area row-area"}, kids)


def handoff_screen(c: Controller, seat: int) -> Node:
    lang = c.lang
    name = c.match.seats[seat]["name"]
    return h("div", {"class": "overlay opaque", "data-testid": "handoff", "data-seat": seat, "role": "dialog",
                     "aria-modal": "true", "aria-labelledby": "handoff-title"},
             h("div", {"class": "card center"},
               h("div", {"class": "handoff-icon", "aria-hidden": "true"}, "⇄"),
               h("h2", {"id": "handoff-title"}, t(lang, "handoff.title", name=name)),
               h("p", {}, t(lang, "handoff.body", name=name)),
               c.message() and h("p", {"class": "last-move"}, c.message()),
               h("button", {"type": "button", "class": "primary big", "data-action": "handoff",
                            "data-testid": "handoff-continue", "data-seq": c.match.seq},
                 t(lang, "handoff.go", name=name))))



def board_tree(c: Controller, width: float, height: float) -> Node | None:
    """The table at a size, with place markers when a tile waits for one.
    Every place carries data-seq."""
    if render is None:
        return None
    v = c.view()
    node = boards.board(v, width, height, style=c.pips, targets=c.targets() or None, me=c.face_up(),
                        lang=c.lang)
    return _stamp(node, c.match.seq, t(c.lang, "game.board"))


def _stamp(node, seq: int, label: str):
    tag, attrs, children = node
    attrs = dict(attrs)
    if "data-end" in attrs:
        attrs["data-seq"] = str(seq)
        attrs["data-action"] = "end"
    if tag == "svg" and attrs.get("class") == "board":
        attrs["aria-label"] = label
    return (tag, attrs, [ch if isinstance(ch, str) else _stamp(ch, seq, label) for ch in children])
