#!/usr/bin/env python3
"""Regenerate tests/golden/*.json: one recorded match per preset (plus a few
option variants), played by seeded random players.

Each file is a game record (RULES.md 8, replayable with
``python -m domino replay``) with one extra key, ``expect``: the final totals,
the outcome and every hand's points, which tests/engine/test_golden.py checks.

    python scripts/make_golden.py          # rewrite the files
    python scripts/make_golden.py --check  # exit 1 if a file would change
"""
from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from domino.engine.match import Match  # noqa: E402
from domino.players import random_player  # noqa: E402
from domino.engine.records import to_record  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402

OUT = os.path.join(ROOT, "tests", "golden")

# name -> (game, options, seed)
GOLDEN = {
    "draw": ("draw", {}, 1),
    "block": ("block", {}, 1),
    "all-fives": ("all-fives", {}, 1),
    "classic": ("classic", {}, 3),
    "latin": ("latin", {"players": 4}, 1),
    "muggins": ("muggins", {}, 1),
    "los-cincos": ("los-cincos", {"target": 50}, 1),
    "matador": ("matador", {}, 1),
    # option variants
    "all-fives-partners": ("all-fives", {"players": 4, "partnership": True}, 2),
    "classic-best-of-10": ("classic", {"best_of_10": True}, 2),
    "latin-3": ("latin", {"players": 3, "target": 50}, 1),
    "muggins-good": ("muggins", {"points": "good", "keep_last_two": True}, 4),
    "matador-6": ("matador", {"set": 6, "players": 3}, 5),
    # the other boards (RULES.md 4-6)
    "mexican-train": ("mexican-train", {"players": 3, "set": 9, "start_double": 3}, 1),
    "mexican-train-options": ("mexican-train", {"players": 4, "set": 9, "start_double": 3,
                                                "holder_starts": True, "double_chains": True}, 2),
    "mexican-train-no-boneyard": ("mexican-train", {"players": 2, "set": 9, "start_double": 3,
                                                    "boneyard": "none", "mexican_train": False}, 3),
    "chicken-foot": ("chicken-foot", {"players": 3, "start_double": 3}, 1),
    "frijolito": ("frijolito", {"players": 2, "target": 50}, 1),
    "frijolito-elimination": ("frijolito", {"players": 3, "target": 50, "elimination": True,
                                            "face_up": True}, 2),
}


def play_match(game: str, options: dict, seed: int) -> Match:
    rules = make_rules(game, **options)
    seats = [{"name": f"Random {i}", "kind": "random"} for i in range(rules.players)]
    m = Match(rules, seed=seed, seats=seats)
    while not m.finished:
        if m.phase == "hand-over":
            m.next_hand()
            continue
        seat = m.turn
        m.apply(random_player(m.view(seat), m.player_rng(seat)))
    return m


def golden_doc(game: str, options: dict, seed: int) -> dict:
    m = play_match(game, options, seed)
    doc = to_record(m)
    doc["expect"] = {
        "totals": list(m.scores),
        "outcome": m.outcome,
        "hands": [{"end": r["result"]["end"], "points": r["result"]["points"]} for r in m.records],
    }
    return doc


def render(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only compare with the committed files")
    args = ap.parse_args(argv)
    os.makedirs(OUT, exist_ok=True)
    stale = []
    for name, (game, options, seed) in GOLDEN.items():
        text = render(golden_doc(game, options, seed))
        path = os.path.join(OUT, f"{name}.json")
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old != text:
            stale.append(name)
            if not args.check:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
    if args.check:
        if stale:
            print("stale:", ", ".join(stale))
            return 1
        return 0
    print("written:", ", ".join(stale) or "nothing changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
