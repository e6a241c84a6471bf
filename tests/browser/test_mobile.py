"""On a phone (Playwright's "Pixel 7": viewport, touch, is_mobile): a full hand
is played with taps, and nothing needed for play lies outside the screen, in
portrait and in landscape."""
from __future__ import annotations

import pytest

from pwa_helpers import PLAYABLE, play_hand, start_vs_computer

NEEDED = {  # what must be on screen while playing
    "hand tiles": '.hand button[data-tile]',
    "board": '[data-testid="board"] svg',
    "scores": '[data-testid="scores"]',
}


@pytest.fixture
def browser_context_args(browser_context_args, playwright):
    device = dict(playwright.devices["Pixel 7"])
    device.pop("default_browser_type", None)
    return {**browser_context_args, **device}


def _offscreen(page) -> list[str]:
    vw, vh = page.evaluate("[innerWidth, innerHeight]")
    bad = []
    for name, selector in NEEDED.items():
        loc = page.locator(selector)
        n = loc.count()
        assert n, f"{name} ({selector}) not found"
        for i in range(n):
            box = loc.nth(i).bounding_box()
            if box is None:
                bad.append(f"{name}[{i}] not rendered")
                continue
            if (box["x"] < -1 or box["y"] < -1 or box["x"] + box["width"] > vw + 1
                    or box["y"] + box["height"] > vh + 1):
                bad.append(f"{name}[{i}] {box} outside {vw}x{vh}")
    if page.evaluate("document.documentElement.scrollWidth > innerWidth + 1"):
        bad.append("the page scrolls sideways")
    return bad


def _tap(loc) -> None:
    loc.scroll_into_view_if_needed()
    loc.tap()


def _check_and_play(page, orientation: str) -> None:
    # Check where things are once the human has a tile to play, then play it out.
    page.wait_for_selector(f'{PLAYABLE}, [data-testid="hand-result"]', timeout=20_000)
    if page.locator('[data-testid="hand-result"]').count() == 0:
        assert _offscreen(page) == [], orientation
    play_hand(page, tap=_tap)


def test_phone_portrait_and_landscape(page, site, wait_ready, assert_no_py_error):
    assert page.evaluate("navigator.maxTouchPoints") > 0
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    assert vh > vw, "Pixel 7 starts in portrait"
    page.goto(site.url + "index.html?seed=11&delay=0")
    wait_ready(page)
    start_vs_computer(page)
    _check_and_play(page, "portrait")
    assert_no_py_error(page)

    page.set_viewport_size({"width": vh, "height": vw})
    nxt = page.locator('[data-testid="next-hand"]')
    if nxt.count() and nxt.first.is_visible():
        _tap(nxt.first)
        page.wait_for_selector('[data-testid="hand-result"]', state="detached", timeout=20_000)
        _check_and_play(page, "landscape")
    else:  # the match ended in one hand: start another, in landscape
        page.goto(site.url + "index.html?seed=12&delay=0")
        wait_ready(page)
        start_vs_computer(page)
        _check_and_play(page, "landscape")
    assert_no_py_error(page)
