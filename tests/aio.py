"""Run a coroutine to its end from a test, whatever the test's thread holds.

A worker that ran a browser test holds Playwright's sync API, whose event loop
stays set as the thread's running loop: ``asyncio.run`` then refuses ("cannot
be called from a running event loop"), so a CPython test that calls it passes
or fails by which tests the worker ran before it (xdist's work stealing).
:func:`run` runs the coroutine on a thread of its own, with a loop of its own.
``tests/test_layers.py`` keeps every test on it."""
from __future__ import annotations

import asyncio
import threading
from typing import Any


def run(coro: Any, timeout: float | None = None) -> Any:
    """``asyncio.run(coro)`` on a fresh thread (``timeout``: seconds, asyncio.wait_for's); its result, or
    its exception raised here."""
    box: dict = {}

    def main() -> None:
        try:
            box["value"] = asyncio.run(asyncio.wait_for(coro, timeout) if timeout is not None else coro)
        except BaseException as e:   # noqa: BLE001 - handed to the test's thread
            box["error"] = e

    t = threading.Thread(target=main, name="tests-aio", daemon=True)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")
