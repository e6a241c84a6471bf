"""The mailbox (domino/net/mailbox.py) over real relays, through websockets:
the project's relay (scripts/nostr_relay.py with a store file) and PyPI's
``nostr-relay`` 1.14 (SQLite, in its own process; requirements-dev.txt).  A
hand of Draw is played between a host and a friend; mid-hand the relay
restarts keeping its store (every side then restarts from the relay alone),
later it restarts empty while the friend's move is on its way (the host
republishes what it has, the friend's move goes again), and at the end both
sides are rebuilt once more from what the relay holds."""
from __future__ import annotations

import pytest

from domino.net.mailbox import RESEND_AFTER
from tests.net.mail_relays import MailTable, ProjectRelay, PypiRelay, nostr_relay_command


@pytest.fixture(params=["project", "nostr-relay"])
def relay(request, tmp_path):
    if request.param == "nostr-relay" and nostr_relay_command() is None:
        pytest.skip("PyPI nostr-relay is not installed (pip install -r requirements-dev.txt)")
    r = ProjectRelay(tmp_path) if request.param == "project" else PypiRelay(tmp_path)
    yield r
    r.close()


def friend_to_move(t: MailTable, seat: int) -> None:
    """Rounds (the friend not deciding) until the friend knows it is its turn."""
    for _ in range(40):
        t.host_round()
        t.guest_round(seat, act=False)
        g = t.guests[seat]
        if t.host.waiting_for() == seat and g.view["turn"] == seat and g.view["seq"] == t.host.m.seq:
            return
    raise AssertionError("the friend never got the turn")


def test_a_hand_over_a_relay_that_restarts_keeping_and_losing_its_store(relay):
    t = MailTable(relay, ["human", "remote"], seed=11)
    for _ in range(3):
        t.round()
    # the relay restarts with its store: every side starts again from it alone
    relay.restart(keep_store=True)
    t.restart_host()
    t.restart_guest(1)
    friend_to_move(t, 1)
    # the friend moves, then the relay loses everything before the host read it
    g, h = t.guests[1], t.host
    seq = h.m.seq
    g.act(g.view["legal"][0], t.now)
    t.publish(g.outbox(t.now))
    relay.restart(keep_store=False)
    assert relay.fetch(h.filters()) == []
    t.publish(h.republish())                 # the host puts back what it has
    t.host_round(act=False)
    assert h.m.seq == seq and h.waiting_for() == 1
    t.skew += RESEND_AFTER                   # ... and the friend's move goes again in time
    t.guest_round(1, act=False)
    t.host_round(act=False)
    assert h.m.seq > seq and h.seats[1].acked == seq
    t.play_hand()
    assert h.m.records[0]["result"] is not None
    assert t.guests[1].view == h.m.view(1) and t.guests[1].applied
    assert t.refused == []
    # what the relay holds now is enough for both sides
    t.restart_host()
    t.restart_guest(1)
