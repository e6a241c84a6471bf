"""Arena: measure one computer level against another on the same deals.

A *deal* is one hand: a fresh :class:`~domino.engine.match.Match` with its own seed,
played to the end of its first hand.  Every deal is played twice with the
sides exchanged (same seed, so the same tiles; at 4 players A holds seats
0+2, then 1+3; at 3 players A holds seat 0 against B on 1+2, then the other
way round), which removes most of the luck of the deal.

``points_share_a`` -- higher is better for A, 0.5 is even:

* good-points games: A's points / (A's points + B's points) over all hands;
* bad-points games (Muggins, Matador): the bad points B took / (bad points A
  took + bad points B took) -- every pip A makes B keep counts for A.

Points are per side; when one level holds several sides (3 players) its
points are the mean over its sides, so both levels count one seat's worth.
``ci95`` is the 95% interval of that ratio over deal pairs (delta method:
the pairs are the independent units).  ``win_rate_a`` is the share of hands
in which A gained more than B (ties count half).  ``mean_points_per_hand`` is
all the points scored in a hand (fives included), averaged.
"""
from __future__ import annotations

import math
import time

from domino.engine.match import Match
from domino.players import get_player
from domino.engine.rules import make_rules


def _stats(ms: list[float]) -> dict:
    if not ms:
        return {"mean": 0.0, "p95": 0.0, "max": 0.0}
    s = sorted(ms)
    p95 = s[min(len(s) - 1, int(math.ceil(0.95 * len(s))) - 1)]
    return {"mean": round(sum(s) / len(s), 3), "p95": round(p95, 3), "max": round(s[-1], 3)}


def play_deal(rules, seed, kinds: list[str], times: dict[str, list[float]]) -> list[int]:
    """Play the first hand of a match with this seed; return points per side."""
    seats = [{"name": f"{k} {i}", "kind": k} for i, k in enumerate(kinds)]
    m = Match(rules, seed=seed, seats=seats)
    choosers = [get_player(k) for k in kinds]
    while m.phase == "play":
        seat = m.turn
        view = m.view(seat)
        rng = m.player_rng(seat)
        t0 = time.perf_counter()
        action = choosers[seat](view, rng)
        dt = (time.perf_counter() - t0) * 1000.0
        if len(view["legal"]) > 1:
            times[kinds[seat]].append(dt)
        m.apply(action)
    return list(m.records[0]["result"]["points"])


def run_arena(game: str, players: int | None, a: str, b: str, deals: int, seed: int,
              options: dict | None = None, progress=None) -> dict:
    rules = make_rules(game, players=players, **(options or {}))
    get_player(a)
    get_player(b)
    sides = rules.sides
    ns = len(sides)
    bad = rules.points == "bad"
    times = {a: [], b: []} if a != b else {a: []}
    ta: list[float] = []
    tb: list[float] = []
    ga_all = gb_all = 0.0
    wins = 0.0
    hands = 0
    total_points = 0
    pair_a: list[float] = []
    pair_t: list[float] = []
    # the sides A holds in the first and in the swapped game
    a_first = [0]
    layouts = [a_first, [i for i in range(ns) if i not in a_first]]
    for i in range(deals):
        deal_seed = seed * 1_000_003 + i
        pa = pt = 0.0
        for a_sides in layouts:
            kinds = [""] * rules.players
            for si, seats in enumerate(sides):
                for s in seats:
                    kinds[s] = a if si in a_sides else b
            if a == b:
                t = times[a]
                pts = play_deal(rules, deal_seed, kinds, {a: t})
            else:
                local = {a: [], b: []}
                pts = play_deal(rules, deal_seed, kinds, local)
                ta.extend(local[a])
                tb.extend(local[b])
            b_sides = [si for si in range(ns) if si not in a_sides]
            pa_h = sum(pts[si] for si in a_sides) / len(a_sides)
            pb_h = sum(pts[si] for si in b_sides) / len(b_sides)
            ga, gb = (pb_h, pa_h) if bad else (pa_h, pb_h)
            ga_all += ga
            gb_all += gb
            wins += 1.0 if ga > gb else 0.5 if ga == gb else 0.0
            hands += 1
            total_points += sum(pts)
            pa += ga
            pt += ga + gb
        pair_a.append(pa)
        pair_t.append(pt)
        if progress:
            progress(i + 1, deals, f"{game} {a} vs {b}")
    if a == b:
        ta = tb = times[a]
    tot = ga_all + gb_all
    share = ga_all / tot if tot else 0.5
    n = len(pair_a)
    if n > 1 and tot:
        mean_t = sum(pair_t) / n
        d = [x - share * y for x, y in zip(pair_a, pair_t)]
        md = sum(d) / n
        var = sum((x - md) ** 2 for x in d) / (n - 1)
        half = 1.96 * math.sqrt(var / n) / mean_t
    else:
        half = 0.5
    return {
        "game": rules.game, "players": rules.players, "a": a, "b": b, "seed": seed,
        "options": {k: v for k, v in (options or {}).items()},
        "deals": deals, "hands": hands,
        "points_share_a": round(share, 4),
        "ci95": [round(share - half, 4), round(share + half, 4)],
        "win_rate_a": round(wins / hands, 4) if hands else 0.0,
        "mean_points_per_hand": round(total_points / hands, 3) if hands else 0.0,
        "ms_per_decision": {"a": _stats(ta), "b": _stats(tb)},
    }
