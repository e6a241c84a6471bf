"""The player's statistics: finished matches counted per game, player count and computer level.  Pure Python (no js).

Kept in localStorage beside the save, under its own key
(:mod:`domino.app.storage`), as ``{"format": "domino-stats/1", "groups": {key: group}}``.  Older
formats go through ``MIGRATIONS`` one version at a time; an unreadable or
unknown document starts afresh (the browser keeps the old text aside).

Whose statistics: the people at this device.  A match counts when every
person sits on one side against the computer (one person, or two partners);
matches where people play each other, or only computers play, are not
counted.  Practice matches (undo allowed) are counted apart: their rows are
marked practice and they never touch the ordinary rows or streaks.

A group (one row of the statistics table) holds: matches, won, lost, drawn,
hands, hands_won, hands_lost, best (the best final score of the person's
side: the highest, or the lowest where bad points are played), total (of the
final scores, for the average), streak (+n: n matches won in a row, -n: n
lost; a drawn match ends either), best_streak, last (the latest results,
newest last, "W"/"L"/"D", at most RECENT).
"""
from __future__ import annotations

import json
from typing import Any, Callable

from domino.engine.common import winning_side
from domino.engine.match import HUMAN

FORMAT = "domino-stats/1"
RECENT = 10
LEVEL_ORDER = ("easy", "medium", "hard", "random")
COUNTERS = ("matches", "won", "lost", "drawn", "hands", "hands_won", "hands_lost", "total",
            "streak", "best_streak")


class StatsError(ValueError):
    """Stats text that cannot be read (the caller starts afresh)."""


def empty() -> dict:
    return {"format": FORMAT, "groups": {}}


def new_group(game: str, players: int, levels: str, practice: bool, good: bool) -> dict:
    g = {k: 0 for k in COUNTERS}
    g.update({"game": game, "players": players, "levels": levels, "practice": practice,
              "good": good, "best": None, "last": []})
    return g


def group_key(game: str, players: int, levels: str, practice: bool) -> str:
    return f"{game}/{players}/{levels}" + ("/practice" if practice else "")


# ----------------------------------------------------------------- format
def _from_0(doc: dict) -> dict:
    """domino-stats/0 (a flat list of match rows) -> /1 (groups)."""
    out = empty()
    for row in doc.get("matches") or []:
        if isinstance(row, dict):
            _count(out, row)
    return out


MIGRATIONS: dict[str, Callable[[dict], dict]] = {
    "domino-stats/0": _from_0,
}


def migrate(doc: Any) -> dict:
    if not isinstance(doc, dict):
        raise StatsError("statistics are a JSON object")
    seen = set()
    while doc.get("format") != FORMAT:
        fmt = doc.get("format")
        if not isinstance(fmt, str) or fmt not in MIGRATIONS or fmt in seen:
            raise StatsError(f"unknown statistics format {fmt!r}")
        seen.add(fmt)
        doc = MIGRATIONS[fmt](doc)
    return _clean(doc)


def _clean(doc: dict) -> dict:
    """Keep every well-formed group, with every counter present (a group
    written by a newer version keeps its extra fields)."""
    out = empty()
    groups = doc.get("groups")
    if not isinstance(groups, dict):
        return out
    for key, g in groups.items():
        if not isinstance(g, dict) or not isinstance(g.get("game"), str):
            continue
        fixed = new_group(g["game"], _int(g.get("players")), str(g.get("levels", "")),
                          bool(g.get("practice")), bool(g.get("good", True)))
        fixed.update({k: v for k, v in g.items() if k not in fixed})
        for k in COUNTERS:
            fixed[k] = _int(g.get(k))
        fixed["best"] = g["best"] if isinstance(g.get("best"), int) else None
        last = g.get("last")
        fixed["last"] = [x for x in last if x in ("W", "L", "D")][-RECENT:] if isinstance(last, list) else []
        out["groups"][str(key)] = fixed
    return out


def _int(v: Any) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def load(text: Any) -> dict:
    """Stored text -> statistics (None/empty -> empty; raises StatsError)."""
    if text is None or text == "":
        return empty()
    try:
        doc = json.loads(text)
    except (TypeError, ValueError, RecursionError) as e:
        raise StatsError(str(e)) from None
    return migrate(doc)


def dump(stats: dict) -> str:
    return json.dumps(stats, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


# ----------------------------------------------------------------- counting
def levels_of(kinds: list[str]) -> str:
    """The computer levels at a table: "medium", "easy+hard"."""
    comp = sorted({k for k in kinds if k != HUMAN},
                  key=lambda k: (LEVEL_ORDER.index(k) if k in LEVEL_ORDER else len(LEVEL_ORDER), k))
    return "+".join(comp)


def match_row(match, practice: bool = False) -> dict | None:
    """What a finished match adds to the statistics, or None when it does not
    count (not over, no person, people on more than one side, no computer)."""
    if not match.outcome:
        return None
    rules = match.rules
    kinds = [s["kind"] for s in match.seats]
    people = [i for i, k in enumerate(kinds) if k == HUMAN]
    if not people or len(people) == len(kinds):
        return None
    sides = {rules.side_of(i) for i in people}
    if len(sides) != 1:
        return None
    side = sides.pop()
    hands_won = hands_lost = 0
    for rec in match.records:
        res = rec.get("result")
        if res is None:
            continue
        w = winning_side(res, rules.sides)
        if w is None:
            continue
        if w == side:
            hands_won += 1
        else:
            hands_lost += 1
    hands = sum(1 for rec in match.records if rec.get("result") is not None)
    w = match.outcome.get("winner")
    result = "D" if w is None else "W" if w == side else "L"
    return {"game": rules.game, "players": rules.players, "levels": levels_of(kinds),
            "practice": bool(practice), "good": rules.points == "good",
            "result": result, "score": int(match.outcome.get("scores", match.scores)[side]),
            "hands": hands, "hands_won": hands_won, "hands_lost": hands_lost}


def _count(stats: dict, row: dict) -> dict:
    key = group_key(row["game"], row["players"], row["levels"], row["practice"])
    g = stats["groups"].get(key)
    if g is None:
        g = stats["groups"][key] = new_group(row["game"], row["players"], row["levels"], row["practice"],
                                             row.get("good", True))
    g["matches"] += 1
    res = row["result"]
    g[{"W": "won", "L": "lost", "D": "drawn"}[res]] += 1
    for k in ("hands", "hands_won", "hands_lost"):
        g[k] += int(row.get(k, 0))
    score = int(row.get("score", 0))
    g["total"] += score
    better = (lambda a, b: a > b) if g["good"] else (lambda a, b: a < b)
    if g["best"] is None or better(score, g["best"]):
        g["best"] = score
    if res == "W":
        g["streak"] = g["streak"] + 1 if g["streak"] > 0 else 1
    elif res == "L":
        g["streak"] = g["streak"] - 1 if g["streak"] < 0 else -1
    else:
        g["streak"] = 0
    g["best_streak"] = max(g["best_streak"], g["streak"])
    g["last"] = (g["last"] + [res])[-RECENT:]
    return g


def record(stats: dict, match, practice: bool = False) -> dict | None:
    """Count a finished match (in place); the group it went to, or None."""
    row = match_row(match, practice)
    if row is None:
        return None
    return _count(stats, row)


def average(g: dict) -> float | None:
    return g["total"] / g["matches"] if g["matches"] else None


def rows(stats: dict) -> list[dict]:
    """The groups in display order: ordinary before practice, then by game,
    player count and level."""
    gs = list(stats["groups"].values())
    return sorted(gs, key=lambda g: (g["practice"], g["game"], g["players"], g["levels"]))
