#!/usr/bin/env python3
"""Fuzz Session.handle for a long time: the world of tests/session_fuzz.py
(the property test tests/test_session_fuzz.py runs it briefly in CI).

    python scripts/fuzz_session.py [--steps 2000] [--runs 5] [--role solo|hotseat|friends2|friends3] [--seed S]

Every run is a fresh world of one role fed ``--steps`` random inputs; after
every input no exception may have left ``handle``, every screen must draw and
every save in storage must replay.  Prints the inputs by kind, the steps and
the time per role, and for each failure its role, seed, step, the last inputs
and the traceback (the same role and seed replay it).  Exits 1 on any failure.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tests.session_fuzz import KINDS, ROLES, World  # noqa: E402


def run(role: str, seed: int, steps: int, counts: dict) -> str | None:
    rng = random.Random(seed)
    world = World(role, seed)
    for i in range(steps):
        kind = rng.choice(KINDS)
        r = rng.randrange(2**32)
        try:
            world.step(kind, random.Random(r))
            world.check()
        except Exception:
            last = "\n".join("    " + repr(x)[:240] for x in world.log[-8:])
            return f"{role} seed {seed} step {i} ({kind}):\n{last}\n{traceback.format_exc()}"
        finally:
            counts[kind] = counts.get(kind, 0) + 1
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=2000, help="inputs per run")
    ap.add_argument("--runs", type=int, default=5, help="runs (fresh worlds) per role")
    ap.add_argument("--role", choices=ROLES, action="append", help="only this role (repeatable)")
    ap.add_argument("--seed", type=int, default=1, help="the first run's seed")
    args = ap.parse_args()
    failures = []
    counts: dict[str, int] = {}
    t_all = time.perf_counter()
    for role in args.role or ROLES:
        t0 = time.perf_counter()
        for k in range(args.runs):
            fail = run(role, args.seed + k, args.steps, counts)
            if fail:
                failures.append(fail)
                print("FAIL " + fail, file=sys.stderr, flush=True)
        print(f"{role}: {args.runs} runs x {args.steps} inputs in {time.perf_counter() - t0:.1f} s", flush=True)
    total = sum(counts.values())
    print("inputs by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"{total} inputs in {time.perf_counter() - t_all:.1f} s; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
