"""The hand and match results."""
from __future__ import annotations

from domino.app.boards.tiles import tile_svg
from domino.app.controller import Controller
from domino.app.story import partners, seat_points, side_name
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.screens.display import Display
from domino.engine.common import winning_side
from domino.app.screens.rounds import rounds_table
from domino.app.screens.review import review_button

def _mini_tiles(tiles: list[str], pips: str, lang: str = "en") -> Node:
    """A seat's leftover tiles, big enough to count their pips, and how many."""
    n = len(tiles)
    return h("span", {"class": "mini-wrap"},
             h("span", {"class": "mini-n", "data-testid": "left-count", "data-count": n},
               t(lang, "result.tiles_one") if n == 1 else t(lang, "result.tiles_n", n=n)),
             h("span", {"class": "mini-hand"},
               [h("span", {"class": "mini", "data-tile": tl, "title": tl},
                  tile_svg(tl, style=pips, horizontal=True)) for tl in tiles]))


def _by_rounds(v: dict) -> bool:
    """The game counts rounds, not hands (its header says "Round n/13")."""
    return bool((v.get("layout") or {}).get("rounds"))


def _points_class(points: int, good: bool) -> str:
    """A hand's points as a gain, a loss (bad points: your own pips count
    against you) or nothing (0: neither)."""
    if points == 0:
        return "none"
    return "gain" if good == (points > 0) else "loss"


def _result_table(c: Controller, v: dict, with_hand: bool, display: Display) -> Node:
    lang = display.lang
    res = v.get("result") or {}
    rows = seat_points(v)
    fives = c.match.rules.fives_on
    good = c.match.rules.points == "good"
    head = [t(lang, "result.seat")]
    if with_hand:
        head += [t(lang, "result.left"), t(lang, "result.pips")]
        if fives:
            head.append(t(lang, "result.fives"))
        head.append(t(lang, "result.points"))
    head.append(t(lang, "result.total"))
    body = []
    won = winning_side(res, v["sides"])
    winners = set(res.get("winners") or ([] if won is None else [won]))   # sides
    teams = partners(v)
    if teams:   # partners side by side: one team's points and total, once for both
        rows = sorted(rows, key=lambda r: (r["side"], r["seat"]))
    first_of_side: dict[int, int] = {}
    for r in rows:
        first_of_side.setdefault(r["side"], r["seat"])
    for r in rows:
        span = len(v["sides"][r["side"]]) if teams else 1
        lead = first_of_side[r["side"]] == r["seat"]
        team_attrs = {"rowspan": span if span > 1 else None, "data-team": r["side"] if teams else None}
        cells = [h("th", {"scope": "row", "class": f"team team-{r['side']}" if teams else None},
                   v["names"][r["seat"]])]
        if with_hand:
            cells.append(h("td", {"class": "left"}, _mini_tiles(r["tiles"], display.pips, lang) if r["tiles"]
                           else t(lang, "result.none_left")))
            cells.append(h("td", {}, str(r["count"])))
            if fives:
                cells.append(h("td", {}, str(r["fives"])))
            if lead:
                cells.append(h("td", {"class": "pts " + _points_class(r["points"], good), **team_attrs},
                               ("+" if r["points"] > 0 else "") + str(r["points"])))
        if lead:
            cells.append(h("td", {"class": "tot", **team_attrs}, str(r["total"])))
        body.append(h("tr", {"data-seat": r["seat"], "data-points": r["points"], "data-total": r["total"],
                             "data-side": r["side"] if teams else None,
                             "class": "win" if r["side"] in winners else None}, cells))
    return h("div", {"class": "table-wrap"},
             h("table", {"class": "result"}, h("thead", {}, h("tr", {}, [h("th", {"scope": "col"}, x) for x in head])),
               h("tbody", {}, body)))


def hand_summary(c: Controller, v: dict, lang: str) -> list[Node]:
    """How the hand ended, who won it and how its points were made."""
    res = v.get("result") or {}
    names = v["names"]
    out = []
    end = res.get("end")
    if end == "domino":
        out_seat = next((i for i, n in enumerate(res.get("counts", [])) if n == 0), None)
        if out_seat is not None:
            out.append(t(lang, "result.domino", name=names[out_seat]))
    elif end == "blocked":
        out.append(t(lang, "result.blocked"))
    elif end == "target":
        out.append(t(lang, "result.target"))
    w = winning_side(res, v["sides"])
    if w is not None and end != "domino":
        out.append(t(lang, "result.winner", name=side_name(v, w, lang)))
    elif w is None and not any(res.get("points") or []):
        out.append(t(lang, "result.nobody"))
    if res.get("raw") is not None and v.get("shape", "line") == "line":
        # the trains, the foot and Frijolito count every seat's bad points: no pips to "count"
        out.append(t(lang, "result.how_raw", raw=res["raw"]))
    pts = res.get("points") or []
    if pts:
        out.append(t(lang, "result.how_points", points=", ".join(
            f"{side_name(v, i, lang)} {p}" for i, p in enumerate(pts))))
    return [h("p", {}, x) for x in out]


DEAL_WORDS = {"ok": "guest.deal_ok", "bad": "guest.deal_not_ok", "unrevealed": "guest.deal_not_shown"}


def deal_check(net: dict | None, lang: str) -> Node | None:
    """A guest's phone at a hand's end: its own check of the host's deal (domino.net.dealwatch), in words;
    ``data-deal`` is ``ok``, ``bad`` or ``unrevealed``."""
    status = (net or {}).get("deal")
    if status not in DEAL_WORDS:
        return None
    return h("p", {"class": "deal-check" + ("" if status == "ok" else " warn"), "data-testid": "deal-check",
                   "data-deal": status}, t(lang, DEAL_WORDS[status]))


def hand_result(c: Controller, v: dict, display: Display) -> Node:
    """The end of a hand: how it went, the points, the next hand's button."""
    lang = display.lang
    net = display.net
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "hr-title"},
             h("div", {"class": "card wide", "data-testid": "hand-result"},
               h("h2", {"id": "hr-title"}, t(lang, "result.title_round" if _by_rounds(v) else "result.title",
                                             n=v["hand_no"] + 1)),
               hand_summary(c, v, lang),
               _result_table(c, v, True, display),
               rounds_table(v, lang),
               net and net.get("clock"),
               net and net["waiting"] and h("p", {"class": "muted", "role": "status", "data-testid": "waiting"},
                                            t(lang, "guest.wait_next") if net["role"] == "guest" else
                                            t(lang, "friends.waiting", names=", ".join(net["waiting"]))),
               deal_check(net, lang),
               (not net or net.get("review")) and review_button(lang),
               h("button", {"type": "button", "class": "primary big", "data-action": "next-hand",
                            "data-testid": "next-hand", "data-seq": c.match.seq}, t(lang, "result.next"))))


def match_result(c: Controller, v: dict, display: Display) -> Node:
    """The end of the match: the winner, the final scores, the last hand."""
    lang = display.lang
    out = c.match.outcome or {}
    w = out.get("winner")
    title = t(lang, "match.winner", name=side_name(v, w, lang)) if w is not None else t(lang, "match.draw")
    extra = []
    net = display.net or {}
    if out.get("reason") == "idle":
        extra.append(h("p", {"data-testid": "match-ended", "data-ended": "idle"}, t(lang, "match.idle")))
    elif out.get("reason") == "resign" and net.get("ended") == "absence" and isinstance(net.get("abandoned"), int):
        extra.append(h("p", {"data-testid": "match-ended", "data-ended": "absence"},
                       t(lang, "match.absence", name=v["names"][net["abandoned"]])))
    elif out.get("reason") == "resign" and c.match.resigned:
        extra.append(h("p", {}, t(lang, "match.resign", name=v["names"][c.match.resigned["seat"]])))
    hand_part = []
    if v.get("result"):
        hand_part = hand_summary(c, v, lang) + [_result_table(c, v, True, display)]
    else:
        hand_part = [_result_table(c, v, False, display)]
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "mr-title"},
             h("div", {"class": "card wide", "data-testid": "match-result", "data-winner": "" if w is None else w},
               h("div", {"class": "trophy", "aria-hidden": "true"}, "★"),
               h("h2", {"id": "mr-title"}, title),
               extra,
               display.practice and h("p", {"class": "practice-note", "data-testid": "practice-note"},
                                      t(lang, "match.practice")),
               h("p", {"class": "final"}, t(lang, "match.final") + ": " + ", ".join(
                   f"{side_name(v, i, lang)} {s}" for i, s in enumerate(out.get("scores") or v["scores"]))),
               hand_part,
               rounds_table(v, lang),
               deal_check(display.net, lang),
               v.get("result") and (not display.net or display.net.get("review")) and review_button(lang),
               h("button", {"type": "button", "class": "primary big", "data-action": "new-match",
                            "data-testid": "new-match"},
                 # a match played when each can goes back to Your matches
                 t(lang, "later.title") if net.get("role") == "later" else t(lang, "match.new"))))
