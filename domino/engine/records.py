"""Game records (RULES.md 8): export any match, import, replay with checks.

``to_record(match)`` gives the JSON document; ``from_record(doc)`` replays it,
checking every action and every recorded result, and returns the live
:class:`~domino.engine.match.Match` (finished or not).  A bad record raises
:class:`ReplayError` with the hand, the 0-based index of the action in that
hand, the action and a code.
"""
from __future__ import annotations

from typing import Any

from domino.engine import tiles as T
from domino.engine.match import IllegalAction, Match
from domino.engine.rules import RulesError, rules_from_options

FORMAT = "domino-record/1"
RESULT_KEYS = ("end", "points", "totals")


class ReplayError(ValueError):
    def __init__(self, code: str, message: str, hand: int | None = None, index: int | None = None,
                 action: Any = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.hand = hand
        self.index = index
        self.action = action

    def to_json(self) -> dict:
        return {"hand": self.hand, "index": self.index, "action": self.action,
                "code": self.code, "message": self.message}


def record_result(res: dict | None) -> dict | None:
    if res is None:
        return None
    return {"end": res["end"], "winner": res["winner"], "counts": list(res["counts"]),
            "points": list(res["points"]), "totals": list(res["totals"])}


def to_record(match: Match) -> dict:
    hands = []
    for k, rec in enumerate(match.records):
        acts = [match.public_action(a, a[0]) for a in rec["actions"]]
        hands.append({
            "redeals": rec["redeals"],
            "deal": [[T.NAMES[t] for t in h] for h in rec["deal"]],
            "boneyard": [T.NAMES[t] for t in rec["boneyard"]],
            "opener": rec["opener"],
            "actions": [dict(a) for a in acts],
            "result": record_result(rec["result"]),
        })
    doc = {
        "format": FORMAT,
        "game": match.rules.game,
        "options": match.rules.options(),
        "seed": match.seed,
        "seats": [dict(s) for s in match.seats],
        "hands": hands,
        "finished": match.finished,
        "outcome": match.outcome,
    }
    if match.resigned:
        doc["resigned"] = dict(match.resigned)
    return doc


def _tiles(names: Any, where: str) -> list[int]:
    if not isinstance(names, list):
        raise ReplayError("bad-format", f"{where} must be a list of tiles")
    try:
        return [T.Tile.parse(x).id for x in names]
    except ValueError as exc:
        raise ReplayError("bad-format", f"{where}: {exc}") from None


def from_record(doc: Any, auto_after: bool = True) -> Match:
    """Replay a record, checking everything; return the match, ready to go on."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ReplayError("bad-format", f"not a game record (format must be {FORMAT!r})")
    try:
        rules = rules_from_options(doc["game"], dict(doc.get("options") or {}))
    except (RulesError, KeyError, TypeError) as exc:
        raise ReplayError("bad-format", f"bad game or options: {exc}") from None
    seats = doc.get("seats")
    if not isinstance(seats, list) or len(seats) != rules.players or not all(isinstance(s, dict) for s in seats):
        raise ReplayError("bad-format", f"seats must list {rules.players} players")
    hands = doc.get("hands")
    if not isinstance(hands, list) or not hands:
        raise ReplayError("bad-format", "a record needs at least one hand")
    m = Match.__new__(Match)
    m.rules = rules
    m.seed = doc.get("seed", 0)
    m.seats = [{"name": str(s.get("name", "")), "kind": str(s.get("kind", "human"))} for s in seats]
    m.auto = False
    m.records = []
    m.scores = [0] * rules.n_sides
    m.hand = None
    m.finished = False
    m.outcome = None
    m.resigned = None
    m.seq = 0
    resigned = doc.get("resigned")
    for k, hrec in enumerate(hands):
        if m.finished:
            raise ReplayError("bad-format", "hands recorded after the match ended", k, 0)
        if not isinstance(hrec, dict):
            raise ReplayError("bad-format", "a hand must be an object", k)
        deal = [_tiles(h, f"hand {k} deal") for h in (hrec.get("deal") or [])]
        bone = _tiles(hrec.get("boneyard", []), f"hand {k} boneyard")
        if len(deal) != rules.players or any(len(h) != rules.hand_size for h in deal):
            raise ReplayError("bad-format", f"hand {k}: deal must give {rules.players} hands of {rules.hand_size}", k)
        every = [t for h in deal for t in h] + bone
        if sorted(every) != list(range(rules.n_tiles)):
            raise ReplayError("bad-format", f"hand {k}: deal and boneyard must hold the set once each", k)
        if rules.redeal and any(sum(T.DOUBLE[t] for t in h) >= 4 for h in deal):
            raise ReplayError("bad-format", f"hand {k}: a hand with 4 doubles must be redealt", k)
        try:
            m.start_hand([sorted(h) for h in deal], bone, hrec.get("opener"), hrec.get("redeals", 0))
        except IllegalAction as exc:
            raise ReplayError(exc.code, exc.message, k, 0) from None
        actions = hrec.get("actions", [])
        if not isinstance(actions, list):
            raise ReplayError("bad-format", "actions must be a list", k)
        for i, a in enumerate(actions):
            if resigned and resigned.get("hand") == k and resigned.get("index") == i:
                break
            if m.hand.ended:
                raise ReplayError("bad-format", "action after the end of the hand", k, i, a)
            if isinstance(a, dict) and a.get("resign"):
                raise ReplayError("bad-format", "resigning is recorded under 'resigned'", k, i, a)
            try:
                m.apply(a)
            except IllegalAction as exc:
                raise ReplayError(exc.code, exc.message, k, i, a) from None
        want = hrec.get("result")
        got = m.records[-1]["result"]
        if want is not None:
            if got is None:
                raise ReplayError("score-mismatch", f"hand {k} is recorded as over but is not", k, len(actions))
            for key in RESULT_KEYS:
                if want.get(key) != got.get(key):
                    raise ReplayError("score-mismatch",
                                      f"hand {k}: recorded {key} {want.get(key)!r}, the rules give {got.get(key)!r}",
                                      k, len(actions))
        elif got is not None and k < len(hands) - 1:
            raise ReplayError("bad-format", f"hand {k} ended but has no recorded result", k, len(actions))
        elif k < len(hands) - 1:
            raise ReplayError("bad-format", f"hand {k} is not over but another hand follows", k, len(actions))
    if resigned:
        try:
            m.resign(resigned.get("seat"))
        except IllegalAction as exc:
            raise ReplayError("bad-format", exc.message, resigned.get("hand"), resigned.get("index")) from None
    m.auto = auto_after
    if auto_after and m.phase == "play":
        m.hand.advance()
    return m
