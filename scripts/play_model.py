#!/usr/bin/env python3
"""What a seat's plays say about its hand: a play model learned from duels (issue 43, a lever measured).

A benchmark tool, not a test.  ``scripts/duel_pa.py --records --json D.json`` keeps every hand's record
(the deal and every action, who sat where); this script replays them and, at every play where the
mover had a choice, writes down what it held, what it could play and what it played.  A conditional
logit (the chance of each legal play is exp(w . features) over the sum) is fitted to those choices,
one per kind of player (``pa``, ``hard``): which features of a play -- its pips, a double, how many of
the mover's other tiles follow the number it leaves open, the other end, the numbers the partner or the
next seat lack -- predict it.  Printed: the weights and, on the deals left out of the fit, the log
likelihood per choice against choosing at random and how often the model's favourite is the play.

Then the belief it gives: at every decision of the other side's seats (the hidden hands as they were),
``--belief N`` deals N samples the hard player's way and weighs each by how likely the other seats'
plays so far were under the model, given the sample's hands; printed is how many of the hidden tiles
each way places with the right seat (the true hand is what a better belief gets closer to).

    python scripts/play_model.py D.json [more.json ...] [--out weights.json] [--belief 8]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from domino.engine import tiles  # noqa: E402
from domino.engine.common import other_half  # noqa: E402
from domino.players.search import popcount  # noqa: E402

LOW, HIGH, PIPS = tiles.LOW, tiles.HIGH, tiles.PIPS
ACC = [tiles.SUIT[v] & tiles.set_mask(6) for v in range(7)]     # the double-six tiles showing v
FEATURES = ("pips", "double", "follow_new", "follow_other", "ends_same", "unseen_new",
            "partner_lacks_new", "next_lacks_new", "suit_len")


def plays(hand: int, ends) -> list[tuple[int, int, int]]:
    """The distinct plays (tile, end, number left open) of ``hand`` on a line with ``ends`` (W, E)."""
    out, seen = [], set()
    for e in (0, 1):
        v = ends[e]
        for t in tiles.ids(hand & ACC[v]):
            x = other_half(t, v)
            o = ends[1 - e]
            key = (t, tuple(sorted((x, o))))
            if key not in seen:
                seen.add(key)
                out.append((t, e, x))
    return out


def features(hand: int, ends, play, played: int, lacks_partner: int, lacks_next: int) -> tuple:
    """The features of ``play`` (tile, end, number left open) for a mover holding ``hand`` (the tile
    included); ``played``: the tiles on the table; ``lacks_*``: bit v set when that seat is known to
    lack the number v (it passed on it)."""
    t, e, x = play
    o = ends[1 - e]
    rest = hand & ~(1 << t)
    seen = played | (1 << t) | rest
    return (PIPS[t] / 12.0, float(LOW[t] == HIGH[t]), popcount(rest & ACC[x]), popcount(rest & ACC[o]),
            float(x == o), 7 - popcount(seen & ACC[x]), float(lacks_partner >> x & 1),
            float(lacks_next >> x & 1), popcount(rest & (ACC[LOW[t]] | ACC[HIGH[t]])))


class Event:
    """A play by a seat that had a choice, as the table saw it: enough to score it under any hand."""
    __slots__ = ("seat", "ends", "choice", "played", "lacks", "later")

    def __init__(self, seat, ends, choice, played, lacks):
        self.seat, self.ends, self.choice, self.played, self.lacks = seat, ends, choice, played, lacks
        self.later = 0     # the tiles this seat played from this play on (this one included)


def replay(record: dict, players: int = 4):
    """(events, hands at each event) of a finished line hand's record: every play after the first, with
    the mover's true hand then.  Events whose mover had one play only are kept (they say nothing, but
    their ``later`` tiles count); ``choice`` None marks them."""
    hands = [sum(1 << t for t in h) for h in record["deal"]]
    ends = None
    played = 0
    lacks = [0] * players
    out = []
    for a in record["actions"]:
        s = a[0]
        if a[1] == "x":
            if ends is not None:
                lacks[s] |= (1 << ends[0]) | (1 << ends[1])
            continue
        if a[1] != "p":
            raise ValueError(f"not a line hand without a boneyard: {a}")
        t, e, x = a[2], a[3], a[4]
        if ends is None:
            ends = [LOW[t], HIGH[t]]
        else:
            legal = plays(hands[s], ends)
            choice = next((p for p in legal if p[0] == t and p[2] == x and (p[1] == e or ends[0] == ends[1])),
                          None)
            if choice is None:
                raise ValueError(f"play {a} is not among {legal}")
            ev = Event(s, tuple(ends), choice if len(legal) > 1 else None, played, tuple(lacks))
            out.append((ev, hands[s]))
            ends[e] = x
        hands[s] &= ~(1 << t)
        played |= 1 << t
        for ev, _ in out:
            if ev.seat == s:
                ev.later |= 1 << t
    return out


def choice_rows(ev: Event, hand: int, players: int = 4):
    """(rows of features of every legal play, index of the one played) or None."""
    legal = plays(hand, ev.ends)
    if ev.choice is None or len(legal) < 2 or ev.choice not in legal:
        return None
    partner = (ev.seat + 2) % players
    nxt = (ev.seat + 1) % players
    rows = [features(hand, ev.ends, p, ev.played, ev.lacks[partner], ev.lacks[nxt]) for p in legal]
    return rows, legal.index(ev.choice)


def log_prob(w, rows, k: int) -> float:
    zs = [sum(a * b for a, b in zip(w, r)) for r in rows]
    top = max(zs)
    return zs[k] - top - math.log(sum(math.exp(z - top) for z in zs))


def fit(data, l2: float = 1e-3, iters: int = 25) -> list[float]:
    """The weights of the conditional logit: Newton's steps on the mean log likelihood with an L2 pull
    (concave, so a few steps converge), each halved until it gains."""
    nf = len(FEATURES)
    w = [0.0] * nf
    n = max(len(data), 1)

    def objective(w):
        return sum(log_prob(w, rows, k) for rows, k in data) / n - l2 / 2 * sum(x * x for x in w)
    current = objective(w)
    for _ in range(iters):
        g = [-l2 * x for x in w]
        hess = [[(-l2 if i == j else 0.0) for j in range(nf)] for i in range(nf)]
        for rows, k in data:
            zs = [sum(a * b for a, b in zip(w, r)) for r in rows]
            top = max(zs)
            ps = [math.exp(z - top) for z in zs]
            tot = sum(ps)
            ps = [p / tot for p in ps]
            mean = [sum(p * r[j] for p, r in zip(ps, rows)) for j in range(nf)]
            for j in range(nf):
                g[j] += (rows[k][j] - mean[j]) / n
            for p, r in zip(ps, rows):
                d = [r[j] - mean[j] for j in range(nf)]
                for i in range(nf):
                    if d[i]:
                        pdi = p * d[i] / n
                        row = hess[i]
                        for j in range(nf):
                            row[j] -= pdi * d[j]
        step = _solve([[-x for x in row] for row in hess], g)
        t = 1.0
        while t > 1e-4:
            trial = [a + t * b for a, b in zip(w, step)]
            value = objective(trial)
            if value >= current:
                break
            t /= 2
        else:
            break
        gain = value - current
        w, current = trial, value
        if gain < 1e-9:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is positive definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / piv
            if f:
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def scores(w, data) -> dict:
    ll = sum(log_prob(w, rows, k) for rows, k in data) / max(len(data), 1)
    base = -sum(math.log(len(rows)) for rows, _ in data) / max(len(data), 1)
    top = sum(max(range(len(rows)), key=lambda i: sum(a * b for a, b in zip(w, rows[i]))) == k
              for rows, k in data) / max(len(data), 1)
    return {"choices": len(data), "loglik": ll, "random_loglik": base, "top1": top}


def load(paths) -> list[dict]:
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for r in json.load(fh):
                out += r.get("records", [])
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("duels", nargs="+", help="duel_pa --records --json files")
    p.add_argument("--out", help="write the fitted weights (by kind) to this JSON file")
    args = p.parse_args(argv)
    recs = load(args.duels)
    if not recs:
        print("no records: run duel_pa with --records", file=sys.stderr)
        return 2
    by_kind: dict[str, dict[str, list]] = {}
    for rec in recs:
        part = "test" if rec["deal"] % 2 else "train"
        for ev, hand in replay(rec["record"]):
            row = choice_rows(ev, hand)
            if row is not None:
                by_kind.setdefault(rec["kinds"][ev.seat], {"train": [], "test": []})[part].append(row)
    out = {}
    for kind, d in sorted(by_kind.items()):
        w = fit(d["train"])
        out[kind] = dict(zip(FEATURES, w))
        s = scores(w, d["test"])
        print(f"{kind}: {len(d['train'])} choices fitted, {s['choices']} left out: log likelihood per choice "
              f"{s['loglik']:.3f} (at random {s['random_loglik']:.3f}), favourite played {s['top1']:.3f}")
        print("  " + ", ".join(f"{f} {x:+.2f}" for f, x in zip(FEATURES, w)))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
