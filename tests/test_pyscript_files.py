"""pyscript.toml's [files] must list exactly the modules of the domino package.

PyScript only copies into the browser's filesystem what [files] lists, so a
module missing there works in pytest but breaks the app in the browser; a
listed file that does not exist makes the boot fail with a 404.
"""
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _files_table() -> dict[str, str]:
    with open(ROOT / "pyscript.toml", "rb") as f:
        return tomllib.load(f).get("files", {})


def test_every_domino_module_is_listed():
    listed = _files_table()
    modules = sorted(f"./domino/{p.name}" for p in (ROOT / "domino").glob("*.py"))
    missing = [m for m in modules if m not in listed]
    assert not missing, f"add to [files] in pyscript.toml: {missing}"
    wrong_target = {k: v for k, v in listed.items() if k.startswith("./domino/") and k != v}
    assert not wrong_target, f"[files] entries must map to the same path: {wrong_target}"


def test_every_listed_file_exists():
    listed = _files_table()
    absent = [src for src in listed if not (ROOT / src).is_file()]
    assert not absent, f"pyscript.toml [files] lists missing files: {absent}"
    absolute = [src for src in listed if src.startswith("/") or "://" in src]
    assert not absolute, f"[files] URLs must be relative: {absolute}"
