"""The sweep of every screen (tests/screen_sweep.py), in CPython: whole
seeded matches of every game, every player count and partnership setting,
played by computer seats to their end, with every screen a player can reach
drawn for every seat in both languages and every tree checked.  A screen
that raises, or a tree that breaks a check, fails here with its game, seed,
seat, language and screen.  The long version: ``scripts/sweep_screens.py``."""
from __future__ import annotations

import pytest

from domino.engine.rules import PRESETS
from tests.screen_sweep import LANGS, sweep_match, tree_problems


def configs() -> list[tuple[str, int, dict]]:
    """Every game x player count (x partners or not, where a game lets you
    choose), with its shortest match: the lowest target, rounds from 3-3."""
    out = []
    for game, p in PRESETS.items():
        short: dict = {}
        if "target" not in p.locked:
            short["target"] = min(p.choices("target"))
        if p.shape in ("trains", "foot"):
            short["start_double"] = 3
        for n in p.choices("players"):
            parts = [None]
            if n == 4 and "partnership" not in p.locked:
                parts = [False, True]
            for part in parts:
                opts = dict(short)
                if part is not None:
                    opts["partnership"] = part
                out.append((game, n, opts))
    return out


CONFIGS = configs()
IDS = [f"{g}-{n}" + ("" if "partnership" not in o else "-partners" if o["partnership"] else "-solo")
       for g, n, o in CONFIGS]
SEEDS_PER_CONFIG = 4     # the many-matches sweep: 4 x 45 configs = 180 matches (more: scripts/sweep_screens.py)


def _fail(sw) -> str:
    return f"{len(sw.problems)} problems in {sw.screens} screens, first:\n  " + "\n  ".join(sw.problems[:8])


def test_every_game_and_seat_setting_is_swept():
    games = {g for g, _, _ in CONFIGS}
    assert games == set(PRESETS)
    assert ("latin", 4) in {(g, n) for g, n, _ in CONFIGS}
    assert any(o.get("partnership") for _, _, o in CONFIGS) and len(CONFIGS) >= 40


@pytest.mark.parametrize("game,n,opts", CONFIGS, ids=IDS)
def test_every_screen_after_every_action(game, n, opts):
    sw = sweep_match(game, n, opts, seed=1, kind="medium")
    assert sw.hands >= 1 and sw.screens > sw.actions // 2
    assert not sw.problems, _fail(sw)


@pytest.mark.parametrize("game,n,opts", CONFIGS, ids=IDS)
def test_result_screens_of_many_matches(game, n, opts):
    total = None
    for k in range(SEEDS_PER_CONFIG):
        sw = sweep_match(game, n, opts, seed=100 + k, kind=("easy", "medium")[k % 2], every_action=False)
        if total is None:
            total = sw
        else:
            total.add(sw)
    assert total.matches == SEEDS_PER_CONFIG and total.screens >= total.hands
    assert not total.problems, _fail(total)


def test_the_checks_see_what_they_are_for():
    good = ("div", {"id": "a"}, [("button", {"aria-labelledby": "a"}, ["Jugar"])])
    assert tree_problems(good, "es") == []
    bad = ("div", {"id": "a"}, [("p", {"id": "a"}, ["result.winner"]), ("button", {}, []),
                                ("span", {"aria-label": "{name} gana"}, []),
                                ("button", {"data-action": "no-such-thing", "aria-describedby": "x"}, ["ok"]),
                                ("p", {}, ["None"])])
    found = "\n".join(tree_problems(bad, "en"))
    for part in ("id 'a' used 2", "'result.winner'", "button with no name", "'{name} gana'",
                 "'no-such-thing' has no handler", "'x' names no id", "'None'"):
        assert part in found, part
    assert set(LANGS) == {"en", "es"}
