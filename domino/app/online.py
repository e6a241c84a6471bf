"""Play over the internet: the settings, the invitation link and the relays' status, as plain data.

Off until a player turns it on.  The table is the one of play with friends
(``domino.net``, unchanged); only the way the phones find each other
differs: instead of an offer in the link and a reply code, both phones join
a room on public Nostr relays (``static/online.js``, Trystero), whose
signalling is encrypted with a password that only the link carries.

* ``relays``: the relays' websocket URLs (``ws://`` or ``wss://``), kept in
  the saved settings; :data:`DEFAULT_RELAYS` until a player edits them.
* ``ice``: ``RTCIceServer`` objects (STUN, TURN), kept beside them.
* the link ``#online=<seat+1>.<secret>.<room>.<password>[.<relays>]``: the
  seat's secret of the first issue (a reload reclaims the seat with it), the
  room and its password (random per table), and the host's relays when they
  are not the defaults (base64url JSON), so that both phones ask the same.
"""
from __future__ import annotations

import base64
import json
import re
import secrets
from typing import Any

from domino.app.i18n import t
from domino.net import protocol as P

ONLINE = "online="
# Public relays, several for redundancy (they come and go and rate-limit):
# taken from the ones Trystero 0.25 uses by default plus long-running ones.
DEFAULT_RELAYS = (
    "wss://nos.lol",
    "wss://relay.damus.io",
    "wss://relay.primal.net",
    "wss://nostr.mom",
    "wss://purplerelay.com",
)
# One address lookup, so that phones behind home routers can reach each other.
DEFAULT_ICE = ({"urls": "stun:stun.l.google.com:19302"}, {"urls": "stun:stun.cloudflare.com:3478"})
MAX_RELAYS = 8
MAX_ICE = 6
MAX_URL = 200
_RELAY = re.compile(r"wss?://[A-Za-z0-9.\-\[\]:]+(?::\d{1,5})?(?:/[A-Za-z0-9._~%/\-]*)?")
_ICE = re.compile(r"(?:stun|stuns|turn|turns):[A-Za-z0-9.\-\[\]:]+(?:\?transport=(?:udp|tcp))?")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


class OnlineError(ValueError):
    """A relay or ICE server that cannot be used, or an unreadable link (the words say why)."""


def relay_ok(url: Any) -> bool:
    return isinstance(url, str) and len(url) <= MAX_URL and _RELAY.fullmatch(url) is not None


def parse_relays(text: str) -> list[str]:
    """The settings' box: one relay per line (or separated by spaces or commas)."""
    urls = [u for u in re.split(r"[\s,]+", text or "") if u]
    bad = [u for u in urls if not relay_ok(u)]
    if bad:
        raise OnlineError(f"not a ws:// or wss:// address: {bad[0][:60]}")
    if not urls:
        raise OnlineError("at least one relay is needed")
    return list(dict.fromkeys(urls))[:MAX_RELAYS]


def parse_ice(text: str) -> list[dict]:
    """One server per line: ``stun:host:port``, or ``turn:host:port user password``."""
    out = []
    for line in (text or "").splitlines():
        parts = line.split()
        if not parts:
            continue
        if _ICE.fullmatch(parts[0]) is None or len(parts[0]) > MAX_URL:
            raise OnlineError(f"not a stun: or turn: address: {parts[0][:60]}")
        server: dict = {"urls": parts[0]}
        if parts[0].startswith("turn"):
            if len(parts) != 3:
                raise OnlineError(f"a TURN server needs a user name and a password: {parts[0][:60]}")
            server.update(username=parts[1][:100], credential=parts[2][:100])
        elif len(parts) != 1:
            raise OnlineError(f"a STUN server takes no user name: {parts[0][:60]}")
        out.append(server)
    return out[:MAX_ICE]


def ice_text(ice: list[dict]) -> str:
    return "\n".join(" ".join(str(s[k]) for k in ("urls", "username", "credential") if s.get(k)) for s in ice)


def normalize_relays(value: Any) -> list[str]:
    """Saved relays, or the defaults where they are missing or unusable."""
    if isinstance(value, list):
        urls = [u for u in value if relay_ok(u)][:MAX_RELAYS]
        if urls:
            return list(dict.fromkeys(urls))
    return list(DEFAULT_RELAYS)


def normalize_ice(value: Any) -> list[dict]:
    """Saved ICE servers (an empty list is a choice: no STUN at all), or the defaults."""
    if not isinstance(value, list):
        return [dict(s) for s in DEFAULT_ICE]
    try:
        return parse_ice(ice_text([s for s in value if isinstance(s, dict) and isinstance(s.get("urls"), str)]))
    except OnlineError:
        return [dict(s) for s in DEFAULT_ICE]


def new_room() -> dict:
    """A table's room on the relays and the password that encrypts its signalling."""
    return {"room": secrets.token_urlsafe(12), "password": secrets.token_urlsafe(16)}


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _unb64(code: str) -> str:
    return base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)).decode()


def online_link(base: str, seat: int, secret: str, room: dict, relays: list[str]) -> str:
    parts = [str(seat + 1), secret, room["room"], room["password"]]
    if list(relays) != list(DEFAULT_RELAYS):
        parts.append(_b64(json.dumps(list(relays), separators=(",", ":"))))
    return f"{base}#{ONLINE}" + ".".join(parts)


def parse_online(fragment: str) -> dict:
    """``#online=...`` -> ``{"seat", "secret", "room", "password", "relays"}`` (relays None: the guest's own)."""
    frag = (fragment or "").lstrip("#")
    if not frag.startswith(ONLINE):
        raise OnlineError("not an invitation over the internet")
    parts = frag[len(ONLINE):].split(".")
    if len(parts) not in (4, 5) or not re.fullmatch(r"[1-8]", parts[0]) or not P._SECRET.fullmatch(parts[1]) \
            or not _TOKEN.fullmatch(parts[2]) or not _TOKEN.fullmatch(parts[3]):
        raise OnlineError("it is incomplete")
    relays = None
    if len(parts) == 5:
        try:
            listed = json.loads(_unb64(parts[4]))
        except (ValueError, UnicodeDecodeError):
            raise OnlineError("its relay list cannot be read") from None
        if not isinstance(listed, list) or not listed or not all(relay_ok(u) for u in listed):
            raise OnlineError("its relay list cannot be read")
        relays = list(dict.fromkeys(listed))[:MAX_RELAYS]
    return {"seat": int(parts[0]) - 1, "secret": parts[1], "room": parts[2], "password": parts[3],
            "relays": relays}


def host_of(url: str) -> str:
    """``wss://relay.example.org/x`` -> ``relay.example.org`` (for the words on screen)."""
    m = re.match(r"wss?://([^/]+)", url)
    return m.group(1) if m else url


def relay_summary(status: dict | None) -> tuple[str, list[str], list[str]]:
    """The page's relay status -> (state, relays that answered, relays that did not)."""
    if not isinstance(status, dict):
        return "connecting", [], []
    state = status.get("state")
    relays = [r for r in status.get("relays") or [] if isinstance(r, dict) and isinstance(r.get("url"), str)]
    up = [r["url"] for r in relays if r.get("state") == "open"]
    down = [r["url"] for r in relays if r.get("state") == "closed"]
    if state not in ("connecting", "connected", "failed", "paused"):
        state = "connecting"
    return state, up, down


def consent_key(path: str) -> str:
    return f"domino:{path}:online-rooms"


class Online:
    """The internet part of :class:`domino.app.friends.Friends` (a mixin of the Session).

    Commands to the page (``Out.net``): ``{"op": "online-join", "room",
    "password", "relays", "ice", "role"}``, ``online-pause``, ``online-resume``,
    ``online-leave``.  The page answers with ``net-relay`` (``status``: the
    relays' states, see ``static/online.js``) and, for each phone met, the
    usual ``net-open`` / ``net-message`` / ``net-close``."""

    SLOW_AFTER = 15.0      # seconds with the relays up and nobody met: say what to try

    def online_init(self, join: str | None) -> dict | None:
        self.online_room: dict | None = None     # the host's room, while the switch is on
        self.online_status: dict | None = None   # the page's last relay status
        self.online_up = False                   # joined on the page
        self.online_paused = False
        self.online_since = 0.0                  # the relays joined or resumed (the slow warning's clock)
        self.online_note = ""                    # the internet settings' last save
        self.online_slow = ""                    # the hint shown when nobody is met for a while
        self.guest_online: dict | None = None    # a guest's room: room, password, relays
        if not join or not str(join).startswith(ONLINE):
            return None
        return parse_online(str(join))           # OnlineError: the caller says why

    # ------------------------------------------------------------ settings
    def do_online_settings(self, inp: dict) -> None:
        values = inp.get("values") if isinstance(inp.get("values"), dict) else {}
        try:
            relays = parse_relays(str(values.get("relays") or ""))
            ice = parse_ice(str(values.get("ice") or ""))
        except OnlineError as e:
            self.online_note = t(self.lang, "online.bad", why=str(e))
        else:
            self.relays, self.ice = relays, ice
            self.save_settings()
            self.online_note = t(self.lang, "online.saved")
            self.online_restart()
        self.render()

    def do_online_defaults(self, inp: dict) -> None:
        self.relays, self.ice = list(DEFAULT_RELAYS), [dict(s) for s in DEFAULT_ICE]
        self.save_settings()
        self.online_note = t(self.lang, "online.saved")
        self.online_restart()
        self.render()

    def online_restart(self) -> None:
        """New relays for a table that is up: leave the old room, join with the new list."""
        if self.online_up and self.online_room is not None and self.host is not None:
            self.net(op="online-leave")
            self.online_up = False
            self.online_join()

    # ------------------------------------------------------------ the page's side
    def online_join(self) -> None:
        if self.online_up:
            return
        if self.guest is not None and self.guest_online is not None:
            room, role = self.guest_online, "guest"
            relays = room["relays"] or self.relays
        elif self.host is not None and self.online_room is not None:
            room, role, relays = self.online_room, "host", self.relays
        else:
            return
        self.online_up, self.online_paused = True, False
        self.online_since = self.clock()
        self.online_status = None
        self.net(op="online-join", room=room["room"], password=room["password"], relays=list(relays),
                 ice=[dict(s) for s in self.ice], role=role)

    def online_leave(self) -> None:
        if self.online_up:
            self.net(op="online-leave")
        self.online_up, self.online_paused, self.online_status = False, False, None

    def online_pace(self) -> None:
        """Stop contacting the relays once everyone is connected; again when a seat is free."""
        if not self.online_up:
            return
        if self.host is not None:
            full = all(seat in self.host.bound for seat in self.host.remote_seats())
        else:
            full = self.guest is not None and self.guest_state == "open" and self.guest.welcomed
        if full and not self.online_paused:
            self.online_paused = True
            self.net(op="online-pause")
        elif not full and self.online_paused:
            self.online_paused = False
            self.online_since = self.clock()
            self.net(op="online-resume")

    def on_net_relay(self, inp: dict) -> None:
        status = inp.get("status")
        if isinstance(status, dict) and self.online_up:
            self.online_status = status
            self.render()

    # ------------------------------------------------------------ host: the switch
    def do_online_switch(self, inp: dict) -> None:
        h = self.host
        if h is None or h.started:
            return
        on = self.online_room is None          # the switch: a tap turns it over
        if on and self.online_room is None:
            self.online_room = new_room()
            for seat in list(self.offers):       # no offers in the link: the relays carry them
                self.drop_offer(seat)
            self.need_offers()
            self.online_join()
        elif not on and self.online_room is not None:
            self.online_leave()
            self.online_room = None
            self.need_offers()
        self.save_table()
        self.render()

    def online_link_for(self, seat: int) -> str | None:
        secret = self.host.secrets.get(seat) if self.host is not None else None
        if self.online_room is None or secret is None:
            return None
        return online_link(self.base_url, seat, secret, self.online_room, self.relays)

    # ------------------------------------------------------------ guest: consent
    def consents(self) -> list[str]:
        """The rooms this phone agreed to join (newest first)."""
        try:
            rooms = json.loads(self.store.get(consent_key(self.path)) or "[]")
        except ValueError:
            rooms = []
        return [r for r in rooms if isinstance(r, str)] if isinstance(rooms, list) else []

    def consented(self, room: str) -> bool:
        return room in self.consents()

    def do_online_join(self, inp: dict) -> None:
        """The guest read what leaves the device and joins through the relays."""
        if self.guest is None or self.guest_online is None or self.guest_state != "consent":
            return
        rooms = self.consents()
        room = self.guest_online["room"]
        self.store.set(consent_key(self.path), json.dumps(([room] + [r for r in rooms if r != room])[:20]))
        self.guest_state = "online"
        self.online_join()
        self.render()

    def online_words(self) -> dict:
        """What the screens say of the internet: the notice, the relays' state, a hint when slow."""
        lang = self.lang
        relays = (self.guest_online["relays"] or self.relays) if self.guest_online is not None else self.relays
        ice = [s["urls"] for s in self.ice]
        stun = t(lang, "online.stun", ice=", ".join(ice)) if ice else t(lang, "online.no_stun")
        notice = t(lang, "online.notice", relays=", ".join(host_of(u) for u in relays), stun=stun)
        state, up, down = relay_summary(self.online_status)
        if self.online_paused:       # asked of the page: it says so too once the sockets are closed
            state = "paused"
        if not self.online_up:
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
        error = str((self.online_status or {}).get("error") or "")
        slow = ""
        if self.online_up and state == "connected" and self.clock() - self.online_since > self.SLOW_AFTER:
            if self.guest is not None and self.guest_state == "online":
                slow = t(lang, "online.slow")
            elif self.host is not None:
                names = [st["name"] or t(lang, "friends.seat", n=st["seat"] + 1) for st in self.host.statuses()
                         if st["kind"] == "remote" and st["status"] == "invited" and not self.host.started]
                slow = " ".join(t(lang, "online.friend_slow", name=n) for n in names[:1])
        if "password" in error:
            slow = t(lang, "online.wrong", why=error)
        return {"notice": notice, "state": shown, "line": line, "slow": slow}
