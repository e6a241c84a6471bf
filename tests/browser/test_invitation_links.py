"""Every kind of link opened on a phone: one that never saw the game (a fresh
context: nothing stored) and one that did (a match under way, its snapshot
stored).  An invitation (``#join=``, ``#online=``: domino/app/links.py) shows
the guest's invitation screen from the first paint, never the new-game screen
(static/first.js) nor the phone's own last screen (static/boot.js), and no
WebRTC connection is made before the friend taps; any other fragment is not
the game's: the page opens as without one.

The invitations here need no host: the same-Wi-Fi one carries a real
Chromium offer whose one candidate is this machine's loopback (nothing else
is reached when the tap makes the answer); the internet one is not tapped
(that would contact the relays: tests/browser/test_online.py does, and the
last test here, with two fresh phones in the private network namespace).
"""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import assert_no_py_error, wait_ready  # noqa: E402
from domino.net import sdp  # noqa: E402
from tests.net.test_sdp import SAMPLES  # noqa: E402
from a11y import axe_violations  # noqa: E402
from pwa_helpers import PLAYABLE, start_vs_computer  # noqa: E402
from netns import netns, netns_browser, phones  # noqa: E402,F401  (fixtures)
from relay import ns_relay  # noqa: E402,F401  (fixture)

QUERY = "?seed=7&delay=0"
PHONE = {"width": 360, "height": 740}
SECRET = "Zq7_k2LmP0xW"


def _offer_code() -> str:
    s = sdp.parse_sdp(SAMPLES[("mdns_v4", "offer")])
    return sdp.encode(dataclasses.replace(s, candidates=(sdp.Candidate("127.0.0.1", 9),)))


LINKS = {
    "join": f"#join=2.{SECRET}.{_offer_code()}",
    "online": f"#online=2.{SECRET}.RoomRoom1234.PasswordPassword1",
    "garbage": "#rules=1&x=<b>",
    "none": "",
}

# Before the page's scripts: every screen #app showed (by test id), whether
# first.js or boot.js painted, and every RTCPeerConnection made.
RECORDER = """
(() => {
  window.__screens = []; window.__pcs = 0;
  const R = window.RTCPeerConnection;
  if (R) window.RTCPeerConnection = new Proxy(R, {construct(t, args, nt) {
    window.__pcs++; return Reflect.construct(t, args, nt); }});
  new MutationObserver(() => {
    const app = document.getElementById('app'), top = app && app.firstElementChild;
    const id = top && (top.getAttribute('data-testid') || top.className);
    if (id && id !== window.__screens[window.__screens.length - 1]) window.__screens.push(id);
  }).observe(document, {childList: true, subtree: true});
})();
"""
SEEN = """() => ({screens: window.__screens, pcs: window.__pcs, first: !!(window.dominoFirst || {}).painted,
                 boot: (window.dominoBoot || {}).snapshot, role: document.documentElement.dataset.netRole || null,
                 errors: document.querySelectorAll('.py-error').length})"""


def _context(browser, site):
    ctx = browser.new_context(service_workers="block", viewport=PHONE)
    left: list[str] = []
    ctx.on("request", lambda r: None if r.url.startswith((site.origin + "/", "data:", "blob:", "about:"))
           else left.append(r.url))
    ctx.add_init_script(RECORDER)
    ctx.left = left
    return ctx


def _open(ctx, site, link: str):
    page = ctx.new_page()
    page.goto(site.url + QUERY + link)
    wait_ready(page)
    page.wait_for_timeout(300)       # a render that would follow the first one
    return page, page.evaluate(SEEN)


def _check_invitation(kind: str, page, seen: dict) -> None:
    assert seen["screens"] and set(seen["screens"]) == {"guest"}, seen      # the first screen, and the only one
    assert seen["first"] is False and seen["boot"] == "none" and seen["role"] == "guest", seen
    assert seen["pcs"] == 0, "a WebRTC connection before the friend's tap"
    assert page.locator('[data-testid="guest-error"]').count() == 0
    assert "2" in page.locator('[data-testid="guest"] h2 + p').inner_text()        # the seat
    button = "guest-answer" if kind == "join" else "online-join"
    assert page.locator(f'[data-testid="{button}"]').is_visible()
    assert page.locator('[data-testid="reply-code"]').count() == 0
    assert_no_py_error(page)


@pytest.mark.parametrize("kind", list(LINKS))
def test_a_link_on_a_phone_that_never_saw_the_game(browser, site, kind):
    ctx = _context(browser, site)
    page, seen = _open(ctx, site, LINKS[kind])
    if kind in ("join", "online"):
        _check_invitation(kind, page, seen)
    else:
        # the first visit's new-game screen, painted before Python and taken over by it
        assert seen["first"] is True and seen["screens"] == ["new-game"], seen
        assert page.locator('[data-testid="new-game"]').is_visible() and seen["role"] is None
        assert_no_py_error(page)
    if kind == "join":
        assert [v["id"] for v in axe_violations(page)] == []
        page.locator('[data-testid="guest-answer"]').click()          # the tap: now the answer
        page.wait_for_selector('[data-testid="reply-code"]', timeout=15_000)
        assert page.evaluate("window.__pcs") == 1
        assert page.locator('[data-testid="reply-code"]').get_attribute("data-code").startswith("2.1")
        assert page.locator('[data-testid="guest-answer"]').count() == 0
    assert ctx.left == [], ctx.left
    ctx.close()


def test_links_on_a_phone_with_a_match_under_way(browser, site):
    ctx = _context(browser, site)
    page, _ = _open(ctx, site, "")
    start_vs_computer(page)
    page.locator(PLAYABLE).first.click()
    page.wait_for_function("document.documentElement.dataset.busy === '0'", timeout=20_000)
    page.close()                     # pagehide: the snapshot is stored
    stored = ctx.new_page()
    stored.goto(site.url + "static/favicon.svg")
    assert stored.evaluate("Object.keys(localStorage).some(k => k.endsWith(':snapshot'))")
    assert stored.evaluate("Object.keys(localStorage).some(k => k.endsWith(':save'))")
    stored.close()
    own = None
    for kind in ("none", "join", "online", "garbage"):
        page, seen = _open(ctx, site, LINKS[kind])
        if kind in ("join", "online"):
            _check_invitation(kind, page, seen)
        else:
            # the phone's own table: its snapshot painted, then the live one
            assert seen["boot"] == "painted" and seen["first"] is False and seen["role"] is None, seen
            assert page.locator('[data-testid="board"]').is_visible()
            own = own or seen["screens"]
            assert seen["screens"] == own
            assert_no_py_error(page)
        page.close()
    assert ctx.left == [], ctx.left
    ctx.close()


def test_a_friend_who_never_opened_the_game_joins_over_the_internet(phones, ns_relay):
    """The host (its relay set: the tests' one) turns on play over the internet;
    the friend's phone has nothing stored (not even settings): the link shows
    the invitation, the tap joins through the relay the link names, and the
    friend reaches the table."""
    from test_online import online_host, online_link
    host = online_host(phones, [ns_relay.url])
    host.wait_for_selector('[data-testid="relay-status"][data-status="connected"]', timeout=10_000)
    link = online_link(host, 1)
    guest = phones.new(path=None)
    guest.set_viewport_size(PHONE)
    guest.context.add_init_script(RECORDER)
    guest.goto(phones.ns.url + "?delay=0#" + link.split("#", 1)[1])
    wait_ready(guest)
    seen = guest.evaluate(SEEN)
    _check_invitation("online", guest, seen)
    assert phones.sockets == [s for s in phones.sockets if s.rstrip("/") == ns_relay.url]
    guest.locator('[data-testid="online-join"]').click()
    guest.wait_for_selector('[data-testid="join-table"]', timeout=30_000)
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="joined"]', timeout=10_000)
    guest.locator('[data-testid="guest-name"]').fill("Ana")
    guest.locator('[data-testid="join-table"]').click()
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="ready"]', timeout=10_000)
    host.locator('[data-testid="start-table"]').click()
    guest.wait_for_selector(".screen.game", timeout=20_000)
    assert guest.evaluate(SEEN)["screens"][0] == "guest"
    for p in (host, guest):
        assert_no_py_error(p)
