"""Positions of Mexican Train for the tests of crowded boards (tests/test_boards.py and
tests/browser/test_place_chooser.py): an eight-seat match, seat 0 a person and the others
the easy computer, played until seat 0 holds a tile whose places side by side on a board of
``width`` x ``height`` are too thin to tap apart (the board draws them as one ``data-ends`` area)."""
from __future__ import annotations

from domino import players
from domino.app.controller import Controller
from domino.app.nodes import walk
from domino.app.screens.display import Display
from domino.app.screens.table import draw_board
from domino.engine.match import Match
from domino.engine.rules import make_rules

NAMES = ["Ana", "Luis", "Eva", "Pau", "Rosa", "Juan", "Lola", "Teo"]


def crowded_places(width: float, height: float, seeds=range(12)):
    """(match, controller with the tile selected, the board, the group node): the first such position."""
    for seed in seeds:
        m = Match(make_rules("mexican-train", players=8, start_double=3), seed=seed,
                  seats=[{"name": NAMES[i], "kind": "human" if i == 0 else "easy"} for i in range(8)])
        c = Controller(m, "en", viewer=0)
        for _ in range(2000):
            if m.finished:
                break
            if m.phase != "play":
                m.next_hand()
                continue
            if m.turn != 0:
                players.play_turn(m, "easy")
                continue
            for tile in sorted(c.playable()):
                c.clear()
                if c.tap_tile(tile) is not None:
                    break
                board = draw_board(c, Display("en"), width, height)
                for n in walk(board):
                    if "data-ends" in n[1]:
                        return m, c, board, n
            c.clear()
            if m.phase == "play" and m.turn == 0:
                players.play_turn(m, "easy")
    raise AssertionError(f"no crowded places on a {width}x{height} board")
