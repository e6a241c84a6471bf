"""The app's screens and decisions, in plain Python (no js: tested in CPython).

``domino/browser.py`` owns the browser: it turns the trees built here into
DOM, binds one delegated handler, keeps the save and runs the computer seats.
Everything it decides goes through :class:`Controller` and the seat views and
actions of :class:`domino.engine.match.Match`: there is no copy of the rules
here.

Modules: ``nodes`` (screen trees), ``settings`` (new-game choices),
``controller`` (the table's state and turn logic), ``screens/`` (one module
per screen family), ``render`` (the board as pure SVG trees), ``i18n``,
``helptext``, ``saves``.  This package re-exports what the browser module
and the tests use, so ``app.game_screen(c)`` reads as one API.
"""
from __future__ import annotations

from domino.app.controller import (DEFAULT_PACE, PACES, Controller, board_story, describe, describe_segment,
                                   ends_of, face_up_seat, fives_gained, hand_log, humans, is_computer_turn,
                                   live_scores, load_ai, needs_handoff, pace_ms, play_points, same_result,
                                   seat_order, seat_points, seat_views, side_name, tile_actions, travel_ms)
from domino.app.nodes import Node, find, h, text_of, walk
from domino.app.screens.dialogs import help_dialog, resign_dialog
from domino.app.screens.lobby import loading_screen, new_game_screen, toolbar
from domino.app.screens.results import hand_result, hand_summary, match_result
from domino.app.screens.table import board_tree, game_screen, handoff_screen, scores_bar
from domino.app.settings import (default_target, games, kind_label, option_label, option_value_label,
                                 rules_error_text)
from domino.engine.rules import RulesError
