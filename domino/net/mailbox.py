"""A match with friends kept on Nostr relays for days: the mailbox, as two state machines.

Nobody needs to be online at the same time.  The host's device stays the
authority (it deals, checks every move, plays the computer seats); the relays
hold, per match, a few *stored, addressable* events (kind :data:`KIND`, NIP-01:
a newer event of the same author, kind and ``d`` tag replaces the older):

- the host's **state** (its own save: the match's record, the seats' keys),
  encrypted for the host itself;
- the host's latest **view** for each friend's seat (``Match.view(seat)``
  inside a ``domino-net/1`` ``view`` message), encrypted for that seat;
- each seat's pending **action** for the host (a ``domino-net/1`` ``act``
  message: the view's ``seq`` and the action), encrypted for the host.

Every event is signed (BIP-340) and its content encrypted for its one reader
(NIP-44 v2), with keys only the links carry: the host makes a key pair per
friend's seat and gives its secret in that seat's :class:`Ticket` (the
invitation link), which also names the host's public key: a seat accepts
views only from that key.  docs/NET.md section 11 lists every field.

Both sides are pure: they consume events (``receive``) and produce events to
publish (``outbox``), with the time given as ``now`` (seconds since the
epoch).  No socket, no browser, no clock: a driver (the page; in the tests a
small websockets client) subscribes with ``filters()``, feeds what the relays
send and publishes what ``outbox`` returns, in its order.

- :class:`MailHost`: ``create`` a match (one :class:`Ticket` per friend's
  seat), ``receive`` a seat's action (checked against the real engine, then
  applied; the host resolves every automatic step at once: draws, passes,
  the computer's moves, the next deal, and stops where a person must
  decide), ``act`` for the host's own seat, ``outbox`` (its state first, then
  each seat's view that changed), ``republish`` (everything again, for
  relays that lost it), ``rebuild`` from nothing but its key, the match id
  and what the relays hold.
- :class:`MailGuest`: ``receive`` the seat's views, ``act`` (the action
  goes out, and again every :data:`RESEND_AFTER` seconds, until a view shows
  it applied), ``rebuild`` from its ticket and what the relays hold.

Every refused event comes back as a :class:`Receipt` with a typed reason
(:data:`REASONS`): a replay, a stale event (an older ``rev`` or ``seq`` than
known), a forged one (wrong author, bad id or signature, another match or
seat, not readable with this key), a move the engine does not allow.
"""
from __future__ import annotations

import base64
import hashlib
import json
import secrets
import zlib
from dataclasses import dataclass
from typing import Any

from domino import players
from domino.engine.match import HUMAN, Match
from domino.engine.records import ReplayError, from_record, json_depth, to_record
from domino.net import nostr, protocol
from domino.net.guest import GuestTable
from domino.net.host import HostTable
from domino.net.protocol import ProtocolError
from domino.table import REMOTE

FORMAT = "domino-mail/1"
#: NIP-78's kind, "application-specific data": addressable (30000-39999), kept by public relays.
KIND = 30078
#: Seconds after which a seat's action that no view shows applied is sent again.
RESEND_AFTER = 30
#: RULES.md 3.5 [001]: a player to move who has not played for more than 2 days may be
#: ended for absence (they lose, as one who leaves does); a table with no move for 7 days
#: ends with no winner.  Both measured on the host's clock, from when the position began.
ABSENCE_AFTER = 2 * 86400
IDLE_AFTER = 7 * 86400
MAX_DEPTH = protocol.MAX_HOST_DEPTH + 2
MAX_SEATS = protocol.MAX_SEAT + 1

#: Why an event was refused (:attr:`Receipt.reason`).
REASONS = {
    "malformed": "not an event of this mailbox (its shape, its kind, or its content once decrypted)",
    "wrong-match": "an event of another match (its d tag or its content names another one)",
    "bad-id": "the event's id is not the hash of its fields (it was changed on the way)",
    "replay": "this very event was already read",
    "wrong-author": "signed by a key that may not write this event",
    "not-for-me": "its p tag names another reader",
    "bad-signature": "the signature is not its author's",
    "undecryptable": "its content does not decrypt with this key",
    "wrong-seat": "the content is about another seat than its tag",
    "stale": "older than what is known (an earlier rev or seq)",
    "match-over": "the match is over",
    "out-of-turn": "it is not this seat's turn",
    "illegal": "the engine does not allow that move now",
    "too-soon": "an absence claimed before 2 days have passed on the host's clock (kept: it counts once they have)",
}


class MailError(ValueError):
    """A call that does not fit the mailbox's state (act out of turn, rebuild
    with nothing on the relays)."""


@dataclass(frozen=True)
class Ticket:
    """What a friend's link carries: the match, the host's public key (hex),
    the seat, and the seat's secret key (hex)."""

    match: str
    host: str
    seat: int
    secret: str

    @property
    def pubkey(self) -> str:
        return nostr.pubkey_of(bytes.fromhex(self.secret)).hex()


@dataclass(frozen=True)
class Receipt:
    """What one event was: ``what`` (``state``, ``view``, ``act``,
    ``own-view``, ``own-act``, or ``""`` when not even that is known) and
    ``reason``: None when accepted, else a key of :data:`REASONS`."""

    what: str
    reason: str | None = None
    detail: str = ""

    @property
    def accepted(self) -> bool:
        return self.reason is None

    def __str__(self) -> str:
        return f"{self.what or 'event'}: {self.reason or 'accepted'}{': ' + self.detail if self.detail else ''}"


def new_match_id() -> str:
    """A new match id: 128 random bits, 32 hex digits (it travels in the links only)."""
    return secrets.token_hex(16)


def tag(match: str, role: str, seat: int | None = None) -> str:
    """The ``d`` tag of one of the match's events (``role``: ``host``, ``view``
    or ``act``): 32 hex digits of a hash, so the relays see no match id and no
    seat, and cannot link two matches."""
    text = f"{FORMAT}|{match}|{role}|{'' if seat is None else seat}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def match_filters(match: str, seats: range | list[int] = range(MAX_SEATS)) -> list[dict]:
    """The REQ filters that fetch every event of a match (what the host
    subscribes to: its state, every seat's view and action)."""
    tags = [tag(match, "host")] + [tag(match, role, s) for s in seats for role in ("view", "act")]
    return [{"kinds": [KIND], "#d": tags}]


def _payload(kind: str, match: str, **fields: Any) -> dict:
    return {"v": FORMAT, "t": kind, "match": match, **fields}


def _dumps(x: Any) -> str:
    return json.dumps(x, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _pack_record(match: Match) -> str:
    return base64.b64encode(zlib.compress(_dumps(to_record(match)).encode(), 9)).decode("ascii")


def _unpack_record(text: Any) -> Match:
    if not isinstance(text, str):
        raise ReplayError("bad-format", "record_z must be text")
    raw = zlib.decompressobj().decompress(base64.b64decode(text, validate=True), 4_000_000)
    return from_record(json.loads(raw))


class _Box:
    """What the host and a guest share: keys, tags, the checks of an event
    up to its decrypted payload, and increasing ``created_at`` per ``d`` tag
    (a relay keeps, of two events of one address, the newer: two events of
    the same second would leave it to chance)."""

    def __init__(self, secret: bytes, match: str):
        self.secret = secret
        self.pub = nostr.pubkey_of(secret).hex()
        self.match = match
        self.seen: set[str] = set()               # ids read or made here (replays)
        self.stamps: dict[str, int] = {}          # d tag -> the latest created_at known
        self._conv: dict[str, bytes] = {}

    def conv(self, other: str) -> bytes:
        key = self._conv.get(other)
        if key is None:
            key = self._conv[other] = nostr.conversation_key(self.secret, bytes.fromhex(other))
        return key

    def _sign(self, d: str, reader: str, payload: dict, now: float) -> dict:
        created = max(int(now), self.stamps.get(d, -1) + 1)
        self.stamps[d] = created
        content = nostr.encrypt(_dumps(payload), self.conv(reader))
        event = nostr.sign_event(self.secret, kind=KIND, content=content, tags=[["d", d], ["p", reader]],
                                 created_at=created, pubkey=self.pub)
        self.seen.add(event["id"])
        return event

    def _open(self, event: Any, expect: dict[str, tuple[str, str, int | None, str]]) -> \
            tuple[str, int | None, dict] | Receipt:
        """The checks every event goes through, cheapest first.  ``expect``:
        d tag -> (what, author, seat, reader).  Returns (what, seat, payload)
        or the refusal."""
        if nostr.event_shape_error(event) is not None or event["kind"] != KIND:
            return Receipt("", "malformed", "not a signed event of kind %d" % KIND)
        d = nostr.tag_value(event, "d")
        if d not in expect:
            return Receipt("", "wrong-match", "its d tag is not one of this match's")
        what, author, seat, reader = expect[d]
        try:
            good_id = nostr.event_id(event) == event["id"]
        except UnicodeEncodeError:
            good_id = False
        if not good_id:
            return Receipt(what, "bad-id")
        if event["id"] in self.seen:
            return Receipt(what, "replay")
        if event["pubkey"] != author:
            return Receipt(what, "wrong-author", f"written by {event['pubkey'][:12]}…, not {author[:12]}…")
        if nostr.tag_value(event, "p") != reader:
            return Receipt(what, "not-for-me")
        if not nostr.verify(bytes.fromhex(author), bytes.fromhex(event["id"]), bytes.fromhex(event["sig"])):
            return Receipt(what, "bad-signature")
        self.seen.add(event["id"])
        self.stamps[d] = max(self.stamps.get(d, -1), event["created_at"])
        other = reader if author == self.pub else author
        try:
            text = nostr.decrypt(event["content"], self.conv(other))
        except nostr.Nip44Error as exc:
            return Receipt(what, "undecryptable", exc.code)
        if json_depth(text) > MAX_DEPTH:
            return Receipt(what, "malformed", "nests too deep")
        try:
            payload = json.loads(text)
        except ValueError:
            return Receipt(what, "malformed", "not JSON")
        if type(payload) is not dict or payload.get("v") != FORMAT:
            return Receipt(what, "malformed", f"not a {FORMAT} payload")
        if payload.get("match") != self.match:
            return Receipt(what, "wrong-match", "its content names another match")
        kind = what.removeprefix("own-")
        if payload.get("t") != kind:
            return Receipt(what, "malformed", f"a {payload.get('t')!r} payload under a {kind} tag")
        if seat is not None and payload.get("seat") != seat:
            return Receipt(what, "wrong-seat", f"seat {payload.get('seat')!r} under seat {seat}'s tag")
        return what, seat, payload


@dataclass
class _Seat:
    secret: bytes
    pub: str
    acked: int | None = None          # the seq at which its last applied action was made
    sent: tuple | None = None         # what its last view published held: (seq, acked)
    view_rev: int = 0                 # the rev of its last view published


class MailHost(_Box):
    """The host's side (see the module docstring).  ``create`` a new match,
    or ``rebuild`` one from the relays."""

    def __init__(self, secret: bytes, match_id: str, match: Match, seat_secrets: dict[int, bytes]):
        super().__init__(secret, match_id)
        self.m = match
        self.seats = {s: _Seat(k, nostr.pubkey_of(k).hex()) for s, k in sorted(seat_secrets.items())}
        for s in self.seats:
            if match.seats[s]["kind"] != REMOTE:
                raise MailError(f"seat {s} is not a friend's seat")
        self.rev = 0                      # publications so far (every view and state carries it)
        self.since = 0                    # when the position (m.seq) began
        self._seq_seen = match.seq
        self.dirty = True                 # something to publish
        self.last: dict[str, dict] = {}   # d tag -> the last event made for it (republish)
        self.refused: list[Receipt] = []  # the last refusals, newest last (at most 50)
        self.abandoned: int | None = None  # the seat whose absence ended the match
        self.claims: dict[int, tuple[int, int]] = {}   # seat -> (seq, absent seat): an absence claimed too soon
        self._found: dict[int, int] = {}  # seat -> the newest rev of its view read back from the relays

    # ----- making one -------------------------------------------------------
    @classmethod
    def create(cls, settings: dict, seed: Any, *, secret: bytes | None = None, match_id: str | None = None,
               lang: str = "en", now: float = 0) -> tuple["MailHost", dict[int, Ticket]]:
        """A new match from new-game settings whose friends' seats have kind
        ``"remote"`` (as for a live table): the host and a :class:`Ticket`
        per friend's seat.  ``secret``: the host's key (new if not given)."""
        table = HostTable(settings)
        match = table.new_match(seed, lang)
        secret = secret or nostr.new_secret()
        match_id = match_id or new_match_id()
        keys = {s: nostr.new_secret() for s in table.remote_seats()}
        host = cls(secret, match_id, match, keys)
        host.since = int(now)
        host._advance(now)
        return host, host.tickets()

    def tickets(self) -> dict[int, Ticket]:
        return {s: Ticket(self.match, self.pub, s, seat.secret.hex()) for s, seat in self.seats.items()}

    def filters(self) -> list[dict]:
        return match_filters(self.match, list(self.seats))

    # ----- what the relays say ------------------------------------------------
    def _expect(self) -> dict[str, tuple[str, str, int | None, str]]:
        out: dict[str, tuple[str, str, int | None, str]] = {tag(self.match, "host"): ("state", self.pub, None, self.pub)}
        for s, seat in self.seats.items():
            out[tag(self.match, "view", s)] = ("own-view", self.pub, s, seat.pub)
            out[tag(self.match, "act", s)] = ("act", seat.pub, s, self.pub)
        return out

    def receive(self, event: Any, now: float) -> Receipt:
        """Read one event from a relay.  A seat's action at the current
        position, legal, is applied at once and the automatic steps after it
        resolved (then :meth:`outbox` has the new views)."""
        opened = self._open(event, self._expect())
        if isinstance(opened, Receipt):
            return self._refuse(opened)
        what, seat, payload = opened
        rev = payload.get("rev")
        if what in ("state", "own-view"):          # the host's own, read back (after a restart)
            if protocol.is_int(rev):
                self.rev = max(self.rev, rev)
                if what == "own-view":
                    self._found[seat] = max(self._found.get(seat, 0), rev)
            return Receipt(what)
        return self._on_act(seat, payload, now)

    def _refuse(self, r: Receipt) -> Receipt:
        self.refused = (self.refused + [r])[-50:]
        return r

    def _on_act(self, seat: int, payload: dict, now: float) -> Receipt:
        try:
            msg = protocol.decode_guest(_dumps(payload.get("msg")))
        except ProtocolError as exc:
            return self._refuse(Receipt("act", "malformed", f"{exc.code}: {exc}"))
        if msg["t"] != "act":
            return self._refuse(Receipt("act", "malformed", f"a {msg['t']} message, not an act"))
        seq, action = msg["seq"], msg["action"]
        m = self.m
        if action["seat"] != seat:
            return self._refuse(Receipt("act", "wrong-seat", f"an action of seat {action['seat']}"))
        if m.finished:
            return self._refuse(Receipt("act", "match-over"))
        if "absent" in action:
            return self._on_claim(seat, seq, action, now)
        if "resign" in action:
            if len(action) != 2:
                return self._refuse(Receipt("act", "illegal", "a resign carries nothing else"))
            self._apply(seat, seq, {"seat": seat, "resign": True}, now)
            return Receipt("act")
        if seq != m.seq:
            return self._refuse(Receipt("act", "stale", f"made at {seq}; the match is at {m.seq}"))
        if m.phase != "play" or m.turn != seat or m.seats[seat]["kind"] != REMOTE:
            return self._refuse(Receipt("act", "out-of-turn"))
        legal = next((a for a in m.legal_actions() if a == action), None)
        if legal is None:
            return self._refuse(Receipt("act", "illegal", _dumps(action)[:80]))
        self._apply(seat, seq, legal, now)
        return Receipt("act")

    def _on_claim(self, seat: int, seq: int, action: dict, now: float) -> Receipt:
        """A seat says the player to move has been away too long (``{"seat", "absent"}``)."""
        m, absent = self.m, action["absent"]
        if len(action) != 2 or absent == seat:
            return self._refuse(Receipt("act", "illegal", "an absence names another seat and nothing else"))
        if seq != m.seq:
            return self._refuse(Receipt("act", "stale", f"made at {seq}; the match is at {m.seq}"))
        if m.turn != absent:
            return self._refuse(Receipt("act", "illegal", f"seat {absent} is not the one to move"))
        if self.absent(now) != absent:
            self.claims[seat] = (seq, absent)
            return self._refuse(Receipt("act", "too-soon", f"{int(now) - self.since} s since the position began"))
        self._end_absent(absent, seat, seq, now)
        return Receipt("act")

    def _end_absent(self, absent: int, seat: int | None, seq: int, now: float) -> None:
        self.abandoned = absent
        self.claims.clear()
        self._apply(seat, seq, {"seat": absent, "resign": True}, now)

    def absent(self, now: float) -> int | None:
        """The seat to move when it has had the turn for more than :data:`ABSENCE_AFTER` seconds (on
        this clock): it may be ended for absence.  None otherwise (a computer never is)."""
        m = self.m
        if m.finished or m.turn is None or int(now) - self.since <= ABSENCE_AFTER:
            return None
        return m.turn if m.seats[m.turn]["kind"] in (HUMAN, REMOTE) else None

    def end_for_absence(self, now: float) -> None:
        """The host ends the match: the friend to move has been away more than 2 days (they lose, as one
        who leaves does).  :class:`MailError` when nobody may be ended so."""
        seat = self.absent(now)
        if seat is None or self.m.seats[seat]["kind"] != REMOTE:
            raise MailError("no friend has been away from their turn for more than 2 days")
        self._end_absent(seat, None, self.m.seq, now)

    def tick(self, now: float) -> bool:
        """The clock's rules, when the host's phone has the match open: a table with no move for
        :data:`IDLE_AFTER` seconds ends with no winner; an absence claimed too soon counts once its
        time has come (at the same position).  True when the match changed."""
        m = self.m
        if m.finished:
            return False
        if int(now) - self.since > IDLE_AFTER:
            m.end_idle()
            self.claims.clear()
            self._advance(now)
            return True
        for seat, (seq, absent) in sorted(self.claims.items()):
            if seq == m.seq and self.absent(now) == absent:
                self._end_absent(absent, seat, seq, now)
                return True
        self.claims = {s: c for s, c in self.claims.items() if c[0] == m.seq}
        return False

    def _apply(self, seat: int | None, seq: int, action: dict, now: float) -> None:
        self.m.apply(action)
        if seat is not None:
            self.seats[seat].acked = seq
        self._advance(now)

    def _advance(self, now: float) -> None:
        """Every automatic step at once: the next deal, the computers' moves;
        it stops where a person (the host or a friend) must decide."""
        m = self.m
        while not m.finished:
            if m.phase == "hand-over":
                m.next_hand()
                continue
            kind = m.seats[m.turn]["kind"]
            if kind in (HUMAN, REMOTE):
                break
            m.apply(players.get_player(kind)(m.view(m.turn), m.player_rng(m.turn)))
        if m.seq != self._seq_seen:
            self._seq_seen, self.since = m.seq, int(now)
        self.dirty = True

    # ----- the host's own seat --------------------------------------------------
    def moved(self, now: float) -> None:
        """The host's own move was applied to :attr:`m` by the app's table
        (which offers only legal moves): the automatic steps after it resolved."""
        self._advance(now)

    def waiting_for(self) -> int | None:
        """The seat whose decision the match waits for (None: over)."""
        return None if self.m.finished else self.m.turn

    def act(self, action: dict, now: float) -> None:
        """The host's own move (its seat is the ``"human"`` one): checked
        against the engine (:class:`MailError` when not allowed), applied,
        the automatic steps resolved."""
        m = self.m
        if m.finished:
            raise MailError("the match is over")
        own = [s for s in range(len(m.seats)) if m.seats[s]["kind"] == HUMAN]
        if isinstance(action, dict) and action.get("resign") and action.get("seat") in own:
            self._apply(None, m.seq, {"seat": action["seat"], "resign": True}, now)
            return
        if m.phase != "play" or m.seats[m.turn]["kind"] != HUMAN:
            raise MailError("it is not the host's turn")
        legal = next((a for a in m.legal_actions() if a == action), None)
        if legal is None:
            raise MailError(f"that move is not allowed now: {action!r}")
        self._apply(None, m.seq, legal, now)

    # ----- what goes to the relays ------------------------------------------------
    def state(self) -> dict:
        """The host's save, as the state event carries it (and as a device may keep it)."""
        return _payload("state", self.match, rev=self.rev, since=self.since,
                        seats={str(s): seat.secret.hex() for s, seat in self.seats.items()},
                        acked={str(s): seat.acked for s, seat in self.seats.items()},
                        views={str(s): seat.view_rev for s, seat in self.seats.items()},
                        abandoned=self.abandoned,
                        claims={str(s): list(c) for s, c in self.claims.items()},
                        record_z=_pack_record(self.m))

    def view_payload(self, seat: int) -> dict:
        m = self.m
        msg = protocol.message("view", seq=m.seq, view=m.view(seat), events=[],
                               resigned=dict(m.resigned) if m.resigned else None, abandoned=self.abandoned)
        protocol.encode(msg)     # checked against the schema a guest reads it with
        return _payload("view", self.match, seat=seat, rev=self.rev, since=self.since,
                        acked=self.seats[seat].acked, msg=msg)

    def outbox(self, now: float) -> list[dict]:
        """The events to publish now, in this order: the host's state, then
        each seat's view that changed (nothing when nothing changed)."""
        if not self.dirty:
            return []
        self.dirty = False
        self.rev += 1
        changed = [s for s, seat in self.seats.items() if seat.sent != (self.m.seq, seat.acked)]
        for s in changed:
            self.seats[s].view_rev = self.rev
        out = [self._sign(tag(self.match, "host"), self.pub, self.state(), now)]
        for s in changed:
            seat = self.seats[s]
            out.append(self._sign(tag(self.match, "view", s), seat.pub, self.view_payload(s), now))
            seat.sent = (self.m.seq, seat.acked)
        for event in out:
            self.last[nostr.tag_value(event, "d") or ""] = event
        return out

    def republish(self) -> list[dict]:
        """The last event of every kind made here, unchanged (for relays that
        lost them: a relay that has them answers duplicate)."""
        return list(self.last.values())

    # ----- back from the relays ------------------------------------------------------
    @classmethod
    def rebuild(cls, secret: bytes, match_id: str, events: list[dict], now: float) -> "MailHost":
        """The host again, from its key, the match id and what the relays hold
        (every event :func:`match_filters` fetched): the newest state it
        signed, then every view (its ``rev``) and seat's action (applied when
        it is the move the match waits for).  :class:`MailError` when the
        relays hold no state of this match."""
        box = _Box(secret, match_id)
        best: dict | None = None
        ordered = sorted((e for e in events if isinstance(e, dict)),
                         key=lambda e: (e.get("created_at", 0) if isinstance(e.get("created_at"), int) else 0))
        for event in ordered:
            opened = box._open(event, {tag(match_id, "host"): ("state", box.pub, None, box.pub)})
            if isinstance(opened, Receipt):
                continue
            p = opened[2]
            if protocol.is_int(p.get("rev")) and (best is None or p["rev"] > best["rev"]):
                best = p
        if best is None:
            raise MailError("the relays hold no state of this match signed by this key")
        try:
            match = _unpack_record(best.get("record_z"))
            seats = {int(s): bytes.fromhex(k) for s, k in best["seats"].items()}
        except (ReplayError, ValueError, TypeError, KeyError, AttributeError, zlib.error) as exc:
            raise MailError(f"the match's state on the relays cannot be read: {exc}") from None
        host = cls(secret, match_id, match, seats)
        host.stamps = dict(box.stamps)
        host.rev = best["rev"]
        host.since = best.get("since") if protocol.is_int(best.get("since"), 0, 2**40) else int(now)
        for s, seq in (best.get("acked") or {}).items():
            if int(s) in host.seats and (seq is None or protocol.is_int(seq)):
                host.seats[int(s)].acked = seq
        if protocol.is_int(best.get("abandoned"), 0, MAX_SEATS - 1) and host.m.resigned \
                and host.m.resigned["seat"] == best["abandoned"]:
            host.abandoned = best["abandoned"]
        for s, c in (best.get("claims") or {}).items():
            if int(s) in host.seats and isinstance(c, list) and len(c) == 2 and all(protocol.is_int(x) for x in c):
                host.claims[int(s)] = (c[0], c[1])
        views = best.get("views") or {}
        published = {s: (host.m.seq, seat.acked) for s, seat in host.seats.items()}
        host.dirty = False
        for event in ordered:
            host.receive(event, now)
        for s, seat in host.seats.items():
            seat.view_rev = views.get(str(s), 0) if protocol.is_int(views.get(str(s))) else 0
            seat.sent = published[s]
            if host._found.get(s, 0) < seat.view_rev:     # the relays no longer hold its last view
                seat.sent, host.dirty = None, True
        return host


class MailGuest(_Box):
    """One friend's seat (see the module docstring), from its :class:`Ticket`."""

    def __init__(self, ticket: Ticket):
        super().__init__(bytes.fromhex(ticket.secret), ticket.match)
        self.ticket = ticket
        self.seat = ticket.seat
        self.host = ticket.host
        self.table = GuestTable(ticket.seat, "-")   # the seat's view and its mirror, as in a live table
        self.rev = 0
        self.since: int | None = None
        self.acked: int | None = None
        self.pending: dict | None = None    # {"seq", "action", "sent"}: the action until a view shows it applied

    @property
    def view(self) -> dict | None:
        return self.table.view

    def filters(self) -> list[dict]:
        return [{"kinds": [KIND], "#d": [tag(self.match, "view", self.seat), tag(self.match, "act", self.seat)]}]

    def _expect(self) -> dict[str, tuple[str, str, int | None, str]]:
        return {tag(self.match, "view", self.seat): ("view", self.host, self.seat, self.pub),
                tag(self.match, "act", self.seat): ("own-act", self.pub, self.seat, self.host)}

    def receive(self, event: Any, now: float) -> Receipt:
        """Read one event: the host's view of this seat (the newest ``rev``
        wins), or this seat's own action read back (after a restart)."""
        opened = self._open(event, self._expect())
        if isinstance(opened, Receipt):
            return opened
        what, _seat, payload = opened
        if what == "own-act":
            return self._on_own_act(payload, event)
        rev = payload.get("rev")
        if not protocol.is_int(rev) or not isinstance(payload.get("msg"), dict):
            return Receipt("view", "malformed", "a view needs rev and msg")
        if rev <= self.rev:
            return Receipt("view", "stale", f"rev {rev}; this seat has {self.rev}")
        got = self.table.receive(_dumps(payload["msg"]))
        if got.kind != "view":
            reason = "stale" if got.detail.startswith("an older view") else "malformed"
            return Receipt("view", reason, got.detail)
        self.rev = rev
        self.since = payload.get("since") if protocol.is_int(payload.get("since"), 0, 2**40) else None
        acked = payload.get("acked")
        self.acked = acked if protocol.is_int(acked) else None
        self._settle()
        return Receipt("view")

    def _on_own_act(self, payload: dict, event: dict) -> Receipt:
        msg = payload.get("msg")
        if not (isinstance(msg, dict) and protocol.is_int(msg.get("seq")) and protocol.is_action(msg.get("action"))):
            return Receipt("own-act", "malformed")
        if self.pending is not None and msg["seq"] == self.pending["seq"]:
            self.pending["sent"] = max(self.pending["sent"] or 0, event["created_at"])   # a copy sent again
            return Receipt("own-act")
        if self.pending is not None and msg["seq"] < self.pending["seq"]:
            return Receipt("own-act", "stale")
        self.pending = {"seq": msg["seq"], "action": msg["action"], "sent": event["created_at"]}
        self._settle()
        return Receipt("own-act")

    def _settle(self) -> None:
        """The pending action is done once a view is past the position it was made at."""
        v = self.table.view
        if self.pending is not None and v is not None and v["seq"] > self.pending["seq"]:
            self.pending = None

    @property
    def applied(self) -> bool:
        """No action of this seat waits: the last one sent shows applied."""
        return self.pending is None

    def act(self, action: dict, now: float) -> None:
        """This seat's decision on its current view (one of ``view["legal"]``,
        or a resign); :meth:`outbox` sends it, and again until applied."""
        v = self.table.view
        if v is None:
            raise MailError("no view yet: nothing to act on")
        if self.pending is not None and self.pending["seq"] == v["seq"]:
            raise MailError("a move for this position is already on its way")
        resign = action == {"seat": self.seat, "resign": True}
        claim = isinstance(action, dict) and action.keys() == {"seat", "absent"} and action["seat"] == self.seat
        if claim and action["absent"] != self.absent(now):
            raise MailError(f"seat {action['absent']!r} has not been away from its turn for more than 2 days")
        if not (resign or claim) and action not in v["legal"]:
            raise MailError(f"that move is not allowed now: {action!r}")
        self.pending = {"seq": v["seq"], "action": dict(action), "sent": None}

    def absent(self, now: float) -> int | None:
        """The seat to move, when it is another person who has had the turn for more than
        :data:`ABSENCE_AFTER` seconds (the host's time stamp, this phone's clock): this seat may claim its
        absence (the host's phone checks it again on its own clock).  None otherwise."""
        v = self.table.view
        if v is None or v.get("outcome") is not None or self.since is None or self.pending is not None:
            return None
        turn, kinds = v.get("turn"), v.get("kinds") or []
        if not isinstance(turn, int) or turn == self.seat or not 0 <= turn < len(kinds) \
                or kinds[turn] not in (HUMAN, REMOTE):
            return None
        return turn if int(now) - self.since > ABSENCE_AFTER else None

    def last_move(self) -> int | None:
        """When the table last moved, as this phone knows: the host's stamp of the position, or this
        seat's own move sent since (None: no view yet)."""
        if self.since is None:
            return None
        sent = (self.pending or {}).get("sent")
        return max(self.since, sent) if isinstance(sent, int) else self.since

    def idle(self, now: float) -> bool:
        """No move for :data:`IDLE_AFTER` seconds as this phone knows (the host's phone ends the match so
        when it next opens; this phone already shows it over)."""
        last = self.last_move()
        v = self.table.view
        return v is not None and v.get("outcome") is None and last is not None and int(now) - last > IDLE_AFTER

    def outbox(self, now: float) -> list[dict]:
        """The seat's action event when it is new, or again when no view
        showed it applied for :data:`RESEND_AFTER` seconds."""
        p = self.pending
        if p is None or (p["sent"] is not None and now - p["sent"] < RESEND_AFTER):
            return []
        msg = protocol.message("act", seq=p["seq"], action=p["action"])
        protocol.encode(msg)
        event = self._sign(tag(self.match, "act", self.seat), self.host,
                           _payload("act", self.match, seat=self.seat, msg=msg), now)
        p["sent"] = int(now)
        return [event]

    @classmethod
    def rebuild(cls, ticket: Ticket, events: list[dict], now: float) -> "MailGuest":
        """The seat again from its ticket and what the relays hold (every
        event its :meth:`filters` fetched)."""
        guest = cls(ticket)
        for event in sorted((e for e in events if isinstance(e, dict)),
                            key=lambda e: e.get("created_at", 0) if isinstance(e.get("created_at"), int) else 0):
            guest.receive(event, now)
        return guest
