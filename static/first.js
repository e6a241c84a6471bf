/* The first visit: the new-game screen, usable before Python is up.
 *
 * Included by index.html early in <head> as <script src async>, so that its
 * fetch starts one round trip after the page (the page's CSP meta tag turns
 * Chromium's preload scanner off: every later script or link is found only
 * when the parser gets to it).  On a first visit (no "domino:<path>:" key in
 * localStorage, not an invitation link) it fetches static/first/<lang>.json
 * (the browser's language), built at setup time by
 * scripts/build_first.py from the very code that draws the screen live
 * (domino/app/first.py documents the file), and paints its start screen into
 * #app as soon as both are there (a first visit has no snapshot for
 * static/boot.js to paint), live: html[data-first="1"], html[data-usable="1"].
 *
 * Before Python is up, on that screen:
 * - every field can be set; a change of the game or of the number of players
 *   shows the screen the session draws for it (the file's "moves" say which),
 *   with the other choices carried over (a new game starts from its own target
 *   and options, as the session does);
 * - the texts that follow the fields say what the live screen would: the
 *   names' placeholders, the one line by Play, the options' "changed" badge
 *   and the table code (from the file's "texts" and "codes"; the code of a
 *   mix of options that only Python can tell is shown as pending);
 * - the help button opens that game's rules (pre-built too), closed by its
 *   button or Escape;
 * - the language button shows the same screen in the other language at once
 *   (its file fetched then), with every choice carried over; Python takes
 *   over in that language and keeps it, as the live button does;
 * - any other button (Start, Play, the guided hand, ...) is remembered: the
 *   loader says it happens as soon as the game is ready, and
 *   html[data-start-pending="1"] is set.  domino/browser.py then does it, once.
 *
 * window.dominoFirst, for domino/browser.py's take-over:
 *   painted        the pre-built screen is on screen
 *   handOver()     stops this file's handlers; returns JSON {help, pending, lang,
 *                  focus, selection, scroll, dialogScroll}: what Python must keep
 *                  (lang: the language chosen here, null when not switched)
 *   seatNames(texts, seats)  the names of the seats (settings.seat_names), for tests
 *   restore()      after Python's first render: the focus, the caret and the
 *                  scroll positions as they were
 */
(function () {
  "use strict";
  var html = document.documentElement;
  var script = document.currentScript;
  /* keys: domino/app/storage.py, written by scripts/build_first.py */ var KEYS = {"prefix": ["domino:", ":"], "settings": "settings", "snapshot": "snapshot", "corrupt": "corrupt:"};
  var prefix = KEYS.prefix[0] + location.pathname + KEYS.prefix[1];
  var api = { painted: false };
  window.dominoFirst = api;

  // The runtime's 10 MB wasm, asked for now, on every visit: the runtime's own loader asks for it only
  // once PyScript's and Pyodide's modules are loaded and started (0.1-1 s later here, more on a phone);
  // static/pyodide.mjs hands this response to it.  Low priority: the first screen's files come first.
  if (!window.dominoWasm && window.fetch && script && script.src) {
    try {
      window.dominoWasm = fetch(new URL("vendor/pyodide/pyodide.asm.wasm", script.src).href, { priority: "low" });
      window.dominoWasm.catch(function () {});
    } catch (e) {
      window.dominoWasm = null;
    }
  }

  // The seats' names (settings.seat_names), from the file's "names" (written by the build from
  // seat_names itself): a blank person's seat the name of its number, a blank computer seat the next
  // name of its level's list.  What typed names do stays here: a typed name is that seat's, and no
  // computer takes it; a name that is still repeated gets its seat's number.
  function seatNames(T, seats) {
    var typed = seats.map(function (x) { return x.name.trim(); });
    var next = Object.create(null);
    var names = seats.map(function (x, i) {
      var level = T.names.computers[x.kind];
      if (typed[i] || !level) return typed[i] || T.names.people[x.kind][i];
      var k = next[x.kind] || 0;
      while (k < level.length - 1 && typed.indexOf(level[k]) >= 0) k++;
      next[x.kind] = k + 1;
      return level[k];
    });
    return names.map(function (name, i) {
      return names.indexOf(name) !== names.lastIndexOf(name) ? name + " " + (i + 1) : name;
    });
  }
  api.seatNames = seatNames;

  // An invitation to a friend's table (domino/app/links.py): the guest's screen, never this one.
  /* links: domino/app/links.py, written by scripts/build_first.py */ var INVITATIONS = ["join=", "online=", "later="];
  function invitation() {
    var frag = (location.hash || "").replace(/^#/, "");
    return INVITATIONS.some(function (p) { return frag.indexOf(p) === 0; });
  }

  function visited() {
    try {
      for (var i = 0; i < localStorage.length; i++) {
        if ((localStorage.key(i) || "").indexOf(prefix) === 0) return true;
      }
      return false;
    } catch (e) { return true; }   // no storage: let Python decide
  }
  if (html.getAttribute("data-painted") === "1" || html.getAttribute("data-ready") === "1" ||
      invitation() || visited() || !window.fetch) return;

  var app = null;
  var lang = /^es/i.test(navigator.language || "") ? "es" : "en";
  var base = script && script.src ? script.src : document.baseURI;
  var data = null, key = null, live = true, help = null, pending = null, kept = null;
  var files = {}, chosen = null, switching = false;

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

  function byId(root, id) { return root.querySelector('[data-testid="' + id + '"]'); }

  // What the player changed from what the screen showed (by test id).
  function changed(screen, resetGame) {
    var out = {};
    screen.querySelectorAll("select[data-testid], input[data-testid], details[data-testid]").forEach(function (el) {
      var id = el.getAttribute("data-testid"), field = el.getAttribute("data-field");
      if (field === "game" || field === "players" || field === "import") return;
      if (resetGame && (field === "target" || field === "option")) return;   // a new game: its own defaults
      if (el.tagName === "DETAILS") out[id] = { open: el.open };
      else if (el.type === "checkbox") { if (el.checked !== el.defaultChecked) out[id] = { checked: el.checked }; }
      else if (el.tagName === "SELECT") {
        var first = null;
        for (var i = 0; i < el.options.length; i++) if (el.options[i].defaultSelected) first = el.options[i].value;
        if (first === null && el.options.length) first = el.options[0].value;
        if (el.value !== first) out[id] = { value: el.value };
      } else if (el.value !== el.defaultValue) out[id] = { value: el.value };
    });
    return out;
  }

  function carry(screen, values) {
    for (var id in values) {
      var el = byId(screen, id), v = values[id];
      if (!el) continue;
      if ("open" in v) el.open = v.open;
      else if ("checked" in v) { if (!el.disabled) el.checked = v.checked; }
      else if (el.tagName === "SELECT") {
        if ([].some.call(el.options, function (o) { return o.value === v.value; })) el.value = v.value;
      } else el.value = v.value;
    }
  }

  function show(next, focusId, resetGame) {
    var old = app.firstElementChild;
    var values = old ? changed(old, resetGame) : {};
    var screen = tree.build(data.screens[next], data.nodes);
    app.replaceChildren(screen);
    key = next;
    carry(screen, values);
    retext();
    var f = focusId && byId(screen, focusId);
    if (f) f.focus({ preventScroll: true });
  }

  function fmt(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? String(values[k]) : m; });
  }
  function setText(el, text) { if (el && el.textContent !== text) el.textContent = text; }

  // The texts that follow the fields, as domino/app/screens/lobby.py says them.
  function retext() {
    var screen = app.firstElementChild, T = data.texts;
    if (!screen || !T) return;
    var seats = [];
    for (var i = 0; byId(screen, "seat-kind-" + i) && byId(screen, "seat-name-" + i); i++) {
      seats.push({ kind: byId(screen, "seat-kind-" + i).value, name: byId(screen, "seat-name-" + i).value });
    }
    var names = seatNames(T, seats);
    seats.forEach(function (x, i) {
      var person = T.people.indexOf(x.kind) >= 0;
      byId(screen, "seat-name-" + i).setAttribute("placeholder", !x.name.trim() ? names[i]
        : person ? T.player[i] : T.placeholder[x.kind] || "");
    });
    var target = byId(screen, "target"), tv = target ? target.value : data.targets[key];
    var game = T.games[key.split("/")[0]];
    setText(byId(screen, "quick-line"), tv === null || tv === undefined
      ? fmt(T.quick.rounds, { game: game, names: names.join(", ") })
      : fmt(T.quick.summary, { game: game, target: fmt(T.quick.target, { points: tv }), names: names.join(", ") }));
    // the options changed from the game's own (the pre-built screen shows those)
    var moved = 0;
    screen.querySelectorAll('select[data-field="option"]').forEach(function (el) {
      var own = [].filter.call(el.options, function (o) { return o.defaultSelected; })[0];
      if (own && el.value !== own.value) moved++;
    });
    var toggle = byId(screen, "options-toggle");
    if (toggle) {
      var badge = toggle.querySelector(".badge");
      if (!moved && badge) badge.remove();
      if (moved) {
        if (!badge) { badge = document.createElement("span"); badge.className = "badge"; toggle.appendChild(badge); }
        setText(badge, T.changed[String(moved)] || "");
      }
    }
    // the table code: known for the game's own options at each target; else Python will tell
    var box = byId(screen, "lobby-code"), part = byId(screen, "partnership");
    if (box) {
      var code = moved || (part && part.checked !== part.defaultChecked) ? null
        : (data.codes[key] || {})[tv === null || tv === undefined ? "" : String(tv)];
      if (code) { box.setAttribute("data-code", code); box.removeAttribute("data-pending"); }
      else { box.removeAttribute("data-code"); box.setAttribute("data-pending", "1"); }
      setText(byId(box, "lobby-toggle"), code ? fmt(T.code, { code: code }) : T.code_pending);
    }
  }

  function openHelp(game, opener) {
    closeHelp();
    if (!(game in data.help)) return;
    help = { game: game, opener: opener && opener.getAttribute("data-testid") };
    app.firstElementChild.appendChild(tree.build(data.help[game], data.nodes));
    var close = app.querySelector('[data-action="help-close"]');
    if (close) close.focus({ preventScroll: true });
  }

  function closeHelp() {
    var d = app.querySelector('[data-testid="help-dialog"]');
    if (d) d.remove();
    var back = help && help.opener && byId(app, help.opener);
    help = null;
    if (back) back.focus({ preventScroll: true });
  }

  function remember(el) {
    pending = { action: el.getAttribute("data-action"), testid: el.getAttribute("data-testid") };
    html.setAttribute("data-start-pending", "1");
    sayPending();
  }

  // The loader says what the tap waits for, in the screen's language.
  function sayPending() {
    var note = document.getElementById("loading-pending");
    if (!note) {
      note = document.createElement("div");
      note.id = "loading-pending";
      note.className = "pending";
      note.setAttribute("data-testid", "start-pending");
      var loading = document.getElementById("loading");
      if (loading) loading.appendChild(note);
    }
    note.textContent = /^(start|guide-start)$/.test(pending.action) ? data.words.start : data.words.other;
  }

  function fetchScreens(l) {
    if (!files[l]) {
      files[l] = fetch(new URL("first/" + l + ".json", base).href, { priority: "high" }).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      }).then(function (d) {
        if (!d || d.format !== "domino-first/1" || d.lang !== l) throw new Error("not domino-first/1 in " + l);
        return d;
      });
      files[l].catch(function () { delete files[l]; });   // a later tap tries again
    }
    return files[l];
  }

  function useLang(d) {
    data = d;
    html.lang = d.lang;
    document.title = d.title;
    if (window.dominoBoot && window.dominoBoot.lang) window.dominoBoot.lang(d.lang);   // the loader's words
  }

  // The language button: the same screen in the other language, the choices carried over.
  function switchLang(to) {
    if (switching || !/^(es|en)$/.test(to || "")) return;
    switching = true;
    fetchScreens(to).then(function (d) {
      switching = false;
      if (!live || !(key in d.screens)) return;
      var open = help && help.game;
      closeHelp();
      useLang(d);
      chosen = d.lang;
      show(key, "lang", false);
      if (open) openHelp(open, byId(app, "help"));
      if (pending) sayPending();
    }).catch(function (e) {
      switching = false;
      if (window.console) console.warn("domino: no first screen in " + to + ": " + e);
    });
  }

  function onClick(ev) {
    if (!live) return;
    var el = ev.target.closest && ev.target.closest("[data-action]");
    if (!el || el.disabled || el.getAttribute("aria-disabled") === "true") return;
    var action = el.getAttribute("data-action");
    if (action === "help") openHelp(el.getAttribute("data-game") || key.split("/")[0], el);
    else if (action === "help-close") closeHelp();
    else if (action === "lang") switchLang(el.getAttribute("data-lang"));
    else remember(el);
  }

  function onChange(ev) {
    if (!live) return;
    var el = ev.target, field = el.getAttribute && el.getAttribute("data-field");
    var next = (field === "game" || field === "players") && (data.moves[key] || {})[field + "=" + el.value];
    if (next && next !== key) show(next, el.getAttribute("data-testid"), field === "game");
    else retext();
  }

  function onKey(ev) {
    if (live && ev.key === "Escape" && help) closeHelp();
  }

  api.handOver = function () {
    live = false;
    var a = document.activeElement, focus = null, selection = null;
    if (a && app.contains(a) && a.getAttribute("data-testid")) {
      focus = a.getAttribute("data-testid");
      try { if (typeof a.selectionStart === "number") selection = [a.selectionStart, a.selectionEnd]; } catch (e) {}
    }
    var card = app.querySelector('[data-testid="help-dialog"]');
    kept = { help: help && help.game, pending: pending, lang: chosen, focus: focus, selection: selection,
             scroll: [scrollX, scrollY], dialogScroll: card ? card.scrollTop : 0 };
    return JSON.stringify(kept);
  };

  api.restore = function () {
    html.removeAttribute("data-first");
    if (!kept) return;
    var el = kept.focus && byId(app, kept.focus);
    if (el) {
      el.focus({ preventScroll: true });
      if (kept.selection) try { el.setSelectionRange(kept.selection[0], kept.selection[1]); } catch (e) {}
    }
    var card = app.querySelector('[data-testid="help-dialog"]');
    if (card) card.scrollTop = kept.dialogScroll;
    if (scrollX !== kept.scroll[0] || scrollY !== kept.scroll[1]) scrollTo(kept.scroll[0], kept.scroll[1]);
  };

  // #app exists (and the loader before it): the parser got past it.
  function parsed() {
    return new Promise(function (resolve) {
      if (document.getElementById("app")) return resolve();
      var seen = new MutationObserver(function () {
        if (document.getElementById("app")) { seen.disconnect(); resolve(); }
      });
      seen.observe(document, { childList: true, subtree: true });
    });
  }

  Promise.all([fetchScreens(lang), parsed()]).then(function (got) {
    var d = got[0];
    app = document.getElementById("app");
    // Python may have been faster (a warm cache), or boot.js painted a snapshot: then that screen is the one.
    if (!app || html.getAttribute("data-ready") === "1" || html.getAttribute("data-painted") === "1" ||
        app.firstElementChild) return;
    useLang(d);
    show(d.start, null, false);
    app.addEventListener("click", onClick);
    app.addEventListener("change", onChange);
    app.addEventListener("input", function (ev) { if (live && ev.target.getAttribute("data-field") === "seat-name") retext(); });
    document.addEventListener("keydown", onKey);
    api.painted = true;
    html.setAttribute("data-first", "1");
    html.setAttribute("data-painted", "1");
    html.setAttribute("data-usable", "1");
    if (window.performance && performance.mark) performance.mark("domino:usable");
  }).catch(function (e) {
    if (window.console) console.warn("domino: no first screen: " + e);
  });
})();
