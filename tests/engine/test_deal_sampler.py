"""Deals of the hidden tiles drawn uniformly (domino.players.search.DealCounter, uniform_deal; measured
against the hard players' greedy sample_deal by scripts/duel_pa.py --sampler uniform): the number of
deals consistent with what a seat knows, checked against plain enumeration, and each consistent deal
drawn equally often (the greedy deal is not: it fails the second test by far)."""
from __future__ import annotations

import itertools
import random
from collections import Counter
from types import SimpleNamespace

from domino.players.search import DealCounter, uniform_deal


def brute(pool: list[int], counts, forbid, me: int, players: int) -> list[tuple]:
    """Every consistent deal, as each other seat's tile mask, by trying every tile's place."""
    others = [s for s in range(players) if s != me]
    out = []
    for places in itertools.product(range(len(others) + 1), repeat=len(pool)):   # the last place: boneyard
        hands = [0] * len(others)
        ok = True
        for t, p in zip(pool, places):
            if p < len(others):
                if (forbid[others[p]] >> t) & 1:
                    ok = False
                    break
                hands[p] |= 1 << t
        if ok and all(bin(hands[j]).count("1") == counts[s] for j, s in enumerate(others)):
            out.append(tuple(hands))
    return out


def knowledge(rng: random.Random, players: int, n_pool: int):
    pool = rng.sample(range(28), n_pool)
    me = rng.randrange(players)
    counts = [0] * players
    left = n_pool
    for s in range(players):
        if s != me:
            counts[s] = rng.randint(0, min(3, left))
            left -= counts[s]
    forbid = [0] * players
    for s in range(players):
        if s != me:
            for t in pool:
                if rng.random() < 0.2:
                    forbid[s] |= 1 << t
    return pool, counts, forbid, me


def test_the_deals_counted_are_the_deals_there_are():
    rng = random.Random(5)
    seen_zero = seen_many = 0
    for case in range(60):
        players = rng.choice([2, 3, 4])
        pool, counts, forbid, me = knowledge(rng, players, rng.randint(3, 8 if players == 4 else 9))
        mask = sum(1 << t for t in pool)
        want = len(brute(pool, counts, forbid, me, players))
        assert DealCounter(mask, counts, forbid, me, players).count() == want, (case, pool, counts, forbid)
        seen_zero += want == 0
        seen_many += want > 10
    assert seen_zero and seen_many > 10      # the cases include impossible knowledge and rich ones


def test_every_consistent_deal_is_drawn_equally_often():
    # seat 1 may hold anything; seat 2 lacks 0-0..0-2 (tiles 0-2), seat 3 lacks tiles 0-4: the seats that
    # may hold the low tiles are few, and a greedy deal (seat 3 first, then 2, then 1) gives them to seat 1
    # far too rarely
    pool = list(range(9))
    counts = [0, 2, 2, 2]
    forbid = [0, 0, 0b111, 0b11111]
    deals = brute(pool, counts, forbid, 0, 4)
    assert len(deals) > 100
    k = SimpleNamespace(pool=sum(1 << t for t in pool), counts=counts, forbid=forbid, me=0, players=4,
                        hand=1 << 27)
    rng = random.Random(11)
    n = 200 * len(deals)
    got = Counter()
    for _ in range(n):
        hands, bone = uniform_deal(k, rng)
        assert hands[0] == 1 << 27 and sorted(bone + [t for s in (1, 2, 3) for t in range(28)
                                                       if (hands[s] >> t) & 1]) == pool
        got[(hands[1], hands[2], hands[3])] += 1
    assert set(got) == set(deals)
    chi2 = sum((got[d] - 200) ** 2 / 200 for d in deals)
    dof = len(deals) - 1
    assert chi2 < dof + 4 * (2 * dof) ** 0.5, (chi2, dof)     # ~4 standard deviations of chi-square
    # the low tiles: seat 1 holds 0-0 in the share of deals where it does, not less
    share = sum(1 for d in deals if d[0] & 1) / len(deals)
    drawn = sum(c for d, c in got.items() if d[0] & 1) / n
    assert abs(drawn - share) < 0.02


def test_knowledge_no_deal_fits_is_relaxed():
    # seat 1 must hold 2 tiles and lacks every one: the passes are forgotten, the counts kept
    k = SimpleNamespace(pool=0b1111, counts=[0, 2, 1], forbid=[0, 0b1111, 0], me=0, players=3, hand=1 << 20)
    hands, bone = uniform_deal(k, random.Random(1))
    assert bin(hands[1]).count("1") == 2 and bin(hands[2]).count("1") == 1 and len(bone) == 1
