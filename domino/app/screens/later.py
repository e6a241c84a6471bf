"""A match played when each can (issue 40): Your matches, the bar of its table, a friend's invitation."""
from __future__ import annotations

from typing import Any

from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.online import host_of
from domino.app.screens import friends
from domino.app.screens.lobby import toolbar
from domino.app.screens.results import hand_summary
from domino.app.story import side_name
from domino.net.mailbox import IDLE_AFTER


def turn_state(info: dict) -> str:
    """``you``, ``waiting`` or ``over`` (a line's ``data-turn``)."""
    if info.get("over"):
        return "over"
    if info.get("sent"):          # this seat's move is made, on its way to the host's phone
        return "waiting"
    return "you" if info.get("turn") is not None and info.get("turn") == info.get("seat") else "waiting"


def ago(lang: str, since: Any, now: float) -> str:
    """Since when, in words: now, minutes, hours or days ago."""
    if not isinstance(since, int):
        return ""
    s = max(0, int(now) - since)
    if s < 60:
        return t(lang, "later.ago_now")
    if s < 3600:
        return t(lang, "later.ago_min", n=s // 60)
    if s < 86400:
        return t(lang, "later.ago_h", n=s // 3600)
    return t(lang, "later.ago_d", n=s // 86400)


def info_of(view: dict | None, since: Any, now: float, seat: int = 0, *, abandoned: Any = None,
            idle: bool = False, absent: Any = None, claimed: Any = None) -> dict:
    """What Your matches says of a match, from the seat's view: the game, the names, whose turn (None when
    over), since when (the host's clock), the score; how it ended (``ended``: ``absence`` with the
    ``abandoned`` seat, ``idle``: no move for 7 days, which ``idle`` says this phone already sees, else
    ``""``); the seat this phone may end for absence now (``absent``) and the one it asked to (``claimed``)."""
    if view is None:
        return {"game": "", "names": [], "seat": seat, "turn": None, "since": None, "scores": [], "side": 0,
                "over": False, "updated": int(now), "ended": "", "abandoned": None, "absent": None,
                "claimed": None, "kinds": []}
    outcome = view.get("outcome")
    over = outcome is not None or idle
    reason = (outcome or {}).get("reason")
    ended = "idle" if idle or reason == "idle" else "absence" if reason == "resign" and abandoned is not None \
        else ""
    return {"game": view["game"], "names": list(view["names"]), "seat": view["seat"], "side": view["side"],
            "turn": None if over else view["turn"], "since": since if isinstance(since, int) else None,
            "scores": list(view["scores"]), "over": over, "updated": int(now), "ended": ended,
            "abandoned": abandoned if ended == "absence" else None,
            "absent": None if over else absent, "claimed": None if over else claimed,
            "kinds": list(view.get("kinds") or [])}


def clean_info(info: Any) -> dict:
    """A kept summary as the screens may read it (a phone's storage is not trusted: anything else is
    dropped)."""
    info = info if isinstance(info, dict) else {}
    names = info.get("names") if isinstance(info.get("names"), list) else []
    scores = info.get("scores") if isinstance(info.get("scores"), list) else []

    def num(x: Any) -> int | None:
        return x if type(x) is int else None
    kinds = info.get("kinds") if isinstance(info.get("kinds"), list) else []
    return {"game": str(info.get("game") or "")[:40], "names": [str(n)[:40] for n in names[:8]],
            "seat": num(info.get("seat")), "side": num(info.get("side")), "turn": num(info.get("turn")),
            "since": num(info.get("since")), "scores": [x for x in scores[:8] if type(x) is int],
            "over": info.get("over") is True, "sent": info.get("sent") is True, "updated": num(info.get("updated")),
            "ended": info.get("ended") if info.get("ended") in ("idle", "absence") else "",
            "abandoned": num(info.get("abandoned")), "absent": num(info.get("absent")),
            "claimed": num(info.get("claimed")), "kinds": [str(k)[:12] for k in kinds[:8]]}


def name_of(lang: str, info: dict, seat: Any) -> str:
    names = info.get("names") or []
    return str(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else "…"


def over_words(lang: str, info: dict) -> str:
    """How a finished match ended, in words."""
    if info.get("ended") == "idle":
        return t(lang, "later.over_idle")
    if info.get("ended") == "absence":
        return t(lang, "later.over_absence", name=name_of(lang, info, info.get("abandoned")))
    return t(lang, "later.over")


def _screen(lang: str, pips: str, sound: bool, testid: str, title: str, body: list) -> Node:
    return h("section", {"class": "screen newgame later", "data-testid": testid},
             h("header", {"class": "topbar"},
               h("h1", {"class": "brand"}, h("span", {"class": "logo", "aria-hidden": "true"}), t(lang, "app.title")),
               toolbar(lang, pips, game=None, seq=None, sound=sound)),
             h("div", {"class": "card"}, h("h2", {}, title), body))


def match_line(lang: str, mid: str, info: dict, now: float) -> Node:
    """One match: the game, the others' names, whose turn and since when, the score."""
    state = turn_state(info)
    names = [str(n) for n in info.get("names") or []]
    seat = info.get("seat")
    others = ", ".join(n for i, n in enumerate(names) if i != seat) or "…"
    turn = info.get("turn")
    since = ago(lang, info.get("since"), now)
    if state == "over":
        whose = over_words(lang, info)
    elif info.get("claimed") is not None:
        whose = t(lang, "later.claimed_short", name=name_of(lang, info, info["claimed"]))
    elif info.get("sent"):
        whose = t(lang, "later.sent")
    elif state == "you":
        whose = t(lang, "later.your_turn", since=since)
    else:
        whose = t(lang, "later.their_turn", name=names[turn] if isinstance(turn, int) and 0 <= turn < len(names)
                  else "…", since=since)
    scores = info.get("scores") or []
    score = " – ".join(str(x) for x in scores)
    game = friends.game_name(str(info.get("game") or ""), lang) if info.get("game") else t(lang, "later.no_view")
    return h("li", {"class": "match-item" + (" mine" if state == "you" else ""), "data-testid": "match-item",
                    "data-turn": state, "data-match": mid},
             h("button", {"type": "button", "class": "primary" if state == "you" else "secondary",
                          "data-action": "open-match", "data-match": mid, "data-testid": "open-match"},
               state == "you" and h("span", {"class": "ico", "aria-hidden": "true"}, "● "),
               h("strong", {}, game), " · ", t(lang, "later.with", names=others)),
             h("p", {"class": "muted"}, whose, score and " · " + t(lang, "later.score", score=score)))


def at(info: dict, now: float) -> dict:
    """A kept summary as it reads at ``now``: a table with no move for 7 days is over with no winner (the
    host's phone ends it so when it next opens the match)."""
    since = info.get("since")
    if not info.get("over") and isinstance(since, int) and int(now) - since > IDLE_AFTER:
        return dict(info, over=True, ended="idle", turn=None, absent=None, claimed=None, sent=False)
    return info


def matches_screen(lang: str, pips: str, sound: bool, infos: list[tuple[str, dict]], now: float, *,
                   problem: str = "", sent: str = "stored", synced: str = "1") -> Node:
    """Your matches: one line each (``infos``: match id and :func:`info_of`), a match whose turn is yours on
    top (and marked); ``problem``: a relay's refusal in words; ``sent``, ``synced``: see :mod:`link.later`."""
    infos = [(mid, at(info, now)) for mid, info in infos]
    order = {"you": 0, "waiting": 1, "over": 2}
    infos = sorted(infos, key=lambda x: (order[turn_state(x[1])], -(x[1].get("since") or 0)))
    body: list = [h("p", {"class": "muted"}, t(lang, "later.list_help"))]
    if infos:
        body.append(h("ul", {"class": "match-list", "data-testid": "match-list"},
                      [match_line(lang, mid, info, now) for mid, info in infos]))
    else:
        body.append(h("p", {"data-testid": "no-matches"}, t(lang, "later.none")))
    if problem:
        body.append(h("p", {"class": "error", "role": "alert"}, problem))
    body.append(h("button", {"type": "button", "class": "secondary", "data-action": "later-leave",
                             "data-testid": "later-leave"}, t(lang, "later.leave")))
    tree = _screen(lang, pips, sound, "my-matches", t(lang, "later.title"), body)
    tree[1].update({"data-sent": sent, "data-synced": synced})
    return tree


def status_lines(lang: str, info: dict, pending: bool, now: float, host_name: str = "") -> list[str]:
    """What the table's bar says: whom this phone waits for and since when, or who waits for this phone; a
    move sent, not yet applied; an absence asked for; how the match ended."""
    lines = []
    names, turn = info.get("names") or [], info.get("turn")
    state = turn_state(info)
    if state == "over":
        return [over_words(lang, info) + "."]
    if state == "waiting" and isinstance(turn, int) and 0 <= turn < len(names) and turn != info.get("seat"):
        lines.append(t(lang, "later.waiting_for", name=names[turn], since=ago(lang, info.get("since"), now)))
    elif state == "you":
        lines.append(t(lang, "later.your_turn_now"))
        kinds = info.get("kinds") or []
        others = [n for i, n in enumerate(names) if i != info.get("seat") and i < len(kinds)
                  and kinds[i] in ("human", "remote")]
        if others:
            lines.append(t(lang, "later.waiting_on_you", names=", ".join(others),
                           since=ago(lang, info.get("since"), now)))
    if info.get("claimed") is not None:
        lines.append(t(lang, "later.claimed", name=name_of(lang, info, info["claimed"]), host=host_name or "…"))
    elif pending:
        lines.append(t(lang, "later.sent"))
    if info.get("absent") is not None:
        lines.append(t(lang, "later.absent_help", name=name_of(lang, info, info["absent"])))
    return lines


def hand_card(lang: str, v: dict) -> Node:
    """The last hand's result, over the next hand's table (a match played when each can deals the next hand
    at once: each phone shows the result once, until its player taps OK)."""
    res = v["results"][-1]
    shown = dict(v, result=res)
    totals = res.get("totals") or v["scores"]
    return h("div", {"class": "later-hand-result", "role": "status", "data-testid": "later-hand-result",
                     "data-hand": len(v["results"])},
             h("h2", {}, t(lang, "later.hand_over", n=len(v["results"]))),
             hand_summary(None, shown, lang),
             h("p", {}, t(lang, "match.final") + ": " + ", ".join(
                 f"{side_name(v, i, lang)} {s}" for i, s in enumerate(totals))),
             h("button", {"type": "button", "class": "primary", "data-action": "later-hand-ok",
                          "data-testid": "later-hand-ok"}, t(lang, "later.hand_ok")))


def table_bar(lang: str, lines: list[str], invites: list[tuple[int, str, str]], *, shared: str = "",
              record: bool = False, sent: str = "stored", synced: str = "1", more_open: bool = False,
              info: dict | None = None, tell: bool = False, card: Node | None = None) -> Node:
    """Over the table: whose turn it is and since when, what was sent; and a button (``later-more``) that
    shows each friend's link (``invites``: seat, name, link: the host's), the record's download (the
    host's) and Your matches."""
    more: list = [h("p", {"class": "muted"}, t(lang, "later.close_hint"))]
    for seat, name, url in invites:
        more.append(h("div", {"class": "later-invite", "data-testid": f"later-invite-{seat}"},
                      h("p", {}, t(lang, "later.invite_for", name=name)),
                      h("p", {"class": "invite-link", "data-testid": "invite-link", "data-link": url,
                              "data-seat": seat, "tabindex": 0}, url),
                      h("button", {"type": "button", "class": "secondary", "data-action": "share",
                                   "data-seat": seat, "data-testid": f"share-{seat}"}, t(lang, "friends.share"))))
    if record:
        more.append(h("button", {"type": "button", "class": "secondary", "data-action": "export",
                                 "data-testid": "export"}, t(lang, "safe.export_label")))
    more.append(h("button", {"type": "button", "class": "secondary", "data-action": "my-matches",
                             "data-testid": "my-matches-back"}, t(lang, "later.title")))
    info = info or {}
    actions: list = []
    if info.get("absent") is not None:
        actions.append(h("button", {"type": "button", "class": "danger", "data-action": "end-absence",
                                    "data-seat": info["absent"], "data-testid": "end-absence"},
                         t(lang, "later.end_absence", name=name_of(lang, info, info["absent"]))))
    if tell:
        actions.append(h("button", {"type": "button", "class": "secondary", "data-action": "tell-turn",
                                    "data-seat": info.get("turn"), "data-testid": "tell-turn"},
                         t(lang, "later.tell", name=name_of(lang, info, info.get("turn")))))
    items = [h("div", {"class": "later-line"},
               h("p", {"data-testid": "later-status", "role": "status"},
                 " ".join(lines) or t(lang, "later.your_turn_now")),
               h("button", {"type": "button", "class": "secondary", "data-action": "later-more",
                            "data-testid": "later-more", "aria-expanded": "true" if more_open else "false",
                            "aria-controls": "later-more-list" if more_open else None}, t(lang, "later.more"))),
             card,
             h("div", {"class": "later-actions"}, actions) if actions else None,
             shared and h("p", {"class": "net-note", "role": "status", "data-testid": "shared"}, shared),
             more_open and h("div", {"class": "later-more-list", "id": "later-more-list"}, more)]
    return h("div", {"class": "net-bar later-bar", "data-testid": "later-bar", "data-sent": sent,
                     "data-synced": synced}, items)


def waiting_screen(link) -> Node:
    """A friend's seat before the host's first view has arrived."""
    lang = link.lang
    body = [h("p", {"role": "status", "data-testid": "later-waiting"}, t(lang, "later.first_view")),
            link.relay_line() and h("p", {"class": "error", "role": "alert"}, link.relay_line()),
            h("button", {"type": "button", "class": "secondary", "data-action": "my-matches",
                         "data-testid": "my-matches-back"}, t(lang, "later.title"))]
    session = link.session
    return _screen(lang, session.pips, session.sound, "later-guest", t(lang, "later.title"), body)


def invited_screen(link) -> Node:
    """A friend's link opened for the first time: what is stored where, and the tap that joins."""
    lang = link.lang
    if link.ticket is None:
        body: list = [h("p", {"class": "error", "role": "alert", "data-testid": "guest-error"},
                        t(lang, "guest.bad_link", why=link.why))]
    else:
        body = [h("p", {}, t(lang, "later.invited", n=link.ticket.seat + 1)),
                h("p", {"class": "online-notice", "data-testid": "later-notice"},
                  t(lang, "later.stored", relays=", ".join(host_of(u) for u in link.relays))),
                h("button", {"type": "button", "class": "primary big", "data-action": "later-join",
                             "data-testid": "later-join"}, t(lang, "later.join"))]
    body.append(h("button", {"type": "button", "class": "secondary", "data-action": "later-leave",
                             "data-testid": "later-leave"}, t(lang, "later.leave")))
    session = link.session
    return _screen(lang, session.pips, session.sound, "later-invited", t(lang, "later.invited_title"), body)
