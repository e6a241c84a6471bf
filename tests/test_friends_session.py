"""Play with friends through the app's one path (domino.app.session.Session,
domino.app.friends): a host's session and guests' sessions, each with its
own storage, joined by a fake transport that does what static/rtc.js does
(an offer and an answer per connection, then texts both ways).  The SDP
texts are real Chromium descriptions (tests/net/test_sdp.py's samples), so
the invite link and the reply code are the ones players see."""
from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from domino import players
from domino.app import storage
from domino.app.friends import JoinError, NotLocalJoin, parse_join
from domino.app.nodes import find, text_of
from domino.app.session import MemoryStore, Out, Session
from domino.engine import tiles
from domino.net import sdp
from domino.table import REMOTE
from tests.net.test_host_guest import audit
from tests.net.test_sdp import SAMPLES

OFFER = SAMPLES[("mdns_v4", "offer")]
ANSWER = SAMPLES[("mdns_v4", "answer")]
BASE = "http://127.0.0.1:8000/domino/"
TILE = re.compile(r"[0-9]{1,2}-[0-9]{1,2}")


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Net:
    """Sessions of one host and its guests, and the wires between them."""

    def __init__(self):
        self.clock = Clock()
        self.next_conn = 1
        self.pairs: dict[tuple[str, int], tuple[str, int]] = {}    # (device, conn) -> (device, conn)
        self.pending_answer: dict[int, tuple[str, int]] = {}       # host conn -> (guest device, conn)
        self.devices: dict[str, Session] = {}
        self.queue: list[tuple[str, dict]] = []
        self.sent: list[tuple[str, str, str]] = []                 # (from, to, text)
        self.offers: dict[str, int] = {}                           # offer code -> host conn
        self.host_store = MemoryStore()

    def session(self, name: str, store: MemoryStore, join: str | None = None, **params) -> Session:
        s = Session(store, "/domino/", params=dict(params, url=BASE, join=join, delay="0"))
        s.clock = self.clock
        self.devices[name] = s
        self.run(name, s.load_game())
        return s

    def host(self, **params) -> Session:
        return self.session("host", self.host_store, **params)

    def tap(self, name: str, **inp) -> None:
        self.run(name, self.devices[name].handle(inp))

    def conn(self) -> int:
        self.next_conn += 1
        return self.next_conn

    def run(self, name: str, out) -> None:
        self.queue += [(name, cmd) for cmd in out.net]
        while self.queue:
            who, cmd = self.queue.pop(0)
            self.command(who, cmd)

    def feed(self, name: str, inp: dict) -> None:
        s = self.devices.get(name)
        if s is not None:
            out = s.handle(inp)
            self.queue += [(name, cmd) for cmd in out.net]

    def command(self, who: str, cmd: dict) -> None:
        op = cmd["op"]
        if op == "offer":
            c = self.conn()
            self.feed(who, {"action": "net-offer", "seat": cmd["seat"], "conn": c, "sdp": OFFER})
        elif op == "answer":
            c = self.conn()
            self.feed(who, {"action": "net-answer", "conn": c, "sdp": ANSWER})
            self.last_answer = (who, c)
        elif op == "accept":
            guest = self.joining.pop(0)
            self.pairs[(who, cmd["conn"])] = guest
            self.pairs[guest] = (who, cmd["conn"])
            self.feed(who, {"action": "net-open", "conn": cmd["conn"]})
            self.feed(guest[0], {"action": "net-open", "conn": guest[1]})
        elif op == "send":
            to = self.pairs.get((who, cmd["conn"]))
            self.sent.append((who, to[0] if to else "", cmd["text"]))
            self.audit(who, to, cmd["text"])
            if to is not None:
                self.feed(to[0], {"action": "net-message", "conn": to[1], "text": cmd["text"]})
        elif op == "close":
            to = self.pairs.pop((who, cmd["conn"]), None)
            if to is not None:
                self.pairs.pop(to, None)
                self.feed(to[0], {"action": "net-close", "conn": to[1], "reason": "remote"})
        elif op == "share":
            self.feed(who, {"action": "net-shared", "how": "copied"})

    joining: list = []
    audited = 0

    def audit(self, who: str, to, text: str) -> None:
        """Every text the host sends a guest, checked when it is sent: no tile
        that seat may not know, no other seat's secret, no seed."""
        host = self.devices.get("host")
        if who != "host" or to is None or host is None or host.role is None:
            return
        g = self.devices.get(to[0])
        seat = g.link.table.seat if g is not None and g.role == "guest" else None
        secrets = {s: v for s, v in host.link.table.secrets.items()}
        m = host.link.table.match
        if seat is None:
            return
        audit(m if m is not None and m is getattr(host.ctrl, "match", None) else None, seat, text, secrets)
        self.audited += 1

    def drop(self, name: str) -> None:
        """A device goes away without a word (its phone sleeps, its tab closes)."""
        for (dev, c), other in list(self.pairs.items()):
            if dev == name:
                self.pairs.pop((dev, c), None)
                self.pairs.pop(other, None)
                self.feed(other[0], {"action": "net-close", "conn": other[1], "reason": "disconnected"})
        self.devices.pop(name, None)
        self.run("host", type("O", (), {"net": []})())

    def join(self, name: str, seat: int, store: MemoryStore | None = None, player_name: str = "") -> Session:
        """A friend opens the seat's invite link; the host pastes the reply code."""
        host = self.devices["host"]
        link = host.link.link_for(seat)
        assert link and link.startswith(BASE + "#join=")
        g = self.session(name, store or MemoryStore(), join=link.split("#", 1)[1])
        self.tap(name, action="guest-answer")       # the friend reads the invitation and taps
        code = g.link.code
        assert re.fullmatch(rf"{seat + 1}\.1[0-9A-Z-]+", code), code
        self.joining = [self.last_answer]
        self.tap("host", action="accept-reply", value=code)
        assert g.link.state == "open"
        if player_name:
            self.tap(name, action="join-table", value=player_name)
        else:
            self.tap(name, action="join-table", value="")
        return g


def started(**params):
    """A host and Ana (seat 1) at a started two-player Draw match."""
    net = Net()
    host = net.host(**params)
    net.tap("host", action="play-friends")
    g = net.join("ana", 1)
    net.tap("host", action="start-table")
    return net, host, g


def screen_text(s: Session) -> str:
    return text_of(s.screen())


def test_join_links_are_checked():
    with pytest.raises(JoinError):
        parse_join("#join=9.abc.aXYZ")
    with pytest.raises(JoinError):
        parse_join("#join=2.abc")
    s = Session(MemoryStore(), "/domino/", params={"join": "join=2.sec.aBROKEN", "url": BASE})
    s.load_game()
    assert "cannot be read" in screen_text(s)


def _play_out(net: Net, names: list[str], limit: int = 4000) -> None:
    """Every person taps until the match ends: the host's own seat and each
    guest play the easy level's choice from their own view; the host's
    computers play through the session's computer path."""
    for _ in range(limit):
        net.clock.now += 0.25     # people tap at people's pace (the host's rate limit is 20 a second)
        host = net.devices["host"]
        m = host.ctrl.match
        if m.outcome:
            return
        if m.phase == "hand-over":
            for n in ["host"] + names:
                s = net.devices[n]
                if s.ctrl is not None and s.ctrl.match.phase == "hand-over":
                    net.tap(n, action="next-hand", seq=str(s.ctrl.match.seq))
            continue
        seat = m.turn
        kind = m.seats[seat]["kind"]
        if kind == "human":
            view = m.view(seat)
            a = players.get_player("easy")(view, random.Random(m.seq))
            host.out = Out()
            host.play(a)
            net.run("host", host.out)
        elif kind == REMOTE:
            dev = next(n for n in names if net.devices[n].role == "guest" and net.devices[n].link.table.seat == seat)
            g = net.devices[dev]
            assert g.ctrl.match.seq == m.seq, "the guest's table is the host's position"
            assert g.ctrl.my_turn()
            legal = g.ctrl.legal()
            assert legal == m.legal_actions()
            a = players.get_player("easy")(g.ctrl.match.view(seat), random.Random(m.seq))
            g.out = Out()
            g.play(a)
            net.run(dev, g.out)
            assert m.seq > g.ctrl.match.seq - 1
        else:
            search = host.computers.think()
            net.tap("host", action="computer-move", move=search.step(1000), gen=host.computers.gen)
    raise AssertionError("the match did not end")


def test_two_phones_play_a_whole_draw_match_and_no_guest_sees_a_hidden_tile():
    net = Net()
    host = net.host(seed="7")
    net.tap("host", action="play-friends")
    assert host.role == "host" and host.link.table.kind(1) == REMOTE
    assert 'data-testid="play-friends"' not in json.dumps(host.screen())
    assert find(host.screen(), **{"data-testid": "invite-qr"})
    link = find(host.screen(), **{"data-testid": "invite-link"})[0][1]["data-link"]
    assert link == host.link.link_for(1)
    g = net.join("ana", 1, player_name="Ana")
    assert host.link.table.seat_status(1) == "ready"
    assert find(g.screen(), **{"data-testid": "guest-config"})
    assert "100pt/ab." in screen_text(g)
    net.tap("host", action="start-table")
    assert host.ctrl is not None and host.ctrl.match.seats[1] == {"name": "Ana", "kind": REMOTE}
    assert g.ctrl is not None and g.ctrl.match.seq == host.ctrl.match.seq
    _play_out(net, ["ana"])
    m = host.ctrl.match
    assert m.outcome and g.link.table.outcome == m.outcome
    assert g.ctrl.match.scores == m.scores
    # every host text was audited as it was sent (Net.audit)
    assert net.audited > 100
    # the host's save holds the match; the guest's storage holds no match
    assert host.store.get("domino:/domino/:save")
    assert g.store.get("domino:/domino/:save") is None


def test_the_guest_receives_no_tile_it_may_not_see():
    net, host, g = started(seed="3")
    m = host.ctrl.match
    for frm, to, text in net.sent:
        if frm == "host" and json.loads(text)["t"] == "view":
            hidden = {tiles.NAMES[t] for t in tiles.ids(m.hand.hands[0])}
            shown = set(TILE.findall(text))
            assert not (hidden & shown)


def test_lobby_change_clears_the_starts_and_blocks_start():
    net = Net()
    host = net.host()
    net.tap("host", action="play-friends")
    net.join("ana", 1)
    assert host.link.table.can_start()
    form = {"game": "draw", "players": "2", "target": "150", "options": {},
            "seat-kind-0": "human", "seat-kind-1": "remote", "seat-name-0": "", "seat-name-1": ""}
    net.tap("host", action="change", field="target", form=form)
    assert host.link.table.config["target"] == 150
    assert not host.link.table.can_start()
    assert host.link.table.seat_status(1) == "joined"
    g = net.devices["ana"]
    assert not g.link.ready and g.link.table.lobby["config"]["target"] == 150
    net.tap("ana", action="join-table", value="")
    assert host.link.table.can_start()


def test_a_guest_away_is_played_by_the_computer_then_comes_back_with_a_new_invite():
    net = Net()
    host = net.host(seed="11", grace="5")
    net.tap("host", action="play-friends")
    store = MemoryStore()
    net.join("ana", 1, store=store, player_name="Ana")
    net.tap("host", action="start-table")
    net.drop("ana")
    assert host.link.table.seat_status(1) == "away"
    assert find(host.screen(), **{"data-testid": "invite-again-1"})
    net.clock.now += 6
    net.tap("host", action="net-tick")
    assert host.ctrl.match.seats[1]["kind"] == "medium"
    # the computer can now play seat 1 through the one path
    for _ in range(3):
        m = host.ctrl.match
        if m.turn == 1 and m.phase == "play":
            net.tap("host", action="computer-move", move=host.computers.think().step(1000), gen=host.computers.gen)
    net.tap("host", action="invite-again", seat=1)
    assert host.link.invite_seat == 1 and host.link.link_for(1)
    g = net.join("ana2", 1, store=store)
    assert host.ctrl.match.seats[1]["kind"] == REMOTE
    assert g.ctrl is not None and g.ctrl.match.seq == host.ctrl.match.seq


def test_host_reload_keeps_the_table_and_the_guest_rejoins():
    net = Net()
    host = net.host(seed="5")
    net.tap("host", action="play-friends")
    net.join("ana", 1, player_name="Ana")
    net.tap("host", action="start-table")
    seq = host.ctrl.match.seq
    net.drop("ana")
    host2 = net.session("host", net.host_store)
    assert host2.role == "host" and host2.link.table.started
    assert host2.ctrl.match.seq == seq and host2.ctrl.match.seats[1]["kind"] == REMOTE
    assert host2.link.table.seat_status(1) == "away"
    g = net.join("ana", 1)
    assert g.ctrl.match.seq == seq


def test_malformed_messages_never_stop_the_host():
    net = Net()
    host = net.host()
    net.tap("host", action="play-friends")
    net.join("ana", 1)
    conn = next(c for (d, c) in net.pairs if d == "host")
    for text in ["", "{", "[]" * 5000, json.dumps({"v": "domino-net/1", "t": "act", "seq": 0,
                                                    "action": {"seat": 0, "play": "6-6"}}), "x" * 100000, None, 5]:
        net.feed("host", {"action": "net-message", "conn": conn, "text": text})
    assert host.link.table.seat_status(1) == "ready"


def test_the_host_chooses_what_happens_when_a_friend_leaves():
    net = Net()
    host = net.host(seed="4")
    net.tap("host", action="play-friends")
    net.join("ana", 1)
    net.tap("host", action="change", field="away-policy", value="abandon:120", form={})
    assert (host.link.table.policy, host.link.table.grace) == ("abandon", 120.0)
    assert not host.link.table.can_start()          # a change clears the Starts
    net.tap("ana", action="join-table", value="")
    net.tap("host", action="start-table")
    net.drop("ana")
    net.clock.now += 119
    net.tap("host", action="net-tick")
    assert not host.ctrl.match.outcome
    net.clock.now += 2
    net.tap("host", action="net-tick")
    out = host.ctrl.match.outcome
    assert out is not None and out["winner"] == 0 and host.ctrl.match.resigned["seat"] == 1


def test_a_match_of_the_hosts_own_closes_the_friends_table():
    net, host, g = started(seed="2")
    net.tap("host", action="menu")
    net.tap("host", action="play-friends")          # a table is up: nothing new
    assert host.role == "host" and host.link.table.started
    net.tap("host", action="start", form={"seat-kind-1": "medium"})
    net.tap("host", action="replace-yes")
    assert host.role is None and host.store.get(storage.key("/domino/", storage.TABLE)) is None
    assert g.link.state == "closed"
    assert [s["kind"] for s in host.ctrl.match.seats] == ["human", "medium"]


# ----------------------------------------------------- the invitation waits for the friend's tap
def test_a_guest_answers_only_after_the_friend_taps():
    """Opening the link shows the invitation (the seat, what the tap does, one
    button); no WebRTC answer is asked of the page until the tap, and only once."""
    net = Net()
    host = net.host()
    net.tap("host", action="play-friends")
    link = host.link.link_for(1)
    g = Session(MemoryStore(), "/domino/", params={"url": BASE, "join": link.split("#", 1)[1], "delay": "0"})
    out = g.load_game()
    assert out.net == []
    screen = g.screen()
    assert find(screen, data_testid="guest") and find(screen, data_testid="guest-answer")
    assert "seat 2" in screen_text(g) and not find(screen, data_testid="reply-code")
    for inp in ({"action": "net-tick"}, {"action": "change", "field": "form", "form": {}}):
        assert [c for c in g.handle(inp).net if c["op"] == "answer"] == []
    out = g.handle({"action": "guest-answer"})
    assert [c["op"] for c in out.net] == ["answer"] and out.net[0]["sdp"].startswith("v=0")
    assert g.handle({"action": "guest-answer"}).net == []          # a second tap: nothing more
    g.handle({"action": "net-answer", "conn": 5, "sdp": ANSWER})
    assert find(g.screen(), data_testid="reply-code") and not find(g.screen(), data_testid="guest-answer")


# ----------------------------------------------------- same Wi-Fi: local addresses only
def _code_with(kind: str, address: str, human: bool) -> str:
    """A real Chromium description's code, with one candidate at ``address``."""
    session = sdp.parse_sdp(SAMPLES[("mdns_v4", kind)])
    return sdp.encode(dataclasses.replace(session, candidates=(sdp.Candidate(address, 40000),)), human=human)


@pytest.mark.parametrize("address", ["8.8.8.8", "2001:db8::1", "evil.example.com"])
def test_an_invitation_naming_an_outside_address_is_refused_in_both_languages(address):
    frag = f"join=2.{'s' * 12}.{_code_with('offer', address, False)}"
    with pytest.raises(NotLocalJoin) as e:
        parse_join("#" + frag)
    assert e.value.address == address
    for lang, words in (("en", "refused: it points outside your Wi-Fi"), ("es", "no se acepta: apunta fuera de tu wifi")):
        s = Session(MemoryStore(), "/domino/", params={"join": frag, "url": BASE}, browser_lang=lang)
        out = s.load_game()
        assert out.net == [] and s.handle({"action": "guest-answer"}).net == []
        text = screen_text(s)
        assert words in text and address in text, text
        assert find(s.screen(), data_testid="guest-error")
    # a local one opens
    ok = f"join=2.{'s' * 12}.{_code_with('offer', '192.168.1.23', False)}"
    assert parse_join("#" + ok)[0] == 1


@pytest.mark.parametrize("address", ["8.8.8.8", "2606:4700::1111", "printer.example.org"])
def test_a_reply_code_naming_an_outside_address_is_refused_on_the_host(address):
    for lang, words in (("en", "refused: it points outside this Wi-Fi"),
                        ("es", "no se acepta: apunta fuera de esta wifi")):
        net = Net()
        s = Session(MemoryStore(), "/domino/", params={"url": BASE, "delay": "0"}, browser_lang=lang)
        net.devices["host"] = s
        net.run("host", s.load_game())
        net.tap("host", action="play-friends")
        assert s.link.offers.get(1, {}).get("conn") is not None
        out = s.handle({"action": "accept-reply", "value": "2." + _code_with("answer", address, True)})
        assert [c for c in out.net if c["op"] == "accept"] == []
        assert words in s.link.net_note and address in s.link.net_note and "2" in s.link.net_note
        # the same reply with a local candidate is accepted
        out = s.handle({"action": "accept-reply", "value": "2." + _code_with("answer", "10.1.2.3", True)})
        assert [c["op"] for c in out.net if c["op"] == "accept"] == ["accept"]


# ----------------------------------------------------------------- nobody holds the table
def _reloaded_same(net: Net, host: Session) -> Session:
    """The host's save replays to the position on the table (a reload)."""
    m = host.ctrl.match
    again = net.session("host2", net.host_store)
    a = again.ctrl.match
    assert (a.seq, a.hand_no, a.phase, a.turn, a.scores, a.outcome, a.resigned) == \
        (m.seq, m.hand_no, m.phase, m.turn, m.scores, m.outcome, m.resigned)
    assert [r["actions"] for r in a.records] == [r["actions"] for r in m.records]
    net.devices.pop("host2")
    return again


def _timed(seconds: str, **params):
    net = Net()
    host = net.host(**params)
    net.tap("host", action="play-friends")
    net.join("ana", 1, player_name="Ana")
    net.tap("host", action="change", field="time-limit", value=seconds, form={})
    assert host.link.table.timeout == float(seconds)
    sel = find(host.screen(), **{"data-testid": "time-limit"})[0]
    assert [o[1]["value"] for o in sel[2] if o[1].get("selected") == ""] == [seconds]
    net.tap("ana", action="join-table", value="")       # a change clears the Starts
    net.tap("host", action="start-table")
    return net, host, net.devices["ana"]


def _to_anas_turn(net: Net, host: Session) -> None:
    for _ in range(200):
        m = host.ctrl.match
        if m.phase == "play" and m.turn == 1:
            return
        if m.phase == "play" and m.turn == 0:
            host.out = Out()
            host.play(players.get_player("easy")(m.view(0), random.Random(m.seq)))
            net.run("host", host.out)
        else:
            net.tap("host", action="next-hand", seq=str(m.seq))
            net.tap("ana", action="next-hand", seq=str(m.seq))
    raise AssertionError("never Ana's turn")


def test_a_friend_who_never_moves_the_computer_plays_their_move_when_the_time_is_up():
    net, host, g = _timed("60", seed="8")
    _to_anas_turn(net, host)
    seq = host.ctrl.match.seq
    net.clock.now += 29
    net.tap("host", action="net-tick")
    assert not find(host.screen(), **{"data-testid": "net-clock"})
    net.clock.now += 1
    net.tap("host", action="net-tick")
    for s in (host, g):            # everyone sees the time left
        clock = find(s.screen(), **{"data-testid": "net-clock"})
        assert clock and clock[0][1]["role"] == "status" and str(clock[0][1]["data-left"]) == "30"
        assert "Ana: 30 s left to play" in text_of(clock[0])
    net.clock.now += 30
    net.tap("host", action="net-tick")
    m = host.ctrl.match
    assert m.seq > seq and m.seats[1]["kind"] == REMOTE
    assert g.ctrl.match.seq == m.seq and not find(g.screen(), **{"data-testid": "net-clock"})
    _reloaded_same(net, host)


def test_a_friend_who_never_taps_next_counts_as_ready_when_the_time_is_up():
    net, host, g = _timed("120", seed="8")
    m = host.ctrl.match
    for _ in range(400):
        if m.phase == "hand-over":
            break
        if m.turn == 0:
            host.out = Out()
            host.play(players.get_player("easy")(m.view(0), random.Random(m.seq)))
            net.run("host", host.out)
        else:
            g.out = Out()
            g.play(players.get_player("easy")(g.ctrl.match.view(1), random.Random(m.seq)))
            net.run("ana", g.out)
    assert m.phase == "hand-over"
    hand = m.hand_no
    net.tap("host", action="next-hand", seq=str(m.seq))
    assert "Ana" in host.link.waiting_for()
    net.clock.now += 100
    net.tap("host", action="net-tick")
    assert find(g.screen(), **{"data-testid": "net-clock"})
    net.clock.now += 20
    net.tap("host", action="net-tick")
    assert m.hand_no == hand + 1 and m.phase == "play"
    _reloaded_same(net, host)


def test_the_host_hands_a_seat_to_the_computer_and_ends_the_match_by_absence():
    net, host, g = started(seed="9")
    assert not find(host.screen(), **{"data-testid": "net-bar"})
    net.tap("host", action="seat-controls")
    toggle = find(host.screen(), **{"data-testid": "seat-controls-toggle"})
    assert toggle and toggle[0][1]["aria-expanded"] == "true"
    hand = find(host.screen(), **{"data-testid": "hand-to-computer"})
    assert hand and str(hand[0][1]["data-seat"]) == "1"
    net.tap("host", action="hand-to-computer", seat="1")
    assert host.ctrl.match.seats[1]["kind"] == "medium" and host.link.table.stand_ins == {1}
    assert find(host.screen(), **{"data-testid": "give-back"})
    assert g.link.table.view["kinds"][1] == "medium"             # the friend's phone knows who plays
    saved = json.loads(host.store.get(storage.key("/domino/", storage.TABLE)))
    assert saved["table"]["stand_ins"] == [1]
    net.tap("host", action="give-back", seat="1")
    assert host.ctrl.match.seats[1]["kind"] == REMOTE
    # ending asks first
    net.tap("host", action="end-absence", seat="1")
    assert find(host.screen(), **{"data-testid": "absence-dialog"}) and not host.ctrl.match.outcome
    net.tap("host", action="end-absence-no")
    assert not find(host.screen(), **{"data-testid": "absence-dialog"}) and not host.ctrl.match.outcome
    net.tap("host", action="end-absence", seat="1")
    net.tap("host", action="end-absence-yes")
    out = host.ctrl.match.outcome
    assert out and out["winner"] == 0 and host.ctrl.match.resigned["seat"] == 1
    assert g.link.table.abandoned == 1 and g.link.table.ended
    assert not find(host.screen(), **{"data-testid": "hand-to-computer"})
    _reloaded_same(net, host)


def test_leaving_and_coming_back_does_not_reset_the_grace_even_over_a_host_reload():
    net = Net()
    host = net.host(seed="4", grace="60")
    net.tap("host", action="play-friends")
    store = MemoryStore()
    net.join("ana", 1, store=store)
    net.tap("host", action="start-table")
    net.drop("ana")
    net.clock.now += 50
    net.tap("host", action="net-tick")
    net.tap("host", action="invite-again", seat=1)
    net.join("ana", 1, store=store)                       # back with 10 s left
    assert host.ctrl.match.seats[1]["kind"] == REMOTE
    net.drop("ana")
    net.clock.now += 5
    net.tap("host", action="net-tick")
    host = net.session("host", net.host_store)            # the host reloads
    assert host.link.table.away_for(1, net.clock.now) == pytest.approx(55, abs=0.5)
    net.clock.now += 4
    net.tap("host", action="net-tick")
    assert host.ctrl.match.seats[1]["kind"] == REMOTE
    net.clock.now += 2
    net.tap("host", action="net-tick")
    assert host.ctrl.match.seats[1]["kind"] == "medium"   # 61 s in all: the computer plays


@pytest.mark.parametrize("raw", ["\u3164", "\u2800", "\u200b\u200b", " \u0301 ", "\u115f\u1160\uffa0"])
def test_a_typed_name_that_shows_nothing_is_the_default_name(raw):
    s = Session(MemoryStore(), "/domino/", params={"url": BASE, "delay": "0"})
    s.load_game()
    s.handle({"action": "change", "field": "seat-name", "form": {"seat-name-0": raw}})
    assert s.new_settings["seats"][0]["name"] == ""
    s.handle({"action": "start", "form": {"seat-name-0": raw}})
    assert s.ctrl.match.seats[0]["name"] == "Player 1"
