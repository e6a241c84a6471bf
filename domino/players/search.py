"""What every computer player's search shares, whatever the board.

The seat's rules from its view (:func:`rules_of`), a deal of the hidden
tiles consistent with what the seat knows (:func:`sample_deal`), and the
determinized search run in slices (:class:`SlicedSearch`) that the hard
players of every board build on: the line family's
(:mod:`domino.players.line`) and the other boards' (:mod:`domino.players.boards`).
"""
from __future__ import annotations

import json
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



def sample_deal(k, rng: random.Random, attempts: int = 30,
                relax_after: int = 20) -> tuple[list[int], list[int]]:
    """Hidden hands and a boneyard consistent with the seat's knowledge (the
    line family's :class:`Knowledge` or the other boards' ``BoardKnowledge``:
    ``pool``, ``counts``, ``forbid``, ``hand``, ``me``, ``players``).  After
    ``relax_after`` failed tries the numbers a seat passed on are allowed again."""
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
