"""The page's side of a match kept on the relays, without a browser: phones (sessions) and one relay.

:class:`Mail` stands in for static/mailbox.js: it carries each device's ``mail-open``, ``mail-publish`` and
``mail-close`` commands to the project's relay (``scripts/nostr_relay.py``'s :class:`Relay`, its storage,
filters and live delivery, with the sockets taken out) and feeds the relay's answers back as the session's
inputs (``mail-event``, ``mail-eose``, ``mail-ok``).  A device can be closed (its subscriptions gone) and
opened again on the same storage, as a phone's page is.
"""
from __future__ import annotations

import json

import nostr_relay  # tests/conftest.py puts scripts/ on sys.path

from domino.app.session import MemoryStore, Out, Session

BASE = "http://127.0.0.1:8000/domino/"
RELAY = "ws://127.0.0.1:7447"


class Wall:
    """The phones' wall clock (seconds since the epoch), moved forward by the test."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class _Relay(nostr_relay.Relay):
    def __init__(self, mail: "Mail"):
        super().__init__()
        self.mail = mail

    def _send(self, client, message) -> None:
        self.mail.from_relay(client, json.loads(json.dumps(message)))


class Mail:
    """Devices and the relay between them."""

    def __init__(self):
        self.wall = Wall()
        self.relay = _Relay(self)
        self.devices: dict[str, Session] = {}
        self.stores: dict[str, MemoryStore] = {}
        self.clients: dict[str, nostr_relay.Client] = {}
        self.queue: list[tuple[str, dict]] = []
        self.serial = 0
        self.published: list[tuple[str, dict]] = []     # (device, event) as sent

    def open(self, name: str, join: str | None = None) -> Session:
        """A device's page opened (again): a new session on its storage."""
        self.close(name)
        store = self.stores.setdefault(name, MemoryStore())
        s = Session(store, "/domino/", params={"url": BASE, "join": join, "delay": "0"})
        s.wall = self.wall
        self.devices[name] = s
        self.serial += 1
        self.clients[name] = nostr_relay.Client(self.serial, None, name)
        self.relay.clients.add(self.clients[name])
        self.run(name, s.load_game())
        return s

    def close(self, name: str) -> None:
        """The page is closed: its connections to the relay too."""
        client = self.clients.pop(name, None)
        if client is not None:
            self.relay.clients.discard(client)
        self.devices.pop(name, None)

    def tap(self, name: str, **inp) -> None:
        self.run(name, self.devices[name].handle(inp))

    def run(self, name: str, out: Out) -> None:
        for cmd in out.net:
            self.command(name, cmd)
        self.drain()

    def drain(self) -> None:
        while self.queue:
            name, inp = self.queue.pop(0)
            s = self.devices.get(name)
            if s is not None:
                out = s.handle(inp)
                for cmd in out.net:
                    self.command(name, cmd)

    def command(self, name: str, cmd: dict) -> None:
        client = self.clients.get(name)
        if client is None or not cmd["op"].startswith("mail-"):
            return
        if cmd["op"] == "mail-open":
            assert cmd["relays"] == [RELAY], cmd["relays"]
            self.relay.receive(client, json.dumps(["REQ", cmd["sub"], *cmd["filters"]]))
        elif cmd["op"] == "mail-close":
            self.relay.receive(client, json.dumps(["CLOSE", cmd["sub"]]))
        elif cmd["op"] == "mail-publish":
            for text in cmd["events"]:
                self.published.append((name, json.loads(text)))
                self.relay.receive(client, json.dumps(["EVENT", json.loads(text)]))

    def from_relay(self, client, message: list) -> None:
        name = client.peer
        if message[0] == "EVENT":
            self.queue.append((name, {"action": "mail-event", "sub": message[1], "relay": RELAY,
                                      "text": json.dumps(message[2])}))
        elif message[0] == "EOSE":
            self.queue.append((name, {"action": "mail-eose", "sub": message[1], "relay": RELAY}))
        elif message[0] == "OK":
            self.queue.append((name, {"action": "mail-ok", "relay": RELAY, "id": message[1], "ok": message[2],
                                      "message": message[3]}))


def with_relay(store: MemoryStore) -> None:
    """A phone whose settings use the test's relay."""
    store.set("domino:/domino/:settings", json.dumps({"relays": [RELAY]}))
