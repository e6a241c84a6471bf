"""The table: the hand, the scores bar, the board and the hand-off screen."""
from __future__ import annotations

from domino.app import boards
from domino.app.boards.tiles import tile_svg
from domino.app.controller import Controller, humans
from domino.app.story import board_story, counts_ends, live_scores, log_text, partners, side_name, turn_text
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.screens.dialogs import place_chooser, resign_dialog
from domino.app.screens.display import Display
from domino.app.screens.friends import status_badge
from domino.app.screens.lobby import toolbar
from domino.app.screens.menu import menu_button, undo_tools
from domino.app.screens.results import hand_result, match_result
from domino.engine import deals
from domino.engine.match import HUMAN

def _tile_button(tile: str, *, seq: int, playable: bool, selected: bool, hinted: bool, pips: str,
                 lang: str, disabled_all: bool) -> Node:
    art = tile_svg(tile, style=pips)
    cls = "tile-btn" + (" playable" if playable else "") + (" selected" if selected else "") + \
        (" hinted" if hinted else "")
    label = tile if playable or disabled_all else t(lang, "game.tile_unplayable", tile=tile)
    return h("button", {"type": "button", "class": cls, "data-tile": tile, "data-seq": seq,
                        "data-action": "tile", "aria-label": label,
                        "aria-disabled": "false" if playable else "true",
                        "aria-pressed": ("true" if selected else "false") if playable else None},
             art, playable and h("span", {"class": "play-dot", "aria-hidden": "true"}))


def scores_bar(c: Controller, v: dict, lang: str) -> Node:
    """One chip per side: who (names, the one to move marked) and the live
    score.  Nothing in it grows with the play (tile counts are at the seats),
    so the header keeps its height."""
    m = c.match
    live = live_scores(v)
    teams = partners(v)
    chips = []
    for sd, seats in enumerate(v["sides"]):
        turn = m.turn in seats and m.phase == "play"
        who = [h("span", {"class": "who" + (" turn" if m.turn == s and m.phase == "play" else ""),
                          "data-seat": s}, v["names"][s]) for s in seats]
        chips.append(h("div", {"class": "chip" + (" on" if turn else "") + (f" team team-{sd}" if teams else ""),
                               "data-side": sd, "data-team": sd if teams else None,
                               "data-testid": f"score-{sd}", "data-value": live[sd], "role": "group",
                               "aria-label": t(lang, "score.label", name=side_name(v, sd, lang), points=live[sd])},
                       h("div", {"class": "names", "aria-hidden": "true"}, who),
                       h("div", {"class": "pts", "data-score": live[sd], "aria-hidden": "true"}, str(live[sd]))))
    rounds = (v.get("layout") or {}).get("rounds")
    meta = h("div", {"class": "meta"},
             h("span", {}, t(lang, "boards.round", n=v["hand_no"] + 1, total=rounds) if rounds
               else t(lang, "game.hand_no", n=v["hand_no"] + 1)),
             not rounds and h("span", {}, t(lang, "game.target", target=v["options"]["target"])),
             v["options"].get("boneyard") != "none" and boards.shape_of(v) != "row" and not _all_dealt(v)
             and h("span", {"data-testid": "boneyard"}, t(lang, "game.boneyard", n=v["boneyard"])))
    many = len(v["sides"]) > 4   # one row that scrolls (CSS): reachable with the keyboard
    return h("div", {"class": "scores", "data-testid": "scores", "role": "group",
                     "aria-label": t(lang, "game.scores"), "tabindex": "0" if many else None}, chips, meta)


def _all_dealt(v: dict) -> bool:
    """Every tile was dealt (Draw or Block for four): the boneyard was empty
    from the start, so "Boneyard: 0" would say nothing."""
    return (not v.get("boneyard") and not v.get("undrawable")
            and not any("draw" in a for a in v.get("history") or []))


BACKS_MAX = 7   # face-down tiles drawn one by one up to this many, then one and a count


def seat_node(s: dict, lang: str, net_status: str | None = None, guest: bool = False) -> Node:
    """A place at the table: name, face-down tiles (or a count), the side's
    live score, a mark when it is to move, and its latest turn."""
    n = s["count"]
    backs = [h("span", {"class": "back"}) for _ in range(min(n, BACKS_MAX) if n <= BACKS_MAX else 1)]
    label = t(lang, "seat.label", name=s["name"], n=n, points=s["score"])
    team = s.get("team")
    if team is not None and s.get("partners"):
        label += ", " + t(lang, "seat.team", names=", ".join(s["partners"]))
    if s["turn"]:
        label += ", " + t(lang, "seat.to_move")
    did = turn_text(s, lang)
    if did:
        label += ". " + did
    if s["points"]:
        label += " " + t(lang, "log.scored", points=s["points"])
    cls = f"seat spot-{s['spot']}" + (" turn" if s["turn"] else "") + (f" team team-{team}" if team is not None else "")
    return h("div", {"class": cls, "data-testid": f"seat-{s['seat']}", "data-seat": s["seat"],
                     "data-count": n, "data-score": s["score"], "data-side": s["side"], "data-team": team,
                     "data-last": s["last_i"], "role": "group", "aria-label": label,
                     "aria-current": "true" if s["turn"] else None},
             h("div", {"class": "seat-head", "aria-hidden": "true"},
               h("span", {"class": "seat-mark"}, "▶"),
               team is not None and h("span", {"class": "team-mark"}),
               h("span", {"class": "seat-name"}, s["name"]),
               h("span", {"class": "seat-n"}, str(n)),
               h("span", {"class": "seat-score"}, str(s["score"]))),
             net_status and status_badge(s["seat"], net_status, lang, guest),
             h("div", {"class": "seat-tiles", "aria-hidden": "true"}, backs,
               n > BACKS_MAX and h("span", {"class": "seat-count"}, "×" + str(n)),
               n <= BACKS_MAX and h("span", {"class": "seat-count small"}, str(n))),
             h("div", {"class": "seat-act", "aria-hidden": "true"},
               h("span", {"class": "seat-did"}, did),
               h("span", {"class": "seat-points", "data-points": s["points"]}, "+" + str(s["points"]))
               if s["points"] else None))


def move_log(c: Controller, v: dict, lang: str) -> Node:
    """The hand so far, one line per action, in a panel that one tap opens."""
    log = c.log()
    items = [h("li", {"data-seat": e["seat"], "data-kind": e["kind"], "data-i": e["i"],
                      "data-points": e["points"] or None,
                      "class": "log-" + e["kind"] + (" scored" if e["points"] else "")},
               log_text(e, v["names"], lang)) for e in log]
    return h("div", {"class": "log-panel", "id": "move-log-panel", "role": "region",
                     "aria-labelledby": "move-log-title", "hidden": None if c.log_open else ""},
             h("div", {"class": "log-head"},
               h("h2", {"id": "move-log-title"}, t(lang, "log.title")),
               h("button", {"type": "button", "class": "tb", "data-action": "log", "data-testid": "log-close",
                            "aria-label": t(lang, "log.close")},
                 h("span", {"class": "ico", "aria-hidden": "true"}, "×"))),
             h("ol", {"class": "log", "data-testid": "move-log"}, deal_line(v, lang), items),
             not items and h("p", {"class": "log-empty"}, t(lang, "log.empty")))


def deal_line(v: dict, lang: str) -> Node | None:
    """The hand's first line: the deal and its fingerprint (issue 41: the seed, shown once the hand is over,
    deals the same tiles again)."""
    fp = (v.get("dealing") or {}).get("fingerprint") if isinstance(v.get("dealing"), dict) else None
    if not deals.is_fingerprint(fp):
        return None
    return h("li", {"class": "log-deal", "data-testid": "log-deal", "data-fingerprint": fp},
             t(lang, "log.dealt", fingerprint=fp))


def table_area(c: Controller, v: dict, seats: list[dict], lang: str, statuses: dict | None = None,
               guest: bool = False) -> Node:
    """The board with the other players sitting around it (``statuses``: a
    friends' table's status of each seat)."""
    statuses = statuses or {}
    many = v["players"] > 4
    if many:
        # five to eight players: the others in one compact strip, in the order
        # they play after this seat (the sides of a phone have no room for them)
        me = next(s["seat"] for s in seats if s["spot"] == "bottom")
        others = sorted((s for s in seats if s["spot"] != "bottom"), key=lambda s: (s["seat"] - me) % v["players"])
        around = [h("div", {"class": "seats-top"}, [seat_node(s, lang, statuses.get(s["seat"]), guest) for s in others])]
    else:
        top = [seat_node(s, lang, statuses.get(s["seat"]), guest) for s in seats if s["spot"].startswith("top")]
        around = [h("div", {"class": "seats-top"}, top) if top else None]
        around += [seat_node(s, lang, statuses.get(s["seat"]), guest) for s in seats if s["spot"] in ("left", "right")]
    tiles, ends_text = board_story(v, lang)
    story = h("div", {"class": "sr-only", "data-testid": "board-story"},
              h("p", {}, t(lang, "board.line")),
              tiles and h("ol", {}, [h("li", {}, x) for x in tiles]),
              h("p", {}, ends_text))
    spots = sorted({s["spot"] for s in seats if s["spot"] != "bottom"})
    return h("div", {"class": "table-area", "data-players": v["players"], "data-spots": " ".join(spots),
                     "data-many": "1" if many else None},
             around,
             h("div", {"class": "board-wrap"},
               h("div", {"class": "board", "data-testid": "board", "id": "board"}),
               story),
             move_log(c, v, lang))


def game_screen(c: Controller, display: Display) -> Node:
    """The table, as ``display`` shows it.  The board container is empty:
    the browser module draws it at its size (:func:`board_tree`)."""
    m = c.match
    lang = display.lang
    v = c.view()
    seq = m.seq
    seat = c.face_up()
    legal = c.legal()
    playable = {a["play"] for a in legal if "play" in a}
    hand_tiles = v["hand"] if seat is not None else []
    seats = c.seats()
    busy_extra = []
    if humans(m):
        busy_extra.append(h("button", {"type": "button", "class": "tb", "data-action": "hint", "data-testid": "hint",
                                       "data-seq": seq, "disabled": None if c.my_turn() else ""},
                            h("span", {"class": "ico", "aria-hidden": "true"}, "!"),
                            h("span", {"class": "tb-text"}, t(lang, "tb.hint"))))
    net = display.net
    if net is None:      # a friends' match is shared: no move is taken back on one phone
        busy_extra += undo_tools(c, display)
    if not m.outcome and humans(m):
        busy_extra.append(h("button", {"type": "button", "class": "tb warn", "data-action": "resign",
                                       "data-testid": "resign"},
                            h("span", {"class": "ico", "aria-hidden": "true"}, "⚑"),
                            h("span", {"class": "tb-text"}, t(lang, "tb.resign"))))
    if net and net.get("tool"):
        busy_extra.append(net["tool"])     # the host's buttons for the friends' seats
    busy_extra.append(menu_button(lang))
    hand_row = None
    if seat is not None and hand_tiles:
        hand_row = h("div", {"class": "hand-area"},
                     h("div", {"class": "hand", "role": "group",
                               "aria-label": t(lang, "game.your_hand", name=v["names"][seat])},
                       [_tile_button(tl, seq=seq, playable=tl in playable, selected=tl == c.selected,
                                     hinted=tl == c.hinted and c.hint_why is not None, pips=display.pips, lang=lang,
                                     disabled_all=not legal) for tl in hand_tiles]))
    elif m.phase == "play":
        hand_row = h("div", {"class": "hand-area empty"})
    if boards.shape_of(v) == "row" and seat is not None and m.phase == "play":
        hand_row = _row_area(c, v, seat, hand_row, display)
    choices = []
    aside = boards.reject_choice(legal, v, lang)   # face down or face up: what each does, the tile once
    if aside is not None:
        choices.append(h("p", {"class": "choice-note", "data-testid": "reject-note"}, aside[0]))
    for i, (label, act) in enumerate(c.row_actions(lang)):
        kind = next(k for k in ("flip", "peek", "reject", "play") if k in act)
        testid = f"play-{act.get('end') or 'open'}" if kind == "play" else kind
        if kind == "reject" and aside is not None:
            way, says = aside[1][bool(act.get("face_up"))]
            label = [h("span", {"class": "choice-way"}, way), h("span", {"class": "choice-says"}, says)]
        choices.append(h("button", {"type": "button", "class": "primary" if kind in ("flip", "play") else "secondary",
                                    "data-action": "act", "data-act": i, "data-seq": seq,
                                    "data-testid": testid + ("-up" if act.get("face_up") else "")}, label))
    places = place_list(c, v, lang)
    if places is not None:
        choices.append(places)
    for n in c.open_choices():
        choices.append(h("button", {"type": "button", "class": "primary", "data-action": "open", "data-open": n,
                                    "data-seq": seq}, t(lang, "game.open_value", n=n)))
    draw = c.draw_action()
    if draw is not None:
        choices.append(h("button", {"type": "button", "class": "secondary", "data-action": "draw",
                                    "data-testid": "draw", "data-seq": seq}, t(lang, "game.decline")))
    msg = c.hint_text(lang) or c.message(lang)
    status = c.status(lang)
    overlay = None
    ho = c.handoff()
    if ho is not None:
        overlay = handoff_screen(c, ho, lang)
    elif m.outcome:
        overlay = match_result(c, v, display)
    elif m.phase == "hand-over":
        overlay = hand_result(c, v, display)
    elif c.confirm_resign:
        overlay = resign_dialog(c, lang)
    elif c.asked_places():
        overlay = place_chooser(c, lang)
    n_log = len(v["history"])
    log_btn = h("button", {"type": "button", "class": "tb log-btn", "data-action": "log", "data-testid": "log",
                           "aria-expanded": "true" if c.log_open else "false", "aria-controls": "move-log-panel",
                           "aria-label": t(lang, "log.button_label_open" if c.log_open else "log.button_label", n=n_log)},
                h("span", {"class": "ico", "aria-hidden": "true"}, "☰"),
                h("span", {"class": "log-n", "aria-hidden": "true"}, str(n_log)))
    pace_btn = None
    if any(s["kind"] != HUMAN for s in m.seats):
        pace_btn = h("button", {"type": "button", "class": "tb pace-btn", "data-action": "pace", "data-testid": "pace",
                                "data-pace": display.pace,
                                "aria-label": t(lang, "pace.label", pace=t(lang, "pace." + display.pace))},
                     h("span", {"class": "ico", "aria-hidden": "true"},
                       {"slow": "›", "normal": "»", "fast": "⋙"}[display.pace]),
                     h("span", {"class": "pace-text", "aria-hidden": "true"}, t(lang, "pace." + display.pace)))
    me = next(s for s in seats if s["spot"] == "bottom")
    statuses = (net or {}).get("statuses") or {}
    guest = (net or {}).get("role") == "guest"
    total = None
    if counts_ends(v):
        total = h("div", {"class": "ends-total", "data-testid": "ends-total", "data-value": v["ends_total"],
                          "title": t(lang, "ends.total_label", n=v["ends_total"])},
                  h("span", {"aria-hidden": "true"}, t(lang, "ends.total", n=v["ends_total"])),
                  h("span", {"class": "sr-only"}, t(lang, "ends.total_label", n=v["ends_total"])))
    screen = h("section", {"class": "screen game" + (" my-turn" if c.my_turn() else "")
                         + (" my-hand" if hand_tiles else ""), "data-game": v["game"],
                         "data-players": v["players"], "data-many": "1" if v["players"] > 4 else None},
        h("h1", {"class": "sr-only"}, t(lang, "app.title")),
        h("header", {"class": "topbar"},
          scores_bar(c, v, lang),
          toolbar(lang, display.pips, game=v["game"], seq=seq, extra=busy_extra, sound=display.sound)),
        net and net["bar"],
        net and net.get("clock"),
        net and net["banner"] and h("p", {"class": "error net-banner", "role": "alert",
                                         "data-testid": "net-banner"}, net["banner"]),
        table_area(c, v, seats, lang, statuses, guest),
        h("div", {"class": "status-line"},
          h("div", {"class": "status-text"},
            h("p", {"class": "turn-line", "data-testid": "turn"}, status),
            h("p", {"class": "message", "data-testid": "message"}, msg),
            choices and h("div", {"class": "choices"}, choices)),
          h("div", {"class": "me-row"}, log_btn, total, seat_node(me, lang, statuses.get(me["seat"]), guest), pace_btn)),
        hand_row,
        overlay)
    shown.keep_screen(c, display, screen)
    return screen


def place_list(c: Controller, v: dict, lang: str) -> Node | None:
    """Chicken Foot, a selected tile with two or more places: the places as
    buttons under the board, each with the letter its mark shows on the
    board and the number it is played on (the marks of a crowded board are
    under 44 px on a phone; these buttons are its equivalent, WCAG 2.5.8)."""
    if boards.shape_of(v) != "foot":
        return None
    targets = c.targets(lang)
    keys = boards.foot.place_keys(targets)
    if not keys:
        return None
    ends = v.get("ends") or {}
    return h("div", {"class": "place-list", "role": "group", "data-testid": "places",
                     "aria-label": t(lang, "boards.places", tile=c.selected)},
             [h("button", {"type": "button", "class": "secondary place-btn", "id": boards.foot.place_id(e),
                           "data-action": "end", "data-end": e, "data-seq": c.match.seq,
                           "data-testid": "place-" + e},
                h("span", {"class": "place-key"}, keys[e]), " ",
                h("span", {"class": "place-on"}, t(lang, "boards.place_on") + " "),
                h("span", {"class": "place-n"}, str(ends.get(e, ""))),
                h("span", {"class": "sr-only"}, ": " + targets[e]))
              for e in keys])


def _row_area(c: Controller, v: dict, seat: int, hand_row: Node | None, display: Display) -> Node:
    """Frijolito: the seat's own row (what it knows of it) above its face-up tiles."""
    lang = display.lang
    lay = v.get("layout") or {}
    rows = lay.get("rows") or []
    n = len(rows[seat]) if seat < len(rows) else 0
    label = t(lang, "boards.row_label", n=n)
    art = boards.row.own_row(v, seat, style=display.pips, label=label, next_label=t(lang, "boards.row_next"))
    kids = [h("div", {"class": "hand-label"}, label),
            h("div", {"class": "own-row-wrap", "data-testid": "own-row", "data-count": n}, art)]
    if hand_row is not None:   # the face-up tiles the seat may tap, without a second label
        kids += [ch for ch in hand_row[2] if "hand-label" not in ch[1].get("class", "")]
    return h("div", {"class": "hand-area row-area"}, kids)


def handoff_screen(c: Controller, seat: int, lang: str) -> Node:
    """The opaque screen that asks to pass the device to the seat to move."""
    name = c.match.seats[seat]["name"]
    return h("div", {"class": "overlay opaque", "data-testid": "handoff", "data-seat": seat, "role": "dialog",
                     "aria-modal": "true", "aria-labelledby": "handoff-title"},
             h("div", {"class": "card center"},
               h("div", {"class": "handoff-icon", "aria-hidden": "true"}, "⇄"),
               h("h2", {"id": "handoff-title"}, t(lang, "handoff.title", name=name)),
               h("p", {}, t(lang, "handoff.body", name=name)),
               c.message(lang) and h("p", {"class": "last-move"}, c.message(lang)),
               h("button", {"type": "button", "class": "primary big", "data-action": "handoff",
                            "data-testid": "handoff-continue", "data-seq": c.match.seq},
                 t(lang, "handoff.go", name=name))))


def position(match) -> tuple:
    """Where a match stands, as far as its screens can tell: its move count,
    hand, phase, whether it is over, and who sits where."""
    return (match.seq, match.hand_no, match.phase, bool(match.outcome),
            tuple((seat["kind"], seat["name"]) for seat in match.seats))


class Shown:
    """What the table showed last, so that one change is drawn once: the
    screen last built (for which controller state, position and display) and
    the board last drawn (with what it was drawn from: a board is a pure
    function of these).  The browser draws the board just after the screen
    (:func:`board_tree`), and the snapshot of a position a reload shows takes
    both rather than building them again (:func:`domino.app.snapshot.table`)."""

    def __init__(self) -> None:
        self.controller: Controller | None = None
        self.display: Display | None = None
        self.position: tuple | None = None
        self.interaction: tuple | None = None
        self.screen: Node | None = None
        self.board_from: tuple | None = None
        self.board: Node | None = None

    def keep_screen(self, c: Controller, display: Display, screen: Node) -> None:
        """Keep the screen just built for ``c`` with ``display``."""
        self.controller, self.display = c, display
        self.position, self.interaction = position(c.match), c.interaction()
        self.screen = (screen[0], screen[1], list(screen[2]))   # the caller may add dialogs to its own

    def screen_for(self, c: Controller, display: Display) -> Node | None:
        """The screen last built, when it is the one ``c`` shows with
        ``display`` (same match, position and state); else None."""
        kept = self.controller
        if (kept is None or self.screen is None or kept.match is not c.match or self.display != display
                or self.position != position(c.match) or self.interaction != c.interaction()):
            return None
        return (self.screen[0], self.screen[1], list(self.screen[2]))

    def board_of(self, drawn_from: tuple, draw) -> Node:
        """The board drawn from ``drawn_from``: the last one when it was
        drawn from the same, else ``draw()``'s."""
        if self.board is None or self.board_from != drawn_from:
            self.board, self.board_from = draw(), drawn_from
        return self.board


shown = Shown()


def draw_board(c: Controller, display: Display, width: float, height: float, labels: bool = True) -> Node:
    """The table at a size, with place markers when a tile waits for one.
    Every place carries data-seq.  Drawn once: the same table at the same
    size a second time (the snapshot's) is the drawing kept in :data:`shown`."""
    v = c.view()
    targets = c.targets(display.lang) or None
    me = c.face_up()
    node = shown.board_of((v, targets, me, display.pips, display.lang, float(width), float(height)),
                          lambda: boards.board(v, width, height, style=display.pips, targets=targets, me=me,
                                               lang=display.lang))
    if not labels:   # without the ends' number labels
        node = (node[0], node[1], [ch for ch in node[2]
                                   if isinstance(ch, str) or ch[1].get("class") != "end-labels"])
    return _stamp(node, c.match.seq, t(display.lang, "game.board"))


def board_tree(c: Controller, width: float, height: float, labels: bool = True) -> Node:
    """The board of the table last shown (``domino/browser.py`` draws it at
    its size right after the screen, and again when the page is resized):
    :func:`draw_board` with the display of the screen :data:`shown` keeps
    (a board takes its pips and language)."""
    return draw_board(c, shown.display or Display(c.lang), width, height, labels)


def _stamp(node, seq: int, label: str):
    tag, attrs, children = node
    attrs = dict(attrs)
    if "data-end" in attrs and attrs.get("class") == "target":
        attrs["data-seq"] = str(seq)
        attrs["data-action"] = "end"
    elif "data-ends" in attrs and attrs.get("class") == "target target-group":
        attrs["data-seq"] = str(seq)
        attrs["data-action"] = "places"
    if tag == "svg" and attrs.get("class") == "board":
        attrs["aria-label"] = label
    return (tag, attrs, [ch if isinstance(ch, str) else _stamp(ch, seq, label) for ch in children])
