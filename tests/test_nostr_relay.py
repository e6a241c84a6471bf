"""scripts/nostr_relay.py: the Nostr relay that the "Play over the internet"
browser tests (and players on their own network) use, tested with a real
websockets client against the real relay."""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedError

import aio
import nostr_relay  # tests/conftest.py puts scripts/ on sys.path
from nostr_relay import RelayThread, pubkey_of, sign, sign_event, verify

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))

SK_A = bytes(31) + b"\x01"
SK_B = bytes(31) + b"\x02"
TOPIC = "domino-test-topic"
RECV_TIMEOUT_S = 3


# ------------------------------------------------------------------ BIP-340
# bip-0340/test-vectors.csv rows 0-14: (index, secret key, public key,
# aux_rand, message, signature, valid)
VECTORS = [
    (0, "0000000000000000000000000000000000000000000000000000000000000003",
     "F9308A019258C31049344F85F89D5229B531C845836F99B08601F113BCE036F9",
     "0000000000000000000000000000000000000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000",
     "E907831F80848D1069A5371B402410364BDF1C5F8307B0084C55F1CE2DCA8215"
     "25F66A4A85EA8B71E482A74F382D2CE5EBEEE8FDB2172F477DF4900D310536C0", True),
    (1, "B7E151628AED2A6ABF7158809CF4F3C762E7160F38B4DA56A784D9045190CFEF",
     "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659",
     "0000000000000000000000000000000000000000000000000000000000000001",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "6896BD60EEAE296DB48A229FF71DFE071BDE413E6D43F917DC8DCF8C78DE3341"
     "8906D11AC976ABCCB20B091292BFF4EA897EFCB639EA871CFA95F6DE339E4B0A", True),
    (2, "C90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B14E5C9",
     "DD308AFEC5777E13121FA72B9CC1B7CC0139715309B086C960E18FD969774EB8",
     "C87AA53824B4D7AE2EB035A2B5BBBCCC080E76CDC6D1692C4B0B62D798E6D906",
     "7E2D58D8B3BCDF1ABADEC7829054F90DDA9805AAB56C77333024B9D0A508B75C",
     "5831AAEED7B44BB74E5EAB94BA9D4294C49BCF2A60728D8B4C200F50DD313C1B"
     "AB745879A5AD954A72C45A91C3A51D3C7ADEA98D82F8481E0E1E03674A6F3FB7", True),
    (3, "0B432B2677937381AEF05BB02A66ECD012773062CF3FA2549E44F58ED2401710",
     "25D1DFF95105F5253C4022F628A996AD3A0D95FBF21D468A1B33F8C160D8F517",
     "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
     "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
     "7EB0509757E246F19449885651611CB965ECC1A187DD51B64FDA1EDC9637D5EC"
     "97582B9CB13DB3933705B32BA982AF5AF25FD78881EBB32771FC5922EFC66EA3", True),
    (4, "", "D69C3509BB99E412E68B0FE8544E72837DFA30746D8BE2AA65975F29D22DC7B9", "",
     "4DF3C3F68FCC83B27E9D42C90431A72499F17875C81A599B566C9889B9696703",
     "00000000000000000000003B78CE563F89A0ED9414F5AA28AD0D96D6795F9C63"
     "76AFB1548AF603B3EB45C9F8207DEE1060CB71C04E80F593060B07D28308D7F4", True),
    # public key not on the curve
    (5, "", "EEFDEA4CDB677750A420FEE807EACF21EB9898AE79B9768766E4FAA04A2D4A34", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "6CFF5C3BA86C69EA4B7376F31A9BCB4F74C1976089B2D9963DA2E5543E177769"
     "69E89B4C5564D00349106B8497785DD7D1D713A8AE82B32FA79D5F7FC407D39B", False),
    # R has an odd y
    (6, "", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "FFF97BD5755EEEA420453A14355235D382F6472F8568A18B2F057A1460297556"
     "3CC27944640AC607CD107AE10923D9EF7A73C643E166BE5EBEAFA34B1AC553E2", False),
    # negated message
    (7, "", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "1FA62E331EDBC21C394792D2AB1100A7B432B013DF3F6FF4F99FCB33E0E1515F"
     "28890B3EDB6E7189B630448B515CE4F8622A954CFE545735AAEA5134FCCDB2BD", False),
    # negated s
    (8, "", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "6CFF5C3BA86C69EA4B7376F31A9BCB4F74C1976089B2D9963DA2E5543E177769"
     "961764B3AA9B2FFCB6EF947B6887A226E8D7C93E00C5ED0C1834FF0D0C2E6DA6", False),
    # s·G - e·P is infinite (r = 0)
    (9, "", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "0000000000000000000000000000000000000000000000000000000000000000"
     "123DDA8328AF9C23A94C1FEECFD123BA4FB73476F0D594DCB65C6425BD186051", False),
    # s·G - e·P is infinite (r = 1)
    (10, "", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "0000000000000000000000000000000000000000000000000000000000000001"
     "7615FBAF5AE28864013C099742DEADB4DBA87F11AC6754F93780D5A1837CF197", False),
    # r is not the x of a point on the curve
    (11, "", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "4A298DACAE57395A15D0795DDBFD1DCB564DA82B0F269BC70A74F8220429BA1D"
     "69E89B4C5564D00349106B8497785DD7D1D713A8AE82B32FA79D5F7FC407D39B", False),
    # r is the field size
    (12, "", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F"
     "69E89B4C5564D00349106B8497785DD7D1D713A8AE82B32FA79D5F7FC407D39B", False),
    # s is the curve order
    (13, "", "DFF1D77F2A671C5F36183726DB2341BE58FEAE1DA2DECED843240F7B502BA659", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "6CFF5C3BA86C69EA4B7376F31A9BCB4F74C1976089B2D9963DA2E5543E177769"
     "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", False),
    # public key past the field size
    (14, "", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC30", "",
     "243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89",
     "6CFF5C3BA86C69EA4B7376F31A9BCB4F74C1976089B2D9963DA2E5543E177769"
     "69E89B4C5564D00349106B8497785DD7D1D713A8AE82B32FA79D5F7FC407D39B", False),
]


@pytest.mark.parametrize("index, secret, public, aux, message, signature, valid", VECTORS,
                         ids=[f"vector{v[0]}" for v in VECTORS])
def test_bip340_vectors(index, secret, public, aux, message, signature, valid):
    pub, msg, sig = bytes.fromhex(public), bytes.fromhex(message), bytes.fromhex(signature)
    if secret:
        sk = bytes.fromhex(secret)
        assert pubkey_of(sk) == pub
        assert sign(sk, msg, bytes.fromhex(aux)) == sig
    assert verify(pub, msg, sig) is valid


def test_bip340_generator_round_trip_and_flipped_bits():
    # secret key 1: the public key is the generator's x
    assert pubkey_of(SK_A).hex() == "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
    msg = bytes(range(32))
    sig = sign(SK_B, msg, bytes(32))
    assert verify(pubkey_of(SK_B), msg, sig)
    assert not verify(pubkey_of(SK_A), msg, sig)
    for i in (0, 31, 32, 63):
        flipped = bytearray(sig)
        flipped[i] ^= 1
        assert not verify(pubkey_of(SK_B), msg, bytes(flipped))
    assert not verify(pubkey_of(SK_B), bytes([1]) + msg[1:], sig)
    with pytest.raises(ValueError):
        pubkey_of(bytes(32))


# ------------------------------------------------------------------ helpers
@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "relay.log"


@pytest.fixture
def relay(log_path: Path):
    with RelayThread(log_path=log_path) as r:
        yield r


def run(coro: Any) -> Any:
    return aio.run(coro, 20)


async def recv(ws: ClientConnection) -> list[Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT_S))


async def send(ws: ClientConnection, *message: Any) -> None:
    await ws.send(json.dumps(list(message)))


async def publish(ws: ClientConnection, event: dict[str, Any]) -> list[Any]:
    """Send an EVENT and return the relay's OK."""
    await send(ws, "EVENT", event)
    reply = await recv(ws)
    assert reply[0] == "OK" and reply[1] == event["id"], reply
    return reply


async def query(ws: ClientConnection, sub_id: str, *filters: dict[str, Any]) -> list[str]:
    """REQ, then the ids of the stored events sent before EOSE, in order."""
    await send(ws, "REQ", sub_id, *filters)
    ids = []
    while True:
        reply = await recv(ws)
        if reply == ["EOSE", sub_id]:
            return ids
        assert reply[:2] == ["EVENT", sub_id], reply
        ids.append(reply[2]["id"])


def ephemeral(content: str = "hi", sk: bytes = SK_A, topic: str = TOPIC) -> dict[str, Any]:
    return sign_event(sk, kind=20001, content=content, tags=[["x", topic]])


def note(created_at: int, sk: bytes = SK_A, tags: list[list[str]] | None = None,
         kind: int = 1) -> dict[str, Any]:
    return sign_event(sk, kind=kind, content=f"note {created_at}", tags=tags,
                      created_at=created_at)


# -------------------------------------------------------------------- relay
def test_event_reaches_matching_subscriptions_on_every_connection(relay):
    async def main():
        async with connect(relay.url) as a, connect(relay.url + "/any/path") as b:
            now = int(time.time())
            sub = {"kinds": [20001], "since": now - 60, "#x": [TOPIC]}
            assert await query(a, "sub-a", sub) == []
            assert await query(b, "sub-b", sub) == []
            await query(a, "other-topic", {"kinds": [20001], "#x": ["elsewhere"]})
            event = ephemeral()
            assert await publish(b, event) == ["OK", event["id"], True, ""]
            assert await recv(a) == ["EVENT", "sub-a", event]
            assert await recv(b) == ["EVENT", "sub-b", event]  # the sender's own too
            # nothing for the other topic: the next thing a gets is its own query
            assert await query(a, "after", {"ids": [event["id"]]}) == []
    run(main())


def test_ephemeral_events_are_not_stored_others_are(relay):
    async def main():
        async with connect(relay.url) as ws:
            short = ephemeral()
            kept = note(1000, tags=[["x", TOPIC]])
            await publish(ws, short)
            await publish(ws, kept)
            assert await query(ws, "s", {"#x": [TOPIC]}) == [kept["id"]]
        async with connect(relay.url) as ws:  # and from another connection
            assert await query(ws, "s", {"ids": [short["id"], kept["id"]]}) == [kept["id"]]
    run(main())


def test_filter_semantics(relay):
    a1, a2 = note(100, SK_A, [["x", "t1"]]), note(200, SK_A, [["x", "t2"], ["e", "zz"]])
    b1 = note(300, SK_B, [["x", "t1"], ["p", "someone"]])
    b2 = note(400, SK_B, kind=7)
    everything = [b2["id"], b1["id"], a2["id"], a1["id"]]  # newest first

    async def main():
        async with connect(relay.url) as ws:
            for event in (a1, a2, b1, b2):
                await publish(ws, event)
            assert await query(ws, "all", {}) == everything
            assert await query(ws, "kinds", {"kinds": [7]}) == [b2["id"]]
            assert await query(ws, "tag", {"#x": ["t1"]}) == [b1["id"], a1["id"]]
            assert await query(ws, "tag2", {"#x": ["t1", "t2"], "#e": ["zz"]}) == [a2["id"]]
            assert await query(ws, "since", {"since": 200}) == everything[:3]
            assert await query(ws, "until", {"until": 200}) == everything[2:]
            assert await query(ws, "range", {"since": 150, "until": 350}) == [b1["id"], a2["id"]]
            authors = {"authors": [pubkey_of(SK_B).hex()]}
            assert await query(ws, "authors", authors) == [b2["id"], b1["id"]]
            assert await query(ws, "ids", {"ids": [a1["id"], b2["id"]]}) == [b2["id"], a1["id"]]
            assert await query(ws, "and", {"authors": [pubkey_of(SK_A).hex()], "#x": ["t1"],
                                           "kinds": [1]}) == [a1["id"]]
            assert await query(ws, "limit", {"limit": 2}) == everything[:2]
            assert await query(ws, "limit0", {"limit": 0}) == []
            # several filters are ORed, each with its own limit, no event twice
            assert await query(ws, "or", {"kinds": [7]}, {"#x": ["t1"], "limit": 1},
                               {"ids": [b1["id"]]}) == [b2["id"], b1["id"]]
            assert await query(ws, "none", {"kinds": []}) == []
    run(main())


def test_live_events_follow_the_filters_and_close_stops_them(relay):
    async def main():
        async with connect(relay.url) as sub, connect(relay.url) as pub:
            await query(sub, "topic", {"kinds": [20001], "#x": [TOPIC]})
            await query(sub, "late", {"kinds": [20001], "since": int(time.time()) + 3600})
            await query(sub, "b-only", {"authors": [pubkey_of(SK_B).hex()]})
            first = ephemeral("one")
            await publish(pub, first)
            assert await recv(sub) == ["EVENT", "topic", first]
            await send(sub, "CLOSE", "topic")
            # replacing a subscription: same id, new filters
            await query(sub, "b-only", {"#x": [TOPIC]})
            second = ephemeral("two")
            await publish(pub, second)
            assert await recv(sub) == ["EVENT", "b-only", second]
            await query(sub, "barrier", {"ids": []})  # nothing else arrived before it
    run(main())


def test_bad_events_and_duplicates(relay):
    async def main():
        async with connect(relay.url) as ws:
            good = ephemeral()
            tampered = {**good, "content": "changed"}
            assert (await publish(ws, tampered))[2:] == [False, "invalid: bad event id"]
            other_sig = ephemeral("other")["sig"]
            forged = {**good, "sig": other_sig}
            assert (await publish(ws, forged))[2:] == [False, "invalid: bad signature"]
            assert (await publish(ws, good))[2] is True
            assert (await publish(ws, good))[2:] == [False, "duplicate: already have this event"]
            ok = await publish(ws, {**good, "kind": "20001"})
            assert ok[2] is False and ok[3].startswith("invalid: 'kind'")
            ok = await publish(ws, {**good, "tags": [["x", 1]]})
            assert ok[2] is False and ok[3].startswith("invalid: 'tags'")
            await send(ws, "EVENT", {"content": "no id"})
            assert (await recv(ws))[0] == "NOTICE"
            # a lone surrogate has no UTF-8 form, so no id can match it
            lone = {**good, "content": "\ud800"}
            assert (await publish(ws, lone))[2:] == [False, "invalid: bad event id"]
            await send(ws, "EVENT", {"id": "\udfff"})
            assert (await recv(ws))[:3] == ["OK", "\udfff", False]
            # non-ASCII content is fine (its id is over the UTF-8 bytes)
            accents = sign_event(SK_A, kind=20001, content="dominó ñ 🁣", tags=[["x", TOPIC]])
            assert (await publish(ws, accents))[2] is True
    run(main())


def test_no_verify_still_checks_the_id(log_path):
    async def main(url):
        async with connect(url) as ws:
            good = ephemeral()
            assert (await publish(ws, {**good, "sig": "0" * 128}))[2] is True
            assert (await publish(ws, {**good, "content": "x"}))[3] == "invalid: bad event id"
    with RelayThread(verify=False) as relay:
        run(main(relay.url))


def test_reject_all(log_path):
    async def main(url):
        async with connect(url) as ws:
            await query(ws, "s", {"kinds": [20001]})
            event = ephemeral()
            ok = await publish(ws, event)
            assert ok == ["OK", event["id"], False, "blocked: this relay refuses events"]
            assert await query(ws, "barrier", {"ids": []}) == []  # and no delivery
    with RelayThread(reject_all=True) as relay:
        run(main(relay.url))


def test_bad_frames_get_a_notice_and_the_connection_stays_usable(relay):
    async def main():
        async with connect(relay.url, max_size=None) as ws:
            await ws.send("[" + " " * (128 * 1024) + "]")
            reply = await recv(ws)
            assert reply[0] == "NOTICE" and reply[1].startswith("invalid: message of")
            for text in ("not json", "{}", "[]", '["HELLO"]', '["CLOSE"]', '["REQ"]'):
                await ws.send(text)
                reply = await recv(ws)
                assert reply[0] == "NOTICE" and reply[1].startswith("invalid: "), (text, reply)
            await ws.send(b"\x00\x01")
            assert (await recv(ws))[1] == "invalid: binary frames are not accepted"
            event = ephemeral()
            assert (await publish(ws, event))[2] is True
        async with connect(relay.url, max_size=None) as ws:  # past what the relay reads at all
            await ws.send("x" * (nostr_relay.HARD_FRAME_BYTES + 1))
            with pytest.raises(ConnectionClosedError):
                await recv(ws)
            assert ws.close_code == 1009
        async with connect(relay.url) as ws:  # and the relay goes on
            assert await query(ws, "s", {}) == []
    run(main())


def test_bad_requests_and_the_subscription_cap(relay):
    async def main():
        async with connect(relay.url) as ws:
            await send(ws, "REQ", "s")
            assert await recv(ws) == ["CLOSED", "s", "invalid: a REQ needs at least one filter"]
            await send(ws, "REQ", "s", {"search": "x"})
            assert await recv(ws) == ["CLOSED", "s", "invalid: unknown filter field 'search'"]
            await send(ws, "REQ", "s", {"kinds": ["1"]})
            assert (await recv(ws))[:2] == ["CLOSED", "s"]
            await send(ws, "REQ", "x" * 65, {})
            assert (await recv(ws))[0] == "NOTICE"
            for i in range(nostr_relay.MAX_SUBSCRIPTIONS):
                await query(ws, f"sub{i}", {"kinds": [20001]})
            await send(ws, "REQ", "one-too-many", {})
            assert await recv(ws) == ["CLOSED", "one-too-many", "error: too many subscriptions"]
            assert await query(ws, "sub0", {"kinds": [1]}) == []  # replacing one is fine
    run(main())


def test_log_records_connections_and_messages(relay, log_path):
    async def main():
        async with connect(relay.url + "/room") as ws:
            await query(ws, "s", {"kinds": [20001]})
            event = ephemeral()
            await publish(ws, event)
            await recv(ws)
            await ws.send("junk")
            await recv(ws)
            return event, ws.local_address[1]
    event, port = run(main())
    deadline = time.monotonic() + RECV_TIMEOUT_S
    while '"disconnect"' not in log_path.read_text() and time.monotonic() < deadline:
        time.sleep(0.02)
    lines = [json.loads(line) for line in log_path.read_text().splitlines()]
    peer = f"127.0.0.1:{port}"
    assert all(line["conn"] == 1 and line["peer"] == peer and "t" in line for line in lines)
    assert lines[0]["ev"] == "connect" and lines[0]["path"] == "/room"
    assert lines[-1]["ev"] == "disconnect" and lines[-1]["code"] == 1000
    flow = [(line["dir"], line["msg"]) for line in lines[1:-1]]
    assert flow == [
        ("in", ["REQ", "s", {"kinds": [20001]}]), ("out", ["EOSE", "s"]),
        ("in", ["EVENT", event]), ("out", ["OK", event["id"], True, ""]),
        ("out", ["EVENT", "s", event]),
        ("in", "junk"), ("out", ["NOTICE", "invalid: not JSON"]),
    ]


# ------------------------------------------------ replaceable, addressable, store
async def lookup(ws: ClientConnection, *filters: dict[str, Any]) -> list[str]:
    """The ids a one-off REQ finds (its subscription closed after EOSE)."""
    ids = await query(ws, "once", *filters)
    await send(ws, "CLOSE", "once")
    return ids


def test_replaceable_events_keep_the_newest_per_author_and_kind(relay):
    async def main():
        async with connect(relay.url) as ws, connect(relay.url) as watcher:
            await query(watcher, "live", {"kinds": [0, 3, 10002]})
            for kind in (0, 3, 10002):
                old, new = note(100, kind=kind), note(200, kind=kind)
                assert (await publish(ws, old))[2] is True
                assert await recv(watcher) == ["EVENT", "live", old]
                assert (await publish(ws, new))[2] is True
                assert await recv(watcher) == ["EVENT", "live", new]
                assert await lookup(ws, {"kinds": [kind]}) == [new["id"]]
                # an older one arriving late is refused, not stored, not passed on
                late = note(150, kind=kind)
                assert (await publish(ws, late))[2:] == [
                    False, "duplicate: have a newer event for this address"]
                assert await lookup(ws, {"kinds": [kind]}) == [new["id"]]
                # another author's event of the same kind is kept beside it
                other = note(50, SK_B, kind=kind)
                await publish(ws, other)
                assert await recv(watcher) == ["EVENT", "live", other]
                assert await lookup(ws, {"kinds": [kind]}) == [new["id"], other["id"]]
            # equal created_at: the lowest id stays, whichever came first
            x, y = note(300, kind=10003), sign_event(SK_A, kind=10003, content="other", created_at=300)
            low, high = sorted((x, y), key=lambda e: e["id"])
            await publish(ws, high)
            assert (await publish(ws, low))[2] is True
            assert (await publish(ws, sign_event(SK_A, kind=10003, content="third", created_at=299)))[2] is False
            assert await lookup(ws, {"kinds": [10003]}) == [low["id"]]
            # a regular kind keeps every event
            for t in (1, 2, 3):
                await publish(ws, note(t, kind=1))
            assert len(await lookup(ws, {"kinds": [1]})) == 3
    run(main())


def addressable(created_at: int, d: str | None, sk: bytes = SK_A, p: str = "reader",
                kind: int = 30078) -> dict[str, Any]:
    tags = ([["d", d]] if d is not None else []) + [["p", p]]
    return sign_event(sk, kind=kind, content=f"{d} at {created_at}", tags=tags, created_at=created_at)


def test_addressable_events_keep_the_newest_per_author_kind_and_d_tag(relay):
    async def main():
        async with connect(relay.url) as ws:
            a1, a2 = addressable(100, "match-a"), addressable(200, "match-a")
            b1 = addressable(150, "match-b", p="other-reader")
            none1, empty2 = addressable(100, None), addressable(300, "")   # no d tag is d ""
            b_other = addressable(120, "match-b", sk=SK_B)
            other_kind = addressable(110, "match-a", kind=30001)
            for event in (a1, b1, none1, a2, empty2, b_other, other_kind):
                assert (await publish(ws, event))[2] is True
            assert (await publish(ws, addressable(199, "match-a")))[2] is False
            assert await lookup(ws, {"kinds": [30078]}) == [empty2["id"], a2["id"], b1["id"],
                                                                   b_other["id"]]
            assert await lookup(ws, {"#d": ["match-a"]}) == [a2["id"], other_kind["id"]]
            assert await lookup(ws, {"#d": ["match-a"], "kinds": [30078]}) == [a2["id"]]
            assert await lookup(ws, {"#p": ["other-reader"]}) == [b1["id"]]
            assert await lookup(ws, {"authors": [pubkey_of(SK_B).hex()], "#d": ["match-b"]}) \
                == [b_other["id"]]
            assert await lookup(ws, {"kinds": [30078], "since": 150}) == [empty2["id"], a2["id"],
                                                                                  b1["id"]]
            assert await lookup(ws, {"kinds": [30078], "limit": 1}) == [empty2["id"]]
            assert await lookup(ws, {"ids": [a1["id"], none1["id"]]}) == []
    run(main())


def test_a_store_file_keeps_the_events_across_a_restart_and_memory_does_not(tmp_path):
    store = tmp_path / "relay.sqlite"
    kept, old, new = note(100), addressable(100, "m"), addressable(200, "m")

    async def fill(url):
        async with connect(url) as ws:
            for event in (kept, old, new, ephemeral()):
                assert (await publish(ws, event))[2] is True

    async def contents(url, resend=None):
        async with connect(url) as ws:
            ids = await lookup(ws, {})
            if resend is not None:
                return ids, (await publish(ws, resend))[2:]
            return ids

    with RelayThread(store=store) as relay:
        run(fill(relay.url))
        url = relay.url
        relay.restart()
        assert relay.url == url          # the same port
        ids, again = run(contents(relay.url, resend=new))
        assert ids == [new["id"], kept["id"]]
        assert again == [False, "duplicate: already have this event"]
        # the replaced one stays replaced, and the store follows a new replacement
        assert run(contents(relay.url, resend=old))[1][0] is False
        newer = addressable(300, "m")
        run(contents(relay.url, resend=newer))
        relay.restart()
        assert run(contents(relay.url)) == [newer["id"], kept["id"]]
        relay.restart(keep_store=False)
        assert run(contents(relay.url)) == []
    with RelayThread() as relay:          # no store file: a restart forgets
        run(fill(relay.url))
        assert len(run(contents(relay.url))) == 3 - 1   # the replaced one is gone
        relay.restart()
        assert run(contents(relay.url)) == []


def test_command_line_prints_the_url_and_stops_on_sigterm(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, str(REPO_ROOT / "scripts" / "nostr_relay.py"),
         "--host", "127.0.0.1", "--port", "0", "--log", str(tmp_path / "log"),
         "--store", str(tmp_path / "store.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("Relay listening on ws://127.0.0.1:"), (line, proc.stderr.read())
        url = line.split()[-1]
        assert int(url.rsplit(":", 1)[1]) > 0

        async def main():
            async with connect(url) as ws:
                assert (await publish(ws, ephemeral()))[2] is True
                assert (await publish(ws, note(100)))[2] is True
        run(main())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=5) == 0
        assert proc.stdout.read() == "" and proc.stderr.read() == ""
        # the store file holds the regular event (and not the ephemeral one)
        with RelayThread(store=tmp_path / "store.sqlite") as relay:
            assert [e["content"] for e in relay.relay.stored.values()] == ["note 100"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


TRYSTERO_MESSAGES = """
import { createEvent, subscribe } from "@trystero-p2p/nostr";
const topic = "domino-topic";
console.log(JSON.stringify([subscribe("sub1", topic),
                            await createEvent(topic, JSON.stringify({ hello: "dominó ✓" }))]));
"""


def test_trystero_messages_are_understood(relay):
    """The REQ and EVENT that Trystero's Nostr strategy makes (its own code,
    with @noble/secp256k1's signature) are accepted and delivered."""
    node = shutil.which("node")
    if not node or not (REPO_ROOT / "node_modules" / "@trystero-p2p" / "nostr").is_dir():
        pytest.skip("needs node and Trystero in node_modules (scripts/setup)")
    out = subprocess.run([node, "--input-type=module", "-e", TRYSTERO_MESSAGES],
                         cwd=str(REPO_ROOT), capture_output=True, text=True, timeout=20)
    assert out.returncode == 0, out.stderr
    req, event_message = json.loads(out.stdout)
    event = json.loads(event_message)[1]

    async def main():
        async with connect(relay.url) as ws:
            await ws.send(req)
            assert await recv(ws) == ["EOSE", "sub1"]
            await ws.send(event_message)
            assert await recv(ws) == ["OK", event["id"], True, ""]
            assert await recv(ws) == ["EVENT", "sub1", event]
    run(main())


# ------------------------------------------------------- in a network namespace
CLIENT = textwrap.dedent("""
    import asyncio, json, sys
    sys.path.insert(0, "scripts")
    from websockets.asyncio.client import connect
    from nostr_relay import sign_event

    async def main(url):
        async with connect(url) as sub, connect(url) as pub:
            await sub.send(json.dumps(["REQ", "s", {"kinds": [20001], "#x": ["ns"]}]))
            assert json.loads(await sub.recv()) == ["EOSE", "s"]
            event = sign_event(bytes(31) + b"\\x07", kind=20001, content="hi", tags=[["x", "ns"]])
            await pub.send(json.dumps(["EVENT", event]))
            print(json.dumps([json.loads(await pub.recv()), json.loads(await sub.recv())]))

    asyncio.run(asyncio.wait_for(main(sys.argv[1]), 10))
""")


def test_ns_relay_in_a_network_namespace(monkeypatch):
    if os.geteuid() != 0 or not shutil.which("ip"):
        pytest.skip("a network namespace needs root and the `ip` command")
    from netns import NetNs, NetNsUnavailable
    from relay import NsRelay

    ns = NetNs(serve=False)
    # no browser here: skip looking for Chromium (seconds, through Playwright)
    monkeypatch.setattr(ns, "_write_wrapper", lambda: None)
    try:
        ns.start()
    except NetNsUnavailable as exc:
        pytest.skip(f"no network namespace: {exc}")
    try:
        with NsRelay(ns) as relay:
            assert relay.url == f"ws://{ns.address}:7447"
            out = subprocess.run(ns.exec_argv(sys.executable, "-c", CLIENT, relay.url),
                                 cwd=str(REPO_ROOT), capture_output=True, text=True, timeout=20)
            assert out.returncode == 0, out.stderr
            ok, delivered = json.loads(out.stdout)
            assert ok[0] == "OK" and ok[2] is True
            assert delivered[:2] == ["EVENT", "s"] and delivered[2]["id"] == ok[1]
            assert [e["id"] for e in relay.events()] == [ok[1]]
            assert relay.peers() == {ns.address}
        relay.stop()  # idempotent
        assert relay.log()[-1]["ev"] == "disconnect"
    finally:
        ns.stop()
