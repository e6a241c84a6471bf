"""Golden matches (tests/golden/*.json, made by scripts/make_golden.py).

Each record is replayed by ``records.from_record`` (which checks every action
and every recorded hand result against the engine), and then every score is
recomputed here independently, from the record alone, by the rules of
RULES.md: the fives scored after each play (from the layout the plays build),
the end-of-hand points, the running totals and the match outcome.
"""
from __future__ import annotations

import glob
import io
import json
import os
from contextlib import redirect_stdout

import pytest
from helpers import layout_total

from domino import cli
from domino.engine import tiles
from domino.engine.records import from_record
from domino.engine.rules import rules_from_options

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden")
ALL_FILES = sorted(glob.glob(os.path.join(GOLDEN, "*.json")))
PRESETS = ("draw", "block", "all-fives", "classic", "latin", "muggins", "los-cincos", "matador")
BOARD_GAMES = ("mexican-train", "chicken-foot", "frijolito")


def _game(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["game"]


FILES = [f for f in ALL_FILES if _game(f) not in BOARD_GAMES]
BOARD_FILES = [f for f in ALL_FILES if _game(f) in BOARD_GAMES]


def load(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def pips(name):
    t = tiles.Tile.parse(name)
    return t.a + t.b


def rounded(raw, rounding):
    if rounding == "nearest-5":
        return 5 * ((raw + 2) // 5)      # no ties with whole pips (RULES 7.1)
    if rounding == "fifths":
        return (raw + 2) // 5
    return raw


def replay_hand(r, hand, base):
    """Fives per side and the final hands, from the deal and the actions."""
    held = [set(h) for h in hand["deal"]]
    fives = [0] * r.n_sides
    layout = {"center": None, "spinner": None, "arms": {e: [] for e in "WENS"}}
    target_hit = False
    for a in hand["actions"]:
        assert not target_hit, "actions after the target was reached"
        s = a["seat"]
        if "draw" in a:
            held[s].add(a["draw"])
        elif "play" in a:
            held[s].remove(a["play"])
            t = tiles.Tile.parse(a["play"])
            if "end" not in a:
                layout["center"] = a["play"]
                start = {"W": t.a, "E": t.b}
                if t.is_double:
                    start["N"] = start["S"] = t.a
            else:
                e = a["end"]
                arm = layout["arms"][e]
                if "N" not in start and t.is_double and e in "WE":
                    start["N"] = start["S"] = t.a      # the first double (N/S only if it spins)
                if "open" in a:                          # Matador: the player says
                    out = a["open"]
                elif t.is_double and r.joins == "matador":   # 0-0, 5-5: matadors too
                    out = t.a
                else:                                    # the other half of the matching one
                    v = arm[-1]["out"] if arm else start[e]
                    if r.joins == "matador":             # the touching halves sum to N+1
                        k = r.set + 1
                        assert k - v in (t.a, t.b), (a, v)
                        out = t.b if t.a + v == k else t.a
                    else:
                        assert v in (t.a, t.b), (a, v)
                        out = t.b if t.a == v else t.a
                arm.append({"tile": a["play"], "out": out})
            if r.fives != "off":
                total = layout_total(layout)
                if total and total % 5 == 0:
                    side = r.side_of(s)
                    fives[side] += total if r.fives == "total" else total // 5
                    if base[side] + fives[side] >= r.target:
                        target_hit = True
    return fives, held, target_hit


def expected_points(r, hand, base):
    res = hand["result"]
    fives, held, target_hit = replay_hand(r, hand, base)
    counts = [sum(pips(t) for t in h) for h in held]
    assert res["counts"] == counts
    sides = r.sides
    sc = [sum(counts[s] for s in side) for side in sides]
    n = len(sides)
    pts = [0] * n
    end = res["end"]
    assert (end == "target") == target_hit
    if end == "domino":
        w = r.side_of(res["winner"])
        assert counts[res["winner"]] == 0
        if r.points == "bad":
            pts = [0 if i == w else sc[i] for i in range(n)]
        else:
            pts[w] = 1 if r.best_of_10 else rounded(sum(sc[i] for i in range(n) if i != w), r.rounding)
    elif end == "blocked":
        low = min(sc)
        lows = [i for i in range(n) if sc[i] == low]
        if r.points == "bad":
            pts = [sc[i] if (i not in lows or r.block_winner == "own") else 0 for i in range(n)]
        else:
            if len(lows) > 1 and r.tie_break == "lowest-tile" and not r.partnership:
                keys = {i: sorted(pips(t) for t in held[i]) for i in lows}
                best = min(keys.values())
                lows = [i for i in lows if keys[i] == best]
            if len(lows) == 1:
                w = lows[0]
                if r.blocked == "difference":
                    raw = sum(sc[i] - sc[w] for i in range(n) if i != w)
                else:
                    raw = sum(sc[i] for i in range(n) if i != w)
                pts[w] = 1 if r.best_of_10 else rounded(raw, r.rounding)
    else:
        assert end == "target"
    return [pts[i] + fives[i] for i in range(n)]


def test_one_golden_per_preset():
    names = {os.path.basename(f)[:-5] for f in ALL_FILES}
    assert set(PRESETS) | set(BOARD_GAMES) <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.basename(p)[:-5])
def test_golden_replays_with_every_score(path):
    doc = load(path)
    m = from_record(doc)                    # checks every action and hand result
    exp = doc["expect"]
    assert m.finished and doc["finished"]
    assert m.scores == exp["totals"] == doc["outcome"]["scores"]
    assert m.outcome == exp["outcome"] == doc["outcome"]
    r = rules_from_options(doc["game"], doc["options"])
    assert r == m.rules
    totals = [0] * r.n_sides
    for k, hand in enumerate(doc["hands"]):
        want = expected_points(r, hand, totals)
        assert hand["result"]["points"] == want == exp["hands"][k]["points"], f"hand {k}"
        totals = [a + b for a, b in zip(totals, want)]
        assert hand["result"]["totals"] == totals, f"hand {k}"
        last = k == len(doc["hands"]) - 1
        if r.best_of_10:
            assert last == (k == 9)
        else:
            assert last == (max(totals) >= r.target or hand["result"]["end"] == "target")
    assert totals == m.scores
    if r.best_of_10:
        best = max(totals)
        high = True
    else:
        high = r.points == "good"
        best = max(totals) if high else min(totals)
    winner = totals.index(best) if totals.count(best) == 1 else None
    assert m.outcome["winner"] == winner
    assert m.outcome["reason"] == ("best-of-10" if r.best_of_10 else "target")


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: os.path.basename(p)[:-5])
def test_board_golden_replays_with_every_score(path):
    """Mexican Train, Chicken Foot, Frijolito: bad points recomputed from the
    deal and the actions alone (0-0 counts 50 in Chicken Foot), the round
    doubles going down, and the match's end and winner."""
    doc = load(path)
    m = from_record(doc)
    r = rules_from_options(doc["game"], doc["options"])
    assert m.finished and doc["finished"] and r == m.rules
    totals = [0] * r.players
    doubles = []
    for k, hand in enumerate(doc["hands"]):
        held = [set(h) for h in hand["deal"]]
        opening = None
        for a in hand["actions"]:
            s = a["seat"]
            if "play" in a:
                held[s].remove(a["play"])
                if "end" not in a:
                    opening = tiles.Tile.parse(a["play"])
                elif r.shape == "trains":
                    assert a["end"] in [f"train:{i}" for i in range(r.players)] + (
                        ["train:mexican"] if r.mexican_train else [])
                elif r.shape == "foot":
                    assert a["end"].startswith("foot:")
                else:
                    assert a["end"] in ("W", "E")
            elif "draw" in a:
                assert r.boneyard == "draw" or r.shape == "foot"
                held[s].add(a["draw"])
        if r.shape == "trains":
            d = opening.a if r.holder_starts else tiles.Tile.parse(hand["engine"]).a
            if not r.holder_starts:
                assert d == r.first_double - k
        elif r.shape == "foot":
            d = opening.a
            assert opening.is_double and d <= (r.first_double if k == 0 else doubles[-1] - 1)
        else:
            d = None
        doubles.append(d)
        counts = [sum(50 if (r.shape == "foot" and t == "0-0") else pips(t) for t in h) for h in held]
        res = hand["result"]
        assert res["counts"] == counts, f"hand {k}"
        out = [s for s in range(r.players) if not hand["deal"][s]]      # Frijolito: eliminated
        want = [0 if s in out else counts[s] for s in range(r.players)]
        if res["end"] == "domino":
            assert counts[res["winner"]] == 0
        else:
            assert res["end"] == "blocked"
        assert res["points"] == want, f"hand {k}"
        totals = [a + b for a, b in zip(totals, want)]
        assert res["totals"] == totals
    assert totals == m.scores == doc["outcome"]["scores"]
    if r.shape in ("trains", "foot"):
        assert m.outcome["reason"] == "rounds"
        if r.shape == "trains":
            assert sorted(doubles) == list(range(r.first_double + 1))
        else:
            assert doubles[-1] == 0
        low = min(totals)
        assert m.outcome["winner"] == (totals.index(low) if totals.count(low) == 1 else None)
    elif r.elimination:
        left = [s for s in range(r.players) if totals[s] <= r.target]
        assert m.outcome["reason"] == "elimination" and len(left) <= 1
    else:
        assert max(totals) > r.target and m.outcome["reason"] == "target"
        low = min(totals)
        assert m.outcome["winner"] == (totals.index(low) if totals.count(low) == 1 else None)


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: os.path.basename(p)[:-5])
def test_golden_cli_replay(path):
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = cli.main(["replay", path])
    out = json.loads(buf.getvalue())
    doc = load(path)
    assert rc == 0 and out["totals"] == doc["expect"]["totals"]
    assert out["winner"] == doc["expect"]["outcome"]["winner"]


def test_golden_best_of_10_draw():
    doc = load(os.path.join(GOLDEN, "classic-best-of-10.json"))
    assert len(doc["hands"]) == 10
    assert doc["outcome"] == {"winner": None, "reason": "best-of-10", "scores": [5, 5]}


def test_golden_tampered_score_is_refused():
    from domino.engine.records import ReplayError
    doc = load(os.path.join(GOLDEN, "all-fives.json"))
    doc["hands"][0]["result"]["points"][0] += 5
    with pytest.raises(ReplayError) as exc:
        from_record(doc)
    assert exc.value.code == "score-mismatch" and exc.value.hand == 0
