"""Session.handle never raises, whatever arrives and in whatever order: the
faults found from outside, each driven through the one path the page uses
(a host's Session and guests' Sessions wired by tests.test_friends_session's
fake transport)."""
from __future__ import annotations

import json
import random

from domino import players
from domino.app.session import MemoryStore, Out, Session
from domino.net import protocol
from domino.table import REMOTE
from tests.test_friends_session import Net

FORM_3 = {"players": "3", "seat-kind-2": "easy"}


def three(grace: str = "5", seed: str = "11", kind2: str = "easy"):
    """A host (seat 1), Ana's phone (seat 2) and a computer (seat 3) at a started Draw match."""
    net = Net()
    host = net.host(seed=seed, grace=grace)
    host.new_settings = dict(host.new_settings, players=3)
    net.tap("host", action="play-friends")
    net.tap("host", action="change", field="seat-kind", form=dict(FORM_3, **{"seat-kind-2": kind2}))
    store = MemoryStore()
    g = net.join("ana", 1, store=store, player_name="Ana")
    if kind2 == "remote":
        net.join("bea", 2, player_name="Bea")
    net.tap("host", action="start-table")
    assert host.ctrl is not None and host.link.table.started
    return net, host, g, store


def step(net: Net, names=("ana",)) -> None:
    """One move of the host's match, by whoever is to move, through their own device."""
    net.clock.now += 0.25
    host = net.devices["host"]
    m = host.ctrl.match
    seat = m.turn
    kind = m.seats[seat]["kind"]
    if kind == "human":
        host.out = Out()
        host.play(players.get_player("easy")(m.view(seat), random.Random(m.seq)))
        net.run("host", host.out)
    elif kind == REMOTE:
        dev = next(n for n in names if n in net.devices and net.devices[n].link.table.seat == seat)
        g = net.devices[dev]
        g.out = Out()
        g.play(players.get_player("easy")(g.ctrl.match.view(seat), random.Random(m.seq)))
        net.run(dev, g.out)
    else:
        net.tap("host", action="computer-move", move=host.computers.think().step(1000), gen=host.computers.gen)


def until(net: Net, cond, limit: int = 200, names=("ana",)) -> None:
    host = net.devices["host"]
    for _ in range(limit):
        if cond(host.ctrl.match):
            return
        assert host.ctrl.match.phase == "play"
        step(net, names)
    raise AssertionError("never got there")


def test_a_stand_in_move_still_pending_when_the_friend_came_back_and_moved_is_dropped():
    net, host, g, store = three()
    until(net, lambda m: m.phase == "play" and m.turn == 1)
    net.drop("ana")
    net.clock.now += 6
    net.tap("host", action="net-tick")
    m = host.ctrl.match
    assert m.seats[1]["kind"] != REMOTE and host.wants_computers()
    gen = host.computers.gen
    pending = host.computers.think().step(1000)       # the page's loop: the stand-in decides, then waits its pace
    net.tap("host", action="invite-again", seat=1)
    g = net.join("ana2", 1, store=store)
    assert m.seats[1]["kind"] == REMOTE
    seq = m.seq
    step(net, names=("ana2",))              # Ana, back, plays her own turn
    assert m.seq > seq and m.turn == 2 and host.wants_computers()
    after = m.seq
    net.tap("host", action="computer-move", move=pending, gen=gen)    # the stale stand-in's move
    assert m.seq == after and host.computers.gen == gen
    step(net, names=("ana2",))              # the computer of seat 3 then moves as usual
    assert m.seq > after


def test_a_computer_move_for_another_seat_or_a_move_that_is_not_legal_changes_nothing():
    net, host, g, store = three()
    until(net, lambda m: m.turn == 2)
    m = host.ctrl.match
    seq = m.seq
    for move in ({"seat": 1, "draw": None}, {"seat": 2, "play": "9-9"}, {"seat": 2, "resign": True}, "x", None,
                 {"seat": [2]}):
        net.tap("host", action="computer-move", move=move, gen=host.computers.gen)
        assert m.seq == seq and not m.outcome
    net.tap("host", action="computer-move", gen=host.computers.gen)
    assert m.seq == seq


def test_the_guided_hand_is_not_opened_over_a_friends_match():
    """The host is a player others wait for: the guided hand (which takes the
    table's place on this phone) is refused while a friends' table is up, so
    a guest's move or a Next in a 3-player match is played on the real match."""
    net, host, g, store = three(kind2="remote")
    net.tap("host", action="help", game="draw")
    tree = json.dumps(host.screen())
    assert '"help-dialog"' in tree and '"guide-start"' not in tree            # not offered
    real = host.ctrl.match
    net.tap("host", action="guide-start")
    assert host.guided.step is None and host.ctrl.match is real


def test_a_friends_match_goes_on_after_the_host_tried_the_guide():
    net = Net()
    host = net.host(seed="3")
    host.new_settings = dict(host.new_settings, players=3)
    net.tap("host", action="play-friends")
    net.join("ana", 1, player_name="Ana")
    net.join("bea", 2, player_name="Bea")
    net.tap("host", action="start-table")
    m = host.ctrl.match
    hand = m.hand_no
    net.tap("host", action="guide-start")
    until(net, lambda x: x.phase == "hand-over", limit=400, names=("ana", "bea"))
    for n in ("ana", "bea", "host"):
        s = net.devices[n]
        net.tap(n, action="next-hand", seq=str(s.ctrl.match.seq))
    assert m.phase == "play" and m.hand_no == hand + 1 and host.ctrl.match is m


def test_a_guests_move_is_applied_even_if_the_host_tapped_the_guide():
    net = Net()
    host = net.host(seed="5")
    net.tap("host", action="play-friends")
    net.join("ana", 1, player_name="Ana")
    net.tap("host", action="start-table")
    until(net, lambda m: m.turn == 1)
    net.tap("host", action="guide-start")
    m = host.ctrl.match
    seq = m.seq
    step(net)
    assert m.seq > seq and net.devices["ana"].ctrl.match.seq == m.seq


def test_guide_inputs_without_a_guide_change_nothing():
    net = Net()
    host = net.host(seed="5")
    net.tap("host", action="play-friends")
    net.join("ana", 1, player_name="Ana")
    net.tap("host", action="start-table")
    real = host.ctrl
    for a in ("guide-skip", "guide-finish", "guide-next", "guide-dismiss"):
        net.tap("host", action=a)
        assert host.ctrl is real and not host.menu_open
    until(net, lambda m: m.turn == 1)
    seq = real.match.seq
    step(net)
    assert real.match.seq > seq


def test_guide_skip_in_solo_without_a_guide_keeps_the_match():
    s = Session(MemoryStore(), "/domino/", params={"seed": "7"})
    s.handle({"action": "start", "form": {"seat-kind-1": "easy"}})
    c = s.ctrl
    s.handle({"action": "guide-skip"})
    assert s.ctrl is c and s.at_table()


def lobby_text(config) -> str:
    return json.dumps(protocol.message("lobby", config=config, code="100pt", your_seat=1))


def test_a_guest_survives_a_broken_or_hostile_lobby():
    net = Net()
    host = net.host(seed="5")
    net.tap("host", action="play-friends")
    g = net.join("ana", 1)
    conn = g.link.conn
    good = g.link.table.lobby["config"]
    seats = good["seats"]
    bad = [dict(good, seats=5), dict(good, seats=True), dict(good, seats=[{"name": "x", "status": "ready"}]),
           dict(good, seats=[{"seat": [1], "status": "ready"}]), dict(good, seats=[{"seat": 1, "status": ["r"]}]),
           dict(good, seats=[dict(seats[0], name=7)]), dict(good, players="3"), dict(good, options=[1]),
           dict(good, seats=["x"]), dict(good, partnership="yes"), dict(good, game=None)]
    for cfg in bad:
        out = g.handle({"action": "net-message", "conn": conn, "text": lobby_text(cfg)})
        assert any("ignored" in w for w in out.warnings), cfg
        g.screen()
        assert g.link.table.lobby["config"] == good
    status = json.dumps(protocol.message("status", seats=[{"seat": [1], "status": "ready"}, 5, {"seat": "1"}]))
    out = g.handle({"action": "net-message", "conn": conn, "text": status})
    assert any("ignored" in w for w in out.warnings)
    g.screen()
    out = g.handle({"action": "net-message", "conn": conn, "text": lobby_text(good)})
    assert not out.warnings and g.link.table.lobby["config"] == good


# ---------------------------------------------------------------- found by tests/test_session_fuzz.py
def test_network_events_with_a_connection_that_is_not_a_number_change_nothing():
    net = Net()
    host = net.host(seed="5")
    net.tap("host", action="play-friends")
    g = net.join("ana", 1)
    for action in ("net-close", "net-open", "net-message", "net-offer"):
        for conn in ([2], {"a": 1}, "3"):
            out = host.handle({"action": action, "conn": conn, "seat": 1, "text": "{}"})
            assert out.warnings and host.link.table.seat_status(1) == "ready"
            g.handle({"action": action, "conn": conn})
    host.handle({"action": "net-offer", "seat": [1], "conn": 5})
    assert g.link.state == "open" and host.link.table.seat_status(1) == "ready"


def test_a_form_that_is_not_an_object_is_ignored():
    s = Session(MemoryStore(), "/domino/", params={"seed": "7"})
    before = dict(s.new_settings)
    for form in (True, 5, "x", [1], {"options": 5, "game": "draw"}):
        s.handle({"action": "start", "form": form})
        s.handle({"action": "change", "field": "game", "form": form})
        s.handle({"action": "new-match"})
        s.screen()
    assert s.new_settings["seats"] == before["seats"]


def test_taking_the_match_over_from_another_tab_during_the_guide_ends_the_guide():
    """Tab A is in the guided hand; tab B moves the match on; A takes it over
    (Continue here): the guide is over, and leaving it never brings back the
    older position A kept (whose next save would undo B's moves)."""
    store = MemoryStore()
    a = Session(store, "/domino/", params={"seed": "7"})
    a.handle({"action": "start", "form": {"seat-kind-1": "easy"}})
    b = Session(store, "/domino/", params={"seed": "7"})
    b.load_game()
    a.handle({"action": "guide-start"})
    assert a.guided.step is not None
    while b.ctrl.match.seq < 4:
        if b.wants_computers():
            b.handle({"action": "computer-move", "move": b.computers.think().step(1000), "gen": b.computers.gen})
        else:
            legal = b.ctrl.legal()[0]
            b.handle({"action": "draw"} if "play" not in legal else
                     {"action": "tile", "tile": legal["play"], "seq": str(b.ctrl.match.seq)})
            if b.ctrl.selected:
                b.handle({"action": "end", "end": legal["end"], "seq": str(b.ctrl.match.seq)})
    a.handle({"action": "storage", "key": "domino:/domino/:save"})
    assert a.safety.panel is not None
    a.handle({"action": "continue-here"})
    assert a.guided.step is None and a.ctrl.match.seq == b.ctrl.match.seq
    a.handle({"action": "guide-skip"})
    assert a.ctrl.match.seq == b.ctrl.match.seq and a.at_table()


def test_a_guest_has_nothing_to_export_even_after_leaving():
    net = Net()
    host = net.host(seed="5")
    net.tap("host", action="play-friends")
    g = net.join("ana", 1)
    net.tap("host", action="start-table")
    assert g.ctrl is not None
    assert not g.handle({"action": "export"}).downloads
    net.tap("ana", action="new-match")              # not offered mid-match: the host's match is no record of hers
    net.tap("ana", action="guest-leave")
    assert g.role != "guest"
    g.screen()
    assert not g.handle({"action": "export"}).downloads


def test_a_safety_dialogs_buttons_do_nothing_when_it_is_not_up():
    """keep-mine (write this tab's match over another tab's) or continue-here
    without the dialog that offers them would overwrite or drop a position."""
    store = MemoryStore()
    a = Session(store, "/domino/", params={"seed": "7"})
    a.handle({"action": "start", "form": {"seat-kind-1": "easy"}})
    other = store.get("domino:/domino/:save").replace(a.match_id, "another-match")
    store.set("domino:/domino/:save", other)
    for action in ("keep-mine", "continue-here", "free-space", "save-later", "download-corrupt", "turn-resign"):
        a.handle({"action": action})
        assert store.get("domino:/domino/:save") == other and a.safety.panel is None and not a.ctrl.match.outcome
    a.handle({"action": "storage", "key": "domino:/domino/:save"})
    assert a.safety.panel is not None and a.safety.panel[0] == "other-match"
    a.handle({"action": "free-space"})             # not this dialog's button
    assert store.get("domino:/domino/:save") == other
    a.handle({"action": "keep-mine"})
    assert store.get("domino:/domino/:save") != other and a.safety.panel is None
