"""domino/net/nostr.py: BIP-340 signatures and NIP-44 v2 encryption against
their published test vectors (tests/net/data/README.md names the sources),
NIP-01 events, and what a wrong key or a changed byte does."""
from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from domino.net import nostr

DATA = Path(__file__).resolve().parent / "data"
NIP44 = json.loads((DATA / "nip44.vectors.json").read_text(encoding="utf-8"))["v2"]
with open(DATA / "bip340-test-vectors.csv", newline="") as f:
    BIP340 = list(csv.DictReader(f))

SK1, SK2 = bytes(31) + b"\x01", bytes(31) + b"\x02"


def test_the_vector_files_are_the_published_ones():
    # the NIP publishes this checksum of its vectors file
    digest = hashlib.sha256((DATA / "nip44.vectors.json").read_bytes()).hexdigest()
    assert digest == "269ed0f69e4c192512cc779e78c555090cebc7c785b609e338a62afc3ce25040"
    assert len(BIP340) == 19


# ------------------------------------------------------------------ BIP-340
@pytest.mark.parametrize("row", BIP340, ids=[f"bip340-{r['index']}" for r in BIP340])
def test_bip340_vectors(row):
    pub, msg, sig = (bytes.fromhex(row[k]) for k in ("public key", "message", "signature"))
    valid = row["verification result"] == "TRUE"
    if row["secret key"]:
        sk = bytes.fromhex(row["secret key"])
        assert nostr.pubkey_of(sk) == pub
        assert nostr.sign(sk, msg, bytes.fromhex(row["aux_rand"])) == sig
    assert nostr.verify(pub, msg, sig) is valid, row["comment"]


def test_signatures_are_randomized_and_bound_to_key_and_message():
    msg = bytes(range(32))
    a, b = nostr.sign(SK2, msg), nostr.sign(SK2, msg)
    assert a != b      # fresh auxiliary randomness each time
    pub = nostr.pubkey_of(SK2)
    assert nostr.verify(pub, msg, a) and nostr.verify(pub, msg, b)
    assert not nostr.verify(nostr.pubkey_of(SK1), msg, a)
    assert not nostr.verify(pub, msg[:-1] + b"\x00", a)
    for i in (0, 31, 32, 63):
        flipped = bytearray(a)
        flipped[i] ^= 1
        assert not nostr.verify(pub, msg, bytes(flipped))
    for bad in (bytes(32), (nostr._N).to_bytes(32, "big"), b"\x01" * 31):
        with pytest.raises(nostr.NostrKeyError):
            nostr.pubkey_of(bad)
    sk = nostr.new_secret()
    assert len(sk) == 32 and nostr.is_pubkey(nostr.pubkey_of(sk))
    assert not nostr.is_pubkey(bytes.fromhex("EEFDEA4CDB677750A420FEE807EACF21EB9898AE79B9768766E4FAA04A2D4A34"))


# ------------------------------------------------------------------- events
def test_signed_events_and_what_check_event_catches():
    event = nostr.sign_event(SK1, kind=30078, content="hola ñ 🁣", tags=[["d", "x"], ["p", "ab"]],
                             created_at=1_700_000_000)
    assert event["pubkey"] == nostr.pubkey_of(SK1).hex()
    assert event["id"] == nostr.event_id(event) and nostr.check_event(event) is None
    assert nostr.tag_value(event, "d") == "x" and nostr.tag_value(event, "e") is None
    assert nostr.check_event({**event, "content": "changed"}) == "bad-id"
    other = nostr.sign_event(SK2, kind=30078, content="hola ñ 🁣", tags=[["d", "x"], ["p", "ab"]],
                             created_at=1_700_000_000)
    # another author's fields with this event's signature: the id no longer matches
    assert nostr.check_event({**event, "pubkey": other["pubkey"]}) == "bad-id"
    # another author's id and signature on this content: the signature is not this key's
    assert nostr.check_event({**other, "pubkey": event["pubkey"], "id": event["id"]}) == "bad-signature"
    assert nostr.check_event({**event, "kind": "1"}) == "malformed"
    assert nostr.check_event([]) == "malformed"
    assert nostr.check_event({**event, "content": "\ud800"}) == "bad-id"


# ------------------------------------------------------------------ NIP-44
@pytest.mark.parametrize("v", NIP44["valid"]["get_conversation_key"], ids=lambda v: v["pub2"][:8])
def test_nip44_conversation_keys(v):
    key = nostr.conversation_key(bytes.fromhex(v["sec1"]), bytes.fromhex(v["pub2"]))
    assert key.hex() == v["conversation_key"]


def test_nip44_message_keys():
    keys = NIP44["valid"]["get_message_keys"]
    conv = bytes.fromhex(keys["conversation_key"])
    for v in keys["keys"]:
        chacha_key, chacha_nonce, hmac_key = nostr.message_keys(conv, bytes.fromhex(v["nonce"]))
        assert (chacha_key.hex(), chacha_nonce.hex(), hmac_key.hex()) == \
            (v["chacha_key"], v["chacha_nonce"], v["hmac_key"])


def test_nip44_padded_lengths():
    for unpadded, padded in NIP44["valid"]["calc_padded_len"]:
        assert nostr.padded_len(unpadded) == padded


@pytest.mark.parametrize("v", NIP44["valid"]["encrypt_decrypt"], ids=lambda v: v["nonce"][:8])
def test_nip44_encrypt_decrypt(v):
    sec1, sec2 = bytes.fromhex(v["sec1"]), bytes.fromhex(v["sec2"])
    conv = nostr.conversation_key(sec1, nostr.pubkey_of(sec2))
    assert conv.hex() == v["conversation_key"]
    assert nostr.encrypt(v["plaintext"], conv, bytes.fromhex(v["nonce"])) == v["payload"]
    # the other side computes the same key and reads it
    back = nostr.conversation_key(sec2, nostr.pubkey_of(sec1))
    assert back == conv and nostr.decrypt(v["payload"], back) == v["plaintext"]


@pytest.mark.parametrize("v", NIP44["valid"]["encrypt_decrypt_long_msg"], ids=lambda v: v["pattern"])
def test_nip44_long_messages(v):
    plaintext = v["pattern"] * v["repeat"]
    assert hashlib.sha256(plaintext.encode()).hexdigest() == v["plaintext_sha256"]
    conv = bytes.fromhex(v["conversation_key"])
    payload = nostr.encrypt(plaintext, conv, bytes.fromhex(v["nonce"]))
    assert hashlib.sha256(payload.encode()).hexdigest() == v["payload_sha256"]
    assert nostr.decrypt(payload, conv) == plaintext


def test_nip44_refuses_what_the_vectors_refuse():
    for n in NIP44["invalid"]["encrypt_msg_lengths"]:
        with pytest.raises(nostr.Nip44Error):
            nostr.pad("a" * n)
    for v in NIP44["invalid"]["get_conversation_key"]:
        with pytest.raises(nostr.Nip44Error) as err:
            nostr.conversation_key(bytes.fromhex(v["sec1"]), bytes.fromhex(v["pub2"]))
        assert err.value.code == "bad-key", v["note"]
    codes = {"unknown": ("unknown-version",), "invalid base64": ("bad-base64",), "invalid MAC": ("bad-mac",),
             "invalid padding": ("bad-padding",), "invalid payload length": ("bad-length",)}
    for v in NIP44["invalid"]["decrypt"]:
        with pytest.raises(nostr.Nip44Error) as err:
            nostr.decrypt(v["payload"], bytes.fromhex(v["conversation_key"]))
        want = next(c for k, c in codes.items() if v["note"].startswith(k))
        assert err.value.code in want, (v["note"], err.value.code)


def test_a_wrong_key_reads_nothing_and_a_changed_byte_is_caught():
    alice, bob, eve = SK1, SK2, bytes(31) + b"\x05"
    conv = nostr.conversation_key(alice, nostr.pubkey_of(bob))
    payload = nostr.encrypt('{"t":"view"}', conv)
    assert nostr.encrypt('{"t":"view"}', conv) != payload        # a fresh nonce each time
    with pytest.raises(nostr.Nip44Error) as err:
        nostr.decrypt(payload, nostr.conversation_key(eve, nostr.pubkey_of(bob)))
    assert err.value.code == "bad-mac"
    raw = bytearray(nostr.base64.b64decode(payload))
    raw[40] ^= 1
    with pytest.raises(nostr.Nip44Error):
        nostr.decrypt(nostr.base64.b64encode(bytes(raw)).decode(), conv)
    with pytest.raises(nostr.Nip44Error):
        nostr.decrypt(None, conv)    # type: ignore[arg-type]


def test_what_is_remembered_answers_only_the_very_same_inputs(monkeypatch):
    """A phone reads the same events again and again: a signature checked and a payload decrypted are
    remembered, but a changed byte, another key or another signature is worked out afresh, and a
    refusal stays a refusal."""
    nostr.forget()
    calls = {"verify": 0, "decrypt": 0}
    real_verify, real_decrypt = nostr._verify, nostr._decrypt

    def counted(name, real):
        def f(*args):
            calls[name] += 1
            return real(*args)
        return f
    monkeypatch.setattr(nostr, "_verify", counted("verify", real_verify))
    monkeypatch.setattr(nostr, "_decrypt", counted("decrypt", real_decrypt))
    msg = hashlib.sha256(b"a move").digest()
    pub, sig = nostr.pubkey_of(SK1), nostr.sign(SK1, msg)
    assert [nostr.verify(pub, msg, sig) for _ in range(5)] == [True] * 5 and calls["verify"] == 1
    other = bytearray(msg)
    other[0] ^= 1
    bad_sig = sig[:63] + bytes([sig[63] ^ 1])
    for _ in range(2):
        assert not nostr.verify(pub, bytes(other), sig)
        assert not nostr.verify(pub, msg, bad_sig)
        assert not nostr.verify(nostr.pubkey_of(SK2), msg, sig)
    assert calls["verify"] == 4
    conv = nostr.conversation_key(SK1, nostr.pubkey_of(SK2))
    assert nostr.conversation_key(SK2, nostr.pubkey_of(SK1)) == conv
    payload = nostr.encrypt('{"t":"view"}', conv)
    assert [nostr.decrypt(payload, conv) for _ in range(3)] == ['{"t":"view"}'] * 3 and calls["decrypt"] == 1
    wrong = nostr.conversation_key(bytes(31) + b"\x05", nostr.pubkey_of(SK2))
    for _ in range(2):
        with pytest.raises(nostr.Nip44Error):
            nostr.decrypt(payload, wrong)
    assert calls["decrypt"] == 3


def test_the_memos_are_bounded_oldest_out():
    m = nostr.Memo(10)
    for i in range(6):
        m.put(i, str(i), 3)
    assert m.used <= 10 and [k for k in m.kept] == [3, 4, 5] and m.get(5) == "5" and m.get(0) is None
    m.put("big", "x", 11)                    # more than the whole budget: not kept, nothing pushed out
    assert m.get("big") is None and m.get(3) == "3"
    m.put(5, "other", 1)                     # an answer once kept is not replaced
    assert m.get(5) == "5"
    assert nostr.DECRYPTED.budget <= 2_000_000 and nostr.VERIFIED.budget <= 4096
    nostr.forget()
    assert all(not x.kept and x.used == 0
               for x in (nostr.VERIFIED, nostr.DECRYPTED, nostr.CONVERSATIONS, nostr.POINTS))


def test_chacha20_many_blocks_at_once_is_one_block_at_a_time(monkeypatch):
    """The key stream worked out LANES blocks at once (each word's blocks in one integer's lanes) is the
    one worked out block by block (LANES 1), whatever the length, across the groups' edges and where the
    32-bit block counter wraps."""
    import random
    rng = random.Random(8439)
    key, nonce = bytes(rng.randrange(256) for _ in range(32)), bytes(rng.randrange(256) for _ in range(12))
    cases = [(n, c) for n in (0, 1, 63, 64, 65, 1000, 64 * nostr.LANES - 1, 64 * nostr.LANES,
                              64 * nostr.LANES + 65, 65603) for c in (0, 1, 2**32 - 3)]
    datas = {n: bytes(rng.randrange(256) for _ in range(n)) for n, _ in cases}
    fast = [nostr.chacha20(key, nonce, datas[n], c) for n, c in cases]
    monkeypatch.setattr(nostr, "LANES", 1)
    slow = [nostr.chacha20(key, nonce, datas[n], c) for n, c in cases]
    assert fast == slow
    assert nostr.chacha20(key, nonce, bytes(64), 2**32) == nostr.chacha20(key, nonce, bytes(64), 0)


def test_chacha20_rfc8439_vector():
    # RFC 8439 section 2.4.2
    key = bytes(range(32))
    nonce = bytes.fromhex("000000000000004a00000000")
    text = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
            b"future, sunscreen would be it.")
    out = nostr.chacha20(key, nonce, text, counter=1)
    assert out.hex().startswith("6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b")
    assert out.hex().endswith("5af90bbf74a35be6b40b8eedf2785e42874d")
    assert nostr.chacha20(key, nonce, out, counter=1) == text


def test_the_crypto_and_the_mailbox_need_only_the_standard_library():
    """They run in the page (Pyodide) as they are: no package from outside
    the standard library, nothing but the game's own modules besides."""
    import ast
    import sys
    root = Path(__file__).resolve().parents[2] / "domino" / "net"
    for name in ("nostr.py", "mailbox.py"):
        tree = ast.parse((root / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for n in names:
                top = n.split(".")[0]
                assert top in sys.stdlib_module_names or top == "domino", f"{name} imports {n}"
