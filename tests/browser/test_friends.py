"""Play with friends, on the real thing: each phone a Playwright browser
context in a private network namespace (tests/browser/netns.py), joined by
a real WebRTC data channel through the invite link and the reply code, the
way people do it (the guest opens the link; the host pastes the reply).

Every page uses ?delay=0 (no pauses, no animations).  The host's computer
seats play at once; the people's taps are made here: on each phone, the
first playable tile (or the draw button), until the hand or match ends.

The host's phone and the friend's are booted once for this module
(:class:`PhonesByRole`); each test starts the app again on them (conftest
``restart``); a reload or an invitation opened again in a test is a real one.
"""
from __future__ import annotations

import io
import json
import sys
import time
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import app_is_healthy, goto_booted, assert_no_py_error, did_fail, restart, wait_ready  # noqa: E402
from domino.engine import deals  # noqa: E402
from domino.engine.records import from_record  # noqa: E402
from a11y import axe_violations  # noqa: E402
from netns import dump_pages, keep_console, netns, netns_browser, phones  # noqa: E402,F401  (fixtures)
from turns import tap_move  # noqa: E402

FAST = "?delay=0"
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-results"
PHONE = {"width": 360, "height": 740}


def tid(page, name):
    return page.locator(f'[data-testid="{name}"]')


def seq(page) -> int:
    return int(page.evaluate("document.documentElement.dataset.seq || '0'"))


class PhonesByRole:
    """The host's phone and the friend's, each a booted page (a context of
    its own in the namespace's browser) kept from test to test: the next
    test starts the app again on it, with nothing stored.  Requests and
    websockets go to the running test's ``phones`` guards."""

    def __init__(self, browser):
        self.browser = browser
        self.pages: dict = {}
        self.phones = None

    def open(self, phones, role: str, tail: str):
        """``role``'s phone at the page's URL + ``tail`` (a query, and an invitation's hash)."""
        self.phones = phones
        page = self.pages.get(role)
        if app_is_healthy(page):
            page.set_viewport_size(PHONE)
            page.evaluate("() => localStorage.clear()")
            restart(page, tail)
            return page
        self.close(role)
        context = self.browser.new_context(service_workers="block")
        context.on("request", lambda r: self.phones._guard(r))
        page = context.new_page()
        page.on("websocket", lambda ws: self.phones._socket(ws))
        keep_console(page)
        page.set_viewport_size(PHONE)
        goto_booted(page, phones.ns.url + tail)
        self.pages[role] = page
        return page

    def close(self, role: str | None = None) -> None:
        for name in [role] if role else list(self.pages):
            page = self.pages.pop(name, None)
            if page is not None:
                try:
                    page.context.close()
                except Exception:
                    pass


@pytest.fixture(scope="module")
def _phones_by_role(netns_browser):
    roles = PhonesByRole(netns_browser)
    yield roles
    roles.close()


@pytest.fixture(autouse=True)
def _shared_phones(request, phones, _phones_by_role):
    """This module's tests open the host's and the friend's phone on the shared pages."""
    phones.by_role = _phones_by_role
    yield
    if did_fail(request.node):
        dump_pages(_phones_by_role.pages, request.node.nodeid)
    if did_fail(request.node) or not all(app_is_healthy(p) for p in _phones_by_role.pages.values()):
        _phones_by_role.close()


def open_phone(phones, query=FAST, hash_="", role=None):
    """A phone at the page: ``role``'s shared one (see PhonesByRole), else a new one."""
    roles = getattr(phones, "by_role", None)
    if roles is not None and role is not None:
        return roles.open(phones, role, query + hash_)
    page = phones.new(path=None)
    page.set_viewport_size(PHONE)
    goto_booted(page, phones.ns.url + query + hash_)
    return page


def host_table(phones, game="draw", players=2, kinds=None, query=FAST + "&seed=7", page=None):
    """The host's phone (``page``, already at the page; else the shared one) at the friends' lobby: the
    game, the players, the seats."""
    host = page or open_phone(phones, query, role="host")
    tid(host, "game").select_option(game)
    if players != 2:
        tid(host, "players").select_option(str(players))
    tid(host, "play-friends").click()
    host.wait_for_selector('[data-testid="friends-panel"]')
    for i, kind in enumerate(kinds or []):
        if kind is not None:
            tid(host, f"seat-kind-{i}").select_option(kind)
            host.wait_for_function(f"""() => {{
                const el = document.querySelector('[data-testid="seat-kind-{i}"]');
                return el && el.value === '{kind}'; }}""")
    assert host.evaluate("document.documentElement.dataset.netRole") == "host"
    return host


def invite_link(host, seat: int) -> str:
    sel = f'[data-testid="invite-{seat}"] [data-testid="invite-link"]'
    host.wait_for_selector(sel, timeout=10_000)
    return host.locator(sel).get_attribute("data-link")


def join(phones, host, seat: int, name: str, query=FAST, start=True):
    """A friend's phone opens the seat's link; the host pastes the reply code; the friend presses Start."""
    link = invite_link(host, seat)
    base, frag = link.split("#", 1)
    assert base == phones.ns.url
    guest = open_phone(phones, query, "#" + frag, role="guest")
    assert guest.evaluate("document.documentElement.dataset.netRole") == "guest"
    tid(guest, "guest-answer").click()         # the friend read the invitation: only now the reply code
    guest.wait_for_selector('[data-testid="reply-code"]', timeout=10_000)
    code = tid(guest, "reply-code").get_attribute("data-code")
    assert code.startswith(f"{seat + 1}.")
    box = host.locator(f'[data-testid="invite-{seat}"] [data-testid="paste-reply"]')
    box.fill(code)
    host.locator(f'[data-testid="invite-{seat}"] [data-testid="accept-reply"]').click()
    guest.wait_for_selector('[data-testid="join-table"]', timeout=10_000)
    host.wait_for_selector(f'[data-testid="seat-status-{seat}"][data-status="joined"]', timeout=10_000)
    if start:
        tid(guest, "guest-name").fill(name)
        tid(guest, "join-table").click()
        host.wait_for_selector(f'[data-testid="seat-status-{seat}"][data-status="ready"]', timeout=10_000)
    return guest


def host_record(host) -> dict:
    text = host.evaluate("""() => {
        for (let i = 0; i < localStorage.length; i++) {
            const k = localStorage.key(i);
            if (k.startsWith('domino:') && k.endsWith(':save')) return localStorage.getItem(k);
        }
        return null; }""")
    return json.loads(text)["record"]


def reinvite(phones, host, guest, seat: int, query=FAST):
    """The host's one tap ("Invite again" at the away seat), the friend opens
    the new link on the same phone, the host pastes the reply code."""
    host.wait_for_selector(f'[data-testid="seat-status-{seat}"][data-status="away"]', timeout=15_000)
    host.locator(f'[data-testid="invite-again-{seat}"]').first.click()
    link = invite_link(host, seat)
    guest.goto(phones.ns.url + query + "#" + link.split("#", 1)[1])
    wait_ready(guest)
    tid(guest, "guest-answer").click()
    guest.wait_for_selector('[data-testid="reply-code"]', timeout=10_000)
    code = tid(guest, "reply-code").get_attribute("data-code")
    host.locator(f'[data-testid="invite-{seat}"] [data-testid="paste-reply"]').fill(code)
    host.locator(f'[data-testid="invite-{seat}"] [data-testid="accept-reply"]').click()
    guest.wait_for_selector(".screen.game", timeout=15_000)
    host.wait_for_selector(f'[data-testid="seat-status-{seat}"][data-status="joined"]', timeout=10_000)


def started(phones, query=FAST + "&seed=7"):
    """Host and one friend (seat 1, Ana) at a started two-player Draw match."""
    host = host_table(phones, query=query)
    guest = join(phones, host, 1, "Ana")
    tid(host, "start-table").click()
    guest.wait_for_selector(".screen.game")
    return host, guest


def tap_turn(page) -> bool:
    """On this phone, if it is its turn: tap the first playable tile (and its
    first place), or draw.  True when it tapped."""
    if page.locator(".screen.game.my-turn").count() == 0:
        return False
    s = seq(page)
    if not tap_move(page):
        return False
    try:
        page.wait_for_function(f"Number(document.documentElement.dataset.seq) !== {s}", timeout=10_000)
    except Exception:
        pass
    return True


def play_hand(pages, done_testid="hand-result", limit=600, moves=None, after=None):
    """Every phone taps its turns until each shows ``done_testid`` (or ``moves`` taps were made).
    ``after``: the seq of a hand's end already handled; a hand-result of that end (or before) is not done."""
    made = 0
    for _ in range(limit):
        if done_testid == "match-result-or-hand":
            if all(ended_after(p, after) for p in pages):
                return
        elif all(p.locator(f'[data-testid="{done_testid}"]').count() for p in pages):
            return
        if moves is not None and made >= moves:
            return
        tapped = False
        for p in pages:
            if tap_turn(p):
                tapped = True
                made += 1
        if not tapped:
            time.sleep(0.05)
    raise AssertionError(f"no {done_testid} on every phone")


def ended_after(page, after=None) -> bool:
    """The phone shows the match's end, or a hand's end later than seq ``after`` (None: any)."""
    return page.evaluate("""after => !!document.querySelector('[data-testid="match-result"]')
        || !!document.querySelector('[data-testid="hand-result"]')
           && (after === null || Number(document.documentElement.dataset.seq) > after)""", after)


def same_table(host, guest):
    """The guest's table shows the host's position."""
    host.wait_for_function("s => Number(document.documentElement.dataset.seq) === s", arg=seq(guest),
                           timeout=10_000)


# ------------------------------------------------------------------ tests
def test_two_phones_play_a_draw_hand_to_the_end(phones):
    host = host_table(phones)
    guest = join(phones, host, 1, "Ana")
    host.screenshot(path=str(OUT / "friends-host-lobby.png"), full_page=True)
    tid(host, "start-table").click()
    host.wait_for_selector(".screen.game")
    guest.wait_for_selector(".screen.game")
    assert tid(guest, "seat-0").count() == 1
    play_hand([host, guest])
    guest.screenshot(path=str(OUT / "friends-guest-hand-end.png"))
    rec = host_record(host)
    m = from_record(rec)
    assert m.phase == "hand-over" or m.outcome
    assert [s["kind"] for s in rec["seats"]] == ["human", "remote"]
    assert rec["seats"][1]["name"] == "Ana"
    # both phones show the same scores
    for p in (host, guest):
        assert_no_py_error(p)
    hs = [host.locator(f'[data-testid="seat-{i}"]').get_attribute("data-score") for i in range(2)]
    gs = [guest.locator(f'[data-testid="seat-{i}"]').get_attribute("data-score") for i in range(2)]
    assert hs == gs
    # the friend taps Next: the host's screen is drawn again (who is ready), and the button under the
    # host's finger stays the same element (a tap that spans a redraw is not lost; nor is the focus)
    host.evaluate("""() => { const b = document.querySelector('[data-testid="next-hand"]');
        b.dominoProbe = 1; b.focus(); window.dominoRedraws = 0;
        new MutationObserver(() => { window.dominoRedraws++; }).observe(
            document.getElementById('app'), {subtree: true, childList: true, attributes: true, characterData: true}); }""")
    tid(guest, "next-hand").click()
    host.wait_for_function("() => window.dominoRedraws > 0", timeout=10_000)   # the host heard the tap
    assert host.evaluate("""() => { const b = document.querySelector('[data-testid="next-hand"]');
        return [b.dominoProbe === 1, document.activeElement === b]; }""") == [True, True]


def deal_next(pages, timeout=20_000) -> int:
    """Every phone that shows Next taps it, then each waits until its table has moved past the hand's end
    (its seq beyond the end's) or shows the match's end; the end's seq is returned (for
    :func:`play_hand`'s ``after``).  A phone that shows "waiting" has not moved on: its
    hand-result is the old hand's until the host's deal reaches it, and a stale end taken for the next one
    clicks a Next that the deal then takes away (a click that waits for a button that never comes back)."""
    ended = [seq(p) for p in pages]
    for p, s in zip(pages, ended):
        btn = tid(p, "next-hand")
        if btn.count():
            try:
                btn.click(timeout=10_000)
            except Exception:
                if seq(p) <= s:      # not dealt meanwhile (a friend nobody waits for): a real failure
                    raise
    for p, s in zip(pages, ended):
        p.wait_for_function("""s => Number(document.documentElement.dataset.seq) > s
            || !!document.querySelector('[data-testid="match-result"]')""", arg=s, timeout=timeout)
    return max(ended)


def play_match(pages, limit=40):
    """Hands to the end of the match: every phone taps its turns and then Next."""
    after = None
    for _ in range(limit):
        play_hand(pages, done_testid="match-result-or-hand", after=after)
        if all(p.locator('[data-testid="match-result"]').count() for p in pages):
            return
        after = deal_next(pages)
    raise AssertionError("the match did not end")


def test_latin_partnership_two_people_on_their_phones_two_computers(phones):
    host = host_table(phones, game="latin", players=4, kinds=["human", "medium", "remote", "medium"])
    assert "1 and 3" in tid(host, "friends-panel").inner_text()
    guest = join(phones, host, 2, "Lola")
    assert [v["id"] for v in axe_violations(host)] == []
    assert [v["id"] for v in axe_violations(guest)] == []
    guest.screenshot(path=str(OUT / "friends-guest-lobby.png"), full_page=True)
    tid(host, "start-table").click()
    guest.wait_for_selector(".screen.game")
    # partners: the guest's partner (the host, seat 0) sits opposite, on the same side
    assert guest.locator('[data-testid="seat-0"]').get_attribute("data-side") == \
        guest.locator('[data-testid="seat-2"]').get_attribute("data-side")
    assert "spot-top" in guest.locator('[data-testid="seat-0"]').get_attribute("class")
    guest.screenshot(path=str(OUT / "friends-guest-latin.png"))
    play_match([host, guest])
    rec = host_record(host)
    m = from_record(rec)
    assert m.outcome is not None
    w_host = host.locator('[data-testid="match-result"]').get_attribute("data-winner")
    w_guest = guest.locator('[data-testid="match-result"]').get_attribute("data-winner")
    assert w_host == w_guest == str(m.outcome["winner"] if m.outcome["winner"] is not None else "")
    for p in (host, guest):
        assert_no_py_error(p)


def test_guest_reload_mid_hand_comes_back_to_its_seat(phones):
    host, guest = started(phones)
    play_hand([host, guest], moves=4)
    before = seq(host)
    guest.reload()
    wait_ready(guest)
    reinvite(phones, host, guest, 1)
    same_table(host, guest)
    assert seq(guest) == seq(host) >= before
    assert tid(guest, "seat-1").get_attribute("data-count") == host.locator(
        '[data-testid="seat-1"]').get_attribute("data-count")
    play_hand([host, guest])
    assert_no_py_error(guest)


def test_guest_gone_the_computer_plays_the_seat_then_the_guest_is_back(phones):
    host, guest = started(phones, query=FAST + "&seed=7&grace=1")
    context = guest.context
    guest.close()
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="away"]', timeout=15_000)
    # after the grace the computer stands in: seat 1 moves with nobody at it
    host.wait_for_selector('[data-testid="net-bar"]')
    host.screenshot(path=str(OUT / "friends-host-away.png"))
    start = seq(host)
    for _ in range(200):
        tap_turn(host)
        rec = host_record(host)
        if any(a.get("seat") == 1 for a in rec["hands"][-1]["actions"]) and seq(host) > start:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the computer did not play the away seat")
    assert from_record(host_record(host)).seats[1]["kind"] == "medium"    # the stand-in, saved
    assert "computer" in tid(host, "net-bar").inner_text().lower() or "computadora" in \
        tid(host, "net-bar").inner_text().lower()
    back = context.new_page()
    back.set_viewport_size(PHONE)
    reinvite(phones, host, back, 1)
    assert from_record(host_record(host)).seats[1]["kind"] == "remote"
    play_hand([host, back])
    assert_no_py_error(back)


def test_host_reload_resumes_and_the_guest_reconnects(phones):
    host, guest = started(phones)
    play_hand([host, guest], moves=3)
    before = seq(host)
    host.reload()
    wait_ready(host)
    host.wait_for_selector(".screen.game")
    assert seq(host) == before
    assert host.evaluate("document.documentElement.dataset.netRole") == "host"
    guest.wait_for_selector('[data-testid="net-banner"]', timeout=15_000)
    reinvite(phones, host, guest, 1)
    same_table(host, guest)
    play_hand([host, guest])
    assert_no_py_error(host)


def test_a_lobby_change_clears_the_starts(phones):
    host = host_table(phones)
    guest = join(phones, host, 1, "Ana")
    assert tid(host, "start-table").is_enabled()
    tid(host, "target").select_option("150")
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="joined"]')
    assert not tid(host, "start-table").is_enabled()
    guest.wait_for_function("""() => (document.querySelector('[data-testid="lobby-code"]') || {}).dataset
                               && document.querySelector('[data-testid="lobby-code"]').dataset.code.startsWith('150')""")
    assert tid(guest, "join-table").get_attribute("aria-pressed") == "false"
    tid(guest, "join-table").click()
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="ready"]')
    assert tid(host, "start-table").is_enabled()


def test_the_host_lets_the_computer_play_for_a_friend_and_gives_the_seat_back(phones):
    host, guest = started(phones)
    tid(host, "seat-controls-toggle").click()
    tid(host, "hand-to-computer").click()
    host.wait_for_selector('[data-testid="give-back"]')
    assert from_record(host_record(host)).seats[1]["kind"] == "medium"     # the stand-in, saved
    assert [v["id"] for v in axe_violations(host)] == []
    tid(host, "end-absence").click()                # asked first
    host.wait_for_selector('[data-testid="absence-dialog"]')
    assert [v["id"] for v in axe_violations(host)] == []
    tid(host, "end-absence-no").click()
    host.wait_for_selector('[data-testid="absence-dialog"]', state="detached")
    assert not from_record(host_record(host)).outcome
    tid(host, "give-back").click()
    host.wait_for_selector('[data-testid="hand-to-computer"]')
    assert from_record(host_record(host)).seats[1]["kind"] == "remote"
    play_hand([host, guest], moves=3)
    assert_no_py_error(host)
    assert_no_py_error(guest)


# ------------------------------------------------------------------ issue 41: the guest checks the host's deal
def review_tiles(page) -> list[list[str]]:
    seats = tid(page, "review-seat")
    return [sorted((seats.nth(i).get_attribute("data-tiles") or "").split()) for i in range(seats.count())]


def test_the_guest_checks_the_deal_and_reviews_the_hand(phones):
    host, guest = started(phones)
    play_hand([host, guest])
    # the guest's phone dealt again from the revealed seed: it says so at the hand's end
    try:
        guest.wait_for_selector('[data-testid="deal-check"]', timeout=10_000)
    except Exception:
        raise AssertionError("the guest's hand's end shows no deal check") from None
    assert tid(guest, "deal-check").get_attribute("data-deal") == "ok"
    assert tid(guest, "net-banner").count() == 0
    assert tid(host, "deal-check").count() == 0          # the host deals: nothing of its own to check
    assert [v["id"] for v in axe_violations(guest)] == [], "the guest's hand's end, with its deal check"
    rec = host_record(host)
    hand = rec["hands"][0]
    # every hand is public once over: the guest reviews it, every seat's tiles as dealt
    tid(guest, "review-hand").click()
    try:
        guest.wait_for_selector('[data-testid="review"][data-step="0"]', timeout=10_000)
    except Exception:
        raise AssertionError("the guest's review did not open at the deal") from None
    assert review_tiles(guest) == [sorted(x) for x in hand["deal"]]
    assert int(tid(guest, "review").get_attribute("data-steps")) == len(hand["actions"])
    seal = tid(guest, "review-seal")
    assert seal.get_attribute("data-matches") == "true" and seal.get_attribute("data-checked-by") == "guest"
    assert seal.get_attribute("data-seed") == deals.deal_seed(rec["seed"], 0)
    assert [v["id"] for v in axe_violations(guest)] == []
    last = int(tid(guest, "review").get_attribute("data-steps"))
    guest.locator('[data-testid="review-step"][data-step="last"]').click()
    guest.wait_for_selector(f'[data-testid="review"][data-step="{last}"]', timeout=10_000)
    assert review_tiles(guest) == [sorted(x) for x in from_record(rec).view(0)["result"]["hands"]]
    # the host reviews the same hand meanwhile, and taps Next: the guest's review holds nobody up
    tid(host, "review-hand").click()
    host.wait_for_selector('[data-testid="review"][data-step="0"]', timeout=10_000)
    assert review_tiles(host) == [sorted(x) for x in hand["deal"]]
    tid(host, "review-close").click()
    tid(host, "next-hand").click()
    host.wait_for_selector('[data-testid="waiting"]', timeout=10_000)
    tid(guest, "review-close").click()
    guest.wait_for_selector('[data-testid="review"]', state="detached", timeout=10_000)
    tid(guest, "next-hand").click()
    try:
        for p in (host, guest):
            p.wait_for_selector('[data-testid="hand-result"]', state="detached", timeout=15_000)
    except Exception:
        raise AssertionError("the next hand was not dealt once both had tapped Next") from None
    same_table(host, guest)
    for p in (host, guest):
        assert_no_py_error(p)


def steered_zip(body: bytes) -> bytes:
    """The game's package as a host that steers its deals would serve it: every boneyard in the reverse of
    its seed's order (the fingerprint and the revealed seed stay honest)."""
    src = zipfile.ZipFile(io.BytesIO(body))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            name = info.filename
            if name.startswith("domino/engine/__pycache__/deals."):
                continue                                # its bytecode would be used instead of the source
            data = src.read(name)
            if name == "domino/engine/deals.py":
                text = data.decode("utf-8")
                honest = "    return hands, rest[i:]\n"
                assert text.count(honest) == 1, "deals.deal_from changed: update the steered copy"
                data = text.replace(honest, "    return hands, rest[i:][::-1]\n").encode("utf-8")
            dst.writestr(info, data)
    return out.getvalue()


def test_a_host_that_steers_the_boneyard_is_caught_on_the_guests_page(phones):
    # seed 5: the host opens with 6-6 and the friend holds no 6, so the friend draws at once from the
    # (steered) boneyard: tiles the seed put elsewhere
    host = phones.new(path=None)
    sys.path.insert(0, str(ROOT / "scripts"))
    import build_zip                      # the package as the test server serves it, built from this tree
    build_zip.ensure(ROOT)
    body = steered_zip((ROOT / build_zip.ZIP_NAME).read_bytes())
    host.route("**/domino.zip*", lambda route: route.fulfill(status=200, content_type="application/zip", body=body))
    host.set_viewport_size(PHONE)
    goto_booted(host, phones.ns.url + FAST + "&seed=5")
    host = host_table(phones, page=host)
    guest = join(phones, host, 1, "Ana")
    tid(host, "start-table").click()
    guest.wait_for_selector(".screen.game")
    play_hand([host, guest])
    rec = host_record(host)
    assert any(a["seat"] == 1 and "draw" in a for a in rec["hands"][0]["actions"]), "the friend drew"
    assert rec["hands"][0]["boneyard"] != deals.deal_from(deals.deal_seed(rec["seed"], 0), 0, 28, [7, 7])[1]
    try:
        guest.wait_for_selector('[data-testid="deal-check"][data-deal="bad"]', timeout=10_000)
    except Exception:
        raise AssertionError("the guest's page does not say the deal was steered") from None
    assert [v["id"] for v in axe_violations(guest)] == [], "the guest's hand's end, with the warning"
    banner = tid(guest, "net-banner").inner_text()
    assert "1" in banner and ("NO" in banner or "NOT" in banner), banner
    # the review cannot be built from the revealed seed: the friend's draws are not the seed's
    tid(guest, "review-hand").click()
    try:
        guest.wait_for_selector('[data-testid="review-failed"]', timeout=10_000)
    except Exception:
        raise AssertionError("the guest's review does not say the hand cannot be replayed") from None
    assert [v["id"] for v in axe_violations(guest)] == []
    assert_no_py_error(guest)
