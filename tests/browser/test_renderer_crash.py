"""A page's renderer that dies is known as such, with the browser's last words (tests/crashes.py):
every Chromium of the tests keeps its stderr in a log."""
from __future__ import annotations

import time

import pytest

from crashes import RendererCrashed, crashed, renderer_crashed


def test_a_dead_renderer_is_told_with_the_browsers_last_words(browser):
    context = browser.new_context()
    try:
        page = context.new_page()
        with pytest.raises(Exception):
            page.goto("chrome://crash", timeout=10_000)     # the renderer kills itself
        with pytest.raises(Exception) as info:
            page.wait_for_selector("html[data-ready]", timeout=5_000)
        assert crashed(info.value), info.value
        deadline = time.monotonic() + 10
        while True:
            with pytest.warns(UserWarning, match="renderer process died"):
                error = renderer_crashed(info.value)
            if "Intentionally crashing" in str(error) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert isinstance(error, RendererCrashed)
        assert "Target crashed" in str(error)
        assert "Intentionally crashing" in str(error), str(error)    # the renderer's own words, from the log
        assert "dbus" not in str(error)
    finally:
        context.close()


def test_a_live_page_is_not_a_crash(page):
    with pytest.raises(Exception) as info:
        page.wait_for_selector("html[data-never]", timeout=200)
    assert not crashed(info.value)


def test_the_runtime_runs_python_on_the_pages_own_stack(app):
    """No WebAssembly stack switching (static/pyodide.mjs): on a switched stack, Chromium's frame-pointer
    walk read past the stack's end and the tab died (the minidumps of the friends' tests' crashes).  The
    runtime was started with JSPI hidden, then JSPI was given back to the page as it was."""
    facts = app.evaluate("""async () => {
        const m = await import('./static/pyodide.mjs');
        return {attr: document.documentElement.dataset.jspi, jspi: m.loaded._module.jspiSupported,
                back: 'Suspending' in WebAssembly}; }""")
    assert facts == {"attr": "off", "jspi": False, "back": True}, facts
    app.locator('[data-testid="new-game"]').wait_for()       # and the game answers (Python from JS events)
