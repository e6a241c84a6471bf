#!/usr/bin/env python3
"""Arena for every preset: medium vs easy and hard vs medium, as a markdown table.

Each row is ``python -m domino arena`` (domino/players/arena.py) with the preset's
default options at each player count.  points_share_a is higher-is-better for
A (bad-points games: the share of the bad points B took); ci95 is over deal
pairs.  Hard is slow, so it gets fewer deals by default.  Not a test:

    python scripts/arena_table.py [--deals-me 400] [--deals-hm 60] [--seed 0] [--games draw,latin]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from domino.players.arena import run_arena  # noqa: E402
from domino.engine.rules import PRESETS  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals-me", type=int, default=400, help="deal pairs, medium vs easy")
    p.add_argument("--deals-hm", type=int, default=60, help="deal pairs, hard vs medium")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", default=",".join(PRESETS))
    p.add_argument("--json", help="also write the raw results to this file")
    args = p.parse_args()
    rows = []
    print("| game | players | A vs B | deal pairs | points share A | ci95 | win rate A | "
          "points/hand | A ms mean / p95 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game in args.games.split(","):
        for players in PRESETS[game].choices("players"):
            for a, b, deals in (("medium", "easy", args.deals_me), ("hard", "medium", args.deals_hm)):
                t0 = time.perf_counter()
                r = run_arena(game, players, a, b, deals, args.seed, {})
                r["seconds"] = round(time.perf_counter() - t0, 1)
                rows.append(r)
                ms = r["ms_per_decision"]["a"]
                print(f"| {game} | {players} | {a} vs {b} | {deals} | {r['points_share_a']:.3f} | "
                      f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] | {r['win_rate_a']:.3f} | "
                      f"{r['mean_points_per_hand']:.1f} | {ms['mean']:.1f} / {ms['p95']:.1f} |",
                      flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
