"""The page boots on the standard library as bytecode (static/pyodide.mjs,
scripts/build_stdlib.py), and on the runtime's own one when that is not usable.

What a boot imports from the standard library runs from .pyc compiled by this
very runtime (nothing is compiled from source before the game is up), and a
missing, cut or foreign bytecode library costs nothing but time: the game
comes up, live, on the runtime's own standard library."""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYC_ZIP = ROOT / "static" / "vendor" / "pyodide" / "python_stdlib_pyc.zip"

# Every module loaded, with the file it came from (run once the game is warmed up).
MODULES = """
import json, sys
json.dumps({name: getattr(m, "__file__", None) for name, m in list(sys.modules.items())})
"""


def _booted(page, site, url="index.html"):
    page.goto(site.url + url)
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=60_000)
    # the computer players and the other boards are imported just after the first screen
    page.wait_for_function("document.documentElement.dataset.bytecode !== undefined", timeout=30_000)
    facts = page.evaluate("""() => ({stdlib: document.documentElement.dataset.stdlib || null,
        rescue: (document.querySelector('[data-testid="boot-error"]') || {}).innerText || null,
        live: !!document.querySelector('#app [data-testid="new-game"]')
              && !document.querySelector('#app[inert]')})""")
    assert facts["rescue"] is None, facts
    assert facts["live"], f"the live new-game screen is not up: {facts}"
    return facts


def _modules(page) -> dict:
    text = page.evaluate("""async (code) => (await import('./static/pyodide.mjs')).loaded.runPython(code)""",
                         MODULES)
    return json.loads(text)


def test_the_boot_imports_the_standard_library_as_bytecode(page, site, assert_no_py_error):
    facts = _booted(page, site)
    assert facts["stdlib"] == "pyc"
    mods = _modules(page)
    from_zip = {n: f for n, f in mods.items() if f and "/lib/python" in f and ".zip/" in f}
    assert len(from_zip) > 50, sorted(mods)
    # the runtime's own start, PyScript's and the game's: all of it from bytecode
    compiled_at_boot = sorted(f.split(".zip/")[1] for f in from_zip.values() if not f.endswith(".pyc"))
    assert not compiled_at_boot, ("the boot compiled these modules of the standard library from source: "
                                  f"add them to scripts/stdlib_boot.txt: {compiled_at_boot}")
    for name in ("json", "asyncio", "encodings", "_pyodide._base", "random", "hashlib"):
        assert mods[name].endswith(".pyc"), (name, mods[name])
    assert_no_py_error(page)


def _foreign(data: bytes) -> bytes:
    """The same zip with every .pyc marked as bytecode of another Python."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            body = zin.read(info)
            if info.filename.endswith(".pyc"):
                body = b"\x00\x00\r\n" + body[4:]
            zout.writestr(info, body)
    return out.getvalue()


@pytest.mark.parametrize("broken", ["missing", "cut short", "not a zip", "of another Python"])
def test_a_broken_bytecode_library_falls_back_to_the_runtimes_own(broken, page, site, assert_no_py_error):
    good = PYC_ZIP.read_bytes()
    body = {"missing": None, "cut short": good[: len(good) // 2], "not a zip": b"<!doctype html>Not Found",
            "of another Python": _foreign(good)}[broken]

    def serve(route):
        if body is None:
            route.fulfill(status=404, body="Not Found")
        else:
            route.fulfill(status=200, body=body, content_type="application/zip")

    page.route("**/python_stdlib_pyc.zip", serve)
    facts = _booted(page, site, "index.html?seed=3")
    assert facts["stdlib"] == "source", facts
    mods = _modules(page)
    assert mods["json"].endswith("/json/__init__.py"), mods["json"]
    # nothing lost: a match starts and the computer answers
    page.select_option('[data-testid="game"]', "draw")
    page.select_option('[data-testid="players"]', "2")
    page.select_option('[data-testid="seat-kind-1"]', index=1)
    page.locator('[data-testid="start"]').click()
    page.wait_for_selector('button[data-tile]:not([aria-disabled="true"])', timeout=30_000)
    assert_no_py_error(page)
