"""A browser page whose renderer process died, told apart from a failing test.

Every Chromium the tests launch runs through :func:`find_browser.logging_wrapper`, its stderr kept in
``test-results/chromium/<worker>-<name>.log`` (:func:`chromium_log`).  A renderer that dies makes
Playwright's calls raise "Target crashed" (or "Page crashed"), whatever the test was waiting for;
this module's hooks (tests/conftest.py imports them) turn such a failure in a test's setup or call
into :class:`RendererCrashed`, whose message carries what the browsers printed last and the minidumps
Chromium's crash handler wrote, and pytest-rerunfailures runs that test once more (``--only-rerun
'^RendererCrashed: '`` in pyproject.toml).  A test that crashes its renderer twice still fails, and
every crash is also a warning, listed at the end of the run, so none passes unseen: a crash may be the
game's doing (the ones read so far were, through the runtime's stack switching: static/pyodide.mjs).
"""
from __future__ import annotations

import contextlib
import os
import time
import warnings
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
LOG_DIR = REPO_ROOT / "test-results" / "chromium"
MARKS = ("Target crashed", "Page crashed")
TAIL_LINES = 30
NOISE = ("dbus/",)   # what Chromium prints on every launch here, not worth a failure's lines
# where Chromium's crash handler (crashpad: its lines in the log read ".../cpufreq/...") keeps a minidump
DUMPS = Path.home() / ".config" / "chromium" / "Crash Reports" / "pending"
STARTED = time.time()

_LOGS: list[Path] = []        # this process's browsers' logs


class RendererCrashed(AssertionError):
    """A page's renderer process died during the test (the browser's last words in the message)."""


def chromium_log(name: str) -> Path:
    """An empty log file for one browser of this worker (``name``: what it is for)."""
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    path = LOG_DIR / f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{name}.log"
    path.write_bytes(b"")
    _LOGS.append(path)
    return path


def crash_line(exc: BaseException | None) -> str | None:
    """The first line of ``exc``, or of an exception it was raised from, that says a renderer died."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        for line in str(exc).splitlines():
            if any(mark in line for mark in MARKS):
                return line.strip()
        exc = exc.__cause__ or exc.__context__
    return None


def crashed(exc: BaseException | None) -> bool:
    """``exc``, or an exception it was raised from, says a renderer died."""
    return crash_line(exc) is not None


def logs_tail(lines: int = TAIL_LINES) -> str:
    """The last ``lines`` lines of each of this process's browser logs (the ones not empty)."""
    parts = []
    for path in _LOGS:
        try:
            text = [line for line in path.read_text(errors="replace").splitlines()
                    if not any(noise in line for noise in NOISE)]
        except OSError:
            continue
        if text:
            parts.append(f"--- {path.relative_to(REPO_ROOT)}\n" + "\n".join(text[-lines:]))
    try:
        dumps = [p.name for p in sorted(DUMPS.glob("*.dmp"), key=lambda p: p.stat().st_mtime)
                 if p.stat().st_mtime >= STARTED]
    except OSError:
        dumps = []
    if dumps:
        parts.append(f"--- minidumps written since this worker started, in {DUMPS}: {', '.join(dumps[-5:])}")
    return "\n".join(parts) or "(the browsers printed nothing)"


def renderer_crashed(exc: BaseException) -> RendererCrashed:
    """The :class:`RendererCrashed` to raise for ``exc``, also said as a warning."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    line = crash_line(exc)
    said = first if line == first else f"{line}; the test: {first}"
    error = RendererCrashed(f"a page's renderer process died ({said})\n{logs_tail()}")
    warnings.warn(str(error))
    return error


@contextlib.contextmanager
def _crashes_said():
    try:
        yield
    except Exception as exc:
        if crashed(exc):
            raise renderer_crashed(exc) from exc
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with _crashes_said():
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with _crashes_said():
        return (yield)
