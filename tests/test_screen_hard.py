"""scripts/screen_hard.py (a lever of the hard player against today's hard): its
settings reach the lever's pair only, and a lever that changes nothing breaks even."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import screen_hard  # noqa: E402

from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402
from domino.players import line, search  # noqa: E402


def test_settings_are_parsed_and_a_name_hard_lacks_is_refused():
    assert screen_hard.parse_sets(["RP_NOISE=1.5", "HARD_BUDGET=7000", "CRN=false"]) == {
        "RP_NOISE": 1.5, "HARD_BUDGET": 7000, "CRN": False}
    with pytest.raises(ValueError, match="RP_NOSIE"):
        screen_hard.parse_sets(["RP_NOSIE=1.5"])
    with pytest.raises(ValueError, match="NAME=VALUE"):
        screen_hard.parse_sets(["RP_NOISE"])


def test_the_lever_holds_only_while_its_pair_moves():
    seen = []

    def base(view, rng):
        seen.append((line.RP_NOISE, search.HARD_MIN_SAMPLES))
        if len(seen) == 2:
            raise RuntimeError("a move that fails")
        return view["legal"][0]
    before = (line.RP_NOISE, search.HARD_MIN_SAMPLES)
    lever = screen_hard.Lever({"RP_NOISE": 9.5, "HARD_MIN_SAMPLES": 3}, base)
    view = Match(make_rules("block", players=4, partnership=True), seed=3).view(0)
    assert lever(view, random.Random(0)) == view["legal"][0]
    assert (line.RP_NOISE, search.HARD_MIN_SAMPLES) == before
    with pytest.raises(RuntimeError):
        lever(view, random.Random(0))
    assert seen == [(9.5, 3), (9.5, 3)]
    assert (line.RP_NOISE, search.HARD_MIN_SAMPLES) == before


def test_a_lever_that_changes_nothing_breaks_even(tmp_path, capsys):
    """Both pairs play today's hard: every deal is won once on each side (or tied twice)."""
    out = tmp_path / "r.json"
    assert screen_hard.main(["--deals", "2", "--first", "4", "--jobs", "1", "--json", str(out)]) == 0
    r = json.loads(out.read_text())[0]
    assert [(d, s) for d, s, _ in r["outcomes"]] == [(4, 0), (4, 1), (5, 0), (5, 1)]
    assert r["share"] == 0.5 and r["hands"] == 4
    assert "wins 0.500" in capsys.readouterr().out


def test_a_lever_plays_differently():
    """A lever reaches the search: hard with random playouts (all noise) does not play today's hard's
    moves everywhere on a few deals."""
    rules = make_rules("block", players=4, partnership=True)
    m = Match(rules, seed=11)
    hard, noisy = screen_hard.Lever({}), screen_hard.Lever({"RP_NOISE": 1000.0, "RP_DBL": 0})
    differ = 0
    while m.phase == "play":
        v = m.view(m.turn)
        a1 = hard(v, m.player_rng(m.turn))
        a2 = noisy(v, m.player_rng(m.turn))
        differ += a1 != a2
        m.apply(a1)
    assert differ > 0
