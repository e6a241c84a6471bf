#!/usr/bin/env python3
"""Play-with-friends benchmark: join time, move latency and bytes per move between two phones over WebRTC.

Two phones (Playwright contexts of one Chromium) in a private network namespace
(tests/browser/netns.py), joined by a real WebRTC data channel the way people do
it (tests/browser/test_friends.py: the host opens ?delay=0&seed=7 and taps Play
with friends, the guest opens the invite link, the host pastes the reply code).
Game: Draw, 2 players, the host at seat 0, the guest at seat 1. Prints:

  join (each of --runs, fresh phones; medians and every run):
    boot        guest opens the invite link (navigation start) -> html[data-ready]
    reply       the guest taps "Make my reply code" (guest-answer; this script taps
                at once) -> the reply code shown ([data-testid="reply-code"])
    copy        -> the host taps Accept (this script's own delay: a person is slower)
    connect     host taps Accept -> guest connected (guest-connected or join-table)
    total       navigation start -> connected
    start       host taps start-table -> the guest sees .screen.game
  moves (--hands hands of the last run): from the tap that makes a move on one
    phone to the other phone's html data-seq reaching the new position, median
    and p95, host -> guest and guest -> host;
  bytes: characters passed to window.dominoRtc.send by each phone from the
    start-table tap to the end of the last hand, per move (both seats' moves),
    with the message types.

Times are taken in the pages (performance.timeOrigin + now(), one clock for
both pages of the browser, to ~1 ms) by an init script, which also wraps dominoRtc.send
as static/rtc.js defines it. Needs root (the namespace); not a test:

    sudo .venv/bin/python scripts/bench_friends.py [--hands 2] [--runs 3] [--json]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "browser")]
import pytest  # noqa: E402  (start_or_skip skips with pytest.skip)
from netns import Phones, start_or_skip  # noqa: E402
from test_friends import FAST, host_table, invite_link, open_phone, seq, tap_turn, tid  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402

CONNECTED = '[data-testid="guest-connected"], [data-testid="join-table"]'
DONE = '[data-testid="hand-result"], [data-testid="match-result"]'
# In every page, before its scripts: when each screen first showed, when each
# data-seq value was first set, every tap, and every dominoRtc.send (its size and type).
INIT = """
(() => {
  const T = () => performance.timeOrigin + performance.now();
  const B = window.__bench = {taps: [], seen: {}, seq: {}, sent: []};
  const SEL = {ready: 'html[data-ready="1"]', reply: '[data-testid="reply-code"]',
               connected: '%s', game: '.screen.game'};
  const check = () => {
    const html = document.documentElement;
    if (html && html.dataset.seq !== undefined && !(html.dataset.seq in B.seq)) B.seq[html.dataset.seq] = T();
    for (const k in SEL) if (!(k in B.seen) && document.querySelector(SEL[k])) B.seen[k] = T();
  };
  new MutationObserver(check).observe(document, {attributes: true, childList: true, subtree: true});
  document.addEventListener('click', (e) => {
    const el = e.target.closest && e.target.closest('[data-testid]');
    B.taps.push({at: T(), id: el ? el.dataset.testid : ''});
  }, true);
  let api;
  Object.defineProperty(window, 'dominoRtc', {configurable: true, get: () => api, set: (v) => {
    api = v;
    const send = v.send;
    v.send = function (id, text) {
      const s = String(text), m = /"t":"(\\w+)"/.exec(s.slice(0, 80));
      B.sent.push({n: s.length, t: m ? m[1] : '?'});
      return send.apply(this, arguments);
    };
  }});
})();
""" % CONNECTED


class BenchPhones(Phones):
    """Phones (tests/browser/netns.py) whose contexts run INIT before every page."""

    def new(self, path=None, browser=None):
        page = super().new(path=None, browser=browser)
        page.context.add_init_script(INIT)
        if path is not None:
            page.goto(self.ns.url + path)
        return page


def marks(page) -> dict:
    return page.evaluate("() => ({origin: performance.timeOrigin, ...window.__bench})")


def tap_at(page, testid: str) -> float:
    return [t["at"] for t in marks(page)["taps"] if t["id"] == testid][-1]


def join_run(phones) -> tuple[dict, object, object]:
    """One join as in test_friends.join, timed: (the times in ms, host, guest)."""
    host = host_table(phones)
    link = invite_link(host, 1)
    guest = open_phone(phones, FAST, "#" + link.split("#", 1)[1])
    tid(guest, "guest-answer").click()          # the friend read the invitation
    guest.wait_for_selector('[data-testid="reply-code"]', timeout=30_000)
    code = tid(guest, "reply-code").get_attribute("data-code")
    host.locator('[data-testid="invite-1"] [data-testid="paste-reply"]').fill(code)
    host.locator('[data-testid="invite-1"] [data-testid="accept-reply"]').click()
    guest.wait_for_selector(CONNECTED, timeout=30_000)
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="joined"]', timeout=10_000)
    tid(guest, "guest-name").fill("Ana")
    tid(guest, "join-table").click()
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="ready"]', timeout=10_000)
    for p in (host, guest):
        p.evaluate("() => { window.__bench.sent = []; }")   # bytes: from the start-table tap on
    tid(host, "start-table").click()
    guest.wait_for_selector(".screen.game", timeout=30_000)
    host.wait_for_selector(".screen.game", timeout=30_000)
    g, accept, start = marks(guest), tap_at(host, "accept-reply"), tap_at(host, "start-table")
    s, o = g["seen"], g["origin"]
    times = {"boot": s["ready"] - o, "reply": s["reply"] - tap_at(guest, "guest-answer"),
             "copy": accept - s["reply"],
             "connect": s["connected"] - accept, "total": s["connected"] - o, "start": s["game"] - start}
    return {k: round(v, 1) for k, v in times.items()}, host, guest


def play(host, guest, hands: int, log) -> dict:
    """Both phones tap their turns (tap_turn) for `hands` hands; each move timed."""
    pages = {"host": (host, guest), "guest": (guest, host)}
    lat: dict = {"host": [], "guest": []}
    played = 0
    for hand in range(hands):
        idle = time.monotonic()
        while not all(p.locator(DONE).count() for p in (host, guest)):
            tapped = False
            for who, (p, other) in pages.items():
                s0, n0 = seq(p), len(marks(p)["taps"])
                if not tap_turn(p):
                    continue
                tapped = True
                s1 = seq(p)
                if s1 == s0:
                    continue   # nothing moved (tap_turn gave up waiting)
                other.wait_for_function("s => Number(document.documentElement.dataset.seq) >= s",
                                        arg=s1, timeout=15_000)
                tap = marks(p)["taps"][n0:][-1]["at"]
                seen = min(v for k, v in marks(other)["seq"].items() if int(k) >= s1)
                lat[who].append(seen - tap)
            if tapped:
                idle = time.monotonic()
            elif time.monotonic() - idle > 30:
                raise RuntimeError(f"hand {hand + 1}: nobody could move for 30 s")
            else:
                time.sleep(0.05)
        played += 1
        log(f"hand {played}: {len(lat['host'])} + {len(lat['guest'])} moves so far")
        if hand == hands - 1 or all(p.locator('[data-testid="match-result"]').count() for p in (host, guest)):
            break
        for p in (host, guest):
            if tid(p, "next-hand").count():
                tid(p, "next-hand").click()
        for p in (host, guest):
            p.wait_for_function(f"() => !document.querySelector('{DONE}')", timeout=15_000)
    moves = len(lat["host"]) + len(lat["guest"])
    out = {"hands": played, "moves": moves, "latency_ms": {}, "chars_per_move": {}, "messages": {}}
    for who, xs in lat.items():
        xs = sorted(xs)
        out["latency_ms"][who] = {"n": len(xs), "median": round(statistics.median(xs), 1) if xs else None,
                                  "p95": round(xs[math.ceil(0.95 * len(xs)) - 1], 1) if xs else None,
                                  "max": round(xs[-1], 1) if xs else None}
        sent = marks(pages[who][0])["sent"]
        out["chars_per_move"][who] = round(sum(m["n"] for m in sent) / max(moves, 1))
        types: dict = {}
        for m in sent:
            c = types.setdefault(m["t"], [0, 0])
            c[0] += 1
            c[1] += m["n"]
        out["messages"][who] = {t: {"count": c, "avg_chars": round(n / c)} for t, (c, n) in sorted(types.items())}
    return out


def report(res: dict) -> None:
    keys = ["boot", "reply", "copy", "connect", "total", "start"]
    print(f"{'join (ms)':<14}" + "".join(f"{k:>9}" for k in keys))
    for name, run in [(f"run {i}", r) for i, r in enumerate(res["join"], 1)] + [("median", res["join_median"])]:
        print(f"  {name:<12}" + "".join(f"{run[k]:9.0f}" for k in keys))
    m = res["moves"]
    print(f"\nmoves, {m['hands']} hand(s) of Draw, {m['moves']} moves: tap -> the other phone's data-seq (ms)")
    for who, other in (("host", "guest"), ("guest", "host")):
        x = m["latency_ms"][who]
        print(f"  {who} tap -> {other} sees   n={x['n']:<4} median {x['median']:7.1f}   p95 {x['p95']:7.1f}"
              f"   max {x['max']:7.1f}")
    print("\nbytes over the data channel (characters sent, start-table tap -> end of the last hand)")
    for who in ("host", "guest"):
        types = ", ".join(f"{t} {c['count']}x{c['avg_chars']}" for t, c in m["messages"][who].items())
        print(f"  {who:<6} {m['chars_per_move'][who]:6d} chars/move   ({types})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2, help="hands of Draw to time the moves over")
    ap.add_argument("--runs", type=int, default=3, help="joins to time (fresh phones each)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = ap.parse_args()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    try:
        ns = start_or_skip()
    except pytest.skip.Exception as exc:
        sys.exit(f"bench_friends: {exc} (run as root: sudo .venv/bin/python scripts/bench_friends.py)")
    started = time.time()
    res: dict = {"join": []}
    external: list = []
    try:
        with sync_playwright() as p:
            browser = ns.launch(p)
            res["browser"] = browser.version
            for run in range(args.runs):
                phones = BenchPhones(ns, browser)
                try:
                    times, host, guest = join_run(phones)
                    res["join"].append(times)
                    log(f"join {run + 1}: {json.dumps(times)}")
                    if run == args.runs - 1:
                        res["moves"] = play(host, guest, args.hands, log)
                finally:
                    external += phones.external
                    phones.close()
            browser.close()
    finally:
        ns.stop()
    res["join_median"] = {k: round(statistics.median(r[k] for r in res["join"]), 1) for k in res["join"][0]}
    res["seconds"] = round(time.time() - started)
    res["loadavg_at_end"] = os.getloadavg()
    if external:
        log(f"warning: requests left the local server: {external}")
    if args.json:
        print(json.dumps({"hands": args.hands, "runs": args.runs, **res}, indent=2))
    else:
        report(res)
        print(f"\n{res['seconds']} s, {res['browser']}, load {res['loadavg_at_end'][0]:.1f}")


if __name__ == "__main__":
    main()
