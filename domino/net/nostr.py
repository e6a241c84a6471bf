"""Nostr's cryptography in pure Python: keys, BIP-340 signatures, NIP-01 events, NIP-44 v2 encryption.

A match kept on Nostr relays (:mod:`domino.net.mailbox`) signs every event
and encrypts its content for its one reader; the page does it in Pyodide, so
this module uses nothing but the standard library (``hashlib``, ``hmac``,
``secrets``, ``base64``, ``struct``).  ``scripts/nostr_relay.py`` checks
events with the same code.

- Keys: a secret key is 32 bytes (:func:`new_secret`); its public key is the
  32-byte x coordinate of the point (:func:`pubkey_of`, BIP-340's x-only key).
- :func:`sign` / :func:`verify`: BIP-340 Schnorr signatures over secp256k1.
- Events (NIP-01): :func:`event_id`, :func:`sign_event`,
  :func:`event_shape_error`, :func:`check_event` (the id and signature).
- NIP-44 version 2 (:func:`conversation_key`, :func:`encrypt`,
  :func:`decrypt`): secp256k1 ECDH (the shared point's x, unhashed),
  HKDF-SHA256 with the salt ``nip44-v2``, ChaCha20 (RFC 8439, counter 0),
  HMAC-SHA256 over nonce and ciphertext, the NIP's padding, base64 of
  ``version 2 | nonce | ciphertext | mac``.  Tested against the NIP's and
  the BIP's published vectors (tests/net/test_nostr.py).

Not constant-time (Python integers are not): fine for a game among friends,
not for guarding money.  Points are in Jacobian coordinates so that a
scalar multiplication needs one modular inverse, and multiples of the
generator use a table of its doublings built once (a few ms).

The same events are read again and again on a phone (Your matches reads
every kept match, opening one reads it again, each from its events), so the
pure functions that cost milliseconds remember their last answers
(:class:`Memo`, bounded): a signature checked (valid or not), a payload
decrypted with a key, a conversation key, a secret key's point.  An answer is
only ever reused for the very same inputs.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import secrets
import struct
import time
from typing import Any

class Memo:
    """The last answers of a pure function, by their inputs: at most ``budget``
    in cost (each answer's ``cost``, 1 by default), the oldest out first."""

    def __init__(self, budget: int):
        self.budget = budget
        self.used = 0
        self.kept: dict[Any, tuple[Any, int]] = {}

    def get(self, key: Any) -> Any:
        hit = self.kept.get(key)
        return None if hit is None else hit[0]

    def put(self, key: Any, value: Any, cost: int = 1) -> None:
        if cost > self.budget or key in self.kept:
            return
        self.kept[key] = (value, cost)
        self.used += cost
        while self.used > self.budget:
            self.used -= self.kept.pop(next(iter(self.kept)))[1]

    def clear(self) -> None:
        self.kept.clear()
        self.used = 0


#: signatures checked (key: x-only public key + signature + message -> valid or not)
VERIFIED = Memo(4096)
#: payloads decrypted (key: (conversation key, payload) -> plaintext), bounded in characters
DECRYPTED = Memo(2_000_000)
#: conversation keys (key: secret key + public key) and secret keys' points (key: secret key)
CONVERSATIONS = Memo(256)
POINTS = Memo(64)


def forget() -> None:
    """Empty every memo (tests that count the work, or measure it)."""
    for m in (VERIFIED, DECRYPTED, CONVERSATIONS, POINTS):
        m.clear()


# ------------------------------------------------------------------ secp256k1
_P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
_Point = tuple[int, int, int] | None
_G: _Point = (0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
              0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8, 1)


class NostrKeyError(ValueError):
    """A secret key out of range, or a public key that is not on the curve."""


def _double(a: _Point) -> _Point:
    if a is None or a[1] == 0:
        return None
    x, y, z = a
    yy = y * y % _P
    s = 4 * x * yy % _P
    m = 3 * x * x % _P
    x3 = (m * m - 2 * s) % _P
    return x3, (m * (s - x3) - 8 * yy * yy) % _P, 2 * y * z % _P


def _add(a: _Point, b: _Point) -> _Point:
    if a is None:
        return b
    if b is None:
        return a
    (x1, y1, z1), (x2, y2, z2) = a, b
    z1z1, z2z2 = z1 * z1 % _P, z2 * z2 % _P
    u1, u2 = x1 * z2z2 % _P, x2 * z1z1 % _P
    s1, s2 = y1 * z2 * z2z2 % _P, y2 * z1 * z1z1 % _P
    if u1 == u2:
        return _double(a) if s1 == s2 else None
    h, r = (u2 - u1) % _P, (s2 - s1) % _P
    hh = h * h % _P
    hhh = h * hh % _P
    x3 = (r * r - hhh - 2 * u1 * hh) % _P
    return x3, (r * (u1 * hh - x3) - s1 * hhh) % _P, h * z1 * z2 % _P


def _affine(a: _Point) -> tuple[int, int] | None:
    if a is None:
        return None
    zinv = pow(a[2], -1, _P)
    zinv2 = zinv * zinv % _P
    return a[0] * zinv2 % _P, a[1] * zinv2 * zinv % _P


def _mul2(k1: int, a: _Point, k2: int = 0, b: _Point = None) -> _Point:
    """k1·a + k2·b, both in one pass over the bits (Shamir's trick)."""
    both = _add(a, b)
    result: _Point = None
    for i in range(max(k1.bit_length(), k2.bit_length()) - 1, -1, -1):
        result = _double(result)
        bit1, bit2 = k1 >> i & 1, k2 >> i & 1
        if bit1 or bit2:
            result = _add(result, both if bit1 and bit2 else a if bit1 else b)
    return result


_G_TABLE: list[_Point] = []     # 2^i·G for i in 0..255, built on first use


def _times_g_jacobian(k: int) -> _Point:
    """k·G with the table of the generator's doublings: additions only."""
    if not _G_TABLE:
        p = _G
        for _ in range(256):
            _G_TABLE.append(p)
            p = _double(p)
    result: _Point = None
    i = 0
    while k:
        if k & 1:
            result = _add(result, _G_TABLE[i])
        k >>= 1
        i += 1
    return result


def _lift_x(x: int) -> _Point:
    """The point with x coordinate ``x`` and an even y, if there is one."""
    if x >= _P:
        return None
    c = (pow(x, 3, _P) + 7) % _P
    y = pow(c, (_P + 1) // 4, _P)
    if y * y % _P != c:
        return None
    return x, y if y % 2 == 0 else _P - y, 1


def tagged_hash(tag: str, data: bytes) -> bytes:
    """BIP-340's ``hash_tag(data)``: sha256(sha256(tag) || sha256(tag) || data)."""
    tag_hash = hashlib.sha256(tag.encode()).digest()
    return hashlib.sha256(tag_hash + tag_hash + data).digest()


def _int(b: bytes) -> int:
    return int.from_bytes(b, "big")


def _bytes32(n: int) -> bytes:
    return n.to_bytes(32, "big")


def _times_g(k: int) -> tuple[int, int]:
    """k·G in affine coordinates, for 1 <= k < n (never infinity)."""
    point = _affine(_times_g_jacobian(k))
    assert point is not None
    return point


def _secret(secret_key: bytes) -> int:
    d = _int(secret_key) if isinstance(secret_key, (bytes, bytearray)) else 0
    if not isinstance(secret_key, (bytes, bytearray)) or len(secret_key) != 32 or not 1 <= d < _N:
        raise NostrKeyError("a secret key is 32 bytes, from 1 to the curve order - 1")
    return d


def new_secret() -> bytes:
    """A new random secret key (32 bytes, from the system's CSPRNG)."""
    while True:
        sk = secrets.token_bytes(32)
        if 1 <= _int(sk) < _N:
            return sk


def pubkey_of(secret_key: bytes) -> bytes:
    """The 32-byte x-only public key of a 32-byte secret key."""
    return _bytes32(_point_of(_secret(secret_key))[0])


def _point_of(d: int) -> tuple[int, int]:
    """d·G for a secret key d (remembered: a phone signs with the same few keys)."""
    point = POINTS.get(d)
    if point is None:
        point = _times_g(d)
        POINTS.put(d, point)
    return point


def is_pubkey(pubkey: Any) -> bool:
    """``pubkey`` is 32 bytes that are the x of a point of the curve."""
    return isinstance(pubkey, (bytes, bytearray)) and len(pubkey) == 32 and _lift_x(_int(pubkey)) is not None


def sign(secret_key: bytes, msg: bytes, aux: bytes | None = None) -> bytes:
    """The 64-byte BIP-340 signature of ``msg``.  ``aux`` is the BIP's
    auxiliary randomness (32 bytes; by default fresh random bytes)."""
    if aux is None:
        aux = secrets.token_bytes(32)
    if len(aux) != 32:
        raise ValueError("aux is 32 bytes")
    d0 = _secret(secret_key)
    px, py = _point_of(d0)
    d = d0 if py % 2 == 0 else _N - d0
    t = _bytes32(d ^ _int(tagged_hash("BIP0340/aux", aux)))
    k0 = _int(tagged_hash("BIP0340/nonce", t + _bytes32(px) + msg)) % _N
    if k0 == 0:
        raise ValueError("nonce is zero (negligible probability): use another aux")
    rx, ry = _times_g(k0)
    k = k0 if ry % 2 == 0 else _N - k0
    e = _int(tagged_hash("BIP0340/challenge", _bytes32(rx) + _bytes32(px) + msg)) % _N
    return _bytes32(rx) + _bytes32((k + e * d) % _N)


def verify(pubkey: bytes, msg: bytes, sig: bytes) -> bool:
    """Whether ``sig`` is a valid BIP-340 signature of ``msg`` by the x-only ``pubkey``."""
    if len(pubkey) != 32 or len(sig) != 64:
        return False
    key = bytes(pubkey) + bytes(sig) + bytes(msg)       # fixed lengths first: no two inputs share a key
    hit = VERIFIED.get(key)
    if hit is None:
        hit = _verify(pubkey, msg, sig)
        VERIFIED.put(key, hit)
    return hit


def _verify(pubkey: bytes, msg: bytes, sig: bytes) -> bool:
    point = _lift_x(_int(pubkey))
    r, s = _int(sig[:32]), _int(sig[32:])
    if point is None or r >= _P or s >= _N:
        return False
    e = _int(tagged_hash("BIP0340/challenge", sig[:32] + pubkey + msg)) % _N
    big_r = _affine(_add(_times_g_jacobian(s), _mul2(_N - e, point)))
    return big_r is not None and big_r[1] % 2 == 0 and big_r[0] == r


# ------------------------------------------------------------------- events
_HEX_FIELDS = (("id", 64), ("pubkey", 64), ("sig", 128))
_HEX = {n: re.compile(f"[0-9a-f]{{{n}}}") for n in (64, 128)}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def event_id(event: dict[str, Any]) -> str:
    """The NIP-01 id of an event: the sha256 of its serialization."""
    serial = json.dumps([0, event["pubkey"], event["created_at"], event["kind"],
                         event["tags"], event["content"]],
                        separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(serial.encode("utf-8")).hexdigest()


def event_shape_error(event: Any) -> str | None:
    """Why ``event`` is not a NIP-01 event object (None if it is one)."""
    if not isinstance(event, dict):
        return "an event is a JSON object"
    for name, length in _HEX_FIELDS:
        value = event.get(name)
        if not isinstance(value, str) or not _HEX[length].fullmatch(value):
            return f"'{name}' must be {length} lowercase hex digits"
    if not _is_int(event.get("created_at")) or event["created_at"] < 0:
        return "'created_at' must be a non-negative integer"
    if not _is_int(event.get("kind")) or not 0 <= event["kind"] <= 65535:
        return "'kind' must be an integer from 0 to 65535"
    tags = event.get("tags")
    if not isinstance(tags, list) or not all(
            isinstance(tag, list) and all(isinstance(item, str) for item in tag) for tag in tags):
        return "'tags' must be a list of lists of strings"
    if not isinstance(event.get("content"), str):
        return "'content' must be a string"
    return None


def check_event(event: Any) -> str | None:
    """Why ``event`` is not a valid signed event: ``"malformed"`` (not an
    event's shape), ``"bad-id"`` (the id is not the hash of its fields),
    ``"bad-signature"``; None when it is valid."""
    if event_shape_error(event) is not None:
        return "malformed"
    try:
        if event_id(event) != event["id"]:
            return "bad-id"
    except UnicodeEncodeError:       # a lone surrogate: no UTF-8 form, so no id
        return "bad-id"
    if not verify(bytes.fromhex(event["pubkey"]), bytes.fromhex(event["id"]), bytes.fromhex(event["sig"])):
        return "bad-signature"
    return None


def sign_event(secret_key: bytes, *, kind: int, content: str,
               tags: list[list[str]] | None = None, created_at: int | None = None,
               pubkey: str | None = None) -> dict[str, Any]:
    """A complete signed event.  ``pubkey`` (hex) saves computing it again
    when the caller knows it."""
    event: dict[str, Any] = {
        "pubkey": pubkey or pubkey_of(secret_key).hex(),
        "created_at": int(time.time()) if created_at is None else created_at,
        "kind": kind, "tags": tags or [], "content": content,
    }
    event["id"] = event_id(event)
    event["sig"] = sign(secret_key, bytes.fromhex(event["id"])).hex()
    return event


def tag_value(event: dict[str, Any], letter: str) -> str | None:
    """The value of the event's first ``letter`` tag (None: no such tag)."""
    for tag in event.get("tags") or ():
        if len(tag) >= 2 and tag[0] == letter:
            return tag[1]
    return None


# ------------------------------------------------------------------ NIP-44 v2
class Nip44Error(ValueError):
    """A payload that does not decrypt, or a message that cannot be encrypted.
    ``code``: ``unknown-version``, ``bad-length``, ``bad-base64``, ``bad-mac``,
    ``bad-padding``, ``bad-key``."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code


MIN_PLAINTEXT = 1
MAX_PLAINTEXT = 65535
_SALT = b"nip44-v2"
_M32 = 0xFFFFFFFF


def conversation_key(secret_key: bytes, pubkey: bytes) -> bytes:
    """The NIP-44 v2 key shared by the owner of ``secret_key`` and of
    ``pubkey`` (the same both ways): HKDF-extract(salt ``nip44-v2``) of the
    x of ``secret·P``.  A public key off the curve raises :class:`Nip44Error`."""
    try:
        d = _secret(secret_key)
    except NostrKeyError as exc:
        raise Nip44Error("bad-key", str(exc)) from None
    memo_key = (d, bytes(pubkey)) if isinstance(pubkey, (bytes, bytearray)) else None
    hit = CONVERSATIONS.get(memo_key) if memo_key is not None else None
    if hit is not None:
        return hit
    point = _lift_x(_int(pubkey)) if isinstance(pubkey, (bytes, bytearray)) and len(pubkey) == 32 else None
    if point is None:
        raise Nip44Error("bad-key", "the public key is not a point of the curve")
    shared = _affine(_mul2(d, point))
    assert shared is not None      # d < n and the curve's order is prime
    key = hmac.new(_SALT, _bytes32(shared[0]), hashlib.sha256).digest()
    CONVERSATIONS.put(memo_key, key)
    return key


def message_keys(conv_key: bytes, nonce: bytes) -> tuple[bytes, bytes, bytes]:
    """(chacha key, chacha nonce, hmac key): HKDF-expand(conv_key, info=nonce, 76 bytes)."""
    if len(conv_key) != 32 or len(nonce) != 32:
        raise Nip44Error("bad-key", "the conversation key and the nonce are 32 bytes")
    okm, block = b"", b""
    for i in (1, 2, 3):
        block = hmac.new(conv_key, block + nonce + bytes([i]), hashlib.sha256).digest()
        okm += block
    return okm[:32], okm[32:44], okm[44:76]


def padded_len(n: int) -> int:
    """NIP-44's padded size of an ``n``-byte plaintext (without the 2-byte length)."""
    if n <= 32:
        return 32
    next_power = 1 << (n - 1).bit_length()
    chunk = 32 if next_power <= 256 else next_power // 8
    return chunk * ((n - 1) // chunk + 1)


def pad(plaintext: str) -> bytes:
    raw = plaintext.encode("utf-8")
    if not MIN_PLAINTEXT <= len(raw) <= MAX_PLAINTEXT:
        raise Nip44Error("bad-length", f"a plaintext is {MIN_PLAINTEXT} to {MAX_PLAINTEXT} bytes, not {len(raw)}")
    return struct.pack(">H", len(raw)) + raw + bytes(padded_len(len(raw)) - len(raw))


def unpad(padded: bytes) -> str:
    n = struct.unpack(">H", padded[:2])[0] if len(padded) >= 2 else 0
    raw = padded[2:2 + n]
    if n == 0 or len(raw) != n or len(padded) != 2 + padded_len(n):
        raise Nip44Error("bad-padding", "invalid padding")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Nip44Error("bad-padding", "the plaintext is not UTF-8") from None


#: ChaCha20's blocks worked out at once: each of the state's 16 words holds that many blocks' words in
#: 64-bit lanes of one Python integer (a sum's carry and a rotation's spill land in a lane's upper half,
#: which the mask clears), so a round's few hundred integer operations serve them all
LANES = 256
_LANE_ONE = (1).to_bytes(8, "little")
_SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)


def chacha20(key: bytes, nonce: bytes, data: bytes, counter: int = 0) -> bytes:
    """RFC 8439 ChaCha20: ``data`` XOR the key stream of (key, 12-byte nonce)
    from block ``counter`` (the block counter wraps at 2**32, as the RFC's 32-bit counter does)."""
    if len(key) != 32 or len(nonce) != 12:
        raise ValueError("ChaCha20 takes a 32-byte key and a 12-byte nonce")
    words = struct.unpack("<8I", key) + struct.unpack("<3I", nonce)
    blocks = (len(data) + 63) // 64
    stream = bytearray(64 * blocks)
    b = 0
    while b < blocks:
        # up to LANES blocks at once, block i in bits 64i..64i+31 of each word (the bits above stay 0)
        lanes = min(LANES, blocks - b)
        one = int.from_bytes(_LANE_ONE * lanes, "little")
        m = _M32 * one
        c = int.from_bytes(b"".join(((counter + b + i) & _M32).to_bytes(8, "little") for i in range(lanes)),
                           "little")
        k0, k1, k2, k3, k4, k5, k6, k7, n0, n1, n2 = (w * one for w in words)
        s0, s1, s2, s3 = (w * one for w in _SIGMA)
        x0, x1, x2, x3 = s0, s1, s2, s3
        x4, x5, x6, x7, x8, x9, x10, x11 = k0, k1, k2, k3, k4, k5, k6, k7
        x12, x13, x14, x15 = c, n0, n1, n2
        for _ in range(10):
            # columns
            x0 = (x0 + x4) & m; x12 ^= x0; x12 = ((x12 << 16) | (x12 >> 16)) & m  # noqa: E702
            x8 = (x8 + x12) & m; x4 ^= x8; x4 = ((x4 << 12) | (x4 >> 20)) & m  # noqa: E702
            x0 = (x0 + x4) & m; x12 ^= x0; x12 = ((x12 << 8) | (x12 >> 24)) & m  # noqa: E702
            x8 = (x8 + x12) & m; x4 ^= x8; x4 = ((x4 << 7) | (x4 >> 25)) & m  # noqa: E702
            x1 = (x1 + x5) & m; x13 ^= x1; x13 = ((x13 << 16) | (x13 >> 16)) & m  # noqa: E702
            x9 = (x9 + x13) & m; x5 ^= x9; x5 = ((x5 << 12) | (x5 >> 20)) & m  # noqa: E702
            x1 = (x1 + x5) & m; x13 ^= x1; x13 = ((x13 << 8) | (x13 >> 24)) & m  # noqa: E702
            x9 = (x9 + x13) & m; x5 ^= x9; x5 = ((x5 << 7) | (x5 >> 25)) & m  # noqa: E702
            x2 = (x2 + x6) & m; x14 ^= x2; x14 = ((x14 << 16) | (x14 >> 16)) & m  # noqa: E702
            x10 = (x10 + x14) & m; x6 ^= x10; x6 = ((x6 << 12) | (x6 >> 20)) & m  # noqa: E702
            x2 = (x2 + x6) & m; x14 ^= x2; x14 = ((x14 << 8) | (x14 >> 24)) & m  # noqa: E702
            x10 = (x10 + x14) & m; x6 ^= x10; x6 = ((x6 << 7) | (x6 >> 25)) & m  # noqa: E702
            x3 = (x3 + x7) & m; x15 ^= x3; x15 = ((x15 << 16) | (x15 >> 16)) & m  # noqa: E702
            x11 = (x11 + x15) & m; x7 ^= x11; x7 = ((x7 << 12) | (x7 >> 20)) & m  # noqa: E702
            x3 = (x3 + x7) & m; x15 ^= x3; x15 = ((x15 << 8) | (x15 >> 24)) & m  # noqa: E702
            x11 = (x11 + x15) & m; x7 ^= x11; x7 = ((x7 << 7) | (x7 >> 25)) & m  # noqa: E702
            # diagonals
            x0 = (x0 + x5) & m; x15 ^= x0; x15 = ((x15 << 16) | (x15 >> 16)) & m  # noqa: E702
            x10 = (x10 + x15) & m; x5 ^= x10; x5 = ((x5 << 12) | (x5 >> 20)) & m  # noqa: E702
            x0 = (x0 + x5) & m; x15 ^= x0; x15 = ((x15 << 8) | (x15 >> 24)) & m  # noqa: E702
            x10 = (x10 + x15) & m; x5 ^= x10; x5 = ((x5 << 7) | (x5 >> 25)) & m  # noqa: E702
            x1 = (x1 + x6) & m; x12 ^= x1; x12 = ((x12 << 16) | (x12 >> 16)) & m  # noqa: E702
            x11 = (x11 + x12) & m; x6 ^= x11; x6 = ((x6 << 12) | (x6 >> 20)) & m  # noqa: E702
            x1 = (x1 + x6) & m; x12 ^= x1; x12 = ((x12 << 8) | (x12 >> 24)) & m  # noqa: E702
            x11 = (x11 + x12) & m; x6 ^= x11; x6 = ((x6 << 7) | (x6 >> 25)) & m  # noqa: E702
            x2 = (x2 + x7) & m; x13 ^= x2; x13 = ((x13 << 16) | (x13 >> 16)) & m  # noqa: E702
            x8 = (x8 + x13) & m; x7 ^= x8; x7 = ((x7 << 12) | (x7 >> 20)) & m  # noqa: E702
            x2 = (x2 + x7) & m; x13 ^= x2; x13 = ((x13 << 8) | (x13 >> 24)) & m  # noqa: E702
            x8 = (x8 + x13) & m; x7 ^= x8; x7 = ((x7 << 7) | (x7 >> 25)) & m  # noqa: E702
            x3 = (x3 + x4) & m; x14 ^= x3; x14 = ((x14 << 16) | (x14 >> 16)) & m  # noqa: E702
            x9 = (x9 + x14) & m; x4 ^= x9; x4 = ((x4 << 12) | (x4 >> 20)) & m  # noqa: E702
            x3 = (x3 + x4) & m; x14 ^= x3; x14 = ((x14 << 8) | (x14 >> 24)) & m  # noqa: E702
            x9 = (x9 + x14) & m; x4 ^= x9; x4 = ((x4 << 7) | (x4 >> 25)) & m  # noqa: E702
        out = ((x0 + s0) & m, (x1 + s1) & m, (x2 + s2) & m, (x3 + s3) & m,
               (x4 + k0) & m, (x5 + k1) & m, (x6 + k2) & m, (x7 + k3) & m,
               (x8 + k4) & m, (x9 + k5) & m, (x10 + k6) & m, (x11 + k7) & m,
               (x12 + c) & m, (x13 + n0) & m, (x14 + n1) & m, (x15 + n2) & m)
        end = 64 * (b + lanes)
        for j, w in enumerate(out):         # word j of block b + i: bytes 8i..8i+3 of w, little-endian
            wb = w.to_bytes(8 * lanes, "little")
            at = 64 * b + 4 * j
            for t in range(4):
                stream[at + t:end:64] = wb[t::8]
        b += lanes
    n = len(data)
    if n == 0:
        return b""
    out = int.from_bytes(data, "little") ^ int.from_bytes(stream[:n], "little")
    return out.to_bytes(n, "little")


def _mac(hmac_key: bytes, nonce: bytes, ciphertext: bytes) -> bytes:
    return hmac.new(hmac_key, nonce + ciphertext, hashlib.sha256).digest()


def encrypt(plaintext: str, conv_key: bytes, nonce: bytes | None = None) -> str:
    """The NIP-44 v2 payload of ``plaintext`` (1 to 65535 UTF-8 bytes) for a
    conversation key; ``nonce`` (32 bytes) is random unless given (tests)."""
    if nonce is None:
        nonce = secrets.token_bytes(32)
    chacha_key, chacha_nonce, hmac_key = message_keys(conv_key, nonce)
    ciphertext = chacha20(chacha_key, chacha_nonce, pad(plaintext))
    return base64.b64encode(b"\x02" + nonce + ciphertext + _mac(hmac_key, nonce, ciphertext)).decode("ascii")


def decrypt(payload: str, conv_key: bytes) -> str:
    """The plaintext of a NIP-44 v2 payload; :class:`Nip44Error` when it is
    not one, or not for this key (the MAC fails: a wrong key reads nothing)."""
    if not isinstance(payload, str):
        raise Nip44Error("bad-length", "a payload is text")
    memo_key = (bytes(conv_key), payload) if isinstance(conv_key, (bytes, bytearray)) else None
    hit = DECRYPTED.get(memo_key) if memo_key is not None else None
    if hit is not None:
        return hit
    text = _decrypt(payload, conv_key)
    if memo_key is not None:
        DECRYPTED.put(memo_key, text, len(payload) + len(text))
    return text


def _decrypt(payload: str, conv_key: bytes) -> str:
    if payload[:1] == "#":
        raise Nip44Error("unknown-version", "unknown encryption version")
    if not 132 <= len(payload) <= 87472:
        raise Nip44Error("bad-length", f"invalid payload length: {len(payload)}")
    try:
        data = base64.b64decode(payload.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error, ValueError):
        raise Nip44Error("bad-base64", "invalid base64") from None
    if not 99 <= len(data) <= 65603:
        raise Nip44Error("bad-length", f"invalid data length: {len(data)}")
    if data[0] != 2:
        raise Nip44Error("unknown-version", f"unknown encryption version {data[0]}")
    nonce, ciphertext, mac = data[1:33], data[33:-32], data[-32:]
    chacha_key, chacha_nonce, hmac_key = message_keys(conv_key, nonce)
    if not hmac.compare_digest(_mac(hmac_key, nonce, ciphertext), mac):
        raise Nip44Error("bad-mac", "invalid MAC")
    return unpad(chacha20(chacha_key, chacha_nonce, ciphertext))
