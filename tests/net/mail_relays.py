"""Relays for the mailbox's tests (tests/net/test_mailbox*.py), all with one interface:
``publish(events) -> [(accepted, message)]``, ``fetch(filters) -> [event]``,
``restart(keep_store)``.

- :class:`MemoryRelay`: in the test's own process, no socket; it keeps
  events with the project relay's rules (``nostr_relay.address``: the newer
  event of an address replaces the older) and checks ids and signatures.
- :class:`WsRelay`: a real relay over websockets, one connection per call
  (the small CPython driver the mailbox needs: its state machines do no IO).
- :class:`ProjectRelay`: scripts/nostr_relay.py in a thread (RelayThread) with
  a store file.  :class:`PypiRelay`: PyPI's ``nostr-relay`` (1.14, with
  SQLite) in a process of its own.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from domino import players
from domino.engine.match import HUMAN
from domino.net import nostr
from domino.net.mailbox import MailGuest, MailHost, Receipt, match_filters
from nostr_relay import RelayThread, address, parse_filter   # tests/conftest.py puts scripts/ on sys.path

import aio

TIMEOUT_S = 10


class MemoryRelay:
    """A relay's storage rules without the network."""

    def __init__(self) -> None:
        self.events: dict[tuple, dict] = {}      # address (or ("id", id)) -> event
        self.published = 0

    def publish(self, events: list[dict]) -> list[tuple[bool, str]]:
        out = []
        for e in events:
            self.published += 1
            problem = nostr.check_event(e)
            if problem:
                out.append((False, f"invalid: {problem}"))
                continue
            key = address(e) or ("id", e["id"])
            old = self.events.get(key)
            if old is not None and old["id"] == e["id"]:
                out.append((False, "duplicate: already have this event"))
                continue
            if old is not None and (old["created_at"] > e["created_at"] or
                                    (old["created_at"] == e["created_at"] and old["id"] < e["id"])):
                out.append((False, "duplicate: have a newer event for this address"))
                continue
            self.events[key] = e
            out.append((True, ""))
        return out

    def fetch(self, filters: list[dict]) -> list[dict]:
        parsed = [parse_filter(f) for f in filters]
        return sorted((e for e in self.events.values() if any(f.matches(e) for f in parsed)),
                      key=lambda e: (-e["created_at"], e["id"]))

    def restart(self, keep_store: bool = True) -> None:
        if not keep_store:
            self.events.clear()


class WsRelay:
    """Publish and fetch over websockets, a connection per call."""

    def __init__(self, url: str):
        self.url = url

    def publish(self, events: list[dict]) -> list[tuple[bool, str]]:
        async def main():
            out = []
            async with connect(self.url, max_size=2**22) as ws:
                for e in events:
                    await ws.send(json.dumps(["EVENT", e]))
                    while True:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT_S))
                        if reply[0] == "OK" and reply[1] == e["id"]:
                            out.append((reply[2], reply[3]))
                            break
            return out
        return aio.run(main()) if events else []

    def fetch(self, filters: list[dict]) -> list[dict]:
        async def main():
            got = []
            async with connect(self.url, max_size=2**22) as ws:
                await ws.send(json.dumps(["REQ", "mail", *filters]))
                while True:
                    reply = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT_S))
                    if reply[0] == "EOSE":
                        return got
                    assert reply[0] == "EVENT", reply
                    got.append(reply[2])
        return aio.run(main())


class ProjectRelay(WsRelay):
    """scripts/nostr_relay.py (RelayThread) with an SQLite store file."""

    name = "project"

    def __init__(self, tmp: Path):
        self.thread = RelayThread(store=tmp / "relay.sqlite").start()
        super().__init__(self.thread.url)

    def restart(self, keep_store: bool = True) -> None:
        self.thread.restart(keep_store)

    def close(self) -> None:
        self.thread.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


NOSTR_RELAY_CONFIG = """\
DEBUG: false
relay_name: domino tests
storage:
  sqlalchemy.url: sqlite+aiosqlite:///{db}
  validators:
    - nostr_relay.validators.is_not_too_large
    - nostr_relay.validators.is_signed
    - nostr_relay.validators.is_recent
gunicorn:
  bind: 127.0.0.1:{port}
  workers: 1
  loglevel: warning
  reload: false
  control_socket_disable: true
authentication:
  enabled: false
"""


def nostr_relay_command() -> Path | None:
    """PyPI nostr-relay's command beside this Python (None: not installed)."""
    path = Path(sys.executable).parent / "nostr-relay"
    return path if path.exists() else None


class PypiRelay(WsRelay):
    """PyPI's ``nostr-relay`` (``nostr-relay -c CFG serve``, SQLite), in a
    process group of its own (stopped by its id)."""

    name = "nostr-relay"

    def __init__(self, tmp: Path):
        self.dir = tmp
        self.db = tmp / "nostr-relay.sqlite3"
        self.port = free_port()
        self.config = tmp / "nostr-relay.yaml"
        self.config.write_text(NOSTR_RELAY_CONFIG.format(db=self.db, port=self.port))
        self.proc: subprocess.Popen | None = None
        super().__init__(f"ws://127.0.0.1:{self.port}")
        self.start()

    def start(self) -> None:
        cmd = nostr_relay_command()
        assert cmd is not None
        self.log = open(self.dir / "nostr-relay.log", "ab")
        self.proc = subprocess.Popen([str(cmd), "-c", str(self.config), "serve"], cwd=self.dir,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nostr-relay exited: {(self.dir / 'nostr-relay.log').read_text()[-2000:]}")
            try:
                self.fetch([{"ids": ["0" * 64]}])
                return
            except (OSError, asyncio.TimeoutError, Exception):   # noqa: BLE001 - not up yet
                time.sleep(0.2)
        raise RuntimeError("nostr-relay did not answer a REQ within 30 s")

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self.proc = None
        self.log.close()

    def restart(self, keep_store: bool = True) -> None:
        self.close()
        if not keep_store:
            for p in self.dir.glob("nostr-relay.sqlite3*"):
                p.unlink()
        self.start()



# ------------------------------------------------------------------ a table
def choice(view: dict) -> dict:
    """A person's decision, from the seat's view alone (deterministic)."""
    return players.get_player("easy")(view, random.Random(view["seq"]))


class MailTable:
    """A host and its friends' seats, each reaching the others only through
    ``relay`` and the mailbox: every round, each side fetches its events,
    reads them, decides when it is its turn, and publishes its outbox.
    ``clock``: the time the sides are given (``skew`` is added: a test moves
    it forward)."""

    def __init__(self, relay: Any, kinds: list[str], seed: int = 3, clock=time.time, game: str = "draw"):
        self.relay = relay
        self.clock = clock
        self.skew = 0.0
        settings = {"game": game, "players": len(kinds), "options": {},
                    "seats": [{"kind": k, "name": f"P{i}"} for i, k in enumerate(kinds)]}
        self.host, self.tickets = MailHost.create(settings, seed, now=self.now)
        self.guests = {s: MailGuest(t) for s, t in self.tickets.items()}
        self.refused: list[tuple[str, Receipt]] = []
        self.acted: dict[int, int] = {}
        self.publish(self.host.outbox(self.now))

    @property
    def now(self) -> float:
        return self.clock() + self.skew

    def publish(self, events: list[dict]) -> None:
        for ok, message in self.relay.publish(events):
            assert ok or message.startswith("duplicate:"), message

    def host_round(self, act: bool = True) -> None:
        h = self.host
        for e in self.relay.fetch(h.filters()):
            r = h.receive(e, self.now)
            if not r.accepted and r.reason != "replay":
                self.refused.append(("host", r))
        seat = h.waiting_for()
        if act and seat is not None and h.m.seats[seat]["kind"] == HUMAN:
            h.act(choice(h.m.view(seat)), self.now)
        self.publish(h.outbox(self.now))

    def guest_round(self, seat: int, act: bool = True) -> None:
        g = self.guests[seat]
        for e in self.relay.fetch(g.filters()):
            r = g.receive(e, self.now)
            if not r.accepted and r.reason != "replay":
                self.refused.append((f"seat {seat}", r))
        v = g.view
        if act and v is not None and v["phase"] == "play" and v["turn"] == seat and g.applied:
            g.act(choice(v), self.now)
            self.acted[seat] = self.acted.get(seat, 0) + 1
        self.publish(g.outbox(self.now))

    def round(self, act: bool = True) -> None:
        self.host_round(act)
        for s in sorted(self.guests):
            self.guest_round(s, act)

    def settle(self) -> None:
        """A round where nobody decides: the host reads what was sent, the seats read its views."""
        self.round(act=False)

    def restart_host(self) -> None:
        """The host's device starts from nothing but its key, the match id and the relays."""
        old = self.host
        events = self.relay.fetch(match_filters(old.match))
        self.host = MailHost.rebuild(old.secret, old.match, events, self.now)
        for e in events:      # what the old one would have made of the same events
            old.receive(e, self.now)
        assert self.host.m.state_key() == old.m.state_key()
        assert self.host.rev >= old.rev - 1

    def restart_guest(self, seat: int) -> None:
        """A friend's device starts from nothing but its ticket and the relays."""
        old = self.guests[seat]
        self.guests[seat] = g = MailGuest.rebuild(self.tickets[seat], self.relay.fetch(old.filters()), self.now)
        assert g.view == old.view and g.rev == old.rev

    def play_hand(self, restart_at: int | None = None, limit: int = 300) -> int:
        """Rounds until the hand being played is over (a new one is dealt or
        the match ends); at round ``restart_at`` every side restarts."""
        hand = self.host.m.hand_no
        rounds = 0
        while self.host.m.hand_no == hand and not self.host.m.finished:
            if rounds == restart_at:
                self.restart_host()
                for s in self.guests:
                    self.restart_guest(s)
            self.round()
            rounds += 1
            assert rounds < limit, "the hand does not end"
        self.settle()
        return rounds
