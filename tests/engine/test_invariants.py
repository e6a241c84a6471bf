"""Invariants after every action of seeded random matches, for every preset.

Each preset gets about ``DOMINO_INVARIANT_MATCHES`` matches (default 200),
split over its player counts (and partnership on/off at 4 where optional)
and cycling through a spread of option combinations (helpers.option_spread);
four matches in five use the preset's lowest target (shorter matches).
Every action is followed by the cheap checks (tile partition, open ends
recomputed from the layout, end-of-hand condition, out-of-turn refusal); one
match in ``VIEW_EVERY`` also checks every seat's view after every action and
the record round trip at every hand's end.  Every hand is replayed on a fresh
core Hand (a draw or pass only when the seat had no play) and every match
goes through export -> JSON -> import -> replay at the end.
"""
from __future__ import annotations

import os
import random
from functools import partial

import pytest

from domino.engine.rules import PRESETS, make_rules
from helpers import all_configs, check_invariants, check_roundtrip, random_match

PER_PRESET = int(os.environ.get("DOMINO_INVARIANT_MATCHES", "200"))
VIEW_EVERY = 8

CONFIGS = all_configs()


def _groups():
    out = {}
    for game, n, opts in CONFIGS:
        key = (game, n, opts.get("partnership"))
        out.setdefault(key, []).append(opts)
    return out


GROUPS = _groups()


def _matches_for(game: str) -> int:
    n_groups = sum(1 for k in GROUPS if k[0] == game)
    if PRESETS[game].shape != "line":   # long rounds: scripts/soak.py plays many more
        return max(3, PER_PRESET // 6 // n_groups)
    return max(4, PER_PRESET // n_groups)


def _every_third_view(m):
    """Full checks with every seat's view after one action in three (the
    other boards' views carry long histories and eight seats)."""
    check_invariants(m, views=m.seq % 3 == 0)


@pytest.mark.parametrize("game,players,partnership", sorted(GROUPS, key=str),
                         ids=lambda v: str(v))
def test_random_matches_keep_invariants(game, players, partnership):
    spread = GROUPS[(game, players, partnership)]
    light = partial(check_invariants, views=False, out_of_turn=PRESETS[game].shape == "line")
    hands = 0
    n = _matches_for(game)
    # each player count starts elsewhere in the spread, so every combination is played
    offset = 0 if PRESETS[game].shape == "line" else players * n
    for i in range(n):
        opts = dict(spread[(i + offset) % len(spread)])
        if i % 5:   # mostly the lowest target / fewest rounds: shorter matches, more of them
            if PRESETS[game].shape in ("trains", "foot"):
                opts.setdefault("start_double", 3)
            else:
                opts.setdefault("target", min(PRESETS[game].choices("target")))
        rules = make_rules(game, players=players, **opts)
        seed = f"inv/{game}/{players}/{partnership}/{i}"
        rng = random.Random(seed)
        # the other boards: match 0 is a whole match, the fully checked one short
        full = i % VIEW_EVERY == (0 if PRESETS[game].shape == "line" else 1)
        check = check_invariants if full else light
        if full and PRESETS[game].shape != "line":
            check = _every_third_view
        try:
            m = random_match(rules, seed, rng, check=check,
                             roundtrip_every_hand=full)
            if not full:
                check_roundtrip(m)
        except AssertionError as exc:
            raise AssertionError(f"{game} players={players} options={opts} seed={seed!r}: {exc}") from exc
        assert m.finished and m.outcome is not None
        hands += len(m.records)
    assert hands > 0


def test_every_preset_is_covered():
    assert {g for g, _, _ in CONFIGS} == set(PRESETS)
    for game, p in PRESETS.items():
        assert {n for g, n, _ in CONFIGS if g == game} == set(p.choices("players"))
