"""The clock's rules of a match played when each can (RULES.md 3.5 [001]), in the mailbox: a player
to move who has not played for more than 2 days may be ended for absence (they lose, as one who
leaves does), by the host's phone or at a friend's request (checked on the host's clock); a table
with no move for 7 days ends with no winner.  Over tests/net/mail_relays.py's MemoryRelay."""
from __future__ import annotations

import pytest

from domino.engine.records import from_record, to_record
from domino.net.mailbox import ABSENCE_AFTER, IDLE_AFTER, MailError, MailHost
from tests.net.mail_relays import MailTable, MemoryRelay
from tests.net.test_mailbox import T0, to_turn_of

DAY = 86400


def table(kinds: list[str], seed: int = 3) -> MailTable:
    """A table whose clock stands still but for what a test moves (``skew``)."""
    return MailTable(MemoryRelay(), kinds, seed=seed, clock=lambda: T0)


def host_turn(t: MailTable) -> None:
    """Rounds until the host's own seat (0) is to move, nobody deciding on the host's side."""
    for _ in range(40):
        t.host_round(act=False)
        for s in t.guests:
            t.guest_round(s)
        if t.host.waiting_for() == 0:
            t.settle()
            return
    raise AssertionError("the host never got the turn")


def later(t: MailTable, seconds: float) -> None:
    """The clock moved on ``seconds`` from when the position began (on the host's stamp)."""
    t.skew += t.host.since + seconds - t.now


def replays(t: MailTable) -> None:
    """The host's match as a record replays to the same state (the end and its reason included)."""
    again = from_record(to_record(t.host.m))
    assert again.state_key() == t.host.m.state_key()


def test_the_host_ends_a_friend_away_more_than_two_days():
    t = table(["human", "remote"])
    to_turn_of(t, 1)
    h, g = t.host, t.guests[1]
    later(t, ABSENCE_AFTER)                      # two days exactly: not yet
    assert h.absent(t.now) is None
    with pytest.raises(MailError):
        h.end_for_absence(t.now)
    later(t, ABSENCE_AFTER + 60)
    assert h.absent(t.now) == 1
    h.end_for_absence(t.now)
    assert h.m.finished and h.m.outcome["reason"] == "resign" and h.m.outcome["winner"] == 0
    assert h.abandoned == 1 and h.m.resigned["seat"] == 1
    t.publish(h.outbox(t.now))
    t.settle()
    assert g.view["outcome"] == h.m.outcome and g.table.abandoned == 1
    replays(t)
    t.restart_host()                             # the state on the relays says who was absent
    assert t.host.abandoned == 1


def test_a_friend_asks_to_end_another_friends_absence_and_the_host_checks_it_on_its_clock():
    t = table(["human", "remote", "remote"])
    to_turn_of(t, 2)
    h, g1 = t.host, t.guests[1]
    later(t, DAY)
    assert g1.absent(t.now) is None
    with pytest.raises(MailError):
        g1.act({"seat": 1, "absent": 2}, t.now)
    with pytest.raises(MailError):               # only the seat to move can be absent
        later(t, ABSENCE_AFTER + 60)
        g1.act({"seat": 1, "absent": 0}, t.now)
    assert g1.absent(t.now) == 2
    g1.act({"seat": 1, "absent": 2}, t.now)
    assert not g1.applied
    t.publish(g1.outbox(t.now))
    t.host_round(act=False)
    assert h.m.finished and h.abandoned == 2 and h.m.resigned["seat"] == 2
    # three sides: the best total among those who stay wins (RULES.md 7.18); here nobody scored yet
    assert h.m.outcome["winner"] in (0, 1, None)
    t.settle()
    assert g1.applied and g1.view["outcome"] is not None and g1.table.abandoned == 2
    assert t.guests[2].table.abandoned == 2
    assert t.refused == []
    replays(t)


def test_a_claim_made_too_soon_on_the_hosts_clock_counts_once_its_time_has_come():
    """A friend's clock ahead of the host's: the host keeps the claim, and applies it when 2 days have
    passed on its own clock, at the same position; its state on the relays keeps the claim."""
    t = table(["human", "remote", "remote"])
    to_turn_of(t, 2)
    h, g1 = t.host, t.guests[1]
    later(t, ABSENCE_AFTER + 3600)
    g1.act({"seat": 1, "absent": 2}, t.now)      # this phone's clock: more than 2 days
    event = g1.outbox(t.now)
    t.skew -= 2 * 3600                           # the host's clock: 2 days minus an hour
    t.publish(event)
    t.host_round(act=False)
    assert not h.m.finished and h.claims == {1: (h.m.seq, 2)}
    assert [r.reason for who, r in t.refused] == ["too-soon"]
    t.restart_host()
    assert t.host.claims == {1: (t.host.m.seq, 2)}
    assert t.host.tick(t.now) is False and not t.host.m.finished
    t.skew += 2 * 3600
    assert t.host.tick(t.now) is True
    assert t.host.m.finished and t.host.abandoned == 2


def test_a_claim_is_dropped_once_the_absent_one_moves():
    t = table(["human", "remote", "remote"])
    to_turn_of(t, 2)
    h, g1 = t.host, t.guests[1]
    later(t, ABSENCE_AFTER + 3600)
    g1.act({"seat": 1, "absent": 2}, t.now)
    event = g1.outbox(t.now)
    t.skew -= 2 * 3600
    t.publish(event)
    t.host_round(act=False)
    assert h.claims
    t.guest_round(2)                             # the absent friend comes back and moves
    t.host_round(act=False)
    t.skew += 4 * 3600
    assert h.tick(t.now) is False and not h.m.finished and h.claims == {}


def test_a_friend_may_end_the_hosts_own_absence_the_host_loses_when_its_phone_next_opens():
    t = table(["human", "remote"])
    host_turn(t)
    h, g = t.host, t.guests[1]
    later(t, ABSENCE_AFTER + 60)
    assert g.absent(t.now) == 0
    g.act({"seat": 1, "absent": 0}, t.now)
    t.publish(g.outbox(t.now))
    t.restart_host()                             # the host's phone opens again: the claim is read
    h = t.host
    assert h.m.finished and h.abandoned == 0 and h.m.outcome["winner"] == 1
    t.publish(h.outbox(t.now))
    t.settle()
    assert g.applied and g.table.abandoned == 0 and g.view["outcome"]["winner"] == 1


def test_nobody_claims_their_own_absence_nor_a_computers():
    t = table(["human", "remote", "easy"])
    to_turn_of(t, 1)
    g = t.guests[1]
    later(t, ABSENCE_AFTER + 60)
    assert g.absent(t.now) is None               # its own turn
    with pytest.raises(MailError):
        g.act({"seat": 1, "absent": 1}, t.now)
    assert t.host.absent(t.now) == 1             # the host may end it; the friend may not claim itself


def test_a_table_with_no_move_for_seven_days_ends_with_no_winner():
    t = table(["human", "remote"])
    to_turn_of(t, 1)
    h, g = t.host, t.guests[1]
    later(t, IDLE_AFTER)
    assert h.tick(t.now) is False and not g.idle(t.now)
    later(t, IDLE_AFTER + 1)
    assert g.idle(t.now)                         # the friend's phone already shows it over
    assert h.tick(t.now) is True
    assert h.m.finished and h.m.outcome == {"winner": None, "reason": "idle", "scores": h.m.scores}
    assert h.m.idle == {"hand": h.m.hand_no, "index": len(h.m.hand.actions)}
    t.publish(h.outbox(t.now))
    t.settle()
    assert g.view["outcome"]["reason"] == "idle" and not g.idle(t.now)     # over now: no longer "idle"
    replays(t)
    with pytest.raises(MailError):
        h.act({"seat": 0, "resign": True}, t.now)


def test_a_friends_own_move_waiting_for_the_host_counts_as_a_move():
    """The friend moved on day 6 and the host's phone has not opened since: on day 8 the friend's phone
    does not call the table idle (its own move is 2 days old); the host, opening on day 8, applies the
    move first, and the table goes on."""
    t = table(["human", "remote"])
    to_turn_of(t, 1)
    h, g = t.host, t.guests[1]
    later(t, 6 * DAY)
    v = g.view
    g.act(v["legal"][0], t.now)
    t.publish(g.outbox(t.now))
    t.skew += 2 * DAY
    assert not g.idle(t.now)
    t.host_round(act=False)
    h.tick(t.now)
    assert not h.m.finished and h.m.seq > v["seq"]
