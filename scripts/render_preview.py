"""Write sample line boards (domino/app/boards/line.py) to an HTML file, to look at.

    python scripts/render_preview.py [OUT.html] [--width W --height H]

Plays a few seeded random hands with the engine and draws the table at the
given board size (360 x 300 by default), plus a row of hand tiles, a long
hand-built line of double-9 and a four-armed spinner board.  Screenshot it
with a headless browser to check the looks.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from domino.app.boards import line, tiles  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402


def play(game: str, seed: int, stop: int | None = None, **opts) -> dict:
    m = Match(make_rules(game, **opts), seed=seed,
              seats=[{"name": f"P{i}", "kind": "human"} for i in range(opts.get("players", 2))])
    rng = random.Random(seed)
    n = 0
    while m.phase == "play" and (stop is None or n < stop):
        m.apply(rng.choice(m.legal_actions()))
        n += 1
    return m.view(m.turn if m.turn is not None else 0)


def long_line(n: int, top: int) -> dict:
    """A hand-built line: n tiles chained on the W arm of center 0-0 (no engine)."""
    tiles = [(a, b) for b in range(top + 1) for a in range(b + 1)]
    used = {(0, 0)}
    arm = []
    end = 0
    rng = random.Random(n)
    while len(arm) < n:
        opts = [t for t in tiles if t not in used and end in t]
        if not opts:
            break
        opts.sort(key=lambda t: (t[0] != t[1], rng.random()))
        t = opts[0] if rng.random() < 0.4 else rng.choice(opts)
        used.add(t)
        end = t[1] if t[0] == end else t[0]
        arm.append({"tile": f"{t[0]}-{t[1]}", "out": end})
    return {"layout": {"center": "0-0", "spinner": None, "arms": {"W": arm, "E": [], "N": [], "S": []}},
            "last": arm[-1]["tile"] if arm else "0-0"}


def four_arms() -> dict:
    arms = {
        "W": [{"tile": "1-5", "out": 1}, {"tile": "1-3", "out": 3}, {"tile": "3-4", "out": 4},
              {"tile": "2-4", "out": 2}, {"tile": "2-2", "out": 2}, {"tile": "2-6", "out": 6}],
        "E": [{"tile": "5-6", "out": 6}, {"tile": "6-6", "out": 6}, {"tile": "0-6", "out": 0},
              {"tile": "0-1", "out": 1}, {"tile": "1-1", "out": 1}],
        "N": [{"tile": "0-5", "out": 0}, {"tile": "0-3", "out": 3}, {"tile": "3-3", "out": 3},
              {"tile": "3-6", "out": 6}, {"tile": "4-6", "out": 4}],
        "S": [{"tile": "4-5", "out": 4}, {"tile": "4-4", "out": 4}, {"tile": "0-4", "out": 0},
              {"tile": "0-2", "out": 2}, {"tile": "2-3", "out": 3}],
    }
    return {"layout": {"center": "5-5", "spinner": {"arm": "C", "index": 0}, "arms": arms},
            "last": "2-3"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default="preview.html")
    ap.add_argument("--width", type=float, default=360)
    ap.add_argument("--height", type=float, default=300)
    ap.add_argument("--only", default="", help="comma-separated sample numbers (0 = the hand row)")
    args = ap.parse_args()
    w, h = args.width, args.height
    ends = {"W": "Left end", "E": "Right end", "N": "Top end", "S": "Bottom end"}
    samples = [
        ("all-fives, mid hand", play("all-fives", 3, stop=9), ends, "coloured"),
        ("all-fives, hand over", play("all-fives", 3), None, "coloured"),
        ("draw, 4 players, black pips", play("draw", 5, players=4), {"W": "Left", "E": "Right"}, "black"),
        ("classic double-9", play("classic", 2, set=9), None, "coloured"),
        ("27 tiles on one arm", long_line(27, 6), {"W": "Left", "E": "Right"}, "coloured"),
        ("54 tiles of double-9", long_line(54, 9), None, "coloured"),
        ("four spinner arms", four_arms(), ends, "coloured"),
        ("empty table", {"layout": {"center": None, "spinner": None, "arms": {}}}, None, "coloured"),
    ]
    css = (
        "body{margin:0;background:#222;color:#eee;font:13px sans-serif}"
        f".b{{width:{w:g}px;height:{h:g}px;margin:0 0 18px}}"
        ".hand{display:flex;gap:4px;flex-wrap:wrap;margin:6px 0 18px}"
        ".hand div{width:34px;height:64px}"
        ".hand div.h{width:64px;height:34px}"
        "@keyframes pulse{from{opacity:.55}to{opacity:1}}"
        ".target{animation:pulse 1s ease-in-out infinite alternate;cursor:pointer}"
    )
    only = {int(x) for x in args.only.split(",") if x.strip()}
    body = []
    hand = ["0-0", "1-2", "3-3", "4-6", "5-5", "6-6", "2-6", "0-9", "7-8", "9-9", "10-11", "12-12"]
    if not only or 0 in only:
        body.append("<div>hand (coloured, then black)</div><div class=hand>")
        body += [f"<div>{tiles.to_svg(tiles.tile_svg(t))}</div>" for t in hand]
        body += [f"<div class=h>{tiles.to_svg(tiles.tile_svg(t, style='black', horizontal=True))}</div>"
                 for t in hand[:6]]
        body.append("</div>")
    for i, (title, view, tg, style) in enumerate(samples, 1):
        if only and i not in only:
            continue
        body.append(f"<div>{title}</div><div class=b>")
        body.append(tiles.to_svg(line.board(view, w, h, style=style, targets=tg)))
        body.append("</div>")
    html = ("<!doctype html><html><head><meta charset=utf-8><style>" + css
            + "</style></head><body>" + "".join(body) + "</body></html>")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(html)
    print(args.out)


if __name__ == "__main__":
    main()
