"""The computer players of the line family: three levels, each ``choose(view, rng) -> action``.

A player sees only the seat view (``Match.view(seat)``) and its own
generator; it returns one of ``view["legal"]``.  Nothing here reads the
match, the seed or the boneyard order, so two states that look the same
from the seat always get the same move for the same generator.

* easy    -- legal moves with a light preference for heavy tiles; always
             goes out when it can.
* medium  -- a club player's heuristics over what the seat has seen: pips,
             doubles, spread of numbers, the numbers each player lacks
             (replayed from the history), counting, blocking when ahead,
             partner support, fives taken and denied, Matador's matadors.
* hard    -- determinized search: sample hidden hands consistent with the
             seat's knowledge, play each candidate out with a fast policy for
             every seat on the core :class:`~domino.engine.line.Hand`, average the
             hand's points difference for the seat's side.  In Matador the
             playouts follow medium's scores and medium's choice stands unless
             another move beats it clearly over the same samples.  A fixed budget of
             simulated moves per decision (not time), so it is deterministic
             and can be run in slices (:class:`HardSearch`, :func:`hard_search`).

``hint(view)`` runs the hard player for the seat to move and says why.

The engine offers no way to build a Hand from a seat view, so
:func:`knowledge` does it here: a Hand in which every seat holds every tile
replays the public plays (so the layout, ends, spinner and fives are exact),
then sampled hands and a sampled boneyard are put in.
"""
from __future__ import annotations

import json
import random

from domino.engine import tiles
from domino.engine.line import DRAW, END_INDEX, OPEN, PASS, Hand, N, S, W, E
from domino.engine.rules import compiled
from domino.players.search import (HARD_BUDGET, SlicedSearch, popcount, rules_of, sample_deal,
                                   suit_counts)

PIPS, LOW, HIGH, DOUBLE, SUIT = tiles.PIPS, tiles.LOW, tiles.HIGH, tiles.DOUBLE, tiles.SUIT
_NUM_EN = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_NUM_ES = ("ningún", "un", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez")



# ---------------------------------------------------------------------------
# What the seat knows


class Knowledge:
    """The seat's picture of the hand, from its view only."""

    __slots__ = ("view", "rules", "tab", "me", "side", "players", "hand", "pool", "counts",
                 "forbid", "pref", "h", "n_bone", "drawable", "fives_on", "pip_value",
                 "bad", "matador", "partner", "acc")

    def ends_mask(self, h: Hand, vals=None) -> int:
        acc = self.acc
        m = 0
        for e in h.open:
            m |= acc[h.end_val[e]]
        return m


def knowledge(view: dict) -> Knowledge:
    r = rules_of(view)
    k = Knowledge()
    k.view = view
    k.rules = r
    k.tab = tab = compiled(r)
    k.acc = tab.accept
    k.me = me = view["seat"]
    k.side = r.side_of(me)
    k.players = P = r.players
    k.partner = (me + 2) % 4 if r.partnership else -1
    k.fives_on = r.fives != "off"
    k.pip_value = 0.2 if r.rounding == "fifths" else 1.0
    k.bad = r.points == "bad"
    k.matador = r.joins == "matador"
    mine = 0
    for name in view["hand"]:
        mine |= 1 << tiles.tile_id(name)
    k.hand = mine
    full = tab.all
    h = Hand(r, [full] * P, [], view["opener"], None, base=view["scores"])
    forbid = [0] * P
    pref = [0] * 16           # numbers the partner chose to leave open
    played = 0
    prev = None
    acc, mats = tab.accept, tab.matadors
    for a in view["history"]:
        s = a["seat"]
        if "play" in a:
            t = tiles.tile_id(a["play"])
            played |= 1 << t
            h.turn = s
            m = _play_move(h, tab, k.matador, a)
            h.apply(m)
            if s == k.partner:
                x = m & 15 if "end" in a else -1
                if x >= 0:
                    pref[x] += 1
                else:
                    pref[LOW[t]] += 1
                    pref[HIGH[t]] += 1
        elif h.center >= 0 and s != me:
            em = 0
            for e in h.open:
                em |= acc[h.end_val[e]]
            if "draw" in a:
                if k.matador:
                    em &= ~mats
                new_seq = not (prev is not None and prev.get("seat") == s and "draw" in prev)
                if new_seq:
                    forbid[s] = 0
                forbid[s] |= em
            else:
                forbid[s] |= em
            if s == k.partner:
                for e in h.open:
                    pref[h.end_val[e]] = 0
        prev = a
    k.forbid = forbid
    k.pref = pref
    k.pool = full & ~mine & ~played
    k.counts = list(view["counts"])
    k.drawable = view["boneyard"]
    k.n_bone = view["boneyard"] + view["undrawable"]
    h.hands = [0] * P
    h.hands[me] = mine
    h.turn = me
    h.actions = []
    h.ended = None
    h.fives = list(view["fives"])
    k.h = h
    return k


def _play_move(h: Hand, tab, matador: bool, a: dict) -> int:
    """The core move of a play action ("open" is given only where the player
    chooses which half stays open: a Matador matador)."""
    t = tiles.tile_id(a["play"])
    if "end" not in a:
        return t << 7 | OPEN << 4
    e = END_INDEX[a["end"]]
    if a.get("open") is not None:
        return t << 7 | e << 4 | a["open"]
    v = h.end_val[e]
    if LOW[t] == HIGH[t]:
        x = LOW[t]
    elif matador:
        x = PIPS[t] - (tab.n + 1 - v)
    else:
        x = PIPS[t] - v
    return t << 7 | e << 4 | x


def action_move(k: Knowledge, a: dict) -> int:
    """The core move for one of view["legal"]."""
    if "draw" in a:
        return DRAW
    if "pass" in a:
        return PASS
    return _play_move(k.h, k.tab, k.matador, a)


def total_after(h: Hand, t: int, e: int, x: int) -> int:
    """The open-ends total after playing tile t at end e leaving x (no clone)."""
    if h.center < 0:
        return PIPS[t]
    ev, ed, arms = h.end_val, h.end_dbl, h.arms
    d = DOUBLE[t]
    total = 0
    for end in (W, E):
        if end == e:
            total += x * 2 if d else x
        else:
            v = ev[end]
            total += v * 2 if ed[end] else v
    for end in (N, S):
        if end == e:
            total += x * 2 if d else x
        elif arms[end]:
            v = ev[end]
            total += v * 2 if ed[end] else v
    return total


def fives_points(r, total: int) -> int:
    if total and total % 5 == 0:
        return total if r.fives == "total" else total // 5
    return 0


# ---------------------------------------------------------------------------
# Easy

def easy(view: dict, rng: random.Random) -> dict:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    plays = [a for a in legal if "play" in a]
    if not plays:
        return legal[0]
    if len(view["hand"]) == 1:
        return plays[0]          # domino: never missed
    weights = [2 + PIPS[tiles.tile_id(a["play"])] for a in plays]
    return rng.choices(plays, weights=weights)[0]


# ---------------------------------------------------------------------------
# Medium

def _numbers(mask: int) -> int:
    """Bitmask of the numbers showing on the tiles of mask."""
    out = 0
    while mask:
        low = mask & -mask
        t = low.bit_length() - 1
        out |= 1 << LOW[t] | 1 << HIGH[t]
        mask ^= low
    return out


def medium_scores(k: Knowledge, legal: list[dict]) -> list[tuple[float, dict, dict]]:
    """(score, action, features) per legal action."""
    h, r, acc, me = k.h, k.rules, k.acc, k.me
    mats = k.tab.matadors
    pool = k.pool
    P = k.players
    pv = k.pip_value
    nxt = (me + 1) % P
    # pips estimate per side: known own hand, unknown tiles at the pool's average
    pool_n = popcount(pool) or 1
    avg = tiles.pip_sum(pool) / pool_n
    side_est = [0.0] * r.n_sides
    for s in range(P):
        side_est[r.side_of(s)] += tiles.pip_sum(k.hand) if s == me else avg * k.counts[s]
    mine_est = side_est[k.side]
    others = [side_est[i] for i in range(r.n_sides) if i != k.side]
    ahead = mine_est < min(others) if others else False
    opp_allowed = pool & ~k.forbid[nxt]
    part_allowed = pool & ~k.forbid[k.partner] if k.partner >= 0 else 0
    my_n = popcount(k.hand)
    out = []
    for a in legal:
        m = action_move(k, a)
        f: dict = {}
        if m < 0:
            # Matador's decline: keep the matadors, take a tile
            sc = -4.0 - (0 if k.drawable > 3 and my_n >= 3 else 20)
            out.append((sc, a, f))
            continue
        t, e, x = m >> 7, (m >> 4) & 7, m & 15
        rest = k.hand & ~(1 << t)
        if not rest:
            out.append((1e6, a, {"out": True, "tile": t}))
            continue
        h2 = h.clone()
        h2.apply(m)           # only the layout, ends and fives are read from h2
        sc = 0.0
        pips = PIPS[t]
        f["tile"] = t
        f["pips"] = pips
        sc += pips * (1.0 if k.bad else 0.6)
        if DOUBLE[t]:
            sc += 3.0 + (2.0 if my_n >= 4 else 0.0)
            f["double"] = True
        if k.matador and (1 << t) & mats:
            sc -= 9.0 if my_n > 2 else 3.0
            f["matador"] = True
        nums = _numbers(rest)
        spread = popcount(nums)
        f["spread"] = spread
        sc += 0.7 * spread
        endm = 0
        vals = []
        for end in h2.open:
            v = h2.end_val[end]
            vals.append(v)
            endm |= acc[v]
        follow = popcount(rest & endm)
        sc += 1.2 * min(follow, 3) - (2.5 if follow == 0 else 0)
        # fives taken and denied
        if k.fives_on:
            got = h2.fives[k.side] - h.fives[k.side]
            f["fives"] = got
            sc += 1.6 * got / pv
            best = 0
            cand = opp_allowed & endm
            n_sc = 0
            while cand:
                low = cand & -cand
                tt = low.bit_length() - 1
                cand ^= low
                for end in h2.open:
                    v = h2.end_val[end]
                    if not (acc[v] >> tt) & 1:
                        continue
                    if k.matador:
                        xx = LOW[tt] if HIGH[tt] + v == k.tab.n + 1 else HIGH[tt]
                    else:
                        xx = PIPS[tt] - v
                    p = fives_points(r, total_after(h2, tt, end, xx))
                    if p:
                        n_sc += 1
                        best = max(best, p)
            if best:
                prob = min(1.0, n_sc * k.counts[nxt] / pool_n)
                sc -= 0.9 * best * prob / pv
                f["deny"] = best
        # blocking the next player, partner support
        opp_can = popcount(opp_allowed & endm)
        if opp_can == 0:
            sc += 4.0
            f["shut"] = True
        if k.partner >= 0:
            if part_allowed & endm == 0:
                sc -= 2.0
            sc += 1.5 * sum(1 for v in set(vals) if k.pref[v])
        open_unknown = popcount(pool & endm)
        if ahead:
            sc += 0.5 * (4 - min(open_unknown, 8))
        else:
            sc -= 0.3 * (4 - min(open_unknown, 8))
        # a move that blocks the hand now
        if k.drawable == 0 and not (endm & (pool | rest)):
            f["blocks"] = True
            sc += 25.0 if ahead else -25.0
        out.append((sc, a, f))
    return out


def medium(view: dict, rng: random.Random) -> dict:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    k = knowledge(view)
    scored = medium_scores(k, legal)
    best = max(s for s, _, _ in scored)
    top = [a for s, a, _ in scored if s >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)


# ---------------------------------------------------------------------------
# Hard: determinized search


def rollout_move(h: Hand, ms: list[int], rng: random.Random) -> int:
    """Cheap greedy policy for every seat in the playouts."""
    r = h.r
    hand = h.hands[h.turn]
    mats = h.tab.matadors
    fives = r.fives != "off"
    best = ms[0]
    bs = -1e9
    rnd = rng.random
    for m in ms:
        if m < 0:
            s = -30.0
        else:
            t = m >> 7
            if hand == 1 << t:
                return m
            s = PIPS[t] + (RP_DBL if DOUBLE[t] else 0) + RP_NOISE * rnd()
            if mats:
                if (1 << t) & mats:
                    s -= RP_MAT
                if m & 15 == 0:
                    s += RP_BLANK if hand & mats & ~(1 << t) else -RP_BLANK
            if fives:
                p = fives_points(r, total_after(h, t, (m >> 4) & 7, m & 15))
                if p:
                    s += 1.5 * (p if r.fives == "total" else p * 5)
            if ROLL_FIX and mats:
                if hand & h.tab.accept[m & 15] & ~mats & ~(1 << t):
                    s += 2
            elif hand & SUIT[m & 15] & ~(1 << t):
                s += 2
        if s > bs:
            bs = s
            best = m
    return best



def matador_move(h: Hand, ms: list[int], rng: random.Random) -> int:
    """Matador's playout policy: medium's scores, cheaply (pips, doubles,
    matadors kept, numbers kept, tiles left to follow the new ends, the
    decline-and-draw), with a little noise."""
    hand = h.hands[h.turn]
    tab = h.tab
    acc, mats = tab.accept, tab.matadors
    n_hand = hand.bit_count()
    cnt = suit_counts(hand)
    nums = 16 - cnt.count(0)
    ev, opn = h.end_val, h.open
    mat_cost = 9.0 if n_hand > 2 else 3.0
    dbl = 5.0 if n_hand >= 4 else 3.0
    rnd = rng.random
    best, bs = ms[0], -1e9
    for m in ms:
        if m < 0:
            sc = -4.0 - (0.0 if h.drawable() > 3 and n_hand >= 3 else 20.0)
        else:
            t = m >> 7
            bit = 1 << t
            if hand == bit:
                return m
            e, x = (m >> 4) & 7, m & 15
            a, b = LOW[t], HIGH[t]
            sc = PIPS[t] + MP_NOISE * rnd()
            if a == b:
                sc += dbl
                sp = nums - (cnt[a] == 1)
            else:
                sp = nums - (cnt[a] == 1) - (cnt[b] == 1)
            if bit & mats:
                sc -= mat_cost
            endm = acc[x]
            for e2 in opn:
                if e2 != e:
                    endm |= acc[ev[e2]]
            f = (hand & ~bit & endm).bit_count()
            sc += 0.7 * sp + 1.2 * (f if f < 3 else 3) - (2.5 if f == 0 else 0.0)
        if sc > bs:
            bs, best = sc, m
    return best


def outcome_value(k: Knowledge, h: Hand) -> float:
    res = h.settle()
    pts = res["points"]
    mine = pts[k.side]
    others = [pts[i] for i in range(len(pts)) if i != k.side]
    o = sum(others) / len(others)
    return (o - mine) if k.bad else (mine - o)


CRN = True
ROLL_FIX = True
RP_DBL = 4
RP_NOISE = 2.0
RP_MAT = 14
RP_BLANK = 4
MATADOR_MARGIN_Z = 0.5
MATADOR_CANDS = 4
MATADOR_PRUNE_AT = 0.5
MP_NOISE = 1.0



class LineSearch(SlicedSearch):
    """The hard player's search on the line family's core :class:`Hand`."""

    def __init__(self, view: dict, rng: random.Random, budget: int = HARD_BUDGET):
        self.view = view
        self.rng = rng
        self.budget = budget
        self.result = None
        legal = view["legal"]
        if len(legal) == 1:
            self.result = legal[0]
            return
        k = self.k = knowledge(view)
        scored = medium_scores(k, legal)
        if any(s >= 1e6 for s, _, _ in scored):
            self.result = max(scored, key=lambda x: x[0])[1]
            return
        if k.matador:
            # Matador: the playouts are about as good as medium's plan, so
            # the search keeps the plan unless it is clearly beaten
            self.margin_z = MATADOR_MARGIN_Z
            self.prune_at = MATADOR_PRUNE_AT
            self._start(scored, lambda a: action_move(k, a), MATADOR_CANDS)
        else:
            self._start(scored, lambda a: action_move(k, a))
        self.base: Hand | None = None
        self.crn = CRN and k.matador
        self.policy = matador_move if k.matador else rollout_move

    #: how the hidden tiles of each sample are dealt (``scripts/duel_pa.py --sampler`` measures another)
    sampler = staticmethod(sample_deal)

    def _new_sample(self) -> None:
        k = self.k
        hands, bone = self.sampler(k, self.rng)
        b = k.h.clone()
        b.hands = hands
        b.bone = bone
        b.bpos = 0
        self.base = b
        if self.crn:
            self.roll_seed = self.rng.getrandbits(32)

    def _rollout(self, m: int) -> float:
        h = self.base.clone()
        # the same playout randomness for every candidate of a sample: the
        # candidates are compared on equal luck (common random numbers)
        rng = random.Random(self.roll_seed) if self.crn else self.rng
        h.apply(m)
        self.steps += 1 + self._play_out(h, self.policy, rng)
        return outcome_value(self.k, h)



def line_search(view: dict, rng: random.Random, budget: int | None = None) -> LineSearch:
    return LineSearch(view, rng, HARD_BUDGET if budget is None else budget)


def hard(view: dict, rng: random.Random) -> dict:
    return LineSearch(view, rng).run()


# ---------------------------------------------------------------------------
# Hint

def _why(k: Knowledge, a: dict, f: dict) -> dict:
    if "draw" in a:
        return {"en": "keeps the matadors and draws a tile",
                "es": "guarda los matadores y roba una ficha"}
    if f.get("out"):
        return {"en": f"plays {a['play']} and goes out: domino!",
                "es": f"juega {a['play']} y se queda sin fichas: ¡dominó!"}
    en, es = [], []
    fv = f.get("fives", 0)
    if fv:
        en.append(f"scores {fv} with the ends")
        es.append(f"se anota {fv} con las puntas")
    if f.get("blocks"):
        en.append("closes the game while ahead on pips")
        es.append("cierra el juego yendo por delante en puntos")
    elif f.get("shut"):
        en.append("leaves numbers the next player lacks")
        es.append("deja números que le faltan al siguiente")
    p = f.get("pips", 0)
    if p:
        en.append(f"sheds {p} pip{'s' if p != 1 else ''}")
        es.append(f"suelta {p} punto{'s' if p != 1 else ''}")
    if f.get("double"):
        en.append("gets rid of a double")
        es.append("se quita un doble")
    sp = f.get("spread", 0)
    if sp:
        en.append(f"keeps {_NUM_EN[min(sp, 10)]} number{'s' if sp != 1 else ''}")
        es.append(f"conserva {_NUM_ES[min(sp, 10)]} número{'s' if sp != 1 else ''}")
    en, es = en[:3], es[:3]

    def join(xs, word):
        return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + f" {word} " + xs[-1]

    return {"en": f"{a['play']}: " + join(en, "and"), "es": f"{a['play']}: " + join(es, "y")}


def hint(view: dict) -> dict:
    """The hard player's move for the seat to move, with one line of why."""
    rng = random.Random(f"hint/{view['hand_no']}/{len(view['history'])}/{view['seat']}")
    action = hard(view, rng)
    k = knowledge(view)
    feats = {json.dumps(a, sort_keys=True): f for _, a, f in medium_scores(k, view["legal"])}
    f = feats.get(json.dumps(action, sort_keys=True), {})
    if len(view["legal"]) == 1 and "play" not in action:
        why = {"en": "no tile fits: nothing else to do", "es": "no cabe ninguna ficha: no hay otra"}
    else:
        why = _why(k, action, f)
    return {"action": action, "why": why}


