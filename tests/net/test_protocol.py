"""The wire format (domino/net/protocol.py): every message both ways, the caps, the checks, names."""
from __future__ import annotations

import json
import random

import pytest

from domino import players
from domino.engine.match import Match
from domino.engine.rules import make_rules
from domino.net import protocol
from domino.net.protocol import ProtocolError, decode_guest, decode_host, encode
from domino.table import MAX_NAME, sanitize_name

GUEST_SAMPLES = [
    {"t": "hello", "seat": 1, "secret": "abc_DEF-123", "name": "Ana"},
    {"t": "ready", "ready": True},
    {"t": "ready", "ready": False},
    {"t": "act", "seq": 12, "action": {"seat": 1, "play": "4-6", "end": "E"}},
    {"t": "act", "seq": 3, "action": {"seat": 0, "draw": None}},
    {"t": "act", "seq": 3, "action": {"seat": 0, "pass": True}},
    {"t": "act", "seq": 3, "action": {"seat": 0, "play": "5-5", "end": "W", "open": 5}},
    {"t": "act", "seq": 3, "action": {"seat": 2, "play": "5-12", "end": "train:mexican"}},
    {"t": "act", "seq": 3, "action": {"seat": 2, "play": "4-9", "end": "foot:11"}},
    {"t": "act", "seq": 3, "action": {"seat": 0, "flip": None}},
    {"t": "act", "seq": 3, "action": {"seat": 0, "reject": "4-4", "face_up": True}},
    {"t": "act", "seq": 3, "action": {"seat": 0, "resign": True}},
    {"t": "next", "seq": 40},
    {"t": "react", "id": "clap"},
    {"t": "ping"},
    {"t": "ping", "n": 7},
    {"t": "bye"},
]

HOST_SAMPLES = [
    {"t": "welcome", "seat": 1, "secret": "abc", "name": "Ana"},
    {"t": "lobby", "config": {"game": "draw", "players": 2, "options": {}, "target": 100, "partnership": False,
                             "seats": [{"seat": 0, "status": "here", "name": "Pili", "kind": "human",
                                        "stand_in": None}]}, "code": "100pt/ab.", "your_seat": 1},
    {"t": "refused", "reason": "stale-seq", "message": "the table has moved on", "ref": 3},
    {"t": "ack", "seq": 4},
    {"t": "reaction", "seat": 0, "id": "wow"},
    {"t": "pong", "n": 7},
    {"t": "status", "seats": [{"seat": 0, "status": "here"}]},
    {"t": "ended", "outcome": {"winner": 0, "reason": "target", "scores": [100, 20]}, "abandoned": None},
    {"t": "closed", "reason": "replaced", "message": "this seat was opened on another device"},
]


def a_view(seat: int = 0) -> dict:
    m = Match(make_rules("draw", players=2), seed=3)
    return m.view(seat)


@pytest.mark.parametrize("msg", GUEST_SAMPLES, ids=lambda m: m["t"])
def test_every_guest_message_round_trips(msg):
    text = encode(msg)
    got = decode_guest(text)
    assert got == {"v": protocol.VERSION, **msg}
    assert len(text) <= protocol.MAX_GUEST_CHARS


@pytest.mark.parametrize("msg", HOST_SAMPLES, ids=lambda m: m["t"])
def test_every_host_message_round_trips(msg):
    assert decode_host(encode(msg)) == {"v": protocol.VERSION, **msg}


def test_a_view_message_round_trips():
    v = a_view()
    msg = {"t": "view", "seq": v["seq"], "view": v, "events": [], "resigned": None}
    assert decode_host(encode(msg))["view"] == v


def test_the_two_directions_are_not_interchangeable():
    with pytest.raises(ProtocolError) as e:
        decode_guest(encode({"t": "ack", "seq": 1}))
    assert e.value.code == "unknown-type"
    with pytest.raises(ProtocolError) as e:
        decode_host(encode({"t": "ping"}))
    assert e.value.code == "unknown-type"


def _code(text, source="guest") -> str:
    with pytest.raises(ProtocolError) as e:
        protocol.decode(text, source)
    assert isinstance(e.value, ValueError)
    assert str(e.value) and e.value.detail == str(e.value)
    return e.value.code


def test_size_is_capped_before_parsing():
    pad = "x" * protocol.MAX_GUEST_CHARS
    assert _code('{"v":"domino-net/1","t":"ping","pad":"' + pad + '"}') == "too-large"
    # a text under the cap in characters but over it in UTF-8 bytes
    wide = "ñ" * (protocol.MAX_GUEST_CHARS // 2 + 10)
    assert len(wide) < protocol.MAX_GUEST_CHARS
    assert _code(json.dumps({"v": protocol.VERSION, "t": "hello", "seat": 0, "secret": "a", "name": wide},
                            ensure_ascii=False)) == "too-large"
    assert _code(b"{" + b" " * (protocol.MAX_GUEST_CHARS + 1) + b"}") == "too-large"
    # the host's views have their own, larger cap
    big = json.dumps({"v": protocol.VERSION, "t": "pong", "pad": "y" * (protocol.MAX_GUEST_CHARS * 2)})
    assert decode_host(big)["t"] == "pong"
    too_big = json.dumps({"v": protocol.VERSION, "t": "pong", "pad": "y" * protocol.MAX_HOST_CHARS})
    assert _code(too_big, "host") == "too-large"


def test_nesting_is_capped_before_parsing():
    assert _code("[" * 8000 + "]" * 8000) == "too-deep"          # under the size cap
    assert _code('{"v":"domino-net/1","t":"ping","x":' + "[" * 7 + "]" * 7 + "}") == "too-deep"
    assert _code("[" * 100_000, "host") == "too-deep"
    # brackets inside strings do not count
    assert decode_guest(encode({"t": "hello", "seat": 0, "secret": "s", "name": "[[[[[[[[[[[["}))["name"] == "[" * 12


@pytest.mark.parametrize("text, code", [
    ("", "bad-json"),
    ("{", "bad-json"),
    ("{'v': 1}", "bad-json"),
    ('{"v":"domino-net/1","t":"ping","n":NaN}', "bad-json"),
    ('{"v":"domino-net/1","t":"ping","n":' + "9" * 5000 + "}", "bad-json"),
    ("[]", "not-object"),
    ('"hello"', "not-object"),
    ("null", "not-object"),
    ('{"t":"ping"}', "bad-version"),
    ('{"v":"domino-net/2","t":"ping"}', "bad-version"),
    ('{"v":"domino-net/1"}', "unknown-type"),
    ('{"v":"domino-net/1","t":"launch"}', "unknown-type"),
    ('{"v":"domino-net/1","t":["ping"]}', "unknown-type"),
    ('{"v":"domino-net/1","t":"welcome","seat":0,"secret":"x"}', "unknown-type"),
    ('{"v":"domino-net/1","t":"hello","seat":0,"secret":"x"}', "missing-field"),
    ('{"v":"domino-net/1","t":"act","seq":1}', "missing-field"),
    ('{"v":"domino-net/1","t":"hello","seat":true,"secret":"x","name":""}', "bad-field"),
    ('{"v":"domino-net/1","t":"hello","seat":1.0,"secret":"x","name":""}', "bad-field"),
    ('{"v":"domino-net/1","t":"hello","seat":8,"secret":"x","name":""}', "bad-field"),
    ('{"v":"domino-net/1","t":"hello","seat":-1,"secret":"x","name":""}', "bad-field"),
    ('{"v":"domino-net/1","t":"hello","seat":0,"secret":"a b","name":""}', "bad-field"),
    ('{"v":"domino-net/1","t":"hello","seat":0,"secret":"","name":""}', "bad-field"),
    ('{"v":"domino-net/1","t":"hello","seat":0,"secret":"x","name":7}', "bad-field"),
    ('{"v":"domino-net/1","t":"ready","ready":1}', "bad-field"),
    ('{"v":"domino-net/1","t":"ready","ready":"yes"}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":"3","action":{"seat":0,"pass":true}}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":3,"action":{"seat":0,"pass":1}}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":3,"action":{"seat":true,"pass":true}}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":3,"action":{"pass":true}}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":3,"action":{"seat":0,"play":"4-6","end":"E","x":1}}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":3,"action":{"seat":0,"play":"46"}}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":3,"action":{"seat":0,"play":"4-6","end":"<b>"}}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":3,"action":{"seat":0,"play":"4-6","open":true}}', "bad-field"),
    ('{"v":"domino-net/1","t":"act","seq":3,"action":[0]}', "bad-field"),
    ('{"v":"domino-net/1","t":"react","id":"free text!"}', "bad-field"),
    ('{"v":"domino-net/1","t":"ping","n":-1}', "bad-field"),
    ('{"v":"domino-net/1","t":"ping","n":1,"extra":1}', "unknown-field"),
    ('{"v":"domino-net/1","t":"bye","reason":"x"}', "unknown-field"),
])
def test_malformed_guest_messages_are_refused_with_a_code(text, code):
    assert _code(text) == code


def test_a_host_message_may_carry_fields_a_guest_does_not_know():
    got = decode_host('{"v":"domino-net/1","t":"ack","seq":3,"later":{"x":1}}')
    assert got["seq"] == 3


@pytest.mark.parametrize("text, code", [
    ('{"v":"domino-net/1","t":"view","seq":3,"view":{},"events":[]}', "bad-field"),
    ('{"v":"domino-net/1","t":"welcome","seat":0,"secret":"bad secret"}', "bad-field"),
    ('{"v":"domino-net/1","t":"reaction","seat":0,"id":"<script>"}', "bad-field"),
    ('{"v":"domino-net/1","t":"ended"}', "missing-field"),
])
def test_malformed_host_messages_are_refused(text, code):
    assert _code(text, "host") == code


def test_encode_refuses_what_is_not_a_message():
    for bad in ({"t": "act", "seq": 1, "action": {"seat": 0, "pass": 1}},
                {"t": "nope"}, {"t": "hello", "seat": 0}, [1, 2]):
        with pytest.raises(ProtocolError):
            encode(bad)
    with pytest.raises(ProtocolError) as e:
        encode({"t": "lobby", "code": "", "your_seat": 1, "config": {
            "game": "draw", "players": 2, "options": {"x": "x" * protocol.MAX_HOST_CHARS}, "seats": []}})
    assert e.value.code == "too-large"


@pytest.mark.parametrize("raw, want", [
    ("Ana", "Ana"),
    ("  Ana   María  ", "Ana María"),
    ("Ana\nMaría\t!", "Ana María !"),
    ("\x00A\x07n\x1ba\x7f", "Ana"),
    ("\u202eevil\u202c", "evil"),          # bidi override
    ("A\u200bn\u200da\ufeff", "Ana"),     # zero-width characters
    ("line\u2028break\u2029", "line break"),
    ("<b>Ana</b> & co", "<b>Ana</b> & co"),   # shown as text: kept as typed
    ("x" * 100, "x" * MAX_NAME),
    ("José 🀄 Ñandú", "José 🀄 Ñandú"),
    (None, ""),
    (42, ""),
])
def test_names_are_sanitized(raw, want):
    assert sanitize_name(raw) == want
    assert len(sanitize_name(raw)) <= MAX_NAME


GAMES = [("draw", 2, {}), ("all-fives", 3, {}), ("latin", 4, {}), ("matador", 2, {}),
         ("mexican-train", 4, {"start_double": 3, "holder_starts": True}),
         ("chicken-foot", 3, {"start_double": 3}), ("frijolito", 4, {"doubles_anywhere": True}),
         ("mexican-train", 8, {"start_double": 3})]


@pytest.mark.parametrize("game, n, opts", GAMES, ids=lambda x: str(x))
def test_every_legal_action_and_view_of_a_match_fits_the_protocol(game, n, opts):
    """A guest must be able to send every legal action, and the host every
    view: through a whole match, each legal action is a valid ``act`` and
    each seat's view a valid ``view`` message under the caps."""
    m = Match(make_rules(game, players=n, **opts), seed=4)
    rng = random.Random(1)
    biggest = 0
    kinds = set()
    while not m.finished:
        if m.phase == "hand-over":
            m.next_hand()
            continue
        for a in m.legal_actions() + [{"seat": m.turn, "resign": True}]:
            assert protocol.is_action(a), a
            assert decode_guest(encode({"t": "act", "seq": m.seq, "action": a}))["action"] == a
            kinds.add(next(k for k in a if k != "seat"))
        if rng.random() < 0.3:
            for s in range(n):
                text = encode({"t": "view", "seq": m.seq, "view": m.view(s), "events": []})
                biggest = max(biggest, len(text))
                assert decode_host(text)["view"] == m.view(s)
        m.apply(players.get_player("random")(m.view(m.turn), rng))
    assert biggest < protocol.MAX_HOST_CHARS // 8
    assert "play" in kinds


def test_reactions_are_a_fixed_list_of_ids():
    assert len(protocol.REACTIONS) == len(set(protocol.REACTIONS)) >= 4
    for rid in protocol.REACTIONS:
        assert decode_guest(encode({"t": "react", "id": rid}))["id"] == rid
