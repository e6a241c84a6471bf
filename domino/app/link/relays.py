"""The internet's relays, held by the link that uses them (the host's table, or a guest's online invitation).

Commands to the page (``Out.net``): ``{"op": "online-join", "rooms": [{"room", "password", "secret"}],
"relays", "ice", "role"}`` (the host: one room per remote seat; a guest: its seat's), ``{"op":
"online-rooms", "rooms"}`` (the host's rooms changed: joined, left or re-keyed without leaving the others),
``online-pause``, ``online-resume``, ``online-leave``.  The page answers with ``net-relay`` (``status``: the
relays' states, see ``static/online.js``) and, for each phone met, the usual ``net-open`` / ``net-message`` /
``net-close``.  The formats (relay URLs, rooms, the invitation) are plain data in :mod:`domino.app.online`.
"""
from __future__ import annotations

from typing import Callable

from domino.app.i18n import t
from domino.app.online import host_of, relay_summary


class Relays:
    """The page's connection to the relays: joined or not, paused once everyone is in, and its state in words."""

    SLOW_AFTER = 15.0      # seconds with the relays up and nobody met: say what to try

    def __init__(self, send: Callable[..., None], clock: Callable[[], float]):
        self.send = send                       # a command to the page's network layer
        self.clock = clock
        self.up = False                        # joined on the page
        self.paused = False
        self.status: dict | None = None        # the page's last relay status
        self.since = 0.0                       # joined or resumed (the slow hint's clock)
        self.slow = ""                         # the hint shown when nobody is met for a while

    def join(self, role: str, rooms: list[dict], relays: list[str], ice: list[dict]) -> None:
        if self.up:
            return
        self.up, self.paused = True, False
        self.since = self.clock()
        self.status = None
        self.send(op="online-join", rooms=rooms, relays=list(relays), ice=[dict(s) for s in ice], role=role)

    def rooms_changed(self, rooms: list[dict]) -> None:
        if self.up:
            self.send(op="online-rooms", rooms=rooms)

    def leave(self) -> None:
        if self.up:
            self.send(op="online-leave")
        self.up, self.paused, self.status = False, False, None

    def pace(self, full: bool) -> None:
        """Stop contacting the relays once everyone is connected; again when a seat is free."""
        if not self.up:
            return
        if full and not self.paused:
            self.paused = True
            self.send(op="online-pause")
        elif not full and self.paused:
            self.paused = False
            self.since = self.clock()
            self.send(op="online-resume")

    def heard(self, status) -> bool:
        """The page's relay status (``net-relay``): True when it is one to show."""
        if isinstance(status, dict) and self.up:
            self.status = status
            return True
        return False

    def words(self, lang: str, relays: list[str], ice: list[dict], slow_hint: Callable[[], str]) -> dict:
        """What the screens say of the internet: the notice, the relays' state, a hint when slow
        (``slow_hint``: the link's words for it)."""
        stun_urls = [s["urls"] for s in ice]
        stun = t(lang, "online.stun", ice=", ".join(stun_urls)) if stun_urls else t(lang, "online.no_stun")
        notice = t(lang, "online.notice", relays=", ".join(host_of(u) for u in relays), stun=stun)
        state, up, down = relay_summary(self.status)
        if self.paused:       # asked of the page: it says so too once the sockets are closed
            state = "paused"
        if not self.up:
            line = ""
        elif state == "connected":
            line = t(lang, "online.status.connected", up=", ".join(host_of(u) for u in up))
            if down:
                line += " " + t(lang, "online.status.down", down=", ".join(host_of(u) for u in down))
        elif state == "failed":
            line = t(lang, "online.status.failed", down=", ".join(host_of(u) for u in (down or relays)))
        else:
            line = t(lang, "online.status." + state)
        shown = "connected" if state == "paused" else state
        error = str((self.status or {}).get("error") or "")
        slow = ""
        if self.up and state == "connected" and self.clock() - self.since > self.SLOW_AFTER:
            slow = slow_hint()
        if "password" in error:
            slow = t(lang, "online.wrong", why=error)
        return {"notice": notice, "state": shown, "line": line, "slow": slow}
