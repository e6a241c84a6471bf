"""The host's Seats actions at every phase of a hand, in any order, for 2, 3 and 4 players and with
partners (issue 39): a stateful test over the sessions' real inputs (tests/friends_table.py).

Whatever happens (moves, Next taps, a seat handed to the computer or given back, a friend's phone that
goes away, says goodbye, comes back or says hello again, time passing), after each step:

* the table never waits for someone who is not there: between two hands, whoever is still missing is the
  host or a friend whose phone is connected and whose seat the computer does not play, and somebody is
  missing (else the hand would have been dealt);
* a seat the host handed to the computer stays with it until the host gives it back;
* every friend's phone shows the host's truth: the same position, and whether the computer plays its seat;
* during a hand, the seat to move is played by somebody who can (the host's page runs the computer's
  seats; the host, or the connected friend, has a legal move to tap);
* and the table always goes on: when everyone who must tap Next taps, the next hand is dealt.
"""
from __future__ import annotations

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from domino.app import controller
from domino.engine.match import HUMAN
from domino.table import REMOTE
from tests.friends_table import Table


def must_tap(h) -> list[int]:
    """Who must tap Next, worked out here from the host's table (not from the code under test): the host,
    and every friend whose phone is connected and whose seat the computer does not play."""
    return [i for i in range(h.players)
            if h.kind(i) == HUMAN or (h.kind(i) == REMOTE and i in h.bound and i not in h.stand_ins)]


class SeatsAtTheTable(RuleBasedStateMachine):
    t: Table

    @initialize(shape=st.sampled_from([(2, False), (3, False), (4, False), (4, True)]),
                seed=st.sampled_from(["987654321", "8", "4242"]))
    def sit_down(self, shape, seed):
        players, partnership = shape
        self.t = Table(players, seed=seed, partnership=partnership)
        self.handed: set[int] = set()
        self.away: set[str] = set()

    # ------------------------------------------------------------ what can be true
    @property
    def live(self) -> bool:
        m = self.t.match
        return not m.finished

    def friend(self, data, pool) -> str:
        return data.draw(st.sampled_from(sorted(pool)))

    def connected(self) -> set[str]:
        return {n for s, n in self.t.names.items() if self.t.device(s) is not None}

    # ------------------------------------------------------------ the inputs
    @precondition(lambda self: self.live and self.t.match.phase == "play")
    @rule(moves=st.integers(1, 12))
    def play(self, moves):
        for _ in range(moves):
            if not self.t.move():
                break

    @precondition(lambda self: self.live and self.t.match.phase == "play")
    @rule()
    def play_to_the_hands_end(self):
        self.t.to_hand_end()

    @precondition(lambda self: self.live and self.t.match.phase == "hand-over")
    @rule(data=st.data())
    def someone_taps_next(self, data):
        people = ["host"] + sorted(self.connected())
        self.t.next_tap(data.draw(st.sampled_from(people)))

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def host_hands_a_seat_to_the_computer(self, data):
        seat = data.draw(st.sampled_from(sorted(self.t.names)))
        self.t.tap("host", action="hand-to-computer", seat=str(seat))
        self.handed.add(seat)

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def host_gives_a_seat_back(self, data):
        seat = data.draw(st.sampled_from(sorted(self.t.names)))
        self.t.tap("host", action="give-back", seat=str(seat))
        if self.t.device(seat) is not None:
            self.handed.discard(seat)

    @precondition(lambda self: self.live and len(self.t.names) > len(self_away(self)))
    @rule(data=st.data(), how=st.sampled_from(["drop", "bye"]))
    def a_phone_goes(self, data, how):
        name = self.friend(data, self.connected())
        getattr(self.t, how)(name)

    @precondition(lambda self: self.live and self_away(self))
    @rule(data=st.data())
    def a_phone_comes_back(self, data):
        self.t.back(self.friend(data, self_away(self)))

    @precondition(lambda self: self.live and self.connected())
    @rule(data=st.data())
    def a_phone_says_hello_again(self, data):
        self.t.hello_again(self.friend(data, self.connected()))

    @precondition(lambda self: self.live)
    @rule(seconds=st.sampled_from([1, 5, 31, 61]))
    def time_passes(self, seconds):
        self.t.tick(seconds)

    @precondition(lambda self: not self.live)
    @rule()
    def a_new_match_with_the_same_friends(self):
        """After the match: back to the lobby (nobody handed, nobody ready), every friend's phone there
        again and in its seat, and the host starts the next match; the machine goes on with it."""
        t = self.t
        t.tap("host", action="new-match", seq=str(t.match.seq))
        assert t.host.ctrl is None and not t.hosting.table.handed, "the lobby keeps no hand-over"
        for name in sorted(self_away(self)):
            t.back(name)                                   # opens the seat's new invitation: ready at once
        for seat, name in sorted(t.names.items()):
            if seat not in t.hosting.table.ready:          # Start toggles: only who is not ready taps it
                t.tap(name, action="join-table", value="")
        t.start()
        assert t.match.hand_no == 0 and not t.match.finished
        self.handed.clear()

    # ------------------------------------------------------------ what must hold
    @invariant()
    def nobody_who_is_not_there_is_waited_for(self):
        t = self.t
        if not self.live or t.match.phase != "hand-over" or t.match.outcome:
            return
        h = t.hosting.table
        missing = t.hosting.waiting_for()
        assert missing, "nobody is missing, yet the hand is not dealt"
        allowed = {t.match.seats[i]["name"] for i in must_tap(h)}
        assert set(missing) <= allowed
        for i in range(h.players):
            if h.kind(i) == REMOTE and (i not in h.bound or i in h.stand_ins):
                assert t.match.seats[i]["name"] not in missing, f"waits for seat {i}, who is not there"

    @invariant()
    def during_a_hand_somebody_can_move(self):
        """The seat to move is played by somebody who can: the computer's seat by the host's page (it
        runs the computers), the host's own by a legal move on its table, a connected friend's (not
        handed to the computer) by a legal move on the friend's phone at the host's position."""
        t = self.t
        m = t.match
        if not self.live or m.phase != "play" or m.outcome:
            return
        seat, kind = m.turn, m.seats[m.turn]["kind"]
        if controller.is_computer_turn(m):
            assert t.host.wants_computers(), f"seat {seat} is the computer's, and the host's page does not run it"
        elif kind == HUMAN:
            assert t.host.ctrl.my_turn() and t.host.ctrl.legal(), "the host's turn, and nothing to tap"
        elif kind == REMOTE and t.device(seat) is not None and seat not in t.hosting.table.stand_ins:
            c = t.device(seat).ctrl
            assert c is not None and c.match.seq == m.seq, f"seat {seat}'s phone is not at the host's position"
            assert c.my_turn() and c.legal(), f"seat {seat}'s turn, and its phone offers nothing to tap"

    @invariant()
    def a_handed_seat_stays_handed(self):
        if not self.live:
            return
        h = self.t.hosting.table
        for seat in self.handed:
            assert seat in h.stand_ins and seat in h.handed, f"seat {seat} left the computer by itself"

    @invariant()
    def every_phone_shows_the_hosts_truth(self):
        t = self.t
        h = t.hosting.table
        for seat in t.names:
            d = t.device(seat)
            if d is None or d.ctrl is None or t.match.finished:
                continue
            assert d.ctrl.match.seq == t.match.seq, f"seat {seat}'s phone is on another position"
            assert d.link.table.stood_in == (seat in h.stand_ins), f"seat {seat}'s phone says otherwise"

    def teardown(self):
        """The table goes on: everyone who must tap Next taps it, and the next hand is dealt."""
        t = getattr(self, "t", None)
        if t is None or not self.live:
            return
        if t.match.phase == "play":
            t.to_hand_end()
        if t.match.finished or t.match.phase != "hand-over":
            return
        hand = t.match.hand_no
        h = t.hosting.table
        for i in must_tap(h):
            t.next_tap("host" if i not in t.names else t.names[i])
        assert t.match.finished or t.match.hand_no == hand + 1, "everyone tapped Next, no hand was dealt"


def self_away(machine: SeatsAtTheTable) -> set[str]:
    """The friends whose phone is not at the table."""
    return set(machine.t.names.values()) - machine.connected()


SeatsAtTheTable.TestCase.settings = settings(
    max_examples=30, stateful_step_count=30, derandomize=True, deadline=None,
    suppress_health_check=list(HealthCheck))
test_seats_actions_at_every_phase = SeatsAtTheTable.TestCase
