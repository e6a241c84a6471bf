"""The app's storage as one port: every key, every checked write, corrupt saves, a full store and the other tab.  Pure Python (no js).

The page keeps its data in localStorage (a :class:`Store`: ``LocalStore`` in
``domino/browser.py``, :class:`MemoryStore` in tests), one key per kind of
data, each under the page's path (a GitHub Pages origin is shared by all of a
user's sites): ``domino:<path>:<name>``, the names listed in :data:`NAMES`.
The page's scripts that run before Python (``static/boot.js``,
``static/first.js``, ``static/rescue.js``) need some of them too:
``scripts/build_first.py`` writes :func:`js_line` into each (between the
``keys:`` marker and the end of its line), and tests check it is current.

:class:`Storage` is what the session reads and writes through.  Its answers
are plain values, and the session turns them into its dialogs and notes:

* a write of the save (:meth:`Storage.write_save`) goes only over this tab's
  own save (unless forced) and says :class:`Saved`: saved, full, other tab
  (with the other save's header) or blocked (a corrupt save waits to be
  downloaded before its place is taken);
* reading the save (:meth:`Storage.read_save`) finds :class:`Found`: a match,
  nothing, a corrupt save kept aside, or a corrupt save with no room for its
  copy (it stays in place and waits for the download);
* another tab's write (:meth:`Storage.other_write`) is :class:`Change`:
  nothing for this tab, the save left, or another tab's save.

A checked write (:meth:`Storage.write`) that does not fit first gives up what
can be rebuilt (the boot snapshot) and tries once more: the settings, the
save, its corrupt copies and the statistics are written so; the snapshot,
the undo meta, the friends' table and the consents are plain writes, not
retried.  The formats stay in their modules (:mod:`domino.app.saves`,
:mod:`~domino.app.stats`, :mod:`~domino.app.undo`, :mod:`~domino.app.snapshot`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum
from typing import Any, Protocol

from domino.app import saves, undo
from domino.app import stats as stats_mod
from domino.app.script_lines import with_line

PREFIX = ("domino:", ":")      # a key: PREFIX[0] + the page's path + PREFIX[1] + a name
SAVE = "save"                  # the match in progress (domino.app.saves)
SETTINGS = "settings"          # language, looks, the new-game form, relays
SNAPSHOT = "snapshot"          # the screen a reload paints first (domino.app.snapshot, static/boot.js)
META = "match-meta"            # the saved match's practice flag and undos (domino.app.undo)
STATS = "stats"                # the statistics (domino.app.stats)
STATS_ASIDE = "stats:unreadable"   # statistics that could not be read, kept aside
TABLE = "net"                  # the friends' table around the saved match (domino.app.friends)
CONSENTS = "online-rooms"      # the rooms a guest agreed to join (domino.app.online)
LATER = "later"                # the matches played when each can (domino.app.link.later)
REVIEWS = "reviews"            # the last hands played, for their review (domino.app.review)
CORRUPT = "corrupt:"           # + an ISO time: a copy kept aside (a corrupt save; static/rescue.js's keys)
NAMES = {"save": SAVE, "settings": SETTINGS, "snapshot": SNAPSHOT, "meta": META, "stats": STATS,
         "stats_aside": STATS_ASIDE, "table": TABLE, "consents": CONSENTS, "corrupt": CORRUPT,
         "reviews": REVIEWS, "later": LATER}

MAX_CORRUPT = 3                # corrupt copies kept aside, the oldest dropped first
MAX_CONSENTS = 20              # rooms a guest's consent is remembered for, the newest first

JS_NAMES = ("settings", "snapshot", "corrupt")   # the names the page's scripts use
JS_FILES = ("static/boot.js", "static/first.js", "static/rescue.js")
JS_MARK = "/* keys: domino/app/storage.py, written by scripts/build_first.py */"


def prefix(path: str) -> str:
    """What every key of the page at ``path`` starts with."""
    return PREFIX[0] + path + PREFIX[1]


def start_afresh(store: "Store", path: str, stored: dict[str, str]) -> None:
    """Every key of the page at ``path`` removed, then ``stored`` written: the storage of a page that starts
    again from nothing (the browser tests' restart of one booted page)."""
    for k in store.keys():
        if k.startswith(prefix(path)):
            store.delete(k)
    for k, text in stored.items():
        store.set(str(k), str(text))


def key(path: str, name: str) -> str:
    """The key of one of :data:`NAMES` for the page at ``path``."""
    return prefix(path) + name


def corrupt_key(path: str, iso_time: str) -> str:
    return key(path, CORRUPT + iso_time)


def corrupt_keys(keys: list[str], path: str) -> list[str]:
    """The corrupt copies among ``keys``, oldest first (ISO times sort)."""
    start = key(path, CORRUPT)
    return sorted(k for k in keys if isinstance(k, str) and k.startswith(start))


def corrupt_to_drop(keys: list[str], path: str, keep: int = MAX_CORRUPT) -> list[str]:
    """Which copies to drop (oldest first) so that ``keep`` remain."""
    have = corrupt_keys(keys, path)
    return have[:max(0, len(have) - keep)]


def now_stamp() -> str:
    """Now, as an ISO time in UTC with milliseconds (``2026-12-02T12:00:00.000Z``)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def js_line() -> str:
    """The line of the page's scripts that gives the keys' prefix and names."""
    keys = {"prefix": list(PREFIX), **{name: NAMES[name] for name in JS_NAMES}}
    return f"{JS_MARK} var KEYS = {json.dumps(keys)};"


def with_js_line(source: str) -> str:
    """A script's text with its keys line written from :data:`NAMES`.
    ValueError when the script has no such line."""
    return with_line(source, JS_MARK, js_line())


class Store(Protocol):
    """Where the app keeps its data (localStorage in the browser)."""

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> bool: ...   # False: refused (storage full)
    def delete(self, key: str) -> None: ...
    def keys(self) -> list[str]: ...


class MemoryStore:
    """A Store in a dict, with an optional quota in characters (tests: a full storage)."""

    def __init__(self, quota: int | None = None):
        self.data: dict[str, str] = {}
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> bool:
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                return False
        self.data[key] = value
        return True

    def delete(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)


# ----------------------------------------------------------------- answers
class Saved(Enum):
    """What became of a write of the save."""
    SAVED = "saved"            # the save holds the match
    FULL = "full"              # it did not fit, even without the snapshot
    OTHER_TAB = "other tab"    # the save is another tab's (another match, or a newer position): left alone
    BLOCKED = "blocked"        # a corrupt save waits for its download: its place is not taken


@dataclass(frozen=True)
class SaveResult:
    what: Saved
    header: tuple[str, int] | None = None   # SAVED: (id, seq) now stored; OTHER_TAB: the other tab's


class Found(Enum):
    """What reading the save found."""
    NOTHING = "nothing"
    MATCH = "match"
    CORRUPT = "corrupt"                # unreadable: kept aside under a corrupt key, the save removed
    CORRUPT_NO_ROOM = "corrupt, no room"   # unreadable, no room for its copy: left in place, waiting


@dataclass(frozen=True)
class SaveRead:
    what: Found
    match: Any = None                  # MATCH: the live match
    repairs: tuple = ()                # MATCH: what saves.load_with_notes repaired
    header: tuple[str, int] | None = None   # MATCH: the save's (id, seq)
    match_id: str = ""                 # MATCH: the match's id (a legacy id for an old save)
    current: bool = True               # MATCH: written in the current format (else: write it again)
    error: saves.CorruptSave | None = None   # CORRUPT, CORRUPT_NO_ROOM: why it cannot be read


class Change(Enum):
    """What another tab's write means for this tab."""
    NONE = "none"              # not the save, or the save this tab knows
    LEFT = "left"              # the save is gone: the other tab left its match for the new-game screen
    OTHER_TAB = "other tab"    # the save is another tab's now


@dataclass(frozen=True)
class OtherWrite:
    what: Change
    header: tuple[str, int] | None = None   # OTHER_TAB: the save's (id, seq)


@dataclass(frozen=True)
class StatsRead:
    doc: dict
    error: stats_mod.StatsError | None = None   # the stored statistics could not be read: kept aside,
    #                                             and doc starts afresh


class Storage:
    """The app's reads and checked writes for the page at ``path``, over a :class:`Store`.

    It remembers what the stored snapshot was built from (:attr:`snapshot_of`)
    and a corrupt save left in place for want of room (:attr:`waiting`)."""

    def __init__(self, store: Store, path: str, clock=now_stamp):
        self.store = store
        self.path = path
        self.clock = clock                  # the time a corrupt copy is stamped with
        self.snapshot_of: Any = None        # what the stored snapshot was built from (None: rebuild it)
        self.waiting: str | None = None     # a corrupt save with no room for its copy: download it first

    def key(self, name: str) -> str:
        return key(self.path, name)

    def write(self, name: str, text: str) -> bool:
        """A checked write of the key ``name``: when storage is full, first give
        up what can be rebuilt (the boot snapshot), then try once more."""
        k = self.key(name)
        if self.store.set(k, text):
            return True
        self.store.delete(self.key(SNAPSHOT))
        self.snapshot_of = None
        return self.store.set(k, text)

    # ------------------------------------------------------------ settings
    def settings(self) -> tuple[dict, bool]:
        """The stored settings and whether they could be read (see saves.load_settings)."""
        return saves.load_settings(self.store.get(self.key(SETTINGS)))

    def write_settings(self, doc: dict) -> bool:
        return self.write(SETTINGS, json.dumps(doc))

    # ------------------------------------------------------------ the save
    def write_save(self, match, match_id: str, known: tuple | None, force: bool = False) -> SaveResult:
        """Write the match (checked).  Never over a save of another match or a
        newer position written by another tab, i.e. a save whose header is not
        ``known`` (unless ``force``: the player chose to keep this one)."""
        if self.waiting is not None:
            return SaveResult(Saved.BLOCKED)
        hdr = saves.header(self.store.get(self.key(SAVE)))
        if hdr is not None and hdr != known and not force:
            return SaveResult(Saved.OTHER_TAB, hdr)
        if not self.write(SAVE, saves.dump(match, match_id)):
            return SaveResult(Saved.FULL)
        return SaveResult(Saved.SAVED, (match_id, match.seq))

    def rewrite_save(self, match, match_id: str, known: tuple | None) -> bool:
        """Write the match (checked) only over the very save this tab knows."""
        if saves.header(self.store.get(self.key(SAVE))) != known:
            return False
        return self.write(SAVE, saves.dump(match, match_id))

    def read_save(self) -> SaveRead:
        """The stored match.  A save that cannot be read is kept aside (at most
        MAX_CORRUPT copies, oldest dropped first) and removed only once its copy
        is stored; with no room for the copy it stays and waits (:meth:`download_corrupt`)."""
        text = self.store.get(self.key(SAVE))
        if text is None:
            return SaveRead(Found.NOTHING)
        try:
            match, repairs = saves.load_with_notes(text)
        except saves.CorruptSave as e:
            return SaveRead(Found.CORRUPT if self.keep_aside(text) else Found.CORRUPT_NO_ROOM, error=e)
        hdr = saves.header(text)
        return SaveRead(Found.MATCH, match, tuple(repairs), hdr, hdr[0] if hdr else saves.legacy_id(match),
                        saves.is_current(text))

    def keep_aside(self, text: str, name: str = SAVE) -> bool:
        """Keep an unreadable save (or ``name``: the list of matches played when each can) under a corrupt
        key and remove it; False (it stays, :attr:`waiting`) when even without the older copies there is
        no room."""
        for k in corrupt_to_drop(self.store.keys(), self.path, MAX_CORRUPT - 1):
            self.store.delete(k)
        aside = CORRUPT + self.clock()
        kept = self.write(aside, text)
        if not kept:   # no room: older copies go first, oldest first
            for k in corrupt_keys(self.store.keys(), self.path):
                self.store.delete(k)
                kept = self.store.set(self.key(aside), text)
                if kept:
                    break
        if kept:
            self.store.delete(self.key(name))
        else:
            self.waiting = text
        return kept

    def download_corrupt(self) -> str | None:
        """The corrupt save that waits, handed over to be downloaded: removed
        from the store (when still there) and no longer waiting."""
        text, self.waiting = self.waiting, None
        if text is not None and self.store.get(self.key(SAVE)) == text:
            self.store.delete(self.key(SAVE))
        return text

    def drop_save(self) -> None:
        self.store.delete(self.key(SAVE))

    def drop_own_save(self, known: tuple | None) -> None:
        """Remove the save when it is the one this tab knows (never another tab's match)."""
        hdr = saves.header(self.store.get(self.key(SAVE)))
        if hdr is not None and hdr == known:
            self.drop_save()

    def other_write(self, changed_key: Any, known: tuple | None) -> OtherWrite:
        """Another tab of this page wrote ``changed_key`` (None: it cleared the storage)."""
        if changed_key is not None and changed_key != self.key(SAVE):
            return OtherWrite(Change.NONE)
        text = self.store.get(self.key(SAVE))
        if text is None:
            return OtherWrite(Change.LEFT)
        hdr = saves.header(text)
        if hdr is not None and hdr != known:
            return OtherWrite(Change.OTHER_TAB, hdr)
        return OtherWrite(Change.NONE)

    def can_free(self) -> bool:
        """Corrupt copies are kept aside that freeing space would remove."""
        return bool(corrupt_keys(self.store.keys(), self.path))

    def free_space(self) -> None:
        """Remove the corrupt copies and the boot snapshot."""
        for k in corrupt_keys(self.store.keys(), self.path):
            self.store.delete(k)
        self.store.delete(self.key(SNAPSHOT))
        self.snapshot_of = None

    # ------------------------------------------------------------ beside the save
    def meta(self) -> dict | None:
        """The saved match's meta (undo.meta_applies says whether it is this match's)."""
        return undo.load_meta(self.store.get(self.key(META)))

    def write_meta(self, match, practice: bool, undos: int) -> None:
        self.store.set(self.key(META), json.dumps(undo.meta_for(match, practice, undos)))

    def stats(self) -> StatsRead:
        """The statistics; unreadable ones are kept aside and counting starts afresh."""
        raw = self.store.get(self.key(STATS))
        try:
            return StatsRead(stats_mod.load(raw))
        except stats_mod.StatsError as e:
            self.store.set(self.key(STATS_ASIDE), raw or "")
            self.store.delete(self.key(STATS))
            return StatsRead(stats_mod.empty(), e)

    def write_stats(self, doc: dict) -> bool:
        return self.write(STATS, stats_mod.dump(doc))

    def reset_stats(self) -> None:
        self.store.delete(self.key(STATS))

    def reviews(self) -> str | None:
        """The kept hands' text (domino.app.review.load reads it)."""
        return self.store.get(self.key(REVIEWS))

    def write_reviews(self, text: str) -> bool:
        return self.write(REVIEWS, text)

    def put_snapshot(self, built_from: Any, text: str | None) -> None:
        """Store the screen a reload paints (``text``: snapshot.dumps; None or
        no room: none is kept), built from ``built_from``."""
        k = self.key(SNAPSHOT)
        if text is None or not self.store.set(k, text):
            self.store.delete(k)
        self.snapshot_of = built_from

    def drop_snapshot(self) -> None:
        self.store.delete(self.key(SNAPSHOT))
        self.snapshot_of = None

    # ------------------------------------------------------------ play with friends
    def table(self) -> str | None:
        """The friends' table as saved (JSON text, read by domino.app.friends)."""
        return self.store.get(self.key(TABLE))

    def write_table(self, text: str) -> None:
        self.store.set(self.key(TABLE), text)

    def drop_table(self) -> None:
        self.store.delete(self.key(TABLE))

    def later(self) -> str | None:
        """The matches played when each can, as kept (JSON text, read by domino.app.link.later)."""
        return self.store.get(self.key(LATER))

    def write_later(self, text: str) -> bool:
        return self.store.set(self.key(LATER), text)

    def consents(self) -> list[str]:
        """The rooms and relay lists this phone agreed to join through (newest first)."""
        try:
            rooms = json.loads(self.store.get(self.key(CONSENTS)) or "[]")
        except ValueError:
            rooms = []
        return [r for r in rooms if isinstance(r, str)] if isinstance(rooms, list) else []

    def add_consent(self, entry: str) -> None:
        rooms = self.consents()
        self.store.set(self.key(CONSENTS), json.dumps(([entry] + [r for r in rooms if r != entry])[:MAX_CONSENTS]))
