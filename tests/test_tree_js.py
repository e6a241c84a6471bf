"""The page's one builder of DOM from node trees (static/tree.js): static/boot.js
and static/first.js carry it as the build wrote it, and, run by node on a
small stand-in for the document, it builds what a tree says and refuses what
the snapshot painter must refuse."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domino.app import snapshot

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import build_first  # noqa: E402

TREE_JS = (ROOT / build_first.TREE_SOURCE).read_text(encoding="utf-8")


def test_boot_and_first_carry_the_one_builder():
    """The copies are the build's (scripts/build_first.py), never edited by hand."""
    for name in build_first.TREE_FILES:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert build_first.with_tree(text, TREE_JS) == text, f"{name} is stale: run scripts/build_first.py"
        # no second builder beside it
        assert text.count("createElementNS") == TREE_JS.count("createElementNS"), name
    # nor in Python: domino/browser.py hands the trees to this one
    assert "createElementNS" not in (ROOT / "domino" / "browser.py").read_text(encoding="utf-8")


def test_with_tree_needs_both_marks_once():
    with pytest.raises(ValueError):
        build_first.with_tree("no marks", TREE_JS)
    twice = build_first.TREE_BEGIN + build_first.TREE_END + build_first.TREE_BEGIN + build_first.TREE_END
    with pytest.raises(ValueError):
        build_first.with_tree(twice, TREE_JS)
    one = "  " + build_first.TREE_BEGIN + "\n  " + build_first.TREE_END + "\n"
    out = build_first.with_tree(one, "var tree = 1;\n\nx();\n")
    assert out == "  " + build_first.TREE_BEGIN + "\n  var tree = 1;\n\n  x();\n  " + build_first.TREE_END + "\n"
    assert build_first.with_tree(out, "var tree = 1;\n\nx();\n") == out


# static/tree.js on a stand-in document whose elements print themselves as HTML-like text
BUILD_JS = r"""
const vm = require('vm'), fs = require('fs');
function Node(tag, ns) { this.tag = tag; this.ns = ns; this.attrs = []; this.kids = []; }
Node.prototype.setAttribute = function (k, v) { this.attrs.push(k + '=' + String(v)); };
Node.prototype.appendChild = function (c) { this.kids.push(c); return c; };
Node.prototype.toString = function () {
  return '<' + (this.ns ? 'svg:' : '') + this.tag + (this.attrs.length ? ' ' + this.attrs.join(' ') : '') + '>' +
    this.kids.map(String).join('') + '</' + this.tag + '>';
};
const document = {
  createElement: (t) => new Node(t, null),
  createElementNS: (ns, t) => new Node(t, ns),
  createTextNode: (s) => ({toString: () => JSON.stringify(s)}),
};
const ctx = {document, JSON};
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(process.argv[2], 'utf8') + '\nthis.tree = tree;', ctx);
const limits = {depth: %(depth)d, nodes: %(nodes)d, tags: /^(%(tags)s)$/i, attrs: /^(on.*|href|xlink:href|src|srcdoc|action|formaction)$/i};
const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(cases.map((c) => {
  try {
    if (c.json) return String(ctx.tree.json(c.json));
    return String(ctx.tree.build(c.node, c.table || null, c.limits ? limits : undefined));
  } catch (e) { return 'refused: ' + e.message; }
})));
"""


def _run(tmp_path, cases: list[dict]) -> list[str]:
    script = tmp_path / "build.js"
    script.write_text(BUILD_JS % {"depth": snapshot.MAX_DEPTH, "nodes": 50,
                                  "tags": "|".join(sorted(snapshot.BANNED_TAGS))}, encoding="utf-8")
    out = subprocess.run(["node", str(script), str(ROOT / build_first.TREE_SOURCE)], input=json.dumps(cases),
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_builder_builds_the_tree(tmp_path):
    screen = ["div", {"class": "a", "data-seat": "1"},
              ["hi", ["svg", {"viewBox": "0 0 1 1"}, [["g", {}, [["rect", {"x": "0"}, []]]]]], ["p", {}, []]]]
    want = ('<div class=a data-seat=1>"hi"<svg:svg viewBox=0 0 1 1><svg:g><svg:rect x=0></rect></g></svg>'
            '<p></p></div>')
    table = [["b", {}, ["x"]], ["i", {"id": "k"}, [0, "y", 0]]]
    got = _run(tmp_path, [{"node": screen}, {"json": json.dumps(screen)}, {"node": screen, "limits": True},
                          {"node": 1, "table": table}, {"node": "just text"}])
    assert got == [want, want, want, '<i id=k><b>"x"</b>"y"<b>"x"</b></i>', '"just text"']


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_with_limits_the_builder_refuses_what_the_painter_must(tmp_path):
    deep: list = ["div", {}, []]
    for _ in range(snapshot.MAX_DEPTH + 1):
        deep = ["div", {}, [deep]]
    bad = {
        "not a node": ["div", {}],
        "too deep": deep,
        "too many nodes": ["div", {}, [["i", {}, []] for _ in range(60)]],
        "tag script": ["div", {}, [["script", {}, ["x"]]]],
        "tag foreignObject": ["svg", {}, [["foreignObject", {}, []]]],
        "attribute onclick": ["button", {"onclick": "x()"}, []],
        "attribute href": ["svg", {}, [["image", {"href": "x"}, []]]],
        "attribute data-n": ["div", {"data-n": 1}, []],
        "attribute a b": ["div", {"a b": "x"}, []],
    }
    got = _run(tmp_path, [{"node": node, "limits": True} for node in bad.values()])
    assert got == ["refused: " + why for why in bad]
    # without limits (Python's own live screens) the same shapes are built as they are
    assert _run(tmp_path, [{"node": ["div", {"data-n": 1}, []]}]) == ["<div data-n=1></div>"]


def test_the_source_is_neither_cached_nor_published():
    """The page runs the copies; the service worker need not keep the source."""
    import build_precache
    listed = build_precache.collect(ROOT)
    assert "static/boot.js" in listed and "static/first.js" in listed
    assert build_first.TREE_SOURCE not in listed
