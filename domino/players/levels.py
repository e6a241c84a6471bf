"""Computer players: three levels, each ``choose(view, rng) -> action``.

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
import time

from domino.engine import tiles as T
from domino.engine.line import DRAW, END_INDEX, OPEN, PASS, Hand, N, S, W, E
from domino.engine.rules import compiled, rules_from_options

PIPS, LOW, HIGH, DOUBLE, SUIT = T.PIPS, T.LOW, T.HIGH, T.DOUBLE, T.SUIT
_NUM_EN = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_NUM_ES = ("ningún", "un", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez")


def _popcount(x: int) -> int:
    return bin(x).count("1")


# ---------------------------------------------------------------------------
# What the seat knows

_RULES_CACHE: dict = {}


def rules_of(view: dict):
    key = (view["game"], json.dumps(view["options"], sort_keys=True))
    r = _RULES_CACHE.get(key)
    if r is None:
        r = _RULES_CACHE[key] = rules_from_options(view["game"], view["options"])
    return r


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
        mine |= 1 << T.tile_id(name)
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
            t = T.tile_id(a["play"])
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
    t = T.tile_id(a["play"])
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
    if (b := _board(view)) is not None:
        return b.easy(view, rng)
    if len(legal) == 1:
        return legal[0]
    plays = [a for a in legal if "play" in a]
    if not plays:
        return legal[0]
    if len(view["hand"]) == 1:
        return plays[0]          # domino: never missed
    weights = [2 + PIPS[T.tile_id(a["play"])] for a in plays]
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
    pool_n = _popcount(pool) or 1
    avg = T.pip_sum(pool) / pool_n
    side_est = [0.0] * r.n_sides
    for s in range(P):
        side_est[r.side_of(s)] += T.pip_sum(k.hand) if s == me else avg * k.counts[s]
    mine_est = side_est[k.side]
    others = [side_est[i] for i in range(r.n_sides) if i != k.side]
    ahead = mine_est < min(others) if others else False
    opp_allowed = pool & ~k.forbid[nxt]
    part_allowed = pool & ~k.forbid[k.partner] if k.partner >= 0 else 0
    my_n = _popcount(k.hand)
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
        spread = _popcount(nums)
        f["spread"] = spread
        sc += 0.7 * spread
        endm = 0
        vals = []
        for end in h2.open:
            v = h2.end_val[end]
            vals.append(v)
            endm |= acc[v]
        follow = _popcount(rest & endm)
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
        opp_can = _popcount(opp_allowed & endm)
        if opp_can == 0:
            sc += 4.0
            f["shut"] = True
        if k.partner >= 0:
            if part_allowed & endm == 0:
                sc -= 2.0
            sc += 1.5 * sum(1 for v in set(vals) if k.pref[v])
        open_unknown = _popcount(pool & endm)
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
    if (b := _board(view)) is not None:
        return b.medium(view, rng)
    k = knowledge(view)
    scored = medium_scores(k, legal)
    best = max(s for s, _, _ in scored)
    top = [a for s, a, _ in scored if s >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)


# ---------------------------------------------------------------------------
# Hard: determinized search

def sample_deal(k, rng: random.Random, attempts: int = 30,
                relax_after: int = 20) -> tuple[list[int], list[int]]:
    """Hidden hands and a boneyard consistent with the seat's knowledge (the
    line family's :class:`Knowledge` or the other boards' ``BoardKnowledge``:
    ``pool``, ``counts``, ``forbid``, ``hand``, ``me``, ``players``).  After
    ``relax_after`` failed tries the numbers a seat passed on are allowed again."""
    pool = T.ids(k.pool)
    others = [s for s in range(k.players) if s != k.me]
    order = sorted(others, key=lambda s: (_popcount(k.pool & ~k.forbid[s]) - k.counts[s], s))
    for attempt in range(attempts):
        tiles = pool[:]
        rng.shuffle(tiles)
        hands = [0] * k.players
        ok = True
        relax = attempt >= relax_after
        for s in order:
            need = k.counts[s]
            forb = 0 if relax else k.forbid[s]
            take = 0
            rest = []
            got = 0
            for t in tiles:
                if got < need and not (forb >> t) & 1:
                    take |= 1 << t
                    got += 1
                else:
                    rest.append(t)
            if got < need:
                ok = False
                break
            hands[s] = take
            tiles = rest
        if ok:
            hands[k.me] = k.hand
            return hands, tiles
    raise AssertionError("unreachable: relaxed sampling always succeeds")


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


def suit_counts(hand: int) -> list[int]:
    """How many tiles of the hand (a tile mask) carry each number, 0..15."""
    cnt = [0] * 16
    while hand:
        low = hand & -hand
        t = low.bit_length() - 1
        hand ^= low
        cnt[LOW[t]] += 1
        if HIGH[t] != LOW[t]:
            cnt[HIGH[t]] += 1
    return cnt


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


# simulated moves per decision: a fixed budget (not time), so results are
# reproducible; calibrated to ~40-80 ms median per decision in CPython
HARD_BUDGET = 14000
HARD_MIN_SAMPLES = 6
HARD_MAX_SAMPLES = 400
HARD_MAX_CANDIDATES = 7
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



class SlicedSearch:
    """A determinized search runnable in slices: ``step(ms)`` does about
    ``ms`` milliseconds of work and returns None until the action is known.
    The work is a fixed budget of simulated moves, so slicing never changes
    the result.  Subclasses set ``cands`` (actions), ``moves`` (their core
    moves), ``prior`` (their heuristic scores) and write ``_new_sample`` /
    ``_rollout(move) -> value``; a rollout may settle the search by setting
    ``result``.

    Every sample plays every candidate, so candidates are compared in pairs
    on the same deal.  With ``margin_z`` > 0 the search keeps the heuristic's
    choice (candidate 0) unless the best candidate beats it by ``margin_z``
    standard errors of that paired difference: a noisy search then never
    trades a sound plan for luck."""

    budget = HARD_BUDGET
    min_samples = HARD_MIN_SAMPLES
    max_samples = HARD_MAX_SAMPLES
    prior_weight = 1e-4
    margin_z = 0.0
    #: after this share of the budget, only candidate 0 and the ``prune_keep``
    #: best others by mean go on (0: never), so the comparison that decides
    #: gets the rest of the samples
    prune_at = 0.0
    prune_keep = 2
    result: dict | None = None

    def _start(self, scored: list, move_of, max_cands: int = HARD_MAX_CANDIDATES) -> None:
        """Candidates: the best ``max_cands`` of (score, action, ...) by score."""
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])[:max_cands]
        self.cands = [scored[i][1] for i in order]
        self.moves = [move_of(a) for a in self.cands]
        self.prior = [scored[i][0] for i in order]
        n = len(self.cands)
        self.totals = [0.0] * n
        self.cur = [0.0] * n      # this sample's values
        self.dsum = [0.0] * n     # paired differences with candidate 0
        self.dsq = [0.0] * n
        self.samples = 0
        self.steps = 0
        self.ci = 0               # next candidate within the current sample

    def done(self) -> bool:
        return self.result is not None

    #: the longest recent playout (with its sample's set-up), in seconds: a
    #: slice stops before a playout that would likely overrun it
    _unit = 0.0
    #: when the search was asked for (HardSearch sets it): the first slice
    #: counts from there, so the set-up (the seat's knowledge, medium's
    #: scores) is part of it rather than added to it
    started: float | None = None

    def step(self, budget_ms: float = 50.0) -> dict | None:
        """About ``budget_ms`` of work: a slice ends before the playout that
        would take it past the limit (judged by the longest recent one), so
        slow playouts never stretch a slice by their own length."""
        if self.result is not None:
            return self.result
        t0 = t = time.perf_counter()
        limit = budget_ms / 1000.0
        if self.started is not None:
            t0, self.started = min(t0, self.started), None
            if t - t0 >= limit:
                return None      # the set-up took the whole slice
        while True:
            if self.ci == 0:
                if self.samples >= self.min_samples and (
                        self.steps >= self.budget or self.samples >= self.max_samples):
                    self.result = self._finish()
                    return self.result
                if (self.prune_at and len(self.cands) > self.prune_keep + 1
                        and self.samples >= self.min_samples
                        and self.steps >= self.prune_at * self.budget):
                    self._prune()
                self._new_sample()
            v = self._rollout(self.moves[self.ci])
            if self.result is not None:
                return self.result      # the rollout settled the search
            self.totals[self.ci] += v
            self.cur[self.ci] = v
            self.ci += 1
            if self.ci == len(self.moves):
                self.ci = 0
                self.samples += 1
                cur = self.cur
                v0 = cur[0]
                for i in range(1, len(cur)):
                    d = cur[i] - v0
                    self.dsum[i] += d
                    self.dsq[i] += d * d
            now = time.perf_counter()
            self._unit = max(now - t, 0.9 * self._unit)
            t = now
            if now - t0 + self._unit >= limit:
                return None

    def _prune(self) -> None:
        tot = self.totals
        others = sorted(range(1, len(tot)), key=lambda i: (-tot[i], i))[:self.prune_keep]
        keep = [0] + sorted(others)
        for name in ("cands", "moves", "prior", "totals", "cur", "dsum", "dsq"):
            xs = getattr(self, name)
            setattr(self, name, [xs[i] for i in keep])

    @staticmethod
    def _play_out(h, policy, rng, depth: int = 1 << 30, plans=None, forced=None) -> int:
        """Play the round on from ``h`` by ``policy`` until it ends or
        ``depth`` moves were made; returns the moves made.  ``plans``
        (boards) go to the policy; ``forced(plans, seat, move)`` hears the
        moves made without asking it."""
        steps = 0
        while not h.ended and steps < depth:
            ms = h.moves()
            if len(ms) > 1:
                h.apply(policy(h, ms, rng) if plans is None else policy(h, ms, rng, plans))
            else:
                if forced is not None:
                    forced(plans, h.turn, ms[0])
                h.apply(ms[0])
            steps += 1
        return steps

    def _finish(self) -> dict:
        n = max(self.samples, 1)
        w = self.prior_weight
        best = max(range(len(self.cands)),
                   key=lambda i: (round(self.totals[i] / n, 6) + w * self.prior[i], -i))
        self.values = [t / n for t in self.totals]
        if self.margin_z > 0 and best != 0:
            mean = self.dsum[best] / n
            var = max(self.dsq[best] / n - mean * mean, 0.0)
            se = (var / max(n - 1, 1)) ** 0.5
            if mean <= self.margin_z * se:
                best = 0
        return self.cands[best]

    def run(self) -> dict:
        while self.result is None:
            self.step(1e9)
        return self.result


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

    def _new_sample(self) -> None:
        k = self.k
        hands, bone = sample_deal(k, self.rng)
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


def _board(view: dict):
    """The players of a board other than the line family's (Mexican Train,
    Chicken Foot, Frijolito), or None for the line family."""
    if view.get("shape", "line") == "line":
        return None
    from domino.players import boards
    return boards


def HardSearch(view: dict, rng: random.Random, budget: int | None = None) -> SlicedSearch:
    """The hard player's sliced search for this view's board."""
    t = time.perf_counter()
    b = _board(view)
    if b is not None:
        s = b.BoardSearch(view, rng, budget)
    else:
        s = LineSearch(view, rng, HARD_BUDGET if budget is None else budget)
    s.started = t
    return s


def hard_search(view: dict, rng: random.Random, slice_ms: float = 50.0):
    """Generator form for the browser: yields (None) after each slice of at
    most ~slice_ms of work; its return value (StopIteration.value) is the
    action."""
    s = HardSearch(view, rng)
    while True:
        a = s.step(slice_ms)
        if a is not None:
            return a
        yield None


def hard(view: dict, rng: random.Random) -> dict:
    return HardSearch(view, rng).run()


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
    if (b := _board(view)) is not None:
        return b.hint(view)
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


LEVELS = {"easy": easy, "medium": medium, "hard": hard}
