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
 * - the help button opens that game's rules (pre-built too), closed by its
 *   button or Escape;
 * - any other button (Start, Play, the guided hand, ...) is remembered: the
 *   loader says it happens as soon as the game is ready, and
 *   html[data-start-pending="1"] is set.  domino/browser.py then does it, once.
 *
 * window.dominoFirst, for domino/browser.py's take-over:
 *   painted        the pre-built screen is on screen
 *   handOver()     stops this file's handlers; returns JSON {help, pending,
 *                  focus, selection, scroll, dialogScroll}: what Python must keep
 *   restore()      after Python's first render: the focus, the caret and the
 *                  scroll positions as they were
 */
(function () {
  "use strict";
  var html = document.documentElement;
  var script = document.currentScript;
  var prefix = "domino:" + location.pathname + ":";
  var api = { painted: false };
  window.dominoFirst = api;

  function visited() {
    try {
      for (var i = 0; i < localStorage.length; i++) {
        if ((localStorage.key(i) || "").indexOf(prefix) === 0) return true;
      }
      return false;
    } catch (e) { return true; }   // no storage: let Python decide
  }
  if (html.getAttribute("data-painted") === "1" || html.getAttribute("data-ready") === "1" ||
      /^#join=/.test(location.hash) || visited() || !window.fetch) return;

  var app = null;
  var lang = /^es/i.test(navigator.language || "") ? "es" : "en";
  var url = new URL("first/" + lang + ".json", script && script.src ? script.src : document.baseURI);
  var data = null, key = null, live = true, help = null, pending = null, kept = null;
  var SVG_NS = "http://www.w3.org/2000/svg";

  function build(ref, svg) {
    if (typeof ref === "string") return document.createTextNode(ref);
    var n = data.nodes[ref];
    svg = svg || n[0] === "svg";
    var el = svg ? document.createElementNS(SVG_NS, n[0]) : document.createElement(n[0]);
    for (var k in n[1]) if (Object.prototype.hasOwnProperty.call(n[1], k)) el.setAttribute(k, n[1][k]);
    for (var i = 0; i < n[2].length; i++) el.appendChild(build(n[2][i], svg));
    return el;
  }

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
    var screen = build(data.screens[next]);
    app.replaceChildren(screen);
    key = next;
    carry(screen, values);
    var f = focusId && byId(screen, focusId);
    if (f) f.focus({ preventScroll: true });
  }

  function openHelp(game, opener) {
    closeHelp();
    if (!(game in data.help)) return;
    help = { game: game, opener: opener && opener.getAttribute("data-testid") };
    app.firstElementChild.appendChild(build(data.help[game]));
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
    var action = el.getAttribute("data-action");
    pending = { action: action, testid: el.getAttribute("data-testid") };
    html.setAttribute("data-start-pending", "1");
    var note = document.getElementById("loading-pending");
    if (!note) {
      note = document.createElement("div");
      note.id = "loading-pending";
      note.className = "pending";
      note.setAttribute("data-testid", "start-pending");
      var loading = document.getElementById("loading");
      if (loading) loading.appendChild(note);
    }
    note.textContent = /^(start|guide-start)$/.test(action) ? data.words.start : data.words.other;
  }

  function onClick(ev) {
    if (!live) return;
    var el = ev.target.closest && ev.target.closest("[data-action]");
    if (!el || el.disabled || el.getAttribute("aria-disabled") === "true") return;
    var action = el.getAttribute("data-action");
    if (action === "help") openHelp(el.getAttribute("data-game") || key.split("/")[0], el);
    else if (action === "help-close") closeHelp();
    else remember(el);
  }

  function onChange(ev) {
    if (!live) return;
    var el = ev.target, field = el.getAttribute && el.getAttribute("data-field");
    if (field !== "game" && field !== "players") return;
    var next = (data.moves[key] || {})[field + "=" + el.value];
    if (next && next !== key) show(next, el.getAttribute("data-testid"), field === "game");
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
    kept = { help: help && help.game, pending: pending, focus: focus, selection: selection,
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

  var screenData = fetch(url.href, { priority: "high" }).then(function (r) {
    if (!r.ok) throw new Error("HTTP " + r.status);
    return r.json();
  });
  Promise.all([screenData, parsed()]).then(function (got) {
    var d = got[0];
    app = document.getElementById("app");
    // Python may have been faster (a warm cache), or boot.js painted a snapshot: then that screen is the one.
    if (!app || html.getAttribute("data-ready") === "1" || html.getAttribute("data-painted") === "1" ||
        app.firstElementChild || !d || d.format !== "domino-first/1") return;
    data = d;
    html.lang = d.lang;
    document.title = d.title;
    show(d.start, null, false);
    app.addEventListener("click", onClick);
    app.addEventListener("change", onChange);
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
