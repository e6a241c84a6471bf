"""A match with friends played when each can (issue 40): the page's side of the mailbox.

The match is kept on the relays as stored events (:mod:`domino.net.mailbox`, docs/NET.md section 11) and on
each phone: this phone's matches are in the storage under ``later`` (:class:`Kept`: per match, its role,
its key or ticket, the relays, the last events made or read here, and a summary for **Your matches**).
Opening a match rebuilds its mailbox from those events, then asks the relays for what changed.

Commands to the page (``Out.net``, carried out by ``static/mailbox.js``):

* ``{"op": "mail-open", "sub", "relays", "filters"}``: subscribe (the relays send what they hold, then
  what comes), answered by ``mail-event`` (``sub``, ``relay``, ``text``: the event's JSON) and
  ``mail-eose`` (``sub``, ``relay``);
* ``{"op": "mail-publish", "relays", "events"}`` (each event as JSON text), answered per relay by
  ``mail-ok`` (``relay``, ``id``, ``ok``, ``message``);
* ``{"op": "mail-close", "sub"}``.

Three links: :class:`LaterHost` (the host's table: its seat's moves, the friends' actions checked by the
engine and applied at once), :class:`LaterGuest` (a friend's seat: the host's views, a tap sent as an
action until the host's view shows it applied), and :class:`Browsing` (**Your matches**: every match kept
here, one line each, what changed fetched at once).
"""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from domino.app.answers import answers
from domino.app.i18n import t
from domino.app.link.base import Link
from domino.app.link.joining import GuestController
from domino.app.links import LATER
from domino.app.storage import LATER as LATER_LIST
from domino.app.nodes import Node
from domino.app.online import OnlineError, normalize_relays, relay_problem
from domino.app import controller
from domino.app.screens import friends as friends_screens
from domino.app.screens import later as later_screens
from domino.engine.match import HUMAN
from domino.table import REMOTE
from domino.engine.records import json_depth
from domino.net import mailbox
from domino.net.mailbox import MailError, MailGuest, MailHost, Ticket

MAX_MATCHES = 30           # matches kept on this phone (the oldest finished ones dropped first)
MAX_EVENT = 140_000        # characters of one event from a relay (a NIP-44 plaintext is at most 64 KiB)
_HEX64 = frozenset("0123456789abcdef")


def _hex(text: Any, n: int) -> bool:
    return isinstance(text, str) and len(text) == n and set(text) <= _HEX64


# ------------------------------------------------------------------ the link
def later_link(base_url: str, ticket: Ticket, relays: list[str]) -> str:
    """The friend's link: ``#later=<seat+1>.<match>.<host key>.<seat's secret>[.<relays>]`` (the relays,
    base64url JSON, when they are not the defaults)."""
    parts = [str(ticket.seat + 1), ticket.match, ticket.host, ticket.secret]
    if list(relays) != normalize_relays(None):
        parts.append(base64.urlsafe_b64encode(json.dumps(list(relays)).encode()).decode().rstrip("="))
    return f"{base_url}#{LATER}{'.'.join(parts)}"


def parse_later(fragment: str) -> tuple[Ticket, list[str] | None]:
    """A ``later=`` invitation: its ticket and relays (None: this phone's own); :class:`OnlineError`
    saying why when it cannot be read."""
    parts = fragment.removeprefix(LATER).split(".")
    if len(parts) not in (4, 5) or not parts[0].isdigit() or not 1 <= int(parts[0]) <= mailbox.MAX_SEATS \
            or not _hex(parts[1], 32) or not _hex(parts[2], 64) or not _hex(parts[3], 64):
        raise OnlineError("", "later.bad_link")
    relays = None
    if len(parts) == 5:
        try:
            raw = parts[4] + "=" * (-len(parts[4]) % 4)
            relays = json.loads(base64.urlsafe_b64decode(raw.encode()))
        except (ValueError, binascii.Error):
            raise OnlineError("", "later.bad_link") from None
        if not isinstance(relays, list) or not relays or len(relays) > 8:
            raise OnlineError("", "later.bad_link")
        for url in relays:
            if relay_problem(url) is not None:
                raise OnlineError("", relay_problem(url), url=str(url)[:60])
    ticket = Ticket(parts[1], parts[2], int(parts[0]) - 1, parts[3])
    try:
        ticket.pubkey
    except ValueError:
        raise OnlineError("", "later.bad_link") from None
    return ticket, relays


# ------------------------------------------------------------------ what this phone keeps
class Kept:
    """One match kept on this phone: its entry (role, key or ticket, relays), its mailbox, and the last
    events made or read here (by ``d`` tag: what the phone republishes when the match is opened)."""

    def __init__(self, entry: dict, box: MailHost | MailGuest, relays: list[str], events: dict[str, dict]):
        self.entry = entry
        self.role = entry["role"]
        self.match_id = entry["match"]
        self.box = box
        self.relays = list(relays)
        self.events = events

    @classmethod
    def read(cls, entry: dict, now: float) -> "Kept":
        """The match again from what this phone kept (:class:`MailError`, ``ValueError``... when it cannot be
        read)."""
        events = {d: e for d, e in (entry.get("events") or {}).items() if isinstance(e, dict)}
        if entry["role"] == "host":
            box: MailHost | MailGuest = MailHost.rebuild(bytes.fromhex(entry["key"]), entry["match"],
                                                         list(events.values()), now)
        else:
            tk = entry["ticket"]
            box = MailGuest.rebuild(Ticket(tk["match"], tk["host"], tk["seat"], tk["secret"]),
                                    list(events.values()), now)
        return cls(entry, box, normalize_relays(entry.get("relays")), events)

    @classmethod
    def new_host(cls, host: MailHost, relays: list[str]) -> "Kept":
        return cls({"role": "host", "match": host.match, "key": host.secret.hex()}, host, relays, {})

    @classmethod
    def new_guest(cls, ticket: Ticket, relays: list[str]) -> "Kept":
        entry = {"role": "guest", "match": ticket.match,
                 "ticket": {"match": ticket.match, "host": ticket.host, "seat": ticket.seat, "secret": ticket.secret}}
        return cls(entry, MailGuest(ticket), relays, {})

    def filters(self) -> list[dict]:
        return self.box.filters()

    def receive(self, event: Any, now: float) -> mailbox.Receipt:
        got = self.box.receive(event, now)
        if got.accepted and got.what in ("view", "own-act"):     # a seat keeps the newest it read
            self.events[mailbox.nostr.tag_value(event, "d") or ""] = event
        return got

    def outbox(self, now: float) -> list[dict]:
        out = self.box.outbox(now)
        for event in out:
            self.events[mailbox.nostr.tag_value(event, "d") or ""] = event
        return out

    def view(self) -> dict | None:
        """What this seat sees (the host: its own seat's view)."""
        if isinstance(self.box, MailHost):
            m = self.box.m
            return m.view(next((i for i, x in enumerate(m.seats) if x["kind"] == HUMAN), 0))
        return self.box.view

    def summary(self, now: float) -> dict:
        box = self.box
        seat = self.entry.get("ticket", {}).get("seat", 0)
        if isinstance(box, MailHost):
            absent = box.absent(now)
            return later_screens.info_of(self.view(), box.since, now, seat, abandoned=box.abandoned,
                                         absent=absent if absent in box.seats else None)
        claimed = (box.pending or {}).get("action", {}).get("absent")
        info = later_screens.info_of(self.view(), box.last_move(), now, seat, abandoned=box.table.abandoned,
                                     idle=box.idle(now), absent=box.absent(now), claimed=claimed)
        if not box.applied and not info["over"]:
            info["sent"] = True       # its move is made: not its turn until the host's phone applies it
        return info

    def to_entry(self, now: float) -> dict:
        return dict(self.entry, relays=list(self.relays), events=dict(self.events), info=self.summary(now))


def _read_all(text: str | None) -> dict[str, dict] | None:
    """The list's matches; None when the text cannot be read (no text: no match yet)."""
    if text is None:
        return {}
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    matches = doc.get("matches") if isinstance(doc, dict) else None
    if not isinstance(matches, dict):
        return None
    return {k: v for k, v in matches.items() if isinstance(v, dict) and v.get("role") in ("host", "guest")
            and v.get("match") == k}


def load_all(storage) -> dict[str, dict]:
    """This phone's matches as kept (a list that cannot be read shows as an empty one)."""
    return _read_all(storage.later()) or {}


def _open_of(text: str | None) -> str | None:
    """The match whose table this phone's host left open (a reload opens it again), if the list says one."""
    try:
        doc = json.loads(text) if text else None
    except ValueError:
        return None
    mid = doc.get("open") if isinstance(doc, dict) else None
    return mid if _hex(mid, 32) else None


def set_open(storage, mid: str | None) -> None:
    """Say which host's table is open on this phone (None: none), for a reload to open it again."""
    text = storage.later()
    matches = _read_all(text)
    if matches is None or _open_of(text) == mid or (mid is not None and mid not in matches):
        return
    doc: dict = {"matches": matches}
    if mid is not None:
        doc["open"] = mid
    storage.write_later(json.dumps(doc, separators=(",", ":")))


def restore(session) -> "LaterHost | None":
    """A reload of the page while this phone's host had a match's table open: that table again (None when
    there was none, it is over, or it cannot be read)."""
    text = session.storage.later()
    mid = _open_of(text)
    entry = (_read_all(text) or {}).get(mid or "")
    if entry is None or entry.get("role") != "host" or later_screens.clean_info(entry.get("info"))["over"]:
        return None
    try:
        kept = Kept.read(entry, session.wall())
    except (MailError, ValueError, KeyError, TypeError) as e:
        session.warn(f"domino: a match kept for later cannot be read: {e}")
        return None
    session.menu_open = False
    return LaterHost(session, kept)


def keep(storage, kept: Kept, now: float) -> bool:
    """Write one match back (the list keeps at most :data:`MAX_MATCHES`, the oldest finished ones first out);
    a list that cannot be read is kept aside first, as a corrupt save is."""
    text = storage.later()
    opened = _open_of(text)
    matches = _read_all(text)
    if matches is None:              # (text is not None: no text reads as no match)
        storage.keep_aside(str(text), LATER_LIST)
        matches = {}
    matches[kept.match_id] = kept.to_entry(now)
    if len(matches) > MAX_MATCHES:
        order = sorted(matches, key=lambda k: (not (matches[k].get("info") or {}).get("over"),
                                               (matches[k].get("info") or {}).get("updated") or 0))
        for k in order[:len(matches) - MAX_MATCHES]:
            if k != kept.match_id:
                del matches[k]
    doc: dict = {"matches": matches}
    if opened in matches:
        doc["open"] = opened
    return storage.write_later(json.dumps(doc, separators=(",", ":")))


def read_event(text: Any) -> dict | None:
    """A relay's event text, parsed (None when it is not a JSON object of a sane size)."""
    if not isinstance(text, str) or len(text) > MAX_EVENT or json_depth(text) > 8:
        return None
    try:
        event = json.loads(text)
    except ValueError:
        return None
    return event if isinstance(event, dict) else None


# ------------------------------------------------------------------ the links
class _Mail(Link):
    """What the three links share: the page's subscription and publications, and the relays' answers."""

    role = "later"
    keeps_save = False        # the match is kept in the later list, not as this phone's save
    holds_record = False      # a friend's seat holds views only; the host's table holds the record

    def __init__(self, session):
        super().__init__(session)
        self.sub = ""
        self.failed: dict[str, str] = {}     # relay -> why it refused an event
        self.eose: set[str] = set()
        self.unconfirmed: set[str] = set()   # ids published that no relay has stored yet
        self.note = ""                       # a match this phone cannot read or keep, in words

    def now(self) -> float:
        return self.session.wall()

    def open_sub(self, sub: str, relays: list[str], filters: list[dict]) -> None:
        if self.sub:
            self.net(op="mail-close", sub=self.sub)
        self.sub = sub
        self.eose = set()
        self.net(op="mail-open", sub=sub, relays=list(relays), filters=filters)

    def publish(self, relays: list[str], events: list[dict]) -> None:
        if events:
            self.unconfirmed |= {e["id"] for e in events}
            self.net(op="mail-publish", relays=list(relays),
                     events=[json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in events])

    def close_sub(self) -> None:
        if self.sub:
            self.net(op="mail-close", sub=self.sub)
            self.sub = ""

    def snapshot_ok(self) -> bool:
        return False

    def may_run_computers(self) -> bool:
        return False              # the host's mailbox plays the computer seats at once

    @answers("mail-ok")
    def on_ok(self, inp: dict) -> None:
        relay, eid = str(inp.get("relay") or ""), str(inp.get("id") or "")
        if inp.get("ok") is True or str(inp.get("message") or "").startswith("duplicate"):
            self.unconfirmed.discard(eid)
            self.failed.pop(relay, None)
        else:
            self.failed[relay] = str(inp.get("message") or "")[:120]
            self.session.warn(f"domino: a relay refused an event: {relay} {self.failed[relay]}")
        self.session.render()

    @answers("mail-eose")
    def on_eose(self, inp: dict) -> None:
        if inp.get("sub") == self.sub:
            self.eose.add(str(inp.get("relay") or ""))
            self.session.render()

    @property
    def synced(self) -> str:
        """``1`` once a relay has sent everything it holds of what this screen asked for."""
        return "1" if self.eose or not self.sub else "0"

    @property
    def sent(self) -> str:
        """``stored`` when a relay holds everything published here, else ``sending``."""
        return "sending" if self.unconfirmed else "stored"

    def relay_line(self) -> str:
        """What went wrong, in words: a relay's refusal, a match this phone cannot read or keep."""
        words = [self.note] if self.note else []
        if self.failed:
            words.append(t(self.lang, "later.relay_failed", relays=", ".join(sorted(self.failed)),
                           why="; ".join(sorted(set(self.failed.values())))))
        return " ".join(words)

    def keep(self, kept: "Kept") -> None:
        """The match written back to this phone's list (a full storage is said in words)."""
        if not keep(self.session.storage, kept, self.now()):
            self.note = t(self.lang, "later.not_kept")
            self.session.warn("domino: the match kept for later did not fit in storage")

    @answers("open-match")
    def open_match(self, inp: dict) -> None:
        """A line of Your matches: that match on the table, what changed fetched."""
        session = self.session
        entry = load_all(session.storage).get(str(inp.get("match") or ""))
        if entry is None:
            return
        try:
            kept = Kept.read(entry, self.now())
        except (MailError, ValueError, KeyError, TypeError) as e:
            session.warn(f"domino: a match kept for later cannot be read: {e}")
            self.note = t(self.lang, "later.unreadable")
        else:
            self.close_sub()
            open_kept(session, kept)
        session.render()

    @answers("later-leave")
    def leave(self, inp: dict) -> None:
        back_home(self.session, self)


def matches_screen(link: _Mail) -> Node:
    """Your matches, as this phone keeps them."""
    session = link.session
    infos = [(mid, later_screens.clean_info(e.get("info"))) for mid, e in load_all(session.storage).items()]
    return later_screens.matches_screen(session.lang, session.pips, session.sound, infos, link.now(),
                                        problem=link.relay_line(), sent=link.sent, synced=link.synced)


class _AtTable(_Mail):
    """The table of one match (the host's or a friend's seat)."""

    def __init__(self, session, kept: Kept):
        super().__init__(session)
        self.kept = kept
        self.shared = ""                     # the last share's result, in words
        self.more_open = False               # the bar's links and buttons are shown
        self.shown: tuple = ()               # what the clock's rules offered when last drawn

    def invites(self) -> list[tuple[int, str, str]]:
        """Each friend's seat, name and link (the host's table only)."""
        return []

    def start(self) -> None:
        """Opened: what this phone holds published again (a relay that lost it takes it back; one that has
        it answers duplicate), what changed asked for, what is new published."""
        self.publish(self.kept.relays, list(self.kept.events.values()))
        self.open_sub("m" + self.kept.match_id[:12], self.kept.relays, self.kept.filters())
        self.flush()

    def flush(self) -> None:
        """Publish what the mailbox has to say, and keep the match on this phone."""
        self.publish(self.kept.relays, self.kept.outbox(self.now()))
        self.keep(self.kept)

    @answers("mail-event")
    def on_event(self, inp: dict) -> None:
        if inp.get("sub") != self.sub:
            return
        event = read_event(inp.get("text"))
        got = self.kept.receive(event, self.now()) if event is not None else mailbox.Receipt("", "malformed")
        if not got.accepted:
            if got.reason != "replay":
                self.session.warn(f"domino: a relay's event was refused: {got}")
            return
        self.received(got)

    def received(self, got: mailbox.Receipt) -> None:
        """An event was accepted: the table shows what changed."""

    @answers("mail-eose")
    def on_eose(self, inp: dict) -> None:
        """A relay has sent what it holds.  A second time from one relay means it was reached again (the
        page reconnected): it may have lost what it held (a restart with an empty store), so what this phone
        holds is published to it again (one that still has it answers duplicate)."""
        relay = str(inp.get("relay") or "")
        again = inp.get("sub") == self.sub and relay in self.eose
        super().on_eose(inp)
        if again:
            self.publish([relay], list(self.kept.events.values()))

    @answers("net-tick")
    def on_tick(self, inp: dict) -> None:
        if self.kept.role == "guest" and not self.kept.box.applied:
            self.publish(self.kept.relays, self.kept.outbox(self.now()))    # again until the host applies it
        self.clock_rules()
        shown = self.clock_key()
        if shown != self.shown:           # the clock alone changed what the table offers (2 days, 7 days)
            self.shown = shown
            self.session.changed()

    def clock_key(self) -> tuple:
        info = self.kept.summary(self.now())
        return info["over"], info["absent"]

    def clock_rules(self) -> None:
        """The host applies the clock's rules (the guest's phone only shows them)."""

    def unseen_hands(self) -> int:
        """Hands over since this phone's player last saw a hand's result (0: none to show)."""
        v = self.kept.view()
        if v is None:
            return 0
        seen = self.kept.entry.get("seen_hands")
        done = len(v.get("results") or [])
        return done - seen if type(seen) is int and 0 <= seen <= done else min(done, 1)

    def hand_card(self, info: dict) -> Node | None:
        if info["over"] or not self.unseen_hands():
            return None
        return later_screens.hand_card(self.lang, self.kept.view())

    @answers("later-hand-ok")
    def hand_seen(self, inp: dict) -> None:
        v = self.kept.view()
        self.kept.entry["seen_hands"] = len((v or {}).get("results") or [])
        self.keep(self.kept)
        self.session.render()

    @answers("tell-turn")
    def tell(self, inp: dict) -> None:
        """The share sheet, to tell the player to move that it is their turn."""
        info = self.kept.summary(self.now())
        turn = info.get("turn")
        if later_screens.turn_state(info) != "waiting" or not isinstance(turn, int):
            return
        game = friends_screens.game_name(info["game"], self.lang) if info["game"] else ""
        self.net(op="share", url=self.tell_url(turn),
                 title=t(self.lang, "later.tell_text", name=later_screens.name_of(self.lang, info, turn), game=game))

    def tell_url(self, seat: int) -> str:
        return self.session.base_url

    @answers("net-shared")
    def on_shared(self, inp: dict) -> None:
        self.shared = t(self.lang, "friends.shared." + str(inp.get("how") or "failed"))
        self.session.render()

    def lobby_screen(self) -> Node | None:
        return matches_screen(self)

    @answers("later-more")
    def toggle_more(self, inp: dict) -> None:
        """The bar's button: the friends' links, the record, Your matches, shown or hidden."""
        self.more_open = not self.more_open
        self.session.render()
        self.session.out.focus = '[data-testid="later-more"]'

    def open_match(self, inp: dict) -> None:
        if inp.get("match") == self.kept.match_id:      # this very match, from its menu: back to the table
            self.session.menu_open = False
            self.session.changed()
            return
        super().open_match(inp)

    @answers("my-matches")
    def to_matches(self, inp: dict) -> None:
        """From a match to Your matches: this one is closed, the others' news fetched."""
        session = self.session
        self.close_sub()
        session.ctrl = None
        session.link = Browsing(session)
        session.link.start()
        session.render()

    def replaced_by(self, match) -> None:
        self.close_sub()
        self.session.unlink()

    def back_to_lobby(self) -> bool:
        self.to_matches({})
        return True

    def table_words(self) -> dict:
        host = self.kept.role == "host"
        pending = not host and not self.kept.box.applied
        now = self.now()
        info = self.kept.summary(now)
        self.shown = (info["over"], info["absent"])
        kinds, turn = info["kinds"], info["turn"]
        people = [i for i, k in enumerate(kinds) if k in (HUMAN, REMOTE)]
        host_seat = next((i for i, k in enumerate(kinds) if k == HUMAN), None)
        lines = later_screens.status_lines(self.lang, info, pending, now,
                                           host_name=later_screens.name_of(self.lang, info, host_seat))
        tell = later_screens.turn_state(info) == "waiting" and turn in people and info["claimed"] is None
        bar = later_screens.table_bar(self.lang, lines, self.invites(), shared=self.shared, record=host,
                                      sent=self.sent, synced=self.synced, more_open=self.more_open,
                                      info=info, tell=tell, card=self.hand_card(info))
        # a friend's phone holds no record of the hand to review (the host's does)
        return {"role": "later", "statuses": {}, "waiting": [], "clock": None, "bar": bar, "tool": None,
                "banner": self.relay_line(), "review": host, "ended": info["ended"],
                "abandoned": info["abandoned"]}


class LaterHost(_AtTable):
    """The host's table of a match played when each can."""

    holds_record = True

    def __init__(self, session, kept: Kept):
        super().__init__(session, kept)
        self.host: MailHost = kept.box     # type: ignore[assignment]
        session.ctrl = controller.Controller(self.host.m, session.lang)

    @classmethod
    def create(cls, session, settings: dict, seed: Any) -> "LaterHost":
        """A new match from the friends' lobby's settings: the host's mailbox, kept, published."""
        now = session.wall()
        host, _tickets = MailHost.create(settings, seed, lang=session.lang, now=now)
        kept = Kept.new_host(host, session.relays)
        link = cls(session, kept)
        session.link = link
        session.menu_open = False
        link.start()
        return link

    def invites(self) -> list[tuple[int, str, str]]:
        names = self.host.m.seats
        return [(seat, names[seat]["name"] or t(self.lang, "friends.seat", n=seat + 1), self.link_for(seat))
                for seat in sorted(self.host.seats)]

    def link_for(self, seat: int) -> str:
        return later_link(self.session.base_url, self.host.tickets()[seat], self.kept.relays)

    def tell_url(self, seat: int) -> str:
        return self.link_for(seat) if seat in self.host.seats else self.session.base_url

    def start(self) -> None:
        super().start()
        set_open(self.session.storage, self.kept.match_id)     # a reload opens this table again

    def close_sub(self) -> None:
        super().close_sub()
        set_open(self.session.storage, None)                   # left the table: a reload shows the first screen

    def clock_rules(self) -> None:
        """Once the relays have sent what they hold (a friend's move there counts first): a table idle for
        7 days ends with no winner, an absence claimed too soon counts once its time has come."""
        if self.eose and self.host.tick(self.now()):
            self.session.ctrl.clear()
            self.flush()
            self.session.changed()

    @answers("end-absence")
    def end_absence(self, inp: dict) -> None:
        try:
            self.host.end_for_absence(self.now())
        except MailError as e:
            self.session.warn("domino: " + str(e))
            return
        self.session.ctrl.clear()
        self.flush()
        self.session.changed()

    def after_save(self) -> None:
        """The host's own move (applied by the table): the automatic steps, then the views published."""
        self.host.moved(self.now())
        self.flush()

    def received(self, got: mailbox.Receipt) -> None:
        if got.what == "act":        # a friend's move, applied (and the steps after it)
            self.session.ctrl.clear()
            self.flush()
            self.session.changed()

    @answers("share")
    def share(self, inp: dict) -> None:
        seat = self.seat_in(inp)
        if seat in self.host.seats:
            self.net(op="share", url=self.link_for(seat), title=t(self.lang, "later.share_title"))


class LaterController(GuestController):
    """A friend's table: no move offered while the last one waits for the host's phone to apply it."""

    def __init__(self, guest, lang: str, mail: MailGuest, clock):
        super().__init__(guest, lang)
        self.mail = mail
        self.clock = clock

    def my_turn(self) -> bool:
        return self.mail.applied and not self.mail.idle(self.clock()) and super().my_turn()


class LaterGuest(_AtTable):
    """A friend's seat in a match played when each can."""

    def __init__(self, session, kept: Kept):
        super().__init__(session, kept)
        self.guest: MailGuest = kept.box    # type: ignore[assignment]
        self.show()

    def show(self) -> None:
        session, g = self.session, self.guest.table
        if g.match is None:
            session.ctrl = None
        elif session.ctrl is None or session.ctrl.match is not g.match:
            session.ctrl = LaterController(g, session.lang, self.guest, self.now)
        else:
            session.ctrl.clear()

    def after_tap(self) -> None:
        """A tap left a decision in the mirror: the seat's action, sent until the host applies it."""
        text = self.guest.table.send_pending()
        if not text:
            return
        msg = json.loads(text)
        if msg.get("t") != "act":
            return
        try:
            self.guest.act(msg["action"], self.now())
        except MailError as e:
            self.session.warn("domino: " + str(e))
            return
        self.flush()

    @answers("end-absence")
    def end_absence(self, inp: dict) -> None:
        """Ask the host's phone to end the match for the absence of the player to move."""
        seat = self.guest.absent(self.now())
        if seat is None:
            return
        try:
            self.guest.act({"seat": self.guest.seat, "absent": seat}, self.now())
        except MailError as e:
            self.session.warn("domino: " + str(e))
            return
        self.flush()
        self.session.changed()

    def received(self, got: mailbox.Receipt) -> None:
        if got.what == "view":
            self.show()
            self.keep(self.kept)
            self.session.changed()

    def lobby_screen(self) -> Node | None:
        if self.session.ctrl is None and not self.session.menu_open:    # no view yet: waiting for the host's
            return later_screens.waiting_screen(self)
        return super().lobby_screen()


class Browsing(_Mail):
    """**Your matches**: every match kept here; what changed is fetched when the list opens."""

    def __init__(self, session):
        super().__init__(session)
        self.kept: dict[str, Kept] = {}
        self.by_tag: dict[str, str] = {}     # d tag -> match id

    def start(self) -> None:
        now = self.now()
        relays: list[str] = []
        filters = []
        for mid, entry in load_all(self.session.storage).items():
            if later_screens.clean_info(entry.get("info"))["over"]:
                continue
            try:
                kept = Kept.read(entry, now)
            except (MailError, ValueError, KeyError, TypeError) as e:
                self.session.warn(f"domino: a match kept for later cannot be read: {e}")
                continue
            self.kept[mid] = kept
            for f in kept.filters():
                for d in f["#d"]:
                    self.by_tag[d] = mid
                filters.append(f)
            relays += [r for r in kept.relays if r not in relays]
        if filters:
            self.open_sub("list", relays, filters)

    def lobby_screen(self) -> Node | None:
        return matches_screen(self)

    @answers("mail-event")
    def on_event(self, inp: dict) -> None:
        if inp.get("sub") != self.sub:
            return
        event = read_event(inp.get("text"))
        mid = self.by_tag.get(mailbox.nostr.tag_value(event, "d") or "") if event is not None else None
        kept = self.kept.get(mid) if mid else None
        if kept is None:
            return
        now = self.now()
        got = kept.receive(event, now)
        if got.accepted and got.what in ("view", "act"):
            self.publish(kept.relays, kept.outbox(now))    # the host applies a friend's move at once
            self.keep(kept)
            self.session.render()

def open_kept(session, kept: Kept) -> None:
    """A match of the list on the table: its link, then what changed fetched."""
    session.ctrl = None
    session.menu_open = False
    link = LaterHost(session, kept) if kept.role == "host" else LaterGuest(session, kept)
    session.link = link
    link.start()


def back_home(session, link: _Mail) -> None:
    """Back to this phone's own first screen (its own match, if it has one)."""
    link.close_sub()
    session.ctrl = None
    session.menu_open = False
    session.unlink()
    session.out.clear_hash = True
    session.load_game()
    session.render()


class Invited(_Mail):
    """A ``#later=`` link opened for the first time: what leaves the phone, and the tap that joins."""

    def __init__(self, session, ticket: Ticket | None, relays: list[str] | None, why: str = ""):
        super().__init__(session)
        self.ticket, self.relays, self.why = ticket, relays, why

    @classmethod
    def from_link(cls, session, fragment: str) -> Link:
        try:
            ticket, relays = parse_later(fragment)
        except OnlineError as e:
            return cls(session, None, None, e.words(session.lang))
        relays = relays or list(session.relays)
        entry = load_all(session.storage).get(ticket.match)
        if entry is not None and entry.get("role") == "host":     # the host opened its friend's link
            return cls(session, None, None, t(session.lang, "later.own_match"))
        if entry is not None and (entry.get("ticket") or {}).get("seat") == ticket.seat:
            try:
                return LaterGuest(session, Kept.read(entry, session.wall()))
            except (MailError, ValueError, KeyError, TypeError) as e:
                session.warn(f"domino: a match kept for later cannot be read: {e}")
        return cls(session, ticket, relays)

    def lobby_screen(self) -> Node | None:
        return later_screens.invited_screen(self)

    @answers("later-join")
    def join(self, inp: dict) -> None:
        session = self.session
        if self.ticket is None:
            return
        kept = Kept.new_guest(self.ticket, self.relays or list(session.relays))
        self.keep(kept)
        link = LaterGuest(session, kept)
        session.link = link
        link.start()
        session.render()

    @answers("later-leave")
    def leave(self, inp: dict) -> None:
        back_home(self.session, self)
