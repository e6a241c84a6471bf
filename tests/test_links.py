"""The URL fragments the game reads are listed once (domino/app/links.py):
the page's scripts that run before Python (static/first.js, static/boot.js)
see an invitation exactly where Python does, so an invitation link never
shows a new-game screen or this phone's last screen in its place."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from domino.app import links
from domino.app.friends import JOIN, parse_join
from domino.app.online import ONLINE, parse_online
from domino.app.links import LATER

ROOT = Path(__file__).resolve().parent.parent

FRAGMENTS = ["", "#", "#join=2.abc.def", "#online=2.abcdefghij.room12345.password1", "#online=", "#join=",
             "#JOIN=2.x", "#online", "#rules", "#xjoin=2", "#%6Aoin=2", "##join=2", "#join", "#Online=2",
             "#online=2.x#join=3", "#later=2.x", "#Later=2"]


def test_python_reads_the_listed_invitations():
    assert links.INVITATIONS == (JOIN, ONLINE, LATER) == ("join=", "online=", "later=")
    assert links.invitation("#join=2.a.b") == "join=2.a.b"
    assert links.invitation("#online=2.a") == "online=2.a"
    assert links.invitation("#later=2.a") == "later=2.a"
    for frag in ("", "#", "#rules", "#JOIN=2", "#online", None):
        assert links.invitation(frag) is None
    # what the parsers take is what the list names
    with pytest.raises(ValueError, match="not an invitation"):
        parse_join("#online=2.x")
    with pytest.raises(ValueError, match="not an invitation"):
        parse_online("#join=2.x")


def test_the_scripts_carry_the_python_list():
    """scripts/build_first.py (scripts/setup) writes the line; a change of the list rewrites it."""
    for name in links.JS_FILES:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert links.js_line() in text, f"{name} is stale: run scripts/build_first.py"
        assert links.with_js_line(text) == text
    changed = links.with_js_line("a\n  " + links.JS_MARK + ' var INVITATIONS = ["join="];\nb\n')
    assert changed == "a\n  " + links.js_line() + "\nb\n"
    with pytest.raises(ValueError):
        links.with_js_line("no marker here")


# Each script run by node in a stub page: with hash H, does it step aside for an invitation?
# first.js: a first visit (empty storage) fetches the pre-built screen unless the link is an invitation.
# boot.js: a saved snapshot is painted unless the link is an invitation.
RUN_JS = r"""
const vm = require('vm'), fs = require('fs');
const [file, kind] = process.argv.slice(2);
const code = fs.readFileSync(file, 'utf8');
const out = [];
for (const hash of JSON.parse(fs.readFileSync(0, 'utf8'))) {
  let fetched = 0, painted = 0;
  const el = () => ({setAttribute() {}, removeAttribute() {}, appendChild() { painted++; },
                     addEventListener() {}, firstElementChild: null, parentNode: {setAttribute() {}}});
  const snapshot = JSON.stringify({format: 'domino-snapshot/1', screen: 'x', lang: 'en', title: 't', seq: 0,
                                   tree: ['div', {}, []]});
  const store = kind === 'boot' ? {'domino:/domino/:snapshot': snapshot} : {};
  const ctx = {
    navigator: {language: 'en'}, location: {pathname: '/domino/', hash},
    document: {documentElement: {getAttribute: () => null, setAttribute() {}, removeAttribute() {}},
               currentScript: null, baseURI: 'http://x/domino/',
               getElementById: id => id === 'app' ? el() : null, querySelector: () => null,
               createElement: el, createElementNS: el, createTextNode: el},
    localStorage: {get length() { return Object.keys(store).length; }, key: i => Object.keys(store)[i],
                   getItem: k => (k in store ? store[k] : null), removeItem() {}},
    fetch: () => { fetched++; return new Promise(() => {}); },
    URL, Promise, JSON, console, MutationObserver: function () { this.observe = () => {}; },
    addEventListener() {}, performance: {mark() {}},
  };
  ctx.window = ctx;
  vm.createContext(ctx);
  vm.runInContext(code, ctx);
  out.push(kind === 'boot' ? ctx.dominoBoot.snapshot !== 'painted' : fetched === 0);
}
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.parametrize("name, kind", [("static/first.js", "first"), ("static/boot.js", "boot")])
def test_the_scripts_step_aside_exactly_for_python_s_invitations(name, kind, tmp_path):
    script = tmp_path / "run.js"
    script.write_text(RUN_JS, encoding="utf-8")
    out = subprocess.run(["node", str(script), str(ROOT / name), kind], input=json.dumps(FRAGMENTS),
                         capture_output=True, text=True, timeout=60, check=True)
    aside = json.loads(out.stdout)
    want = [links.invitation(f) is not None for f in FRAGMENTS]
    assert dict(zip(FRAGMENTS, aside)) == dict(zip(FRAGMENTS, want))
    assert sum(want) >= 4 and not all(want)
