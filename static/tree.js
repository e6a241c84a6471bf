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
 * tree.into(parent, text): parent's children made to be the nodes of the JSON
 * list `text`, in place: an element of the same tag (and namespace) at the same
 * place is kept, its attributes and children brought to the new tree's, and
 * only what differs is made anew.  A friends' table draws its screen again every
 * second while a clock runs: the button under a finger stays the same element,
 * so a tap that spans a redraw is not lost, and neither is the focus.  The
 * result is the DOM tree.build would make (tests/browser/test_tree_patch.py);
 * a form control's value, checked or selected state follows the tree where the
 * tree changes it (what a player typed stays until then).
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

  function build(root, table, limits, svg) {   // svg: root stands under an <svg> already
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
    return make(root, !!svg, 0);
  }

  var STATE = { value: 1, checked: 1, selected: 1 };   // attributes whose live state is a property

  function update(el, node, svg) {
    var attrs = node[1], names = [], i, k;
    for (i = 0; i < el.attributes.length; i++) names.push(el.attributes[i].name);
    for (i = 0; i < names.length; i++) {
      if (!own.call(attrs, names[i])) {
        el.removeAttribute(names[i]);
        if (own.call(STATE, names[i]) && names[i] in el) el[names[i]] = names[i] === "value" ? "" : false;
      }
    }
    for (k in attrs) {
      if (own.call(attrs, k) && el.getAttribute(k) !== attrs[k]) {
        el.setAttribute(k, attrs[k]);
        if (own.call(STATE, k) && k in el) el[k] = k === "value" ? attrs[k] : true;
      }
    }
    into(el, node[2], svg);
  }

  function key(node) {   // what names a node among its siblings: its test id, else its id
    var a = node[1];
    return own.call(a, "data-testid") ? "t" + a["data-testid"] : own.call(a, "id") ? "i" + a.id : null;
  }

  function keyOf(el) {
    if (el.nodeType !== 1) return null;
    var t = el.getAttribute("data-testid"), id = el.getAttribute("id");
    return t !== null ? "t" + t : id !== null ? "i" + id : null;
  }

  function fits(el, node, svg) {
    return !!el && el.nodeType === 1 && el.localName === node[0] && (el.namespaceURI === SVG_NS) === svg;
  }

  // parent's children made to be kids: the places before i are done; an element is kept where it is
  // when its tag and key fit the place, or moved there from further on when its key does (a banner
  // that appears above a button leaves the button the same element); anything else is made anew,
  // and what is left over after the last place goes.
  function into(parent, kids, svg) {
    var have = parent.childNodes, later = null, i, j, want, cur, isSvg, k, el;
    for (i = 0; i < kids.length; i++) {
      want = kids[i];
      cur = have[i] || null;
      if (typeof want === "string") {
        if (cur && cur.nodeType === 3) {
          if (cur.data !== want) cur.data = want;
        } else {
          parent.insertBefore(document.createTextNode(want), cur);
        }
        continue;
      }
      isSvg = svg || want[0] === "svg";
      k = key(want);
      el = null;
      if (fits(cur, want, isSvg) && keyOf(cur) === k) {
        el = cur;
      } else if (k !== null) {
        if (later === null) {   // the keyed elements not placed yet, found once
          later = {};
          for (j = i; j < have.length; j++) {
            var kj = keyOf(have[j]);
            if (kj !== null && !own.call(later, kj)) later[kj] = have[j];
          }
        }
        el = own.call(later, k) && fits(later[k], want, isSvg) ? later[k] : null;
        if (el !== null) parent.insertBefore(el, cur);
      }
      if (el === null) {
        parent.insertBefore(build(want, null, null, svg), cur);
        continue;
      }
      if (later !== null && k !== null) delete later[k];   // placed: never moved again
      update(el, want, isSvg);
    }
    while (have.length > kids.length) parent.removeChild(parent.lastChild);
  }

  // A patch fires events as it goes: moving or removing the focused element blurs it at once, and a
  // blur (or change) handler may ask for another patch before this one is done (the game draws again on
  // every input), which would change the children under this one's feet (the browser then throws, "the
  // node to be removed is no longer a child").  So a patch asked for during a patch waits for it to
  // end, then runs, in the order asked.
  var patching = false, waiting = [];
  function patch(parent, text) {
    if (patching) {
      waiting.push([parent, text]);
      return;
    }
    patching = true;
    try {
      into(parent, JSON.parse(text), parent.namespaceURI === SVG_NS);
      while (waiting.length) {
        var next = waiting.shift();
        into(next[0], JSON.parse(next[1]), next[0].namespaceURI === SVG_NS);
      }
    } finally {
      patching = false;
      waiting = [];
    }
  }

  return {
    build: build,
    json: function (text) { return build(JSON.parse(text)); },
    into: patch,
  };
})();
