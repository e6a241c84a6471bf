"""The saved game: format, migrations, corrupt saves.  Pure Python (no js).

A save is the JSON text ``{"format": "domino-save/1", "record": <record>}``
where the record is :func:`domino.engine.records.to_record` of the match.

Older formats go through a chain of upgrades (``MIGRATIONS``), one version
at a time, until the current format is reached:

* ``domino-save/0`` -- the first shape: the record's fields inline, next to
  ``"format": "domino-save/0"`` and a ``"saved"`` time stamp (no nested
  record, no record format).  Upgraded by nesting them under ``"record"``.

A save that cannot be read raises :class:`CorruptSave` with ``why`` one of
``"size"`` (too large or nested too deep: checked before parsing), ``"json"``
(not JSON / not an object), ``"format"`` (unknown format) or ``"record"``
(the record fails to replay).  :mod:`domino.app.storage` keeps the original
text aside (at most a few copies, oldest dropped first) and the session tells
the player; the original is removed only once its copy is stored or
downloaded.

A save also carries the match's ``id`` and ``seq`` (:func:`header` reads them
cheaply), so that two tabs of the page never overwrite each other's match
without asking.  Seats read from a save are checked like new ones: a kind
the game does not know becomes a computer at :data:`FALLBACK_LEVEL`, names
are cut to :data:`MAX_NAME` characters; :func:`load_with_notes` says what was
changed.

Exported files are plain game records (``domino-record/1``,
:func:`export_text`); :func:`import_text` reads one (or a save) with every
check of a replay.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from domino.engine.match import HUMAN
from domino.engine.records import FORMAT as RECORD_FORMAT
from domino.engine.records import ReplayError, from_record, load_json, to_record
from domino.players import COMPUTER_KINDS
from domino.table import REMOTE

FORMAT = "domino-save/1"
RECORD_FIELDS = ("game", "options", "seed", "seats", "hands")
MAX_SAVE_CHARS = 1_500_000     # a long match is under 100 kB
MAX_SETTINGS_CHARS = 65_536
MAX_IMPORT_CHARS = 4_000_000
MAX_DEPTH = 32                 # a save nests 7 levels
MAX_NAME = 24                  # as on the new-game screen
FALLBACK_LEVEL = "medium"
KINDS = (HUMAN, REMOTE) + COMPUTER_KINDS   # REMOTE: a friend's phone (domino.app.friends)


class CorruptSave(ValueError):
    def __init__(self, why: str, detail: str = ""):
        super().__init__(f"{why}: {detail}" if detail else why)
        self.why = why
        self.detail = detail


def parse(text: Any, what: str = "save", max_chars: int = MAX_SAVE_CHARS) -> Any:
    """JSON text from storage -> data; size and nesting are checked before
    parsing (a 100,000-deep text never reaches the parser)."""
    if not isinstance(text, str):
        raise CorruptSave("json", "no text")
    if len(text) > max_chars:
        raise CorruptSave("size", f"{len(text):,} characters")
    try:
        return load_json(text, what, max_chars=max_chars, max_depth=MAX_DEPTH)
    except ReplayError as e:
        raise CorruptSave("size" if "nests" in e.message else "json", e.message) from None


def load_settings(text: Any) -> tuple[dict, bool]:
    """Stored settings text -> (dict, ok).  Anything unreadable gives ({}, False):
    the caller falls back to defaults and says so."""
    if text is None:
        return {}, True
    try:
        d = parse(text, "settings", MAX_SETTINGS_CHARS)
    except CorruptSave:
        return {}, False
    return (d, True) if isinstance(d, dict) else ({}, False)


def _from_0(doc: dict) -> dict:
    record = {"format": RECORD_FORMAT}
    for k in RECORD_FIELDS:
        if k not in doc:
            raise CorruptSave("record", f"domino-save/0 without {k!r}")
        record[k] = doc[k]
    for k in ("resigned",):
        if k in doc:
            record[k] = doc[k]
    return {"format": "domino-save/1", "record": record}


# format -> upgrade to the next format
MIGRATIONS: dict[str, Callable[[dict], dict]] = {
    "domino-save/0": _from_0,
}


def migrate(doc: Any) -> dict:
    """Upgrade a parsed save to the current format (raises CorruptSave)."""
    if not isinstance(doc, dict):
        raise CorruptSave("json", "a save is a JSON object")
    seen = set()
    while doc.get("format") != FORMAT:
        fmt = doc.get("format")
        if not isinstance(fmt, str) or fmt not in MIGRATIONS or fmt in seen:
            raise CorruptSave("format", f"unknown save format {fmt!r}")
        seen.add(fmt)
        doc = MIGRATIONS[fmt](doc)
        if not isinstance(doc, dict):
            raise CorruptSave("format", f"migration from {fmt} failed")
    return doc


def load_with_notes(text: Any):
    """Save text -> (live Match, notes) (raises CorruptSave).  ``notes`` lists
    what was repaired: ("kind", seat) for an unknown seat kind, ("name", seat)
    for a name cut to MAX_NAME."""
    doc = migrate(parse(text))
    record = doc.get("record")
    if not isinstance(record, dict):
        raise CorruptSave("record", "no record")
    try:
        match = from_record(record)
    except Exception as e:  # ReplayError (from_record raises nothing else)
        raise CorruptSave("record", str(e)[:300]) from None
    return match, check_seats(match)


def load(text: Any):
    """Save text -> live Match (raises CorruptSave)."""
    return load_with_notes(text)[0]


def check_seats(match) -> list[tuple[str, int]]:
    """Seat kinds and names of a match read from outside, validated like new
    ones (repaired in place; returns what changed)."""
    notes = []
    for i, s in enumerate(match.seats):
        if s["kind"] not in KINDS:
            s["kind"] = FALLBACK_LEVEL
            notes.append(("kind", i))
        name = " ".join(s["name"].split())
        if len(name) > MAX_NAME or name != s["name"]:
            s["name"] = name[:MAX_NAME]
            if len(name) > MAX_NAME:
                notes.append(("name", i))
    return notes


def dump(match, match_id: str | None = None) -> str:
    doc = {"format": FORMAT, "id": match_id or legacy_id(match), "seq": match.seq,
           "record": to_record(match)}
    return json.dumps(doc, separators=(",", ":"))


def legacy_id(match) -> str:
    """An id for a match saved before saves had one: the same for the same
    match (game, seed, seats)."""
    who = ",".join(s["kind"] for s in match.seats)
    return f"{match.rules.game}/{match.seed}/{who}"[:80]


_HEADER = re.compile(r'^\{"format":"domino-save/1","id":("(?:[^"\\]|\\.){0,100}"),"seq":(\d{1,12}),')


def is_current(text: Any) -> bool:
    """Written by this version's :func:`dump` (else: upgrade it on load)."""
    return isinstance(text, str) and bool(_HEADER.match(text))


def header(text: Any) -> tuple[str, int] | None:
    """(id, seq) of a stored save, without replaying it; None when there is
    no readable save.  A save written by :func:`dump` is read from its first
    bytes; any other text is parsed (with the size checks) or given up."""
    if not isinstance(text, str):
        return None
    m = _HEADER.match(text)
    if m:
        return json.loads(m.group(1)), int(m.group(2))
    try:
        doc = migrate(parse(text))
        match = from_record(doc["record"])
    except Exception:
        return None
    return legacy_id(match), match.seq


# ----------------------------------------------------------------- files
def export_text(match) -> str:
    """The match as a domino-record/1 file (what import_text reads back)."""
    return json.dumps(to_record(match), ensure_ascii=False, indent=1)


def export_name(match, stamp: str) -> str:
    """``domino-draw-20261130-0945.json`` (stamp: an ISO time)."""
    digits = re.sub(r"[^0-9]", "", stamp)[:12]
    day, time = digits[:8], digits[8:12]
    return f"domino-{match.rules.game}-{day}-{time}.json"


def import_text(text: Any):
    """A file's text (a domino-record/1, or a save) -> (Match, notes); every
    check of a replay applies.  Raises CorruptSave (``why`` "size", "json",
    "format", "record") with a message for the player in ``detail``."""
    doc = parse(text, "file", MAX_IMPORT_CHARS)
    if isinstance(doc, dict) and isinstance(doc.get("format"), str) and doc["format"].startswith("domino-save/"):
        doc = migrate(doc).get("record")
    if not isinstance(doc, dict) or doc.get("format") != RECORD_FORMAT:
        raise CorruptSave("format", f"not a {RECORD_FORMAT} file")
    try:
        match = from_record(doc)
    except ReplayError as e:
        where = f"hand {e.hand + 1}, move {e.index + 1}: " if e.hand is not None and e.index is not None else ""
        raise CorruptSave("record", where + e.message[:300]) from None
    return match, check_seats(match)


def dump_v0(match, saved: str = "") -> str:
    """The old shape, for tests of the migration chain."""
    record = to_record(match)
    doc = {"format": "domino-save/0", "saved": saved}
    for k in RECORD_FIELDS:
        doc[k] = record[k]
    return json.dumps(doc)
