/* The page never leaves the player without a way forward.
 *
 * Included by index.html as a plain <script src> in <head>, before the
 * runtime, so it is there whatever fails later. window.dominoRescue.show(text)
 * (called by main.py / domino/browser.py when Python fails; also by this file
 * when the runtime itself dies before the game is ready, e.g. "Maximum call
 * stack size exceeded") replaces the loader or the page with a readable error
 * [data-testid="boot-error"] and two buttons:
 *
 * - "Start fresh" [data-testid="start-fresh"]: this page's data (save,
 *   settings, snapshot: every "domino:<path>:" key but the copies already kept
 *   aside) is first kept aside under "domino:<path>:corrupt:<ISO time>" as one
 *   JSON object {key: text}; when that does not fit, it is downloaded as a file
 *   instead. Only then are the keys removed and the page reloaded, without its
 *   query string (a bad ?seed= cannot stop it again).
 * - "Reload" [data-testid="reload"].
 *
 * It sets html[data-ready="1"] and html[data-rescue="1"]: the error screen is
 * the usable screen. PyScript's own .py-error boxes are removed.
 * If nothing is ready two minutes after the page loaded, a softer note offers
 * the same buttons and "keep waiting"; it goes away by itself if the game
 * becomes ready.
 *
 * A boot that fails on the network (a file of the runtime that did not arrive:
 * "Failed to fetch dynamically imported module", as a phone's connection drops
 * for a moment) loads the page once more by itself instead, with the loader
 * still up: html[data-boot-retry="1"] as it goes, html[data-boot-retried="1"]
 * on the page loaded again. Once a minute at most (sessionStorage): a network
 * that stays down ends on the error screen, never in a loop. Failures that
 * raise no error of their own are watched for too: the runtime's module script
 * (PyScript's core) that does not load, and PyScript's fetch of pyscript.toml
 * or main.py that fails (it would wait for ever).
 */
(function () {
  "use strict";
  var html = document.documentElement;
  /* keys: domino/app/storage.py, written by scripts/build_first.py */ var KEYS = {"prefix": ["domino:", ":"], "settings": "settings", "snapshot": "snapshot", "corrupt": "corrupt:"};
  var prefix = KEYS.prefix[0] + location.pathname + KEYS.prefix[1];
  var WATCHDOG_MS = 120000;
  var shown = null;

  function t(en, es) {
    var lang = (html.lang || navigator.language || "en").slice(0, 2).toLowerCase();
    return lang === "es" ? es : en;
  }

  function stamp() { return new Date().toISOString(); }

  function ownKeys() {
    var out = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i);
        if (k && k.indexOf(prefix) === 0 && k.indexOf(prefix + KEYS.corrupt) !== 0) out.push(k);
      }
    } catch (e) { /* no storage: nothing to keep */ }
    return out;
  }

  function saveFile(name, text) {
    var url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    var a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  function startFresh() {
    var keys = ownKeys();
    var kept = {};
    keys.forEach(function (k) { try { kept[k] = localStorage.getItem(k); } catch (e) {} });
    if (keys.length) {
      var text = JSON.stringify(kept);
      var aside = prefix + KEYS.corrupt + stamp();
      var ok = false;
      try { localStorage.setItem(aside, text); ok = true; } catch (e) { ok = false; }
      if (!ok) saveFile("domino-kept-" + stamp().replace(/[^0-9]/g, "").slice(0, 12) + ".json", text);
      keys.forEach(function (k) { try { localStorage.removeItem(k); } catch (e) {} });
    }
    html.setAttribute("data-fresh", "1");
    setTimeout(function () { location.replace(location.pathname); }, keys.length ? 300 : 0);
  }

  function button(label, testid, onclick, primary) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = primary ? "primary" : "secondary";
    b.setAttribute("data-testid", testid);
    b.textContent = label;
    b.addEventListener("click", onclick);
    return b;
  }

  function show(text, soft) {
    if (soft && html.getAttribute("data-ready") === "1") return;
    if (shown && (soft || !shown.soft)) return;
    if (shown) shown.node.remove();
    var box = document.createElement("div");
    box.className = "rescue";
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-labelledby", "rescue-title");
    box.setAttribute("data-testid", soft ? "boot-slow" : "boot-error");
    var card = document.createElement("div");
    card.className = "card center";
    var h = document.createElement("h2");
    h.id = "rescue-title";
    h.textContent = soft ? t("Dominoes is taking long to start", "El dominó tarda en arrancar")
                         : t("Something went wrong", "Algo salió mal");
    var p = document.createElement("p");
    p.textContent = soft
      ? t("You can keep waiting, reload, or start fresh (your saved data is kept aside, not deleted).",
          "Puedes seguir esperando, recargar o empezar de cero (lo guardado se aparta, no se borra).")
      : t("The game hit an error and cannot go on from here. Reload, or start fresh: your saved data is kept aside, not deleted.",
          "El juego tuvo un error y no puede seguir desde aquí. Recarga, o empieza de cero: lo guardado se aparta, no se borra.");
    var detail = document.createElement("pre");
    detail.className = "rescue-detail";
    detail.textContent = String(text || "").slice(0, 600);
    var row = document.createElement("div");
    row.className = "buttons";
    row.appendChild(button(t("Start fresh", "Empezar de cero"), "start-fresh", startFresh, !soft));
    row.appendChild(button(t("Reload", "Recargar"), "reload", function () { location.reload(); }, false));
    if (soft) row.appendChild(button(t("Keep waiting", "Seguir esperando"), "keep-waiting", function () {
      box.remove(); shown = null;
    }, true));
    card.appendChild(h);
    card.appendChild(p);
    if (!soft) card.appendChild(detail);
    card.appendChild(row);
    box.appendChild(card);
    (document.body || html).appendChild(box);
    shown = { node: box, soft: !!soft };
    if (!soft) {
      html.setAttribute("data-rescue", "1");
      html.setAttribute("data-busy", "0");
      html.setAttribute("data-ready", "1");
      Array.prototype.forEach.call(document.querySelectorAll(".py-error"), function (el) { el.remove(); });
      new MutationObserver(function () {   // PyScript may still add its own box
        Array.prototype.forEach.call(document.querySelectorAll(".py-error"), function (el) { el.remove(); });
      }).observe(document.body || html, { childList: true, subtree: true });
    }
    var first = box.querySelector("button");
    if (first) first.focus();
  }

  var RETRY_KEY = prefix + "boot-retry";    // sessionStorage: when this tab last loaded again by itself
  var RETRY_MS = 60000;
  var NETWORK = /failed to fetch|networkerror|load failed|importing a module script failed|error loading dynamically imported module/i;

  function retriedLately() {
    try {
      var at = Number(sessionStorage.getItem(RETRY_KEY));
      return at > 0 && Math.abs(Date.now() - at) < RETRY_MS;
    } catch (e) { return true; }      // no storage: no way to know, no retry
  }

  if (retriedLately()) html.setAttribute("data-boot-retried", "1");

  function early(message) {
    // before the game is ready, a runtime error means it never will be; one that
    // is the network's gets one more try, by itself
    if (html.getAttribute("data-ready") === "1" || shown && !shown.soft) return;
    if (NETWORK.test(message) && !retriedLately()) {
      try { sessionStorage.setItem(RETRY_KEY, String(Date.now())); } catch (e) { show(message); return; }
      html.setAttribute("data-boot-retry", "1");
      location.reload();
      return;
    }
    show(message);
  }
  addEventListener("error", function (e) {
    early((e && (e.message || (e.error && e.error.message))) || "error");
  });
  // A file of the runtime that does not arrive, where nothing else would say so: the runtime's module
  // script (its error event does not bubble: seen here while it goes down), and the configuration and
  // program PyScript fetches (it waits on them for ever when the fetch fails).
  var RUNTIME = /\/static\/vendor\/pyscript\/[^/]*\.js$/;
  var FETCHED = /\/(pyscript\.toml|main\.py)$/;
  addEventListener("error", function (e) {
    var el = e && e.target;
    if (el && el.tagName === "SCRIPT" && RUNTIME.test(String(el.src).split("?")[0])) {
      early("Failed to fetch " + el.src);
    }
  }, true);
  if (window.fetch) {
    var fetch0 = window.fetch;
    window.fetch = function (input) {
      var p = fetch0.apply(this, arguments);
      var url = String(input && input.url || input).split("?")[0];
      if (FETCHED.test(url)) {
        p.catch(function (err) { early("Failed to fetch " + url + ": " + (err && err.message || err)); });
      }
      return p;
    };
  }
  addEventListener("unhandledrejection", function (e) {
    var r = e && e.reason;
    early((r && (r.message || String(r))) || "error");
  });
  addEventListener("load", function () {
    setTimeout(function () { show("", true); }, WATCHDOG_MS);
  });
  new MutationObserver(function () {
    if (html.getAttribute("data-ready") === "1" && shown && shown.soft) { shown.node.remove(); shown = null; }
  }).observe(html, { attributes: true, attributeFilter: ["data-ready"] });

  window.dominoRescue = { show: function (text) { show(text, false); }, startFresh: startFresh };
})();
