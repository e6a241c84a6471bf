"""Helpers shared by the offline / mobile / update tests (test_offline.py,
test_mobile.py, test_update.py). They only use the UI's documented test hooks:

<html data-ready="1" data-busy data-seq>, ?seed=N, ?delay=0, hand tiles
<button data-tile="a-b"> (aria-disabled="true" when not playable), places
[data-action="end"] after a tap, data-testid: new-game, start, game, players,
seat-kind-<i>, handoff, hand-result, next-hand.
"""
from __future__ import annotations

import time

PLAYABLE = 'button[data-tile]:not([aria-disabled="true"]):not([disabled])'

# Counts navigator.storage.persist() calls (window.__persistCalls).
PERSIST_SPY = """
(() => {
  if (!self.StorageManager || !StorageManager.prototype.persist) return;
  const orig = StorageManager.prototype.persist;
  StorageManager.prototype.persist = function () {
    window.__persistCalls = (window.__persistCalls || 0) + 1;
    return orig.call(this);
  };
})();
"""


def wait_controlled(page, timeout_ms: int = 60_000) -> None:
    """Wait until the service worker controls the page (its precache is complete)."""
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=timeout_ms)


def sw_version(page) -> str | None:
    """The precache version of the controlling service worker."""
    return page.evaluate("""() => new Promise((resolve) => {
        const sw = navigator.serviceWorker.controller;
        if (!sw) return resolve(null);
        const ch = new MessageChannel();
        ch.port1.onmessage = (e) => resolve(e.data.version);
        sw.postMessage({type: "GET_VERSION"}, [ch.port2]);
        setTimeout(() => resolve(null), 5000);
    })""")


def _visible(page, selector: str) -> bool:
    loc = page.locator(selector)
    return loc.count() > 0 and loc.first.is_visible()


def start_vs_computer(page, timeout_ms: int = 20_000) -> None:
    """From the new-game screen: a 2-player Draw game, seat 1 a computer."""
    page.wait_for_selector('[data-testid="new-game"]', timeout=timeout_ms)
    page.select_option('[data-testid="game"]', "draw")
    page.select_option('[data-testid="players"]', "2")
    page.select_option('[data-testid="seat-kind-1"]', index=1)  # the first computer level
    page.locator('[data-testid="start"]').click()
    page.wait_for_selector('[data-testid="board"]', timeout=timeout_ms)  # the game screen


def hand_tiles(page) -> list[str]:
    return page.eval_on_selector_all(
        '.hand button[data-tile]',
        "els => els.map(e => e.getAttribute('data-tile'))")


def step(page, tap) -> str | None:
    """Make one move if the human may move.

    Returns "over" when the hand has ended, the selector tapped, or None."""
    if _visible(page, '[data-testid="hand-result"]'):
        return "over"
    if page.evaluate("document.documentElement.dataset.busy") == "1":
        return None
    for selector in ('[data-testid="handoff-continue"]', '[data-action="end"]', PLAYABLE,
                     '[data-action="open"]', '[data-testid="draw"]'):
        loc = page.locator(selector)
        if loc.count() and loc.first.is_visible():
            tap(loc.first)
            return selector
    return None


_CHANGED = """([seq, endsToo]) => {
    const d = document;
    return d.documentElement.dataset.seq !== seq
        || !!d.querySelector('[data-testid="hand-result"]')
        || (endsToo && !!d.querySelector('[data-action="end"]'));
}"""


def play_hand(page, *, tap=None, timeout_s: float = 90) -> int:
    """Keep tapping a playable tile (and a [data-action="end"] target) until the hand ends.

    Returns the number of taps made."""
    tap = tap or (lambda loc: loc.click())
    taps = 0
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        seq = page.evaluate("document.documentElement.dataset.seq")
        done = step(page, tap)
        if done == "over":
            return taps
        if done:
            taps += 1
        try:  # wait for the move to land, a target to appear, or the computer's reply
            page.wait_for_function(_CHANGED, arg=[seq, done == PLAYABLE], timeout=2_000)
        except Exception:
            pass
    raise AssertionError("the hand did not end in time")
