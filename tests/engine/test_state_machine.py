"""A Hypothesis state machine over Match action sequences.

Profiles: "dev" (default) and "ci" (derandomized, loaded when $CI is set).
"""
from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from domino.engine import tiles
from domino.engine.match import IllegalAction, Match
from domino.engine.records import from_record, to_record
from domino.engine.rules import make_rules
from helpers import (check_end_condition, check_ends, check_history, check_invariants, check_tiles,
                     check_views)

settings.register_profile("dev", max_examples=40, stateful_step_count=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=25, stateful_step_count=60, deadline=None,
                          derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

CONFIGS = [("draw", 2, {}), ("draw", 3, {}), ("draw", 4, {"partnership": True}),
           ("block", 2, {}), ("block", 3, {}), ("block", 4, {"partnership": True}),
           ("block", 4, {}), ("draw", 2, {"keep_last_two": True, "next_opener": "rotate"}),
           ("draw", 3, {"first_opener": "random"}), ("all-fives", 2, {}), ("matador", 3, {}),
           ("latin", 4, {}), ("muggins", 2, {}), ("classic", 4, {})]


class MatchMachine(RuleBasedStateMachine):
    @initialize(cfg=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
    def start(self, cfg, seed):
        game, n, opts = cfg
        self.m = Match(make_rules(game, players=n, **opts), seed=seed)

    def refused(self, action, code):
        m = self.m
        key, seq = m.state_key(), m.seq
        try:
            m.apply(action)
        except IllegalAction as exc:
            assert exc.code == code, (action, exc.code, code, exc.message)
        else:
            raise AssertionError(f"{action} was accepted")
        assert m.state_key() == key and m.seq == seq

    def playing(self):
        return self.m.phase == "play"

    # ----- legal moves
    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def legal(self, data):
        legal = self.m.legal_actions()
        a = data.draw(st.sampled_from(legal))
        done = self.m.apply(a)
        assert done[0]["seat"] == a["seat"]

    @precondition(lambda self: self.m.phase == "hand-over")
    @rule()
    def next_hand(self):
        check_history(self.m)
        n = len(self.m.records)
        self.m.next_hand()
        assert len(self.m.records) == n + 1

    @precondition(lambda self: not self.m.finished)
    @rule(data=st.data())
    def resign(self, data):
        seat = data.draw(st.integers(0, self.m.rules.players - 1))
        r = self.m.rules
        self.m.resign(seat)
        out = self.m.outcome
        assert self.m.finished and out["reason"] == "resign"
        assert out["winner"] != r.side_of(seat)
        if r.n_sides == 2:
            assert out["winner"] == 1 - r.side_of(seat)

    # ----- illegal moves
    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def wrong_seat(self, data):
        m = self.m
        seat = data.draw(st.sampled_from([s for s in range(m.rules.players) if s != m.turn]))
        a = dict(data.draw(st.sampled_from(m.legal_actions())), seat=seat)
        self.refused(a, "out-of-turn")

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def tile_not_held(self, data):
        m = self.m
        h = m.hand
        others = [t for t in range(m.rules.n_tiles) if not (h.hands[h.turn] >> t) & 1]
        t = data.draw(st.sampled_from(others))
        a = {"seat": h.turn, "play": tiles.NAMES[t]}
        if h.center >= 0:
            a["end"] = data.draw(st.sampled_from(["W", "E"]))
        self.refused(a, "not-in-hand")

    @precondition(lambda self: self.playing() and self.m.hand.center >= 0)
    @rule(data=st.data())
    def wrong_end(self, data):
        m = self.m
        h = m.hand
        legal = {(a.get("play"), a.get("end")) for a in m.legal_actions() if "play" in a}
        held = tiles.ids(h.hands[h.turn])
        cands = [(tiles.NAMES[t], e) for t in held for e in "WENS" if (tiles.NAMES[t], e) not in legal]
        if not cands:
            return
        tile, end = data.draw(st.sampled_from(cands))
        self.refused({"seat": h.turn, "play": tile, "end": end}, "no-match")

    @precondition(lambda self: self.playing())
    @rule(kind=st.sampled_from(["pass", "draw"]))
    def pass_or_draw_while_able(self, kind):
        m = self.m
        legal = m.legal_actions()
        if any(kind in a for a in legal):
            return
        if not any("play" in a for a in legal):
            return      # must draw (pass refused for another reason) or must pass
        a = {"seat": m.turn, "pass": True} if kind == "pass" else {"seat": m.turn, "draw": None}
        self.refused(a, f"{kind}-while-able")

    @precondition(lambda self: self.playing())
    @rule(junk=st.sampled_from([{"seat": 0}, {"play": "1-2"}, "x", None, {"seat": "0", "pass": True},
                                {"seat": 9, "pass": True}, {"seat": -1, "pass": True}]))
    def bad_format(self, junk):
        if isinstance(junk, dict) and junk.get("seat") == 0 and "pass" not in junk:
            junk = {"seat": self.m.turn}
        self.refused(junk, "bad-format")

    @precondition(lambda self: not self.playing())
    @rule()
    def nobody_moves_after_the_hand(self):
        m = self.m
        for s in range(m.rules.players):
            self.refused({"seat": s, "pass": True}, "out-of-turn")

    # ----- records
    @rule()
    def record_round_trip(self):
        doc = json.loads(json.dumps(to_record(self.m)))
        again = from_record(doc)
        assert again.state_key() == self.m.state_key()
        assert again.outcome == self.m.outcome

    @invariant()
    def consistent(self):
        m = getattr(self, "m", None)
        if m is None:
            return
        check_tiles(m)
        ends = check_ends(m)
        check_end_condition(m, ends)
        if m.seq % 7 == 0:
            check_views(m)


TestMatchMachine = MatchMachine.TestCase


# ---------------------------------------------------------------- the other boards
BOARD_CONFIGS = [("mexican-train", 3, {"set": 9, "start_double": 3}),
                 ("mexican-train", 4, {"set": 9, "start_double": 3, "double_chains": True}),
                 ("mexican-train", 2, {"set": 9, "start_double": 3, "holder_starts": True,
                                       "boneyard": "none"}),
                 ("mexican-train", 3, {"set": 9, "start_double": 3, "close_doubles": False,
                                       "mexican_train": False}),
                 ("chicken-foot", 3, {"start_double": 3}), ("chicken-foot", 2, {"start_double": 3}),
                 ("frijolito", 2, {"target": 50}), ("frijolito", 3, {"target": 50, "elimination": True}),
                 ("frijolito", 4, {"target": 50, "doubles_anywhere": True, "face_up": True})]


def _end_ids(m: Match) -> list[str]:
    r = m.rules
    if r.shape == "trains":
        return [f"train:{i}" for i in range(r.players)] + ["train:mexican"]
    if r.shape == "foot":
        return [f"foot:{k}" for k in range(max(1, len(m.hand.tiles)))]
    return ["W", "E"]


class BoardMachine(RuleBasedStateMachine):
    """Mexican Train, Chicken Foot and Frijolito through the public API:
    legal actions keep every invariant; refused ones change nothing."""

    @initialize(cfg=st.sampled_from(BOARD_CONFIGS), seed=st.integers(0, 10_000))
    def start(self, cfg, seed):
        game, n, opts = cfg
        self.m = Match(make_rules(game, players=n, **opts), seed=seed)

    def refused(self, action, codes):
        m = self.m
        key, seq = m.state_key(), m.seq
        try:
            m.apply(action)
        except IllegalAction as exc:
            assert exc.code in codes, (action, exc.code, codes, exc.message)
        else:
            raise AssertionError(f"{action} was accepted")
        assert m.state_key() == key and m.seq == seq

    def playing(self):
        return self.m.phase == "play"

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def legal(self, data):
        a = data.draw(st.sampled_from(self.m.legal_actions()))
        done = self.m.apply(a)
        assert done[0]["seat"] == a["seat"]

    @precondition(lambda self: not self.playing() and not self.m.finished)
    @rule()
    def next_round(self):
        check_history(self.m)
        self.m.next_hand()

    @precondition(lambda self: not self.m.finished)
    @rule(data=st.data())
    def resign(self, data):
        seat = data.draw(st.integers(0, self.m.rules.players - 1))
        self.m.resign(seat)
        assert self.m.finished and self.m.outcome["reason"] == "resign"
        assert self.m.outcome["winner"] != seat

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def wrong_seat(self, data):
        m = self.m
        seat = data.draw(st.sampled_from([s for s in range(m.rules.players) if s != m.turn]))
        a = dict(data.draw(st.sampled_from(m.legal_actions())), seat=seat)
        self.refused(a, {"out-of-turn"})

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def tile_not_held(self, data):
        m = self.m
        h = m.hand
        others = [t for t in range(m.rules.n_tiles) if not (h.hands[h.turn] >> t) & 1]
        if not others:
            return
        t = data.draw(st.sampled_from(others))
        a = {"seat": h.turn, "play": tiles.NAMES[t], "end": data.draw(st.sampled_from(_end_ids(m)))}
        self.refused(a, {"not-in-hand"})

    @precondition(lambda self: self.playing())
    @rule(data=st.data())
    def held_tile_elsewhere(self, data):
        """A held tile at an end the legal actions do not list."""
        m = self.m
        h = m.hand
        legal = {(a.get("play"), a.get("end")) for a in m.legal_actions() if "play" in a}
        if any(e is None for _, e in legal):
            return          # the opening tile
        held = tiles.ids(h.hands[h.turn])
        cands = [(tiles.NAMES[t], e) for t in held for e in _end_ids(m) if (tiles.NAMES[t], e) not in legal]
        if not cands:
            return
        tile, end = data.draw(st.sampled_from(cands))
        # Frijolito: a face-down tile has not been turned over (not-in-hand)
        self.refused({"seat": h.turn, "play": tile, "end": end}, {"no-match", "not-in-hand", "bad-format"})

    @precondition(lambda self: self.playing())
    @rule(kind=st.sampled_from(["pass", "draw", "flip", "peek", "reject"]))
    def not_offered(self, kind):
        m = self.m
        legal = m.legal_actions()
        if any(kind in a for a in legal):
            return
        a = {"seat": m.turn, kind: True if kind == "pass" else None}
        self.refused(a, {"pass-while-able", "draw-while-able", "no-match", "bad-format"})

    @precondition(lambda self: self.playing())
    @rule(junk=st.sampled_from([{"seat": 0}, {"play": "1-2"}, "x", None, {"seat": "0", "pass": True},
                                {"seat": 9, "pass": True}, {"seat": 0, "play": "1-2", "end": "train:99"}]))
    def bad_format(self, junk):
        if isinstance(junk, dict) and junk.get("seat") == 0:
            junk = dict(junk, seat=self.m.turn)
            if "play" in junk:
                t = tiles.ids(self.m.hand.hands[self.m.turn])
                if not t or "end" not in junk:
                    return
                junk["play"] = tiles.NAMES[t[0]]
        self.refused(junk, {"bad-format", "not-in-hand"})

    @rule()
    def record_round_trip(self):
        doc = json.loads(json.dumps(to_record(self.m)))
        again = from_record(doc)
        assert again.state_key() == self.m.state_key()
        assert again.outcome == self.m.outcome

    @invariant()
    def consistent(self):
        m = getattr(self, "m", None)
        if m is None:
            return
        check_invariants(m, views=m.seq % 5 == 0, out_of_turn=False)


TestBoardMachine = BoardMachine.TestCase
