"""The GitHub Actions workflow (.github/workflows/pages.yml) and the site it publishes.

actionlint comes from requirements-dev.txt (scripts/setup installs it into
.venv); the check is skipped, with the reason, only where it is missing.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
sys.path.insert(0, str(ROOT / "scripts"))
import build_precache  # noqa: E402
import build_zip  # noqa: E402


def _actionlint() -> str | None:
    local = Path(sys.executable).parent / "actionlint"
    if local.is_file() and os.access(local, os.X_OK):
        return str(local)
    return shutil.which("actionlint")


def test_workflow_exists():
    assert ROOT / ".github" / "workflows" / "pages.yml" in WORKFLOWS


def test_actionlint():
    exe = _actionlint()
    if exe is None:
        pytest.skip("actionlint not installed (scripts/setup installs it from requirements-dev.txt)")
    proc = subprocess.run([exe, "-no-color", *map(str, WORKFLOWS)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_workflow_uses_the_setup_step_and_publishes_the_staged_site():
    text = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "scripts/setup" in text and "scripts/test" in text
    assert "build_precache.py --print --stage _site" in text
    assert "actions/deploy-pages" in text and "path: _site" in text


@pytest.mark.skipif(not (ROOT / "static" / "vendor").is_dir(), reason="run scripts/setup first")
def test_staged_site(tmp_path):
    """What the workflow uploads: the app, every domino module, the whole runtime
    with its licences, the service worker and its list; no node_modules/.venv."""
    staged = set(build_precache.stage(tmp_path, ROOT))
    assert {"index.html", "main.py", "pyscript.toml", "sw.js", "static/precache.js",
            "manifest.webmanifest", "NOTICE.md", "static/sw-register.js",
            "static/vendor/pyodide/LICENSE", "static/vendor/pyscript/LICENSE",
            "static/vendor/pyodide/pyodide.asm.wasm", "static/vendor/pyscript/core.js"} <= staged
    # the package travels as domino.zip (pyscript.toml), holding every module and its bytecode
    assert "domino.zip" in staged
    with zipfile.ZipFile(tmp_path / "domino.zip") as zf:
        modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "domino").rglob("*.py")
                   if "__pycache__" not in p.parts}
        tag = build_zip.cache_tag()
        assert "domino/__init__.py" in modules
        assert set(zf.namelist()) == modules | {build_zip.pyc_path(m, tag) for m in modules}
    vendor = {p.relative_to(ROOT).as_posix() for p in (ROOT / "static" / "vendor").rglob("*")
              if p.is_file() and not p.name.startswith(".")}
    assert vendor <= staged
    assert not [p for p in staged if p.startswith((".", "node_modules/", "tests/", "scripts/"))
                or "/." in p or "__pycache__" in p]
    notice = (ROOT / "NOTICE.md").read_text(encoding="utf-8")
    assert "MPL-2.0" in notice and "Apache" in notice
    assert "static/vendor/pyodide/LICENSE" in notice and "static/vendor/pyscript/LICENSE" in notice
    import json
    deps = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]
    for version in deps.values():
        assert version in notice, f"NOTICE.md does not name version {version}"
    for lic in ("pyodide", "pyscript"):
        assert (tmp_path / "static" / "vendor" / lic / "LICENSE").stat().st_size > 1000
