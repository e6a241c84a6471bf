"""Game records (RULES.md 8): export any match, import, replay with checks.

``to_record(match)`` gives the JSON document; ``from_record(doc)`` replays it,
checking every action and every recorded result, and returns the live
:class:`~domino.engine.match.Match` (finished or not).  A bad record raises
:class:`ReplayError` with the hand, the 0-based index of the action in that
hand, the action and a code.
"""
from __future__ import annotations

import json
import re
from typing import Any

from domino.engine import foot, row, tiles, trains
from domino.engine.common import double_id
from domino.engine.line import Hand
from domino.engine.match import BOARDS, HUMAN, IllegalAction, Match
from domino.engine.rules import RulesError, rules_from_options

FORMAT = "domino-record/1"


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
            "deal": [[tiles.NAMES[t] for t in h] for h in rec["deal"]],
            "boneyard": [tiles.NAMES[t] for t in rec["boneyard"]],
            "opener": rec["opener"],
            "actions": [dict(a) for a in acts],
            "result": record_result(rec["result"]),
        })
        if match.board is not None:
            hands[-1].update(match.board.record_extra(rec))
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
    if match.idle:
        doc["idle"] = dict(match.idle)
    return doc


MAX_DEPTH = 32          # a record nests 5 levels; anything deeper is not one
MAX_CHARS = 4_000_000   # a long match is well under 1 MB of JSON
MAX_NAME = 64           # seat names (the new-game screen allows 24)
RESULT_FIELDS = ("end", "winner", "counts", "points", "totals")
ACTION_KEYS = frozenset({"seat", "play", "end", "open", "draw", "pass",
                         "flip", "peek", "reject", "face_up"})   # the last four: Frijolito


def json_depth(text: str) -> int:
    """How deep the brackets of a JSON text nest, strings skipped, without
    parsing it (so a 100,000-deep text cannot exhaust the stack)."""
    depth = top = 0
    for m in _BRACKETS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > top:
                top = depth
        elif c in "]}":
            depth -= 1
    return top


_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


def load_json(text: Any, what: str = "record", max_chars: int = MAX_CHARS,
              max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text that came from outside, checking size and nesting
    first; any failure is a :class:`ReplayError` ``bad-format``."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise ReplayError("bad-format", f"the {what} is not UTF-8 text") from None
    if not isinstance(text, str):
        raise ReplayError("bad-format", f"the {what} is not text")
    if len(text) > max_chars:
        raise ReplayError("bad-format", f"the {what} is too large ({len(text):,} characters)")
    if json_depth(text) > max_depth:
        raise ReplayError("bad-format", f"the {what} nests deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:   # JSONDecodeError, huge numbers
        raise ReplayError("bad-format", f"the {what} is not JSON: {str(exc)[:200]}") from None


def _tiles(names: Any, where: str) -> list[int]:
    if not isinstance(names, list):
        raise ReplayError("bad-format", f"{where} must be a list of tiles")
    try:
        return [tiles.Tile.parse(x).id for x in names]
    except ValueError as exc:
        raise ReplayError("bad-format", f"{where}: {str(exc)[:200]}") from None


def _is_int(x: Any, lo: int = 0, hi: int = 10**6) -> bool:
    return type(x) is int and lo <= x <= hi


def _short(x: Any) -> str:
    r = repr(x)
    return r if len(r) <= 60 else r[:60] + "..."


def _check_action(a: Any, k: int, i: int) -> None:
    if not isinstance(a, dict) or not a.keys() <= ACTION_KEYS:
        raise ReplayError("bad-format", f"not an action: {_short(a)}", k, i, a)
    kinds = [x for x in ("play", "draw", "pass", "flip", "peek", "reject") if x in a]
    if len(kinds) != 1:
        raise ReplayError("bad-format", f"an action plays, draws or passes: {_short(a)}", k, i, a)
    if "face_up" in a and (kinds != ["reject"] or a["face_up"] is not True):
        raise ReplayError("bad-format", f"only a reject may be face up: {_short(a)}", k, i, a)
    if "pass" in a and a["pass"] is not True:
        raise ReplayError("bad-format", f"a pass is written \"pass\": true, not {_short(a['pass'])}", k, i, a)
    if ("end" in a or "open" in a) and "play" not in a:
        raise ReplayError("bad-format", f"only a play has an end: {_short(a)}", k, i, a)
    if "open" in a and not _is_int(a["open"], 0, 15):
        raise ReplayError("bad-format", f"open must be a number of pips: {_short(a)}", k, i, a)


def _check_header(doc: dict) -> tuple[Any, list[dict]]:
    seed = doc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > 100:
        raise ReplayError("bad-format", f"seed must be a number or a short text, not {_short(seed)}")
    seats = doc.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise ReplayError("bad-format", "seats must be a list of {name, kind} objects")
    out = []
    for i, s in enumerate(seats):
        name, kind = s.get("name", ""), s.get("kind", HUMAN)
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise ReplayError("bad-format", f"seat {i}: a name is a text of at most {MAX_NAME} characters")
        if not isinstance(kind, str) or not 0 < len(kind) <= 24:
            raise ReplayError("bad-format", f"seat {i}: kind must be a short text")
        out.append({"name": name, "kind": kind})
    return seed, out


def from_record(doc: Any, auto_after: bool = True) -> Match:
    """Replay a record, checking everything; return the match, ready to go on.

    Any input that is not a valid record raises :class:`ReplayError`, never
    another exception."""
    try:
        return _replay(doc, auto_after)
    except ReplayError:
        raise
    except (TypeError, KeyError, AttributeError, IndexError, ValueError, RecursionError,
            OverflowError) as exc:   # a shape no explicit check foresaw
        raise ReplayError("bad-format", f"malformed record: {type(exc).__name__}: {str(exc)[:200]}") from None


def _replay(doc: Any, auto_after: bool) -> Match:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ReplayError("bad-format", f"not a game record (format must be {FORMAT!r})")
    options = doc.get("options") or {}
    if not isinstance(options, dict):
        raise ReplayError("bad-format", "options must be an object")
    try:
        rules = rules_from_options(doc.get("game"), dict(options))
    except RulesError as exc:
        raise ReplayError("bad-format", f"bad game or options: {exc}") from None
    seed, seats = _check_header(doc)
    if len(seats) != rules.players:
        raise ReplayError("bad-format", f"seats must list {rules.players} players")
    hands = doc.get("hands")
    if not isinstance(hands, list) or not hands:
        raise ReplayError("bad-format", "a record needs at least one hand")
    resigned = doc.get("resigned")
    if resigned is not None and not (isinstance(resigned, dict) and resigned.keys() == {"seat", "hand", "index"}
                                     and all(_is_int(resigned[x]) for x in ("seat", "hand", "index"))):
        raise ReplayError("bad-format", "resigned must be {seat, hand, index} numbers")
    idle = doc.get("idle")
    if idle is not None and not (isinstance(idle, dict) and idle.keys() == {"hand", "index"}
                                 and all(_is_int(idle[x]) for x in ("hand", "index"))):
        raise ReplayError("bad-format", "idle must be {hand, index} numbers")
    if idle is not None and resigned:
        raise ReplayError("bad-format", "a match ends once: resigned or idle, not both")
    m = Match.__new__(Match)
    m.rules = rules
    m.seed = seed
    m.seats = seats
    m.auto = False
    m.records = []
    m.scores = [0] * rules.n_sides
    m.hand = None
    m.finished = False
    m.outcome = None
    m.resigned = None
    m.seq = 0
    m.board = BOARDS.get(rules.shape)
    for k, hrec in enumerate(hands):
        if m.finished:
            raise ReplayError("bad-format", "hands recorded after the match ended", k, 0)
        if not isinstance(hrec, dict):
            raise ReplayError("bad-format", "a hand must be an object", k)
        raw_deal = hrec.get("deal")
        if not isinstance(raw_deal, list):
            raise ReplayError("bad-format", f"hand {k}: deal must be a list of hands", k)
        deal = [_tiles(h, f"hand {k} deal") for h in raw_deal]
        bone = _tiles(hrec.get("boneyard", []), f"hand {k} boneyard")
        opener, redeals = hrec.get("opener"), hrec.get("redeals", 0)
        if opener is not None and not _is_int(opener, 0, rules.players - 1):
            raise ReplayError("bad-format", f"hand {k}: no seat {_short(opener)} to open", k)
        if not _is_int(redeals, 0, 10_000):
            raise ReplayError("bad-format", f"hand {k}: redeals must be a number", k)
        if m.board is None:
            if len(deal) != rules.players or any(len(h) != rules.hand_size for h in deal):
                raise ReplayError("bad-format", f"hand {k}: deal must give {rules.players} hands of {rules.hand_size}", k)
            every = [t for h in deal for t in h] + bone
            if sorted(every) != list(range(rules.n_tiles)):
                raise ReplayError("bad-format", f"hand {k}: deal and boneyard must hold the set once each", k)
            if rules.redeal and any(sum(tiles.DOUBLE[t] for t in h) >= 4 for h in deal):
                raise ReplayError("bad-format", f"hand {k}: a hand with 4 doubles must be redealt", k)
            deal = [sorted(h) for h in deal]
        try:
            extra = m.board.read_extra(hrec) if m.board is not None else None
            m.start_hand(deal, bone, opener, redeals, extra)
        except IllegalAction as exc:
            raise ReplayError(exc.code, exc.message, k, 0) from None
        actions = hrec.get("actions", [])
        if not isinstance(actions, list):
            raise ReplayError("bad-format", "actions must be a list", k)
        for i, a in enumerate(actions):
            if resigned and resigned["hand"] == k and resigned["index"] == i:
                raise ReplayError("bad-format", "action after the match was resigned", k, i, a)
            if idle and idle["hand"] == k and idle["index"] == i:
                raise ReplayError("bad-format", "action after the match ended idle", k, i, a)
            if m.hand.ended:
                raise ReplayError("bad-format", "action after the end of the hand", k, i, a)
            if isinstance(a, dict) and a.get("resign"):
                raise ReplayError("bad-format", "resigning is recorded under 'resigned'", k, i, a)
            _check_action(a, k, i)
            try:
                m.apply(a)
            except IllegalAction as exc:
                raise ReplayError(exc.code, exc.message, k, i, a) from None
        want = hrec.get("result")
        got = m.records[-1]["result"]
        if want is not None:
            if not isinstance(want, dict):
                raise ReplayError("bad-format", f"hand {k}: result must be an object", k, len(actions))
            if got is None:
                raise ReplayError("score-mismatch", f"hand {k} is recorded as over but is not", k, len(actions))
            if want.keys() != set(RESULT_FIELDS):
                raise ReplayError("bad-format", f"hand {k}: a result has {', '.join(RESULT_FIELDS)}",
                                  k, len(actions))
            mine = record_result(got)
            for key in RESULT_FIELDS:
                if "outcome" in doc and json.dumps(want[key]) != json.dumps(mine[key]):
                    raise ReplayError("score-mismatch",
                                      f"hand {k}: recorded {key} {_short(want[key])}, the rules give {mine[key]!r}",
                                      k, len(actions))
        elif got is not None and k < len(hands) - 1:
            raise ReplayError("bad-format", f"hand {k} ended but has no recorded result", k, len(actions))
        elif k < len(hands) - 1:
            raise ReplayError("bad-format", f"hand {k} is not over but another hand follows", k, len(actions))
    if resigned:
        where = (resigned["hand"], resigned["index"])
        if where != (m.hand_no, len(m.hand.actions)):
            raise ReplayError("bad-format", f"resigned at hand {where[0]}, action {where[1]}: "
                              f"the record ends at hand {m.hand_no}, action {len(m.hand.actions)}",
                              where[0], where[1])
        try:
            m.resign(resigned["seat"])
        except IllegalAction as exc:
            raise ReplayError("bad-format", exc.message, resigned["hand"], resigned["index"]) from None
    if idle:
        if (idle["hand"], idle["index"]) != (m.hand_no, len(m.hand.actions)):
            raise ReplayError("bad-format", f"ended idle at hand {idle['hand']}, action {idle['index']}: "
                              f"the record ends at hand {m.hand_no}, action {len(m.hand.actions)}",
                              idle["hand"], idle["index"])
        try:
            m.end_idle()
        except IllegalAction as exc:
            raise ReplayError("bad-format", exc.message, idle["hand"], idle["index"]) from None
    _check_end(doc, m)
    m.auto = auto_after
    if auto_after and m.phase == "play":
        m.hand.advance()
    return m


def _check_end(doc: dict, m: Match) -> None:
    """The recorded match result must be the one the replay reached."""
    if "finished" in doc and doc["finished"] is not m.finished:
        raise ReplayError("score-mismatch", f"recorded finished {_short(doc['finished'])}, "
                          f"the rules give {m.finished!r}", m.hand_no, len(m.hand.actions))
    if "outcome" in doc and json.dumps(doc["outcome"], sort_keys=True) != json.dumps(m.outcome, sort_keys=True):
        raise ReplayError("score-mismatch", f"recorded outcome {_short(doc['outcome'])}, "
                          f"the rules give {m.outcome!r}", m.hand_no, len(m.hand.actions))


# ------------------------------------------------------------------ one hand, from its deal alone
class DealtHand(Match):
    """One hand of a match, started from its deal with no match seed and no earlier hand: what a friend's
    phone can rebuild once the hand is over (the deal dealt again from the hand's revealed seed, the public
    moves it was sent).  Its only record is that hand; :meth:`deal_seed` is the hand's own seed."""

    hand_seed = ""

    def deal_seed(self, k: int | None = None) -> str:
        return self.hand_seed


def hand_from_deal(rules, seats: list[dict], seed: str, deal: list[list[int]], boneyard: list[int],
                   opener: int, redeals: int = 0, scores: list[int] | None = None,
                   round_double: int | None = None, out=()) -> DealtHand:
    """A match holding only the hand dealt ``deal`` (the seats' tiles; Frijolito's rows in their order)
    and ``boneyard`` (in drawing order), opened by ``opener``, ready for the hand's actions (``apply``,
    nothing applied on its own).  What the match's earlier hands decided comes as data: ``scores`` at
    the hand's start, the round's double (``round_double``: the trains' and the foot's), the seats out
    of a Frijolito match (``out``).  Raises ``IllegalAction`` for a deal or opener the rules cannot start."""
    if not (type(opener) is int and 0 <= opener < rules.players) or len(deal) != rules.players:
        raise IllegalAction("bad-format", "no such opener, or not a deal for these seats")
    m = DealtHand.__new__(DealtHand)
    m.rules, m.seed, m.hand_seed = rules, None, seed
    m.seats = [{"name": str(s.get("name", "")), "kind": str(s.get("kind", HUMAN))} for s in seats]
    m.auto = False
    m.records = []
    m.scores = list(scores) if scores is not None else [0] * rules.n_sides
    m.hand = None
    m.finished, m.outcome, m.resigned, m.seq = False, None, None, 0
    m.board = BOARDS.get(rules.shape)
    bone = list(boneyard)
    rec = {"redeals": redeals, "deal": [sorted(h) for h in deal], "boneyard": bone, "opener": opener,
           "result": None}
    shape = rules.shape
    if shape in ("trains", "foot"):
        if not (type(round_double) is int and 0 <= round_double <= rules.set):
            raise IllegalAction("bad-format", "the round's double is needed")
        masks = [tiles.mask_of(h) for h in deal]
        v = double_id(round_double)
        if shape == "trains":
            engine, forced = (-1, v) if rules.holder_starts else (v, None)
            m.hand = trains.Round(rules, masks, bone, opener, engine, forced)
            rec.update(engine=engine, double=round_double)
        else:
            m.hand = foot.Round(rules, masks, bone, opener, v)
            rec.update(double=round_double)
    elif shape == "row":
        m.hand = row.Round(rules, [list(x) for x in deal], bone, opener, frozenset(out))
        rec["deal"] = [list(x) for x in deal]
    else:
        m.hand = Hand(rules, [tiles.mask_of(h) for h in deal], bone, opener, None, base=m.scores)
    rec["actions"] = m.hand.actions
    m.records.append(rec)
    m.seq = 1
    return m
