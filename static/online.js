/* Play over the internet: phones meet through public Nostr relays (Trystero),
 * then play over the same kind of data channel as on one Wi-Fi.
 *
 * Off until a player turns it on: this file loads Trystero
 * (static/vendor/trystero/, copied from npm by scripts/setup) only in join().
 * The relays carry the connection offers, encrypted with the table's
 * password (AES-GCM, Trystero's `password`); the game's messages go directly
 * between the phones. Each peer met in the room becomes a connection of
 * window.dominoRtc (its `adopt`), so Python sends, receives and closes it
 * exactly like a Wi-Fi one, with the same domino-net/1 protocol.
 *
 *   window.dominoOnline = {
 *     join({room, password, relays, ice, role})  -> Promise<void>
 *         role "host": every guest met becomes a connection;
 *         role "guest": the host does (other guests in the room are ignored).
 *     pause()     the table is full: close the relay sockets, no reconnection,
 *                 so nothing is announced any more (the game goes on)
 *     resume()    a seat is free again: contact the relays again
 *     leave()
 *     status()    -> {state, relays: [{url, state}], peers, error}
 *                 state "off" | "connecting" | "connected" | "failed" | "paused"
 *     handlers: {status(obj)}   called when the status changes
 *     failMs      a join (or resume) with no relay open after this is "failed"
 *   }
 *
 * The two sides tell their role on an action of their own ("role") before any
 * game message; only then is the peer handed to Python. A peer with another
 * password never gets that far (Trystero's handshake refuses it).
 */
(function () {
  "use strict";
  var APP_ID = "domino-net-1";
  var api = { handlers: { status: null }, failMs: 8000 };
  var lib = null;          // the Trystero module, once loaded
  var room = null;
  var role = "";
  var paused = false;
  var since = 0;           // when the relays were (re)contacted
  var opened = {};         // url -> true once its socket was open
  var peers = {};          // peerId -> the dominoRtc connection's reporter
  var error = "";
  var last = "";
  var timer = 0;

  function relayStates() {
    var socks = lib ? lib.getRelaySockets() : {};
    return Object.keys(socks).map(function (url) {
      var ws = socks[url];
      var st = ws.readyState === 1 ? "open" : ws.readyState === 0 ? "connecting" : "closed";
      if (st === "open") opened[url] = true;
      return { url: url, state: st };
    });
  }

  api.status = function () {
    var relays = relayStates();
    var state = "off";
    if (room) {
      if (paused) state = "paused";
      else if (relays.some(function (r) { return r.state === "open"; })) state = "connected";
      else if (Date.now() - since >= api.failMs) state = "failed";
      else state = "connecting";
    }
    return { state: state, relays: relays, peers: Object.keys(peers).length, error: error };
  };

  function report() {
    var st = api.status();
    var text = JSON.stringify(st);
    if (text === last) return;
    last = text;
    var fn = api.handlers && api.handlers.status;
    if (typeof fn === "function") {
      try { fn(st); } catch (e) { console.error("dominoOnline status", e); }
    }
  }

  function forget(peerId, reason) {
    var conn = peers[peerId];
    if (!conn) return;
    delete peers[peerId];
    conn.close(reason);
  }

  api.join = function (opts) {
    if (room) return Promise.reject(new Error("already at a table"));
    if (!window.dominoRtc || typeof window.dominoRtc.adopt !== "function") {
      return Promise.reject(new Error("static/rtc.js is missing"));
    }
    if (typeof window.RTCPeerConnection !== "function") {
      return Promise.reject(new Error("WebRTC is not available in this browser"));
    }
    role = opts.role === "host" ? "host" : "guest";
    var relays = (opts.relays || []).map(String).filter(function (u) { return /^wss?:\/\//.test(u); });
    if (!relays.length) return Promise.reject(new Error("no relay in the settings"));
    return import("./vendor/trystero/nostr/index.mjs").then(function (mod) {
      lib = mod;
      paused = false;
      error = "";
      since = Date.now();
      room = mod.joinRoom({
        appId: APP_ID,
        password: String(opts.password),
        relayConfig: { urls: relays, warnOnRelayFailure: false },
        rtcConfig: { iceServers: opts.ice || [] }
      }, String(opts.room), {
        onJoinError: function (details) {
          error = String((details && details.error) || "could not join");
          report();
        }
      });
      var roles = room.makeAction("role");
      var game = room.makeAction("domino");
      room.onPeerJoin = function (peerId) {
        roles.send({ role: role }, { target: peerId }).catch(function () { /* gone already */ });
      };
      roles.onMessage = function (data, meta) {
        var peerId = meta && meta.peerId;
        var theirs = data && data.role;
        if (!peerId || peers[peerId] || theirs !== (role === "host" ? "guest" : "host")) return;
        var link = {
          send: function (text) {
            game.send(text, { target: peerId }).catch(function () { /* closed meanwhile */ });
            return true;
          },
          close: function () {
            delete peers[peerId];
            var pc = room && room.getPeers()[peerId];
            if (pc) { try { pc.close(); } catch (e) { /* already gone */ } }
          }
        };
        peers[peerId] = window.dominoRtc.adopt(link);
        peers[peerId].open();
        report();
      };
      game.onMessage = function (data, meta) {
        var conn = meta && peers[meta.peerId];
        if (conn && typeof data === "string") conn.message(data);
      };
      room.onPeerLeave = function (peerId) {
        forget(peerId, "remote");
        report();
      };
      clearInterval(timer);
      timer = setInterval(report, 500);
      report();
    });
  };

  api.pause = function () {
    if (!room || paused) return;
    paused = true;
    lib.pauseRelayReconnection();
    var socks = lib.getRelaySockets();
    Object.keys(socks).forEach(function (url) {
      try { socks[url].close(); } catch (e) { /* closing already */ }
    });
    report();
  };

  api.resume = function () {
    if (!room || !paused) return;
    paused = false;
    since = Date.now();
    lib.resumeRelayReconnection();
    report();
  };

  api.leave = function () {
    if (!room) return;
    var r = room;
    room = null;
    Object.keys(peers).forEach(function (id) { forget(id, "local"); });
    clearInterval(timer);
    if (paused) lib.resumeRelayReconnection();
    paused = false;
    r.leave().catch(function () { /* leaving anyway */ });
    report();
  };

  window.dominoOnline = api;
})();
