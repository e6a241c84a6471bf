"""The friends' table never waits for someone who is not there (issue 39): a seat the computer plays
and a phone that went away are never waited for at a hand's end, whenever that happens; a Next tap
counts for its own hand only; friends who left are treated in the order they left; and a seat the
host handed to the computer stays with it until the host gives it back.  Everything goes through the
sessions' real inputs (taps, the friends' phones and their messages): tests/friends_table.py."""
from __future__ import annotations

import json

import pytest

from domino.app import storage
from domino.app.nodes import find
from domino.net import protocol
from domino.net.host import HostTable
from domino.table import REMOTE
from tests.friends_table import Table

ANA, BEA = 1, 2


def at_hand_end(players: int = 3, **kw) -> Table:
    t = Table(players, **kw)
    t.to_hand_end()
    assert t.match.phase == "hand-over" and t.match.hand_no == 0 and not t.match.outcome
    return t


def dealt(t: Table, hand: int) -> bool:
    return t.match.hand_no == hand + 1 and t.match.phase == "play"


# ----------------------------------------------------------------- 1: a seat handed to the computer
def test_a_seat_handed_to_the_computer_at_a_hands_end_releases_next():
    t = at_hand_end()
    t.next_tap("host")
    t.next_tap("ana")
    assert t.hosting.waiting_for() == ["Bea"]
    t.tap("host", action="seat-controls")
    t.tap("host", action="hand-to-computer", seat=str(BEA))
    assert dealt(t, 0), "the computer taps Next for the seat it plays"


@pytest.mark.parametrize("when", ["bea's turn", "ana's turn", "bea came back"])
def test_a_seat_handed_to_the_computer_during_a_hand_is_not_waited_for_at_its_end(when):
    t = Table(3)
    if when == "bea came back":
        t.to_hand_end(until=lambda m: m.seq >= 2)
        t.drop("bea")
        t.tick(5)
        t.back("bea")
        assert t.match.seats[BEA]["kind"] == REMOTE
    else:
        seat = BEA if when == "bea's turn" else ANA
        t.to_hand_end(until=lambda m: m.turn == seat and m.seq >= 2)
    t.tap("host", action="hand-to-computer", seat=str(BEA))
    assert t.match.seats[BEA]["kind"] == "medium"
    t.to_hand_end()
    assert t.match.phase == "hand-over"
    t.next_tap("host")
    t.next_tap("ana")
    assert dealt(t, 0)


# ----------------------------------------------------------------- 2: a friend who leaves after the taps
@pytest.mark.parametrize("how", ["drop", "bye"])
def test_a_friend_who_leaves_after_the_others_tapped_next_deals_the_hand(how):
    t = at_hand_end()
    t.next_tap("host")
    t.next_tap("ana")
    assert not dealt(t, 0)
    getattr(t, how)("bea")
    assert t.hosting.table.seat_status(BEA) == "away"
    assert dealt(t, 0), "nobody is left to wait for"


def test_who_must_tap_is_worked_out_again_when_a_phone_goes_and_when_a_seat_is_given_back():
    t = at_hand_end()
    t.next_tap("host")
    t.tap("host", action="hand-to-computer", seat=str(BEA))
    assert t.hosting.waiting_for() == ["Ana"]
    t.tap("host", action="give-back", seat=str(BEA))      # Bea's phone is there: she taps again
    assert t.hosting.waiting_for() == ["Ana", "Bea"]
    t.drop("ana")
    assert t.hosting.waiting_for() == ["Bea"] and not dealt(t, 0)
    t.next_tap("bea")
    assert dealt(t, 0)


# ----------------------------------------------------------------- 3: a tap counts for its own hand only
def test_next_taps_of_an_earlier_match_do_not_count_in_the_next_one():
    t = at_hand_end()
    t.next_tap("host")
    t.next_tap("ana")
    t.tap("host", action="end-absence", seat=str(BEA))
    t.tap("host", action="end-absence-yes")
    assert t.match.outcome and t.match.resigned["seat"] == BEA
    t.tap("host", action="new-match", seq=str(t.match.seq))      # back to the lobby, the same friends
    assert t.host.ctrl is None
    for name in ("ana", "bea"):
        t.tap(name, action="join-table", value="")
    t.start()
    assert t.match.hand_no == 0
    t.to_hand_end()
    assert t.match.phase == "hand-over" and t.match.hand_no == 0
    t.next_tap("bea")
    assert t.match.phase == "hand-over", "Bea's tap alone deals nothing"
    assert t.hosting.waiting_for() == [t.match.seats[0]["name"], "Ana"]


# ----------------------------------------------------------------- 8: the order of leaving, and hello
def test_two_friends_who_leave_in_the_same_second_are_treated_in_the_order_they_left():
    t = Table(3, grace="5", policy="abandon:5")
    t.drop("bea")
    t.drop("ana")          # the same second: the clock has not moved
    t.tick(6)
    assert t.match.outcome and t.match.resigned["seat"] == BEA, "Bea left first: Bea abandons"


def test_the_order_of_leaving_survives_the_hosts_reload():
    t = Table(3, grace="5", policy="abandon:5")
    t.drop("bea")
    t.drop("ana")
    saved = json.loads(t.host.store.get(storage.key("/domino/", storage.TABLE)))["table"]
    assert saved["away"] == [BEA, ANA]
    again = HostTable.from_state(saved, now=t.net.clock.now)
    assert again.state()["away"] == [BEA, ANA]


def test_a_seat_the_host_handed_stays_with_the_computer_until_the_host_gives_it_back():
    t = Table(3)
    t.tap("host", action="hand-to-computer", seat=str(BEA))
    t.hello_again("bea")                          # the same connection says hello again
    assert t.match.seats[BEA]["kind"] == "medium"
    st = t.hosting.table.statuses()[BEA]
    assert st["stand_in"] == "medium" and st["handed"] is True
    t.drop("bea")
    t.back("bea")                                 # the friend opens a new invitation
    assert t.match.seats[BEA]["kind"] == "medium"
    g = t.device(BEA)
    assert g.link.table.statuses[BEA]["handed"] is True      # the friend's phone knows who decided
    saved = json.loads(t.host.store.get(storage.key("/domino/", storage.TABLE)))["table"]
    assert saved["handed"] == [BEA]
    t.tap("host", action="give-back", seat=str(BEA))
    assert t.match.seats[BEA]["kind"] == REMOTE
    assert t.hosting.table.statuses()[BEA]["handed"] is False


def test_a_seat_the_computer_took_while_its_friend_was_away_goes_back_at_hello():
    t = Table(3, grace="5")
    t.drop("bea")
    t.tick(6)
    st = t.hosting.table.statuses()[BEA]
    assert st["stand_in"] == "medium" and st["handed"] is False
    t.back("bea")
    assert t.match.seats[BEA]["kind"] == REMOTE


def test_the_hosts_hand_over_survives_the_hosts_reload_and_old_saves_still_load():
    t = Table(3, grace="5")
    t.tap("host", action="hand-to-computer", seat=str(BEA))
    t.drop("ana")
    t.tick(6)                                     # Ana's seat: the computer, because she is away
    state = t.hosting.table.state()
    assert state["stand_ins"] == [ANA, BEA] and state["handed"] == [BEA]
    again = HostTable.from_state(json.loads(json.dumps(state)))
    assert again.handed == {BEA} and again.stand_ins == {ANA, BEA}
    old = dict(state)
    del old["handed"]
    assert HostTable.from_state(old).handed == set()
    for bad in ([ANA + 5], ["1"], 3, [ANA, BEA, BEA + 1]):
        with pytest.raises(ValueError):
            HostTable.from_state(dict(state, handed=bad))


def test_a_seat_status_may_say_handed_as_a_bool():
    seat = {"seat": 1, "status": "joined", "kind": REMOTE, "name": "Bea", "stand_in": "medium"}
    assert protocol.is_seat_status(dict(seat, handed=True)) and protocol.is_seat_status(seat)
    assert not protocol.is_seat_status(dict(seat, handed=1))
    assert not protocol.is_seat_status(dict(seat, handed="yes"))


def test_the_host_may_keep_with_the_computer_a_seat_it_took_while_its_friend_was_away():
    t = Table(3, grace="5")
    t.drop("bea")
    t.tick(6)
    t.tap("host", action="seat-controls")
    buttons = find(t.host.screen(), **{"data-testid": "hand-to-computer"})
    assert str(BEA) in [str(b[1]["data-seat"]) for b in buttons]
    assert not find(t.host.screen(), **{"data-testid": "give-back"})
    t.tap("host", action="hand-to-computer", seat=str(BEA))
    assert t.hosting.table.statuses()[BEA]["handed"] is True
    t.back("bea")
    assert t.match.seats[BEA]["kind"] == "medium"
    assert find(t.host.screen(), **{"data-testid": "give-back"})
    t.tap("host", action="give-back", seat=str(BEA))
    assert t.match.seats[BEA]["kind"] == REMOTE
