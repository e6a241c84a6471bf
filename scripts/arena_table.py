#!/usr/bin/env python3
"""Arena for every preset: medium vs easy and hard vs medium, as a markdown table.

Each row is ``python -m domino arena`` (domino/players/arena.py) with the preset's
default options at each player count.  points_share_a is higher-is-better for
A (bad-points games: the share of the bad points B took); ci95 is over deal
pairs.  Hard is slow, so it gets fewer deals by default.  Not a test:

    python scripts/arena_table.py [--deals-me 400] [--deals-hm 60] [--seed 0] [--games draw,latin]

Mexican Train is measured at 2, 4 and 6 players, Chicken Foot and Frijolito
at 2 and 4 (COUNTS); DEALS sets their numbers of deal pairs.
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


#: player counts measured per game (default: every count the game allows)
COUNTS = {"mexican-train": (2, 4, 6), "chicken-foot": (2, 4), "frijolito": (2, 4)}
#: deal pairs per game where the defaults do not fit: Frijolito has few
#: decisions (small differences need many deals, and they are fast); hard
#: and medium are close in Matador and Mexican Train (narrower intervals)
DEALS = {"frijolito": (1000, 300), "mexican-train": (150, 60), "chicken-foot": (300, 60),
         "matador": (400, 100)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals-me", type=int, default=400, help="deal pairs, medium vs easy")
    p.add_argument("--deals-hm", type=int, default=60, help="deal pairs, hard vs medium")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", default=",".join(PRESETS))
    p.add_argument("--json", help="also write the raw results to this file")
    p.add_argument("--no-game-deals", dest="game_deals", action="store_false",
                   help="use --deals-me / --deals-hm for every game (default: DEALS per game)")
    args = p.parse_args()
    rows = []
    print("| game | players | A vs B | deal pairs | points share A | ci95 | win rate A | "
          "points/hand | A ms mean / p95 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game in args.games.split(","):
        me, hm = DEALS.get(game, (args.deals_me, args.deals_hm)) if args.game_deals else (
            args.deals_me, args.deals_hm)
        for players in COUNTS.get(game, PRESETS[game].choices("players")):
            for a, b, deals in (("medium", "easy", me), ("hard", "medium", hm)):
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
