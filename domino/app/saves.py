"""The saved game: format, migrations, corrupt saves.  Pure Python (no js).

A save is the JSON text ``{"format": "domino-save/1", "record": <record>}``
where the record is :func:`domino.engine.records.to_record` of the match.

Older formats go through a chain of upgrades (``MIGRATIONS``), one version
at a time, until the current format is reached:

* ``domino-save/0`` -- the first shape: the record's fields inline, next to
  ``"format": "domino-save/0"`` and a ``"saved"`` time stamp (no nested
  record, no record format).  Upgraded by nesting them under ``"record"``.

A save that cannot be read raises :class:`CorruptSave` with ``why`` one of
``"json"`` (not JSON / not an object), ``"format"`` (unknown format) or
``"record"`` (the record fails to replay).  The caller keeps the original
text aside under :func:`corrupt_key` and tells the player.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from domino.engine.records import FORMAT as RECORD_FORMAT
from domino.engine.records import from_record, to_record

FORMAT = "domino-save/1"
RECORD_FIELDS = ("game", "options", "seed", "seats", "hands")


class CorruptSave(ValueError):
    def __init__(self, why: str, detail: str = ""):
        super().__init__(f"{why}: {detail}" if detail else why)
        self.why = why
        self.detail = detail


def save_key(pathname: str) -> str:
    """The localStorage key: includes the page's path (a GitHub Pages origin is
    shared by all of a user's sites)."""
    return f"domino:{pathname}:save"


def settings_key(pathname: str) -> str:
    return f"domino:{pathname}:settings"


def corrupt_key(pathname: str, iso_time: str) -> str:
    return f"domino:{pathname}:corrupt:{iso_time}"


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


def load(text: Any):
    """Save text -> live Match (raises CorruptSave)."""
    if not isinstance(text, str):
        raise CorruptSave("json", "no text")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise CorruptSave("json", str(e)) from None
    doc = migrate(doc)
    record = doc.get("record")
    if not isinstance(record, dict):
        raise CorruptSave("record", "no record")
    try:
        return from_record(record)
    except Exception as e:  # ReplayError, RulesError, or a malformed field
        raise CorruptSave("record", str(e)) from None


def dump(match) -> str:
    return json.dumps({"format": FORMAT, "record": to_record(match)}, separators=(",", ":"))


def dump_v0(match, saved: str = "") -> str:
    """The old shape, for tests of the migration chain."""
    record = to_record(match)
    doc = {"format": "domino-save/0", "saved": saved}
    for k in RECORD_FIELDS:
        doc[k] = record[k]
    return json.dumps(doc)
