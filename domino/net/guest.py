"""A guest's side of play-with-friends: one seat, from the host's messages alone.

:class:`GuestTable` writes the guest's messages (``hello``, ``ready``,
``act``, ``next``, ``react``, ``ping``, ``bye``) and reads the host's,
keeping what they said: the lobby, the seat's latest view (and a
:class:`~domino.net.mirror.MirrorMatch` of it for the table screens), the
public actions as they came (``log``), the seats' statuses, the last
refusal.  It trusts the host no more than the host trusts it: every text is
decoded with the caps of :mod:`domino.net.protocol`, and a message that is
malformed, about another seat, or older than what the guest already has is
ignored (``receive`` says so and changes nothing).

What the guest shows agrees with the view it has, whatever the host says:

* the countdown (``clock``) only as :func:`read_clock` accepts it against
  the view and the statuses, and only for the position it was heard at.  The
  host sends the status carrying it just before the view it belongs to (a
  seat handed over, a phone back), so a clock that does not agree with the
  view at hand waits for the next view and is checked against that one; a
  view of a new position ends a clock heard before it (the host starts the
  time limit again there, and says nothing while it is not in its last
  seconds);
* no move while the computer plays this seat (:attr:`GuestTable.stood_in`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domino.engine.match import HUMAN
from domino.net import protocol
from domino.net.dealwatch import DealWatch
from domino.net.host import COUNTDOWN
from domino.net.mirror import MirrorError, MirrorMatch
from domino.net.protocol import ProtocolError
from domino.table import REMOTE, sanitize_name

MAX_LOG = 500          # public actions kept in .log


class GuestError(ValueError):
    """A guest-side call that does not fit (act before any view)."""


@dataclass(frozen=True)
class Refusal:
    """The host's last refusal: ``reason`` (a code), ``message`` (English
    words), ``ref`` (what was refused, e.g. the seq)."""

    reason: str
    message: str
    ref: Any = None

    def __str__(self) -> str:
        return f"{self.message} ({self.reason})"


@dataclass(frozen=True)
class GuestEvent:
    """What one host message was: ``kind`` is its type (``welcome``,
    ``lobby``, ``view``, ``refused``, ``ack``, ``reaction``, ``pong``,
    ``status``, ``ended``, ``closed``) or ``ignored`` (``detail`` says why);
    ``data`` is the decoded message."""

    kind: str
    data: dict | None = None
    detail: str = ""


class GuestTable:
    """One guest device's seat: ``GuestTable(seat, secret, name)`` from the
    invitation link.  Every ``hello()``/``act()``/... returns the text to
    send; :meth:`receive` reads the host's texts."""

    def __init__(self, seat: int, secret: str, name: str = ""):
        self.seat = seat
        self.secret = secret
        self.name = sanitize_name(name)
        self.welcomed = False
        self.lobby: dict | None = None       # the last lobby message (config, code, your_seat)
        self.view: dict | None = None        # the seat's latest view
        self.resigned: dict | None = None
        self.abandoned: int | None = None
        self.match: MirrorMatch | None = None
        self.log: list[dict] = []            # public actions, {"hand", "i", "action"}
        self.statuses: list[dict] = []
        self.clock: dict | None = None       # the host's countdown: {"what", "seat", "left"} (read_clock)
        self.clock_next: Any = None          # a clock heard that did not agree with the view: for the next one
        self.refusal: Refusal | None = None
        self.outcome: dict | None = None
        self.ended = False
        self.acked: int | None = None        # seq of the last accepted action
        self.reactions: list[tuple[int, str]] = []
        self.closed: str | None = None       # why the host closed this connection
        self.deals = DealWatch(seat)         # every hand's deal as this seat saw it, checked at the reveal

    @property
    def seq(self) -> int | None:
        return self.view["seq"] if self.view is not None else None

    @property
    def deal_warning(self) -> dict | None:
        """The last hand whose revealed seed did not deal what this seat saw (``{"hand", "problems"}``), or None."""
        return self.deals.warning

    @property
    def stood_in(self) -> bool:
        """The computer plays this seat: the host's status says so (``stand_in``), or the view's kinds do
        (either is enough: the host would refuse a move of this seat)."""
        return played_by_computer(self.seat, self.view, self.statuses)

    # ----- what the guest sends ---------------------------------------------
    def hello(self) -> str:
        return protocol.encode(protocol.message("hello", seat=self.seat, secret=self.secret, name=self.name))

    def ready(self, flag: bool = True) -> str:
        return protocol.encode(protocol.message("ready", ready=bool(flag)))

    def act(self, action: dict) -> str:
        """The seat's decision at the current seq (``view["seq"]``)."""
        if self.view is None:
            raise GuestError("no view yet: nothing to act on")
        return protocol.encode(protocol.message("act", seq=self.view["seq"], action=action))

    def next_hand(self) -> str:
        if self.view is None:
            raise GuestError("no view yet")
        return protocol.encode(protocol.message("next", seq=self.view["seq"]))

    def send_pending(self) -> str | None:
        """The mirror's pending decision (a tap on the guest's table) as a
        message, or None."""
        if self.match is None:
            return None
        p = self.match.take_pending()
        if p is None:
            return None
        if p.get("next"):
            return protocol.encode(protocol.message("next", seq=p["seq"]))
        return protocol.encode(protocol.message("act", seq=p["seq"], action=p["action"]))

    def react(self, rid: str) -> str:
        return protocol.encode(protocol.message("react", id=rid))

    def ping(self, n: int = 0) -> str:
        return protocol.encode(protocol.message("ping", n=n))

    def bye(self) -> str:
        return protocol.encode(protocol.message("bye"))

    # ----- what the host says -----------------------------------------------
    def receive(self, text: Any) -> GuestEvent:
        """Read one host text; malformed or irrelevant ones are ``ignored``."""
        try:
            msg = protocol.decode_host(text)
        except ProtocolError as exc:
            return GuestEvent("ignored", None, f"{exc.code}: {exc}")
        t = msg["t"]
        handler = getattr(self, "_on_" + t)
        why = handler(msg)
        if why:
            return GuestEvent("ignored", msg, why)
        return GuestEvent(t, msg)

    def _on_welcome(self, msg: dict) -> str:
        if msg["seat"] != self.seat and self.view is not None:
            return "a welcome to another seat during the match"
        self.seat, self.secret = msg["seat"], msg["secret"]
        if msg.get("name"):
            self.name = sanitize_name(msg["name"])
        self.welcomed = True
        self.refusal = None
        return ""

    def _on_lobby(self, msg: dict) -> str:
        if msg["your_seat"] != self.seat:
            return f"a lobby for seat {msg['your_seat']}, not {self.seat}"
        self.lobby = msg
        self.statuses = [s for s in msg["config"].get("seats") or [] if isinstance(s, dict)]
        if self.view is not None:       # back in the lobby after a match: the next match's deals are new ones
            self.deals = DealWatch(self.seat)
        return ""

    def _on_view(self, msg: dict) -> str:
        v = msg["view"]
        if v["seat"] != self.seat:
            return f"a view of seat {v['seat']}, not {self.seat}"
        if v["seq"] != msg["seq"]:
            return "the view's seq differs from the message's"
        if self.view is not None and msg["seq"] < self.view["seq"]:
            return f"an older view ({msg['seq']} < {self.view['seq']})"
        resigned = msg.get("resigned")
        try:
            if self.match is None:
                self.match = MirrorMatch(v, resigned)
            else:
                self.match.update(v, resigned)
        except MirrorError as exc:
            return f"a view the table cannot show: {exc}"
        same = self.view is not None and self.view["seq"] == v["seq"]
        self.view = v
        # a clock heard just before this view is this view's; the one shown stays only at the same position
        self.clock = (read_clock(self.clock_next, v, self.statuses)
                      or (read_clock(self.clock, v, self.statuses) if same else None))
        self.clock_next = None
        self.resigned = resigned
        self.abandoned = msg.get("abandoned")
        self.outcome = v.get("outcome")
        events = [e for e in msg["events"] if isinstance(e, dict) and isinstance(e.get("action"), dict)]
        self.log = (self.log + events)[-MAX_LOG:]
        self.deals.seat = self.seat
        self.deals.see(v)
        return ""

    def _on_refused(self, msg: dict) -> str:
        self.refusal = Refusal(str(msg["reason"]), str(msg["message"]), msg.get("ref"))
        return ""

    def _on_ack(self, msg: dict) -> str:
        self.acked = msg["seq"]
        return ""

    def _on_reaction(self, msg: dict) -> str:
        self.reactions = (self.reactions + [(msg["seat"], msg["id"])])[-20:]
        return ""

    def _on_pong(self, msg: dict) -> str:
        return ""

    def _on_status(self, msg: dict) -> str:
        self.statuses = [s for s in msg["seats"] if isinstance(s, dict)]
        self.clock = read_clock(msg.get("clock"), self.view, self.statuses)
        self.clock_next = msg.get("clock") if self.clock is None else None
        return ""

    def _on_ended(self, msg: dict) -> str:
        self.ended = True
        self.outcome = msg["outcome"]
        self.abandoned = msg.get("abandoned")
        return ""

    def _on_closed(self, msg: dict) -> str:
        self.closed = msg["reason"]
        return ""

    # ----- for tests and the guest session ----------------------------------
    def state(self) -> dict:
        """What this guest knows, as data (for comparisons)."""
        return {"seat": self.seat, "view": self.view, "resigned": self.resigned,
                "abandoned": self.abandoned, "outcome": self.outcome, "ended": self.ended}


def played_by_computer(seat: Any, view: dict | None, statuses: list[dict]) -> bool:
    """Whether the computer plays ``seat``: a computer's kind in the view, or a stand-in in the statuses."""
    kinds = (view or {}).get("kinds") or []
    if isinstance(seat, int) and 0 <= seat < len(kinds) and kinds[seat] not in (HUMAN, REMOTE):
        return True
    return any(s.get("seat") == seat and s.get("stand_in") is not None for s in statuses)


def read_clock(x: Any, view: dict | None, statuses: list[dict]) -> dict | None:
    """The host's countdown ``x`` as this table shows it, or None when it does not agree with ``view``
    and the seats' ``statuses``: ``left`` whole seconds in (0, :data:`~domino.net.host.COUNTDOWN`];
    "next" (no seat) only at a hand's end; "turn" only during play, for the seat to move, and only when
    a friend plays it (not the host, not a computer, not a stand-in)."""
    if not isinstance(x, dict) or view is None or view.get("outcome"):
        return None
    what, seat, left = x.get("what"), x.get("seat"), x.get("left")
    if not protocol.is_int(left, 1, int(COUNTDOWN)):
        return None
    if what == "next" and seat is None and view.get("phase") == "hand-over":
        return {"what": "next", "seat": None, "left": left}
    kinds = view.get("kinds") or []
    if (what == "turn" and view.get("phase") == "play" and protocol.is_int(seat, 0, len(kinds) - 1)
            and seat == view.get("turn") and kinds[seat] == REMOTE
            and not played_by_computer(seat, view, statuses)):
        return {"what": "turn", "seat": seat, "left": left}
    return None
