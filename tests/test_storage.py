"""domino.app.storage: every key of the app, and each answer of the Storage port, one by one, in CPython.
The page's scripts that run before Python use the same keys (the line the build writes, checked in node)."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from domino.app import saves, stats, storage
from domino.app.storage import Change, Found, MemoryStore, Saved, Storage
from domino.engine.match import Match
from domino.engine.rules import make_rules

ROOT = Path(__file__).resolve().parent.parent
PATH = "/domino/"
STAMPS = iter(f"2026-01-01T00:00:{i:02d}.000Z" for i in range(60))


def _match(moves=6, seed=11):
    m = Match(make_rules("draw", players=2), seed=seed,
              seats=[{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}])
    for _ in range(moves):
        m.apply(m.legal_actions()[0])
    return m


def port(store=None, clock=None) -> Storage:
    return Storage(store if store is not None else MemoryStore(), PATH, clock or (lambda: next(STAMPS)))


def key(name: str) -> str:
    return storage.key(PATH, name)


def room_for(store: MemoryStore, extra: int) -> None:
    """Leave exactly ``extra`` characters free."""
    store.quota = sum(len(k) + len(v) for k, v in store.data.items()) + extra


# ----------------------------------------------------------------- keys
def test_every_key_is_the_one_stored_so_far():
    """Players' saves live under these very strings: a key that changes loses them."""
    assert {name: key(name) for name in storage.NAMES.values()} == {
        "save": "domino:/domino/:save", "settings": "domino:/domino/:settings",
        "snapshot": "domino:/domino/:snapshot", "match-meta": "domino:/domino/:match-meta",
        "stats": "domino:/domino/:stats", "stats:unreadable": "domino:/domino/:stats:unreadable",
        "net": "domino:/domino/:net", "online-rooms": "domino:/domino/:online-rooms",
        "later": "domino:/domino/:later",
        "corrupt:": "domino:/domino/:corrupt:", "reviews": "domino:/domino/:reviews"}
    assert storage.corrupt_key(PATH, "2025-01-01T00:00:00.000Z") == "domino:/domino/:corrupt:2025-01-01T00:00:00.000Z"
    assert storage.key("/other/", storage.SAVE) != key(storage.SAVE)     # one origin, many sites
    assert len(set(storage.NAMES.values())) == len(storage.NAMES)


def test_corrupt_copies_are_found_by_their_prefix_only():
    keys = [storage.corrupt_key(PATH, t) for t in ("2024-03", "2024-01", "2024-02")]
    keys += [key(storage.SAVE), storage.corrupt_key("/other/", "2024-00"), "domino:/domino/:corruptx", 7]
    assert storage.corrupt_keys(keys, PATH) == sorted(keys[:3])
    assert storage.corrupt_to_drop(keys, PATH, keep=1) == sorted(keys[:3])[:2]
    assert storage.corrupt_to_drop(keys, PATH, keep=3) == []


def test_now_stamp_sorts_as_time():
    stamp = storage.now_stamp()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamp)


# ----------------------------------------------------------------- settings
def test_settings_read_back_and_unreadable_ones_say_so():
    s = port()
    assert s.settings() == ({}, True)
    assert s.write_settings({"lang": "es"})
    assert s.settings() == ({"lang": "es"}, True)
    s.store.set(key(storage.SETTINGS), "{nope")
    assert s.settings() == ({}, False)


def test_a_checked_write_gives_up_the_snapshot_first():
    s = port()
    s.put_snapshot("position 1", "x" * 50)
    assert s.snapshot_of == "position 1"
    room_for(s.store, 20)
    assert s.write_settings({"lang": "es"})          # did not fit beside the snapshot; fits without it
    assert s.store.get(key(storage.SNAPSHOT)) is None and s.snapshot_of is None
    room_for(s.store, 5)
    assert not s.write_settings({"lang": "en", "pips": "black"})
    assert s.settings() == ({"lang": "es"}, True)    # the older text stays


# ----------------------------------------------------------------- the save
def test_the_save_is_written_and_read_back():
    s, m = port(), _match()
    assert s.read_save().what is Found.NOTHING
    done = s.write_save(m, "id-1", None)
    assert done == storage.SaveResult(Saved.SAVED, ("id-1", m.seq))
    found = s.read_save()
    assert found.what is Found.MATCH and found.match.state_key() == m.state_key()
    assert (found.header, found.match_id, found.current, found.repairs) == (("id-1", m.seq), "id-1", True, ())


def test_an_old_save_is_read_and_named_for_rewriting():
    s, m = port(), _match()
    s.store.set(key(storage.SAVE), saves.dump_v0(m))
    found = s.read_save()
    assert found.what is Found.MATCH and not found.current
    assert found.match_id == saves.legacy_id(m) and found.header == (saves.legacy_id(m), m.seq)


def test_never_over_another_tab_s_save_unless_forced():
    s, m, newer = port(), _match(), _match(8)
    s.store.set(key(storage.SAVE), saves.dump(newer, "theirs"))
    theirs = s.store.get(key(storage.SAVE))
    done = s.write_save(m, "mine", None)
    assert done.what is Saved.OTHER_TAB and done.header == ("theirs", newer.seq)
    assert s.store.get(key(storage.SAVE)) == theirs
    # the same match, a newer position than this tab knows: another tab too
    assert s.write_save(m, "theirs", ("theirs", m.seq)).what is Saved.OTHER_TAB
    assert s.store.get(key(storage.SAVE)) == theirs
    assert s.write_save(m, "theirs", ("theirs", newer.seq)).what is Saved.SAVED
    s.store.set(key(storage.SAVE), theirs)
    assert s.write_save(m, "mine", None, force=True).what is Saved.SAVED
    assert saves.header(s.store.get(key(storage.SAVE))) == ("mine", m.seq)


def test_a_full_store_keeps_the_older_save():
    s, m = port(), _match()
    s.write_save(m, "mine", None)
    before = s.store.get(key(storage.SAVE))
    s.put_snapshot("p", "snap")
    room_for(s.store, 0)
    m.apply(m.legal_actions()[0])
    assert s.write_save(m, "mine", ("mine", m.seq - 1)) == storage.SaveResult(Saved.FULL)
    assert s.store.get(key(storage.SAVE)) == before and s.store.get(key(storage.SNAPSHOT)) is None


def test_rewrite_only_over_the_very_save_known():
    s, m = port(), _match()
    assert not s.rewrite_save(m, "mine", ("mine", m.seq))     # no save: nothing written
    assert s.store.get(key(storage.SAVE)) is None
    s.write_save(m, "mine", None)
    m.seats[0]["name"] = "Ana María"
    assert not s.rewrite_save(m, "mine", ("other", m.seq))
    assert s.rewrite_save(m, "mine", ("mine", m.seq))
    assert saves.load(s.store.get(key(storage.SAVE))).seats[0]["name"] == "Ana María"


def test_a_corrupt_save_is_kept_aside_and_removed():
    s = port()
    for stamp in ("2020-01", "2020-02", "2020-03"):
        s.store.set(storage.corrupt_key(PATH, stamp), "old " + stamp)
    s.store.set(key(storage.SAVE), '{"format": "domino-save/1", "record": [')
    found = s.read_save()
    assert found.what is Found.CORRUPT and found.error.why == "json" and found.match is None
    kept = storage.corrupt_keys(s.store.keys(), PATH)
    assert len(kept) == storage.MAX_CORRUPT and kept[0] == storage.corrupt_key(PATH, "2020-02")   # the oldest went
    assert s.store.get(kept[-1]).endswith('"record": [') and s.store.get(key(storage.SAVE)) is None
    assert s.waiting is None and s.write_save(_match(), "new", None).what is Saved.SAVED


def test_a_corrupt_save_with_room_only_without_the_older_copies():
    s = port()
    s.store.set(storage.corrupt_key(PATH, "2020-01"), "o" * 40)
    s.store.set(storage.corrupt_key(PATH, "2020-02"), "p" * 40)
    s.store.set(key(storage.SAVE), "x" * 30)
    room_for(s.store, 50)            # a copy needs ~70: the oldest copy goes, then it fits
    assert s.read_save().what is Found.CORRUPT
    assert [s.store.get(k)[:1] for k in storage.corrupt_keys(s.store.keys(), PATH)] == ["p", "x"]


def test_a_corrupt_save_with_no_room_waits_for_its_download():
    s = port()
    text = "{" * 10 + "not a save"
    s.store.set(key(storage.SAVE), text)
    room_for(s.store, 0)
    found = s.read_save()
    assert found.what is Found.CORRUPT_NO_ROOM and found.error.why in ("json", "size")
    assert s.store.get(key(storage.SAVE)) == text and s.waiting == text
    m = _match()
    assert s.write_save(m, "mine", None, force=True) == storage.SaveResult(Saved.BLOCKED)
    assert s.store.get(key(storage.SAVE)) == text
    s.store.quota = None
    assert s.download_corrupt() == text
    assert s.store.get(key(storage.SAVE)) is None and s.waiting is None and s.download_corrupt() is None
    assert s.write_save(m, "mine", None).what is Saved.SAVED


def test_the_download_leaves_a_save_written_meanwhile():
    s = port()
    s.store.set(key(storage.SAVE), "bad")
    room_for(s.store, 0)
    s.read_save()
    s.store.quota = None
    s.store.set(key(storage.SAVE), "another tab's")
    assert s.download_corrupt() == "bad" and s.store.get(key(storage.SAVE)) == "another tab's"


def test_leaving_removes_only_this_tab_s_save():
    s, m = port(), _match()
    s.write_save(m, "mine", None)
    s.drop_own_save(None)
    s.drop_own_save(("other", m.seq))
    assert s.store.get(key(storage.SAVE)) is not None
    s.drop_own_save(("mine", m.seq))
    assert s.store.get(key(storage.SAVE)) is None
    s.write_save(m, "theirs", None)
    s.drop_save()
    assert s.store.get(key(storage.SAVE)) is None


def test_the_other_tab_s_writes():
    s, m = port(), _match()
    mine = ("mine", m.seq)
    s.write_save(m, "mine", None)
    assert s.other_write(key(storage.SETTINGS), mine) == storage.OtherWrite(Change.NONE)
    assert s.other_write(key(storage.SAVE), mine).what is Change.NONE        # the save this tab knows
    s.store.set(key(storage.SAVE), saves.dump(m, "theirs"))
    assert s.other_write(key(storage.SAVE), mine) == storage.OtherWrite(Change.OTHER_TAB, ("theirs", m.seq))
    assert s.other_write(None, mine).what is Change.OTHER_TAB                # the storage was cleared, or all of it
    s.store.set(key(storage.SAVE), "unreadable")
    assert s.other_write(key(storage.SAVE), mine).what is Change.NONE
    s.drop_save()
    assert s.other_write(key(storage.SAVE), mine) == storage.OtherWrite(Change.LEFT)
    assert s.other_write(7, mine).what is Change.NONE


# ----------------------------------------------------------------- beside the save
def test_undo_meta_round_trip():
    s, m = port(), _match()
    assert s.meta() is None
    s.write_meta(m, True, 2)
    assert s.meta() == {"seed": m.seed, "game": "draw", "practice": True, "undos": 2}
    s.store.set(key(storage.META), "[1]")
    assert s.meta() is None


def test_statistics_unreadable_are_kept_aside():
    s = port()
    assert s.stats() == storage.StatsRead(stats.empty())
    doc = stats.empty()
    doc["groups"]["x"] = {"game": "draw"}
    assert s.write_stats(doc)
    assert s.stats().error is None and "x" in s.stats().doc["groups"]
    s.store.set(key(storage.STATS), "{broken")
    got = s.stats()
    assert got.doc == stats.empty() and isinstance(got.error, stats.StatsError)
    assert s.store.get(key(storage.STATS_ASIDE)) == "{broken" and s.store.get(key(storage.STATS)) is None
    s.write_stats(doc)
    s.reset_stats()
    assert s.store.get(key(storage.STATS)) is None


def test_the_snapshot_and_freeing_space():
    s = port()
    s.put_snapshot("a", "picture")
    assert s.store.get(key(storage.SNAPSHOT)) == "picture" and s.snapshot_of == "a"
    s.put_snapshot("b", None)      # too large to keep: none is kept, and it is not built again for "b"
    assert s.store.get(key(storage.SNAPSHOT)) is None and s.snapshot_of == "b"
    s.put_snapshot("c", "picture")
    room_for(s.store, 0)
    s.put_snapshot("d", "a larger picture")     # no room: the old one must not stay for the new position
    assert s.store.get(key(storage.SNAPSHOT)) is None and s.snapshot_of == "d"
    s.store.quota = None
    assert not s.can_free()
    s.store.set(storage.corrupt_key(PATH, "2020"), "old")
    s.store.set(storage.corrupt_key("/other/", "2020"), "another site's")
    s.put_snapshot("e", "picture")
    assert s.can_free()
    s.free_space()
    assert not s.can_free() and s.store.get(key(storage.SNAPSHOT)) is None and s.snapshot_of is None
    assert s.store.get(storage.corrupt_key("/other/", "2020")) == "another site's"
    s.put_snapshot("f", "picture")
    s.drop_snapshot()
    assert s.store.get(key(storage.SNAPSHOT)) is None and s.snapshot_of is None


def test_the_friends_table_and_the_online_consents():
    s = port()
    assert s.table() is None
    s.write_table('{"id": ""}')
    assert s.table() == '{"id": ""}' and s.store.get(key(storage.TABLE)) == '{"id": ""}'
    s.drop_table()
    assert s.table() is None
    assert s.consents() == []
    for i in range(storage.MAX_CONSENTS + 3):
        s.add_consent(f"room{i}")
    s.add_consent("room5")
    got = s.consents()
    assert got[:2] == ["room5", f"room{storage.MAX_CONSENTS + 2}"] and len(got) == storage.MAX_CONSENTS
    assert len(set(got)) == len(got)
    for bad in ("{", '{"a": 1}', '["ok", 3, null]'):
        s.store.set(key(storage.CONSENTS), bad)
        assert s.consents() == (["ok"] if bad.startswith("[") else [])


# ----------------------------------------------------------------- the page's scripts
def test_the_scripts_carry_the_python_keys():
    """scripts/build_first.py (scripts/setup) writes the line; a change of the keys rewrites it."""
    for name in storage.JS_FILES:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert storage.js_line() in text, f"{name} is stale: run scripts/build_first.py"
        assert storage.with_js_line(text) == text
    changed = storage.with_js_line("a\n  " + storage.JS_MARK + ' var KEYS = {"save": "old"};\nb\n')
    assert changed == "a\n  " + storage.js_line() + "\nb\n"
    with pytest.raises(ValueError):
        storage.with_js_line("no marker here")
    keys = json.loads(storage.js_line().split("var KEYS = ", 1)[1].rstrip(";"))
    assert keys["prefix"][0] + PATH + keys["prefix"][1] + keys["snapshot"] == key(storage.SNAPSHOT)


def _strings(source: str) -> set[str]:
    """The string literals of a script's code (comments and the keys line left out)."""
    code = "\n".join(line for line in source.splitlines() if storage.JS_MARK not in line)
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    code = re.sub(r"(?m)^\s*//.*$|(?<=[;{}(),])\s*//.*$", "", code)
    return {m.group(2) for m in re.finditer(r"""(["'])((?:(?!\1)[^\\\n]|\\.)*)\1""", code)}


def test_no_script_spells_a_key_by_hand():
    spelled = {storage.PREFIX[0], *storage.NAMES.values()}
    for name in storage.JS_FILES:
        found = _strings((ROOT / name).read_text(encoding="utf-8"))
        assert not found & spelled, f"{name} spells {found & spelled}"
        assert not [s for s in found if s.startswith(storage.PREFIX[0]) and s.endswith(storage.PREFIX[1])]
    # what the check reads: the code's strings, not its comments nor the keys line
    sample = 'var a = "domino:" + p;  // "save"\n/* "net" */ f(\'corrupt:\', "a\\"b");\n' + storage.js_line()
    assert _strings(sample) == {"domino:", "corrupt:", 'a\\"b'}


# Each script run by node in a stub page whose localStorage holds keys made by Python.
RUN_JS = r"""
const vm = require('vm'), fs = require('fs');
const [file, kind, path] = process.argv.slice(2);
const store = JSON.parse(fs.readFileSync(0, 'utf8'));
let fetched = 0;
const el = () => ({setAttribute() {}, removeAttribute() {}, appendChild() {}, remove() {}, click() {},
                   addEventListener() {}, querySelector: () => null, focus() {},
                   firstElementChild: null, parentNode: {setAttribute() {}}});
const ctx = {
  navigator: {language: 'en'}, location: {pathname: path, hash: '', replace() {}, reload() {}},
  document: {documentElement: Object.assign(el(), {getAttribute: () => null}), body: el(),
             currentScript: null, baseURI: 'http://x' + path, querySelectorAll: () => [],
             getElementById: id => id === 'app' ? el() : null, querySelector: () => null,
             createElement: el, createElementNS: el, createTextNode: el},
  localStorage: {get length() { return Object.keys(store).length; }, key: i => Object.keys(store)[i],
                 getItem: k => (k in store ? store[k] : null), setItem: (k, v) => { store[k] = String(v); },
                 removeItem: k => { delete store[k]; }},
  fetch: () => { fetched++; return new Promise(() => {}); },
  URL, Promise, JSON, Date, Blob: function () {}, console: {warn() {}, log() {}},
  setTimeout: () => 0, MutationObserver: function () { this.observe = () => {}; },
  addEventListener() {}, performance: {mark() {}},
};
ctx.window = ctx;
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(file, 'utf8'), ctx);
if (kind === 'rescue') ctx.dominoRescue.startFresh();
process.stdout.write(JSON.stringify({fetched, store, boot: kind === 'boot' ? ctx.dominoBoot.snapshot : null}));
"""


def _run(tmp_path, name: str, kind: str, store: dict, path: str = PATH) -> dict:
    script = tmp_path / "run.js"
    script.write_text(RUN_JS, encoding="utf-8")
    out = subprocess.run(["node", str(script), str(ROOT / name), kind, path], input=json.dumps(store),
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def test_boot_paints_and_drops_the_snapshot_under_python_s_key(tmp_path):
    snap = json.dumps({"format": "domino-snapshot/1", "screen": "x", "lang": "en", "title": "t", "seq": 0,
                       "tree": ["div", {}, []]})
    assert _run(tmp_path, "static/boot.js", "boot", {key(storage.SNAPSHOT): snap})["boot"] == "painted"
    assert _run(tmp_path, "static/boot.js", "boot", {storage.key("/other/", storage.SNAPSHOT): snap})["boot"] == "none"
    bad = _run(tmp_path, "static/boot.js", "boot", {key(storage.SNAPSHOT): "{", key(storage.SAVE): "s"})
    assert bad["boot"].startswith("ignored") and bad["store"] == {key(storage.SAVE): "s"}


def test_first_visit_is_told_by_python_s_keys(tmp_path):
    assert _run(tmp_path, "static/first.js", "first", {})["fetched"] == 1
    assert _run(tmp_path, "static/first.js", "first", {storage.key("/other/", storage.SAVE): "s"})["fetched"] == 1
    for name in (storage.SETTINGS, storage.STATS, storage.CONSENTS):
        assert _run(tmp_path, "static/first.js", "first", {key(name): "x"})["fetched"] == 0


def test_start_fresh_keeps_the_page_s_data_aside_as_python_finds_it(tmp_path):
    old = storage.corrupt_key(PATH, "2020-01-01T00:00:00.000Z")
    other = storage.key("/other/", storage.SAVE)
    mine = {key(storage.SAVE): "the save", key(storage.SETTINGS): "{}", key(storage.SNAPSHOT): "snap"}
    store = _run(tmp_path, "static/rescue.js", "rescue", {**mine, old: "older copy", other: "theirs"})["store"]
    kept = storage.corrupt_keys(list(store), PATH)
    assert kept[0] == old and len(kept) == 2 and json.loads(store[kept[1]]) == mine
    assert set(store) == {old, kept[1], other} and store[other] == "theirs"
