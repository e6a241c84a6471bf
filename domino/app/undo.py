"""Undo in practice matches: the match rebuilt from its record minus the person's last move and what followed.  Pure Python.

The engine is deterministic (deals from the seed, computer choices from
per-seat generators), so replaying the record up to just before the
person's last decision gives exactly the position the person saw then:
nothing is shown that the person could not have seen.  A decision is a play,
or a draw or pass chosen among other moves (Matador's "draw instead"); the
draws and passes the game makes by itself (the only move there was) are not
decisions and are undone with the decision before them only when they
follow it.

Only the current hand can be undone (an earlier hand's result stands), and
only with one person at the table (against the computer).

The practice flag itself lives in a small "match meta" document beside the
save (its key: :data:`domino.app.storage.META`): ``{"seed": ..., "game": ..., "practice": true,
"undos": n}``; it applies to the saved match with the same seed and game.
"""
from __future__ import annotations

import json
from typing import Any

from domino.engine.match import HUMAN
from domino.engine.records import from_record, to_record


def meta_for(match, practice: bool, undos: int = 0) -> dict:
    return {"seed": match.seed, "game": match.rules.game, "practice": bool(practice), "undos": int(undos)}


def meta_applies(meta: Any, match) -> bool:
    return (isinstance(meta, dict) and meta.get("seed") == match.seed
            and meta.get("game") == match.rules.game)


def load_meta(text: Any) -> dict | None:
    try:
        doc = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def person(match) -> int | None:
    """The one person at the table, or None (none, or several)."""
    people = [i for i, s in enumerate(match.seats) if s["kind"] == HUMAN]
    return people[0] if len(people) == 1 else None


def _prefix(doc: dict, index: int) -> dict:
    """The record cut just before action ``index`` of its last hand."""
    cut = dict(doc)
    hands = [dict(hd) for hd in doc["hands"]]
    last = hands[-1]
    last["actions"] = [dict(a) for a in last["actions"][:index]]
    last["result"] = None
    cut["hands"] = hands
    cut["finished"] = False
    cut["outcome"] = None
    cut.pop("resigned", None)
    cut.pop("idle", None)
    return cut


def undo_point(match) -> int | None:
    """Index in the current hand's actions of the person's last decision,
    or None when there is nothing to undo."""
    seat = person(match)
    if seat is None or match.resigned or match.idle:
        return None
    doc = to_record(match)
    actions = doc["hands"][-1]["actions"]
    for i in range(len(actions) - 1, -1, -1):
        a = actions[i]
        if a.get("seat") != seat:
            continue
        if "play" in a:
            return i
        # a draw or a pass is a decision only when the person had a choice
        # (the game makes the forced ones by itself)
        before = from_record(_prefix(doc, i), auto_after=False)
        if len(before.legal_actions()) > 1:
            return i
    return None


def can_undo(match) -> bool:
    return undo_point(match) is not None


def undo(match):
    """The match as it was just before the person's last decision (a new
    Match), or None when there is nothing to undo."""
    i = undo_point(match)
    if i is None:
        return None
    return from_record(_prefix(to_record(match), i))
