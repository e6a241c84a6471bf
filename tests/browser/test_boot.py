"""The app boots under /domino/ from local files only.

Deliberately independent of what main.py does: it only relies on the
html[data-ready="1"] contract, the absence of PyScript errors and the absence
of requests outside the local server.
"""
from __future__ import annotations

import time


def test_index_boots_offline_capable(page, site, external_requests, wait_ready, assert_no_py_error):
    site.clear_requests()
    page.goto(site.url + "index.html")
    wait_ready(page)
    assert_no_py_error(page)
    assert external_requests == []
    paths = site.request_paths()
    assert paths, "the server saw no request"
    outside = [p for p in paths if not p.startswith(site.prefix)]
    assert outside == [], f"requests outside {site.prefix}: {outside}"
    # The runtime really came from the vendored copy.
    assert any(p.endswith("/static/vendor/pyodide/pyodide.asm.wasm") for p in paths), paths


WASM = "/static/vendor/pyodide/pyodide.asm.wasm"


def test_the_runtimes_wasm_is_asked_for_before_pyscript_starts_and_once(page, site, wait_ready,
                                                                       assert_no_py_error):
    """static/first.js asks for the runtime's 10 MB wasm as the page starts (the runtime's own loader
    gets to it only once PyScript and Pyodide are loaded), and static/pyodide.mjs hands that response
    to the runtime: with PyScript's core.js held back, the wasm's request still reaches the server;
    once up, the runtime has not asked for it again."""
    seen = {}

    def hold(route):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(p.endswith(WASM) for p in site.request_paths()):
            time.sleep(0.05)
        seen["wasm before core.js"] = any(p.endswith(WASM) for p in site.request_paths())
        route.continue_()

    site.clear_requests()
    page.route("**/static/vendor/pyscript/core.js", hold)
    page.goto(site.url + "index.html")
    wait_ready(page)
    assert seen == {"wasm before core.js": True}
    assert sum(p.endswith(WASM) for p in site.request_paths()) == 1, site.request_paths()
    assert page.evaluate("window.dominoWasm") is None     # handed over
    assert_no_py_error(page)
