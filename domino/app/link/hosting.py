"""This phone hosts a friends' table: the lobby, the invitations, the seats, and the match shared.

The page's network layer (``static/rtc.js`` through ``domino/browser.py``) is driven by commands in
``Out.net``:

* ``{"op": "offer", "seat": s}`` -> the page makes a WebRTC offer and answers with the input
  ``{"action": "net-offer", "seat": s, "conn": id, "sdp": ...}`` (or ``"error"``);
* ``{"op": "accept", "conn": id, "sdp": answer}``, ``{"op": "send", "conn": id, "text": ...}``,
  ``{"op": "close", "conn": id}``, ``{"op": "share", "url": ..., "title": ...}`` (-> ``net-shared`` with ``how``).

The transport's events come back as ``net-open``, ``net-message`` (``conn``, ``text``), ``net-close``
(``conn``, ``reason``) and ``net-tick`` (once a second while a table is up).

:class:`~domino.net.host.HostTable` checks every guest message; an action it accepts goes through
:meth:`Session.play`, like a tap: applied, saved, and only then sent on (:meth:`Hosting.after_save`: the
``ack`` and the new views).  Every remote seat without a device has an offer ready, so "invite again" is one
tap.  Over the internet (:mod:`domino.app.link.relays`) each remote seat has a room on the relays instead.
"""
from __future__ import annotations

import json
import re

from domino.app.answers import answers
from domino.app.friends import invite_link
from domino.app.i18n import t
from domino.app.link.base import Link
from domino.app.link.relays import Relays
from domino.app.link.votes import NextVotes, host_seats, missing
from domino.app.links import INVITATIONS
from domino.app.nodes import Node
from domino.app.online import (DEFAULT_ICE, DEFAULT_RELAYS, OnlineError, new_room, online_link, parse_ice,
                               parse_relays, read_rooms)
from domino.app.screens import friends as friends_screens
from domino.app.screens.lobby import new_game_screen
from domino.app.settings import default_target, read_form
from domino.engine.common import new_seed
from domino.engine.match import HUMAN
from domino.net import sdp
from domino.net.host import TIMEOUTS, HostTable, NetError
from domino.table import REMOTE, default_options, normalize_settings

DEFAULT_GRACE = 60
CONNECT_TIMEOUT = 12.0         # seconds from a pasted reply code to an open channel
_REPLY = re.compile(r"^\s*([1-8])\s*[.·:]\s*(\S.*)$", re.S)


class Hosting(Link):
    """The host's link: a :class:`HostTable` around the session's match."""

    role = "host"

    def __init__(self, session, host: HostTable, rooms: dict[str, dict] | None = None):
        super().__init__(session)
        self.table = host
        self.offers: dict[int, dict] = {}       # seat -> {"conn", "code"}: the seat's invitation
        self.conn_seat: dict[int, int] = {}     # conn -> seat, while its offer waits for an answer
        self.invite_seat: int | None = None     # the invitation shown at the table
        self.net_note = ""                      # the last reply-code problem or share result
        self.votes = NextVotes()                # "next hand" taps, for the hand they were made in
        self.confirm_absence: int | None = None # the seat whose absence would end the match (asked)
        self.seat_controls = False              # the buttons for the friends' seats are shown
        self.online_rooms = rooms               # over the internet: a room per seat's secret, else None
        self.online_note = ""                   # the internet settings' last save
        self.relays = Relays(self.net, lambda: self.session.clock())    # the clock the session has now
        self.later = False                      # "When you can": a match kept on the relays (link.later)

    # ------------------------------------------------------------ made and closed
    @classmethod
    def open(cls, session) -> "Hosting":
        """The friends' lobby: the form's game, the host in seat 1, friends' phones elsewhere
        (NetError, ValueError: the settings cannot make a table)."""
        settings = normalize_settings(session.new_settings, session.lang)
        seats = [dict(x) for x in settings["seats"]]
        for i, x in enumerate(seats):
            x["kind"] = HUMAN if i == 0 else REMOTE
        settings["seats"] = seats
        grace = session.grace if session.grace is not None else DEFAULT_GRACE
        hosting = cls(session, HostTable(settings, grace=grace, now=session.clock()))
        hosting.save_table()
        hosting.need_offers()
        return hosting

    @classmethod
    def restore(cls, session) -> "Hosting | None":
        """After the host's reload: the saved table around the saved match.  A match whose table is lost
        gets computers in its friends' seats."""
        text = session.storage.table()
        c = session.ctrl
        hosting = None
        if text:
            try:
                doc = json.loads(text)
                table = HostTable.from_state(doc["table"], session.clock())
                rooms, old = read_rooms(doc.get("online"))     # OnlineError is a ValueError
                hosting = cls(session, table, rooms)
                if old:      # one room for every seat, from before: each seat gets its own (new links)
                    hosting.net_note = t(session.lang, "online.rooms_renewed")
                    session.warn("domino: the table's rooms on the relays were renewed, one per seat")
                if table.started:
                    if c is None or doc.get("id") != session.match_id or c.match.outcome:
                        raise NetError("its match is not the saved one")
                    table.attach(c.match, session.clock())
            except (ValueError, KeyError, TypeError, NetError) as e:
                session.warn("domino: the friends' table was not restored: " + str(e))
                session.storage.drop_table()
                hosting = None
        if c is not None and (hosting is None or not hosting.table.started) and any(
                x["kind"] == REMOTE for x in c.match.seats):
            for x in c.match.seats:
                if x["kind"] == REMOTE:
                    x["kind"] = "medium"
            session.safety.notes.append(t(session.lang, "friends.table_lost"))
            session.save_game(force=True)
        return hosting

    def close(self) -> None:
        """The host closes the table: every friend is told, every connection closed."""
        session = self.session
        self.wire(self.table.close())
        for conn in list(self.conn_seat):
            self.net(op="close", conn=conn)
        self.relays.leave()
        self.offers, self.conn_seat, self.online_rooms = {}, {}, None
        session.storage.drop_table()
        if session.ctrl is not None and any(x["kind"] == REMOTE for x in session.ctrl.match.seats):
            session.ctrl = None
        session.unlink()

    def save_table(self) -> None:
        session = self.session
        session.storage.write_table(json.dumps({"id": session.match_id if self.table.started else "",
                                                "table": self.table.state(session.clock()),
                                                "online": None if self.online_rooms is None
                                                else {"rooms": self.online_rooms}}))

    # ------------------------------------------------------------ the session asks
    def start(self) -> None:
        self.need_offers()
        self.online_join()

    def after_save(self) -> None:
        """After every save of the host's match: the acks and the new views."""
        h, c = self.table, self.session.ctrl
        if h.match is not None and c is not None and h.match is c.match:
            self.send_all(h.sync(self.session.clock()))

    def next_hand(self) -> bool:
        c = self.session.ctrl
        if c is None or c.match.phase != "hand-over":
            return False
        if self.table.match is c.match:
            self.vote(*host_seats(self.table))
        return True

    def back_to_lobby(self) -> bool:
        session = self.session
        if session.ctrl is None or not session.ctrl.match.outcome:
            return False
        session.ctrl = None           # the table goes back to its lobby, the same friends seated
        self.host_result(self.table.to_lobby())
        session.storage.drop_save()
        session.known = None
        session.render()
        return True

    def replaced_by(self, match) -> None:
        if match is not self.table.match and self.table.started:
            self.close()      # a match of this phone's own replaces the friends' one

    def form_change(self, inp: dict) -> bool:
        if self.table.started:
            return False
        if inp.get("field") in ("away-policy", "time-limit"):
            self.away_policy(inp)
        else:
            self.lobby_change(inp.get("form") or {}, inp.get("field"))
        return True

    def lobby_screen(self) -> Node | None:
        session = self.session
        if self.table.started:
            return None
        return new_game_screen(self.table.config, session.lang, session.pips, session.error, session.save_error,
                               sound=session.sound, friends=friends_screens.host_panel(self))

    def table_words(self) -> dict:
        c = self.session.ctrl
        waiting = self.waiting_for() if c is not None and c.match.phase == "hand-over" and self.votes.of(
            self.hand_key()) else []
        people = {st["seat"]: st["status"] for st in self.table.statuses() if st["status"] != "computer"}
        clock = self.table.clock_shown
        names = [x["name"] for x in c.match.seats] if c is not None else []
        return {"role": self.role, "statuses": people, "waiting": waiting,
                "clock": friends_screens.clock_line(self.lang, clock, names) if clock else None,
                "bar": friends_screens.table_bar(self), "tool": friends_screens.seat_controls_button(self),
                "banner": "", "review": True}

    def dialogs(self) -> list:
        out = []
        if self.invite_seat is not None:
            out.append(friends_screens.invite_dialog(self, self.invite_seat))
        if self.confirm_absence is not None:
            out.append(friends_screens.absence_dialog(self, self.confirm_absence))
        return out

    def focus_target(self) -> str | None:
        return '[data-action="end-absence-no"]' if self.confirm_absence is not None else None

    def escape(self) -> bool:
        if self.confirm_absence is None:
            return False
        self.confirm_absence = None
        return True

    def snapshot_ok(self) -> bool:
        return self.session.at_table()

    def connections(self) -> set[int]:
        conns = set(self.conn_seat) | {o["conn"] for o in self.offers.values() if o.get("conn") is not None}
        return conns | {int(p) for p in self.table.peers if str(p).isdigit()}

    # ------------------------------------------------------------ the lobby
    @answers("play-friends")
    def play_friends(self, inp: dict) -> None:
        self.session.render()        # a table is up already (its match is one tap away)

    @answers("leave-friends")
    def leave_friends(self, inp: dict) -> None:
        self.close()
        self.session.render()

    def lobby_change(self, form: dict, field: str | None) -> None:
        """A change of the lobby's form: the table's new config (the Starts cleared)."""
        session = self.session
        cfg = self.table.config
        settings = read_form(dict(cfg, seats=[dict(x) for x in cfg["seats"]]), form)
        if field == "game":
            settings["target"] = default_target(settings["game"])
            settings["options"] = default_options(settings["game"])
        here = [i for i, x in enumerate(settings["seats"][:int(settings.get("players") or 2)]) if x["kind"] == HUMAN]
        for i in here[1:]:      # one person on this phone: a second one is a friend's phone
            settings["seats"][i]["kind"] = REMOTE
        try:
            res = self.table.set_config(settings)
        except (NetError, ValueError) as e:
            session.error = t(session.lang, "new.invalid", why=str(e))
            session.render()
            return
        session.error = ""
        self.host_result(res)
        self.need_offers()
        self.save_table()
        session.render()

    def away_policy(self, inp: dict) -> None:
        """What happens to a seat whose friend is away: ``"computer:60"``, ``"abandon:120"``...;
        and (field ``time-limit``) the seconds for a turn and for Next: ``"0"`` (no limit), ``"60"``..."""
        if self.table.started:
            return
        if inp.get("field") == "time-limit":
            try:
                limit = float(str(inp.get("value")))
            except ValueError:
                return
            if limit not in TIMEOUTS:
                return
            self.table.timeout = limit
        else:
            policy, _, grace = str(inp.get("value") or "").partition(":")
            if policy not in ("computer", "abandon") or not grace.isdigit():
                return
            self.table.policy, self.table.grace = policy, float(min(600, int(grace)))
        self.host_result(self.table.set_config(self.table.config))
        self.save_table()
        self.session.render()

    @answers("play-when")
    def play_when(self, inp: dict) -> None:
        """Now (a live table) or When you can (a match kept on the relays, played over days)."""
        if not self.table.started:
            self.later = inp.get("when") == "later"
            self.session.render()

    @answers("start-table")
    def start_table(self, inp: dict) -> None:
        session, h = self.session, self.table
        if self.later:
            self.start_later()
            return
        if not h.can_start():
            return
        seed = session.seed if session.seed is not None else new_seed()
        match = h.new_match(seed, session.lang)
        session.start_with(match)      # the session's start: saved, drawn, the computers on
        self.send_all(h.start(match, session.clock()) + h.broadcast_status())
        self.save_table()

    def start_later(self) -> None:
        """When you can: the lobby's table becomes a match kept on the relays (the friends get its links)."""
        from domino.app.link.later import LaterHost     # later.py builds on this module's screens
        session = self.session
        seed = session.seed if session.seed is not None else new_seed()
        config = self.table.config
        self.close()
        LaterHost.create(session, config, seed)
        session.changed()

    # ------------------------------------------------------------ invitations
    def need_offers(self) -> None:
        """Every remote seat without a device has an invitation ready; other seats have none."""
        h = self.table
        remote = set(h.remote_seats())
        for seat in list(self.offers):
            if seat not in remote or seat in h.bound:
                self.drop_offer(seat)
                if seat not in remote:
                    h.secrets.pop(seat, None)
        for seat in sorted(remote):
            if seat in h.bound or seat in self.offers:
                continue
            h.invite(seat)
            if self.online_rooms is not None:    # over the internet the link needs no offer
                continue
            self.offers[seat] = {"conn": None, "code": None}
            self.net(op="offer", seat=seat)
        self.sync_rooms()                        # over the internet: a room per seat's secret

    def drop_offer(self, seat: int) -> None:
        o = self.offers.pop(seat, None)
        if o and o["conn"] is not None:
            self.conn_seat.pop(o["conn"], None)
            self.net(op="close", conn=o["conn"])

    @answers("net-offer")
    def on_offer(self, inp: dict) -> None:
        seat, conn = inp.get("seat"), inp.get("conn")
        o = self.offers.get(seat)
        if o is None or o["conn"] is not None:
            if conn is not None:
                self.net(op="close", conn=conn)
            return
        if inp.get("error") or conn is None:
            self.net_note = t(self.lang, "guest.no_rtc") + " " + str(inp.get("error") or "")[:80]
            self.session.render()
            return
        try:
            code = sdp.compact(str(inp.get("sdp") or ""))
        except sdp.SdpCodeError as e:
            self.net_note = str(e)
            self.net(op="close", conn=conn)
            self.session.render()
            return
        o["conn"], o["code"] = conn, code
        self.conn_seat[conn] = seat
        self.session.render()

    def link_for(self, seat: int) -> str | None:
        """The seat's invitation link (None while its offer is being made)."""
        base = self.session.base_url
        if self.online_rooms is not None:
            secret = self.table.secrets.get(seat)
            room = self.online_rooms.get(secret) if secret else None
            return online_link(base, seat, secret, room, self.session.relays) if room is not None else None
        o = self.offers.get(seat)
        if not o or not o["code"]:
            return None
        return invite_link(base, seat, self.table.secrets[seat], o["code"])

    @answers("accept-reply")
    def accept_reply(self, inp: dict) -> None:
        """The reply code a friend's phone showed: connect that seat's offer to it."""
        text = str(inp.get("value") or "")[:600]
        self.net_note = ""
        m = _REPLY.match(text)
        if any(p in text for p in INVITATIONS):
            self.net_note = t(self.lang, "reply.is_invite")
        elif m is None:
            self.net_note = t(self.lang, "reply.no_seat")
        else:
            seat = int(m.group(1)) - 1
            o = self.offers.get(seat)
            if seat in self.table.bound:
                self.net_note = t(self.lang, "reply.used", n=seat + 1)
            elif o is None or o["conn"] is None:
                self.net_note = t(self.lang, "reply.bad_seat", n=seat + 1)
            else:
                try:
                    answer = sdp.expand(m.group(2), "answer", local_only=True)
                except sdp.NotLocalError as e:
                    self.net_note = t(self.lang, "reply.not_local", n=seat + 1, address=e.address)
                except sdp.SdpCodeError as e:
                    self.net_note = t(self.lang, "reply.bad", why=str(e))
                else:
                    self.net(op="accept", conn=o["conn"], sdp=answer)
                    o["accepted"] = self.session.clock()
                    self.net_note = t(self.lang, "friends.connecting")
        self.session.render()

    @answers("share")
    def share(self, inp: dict) -> None:
        seat = self.seat_in(inp)
        link = self.link_for(seat) if seat is not None else None
        if link:
            self.net(op="share", url=link, title=t(self.lang, "friends.invite_for", n=seat + 1))

    @answers("net-shared")
    def on_shared(self, inp: dict) -> None:
        how = inp.get("how")
        self.net_note = t(self.lang, {"shared": "friends.shared", "copied": "friends.copied"}.get(
            str(how), "friends.share_failed"))
        self.session.render()

    @answers("invite-again")
    def invite_again(self, inp: dict) -> None:
        """At the table: show the seat's invitation (a fresh offer is always ready)."""
        try:
            seat = int(str(inp.get("seat")))
        except ValueError:
            return
        if seat in self.table.remote_seats() and seat not in self.table.bound:
            self.invite_seat = seat
            self.net_note = ""
            self.need_offers()
            self.session.render()

    @answers("close-invite")
    def close_invite(self, inp: dict) -> None:
        self.invite_seat = None
        self.session.render()

    # ------------------------------------------------------------ the seats at the table
    def _table_seat(self, inp: dict) -> int | None:
        h, c = self.table, self.session.ctrl
        try:
            seat = int(str(inp.get("seat")))
        except ValueError:
            return None
        if h.match is None or c is None or h.match is not c.match or h.match.finished \
                or seat not in h.remote_seats():
            return None
        return seat

    @answers("seat-controls")
    def toggle_seat_controls(self, inp: dict) -> None:
        self.seat_controls = not self.seat_controls
        self.session.render()

    @answers("hand-to-computer")
    def hand_to_computer(self, inp: dict) -> None:
        """The host gives a friend's seat to the computer (until given back, or the friend's device is back)."""
        seat = self._table_seat(inp)
        if seat is not None:
            self.host_result(self.table.hand_to_computer(seat))

    @answers("give-back")
    def give_back(self, inp: dict) -> None:
        seat = self._table_seat(inp)
        if seat is not None:
            self.session.stop_computers()       # the stand-in may be thinking for this seat
            self.host_result(self.table.give_back(seat))
            self.session.render()

    @answers("end-absence")
    def end_absence(self, inp: dict) -> None:
        """Ask first: the match ends, the absent friend loses (with partners, their side)."""
        seat = self._table_seat(inp)
        if seat is not None:
            self.confirm_absence = seat
            self.session.render()

    @answers("end-absence-no")
    def end_absence_no(self, inp: dict) -> None:
        self.confirm_absence = None
        self.session.render()

    @answers("end-absence-yes")
    def end_absence_yes(self, inp: dict) -> None:
        seat = self._table_seat({"seat": self.confirm_absence})
        self.confirm_absence = None
        if seat is not None:
            self.host_result(self.table.end_by_absence(seat))
            self.save_table()
        self.session.render()

    # ------------------------------------------------------------ the transport
    @answers("net-tick")
    def on_tick(self, inp: dict) -> None:
        session = self.session
        slow = self.online_words()["slow"] if self.relays.up else ""
        if slow != self.relays.slow:        # the hint on what to try appears without another event
            self.relays.slow = slow
            session.render()
        now = session.clock()
        for seat, o in list(self.offers.items()):
            if o.get("accepted") is not None and now - o["accepted"] > CONNECT_TIMEOUT:
                # a reply for an older invitation, or phones on different networks: say so, invite afresh
                self.net_note = t(self.lang, "reply.timeout", n=seat + 1)
                self.drop_offer(seat)
                self.need_offers()
                session.render()
        self.host_result(self.table.tick(now))
        if session.link is self and self.table.away and self.table.started:
            self.save_table()      # the time each seat has been away survives a reload

    @answers("net-open")
    def on_open(self, inp: dict) -> None:
        conn = inp.get("conn")
        if conn is not None:
            # a device that claims no seat within a few seconds is closed (HostTable.tick)
            self.host_result(self.table.connected(str(conn), self.session.clock()))
        if conn in self.conn_seat:
            seat = self.conn_seat.pop(conn)
            if self.offers.get(seat, {}).get("conn") == conn:
                del self.offers[seat]     # used: the next invitation of this seat needs a new offer
            if self.invite_seat == seat:
                self.invite_seat = None
            self.net_note = ""
            self.session.render()

    @answers("net-message")
    def on_message(self, inp: dict) -> None:
        conn = inp.get("conn")
        if conn is not None:
            self.host_result(self.table.receive(str(conn), inp.get("text"), self.session.clock()))

    @answers("net-close")
    def on_close(self, inp: dict) -> None:
        conn = inp.get("conn")
        if conn is None:
            return
        seat = self.conn_seat.pop(conn, None)
        if seat is not None and self.offers.get(seat, {}).get("conn") == conn:
            del self.offers[seat]     # an offer that failed: a new one
        self.host_result(self.table.disconnected(str(conn), self.session.clock()))
        self.need_offers()
        self.online_pace()
        self.session.render()

    def send_all(self, replies) -> None:
        for peer, text in replies:
            try:
                conn = int(peer)
            except ValueError:
                continue
            self.net(op="send", conn=conn, text=text)

    def wire(self, res) -> None:
        """The table's replies sent, the devices it dropped closed."""
        self.send_all(res.replies)
        for peer in res.drop:
            try:
                self.net(op="close", conn=int(peer))
            except ValueError:
                pass

    def host_result(self, res) -> None:
        """What the table answered: replies sent, dropped devices closed, an accepted action played like a
        tap; and, at a hand's end, who must still tap Next worked out again (a seat changed hands, a
        phone came or went, time passed): nobody missing, the hand is dealt."""
        session, h = self.session, self.table
        self.wire(res)
        if res.action is not None and session.ctrl is not None and h.match is session.ctrl.match:
            _seat, action = res.action
            if action.get("resign"):
                session.stop_computers()
            session.play(action)
        if res.next_hand is not None:
            self.vote(res.next_hand)
        if res.next_timeout:        # the time for Next is up: every friend counts as ready
            self.vote(*h.remote_seats())
        if res.clock_changed:
            session.render()
        dealt = self.recount()      # (its save holds a seat's new kind: no view of the hand's end again)
        if res.match_changed and session.ctrl is not None and not dealt:
            session.save_game()
            session.changed()
        if res.lobby_changed and session.link is self:
            self.need_offers()
            self.save_table()
            session.render()
        if res.reaction is not None:
            session.render()
        if res.replies:
            self.online_pace()

    def hand_key(self) -> tuple:
        """The hand a Next tap is for: this match (its id), its hand and its seq."""
        m = self.session.ctrl.match
        return (self.session.match_id, m.hand_no, m.seq)

    def at_hand_end(self) -> bool:
        """The table's match is on this phone's table, between two hands."""
        c = self.session.ctrl
        return c is not None and self.table.match is c.match and c.match.phase == "hand-over"

    def vote(self, *seats: int) -> None:
        """A "next hand" tap for these seats (the host's own, a friend's); the hand is dealt when nobody
        who must tap is missing (:mod:`domino.app.link.votes`)."""
        if not self.at_hand_end():
            return
        self.votes.tap(self.hand_key(), *seats)
        if not self.recount():
            self.session.render()

    def recount(self) -> bool:
        """At a hand's end with nobody missing: the next hand is dealt (True)."""
        session = self.session
        if not self.at_hand_end() or missing(self.table, self.votes, self.hand_key()):
            return False
        self.votes.clear()
        session.ctrl.next_hand()
        session.save_game()
        session.changed()
        return True

    def waiting_for(self) -> list[str]:
        """The names of the people whose "next hand" tap for this hand is still missing."""
        if not self.at_hand_end():
            return []
        seats = self.session.ctrl.match.seats
        return [seats[i]["name"] for i in missing(self.table, self.votes, self.hand_key())]

    # ------------------------------------------------------------ over the internet
    @answers("online-switch")
    def online_switch(self, inp: dict) -> None:
        if self.table.started:
            return
        if self.online_rooms is None:           # the switch: a tap turns it over
            self.online_rooms = {}
            for seat in list(self.offers):       # no offers in the link: the relays carry them
                self.drop_offer(seat)
            self.need_offers()                   # a room for every seat's secret
            self.online_join()
        else:
            self.relays.leave()
            self.online_rooms = None
            self.need_offers()
        self.save_table()
        self.session.render()

    @answers("online-settings")
    def online_settings(self, inp: dict) -> None:
        session = self.session
        values = inp.get("values") if isinstance(inp.get("values"), dict) else {}
        try:
            relays = parse_relays(str(values.get("relays") or ""))
            ice = parse_ice(str(values.get("ice") or ""))
        except OnlineError as e:
            self.online_note = t(self.lang, "online.bad", why=e.words(self.lang))
        else:
            self.relays_chosen(relays, ice)
        session.render()

    @answers("online-defaults")
    def online_defaults(self, inp: dict) -> None:
        self.relays_chosen(list(DEFAULT_RELAYS), [dict(x) for x in DEFAULT_ICE])
        self.session.render()

    def relays_chosen(self, relays: list[str], ice: list[dict]) -> None:
        """New relays (saved with the settings); a table that is up leaves the old ones and joins the new."""
        session = self.session
        session.relays, session.ice = relays, ice
        session.save_settings()
        self.online_note = t(self.lang, "online.saved")
        if self.relays.up and self.online_rooms is not None:
            self.relays.leave()
            self.online_join()

    def online_join(self) -> None:
        if self.online_rooms is not None:
            session = self.session
            self.relays.join("host", self.room_list(), session.relays, session.ice)

    def room_list(self) -> list[dict]:
        """The rooms the page joins, each with the secret its peer must prove (and is proved with)."""
        if self.online_rooms is None:
            return []
        return [dict(self.online_rooms[secret], secret=secret)
                for _seat, secret in sorted(self.table.secrets.items()) if secret in self.online_rooms]

    def sync_rooms(self) -> None:
        """The rooms follow the seats' secrets: a new secret, a new room; a secret gone, its room left."""
        if self.online_rooms is None:
            return
        rooms = {secret: self.online_rooms.get(secret) or new_room() for secret in self.table.secrets.values()}
        if rooms != self.online_rooms:
            self.online_rooms = rooms
            self.save_table()                    # the links shown must still work after a reload
            self.relays.rooms_changed(self.room_list())

    def online_pace(self) -> None:
        self.relays.pace(all(seat in self.table.bound for seat in self.table.remote_seats()))

    @answers("net-relay")
    def on_relay(self, inp: dict) -> None:
        if self.relays.heard(inp.get("status")):
            self.session.render()

    def online_words(self) -> dict:
        def slow_hint() -> str:
            names = [st["name"] or t(self.lang, "friends.seat", n=st["seat"] + 1) for st in self.table.statuses()
                     if st["kind"] == REMOTE and st["status"] == "invited" and not self.table.started]
            return " ".join(t(self.lang, "online.friend_slow", name=n) for n in names[:1])
        session = self.session
        return self.relays.words(self.lang, session.relays, session.ice, slow_hint)
