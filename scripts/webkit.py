#!/usr/bin/env python3
"""WebKit (the engine of every iPhone browser) for the tests and benchmarks.

Debian's ``webkit2gtk-driver`` package (WebKitGTK) ships ``WebKitWebDriver``
and the ``MiniBrowser`` it drives; Selenium's WebKitGTK driver talks to it.
WebKitGTK has no headless mode: it draws into an X display, here a private
``Xvfb`` (Debian's ``xvfb``) started on a free display number (``-displayfd``:
the X server picks the number and says it once it accepts clients, so two test
workers never clash).  ``scripts/setup`` installs both packages.

    with Xvfb() as display, webkit_driver(display) as driver:
        driver.get(url)

Each driver is a new automation session of MiniBrowser: an ephemeral profile
(empty HTTP cache, storage and service workers), like a first visit.

Run as a script it prints the WebKitWebDriver path (exit 0) or exits 1.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import select
import shutil
import subprocess
import sys
import time

WEBDRIVER = "WebKitWebDriver"
WINDOW = (1280, 800)


try:   # resolved now, not in the child between fork and exec (where a lock may be held)
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):
    _PRCTL = None


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the process that started it dies (a killed
    test run leaves no X server or browser behind)."""
    if _PRCTL is not None:
        _PRCTL(1, 15)   # PR_SET_PDEATHSIG, SIGTERM


def find_webkit_driver() -> str | None:
    """WebKitWebDriver's path ($DOMINO_WEBKIT_DRIVER overrides), or None."""
    override = os.environ.get("DOMINO_WEBKIT_DRIVER")
    if override and os.path.isfile(override):
        return override
    return shutil.which(WEBDRIVER)


class Xvfb:
    """A private X display: ``with Xvfb() as display`` gives ":N"."""

    def __init__(self, size: tuple[int, int] = (1400, 1000), timeout_s: float = 30):
        self.size, self.timeout_s = size, timeout_s
        self.proc: subprocess.Popen | None = None
        self.display: str | None = None

    def start(self) -> str:
        exe = shutil.which("Xvfb")
        if not exe:
            raise RuntimeError("Xvfb not found: run scripts/setup (Debian's xvfb)")
        read, write = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [exe, "-displayfd", str(write), "-screen", "0", f"{self.size[0]}x{self.size[1]}x24",
                 "-nolisten", "tcp", "-noreset"],
                pass_fds=(write,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True, preexec_fn=_die_with_parent)
            os.close(write)
            write = -1
            number = b""
            deadline = time.monotonic() + self.timeout_s
            while not number.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([read], [], [], left)[0]:
                    raise RuntimeError(f"Xvfb did not report its display within {self.timeout_s} s")
                chunk = os.read(read, 16)
                if not chunk:
                    raise RuntimeError(f"Xvfb exited (code {self.proc.poll()}) before reporting its display")
                number += chunk
        except BaseException:
            self.stop()
            raise
        finally:
            os.close(read)
            if write >= 0:
                os.close(write)
        self.display = ":" + number.decode().strip()
        return self.display

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def browser_env(display: str, jsc_options: str = "") -> dict:
    """The environment of WebKitWebDriver and MiniBrowser: the private display, X11
    (never a Wayland session the caller may have), no accessibility bus, and
    JavaScriptCore options ("useOMGJIT=false ..." -> JSC_useOMGJIT=false: JSC reads
    its options from JSC_* variables)."""
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY",)}
    env.update({"DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"})
    for option in jsc_options.split():
        name, _, value = option.partition("=")
        env["JSC_" + name] = value
    return env


def new_driver(display: str, *, log_path: str | None = None, timeout_s: float = 120, jsc_options: str = ""):
    """A Selenium WebKitGTK driver (a new MiniBrowser) on ``display``.

    Its page-load strategy is "none": get() and refresh() return at once and the
    caller waits for what it needs (``navigate`` waits for the new document).  With "eager" or
    "normal", WebKitWebDriver holds every command until the page has loaded, and
    the game's page finishes loading only once the runtime has started (its main
    thread compiles the wasm and starts Python, 10 s and more): measured here, in two
    boots of three a command sent during the boot waited out the whole page-load timeout.
    Any command still waits while the page's main thread is busy (a script cannot
    run then), so ``timeout_s`` is generous.  ``jsc_options``: see ``browser_env``."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    exe = find_webkit_driver()
    if not exe:
        raise RuntimeError("WebKitWebDriver not found: run scripts/setup (Debian's webkit2gtk-driver)")
    options = Options()
    options.page_load_strategy = "none"
    service = Service(executable_path=exe, env=browser_env(display, jsc_options),
                      log_output=log_path if log_path else subprocess.DEVNULL,
                      popen_kw={"preexec_fn": _die_with_parent})
    driver = webdriver.WebKitGTK(options=options, service=service)
    try:
        driver.set_script_timeout(timeout_s)
        driver.set_page_load_timeout(timeout_s)
        driver.set_window_size(*WINDOW)
    except Exception:
        driver.quit()
        raise
    return driver


NEW_DOCUMENT = "return !window.__wkOld && document.readyState !== 'loading'"


def navigate(driver, go, what: str, timeout_s: float = 60) -> None:
    """``go()`` (driver.get(url) or driver.refresh), then wait until the new document is
    parsed (with the page-load strategy "none", get() returns before it exists)."""
    try:
        driver.execute_script("window.__wkOld = 1")
    except Exception:
        pass
    go()
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            if driver.execute_script(NEW_DOCUMENT):
                return
        except Exception:   # between documents
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"WebKit: {what} was not parsed within {timeout_s} s")
        time.sleep(0.02)


@contextlib.contextmanager
def webkit_driver(display: str, **kwargs):
    driver = new_driver(display, **kwargs)
    try:
        yield driver
    finally:
        driver.quit()


if __name__ == "__main__":
    found = find_webkit_driver()
    if not found:
        print("no WebKitWebDriver found", file=sys.stderr)
        sys.exit(1)
    print(found)
