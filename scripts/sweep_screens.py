#!/usr/bin/env python3
"""Draw every screen after every action of thousands of seeded matches.

    python scripts/sweep_screens.py                       # every game and seat setting, 50 seeds each
    python scripts/sweep_screens.py --seeds 200 --game latin --full
    python scripts/sweep_screens.py --kinds easy,medium,hard --default-length

The long version of tests/test_screen_sweep.py (tests/screen_sweep.py): each
match is played by computer seats to its end; after every action the screens
of the moment are drawn and their trees checked.  ``--full`` draws every
screen for every seat in both languages after every action (otherwise one
screen of one seat in one language in turn, and everything at each hand's
end).  ``--default-length`` plays the games' own targets and rounds instead
of the shortest ones.  Prints a line per configuration and a JSON summary;
exits 1 on any problem.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.screen_sweep import Sweep, sweep_match  # noqa: E402
from tests.test_screen_sweep import configs  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=50, help="matches per configuration")
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--kinds", default="easy,medium", help="computer levels, one per match in turn")
    ap.add_argument("--full", action="store_true", help="every screen, every seat, both languages, every action")
    ap.add_argument("--default-length", action="store_true", help="the games' own targets and rounds")
    args = ap.parse_args(argv)
    kinds = args.kinds.split(",")
    total = Sweep()
    t0 = time.perf_counter()
    for game, n, opts in configs():
        if args.game and game not in args.game:
            continue
        if args.default_length:
            opts = {k: v for k, v in opts.items() if k == "partnership"}
        one = Sweep()
        t1 = time.perf_counter()
        for k in range(args.seeds):
            one.add(sweep_match(game, n, opts, args.first_seed + k, full=args.full, kind=kinds[k % len(kinds)]))
        total.add(one)
        print(f"{game:14} {n} {json.dumps(opts):48} matches {one.matches:4} hands {one.hands:5} "
              f"actions {one.actions:7} screens {one.screens:8} problems {len(one.problems):4} "
              f"{time.perf_counter() - t1:7.1f} s", flush=True)
        for p in one.problems[:5]:
            print("   ", p, flush=True)
    print(json.dumps({"matches": total.matches, "hands": total.hands, "actions": total.actions,
                      "screens": total.screens, "problems": len(total.problems),
                      "seconds": round(time.perf_counter() - t0, 1)}))
    return 1 if total.problems else 0


if __name__ == "__main__":
    sys.exit(main())
