#!/usr/bin/env python3
"""How the suite's time is spent, from a timeline written by the tests (tests/conftest.py):

    DOMINO_TIMELINE=/tmp/t.jsonl scripts/test          # one JSON line per test's start and end
    python scripts/suite_timeline.py /tmp/t.jsonl      # prints the figures below

For each xdist worker: its busy seconds (inside tests), its idle seconds (between its tests, and before
its first and after its last test, against the whole run), and its last tests; then the slowest tests
and the seconds per test file.  A worker idle while the other runs a long last test is time the
suite's order could win back."""
from __future__ import annotations

import json
import sys
from collections import defaultdict


def main(path: str, top: int = 15) -> None:
    starts, ends, worker = {}, {}, {}
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        key = (row["worker"], row["test"])
        worker[key] = row["worker"]
        (starts if "start" in row else ends)[key] = row.get("start", row.get("end"))
    runs = [(starts[k], ends[k], k) for k in starts if k in ends]
    if any(k[0] != "main" for _, _, k in runs):     # xdist: the controller logs every test again
        runs = [r for r in runs if r[2][0] != "main"]
    if not runs:
        sys.exit("no finished test in the timeline")
    t0 = min(r[0] for r in runs)
    t1 = max(r[1] for r in runs)
    print(f"whole run (first start to last end): {t1 - t0:.0f} s, {len(runs)} tests")
    by_worker = defaultdict(list)
    for a, b, k in runs:
        by_worker[k[0]].append((a, b, k[1]))
    for w, rs in sorted(by_worker.items()):
        rs.sort()
        busy = sum(b - a for a, b, _ in rs)
        last = ", ".join(f"{n.split('::')[-1]} {b - a:.0f} s" for a, b, n in rs[-3:])
        print(f"  {w}: busy {busy:.0f} s, idle {t1 - t0 - busy:.0f} s "
              f"(starts +{rs[0][0] - t0:.0f} s, ends {t1 - rs[-1][1]:.0f} s before the last); "
              f"last: {last}")
    print("slowest tests:")
    for a, b, k in sorted(runs, key=lambda r: r[0] - r[1])[:top]:
        print(f"  {b - a:6.1f} s  {k[1]}")
    files = defaultdict(float)
    for a, b, k in runs:
        files[k[1].split("::")[0]] += b - a
    print("per file:")
    for f, s in sorted(files.items(), key=lambda x: -x[1])[:top]:
        print(f"  {s:6.1f} s  {f}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
