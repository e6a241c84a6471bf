"""Computer players: three levels, each ``choose(view, rng) -> action``.

A player sees only the seat view (``Match.view(seat)``) and its own
generator; it returns one of ``view["legal"]``.  Nothing here reads the
match, the seed or the boneyard order, so two states that look the same
from the seat always get the same move for the same generator.

Each level is the board's own player: the line family's
(:mod:`domino.players.line`: easy, medium's club heuristics, hard's
determinized search) or the other boards' (:mod:`domino.players.boards`:
Mexican Train, Chicken Foot, Frijolito), both built on
:mod:`domino.players.search`.  ``hint(view)`` runs the hard player for the
seat to move and says why.
"""
from __future__ import annotations

import random
import time

from domino.players import boards, line
from domino.players.search import SlicedSearch


def _players(view: dict):
    """The module that plays this view's board."""
    return line if view.get("shape", "line") == "line" else boards


def easy(view: dict, rng: random.Random) -> dict:
    return _players(view).easy(view, rng)


def medium(view: dict, rng: random.Random) -> dict:
    if len(view["legal"]) == 1:
        return view["legal"][0]
    return _players(view).medium(view, rng)


def HardSearch(view: dict, rng: random.Random, budget: int | None = None) -> SlicedSearch:
    """The hard player's sliced search for this view's board."""
    t = time.perf_counter()
    if _players(view) is boards:
        s = boards.BoardSearch(view, rng, budget)
    else:
        s = line.line_search(view, rng, budget)
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


def hint(view: dict) -> dict:
    """The hard player's move for the seat to move, with one line of why."""
    return _players(view).hint(view)


LEVELS = {"easy": easy, "medium": medium, "hard": hard}
