"""The host's side of play-with-friends: the lobby, the seats, and what each guest may see and do.

One device (the host) holds the :class:`~domino.engine.match.Match`; every
guest device holds one seat.  :class:`HostTable` sits between the match and
the transport (which gives each connected device an opaque peer id, a
string) and never touches either directly:

- :meth:`HostTable.receive` reads one text from a peer and answers with a
  :class:`HostResult`: replies to send, and at most one *validated* action
  for the session to apply to the match (the table never applies one);
- :meth:`HostTable.sync` is called after the session applied anything (a tap
  on the host, a computer's move, a guest's action) and saved the match:
  each connected guest gets its seat's view when it changed;
- :meth:`HostTable.disconnected` and :meth:`HostTable.tick` handle devices
  that go away (the grace period, then the host's policy).

Seats.  The lobby's config is the new-game settings dict
(:mod:`domino.table`) in which a seat of kind ``"remote"`` is played
from a friend's device.  At most one seat is ``"human"``: the host's own.
In the Match, remote seats have kind ``"remote"`` (so the host's Controller
shows only the host's tiles and never a hand-off screen; the session's
computer loop must skip them, see :func:`is_remote_turn`).  Each seat has a
status (:data:`STATUSES`): ``here`` (the host's own seat), ``computer``,
``open`` (remote, no invitation yet), ``invited`` (a secret exists, no device
yet), ``joined`` (a device holds it), ``ready`` (joined and tapped Start, in
the lobby), ``away`` (its device went away).

Partners.  With a partnership at 4 players seats 0 and 2 play against 1
and 3 (the engine's sides).  The host chooses partners by placing people:
:meth:`HostTable.swap_seats` moves two seats' occupants (kind, name,
invitation, device) in the lobby; moved guests get a new ``welcome``.

Invitations.  :meth:`HostTable.invite` makes a seat's secret
(``secrets.token_urlsafe``); the invitation link carries seat and secret.
A device binds to the seat with ``hello`` and that secret.  One device per
seat: a second device with the right secret replaces the first (the first
gets ``closed`` ``replaced`` and is dropped): that is how a reload, or a new
phone, reclaims a seat.  A wrong secret is refused; five wrong secrets drop
the device.

Away seats.  A seat whose device goes away is ``away``; after ``grace``
seconds (default 60) :meth:`HostTable.tick` applies the host's ``policy``
to the seats away that long, in the order they left (a count of
departures, not the clock: two friends who leave in the same second keep
their order): ``"computer"`` sets the seat's kind in the Match to
``stand_in`` (default ``"medium"``) so the session's computer loop plays
it until its person comes back (then the kind is ``"remote"`` again);
``"abandon"`` ends the
match by abandonment: the table returns ``{"seat": s, "resign": True}``
as the action to apply, i.e. :meth:`Match.resign`, whose outcome is
exactly the abandonment rule: the one who left loses (with partners, the
leaver's side); at 2 sides the other wins; at 3+ sides the best of those
who stay wins (most points; fewest in the bad-points games), a tie for the
best is a draw.  The outcome's ``reason`` stays ``"resign"`` (records replay
it unchanged); the ``ended`` message says ``abandoned: seat``.

The host's hands on the seats.  :meth:`HostTable.hand_to_computer` gives a
friend's seat to the computer whether its friend is there or not; such a
seat is ``handed`` (in :meth:`HostTable.statuses` and the saved state) and
stays with the computer until the host gives it back
(:meth:`HostTable.give_back`): no ``hello`` takes it back, so a friend
cannot undo the host's decision from their phone.
"""
from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from domino import players
from domino.engine.match import HUMAN, Match
from domino.engine.rules import Rules, RulesError
from domino.net import protocol
from domino.net.protocol import ProtocolError
from domino.table import REMOTE, computer_kinds, normalize_settings, rules_for, sanitize_name
from domino.table import new_match as table_new_match

STATUSES = ("here", "computer", "open", "invited", "joined", "ready", "away")
POLICIES = ("computer", "abandon")
STATE_FORMAT = "domino-net-host/1"

DEFAULT_GRACE = 60.0        # seconds an away seat is waited for
RATE = 20.0                 # messages per second a device may send ...
BURST = 40.0                # ... with bursts up to this many
DROP_AFTER = 120            # messages over the limit in a row: the device is dropped
REACT_RATE = 1.0            # reactions per second (each is sent to every guest) ...
REACT_BURST = 3.0           # ... with bursts up to this many
MAX_STRIKES = 5             # wrong secrets before the device is dropped
MAX_UNSEATED = 32           # devices connected without a seat
MAX_EVENTS = 200            # public actions in one view message, at most
UNSEATED_TIMEOUT = 10.0     # seconds a device may stay connected without a seat (a valid hello)
TIMEOUTS = (0.0, 60.0, 120.0, 300.0)   # the host's choices for a turn and for Next (0: no time limit)
COUNTDOWN = 30.0            # the last seconds of a time limit are shown to everyone
COUNTDOWN_STEP = 5.0        # ... in steps of this many seconds

#: Refusal codes of the table (besides protocol.DECODE_CODES), with their English words.
REFUSALS = {
    "not-seated": "say hello with your seat and its secret first",
    "bad-seat": "that seat is not played from a friend's device",
    "bad-secret": "that invitation is not valid here (ask the host for a new link)",
    "already-seated": "this device already holds another seat",
    "not-in-lobby": "the match has already started",
    "not-started": "the match has not started yet",
    "match-over": "the match is over",
    "not-your-seat": "a device plays only its own seat",
    "stale-seq": "the table has moved on since that view",
    "duplicate": "a move for this position is already on its way",
    "out-of-turn": "it is not this seat's turn",
    "illegal": "that move is not allowed now",
    "not-hand-over": "the hand is still being played",
    "rate-limit": "too many messages: slow down",
    "timeout": "no seat was claimed in time",
    "stand-in": "the computer plays this seat now (the host can give it back)",
    "internal": "the host could not handle that message",
}


class NetError(ValueError):
    """A host-side call that does not fit the table's state (start before
    everyone is ready, invite a computer's seat, a malformed saved state)."""


def is_remote_turn(match: Match) -> bool:
    """The seat to move is played from a friend's device: the session waits
    for its action (and its computer loop must not play it)."""
    return match.phase == "play" and match.turn is not None and match.seats[match.turn]["kind"] == REMOTE


@dataclass
class HostResult:
    """What one call produced.

    ``replies``: (peer, text) to send, in order.  ``action``: a validated
    ``(seat, action)`` for the session to apply with ``match.apply`` (then
    save, then :meth:`HostTable.sync`).  ``next_hand``: a guest's seat that
    tapped "next hand" (the session decides when to deal).  ``drop``: peers
    the transport should close (after sending their replies).
    ``lobby_changed``: the lobby or a seat's status changed (redraw it).
    ``match_changed``: a seat's kind in the Match changed (a computer stands
    in, or its person is back): save, and run the computer loop.
    ``reaction``: (seat, id) to show on the host's screen.  ``refused``: the
    refusal code when the message was refused (None when accepted).
    ``next_timeout``: the time for "next hand" is up: every friend's seat
    counts as ready.  ``clock_changed``: the countdown shown changed."""

    replies: list[tuple[str, str]] = field(default_factory=list)
    action: tuple[int, dict] | None = None
    next_hand: int | None = None
    drop: list[str] = field(default_factory=list)
    lobby_changed: bool = False
    match_changed: bool = False
    reaction: tuple[int, str] | None = None
    refused: str | None = None
    next_timeout: bool = False
    clock_changed: bool = False


class _Bucket:
    """A token bucket: ``rate`` tokens a second up to ``burst``."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float, now: float):
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, now

    def take(self, now: float) -> bool:
        if now > self.stamp:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class _Peer:
    id: str
    bucket: _Bucket
    reacts: _Bucket
    since: float = 0.0                 # when the device was first seen
    seat: int | None = None
    over: int = 0                      # messages over the rate limit, in a row
    strikes: int = 0                   # wrong secrets
    sent_key: tuple | None = None      # (seq, kinds) of the last view sent
    seen: tuple[int, int] | None = None   # (hand, actions of it) the last view held
    ended_sent: bool = False


def normalize_config(settings: Any) -> dict:
    """New-game settings with ``"remote"`` seats, made valid: the new-game screen's own
    normalization (:func:`domino.table.normalize_settings`) with the
    remote seats kept, names sanitized, no practice.  Raises
    :class:`NetError` for more than one ``"human"`` seat among the players
    and :class:`~domino.engine.rules.RulesError` for rules that cannot be
    played."""
    if not isinstance(settings, dict):
        raise NetError("the settings must be an object")
    seats = settings.get("seats") if isinstance(settings.get("seats"), list) else []
    remote = [isinstance(s, dict) and s.get("kind") == REMOTE for s in seats]
    shown = [dict(s, kind=HUMAN) if r else s for s, r in zip(seats, remote)]
    cfg = normalize_settings(dict(settings, seats=shown))
    for i, s in enumerate(cfg["seats"]):
        if i < len(remote) and remote[i]:
            s["kind"] = REMOTE
        s["name"] = sanitize_name(s["name"])
    cfg["practice"] = False
    here = [i for i in range(cfg["players"]) if cfg["seats"][i]["kind"] == HUMAN]
    if len(here) > 1:
        raise NetError("one person plays on the host's device; the others play from their own (kind \"remote\")")
    rules_for(cfg)   # RulesError when not playable
    return cfg


class HostTable:
    """The host's table: lobby config, invitations, seats, and the
    guests' views (see the module docstring).

    ``HostTable(settings, policy="computer", grace=60.0, stand_in="medium")``;
    every method taking ``now`` wants seconds from one monotonic clock."""

    def __init__(self, settings: dict, *, policy: str = "computer", grace: float = DEFAULT_GRACE,
                 stand_in: str = "medium", rate: float = RATE, burst: float = BURST, now: float = 0.0,
                 timeout: float = 0.0):
        if policy not in POLICIES:
            raise NetError(f"policy must be one of {', '.join(POLICIES)}")
        if timeout not in TIMEOUTS:
            raise NetError(f"timeout must be one of {', '.join(str(int(x)) for x in TIMEOUTS)} seconds")
        if stand_in not in computer_kinds():
            raise NetError(f"stand_in must be one of {', '.join(computer_kinds())}")
        if not (isinstance(grace, (int, float)) and grace >= 0):
            raise NetError("grace is a number of seconds, 0 or more")
        self.policy = policy
        self.grace = float(grace)
        self.timeout = float(timeout)             # seconds for a turn and for Next; 0: no limit
        self.stand_in = stand_in
        self.rate, self.burst = float(rate), float(burst)
        self.config = normalize_config(settings)
        self.rules: Rules = rules_for(self.config)
        self.secrets: dict[int, str] = {}
        self.bound: dict[int, str] = {}           # seat -> peer id
        self.peers: dict[str, _Peer] = {}
        self.ready: set[int] = set()
        self.away: dict[int, float] = {}          # seat -> since (its current absence)
        self.departures: dict[int, int] = {}      # seat away -> its place in the order of leaving
        self.departed = 0                         # departures counted so far (the order of leaving)
        self.away_used: dict[int, float] = {}     # seat -> seconds away in this match before that
        self.stand_ins: set[int] = set()          # seats the computer plays (away, or handed by the host)
        self.handed: set[int] = set()             # those of them the host handed (until the host gives them back)
        self.clock_key: tuple | None = None       # what the time limit runs for: ("turn", seq, seat) / ("next", seq)
        self.clock_since = 0.0
        self.clock_fired = False
        self.clock_shown: tuple | None = None     # the countdown last sent to the guests
        self.abandoned: int | None = None
        self.started = False
        self.match: Match | None = None
        self.pending: tuple[str, int, int] | None = None   # (peer, seat, seq) of an accepted action

    # ----- seats ------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.config["players"]

    def kind(self, seat: int) -> str:
        """The seat's kind in the config: human, remote or a computer level."""
        return self.config["seats"][seat]["kind"]

    def remote_seats(self) -> list[int]:
        return [i for i in range(self.players) if self.kind(i) == REMOTE]

    def seat_status(self, seat: int) -> str:
        kind = self.kind(seat)
        if kind == HUMAN:
            return "here"
        if kind != REMOTE:
            return "computer"
        if seat in self.bound:
            return "ready" if not self.started and seat in self.ready else "joined"
        if seat in self.away:
            return "away"
        return "invited" if seat in self.secrets else "open"

    def statuses(self) -> list[dict]:
        """Per seat: seat, kind, name, status, ``stand_in`` (the computer
        level playing the seat, else None) and ``handed`` (True: the host
        handed the seat to the computer, and only the host gives it back;
        False: the computer plays it while its friend is away, until the
        friend's phone is back).  Public: no secrets."""
        out = []
        for i in range(self.players):
            name = self.match.seats[i]["name"] if self.match is not None else self.config["seats"][i]["name"]
            out.append({"seat": i, "kind": self.kind(i), "name": name, "status": self.seat_status(i),
                        "stand_in": self.stand_in if i in self.stand_ins else None,
                        "handed": i in self.handed})
        return out

    def invite(self, seat: int) -> str:
        """The seat's secret, made on first call (a remote seat only); the
        invitation link carries seat and secret.  :meth:`revoke` then
        ``invite`` makes a new one."""
        if not (isinstance(seat, int) and 0 <= seat < self.players) or self.kind(seat) != REMOTE:
            raise NetError(f"seat {seat!r} is not played from a friend's device")
        if seat not in self.secrets:
            self.secrets[seat] = secrets.token_urlsafe(16)
        return self.secrets[seat]

    def revoke(self, seat: int, now: float = 0.0) -> HostResult:
        """Forget the seat's secret; its device (if any) is told and dropped."""
        res = HostResult()
        self._revoke(seat, res)
        self._seats_changed(res)
        return res

    def _revoke(self, seat: int, res: HostResult) -> None:
        self.secrets.pop(seat, None)
        self.ready.discard(seat)
        self._back(seat)
        pid = self.bound.pop(seat, None)
        if pid is not None:
            res.replies.append((pid, self._closed("removed", "the host gave this seat to someone else")))
            res.drop.append(pid)
            self.peers.pop(pid, None)

    # ----- lobby ------------------------------------------------------------
    def set_config(self, settings: dict) -> HostResult:
        """New lobby settings (the lobby only).  Every guest's Start is
        cleared (a change clears the Starts); seats no longer remote lose
        their invitation and device; guests' names stay on their seats.
        Returns the lobby broadcast."""
        if self.started:
            raise NetError("the match has started: the settings are fixed")
        cfg = normalize_config(settings)
        res = HostResult()
        for seat in list(set(self.secrets) | set(self.bound)):
            if seat >= cfg["players"] or cfg["seats"][seat]["kind"] != REMOTE:
                self._revoke(seat, res)
            elif seat in self.bound:
                cfg["seats"][seat]["name"] = self.config["seats"][seat]["name"]
        self.config = cfg
        self.rules = rules_for(cfg)
        self.ready.clear()
        self._seats_changed(res)
        return res

    def swap_seats(self, a: int, b: int) -> HostResult:
        """Swap two seats' occupants in the lobby (kind, name, invitation,
        device, Start): how the host chooses partners (0+2 against 1+3).
        Moved guests get a ``welcome`` with their new seat and secret."""
        if self.started:
            raise NetError("the match has started: seats are fixed")
        n = self.players
        if not all(isinstance(x, int) and 0 <= x < n for x in (a, b)):
            raise NetError(f"seats go from 0 to {n - 1}")
        res = HostResult()
        if a == b:
            return res
        seats = self.config["seats"]
        seats[a], seats[b] = seats[b], seats[a]

        def swap(d: dict) -> None:
            va, vb = d.pop(a, None), d.pop(b, None)
            if va is not None:
                d[b] = va
            if vb is not None:
                d[a] = vb
        swap(self.secrets)
        swap(self.bound)
        swap(self.away)
        swap(self.departures)
        self.ready = {b if s == a else a if s == b else s for s in self.ready}
        for seat in (a, b):
            pid = self.bound.get(seat)
            if pid is not None:
                self.peers[pid].seat = seat
                res.replies.append((pid, self._welcome(seat)))
        self._seats_changed(res)
        return res

    def code(self) -> str:
        """The lobby code: the rules' short summary (``Rules.lobby_code``,
        e.g. ``100pt/5+``; docs/NET.md lists it for every game)."""
        return self.rules.lobby_code()

    def public_config(self) -> dict:
        """The lobby as every guest sees it (no secrets)."""
        r = self.rules
        return {"game": r.game, "players": r.players, "target": self.config.get("target"),
                "options": r.options(), "partnership": r.partnership,
                "partners": r.sides if r.partnership else None,
                "seats": self.statuses(),
                "away": {"policy": self.policy, "grace": self.grace, "stand_in": self.stand_in,
                         "timeout": self.timeout}}

    def can_start(self) -> bool:
        """In the lobby, and every remote seat is joined and ready."""
        return not self.started and all(self.seat_status(s) == "ready" for s in self.remote_seats())

    def match_settings(self) -> dict:
        """The settings for :func:`domino.table.new_match`: remote
        seats as people (their guests' names), the rest as configured."""
        cfg = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
               for k, v in self.config.items()}
        cfg["seats"] = [dict(s, kind=HUMAN) if s["kind"] == REMOTE else dict(s) for s in self.config["seats"]]
        return cfg

    def new_match(self, seed: Any, lang: str = "en") -> Match:
        """A Match for this lobby (then :meth:`start` it): the table's
        ``new_match`` of :meth:`match_settings`, remote seats of kind
        ``"remote"``."""
        m = table_new_match(self.match_settings(), seed, lang)
        for s in self.remote_seats():
            m.seats[s]["kind"] = REMOTE
        return m

    def start(self, match: Match, now: float = 0.0, force: bool = False) -> list[tuple[str, str]]:
        """Attach the Match the session created (its remote seats get kind
        ``"remote"``) and send every guest its first view.  Needs
        :meth:`can_start` unless ``force``."""
        if self.started:
            raise NetError("the match has already started")
        if not force and not self.can_start():
            raise NetError("every friend's seat must be joined and ready")
        self._check_match(match)
        for s in self.remote_seats():
            if match.seats[s]["kind"] in (HUMAN, REMOTE):
                match.seats[s]["kind"] = REMOTE
        self.match = match
        self.started = True
        self.ready.clear()
        self.pending = None
        return self.sync(now)

    def attach(self, match: Match, now: float = 0.0) -> list[tuple[str, str]]:
        """Attach the saved Match to a table restored with
        :meth:`from_state` (after the host's reload)."""
        if not self.started:
            raise NetError("this table has no match to resume: start one")
        self._check_match(match)
        for s in self.remote_seats():
            kind = match.seats[s]["kind"]
            if s in self.stand_ins:
                match.seats[s]["kind"] = self.stand_in
            elif kind in (HUMAN, REMOTE) or kind in computer_kinds():
                match.seats[s]["kind"] = REMOTE
        self.match = match
        self.pending = None
        return self.sync(now)

    def _check_match(self, match: Match) -> None:
        if not isinstance(match, Match) or match.rules != self.rules:
            raise NetError("the match must be played with the lobby's rules")
        for s in range(self.players):
            if self.kind(s) == HUMAN and match.seats[s]["kind"] != HUMAN:
                raise NetError(f"seat {s} is the host's own seat: it must be a person's")

    def to_lobby(self) -> HostResult:
        """After a match: back to the lobby with the same guests (nobody ready)."""
        self.match = None
        self.started = False
        self.stand_ins.clear()
        self.handed.clear()
        self.away_used.clear()
        self.abandoned = None
        self.pending = None
        self.clock_key, self.clock_shown = None, None
        self.ready.clear()
        for p in self.peers.values():
            p.sent_key, p.seen, p.ended_sent = None, None, False
        res = HostResult()
        self._seats_changed(res)
        return res

    # ----- messages from guests ---------------------------------------------
    def receive(self, peer: str, text: Any, now: float) -> HostResult:
        """Read one text from ``peer``.  Anything invalid gets a ``refused``
        reply and changes nothing; no exception escapes, whatever the text."""
        res = HostResult()
        try:
            self._receive(str(peer), text, now, res)
        except Exception:   # a bug must never take the table down
            res = HostResult(refused="internal")
            res.replies.append((str(peer), self._refusal("internal")))
        return res

    def connected(self, peer: str, now: float) -> HostResult:
        """The transport opened a connection: its device has
        :data:`UNSEATED_TIMEOUT` seconds to claim a seat (a valid ``hello``)
        before :meth:`tick` closes it."""
        res = HostResult()
        peer = str(peer)
        self._expire_unseated(now, res)
        if peer not in self.peers:
            if self._unseated() >= MAX_UNSEATED:    # full: the oldest device without a seat makes room
                self._evict_oldest(res)
            self._new_peer(peer, now)
        return res

    def _evict_oldest(self, res: HostResult) -> None:
        oldest = min((x for x in self.peers.values() if x.seat is None), key=lambda x: x.since)
        del self.peers[oldest.id]
        res.drop.append(oldest.id)

    def _new_peer(self, peer: str, now: float) -> _Peer:
        p = self.peers[peer] = _Peer(peer, _Bucket(self.rate, self.burst, now),
                                     _Bucket(REACT_RATE, REACT_BURST, now), since=now)
        return p

    def _unseated(self) -> int:
        return sum(1 for x in self.peers.values() if x.seat is None)

    def _expire_unseated(self, now: float, res: HostResult) -> None:
        """Devices connected for :data:`UNSEATED_TIMEOUT` seconds without a seat are closed."""
        for pid, p in list(self.peers.items()):
            if p.seat is None and now - p.since >= UNSEATED_TIMEOUT:
                del self.peers[pid]
                res.drop.append(pid)

    def _rightful_hello(self, text: Any) -> bool:
        """``text`` is a ``hello`` with the right secret of its seat (checked
        without changing anything)."""
        try:
            msg = protocol.decode_guest(text)
        except ProtocolError:
            return False
        if msg["t"] != "hello" or msg["seat"] >= self.players or self.kind(msg["seat"]) != REMOTE:
            return False
        secret = self.secrets.get(msg["seat"])
        return secret is not None and hmac.compare_digest(secret.encode(), msg["secret"].encode())

    def _receive(self, peer: str, text: Any, now: float, res: HostResult) -> None:
        p = self.peers.get(peer)
        if p is not None and p.seat is None and now - p.since >= UNSEATED_TIMEOUT and not self._rightful_hello(text):
            del self.peers[peer]          # too long without a seat: closed
            res.drop.append(peer)
            res.refused = "timeout"
            return
        if p is None:
            self._expire_unseated(now, res)
            if self._unseated() >= MAX_UNSEATED:
                if not self._rightful_hello(text):
                    res.drop.append(peer)
                    res.refused = "rate-limit"
                    return
                self._evict_oldest(res)    # a seat's own device always gets in
            p = self._new_peer(peer, now)
        if not p.bucket.take(now):
            p.over += 1
            res.refused = "rate-limit"
            if p.over == 1:
                res.replies.append((peer, self._refusal("rate-limit")))
            if p.over >= DROP_AFTER:
                self._drop(p, "rate-limit", now, res)
            return
        p.over = 0
        try:
            msg = protocol.decode_guest(text)
        except ProtocolError as exc:
            self._refuse(res, p, exc.code, str(exc))
            return
        getattr(self, "_on_" + msg["t"])(p, msg, now, res)

    def _on_hello(self, p: _Peer, msg: dict, now: float, res: HostResult) -> None:
        seat = msg["seat"]
        if p.seat is not None and p.seat != seat:
            return self._refuse(res, p, "already-seated", ref=seat)
        if seat >= self.players or self.kind(seat) != REMOTE:
            return self._refuse(res, p, "bad-seat", ref=seat)
        secret = self.secrets.get(seat)
        if secret is None or not hmac.compare_digest(secret.encode(), msg["secret"].encode()):
            p.strikes += 1
            self._refuse(res, p, "bad-secret", ref=seat)
            if p.strikes >= MAX_STRIKES:
                self._drop(p, "bad-secret", now, res)
            return
        old = self.bound.get(seat)
        if old is not None and old != p.id:
            res.replies.append((old, self._closed("replaced", "this seat was opened on another device")))
            res.drop.append(old)
            self.peers.pop(old, None)
            self.ready.discard(seat)
        self.bound[seat] = p.id
        p.seat = seat
        p.sent_key, p.seen, p.ended_sent = None, None, False
        since = self._back(seat)
        if since is not None and self.started:     # the time away counts for the whole match
            self.away_used[seat] = self.away_used.get(seat, 0.0) + max(0.0, now - since)
        name = sanitize_name(msg["name"])
        if not self.started and name:
            self.config["seats"][seat]["name"] = name
        if seat in self.stand_ins and seat not in self.handed:    # the host's hand-over holds until given back
            self.stand_ins.discard(seat)
            if self.match is not None:
                self.match.seats[seat]["kind"] = REMOTE
                res.match_changed = True
        res.replies.append((p.id, self._welcome(seat)))
        self._seats_changed(res)
        if self.started:
            res.replies += self._sync_peer(p)

    def _on_ready(self, p: _Peer, msg: dict, now: float, res: HostResult) -> None:
        if p.seat is None:
            return self._refuse(res, p, "not-seated")
        if self.started:
            return self._refuse(res, p, "not-in-lobby")
        if msg["ready"]:
            self.ready.add(p.seat)
        else:
            self.ready.discard(p.seat)
        self._seats_changed(res)

    def _playing(self, p: _Peer, seq: int, res: HostResult) -> Match | None:
        """The match a seated device may act on, else None (refused: not seated, not started, over)."""
        if p.seat is None:
            return self._refuse(res, p, "not-seated", ref=seq)
        if self.match is None:
            return self._refuse(res, p, "not-started", ref=seq)
        if self.match.finished:
            return self._refuse(res, p, "match-over", ref=seq)
        return self.match

    def _on_act(self, p: _Peer, msg: dict, now: float, res: HostResult) -> None:
        seq = msg["seq"]
        m = self._playing(p, seq, res)
        if m is None:
            return
        action = msg["action"]
        if action["seat"] != p.seat:
            return self._refuse(res, p, "not-your-seat", ref=seq)
        if "resign" in action:
            if len(action) != 2:
                return self._refuse(res, p, "illegal", ref=seq)
            if self.pending is not None and self.pending[2] == m.seq:
                return self._refuse(res, p, "duplicate", ref=seq)
            self.pending = (p.id, p.seat, m.seq)
            res.action = (p.seat, {"seat": p.seat, "resign": True})
            return
        if m.seats[p.seat]["kind"] != REMOTE:
            return self._refuse(res, p, "stand-in", ref=seq)
        if seq != m.seq:
            # a replayed or late act: its refusal, and a view only if this device lacks the current one
            self._refuse(res, p, "stale-seq", f"{REFUSALS['stale-seq']} (now at {m.seq}, not {seq})", ref=seq)
            res.replies += self._sync_peer(p)
            return
        if self.pending is not None and self.pending[2] == m.seq:
            return self._refuse(res, p, "duplicate", ref=seq)
        if m.phase != "play" or m.turn != p.seat:
            return self._refuse(res, p, "out-of-turn", ref=seq)
        legal = next((a for a in m.legal_actions() if a == action), None)
        if legal is None:
            return self._refuse(res, p, "illegal", ref=seq)
        self.pending = (p.id, p.seat, m.seq)
        res.action = (p.seat, legal)

    def _on_next(self, p: _Peer, msg: dict, now: float, res: HostResult) -> None:
        seq = msg["seq"]
        m = self._playing(p, seq, res)
        if m is None:
            return
        if seq != m.seq:
            return self._refuse(res, p, "stale-seq", ref=seq)
        if m.phase != "hand-over":
            return self._refuse(res, p, "not-hand-over", ref=seq)
        res.next_hand = p.seat

    def _on_react(self, p: _Peer, msg: dict, now: float, res: HostResult) -> None:
        if p.seat is None:
            return self._refuse(res, p, "not-seated")
        if not p.reacts.take(now):
            return self._refuse(res, p, "rate-limit")
        res.replies += self.react(p.seat, msg["id"])
        res.reaction = (p.seat, msg["id"])

    def _on_ping(self, p: _Peer, msg: dict, now: float, res: HostResult) -> None:
        echo = {"n": msg["n"]} if "n" in msg else {}
        res.replies.append((p.id, protocol.encode(protocol.message("pong", **echo))))

    def _on_bye(self, p: _Peer, msg: dict, now: float, res: HostResult) -> None:
        res.drop.append(p.id)
        self._leave(p, now, res)

    # ----- devices coming and going -----------------------------------------
    def disconnected(self, peer: str, now: float) -> HostResult:
        """The transport lost ``peer``: its seat is away from ``now``."""
        res = HostResult()
        p = self.peers.get(str(peer))
        if p is not None:
            self._leave(p, now, res)
        return res

    def away_for(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has been away in this match, every absence counted."""
        since = self.away.get(seat)
        return self.away_used.get(seat, 0.0) + (max(0.0, now - since) if since is not None else 0.0)

    def _leave(self, p: _Peer, now: float, res: HostResult) -> None:
        self.peers.pop(p.id, None)
        if p.seat is not None and self.bound.get(p.seat) == p.id:
            del self.bound[p.seat]
            self.ready.discard(p.seat)
            self.away[p.seat] = now
            self.departed += 1
            self.departures[p.seat] = self.departed
            self._seats_changed(res)

    def _back(self, seat: int) -> float | None:
        """The seat is no longer away: since when it was (None: it was not)."""
        self.departures.pop(seat, None)
        return self.away.pop(seat, None)

    def left_order(self) -> list[int]:
        """The seats away, the one who left first first (a monotonic count of
        departures: two friends who leave in the same second keep their order)."""
        return sorted(self.away, key=lambda s: self.departures.get(s, 0))

    def _drop(self, p: _Peer, reason: str, now: float, res: HostResult) -> None:
        res.replies.append((p.id, self._closed(reason, REFUSALS.get(reason, reason))))
        res.drop.append(p.id)
        self._leave(p, now, res)

    def tick(self, now: float) -> HostResult:
        """Once a second or so: close devices that claimed no seat in time;
        apply the away policy to seats away for ``grace`` seconds in all
        (see the module docstring; the one who left first is treated first):
        a stand-in computer (``match_changed``) or the abandonment
        (``action``: the leaver's resign); and the time limits (see
        :meth:`clock`)."""
        res = HostResult()
        self._expire_unseated(now, res)
        m = self.match
        if m is None or m.finished:
            return res
        for seat in self.left_order():
            if self.away_for(seat, now) < self.grace or seat in self.stand_ins:
                continue
            if self.policy == "computer":
                self._stand_in(seat, res)
            elif self.abandoned is None:
                self.abandoned = seat
                res.action = (seat, {"seat": seat, "resign": True})
                break
        if res.action is None:
            self._time_limit(now, res)
        if res.match_changed:
            self._seats_changed(res)
        return res

    def _stand_in(self, seat: int, res: HostResult) -> None:
        self.stand_ins.add(seat)
        self.match.seats[seat]["kind"] = self.stand_in
        res.match_changed = True

    # ----- time limits --------------------------------------------------------
    def _watch(self, now: float) -> None:
        """Start the time limit's clock when what it runs for changed: a
        friend's turn (a seat the computer does not play) or the hand's end."""
        m = self.match
        key = None
        if m is not None and not m.finished:
            if m.phase == "play" and m.turn is not None and m.seats[m.turn]["kind"] == REMOTE:
                key = ("turn", m.seq, m.turn)
            elif m.phase == "hand-over":
                key = ("next", m.seq)
        if key != self.clock_key:
            self.clock_key, self.clock_since, self.clock_fired = key, now, False

    def clock(self, now: float) -> dict | None:
        """The countdown everyone sees in the last :data:`COUNTDOWN` seconds
        of a time limit: ``{"what": "turn" | "next", "seat": s | None,
        "left": seconds}`` (``left`` rounded up to :data:`COUNTDOWN_STEP`),
        else None."""
        self._watch(now)
        if not self.timeout or self.clock_key is None or self.clock_fired:
            return None
        left = self.clock_since + self.timeout - now
        if left > COUNTDOWN or left <= 0:
            return None
        step = int(-(-left // COUNTDOWN_STEP) * COUNTDOWN_STEP)
        return {"what": self.clock_key[0], "seat": self.clock_key[2] if self.clock_key[0] == "turn" else None,
                "left": step}

    def _time_limit(self, now: float, res: HostResult) -> None:
        """A friend's turn or the "next hand" taps that took ``timeout``
        seconds: the computer plays the seat's move (with the abandonment
        policy: the seat abandons); the friends who did not tap Next count
        as ready.  The countdown goes to everyone when it changes."""
        shown = self.clock(now)
        if shown != self.clock_shown:
            self.clock_shown = shown
            res.clock_changed = True
            res.replies += self.broadcast_status()
        if not self.timeout or self.clock_key is None or self.clock_fired \
                or now - self.clock_since < self.timeout:
            return
        self.clock_fired = True
        m = self.match
        if self.clock_key[0] == "next":
            res.next_timeout = True
            return
        seat = self.clock_key[2]
        if self.policy == "abandon":
            if self.abandoned is None:
                self.abandoned = seat
                res.action = (seat, {"seat": seat, "resign": True})
            return
        res.action = (seat, self.stand_in_move(seat))

    def stand_in_move(self, seat: int) -> dict:
        """The stand-in computer's move for ``seat`` now (the hard level's
        search runs in slices on the page: here the medium level chooses)."""
        m = self.match
        level = self.stand_in if self.stand_in != "hard" else "medium"
        action = players.get_player(level)(m.view(seat), m.player_rng(seat))
        legal = m.legal_actions()
        return action if action in legal else legal[0]

    # ----- the host's hands on the seats -------------------------------------
    def hand_to_computer(self, seat: int) -> HostResult:
        """The host gives a friend's seat to the computer (the stand-in
        level), away or not, until the host gives it back
        (:meth:`give_back`): no ``hello`` of the friend's phone takes it
        back (the host decided; the friend cannot undo it from their phone).
        A seat the computer already plays because its friend is away
        becomes the host's hand-over too."""
        m = self._host_seat(seat)
        res = HostResult()
        if seat not in self.handed and not m.finished:
            self.handed.add(seat)
            if seat not in self.stand_ins:
                self._stand_in(seat, res)
            self._seats_changed(res)
        return res

    def give_back(self, seat: int) -> HostResult:
        """A seat the computer plays goes back to its friend, whose device is connected."""
        m = self._host_seat(seat)
        res = HostResult()
        if seat in self.stand_ins and seat in self.bound:
            self.stand_ins.discard(seat)
            self.handed.discard(seat)
            m.seats[seat]["kind"] = REMOTE
            res.match_changed = True
            self._seats_changed(res)
        return res

    def end_by_absence(self, seat: int) -> HostResult:
        """The host ends the match: ``seat`` is absent and abandons (the
        abandonment rule: it loses; with partners its side).  ``action`` is
        its resign, for the session to apply."""
        m = self._host_seat(seat)
        res = HostResult()
        if not m.finished and self.abandoned is None:
            self.abandoned = seat
            res.action = (seat, {"seat": seat, "resign": True})
        return res

    def _host_seat(self, seat: Any) -> Match:
        if self.match is None:
            raise NetError("the match has not started")
        if not (type(seat) is int and 0 <= seat < self.players) or self.kind(seat) != REMOTE:
            raise NetError(f"seat {seat!r} is not played from a friend's device")
        return self.match

    # ----- to the guests ----------------------------------------------------
    def sync(self, now: float = 0.0) -> list[tuple[str, str]]:
        """After the session applied anything and saved the match: each
        connected guest whose view changed gets it (with the public actions
        since its last view); an accepted guest action gets its ``ack``; a
        finished match its ``ended``."""
        m = self.match
        if m is None:
            return []
        self._watch(now)
        if self.clock_shown is not None and self.clock(now) is None:
            self.clock_shown = None            # a new view clears the guests' countdown
        out: list[tuple[str, str]] = []
        acked = None
        if self.pending is not None:
            peer, _seat, seq = self.pending
            if m.seq != seq:
                acked = (peer, seq)
            self.pending = None    # applied, or not applied by the session: forgotten either way
        for seat in sorted(self.bound):
            p = self.peers[self.bound[seat]]
            if acked is not None and acked[0] == p.id:
                out.append((p.id, protocol.encode(protocol.message("ack", seq=acked[1]))))
            out += self._sync_peer(p)
        return out

    def _sync_peer(self, p: _Peer) -> list[tuple[str, str]]:
        m = self.match
        if m is None or p.seat is None:
            return []
        out = []
        key = (m.seq, tuple(s["kind"] for s in m.seats))
        if p.sent_key != key:
            v = m.view(p.seat)
            msg = protocol.message("view", seq=m.seq, view=v, events=self._events(p, v),
                                   resigned=dict(m.resigned) if m.resigned else None,
                                   abandoned=self._abandoned())
            out.append((p.id, protocol.encode(msg)))
            p.sent_key = key
            p.seen = (m.hand_no, len(v["history"]))
        if m.outcome is not None and not p.ended_sent:
            ended = protocol.message("ended", outcome=m.outcome, abandoned=self._abandoned())
            out.append((p.id, protocol.encode(ended)))
            p.ended_sent = True
        return out

    def _abandoned(self) -> int | None:
        m = self.match
        if m is not None and m.resigned and m.resigned.get("seat") == self.abandoned:
            return self.abandoned
        return None

    def _events(self, p: _Peer, v: dict) -> list[dict]:
        """The public actions (as this seat sees them) since the peer's last
        view: ``{"hand", "i", "action"}``; none after a (re)connection."""
        m = self.match
        if p.seen is None:
            return []
        h0, n0 = p.seen
        out: list[dict] = []
        for k in range(h0, m.hand_no):
            acts = m.records[k]["actions"]
            start = n0 if k == h0 else 0
            out += [{"hand": k, "i": i, "action": m.public_action(acts[i], p.seat)}
                    for i in range(start, len(acts))]
        start = n0 if h0 == m.hand_no else 0
        hist = v["history"]
        out += [{"hand": m.hand_no, "i": i, "action": hist[i]} for i in range(start, len(hist))]
        return out[-MAX_EVENTS:]

    def react(self, seat: int, rid: str) -> list[tuple[str, str]]:
        """A reaction from ``seat`` (the host's own too) to every guest."""
        text = protocol.encode(protocol.message("reaction", seat=seat, id=rid))
        return [(pid, text) for _s, pid in sorted(self.bound.items())]

    def broadcast_status(self) -> list[tuple[str, str]]:
        """The lobby (before the match) or the seats' statuses (during it),
        to every connected guest."""
        out = []
        if not self.started:
            cfg, code = self.public_config(), self.code()
            for seat, pid in sorted(self.bound.items()):
                out.append((pid, protocol.encode(protocol.message("lobby", config=cfg, code=code, your_seat=seat))))
        else:
            text = protocol.encode(protocol.message("status", seats=self.statuses(), clock=self.clock_shown))
            out = [(pid, text) for _s, pid in sorted(self.bound.items())]
        return out

    def close(self, reason: str = "closed") -> HostResult:
        """The host closes the table: every device is told and dropped."""
        res = HostResult()
        for pid in list(self.peers):
            if self.peers[pid].seat is not None:
                res.replies.append((pid, self._closed(reason, "the host closed the table")))
            res.drop.append(pid)
        self.peers.clear()
        self.bound.clear()
        return res

    def _seats_changed(self, res: HostResult) -> None:
        res.lobby_changed = True
        res.replies += self.broadcast_status()

    def _welcome(self, seat: int) -> str:
        name = sanitize_name(self.config["seats"][seat]["name"])
        return protocol.encode(protocol.message("welcome", seat=seat, secret=self.secrets[seat], name=name))

    def _closed(self, reason: str, text: str) -> str:
        return protocol.encode(protocol.message("closed", reason=reason, message=text))

    def _refusal(self, code: str, text: str | None = None, ref: Any = None) -> str:
        message = (text or REFUSALS.get(code, code))[:400]
        return protocol.encode(protocol.message("refused", reason=code, message=message, ref=ref))

    def _refuse(self, res: HostResult, p: _Peer, code: str, text: str | None = None, ref: Any = None) -> None:
        res.refused = code
        res.replies.append((p.id, self._refusal(code, text, ref)))

    # ----- the host's save ------------------------------------------------
    def state(self, now: float | None = None) -> dict:
        """The table as JSON-able data, for the host's save (config,
        invitations, statuses, policy, each seat's time away in this match
        (up to ``now`` when given); no device).  ``away`` lists the seats
        away, the one who left first first; ``handed`` the seats of
        ``stand_ins`` the host handed to the computer."""
        used = {s: self.away_for(s, now) if now is not None else self.away_used.get(s, 0.0)
                for s in set(self.away_used) | set(self.away)}
        return {"format": STATE_FORMAT, "config": self.config,
                "timeout": self.timeout,
                "away_used": {str(k): round(v, 3) for k, v in sorted(used.items()) if v > 0},
                "away": self.left_order(),
                "secrets": {str(k): v for k, v in sorted(self.secrets.items())},
                "statuses": [self.seat_status(i) for i in range(self.players)],
                "policy": self.policy, "grace": self.grace, "stand_in": self.stand_in,
                "started": self.started, "stand_ins": sorted(self.stand_ins), "handed": sorted(self.handed),
                "abandoned": self.abandoned}

    @classmethod
    def from_state(cls, state: Any, now: float = 0.0) -> "HostTable":
        """A table from :meth:`state` (after the host's reload).  Seats whose
        devices were there are away from ``now`` (the grace starts again);
        with a match, :meth:`attach` the saved Match next.  Raises
        :class:`NetError` for anything that is not such a state.  A state
        saved before ``handed`` was kept loads with none handed (the computer
        stands in for its seats until their friends are back)."""
        if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
            raise NetError(f"not a host table state ({STATE_FORMAT})")
        try:
            table = cls(state["config"], policy=state["policy"], grace=state["grace"],
                        stand_in=state["stand_in"], now=now, timeout=state.get("timeout", 0.0))
        except (KeyError, TypeError, RulesError) as exc:
            raise NetError(f"bad host table state: {exc}") from None
        secrets_ = state.get("secrets")
        statuses = state.get("statuses")
        if not isinstance(secrets_, dict) or not isinstance(statuses, list):
            raise NetError("bad host table state: secrets and statuses")
        for k, v in secrets_.items():
            if not (isinstance(k, str) and k.isdigit() and int(k) < table.players and isinstance(v, str)
                    and protocol._SECRET.fullmatch(v) and table.kind(int(k)) == REMOTE):
                raise NetError(f"bad host table state: secret of seat {k!r}")
            table.secrets[int(k)] = v
        started = state.get("started")
        stand_ins = state.get("stand_ins")
        abandoned = state.get("abandoned")
        if type(started) is not bool or not isinstance(stand_ins, list):
            raise NetError("bad host table state: started and stand_ins")
        remote = set(table.remote_seats())
        if not all(type(s) is int and s in remote for s in stand_ins):
            raise NetError("bad host table state: stand_ins")
        handed = state.get("handed", [])
        if not isinstance(handed, list) or not all(type(s) is int and s in stand_ins for s in handed):
            raise NetError("bad host table state: handed")
        if abandoned is not None and abandoned not in remote:
            raise NetError("bad host table state: abandoned")
        table.started = started
        table.stand_ins = set(stand_ins)
        table.handed = set(handed)
        table.abandoned = abandoned
        used = state.get("away_used", {})
        order = state.get("away", [])
        if not isinstance(used, dict) or not isinstance(order, list):
            raise NetError("bad host table state: away_used and away")
        for k, v in used.items():
            if not (isinstance(k, str) and k.isdigit() and int(k) in remote
                    and type(v) in (int, float) and 0 <= v <= 10**7):
                raise NetError(f"bad host table state: time away of seat {k!r}")
            table.away_used[int(k)] = float(v)
        rank = {s: i for i, s in enumerate(order) if type(s) is int}
        gone = [i for i, st in enumerate(statuses[:table.players])
                if i in remote and (st in ("joined", "ready", "away") or (started and i in table.secrets))]
        for i in sorted(gone, key=lambda s: (rank.get(s, len(rank)), s)):
            # away from now, in the order they left (the first one is treated first)
            table.away[i] = now
            table.departed += 1
            table.departures[i] = table.departed
        return table
