"""The standard library the page boots with (scripts/build_stdlib.py) and the
module that hands it to the runtime (static/pyodide.mjs, pyscript.toml)."""
import json
import re
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import build_stdlib  # noqa: E402
import build_zip  # noqa: E402

RUNTIME_ZIP = build_zip.RUNTIME / "python_stdlib.zip"


def test_pyscript_starts_the_runtime_through_our_module():
    with open(ROOT / "pyscript.toml", "rb") as f:
        assert tomllib.load(f)["interpreter"] == "./static/pyodide.mjs"
    module = (ROOT / "static" / "pyodide.mjs").read_text(encoding="utf-8")
    assert 'from "./vendor/pyodide/pyodide.mjs"' in module
    # index.html preloads what it fetches, and no longer the lock file
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    assert 'href="./static/vendor/pyodide/python_stdlib_pyc.zip"' in page
    assert "pyodide-lock.json" not in page


def test_the_lock_files_info_is_the_vendored_runtimes():
    """static/pyodide.mjs passes the lock file's info instead of fetching it: the
    runtime refuses a lock file of another ABI, so it must follow an upgrade."""
    module = (ROOT / "static" / "pyodide.mjs").read_text(encoding="utf-8")
    m = re.search(r"const LOCK_INFO = (\{[^}]*\});", module)
    assert m, "no LOCK_INFO in static/pyodide.mjs"
    info = json.loads(re.sub(r"(\w+):", r'"\1":', m.group(1)))
    lock = json.loads((build_zip.RUNTIME / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert info == lock["info"]


def test_the_boot_modules_are_bytecode_and_everything_else_is_kept(tmp_path):
    data = build_stdlib.pack()
    wanted = build_stdlib.boot_modules()
    assert "json/__init__.py" in wanted and "encodings/__init__.py" in wanted and "asyncio/tasks.py" in wanted
    with zipfile.ZipFile(RUNTIME_ZIP) as zf:
        runtime = {i.filename: zf.read(i) for i in zf.infolist() if not i.is_dir()}
    tmp_path.joinpath("s.zip").write_bytes(data)
    with zipfile.ZipFile(tmp_path / "s.zip") as zf:
        built = {i.filename: zf.read(i) for i in zf.infolist()}
    # each boot module as bytecode where the zip importer looks for it, without its source
    for name in wanted:
        assert name not in built and name + "c" in built, name
    # every other file of the runtime's, unchanged (a module no boot imports is still there)
    for name, body in runtime.items():
        if name not in wanted:
            assert built[name] == body, name
    assert "difflib.py" in built and "unittest/__init__.py" in built
    assert set(built) == {n for n in runtime if n not in wanted} | {n + "c" for n in wanted}
    # one interpreter's magic number (the domino package's own), unchecked-hash .pyc (PEP 552)
    heads = {built[n + "c"][:8] for n in wanted}
    magic = {h[:4] for h in heads}
    assert len(magic) == 1 and {int.from_bytes(h[4:8], "little") for h in heads} == {1}
    tag = build_zip.cache_tag()
    pkg = zipfile.ZipFile(ROOT / "domino.zip").read(f"domino/__pycache__/__init__.{tag}.pyc")
    assert magic == {pkg[:4]}
    # deterministic: the service worker's hash only changes with the runtime
    assert build_stdlib.pack() == data


def test_the_built_stdlib_is_current():
    target = ROOT / build_stdlib.TARGET
    assert target.is_file(), "run scripts/setup"
    assert target.read_bytes() == build_stdlib.pack(), "python_stdlib_pyc.zip is stale: run scripts/setup"


def test_the_service_worker_keeps_it_for_offline():
    import build_precache
    listed = build_precache.collect(ROOT)
    assert "static/pyodide.mjs" in listed
    assert "static/vendor/pyodide/python_stdlib_pyc.zip" in listed
    # and the runtime's own, for the fallback
    assert "static/vendor/pyodide/python_stdlib.zip" in listed
