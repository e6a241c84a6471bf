"""The app boots under /domino/ from local files only.

Deliberately independent of what main.py does: it only relies on the
html[data-ready="1"] contract, the absence of PyScript errors and the absence
of requests outside the local server.
"""


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
