"""A test whose page's renderer died is failed as RendererCrashed, said, and run once more; any other
failure is not (tests/crashes.py, the options in pyproject.toml)."""
from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

pytest_plugins = ["pytester"]

REPO_ROOT = Path(__file__).resolve().parent.parent
TESTS = """
import pathlib

RAN = pathlib.Path(__file__).with_name("ran-once")


def test_crashes_once():
    if not RAN.exists():
        RAN.write_text("1")
        raise RuntimeError("Page.wait_for_selector: Target crashed \\nCall log:\\n  - waiting for locator")


def test_crashes_twice():
    try:
        raise RuntimeError("Page.evaluate: Target crashed")
    except RuntimeError as exc:
        raise AssertionError("page not ready within 60000 ms") from exc


def test_fails_otherwise():
    assert 1 == 2
"""


def project_options() -> list[str]:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    return shlex.split(config["tool"]["pytest"]["ini_options"]["addopts"])


def test_the_project_reruns_a_test_once_when_its_renderer_died(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO_ROOT / "tests"))
    pytester.makepyfile(test_pages=TESTS)
    monkeypatch.setenv("COLUMNS", "300")
    result = pytester.runpytest_subprocess("-p", "crashes", *project_options())
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed") == 1, result.stdout.str()       # the crash once: run again, passed
    assert outcomes.get("failed") == 2, result.stdout.str()       # twice: still a failure; and the other
    assert outcomes.get("rerun") == 2, result.stdout.str()        # the plain failure was not run again
    out = result.stdout.str()
    assert "FAILED test_pages.py::test_crashes_twice - crashes.RendererCrashed: a page's renderer " \
           "process died (Page.evaluate: Target crashed; the test: page not ready within 60000 ms)" in out
    assert "FAILED test_pages.py::test_fails_otherwise - assert 1 == 2" in out
    assert out.count("a page's renderer process died") >= 3     # each crash is a warning too


def test_the_tests_know_the_crashes():
    assert "--only-rerun ^RendererCrashed: " in " ".join(project_options())
    conftest = (REPO_ROOT / "tests" / "conftest.py").read_text()
    assert "from crashes import chromium_log, pytest_runtest_call, pytest_runtest_setup" in conftest
