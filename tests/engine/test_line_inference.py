"""What the hard player infers from passes, in the line games: what a seat believes another lacks,
that one really lacks (it never sees a hidden tile to learn it), and no sampled deal gives a seat a
number it passed on."""
from __future__ import annotations

import random

from domino.engine.match import Match
from domino.engine.rules import make_rules
from domino.players import line
from domino.players.search import sample_deal


def test_samples_never_hold_a_number_their_seat_passed_on():
    rules = make_rules("block", players=4, partnership=True)
    passes = 0
    for i in range(30):
        m = Match(rules, seed=f"passes/{i}")
        rng = random.Random(i)
        while m.phase == "play":
            view = m.view(m.turn)
            k = line.knowledge(view)
            for s in range(4):
                # what the seat believes another lacks, that one really lacks
                assert not k.forbid[s] & m.hand.hands[s]
            if any(k.forbid):
                passes += 1
                for j in range(5):
                    hands, _ = sample_deal(k, random.Random(j))
                    for s in range(4):
                        assert not hands[s] & k.forbid[s], (s, view["history"])
            m.apply(rng.choice(view["legal"]))
    assert passes > 50


