/* Offline support for the page: service worker registration, the
 * "update available - reload" prompt, persistent storage, and download
 * progress on the loading screen.
 *
 * Included by index.html as <script src="./static/sw-register.js" defer>.
 * All URLs are relative to this script, so the site works from any sub-path.
 *
 * - Registration waits until the game is ready (html[data-ready="1"]), or the
 *   page has been loaded for a while, so that on a first visit the service
 *   worker's precache revalidates what the page has just downloaded instead of
 *   downloading the runtime a second time alongside it.
 * - A new version (a new worker "installed" while an old one controls the page)
 *   shows a banner above the page (never over it) with a button
 *   [data-testid="update-available"] and a "later" button that hides it until
 *   the next visit. Clicking it
 *   posts SKIP_WAITING to the waiting worker; when it takes control
 *   (controllerchange) the page reloads into the new version. Until then the
 *   old worker keeps serving the old files: versions are never mixed.
 * - navigator.storage.persist() is requested once the worker is active, so the
 *   browser does not evict the cached game or the saved game.
 * - While the loading screen shows, the bytes of the Pyodide runtime read so far
 *   are shown in #loading-progress (as its data-bytes attribute, rendered with
 *   CSS ::after in static/app.css, so that it composes with whatever text the
 *   page puts there).
 *
 *   The same numbers are dispatched on window as a "domino:progress" event,
 *   detail {loaded, total} (bytes), for a progress bar that wants them.
 *
 * window.dominoSW exposes {ready: Promise<registration>, update(), persisted,
 * progress} for tests and debugging.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script && script.src ? script.src : document.baseURI;
  var SW_URL = new URL("../sw.js", base).href;
  var SCOPE = new URL("../", base).href;
  var PRECACHE_URL = new URL("precache.js", base).href;
  var RUNTIME_URL = new URL("vendor/pyodide/", base).href;
  var html = document.documentElement;

  var api = { persisted: null, registration: null, progress: null };
  window.dominoSW = api;

  // ------------------------------------------------------------ progress
  (function progress() {
    var out = document.getElementById("loading-progress");
    if (!out || html.dataset.ready === "1") return;
    var total = 0;
    var done = {};      // url -> bytes (completed resources)
    var streaming = {}; // url -> bytes read so far
    var mb = function (n) { return (n / 1048576).toFixed(1); };
    var render = function () {
      if (html.dataset.ready === "1") return;
      var sum = 0, k;
      for (k in streaming) if (!(k in done)) sum += streaming[k];
      for (k in done) sum += done[k];
      if (!sum) return;
      out.dataset.loaded = String(sum);
      api.progress = { loaded: sum, total: total };
      // For the page's own progress bar, if it wants real numbers.
      try { dispatchEvent(new CustomEvent("domino:progress", { detail: api.progress })); } catch (e) {}
      out.setAttribute("data-bytes", total ? mb(Math.min(sum, total)) + " / " + mb(total) + " MB"
                                           : mb(sum) + " MB");
    };
    // (not the runtime's own standard library and lock file: static/pyodide.mjs boots without them)
    var tracked = function (url) {
      return url.indexOf(RUNTIME_URL) === 0 && !/(LICENSE|python_stdlib\.zip|pyodide-lock\.json)$/.test(url);
    };
    // Total size of the Pyodide runtime, from the generated precache list.
    fetch(PRECACHE_URL).then(function (r) { return r.ok ? r.text() : ""; }).then(function (text) {
      var data = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
      data.files.forEach(function (f) {
        var url = new URL(f.url, SCOPE).href;
        if (tracked(url)) total += f.size;
      });
      out.dataset.total = String(total);
      render();
    }).catch(function () { /* no total: show bytes only */ });
    // Completed resources (module imports included), with their decoded sizes.
    if (window.PerformanceObserver) {
      try {
        new PerformanceObserver(function (list) {
          list.getEntries().forEach(function (e) {
            var url = e.name.split("?")[0];
            if (tracked(url) && e.decodedBodySize) done[url] = e.decodedBodySize;
          });
          render();
        }).observe({ type: "resource", buffered: true });
      } catch (e) { /* older browsers */ }
    }
    // Large fetches (the wasm, the stdlib zip): count bytes as they arrive on a
    // clone, leaving the response Pyodide gets untouched.
    var origFetch = window.fetch;
    if (!origFetch || !window.ReadableStream) return;
    window.fetch = function (input) {
      var p = origFetch.apply(this, arguments);
      if (html.dataset.ready === "1") return p;
      var url;
      try { url = new URL(typeof input === "string" ? input : input.url, document.baseURI).href; }
      catch (e) { return p; }
      url = url.split("?")[0];
      if (!tracked(url)) return p;
      return p.then(function (response) {
        try {
          if (response.ok && response.body) {
            var reader = response.clone().body.getReader();
            streaming[url] = 0;
            var pump = function () {
              return reader.read().then(function (r) {
                if (r.done) return;
                streaming[url] += r.value.byteLength;
                render();
                return pump();
              });
            };
            pump().catch(function () {});
          }
        } catch (e) { /* never break the page over a progress display */ }
        return response;
      });
    };
    new MutationObserver(function () {
      if (html.dataset.ready === "1") window.fetch = origFetch;
    }).observe(html, { attributes: true, attributeFilter: ["data-ready"] });
  })();

  // ------------------------------------------------------- update prompt
  var reloading = false;
  var wantReload = false;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      // Only after the user asked for it: the first install also takes control.
      if (wantReload && !reloading) { reloading = true; location.reload(); }
    });
  }

  // The banner is the first thing in <body>, in the page's flow (not over it):
  // html[data-update="1"] and --update-h (its height) let static/app.css shrink
  // the table by as much, so it covers nothing. "Later" hides it until the next
  // visit (a reload or a new tab shows it again while the update waits).
  var dismissed = false;
  function showUpdate(registration) {
    if (dismissed || document.querySelector('[data-testid="update-available"]')) return;
    var bar = document.createElement("div");
    bar.className = "domino-update";
    bar.setAttribute("role", "status");
    bar.setAttribute("data-testid", "update-banner");
    var text = document.createElement("span");
    text.textContent = "Update available / Actualización disponible";
    var button = document.createElement("button");
    button.type = "button";
    button.setAttribute("data-testid", "update-available");
    button.textContent = "Reload / Recargar";
    button.addEventListener("click", function () {
      button.disabled = true;
      wantReload = true;
      var waiting = registration && registration.waiting;
      if (waiting) waiting.postMessage({ type: "SKIP_WAITING" });
      else if (!reloading) { reloading = true; location.reload(); }
    });
    var later = document.createElement("button");
    later.type = "button";
    later.className = "later";
    later.setAttribute("data-testid", "update-later");
    later.setAttribute("aria-label", "Later / Más tarde");
    later.textContent = "\u00d7";
    var fit = function () {
      html.style.setProperty("--update-h", bar.offsetHeight + "px");
      dispatchEvent(new Event("resize"));   // the board redraws for its new size
    };
    later.addEventListener("click", function () {
      dismissed = true;
      bar.remove();
      html.removeAttribute("data-update");
      html.style.removeProperty("--update-h");
      dispatchEvent(new Event("resize"));
    });
    bar.appendChild(text);
    bar.appendChild(button);
    bar.appendChild(later);
    document.body.insertBefore(bar, document.body.firstChild);
    html.setAttribute("data-update", "1");
    fit();
    if (window.ResizeObserver) new ResizeObserver(function () { if (bar.isConnected) fit(); }).observe(bar);
  }
  api.showUpdate = function () { showUpdate(api.registration); };   // tests and debugging

  if (!("serviceWorker" in navigator)) {
    api.ready = Promise.reject(new Error("no service worker support"));
    api.ready.catch(function () {});
    return;
  }

  function watch(registration) {
    var offer = function () {
      if (registration.waiting && navigator.serviceWorker.controller) showUpdate(registration);
    };
    offer();
    registration.addEventListener("updatefound", function () {
      var worker = registration.installing;
      if (!worker) return;
      worker.addEventListener("statechange", function () {
        if (worker.state === "installed") offer();
      });
    });
  }

  function askPersistence() {
    if (!navigator.storage || !navigator.storage.persist) return;
    navigator.storage.persisted().then(function (already) {
      return already || navigator.storage.persist();
    }).then(function (granted) { api.persisted = !!granted; })
      .catch(function () { api.persisted = false; });
  }

  // --------------------------------------------------------- registration
  var resolveReady, rejectReady;
  api.ready = new Promise(function (res, rej) { resolveReady = res; rejectReady = rej; });
  api.ready.catch(function () {});
  api.update = function () {
    return api.ready.then(function (r) { return r.update().then(function () { return r; }); });
  };

  var registered = false;
  function register() {
    if (registered) return;
    registered = true;
    // updateViaCache "none": update checks bypass the HTTP cache for sw.js AND
    // static/precache.js (GitHub Pages sends max-age=600), so a deploy is seen at once.
    navigator.serviceWorker.register(SW_URL, { scope: SCOPE, updateViaCache: "none" }).then(function (registration) {
      api.registration = registration;
      watch(registration);
      resolveReady(registration);
      return navigator.serviceWorker.ready;
    }).then(function () {
      askPersistence();
      // A long-lived tab (an installed app) still notices new versions.
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible" && api.registration) {
          api.registration.update().catch(function () {});
        }
      });
    }).catch(function (error) {
      rejectReady(error);
      if (window.console) console.warn("service worker registration failed:", error);
    });
  }

  if (navigator.serviceWorker.controller || html.dataset.ready === "1") {
    register(); // the runtime is already cached (or loaded): nothing to compete with
  } else {
    new MutationObserver(function (_, observer) {
      if (html.dataset.ready === "1") { observer.disconnect(); register(); }
    }).observe(html, { attributes: true, attributeFilter: ["data-ready"] });
    // If the game never gets ready (an error), still make the site installable.
    addEventListener("load", function () { setTimeout(register, 30000); });
  }
})();
