#!/usr/bin/env python3
"""Engine speed: hands per second, printed as one JSON object.

    python scripts/speed.py [--seconds 3]

(a) core: random 4-player partnership Block hands straight through
    domino.engine.line.Hand moves()/apply() (target >= 10,000 hands/s in CPython);
(b) api: the fully validated public API, Match.legal_actions()/apply() with
    action dicts, same game (target >= 2,000 hands/s);
(c) boards: core rounds per second of Mexican Train (4 players, double-12),
    Chicken Foot (4 players, double-9) and Frijolito (4 players): each round
    dealt by the preset, then random moves straight through its core
    (``trains.Round`` / ``foot.Round`` / ``row.Round``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domino.engine.line import Hand  # noqa: E402
from domino.engine.match import Match, deal_hand, highest_double_opener  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402
from domino.engine.tiles import mask_of  # noqa: E402

RULES = make_rules("block", players=4, partnership=True)


def core(seconds: float) -> dict:
    rng = random.Random(1)
    n = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        hands, bone, _, _ = deal_hand(RULES, n, 0)
        seat, forced = highest_double_opener(RULES, hands)
        h = Hand(RULES, [mask_of(x) for x in hands], bone, seat, forced)
        while not h.ended:
            ms = h.moves()
            h.apply(ms[rng.randrange(len(ms))] if len(ms) > 1 else ms[0])
        h.settle()
        n += 1
        if n % 64 == 0 and time.perf_counter() > end:
            break
    secs = time.perf_counter() - t0
    return {"hands": n, "seconds": round(secs, 3), "hands_per_second": round(n / secs), "target": 10000}


def api(seconds: float) -> dict:
    rng = random.Random(2)
    n = matches = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    m = Match(RULES, seed=0)
    while True:
        if m.finished:
            matches += 1
            m = Match(RULES, seed=matches)
        elif m.phase == "hand-over":
            m.next_hand()
        while m.phase == "play":
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0])
        n += 1
        if n % 16 == 0 and time.perf_counter() > end:
            break
    secs = time.perf_counter() - t0
    return {"hands": n, "seconds": round(secs, 3), "hands_per_second": round(n / secs), "target": 2000}


BOARDS = {"mexican-train": make_rules("mexican-train", players=4),
          "chicken-foot": make_rules("chicken-foot", players=4),
          "frijolito": make_rules("frijolito", players=4)}


def board_core(rules, seconds: float) -> dict:
    """Rounds/s through a board's core; the deal comes from Match (round 1 of a new match)."""
    rng = random.Random(3)
    n = deal_time = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        d0 = time.perf_counter()
        h = Match(rules, seed=n).hand
        deal_time += time.perf_counter() - d0
        while not h.ended:
            ms = h.moves()
            h.apply(ms[rng.randrange(len(ms))] if len(ms) > 1 else ms[0])
        h.settle()
        n += 1
        if n % 16 == 0 and time.perf_counter() > end:
            break
    secs = time.perf_counter() - t0
    play = secs - deal_time
    return {"rounds": n, "seconds": round(secs, 3), "rounds_per_second": round(n / secs),
            "rounds_per_second_play_only": round(n / play) if play > 0 else None}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=3.0)
    args = p.parse_args(argv)
    out = {"python": platform.python_implementation() + " " + platform.python_version(),
           "game": "block, 4 players, partnership",
           "core": core(args.seconds), "api": api(args.seconds)}
    out["boards"] = {g: board_core(r, args.seconds) for g, r in BOARDS.items()}
    out["ok"] = (out["core"]["hands_per_second"] >= out["core"]["target"]
                 and out["api"]["hands_per_second"] >= out["api"]["target"])
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
