#!/usr/bin/env python3
"""Soak the engine: random hands with the invariant checks of the test suite.

    python scripts/soak.py --game block --hands 100000 [--players N] [--option k=v] [--seed S]
    python scripts/soak.py --game mexican-train --hands 100000 --check-every 4

(A "hand" is a round in Mexican Train, Chicken Foot and Frijolito.)

Plays random legal actions through the public API (Match.legal_actions/apply)
and runs tests/engine/helpers.py's checks: after every action the tile
partition, the open ends recomputed from the layout and the end-of-hand
condition; at every hand's end the history replay (no draw/pass while able);
every ``--view-every`` hands the seat views and out-of-turn refusals after
every action; every ``--record-every`` hands the record round trip.  Prints
progress on stderr and one JSON line at the end; exits 1 on any failure.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "engine"))

from domino.cli import parse_options  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402
from helpers import all_configs, check_history, check_invariants, check_roundtrip  # noqa: E402


def light_check(m: Match) -> None:
    """Tile partition, open ends from the layout, the end-of-hand condition
    (each board shape its own: helpers / board_checks)."""
    check_invariants(m, views=False, out_of_turn=False)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", required=True)
    p.add_argument("--hands", type=int, default=10000)
    p.add_argument("--players", type=int)
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--view-every", type=int, default=50, help="full checks every N hands (0: never)")
    p.add_argument("--record-every", type=int, default=20, help="record round trip every N hands (0: never)")
    p.add_argument("--max-failures", type=int, default=5)
    p.add_argument("--check-every", type=int, default=1,
                   help="light checks after every N-th action (and always at a hand's end)")
    p.add_argument("--minutes", type=float, default=0, help="stop after this long (0: no limit)")
    p.add_argument("--mix", action="store_true",
                   help="each match takes the next player count and option combination of the game "
                        "(tests/engine/helpers.all_configs) instead of --players/--option")
    args = p.parse_args(argv)
    try:
        rules = make_rules(args.game, players=args.players, **parse_options(args.option))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    configs = [(n, o) for g, n, o in all_configs() if g == args.game] if args.mix else None
    rng = random.Random(args.seed)
    hands = matches = actions = 0
    failures: list[dict] = []
    t0 = time.perf_counter()
    last = t0
    m = None
    stop = t0 + args.minutes * 60 if args.minutes else None
    while hands < args.hands and len(failures) < args.max_failures:
        if stop and time.perf_counter() > stop:
            break
        if m is None or m.finished:
            if configs:
                n, o = configs[matches % len(configs)]
                rules = make_rules(args.game, players=n, **o)
            m = Match(rules, seed=f"soak/{args.seed}/{matches}")
            matches += 1
        elif m.phase == "hand-over":
            m.next_hand()
        full = args.view_every and hands % args.view_every == 0
        check = check_invariants if full else light_check
        try:
            check(m)
            while m.phase == "play":
                legal = m.legal_actions()
                m.apply(legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0])
                actions += 1
                if full or actions % args.check_every == 0 or m.phase != "play":
                    check(m)
            check_history(m)
            if args.record_every and hands % args.record_every == 0:
                check_roundtrip(m)
        except Exception as exc:  # noqa: BLE001 - report every kind of failure
            failures.append({"match": matches - 1, "hand": m.hand_no, "seed": m.seed,
                             "error": f"{type(exc).__name__}: {exc}",
                             "trace": traceback.format_exc(limit=3)})
            m = None
        hands += 1
        now = time.perf_counter()
        if now - last > 5:
            last = now
            print(f"{hands} hands, {hands / (now - t0):.0f}/s, {len(failures)} failures",
                  file=sys.stderr, flush=True)
    secs = time.perf_counter() - t0
    out = {"game": rules.game, "players": "mix" if configs else rules.players,
           "options": "mix" if configs else rules.options(), "seed": args.seed,
           "configs": len(configs) if configs else 1, "check_every": args.check_every,
           "hands": hands, "matches": matches, "actions": actions, "seconds": round(secs, 2),
           "hands_per_second": round(hands / secs, 1) if secs else None,
           "failures": len(failures), "first_failures": failures[:args.max_failures]}
    print(json.dumps(out))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
