"""Play with friends: the host's lobby and invitations, the seats' statuses, the guest's screens."""
from __future__ import annotations

from functools import lru_cache

from domino.app import qr
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.online import host_of, ice_text
from domino.app.settings import games, option_label, option_value_label
from domino.engine.rules import rules_from_options
from domino.net.host import TIMEOUTS
from domino.table import REMOTE, game_options

STATUS_ICON = {"here": "●", "computer": "⚙", "open": "○", "invited": "✉", "joined": "✓", "ready": "✔",
               "away": "⌛"}


@lru_cache(maxsize=16)
def _qr(link: str, label: str) -> Node:
    return qr.svg(link, "M", None, label, class_="qr", data_testid="invite-qr")


def game_name(game: str, lang: str) -> str:
    return next((g["name"][lang] for g in games() if g["id"] == game), game)


def code_words(game: str, options: dict, target, players: int, lang: str) -> str:
    """The lobby code in plain words: the length, the game, and every option that differs from its default."""
    words = []
    if target:
        words.append(t(lang, "new.target_value", points=target))
    words.append(game_name(game, lang))
    words.append(t(lang, "guest.players", n=players))
    for o in game_options(game):
        v = options.get(o["key"], o["default"])
        if v != o["default"]:
            words.append(f"{option_label(lang, o['key'])}: {option_value_label(lang, o['key'], v)}")
    return " · ".join(words)


def status_badge(seat: int, status: str, lang: str, guest: bool = False) -> Node:
    """A seat's status; on a guest's phone the host's own seat reads "host's phone"."""
    words = t(lang, "status.host" if guest and status == "here" else "status." + status)
    return h("span", {"class": f"net-status st-{status}", "data-testid": f"seat-status-{seat}",
                      "data-status": status},
             h("span", {"aria-hidden": "true"}, STATUS_ICON.get(status, "")), " ", words)


def invite_card(lang: str, seat: int, link: str | None, note: str, online: bool = False) -> Node:
    """One seat's invitation: the QR code, the link (share / copy), and the reply code's box
    (over the internet no reply code: the relays carry the answer)."""
    if link is None:
        body = [h("p", {"class": "muted", "data-testid": "invite-wait"}, t(lang, "friends.preparing"))]
    else:
        body = [h("div", {"class": "qr-box"}, _qr(link, t(lang, "friends.invite_for", n=seat + 1))),
                h("p", {"class": "invite-link", "data-testid": "invite-link", "data-link": link,
                        "data-seat": seat, "tabindex": 0}, link),     # focusable: a long link scrolls
                h("button", {"type": "button", "class": "secondary", "data-action": "share", "data-seat": seat,
                             "data-testid": f"share-{seat}"}, t(lang, "friends.share"))]
    rid = f"reply-{seat}"
    if online:
        body += [h("p", {"class": "muted"}, t(lang, "online.invite_help")),
                 h("p", {"class": "muted"}, t(lang, "online.notice_link")),
                 note and h("p", {"class": "net-note", "role": "status", "data-testid": "net-note"}, note)]
        return h("div", {"class": "invite", "data-testid": f"invite-{seat}", "data-seat": seat},
                 h("h3", {}, t(lang, "friends.invite_for", n=seat + 1)), body)
    body += [
        h("p", {"class": "muted"}, t(lang, "friends.invite_help")),
        h("label", {"class": "field", "for": rid}, h("span", {}, t(lang, "friends.reply_label", n=seat + 1))),
        h("div", {"class": "reply-row"},
          h("input", {"type": "text", "id": rid, "data-testid": "paste-reply", "data-seat": seat,
                      "autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
                      "placeholder": t(lang, "friends.reply_placeholder")}),
          h("button", {"type": "button", "class": "primary", "data-action": "accept-reply",
                       "data-testid": "accept-reply", "data-with": rid}, t(lang, "friends.accept"))),
        note and h("p", {"class": "net-note", "role": "status", "data-testid": "net-note"}, note),
    ]
    return h("div", {"class": "invite", "data-testid": f"invite-{seat}", "data-seat": seat},
             h("h3", {}, t(lang, "friends.invite_for", n=seat + 1)), body)


def host_panel(hosting) -> Node:
    """Under the lobby's form: the table's code, each seat's status and invitation, the away rule, Start."""
    lang = hosting.lang
    hst = hosting.table
    cfg = hst.public_config()
    code = hst.code()
    seats = []
    for st in hst.statuses():
        i = st["seat"]
        name = st["name"] or (t(lang, "friends.seat_you") if st["status"] == "here" else "")
        seats.append(h("li", {"class": "net-seat"}, h("strong", {}, t(lang, "friends.seat", n=i + 1)), " ",
                       name, " ", status_badge(i, st["status"], lang)))
    online = hosting.online_rooms is not None
    later = hosting.later
    invites = [invite_card(lang, seat, hosting.link_for(seat), hosting.net_note, online)
               for seat in hst.remote_seats() if seat not in hst.bound and not later]
    choices = [("computer", 30), ("computer", 60), ("computer", 120), ("abandon", 60), ("abandon", 120)]
    now = (hst.policy, int(hst.grace))
    if now not in choices:
        choices.insert(0, now)
    policy = h("label", {"class": "field"}, h("span", {}, t(lang, "friends.away_policy")),
               h("select", {"data-testid": "away-policy", "data-field": "away-policy"},
                 [h("option", {"value": f"{p}:{g}", "selected": "" if (p, g) == now else None},
                    t(lang, "friends.away_grace", s=g) + ", " + t(lang, "friends.away." + p))
                  for p, g in choices]))
    limits = [h("option", {"value": str(int(x)), "selected": "" if x == hst.timeout else None},
                t(lang, "friends.time_off") if not x else t(lang, "friends.time_min", n=int(x) // 60))
              for x in TIMEOUTS]
    limit = [h("label", {"class": "field"}, h("span", {}, t(lang, "friends.time_limit")),
               h("select", {"data-testid": "time-limit", "data-field": "time-limit",
                            "aria-describedby": "time-help"}, limits)),
             h("p", {"class": "muted", "id": "time-help"}, t(lang, "friends.time_help"))]
    can = hst.can_start() or later
    return h("div", {"class": "friends", "data-testid": "friends-panel"},
             h("p", {"class": "lobby", "data-testid": "lobby-code", "data-code": code},
               t(lang, "friends.code", code=code), h("br"),
               h("span", {"class": "muted"}, t(lang, "friends.code_explained", code=code, words=code_words(
                   cfg["game"], cfg["options"], cfg["target"], cfg["players"], lang)))),
             cfg["partnership"] and h("p", {"class": "muted"}, t(lang, "friends.partner")),
             lobby_choice(hosting),
             not later and online_panel(hosting),
             not online and not later and h("p", {"class": "local-note", "data-testid": "local-note"},
                                            t(lang, "friends.local")),
             h("ul", {"class": "net-seats"}, seats),
             invites,
             not later and policy,
             not later and limit,
             not can and h("p", {"class": "muted", "id": "start-wait"}, t(lang, "friends.start_wait")),
             h("div", {"class": "friends-actions"},
               h("button", {"type": "button", "class": "primary big", "data-action": "start-table",
                            "data-testid": "start-table", "disabled": None if can else "",
                            "aria-describedby": None if can else "start-wait"}, t(lang, "friends.start")),
               h("button", {"type": "button", "class": "secondary", "data-action": "leave-friends",
                            "data-testid": "leave-friends"}, t(lang, "friends.leave"))))


def lobby_choice(hosting) -> Node:
    """The friends' lobby: Now (a live table) or When you can (a match kept on the relays)."""
    lang = hosting.lang
    later = hosting.later
    started = hosting.table.started

    def radio(value: str, testid: str, on: bool) -> Node:
        return h("label", {"class": "check"},
                 h("input", {"type": "radio", "name": "when", "value": value, "data-testid": testid,
                             "data-action": "play-when", "data-when": value, "checked": "" if on else None,
                             "disabled": "" if started else None, "aria-describedby": f"when-{value}"}),
                 h("span", {}, t(lang, f"later.choice_{value}")))
    return h("fieldset", {"class": "when", "data-testid": "when"},
             h("legend", {}, t(lang, "later.when")),
             radio("now", "play-now", not later),
             h("p", {"class": "muted", "id": "when-now"}, t(lang, "later.now_help")),
             radio("later", "play-later", later),
             h("p", {"class": "muted", "id": "when-later"}, t(lang, "later.later_help")),
             later and h("p", {"class": "online-notice", "data-testid": "later-notice"},
                         t(lang, "later.stored", relays=", ".join(host_of(u) for u in hosting.session.relays))),
             later and hosting.table.players > 2 and h("p", {"class": "muted", "data-testid": "later-host-applies"},
                                                       t(lang, "later.many")),
             later and h("p", {"class": "muted", "data-testid": "later-rules"}, t(lang, "later.rules")))


def relay_status(link) -> Node | None:
    """The relays' state in words (``data-status``: connecting, connected, failed), and what to try."""
    w = link.online_words()
    if not link.relays.up:
        return None
    return h("div", {"class": f"relay-status rs-{w['state']}", "role": "status", "data-testid": "relay-status",
                     "data-status": w["state"]},
             h("p", {}, w["line"]), w["slow"] and h("p", {"class": "net-note", "data-testid": "online-hint"}, w["slow"]))


def online_settings(hosting) -> Node:
    """The relays and the STUN/TURN servers, editable (saved with the settings)."""
    lang = hosting.lang
    return h("details", {"class": "online-settings", "data-testid": "online-settings",
                         "open": "" if hosting.online_note else None},      # just saved or refused: still in view
             h("summary", {}, t(lang, "online.settings")),
             h("label", {"class": "field", "for": "relays"}, h("span", {}, t(lang, "online.relays"))),
             h("textarea", {"id": "relays", "data-testid": "relays", "rows": 4,
                            "spellcheck": "false", "autocapitalize": "off"}, "\n".join(hosting.session.relays)),
             h("label", {"class": "field", "for": "ice"}, h("span", {}, t(lang, "online.ice"))),
             h("textarea", {"id": "ice", "data-testid": "ice", "rows": 3,
                            "spellcheck": "false", "autocapitalize": "off"}, ice_text(hosting.session.ice)),
             h("div", {"class": "friends-actions"},
               h("button", {"type": "button", "class": "primary", "data-action": "online-settings",
                            "data-testid": "online-save", "data-with": "relays ice"}, t(lang, "online.save")),
               h("button", {"type": "button", "class": "secondary", "data-action": "online-defaults",
                            "data-testid": "online-defaults"}, t(lang, "online.reset"))),
             hosting.online_note and h("p", {"class": "net-note", "role": "status", "data-testid": "online-note"},
                                 hosting.online_note))


def online_panel(hosting) -> Node:
    """The host's opt-in: the switch, and when it is on, what leaves the phone and the relays' state."""
    lang = hosting.lang
    on = hosting.online_rooms is not None
    started = hosting.table.started
    return h("div", {"class": "online", "data-testid": "online"},
             h("label", {"class": "check big-check"},
               h("input", {"type": "checkbox", "data-testid": "online-switch", "data-action": "online-switch",
                           "checked": "" if on else None, "disabled": "" if started else None,
                           "aria-describedby": "online-help"}),
               h("span", {}, t(lang, "online.switch"))),
             h("p", {"class": "muted", "id": "online-help"}, t(lang, "online.switch_help")),
             on and h("p", {"class": "online-notice", "data-testid": "online-notice"}, hosting.online_words()["notice"]),
             on and relay_status(hosting),
             online_settings(hosting))


def table_bar(hosting) -> Node | None:
    """On the host's table: a friend who is away, and the one-tap invitation for their seat;
    and the host's hands on the friends' seats: the computer plays for one until the host
    gives it back (a seat the computer plays only while its friend is away can be handed
    too: then it stays with the computer when the friend is back), or the match ends
    because one is absent (asked first)."""
    hst = hosting.table
    lang = hosting.lang
    items = []
    controls = []
    live = hst.match is not None and not hst.match.finished
    for st in hst.statuses():
        seat = st["seat"]
        name = st["name"] or t(lang, "friends.seat", n=seat + 1)
        if st["status"] == "away" or (st["kind"] == REMOTE and st["status"] == "invited"):
            line = t(lang, "friends.stand_in", name=name) if st["stand_in"] else name + ": " + t(lang, "status.away")
            items.append(h("div", {"class": "net-away"}, h("span", {}, line),
                           h("button", {"type": "button", "class": "secondary", "data-action": "invite-again",
                                        "data-seat": seat, "data-testid": f"invite-again-{seat}"},
                             t(lang, "friends.invite_again", name=name))))
        if st["kind"] != REMOTE or not live:
            continue
        if not st["handed"]:       # the computer may already play for a friend away: the host's hand-over holds
            hand = h("button", {"type": "button", "class": "secondary", "data-action": "hand-to-computer",
                                "data-seat": seat, "data-testid": "hand-to-computer"},
                     t(lang, "friends.hand_to_computer", name=name))
        elif seat in hst.bound:
            hand = h("button", {"type": "button", "class": "secondary", "data-action": "give-back",
                                "data-seat": seat, "data-testid": "give-back"}, t(lang, "friends.give_back", name=name))
        else:
            hand = None
        controls.append(h("li", {"class": "net-seat-controls", "data-seat": seat},
                          h("span", {}, t(lang, "friends.handed", name=name) if st["stand_in"] else name), " ",
                          hand,
                          h("button", {"type": "button", "class": "secondary", "data-action": "end-absence",
                                       "data-seat": seat, "data-testid": "end-absence"},
                            t(lang, "friends.end_absence", name=name))))
    out = []
    if items:
        out.append(h("div", {"class": "net-bar", "data-testid": "net-bar", "role": "status"}, items))
    if controls and hosting.seat_controls:     # opened from the toolbar (seat_controls_button)
        out.append(h("div", {"class": "net-controls", "data-testid": "seat-controls"},
                     h("ul", {"id": "seat-controls-list", "aria-label": t(lang, "friends.seats")}, controls)))
    return out or None


def seat_controls_button(hosting) -> Node | None:
    """The host's toolbar button that shows or hides the buttons for the friends' seats."""
    hst = hosting.table
    if hst.match is None or hst.match.finished or not hst.remote_seats():
        return None
    shown = hosting.seat_controls
    return h("button", {"type": "button", "class": "tb", "data-action": "seat-controls",
                        "data-testid": "seat-controls-toggle", "aria-expanded": "true" if shown else "false",
                        "aria-controls": "seat-controls-list" if shown else None},
             h("span", {"class": "ico", "aria-hidden": "true"}, "👥"),
             h("span", {"class": "tb-text"}, t(hosting.lang, "friends.seats_short")))



def clock_line(lang: str, clock: dict, names: list[str]) -> Node:
    """The time left (the last seconds of a time limit), for everyone at the table."""
    seat = clock.get("seat")
    if clock["what"] == "turn":
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else t(lang, "friends.seat", n=seat + 1)
        words = t(lang, "friends.clock_turn", name=name, s=clock["left"])
    else:
        words = t(lang, "friends.clock_next", s=clock["left"])
    return h("p", {"class": "net-clock", "role": "status", "data-testid": "net-clock", "data-left": clock["left"]},
             h("span", {"aria-hidden": "true"}, "⏱ "), words)


def absence_dialog(hosting, seat: int) -> Node:
    """Before the host ends the match because a friend is absent."""
    lang = hosting.lang
    ctrl = hosting.session.ctrl
    name = ctrl.match.seats[seat]["name"] if ctrl is not None else t(lang, "friends.seat", n=seat + 1)
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "abs-title",
                     "data-testid": "absence-dialog"},
             h("div", {"class": "card"},
               h("h2", {"id": "abs-title"}, t(lang, "friends.absence_title", name=name)),
               h("p", {}, t(lang, "friends.absence_text", name=name)),
               h("div", {"class": "friends-actions"},
                 h("button", {"type": "button", "class": "primary", "data-action": "end-absence-no",
                              "data-testid": "end-absence-no"}, t(lang, "friends.absence_no")),
                 h("button", {"type": "button", "class": "secondary", "data-action": "end-absence-yes",
                              "data-testid": "end-absence-yes"}, t(lang, "friends.absence_yes")))))


def invite_dialog(hosting, seat: int) -> Node:
    lang = hosting.lang
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "inv-title"},
             h("div", {"class": "card"},
               h("h2", {"id": "inv-title"}, t(lang, "friends.invite_for", n=seat + 1)),
               invite_card(lang, seat, hosting.link_for(seat), hosting.net_note, hosting.online_rooms is not None),
               h("button", {"type": "button", "class": "secondary", "data-action": "close-invite",
                            "data-testid": "close-invite"}, t(lang, "friends.close_invite"))))


def _config_list(lobby: dict, seat: int, lang: str) -> Node:
    cfg = lobby["config"]
    try:
        players = int(cfg.get("players"))
        rules = rules_from_options(str(cfg.get("game")), dict(cfg.get("options") or {}))
        words = code_words(rules.game, rules.options(), cfg.get("target"), players, lang)
    except Exception:   # a host's config this version cannot read: show the code alone
        words = ""
    code = str(lobby.get("code") or "")
    seats = []
    for st in cfg.get("seats") or []:
        if not isinstance(st, dict) or not isinstance(st.get("seat"), int):
            continue
        i = st["seat"]
        name = str(st.get("name") or "")
        if i == seat:
            name = t(lang, "guest.you", name=name) if name else t(lang, "friends.seat_you")
        seats.append(h("li", {"class": "net-seat"}, h("strong", {}, t(lang, "friends.seat", n=i + 1)), " ",
                       name, " ", status_badge(i, str(st.get("status") or "open"), lang, guest=True)))
    return h("div", {"class": "guest-config", "data-testid": "guest-config"},
             h("h3", {}, t(lang, "guest.config")),
             h("p", {"class": "lobby", "data-testid": "lobby-code", "data-code": code}, t(lang, "friends.code", code=code),
               words and h("br"), words and h("span", {"class": "muted"},
                                               t(lang, "friends.code_explained", code=code, words=words))),
             cfg.get("partnership") and h("p", {"class": "muted"}, t(lang, "friends.partner")),
             h("ul", {"class": "net-seats"}, seats))


def guest_screen(joining, toolbar_node: Node) -> Node:
    """A guest before the match (or at its menu): the invitation, the reply code, the table's config, Start."""
    lang = joining.lang
    g = joining.table
    st = joining.state
    ctrl = joining.session.ctrl
    body: list = []
    if st == "bad":
        body.append(h("p", {"class": "error", "role": "alert", "data-testid": "guest-error"},
                      t(lang, "guest.not_local", address=joining.not_local) if joining.not_local
                      else t(lang, "guest.bad_link", why=joining.why)))
    else:
        body.append(h("p", {}, t(lang, "guest.seat", n=g.seat + 1)))
        if ctrl is not None:
            body.append(h("button", {"type": "button", "class": "primary big", "data-action": "continue",
                                     "data-testid": "continue"}, t(lang, "guest.back")))
        if st in ("invited", "answering", "waiting"):
            body.append(h("p", {"class": "local-note"}, t(lang, "friends.local")))
        if st == "consent":
            body += [h("p", {"class": "online-notice", "data-testid": "online-notice"}, joining.online_words()["notice"]),
                     h("button", {"type": "button", "class": "primary big", "data-action": "online-join",
                                  "data-testid": "online-join"}, t(lang, "online.join"))]
        elif st == "online":
            body += [h("p", {"class": "muted", "role": "status", "data-testid": "online-looking"},
                       t(lang, "online.waiting_host")), relay_status(joining)]
        elif joining.online is not None and joining.relays.up:
            body.append(relay_status(joining))
        if st == "invited":
            body += [h("p", {"class": "muted", "data-testid": "guest-answer-help"}, t(lang, "guest.answer_help")),
                     h("button", {"type": "button", "class": "primary big", "data-action": "guest-answer",
                                  "data-testid": "guest-answer"}, t(lang, "guest.answer"))]
        elif st == "answering":
            body.append(h("p", {"class": "muted"}, t(lang, "guest.making")))
        elif st == "waiting":
            body += [h("h3", {}, t(lang, "guest.reply")),
                     h("p", {"class": "reply-code", "data-testid": "reply-code", "data-code": joining.code},
                       joining.code),
                     h("p", {"class": "muted"}, t(lang, "guest.reply_help")),
                     h("p", {"class": "muted", "role": "status"}, t(lang, "guest.waiting_host"))]
        elif st == "open":
            body.append(h("p", {"class": "ok", "role": "status", "data-testid": "guest-connected"},
                          t(lang, "guest.connected")))
        elif st == "lost":
            body.append(h("p", {"class": "error", "role": "alert", "data-testid": "guest-lost"}, t(lang, "guest.lost")))
        elif st == "closed":
            body.append(h("p", {"class": "error", "role": "alert", "data-testid": "guest-closed"},
                          t(lang, "guest.closed", why=joining.why)))
        if g.refusal is not None:
            body.append(h("p", {"class": "error", "data-testid": "guest-refused"},
                          t(lang, "guest.refused", why=g.refusal.message)))
        if g.lobby is not None and ctrl is None:
            body.append(_config_list(g.lobby, g.seat, lang))
        if st == "open" and ctrl is None:
            body += [h("label", {"class": "field"}, h("span", {}, t(lang, "guest.name")),
                       h("input", {"type": "text", "id": "guest-name", "data-testid": "guest-name", "maxlength": 24,
                                   "autocomplete": "nickname", "value": g.name})),
                     joining.ready and h("p", {"class": "ok", "data-testid": "guest-ready"}, t(lang, "guest.ready_wait")),
                     h("button", {"type": "button", "class": "secondary big" if joining.ready else "primary big",
                                  "data-action": "join-table", "data-testid": "join-table", "data-with": "guest-name",
                                  "aria-pressed": "true" if joining.ready else "false"},
                       t(lang, "guest.not_ready" if joining.ready else "guest.start"))]
    body.append(h("button", {"type": "button", "class": "secondary", "data-action": "guest-leave",
                             "data-testid": "guest-leave"}, t(lang, "guest.leave")))
    return h("section", {"class": "screen newgame guest", "data-testid": "guest"},
             h("header", {"class": "topbar"},
               h("h1", {"class": "brand"}, h("span", {"class": "logo", "aria-hidden": "true"}), t(lang, "app.title")),
               toolbar_node),
             h("div", {"class": "card"}, h("h2", {}, t(lang, "guest.title")), body))
