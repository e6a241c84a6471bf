"""Play over the internet: the settings, the invitation link and the relays' status, as plain data.

Off until a player turns it on.  The table is the one of play with friends
(``domino.net``, unchanged); only the way the phones find each other
differs: instead of an offer in the link and a reply code, both phones join
a room on public Nostr relays (``static/online.js``, Trystero), whose
signalling is encrypted with a password that only the link carries.

* ``relays``: the relays' websocket URLs, kept in the saved settings;
  :data:`DEFAULT_RELAYS` until a player edits them.  ``wss://`` anywhere,
  ``ws://`` only to this phone or a private network (:func:`relay_problem`).
* ``ice``: ``RTCIceServer`` objects (STUN, TURN), kept beside them.
* the link ``#online=<seat+1>.<secret>.<room>.<password>[.<relays>]``: the
  seat's secret of the first issue (a reload reclaims the seat with it), the
  seat's own room and its password (random per seat: each friend shares a room
  with the host alone), and the host's relays when they are not the defaults
  (base64url JSON), so that both phones ask the same.  A link whose relays this
  phone would not use is refused, saying why.

In a room, the page (``static/online.js``) hands a peer to Python only once it
proved it knows the seat's secret: the guest challenges, the host answers with
an HMAC-SHA256 keyed by the secret, then the guest answers the host's
challenge the same way.  A peer that claims to be the host without the secret
gets nothing of the guest's.
"""
from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import re
import secrets
from typing import Any

from domino.app.i18n import t
from domino.net import protocol

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
# scheme, host (a name, an IPv4 address or a bracketed IPv6 one), port, path; no user name, query or fragment
_RELAY = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+)"
                    r"(?::(?P<port>\d{1,5}))?(?P<path>/[A-Za-z0-9._~%/\-]*)?")
_NAME = re.compile(r"(?!-)[A-Za-z0-9\-]{1,63}(?<!-)(?:\.(?!-)[A-Za-z0-9\-]{1,63}(?<!-))*\.?")
# Where plain ws:// is allowed: the phone itself and networks that are never routed on the internet.
# 198.18.0.0/15 (RFC 2544, benchmarking) is among them: never routed publicly, and the tests' network
# namespace uses it.
PRIVATE_NETS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "198.18.0.0/15",
    "::1/128", "fc00::/7", "fe80::/10"))
_ICE = re.compile(r"(?:stun|stuns|turn|turns):[A-Za-z0-9.\-\[\]:]+(?:\?transport=(?:udp|tcp))?")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


class OnlineError(ValueError):
    """A relay or ICE server that cannot be used, or an unreadable link.

    ``str(e)`` says why in English; with a ``key`` of the texts,
    :meth:`words` says it in the player's language."""

    def __init__(self, message: str, key: str | None = None, **params: Any):
        super().__init__(t("en", key, **params) if key else message)
        self.key, self.params = key, params

    def words(self, lang: str) -> str:
        return t(lang, self.key, **self.params) if self.key else str(self)


def _private_host(host: str) -> bool:
    """Loopback, a private or link-local address, ``localhost`` or a ``.local`` name."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost") or name.endswith(".local"):
        return True
    try:
        addr = ipaddress.ip_address(name)
    except ValueError:
        return False
    return any(addr.version == net.version and addr in net for net in PRIVATE_NETS)


def _is_ipv4(text: str) -> bool:
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


def relay_problem(url: Any) -> str | None:
    """Why a relay's address is refused (an i18n key), or None when it can be used.

    ``wss://`` anywhere; ``ws://`` (unencrypted) only to this phone or a private
    network (:data:`PRIVATE_NETS`, ``localhost``, ``.local`` names); a port, when
    given, from 1 to 65535."""
    if not isinstance(url, str) or not url:
        return "relay.not_url"
    if len(url) > MAX_URL:
        return "relay.too_long"
    m = _RELAY.fullmatch(url)
    if m is None:
        return "relay.not_url"
    scheme, host, port = m.group("scheme").lower(), m.group("host"), m.group("port")
    if scheme not in ("ws", "wss"):
        return "relay.scheme"
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return "relay.bad_host"
    elif _NAME.fullmatch(host) is None:
        return "relay.bad_host"
    elif re.fullmatch(r"[0-9.]+", host) and not _is_ipv4(host):
        return "relay.bad_host"
    if port is not None and not 1 <= int(port) <= 65535:
        return "relay.bad_port"
    if scheme == "ws" and not _private_host(host):
        return "relay.plain_public"
    return None


def relay_ok(url: Any) -> bool:
    return relay_problem(url) is None


def relay_error(url: Any) -> OnlineError:
    """The sentence saying why ``url`` is refused, as an :class:`OnlineError`."""
    shown = str(url)[:60] if isinstance(url, str) else repr(url)[:60]
    return OnlineError("", relay_problem(url) or "relay.not_url", url=shown)


def parse_relays(text: str) -> list[str]:
    """The settings' box: one relay per line (or separated by spaces or commas)."""
    urls = [u for u in re.split(r"[\s,]+", text or "") if u]
    bad = [u for u in urls if not relay_ok(u)]
    if bad:
        raise relay_error(bad[0])
    if not urls:
        raise OnlineError("", "relay.none")
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
    """A seat's room on the relays and the password that encrypts its signalling."""
    return {"room": secrets.token_urlsafe(12), "password": secrets.token_urlsafe(16)}


def room_ok(room: Any) -> bool:
    return isinstance(room, dict) and all(isinstance(room.get(k), str) and _TOKEN.fullmatch(room[k]) is not None
                                          for k in ("room", "password"))


def read_rooms(saved: Any) -> tuple[dict[str, dict] | None, bool]:
    """The host's saved rooms -> (secret -> room, whether they were of the old kind).

    ``None``: the switch is off.  ``{"rooms": {secret: {"room", "password"}}}``:
    one room per seat's secret.  The old kind, one ``{"room", "password"}`` for
    every seat, gives no room (each seat then gets a new one, and the old links
    stop working).  Raises :class:`OnlineError` when unreadable."""
    if saved is None:
        return None, False
    if isinstance(saved, dict) and "rooms" not in saved and room_ok(saved):
        return {}, True
    rooms = saved.get("rooms") if isinstance(saved, dict) else None
    if not isinstance(rooms, dict) or not all(isinstance(k, str) and protocol._SECRET.fullmatch(k) and room_ok(v)
                                              for k, v in rooms.items()):
        raise OnlineError("its rooms on the relays cannot be read")
    return {k: {"room": v["room"], "password": v["password"]} for k, v in rooms.items()}, False


def consent_entry(room: str, relays: list[str]) -> str:
    """What a guest's consent covers: the room and the exact relays it is joined through."""
    digest = hashlib.sha256("\n".join(relays).encode()).hexdigest()[:24]
    return f"{room} {digest}"


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
    if len(parts) not in (4, 5) or not re.fullmatch(r"[1-8]", parts[0]) or not protocol._SECRET.fullmatch(parts[1]) \
            or not _TOKEN.fullmatch(parts[2]) or not _TOKEN.fullmatch(parts[3]):
        raise OnlineError("it is incomplete")
    relays = None
    if len(parts) == 5:
        try:
            listed = json.loads(_unb64(parts[4]))
        except (ValueError, UnicodeDecodeError):
            raise OnlineError("its relay list cannot be read") from None
        if not isinstance(listed, list) or not listed:
            raise OnlineError("its relay list cannot be read")
        for u in listed:                 # a relay this phone would not use: refused, and why
            if not relay_ok(u):
                raise relay_error(u)
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
