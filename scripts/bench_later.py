#!/usr/bin/env python3
"""A match played "when you can" (issue 40): bytes on the relay per move, and (--browser) a move's trip.

Default (quick, CPython only, a few seconds): a host (``MailHost``, the phone that holds the match) and its
friends (``MailGuest``) of domino/net/mailbox.py, each with its subscription open on the project's relay
(scripts/nostr_relay.py's ``Relay``, its storage rules and live delivery, driven in this process without
sockets), play --moves decisions of a person (a tile, a draw, a pass offered as a choice; the draws and
passes the engine forces and the computers' moves are not counted) with the "easy" player's choice.  For
each move it prints the events the relay received (how many, their content and their whole JSON as sent,
by the host and by the friends) and what the relay holds afterwards (addressable events: one per ``d`` tag,
the newer replaces the older).  Then medians and maxima per move, and per kind of event.

--browser (about a minute or two): two phones (two contexts of one Chromium, so a storage each; Debian's
/usr/bin/chromium, or scripts/find_browser.py's choice) open the site served under /domino/ by
scripts/devserver.py, the project's relay (``RelayThread``) on 127.0.0.1 as the only relay.  The host
taps Play with friends, When you can, Start; the friend opens the seat's link and taps Join; then, with both
pages open, --moves moves are tapped in turn on whichever phone's turn it is, and each is timed from its
tap (the click that makes the move) to the other page's html[data-seq] changing (``set``) and to the
animation frame after it (``shown``), one clock for both pages (performance.timeOrigin + now()).  Prints
each move, then median / p90 / max in ms, and the relay's counts.

    timeout 600 nice -n 10 .venv/bin/python scripts/bench_later.py [--moves 10] [--players 2] [--json]
    timeout 600 nice -n 10 .venv/bin/python scripts/bench_later.py --browser [--moves 10]

A benchmark, not a test (tests/test_bench_later.py runs the quick mode for 2 moves).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "scripts")]

import nostr_relay  # noqa: E402
from domino import players  # noqa: E402
from domino.engine.match import HUMAN  # noqa: E402
from domino.net import nostr  # noqa: E402
from domino.net.mailbox import MailGuest, MailHost  # noqa: E402

T0 = 1_800_000_000
SEED = 160            # the Draw deal of tests/browser/test_later.py


def wire(event: dict) -> int:
    """Bytes of the event's JSON as a page sends it (compact, UTF-8)."""
    return len(json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode())


def kind_of(event: dict, host_pub: str) -> str:
    if event["pubkey"] != host_pub:
        return "act"
    return "state" if nostr.tag_value(event, "p") == host_pub else "view"


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]


# ------------------------------------------------------------------ CPython: bytes per move
class _Relay(nostr_relay.Relay):
    """The project's relay with its sockets taken out: what it sends goes to ``out`` per client."""

    def __init__(self):
        super().__init__()
        self.out: dict[int, list] = {}

    def _send(self, client, message) -> None:
        self.out.setdefault(client.n, []).append(json.loads(json.dumps(message)))


class _Side:
    """One phone: its mailbox, its connection to the relay (a subscription to its filters)."""

    def __init__(self, relay: _Relay, n: int, name: str, box):
        self.relay, self.box, self.name = relay, box, name
        self.client = nostr_relay.Client(n, None, name)
        relay.clients.add(self.client)
        relay.receive(self.client, json.dumps(["REQ", "m", *box.filters()]))
        self.inbox()

    def inbox(self) -> list[dict]:
        """The events the relay delivered on the subscription since last asked."""
        msgs, self.relay.out[self.client.n] = self.relay.out.get(self.client.n, []), []
        return [m[2] for m in msgs if m[0] == "EVENT"]

    def publish(self, events: list[dict], log: list) -> None:
        for e in events:
            self.relay.receive(self.client, json.dumps(["EVENT", e], separators=(",", ":")))
            ok = [m for m in self.relay.out.get(self.client.n, []) if m[0] == "OK" and m[1] == e["id"]]
            assert ok and (ok[-1][2] or ok[-1][3].startswith("duplicate:")), ok
            log.append({"by": self.name, "content": len(e["content"].encode()), "json": wire(e),
                        "stored": bool(ok[-1][2])})


def measure_bytes(moves: int = 10, n_players: int = 2, seed: int = SEED, game: str = "draw") -> dict:
    """The CPython part: ``moves`` decisions of a person, both sides' pages open (live delivery)."""
    kinds = ["human"] + ["remote"] * (n_players - 1)
    settings = {"game": game, "players": n_players, "options": {},
                "seats": [{"kind": k, "name": f"P{i}"} for i, k in enumerate(kinds)]}
    clock = iter(range(T0, T0 + 10**7, 7))
    host_box, tickets = MailHost.create(settings, seed, now=next(clock))
    relay = _Relay()
    host = _Side(relay, 1, "host", host_box)
    guests = {s: _Side(relay, 2 + s, f"seat {s}", MailGuest(t)) for s, t in tickets.items()}
    log: list[dict] = []

    def settle() -> None:
        """Deliver what the relay sends until nobody has anything to say."""
        for _ in range(20):
            quiet = True
            for side in [host, *guests.values()]:
                for e in side.inbox():
                    r = side.box.receive(e, next(clock))
                    assert r.accepted or r.reason == "replay", (side.name, str(r))
                    quiet = False
                out = side.box.outbox(next(clock))
                if out:
                    side.publish(out, log)
                    quiet = False
            if quiet:
                return
        raise AssertionError("the sides keep talking")

    settle()
    start_events = list(log)
    log.clear()
    rows = []
    for i in range(moves):
        m = host_box.m
        seat = host_box.waiting_for()
        if seat is None:
            break
        if m.seats[seat]["kind"] == HUMAN:
            action = players.get_player("easy")(m.view(seat), m.player_rng(seat))
            host_box.act(action, next(clock))
            host.publish(host_box.outbox(next(clock)), log)
            who = "host"
        else:
            g = guests[seat].box
            assert g.view is not None and g.view["turn"] == seat and g.applied, "the friend's view is behind"
            action = players.get_player("easy")(g.view, random.Random(g.view["seq"]))
            g.act(action, next(clock))
            guests[seat].publish(g.outbox(next(clock)), log)
            who = f"friend (seat {seat})"
        settle()
        held = list(relay.stored.values())
        rows.append({
            "move": i + 1, "by": who, "action": "draw" if action.get("draw") else (
                "pass" if action.get("pass") else "tile"),
            "events": len(log),
            "content": sum(r["content"] for r in log), "json": sum(r["json"] for r in log),
            "host_json": sum(r["json"] for r in log if r["by"] == "host"),
            "friends_json": sum(r["json"] for r in log if r["by"] != "host"),
            "host_events": sum(1 for r in log if r["by"] == "host"),
            "friends_events": sum(1 for r in log if r["by"] != "host"),
            "held_events": len(held), "held_json": sum(wire(e) for e in held),
            "held_content": sum(len(e["content"]) for e in held),
            "sent": [(r["by"], r["content"], r["json"]) for r in log],
        })
        log.clear()
    held = list(relay.stored.values())
    by_kind: dict[str, list[tuple[int, int]]] = {}
    for e in held:
        by_kind.setdefault(kind_of(e, host_box.pub), []).append((len(e["content"]), wire(e)))
    res = {"game": game, "players": n_players, "seed": seed, "moves": len(rows),
           "finished": host_box.m.finished, "hand": host_box.m.hand_no + 1,
           "start": {"events": len(start_events), "json": sum(r["json"] for r in start_events)},
           "rows": rows, "held_at_end": {k: v for k, v in sorted(by_kind.items())},
           "held_events": len(held), "held_json": sum(wire(e) for e in held),
           "total": {"events": sum(r["events"] for r in rows), "json": sum(r["json"] for r in rows),
                     "host_json": sum(r["host_json"] for r in rows),
                     "friends_json": sum(r["friends_json"] for r in rows)}}
    if rows:
        res["per_move"] = {k: {"median": statistics.median(r[k] for r in rows), "max": max(r[k] for r in rows),
                               "mean": round(statistics.fmean(r[k] for r in rows), 1)}
                           for k in ("events", "content", "json", "host_json", "friends_json", "held_json")}
        for who, key in (("host", "host_json"), ("friend", "friends_json")):
            mine = [r for r in rows if r["by"].startswith(who)]
            if mine:
                res[f"{who}_moves"] = {"n": len(mine), "events": statistics.median(r["events"] for r in mine),
                                       "json": statistics.median(r["json"] for r in mine),
                                       "content": statistics.median(r["content"] for r in mine)}
    return res


def print_bytes(res: dict) -> None:
    print(f"bytes per move, CPython: MailHost/MailGuest over scripts/nostr_relay.py's Relay (in process), "
          f"{res['game']}, {res['players']} players (the host and {res['players'] - 1} friend(s)), "
          f"seed {res['seed']}")
    print(f"the match's start: {res['start']['events']} events, {res['start']['json']} B published by the host")
    print(f"{'move':>4}  {'by':<16}{'action':<7}{'events':>7}{'content B':>11}{'JSON B':>9}"
          f"{'host B':>9}{'friends B':>11}{'relay holds':>13}")
    for r in res["rows"]:
        print(f"{r['move']:>4}  {r['by']:<16}{r['action']:<7}{r['events']:>7}{r['content']:>11}{r['json']:>9}"
              f"{r['host_json']:>9}{r['friends_json']:>11}{r['held_events']:>5} ev {r['held_json']:>6} B")
    if "per_move" not in res:
        return
    pm = res["per_move"]
    print(f"per move, median / mean / max: events {pm['events']['median']} / {pm['events']['mean']} / "
          f"{pm['events']['max']}; content {pm['content']['median']} / {pm['content']['mean']} / "
          f"{pm['content']['max']} B; whole events {pm['json']['median']} / {pm['json']['mean']} / "
          f"{pm['json']['max']} B (host {pm['host_json']['median']} / {pm['host_json']['mean']} / "
          f"{pm['host_json']['max']}, friends {pm['friends_json']['median']} / {pm['friends_json']['mean']} / "
          f"{pm['friends_json']['max']})")
    for who in ("host", "friend"):
        x = res.get(f"{who}_moves")
        if x:
            print(f"  a {who}'s move (median of {x['n']}): {x['events']} events, {x['content']} B of content, "
                  f"{x['json']} B of events")
    t = res["total"]
    print(f"in all over {res['moves']} moves: {t['events']} events, {t['json']} B received by the relay "
          f"(host {t['host_json']}, friends {t['friends_json']})")
    when = "the match is over" if res["finished"] else f"hand {res['hand']}"
    print(f"the relay holds after move {res['moves']} ({when}): {res['held_events']} events, {res['held_json']} B:")
    for kind, sizes in res["held_at_end"].items():
        print(f"  {kind:<6} {len(sizes)} x content {', '.join(str(c) for c, _ in sizes)} B, "
              f"event {', '.join(str(j) for _, j in sizes)} B")


# ------------------------------------------------------------------ the browser: a move's trip
INIT = """
(() => {
  const T = () => performance.timeOrigin + performance.now();
  const B = window.__bench = {taps: [], seqs: []};
  let last;
  const check = () => {
    const s = document.documentElement && document.documentElement.dataset.seq;
    if (s === undefined || s === last) return;
    last = s;
    const rec = {seq: s, set: T(), shown: null};
    B.seqs.push(rec);
    requestAnimationFrame(() => { rec.shown = T(); });
  };
  new MutationObserver(check).observe(document, {attributes: true, childList: true, subtree: true});
  document.addEventListener('click', (e) => { B.taps.push(T()); }, true);
})();
"""


def measure_browser(moves: int, seed: int, js_flags: str, timeout_ms: int = 30_000) -> dict:
    sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "browser")]
    from devserver import DevServer
    from find_browser import LAUNCH_ARGS, find_chromium
    from playwright.sync_api import sync_playwright
    from turns import tap_move

    executable = find_chromium()
    if not executable:
        sys.exit("bench_later: no Chromium found (scripts/setup installs Debian's chromium)")
    args = list(LAUNCH_ARGS) + ([f"--js-flags={js_flags}"] if js_flags else [])
    started = time.time()
    with nostr_relay.RelayThread("127.0.0.1", 0) as relay_thread, \
            DevServer(root=str(REPO), port=0, prefix="/domino/") as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=args)
        settings = json.dumps({"relays": [relay_thread.url],
                               "new": {"game": "draw", "players": 2, "target": 100}})

        def phone():
            ctx = browser.new_context(service_workers="block", viewport={"width": 360, "height": 740})
            ctx.add_init_script(
                "if (!localStorage.getItem('domino:/domino/:settings'))"
                f" localStorage.setItem('domino:/domino/:settings', {json.dumps(settings)});")
            ctx.add_init_script(INIT)
            return ctx

        def tid(page, name):
            return page.locator(f'[data-testid="{name}"]')

        def booted(page, url):
            page.goto(url)
            page.wait_for_selector('html[data-ready="1"]', timeout=120_000)

        try:
            hctx, fctx = phone(), phone()
            host, friend = hctx.new_page(), fctx.new_page()
            booted(host, f"{server.url}?delay=0&seed={seed}")
            tid(host, "play-friends").click()
            tid(host, "play-later").check()
            host.wait_for_selector('[data-testid="later-notice"]', timeout=timeout_ms)
            tid(host, "start-table").click()
            host.wait_for_selector('[data-testid="later-bar"]', timeout=timeout_ms)
            tid(host, "later-more").click()
            link = host.locator('[data-testid="later-invite-1"] [data-testid="invite-link"]').get_attribute(
                "data-link")
            host.wait_for_selector('[data-sent="stored"]', timeout=timeout_ms)
            tid(host, "later-more").click()
            booted(friend, f"{server.url}?delay=0#{link.split('#', 1)[1]}")
            tid(friend, "later-join").click()
            friend.wait_for_selector('[data-testid="later-bar"]', timeout=timeout_ms)
            friend.wait_for_selector('[data-synced="1"]', timeout=timeout_ms)
            pages = {"host": host, "friend": friend}
            rows = []
            for i in range(moves):
                mover = None
                deadline = time.monotonic() + timeout_ms / 1000
                while mover is None and time.monotonic() < deadline:
                    for name, page in pages.items():
                        if page.locator(".screen.game.my-turn").count():
                            mover = name
                            break
                    else:
                        time.sleep(0.05)
                if mover is None:
                    print(f"move {i + 1}: no phone shows its turn after {timeout_ms} ms; stopped", file=sys.stderr)
                    break
                a, b = pages[mover], pages["friend" if mover == "host" else "host"]
                b_seq = b.evaluate("document.documentElement.dataset.seq")
                b_n = b.evaluate("window.__bench.seqs.length")
                what = ("tile" if a.locator('.tile-btn[aria-disabled="false"]').count() else
                        "draw" if a.locator('[data-testid="draw"]').count() else "other")
                assert tap_move(a), "its turn, and nothing to tap"
                b.wait_for_function(f"document.documentElement.dataset.seq !== {json.dumps(b_seq)}",
                                    timeout=timeout_ms)
                b.wait_for_function(f"window.__bench.seqs.slice({b_n}).every(r => r.shown !== null)",
                                    timeout=timeout_ms)
                tap = a.evaluate("window.__bench.taps[window.__bench.taps.length - 1]")
                seen = b.evaluate(f"window.__bench.seqs.slice({b_n})")[0]
                rows.append({"move": i + 1, "from": mover, "action": what, "set": round(seen["set"] - tap, 1),
                             "shown": round(seen["shown"] - tap, 1)})
                print(f"move {i + 1:>2}: {mover:<6} -> other phone  {what:<5} set {rows[-1]['set']:7.0f} ms, "
                      f"shown {rows[-1]['shown']:7.0f} ms", file=sys.stderr, flush=True)
                if mover == "friend":   # the friend's tap is out once its page shows it waits no more
                    a.wait_for_function("!document.querySelector('[data-sent=\"sending\"]')", timeout=timeout_ms)
            r = relay_thread.relay
            version = browser.version
            counts = {"relay_holds": len(r.stored), "relay_holds_json": sum(wire(e) for e in r.stored.values())}
            for page in pages.values():
                errors = page.locator(".py-error").count()
                assert not errors, "a Python error on a page"
        finally:
            browser.close()
    res = {"rows": rows, "browser": version, "chromium": executable, "js_flags": js_flags or None,
           "seconds": round(time.time() - started), "loadavg": os.getloadavg(), **counts}
    for k in ("set", "shown"):
        vals = [r[k] for r in rows]
        if vals:
            res[k] = {"median": round(statistics.median(vals), 1), "p90": round(pct(vals, 0.9), 1),
                      "max": round(max(vals), 1)}
        for who in ("host", "friend"):
            mine = [r[k] for r in rows if r["from"] == who]
            if mine:
                res[f"{k}_from_{who}"] = {"n": len(mine), "median": round(statistics.median(mine), 1),
                                          "max": round(max(mine), 1)}
    return res


def print_browser(res: dict) -> None:
    print(f"a move's trip, in Chromium ({res['browser']}, {res['chromium']}"
          f"{', js-flags ' + res['js_flags'] if res['js_flags'] else ''}), both pages open, "
          f"the project's relay on 127.0.0.1: {len(res['rows'])} moves")
    print("from the tap to the other page's html[data-seq] changing (set) and the next frame (shown), ms:")
    for k in ("set", "shown"):
        if k in res:
            x = res[k]
            line = f"  {k:<6} median {x['median']:7.0f}   p90 {x['p90']:7.0f}   max {x['max']:7.0f}"
            for who in ("host", "friend"):
                y = res.get(f"{k}_from_{who}")
                if y:
                    line += f"   | from the {who} ({y['n']}): median {y['median']:.0f}, max {y['max']:.0f}"
            print(line)
    print(f"the relay holds {res['relay_holds']} events, {res['relay_holds_json']} B; "
          f"{res['seconds']} s, load {res['loadavg'][0]:.1f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=10, help="moves of a person to measure (default 10)")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                    help="CPython mode: the host and players-1 friends (default 2)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--browser", action="store_true", help="also time a move's trip between two pages in Chromium")
    ap.add_argument("--js-flags", default="", help="--browser: V8 flags (e.g. --liftoff-only, as the tests)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    args = ap.parse_args(argv)
    res = {"bytes": measure_bytes(args.moves, args.players, args.seed)}
    if not args.json:
        print_bytes(res["bytes"])
    if args.browser:
        res["browser"] = measure_browser(args.moves, args.seed, args.js_flags)
        if not args.json:
            print()
            print_browser(res["browser"])
    if args.json:
        print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
