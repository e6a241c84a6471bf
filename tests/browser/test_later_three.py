"""A three-player match played when each can, in the browser (issue 40, step 3): the host and two friends'
phones (a browser context each) and the project's relay.  The friends' pages stay open; the host's page is
closed after the start and opened again (Your matches, then the match) between the friends' turns: a
friend's move is applied only then, and the other friend's turn reaches its open page only after that.
After a fixed number of rounds a friend resigns, which the host's phone applies when it is next open: the
match is over on the three phones with the same scores, and Your matches says so on each.  The helpers
are tests/browser/test_later.py's."""
from __future__ import annotations

import json
import re
import time

from test_later import (HOUR_MS, T0_MS, WAIT_MS, Phone, my_turn, open_host, play_turn, relay, stored,  # noqa: F401
                        synced, tid, wait_either)

SEED = 160
ROUNDS = 3           # rounds of the friends' turns with the host's page opened between them, before the resign


def seq_of(page) -> str:
    return page.evaluate("document.documentElement.dataset.seq")


def open_host_between(host: Phone):
    """The host's phone opened hours later: Your matches applies the friend's move waiting on the relay (the
    new views stored), then the match's table."""
    host.now_ms += 3 * HOUR_MS
    page = open_host(host)
    stored(page)
    return page


def test_a_three_player_match_when_you_can_with_the_hosts_page_opened_between_the_friends_turns(browser, site,
                                                                                               relay):
    started = time.monotonic()
    host = Phone(browser, site, relay.url, T0_MS)
    friends = {seat: Phone(browser, site, relay.url, T0_MS) for seat in (1, 2)}
    try:
        page = host.open(f"?delay=0&seed={SEED}")
        tid(page, "play-friends").click()
        page.select_option('[data-testid="players"]', "3")
        page.wait_for_selector('[data-testid="seat-kind-2"]', timeout=WAIT_MS)
        tid(page, "play-later").check()
        page.wait_for_selector('[data-testid="later-notice"]', timeout=WAIT_MS)
        tid(page, "start-table").click()
        page.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
        tid(page, "later-more").click()
        links = {}
        for seat in (1, 2):
            card = page.locator(f'[data-testid="later-invite-{seat}"] [data-testid="invite-link"]')
            links[seat] = card.get_attribute("data-link")
            assert f"#later={seat + 1}." in links[seat]
        names = {seat: re.fullmatch(r"Link for (.+)", page.locator(f'[data-testid="later-invite-{seat}"] p').first
                                    .inner_text()).group(1) for seat in (1, 2)}
        assert names[1] != names[2], names
        stored(page)
        host_mine = my_turn(page)
        if host_mine:                               # the host opens: its first move before it closes the game
            assert play_turn(page) > 0
        host.close()

        # each friend opens its link and joins; their pages stay open from now on
        pages = {}
        for seat, phone in friends.items():
            phone.now_ms += HOUR_MS
            fp = phone.open("?delay=0#" + links[seat].split("#", 1)[1])
            tid(fp, "later-join").click()
            fp.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
            synced(fp)
            pages[seat] = fp

        turns = {"host": int(host_mine), 1: 0, 2: 0}
        waited = 0
        said = ""                                   # what the host's bar said when its page was last open
        for _turn in range(2 * ROUNDS):
            wait_either(list(pages.values()), "document.querySelector('.screen.game.my-turn')", "a friend's turn")
            seat = next(s for s, p in pages.items() if my_turn(p))
            fp, other = pages[seat], pages[3 - seat]
            if said:                                # the host's bar named the friend its match waited for
                assert f"Waiting for {names[seat]}'s move" in said, (names, seat, said)
            assert not my_turn(other)
            before = seq_of(other)
            assert play_turn(fp) > 0                # stored on the relay; the host's phone is closed
            turns[seat] += 1
            assert "Your move was sent" in tid(fp, "later-status").inner_text()
            # the other friend's open page: nothing new until the host's phone opens
            time.sleep(0.5)
            assert seq_of(other) == before and not my_turn(other)
            waited += 1
            hp = open_host_between(host)
            if my_turn(hp):
                assert play_turn(hp) > 0
                turns["host"] += 1
            said = tid(hp, "later-status").inner_text()
            host.close()
        # friend 2 resigns; the host's phone, opened, ends the match; friend 1's page sees it live
        fp = pages[2]
        tid(fp, "resign").click()
        tid(fp, "resign-confirm").click()
        fp.wait_for_function("document.querySelector('[data-testid=\"later-status\"]')"
                             " && document.querySelector('[data-testid=\"later-status\"]').textContent"
                             ".includes('Your move was sent')", timeout=WAIT_MS)
        stored(fp)
        assert tid(pages[1], "match-result").count() == 0
        hp = open_host_between(host)
        for p in (hp, pages[1], pages[2]):
            p.wait_for_selector('[data-testid="match-result"]', timeout=WAIT_MS)
        scores = [p.locator('[data-testid="scores"]').inner_text() for p in (hp, pages[1], pages[2])]
        assert scores[0] == scores[1] == scores[2], scores
        assert turns[1] + turns[2] == 2 * ROUNDS and turns[1] and turns[2], turns
        for phone in (host, *friends.values()):   # each phone's Your matches says the match is over
            phone.close()
            page = phone.open()
            tid(page, "my-matches").click()
            page.wait_for_selector('[data-testid="match-item"][data-turn="over"]', timeout=WAIT_MS)
            phone.close()
        print(f"three players when you can: turns {json.dumps({str(k): v for k, v in turns.items()})}, "
              f"the other friend's page checked {waited} times before the host's phone opened")
    finally:
        for phone in (host, *friends.values()):
            if phone.page is not None:
                phone.page.close()
            phone.ctx.close()
    print(f"three-player match when you can, in the browser: {time.monotonic() - started:.0f} s")
