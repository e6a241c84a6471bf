"""Browsers on a private network: a Linux network namespace for WebRTC tests.

Chromium gathers no ICE candidate on loopback alone, and its mDNS queries
(for the "<uuid>.local" names it puts in candidates to hide addresses) must
never reach the machine's real network. So WebRTC tests run everything inside
a network namespace of their own:

* ``domino-rtc-<pid>-<n>`` (pytest-xdist workers have their own pid), with a
  veth pair inside it: ``v0`` 198.18.X.1/24 (X from the pid; 198.18.0.0/15 is
  the benchmarking range, never routed) and ``v1`` its peer, both up, lo up,
  default route via v0. Multicast (mDNS) sent on v0 comes back to the
  namespace and goes nowhere else. ``ipv6=True`` adds fd00:198:18:X::1/64 and an
  IPv6 default route (then Chromium gathers an IPv6 candidate too).
* the site, ``scripts/devserver.py`` run with ``ip netns exec`` as a
  subprocess, on 127.0.0.1:8000 *inside* the namespace (the namespace is new,
  so the port is always free);
* Chromium (scripts/find_browser.py, with its LAUNCH_ARGS) through a small
  wrapper script, ``exec ip netns exec NS chromium "$@"``, given to Playwright
  as the executable: Playwright drives the browser over a pipe, which the
  namespace does not affect.

Fixtures (import them into the test module: ``from netns import netns,
netns_browser, phones``):

``netns`` (session)
    A :class:`NetNs`: ``.name``, ``.url`` (http://127.0.0.1:8000/domino/),
    ``.origin``, ``.launch(playwright)`` for another browser process in it,
    ``.timings`` (seconds taken by each setup step). Skips the test when the
    namespace cannot be made (not root, no ``ip``, no veth support).
``netns_browser`` (session)
    A Playwright Browser running in the namespace.
``phones`` (function)
    ``phones.new(path="static/bench/rtc-probe.html", browser=None)`` opens a
    page in a new context ("a phone") at ``netns.url + path``, guarded like the
    ``page`` fixture of tests/conftest.py: any request to anything but the
    site's origin fails the test at teardown (``phones.external`` lists them),
    and so does a websocket to anything but the relays in ``phones.relays``
    (``phones.sockets`` lists every websocket opened).  After a failed test,
    every page it opened is written to ``test-results/failed/<test>/``
    (:func:`dump_pages`: a screenshot, the text, the root's data attributes,
    the stored keys and the page's last console lines).

Teardown kills the server and deletes the namespace, also after a failure;
namespaces left by a run that was killed (their pid is gone) are deleted at
the next setup.
"""
from __future__ import annotations

import itertools
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from outcomes import did_fail

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "scripts"))
from find_browser import LAUNCH_ARGS, find_chromium, logging_wrapper  # noqa: E402
from crashes import chromium_log  # noqa: E402

PREFIX = "domino-rtc-"
PORT = 8000
SERVER_START_TIMEOUT_S = 20
_LOCAL_SCHEMES = ("data:", "blob:", "about:", "chrome-extension:")
_serial = itertools.count(1)


class NetNsUnavailable(RuntimeError):
    """The namespace could not be made here (the tests skip)."""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if check and proc.returncode:
        raise NetNsUnavailable(f"`ip {' '.join(args)}` failed: {proc.stderr.strip() or proc.returncode}")
    return proc


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def first_line(proc: subprocess.Popen, timeout: float) -> bytes:
    """What a child process printed on stdout until its first line ended, it
    exited, or ``timeout`` seconds passed (a server saying it listens)."""
    deadline = time.monotonic() + timeout
    out = b""
    while time.monotonic() < deadline and b"\n" not in out:
        ready, _, _ = select.select([proc.stdout], [], [], 0.1)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            out += chunk
        elif proc.poll() is not None:
            break
    return out


def remove_stale() -> list[str]:
    """Delete namespaces of ours whose test process is gone (a killed run)."""
    removed = []
    out = _ip("netns", "list", check=False).stdout
    for line in out.splitlines():
        name = line.split()[0] if line.strip() else ""
        m = re.fullmatch(re.escape(PREFIX) + r"(\d+)-\d+", name)
        if m and not _pid_alive(int(m.group(1))):
            _ip("netns", "delete", name, check=False)
            removed.append(name)
    return removed


class NetNs:
    """A network namespace with a veth pair, the site served in it, and a way
    to launch Chromium in it. Use as a context manager or call
    :meth:`start` / :meth:`stop`."""

    def __init__(self, *, ipv6: bool = False, serve: bool = True):
        n = next(_serial)
        self.name = f"{PREFIX}{os.getpid()}-{n}"
        self.octet = (os.getpid() + n) % 254 + 1
        self.address = f"198.18.{self.octet}.1"
        self.address6 = f"fd00:198:18:{self.octet:x}::1" if ipv6 else None
        self.ipv6 = ipv6
        self.serve = serve
        self.origin = f"http://127.0.0.1:{PORT}"
        self.url = self.origin + "/domino/"
        self.timings: dict[str, float] = {}
        self._created = False
        self._server: subprocess.Popen | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix="domino-netns-")
        self.server_log = Path(self._tmp.name) / "server.log"
        self.wrapper: str | None = None

    # ----------------------------------------------------------- lifecycle
    def start(self) -> "NetNs":
        if os.name != "posix" or not sys.platform.startswith("linux"):
            raise NetNsUnavailable("network namespaces need Linux")
        if os.geteuid() != 0:
            raise NetNsUnavailable("network namespaces need root (run the tests as root)")
        if not shutil.which("ip"):
            raise NetNsUnavailable("no `ip` command (iproute2)")
        t0 = time.perf_counter()
        remove_stale()
        try:
            self._create()
            self.timings["namespace"] = time.perf_counter() - t0
            if self.serve:
                t1 = time.perf_counter()
                self._start_server()
                self.timings["server"] = time.perf_counter() - t1
            self.wrapper = self._write_wrapper()
        except BaseException:
            self.stop()
            raise
        return self

    def _create(self) -> None:
        _ip("netns", "add", self.name)
        self._created = True
        ns = ("-n", self.name)
        _ip(*ns, "link", "add", "v0", "type", "veth", "peer", "name", "v1")
        # No IPv6 link-local address of the kernel's making: its duplicate address detection ends a
        # second or two after the link is up, and Chromium, already started by then, takes that
        # address change for a network change and fails every request in flight with
        # ERR_NETWORK_CHANGED (a page's boot hung on it).  The namespace is settled before anyone starts.
        for dev in ("v0", "v1"):
            _ip(*ns, "link", "set", dev, "addrgenmode", "none")
        _ip(*ns, "addr", "add", f"{self.address}/24", "dev", "v0")
        if self.address6:
            _ip(*ns, "addr", "add", f"{self.address6}/64", "dev", "v0", "nodad")
        for dev in ("lo", "v0", "v1"):
            _ip(*ns, "link", "set", dev, "up")
        _ip(*ns, "route", "add", "default", "via", self.address, "dev", "v0")
        if self.address6:
            _ip(*ns, "-6", "route", "add", "default", "dev", "v0")
        self._settle()

    def _settle(self, timeout: float = 10.0) -> None:
        """Wait until both ends of the pair are up with no address still tentative (a namespace that
        never settles fails the test that asked for it: it is no reason to skip)."""
        deadline = time.monotonic() + timeout
        while True:
            links = _ip("-n", self.name, "-o", "link", "show").stdout.splitlines()
            addrs = _ip("-n", self.name, "-o", "addr", "show").stdout
            up = [line for line in links if (" v0@" in line or " v1@" in line) and "state UP" in line]
            if len(up) == 2 and "tentative" not in addrs:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the namespace's links did not settle in {timeout:.0f} s:\n"
                                   + "\n".join(links) + f"\n{addrs}")
            time.sleep(0.05)

    def exec_argv(self, *argv: str) -> list[str]:
        """The command line running ``argv`` inside the namespace."""
        return ["ip", "netns", "exec", self.name, *argv]

    def _start_server(self) -> None:
        log = open(self.server_log, "wb")
        try:
            self._server = subprocess.Popen(
                self.exec_argv(sys.executable, str(REPO_ROOT / "scripts" / "devserver.py"),
                               "--host", "127.0.0.1", "--port", str(PORT), "--quiet"),
                cwd=str(REPO_ROOT), stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL)
        finally:
            log.close()
        # devserver prints "Serving ... at URL" once its socket listens
        line = first_line(self._server, SERVER_START_TIMEOUT_S)
        if b"Serving" not in line or self._server.poll() is not None:
            raise RuntimeError(f"the site did not start in {self.name}: {line!r} "
                               f"{self.server_log.read_text(errors='replace')[-2000:]}")

    def _write_wrapper(self) -> str:
        chromium = find_chromium()
        if not chromium:
            raise RuntimeError("no Chromium found: run scripts/setup")
        # Chromium in the namespace only, its stderr kept (tests/crashes.py)
        return logging_wrapper(Path(self._tmp.name) / "chromium-in-netns", self.exec_argv(chromium),
                               chromium_log(self.name))

    def launch(self, playwright, **kwargs):
        """A Chromium (Playwright Browser) running inside the namespace."""
        if not self.wrapper:
            raise RuntimeError("namespace not started")
        args = list(kwargs.pop("args", []))
        args += [a for a in LAUNCH_ARGS if a not in args]
        t0 = time.perf_counter()
        browser = playwright.chromium.launch(executable_path=self.wrapper, args=args, **kwargs)
        self.timings.setdefault("browser", time.perf_counter() - t0)
        return browser

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            if server.poll() is None:
                server.terminate()
                try:
                    server.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(timeout=5)
            if server.stdout:
                server.stdout.close()
        if self._created:
            _ip("netns", "delete", self.name, check=False)
            self._created = False
        self._tmp.cleanup()

    def __enter__(self) -> "NetNs":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def start_or_skip(**kwargs) -> NetNs:
    """A started :class:`NetNs`, or pytest.skip with the reason it cannot be."""
    ns = NetNs(**kwargs)
    try:
        return ns.start()
    except NetNsUnavailable as exc:
        pytest.skip(f"no network namespace for the WebRTC tests: {exc}")


class Phones:
    """Pages in fresh contexts of browsers running in the namespace."""

    def __init__(self, ns: NetNs, browser):
        self.ns = ns
        self.browser = browser
        self.external: list[str] = []
        self.sockets: list[str] = []      # every websocket a page opened
        self.relays: set[str] = set()     # the ones it may open (play over the internet's relays)
        self._contexts = []

    def _guard(self, request) -> None:
        url = request.url
        if not (url.startswith(self.ns.origin + "/") or url.startswith(_LOCAL_SCHEMES)):
            self.external.append(url)

    def new(self, path: str = "static/bench/rtc-probe.html", browser=None):
        context = (browser or self.browser).new_context(service_workers="block")
        context.on("request", self._guard)
        self._contexts.append(context)
        page = context.new_page()
        page.on("websocket", self._socket)
        keep_console(page)
        if path is not None:
            page.goto(self.ns.url + path)
        return page

    def _socket(self, ws) -> None:
        self.sockets.append(ws.url)
        if ws.url.rstrip("/") not in self.relays:
            self.external.append(ws.url)

    def close(self) -> None:
        for context in self._contexts:
            try:
                context.close()
            except Exception:
                pass
        self._contexts.clear()


# ------------------------------------------------------------------ fixtures
@pytest.fixture(scope="session")
def netns():
    ns = start_or_skip()
    try:
        yield ns
    finally:
        ns.stop()


@pytest.fixture(scope="session")
def netns_browser(netns, playwright):
    browser = netns.launch(playwright)
    try:
        yield browser
    finally:
        browser.close()


CONSOLE_LINES = 400      # the last console lines kept per page, for a failed test's dump


def keep_console(page) -> None:
    """The page's console (and uncaught errors) kept on it, the last :data:`CONSOLE_LINES`, for :func:`dump_pages`."""
    lines: list[str] = []
    page.domino_console = lines

    def add(text: str) -> None:
        lines.append(f"{time.strftime('%H:%M:%S')} {text}")
        del lines[:-CONSOLE_LINES]

    page.on("console", lambda m: add(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: add(f"pageerror: {e}"))


def dump_pages(pages: dict, test_name: str) -> Path:
    """Each page (name -> page) as it was when ``test_name`` failed, under test-results/failed/: what a
    flaky failure on a loaded machine leaves to read.  A page that cannot be read is skipped."""
    out = REPO_ROOT / "test-results" / "failed" / re.sub(r"[^A-Za-z0-9_.-]+", "_", test_name)[:150]
    out.mkdir(parents=True, exist_ok=True)
    for name, page in pages.items():
        try:
            if page.is_closed():
                continue
            page.screenshot(path=str(out / f"{name}.png"), full_page=True, timeout=5_000)
            facts = page.evaluate("""() => ({url: location.href, data: Object.assign({}, document.documentElement.dataset),
                text: document.body ? document.body.innerText : '',
                stored: Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))})""")
        except Exception as e:          # a crashed or closing page: say so, go on
            (out / f"{name}.txt").write_text(f"unreadable: {e}\n", encoding="utf-8")
            continue
        console = "\n".join(getattr(page, "domino_console", []))
        (out / f"{name}.txt").write_text(
            f"url: {facts['url']}\ndata: {facts['data']}\n\n{facts['text']}\n\n--- console\n{console}\n",
            encoding="utf-8")
        (out / f"{name}.stored.json").write_text(json.dumps(facts["stored"], indent=1),
                                                 encoding="utf-8")
    return out


@pytest.fixture
def phones(request, netns, netns_browser):
    p = Phones(netns, netns_browser)
    try:
        yield p
    finally:
        if did_fail(request.node):
            pages = {f"phone{i}-{j}": pg for i, c in enumerate(p._contexts) for j, pg in enumerate(c.pages)}
            roles = getattr(p, "by_role", None)
            pages.update((role, pg) for role, pg in (roles.pages.items() if roles is not None else ()))
            dump_pages(pages, request.node.nodeid)
        p.close()
    assert not p.external, f"requests left the local server: {p.external}"
