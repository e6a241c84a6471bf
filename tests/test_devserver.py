"""scripts/devserver.py behaves like GitHub Pages serving the repo under /domino/."""
import http.client
import urllib.error
import urllib.request

import pytest


def _get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, b""


@pytest.fixture
def server():
    from devserver import DevServer  # tests/conftest.py puts scripts/ on sys.path
    s = DevServer(port=0).start()
    yield s
    s.stop()


@pytest.mark.parametrize("path, mime", [
    ("index.html", "text/html"),
    ("pyscript.toml", "application/toml"),
    ("main.py", "text/x-python"),
    ("package.json", "application/json"),
    ("static/favicon.svg", "image/svg+xml"),
])
def test_mime_types(server, path, mime):
    status, headers, body = _get(server.url + path)
    assert status == 200 and body
    assert headers["Content-Type"].split(";")[0] == mime


def test_vendor_mime_types(server):
    import os
    from devserver import REPO_ROOT
    if not os.path.isdir(os.path.join(REPO_ROOT, "static/vendor/pyodide")):
        pytest.skip("runtime not vendored (run scripts/setup)")
    for path, mime in [("static/vendor/pyodide/pyodide.asm.wasm", "application/wasm"),
                       ("static/vendor/pyodide/pyodide.mjs", "text/javascript"),
                       ("static/vendor/pyodide/python_stdlib.zip", "application/zip"),
                       ("static/vendor/pyodide/pyodide-lock.json", "application/json")]:
        status, headers, _ = _get(server.url + path)
        assert status == 200, path
        assert headers["Content-Type"].split(";")[0] == mime, path


def test_only_the_prefix_is_served(server):
    assert _get(server.origin + "/index.html")[0] == 404
    assert _get(server.url + ".git/HEAD")[0] == 404
    assert _get(server.url + "node_modules/pyodide/package.json")[0] == 404
    assert _get(server.url + "no-such-file.txt")[0] == 404
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    conn.request("GET", "/domino")
    r = conn.getresponse()
    assert r.status == 301 and r.getheader("Location") == "/domino/"
    conn.close()
    assert server.request_paths()[:1] == ["/index.html"]


def test_stop_and_start_keep_the_url(server):
    url = server.url
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    conn.request("GET", "/domino/index.html")
    assert conn.getresponse().read()
    server.stop()
    assert not server.running
    with pytest.raises(OSError):
        urllib.request.urlopen(url + "index.html", timeout=5)
    with pytest.raises((OSError, http.client.HTTPException)):  # keep-alive connection dropped
        conn.request("GET", "/domino/index.html")
        conn.getresponse().read()
    server.start()
    assert server.url == url
    assert _get(url + "index.html")[0] == 200
