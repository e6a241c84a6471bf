"""Shared pytest fixtures and helpers.

Engine tests (tests/engine/) need none of this; everything browser-related is
lazy, so pure-Python runs never start a server or a browser.

Browser tests (tests/browser/, automatically marked ``browser``) get:

``site`` (session)
    A :class:`DevServer` (scripts/devserver.py) running in a thread on a free
    port, serving the repository root under ``/domino/`` like GitHub Pages.
    ``site.url`` is e.g. ``http://127.0.0.1:PORT/domino/``; ``site.origin`` has
    no path; ``site.request_paths()`` lists every path requested so far;
    ``site.clear_requests()`` empties that log; ``site.stop()`` / ``site.start()``
    take the site down and bring it back on the same port (offline tests).
    Stopping is undone automatically after each test that uses ``page``.

``page`` (function)
    pytest-playwright's page, in a fresh context, guarded: every request the
    page (or its workers) makes to anything other than the local server origin
    is recorded in ``external_requests`` and fails the test at teardown.

``fresh_page`` (function)
    The same as ``page``, for a module that made ``page`` the shared one.

``external_requests`` (function)
    The list behind that guard, for explicit asserts inside a test.

``app`` (function) and ``restart(page, query="", stored=None)``
    The ONE booted page of this worker (its own context), shared by the
    tests that need no fresh boot.  Before each test the app starts again in
    it through the session (``window.dominoReset``, domino/browser.py's
    ``reset``: computers and network stopped, the path's localStorage keys
    removed, the URL's query set, a fresh Session on its first screen), the
    viewport is 1280x720 (or ``app_context_args``'s) and no media is emulated.
    A module may override ``app_context_args`` (a phone's viewport, touch):
    each set of args has its own shared page.  ``restart`` does the same
    inside a test with the test's query ("?delay=0&seed=5") and optional
    stored {key: text} (a saved match to load).  The same guard as ``page``
    fails a test whose requests leave the local server.  After a failed test,
    a .py-error, the rescue screen, a closed page or anything unexpected, the
    page is thrown away and the next test boots a fresh one.

``wait_ready`` / ``assert_no_py_error`` (fixtures returning the helpers)
    ``wait_ready(page)`` waits for ``html[data-ready="1"]`` (60 s by default);
    ``assert_no_py_error(page)`` fails if PyScript rendered a ``.py-error``.
    Also importable as plain functions from this module.

Chromium is the one chosen by scripts/find_browser.py (Playwright-managed if
installed, else /usr/bin/chromium; $DOMINO_CHROMIUM overrides), launched with
``--js-flags=--liftoff-only`` unless $DOMINO_TEST_JS_FLAGS says otherwise.
"""
from __future__ import annotations

import json
import os
import warnings
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
BROWSER_DIR = Path(__file__).resolve().parent / "browser"

sys.path.insert(0, str(REPO_ROOT / "scripts"))
from devserver import DevServer  # noqa: E402
from find_browser import LAUNCH_ARGS, find_chromium, logging_wrapper  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "engine"))   # the engine tests' helpers.py
from outcomes import FAILED, did_fail  # noqa: E402,F401  (did_fail: for the browser tests)
# a page's renderer that died fails its test as RendererCrashed, with the browser's last words, and the
# test runs once more (pyproject.toml): the hooks of tests/crashes.py
from crashes import chromium_log, pytest_runtest_call, pytest_runtest_setup  # noqa: E402,F401

READY_SELECTOR = 'html[data-ready="1"]'
READY_TIMEOUT_MS = 60_000

# URL schemes that never reach the network.
_LOCAL_SCHEMES = ("data:", "blob:", "about:", "chrome-extension:")


# --------------------------------------------------------------------- helpers
def wait_ready(page, timeout_ms: int = READY_TIMEOUT_MS) -> None:
    """Wait until the app signals readiness with html[data-ready="1"].

    On timeout, the failure message includes any PyScript error text shown.
    """
    try:
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=timeout_ms)
    except Exception as exc:
        errors = _py_error_texts(page)
        raise AssertionError(
            f"page not ready within {timeout_ms} ms; py-errors: {errors or 'none'}"
        ) from exc


def _py_error_texts(page) -> list[str]:
    try:
        return page.locator(".py-error").all_inner_texts()
    except Exception:
        return ["<could not read .py-error elements>"]


def assert_no_py_error(page) -> None:
    """Fail if PyScript rendered an error box (.py-error) into the page."""
    errors = _py_error_texts(page)
    assert not errors, "PyScript error(s) on page:\n" + "\n---\n".join(errors)


# -------------------------------------------------------------------- markers
def pytest_collection_modifyitems(config, items):
    for item in items:
        if BROWSER_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


# $DOMINO_TIMELINE=FILE: one JSON line per test (worker, test, start, end), for scripts/suite_timeline.py
_TIMELINE = os.environ.get("DOMINO_TIMELINE")


def pytest_runtest_logstart(nodeid, location):
    if _TIMELINE:
        _timeline_write({"test": nodeid, "start": __import__("time").time()})


def pytest_runtest_logfinish(nodeid, location):
    if _TIMELINE:
        _timeline_write({"test": nodeid, "end": __import__("time").time()})


def _timeline_write(row: dict) -> None:
    row["worker"] = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(_TIMELINE, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")




@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember a failed setup or call (the shared page is then thrown away)."""
    outcome = yield
    if outcome.get_result().failed:
        item.stash[FAILED] = True


# ------------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def site():
    """The repository served under /domino/ on a free local port."""
    server = DevServer(root=str(REPO_ROOT), port=0, prefix="/domino/")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch our Chromium (see find_browser.py) with CI-friendly flags."""
    executable = find_chromium()
    if not executable:
        pytest.fail("no Chromium found: run scripts/setup")
    args = list(browser_type_launch_args.get("args") or [])
    args += [a for a in LAUNCH_ARGS if a not in args]
    # Liftoff only (no optimising tier-up of the runtime's WebAssembly): a
    # page boot costs ~8 s of CPU instead of ~11 s (the tier-up compiles in
    # background threads that a 2-core machine running two workers cannot
    # spare), and a 31-test sample ran 11 % faster.  The same code runs,
    # only its machine code differs.  DOMINO_TEST_JS_FLAGS="" turns it off.
    js_flags = os.environ.get("DOMINO_TEST_JS_FLAGS", "--liftoff-only")
    if js_flags:
        args.append("--js-flags=" + js_flags)
    log = chromium_log("chromium")
    wrapper = logging_wrapper(log.with_suffix(".sh"), [executable], log)
    return {**browser_type_launch_args, "executable_path": wrapper, "args": args}


@pytest.fixture
def browser_context_args(browser_context_args):
    """Service workers are blocked unless a test module allows them (the
    offline and update tests do): installing one costs every test ~1 s."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture
def external_requests(site):
    """URLs of requests that did not go to the local server (should stay empty)."""
    return []


@pytest.fixture
def page(context, site, external_requests):
    """A guarded page: any request leaving the local server fails the test."""
    yield from _guarded_page(context, site, external_requests)


@pytest.fixture
def fresh_page(context, site, external_requests):
    """The same as ``page``, under another name: a page of its own for the
    tests that need a fresh boot in a module whose ``page`` is the shared one."""
    yield from _guarded_page(context, site, external_requests)


def _guarded_page(context, site, external_requests):
    origin = site.origin + "/"

    def on_request(request):
        url = request.url
        if not (url.startswith(origin) or url.startswith(_LOCAL_SCHEMES)):
            external_requests.append(url)

    context.on("request", on_request)
    pg = context.new_page()
    yield pg
    if not site.running:  # a test took the site offline: bring it back for the next one
        site.start()
    assert not external_requests, f"requests left the local server: {external_requests}"


@pytest.fixture(name="wait_ready")
def _wait_ready_fixture():
    return wait_ready


@pytest.fixture(name="assert_no_py_error")
def _assert_no_py_error_fixture():
    return assert_no_py_error


# ------------------------------------------------------------ the shared page
FIRST_SCREEN = '[data-testid="new-game"]'
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}


def restart(page, query: str = "", stored: dict | None = None) -> None:
    """Start the app again in ``page`` (no reload) with ``query`` and
    ``stored`` in localStorage, and wait until it is idle."""
    page.evaluate("([q, s]) => window.dominoReset(q, s)", [query, stored])
    page.wait_for_function("document.documentElement.dataset.busy === '0'", timeout=30_000)
    assert_no_py_error(page)


BOOT_FACTS = """() => ({
    rescue: (document.querySelector('[data-testid="boot-error"]') || {}).innerText || null,
    boot_js_ran: !!window.dominoBoot, builder: !!window.dominoTree,
    boot_js: performance.getEntriesByType("resource").filter(e => /static\\/boot\\.js/.test(e.name))
        .map(e => ({status: e.responseStatus, bytes: e.transferSize, body: e.decodedBodySize,
                    ms: Math.round(e.duration)}))})"""


def boot_failure(page) -> dict | None:
    """The facts of a boot that ended on the rescue screen (None when the app is up): its words,
    whether static/boot.js ran and handed over the page's builder, and how boot.js was fetched."""
    facts = page.evaluate(BOOT_FACTS)
    return facts if facts["rescue"] else None


def goto_booted(page, url: str) -> None:
    """``page.goto(url)`` and wait until the app is ready.  Seen rarely on the network namespace's phones:
    a first boot that ends on the rescue screen (static/boot.js did not run); it is reported, with its
    facts, as a warning, and the page is loaded once more, which must boot."""
    page.goto(url)
    wait_ready(page)
    failed = boot_failure(page)
    if failed is not None:
        warnings.warn(f"a boot ended on the rescue screen, loaded again: {failed}")
        page.reload()
        wait_ready(page)
        assert boot_failure(page) is None, boot_failure(page)


def app_is_healthy(page) -> bool:
    """The app is up in ``page``, with no error box and no rescue screen,
    and can start again in place (a page to share with the next test)."""
    if page is None or page.is_closed():
        return False
    try:
        return bool(page.evaluate("""() => document.documentElement.dataset.ready === '1'
            && !document.documentElement.dataset.rescue
            && !document.querySelector('.py-error')
            && typeof window.dominoReset === 'function'"""))
    except Exception:
        return False


class SharedPage:
    """One worker's booted page for one set of context args, its context and the guard's list."""

    def __init__(self, context_args: dict):
        self.context_args = {"service_workers": "block", "viewport": DEFAULT_VIEWPORT, **context_args}
        self.context = None
        self.page = None
        self.external: list[str] = []

    def close(self) -> None:
        if self.context is not None:
            try:
                self.context.close()
            except Exception:
                pass
        self.context = self.page = None

    def boot(self, browser, site) -> None:
        self.close()
        origin = site.origin + "/"
        self.context = browser.new_context(**self.context_args)

        def on_request(request):
            url = request.url
            if not (url.startswith(origin) or url.startswith(_LOCAL_SCHEMES)):
                self.external.append(url)

        self.context.on("request", on_request)
        self.page = self.context.new_page()
        self.page.goto(site.url + "?delay=0")
        wait_ready(self.page)

    def healthy(self) -> bool:
        return app_is_healthy(self.page)

    def fresh_start(self) -> bool:
        """Back to the first screen in the default viewport; False if it did not work."""
        pg = self.page
        try:
            pg.set_viewport_size(self.context_args["viewport"])
            pg.emulate_media(media="null", color_scheme="null", reduced_motion="null", forced_colors="null")
            pg.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")   # also what is not the app's
            restart(pg)
            pg.wait_for_selector(FIRST_SCREEN, timeout=5_000)
            return pg.evaluate("location.hash") == "" and self.healthy()
        except Exception:
            return False


@pytest.fixture
def app_context_args() -> dict:
    """The shared page's context args (a module overrides this for a phone:
    each set of args has a shared page of its own)."""
    return {}


@pytest.fixture(scope="session")
def _shared_pages():
    pages: dict[str, SharedPage] = {}
    yield pages
    for shared in pages.values():
        shared.close()


@pytest.fixture
def app(request, browser, site, _shared_pages, app_context_args):
    """The worker's shared page, started again on its first screen (see the module docstring)."""
    key = json.dumps(app_context_args, sort_keys=True)
    shared = _shared_pages.setdefault(key, SharedPage(app_context_args))
    if not shared.healthy() or not shared.fresh_start():
        shared.boot(browser, site)
        assert shared.fresh_start(), "the shared page did not start again on its first screen"
    shared.external.clear()
    yield shared.page
    if not site.running:
        site.start()
    if did_fail(request.node) or len(shared.context.pages) != 1 or not shared.healthy():
        shared.close()   # a failure, a tab left open, an error: the next test boots a fresh page
    assert not shared.external, f"requests left the local server: {shared.external}"
