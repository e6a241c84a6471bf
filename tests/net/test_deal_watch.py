"""Issue 41 between devices: the host's views carry each hand's deal fingerprint and, once the hand is over,
its seed; the guest deals again from the seed and says plainly when it does not deal what it saw."""
from __future__ import annotations

import json

import pytest

from domino.engine import deals, tiles
from domino.net import protocol
from domino.net.dealwatch import DealWatch
from tests.net.test_host_guest import Net

HONEST = [("draw", ["human", "remote"], {}), ("latin", ["remote", "easy", "remote", "easy"], {}),
          ("mexican-train", ["human", "remote", "remote"], {"start_double": 6}),
          ("chicken-foot", ["human", "remote", "easy"], {}), ("frijolito", ["human", "remote", "easy"], {})]


def hand_over(net: Net, k: int) -> None:
    """Play on until hand ``k`` is over (its seed revealed to every guest)."""
    while net.match.hand_no == k and net.match.phase == "play":
        assert net.step()


@pytest.mark.parametrize("game, kinds, opts", HONEST, ids=[h[0] for h in HONEST])
def test_an_honest_host_gets_no_warning(game, kinds, opts):
    net = Net(game, kinds, opts, ui=False)
    net.lobby_and_start()
    net.play_to_end()
    m = net.match
    for s in net.host.remote_seats():
        g = net.guest(s)
        assert g.deal_warning is None, (game, s, g.deals.warnings)
        checked = [k for k, e in g.deals.hands.items() if e["checked"]]
        assert checked == list(range(len(m.records))) if m.phase != "play" else checked
        assert checked, "every hand played to its end was checked"
        fps = {k: e["fingerprint"] for k, e in g.deals.hands.items()}
        assert fps == {k: m.fingerprint(k) for k in fps}


def _started(seed=7, game="draw", kinds=("human", "remote")):
    net = Net(game, list(kinds), ui=False)
    for s in net.host.remote_seats():
        peer = net.connect(s)
        net.send(peer, net.guests[peer].ready(True))
    net.match = net.host.new_match(seed)
    return net


def test_a_host_that_swaps_a_dealt_tile_is_caught():
    net = _started()
    m = net.match
    # the hostile host gives itself the guest's highest tile for its own lowest, before anyone sees the deal
    h = m.hand

    def low(seat):
        return min((x for x in tiles.ids(h.hands[seat]) if not tiles.DOUBLE[x]), key=lambda x: tiles.PIPS[x])
    mine, theirs = low(1), low(0)
    h.hands[1] ^= (1 << mine) | (1 << theirs)
    h.hands[0] ^= (1 << mine) | (1 << theirs)
    rec = m.records[0]
    rec["deal"] = [sorted(set(d) ^ {mine, theirs}) for d in rec["deal"]]
    net.deliver(net.host.start(m, net.now))
    g = net.guest(1)
    assert g.deal_warning is None          # nothing to say before the seed comes
    hand_over(net, 0)
    assert g.deal_warning == {"hand": 0, "problems": ["deal"]}


def _guest_first_draw(seed: int):
    """Where (boneyard place) the guest (seat 1) first draws in hand 0 of an honest match, or None."""
    net = _started(seed)
    net.deliver(net.host.start(net.match, net.now))
    hand_over(net, 0)
    pos = 0
    for a in net.match.records[0]["actions"]:
        if a[1] == "d":
            if a[0] == 1:
                return pos, net.match.records[0]["boneyard"]
            pos += 1
    return None


def test_a_host_that_swaps_one_boneyard_tile_is_caught():
    for seed in range(1, 40):
        got = _guest_first_draw(seed)
        if got and got[0] < len(got[1]) - 1:
            break
    else:
        pytest.fail("no guest draw in 40 matches")
    pos, bone = got
    net = _started(seed)
    m = net.match
    # the same deal, but the tile the guest will draw swapped with the boneyard's last one
    b = m.hand.bone
    b[pos], b[-1] = b[-1], b[pos]
    m.records[0]["boneyard"] = list(b)
    net.deliver(net.host.start(m, net.now))
    hand_over(net, 0)
    g = net.guest(1)
    assert g.deal_warning == {"hand": 0, "problems": ["boneyard"]}


def _forge_reveal(net: Net, change) -> None:
    """The host's texts rewritten on their way: ``change(view)`` on every view that reveals a seed."""
    real = net.deliver

    def deliver(replies, drop=()):
        out = []
        for peer, text in replies:
            msg = json.loads(text)
            if msg.get("t") == "view" and "seed" in msg["view"].get("dealing", {}):
                change(msg["view"])
                g = net.guests.get(peer)
                if g is not None:
                    g.receive(protocol.encode(msg))
                continue
            out.append((peer, text))
        real(out, drop)
    net.deliver = deliver


@pytest.mark.parametrize("how", ["another-seed", "fingerprint-changed", "redeal"])
def test_a_forged_reveal_is_caught(how):
    net = _started(3)
    net.deliver(net.host.start(net.match, net.now))
    m = net.match

    def change(v):
        d = v["dealing"]
        if how == "another-seed":
            d["seed"] = m.deal_seed(v["hand_no"] + 5)
        elif how == "fingerprint-changed":      # a seed and its fingerprint that agree, but not the deal's
            d["seed"] = m.deal_seed(v["hand_no"] + 5)
            d["fingerprint"] = deals.fingerprint(d["seed"])
        else:
            d["redeals"] += 1
    _forge_reveal(net, change)
    hand_over(net, 0)
    g = net.guest(1)
    assert g.deal_warning is not None and g.deal_warning["hand"] == 0
    want = {"another-seed": "fingerprint", "fingerprint-changed": "fingerprint", "redeal": "changed"}[how]
    assert want in g.deal_warning["problems"]


def test_the_protocol_accepts_dealing_and_refuses_malformed():
    net = _started()
    net.deliver(net.host.start(net.match, net.now))
    m = net.match
    v = m.view(1)
    ok = protocol.encode(protocol.message("view", seq=m.seq, view=v, events=[]))
    assert protocol.decode_host(ok)["view"]["dealing"]["fingerprint"] == m.fingerprint()
    bad = [("fingerprint", "xyz"), ("fingerprint", 5), ("seed", "00"), ("seed", "g" * 32), ("redeals", -1),
           ("redeals", "1"), ("sizes", [7, "7"]), ("sizes", []), ("apart", ["nine"]), ("apart", "6-6"), ("extra", 1)]
    for key, value in bad:
        w = json.loads(ok)
        w["view"]["dealing"][key] = value
        with pytest.raises(protocol.ProtocolError):
            protocol.decode_host(json.dumps(w))
    w = json.loads(ok)
    w["view"]["dealing"] = "abc"
    with pytest.raises(protocol.ProtocolError):
        protocol.decode_host(json.dumps(w))
    w = json.loads(ok)
    del w["view"]["dealing"]
    assert "dealing" not in protocol.decode_host(json.dumps(w))["view"]      # optional
    w = json.loads(ok)
    w["view"]["dealing"]["seed"] = m.deal_seed()
    assert protocol.decode_host(json.dumps(w))["view"]["dealing"]["seed"] == m.deal_seed()


def test_the_watch_never_raises_on_junk():
    w = DealWatch(1)
    for junk in [{}, {"dealing": 5, "hand_no": 0}, {"dealing": {"fingerprint": "a" * 16}, "hand_no": 0},
                 {"dealing": {"fingerprint": "a" * 16, "redeals": 0, "sizes": [7, 7], "apart": [], "seed": "b" * 32},
                  "hand_no": 0, "phase": "play", "history": [{"seat": 1, "draw": "zz"}], "hand": ["x"]}]:
        w.see(junk)


def _first_shuffle_refused(real):
    """The host's rules finding no double to open with in a round's first shuffle, whatever it holds."""
    calls = []

    def highest_held_double(*args, **kw):
        calls.append(1)
        return (-1, -1) if len(calls) == 1 else real(*args, **kw)
    return highest_held_double


@pytest.mark.parametrize("game, module, opts", [("chicken-foot", "foot", {}),
                                                ("mexican-train", "trains", {"holder_starts": True})])
def test_a_redeal_the_rules_did_not_call_for_is_caught_by_the_guest(monkeypatch, game, module, opts):
    """A host that puts a round's first shuffle aside and deals the seed's second: the guest deals the first
    again, finds a double the round could open with, and says so."""
    import importlib
    mod = importlib.import_module(f"domino.engine.{module}")
    monkeypatch.setattr(mod, "highest_held_double", _first_shuffle_refused(mod.highest_held_double))
    net = Net(game, ["human", "remote", "easy"], opts, ui=False)
    for s in net.host.remote_seats():
        peer = net.connect(s)
        net.send(peer, net.guests[peer].ready(True))
    net.match = net.host.new_match(7)
    assert net.match.records[0]["redeals"] >= 1
    net.deliver(net.host.start(net.match, net.now))
    hand_over(net, 0)
    w = net.guest(1).deal_warning
    assert w is not None and w["hand"] == 0 and "redeals" in w["problems"], w


def test_a_frijolito_host_that_reorders_the_guests_row_is_caught():
    """Nobody may look at a Frijolito row, the guest's own included: it is checked as its tiles are turned
    over, against the rows the revealed seed deals."""
    net = _started(game="frijolito", kinds=("human", "remote", "easy"))
    m = net.match
    row = m.hand.rows[1]
    row[0], row[-1] = row[-1], row[0]
    m.records[0]["deal"][1] = list(row)
    net.deliver(net.host.start(m, net.now))
    hand_over(net, 0)
    w = net.guest(1).deal_warning
    assert w == {"hand": 0, "problems": ["moves"]}, w


def test_an_honest_frijolito_row_is_not_called_out():
    net = _started(game="frijolito", kinds=("human", "remote", "easy"))
    net.deliver(net.host.start(net.match, net.now))
    hand_over(net, 0)
    g = net.guest(1)
    assert g.deal_warning is None and g.deals.status(0) == "ok"


@pytest.mark.parametrize("game, opts", [("mexican-train", {"start_double": 6}), ("frijolito", {}),
                                        ("draw", {"first_opener": "random"})])
def test_a_host_that_picks_the_random_opener_is_caught(game, opts):
    """The first hand's random seat is drawn from the deal's own seed: a host that gives the first move to
    another seat is named once the seed is revealed (an honest one is not: test_an_honest_host_...)."""
    net = Net(game, ["human", "remote", "easy"], opts, ui=False)
    for s in net.host.remote_seats():
        peer = net.connect(s)
        net.send(peer, net.guests[peer].ready(True))
    m = net.match = net.host.new_match(11)
    h = m.hand
    assert h.opener == h.turn == deals.random_seat(m.deal_seed(0), m.records[0]["redeals"], 3)
    other = (h.opener + 1) % 3
    h.opener = h.turn = m.records[0]["opener"] = other
    net.deliver(net.host.start(m, net.now))
    hand_over(net, 0)
    w = net.guest(1).deal_warning
    assert w is not None and w["hand"] == 0 and w["problems"] == ["opener"], w


def test_an_honest_random_opener_is_not_called_out():
    net = Net("draw", ["human", "remote"], {"first_opener": "random"}, ui=False)
    net.lobby_and_start()
    net.play_to_end()
    g = net.guest(1)
    assert g.deal_warning is None and g.deals.status(0) == "ok"
