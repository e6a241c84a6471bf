"""Play over the internet through the app's one path: the opt-in, the link,
the guest's consent, the relays' status in words, the pause once the table is
full, reloads, and the internet settings.  A fake room stands in for
static/online.js: phones that joined one room with one password meet (each
gets a connection), others never do; the protocol on the connections is the
real one (domino.net)."""
from __future__ import annotations

import json

import pytest

from domino.app import online
from domino.app.nodes import find, text_of
from domino.app.session import MemoryStore, Session
from domino.table import REMOTE
from tests.test_friends_session import BASE, Net, _play_out, screen_text

RELAY = "ws://198.18.7.1:7447"


class Rooms(Net):
    """The relays: who joined which rooms (password, secret, role), paused or not.

    Like static/online.js, a host and a guest of one room and password meet only
    when the guest's secret is the one the host keeps for that room (the proof
    both sides make before a peer is handed over); a claimed host without it is
    refused (``refused``)."""

    def __init__(self):
        super().__init__()
        self.joined: dict[str, dict] = {}      # device -> its online-join command (+ "paused")
        self.commands: list[tuple[str, dict]] = []
        self.refused: list[tuple[str, str]] = []   # (host, guest) that met in a room without the proof

    def command(self, who, cmd):
        op = cmd["op"]
        if not op.startswith("online-"):
            return super().command(who, cmd)
        self.commands.append((who, cmd))
        if op == "online-join":
            self.joined[who] = dict(cmd, paused=False)
            self.feed(who, {"action": "net-relay", "status": {
                "state": "connected", "relays": [{"url": u, "state": "open"} for u in cmd["relays"]]}})
            self.meet()
        elif op == "online-rooms":
            self.joined[who]["rooms"] = cmd["rooms"]
            self.meet()
        elif op == "online-leave":
            self.joined.pop(who, None)
        elif op in ("online-pause", "online-resume"):
            self.joined[who]["paused"] = op == "online-pause"
            if op == "online-resume":
                self.meet()

    def meet(self):
        """A host and a guest in one room with one password, both contacting the relays, and the guest's
        secret the host's for that room: they connect."""
        paired = {(a, b) for (a, _), (b, _) in self.pairs.items()}
        for h, hc in list(self.joined.items()):
            if hc["role"] != "host" or hc["paused"]:
                continue
            for g, gc in list(self.joined.items()):
                if gc["role"] != "guest" or gc["paused"] or (h, g) in paired or g not in self.devices:
                    continue
                mine = gc["rooms"][0]
                theirs = [r for r in hc["rooms"] if (r["room"], r["password"]) == (mine["room"], mine["password"])]
                if not theirs:
                    continue
                if theirs[0]["secret"] != mine["secret"]:
                    self.refused.append((h, g))
                    continue
                a, b = self.conn(), self.conn()
                self.pairs[(h, a)], self.pairs[(g, b)] = (g, b), (h, a)
                self.feed(h, {"action": "net-open", "conn": a})
                self.feed(g, {"action": "net-open", "conn": b})

    def ops(self, who: str) -> list[str]:
        return [c["op"] for w, c in self.commands if w == who]

    def rooms(self, who: str) -> list[dict]:
        """The rooms ``who`` is in now."""
        return self.joined[who]["rooms"]


def one(s: Session, testid: str):
    """The element with that test id on the session's screen, or None."""
    found = find(s.screen(), data_testid=testid)
    return found[0] if found else None


def online_host(net: Rooms, players: int = 2, relays=None) -> Session:
    store = net.host_store
    store.set("domino:/domino/:settings", json.dumps({"relays": relays or [RELAY], "ice": []}))
    host = net.host()
    if players != 2:
        host.new_settings = dict(host.new_settings, players=players)
    net.tap("host", action="play-friends")
    net.tap("host", action="online-switch")
    return host


def guest(net: Rooms, name: str, seat: int, store=None, consent=True) -> Session:
    link = net.devices["host"].link.link_for(seat)
    assert link.startswith(BASE + "#online=")
    g = net.session(name, store or MemoryStore(), join=link.split("#", 1)[1])
    if consent and g.link.state == "consent":
        net.tap(name, action="online-join")
    return g


def test_links_and_settings_are_read_strictly():
    room = online.new_room()
    link = online.online_link(BASE, 2, "s3cr3t_-x", room, [RELAY])
    inv = online.parse_online(link.split("#", 1)[1])
    assert inv == {"seat": 2, "secret": "s3cr3t_-x", "room": room["room"], "password": room["password"],
                   "relays": [RELAY]}
    default = online.online_link(BASE, 0, "abc", room, list(online.DEFAULT_RELAYS))
    assert default.count(".") == online.online_link(BASE, 0, "abc", room, [RELAY]).count(".") - 1
    assert online.parse_online(default.split("#", 1)[1])["relays"] is None   # the guest's own list
    for bad in ("online=9.a.b.c", "online=2.abc", "online=2.s.short.pw", "online=2.s.abcdefgh.abcdefgh.@@"):
        with pytest.raises(online.OnlineError):
            online.parse_online(bad)
    assert online.parse_relays("wss://a.example\n ws://10.0.0.2:7447, wss://a.example") == [
        "wss://a.example", "ws://10.0.0.2:7447"]
    for bad in ("https://a.example", "", "wss://a b", "javascript:alert(1)"):
        with pytest.raises(online.OnlineError):
            online.parse_relays(bad)
    assert online.parse_ice("stun:stun.example:3478\nturn:turn.example:3478 ana pw") == [
        {"urls": "stun:stun.example:3478"},
        {"urls": "turn:turn.example:3478", "username": "ana", "credential": "pw"}]
    with pytest.raises(online.OnlineError, match="user name and a password"):
        online.parse_ice("turn:turn.example:3478")
    with pytest.raises(online.OnlineError):
        online.parse_ice("http://x")
    assert online.normalize_relays(["nope"]) == list(online.DEFAULT_RELAYS)
    assert online.normalize_ice([]) == []                      # no STUN at all is a choice
    assert online.normalize_ice(None) == list(online.DEFAULT_ICE)


def test_off_until_the_host_turns_it_on_then_the_relays_of_the_settings():
    net = Rooms()
    host = net.host()
    net.tap("host", action="play-friends")
    assert not [c for c in net.ops("host") if c.startswith("online")]
    assert host.link.link_for(1).startswith(BASE + "#join=")               # the same-Wi-Fi invitation
    assert one(host, "online-notice") is None
    switch = one(host, "online-switch")
    assert switch is not None and switch[1].get("checked") is None
    net.tap("host", action="online-switch")
    join = [c for w, c in net.commands if w == "host" and c["op"] == "online-join"]
    assert len(join) == 1 and join[0]["role"] == "host" and join[0]["relays"] == list(online.DEFAULT_RELAYS)
    assert join[0]["ice"] == list(online.DEFAULT_ICE)
    link = host.link.link_for(1)
    assert len(join[0]["rooms"]) == 1 and join[0]["rooms"][0]["secret"] == host.link.table.secrets[1]
    assert link.startswith(BASE + "#online=2.") and join[0]["rooms"][0]["password"] in link
    text = screen_text(host)
    assert "nos.lol" in text and "relay.damus.io" in text and "stun.l.google.com" in text   # what leaves the phone
    net.tap("host", action="online-settings", values={"relays": "\n".join(online.DEFAULT_RELAYS), "ice": ""})
    notice = text_of(one(host, "online-notice"))
    assert "No STUN server is set" in notice and "asks a STUN server" not in notice
    assert one(host, "paste-reply") is None              # no reply code needed
    status = one(host, "relay-status")
    assert status[1]["data-status"] == "connected"
    net.tap("host", action="online-switch")                                    # off again
    assert net.ops("host")[-1] == "online-leave" and host.link.link_for(1).startswith(BASE + "#join=")


def test_a_guest_reads_what_leaves_the_phone_before_any_relay_is_contacted():
    net = Rooms()
    host = online_host(net)
    g = guest(net, "ana", 1, consent=False)
    assert g.link.state == "consent" and net.ops("ana") == []
    notice = one(g, "online-notice")
    assert notice is not None and "198.18.7.1:7447" in screen_text(g) and "stun.l.google.com" in screen_text(g)
    net.tap("ana", action="online-join")
    join = [c for w, c in net.commands if w == "ana" and c["op"] == "online-join"][0]
    assert join["role"] == "guest" and join["relays"] == [RELAY]   # the host's relays, from the link
    assert g.link.state == "open" and 1 in host.link.table.bound
    # both stop contacting the relays once the table is full
    assert net.ops("host")[-1] == "online-pause" and net.ops("ana")[-1] == "online-pause"
    relay = one(host, "relay-status")
    assert "no longer contacted" in screen_text(host) and relay[1]["data-status"] == "connected"


def test_a_whole_match_through_the_relays_and_the_pause_follows_the_seats():
    net = Rooms()
    host = online_host(net, players=3)
    guest(net, "ana", 1)
    assert "online-pause" not in net.ops("host")          # seat 3 is still free: keep listening
    guest(net, "bea", 2)
    assert net.ops("host")[-1] == "online-pause"
    for n in ("ana", "bea"):
        net.tap(n, action="join-table", value=n.title())
    net.tap("host", action="start-table")
    assert host.ctrl is not None and [s["kind"] for s in host.ctrl.match.seats] == ["human", REMOTE, REMOTE]
    net.drop("bea")                                        # bea's phone goes: listen again
    assert net.ops("host")[-1] == "online-resume"
    net.tap("host", action="invite-again", seat="2")       # the same link, no reply code
    assert one(host, "paste-reply") is None and "#online=3." in one(host, "invite-link")[1]["data-link"]
    net.tap("host", action="close-invite")
    store = MemoryStore()
    guest(net, "bea", 2, store=store)                      # she comes back through the relays
    assert 2 in host.link.table.bound and net.ops("host")[-1] == "online-pause"
    _play_out(net, ["ana", "bea"])
    assert host.ctrl.match.outcome
    assert net.audited > 0


def test_reloads_rejoin_the_same_room_without_asking_again():
    net = Rooms()
    host = online_host(net)
    store = MemoryStore()
    g = guest(net, "ana", 1, store=store)
    net.tap("ana", action="join-table", value="Ana")
    net.tap("host", action="start-table")
    rooms = host.link.online_rooms
    # the guest's reload: consent remembered, the relays find the host again
    net.drop("ana")
    g = net.session("ana", store, join=host.link.link_for(1).split("#", 1)[1])
    assert g.link.state == "open" and g.ctrl is not None and 1 in host.link.table.bound
    # the host's reload: the same room (the friends' links still work)
    net.drop("host")
    assert g.link.state == "online" and "looking for it again through the relays" in screen_text(g)
    net.joined.clear()
    net.pairs.clear()
    host2 = net.host()
    assert host2.link.online_rooms == rooms
    join = [c for w, c in net.commands if w == "host" and c["op"] == "online-join"][-1]
    assert join["rooms"] == [dict(rooms[host2.link.table.secrets[1]], secret=host2.link.table.secrets[1])]
    assert join["role"] == "host"


def test_a_wrong_password_never_meets_and_the_guest_is_told_what_to_try():
    net = Rooms()
    online_host(net)
    link = net.devices["host"].link.link_for(1).split("#", 1)[1]
    parts = link.split(".")
    parts[3] = "x" * len(parts[3])
    g = net.session("eve", MemoryStore(), join=".".join(parts))
    net.tap("eve", action="online-join")
    assert g.link.state == "online" and not net.devices["host"].link.table.bound
    assert "Looking for the host" in screen_text(g)
    net.clock.now += 20
    net.tap("eve", action="net-tick")
    assert "TURN server" in screen_text(g)
    net.tap("eve", action="net-relay", status={"state": "connected", "relays": [{"url": RELAY, "state": "open"}],
                                              "error": "incorrect room password when decrypting offer"})
    assert "refused this table's password" in screen_text(g)


def test_relays_down_are_said_by_name():
    net = Rooms()
    host = online_host(net, relays=[RELAY, "wss://relay.example.org"])
    net.tap("host", action="net-relay", status={"state": "connected", "relays": [
        {"url": RELAY, "state": "open"}, {"url": "wss://relay.example.org", "state": "closed"}]})
    text = screen_text(host)
    assert "Reached the relays through 198.18.7.1:7447" in text and "No answer from relay.example.org" in text
    net.tap("host", action="net-relay", status={"state": "failed", "relays": [
        {"url": RELAY, "state": "closed"}, {"url": "wss://relay.example.org", "state": "closed"}]})
    assert one(host, "relay-status")[1]["data-status"] == "failed"
    assert "No relay answered" in screen_text(host) and "one Wi-Fi" in screen_text(host)


def test_internet_settings_are_saved_checked_and_used():
    net = Rooms()
    host = online_host(net)
    net.tap("host", action="online-settings", values={"relays": "https://bad", "ice": ""})
    assert "Not saved" in screen_text(host) and host.relays == [RELAY]
    assert one(host, "online-settings")[1]["open"] == ""            # the reason stays in view
    net.tap("host", action="online-settings", values={"relays": "ws://10.1.1.1:7447\nwss://r.example",
                                                      "ice": "turn:t.example:3478 ana secret"})
    saved = json.loads(net.host_store.get("domino:/domino/:settings"))
    assert saved["relays"] == ["ws://10.1.1.1:7447", "wss://r.example"]
    assert saved["ice"] == [{"urls": "turn:t.example:3478", "username": "ana", "credential": "secret"}]
    # the table's room is joined again with the new list
    assert net.ops("host")[-2:] == ["online-leave", "online-join"]
    join = [c for w, c in net.commands if w == "host" and c["op"] == "online-join"][-1]
    assert join["relays"] == saved["relays"] and join["ice"] == saved["ice"]
    assert online.parse_online(host.link.link_for(1).split("#", 1)[1])["relays"] == saved["relays"]
    net.tap("host", action="online-defaults")
    assert host.relays == list(online.DEFAULT_RELAYS) and host.ice == list(online.DEFAULT_ICE)


def test_spanish_words():
    net = Rooms()
    net.host_store.set("domino:/domino/:settings", json.dumps({"lang": "es", "relays": [RELAY], "ice": []}))
    host = net.host()
    net.tap("host", action="play-friends")
    net.tap("host", action="online-switch")
    text = screen_text(host)
    assert "Jugar por internet" in text and "relés públicos" in text


def test_each_friend_shares_a_room_with_the_host_alone():
    net = Rooms()
    host = online_host(net, players=3)
    links = {seat: online.parse_online(host.link.link_for(seat).split("#", 1)[1]) for seat in (1, 2)}
    assert links[1]["room"] != links[2]["room"] and links[1]["password"] != links[2]["password"]
    assert links[1]["secret"] != links[2]["secret"]
    # the host is in one room per remote seat, each with the secret its guest must prove
    assert sorted((r["room"], r["secret"]) for r in net.rooms("host")) == sorted(
        (links[s]["room"], links[s]["secret"]) for s in (1, 2))
    # Bea's link names her room alone: nothing in it leads to Ana's
    bea_link = host.link.link_for(2)
    assert links[1]["room"] not in bea_link and links[1]["password"] not in bea_link
    # a page with Ana's room and password but Bea's secret is not handed to the host
    forged = host.link.link_for(1).replace(links[1]["secret"], links[2]["secret"])
    g = net.session("eve", MemoryStore(), join=forged.split("#", 1)[1])
    net.tap("eve", action="online-join")
    assert net.refused == [("host", "eve")] and g.link.state == "online" and not host.link.table.bound
    guest(net, "ana", 1)
    guest(net, "bea", 2)
    assert host.link.table.bound.keys() == {1, 2}
    # seat 3 goes to the computer: its room is left and its link gone; Ana's room stays
    cfg = host.link.table.config
    form = {"game": cfg["game"], "players": "3", "target": str(cfg["target"]), "options": {},
            "seat-kind-0": "human", "seat-kind-1": "remote", "seat-kind-2": "medium"}
    net.tap("host", action="change", field="seat-kind-2", form=form)
    assert host.link.table.remote_seats() == [1] and host.link.link_for(2) is None
    assert [r["room"] for r in net.rooms("host")] == [links[1]["room"]] and net.ops("host")[-1] == "online-rooms"
    assert "online-leave" not in net.ops("host") and 1 in host.link.table.bound    # Ana's room was never left
    assert net.ops("host").count("online-join") == 1      # the other rooms were never left


def test_a_table_saved_with_one_room_for_all_gets_a_room_per_seat():
    net = Rooms()
    host = online_host(net, players=3)
    old_link = host.link.link_for(1)
    doc = json.loads(net.host_store.get("domino:/domino/:net"))
    assert set(doc["online"]) == {"rooms"}
    shared = next(iter(doc["online"]["rooms"].values()))
    doc["online"] = dict(shared)                          # how tables were saved before
    net.host_store.set("domino:/domino/:net", json.dumps(doc))
    net.drop("host")
    net.joined.clear()
    host = net.host()
    assert host.role == "host" and host.link.online_rooms is not None
    rooms = {(r["room"], r["password"]) for r in net.rooms("host")}
    assert len(rooms) == 2 and (shared["room"], shared["password"]) not in rooms
    assert "links sent before no longer work" in screen_text(host)
    # the old link finds nobody; the new one does, and the new rooms are kept over a reload
    g = net.session("ana", MemoryStore(), join=old_link.split("#", 1)[1])
    net.tap("ana", action="online-join")
    assert g.link.state == "online" and not host.link.table.bound
    guest(net, "bea", 2)
    assert 2 in host.link.table.bound
    assert {(r["room"], r["password"]) for r in json.loads(
        net.host_store.get("domino:/domino/:net"))["online"]["rooms"].values()} == rooms


def test_consent_is_for_a_room_and_its_relays():
    net = Rooms()
    host = online_host(net)
    link = host.link.link_for(1).split("#", 1)[1]
    store = MemoryStore()
    g = net.session("ana", store, join=link)
    assert g.link.state == "consent"
    net.tap("ana", action="online-join")
    assert g.link.state == "open"
    net.drop("ana")
    g = net.session("ana", store, join=link)              # the same room and relays: not asked again
    assert g.link.state == "open"
    net.drop("ana")
    # the same room through other relays: the friend reads what leaves the phone, and agrees, again
    inv = online.parse_online(link)
    other = online.online_link(BASE, 1, inv["secret"], inv, ["wss://relay.example.org"]).split("#", 1)[1]
    joins = net.ops("ana").count("online-join")
    g = net.session("ana", store, join=other)
    assert g.link.state == "consent" and "relay.example.org" in text_of(one(g, "online-notice"))
    assert net.ops("ana").count("online-join") == joins          # nothing contacted before the friend agrees
    # a link without relays uses the phone's own: consent covers that list, so new settings ask again
    default = online.online_link(BASE, 1, inv["secret"], inv, list(online.DEFAULT_RELAYS)).split("#", 1)[1]
    net.drop("ana")
    g = net.session("ana", store, join=default)
    assert g.link.state == "consent"
    net.tap("ana", action="online-join")
    net.drop("ana")
    assert net.session("ana", store, join=default).link.state != "consent"
    net.drop("ana")
    settings = json.loads(store.get("domino:/domino/:settings") or "{}")
    store.set("domino:/domino/:settings", json.dumps(dict(settings, relays=["wss://relay.example.org"])))
    assert net.session("ana", store, join=default).link.state == "consent"


def test_relay_addresses_wss_anywhere_ws_only_at_home_and_a_valid_port():
    ok = ["wss://nos.lol", "wss://relay.example.org:443/nostr", "ws://127.0.0.1:7447", "ws://localhost:7000",
          "ws://[::1]:7447", "ws://10.1.2.3", "ws://172.16.0.9:1", "ws://172.31.255.1:65535", "ws://192.168.1.20",
          "ws://169.254.3.4", "ws://[fd12::1]", "ws://[fe80::1]:80", "ws://relay.local", RELAY]
    for url in ok:
        assert online.relay_problem(url) is None, url
    refused = {"ws://nos.lol": "not encrypted", "ws://8.8.8.8:7447": "not encrypted",
               "ws://172.32.0.1": "not encrypted", "ws://[2001:db8::1]": "not encrypted",
               "ws://198.20.0.1": "not encrypted",
               "wss://nos.lol:0": "port outside 1 to 65535", "wss://nos.lol:65536": "port outside 1 to 65535",
               "https://nos.lol": "must start with wss://", "wss://user@nos.lol": "not a relay address",
               "wss://300.1.1.1": "does not name a valid host", "wss://-x.example": "does not name a valid host",
               "wss://" + "a" * 200: "too long"}
    for url, why in refused.items():
        with pytest.raises(online.OnlineError, match=why):
            online.parse_relays(url)
    with pytest.raises(online.OnlineError) as e:
        online.parse_relays("ws://nos.lol")
    assert "wss://" in e.value.words("es") and "no está cifrada" in e.value.words("es")
    # a link carrying a relay this phone would not use is refused, saying which and why
    room = online.new_room()
    link = online.online_link(BASE, 1, "s3cr3t_-x", room, ["wss://ok.example", "ws://relay.example.org"])
    with pytest.raises(online.OnlineError, match="ws://relay.example.org is not encrypted"):
        online.parse_online(link.split("#", 1)[1])
    net = Rooms()
    g = net.session("eve", MemoryStore(), join=link.split("#", 1)[1])
    assert g.link.state == "bad" and net.ops("eve") == []
    assert "ws://relay.example.org is not encrypted" in text_of(one(g, "guest-error"))
    # the settings' editor says the same
    host = online_host(net)
    net.tap("host", action="online-settings", values={"relays": "wss://ok.example\nws://relay.example.org",
                                                      "ice": ""})
    assert host.relays == [RELAY]
    assert "Not saved: ws://relay.example.org is not encrypted" in text_of(one(host, "online-note"))
