"""Which test failed, for the fixtures that share a browser between tests.

A plain module (not a conftest): every conftest is imported as `conftest`, so a
test module that says `from conftest import ...` gets whichever conftest was
imported last (tests/engine/conftest.py in a full run).  Shared helpers live in
modules with names of their own; tests/conftest.py records the outcome.
"""
from __future__ import annotations

import pytest

FAILED = pytest.StashKey[bool]()


def did_fail(item) -> bool:
    """The test's setup or call failed (its shared pages are not to be trusted)."""
    return item.stash.get(FAILED, False)
