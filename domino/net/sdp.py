"""Short codes for WebRTC session descriptions (no signalling server).

The host's offer travels in the invite link's fragment and the guest's answer
comes back as a reply code the host pastes (or types). A raw Chromium offer is
~590 characters; what the other side actually needs from it is small:

* the ICE username fragment and password (``a=ice-ufrag`` / ``a=ice-pwd``),
* the DTLS certificate fingerprint (``a=fingerprint:sha-256``, 32 bytes),
* the DTLS role (``a=setup``: actpass in an offer, active/passive in an answer),
* the UDP host candidates: an IPv4 or IPv6 address, or the ``<uuid>.local``
  mDNS name Chromium (and Firefox, Safari) put there to hide the address,
  and a port,
* the SCTP port and max-message-size (only when not Chromium's 5000 / 262144),
  and the media id (only when not ``"0"``).

:func:`compact` packs those into bytes and writes them as a short code;
:func:`expand` rebuilds, from a code, a data-channel-only SDP that browsers
accept (``m=application 9 UDP/DTLS/SCTP webrtc-datachannel``).

Code format, version 1
----------------------
``<prefix><body>``; the prefix says the version and the alphabet:

``a`` + base64url (``A-Z a-z 0-9 - _``, no padding)
    the shortest; for the invite link's fragment (nothing in it needs
    escaping in a URL). Case-sensitive. ~104 characters for a Chromium offer
    with one mDNS candidate, ~88 with one IPv4 candidate.
``1`` + Crockford base32 (``0-9 A-Z`` without I L O U), in groups of 5 joined by ``-``
    for a code a person may read out or type: case-insensitive, ``O`` is read
    as 0, ``I``/``L`` as 1; spaces, dashes and line breaks are ignored.
    ~20% longer.

Both carry the same bytes (big-endian)::

    flags      1   bits 0-1 setup (0 actpass, 1 active, 2 passive)
                   bit 2 explicit ICE lengths, bit 3 explicit sctp-port,
                   bit 4 explicit max-message-size, bit 5 explicit mid,
                   bits 6-7 zero
    [lengths]  2   ufrag and pwd lengths (absent: Chromium's 4 and 24)
    ice        ceil(6 * (len(ufrag) + len(pwd)) / 8): the ICE characters
                   (A-Z a-z 0-9 + /) 6 bits each, ufrag then pwd
    fingerprint 32 sha-256
    count      1   candidates, highest priority first; each:
                   kind 1 (0 IPv4: 4 bytes, 1 IPv6: 16 bytes,
                           2 "<uuid>.local": 16 bytes,
                           3 other host name: 1 length byte + ASCII)
                   address, port 2
    [sctp-port 2] [max-message-size 4; 2**32-1 = absent] [mid: 1 length byte + ASCII]
    crc        3   CRC-24 (OpenPGP) of the prefix character and all the above

A code that does not decode, is cut short, has a character changed, or holds
the wrong kind of description raises :class:`SdpCodeError` (a ValueError) with
a message that can be shown to the player. The CRC-24 catches every single
mistyped character and any two swapped neighbours.

Same-Wi-Fi play promises that a phone talks only to phones on its own
network: ``expand(code, kind, local_only=True)`` refuses, with
:class:`NotLocalError`, a code whose description names any other address
(a page that opened such an offer would send its connectivity checks to
that address, over the internet).  Local are: the private IPv4 ranges
(10/8, 172.16/12, 192.168/16), link-local (169.254/16, fe80::/10),
loopback, IPv6 unique-local (fc00::/7), 198.18/15 (set aside for
benchmarking networks by RFC 2544, never routed on the internet; the
tests' network uses it) and the ``<uuid>.local`` names browsers put in
place of a local address (resolved by multicast DNS on the link only).
Any other address or host name is not, in a candidate or in a connection
(``c=``) line.  (A code carries candidates only; the description rebuilt
from it has ``c=IN IP4 0.0.0.0``, the placeholder every browser writes.)

An SDP without any candidate compacts (an answer does not need one: the host
learns the guest's address from the guest's connectivity checks), but an offer
without one cannot be joined: check ``parse_sdp(sdp).candidates``.

Pure Python (no js): runs in Pyodide and in the tests alike.
"""
from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

__all__ = [
    "SdpCodeError", "Candidate", "Session", "parse_sdp", "render_sdp",
    "encode", "decode", "compact", "expand", "OFFER", "ANSWER",
    "NotLocalError", "is_local", "check_local",
]

OFFER = "offer"
ANSWER = "answer"

PREFIX_B64 = "a"      # version 1, base64url
PREFIX_B32 = "1"      # version 1, Crockford base32 (for people)
GROUP = 5             # base32 characters per group

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_ICE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_INDEX = {c: i for i, c in enumerate(_B64)}
_B32_INDEX = {c: i for i, c in enumerate(_B32)}
_B32_INDEX.update({"O": 0, "I": 1, "L": 1})
_ICE_INDEX = {c: i for i, c in enumerate(_ICE)}

SETUPS = ("actpass", "active", "passive")
DEFAULT_SCTP_PORT = 5000
DEFAULT_MAX_MESSAGE_SIZE = 262144
DEFAULT_MID = "0"
CHROMIUM_UFRAG_LEN = 4
CHROMIUM_PWD_LEN = 24
MAX_CANDIDATES = 255

_F_LENGTHS = 1 << 2
_F_SCTP = 1 << 3
_F_MMS = 1 << 4
_F_MID = 1 << 5
_F_RESERVED = 0xC0
_MMS_ABSENT = 0xFFFFFFFF      # an explicit max-message-size of 2**32-1: the SDP had none

_K_IPV4, _K_IPV6, _K_MDNS, _K_NAME = range(4)
_MDNS = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.local$")
_NAME = re.compile(r"^[A-Za-z0-9.-]{1,255}$")
_TOKEN = re.compile(r"^[A-Za-z0-9!#$%&'*+\-.^_`{|}~]{1,255}$")  # RFC 4566 token (mid)


TYPO = "The code has a typo, or part of it is missing: check it and try again."


class SdpCodeError(ValueError):
    """A code that cannot be read: mistyped, cut short, or of the wrong kind.

    ``str(error)`` is a sentence meant for the player."""


class NotLocalError(SdpCodeError):
    """A description that names an address off the local network (see the
    module docstring); ``address`` is the first one found."""

    def __init__(self, address: str):
        self.address = address
        super().__init__(f"The code names {address}, which is not on this Wi-Fi: "
                         "play on the same Wi-Fi connects only phones on it.")


LOCAL_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",   # private (RFC 1918)
    "169.254.0.0/16", "127.0.0.0/8",                    # link-local, loopback
    "198.18.0.0/15",                                    # benchmarking (RFC 2544): never routed publicly
    "fc00::/7", "fe80::/10", "::1/128",                 # unique-local, link-local, loopback
))


def is_local(address: str) -> bool:
    """An address (or a browser's ``<uuid>.local`` name) on the local network."""
    if _MDNS.match(address or ""):
        return True
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])   # fe80::1%eth0: its zone is not the address
    except ValueError:
        return False                     # any other host name: a DNS lookup could point anywhere
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in LOCAL_NETWORKS if net.version == ip.version)


def check_local(sdp: str) -> None:
    """NotLocalError unless every candidate and connection line of ``sdp``
    names a local address (``c=`` may be the unspecified 0.0.0.0 or ::)."""
    for raw in sdp.splitlines():
        line = raw.strip()
        if line.startswith("c="):
            f = line[2:].split()
            address = f[2].split("/", 1)[0] if len(f) >= 3 else ""
            if address in ("0.0.0.0", "::") or is_local(address):
                continue
            raise NotLocalError(address or line)
        if line.startswith("a=candidate:"):
            f = line[len("a=candidate:"):].split()
            address = f[4] if len(f) >= 5 else ""
            if not is_local(address):
                raise NotLocalError(address or line)


# ------------------------------------------------------------------ the model
@dataclass(frozen=True)
class Candidate:
    """A UDP host candidate: an IP address (text) or an mDNS host name."""
    address: str
    port: int

    @property
    def kind(self) -> str:
        """"ipv4", "ipv6", "mdns" (a <uuid>.local name) or "name"."""
        try:
            return "ipv%d" % ipaddress.ip_address(self.address).version
        except ValueError:
            return "mdns" if _MDNS.match(self.address) else "name"


@dataclass(frozen=True)
class Session:
    """What the other peer needs to know of a data-channel-only description."""
    ufrag: str
    pwd: str
    fingerprint: bytes               # sha-256, 32 bytes
    setup: str                       # actpass | active | passive
    candidates: tuple[Candidate, ...] = ()
    sctp_port: int = DEFAULT_SCTP_PORT
    max_message_size: int | None = DEFAULT_MAX_MESSAGE_SIZE   # None: no attribute
    mid: str = DEFAULT_MID

    @property
    def kind(self) -> str:
        """OFFER for actpass (what an offer says), else ANSWER."""
        return OFFER if self.setup == "actpass" else ANSWER


# ---------------------------------------------------------------- SDP <-> model
def parse_sdp(sdp: str) -> Session:
    """The session parameters of a data-channel-only SDP (offer or answer).

    Attributes are looked up at media level first, then at session level (where
    Firefox puts the fingerprint). Only UDP host candidates of component 1 are
    kept, highest priority first. Raises ValueError for an SDP that is not a
    single data-channel m-section or lacks ICE credentials or a sha-256
    fingerprint."""
    if not isinstance(sdp, str):
        raise ValueError("SDP must be text")
    session_attrs: list[str] = []
    media: list[tuple[str, list[str]]] = []
    for raw in sdp.splitlines():
        line = raw.strip()
        if line.startswith("m="):
            media.append((line, []))
        elif line.startswith("a="):
            (media[-1][1] if media else session_attrs).append(line[2:])
    if len(media) != 1 or not media[0][0].startswith("m=application ") \
            or ("webrtc-datachannel" not in media[0][0] and "DTLS/SCTP" not in media[0][0]):
        raise ValueError("not a data-channel-only session: "
                         + (", ".join(m for m, _ in media) or "no m= line"))
    attrs = media[0][1] + session_attrs

    def first(name: str) -> str | None:
        for a in attrs:
            if a.startswith(name + ":"):
                return a[len(name) + 1:].strip()
        return None

    ufrag, pwd = first("ice-ufrag"), first("ice-pwd")
    if not ufrag or not pwd:
        raise ValueError("SDP has no ICE ufrag/pwd")
    fingerprint = None
    for a in attrs:
        if a.startswith("fingerprint:"):
            algo, _, value = a[len("fingerprint:"):].strip().partition(" ")
            if algo.lower() == "sha-256":
                try:
                    fingerprint = bytes.fromhex(value.strip().replace(":", ""))
                except ValueError:
                    raise ValueError(f"bad fingerprint: {value!r}") from None
                break
    if fingerprint is None or len(fingerprint) != 32:
        raise ValueError("SDP has no sha-256 fingerprint")
    setup = (first("setup") or "actpass").lower()
    if setup not in SETUPS:
        raise ValueError(f"unsupported setup role {setup!r}")

    found: list[tuple[int, int, Candidate]] = []
    for i, a in enumerate(media[0][1]):
        if not a.startswith("candidate:"):
            continue
        f = a[len("candidate:"):].split()
        if len(f) < 8 or f[6] != "typ" or f[1] != "1" or f[2].lower() != "udp" or f[7] != "host":
            continue
        try:
            priority, port = int(f[3]), int(f[5])
        except ValueError:
            continue
        if not 0 < port < 65536:
            continue
        cand = Candidate(_canonical_address(f[4]), port)
        if all(c != cand for _, _, c in found):
            found.append((-priority, i, cand))
    candidates = tuple(c for _, _, c in sorted(found, key=lambda t: t[:2]))

    sctp = first("sctp-port")
    mms = first("max-message-size")
    try:
        sctp_port = int(sctp) if sctp is not None else DEFAULT_SCTP_PORT
        max_message_size = int(mms) if mms is not None else None
    except ValueError:
        raise ValueError("bad sctp-port or max-message-size") from None
    mid = first("mid") or DEFAULT_MID
    return Session(ufrag, pwd, fingerprint, setup, candidates, sctp_port, max_message_size, mid)


def _canonical_address(address: str) -> str:
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address


def render_sdp(session: Session) -> str:
    """A data-channel-only SDP carrying ``session`` (what Chromium writes, minus
    what the other side ignores). Deterministic: the same session gives the
    same text."""
    fp = ":".join(f"{b:02X}" for b in session.fingerprint)
    sess_id = int.from_bytes(session.fingerprint[:7], "big") or 1
    lines = [
        "v=0",
        f"o=- {sess_id} 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        f"a=group:BUNDLE {session.mid}",
        "a=msid-semantic: WMS",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0",
    ]
    for i, c in enumerate(session.candidates):
        # host type preference (126), falling local preference, component 1
        priority = (126 << 24) | ((65535 - i) << 8) | 255
        lines.append(f"a=candidate:{i + 1} 1 udp {priority} {c.address} {c.port} typ host generation 0")
    lines += [
        f"a=ice-ufrag:{session.ufrag}",
        f"a=ice-pwd:{session.pwd}",
        "a=ice-options:trickle",
        f"a=fingerprint:sha-256 {fp}",
        f"a=setup:{session.setup}",
        f"a=mid:{session.mid}",
        f"a=sctp-port:{session.sctp_port}",
    ]
    if session.max_message_size is not None:
        lines.append(f"a=max-message-size:{session.max_message_size}")
    return "\r\n".join(lines) + "\r\n"


# --------------------------------------------------------------- model <-> bytes
def _crc24(data: bytes) -> int:
    """CRC-24 as in OpenPGP (RFC 4880 6.1)."""
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def _pack6(text: str) -> bytes:
    bits = n = 0
    out = bytearray()
    for ch in text:
        bits = (bits << 6) | _ICE_INDEX[ch]
        n += 6
        while n >= 8:
            n -= 8
            out.append((bits >> n) & 0xFF)
        bits &= (1 << n) - 1
    if n:
        out.append((bits << (8 - n)) & 0xFF)
    return bytes(out)


def _unpack6(data: bytes, count: int) -> str:
    bits = n = 0
    out = []
    it = iter(data)
    while len(out) < count:
        while n < 6:
            bits = (bits << 8) | next(it)
            n += 8
        n -= 6
        out.append(_ICE[(bits >> n) & 63])
    return "".join(out)


def _payload(s: Session, max_candidates: int | None) -> bytes:
    for name, value in (("ufrag", s.ufrag), ("pwd", s.pwd)):
        if not 0 < len(value) <= 255 or any(ch not in _ICE_INDEX for ch in value):
            raise ValueError(f"ICE {name} {value!r} is not 1-255 ICE characters")
    if len(s.fingerprint) != 32:
        raise ValueError("fingerprint must be 32 bytes (sha-256)")
    flags = SETUPS.index(s.setup)
    tail = bytearray()
    lengths = b""
    if (len(s.ufrag), len(s.pwd)) != (CHROMIUM_UFRAG_LEN, CHROMIUM_PWD_LEN):
        flags |= _F_LENGTHS
        lengths = bytes((len(s.ufrag), len(s.pwd)))
    if s.sctp_port != DEFAULT_SCTP_PORT:
        flags |= _F_SCTP
        tail += s.sctp_port.to_bytes(2, "big")
    if s.max_message_size != DEFAULT_MAX_MESSAGE_SIZE:
        flags |= _F_MMS
        mms = _MMS_ABSENT if s.max_message_size is None else min(s.max_message_size, _MMS_ABSENT - 1)
        tail += mms.to_bytes(4, "big")
    if s.mid != DEFAULT_MID:
        if not _TOKEN.match(s.mid):
            raise ValueError(f"bad mid {s.mid!r}")
        flags |= _F_MID
        tail += bytes((len(s.mid),)) + s.mid.encode("ascii")
    cands = s.candidates[:MAX_CANDIDATES if max_candidates is None else max_candidates]
    body = bytearray((flags,)) + lengths + _pack6(s.ufrag + s.pwd) + s.fingerprint
    body.append(len(cands))
    for c in cands:
        kind = c.kind
        if kind == "ipv4":
            body += bytes((_K_IPV4,)) + ipaddress.IPv4Address(c.address).packed
        elif kind == "ipv6":
            body += bytes((_K_IPV6,)) + ipaddress.IPv6Address(c.address).packed
        elif kind == "mdns":
            body += bytes((_K_MDNS,)) + bytes.fromhex(c.address[:-len(".local")].replace("-", ""))
        elif _NAME.match(c.address):
            body += bytes((_K_NAME, len(c.address))) + c.address.encode("ascii")
        else:
            raise ValueError(f"candidate address {c.address!r} cannot be encoded")
        body += c.port.to_bytes(2, "big")
    return bytes(body + tail)


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise SdpCodeError("The code is too short: part of it is missing.")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def byte(self) -> int:
        return self.take(1)[0]

    def int(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")


def _parse_payload(data: bytes) -> Session:
    r = _Reader(data)
    flags = r.byte()
    if flags & _F_RESERVED or flags & 3 == 3:
        raise SdpCodeError("This code was made by a newer version of the game.")
    setup = SETUPS[flags & 3]
    if flags & _F_LENGTHS:
        lu, lp = r.byte(), r.byte()
        if not lu or not lp:
            raise SdpCodeError("The code is damaged.")
    else:
        lu, lp = CHROMIUM_UFRAG_LEN, CHROMIUM_PWD_LEN
    ice = _unpack6(r.take((6 * (lu + lp) + 7) // 8), lu + lp)
    fingerprint = r.take(32)
    candidates = []
    for _ in range(r.byte()):
        kind = r.byte()
        if kind == _K_IPV4:
            address = str(ipaddress.IPv4Address(r.take(4)))
        elif kind == _K_IPV6:
            address = str(ipaddress.IPv6Address(r.take(16)))
        elif kind == _K_MDNS:
            h = r.take(16).hex()
            address = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}.local"
        elif kind == _K_NAME:
            address = r.take(r.byte()).decode("ascii", "replace")
            if not _NAME.match(address):
                raise SdpCodeError("The code is damaged.")
        else:
            raise SdpCodeError("This code was made by a newer version of the game.")
        port = r.int(2)
        if not port:
            raise SdpCodeError("The code is damaged.")
        candidates.append(Candidate(address, port))
    sctp_port = r.int(2) if flags & _F_SCTP else DEFAULT_SCTP_PORT
    mms: int | None = DEFAULT_MAX_MESSAGE_SIZE
    if flags & _F_MMS:
        mms = r.int(4)
        if mms == _MMS_ABSENT:
            mms = None
    mid = DEFAULT_MID
    if flags & _F_MID:
        mid = r.take(r.byte()).decode("ascii", "replace")
        if not _TOKEN.match(mid):
            raise SdpCodeError("The code is damaged.")
    if r.pos != len(data):
        raise SdpCodeError("The code is too long: something was added to it.")
    return Session(ice[:lu], ice[lu:], fingerprint, setup, tuple(candidates), sctp_port, mms, mid)


# ------------------------------------------------------------ bytes <-> text
def _to_text(data: bytes, alphabet: str, width: int) -> str:
    bits = n = 0
    out = []
    for byte in data:
        bits = (bits << 8) | byte
        n += 8
        while n >= width:
            n -= width
            out.append(alphabet[(bits >> n) & ((1 << width) - 1)])
        bits &= (1 << n) - 1
    if n:
        out.append(alphabet[(bits << (width - n)) & ((1 << width) - 1)])
    return "".join(out)


def _from_text(text: str, index: dict[str, int], width: int) -> bytes:
    bits = n = 0
    out = bytearray()
    for ch in text:
        value = index.get(ch)
        if value is None:
            raise SdpCodeError(f"The code has a character that does not belong in it: {ch!r}.")
        bits = (bits << width) | value
        n += width
        if n >= 8:
            n -= 8
            out.append((bits >> n) & 0xFF)
            bits &= (1 << n) - 1
    if n >= width or bits & ((1 << n) - 1):
        # a length no encoder writes, or stray bits after the last byte
        raise SdpCodeError(TYPO)
    return bytes(out)


def encode(session: Session, *, human: bool = False, max_candidates: int | None = None) -> str:
    """The code for ``session`` (see the module docstring for the format)."""
    prefix = PREFIX_B32 if human else PREFIX_B64
    payload = _payload(session, max_candidates)
    data = payload + _crc24(prefix.encode() + payload).to_bytes(3, "big")
    if not human:
        return prefix + _to_text(data, _B64, 6)
    text = prefix + _to_text(data, _B32, 5)
    return "-".join(text[i:i + GROUP] for i in range(0, len(text), GROUP))


def decode(code: str) -> Session:
    """The session a code carries; SdpCodeError if it cannot be read."""
    if not isinstance(code, str):
        raise SdpCodeError("The code must be text.")
    text = "".join(code.split())          # line breaks and spaces from copying
    if not text:
        raise SdpCodeError("The code is empty.")
    if text[0] == PREFIX_B64:
        prefix, data = PREFIX_B64, _from_text(text[1:], _B64_INDEX, 6)
    elif text[0] in "0123456789OoIiLl":
        text = text.replace("-", "").upper()
        if _B32_INDEX.get(text[0]) != int(PREFIX_B32):
            raise SdpCodeError("This code was made by a newer version of the game.")
        prefix, data = PREFIX_B32, _from_text(text[1:], _B32_INDEX, 5)
    elif text[0].isascii() and text[0].isalpha():
        raise SdpCodeError("This code was made by a newer version of the game.")
    else:
        raise SdpCodeError("This is not a game code.")
    if len(data) < 4:
        raise SdpCodeError("The code is too short: part of it is missing.")
    payload, crc = data[:-3], int.from_bytes(data[-3:], "big")
    if _crc24(prefix.encode() + payload) != crc:
        raise SdpCodeError(TYPO)
    return _parse_payload(payload)


# ------------------------------------------------------------------- the API
def compact(sdp: str, *, human: bool = False, max_candidates: int | None = None) -> str:
    """The code for an offer or answer SDP (as the browser's localDescription.sdp).

    ``human=True`` gives the case-insensitive grouped base32 form (for a reply
    code a person may type); ``max_candidates`` keeps only the first (highest
    priority) candidates (0: none, enough for an answer). Raises ValueError for
    an SDP it cannot represent."""
    return encode(parse_sdp(sdp), human=human, max_candidates=max_candidates)


def expand(code: str, kind: str, *, local_only: bool = False) -> str:
    """The SDP of ``kind`` ("offer" or "answer") a code carries, for
    RTCPeerConnection.setRemoteDescription({type: kind, sdp}).

    Raises SdpCodeError for a code that cannot be read or is of the other kind
    (a reply code pasted as an invite, or the other way round); with
    ``local_only``, NotLocalError for one that names an address off the local
    network."""
    if kind not in (OFFER, ANSWER):
        raise ValueError(f"kind must be {OFFER!r} or {ANSWER!r}, not {kind!r}")
    session = decode(code)
    if session.kind != kind:
        raise SdpCodeError("This is an invitation code, not a reply code." if kind == ANSWER
                           else "This is a reply code, not an invitation code.")
    text = render_sdp(session)
    if local_only:
        check_local(text)
    return text
