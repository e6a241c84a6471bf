"""Play over the internet, on the real thing: phones (browser contexts in the
private network namespace of tests/browser/netns.py) meet only through a real
Nostr relay (scripts/nostr_relay.py, started on the namespace's veth
address), with the real Trystero over real websockets and WebRTC, then play
over the data channel.  No invitation offer, no reply code.

Each phone's saved settings name the test relay and no STUN server
(``ice: []``): nothing else is contacted, and the phones fixture fails any
websocket to another address.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import assert_no_py_error, goto_booted, wait_ready  # noqa: E402
from domino.engine.records import from_record  # noqa: E402
from a11y import axe_violations  # noqa: E402
from netns import netns, netns_browser, phones  # noqa: E402,F401  (fixtures)
from relay import NsRelay, ns_relay  # noqa: E402,F401  (fixture)
from test_friends import FAST, OUT, PHONE, host_record, play_hand, same_table, seq, tid  # noqa: E402

SETTINGS_KEY = "domino:/domino/:settings"
NAME = "Xiomara Q"        # a space: never inside base64 ciphertext by chance
# only when the page has no settings yet: the app's own writes (names, language) are kept on reloads
SEED_SETTINGS = """([k, v]) => { if (!localStorage.getItem(k)) localStorage.setItem(k, v); }"""


def phone(phones, relays, hash_="", query=FAST):
    """A new phone whose settings name ``relays`` and no STUN server, at the page (with an invitation)."""
    page = phones.new(path=None)
    page.set_viewport_size(PHONE)
    opened: list[str] = []                       # this phone's own websockets
    page.on("websocket", lambda ws: opened.append(ws.url))
    page.opened_sockets = opened
    settings = json.dumps({"relays": list(relays), "ice": []})
    page.context.add_init_script(f"({SEED_SETTINGS})({json.dumps([SETTINGS_KEY, settings])})")
    goto_booted(page, phones.ns.url + query + hash_)
    return page


def online_host(phones, relays, players=2, query=FAST + "&seed=7"):
    """The host's phone at the friends' lobby with "Play over the internet" on."""
    for r in relays:
        phones.relays.add(r)
    host = phone(phones, relays, query=query)
    if players != 2:
        tid(host, "players").select_option(str(players))
    try:
        host.wait_for_selector('[data-testid="play-friends"]', timeout=30_000)
    except Exception:      # say what the screen was instead (seen once on a loaded machine)
        raise AssertionError("no Play with friends button; the screen: "
                             + str(host.evaluate("[...document.querySelectorAll('[data-testid]')]"
                                                 ".map(e => e.dataset.testid).slice(0, 40)"))
                             + " " + host.inner_text("body")[:400]) from None
    tid(host, "play-friends").click()
    host.wait_for_selector('[data-testid="friends-panel"]')
    assert tid(host, "online-notice").count() == 0            # off until turned on
    tid(host, "online-switch").click()
    host.wait_for_selector('[data-testid="online-notice"]')
    return host


def online_link(host, seat: int) -> str:
    sel = f'[data-testid="invite-{seat}"] [data-testid="invite-link"]'
    host.wait_for_selector(sel, timeout=10_000)
    link = host.locator(sel).get_attribute("data-link")
    assert "#online=" in link
    return link


def online_guest(phones, host, seat: int, name: str | None, link: str | None = None, relays=()):
    """A friend opens the link, reads the notice, joins; with a name, presses Start."""
    link = link or online_link(host, seat)
    guest = phone(phones, relays, "#" + link.split("#", 1)[1])
    notice = tid(guest, "online-notice")
    notice.wait_for(timeout=10_000)
    assert "relay" in notice.inner_text()
    assert guest.opened_sockets == []            # nothing contacted before the friend taps Join
    tid(guest, "online-join").click()
    if name is None:
        return guest
    guest.wait_for_selector('[data-testid="join-table"]', timeout=20_000)
    host.wait_for_selector(f'[data-testid="seat-status-{seat}"][data-status="joined"]', timeout=10_000)
    tid(guest, "guest-name").fill(name)
    tid(guest, "join-table").click()
    host.wait_for_selector(f'[data-testid="seat-status-{seat}"][data-status="ready"]', timeout=10_000)
    return guest


def relay_left(relay, timeout: float = 20.0) -> None:
    """Wait until every websocket that connected to ``relay`` has disconnected (the phones
    paused); else fail naming the connections still open."""
    deadline = time.monotonic() + timeout
    while True:
        log = relay.log()
        still = ({r["conn"] for r in log if r.get("ev") == "connect"}
                 - {r["conn"] for r in log if r.get("ev") == "disconnect"})
        if not still:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"connections {sorted(still)} still open on the relay after {timeout:.0f} s")
        time.sleep(0.1)


def started(phones, relay):
    host = online_host(phones, [relay.url])
    host.wait_for_selector('[data-testid="relay-status"][data-status="connected"]', timeout=10_000)
    guest = online_guest(phones, host, 1, "Ana")
    tid(host, "start-table").click()
    guest.wait_for_selector(".screen.game", timeout=15_000)
    return host, guest


def test_two_phones_meet_through_the_relay_and_play_a_hand(phones, ns_relay):
    t0 = time.perf_counter()
    host = online_host(phones, [ns_relay.url])
    host.wait_for_selector('[data-testid="relay-status"][data-status="connected"]', timeout=10_000)
    assert ns_relay.url.split("//")[1] in tid(host, "relay-status").inner_text()
    tid(host, "online-settings").locator("summary").click()     # the relays and servers, open
    for scheme in ("light", "dark"):
        host.emulate_media(color_scheme=scheme)
        found = axe_violations(host)
        assert [v["id"] for v in found] == [], (scheme, [v["nodes"] for v in found])
    host.screenshot(path=str(OUT / "online-host-lobby.png"), full_page=True)
    guest = online_guest(phones, host, 1, None)
    guest.wait_for_selector('[data-testid="join-table"]', timeout=20_000)
    assert guest.locator('[data-testid="reply-code"]').count() == 0      # no reply code over the internet
    assert [v["id"] for v in axe_violations(guest)] == []
    tid(guest, "guest-name").fill(NAME)
    tid(guest, "join-table").click()
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="ready"]', timeout=10_000)
    met = time.perf_counter() - t0
    # the table is full: both stop contacting the relay
    host.wait_for_selector('[data-testid="relay-status"]:has-text("no longer contacted")', timeout=5_000)
    tid(host, "start-table").click()
    guest.wait_for_selector(".screen.game", timeout=15_000)
    relay_left(ns_relay)   # both paused: the guest's pause follows its welcome, then the sockets close
    heard = len([r for r in ns_relay.log() if r.get("dir") == "in"])
    play_hand([host, guest])
    assert len([r for r in ns_relay.log() if r.get("dir") == "in"]) == heard     # no announcing meanwhile
    rec = host_record(host)
    assert rec["seats"][1]["name"] == NAME and [s["kind"] for s in rec["seats"]] == ["human", "remote"]
    m = from_record(rec)
    assert m.phase == "hand-over" or m.outcome
    hs = [host.locator(f'[data-testid="seat-{i}"]').get_attribute("data-score") for i in range(2)]
    gs = [guest.locator(f'[data-testid="seat-{i}"]').get_attribute("data-score") for i in range(2)]
    assert hs == gs
    # the relay carried encrypted signalling only: no name, no tile, no table code in any event
    events = ns_relay.events()
    assert events and len(ns_relay.peers()) >= 1
    blob = json.dumps(events)
    assert NAME not in blob and "domino-net/1" not in blob and '"sdp"' not in blob
    # the pages opened websockets to the configured relay and nothing else
    assert {u.rstrip("/") for u in phones.sockets} == {ns_relay.url}
    for p in (host, guest):
        assert_no_py_error(p)
    print(f"met through the relay in {met:.1f} s")


def test_a_wrong_password_never_joins(phones, ns_relay):
    host = online_host(phones, [ns_relay.url])
    link = online_link(host, 1)
    base, frag = link.split("#", 1)
    parts = frag.split(".")
    parts[3] = "Z" * len(parts[3])        # the password
    guest = online_guest(phones, host, 1, None, link=base + "#" + ".".join(parts))
    guest.wait_for_selector('[data-testid="relay-status"][data-status="connected"]', timeout=10_000)
    time.sleep(6)                           # several announcements both ways
    assert guest.locator('[data-testid="join-table"]').count() == 0
    assert guest.locator('[data-testid="online-looking"]').count() == 1
    assert host.locator('[data-testid="seat-status-1"]').get_attribute("data-status") == "invited"
    assert_no_py_error(guest)


def test_a_relay_down_is_said_and_the_others_are_tried(phones, netns, ns_relay):
    dead = f"ws://{netns.address}:7999"      # nothing listens there
    with NsRelay(netns, port=7448, reject_all=True) as refusing:     # this one answers "no" to every event
        host = online_host(phones, [dead, refusing.url])
        status = host.locator('[data-testid="relay-status"][data-status="failed"]')
        status.wait_for(timeout=25_000)
        text = status.inner_text()
        assert "No relay answered" in text and f"{netns.address}:7999" in text and "Wi-Fi" in text
        host.screenshot(path=str(OUT / "online-relay-down.png"), full_page=True)
    # the player puts other relays in the settings: the table rejoins with them at once;
    # with one down and one up the live one is used, and the dead one named
    phones.relays.add(ns_relay.url)
    tid(host, "online-settings").locator("summary").click()
    tid(host, "relays").fill(f"{dead}\n{ns_relay.url}")
    tid(host, "online-save").click()
    host.wait_for_selector('[data-testid="online-note"]:has-text("saved")')
    host.wait_for_selector('[data-testid="relay-status"][data-status="connected"]', timeout=15_000)
    host.wait_for_function("""() => document.querySelector('[data-testid="relay-status"]')
                                 .innerText.includes('No answer from')""", timeout=20_000)
    assert json.loads(host.evaluate(f"localStorage.getItem('{SETTINGS_KEY}')"))["relays"] == [dead, ns_relay.url]
    guest = online_guest(phones, host, 1, "Ana", relays=[dead, ns_relay.url])
    assert guest.locator('[data-testid="join-table"]').count() == 1
    for p in (host, guest):
        assert_no_py_error(p)


def test_a_guest_reload_rejoins_through_the_relay_then_the_relay_stops_and_the_game_goes_on(phones, ns_relay):
    host, guest = started(phones, ns_relay)
    play_hand([host, guest], moves=3)
    before = seq(host)
    guest.reload()
    wait_ready(guest)
    # consent was given for this table: no question again, the relay finds the host
    guest.wait_for_selector(".screen.game", timeout=30_000)
    same_table(host, guest)
    assert seq(guest) == seq(host) >= before
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="joined"]', timeout=10_000)
    ns_relay.stop()                          # the table is connected: the relay is no longer needed
    play_hand([host, guest])
    m = from_record(host_record(host))
    assert m.phase == "hand-over" or m.outcome
    same_table(host, guest)
    for p in (host, guest):
        assert_no_py_error(p)


IMPOSTOR = """async ([room, password, secret, relays]) => {
  await new Promise((ok, fail) => {
    const s = document.createElement("script");
    s.src = "../online.js"; s.onload = ok; s.onerror = fail;
    document.head.appendChild(s);
  });
  window.heard = []; window.opened = 0;
  window.dominoRtc.handlers = {open: () => { window.opened++; }, message: (id, text) => window.heard.push(text),
                               close: () => {}};
  // says it is the host of that room (both the room-per-table and the room-per-seat ways of joining)
  await window.dominoOnline.join({room, password, rooms: [{room, password, secret}], relays, ice: [],
                                  role: "host"});
}"""


def invitation(link: str) -> dict:
    seat, secret, room, password = link.split("#online=", 1)[1].split(".")[:4]
    return {"seat": int(seat) - 1, "secret": secret, "room": room, "password": password}


def impostor(phones, room: str, password: str, secret: str, relay: str):
    """A page with static/online.js alone, in ``room`` with ``password``, claiming to be the host."""
    page = phones.new()                              # static/bench/rtc-probe.html: rtc.js, no runtime
    page.evaluate(IMPOSTOR, [room, password, secret, [relay]])
    page.wait_for_function("window.dominoOnline.status().state === 'connected'", timeout=10_000)
    return page


def test_nobody_but_the_host_gets_a_friends_secret(phones, ns_relay):
    host = online_host(phones, [ns_relay.url], players=3)
    host.wait_for_selector('[data-testid="relay-status"][data-status="connected"]', timeout=10_000)
    ana, bea = invitation(online_link(host, 1)), invitation(online_link(host, 2))
    assert (ana["room"], ana["password"]) != (bea["room"], bea["password"])     # a room per friend
    # Bea runs pages that say they are the host: with her own link; in Ana's room (its name leaked)
    # with her password; and in Ana's room with Ana's password but without Ana's secret
    fakes = [impostor(phones, bea["room"], bea["password"], bea["secret"], ns_relay.url),
             impostor(phones, ana["room"], bea["password"], bea["secret"], ns_relay.url),
             impostor(phones, ana["room"], ana["password"], bea["secret"], ns_relay.url)]
    # Ana opens her link while the real host is off the relays (its sockets closed, as when its
    # table is full): the fakes alone answer in her room, so she must meet the one that knows her
    # room's password and refuse it, for it cannot answer her challenge without her secret
    host.evaluate("window.dominoOnline.pause()")
    host.wait_for_function("window.dominoOnline.status().state === 'paused'", timeout=10_000)
    guest = online_guest(phones, host, 1, None)
    try:
        guest.wait_for_function("window.dominoOnline.status().refused >= 1", timeout=30_000)
    except Exception:
        raise AssertionError("Ana never met (and refused) the fake in her room: "
                             + json.dumps(guest.evaluate("window.dominoOnline.status()"))) from None
    assert guest.locator('[data-testid="join-table"]').count() == 0     # no table from a fake
    # the real host comes back to the relays: today's Ana meets it (before the fix she could have
    # met a fake one instead)
    host.evaluate("window.dominoOnline.resume()")
    guest.wait_for_selector('[data-testid="join-table"]', timeout=30_000)
    for fake in fakes:
        heard = fake.evaluate("window.heard")
        assert not [t for t in heard if ana["secret"] in t], heard
        assert fake.evaluate("window.opened") == 0 and heard == []
    assert guest.locator('[data-testid="join-table"]').count() == 1
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="joined"]', timeout=10_000)
    tid(host, "seat-kind-2").select_option("medium")      # Bea's seat to the computer: Ana and the host play
    host.wait_for_selector('[data-testid="invite-2"]', state="detached", timeout=10_000)
    tid(guest, "guest-name").fill("Ana")
    tid(guest, "join-table").click()
    host.wait_for_selector('[data-testid="seat-status-1"][data-status="ready"]', timeout=10_000)
    tid(host, "start-table").click()
    guest.wait_for_selector(".screen.game", timeout=15_000)
    play_hand([host, guest])
    m = from_record(host_record(host))
    assert m.phase == "hand-over" or m.outcome
    assert [fake.evaluate("window.heard") for fake in fakes] == [[], [], []]
    for p in (host, guest):
        assert_no_py_error(p)
