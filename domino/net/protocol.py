"""The wire format of play-with-friends: JSON messages between the host and its guests.

Every message is one JSON object with ``"v"`` (:data:`VERSION`) and ``"t"``
(its type), and the fields its type lists (docs/NET.md has every message).
:func:`encode` writes one; :func:`decode` reads one that came from the other
side and raises :class:`ProtocolError` for anything that is not a message of
the expected direction: the size is capped before the text is parsed, the
bracket nesting is capped before ``json.loads`` sees it, and every field is
checked for presence and type.

Unknown fields: a guest's message with a field its type does not list is
refused (``unknown-field``): the host is the one under attack, and what it
accepts is small and exact.  A host's message may carry fields a guest does
not know (they are ignored), so a host can add optional fields without
breaking older guests of the same :data:`VERSION`.

Every type belongs to one direction (:data:`GUEST_TYPES`, :data:`HOST_TYPES`).

Pure Python: no browser, no transport.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from domino.engine import deals
from domino.engine.records import json_depth
from domino.table import MAX_NAME, MAX_RAW_NAME

VERSION = "domino-net/1"

#: Caps, in characters of JSON text (also checked in UTF-8 bytes).
MAX_GUEST_CHARS = 16 * 1024          # guest -> host: small commands
MAX_HOST_CHARS = 256 * 1024          # host -> guest: a seat view (the largest seen is ~13 KB)
MAX_GUEST_DEPTH = 6                  # {"t":"act","action":{...}} nests 2 deep
MAX_HOST_DEPTH = 24                  # a view nests 6 deep (layout.arms.W[i])
MAX_SECRET = 64
MAX_SEAT = 7                         # seats 0..7 (eight players at most)
MAX_SEQ = 10**9

#: The reactions a guest may send: fixed ids, never free text (the screen
#: shows its own picture and words for each).
REACTIONS = ("thumbs-up", "clap", "laugh", "wow", "thinking", "oops")

#: Keys an action dict may hold (RULES.md 8, Frijolito's four, resign, and a match played when
#: each can's claim that the seat to move is absent: ``{"seat", "absent"}``).
ACTION_KEYS = frozenset({"seat", "play", "end", "open", "draw", "pass", "flip", "peek",
                         "reject", "face_up", "resign", "absent"})

#: Messages a guest sends (the host reads them).
GUEST_TYPES = ("hello", "ready", "act", "next", "react", "ping", "bye")
#: Messages a host sends (a guest reads them).
HOST_TYPES = ("welcome", "lobby", "view", "refused", "ack", "reaction", "pong", "status", "ended", "closed")

#: Refusal codes of decode (what is wrong with the text itself).
DECODE_CODES = ("too-large", "too-deep", "bad-json", "not-object", "bad-version", "unknown-type",
                "missing-field", "bad-field", "unknown-field")


class ProtocolError(ValueError):
    """A text that is not a valid message.  ``code`` is one of
    :data:`DECODE_CODES`; ``detail`` (also ``str(error)``) says it in English."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


# ----------------------------------------------------------------- field checks
Check = Callable[[Any], bool]

_SECRET = re.compile(r"[A-Za-z0-9_-]{1,%d}" % MAX_SECRET)
_TILE = re.compile(r"[0-9]{1,2}-[0-9]{1,2}")
_END = re.compile(r"[A-Za-z]{1,5}(:[a-z0-9]{1,8})?")


def is_int(x: Any, lo: int = 0, hi: int = MAX_SEQ) -> bool:
    """A JSON integer (never a bool, never a float) in [lo, hi]."""
    return type(x) is int and lo <= x <= hi


def _int(lo: int, hi: int) -> Check:
    return lambda x: is_int(x, lo, hi)


def _is_bool(x: Any) -> bool:
    return type(x) is bool


def _text(hi: int) -> Check:
    return lambda x: type(x) is str and len(x) <= hi


def _tile_or_null(x: Any) -> bool:
    return x is None or (type(x) is str and _TILE.fullmatch(x) is not None)


def _is_tile(x: Any) -> bool:
    return type(x) is str and _TILE.fullmatch(x) is not None


def _is_end(x: Any) -> bool:
    return type(x) is str and _END.fullmatch(x) is not None


_ACTION_FIELDS: dict[str, Check] = {
    "seat": _int(0, MAX_SEAT),
    "play": _is_tile,
    "end": _is_end,
    "open": _int(0, 15),
    "draw": _tile_or_null,
    "pass": lambda x: x is True,
    "flip": _tile_or_null,
    "peek": _tile_or_null,
    "reject": _is_tile,
    "face_up": lambda x: x is True,
    "resign": lambda x: x is True,
    "absent": _int(0, MAX_SEAT),
}


def is_action(x: Any) -> bool:
    """An action dict in the shape of ``Match.legal_actions()`` entries (or a
    resign): a seat, known keys only, each of its JSON type.  Whether it is
    legal is the host's question, not this one's."""
    if type(x) is not dict or "seat" not in x or len(x) > 4:
        return False
    return all(k in _ACTION_FIELDS and _ACTION_FIELDS[k](v) for k, v in x.items())


def _is_reaction(x: Any) -> bool:
    return type(x) is str and x in REACTIONS


def _is_secret(x: Any) -> bool:
    return type(x) is str and _SECRET.fullmatch(x) is not None


def _list(x: Any) -> bool:
    return type(x) is list


def _dict_or_null(x: Any) -> bool:
    return x is None or type(x) is dict


def _seat_or_null(x: Any) -> bool:
    return x is None or is_int(x, 0, MAX_SEAT)


def _is_view(x: Any) -> bool:
    """The parts of a seat view a guest relies on, with their types (the
    rest is checked where it is used: the mirror refuses a view it cannot
    rebuild)."""
    if type(x) is not dict:
        return False
    ints = ("seat", "players", "hand_no", "seq")
    if not all(is_int(x.get(k), 0, MAX_SEQ) for k in ints):
        return False
    return (type(x.get("game")) is str and type(x.get("options")) is dict
            and type(x.get("phase")) is str and type(x.get("hand")) is list
            and all(_is_tile(t) for t in x["hand"]) and type(x.get("legal")) is list
            and all(is_action(a) for a in x["legal"]) and type(x.get("history")) is list
            and type(x.get("names")) is list and type(x.get("kinds")) is list
            and (x.get("turn") is None or is_int(x.get("turn"), 0, MAX_SEAT))
            and _opt(x, "dealing", is_dealing))


def is_dealing(x: Any) -> bool:
    """A view's ``dealing`` (docs/NET.md, issue 41): the hand's ``fingerprint``
    (16 hex digits), ``redeals`` (an int), ``sizes`` (every seat's dealt count),
    ``apart`` (the tiles left out of the deal) and, once the hand is over,
    ``seed`` (32 hex digits)."""
    return (type(x) is dict and set(x) <= {"fingerprint", "redeals", "sizes", "apart", "seed"}
            and deals.is_fingerprint(x.get("fingerprint")) and is_int(x.get("redeals"), 0, 10_000)
            and type(x.get("sizes")) is list and 0 < len(x["sizes"]) <= MAX_SEAT + 1
            and all(is_int(n, 0, 200) for n in x["sizes"])
            and type(x.get("apart")) is list and len(x["apart"]) <= 200 and all(_is_tile(t) for t in x["apart"])
            and _opt(x, "seed", deals.is_seed))


def _opt(x: dict, key: str, check: Check) -> bool:
    return key not in x or check(x[key])


def is_seat_status(x: Any) -> bool:
    """One seat of a lobby's ``config.seats`` or a ``status`` message: ``seat``
    (an int), ``status`` (a word), and when present ``name``, ``kind``,
    ``stand_in`` and ``handed`` (a bool: the host handed the seat to the
    computer) of their types.  A guest reads these to draw and to know
    whether it is ready: a host's message with anything else is refused."""
    return (type(x) is dict and is_int(x.get("seat"), 0, MAX_SEAT) and type(x.get("status")) is str
            and len(x["status"]) <= 20 and _opt(x, "name", _text(MAX_RAW_NAME)) and _opt(x, "kind", _text(20))
            and _opt(x, "stand_in", lambda v: v is None or (type(v) is str and len(v) <= 20))
            and _opt(x, "handed", _is_bool))


def _is_statuses(x: Any) -> bool:
    return type(x) is list and len(x) <= MAX_SEAT + 1 and all(is_seat_status(s) for s in x)


def is_lobby_config(x: Any) -> bool:
    """A lobby's ``config`` as a guest reads it: ``game`` (a word), ``players``
    (2..8), ``options`` (an object), ``seats`` (:func:`is_seat_status` each),
    and when present ``target`` (an int or null) and ``partnership`` (a bool)."""
    return (type(x) is dict and type(x.get("game")) is str and len(x["game"]) <= 40
            and is_int(x.get("players"), 2, MAX_SEAT + 1) and type(x.get("options")) is dict
            and _is_statuses(x.get("seats"))
            and _opt(x, "target", lambda v: v is None or is_int(v, 0, MAX_SEQ))
            and _opt(x, "partnership", _is_bool))


#: type -> (required fields, optional fields), each field -> check
Schema = tuple[dict[str, Check], dict[str, Check]]

GUEST_SCHEMAS: dict[str, Schema] = {
    "hello": ({"seat": _int(0, MAX_SEAT), "secret": _is_secret, "name": _text(MAX_RAW_NAME)}, {}),
    "ready": ({"ready": _is_bool}, {}),
    "act": ({"seq": _int(0, MAX_SEQ), "action": is_action}, {}),
    "next": ({"seq": _int(0, MAX_SEQ)}, {}),
    "react": ({"id": _is_reaction}, {}),
    "ping": ({}, {"n": _int(0, 2**31)}),
    "bye": ({}, {}),
}

HOST_SCHEMAS: dict[str, Schema] = {
    "welcome": ({"seat": _int(0, MAX_SEAT), "secret": _is_secret}, {"name": _text(MAX_NAME)}),
    "lobby": ({"config": is_lobby_config, "code": _text(64), "your_seat": _seat_or_null}, {}),
    "view": ({"seq": _int(0, MAX_SEQ), "view": _is_view, "events": _list},
             {"resigned": _dict_or_null, "abandoned": _seat_or_null}),
    "refused": ({"reason": _text(40), "message": _text(400)}, {"ref": lambda x: True}),
    "ack": ({"seq": _int(0, MAX_SEQ)}, {}),
    "reaction": ({"seat": _int(0, MAX_SEAT), "id": _is_reaction}, {}),
    "pong": ({}, {"n": _int(0, 2**31)}),
    "status": ({"seats": _is_statuses}, {"clock": _dict_or_null}),
    "ended": ({"outcome": _dict_or_null}, {"abandoned": _seat_or_null}),
    "closed": ({"reason": _text(40)}, {"message": _text(400)}),
}


# ----------------------------------------------------------------- encode / decode
def message(t: str, **fields: Any) -> dict:
    """A message dict of type ``t``."""
    return {"v": VERSION, "t": t, **fields}


def encode(msg: dict) -> str:
    """One message as compact JSON text.  The message is checked against its
    type's schema (either direction): a bug never goes out on the wire."""
    if type(msg) is not dict:
        raise ProtocolError("not-object", "a message is a JSON object")
    msg = msg if msg.get("v") == VERSION else {"v": VERSION, **msg}
    t = msg.get("t")
    schemas = GUEST_SCHEMAS if t in GUEST_SCHEMAS else HOST_SCHEMAS
    _check_fields(msg, schemas, strict=schemas is GUEST_SCHEMAS)
    text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    cap = MAX_GUEST_CHARS if schemas is GUEST_SCHEMAS else MAX_HOST_CHARS
    if len(text) > cap:
        raise ProtocolError("too-large", f"a {t} message is {len(text):,} characters; the cap is {cap:,}")
    return text


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def decode(text: Any, source: str = "guest") -> dict:
    """Read a message sent by ``source`` ("guest": what a host receives;
    "host": what a guest receives).  Raises :class:`ProtocolError`."""
    guest = source == "guest"
    cap = MAX_GUEST_CHARS if guest else MAX_HOST_CHARS
    depth = MAX_GUEST_DEPTH if guest else MAX_HOST_DEPTH
    if isinstance(text, (bytes, bytearray, memoryview)):
        if len(text) > cap:
            raise ProtocolError("too-large", f"the message is {len(text):,} bytes; the cap is {cap:,}")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad-json", "the message is not UTF-8 text") from None
    if type(text) is not str:
        raise ProtocolError("bad-json", "a message is JSON text")
    if len(text) > cap or len(text.encode("utf-8", "surrogatepass")) > cap:
        raise ProtocolError("too-large", f"the message is {len(text):,} characters; the cap is {cap:,}")
    if json_depth(text) > depth:
        raise ProtocolError("too-deep", f"the message nests deeper than {depth} levels")
    try:
        msg = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad-json", f"the message is not JSON: {str(exc)[:120]}") from None
    if type(msg) is not dict:
        raise ProtocolError("not-object", "a message is a JSON object")
    _check_fields(msg, GUEST_SCHEMAS if guest else HOST_SCHEMAS, strict=guest)
    return msg


def decode_guest(text: Any) -> dict:
    """A guest's message, as the host reads it."""
    return decode(text, "guest")


def decode_host(text: Any) -> dict:
    """A host's message, as a guest reads it."""
    return decode(text, "host")


def _check_fields(msg: dict, schemas: dict[str, Schema], strict: bool) -> None:
    if msg.get("v") != VERSION:
        got = msg.get("v")
        shown = repr(got)[:40] if got is not None else "none"
        raise ProtocolError("bad-version", f"protocol version {shown}; this table speaks {VERSION}")
    t = msg.get("t")
    if type(t) is not str or t not in schemas:
        raise ProtocolError("unknown-type", f"unknown message type {repr(t)[:40]}")
    required, optional = schemas[t]
    for k, check in required.items():
        if k not in msg:
            raise ProtocolError("missing-field", f"a {t} message needs {k!r}")
        if not check(msg[k]):
            raise ProtocolError("bad-field", f"{t}.{k} has a wrong value or type: {repr(msg[k])[:60]}")
    for k, check in optional.items():
        if k in msg and not check(msg[k]):
            raise ProtocolError("bad-field", f"{t}.{k} has a wrong value or type: {repr(msg[k])[:60]}")
    if strict:
        extra = [k for k in msg if k not in ("v", "t") and k not in required and k not in optional]
        if extra:
            raise ProtocolError("unknown-field", f"a {t} message has no field {str(extra[0])[:40]!r}")
