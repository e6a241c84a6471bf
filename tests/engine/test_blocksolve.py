"""The exact solver of the draw-less line games (domino.players.blocksolve)
against a plain minimax over the engine's own Hand: the same winner from
every position, in partnership at four and at two seats, so the solver's
moves, passes, blocked hands and winners are the engine's."""
from __future__ import annotations

import random

import pytest

from domino.engine import tiles
from domino.engine.line import W, E, Hand
from domino.engine.match import Match
from domino.engine.rules import make_rules
from domino.players.blocksolve import BlockSolver, supports


def _minimax(h: Hand, side: int) -> int:
    """The value for ``side`` of the engine's hand, every seat playing its best
    (its own side maximizing, the others minimizing), no pruning."""
    if h.ended:
        res = h.settle()
        won = res["winners"]
        if len(won) != 1:
            return 0
        return 1 if won[0] == side else -1
    ms = h.moves()
    vals = []
    for m in ms:
        c = h.clone()
        c.apply(m)
        vals.append(_minimax(c, side))
    return max(vals) if h.r.side_of(h.turn) == side else min(vals)


def _positions(rules, deals: int, left: int, seed: str):
    """Positions (a started hand, any seat to move) with at most ``left`` tiles in hand."""
    rng = random.Random(seed)
    for i in range(deals):
        m = Match(rules, seed=f"{seed}/{i}")
        rec = m.records[0]
        h = Hand(rules, [tiles.mask_of(x) for x in rec["deal"]], [], rec["opener"], None)
        while not h.ended:
            if h.center >= 0 and sum(x.bit_count() for x in h.hands) <= left:
                yield h.clone()
            ms = h.moves()
            h.apply(rng.choice(ms))


@pytest.mark.parametrize("players,partnership,left", [(4, True, 11), (2, False, 9)])
def test_the_solver_gives_the_engines_winner_from_every_position(players, partnership, left):
    rules = make_rules("block", players=players, partnership=partnership)
    assert supports(rules)
    seen = {-1: 0, 0: 0, 1: 0}
    n = 0
    for h in _positions(rules, 25, left, f"solve/{players}"):
        for me in range(players):
            side = rules.side_of(me)
            s = BlockSolver(rules, me)
            v = s.value(list(h.hands), h.end_val[W], h.end_val[E], h.turn)
            assert v == _minimax(h, side), (h.hands, h.end_val, h.turn, me)
            seen[v] += 1
            n += 1
            # and every position a move leads to, valued with the same table
            for m in h.moves():
                c = h.clone()
                c.apply(m)
                if not c.ended:
                    assert s.value(list(c.hands), c.end_val[W], c.end_val[E], c.turn) == _minimax(c, side)
    assert n > 100
    assert seen[1] > 10 and seen[-1] > 10     # both outcomes were searched


def test_the_solver_is_for_the_games_without_draws_fives_or_matadors():
    assert supports(make_rules("block", players=4, partnership=True))
    assert supports(make_rules("latin", players=4))
    assert supports(make_rules("draw", players=2), drawable=0)      # its boneyard spent
    assert not supports(make_rules("draw", players=2), drawable=3)
    for game in ("all-fives", "matador", "muggins"):
        assert not supports(make_rules(game, players=2))
