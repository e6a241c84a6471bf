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
 *     join({rooms: [{room, password, secret}], relays, ice, role})  -> Promise<void>
 *         role "host": one room per friend's seat; every peer that proves the
 *                      room's secret becomes a connection;
 *         role "guest": its seat's room; the peer that proves it is the host does.
 *     rooms([{room, password, secret}])   the host's rooms now: new ones joined,
 *                 gone ones left, the others kept (their connections too)
 *     pause()     the table is full: close the relay sockets, no reconnection,
 *                 so nothing is announced any more (the game goes on)
 *     resume()    a seat is free again: contact the relays again
 *     leave()
 *     status()    -> {state, relays: [{url, state}], peers, refused, error}
 *                 state "off" | "connecting" | "connected" | "failed" | "paused";
 *                 refused: peers met that did not prove the secret
 *     handlers: {status(obj)}   called when the status changes
 *     failMs      a join (or resume) with no relay open after this is "failed"
 *   }
 *
 * Nobody can pose as the host. A peer with another password never gets past
 * Trystero's own handshake; then, in the same handshake (Trystero's
 * onPeerHandshake, before the peer counts as joined), the seat's secret is
 * proved both ways without being sent:
 *   guest -> host   {domino: "challenge", c: Cg}
 *   host  -> guest  {domino: "host", c: Ch, mac: HMAC(secret, ["host", Cg, room, hostId, guestId])}
 *   guest -> host   {domino: "guest", mac: HMAC(secret, ["guest", Ch, room, guestId, hostId])}
 * (HMAC-SHA256 over the JSON text of the list, hex; C* are 24 fresh random
 * bytes, base64url; the ids are Trystero's peer ids.) The guest answers only
 * after checking the host's MAC, and the host hands the peer to Python only
 * after checking the guest's: a peer without the secret gets a challenge at
 * most, and nothing of the game. Only then does Python say hello.
 */
(function () {
  "use strict";
  var APP_ID = "domino-net-1";
  var api = { handlers: { status: null }, failMs: 8000 };
  var lib = null;          // the Trystero module, once loaded
  var joined = null;       // room name -> {room (Trystero's), secret, game (action)} while at a table
  var config = null;       // relays and ICE of the join
  var role = "";
  var paused = false;
  var since = 0;           // when the relays were (re)contacted
  var opened = {};         // url -> true once its socket was open
  var peers = {};          // room name + " " + peerId -> the dominoRtc connection's reporter
  var refused = 0;
  var error = "";
  var last = "";
  var timer = 0;
  var leaving = null;      // the last leave(), until Trystero is done with it
  var joining = false;
  var CHALLENGE = /^[A-Za-z0-9_-]{32}$/;
  var MAC = /^[0-9a-f]{64}$/;

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
    if (joined) {
      if (paused) state = "paused";
      else if (relays.some(function (r) { return r.state === "open"; })) state = "connected";
      else if (Date.now() - since >= api.failMs) state = "failed";
      else state = "connecting";
    }
    return { state: state, relays: relays, peers: Object.keys(peers).length, refused: refused, error: error };
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

  function forget(key, reason) {
    var conn = peers[key];
    if (!conn) return;
    delete peers[key];
    conn.close(reason);
  }

  // ---------------------------------------------------------------- the proof
  function challenge() {
    var bytes = crypto.getRandomValues(new Uint8Array(24));
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }

  function hex(buf) {
    return Array.from(new Uint8Array(buf)).map(function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function key(secret) {
    return crypto.subtle.importKey("raw", new TextEncoder().encode(String(secret)),
                                   { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  }

  function mac(secret, parts) {
    return key(secret).then(function (k) {
      return crypto.subtle.sign("HMAC", k, new TextEncoder().encode(JSON.stringify(parts)));
    }).then(hex);
  }

  function verify(secret, parts, theirs) {
    if (typeof theirs !== "string" || !MAC.test(theirs)) return Promise.resolve(false);
    var sig = new Uint8Array(32);
    for (var i = 0; i < 32; i++) sig[i] = parseInt(theirs.substr(2 * i, 2), 16);
    return key(secret).then(function (k) {     // constant time, by WebCrypto
      return crypto.subtle.verify("HMAC", k, sig, new TextEncoder().encode(JSON.stringify(parts)));
    });
  }

  function refuse(why) {
    refused++;
    throw new Error(why);
  }

  // Trystero's onPeerHandshake for one of our rooms: resolves when the peer
  // proved the room's secret, throws (the peer is dropped) otherwise.
  function prove(name) {
    return function (peerId, send, receive) {
      var me = lib.selfId;
      var secret = function () { return joined && joined[name] ? joined[name].secret : ""; };
      if (role === "guest") {
        var mine = challenge();
        return send({ domino: "challenge", c: mine }).then(receive).then(function (got) {
          var d = got && got.data;
          if (!d || d.domino !== "host" || typeof d.c !== "string" || !CHALLENGE.test(d.c)) {
            refuse("this peer does not answer as the host");
          }
          return verify(secret(), ["host", mine, name, peerId, me], d.mac).then(function (ok) {
            if (!ok) refuse("this peer claims to be the host without the seat's secret");
            return mac(secret(), ["guest", d.c, name, me, peerId]);
          });
        }).then(function (m) { return send({ domino: "guest", mac: m }); });
      }
      var theirs = "";
      var ours = challenge();
      return receive().then(function (got) {
        var d = got && got.data;
        if (!d || d.domino !== "challenge" || typeof d.c !== "string" || !CHALLENGE.test(d.c)) {
          refuse("this peer does not ask as a guest");
        }
        theirs = d.c;
        return mac(secret(), ["host", theirs, name, me, peerId]);
      }).then(function (m) {
        return send({ domino: "host", c: ours, mac: m });
      }).then(receive).then(function (got) {
        var d = got && got.data;
        if (!d || d.domino !== "guest") refuse("this peer does not answer as a guest");
        return verify(secret(), ["guest", ours, name, peerId, me], d.mac);
      }).then(function (ok) {
        if (!ok) refuse("this peer does not know the seat's secret");
      });
    };
  }

  // ---------------------------------------------------------------- rooms
  function enter(spec) {
    var name = String(spec.room);
    var entry = { room: null, secret: String(spec.secret || ""), game: null };
    joined[name] = entry;
    var r = lib.joinRoom({
      appId: APP_ID,
      password: String(spec.password),
      relayConfig: { urls: config.relays, warnOnRelayFailure: false },
      rtcConfig: { iceServers: config.ice }
    }, name, {
      onPeerHandshake: prove(name),
      onJoinError: function (details) {
        error = String((details && details.error) || "could not join");
        report();
      }
    });
    entry.room = r;
    var game = r.makeAction("domino");
    entry.game = game;
    // only a peer that passed the proof is ever joined
    r.onPeerJoin = function (peerId) {
      var id = name + " " + peerId;
      if (!joined || joined[name] !== entry || peers[id]) return;
      var link = {
        send: function (text) {
          game.send(text, { target: peerId }).catch(function () { /* closed meanwhile */ });
          return true;
        },
        close: function () {
          delete peers[id];
          var pc = r.getPeers()[peerId];
          if (pc) { try { pc.close(); } catch (e) { /* already gone */ } }
        }
      };
      peers[id] = window.dominoRtc.adopt(link);
      peers[id].open();
      report();
    };
    game.onMessage = function (data, meta) {
      var conn = meta && peers[name + " " + meta.peerId];
      if (conn && typeof data === "string") conn.message(data);
    };
    r.onPeerLeave = function (peerId) {
      forget(name + " " + peerId, "remote");
      report();
    };
  }

  function exit(name) {
    var entry = joined[name];
    if (!entry) return Promise.resolve();
    delete joined[name];
    Object.keys(peers).forEach(function (id) {
      if (id.split(" ")[0] === name) forget(id, "local");
    });
    return entry.room.leave().catch(function () { /* leaving anyway */ });
  }

  function specs(list) {
    return (list || []).filter(function (r) {
      return r && typeof r.room === "string" && r.room && typeof r.password === "string" &&
             typeof r.secret === "string" && r.secret;
    });
  }

  api.join = function (opts) {
    if (joined || joining) return Promise.reject(new Error("already at a table"));
    if (!window.dominoRtc || typeof window.dominoRtc.adopt !== "function") {
      return Promise.reject(new Error("static/rtc.js is missing"));
    }
    if (typeof window.RTCPeerConnection !== "function") {
      return Promise.reject(new Error("WebRTC is not available in this browser"));
    }
    if (!window.crypto || !crypto.subtle) {
      return Promise.reject(new Error("this page cannot prove who it is (no WebCrypto: not a secure page)"));
    }
    role = opts.role === "host" ? "host" : "guest";
    var relays = (opts.relays || []).map(String).filter(function (u) { return /^wss?:\/\//.test(u); });
    if (!relays.length) return Promise.reject(new Error("no relay in the settings"));
    var rooms = specs(opts.rooms);
    if (role === "guest" && rooms.length !== 1) return Promise.reject(new Error("a guest joins one room"));
    // a room being left is gone first: Trystero would hand back the old room, and keep the old relays
    joining = true;
    return Promise.all([leaving, import("./vendor/trystero/nostr/index.mjs")]).then(function (got) {
      var mod = got[1];
      joining = false;
      lib = mod;
      paused = false;
      error = "";
      refused = 0;
      since = Date.now();
      config = { relays: relays, ice: opts.ice || [] };
      joined = {};
      rooms.forEach(enter);
      clearInterval(timer);
      timer = setInterval(report, 500);
      report();
    }, function (err) {
      joining = false;
      throw err;
    });
  };

  api.rooms = function (list) {
    if (!joined || role !== "host") return;
    var wanted = {};
    specs(list).forEach(function (r) { wanted[r.room] = r; });
    Object.keys(joined).forEach(function (name) {
      if (!wanted[name]) exit(name);
    });
    Object.keys(wanted).forEach(function (name) {
      if (joined[name]) joined[name].secret = wanted[name].secret;
      else enter(wanted[name]);
    });
    report();
  };

  api.pause = function () {
    if (!joined || paused) return;
    paused = true;
    lib.pauseRelayReconnection();
    var socks = lib.getRelaySockets();
    Object.keys(socks).forEach(function (url) {
      try { socks[url].close(); } catch (e) { /* closing already */ }
    });
    report();
  };

  api.resume = function () {
    if (!joined || !paused) return;
    paused = false;
    since = Date.now();
    lib.resumeRelayReconnection();
    report();
  };

  api.leave = function () {
    if (!joined) return;
    var names = Object.keys(joined);
    var waits = names.map(exit);
    joined = null;
    clearInterval(timer);
    if (paused) lib.resumeRelayReconnection();
    paused = false;
    leaving = Promise.all(waits);
    report();
  };

  window.dominoOnline = api;
})();
