"""The clock's rules of a match played when each can, in the browser (issue 40, step 3): two phones (a
context each) and the project's relay, the pages' clock moved forward.  A friend away from their turn for
more than 2 days: the host's table offers Tell <name> and End for absence, and the match ends with the
friend losing on both phones; then a new match with no move for 7 days ends with no winner, on the
friend's phone at once and on the host's when it opens the match."""
from __future__ import annotations

import time

from a11y import axe_violations
from test_later import (HOUR_MS, T0_MS, WAIT_MS, Phone, my_turn, open_friend, open_host, play_turn, relay,
                        stored, synced, tid, wait_either)

DAY_MS = 24 * HOUR_MS
__all__ = ["relay"]      # the fixture, imported for this module's tests


def start_and_join(host: Phone, friend: Phone) -> tuple[str, object, object]:
    """The host starts a match when you can and the friend joins, both pages open: the friend's link (as a
    page address tail), the host's page and the friend's."""
    page = host.open("?delay=0&seed=160")
    tid(page, "play-friends").click()
    tid(page, "play-later").check()
    page.wait_for_selector('[data-testid="later-rules"]', timeout=WAIT_MS)
    assert "7 days" in tid(page, "later-rules").inner_text()
    tid(page, "start-table").click()
    page.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
    tid(page, "later-more").click()
    link = page.locator('[data-testid="later-invite-1"] [data-testid="invite-link"]').get_attribute("data-link")
    stored(page)
    fragment = "?delay=0#" + link.split("#", 1)[1]
    fp = friend.open(fragment)
    tid(fp, "later-join").click()
    fp.wait_for_selector('[data-testid="later-bar"]', timeout=WAIT_MS)
    synced(fp)
    return fragment, page, fp


def start_match(host: Phone, friend: Phone) -> str:
    """:func:`start_and_join`, then moves until it is the friend's turn; both pages closed.  The friend's
    link (as a page address tail)."""
    fragment, page, fp = start_and_join(host, friend)
    wait_either((page, fp), "document.querySelector('.screen.game.my-turn')", "its turn")
    if my_turn(page):
        assert play_turn(page) > 0
        fp.wait_for_selector(".screen.game.my-turn", timeout=WAIT_MS)
    assert my_turn(fp)
    host.close()
    friend.close()
    return fragment


def test_end_for_absence_after_two_days_and_the_seven_day_end(browser, site, relay):
    started = time.monotonic()
    host = Phone(browser, site, relay.url, T0_MS)
    friend = Phone(browser, site, relay.url, T0_MS)
    try:
        fragment = start_match(host, friend)
        # a day later the friend has not played: nothing to end yet, but the host can tell them
        host.now_ms += DAY_MS
        page = open_host(host)
        assert tid(page, "end-absence").count() == 0
        assert tid(page, "tell-turn").inner_text().startswith("Tell ")
        tid(page, "tell-turn").click()
        page.wait_for_selector('[data-testid="shared"]', timeout=WAIT_MS)     # shared, copied or said failed
        host.close()
        # more than two days: End for absence
        host.now_ms += DAY_MS + HOUR_MS
        page = open_host(host)
        button = tid(page, "end-absence")
        assert button.inner_text().startswith("End for ") and "absence" in button.inner_text()
        assert not axe_violations(page), "the host's table offering End for absence"
        button.click()
        page.wait_for_selector('[data-testid="match-ended"][data-ended="absence"]', timeout=WAIT_MS)
        stored(page)
        assert not axe_violations(page), "the match ended for absence"
        host.close()
        friend.now_ms = host.now_ms + HOUR_MS
        fp = open_friend(friend, fragment)
        fp.wait_for_selector('[data-testid="match-ended"][data-ended="absence"]', timeout=WAIT_MS)
        friend.close()

        # a new match; then nobody moves for 7 days
        host.now_ms += HOUR_MS
        friend.now_ms = host.now_ms
        fragment = start_match(host, friend)
        friend.now_ms = host.now_ms = host.now_ms + 7 * DAY_MS + HOUR_MS
        fp = open_friend(friend, fragment)
        assert "no move for 7 days" in tid(fp, "later-status").inner_text()
        assert not my_turn(fp)
        friend.close()
        page = open_host(host)
        page.wait_for_selector('[data-testid="match-ended"][data-ended="idle"]', timeout=WAIT_MS)
        stored(page)
        host.close()
        for phone, tail in ((host, "?delay=0"), (friend, "?delay=0")):
            p = phone.open(tail)
            tid(p, "my-matches").click()
            p.wait_for_selector('[data-testid="match-item"]', timeout=WAIT_MS)
            synced(p)
            said = [x.inner_text() for x in p.locator('[data-testid="match-item"]').all()]
            assert any("no move for 7 days" in s for s in said) and any("absence" in s for s in said), said
            assert p.locator('[data-testid="match-item"][data-turn="over"]').count() == 2
            phone.close()
    finally:
        for phone in (host, friend):
            if phone.page is not None:
                phone.page.close()
            phone.ctx.close()
    print(f"absence and the 7-day end, in the browser: {time.monotonic() - started:.0f} s")
