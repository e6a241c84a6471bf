"""Play with friends from their own phones: the session's side of a table shared by a link.

:class:`Friends` is a part of :class:`domino.app.session.Session` (a mixin):
the same ``handle`` takes the friends' inputs, and the network is one more
source of them.  The page's network layer (``static/rtc.js`` through
``domino/browser.py``) is driven by commands in ``Out.net``:

* ``{"op": "offer", "seat": s}`` -> the page makes a WebRTC offer and answers
  with the input ``{"action": "net-offer", "seat": s, "conn": id, "sdp": ...}``
  (or ``"error"``);
* ``{"op": "answer", "sdp": offer}`` (guest) -> ``net-answer`` with ``conn``
  and ``sdp`` (or ``error``);
* ``{"op": "accept", "conn": id, "sdp": answer}``, ``{"op": "send", "conn":
  id, "text": ...}``, ``{"op": "close", "conn": id}``, ``{"op": "share",
  "url": ..., "title": ...}`` (-> ``net-shared`` with ``how``).

The transport's events come back as ``net-open``, ``net-message``
(``conn``, ``text``), ``net-close`` (``conn``, ``reason``) and ``net-tick``
(once a second while a table is up).

Host: :class:`~domino.net.host.HostTable` checks every guest message; an
action it accepts goes through :meth:`Session.play`, like a tap: applied,
saved, and only then sent on (``sync``: the ``ack`` and the new views).
Every remote seat without a device has an offer ready, so "invite again"
is one tap.  Guest: :class:`~domino.net.guest.GuestTable` keeps the host's
views; the table is the usual screen over its
:class:`~domino.net.mirror.MirrorMatch`, and a tap becomes an ``act``.
"""
from __future__ import annotations

import json
import re
import time

from domino.app import controller as ctl
from domino.app.i18n import t
from domino.app.links import INVITATIONS, JOIN
from domino.app.online import Online, OnlineError, read_rooms
from domino.engine.common import new_seed
from domino.app.screens import friends as friends_screens
from domino.app.settings import default_target
from domino.engine.match import HUMAN
from domino.net import protocol as P
from domino.net import sdp
from domino.net.guest import GuestTable
from domino.net.host import TIMEOUTS, HostTable, NetError
from domino.table import REMOTE, default_options, normalize_settings, sanitize_name

NET_KEY = "net"                 # the host's table state, beside the save
DEFAULT_GRACE = 60
CONNECT_TIMEOUT = 12.0         # seconds from a pasted reply code to an open channel
_REPLY = re.compile(r"^\s*([1-8])\s*[.·:]\s*(\S.*)$", re.S)


class JoinError(ValueError):
    """An invitation link that cannot be read (the words say why)."""


class NotLocalJoin(JoinError):
    """A same-Wi-Fi invitation whose offer names an address off the local
    network (``address``): refused, since opening it would reach out there."""

    def __init__(self, address: str, why: str):
        self.address = address
        super().__init__(why)


def parse_join(fragment: str) -> tuple[int, str, str]:
    """``#join=<seat+1>.<secret>.<offer code>`` -> (seat, secret, offer SDP)."""
    frag = (fragment or "").lstrip("#")
    if not frag.startswith(JOIN):
        raise JoinError("not an invitation")
    parts = frag[len(JOIN):].split(".")
    if len(parts) != 3 or not re.fullmatch(r"[1-8]", parts[0]) or not P._SECRET.fullmatch(parts[1]):
        raise JoinError("it is incomplete")
    try:
        offer = sdp.expand(parts[2], "offer", local_only=True)
    except sdp.NotLocalError as e:
        raise NotLocalJoin(e.address, str(e)) from None
    except sdp.SdpCodeError as e:
        raise JoinError(str(e)) from None
    return int(parts[0]) - 1, parts[1], offer


def invite_link(base: str, seat: int, secret: str, code: str) -> str:
    return f"{base}#{JOIN}{seat + 1}.{secret}.{code}"


class Friends(Online):
    """The friends' part of the Session (see the module docstring); over the
    internet, :class:`~domino.app.online.Online` finds the phones instead of
    the link's offer and the reply code."""

    def friends_init(self, params: dict) -> None:
        self.host: HostTable | None = None
        self.offers: dict[int, dict] = {}       # seat -> {"conn", "code"}: the seat's invitation
        self.conn_seat: dict[int, int] = {}     # conn -> seat, while its offer waits for an answer
        self.invite_seat: int | None = None     # the invitation shown at the table
        self.net_note = ""                      # the host's last reply-code problem or share result
        self.votes: set = set()                 # "next hand" taps (seats, and "host")
        self.confirm_absence: int | None = None # the seat whose absence would end the match (asked)
        self.seat_controls = False              # the host's buttons for the friends' seats are shown
        self.base_url = str(params.get("url") or "")
        try:   # ?grace=s: the seconds an away seat is waited for (tests)
            self.grace = max(0, min(600, int(str(params.get("grace")))))
        except (TypeError, ValueError):
            self.grace = None
        self.clock = time.monotonic
        self.guest: GuestTable | None = None
        self.guest_conn: int | None = None
        self.guest_offer = ""
        self.guest_code = ""                    # the reply code shown
        self.guest_state = ""                   # invited, answering, waiting, open, lost, closed, bad
        self.guest_why = ""
        self.guest_not_local = ""               # the outside address a refused invitation named
        self.guest_ready = False
        join = params.get("join")
        try:
            invitation = self.online_init(join)
        except OnlineError as e:
            self.guest_state, self.guest_why = "bad", e.words(self.lang)
            self.guest = GuestTable(0, "x")
            return
        if invitation is not None:
            name = self.new_settings["seats"][0]["name"] if self.new_settings else ""
            self.guest = GuestTable(invitation["seat"], invitation["secret"], name)
            self.guest_online = {k: invitation[k] for k in ("room", "password", "relays")}
            self.guest_state = "online" if self.consented() else "consent"
        elif join:
            try:
                seat, secret, offer = parse_join(str(join))
            except JoinError as e:
                self.guest_state, self.guest_why = "bad", str(e)
                self.guest_not_local = e.address if isinstance(e, NotLocalJoin) else ""
                self.guest = GuestTable(0, "x")
                return
            name = self.new_settings["seats"][0]["name"] if self.new_settings else ""
            self.guest = GuestTable(seat, secret, name)
            self.guest_offer = offer
            self.guest_state = "invited"        # nothing is made until the friend taps (do_guest_answer)

    # ------------------------------------------------------------ shared
    @property
    def role(self) -> str | None:
        return "guest" if self.guest is not None else "host" if self.host is not None else None

    def net(self, **cmd) -> None:
        self.out.net.append(cmd)

    def net_start(self) -> None:
        """At load: a host makes its offers; a guest back at a room it joined
        before looks for the host again.  A guest's invitation waits for
        the friend's tap (do_guest_answer, do_online_join)."""
        if self.guest is not None and self.guest_state == "online":
            self.online_join()
        elif self.host is not None:
            self.need_offers()
            self.online_join()

    def on_net_tick(self, inp: dict) -> None:
        slow = self.online_words()["slow"] if self.online_up else ""
        if slow != self.online_slow:        # the hint on what to try appears without another event
            self.online_slow = slow
            self.render()
        if self.host is None:
            return
        now = self.clock()
        for seat, o in list(self.offers.items()):
            if o.get("accepted") is not None and now - o["accepted"] > CONNECT_TIMEOUT:
                # a reply for an older invitation, or phones on different networks: say so, invite afresh
                self.net_note = t(self.lang, "reply.timeout", n=seat + 1)
                self.drop_offer(seat)
                self.need_offers()
                self.render()
        self.host_result(self.host.tick(now))
        if self.host is not None and self.host.away and self.host.started:
            self.save_table()      # the time each seat has been away survives a reload

    # ------------------------------------------------------------ host: the lobby
    def do_play_friends(self, inp: dict) -> None:
        """The friends' lobby: the form's game, the host in seat 1, friends' phones elsewhere."""
        if self.host is not None:        # a table is up already (its match is one tap away)
            self.render()
            return
        s = normalize_settings(self.new_settings, self.lang)
        seats = [dict(x) for x in s["seats"]]
        for i, x in enumerate(seats):
            x["kind"] = HUMAN if i == 0 else REMOTE
        s["seats"] = seats
        try:
            self.host = HostTable(s, grace=self.grace if self.grace is not None else DEFAULT_GRACE,
                                  now=self.clock())
        except (NetError, ValueError) as e:
            self.error = t(self.lang, "new.invalid", why=str(e))
            self.render()
            return
        self.save_table()
        self.need_offers()
        self.render()

    def do_leave_friends(self, inp: dict) -> None:
        self.close_table()
        self.render()

    def close_table(self) -> None:
        """The host closes the table: every friend is told, every connection closed."""
        if self.host is None:
            return
        self.host_result(self.host.close())
        for conn in list(self.conn_seat):
            self.net(op="close", conn=conn)
        self.online_leave()
        self.host, self.offers, self.conn_seat, self.online_rooms = None, {}, {}, None
        self.storage.drop_table()
        if self.ctrl is not None and any(s["kind"] == REMOTE for s in self.ctrl.match.seats):
            self.ctrl = None

    def friends_change(self, form: dict, field: str | None) -> None:
        """A change of the lobby's form: the table's new config (the Starts cleared)."""
        cfg = self.host.config
        s = dict(cfg, seats=[dict(x) for x in cfg["seats"]])
        self.new_settings, keep = s, self.new_settings
        self.harvest(form)
        s, self.new_settings = self.new_settings, keep
        if field == "game":
            s["target"] = default_target(s["game"])
            s["options"] = default_options(s["game"])
        here = [i for i, x in enumerate(s["seats"][:int(s.get("players") or 2)]) if x["kind"] == HUMAN]
        for i in here[1:]:      # one person on this phone: a second one is a friend's phone
            s["seats"][i]["kind"] = REMOTE
        try:
            res = self.host.set_config(s)
        except (NetError, ValueError) as e:
            self.error = t(self.lang, "new.invalid", why=str(e))
            self.render()
            return
        self.error = ""
        self.host_result(res)
        self.need_offers()
        self.save_table()
        self.render()

    def need_offers(self) -> None:
        """Every remote seat without a device has an invitation ready; other seats have none."""
        h = self.host
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
        self.online_sync_rooms()                # over the internet: a room per seat's secret

    def drop_offer(self, seat: int) -> None:
        o = self.offers.pop(seat, None)
        if o and o["conn"] is not None:
            self.conn_seat.pop(o["conn"], None)
            self.net(op="close", conn=o["conn"])

    def on_net_offer(self, inp: dict) -> None:
        seat, conn = inp.get("seat"), inp.get("conn")
        o = self.offers.get(seat) if self.host is not None else None
        if o is None or o["conn"] is not None:
            if conn is not None:
                self.net(op="close", conn=conn)
            return
        if inp.get("error") or conn is None:
            self.net_note = t(self.lang, "guest.no_rtc") + " " + str(inp.get("error") or "")[:80]
            self.render()
            return
        try:
            code = sdp.compact(str(inp.get("sdp") or ""))
        except sdp.SdpCodeError as e:
            self.net_note = str(e)
            self.net(op="close", conn=conn)
            self.render()
            return
        o["conn"], o["code"] = conn, code
        self.conn_seat[conn] = seat
        self.render()

    def link_for(self, seat: int) -> str | None:
        if self.online_rooms is not None:
            return self.online_link_for(seat)
        o = self.offers.get(seat)
        if self.host is None or not o or not o["code"]:
            return None
        return invite_link(self.base_url, seat, self.host.secrets[seat], o["code"])

    def do_accept_reply(self, inp: dict) -> None:
        """The reply code a friend's phone showed: connect that seat's offer to it."""
        if self.host is None:
            return
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
            if seat in self.host.bound:
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
                    o["accepted"] = self.clock()
                    self.net_note = t(self.lang, "friends.connecting")
        self.render()

    def do_share(self, inp: dict) -> None:
        try:
            seat = int(str(inp.get("seat")))
        except ValueError:
            return
        link = self.link_for(seat)
        if link:
            self.net(op="share", url=link, title=t(self.lang, "friends.invite_for", n=seat + 1))

    def on_net_shared(self, inp: dict) -> None:
        how = inp.get("how")
        self.net_note = t(self.lang, {"shared": "friends.shared", "copied": "friends.copied"}.get(
            str(how), "friends.share_failed"))
        self.render()

    def do_invite_again(self, inp: dict) -> None:
        """At the table: show the seat's invitation (a fresh offer is always ready)."""
        try:
            seat = int(str(inp.get("seat")))
        except ValueError:
            return
        if self.host is not None and seat in self.host.remote_seats() and seat not in self.host.bound:
            self.invite_seat = seat
            self.net_note = ""
            self.need_offers()
            self.render()

    def do_close_invite(self, inp: dict) -> None:
        self.invite_seat = None
        self.render()

    def do_away_policy(self, inp: dict) -> None:
        """What happens to a seat whose friend is away: ``"computer:60"``, ``"abandon:120"``...;
        and (field ``time-limit``) the seconds for a turn and for Next: ``"0"`` (no limit), ``"60"``..."""
        if self.host is None or self.host.started:
            return
        if inp.get("field") == "time-limit":
            try:
                limit = float(str(inp.get("value")))
            except ValueError:
                return
            if limit not in TIMEOUTS:
                return
            self.host.timeout = limit
        else:
            policy, _, grace = str(inp.get("value") or "").partition(":")
            if policy not in ("computer", "abandon") or not grace.isdigit():
                return
            self.host.policy, self.host.grace = policy, float(min(600, int(grace)))
        self.host_result(self.host.set_config(self.host.config))
        self.save_table()
        self.render()

    # ------------------------------------------------------------ host: the seats at the table
    def _table_seat(self, inp: dict) -> int | None:
        h = self.host
        try:
            seat = int(str(inp.get("seat")))
        except ValueError:
            return None
        if h is None or h.match is None or self.ctrl is None or h.match is not self.ctrl.match \
                or h.match.finished or seat not in h.remote_seats():
            return None
        return seat

    def do_seat_controls(self, inp: dict) -> None:
        self.seat_controls = not self.seat_controls
        self.render()

    def do_hand_to_computer(self, inp: dict) -> None:
        """The host gives a friend's seat to the computer (until given back, or the friend's device is back)."""
        seat = self._table_seat(inp)
        if seat is not None:
            self.host_result(self.host.hand_to_computer(seat))

    def do_give_back(self, inp: dict) -> None:
        seat = self._table_seat(inp)
        if seat is not None:
            self.stop_computers()       # the stand-in may be thinking for this seat
            self.host_result(self.host.give_back(seat))
            self.render()

    def do_end_absence(self, inp: dict) -> None:
        """Ask first: the match ends, the absent friend loses (with partners, their side)."""
        seat = self._table_seat(inp)
        if seat is not None:
            self.confirm_absence = seat
            self.render()

    def do_end_absence_no(self, inp: dict) -> None:
        self.confirm_absence = None
        self.render()

    def do_end_absence_yes(self, inp: dict) -> None:
        seat = self._table_seat({"seat": self.confirm_absence})
        self.confirm_absence = None
        if seat is not None:
            self.host_result(self.host.end_by_absence(seat))
            self.save_table()
        self.render()

    def do_start_table(self, inp: dict) -> None:
        h = self.host
        if h is None or not h.can_start():
            return
        seed = self.seed if self.seed is not None else new_seed()
        match = h.new_match(seed, self.lang)
        self.start_with(match)      # the session's start: saved, drawn, the computers on
        self.send_all(h.start(match, self.clock()) + h.broadcast_status())
        self.save_table()

    # ------------------------------------------------------------ host: the transport
    def on_net_open(self, inp: dict) -> None:
        conn = inp.get("conn")
        if self.guest is not None and self.guest_online is not None and self.guest_conn is None \
                and self.guest_state == "online":
            self.guest_conn = conn       # the host, met through the relays
        if self.guest is not None and conn == self.guest_conn:
            self.guest_state = "open"
            self.guest_send(self.guest.hello())
            self.render()
        elif self.host is not None and conn is not None:
            # a device that claims no seat within a few seconds is closed (HostTable.tick)
            self.host_result(self.host.connected(str(conn), self.clock()))
        if self.host is not None and conn in self.conn_seat:
            seat = self.conn_seat.pop(conn)
            if self.offers.get(seat, {}).get("conn") == conn:
                del self.offers[seat]     # used: the next invitation of this seat needs a new offer
            if self.invite_seat == seat:
                self.invite_seat = None
            self.net_note = ""
            self.render()

    def on_net_message(self, inp: dict) -> None:
        conn, text = inp.get("conn"), inp.get("text")
        if self.guest is not None:
            if conn == self.guest_conn:
                self.guest_receive(text)
            return
        if self.host is not None and conn is not None:
            self.host_result(self.host.receive(str(conn), text, self.clock()))

    def on_net_close(self, inp: dict) -> None:
        conn = inp.get("conn")
        if self.guest is not None:
            if conn == self.guest_conn:
                self.guest_conn = None
                self.guest.welcomed = False
                if self.guest_state not in ("closed", "bad"):
                    # over the internet the relays look for the host again
                    self.guest_state = "online" if self.guest_online is not None else "lost"
                self.online_pace()
                self.render()
            return
        if self.host is None or conn is None:
            return
        seat = self.conn_seat.pop(conn, None)
        if seat is not None and self.offers.get(seat, {}).get("conn") == conn:
            del self.offers[seat]     # an offer that failed: a new one
        self.host_result(self.host.disconnected(str(conn), self.clock()))
        self.need_offers()
        self.online_pace()
        self.render()

    def send_all(self, replies) -> None:
        for peer, text in replies:
            try:
                conn = int(peer)
            except ValueError:
                continue
            self.net(op="send", conn=conn, text=text)

    def host_result(self, res) -> None:
        """What the table answered: replies sent, dropped devices closed,
        an accepted action played like a tap."""
        h = self.host
        self.send_all(res.replies)
        for peer in res.drop:
            try:
                self.net(op="close", conn=int(peer))
            except ValueError:
                pass
        if res.action is not None and self.ctrl is not None and h.match is self.ctrl.match:
            _seat, action = res.action
            if action.get("resign"):
                self.stop_computers()
            self.play(action)
        if res.next_hand is not None:
            self.vote(res.next_hand)
        if res.next_timeout:        # the time for Next is up: every friend counts as ready
            self.vote(*h.remote_seats())
        if res.clock_changed:
            self.render()
        if res.match_changed and self.ctrl is not None:
            self.save_game()
            self.changed()
        if res.lobby_changed:
            self.need_offers()
            self.save_table()
            self.render()
        if res.reaction is not None:
            self.render()
        if res.replies:
            self.online_pace()

    def net_sync(self) -> None:
        """After every save of the host's match: the acks and the new views."""
        h = self.host
        if h is not None and h.match is not None and self.ctrl is not None and h.match is self.ctrl.match:
            self.send_all(h.sync(self.clock()))

    def vote(self, *who) -> None:
        """A "next hand" tap; the hand is dealt when every person at the table has tapped."""
        c = self.ctrl
        if c is None or c.match.phase != "hand-over":
            return
        self.votes.update(who)
        if not self.waiting_for():
            self.votes.clear()
            if c.next_hand():
                self.save_game()
                self.changed()
        else:
            self.render()

    def waiting_for(self) -> list[str]:
        """The names of the people whose "next hand" tap is still missing."""
        h, c = self.host, self.ctrl
        if h is None or c is None:
            return []
        names = []
        for i in range(h.players):
            kind = h.kind(i)
            key = "host" if kind == HUMAN else i
            if (kind == HUMAN or (kind == REMOTE and i in h.bound)) and key not in self.votes:
                names.append(c.match.seats[i]["name"])
        return names

    def save_table(self) -> None:
        if self.host is not None:
            self.storage.write_table(json.dumps({"id": self.match_id if self.host.started else "",
                                                 "table": self.host.state(self.clock()),
                                                 "online": None if self.online_rooms is None
                                                 else {"rooms": self.online_rooms}}))

    def restore_table(self) -> None:
        """After the host's reload: the saved table around the saved match.
        A match whose table is lost gets computers in its friends' seats."""
        text = self.storage.table()
        c = self.ctrl
        table = None
        if text:
            try:
                doc = json.loads(text)
                table = HostTable.from_state(doc["table"], self.clock())
                rooms, old = read_rooms(doc.get("online"))     # OnlineError is a ValueError
                self.online_rooms = rooms
                if old:      # one room for every seat, from before: each seat gets its own (new links)
                    self.net_note = t(self.lang, "online.rooms_renewed")
                    self.warn("domino: the table's rooms on the relays were renewed, one per seat")
                if table.started:
                    if c is None or doc.get("id") != self.match_id or c.match.outcome:
                        raise NetError("its match is not the saved one")
                    table.attach(c.match, self.clock())
            except (ValueError, KeyError, TypeError, NetError) as e:
                self.warn("domino: the friends' table was not restored: " + str(e))
                self.storage.drop_table()
                table, self.online_rooms, self.net_note = None, None, ""
        if c is not None and (table is None or not table.started) and any(
                s["kind"] == REMOTE for s in c.match.seats):
            for s in c.match.seats:
                if s["kind"] == REMOTE:
                    s["kind"] = "medium"
            self.notes.append(t(self.lang, "friends.table_lost"))
            self.save_game(force=True)
        self.host = table

    def table_net(self) -> dict | None:
        """What the table screen shows of a friends' table (Controller.net)."""
        if self.role is None:
            return None
        c = self.ctrl
        waiting = []
        if c is not None and c.match.phase == "hand-over":
            if self.host is not None:
                waiting = self.waiting_for() if self.votes else []
            elif self.guest.seat in self.votes:
                waiting = ["…"]
        people = {i: st for i, st in self.net_statuses().items() if st != "computer"}   # a computer's chip says enough
        clock = self.host.clock_shown if self.host is not None else self.guest.clock
        return {"role": self.role, "statuses": people, "waiting": waiting,
                "clock": friends_screens.clock_line(self.lang, clock, self.clock_names()) if clock else None,
                "bar": friends_screens.table_bar(self) if self.host is not None else None,
                "tool": friends_screens.seat_controls_button(self) if self.host is not None else None,
                "banner": (t(self.lang, "guest.lost") if self.guest_state == "lost" else
                           t(self.lang, "online.lost") if self.guest_state == "online" else
                           t(self.lang, "guest.closed", why=self.guest_why) if self.guest_state == "closed" else "")}

    def clock_names(self) -> list[str]:
        """The seats' names at the table (for the countdown's words)."""
        if self.guest is not None:
            return [str(n) for n in (self.guest.view or {}).get("names") or []]
        c = self.ctrl
        return [s["name"] for s in c.match.seats] if c is not None else []

    def net_statuses(self) -> dict[int, str]:
        if self.host is not None:
            return {s["seat"]: s["status"] for s in self.host.statuses()}
        if self.guest is not None:
            return {s["seat"]: s["status"] for s in self.guest.statuses if isinstance(s.get("seat"), int)}
        return {}

    # ------------------------------------------------------------ guest
    def guest_send(self, text: str | None) -> None:
        if text and self.guest_conn is not None:
            self.net(op="send", conn=self.guest_conn, text=text)

    def do_guest_answer(self, inp: dict) -> None:
        """The friend read the invitation and taps: only now is the reply code made."""
        if self.guest is None or self.guest_state != "invited":
            return
        self.guest_state = "answering"
        self.net(op="answer", sdp=self.guest_offer)
        self.render()

    def on_net_answer(self, inp: dict) -> None:
        if self.guest is None or self.guest_state != "answering":
            return
        if inp.get("error") or inp.get("conn") is None:
            self.guest_state, self.guest_why = "bad", t(self.lang, "guest.no_rtc")
            self.render()
            return
        try:
            code = sdp.compact(str(inp.get("sdp") or ""), human=True, max_candidates=0)
        except sdp.SdpCodeError as e:
            self.guest_state, self.guest_why = "bad", str(e)
            self.render()
            return
        self.guest_conn = inp["conn"]
        self.guest_code = f"{self.guest.seat + 1}.{code}"
        self.guest_state = "waiting"
        self.render()

    def guest_receive(self, text) -> None:
        g = self.guest
        had = g.match
        ev = g.receive(text)
        if ev.kind == "ignored":
            self.warn("domino: a host message was ignored: " + ev.detail)
            return
        if ev.kind == "closed":
            self.guest_state, self.guest_why = "closed", str(ev.data.get("message") or ev.data.get("reason"))
        if ev.kind == "welcome":
            self.online_pace()
        if ev.kind == "lobby":
            self.guest_ready = g.seat in {s["seat"] for s in g.statuses if s.get("status") == "ready"}
        if ev.kind == "lobby" and g.view is not None:     # the host is back in the lobby: a new match comes
            g.view, g.match, self.ctrl = None, None, None
        if ev.kind == "view":
            if g.view["phase"] != "hand-over":
                self.votes.clear()
            if had is None or self.ctrl is None or self.ctrl.match is not g.match:
                self.ctrl = ctl.Controller(g.match, self.lang, self.pips, viewer=g.seat)
            else:
                self.ctrl.clear()
            self.heard = self.heard or (g.match.seq, g.match.hand_no)
            self.sounds_for(g.match)
        self.render()

    def guest_flush(self) -> None:
        """A tap on the guest's table left a decision pending in the mirror: send it."""
        if self.guest is not None:
            self.guest_send(self.guest.send_pending())

    def do_join_table(self, inp: dict) -> None:
        g = self.guest
        if g is None or self.guest_state != "open":
            return
        name = sanitize_name(str(inp.get("value") or ""))
        if name and name != g.name:
            g.name = name
            self.guest_send(g.hello())
            seats = [dict(x) for x in self.new_settings["seats"]]
            seats[0]["name"] = name
            self.new_settings = dict(self.new_settings, seats=seats)
            self.save_settings()
        self.guest_ready = not self.guest_ready
        self.guest_send(g.ready(self.guest_ready))
        self.render()

    def do_guest_leave(self, inp: dict) -> None:
        if self.guest is None:
            return
        self.guest_send(self.guest.bye())
        if self.guest_conn is not None:
            self.net(op="close", conn=self.guest_conn)
        self.online_leave()
        self.guest_online = None
        self.guest, self.guest_conn, self.ctrl = None, None, None
        self.out.clear_hash = True
        self.load_game()
        self.render()

