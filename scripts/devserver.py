#!/usr/bin/env python3
"""Static development server that mimics GitHub Pages for this repository.

The repository root is served under a sub-path (default ``/domino/``), the way
GitHub Pages serves a project site, so any absolute ("/static/...") URL in the
app breaks here exactly as it would in production. Anything outside the prefix
is a 404, and so are dot-folders (.git, .venv, ...) and node_modules/, which
are not published either.

Usage:  python3 scripts/devserver.py [--port 8000] [--host 127.0.0.1] [--prefix /domino/]

Also importable: tests/conftest.py and scripts/bench_boot.py use ``DevServer``
to run it in a background thread, with a log of every request path.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import os
import socket
import threading
import urllib.parse

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".toml": "application/toml; charset=utf-8",
    ".py": "text/x-python; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    "": "application/octet-stream",
}

# Path components that GitHub Pages would not publish from this repository.
HIDDEN_COMPONENTS = {"node_modules"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = MIME_TYPES
    server_version = "domino-devserver"
    protocol_version = "HTTP/1.1"

    # Set per server via functools.partial-like subclassing in DevServer.
    prefix = "/domino/"
    cache_control = "no-cache"
    request_log: list[str] | None = None
    log_lock: threading.Lock | None = None
    quiet = True

    def _record(self) -> None:
        if self.request_log is not None:
            with self.log_lock:
                self.request_log.append(self.path)

    def _route(self) -> bool:
        """Return True when the request may be served from disk."""
        path = urllib.parse.urlsplit(self.path).path
        if path == self.prefix.rstrip("/") or path == "/":
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if not path.startswith(self.prefix):
            self.send_error(404, "outside " + self.prefix)
            return False
        parts = [p for p in urllib.parse.unquote(path[len(self.prefix):]).split("/") if p]
        if any(p.startswith(".") or p in HIDDEN_COMPONENTS for p in parts):
            self.send_error(404, "not published")
            return False
        return True

    def translate_path(self, path: str) -> str:
        path = urllib.parse.urlsplit(path).path
        rest = path[len(self.prefix) - 1:] if path.startswith(self.prefix) else "/"
        return super().translate_path(rest)

    def do_GET(self) -> None:  # noqa: N802
        self._record()
        if self._route():
            super().do_GET()

    def do_HEAD(self) -> None:  # noqa: N802
        self._record()
        if self._route():
            super().do_HEAD()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", self.cache_control)
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


class _ThreadingServer(http.server.ThreadingHTTPServer):
    """ThreadingHTTPServer that can drop its open keep-alive connections."""

    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, *args, **kwargs):
        self._conns: set[socket.socket] = set()
        self._conns_lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address):
        with self._conns_lock:
            self._conns.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        with self._conns_lock:
            self._conns.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        with self._conns_lock:
            conns = list(self._conns)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class DevServer:
    """A restartable threaded static server for the repository.

    ``requests`` lists every request path received (including query strings),
    in order, across restarts. ``stop()`` closes the socket (the site becomes
    unreachable, e.g. for offline tests); ``start()`` serves again on the same
    port, so URLs stay valid.
    """

    def __init__(self, root: str = REPO_ROOT, *, host: str = "127.0.0.1", port: int = 0,
                 prefix: str = "/domino/", cache_control: str = "no-cache", quiet: bool = True):
        if not (prefix.startswith("/") and prefix.endswith("/")):
            raise ValueError("prefix must start and end with '/'")
        self.root = os.path.abspath(root)
        self.host = host
        self.port = port
        self.prefix = prefix
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self._handler = type("Handler", (_Handler,), {
            "prefix": prefix,
            "cache_control": cache_control,
            "request_log": self.requests,
            "log_lock": self._lock,
            "quiet": quiet,
        })
        self._httpd: _ThreadingServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def url(self) -> str:
        """Base URL of the site, e.g. http://127.0.0.1:8000/domino/"""
        return self.origin + self.prefix

    @property
    def running(self) -> bool:
        return self._httpd is not None

    def start(self) -> "DevServer":
        if self._httpd is not None:
            return self
        handler = functools.partial(self._handler, directory=self.root)
        httpd = _ThreadingServer((self.host, self.port), handler)
        self.port = httpd.server_address[1]
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="devserver", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
            httpd.close_connections()  # so that keep-alive clients see it go away
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def clear_requests(self) -> None:
        with self._lock:
            self.requests.clear()

    def request_paths(self) -> list[str]:
        """Snapshot of the request log (thread-safe)."""
        with self._lock:
            return list(self.requests)

    def __enter__(self) -> "DevServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    ap.add_argument("--prefix", default="/domino/")
    ap.add_argument("--cache-control", default="no-cache",
                    help="Cache-Control header (GitHub Pages sends max-age=600)")
    ap.add_argument("--quiet", action="store_true", help="do not log requests")
    args = ap.parse_args(argv)
    server = DevServer(host=args.host, port=args.port, prefix=args.prefix,
                       cache_control=args.cache_control, quiet=args.quiet)
    server.start()
    print(f"Serving {server.root} at {server.url}  (Ctrl-C to stop)", flush=True)
    try:
        server._thread.join()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
