"""A match played when each can, in the browser, when the relay misbehaves (issue 40, step 3): the relay
restarted with an empty store mid-match while both pages are open (they reconnect, publish again what they
hold, and the match goes on; pages opened later rebuild from it), and events from a key claiming to be the
host (views for the friend's seat, signed by another key, published on the relay) change nothing on the
friend's page."""
from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from domino.net import mailbox, nostr
from domino.app.link.later import parse_later
from tests.net.mail_relays import WsRelay
from conftest import assert_no_py_error
from test_later import T0_MS, WAIT_MS, Phone, my_turn, open_friend, open_host, play_turn, relay, wait_either
from test_later_ends import start_and_join

__all__ = ["relay"]      # the fixture, imported for this module's tests


def off_loop(fn, *args):
    """A websockets client call, in a thread of its own (Playwright's sync API holds this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result()


def seq(page) -> str:
    return page.evaluate("document.documentElement.dataset.seq")


def both_at_one_turn(pages) -> None:
    """One of the pages shows its turn, and both the same position."""
    wait_either(pages, "document.querySelector('.screen.game.my-turn')", "its turn")
    mover = next(p for p in pages if my_turn(p))
    other = next(p for p in pages if p is not mover)
    other.wait_for_function(f"document.documentElement.dataset.seq === {json.dumps(seq(mover))}",
                            timeout=WAIT_MS)


def test_the_relay_restarted_empty_mid_match_and_a_false_host_ignored(browser, site, relay):
    started = time.monotonic()
    host = Phone(browser, site, relay.url, T0_MS)
    friend = Phone(browser, site, relay.url, T0_MS)
    try:
        fragment, page, fp = start_and_join(host, friend)
        pages = (page, fp)
        for _ in range(2):                                      # two turns, live
            both_at_one_turn(pages)
            assert play_turn(page) + play_turn(fp) > 0
        both_at_one_turn(pages)

        # the relay restarts and has forgotten everything; the pages reconnect (about 1 s) and publish again
        relay.restart(keep_store=False)
        ticket, _ = parse_later(fragment.split("#", 1)[1])
        ws = WsRelay(relay.url)
        want = {mailbox.tag(ticket.match, "host"), mailbox.tag(ticket.match, "view", 1)}
        deadline = time.monotonic() + WAIT_MS / 1000
        while time.monotonic() < deadline:
            held = {nostr.tag_value(e, "d") for e in off_loop(ws.fetch, mailbox.match_filters(ticket.match))}
            if want <= held:
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the pages did not publish the match again on the emptied relay: {held}")
        for _ in range(2):                                      # and the match goes on, live
            assert play_turn(page) + play_turn(fp) > 0
            both_at_one_turn(pages)

        # a key claiming to be the host: a newer view for the friend's seat, signed by another key
        before = seq(fp)
        impostor, _tickets = mailbox.MailHost.create(
            {"game": "draw", "players": 2, "options": {},
             "seats": [{"kind": "human", "name": "Impostor"}, {"kind": "remote", "name": "X"}]},
            seed=7, match_id=ticket.match, now=T0_MS / 1000 + 3600)
        forged = impostor.outbox(T0_MS / 1000 + 7200)
        for event in forged:       # its view addressed to the friend's real key, under the seat's real tag
            if nostr.tag_value(event, "d") == mailbox.tag(ticket.match, "view", 1):
                payload_reader = ticket.pubkey
                event = nostr.sign_event(impostor.secret, kind=mailbox.KIND, created_at=event["created_at"] + 1,
                                         content=nostr.encrypt(json.dumps(impostor.view_payload(1)),
                                                               impostor.conv(payload_reader)),
                                         tags=[["d", event["tags"][0][1]], ["p", payload_reader]])
            assert off_loop(ws.publish, [event])[0][0], "the relay takes anyone's event"
        time.sleep(1.5)
        assert seq(fp) == before and "Impostor" not in fp.inner_text("body")
        assert_no_py_error(fp)

        # both pages closed, then opened again: rebuilt from the relay as it is now, the same position
        at = seq(page)
        host.close()
        friend.close()
        host.now_ms += 3600 * 1000
        friend.now_ms += 3600 * 1000
        hp = open_host(host)
        fp = open_friend(friend, fragment)
        assert seq(hp) == at and seq(fp) == at
        assert "Impostor" not in fp.inner_text("body")
        assert play_turn(hp) + play_turn(fp) > 0
    finally:
        for phone in (host, friend):
            if phone.page is not None:
                phone.page.close()
            phone.ctx.close()
    print(f"relay restarted empty, a false host: {time.monotonic() - started:.0f} s")
