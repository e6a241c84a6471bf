"""Every phone at a friends' table shows the same truth (issue 39), through
the sessions' real inputs: taps on what a screen offers, the host's taps on
its seat controls, the clock's ticks, and the texts the phones send each
other (tests/test_friends_session.py's ``Net``).  A hostile host's texts are
injected as ``net-message`` inputs on the guest's connection.

* Undo is not offered at a friends' table, and an ``undo`` there does nothing
  (a shared match cannot be taken back on one phone).
* A friend whose seat the computer plays is told so, and how to get it back,
  and is offered no move.
* A countdown that still agrees with a fresh view stays on the friends'
  phones (the status carrying it comes before the view).
* A guest shows a countdown only when it agrees with the view it has."""
from __future__ import annotations

import json
import random

from domino import players
from domino.app.nodes import find, text_of, walk
from domino.app.session import Out, Session
from domino.engine.match import HUMAN
from domino.net import protocol
from domino.table import REMOTE, default_settings, new_match
from tests.test_friends_session import Net


def table(guests: tuple[str, ...] = ("Ana",), seconds: str | None = None, practice: bool = False,
          seed: str = "8") -> Net:
    """A host and its friends (seats 1, 2, ...) at a started Draw match, set up by taps."""
    net = Net()
    net.host(seed=seed)
    form = {"players": str(len(guests) + 1)}
    if practice:
        form["practice"] = True
    net.tap("host", action="change", field="practice", form=form)
    net.tap("host", action="play-friends")
    for i, name in enumerate(guests):
        net.join(name.lower(), i + 1, player_name=name)
    if seconds is not None:
        net.tap("host", action="change", field="time-limit", value=seconds, form={})
        for name in guests:                       # a change clears the Starts
            net.tap(name.lower(), action="join-table", value="")
    net.tap("host", action="start-table")
    assert net.devices["host"].ctrl is not None
    return net


def names_of(net: Net) -> list[str]:
    return [n for n, s in net.devices.items() if s.role == "guest"]


def move(net: Net, name: str) -> None:
    """``name`` makes its move the way a person does: taps on what its screen offers."""
    s = net.devices[name]
    seq = str(s.ctrl.match.seq)
    want = players.get_player("easy")(s.ctrl.view(), random.Random(s.ctrl.match.seq))
    if "play" in want:
        net.tap(name, action="tile", tile=want["play"], seq=seq)
        if s.ctrl.selected:
            net.tap(name, action="end", end=want["end"], seq=seq)
    elif "draw" in want:
        net.tap(name, action="draw", seq=seq)


def to_turn(net: Net, seat: int) -> None:
    """Everyone moves (the host's computers through the computer path) until ``seat`` is to move."""
    host = net.devices["host"]
    for _ in range(300):
        net.clock.now += 0.25
        m = host.ctrl.match
        if m.phase == "play" and m.turn == seat:
            return
        if m.phase == "hand-over":
            for n in ["host"] + names_of(net):
                net.tap(n, action="next-hand", seq=str(net.devices[n].ctrl.match.seq))
        elif m.seats[m.turn]["kind"] == "human":
            move(net, "host")
        elif m.seats[m.turn]["kind"] == "remote":
            move(net, next(n for n in names_of(net) if net.devices[n].link.table.seat == m.turn))
        else:
            net.tap("host", action="computer-move", move=host.computers.think().step(1000), gen=host.computers.gen)
    raise AssertionError(f"never seat {seat}'s turn")


def clock_on(s: Session):
    found = find(s.screen(), **{"data-testid": "net-clock"})
    return found[0] if found else None


def sent_by(net: Net, name: str, kind: str) -> list[dict]:
    return [json.loads(text) for frm, _to, text in net.sent if frm == name and json.loads(text)["t"] == kind]


# ------------------------------------------------------------ 4: no undo at a friends' table
def test_practice_ticked_the_host_is_offered_no_undo_and_the_friend_plays_on():
    net = table(practice=True)
    host, ana = net.devices["host"], net.devices["ana"]
    to_turn(net, 0)
    move(net, "host")
    assert host.ctrl.match.turn == 1 and ana.ctrl.match.seq == host.ctrl.match.seq
    assert not find(host.screen(), **{"data-testid": "undo"})
    assert not find(host.screen(), **{"data-testid": "practice-badge"})
    before = (host.ctrl, host.ctrl.match.seq)
    net.tap("host", action="undo", seq=str(host.ctrl.match.seq))
    assert (host.ctrl, host.ctrl.match.seq) == before                  # nothing taken back
    seq = host.ctrl.match.seq
    move(net, "ana")
    assert host.ctrl.match.seq > seq and ana.ctrl.match.seq == host.ctrl.match.seq
    assert not any(m["reason"] == "duplicate" for m in sent_by(net, "host", "refused"))
    assert not find(ana.screen(), **{"data-testid": "undo"})


def test_practice_alone_still_offers_undo():
    s = Net().host(seed="8")
    s.handle({"action": "start", "form": {"practice": True, "players": "2", "seat-kind-1": "easy"}})
    for _ in range(50):
        if s.ctrl.match.turn == 0 and s.ctrl.match.phase == "play" and s.ctrl.match.seq > 0:
            break
        if s.ctrl.match.turn == 0:
            a = players.get_player("easy")(s.ctrl.view(), random.Random(1))
            s.handle({"action": "draw" if "draw" in a else "tile", "tile": a.get("play"), "seq": str(s.ctrl.match.seq)})
            if s.ctrl.selected:
                s.handle({"action": "end", "end": a["end"], "seq": str(s.ctrl.match.seq)})
        else:
            s.handle({"action": "computer-move", "move": s.computers.think().step(1000), "gen": s.computers.gen})
    assert find(s.screen(), **{"data-testid": "undo"})


# ------------------------------------------------------------ 5: the seat the computer plays
def test_a_friend_whose_seat_the_host_hands_to_the_computer_is_told_and_offered_no_move():
    net = table()
    host, ana = net.devices["host"], net.devices["ana"]
    to_turn(net, 1)
    assert ana.ctrl.my_turn()
    net.tap("host", action="seat-controls")
    net.tap("host", action="hand-to-computer", seat="1")
    assert host.ctrl.match.seats[1]["kind"] == "medium"
    screen = ana.screen()
    words = text_of(screen)
    assert "The computer is playing your seat. Ask the host to give it back " \
           "(Seats → Give the seat back to Ana)." in words
    assert "your turn" not in words
    assert not [n for n in walk(screen) if "playable" in n[1].get("class", "").split()]
    assert not find(screen, **{"data-action": "draw"}) and not find(screen, **{"data-action": "act"})
    assert "my-turn" not in find(screen, **{"data-game": "draw"})[0][1]["class"]
    acts = len(sent_by(net, "ana", "act"))
    seq = str(ana.ctrl.match.seq)
    for tile in ana.ctrl.view()["hand"]:                 # taps on the tiles send nothing
        net.tap("ana", action="tile", tile=tile, seq=seq)
    net.tap("ana", action="draw", seq=seq)
    assert len(sent_by(net, "ana", "act")) == acts
    assert not any(m["reason"] == "stand-in" for m in sent_by(net, "host", "refused"))
    net.tap("ana", action="lang", lang="es")
    assert "La computadora juega en tu puesto. Pídele al anfitrión que te lo devuelva " \
           "(Puestos → Devolver el puesto a Ana)." in text_of(ana.screen())
    net.tap("ana", action="lang", lang="en")
    net.tap("host", action="give-back", seat="1")        # the seat back: the friend moves again
    assert ana.ctrl.my_turn() and "The computer is playing your seat" not in text_of(ana.screen())
    seq = host.ctrl.match.seq
    move(net, "ana")
    assert host.ctrl.match.seq > seq


# ------------------------------------------------------------ 6: the countdown stays
def countdown_at_anas_turn(net: Net) -> None:
    to_turn(net, 1)
    net.clock.now += 31
    net.tap("host", action="net-tick")
    for s in net.devices.values():
        assert clock_on(s) is not None and str(clock_on(s)[1]["data-left"]) == "30"


def test_the_countdown_stays_on_the_friends_phones_when_the_host_hands_another_seat_over():
    net = table(("Ana", "Bea"), seconds="60")
    host = net.devices["host"]
    countdown_at_anas_turn(net)
    net.tap("host", action="seat-controls")
    net.tap("host", action="hand-to-computer", seat="2")
    assert host.ctrl.match.seats[2]["kind"] == "medium" and host.ctrl.match.turn == 1
    for name in ("host", "ana", "bea"):
        c = clock_on(net.devices[name])
        assert c is not None and "Ana: 30 s left to play" in text_of(c), name


def test_the_countdown_shows_on_a_phone_that_comes_back():
    net = table(("Ana", "Bea"), seconds="60")
    host = net.devices["host"]
    countdown_at_anas_turn(net)
    store = net.devices["bea"].store
    net.drop("bea")
    net.tap("host", action="invite-again", seat=2)
    bea = net.join("bea", 2, store=store)
    assert bea.ctrl is not None and bea.ctrl.match.seq == host.ctrl.match.seq
    for name in ("host", "ana", "bea"):
        c = clock_on(net.devices[name])
        assert c is not None and "Ana: 30 s left to play" in text_of(c), name


def say(net: Net, name: str, msg: dict) -> None:
    """A host's text (honest or not), arriving on the guest's connection to it."""
    g = net.devices[name]
    net.tap(name, action="net-message", conn=g.link.conn, text=json.dumps(msg))


def view_message(m, seat: int) -> dict:
    return protocol.message("view", seq=m.seq, view=m.view(seat), events=[], resigned=None, abandoned=None)


def test_a_new_position_ends_the_countdown_even_when_the_same_friend_is_to_move_again():
    """The others pass and Ana is to move again: the host starts her time again, and says nothing until its
    last seconds, so the countdown heard before is no longer hers."""
    settings = dict(default_settings("en"), players=3)
    settings["seats"] = [{"kind": HUMAN, "name": "Host"}, {"kind": "easy", "name": "Ana"}, {"kind": "easy", "name": "Bea"}]
    found = False
    for seed in range(1, 30):          # a match where Ana is to move twice running (the deals decide)
        net = table(("Ana", "Bea"))
        ana = net.devices["ana"]
        m = new_match(settings, seed, "en")
        m.seats[1]["kind"] = m.seats[2]["kind"] = REMOTE          # as the host's table makes them
        for _ in range(400):
            if m.finished:
                break
            if m.phase == "hand-over":
                m.next_hand()
                continue
            before = (m.seq, m.turn)
            if before[1] == 1:
                say(net, "ana", view_message(m, 1))
                say(net, "ana", protocol.message("status", seats=ana.link.table.statuses,
                                                 clock={"what": "turn", "seat": 1, "left": 20}))
                assert "Ana: 20 s left to play" in text_of(clock_on(ana))
            m.apply(players.get_player("easy")(m.view(m.turn), random.Random(m.seq)))
            if before[1] == 1 and m.phase == "play" and m.turn == 1:
                found = True
                break
        if found:
            break
    else:
        raise AssertionError("Ana was never to move twice running")
    say(net, "ana", view_message(m, 1))
    assert ana.link.table.seq == m.seq and ana.ctrl.my_turn()
    assert clock_on(ana) is None


# ------------------------------------------------------------ 7: a forged clock
def forge(net: Net, name: str, clock, seats: list[dict] | None = None) -> None:
    """A status text from a hostile host, on the guest's connection to it."""
    g = net.devices[name]
    say(net, name, protocol.message("status", seats=seats if seats is not None else g.link.table.statuses,
                                    clock=clock))


def test_a_guest_shows_no_forged_countdown():
    net = table()
    ana = net.devices["ana"]
    to_turn(net, 1)
    forged = [{"what": "turn", "seat": 1, "left": 3600}, {"what": "turn", "seat": 1, "left": 0},
              {"what": "turn", "seat": 1, "left": -5}, {"what": "turn", "seat": 1, "left": 7.5},
              {"what": "turn", "seat": 1, "left": True}, {"what": "next", "seat": None, "left": 20},
              {"what": "turn", "seat": 0, "left": 20}, {"what": "turn", "seat": 5, "left": 20},
              {"what": "turn", "seat": None, "left": 20}, {"what": "turn", "seat": "1", "left": 20},
              {"what": "later", "seat": 1, "left": 20}, "30", [1], None]
    for clock in forged:
        forge(net, "ana", clock)
        assert clock_on(ana) is None, clock
    forge(net, "ana", {"what": "turn", "seat": 1, "left": 20})      # one that agrees: shown
    assert "Ana: 20 s left to play" in text_of(clock_on(ana))
    stood_in = [dict(s, stand_in="medium") if s["seat"] == 1 else s for s in ana.link.table.statuses]
    forge(net, "ana", {"what": "turn", "seat": 1, "left": 20}, stood_in)  # a seat the computer plays
    assert clock_on(ana) is None
