"""A small Nostr relay for "Play over the internet": for the tests, and for a
player's own network.

The game's pages find each other through Nostr relays (Trystero's Nostr
strategy). The browser tests cannot reach public relays, so they start this
one on their private test network. A player can run it too, on a computer of
their own network:

    python scripts/nostr_relay.py --host 0.0.0.0 --port 7447

and put ``ws://<that computer's address>:7447`` in the game's relay list. It
needs Python 3.11+, the ``websockets`` package (``pip install websockets``)
and the game's ``domino`` package beside it (run it from a checkout of the
repository: it checks signatures with ``domino/net/nostr.py``).

What it speaks is NIP-01: ``EVENT`` (checked: field types, the id as the
sha256 of the NIP-01 serialization, the BIP-340 signature), ``REQ`` with
filters (``ids``, ``authors``, ``kinds``, ``#<letter>``, ``since``,
``until``, ``limit``) answered with the stored matches then ``EOSE``, and
``CLOSE``. It answers ``OK``, ``EVENT``, ``EOSE``, ``CLOSED`` and
``NOTICE``. Events are kept as relays keep them: ephemeral ones (kinds
20000-29999, which is what Trystero sends) are only passed on to the
subscriptions that match; regular ones are also stored, the last 10,000,
for later ``REQ``s; a replaceable one (kinds 0, 3, 10000-19999) replaces
the one stored for its author and kind, an addressable one (30000-39999)
the one for its author, kind and ``d`` tag, when it is newer (NIP-01: on
equal ``created_at`` the lowest id stays; an older one is answered ``OK``
false, ``duplicate:``, and not passed on). That is what a match kept on
the relays for days (domino/net/mailbox.py) relies on.

``--store FILE`` keeps the stored events in an SQLite file, so that the
relay started again on that file has them; without it everything is in
memory and lost when it stops. No authentication (no NIP-42), no rate
limits, no other NIP: it is not meant for the public internet.

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
import itertools
import json
import re
import signal
import sqlite3
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

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))       # run as a script: domino/ is next to scripts/

from domino.net.nostr import (event_id, event_shape_error, pubkey_of, sign,  # noqa: E402,F401
                              sign_event, verify)

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
REPLACEABLE_KINDS = range(10000, 20000)     # and kinds 0 and 3
ADDRESSABLE_KINDS = range(30000, 40000)
LOG_TEXT_CHARS = 300

# Events and their signatures (BIP-340 Schnorr over secp256k1) are checked
# with the game's own pure-Python code, domino/net/nostr.py: the script runs
# from a checkout of the repository.
_TAG_FILTER = re.compile(r"#[A-Za-z]")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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


def address(event: dict[str, Any]) -> tuple[Any, ...] | None:
    """What a replaceable event replaces (NIP-01): ``(pubkey, kind)`` for
    kinds 0, 3 and 10000-19999, ``(pubkey, kind, d)`` for the addressable
    kinds 30000-39999 (``d``: the value of its first ``d`` tag, "" without
    one); None for regular and ephemeral events."""
    kind = event["kind"]
    if kind in (0, 3) or kind in REPLACEABLE_KINDS:
        return event["pubkey"], kind
    if kind in ADDRESSABLE_KINDS:
        d = next((tag[1] if len(tag) > 1 else "" for tag in event["tags"] if tag and tag[0] == "d"), "")
        return event["pubkey"], kind, d
    return None


class StoreFile:
    """The stored events in an SQLite file (the standard library's
    ``sqlite3``), so that a relay started again on the same file has them:
    one row per stored event, in the order they arrived."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.db = sqlite3.connect(self.path, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS events "
                        "(n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL, event TEXT NOT NULL)")
        self.db.commit()

    def load(self) -> list[dict[str, Any]]:
        return [json.loads(text) for (text,) in self.db.execute("SELECT event FROM events ORDER BY n")]

    def add(self, event: dict[str, Any]) -> None:
        self.db.execute("INSERT OR IGNORE INTO events (id, event) VALUES (?, ?)",
                        (event["id"], json.dumps(event, separators=(",", ":"))))
        self.db.commit()

    def remove(self, eid: str) -> None:
        self.db.execute("DELETE FROM events WHERE id = ?", (eid,))
        self.db.commit()

    def close(self) -> None:
        self.db.close()


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
                 reject_all: bool = False, store: str | Path | None = None):
        self.verify = verify
        self.log_path = Path(log_path) if log_path is not None else None
        self.reject_all = reject_all
        self.clients: set[Client] = set()
        self.stored: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.addresses: dict[tuple[Any, ...], str] = {}   # address -> id of the event kept for it
        self.seen: OrderedDict[str, None] = OrderedDict()
        self._serial = itertools.count(1)
        if self.log_path is not None:
            open(self.log_path, "a").close()  # a bad path fails now, not at the first message
        self.store = StoreFile(store) if store is not None else None
        if self.store is not None:
            for event in self.store.load():
                self._store(event, persist=False)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

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
        if not self._store(event):
            self._send(client, ["OK", eid, False, "duplicate: have a newer event for this address"])
            return
        self._send(client, ["OK", eid, True, ""])
        for other in list(self.clients):
            for sub_id, filters in other.subs.items():
                if any(f.matches(event) for f in filters):
                    self._send(other, ["EVENT", sub_id, event])

    def _store(self, event: dict[str, Any], persist: bool = True) -> bool:
        """Keep ``event`` as relays do: ephemeral events are not stored, a
        regular one is (the last :data:`MAX_STORED`), a replaceable or
        addressable one replaces the event kept for its :func:`address`
        when it is newer (on equal ``created_at``, the lowest id stays).
        False when a newer event of its address is kept (it is dropped)."""
        eid = event["id"]
        where = address(event)
        if where is not None:
            old_id = self.addresses.get(where)
            old = self.stored.get(old_id) if old_id is not None else None
            if old is not None and (old["created_at"] > event["created_at"] or
                                    (old["created_at"] == event["created_at"] and old_id < eid)):
                return False
            if old is not None:
                del self.stored[old_id]
                if persist and self.store is not None:
                    self.store.remove(old_id)
            self.addresses[where] = eid
        self._remember(self.seen, eid)
        if event["kind"] in EPHEMERAL_KINDS:
            return True
        self.stored[eid] = event
        if persist and self.store is not None:
            self.store.add(event)
        if len(self.stored) > MAX_STORED:
            gone_id, gone = self.stored.popitem(last=False)
            if address(gone) is not None and self.addresses.get(address(gone)) == gone_id:
                del self.addresses[address(gone)]
            if self.store is not None:
                self.store.remove(gone_id)
        return True

    @staticmethod
    def _remember(seen: OrderedDict[str, None], key: str) -> None:
        seen[key] = None
        if len(seen) > MAX_STORED:
            seen.popitem(last=False)

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
                log_path: str | Path | None = None, reject_all: bool = False,
                store: str | Path | None = None) -> tuple[Server, int]:
    """Start a relay in the running event loop: the websockets server (close
    it with ``server.close()`` and ``await server.wait_closed()``, then
    ``server.relay.close()`` to close its store file) and the port it
    listens on (the one the OS chose, for port 0).  ``store``: the SQLite
    file that keeps the stored events across restarts (None: in memory)."""
    relay = Relay(verify=verify, log_path=log_path, reject_all=reject_all, store=store)
    try:
        server = await ws_serve(relay.handler, host, port, max_size=HARD_FRAME_BYTES)
    except BaseException:
        relay.close()
        raise
    server.relay = relay  # type: ignore[attr-defined]
    return server, server.sockets[0].getsockname()[1]


def ws_url(host: str, port: int) -> str:
    """``ws://host:port``, with brackets around an IPv6 address."""
    return f"ws://[{host}]:{port}" if ":" in host else f"ws://{host}:{port}"


class RelayThread:
    """A relay running in a background thread with its own event loop, for
    tests that are not async themselves::

        with RelayThread(log_path=tmp / "relay.log") as relay:
            ...connect to relay.url...

    ``store``: the SQLite file of the stored events (see :func:`serve`);
    :meth:`restart` stops the relay and starts it again on the same port,
    keeping or losing what it stored.  ``relay.relay`` is the running
    :class:`Relay` (read its ``stored`` events once the clients are done).
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, verify: bool = True,
                 log_path: str | Path | None = None, reject_all: bool = False,
                 store: str | Path | None = None):
        self.host = host
        self.port = port
        self.store = Path(store) if store is not None else None
        self.relay: Relay | None = None
        self._options: dict[str, Any] = {"verify": verify, "log_path": log_path,
                                         "reject_all": reject_all, "store": self.store}
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return ws_url(self.host, self.port)

    def start(self) -> "RelayThread":
        self._ready.clear()
        self._error = None
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
        self.relay = server.relay  # type: ignore[attr-defined]
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._ready.set()
        await self._stopping.wait()
        server.close()
        await server.wait_closed()
        server.relay.close()  # type: ignore[attr-defined]

    def restart(self, keep_store: bool = True) -> "RelayThread":
        """Stop, then start again on the same port: with ``keep_store`` and a
        store file the stored events are back; otherwise the relay starts
        empty (its store file, if any, is deleted)."""
        self.stop()
        if not keep_store and self.store is not None:
            self.store.unlink(missing_ok=True)
        return self.start()

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
                               log_path=args.log, reject_all=args.reject_all, store=args.store)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    print(f"Relay listening on {ws_url(args.host, port)}", flush=True)
    await stopping.wait()
    server.close()
    await server.wait_closed()
    server.relay.close()  # type: ignore[attr-defined]


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
    parser.add_argument("--store", metavar="FILE",
                        help="keep the stored events in FILE (SQLite), so that a restart keeps "
                             "them (default: in memory, lost when the relay stops)")
    parser.add_argument("--reject-all", action="store_true",
                        help="refuse every event (to test a relay that will not carry the game)")
    args = parser.parse_args(argv)
    try:
        asyncio.run(_run(args))
    except (OSError, sqlite3.Error) as exc:  # the address is taken, a file cannot be written
        sys.exit(f"nostr_relay: {exc}")


if __name__ == "__main__":
    main()
