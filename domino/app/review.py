"""Review a hand: the hand replayed move by move from its match's record, every seat's tiles face up.  Pure Python.

A hand is never rebuilt from a copy of the game's logic: :func:`steps` replays
the match's record (:func:`domino.engine.records.from_record`) up to the
hand's deal, then applies the hand's recorded actions one at a time on the
engine's own :class:`~domino.engine.match.Match`, keeping after each the
position: every seat's tiles (``Match.seat_tiles``), the table as a seat's
view draws it, and the boneyard.  Step 0 is the deal; the last step is the
hand's end.

The last hands played on this phone (:data:`KEEP`; solo, hot-seat and friends') are
kept for the statistics screen under their own storage key
(:mod:`domino.app.storage`), as ``{"format": "domino-reviews/1", "matches":
{id: record}, "hands": [{"id", "hand", "game", "names"}]}`` (oldest first):
one record per match (the latest, cut after its last kept hand), shared by
its hands, the whole at most :data:`MAX_CHARS` characters.  A friends' hand
kept on a guest's phone is ``{"view": its last view, "problems": what the
deal watch found}`` under ``"friends:" + its fingerprint`` (:func:`keep_view`).
"""
from __future__ import annotations

import json
from typing import Any

from domino.app.i18n import t
from domino.engine import deals
from domino.engine.common import hand_rng, shuffled_deal
from domino.engine.records import from_record, load_json, to_record
from domino.net.dealwatch import replay

FORMAT = "domino-reviews/1"
KEEP = 5                 # hands kept for the statistics screen
MAX_CHARS = 300_000      # the kept hands' text, at most (the oldest hands go first)
PLACES = ("W", "E", "N", "S")


# ----------------------------------------------------------------- the replay
def cut(doc: dict, k: int, actions: int | None = None) -> dict:
    """The record of hands 0..k with hand k cut after ``actions`` of its actions (None: all),
    as a match still going (no result for hand k, not finished, not resigned)."""
    out = dict(doc)
    hands = [dict(hd) for hd in doc["hands"][:k + 1]]
    last = hands[-1]
    if actions is not None:
        last["actions"] = [dict(a) for a in last["actions"][:actions]]
        last["result"] = None
    out["hands"] = hands
    out.pop("resigned", None)
    out.pop("idle", None)
    out.pop("finished", None)
    out.pop("outcome", None)
    return out


def position(m, action: dict | None) -> dict:
    """One step: the action just applied (None: the deal) and the position after it."""
    v = m.view(0)
    v["legal"] = []
    v["hand"] = []
    return {"action": dict(action) if action else None, "seat_tiles": m.seat_tiles(), "view": v,
            "boneyard": v["boneyard"], "counts": list(v["counts"]), "names": list(v["names"])}


def steps(doc: dict, k: int) -> list[dict]:
    """Hand ``k`` of the record ``doc``, step by step: the deal, then one step per recorded action."""
    m = from_record(cut(doc, k, 0), auto_after=False)
    out = [position(m, None)]
    for a in doc["hands"][k]["actions"]:
        m.apply(dict(a))
        out.append(position(m, a))
    return out


def steps_of_match(match, k: int | None = None) -> list[dict]:
    """A live match's hand ``k`` (the current one by default), from its record."""
    doc = to_record(match)
    return steps(doc, len(doc["hands"]) - 1 if k is None else k)


def steps_of_view(view: dict) -> list[dict]:
    """A friends' hand as a guest's phone rebuilds it once the hand is over: the deal dealt again from the
    seed the host revealed, then the hand's public moves one by one (:func:`domino.net.dealwatch.replay`);
    nothing else the host holds.  Raises ``ValueError`` when they do not make the hand."""
    out: list[dict] = []
    replay(view, lambda m, a: out.append(position(m, a)))
    return out


def view_seal(view: dict, problems: list[str] | None) -> dict | None:
    """A friends' hand's deal as a guest's phone checked it (``problems``: the deal watch's, None: it saw
    no deal of its own to compare); None: no seed was revealed."""
    d = view.get("dealing") if isinstance(view, dict) else None
    if not isinstance(d, dict) or not deals.is_seed(d.get("seed")):
        return None
    return {"seed": d["seed"], "fingerprint": d.get("fingerprint"), "problems": list(problems or []),
            "guest": True, "saw": problems is not None}


def deal_seal(doc: dict, k: int) -> dict | None:
    """Hand ``k``'s deal checked on the spot: its seed (the hand is over), its
    fingerprint, and what does not match (``problems``, ``[]``: the deal
    matches its fingerprint), by dealing again from the seed with the engine
    and comparing with the recorded deal and boneyard (:func:`domino.engine.deals.check_hand`).
    None: the record cannot be replayed."""
    try:
        m = from_record(cut(doc, k, 0), auto_after=False)
        seed = m.deal_seed(k)
        problems = deals.check_hand(m, k, seed)
        return {"seed": seed, "fingerprint": m.fingerprint(k), "problems": problems,
                "before": bool(problems) and dealt_before_seeds(m, k)}
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def dealt_before_seeds(m, k: int) -> bool:
    """Hand ``k`` was dealt the way deals were made before each hand had a seed of its own (a hand kept
    or saved before then): it has no fingerprint to match, and that is not a sign of cheating."""
    rec = m.records[k]
    pool = sorted([t for hd in rec["deal"] for t in hd] + list(rec["boneyard"]))
    hands, bone = shuffled_deal(hand_rng(m.seed, k, rec["redeals"]), pool, [len(hd) for hd in rec["deal"]])
    ordered = m.rules.shape == "row"
    return bone == list(rec["boneyard"]) and all((list(a) == list(b)) if ordered else sorted(a) == sorted(b)
                                                 for a, b in zip(hands, rec["deal"]))


# ----------------------------------------------------------------- words
def place_words(end: str, names: list[str], lang: str) -> str:
    if end in PLACES:
        return t(lang, "review.end", where=t(lang, "game.end." + end))
    if end == "train:mexican":
        return t(lang, "boards.mexican")
    kind, _, n = end.partition(":")
    if kind == "train" and n.isdigit() and int(n) < len(names):
        return t(lang, "review.train", name=names[int(n)])
    if kind == "foot" and n.isdigit():
        return t(lang, "review.branch", n=int(n) + 1)
    return end


def step_words(step: dict, lang: str) -> str:
    """What happened at this step, in words: who, and which tile (or the draw, or the pass)."""
    a = step["action"]
    names = step["names"]
    if a is None:
        return t(lang, "review.deal")
    name = names[a["seat"]] if 0 <= a.get("seat", -1) < len(names) else "?"
    if "play" in a:
        if "end" not in a:
            return t(lang, "review.opens", name=name, tile=a["play"])
        return t(lang, "review.plays", name=name, tile=a["play"], where=place_words(a["end"], names, lang))
    if "draw" in a:
        return t(lang, "review.draws", name=name, tile=a["draw"]) if a["draw"] else t(lang, "review.draws_one", name=name)
    if "pass" in a:
        return t(lang, "review.passes", name=name)
    if "flip" in a:
        return t(lang, "review.flips", name=name, tile=a["flip"])
    if "peek" in a:
        return t(lang, "review.peeks", name=name, tile=a["peek"])
    if "reject" in a:
        return t(lang, "review.rejects_up" if a.get("face_up") else "review.rejects", name=name, tile=a["reject"])
    return name


# ----------------------------------------------------------------- the kept hands
def empty() -> dict:
    return {"format": FORMAT, "matches": {}, "hands": []}


def load(text: Any) -> dict:
    """The kept hands from their stored text; anything unreadable is none."""
    if not isinstance(text, str) or not text:
        return empty()
    try:
        doc = load_json(text, "kept hands", max_chars=MAX_CHARS * 2)
    except ValueError:
        return empty()
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("matches"), dict) \
            or not isinstance(doc.get("hands"), list):
        return empty()
    hands = [e for e in doc["hands"] if isinstance(e, dict) and isinstance(e.get("id"), str)
             and type(e.get("hand")) is int and isinstance(doc["matches"].get(e["id"]), dict)
             and isinstance(e.get("game"), str) and isinstance(e.get("names"), list)]
    return {"format": FORMAT, "matches": doc["matches"], "hands": hands[-KEEP:]}


def dump(doc: dict) -> str:
    return json.dumps(doc, separators=(",", ":"))


def keep(doc: dict, match, match_id: str) -> dict:
    """The kept hands with the match's last hand (over) added: a hand kept
    before under the same match and number is replaced; the oldest go first."""
    k = len(match.records) - 1
    rec = to_record(match)
    rec["hands"] = rec["hands"][:k + 1]
    hands = [e for e in doc["hands"] if not (e["id"] == match_id and e["hand"] >= k)]
    hands.append({"id": match_id, "hand": k, "game": match.rules.game, "names": [s["name"] for s in match.seats]})
    matches = dict(doc["matches"])
    matches[match_id] = rec
    return _bounded({"format": FORMAT, "matches": matches, "hands": hands[-KEEP:]})


def keep_view(doc: dict, view: dict, problems: list[str] | None) -> dict:
    """The kept hands with a friends' hand a guest's phone saw end (its last view, the seed revealed, and
    what its deal watch found), under ``"friends:" + fingerprint``: the guest has no record of the match,
    and needs none (:func:`steps_of_view`)."""
    key = "friends:" + str(view["dealing"]["fingerprint"])
    hands = [e for e in doc["hands"] if e["id"] != key]
    hands.append({"id": key, "hand": view["hand_no"], "game": view["game"], "names": list(view["names"])})
    matches = dict(doc["matches"])
    matches[key] = {"view": view, "problems": problems}
    return _bounded({"format": FORMAT, "matches": matches, "hands": hands[-KEEP:]})


def _bounded(out: dict) -> dict:
    while True:
        used = {e["id"] for e in out["hands"]}
        out["matches"] = {i: r for i, r in out["matches"].items() if i in used}
        if len(dump(out)) <= MAX_CHARS or len(out["hands"]) <= 1:
            return out
        out["hands"] = out["hands"][1:]


def kept_steps(doc: dict, i: int) -> list[dict] | None:
    """The steps of kept hand ``i``, or None when it cannot be replayed."""
    if not 0 <= i < len(doc["hands"]):
        return None
    e = doc["hands"][i]
    try:
        kept = doc["matches"][e["id"]]
        if "view" in kept:
            return steps_of_view(kept["view"])
        return steps(kept, e["hand"])
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None


def kept_seal(doc: dict, i: int) -> dict | None:
    """Kept hand ``i``'s deal checked (:func:`deal_seal`, or for a friends' hand :func:`view_seal`)."""
    e = doc["hands"][i]
    kept = doc["matches"][e["id"]]
    if "view" in kept:
        problems = kept.get("problems")
        return view_seal(kept["view"], problems if isinstance(problems, list) else None)
    return deal_seal(kept, e["hand"])
