"""This phone joined a friend's table: the invitation, the reply code, and the host's views.

:class:`~domino.net.guest.GuestTable` keeps the host's views; the table is the usual screen over its
:class:`~domino.net.mirror.MirrorMatch`, and a tap leaves a decision in the mirror that
:meth:`Joining.after_tap` sends to the host as an ``act``.  While the computer plays this seat
(:attr:`GuestTable.stood_in`) the table offers no move (:class:`GuestController`) and says how to get the
seat back.  The match is the host's: nothing of it is saved
or counted here.  Commands to the page: ``{"op": "answer", "sdp": offer}`` -> ``net-answer`` with ``conn``
and ``sdp`` (or ``error``), then ``send`` and ``close`` as the host's (:mod:`domino.app.link.hosting`);
over the internet, the relays (:mod:`domino.app.link.relays`).
"""
from __future__ import annotations


from domino.app import controller
from domino.app.answers import answers
from domino.app.friends import JoinError, NotLocalJoin, parse_join
from domino.app.i18n import t
from domino.app.link.base import Link
from domino.app.link.relays import Relays
from domino.app.nodes import Node
from domino.app.online import ONLINE, OnlineError, consent_entry, parse_online
from domino.app.screens import friends as friends_screens
from domino.app.screens.lobby import toolbar
from domino.net import sdp
from domino.net.guest import GuestTable
from domino.table import sanitize_name


class GuestController(controller.Controller):
    """The guest's table: the usual controller over the mirror, offering no move while the computer plays
    this seat (the host would refuse it) and saying, as the host's phone does, that the seat is thinking."""

    def __init__(self, guest: GuestTable, lang: str):
        super().__init__(guest.match, lang, viewer=guest.seat)
        self.guest = guest

    def my_turn(self) -> bool:
        return not self.guest.stood_in and super().my_turn()

    def status(self, lang: str | None = None) -> str:
        m = self.match
        if self.guest.stood_in and m.phase == "play" and m.turn == self.guest.seat:
            return t(lang or self.lang, "game.thinking", name=m.seats[m.turn]["name"])
        return super().status(lang)


class Joining(Link):
    """The guest's link: the host's views of one seat."""

    role = "guest"
    keeps_save = False       # the table is the host's: no save, no statistics, no snapshot
    holds_record = False

    def __init__(self, session, guest: GuestTable, state: str):
        super().__init__(session)
        self.table = guest
        self.state = state                      # invited, answering, waiting, open, lost, closed, bad,
        #                                         consent, online
        self.conn: int | None = None            # the host's connection
        self.offer = ""                         # a same-Wi-Fi invitation's offer
        self.code = ""                          # the reply code shown
        self.why = ""                           # why the link is bad, or the table closed
        self.not_local = ""                     # the outside address a refused invitation named
        self.ready = False                      # this friend tapped Start in the lobby
        self.votes: set = set()                 # this seat tapped Next
        self.online: dict | None = None         # over the internet: room, password, relays
        self.relays = Relays(self.net, lambda: self.session.clock())    # the clock the session has now

    @classmethod
    def from_link(cls, session, fragment: str) -> "Joining":
        """The invitation this page was opened with (``#join=`` or ``#online=``); a link that cannot be read
        makes a guest screen that says why."""
        name = session.new_settings["seats"][0]["name"] if session.new_settings else ""
        if fragment.startswith(ONLINE):
            try:
                invitation = parse_online(fragment)
            except OnlineError as e:
                return cls.bad(session, e.words(session.lang))
            joining = cls(session, GuestTable(invitation["seat"], invitation["secret"], name), "")
            joining.online = {k: invitation[k] for k in ("room", "password", "relays")}
            joining.state = "online" if joining.consented() else "consent"
            return joining
        try:
            seat, secret, offer = parse_join(fragment)
        except JoinError as e:
            joining = cls.bad(session, str(e))
            joining.not_local = e.address if isinstance(e, NotLocalJoin) else ""
            return joining
        joining = cls(session, GuestTable(seat, secret, name), "invited")   # nothing is made until the tap
        joining.offer = offer
        return joining

    @classmethod
    def bad(cls, session, why: str) -> "Joining":
        joining = cls(session, GuestTable(0, "x"), "bad")
        joining.why = why
        return joining

    # ------------------------------------------------------------ the session asks
    def start(self) -> None:
        """Back at a room joined before: look for the host again (an invitation waits for the tap)."""
        if self.state == "online":
            self.online_join()

    def after_tap(self) -> None:
        """A tap on the table left a decision pending in the mirror: send it."""
        self.send(self.table.send_pending())

    def may_run_computers(self) -> bool:
        return False                 # the host's phone moves its computer seats

    def next_hand(self) -> bool:
        """A request: the host deals when everyone has tapped."""
        c = self.session.ctrl
        if c is None or c.match.phase != "hand-over":
            return False
        c.match.next_hand()
        self.after_tap()
        self.votes.add(self.table.seat)
        self.session.render()
        return True

    def back_to_lobby(self) -> bool:
        session = self.session
        if session.ctrl is None or not session.ctrl.match.outcome:
            return False
        session.ctrl = None
        session.render()
        return True

    def form_change(self, inp: dict) -> bool:
        return True                  # the guest's screen has no form of settings

    def lobby_screen(self) -> Node:
        session = self.session
        return friends_screens.guest_screen(self, toolbar(session.lang, session.pips, game=None, seq=None, sound=session.sound))

    def table_words(self) -> dict:
        session = self.session
        c = session.ctrl
        waiting = ["…"] if c is not None and c.match.phase == "hand-over" and self.table.seat in self.votes else []
        people = {x["seat"]: x["status"] for x in self.table.statuses
                  if isinstance(x.get("seat"), int) and x["status"] != "computer"}   # a computer's chip says enough
        clock = self.table.clock
        names = [str(n) for n in (self.table.view or {}).get("names") or []]
        over = c is not None and c.match.phase != "play" and (self.table.view or {}).get("result") is not None
        return {"role": self.role, "statuses": people, "waiting": waiting,
                "clock": friends_screens.clock_line(self.lang, clock, names) if clock else None,
                "bar": None, "tool": None,
                "review": session.review.guest_view() is not None,
                "deal": self.table.deals.status(c.match.hand_no) if over else None,
                "banner": " ".join(x for x in (self.deal_banner(), (
                    t(self.lang, "guest.lost") if self.state == "lost" else
                    t(self.lang, "online.lost") if self.state == "online" else
                    t(self.lang, "guest.closed", why=self.why) if self.state == "closed" else
                    t(self.lang, "guest.stood_in", name=self.seat_name()) if self.table.stood_in else "")) if x)}

    def deal_banner(self) -> str:
        """Issue 41: the host revealed a hand's seed and it does not deal what this phone saw."""
        w = self.table.deal_warning
        if not w:
            return ""
        return t(self.lang, "guest.deal_unrevealed" if w["problems"] == ["unrevealed"] else "guest.deal_bad",
                 n=w["hand"] + 1)

    def seat_name(self) -> str:
        """This seat's name as the host's phone shows it (in its Seats buttons)."""
        names = (self.table.view or {}).get("names") or []
        seat = self.table.seat
        return str(names[seat]) if 0 <= seat < len(names) else t(self.lang, "friends.seat", n=seat + 1)

    def snapshot_ok(self) -> bool:
        return False                 # a guest's table is the host's

    def connections(self) -> set[int]:
        return {self.conn} if self.conn is not None else set()

    # ------------------------------------------------------------ same Wi-Fi: the reply code
    def send(self, text: str | None) -> None:
        if text and self.conn is not None:
            self.net(op="send", conn=self.conn, text=text)

    @answers("guest-answer")
    def make_reply(self, inp: dict) -> None:
        """The friend read the invitation and taps: only now is the reply code made."""
        if self.state != "invited":
            return
        self.state = "answering"
        self.net(op="answer", sdp=self.offer)
        self.session.render()

    @answers("net-answer")
    def on_answer(self, inp: dict) -> None:
        if self.state != "answering":
            return
        if inp.get("error") or inp.get("conn") is None:
            self.state, self.why = "bad", t(self.lang, "guest.no_rtc")
            self.session.render()
            return
        try:
            code = sdp.compact(str(inp.get("sdp") or ""), human=True, max_candidates=0)
        except sdp.SdpCodeError as e:
            self.state, self.why = "bad", str(e)
            self.session.render()
            return
        self.conn = inp["conn"]
        self.code = f"{self.table.seat + 1}.{code}"
        self.state = "waiting"
        self.session.render()

    # ------------------------------------------------------------ the host's messages
    @answers("net-open")
    def on_open(self, inp: dict) -> None:
        conn = inp.get("conn")
        if self.online is not None and self.conn is None and self.state == "online":
            self.conn = conn       # the host, met through the relays
        if conn == self.conn:
            self.state = "open"
            self.send(self.table.hello())
            self.session.render()

    @answers("net-message")
    def on_message(self, inp: dict) -> None:
        if inp.get("conn") == self.conn:
            self.receive(inp.get("text"))

    @answers("net-close")
    def on_close(self, inp: dict) -> None:
        if inp.get("conn") != self.conn:
            return
        self.conn = None
        self.table.welcomed = False
        if self.state not in ("closed", "bad"):
            # over the internet the relays look for the host again
            self.state = "online" if self.online is not None else "lost"
        self.online_pace()
        self.session.render()

    def receive(self, text) -> None:
        session, g = self.session, self.table
        had = g.match
        ev = g.receive(text)
        if ev.kind == "ignored":
            session.warn("domino: a host message was ignored: " + ev.detail)
            return
        if ev.kind == "closed":
            self.state, self.why = "closed", str(ev.data.get("message") or ev.data.get("reason"))
        if ev.kind == "welcome":
            self.online_pace()
        if ev.kind == "lobby":
            self.ready = g.seat in {x["seat"] for x in g.statuses if x.get("status") == "ready"}
        if ev.kind == "lobby" and g.view is not None:     # the host is back in the lobby: a new match comes
            g.view, g.match, session.ctrl = None, None, None
        if ev.kind == "view":
            if g.view["phase"] != "hand-over":
                self.votes.clear()
            if had is None or session.ctrl is None or session.ctrl.match is not g.match:
                session.ctrl = GuestController(g, session.lang)
            else:
                session.ctrl.clear()
            session.heard = session.heard or (g.match.seq, g.match.hand_no)
            session.comforts.sounds_for(g.match)
            session.review.keep_view()      # a hand just over: kept for the statistics' last hands
        session.render()

    # ------------------------------------------------------------ the lobby
    @answers("join-table")
    def join_table(self, inp: dict) -> None:
        session, g = self.session, self.table
        if self.state != "open":
            return
        name = sanitize_name(str(inp.get("value") or ""))
        if name and name != g.name:
            g.name = name
            self.send(g.hello())
            seats = [dict(x) for x in session.new_settings["seats"]]
            seats[0]["name"] = name
            session.new_settings = dict(session.new_settings, seats=seats)
            session.save_settings()
        self.ready = not self.ready
        self.send(g.ready(self.ready))
        session.render()

    @answers("guest-leave")
    def leave(self, inp: dict) -> None:
        session = self.session
        self.send(self.table.bye())
        if self.conn is not None:
            self.net(op="close", conn=self.conn)
        self.relays.leave()
        session.ctrl = None
        session.unlink()
        session.out.clear_hash = True
        session.load_game()
        session.render()

    # ------------------------------------------------------------ over the internet
    def consents(self) -> list[str]:
        """The rooms and relay lists this phone agreed to join through (:func:`consent_entry`, newest first)."""
        return self.session.storage.consents()

    def relay_list(self) -> list[str]:
        return list(self.online["relays"] or self.session.relays) if self.online is not None else []

    def consent(self) -> str:
        return consent_entry(self.online["room"], self.relay_list())

    def consented(self) -> bool:
        """This room, through these very relays, was agreed to before (other relays: ask again)."""
        return self.online is not None and self.consent() in self.consents()

    @answers("online-join")
    def online_agree(self, inp: dict) -> None:
        """The guest read what leaves the device and joins through the relays."""
        session = self.session
        if self.online is None or self.state != "consent":
            return
        session.storage.add_consent(self.consent())
        self.state = "online"
        self.online_join()
        session.render()

    def online_join(self) -> None:
        if self.online is not None:
            rooms = [{"room": self.online["room"], "password": self.online["password"], "secret": self.table.secret}]
            self.relays.join("guest", rooms, self.relay_list(), self.session.ice)

    def online_pace(self) -> None:
        self.relays.pace(self.state == "open" and self.table.welcomed)

    @answers("net-relay")
    def on_relay(self, inp: dict) -> None:
        if self.relays.heard(inp.get("status")):
            self.session.render()

    @answers("net-tick")
    def on_tick(self, inp: dict) -> None:
        slow = self.online_words()["slow"] if self.relays.up else ""
        if slow != self.relays.slow:        # the hint on what to try appears without another event
            self.relays.slow = slow
            self.session.render()

    def online_words(self) -> dict:
        def slow_hint() -> str:
            return t(self.lang, "online.slow") if self.state == "online" else ""
        return self.relays.words(self.lang, self.relay_list() or self.session.relays, self.session.ice, slow_hint)
