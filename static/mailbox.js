/* A match played when each can: stored events on Nostr relays (NIP-01), for domino/app/link/later.py.
 *
 * Python makes, signs, encrypts and checks every event (domino/net/mailbox.py); this file only carries
 * JSON text between the relays' websockets and Python. Nothing is contacted until Python asks.
 *
 *   window.dominoMail = {
 *     open(sub, relays, filtersJson)   subscribe on each relay (["REQ", sub, ...filters]); again on a reconnect
 *     publish(relays, [eventJson])     ["EVENT", e] to each relay (queued until its socket is open)
 *     close(sub)                       ["CLOSE", sub]; a socket with no subscription left is closed
 *     handlers: {event({sub, relay, text}), eose({sub, relay}), ok({relay, id, ok, message})}
 *   }
 *
 * A relay that closes is opened again (after 2, 4, 8... up to 60 s) while it has a subscription or
 * something to send; a relay that cannot be reached answers "ok: false" for what was sent to it, so the
 * player is told in words.
 */
(function () {
  "use strict";
  var api = { handlers: {} };
  var relays = {};   // url -> {ws, subs: {id: filters}, queue: [text], wait, timer}

  function emit(name, data) {
    var fn = api.handlers && api.handlers[name];
    if (typeof fn === "function") {
      try { fn(data); } catch (e) { console.error("dominoMail " + name, e); }
    }
  }

  function relay(url) {
    var r = relays[url];
    if (!r) r = relays[url] = { ws: null, subs: {}, queue: [], wait: 1000, timer: 0 };
    if (!r.ws || r.ws.readyState > 1) connect(url, r);
    return r;
  }

  function busy(r) {
    return Object.keys(r.subs).length > 0 || r.queue.length > 0;
  }

  function connect(url, r) {
    var ws;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      fail(url, r, String(e));
      return;
    }
    r.ws = ws;
    ws.onopen = function () {
      r.wait = 1000;
      Object.keys(r.subs).forEach(function (id) { ws.send(JSON.stringify(["REQ", id].concat(r.subs[id]))); });
      var q = r.queue;
      r.queue = [];
      q.forEach(function (text) { ws.send(text); });
    };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (!Array.isArray(msg)) return;
      if (msg[0] === "EVENT" && msg.length === 3) {
        emit("event", { sub: String(msg[1]), relay: url, text: JSON.stringify(msg[2]) });
      } else if (msg[0] === "EOSE") {
        emit("eose", { sub: String(msg[1]), relay: url });
      } else if (msg[0] === "OK") {
        emit("ok", { relay: url, id: String(msg[1]), ok: msg[2] === true, message: String(msg[3] || "") });
      } else if (msg[0] === "CLOSED") {
        delete r.subs[String(msg[1])];
        emit("ok", { relay: url, id: "", ok: false, message: String(msg[2] || "closed") });
      }
    };
    ws.onerror = function () {};
    ws.onclose = function () {
      if (r.ws !== ws) return;
      r.ws = null;
      if (r.queue.length) fail(url, r, "no connection");
      if (busy(r) && !r.timer) {
        r.timer = setTimeout(function () { r.timer = 0; if (busy(r) && !r.ws) connect(url, r); }, r.wait);
        r.wait = Math.min(60000, r.wait * 2);
      }
    };
  }

  function fail(url, r, why) {
    var q = r.queue;
    r.queue = [];
    q.forEach(function (text) {
      var id = "";
      try { id = JSON.parse(text)[1].id; } catch (e) { /* not an event */ }
      emit("ok", { relay: url, id: String(id || ""), ok: false, message: "unreachable: " + why });
    });
  }

  function send(url, text) {
    var r = relay(url);
    if (r.ws && r.ws.readyState === 1) r.ws.send(text);
    else r.queue.push(text);
  }

  api.open = function (sub, urls, filtersJson) {
    var filters = JSON.parse(filtersJson);
    Array.prototype.forEach.call(urls, function (url) {
      var r = relay(url);
      r.subs[sub] = filters;
      if (r.ws && r.ws.readyState === 1) r.ws.send(JSON.stringify(["REQ", sub].concat(filters)));
    });
  };

  api.publish = function (urls, events) {
    Array.prototype.forEach.call(urls, function (url) {
      Array.prototype.forEach.call(events, function (text) { send(url, '["EVENT",' + text + "]"); });
    });
  };

  api.close = function (sub) {
    Object.keys(relays).forEach(function (url) {
      var r = relays[url];
      if (!r.subs[sub]) return;
      delete r.subs[sub];
      if (r.ws && r.ws.readyState === 1) r.ws.send(JSON.stringify(["CLOSE", sub]));
      if (!busy(r) && r.ws) { var ws = r.ws; r.ws = null; ws.close(); }
    });
  };

  window.dominoMail = api;
})();
