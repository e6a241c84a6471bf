/* The one builder of the page from the screens' node trees (domino/app/nodes.py).
 *
 * A node is [tag, {attrs}, [children]]; a child is a string (a text), a node,
 * or, given a table, the index of a node in it (static/first.js's pre-built
 * screens share their subtrees that way).  An "svg" node starts the SVG
 * namespace for everything under it.
 *
 * This file is the source; the page never requests it.  scripts/build_first.py
 * writes it, between the "tree" marks, into static/boot.js and static/first.js
 * (each paints before anything else is fetched, so neither may wait for
 * another file).  boot.js hands it to Python as window.dominoTree, and
 * domino/browser.py draws every live screen with it, the tree given as JSON.
 *
 * tree.build(node, table, limits) -> the element (or text node).
 * tree.json(text) -> tree.build(JSON.parse(text)).
 * With limits {depth, nodes, tags, attrs} (boot.js's snapshot painter: a saved
 * tree is data anyone could have edited) a tree that is not that shape, nests
 * deeper than limits.depth, has more than limits.nodes nodes, or holds a tag
 * matching limits.tags or an attribute matching limits.attrs (or a name that
 * is not a plain name, or a value that is not a string) throws an Error that
 * says why; nothing of it is on the page.
 */
var tree = (function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var TAG = /^[A-Za-z][A-Za-z0-9-]*$/;
  var ATTR = /^[A-Za-z_][A-Za-z0-9_:.-]*$/;
  var own = Object.prototype.hasOwnProperty;

  function refuse(node, depth, count, limits) {
    if (!Array.isArray(node) || node.length !== 3 || typeof node[0] !== "string" ||
        node[1] === null || typeof node[1] !== "object" || Array.isArray(node[1]) || !Array.isArray(node[2])) {
      return "not a node";
    }
    if (depth > limits.depth) return "too deep";
    if (++count.n > limits.nodes) return "too many nodes";
    if (!TAG.test(node[0]) || limits.tags.test(node[0])) return "tag " + node[0];
    for (var k in node[1]) {
      if (own.call(node[1], k) && (!ATTR.test(k) || limits.attrs.test(k) || typeof node[1][k] !== "string")) {
        return "attribute " + k;
      }
    }
    return null;
  }

  function build(root, table, limits) {
    var count = { n: 0 };
    function make(node, svg, depth) {
      if (typeof node === "string") return document.createTextNode(node);
      if (table && typeof node === "number") node = table[node];
      var why = limits ? refuse(node, depth, count, limits) : null;
      if (why) throw new Error(why);
      var tag = node[0], attrs = node[1], children = node[2];
      svg = svg || tag === "svg";
      var el = svg ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
      for (var k in attrs) if (own.call(attrs, k)) el.setAttribute(k, attrs[k]);
      for (var i = 0; i < children.length; i++) el.appendChild(make(children[i], svg, depth + 1));
      return el;
    }
    return make(root, false, 0);
  }

  return { build: build, json: function (text) { return build(JSON.parse(text)); } };
})();
