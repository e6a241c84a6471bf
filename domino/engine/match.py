"""A match: hands in sequence, scores, the validated public API and seat views.

Everything a user interface or a computer player needs goes through
:class:`Match`: ``legal_actions()``, ``apply(action)``, ``view(seat)``,
``next_hand()``, ``resign(seat)``.  Actions are the record's JSON dicts
(RULES.md 8)::

    {"seat": 1, "play": "4-6", "end": "E"}   # opening play: no "end"
    {"seat": 0, "draw": "2-3"}                # tile optional when applying
    {"seat": 0, "pass": True}
    {"seat": 2, "resign": True}

An illegal action raises :class:`IllegalAction` (a ``ValueError``) whose
``code`` is one of ``not-in-hand``, ``no-match``, ``pass-while-able``,
``draw-while-able``, ``out-of-turn``, ``bad-format``.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from domino.engine import deals, tiles
from domino.engine.common import CODES, IllegalAction, hand_rng, player_rng  # noqa: F401 (CODES: re-exported)
from domino.engine.foot import Foot
from domino.engine.line import (CENTER, DRAW, END_IDS, END_INDEX, OPEN, PASS, Hand,
                   move_end, move_exposed, move_tile)
from domino.engine.row import Row
from domino.engine.rules import Rules
from domino.engine.trains import Trains

#: The kind of a seat a person plays (a Match's default).  A computer seat's
#: kind is its level (domino.players.COMPUTER_KINDS); the table adds
#: domino.table.REMOTE, a person on another device.
HUMAN = "human"

#: the board shapes other than the line family's (RULES.md 4-6)
BOARDS = {"trains": Trains(), "foot": Foot(), "row": Row()}


def deal_hand(rules: Rules, seed: int | str, hand_no: int) -> tuple[list[list[int]], list[int], int, random.Random]:
    """Shuffle and deal from the seed; redeal while a hand holds 4+ doubles
    (when the rules say so).  Returns (hands, boneyard, redeals, rng)."""
    ds = deals.deal_seed(seed, hand_no)
    redeals = 0
    while True:
        hands, rest = deals.deal_from(ds, redeals, rules.n_tiles, [rules.hand_size] * rules.players)
        hands = [sorted(h) for h in hands]
        if rules.redeal and deals.too_many_doubles(hands):
            redeals += 1
            continue
        return hands, rest, redeals, opener_rng(rules, seed, hand_no, redeals)


def opener_rng(rules: Rules, seed: int | str, hand_no: int, redeals: int) -> random.Random:
    """The generator a "random seat" opener was drawn from before it came from the deal's own seed
    (:func:`domino.engine.deals.random_seat`): the match's own, past the shuffle it made before the deals
    had seeds of their own.  A record kept before then replays with the opener it drew."""
    rng = hand_rng(seed, hand_no, redeals)
    rng.shuffle(list(range(rules.n_tiles)))
    return rng


def highest_double_opener(rules: Rules, hands: list[list[int]]) -> tuple[int, int]:
    """RULES.md 1: the highest double held opens; none: the heaviest tile
    (ties: the higher number).  Returns (seat, tile)."""
    holder = {t: s for s, h in enumerate(hands) for t in h}
    for d in range(rules.set, -1, -1):
        t = tiles.Tile(d, d).id
        if t in holder:
            return holder[t], t
    best = min(holder, key=tiles.sort_key)
    return holder[best], best


class Match:
    idle: dict | None = None     # (a match made with __new__, as a replay does, has none yet)

    def __init__(self, rules: Rules, seed: int | str = 0, seats: list[dict] | None = None):
        self.rules = rules
        self.seed = seed
        if seats is None:
            seats = [{"name": f"Player {i + 1}", "kind": HUMAN} for i in range(rules.players)]
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} players need {rules.players} seats, got {len(seats)}")
        self.seats = [{"name": str(s.get("name", "")), "kind": str(s.get("kind", HUMAN))} for s in seats]
        self.auto = True          # apply forced draws and passes automatically
        self.records: list[dict] = []    # one per hand started: deal, boneyard, opener, redeals, result
        self.scores = [0] * rules.n_sides
        self.hand: Hand | None = None
        self.finished = False
        self.outcome: dict | None = None
        self.resigned: dict | None = None
        self.idle: dict | None = None
        self.seq = 0
        self.board = BOARDS.get(rules.shape)
        self.start_hand()

    # ----- hands ------------------------------------------------------------
    @property
    def hand_no(self) -> int:
        return len(self.records) - 1

    def start_hand(self, deal: list[list[int]] | None = None, boneyard: list[int] | None = None,
                   opener: int | None = None, redeals: int | None = None,
                   extra: dict | None = None) -> None:
        """Deal the next hand from the seed (or from a record's deal)."""
        r = self.rules
        k = len(self.records)
        if self.board is not None:
            given = None
            if deal is not None:
                given = {"deal": deal, "boneyard": list(boneyard or []), "opener": opener,
                         "redeals": redeals or 0, **(extra or {})}
            self.board.start(self, given)
            self.seq += 1
            if self.auto:       # the forced draws and passes count as a replay counts them
                self.seq += len(self.hand.advance())
            return
        if deal is None:
            deal, boneyard, redeals, rng = deal_hand(r, self.seed, k)
        else:
            rng = opener_rng(r, self.seed, k, redeals or 0)
        opener_seat, forced = self._opener(deal, k, redeals or 0)
        if opener is not None and opener != opener_seat:
            if not (k == 0 and r.first_opener == "random" and opener == rng.randrange(r.players)):
                raise IllegalAction("bad-format", f"hand {k}: seat {opener} cannot open; the rules give seat {opener_seat}")
            opener_seat = opener      # a record kept before the random opener came from the deal's seed
        masks = [tiles.mask_of(h) for h in deal]
        self.hand = Hand(r, masks, boneyard, opener_seat, forced, base=self.scores)
        self.records.append({"redeals": redeals or 0, "deal": [sorted(h) for h in deal],
                             "boneyard": list(boneyard), "opener": opener_seat,
                             "actions": self.hand.actions, "result": None})
        self.seq += 1
        if self.auto:
            self.seq += len(self.hand.advance())

    def deal_seed(self, k: int | None = None) -> str:
        """Hand ``k``'s deal seed (the current hand's by default): secret until the hand is over."""
        return deals.deal_seed(self.seed, self.hand_no if k is None else k)

    def fingerprint(self, k: int | None = None) -> str:
        """Hand ``k``'s deal fingerprint, public from the deal on."""
        return deals.fingerprint(self.deal_seed(k))

    def dealing(self, k: int | None = None, reveal: bool = False) -> dict:
        """What anybody may check hand ``k``'s deal with (``deals.check``): its
        fingerprint, the redeals, the seats' dealt counts, the tiles set apart
        and, with ``reveal`` (the hand is over), its seed."""
        k = self.hand_no if k is None else k
        rec = self.records[k]
        dealt = set(t for hd in rec["deal"] for t in hd) | set(rec["boneyard"])
        out = {"fingerprint": self.fingerprint(k), "redeals": rec["redeals"],
               "sizes": [len(hd) for hd in rec["deal"]],
               "apart": [tiles.NAMES[t] for t in range(self.rules.n_tiles) if t not in dealt]}
        if reveal:
            out["seed"] = self.deal_seed(k)
        return out

    def _opener(self, deal, k: int, redeals: int) -> tuple[int, int | None]:
        r = self.rules
        if k == 0:
            if r.first_opener == "random":
                return deals.random_seat(self.deal_seed(k), redeals, r.players), None
            return highest_double_opener(r, deal)
        prev = self.records[-1]
        res = prev["result"] or {}
        mode = r.next_opener
        if mode == "rotate":
            return (prev["opener"] + 1) % r.players, None
        if mode == "winner":
            blocked = res.get("end") == "blocked"
            if res.get("winner") is not None and not (blocked and r.after_block == "highest-double"):
                return res["winner"], None
        return highest_double_opener(r, deal)

    def next_hand(self) -> None:
        if self.finished:
            raise IllegalAction("bad-format", "the match is over")
        if self.hand is not None and not self.hand.ended:
            raise IllegalAction("bad-format", "the hand is still being played")
        self.start_hand()

    @property
    def phase(self) -> str:
        if self.finished:
            return "match-over"
        if self.hand is None or self.hand.ended:
            return "hand-over"
        return "play"

    @property
    def turn(self) -> int | None:
        return self.hand.turn if self.phase == "play" else None

    # ----- actions ------------------------------------------------------------
    def move_to_action(self, m: int, seat: int | None = None) -> dict:
        h = self.hand
        seat = h.turn if seat is None else seat
        if self.board is not None:
            return self.board.to_action(self, m, seat)
        if m == DRAW:
            return {"seat": seat, "draw": tiles.NAMES[h.bone[h.bpos]] if h.bpos < len(h.bone) else None}
        if m == PASS:
            return {"seat": seat, "pass": True}
        t, e = move_tile(m), move_end(m)
        a: dict[str, Any] = {"seat": seat, "play": tiles.NAMES[t]}
        if e != OPEN:
            a["end"] = END_IDS[e]
            if self.rules.joins == "matador" and (1 << t) & h.tab.matadors and tiles.LOW[t] != tiles.HIGH[t]:
                a["open"] = move_exposed(m)
        return a

    def legal_moves(self) -> list[int]:
        return self.hand.moves() if self.phase == "play" else []

    def legal_actions(self) -> list[dict]:
        """Legal actions of the seat to move (draws shown without the tile)."""
        out = []
        for m in self.legal_moves():
            a = self.move_to_action(m)
            for hidden in ("draw", "flip", "peek"):
                if hidden in a:
                    a[hidden] = None
            out.append(a)
        return out

    def find_move(self, action: dict) -> int:
        """Validate an action dict for the seat to move; return the core move."""
        if not isinstance(action, dict) or "seat" not in action:
            raise IllegalAction("bad-format", f"not an action: {action!r}")
        if self.phase != "play":
            raise IllegalAction("out-of-turn", "the hand is over: nobody is to move")
        h = self.hand
        seat = action["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.rules.players:
            raise IllegalAction("bad-format", f"no seat {seat!r}")
        if seat != h.turn:
            raise IllegalAction("out-of-turn", f"it is seat {h.turn}'s turn, not seat {seat}'s")
        if self.board is not None:
            return self.board.find_move(self, action)
        moves = h.moves()
        plays = [m for m in moves if m >= 0]
        if "play" in action:
            try:
                t = tiles.Tile.parse(action["play"]).id
            except ValueError as exc:
                raise IllegalAction("bad-format", str(exc)) from None
            if not (h.hands[seat] >> t) & 1:
                raise IllegalAction("not-in-hand", f"seat {seat} does not hold {tiles.NAMES[t]}")
            end = action.get("end")
            if h.center < 0:
                if end is not None:
                    raise IllegalAction("bad-format", "the opening tile has no end")
                for m in plays:
                    if move_tile(m) == t:
                        return m
                raise IllegalAction("no-match", f"this hand must open with {tiles.NAMES[h.forced]}")
            if end not in END_INDEX:
                raise IllegalAction("bad-format", f"end must be one of W, E, N, S, not {end!r}")
            e = END_INDEX[end]
            fit = [m for m in plays if move_tile(m) == t and move_end(m) == e]
            if "open" in action:
                fit = [m for m in fit if move_exposed(m) == action["open"]]
            if fit:
                return fit[0]
            if e not in h.open:
                why = f"end {end} is not open"
            else:
                why = f"{tiles.NAMES[t]} does not fit at {end}, which shows {h.end_val[e]}"
            if h.declined >= 0 and not any(move_tile(m) == t for m in plays):
                why = f"after declining, {tiles.NAMES[h.declined]} must be played"
            raise IllegalAction("no-match", why)
        if "draw" in action:
            if DRAW not in moves:
                if plays:
                    raise IllegalAction("draw-while-able", f"seat {seat} can play, so it may not draw")
                raise IllegalAction("bad-format", "there is nothing to draw")
            want = action.get("draw")
            if want is not None:
                try:
                    wt = tiles.Tile.parse(want).id
                except ValueError as exc:
                    raise IllegalAction("bad-format", str(exc)) from None
                if wt != h.bone[h.bpos]:
                    next_name = tiles.NAMES[h.bone[h.bpos]]
                    raise IllegalAction("bad-format",
                                        f"the next tile in the boneyard is {next_name}, not {tiles.NAMES[wt]}")
            return DRAW
        if action.get("pass"):
            if PASS not in moves:
                if plays:
                    raise IllegalAction("pass-while-able", f"seat {seat} can play, so it may not pass")
                raise IllegalAction("pass-while-able", f"seat {seat} must draw from the boneyard first")
            return PASS
        raise IllegalAction("bad-format", f"not an action: {action!r}")

    def apply(self, action: dict) -> list[dict]:
        """Validate and apply one action, then (when ``auto``) the forced draws
        and passes that follow.  Returns every action applied, in order."""
        if isinstance(action, dict) and action.get("resign"):
            self.resign(action.get("seat"))
            return [{"seat": action.get("seat"), "resign": True}]
        m = self.find_move(action)
        return self.apply_move(m)

    def apply_move(self, m: int) -> list[dict]:
        """Apply a core move known to be legal (from ``legal_moves``)."""
        h = self.hand
        done = [self.move_to_action(m)]
        h.apply(m)
        self.seq += 1
        if self.auto:
            while not h.ended:
                ms = h.moves()
                if len(ms) != 1 or ms[0] >= 0:
                    break
                done.append(self.move_to_action(ms[0]))
                h.apply(ms[0])
                self.seq += 1
        if h.ended:
            self._finish_hand()
        return done

    def _finish_hand(self) -> None:
        res = self.hand.settle()
        for i, p in enumerate(res["points"]):
            self.scores[i] += p
        res["totals"] = list(self.scores)
        self.records[-1]["result"] = res
        self._check_match_end(res)

    def _check_match_end(self, res: dict) -> None:
        r = self.rules
        sc = self.scores
        if self.board is not None:
            over = self.board.match_over(self, res)
            if over:
                winner = over[1] if isinstance(over, tuple) else self._best(list(range(r.n_sides)), high=False)
                self._end_match(winner, over[0] if isinstance(over, tuple) else over)
            return
        if r.best_of_10:
            if len(self.records) >= 10:
                self._end_match(self._best(list(range(r.n_sides)), high=True), "best-of-10")
            return
        if res["end"] == "target" or max(sc) >= r.target:
            self._end_match(self._best(list(range(r.n_sides)), high=r.points == "good"), "target")

    def _best(self, sides: list[int], high: bool) -> int | None:
        vals = self.scores
        key = max if high else min
        b = key(vals[i] for i in sides)
        top = [i for i in sides if vals[i] == b]
        return top[0] if len(top) == 1 else None

    def _end_match(self, winner: int | None, reason: str) -> None:
        self.finished = True
        self.outcome = {"winner": winner, "reason": reason, "scores": list(self.scores)}

    def resign(self, seat: Any) -> None:
        """RULES.md 1: the resigning side loses; with 3+ sides the best of the
        others wins."""
        r = self.rules
        if self.finished:
            raise IllegalAction("bad-format", "the match is over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < r.players:
            raise IllegalAction("bad-format", f"no seat {seat!r}")
        side = r.side_of(seat)
        others = [i for i in range(r.n_sides) if i != side]
        self.resigned = {"seat": seat, "hand": self.hand_no,
                         "index": len(self.hand.actions) if self.hand else 0}
        self.seq += 1
        winner = others[0] if len(others) == 1 else self._best(others, high=r.points == "good")
        self._end_match(winner, "resign")

    def end_idle(self) -> None:
        """RULES.md 3.5 [001]: a table with no move for 7 days ends with no
        winner (the outcome's reason ``"idle"``; the record says where, under
        ``idle``).  Who decides that a table was idle is the caller's business
        (a match played when each can: the host's clock)."""
        if self.finished:
            raise IllegalAction("bad-format", "the match is over")
        self.idle = {"hand": self.hand_no, "index": len(self.hand.actions) if self.hand else 0}
        self.seq += 1
        self._end_match(None, "idle")

    # ----- what a seat may see -----------------------------------------------
    def layout(self) -> dict:
        h = self.hand
        sp = None
        if h.spinner is not None:
            arm, i = h.spinner
            sp = {"arm": "C" if arm == CENTER else END_IDS[arm], "index": i}
        return {
            "center": tiles.NAMES[h.center] if h.center >= 0 else None,
            "spinner": sp,
            "arms": {END_IDS[e]: [{"tile": tiles.NAMES[t], "out": x} for t, x in h.arms[e]] for e in range(4)},
        }

    def public_action(self, a: tuple, viewer: int | None) -> dict:
        if self.board is not None:
            return self.board.public_action(self, a, viewer)
        seat, kind = a[0], a[1]
        if kind == "p":
            d: dict[str, Any] = {"seat": seat, "play": tiles.NAMES[a[2]]}
            if a[3] != OPEN:
                d["end"] = END_IDS[a[3]]
                t = a[2]
                is_matador = (1 << t) & self.hand.tab.matadors and tiles.LOW[t] != tiles.HIGH[t]
                if self.rules.joins == "matador" and is_matador:
                    d["open"] = a[4]
            return d
        if kind == "d":
            return {"seat": seat, "draw": tiles.NAMES[a[2]] if viewer == seat else None}
        return {"seat": seat, "pass": True}

    def view(self, seat: int) -> dict:
        """Everything ``seat`` may know, as plain JSON-able data."""
        r = self.rules
        h = self.hand
        phase = self.phase
        over = phase != "play"
        legal = self.legal_actions() if phase == "play" and h.turn == seat else []
        board = self.board
        v: dict[str, Any] = {
            "seat": seat,
            "shape": r.shape,
            "game": r.game,
            "options": r.options(),
            "players": r.players,
            "sides": r.sides,
            "side": r.side_of(seat),
            "names": [s["name"] for s in self.seats],
            "kinds": [s["kind"] for s in self.seats],
            "hand_no": self.hand_no,
            "scores": list(self.scores),
            "phase": phase,
            "turn": self.turn,
            "opener": h.opener,
            "hand": [tiles.NAMES[t] for t in tiles.ids(h.hands[seat])],
            "counts": [bin(m).count("1") for m in h.hands],
            "boneyard": h.drawable(),
            "undrawable": len(h.bone) - h.bpos - h.drawable(),
            "layout": self.layout() if board is None else None,
            "ends": {END_IDS[e]: h.end_val[e] for e in h.open} if board is None else None,
            "ends_total": h.ends_total() if board is None else 0,
            "fives": list(h.fives) if board is None else [0] * r.n_sides,
            "history": [self.public_action(a, seat) for a in h.actions],
            "last": tiles.NAMES[h.last] if h.last >= 0 else None,
            "legal": legal,
            "results": [self.public_result(rec["result"]) for rec in self.records[:-1]],
            "result": None,
            "outcome": self.outcome,
            "seq": self.seq,
            "dealing": self.dealing(reveal=over and h.ended),
        }
        if board is not None:
            v.update(board.view(self, seat))
        if over and h.ended:
            res = self.public_result(self.records[-1]["result"])
            res["hands"] = [[tiles.NAMES[t] for t in tiles.ids(m)] for m in h.hands]
            v["result"] = res
        return v

    def seat_tiles(self) -> list[list[str]]:
        """Every seat's tiles at this moment, face up (a hand's review, never a seat's view);
        Frijolito's in the order of the seat's row."""
        h = self.hand
        rows = getattr(h, "rows", None)
        if rows is not None:
            return [[tiles.NAMES[t] for t in row] for row in rows]
        return [[tiles.NAMES[t] for t in tiles.ids(m)] for m in h.hands]

    @staticmethod
    def public_result(res: dict | None) -> dict | None:
        if res is None:
            return None
        return {k: res[k] for k in ("end", "winner", "winners", "counts", "raw", "fives",
                                    "hand_points", "points", "totals")}

    # ----- helpers for players ----------------------------------------------
    def player_rng(self, seat: int) -> random.Random:
        return player_rng(self.seed, seat, self.hand_no, len(self.hand.actions))

    def clone(self) -> "Match":
        """An independent copy (records.from_record(to_record(m)) is the
        round trip through a record)."""
        return copy.deepcopy(self)

    def state_key(self) -> tuple:
        """Full state, for equality checks in tests (hidden parts included)."""
        h = self.hand
        head = (self.rules, self.seed, tuple(tuple(sorted(s.items())) for s in self.seats),
                tuple(self.scores), self.finished, repr(self.outcome),
                repr(self.resigned), repr(self.idle), len(self.records))
        if self.board is not None:
            return head + h.key()
        return head + (tuple(h.hands), tuple(h.bone), h.bpos,
                h.turn, h.center, repr(h.arms), tuple(h.end_val), tuple(h.open), h.spinner,
                tuple(h.actions), h.ended, tuple(h.fives))
