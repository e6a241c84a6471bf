"""A Nostr relay on the test network, for the "Play over the internet" tests.

Pages in the network namespace of netns.py find each other through Nostr
relays (Trystero); public relays are out of reach there, so these tests run
scripts/nostr_relay.py inside the namespace, listening on the namespace's
veth address (198.18.X.1), which is not loopback: the page reaches it the way
it would reach a relay on another computer.

``NsRelay(ns, port=7447, host=None, reject_all=False)``
    ``.start()`` runs ``ip netns exec NS python scripts/nostr_relay.py --host H
    --port P --log FILE`` and waits for its "Relay listening on" line;
    ``.url`` (``ws://198.18.X.1:7447``); ``.log()`` the relay's log lines so
    far (see scripts/nostr_relay.py's ``Relay``); ``.events()`` the event
    objects it received (accepted or not); ``.peers()`` the IP addresses that
    connected; ``.stop()`` (idempotent). A context manager too. The log stays
    readable after ``stop()``, until the object is collected.

Fixture (import it into the test module with ``netns``:
``from relay import ns_relay``):

``ns_relay`` (function)
    A started :class:`NsRelay` in the session's namespace on port 7447,
    stopped at teardown.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from netns import first_line

if TYPE_CHECKING:
    from netns import NetNs

REPO_ROOT = Path(__file__).resolve().parents[2]
RELAY_SCRIPT = REPO_ROOT / "scripts" / "nostr_relay.py"
START_TIMEOUT_S = 15
STOP_TIMEOUT_S = 5


class NsRelay:
    """scripts/nostr_relay.py running inside a :class:`netns.NetNs`."""

    def __init__(self, ns: NetNs, port: int = 7447, *, host: str | None = None,
                 reject_all: bool = False):
        self.ns = ns
        self.host = host or ns.address
        self.port = port
        self.reject_all = reject_all
        self._tmp = tempfile.TemporaryDirectory(prefix="domino-relay-")
        self.log_path = Path(self._tmp.name) / "relay.log"
        self.stderr_path = Path(self._tmp.name) / "relay.stderr"
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}"

    def start(self) -> NsRelay:
        if self._proc is not None:
            raise RuntimeError("the relay is already running")
        argv = [sys.executable, str(RELAY_SCRIPT), "--host", self.host,
                "--port", str(self.port), "--log", str(self.log_path)]
        if self.reject_all:
            argv.append("--reject-all")
        with open(self.stderr_path, "wb") as stderr:
            self._proc = subprocess.Popen(self.ns.exec_argv(*argv), cwd=str(REPO_ROOT),
                                          stdout=subprocess.PIPE, stderr=stderr,
                                          stdin=subprocess.DEVNULL)
        try:
            self._wait_listening()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_listening(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        line = first_line(self._proc, START_TIMEOUT_S).decode(errors="replace").strip()
        if not line.startswith("Relay listening on ws://") or self._proc.poll() is not None:
            stderr = self.stderr_path.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"the relay did not start in {self.ns.name} on {self.url} "
                               f"within {START_TIMEOUT_S} s: stdout {line!r}, stderr: {stderr}")
        self.port = int(line.rsplit(":", 1)[1])  # the real one, for port 0

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=STOP_TIMEOUT_S)
        if proc.stdout:
            proc.stdout.close()

    def log(self) -> list[dict[str, Any]]:
        """The relay's log lines so far (a line still being written is left out)."""
        if not self.log_path.exists():
            return []
        records = []
        for line in self.log_path.read_text(encoding="utf-8").splitlines(keepends=True):
            if line.endswith("\n"):
                records.append(json.loads(line))
        return records

    def events(self) -> list[dict[str, Any]]:
        """The event objects of the EVENT messages the relay received."""
        return [r["msg"][1] for r in self.log()
                if r.get("dir") == "in" and isinstance(r["msg"], list)
                and len(r["msg"]) >= 2 and r["msg"][0] == "EVENT"]

    def peers(self) -> set[str]:
        """The IP addresses that connected to the relay."""
        return {r["peer"].rsplit(":", 1)[0].strip("[]") for r in self.log()
                if r.get("ev") == "connect"}

    def __enter__(self) -> NsRelay:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.fixture
def ns_relay(netns: NetNs):
    relay = NsRelay(netns).start()
    try:
        yield relay
    finally:
        relay.stop()
