#!/usr/bin/env python3
"""Screen a lever of the hard player: a pair playing with it against today's hard pair.

A benchmark, not a test (issue 43).  A lever is a few of the hard player's
constants set otherwise (``--set NAME=VALUE``, names of ``domino.players.line``
or ``domino.players.search``, values as JSON).  Its pair plays abw333's game
(our Block, four players in two partnerships, no boneyard) against a pair of
today's hard, on duplicate deals: each deal twice, the lever's pair on seats
0+2 and then on 1+3, the deals numbered as ``scripts/duel_pa.py`` numbers them
(``--seed``, ``--first``), in ``--jobs`` processes.  Our engine alone plays,
so a screen is about eight times quicker than the same hands against ``pa``:
2,000 hands in about ten minutes on two cores.  What it prints is the share
of hands the lever's pair wins (a blocked tie half) with the 95% interval over
deals (a deal's two hands are one unit); 0.5 is no change.  A lever that wins
here is then measured against ``pa`` (``duel_pa.py --set`` with the same
settings): beating our own hard is no proof of beating another program.

    python scripts/screen_hard.py --set RP_SHUT=6 [--deals 1000] [--first 0] [--jobs 2] [--json FILE]

``--json`` keeps each hand's outcome as ``duel_pa.py`` does ([deal, the
lever's seats (0: 0+2), won 1 / tied 0.5 / lost 0]), so two screens compare
deal by deal with ``duel_pa.py --compare``.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from domino.engine.rules import make_rules  # noqa: E402
from domino.players import get_player  # noqa: E402
from duel_pa import Lever, cpu_stats, parse_sets, play_hand  # noqa: E402

def play_deal(args: tuple) -> tuple[list[list], dict]:
    """Both hands of one deal: ([[deal, lever's seats, score], ...], CPU seconds per decision with more
    than one legal move: {"lever": [...], "hard": [...]})."""
    deal, seed, sets = args
    rules = make_rules("block", players=4, partnership=True)
    choosers = {"lever": Lever(sets), "hard": get_player("hard")}
    out: list[list] = []
    cpu: dict = {"lever": [], "hard": []}
    for ours in (0, 1):
        kinds = ["lever" if s % 2 == ours else "hard" for s in range(4)]
        m = play_hand(rules, seed * 1_000_003 + deal, kinds, choosers, cpu)
        won = m.records[0]["result"]["winners"]
        out.append([deal, ours, 0.5 if len(won) != 1 else float(won[0] == ours)])
    return out, cpu


def summary(outcomes: list[list]) -> dict:
    """The lever's share of hands and its 95% interval over deals."""
    per: dict = {}
    for deal, _ours, won in outcomes:
        per[deal] = per.get(deal, 0.0) + won / 2
    xs = list(per.values())
    n = len(xs)
    mean = sum(xs) / n if n else 0.5
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else 0.5
    return {"deals": n, "hands": len(outcomes), "share": mean, "ci95": [mean - half, mean + half]}


def run(sets: dict, deals: int, first: int = 0, seed: int = 0, jobs: int = 1) -> dict:
    work = [(d, seed, sets) for d in range(first, first + deals)]
    t0 = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(play_deal, work, chunksize=4)
    else:
        parts = [play_deal(w) for w in work]
    outcomes = [o for p, _ in parts for o in p]
    cpu = {who: cpu_stats([x for _, c in parts for x in c[who]]) for who in ("lever", "hard")}
    return {"level": "hard with " + json.dumps(sets, sort_keys=True), "opponent": "hard", "sets": sets,
            "seed": seed, "first_deal": first, **summary(outcomes), "outcomes": outcomes, "cpu_s": cpu,
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a constant of domino.players.line or .search for the lever's pair (JSON value)")
    p.add_argument("--deals", type=int, default=1000, help="deals, each played twice (sides swapped)")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--json", help="also write the result (with each hand's outcome) to this file")
    args = p.parse_args(argv)
    try:
        sets = parse_sets(args.set)
    except ValueError as exc:
        p.error(str(exc))
    r = run(sets, args.deals, args.first, args.seed, args.jobs)
    c, h = r["cpu_s"]["lever"], r["cpu_s"]["hard"]
    print(f"{r['level']} vs hard: wins {r['share']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] of "
          f"{r['hands']} hands (deals {args.first}-{args.first + args.deals - 1}, seed {args.seed}); "
          f"CPU s/decision lever {c['mean']:.4f} mean / {c['p95']:.4f} p95, hard {h['mean']:.4f} / "
          f"{h['p95']:.4f}; {r['seconds']:.0f} s", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump([r], fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
