"""A match played when each can, in the browser (issue 40, step 2): two phones (a context each, so a
storage each) and the project's relay (scripts/nostr_relay.py on 127.0.0.1, allowed as ws:// since it is
loopback).  The host chooses When you can in the friends' lobby and starts; the friend opens the link while
the host's page is open (the first moves arrive live); then each phone's page is closed after its move and
opened again hours later (an injected clock moves the pages' Date.now forward), the host through Your
matches, the friend through its link, to the match's end; both show the same result, and Your matches
says the match is over."""
from __future__ import annotations

import json
import re
import time

import pytest

import nostr_relay  # tests/conftest.py puts scripts/ on sys.path
from a11y import axe_violations
from conftest import assert_no_py_error, goto_booted
from turns import tap_move

PHONE = {"width": 360, "height": 740}
HOUR_MS = 3600 * 1000
T0_MS = 1_800_000_000_000
SEED = 160               # a Draw deal whose match is short (27 turns) as play_turn taps it
LIVE_TURNS = 2           # turns played with both pages open (the moves arrive over the subscription)
CYCLES = 60              # openings of each phone at the most
WAIT_MS = 20_000


@pytest.fixture
def relay():
    with nostr_relay.RelayThread("127.0.0.1", 0) as r:
        yield r


class Phone:
    """One phone: a browser context (its storage) whose pages come and go, and its clock."""

    def __init__(self, browser, site, relay_url: str, now_ms: int):
        self.site = site
        self.ctx = browser.new_context(service_workers="block", viewport=PHONE)
        settings = json.dumps({"relays": [relay_url], "new": {"game": "draw", "players": 2, "target": 100}})
        self.ctx.add_init_script(
            "if (!localStorage.getItem('domino:/domino/:settings'))"
            f" localStorage.setItem('domino:/domino/:settings', {json.dumps(settings)});")
        self.now_ms = now_ms
        self.page = None

    def open(self, tail: str = "?delay=0"):
        self.page = self.ctx.new_page()
        # the phone's clock, moved forward: Date.now() (which the app reads as its wall clock) runs from
        # now_ms.  Not Playwright's page.clock: its fake time stops the runtime's boot (an import fails)
        self.page.add_init_script(
            f"(() => {{ const shift = {self.now_ms} - Date.now(); const real = Date.now.bind(Date);"
            " Date.now = () => real() + shift; })();")
        goto_booted(self.page, self.site.url + tail)
        return self.page

    def close(self) -> None:
        if self.page is not None:
            assert_no_py_error(self.page)
            self.page.close()
            self.page = None


def tid(page, name: str):
    return page.locator(f'[data-testid="{name}"]')


def stored(page) -> None:
    """Everything this page published is held by the relay (the bar says so)."""
    page.wait_for_selector('[data-sent="stored"]', timeout=WAIT_MS)


def synced(page) -> None:
    """A relay has sent everything it holds of what this screen asked for (and it was read)."""
    page.wait_for_selector('[data-synced="1"]', timeout=WAIT_MS)


def wait_either(pages, condition: str, what: str) -> None:
    """Until ``condition`` (a JS expression) holds on one of ``pages``: each is asked in turn for a short
    while, up to WAIT_MS in all (the move may land on either phone)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        for p in pages:
            try:
                p.wait_for_function(condition, timeout=250)
                return
            except Exception:
                continue
    raise AssertionError(f"no phone shows {what} after {WAIT_MS} ms")


def my_turn(page) -> bool:
    return page.locator(".screen.game.my-turn").count() > 0


def play_turn(page) -> int:
    """This phone's turn, to its end (draws, then a tile, or a pass): the taps made."""
    taps = 0
    while my_turn(page) and taps < 30:
        seq = page.evaluate("document.documentElement.dataset.seq")
        assert tap_move(page), "its turn, and nothing to tap"
        taps += 1
        page.wait_for_function(f"document.documentElement.dataset.seq !== {json.dumps(seq)}"
                               " || !document.querySelector('.screen.game.my-turn')", timeout=WAIT_MS)
        stored(page)
    return taps


def to_matches(page) -> None:
    """Your matches, from the page as it opened: the first screen, or the host's table it left open (a
    reload opens a match's table again)."""
    page.wait_for_selector('[data-testid="my-matches"], [data-testid="later-bar"]', timeout=WAIT_MS)
    if not tid(page, "later-bar").count():
        tid(page, "my-matches").click()
        return
    synced(page)
    if tid(page, "match-result").count():       # the match ended while the table opened: its result's button
        assert tid(page, "new-match").inner_text() == "Your matches"
        tid(page, "new-match").click()
    else:
        tid(page, "later-more").click()
        tid(page, "my-matches-back").click()


def open_host(host: Phone):
    """The host's phone: the game, then Your matches, then the match."""
    page = host.open()
    to_matches(page)
    page.wait_for_selector('[data-testid="match-item"]', timeout=WAIT_MS)
    synced(page)
    page.locator('[data-testid="open-match"]').first.click()
    page.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
    synced(page)
    return page


def open_friend(friend: Phone, fragment: str):
    """The friend's phone: its link opens the match's table, what changed fetched."""
    page = friend.open(fragment)
    page.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
    synced(page)
    return page


def over(page) -> bool:
    return tid(page, "match-result").count() > 0


def test_a_two_player_match_when_you_can_with_each_page_closed_after_its_move(browser, site, relay):
    started = time.monotonic()
    host = Phone(browser, site, relay.url, T0_MS)
    friend = Phone(browser, site, relay.url, T0_MS)
    try:
        page = host.open(f"?delay=0&seed={SEED}")
        tid(page, "play-friends").click()
        tid(page, "play-later").check()
        page.wait_for_selector('[data-testid="later-notice"]', timeout=WAIT_MS)
        assert "127.0.0.1" in tid(page, "later-notice").inner_text()
        assert not axe_violations(page), "the lobby with When you can"
        tid(page, "start-table").click()
        page.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
        assert not axe_violations(page), "the host's table"
        tid(page, "later-more").click()
        page.wait_for_selector('[data-testid="later-invite-1"]', timeout=WAIT_MS)
        assert not axe_violations(page), "the host's table, its links shown"
        link = page.locator('[data-testid="later-invite-1"] [data-testid="invite-link"]').get_attribute("data-link")
        assert "#later=2." in link
        stored(page)
        fragment = "?delay=0#" + link.split("#", 1)[1]

        # the friend opens the link with the host's page still open: the first moves arrive live
        fp = friend.open(fragment)
        fp.wait_for_selector('[data-testid="later-notice"]', timeout=WAIT_MS)
        assert "127.0.0.1" in tid(fp, "later-notice").inner_text()
        assert not axe_violations(fp), "the friend's invitation"
        tid(fp, "later-join").click()
        fp.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
        synced(fp)
        assert not axe_violations(fp), "the friend's table"
        arrived = []           # seconds from a move stored on the relay to the other phone's turn on screen
        moved_at = None
        for _ in range(LIVE_TURNS):
            wait_either((page, fp), "document.querySelector('.screen.game.my-turn')", "its turn")
            if moved_at is not None:
                arrived.append(time.monotonic() - moved_at)
            assert play_turn(page) + play_turn(fp) > 0
            moved_at = time.monotonic()
        wait_either((page, fp), "document.querySelector('.screen.game.my-turn')", "its turn")
        arrived.append(time.monotonic() - moved_at)
        host.close()
        friend.close()

        # then each phone is closed after its move and opened again hours later, to the match's end
        turns = {"host": 0, "friend": 0}
        hands_seen: list[int] = []
        for cycle in range(CYCLES):
            host.now_ms += 5 * HOUR_MS
            page = host.open()
            if cycle > 0:
                page.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)  # the table it left, again
            to_matches(page)
            page.wait_for_selector('[data-testid="match-item"]', timeout=WAIT_MS)
            synced(page)
            stored(page)     # a friend's move it applied: the new view is on the relay
            state = page.locator('[data-testid="match-item"]').first.get_attribute("data-turn")
            if cycle == 0:
                assert not axe_violations(page), "Your matches"
            if state == "over":
                break
            page.locator('[data-testid="open-match"]').first.click()
            page.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
            synced(page)
            assert (state == "you") == my_turn(page), state
            if tid(page, "later-hand-result").count() and not hands_seen:     # a hand's result, once
                assert not axe_violations(page), "the last hand's result over the next hand's table"
                tid(page, "later-hand-ok").click()
                page.wait_for_selector('[data-testid="later-hand-result"]', state="detached", timeout=WAIT_MS)
                hands_seen.append(cycle)
            if state == "you":
                assert play_turn(page) > 0
                turns["host"] += 1
                said = tid(page, "later-status").inner_text()
                assert over(page) or my_turn(page) or "Waiting for" in said, said
            host.close()

            friend.now_ms += 5 * HOUR_MS
            page = open_friend(friend, fragment)
            if not my_turn(page) and not over(page) and turns["host"] > 1:   # since the host's move, hours ago
                assert re.search(r"since \d+ h ago", tid(page, "later-status").inner_text())
            if my_turn(page):
                assert play_turn(page) > 0
                turns["friend"] += 1
                said = tid(page, "later-status").inner_text()
                assert "Your move was sent" in said, said     # until the host's phone applies it
            friend.close()
        else:
            raise AssertionError(f"the match did not end in {CYCLES} openings of each phone: {turns}")
        host.close()
        assert turns["host"] >= 3 and turns["friend"] >= 3, turns
        assert hands_seen, "the host's phone showed a hand's result between hands"

        # both phones show the same finished match, and Your matches says so
        hp = open_host(host)
        fp = open_friend(friend, fragment)
        for p in (hp, fp):
            p.wait_for_selector('[data-testid="match-result"]', timeout=WAIT_MS)
        scores = [p.locator('[data-testid="scores"]').inner_text() for p in (hp, fp)]
        assert scores[0] == scores[1], scores
        host.close()
        friend.close()
        for phone in (host, friend):
            page = phone.open()
            tid(page, "my-matches").click()
            page.wait_for_selector('[data-testid="match-item"][data-turn="over"]', timeout=WAIT_MS)
            phone.close()
        print(f"turns with the page closed in between: {turns}; live first: {LIVE_TURNS}, each on the other "
              f"phone's screen after {', '.join(f'{x:.1f}' for x in arrived)} s")
    finally:
        for phone in (host, friend):
            if phone.page is not None:
                phone.page.close()
            phone.ctx.close()
    print(f"match when you can, in the browser: {time.monotonic() - started:.0f} s")
