"""What every computer player's search shares, whatever the board.

The seat's rules from its view (:func:`rules_of`), a deal of the hidden
tiles consistent with what the seat knows (:func:`sample_deal`), and the
determinized search run in slices (:class:`SlicedSearch`) that the hard
players of every board build on: the line family's
(:mod:`domino.players.line`) and the other boards' (:mod:`domino.players.boards`).
"""
from __future__ import annotations

import bisect
import json
import math
import random
import time

from domino.engine import tiles
from domino.engine.rules import rules_from_options

LOW, HIGH = tiles.LOW, tiles.HIGH


def popcount(x: int) -> int:
    return bin(x).count("1")



_RULES_CACHE: dict = {}


def rules_of(view: dict):
    key = (view["game"], json.dumps(view["options"], sort_keys=True))
    r = _RULES_CACHE.get(key)
    if r is None:
        r = _RULES_CACHE[key] = rules_from_options(view["game"], view["options"])
    return r



class DealCounter:
    """Every deal of the hidden tiles consistent with a seat's knowledge, counted, and one drawn uniformly.

    A consistent deal gives each other seat ``s`` exactly ``counts[s]`` tiles of the ``pool``, none it is
    known to lack (``forbid[s]``), and the rest to the boneyard.  The pool's tiles fall into kinds by the
    seats that may hold them; the number of deals is a sum over how many tiles of each kind each seat
    gets of products of multinomials, worked out kind by kind over the seats' remaining needs (memoized;
    the last kind takes what is still needed).  Drawing walks the kinds again, each split chosen with its
    exact share of the deals, then the kind's tiles shuffled into that split: every consistent deal is
    equally likely.  (A greedy deal, seat after seat, is not: the first seat's tiles are uniform over what
    it may hold, whatever the others then can hold.)  ``total`` is 0 when no deal fits the knowledge.

    The splits to try grow fast with the seats (eight at a Mexican Train): :func:`uniform_deal` counts
    for at most :data:`DEAL_SEATS_MAX` other seats and :data:`DEAL_WORK_MAX` splits (:meth:`work`), and
    deals greedily beyond."""

    def __init__(self, pool: int, counts, forbid, me: int, players: int):
        self.others = [s for s in range(players) if s != me]
        self.players, self.me = players, me
        self.n_pool = popcount(pool)
        kinds: dict[int, list[int]] = {}
        for t in tiles.ids(pool):
            allowed = 0
            for j, s in enumerate(self.others):
                if not (forbid[s] >> t) & 1:
                    allowed |= 1 << j
            kinds.setdefault(allowed, []).append(t)
        # the kinds most seats may hold last: fewer states reach them
        self.kinds = sorted(kinds.items(), key=lambda kv: (popcount(kv[0]), kv[0]))
        self.need = tuple(counts[s] for s in self.others)
        self.splits: dict[tuple, tuple[list, list]] = {}
        self.total: int | None = None

    def work(self) -> int:
        """A bound on the splits counting tries: for each kind but the last, the ways its tiles may go
        to the seats that may hold them, times the states (the seats' remaining needs) it may meet."""
        states = 1
        for v in self.need:
            states *= v + 1
        out = 0
        for allowed, ts in self.kinds[:-1]:
            k, n = popcount(allowed), len(ts)
            out += min(states, 1 << 40) * math.comb(n + k, k)
        return out

    def count(self) -> int:
        """The number of consistent deals (kept in ``total``)."""
        if self.total is None:
            if not self.kinds:
                self.total = 0 if any(self.need) else 1
            else:
                self.total = self._ways(0, self.need) if sum(self.need) <= self.n_pool else 0
        return self.total

    def _ways(self, i: int, state: tuple) -> int:
        """The deals of kinds ``i``.. that give each other seat exactly ``state`` more tiles."""
        allowed, ts = self.kinds[i]
        n = len(ts)
        if i == len(self.kinds) - 1:       # the last kind: the seats take what they still need
            if sum(state) > n or any(v and not (allowed >> j) & 1 for j, v in enumerate(state)):
                return 0
            return _multinomial(n, state)
        key = (i, state)
        got = self.splits.get(key)
        if got is not None:
            return got[1][-1] if got[1] else 0
        options: list = []
        cum: list = []
        acc = 0
        for x in self._splits(allowed, state, n):
            rest = tuple(a - b for a, b in zip(state, x))
            w = self._ways(i + 1, rest)
            if w:
                acc += w * _multinomial(n, x)
                options.append(x)
                cum.append(acc)
        self.splits[key] = (options, cum)
        return acc

    def _splits(self, allowed: int, state: tuple, n: int):
        """How a kind's ``n`` tiles may go to the other seats (the rest to the boneyard)."""
        out = [()]
        for j, room in enumerate(state):
            top = min(room, n) if (allowed >> j) & 1 else 0
            out = [x + (v,) for x in out for v in range(top + 1) if sum(x) + v <= n]
        return out

    def draw(self, rng: random.Random, hand: int) -> tuple[list[int], list[int]]:
        """One consistent deal (after :meth:`count` found some), uniformly: the seats' hands (``hand`` at
        the seat's own) and the boneyard in a random order."""
        hands = [0] * self.players
        hands[self.me] = hand
        bone: list[int] = []
        state = self.need
        last = len(self.kinds) - 1
        for i, (_allowed, ts) in enumerate(self.kinds):
            if i == last:
                x = state
            else:
                options, cum = self.splits[(i, state)]
                x = options[bisect.bisect_right(cum, rng.randrange(cum[-1]))]
            order = ts[:]
            rng.shuffle(order)
            at = 0
            for j, v in enumerate(x):
                for t in order[at:at + v]:
                    hands[self.others[j]] |= 1 << t
                at += v
            bone.extend(order[at:])
            state = tuple(a - b for a, b in zip(state, x))
        rng.shuffle(bone)
        return hands, bone


def _multinomial(n: int, parts: tuple) -> int:
    """The ways to give ``parts[j]`` of ``n`` distinct tiles to each of them, the rest to one more."""
    out = 1
    left = n
    for v in parts:
        out *= _comb(left, v)
        left -= v
    return out


_COMB: dict = {}


def _comb(n: int, r: int) -> int:
    key = (n, r)
    v = _COMB.get(key)
    if v is None:
        v = _COMB[key] = math.comb(n, r)
    return v


_COUNTERS: dict = {}
_COUNTERS_MAX = 64
DEAL_SEATS_MAX = 3          # more other seats than this, or
DEAL_WORK_MAX = 200_000     # more splits to try than this (DealCounter.work): deals are greedy


def deal_counter(k) -> DealCounter | None:
    """The :class:`DealCounter` of the seat's knowledge, counted, or None when counting would cost too
    much (the last few are kept: one decision draws many deals from the same knowledge)."""
    key = (k.pool, tuple(k.counts), tuple(k.forbid), k.me, k.players)
    if key in _COUNTERS:
        return _COUNTERS[key]
    c: DealCounter | None = DealCounter(*key)
    if len(c.others) > DEAL_SEATS_MAX or c.work() > DEAL_WORK_MAX:
        c = None
    else:
        c.count()
    if len(_COUNTERS) >= _COUNTERS_MAX:
        _COUNTERS.clear()
    _COUNTERS[key] = c
    return c


def uniform_deal(k, rng: random.Random) -> tuple[list[int], list[int]]:
    """Hidden hands and a boneyard consistent with the seat's knowledge (as :func:`sample_deal`), every
    consistent deal equally likely (:class:`DealCounter`); where counting would cost too much, dealt
    seat after seat (:func:`sample_deal`).  Should no deal fit (knowledge that is wrong), the numbers the
    seats passed on are allowed again.  Not the hard players' sampler: measured against it in
    ``scripts/duel_pa.py --sampler uniform`` (issue 43), it did not win more (README)."""
    c = deal_counter(k)
    if c is None:
        return sample_deal(k, rng)
    if not c.total:
        return sample_deal(k, rng, relax_after=0)
    return c.draw(rng, k.hand)


def sample_deal(k, rng: random.Random, attempts: int = 30,
                relax_after: int = 20) -> tuple[list[int], list[int]]:
    """Hidden hands and a boneyard consistent with the seat's knowledge (the line family's
    :class:`Knowledge` or the other boards' ``BoardKnowledge``: ``pool``, ``counts``, ``forbid``,
    ``hand``, ``me``, ``players``), dealt seat after seat: the seat with the least room first, each
    taking the first tiles it may hold of a shuffled pool (tried again on a dead end).  After
    ``relax_after`` failed tries the numbers a seat passed on are allowed again.  Cheap, and not uniform
    over the consistent deals (:func:`uniform_deal` is)."""
    pool = tiles.ids(k.pool)
    others = [s for s in range(k.players) if s != k.me]
    order = sorted(others, key=lambda s: (popcount(k.pool & ~k.forbid[s]) - k.counts[s], s))
    for attempt in range(attempts):
        undealt = pool[:]
        rng.shuffle(undealt)
        hands = [0] * k.players
        ok = True
        relax = attempt >= relax_after
        for s in order:
            need = k.counts[s]
            forb = 0 if relax else k.forbid[s]
            take = 0
            rest = []
            got = 0
            for t in undealt:
                if got < need and not (forb >> t) & 1:
                    take |= 1 << t
                    got += 1
                else:
                    rest.append(t)
            if got < need:
                ok = False
                break
            hands[s] = take
            undealt = rest
        if ok:
            hands[k.me] = k.hand
            return hands, undealt
    raise AssertionError("unreachable: relaxed sampling always succeeds")


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



# simulated moves per decision: a fixed budget (not time), so results are
# reproducible; calibrated to ~40-80 ms median per decision in CPython
HARD_BUDGET = 14000
HARD_MIN_SAMPLES = 6
HARD_MAX_SAMPLES = 400
HARD_MAX_CANDIDATES = 7


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
