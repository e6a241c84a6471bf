#!/usr/bin/env python3
"""Per-decision times of the computer players, in CPython.

Plays whole hands (every seat the level being measured) for each preset and
its player counts, and times every real decision (more than one legal
action).  Prints a markdown table (mean, median, p95, max in ms) and, with
--json, one JSON object.  Not a test:

    python scripts/bench_ai.py [--hands 4] [--levels easy,medium,hard] [--games draw,latin] [--clock cpu]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from domino.players.levels import LEVELS  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import PRESETS, make_rules  # noqa: E402


#: player counts measured per game (default: every count the game allows)
COUNTS = {"mexican-train": (2, 4, 6, 8), "chicken-foot": (2, 4, 8), "frijolito": (2, 3, 4)}


def measure(game: str, players: int, level: str, hands: int, seed: str = "bench",
            choose=None, on_action=None, on_hand=None, clock=time.perf_counter) -> list[float]:
    """Milliseconds per decision (decisions with more than one legal move) of
    ``level`` in every seat over ``hands`` seeded hands.  ``choose`` replaces
    the level's function; ``on_action(a)`` / ``on_hand(match)`` see the play."""
    rules = make_rules(game, players=players)
    choose = choose or LEVELS[level]
    out = []
    for i in range(hands):
        m = Match(rules, seed=f"{seed}/{i}", seats=[{"name": level, "kind": level}] * players)
        while m.phase == "play":
            seat = m.turn
            view = m.view(seat)
            rng = m.player_rng(seat)
            t0 = clock()
            a = choose(view, rng)
            dt = (clock() - t0) * 1000
            if len(view["legal"]) > 1:
                out.append(dt)
            if on_action:
                on_action(a)
            m.apply(a)
        if on_hand:
            on_hand(m)
    return out


def summary(ms: list[float]) -> dict:
    if not ms:
        return {"n": 0}
    s = sorted(ms)
    return {"n": len(s), "mean": round(statistics.fmean(s), 2), "median": round(statistics.median(s), 2),
            "p95": round(s[min(len(s) - 1, int(0.95 * len(s)))], 2), "max": round(s[-1], 2)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=4)
    p.add_argument("--levels", default="easy,medium,hard")
    p.add_argument("--games", default=",".join(PRESETS))
    p.add_argument("--json", action="store_true")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="cpu: this process's CPU time (time.process_time), for a busy machine")
    args = p.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rows = []
    alls: dict[str, list[float]] = {}
    for level in args.levels.split(","):
        for game in args.games.split(","):
            for players in COUNTS.get(game, PRESETS[game].choices("players")):
                ms = measure(game, players, level, args.hands, clock=clock)
                alls.setdefault(level, []).extend(ms)
                rows.append({"level": level, "game": game, "players": players, **summary(ms)})
    overall = {lv: summary(ms) for lv, ms in alls.items()}
    if args.json:
        print(json.dumps({"rows": rows, "overall": overall}))
        return 0
    print("| level | game | players | decisions | mean ms | median ms | p95 ms | max ms |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows + [{"level": lv, "game": "all", "players": "-", **s} for lv, s in overall.items()]:
        print(f"| {r['level']} | {r['game']} | {r['players']} | {r['n']} | {r.get('mean', '-')} | "
              f"{r.get('median', '-')} | {r.get('p95', '-')} | {r.get('max', '-')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
