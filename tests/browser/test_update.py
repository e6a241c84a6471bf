"""A new deployment: the page offers "update available - reload" and, once
clicked, runs only the new version (new worker, new cache, old cache gone).

The second build is a temporary copy of the site with a changed index.html,
served by a second DevServer on the same origin (same port), as a deploy
would replace the files behind the same URL.
"""
from __future__ import annotations

import pytest

import shutil
import sys
from pathlib import Path

from pwa_helpers import sw_version, wait_controlled

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import build_precache  # noqa: E402
from devserver import DevServer  # noqa: E402

MARKER = '<meta name="test-build" content="2">\n'   # no inline script: the page has a CSP
BUILD = "(document.querySelector('meta[name=test-build]') || {}).content"


def _second_build(dest: Path) -> Path:
    """The site as the setup step would publish it, with one changed app file."""
    for rel in build_precache.collect(ROOT) + [build_precache.SERVICE_WORKER, "pyscript.toml"]:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    index = dest / "index.html"
    index.write_text(index.read_text(encoding="utf-8").replace("</head>", MARKER + "</head>", 1),
                     encoding="utf-8")
    assert build_precache.main(["--root", str(dest)]) == 0
    return dest


@pytest.fixture
def browser_context_args(browser_context_args):
    """This module tests the service worker: allow it."""
    return {**browser_context_args, "service_workers": "allow"}


def test_update_prompt_then_new_version_only(page, site, wait_ready, tmp_path):
    url = site.url + "index.html?seed=3&delay=0"
    page.goto(url)
    wait_ready(page)
    wait_controlled(page)
    v1 = sw_version(page)
    assert v1

    build2 = _second_build(tmp_path / "site")
    site.stop()
    second = DevServer(root=str(build2), port=site.port, prefix=site.prefix).start()
    try:
        page.evaluate("window.dominoSW.update()")
        button = page.locator('[data-testid="update-available"]')
        button.wait_for(state="visible", timeout=60_000)
        # Until the user agrees, the old version keeps running, untouched.
        assert page.evaluate(BUILD) is None
        assert sw_version(page) == v1
        # The new worker only fetched what changed: the runtime came from the old cache.
        fetched = second.request_paths()
        assert not [p for p in fetched if "/static/vendor/" in p], fetched

        with page.expect_navigation(timeout=30_000):
            button.click()
        page.wait_for_function(BUILD + " === '2'", timeout=30_000)
        wait_ready(page)
        v2 = sw_version(page)
        assert v2 and v2 != v1
        names = [n for n in page.evaluate("caches.keys()") if n.startswith("domino-")]
        assert names == [f"domino-{v2}"], names
        assert not page.locator('[data-testid="update-available"]').count()
    finally:
        second.stop()
        site.start()
