"""A small Nostr relay for "Play over the internet": for the tests, and for a
player's own network.

The game's pages find each other through Nostr relays (Trystero's Nostr
strategy). The browser tests cannot reach public relays, so they start this
one on their private test network. A player can run it too, on a computer of
their own network:

    python scripts/nostr_relay.py --host 0.0.0.0 --port 7447

and put ``ws://<that computer's address>:7447`` in the game's relay list. It
needs Python 3.11+ and the ``websockets`` package (``pip install websockets``).

What it speaks is the part of NIP-01 that Trystero uses: ``EVENT`` (checked:
field types, the id as the sha256 of the NIP-01 serialization, the BIP-340
signature), ``REQ`` with filters (``ids``, ``authors``, ``kinds``,
``#<letter>``, ``since``, ``until``, ``limit``) answered with the stored
matches then ``EOSE``, and ``CLOSE``. It answers ``OK``, ``EVENT``, ``EOSE``,
``CLOSED`` and ``NOTICE``. Ephemeral events (kinds 20000-29999, which is what
Trystero sends) are only passed on to the subscriptions that match; other
events are also kept, the last 10,000, for later ``REQ``s.

Limits: everything is in memory and lost when it stops; no authentication
(no NIP-42), no rate limits, no other NIP. It is not meant for the public
internet.

Test options: ``--log FILE`` appends one JSON line per connection, message in
and message out (see :class:`Relay`), so a test can assert what reached the
relay and from where; ``--reject-all`` refuses every event, like a relay that
will not carry the game; ``--no-verify`` skips the signature check.

In-process use (CPython tests): :func:`serve` in a running event loop, or
:class:`RelayThread`, which runs the relay in a thread of its own.
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import json
import re
import signal
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast
from websockets.asyncio.server import serve as ws_serve
from websockets.exceptions import ConnectionClosedError

DEFAULT_PORT = 7447
MAX_MESSAGE_BYTES = 128 * 1024
# The websockets library closes the connection (code 1009) on a frame larger
# than this; between MAX_MESSAGE_BYTES and this the relay answers a NOTICE
# and the connection stays usable.
HARD_FRAME_BYTES = 1024 * 1024
MAX_SUBSCRIPTIONS = 50
MAX_SUB_ID_CHARS = 64
MAX_STORED = 10_000
EPHEMERAL_KINDS = range(20000, 30000)
LOG_TEXT_CHARS = 300

# ------------------------------------------------------------------ BIP-340
# Schnorr signatures over secp256k1, after the BIP's reference code, with
# points in Jacobian coordinates (X, Y, Z) (None: the point at infinity) so
# that a verification needs one modular inverse, not hundreds. Not
# constant-time, and a few ms a verification: fine for checking the events of
# a test or a living room.
_P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
_Point = tuple[int, int, int] | None
_G: _Point = (0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
              0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8, 1)


def _double(a: _Point) -> _Point:
    if a is None or a[1] == 0:
        return None
    x, y, z = a
    yy = y * y % _P
    s = 4 * x * yy % _P
    m = 3 * x * x % _P
    x3 = (m * m - 2 * s) % _P
    return x3, (m * (s - x3) - 8 * yy * yy) % _P, 2 * y * z % _P


def _add(a: _Point, b: _Point) -> _Point:
    if a is None:
        return b
    if b is None:
        return a
    (x1, y1, z1), (x2, y2, z2) = a, b
    z1z1, z2z2 = z1 * z1 % _P, z2 * z2 % _P
    u1, u2 = x1 * z2z2 % _P, x2 * z1z1 % _P
    s1, s2 = y1 * z2 * z2z2 % _P, y2 * z1 * z1z1 % _P
    if u1 == u2:
        return _double(a) if s1 == s2 else None
    h, r = (u2 - u1) % _P, (s2 - s1) % _P
    hh = h * h % _P
    hhh = h * hh % _P
    x3 = (r * r - hhh - 2 * u1 * hh) % _P
    return x3, (r * (u1 * hh - x3) - s1 * hhh) % _P, h * z1 * z2 % _P


def _affine(a: _Point) -> tuple[int, int] | None:
    if a is None:
        return None
    zinv = pow(a[2], -1, _P)
    return a[0] * zinv * zinv % _P, a[1] * zinv * zinv * zinv % _P


def _mul2(k1: int, a: _Point, k2: int = 0, b: _Point = None) -> _Point:
    """k1·a + k2·b, both in one pass over the bits (Shamir's trick)."""
    both = _add(a, b)
    result: _Point = None
    for i in range(max(k1.bit_length(), k2.bit_length()) - 1, -1, -1):
        result = _double(result)
        bit1, bit2 = k1 >> i & 1, k2 >> i & 1
        if bit1 or bit2:
            result = _add(result, both if bit1 and bit2 else a if bit1 else b)
    return result


def _lift_x(x: int) -> _Point:
    """The point with x coordinate ``x`` and an even y, if there is one."""
    if x >= _P:
        return None
    c = (pow(x, 3, _P) + 7) % _P
    y = pow(c, (_P + 1) // 4, _P)
    if y * y % _P != c:
        return None
    return x, y if y % 2 == 0 else _P - y, 1


def _tagged_hash(tag: str, data: bytes) -> bytes:
    tag_hash = hashlib.sha256(tag.encode()).digest()
    return hashlib.sha256(tag_hash + tag_hash + data).digest()


def _int(b: bytes) -> int:
    return int.from_bytes(b, "big")


def _bytes32(n: int) -> bytes:
    return n.to_bytes(32, "big")


def _times_g(k: int) -> tuple[int, int]:
    """k·G in affine coordinates, for 1 <= k < n (never infinity)."""
    point = _affine(_mul2(k, _G))
    assert point is not None
    return point


def _secret(secret_key: bytes) -> int:
    d = _int(secret_key)
    if len(secret_key) != 32 or not 1 <= d < _N:
        raise ValueError("a secret key is 32 bytes, from 1 to the curve order - 1")
    return d


def pubkey_of(secret_key: bytes) -> bytes:
    """The 32-byte x-only public key of a 32-byte secret key."""
    return _bytes32(_times_g(_secret(secret_key))[0])


def sign(secret_key: bytes, msg32: bytes, aux: bytes = b"\0" * 32) -> bytes:
    """The 64-byte BIP-340 signature of ``msg32`` (for tests: the relay only
    verifies). ``aux`` is the BIP's auxiliary randomness."""
    if len(aux) != 32:
        raise ValueError("aux is 32 bytes")
    d0 = _secret(secret_key)
    px, py = _times_g(d0)
    d = d0 if py % 2 == 0 else _N - d0
    t = _bytes32(d ^ _int(_tagged_hash("BIP0340/aux", aux)))
    k0 = _int(_tagged_hash("BIP0340/nonce", t + _bytes32(px) + msg32)) % _N
    if k0 == 0:
        raise ValueError("nonce is zero (negligible probability): use another aux")
    rx, ry = _times_g(k0)
    k = k0 if ry % 2 == 0 else _N - k0
    e = _int(_tagged_hash("BIP0340/challenge", _bytes32(rx) + _bytes32(px) + msg32)) % _N
    return _bytes32(rx) + _bytes32((k + e * d) % _N)


def verify(pubkey: bytes, msg: bytes, sig: bytes) -> bool:
    """Whether ``sig`` is a valid BIP-340 signature of ``msg`` by the x-only
    ``pubkey``."""
    if len(pubkey) != 32 or len(sig) != 64:
        return False
    point = _lift_x(_int(pubkey))
    r, s = _int(sig[:32]), _int(sig[32:])
    if point is None or r >= _P or s >= _N:
        return False
    e = _int(_tagged_hash("BIP0340/challenge", sig[:32] + pubkey + msg)) % _N
    big_r = _affine(_mul2(s, _G, _N - e, point))
    return big_r is not None and big_r[1] % 2 == 0 and big_r[0] == r


# ------------------------------------------------------------------- events
_HEX_FIELDS = (("id", 64), ("pubkey", 64), ("sig", 128))
_TAG_FILTER = re.compile(r"#[A-Za-z]")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def event_id(event: dict[str, Any]) -> str:
    """The NIP-01 id of an event: the sha256 of its serialization."""
    serial = json.dumps([0, event["pubkey"], event["created_at"], event["kind"],
                         event["tags"], event["content"]],
                        separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(serial.encode("utf-8")).hexdigest()


def event_shape_error(event: Any) -> str | None:
    """Why ``event`` is not a NIP-01 event object (None if it is one)."""
    if not isinstance(event, dict):
        return "an event is a JSON object"
    for name, length in _HEX_FIELDS:
        value = event.get(name)
        if not isinstance(value, str) or not re.fullmatch(f"[0-9a-f]{{{length}}}", value):
            return f"'{name}' must be {length} lowercase hex digits"
    if not _is_int(event.get("created_at")) or event["created_at"] < 0:
        return "'created_at' must be a non-negative integer"
    if not _is_int(event.get("kind")) or not 0 <= event["kind"] <= 65535:
        return "'kind' must be an integer from 0 to 65535"
    tags = event.get("tags")
    if not isinstance(tags, list) or not all(
            isinstance(tag, list) and all(isinstance(item, str) for item in tag) for tag in tags):
        return "'tags' must be a list of lists of strings"
    if not isinstance(event.get("content"), str):
        return "'content' must be a string"
    return None


def sign_event(secret_key: bytes, *, kind: int, content: str,
               tags: list[list[str]] | None = None, created_at: int | None = None) -> dict[str, Any]:
    """A complete signed event (for tests and tools)."""
    event: dict[str, Any] = {
        "pubkey": pubkey_of(secret_key).hex(),
        "created_at": int(time.time()) if created_at is None else created_at,
        "kind": kind, "tags": tags or [], "content": content,
    }
    event["id"] = event_id(event)
    event["sig"] = sign(secret_key, bytes.fromhex(event["id"])).hex()
    return event


@dataclass(frozen=True)
class Filter:
    """One NIP-01 filter: every condition given must hold (None: not given)."""

    ids: frozenset[str] | None = None
    authors: frozenset[str] | None = None
    kinds: frozenset[int] | None = None
    tags: tuple[tuple[str, frozenset[str]], ...] = ()
    since: int | None = None
    until: int | None = None
    limit: int | None = None

    def matches(self, event: dict[str, Any]) -> bool:
        if self.ids is not None and event["id"] not in self.ids:
            return False
        if self.authors is not None and event["pubkey"] not in self.authors:
            return False
        if self.kinds is not None and event["kind"] not in self.kinds:
            return False
        if self.since is not None and event["created_at"] < self.since:
            return False
        if self.until is not None and event["created_at"] > self.until:
            return False
        for letter, values in self.tags:
            if not any(len(tag) >= 2 and tag[0] == letter and tag[1] in values
                       for tag in event["tags"]):
                return False
        return True


def parse_filter(raw: Any) -> Filter:
    """A :class:`Filter` from its JSON form; ValueError says what is wrong.
    Unknown fields are refused (like strfry) so that a client's mistake shows
    instead of silently matching more than it meant."""
    if not isinstance(raw, dict):
        raise ValueError("a filter is a JSON object")
    values: dict[str, Any] = {}
    tags = []
    for key, value in raw.items():
        if key in ("ids", "authors", "kinds") or _TAG_FILTER.fullmatch(key):
            want_int = key == "kinds"
            if not isinstance(value, list) or not all(
                    _is_int(v) if want_int else isinstance(v, str) for v in value):
                raise ValueError(f"filter field '{key}' must be a list of "
                                 f"{'integers' if want_int else 'strings'}")
            if key.startswith("#"):
                tags.append((key[1], frozenset(value)))
            else:
                values[key] = frozenset(value)
        elif key in ("since", "until", "limit"):
            if not _is_int(value) or value < 0:
                raise ValueError(f"filter field '{key}' must be a non-negative integer")
            values[key] = value
        else:
            raise ValueError(f"unknown filter field '{key}'")
    return Filter(tags=tuple(tags), **values)


def _newest_first(event: dict[str, Any]) -> tuple[int, str]:
    # NIP-01: newest first; on equal created_at, the lowest id first
    return -event["created_at"], event["id"]


# -------------------------------------------------------------------- relay
@dataclass(eq=False)
class Client:
    """One connection and its subscriptions (subId -> filters)."""

    n: int
    ws: ServerConnection
    peer: str
    subs: dict[str, tuple[Filter, ...]] = field(default_factory=dict)


def _peer(ws: ServerConnection) -> str:
    address = ws.remote_address
    if not address:
        return "?"
    host, port = address[0], address[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class Relay:
    """The relay's state and protocol, one instance per server.

    Messages are handled synchronously, one at a time in the event loop, and
    sent with websockets' ``broadcast`` (which does not wait for slow
    readers): so a REQ's stored events, its EOSE and the start of live
    delivery happen as one step, and no event falls between them.

    The log (``log_path``), one JSON object a line, flushed at once:
    ``{"t", "ev": "connect"|"disconnect", "conn", "peer"}`` (connect also has
    ``"path"``, disconnect the close ``"code"``) and ``{"t", "conn", "peer",
    "dir": "in"|"out", "msg"}`` where ``msg`` is the parsed message, or its
    text cut to 300 characters when it is not JSON or too large.

    JSON goes out and into the log ASCII-escaped: a string may hold a lone
    surrogate (``"\\ud800"`` parses to one), which has no UTF-8 form.
    """

    def __init__(self, *, verify: bool = True, log_path: str | Path | None = None,
                 reject_all: bool = False):
        self.verify = verify
        self.log_path = Path(log_path) if log_path is not None else None
        self.reject_all = reject_all
        self.clients: set[Client] = set()
        self.stored: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.seen: OrderedDict[str, None] = OrderedDict()
        self._serial = itertools.count(1)
        if self.log_path is not None:
            open(self.log_path, "a").close()  # a bad path fails now, not at the first message

    # ---------------------------------------------------------------- log
    def _log(self, record: dict[str, Any]) -> None:
        if self.log_path is None:
            return
        line = json.dumps({"t": round(time.time(), 3), **record})
        with open(self.log_path, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    def _send(self, client: Client, message: list[Any]) -> None:
        broadcast([client.ws], json.dumps(message, separators=(",", ":")))
        self._log({"conn": client.n, "peer": client.peer, "dir": "out", "msg": message})

    # ---------------------------------------------------------- connection
    async def handler(self, ws: ServerConnection) -> None:
        """websockets' connection handler: read messages until it closes."""
        client = Client(next(self._serial), ws, _peer(ws))
        self.clients.add(client)
        path = ws.request.path if ws.request else ""
        self._log({"ev": "connect", "conn": client.n, "peer": client.peer, "path": path})
        try:
            async for frame in ws:
                self.receive(client, frame)
        except ConnectionClosedError:
            pass  # a peer that vanished (a phone that slept, a tab killed): nothing to report
        finally:
            self.clients.discard(client)
            self._log({"ev": "disconnect", "conn": client.n, "peer": client.peer,
                       "code": ws.close_code})

    def receive(self, client: Client, frame: str | bytes) -> None:
        """Handle one frame from ``client``."""
        if isinstance(frame, bytes):
            self._log({"conn": client.n, "peer": client.peer, "dir": "in",
                       "msg": f"<binary frame of {len(frame)} bytes>"})
            self._send(client, ["NOTICE", "invalid: binary frames are not accepted"])
            return
        size = len(frame.encode("utf-8"))
        if size > MAX_MESSAGE_BYTES:
            self._log({"conn": client.n, "peer": client.peer, "dir": "in",
                       "msg": frame[:LOG_TEXT_CHARS]})
            self._send(client, ["NOTICE", f"invalid: message of {size} bytes, "
                                          f"over {MAX_MESSAGE_BYTES}"])
            return
        try:
            message = json.loads(frame)
        except ValueError:
            self._log({"conn": client.n, "peer": client.peer, "dir": "in",
                       "msg": frame[:LOG_TEXT_CHARS]})
            self._send(client, ["NOTICE", "invalid: not JSON"])
            return
        self._log({"conn": client.n, "peer": client.peer, "dir": "in", "msg": message})
        if not isinstance(message, list) or not message or not isinstance(message[0], str):
            self._send(client, ["NOTICE", "invalid: a message is a JSON array "
                                          "starting with its type"])
        elif message[0] == "EVENT":
            self._on_event(client, message)
        elif message[0] == "REQ":
            self._on_req(client, message)
        elif message[0] == "CLOSE":
            if len(message) == 2 and isinstance(message[1], str):
                client.subs.pop(message[1], None)
            else:
                self._send(client, ["NOTICE", 'invalid: CLOSE is ["CLOSE", <subscription id>]'])
        else:
            self._send(client, ["NOTICE", f"invalid: unknown message type {message[0][:40]!r}"])

    # ---------------------------------------------------------------- EVENT
    def _on_event(self, client: Client, message: list[Any]) -> None:
        event = message[1] if len(message) == 2 else None
        problem = event_shape_error(event)
        if problem:
            raw_id = event.get("id") if isinstance(event, dict) else None
            if isinstance(raw_id, str):
                self._send(client, ["OK", raw_id[:100], False, f"invalid: {problem}"])
            else:
                self._send(client, ["NOTICE", f"invalid: EVENT is [\"EVENT\", <event>]: {problem}"])
            return
        assert isinstance(event, dict)
        eid = event["id"]
        if self.reject_all:
            self._send(client, ["OK", eid, False, "blocked: this relay refuses events"])
            return
        try:
            good_id = event_id(event) == eid
        except UnicodeEncodeError:  # a lone surrogate in a string: no UTF-8 form
            good_id = False
        if not good_id:
            self._send(client, ["OK", eid, False, "invalid: bad event id"])
            return
        if eid in self.seen:
            self._send(client, ["OK", eid, False, "duplicate: already have this event"])
            return
        if self.verify and not verify(bytes.fromhex(event["pubkey"]), bytes.fromhex(eid),
                                      bytes.fromhex(event["sig"])):
            self._send(client, ["OK", eid, False, "invalid: bad signature"])
            return
        self._remember(self.seen, eid, None)
        if event["kind"] not in EPHEMERAL_KINDS:
            self._remember(self.stored, eid, event)
        self._send(client, ["OK", eid, True, ""])
        for other in list(self.clients):
            for sub_id, filters in other.subs.items():
                if any(f.matches(event) for f in filters):
                    self._send(other, ["EVENT", sub_id, event])

    @staticmethod
    def _remember(store: OrderedDict[str, Any], key: str, value: Any) -> None:
        store[key] = value
        if len(store) > MAX_STORED:
            store.popitem(last=False)

    # ------------------------------------------------------------------ REQ
    def _on_req(self, client: Client, message: list[Any]) -> None:
        sub_id = message[1] if len(message) >= 2 else None
        if not isinstance(sub_id, str) or not 1 <= len(sub_id) <= MAX_SUB_ID_CHARS:
            self._send(client, ["NOTICE", "invalid: REQ is [\"REQ\", <subscription id: "
                                          f"1-{MAX_SUB_ID_CHARS} characters>, <filter>...]"])
            return
        try:
            if len(message) < 3:
                raise ValueError("a REQ needs at least one filter")
            filters = tuple(parse_filter(raw) for raw in message[2:])
        except ValueError as exc:
            client.subs.pop(sub_id, None)
            self._send(client, ["CLOSED", sub_id, f"invalid: {exc}"])
            return
        if sub_id not in client.subs and len(client.subs) >= MAX_SUBSCRIPTIONS:
            self._send(client, ["CLOSED", sub_id, "error: too many subscriptions"])
            return
        client.subs[sub_id] = filters
        found: dict[str, dict[str, Any]] = {}
        for f in filters:
            matches = sorted((e for e in self.stored.values() if f.matches(e)), key=_newest_first)
            for event in matches[:f.limit]:
                found[event["id"]] = event
        for event in sorted(found.values(), key=_newest_first):
            self._send(client, ["EVENT", sub_id, event])
        self._send(client, ["EOSE", sub_id])


# ------------------------------------------------------------- run it
async def serve(host: str = "127.0.0.1", port: int = 0, *, verify: bool = True,
                log_path: str | Path | None = None,
                reject_all: bool = False) -> tuple[Server, int]:
    """Start a relay in the running event loop: the websockets server (close
    it with ``server.close()`` and ``await server.wait_closed()``) and the
    port it listens on (the one the OS chose, for port 0)."""
    relay = Relay(verify=verify, log_path=log_path, reject_all=reject_all)
    server = await ws_serve(relay.handler, host, port, max_size=HARD_FRAME_BYTES)
    return server, server.sockets[0].getsockname()[1]


def ws_url(host: str, port: int) -> str:
    """``ws://host:port``, with brackets around an IPv6 address."""
    return f"ws://[{host}]:{port}" if ":" in host else f"ws://{host}:{port}"


class RelayThread:
    """A relay running in a background thread with its own event loop, for
    tests that are not async themselves::

        with RelayThread(log_path=tmp / "relay.log") as relay:
            ...connect to relay.url...
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, verify: bool = True,
                 log_path: str | Path | None = None, reject_all: bool = False):
        self.host = host
        self.port = port
        self._options: dict[str, Any] = {"verify": verify, "log_path": log_path,
                                         "reject_all": reject_all}
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return ws_url(self.host, self.port)

    def start(self) -> "RelayThread":
        self._thread = threading.Thread(target=asyncio.run, args=(self._main(),),
                                        name="nostr-relay", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the relay thread did not start in 10 s")
        if self._error is not None:
            raise RuntimeError(f"the relay did not start: {self._error}") from self._error
        return self

    async def _main(self) -> None:
        try:
            server, self.port = await serve(self.host, self.port, **self._options)
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._ready.set()
        await self._stopping.wait()
        server.close()
        await server.wait_closed()

    def stop(self) -> None:
        """Close every connection and stop the thread (idempotent)."""
        loop, stopping, self._loop = self._loop, self._stopping, None
        if loop is not None and stopping is not None:
            loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    def __enter__(self) -> "RelayThread":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


async def _run(args: argparse.Namespace) -> None:
    server, port = await serve(args.host, args.port, verify=not args.no_verify,
                               log_path=args.log, reject_all=args.reject_all)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    print(f"Relay listening on {ws_url(args.host, port)}", flush=True)
    await stopping.wait()
    server.close()
    await server.wait_closed()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="A small in-memory Nostr relay (NIP-01 subset) for the game's "
                    "'Play over the internet' on a local network, and for its tests.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0: every interface; default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port (0: a free one; default {DEFAULT_PORT})")
    parser.add_argument("--log", metavar="FILE",
                        help="append a JSON line per connection and message to FILE")
    parser.add_argument("--no-verify", action="store_true",
                        help="skip the signature check (the event id is still checked)")
    parser.add_argument("--reject-all", action="store_true",
                        help="refuse every event (to test a relay that will not carry the game)")
    args = parser.parse_args(argv)
    try:
        asyncio.run(_run(args))
    except OSError as exc:  # the address is taken or not ours, the log cannot be written
        sys.exit(f"nostr_relay: {exc}")


if __name__ == "__main__":
    main()
