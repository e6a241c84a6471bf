"""Computer players' per-decision times in the browser (scripts/bench_ai_browser.py).

Plays ``hands`` seeded hands (seeds "<seed>/<i>", as scripts/bench_ai.py) of
``game`` with ``players`` seats, every seat the level measured, and times each
real decision (more than one legal action) with time.perf_counter.  Hard is
driven as the UI drives it: HardSearch(view, rng) then step(slice) until it
answers, with ``await asyncio.sleep(0)`` between slices; a slice is what runs
without yielding (the first one includes the constructor).  Every decision is
followed by ``await asyncio.sleep(0)`` too, so the page-side witnesses (timer
and frame gaps, see ai.html) measure the longest stretch without yielding.

Query: game (draw), players (2), hands (3), seed (bench),
levels (easy,medium,hard), slice (50), yield (0: the seconds hard sleeps
between slices; Pyodide runs a sleep of at most 2 ms as a MessageChannel task,
a longer one as setTimeout).  Writes a JSON object into
<pre id="result"> and sets html[data-done="1"] (also on error, with "error").
"""
import asyncio
import hashlib
import json
import statistics
import sys
import time
import traceback

from pyscript import document, window


def params() -> dict:
    q = window.URLSearchParams.new(window.location.search)

    def get(name, default):
        # URLSearchParams.get gives JS null for a missing name (not None)
        return str(q.get(name)) if q.has(name) and q.get(name) else default

    return {"game": get("game", "draw"), "players": int(get("players", "2")),
            "hands": int(get("hands", "3")), "seed": get("seed", "bench"),
            "levels": get("levels", "easy,medium,hard").split(","),
            "slice": float(get("slice", "50")), "yield": float(get("yield", "0"))}


def summary(ms: list) -> dict:
    if not ms:
        return {"decisions": 0}
    s = sorted(ms)
    return {"decisions": len(s), "mean_ms": round(statistics.fmean(s), 2),
            "median_ms": round(statistics.median(s), 2),
            "p95_ms": round(s[min(len(s) - 1, int(0.95 * len(s)))], 2), "max_ms": round(s[-1], 2)}


ROLLOUTS: list = []


def TimedSearch(cls, view, rng):
    """A HardSearch whose playouts are timed into ROLLOUTS (ms).  step()
    checks the clock between playouts and ends a slice before the playout
    it judges would overrun it; the first slice counts the set-up."""
    s = cls(view, rng)
    inner = s._rollout

    def timed(m):
        t = time.perf_counter()
        try:
            return inner(m)
        finally:
            ROLLOUTS.append((time.perf_counter() - t) * 1000)

    s._rollout = timed
    return s


async def decide_hard(ai, view, rng, slice_ms: float, pause: float = 0.0):
    """As domino/browser.py: (action, wall ms, blocking ms, longest slice ms, slices)."""
    pc = time.perf_counter
    t0 = pc()
    search = TimedSearch(ai.HardSearch, view, rng)
    action = search.step(slice_ms)
    t1 = pc()
    longest = busy = t1 - t0
    slices = 1
    while action is None:
        await asyncio.sleep(pause)
        a = pc()
        action = search.step(slice_ms)
        d = pc() - a
        busy += d
        longest = max(longest, d)
        slices += 1
    return action, (pc() - t0) * 1000, busy * 1000, longest * 1000, slices


async def bench_level(p: dict, level: str) -> dict:
    from domino.players import levels as ai
    from domino.engine.match import Match
    from domino.engine.rules import make_rules

    rules = make_rules(p["game"], players=p["players"])
    choose = ai.LEVELS[level]
    wall, busy, longest, slices = [], [], [], []
    digest = hashlib.sha256()
    hb = window.__bench
    await asyncio.sleep(0)
    hb.reset()
    t_level = time.perf_counter()
    for i in range(p["hands"]):
        m = Match(rules, seed=f"{p['seed']}/{i}", seats=[{"name": level, "kind": level}] * p["players"])
        while m.phase == "play":
            seat = m.turn
            view = m.view(seat)
            rng = m.player_rng(seat)
            if level == "hard":
                a, w, b, mx, n = await decide_hard(ai, view, rng, p["slice"], p["yield"])
            else:
                t0 = time.perf_counter()
                a = choose(view, rng)
                w = b = mx = (time.perf_counter() - t0) * 1000
                n = 1
            if len(view["legal"]) > 1:
                wall.append(w)
                busy.append(b)
                longest.append(mx)
                slices.append(n)
            digest.update(json.dumps(a, sort_keys=True).encode())
            m.apply(a)
            await asyncio.sleep(0)
        digest.update(json.dumps(m.view(0)["scores"]).encode())
    out = {**summary(wall), "wall_ms": [round(x, 2) for x in wall],
           "level_s": round(time.perf_counter() - t_level, 2),
           "actions_sha256": digest.hexdigest()[:16],
           "page_max_timer_gap_ms": round(float(hb.beatMax), 1),
           "page_max_frame_gap_ms": round(float(hb.frameMax), 1),
           "page_frames": int(hb.frames)}
    if level == "hard":
        ro = sorted(ROLLOUTS)
        ROLLOUTS.clear()
        out.update({"rollouts": len(ro),
                    "rollout_median_ms": round(statistics.median(ro), 3) if ro else None,
                    "rollout_max_ms": round(ro[-1], 2) if ro else None,"max_slice_ms": round(max(longest, default=0.0), 2),
                    "slice_ms": p["slice"], "yield_s": p["yield"],
                    "slices_over_budget": sum(1 for x in longest if x > p["slice"]),
                    "median_busy_ms": round(statistics.median(busy), 2) if busy else None,
                    "busy_ms": [round(x, 2) for x in busy],
                    "max_slice_per_decision_ms": [round(x, 2) for x in longest],
                    "slices": slices})
    return out


async def main() -> None:
    html = document.documentElement
    status = document.getElementById("status")
    result = {}
    try:
        p = params()
        result = {"game": p["game"], "players": p["players"], "hands": p["hands"], "seed": p["seed"],
                  "python": sys.version.split()[0], "user_agent": str(window.navigator.userAgent),
                  "levels": {}}
        for level in p["levels"]:
            status.textContent = f"{p['game']} {p['players']}p: {level}..."
            result["levels"][level] = await bench_level(p, level)
        status.textContent = "done"
    except Exception:
        result["error"] = traceback.format_exc()
        status.textContent = "error"
        html.dataset.error = "1"
    document.getElementById("result").textContent = json.dumps(result, indent=1)
    html.dataset.done = "1"
    if "error" in result:
        raise RuntimeError(result["error"])


await main()  # noqa: F704 (PyScript runs the page's script with top-level await)
