"""static/tree.js's `into`: a screen drawn again in place is the screen drawn anew.

The page draws every screen with `tree.into(parent, [node])` (domino/browser.py):
what stays the same tag at the same place is kept and brought up to date, so a
button under a finger survives the friends' table's redraw each second.  Here,
in Chromium with tree.js alone (no Python), every screen of real sessions and
sweeps is drawn over the one before it (and over screens of other kinds), and
the DOM must be what building it fresh gives, to the attribute (in any order)
and the form control's state; and what did not change must be the same element.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import screen_sweep
from domino.app.session import MemoryStore, Session

ROOT = Path(__file__).resolve().parents[2]
TREE_JS = (ROOT / "static" / "tree.js").read_text(encoding="utf-8")

pytestmark = pytest.mark.browser

FORM = {"game": "draw", "players": "2", "target": "100", "seat-kind-0": "human", "seat-name-0": "Ana",
        "seat-kind-1": "easy", "seat-name-1": "Lola"}

COMPARE_JS = r"""
([trees, order, play]) => {
  const a = document.getElementById('a'), b = document.getElementById('b');
  const state = (root) => [...root.querySelectorAll('input,select,textarea,option,details')].map(
    (e) => [e.localName, e.value, e.checked, e.selected, e.open].join('|'));
  const ns = (root) => [...root.querySelectorAll('*')].map((e) => e.namespaceURI === 'http://www.w3.org/2000/svg' ? 's' : 'h').join('');
  const canon = (n) => n.nodeType === 3 ? JSON.stringify(n.data) :   // attributes in any order: the same element
    '<' + n.localName + ' ' + [...n.attributes].map((x) => x.name + '=' + JSON.stringify(x.value)).sort().join(' ') + '>' +
    [...n.childNodes].map(canon).join('') + '</>';
  const bad = [];
  let kept = 0, total = 0;
  for (const [step, i] of order.entries()) {
    const text = JSON.stringify([trees[i]]);
    const before = new Set(a.querySelectorAll('*'));
    tree.into(a, text);
    b.replaceChildren(tree.json(JSON.stringify(trees[i])));
    const now = [...a.querySelectorAll('*')];
    if (step > 0 && step < play) {
      total += now.length;
      kept += now.filter((e) => before.has(e)).length;
    }
    const ca = canon(a), cb = canon(b).replace('<div id="b">', '<div id="a">');
    if (ca !== cb) bad.push(['dom', i, ca.length, cb.length]);
    else if (state(a).join() !== state(b).join()) bad.push(['state', i]);
    else if (ns(a) !== ns(b)) bad.push(['namespace', i]);
  }
  return {bad: bad.slice(0, 5), nbad: bad.length, kept, total};
}
"""


def _session_screens() -> list:
    """The menu, the new-game form, and a hand against the computer move by move."""
    s = Session(MemoryStore(), "/domino/", params={"seed": "7"}, browser_lang="es-ES")
    out = [s.screen()]
    s.handle({"action": "new-game"})
    out.append(s.screen())
    s.handle({"action": "start", "form": dict(FORM)})
    for _ in range(60):
        out.append(s.screen())
        c = s.ctrl
        if c.match.phase != "play":
            break
        if s.wants_computers():
            s.handle({"action": "computer-move", "move": s.computers.think().step(10_000), "gen": s.computers.gen})
            continue
        a = c.legal()[0]
        seq = str(c.match.seq)
        if "play" not in a:
            s.handle({"action": "draw", "seq": seq})
            continue
        s.handle({"action": "tile", "tile": a["play"], "seq": seq})
        out.append(s.screen())       # the tile chosen, the places shown
        if c.selected:
            s.handle({"action": "end", "end": a["end"], "seq": seq})
    return out


def _sweep_screens(monkeypatch) -> list:
    """Every kind of the screen sweep's screens (tables, boards, guests, results, reviews)."""
    trees: list = []
    draw = screen_sweep._Drawer.draw

    def keep(self, what, make, lang):
        def made():
            tree = make()
            if tree is not None:
                trees.append(tree)
            return tree
        draw(self, what, made, lang)

    monkeypatch.setattr(screen_sweep._Drawer, "draw", keep)
    screen_sweep.sweep_match("draw", 2, {}, 3, max_hands=1)
    screen_sweep.sweep_match("mexican-train", 4, {}, 5, max_hands=1)
    return trees


@pytest.fixture
def blank(browser):
    page = browser.new_page()
    page.set_content('<!doctype html><html><body><div id="a"></div><div id="b"></div></body></html>')
    page.add_script_tag(content=TREE_JS)
    yield page
    page.close()


def test_a_screen_drawn_in_place_is_the_screen_drawn_anew(blank, monkeypatch):
    played = _session_screens()
    trees = played + _sweep_screens(monkeypatch)
    assert len(trees) > 200
    n = len(trees)
    rng = random.Random(1)
    order = list(range(n)) + [rng.randrange(n) for _ in range(n // 2)]   # in play order, then any over any
    got = blank.evaluate(COMPARE_JS, [trees, order, len(played)])
    assert got["nbad"] == 0, got["bad"]
    # a hand played against the computer, screen after screen: most of the page stays the same
    # elements (the shell, the seats, the hand, the board's tiles)
    assert got["kept"] > got["total"] * 0.6, got


def test_what_did_not_change_stays_the_same_element(blank):
    def screen(left: str, typed_value: str = "Ana", checked: bool = True):
        box = {"type": "checkbox", "data-testid": "practice"}
        if checked:
            box["checked"] = ""
        return ["div", {"class": "screen"}, [
            ["p", {"data-testid": "net-clock", "data-left": left}, [f"{left} s"]],
            ["input", {"data-testid": "name", "value": typed_value}, []],
            ["input", box, []],
            ["button", {"data-testid": "next-hand", "data-action": "next"}, ["Next"]],
            ["svg", {"viewBox": "0 0 10 10"}, [["g", {"class": "tile"}, [["rect", {"x": left}, []]]]]],
        ]]
    blank.evaluate("t => tree.into(document.getElementById('a'), t)", json.dumps([screen("5")]))
    got = blank.evaluate("""([t, t2, t3]) => {
        const a = document.getElementById('a'), q = (s) => a.querySelector(s);
        const btn = q('[data-testid=next-hand]'), name = q('[data-testid=name]'), rect = q('rect');
        btn.focus();
        name.value = 'Ana Mar';                 // typed, not yet known to the game
        tree.into(a, t);                        // the clock ticks
        const r = [q('[data-testid=next-hand]') === btn, document.activeElement === btn, q('rect') === rect,
                   q('rect').namespaceURI, q('[data-testid=net-clock]').textContent, name.value];
        tree.into(a, t2);                       // the game changes the name and unticks the box
        r.push(q('[data-testid=name]').value, q('[data-testid=practice]').checked);
        tree.into(a, t3);                       // and ticks it again
        r.push(q('[data-testid=practice]').checked);
        return r;
    }""", [json.dumps([screen("4")]), json.dumps([screen("3", "Eva", False)]), json.dumps([screen("3", "Eva")])])
    assert got == [True, True, True, "http://www.w3.org/2000/svg", "4 s", "Ana Mar", "Eva", False, True]


def test_a_patch_asked_for_during_a_patch_waits_for_it(blank):
    """Removing the focused element blurs it at once; a blur handler that asks for another patch (the
    game draws again on every input) must not change the children under the patch being made (the
    browser would throw "the node to be removed is no longer a child"); it runs after, and wins."""
    def screen(*testids: str):
        return json.dumps([["div", {"class": "screen"},
                            [["input", {"data-testid": t, "value": t}, []] for t in testids]]])
    got = blank.evaluate("""([one, none, last]) => {
        const a = document.getElementById('a');
        tree.into(a, one);
        const box = a.querySelector('[data-testid=name]');
        box.focus();
        box.addEventListener('blur', () => tree.into(a, last));      // the game draws again at once
        let error = null;
        try { tree.into(a, none); } catch (e) { error = String(e); }
        return [error, document.activeElement === box,
                [...a.querySelectorAll('input')].map((x) => x.dataset.testid)];
    }""", [screen("name", "seat"), screen(), screen("seat", "other")])
    assert got == [None, False, ["seat", "other"]], got
