"""pyscript.toml must bring every module of the domino package to the browser.

PyScript only copies into the browser's filesystem what [files] lists, so a
module missing there works in pytest but breaks the app in the browser; a
listed file that does not exist makes the boot fail with a 404.  The package
travels as domino.zip (scripts/build_zip.py), unpacked into the working
directory.
"""
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import build_zip  # noqa: E402


def _files_table() -> dict[str, str]:
    with open(ROOT / "pyscript.toml", "rb") as f:
        return tomllib.load(f).get("files", {})


def test_the_package_zip_is_unpacked_at_the_top():
    assert _files_table().get("./domino.zip") == "./*"


def test_the_zip_holds_every_domino_module(tmp_path):
    for p in build_zip.modules(ROOT):
        dest = tmp_path / p.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(p.read_bytes())
    assert build_zip.ensure(tmp_path)
    tag = build_zip.cache_tag()
    assert tag.startswith("cpython-3")
    sources = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "domino").rglob("*.py")
                     if "__pycache__" not in p.parts)
    with zipfile.ZipFile(tmp_path / "domino.zip") as zf:
        names = sorted(zf.namelist())
        # every module, and beside it its bytecode where the import system looks for it
        assert names == sorted(sources + [build_zip.pyc_path(s, tag) for s in sources])
        assert "domino/engine/match.py" in names and "domino/app/screens/table.py" in names
        assert "domino/__init__.py" in names and f"domino/__pycache__/__init__.{tag}.pyc" in names
        assert f"domino/app/screens/__pycache__/table.{tag}.pyc" in names
        assert zf.read("domino/browser.py") == (ROOT / "domino" / "browser.py").read_bytes()
        heads = {zf.read(build_zip.pyc_path(s, tag))[:16] for s in sources}
    # one interpreter's magic number; unchecked-hash .pyc files (PEP 552 flags 0b01),
    # which stay valid whatever time the unpacked files get
    assert len({h[:4] for h in heads}) == 1
    assert {int.from_bytes(h[4:8], "little") for h in heads} == {1}
    # deterministic: the same sources give the same bytes (the offline cache's hash)
    assert build_zip.pack(tmp_path) == (tmp_path / "domino.zip").read_bytes()
    assert not build_zip.ensure(tmp_path)
    # a changed module makes it stale, its bytecode with it
    before = zipfile.ZipFile(tmp_path / "domino.zip").read(build_zip.pyc_path("domino/engine/tiles.py", tag))
    (tmp_path / "domino" / "engine" / "tiles.py").write_text("# changed\n")
    assert build_zip.ensure(tmp_path)
    after = zipfile.ZipFile(tmp_path / "domino.zip").read(build_zip.pyc_path("domino/engine/tiles.py", tag))
    assert after != before and after[:8] == before[:8]


def test_the_built_zip_is_current():
    """scripts/setup built it from the sources as they are now."""
    assert (ROOT / "domino.zip").is_file(), "run scripts/setup"
    assert (ROOT / "domino.zip").read_bytes() == build_zip.pack(ROOT), "domino.zip is stale: run scripts/setup"


def test_every_listed_file_exists():
    listed = _files_table()
    absent = [src for src in listed if not (ROOT / src).is_file()]
    assert not absent, f"pyscript.toml [files] lists missing files: {absent}"
    absolute = [src for src in listed if src.startswith("/") or "://" in src]
    assert not absolute, f"[files] URLs must be relative: {absolute}"


def test_the_bench_page_brings_every_module_the_players_import():
    """static/bench/ai.html loads single modules (no zip): its [files] list
    must hold every module the computer players and the match import."""
    import subprocess
    out = subprocess.run(
        [sys.executable, "-c", "import sys, domino.players.levels, domino.players.boards, "
         "domino.engine.match; print('\\n'.join(m.__file__ for n, m in sys.modules.items() "
         "if n.split('.')[0] == 'domino'))"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    needed = {Path(f).resolve().relative_to(ROOT).as_posix() for f in out}
    with open(ROOT / "static" / "bench" / "ai.toml", "rb") as f:
        listed = tomllib.load(f)["files"]      # duplicate keys fail here
    bench = ROOT / "static" / "bench"
    got = {(bench / src).resolve().relative_to(ROOT).as_posix() for src in listed}
    assert "domino/players/endgame.py" in needed
    assert needed <= got, f"static/bench/ai.toml [files] misses {sorted(needed - got)}"
