#!/usr/bin/env python3
"""Play-over-the-internet benchmark: from opening the invitation link to seeing the table, through a relay.

Two phones (Playwright contexts of one Chromium) in a private network namespace
(tests/browser/netns.py) meet only through a real Nostr relay
(scripts/nostr_relay.py on the namespace's veth address), as in
tests/browser/test_online.py: the host opens ?delay=0&seed=7, taps Play with
friends and Play over the internet; the guest opens the seat's link and taps
Join over the internet. Both phones' settings name that relay and no STUN
server. Prints, for each of --runs (fresh phones each) and the median:

    boot      guest opens the link (navigation start) -> html[data-ready]
    consent   -> the guest taps Join over the internet (this script's own delay)
    meet      Join tapped -> connected to the host (the name box and Start shown)
    start     host taps Start the match -> the guest sees .screen.game
    total     navigation start -> the table, with the consent and the host's Start counted
    link      navigation start -> the table seen, less the two taps' waits (consent, start)

and the number of EVENTs the relay received per run (its traffic). Needs root
(the namespace); not a test:

    sudo .venv/bin/python scripts/bench_online.py [--runs 3] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "browser")]
import pytest  # noqa: E402  (start_or_skip skips with pytest.skip)
from bench_friends import BenchPhones, marks, tap_at  # noqa: E402
from netns import start_or_skip  # noqa: E402
from relay import NsRelay  # noqa: E402
from test_online import online_host, online_link, phone  # noqa: E402
from test_friends import tid  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402

CONNECTED = '[data-testid="join-table"]'


def run_once(phones, relay) -> dict:
    host = online_host(phones, [relay.url])
    host.wait_for_selector('[data-testid="relay-status"][data-status="connected"]', timeout=30_000)
    link = online_link(host, 1)
    guest = phone(phones, [relay.url], "#" + link.split("#", 1)[1])
    tid(guest, "online-join").click()
    guest.wait_for_selector(CONNECTED, timeout=60_000)
    g0 = marks(guest)
    connected = g0["origin"] + guest.evaluate("performance.now()")
    tid(guest, "guest-name").fill("Ana")
    tid(guest, "join-table").click()
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="ready"]', timeout=10_000)
    tid(host, "start-table").click()
    guest.wait_for_selector(".screen.game", timeout=30_000)
    g = marks(guest)
    s, o = g["seen"], g["origin"]
    join, start = tap_at(guest, "online-join"), tap_at(host, "start-table")
    times = {"boot": s["ready"] - o, "consent": join - s["ready"], "meet": connected - join,
             "start": s["game"] - start, "total": s["game"] - o}
    times["link"] = times["boot"] + times["meet"] + times["start"]
    return {k: round(v, 1) for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="joins to time (fresh phones and a fresh relay each)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = ap.parse_args()
    try:
        ns = start_or_skip()
    except pytest.skip.Exception as exc:
        sys.exit(f"bench_online: {exc} (run as root: sudo .venv/bin/python scripts/bench_online.py)")
    started = time.time()
    runs, events, external = [], [], []
    try:
        with sync_playwright() as p:
            browser = ns.launch(p)
            for i in range(args.runs):
                with NsRelay(ns, port=7447 + i) as relay:
                    phones = BenchPhones(ns, browser)
                    try:
                        runs.append(run_once(phones, relay))
                        events.append(len(relay.events()))
                        print(f"run {i + 1}: {json.dumps(runs[-1])}, relay events {events[-1]}",
                              file=sys.stderr, flush=True)
                    finally:
                        external += phones.external
                        phones.close()
            version = browser.version
            browser.close()
    finally:
        ns.stop()
    keys = list(runs[0])
    median = {k: round(statistics.median(r[k] for r in runs), 1) for k in keys}
    res = {"runs": runs, "median": median, "relay_events": events, "browser": version,
           "seconds": round(time.time() - started), "loadavg_at_end": os.getloadavg()}
    if external:
        print(f"warning: requests left the local server: {external}", file=sys.stderr)
    if args.json:
        print(json.dumps(res, indent=2))
        return
    print(f"{'(ms)':<10}" + "".join(f"{k:>9}" for k in keys) + "   relay events")
    for name, r, ev in [(f"run {i}", r, e) for i, (r, e) in enumerate(zip(runs, events), 1)] + \
            [("median", median, statistics.median(events))]:
        print(f"  {name:<8}" + "".join(f"{r[k]:9.0f}" for k in keys) + f"   {ev:>6}")
    print(f"\n{res['seconds']} s, {version}, load {res['loadavg_at_end'][0]:.1f}")


if __name__ == "__main__":
    main()
