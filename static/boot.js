/* Before Python is up: the saved screen, and words on the loader.
 *
 * Included by index.html as a plain (not deferred) <script src> right after
 * <main id="app">, so it runs while the page is parsed, before its first paint
 * and long before the runtime starts. No inline script anywhere: the page can
 * run under a Content-Security-Policy that forbids it.
 *
 * 1. The snapshot. domino/browser.py keeps, in localStorage under
 *    "domino:<path>:snapshot", the screen a reload will show, as the node tree
 *    the Python screens are built from (domino/app/snapshot.py):
 *      {"format": "domino-snapshot/1", "screen", "lang", "title", "seq",
 *       "tree": [tag, {attrs}, [children]]}
 *    It is painted into #app, inert and dimmed (html[data-snapshot="painted"],
 *    styles in static/app.css), and html[data-painted="1"] is set. Python's first
 *    render replaces it with the live screen, drawn by the same code.
 *    A snapshot that is not that shape, is longer than MAX_CHARS, nests deeper
 *    than MAX_DEPTH, has more than MAX_NODES nodes, or holds a tag or attribute
 *    that the screens never use (scripts, handlers, links) is removed and
 *    ignored: the page boots as if there were none.
 *
 * 2. The loader's words: what is happening now ("Downloading the game, 6.1 of
 *    12.9 MB — only this once", "Starting Python", "Setting the table"), in
 *    the language of the saved settings, else the browser's, and its bar
 *    ([data-testid="boot-progress"], data-value 0..100): the bytes actually
 *    received up to 90, 96 when the interpreter is up, 100 when the game is
 *    ready; it never goes back.  Served by the service worker (a returning
 *    visit) there is nothing to download: no bar (#loading[data-local]).
 *    The byte counts come from static/sw-register.js ("domino:progress"
 *    events); everything that moves on the loader is a CSS transform/opacity
 *    animation, which the compositor keeps running while the main thread
 *    compiles and starts Python.  On a first visit static/first.js puts the
 *    new-game screen under it, and the loader is a strip at the bottom.
 *
 * window.dominoBoot = {snapshot: "painted" | "none" | "ignored: <why>"} for tests, and
 * lang("es" | "en"): the loader's words in that language from now on (static/first.js).
 * window.dominoTree: the page's one builder of DOM from node trees (static/tree.js,
 * written into this file by scripts/build_first.py), which paints the snapshot here
 * (with the limits above) and every live screen for domino/browser.py.
 * User Timing marks for scripts/bench_boot.py: domino:painted (here),
 * domino:py-ready (the interpreter is up), then domino:start and domino:ready
 * (domino/browser.py).
 */
(function () {
  "use strict";
  var FORMAT = "domino-snapshot/1";
  var MAX_CHARS = 262144;   // domino/app/snapshot.py MAX_CHARS
  var MAX_DEPTH = 40;       // domino/app/snapshot.py MAX_DEPTH
  var MAX_NODES = 20000;
  var BANNED_TAGS = /^(script|style|iframe|object|embed|foreignobject|link|meta|base|form|a|use|animate|set)$/i;
  var BANNED_ATTRS = /^(on.*|href|xlink:href|src|srcdoc|action|formaction)$/i;

  var html = document.documentElement;
  var path = location.pathname;
  var boot = { snapshot: "none" };
  window.dominoBoot = boot;

  // An invitation to a friend's table (domino/app/links.py): the guest's screen, not this phone's last one.
  /* links: domino/app/links.py, written by scripts/build_first.py */ var INVITATIONS = ["join=", "online=", "later="];
  function invitation() {
    var frag = (location.hash || "").replace(/^#/, "");
    return INVITATIONS.some(function (p) { return frag.indexOf(p) === 0; });
  }

  /* keys: domino/app/storage.py, written by scripts/build_first.py */ var KEYS = {"prefix": ["domino:", ":"], "settings": "settings", "snapshot": "snapshot", "corrupt": "corrupt:"};
  function key(name) { return KEYS.prefix[0] + path + KEYS.prefix[1] + name; }
  function stored(name) {
    try { return localStorage.getItem(key(name)); } catch (e) { return null; }
  }

  // ------------------------------------------------------------ snapshot
  /* tree: static/tree.js, written here by scripts/build_first.py */
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
  /* end of tree */
  window.dominoTree = tree;   // domino/browser.py draws the live screens with it

  function paint() {
    var app = document.getElementById("app");
    var text = stored(KEYS.snapshot);
    if (!app || !text) return;
    if (invitation()) return;
    var why = null, screen = null;
    try {
      if (text.length > MAX_CHARS) throw new Error("too large (" + text.length + " characters)");
      var snap = JSON.parse(text);
      if (!snap || snap.format !== FORMAT) throw new Error("not " + FORMAT);
      screen = tree.build(snap.tree, null,
        { depth: MAX_DEPTH, nodes: MAX_NODES, tags: BANNED_TAGS, attrs: BANNED_ATTRS });
    } catch (e) {
      why = String(e && e.message || e);
    }
    if (why !== null) {
      boot.snapshot = "ignored: " + why;
      try { localStorage.removeItem(key(KEYS.snapshot)); } catch (e) { /* read-only */ }
      if (window.console) console.warn("domino: snapshot ignored: " + why);
      return;
    }
    if (typeof snap.lang === "string" && /^[a-z]{2}$/.test(snap.lang)) html.lang = snap.lang;
    if (typeof snap.title === "string") document.title = snap.title;
    app.setAttribute("inert", "");
    app.appendChild(screen);
    html.setAttribute("data-snapshot", "painted");
    html.setAttribute("data-painted", "1");
    boot.snapshot = "painted";
    if (window.performance && performance.mark) performance.mark("domino:painted");
  }

  if (html.getAttribute("data-ready") !== "1") paint();

  // ------------------------------------------------------------- loader
  var out = document.getElementById("loading-progress");
  var meter = document.querySelector('[data-testid="boot-progress"]');
  var bar = document.getElementById("loading-bar");
  if (!out) return;
  var lang = html.lang;
  try {
    var settings = JSON.parse(stored(KEYS.settings) || "{}");
    if (settings && (settings.lang === "es" || settings.lang === "en")) lang = settings.lang;
    else if (boot.snapshot !== "painted") lang = /^es/i.test(navigator.language || "") ? "es" : "en";
  } catch (e) { /* keep the page's */ }
  var es, words;
  function speak(l) {
    es = l === "es";
    words = {
      download: es ? "Descargando el juego ({total}solo esta vez)…" : "Downloading the game ({total}only this once)…",
      bytes: es ? "Descargando el juego, {loaded} de {total} MB — solo esta vez"
                : "Downloading the game, {loaded} of {total} MB — only this once",
      start: es ? "Iniciando Python…" : "Starting Python…",
      table: es ? "Preparando la mesa…" : "Setting the table…"
    };
  }
  speak(lang);
  var total = 0, loaded = 0, stage = "", value = -1;
  var mb = function (n) { return (n / 1048576).toFixed(1).replace(".", es ? "," : "."); };
  function say(next) {
    stage = next;
    var text = next === "download" && loaded && total ? words.bytes : words[next];
    text = text.replace("{loaded}", mb(Math.min(loaded, total))).replace("{total}", next === "download" && !loaded
      ? (total ? mb(total) + " MB, " : "") : mb(total));
    if (out.textContent !== text) out.textContent = text;
    out.setAttribute("data-stage", next);
  }
  // The bar: the bytes received (to 90), then the start-up steps; it only moves forward.
  function advance(v) {
    v = Math.max(value, Math.min(100, Math.floor(v)));
    if (v === value) return;
    value = v;
    if (meter) { meter.setAttribute("data-value", String(v)); meter.setAttribute("aria-valuenow", String(v)); }
    if (bar) bar.style.transform = "scaleX(" + (v / 100).toFixed(2) + ")";
  }
  // Served by the service worker: nothing to download, Python only has to start (and no bar).
  var local = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  if (local) out.parentNode.setAttribute("data-local", "1");
  advance(local ? 90 : 0);
  say(local ? "start" : "download");
  // static/first.js's language button: the loader speaks the screen's language
  boot.lang = function (l) { speak(l); say(stage); };
  addEventListener("domino:progress", function (e) {
    var d = e.detail || {};
    if (d.total) total = d.total;
    if (d.loaded) loaded = d.loaded;
    if (stage !== "download" || !total) return;
    advance(90 * Math.min(1, loaded / total));
    say(loaded >= 0.98 * total ? "start" : "download");
    if (stage === "start") advance(90);
  });
  // PyScript dispatches py:ready once the interpreter is up, before running main.py.
  addEventListener("py:ready", function () {
    if (window.performance && performance.mark) performance.mark("domino:py-ready");
    advance(96);
    say("table");
  });
  new MutationObserver(function (_, observer) {
    if (html.getAttribute("data-ready") === "1") { advance(100); observer.disconnect(); }
  }).observe(html, { attributes: true, attributeFilter: ["data-ready"] });
})();
