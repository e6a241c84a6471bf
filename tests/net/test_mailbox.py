"""domino/net/mailbox.py: a match kept on Nostr relays, its two state machines
over a relay in this process (tests/net/mail_relays.py's MemoryRelay, with the
project relay's storage rules): whole hands of Draw at two and three players
with every side restarted from the relay's contents, what the relay can read,
every kind of refused event, an action sent again until applied, a relay that
forgot everything.  Over real relays: tests/net/test_mailbox_relays.py."""
from __future__ import annotations

import itertools
import json
import re

import pytest

from domino.engine.match import HUMAN
from domino.net import mailbox, nostr, protocol
from domino.net.mailbox import KIND, RESEND_AFTER, MailError, MailGuest, MailHost, tag
from tests.net.mail_relays import MailTable, MemoryRelay, choice

T0 = 1_800_000_000


def fake_clock(start: int = T0, step: int = 2):
    ticks = itertools.count(start, step)
    return lambda: next(ticks)


def table(kinds: list[str], seed: int = 3) -> MailTable:
    return MailTable(MemoryRelay(), kinds, seed=seed, clock=fake_clock())


# ----------------------------------------------------------------- whole hands
@pytest.mark.parametrize("kinds", [["human", "remote"], ["remote", "human", "remote"]],
                         ids=["two", "three"])
def test_a_hand_of_draw_through_the_mailbox_with_every_side_restarted(kinds):
    t = table(kinds)
    rounds = t.play_hand(restart_at=3)
    h = t.host
    assert rounds > 3 and (h.m.hand_no == 1 or h.m.finished)
    first = h.m.records[0]
    assert first["result"] is not None and len(first["actions"]) > 10
    # every friend made moves, and each one went through its own action event
    friends = [s for s, k in enumerate(kinds) if k == "remote"]
    assert set(t.acted) == set(friends) and all(n > 0 for n in t.acted.values())
    human = [a for a in first["actions"] if h.m.seats[a[0]]["kind"] == HUMAN]
    assert human, "the host's own seat played too"
    # each seat sees exactly what the engine gives it now
    for s, g in t.guests.items():
        assert g.view == h.m.view(s) and g.applied
    assert t.refused == []
    # and a second restart of everyone, between two hands, changes nothing
    t.restart_host()
    for s in friends:
        t.restart_guest(s)


def test_what_the_relay_holds_says_nothing_it_should_not():
    t = table(["human", "remote", "remote"])
    for _ in range(4):
        t.round()
    events = list(t.relay.events.values())
    assert {e["kind"] for e in events} == {KIND}
    # one state, a view per friend, an action per friend who moved: addressable, so the newest only
    assert len(events) == 1 + 2 + len(t.acted)
    text = json.dumps(events)
    assert not re.search(r"[0-9]-[0-9]", text), "a tile name in clear"
    for word in (t.host.match, '"seq"', '"draw"', '"P1"', '"hand"', "domino"):   # quotes and - are not base64's
        assert word not in text
    # each event reads only with its reader's key: another friend's key reads nothing
    other = MailGuest(t.tickets[2])
    view1 = next(e for e in events if nostr.tag_value(e, "d") == tag(t.host.match, "view", 1))
    assert other.receive(view1, T0).reason == "wrong-match"      # not one of seat 2's tags
    with pytest.raises(nostr.Nip44Error):
        nostr.decrypt(view1["content"], other.conv(t.host.pub))
    g1 = t.guests[1]
    assert json.loads(nostr.decrypt(view1["content"], g1.conv(t.host.pub)))["seat"] == 1


def test_a_rebuild_needs_the_hosts_state_on_the_relays():
    t = table(["human", "remote"])
    with pytest.raises(MailError):
        MailHost.rebuild(t.host.secret, "0" * 32, t.relay.fetch(mailbox.match_filters("0" * 32)), T0)
    with pytest.raises(MailError):       # another key: its state is not this key's
        MailHost.rebuild(nostr.new_secret(), t.host.match, t.relay.fetch(t.host.filters()), T0)


# ----------------------------------------------------------------- refusals
def craft(secret: bytes, d: str, reader: str, payload: dict | str, created_at: int,
          conv_secret: bytes | None = None, p: str | None = None) -> dict:
    """An event made by hand: signed by ``secret``, for ``reader``."""
    text = payload if isinstance(payload, str) else json.dumps(payload)
    conv = nostr.conversation_key(conv_secret or secret, bytes.fromhex(reader))
    return nostr.sign_event(secret, kind=KIND, content=nostr.encrypt(text, conv),
                            tags=[["d", d], ["p", p or reader]], created_at=created_at)


def to_turn_of(t: MailTable, seat: int) -> None:
    """Rounds until ``seat`` knows it is its turn (and has not moved yet)."""
    for _ in range(40):
        t.host_round()
        for s in t.guests:
            t.guest_round(s, act=s != seat)
        if t.host.waiting_for() == seat and t.guests[seat].view["turn"] == seat:
            return
    raise AssertionError(f"seat {seat} never got the turn")


def test_forged_replayed_and_stale_events_are_refused_with_their_reason():
    t = table(["human", "remote", "remote"])
    h, g1, g2 = t.host, t.guests[1], t.guests[2]
    m_id = h.match
    t.round()
    now = T0 + 10_000
    view_tag, act1, act2 = tag(m_id, "view", 1), tag(m_id, "act", 1), tag(m_id, "act", 2)
    view = next(e for e in t.relay.fetch(g1.filters()) if nostr.tag_value(e, "d") == view_tag)
    good_payload = json.loads(nostr.decrypt(view["content"], g1.conv(h.pub)))
    sk1, sk2 = bytes.fromhex(t.tickets[1].secret), bytes.fromhex(t.tickets[2].secret)
    mallory = nostr.new_secret()

    # --- a guest reading views
    assert g1.receive(view, now).reason == "replay"            # already read
    assert MailGuest(t.tickets[1]).receive(view, now).accepted  # a fresh device reads it
    newer = dict(good_payload, rev=good_payload["rev"] + 5)
    refusals = {
        "wrong-author": craft(mallory, view_tag, g1.pub, newer, now),            # anyone may write the tag
        "bad-id": dict(view, content=view["content"][:-4] + "AAA="),
        "bad-signature": dict(craft(mallory, view_tag, g1.pub, newer, now), pubkey=h.pub),
        "not-for-me": craft(h.secret, view_tag, g1.pub, newer, now, p=g2.pub),
        "undecryptable": craft(h.secret, view_tag, g1.pub, newer, now, conv_secret=mallory),
        "wrong-match": craft(h.secret, view_tag, g1.pub, dict(newer, match="f" * 32), now),
        "wrong-seat": craft(h.secret, view_tag, g1.pub, dict(newer, seat=2), now),
        "stale": craft(h.secret, view_tag, g1.pub, dict(good_payload, rev=good_payload["rev"] - 1), now),
        "malformed": craft(h.secret, view_tag, g1.pub, "not json", now),
    }
    for reason, event in refusals.items():
        if reason == "bad-signature":    # the id must match the changed pubkey: only the signature is wrong
            event["id"] = nostr.event_id(event)
        got = g1.receive(event, now)
        assert got.reason == reason, (reason, got)
        assert reason in mailbox.REASONS
    other_match = craft(h.secret, tag("e" * 32, "view", 1), g1.pub, newer, now)
    assert g1.receive(other_match, now).reason == "wrong-match"
    assert g1.receive({"kind": KIND}, now).reason == "malformed"
    before = g1.view
    # a view with a newer rev but an older position is stale too (the table keeps the newer)
    older_seq = dict(newer, msg=dict(good_payload["msg"], seq=good_payload["msg"]["seq"] - 1,
                                     view=dict(good_payload["msg"]["view"], seq=good_payload["msg"]["seq"] - 1)))
    assert g1.receive(craft(h.secret, view_tag, g1.pub, older_seq, now), now).reason == "stale"
    assert g1.view == before      # nothing refused changed anything

    # --- the host reading actions
    to_turn_of(t, 1)
    seq = h.m.seq
    legal = h.m.legal_actions()
    illegal = {"seat": 1, "play": next(x for x in ("0-0", "6-6", "1-2", "3-4")
                                       if {"seat": 1, "play": x, "end": "L"} not in legal), "end": "L"}

    def act(sk, d, seat, action, at_seq=seq, **extra):
        payload = {"v": mailbox.FORMAT, "t": "act", "match": m_id, "seat": seat,
                   "msg": {"v": protocol.VERSION, "t": "act", "seq": at_seq, "action": action}, **extra}
        return craft(sk, d, h.pub, payload, now)

    state = h.m.state_key()
    refusals = {
        "wrong-author": act(sk2, act1, 1, legal[0]),                   # seat 2's key on seat 1's tag
        "wrong-seat": act(sk1, act1, 2, dict(legal[0], seat=2)),
        "stale": act(sk1, act1, 1, legal[0], at_seq=seq - 1),
        "illegal": act(sk1, act1, 1, illegal),
        "out-of-turn": act(sk2, act2, 2, {"seat": 2, "pass": True}),
        "malformed": act(sk1, act1, 1, {"seat": 1, "castle": True}),
        "wrong-match": act(sk1, act1, 1, legal[0], match="f" * 32),
    }
    for reason, event in refusals.items():
        got = h.receive(event, now)
        assert got.reason == reason, (reason, got)
        assert h.m.state_key() == state
    good = act(sk1, act1, 1, legal[0])
    assert h.receive(good, now).accepted and h.m.seq > seq
    assert h.receive(good, now).reason == "replay"
    # the same action, signed again (a resend): the match has moved on
    assert h.receive(act(sk1, act1, 1, legal[0]), now).reason == "stale"
    # a resign ends the match; after it, nothing is applied
    assert h.receive(act(sk2, act2, 2, {"seat": 2, "resign": True}), now).accepted
    assert h.m.finished and h.m.resigned["seat"] == 2
    assert h.receive(act(sk1, act1, 1, legal[0], at_seq=h.m.seq), now).reason == "match-over"


def test_a_guest_action_is_sent_again_until_a_view_shows_it_applied():
    t = table(["human", "remote"])
    to_turn_of(t, 1)
    h, g = t.host, t.guests[1]
    now = T0 + 50_000
    with pytest.raises(MailError):
        g.act({"seat": 0, "pass": True}, now)      # not one of the view's legal moves
    g.act(choice(g.view), now)
    with pytest.raises(MailError):
        g.act(choice(g.view), now)         # one move per position
    first = g.outbox(now)
    assert len(first) == 1 and not g.applied
    assert g.outbox(now + RESEND_AFTER - 1) == []
    # the first one never reaches the host (a relay lost it): it goes again
    again = g.outbox(now + RESEND_AFTER)
    assert len(again) == 1 and again[0]["id"] != first[0]["id"]
    assert again[0]["created_at"] > first[0]["created_at"]
    assert g.outbox(now + RESEND_AFTER + 1) == []
    # a device that restarts with the action on the relays sends it too, in time
    t.relay.publish(again)
    back = MailGuest.rebuild(t.tickets[1], t.relay.fetch(g.filters()), now + RESEND_AFTER + 2)
    assert back.pending == {**g.pending} and not back.applied
    assert len(back.outbox(now + 2 * RESEND_AFTER + 1)) == 1
    # the host applies it once; the late first copy is stale
    seq = h.m.seq
    assert h.receive(again[0], now).accepted and h.m.seq > seq
    assert h.receive(first[0], now).reason == "stale"
    t.relay.publish(h.outbox(now))
    for e in t.relay.fetch(g.filters()):
        g.receive(e, now)
    assert g.applied and g.acked == seq
    assert g.outbox(now + 10 * RESEND_AFTER) == []


def test_a_relay_that_forgot_everything_gets_it_again():
    t = table(["human", "remote"])
    t.play_hand()
    seq = t.host.m.seq
    t.relay.restart(keep_store=False)
    assert t.relay.fetch(t.host.filters()) == []
    t.publish(t.host.republish())
    assert len(t.relay.fetch(t.host.filters())) == 2       # the state and the one view
    t.restart_host()
    t.restart_guest(1)
    assert t.host.m.seq == seq
    t.play_hand()
    assert t.host.m.hand_no == 2 or t.host.m.finished


def test_the_host_gets_its_views_back_out_when_the_relays_lost_them():
    t = table(["human", "remote", "remote"])
    for _ in range(3):
        t.round()
    t.settle()
    # a relay that kept the host's state but lost seat 2's view
    lost = tag(t.host.match, "view", 2)
    t.relay.events = {k: e for k, e in t.relay.events.items() if nostr.tag_value(e, "d") != lost}
    t.restart_host()
    out = t.host.outbox(T0 + 90_000)
    assert [nostr.tag_value(e, "d") for e in out] == [tag(t.host.match, "host"), lost]
    t.publish(out)
    fresh = MailGuest.rebuild(t.tickets[2], t.relay.fetch(t.guests[2].filters()), T0 + 90_001)
    assert fresh.view == t.host.m.view(2)


def test_the_host_plays_its_own_seat_only_on_its_turn():
    t = table(["human", "remote"])
    h = t.host
    while h.waiting_for() == 0:
        h.act(choice(h.m.view(0)), T0)
    with pytest.raises(MailError):
        h.act({"seat": 0, "pass": True}, T0)
    assert h.waiting_for() == 1
