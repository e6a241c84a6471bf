"""Fuzzing the two tables (hypothesis): random texts and mutated valid
messages never raise, and a refused message changes nothing, on either side."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domino import app, players
from domino.app.controller import Controller
from domino.app.screens.display import Display
from domino.app.screens.table import draw_board
from domino.net import protocol
from domino.net.guest import GuestTable
from domino.net.host import HostTable
from domino.net.mirror import MirrorError, MirrorMatch

FUZZ = settings(max_examples=int(__import__("os").environ.get("NET_FUZZ", "300")), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def act_text(seq: int, action: dict) -> str:
    """A guest's "act" message as sent on the wire."""
    return protocol.encode(protocol.message("act", seq=seq, action=action))


def started_table(game: str = "draw", kinds=("human", "remote", "remote"), steps: int = 3):
    """A host table with two guests seated, a few moves into the match;
    returns (host, match, {seat: peer}, guests, now)."""
    host = HostTable({"game": game, "players": len(kinds), "seats": [{"kind": k, "name": ""} for k in kinds]})
    now = 0.0
    peers, guests = {}, {}
    for s in host.remote_seats():
        g = GuestTable(s, host.invite(s), f"G{s}")
        peers[s], guests[s] = f"peer{s}", g
        now += 0.1
        host.receive(peers[s], g.hello(), now)
        host.receive(peers[s], g.ready(True), now)
    m = host.new_match(11)
    for peer, text in host.start(m, now):
        next(g for s, g in guests.items() if peers[s] == peer).receive(text)
    for _ in range(steps):
        if m.phase != "play":
            break
        t = m.turn
        m.apply(players.get_player("random")(m.view(t), random.Random(m.seq)))
    for peer, text in host.sync(now):
        next(g for s, g in guests.items() if peers[s] == peer).receive(text)
    return host, m, peers, guests, now + 100.0


def check_receive(host: HostTable, m, peer: str, text, now: float) -> None:
    """receive never raises; without an action (or a reaction, a pong, a
    hello's own replies) the host's state and the match are unchanged."""
    before = (json.dumps(host.state(), sort_keys=True), m.state_key(), dict(host.bound))
    res = host.receive(peer, text, now)
    event(f"refused: {res.refused}" if res.refused else "action" if res.action else "accepted")
    assert res.refused != "internal", (text, res.replies)
    for p, out in res.replies:
        assert isinstance(p, str) and protocol.decode_host(out)
    if res.refused is not None:
        assert res.action is None and res.next_hand is None and not res.match_changed
        assert (json.dumps(host.state(), sort_keys=True), m.state_key(), dict(host.bound)) == before
        assert any(json.loads(out)["t"] == "refused" for p, out in res.replies) or res.refused == "rate-limit"
    if res.action is not None:
        seat, action = res.action
        assert action in m.legal_actions() or action == {"seat": seat, "resign": True}
        assert host.peers[peer].seat == seat
    assert m.state_key() == before[1]    # the table never applies anything itself


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)

KEYS = ["v", "t", "seat", "secret", "name", "ready", "seq", "action", "id", "n", "play", "end", "pass",
        "draw", "resign", "open", "flip", "reject", "face_up"]
TYPES = list(protocol.GUEST_TYPES) + list(protocol.HOST_TYPES) + ["", "act ", "ACT"]
#: well-formed envelopes with random fields: past the version and type checks
envelopes = st.builds(lambda t, fields: json.dumps({"v": protocol.VERSION, "t": t, **fields}),
                      st.sampled_from(TYPES), st.dictionaries(st.sampled_from(KEYS[2:]), json_values, max_size=4))


@FUZZ
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200),
                 json_values.map(json.dumps), envelopes, envelopes,
                 st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6).map(json.dumps)),
       st.sampled_from([1, 2, "stranger"]))
def test_random_texts_never_break_the_host(text, who):
    host, m, peers, _guests, now = started_table()
    check_receive(host, m, peers.get(who, who), text, now)


def _mutations(msg: dict):
    """Ways to spoil a valid message."""
    return st.one_of(
        st.tuples(st.just("drop"), st.sampled_from(sorted(msg))),
        st.tuples(st.just("set"), st.sampled_from(sorted(msg) + KEYS), json_values),
        st.tuples(st.just("action"), st.sampled_from(KEYS), json_values),
        st.tuples(st.just("type"), st.sampled_from(TYPES)),
        st.tuples(st.just("seq"), st.integers(-3, 3)),
        st.tuples(st.just("text"), st.integers(0, 400), st.text(max_size=3)),
    )


def _apply(msg: dict, text: str, mutation) -> str:
    kind = mutation[0]
    msg = json.loads(json.dumps(msg))
    if kind == "drop":
        msg.pop(mutation[1], None)
    elif kind == "set":
        msg[mutation[1]] = mutation[2]
    elif kind == "action" and isinstance(msg.get("action"), dict):
        msg["action"][mutation[1]] = mutation[2]
    elif kind == "type":
        msg["t"] = mutation[1]
    elif kind == "seq" and "seq" in msg:
        msg["seq"] = msg["seq"] + mutation[1]
    elif kind == "text":
        i = min(mutation[1], len(text))
        return text[:i] + mutation[2] + text[i + 1:]
    return json.dumps(msg)


@FUZZ
@given(st.data())
def test_mutated_valid_messages_never_break_the_host(data):
    host, m, peers, guests, now = started_table(steps=data.draw(st.integers(0, 6)))
    seat = data.draw(st.sampled_from([1, 2]))
    g = guests[seat]
    view = m.view(seat)
    legal = view["legal"] or [{"seat": seat, "pass": True}]
    valid = [
        {"v": protocol.VERSION, "t": "act", "seq": m.seq, "action": data.draw(st.sampled_from(legal))},
        {"v": protocol.VERSION, "t": "hello", "seat": seat, "secret": g.secret, "name": "x"},
        {"v": protocol.VERSION, "t": "next", "seq": m.seq},
        {"v": protocol.VERSION, "t": "react", "id": "wow"},
        {"v": protocol.VERSION, "t": "ready", "ready": True},
    ]
    msg = data.draw(st.sampled_from(valid))
    text = _apply(msg, json.dumps(msg), data.draw(_mutations(msg)))
    check_receive(host, m, peers[seat], text, now)
    # and the table still works: the seat to move can still move
    if m.turn in peers and host.pending is None:
        t = m.turn
        res = host.receive(peers[t], act_text(m.seq, m.legal_actions()[0]), now + 1)
        assert res.action == (t, m.legal_actions()[0])


@FUZZ
@given(st.lists(st.sampled_from(["act", "stale", "dup", "hello", "wrong", "ping", "react", "junk"]),
                min_size=1, max_size=25), st.integers(0, 2**16))
def test_sequences_of_messages_keep_the_match_consistent(ops, seed):
    """A stream of good and bad messages from both guests, the session
    applying only what the host validated: the match stays legal and every
    guest ends up with its exact view."""
    host, m, peers, guests, now = started_table()
    rng = random.Random(seed)
    for op in ops:
        now += rng.choice([0.0, 0.01, 0.5])
        seat = rng.choice([1, 2])
        g = guests[seat]
        v = m.view(seat)
        text = {
            "act": lambda: act_text(m.seq, rng.choice(v["legal"] or [{"seat": seat, "pass": True}])),
            "stale": lambda: act_text(max(0, m.seq - 1), {"seat": seat, "pass": True}),
            "dup": lambda: act_text(m.seq, (v["legal"] or [{"seat": seat, "pass": True}])[0]),
            "hello": lambda: g.hello(),
            "wrong": lambda: protocol.encode(protocol.message("hello", seat=seat, secret="wrong", name="")),
            "ping": lambda: g.ping(3),
            "react": lambda: g.react("clap"),
            "junk": lambda: "{" * rng.randrange(1, 40),
        }[op]()
        res = host.receive(peers[seat], text, now)
        assert res.refused != "internal"
        if peers[seat] in res.drop:      # too many wrong secrets: this device is gone
            return
        if res.action is not None:
            m.apply(res.action[1])
        for peer, out in res.replies + host.sync(now):
            s = next(s for s, p in peers.items() if p == peer)
            assert guests[s].receive(out).kind != "ignored"
        if m.finished:
            break
    for s, g in guests.items():
        if host.bound.get(s) == peers[s]:
            assert g.view == m.view(s)


@FUZZ
@given(st.one_of(st.text(max_size=300), st.binary(max_size=100), json_values.map(json.dumps),
                 st.dictionaries(st.sampled_from(["v", "t", "seq", "view", "events", "seat", "secret", "config",
                                                  "code", "your_seat", "outcome", "reason", "message"]),
                                 json_values, max_size=6)
                 .map(lambda d: json.dumps({"v": protocol.VERSION, **d}))))
def test_random_texts_never_break_a_guest(text):
    _host, _m, _peers, guests, _now = started_table(steps=2)
    g = guests[1]
    before = json.dumps(g.state(), sort_keys=True), list(g.log), g.lobby
    ev = g.receive(text)
    if ev.kind == "ignored":
        assert (json.dumps(g.state(), sort_keys=True), list(g.log), g.lobby) == before


def _paths(x, path=()):
    """Every place in JSON data, as a path of keys and indexes."""
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))


def _set(x, path, value):
    if not path:
        return value
    for k in path[:-1]:
        x = x[k]
    x[path[-1]] = value
    return None


@FUZZ
@given(st.data())
def test_mutated_views_never_break_a_guest_or_its_mirror(data):
    """A host sending a spoilt view (any field, at any depth, of any board):
    the guest ignores it or shows it; the mirror either stands for it or
    raises MirrorError; whatever it stands for, the table draws."""
    game = data.draw(st.sampled_from(["draw", "all-fives", "mexican-train", "chicken-foot", "frijolito"]))
    _host, m, _peers, guests, _now = started_table(game, steps=data.draw(st.integers(0, 12)))
    g = guests[1]
    v = json.loads(json.dumps(m.view(1)))
    v["seq"] = m.seq + 1           # a newer view, then spoilt
    for _ in range(data.draw(st.integers(1, 2))):
        path = data.draw(st.sampled_from(sorted(_paths(v), key=repr)[1:]))
        _set(v, path, data.draw(json_values | st.sampled_from([[], {}, None, -1, 99, "1-1", "6-6", True])))
    try:
        MirrorMatch(v)
    except MirrorError:
        pass
    before = json.dumps(g.state(), sort_keys=True)
    text = json.dumps({"v": protocol.VERSION, "t": "view", "seq": m.seq + 1, "view": v, "events": []})
    ev = g.receive(text)
    event(f"guest: {ev.kind}")
    if ev.kind == "ignored":
        assert json.dumps(g.state(), sort_keys=True) == before
    else:
        assert g.view == v and g.match.seq == v["seq"]
        c = Controller(g.match, viewer=1)
        app.game_screen(c, Display())            # whatever the mirror accepts, the table can draw
        draw_board(c, Display(), 300, 240)


@FUZZ
@given(st.text(max_size=2000))
def test_decode_raises_only_protocol_errors(text):
    for source in ("guest", "host"):
        try:
            protocol.decode(text, source)
        except protocol.ProtocolError as exc:
            assert exc.code in protocol.DECODE_CODES
