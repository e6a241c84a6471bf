/* WebRTC data channels between phones on the same Wi-Fi, for Python.
 *
 * No signalling server: the host's offer and the guest's answer travel as
 * short codes (domino/net/sdp.py packs and unpacks them; this file only sees
 * full SDP text). No STUN or TURN (iceServers: []): only host candidates, so
 * both phones must share a network. Plain script, no inline code (the page's
 * Content-Security-Policy allows none; WebRTC is not under connect-src).
 *
 *   window.dominoRtc = {
 *     createOffer()            -> Promise<{id, sdp}>   host: a new connection
 *     acceptAnswer(id, sdp)    -> Promise<void>        host: the guest's answer
 *     createAnswer(offerSdp)   -> Promise<{id, sdp}>   guest: a new connection
 *     send(id, text)           -> boolean (false: not open, or too big)
 *     close(id)                -> boolean (false: no such connection)
 *     state(id)                -> "new" | "connecting" | "open" | "closed"
 *     stats(id)                -> Promise<{connectionState, local: [...], remote: [...]}>
 *     share(url, title)        -> Promise<"shared" | "copied" | "failed">   the invitation link
 *     adopt(link)              -> {id, open(), message(text), close(reason)}
 *                                 a connection of static/online.js in this id space
 *     handlers: {open(id), message(id, text), close(id, reason)}   set by Python
 *     supported                false: no RTCPeerConnection (both create* reject)
 *     gatherTimeoutMs, disconnectGraceMs, maxMessageChars            tunables
 *   }
 *
 * Ids are small integers, unique in the page. Each connection has one data
 * channel, "domino", negotiated out of band (id 0) on both sides: reliable and
 * ordered, and open as soon as the SCTP association is (no extra round trip).
 * Text only; a received message longer than maxMessageChars (256 Ki) or not
 * text is dropped (counted in stats().dropped).
 *
 * Callbacks run later than the call that caused them (never re-entrantly
 * inside createOffer/send/close), an exception in one is logged and ignored.
 * "close" comes exactly once per connection that existed, with a reason:
 *   "local"  close(id) was called        "remote" the other side closed
 *   "failed" ICE or DTLS failed           "disconnected" lost for disconnectGraceMs
 *   "error"  the answer was refused (acceptAnswer rejects)
 * A connection whose offer or answer could not be made is closed and the
 * promise rejects (no "close" callback: it never existed for Python).
 * Nothing here gives up on a connection that never opens (a guest on another
 * network: ICE fails only after tens of seconds): Python keeps its own
 * timeout and calls close(id).
 */
(function () {
  "use strict";

  var api = {
    handlers: { open: null, message: null, close: null },
    gatherTimeoutMs: 3000,       // host candidates come in milliseconds; 3 s at most
    disconnectGraceMs: 6000,     // Wi-Fi hiccups / a screen turned off briefly
    maxMessageChars: 262144,     // 256 Ki, as the SDP's max-message-size
    supported: typeof window.RTCPeerConnection === "function"
  };
  var conns = {};
  var nextId = 1;

  function call(name, args) {
    var fn = api.handlers && api.handlers[name];
    if (typeof fn !== "function") return;
    setTimeout(function () {
      try { fn.apply(null, args); } catch (e) { console.error("dominoRtc handler " + name, e); }
    }, 0);
  }

  function finish(conn, reason) {
    if (conn.closed) return;
    conn.closed = true;
    clearTimeout(conn.graceTimer);
    delete conns[conn.id];
    if (conn.link) {
      try { conn.link.close(reason); } catch (e) { /* already gone */ }
    } else {
      try { conn.dc.close(); } catch (e) { /* already gone */ }
      try { conn.pc.close(); } catch (e) { /* already gone */ }
    }
    if (conn.announced) call("close", [conn.id, reason]);
  }

  function open() {
    var pc = new RTCPeerConnection({ iceServers: [] });
    var dc;
    try {
      dc = pc.createDataChannel("domino", { negotiated: true, id: 0, ordered: true });
    } catch (e) {
      pc.close();
      throw e;
    }
    var conn = { id: nextId++, pc: pc, dc: dc, closed: false, announced: false,
                 opened: false, dropped: 0, graceTimer: 0, lastError: "" };
    conns[conn.id] = conn;

    dc.onopen = function () {
      if (conn.closed || conn.opened) return;
      conn.opened = true;
      call("open", [conn.id]);
    };
    dc.onmessage = function (e) {
      if (conn.closed) return;
      if (typeof e.data !== "string" || e.data.length > api.maxMessageChars) { conn.dropped++; return; }
      call("message", [conn.id, e.data]);
    };
    dc.onclose = function () { finish(conn, "remote"); };
    // an error (an SCTP abort when the other side closes, say) is followed by "close"
    dc.onerror = function (e) { conn.lastError = (e && e.error && e.error.message) || "error"; };
    pc.onconnectionstatechange = function () {
      var s = pc.connectionState;
      if (s === "failed" || s === "closed") {
        finish(conn, s === "failed" ? "failed" : "remote");
      } else if (s === "disconnected") {
        clearTimeout(conn.graceTimer);
        conn.graceTimer = setTimeout(function () {
          if (pc.connectionState === "disconnected") finish(conn, "disconnected");
        }, api.disconnectGraceMs);
      } else if (s === "connected") {
        clearTimeout(conn.graceTimer);
      }
    };
    return conn;
  }

  // Resolves with the local SDP once ICE gathering is complete (or after
  // gatherTimeoutMs, with the candidates found so far): no trickling here.
  function gathered(conn) {
    var pc = conn.pc;
    return new Promise(function (resolve) {
      var done = false;
      function end() {
        if (done) return;
        done = true;
        clearTimeout(timer);
        pc.removeEventListener("icegatheringstatechange", check);
        pc.removeEventListener("icecandidate", onCandidate);
        resolve();
      }
      function check() { if (pc.iceGatheringState === "complete") end(); }
      function onCandidate(e) { if (!e.candidate) end(); }
      var timer = setTimeout(end, api.gatherTimeoutMs);
      pc.addEventListener("icegatheringstatechange", check);
      pc.addEventListener("icecandidate", onCandidate);
      check();
    }).then(function () {
      if (conn.closed) throw new Error("connection closed");
      return { id: conn.id, sdp: pc.localDescription.sdp };
    });
  }

  function failed(conn) {
    return function (err) {
      finish(conn, "error");
      throw err;
    };
  }

  function unsupported() {
    return Promise.reject(new Error("WebRTC is not available in this browser"));
  }

  api.createOffer = function () {
    if (!api.supported) return unsupported();
    var conn;
    try { conn = open(); } catch (e) { return Promise.reject(e); }   // too many connections, say
    return conn.pc.createOffer()
      .then(function (offer) { return conn.pc.setLocalDescription(offer); })
      .then(function () { return gathered(conn); })
      .then(function (res) { conn.announced = true; return res; }, failed(conn));
  };

  api.createAnswer = function (offerSdp) {
    if (!api.supported) return unsupported();
    var conn;
    try { conn = open(); } catch (e) { return Promise.reject(e); }   // too many connections, say
    return conn.pc.setRemoteDescription({ type: "offer", sdp: String(offerSdp) })
      .then(function () { return conn.pc.createAnswer(); })
      .then(function (answer) { return conn.pc.setLocalDescription(answer); })
      .then(function () { return gathered(conn); })
      .then(function (res) { conn.announced = true; return res; }, failed(conn));
  };

  // A refused answer closes the connection ("close" with "error"): after some
  // refusals Chromium will not take any other answer on it either. The codes
  // are checked in Python first, so this is for an answer from an odd browser.
  api.acceptAnswer = function (id, sdp) {
    var conn = conns[id];
    if (!conn) return Promise.reject(new Error("no connection " + id));
    if (conn.pc.signalingState !== "have-local-offer") {
      return Promise.reject(new Error("connection " + id + " is not waiting for an answer"));
    }
    return conn.pc.setRemoteDescription({ type: "answer", sdp: String(sdp) })
      .then(function () { return undefined; }, failed(conn));
  };

  // Another transport's connection (static/online.js: a peer met through a
  // relay) under an id of this same space, so that Python sends and closes it
  // like any other. `link` = {send(text) -> boolean, close()}; the returned
  // object reports its events: open(), message(text), close(reason).
  api.adopt = function (link) {
    var conn = { id: nextId++, link: link, closed: false, announced: true, opened: false };
    conns[conn.id] = conn;
    return {
      id: conn.id,
      open: function () {
        if (conn.closed || conn.opened) return;
        conn.opened = true;
        call("open", [conn.id]);
      },
      message: function (text) {
        if (conn.closed || !conn.opened) return;
        if (typeof text !== "string" || text.length > api.maxMessageChars) return;
        call("message", [conn.id, text]);
      },
      close: function (reason) { finish(conn, reason || "remote"); }
    };
  };

  api.send = function (id, text) {
    var conn = conns[id];
    if (conn && conn.link) {
      if (conn.closed || !conn.opened) return false;
      text = String(text);
      return text.length <= api.maxMessageChars && conn.link.send(text) !== false;
    }
    if (!conn || conn.closed || conn.dc.readyState !== "open") return false;
    text = String(text);
    if (text.length > api.maxMessageChars) return false;
    try {
      conn.dc.send(text);
      return true;
    } catch (e) {              // over the peer's max-message-size, or closing
      console.error("dominoRtc send", e);
      return false;
    }
  };

  api.close = function (id) {
    var conn = conns[id];
    if (!conn) return false;
    finish(conn, "local");
    return true;
  };

  api.state = function (id) {
    var conn = conns[id];
    if (!conn) return "closed";
    if (conn.link) return conn.opened ? "open" : "connecting";
    if (conn.opened && conn.dc.readyState === "open") return "open";
    return conn.pc.signalingState === "stable" ? "connecting" : "new";
  };

  // For tests and diagnostics: the candidates ICE knows of, and the pair in use.
  api.stats = function (id) {
    var conn = conns[id];
    if (!conn) return Promise.reject(new Error("no connection " + id));
    if (conn.link) return Promise.resolve({ connectionState: conn.opened ? "connected" : "new", relayed: true });
    return conn.pc.getStats().then(function (report) {
      var out = { connectionState: conn.pc.connectionState, dropped: conn.dropped, lastError: conn.lastError,
                  bufferedAmount: conn.dc.bufferedAmount, local: [], remote: [], pair: null };
      report.forEach(function (s) {
        if (s.type === "local-candidate" || s.type === "remote-candidate") {
          out[s.type === "local-candidate" ? "local" : "remote"].push(
            { candidateType: s.candidateType, protocol: s.protocol, address: s.address || "", port: s.port });
        } else if (s.type === "candidate-pair" && s.nominated && s.state === "succeeded") {
          out.pair = { local: s.localCandidateId, remote: s.remoteCandidateId };
        }
      });
      return out;
    });
  };

  // The invitation link: the phone's share sheet, else the clipboard.
  // Resolves "shared", "copied" or "failed" (never rejects).
  api.share = function (url, title) {
    var nav = window.navigator;
    function copy() {
      if (!nav.clipboard || !nav.clipboard.writeText) return Promise.resolve("failed");
      return nav.clipboard.writeText(String(url)).then(function () { return "copied"; },
                                                       function () { return "failed"; });
    }
    if (typeof nav.share === "function") {
      return nav.share({ title: String(title || ""), url: String(url) })
        .then(function () { return "shared"; }, copy);
    }
    return copy();
  };

  window.dominoRtc = api;
})();
