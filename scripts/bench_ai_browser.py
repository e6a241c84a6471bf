#!/usr/bin/env python3
"""Per-decision times of the computer players in Chromium (PyScript/Pyodide).

Serves the repository as GitHub Pages would (scripts/devserver.py, under
/domino/), opens static/bench/ai.html once per configuration in headless
Chromium, and reads back what the page measured: every real decision of every
level (more than one legal action), all seats that level, seeds "bench/<i>" as
scripts/bench_ai.py.  Hard is driven as the UI drives it (HardSearch.step in
slices with ``await asyncio.sleep(0)`` between them), so its "max_slice_ms" is
the longest the page's main thread was held by the search; "page_max_*_gap_ms"
are the page's own witnesses (a 0 ms timer chain, animation frames).

Unless --no-cpython, the same hands are also played here in CPython (hard
unsliced: HardSearch.run()) and the per-level medians compared; the positions
are the same iff "same_actions" is true.  Prints one JSON object.  Not a test;
run after scripts/setup:

    .venv/bin/python scripts/bench_ai_browser.py [--hands 3] [--games draw:2,all-fives:2,latin:4]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, ROOT)
from devserver import DevServer  # noqa: E402
from find_browser import LAUNCH_ARGS, find_chromium  # noqa: E402

PAGE = "static/bench/ai.html"
DEFAULT_GAMES = "draw:2,all-fives:2,latin:4"
SUMMARY_KEYS = ("decisions", "mean_ms", "median_ms", "p95_ms", "max_ms")


def summary(ms: list[float]) -> dict:
    if not ms:
        return {"decisions": 0}
    s = sorted(ms)
    return {"decisions": len(s), "mean_ms": round(statistics.fmean(s), 2),
            "median_ms": round(statistics.median(s), 2),
            "p95_ms": round(s[min(len(s) - 1, int(0.95 * len(s)))], 2), "max_ms": round(s[-1], 2)}


def cpython_level(game: str, players: int, level: str, hands: int, seed: str) -> dict:
    """The page's loop (static/bench/ai.py) in this interpreter; hard unsliced."""
    from bench_ai import measure
    from domino.players import levels as ai
    digest = hashlib.sha256()
    choose = (lambda view, rng: ai.HardSearch(view, rng).run()) if level == "hard" else None
    ms = measure(game, players, level, hands, seed=seed, choose=choose,
                 on_action=lambda a: digest.update(json.dumps(a, sort_keys=True).encode()),
                 on_hand=lambda m: digest.update(json.dumps(m.view(0)["scores"]).encode()))
    return {**summary(ms), "actions_sha256": digest.hexdigest()[:16]}


def run_page(browser, base_url: str, game: str, players: int, args) -> dict:
    query = urllib.parse.urlencode({"game": game, "players": players, "hands": args.hands,
                                    "seed": args.seed, "levels": args.levels, "slice": args.slice,
                                    "yield": args.pause})
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(f"{base_url}{PAGE}?{query}")
        page.wait_for_function(
            "document.documentElement.dataset.done === '1' || !!document.querySelector('.py-error')",
            timeout=int(args.timeout * 1000), polling=250)
        errors = page.locator(".py-error").all_inner_texts()
        text = page.locator("#result").inner_text()
        data = json.loads(text) if text.strip() else {}
        if errors or "error" in data:
            raise RuntimeError(f"{game} {players}p: " + (data.get("error") or " | ".join(errors)))
        return data
    finally:
        ctx.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=DEFAULT_GAMES,
                    help=f"comma-separated game:players (default {DEFAULT_GAMES})")
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--levels", default="easy,medium,hard")
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--slice", type=float, default=50.0, help="hard's step(ms) (the UI uses 40)")
    ap.add_argument("--yield", dest="pause", type=float, default=0.0,
                    help="seconds hard sleeps between slices (the UI: 0)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per page")
    ap.add_argument("--no-cpython", action="store_true", help="skip the CPython comparison")
    ap.add_argument("--raw", action="store_true", help="include per-decision lists")
    args = ap.parse_args()
    configs = []
    for item in args.games.split(","):
        game, _, players = item.strip().partition(":")
        configs.append((game, int(players or 2)))
    executable = find_chromium()
    if not executable:
        sys.exit("no Chromium found: run scripts/setup")
    if not os.path.isdir(os.path.join(ROOT, "static", "vendor", "pyodide")):
        sys.exit("static/vendor/ is missing: run scripts/setup")

    from playwright.sync_api import sync_playwright

    out: dict = {"hands": args.hands, "seed": args.seed, "slice_ms": args.slice,
                 "yield_s": args.pause, "games": {}}
    with DevServer(root=ROOT) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)
        try:
            out["browser"] = "Chromium " + browser.version
            for game, players in configs:
                print(f"bench_ai_browser: {game} {players}p ...", file=sys.stderr, flush=True)
                t0 = time.perf_counter()
                data = run_page(browser, server.url, game, players, args)
                out.setdefault("pyodide_python", data.get("python"))
                row = {}
                for level, res in data["levels"].items():
                    r = {k: res[k] for k in SUMMARY_KEYS if k in res}
                    if level == "hard":
                        r["max_slice_ms"] = res["max_slice_ms"]
                        r["slices_over_slice_ms"] = res["slices_over_budget"]
                        r["median_busy_ms"] = res["median_busy_ms"]
                        r["total_slices"] = sum(res["slices"])
                        r["rollout_median_ms"] = res["rollout_median_ms"]
                        r["rollout_max_ms"] = res["rollout_max_ms"]
                    r["page_max_timer_gap_ms"] = res["page_max_timer_gap_ms"]
                    r["page_max_frame_gap_ms"] = res["page_max_frame_gap_ms"]
                    if args.raw:
                        r["wall_ms"] = res["wall_ms"]
                        if level == "hard":
                            r["max_slice_per_decision_ms"] = res["max_slice_per_decision_ms"]
                    if not args.no_cpython:
                        cp = cpython_level(game, players, level, args.hands, args.seed)
                        r["cpython"] = {k: cp[k] for k in SUMMARY_KEYS if k in cp}
                        r["same_actions"] = cp["actions_sha256"] == res["actions_sha256"]
                        if cp.get("median_ms") and r.get("median_ms"):
                            r["median_ratio"] = round(r["median_ms"] / cp["median_ms"], 2)
                    row[level] = r
                out["games"][f"{game} {players}p"] = row
                print(f"bench_ai_browser: {game} {players}p done in {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr, flush=True)
        finally:
            browser.close()
    if args.no_cpython:
        out["cpython"] = "skipped: run scripts/bench_ai.py for CPython numbers"
    else:
        out["cpython_version"] = sys.version.split()[0]
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
